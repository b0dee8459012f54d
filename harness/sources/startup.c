/*
 * startup.c: the `startup` source, launch timing from the framework
 * (docs/formats.md §3.2, §3.3).
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
 * Lines come in any order, each optional.  Pasted in a blog, a report
 * or a code comment they may be indented, after a comment or quote mark
 * ("* ", "// ", "# ", "> "), with a note after the value ("TotalTime:
 * 90   // all activities"): both are left out.  Old releases print no
 * Status, only the times
 * (ThisTime, TotalTime, WaitTime, or Activity and TotalTime): output with
 * neither a Status nor a time is a warning.  An "Error..." line, or a
 * Status other than ok, means the launch did not happen as asked: the
 * hook fails with JG_EINVAL and the runner fails the iteration.
 * Each launch replaces the iteration's startup record (an iteration
 * records its last launch, plan.md), keeping the kind the runner set.
 * An `Activity:` of another package than the app (a launcher, a chooser,
 * another app's trampoline) is a warning naming it: the times are that
 * activity's.
 *
 * The system's log lines (the logcat hook; startup_log.c reads them):
 * `am start` from the shell (uid 2000) logs a START line, so the last
 * START of the package marks the iteration's last launch.  Displayed is
 * the first Displayed line of the package after it, and no later than
 * WaitTime + 1 s after it when WaitTime is known (am waits for that very
 * frame; later lines are the scenario opening other activities).  A HOT
 * launch has none.  Fully drawn is the first one after the START for the
 * activity Displayed named (any of the package's without one).  When no
 * START line was captured (no system buffer), the last Displayed and
 * Fully drawn lines of the package are taken.  displayed_ms is the
 * Displayed line's own number; its "(total ...)" (API <= 28) is the
 * launch's TotalTime and fills total_ms when am did not.
 *
 * `jankgate parse startup FILE` reads `am start -W` output, a log in any
 * layout (logcat.h), or both, and reports every launch in order (the
 * iteration keeps the last, as a run does): one per `am start -W` when
 * the file has any (each paired with its START line, in order), else one
 * per Displayed line of the app (of any app when none is given).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capture.h"
#include "error.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "startup_int.h"
#include "strbuf.h"
#include "textenc.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "startup"

/* Displayed comes before `am start -W` returns; allow for log timing. */
#define DISPLAYED_SLACK_MS 1000

/* One `am start -W`'s output. */
struct am_result {
	bool status_seen;
	struct strbuf status;		/* "ok", "timeout" */
	struct strbuf error;		/* the first "Error..." line */
	struct strbuf warning;		/* the last "Warning: ..." line */
	struct strbuf activity;
	struct strbuf intent;		/* the Starting: line's cmp= */
	struct strbuf launch_state;
	double total_ms, wait_ms;
};

struct am_list {
	struct am_result *v;
	size_t nr, alloc;
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

/* Digits filling s[0..n), at most 9 of them (ms: 11 days). */
static bool
read_ms(const char *s, size_t n, double *out)
{
	double v = 0;

	if (!n || n > 9)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
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
	strbuf_init(&r->intent, 0);
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
	strbuf_release(&r->intent);
	strbuf_release(&r->launch_state);
}

static void
am_list_release(struct am_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		am_result_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void
set(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_reset(sb);
	strbuf_add(sb, s, n);
}

/* "Starting: Intent { act=... cmp=pkg/.Act }": the cmp. */
static void
read_intent(struct am_result *r, const char *s, size_t n)
{
	const char *cmp = memmem(s, n, "cmp=", 4), *end = s + n, *p;

	if (!cmp)
		return;
	for (p = cmp + 4; p < end && *p != ' ' && *p != '}'; p++)
		;
	set(&r->intent, cmp + 4, (size_t)(p - cmp - 4));
}

enum am_key {
	AM_NONE, AM_STARTING, AM_STATUS, AM_STATE, AM_ACTIVITY, AM_THIS,
	AM_TOTAL, AM_WAIT, AM_WARNING, AM_ERROR, AM_COMPLETE, AM_NR_KEYS
};

static enum am_key
key_of(const struct text_line *l)
{
	static const struct {
		const char *prefix;
		enum am_key key;
	} keys[] = {
		{ "Starting: ", AM_STARTING }, { "Status: ", AM_STATUS },
		{ "LaunchState: ", AM_STATE }, { "Activity: ", AM_ACTIVITY },
		{ "ThisTime: ", AM_THIS }, { "TotalTime: ", AM_TOTAL },
		{ "WaitTime: ", AM_WAIT }, { "Warning: ", AM_WARNING },
		{ "Error", AM_ERROR }, { "Exception occurred", AM_ERROR },
		{ "Security exception", AM_ERROR },
	};
	size_t n;

	if (l->n == 8 && !memcmp(l->s, "Complete", 8))
		return AM_COMPLETE;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (after(l->s, l->n, keys[i].prefix, &n))
			return keys[i].key;
	return AM_NONE;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A pasted line's indentation: blanks and tabs, and a comment or quote
 * mark with blanks after it ("* Status: ok" in a Javadoc comment, "//",
 * "#", "> " in Markdown).
 */
static void
unindent(struct text_line *l)
{
	static const char *const marks[] = { "*", "//", "#", ">" };

	while (l->n && is_blank(*l->s))
		l->s++, l->n--;
	for (size_t i = 0; i < sizeof(marks) / sizeof(*marks); i++) {
		size_t k = strlen(marks[i]);

		if (l->n > k && !memcmp(l->s, marks[i], k) &&
		    is_blank(l->s[k])) {
			l->s += k;
			l->n -= k;
			while (l->n && is_blank(*l->s))
				l->s++, l->n--;
			break;
		}
	}
}

/*
 * The value without a note a person added after it ("WARM //warm start",
 * "622  the Displayed time"): cut at "//" after a blank, at a tab or at
 * two blanks; only the first word when `word`.
 */
static size_t
value_len(const char *v, size_t n, bool word)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (v[k] == '\t' || (word && v[k] == ' '))
			break;
		if (v[k] == ' ' && k + 1 < n && (v[k + 1] == ' ' ||
		    (k + 2 < n && v[k + 1] == '/' && v[k + 2] == '/')))
			break;
	}
	return k;
}

/* One recognised line into `r`. */
static void
am_line(struct am_result *r, enum am_key k, const struct text_line *l)
{
	const char *v = memchr(l->s, ' ', l->n);
	size_t n = v ? l->n - (size_t)(v + 1 - l->s) : 0;

	v = v ? v + 1 : l->s + l->n;
	if (k != AM_STARTING && k != AM_WARNING && k != AM_ERROR)
		n = value_len(v, n, k != AM_STATE);
	switch (k) {
	case AM_STARTING:
		read_intent(r, v, n);
		break;
	case AM_STATUS:
		set(&r->status, v, n);
		r->status_seen = true;
		break;
	case AM_STATE:
		set(&r->launch_state, v, n);
		break;
	case AM_ACTIVITY:
		set(&r->activity, v, n);
		break;
	case AM_TOTAL:
		if (!read_ms(v, n, &r->total_ms))
			r->total_ms = NAN;
		break;
	case AM_WAIT:
		if (!read_ms(v, n, &r->wait_ms))
			r->wait_ms = NAN;
		break;
	case AM_WARNING:
		set(&r->warning, l->s, l->n);
		break;
	case AM_ERROR:
		/* "Error: Activity class {...}" beats "Error type 3". */
		if (!r->error.len || (!after(r->error.buf, r->error.len,
		    "Error: ", &n) && after(l->s, l->n, "Error: ", &n)))
			set(&r->error, l->s, l->n);
		break;
	default:
		break;
	}
}

/*
 * Every `am start -W` output in the text, in order: a launch starts at
 * "Starting:", after "Complete", or where a line repeats one the current
 * launch already has.  Lines that are not am's are skipped.
 */
static void
am_read_all(struct am_list *out, const char *buf, size_t len)
{
	const char *pos = buf, *end = buf + len;
	struct am_result *cur = NULL;
	bool seen[AM_NR_KEYS] = { false };
	struct text_line l;

	while (text_next_line(&pos, end, &l)) {
		enum am_key k;

		unindent(&l);
		k = key_of(&l);
		if (k == AM_NONE)
			continue;
		if (!cur || k == AM_STARTING || (seen[k] && k != AM_ERROR &&
		    k != AM_WARNING)) {
			XALLOC_GROW(out->v, out->nr + 1, out->alloc);
			cur = &out->v[out->nr++];
			am_result_init(cur);
			memset(seen, 0, sizeof(seen));
		}
		seen[k] = true;
		am_line(cur, k, &l);
		if (k == AM_COMPLETE)
			cur = NULL;
	}
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

/* The app's package: the configured one, else the one am was asked for. */
static void
app_package(const struct source_ctx *ctx, const struct am_result *r,
    struct strbuf *out)
{
	struct st_comp c;

	strbuf_reset(out);
	if (ctx->package) {
		strbuf_addstr(out, ctx->package);
		return;
	}
	c.s = r->intent.len ? r->intent.buf : r->activity.buf;
	c.n = r->intent.len ? r->intent.len : r->activity.len;
	strbuf_add(out, c.s, st_comp_package(&c));
}

/* `Activity:` of another package: not the app's launch that am timed. */
static void
check_activity(struct source_ctx *ctx, const struct am_result *r)
{
	struct strbuf pkg = STRBUF_INIT;
	struct st_comp c = { r->activity.buf, r->activity.len };

	app_package(ctx, r, &pkg);
	if (r->activity.len && pkg.len && !st_comp_of(&c, pkg.buf))
		source_warn(ctx, NULL, SRC, "am start -W reports activity "
		    "'%.200s', not one of '%.200s' (a launcher, a chooser or "
		    "another app's trampoline): its times are that "
		    "activity's", r->activity.buf, pkg.buf);
	strbuf_release(&pkg);
}

/* One am result into `st`; JG_EINVAL when am says the launch failed. */
static int
am_to_startup(struct source_ctx *ctx, const struct am_result *r,
    struct rs_startup *st)
{
	if (r->error.len)
		return jg_error_set(JG_EINVAL, "am start failed: '%s'",
		    r->error.buf);
	if (r->status_seen && strcmp(r->status.buf, "ok"))
		return jg_error_set(JG_EINVAL, "launch of '%s' did not "
		    "complete: 'Status: %s'", r->activity.len ?
		    r->activity.buf : ctx->package ? ctx->package : "?",
		    r->status.buf);
	/* Old releases print the times without a Status line. */
	if (!r->status_seen && isnan(r->total_ms) && isnan(r->wait_ms))
		source_warn(ctx, NULL, SRC, "am start printed no 'Status:' "
		    "line and no TotalTime or WaitTime");
	st->present = true;
	st->total_ms = r->total_ms;
	st->wait_ms = r->wait_ms;
	st->displayed_ms = NAN;
	st->fully_drawn_ms = NAN;
	rs_str_set(&st->launch_state, r->launch_state.len ?
	    r->launch_state.buf : NULL);
	check_activity(ctx, r);
	return 0;
}

static int
startup_launch(struct source_ctx *ctx, const char *out, size_t len)
{
	struct am_list l = { NULL, 0, 0 };
	int ret = 0;

	am_read_all(&l, out, len);
	if (!l.nr) {
		source_warn(ctx, NULL, SRC, "am start printed no 'Status:' "
		    "line");
		ctx->it->startup.present = true;
	} else if (!(ret = am_to_startup(ctx, &l.v[l.nr - 1],
	    &ctx->it->startup))) {
		check_kind(ctx, &l.v[l.nr - 1]);
	}
	am_list_release(&l);
	return ret;
}

/* What the log says of a launch into `st`. */
static void
apply_log(struct rs_startup *st, const struct st_launch *l)
{
	if (!isnan(l->displayed_ms))
		st->displayed_ms = l->displayed_ms;
	if (!isnan(l->fully_drawn_ms))
		st->fully_drawn_ms = l->fully_drawn_ms;
	if (isnan(st->total_ms) && !isnan(l->total_ms))
		st->total_ms = l->total_ms;
	st->present |= !isnan(l->displayed_ms) || !isnan(l->fully_drawn_ms);
}

static bool
is_hot(const struct rs_startup *st)
{
	return st->launch_state && !strcmp(st->launch_state, "HOT");
}

/* The run: the iteration's last launch in the log. */
static void
read_launch_log(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	struct rs_startup *st = &ctx->it->startup;
	struct strbuf pkg = STRBUF_INIT;
	struct st_launch l;
	size_t *anchors, nr_anchors;
	long anchor = -1;

	nr_anchors = st_log_anchors(lines, nr, ctx->package, &anchors);
	if (nr_anchors)
		anchor = (long)anchors[nr_anchors - 1];
	if (ctx->package) {
		strbuf_addstr(&pkg, ctx->package);
	} else if (anchor >= 0) {
		struct st_comp c;

		/* The START line's component, as read again here. */
		c.s = memmem(lines[anchor].msg, lines[anchor].msg_len, "cmp=",
		    4);
		c.s += 4;
		c.n = (size_t)(lines[anchor].msg + lines[anchor].msg_len - c.s);
		strbuf_add(&pkg, c.s, st_comp_package(&c));
	}
	st_launch_init(&l);
	st_log_timings(lines, nr, anchor, isnan(st->wait_ms) ? INFINITY :
	    st->wait_ms + DISPLAYED_SLACK_MS, pkg.len ? pkg.buf : NULL,
	    is_hot(st), &l);
	apply_log(st, &l);
	if (isnan(l.displayed_ms) && (st->kind == RS_LAUNCH_COLD ||
	    st->kind == RS_LAUNCH_WARM))
		source_warn(ctx, NULL, SRC, "no 'Displayed' line for '%s' "
		    "after the %s launch", pkg.len ? pkg.buf : "the app",
		    rs_launch_name(st->kind));
	free(anchors);
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

/* Make `st` the iteration's startup record, as its last launch. */
static void
keep_last(struct source_ctx *ctx, const struct rs_startup *st)
{
	struct rs_startup *it = &ctx->it->startup;
	enum rs_launch kind = it->kind;

	free(it->launch_state);
	*it = *st;
	it->kind = kind;
	it->launch_state = st->launch_state ? xstrdup(st->launch_state) :
	    NULL;
}

static void
startup_init(struct rs_startup *st)
{
	memset(st, 0, sizeof(*st));
	st->total_ms = st->wait_ms = st->displayed_ms = NAN;
	st->fully_drawn_ms = NAN;
	st->matrix.application_create_ms = NAN;
	st->matrix.first_activity_create_ms = NAN;
	st->matrix.startup_duration_ms = NAN;
	st->matrix.warm = RS_UNKNOWN;
}

/*
 * The log's part of am launch k of n: its own START line when the log
 * has one per launch (or the last ones have), else, without START lines,
 * the Displayed line of the same rank, or the last ones for the last
 * launch.
 */
static void
pair_log(const struct logcat_line *lines, size_t nr, const char *pkg,
    const size_t *anchors, size_t nr_anchors, size_t k, size_t n,
    const struct rs_startup *st, struct st_launch *out)
{
	double limit = isnan(st->wait_ms) ? INFINITY :
	    st->wait_ms + DISPLAYED_SLACK_MS;
	struct st_launch *shown;
	size_t nr_shown;

	st_launch_init(out);
	if (nr_anchors && k + nr_anchors >= n) {
		size_t a = k + nr_anchors - n;
		size_t until = a + 1 < nr_anchors ? anchors[a + 1] : nr;

		st_log_timings(lines, until, (long)anchors[a], limit, pkg,
		    is_hot(st), out);
		return;
	}
	if (nr_anchors)
		return;
	nr_shown = st_log_launches(lines, nr, pkg, &shown);
	if (nr_shown == n)
		*out = shown[k];
	else if (k + 1 == n)
		st_log_timings(lines, nr, -1, limit, pkg, is_hot(st), out);
	free(shown);
}

/* `jankgate parse startup FILE` with `am start -W` output in it. */
static int
parse_am(struct source_ctx *ctx, const struct am_list *am,
    const struct logcat_line *lines, size_t nr)
{
	struct strbuf pkg = STRBUF_INIT;
	size_t *anchors, nr_anchors;
	int ret = 0;

	app_package(ctx, &am->v[am->nr - 1], &pkg);
	nr_anchors = st_log_anchors(lines, nr, pkg.len ? pkg.buf : NULL,
	    &anchors);
	for (size_t k = 0; k < am->nr; k++) {
		const struct am_result *r = &am->v[k];
		struct rs_startup st;
		struct st_launch l;

		startup_init(&st);
		if (am_to_startup(ctx, r, &st)) {
			/* The last launch failing fails the iteration. */
			if (k + 1 == am->nr)
				ret = JG_EINVAL;
			else
				source_warn(ctx, NULL, SRC, "launch %zu of "
				    "%zu: %s", k + 1, am->nr, jg_error_msg());
			free(st.launch_state);
			continue;
		}
		pair_log(lines, nr, pkg.len ? pkg.buf : NULL, anchors,
		    nr_anchors, k, am->nr, &st, &l);
		apply_log(&st, &l);
		source_launch_add(ctx, r->activity.len ? r->activity.buf :
		    NULL, r->activity.len, &st);
		if (k + 1 == am->nr)
			keep_last(ctx, &st);
		free(st.launch_state);
	}
	free(anchors);
	strbuf_release(&pkg);
	return ret;
}

/* Launches from the log alone; returns how many. */
static size_t
parse_log(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	struct st_launch *v;
	size_t n = st_log_launches(lines, nr, ctx->package, &v);
	struct st_comp first = { NULL, 0 };
	bool several = false;

	for (size_t i = 0; i < n; i++) {
		size_t k = st_comp_package(&v[i].comp);
		struct rs_startup st;

		if (!first.s)
			first = v[i].comp;
		else if (k != st_comp_package(&first) ||
		    memcmp(first.s, v[i].comp.s, k))
			several = true;
		startup_init(&st);
		apply_log(&st, &v[i]);
		source_launch_add(ctx, v[i].comp.s, v[i].comp.n, &st);
		if (i + 1 == n)
			keep_last(ctx, &st);
	}
	if (several)
		source_warn(ctx, NULL, SRC, "launches of several apps and no "
		    "app given (--app PKG): every one is listed, the last "
		    "is the iteration's");
	free(v);
	return n;
}

/*
 * `jankgate parse startup FILE`: `am start -W` output, a log, or both in
 * one file (the lines of each are told apart).
 */
static int
startup_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	struct am_list am = { NULL, 0, 0 };
	const struct logcat_line *lines;
	struct logcat_buf *log;
	struct strbuf conv = STRBUF_INIT;
	const char *text;
	size_t nr, n;
	char *unread;
	int ret = 0;

	log = capture_read(buf, len, &unread);
	lines = logcat_buf_lines(log, &nr);
	/* am's lines are read from the text (capture_read() decoded it). */
	textenc_utf8(&conv, buf, len, &text, &n);
	am_read_all(&am, text, n);
	if (am.nr)
		ret = parse_am(ctx, &am, lines, nr);
	else if (!parse_log(ctx, lines, nr))
		capture_warn_nothing(ctx, SRC, name, len, unread,
		    "'am start -W' output or Displayed / Fully drawn line");
	capture_report(ctx, SRC, name, log, NULL, NULL);
	am_list_release(&am);
	strbuf_release(&conv);
	free(unread);
	logcat_buf_free(log);
	return ret;
}

const struct source source_startup = {
	.name = "startup",
	.summary = "launch timing from am start -W and the Displayed / "
	    "Fully drawn log lines",
	.fills = SOURCE_STARTUP | SOURCE_LAUNCHES,
	.by_default = true,
	.logcat_buffers = "system",
	.launch = startup_launch,
	.logcat = startup_logcat,
	.parse = startup_parse,
};
