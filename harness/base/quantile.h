/*
 * quantile.h: the type 7 quantile of a sample (R's default and NumPy's
 * "linear": h = (n - 1) p, interpolated between the order statistics
 * around h).
 *
 * It lives at the bottom because two layers need it: the statistics of
 * compare (stats.h's summaries) and a data source that reduces one
 * scene's frames to a median and a 90th percentile (phases.c).
 */
#ifndef JG_QUANTILE_H
#define JG_QUANTILE_H

#include <stddef.h>

/*
 * Store the quantile `p` (0 <= p <= 1) of x[0..n-1] in *out; `x` is not
 * modified.  JG_EINVAL for n == 0, p outside [0, 1] or a value that is
 * not finite.
 */
int quantile(double *out, const double *x, size_t n, double p);

/* The quantile `p` of x[0..n-1] sorted ascending; n > 0, 0 <= p <= 1. */
double quantile_sorted(const double *x, size_t n, double p);

/* Sort x[0..n-1] ascending in place. */
void quantile_sort(double *x, size_t n);

/* A sorted copy of x[0..n-1], n > 0; the caller frees it. */
double *quantile_sorted_copy(const double *x, size_t n);

#endif
