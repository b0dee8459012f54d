/*
 * test_compare_explain.c: what issue 20 added to compare: explain metrics
 * tested but kept out of the family and the verdict, the janky frames a
 * block overlapped, methods compared by name, and their comparison.json.
 */
#include <math.h>
#include <string.h>

#include "unit.h"
#include "compare.h"
#include "metrics.h"
#include "results.h"
#include "strlist.h"

#define KEY "google-pixel-7-api34-60hz"

static struct results *
run_new(const char *id)
{
	struct results *r = results_new();

	rs_str_set(&r->run.id, id);
	rs_str_set(&r->app.package, "com.example.feed");
	strlist_add(&r->app.sources, "gfxinfo");
	rs_str_set(&r->device.key, KEY);
	r->device.refresh_hz = 60;
	return r;
}

/* A valid iteration of feed/list with frame_p90_ms `p90`. */
static struct rs_scene *
add_iteration(struct results *r, double p90)
{
	struct rs_scenario *s = results_find_scenario(r, "feed");
	struct rs_iteration *it;
	struct rs_scene *sc;

	if (!s)
		s = results_add_scenario(r, "feed");
	it = rs_scenario_add_iteration(s, false);
	it->ok = true;
	sc = rs_iteration_add_scene(it, "list");
	sc->frames.present = true;
	sc->frames.count = 100;
	sc->frames.p90_ms = p90;
	return sc;
}

static void
set_layout(struct rs_scene *sc, double p90)
{
	sc->phases.present = true;
	sc->phases.frames = 100;
	sc->phases.p50_ms[RS_PHASE_LAYOUT] = p90 / 2;
	sc->phases.p90_ms[RS_PHASE_LAYOUT] = p90;
	sc->phases.p50_ms[RS_PHASE_DRAW] = 1.5;
	sc->phases.p90_ms[RS_PHASE_DRAW] = 2.0;
}

/* frame_p90 12-ish on both sides (p90s[] + shift); phases if `phases`. */
static void
fill(struct results *base, struct results *cur, double shift, bool phases,
    double layout_shift)
{
	static const double p90[] = { 12, 13, 12, 12, 13, 12, 12, 13 };

	for (size_t i = 0; i < sizeof(p90) / sizeof(*p90); i++) {
		struct rs_scene *b = add_iteration(base, p90[i]);
		struct rs_scene *c = add_iteration(cur, p90[i] + shift);

		if (phases) {
			set_layout(b, 2 + 0.05 * (double)i);
			set_layout(c, 2 + 0.05 * (double)i + layout_shift);
		}
	}
}

static struct comparison *
compare(const struct results *cur, const struct results *base)
{
	struct compare_input in_cur = { cur, "cur.json" };
	struct compare_input in_base = { base, "base.json" };
	struct comparison *c = NULL;
	struct compare_opts o;

	compare_opts_init(&o, NULL);
	assert_int_equal(compare_run(&c, &in_cur, &in_base, 1, &o), 0);
	return c;
}

/*
 * A layout phase 3 ms slower while the frame times hold: the explain
 * entry says the phase regressed, yet it is not an entry, not counted,
 * not in the family, and the run passes.
 */
static void
explain_metrics_never_decide(void **state)
{
	struct results *b = run_new("b"), *r = run_new("r");
	struct comparison *c;
	const struct cmp_entry *e;
	size_t counts[CMP_NR_VERDICTS];

	fill(b, r, 0, true, 3);
	c = compare(r, b);
	for (size_t i = 0; i < c->nr_entries; i++)
		assert_false(metric_find(c->entries[i].metric)->explain);
	e = comparison_find_explain(c, "feed", "list", "phase_layout_p90_ms");
	assert_non_null(e);
	assert_int_equal(e->verdict, CMP_REGRESSION);
	assert_true(e->shift > 2.5 && e->shift < 3.5);
	assert_true(e->tested);
	assert_true(c->explain_tests >= 1);
	assert_null(comparison_find_entry(c, "feed", "list",
	    "phase_layout_p90_ms"));
	comparison_count(c, counts);
	assert_int_equal(counts[CMP_REGRESSION], 0);
	assert_int_equal(comparison_verdict(c), CMP_PASS);
	comparison_free(c);
	results_free(b);
	results_free(r);
}

/*
 * The same runs with and without phases: every entry, the family's
 * size and each kind's session spread come out the same to the bit, so
 * explanations cannot move a verdict (nor bench_compare's figures).
 */
static void
explanations_leave_entries_unchanged(void **state)
{
	struct results *b1 = run_new("b"), *r1 = run_new("r");
	struct results *b2 = run_new("b"), *r2 = run_new("r");
	struct comparison *with, *without;

	fill(b1, r1, 2, true, 1.5);
	fill(b2, r2, 2, false, 0);
	with = compare(r1, b1);
	without = compare(r2, b2);
	assert_true(with->nr_explains > 0);
	assert_int_equal(without->nr_explains, 0);
	assert_int_equal(with->tests, without->tests);
	assert_int_equal(with->nr_entries, without->nr_entries);
	for (size_t i = 0; i < with->nr_entries; i++) {
		const struct cmp_entry *x = &with->entries[i];
		const struct cmp_entry *y = &without->entries[i];

		assert_string_equal(x->metric, y->metric);
		assert_int_equal(x->verdict, y->verdict);
		assert_memory_equal(&x->p_value, &y->p_value, sizeof(double));
		assert_memory_equal(&x->p_adjusted, &y->p_adjusted,
		    sizeof(double));
		assert_memory_equal(&x->shift, &y->shift, sizeof(double));
		assert_memory_equal(&x->sd_session, &y->sd_session,
		    sizeof(double));
		assert_memory_equal(&x->detectable, &y->detectable,
		    sizeof(double));
	}
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		assert_memory_equal(&with->kinds[k].used,
		    &without->kinds[k].used, sizeof(double));
	assert_int_equal(comparison_verdict(with),
	    comparison_verdict(without));
	comparison_free(with);
	comparison_free(without);
	results_free(b1);
	results_free(r1);
	results_free(b2);
	results_free(r2);
}

/* Rows every 16.7 ms from 1000 ms, janky where `janky` says. */
static void
add_rows(struct rs_scene *sc, const int *janky, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rs_frame_row *row = rs_frames_add_row(&sc->frames);

		row->intended_vsync_ns = 1000000000LL + (int64_t)i * 16666666;
		row->frame_completed_ns = row->intended_vsync_ns +
		    (janky[i] ? 40000000 : 8000000);
		row->duration_ms = janky[i] ? 40 : 8;
		row->janky = janky[i];
	}
}

static struct rs_block *
add_block(struct rs_scene *sc, double start, double wall)
{
	struct rs_block *b = rs_scene_add_block(sc, "blockcanary");

	rs_str_set(&b->signature, "stall");
	b->start_mono_ms = start;
	b->wall_ms = wall;
	strlist_add(&b->stack, "java.math.BigDecimal.divide");
	strlist_add(&b->stack, "com.example.feed.Price.apply");
	return b;
}

/*
 * A block counts the janky frames it overlapped; one outside the rows'
 * time (PROFILEDATA kept only the scene's end) is unknown, not zero.
 */
static void
blocks_count_the_janky_frames_they_overlapped(void **state)
{
	static const int janky[] = { 0, 0, 1, 1, 1, 0, 0, 1, 0, 0 };
	struct results *b = run_new("b"), *r = run_new("r");
	struct comparison *c;

	for (int i = 0; i < 3; i++) {
		struct rs_scene *sc = add_iteration(r, 12);

		add_rows(sc, janky, 10);
		/* 1030..1080 ms: frames 2, 3 and 4 (janky) and 1, 5. */
		add_block(sc, 1030, 50);
		add_iteration(b, 12);
	}
	/* Before every row: unknown. */
	add_block(&r->scenarios[0].iterations[0].scenes[0], 100, 50);
	c = compare(r, b);
	assert_int_equal(c->nr_blocks, 1);
	assert_int_equal(c->blocks[0].status, CMP_BLOCK_NEW);
	assert_true(c->blocks[0].cur.count == 4);
	assert_true(c->blocks[0].cur.frames_seen == 3);
	assert_true(c->blocks[0].cur.janky_frames == 9);
	assert_true(isnan(c->blocks[0].base.janky_frames));
	comparison_free(c);
	results_free(b);
	results_free(r);
}

static const struct cmp_method *
method(const struct comparison *c, const char *name)
{
	for (size_t i = 0; i < c->nr_methods; i++)
		if (!strcmp(c->methods[i].name, name))
			return &c->methods[i];
	return NULL;
}

/*
 * MethodTraceMan costs and Matrix evil methods by name: new, slower by
 * time or by count, resolved; unchanged ones are not written.  A Matrix
 * evil method is named by its application frame.
 */
static void
methods_compared_by_name(void **state)
{
	struct results *b = run_new("b"), *r = run_new("r");
	struct comparison *c;
	const struct cmp_method *m;

	for (int i = 0; i < 4; i++) {
		struct rs_scene *sb = add_iteration(b, 12);
		struct rs_scene *sr = add_iteration(r, 12);
		struct rs_block *ev;

		rs_scene_add_method(sb, "traceman", "A.same")->cost_ms = 10;
		rs_scene_add_method(sr, "traceman", "A.same")->cost_ms = 11;
		rs_scene_add_method(sb, "traceman", "A.slow")->cost_ms = 10;
		rs_scene_add_method(sr, "traceman", "A.slow")->cost_ms = 30;
		rs_scene_add_method(sb, "traceman", "A.gone")->cost_ms = 5;
		rs_scene_add_method(sr, "traceman", "A.fresh")->cost_ms = 7;
		rs_scene_add_method(sb, "traceman", "A.often")->cost_ms = 2;
		for (int k = 0; k < 3; k++)
			rs_scene_add_method(sr, "traceman", "A.often")->
			    cost_ms = 2;
		ev = rs_scene_add_block(sr, "matrix");
		ev->wall_ms = 800;
		strlist_add(&ev->stack, "java.lang.Thread.sleep(Native)");
		strlist_add(&ev->stack,
		    "com.example.feed.Price.apply(Price.java:12)");
	}
	c = compare(r, b);
	assert_null(method(c, "A.same"));
	assert_int_equal(method(c, "A.slow")->status, CMP_BLOCK_WORSE);
	assert_true(method(c, "A.slow")->cur.wall_ms == 30);
	assert_int_equal(method(c, "A.often")->status, CMP_BLOCK_WORSE);
	assert_true(method(c, "A.often")->cur.per_iteration == 3);
	assert_int_equal(method(c, "A.gone")->status, CMP_BLOCK_RESOLVED);
	assert_int_equal(method(c, "A.fresh")->status, CMP_BLOCK_NEW);
	m = method(c, "com.example.feed.Price.apply");
	assert_non_null(m);
	assert_string_equal(m->source, "matrix");
	assert_int_equal(m->status, CMP_BLOCK_NEW);
	assert_string_equal(m->scene, "list");
	comparison_free(c);
	results_free(b);
	results_free(r);
}

/* Explains, methods and the janky counts read back as written. */
static void
json_round_trip_of_explanations(void **state)
{
	static const int janky[] = { 1, 1, 0 };
	struct results *b = run_new("b"), *r = run_new("r");
	struct comparison *c, *back = NULL;
	char *one, *two;

	fill(b, r, 0, true, 3);
	for (size_t i = 0; i < r->scenarios[0].nr_iterations; i++) {
		struct rs_scene *sc = &r->scenarios[0].iterations[i].scenes[0];

		add_rows(sc, janky, 3);
		add_block(sc, 1000, 20);
		rs_scene_add_method(sc, "traceman", "A.b")->cost_ms = 3;
	}
	c = compare(r, b);
	one = comparison_to_json(c);
	assert_int_equal(comparison_parse(&back, one, strlen(one), "c.json"),
	    0);
	two = comparison_to_json(back);
	assert_string_equal(one, two);
	assert_int_equal(back->nr_explains, c->nr_explains);
	assert_int_equal(back->explain_tests, c->explain_tests);
	assert_int_equal(back->nr_methods, 1);
	assert_true(back->blocks[0].cur.janky_frames ==
	    c->blocks[0].cur.janky_frames);
	assert_true(back->blocks[0].cur.janky_frames > 0);
	assert_non_null(comparison_find_explain(back, "feed", "list",
	    "phase_layout_p90_ms"));
	free(one);
	free(two);
	comparison_free(c);
	comparison_free(back);
	results_free(b);
	results_free(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(explain_metrics_never_decide),
	cmocka_unit_test(explanations_leave_entries_unchanged),
	cmocka_unit_test(blocks_count_the_janky_frames_they_overlapped),
	cmocka_unit_test(methods_compared_by_name),
	cmocka_unit_test(json_round_trip_of_explanations),
};

JG_UNIT_GROUP(compare_explain, tests, NULL, NULL)
