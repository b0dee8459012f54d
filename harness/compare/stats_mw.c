/*
 * stats_mw.c: the Mann-Whitney U test, the Hodges-Lehmann shift with its
 * confidence interval, and the smallest shift a test of a given size can
 * detect.  They share the exact null distributions of U built here.
 *
 * Exact or approximate.  Baseline samples hold tens of iterations and
 * current ones a handful, exactly where the normal approximation is worst
 * in the far tail that a Holm-corrected alpha (0.05 / 60 ~ 0.001) looks at.
 * So STATS_MW_AUTO is exact whenever it is cheap, which is whenever
 * k N = min(n1, n2) (n1 + n2) <= 2500: the distributions below cost about
 * (k N)^2 additions and k N words (at the bound, 25 vs 75 or 5 vs 495,
 * about 1 ms without ties and 3 ms with them on one core).
 * Beyond that both samples are large (or one is huge) and the normal
 * approximation, with tie and continuity corrections, is good enough: at
 * 20 vs 20 it is already within 0.006 of the exact p-value, and where it
 * errs, near p = 0.001, it overstates p (by up to 1.6x), i.e. it is
 * conservative.  A caller may force either method; forced exact stops at
 * k N = 10000.
 *
 * Two exact distributions:
 *   - no ties: the classic recurrence on the largest of the pooled values,
 *     c(i, j, u) = c(i - 1, j, u - j) + c(i, j - 1, u), over the counts of
 *     orderings of i + j distinct values with U = u;
 *   - ties: the permutation distribution of the rank sum under mid-ranks,
 *     counted by a subset-sum recurrence over the pooled values.  Mid-ranks
 *     are doubled (a tie over ranks a..b gets a + b) so all sums stay
 *     integers and equal statistics compare exactly.
 * Counts are kept in doubles: exact integers below 2^53 (every count when
 * n1 + n2 <= 56), and beyond that only ever added, never subtracted, so
 * their relative error stays below N * 1e-16.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "error.h"
#include "xalloc.h"
#include "banned.h"

#define MW_AUTO_LIMIT 2500.0
#define MW_EXACT_LIMIT 10000.0

/*
 * Levels are compared with this relative slack so that 1 - 0.9, which is
 * 0.09999999999999998 in binary, still reaches 2 / 20.
 */
#define LEVEL_SLACK 1e-9

static double
mw_work(size_t n1, size_t n2)
{
	return (double)(n1 < n2 ? n1 : n2) * ((double)n1 + (double)n2);
}

int
stats_mw_exact_ok(size_t n1, size_t n2)
{
	return n1 && n2 && mw_work(n1, n2) <= MW_AUTO_LIMIT;
}

/* Decide between EXACT and NORMAL; JG_EINVAL when exact is too costly. */
static int
mw_pick(enum stats_mw_method *out, enum stats_mw_method asked,
    size_t n1, size_t n2)
{
	if (asked == STATS_MW_NORMAL) {
		*out = STATS_MW_NORMAL;
	} else if (asked == STATS_MW_EXACT) {
		if (mw_work(n1, n2) > MW_EXACT_LIMIT)
			return jg_error_set(JG_EINVAL,
			    "exact test of %zu vs %zu values is too large "
			    "to enumerate", n1, n2);
		*out = STATS_MW_EXACT;
	} else {
		*out = stats_mw_exact_ok(n1, n2) ? STATS_MW_EXACT :
		    STATS_MW_NORMAL;
	}
	return 0;
}

static int
check_samples(const double *base, size_t n_base, const double *cur,
    size_t n_cur)
{
	int ret;

	if (!n_base)
		return jg_error_set(JG_EINVAL, "baseline sample is empty");
	if (!n_cur)
		return jg_error_set(JG_EINVAL, "current sample is empty");
	if ((ret = stats_check_finite(base, n_base, "baseline")) < 0 ||
	    (ret = stats_check_finite(cur, n_cur, "current")) < 0)
		return ret;
	return 0;
}

/*
 * counts[u], u = 0..m n: in how many of the C(m + n, m) orderings of m + n
 * distinct values U = u.  The largest value either belongs to the
 * m-sample, beating all j others (u - j), or to the n-sample (u).  Rows
 * b[i] hold c(i, j, .) for the current j; b[i - 1] is already at j when b[i]
 * is updated, so one table of (m + 1) rows suffices.  The caller frees.
 */
static double *
null_counts_noties(size_t m, size_t n)
{
	size_t w = m * n + 1;
	double *b = xcalloc((m + 1) * w, sizeof(*b));

	for (size_t i = 0; i <= m; i++)
		b[i * w] = 1;
	for (size_t j = 1; j <= n; j++) {
		for (size_t i = 1; i <= m; i++) {
			double *row = b + i * w, *prev = row - w;

			for (size_t u = j; u <= i * j; u++)
				row[u] += prev[u - j];
		}
	}
	memmove(b, b + m * w, w * sizeof(*b));
	return xrealloc(b, w * sizeof(*b));
}

/*
 * counts[t], t = 0..*tmax: in how many of the C(N, k) ways of picking k of
 * the N pooled values the doubled mid-ranks r2 (ascending) sum to t.  Row c
 * holds the counts for c values picked so far; rows are updated from the
 * top so each value is picked at most once.  The caller frees.
 */
static double *
null_counts_ties(const int64_t *r2, size_t N, size_t k, size_t *tmax)
{
	size_t w, top = 0, reach = 0;
	double *cnt;

	for (size_t i = N - k; i < N; i++)
		top += (size_t)r2[i];
	w = top + 1;
	cnt = xcalloc((k + 1) * w, sizeof(*cnt));
	cnt[0] = 1;
	for (size_t e = 0; e < N; e++) {
		size_t r = (size_t)r2[e];

		reach = reach + r < top ? reach + r : top;
		for (size_t c = e + 1 < k ? e + 1 : k; c >= 1; c--) {
			double *row = cnt + c * w, *prev = row - w;

			for (size_t s = r; s <= reach; s++)
				row[s] += prev[s - r];
		}
	}
	memmove(cnt, cnt + k * w, w * sizeof(*cnt));
	*tmax = top;
	return xrealloc(cnt, w * sizeof(*cnt));
}

struct pooled {
	double v;
	int cur;
};

static int
cmp_pooled(const void *a, const void *b)
{
	const struct pooled *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

/* The ranking of the pooled sample that the test needs. */
struct ranking {
	int64_t *r2;		/* doubled mid-ranks, ascending, N of them */
	int64_t w2_cur;		/* their sum over the current values */
	double tie_term;	/* sum over tie groups of t^3 - t */
	int ties;
};

static void
rank_pooled(struct ranking *rk, const double *base, size_t n_base,
    const double *cur, size_t n_cur)
{
	size_t N = n_base + n_cur;
	struct pooled *p = xmalloc(N * sizeof(*p));

	for (size_t i = 0; i < n_base; i++)
		p[i] = (struct pooled){ base[i], 0 };
	for (size_t i = 0; i < n_cur; i++)
		p[n_base + i] = (struct pooled){ cur[i], 1 };
	qsort(p, N, sizeof(*p), cmp_pooled);

	rk->r2 = xmalloc(N * sizeof(*rk->r2));
	rk->w2_cur = 0;
	rk->tie_term = 0;
	rk->ties = 0;
	for (size_t a = 0, b; a < N; a = b) {
		double t;

		for (b = a + 1; b < N && p[b].v == p[a].v; b++)
			;
		/* 0-based positions a..b-1 are ranks a+1..b: doubled a+1+b. */
		for (size_t i = a; i < b; i++) {
			rk->r2[i] = (int64_t)(a + 1 + b);
			if (p[i].cur)
				rk->w2_cur += rk->r2[i];
		}
		t = (double)(b - a);
		if (b - a > 1) {
			rk->ties = 1;
			rk->tie_term += t * t * t - t;
		}
	}
	free(p);
}

/*
 * The exact null distribution as counts over 2U (0..2 n_base n_cur), so
 * the half-integer U of tied data has a slot too.  *len gets its length.
 */
static double *
null_counts_u2(const struct ranking *rk, size_t n_base, size_t n_cur,
    size_t *len)
{
	size_t mn = n_base * n_cur, N = n_base + n_cur;
	double *g = xcalloc(2 * mn + 1, sizeof(*g));

	*len = 2 * mn + 1;
	if (!rk->ties) {
		size_t m = n_base < n_cur ? n_base : n_cur;
		double *f = null_counts_noties(m, N - m);

		for (size_t u = 0; u <= mn; u++)
			g[2 * u] = f[u];
		free(f);
	} else {
		/* Enumerate the smaller sample; 2U_cur follows from its sum. */
		int pick_cur = n_cur <= n_base;
		size_t k = pick_cur ? n_cur : n_base, tmax;
		size_t off = k * (k + 1);
		double *f = null_counts_ties(rk->r2, N, k, &tmax);

		for (size_t t = off; t <= tmax; t++) {
			size_t u2 = t - off;

			if (!f[t] || u2 > 2 * mn)
				continue;
			g[pick_cur ? u2 : 2 * mn - u2] += f[t];
		}
		free(f);
	}
	return g;
}

/* Tail probabilities of the observed doubled U `u2` under counts g. */
static void
exact_tails(struct stats_mw *out, const double *g, size_t len, int64_t u2)
{
	int64_t c2 = (int64_t)(out->n_base * out->n_cur);	/* 2 E U */
	int64_t dev = u2 > c2 ? u2 - c2 : c2 - u2;
	double total = 0, le = 0, ge = 0, far = 0;

	for (size_t i = 0; i < len; i++) {
		int64_t v = (int64_t)i;

		if (!g[i])
			continue;
		total += g[i];
		if (v <= u2)
			le += g[i];
		if (v >= u2)
			ge += g[i];
		if ((v > c2 ? v - c2 : c2 - v) >= dev)
			far += g[i];
	}
	out->p_less = le / total;
	out->p_greater = ge / total;
	out->p_two_sided = far / total;
}

/*
 * The normal approximation: E U = mn / 2, Var U = mn / 12 (N + 1 -
 * sum(t^3 - t) / (N (N - 1))), each tail moved half a step toward the
 * centre (continuity correction) as R's wilcox.test does.
 */
static void
normal_tails(struct stats_mw *out, double sd)
{
	double d = out->u - (double)out->n_base * (double)out->n_cur / 2;

	if (sd <= 0) {
		out->p_less = out->p_greater = out->p_two_sided = 1;
		return;
	}
	out->p_greater = stats_norm_sf((d - 0.5) / sd);
	out->p_less = stats_norm_cdf((d + 0.5) / sd);
	out->p_two_sided = fmin(1, 2 * stats_norm_sf((fabs(d) - 0.5) / sd));
}

int
stats_mann_whitney(struct stats_mw *out, const double *base, size_t n_base,
    const double *cur, size_t n_cur, enum stats_mw_method method)
{
	struct ranking rk;
	double mn, N, var, sd;
	int64_t u2;
	int ret;

	if ((ret = check_samples(base, n_base, cur, n_cur)) < 0 ||
	    (ret = mw_pick(&method, method, n_base, n_cur)) < 0)
		return ret;
	rank_pooled(&rk, base, n_base, cur, n_cur);
	u2 = rk.w2_cur - (int64_t)(n_cur * (n_cur + 1));

	mn = (double)n_base * (double)n_cur;
	N = (double)n_base + (double)n_cur;
	var = mn / 12 * (N + 1 - rk.tie_term / (N * (N - 1)));
	sd = var > 0 ? sqrt(var) : 0;

	out->n_base = n_base;
	out->n_cur = n_cur;
	out->u = (double)u2 / 2;
	out->auc = out->u / mn;
	out->z = sd > 0 ? (out->u - mn / 2) / sd : 0;
	out->method = method;
	out->ties = rk.ties;
	if (method == STATS_MW_EXACT) {
		size_t len;
		double *g = null_counts_u2(&rk, n_base, n_cur, &len);

		exact_tails(out, g, len, u2);
		free(g);
	} else {
		normal_tails(out, sd);
	}
	free(rk.r2);
	return 0;
}

/* ---- Hodges-Lehmann ----------------------------------------------------- */

/*
 * The interval [d(k), d(M+1-k)] covers the true shift unless U of the
 * shifted data falls in either tail of size P(U <= k - 1), so its level is
 * 1 - 2 P(U <= k - 1); pick the largest k whose level still reaches the
 * request.  Sets *k (1-based) and fills level fields of out.
 */
static void
ci_rank_exact(struct stats_shift *out, size_t *k, size_t n_base,
    size_t n_cur, double alpha)
{
	size_t m = n_base < n_cur ? n_base : n_cur, mn = n_base * n_cur;
	double *f = null_counts_noties(m, n_base + n_cur - m);
	double total = 0, cum = 0;

	for (size_t u = 0; u <= mn; u++)
		total += f[u];
	*k = 0;
	for (size_t u = 0; u <= mn; u++) {
		if (2 * (cum + f[u]) > alpha * total * (1 + LEVEL_SLACK))
			break;
		cum += f[u];
		*k = u + 1;
	}
	if (!*k) {
		*k = 1;
		cum = f[0];
		out->level_short = 1;
	}
	out->level = 1 - 2 * cum / total;
	out->exact = 1;
	free(f);
}

/*
 * The same with U normal: P(U <= k - 1) ~ Phi((k - 0.5 - mn / 2) / sd),
 * continuity-corrected like the test, and no tie correction since the
 * interval assumes continuous data.
 */
static void
ci_rank_normal(struct stats_shift *out, size_t *k, size_t n_base,
    size_t n_cur, double alpha)
{
	double mn = (double)n_base * (double)n_cur;
	double sd = sqrt(mn * ((double)n_base + (double)n_cur + 1) / 12);
	double kk = floor(mn / 2 + 0.5 -
	    stats_norm_quantile(1 - alpha / 2) * sd);

	if (kk < 1) {
		kk = 1;
		out->level_short = 1;
	}
	*k = (size_t)kk;
	out->level = 1 - 2 * stats_norm_cdf((kk - 0.5 - mn / 2) / sd);
	out->exact = 0;
}

/*
 * Put the `k`-th smallest (0-based) of d[0..n) at d[k], smaller values
 * before it and larger after (a three-way partition each round, so runs of
 * equal differences, common with whole-ms values, end the search at once):
 * the interval needs three order statistics of n_base n_cur differences,
 * not all of them sorted.
 */
static double
kth(double *d, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = d[lo + (hi - lo) / 2], t;
		size_t lt = lo, i = lo, gt = hi;

		/* [lo, lt) < pivot, [lt, i) == pivot, (gt, hi] > pivot */
		while (i <= gt) {
			if (d[i] < pivot) {
				t = d[lt];
				d[lt++] = d[i];
				d[i++] = t;
			} else if (d[i] > pivot) {
				t = d[gt];
				d[gt] = d[i];
				d[i] = t;
				if (!gt--)
					break;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt - 1;
		else if (k > gt)
			lo = gt + 1;
		else
			break;
	}
	return d[k];
}

int
stats_hodges_lehmann(struct stats_shift *out, const double *base,
    size_t n_base, const double *cur, size_t n_cur, double level,
    enum stats_mw_method method)
{
	size_t M, k;
	double *d;
	int ret;

	if ((ret = check_samples(base, n_base, cur, n_cur)) < 0)
		return ret;
	if (!(level > 0 && level < 1))
		return jg_error_set(JG_EINVAL,
		    "confidence level %g is outside (0, 1)", level);
	if ((ret = mw_pick(&method, method, n_base, n_cur)) < 0)
		return ret;
	/* xreallocarray aborts if n_base * n_cur overflows. */
	d = xreallocarray(NULL, n_base, n_cur * sizeof(*d));
	M = n_base * n_cur;
	for (size_t i = 0; i < n_base; i++)
		for (size_t j = 0; j < n_cur; j++)
			d[i * n_cur + j] = cur[j] - base[i];
	if (M % 2)
		out->estimate = kth(d, M, M / 2);
	else
		out->estimate = (kth(d, M, M / 2 - 1) + kth(d, M, M / 2)) / 2;

	out->level_short = 0;
	if (method == STATS_MW_EXACT)
		ci_rank_exact(out, &k, n_base, n_cur, 1 - level);
	else
		ci_rank_normal(out, &k, n_base, n_cur, 1 - level);
	out->lo = kth(d, M, k - 1);
	out->hi = kth(d, M, M - k);
	free(d);
	return 0;
}
