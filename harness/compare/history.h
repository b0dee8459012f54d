/*
 * history.h: the series of each metric over a baseline's last N runs.
 *
 * Reports draw trend sparklines: for every (scenario, scene, metric), one
 * point per accepted run, oldest first.  A run's point is the median of its
 * valid iterations (warm-ups and failed iterations left out), the same
 * per-iteration values compare uses; a run where the metric is absent has
 * no point (NAN), so gaps show as gaps rather than as zeros.
 */
#ifndef JG_HISTORY_H
#define JG_HISTORY_H

#include <stddef.h>

struct results;
struct metric_def;

struct metric_series {
	char *scenario;
	char *scene;			/* NULL: a scenario-level metric */
	const struct metric_def *metric;
	size_t nr;			/* one point per run */
	double *values;			/* oldest first; NAN: no value */
	const char **run_ids;		/* borrowed from the runs */
};

/*
 * Build every series over `runs[0..nr_runs)`, given NEWEST FIRST as the
 * baseline store returns them.  Series appear in first-seen order; a
 * series whose every point is NAN is left out.  *out is freed with
 * history_series_free(); it borrows run ids from `runs`, which must
 * outlive it.  Nothing here fails.
 */
void history_series(struct metric_series **out, size_t *nr,
    struct results *const *runs, size_t nr_runs);

/* Free the series and the array; NULL is a no-op. */
void history_series_free(struct metric_series *s, size_t nr);

#endif
