/*
 * diag.c: stderr diagnostics with one prefix and one verbosity switch.
 *
 * Each message is formatted into one buffer and written with a single
 * fputs, so lines from parallel device workers do not interleave mid-line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "diag.h"
#include "error.h"
#include "strbuf.h"
#include "utf8.h"
#include "banned.h"

static int level = DIAG_NORMAL;

void
diag_set_level(int l)
{
	level = l;
}

int
diag_level(void)
{
	return level;
}

static void
emit(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;

	/* Messages quote device and scenario strings: no escape reaches
	 * the terminal. */
	strbuf_vaddf(&msg, fmt, ap);
	strbuf_addstr(&sb, prefix);
	utf8_add_printable(&sb, msg.buf, msg.len, 1);
	strbuf_addch(&sb, '\n');
	strbuf_release(&msg);
	fputs(sb.buf, stderr);
	fflush(stderr);
	strbuf_release(&sb);
}

#define DIAG_FN(name, prefix, cond) \
	void name(const char *fmt, ...) \
	{ \
		va_list ap; \
		if (!(cond)) \
			return; \
		va_start(ap, fmt); \
		emit(prefix, fmt, ap); \
		va_end(ap); \
	}

DIAG_FN(diag_error, "jankgate: error: ", 1)
DIAG_FN(diag_warn, "jankgate: warning: ", level >= DIAG_NORMAL)
DIAG_FN(diag_info, "jankgate: ", level >= DIAG_NORMAL)
DIAG_FN(diag_verbose, "jankgate: ", level >= DIAG_VERBOSE)

void
diag_info_line(void *unused, const char *line)
{
	(void)unused;
	diag_info("%s", line);
}
DIAG_FN(diag_plain, "", 1)

void
diag_error_current(void)
{
	const char *m = jg_error_msg();

	diag_error("%s", *m ? m : "unknown error");
}

int
diag_color(int fd)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(fd) && !(nc && *nc);
}
