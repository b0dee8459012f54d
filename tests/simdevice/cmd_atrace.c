/*
 * cmd_atrace.c: `atrace`, as far as capturing an app's android.os.Trace
 * sections needs it (issue 52; the buffer is simtrace.c's).
 *
 *   atrace --async_start [-b KB] [-a APP[,APP...]] [CATEGORY...]
 *       prints "capturing trace..." (no newline) and returns; the
 *       capture runs until --async_stop
 *   atrace --async_dump [-b KB]     prints " done\nTRACE:\n" and the
 *                                   trace so far; the capture goes on
 *   atrace --async_stop [-b KB]     the same, and stops the capture
 *
 * -b defaults to 2048 KB, atrace's own default; categories are accepted
 * and ignored (the simulated apps only write their own sections).  An
 * unknown option is atrace's usage error: status 1.  The fault
 * atrace-fail TEXT makes --async_start print TEXT to stderr and exit 1,
 * as atrace does when it may not write the tracing files.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "faults.h"
#include "simapps.h"
#include "simdev.h"
#include "simio.h"
#include "simtrace.h"
#include "strbuf.h"
#include "banned.h"

int
cmd_atrace(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct simdev *dev = ctx->dev;
	const char *apps = NULL;
	long kb = 2048;
	enum { NONE, START, DUMP, STOP } verb = NONE;
	struct strbuf out = STRBUF_INIT;
	long long now;
	int ret;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--async_start"))
			verb = START;
		else if (!strcmp(argv[i], "--async_dump"))
			verb = DUMP;
		else if (!strcmp(argv[i], "--async_stop"))
			verb = STOP;
		else if (!strcmp(argv[i], "-a") && i + 1 < argc)
			apps = argv[++i];
		else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
			kb = strtol(argv[++i], &end, 10);
			if (*end || kb <= 0)
				return simcmd_error(ctx, 1, "atrace", "error "
				    "parsing -b: '%s'", argv[i]);
		} else if (argv[i][0] == '-')
			return simcmd_error(ctx, 1, "atrace", "unknown option "
			    "'%s'", argv[i]);
	}
	if (verb == NONE)
		return simcmd_error(ctx, 1, "atrace", "the simulated atrace "
		    "only captures with --async_start/--async_stop");
	if (verb == START) {
		struct faults f;

		faults_init(&f);
		simdev_faults(dev, &f);
		if (f.atrace_fail) {
			simio_printf(ctx->io, 2, "%s\n", f.atrace_fail);
			faults_release(&f);
			return 1;
		}
		faults_release(&f);
	}
	simdev_lock(dev);
	now = simdev_now_ns(dev);
	/* The apps' sections up to now first. */
	simapps_advance(dev->apps, now);
	if (verb == START) {
		simtrace_start(dev->trace, apps, kb, now, dev->boot_ahead_ns);
		strbuf_addstr(&out, "capturing trace...");
	} else {
		strbuf_addstr(&out, " done\nTRACE:\n");
		simtrace_dump(dev->trace, now, verb == STOP, &out);
	}
	simdev_unlock(dev);
	ret = simio_write(ctx->io, 1, out.buf, out.len) ? 1 : 0;
	strbuf_release(&out);
	return ret;
}
