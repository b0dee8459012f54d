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
 *         cannot be known better than that); for a time metric with
 *         enough near-normal entries, moderated over them first
 *         (cmp_moderate_within, at the end of this file).
 *   sb^2  is estimated per kind of metric from the baseline: for each
 *         metric, a one-way analysis of variance over the baseline's
 *         sessions gives (MSB - MSW) / n0; times average these (a slower
 *         phone moves all of them by the same fraction), the other kinds
 *         divide their sum by the sum of MSW (a session moves a count by
 *         a share of its own spread).  What a kind's many metrics share
 *         is the same handful of sessions, so the estimate has sessions
 *         - 1 degrees of freedom, however many metrics it averages
 *         (but for the frame times once the session offsets took off
 *         what every scene shares: what is left is each scenario's
 *         own, and (sessions - 1) x scenarios; compare_offset.c).  It
 *         is combined with the configured prior (session.<kind>) as
 *         (w v0 + (S - 1) v) / (w + S - 1), w = session.prior_runs: the
 *         prior alone with one baseline session (the first nights), the
 *         sessions' own spread once there are many.  The prior counts as
 *         known, so the combination's degrees of freedom are
 *         (w + S - 1)^2 / (S - 1), infinite for the prior alone.
 *
 * The test of one entry under this model is compare_test.c's.  The step
 * finder of the trend line (docs/method.md, step 8) is here too: it
 * works on the same scale, on the mean of each run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
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
		s->speed = xreallocarray(s->speed, s->alloc,
		    sizeof(*s->speed));
		s->speed_var = xreallocarray(s->speed_var, s->alloc,
		    sizeof(*s->speed_var));
		s->off_var = xreallocarray(s->off_var, s->alloc,
		    sizeof(*s->off_var));
		s->scene = xreallocarray(s->scene, s->alloc,
		    sizeof(*s->scene));
	}
	s->scene[s->n] = NULL;
	s->speed[s->n] = NAN;
	s->speed_var[s->n] = 0;
	s->off_var[s->n] = 0;
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
	free(s->speed);
	free(s->speed_var);
	free(s->off_var);
	free(s->scene);
	s->v = s->speed = s->speed_var = s->off_var = NULL;
	s->scene = NULL;
	s->run = s->sess = NULL;
	s->n = s->alloc = 0;
}


/* ---- sessions ----------------------------------------------------------- */


static bool
all_positive(const struct cmp_sample *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (!(s->v[i] > 0))
			return false;
	return true;
}

/* Times go on the log scale when every value allows it. */
bool
cmp_use_log(const struct cmp_pending *p)
{
	return metric_kind_is_log(p->metric->kind) && all_positive(&p->b) &&
	    all_positive(&p->cu);
}

double
cmp_on_scale(double x, bool log_scale)
{
	return log_scale ? log(x) : x;
}

/*
 * The session of value i, added when new.  Values of one session come
 * together in gather order, so the last session is tried first.
 */
static struct cmp_sess *
session_of(struct cmp_sessions *ss, const struct cmp_sample *s, size_t i)
{
	struct cmp_sess *x;

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
	x->mean = x->ss = x->vo = 0;
	return x;
}

/* Group `s` (only runs with anchor[run] set, when anchor is given). */
void
cmp_group(struct cmp_sessions *out, const struct cmp_sample *s,
    bool log_scale,     const bool *anchor)
{
	out->nr = out->values = 0;
	out->ss = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct cmp_sess *x;

		if (anchor && s->run[i] >= 0 && !anchor[s->run[i]])
			continue;
		x = session_of(out, s, i);
		x->n++;
		x->mean += cmp_on_scale(s->v[i], log_scale);
		x->vo += s->off_var[i];
	}
	for (size_t k = 0; k < out->nr; k++) {
		out->s[k].mean /= (double)out->s[k].n;
		out->s[k].vo /= (double)out->s[k].n;
		out->values += out->s[k].n;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct cmp_sess *x;
		double dy;

		if (anchor && s->run[i] >= 0 && !anchor[s->run[i]])
			continue;
		x = session_of(out, s, i);
		dy = cmp_on_scale(s->v[i], log_scale) - x->mean;
		x->ss += dy * dy;
	}
	for (size_t k = 0; k < out->nr; k++)
		out->ss += out->s[k].ss;
}

/* What rounding alone makes values differ by, as a variance. */
double
cmp_rounding_floor(const struct metric_def *m, double center, bool log_scale)
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
double
cmp_rank_within(const struct cmp_sample *const *side,
    const struct cmp_sessions *const *g, bool log_scale, const bool *anchor)
{
	double *d = NULL, cut, out = NAN;
	size_t n = 0, alloc = 0;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < side[k]->n; i++) {
			const struct cmp_sess *x = NULL;

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
			d[n++] = fabs(cmp_on_scale(side[k]->v[i], log_scale) -
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

/*
 * How the entries of a kind differ in their own between-session spread.
 * Metrics of one kind do not all feel a session alike (a share of janky
 * frames moves a lot when frames sit near the deadline, little when they
 * are far from it; a whole-ms p90 jumps a step when the phone is a few
 * percent slower), so an entry's own estimate says something its kind's
 * does not -- but from the baseline's few sessions, and mostly noise when
 * the kind's entries are in truth alike.  Each entry's own estimate r
 * (on the kind's scale: the variance on the log scale for times, a ratio
 * to the entry's within-session variance for the rest, unit m = its
 * within variance or 1) has, as a one-way analysis's (MSB - MSW) / n0,
 * sampling variance about
 *
 *	2 (m + n0 r)^2 / (dfb n0^2) + 2 m^2 / (dfw n0^2),
 *
 * so the spread of the true values is what the estimates' variance over
 * the kind's entries leaves beyond the mean of that (a method of moments,
 * as a random-effects meta-analysis estimates its between-study
 * variance), and an entry's own estimate is shrunk toward the kind's
 * mean by A / (A + its noise).  Alike entries (A = 0) all take their
 * kind's; one that truly moves more keeps the share of its own estimate
 * its precision earns.
 */
static double
own_unit(const struct cmp_pending *p)
{
	return metric_kind_is_log(p->metric->kind) ? p->msw_own : 1;
}

/* The entry's own estimate on its kind's scale. */
static double
own_ratio(const struct cmp_pending *p)
{
	return metric_kind_is_log(p->metric->kind) ? p->vb_own :
	    p->vb_own / p->msw_own;
}

static double
own_noise(double m, double r, double n0, double dfb, double dfw)
{
	return 2 * (m + n0 * r) * (m + n0 * r) / (dfb * n0 * n0) +
	    2 * m * m / (dfw * n0 * n0);
}

double
cmp_own_shrunk(const struct cmp_pending *p,
    const struct cmp_session_kind *sk, double *df)
{
	double m = own_unit(p), dfb, dfw, sv, b, mean = sk->own_mean;

	*df = NAN;
	if (p->s_own < 2 || p->values_own <= p->s_own ||
	    !(p->msw_own > 0) || !(p->n0_own > 0) || !(sk->own_spread > 0) ||
	    isnan(mean))
		return NAN;
	dfb = (double)p->s_own - 1;
	dfw = (double)(p->values_own - p->s_own);
	/* Its noise at the kind's mean: a large estimate is not taken
	 * for a noisy one. */
	sv = own_noise(m, fmax(mean, 0), p->n0_own, dfb, dfw);
	b = sk->own_spread / (sk->own_spread + sv);
	/* Shared sessions: the kind's mean has no more degrees of freedom
	 * than the entry's own estimate. */
	*df = dfb;
	return mean + b * (own_ratio(p) - mean);
}

/*
 * Whether values with within-session variance `msw` have no long tail:
 * what cmp_model_test() asks before it tests on session means, here on
 * the sessions given (the baseline's, or both sides' blocks).
 */
static bool
light_tailed(const struct cmp_sample *s, const struct cmp_sessions *g,
    const struct cmp_sample *s2, const struct cmp_sessions *g2,
    bool log_scale, double msw)
{
	const struct cmp_sample *sides[2] = { s, s2 };
	const struct cmp_sessions *gs[2] = { g, g2 };
	double vr = cmp_rank_within(sides, gs, log_scale, NULL);

	return isnan(vr) || msw <= CMP_LIGHT_TAIL * vr;
}

/* Account one entry's own estimate (mean squares, degrees) to its kind. */
static void
kind_account(struct cmp_kind_acc *acc, struct cmp_pending *p, double msb,
    double msw, double n0, double dfb, double dfw, bool light)
{
	p->vb_own = (msb - msw) / n0;
	p->s_own = (size_t)dfb + 1;	/* as sessions: dfb + 1 */
	p->msb_own = msb;
	p->msw_own = msw;
	p->n0_own = n0;
	p->values_own = (size_t)dfw + p->s_own;	/* values - sessions */
	acc->sum += p->vb_own;
	acc->sum_within += msw;
	acc->entries++;
	if (p->s_own > acc->sessions)
		acc->sessions = p->s_own;
	/* Only entries a test on session means may decide: a long tail's
	 * own estimate scatters far more than normal values' would. */
	if (light && msw > 0 && dfb > 0 && dfw > 0 && n0 > 0) {
		double m = own_unit(p), r = own_ratio(p);

		acc->own.n++;
		acc->own.sum += r;
		acc->own.sum2 += r * r;
		acc->own.noise[0] += m * m / (dfb * n0 * n0);
		acc->own.noise[1] += m / (dfb * n0);
		acc->own.noise[2] += 1 / dfb;
		acc->own.noise[3] += m * m / (dfw * n0 * n0);
	}
}

/*
 * Interleaved builds (jankgate ab): round r ran A, B, B, A, the blocks
 * 2r and 2r + 1 of each side.  The two blocks of one side in one round
 * differ by 2 sb^2 + sw^2 (1/n1 + 1/n2) on average, and by what the phone
 * drifted between them, which is at most the round's span: a slow trend
 * over the session, which ABBA takes out of the comparison, stays out of
 * sb^2 too, where an analysis over every block would count it.  Each pair
 * is a degree of freedom.
 */
static void
kind_add_pairs(struct cmp_kind_acc *acc, struct cmp_pending *p,
    const struct cmp_sessions *g, bool log_scale)
{
	double d2 = 0, inv = 0, ssw = 0, dfw = 0, pairs = 0;

	for (size_t k = 0; k < 2; k++) {
		ssw += g[k].ss;
		dfw += (double)g[k].values - (double)g[k].nr;
		for (size_t i = 0; i < g[k].nr; i++) {
			const struct cmp_sess *x = &g[k].s[i];

			if (x->sess < 0 || x->sess % 2)
				continue;
			for (size_t j = 0; j < g[k].nr; j++) {
				const struct cmp_sess *y = &g[k].s[j];

				if (y->run != x->run || y->sess != x->sess + 1)
					continue;
				d2 += (x->mean - y->mean) * (x->mean - y->mean);
				inv += 1 / (double)x->n + 1 / (double)y->n;
				pairs++;
			}
		}
	}
	if (!(pairs > 0) || !(dfw > 0))
		return;
	/* MSB = n0 sum d^2 / 2P, E = sw^2 + n0 sb^2, n0 = 2P / sum(1/n) */
	kind_account(acc, p, d2 / inv, ssw / dfw, 2 * pairs / inv, pairs,
	    dfw, light_tailed(&p->b, &g[0], &p->cu, &g[1], log_scale,
	    ssw / dfw));
}

void
cmp_kind_add(struct cmp_kind_acc *acc, struct cmp_pending *p)
{
	static const struct cmp_sample none;
	struct cmp_sessions g[2] = { { 0 }, { 0 } };
	bool log_scale = cmp_use_log(p);
	double grand = 0, msb = 0, n0, sum_n2 = 0, nn;
	size_t s_nr;

	if (metric_kind_is_log(p->metric->kind) && !log_scale)
		return;
	cmp_group(&g[0], &p->b, log_scale, NULL);
	if (acc->both) {
		cmp_group(&g[1], &p->cu, log_scale, NULL);
		kind_add_pairs(acc, p, g, log_scale);
		goto out;
	}
	/* One-way analysis of variance over the baseline's sessions. */
	s_nr = g[0].nr;
	if (s_nr < 2 || g[0].values <= s_nr)
		goto out;
	nn = (double)g[0].values;
	for (size_t k = 0; k < s_nr; k++) {
		grand += (double)g[0].s[k].n * g[0].s[k].mean;
		sum_n2 += (double)g[0].s[k].n * (double)g[0].s[k].n;
	}
	grand /= nn;
	for (size_t k = 0; k < s_nr; k++) {
		double dm = g[0].s[k].mean - grand;

		msb += (double)g[0].s[k].n * dm * dm;
	}
	msb /= (double)(s_nr - 1);
	n0 = (nn - sum_n2 / nn) / (double)(s_nr - 1);
	/* Not floored: rounding hides drift between sessions no less than
	 * within them, and a floor here would read it as none. */
	kind_account(acc, p, msb, g[0].ss / (nn - (double)s_nr), n0,
	    (double)(s_nr - 1), nn - (double)s_nr, light_tailed(&p->b, &g[0],
	    &none, &g[1], log_scale, g[0].ss / (nn - (double)s_nr)));
out:
	free(g[0].s);
	free(g[1].s);
}

void
cmp_kind_finish(struct cmp_session_kind *out, const struct cmp_kind_acc *acc,
    enum metric_kind kind, double prior, double prior_runs)
{
	double v0 = prior * prior, v, nd;

	out->prior = prior;
	out->sessions = (double)acc->sessions;
	out->estimate = out->own_mean = NAN;
	out->own_spread = 0;
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
	if (acc->own.n >= 2) {
		double n = acc->own.n, mean = acc->own.sum / n;
		double var = (acc->own.sum2 - n * mean * mean) / (n - 1);
		const double *t = acc->own.noise;
		double rb = fmax(mean, 0), noise = (2 * t[0] + 4 * rb * t[1] +
		    2 * rb * rb * t[2] + 2 * t[3]) / n;

		out->own_mean = mean;
		out->own_spread = fmax(var - noise, 0);
	}
	/* A spread every scene shares is one draw a session; what is left of
	 * it once the offsets took that off is drawn for each scenario on
	 * its own, and each draws the spread again. */
	nd = ((double)acc->sessions - 1) * fmax(acc->units, 1);
	if (prior_runs > 0) {
		out->used = sqrt((prior_runs * v0 + nd * v) /
		    (prior_runs + nd));
		out->df = (prior_runs + nd) * (prior_runs + nd) / nd;
	} else {
		out->used = sqrt(v);
		out->df = nd;
	}
}

/* ---- the test ----------------------------------------------------------- */

/* ---- the trend line's step ---------------------------------------------- */

int
cmp_step_find(double *by, const struct cmp_pending *p, const int *order,
    size_t nr, bool higher_is_better)
{
	bool log_scale = cmp_use_log(p);
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
				sum += cmp_on_scale(p->b.v[i], log_scale);
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
			sum += cmp_on_scale(p->cu.v[i], log_scale);
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


/* ---- the within spread, moderated over the entries of one metric ------ */

/*
 * The prior's degrees of freedom at most: when the entries scatter no more
 * than sampling explains, the fit says "infinite", a claim that a few
 * dozen entries cannot back.
 */
#define CMP_MOD_MAX_D0 100.0
/* Fewer entries of a metric than this estimate no prior. */
#define CMP_MOD_MIN_ENTRIES 5
/*
 * The residuals' kurtosis (mean z^4 / (mean z^2)^2 over every entry of the
 * metric, residuals from their session's mean) above which the metric is
 * left alone.  Normal values in sessions of 5 give 2.4 (the residuals of
 * a small group are lighter-tailed than the values), t with 5 df 2.6, 5 %
 * spikes 3.3; whole-ms percentiles a step or two apart stay under 4
 * (bench-compare).  Those are moderated too: with a window of a few runs
 * a p90's own spread has some 25 degrees of freedom, and at one metric's
 * share of the night t on 25 asks 4.6 standard errors where z asks 3.9.
 * Moderated, the gate finds a slower p90 on more nights, in a team's
 * first weeks and under drift, and unchanged nights fail no more often
 * (NEWS: "A team's first weeks"; docs/method.md, step 4).  The fit's
 * own degrees of freedom follow how far the entries' estimates scatter,
 * which rounding widens, so a metric a step or two apart is pulled less.
 * Above 4: a tail.
 */
#define CMP_MOD_MAX_KURT 4.0

/*
 * The raw within-session variance of p on its scale and its df; and, for
 * the shape of its residuals, the sums of their squares and fourth powers
 * in units of that variance (*z2, *z4) over *nz values.
 */
static bool
raw_within(const struct cmp_pending *p, double *s2, double *df, double *z2,
    double *z4, double *nz)
{
	struct cmp_sessions g[2] = { { 0 }, { 0 } };
	const struct cmp_sample *side[2] = { &p->b, &p->cu };
	bool log_scale = cmp_use_log(p), ok;

	for (int k = 0; k < 2; k++)
		cmp_group(&g[k], side[k], log_scale, NULL);
	*df = (double)(g[0].values + g[1].values) - (double)(g[0].nr +
	    g[1].nr);
	*s2 = *df > 0 ? (g[0].ss + g[1].ss) / *df : 0;
	ok = log_scale && *df > 0 && *s2 > 0 && isfinite(*s2);
	for (int k = 0; ok && k < 2; k++)
		for (size_t i = 0; i < side[k]->n; i++) {
			double r = log(side[k]->v[i]) -
			    session_of(&g[k], side[k], i)->mean;

			*z2 += r * r / *s2;
			*z4 += (r * r / *s2) * (r * r / *s2);
			*nz += 1;
		}
	free(g[0].s);
	free(g[1].s);
	return ok;
}

void
cmp_moderate_within(struct cmp_pending *pend, size_t nr)
{
	double *e = xcalloc(nr + 1, sizeof(*e)), *d = xcalloc(nr + 1,
	    sizeof(*d));
	bool *done = xcalloc(nr + 1, sizeof(*done));

	for (size_t i = 0; i < nr; i++) {
		pend[i].mod_d0 = 0;
		pend[i].mod_s2 = NAN;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct metric_def *m = pend[i].metric;
		double mean = 0, var = 0, tri = 0, s2, df, d0, s02;
		double z2 = 0, z4 = 0, nz = 0;
		size_t g = 0;

		if (done[i] || !metric_kind_is_log(m->kind))
			continue;
		for (size_t j = i; j < nr; j++) {
			if (pend[j].metric != m)
				continue;
			done[j] = true;
			if (pend[j].degenerate || pend[j].explain ||
			    !raw_within(&pend[j], &s2, &df, &z2, &z4, &nz))
				continue;
			d[g] = df;
			e[g++] = log(s2) - stats_digamma(df / 2) +
			    log(df / 2);
		}
		if (g < CMP_MOD_MIN_ENTRIES)
			continue;
		/* The prior is a normal model's: not for tails, nor for
		 * values rounding has made a few steps apart. */
		if (!(z4 / nz <= CMP_MOD_MAX_KURT * (z2 / nz) * (z2 / nz)))
			continue;
		for (size_t k = 0; k < g; k++) {
			mean += e[k];
			tri += stats_trigamma(d[k] / 2);
		}
		mean /= (double)g;
		tri /= (double)g;
		for (size_t k = 0; k < g; k++)
			var += (e[k] - mean) * (e[k] - mean);
		var = var / (double)(g - 1) - tri;
		d0 = var > 0 ? fmin(2 * stats_trigamma_inverse(var),
		    CMP_MOD_MAX_D0) : CMP_MOD_MAX_D0;
		s02 = exp(mean + stats_digamma(d0 / 2) - log(d0 / 2));
		for (size_t j = i; j < nr; j++)
			if (pend[j].metric == m && !pend[j].degenerate &&
			    !pend[j].explain) {
				pend[j].mod_d0 = d0;
				pend[j].mod_s2 = s02;
			}
	}
	free(e);
	free(d);
	free(done);
}
