/*
 * simtrace.h: the kernel's trace buffer as atrace uses it, for the
 * app's android.os.Trace sections (cmd_atrace.c; issue 52).
 */
#ifndef SIM_SIMTRACE_H
#define SIM_SIMTRACE_H

struct strbuf;
struct simtrace;

/* An idle buffer; free with simtrace_free (NULL: no-op). */
struct simtrace *simtrace_new(void);
void simtrace_free(struct simtrace *t);

/*
 * `atrace --async_start -b KB -a APPS` at monotonic `now_ns`: forget
 * what was there, trace the apps of the comma-separated `apps` into a
 * buffer of `kb` KB per CPU that stops taking events when full, on the
 * boot clock (`boot_ahead_ns` ahead of the monotonic one), and write
 * atrace's clock-sync marker.
 */
void simtrace_start(struct simtrace *t, const char *apps, long kb,
    long long now_ns, long long boot_ahead_ns);

/*
 * What Trace writes for app `package` (thread `tid` named `comm` of
 * process `pid`) at monotonic `mono_ns`: "B|PID|NAME", "E|PID", ...
 * Kept only while a capture of that app runs; events may lie ahead of
 * the device's now (an action's frames are made up at once).
 */
void simtrace_write(struct simtrace *t, const char *package,
    const char *comm, int pid, int tid, long long mono_ns,
    const char *payload);

/*
 * The ftrace text of the events up to `now_ns` in time order, as the
 * kernel prints it, after "TRACE:\n"; `stop` ends the capture.
 */
void simtrace_dump(struct simtrace *t, long long now_ns, int stop,
    struct strbuf *out);

#endif
