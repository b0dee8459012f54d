/*
 * appmodel.h: the model of an instrumented Android app.
 *
 * The simulated device runs no Java; it runs a description of an app read
 * from JSON (the files in tests/simdevice/apps/, documented in
 * APPMODEL.md): its identity, the device libraries it carries (Matrix,
 * BlockCanary...), its activities with their on-screen elements, and the
 * statistics that the frame generator draws from (frame costs per
 * interaction, main-thread blocks, method costs, startup times).  An
 * installed "APK" is just a file holding such a model, bare or embedded
 * in other bytes.
 *
 * The loaded model is a plain read-only record: the frame generator, the
 * output formatters and the shell's commands all read many of its fields,
 * so it is not opaque.  Only appmodel.c writes it; every string is owned by
 * the model and lives until appmodel_free().  Activity names are always
 * stored as full class names ("com.example.shop.FeedActivity").
 */
#ifndef SIM_APPMODEL_H
#define SIM_APPMODEL_H

#include <stddef.h>

struct strbuf;

/* What the user did; frame costs and blocks are given per kind. */
enum appmodel_kind {
	APPMODEL_SCROLL,	/* swipe or fling */
	APPMODEL_TAP,
	APPMODEL_LAUNCH,	/* the activity's first frames after a start */
	APPMODEL_NR_KINDS,
	APPMODEL_ANY = APPMODEL_NR_KINDS	/* blocks/methods: every kind */
};

/*
 * A frame cost: the frame's duration (IntendedVsync to FrameCompleted,
 * when nothing else delays it) is lognormal(median_ms, sigma); with
 * probability spike_p, spike_ms is added (a GC, an inflation...).
 */
/* The phases a frame's work is split into (framegen.c's shares). */
enum appmodel_phase {
	APPMODEL_PHASE_INPUT,
	APPMODEL_PHASE_ANIMATION,
	APPMODEL_PHASE_LAYOUT,		/* traversal: measure/layout */
	APPMODEL_PHASE_DRAW,
	APPMODEL_PHASE_SYNC,
	APPMODEL_PHASE_COMMAND,		/* issue draw commands */
	APPMODEL_PHASE_SWAP,
	APPMODEL_NR_PHASES
};

struct appmodel_dist {
	double median_ms;
	double sigma;
	double spike_p;
	double spike_ms;
	/* Fixed ms added to each phase of every frame ("phase_ms"). */
	double phase_ms[APPMODEL_NR_PHASES];
};

enum appmodel_tap {
	APPMODEL_TAP_NONE,	/* ripple only */
	APPMODEL_TAP_OPEN,	/* start activity `target` */
	APPMODEL_TAP_BACK,	/* finish this activity */
};

struct appmodel_element {
	char *text, *id, *desc;	/* "" when absent, never NULL */
	int bounds[4];		/* left, top, right, bottom in pixels */
	enum appmodel_tap tap;
	char *target;		/* full class name, OPEN only; else NULL */
};

/* A main-thread block: one long message on the Looper. */
struct appmodel_block {
	enum appmodel_kind on;	/* the interaction that may trigger it */
	double p;		/* chance per interaction */
	double ms, sigma;	/* wall duration: lognormal(ms, sigma) */
	double thread_ratio;	/* main-thread CPU time / wall time */
	char **stack;		/* StackTraceElement strings, top first */
	size_t nr_stack;
	int *method_ids;	/* Matrix method ids, outermost call first */
	size_t nr_method_ids;
};

/* A method MethodTraceMan times, drawn once per interaction. */
struct appmodel_method {
	char *name;		/* "com.example.Foo.bar" */
	enum appmodel_kind on;
	double ms, sigma;
	int main_thread;
};

struct appmodel_activity {
	char *name;
	struct appmodel_dist frames[APPMODEL_NR_KINDS];
	int scrollable;
	int scroll_bounds[4];
	int content_px;		/* height of the scrollable content */
	double fling_ms;	/* how long a fling keeps the list moving */
	struct appmodel_element *elements;
	size_t nr_elements;
	struct appmodel_block *blocks;
	size_t nr_blocks;
	struct appmodel_method *methods;
	size_t nr_methods;
	char *marks;		/* scene name its scrolls are marked with */
	enum appmodel_marks_by {
		APPMODEL_MARKS_LOG,	/* log lines "jankgate: scene ..." */
		APPMODEL_MARKS_TRACE,	/* Trace.beginSection(marks + " N") */
		APPMODEL_MARKS_ASYNC,	/* Trace.beginAsyncSection */
	} marks_by;
};

/*
 * Launch costs in ms, all scaled by one lognormal(1, sigma) factor per
 * launch so they stay consistent.  cold/warm/hot_ms are what `am start -W`
 * reports as TotalTime (intent to first frame).  A cold start is process
 * creation, then Application.onCreate (app_create_ms), then the first
 * activity up to its first frame (first_activity_ms); app_create_ms +
 * first_activity_ms <= cold_ms.  fully_drawn_ms 0: the app never calls
 * reportFullyDrawn().
 */
struct appmodel_startup {
	double cold_ms, warm_ms, hot_ms;
	double app_create_ms, first_activity_ms, fully_drawn_ms;
	double sigma;
};

enum appmodel_matrix {
	APPMODEL_MATRIX_NONE,
	APPMODEL_MATRIX_05,	/* 0.5.x: Choreographer FPS, type[null] */
	APPMODEL_MATRIX_20,	/* 2.0.x */
	APPMODEL_MATRIX_21,	/* 2.1.0 and later: FrameMetrics FPS */
};

enum appmodel_bcdir {
	APPMODEL_BC_FILES,	/* /data/user/0/<pkg>/files/blockcanary/ */
	APPMODEL_BC_EXTERNAL,	/* /storage/emulated/0/blockcanary/ */
};

struct appmodel_libs {
	enum appmodel_matrix matrix;
	int blockcanary;	/* 0: absent, else version x10 (15 = 1.5) */
	enum appmodel_bcdir bc_dir;
	int bc_threshold_ms;
	int perf;		/* xanderwang/performance */
	char *perf_tag;		/* its global tag, "PERF" by default */
	int fpsanalyzer;
	int traceman;
};

struct appmodel {
	char *package;
	char *version_name;
	long long version_code;
	int debuggable;
	char *process;		/* process name, the package by default */
	char *launcher;		/* the MAIN/LAUNCHER activity; NULL: none */
	struct appmodel_startup startup;
	struct appmodel_libs libs;
	struct appmodel_activity *activities;
	size_t nr_activities;
};

/*
 * Parse the model in `json` (`len` bytes, not necessarily NUL-terminated).
 * Returns 0 and *out (free with appmodel_free), or JG_EINVAL with a message
 * naming the key path ("activities[2].frames.scroll.median_ms: ...").
 */
int appmodel_parse(struct appmodel **out, const char *json, size_t len);

/*
 * Find the model inside an APK's bytes: the whole file, or the first JSON
 * object with a "package" member that starts at some '{' (after a fake zip
 * header, say), then parse it.  Returns as appmodel_parse; JG_EINVAL also
 * when no model is found.
 */
int appmodel_from_apk(struct appmodel **out, const void *apk, size_t len);

/* Read `path` and call appmodel_from_apk.  JG_ENOTFOUND/JG_EIO on read. */
int appmodel_load(struct appmodel **out, const char *path);

void appmodel_free(struct appmodel *m);

/*
 * Replace the library set with `spec`, a comma-separated list such as
 * "matrix=2.0,blockcanary=1.5:external,perf,fpsanalyzer,traceman" or
 * "none": the simulated device's option for running one model with other
 * libraries.  Returns 0 or JG_EINVAL (the model is unchanged then).
 */
int appmodel_set_libraries(struct appmodel *m, const char *spec);

/*
 * Models are laid out for a 1080x2400 screen (APPMODEL_LAYOUT_W/H), the
 * way a layout in dp fits any phone: scale every element's and scroll
 * area's bounds, and the scroll content's height, to a width x height
 * screen.  A screen of the layout's size leaves the model as it is.
 */
#define APPMODEL_LAYOUT_W 1080
#define APPMODEL_LAYOUT_H 2400
void appmodel_fit(struct appmodel *m, int width, int height);

/*
 * The activity called `name` (full, ".Short" or "Short" relative to the
 * package), or NULL.  Borrowed from the model.
 */
const struct appmodel_activity *appmodel_activity(const struct appmodel *m,
    const char *name);

/* The element of `a` whose bounds contain (x, y), topmost last; or NULL. */
const struct appmodel_element *appmodel_element_at(
    const struct appmodel_activity *a, int x, int y);

/*
 * Append the ComponentName.flattenToShortString() form of `cls` in `pkg`:
 * "pkg/.Cls" when cls starts with "pkg.", else "pkg/cls".
 */
void appmodel_short_component(struct strbuf *out, const char *pkg,
    const char *cls);

/* "scroll", "tap", "launch" or "any". */
const char *appmodel_kind_name(enum appmodel_kind k);

#endif
