/*
 * service.c: the table of services, matched by prefix in order.
 *
 * `shell` covers both the legacy "shell:cmd" and the v2 family
 * "shell,v2,TERM=xterm,raw:cmd"; its handler re-reads the whole string.
 * Anything else (jdwp:, reverse:, framebuffer:, root:...) is refused with
 * CLSE, which is what adbd does for a service it cannot start.
 */
#include <string.h>

#include "service.h"
#include "banned.h"

static const struct simsvc services[] = {
	{ "shell:", NULL, svc_shell_run },
	{ "shell,", NULL, svc_shell_run },
	{ "exec:", NULL, svc_exec_run },
	{ "abb_exec:", NULL, svc_abb_exec_run },
	{ "abb:", NULL, svc_abb_run },
	{ "sync:", NULL, svc_sync_run },
	{ "tcp:", svc_tcp_open, svc_tcp_run },
};

const struct simsvc *
service_find(const char *service, size_t len, const char **arg)
{
	size_t i;

	for (i = 0; i < sizeof(services) / sizeof(services[0]); i++) {
		size_t n = strlen(services[i].prefix);

		if (len >= n && !memcmp(service, services[i].prefix, n)) {
			*arg = service + n;
			return &services[i];
		}
	}
	return NULL;
}
