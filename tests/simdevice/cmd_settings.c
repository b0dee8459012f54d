/*
 * cmd_settings.c: `settings`, the Settings provider's shell (also
 * `cmd settings`).
 *
 *   settings [--user N] get NAMESPACE KEY      the value, or "null"
 *   settings [--user N] put NAMESPACE KEY VALUE
 *   settings [--user N] delete NAMESPACE KEY   "Deleted 1 rows"
 *   settings [--user N] list NAMESPACE         KEY=VALUE lines
 *
 * NAMESPACE is system, secure or global; values live in the device's
 * settings map under "NAMESPACE/KEY".  The animation scales start at the
 * --animation-scale value.
 */
#include <string.h>

#include "commands.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

static int
valid_namespace(const char *ns)
{
	return !strcmp(ns, "system") || !strcmp(ns, "secure") ||
	    !strcmp(ns, "global");
}

struct list_ctx {
	const char *prefix;
	struct strbuf *out;
};

static int
list_one(const char *key, const char *value, void *data)
{
	struct list_ctx *lc = data;
	size_t n = strlen(lc->prefix);

	if (!strncmp(key, lc->prefix, n))
		strbuf_addf(lc->out, "%s=%s\n", key + n, value);
	return 0;
}

static int
usage(struct simcmd_ctx *ctx)
{
	simio_puts(ctx->io, 2, "usage:  settings [--user <USER_ID> | current] "
	    "get namespace key\n        settings [--user <USER_ID> | current] "
	    "put namespace key value\n        settings [--user <USER_ID> | "
	    "current] delete namespace key\n        settings [--user <USER_ID> "
	    "| current] list namespace\n\n'namespace' is one of {system, "
	    "secure, global}, case-insensitive\n");
	return 1;
}

int
cmd_settings(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf key = STRBUF_INIT, out = STRBUF_INIT;
	struct simkv *kv = &ctx->dev->settings;
	int i = 1, status = 0;
	const char *verb;

	while (i + 1 < argc && !strcmp(argv[i], "--user"))
		i += 2;
	if (argc - i < 2 || !valid_namespace(argv[i + 1]))
		return usage(ctx);
	verb = argv[i];
	strbuf_addf(&key, "%s/", argv[i + 1]);
	if (!strcmp(verb, "list") && argc - i == 2) {
		struct list_ctx lc = { key.buf, &out };

		simkv_foreach(kv, list_one, &lc);
	} else if (!strcmp(verb, "get") && argc - i == 3) {
		strbuf_addstr(&key, argv[i + 2]);
		if (!simkv_get(kv, key.buf, &out))
			strbuf_addstr(&out, "null");
		strbuf_addch(&out, '\n');
	} else if (!strcmp(verb, "put") && argc - i >= 4) {
		strbuf_addstr(&key, argv[i + 2]);
		simkv_set(kv, key.buf, argv[i + 3]);
	} else if (!strcmp(verb, "delete") && argc - i == 3) {
		strbuf_addstr(&key, argv[i + 2]);
		strbuf_addf(&out, "Deleted %d rows\n", simkv_unset(kv,
		    key.buf));
	} else
		status = usage(ctx);
	simio_write(ctx->io, 1, out.buf, out.len);
	strbuf_release(&key);
	strbuf_release(&out);
	return status;
}
