/*
 * monoclock.h: the host clock the runner measures device time with.
 *
 * Milliseconds of CLOCK_MONOTONIC, multiplied by a test-only scale read
 * once from JANKGATE_TEST_CLOCK_SCALE (default 1).  The end-to-end tests
 * run the simulated phone faster than real time (its --clock-scale reads
 * the same variable), and the runner's waits, cool-downs and the device
 * clock it infers must run at the phone's pace, or a 2 s wait would let
 * 8 s of the phone's time pass.  Socket and process timeouts stay on the
 * real clock: they guard against a host that hangs, not a phone.
 */
#ifndef JG_MONOCLOCK_H
#define JG_MONOCLOCK_H

/*
 * The monotonic clock in ms, times the scale.  Only differences mean
 * anything.  Safe from any thread.
 */
double monoclock_ms(void);

/*
 * The scale: JANKGATE_TEST_CLOCK_SCALE when it holds a number from 0.01 to
 * 1000, else 1 (an unreadable value is ignored: a test-only knob must not
 * break a real run).
 */
double monoclock_scale(void);

/*
 * The monotonic clock in whole ms, unscaled: for timeouts and deadlines
 * that guard against a host or a peer that hangs (sockets, processes, a
 * cancel's grace), which run on real time whatever the tests' scale.
 */
long long monoclock_real_ms(void);

#endif
