/*
 * simapps.h: the app processes of the simulated phone, and what they share.
 *
 * An installed package whose APK holds an app model gets, on first use,
 * the parsed model (with the device's --libs applied) and one apprun
 * (apprun.h): its process, frames, gfxinfo state and outputs.  All of them
 * log into one buffer, the one logcat reads, and write one ground-truth
 * file.  This module also keeps what the phone knows about processes as a
 * whole: which app is in front (one at most; otherwise the launcher), the
 * pids handed out, and the faults that end or hang a process (a crash, an
 * ANR).  The shell commands (am, monkey, input, dumpsys, logcat, pidof,
 * uiautomator) parse their arguments and call apprun through here.
 *
 * Locking: the whole state is guarded by the device lock; call every
 * function except simapps_new/simapps_free with simdev_lock() held.
 */
#ifndef SIM_SIMAPPS_H
#define SIM_SIMAPPS_H

#include <stddef.h>

struct amfmt_start;
struct apprun;
struct logfmt_buf;
struct simapps;
struct simdev;
struct simdev_opts;

/*
 * The processes of `dev` (borrowed; it must outlive them), with the log
 * buffer, the --truth file and the --libs spec of `o`.  Returns 0, or
 * JG_EINVAL (bad --libs) / JG_EIO (truth file) with a message.
 */
int simapps_new(struct simapps **out, struct simdev *dev,
    const struct simdev_opts *o);
/* Stop every process and free everything; NULL is a no-op. */
void simapps_free(struct simapps *a);

/* The device's log buffer (logcat's source). */
struct logfmt_buf *simapps_log(struct simapps *a);

/*
 * The process record of installed package `package`, made on first use.
 * Returns 0 and *out (borrowed), or JG_ENOTFOUND for a package that is not
 * installed or is a system package, JG_EINVAL when its model is invalid.
 */
int simapps_get(struct simapps *a, const char *package, struct apprun **out);

/* The app with a resumed activity, or NULL when the launcher is in front. */
struct apprun *simapps_front(struct simapps *a);

/* The number of process records, and the i-th, in creation order. */
size_t simapps_count(const struct simapps *a);
struct apprun *simapps_at(struct simapps *a, size_t i);

/* A line of `log` from the shell into the main buffer at `mono_ns`. */
void simapps_shell_log(struct simapps *a, long long mono_ns, char prio,
    const char *tag, const char *msg);

/* A pid for a new process: increasing, the same for the same --seed. */
int simapps_new_pid(struct simapps *a);

/* The pid of system_server (ActivityManager's log lines). */
int simapps_system_pid(const struct simapps *a);

/*
 * `am start` of `r` (activity NULL: the launcher activity) at `now_ns`;
 * `launcher_intent`: a MAIN/LAUNCHER intent (monkey) rather than a bare
 * component.  The app in front goes to the background first.  Returns as
 * apprun_start; `as` is filled for amfmt_start().
 */
int simapps_start(struct simapps *a, struct apprun *r, const char *activity,
    int launcher_intent, long long now_ns, struct amfmt_start *as);

/* `am force-stop`: the process ends and a hang (ANR) is forgotten. */
void simapps_stop(struct simapps *a, struct apprun *r, long long now_ns);

/* The package was uninstalled or replaced: its process dies, unlogged. */
void simapps_forget(struct simapps *a, const char *package);

/* The periodic outputs (perf's FPS lines) of every app up to `now_ns`. */
void simapps_advance(struct simapps *a, long long now_ns);

/*
 * The app crashes at `at_ns` on the interaction `what` (for the exception
 * text): FATAL EXCEPTION in the crash buffer, ActivityManager's lines in
 * the system buffer, and the process is gone.
 */
void simapps_crash(struct simapps *a, struct apprun *r, long long at_ns,
    const char *what);

/*
 * The app's main thread stops at `at_ns`: ActivityManager reports an ANR
 * 5 s later, and until the process is stopped (am force-stop, or a new
 * install) inputs to it render nothing.
 */
void simapps_anr(struct simapps *a, struct apprun *r, long long at_ns,
    const char *what);

/* The uid of `r`'s package. */
unsigned int simapps_uid(struct simapps *a, const struct apprun *r);

/* The id of the task of `r`'s current process (dumpsys activity). */
int simapps_task(struct simapps *a, const struct apprun *r);

/* 1 when `r` hangs (an ANR fault hit it). */
int simapps_hung(struct simapps *a, const struct apprun *r);

#endif
