/*
 * sim_rng.c: the few distributions the device model needs, over
 * jankgate's seeded generator (stats_rng: xoshiro256** seeded by
 * splitmix64), so there is one implementation of the generator.  The
 * normal draw uses Box-Muller without caching the second value, so every
 * draw consumes exactly two uniforms and the stream stays easy to reason
 * about when callers interleave different distributions.
 */
#include <math.h>

#include "sim_rng.h"
#include "banned.h"

void
simrng_seed(struct simrng *r, uint64_t seed)
{
	stats_rng_init(&r->rng, seed);
}

uint64_t
simrng_next(struct simrng *r)
{
	return stats_rng_next(&r->rng);
}

double
simrng_uniform(struct simrng *r)
{
	return stats_rng_uniform(&r->rng);
}

int
simrng_chance(struct simrng *r, double p)
{
	/* Draw even for p <= 0 or p >= 1 so the stream does not depend on p. */
	double u = simrng_uniform(r);

	return u < p;
}

uint64_t
simrng_below(struct simrng *r, uint64_t n)
{
	return stats_rng_below(&r->rng, n);
}

double
simrng_normal(struct simrng *r, double mean, double sd)
{
	/* u1 in (0, 1]: log(0) must not happen. */
	double u1 = 1.0 - simrng_uniform(r);
	double u2 = simrng_uniform(r);

	return mean + sd * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double
simrng_lognormal(struct simrng *r, double median, double sigma)
{
	return median * exp(simrng_normal(r, 0.0, sigma));
}
