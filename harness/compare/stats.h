/*
 * stats.h: the statistics behind `jankgate compare` (compare.h draws the
 * method).
 *
 * For one (device, scenario, scene, metric) the gate holds two small samples
 * of per-iteration values: the baseline (iterations of the last K accepted
 * runs) and the current run.  This module answers, with no I/O and no
 * policy, the questions the verdict needs:
 *
 *   - what each sample looks like          stats_summarize()
 *   - did the location move, how surely    stats_mann_whitney()
 *   - by how much, give or take            stats_hodges_lehmann()
 *   - surely, given all metrics of a run   stats_p_adjust()
 *   - the tails of Student's t and Fisher's F  stats_t_sf(), stats_f_sf()
 *
 * Everything is rank-based and distribution-free because frame metrics are
 * skewed, bounded and often quantized (ties).  Sign conventions: "base" is
 * the baseline sample, "cur" the current one, and a shift is cur - base, so
 * a positive shift of frame_p90_ms is a slowdown and of fps a speed-up.
 *
 * Inputs must be finite: a NaN or an infinity is refused with JG_EINVAL
 * (a metric that could not be measured must be left out by the caller, not
 * smuggled in as NaN).  The normal distribution helpers and a seeded PRNG
 * for the benchmark's synthetic runs live here too.
 */
#ifndef JG_STATS_H
#define JG_STATS_H

#include <stddef.h>
#include <stdint.h>

/* A normal distribution's IQR (2 z_.75) and MAD (z_.75) in sigmas. */
#define STATS_IQR_PER_SIGMA 1.3489795003921634
#define STATS_MAD_PER_SIGMA 0.6744897501960817

/* ---- summaries ---------------------------------------------------------- */

/*
 * Quantiles are Hyndman & Fan type 7 (R's and numpy's default): on the sorted
 * sample x[0..n-1], q(p) = x[j] + g (x[j+1] - x[j]) with h = (n - 1) p,
 * j = floor(h), g = h - j.  q(0) is the minimum, q(1) the maximum.
 */
struct stats_summary {
	size_t n;
	double min, q1, median, q3, max;
	double iqr;		/* q3 - q1 */
	double mean;
	double mad;		/* median of |x - median|, NOT scaled to sigma */
};

/*
 * Store the type 7 quantile `p` (0 <= p <= 1) of x[0..n-1] in *out.  `x` is
 * not modified.  JG_EINVAL for n == 0, p outside [0, 1] or a non-finite value.
 */
int stats_quantile(double *out, const double *x, size_t n, double p);

/*
 * Fill *out with the summary of x[0..n-1].  n == 0 is valid: out->n is 0 and
 * every other field NaN.  JG_EINVAL (out untouched) for a non-finite value.
 */
int stats_summarize(struct stats_summary *out, const double *x, size_t n);

/*
 * 0 when x[0..n-1] are all finite, else JG_EINVAL with a message naming
 * `what` ("baseline", "current"...) and the index of the first bad value.
 * x may be NULL when n is 0.
 */
int stats_check_finite(const double *x, size_t n, const char *what);

/* ---- Mann-Whitney U ----------------------------------------------------- */

enum stats_mw_method {
	STATS_MW_AUTO = 0,	/* exact if stats_mw_exact_ok(), else normal */
	STATS_MW_EXACT,		/* exact permutation distribution (mid-ranks) */
	STATS_MW_NORMAL,	/* normal approximation, tie + continuity corr. */
};

/*
 * The result of one test.  U counts the pairs (b, c) with c > b plus half
 * the pairs with c == b, so U runs from 0 (every current value below every
 * baseline value) to n_base * n_cur.  "greater" means the current values
 * tend to be larger than the baseline ones.
 *
 * The two-sided p-value is P(|U - E U| >= |u - E U|) under the null.  With
 * no ties the null is symmetric and this equals R's min(1, 2 min(lower,
 * upper)); with ties it is not, and this form keeps p = 1 when u = E U.
 */
struct stats_mw {
	size_t n_base, n_cur;
	double u;
	double auc;		/* u / (n_base n_cur): P(cur > base) + P(=) / 2 */
	double z;		/* (u - E U) / sd U, tie-corrected; 0 if sd = 0 */
	double p_two_sided;
	double p_greater;	/* H1: cur tends to be larger than base */
	double p_less;		/* H1: cur tends to be smaller than base */
	enum stats_mw_method method;	/* what was used: EXACT or NORMAL */
	int ties;		/* 1 when some values were equal */
};

/*
 * 1 when STATS_MW_AUTO computes exact p-values for these sizes:
 * min(n1, n2) * (n1 + n2) <= 2500 (e.g. 5 vs 495, 10 vs 240, 25 vs 75).
 * The exact distributions cost about that number squared in additions.
 */
int stats_mw_exact_ok(size_t n1, size_t n2);

/*
 * Test base[0..n_base-1] against cur[0..n_cur-1] and fill *out.  JG_EINVAL
 * for an empty sample or a non-finite value, and for STATS_MW_EXACT on
 * samples too large to enumerate (min(n1, n2) * (n1 + n2) > 10000).
 */
int stats_mann_whitney(struct stats_mw *out, const double *base,
    size_t n_base, const double *cur, size_t n_cur,
    enum stats_mw_method method);

/* ---- shift estimate ----------------------------------------------------- */

/*
 * The Hodges-Lehmann estimate of the shift cur - base (the median of the
 * n_base n_cur pairwise differences) and the distribution-free interval
 * [d(k), d(M+1-k)] between order statistics of those differences.  k comes
 * from the exact null distribution of U for continuous data (or its normal
 * approximation beyond stats_mw_exact_ok); with ties its coverage is
 * approximate.
 */
struct stats_shift {
	double estimate;
	double lo, hi;
	double level;		/* confidence [lo, hi] actually has */
	int level_short;	/* 1: requested level unreachable at these n;
				   [lo, hi] is then the widest interval,
				   min..max difference, at `level` */
	int exact;		/* 1: level from the exact distribution */
};

/*
 * Fill *out for a requested confidence `level` in (0, 1), e.g. 0.95; `level`
 * achieved is the smallest one >= the request (see level_short).  JG_EINVAL
 * for an empty sample, a non-finite value, or a bad level.
 */
int stats_hodges_lehmann(struct stats_shift *out, const double *base,
    size_t n_base, const double *cur, size_t n_cur, double level,
    enum stats_mw_method method);

/* ---- multiple testing --------------------------------------------------- */

enum stats_adjust {
	STATS_ADJUST_NONE = 0,
	STATS_ADJUST_HOLM,	/* family-wise error rate, any dependence */
	STATS_ADJUST_BH,	/* false discovery rate (Benjamini-Hochberg) */
};

/*
 * Store in out[i] the adjusted p-value of p[i] among all n of them; out may
 * be p.  Holm: max over j <= rank of min(1, (n - j + 1) p(j)).  BH: min over
 * j >= rank of min(1, n p(j) / j).  NONE copies.  JG_EINVAL for a p
 * outside [0, 1] or an unknown `how`.
 */
int stats_p_adjust(double *out, const double *p, size_t n,
    enum stats_adjust how);

/*
 * The same with a positive weight per hypothesis (NULL: all equal):
 * weighted Holm (Holm 1979: ordered by p / w, the j-th rejected when
 * p <= alpha w / the weights not yet rejected; any dependence) and
 * weighted BH (p / w against the mean weight).  Scaling every weight
 * alike changes nothing.  JG_EINVAL for a weight that is not positive.
 */
int stats_p_adjust_weighted(double *out, const double *p, const double *w,
    size_t n, enum stats_adjust how);

/* "none", "holm" or "bh"; never NULL. */
const char *stats_adjust_name(enum stats_adjust how);

/* The inverse of stats_adjust_name(); JG_EINVAL for an unknown name. */
int stats_adjust_parse(enum stats_adjust *out, const char *name);

/* ---- the standard normal distribution ----------------------------------- */

/* P(Z <= x). */
double stats_norm_cdf(double x);

/* P(Z > x), accurate far into the upper tail (unlike 1 - cdf). */
double stats_norm_sf(double x);

/* The x with P(Z <= x) = p: -inf at 0, +inf at 1, NaN outside [0, 1]. */
double stats_norm_quantile(double p);

/* ---- Student's t distribution (stats_t.c) ------------------------------ */

/*
 * P(T > t) for t with `df` degrees of freedom (df > 0, need not be whole),
 * with full relative precision far into the tail; the standard normal's for
 * df above 1e7.  NaN for a NaN argument or df <= 0.
 */
double stats_t_sf(double t, double df);

/* P(T <= t). */
double stats_t_cdf(double t, double df);

/*
 * P(F > f) for Fisher's F with d1 and d2 degrees of freedom (both > 0,
 * need not be whole), from the same incomplete beta function.  NaN for a
 * NaN argument or a df <= 0.
 */
double stats_f_sf(double f, double d1, double d2);

/* The t with P(T <= t) = p: -inf at 0, +inf at 1, NaN outside [0, 1]. */
double stats_t_quantile(double p, double df);

/*
 * The digamma and trigamma functions (the first and second derivatives of
 * log Gamma) for x > 0, NaN elsewhere; and the x > 0 whose trigamma is y
 * (y > 0).  The moderated within-session variance of compare (Smyth's
 * empirical Bayes, compare_session.c) estimates its prior with them.
 */
double stats_digamma(double x);
double stats_trigamma(double x);
double stats_trigamma_inverse(double y);

/* ---- seeded pseudo-random numbers --------------------------------------- */

/*
 * xoshiro256** seeded through splitmix64: fast, 2^256 - 1 period, and the
 * same stream for the same seed on every platform, so synthetic benchmark
 * runs are reproducible.  Not for cryptography.  The fields are private;
 * the struct is public only so callers can keep one on the stack.
 */
struct stats_rng {
	uint64_t s[4];
	double spare;		/* second normal deviate of the last pair */
	int has_spare;
};

/* Start the stream named by `seed` (any value, 0 included). */
void stats_rng_init(struct stats_rng *rng, uint64_t seed);

/* The next 64 random bits. */
uint64_t stats_rng_next(struct stats_rng *rng);

/* Uniform in [0, 1), with 53 random bits. */
double stats_rng_uniform(struct stats_rng *rng);

/* Uniform integer in [0, n), without modulo bias; 0 when n is 0. */
uint64_t stats_rng_below(struct stats_rng *rng, uint64_t n);

/* Normal with the given mean and standard deviation (Marsaglia's polar). */
double stats_rng_normal(struct stats_rng *rng, double mean, double sd);

#endif
