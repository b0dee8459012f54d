/*
 * service.h: the device services a stream can OPEN.
 *
 * One table maps a service-name prefix ("shell", "exec:", "sync:",
 * "tcp:"...) to its handler.  A handler's `open` runs before the device
 * accepts the OPEN and may refuse it (the host's client then gets FAIL
 * "closed"); `run` does the work and returns when the stream is done, after
 * which the stream layer sends CLSE.  Adding a service is one svc_*.c file
 * and one table entry in service.c.
 */
#ifndef SIM_SERVICE_H
#define SIM_SERVICE_H

#include <stddef.h>

struct simstream;

struct simsvc {
	const char *prefix;
	/* NULL, or: 0 to accept (with *state for run), negative to refuse */
	int (*open)(struct simstream *st, const char *arg, void **state);
	void (*run)(struct simstream *st, const char *arg, void *state);
};

/*
 * The handler for `service` (`len` bytes), or NULL when the device offers
 * no such service.  *arg points into `service` after the matched prefix.
 */
const struct simsvc *service_find(const char *service, size_t len,
    const char **arg);

/*
 * Handlers: svc_shell.c (shell, exec, abb_exec, abb), svc_sync.c and
 * svc_tcp.c.  `arg` is the service string after the table's prefix.
 */
void svc_shell_run(struct simstream *st, const char *arg, void *state);
void svc_exec_run(struct simstream *st, const char *arg, void *state);
void svc_abb_exec_run(struct simstream *st, const char *arg, void *state);
void svc_abb_run(struct simstream *st, const char *arg, void *state);
void svc_sync_run(struct simstream *st, const char *arg, void *state);
int svc_tcp_open(struct simstream *st, const char *arg, void **state);
void svc_tcp_run(struct simstream *st, const char *arg, void *state);

/*
 * MethodTraceMan's server on device port 5392 (svc_traceman.c), reached
 * through tcp: when no --tcp-map claims the port: ready when an app with
 * the library runs; run serves one WebSocket client.
 */
#define TRACEMAN_PORT	5392
struct simdev;
int svc_traceman_ready(struct simdev *dev);
void svc_traceman_run(struct simstream *st);

#endif
