/*
 * cmd_log.c: `log`, toybox's way of writing to the log from the shell,
 * which a host tool uses to mark scenes (`adb shell log -t Flow
 * 'jankgate: scene begin feed'`, issue 52).
 *
 *	log [-p PRIO] [-t TAG] MESSAGE...
 *
 * PRIO is a letter of v d i w e f (or its word: verbose, debug, info,
 * warn, error, fatal; = i), TAG = "log"; the words of MESSAGE are joined
 * by spaces.  The line goes to the main buffer at the device's now, from
 * the system's process (the model has no shell process of its own).
 */
#include <ctype.h>
#include <string.h>

#include "commands.h"
#include "logfmt.h"
#include "simapps.h"
#include "simdev.h"
#include "strbuf.h"
#include "banned.h"

static char
prio_of(const char *s)
{
	static const char letters[] = "vdiwef";
	char c = (char)tolower((unsigned char)s[0]);

	if (!c || !strchr(letters, c))
		return 0;
	return (char)toupper((unsigned char)c);
}

int
cmd_log(struct simcmd_ctx *ctx, int argc, char **argv)
{
	const char *tag = "log";
	char prio = 'I';
	struct strbuf msg = STRBUF_INIT;
	struct simdev *dev = ctx->dev;
	long long now;
	int i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if ((strcmp(argv[i], "-p") && strcmp(argv[i], "-t")) ||
		    i + 1 >= argc)
			return simcmd_error(ctx, 1, "log", "usage: log [-p "
			    "PRIO] [-t TAG] MESSAGE...");
		if (argv[i][1] == 't') {
			tag = argv[++i];
		} else if (!(prio = prio_of(argv[++i]))) {
			return simcmd_error(ctx, 1, "log", "bad -p '%s'",
			    argv[i]);
		}
	}
	if (i >= argc)
		return simcmd_error(ctx, 1, "log", "Needs 1 argument");
	for (int first = i; i < argc; i++) {
		if (i > first)
			strbuf_addch(&msg, ' ');
		strbuf_addstr(&msg, argv[i]);
	}
	simdev_lock(dev);
	now = simdev_now_ns(dev);
	/* The apps' lines up to now first, so the log stays in time order. */
	simapps_advance(dev->apps, now);
	simapps_shell_log(dev->apps, now, prio, tag, msg.buf);
	simdev_unlock(dev);
	strbuf_release(&msg);
	return 0;
}
