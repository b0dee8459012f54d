/*
 * results_fields.c: the scalar fields of each record of results.json, in
 * file order (results_json_int.h).  One table drives both the reader and
 * the writer, so they cannot disagree on a key.
 */
#include <stdbool.h>
#include <stddef.h>

#include "results.h"
#include "results_json_int.h"
#include "banned.h"

static const struct field run_f[] = {
	F(struct rs_run, id, FK_STR),
	F(struct rs_run, started, FK_STR),
	F(struct rs_run, finished, FK_STR),
	F(struct rs_run, jankgate_version, FK_STR),
	F(struct rs_run, host, FK_STR),
	F(struct rs_run, complete, FK_BOOL),
	F(struct rs_run, errors, FK_TEXTS),
	F(struct rs_run, planned, FK_LIST),
};

static const struct field app_f[] = {
	F(struct rs_app, package, FK_STR),
	F(struct rs_app, version_name, FK_STR),
	F(struct rs_app, version_code, FK_NUM),
	F(struct rs_app, apk_sha256, FK_STR),
	F(struct rs_app, build_id, FK_STR),
	F(struct rs_app, sources, FK_LIST),
};

static const struct field device_f[] = {
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
static const struct field hygiene_f[] = {
	F(struct rs_hygiene, battery_pct, FK_NUM),
	F(struct rs_hygiene, thermal_status, FK_NUM),
	F(struct rs_hygiene, animator_scale, FK_NUM),
	F(struct rs_hygiene, transition_scale, FK_NUM),
	F(struct rs_hygiene, window_scale, FK_NUM),
	F(struct rs_hygiene, screen_on, FK_TRI),
	F(struct rs_hygiene, unlocked, FK_TRI),
};

static const struct field warning_f[] = {
	F(struct rs_warning, source, FK_STR),
	F(struct rs_warning, scope, FK_STR),
	F(struct rs_warning, message, FK_TEXT),
	F(struct rs_warning, note, FK_BOOL),
};

static const struct field scenario_f[] = {
	REQ(struct rs_scenario, name, FK_STR),
	F(struct rs_scenario, file, FK_STR),
	F(struct rs_scenario, sha256, FK_STR),
};

static const struct field iteration_f[] = {
	F(struct rs_iteration, index, FK_INT),
	F(struct rs_iteration, session, FK_INT),
	F(struct rs_iteration, warmup, FK_BOOL),
	F(struct rs_iteration, ok, FK_BOOL),
	F(struct rs_iteration, error, FK_TEXT),
	F(struct rs_iteration, logcat_excerpt, FK_TEXT),
	F(struct rs_iteration, test_stack, FK_TEXT),
	F(struct rs_iteration, started_mono_ms, FK_MONO),
	F(struct rs_iteration, duration_ms, FK_LONG_MS),
};

static const struct field startup_f[] = {
	F(struct rs_startup, kind, FK_LAUNCH),
	F(struct rs_startup, total_ms, FK_MS),
	F(struct rs_startup, wait_ms, FK_MS),
	F(struct rs_startup, displayed_ms, FK_MS),
	F(struct rs_startup, fully_drawn_ms, FK_MS),
	F(struct rs_startup, launch_state, FK_STR),
};

static const struct field matrix_f[] = {
	F(struct rs_matrix_startup, application_create_ms, FK_MS),
	F(struct rs_matrix_startup, first_activity_create_ms, FK_MS),
	F(struct rs_matrix_startup, startup_duration_ms, FK_MS),
	F(struct rs_matrix_startup, warm, FK_TRI),
};

static const struct field scene_f[] = {
	REQ(struct rs_scene, name, FK_STR),
	F(struct rs_scene, start_mono_ms, FK_MONO),
	F(struct rs_scene, end_mono_ms, FK_MONO),
	F(struct rs_scene, app_scenes, FK_LIST),
};

static const struct field frames_f[] = {
	F(struct rs_frames, source, FK_STR),
	F(struct rs_frames, count, FK_COUNT),
	F(struct rs_frames, janky, FK_COUNT),
	F(struct rs_frames, slow, FK_COUNT),
	F(struct rs_frames, frozen, FK_COUNT),
	F(struct rs_frames, dropped, FK_COUNT),
	F(struct rs_frames, p50_ms, FK_MS),
	F(struct rs_frames, p90_ms, FK_MS),
	F(struct rs_frames, p95_ms, FK_MS),
	F(struct rs_frames, p99_ms, FK_MS),
};

static const struct field row_f[] = {
	F(struct rs_frame_row, intended_vsync_ns, FK_I64),
	F(struct rs_frame_row, frame_completed_ns, FK_I64),
	F(struct rs_frame_row, duration_ms, FK_MS),
	F(struct rs_frame_row, flags, FK_I64),
	F(struct rs_frame_row, janky, FK_TRI),
};

/* The phases of a scene and of a Matrix slice (results_explain.c). */
#define PHASE_PCT(name, idx) \
	{ name "_p50_ms", FK_MS, offsetof(struct rs_phases, p50_ms[idx]), \
	  false }, \
	{ name "_p90_ms", FK_MS, offsetof(struct rs_phases, p90_ms[idx]), \
	  false }
static const struct field phases_f[] = {
	F(struct rs_phases, frames, FK_COUNT),
	F(struct rs_phases, skipped, FK_COUNT),
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
	{ name, FK_MS, offsetof(struct rs_phase_means, ms[idx]), false }
static const struct field phase_means_f[] = {
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
	{ name, FK_COUNT, offsetof(struct rs_jank_types, count[idx]), \
	  false }
static const struct field jank_types_f[] = {
	F(struct rs_jank_types, frames, FK_COUNT),
	F(struct rs_jank_types, janky, FK_COUNT),
	JANK_TYPE("app_deadline_missed", RS_JANK_APP_DEADLINE),
	JANK_TYPE("buffer_stuffing", RS_JANK_BUFFER_STUFFING),
	JANK_TYPE("sf_cpu_deadline_missed", RS_JANK_SF_CPU),
	JANK_TYPE("sf_gpu_deadline_missed", RS_JANK_SF_GPU),
	JANK_TYPE("display_hal", RS_JANK_DISPLAY_HAL),
	JANK_TYPE("prediction_error", RS_JANK_PREDICTION),
	JANK_TYPE("sf_scheduling", RS_JANK_SF_SCHEDULING),
	JANK_TYPE("unknown", RS_JANK_UNKNOWN),
};

static const struct field input_f[] = {
	F(struct rs_input, at_mono_ms, FK_MONO),
	F(struct rs_input, step, FK_STR),
};

static const struct field fps_f[] = {
	F(struct rs_fps, value, FK_FPS),
};

static const struct field slice_f[] = {
	F(struct rs_fps_slice, source, FK_STR),
	F(struct rs_fps_slice, app_scene, FK_STR),
	F(struct rs_fps_slice, fps, FK_FPS),
};

static const struct field drops_f[] = {
	F(struct rs_drops, best, FK_COUNT),
	F(struct rs_drops, normal, FK_COUNT),
	F(struct rs_drops, middle, FK_COUNT),
	F(struct rs_drops, high, FK_COUNT),
	F(struct rs_drops, frozen, FK_COUNT),
};

static const struct field block_f[] = {
	F(struct rs_block, source, FK_STR),
	F(struct rs_block, kind, FK_STR),
	F(struct rs_block, start_mono_ms, FK_MONO),
	F(struct rs_block, wall_ms, FK_MS),
	F(struct rs_block, thread_ms, FK_MS),
	F(struct rs_block, cpu_busy, FK_TRI),
	F(struct rs_block, stack, FK_LIST),
	F(struct rs_block, signature, FK_STR),
	F(struct rs_block, truncated, FK_BOOL),
};

static const struct field method_f[] = {
	F(struct rs_method, source, FK_STR),
	F(struct rs_method, name, FK_STR),
	F(struct rs_method, cost_ms, FK_MS),
	F(struct rs_method, main_thread, FK_TRI),
};

const struct field_table run_fields = { run_f, NFIELDS(run_f) };
const struct field_table app_fields = { app_f, NFIELDS(app_f) };
const struct field_table device_fields = { device_f, NFIELDS(device_f) };
const struct field_table hygiene_fields = { hygiene_f, NFIELDS(hygiene_f) };
const struct field_table warning_fields = { warning_f, NFIELDS(warning_f) };
const struct field_table scenario_fields = { scenario_f, NFIELDS(scenario_f) };
const struct field_table iteration_fields = {
	iteration_f, NFIELDS(iteration_f)
};
const struct field_table startup_fields = { startup_f, NFIELDS(startup_f) };
const struct field_table matrix_fields = { matrix_f, NFIELDS(matrix_f) };
const struct field_table scene_fields = { scene_f, NFIELDS(scene_f) };
const struct field_table frames_fields = { frames_f, NFIELDS(frames_f) };
const struct field_table row_fields = { row_f, NFIELDS(row_f) };
const struct field_table fps_fields = { fps_f, NFIELDS(fps_f) };
const struct field_table slice_fields = { slice_f, NFIELDS(slice_f) };
const struct field_table drops_fields = { drops_f, NFIELDS(drops_f) };
const struct field_table block_fields = { block_f, NFIELDS(block_f) };
const struct field_table method_fields = { method_f, NFIELDS(method_f) };
const struct field_table phases_fields = { phases_f, NFIELDS(phases_f) };
const struct field_table phase_means_fields = {
	phase_means_f, NFIELDS(phase_means_f)
};
const struct field_table jank_types_fields = {
	jank_types_f, NFIELDS(jank_types_f)
};
const struct field_table input_fields = { input_f, NFIELDS(input_f) };
