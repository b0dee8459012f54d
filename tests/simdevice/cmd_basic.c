/*
 * cmd_basic.c: echo, true, false, exit and sleep, as toybox and mksh
 * behave for the cases adb clients use.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

/* Append `s` to `sb`, expanding echo -e escapes.  1 after "\c". */
static int
add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			strbuf_addch(sb, *s);
			continue;
		}
		switch (*++s) {
		case 'n': strbuf_addch(sb, '\n'); break;
		case 't': strbuf_addch(sb, '\t'); break;
		case 'r': strbuf_addch(sb, '\r'); break;
		case 'a': strbuf_addch(sb, '\a'); break;
		case 'b': strbuf_addch(sb, '\b'); break;
		case 'f': strbuf_addch(sb, '\f'); break;
		case 'v': strbuf_addch(sb, '\v'); break;
		case 'e': strbuf_addch(sb, 27); break;
		case '\\': strbuf_addch(sb, '\\'); break;
		case 'c': return 1;
		case '0': {
			int v = 0, k;

			for (k = 0; k < 3 && s[1] >= '0' && s[1] <= '7'; k++)
				v = v * 8 + (*++s - '0');
			strbuf_addch(sb, v);
			break;
		}
		default:
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *s);
		}
	}
	return 0;
}

/* echo [-neE] [ARG...]: options only before the first argument. */
int
cmd_echo(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int newline = 1, escapes = 0, i = 1, first, ret;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] &&
	    strspn(argv[i] + 1, "neE") == strlen(argv[i] + 1); i++) {
		const char *o;

		for (o = argv[i] + 1; *o; o++) {
			if (*o == 'n')
				newline = 0;
			else
				escapes = *o == 'e';
		}
	}
	for (first = i; i < argc; i++) {
		if (i > first)
			strbuf_addch(&sb, ' ');
		if (!escapes) {
			strbuf_addstr(&sb, argv[i]);
		} else if (add_escaped(&sb, argv[i])) {
			newline = 0;	/* "\c": stop, no newline */
			break;
		}
	}
	if (newline)
		strbuf_addch(&sb, '\n');
	ret = simio_write(ctx->io, 1, sb.buf, sb.len) ? 1 : 0;
	strbuf_release(&sb);
	return ret;
}

int
cmd_true(struct simcmd_ctx *ctx, int argc, char **argv)
{
	return 0;
}

int
cmd_false(struct simcmd_ctx *ctx, int argc, char **argv)
{
	return 1;
}

/*
 * export NAME=VALUE...: accepted and forgotten, as the shell keeps no
 * variables; `adb logcat` sends "export ANDROID_LOG_TAGS=...; exec logcat".
 */
int
cmd_export(struct simcmd_ctx *ctx, int argc, char **argv)
{
	return 0;
}

/* exit [N]: end the script with status N (default 0). */
int
cmd_exit(struct simcmd_ctx *ctx, int argc, char **argv)
{
	char *end;
	long v = 0;

	ctx->exit = 1;
	if (argc < 2)
		return 0;
	errno = 0;
	v = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end) {
		simio_printf(ctx->io, 2,
		    "/system/bin/sh: exit: %s: bad number\n", argv[1]);
		return 1;
	}
	return (int)(v & 0xff);
}

/* sleep SECONDS...: fractional values allowed, the sum is slept. */
int
cmd_sleep(struct simcmd_ctx *ctx, int argc, char **argv)
{
	double total = 0;
	int i;

	if (argc < 2)
		return simcmd_error(ctx, 1, "sleep", "Needs 1 argument");
	for (i = 1; i < argc; i++) {
		char *end;
		double v;

		errno = 0;
		v = strtod(argv[i], &end);
		if (errno || end == argv[i] || *end || v < 0 || !isfinite(v))
			return simcmd_error(ctx, 1, "sleep",
			    "invalid time interval '%s'", argv[i]);
		total += v;
	}
	return simdev_spend(ctx->dev, ctx->io, total * 1e3) ? 130 : 0;
}
