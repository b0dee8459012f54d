/*
 * compare_pass.c: the run's passes over the entries that reached the
 * statistics (docs/method.md, steps 4 to 7; compare_int.h): the spread a session
 * adds, estimated per kind of metric from every entry's baseline; each
 * entry's test under that model (and against the window's oldest runs);
 * the correction over the run's p-values; and the decision of each entry.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "metrics.h"
#include "stats.h"
#include "xalloc.h"
#include "banned.h"

/* The entry a pending test is for, in c->entries or c->explains. */
static struct cmp_entry *
pend_entry(const struct cmp_ctx *x, const struct cmp_pending *p)
{
	return p->explain ? &x->c->explains[p->entry] :
	    &x->c->entries[p->entry];
}

/*
 * Pass 1: how much a session moves each kind of metric, from the
 * baseline sessions of every entry, with the configured priors.
 */
void
cmp_estimate_kinds(struct cmp_ctx *x)
{
	struct cmp_kind_acc acc[METRIC_NR_KINDS];
	struct comparison *c = x->c;

	memset(acc, 0, sizeof(acc));
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		acc[k].both = x->o->interleaved;
	cmp_frame_drift_account(x);
	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *p = &x->pend[i];
		enum metric_kind k = p->metric->kind;

		/* Explanations must not move the decisive metrics' model. */
		if (p->degenerate || p->explain)
			continue;
		cmp_kind_add(&acc[k], p);
		cmp_series_add(x, k == METRIC_KIND_FRAME_TIME ? &x->frame_pct :
		    &x->series[k], &p->b, metric_kind_is_log(k),
		    p->metric->dir == METRIC_HIGHER_IS_BETTER, &p->sd_base);
	}
	/* Frame times drift as the scenes' mean frames do (above). */
	if (x->frame_drift.entries) {
		struct cmp_kind_acc *ft = &acc[METRIC_KIND_FRAME_TIME];

		/* ... but how their entries differ is the entries' own. */
		x->frame_drift.own = ft->own;
		*ft = x->frame_drift;
		ft->units = (double)x->off_units;
	} else
		SWAP(x->series[METRIC_KIND_FRAME_TIME], x->frame_pct);
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		cmp_fit_trend(x, &c->kinds[k], &x->series[k]);
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		cmp_kind_finish(&c->kinds[k], &acc[k], (enum metric_kind)k,
		    x->o->session_prior[k], x->o->prior_runs);
	cmp_moderate_within(x->pend, x->nr_pend);
}

/*
 * What the kind's trend predicts tonight stands above the window (or, for
 * the trend test, above its anchor runs), on the test's scale: 0 when the
 * kind has no trend to take off.  The entry's `drift` says it in unit.
 */
static double
drift_offset(struct cmp_ctx *x, const struct cmp_pending *p,
    const struct cmp_session_kind *sk, struct cmp_entry *e, bool anchor)
{
	bool log_kind = metric_kind_is_log(p->metric->kind);
	double from = anchor ? ((double)(x->nr_base / 2) - 1) / 2 :
	    sk->trend_mean_pos, d, off;

	if (!sk->trend_on || !(e->base.median > 0 || !log_kind))
		return 0;
	d = sk->trend * ((double)x->nr_base - from);
	if (log_kind) {
		off = d;
		if (!anchor)
			e->drift = e->base.median * expm1(d);
		return off;
	}
	off = (e->higher_is_better ? -1 : 1) * d * p->sd_base;
	if (!anchor)
		e->drift = d * p->sd_base;
	return off;
}

/* Pass 2: each entry's test, and its trend test. */
void
cmp_test_all(struct cmp_ctx *x)
{
	struct comparison *c = x->c;
	size_t min = (size_t)x->o->min_iterations, family = 0;
	struct cmp_test_opts to, tt;

	for (size_t i = 0; i < x->nr_pend; i++)
		family += !x->pend[i].degenerate && !x->pend[i].explain;
	to.ci_level = tt.ci_level = c->ci_level;
	to.prior_runs = tt.prior_runs = x->o->prior_runs;
	to.speed_vb = tt.speed_vb = isnan(x->speed_vb) ?
	    c->kinds[METRIC_KIND_FRAME_TIME].used *
	    c->kinds[METRIC_KIND_FRAME_TIME].used : x->speed_vb;
	to.speed_vb_left = tt.speed_vb_left =
	    c->kinds[METRIC_KIND_FRAME_TIME].used *
	    c->kinds[METRIC_KIND_FRAME_TIME].used;
	/*
	 * Which test decides is a matter of the sample sizes, never of the
	 * look: the rank test wherever it could reach the comparison's
	 * whole alpha (the t test is for the first nights' small baselines).
	 */
	to.level = c->alpha * c->share / (double)(family ? family : 1);
	tt.level = to.level;

	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *p = &x->pend[i];
		struct cmp_entry *e = pend_entry(x, p);
		const struct cmp_session_kind *sk = &c->kinds[p->metric->kind];
		struct cmp_model m;
		size_t anchored = 0;
		double off;

		p->p_worse_raw = p->p_better_raw = p->p_worse = 1;
		p->p_better = p->trend_p_raw = p->trend_p = p->q_worse = 1;
		if (p->degenerate) {
			e->shift = e->shift_lo = e->shift_hi = 0;
			e->shift_level = 1;
			continue;
		}
		off = drift_offset(x, p, sk, e, false);
		cmp_model_test(&m, p, sk, e->base.median, NULL, off, &to);
		e->log_scale = m.log_scale;
		e->rank_test = m.rank;
		e->deff = m.deff;
		e->sessions_base = (double)m.sessions_base;
		e->sessions_cur = (double)m.sessions_cur;
		if (m.untestable) {
			p->untestable = true;
			continue;
		}
		p->se = m.se;
		p->df = m.df;
		p->p_worse_raw = e->higher_is_better ? m.p_less : m.p_greater;
		p->p_better_raw = e->higher_is_better ? m.p_greater :
		    m.p_less;
		e->shift = m.shift;
		e->shift_lo = m.lo;
		e->shift_hi = m.hi;
		e->shift_level = c->ci_level;
		e->sd_within = m.sd_within;
		e->sd_session = m.sd_session;
		e->spread_from = m.spread_from;
		e->df = m.df;
		e->tested = true;

		/* No trend line for explanations: they never decide. */
		if (!x->anchor || p->explain)
			continue;
		for (size_t k = 0; k < p->b.n; k++)
			anchored += p->b.run[k] >= 0 &&
			    x->anchor[p->b.run[k]];
		if (anchored < min)
			continue;
		cmp_model_test(&m, p, sk, e->base.median, x->anchor,
		    drift_offset(x, p, sk, e, true), &tt);
		if (m.untestable)
			continue;
		p->trend = true;
		p->trend_p_raw = e->higher_is_better ? m.p_less : m.p_greater;
		e->trend.tested = true;
		e->trend.shift = m.shift;
		e->trend.lo = m.lo;
		e->trend.hi = m.hi;
		e->trend.p_value = p->trend_p_raw;
	}
}

bool
cmp_is_primary(const struct compare_opts *o, const struct metric_def *m)
{
	if (m->explain)
		return false;
	if (!o->primary_metrics)
		return m->primary;
	return strlist_find(o->primary_metrics, m->name) >= 0;
}

/* An entry's weight in the correction (compare_opts.primary_weight). */
static double
weight(const struct cmp_ctx *x, const struct cmp_pending *p)
{
	return p->primary && !p->explain ? x->o->primary_weight : 1;
}

/*
 * Adjust `get`'s p-values of the pending entries `want` selects, by `how`
 * (the comparison's correction but for the suspects' q-values).
 */
static int
adjust_by(struct cmp_ctx *x, size_t *tests, double *(*get)(struct cmp_pending *,
    int), bool (*want)(const struct cmp_pending *), enum stats_adjust how)
{
	double *p = xcalloc(x->nr_pend + 1, sizeof(*p));
	double *w = NULL;
	size_t n = 0;
	int rc;

	if (x->o->primary_weight != 1)
		w = xcalloc(x->nr_pend + 1, sizeof(*w));
	for (size_t i = 0; i < x->nr_pend; i++)
		if (want(&x->pend[i])) {
			if (w)
				w[n] = weight(x, &x->pend[i]);
			p[n++] = *get(&x->pend[i], 0);
		}
	rc = stats_p_adjust_weighted(p, p, w, n, how);
	free(w);
	if (tests)
		*tests = n;
	n = 0;
	for (size_t i = 0; !rc && i < x->nr_pend; i++)
		if (want(&x->pend[i]))
			*get(&x->pend[i], 1) = p[n++];
	free(p);
	return rc;
}

static int
adjust(struct cmp_ctx *x, size_t *tests, double *(*get)(struct cmp_pending *,
    int), bool (*want)(const struct cmp_pending *))
{
	return adjust_by(x, tests, get, want, x->c->correction);
}

static bool
in_family(const struct cmp_pending *p)
{
	return !p->degenerate && !p->untestable && !p->explain;
}

/*
 * The explain metrics' own family (comparison.c): adjusted among
 * themselves, so they never change the p-values of `entries`.
 */
static bool
in_explain_family(const struct cmp_pending *p)
{
	return !p->degenerate && !p->untestable && p->explain;
}

static bool
in_trend_family(const struct cmp_pending *p)
{
	return in_family(p) && p->trend;
}

static double *
p_worse(struct cmp_pending *p, int adjusted)
{
	return adjusted ? &p->p_worse : &p->p_worse_raw;
}

static double *
p_better(struct cmp_pending *p, int adjusted)
{
	return adjusted ? &p->p_better : &p->p_better_raw;
}

static double *
p_trend(struct cmp_pending *p, int adjusted)
{
	return adjusted ? &p->trend_p : &p->trend_p_raw;
}

static double *
q_worse(struct cmp_pending *p, int adjusted)
{
	return adjusted ? &p->q_worse : &p->p_worse_raw;
}

/*
 * docs/method.md, step 8: a pass whose estimate is worse by T or more, listed
 * by BH at the configured false discovery rate (this comparison's share
 * of it, as alpha is shared).  At every look: a gate that stops at a look
 * leaves that look's comparison as the night's.  Inconclusive entries
 * are listed as such already.
 */
static void
mark_suspect(const struct cmp_ctx *x, const struct cmp_pending *p,
    struct cmp_entry *e)
{
	double worse = (e->higher_is_better ? -1 : 1) * e->shift;

	e->q_value = p->q_worse;
	e->suspect = x->o->suspect_fdr > 0 && e->verdict == CMP_PASS &&
	    worse > 0 && worse >= e->threshold &&
	    p->q_worse <= x->o->suspect_fdr * x->c->share;
}

/*
 * Pass 3: adjust the one-sided p-values of every tested entry, each
 * direction and the trend line as a family of their own, then decide
 * every pending entry.
 */
int
cmp_decide_all(struct cmp_ctx *x)
{
	struct comparison *c = x->c;
	struct cmp_rules r = { c->alpha_look - c->alpha_trend,
		c->alpha * c->share, c->correction, x->o->primary_weight,
		x->o->last, x->o->looks > 1,
		cmp_promise(x->o->look, x->o->looks, x->o->interleaved),
		cmp_promise_count(x->o->look, x->o->looks, x->o->interleaved) };
	double alpha_one, alpha_expl, wsum = 0;
	int rc;

	for (size_t i = 0; i < x->nr_pend; i++)
		x->pend[i].primary = cmp_is_primary(x->o, x->pend[i].metric);

	rc = adjust(x, &c->tests, p_worse, in_family);
	if (!rc)
		rc = adjust(x, NULL, p_better, in_family);
	if (!rc)
		rc = adjust(x, &c->trend_tests, p_trend, in_trend_family);
	if (!rc)
		rc = adjust(x, &c->explain_tests, p_worse, in_explain_family);
	if (!rc)
		rc = adjust(x, NULL, p_better, in_explain_family);
	if (!rc)
		rc = adjust_by(x, NULL, q_worse, in_family, STATS_ADJUST_BH);
	if (rc)
		return rc;
	/* One metric's share of the family: its weight over the weights. */
	for (size_t i = 0; i < x->nr_pend; i++)
		if (in_family(&x->pend[i]))
			wsum += weight(x, &x->pend[i]);
	alpha_one = r.alpha / (wsum > 0 ? wsum : 1);
	alpha_expl = r.alpha / (double)(c->explain_tests ?
	    c->explain_tests : 1);
	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *p = &x->pend[i];
		struct cmp_entry *e = pend_entry(x, p);

		if (p->untestable) {
			e->verdict = CMP_INCONCLUSIVE;
			cmp_set_reasonf(e, "every session holds a single "
			    "value: no spread within a session to test "
			    "against");
			continue;
		}
		cmp_decide(e, p, &r);
		if (in_family(p))
			mark_suspect(x, p, e);
		if (e->tested) {
			struct cmp_model m = { 0 };

			m.se = p->se;
			m.df = p->df;
			m.log_scale = e->log_scale;
			e->detectable = cmp_model_detectable(&m,
			    e->base.median, e->higher_is_better,
			    p->explain ? alpha_expl : alpha_one *
			    weight(x, p));
		}
		if (p->trend)
			cmp_decide_trend(x, p, e);
		if (!p->explain)
			cmp_find_step(x, p, e);
	}
	return 0;
}
