/*
 * compare_session.c: the session model behind every test of compare.
 *
 * A phone is not the same phone from one session to the next: its
 * temperature, clocks, background work and what the app's JIT kept differ,
 * and every iteration of one session shares that state.  So a value is
 *
 *	y = mu(side) + u(session) + e(iteration)
 *
 * on the test's scale (the log of times, where "2 % slower today" is one
 * number for every time; the value itself for counts and shares), with
 * u ~ (0, sb^2) drawn once per session and e ~ (0, sw^2) per iteration.
 * A side's mean then varies by sb^2 / sessions + sw^2 / iterations, and
 * more iterations of one session cannot beat the first term: that is why
 * `gate` measures its extra batches as new sessions.
 *
 *   sw^2  is pooled from the spread within every session of both sides
 *         (degrees of freedom: values - sessions), floored at the
 *         rounding of the metric (resolution^2 / 12: a p90 in whole ms
 *         cannot be known better than that).
 *   sb^2  is estimated per kind of metric from the baseline: for each
 *         metric, a one-way analysis of variance over the baseline's
 *         sessions gives (MSB - MSW) / n0; times average these (a slower
 *         phone moves all of them by the same fraction), the other kinds
 *         divide their sum by the sum of MSW (a session moves a count by
 *         a share of its own spread).  What a kind's many metrics share
 *         is the same handful of sessions, so the estimate has sessions
 *         - 1 degrees of freedom, however many metrics it averages.  It
 *         is combined with the configured prior (session.<kind>) as
 *         (w v0 + (S - 1) v) / (w + S - 1), w = session.prior_runs: the
 *         prior alone with one baseline session (the first nights), the
 *         sessions' own spread once there are many.  The prior counts as
 *         known, so the combination's degrees of freedom are
 *         (w + S - 1)^2 / (S - 1), infinite for the prior alone.
 *
 * Each side's mean weights its sessions by 1 / (sb^2 + sw^2 / n); the
 * difference d = cur - base has se^2 = var(cur) + var(base), and
 * t = d / se is referred to Student's t with Satterthwaite's degrees of
 * freedom for the two variance parts.  The interval d +- q se is turned
 * back into the metric's unit (for times, base (e^d - 1)).
 *
 * The step finder of the trend line (compare.h step 7) is here too: it
 * works on the same scale, on the mean of each run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_int.h"
#include "error.h"
#include "metrics.h"
#include "stats.h"
#include "xalloc.h"
#include "banned.h"

void
cmp_sample_add(struct cmp_sample *s, double v, int run, int sess)
{
	if (s->n + 1 > s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->v = xreallocarray(s->v, s->alloc, sizeof(*s->v));
		s->run = xreallocarray(s->run, s->alloc, sizeof(*s->run));
		s->sess = xreallocarray(s->sess, s->alloc, sizeof(*s->sess));
	}
	s->v[s->n] = v;
	s->run[s->n] = run;
	s->sess[s->n] = sess;
	s->n++;
}

void
cmp_sample_release(struct cmp_sample *s)
{
	free(s->v);
	free(s->run);
	free(s->sess);
	s->v = NULL;
	s->run = s->sess = NULL;
	s->n = s->alloc = 0;
}

/* A metric's own between-session spread replaces its kind's below this. */
#define CMP_OWN_P 0.01

/* ---- sessions ----------------------------------------------------------- */

struct sess {
	int run, sess;
	size_t n;
	double mean, ss;
};

struct sessions {
	struct sess *s;
	size_t nr, alloc;
	size_t values;
	double ss;		/* sum of squares within sessions */
};

static bool
all_positive(const struct cmp_sample *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (!(s->v[i] > 0))
			return false;
	return true;
}

/* Times go on the log scale when every value allows it. */
static bool
use_log(const struct cmp_pending *p)
{
	return metric_kind_is_log(p->metric->kind) && all_positive(&p->b) &&
	    all_positive(&p->cu);
}

static double
on_scale(double x, bool log_scale)
{
	return log_scale ? log(x) : x;
}

/*
 * The session of value i, added when new.  Values of one session come
 * together in gather order, so the last session is tried first.
 */
static struct sess *
session_of(struct sessions *ss, const struct cmp_sample *s, size_t i)
{
	struct sess *x;

	for (size_t k = ss->nr; k-- > 0;) {
		x = &ss->s[k];
		if (x->run == s->run[i] && x->sess == s->sess[i])
			return x;
	}
	XALLOC_GROW(ss->s, ss->nr + 1, ss->alloc);
	x = &ss->s[ss->nr++];
	x->run = s->run[i];
	x->sess = s->sess[i];
	x->n = 0;
	x->mean = x->ss = 0;
	return x;
}

/* Group `s` (only runs with anchor[run] set, when anchor is given). */
static void
group(struct sessions *out, const struct cmp_sample *s, bool log_scale,
    const bool *anchor)
{
	out->nr = out->values = 0;
	out->ss = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct sess *x;

		if (anchor && s->run[i] >= 0 && !anchor[s->run[i]])
			continue;
		x = session_of(out, s, i);
		x->n++;
		x->mean += on_scale(s->v[i], log_scale);
	}
	for (size_t k = 0; k < out->nr; k++) {
		out->s[k].mean /= (double)out->s[k].n;
		out->values += out->s[k].n;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct sess *x;
		double dy;

		if (anchor && s->run[i] >= 0 && !anchor[s->run[i]])
			continue;
		x = session_of(out, s, i);
		dy = on_scale(s->v[i], log_scale) - x->mean;
		x->ss += dy * dy;
	}
	for (size_t k = 0; k < out->nr; k++)
		out->ss += out->s[k].ss;
}

/* What rounding alone makes values differ by, as a variance. */
static double
rounding_floor(const struct metric_def *m, double center, bool log_scale)
{
	double r = m->resolution;

	if (log_scale)
		r = center > 0 ? r / center : 0;
	return r * r / 12;
}

/*
 * The within-session spread as ranks feel it: the mean square deviation
 * of every value from its session's mean (both sides, sessions of one
 * value left out) without the largest tenth of them, scaled so that it is
 * the variance for normal data (a normal |z| below its 90th percentile has
 * E z^2 = 0.623).  A long tail (a spike in one iteration's p99) inflates
 * the variance but not this, and a session's shift moves ranks as much as
 * it moves the bulk of the values; values that merely cluster on a few
 * numbers keep it near the variance.  NAN when no session has two values.
 */
static double
rank_within(const struct cmp_sample *const *side, const struct sessions *const
    *g, bool log_scale, const bool *anchor)
{
	double *d = NULL, cut, out = NAN;
	size_t n = 0, alloc = 0;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < side[k]->n; i++) {
			const struct sess *x = NULL;

			if (k == 0 && anchor && side[k]->run[i] >= 0 &&
			    !anchor[side[k]->run[i]])
				continue;
			for (size_t j = 0; j < g[k]->nr && !x; j++)
				if (g[k]->s[j].run == side[k]->run[i] &&
				    g[k]->s[j].sess == side[k]->sess[i])
					x = &g[k]->s[j];
			if (!x || x->n < 2)
				continue;
			XALLOC_GROW(d, n + 1, alloc);
			d[n++] = fabs(on_scale(side[k]->v[i], log_scale) -
			    x->mean);
		}
	if (n && !stats_quantile(&cut, d, n, 0.9)) {
		double sum = 0;
		size_t kept = 0;

		for (size_t i = 0; i < n; i++)
			if (d[i] <= cut) {
				sum += d[i] * d[i];
				kept++;
			}
		if (kept)
			out = sum / (double)kept / 0.623;
	}
	free(d);
	return out;
}

/* ---- the spread of a kind ----------------------------------------------- */

void
cmp_kind_add(struct cmp_kind_acc *acc, struct cmp_pending *p)
{
	struct sessions g = { 0 };
	bool log_scale = use_log(p);
	double grand = 0, msb = 0, msw, n0, sum_n2 = 0, nn;
	size_t s_nr;

	if (metric_kind_is_log(p->metric->kind) && !log_scale)
		return;
	group(&g, &p->b, log_scale, NULL);
	s_nr = g.nr;
	if (s_nr < 2 || g.values <= s_nr)
		goto out;
	nn = (double)g.values;
	for (size_t k = 0; k < s_nr; k++) {
		grand += (double)g.s[k].n * g.s[k].mean;
		sum_n2 += (double)g.s[k].n * (double)g.s[k].n;
	}
	grand /= nn;
	for (size_t k = 0; k < s_nr; k++) {
		double dm = g.s[k].mean - grand;

		msb += (double)g.s[k].n * dm * dm;
	}
	msb /= (double)(s_nr - 1);
	/* Not floored: rounding hides drift between sessions no less than
	 * within them, and a floor here would read it as none. */
	msw = g.ss / (nn - (double)s_nr);
	n0 = (nn - sum_n2 / nn) / (double)(s_nr - 1);
	p->vb_own = (msb - msw) / n0;
	p->s_own = s_nr;
	p->msb_own = msb;
	p->msw_own = msw;
	p->n0_own = n0;
	p->values_own = g.values;
	acc->sum += p->vb_own;
	acc->sum_within += msw;
	acc->entries++;
	if (s_nr > acc->sessions)
		acc->sessions = s_nr;
out:
	free(g.s);
}

void
cmp_kind_finish(struct cmp_session_kind *out, const struct cmp_kind_acc *acc,
    enum metric_kind kind, double prior, double prior_runs)
{
	double v0 = prior * prior, v, nd;

	out->prior = prior;
	out->sessions = (double)acc->sessions;
	out->estimate = NAN;
	out->used = prior;
	out->df = INFINITY;
	if (!acc->entries || acc->sessions < 2)
		return;
	if (metric_kind_is_log(kind))
		v = acc->sum / (double)acc->entries;
	else
		v = acc->sum_within > 0 ? acc->sum / acc->sum_within : 0;
	v = fmax(v, 0);
	out->estimate = sqrt(v);
	nd = (double)acc->sessions - 1;
	if (prior_runs > 0) {
		out->used = sqrt((prior_runs * v0 + nd * v) / (prior_runs + nd));
		out->df = (prior_runs + nd) * (prior_runs + nd) / nd;
	} else {
		out->used = sqrt(v);
		out->df = nd;
	}
}

/* ---- the test ----------------------------------------------------------- */

/* A side's weighted mean and the two parts of its variance. */
struct side {
	double mean, var, var_b, var_w;
	double plain_b;		/* sum (n_s / N)^2: sessions in a plain mean */
};

static void
side_of(struct side *out, const struct sessions *g, double vb, double vw)
{
	double sw = 0, swy = 0, nn = (double)g->values;

	out->var_b = out->var_w = out->plain_b = 0;
	for (size_t k = 0; k < g->nr; k++) {
		double w = 1 / (vb + vw / (double)g->s[k].n);
		double share = (double)g->s[k].n / nn;

		sw += w;
		swy += w * g->s[k].mean;
		out->plain_b += share * share;
	}
	out->mean = swy / sw;
	out->var = 1 / sw;
	for (size_t k = 0; k < g->nr; k++) {
		double f = 1 / (vb + vw / (double)g->s[k].n) / sw;

		out->var_b += f * f * vb;
		out->var_w += f * f * vw / (double)g->s[k].n;
	}
}

/* From the test's scale back to the unit, relative to `base`. */
static double
unscale(double d, double base, bool log_scale)
{
	return log_scale ? base * expm1(d) : d;
}

/* The values of `s` (only anchor runs, when given), in a new array. */
static double *
values_of(size_t *n, const struct cmp_sample *s, const bool *anchor)
{
	double *v = xcalloc(s->n + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!anchor || s->run[i] < 0 || anchor[s->run[i]])
			v[(*n)++] = s->v[i];
	return v;
}

/*
 * A one-sided p-value as the z it stands for, shrunk by sqrt(deff), and
 * read on Student's t with the df the session variance's estimate has.
 */
static double
shrink(double p, double root_deff, double df)
{
	if (p >= 1)
		return 1;
	return stats_t_sf(-stats_norm_quantile(p) / root_deff, df);
}

/*
 * The rank test under the session model: Mann-Whitney's exact (or, for
 * large samples, normal) p-values, read as z and divided by the root of
 * the design effect; the Hodges-Lehmann shift with its interval widened
 * by the same root.  Returns -1 when the interval cannot reach its level
 * at these sizes (the caller falls back to the t test).
 */
static int
rank_test(struct cmp_model *out, const struct cmp_pending *p,
    const bool *anchor, double ci_level, double root_deff, double df)
{
	size_t nb, nc;
	double *b = values_of(&nb, &p->b, anchor);
	double *c = values_of(&nc, &p->cu, NULL);
	/*
	 * Exact where a small side makes the normal approximation's tail far
	 * too heavy (5 against 100: 1e-8 exact, 8e-5 normal); the normal
	 * one, tie-corrected, from 11 values a side, where it holds and the
	 * exact enumeration over tied ranks would cost seconds a run.
	 */
	enum stats_mw_method how = (nb < nc ? nb : nc) <= 10 ?
	    STATS_MW_AUTO : STATS_MW_NORMAL;
	double a = (1 - ci_level) / 2, widen;
	struct stats_mw mw;
	struct stats_shift sh;
	int rc = -1;

	/*
	 * The exact tail only matters in the tail: away from it the normal
	 * approximation says the same, at a thousandth of the cost.
	 */
	if (stats_mann_whitney(&mw, b, nb, c, nc, STATS_MW_NORMAL))
		goto out;
	if (how != STATS_MW_NORMAL && fmin(mw.p_greater, mw.p_less) < 0.01 &&
	    stats_mann_whitney(&mw, b, nb, c, nc, how))
		goto out;
	/* The interval's k from the normal approximation once either side
	 * holds 20 values: there it is within a rank of the exact one. */
	if ((nb > nc ? nb : nc) >= 20)
		how = STATS_MW_NORMAL;
	if (stats_hodges_lehmann(&sh, b, nb, c, nc, ci_level, how) ||
	    sh.level_short)
		goto out;
	out->p_greater = shrink(mw.p_greater, root_deff, df);
	out->p_less = shrink(mw.p_less, root_deff, df);
	/* The interval widens with the design effect, and the t of df. */
	widen = root_deff * stats_t_quantile(1 - a, df) /
	    stats_norm_quantile(1 - a);
	out->shift = sh.estimate;
	out->lo = sh.estimate - (sh.estimate - sh.lo) * widen;
	out->hi = sh.estimate + (sh.hi - sh.estimate) * widen;
	out->rank = true;
	rc = 0;
out:
	jg_error_clear();
	free(b);
	free(c);
	return rc;
}

/* log of the number of ways to choose k of n. */
static double
log_choose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/* P(X >= k) for X binomial(n, f), summed from the smaller tail. */
static double
binom_upper(long k, long n, double f)
{
	double sum = 0;

	if (k <= 0)
		return 1;
	if (k > n)
		return 0;
	for (long i = k; i <= n; i++) {
		double lp = log_choose((double)n, (double)i) +
		    (double)i * log(f) + (double)(n - i) * log1p(-f);

		sum += exp(lp);
	}
	return fmin(sum, 1);
}

/*
 * Small counts of events (metrics.h by_means): the exact conditional test
 * of two Poisson rates.  Given the K events of both sides, the current
 * side's share is binomial(K, n_cur / (n_cur + n_base)) when the rates are
 * equal; its tails, read as z and shrunk by the sessions' design effect,
 * replace the t test's p-values, whose normal tails are far too thin for a
 * mean of five counts near zero (a block in each of five iterations of a
 * scene that has one every fifth).  Counts that are not whole numbers
 * keep the t test.
 */
static void
count_test(struct cmp_model *out, const struct cmp_pending *p,
    const bool *anchor, double root_deff, double df)
{
	double sb = 0, sc = 0, nb = 0, nc = 0, f;

	for (size_t i = 0; i < p->b.n; i++) {
		if (anchor && p->b.run[i] >= 0 && !anchor[p->b.run[i]])
			continue;
		if (p->b.v[i] < 0 || p->b.v[i] != floor(p->b.v[i]))
			return;
		sb += p->b.v[i];
		nb++;
	}
	for (size_t i = 0; i < p->cu.n; i++) {
		if (p->cu.v[i] < 0 || p->cu.v[i] != floor(p->cu.v[i]))
			return;
		sc += p->cu.v[i];
		nc++;
	}
	if (!nb || !nc || sb + sc > 1e6)
		return;
	f = nc / (nc + nb);
	out->p_greater = shrink(binom_upper((long)sc, (long)(sb + sc), f),
	    root_deff, df);
	out->p_less = shrink(binom_upper((long)sb, (long)(sb + sc), 1 - f),
	    root_deff, df);
}

void
cmp_model_test(struct cmp_model *out, const struct cmp_pending *orig,
    const struct cmp_session_kind *sk, double center, const bool *anchor,
    double offset, const struct cmp_test_opts *o)
{
	struct sessions gb = { 0 }, gc = { 0 };
	struct cmp_pending moved;
	const struct cmp_pending *p = orig;
	struct side b, c;
	bool log_scale = use_log(p);
	double vw, vb, vr, dfw, q, base, den, deff, naive, min_p, df_b;
	double b_plain;
	bool rank_only;

	memset(out, 0, sizeof(*out));
	moved.cu.v = NULL;
	if (offset != 0) {
		moved = *orig;
		moved.cu.v = xcalloc(orig->cu.n + 1, sizeof(double));
		for (size_t i = 0; i < orig->cu.n; i++)
			moved.cu.v[i] = log_scale ? orig->cu.v[i] *
			    exp(-offset) : orig->cu.v[i] - offset;
		p = &moved;
	}
	out->log_scale = log_scale;
	group(&gb, &p->b, log_scale, anchor);
	group(&gc, &p->cu, log_scale, NULL);
	out->sessions_base = gb.nr;
	out->sessions_cur = gc.nr;
	dfw = (double)(gb.values + gc.values) - (double)(gb.nr + gc.nr);
	out->untestable = dfw <= 0 || !gb.nr || !gc.nr;
	if (out->untestable) {
		out->d = out->se = out->df = out->p_greater = NAN;
		out->p_less = out->shift = out->lo = out->hi = NAN;
		out->sd_within = out->sd_session = NAN;
		goto out;
	}
	vw = fmax((gb.ss + gc.ss) / dfw,
	    rounding_floor(p->metric, center, log_scale));
	if (!metric_kind_is_log(p->metric->kind))
		vb = sk->used * sk->used * vw;
	else if (log_scale)
		vb = sk->used * sk->used;
	else
		vb = sk->used * center * sk->used * center;
	df_b = sk->df;
	/*
	 * The metric's own sessions, when they show it moves more than its
	 * kind: metrics of one kind do not all feel a session alike (a share
	 * of janky frames moves a lot when frames sit near the deadline,
	 * little when they are far from it).  Its own estimate replaces the
	 * kind's only when an F test says its sessions differ more than the
	 * kind's spread explains (p < CMP_OWN_P): one metric's estimate is
	 * noisy, and reading noise either way costs power or false alarms.
	 */
	if (p->s_own >= 2 && p->values_own > p->s_own &&
	    metric_kind_is_log(p->metric->kind) == log_scale) {
		double nd = (double)p->s_own - 1, w = o->prior_runs;
		double dw = (double)(p->values_own - p->s_own);
		double f = p->msb_own / (p->msw_own + p->n0_own * vb);
		double own = (w * vb + nd * p->vb_own) / (w + nd);

		if (own > vb && stats_f_sf(f, nd, dw) < CMP_OWN_P) {
			vb = own;
			df_b = w > 0 ? (w + nd) * (w + nd) / nd : nd;
		}
	}
	out->sd_within = sqrt(vw);
	out->sd_session = sqrt(vb);
	side_of(&b, &gb, vb, vw);
	side_of(&c, &gc, vb, vw);
	base = log_scale ? exp(b.mean) : b.mean;

	/*
	 * The rank test where it can decide: its smallest p-value, shrunk by
	 * the sessions' design effect, must be well below the level a lone
	 * change is tested at in this comparison (a test that can only just
	 * reach it has no power); else, as with one baseline run of 5
	 * against 5, the t test on the session means, whose evidence is not
	 * bounded by the number of orderings -- unless the values have a
	 * long tail.
	 */
	/*
	 * The design effect for the rank test, with the within spread ranks
	 * feel (rank_within()): a long-tailed metric's variance would make a
	 * session's shift look small next to it, though its ranks move.
	 */
	{
		const struct cmp_sample *sides[2] = { &p->b, &p->cu };
		const struct sessions *gs[2] = { &gb, &gc };

		vr = rank_within(sides, gs, log_scale, anchor);
		vr = isnan(vr) ? vw : fmax(fmin(vr, vw),
		    rounding_floor(p->metric, center, log_scale));
		naive = (vb + vr) * ((double)1 / (double)gc.values +
		    (double)1 / (double)gb.values);
		out->deff = (vb * (b.plain_b + c.plain_b) + vr *
		    ((double)1 / (double)gc.values + (double)1 /
		    (double)gb.values)) / naive;
	}
	deff = fmax(out->deff, 1);
	/* The rank test's df: only its session part is estimated. */
	b_plain = vb * (b.plain_b + c.plain_b);
	out->df = isfinite(df_b) && df_b > 0 && b_plain > 0 ?
	    naive * deff * naive * deff / (b_plain * b_plain / df_b) :
	    INFINITY;
	min_p = exp(-log_choose((double)(gb.values + gc.values),
	    (double)gc.values));
	out->d = c.mean - b.mean;
	/*
	 * A long tail (the variance over 2.5 times what ranks feel: a p99, a
	 * sum of block walls) stays with the rank test even where it cannot
	 * reach the level: a mean would follow one spike.
	 */
	rank_only = !p->metric->by_means && vw > 2.5 * vr;
	if (!p->metric->by_means &&
	    (rank_only || shrink(min_p, sqrt(deff), out->df) * 10 <=
	    o->level) &&
	    !rank_test(out, p, anchor, o->ci_level, sqrt(deff), out->df)) {
		/* The session model's SE of plain means, for `detectable`. */
		out->se = sqrt(naive * deff);
		goto out;
	}
	out->rank = false;
	out->se = sqrt(b.var + c.var);
	den = (b.var_w + c.var_w) * (b.var_w + c.var_w) / dfw;
	if (isfinite(df_b) && df_b > 0)
		den += (b.var_b + c.var_b) * (b.var_b + c.var_b) / df_b;
	out->df = den > 0 ? out->se * out->se * out->se * out->se / den :
	    INFINITY;
	if (out->se > 0) {
		out->p_greater = stats_t_sf(out->d / out->se, out->df);
		out->p_less = stats_t_sf(-out->d / out->se, out->df);
	} else {
		out->p_greater = out->d > 0 ? 0 : 1;
		out->p_less = out->d < 0 ? 0 : 1;
	}
	if (p->metric->by_means)
		count_test(out, p, anchor, sqrt(deff), out->df);
	q = stats_t_quantile(1 - (1 - o->ci_level) / 2, out->df);
	out->shift = unscale(out->d, base, log_scale);
	out->lo = unscale(out->d - q * out->se, base, log_scale);
	out->hi = unscale(out->d + q * out->se, base, log_scale);
out:
	free(moved.cu.v);
	free(gb.s);
	free(gc.s);
}

double
cmp_model_detectable(const struct cmp_model *m, double center,
    bool higher_is_better, double alpha)
{
	double q, d;

	if (m->untestable || !(alpha > 0 && alpha < 1))
		return NAN;
	q = stats_t_quantile(1 - alpha, m->df);
	d = q * m->se;
	if (!m->log_scale)
		return d;
	/* The worse way is up for times, down for fps (not a log kind). */
	return higher_is_better ? -center * expm1(-d) : center * expm1(d);
}

/* ---- the trend line's step ---------------------------------------------- */

int
cmp_step_find(double *by, const struct cmp_pending *p, const int *order,
    size_t nr, bool higher_is_better)
{
	bool log_scale = use_log(p);
	double *x = xcalloc(nr + 2, sizeof(*x));
	int *at = xcalloc(nr + 2, sizeof(*at));
	double sign = higher_is_better ? -1 : 1, best = -INFINITY;
	size_t m = 0;
	int found = -1;

	*by = NAN;
	/* One point per baseline run that has values, oldest first ... */
	for (size_t k = 0; k < nr; k++) {
		double sum = 0;
		size_t n = 0;

		for (size_t i = 0; i < p->b.n; i++)
			if (p->b.run[i] == order[k]) {
				sum += on_scale(p->b.v[i], log_scale);
				n++;
			}
		if (n) {
			x[m] = sum / (double)n;
			at[m++] = (int)k;
		}
	}
	/* ... and tonight's. */
	if (p->cu.n) {
		double sum = 0;

		for (size_t i = 0; i < p->cu.n; i++)
			sum += on_scale(p->cu.v[i], log_scale);
		x[m] = sum / (double)p->cu.n;
		at[m++] = (int)nr;
	}
	for (size_t j = 2; m >= 3 && j < m; j++) {
		double mb = 0, ma = 0, ss = 0, se, stat;

		for (size_t i = 0; i < j; i++)
			mb += x[i];
		for (size_t i = j; i < m; i++)
			ma += x[i];
		mb /= (double)j;
		ma /= (double)(m - j);
		for (size_t i = 0; i < m; i++) {
			double r = x[i] - (i < j ? mb : ma);

			ss += r * r;
		}
		se = m > 2 ? sqrt(ss / (double)(m - 2) *
		    (1.0 / (double)j + 1.0 / (double)(m - j))) : 0;
		stat = sign * (ma - mb) / (se > 0 ? se : 1e-12);
		if (stat > best) {
			best = stat;
			found = at[j];
			*by = sign * (log_scale ? exp(ma) - exp(mb) : ma - mb);
		}
	}
	free(x);
	free(at);
	return found;
}
