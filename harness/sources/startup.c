/*
 * startup.c: the `startup` source, one launch's timing from the framework
 * (FORMATS §3.2, §3.3).
 *
 * `am start -W` (the launch hook), API 24..34:
 *
 *   Starting: Intent { cmp=com.example/.MainActivity }
 *   Warning: Activity not started, its current task has ...   (maybe)
 *   Status: ok                 (or timeout; "Error: ..." instead)
 *   LaunchState: COLD          (API 29+; RELAUNCH, "UNKNOWN (n)")
 *   Activity: com.example/.MainActivity
 *   ThisTime: 412              (API <= 28)
 *   TotalTime: 412
 *   WaitTime: 431
 *   Complete
 *
 * Lines come in any order, each optional except Status.  An "Error..."
 * line, or a Status other than ok, means the launch did not happen as
 * asked: the hook fails with JG_EINVAL and the runner fails the iteration.
 * Each launch replaces the iteration's startup record (an iteration
 * records its last launch, plan.md), keeping the kind the runner set.
 *
 * The system's log lines (the logcat hook), tag ActivityManager up to API
 * 28 and ActivityTaskManager from 29 (both are accepted on every level,
 * for OEM builds):
 *
 *	START u0 {... cmp=com.example/.MainActivity} from uid 2000
 *	Displayed com.example/.MainActivity: +412ms
 *	Displayed com.example/.MainActivity: +3s534ms (total +1m22s643ms)
 *	Displayed com.example/.MainActivity for user 0: +412ms	(API 34)
 *	Fully drawn com.example/.MainActivity: +1s966ms
 *
 * Durations are TimeUtils.formatDuration: [+-] then d, h, m, s, ms fields,
 * or "0".  With "(total ...)" the total is taken: it spans the whole
 * launch, like the single number of API 29+.
 *
 * Which lines belong to the launch: `am start` from the shell (uid 2000)
 * logs a START line, so the last START of the package marks the
 * iteration's last launch.  Displayed is the first Displayed line of the
 * package after it, and no later than WaitTime + 1 s after it when
 * WaitTime is known (am waits for that very frame; later lines are the
 * scenario opening other activities).  A HOT launch has none.  Fully
 * drawn is the first one after the START for the activity Displayed
 * named (any of the package's without one).  When no START line was
 * captured (no system buffer), the last Displayed and Fully drawn lines
 * of the package are taken.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "textline.h"
#include "banned.h"

#define SRC "startup"

/* Displayed comes before `am start -W` returns; allow for log timing. */
#define DISPLAYED_SLACK_MS 1000

struct am_result {
	bool status_seen;
	struct strbuf status;		/* "ok", "timeout" */
	struct strbuf error;		/* the first "Error..." line */
	struct strbuf warning;		/* the last "Warning: ..." line */
	struct strbuf activity;
	struct strbuf launch_state;
	double total_ms, wait_ms;
};

/* When `s` (n bytes) starts with `prefix`, the rest; else NULL. */
static const char *
after(const char *s, size_t n, const char *prefix, size_t *rest)
{
	size_t k = strlen(prefix);

	if (n < k || memcmp(s, prefix, k))
		return NULL;
	*rest = n - k;
	return s + k;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits filling s[0..n), at most 9 of them (ms: 11 days). */
static bool
read_ms(const char *s, size_t n, double *out)
{
	double v = 0;

	if (!n || n > 9)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static void
am_result_init(struct am_result *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->status, 0);
	strbuf_init(&r->error, 0);
	strbuf_init(&r->warning, 0);
	strbuf_init(&r->activity, 0);
	strbuf_init(&r->launch_state, 0);
	r->total_ms = r->wait_ms = NAN;
}

static void
am_result_release(struct am_result *r)
{
	strbuf_release(&r->status);
	strbuf_release(&r->error);
	strbuf_release(&r->warning);
	strbuf_release(&r->activity);
	strbuf_release(&r->launch_state);
}

static void
set(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_reset(sb);
	strbuf_add(sb, s, n);
}

/* Read `am start -W` output; returns the number of lines recognised. */
static int
am_read(struct am_result *r, const char *buf, size_t len)
{
	const char *pos = buf, *end = buf + len, *v;
	struct text_line l;
	size_t n;
	int known = 0;

	while (text_next_line(&pos, end, &l)) {
		known++;
		if ((v = after(l.s, l.n, "Status: ", &n))) {
			set(&r->status, v, n);
			r->status_seen = true;
		} else if ((v = after(l.s, l.n, "LaunchState: ", &n))) {
			set(&r->launch_state, v, n);
		} else if ((v = after(l.s, l.n, "Activity: ", &n))) {
			set(&r->activity, v, n);
		} else if ((v = after(l.s, l.n, "TotalTime: ", &n))) {
			if (!read_ms(v, n, &r->total_ms))
				r->total_ms = NAN;
		} else if ((v = after(l.s, l.n, "WaitTime: ", &n))) {
			if (!read_ms(v, n, &r->wait_ms))
				r->wait_ms = NAN;
		} else if (after(l.s, l.n, "Warning: ", &n)) {
			set(&r->warning, l.s, l.n);
		} else if (after(l.s, l.n, "Error", &n) ||
		    after(l.s, l.n, "Exception occurred", &n) ||
		    after(l.s, l.n, "Security exception", &n)) {
			/* "Error: Activity class {...}" says more than
			 * the "Error type 3" before it. */
			if (!r->error.len || (!after(r->error.buf,
			    r->error.len, "Error: ", &n) &&
			    after(l.s, l.n, "Error: ", &n)))
				set(&r->error, l.s, l.n);
		} else if (after(l.s, l.n, "Starting: ", &n)) {
			/* Saved output of several launches: the last one. */
			am_result_release(r);
			am_result_init(r);
		} else if (!after(l.s, l.n, "ThisTime: ", &n) &&
		    !(l.n == 8 && !memcmp(l.s, "Complete", 8))) {
			known--;
		}
	}
	return known;
}

/* Warn when the device did not launch the way the scenario asked. */
static void
check_kind(struct source_ctx *ctx, const struct am_result *r)
{
	const char *want = rs_launch_name(ctx->it->startup.kind);

	if (!want)
		return;
	if (r->launch_state.len && strcasecmp(r->launch_state.buf, want))
		source_warn(ctx, NULL, SRC, "a %s launch was asked, the device "
		    "reports '%s'", want, r->launch_state.buf);
	if (ctx->it->startup.kind == RS_LAUNCH_COLD && r->warning.len)
		source_warn(ctx, NULL, SRC, "a cold launch was asked, am "
		    "says '%s'", r->warning.buf);
}

static int
startup_launch(struct source_ctx *ctx, const char *out, size_t len)
{
	struct rs_startup *st = &ctx->it->startup;
	struct am_result r;
	int ret = 0;

	am_result_init(&r);
	am_read(&r, out, len);
	if (r.error.len) {
		ret = jg_error_set(JG_EINVAL, "am start failed: '%s'",
		    r.error.buf);
		goto out;
	}
	if (r.status_seen && strcmp(r.status.buf, "ok")) {
		ret = jg_error_set(JG_EINVAL, "launch of '%s' did not "
		    "complete: 'Status: %s'", r.activity.len ? r.activity.buf :
		    ctx->package ? ctx->package : "?", r.status.buf);
		goto out;
	}
	if (!r.status_seen)
		source_warn(ctx, NULL, SRC, "am start printed no 'Status:' "
		    "line");
	st->present = true;
	st->total_ms = r.total_ms;
	st->wait_ms = r.wait_ms;
	st->displayed_ms = NAN;
	st->fully_drawn_ms = NAN;
	rs_str_set(&st->launch_state, r.launch_state.len ?
	    r.launch_state.buf : NULL);
	check_kind(ctx, &r);
out:
	am_result_release(&r);
	return ret;
}

/*
 * A formatDuration text filling s[0..n): "+1s234ms", "+456ms", "0".
 * Negative durations are refused: a launch does not end before it starts.
 */
static bool
read_duration(const char *s, size_t n, double *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = {
		{ "ms", 1 }, { "d", 86400000 }, { "h", 3600000 },
		{ "m", 60000 }, { "s", 1000 },
	};
	size_t i = 0, fields = 0;
	double total = 0;

	if (n == 1 && s[0] == '0') {
		*ms = 0;
		return true;
	}
	if (!n || s[i++] != '+')
		return false;
	while (i < n) {
		double v = 0;
		size_t digits = 0, u;

		for (; i < n && is_digit(s[i]); i++, digits++)
			v = v * 10 + (s[i] - '0');
		if (!digits || digits > 9)
			return false;
		for (u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
			size_t k = strlen(units[u].unit);

			if (n - i >= k && !memcmp(s + i, units[u].unit, k))
				break;
		}
		if (u == sizeof(units) / sizeof(units[0]))
			return false;
		i += strlen(units[u].unit);
		total += v * units[u].ms;
		fields++;
	}
	*ms = total;
	return fields > 0;
}

/* A system line of the activity manager: the tags of every API level. */
static bool
is_am_tag(const struct logcat_line *l)
{
	return (l->tag_len == 15 && !memcmp(l->tag, "ActivityManager", 15)) ||
	    (l->tag_len == 19 && !memcmp(l->tag, "ActivityTaskManager", 19));
}

/* A component "pkg/.Cls", as the log prints it. */
struct comp {
	const char *s;
	size_t n;
};

/* Whether `c` is an activity of `pkg`, or of any package when NULL. */
static bool
comp_of(const struct comp *c, const char *pkg)
{
	const char *slash = memchr(c->s, '/', c->n);
	size_t k = pkg ? strlen(pkg) : 0;

	if (!pkg)
		return slash && slash > c->s;
	return c->n > k && !memcmp(c->s, pkg, k) && c->s[k] == '/';
}

static bool
comp_eq(const struct comp *a, const struct comp *b)
{
	return a->n == b->n && !memcmp(a->s, b->s, a->n);
}

/*
 * "Displayed C: D", "Displayed C for user N: D", "Fully drawn C: D",
 * each maybe with " (total D)".  `prefix` picks the kind.
 */
static bool
read_timing(const struct logcat_line *l, const char *prefix, struct comp *c,
    double *ms)
{
	const char *s, *colon, *total, *end = l->msg + l->msg_len;
	size_t n;

	if (!is_am_tag(l) || !(s = after(l->msg, l->msg_len, prefix, &n)))
		return false;
	colon = memmem(s, n, ": ", 2);
	if (!colon)
		return false;
	c->s = s;
	c->n = (size_t)(colon - s);
	for (size_t i = 0; i < c->n; i++)
		if (s[i] == ' ') {
			c->n = i;	/* " for user 0" */
			break;
		}
	s = colon + 2;
	total = memmem(s, (size_t)(end - s), " (total ", 8);
	if (total && end[-1] == ')')
		return read_duration(total + 8, (size_t)(end - total - 9), ms);
	return read_duration(s, total ? (size_t)(total - s) :
	    (size_t)(end - s), ms);
}

/* "START u0 {... cmp=pkg/.Cls ...} from uid 2000": a launch by the shell. */
static bool
read_start(const struct logcat_line *l, struct comp *c)
{
	const char *end = l->msg + l->msg_len, *cmp, *p;
	size_t n;

	if (!is_am_tag(l) || !after(l->msg, l->msg_len, "START u", &n) ||
	    !memmem(l->msg, l->msg_len, "} from uid 2000", 15))
		return false;
	cmp = memmem(l->msg, l->msg_len, " cmp=", 5);
	if (!cmp) {
		cmp = memmem(l->msg, l->msg_len, "{cmp=", 5);
		if (!cmp)
			return false;
	}
	c->s = p = cmp + 5;
	while (p < end && *p != ' ' && *p != '}')
		p++;
	c->n = (size_t)(p - c->s);
	return true;
}

/* Where the last launch starts: the index of its START line, or -1. */
static long
find_anchor(const struct logcat_line *lines, size_t nr, const char *pkg,
    struct comp *launched)
{
	long anchor = -1;

	for (size_t i = 0; i < nr; i++) {
		struct comp c;

		if (read_start(&lines[i], &c) && comp_of(&c, pkg)) {
			anchor = (long)i;
			*launched = c;
		}
	}
	return anchor;
}

struct timing {
	bool found;
	struct comp comp;
	double ms;
};

/*
 * The Displayed or Fully drawn line of the launch: the first after the
 * anchor, at most `limit_ms` after it; the last one without an anchor.
 * `want` narrows it to one activity.
 */
static void
find_timing(const struct logcat_line *lines, size_t nr, long anchor,
    double limit_ms, const char *prefix, const char *pkg,
    const struct comp *want, struct timing *t)
{
	for (size_t i = anchor < 0 ? 0 : (size_t)anchor + 1; i < nr; i++) {
		struct comp c;
		double ms;

		if (!read_timing(&lines[i], prefix, &c, &ms) ||
		    !comp_of(&c, pkg) || (want && !comp_eq(&c, want)))
			continue;
		if (anchor >= 0 &&
		    lines[i].mono_ms - lines[anchor].mono_ms > limit_ms)
			break;
		t->found = true;
		t->comp = c;
		t->ms = ms;
		if (anchor >= 0)
			break;
	}
}

static void
read_launch_log(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	struct rs_startup *st = &ctx->it->startup;
	struct timing shown = { 0 }, drawn = { 0 };
	struct strbuf pkg = STRBUF_INIT;
	struct comp launched = { NULL, 0 };
	double limit = INFINITY;
	long anchor;

	anchor = find_anchor(lines, nr, ctx->package, &launched);
	if (ctx->package)
		strbuf_addstr(&pkg, ctx->package);
	else if (anchor >= 0)
		strbuf_add(&pkg, launched.s,
		    (size_t)((const char *)memchr(launched.s, '/', launched.n) -
		    launched.s));
	if (!isnan(st->wait_ms))
		limit = st->wait_ms + DISPLAYED_SLACK_MS;
	if (!st->launch_state || strcmp(st->launch_state, "HOT"))
		find_timing(lines, nr, anchor, limit, "Displayed ",
		    pkg.len ? pkg.buf : NULL, NULL, &shown);
	find_timing(lines, nr, anchor, INFINITY, "Fully drawn ",
	    pkg.len ? pkg.buf : NULL, shown.found ? &shown.comp : NULL,
	    &drawn);
	if (shown.found)
		st->displayed_ms = shown.ms;
	if (drawn.found)
		st->fully_drawn_ms = drawn.ms;
	st->present |= shown.found || drawn.found;
	if (!shown.found && (st->kind == RS_LAUNCH_COLD ||
	    st->kind == RS_LAUNCH_WARM))
		source_warn(ctx, NULL, SRC, "no 'Displayed' line for '%s' "
		    "after the %s launch", pkg.len ? pkg.buf : "the app",
		    rs_launch_name(st->kind));
	strbuf_release(&pkg);
}

static int
startup_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	/* No launch step in this iteration: nothing to time. */
	if (ctx->it->startup.present)
		read_launch_log(ctx, lines, nr);
	return 0;
}

/*
 * `jankgate parse startup FILE`: `am start -W` output, a logcat capture,
 * or both in one file (the lines of each are told apart).
 */
static int
startup_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	struct logcat_buf *log = logcat_buf_new();
	const struct logcat_line *lines;
	struct am_result r;
	size_t nr;
	int ret = 0;

	am_result_init(&r);
	logcat_buf_parse_text(log, buf, len);
	lines = logcat_buf_lines(log, &nr);
	if (am_read(&r, buf, len) > 0)
		ret = startup_launch(ctx, buf, len);
	if (!ret && nr)
		read_launch_log(ctx, lines, nr);
	if (!ret && !nr && !ctx->it->startup.present)
		source_warn(ctx, NULL, SRC, "'%s' holds neither 'am start -W' "
		    "output nor 'logcat -v monotonic' lines", name);
	am_result_release(&r);
	logcat_buf_free(log);
	return ret;
}

const struct source source_startup = {
	.name = "startup",
	.summary = "launch timing from am start -W and the Displayed / "
	    "Fully drawn log lines",
	.logcat_buffers = "system",
	.launch = startup_launch,
	.logcat = startup_logcat,
	.parse = startup_parse,
};
