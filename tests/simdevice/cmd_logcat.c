/*
 * cmd_logcat.c: `logcat`, reading the device's log buffer.
 *
 *   logcat [-c] [-d] [-t N|TIME] [-T N|TIME] [-v FORMAT]... [-b BUFFER]...
 *          [-s] [TAG:PRIO]...
 *
 *   -c         clear the selected buffers and exit
 *   -d         print what is there and exit; without it logcat streams
 *              until the client goes away
 *   -t / -T    only the last N entries, or those since TIME; -t implies -d
 *              TIME is "MM-DD hh:mm:ss.mmm", "YYYY-MM-DD hh:mm:ss.mmm"
 *              (local time) or "SECONDS.mmm": epoch seconds when it is
 *              past 1e9, else monotonic seconds
 *   -v         threadtime (default), brief, time, long and the modifiers
 *              monotonic, epoch, uid, year, usec, nsec, zone, UTC;
 *              "-v a,b" gives several at once
 *   -b         main, system, crash, events, default, all (also "a,b")
 *   -s         silence every tag without its own filterspec
 *
 * Before printing, every app's periodic outputs are produced up to now, so
 * nothing dated earlier than what was printed can appear later.  A stream
 * polls every 50 ms with one cursor.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "error.h"
#include "logfmt.h"
#include "simapps.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define POLL_MS		50
#define NS		1000000000LL

struct logcat {
	struct logfmt_opts o;
	struct logfmt_filter *filters;
	size_t nr_filters, alloc_filters;
	int clear, dump, buffers_given;
	size_t tail;
	const char *since;
};

static int
add_buffers(struct simcmd_ctx *ctx, struct logcat *lc, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *w;
	int ret = 0;

	if (!lc->buffers_given)
		lc->o.buffers = 0;
	lc->buffers_given = 1;
	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",",
	    &save)) {
		int id = logfmt_buffer_id(w);

		if (id == -2)
			lc->o.buffers |= LOGFMT_DEFAULT_BUFFERS;
		else if (id == -3)
			lc->o.buffers |= (1u << LOGFMT_NR_BUFFERS) - 1;
		else if (id >= 0)
			lc->o.buffers |= 1u << id;
		else {
			simio_printf(ctx->io, 2, "logcat: unknown buffer "
			    "'%s'\n", w);
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

static int
add_formats(struct simcmd_ctx *ctx, struct logcat *lc, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *w;
	int ret = 0;

	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",",
	    &save)) {
		if (logfmt_opts_word(&lc->o, w)) {
			simio_printf(ctx->io, 2, "logcat: Invalid parameter "
			    "\"%s\" to -v.\n", w);
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

/* "TAG:P" or "TAG" (V); P one of V D I W E F S. */
static int
add_filter(struct logcat *lc, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	struct logfmt_filter *f;
	char prio = 'V';

	if (colon) {
		if (!colon[1] || colon[2] || !strchr("VDIWEFS*", colon[1]))
			return -1;
		prio = colon[1] == '*' ? 'V' : colon[1];
	}
	XALLOC_GROW(lc->filters, lc->nr_filters + 1, lc->alloc_filters);
	f = &lc->filters[lc->nr_filters++];
	f->tag = colon ? xstrndup(spec, (size_t)(colon - spec)) :
	    xstrdup(spec);
	f->prio = prio;
	return 0;
}

static void
logcat_release(struct logcat *lc)
{
	for (size_t i = 0; i < lc->nr_filters; i++)
		free((char *)lc->filters[i].tag);
	free(lc->filters);
}

/* The value of option `opt` given as "-vX" or "-v X"; NULL if missing. */
static const char *
opt_value(int argc, char **argv, int *i)
{
	if (argv[*i][2])
		return argv[*i] + 2;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int
parse(struct simcmd_ctx *ctx, struct logcat *lc, int argc, char **argv)
{
	int i;

	logfmt_opts_init(&lc->o);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if (a[0] != '-') {
			if (add_filter(lc, a)) {
				simio_printf(ctx->io, 2, "logcat: Invalid "
				    "filter expression '%s'\n", a);
				return -1;
			}
			continue;
		}
		switch (a[1]) {
		case 'c': lc->clear = 1; continue;
		case 'd': lc->dump = 1; continue;
		case 's':
			add_filter(lc, "*:S");
			continue;
		case 'G': case 'g':
			continue;
		}
		if (!strchr("vbtT", a[1]) || !(v = opt_value(argc, argv, &i))) {
			simio_printf(ctx->io, 2, "logcat: unknown option "
			    "'%s'\n", a);
			return -1;
		}
		if (a[1] == 'v' && add_formats(ctx, lc, v))
			return -1;
		if (a[1] == 'b' && add_buffers(ctx, lc, v))
			return -1;
		if (a[1] == 't' || a[1] == 'T') {
			char *end;
			long n;

			lc->dump |= a[1] == 't';
			errno = 0;
			n = strtol(v, &end, 10);
			if (!errno && !*end && n > 0)
				lc->tail = (size_t)n;
			else
				lc->since = v;
		}
	}
	lc->o.filters = lc->filters;
	lc->o.nr_filters = lc->nr_filters;
	return 0;
}

/*
 * The device monotonic time `s` names (see the header comment), or -1
 * when it does not parse.
 */
static long long
parse_time(struct simdev *dev, const char *s, int year_now)
{
	struct tm tm;
	char *end;
	double secs;
	int y = year_now, mo, d, h, mi, fields;
	double sec;

	errno = 0;
	secs = strtod(s, &end);
	if (!errno && end != s && !*end && strchr(s, '.')) {
		long long ns = (long long)(secs * 1e9);

		return secs > 1e9 ? ns - simdev_wall_ns(dev, 0) : ns;
	}
	fields = sscanf(s, "%d-%d-%d %d:%d:%lf", &y, &mo, &d, &h, &mi, &sec);
	if (fields != 6) {
		y = year_now;
		if (sscanf(s, "%d-%d %d:%d:%lf", &mo, &d, &h, &mi, &sec) != 5)
			return -1;
	}
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	/* The log's local time is UTC here. */
	return ((long long)timegm(&tm) * NS + (long long)(sec * 1e9)) -
	    simdev_wall_ns(dev, 0);
}

static int
year_of(struct simdev *dev, long long mono_ns)
{
	time_t t = (time_t)(simdev_wall_ns(dev, mono_ns) / NS);
	struct tm tm;

	gmtime_r(&t, &tm);
	return tm.tm_year + 1900;
}

/* Print what is new up to now; -1 when the client went away. */
static int
pump(struct simcmd_ctx *ctx, struct logcat *lc, struct logfmt_cursor *c,
    size_t tail)
{
	struct strbuf out = STRBUF_INIT;
	struct simdev *dev = ctx->dev;
	long long now;
	int ret = 0;

	simdev_lock(dev);
	now = simdev_now_ns(dev);
	simapps_advance(dev->apps, now);
	logfmt_buf_dump(simapps_log(dev->apps), &out, &lc->o, c, now, tail);
	simdev_unlock(dev);
	if (out.len)
		ret = simio_write(ctx->io, 1, out.buf, out.len);
	strbuf_release(&out);
	return ret;
}

int
cmd_logcat(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT;
	struct logcat lc;
	int status = 0;

	memset(&lc, 0, sizeof(lc));
	if (parse(ctx, &lc, argc, argv)) {
		logcat_release(&lc);
		return 1;
	}
	if (lc.clear) {
		simdev_lock(ctx->dev);
		logfmt_buf_clear(simapps_log(ctx->dev->apps), lc.o.buffers);
		simdev_unlock(ctx->dev);
		goto out;
	}
	if (lc.since) {
		long long t = parse_time(ctx->dev, lc.since, year_of(ctx->dev,
		    simdev_now_ns(ctx->dev)));

		if (t < 0) {
			simio_printf(ctx->io, 2, "logcat: -T/-t \"%s\" not in "
			    "time format\n", lc.since);
			status = 1;
			goto out;
		}
		logfmt_cursor_since(&c, t);
	}
	if (pump(ctx, &lc, &c, lc.tail) || lc.dump)
		goto out;
	/* polled on the device's clock, so a sped-up phone's lines arrive
	   as soon after their time as a real-time one's */
	while (!simio_sleep(ctx->io, ctx->dev->virtual_clock ? POLL_MS :
	    POLL_MS / ctx->dev->clock_scale))
		if (pump(ctx, &lc, &c, 0))
			break;
out:
	logcat_release(&lc);
	return status;
}
