/*
 * run_clock.c: the runner's clocks: host time, sleeping that an
 * interrupt cuts short, the run's wall-clock stamp, and a device's
 * CLOCK_MONOTONIC learned from a gfxinfo dump (run_int.h).
 *
 * Interrupts: run_interrupt() is cancel.h's request, which the workers
 * look at between steps and while they wait (run_sleep_ms()), and the adb
 * client in every socket wait; nothing here is unsafe in a signal
 * handler.
 */
#include <stdbool.h>
#include <time.h>

#include "cancel.h"
#include "error.h"
#include "gfxinfo_dump.h"
#include "monoclock.h"
#include "run.h"
#include "run_int.h"
#include "banned.h"

void
run_interrupt(void)
{
	cancel_request();
}

int
run_interrupted(void)
{
	return cancel_requested();
}

double
run_now_ms(void)
{
	return monoclock_ms();
}

int
run_sleep_ms(double ms)
{
	double until = run_now_ms() + ms;

	for (;;) {
		double left = until - run_now_ms();
		struct timespec ts;

		if (cancel_requested())
			return jg_error_set(JG_EINTR, "interrupted");
		if (left <= 0)
			return 0;
		if (left > 50)
			left = 50;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e6);
		nanosleep(&ts, NULL);
	}
}

void
run_format_now(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void
run_dev_clock(struct run_dev *d, const char *dump, size_t len, double host_ms)
{
	double mono;

	if (gfxinfo_uptime(dump, len, &mono))
		return;
	d->clock_offset = mono - host_ms;
	d->have_offset = true;
}
