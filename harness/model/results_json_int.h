/*
 * results_json_int.h: the layout of results.json, shared by its writer
 * (results_write.c) and its reader (results_read.c); results_fields.c
 * holds the tables.  Private to the three.
 *
 * Every key is written,
 * always in this order, two spaces per level; an absent number, string or
 * tri-state is null and an absent record (startup, matrix, frames) is null:
 *
 *   { "schema": "jankgate.results/1",
 *     "run":      { id, started, finished, jankgate_version, host,
 *                   complete, errors: [str], planned: [str] },
 *     "app":      { package, version_name, version_code, apk_sha256,
 *                   build_id, sources: [str] },
 *     "device":   { serial, manufacturer, model, sdk, release, fingerprint,
 *                   abi, refresh_hz, width, height, key },
 *     "hygiene":  { battery_pct, thermal_status, animator_scale,
 *                   transition_scale, window_scale, screen_on, unlocked,
 *                   <extra key>: str|num|bool|null, ... },
 *     "warnings": [ { source, scope, message, note } ],
 *     "scenarios": [ { name, file, sha256, "iterations": [
 *       { index, session, warmup, ok, error, logcat_excerpt, test_stack,
 *         started_mono_ms, duration_ms,
 *         "startup": { kind, total_ms, wait_ms, displayed_ms,
 *                      fully_drawn_ms, launch_state,
 *                      "matrix": { application_create_ms,
 *                                  first_activity_create_ms,
 *                                  startup_duration_ms, warm } },
 *         "scenes": [ { name, start_mono_ms, end_mono_ms, app_scenes: [str],
 *           "frames": { source, count, janky, slow, frozen, dropped,
 *                       p50_ms, p90_ms, p95_ms, p99_ms,
 *                       "histogram": { "<ms>": n, ... },
 *                       "causes": { "<name>": n, ... },
 *                       "rows": [ { intended_vsync_ns, frame_completed_ns,
 *                                   duration_ms, flags, janky } ] },
 *           "fps": { value, "slices": [ { source, app_scene, fps,
 *                    "drop_level": { best, normal, middle, high, frozen },
 *                    "drop_sum": { ...same... },
 *                    "phases_ms": { wait, input, animation, layout, draw,
 *                                   sync, command, gpu } } ] },
 *           "blocks": [ BLOCK ], "methods": [ METHOD ],
 *           "phases": { frames, skipped, newest, wait_p50_ms,
 *                       wait_p90_ms, ... gpu_p90_ms },
 *           "jank_types": { frames, janky, app_deadline_missed,
 *                           buffer_stuffing, sf_cpu_deadline_missed,
 *                           sf_gpu_deadline_missed, display_hal,
 *                           prediction_error, sf_scheduling, unknown },
 *           "inputs": [ { at_mono_ms, step } ] } ],
 *         "blocks": [ BLOCK ], "methods": [ METHOD ] } ] } ] }
 *
 *   BLOCK  = { source, kind, start_mono_ms, wall_ms, thread_ms, cpu_busy,
 *              stack: [str], signature, truncated }
 *   METHOD = { source, name, cost_ms, main_thread }
 *
 */
#ifndef JG_RESULTS_JSON_INT_H
#define JG_RESULTS_JSON_INT_H

#include <stdbool.h>
#include <stddef.h>

/* How a scalar member is stored in its struct and spelled in JSON. */
enum field_kind {
	FK_STR,		/* char *, null when NULL */
	FK_NUM,		/* double, null when NAN */
	FK_INT,		/* int */
	FK_I64,		/* int64_t */
	FK_BOOL,	/* bool */
	FK_TRI,		/* int: true, false or null for RS_UNKNOWN */
	FK_LIST,	/* struct strlist, an array of strings */
	FK_LAUNCH,	/* enum rs_launch, "cold"/"warm"/"hot" or null */
	/*
	 * Doubles like FK_NUM whose value the reader also bounds (results.h,
	 * "Limits"): a number outside is refused or read as absent.
	 */
	FK_MS,		/* a duration, 0 to RS_MAX_DURATION_MS */
	FK_LONG_MS,	/* an iteration's duration, to RS_MAX_ITERATION_MS */
	FK_MONO,	/* a monotonic time, within +-RS_MAX_MONO_MS */
	FK_COUNT,	/* frames or events, 0 to RS_MAX_COUNT */
	FK_FPS,		/* frames per second, 0 to RS_MAX_FPS */
	/* Free text, cut to RS_MAX_TEXT bytes on reading (results.h). */
	FK_TEXT,	/* char *, as FK_STR */
	FK_TEXTS,	/* struct strlist, as FK_LIST */
};

/*
 * The scalar members of each record, in file order.  The key is the member
 * name, and one table drives both the reader and the writer, so they cannot
 * disagree on a key.  Nested records follow the scalars and are handled by
 * hand below.
 */
struct field {
	const char *key;
	enum field_kind kind;
	size_t off;
	bool required;
};

#define F(type, member, kind) { #member, kind, offsetof(type, member), false }
#define REQ(type, member, kind) { #member, kind, offsetof(type, member), true }
#define NFIELDS(t) (sizeof(t) / sizeof(*(t)))

/* One record's fields. */
struct field_table {
	const struct field *f;
	size_t n;
};

extern const struct field_table run_fields;
extern const struct field_table app_fields;
extern const struct field_table device_fields;
extern const struct field_table hygiene_fields;
extern const struct field_table warning_fields;
extern const struct field_table scenario_fields;
extern const struct field_table iteration_fields;
extern const struct field_table startup_fields;
extern const struct field_table matrix_fields;
extern const struct field_table scene_fields;
extern const struct field_table frames_fields;
extern const struct field_table row_fields;
extern const struct field_table fps_fields;
extern const struct field_table slice_fields;
extern const struct field_table drops_fields;
extern const struct field_table block_fields;
extern const struct field_table method_fields;
/* Issue 20: a scene's phases, jank types and input steps, a slice's phase
 * means (results_explain.c). */
extern const struct field_table phases_fields;
extern const struct field_table phase_means_fields;
extern const struct field_table jank_types_fields;
extern const struct field_table input_fields;

/*
 * results_limits.c: the limits of results.h, shared by the reader and
 * results_hold_limits().
 */
struct results;
struct strbuf;

struct field_limit {
	const char *what;	/* "a duration" */
	double lo, hi;
	const char *range;	/* the limits for people: "0 to 3600000 ms" */
};

/* The limits of a bounded kind (FK_MS...), NULL for any other kind. */
const struct field_limit *field_limit_of(enum field_kind kind);

/* 1 when `v` is finite and within `lim`, else 0. */
int field_limit_holds(const struct field_limit *lim, double v);

/* Append "NAME: PATH: 1.7e+308 is not a duration (0 to 3600000 ms)". */
void field_limit_say(struct strbuf *out, const char *name, const char *path,
    double v, const struct field_limit *lim);

/*
 * One warning in `r` for the `nr` values made absent: `first` (as
 * field_limit_say() put it), then `how` ("read as absent"), then how many
 * more.
 */
void field_limit_note(struct results *r, const char *first, size_t nr,
    const char *how);

/*
 * `s` into `*field` (which may be `s` itself), cut to RS_MAX_TEXT bytes
 * with a marker of its length when longer.  The cut falls between UTF-8
 * sequences and the result is never longer than the limit, so cutting
 * again changes nothing.
 */
void field_text_set(char **field, const char *s);

#endif
