/*
 * perf.c: the `perf` source, xanderwang/performance's logcat reports
 * (docs/formats.md §4).
 *
 * Issues.  One Log.w entry per issue under `<globalTag>_Issue` (any
 * global tag: PERF by default, the app may choose another), multi-line,
 * so logcat repeats the prefix on every line:
 *
 *	3605.120  4242  4260 W PERF_Issue:
 *	3605.120  4242  4260 W PERF_Issue: =================================
 *	3605.120  4242  4260 W PERF_Issue: type: UI BLOCK
 *	3605.120  4242  4260 W PERF_Issue: msg: UI BLOCK
 *	3605.120  4242  4260 W PERF_Issue: create time: 20231105_142233_123
 *	3605.120  4242  4260 W PERF_Issue: cost time: 230 ms      (IPC)
 *	3605.120  4242  4260 W PERF_Issue: trace:
 *	3605.120  4242  4260 W PERF_Issue: 	java.lang.Thread.sleep(...)
 *
 * Android Studio prints the prefix once and indents the later lines
 * (logcat.h gives them the entry's prefix):
 *
 *	com.xander.performace.demo W/demo_Issue: =====================
 *	    type: UI BLOCK
 *	    ...
 *	    trace:
 *	    	java.lang.Thread.sleep(Thread.java:-2)
 *
 * An issue is the lines of one entry: same pid, tid, tag and time (or
 * none of them, in layouts that print none), opened by its `=====` line.
 * Entries of other threads may interleave (each keeps its own open
 * issue); the next `=====` or another time on the same thread closes it.
 * Each becomes a block with the frames after its "trace:" line (each
 * after a tab) as its stack:
 *
 *	UI BLOCK  the main thread was still in one message UI_BLOCK_TIME
 *	          after it began; no duration is reported (wall_ms NAN) and
 *	          the start is the report minus the default 100 ms
 *	IPC       a binder call of `cost time` ms, ending at the report
 *	THREAD *  thread creation and run-block traces; kind is the `msg`
 *	          (THREAD CREATE, THREAD RUN BLOCK TRACE...), start the report
 *
 * Other types (FPS, BITMAP) are not blocks and are skipped.  An entry
 * near logcat's 4068-byte limit was probably cut: its block is marked
 * truncated.
 *
 * FPS.  `APP FPS is: 60 Hz` under `<globalTag>_FPSTool` at the end of
 * every second of frame callbacks, app-wide: the library counts the
 * callbacks until FPS_INTERVAL_MS has passed and prints count * 1000 /
 * elapsed, so a slice lasts its elapsed time, a second or more (a stalled
 * main thread stretches it).  Each line is an FPS slice (no app scene
 * name, no drop levels) of the scene holding the middle of its second.
 * The scene's fps (fps.value) is the frames of its slices over their
 * time: each slice weighs its duration, the gap since the process's
 * previous FPS line when the layout prints times and the gap is one a
 * slice can last (FPS_INTERVAL_MS to MAX_SLICE_MS), else FPS_INTERVAL_MS.
 * Without times that is the slices' mean.  A scene that other sources
 * gave slices too is left to metrics.c's mean of them all.
 *
 * In a layout without monotonic times (`jankgate parse` of a threadtime
 * or Studio capture) blocks and slices have no device time and belong to
 * the capture's one scene (capture.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "config.h"
#include "logcat.h"
#include "logpid.h"
#include "results.h"
#include "signature.h"
#include "source.h"
#include "source_warn.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "perf"
#define UI_BLOCK_MS 100		/* UI_BLOCK_TIME's default */
#define FPS_INTERVAL_MS 1000	/* FPS_INTERVAL_TIME's default */
/* A longer gap between FPS lines is a pause (app in background), not one
 * slice. */
#define MAX_SLICE_MS 10000
#define ENTRY_MAX 4068		/* LOGGER_ENTRY_MAX_PAYLOAD */
#define MAX_FRAMES 1024

/* One issue being reassembled: the lines of one log entry. */
struct issue {
	int pid, tid;
	const char *tag;	/* NULL when the layout prints none */
	size_t tag_len;
	struct logcat_line head;	/* the entry's first line */
	size_t bytes;		/* of the entry so far, newlines included */
	char *type, *msg;
	double cost_ms;
	struct strlist frames;
	bool capped;
	bool in_trace;		/* after "trace:": each line a frame */
};

struct issues {
	struct issue *v;
	size_t nr, alloc;
};

static bool
prefix(const char *msg, size_t len, const char *p, size_t *rest)
{
	size_t n = strlen(p);

	if (len < n || memcmp(msg, p, n))
		return false;
	*rest = n;
	return true;
}

static bool
is_rule(const struct logcat_line *l)
{
	if (l->msg_len < 10)
		return false;
	for (size_t i = 0; i < l->msg_len; i++)
		if (l->msg[i] != '=')
			return false;
	return true;
}

static void
issue_release(struct issue *is)
{
	free(is->type);
	free(is->msg);
	strlist_release(&is->frames);
}

/* A value after "key: ", trimmed. */
static char *
value(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	return xstrndup(s, len);
}

/* "230 ms" -> 230; NAN when not a number. */
static double
cost(const char *s, size_t len)
{
	char buf[32], *end;
	double d;

	while (len && *s == ' ')
		s++, len--;
	if (!len || len >= sizeof(buf))
		return NAN;
	memcpy(buf, s, len);
	buf[len] = '\0';
	d = strtod(buf, &end);
	if (end == buf || !isfinite(d) || d < 0)
		return NAN;
	return d;
}

static void
issue_line(struct issue *is, const struct logcat_line *l)
{
	const char *m = l->msg;
	size_t len = l->msg_len, at;

	is->bytes += len + 1;
	/*
	 * Frames follow "trace:" (or "create trace:"...), each after a tab;
	 * a paste may have lost the tab, never the order.
	 */
	if (len && (m[0] == '\t' || is->in_trace)) {
		char *f;

		if (is->frames.nr >= MAX_FRAMES) {
			is->capped = true;
			return;
		}
		f = value(m, len);
		if (*f)
			strlist_add(&is->frames, f);
		free(f);
	} else if (len >= 6 && !memcmp(m + len - 6, "trace:", 6)) {
		is->in_trace = true;
	} else if (prefix(m, len, "type:", &at) && !is->type) {
		is->type = value(m + at, len - at);
	} else if (prefix(m, len, "msg:", &at) && !is->msg) {
		is->msg = value(m + at, len - at);
	} else if (prefix(m, len, "cost time:", &at)) {
		is->cost_ms = cost(m + at, len - at);
	}
}

/* The block an issue reports, or nothing for FPS / BITMAP / unknown. */
static void
issue_finish(struct source_ctx *ctx, struct issue *is)
{
	double grace = ctx->cfg ? ctx->cfg->source_opts.grace_ms : 0;
	const char *kind = NULL;
	double start = is->head.mono_ms, wall = NAN;
	struct rs_scene *sc;
	struct rs_block *b;

	if (!is->type) {
		source_warn(ctx, NULL, SRC, "an issue without a 'type:' line "
		    "(cut by logcat?) is skipped");
		return;
	}
	if (!strcmp(is->type, "UI BLOCK")) {
		kind = "UI BLOCK";
		start -= UI_BLOCK_MS;
	} else if (!strcmp(is->type, "IPC")) {
		kind = "IPC";
		wall = is->cost_ms;
		if (!isnan(wall))
			start -= wall;
	} else if (!strcmp(is->type, "THREAD")) {
		kind = is->msg && *is->msg ? is->msg : "THREAD";
	} else {
		return;
	}
	sc = capture_scene_at(ctx, start, grace);
	b = sc ? rs_scene_add_block(sc, SRC) : rs_iteration_add_block(ctx->it,
	    SRC);
	rs_str_set(&b->kind, kind);
	b->start_mono_ms = start;
	b->wall_ms = wall;
	strlist_copy(&b->stack, &is->frames);
	/* The entry filled logcat's payload: its end is most likely lost. */
	b->truncated = is->capped ||
	    is->bytes + is->tag_len + 3 >= ENTRY_MAX - 2;
	signature_set(b);
}

static struct issue *
issue_find(struct issues *open, const struct logcat_line *l)
{
	for (size_t i = 0; i < open->nr; i++) {
		struct issue *is = &open->v[i];

		if (is->pid == l->pid && is->tid == l->tid &&
		    !is->tag == !l->tag && is->tag_len == l->tag_len &&
		    (!l->tag_len || !memcmp(is->tag, l->tag, l->tag_len)))
			return is;
	}
	return NULL;
}

static void
issue_close(struct source_ctx *ctx, struct issues *open, struct issue *is)
{
	issue_finish(ctx, is);
	issue_release(is);
	*is = open->v[--open->nr];
}

static bool
issue_input(struct source_ctx *ctx, struct issues *open,
    const struct logcat_line *l)
{
	struct issue *is = issue_find(open, l);

	/* Another entry of the same thread: the open one is complete. */
	if (is && (!logcat_same_time(&is->head, l) || is_rule(l))) {
		issue_close(ctx, open, is);
		is = NULL;
	}
	if (!is && is_rule(l)) {
		XALLOC_GROW(open->v, open->nr + 1, open->alloc);
		is = &open->v[open->nr++];
		memset(is, 0, sizeof(*is));
		is->pid = l->pid;
		is->tid = l->tid;
		is->tag = l->tag;
		is->tag_len = l->tag_len;
		is->head = *l;
		is->cost_ms = NAN;
		is->bytes = 1 + l->msg_len + 1;	/* the leading "\n" */
		strlist_init(&is->frames);
		return true;
	}
	if (is)
		issue_line(is, l);
	return is != NULL;
}

/* "APP FPS is: 60 Hz" -> 60; -1 when the line is not one. */
static long
fps_of(const struct logcat_line *l)
{
	size_t i;
	long v = 0;
	bool any = false;

	if (!prefix(l->msg, l->msg_len, "APP FPS is:", &i))
		return -1;
	while (i < l->msg_len && l->msg[i] == ' ')
		i++;
	while (i < l->msg_len && l->msg[i] >= '0' && l->msg[i] <= '9' &&
	    v < 100000) {
		v = v * 10 + (l->msg[i++] - '0');
		any = true;
	}
	while (i < l->msg_len && l->msg[i] == ' ')
		i++;
	if (!any || l->msg_len - i < 2 || memcmp(l->msg + i, "Hz", 2))
		return -1;
	return v;
}

/* The FPS lines so far: each scene's frames and time (see above). */
struct fps_time {
	double *frames, *ms;		/* per scene of ctx->it */
	size_t nr;
	double last_ms;			/* the previous FPS line's time */
	int last_pid;
};

/* A line's time on any clock, for gaps; NAN when it prints none. */
static double
line_ms(const struct logcat_line *l)
{
	return isnan(l->mono_ms) ? l->time_ms : l->mono_ms;
}

/*
 * One slice per line, in the scene holding the middle of its second, so
 * each second's value stays visible; its frames and duration add to the
 * scene's sums.
 */
static void
fps_slice(struct source_ctx *ctx, struct fps_time *t,
    const struct logcat_line *l, long fps)
{
	struct rs_scene *sc = capture_scene_at(ctx, l->mono_ms -
	    FPS_INTERVAL_MS / 2.0, 0);
	double now = line_ms(l), ms = FPS_INTERVAL_MS;
	size_t k;

	if (!isnan(now) && !isnan(t->last_ms) && l->pid == t->last_pid &&
	    now - t->last_ms >= FPS_INTERVAL_MS &&
	    now - t->last_ms <= MAX_SLICE_MS)
		ms = now - t->last_ms;
	t->last_ms = now;
	t->last_pid = l->pid;
	if (!sc)
		return;
	rs_fps_add_slice(&sc->fps, SRC)->fps = (double)fps;
	k = (size_t)(sc - ctx->it->scenes);
	if (k >= t->nr) {
		size_t nr = ctx->it->nr_scenes;

		t->frames = xrealloc(t->frames, nr * sizeof(double));
		t->ms = xrealloc(t->ms, nr * sizeof(double));
		for (size_t i = t->nr; i < nr; i++)
			t->frames[i] = t->ms[i] = 0;
		t->nr = nr;
	}
	t->frames[k] += (double)fps * ms / 1000;
	t->ms[k] += ms;
}

/* Each scene's fps: its slices' frames over their time (see above). */
static void
fps_values(struct source_ctx *ctx, struct fps_time *t)
{
	for (size_t k = 0; k < t->nr && k < ctx->it->nr_scenes; k++) {
		struct rs_fps *f = &ctx->it->scenes[k].fps;
		bool only_perf = true;

		for (size_t i = 0; i < f->nr_slices; i++)
			only_perf = only_perf && f->slices[i].source &&
			    !strcmp(f->slices[i].source, SRC);
		if (t->ms[k] > 0 && only_perf)
			f->value = t->frames[k] * 1000 / t->ms[k];
	}
	free(t->frames);
	free(t->ms);
}

static int
perf_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	struct capture_count *st = ctx->state;
	struct issues open = { NULL, 0, 0 };
	struct logpid *p = capture_app_pids(ctx, lines, nr);
	struct fps_time t = { NULL, NULL, 0, NAN, -1 };

	for (size_t i = 0; i < nr; i++) {
		const struct logcat_line *l = &lines[i];
		long fps = -1;

		/* Another app may carry the library too. */
		if (logpid_owner(p, l) == LOGPID_OTHER)
			continue;
		if (logcat_tag_suffix_fits(l, "_FPSTool") &&
		    (fps = fps_of(l)) >= 0)
			fps_slice(ctx, &t, l, fps);
		else if (!logcat_tag_suffix_fits(l, "_Issue") ||
		    !issue_input(ctx, &open, l))
			continue;
		if (st)
			st->lines++;
	}
	while (open.nr)
		issue_close(ctx, &open, &open.v[0]);
	fps_values(ctx, &t);
	free(open.v);
	logpid_free(p);
	return 0;
}

static void
perf_finish(struct source_ctx *ctx)
{
	capture_count_finish(ctx, SRC,
	    "xanderwang/performance line (<tag>_Issue, <tag>_FPSTool)",
	    "is the library in this build?");
}

/* `jankgate parse perf FILE`: a `logcat -v monotonic` capture. */
static int
perf_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	return capture_parse(ctx, buf, len, name, SRC,
	    "xanderwang/performance line", perf_logcat);
}

const struct source source_perf = {
	.name = "perf",
	.summary = "xanderwang/performance: UI BLOCK, IPC and THREAD issues, "
	    "'APP FPS is:' lines",
	.fills = SOURCE_BLOCKS | SOURCE_FPS,
	.prepare = capture_count_prepare,
	.logcat = perf_logcat,
	.finish = perf_finish,
	.parse = perf_parse,
};
