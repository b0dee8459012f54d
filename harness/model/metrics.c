/*
 * metrics.c: the metric table and the derivation of each metric (metrics.h).
 *
 * How each value is derived from one scene (or, for launch metrics, one
 * iteration).  "No data" is JG_ENOTFOUND, never a made-up zero, so compare
 * reports the metric as missing instead of as an improvement:
 *
 *   fps             1. fps.value when a source gave one number for the scene;
 *                   2. else the mean of the FPS slices' fps, weighted by each
 *                      slice's frame count (the sum of its drop_level) when
 *                      every slice has one, plain otherwise;
 *                   3. else frames.count / scene window (rendered frames per
 *                      second; idle time counts, so it is comparable only
 *                      between runs of the same scenario, which is all that
 *                      compare does since runs with other sources are
 *                      refused);  0 frames or no window: not found.
 *   jank_pct        janky / count * 100;  0 frames: not found.
 *   frame_pNN_ms    frames.pNN_ms, else from the histogram with gfxinfo's
 *                   rule;  0 frames: not found (gfxinfo itself prints 4950).
 *   slow_pct        slow / count * 100, slow from the histogram (buckets
 *                   >= METRIC_SLOW_MS) when the source did not count it.
 *   frozen_frames   frames.frozen, else histogram buckets >= METRIC_FROZEN_MS;
 *                   0 frames rendered: 0.
 *   dropped_frames  frames.dropped, else the sum of every level of the FPS
 *                   slices' drop_sum;  0 frames rendered: 0.
 *   blocks          the number of blocks attributed to the scene; 0 when none.
 *   block_ms        the sum of their wall_ms; blocks without a duration
 *                   (perf's UI BLOCK reports none) count in `blocks` only.
 *   startup_ms      startup.total_ms (`am start -W` TotalTime).
 *   displayed_ms    startup.displayed_ms (the "Displayed" log line).
 *   fully_drawn_ms  startup.fully_drawn_ms (needs reportFullyDrawn()).
 *   app_create_ms   Matrix application_create_ms;  not found for warm and
 *                   hot starts, where Matrix reports a placeholder 0.
 *   first_activity_ms  Matrix first_activity_create_ms, same rule.
 *
 * Frame "count" is frames.count, else the histogram's total; frames absent
 * altogether (no gfxinfo for the scene) makes every frame metric not found.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "error.h"
#include "metrics.h"
#include "metrics_explain.h"
#include "results.h"
#include "banned.h"

enum metric_id {
	M_FPS,
	M_JANK_PCT,
	M_FRAME_P50,
	M_FRAME_P90,
	M_FRAME_P95,
	M_FRAME_P99,
	M_SLOW_PCT,
	M_FROZEN,
	M_DROPPED,
	M_BLOCKS,
	M_BLOCK_MS,
	M_STARTUP,
	M_DISPLAYED,
	M_FULLY_DRAWN,
	M_APP_CREATE,
	M_FIRST_ACTIVITY,
	M_COUNT
};

#define LOWER METRIC_LOWER_IS_BETTER
#define HIGHER METRIC_HIGHER_IS_BETTER

/*
 * Default thresholds, and why (see metrics.h for how the pair is used).
 * They say what matters to a user on a quiet device; compare raises T to
 * the baseline's per-iteration IQR where a scene varies more than that
 * (docs/method.md, step 6), so a noisy scene does not hold every run
 * inconclusive on shifts no 15 iterations could resolve:
 *
 * - fps 5 % and 2 fps: at 60 Hz, 2 fps is one late frame in 30, about what
 *   a scripted scene varies by between iterations; 5 % scales that to 90 and
 *   120 Hz panels (4.5 and 6 fps).
 * - jank_pct and slow_pct 10 % and 1 point: one frame in a hundred is the
 *   smallest change a user-visible stutter makes in a few-second scene.
 * - frame_p50/p90_ms 5 % and 1 ms: one bucket of gfxinfo's histogram,
 *   which is 1 ms wide up to 32 ms, 2 ms to 48 (5 % of 40) and 4 ms
 *   beyond (5 % of 80); less than a bucket cannot be resolved at all, and
 *   a bucket is a tenth of a 90 Hz frame's 11.1 ms budget.  p95 2 ms and
 *   p99 4 ms: tails land in the 2 ms (34-48) and 4 ms (53-133) buckets,
 *   where a one-bucket move is resolution, not change.
 * - frozen_frames 25 % and 1 frame: each one is a >700 ms freeze, so a
 *   single extra one per iteration matters; 25 % keeps scenes that freeze
 *   often from alarming on one more.  blocks: the same reasoning.
 * - dropped_frames 10 % and 3 frames: 3 dropped vsyncs is where Matrix
 *   starts calling a frame "normal" rather than "best" (docs/formats.md §1.3).
 * - block_ms 20 % and 100 ms: 100 ms is the most sensitive block threshold
 *   of any source (perf's UI BLOCK); block lengths follow scheduling, hence
 *   the wider relative band.
 * - startup_ms, displayed_ms, first_activity_ms 5 % and 20 ms: cold starts
 *   repeat within a few percent on an idle device, and 20 ms is just over
 *   one 60 Hz frame, the granularity at which a first frame appears.
 * - fully_drawn_ms 10 % and 50 ms: it waits for app-side work (data, image
 *   loading) that varies more than the framework's first frame.
 * - app_create_ms 10 % and 10 ms: Application.onCreate is a smaller number
 *   (tens to hundreds of ms), measured by Matrix at 1 ms resolution.
 */
static const struct metric_def metric_table[M_COUNT] = {
	[M_FPS] = { "fps", "fps", HIGHER, METRIC_SCENE, 0.05, 2,
		"frames per second in the scene (Matrix slices, else frames "
		"rendered per second)",
		METRIC_KIND_JANK, 0.01, 0, 0, 0 },
	[M_JANK_PCT] = { "jank_pct", "%", LOWER, METRIC_SCENE, 0.10, 1,
		"share of frames gfxinfo counts as janky",
		METRIC_KIND_JANK, 0.01, 0, 0, 0 },
	[M_FRAME_P50] = { "frame_p50_ms", "ms", LOWER, METRIC_SCENE, 0.05, 1,
		"median frame time (gfxinfo 50th percentile)",
		METRIC_KIND_FRAME_TIME, 1, 0, 0, 0 },
	[M_FRAME_P90] = { "frame_p90_ms", "ms", LOWER, METRIC_SCENE, 0.05, 1,
		"90th percentile frame time",
		METRIC_KIND_FRAME_TIME, 1, 0, 0, 1 },
	[M_FRAME_P95] = { "frame_p95_ms", "ms", LOWER, METRIC_SCENE, 0.10, 2,
		"95th percentile frame time",
		METRIC_KIND_FRAME_TIME, 1, 0, 0, 0 },
	[M_FRAME_P99] = { "frame_p99_ms", "ms", LOWER, METRIC_SCENE, 0.10, 4,
		"99th percentile frame time",
		METRIC_KIND_FRAME_TIME, 1, 0, 0, 0 },
	[M_SLOW_PCT] = { "slow_pct", "%", LOWER, METRIC_SCENE, 0.10, 1,
		"share of frames slower than 16 ms",
		METRIC_KIND_JANK, 0.01, 0, 0, 0 },
	[M_FROZEN] = { "frozen_frames", "frames", LOWER, METRIC_SCENE,
		0.25, 1, "frames slower than 700 ms",
		METRIC_KIND_JANK, 1, 0, 0, 0 },
	[M_DROPPED] = { "dropped_frames", "frames", LOWER, METRIC_SCENE,
		0.10, 3, "vsyncs missed by late frames, summed over a scene",
		METRIC_KIND_JANK, 1, 0, 0, 0 },
	[M_BLOCKS] = { "blocks", "count", LOWER, METRIC_SCENE, 0.25, 1,
		"main-thread blocks reported in the scene",
		METRIC_KIND_BLOCKS, 1, 1, 0, 0 },
	[M_BLOCK_MS] = { "block_ms", "ms", LOWER, METRIC_SCENE, 0.20, 100,
		"total wall time of the scene's main-thread blocks",
		METRIC_KIND_BLOCKS, 1, 0, 0, 0 },
	[M_STARTUP] = { "startup_ms", "ms", LOWER, METRIC_SCENARIO, 0.05, 20,
		"launch time reported by am start -W (TotalTime)",
		METRIC_KIND_LAUNCH, 1, 0, 0, 1 },
	[M_DISPLAYED] = { "displayed_ms", "ms", LOWER, METRIC_SCENARIO,
		0.05, 20, "time to the first frame (the Displayed log line)",
		METRIC_KIND_LAUNCH, 1, 0, 0, 0 },
	[M_FULLY_DRAWN] = { "fully_drawn_ms", "ms", LOWER, METRIC_SCENARIO,
		0.10, 50,
		"time to reportFullyDrawn() (the Fully drawn log line)",
		METRIC_KIND_LAUNCH, 1, 0, 0, 0 },
	[M_APP_CREATE] = { "app_create_ms", "ms", LOWER, METRIC_SCENARIO,
		0.10, 10, "Application creation time on cold starts (Matrix)",
		METRIC_KIND_LAUNCH, 1, 0, 0, 0 },
	[M_FIRST_ACTIVITY] = { "first_activity_ms", "ms", LOWER,
		METRIC_SCENARIO, 0.05, 20,
		"cold start to first activity focus (Matrix)",
		METRIC_KIND_LAUNCH, 1, 0, 0, 0 },
};

const char *
metric_kind_name(enum metric_kind kind)
{
	static const char *const names[METRIC_NR_KINDS] = {
		[METRIC_KIND_FRAME_TIME] = "frame_time",
		[METRIC_KIND_LAUNCH] = "launch",
		[METRIC_KIND_JANK] = "jank",
		[METRIC_KIND_BLOCKS] = "blocks",
	};

	return (unsigned)kind < METRIC_NR_KINDS ? names[kind] : "?";
}

int
metric_kind_is_log(enum metric_kind kind)
{
	return kind == METRIC_KIND_FRAME_TIME || kind == METRIC_KIND_LAUNCH;
}

/* The explain metrics (metrics_explain.c) follow the table's. */
size_t
metric_count(void)
{
	return M_COUNT + metric_explain_count();
}

const struct metric_def *
metric_at(size_t i)
{
	return i < M_COUNT ? &metric_table[i] : metric_explain_at(i - M_COUNT);
}

const struct metric_def *
metric_find(const char *name)
{
	for (size_t i = 0; i < M_COUNT; i++)
		if (!strcmp(metric_table[i].name, name))
			return &metric_table[i];
	return metric_explain_find(name);
}

/* The table slot of `m`, also for a copy of a table entry; -1 if unknown. */
static int
metric_id_of(const struct metric_def *m)
{
	const struct metric_def *t;

	if (m >= metric_table && m < metric_table + M_COUNT)
		return (int)(m - metric_table);
	t = metric_find(m->name);
	if (!t || t < metric_table || t >= metric_table + M_COUNT)
		return -1;	/* unknown, or an explain metric */
	return (int)(t - metric_table);
}

int
frames_percentile_from_histogram(const struct rs_bucket *buckets, size_t nr,
    int percentile, double *out)
{
	uint64_t total = 0, remaining;

	if (percentile < 0 || percentile > 100)
		return jg_error_set(JG_EINVAL, "percentile %d out of range",
		    percentile);
	for (size_t i = 0; i < nr; i++)
		total += buckets[i].count;
	if (!total)
		return jg_error_set(JG_ENOTFOUND, "no frames in the histogram");
	remaining = total - (uint64_t)percentile * total / 100;
	for (size_t i = nr; i-- > 0;) {
		if (buckets[i].count >= remaining) {
			*out = buckets[i].ms;
			return 0;
		}
		remaining -= buckets[i].count;
	}
	/* Unreachable: the counts sum to total >= remaining. */
	return jg_error_set(JG_ENOTFOUND, "no frames in the histogram");
}

static int
no_data(const struct metric_def *m, const char *what, const char *name)
{
	return jg_error_set(JG_ENOTFOUND, "no %s for '%s' in '%s'", what,
	    m->name, name ? name : "?");
}

/* Frames the scene rendered; not found when no frame source reported. */
static int
frame_count(const struct rs_frames *f, double *n)
{
	if (!f->present)
		return JG_ENOTFOUND;
	if (!isnan(f->count))
		*n = f->count;
	else if (f->nr_histogram)
		*n = (double)rs_frames_histogram_total(f);
	else
		return JG_ENOTFOUND;
	return 0;
}

static int
scene_fps(const struct rs_scene *sc, double *out)
{
	const struct rs_fps *fps = &sc->fps;
	double sum = 0, weighted = 0, weight = 0, n;
	size_t nr = 0;
	bool all_weighted = true;

	if (!isnan(fps->value)) {
		*out = fps->value;
		return 0;
	}
	for (size_t i = 0; i < fps->nr_slices; i++) {
		const struct rs_fps_slice *s = &fps->slices[i];
		const struct rs_drops *d = &s->drop_level;
		double frames = d->best + d->normal + d->middle + d->high +
		    d->frozen;

		if (isnan(s->fps))
			continue;
		sum += s->fps;
		nr++;
		if (isnan(frames) || frames <= 0) {
			all_weighted = false;
			continue;
		}
		weighted += s->fps * frames;
		weight += frames;
	}
	if (nr) {
		*out = all_weighted ? weighted / weight : sum / (double)nr;
		return 0;
	}
	if (frame_count(&sc->frames, &n) || n <= 0 ||
	    !(sc->end_mono_ms > sc->start_mono_ms))
		return JG_ENOTFOUND;
	*out = n * 1000.0 / (sc->end_mono_ms - sc->start_mono_ms);
	return 0;
}

static int
scene_dropped(const struct rs_scene *sc, double *out)
{
	const struct rs_frames *f = &sc->frames;
	double sum = 0, n;
	bool any = false;

	if (f->present && !isnan(f->dropped)) {
		*out = f->dropped;
		return 0;
	}
	for (size_t i = 0; i < sc->fps.nr_slices; i++) {
		const struct rs_drops *d = &sc->fps.slices[i].drop_sum;
		const double level[] = { d->best, d->normal, d->middle,
			d->high, d->frozen };

		for (size_t j = 0; j < sizeof(level) / sizeof(*level); j++) {
			if (isnan(level[j]))
				continue;
			sum += level[j];
			any = true;
		}
	}
	if (any) {
		*out = sum;
		return 0;
	}
	if (!frame_count(f, &n) && n == 0) {
		*out = 0;
		return 0;
	}
	return JG_ENOTFOUND;
}

static int
scene_percentile(const struct rs_frames *f, int id, double *out)
{
	static const int pct[] = {
		[M_FRAME_P50] = 50, [M_FRAME_P90] = 90,
		[M_FRAME_P95] = 95, [M_FRAME_P99] = 99,
	};
	const double stored[] = {
		[M_FRAME_P50] = f->p50_ms, [M_FRAME_P90] = f->p90_ms,
		[M_FRAME_P95] = f->p95_ms, [M_FRAME_P99] = f->p99_ms,
	};
	double n;

	/* A zero-frame scene's stored percentiles are gfxinfo's 4950. */
	if (frame_count(f, &n) || n <= 0)
		return JG_ENOTFOUND;
	if (!isnan(stored[id])) {
		*out = stored[id];
		return 0;
	}
	if (frames_percentile_from_histogram(f->histogram, f->nr_histogram,
	    pct[id], out) < 0)
		return JG_ENOTFOUND;
	return 0;
}

/* frames.<counted>, else the histogram from `min_ms` up; NAN if neither. */
static double
counted_or_histogram(const struct rs_frames *f, double counted,
    uint32_t min_ms)
{
	if (!isnan(counted))
		return counted;
	if (f->nr_histogram)
		return (double)rs_frames_histogram_at_least(f, min_ms);
	return NAN;
}

/*
 * The width of gfxinfo's histogram bucket labelled `ms` (hwui's buckets:
 * 1 ms up to 32, 2 ms up to 48, 4 ms from 53, 50 ms from 150; a label is
 * its bucket's lower end).
 */
static double
gfx_bucket_width(double ms)
{
	if (ms <= 32)
		return 1;
	if (ms < 48)
		return 2;
	if (ms < 53)
		return 53 - ms;
	if (ms < 150)
		return fmin(4, 150 - ms);
	return 50;
}

/* The share of a uniform span [a, b) at or beyond `d`. */
static double
share_beyond(double a, double b, double d)
{
	if (b <= a)
		return a >= d;
	return fmin(fmax((b - d) / (b - a), 0), 1);
}

/* The integral over [0, x] of floor(t / p), for x >= 0. */
static double
floor_integral(double x, double p)
{
	double sum = 0;

	for (double k = 1; k * p < x; k++)
		sum += x - k * p;
	return sum;
}

/*
 * Whether the slow share's line is one of the display's deadlines: a
 * multiple of the period falls in gfxinfo's METRIC_SLOW_MS bucket (60 Hz:
 * one period, 16.7 ms; 120 Hz: two), so a frame that waits for that vsync
 * counts as slow and one that makes the vsync before it does not, and the
 * slow share is a deadline's share as jank is.  At 90 or 144 Hz the line
 * falls between the display's piles, among frames that end when their
 * work does.
 */
static bool
slow_on_vsync(double period_ms)
{
	double k;

	if (!(period_ms > 0))
		return false;
	k = ceil(METRIC_SLOW_MS / period_ms);
	return k * period_ms < METRIC_SLOW_MS +
	    gfx_bucket_width(METRIC_SLOW_MS);
}

/* What metric_jank_scaled() counts of the frames it reads. */
struct jank_counts {
	double total, janky, slow, missed;
};

/*
 * Add `c` frames spread evenly over [lo, hi) ms, every time multiplied by
 * `scale`, on a display of period `period_ms`.
 */
static void
span_add(struct jank_counts *jc, double c, double lo, double hi,
    double scale, double period_ms)
{
	lo *= scale;
	hi *= scale;
	jc->total += c;
	jc->janky += c * share_beyond(lo, hi, period_ms);
	jc->slow += c * share_beyond(lo, hi, METRIC_SLOW_MS);
	jc->missed += hi > lo ? c * (floor_integral(hi, period_ms) -
	    floor_integral(lo, period_ms)) / (hi - lo) :
	    c * floor(lo / period_ms);
}

/*
 * The frames of the bucket that holds the deadline (`period_ms`) that
 * lie past it: as many as the scene's janky count leaves beyond the
 * buckets wholly past the deadline (scaled to the histogram's total),
 * within the bucket's count.  Frames that wait for the display end just
 * before a vsync, never just after, so that bucket is not even: at 60
 * Hz a pile at 16.0-16.6 ms, none of it janky, fills gfxinfo's 16 ms
 * bucket, and read as spread over 16-17 ms a third of it was.  NAN
 * without a janky count (the bucket is then read as even).
 */
static double
straddle_janky(const struct rs_frames *f, double period_ms, size_t at,
    double total)
{
	double n, past = 0;

	if (isnan(f->janky) || frame_count(f, &n) || !(n > 0))
		return NAN;
	for (size_t i = 0; i < f->nr_histogram; i++)
		if (f->histogram[i].ms >= period_ms)
			past += (double)f->histogram[i].count;
	return fmin(fmax(f->janky / n * total - past, 0),
	    (double)f->histogram[at].count);
}

int
metric_jank_scaled(const struct metric_def *m, const struct rs_scene *scene,
    double period_ms, double scale, double *out)
{
	const struct rs_frames *f = &scene->frames;
	int id = metric_id_of(m);
	struct jank_counts jc = { 0, 0, 0, 0 };
	double total = 0;

	if ((id != M_JANK_PCT && id != M_DROPPED && id != M_FPS &&
	    (id != M_SLOW_PCT || !slow_on_vsync(period_ms))) ||
	    !f->nr_histogram || !(period_ms > 0) || !(scale > 0))
		return JG_ENOTFOUND;
	for (size_t i = 0; i < f->nr_histogram; i++)
		total += (double)f->histogram[i].count;
	for (size_t i = 0; i < f->nr_histogram; i++) {
		double c = (double)f->histogram[i].count;
		double lo = f->histogram[i].ms;
		double hi = lo + gfx_bucket_width(lo);
		double past = lo < period_ms && period_ms < hi ?
		    straddle_janky(f, period_ms, i, total) : NAN;

		if (isnan(past)) {
			span_add(&jc, c, lo, hi, scale, period_ms);
			continue;
		}
		span_add(&jc, c - past, lo, period_ms, scale, period_ms);
		span_add(&jc, past, period_ms, hi, scale, period_ms);
	}
	if (!(jc.total > 0))
		return JG_ENOTFOUND;
	if (id == M_JANK_PCT)
		*out = 100 * jc.janky / jc.total;
	else if (id == M_SLOW_PCT)
		*out = 100 * jc.slow / jc.total;
	else if (id == M_DROPPED)
		*out = jc.missed;
	else
		*out = 1000 * jc.total / (period_ms * (jc.total + jc.missed));
	return 0;
}

double
metric_frames_beyond(const struct metric_def *m, const struct rs_scene *scene)
{
	static const int pct[] = {
		[M_FRAME_P50] = 50, [M_FRAME_P90] = 90,
		[M_FRAME_P95] = 95, [M_FRAME_P99] = 99,
	};
	int id = metric_id_of(m);
	double n;

	if (id != M_FRAME_P50 && id != M_FRAME_P90 && id != M_FRAME_P95 &&
	    id != M_FRAME_P99)
		return NAN;
	if (frame_count(&scene->frames, &n) || n <= 0)
		return NAN;
	return n * (100 - pct[id]) / 100;
}

int
metric_scene_value(const struct metric_def *m, const struct rs_scene *scene,
    double *out)
{
	const struct rs_frames *f = &scene->frames;
	int id = metric_id_of(m);
	double n, v;
	int ret = 0;

	if (id < 0 && metric_explain_find(m->name))
		return metric_explain_value(m, scene, out);
	if (id < 0 || metric_table[id].scope != METRIC_SCENE)
		return jg_error_set(JG_EINVAL, "'%s' is not a scene metric",
		    m->name);
	switch (id) {
	case M_FPS:
		ret = scene_fps(scene, out);
		break;
	case M_JANK_PCT:
		if (frame_count(f, &n) || n <= 0 || isnan(f->janky))
			ret = JG_ENOTFOUND;
		else
			*out = f->janky / n * 100.0;
		break;
	case M_FRAME_P50:
	case M_FRAME_P90:
	case M_FRAME_P95:
	case M_FRAME_P99:
		ret = scene_percentile(f, id, out);
		break;
	case M_SLOW_PCT:
		v = counted_or_histogram(f, f->slow, METRIC_SLOW_MS);
		if (frame_count(f, &n) || n <= 0 || isnan(v))
			ret = JG_ENOTFOUND;
		else
			*out = v / n * 100.0;
		break;
	case M_FROZEN:
		v = counted_or_histogram(f, f->frozen, METRIC_FROZEN_MS);
		if (frame_count(f, &n) || (n > 0 && isnan(v)))
			ret = JG_ENOTFOUND;
		else
			*out = n > 0 ? v : 0;
		break;
	case M_DROPPED:
		ret = scene_dropped(scene, out);
		break;
	case M_BLOCKS:
		*out = (double)scene->nr_blocks;
		break;
	case M_BLOCK_MS:
		*out = 0;
		for (size_t i = 0; i < scene->nr_blocks; i++)
			if (!isnan(scene->blocks[i].wall_ms))
				*out += scene->blocks[i].wall_ms;
		break;
	}
	return ret ? no_data(m, "data", scene->name) : 0;
}

int
metric_iteration_value(const struct metric_def *m,
    const struct rs_iteration *it, double *out)
{
	const struct rs_startup *st = &it->startup;
	int id = metric_id_of(m);
	bool warm = st->kind == RS_LAUNCH_WARM || st->kind == RS_LAUNCH_HOT ||
	    st->matrix.warm == 1;
	double v = NAN;

	if (id < 0 || metric_table[id].scope != METRIC_SCENARIO)
		return jg_error_set(JG_EINVAL, "'%s' is not a scenario metric",
		    m->name);
	if (!st->present)
		return jg_error_set(JG_ENOTFOUND,
		    "iteration %d has no launch for '%s'", it->index, m->name);
	switch (id) {
	case M_STARTUP:
		v = st->total_ms;
		break;
	case M_DISPLAYED:
		v = st->displayed_ms;
		break;
	case M_FULLY_DRAWN:
		v = st->fully_drawn_ms;
		break;
	case M_APP_CREATE:
		if (st->matrix.present && !warm)
			v = st->matrix.application_create_ms;
		break;
	case M_FIRST_ACTIVITY:
		if (st->matrix.present && !warm)
			v = st->matrix.first_activity_create_ms;
		break;
	}
	if (isnan(v))
		return jg_error_set(JG_ENOTFOUND,
		    "iteration %d has no value for '%s'", it->index, m->name);
	*out = v;
	return 0;
}
