/*
 * compare_int.h: what the files of compare share, private to them.
 *
 *   compare.c          samples, entries, scenarios, the run's passes
 *   compare_session.c  the session model: spread per kind, the t test,
 *                      the trend line's step finder
 *   compare_verdict.c  the verdict of one entry, a look's alpha
 *
 * compare.c gathers every entry's values with the session each came from,
 * lets compare_session.c estimate how much a session moves each kind of
 * metric from the baseline's sessions, tests every entry under that model,
 * and decides entries in a last pass, once the correction has seen every
 * p-value of the run; each entry that reached the statistics is queued as
 * a cmp_pending, and cmp_decide() turns it into the verdict of compare.h
 * step 5 under the look's cmp_rules.
 */
#ifndef JG_COMPARE_INT_H
#define JG_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

/* The values of one side of one entry, each with where it came from. */
struct cmp_sample {
	double *v;		/* per iteration, in the metric's unit */
	int *run;		/* the baseline input it came from; -1: the
				   current run */
	int *sess;		/* its session in that run */
	size_t n, alloc;
	size_t dropped;		/* values that were not finite */
};

void cmp_sample_add(struct cmp_sample *s, double v, int run, int sess);
void cmp_sample_release(struct cmp_sample *s);

/* An entry that reached the statistics, decided after adjustment. */
struct cmp_pending {
	size_t entry;		/* index in comparison.entries, or in
				   .explains when `explain` */
	bool explain;		/* an explain metric (compare_explain.c) */
	const struct metric_def *metric;
	struct cmp_sample b, cu;	/* owned until the run is decided */
	bool degenerate;	/* every value equal: not in the family */
	bool untestable;	/* no spread within any session */
	double se, df;		/* the test's, on its scale */
	double p_worse_raw, p_better_raw;	/* one-sided t tests */
	double p_worse, p_better;		/* the same, adjusted */
	bool trend;		/* in the trend test's family */
	double trend_p_raw, trend_p;		/* the worse way */
	/* The metric's own between-session variance in the baseline
	 * (cmp_kind_add), on the test's scale, and its sessions. */
	double vb_own;
	size_t s_own;
	double msb_own, msw_own, n0_own;	/* its mean squares */
	size_t values_own;
	double sd_base;		/* the baseline's within-run sd, in unit */
};

/* What the verdict needs to know about the look. */
struct cmp_rules {
	double alpha;		/* this look's share for the main test */
	double alpha_run;	/* all looks' */
	enum stats_adjust how;	/* named in reasons */
	bool last;		/* no more iterations will follow */
	bool sequential;	/* the caller takes more than one look */
};

/*
 * Set e->verdict, e->reason, e->p_value and e->p_adjusted (the direction
 * the shift points to) from `p` under `r`, by the table of compare.h step
 * 5.  The entry's shift, interval and threshold must be set.
 */
void cmp_decide(struct cmp_entry *e, const struct cmp_pending *p,
    const struct cmp_rules *r);

/* ---- compare_session.c -------------------------------------------------- */

/* Sums over one kind's entries for its between-session spread. */
struct cmp_kind_acc {
	double sum;		/* times: between-session variances; other
				   kinds: between-session variances ... */
	double sum_within;	/* ... and within-session ones, for a ratio */
	size_t entries;
	size_t sessions;	/* the most baseline sessions of an entry */
};

/*
 * The one-way analysis of variance of p->b's sessions (the baseline):
 * kept in p (vb_own, s_own) and added to the accumulator of its metric's
 * kind.  Entries with fewer than two sessions, or no spread within them,
 * add nothing.
 */
void cmp_kind_add(struct cmp_kind_acc *acc, struct cmp_pending *p);

/*
 * The spread of one kind from its accumulator and its prior (weight
 * `prior_runs`, in runs): the estimate, and what the tests use.
 */
void cmp_kind_finish(struct cmp_session_kind *out,
    const struct cmp_kind_acc *acc, enum metric_kind kind, double prior,
    double prior_runs);

/* The test of one entry under the session model. */
struct cmp_model {
	double d, se, df;	/* cur - base on the test's scale; df
				   INFINITY for the rank test */
	double p_greater, p_less;	/* one-sided: cur larger, smaller */
	double shift, lo, hi;	/* cur - base in unit, at ci_level */
	double sd_within, sd_session;
	double deff;		/* the design effect of the sessions */
	size_t sessions_base, sessions_cur;
	bool log_scale;
	bool rank;		/* the rank test decided (else the t test) */
	bool untestable;	/* no spread within any session */
};

struct cmp_test_opts {
	double ci_level;	/* the interval's confidence */
	double level;		/* what a lone change is tested at */
	double prior_runs;	/* weight of the kind's spread against a
				   metric's own sessions */
};

/*
 * Test p->cu against p->b (only the baseline runs with anchor[run] set
 * when `anchor` is not NULL) under the kind's spread `sk`, tonight's values
 * first taken back by `offset` on the test's scale (the kind's trend; 0:
 * none).  `center` is the baseline median in unit.
 */
void cmp_model_test(struct cmp_model *out, const struct cmp_pending *p,
    const struct cmp_session_kind *sk, double center, const bool *anchor,
    double offset, const struct cmp_test_opts *o);

/*
 * The smallest worse shift (in unit, positive) that model `m` would call
 * significant at one-sided level `alpha`.
 */
double cmp_model_detectable(const struct cmp_model *m, double center,
    bool higher_is_better, double alpha);

/*
 * Where the series of run means stepped: the values of p (baseline runs
 * in the chronological order `order[0..nr)`, oldest first, then the
 * current run) split in two where the worse-way difference of the two
 * sides' means, in units of its standard error, is largest.  Returns the
 * position in `order` of the first run after the step (nr: tonight's),
 * or -1 when the series is too short; *by gets the step in unit, worse
 * positive.
 */
int cmp_step_find(double *by, const struct cmp_pending *p, const int *order,
    size_t nr, bool higher_is_better);

#endif
