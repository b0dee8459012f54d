/*
 * cancel.c: the process-wide request to stop (cancel.h).
 *
 * A flag of type sig_atomic_t is all the signal handler touches; the
 * shield is thread-local, on CLOCK_MONOTONIC (never the tests' scaled
 * clock: a cleanup's budget is real time, as the CI's patience is).
 */
#include <signal.h>

#include "cancel.h"
#include "monoclock.h"
#include "banned.h"

static volatile sig_atomic_t requested;
static _Thread_local long long shield_until;	/* 0: no shield */

void
cancel_request(void)
{
	requested = 1;
}

int
cancel_requested(void)
{
	return requested != 0;
}

int
cancel_pending(void)
{
	if (!requested)
		return 0;
	return !shield_until || monoclock_real_ms() >= shield_until;
}

void
cancel_shield(int ms)
{
	shield_until = monoclock_real_ms() + (ms > 0 ? ms : 1);
}

void
cancel_unshield(void)
{
	shield_until = 0;
}

void
cancel_reset(void)
{
	requested = 0;
}
