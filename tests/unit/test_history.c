/*
 * test_history.c: metric series over baseline runs, for trend charts.
 */
#include <math.h>
#include <string.h>

#include "unit.h"
#include "history.h"
#include "metrics.h"
#include "results.h"

/* A run whose "feed" scene has one fps value per measured iteration. */
static struct results *
run_with(const char *id, const double *counts, size_t n, int warmup_value)
{
	struct results *r = results_new();
	struct rs_scenario *s = results_add_scenario(r, "shop");
	struct rs_iteration *it;
	struct rs_scene *sc;

	rs_str_set(&r->run.id, id);
	it = rs_scenario_add_iteration(s, true);	/* a warm-up */
	sc = rs_iteration_add_scene(it, "feed");
	sc->fps.value = warmup_value;
	for (size_t i = 0; i < n; i++) {
		it = rs_scenario_add_iteration(s, false);
		it->ok = true;
		sc = rs_iteration_add_scene(it, "feed");
		sc->fps.value = counts[i];
	}
	return r;
}

/*
 * Points are oldest first, one per run, each the median of that run's
 * measured iterations (warm-ups ignored); run ids follow the points.
 */
static void
series_is_oldest_first_median_per_run(void **state)
{
	static const double old[] = { 100, 110, 90 }, mid[] = { 200, 220 },
	    newest[] = { 300, 300, 330, 280 };
	struct results *runs[3];
	struct metric_series *s, *found = NULL;
	size_t nr;

	/* newest first, as the baseline store returns them */
	runs[0] = run_with("r3", newest, 4, 9999);
	runs[1] = run_with("r2", mid, 2, 9999);
	runs[2] = run_with("r1", old, 3, 9999);
	history_series(&s, &nr, runs, 3);
	for (size_t i = 0; i < nr; i++) {
		assert_string_equal(s[i].scenario, "shop");
		if (s[i].metric == metric_find("fps"))
			found = &s[i];
		/* only fps has data: no all-NAN series is kept */
		else if (s[i].metric != metric_find("blocks") &&
		    s[i].metric != metric_find("block_ms"))
			fail_msg("series for %s has no data", s[i].metric->name);
	}
	assert_non_null(found);
	assert_string_equal(found->scene, "feed");
	assert_int_equal(found->nr, 3);
	assert_string_equal(found->run_ids[0], "r1");
	assert_string_equal(found->run_ids[1], "r2");
	assert_string_equal(found->run_ids[2], "r3");
	assert_true(fabs(found->values[0] - 100) < 1e-9);
	assert_true(fabs(found->values[1] - 210) < 1e-9);
	assert_true(fabs(found->values[2] - 300) < 1e-9);
	history_series_free(s, nr);
	for (int i = 0; i < 3; i++)
		results_free(runs[i]);
}

/* A run that lacks the scenario leaves a NAN gap, not a zero. */
static void
missing_run_is_a_gap(void **state)
{
	static const double a[] = { 10, 12, 11 };
	struct results *runs[2];
	struct metric_series *s;
	size_t nr, with_gap = 0;

	runs[0] = run_with("new", a, 3, 0);
	runs[1] = results_new();	/* an old run with no scenarios */
	rs_str_set(&runs[1]->run.id, "old");
	history_series(&s, &nr, runs, 2);
	assert_true(nr > 0);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(s[i].nr, 2);
		assert_true(isnan(s[i].values[0]));
		assert_false(isnan(s[i].values[1]));
		with_gap++;
	}
	assert_int_equal(with_gap, nr);
	history_series_free(s, nr);
	results_free(runs[0]);
	results_free(runs[1]);
}

/* No runs, no series; freeing NULL is fine. */
static void
no_runs_no_series(void **state)
{
	struct metric_series *s;
	size_t nr;

	history_series(&s, &nr, NULL, 0);
	assert_int_equal(nr, 0);
	history_series_free(s, nr);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(series_is_oldest_first_median_per_run),
	cmocka_unit_test(missing_run_is_a_gap),
	cmocka_unit_test(no_runs_no_series),
};
JG_UNIT_GROUP(history, tests, NULL, NULL)
