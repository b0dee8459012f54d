/*
 * test_stats.c: summaries, the Mann-Whitney test, the Hodges-Lehmann shift,
 * multiple testing, the detectable shift, the normal distribution and the
 * PRNG.
 *
 * Reference values come from counts anyone can redo by hand (the number of
 * orderings with U = u is the number of partitions of u into at most n1
 * parts no larger than n2) or from a brute-force enumeration of every split
 * of the pooled values, written here independently of stats_mw.c, so the
 * exact p-values are checked against an oracle rather than against
 * themselves.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "stats.h"

#define assert_near(a, b, tol) do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (tol))) \
			fail_msg("%s = %.17g, expected %.17g +- %g", #a, \
			    a_, b_, (double)(tol)); \
	} while (0)

/* ---- summaries ---------------------------------------------------------- */

/* Type 7 quantiles match R's quantile() defaults, whatever the input order. */
static void
quantile_is_type7(void **state)
{
	static const double x[] = { 7, 1, 10, 4, 2, 9, 3, 8, 6, 5 };
	static const double y[] = { 15, 1, 7, 3 };
	static const struct { double p, want; } cases[] = {
		{ 0, 1 }, { 0.25, 3.25 }, { 0.5, 5.5 }, { 0.75, 7.75 },
		{ 0.9, 9.1 }, { 1, 10 },
	};
	double q;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(stats_quantile(&q, x, 10, cases[i].p), 0);
		assert_near(q, cases[i].want, 1e-12);
	}
	/* R: quantile(c(1, 3, 7, 15), c(.25, .5, .75)) is 2.5 5 9. */
	assert_int_equal(stats_quantile(&q, y, 4, 0.25), 0);
	assert_near(q, 2.5, 1e-12);
	assert_int_equal(stats_quantile(&q, y, 4, 0.5), 0);
	assert_near(q, 5, 1e-12);
	assert_int_equal(stats_quantile(&q, y, 4, 0.75), 0);
	assert_near(q, 9, 1e-12);
	/* A single value is every quantile; the input is left unsorted. */
	assert_int_equal(stats_quantile(&q, y + 3, 1, 0.3), 0);
	assert_near(q, 3, 0);
	assert_near(y[0], 15, 0);
}

/* Quantiles of nothing, or at p outside [0, 1], are errors. */
static void
quantile_rejects_bad_arguments(void **state)
{
	static const double x[] = { 1, 2 };
	double q = 42;

	assert_int_equal(stats_quantile(&q, x, 0, 0.5), JG_EINVAL);
	assert_int_equal(stats_quantile(&q, x, 2, -0.1), JG_EINVAL);
	assert_int_equal(stats_quantile(&q, x, 2, NAN), JG_EINVAL);
	assert_near(q, 42, 0);
}

/* The summary of a small sample matches hand-computed statistics. */
static void
summary_known_values(void **state)
{
	static const double x[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
	struct stats_summary s;

	assert_int_equal(stats_summarize(&s, x, 8), 0);
	assert_int_equal(s.n, 8);
	assert_near(s.min, 2, 0);
	assert_near(s.max, 9, 0);
	assert_near(s.q1, 4, 1e-12);		/* 4 + .75 (4 - 4) */
	assert_near(s.median, 4.5, 1e-12);
	assert_near(s.q3, 5.5, 1e-12);		/* 5 + .25 (7 - 5) */
	assert_near(s.iqr, 1.5, 1e-12);
	assert_near(s.mean, 5, 1e-12);
	assert_near(s.mad, 0.5, 1e-12);		/* |x - 4.5|: five 0.5s */
}

/* An empty sample summarises to n = 0 with NaN statistics, not an error. */
static void
summary_of_empty_sample(void **state)
{
	struct stats_summary s;

	assert_int_equal(stats_summarize(&s, NULL, 0), 0);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median));
	assert_true(isnan(s.iqr));
	assert_true(isnan(s.mean));
	assert_true(isnan(s.mad));
}

/* NaN or infinity anywhere is refused with a message naming the index. */
static void
non_finite_values_are_rejected(void **state)
{
	double bad[] = { 1, 2, NAN, 4 };
	static const double good[] = { 1, 2, 3 };
	struct stats_summary s;
	struct stats_mw mw;
	struct stats_shift sh;
	double q;

	jg_error_clear();
	assert_int_equal(stats_summarize(&s, bad, 4), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "value 2"));
	assert_int_equal(stats_quantile(&q, bad, 4, 0.5), JG_EINVAL);
	assert_int_equal(stats_mann_whitney(&mw, good, 3, bad, 4,
	    STATS_MW_AUTO), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "current"));
	assert_int_equal(stats_mann_whitney(&mw, bad, 4, good, 3,
	    STATS_MW_NORMAL), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "baseline"));
	assert_int_equal(stats_hodges_lehmann(&sh, good, 3, bad, 4, 0.95,
	    STATS_MW_AUTO), JG_EINVAL);
	bad[2] = INFINITY;
	assert_int_equal(stats_summarize(&s, bad, 4), JG_EINVAL);
	assert_int_equal(stats_check_finite(good, 3, "x"), 0);
}

/* ---- Mann-Whitney ------------------------------------------------------- */

/*
 * Data with a chosen U: baseline 1..n, and current values t + 0.5 (plus a
 * distinct small offset) beat exactly t baseline values each.
 */
static void
data_with_u(double *base, double *cur, size_t n, size_t u)
{
	for (size_t i = 0; i < n; i++)
		base[i] = (double)(i + 1);
	for (size_t j = 0; j < n; j++) {
		size_t t = u < n ? u : n;

		u -= t;
		cur[j] = (double)t + 0.5 + 0.01 * (double)j;
	}
}

/*
 * Exact p-values for n1 = n2 = 3, 4, 5 match the classic tables: counts of
 * orderings per U are partition numbers, over C(2n, n) orderings.  (For
 * 5 vs 5, P(U <= 1) = 2/252 = 0.0079 and P(U <= 2) = 4/252 = 0.0159.)
 */
static void
mw_exact_matches_tables(void **state)
{
	static const double c3[] = { 1, 1, 2, 3, 3, 3, 3, 2, 1, 1 };
	static const double c4[] = { 1, 1, 2, 3, 5, 5, 7, 7, 8, 7, 7, 5, 5,
		3, 2, 1, 1 };
	static const double c5[] = { 1, 1, 2, 3, 5, 7, 9, 11, 14, 16, 18, 19,
		20, 20, 19, 18, 16, 14, 11, 9, 7, 5, 3, 2, 1, 1 };
	static const struct { size_t n; const double *c; double total; } t[] = {
		{ 3, c3, 20 }, { 4, c4, 70 }, { 5, c5, 252 },
	};
	double base[5], cur[5];

	for (size_t i = 0; i < 3; i++) {
		size_t n = t[i].n, mn = n * n;
		double le = 0;

		for (size_t u = 0; u <= mn; u++) {
			struct stats_mw mw;
			double ge = t[i].total - le;	/* P(U >= u) */
			double lo;

			le += t[i].c[u];
			lo = le < ge ? le : ge;
			data_with_u(base, cur, n, u);
			assert_int_equal(stats_mann_whitney(&mw, base, n, cur,
			    n, STATS_MW_AUTO), 0);
			assert_int_equal(mw.method, STATS_MW_EXACT);
			assert_false(mw.ties);
			assert_near(mw.u, (double)u, 0);
			assert_near(mw.p_less, le / t[i].total, 1e-15);
			assert_near(mw.p_greater, ge / t[i].total, 1e-15);
			assert_near(mw.p_two_sided,
			    fmin(1, 2 * lo / t[i].total), 1e-15);
		}
	}
}

/* Published wilcox.test results, each also re-derived by enumeration. */
static void
mw_matches_r_examples(void **state)
{
	/* wilcox.test(x, y, alternative = "greater"): W = 35, p = 0.1272
	 * (R's own example, Hollander & Wolfe); 382 of C(15, 5) = 3003. */
	static const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91,
		1.64, 0.73, 1.46 };
	static const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	/* wilcox.test(1:5, 6:10): W = 0, p = 0.007937 = 2 / 252. */
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct stats_mw mw;

	assert_int_equal(stats_mann_whitney(&mw, y, 5, x, 10, STATS_MW_AUTO),
	    0);
	assert_near(mw.u, 35, 0);
	assert_near(mw.p_greater, 382.0 / 3003, 1e-15);
	assert_near(mw.p_greater, 0.1272, 5e-5);
	assert_int_equal(stats_mann_whitney(&mw, b, 5, a, 5, STATS_MW_AUTO),
	    0);
	assert_near(mw.u, 0, 0);
	assert_near(mw.p_two_sided, 2.0 / 252, 1e-15);
	assert_near(mw.p_less, 1.0 / 252, 1e-15);
	assert_near(mw.p_greater, 1, 1e-15);
	assert_near(mw.auc, 0, 0);
}

/*
 * The oracle: every way of calling nc of the N pooled values "current".
 * Counts (in units of 2U, so ties stay integral) how many give 2U <= u2,
 * >= u2, and |2U - mn| >= |u2 - mn|; returns the number of splits.
 */
static double
brute_force(const double *v, size_t N, size_t nc, double u2,
    double *le, double *ge, double *far)
{
	double mn = (double)(nc * (N - nc)), total = 0;

	*le = *ge = *far = 0;
	for (uint32_t mask = 0; mask < (1u << N); mask++) {
		double w = 0;

		if ((size_t)__builtin_popcount(mask) != nc)
			continue;
		for (size_t j = 0; j < N; j++) {
			if (!(mask & (1u << j)))
				continue;
			for (size_t i = 0; i < N; i++)
				if (!(mask & (1u << i)))
					w += v[j] > v[i] ? 2 : v[j] == v[i];
		}
		total++;
		*le += w <= u2;
		*ge += w >= u2;
		*far += fabs(w - mn) >= fabs(u2 - mn);
	}
	return total;
}

/*
 * Exact p-values, with and without ties, equal the brute-force permutation
 * probabilities for random samples of up to 14 values.
 */
static void
mw_exact_matches_brute_force(void **state)
{
	struct stats_rng rng;
	int tied = 0, untied = 0;

	stats_rng_init(&rng, 7);
	for (int rep = 0; rep < 80; rep++) {
		size_t nb = 1 + stats_rng_below(&rng, 8);
		size_t nc = 1 + stats_rng_below(&rng, 14 - nb);
		/* Half the cases draw from 4 levels, so ties are common. */
		int coarse = rep % 2;
		double v[14], le, ge, far, total;
		struct stats_mw mw;

		for (size_t i = 0; i < nb + nc; i++)
			v[i] = coarse ? (double)stats_rng_below(&rng, 4) :
			    stats_rng_normal(&rng, 0, 1);
		assert_int_equal(stats_mann_whitney(&mw, v, nb, v + nb, nc,
		    STATS_MW_EXACT), 0);
		/* The oracle calls the last nc of v current: mask bits nb.. */
		{
			double w[14];

			memcpy(w, v + nb, nc * sizeof(*w));
			memcpy(w + nc, v, nb * sizeof(*w));
			total = brute_force(w, nb + nc, nc, 2 * mw.u, &le,
			    &ge, &far);
		}
		assert_near(mw.p_less, le / total, 1e-12);
		assert_near(mw.p_greater, ge / total, 1e-12);
		assert_near(mw.p_two_sided, far / total, 1e-12);
		tied += mw.ties;
		untied += !mw.ties;
	}
	/* Both code paths were exercised. */
	assert_true(tied > 20);
	assert_true(untied > 20);
}

/* One value against one: nothing can be significant; 1 vs 4 floors at 1/5. */
static void
mw_single_values(void **state)
{
	static const double one[] = { 3 }, four[] = { 1, 2, 4, 5 };
	static const double big[] = { 9 };
	struct stats_mw mw;

	assert_int_equal(stats_mann_whitney(&mw, one, 1, big, 1,
	    STATS_MW_AUTO), 0);
	assert_near(mw.u, 1, 0);
	assert_near(mw.p_two_sided, 1, 1e-15);
	assert_near(mw.p_greater, 0.5, 1e-15);
	assert_int_equal(stats_mann_whitney(&mw, four, 4, big, 1,
	    STATS_MW_AUTO), 0);
	assert_near(mw.p_greater, 0.2, 1e-15);
	assert_near(mw.p_two_sided, 0.4, 1e-15);
}

/* An empty sample is an error, not a p-value. */
static void
mw_empty_sample_is_error(void **state)
{
	static const double x[] = { 1, 2 };
	struct stats_mw mw;
	struct stats_shift sh;

	assert_int_equal(stats_mann_whitney(&mw, x, 0, x, 2, STATS_MW_AUTO),
	    JG_EINVAL);
	assert_int_equal(stats_mann_whitney(&mw, x, 2, NULL, 0,
	    STATS_MW_NORMAL), JG_EINVAL);
	assert_int_equal(stats_hodges_lehmann(&sh, x, 2, NULL, 0, 0.95,
	    STATS_MW_AUTO), JG_EINVAL);
}

/* Identical samples give p = 1 two-sided, exact or approximate. */
static void
mw_identical_samples_p_one(void **state)
{
	static const double flat[] = { 3, 3, 3, 3 };
	static const double x[] = { 1, 2, 2, 5, 7 };
	static const enum stats_mw_method how[] = {
		STATS_MW_EXACT, STATS_MW_NORMAL,
	};
	struct stats_mw mw;

	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(stats_mann_whitney(&mw, flat, 4, flat, 3,
		    how[i]), 0);
		assert_near(mw.p_two_sided, 1, 0);
		assert_near(mw.p_greater, 1, 0);
		assert_near(mw.p_less, 1, 0);
		assert_near(mw.z, 0, 0);
		assert_int_equal(stats_mann_whitney(&mw, x, 5, x, 5,
		    how[i]), 0);
		assert_near(mw.u, 12.5, 0);
		assert_near(mw.p_two_sided, 1, 0);
		assert_true(mw.ties);
	}
}

/*
 * Ties shift U by halves and the exact distribution follows mid-ranks:
 * {1, 2} vs {2, 3} has U = 3.5 (3 > 1, 3 > 2, 2 > 1, 2 = 2).  The doubled
 * mid-ranks of {1, 2, 2, 3} are 2 5 5 8; the six ways to pick the current
 * pair sum to 7 7 10 10 13 13, around a centre of 10, and the observed
 * pair {5, 8} sums to 13: P(>= 13) = 2/6, P(<= 13) = 1, P(|s - 10| >= 3)
 * = 4/6.
 */
static void
mw_ties_use_mid_ranks(void **state)
{
	static const double b[] = { 1, 2 }, c[] = { 2, 3 };
	struct stats_mw mw;

	assert_int_equal(stats_mann_whitney(&mw, b, 2, c, 2, STATS_MW_AUTO),
	    0);
	assert_true(mw.ties);
	assert_near(mw.u, 3.5, 0);
	assert_near(mw.p_greater, 2.0 / 6, 1e-15);
	assert_near(mw.p_less, 1, 1e-15);
	assert_near(mw.p_two_sided, 4.0 / 6, 1e-15);
	/* The same with the roles swapped mirrors the tails. */
	assert_int_equal(stats_mann_whitney(&mw, c, 2, b, 2, STATS_MW_AUTO),
	    0);
	assert_near(mw.u, 0.5, 0);
	assert_near(mw.p_less, 2.0 / 6, 1e-15);
	assert_near(mw.p_greater, 1, 1e-15);
	assert_near(mw.p_two_sided, 4.0 / 6, 1e-15);
}

/*
 * At 20 vs 20 the normal approximation stays within 0.006 of the exact
 * p-value, with and without ties, and within a factor 0.9..2 of it between
 * p = 0.001 and 0.1.  (It overstates small p-values: U has lighter tails
 * than the normal, which is why AUTO prefers exact where it is cheap.)
 */
static void
mw_normal_close_to_exact(void **state)
{
	struct stats_rng rng;
	int tail = 0;

	stats_rng_init(&rng, 2024);
	for (int rep = 0; rep < 40; rep++) {
		double v[40];
		struct stats_mw ex, no;

		for (size_t i = 0; i < 40; i++) {
			double shift = i >= 20 ? 0.05 * rep : 0;

			v[i] = rep % 2 ? stats_rng_normal(&rng, shift, 1) :
			    floor(stats_rng_normal(&rng, 3 + shift, 1.5));
		}
		assert_int_equal(stats_mann_whitney(&ex, v, 20, v + 20, 20,
		    STATS_MW_EXACT), 0);
		assert_int_equal(stats_mann_whitney(&no, v, 20, v + 20, 20,
		    STATS_MW_NORMAL), 0);
		assert_int_equal(ex.method, STATS_MW_EXACT);
		assert_int_equal(no.method, STATS_MW_NORMAL);
		assert_near(no.u, ex.u, 0);
		assert_near(no.p_two_sided, ex.p_two_sided, 0.006);
		assert_near(no.p_greater, ex.p_greater, 0.006);
		assert_near(no.p_less, ex.p_less, 0.006);
		if (ex.p_greater >= 0.001 && ex.p_greater <= 0.1) {
			double r = no.p_greater / ex.p_greater;

			assert_true(r >= 0.9 && r <= 2);
			tail++;
		}
	}
	assert_true(tail >= 10);
}

/* AUTO is exact at gate sizes and normal beyond the documented bound. */
static void
mw_auto_cutover(void **state)
{
	static double big[120];
	struct stats_mw mw;

	for (size_t i = 0; i < 120; i++)
		big[i] = (double)((i * 37) % 120);
	assert_true(stats_mw_exact_ok(5, 25));
	assert_true(stats_mw_exact_ok(5, 495));
	assert_false(stats_mw_exact_ok(5, 496));
	assert_false(stats_mw_exact_ok(0, 5));
	assert_int_equal(stats_mann_whitney(&mw, big, 100, big + 100, 5,
	    STATS_MW_AUTO), 0);
	assert_int_equal(mw.method, STATS_MW_EXACT);
	assert_int_equal(stats_mann_whitney(&mw, big, 60, big + 60, 60,
	    STATS_MW_AUTO), 0);
	assert_int_equal(mw.method, STATS_MW_NORMAL);
	/* Forcing exact far past the enumeration limit is refused. */
	assert_int_equal(stats_mann_whitney(&mw, big, 60, big + 60, 60,
	    STATS_MW_NORMAL), 0);
	{
		static double huge[400];

		assert_int_equal(stats_mann_whitney(&mw, huge, 200,
		    huge + 200, 200, STATS_MW_EXACT), JG_EINVAL);
	}
}

/* ---- Hodges-Lehmann ----------------------------------------------------- */

/*
 * 1..5 against 11..15: the 25 differences 10 + (j - i) have median 10, and
 * the 95 % interval is [d(3), d(23)] = [7, 13] at 1 - 2 * 4/252 = 96.8 %
 * (R: wilcox.test(11:15, 1:5, conf.int = TRUE)).
 */
static void
hl_known_data(void **state)
{
	static const double b[] = { 1, 2, 3, 4, 5 };
	static const double c[] = { 15, 11, 14, 12, 13 };
	struct stats_shift sh;

	assert_int_equal(stats_hodges_lehmann(&sh, b, 5, c, 5, 0.95,
	    STATS_MW_AUTO), 0);
	assert_near(sh.estimate, 10, 0);
	assert_near(sh.lo, 7, 0);
	assert_near(sh.hi, 13, 0);
	assert_near(sh.level, 1 - 8.0 / 252, 1e-15);
	assert_false(sh.level_short);
	assert_true(sh.exact);
	/* An even count of differences averages the middle two. */
	assert_int_equal(stats_hodges_lehmann(&sh, b, 2, c + 1, 2, 0.5,
	    STATS_MW_AUTO), 0);
	assert_near(sh.estimate, 11, 0);	/* 9 10 12 13 */
}

/*
 * 3 vs 3 cannot reach 95 %: the widest interval, min..max difference, has
 * 1 - 2/20 = 90 %, and the result says so.  90 % itself is reachable.
 */
static void
hl_unreachable_level_is_flagged(void **state)
{
	static const double b[] = { 1, 4, 6 }, c[] = { 2, 9, 7 };
	struct stats_shift sh;

	assert_int_equal(stats_hodges_lehmann(&sh, b, 3, c, 3, 0.95,
	    STATS_MW_AUTO), 0);
	assert_true(sh.level_short);
	assert_near(sh.level, 0.9, 1e-15);
	assert_near(sh.lo, -4, 0);	/* 2 - 6 */
	assert_near(sh.hi, 8, 0);	/* 9 - 1 */
	assert_near(sh.estimate, 3, 0);	/* 1 -2 -4 8 5 3 6 3 1: median 3 */
	assert_int_equal(stats_hodges_lehmann(&sh, b, 3, c, 3, 0.9,
	    STATS_MW_AUTO), 0);
	assert_false(sh.level_short);
	assert_near(sh.level, 0.9, 1e-15);
	assert_int_equal(stats_hodges_lehmann(&sh, b, 3, c, 3, 1.0,
	    STATS_MW_AUTO), JG_EINVAL);
}

/*
 * The interval is the set of shifts the two-sided test does not reject:
 * moving the current sample by just outside an end makes the exact test
 * reject at 1 - level, just inside does not.
 */
static void
hl_interval_inverts_the_test(void **state)
{
	struct stats_rng rng;

	stats_rng_init(&rng, 99);
	for (int rep = 0; rep < 20; rep++) {
		size_t nb = 4 + stats_rng_below(&rng, 12);
		size_t nc = 4 + stats_rng_below(&rng, 6);
		double b[16], c[10], moved[10];
		struct stats_shift sh;
		const double eps = 1e-7;
		const double ends[][2] = { { 0, -eps }, { 0, eps },
			{ 1, eps }, { 1, -eps } };

		for (size_t i = 0; i < nb; i++)
			b[i] = stats_rng_normal(&rng, 10, 2);
		for (size_t j = 0; j < nc; j++)
			c[j] = stats_rng_normal(&rng, 11, 2);
		assert_int_equal(stats_hodges_lehmann(&sh, b, nb, c, nc, 0.9,
		    STATS_MW_AUTO), 0);
		assert_false(sh.level_short);
		assert_true(sh.lo <= sh.estimate && sh.estimate <= sh.hi);
		for (size_t e = 0; e < 4; e++) {
			double delta = (ends[e][0] ? sh.hi : sh.lo) +
			    ends[e][1];
			int inside = (e == 1 || e == 3);
			struct stats_mw mw;

			for (size_t j = 0; j < nc; j++)
				moved[j] = c[j] - delta;
			assert_int_equal(stats_mann_whitney(&mw, b, nb, moved,
			    nc, STATS_MW_AUTO), 0);
			if (inside)
				assert_true(mw.p_two_sided > 1 - sh.level);
			else
				assert_true(mw.p_two_sided <=
				    1 - sh.level + 1e-12);
		}
	}
}

/* The normal-approximation interval lands within one order statistic. */
static void
hl_normal_interval_close_to_exact(void **state)
{
	struct stats_rng rng;
	double b[30], c[25];
	struct stats_shift ex, no;

	stats_rng_init(&rng, 5);
	for (size_t i = 0; i < 30; i++)
		b[i] = stats_rng_normal(&rng, 0, 1);
	for (size_t j = 0; j < 25; j++)
		c[j] = stats_rng_normal(&rng, 0.5, 1);
	assert_int_equal(stats_hodges_lehmann(&ex, b, 30, c, 25, 0.95,
	    STATS_MW_EXACT), 0);
	assert_int_equal(stats_hodges_lehmann(&no, b, 30, c, 25, 0.95,
	    STATS_MW_NORMAL), 0);
	assert_false(no.exact);
	assert_near(no.estimate, ex.estimate, 0);
	assert_near(no.level, ex.level, 0.003);
	assert_true(no.level >= 0.95 && ex.level >= 0.95);
	assert_near(no.lo, ex.lo, 0.05);
	assert_near(no.hi, ex.hi, 0.05);
}

/* ---- multiple testing --------------------------------------------------- */

/*
 * Hand-computed: sorted 0.005 0.01 0.03 0.04 times 4 3 2 1 is .02 .03 .06
 * .04, running max .02 .03 .06 .06 (Holm); times 4/1 4/2 4/3 4/4 is .02
 * .02 .04 .04, running min from the top the same (BH).
 */
static void
adjust_hand_examples(void **state)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	static const double holm[] = { 0.03, 0.06, 0.06, 0.02 };
	static const double bh[] = { 0.02, 0.04, 0.04, 0.02 };
	double out[4];

	assert_int_equal(stats_p_adjust(out, p, 4, STATS_ADJUST_HOLM), 0);
	for (size_t i = 0; i < 4; i++)
		assert_near(out[i], holm[i], 1e-15);
	assert_int_equal(stats_p_adjust(out, p, 4, STATS_ADJUST_BH), 0);
	for (size_t i = 0; i < 4; i++)
		assert_near(out[i], bh[i], 1e-15);
	assert_int_equal(stats_p_adjust(out, p, 4, STATS_ADJUST_NONE), 0);
	for (size_t i = 0; i < 4; i++)
		assert_near(out[i], p[i], 0);
}

/*
 * Weighted, by hand: p / w of 0.01 0.04 0.03 0.005 over weights 4 1 1 2
 * is .0025 .04 .03 .0025; in that order (ties by input) Holm multiplies
 * by the weight left, 8 4 2 1: .02 .01 .06 .04, running max .02 .02 .06
 * .06; BH by 8 / rank: .02 .01 .08 .08, running min from the top .01 .01
 * .08 .08.  Equal weights are plain Holm, whatever their scale.
 */
static void
adjust_weighted_hand_examples(void **state)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	static const double w[] = { 4, 1, 1, 2 }, same[] = { 3, 3, 3, 3 };
	static const double holm[] = { 0.02, 0.06, 0.06, 0.02 };
	static const double bh[] = { 0.01, 0.08, 0.08, 0.01 };
	static const double plain[] = { 0.03, 0.06, 0.06, 0.02 };
	static const double zero[] = { 1, 0, 1, 1 };
	double out[4];

	assert_int_equal(stats_p_adjust_weighted(out, p, w, 4,
	    STATS_ADJUST_HOLM), 0);
	for (size_t i = 0; i < 4; i++)
		assert_near(out[i], holm[i], 1e-15);
	assert_int_equal(stats_p_adjust_weighted(out, p, w, 4,
	    STATS_ADJUST_BH), 0);
	for (size_t i = 0; i < 4; i++)
		assert_near(out[i], bh[i], 1e-15);
	assert_int_equal(stats_p_adjust_weighted(out, p, same, 4,
	    STATS_ADJUST_HOLM), 0);
	for (size_t i = 0; i < 4; i++)
		assert_near(out[i], plain[i], 1e-15);
	assert_int_equal(stats_p_adjust_weighted(out, p, zero, 4,
	    STATS_ADJUST_HOLM), JG_EINVAL);
}

/* Adjusted values cap at 1, work in place, and equal p stay equal. */
static void
adjust_caps_and_in_place(void **state)
{
	double p[] = { 0.6, 0.5 };
	double tie[] = { 0.01, 0.01, 0.2 };

	assert_int_equal(stats_p_adjust(p, p, 2, STATS_ADJUST_HOLM), 0);
	assert_near(p[0], 1, 0);	/* max(2 * .5, .6) capped */
	assert_near(p[1], 1, 0);
	p[0] = 0.6;
	p[1] = 0.5;
	assert_int_equal(stats_p_adjust(p, p, 2, STATS_ADJUST_BH), 0);
	assert_near(p[0], 0.6, 1e-15);
	assert_near(p[1], 0.6, 1e-15);	/* min(2 * .5, .6) */
	assert_int_equal(stats_p_adjust(tie, tie, 3, STATS_ADJUST_HOLM), 0);
	assert_near(tie[0], 0.03, 1e-15);
	assert_near(tie[1], 0.03, 1e-15);
	assert_near(tie[2], 0.2, 1e-15);
	assert_int_equal(stats_p_adjust(NULL, NULL, 0, STATS_ADJUST_BH), 0);
}

/* A p-value outside [0, 1] or NaN is an error; names round-trip. */
static void
adjust_rejects_bad_input(void **state)
{
	static const double bad[] = { 0.1, 1.5 }, nan[] = { NAN };
	enum stats_adjust how;
	double out[2];

	assert_int_equal(stats_p_adjust(out, bad, 2, STATS_ADJUST_HOLM),
	    JG_EINVAL);
	assert_int_equal(stats_p_adjust(out, nan, 1, STATS_ADJUST_NONE),
	    JG_EINVAL);
	assert_int_equal(stats_p_adjust(out, bad, 1, (enum stats_adjust)9),
	    JG_EINVAL);
	assert_int_equal(stats_adjust_parse(&how, "bh"), 0);
	assert_int_equal(how, STATS_ADJUST_BH);
	assert_string_equal(stats_adjust_name(STATS_ADJUST_HOLM), "holm");
	assert_int_equal(stats_adjust_parse(&how, "bonferroni"), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "'bonferroni'"));
}

/* ---- detectable shift --------------------------------------------------- */

/* ---- normal distribution ------------------------------------------------ */

/* Known quantiles, and quantile(cdf(x)) == x across the range. */
static void
normal_quantile_known_values(void **state)
{
	static const struct { double p, z; } known[] = {
		{ 0.5, 0 },
		{ 0.8, 0.8416212335729143 },
		{ 0.95, 1.6448536269514722 },
		{ 0.975, 1.959963984540054 },
		{ 0.999, 3.090232306167813 },
		{ 0.025, -1.959963984540054 },
		{ 1e-10, -6.361340902404056 },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		assert_near(stats_norm_quantile(known[i].p), known[i].z,
		    1e-13);
	for (double x = -8; x <= 8; x += 0.125) {
		double back = x > 0 ? -stats_norm_quantile(stats_norm_sf(x)) :
		    stats_norm_quantile(stats_norm_cdf(x));

		assert_near(back, x, 1e-12 * fmax(1, fabs(x)));
	}
	assert_near(stats_norm_cdf(1.959963984540054), 0.975, 1e-15);
	assert_near(stats_norm_sf(10), 7.619853024160527e-24, 1e-36);
	assert_true(isinf(stats_norm_quantile(0)) &&
	    stats_norm_quantile(0) < 0);
	assert_true(isinf(stats_norm_quantile(1)));
	assert_true(isnan(stats_norm_quantile(1.5)));
	assert_true(isnan(stats_norm_quantile(NAN)));
}

/* ---- PRNG --------------------------------------------------------------- */

/*
 * A seed names one stream forever: the values below pin xoshiro256**
 * seeded through splitmix64, so benchmarks stay reproducible.
 */
static void
rng_is_deterministic(void **state)
{
	struct stats_rng a, b;
	int differ = 0;

	stats_rng_init(&a, 42);
	assert_true(stats_rng_next(&a) == 0x15780b2e0c2ec716ULL);
	assert_true(stats_rng_next(&a) == 0x6104d9866d113a7eULL);
	assert_true(stats_rng_next(&a) == 0xae17533239e499a1ULL);
	stats_rng_init(&a, 0);
	assert_true(stats_rng_next(&a) == 0x99ec5f36cb75f2b4ULL);

	stats_rng_init(&a, 123);
	stats_rng_init(&b, 123);
	for (int i = 0; i < 1000; i++) {
		assert_near(stats_rng_normal(&a, 0, 1),
		    stats_rng_normal(&b, 0, 1), 0);
		assert_true(stats_rng_below(&a, 7) == stats_rng_below(&b, 7));
	}
	stats_rng_init(&b, 124);
	for (int i = 0; i < 10; i++)
		differ += stats_rng_next(&a) != stats_rng_next(&b);
	assert_int_equal(differ, 10);
}

/* Draws have the right range, mean and spread. */
static void
rng_distributions(void **state)
{
	struct stats_rng rng;
	double su = 0, sn = 0, sn2 = 0;
	size_t seen[10] = { 0 };
	const int n = 100000;

	stats_rng_init(&rng, 1);
	for (int i = 0; i < n; i++) {
		double u = stats_rng_uniform(&rng);
		double z = stats_rng_normal(&rng, 5, 2);
		uint64_t k = stats_rng_below(&rng, 10);

		assert_true(u >= 0 && u < 1);
		assert_true(k < 10);
		seen[k]++;
		su += u;
		sn += z;
		sn2 += (z - 5) * (z - 5);
	}
	assert_near(su / n, 0.5, 0.005);
	assert_near(sn / n, 5, 0.02);
	assert_near(sqrt(sn2 / n), 2, 0.02);
	for (size_t k = 0; k < 10; k++)
		assert_near(seen[k] / (double)n, 0.1, 0.005);
	assert_true(stats_rng_below(&rng, 0) == 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(quantile_is_type7),
	cmocka_unit_test(quantile_rejects_bad_arguments),
	cmocka_unit_test(summary_known_values),
	cmocka_unit_test(summary_of_empty_sample),
	cmocka_unit_test(non_finite_values_are_rejected),
	cmocka_unit_test(mw_exact_matches_tables),
	cmocka_unit_test(mw_matches_r_examples),
	cmocka_unit_test(mw_exact_matches_brute_force),
	cmocka_unit_test(mw_single_values),
	cmocka_unit_test(mw_empty_sample_is_error),
	cmocka_unit_test(mw_identical_samples_p_one),
	cmocka_unit_test(mw_ties_use_mid_ranks),
	cmocka_unit_test(mw_normal_close_to_exact),
	cmocka_unit_test(mw_auto_cutover),
	cmocka_unit_test(hl_known_data),
	cmocka_unit_test(hl_unreachable_level_is_flagged),
	cmocka_unit_test(hl_interval_inverts_the_test),
	cmocka_unit_test(hl_normal_interval_close_to_exact),
	cmocka_unit_test(adjust_hand_examples),
	cmocka_unit_test(adjust_weighted_hand_examples),
	cmocka_unit_test(adjust_caps_and_in_place),
	cmocka_unit_test(adjust_rejects_bad_input),
	cmocka_unit_test(normal_quantile_known_values),
	cmocka_unit_test(rng_is_deterministic),
	cmocka_unit_test(rng_distributions),
};

JG_UNIT_GROUP(stats, tests, NULL, NULL)
