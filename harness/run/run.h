/*
 * run.h: `jankgate run`, driving the app on every device and measuring it.
 *
 * run_execute() is the whole of the measuring half of jankgate:
 * it finds the devices, starts one worker thread per device, and each
 * worker checks the device's hygiene, installs the APK, runs every
 * scenario's warm-ups and iterations, and writes OUT/<device-key>/
 * results.json after every iteration, so a killed run loses nothing it
 * measured.  `jankgate run` (cmd_run.c) is a thin argv layer over it, and
 * `jankgate gate` calls it directly, also with `append` to add iterations
 * of one scenario on one device to the results it already has.
 *
 * Exit status (exitstatus.h), in run_report.status and as the return value:
 *	0  every selected (device, scenario) pair ran all its iterations
 *	   (failed iterations, a crash for instance, are recorded in the
 *	   results and are not an exit status unless all of a scenario's
 *	   measured iterations failed on a device)
 *	2  bad options, configuration or scenario (nothing ran), or a
 *	   scenario whose pixel coordinates fall off a device's screen
 *	3  no device, the adb server unreachable, a device refused by its
 *	   hygiene limits or lost mid-run, an install or versionCode check
 *	   failed, every measured iteration of a scenario failed, the
 *	   output directory has no room for the results (run_space.c:
 *	   refused before measuring) or a results file could not be
 *	   written (that device stops, its last good file kept), or the
 *	   run was interrupted (run_interrupt()); results are written anyway
 *
 * Sharding: the pairs (device, scenario) are numbered k = d * S + s, with
 * devices in serial order (byte order) and scenarios in configuration
 * order (after the name filter); shard I/N (1 <= I <= N) takes the pairs
 * with k mod N == I - 1.  The same devices and scenarios always give the
 * same split, and N jobs together cover every pair once.  A device with
 * no pair in the shard is not touched.
 */
#ifndef JG_RUN_H
#define JG_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "strlist.h"

struct config;

enum run_progress_mode {
	RUN_PROGRESS_AUTO,	/* live lines on a terminal, else plain */
	RUN_PROGRESS_LIVE,	/* one redrawn line per device */
	RUN_PROGRESS_PLAIN,	/* timestamped lines */
	RUN_PROGRESS_NONE,
};

struct run_opts {
	const struct config *cfg;	/* borrowed; required */
	struct strlist serials;		/* empty: cfg devices.serials, else all */
	struct strlist connect;		/* added to cfg devices.connect */
	struct strlist scenarios;	/* scenario names; empty: all */
	/*
	 * --test-command: instead of the configured scenarios, one named
	 * "test-command" whose only step is `exec` of these words (split
	 * and quoted as a scenario line is).
	 */
	const char *test_command;
	int iterations;			/* <= 0: cfg->iterations */
	int warmups;			/* < 0: cfg->warmups */
	const char *out_dir;		/* NULL: cfg->out_dir */
	bool append;			/* add to existing results files */
	/*
	 * Before measuring, force-stop the app and leave the phone idle this
	 * long, so what follows is a new session (the gate's extra batches).
	 */
	int cooldown_ms;
	/*
	 * For `jankgate ab`, which alternates two builds: the APK(s) to
	 * install instead of the configuration's; an install policy instead
	 * of devices.install (< 0: the configuration's); when a "downgrade"
	 * install is refused because the installed build is not debuggable,
	 * uninstall it and install again (saying so); clear the app's data
	 * after installing; and the results in OUT/KEY/SUB/results.json.
	 */
	const struct strlist *apk;
	int install;
	bool downgrade_fallback;
	bool clear_data;
	const char *results_sub;
	int shard_index, shard_count;	/* 1-based I of N; 0/0: no sharding */
	/*
	 * Record a Perfetto trace around every iteration and pull it beside
	 * the results file, one per scenario (trace.h): the gate's traced
	 * iteration (diagnose.trace), results_sub "traces".
	 */
	bool trace;
	/*
	 * The build measured, written as the results' app.build_id: the
	 * configured build's (--build-id, else build_id); NULL: unknown, and
	 * always for both builds of an A/B (gate_run_opts()).
	 */
	const char *build_id;
	enum run_progress_mode progress;
	FILE *progress_fp;		/* where progress goes (stderr) */
};

/*
 * run_exec.c: every `exec` step of `scn` whose command is not there (no
 * such command in PATH, or a path that is no executable file), one
 * "FILE:LINE:COL: exec: ..." each appended to `problems`; 0 when none,
 * else JG_ENOTFOUND.  `run` refuses such a scenario before it touches a
 * phone, and `check` reports it.
 */
struct scenario;
int run_exec_check(const struct scenario *scn, struct strlist *problems);

/*
 * What `run` checks of `test_apk` before any device (run_instrument.c),
 * for `check`: the test APK of the `instrument` steps of scns[0..n) is
 * configured, opens, is a test APK of `app` with the steps' runner.
 * Returns 0, or JG_EINVAL / JG_EMISMATCH / JG_EIO with the message.
 */
int run_check_test_apk(const struct config *cfg, struct scenario *const *scns,
    size_t n);

/* Defaults: nothing selected, warmups -1 (the config's), progress AUTO. */
void run_opts_init(struct run_opts *o);
void run_opts_release(struct run_opts *o);

/* What one device did. */
struct run_device_report {
	char *serial;
	char *key;		/* device key, NULL when never read */
	char *results_path;	/* the file written, NULL when none */
	bool complete;		/* every planned iteration was attempted */
	int status;		/* this device's exit status (0, 2, 3) */
	struct strlist errors;	/* its infrastructure errors (as in results) */
	struct strlist warnings;	/* its results' warnings, one line each
					   (rs_warning_format), each once */
};

struct run_report {
	struct run_device_report *devices;	/* serial order */
	size_t nr_devices, alloc_devices;
	int status;		/* the run's exit status */
	struct strlist errors;	/* problems before any device worked */
};

void run_report_init(struct run_report *r);
void run_report_release(struct run_report *r);

/*
 * Run every selected scenario on every selected device, as the header
 * says, filling `out` (initialised by the caller).  Returns the exit
 * status, also in out->status.  Never prints except progress to
 * o->progress_fp; messages are in out->errors and per device.
 */
int run_execute(const struct run_opts *o, struct run_report *out);

/*
 * Ask a running run_execute() to stop: no more input is sent, what was
 * measured is written with complete: false, the app is force-stopped and
 * the status is 3.  Async-signal-safe: meant for SIGINT/SIGTERM handlers.
 */
void run_interrupt(void);

/*
 * 1 once run_interrupt() (or cancel_request()) was called: a run started
 * after it touches no phone.
 */
int run_interrupted(void);

/*
 * Let go of every phone run_execute() locked in this process.  Each call of
 * run_execute() locks the phones it is about to use (devices.busy) and
 * keeps them, so that a command that runs several times (`gate`, `ab`)
 * holds them from its first install to its last device command; the
 * command calls this after that.  A no-op when nothing is held; exit lets
 * go too.  Not thread-safe: call it where run_execute() is called.
 */
void run_unlock_devices(void);

/*
 * Parse "I/N" into 1 <= *index <= *count <= 1000.  Returns 0 or JG_EINVAL
 * with a message naming what is wrong.
 */
int run_parse_shard(const char *s, int *index, int *count);

/*
 * 1 when pair (device d of nr_dev, scenario s of nr_scn) is in shard
 * index/count (the rule above); count 0 selects everything.
 */
int run_shard_selects(int index, int count, size_t d, size_t s,
    size_t nr_scn);

#endif
