/*
 * sim_rng.h: the simulated device's seeded random numbers.
 *
 * Everything the simulated phone makes up (frame costs, block chances,
 * launch times) is drawn from one of these, so a device started with the
 * same seed and driven by the same commands produces the same bytes: tests
 * can compare runs, and a failing end-to-end case can be replayed.  libc's
 * rand() is neither portable across libcs nor private to one generator, so
 * this is our own xoshiro256** seeded through splitmix64.
 */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include <stdint.h>

#include "stats.h"

/* jankgate's own generator (stats.h), plus the draws the model needs. */
struct simrng {
	struct stats_rng rng;
};

/* Seed `r`; any seed (0 included) gives a usable, distinct stream. */
void simrng_seed(struct simrng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t simrng_next(struct simrng *r);

/* Uniform in [0, 1), 53 bits of precision. */
double simrng_uniform(struct simrng *r);

/* 1 with probability `p` (clamped to [0, 1]), else 0. */
int simrng_chance(struct simrng *r, double p);

/* Uniform integer in [0, n); 0 when n is 0. */
uint64_t simrng_below(struct simrng *r, uint64_t n);

/* Normal with the given mean and standard deviation (Box-Muller). */
double simrng_normal(struct simrng *r, double mean, double sd);

/*
 * Lognormal with the given median (not mean) and shape `sigma`: the
 * natural model of durations, which are positive and right-skewed.  A
 * sigma of 0 returns the median itself.
 */
double simrng_lognormal(struct simrng *r, double median, double sigma);

#endif
