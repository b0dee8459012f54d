/*
 * apprun.h: one app's process on the simulated phone.
 *
 * This is where the pieces meet: an apprun holds an installed model's
 * process state (running or not, pid, back stack, foreground), its frame
 * generator and gfxinfo state, and turns what the user does into
 * everything a phone would show for it: frames for `dumpsys gfxinfo`, log
 * entries (Displayed, Choreographer, Matrix, xanderwang/performance,
 * FPSAnalyzer, MethodTraceMan), BlockCanary files and ground-truth lines.
 * The shell's commands (am, input, dumpsys, logcat, monkey) only parse
 * their arguments and call these functions.
 *
 * Log entries are added with the device-monotonic time at which they
 * happen, which is often after the call returns (a fling keeps rendering);
 * the log buffer shows them once their time has come.  Periodic outputs
 * (perf's "APP FPS is:" every second) are produced by apprun_advance().
 *
 * Not thread-safe: the caller serialises calls on one apprun (the
 * device lock).
 */
#ifndef SIM_APPRUN_H
#define SIM_APPRUN_H

#include <stddef.h>
#include <stdint.h>

#include "appmodel.h"

struct strbuf;
struct logfmt_buf;
struct truth;
struct amfmt_start;
struct apprun;

/* The device facts an app's outputs depend on. */
/*
 * The home screen's process (com.android.launcher3) runs at the system
 * pid plus this: it answers gfxinfo when no app is in front, and its
 * Choreographer skips frames while a cold start animates away from it.
 */
#define APPRUN_LAUNCHER_PID_OFFSET 780

struct apprun_env {
	int sdk;
	const char *release;		/* Build.VERSION.RELEASE, "14" */
	const char *model;		/* Build.MODEL */
	int cores;
	long long mem_total_kb, mem_free_kb;
	int refresh_hz;			/* 60, 90, 120 */
	uint64_t seed;
	int system_pid;			/* system_server, for AM lines */
	long long wall_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	int tz_offset_min;		/* local time = UTC + this */
	struct logfmt_buf *log;		/* NULL: no logging */
	struct truth *truth;		/* NULL: no ground truth */
	/* Store a file the app writes (BlockCanary); NULL: dropped. */
	void (*write_file)(void *ctx, const char *path, const void *data,
	    size_t len);
	void *file_ctx;
	/*
	 * A write to trace_marker by thread `tid` (named `comm`) of process
	 * `pid` at `mono_ns` (Trace sections, with marks_by); NULL: none.
	 */
	void (*trace)(void *ctx, const char *comm, int pid, int tid,
	    long long mono_ns, const char *text);
	void *trace_ctx;
};

/*
 * The process of model `m` (borrowed; it must outlive the apprun), whose
 * package has `uid`.  `env` is copied (its pointers are borrowed).  The
 * app starts not running.  Free with apprun_free (NULL: no-op).
 */
struct apprun *apprun_new(const struct appmodel *m,
    const struct apprun_env *env, unsigned int uid);
void apprun_free(struct apprun *r);

/* The pid, or 0 when the process is not running. */
int apprun_pid(const struct apprun *r);

/* The resumed activity (full class name), or NULL (not running/background). */
const char *apprun_top(const struct apprun *r);

/*
 * The activities of the task, bottom first: *nr entries, borrowed from
 * the model; none when the process is not running.
 */
const struct appmodel_activity *const *apprun_stack(const struct apprun *r,
    size_t *nr);

/* The model this process runs. */
const struct appmodel *apprun_model(const struct apprun *r);

/*
 * When the screen goes idle after everything done so far (a `wait idle`,
 * or how long `input swipe` should block is the caller's choice).
 */
long long apprun_idle_at(const struct apprun *r);

/*
 * `am start -W -n pkg/activity` at `now_ns` (`activity` NULL: the
 * launcher).  A stopped app starts cold with `new_pid`; a running one
 * warm, or hot when the activity is in the back stack and the app is in
 * the background.  Fills `as` for amfmt_start() (package and activity
 * point into the model).  Returns 0, or JG_ENOTFOUND for an unknown
 * activity (print amfmt_no_activity then).
 */
int apprun_start(struct apprun *r, const char *activity, int new_pid,
    long long now_ns, struct amfmt_start *as);

/*
 * The process starts with no activity (an instrumentation runs in it:
 * `am instrument`), as pid `new_pid`; a running one is left alone.  Its
 * first `am start` is then a warm start.
 */
void apprun_spawn(struct apprun *r, int new_pid, long long now_ns);

/* `am force-stop`: the process dies, its windows and stats with it. */
void apprun_force_stop(struct apprun *r, long long now_ns);

/* HOME: the app goes to the background, its activities stay. */
void apprun_home(struct apprun *r, long long now_ns);

/*
 * `input tap X Y` (press `press_ms` long) on the resumed activity: a
 * ripple, or the element's action (open an activity, go back).  Returns 0,
 * or JG_ENOTFOUND when the app is not in front (the tap goes elsewhere).
 */
int apprun_tap(struct apprun *r, int x, int y, double press_ms,
    long long now_ns);

/*
 * `input swipe X1 Y1 X2 Y2 MS`: a drag, or a fling when the finger moves
 * at 1 px/ms or faster.  Returns 0 or JG_ENOTFOUND as apprun_tap.
 */
int apprun_swipe(struct apprun *r, int x1, int y1, int x2, int y2,
    double ms, long long now_ns);

/* KEYCODE_BACK: finish the resumed activity.  JG_ENOTFOUND if not in front. */
int apprun_back(struct apprun *r, long long now_ns);

/* Produce the periodic outputs due up to `now_ns`. */
void apprun_advance(struct apprun *r, long long now_ns);

/*
 * Append this process's `dumpsys gfxinfo` section as of `now_ns` with
 * GFX_* `flags` (and reset when asked).  Returns 0, or JG_ENOTFOUND when
 * the process is not running (print gfx_dump_no_process then).
 */
int apprun_gfxinfo(struct apprun *r, struct strbuf *out, unsigned int flags,
    long long now_ns);

/* MethodTraceMan's StartMethodCost: forget the methods measured so far. */
/* The frames SurfaceFlinger keeps of the app (sfjank.h). */
struct sf_ring;
const struct sf_ring *apprun_sf(const struct apprun *r);

void apprun_traceman_start(struct apprun *r);

/*
 * MethodTraceMan's EndMethodCost at `now_ns`: log a costTime line per
 * method measured since the last start or end, append the same messages
 * to `lines` (one per line; NULL: not wanted), and forget them.
 */
void apprun_traceman_end(struct apprun *r, long long now_ns,
    struct strbuf *lines);

#endif
