/*
 * cancel.h: one process-wide request to stop, and how waits honour it.
 *
 * SIGINT or SIGTERM (cli/commands.c) calls cancel_request().  Nothing is
 * torn down from the signal handler: every wait that can last (a socket
 * poll of the adb client, a child process, a retry's sleep, a transfer)
 * looks at cancel_pending() at least every CANCEL_POLL_MS and gives up
 * with JG_EINTR, so a device command that hangs is abandoned within that
 * time instead of holding the cancel for its whole timeout.
 *
 * The cleanup after a cancel still talks to the device (the app is
 * force-stopped): a thread that does it first calls cancel_shield(), and
 * its waits then ignore the cancel until the shield's short deadline,
 * when they are abandoned too.
 */
#ifndef JG_CANCEL_H
#define JG_CANCEL_H

/* How often, at most, a wait looks at the request (ms). */
#define CANCEL_POLL_MS 100

/* Ask everything in flight to stop.  Async-signal-safe. */
void cancel_request(void);

/* 1 once cancel_request() was called (until cancel_reset()), else 0. */
int cancel_requested(void);

/*
 * 1 when the calling thread's waits must end now: a cancel was requested
 * and the thread holds no shield, or its shield's time is up.
 */
int cancel_pending(void);

/*
 * Let the calling thread's waits run for up to `ms` more after a cancel,
 * for the cleanup; cancel_unshield() ends it.  The shield is per thread.
 */
void cancel_shield(int ms);
void cancel_unshield(void);

/* Forget a request: for tests that cancel more than once per process. */
void cancel_reset(void);

#endif
