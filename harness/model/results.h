/*
 * results.h: the in-memory model of results.json (the man page's FILES).
 *
 * One `struct results` holds what one device measured in one run: the run
 * itself, the app, the device and its preflight hygiene, source warnings,
 * and per scenario the iterations with their launch timing and scenes.
 * Sources and the runner fill it, compare and report read it, and
 * results_write.c and results_read.c move it to and from disk.
 *
 * The structs are public, unlike most of jankgate's: this is a data model
 * that many modules read field by field, and accessors for ~100 fields
 * would only hide it.  The conventions that keep it safe to use:
 *
 *   - A number that a source may fail to provide is a double, NAN when
 *     absent (null in JSON).  Device-reported numbers (sdk, refresh rate)
 *     follow the same rule.
 *   - A yes/no fact that may be unknown is an int: 1, 0 or RS_UNKNOWN.
 *     A yes/no fact that is always known is a bool.
 *   - Strings are owned by the model and NULL when absent; assign them with
 *     rs_str_set().  String lists are struct strlist.
 *   - Arrays are `T *x; size_t nr_x, alloc_x;`, grown by the rs_*_add_*()
 *     functions, which return the new element zero-filled with every number
 *     NAN and every tri-state RS_UNKNOWN.  Elements are stored by value, so
 *     a returned pointer stays valid until the next add to the same array.
 *   - Times called *_mono_ms are device CLOCK_MONOTONIC milliseconds, the
 *     clock that gfxinfo, logcat -v monotonic and PROFILEDATA share
 *     (run_iter.c); *_ns are the same clock in nanoseconds.
 */
#ifndef JG_RESULTS_H
#define JG_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strlist.h"

/* The schema this code writes; readers accept any 1.x. */
#define RS_SCHEMA "jankgate.results/1"

/*
 * Limits: what a number or a text in a file may hold (results_limits.c;
 * the man page's check says the same).  A value outside is not a
 * measurement but a broken clock, a source's parse gone wrong or a
 * hand-edited file, and would cost the report and compare their
 * arithmetic (an axis to 1.7e308 ms).  Infinities and negative durations
 * are outside too.
 *
 *   durations (startup, frame, phase, block, method)  0 to an hour
 *   an iteration's duration_ms                        0 to a day
 *   *_mono_ms times                                   within +-2^53 ms
 *   counts (frames, janky, drops, jank types)         0 to 2^53
 *   frame rates                                       0 to 1000 fps
 *   histogram bucket keys                             0 to an hour
 *
 * Free text (an iteration's error and logcat excerpt, run errors, warning
 * messages) longer than RS_MAX_TEXT bytes is cut on reading, with a
 * marker saying how long it was, so one runaway string cannot blow up a
 * report or a mail.
 */
#define RS_MAX_DURATION_MS 3600000.0		/* an hour */
#define RS_MAX_ITERATION_MS 86400000.0		/* a day */
#define RS_MAX_MONO_MS 9007199254740992.0	/* 2^53 */
#define RS_MAX_COUNT 9007199254740992.0
#define RS_MAX_FPS 1000.0
#define RS_MAX_TEXT 65536

/* A tri-state int that holds neither 0 nor 1. */
#define RS_UNKNOWN (-1)

struct rs_run {
	char *id;
	char *started;		/* ISO-8601 UTC, "2024-05-01T02:00:00Z" */
	char *finished;
	char *jankgate_version;
	char *host;
	bool complete;		/* every planned iteration was attempted */
	struct strlist errors;	/* infrastructure errors, one line each */
	/*
	 * The scenarios the run set out to measure, in configuration order
	 * (this shard's, with --shard): what a comparison holds it to.
	 * Empty in a file from before jankgate wrote it: then every
	 * scenario of the baseline is.
	 */
	struct strlist planned;
};

struct rs_app {
	char *package;
	char *version_name;
	double version_code;	/* exact up to 2^53 */
	char *apk_sha256;
	/*
	 * The build measured as CI names it (a commit id, a build number):
	 * --build-id, else the build_id key (JANKGATE_BUILD_ID); NULL when
	 * unknown, as in every file from before jankgate wrote it.  `gate
	 * --bisect` bisects between two of them.
	 */
	char *build_id;
	struct strlist sources;	/* configured source names, config order */
};

struct rs_device {
	char *serial;
	char *manufacturer;
	char *model;
	double sdk;
	char *release;
	char *fingerprint;
	char *abi;
	double refresh_hz;
	double width;		/* pixels, natural orientation */
	double height;
	char *key;		/* baseline class: google-pixel-7-api34-90hz */
};

/* A hygiene value the model has no field for, kept for the round trip. */
enum rs_value_type {
	RS_VALUE_NULL,
	RS_VALUE_BOOL,
	RS_VALUE_NUMBER,
	RS_VALUE_STRING,
};

struct rs_extra {
	char *key;
	enum rs_value_type type;
	double number;		/* RS_VALUE_NUMBER; 0 or 1 for RS_VALUE_BOOL */
	char *string;		/* RS_VALUE_STRING only */
};

struct rs_hygiene {
	double battery_pct;
	double thermal_status;	/* PowerManager THERMAL_STATUS_*, 0..6 */
	double animator_scale;
	double transition_scale;
	double window_scale;
	int screen_on;		/* 1, 0 or RS_UNKNOWN */
	int unlocked;
	struct rs_extra *extras;	/* insertion order */
	size_t nr_extras, alloc_extras;
};

/* "A configured source yielded nothing here" and the like (source.h). */
struct rs_warning {
	char *source;
	char *scope;		/* "scenario/scene"; NULL: the whole run */
	char *message;
	/*
	 * A fact about the phone, said once, not a fault in what was
	 * measured (an API level too old for a source's extra): reports
	 * list it among the device's notes and the terminal does not warn.
	 */
	bool note;
};

enum rs_launch {
	RS_LAUNCH_NONE,		/* not known; null in JSON */
	RS_LAUNCH_COLD,
	RS_LAUNCH_WARM,
	RS_LAUNCH_HOT,
};

/* Matrix Trace_StartUp (docs/formats.md §1.5). */
struct rs_matrix_startup {
	bool present;
	double application_create_ms;
	double first_activity_create_ms;
	double startup_duration_ms;
	int warm;		/* is_warm_start_up: 1, 0 or RS_UNKNOWN */
};

/* One launch: `am start -W`, Displayed / Fully drawn lines, Matrix. */
struct rs_startup {
	bool present;
	enum rs_launch kind;	/* what the scenario asked for */
	double total_ms;	/* TotalTime */
	double wait_ms;		/* WaitTime */
	double displayed_ms;
	double fully_drawn_ms;
	char *launch_state;	/* LaunchState as printed: COLD, WARM, ... */
	struct rs_matrix_startup matrix;
};

/* A gfxinfo HISTOGRAM bucket: frames whose time falls in the bucket. */
struct rs_bucket {
	uint32_t ms;
	uint64_t count;
};

/* A jank cause counter: missed_vsync, slow_ui_thread, ... */
struct rs_cause {
	char *name;
	uint64_t count;
};

/* One PROFILEDATA row, reduced to what compare and report use. */
struct rs_frame_row {
	int64_t intended_vsync_ns;	/* exact in JSON to 2^53 ns: 104 days */
	int64_t frame_completed_ns;
	double duration_ms;
	int64_t flags;
	int janky;		/* 1, 0 or RS_UNKNOWN (sources/phases.c) */
};

struct rs_frames {
	bool present;		/* a frame source reported for this scene */
	char *source;		/* which (rs_frames_claim()); NULL: unknown */
	double count;
	double janky;
	double slow;		/* over 16 ms */
	double frozen;		/* over 700 ms */
	double dropped;		/* vsyncs missed, summed over frames */
	double p50_ms;
	double p90_ms;
	double p95_ms;
	double p99_ms;
	struct rs_bucket *histogram;	/* ascending ms, no zero counts */
	size_t nr_histogram, alloc_histogram;
	struct rs_cause *causes;	/* insertion order, names unique */
	size_t nr_causes, alloc_causes;
	struct rs_frame_row *rows;	/* optional per-frame detail */
	size_t nr_rows, alloc_rows;
};

/* Matrix DropStatus levels (docs/formats.md §1.3). */
struct rs_drops {
	double best;
	double normal;
	double middle;
	double high;
	double frozen;
};

/*
 * The phases of a frame, FrameMetrics' durations in the order a frame
 * goes through them (sources/phases.c says which columns bound each).
 */
enum rs_phase {
	RS_PHASE_WAIT,		/* before the frame started: UI thread busy */
	RS_PHASE_INPUT,
	RS_PHASE_ANIMATION,
	RS_PHASE_LAYOUT,	/* measure/layout */
	RS_PHASE_DRAW,
	RS_PHASE_SYNC,		/* sync and upload */
	RS_PHASE_COMMAND,	/* command issue */
	RS_PHASE_GPU,		/* GPU and swap */
	RS_NR_PHASES
};

/* A scene's frame phases, from its PROFILEDATA rows. */
struct rs_phases {
	bool present;
	double frames;		/* rows behind the percentiles */
	double skipped;		/* rows left out: Flags set, a timestamp
				   missing, zero or out of order */
	int newest;		/* 1: the framework kept only the newest
				   rows of more frames; 0: every frame of
				   the scene; RS_UNKNOWN */
	double p50_ms[RS_NR_PHASES];
	double p90_ms[RS_NR_PHASES];
};

/* Matrix 2.1 FrameMetrics durations: a slice's mean per frame. */
struct rs_phase_means {
	bool present;
	double ms[RS_NR_PHASES];
};

/* SurfaceFlinger's FrameTimeline jank types (sources/frametimeline.c). */
enum rs_jank_type {
	RS_JANK_APP_DEADLINE,	/* App Deadline Missed */
	RS_JANK_BUFFER_STUFFING,
	RS_JANK_SF_CPU,		/* SurfaceFlinger CPU Deadline Missed */
	RS_JANK_SF_GPU,		/* SurfaceFlinger GPU Deadline Missed */
	RS_JANK_DISPLAY_HAL,
	RS_JANK_PREDICTION,	/* Prediction Error */
	RS_JANK_SF_SCHEDULING,
	RS_JANK_UNKNOWN,	/* Unknown jank, anything unnamed */
	RS_NR_JANK_TYPES
};

/* The app's frames SurfaceFlinger judged janky in a scene, by type. */
struct rs_jank_types {
	bool present;
	double frames;		/* app frames the dump showed in the scene */
	double janky;		/* ... of which janky (any type) */
	double count[RS_NR_JANK_TYPES];	/* a frame counts in each of its
					   types */
};

/* One input step of a scene, when it was sent (run_iter.c). */
struct rs_input {
	double at_mono_ms;
	char *step;		/* as the scenario says it: "swipe 50% ..." */
};

struct rs_fps_slice {
	char *source;
	char *app_scene;	/* activity or fragment the source named */
	double fps;
	struct rs_drops drop_level;	/* frames per level */
	struct rs_drops drop_sum;	/* dropped frames per level */
	struct rs_phase_means phases;	/* Matrix 2.1+ only */
};

struct rs_fps {
	double value;		/* the scene's one number, if a source has it */
	struct rs_fps_slice *slices;
	size_t nr_slices, alloc_slices;
};

/* A main-thread block or slow method: BlockCanary, Matrix, perf... */
struct rs_block {
	char *source;
	char *kind;		/* as the source says: NORMAL, ANR, UI BLOCK */
	double start_mono_ms;
	double wall_ms;
	double thread_ms;
	int cpu_busy;		/* 1, 0 or RS_UNKNOWN */
	struct strlist stack;	/* innermost frame first, as Java prints */
	char *signature;	/* stable hash of the top app frames */
	bool truncated;		/* the source cut the stack */
};

/* A per-method cost (MethodTraceMan and similar). */
struct rs_method {
	char *source;
	char *name;
	double cost_ms;
	int main_thread;	/* 1, 0 or RS_UNKNOWN */
};

struct rs_scene {
	char *name;
	double start_mono_ms;
	double end_mono_ms;
	struct strlist app_scenes;	/* activities/fragments seen inside */
	struct rs_frames frames;
	struct rs_fps fps;
	struct rs_block *blocks;
	size_t nr_blocks, alloc_blocks;
	struct rs_method *methods;
	size_t nr_methods, alloc_methods;
	struct rs_phases phases;
	struct rs_jank_types jank_types;
	struct rs_input *inputs;
	size_t nr_inputs, alloc_inputs;
};

struct rs_iteration {
	int index;		/* position in the scenario, warm-ups too */
	/*
	 * The session the iteration was measured in: iterations one device
	 * ran in one go (a `run`, or one batch of `gate` after a cool-down)
	 * share the phone's state and so one number, from 0 in a file.  A
	 * file without it is one session.
	 */
	int session;
	bool warmup;		/* recorded, never compared */
	bool ok;
	char *error;		/* why it failed, NULL when ok */
	char *logcat_excerpt;	/* context for a failure, may be NULL */
	char *test_stack;	/* the failed instrumentation test's stack
				 * (issue 52), may be NULL */
	double started_mono_ms;
	double duration_ms;
	struct rs_startup startup;
	struct rs_scene *scenes;
	size_t nr_scenes, alloc_scenes;
	struct rs_block *blocks;	/* events outside every scene */
	size_t nr_blocks, alloc_blocks;
	struct rs_method *methods;
	size_t nr_methods, alloc_methods;
};

struct rs_scenario {
	char *name;
	char *file;		/* the .scn as configured */
	char *sha256;		/* of the scenario text, includes expanded */
	struct rs_iteration *iterations;
	size_t nr_iterations, alloc_iterations;
};

struct results {
	struct rs_run run;
	struct rs_app app;
	struct rs_device device;
	struct rs_hygiene hygiene;
	struct rs_warning *warnings;
	size_t nr_warnings, alloc_warnings;
	struct rs_scenario *scenarios;
	size_t nr_scenarios, alloc_scenarios;
};

/* An empty model: every number NAN, every tri-state RS_UNKNOWN. */
struct results *results_new(void);

/* Free the model and everything it owns; NULL is a no-op. */
void results_free(struct results *r);

/*
 * Whether `id` can be a build id (app.build_id), which also goes into a
 * baseline commit's trailer: 1 to RS_MAX_BUILD_ID bytes, no control
 * character, no space at either end.  Returns 0 or JG_EINVAL with a
 * message quoting it.
 */
#define RS_MAX_BUILD_ID 200
int results_build_id_check(const char *id);

/* Replace the owned string `*field` with a copy of `value` (NULL clears). */
void rs_str_set(char **field, const char *value);

/*
 * Drop every scene of `r` for which keep(scenario, scene, data) is false,
 * in every iteration (`jankgate bisect` compares its targeted scenes
 * alone).  The iterations, their launches and their blocks outside
 * scenes stay.
 */
void results_keep_scenes(struct results *r,
    bool (*keep)(const char *scenario, const char *scene, void *data),
    void *data);

/* Append a scenario named `name` (copied; may be NULL until set). */
struct rs_scenario *results_add_scenario(struct results *r, const char *name);

/* The first scenario named `name`, or NULL (also for a NULL r or name). */
struct rs_scenario *results_find_scenario(const struct results *r,
    const char *name);

/*
 * Append a warning; `scope` may be NULL.  Strings are copied.  The same
 * warning (source, scope and message) is kept once: a run that appends
 * iterations (gate's extra batches) says it again, and returns the first.
 */
struct rs_warning *results_add_warning(struct results *r, const char *source,
    const char *scope, const char *message);
/* The same, marked a note (struct rs_warning.note). */
struct rs_warning *results_add_note(struct results *r, const char *source,
    const char *scope, const char *message);

/*
 * Remove every warning of `source` whose message starts with `prefix`:
 * what a source said of a whole run that a later batch of the same run
 * proved wrong.  Returns how many went.
 */
size_t results_remove_warnings(struct results *r, const char *source,
    const char *prefix);

/*
 * A warning as one line for people: "SOURCE in SCOPE: MESSAGE", without
 * the parts it lacks (no source: just the message), appended to `out`.
 */
struct strbuf;
void rs_warning_format(struct strbuf *out, const struct rs_warning *w);

/*
 * Set an extra hygiene value, replacing one with the same key.  Returns 0,
 * or JG_EINVAL when `key` names a field of struct rs_hygiene (set the field
 * instead), so a file can never hold the same key twice.
 */
int rs_hygiene_set_string(struct rs_hygiene *h, const char *key,
    const char *value);
int rs_hygiene_set_number(struct rs_hygiene *h, const char *key, double value);
int rs_hygiene_set_bool(struct rs_hygiene *h, const char *key, bool value);

/* The extra value named `key`, or NULL.  Borrowed. */
const struct rs_extra *rs_hygiene_find(const struct rs_hygiene *h,
    const char *key);

/* 1 when `key` is a field of struct rs_hygiene rather than an extra. */
int rs_hygiene_is_field(const char *key);

/* Append an iteration with index = its position; not ok until set. */
struct rs_iteration *rs_scenario_add_iteration(struct rs_scenario *s,
    bool warmup);

/*
 * The number a new session of `r` gets: one more than the highest session
 * of any of its iterations, 0 when it has none.
 */
int results_next_session(const struct results *r);

/*
 * The names of the scenes of every iteration, each once, in order of first
 * appearance, appended to `out`: what compare iterates over.
 */
void rs_scenario_scene_names(const struct rs_scenario *s,
    struct strlist *out);

/* Append a scene named `name` (copied; may be NULL until set). */
struct rs_scene *rs_iteration_add_scene(struct rs_iteration *it,
    const char *name);

/* The first scene named `name` in `it`, or NULL.  Borrowed. */
struct rs_scene *rs_iteration_find_scene(const struct rs_iteration *it,
    const char *name);

/*
 * The scene an event at `mono_ms` belongs to: the one whose window holds
 * it, else the latest one that ended at most `grace_ms` before it (late
 * reports such as Matrix FPS on pause).  NULL when none: the event belongs
 * to the iteration.  Scenes with an unknown window never match.
 */
struct rs_scene *rs_iteration_scene_at(const struct rs_iteration *it,
    double mono_ms, double grace_ms);

/* Append a block or method to a scene, or to the iteration outside scenes. */
struct rs_block *rs_scene_add_block(struct rs_scene *sc, const char *source);
struct rs_method *rs_scene_add_method(struct rs_scene *sc, const char *source,
    const char *name);
struct rs_block *rs_iteration_add_block(struct rs_iteration *it,
    const char *source);
struct rs_method *rs_iteration_add_method(struct rs_iteration *it,
    const char *source, const char *name);

/* Append an input step sent at `at_mono_ms`; `step` is copied. */
struct rs_input *rs_scene_add_input(struct rs_scene *sc, double at_mono_ms,
    const char *step);

/*
 * results_explain.c: the names of phases and jank types.  rs_*_name()
 * is the key in files and metric names ("layout", "buffer_stuffing"),
 * rs_*_label() the words for people ("measure/layout", "buffer
 * stuffing"); "?" out of range, never NULL.
 */
const char *rs_phase_name(enum rs_phase p);
const char *rs_phase_label(enum rs_phase p);
const char *rs_jank_type_name(enum rs_jank_type t);
const char *rs_jank_type_label(enum rs_jank_type t);

/* Every number NAN, every flag false or RS_UNKNOWN. */
void rs_phases_init(struct rs_phases *p);
void rs_phase_means_init(struct rs_phase_means *m);
void rs_jank_types_init(struct rs_jank_types *j);

/* Append an FPS slice from `source` (copied). */
struct rs_fps_slice *rs_fps_add_slice(struct rs_fps *fps, const char *source);

/*
 * Add `count` frames to the bucket of `ms`, keeping buckets ascending and
 * unique; a zero count stores nothing.  Marks the frames record present.
 */
void rs_frames_add_bucket(struct rs_frames *f, uint32_t ms, uint64_t count);

/*
 * Take frames `f` for `source`, which fills them: 0 when no source had
 * them or `source` already does, -1 when another source filled them
 * (its name is f->source), so two frame sources never mix their numbers
 * in one scene.
 */
int rs_frames_claim(struct rs_frames *f, const char *source);

/* Add `count` to the cause `name`, creating it (zero counts are kept). */
void rs_frames_add_cause(struct rs_frames *f, const char *name,
    uint64_t count);

/*
 * Append the cause `name` without looking for it first: for a reader that
 * has checked its names are unique, in linear time where one add after
 * another would take quadratic time on a file of many causes.
 */
void rs_frames_append_cause(struct rs_frames *f, const char *name,
    uint64_t count);

/* The count of cause `name`, or 0 when it was never added. */
uint64_t rs_frames_cause(const struct rs_frames *f, const char *name);

/* Append a per-frame row (all zero). */
struct rs_frame_row *rs_frames_add_row(struct rs_frames *f);

/* Frames in the histogram, and those in buckets of `min_ms` or more. */
uint64_t rs_frames_histogram_total(const struct rs_frames *f);
uint64_t rs_frames_histogram_at_least(const struct rs_frames *f,
    uint32_t min_ms);

/*
 * results_write.c, results_read.c: the file format.  Reading checks the
 * "schema" (any jankgate.results/1.x) and the type of every known key; errors
 * are JG_EINVAL with "<name>: <key path>: expected <what>", or JG_ENOTFOUND /
 * JG_EIO from reading the file.  On error *out is NULL.
 *
 * A number outside its limits (above) is read as absent (NAN), and one
 * warning in the model names the first such value by its key path and
 * counts the others: what the gate and the baseline history need, where
 * refusing a file would cost the whole night.
 */
int results_read(struct results **out, const char *path);
int results_parse(struct results **out, const char *buf, size_t len,
    const char *name);

/*
 * The same, refusing a number outside its limits instead: JG_EINVAL with
 * "<name>: <key path>: 1.7e+308 is not a duration (0 to 3600000 ms)".
 * For what a user hands to check, compare and report.
 */
int results_read_strict(struct results **out, const char *path);
int results_parse_strict(struct results **out, const char *buf, size_t len,
    const char *name);

/* The canonical, pretty-printed JSON text of `r`; the caller frees it. */
char *results_to_json(const struct results *r);

/*
 * One iteration alone, in the layout it has inside results.json (a
 * top-level object, no trailing newline): what `jankgate parse` prints.
 * The caller frees it.
 */
char *results_iteration_to_json(const struct rs_iteration *it);

/* The same for one launch record (null when not present). */
char *results_startup_to_json(const struct rs_startup *st);

/*
 * Hold `r` to the limits (above) as a lenient read would hold a file:
 * each number outside made absent, one warning naming the first (its
 * key path in a file `name`) and counting the others, free text cut.
 * Returns how many numbers were made absent.
 */
size_t results_hold_limits(struct results *r, const char *name);

/*
 * Hold `r` to the limits (results_hold_limits(), so what jankgate writes
 * passes the strict readers however a device misreported), then write
 * results_to_json(r) to `path` atomically.  Returns 0 or JG_EIO.
 */
int results_write(struct results *r, const char *path);

/* "cold", "warm", "hot", or NULL for RS_LAUNCH_NONE. */
const char *rs_launch_name(enum rs_launch kind);

/* The launch kind named `name`; returns 0, or JG_EINVAL for other names. */
int rs_launch_parse(const char *name, enum rs_launch *out);

#endif
