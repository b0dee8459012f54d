/*
 * source.h: the contract between the runner and the data sources
 * (the man page's SOURCES, harness/cli/jankgate.1).
 *
 * A source turns device output into the results model.  Each one is a file in
 * harness/sources/ that defines one `const struct source`, and one line in the
 * table of sources.c; adding a library is exactly that (with its tests and
 * its paragraph in the man page's SOURCES; docs/internals.md, "How to add
 * a data source").  Nothing outside sources/ knows a source by name: the
 * runner (run/) calls the hooks below at fixed points of an iteration
 * (run_iter.c draws them) and a source fills the iteration it is handed;
 * the configuration validates `sources` and the options each source
 * declares from the table (struct config_plugins, source_plugins);
 * `jankgate parse` and `jankgate init` read the table too.
 *
 *	prepare          once per device and run, before the first iteration
 *	                 (find a log directory, set up an adb forward)
 *	iteration_begin  before each iteration's first step, its log stream
 *	                 already running (start something on the device)
 *	launch           after every `launch` step, with `am start -W`'s
 *	                 output
 *	scene_begin      right after `dumpsys gfxinfo PKG reset`
 *	scene_end        right after `dumpsys gfxinfo PKG framestats`, with
 *	                 its output
 *	iteration_end    after the iteration's last step and the drain of its
 *	                 log stream, when it ran (stop what iteration_begin
 *	                 started)
 *	logcat           after the iteration, with every `logcat -v
 *	                 monotonic` line the iteration's stream received
 *	                 (logcat.h; in `jankgate parse` lines of any layout,
 *	                 maybe undated)
 *	collect          after `logcat`, with the device (pull and delete
 *	                 files)
 *	finish           once per device and run, after the last iteration
 *
 * Every hook is optional (NULL).  Parsers are pure functions over bytes so
 * they are unit tested and fuzzed without a device; the hooks that touch
 * the device (prepare, scene_begin, collect, finish) are thin wrappers.
 * Inside a scene (scene_begin to scene_end) a hook must not run a device
 * shell command: the measurement must not disturb what it measures.
 *
 * Hooks return 0, or a negative JG_E* code with the error message set.  A
 * parse problem in device output is not an error: the source keeps what it
 * could read and adds a warning to the results (or marks the item
 * truncated).  An error return means the device or the host failed, and
 * fails the iteration (JG_EINVAL, JG_ENOTFOUND) or the device (others).
 */
#ifndef JG_SOURCE_H
#define JG_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

struct adb_device;
struct results;
struct rs_iteration;
struct rs_scene;
struct rs_startup;
struct strlist;

/* One log line (logcat.h parses them). */
struct logcat_line;

/* One launch that `jankgate parse` found (an iteration keeps the last). */
struct source_launch {
	char *activity;			/* "pkg/.Act", or NULL */
	struct rs_startup *startup;	/* owned */
};

struct source_launches {
	struct source_launch *v;
	size_t nr, alloc;
};

/* A window of device time, CLOCK_MONOTONIC ms (from <= to). */
struct source_span {
	double from, to;
};

/*
 * What a hook may use.  The runner owns all of it; a source keeps its own
 * per-device state in `state` (set by prepare, freed by finish).
 */
struct source_ctx {
	const struct config *cfg;	/* app, source_opts, timeouts */
	const char *package;		/* the app under test */
	struct adb_device *dev;		/* NULL in `jankgate parse` */
	struct results *results;	/* the device's results, for warnings */
	struct rs_iteration *it;	/* the iteration being measured */
	double refresh_hz;		/* the device's real refresh rate */
	/*
	 * `jankgate parse` without --refresh-hz: refresh_hz is an assumed
	 * 60.  A source that finds the display's rate in its input sets
	 * refresh_hz to it; one that uses the rate says where it came from
	 * in refresh_from, a static phrase ("from the file's 'dumpsys
	 * display' part", "assumed: the file names none") the command
	 * prints.
	 */
	bool refresh_assumed;
	const char *refresh_from;
	int sdk;			/* API level, 0 when unknown */
	void *state;			/* the source's own, NULL at first */

	/*
	 * The app's process ids as known outside the log: `pidof` after a
	 * launch and gfxinfo's section headers in a run, --pid in `jankgate
	 * parse`.  Sources add what the log itself shows (logpid.h).
	 */
	const int *app_pids;
	size_t nr_app_pids;

	/*
	 * The logcat hook's only, in a run (NULL otherwise): when the app
	 * was driven by a step of the team's own tests, an `exec` step
	 * outside a scene or an `instrument` step, one span each, in order
	 * (markers.matrix makes scenes of what a source reports there).
	 */
	const struct source_span *step_spans;
	size_t nr_step_spans;

	/*
	 * `jankgate parse` only (NULL in a run): every launch the input
	 * shows, in order, for a source that can see several.
	 */
	struct source_launches *launches;

	/*
	 * `jankgate parse` only (NULL in a run): notes on how the input was
	 * read, such as the logcat layouts its lines were in.
	 */
	struct strlist *notes;
};

/* The parts of the results model a source fills (struct source.fills). */
enum source_part {
	SOURCE_FRAMES = 1 << 0,		/* a scene's frames (one source each) */
	SOURCE_FPS = 1 << 1,		/* a scene's FPS slices */
	SOURCE_BLOCKS = 1 << 2,		/* main-thread blocks */
	SOURCE_STARTUP = 1 << 3,	/* the launch's framework timings */
	SOURCE_STARTUP_MATRIX = 1 << 4,	/* the launch's Matrix phases */
	SOURCE_METHODS = 1 << 5,	/* a scene's method costs */
	SOURCE_APP_SCENES = 1 << 6,	/* activities that drew in a scene */
	SOURCE_LAUNCHES = 1 << 7,	/* every launch (`jankgate parse`) */
	SOURCE_PHASES = 1 << 8,		/* a scene's frame phases */
	/* a scene's jank types, as SurfaceFlinger counts them */
	SOURCE_JANK_TYPES = 1 << 9,
};

struct source {
	const char *name;		/* as in the config `sources` list */
	const char *summary;		/* a line for `jankgate parse --list` */
	unsigned fills;			/* enum source_part bits */
	/*
	 * Collected when the configuration names no `sources`, and written
	 * by `jankgate init`: the framework's own, which need no change to
	 * the app.
	 */
	bool by_default;
	/*
	 * Read by `jankgate parse` only, never a value of `sources`: another
	 * source collects it in a run (frametimeline, read by gfxinfo).
	 */
	bool parse_only;
	/*
	 * Its options, keys under source_options (config_opt_int(),
	 * config_opt_path()), ending with a NULL name; NULL: none.
	 */
	const struct config_opt *options;

	/*
	 * Extra logcat buffers the iteration's stream must read besides
	 * main ("events", "system", "crash"), comma-separated, or NULL.
	 */
	const char *logcat_buffers;

	int (*prepare)(struct source_ctx *ctx);
	int (*iteration_begin)(struct source_ctx *ctx);
	int (*launch)(struct source_ctx *ctx, const char *am_output,
	    size_t len);
	int (*scene_begin)(struct source_ctx *ctx, struct rs_scene *scene);
	int (*scene_end)(struct source_ctx *ctx, struct rs_scene *scene,
	    const char *gfxinfo, size_t len);
	int (*iteration_end)(struct source_ctx *ctx);
	int (*logcat)(struct source_ctx *ctx,
	    const struct logcat_line *lines, size_t nr);
	int (*collect)(struct source_ctx *ctx);
	void (*finish)(struct source_ctx *ctx);

	/*
	 * `jankgate parse NAME FILE`: read `len` bytes of saved device
	 * output (what this source reads on a device: a gfxinfo dump, a
	 * logcat capture, a BlockCanary looper log...) named `name` into
	 * ctx->it, creating scenes as the input shows them.  Never NULL.
	 */
	int (*parse)(struct source_ctx *ctx, const char *buf, size_t len,
	    const char *name);
};

/* The table, in the order `jankgate parse --list` shows it. */
extern const struct source *const sources[];

/* The source named `name`, or NULL. */
const struct source *source_find(const char *name);

/*
 * The table as the configuration sees it: each source's name, options
 * and by_default (config_load() and config_parse() take it).
 */
extern const struct config_plugins source_plugins;

/*
 * Append a copy of launch `st` of `activity` (n bytes, may be NULL) to
 * ctx->launches; a no-op in a run (ctx->launches NULL).
 */
void source_launch_add(const struct source_ctx *ctx, const char *activity,
    size_t n, const struct rs_startup *st);

/* Free what the launches own and empty them. */
void source_launches_release(struct source_launches *l);

#endif
