/*
 * fpsanalyzer.c: the `fpsanalyzer` source, the Xposed hook that times
 * every Handler.dispatchMessage and logs Choreographer's frame messages
 * (docs/formats.md §6.1):
 *
 *	3605.120  4242  4263 I FPSAnalyzer: FPSAnalyzer DISPATCH FRAME:12
 *	    INFO:Handler (android.view.Choreographer$FrameHandler) {b3e1f2}
 *	    : <WHAT>:<package>:<activity>
 *	3605.188  4242  4263 E FPSAnalyzer: FPSAnalyzer DISPATCH FRAME(>40):52
 *	    INFO:... : <WHAT>:<package>:<activity>
 *
 * (one line each).  The number is the wall ms the frame message took on
 * the main thread; the line is written when it ends, so the frame began
 * that long before the line's time.  The activity is the top activity's
 * class name, or UNKNOWN.  The hook runs in every hooked app, so lines of
 * other packages are skipped.
 *
 * Model mapping.  The hook says how long each frame kept the main thread,
 * which is what Matrix's FPS tracer summarises, so the lines become FPS
 * slices in Matrix's shape, one per (scene, activity) with the frames
 * that began inside the scene's window.  No grace period: a frame is
 * dated by its own start, not by a late report, and the frames just
 * after a scene are the next interaction's (on the simulated phone the
 * 350 ms of a returning activity would otherwise join the scene before):
 *
 *	dropped   per frame, the vsyncs the message overran:
 *	          ceil(ms / period) - 1, at least 0
 *	levels    Matrix's DropStatus thresholds on that count: FROZEN >= 42,
 *	          HIGH >= 24, MIDDLE >= 9, NORMAL >= 3, else BEST;
 *	          drop_level counts frames, drop_sum their dropped vsyncs
 *	fps       1000 / mean(max(ms, period)), as Matrix 2.1 computes it
 *
 * The period is the device's (ctx->refresh_hz); without one (`jankgate
 * parse`) 60 Hz is assumed, with a warning.  The activity goes into the
 * scene's app_scenes.  Per-message times are not stored one by one: a
 * scene of a few seconds has hundreds of frames and compare works on the
 * slices' fps and dropped frames.
 *
 * In a layout without monotonic times (`jankgate parse` of a threadtime
 * or Studio capture) the frames have no device time and belong to the
 * capture's one scene (capture.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "fpsanalyzer"
#define TAG "FPSAnalyzer"
#define DEFAULT_HZ 60.0

/* One parsed line: what the frame took and where. */
struct frame {
	double start_ms;
	double ms;
	const char *activity;	/* NULL: UNKNOWN */
	size_t activity_len;
};

/* Frames of one (scene, activity) pair, summed as they come. */
struct acc {
	struct rs_scene *scene;
	char *activity;
	size_t frames;
	double cost_sum;	/* of max(ms, period) */
	double level[5], sum[5];	/* best, normal, middle, high, frozen */
};

static int
level_of(double dropped)
{
	if (dropped >= 42)
		return 4;
	if (dropped >= 24)
		return 3;
	if (dropped >= 9)
		return 2;
	if (dropped >= 3)
		return 1;
	return 0;
}

/*
 * Parse one line of the app `pkg` (NULL: any).  Returns 0 with *f set,
 * or -1 for a line that is not a frame line of that app.
 */
static int
parse_frame(const struct logcat_line *l, const char *pkg, struct frame *f)
{
	static const char head[] = "FPSAnalyzer DISPATCH FRAME";
	const char *m = l->msg, *end = l->msg + l->msg_len, *p, *c1, *c2;
	size_t hl = sizeof(head) - 1;
	double ms = 0;
	bool any = false;

	if (!logcat_tag_fits(l, TAG) || l->msg_len < hl || memcmp(m, head, hl))
		return -1;
	p = m + hl;
	if (p < end && *p == '(') {		/* "(>40)" */
		p = memchr(p, ')', (size_t)(end - p));
		if (!p)
			return -1;
		p++;
	}
	if (p >= end || *p++ != ':')
		return -1;
	while (p < end && *p >= '0' && *p <= '9' && ms < 1e9) {
		ms = ms * 10 + (*p++ - '0');
		any = true;
	}
	if (!any || (size_t)(end - p) < 6 || memcmp(p, " INFO:", 6))
		return -1;
	/* "...} : WHAT:package:activity": the last two fields. */
	for (c2 = end; c2 > p && c2[-1] != ':'; c2--)
		;
	if (c2 <= p)
		return -1;
	for (c1 = c2 - 1; c1 > p && c1[-1] != ':'; c1--)
		;
	if (c1 <= p)
		return -1;
	if (pkg && ((size_t)(c2 - 1 - c1) != strlen(pkg) ||
	    memcmp(c1, pkg, strlen(pkg))))
		return -1;
	f->ms = ms;
	f->start_ms = l->mono_ms - ms;
	f->activity = c2;
	f->activity_len = (size_t)(end - c2);
	if ((f->activity_len == 7 && !memcmp(c2, "UNKNOWN", 7)) ||
	    !f->activity_len)
		f->activity = NULL;
	return 0;
}

static struct acc *
acc_find(struct acc **v, size_t *nr, size_t *alloc, struct rs_scene *sc,
    const struct frame *f)
{
	struct acc *a;

	for (size_t i = 0; i < *nr; i++) {
		a = &(*v)[i];
		if (a->scene != sc)
			continue;
		if (!a->activity && !f->activity)
			return a;
		if (a->activity && f->activity &&
		    strlen(a->activity) == f->activity_len &&
		    !memcmp(a->activity, f->activity, f->activity_len))
			return a;
	}
	XALLOC_GROW(*v, *nr + 1, *alloc);
	a = &(*v)[(*nr)++];
	memset(a, 0, sizeof(*a));
	a->scene = sc;
	a->activity = f->activity ? xstrndup(f->activity, f->activity_len) :
	    NULL;
	return a;
}

static void
acc_slice(const struct acc *a)
{
	struct rs_fps_slice *s = rs_fps_add_slice(&a->scene->fps, SRC);
	double *lv[5] = { &s->drop_level.best, &s->drop_level.normal,
	    &s->drop_level.middle, &s->drop_level.high, &s->drop_level.frozen };
	double *sm[5] = { &s->drop_sum.best, &s->drop_sum.normal,
	    &s->drop_sum.middle, &s->drop_sum.high, &s->drop_sum.frozen };

	rs_str_set(&s->app_scene, a->activity);
	s->fps = 1000.0 * (double)a->frames / a->cost_sum;
	for (int i = 0; i < 5; i++) {
		*lv[i] = a->level[i];
		*sm[i] = a->sum[i];
	}
	if (a->activity && strlist_find(&a->scene->app_scenes,
	    a->activity) < 0)
		strlist_add(&a->scene->app_scenes, a->activity);
}

static int
fpsa_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	struct capture_count *st = ctx->state;
	bool known = ctx->refresh_hz > 0 && isfinite(ctx->refresh_hz);
	double period = 1000.0 / (known ? ctx->refresh_hz : DEFAULT_HZ);
	struct acc *acc = NULL;
	size_t nr_acc = 0, alloc_acc = 0, seen = 0;

	for (size_t i = 0; i < nr; i++) {
		struct rs_scene *sc;
		struct frame f;
		struct acc *a;
		double dropped;
		int lv;

		if (parse_frame(&lines[i], ctx->package, &f))
			continue;
		seen++;
		sc = capture_scene_at(ctx, f.start_ms, 0);
		if (!sc)
			continue;
		a = acc_find(&acc, &nr_acc, &alloc_acc, sc, &f);
		dropped = f.ms > period ? ceil(f.ms / period) - 1 : 0;
		lv = level_of(dropped);
		a->frames++;
		a->cost_sum += f.ms > period ? f.ms : period;
		a->level[lv]++;
		a->sum[lv] += dropped;
	}
	for (size_t i = 0; i < nr_acc; i++) {
		acc_slice(&acc[i]);
		free(acc[i].activity);
	}
	free(acc);
	if (seen && !known)
		source_warn(ctx, NULL, SRC, "refresh rate unknown: frames "
		    "dropped counted at %.0f Hz", DEFAULT_HZ);
	if (st)
		st->lines += seen;
	return 0;
}

static void
fpsa_finish(struct source_ctx *ctx)
{
	capture_count_finish(ctx, SRC,
	    "'FPSAnalyzer DISPATCH FRAME' line of the app",
	    "is the Xposed hook active?");
}

/* `jankgate parse fpsanalyzer FILE`: a `logcat -v monotonic` capture. */
static int
fpsa_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	return capture_parse(ctx, buf, len, name, SRC,
	    "'FPSAnalyzer DISPATCH FRAME' line", fpsa_logcat);
}

const struct source source_fpsanalyzer = {
	.name = "fpsanalyzer",
	.summary = "frame dispatch times per activity from the Xposed "
	    "FPSAnalyzer hook, as FPS slices",
	.fills = SOURCE_FPS | SOURCE_APP_SCENES,
	.prepare = capture_count_prepare,
	.logcat = fpsa_logcat,
	.finish = fpsa_finish,
	.parse = fpsa_parse,
};
