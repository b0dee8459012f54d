/*
 * history.c: per-metric series over baseline runs (see history.h).
 *
 * The runs arrive newest first; points are stored oldest first because a
 * chart reads left to right in time.  The work is runs x scenarios x
 * scenes x metrics x iterations, a few hundred thousand values for a large
 * suite, so plain arrays and linear lookups are enough.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "metrics.h"
#include "results.h"
#include "stats.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* The median of metric `m` over the valid iterations of `s`, or NAN. */
static double
run_point(const struct rs_scenario *s, const char *scene,
    const struct metric_def *m)
{
	double *v = xcalloc(s->nr_iterations + 1, sizeof(*v)), med = NAN;
	size_t n = 0;

	for (size_t i = 0; i < s->nr_iterations; i++) {
		const struct rs_iteration *it = &s->iterations[i];
		const struct rs_scene *sc;
		double x;

		if (it->warmup || !it->ok)
			continue;
		if (!scene) {
			if (!metric_iteration_value(m, it, &x))
				v[n++] = x;
			continue;
		}
		sc = rs_iteration_find_scene(it, scene);
		if (sc && !metric_scene_value(m, sc, &x))
			v[n++] = x;
	}
	if (n)
		stats_quantile(&med, v, n, 0.5);
	free(v);
	return med;
}

static struct metric_series *
add_series(struct metric_series **out, size_t *nr, size_t *alloc,
    const char *scenario, const char *scene, const struct metric_def *m,
    size_t nr_runs)
{
	struct metric_series *s;

	XALLOC_GROW(*out, *nr + 1, *alloc);
	s = &(*out)[(*nr)++];
	s->scenario = xstrdup(scenario);
	s->scene = scene ? xstrdup(scene) : NULL;
	s->metric = m;
	s->nr = nr_runs;
	s->values = xcalloc(nr_runs ? nr_runs : 1, sizeof(*s->values));
	s->run_ids = xcalloc(nr_runs ? nr_runs : 1, sizeof(*s->run_ids));
	return s;
}

static void
release_one(struct metric_series *s)
{
	free(s->scenario);
	free(s->scene);
	free(s->values);
	free(s->run_ids);
}

static int
all_nan(const struct metric_series *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!isnan(s->values[i]))
			return 0;
	return 1;
}

/* Scenario names across all runs, in first-seen order, newest run first. */
static void
scenario_names(struct strlist *out, struct results *const *runs, size_t nr)
{
	for (size_t r = 0; r < nr; r++)
		for (size_t i = 0; i < runs[r]->nr_scenarios; i++)
			if (strlist_find(out, runs[r]->scenarios[i].name) < 0)
				strlist_add(out, runs[r]->scenarios[i].name);
}

void
history_series(struct metric_series **out, size_t *nr,
    struct results *const *runs, size_t nr_runs)
{
	struct strlist scenarios = STRLIST_INIT;
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	scenario_names(&scenarios, runs, nr_runs);
	for (size_t si = 0; si < scenarios.nr; si++) {
		const char *name = scenarios.items[si];
		struct strlist scenes = STRLIST_INIT;

		for (size_t r = 0; r < nr_runs; r++) {
			const struct rs_scenario *s =
			    results_find_scenario(runs[r], name);

			if (s)
				rs_scenario_scene_names(s, &scenes);
		}
		/* index scenes.nr stands for the scenario level */
		for (size_t sc = 0; sc <= scenes.nr; sc++) {
			const char *scene = sc < scenes.nr ?
			    scenes.items[sc] : NULL;

			for (size_t mi = 0; mi < metric_count(); mi++) {
				const struct metric_def *m = metric_at(mi);
				struct metric_series *ser;

				if ((m->scope == METRIC_SCENE) != (scene != NULL))
					continue;
				/* No trend line is drawn for explanations. */
				if (m->explain)
					continue;
				ser = add_series(out, nr, &alloc, name, scene, m,
				    nr_runs);
				for (size_t r = 0; r < nr_runs; r++) {
					const struct rs_scenario *s =
					    results_find_scenario(runs[r], name);
					size_t at = nr_runs - 1 - r;

					ser->run_ids[at] = runs[r]->run.id;
					ser->values[at] = s ?
					    run_point(s, scene, m) : NAN;
				}
				if (all_nan(ser)) {
					release_one(ser);
					(*nr)--;
				}
			}
		}
		strlist_release(&scenes);
	}
	strlist_release(&scenarios);
}

void
history_series_free(struct metric_series *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		release_one(&s[i]);
	free(s);
}
