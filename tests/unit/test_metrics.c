/*
 * test_metrics.c: the metric table and how each metric is derived.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "metrics.h"
#include "metrics_explain.h"
#include "results.h"
#include "xalloc.h"

/* The names the man page's METRICS promises, with their scope. */
static const struct {
	const char *name;
	enum metric_scope scope;
} design_names[] = {
	{ "fps", METRIC_SCENE }, { "jank_pct", METRIC_SCENE },
	{ "frame_p50_ms", METRIC_SCENE }, { "frame_p90_ms", METRIC_SCENE },
	{ "frame_p95_ms", METRIC_SCENE }, { "frame_p99_ms", METRIC_SCENE },
	{ "slow_pct", METRIC_SCENE }, { "frozen_frames", METRIC_SCENE },
	{ "dropped_frames", METRIC_SCENE }, { "blocks", METRIC_SCENE },
	{ "block_ms", METRIC_SCENE },
	{ "startup_ms", METRIC_SCENARIO }, { "displayed_ms", METRIC_SCENARIO },
	{ "fully_drawn_ms", METRIC_SCENARIO },
	{ "app_create_ms", METRIC_SCENARIO },
	{ "first_activity_ms", METRIC_SCENARIO },
};

#define NDESIGN (sizeof(design_names) / sizeof(*design_names))

/* One scene in a fresh model; the model is the caller's to free. */
static struct rs_scene *
new_scene(struct results **r)
{
	*r = results_new();
	return rs_iteration_add_scene(rs_scenario_add_iteration(
	    results_add_scenario(*r, "s"), false), "x");
}

static struct rs_iteration *
new_iteration(struct results **r)
{
	*r = results_new();
	return rs_scenario_add_iteration(results_add_scenario(*r, "s"), false);
}

/* metric_scene_value() by name. */
static int
scene_value(const char *name, const struct rs_scene *sc, double *out)
{
	const struct metric_def *m = metric_find(name);

	assert_non_null(m);
	return metric_scene_value(m, sc, out);
}

static void
assert_scene_value(const char *name, const struct rs_scene *sc, double want)
{
	double v = NAN;

	if (scene_value(name, sc, &v))
		fail_msg("%s: %s", name, jg_error_msg());
	if (fabs(v - want) > 1e-9)
		fail_msg("%s: got %.17g, want %.17g", name, v, want);
}

static void
assert_scene_missing(const char *name, const struct rs_scene *sc)
{
	double v = -1;

	assert_int_equal(scene_value(name, sc, &v), JG_ENOTFOUND);
	assert_true(v == -1);
}

static int
iteration_value(const char *name, const struct rs_iteration *it, double *out)
{
	return metric_iteration_value(metric_find(name), it, out);
}

/*
 * A histogram consistent with the docs/formats.md §3.1 Pixel 5 sample: 84
 * frames, 50th 5ms, 90th 10ms, 95th 20ms, 99th 105ms.  The post cut the
 * HISTOGRAM line, so the counts are ours; the percentiles are the device's.
 */
static const struct rs_bucket redfin[] = {
	{ 5, 50 }, { 6, 10 }, { 8, 10 }, { 10, 6 }, { 12, 2 }, { 16, 1 },
	{ 20, 1 }, { 32, 2 }, { 69, 1 }, { 105, 1 },
};

/* Every metric the man page names is in the table, with a sane definition. */
static void
every_design_metric_is_found(void **state)
{
	static const char *const units[] = { "ms", "%", "fps", "frames",
		"count" };

	/* The explain metrics follow DESIGN's (metrics_explain.h). */
	assert_int_equal(metric_count(), NDESIGN + metric_explain_count());
	for (size_t i = 0; i < NDESIGN; i++) {
		const struct metric_def *m = metric_find(design_names[i].name);
		bool unit_ok = false;

		assert_non_null(m);
		assert_string_equal(m->name, design_names[i].name);
		assert_int_equal(m->scope, design_names[i].scope);
		assert_int_equal(m->dir, strcmp(m->name, "fps") ?
		    METRIC_LOWER_IS_BETTER : METRIC_HIGHER_IS_BETTER);
		for (size_t u = 0; u < sizeof(units) / sizeof(*units); u++)
			unit_ok |= !strcmp(m->unit, units[u]);
		assert_true(unit_ok);
		assert_true(m->rel_threshold > 0 && m->rel_threshold < 1);
		assert_true(m->abs_threshold > 0);
		assert_true(strlen(m->description) > 10);
		assert_null(strchr(m->description, '\n'));
		assert_false(m->explain);
		assert_ptr_equal(metric_at(i), m);
	}
	for (size_t i = 0; i < metric_count(); i++) {
		const struct metric_def *m = metric_at(i);

		assert_ptr_equal(metric_find(m->name), m);
		/* The primary metrics docs/method.md (step 5) names. */
		assert_int_equal(m->primary, !strcmp(m->name, "frame_p90_ms") ||
		    !strcmp(m->name, "startup_ms"));
	}
}

/* Unknown names, wrong case and out-of-range indexes give NULL. */
static void
unknown_metric_is_null(void **state)
{
	assert_null(metric_find("frame_p75_ms"));
	assert_null(metric_find("FPS"));
	assert_null(metric_find(""));
	assert_null(metric_at(metric_count()));
}

/* gfxinfo's percentile rule reproduces the device's printed numbers. */
static void
histogram_percentiles_match_gfxinfo_sample(void **state)
{
	static const int pct[] = { 50, 90, 95, 99 };
	static const double want[] = { 5, 10, 20, 105 };
	double v;

	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(frames_percentile_from_histogram(redfin, 10,
		    pct[i], &v), 0);
		assert_true(v == want[i]);
	}
	/* 0 and 100 are the fastest and slowest buckets holding frames. */
	assert_int_equal(frames_percentile_from_histogram(redfin, 10, 0, &v),
	    0);
	assert_true(v == 5);
	assert_int_equal(frames_percentile_from_histogram(redfin, 10, 100, &v),
	    0);
	assert_true(v == 105);
}

/* Zero-count buckets, as gfxinfo prints them, change nothing below 100. */
static void
dense_histogram_gives_same_percentiles(void **state)
{
	struct rs_bucket dense[200];
	size_t n = 0;
	double sparse_v, dense_v;

	/* gfxinfo's bucket layout: 5..32 by 1, 34..48 by 2, 53..133 by 4,
	 * then 150..4950 by 50. */
	for (uint32_t ms = 5; ms <= 32; ms++)
		dense[n++] = (struct rs_bucket){ ms, 0 };
	for (uint32_t ms = 34; ms <= 48; ms += 2)
		dense[n++] = (struct rs_bucket){ ms, 0 };
	for (uint32_t ms = 53; ms <= 133; ms += 4)
		dense[n++] = (struct rs_bucket){ ms, 0 };
	for (uint32_t ms = 150; ms <= 4950; ms += 50)
		dense[n++] = (struct rs_bucket){ ms, 0 };
	assert_true(n <= 200);
	for (size_t i = 0; i < 10; i++)
		for (size_t j = 0; j < n; j++)
			if (dense[j].ms == redfin[i].ms)
				dense[j].count = redfin[i].count;
	for (int p = 0; p < 100; p++) {
		assert_int_equal(frames_percentile_from_histogram(redfin, 10, p,
		    &sparse_v), 0);
		assert_int_equal(frames_percentile_from_histogram(dense, n, p,
		    &dense_v), 0);
		assert_true(sparse_v == dense_v);
	}
	/* At 100 gfxinfo answers its top bucket, empty or not. */
	assert_int_equal(frames_percentile_from_histogram(dense, n, 100,
	    &dense_v), 0);
	assert_true(dense_v == 4950);
}

/*
 * The walk-down rule equals the textbook one: the first bucket whose
 * cumulative count exceeds floor(p * total / 100), on many histograms.
 */
static void
percentile_rule_matches_cumulative_definition(void **state)
{
	uint32_t seed = 12345;

	for (int round = 0; round < 200; round++) {
		struct rs_bucket b[12];
		uint64_t total = 0;
		size_t n = 1 + round % 12;

		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			b[i].ms = (uint32_t)(5 + 7 * i);
			b[i].count = (seed >> 16) % 5;	/* zeros included */
			total += b[i].count;
		}
		for (int p = 0; p <= 99; p++) {
			uint64_t pos = (uint64_t)p * total / 100, cum = 0;
			double v, want = -1;
			int ret = frames_percentile_from_histogram(b, n, p, &v);

			if (!total) {
				assert_int_equal(ret, JG_ENOTFOUND);
				continue;
			}
			for (size_t i = 0; i < n && want < 0; i++) {
				cum += b[i].count;
				if (cum > pos)
					want = b[i].ms;
			}
			assert_int_equal(ret, 0);
			assert_true(v == want);
		}
	}
}

/* No frames is not found (gfxinfo would print 4950); bad input is refused. */
static void
percentile_edge_cases(void **state)
{
	static const struct rs_bucket empty[] = { { 5, 0 }, { 4950, 0 } };
	double v = -1;

	assert_int_equal(frames_percentile_from_histogram(empty, 2, 50, &v),
	    JG_ENOTFOUND);
	assert_int_equal(frames_percentile_from_histogram(NULL, 0, 50, &v),
	    JG_ENOTFOUND);
	assert_true(v == -1);
	assert_int_equal(frames_percentile_from_histogram(redfin, 10, 101, &v),
	    JG_EINVAL);
	assert_int_equal(frames_percentile_from_histogram(redfin, 10, -1, &v),
	    JG_EINVAL);
}

/* Frame metrics come from the counters gfxinfo printed. */
static void
frame_metrics_from_counters(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);

	sc->frames.present = true;
	sc->frames.count = 200;
	sc->frames.janky = 9;
	sc->frames.slow = 14;
	sc->frames.frozen = 2;
	sc->frames.dropped = 31;
	sc->frames.p50_ms = 6;
	sc->frames.p90_ms = 12;
	sc->frames.p95_ms = 19;
	sc->frames.p99_ms = 150;
	assert_scene_value("jank_pct", sc, 4.5);
	assert_scene_value("slow_pct", sc, 7);
	assert_scene_value("frozen_frames", sc, 2);
	assert_scene_value("dropped_frames", sc, 31);
	assert_scene_value("frame_p50_ms", sc, 6);
	assert_scene_value("frame_p90_ms", sc, 12);
	assert_scene_value("frame_p95_ms", sc, 19);
	assert_scene_value("frame_p99_ms", sc, 150);
	results_free(r);
}

/* Without counters, slow, frozen and percentiles come from the histogram. */
static void
frame_metrics_from_histogram(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);

	for (size_t i = 0; i < 10; i++)
		rs_frames_add_bucket(&sc->frames, redfin[i].ms,
		    redfin[i].count);
	rs_frames_add_bucket(&sc->frames, 15, 4);	/* not slow */
	rs_frames_add_bucket(&sc->frames, 650, 3);	/* slow, not frozen */
	rs_frames_add_bucket(&sc->frames, 700, 2);	/* frozen */
	/* 84 + 9 = 93 frames; 16 ms and up: 1+1+2+1+1+3+2 = 11. */
	assert_scene_value("slow_pct", sc, 11.0 / 93 * 100);
	assert_scene_value("frozen_frames", sc, 2);
	assert_scene_value("frame_p50_ms", sc, 5);
	assert_scene_value("frame_p99_ms", sc, 700);
	/* janky is never derived: gfxinfo's rule needs per-frame deadlines. */
	assert_scene_missing("jank_pct", sc);
	assert_scene_missing("dropped_frames", sc);
	results_free(r);
}

/* Ten frames in each of gfxinfo's 12, 15, 16 and 20 ms buckets. */
static void
add_deadline_buckets(struct rs_scene *sc)
{
	rs_frames_add_bucket(&sc->frames, 12, 10);
	rs_frames_add_bucket(&sc->frames, 15, 10);
	rs_frames_add_bucket(&sc->frames, 16, 10);
	rs_frames_add_bucket(&sc->frames, 20, 10);
}

/*
 * The shares read with every frame scaled (metric_jank_scaled(), what
 * compare takes a far session offset back by): at scale 1 the slow share
 * reads what slow_pct does; 10 % slower, the 15 ms bucket crosses the
 * 16 ms line and the 12 ms one does not.  The slow share is read only
 * where its line is a deadline of the display's (60 Hz: one period;
 * 120 Hz: two), not at 90 Hz, whose vsyncs fall at 11.1 and 22.2 ms.
 */
static void
scaled_shares_read_the_display_deadlines(void **state)
{
	const struct metric_def *slow = metric_find("slow_pct");
	const struct metric_def *jank = metric_find("jank_pct");
	struct results *r;
	struct rs_scene *sc = new_scene(&r);
	double v;

	(void)state;
	add_deadline_buckets(sc);
	assert_scene_value("slow_pct", sc, 50);
	assert_int_equal(metric_jank_scaled(slow, sc, 1000.0 / 60, 1, &v), 0);
	assert_true(fabs(v - 50) < 1e-9);
	assert_int_equal(metric_jank_scaled(slow, sc, 1000.0 / 60, 1.1, &v),
	    0);
	assert_true(fabs(v - 75) < 1e-9);
	assert_int_equal(metric_jank_scaled(slow, sc, 1000.0 / 120, 1, &v),
	    0);
	assert_true(fabs(v - 50) < 1e-9);
	assert_int_equal(metric_jank_scaled(slow, sc, 1000.0 / 90, 1, &v),
	    JG_ENOTFOUND);
	/* Janky past one period: a third of the 16 ms bucket, and 20 ms. */
	assert_int_equal(metric_jank_scaled(jank, sc, 1000.0 / 60, 1, &v), 0);
	assert_true(fabs(v - (10.0 / 3 + 10) / 40 * 100) < 1e-9);
	results_free(r);
}

/*
 * Frames that wait for the display end just before the vsync: at 60 Hz a
 * pile at 16.0-16.6 ms fills gfxinfo's 16 ms bucket without one janky
 * frame.  The bucket that holds the deadline is split by the scene's
 * janky count, so the reading at the scene's own speed is its jank share
 * (not a third of the pile more), and the pile turns janky when its
 * frames are read slower.  Without a janky count the bucket is even.
 */
static void
the_deadline_bucket_follows_the_janky_count(void **state)
{
	const struct metric_def *jank = metric_find("jank_pct");
	const struct metric_def *dropped = metric_find("dropped_frames");
	const double period = 1000.0 / 60;
	struct results *r;
	struct rs_scene *sc = new_scene(&r);
	double v;

	(void)state;
	add_deadline_buckets(sc);
	sc->frames.present = true;
	sc->frames.count = 40;
	sc->frames.janky = 10;
	assert_int_equal(metric_jank_scaled(jank, sc, period, 1, &v), 0);
	assert_true(fabs(v - 25) < 1e-9);
	assert_int_equal(metric_jank_scaled(dropped, sc, period, 1, &v), 0);
	assert_true(fabs(v - 10) < 1e-9);
	/* 10 % slower: the pile is past the deadline, and most of 15 ms. */
	assert_int_equal(metric_jank_scaled(jank, sc, period, 1.1, &v), 0);
	assert_true(fabs(v - (20 + 10 * (16 * 1.1 - period) / 1.1) / 40 *
	    100) < 1e-9);
	/* Four of the bucket past the deadline, by the count. */
	sc->frames.janky = 14;
	assert_int_equal(metric_jank_scaled(jank, sc, period, 1, &v), 0);
	assert_true(fabs(v - 35) < 1e-9);
	assert_int_equal(metric_jank_scaled(dropped, sc, period, 1, &v), 0);
	assert_true(fabs(v - 14) < 1e-9);
	/* A count the buckets past the deadline exceed: none of the pile. */
	sc->frames.janky = 2;
	assert_int_equal(metric_jank_scaled(jank, sc, period, 1, &v), 0);
	assert_true(fabs(v - 25) < 1e-9);
	sc->frames.janky = NAN;
	assert_int_equal(metric_jank_scaled(jank, sc, period, 1, &v), 0);
	assert_true(fabs(v - (10.0 / 3 + 10) / 40 * 100) < 1e-9);
	results_free(r);
}

/*
 * A scene that rendered nothing has no ratio or percentile (the 4950 that
 * gfxinfo stores is ignored), but zero of every countable thing.
 */
static void
zero_frames(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);

	sc->frames.present = true;
	sc->frames.count = 0;
	sc->frames.janky = 0;
	sc->frames.p50_ms = sc->frames.p99_ms = 4950;
	sc->start_mono_ms = 0;
	sc->end_mono_ms = 3000;
	assert_scene_missing("frame_p50_ms", sc);
	assert_scene_missing("frame_p99_ms", sc);
	assert_scene_missing("jank_pct", sc);
	assert_scene_missing("slow_pct", sc);
	assert_scene_missing("fps", sc);
	assert_scene_value("frozen_frames", sc, 0);
	assert_scene_value("dropped_frames", sc, 0);
	assert_scene_value("blocks", sc, 0);
	assert_scene_value("block_ms", sc, 0);
	results_free(r);
}

/* Without any frame source, frame metrics are missing, blocks are not. */
static void
no_frame_source(void **state)
{
	static const char *const frame_metrics[] = { "fps", "jank_pct",
		"frame_p50_ms", "frame_p90_ms", "frame_p95_ms", "frame_p99_ms",
		"slow_pct", "frozen_frames", "dropped_frames" };
	struct results *r;
	struct rs_scene *sc = new_scene(&r);

	for (size_t i = 0; i < sizeof(frame_metrics) / sizeof(*frame_metrics);
	    i++)
		assert_scene_missing(frame_metrics[i], sc);
	assert_scene_value("blocks", sc, 0);
	results_free(r);
}

/* fps: the scene's value, else slices weighted by frames, else a rate. */
static void
fps_sources_in_order(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);
	struct rs_fps_slice *a, *b;

	sc->frames.present = true;
	sc->frames.count = 150;
	sc->start_mono_ms = 1000;
	sc->end_mono_ms = 4000;
	assert_scene_value("fps", sc, 50);	/* 150 frames in 3 s */

	a = rs_fps_add_slice(&sc->fps, "matrix");
	a->fps = 60;
	a->drop_level.best = 90;
	a->drop_level.normal = a->drop_level.middle = 0;
	a->drop_level.high = a->drop_level.frozen = 0;
	b = rs_fps_add_slice(&sc->fps, "matrix");
	a = &sc->fps.slices[0];		/* the add may have moved it */
	b->fps = 40;
	b->drop_level = a->drop_level;
	b->drop_level.best = 20;
	b->drop_level.high = 10;
	assert_scene_value("fps", sc, (60.0 * 90 + 40.0 * 30) / 120);

	b->drop_level.best = NAN;	/* one slice without a frame count */
	assert_scene_value("fps", sc, 50);	/* plain mean of 60 and 40 */

	sc->fps.value = 58.5;
	assert_scene_value("fps", sc, 58.5);
	results_free(r);
}

/* dropped_frames falls back to the slices' drop sums over all levels. */
static void
dropped_from_slices(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);
	struct rs_fps_slice *s = rs_fps_add_slice(&sc->fps, "matrix");

	s->drop_sum.best = 38;
	s->drop_sum.normal = 36;
	s->drop_sum.middle = 21;
	s->drop_sum.high = 30;
	/* frozen stays NAN: an old Matrix that did not print it */
	s = rs_fps_add_slice(&sc->fps, "matrix");
	s->drop_sum.best = 5;
	assert_scene_value("dropped_frames", sc, 130);
	results_free(r);
}

/* blocks counts every block; block_ms sums the known durations. */
static void
blocks_and_block_ms(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);

	rs_scene_add_block(sc, "blockcanary")->wall_ms = 1203;
	rs_scene_add_block(sc, "perf");		/* UI BLOCK: no duration */
	rs_scene_add_block(sc, "matrix")->wall_ms = 712.5;
	assert_scene_value("blocks", sc, 3);
	assert_scene_value("block_ms", sc, 1915.5);
	results_free(r);
}

/* Launch metrics read the startup record, and only what it holds. */
static void
launch_metrics(void **state)
{
	struct results *r;
	struct rs_iteration *it = new_iteration(&r);
	double v = -1;

	assert_int_equal(iteration_value("startup_ms", it, &v), JG_ENOTFOUND);
	it->startup.present = true;
	it->startup.kind = RS_LAUNCH_COLD;
	it->startup.total_ms = 812;
	it->startup.displayed_ms = 805;
	assert_int_equal(iteration_value("startup_ms", it, &v), 0);
	assert_true(v == 812);
	assert_int_equal(iteration_value("displayed_ms", it, &v), 0);
	assert_true(v == 805);
	assert_int_equal(iteration_value("fully_drawn_ms", it, &v),
	    JG_ENOTFOUND);
	assert_int_equal(iteration_value("app_create_ms", it, &v),
	    JG_ENOTFOUND);	/* no Matrix */
	it->startup.matrix.present = true;
	it->startup.matrix.warm = 0;
	it->startup.matrix.application_create_ms = 415;
	it->startup.matrix.first_activity_create_ms = 1240;
	assert_int_equal(iteration_value("app_create_ms", it, &v), 0);
	assert_true(v == 415);
	assert_int_equal(iteration_value("first_activity_ms", it, &v), 0);
	assert_true(v == 1240);
	results_free(r);
}

/* Warm and hot starts have no app creation, whoever says they are warm. */
static void
warm_starts_have_no_app_create(void **state)
{
	struct results *r;
	struct rs_iteration *it = new_iteration(&r);
	double v = -1;

	it->startup.present = true;
	it->startup.kind = RS_LAUNCH_COLD;
	it->startup.matrix.present = true;
	it->startup.matrix.warm = 1;
	it->startup.matrix.application_create_ms = 0;
	it->startup.matrix.first_activity_create_ms = 0;
	assert_int_equal(iteration_value("app_create_ms", it, &v),
	    JG_ENOTFOUND);
	assert_int_equal(iteration_value("first_activity_ms", it, &v),
	    JG_ENOTFOUND);
	it->startup.matrix.warm = RS_UNKNOWN;
	it->startup.kind = RS_LAUNCH_HOT;
	assert_int_equal(iteration_value("app_create_ms", it, &v),
	    JG_ENOTFOUND);
	assert_true(v == -1);
	results_free(r);
}

/* Asking a scene for a launch metric, or the reverse, is refused. */
static void
scope_mismatch_is_refused(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);
	struct rs_iteration *it = &r->scenarios[0].iterations[0];
	struct metric_def copy = *metric_find("blocks");
	double v;

	assert_int_equal(scene_value("startup_ms", sc, &v), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "'startup_ms'"));
	assert_int_equal(iteration_value("fps", it, &v), JG_EINVAL);
	/* A copy of a table entry still works; a made-up one does not. */
	assert_int_equal(metric_scene_value(&copy, sc, &v), 0);
	copy.name = "nonsense";
	assert_int_equal(metric_scene_value(&copy, sc, &v), JG_EINVAL);
	results_free(r);
}

/* The shared fixture yields the values its generator put in. */
static void
fixture_values(void **state)
{
	char *path = xasprintf("%s/tests/unit/data/results/full.json",
	    unit_srcdir());
	struct results *r = NULL;
	const struct rs_iteration *it;
	const struct rs_scene *sc;
	double v;

	assert_int_equal(results_read(&r, path), 0);
	it = &results_find_scenario(r, "scroll_feed")->iterations[2];
	sc = rs_iteration_find_scene(it, "feed_scroll");
	assert_scene_value("frame_p99_ms", sc, 750);
	assert_scene_value("frozen_frames", sc, 1);
	assert_scene_value("jank_pct", sc, 6.0 / 93 * 100);
	assert_scene_value("fps", sc, 55.41302490234375);
	assert_scene_value("block_ms", sc, 1223);
	assert_int_equal(iteration_value("fully_drawn_ms", it, &v),
	    JG_ENOTFOUND);
	assert_int_equal(iteration_value("app_create_ms", it, &v), 0);
	assert_true(v == 417);
	it = &results_find_scenario(r, "settings")->iterations[1];
	assert_int_equal(iteration_value("startup_ms", it, &v), 0);
	assert_true(v == 304);
	assert_int_equal(iteration_value("first_activity_ms", it, &v),
	    JG_ENOTFOUND);
	results_free(r);
	free(path);
}

/*
 * The explain metrics: one p50, one p90 and one Matrix mean per phase and
 * one count per jank type, each a scene metric with explain set, sane
 * thresholds, and a name that says what it is about.
 */
static void
explain_metrics_cover_every_phase_and_type(void **state)
{
	struct metric_about a;
	char name[64];

	assert_int_equal(metric_explain_count(),
	    3 * RS_NR_PHASES + RS_NR_JANK_TYPES);
	for (int p = 0; p < RS_NR_PHASES; p++) {
		static const char *const stat[] = { "p50", "p90", "mean" };

		for (int k = 0; k < 3; k++) {
			const struct metric_def *m;

			snprintf(name, sizeof(name), "phase_%s_%s_ms",
			    rs_phase_name(p), stat[k]);
			m = metric_find(name);
			assert_non_null(m);
			assert_true(m->explain);
			assert_int_equal(m->scope, METRIC_SCENE);
			assert_string_equal(m->unit, "ms");
			assert_int_equal(m->kind, METRIC_KIND_FRAME_TIME);
			assert_int_equal(metric_explain_about(name, &a), 0);
			assert_int_equal(a.phase, p);
			assert_int_equal(a.jank_type, -1);
			assert_int_equal(a.stat, k == 0 ? 50 : k == 1 ? 90 : 0);
		}
	}
	for (int t = 0; t < RS_NR_JANK_TYPES; t++) {
		const struct metric_def *m;

		snprintf(name, sizeof(name), "jank_type_%s",
		    rs_jank_type_name(t));
		m = metric_find(name);
		assert_non_null(m);
		assert_true(m->explain && m->by_means);
		assert_string_equal(m->unit, "frames");
		assert_int_equal(metric_explain_about(name, &a), 0);
		assert_int_equal(a.jank_type, t);
		assert_int_equal(a.phase, -1);
	}
	assert_int_equal(metric_explain_about("frame_p90_ms", &a), -1);
}

/*
 * Phase metrics come from the scene's phases (none without rows), the
 * Matrix means from the slices weighted by their frames, jank types
 * from the scene's counts (none below API 31).
 */
static void
explain_values(void **state)
{
	struct results *r;
	struct rs_scene *sc = new_scene(&r);
	struct rs_fps_slice *s;

	assert_scene_missing("phase_layout_p90_ms", sc);
	assert_scene_missing("phase_layout_mean_ms", sc);
	assert_scene_missing("jank_type_buffer_stuffing", sc);
	sc->phases.present = true;
	sc->phases.frames = 0;
	sc->phases.p90_ms[RS_PHASE_LAYOUT] = 3;
	/* Every row skipped: nothing to compare. */
	assert_scene_missing("phase_layout_p90_ms", sc);
	sc->phases.frames = 40;
	assert_scene_value("phase_layout_p90_ms", sc, 3);
	assert_scene_missing("phase_layout_p50_ms", sc);
	s = rs_fps_add_slice(&sc->fps, "matrix");
	s->drop_level.best = 30;
	s->drop_level.normal = s->drop_level.middle = 0;
	s->drop_level.high = s->drop_level.frozen = 0;
	s->phases.present = true;
	s->phases.ms[RS_PHASE_DRAW] = 2;
	s = rs_fps_add_slice(&sc->fps, "matrix");
	s->drop_level.best = 10;
	s->drop_level.normal = s->drop_level.middle = 0;
	s->drop_level.high = s->drop_level.frozen = 0;
	s->phases.present = true;
	s->phases.ms[RS_PHASE_DRAW] = 6;
	assert_scene_value("phase_draw_mean_ms", sc, 3);
	sc->jank_types.present = true;
	sc->jank_types.count[RS_JANK_BUFFER_STUFFING] = 2;
	assert_scene_value("jank_type_buffer_stuffing", sc, 2);
	results_free(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(explain_metrics_cover_every_phase_and_type),
	cmocka_unit_test(explain_values),
	cmocka_unit_test(every_design_metric_is_found),
	cmocka_unit_test(unknown_metric_is_null),
	cmocka_unit_test(histogram_percentiles_match_gfxinfo_sample),
	cmocka_unit_test(dense_histogram_gives_same_percentiles),
	cmocka_unit_test(percentile_rule_matches_cumulative_definition),
	cmocka_unit_test(percentile_edge_cases),
	cmocka_unit_test(frame_metrics_from_counters),
	cmocka_unit_test(frame_metrics_from_histogram),
	cmocka_unit_test(scaled_shares_read_the_display_deadlines),
	cmocka_unit_test(the_deadline_bucket_follows_the_janky_count),
	cmocka_unit_test(zero_frames),
	cmocka_unit_test(no_frame_source),
	cmocka_unit_test(fps_sources_in_order),
	cmocka_unit_test(dropped_from_slices),
	cmocka_unit_test(blocks_and_block_ms),
	cmocka_unit_test(launch_metrics),
	cmocka_unit_test(warm_starts_have_no_app_create),
	cmocka_unit_test(scope_mismatch_is_refused),
	cmocka_unit_test(fixture_values),
};
JG_UNIT_GROUP(metrics, tests, NULL, NULL)
