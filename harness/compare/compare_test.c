/*
 * compare_test.c: the test of one entry under the session model
 * (compare_session.c draws the model; docs/method.md, step 5, says which test
 * decides).
 *
 * Each side's mean weights its sessions by 1 / (sb^2 + sw^2 / n); the
 * difference d = cur - base has se^2 = var(cur) + var(base), and
 * t = d / se is referred to Student's t with Satterthwaite's degrees of
 * freedom for the two variance parts.  The interval d +- q se is turned
 * back into the metric's unit (for times, base (e^d - 1)).  The rank test
 * (Mann-Whitney, read as z and shrunk by the root of the design effect)
 * decides instead for values with a long tail, and, where the sample
 * sizes let it reach the level, for those between (CMP_LIGHT_TAIL) and
 * for the sums of block walls; small counts of events are the exact test
 * of two Poisson rates.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "error.h"
#include "metrics.h"
#include "quantile.h"
#include "stats.h"
#include "xalloc.h"
#include "banned.h"

/*
 * The other tests take a metric's own between-session spread in place of
 * its kind's only when an F test says its sessions differ more (p below
 * this): their p-values are bounded (ranks) or were measured calibrated
 * (counts) with the kind's, and one metric's estimate is noisy.
 */
#define CMP_OWN_P 0.01

/*
 * Whether a side of a sum of event walls (block_ms) saw no event at all:
 * every value it counts is 0.
 */
static bool
without_events(const struct cmp_sample *s, const bool *anchor)
{
	for (size_t i = 0; i < s->n; i++)
		if ((!anchor || s->run[i] < 0 || anchor[s->run[i]]) &&
		    s->v[i] != 0)
			return false;
	return true;
}

/*
 * The speed prior or a metric's own sessions are named as where an entry's
 * session spread came from when they raised it by 10 % or more (its
 * variance by 21 %); less than that, and it reads as its kind's.
 */
#define CMP_SPREAD_NAMED 1.21

/* A side's weighted mean and the two parts of its variance. */
struct side {
	double mean, var, var_b, var_w;
	double var_o;		/* of var, the offsets' (known: no df) */
	double plain_b;		/* sum (n_s / N)^2: sessions in a plain mean */
	double plain_o;		/* sum (n_s / N)^2 vo_s: their offsets' */
};

static void
side_of(struct side *out, const struct cmp_sessions *g, double vb, double vw)
{
	double sw = 0, swy = 0, nn = (double)g->values;

	out->var_b = out->var_w = out->plain_b = out->var_o = 0;
	out->plain_o = 0;
	for (size_t k = 0; k < g->nr; k++) {
		double w = 1 / (vb + g->s[k].vo + vw / (double)g->s[k].n);
		double share = (double)g->s[k].n / nn;

		sw += w;
		swy += w * g->s[k].mean;
		out->plain_b += share * share;
		out->plain_o += share * share * g->s[k].vo;
	}
	out->mean = swy / sw;
	out->var = 1 / sw;
	for (size_t k = 0; k < g->nr; k++) {
		double f = 1 / (vb + g->s[k].vo + vw / (double)g->s[k].n) / sw;

		out->var_b += f * f * vb;
		out->var_o += f * f * g->s[k].vo;
		out->var_w += f * f * vw / (double)g->s[k].n;
	}
}

/* From the test's scale back to the unit, relative to `base`. */
static double
unscale(double d, double base, bool log_scale)
{
	return log_scale ? base * expm1(d) : d;
}

/* The median of every value of `s`; NAN for none. */
static double
median_of(const struct cmp_sample *s)
{
	double q;

	return s->n && !quantile(&q, s->v, s->n, 0.5) ? q : NAN;
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
 * How the phone's speed moves this entry: a jank share, a frame rate or a
 * count of dropped frames is a function of how fast the scene's frames
 * come.  Within a session the iterations' speeds differ, so the entry's
 * slope on its scene's log speed (compare_entry.c, scene_speed()), fitted
 * within the sessions of both sides (what a session or tonight's change
 * does to both is taken out with the session's means), says how much: a
 * share of frames near the deadline moves by several of its within-session
 * spreads when the phone is 2 % slower, one far from it not at all, so a
 * ratio to the within spread cannot be one number for every scene.  0 when
 * fewer than three degrees of freedom are left to fit it.  Only the
 * baseline runs with anchor[run] set count when `anchor` is not NULL.
 * *sd (unless NULL) gets the within-session standard deviation of the
 * speeds it was fitted over (0 when it was not).
 */
double
cmp_speed_slope(const struct cmp_pending *p, const bool *anchor, double *sd)
{
	const struct cmp_sample *side[2] = { &p->b, &p->cu };
	double sxx = 0, sxy = 0, noise = 0, df = 0;

	if (sd)
		*sd = 0;

	for (int k = 0; k < 2; k++) {
		const struct cmp_sample *s = side[k];

		if (!s->speed)
			continue;
		/* Values of one session come together (gather order). */
		for (size_t i = 0, j; i < s->n; i = j) {
			double mx = 0, my = 0, m = 0;

			for (j = i; j < s->n && s->run[j] == s->run[i] &&
			    s->sess[j] == s->sess[i]; j++)
				if (isfinite(s->speed[j])) {
					mx += s->speed[j];
					my += s->v[j];
					m++;
				}
			if (m < 2 || (k == 0 && anchor && s->run[i] >= 0 &&
			    !anchor[s->run[i]]))
				continue;
			mx /= m;
			my /= m;
			for (size_t q = i; q < j; q++)
				if (isfinite(s->speed[q])) {
					sxx += (s->speed[q] - mx) *
					    (s->speed[q] - mx);
					sxy += (s->speed[q] - mx) *
					    (s->v[q] - my);
					noise += s->speed_var[q] *
					    (m - 1) / m;
				}
			df += m - 1;
		}
	}
	if (df - 1 < 3 || !(sxx > 0))
		return 0;
	if (sd)
		*sd = sqrt(sxx / df);
	/*
	 * The speeds are measured with the sampling error of a few hundred
	 * frames, which flattens the slope (regression dilution): their
	 * spread less that error is the speeds' own, but never taken below
	 * half of what was seen (a slope at most doubled).
	 */
	sxx = fmax(sxx - noise, 0.5 * sxx);
	return sxy / sxx;
}

/*
 * How much the phone's speed moves this entry, as a session variance: the
 * slope squared times the session spread of the speed (the frame-time
 * kind's, `speed_vb`, on the log scale; what is left of it after the
 * offsets when the entry's values had theirs taken off, p->speed_off).
 * The slope squared, not less its sampling variance: a prior that errs
 * wide.
 */
static double
speed_prior(const struct cmp_pending *p, const bool *anchor, double speed_vb)
{
	double slope;

	if (!(speed_vb > 0))
		return 0;
	slope = cmp_speed_slope(p, anchor, NULL);
	return slope * slope * speed_vb;
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

/* P(X >= k) for X binomial(n, f) (compare_int.h). */
double
cmp_binom_upper(long k, long n, double f)
{
	double sum = 0;

	if (k <= 0)
		return 1;
	if (k > n)
		return 0;
	for (long i = k; i <= n; i++) {
		double t = exp(log_choose((double)n, (double)i) +
		    (double)i * log(f) + (double)(n - i) * log1p(-f));

		sum += t;
		/* Past the mode the terms only shrink: stop where they no
		 * longer change the sum (a pile of 10^5 frames, step 6). */
		if ((double)i > (double)(n + 1) * f && t < sum * DBL_EPSILON)
			break;
	}
	return fmin(sum, 1);
}

/*
 * Small counts of events (metrics.h by_means): the conditional test of
 * two Poisson rates.  Given the K events of both sides, the current
 * side's share is binomial(K, n_cur / (n_cur + n_base)) when the rates are
 * equal; its tails, read as z and shrunk by the sessions' design effect,
 * replace the t test's p-values, whose normal tails are far too thin for a
 * mean of five counts near zero (a block in each of five iterations of a
 * scene that has one every fifth).  Counts that are not whole numbers
 * keep the t test.
 *
 * The tails are mid-p values: P(beyond the count seen) + P(the count
 * seen) / 2 (Lancaster's mid-p, the usual remedy for a discrete test's
 * conservatism).  The exact tail counts all of the observed count against
 * the change, and at the level one metric of some 500 is tested at the
 * levels a sum of ten or twenty events can attain lie far apart, so the
 * exact test's size falls well short of its alpha: at 15 iterations it
 * passed a rate 1.5 blocks an iteration higher on nights whose estimate
 * had reached T, at raw p a few times what Holm asked for (NEWS: the
 * method's history, step 4).  The mid-p's size is about alpha on average
 * over the counts; the false alarms it allows are measured with the rest
 * (docs/validation.md).
 * `df` is that of the session spread's part alone: the counts' own
 * variance is known (Poisson), not estimated.
 */
static void
count_test(struct cmp_model *out, const struct cmp_pending *p,
    const bool *anchor, double root_deff, double df)
{
	double sb = 0, sc = 0, nb = 0, nc = 0, f, upper, lower, at;

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
	upper = cmp_binom_upper((long)sc, (long)(sb + sc), f);
	lower = cmp_binom_upper((long)sb, (long)(sb + sc), 1 - f);
	at = fmax(upper + lower - 1, 0);	/* P(the count seen) */
	out->p_greater = shrink(upper - at / 2, root_deff, df);
	out->p_less = shrink(lower - at / 2, root_deff, df);
}

void
cmp_model_test(struct cmp_model *out, const struct cmp_pending *orig,
    const struct cmp_session_kind *sk, double center, const bool *anchor,
    double offset, const struct cmp_test_opts *o)
{
	struct cmp_sessions gb = { 0 }, gc = { 0 };
	struct cmp_pending moved;
	const struct cmp_pending *p = orig;
	struct side b, c;
	bool log_scale = cmp_use_log(p);
	double vw, vw_own, vb, vr, dfw, q, base, den, deff, naive, min_p, df_b;
	double b_plain, df_session;
	bool rank_only, by_means, no_events = false;

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
	cmp_group(&gb, &p->b, log_scale, anchor);
	cmp_group(&gc, &p->cu, log_scale, NULL);
	/* An offset's variance is the log scale's (compare_offset.c). */
	if (!log_scale && metric_kind_is_log(p->metric->kind))
		for (int k = 0; k < 2; k++) {
			struct cmp_sessions *g = k ? &gc : &gb;

			for (size_t i = 0; i < g->nr; i++)
				g->s[i].vo *= center * center;
		}
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
	vw_own = fmax((gb.ss + gc.ss) / dfw,
	    cmp_rounding_floor(p->metric, center, log_scale));
	vw = vw_own;
	/*
	 * The metric's entries share a prior for it (cmp_moderate_within());
	 * the shape of this entry's own values (a long tail, what ranks
	 * feel) stays its own.
	 */
	if (log_scale && p->mod_d0 > 0 && isfinite(p->mod_s2)) {
		vw = fmax((p->mod_d0 * p->mod_s2 + (gb.ss + gc.ss)) /
		    (p->mod_d0 + dfw), cmp_rounding_floor(p->metric, center,
		    log_scale));
		dfw += p->mod_d0;
	}
	if (!metric_kind_is_log(p->metric->kind))
		vb = sk->used * sk->used * vw;
	else if (log_scale)
		vb = sk->used * sk->used;
	else
		vb = sk->used * center * sk->used * center;
	df_b = sk->df;
	out->spread_from = CMP_SPREAD_KIND;
	/*
	 * The jank kind's prior, a share of the within spread, is the
	 * entry's speed_prior() where that is larger: weighted as the kind's
	 * prior is (prior_runs against the sessions behind its estimate), so
	 * it decides the first nights and fades as the window fills.
	 */
	if (p->metric->kind == METRIC_KIND_JANK && o->prior_runs > 0) {
		double sens = speed_prior(p, anchor, p->speed_off ?
		    o->speed_vb_left : o->speed_vb);
		double v0 = sk->prior * sk->prior * vw;
		double nd = isnan(sk->estimate) ? 0 : sk->sessions - 1;

		if (sens > v0) {
			double add = o->prior_runs / (o->prior_runs + nd) *
			    (sens - v0);

			/* Faded into a full window, it is the kind's. */
			if (vb + add >= CMP_SPREAD_NAMED * vb)
				out->spread_from = CMP_SPREAD_SPEED;
			vb += add;
		}
	}
	/*
	 * The within spread ranks feel (cmp_rank_within()), and with it
	 * which test decides: a long tail's variance is far above it.
	 */
	{
		const struct cmp_sample *sides[2] = { &p->b, &p->cu };
		const struct cmp_sessions *gs[2] = { &gb, &gc };

		/*
		 * Rounding makes values cluster on a few numbers at the
		 * level of the coarser side: on a log scale a whole-ms p50
		 * of 5 rounds five times as coarsely as one of 12, so a
		 * build twice as fast must not have its ties read as a
		 * tail by the baseline's level alone.
		 */
		double floor_r = fmax(cmp_rounding_floor(p->metric, center,
		    log_scale), cmp_rounding_floor(p->metric,
		    median_of(&p->cu), log_scale));

		vr = cmp_rank_within(sides, gs, log_scale, anchor);
		vr = isnan(vr) ? vw_own : fmax(fmin(vr, vw_own), floor_r);
	}
	rank_only = !p->metric->by_means && vw_own > 2.5 * vr;
	/*
	 * A sum of event walls (block_ms) against a side that saw no event:
	 * the zeros have no spread, so a t test would take the other side's
	 * spread of walls for the noise and call five iterations that each
	 * caught a block a certain change, when five without one were as
	 * likely (one baseline run at a rate of one block every two
	 * iterations).  What the values can say then is only which of them
	 * had an event, and the ordering of the values says that: the rank
	 * test decides, even where it cannot reach the level (the count of
	 * `blocks` beside it, a conditional Poisson test, agrees).
	 */
	if (p->metric->kind == METRIC_KIND_BLOCKS && !p->metric->by_means &&
	    (without_events(&p->b, anchor) || without_events(&p->cu, NULL)))
		no_events = rank_only = true;
	by_means = p->metric->kind != METRIC_KIND_BLOCKS &&
	    metric_kind_is_log(p->metric->kind) == log_scale &&
	    vw_own <= CMP_LIGHT_TAIL * vr;
	/*
	 * A frame percentile carried by a handful of frames: whether each
	 * iteration caught three or five long frames decides its value, and
	 * the spread of five iterations that all caught few says nothing of
	 * the next session's (docs/method.md, step 5).  The ranks say only
	 * which side is higher.
	 */
	if (p->thin_tail) {
		by_means = false;
		rank_only = true;
	}
	/*
	 * The metric's own sessions, when they show it moves more than its
	 * kind: metrics of one kind do not all feel a session alike (a share
	 * of janky frames moves a lot when frames sit near the deadline,
	 * little when they are far from it; a whole-ms p90 jumps a step when
	 * the phone is a few percent slower).  The t test on session means
	 * (by_means), whose p-value follows any session spread it underrates,
	 * takes its own estimate shrunk toward its kind's entries by how much
	 * they differ beyond noise (cmp_own_shrunk()) whenever that is the
	 * larger: taken whole, an estimate from 20 sessions is large by
	 * chance for half the metrics, and the gate missed more of the
	 * bench's worse jank shares and slower p90s than it does shrunk,
	 * with false alarms within their targets either way (NEWS: the
	 * method's history, step 2).
	 * The other tests take it, pulled toward the kind's by the prior's
	 * weight, only when an F test says so (CMP_OWN_P).  Never smaller
	 * than the kind's: a metric's few sessions cannot talk the spread
	 * down.
	 */
	if (by_means) {
		double dfo, r = cmp_own_shrunk(p, sk, &dfo);
		double own = metric_kind_is_log(p->metric->kind) ? r : r * vw;

		if (!isnan(own) && own > vb) {
			if (own >= CMP_SPREAD_NAMED * vb)
				out->spread_from = CMP_SPREAD_OWN;
			vb = own;
			df_b = dfo;
		}
	} else if (p->s_own >= 2 && p->values_own > p->s_own &&
	    metric_kind_is_log(p->metric->kind) == log_scale) {
		double nd = (double)p->s_own - 1, w = o->prior_runs;
		double dw = (double)(p->values_own - p->s_own);
		double f = p->msb_own / (p->msw_own + p->n0_own * vb);
		double own = (w * vb + nd * p->vb_own) / (w + nd);

		if (own > vb && stats_f_sf(f, nd, dw) < CMP_OWN_P) {
			if (own >= CMP_SPREAD_NAMED * vb)
				out->spread_from = CMP_SPREAD_OWN;
			vb = own;
			df_b = w > 0 ? (w + nd) * (w + nd) / nd : nd;
		}
	}
	/*
	 * One session a side: the difference of two sessions' draws, which
	 * nothing averages, and whose spread the baseline cannot show (it
	 * is the prior's).  Sessions have heavy tails, one scene or one
	 * launch now and then far off on its own: weighed as a draw of
	 * CMP_TAIL_DF's t (docs/method.md, step 5).  With a second session
	 * on either side the prior's df hold again: a gate measures another
	 * session before its last look, and a second baseline run shows the
	 * spread between sessions.
	 */
	if (gb.nr == 1 && gc.nr == 1)
		df_b = fmin(df_b, CMP_TAIL_DF);
	out->sd_within = sqrt(vw);
	out->sd_session = sqrt(vb);
	side_of(&b, &gb, vb, vw);
	side_of(&c, &gc, vb, vw);
	base = log_scale ? exp(b.mean) : b.mean;

	/*
	 * The rank test, for values with a tail (not by_means), where it can
	 * decide: its smallest p-value, shrunk by the sessions' design
	 * effect, must be well below the level a lone change is tested at in
	 * this comparison (a test that can only just reach it has no power);
	 * else, as with one baseline run of 5 against 5, the t test on the
	 * session means, whose evidence is not bounded by the number of
	 * orderings -- unless the tail is long.
	 *
	 * The design effect for the rank test, with the within spread ranks
	 * feel: a long-tailed metric's variance would make a session's shift
	 * look small next to it, though its ranks move.
	 */
	naive = (vb + vr) * ((double)1 / (double)gc.values +
	    (double)1 / (double)gb.values);
	out->deff = (vb * (b.plain_b + c.plain_b) + b.plain_o + c.plain_o +
	    vr * ((double)1 / (double)gc.values + (double)1 /
	    (double)gb.values)) / naive;
	deff = fmax(out->deff, 1);
	/* The rank test's df: only its session part is estimated. */
	b_plain = vb * (b.plain_b + c.plain_b);
	out->df = isfinite(df_b) && df_b > 0 && b_plain > 0 ?
	    naive * deff * naive * deff / (b_plain * b_plain / df_b) :
	    INFINITY;
	df_session = out->df;
	min_p = exp(-log_choose((double)(gb.values + gc.values),
	    (double)gc.values));
	out->d = c.mean - b.mean;
	/*
	 * A long tail (the variance over 2.5 times what ranks feel: a p99, a
	 * sum of block walls) stays with the rank test even where it cannot
	 * reach the level: a mean would follow one spike.
	 */
	if (!p->metric->by_means && !by_means &&
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
		count_test(out, p, anchor, sqrt(deff), df_session);
	/* Where the ranks' interval could not be had, still no more
	 * evidence than the rarest ordering of these values. */
	if (no_events) {
		double floor_p = shrink(min_p, sqrt(deff), df_session);

		out->p_greater = fmax(out->p_greater, floor_p);
		out->p_less = fmax(out->p_less, floor_p);
	}
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
