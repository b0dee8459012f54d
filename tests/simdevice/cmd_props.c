/*
 * cmd_props.c: getprop and setprop over the device's property map.
 *
 * `getprop` alone lists every property as "[key]: [value]", sorted, the
 * format of Android's getprop; `getprop KEY [DEFAULT]` prints one value
 * (an empty line when unset and no default).  `setprop` refuses to change
 * a read-only ("ro.") property that is already set, like init does.
 */
#include <string.h>

#include "commands.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

static int
add_line(const char *key, const char *value, void *data)
{
	strbuf_addf(data, "[%s]: [%s]\n", key, value);
	return 0;
}

int
cmd_getprop(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (argc < 2) {
		simkv_foreach(&ctx->dev->props, add_line, &sb);
	} else {
		if (!simkv_get(&ctx->dev->props, argv[1], &sb) && argc > 2)
			strbuf_addstr(&sb, argv[2]);
		strbuf_addch(&sb, '\n');
	}
	ret = simio_write(ctx->io, 1, sb.buf, sb.len) ? 1 : 0;
	strbuf_release(&sb);
	return ret;
}

int
cmd_setprop(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf old = STRBUF_INIT;
	int is_set;

	if (argc != 3)
		return simcmd_error(ctx, 1, "setprop",
		    "Need 2 arguments (see \"setprop --help\")");
	is_set = simkv_get(&ctx->dev->props, argv[1], &old);
	strbuf_release(&old);
	if (is_set && !strncmp(argv[1], "ro.", 3))
		return simcmd_error(ctx, 1, "setprop",
		    "failed to set property '%s' to '%s'", argv[1], argv[2]);
	simkv_set(&ctx->dev->props, argv[1], argv[2]);
	return 0;
}
