/*
 * compare_trend.c: the trend line (docs/method.md, step 8; compare_int.h): how
 * a kind of metric drifted over the baseline window, a regression only
 * the trend test finds (a metric creeping a little every night), and the
 * run where a regressed metric's series stepped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/*
 * A kind's trend over the window: the least-squares slope of its run
 * deviations against their position.  It counts (sk->trend_on) when the
 * window holds CMP_TREND_MIN_RUNS runs or more and the slope is worse-way
 * and CMP_TREND_T standard errors from 0: then the phone (or the whole
 * app) has been getting slower night after night, and tonight's values
 * are taken back by what that slope predicts before they are compared,
 * so a slow device trend is not called tonight's regression.  One
 * metric's creep hardly moves a kind's average, so it is still found.
 */
void
cmp_fit_trend(struct cmp_ctx *x, struct cmp_session_kind *sk,
    const struct cmp_kind_series *ks)
{
	double st = 0, sd = 0, m = 0, sxx = 0, sxy = 0, ss = 0, b, a;

	sk->trend = sk->trend_t = NAN;
	sk->trend_on = false;
	for (size_t t = 0; t < x->nr_base; t++)
		if (ks->n[t]) {
			st += (double)t;
			sd += ks->sum[t] / ks->n[t];
			m++;
		}
	if (m < CMP_TREND_MIN_RUNS)
		return;
	st /= m;
	sd /= m;
	for (size_t t = 0; t < x->nr_base; t++)
		if (ks->n[t]) {
			double dt = (double)t - st;

			sxx += dt * dt;
			sxy += dt * (ks->sum[t] / ks->n[t] - sd);
		}
	b = sxy / sxx;
	a = sd - b * st;
	for (size_t t = 0; t < x->nr_base; t++)
		if (ks->n[t]) {
			double r = ks->sum[t] / ks->n[t] - a - b * (double)t;

			ss += r * r;
		}
	sk->trend = b;
	sk->trend_t = ss > 0 ? b / sqrt(ss / (m - 2) / sxx) : 0;
	sk->trend_on = b > 0 && sk->trend_t >= CMP_TREND_T;
	sk->trend_mean_pos = st;
}

/* The run `order[k]` as the reason names it. */
static const struct cmp_run *
ordered_run(const struct cmp_ctx *x, int k)
{
	return k >= 0 && (size_t)k < x->nr_base ?
	    &x->c->baselines[x->order[k]] : NULL;
}

/*
 * A regression only the trend line found: tonight is worse than the
 * oldest runs of the window by T or more, significantly, though not than
 * the window as a whole.  The reason says since when, and where the
 * series stepped.
 */
void
cmp_decide_trend(struct cmp_ctx *x, struct cmp_pending *p,
    struct cmp_entry *e)
{
	double s = e->higher_is_better ? -1 : 1;
	const struct cmp_run *r = ordered_run(x, 0);
	struct strbuf sb = STRBUF_INIT;

	e->trend.p_adjusted = p->trend_p;
	if (e->verdict == CMP_REGRESSION ||
	    !(p->trend_p <= x->c->alpha_trend) ||
	    !(s * e->trend.shift >= e->threshold))
		return;
	e->trend.crept = true;
	e->verdict = CMP_REGRESSION;
	strbuf_addf(&sb, "crept: worse by %.3g %s than the oldest %zu runs "
	    "of the window", fabs(e->trend.shift), e->unit,
	    x->c->anchor_runs);
	if (r && r->started)
		strbuf_addf(&sb, " (since %s)", r->started);
	strbuf_addf(&sb, " (threshold %.3g %s), p = %.2g after %s; "
	    "tonight against the whole window: %s", e->threshold, e->unit,
	    p->trend_p, stats_adjust_name(x->c->correction),
	    e->reason ? e->reason : "");
	free(e->reason);
	e->reason = strbuf_detach(&sb, NULL);
}

/* Name the run where a regressed metric's series stepped. */
void
cmp_find_step(struct cmp_ctx *x, struct cmp_pending *p,
    struct cmp_entry *e)
{
	const struct cmp_run *r;
	char *reason;
	int k;

	if (e->verdict != CMP_REGRESSION || !x->order || x->nr_base < 2)
		return;
	k = cmp_step_find(&e->trend.stepped_by, p, x->order, x->nr_base,
	    e->higher_is_better);
	r = ordered_run(x, k);
	if (!r)
		return;
	free(e->trend.stepped_run);
	free(e->trend.stepped_started);
	e->trend.stepped_run = xstrdup(r->run_id ? r->run_id :
	    r->file ? r->file : "?");
	e->trend.stepped_started = r->started ? xstrdup(r->started) : NULL;
	/* A step before tonight: the regression came in on an earlier run. */
	reason = xasprintf("%s; its series stepped by %.3g %s at run %s%s%s%s",
	    e->reason ? e->reason : "regression", e->trend.stepped_by, e->unit,
	    e->trend.stepped_run, r->started ? " (" : "",
	    r->started ? r->started : "", r->started ? ")" : "");
	free(e->reason);
	e->reason = reason;
}
