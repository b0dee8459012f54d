/*
 * run_int.h: what the run_*.c files share, and the pure pieces their unit
 * tests reach (tests/unit/test_run*.c).
 *
 * The executor is split by idea: run.c (devices, shards, threads), run_device.c
 * (one device's worker: props, hygiene, install, the scenario loop and the
 * results file), run_iter.c (one iteration: logcat stream, steps, scenes,
 * hooks), run_steps.c (a step as device commands), run_ui.c (finding views
 * and activities), run_logcat.c (the iteration's stream and crash/ANR
 * detection), run_hygiene.c (preflight), run_progress.c (what the user
 * sees), run_space.c (room for the results).  Nothing here is public API; run.h is.
 */
#ifndef JG_RUN_INT_H
#define JG_RUN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "devprops.h"
#include "run.h"
#include "strbuf.h"
#include "strlist.h"

struct adb_device;
struct adb_server;
struct config;
struct logcat_line;
struct results;
struct rs_hygiene;
struct rs_iteration;
struct rs_scene;
struct scenario;
struct scenario_step;
struct source;
struct source_ctx;
struct source_span;
struct run_progress;

/* ---- the run and its devices (run.c, run_device.c) ------------------- */

struct run_ctx {
	const struct run_opts *opts;
	const struct config *cfg;
	struct scenario **scns;		/* selected, config order */
	size_t nr_scns;
	int iterations, warmups;
	const char *out_dir;
	char *run_id, *started, *host;
	struct adb_server *srv;
	struct run_progress *progress;
	struct run_apk *apk;		/* cfg->apk as learned once, or NULL */
	struct run_tapk *tapk;		/* cfg->test_apk, or NULL */
};

struct run_dev {
	struct run_ctx *ctx;
	size_t index;			/* position in serial order */
	const char *serial;		/* borrowed from the report */
	bool key_taken;			/* an earlier device has the same key */
	bool *selected;			/* per scenario: in this shard */
	struct run_device_report *report;

	struct adb_device *dev;
	struct device_props props;
	struct results *res;
	int session;			/* of this run's iterations */
	char *results_path;
	const char *package;
	char *launcher;			/* "pkg/.Act", NULL until read */

	const struct source **srcs;	/* configured sources, config order */
	struct source_ctx *sctx;	/* one per source */
	size_t nr_srcs;
	char *buffers;			/* logcat -b list for iterations */

	/*
	 * Whether the app reports fully drawn: unknown until a launch's
	 * logcat shows; then the drain of each launch waits for its line
	 * (run_logcat_stop()), or, when the first launch's drain ended
	 * without it, never again.
	 */
	enum { RUN_FD_UNKNOWN, RUN_FD_REPORTED, RUN_FD_ABSENT } fully_drawn;
	double clock_offset;		/* device mono ms - host mono ms */
	bool have_offset;
	bool lost;			/* the device went away */
	/*
	 * The results file: a version of this run's (or the file an appended
	 * batch adds to) is on disk, holding saved_iterations; a rewrite
	 * failed (said once); and that failure stopped the measuring.
	 */
	bool on_disk, unwritable, write_stop;
	size_t saved_iterations;
	bool skipped;			/* a scenario did not fit the screen */
	int status;
};

/* The worker's thread function (run_device.c); `arg` is a run_dev. */
void *run_device_main(void *arg);

/* ---- the phones' locks (run_lock.c) ---------------------------------- */

/*
 * Lock, in their (sorted) order, the phones of `serials` that device index
 * `selected` marks (NULL: all) and this process does not hold yet, as
 * devices.busy says; each stays held until run_unlock_devices().  Returns
 * 0, or the first failure (JG_EBUSY, JG_EINTR, JG_EIO; phonelock.h) with
 * its message, the phones locked before it kept.
 */
int run_lock_devices(struct run_ctx *c, const struct strlist *serials,
    const bool *selected);

/* ---- room for the results (run_space.c) ------------------------------ */

/* What one scene-iteration takes in a results file, with nothing learnt. */
#define RUN_SPACE_UNIT_BYTES (64 * 1024)

/* One device's results file, for the estimate of the room it needs. */
struct run_space_plan {
	uint64_t last_size;	/* the file at its path now; 0: none */
	uint64_t last_units;	/* its scene-iterations; 0: unknown */
	bool append;		/* the run adds to that file */
	uint64_t units;		/* scene-iterations to measure */
};

/*
 * Bytes the file of `p` needs free before the run, at the most, as
 * run_space.c explains: 2F less what the file takes now (at most F),
 * for a file growing to F bytes.
 */
uint64_t run_space_need(const struct run_space_plan *p);

/*
 * Refuse a run whose results the file system of the output directory
 * has no room for, before anything is measured: 0, or JG_EIO with a
 * message naming the directory, the free bytes and the estimate.  0 also
 * when the free space cannot be told.
 */
int run_space_check(const struct run_ctx *c, const struct run_dev *devs,
    size_t n);

/* ---- clocks (run_clock.c) -------------------------------------------- */

/* The wall clock now as "2024-05-01T02:00:00Z" into buf (>= 21 bytes). */
void run_format_now(char *buf, size_t size);

/* Host CLOCK_MONOTONIC in milliseconds, on the tests' scale (monoclock.h). */
double run_now_ms(void);

/*
 * Sleep `ms`, waking early when the run is interrupted.  Returns 0, or
 * JG_EINTR when interrupted.
 */
int run_sleep_ms(double ms);

/* Learn the device clock from a gfxinfo dump taken around host time `at`. */
void run_dev_clock(struct run_dev *d, const char *dump, size_t len,
    double host_ms);


/*
 * Where a device's results go: OUT/KEY/results.json, or, for the second
 * and later device of one key in a run, OUT/KEY@SERIAL/results.json with
 * the serial reduced to [A-Za-z0-9._-] (others become '_').
 */
void run_results_path(struct strbuf *out, const char *out_dir,
    const char *key, const char *serial, bool key_taken);

/*
 * run_inputs.c: note in `sc` that input step `st` is being sent now, at
 * the device time the learnt clock offset gives (unknown before the
 * first gfxinfo dump), for the frame timeline (issue 20).
 */
struct scenario_step;
struct rs_scene;
void run_note_input(struct run_dev *d, struct rs_scene *sc,
    const struct scenario_step *st);

/*
 * run_trace.c (issue 20): start `perfetto` in the background on `d` for
 * the iteration about to run; *pid gets its pid.  Returns 0 when it runs,
 * 1 when there is no trace to take (API below 28, no perfetto: a warning
 * in the results, once), or a device error.  run_trace_end() stops it,
 * pulls the trace beside the results file as trace_file_name(scenario)
 * and removes it from the device; 0, 1 (no trace came out: a warning),
 * or a device error.
 */
int run_trace_begin(struct run_dev *d, const char *scenario, long *pid);
int run_trace_end(struct run_dev *d, const char *scenario, long pid);

/* ---- one iteration (run_iter.c) -------------------------------------- */

/*
 * Run iteration `it` of scenario `scn` on `d`.  Returns 0 when the
 * iteration ran (ok or failed: see it->ok), or a negative code when the
 * device was lost (JG_EDEVICE...) or the run interrupted (JG_EINTR); the
 * message says what.
 */
int run_iteration(struct run_dev *d, const struct scenario *scn,
    struct rs_iteration *it);

/*
 * For a step that opens its scenes itself (run_instrument.c), what the
 * iteration running it lends: its device and results; begin a scene
 * `name` as `scene` does, end it as `end` does, or abandon it (no end
 * dump: its process is gone); whether the iteration outlived
 * devices.iteration_timeout_s; the app's crash or ANR when the log
 * showed one (1, what it was appended to `why` unless NULL).  Function
 * pointers, so the step's file and run_iter.c do not call each other.
 */
struct run_scenes {
	void *x;
	struct run_dev *d;
	struct rs_iteration *it;
	int (*begin)(void *x, const char *name);
	int (*end)(void *x);
	void (*abandon)(void *x);
	bool (*expired)(void *x);
	int (*crash)(void *x, struct strbuf *why);
};

/* ---- instrumentation tests (run_instrument.c) ------------------------- */

/*
 * What `test_apk` is, learned once a run before any device: 0 and *out
 * (NULL when no test APK is configured); JG_EINVAL when a scenario of
 * scns[0..n) has an `instrument` step and no test APK is configured, when
 * it is not a test APK, or when a step names another runner; JG_EMISMATCH
 * when it instruments another app than `app`; apkset's errors.  All are
 * configuration errors: nothing was touched.
 */
struct run_tapk;
int run_tapk_probe(struct run_tapk **out, const struct config *cfg,
    struct scenario *const *scns, size_t n);
void run_tapk_free(struct run_tapk *t);

/* Install the test APK on d, when the run has one (0 otherwise). */
int run_tapk_install(struct run_dev *d);

/* The `am instrument` command line of step `st` for test package `pkg`. */
void run_instrument_command(struct strbuf *out, const struct scenario_step *st,
    const char *package);

/*
 * Append a test's scene name, "FeedTest#scrollFeed" of class
 * com.x.FeedTest, to `out`: 0, or JG_EINVAL when it cannot be a scene
 * (over 100 bytes, a control character), with the message.
 */
int run_instrument_scene_name(struct strbuf *out, const char *cls,
    const char *test);

/*
 * Run the `instrument` step `st` in the iteration `x` lends: each test a
 * scene.
 * Returns 0 when every test passed, a step failure (JG_EGENERIC with the
 * failed test, the crash, or the runner's failure as the message), or a
 * device error / JG_EINTR / JG_ETIMEOUT.
 */
int run_instrument_step(const struct run_scenes *x,
    const struct scenario_step *st);

/* ---- the sources' hooks (run_hooks.c) --------------------------------- */

/* The points of an iteration where sources are called (source.h). */
enum run_hook {
	RUN_HOOK_ITERATION_BEGIN,
	RUN_HOOK_LAUNCH,		/* text: am start -W's output */
	RUN_HOOK_SCENE_BEGIN,		/* scene */
	RUN_HOOK_SCENE_END,		/* scene, text: the gfxinfo dump */
	RUN_HOOK_ITERATION_END,
	RUN_HOOK_LOGCAT,		/* lines, pids */
	RUN_HOOK_COLLECT,
};

/* What a hook is handed besides its context; NULL: nothing. */
struct run_hook_args {
	const char *text;
	size_t len;
	struct rs_scene *scene;
	const struct logcat_line *lines;
	size_t nr_lines;
	const int *pids;		/* the app's, as the iteration saw */
	size_t nr_pids;
	const struct source_span *spans;	/* the test steps' */
	size_t nr_spans;
};

/*
 * Call hook `h` of srcs[0..nr), in that order, each with its context
 * ctx[i] pointed at iteration `it` (and, for the logcat hook, the app's
 * pids, cleared again after).  Returns 0, or the first hook's error with
 * "source 'NAME'" in front of its message (nothing after it runs).
 */
int run_hooks(const struct source *const *srcs, struct source_ctx *ctx,
    size_t nr, struct rs_iteration *it, enum run_hook h,
    const struct run_hook_args *a);

/* ---- steps as device commands (run_steps.c) --------------------------- */

/*
 * The device command lines for an input step (tap X Y, longpress, swipe,
 * fling, key, type) on a width x height screen, appended to `cmds`, each
 * fully quoted.  `type` may need several: `input text` turns "%s" into a
 * space and has no escape for it, so text holding "%s" is typed in pieces
 * split between the '%' and the 's'.  Returns 0, or JG_EINVAL for a step
 * that is not input.
 */
int run_input_commands(const struct scenario_step *st, int width, int height,
    struct strlist *cmds);

/* `input tap X Y` for a point already in pixels. */
void run_tap_command(struct strbuf *out, int x, int y);

/*
 * The `-n` component for `am start` of `activity` (".Main", "com.x.Main",
 * "pkg/.Main") of app `package`: "pkg/.Main" or "pkg/com.x.Main".
 */
void run_component(struct strbuf *out, const char *package,
    const char *activity);

/* 1 when step kind is input the device executes (tap X Y, swipe...). */
int run_step_is_input(const struct scenario_step *st);

/* ---- views and activities (run_ui.c) --------------------------------- */





/* Outside scenes: tap a view found by text, id or desc (SCN_TAP_*). */
int run_ui_tap(struct run_dev *d, const struct scenario_step *st);
/* Outside scenes: wait text, wait activity, expect activity, wait idle. */
int run_ui_wait_text(struct run_dev *d, const struct scenario_step *st);
int run_ui_wait_activity(struct run_dev *d, const struct scenario_step *st,
    bool once);
int run_ui_wait_idle(struct run_dev *d, const struct scenario_step *st);

/* ---- the iteration's logcat stream (run_logcat.c) --------------------- */

struct run_logcat;

/*
 * Clear the `buffers` (comma-separated) on the device, then stream
 * `logcat -v monotonic -b BUFFERS` on a connection of its own, read by a
 * thread.  Crash and ANR lines of `package` are noticed as they arrive.
 */
int run_logcat_start(struct run_logcat **out, struct run_dev *d,
    const char *buffers, const char *package);

/*
 * Let late lines arrive (up to `drain_ms`, ending early after 300 ms
 * without a line), then stop the stream and join the thread.  With
 * `want_fully_drawn`, a launch of the app whose "Displayed" line came
 * and whose "Fully drawn" did not yet is not quiet: the drain waits for
 * it up to `drain_ms`.  Returns 0, or the stream's error when the device
 * went away.
 */
int run_logcat_stop(struct run_logcat *lc, int drain_ms,
    bool want_fully_drawn);

/*
 * A launch line of `package`: 1 for "Displayed PKG/...", 2 for "Fully
 * drawn PKG/...", whatever the tag; 0 for any other line.
 */
int run_logcat_launch_kind(const struct logcat_line *l, const char *package);

/*
 * What the stream saw of the app's launches: bit 1 a "Displayed" line,
 * bit 2 a "Fully drawn" line of `package` (ActivityManager's or
 * ActivityTaskManager's).  Thread-safe.
 */
int run_logcat_launch_lines(struct run_logcat *lc);

/* Every line received, parsed; valid until run_logcat_free(). */
const struct logcat_line *run_logcat_lines(struct run_logcat *lc,
    size_t *nr);

/*
 * 1 when a crash or ANR of the app was seen, with what it was (the
 * exception line, the ANR reason) in `why` when not NULL.  Thread-safe.
 */
int run_logcat_failed(struct run_logcat *lc, struct strbuf *why);

/* Host time (run_now_ms) of the last line received, or of the start. */
double run_logcat_last_ms(struct run_logcat *lc);

/*
 * Lines that explain a failure: the crash or ANR report when one was
 * seen, else the last `max` lines; appended to `out` as logcat printed
 * them.  Thread-safe.
 */
void run_logcat_excerpt(struct run_logcat *lc, struct strbuf *out,
    size_t max);

/* Stop (if needed) and free; NULL is a no-op. */
void run_logcat_free(struct run_logcat *lc);

/*
 * Scene markers the stream saw so far (run_marks.h): *ends the "scene
 * end" lines, *open the scenes begun and not yet ended.  Thread-safe.
 */
void run_logcat_marks(struct run_logcat *lc, size_t *ends, int *open);

/*
 * Classify one line for `package`: 1 "FATAL EXCEPTION" of AndroidRuntime
 * (the process check comes from the next line, see run_logcat.c), 2 the
 * "Process: PKG, PID: N" line after it, 3 "ANR in PKG", 0 anything else.
 */
int run_logcat_classify(const struct logcat_line *l, const char *package);

/* ---- install and version check (run_install.c) ------------------------ */


/* What the configured APK is: learned once a run, before any device. */
struct run_apk {
	char sha256[65];	/* of every file, in install order */
	double version_code;	/* NAN when it could not be learned */
	char *how;		/* "from its AndroidManifest.xml", "read by aapt" */
	char *unverified;	/* with NAN: the warning every device records */
	struct strlist files;	/* an APK, or a base and splits */
};

/*
 * Resolve `paths` (the configuration's apk) with apkset.c, building an app
 * bundle's APK in `bundle_dir`, then hash and read it (apk.c, else aapt).
 * Every error (JG_EIO, JG_EINVAL, JG_EMISMATCH) is a configuration error:
 * nothing was touched.  A version it cannot learn is not an error;
 * `unverified` says why.
 */
int run_apk_probe(struct run_apk **out, const struct strlist *paths,
    const char *app, const char *bundle_dir);
void run_apk_free(struct run_apk *a);

/*
 * Install the APK when the run has one (ctx->apk), read what is installed
 * into the results and d->launcher, and check the versionCode
 * (JG_EMISMATCH when it differs).
 */
int run_install(struct run_dev *d);

/* ---- preflight (run_hygiene.c) ---------------------------------------- */


/*
 * Check `h` (and the refresh rate) against the config's devices.* limits;
 * every violation is appended to `why` as one line.  Returns the count.
 */
int run_hygiene_check(const struct config *cfg, const struct rs_hygiene *h,
    double refresh_hz, struct strlist *why);

/* Read the device's hygiene into d->res->hygiene (device errors only). */
int run_hygiene_read(struct run_dev *d);

/* ---- progress (run_progress.c) ---------------------------------------- */

struct run_progress_state {
	const char *serial;
	const char *phase;	/* "preflight", "installing", "running"... */
	const char *scenario;	/* NULL outside scenarios */
	int iteration, of;	/* 1-based, counting warm-ups; 0: none */
	bool warmup;
	size_t done, total;	/* iterations over the whole device */
	double started_ms;	/* host time the device started */
};

/* "1h02m", "3m05s", "42s" for a duration in ms (negative: "?"). */
void run_format_duration(struct strbuf *out, double ms);

/* The live line of one device at host time `now_ms`, without newline. */
void run_progress_line(struct strbuf *out,
    const struct run_progress_state *st, double now_ms);

struct run_progress *run_progress_new(enum run_progress_mode mode, FILE *fp,
    size_t nr_devices);
void run_progress_free(struct run_progress *p);

/* Replace device `i`'s state (copied) and redraw or print. */
void run_progress_update(struct run_progress *p, size_t i,
    const struct run_progress_state *st);

/* A message about device `i` (refusal, failed iteration, loss). */
void run_progress_note(struct run_progress *p, size_t i, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

#endif
