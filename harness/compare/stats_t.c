/*
 * stats_t.c: Student's t and Fisher's F distributions, for the session
 * model's tests.
 *
 * compare decides at the far tail: a night of ~460 tested metrics at
 * alpha 0.01 asks a lone change for p below 2e-5, and the session model's
 * degrees of freedom are often few (a handful of baseline runs).  So the
 * tail must be right in relative terms, where 1 - cdf would be rounding
 * noise.  The upper tail is
 *
 *	P(T > t) = I_x(df / 2, 1 / 2) / 2,	x = df / (df + t^2),
 *
 * with I the regularized incomplete beta function, evaluated by its
 * continued fraction (modified Lentz) on the side where it converges
 * fast, with the prefactor x^a (1 - x)^b / (a B(a, b)) in logarithms.  For
 * large t, x is small and the fraction is evaluated directly, so the tail
 * keeps full relative precision down to the smallest doubles.  Degrees of
 * freedom need not be whole (Satterthwaite's are not); beyond 1e7 the
 * normal distribution is used.  The quantile is Newton's method on the
 * tail, started from the normal quantile, guarded by bisection.
 */
#include <math.h>

#include "stats.h"
#include "banned.h"

/* Beyond this, t and the standard normal differ by less than 1e-7. */
#define T_NORMAL_DF 1e7

/* The continued fraction of I_x(a, b), for x < (a + 1) / (a + b + 2). */
static double
beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double m2 = 2.0 * m, num, delta;

		/* The even step, then the odd one. */
		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return h;
}

/* log of x^a (1 - x)^b / B(a, b). */
static double
beta_log_front(double a, double b, double x)
{
	return lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x);
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double
beta_inc(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	if (x < (a + 1) / (a + b + 2))
		return exp(beta_log_front(a, b, x)) * beta_fraction(a, b, x) /
		    a;
	return 1 - exp(beta_log_front(b, a, 1 - x)) *
	    beta_fraction(b, a, 1 - x) / b;
}

double
stats_t_sf(double t, double df)
{
	double tail;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (df > T_NORMAL_DF)
		return stats_norm_sf(t);
	if (isinf(t))
		return t > 0 ? 0 : 1;
	/*
	 * For |t| small x is near 1, where I_x(df/2, 1/2) is computed as
	 * 1 - I_{1-x}(1/2, df/2); 1 - x = t^2 / (df + t^2) is formed
	 * directly so no precision is lost to cancellation.
	 */
	if (t * t < df)
		tail = 1 - beta_inc(0.5, df / 2, t * t / (df + t * t));
	else
		tail = beta_inc(df / 2, 0.5, df / (df + t * t));
	tail /= 2;
	return t > 0 ? tail : 1 - tail;
}

double
stats_f_sf(double f, double d1, double d2)
{
	if (isnan(f) || !(d1 > 0) || !(d2 > 0))
		return NAN;
	if (f <= 0)
		return 1;
	if (isinf(f))
		return 0;
	/* P(F > f) = I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2). */
	return beta_inc(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}

double
stats_t_cdf(double t, double df)
{
	return stats_t_sf(-t, df);
}

/* The density of t with df degrees of freedom. */
static double
t_density(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) -
	    0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(t * t / df));
}

double
stats_t_quantile(double p, double df)
{
	double q, x, lo = 0, hi = INFINITY;

	if (isnan(p) || isnan(df) || df <= 0 || p < 0 || p > 1)
		return NAN;
	if (df > T_NORMAL_DF)
		return stats_norm_quantile(p);
	if (p == 0 || p == 1)
		return p ? INFINITY : -INFINITY;
	if (p == 0.5)
		return 0;
	/* Solve P(T > x) = q for the upper tail, x > 0. */
	q = p < 0.5 ? p : 1 - p;
	x = -stats_norm_quantile(q);
	for (int i = 0; i < 200; i++) {
		double s = stats_t_sf(x, df), step, next;

		if (s > q)
			lo = x;
		else
			hi = x;
		if (fabs(s - q) <= q * 1e-12)
			break;
		/* Newton on log P(T > x), which is near linear in the tail. */
		step = (log(s) - log(q)) * s / t_density(x, df);
		next = x + step;
		if (!(next > lo && next < hi))
			next = isinf(hi) ? 2 * x + 1 : (lo + hi) / 2;
		if (fabs(next - x) <= 1e-13 * x)
			break;
		x = next;
	}
	return p < 0.5 ? -x : x;
}

/* ---- the polygamma functions, for moderated variances ------------------ */

/*
 * Both by the recurrence up to x >= 10, then the asymptotic series in
 * 1/x^2 (Abramowitz & Stegun 6.3.18 and 6.4.12), good to 1e-13 there.
 */
double
stats_digamma(double x)
{
	double acc = 0, r, r2;

	if (!(x > 0))
		return NAN;
	while (x < 10) {
		acc -= 1 / x;
		x += 1;
	}
	r = 1 / x;
	r2 = r * r;
	return acc + log(x) - 0.5 * r - r2 * (1.0 / 12 - r2 * (1.0 / 120 -
	    r2 * (1.0 / 252 - r2 * (1.0 / 240 - r2 / 132))));
}

double
stats_trigamma(double x)
{
	double acc = 0, r, r2;

	if (!(x > 0))
		return NAN;
	while (x < 10) {
		acc += 1 / (x * x);
		x += 1;
	}
	r = 1 / x;
	r2 = r * r;
	return acc + r + 0.5 * r2 + r * r2 * (1.0 / 6 - r2 * (1.0 / 30 -
	    r2 * (1.0 / 42 - r2 / 30)));
}

double
stats_trigamma_inverse(double y)
{
	double lo = -30, hi = 30;	/* log x: trigamma falls from 1e26 to 1e-13 */

	if (!(y > 0) || isinf(y))
		return NAN;
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = (lo + hi) / 2;

		if (stats_trigamma(exp(mid)) > y)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}
