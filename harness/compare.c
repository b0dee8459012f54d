/*
 * compare.c: samples, entries and the run's passes over them (the method
 * is in compare.h; the session model is compare_session.c's, the verdict
 * of one entry compare_verdict.c's).
 *
 * compare_run() walks the union of the scenarios of both sides, current
 * order first; in each, the scenario's own metrics (launch timing), then
 * every scene in order of first appearance with the scene metrics, in
 * metric table order.  Each pair that has a value on either side becomes
 * one entry.  Then, in passes over the entries that reach the statistics:
 * the spread a session adds is estimated per kind of metric from every
 * entry's baseline, each entry is tested under that model (and against
 * the oldest runs of the window, the trend line), the p-values of the run
 * are adjusted, and each entry is decided.
 *
 * Choices the design leaves open, and why:
 *
 *   - The interval is 1 - 2 alpha (98 % at the default 0.01, never below
 *     50 %): its worse end is the one-sided alpha bound a pass quotes as
 *     what it rules out.  It uses the whole alpha at every look: a pass
 *     is not a false alarm, and splitting alpha over looks is about those.
 *   - Pass does not require ruling a regression out.  "Every metric is
 *     proven not worse by T" is a claim hundreds of metrics at 5
 *     iterations almost never support; inconclusive is kept for what more
 *     iterations can settle: a shift significant on its own whose
 *     estimate or interval reaches T, where only the correction stands in
 *     the way.  For a caller that looks again (looks > 1, the gate) that
 *     includes a significant shift whose estimate is below T.  A single
 *     look (`jankgate compare`) passes it and says what it cannot rule
 *     out.
 *   - The last look decides.  More iterations will not come, so an
 *     estimate at T that is not significant passes unless it would be at
 *     the run's whole alpha: then splitting alpha over looks is what
 *     stands in the way, and that is inconclusive (exit 4).
 *   - One-sided tests in two families rather than one two-sided family:
 *     the gate's question is directional ("did it get worse?"), and a
 *     two-sided test would spend half of alpha on improvements, which do
 *     not fail a run.  Each family holds its own error rate.
 *   - The trend line takes a fifth of the look's alpha, and only when the
 *     window holds at least CMP_TREND_MIN_RUNS runs: a creeping metric
 *     moves tonight's value away from the oldest runs of the window long
 *     before it moves it away from the window's mean.
 *   - A missing metric does not fail a run (exit 0): more iterations would
 *     not bring it back, and the report shows it.  A scenario with fewer
 *     valid current iterations than min_iterations is inconclusive, unless
 *     it has no baseline: a first run is new, whatever its size.
 *   - Values that are not finite (a broken source) are dropped from the
 *     sample with a warning, never compared.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_int.h"
#include "config.h"
#include "error.h"
#include "metrics.h"
#include "results.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* The trend line's share of a look's alpha, and the window it needs. */
#define CMP_TREND_SHARE 0.1
#define CMP_TREND_MIN_RUNS 6
/* The t a kind's slope over the window needs to be taken off tonight. */
#define CMP_TREND_T 3

#define SWAP(a, b) do { struct kind_series tmp_ = (a); (a) = (b); \
	(b) = tmp_; } while (0)

/* ---- options ------------------------------------------------------------ */

/* The priors when there is no configuration: config_keys.c's defaults. */
static const double default_prior[METRIC_NR_KINDS] = {
	[METRIC_KIND_FRAME_TIME] = 0.02,
	[METRIC_KIND_LAUNCH] = 0.03,
	[METRIC_KIND_JANK] = 0.5,
	[METRIC_KIND_BLOCKS] = 0.5,
};

void
compare_opts_init(struct compare_opts *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->alpha = cfg ? cfg->alpha : 0.01;
	o->correction = cfg && cfg->correction == CORRECTION_BH ?
	    STATS_ADJUST_BH : STATS_ADJUST_HOLM;
	o->min_iterations = cfg ? cfg->min_iterations : 3;
	o->noise = 1;
	o->look = o->looks = 1;
	o->spending = CMP_SPEND_LATE;
	o->share = 1;
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		o->session_prior[k] = default_prior[k];
	o->prior_runs = 1;
	if (cfg) {
		o->session_prior[METRIC_KIND_FRAME_TIME] =
		    cfg->session.frame_time;
		o->session_prior[METRIC_KIND_LAUNCH] = cfg->session.launch;
		o->session_prior[METRIC_KIND_JANK] = cfg->session.jank;
		o->session_prior[METRIC_KIND_BLOCKS] = cfg->session.blocks;
		o->prior_runs = cfg->session.prior_runs;
	}
	o->trend = true;
	o->cfg = cfg;
}

/* ---- samples ------------------------------------------------------------ */

/* Both NULL, or both the same string. */
static bool
same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool
iteration_valid(const struct rs_iteration *it)
{
	return !it->warmup && it->ok;
}

static size_t
valid_iterations(const struct rs_scenario *sc)
{
	size_t n = 0;

	for (size_t i = 0; sc && i < sc->nr_iterations; i++)
		n += iteration_valid(&sc->iterations[i]);
	return n;
}

/*
 * Append the values of `m` in scene `scene` (NULL: the launch) of `sc`,
 * each with its run (the baseline input's index, -1 for the current run)
 * and session.
 */
static void
gather(struct cmp_sample *s, const struct rs_scenario *sc, const char *scene,
    const struct metric_def *m, int run)
{
	for (size_t i = 0; sc && i < sc->nr_iterations; i++) {
		const struct rs_iteration *it = &sc->iterations[i];
		const struct rs_scene *sn;
		double x;
		int rc;

		if (!iteration_valid(it))
			continue;
		if (scene) {
			sn = rs_iteration_find_scene(it, scene);
			if (!sn)
				continue;
			rc = metric_scene_value(m, sn, &x);
		} else {
			rc = metric_iteration_value(m, it, &x);
		}
		if (rc) {
			/* Not measured in this iteration: no value. */
			jg_error_clear();
			continue;
		}
		if (!isfinite(x)) {
			s->dropped++;
			continue;
		}
		cmp_sample_add(s, x, run, it->session);
	}
}

/*
 * The per-iteration spread behind the noise term of T, the smaller of two
 * estimates that are both the IQR for normal data and each over-read in
 * one case:
 *   - the IQR of the pooled baseline, which also counts what moves whole
 *     runs (a fix or a regression inside the baseline window);
 *   - how much two iterations of the same session differ: sqrt 2 times
 *     the median of |x - y| over every pair of one session's values
 *     (within 3 % of the IQR for lognormal frame times), which jumps by
 *     whole steps on values that sit on a few integers (p90 in whole ms,
 *     block counts: its median is 0 or 1).
 * NAN when there is neither.
 */
static double
spread_of(const struct cmp_sample *b, const struct stats_summary *base)
{
	double *d = NULL, med, iqr = base->n > 1 ? base->iqr : NAN;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < b->n; i++)
		for (size_t j = i + 1; j < b->n; j++) {
			if (b->run[j] != b->run[i] || b->sess[j] != b->sess[i])
				continue;
			XALLOC_GROW(d, n + 1, alloc);
			d[n++] = fabs(b->v[i] - b->v[j]);
		}
	if (n && !stats_quantile(&med, d, n, 0.5))
		iqr = fmin(iqr, M_SQRT2 * med);
	free(d);
	return iqr;
}

/* ---- one entry ---------------------------------------------------------- */

/* What a scenario contributes to every entry in it. */
struct scope {
	const char *scenario;
	const struct rs_scenario *cur;
	const struct rs_scenario *const *base;	/* one per baseline */
	size_t nr_base;
	size_t cur_valid, base_valid;
};

/*
 * How a kind of metric moved over the window, run by run: the worse-way
 * deviation of each run's mean from the window's, averaged over the
 * kind's metrics (relative for times, in within-session standard
 * deviations for the rest), per position in the window, oldest first.
 */
struct kind_series {
	double *sum, *n;
};

struct run_ctx {
	struct cmp_kind_acc frame_drift;	/* from scenes' mean frames */
	struct kind_series series[METRIC_NR_KINDS];
	struct kind_series frame_pct;	/* the percentiles' (no histogram) */
	int *pos;		/* baseline input -> position in the window */
	struct comparison *c;
	const struct compare_opts *o;
	struct cmp_pending *pend;
	size_t nr_pend, alloc_pend;
	bool *anchor;		/* per baseline input: the trend's anchor */
	int *order;		/* baseline inputs, oldest first */
	size_t nr_base;
};

static void
set_reasonf(struct cmp_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
set_reasonf(struct cmp_entry *e, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(e->reason);
	e->reason = strbuf_detach(&sb, NULL);
}

static bool
all_equal(const struct cmp_sample *a, const struct cmp_sample *b)
{
	double x = a->v[0];

	for (size_t i = 0; i < a->n; i++)
		if (a->v[i] != x)
			return false;
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i] != x)
			return false;
	return true;
}

/*
 * Build the entry for metric `m` in `scene` (NULL: scenario metric) and
 * apply the gates of compare.h step 2; an entry that passes them is queued
 * with its samples for the statistics.  No entry when neither side has a
 * value.
 */
static void
compare_metric(struct run_ctx *x, const struct scope *sc, const char *scene,
    const struct metric_def *m)
{
	struct comparison *c = x->c;
	struct cmp_sample b = { 0 }, cu = { 0 };
	size_t min = (size_t)x->o->min_iterations;
	struct cmp_pending *p;
	struct cmp_entry *e;

	for (size_t i = 0; i < sc->nr_base; i++)
		gather(&b, sc->base[i], scene, m, (int)i);
	gather(&cu, sc->cur, scene, m, -1);
	if (b.dropped + cu.dropped)
		strlist_addf(&c->warnings, "%s%s%s: %s: %zu values that are "
		    "not finite numbers were left out", sc->scenario,
		    scene ? "/" : "", scene ? scene : "", m->name,
		    b.dropped + cu.dropped);
	if (!b.n && !cu.n)
		goto out;

	/* Explanations go to their own list (compare_explain.c). */
	e = m->explain ? comparison_add_explain(c) : comparison_add_entry(c);
	e->device = c->device ? xstrdup(c->device) : NULL;
	e->scenario = xstrdup(sc->scenario);
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(m->name);
	e->unit = xstrdup(m->unit);
	e->higher_is_better = m->dir == METRIC_HIGHER_IS_BETTER;
	stats_summarize(&e->base, b.v, b.n);
	stats_summarize(&e->cur, cu.v, cu.n);
	if (x->o->cfg)
		config_threshold_for(x->o->cfg, scene, m, &e->rel_threshold,
		    &e->abs_threshold);
	else {
		e->rel_threshold = m->rel_threshold;
		e->abs_threshold = m->abs_threshold;
	}
	e->noise_threshold = x->o->noise;
	e->spread = spread_of(&b, &e->base);
	if (b.n)
		e->threshold = fmax(fmax(e->abs_threshold,
		    e->rel_threshold * fabs(e->base.median)),
		    isnan(e->spread) ? 0 : e->noise_threshold * e->spread);

	if (!b.n) {
		e->verdict = CMP_NEW;
		set_reasonf(e, "no baseline values yet");
	} else if (!sc->cur) {
		e->verdict = CMP_MISSING;
		set_reasonf(e, "scenario '%s' is not in the current run",
		    sc->scenario);
	} else if (sc->cur_valid < min) {
		e->verdict = CMP_INCONCLUSIVE;
		set_reasonf(e, "%zu valid current iterations of '%s', fewer "
		    "than min_iterations (%zu)", sc->cur_valid, sc->scenario,
		    min);
	} else if (!cu.n) {
		e->verdict = CMP_MISSING;
		set_reasonf(e, "no value in the current run");
	} else if (cu.n < min || b.n < min) {
		e->verdict = CMP_INCONCLUSIVE;
		set_reasonf(e, "%zu current and %zu baseline values, fewer "
		    "than min_iterations (%zu) on one side", cu.n, b.n, min);
	} else {
		XALLOC_GROW(x->pend, x->nr_pend + 1, x->alloc_pend);
		p = &x->pend[x->nr_pend++];
		memset(p, 0, sizeof(*p));
		p->explain = m->explain;
		p->entry = (m->explain ? c->nr_explains : c->nr_entries) - 1;
		p->metric = m;
		p->b = b;
		p->cu = cu;
		p->degenerate = all_equal(&b, &cu);
		return;
	}
out:
	cmp_sample_release(&b);
	cmp_sample_release(&cu);
}

/*
 * Add the run-by-run deviations of `b` (one metric's baseline) to `ks`:
 * on the log scale for times, else divided by the within-run standard
 * deviation (*sd gets it; 0 when there is none), signed so that worse is
 * positive.
 */
static void
series_add(struct run_ctx *x, struct kind_series *ks, const struct cmp_sample *b,
    bool log_scale, bool higher_is_better, double *sd)
{
	size_t nb = x->nr_base;
	double *sum = xcalloc(nb + 1, sizeof(*sum));
	double *n = xcalloc(nb + 1, sizeof(*n));
	double grand = 0, runs = 0, ss = 0, df = 0, div = 1;
	double sign = higher_is_better ? -1 : 1;

	*sd = 0;
	for (size_t i = 0; i < b->n; i++) {
		double y = log_scale ? log(b->v[i]) : b->v[i];

		if (b->run[i] < 0 || (log_scale && !(b->v[i] > 0)))
			goto out;
		sum[b->run[i]] += y;
		n[b->run[i]]++;
	}
	for (size_t r = 0; r < nb; r++)
		if (n[r]) {
			grand += sum[r] / n[r];
			runs++;
		}
	if (runs < 2)
		goto out;
	grand /= runs;
	for (size_t i = 0; i < b->n; i++) {
		double y = log_scale ? log(b->v[i]) : b->v[i];
		double d = y - sum[b->run[i]] / n[b->run[i]];

		ss += d * d;
	}
	for (size_t r = 0; r < nb; r++)
		df += n[r] ? n[r] - 1 : 0;
	*sd = df > 0 ? sqrt(ss / df) : 0;
	if (!log_scale) {
		if (!(*sd > 0))
			goto out;
		div = *sd;
	}
	for (size_t r = 0; r < nb; r++)
		if (n[r]) {
			ks->sum[x->pos[r]] += sign * (sum[r] / n[r] - grand) /
			    div;
			ks->n[x->pos[r]]++;
		}
out:
	free(sum);
	free(n);
}

/*
 * The mean frame time of a scene, from its histogram: every frame counts,
 * so unlike the whole-ms percentiles it follows a phone running 2 %
 * slower instead of sticking at a bucket.  Not a compared metric; the
 * session model reads the drift of frame times from it.
 */
static int
mean_frame_ms(double *out, const struct rs_scene *sn)
{
	double sum = 0, n = 0;

	for (size_t i = 0; i < sn->frames.nr_histogram; i++) {
		sum += (double)sn->frames.histogram[i].ms *
		    (double)sn->frames.histogram[i].count;
		n += (double)sn->frames.histogram[i].count;
	}
	if (!(n > 0 && sum > 0))
		return -1;
	*out = sum / n;
	return 0;
}

/* Add the baseline's sessions of `scene`'s mean frame time to the drift. */
static void
frame_drift_add(struct run_ctx *x, const struct scope *sc, const char *scene)
{
	static const struct metric_def mean_frame = { "mean_frame_ms", "ms",
		METRIC_LOWER_IS_BETTER, METRIC_SCENE, 0, 0, "",
		METRIC_KIND_FRAME_TIME, 0, 0, 0 };
	struct cmp_pending p;

	memset(&p, 0, sizeof(p));
	p.metric = &mean_frame;
	for (size_t r = 0; r < sc->nr_base; r++)
		for (size_t i = 0; sc->base[r] && i <
		    sc->base[r]->nr_iterations; i++) {
			const struct rs_iteration *it =
			    &sc->base[r]->iterations[i];
			const struct rs_scene *sn;
			double v;

			if (!iteration_valid(it))
				continue;
			sn = rs_iteration_find_scene(it, scene);
			if (sn && !mean_frame_ms(&v, sn))
				cmp_sample_add(&p.b, v, (int)r, it->session);
		}
	if (p.b.n) {
		double sd;

		cmp_kind_add(&x->frame_drift, &p);
		series_add(x, &x->series[METRIC_KIND_FRAME_TIME], &p.b, true,
		    false, &sd);
	}
	cmp_sample_release(&p.b);
}

/* ---- the run's passes --------------------------------------------------- */

/* The entry a pending test is for, in c->entries or c->explains. */
static struct cmp_entry *
pend_entry(const struct run_ctx *x, const struct cmp_pending *p)
{
	return p->explain ? &x->c->explains[p->entry] :
	    &x->c->entries[p->entry];
}

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
static void
fit_trend(struct run_ctx *x, struct cmp_session_kind *sk,
    const struct kind_series *ks)
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

/*
 * Pass 1: how much a session moves each kind of metric, from the
 * baseline sessions of every entry, with the configured priors.
 */
static void
estimate_kinds(struct run_ctx *x)
{
	struct cmp_kind_acc acc[METRIC_NR_KINDS];
	struct comparison *c = x->c;

	memset(acc, 0, sizeof(acc));
	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *p = &x->pend[i];
		enum metric_kind k = p->metric->kind;

		/* Explanations must not move the decisive metrics' model. */
		if (p->degenerate || p->explain)
			continue;
		cmp_kind_add(&acc[k], p);
		series_add(x, k == METRIC_KIND_FRAME_TIME ? &x->frame_pct :
		    &x->series[k], &p->b, metric_kind_is_log(k),
		    p->metric->dir == METRIC_HIGHER_IS_BETTER, &p->sd_base);
	}
	/* Frame times drift as the scenes' mean frames do (above). */
	if (x->frame_drift.entries)
		acc[METRIC_KIND_FRAME_TIME] = x->frame_drift;
	else
		SWAP(x->series[METRIC_KIND_FRAME_TIME], x->frame_pct);
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		fit_trend(x, &c->kinds[k], &x->series[k]);
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		cmp_kind_finish(&c->kinds[k], &acc[k], (enum metric_kind)k,
		    x->o->session_prior[k], x->o->prior_runs);
}

/*
 * What the kind's trend predicts tonight stands above the window (or, for
 * the trend test, above its anchor runs), on the test's scale: 0 when the
 * kind has no trend to take off.  The entry's `drift` says it in unit.
 */
static double
drift_offset(struct run_ctx *x, const struct cmp_pending *p,
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
static void
test_all(struct run_ctx *x)
{
	struct comparison *c = x->c;
	size_t min = (size_t)x->o->min_iterations, family = 0;
	struct cmp_test_opts to, tt;

	for (size_t i = 0; i < x->nr_pend; i++)
		family += !x->pend[i].degenerate && !x->pend[i].explain;
	to.ci_level = tt.ci_level = c->ci_level;
	to.prior_runs = tt.prior_runs = x->o->prior_runs;
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
		p->p_better = p->trend_p_raw = p->trend_p = 1;
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

/* Adjust `get`'s p-values of the pending entries `want` selects. */
static int
adjust(struct run_ctx *x, size_t *tests, double *(*get)(struct cmp_pending *,
    int), bool (*want)(const struct cmp_pending *))
{
	double *p = xcalloc(x->nr_pend + 1, sizeof(*p));
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < x->nr_pend; i++)
		if (want(&x->pend[i]))
			p[n++] = *get(&x->pend[i], 0);
	rc = stats_p_adjust(p, p, n, x->c->correction);
	if (tests)
		*tests = n;
	n = 0;
	for (size_t i = 0; !rc && i < x->nr_pend; i++)
		if (want(&x->pend[i]))
			*get(&x->pend[i], 1) = p[n++];
	free(p);
	return rc;
}

static bool
in_family(const struct cmp_pending *p)
{
	return !p->degenerate && !p->untestable && !p->explain;
}

/*
 * The explain metrics' own family (compare_explain.c): adjusted among
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

/* The run `order[k]` as the reason names it. */
static const struct cmp_run *
ordered_run(const struct run_ctx *x, int k)
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
static void
decide_trend(struct run_ctx *x, struct cmp_pending *p, struct cmp_entry *e)
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
static void
find_step(struct run_ctx *x, struct cmp_pending *p, struct cmp_entry *e)
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

/*
 * Pass 3: adjust the one-sided p-values of every tested entry, each
 * direction and the trend line as a family of their own, then decide
 * every pending entry.
 */
static int
decide_all(struct run_ctx *x)
{
	struct comparison *c = x->c;
	struct cmp_rules r = { c->alpha_look - c->alpha_trend,
		c->alpha * c->share, c->correction, x->o->last,
		x->o->looks > 1 };
	double alpha_one, alpha_expl;
	int rc;

	rc = adjust(x, &c->tests, p_worse, in_family);
	if (!rc)
		rc = adjust(x, NULL, p_better, in_family);
	if (!rc)
		rc = adjust(x, &c->trend_tests, p_trend, in_trend_family);
	if (!rc)
		rc = adjust(x, &c->explain_tests, p_worse, in_explain_family);
	if (!rc)
		rc = adjust(x, NULL, p_better, in_explain_family);
	if (rc)
		return rc;
	alpha_one = r.alpha / (double)(c->tests ? c->tests : 1);
	alpha_expl = r.alpha / (double)(c->explain_tests ?
	    c->explain_tests : 1);
	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *p = &x->pend[i];
		struct cmp_entry *e = pend_entry(x, p);

		if (p->untestable) {
			e->verdict = CMP_INCONCLUSIVE;
			set_reasonf(e, "every session holds a single value: "
			    "no spread within a session to test against");
			continue;
		}
		cmp_decide(e, p, &r);
		if (e->tested) {
			struct cmp_model m = { 0 };

			m.se = p->se;
			m.df = p->df;
			m.log_scale = e->log_scale;
			e->detectable = cmp_model_detectable(&m,
			    e->base.median, e->higher_is_better,
			    p->explain ? alpha_expl : alpha_one);
		}
		if (p->trend)
			decide_trend(x, p, e);
		if (!p->explain)
			find_step(x, p, e);
	}
	return 0;
}

/*
 * Step 6: a regression an earlier look found stands, with the numbers of
 * the look that found it.  The reason says which look that was, once.
 */
static void
keep_regressions(struct comparison *c, const struct comparison *prior)
{
	for (size_t i = 0; prior && i < c->nr_entries; i++) {
		struct cmp_entry *e = &c->entries[i];
		const struct cmp_entry *p = comparison_find_entry(prior,
		    e->scenario, e->scene, e->metric);
		char *reason;

		if (e->verdict == CMP_REGRESSION || !p ||
		    p->verdict != CMP_REGRESSION)
			continue;
		cmp_entry_copy(e, p);
		if (p->look != prior->look)
			continue;
		reason = xasprintf("at look %d of %d: %s", p->look, c->looks,
		    p->reason ? p->reason : "regression");
		free(e->reason);
		e->reason = reason;
	}
}

/* ---- scenarios ---------------------------------------------------------- */

static void
add_scene_names(struct strlist *names, const struct rs_scenario *sc)
{
	struct strlist l = STRLIST_INIT;

	if (!sc)
		return;
	rs_scenario_scene_names(sc, &l);
	for (size_t i = 0; i < l.nr; i++)
		if (strlist_find(names, l.items[i]) < 0)
			strlist_add(names, l.items[i]);
	strlist_release(&l);
}

static void
compare_scenario(struct run_ctx *x, struct scope *sc)
{
	struct comparison *c = x->c;
	struct strlist scenes = STRLIST_INIT;
	struct cmp_scenario *s = comparison_add_scenario(c);
	size_t runs = 0, measured = 0;

	sc->cur_valid = valid_iterations(sc->cur);
	sc->base_valid = 0;
	for (size_t i = 0; i < sc->nr_base; i++) {
		sc->base_valid += valid_iterations(sc->base[i]);
		runs += sc->base[i] != NULL;
		if (sc->cur && sc->base[i] &&
		    !same_str(sc->cur->sha256, sc->base[i]->sha256))
			s->changed = true;
	}
	for (size_t i = 0; sc->cur && i < sc->cur->nr_iterations; i++)
		measured += !sc->cur->iterations[i].warmup;
	s->name = xstrdup(sc->scenario);
	s->cur_iterations = (double)measured;
	s->cur_valid = (double)sc->cur_valid;
	s->base_runs = (double)runs;
	s->base_valid = (double)sc->base_valid;
	/* A first run is new whatever its size: nothing can be inconclusive
	 * without a baseline to be inconclusive about. */
	if (!sc->cur)
		s->verdict = CMP_MISSING;
	else if (!runs)
		s->verdict = CMP_NEW;
	else if (sc->cur_valid < (size_t)x->o->min_iterations)
		s->verdict = CMP_INCONCLUSIVE;
	else
		s->verdict = CMP_PASS;
	if (s->changed)
		strlist_addf(&c->warnings, "scenario '%s' changed since the "
		    "baseline (its sha256 differs)", sc->scenario);

	add_scene_names(&scenes, sc->cur);
	for (size_t i = 0; i < sc->nr_base; i++)
		add_scene_names(&scenes, sc->base[i]);
	for (size_t k = 0; k < metric_count(); k++)
		if (metric_at(k)->scope == METRIC_SCENARIO)
			compare_metric(x, sc, NULL, metric_at(k));
	for (size_t j = 0; j < scenes.nr; j++) {
		for (size_t k = 0; k < metric_count(); k++)
			if (metric_at(k)->scope == METRIC_SCENE)
				compare_metric(x, sc, scenes.items[j],
				    metric_at(k));
		frame_drift_add(x, sc, scenes.items[j]);
	}
	compare_blocks(c, sc->scenario, sc->cur, sc->base, sc->nr_base,
	    x->o);
	compare_methods(c, sc->scenario, sc->cur, sc->base, sc->nr_base,
	    x->o);
	strlist_release(&scenes);
}

static void
run_info(struct cmp_run *r, const struct compare_input *in)
{
	const struct results *res = in->results;

	r->file = in->name ? xstrdup(in->name) : NULL;
	r->run_id = res->run.id ? xstrdup(res->run.id) : NULL;
	r->app_version = res->app.version_name ?
	    xstrdup(res->app.version_name) : NULL;
	r->started = res->run.started ? xstrdup(res->run.started) : NULL;
}

static int
check_opts(const struct compare_opts *o)
{
	if (!(o->alpha > 0 && o->alpha < 1))
		return jg_error_set(JG_EINVAL, "alpha %g is outside (0, 1)",
		    o->alpha);
	if (!(o->share > 0 && o->share <= 1))
		return jg_error_set(JG_EINVAL, "alpha share %g is outside "
		    "(0, 1]", o->share);
	if (!(o->noise >= 0 && o->noise < 100))
		return jg_error_set(JG_EINVAL, "noise %g is outside [0, 100)",
		    o->noise);
	if (o->min_iterations < 1)
		return jg_error_set(JG_EINVAL, "min_iterations %d is below 1",
		    o->min_iterations);
	if (o->looks < 1 || o->look < 1 || o->look > o->looks)
		return jg_error_set(JG_EINVAL, "look %d of %d is not one of "
		    "1 .. %d", o->look, o->looks, o->looks);
	if (isnan(compare_look_alpha(o->alpha, 1, 2, o->spending)))
		return jg_error_set(JG_EINVAL, "unknown alpha spending %d",
		    (int)o->spending);
	if (o->correction != STATS_ADJUST_NONE &&
	    o->correction != STATS_ADJUST_HOLM &&
	    o->correction != STATS_ADJUST_BH)
		return jg_error_set(JG_EINVAL, "unknown correction %d",
		    (int)o->correction);
	if (!(o->prior_runs >= 0))
		return jg_error_set(JG_EINVAL, "prior weight %g is negative",
		    o->prior_runs);
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		if (!(o->session_prior[k] >= 0 && isfinite(
		    o->session_prior[k])))
			return jg_error_set(JG_EINVAL, "session prior of %s "
			    "is %g", metric_kind_name((enum metric_kind)k),
			    o->session_prior[k]);
	return 0;
}

/* The union of scenario names, current order first. */
static void
scenario_names(struct strlist *names, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base)
{
	const struct results *r = cur->results;

	for (size_t i = 0; i <= nr_base; i++) {
		if (i)
			r = base[i - 1].results;
		for (size_t j = 0; j < r->nr_scenarios; j++)
			if (r->scenarios[j].name &&
			    strlist_find(names, r->scenarios[j].name) < 0)
				strlist_add(names, r->scenarios[j].name);
	}
}

struct dated {
	const char *started;
	int index;
};

/* Oldest first by run.started; equal times keep the newer-first input
 * order reversed. */
static int
cmp_dated(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;
	int d = strcmp(x->started, y->started);

	return d ? d : y->index - x->index;
}

/*
 * The baseline runs oldest first: by run.started when every run has
 * one, else the given order reversed (the store gives the newest first).
 * With CMP_TREND_MIN_RUNS or more, the oldest half is the trend's anchor.
 */
static void
order_runs(struct run_ctx *x, const struct compare_input *base, size_t nr)
{
	struct dated *d = xcalloc(nr + 1, sizeof(*d));
	bool dated = true;

	x->order = xcalloc(nr + 1, sizeof(*x->order));
	for (size_t i = 0; i < nr; i++) {
		d[i].started = base[i].results->run.started;
		d[i].index = (int)i;
		dated = dated && d[i].started;
	}
	if (dated)
		qsort(d, nr, sizeof(*d), cmp_dated);
	for (size_t i = 0; i < nr; i++)
		x->order[i] = dated ? d[i].index : (int)(nr - 1 - i);
	free(d);
	x->pos = xcalloc(nr + 1, sizeof(*x->pos));
	for (size_t i = 0; i < nr; i++)
		x->pos[x->order[i]] = (int)i;
	for (int k = 0; k < METRIC_NR_KINDS; k++) {
		x->series[k].sum = xcalloc(nr + 1, sizeof(double));
		x->series[k].n = xcalloc(nr + 1, sizeof(double));
	}
	x->frame_pct.sum = xcalloc(nr + 1, sizeof(double));
	x->frame_pct.n = xcalloc(nr + 1, sizeof(double));
	if (!x->o->trend || nr < CMP_TREND_MIN_RUNS)
		return;
	x->anchor = xcalloc(nr, sizeof(*x->anchor));
	for (size_t k = 0; k < nr / 2; k++)
		x->anchor[x->order[k]] = true;
	x->c->anchor_runs = nr / 2;
}

int
compare_run(struct comparison **out, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base,
    const struct compare_opts *o)
{
	struct strlist reasons = STRLIST_INIT, names = STRLIST_INIT;
	const struct rs_scenario **bsc = NULL;
	struct run_ctx x;
	struct comparison *c;
	int rc;

	*out = NULL;
	if ((rc = check_opts(o)) < 0)
		return rc;
	rc = compare_check(&reasons, cur, base, nr_base);
	if (rc && !o->allow_mismatch) {
		strlist_release(&reasons);
		return rc;
	}
	jg_error_clear();
	memset(&x, 0, sizeof(x));
	x.o = o;
	x.nr_base = nr_base;
	c = x.c = comparison_new();
	strlist_release(&c->mismatches);
	c->mismatches = reasons;
	c->device = cur->results->device.key ?
	    xstrdup(cur->results->device.key) : NULL;
	c->package = cur->results->app.package ?
	    xstrdup(cur->results->app.package) : NULL;
	run_info(&c->current, cur);
	for (size_t i = 0; i < nr_base; i++)
		run_info(comparison_add_baseline(c), &base[i]);
	c->alpha = o->alpha;
	c->share = o->share;
	c->correction = o->correction;
	c->ci_level = fmax(1 - 2 * o->alpha, 0.5);
	c->min_iterations = o->min_iterations;
	c->noise = o->noise;
	c->look = o->look;
	c->looks = o->looks;
	c->spending = o->spending;
	c->last = o->last;
	c->prior_runs = o->prior_runs;
	c->alpha_look = compare_look_alpha(o->alpha * o->share, o->look,
	    o->looks, o->spending);
	order_runs(&x, base, nr_base);
	c->alpha_trend = x.anchor ? CMP_TREND_SHARE * c->alpha_look : 0;

	scenario_names(&names, cur, base, nr_base);
	bsc = xcalloc(nr_base + 1, sizeof(*bsc));
	for (size_t i = 0; i < names.nr; i++) {
		struct scope sc = { names.items[i], NULL, bsc, nr_base, 0, 0 };

		sc.cur = results_find_scenario(cur->results, names.items[i]);
		for (size_t j = 0; j < nr_base; j++)
			bsc[j] = results_find_scenario(base[j].results,
			    names.items[i]);
		compare_scenario(&x, &sc);
	}
	estimate_kinds(&x);
	test_all(&x);
	rc = decide_all(&x);
	if (!rc)
		keep_regressions(c, o->prior);
	for (size_t i = 0; i < x.nr_pend; i++) {
		cmp_sample_release(&x.pend[i].b);
		cmp_sample_release(&x.pend[i].cu);
	}
	free(x.pend);
	free(x.anchor);
	free(x.order);
	free(x.pos);
	for (int k = 0; k < METRIC_NR_KINDS; k++) {
		free(x.series[k].sum);
		free(x.series[k].n);
	}
	free(x.frame_pct.sum);
	free(x.frame_pct.n);
	free(bsc);
	strlist_release(&names);
	if (rc) {
		comparison_free(c);
		return rc;
	}
	*out = c;
	return 0;
}
