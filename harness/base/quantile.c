/*
 * quantile.c: the type 7 quantile (quantile.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "quantile.h"
#include "xalloc.h"
#include "banned.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
quantile_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

double
quantile_sorted(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t j = (size_t)floor(h);

	if (j >= n - 1)
		return x[n - 1];
	return x[j] + (h - (double)j) * (x[j + 1] - x[j]);
}

double *
quantile_sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc(n * sizeof(*s));

	memcpy(s, x, n * sizeof(*s));
	quantile_sort(s, n);
	return s;
}

int
quantile(double *out, const double *x, size_t n, double p)
{
	double *s;

	if (!n)
		return jg_error_set(JG_EINVAL, "quantile of an empty sample");
	if (!(p >= 0 && p <= 1))
		return jg_error_set(JG_EINVAL, "quantile %g is outside [0, 1]",
		    p);
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return jg_error_set(JG_EINVAL, "sample value %zu "
			    "is not a finite number (%g)", i, x[i]);
	s = quantile_sorted_copy(x, n);
	*out = quantile_sorted(s, n, p);
	free(s);
	return 0;
}
