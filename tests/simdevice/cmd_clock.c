/*
 * cmd_clock.c: the device's clocks as toybox shows them: `date` and
 * `uptime`.
 *
 *   date [-u] [+FORMAT]     Tue Nov  5 14:22:33 UTC 2024; FORMAT is
 *                           strftime's, plus %N (nanoseconds)
 *   uptime                  " 14:22:33 up 1 day,  2:03,  0 users,  load
 *                           average: 0.52, 0.58, 0.59"
 *
 * The device's local time is UTC.  Both read the device clock, which is
 * the virtual one under --clock virtual.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

#define NS	1000000000LL

/* strftime of `fmt` with toybox's %N extension. */
static void
format_time(struct strbuf *out, const char *fmt, long long wall_ns)
{
	time_t t = (time_t)(wall_ns / NS);
	struct strbuf f = STRBUF_INIT;
	struct tm tm;
	char buf[512];

	for (const char *p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] == 'N') {
			strbuf_addf(&f, "%09lld", wall_ns % NS);
			p++;
		} else if (p[0] == '%' && p[1] == 'Z') {
			strbuf_addstr(&f, "UTC");
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			strbuf_addstr(&f, "%%");
			p++;
		} else
			strbuf_addch(&f, *p);
	}
	gmtime_r(&t, &tm);
	/* The format is the user's, as it is for toybox's date. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (strftime(buf, sizeof(buf), f.buf, &tm) || !f.len)
		strbuf_addstr(out, buf);
#pragma GCC diagnostic pop
	strbuf_release(&f);
}

int
cmd_date(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	const char *fmt = "%a %b %e %H:%M:%S %Z %Y";
	int i;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '+')
			fmt = argv[i] + 1;
		else if (strcmp(argv[i], "-u"))
			return simcmd_error(ctx, 1, "date", "setting the time "
			    "is not permitted");
	}
	format_time(&out, fmt, simdev_wall_ns(ctx->dev,
	    simdev_now_ns(ctx->dev)));
	strbuf_addch(&out, '\n');
	simio_write(ctx->io, 1, out.buf, out.len);
	strbuf_release(&out);
	return 0;
}

int
cmd_uptime(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	long long mono = simdev_now_ns(ctx->dev);
	long long up_min = mono / NS / 60;
	long long days = up_min / 1440, hours = up_min / 60 % 24;

	format_time(&out, " %H:%M:%S up ", simdev_wall_ns(ctx->dev, mono));
	if (days)
		strbuf_addf(&out, "%lld day%s, ", days, days == 1 ? "" : "s");
	if (hours)
		strbuf_addf(&out, "%2lld:%02lld, ", hours, up_min % 60);
	else
		strbuf_addf(&out, "%lld min, ", up_min % 60);
	strbuf_addstr(&out, " 0 users,  load average: 0.52, 0.58, 0.59\n");
	simio_write(ctx->io, 1, out.buf, out.len);
	strbuf_release(&out);
	return 0;
}
