/*
 * monoclock.c: CLOCK_MONOTONIC in ms on the tests' time scale
 * (monoclock.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "monoclock.h"
#include "banned.h"

static double scale = 1.0;
static pthread_once_t scale_once = PTHREAD_ONCE_INIT;

static void
read_scale(void)
{
	const char *s = getenv("JANKGATE_TEST_CLOCK_SCALE");
	char *end;
	double v;

	if (!s || !*s)
		return;
	v = strtod(s, &end);
	if (end != s && !*end && v >= 0.01 && v <= 1000)
		scale = v;
}

double
monoclock_scale(void)
{
	pthread_once(&scale_once, read_scale);
	return scale;
}

double
monoclock_ms(void)
{
	struct timespec ts;
	double ms;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ms = (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
	return ms * monoclock_scale();
}

long long
monoclock_real_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
