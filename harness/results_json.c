/*
 * results_json.c: results.json to and from the model of results.h.
 *
 * This is the one place that knows the file layout.  Every key is written,
 * always in this order, two spaces per level; an absent number, string or
 * tri-state is null and an absent record (startup, matrix, frames) is null:
 *
 *   { "schema": "jankgate.results/1",
 *     "run":      { id, started, finished, jankgate_version, host,
 *                   complete, errors: [str] },
 *     "app":      { package, version_name, version_code, apk_sha256,
 *                   sources: [str] },
 *     "device":   { serial, manufacturer, model, sdk, release, fingerprint,
 *                   abi, refresh_hz, width, height, key },
 *     "hygiene":  { battery_pct, thermal_status, animator_scale,
 *                   transition_scale, window_scale, screen_on, unlocked,
 *                   <extra key>: str|num|bool|null, ... },
 *     "warnings": [ { source, scope, message } ],
 *     "scenarios": [ { name, file, sha256, "iterations": [
 *       { index, session, warmup, ok, error, logcat_excerpt, started_mono_ms,
 *         duration_ms,
 *         "startup": { kind, total_ms, wait_ms, displayed_ms,
 *                      fully_drawn_ms, launch_state,
 *                      "matrix": { application_create_ms,
 *                                  first_activity_create_ms,
 *                                  startup_duration_ms, warm } },
 *         "scenes": [ { name, start_mono_ms, end_mono_ms, app_scenes: [str],
 *           "frames": { count, janky, slow, frozen, dropped, p50_ms, p90_ms,
 *                       p95_ms, p99_ms, "histogram": { "<ms>": n, ... },
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
 * Reading is done with cJSON and is lenient where that is safe: a missing
 * key reads as null, unknown keys are ignored (a 1.x minor version may add
 * some), but a value of the wrong type is an error that names its key path.
 * Only the schema, scenario names and scene names are required.
 *
 * Writing does not go through cJSON_Print: baselines are committed to git,
 * so the bytes must not change with the cJSON version (its layout and its
 * "%1.15g" numbers, which turn 1e15 into "1e+15", have changed before), and
 * one value per line keeps `git diff` readable.  The layout is the one of
 * Python's json.dumps(indent=2, ensure_ascii=False), so test scripts can
 * produce byte-identical files.  Integral numbers print without a fraction;
 * others print with the fewest digits that read back to the same double.
 *
 * Strings: the model may hold any bytes, the file always holds valid UTF-8.
 * Quotes, backslashes and control characters are escaped; each byte that is
 * not part of a valid UTF-8 sequence (overlong forms and surrogates
 * included) is written as U+FFFD, so such strings do not survive a round
 * trip byte for byte, but the file stays readable by every JSON parser.
 * A "\u0000" escape read from a file ends the string there.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "error.h"
#include "fileio.h"
#include "jsonw.h"
#include "results.h"
#include "schema.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* 2^53: doubles above it no longer hold every integer. */

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

static const struct field run_fields[] = {
	F(struct rs_run, id, FK_STR),
	F(struct rs_run, started, FK_STR),
	F(struct rs_run, finished, FK_STR),
	F(struct rs_run, jankgate_version, FK_STR),
	F(struct rs_run, host, FK_STR),
	F(struct rs_run, complete, FK_BOOL),
	F(struct rs_run, errors, FK_LIST),
};

static const struct field app_fields[] = {
	F(struct rs_app, package, FK_STR),
	F(struct rs_app, version_name, FK_STR),
	F(struct rs_app, version_code, FK_NUM),
	F(struct rs_app, apk_sha256, FK_STR),
	F(struct rs_app, sources, FK_LIST),
};

static const struct field device_fields[] = {
	F(struct rs_device, serial, FK_STR),
	F(struct rs_device, manufacturer, FK_STR),
	F(struct rs_device, model, FK_STR),
	F(struct rs_device, sdk, FK_NUM),
	F(struct rs_device, release, FK_STR),
	F(struct rs_device, fingerprint, FK_STR),
	F(struct rs_device, abi, FK_STR),
	F(struct rs_device, refresh_hz, FK_NUM),
	F(struct rs_device, width, FK_NUM),
	F(struct rs_device, height, FK_NUM),
	F(struct rs_device, key, FK_STR),
};

/* Keep in step with hygiene_fields[] in results.c. */
static const struct field hygiene_fields[] = {
	F(struct rs_hygiene, battery_pct, FK_NUM),
	F(struct rs_hygiene, thermal_status, FK_NUM),
	F(struct rs_hygiene, animator_scale, FK_NUM),
	F(struct rs_hygiene, transition_scale, FK_NUM),
	F(struct rs_hygiene, window_scale, FK_NUM),
	F(struct rs_hygiene, screen_on, FK_TRI),
	F(struct rs_hygiene, unlocked, FK_TRI),
};

static const struct field warning_fields[] = {
	F(struct rs_warning, source, FK_STR),
	F(struct rs_warning, scope, FK_STR),
	F(struct rs_warning, message, FK_STR),
};

static const struct field scenario_fields[] = {
	REQ(struct rs_scenario, name, FK_STR),
	F(struct rs_scenario, file, FK_STR),
	F(struct rs_scenario, sha256, FK_STR),
};

static const struct field iteration_fields[] = {
	F(struct rs_iteration, index, FK_INT),
	F(struct rs_iteration, session, FK_INT),
	F(struct rs_iteration, warmup, FK_BOOL),
	F(struct rs_iteration, ok, FK_BOOL),
	F(struct rs_iteration, error, FK_STR),
	F(struct rs_iteration, logcat_excerpt, FK_STR),
	F(struct rs_iteration, started_mono_ms, FK_NUM),
	F(struct rs_iteration, duration_ms, FK_NUM),
};

static const struct field startup_fields[] = {
	F(struct rs_startup, kind, FK_LAUNCH),
	F(struct rs_startup, total_ms, FK_NUM),
	F(struct rs_startup, wait_ms, FK_NUM),
	F(struct rs_startup, displayed_ms, FK_NUM),
	F(struct rs_startup, fully_drawn_ms, FK_NUM),
	F(struct rs_startup, launch_state, FK_STR),
};

static const struct field matrix_fields[] = {
	F(struct rs_matrix_startup, application_create_ms, FK_NUM),
	F(struct rs_matrix_startup, first_activity_create_ms, FK_NUM),
	F(struct rs_matrix_startup, startup_duration_ms, FK_NUM),
	F(struct rs_matrix_startup, warm, FK_TRI),
};

static const struct field scene_fields[] = {
	REQ(struct rs_scene, name, FK_STR),
	F(struct rs_scene, start_mono_ms, FK_NUM),
	F(struct rs_scene, end_mono_ms, FK_NUM),
	F(struct rs_scene, app_scenes, FK_LIST),
};

static const struct field frames_fields[] = {
	F(struct rs_frames, count, FK_NUM),
	F(struct rs_frames, janky, FK_NUM),
	F(struct rs_frames, slow, FK_NUM),
	F(struct rs_frames, frozen, FK_NUM),
	F(struct rs_frames, dropped, FK_NUM),
	F(struct rs_frames, p50_ms, FK_NUM),
	F(struct rs_frames, p90_ms, FK_NUM),
	F(struct rs_frames, p95_ms, FK_NUM),
	F(struct rs_frames, p99_ms, FK_NUM),
};

static const struct field row_fields[] = {
	F(struct rs_frame_row, intended_vsync_ns, FK_I64),
	F(struct rs_frame_row, frame_completed_ns, FK_I64),
	F(struct rs_frame_row, duration_ms, FK_NUM),
	F(struct rs_frame_row, flags, FK_I64),
	F(struct rs_frame_row, janky, FK_TRI),
};

/* The phases of a scene and of a Matrix slice (results_explain.c). */
#define PHASE_PCT(name, idx) \
	{ name "_p50_ms", FK_NUM, offsetof(struct rs_phases, p50_ms[idx]), \
	  false }, \
	{ name "_p90_ms", FK_NUM, offsetof(struct rs_phases, p90_ms[idx]), \
	  false }
static const struct field phases_fields[] = {
	F(struct rs_phases, frames, FK_NUM),
	F(struct rs_phases, skipped, FK_NUM),
	F(struct rs_phases, newest, FK_TRI),
	PHASE_PCT("wait", RS_PHASE_WAIT),
	PHASE_PCT("input", RS_PHASE_INPUT),
	PHASE_PCT("animation", RS_PHASE_ANIMATION),
	PHASE_PCT("layout", RS_PHASE_LAYOUT),
	PHASE_PCT("draw", RS_PHASE_DRAW),
	PHASE_PCT("sync", RS_PHASE_SYNC),
	PHASE_PCT("command", RS_PHASE_COMMAND),
	PHASE_PCT("gpu", RS_PHASE_GPU),
};

#define PHASE_MEAN(name, idx) \
	{ name, FK_NUM, offsetof(struct rs_phase_means, ms[idx]), false }
static const struct field phase_means_fields[] = {
	PHASE_MEAN("wait", RS_PHASE_WAIT),
	PHASE_MEAN("input", RS_PHASE_INPUT),
	PHASE_MEAN("animation", RS_PHASE_ANIMATION),
	PHASE_MEAN("layout", RS_PHASE_LAYOUT),
	PHASE_MEAN("draw", RS_PHASE_DRAW),
	PHASE_MEAN("sync", RS_PHASE_SYNC),
	PHASE_MEAN("command", RS_PHASE_COMMAND),
	PHASE_MEAN("gpu", RS_PHASE_GPU),
};

#define JANK_TYPE(name, idx) \
	{ name, FK_NUM, offsetof(struct rs_jank_types, count[idx]), false }
static const struct field jank_types_fields[] = {
	F(struct rs_jank_types, frames, FK_NUM),
	F(struct rs_jank_types, janky, FK_NUM),
	JANK_TYPE("app_deadline_missed", RS_JANK_APP_DEADLINE),
	JANK_TYPE("buffer_stuffing", RS_JANK_BUFFER_STUFFING),
	JANK_TYPE("sf_cpu_deadline_missed", RS_JANK_SF_CPU),
	JANK_TYPE("sf_gpu_deadline_missed", RS_JANK_SF_GPU),
	JANK_TYPE("display_hal", RS_JANK_DISPLAY_HAL),
	JANK_TYPE("prediction_error", RS_JANK_PREDICTION),
	JANK_TYPE("sf_scheduling", RS_JANK_SF_SCHEDULING),
	JANK_TYPE("unknown", RS_JANK_UNKNOWN),
};

static const struct field input_fields[] = {
	F(struct rs_input, at_mono_ms, FK_NUM),
	F(struct rs_input, step, FK_STR),
};

static const struct field fps_fields[] = {
	F(struct rs_fps, value, FK_NUM),
};

static const struct field slice_fields[] = {
	F(struct rs_fps_slice, source, FK_STR),
	F(struct rs_fps_slice, app_scene, FK_STR),
	F(struct rs_fps_slice, fps, FK_NUM),
};

static const struct field drops_fields[] = {
	F(struct rs_drops, best, FK_NUM),
	F(struct rs_drops, normal, FK_NUM),
	F(struct rs_drops, middle, FK_NUM),
	F(struct rs_drops, high, FK_NUM),
	F(struct rs_drops, frozen, FK_NUM),
};

static const struct field block_fields[] = {
	F(struct rs_block, source, FK_STR),
	F(struct rs_block, kind, FK_STR),
	F(struct rs_block, start_mono_ms, FK_NUM),
	F(struct rs_block, wall_ms, FK_NUM),
	F(struct rs_block, thread_ms, FK_NUM),
	F(struct rs_block, cpu_busy, FK_TRI),
	F(struct rs_block, stack, FK_LIST),
	F(struct rs_block, signature, FK_STR),
	F(struct rs_block, truncated, FK_BOOL),
};

static const struct field method_fields[] = {
	F(struct rs_method, source, FK_STR),
	F(struct rs_method, name, FK_STR),
	F(struct rs_method, cost_ms, FK_NUM),
	F(struct rs_method, main_thread, FK_TRI),
};

/* ---- writing ---------------------------------------------------------- */

static void
write_fields(struct jsonw *w, const void *base, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++, f++) {
		const char *p = (const char *)base + f->off;
		const struct strlist *l;
		int tri;

		switch (f->kind) {
		case FK_STR:
			jsonw_str(w, f->key, *(char *const *)p);
			break;
		case FK_NUM:
			jsonw_num(w, f->key, *(const double *)p);
			break;
		case FK_INT:
			jsonw_item(w, f->key);
			strbuf_addf(w->sb, "%d", *(const int *)p);
			break;
		case FK_I64:
			jsonw_item(w, f->key);
			strbuf_addf(w->sb, "%" PRId64, *(const int64_t *)p);
			break;
		case FK_BOOL:
			jsonw_lit(w, f->key, *(const bool *)p ? "true" : "false");
			break;
		case FK_TRI:
			tri = *(const int *)p;
			jsonw_lit(w, f->key, tri == RS_UNKNOWN ? "null" :
			    tri ? "true" : "false");
			break;
		case FK_LIST:
			l = (const struct strlist *)p;
			jsonw_open(w, f->key, '[');
			for (size_t j = 0; j < l->nr; j++)
				jsonw_str(w, NULL, l->items[j]);
			jsonw_close(w, ']');
			break;
		case FK_LAUNCH:
			jsonw_str(w, f->key,
			    rs_launch_name(*(const enum rs_launch *)p));
			break;
		}
	}
}

/* An object holding only the scalars of `f`. */
static void
write_record(struct jsonw *w, const char *key, const void *base,
    const struct field *f, size_t n)
{
	jsonw_open(w, key, '{');
	write_fields(w, base, f, n);
	jsonw_close(w, '}');
}

static void
write_hygiene(struct jsonw *w, const struct rs_hygiene *h)
{
	jsonw_open(w, "hygiene", '{');
	write_fields(w, h, hygiene_fields, NFIELDS(hygiene_fields));
	for (size_t i = 0; i < h->nr_extras; i++) {
		const struct rs_extra *e = &h->extras[i];

		switch (e->type) {
		case RS_VALUE_NULL:
			jsonw_lit(w, e->key, "null");
			break;
		case RS_VALUE_BOOL:
			jsonw_lit(w, e->key, e->number ? "true" : "false");
			break;
		case RS_VALUE_NUMBER:
			jsonw_num(w, e->key, e->number);
			break;
		case RS_VALUE_STRING:
			jsonw_str(w, e->key, e->string);
			break;
		}
	}
	jsonw_close(w, '}');
}

static void
write_events(struct jsonw *w, const struct rs_block *blocks, size_t nr_blocks,
    const struct rs_method *methods, size_t nr_methods)
{
	jsonw_open(w, "blocks", '[');
	for (size_t i = 0; i < nr_blocks; i++)
		write_record(w, NULL, &blocks[i], block_fields,
		    NFIELDS(block_fields));
	jsonw_close(w, ']');
	jsonw_open(w, "methods", '[');
	for (size_t i = 0; i < nr_methods; i++)
		write_record(w, NULL, &methods[i], method_fields,
		    NFIELDS(method_fields));
	jsonw_close(w, ']');
}

static void
write_frames(struct jsonw *w, const struct rs_frames *f)
{
	char ms[16];

	if (!f->present) {
		jsonw_lit(w, "frames", "null");
		return;
	}
	jsonw_open(w, "frames", '{');
	write_fields(w, f, frames_fields, NFIELDS(frames_fields));
	jsonw_open(w, "histogram", '{');
	for (size_t i = 0; i < f->nr_histogram; i++) {
		snprintf(ms, sizeof(ms), "%" PRIu32, f->histogram[i].ms);
		jsonw_item(w, ms);
		strbuf_addf(w->sb, "%" PRIu64, f->histogram[i].count);
	}
	jsonw_close(w, '}');
	jsonw_open(w, "causes", '{');
	for (size_t i = 0; i < f->nr_causes; i++) {
		jsonw_item(w, f->causes[i].name);
		strbuf_addf(w->sb, "%" PRIu64, f->causes[i].count);
	}
	jsonw_close(w, '}');
	jsonw_open(w, "rows", '[');
	for (size_t i = 0; i < f->nr_rows; i++)
		write_record(w, NULL, &f->rows[i], row_fields,
		    NFIELDS(row_fields));
	jsonw_close(w, ']');
	jsonw_close(w, '}');
}

static void
write_fps(struct jsonw *w, const struct rs_fps *fps)
{
	jsonw_open(w, "fps", '{');
	write_fields(w, fps, fps_fields, NFIELDS(fps_fields));
	jsonw_open(w, "slices", '[');
	for (size_t i = 0; i < fps->nr_slices; i++) {
		const struct rs_fps_slice *s = &fps->slices[i];

		jsonw_open(w, NULL, '{');
		write_fields(w, s, slice_fields, NFIELDS(slice_fields));
		write_record(w, "drop_level", &s->drop_level, drops_fields,
		    NFIELDS(drops_fields));
		write_record(w, "drop_sum", &s->drop_sum, drops_fields,
		    NFIELDS(drops_fields));
		if (s->phases.present)
			write_record(w, "phases_ms", &s->phases,
			    phase_means_fields, NFIELDS(phase_means_fields));
		else
			jsonw_lit(w, "phases_ms", "null");
		jsonw_close(w, '}');
	}
	jsonw_close(w, ']');
	jsonw_close(w, '}');
}

static void
write_startup(struct jsonw *w, const char *key, const struct rs_startup *st)
{
	if (!st->present) {
		jsonw_lit(w, key, "null");
		return;
	}
	jsonw_open(w, key, '{');
	write_fields(w, st, startup_fields, NFIELDS(startup_fields));
	if (st->matrix.present)
		write_record(w, "matrix", &st->matrix, matrix_fields,
		    NFIELDS(matrix_fields));
	else
		jsonw_lit(w, "matrix", "null");
	jsonw_close(w, '}');
}

/* A scene's phases, jank types and input steps (results_explain.c). */
static void
write_explain(struct jsonw *w, const struct rs_scene *sc)
{
	if (sc->phases.present)
		write_record(w, "phases", &sc->phases, phases_fields,
		    NFIELDS(phases_fields));
	else
		jsonw_lit(w, "phases", "null");
	if (sc->jank_types.present)
		write_record(w, "jank_types", &sc->jank_types,
		    jank_types_fields, NFIELDS(jank_types_fields));
	else
		jsonw_lit(w, "jank_types", "null");
	jsonw_open(w, "inputs", '[');
	for (size_t i = 0; i < sc->nr_inputs; i++)
		write_record(w, NULL, &sc->inputs[i], input_fields,
		    NFIELDS(input_fields));
	jsonw_close(w, ']');
}

static void
write_iteration(struct jsonw *w, const struct rs_iteration *it)
{
	jsonw_open(w, NULL, '{');
	write_fields(w, it, iteration_fields, NFIELDS(iteration_fields));
	write_startup(w, "startup", &it->startup);
	jsonw_open(w, "scenes", '[');
	for (size_t i = 0; i < it->nr_scenes; i++) {
		const struct rs_scene *sc = &it->scenes[i];

		jsonw_open(w, NULL, '{');
		write_fields(w, sc, scene_fields, NFIELDS(scene_fields));
		write_frames(w, &sc->frames);
		write_fps(w, &sc->fps);
		write_events(w, sc->blocks, sc->nr_blocks, sc->methods,
		    sc->nr_methods);
		write_explain(w, sc);
		jsonw_close(w, '}');
	}
	jsonw_close(w, ']');
	write_events(w, it->blocks, it->nr_blocks, it->methods, it->nr_methods);
	jsonw_close(w, '}');
}

char *
results_to_json(const struct results *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct jsonw w;

	jsonw_init(&w, &sb);
	jsonw_open(&w, NULL, '{');
	jsonw_str(&w, "schema", RS_SCHEMA);
	write_record(&w, "run", &r->run, run_fields, NFIELDS(run_fields));
	write_record(&w, "app", &r->app, app_fields, NFIELDS(app_fields));
	write_record(&w, "device", &r->device, device_fields,
	    NFIELDS(device_fields));
	write_hygiene(&w, &r->hygiene);
	jsonw_open(&w, "warnings", '[');
	for (size_t i = 0; i < r->nr_warnings; i++)
		write_record(&w, NULL, &r->warnings[i], warning_fields,
		    NFIELDS(warning_fields));
	jsonw_close(&w, ']');
	jsonw_open(&w, "scenarios", '[');
	for (size_t i = 0; i < r->nr_scenarios; i++) {
		const struct rs_scenario *s = &r->scenarios[i];

		jsonw_open(&w, NULL, '{');
		write_fields(&w, s, scenario_fields, NFIELDS(scenario_fields));
		jsonw_open(&w, "iterations", '[');
		for (size_t j = 0; j < s->nr_iterations; j++)
			write_iteration(&w, &s->iterations[j]);
		jsonw_close(&w, ']');
		jsonw_close(&w, '}');
	}
	jsonw_close(&w, ']');
	jsonw_close(&w, '}');
	jsonw_end(&w);
	return strbuf_detach(&sb, NULL);
}

char *
results_iteration_to_json(const struct rs_iteration *it)
{
	struct strbuf sb = STRBUF_INIT;
	struct jsonw w;

	jsonw_init(&w, &sb);
	write_iteration(&w, it);
	return strbuf_detach(&sb, NULL);
}

char *
results_startup_to_json(const struct rs_startup *st)
{
	struct strbuf sb = STRBUF_INIT;
	struct jsonw w;

	jsonw_init(&w, &sb);
	write_startup(&w, NULL, st);
	return strbuf_detach(&sb, NULL);
}

int
results_write(const struct results *r, const char *path)
{
	char *json = results_to_json(r);
	int ret = file_write_atomic(path, json, strlen(json), 0666);

	free(json);
	return ret;
}

/* ---- reading ---------------------------------------------------------- */

struct jr {
	const char *name;	/* the file, for messages */
	struct strbuf path;	/* key path of the value being read */
};

static size_t
jr_push_key(struct jr *r, const char *key)
{
	size_t old = r->path.len;

	if (old)
		strbuf_addch(&r->path, '.');
	strbuf_addstr(&r->path, key);
	return old;
}

static size_t
jr_push_index(struct jr *r, size_t i)
{
	size_t old = r->path.len;

	strbuf_addf(&r->path, "[%zu]", i);
	return old;
}

static void
jr_pop(struct jr *r, size_t old)
{
	strbuf_setlen(&r->path, old);
}

static int
jr_fail(struct jr *r, const char *expected)
{
	return jg_error_set(JG_EINVAL, "%s: %s: expected %s", r->name,
	    r->path.buf, expected);
}

/* 1 when `v` is a number holding an integer in [lo, hi]. */
static int
is_integer(const cJSON *v, double lo, double hi)
{
	return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
	    v->valuedouble >= lo && v->valuedouble <= hi;
}

static int
read_list(struct jr *r, const cJSON *v, struct strlist *l)
{
	const cJSON *item;
	size_t i = 0;

	if (!cJSON_IsArray(v))
		return jr_fail(r, "an array of strings");
	cJSON_ArrayForEach(item, v) {
		size_t old = jr_push_index(r, i++);

		if (!cJSON_IsString(item))
			return jr_fail(r, "a string");
		jr_pop(r, old);
		strlist_add(l, item->valuestring);
	}
	return 0;
}

/* Read one scalar into `p`; a missing or null value leaves the default. */
static int
read_scalar(struct jr *r, const cJSON *v, const struct field *f, char *p)
{
	if (!v || cJSON_IsNull(v))
		return f->required ? jr_fail(r, "a string") : 0;
	switch (f->kind) {
	case FK_STR:
		if (!cJSON_IsString(v))
			return jr_fail(r, "a string");
		rs_str_set((char **)p, v->valuestring);
		return 0;
	case FK_NUM:
		if (!cJSON_IsNumber(v))
			return jr_fail(r, "a number");
		*(double *)p = v->valuedouble;
		return 0;
	case FK_INT:
		if (!is_integer(v, 0, 2147483647.0))
			return jr_fail(r, "a non-negative integer");
		*(int *)p = (int)v->valuedouble;
		return 0;
	case FK_I64:
		/* Both limits are exact doubles; INT64_MAX itself is not. */
		if (!is_integer(v, -9223372036854775808.0,
		    9223372036854774784.0))
			return jr_fail(r, "an integer");
		*(int64_t *)p = (int64_t)v->valuedouble;
		return 0;
	case FK_BOOL:
		if (!cJSON_IsBool(v))
			return jr_fail(r, "true or false");
		*(bool *)p = cJSON_IsTrue(v);
		return 0;
	case FK_TRI:
		if (!cJSON_IsBool(v))
			return jr_fail(r, "true, false or null");
		*(int *)p = cJSON_IsTrue(v) ? 1 : 0;
		return 0;
	case FK_LIST:
		return read_list(r, v, (struct strlist *)p);
	case FK_LAUNCH:
		if (!cJSON_IsString(v) ||
		    rs_launch_parse(v->valuestring, (enum rs_launch *)p) < 0)
			return jr_fail(r, "\"cold\", \"warm\" or \"hot\"");
		return 0;
	}
	return 0;
}

static int
read_fields(struct jr *r, const cJSON *obj, void *base, const struct field *f,
    size_t n)
{
	for (size_t i = 0; i < n; i++, f++) {
		size_t old = jr_push_key(r, f->key);
		int ret = read_scalar(r,
		    cJSON_GetObjectItemCaseSensitive(obj, f->key), f,
		    (char *)base + f->off);

		if (ret)
			return ret;
		jr_pop(r, old);
	}
	return 0;
}

typedef int read_fn(struct jr *r, const cJSON *obj, void *dst);

/*
 * Hand the object under `key` to `fn`.  Returns 1 when there was none (the
 * key is missing or null), so callers can tell "absent" from "read".
 */
static int
read_object(struct jr *r, const cJSON *parent, const char *key, read_fn *fn,
    void *dst)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(parent, key);
	size_t old;
	int ret;

	if (!v || cJSON_IsNull(v))
		return 1;
	old = jr_push_key(r, key);
	ret = cJSON_IsObject(v) ? fn(r, v, dst) : jr_fail(r, "an object");
	if (!ret)
		jr_pop(r, old);
	return ret;
}

/* Hand each object of the array under `key` to `fn`; absent is empty. */
static int
read_array(struct jr *r, const cJSON *parent, const char *key, read_fn *fn,
    void *dst)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(parent, key);
	const cJSON *item;
	size_t old, i = 0;

	if (!v || cJSON_IsNull(v))
		return 0;
	old = jr_push_key(r, key);
	if (!cJSON_IsArray(v))
		return jr_fail(r, "an array");
	cJSON_ArrayForEach(item, v) {
		size_t old_item = jr_push_index(r, i++);
		int ret = cJSON_IsObject(item) ? fn(r, item, dst) :
		    jr_fail(r, "an object");

		if (ret)
			return ret;
		jr_pop(r, old_item);
	}
	jr_pop(r, old);
	return 0;
}

#define DEFINE_RECORD_READER(fn, type, table) \
	static int \
	fn(struct jr *r, const cJSON *obj, void *dst) \
	{ \
		return read_fields(r, obj, (type *)dst, table, \
		    NFIELDS(table)); \
	}

DEFINE_RECORD_READER(read_run, struct rs_run, run_fields)
DEFINE_RECORD_READER(read_app, struct rs_app, app_fields)
DEFINE_RECORD_READER(read_device, struct rs_device, device_fields)
DEFINE_RECORD_READER(read_drops, struct rs_drops, drops_fields)

static int
read_hygiene(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_hygiene *h = dst;
	const cJSON *v;
	int ret = read_fields(r, obj, h, hygiene_fields,
	    NFIELDS(hygiene_fields));

	if (ret)
		return ret;
	/* Every other key is an extra, kept so the file round-trips. */
	cJSON_ArrayForEach(v, obj) {
		if (rs_hygiene_is_field(v->string))
			continue;
		if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
			jr_push_key(r, v->string);
			return jr_fail(r, "a string, number, boolean or null");
		}
		if (cJSON_IsString(v))
			rs_hygiene_set_string(h, v->string, v->valuestring);
		else if (cJSON_IsNumber(v))
			rs_hygiene_set_number(h, v->string, v->valuedouble);
		else if (cJSON_IsBool(v))
			rs_hygiene_set_bool(h, v->string, cJSON_IsTrue(v));
		else
			rs_hygiene_set_string(h, v->string, NULL);
	}
	return 0;
}

static int
read_warning(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_warning *w = results_add_warning(dst, NULL, NULL, NULL);

	return read_fields(r, obj, w, warning_fields, NFIELDS(warning_fields));
}

static int
read_block(struct jr *r, const cJSON *obj, struct rs_block *b)
{
	return read_fields(r, obj, b, block_fields, NFIELDS(block_fields));
}

static int
read_method(struct jr *r, const cJSON *obj, struct rs_method *m)
{
	return read_fields(r, obj, m, method_fields, NFIELDS(method_fields));
}

static int
read_scene_block(struct jr *r, const cJSON *obj, void *dst)
{
	return read_block(r, obj, rs_scene_add_block(dst, NULL));
}

static int
read_scene_method(struct jr *r, const cJSON *obj, void *dst)
{
	return read_method(r, obj, rs_scene_add_method(dst, NULL, NULL));
}

static int
read_iteration_block(struct jr *r, const cJSON *obj, void *dst)
{
	return read_block(r, obj, rs_iteration_add_block(dst, NULL));
}

static int
read_iteration_method(struct jr *r, const cJSON *obj, void *dst)
{
	return read_method(r, obj, rs_iteration_add_method(dst, NULL, NULL));
}

/* A "<ms>" histogram key: a plain decimal number of milliseconds. */
static int
parse_bucket_ms(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	/* Digits only: no sign, no space, no "05" beside "5". */
	if (*s < '0' || *s > '9' || (*s == '0' && s[1]))
		return -1;
	v = strtoul(s, &end, 10);
	if (*end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* The entries of a "<key>": count object, checked; `add` stores each. */
static int
read_counts(struct jr *r, const cJSON *obj, struct rs_frames *f,
    bool histogram)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, obj) {
		size_t old = jr_push_key(r, v->string);
		uint32_t ms;

		if (!is_integer(v, 0, 18446744073709549568.0))
			return jr_fail(r, "a non-negative integer");
		if (histogram && parse_bucket_ms(v->string, &ms) < 0)
			return jr_fail(r, "a bucket key in whole milliseconds");
		if (cJSON_GetObjectItemCaseSensitive(obj, v->string) != v)
			return jr_fail(r, "each key once");
		if (histogram)
			rs_frames_add_bucket(f, ms, (uint64_t)v->valuedouble);
		else
			rs_frames_add_cause(f, v->string,
			    (uint64_t)v->valuedouble);
		jr_pop(r, old);
	}
	return 0;
}

static int
read_histogram(struct jr *r, const cJSON *obj, void *dst)
{
	return read_counts(r, obj, dst, true);
}

static int
read_causes(struct jr *r, const cJSON *obj, void *dst)
{
	return read_counts(r, obj, dst, false);
}

static int
read_row(struct jr *r, const cJSON *obj, void *dst)
{
	return read_fields(r, obj, rs_frames_add_row(dst), row_fields,
	    NFIELDS(row_fields));
}

static int
read_frames(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_frames *f = dst;
	int ret;

	f->present = true;
	ret = read_fields(r, obj, f, frames_fields, NFIELDS(frames_fields));
	if (!ret && read_object(r, obj, "histogram", read_histogram, f) < 0)
		ret = JG_EINVAL;
	if (!ret && read_object(r, obj, "causes", read_causes, f) < 0)
		ret = JG_EINVAL;
	if (!ret)
		ret = read_array(r, obj, "rows", read_row, f);
	return ret;
}

static int
read_phase_means(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_phase_means *m = dst;

	m->present = true;
	return read_fields(r, obj, m, phase_means_fields,
	    NFIELDS(phase_means_fields));
}

static int
read_slice(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_fps_slice *s = rs_fps_add_slice(dst, NULL);
	int ret = read_fields(r, obj, s, slice_fields, NFIELDS(slice_fields));

	if (!ret && read_object(r, obj, "drop_level", read_drops,
	    &s->drop_level) < 0)
		ret = JG_EINVAL;
	if (!ret && read_object(r, obj, "drop_sum", read_drops,
	    &s->drop_sum) < 0)
		ret = JG_EINVAL;
	if (!ret && read_object(r, obj, "phases_ms", read_phase_means,
	    &s->phases) < 0)
		ret = JG_EINVAL;
	return ret;
}

static int
read_phases(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_phases *p = dst;

	p->present = true;
	return read_fields(r, obj, p, phases_fields, NFIELDS(phases_fields));
}

static int
read_jank_types(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_jank_types *j = dst;

	j->present = true;
	return read_fields(r, obj, j, jank_types_fields,
	    NFIELDS(jank_types_fields));
}

static int
read_input(struct jr *r, const cJSON *obj, void *dst)
{
	return read_fields(r, obj, rs_scene_add_input(dst, NAN, NULL),
	    input_fields, NFIELDS(input_fields));
}

static int
read_fps(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_fps *fps = dst;
	int ret = read_fields(r, obj, fps, fps_fields, NFIELDS(fps_fields));

	return ret ? ret : read_array(r, obj, "slices", read_slice, fps);
}

static int
read_scene(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_scene *sc = rs_iteration_add_scene(dst, NULL);
	int ret = read_fields(r, obj, sc, scene_fields, NFIELDS(scene_fields));

	if (!ret && read_object(r, obj, "frames", read_frames,
	    &sc->frames) < 0)
		ret = JG_EINVAL;
	if (!ret && read_object(r, obj, "fps", read_fps, &sc->fps) < 0)
		ret = JG_EINVAL;
	if (!ret)
		ret = read_array(r, obj, "blocks", read_scene_block, sc);
	if (!ret)
		ret = read_array(r, obj, "methods", read_scene_method, sc);
	if (!ret && read_object(r, obj, "phases", read_phases,
	    &sc->phases) < 0)
		ret = JG_EINVAL;
	if (!ret && read_object(r, obj, "jank_types", read_jank_types,
	    &sc->jank_types) < 0)
		ret = JG_EINVAL;
	if (!ret)
		ret = read_array(r, obj, "inputs", read_input, sc);
	return ret;
}

static int
read_matrix(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_matrix_startup *m = dst;

	m->present = true;
	return read_fields(r, obj, m, matrix_fields, NFIELDS(matrix_fields));
}

static int
read_startup(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_startup *st = dst;
	int ret;

	st->present = true;
	ret = read_fields(r, obj, st, startup_fields, NFIELDS(startup_fields));
	if (!ret && read_object(r, obj, "matrix", read_matrix,
	    &st->matrix) < 0)
		ret = JG_EINVAL;
	return ret;
}

static int
read_iteration(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_iteration *it = rs_scenario_add_iteration(dst, false);
	int ret = read_fields(r, obj, it, iteration_fields,
	    NFIELDS(iteration_fields));

	if (!ret && read_object(r, obj, "startup", read_startup,
	    &it->startup) < 0)
		ret = JG_EINVAL;
	if (!ret)
		ret = read_array(r, obj, "scenes", read_scene, it);
	if (!ret)
		ret = read_array(r, obj, "blocks", read_iteration_block, it);
	if (!ret)
		ret = read_array(r, obj, "methods", read_iteration_method, it);
	return ret;
}

static int
read_scenario(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_scenario *s = results_add_scenario(dst, NULL);
	int ret = read_fields(r, obj, s, scenario_fields,
	    NFIELDS(scenario_fields));

	return ret ? ret : read_array(r, obj, "iterations", read_iteration, s);
}

/*
 * Accept "jankgate.results/1" and any minor version "jankgate.results/1.N";
 * refuse everything else by name, so an old jankgate meeting a new file
 * says so instead of misreading it.
 */
static int
check_schema(const char *name, const cJSON *root)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "schema");

	if (v && !cJSON_IsString(v))
		return jg_error_set(JG_EINVAL, "%s: schema: expected a string",
		    name);
	return schema_check(name, v ? v->valuestring : NULL, RS_SCHEMA,
	    "results");
}

/* "line:col" of `at` in `buf`, both counted from 1. */
static void
position_of(const char *buf, const char *at, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = buf; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static cJSON *
parse_text(const char *buf, size_t len, const char *name)
{
	const char *end = buf;
	size_t line, col;
	cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);

	if (root) {
		/* cJSON stops after the value; only whitespace may follow. */
		while (end < buf + len && *end && strchr(" \t\r\n", *end))
			end++;
		if (end == buf + len)
			return root;
		cJSON_Delete(root);
		position_of(buf, end, &line, &col);
		jg_error_set(JG_EINVAL, "%s:%zu:%zu: unexpected data after "
		    "the JSON value", name, line, col);
		return NULL;
	}
	if (!end || end < buf || end > buf + len)
		end = buf;
	position_of(buf, end, &line, &col);
	jg_error_set(JG_EINVAL, "%s:%zu:%zu: invalid JSON", name, line, col);
	return NULL;
}

int
results_parse(struct results **out, const char *buf, size_t len,
    const char *name)
{
	struct jr r = { name, STRBUF_INIT };
	struct results *res = NULL;
	cJSON *root;
	int ret;

	*out = NULL;
	root = parse_text(buf, len, name);
	if (!root)
		return JG_EINVAL;
	if (!cJSON_IsObject(root)) {
		ret = jg_error_set(JG_EINVAL, "%s: expected a JSON object",
		    name);
		goto out;
	}
	ret = check_schema(name, root);
	if (ret)
		goto out;
	res = results_new();
	if (read_object(&r, root, "run", read_run, &res->run) < 0 ||
	    read_object(&r, root, "app", read_app, &res->app) < 0 ||
	    read_object(&r, root, "device", read_device, &res->device) < 0 ||
	    read_object(&r, root, "hygiene", read_hygiene, &res->hygiene) < 0 ||
	    read_array(&r, root, "warnings", read_warning, res) < 0 ||
	    read_array(&r, root, "scenarios", read_scenario, res) < 0) {
		ret = JG_EINVAL;
		goto out;
	}
	*out = res;
	res = NULL;
out:
	results_free(res);
	cJSON_Delete(root);
	strbuf_release(&r.path);
	return ret;
}

int
results_read(struct results **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = file_read(&sb, path);

	if (!ret)
		ret = results_parse(out, sb.buf, sb.len, path);
	else
		*out = NULL;
	strbuf_release(&sb);
	return ret;
}
