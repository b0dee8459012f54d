/*
 * metrics.h: the comparable numbers, and how each comes out of the model.
 *
 * Every number jankgate compares has a stable name (the man page's
 * METRICS) used in config thresholds, comparison.json and reports.  The
 * table in metrics.c says for each one its unit, which way is worse, whether
 * it belongs to a scene or to the whole scenario (launch timing), and the
 * default practical thresholds; the derivation functions turn one scene or
 * one iteration of results.h into one value, because the iteration is the
 * unit of comparison (compare.h).
 *
 * The two thresholds are meant to be applied together: a shift is large
 * enough to matter when it is at least `abs_threshold` in the metric's unit
 * and at least `rel_threshold` of the baseline value.  The absolute floor
 * keeps tiny baselines (0 -> 1 block is "+infinity %") from alarming on
 * noise, the relative one keeps large baselines in proportion.
 */
#ifndef JG_METRICS_H
#define JG_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct rs_bucket;
struct rs_iteration;
struct rs_scene;

enum metric_dir { METRIC_LOWER_IS_BETTER, METRIC_HIGHER_IS_BETTER };
enum metric_scope { METRIC_SCENE, METRIC_SCENARIO };

/*
 * What a metric measures, for the session model of compare (compare.h):
 * metrics of one kind share how much a session (one device's
 * uninterrupted run) moves them.  Times are compared on a log scale, where
 * a phone running a few percent slower today moves every one of them by
 * the same amount; jank shares and counts and block numbers on their own
 * scale.
 */
enum metric_kind {
	METRIC_KIND_FRAME_TIME,	/* frame_pNN_ms */
	METRIC_KIND_LAUNCH,	/* the launch timings */
	METRIC_KIND_JANK,	/* fps, jank/slow shares, dropped, frozen */
	METRIC_KIND_BLOCKS,	/* blocks, block_ms */
};
#define METRIC_NR_KINDS 4

struct metric_def {
	const char *name;        /* "frame_p90_ms" */
	const char *unit;        /* "ms", "%", "fps", "frames", "count" */
	enum metric_dir dir;
	enum metric_scope scope;
	double rel_threshold;    /* default practical threshold, fraction
				    (0.10 = 10 %) */
	double abs_threshold;    /* default practical threshold, in unit */
	const char *description; /* one line for jankgate(1) and reports */
	enum metric_kind kind;
	double resolution;       /* the smallest step a value moves by (1 for
				    whole ms and counts), 0: continuous */
	/*
	 * Small counts of events (a block or two an iteration) are compared
	 * as counts, by the exact test of two Poisson rates on their sums
	 * (compare_session.c): their values tie so much that a rank test
	 * wastes most of what they say, and a mean of five counts near zero
	 * is too skewed for a t test.
	 */
	int by_means;
	/*
	 * An explanation (issue 20: frame phases, jank types): compared
	 * like the others and shown beside what it explains, but kept out
	 * of the correction's family and never part of a run's verdict or
	 * exit status (compare.h, metrics_explain.h).
	 */
	int explain;
	/*
	 * The metric a team reads first for its scope (a scene's
	 * frame_p90_ms, a scenario's startup_ms): `primary_weight` gives it
	 * that many times another metric's share of the correction
	 * (docs/method.md, step 5).
	 */
	int primary;
};

/* "frame_time", "launch", "jank", "blocks"; never NULL. */
const char *metric_kind_name(enum metric_kind kind);

/* 1 when the kind is compared on a log scale (times). */
int metric_kind_is_log(enum metric_kind kind);

/*
 * A frame counts as slow or frozen when its gfxinfo histogram bucket
 * starts at or above these (a bucket "16" holds frames of 16.0-16.99 ms,
 * which are over 16 ms).  Sources that fill rs_frames.slow/.frozen from a
 * histogram use the same limits through rs_frames_histogram_at_least().
 */
#define METRIC_SLOW_MS 16
#define METRIC_FROZEN_MS 700

/* The metric called `name`, or NULL if unknown.  Borrowed, static. */
const struct metric_def *metric_find(const char *name);

/* Number of metrics, and the i-th in table order (NULL when out of range). */
size_t metric_count(void);
const struct metric_def *metric_at(size_t i);

/*
 * The value of scene metric `m` in `scene` into *out.  Returns 0, or
 * JG_ENOTFOUND when the scene has no data for it (no frames rendered, no
 * frame source), or JG_EINVAL when `m` is not a scene metric.
 */
int metric_scene_value(const struct metric_def *m, const struct rs_scene *scene,
    double *out);

/*
 * The value of scenario metric `m` (launch timing) in iteration `it` into
 * *out.  Returns 0, JG_ENOTFOUND when the iteration has no such number (no
 * launch, no Matrix, no reportFullyDrawn), or JG_EINVAL for a scene metric.
 * Warm-up and failed iterations are not filtered here; compare does that.
 */
int metric_iteration_value(const struct metric_def *m,
    const struct rs_iteration *it, double *out);

/*
 * How many of `scene`'s frames lie beyond frame percentile `m` (the
 * scene's frame count times (100 - percentile) / 100): the frames that
 * carry its value.  NAN for a metric that is not a frame percentile or a
 * scene without a frame count.
 */
double metric_frames_beyond(const struct metric_def *m,
    const struct rs_scene *scene);

/*
 * What jank_pct, dropped_frames or fps would read from `scene`'s frame
 * histogram with every frame's time multiplied by `scale`, on a display of
 * period `period_ms`: each bucket's frames spread evenly over its width
 * (the bucket that holds the period split where the scene's janky count
 * says, when it has one: frames that wait for the display pile up just
 * before the vsync, not across the bucket), a frame janky past one
 * period, missing floor(time / period) vsyncs, and shown for one period
 * more than it missed.  slow_pct too, where a
 * multiple of the period falls in its 16 ms bucket (60 and 120 Hz: its
 * line is then a deadline of the display's).  A proxy of the metric, not
 * its value (gfxinfo counts janky frames by its own deadlines, Matrix its
 * frame rate by its own slices): what a difference of two scales says is
 * how far the metric moves with its frames' speed.  Returns 0, or
 * JG_ENOTFOUND without a histogram or a period, or for another metric
 * (slow_pct, at a rate none of whose vsyncs falls in its bucket).
 */
int metric_jank_scaled(const struct metric_def *m,
    const struct rs_scene *scene, double period_ms, double scale,
    double *out);

/*
 * The `percentile`-th (0-100) frame time of a histogram by gfxinfo's own
 * rule (hwui ProfileData::findPercentile): pos = percentile * total / 100
 * in integers, then walk down from the slowest bucket until the frames seen
 * reach total - pos; the answer is that bucket's ms.  `buckets` ascend by
 * ms.  Returns 0, or JG_ENOTFOUND for an empty histogram (where gfxinfo
 * prints a meaningless 4950ms), or JG_EINVAL for a percentile out of range.
 */
int frames_percentile_from_histogram(const struct rs_bucket *buckets,
    size_t nr, int percentile, double *out);

#endif
