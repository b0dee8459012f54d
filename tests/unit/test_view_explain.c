/*
 * test_view_explain.c: what issue 20 added to the view model and its
 * charts: the phase that moved on a frame-time row, a block's headline
 * frame and janky frames, a scene's phases, jank types and methods, the
 * timeline of a regressed scene (svg_timeline.c), and the trace link.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "unit.h"
#include "compare.h"
#include "fileio.h"
#include "metrics.h"
#include "results.h"
#include "strbuf.h"
#include "svg_timeline.h"
#include "view.h"
#include "xalloc.h"

static struct cmp_entry *
fill(struct cmp_entry *e, const struct comparison *c, const char *metric,
    enum cmp_verdict v, double shift)
{
	e->device = xstrdup(c->device);
	e->scenario = xstrdup("feed");
	e->scene = xstrdup("list");
	e->metric = xstrdup(metric);
	e->unit = xstrdup(metric_find(metric)->unit);
	e->verdict = v;
	e->base.n = e->cur.n = 5;
	e->base.median = 10;
	e->base.max = 10;
	e->cur.median = 10 + shift;
	e->cur.max = 10 + shift;
	e->shift = shift;
	e->shift_lo = shift - 0.4;
	e->shift_hi = shift + 0.4;
	e->threshold = 0.5;
	return e;
}

static struct comparison *
comparison(void)
{
	struct comparison *c = comparison_new();
	struct cmp_scenario *s = comparison_add_scenario(c);

	c->device = xstrdup("pixel-7");
	c->package = xstrdup("com.example.feed");
	s->name = xstrdup("feed");
	s->cur_valid = s->cur_iterations = 5;
	return c;
}

static cJSON *
model(const struct view_input *in)
{
	struct view_opts o = { .charts = 1 };
	struct view *v = view_build(in, 1, &o);
	char *json = view_to_json(v);
	cJSON *root = cJSON_Parse(json);

	free(json);
	view_free(v);
	assert_non_null(root);
	return root;
}

static const cJSON *
at(const cJSON *o, const char *path)
{
	char *copy = xstrdup(path), *save = NULL;

	for (char *k = strtok_r(copy, ".", &save); k && o;
	    k = strtok_r(NULL, ".", &save)) {
		char *end;
		long idx = strtol(k, &end, 10);

		o = *end ? cJSON_GetObjectItemCaseSensitive(o, k) :
		    cJSON_GetArrayItem(o, (int)idx);
	}
	free(copy);
	return o;
}

static const char *
str(const cJSON *o, const char *path)
{
	const cJSON *v = at(o, path);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * A frame-time regression names the phase whose same percentile moved
 * most the worse way, with its interval; p50 rows look at p50 phases;
 * rows of other metrics and passing rows say nothing.
 */
static void
frame_rows_name_the_phase_that_moved(void **state)
{
	struct comparison *c = comparison();
	struct view_input in = { c, "c.json", NULL, NULL, 0, NULL, 0, NULL };
	cJSON *m;

	fill(comparison_add_entry(c), c, "frame_p90_ms", CMP_REGRESSION, 3);
	fill(comparison_add_entry(c), c, "frame_p50_ms", CMP_REGRESSION, 1);
	fill(comparison_add_entry(c), c, "jank_pct", CMP_REGRESSION, 4);
	fill(comparison_add_explain(c), c, "phase_layout_p90_ms", CMP_PASS,
	    2.6);
	fill(comparison_add_explain(c), c, "phase_draw_p90_ms", CMP_PASS,
	    0.3);
	fill(comparison_add_explain(c), c, "phase_wait_p90_ms", CMP_PASS,
	    -4);
	fill(comparison_add_explain(c), c, "phase_draw_p50_ms", CMP_PASS, 1);
	m = model(&in);
	assert_string_equal(str(m, "regressions.0.metric"), "frame_p90_ms");
	assert_string_equal(str(m, "regressions.0.explain"),
	    "p90 +3 ms: measure/layout +2.6 ms (+2.2 to +3 ms)");
	assert_string_equal(str(m, "regressions.1.explain"),
	    "p50 +1 ms: draw +1 ms (+0.6 to +1.4 ms)");
	assert_null(str(m, "regressions.2.explain"));
	/* The scene's phase table marks it and says so. */
	assert_string_equal(str(m, "devices.0.scenarios.0.scenes.0."
	    "phases_moved"), "measure/layout moved most: p90 +2.6 ms");
	cJSON_Delete(m);
	comparison_free(c);
}

/*
 * A block's headline is the frame its signature starts with; the top
 * frame is kept and flagged when it is another; the janky frames it
 * overlapped are said, and "not known" when no rows covered it.
 */
static void
blocks_headline_their_app_frame(void **state)
{
	struct comparison *c = comparison();
	struct view_input in = { c, "c.json", NULL, NULL, 0, NULL, 0, NULL };
	struct cmp_block *b = comparison_add_block(c);
	cJSON *m;

	b->device = xstrdup("pixel-7");
	b->scenario = xstrdup("feed");
	b->scene = xstrdup("list");
	b->signature = xstrdup("00ff00ff00ff00ff");
	b->status = CMP_BLOCK_NEW;
	b->cur.count = 4;
	b->cur.frames_seen = 3;
	b->cur.janky_frames = 9;
	strlist_add(&b->stack, "java.math.BigDecimal.divide(BigDecimal.java:1)");
	strlist_add(&b->stack, "com.example.PriceCalculator.applyCoupons("
	    "PriceCalculator.java:88)");
	b = comparison_add_block(c);
	b->device = xstrdup("pixel-7");
	b->scenario = xstrdup("feed");
	b->scene = xstrdup("list");
	b->signature = xstrdup("1111111111111111");
	b->status = CMP_BLOCK_NEW;
	b->cur.count = 1;
	strlist_add(&b->stack, "com.example.Feed.bind(Feed.java:3)");
	m = model(&in);
	assert_string_equal(str(m, "changed_blocks.0.headline"),
	    "com.example.PriceCalculator.applyCoupons(PriceCalculator.java:88)");
	assert_string_equal(str(m, "changed_blocks.0.top"),
	    "java.math.BigDecimal.divide(BigDecimal.java:1)");
	assert_true(cJSON_IsTrue(at(m, "changed_blocks.0.top_differs")));
	assert_string_equal(str(m, "changed_blocks.0.janky"),
	    "overlapped 9 janky frames in the 3 of 4 occurrences the frame "
	    "rows cover");
	assert_string_equal(str(m, "changed_blocks.1.headline"),
	    "com.example.Feed.bind(Feed.java:3)");
	assert_null(at(m, "changed_blocks.1.top_differs"));
	assert_string_equal(str(m, "changed_blocks.1.janky"),
	    "janky frames not known (no frame rows around it)");
	cJSON_Delete(m);
	comparison_free(c);
}

/*
 * Jank types that no iteration had are left out; those that grew are
 * flagged and listed; slower methods are listed by the scene and the
 * report.
 */
static void
jank_types_and_methods(void **state)
{
	struct comparison *c = comparison();
	struct view_input in = { c, "c.json", NULL, NULL, 0, NULL, 0, NULL };
	struct cmp_entry *e;
	struct cmp_method *me;
	cJSON *m;

	fill(comparison_add_entry(c), c, "jank_pct", CMP_PASS, 0);
	e = fill(comparison_add_explain(c), c, "jank_type_app_deadline_missed",
	    CMP_REGRESSION, 4);
	e = fill(comparison_add_explain(c), c, "jank_type_display_hal",
	    CMP_PASS, 0);
	e->base.max = e->cur.max = 0;
	e = fill(comparison_add_explain(c), c, "jank_type_buffer_stuffing",
	    CMP_PASS, 2);
	me = comparison_add_method(c);
	me->device = xstrdup("pixel-7");
	me->scenario = xstrdup("feed");
	me->scene = xstrdup("list");
	me->name = xstrdup("com.example.Feed.bind");
	me->source = xstrdup("traceman");
	me->status = CMP_BLOCK_WORSE;
	me->base.count = me->cur.count = 5;
	me->base.iterations = me->cur.iterations = 5;
	me->base.wall_ms = 2;
	me->cur.wall_ms = 8;
	m = model(&in);
	assert_int_equal(cJSON_GetArraySize(at(m, "devices.0.scenarios.0."
	    "scenes.0.jank_types")), 2);
	assert_string_equal(str(m, "devices.0.scenarios.0.scenes.0."
	    "jank_grew"), "app deadline missed +4 frames, buffer stuffing "
	    "+2 frames");
	assert_string_equal(str(m, "changed_methods.0.status_label"),
	    "Slower");
	assert_string_equal(str(m, "changed_methods.0.current"),
	    "5 calls in 5 iterations, median 8 ms");
	assert_string_equal(str(m, "changed_methods.0.source"),
	    "MethodTraceMan");
	assert_string_equal(str(m, "devices.0.scenarios.0.scenes.0.methods.0."
	    "name"), "com.example.Feed.bind");
	cJSON_Delete(m);
	comparison_free(c);
}

static int
count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * The timeline draws every frame, input step and block, colours janky
 * frames and changed blocks, escapes labels, says what each element is
 * on hover, and gives the same bytes for the same input.
 */
static void
timeline_draws_frames_inputs_and_blocks(void **state)
{
	struct svg_tl_frame fr[] = { { 0, 8, 0 }, { 16.7, 40, 1 },
		{ 33.3, 9, -1 } };
	struct svg_tl_input in[] = { { 5, "fling up 100ms" } };
	struct svg_tl_block bl[] = { { 10, 300, "<b>Foo.bar</b>", true, 2 },
		{ 400, NAN, "perf UI BLOCK", false, -1 } };
	struct svg_tl t = { "a & b", 500, 16.6667, fr, 3, in, 1, bl, 2 };
	char *svg = svg_timeline(&t), *again = svg_timeline(&t);
	struct svg_tl none = { NULL, 0, 0, NULL, 0, NULL, 0, NULL, 0 };
	char *empty = svg_timeline(&none);

	assert_string_equal(svg, again);
	assert_non_null(strstr(svg, "<title>a &amp; b</title>"));
	assert_non_null(strstr(svg, "role=\"img\""));
	assert_non_null(strstr(svg, "<title>frame at 16.7 ms: 40 ms, janky"
	    "</title>"));
	/* issue 48: frames are marks of one width, janky ones also ticked
	 * under the lane; no translucent bands to run into a wash */
	assert_non_null(strstr(svg, "width=\"2\" height=\"4\" fill=\"#c53030\""));
	assert_int_equal(count(svg, "width=\"2\" height=\"4\""), 1);
	assert_null(strstr(svg, "fill-opacity"));
	assert_non_null(strstr(svg, "<title>fling up 100ms at 5 ms</title>"));
	assert_non_null(strstr(svg, "&lt;b&gt;Foo.bar&lt;/b&gt;: 300 ms from "
	    "10 ms, overlapped 2 janky frames"));
	assert_non_null(strstr(svg, "perf UI BLOCK: at 400 ms</title>"));
	assert_null(strstr(svg, "<b>"));
	assert_null(strstr(svg, " id="));
	assert_non_null(strstr(empty, "no frames, inputs or blocks"));
	free(svg);
	free(again);
	free(empty);
}

/*
 * A trace beside the comparison (KEY/traces/<scenario>.perfetto-trace)
 * is linked relative to the report's directory, which need not exist
 * yet; without the file there is no link.
 */
static void
trace_is_linked_relative_to_the_report(void **state)
{
	char *dir = xasprintf("%s/view-trace", unit_tmpdir());
	char *key = xasprintf("%s/out/pixel-7", dir);
	char *cmp = xasprintf("%s/comparison.json", key);
	char *traces = xasprintf("%s/traces", key);
	char *trace = xasprintf("%s/feed.perfetto-trace", traces);
	char *report = xasprintf("%s/out/report", dir);
	struct comparison *c = comparison();
	struct view_input in = { c, cmp, NULL, NULL, 0, NULL, 0, NULL };
	struct view_opts o = { .charts = 1, .report_dir = report };
	struct view *v;
	char *json;
	cJSON *m;

	v = view_build(&in, 1, &o);
	json = view_to_json(v);
	assert_null(strstr(json, "perfetto-trace"));
	free(json);
	view_free(v);
	assert_int_equal(file_mkdirs(traces, 0755), 0);
	assert_int_equal(file_write_atomic(trace, "\n", 1, 0644), 0);
	v = view_build(&in, 1, &o);
	json = view_to_json(v);
	m = cJSON_Parse(json);
	assert_string_equal(str(m, "devices.0.scenarios.0.trace.href"),
	    "../pixel-7/traces/feed.perfetto-trace");
	assert_string_equal(str(m, "devices.0.scenarios.0.trace.file"),
	    "feed.perfetto-trace");
	cJSON_Delete(m);
	free(json);
	view_free(v);
	comparison_free(c);
	free(dir);
	free(key);
	free(cmp);
	free(traces);
	free(trace);
	free(report);
}

/*
 * A regressed scene with current results gets its worst iteration's
 * timeline (and the baseline's when at hand); a scene that passed gets
 * none.
 */
static void
regressed_scene_gets_timelines(void **state)
{
	struct comparison *c = comparison();
	struct results *cur = results_new(), *base = results_new();
	struct results *bases[] = { base };
	struct view_input in = { c, "c.json", cur, bases, 1, NULL, 0, NULL };
	cJSON *m;

	fill(comparison_add_entry(c), c, "frame_p90_ms", CMP_REGRESSION, 3);
	for (int k = 0; k < 2; k++) {
		struct results *r = k ? base : cur;

		r->device.refresh_hz = 60;
		for (int i = 0; i < 3; i++) {
			struct rs_iteration *it = rs_scenario_add_iteration(
			    r->nr_scenarios ? &r->scenarios[0] :
			    results_add_scenario(r, "feed"), false);
			struct rs_scene *sc;
			struct rs_frame_row *row;

			it->ok = true;
			it->index = i;
			sc = rs_iteration_add_scene(it, "list");
			sc->start_mono_ms = 1000;
			sc->end_mono_ms = 2000;
			sc->frames.present = true;
			sc->frames.count = 1;
			sc->frames.p90_ms = 10 + i + 3 * !k;
			row = rs_frames_add_row(&sc->frames);
			row->intended_vsync_ns = 1100000000;
			row->frame_completed_ns = 1110000000;
			row->duration_ms = 10;
			row->janky = 0;
			rs_scene_add_input(sc, 1050, "fling up");
		}
	}
	m = model(&in);
	assert_int_equal(cJSON_GetArraySize(at(m, "devices.0.scenarios.0."
	    "scenes.0.timelines")), 2);
	assert_string_equal(str(m, "devices.0.scenarios.0.scenes.0.timelines.0."
	    "side"), "current");
	assert_non_null(strstr(str(m, "devices.0.scenarios.0.scenes.0."
	    "timelines.0.caption"), "iteration 2, the worst by frame_p90_ms "
	    "(15 ms)"));
	assert_non_null(strstr(str(m, "devices.0.scenarios.0.scenes.0."
	    "timelines.1.caption"), "Baseline, iteration 2"));
	assert_non_null(strstr(str(m, "devices.0.scenarios.0.scenes.0."
	    "timelines.0.svg"), "<svg"));
	cJSON_Delete(m);
	comparison_free(c);
	results_free(cur);
	results_free(base);
}


/*
 * Issue 48: where the scene has a new block, the timeline shows the
 * iteration where it overlapped the most janky frames (here 1), not the
 * worst by the regressed metric (2, where the block overlapped none), so
 * the chart shows what the block table says.
 */
static void
timeline_shows_where_the_new_block_overlapped_jank(void **state)
{
	struct comparison *c = comparison();
	struct results *cur = results_new();
	struct view_input in = { c, "c.json", cur, NULL, 0, NULL, 0, NULL };
	struct cmp_block *k = comparison_add_block(c);
	cJSON *m;

	fill(comparison_add_entry(c), c, "frame_p90_ms", CMP_REGRESSION, 3);
	k->device = xstrdup("pixel-7");
	k->scenario = xstrdup("feed");
	k->scene = xstrdup("list");
	k->signature = xstrdup("0123456789abcdef");
	k->status = CMP_BLOCK_NEW;
	k->verdict = CMP_REGRESSION;
	k->cur.janky_frames = 1;
	/* a worse block listed first in the table, no regression: not the
	 * headline */
	k = comparison_add_block(c);
	k->device = xstrdup("pixel-7");
	k->scenario = xstrdup("feed");
	k->scene = xstrdup("list");
	k->signature = xstrdup("fedcba9876543210");
	k->status = CMP_BLOCK_WORSE;
	k->verdict = CMP_PASS;
	cur->device.refresh_hz = 60;
	for (int i = 0; i < 3; i++) {
		struct rs_iteration *it = rs_scenario_add_iteration(
		    cur->nr_scenarios ? &cur->scenarios[0] :
		    results_add_scenario(cur, "feed"), false);
		struct rs_scene *sc;
		struct rs_block *b;

		it->ok = true;
		it->index = i;
		sc = rs_iteration_add_scene(it, "list");
		sc->start_mono_ms = 1000;
		sc->end_mono_ms = 2000;
		sc->frames.present = true;
		sc->frames.count = 2;
		sc->frames.p90_ms = 10 + i;
		for (int f = 0; f < 2; f++) {
			struct rs_frame_row *row = rs_frames_add_row(
			    &sc->frames);

			row->intended_vsync_ns = 1100000000LL + f * 400000000LL;
			row->frame_completed_ns = row->intended_vsync_ns +
			    40000000LL;
			row->duration_ms = 40;
			/* iteration 1's second frame is janky */
			row->janky = i == 1 && f == 1;
		}
		b = rs_scene_add_block(sc, "blockcanary");
		b->start_mono_ms = 1490;
		b->wall_ms = 100;
		rs_str_set(&b->signature, "0123456789abcdef");
		/* the worse one overlaps iteration 2's frames only */
		b = rs_scene_add_block(sc, "blockcanary");
		b->start_mono_ms = 1090;
		b->wall_ms = 100;
		rs_str_set(&b->signature, "fedcba9876543210");
		if (i == 2)
			sc->frames.rows[0].janky = 1;
	}
	m = model(&in);
	assert_non_null(strstr(str(m, "devices.0.scenarios.0.scenes.0."
	    "timelines.0.caption"), "Current run, iteration 1, where the new "
	    "block overlapped the most janky frames (1)"));
	cJSON_Delete(m);
	comparison_free(c);
	results_free(cur);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(frame_rows_name_the_phase_that_moved),
	cmocka_unit_test(blocks_headline_their_app_frame),
	cmocka_unit_test(jank_types_and_methods),
	cmocka_unit_test(timeline_draws_frames_inputs_and_blocks),
	cmocka_unit_test(trace_is_linked_relative_to_the_report),
	cmocka_unit_test(regressed_scene_gets_timelines),
	cmocka_unit_test(timeline_shows_where_the_new_block_overlapped_jank),
};

JG_UNIT_GROUP(view_explain, tests, NULL, NULL)
