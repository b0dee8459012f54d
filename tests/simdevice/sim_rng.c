/*
 * sim_rng.c: xoshiro256** with a splitmix64 seeder, and the few
 * distributions the device model needs.
 *
 * Both generators are public-domain algorithms by Blackman and Vigna; this
 * is a fresh implementation from their published descriptions.  The
 * normal draw uses Box-Muller without caching the second value, so every
 * draw consumes exactly two uniforms and the stream stays easy to reason
 * about when callers interleave different distributions.
 */
#include <math.h>

#include "sim_rng.h"
#include "banned.h"

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
simrng_seed(struct simrng *r, uint64_t seed)
{
	int i;

	/* splitmix64 never yields four zero words, which xoshiro forbids. */
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t
simrng_next(struct simrng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double
simrng_uniform(struct simrng *r)
{
	return (double)(simrng_next(r) >> 11) * 0x1.0p-53;
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
	uint64_t limit, x;

	if (!n)
		return 0;
	/* Reject the top partial range so every value is equally likely. */
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = simrng_next(r);
	while (x >= limit);
	return x % n;
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
