/*
 * test_stats_t.c: Student's t and Fisher's F distributions (stats_t.c).
 *
 * The reference values were computed with mpmath at 40 digits, from the
 * regularized incomplete beta function, independently of the continued
 * fraction stats_t.c uses.  The session model tests at levels such as
 * 2e-5 with a few degrees of freedom, so the tail must hold its relative
 * precision there: the tolerance is relative, 1e-9.
 */
#include <math.h>

#include "unit.h"
#include "stats.h"

static void
assert_rel(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("%.17g is not within %g of %.17g", got, rel, want);
}

/* The upper tail matches mpmath far into it, for whole and fractional df. */
static void
t_tail_matches_reference(void **state)
{
	static const struct { double t, df, want; } cases[] = {
		{ 0.5, 3, 0.3257239824240755 },
		{ 2.0, 1, 0.14758361765043327 },
		{ 1.0, 2.5, 0.20203051363913673 },
		{ 4.0, 4, 0.0080650449500462668 },
		{ 7.1, 8, 5.0996459629652223e-5 },
		{ 12.0, 6.6, 5.010275280989191e-6 },
		{ 5.0, 30, 1.1648342733503898e-5 },
		{ 4.5, 105.3, 8.7906955619489096e-6 },
		{ 25.0, 4, 7.5987628816578692e-6 },
		{ 3.0, 1000000.0, 0.0013499312707108985 },
		{ -2.0, 10, 0.96330598261462982 },
		{ 0.01, 50, 0.49603054068357146 },
		{ 60, 2.9, 7.0204897676900768e-6 },
		{ 9, 1, 0.035223287477277274 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assert_rel(stats_t_sf(cases[i].t, cases[i].df), cases[i].want,
		    1e-9);
		assert_rel(stats_t_cdf(-cases[i].t, cases[i].df),
		    cases[i].want, 1e-9);
	}
}

/* Quantiles invert the tail, including at the levels the gate tests. */
static void
t_quantile_matches_reference(void **state)
{
	static const struct { double p, df, want; } cases[] = {
		{ 1 - 1e-5, 8, 8.907026870848961 },
		{ 1 - 2e-5, 77, 4.3585365113206676 },
		{ 0.975, 10, 2.2281388519862742 },
		{ 1e-6, 3, -103.29946778041934 },
		{ 0.9, 1.5, 2.1963984175655378 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		assert_rel(stats_t_quantile(cases[i].p, cases[i].df),
		    cases[i].want, 1e-9);
	assert_true(stats_t_quantile(0.5, 7) == 0);
	assert_true(isinf(stats_t_quantile(1, 7)));
	assert_true(isnan(stats_t_quantile(1.5, 7)));
	assert_true(isnan(stats_t_sf(1, 0)));
	assert_true(isnan(stats_t_sf(NAN, 3)));
}

/* With huge df the t is the normal; at the extremes the tail is 0 or 1. */
static void
t_limits(void **state)
{
	(void)state;
	assert_rel(stats_t_sf(4.2, 1e9), stats_norm_sf(4.2), 1e-12);
	assert_rel(stats_t_quantile(1 - 1e-5, 1e9),
	    stats_norm_quantile(1 - 1e-5), 1e-12);
	assert_true(stats_t_sf(INFINITY, 5) == 0);
	assert_true(stats_t_sf(-INFINITY, 5) == 1);
	/* Deep in the tail the value is tiny but not rounded to 0. */
	assert_rel(stats_t_sf(1e4, 30), 1.0364489469774065e-99, 1e-9);
}

/* Fisher's F upper tail, against mpmath. */
static void
f_tail_matches_reference(void **state)
{
	static const struct { double f, d1, d2, want; } cases[] = {
		{ 3.0, 4, 20, 0.043200998334214091 },
		{ 1.0, 19, 80, 0.47033547047714331 },
		{ 2.5, 19, 80, 0.0024009589162264082 },
		{ 10, 1, 5, 0.025031015818452942 },
		{ 0.5, 3, 7.5, 0.69328550218545688 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		assert_rel(stats_f_sf(cases[i].f, cases[i].d1, cases[i].d2),
		    cases[i].want, 1e-9);
	assert_true(stats_f_sf(0, 3, 4) == 1);
	assert_true(isnan(stats_f_sf(1, 0, 4)));
}

/*
 * The polygamma functions at values known in closed form (Euler's gamma,
 * pi^2/6, the harmonic numbers), and trigamma's inverse undoing it.
 */
static void
polygamma_matches_closed_forms(void **state)
{
	const double pi2 = M_PI * M_PI;

	(void)state;
	assert_rel(stats_digamma(1), -0.57721566490153286, 1e-11);
	assert_rel(stats_digamma(0.5), -0.57721566490153286 - 2 * M_LN2,
	    1e-11);
	/* psi(10) = H_9 - gamma */
	assert_rel(stats_digamma(10), 7129.0 / 2520 - 0.57721566490153286,
	    1e-11);
	assert_rel(stats_trigamma(1), pi2 / 6, 1e-11);
	assert_rel(stats_trigamma(0.5), pi2 / 2, 1e-11);
	assert_rel(stats_trigamma(10), pi2 / 6 - 9778141.0 / 6350400,
	    1e-9);
	for (double x = 0.05; x < 2000; x *= 3.7)
		assert_rel(stats_trigamma_inverse(stats_trigamma(x)), x, 1e-9);
	assert_true(isnan(stats_digamma(0)) && isnan(stats_trigamma(-1)));
	assert_true(isnan(stats_trigamma_inverse(0)));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(f_tail_matches_reference),
	cmocka_unit_test(t_tail_matches_reference),
	cmocka_unit_test(t_quantile_matches_reference),
	cmocka_unit_test(t_limits),
	cmocka_unit_test(polygamma_matches_closed_forms),
};

JG_UNIT_GROUP(stats_t, tests, NULL, NULL)
