/*
 * stats.c: the small statistics that stand around the Mann-Whitney test.
 *
 * Sample summaries (type 7 quantiles, from base's quantile.c; IQR, MAD), the standard normal
 * distribution, multiple-testing adjustment and the seeded PRNG.  The rank
 * test itself and the shift estimate, which share the
 * exact null distributions, are in stats_mw.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "error.h"
#include "quantile.h"
#include "xalloc.h"
#include "banned.h"

int
stats_check_finite(const double *x, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return jg_error_set(JG_EINVAL,
			    "%s value %zu is not a finite number (%g)",
			    what, i, x[i]);
	return 0;
}

int
stats_quantile(double *out, const double *x, size_t n, double p)
{
	return quantile(out, x, n, p);
}

int
stats_summarize(struct stats_summary *out, const double *x, size_t n)
{
	double *s, *dev, sum = 0;
	int ret;

	if (!n) {
		out->n = 0;
		out->min = out->q1 = out->median = out->q3 = out->max = NAN;
		out->iqr = out->mean = out->mad = NAN;
		return 0;
	}
	if ((ret = stats_check_finite(x, n, "sample")) < 0)
		return ret;
	s = quantile_sorted_copy(x, n);
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->q1 = quantile_sorted(s, n, 0.25);
	out->median = quantile_sorted(s, n, 0.5);
	out->q3 = quantile_sorted(s, n, 0.75);
	out->iqr = out->q3 - out->q1;
	/* Summing in ascending order loses the least to rounding. */
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;

	dev = s;	/* reused: the sorted values are no longer needed */
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(dev[i] - out->median);
	quantile_sort(dev, n);
	out->mad = quantile_sorted(dev, n, 0.5);
	free(s);
	return 0;
}

/* ---- normal distribution ------------------------------------------------ */

double
stats_norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

double
stats_norm_sf(double x)
{
	return 0.5 * erfc(x / M_SQRT2);
}

/*
 * Start from Abramowitz & Stegun 26.2.23, a rational approximation in
 * t = sqrt(-2 ln q) of the upper-tail quantile (absolute error < 4.5e-4),
 * then polish with Halley steps on cdf(x) = q, which converge cubically:
 * error 4.5e-4 becomes ~1e-10 after one step and rounding noise after two.
 * The work is done on the lower tail q = min(p, 1 - p), where erfc keeps its
 * relative accuracy.  Below q = 1e-290 the density in the Halley step
 * underflows, so the raw approximation is returned there.
 */
double
stats_norm_quantile(double p)
{
	static const double c0 = 2.515517, c1 = 0.802853, c2 = 0.010328;
	static const double d1 = 1.432788, d2 = 0.189269, d3 = 0.001308;
	double q, t, x;

	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	q = p < 0.5 ? p : 1 - p;
	t = sqrt(-2 * log(q));
	x = -(t - (c0 + t * (c1 + t * c2)) /
	    (1 + t * (d1 + t * (d2 + t * d3))));
	for (int i = 0; i < 3 && q > 1e-290; i++) {
		double u = (stats_norm_cdf(x) - q) * sqrt(2 * M_PI) *
		    exp(x * x / 2);

		x -= u / (1 + x * u / 2);
	}
	return p < 0.5 ? x : -x;
}

/* ---- multiple testing --------------------------------------------------- */

struct ranked_p {
	double p;
	size_t i;
};

/* Ascending p; equal p keep input order so the result is deterministic. */
static int
cmp_ranked_p(const void *a, const void *b)
{
	const struct ranked_p *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int
stats_p_adjust(double *out, const double *p, size_t n, enum stats_adjust how)
{
	return stats_p_adjust_weighted(out, p, NULL, n, how);
}

int
stats_p_adjust_weighted(double *out, const double *p, const double *w,
    size_t n, enum stats_adjust how)
{
	struct ranked_p *r;
	double run, total = 0, rest;

	for (size_t i = 0; i < n; i++) {
		if (!(p[i] >= 0 && p[i] <= 1))
			return jg_error_set(JG_EINVAL,
			    "p-value %zu is outside [0, 1] (%g)", i, p[i]);
		if (w && !(w[i] > 0 && isfinite(w[i])))
			return jg_error_set(JG_EINVAL,
			    "weight %zu is not a positive number (%g)", i,
			    w[i]);
	}
	if (how == STATS_ADJUST_NONE) {
		if (out != p && n)
			memmove(out, p, n * sizeof(*out));
		return 0;
	}
	if (how != STATS_ADJUST_HOLM && how != STATS_ADJUST_BH)
		return jg_error_set(JG_EINVAL, "unknown p-value adjustment %d",
		    (int)how);
	if (!n)
		return 0;
	/*
	 * Copy first: out may be p, and every rank needs the raw values.
	 * Weighted, the order is that of p / w, and a hypothesis' share of
	 * what is left is its weight over the weights left.
	 */
	r = xmalloc(n * sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		r[i].p = w ? p[i] / w[i] : p[i];
		r[i].i = i;
		total += w ? w[i] : 1;
	}
	qsort(r, n, sizeof(*r), cmp_ranked_p);
	if (how == STATS_ADJUST_HOLM) {
		/* Step down: the j-th smallest faces the weight left. */
		run = 0;
		rest = total;
		for (size_t j = 0; j < n; j++) {
			double v = fmin(1, rest * r[j].p);

			rest -= w ? w[r[j].i] : 1;
			run = fmax(run, v);
			out[r[j].i] = run;
		}
	} else {
		/* Step up: a p-value is no worse than any larger one's;
		 * weighted, p / w against the mean weight (Genovese et al.). */
		run = 1;
		for (size_t j = n; j-- > 0;) {
			double v = fmin(1, total * r[j].p / (double)(j + 1));

			run = fmin(run, v);
			out[r[j].i] = run;
		}
	}
	free(r);
	return 0;
}

static const char *const adjust_names[] = {
	[STATS_ADJUST_NONE] = "none",
	[STATS_ADJUST_HOLM] = "holm",
	[STATS_ADJUST_BH] = "bh",
};

const char *
stats_adjust_name(enum stats_adjust how)
{
	if ((size_t)how < sizeof(adjust_names) / sizeof(adjust_names[0]))
		return adjust_names[how];
	return "unknown";
}

int
stats_adjust_parse(enum stats_adjust *out, const char *name)
{
	for (size_t i = 0; i < sizeof(adjust_names) / sizeof(adjust_names[0]);
	    i++) {
		if (!strcmp(name, adjust_names[i])) {
			*out = (enum stats_adjust)i;
			return 0;
		}
	}
	return jg_error_set(JG_EINVAL,
	    "unknown p-value adjustment '%s' (none, holm, bh)", name);
}

/* ---- PRNG --------------------------------------------------------------- */

/*
 * splitmix64 (Steele, Lea & Flood 2014) turns any seed, even 0, into well
 * mixed state words; xoshiro256** (Blackman & Vigna 2018) is the generator.
 */
static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void
stats_rng_init(struct stats_rng *rng, uint64_t seed)
{
	for (size_t i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
	rng->spare = 0;
	rng->has_spare = 0;
}

uint64_t
stats_rng_next(struct stats_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

double
stats_rng_uniform(struct stats_rng *rng)
{
	return (double)(stats_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t
stats_rng_below(struct stats_rng *rng, uint64_t n)
{
	/* 2^64 mod n: drawing below it would favour the small residues. */
	uint64_t skip;

	if (!n)
		return 0;
	skip = -n % n;
	for (;;) {
		uint64_t r = stats_rng_next(rng);

		if (r >= skip)
			return r % n;
	}
}

double
stats_rng_normal(struct stats_rng *rng, double mean, double sd)
{
	double u, v, s, f;

	if (rng->has_spare) {
		rng->has_spare = 0;
		return mean + sd * rng->spare;
	}
	do {
		u = 2 * stats_rng_uniform(rng) - 1;
		v = 2 * stats_rng_uniform(rng) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	f = sqrt(-2 * log(s) / s);
	rng->spare = v * f;
	rng->has_spare = 1;
	return mean + sd * u * f;
}
