/*
 * test_results.c: the results model and its JSON file (results.h).
 *
 * The fixture tests/unit/data/results/full.json is the canonical file the
 * end-to-end tests also use; it was produced by Python's json.dumps with
 * indent=2, so reading it and writing it back byte for byte also checks
 * that the writer keeps its promised layout.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "fileio.h"
#include "results.h"
#include "strbuf.h"
#include "xalloc.h"

static char *
fixture(const char *name)
{
	return xasprintf("%s/tests/unit/data/results/%s", unit_srcdir(), name);
}

static struct results *
parse_ok(const char *json)
{
	struct results *r = NULL;
	int ret = results_parse(&r, json, strlen(json), "t.json");

	if (ret)
		fail_msg("parse failed: %s", jg_error_msg());
	return r;
}

/* results_parse() fails with exactly `msg`. */
static void
assert_parse_error(const char *json, const char *msg)
{
	struct results *r = (struct results *)1;

	assert_int_equal(results_parse(&r, json, strlen(json), "t.json"),
	    JG_EINVAL);
	assert_null(r);
	assert_string_equal(jg_error_msg(), msg);
}

/* ---- deep equality, field by field ---------------------------------- */

static void
num_eq(double a, double b)
{
	if (isnan(a) || isnan(b))
		assert_true(isnan(a) && isnan(b));
	else
		assert_true(a == b);
}

static void
str_eq(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void
list_eq(const struct strlist *a, const struct strlist *b)
{
	assert_int_equal(a->nr, b->nr);
	for (size_t i = 0; i < a->nr; i++)
		assert_string_equal(a->items[i], b->items[i]);
}

static void
drops_eq(const struct rs_drops *a, const struct rs_drops *b)
{
	num_eq(a->best, b->best);
	num_eq(a->normal, b->normal);
	num_eq(a->middle, b->middle);
	num_eq(a->high, b->high);
	num_eq(a->frozen, b->frozen);
}

static void
blocks_eq(const struct rs_block *a, const struct rs_block *b, size_t nr)
{
	for (size_t i = 0; i < nr; i++, a++, b++) {
		str_eq(a->source, b->source);
		str_eq(a->kind, b->kind);
		num_eq(a->start_mono_ms, b->start_mono_ms);
		num_eq(a->wall_ms, b->wall_ms);
		num_eq(a->thread_ms, b->thread_ms);
		assert_int_equal(a->cpu_busy, b->cpu_busy);
		list_eq(&a->stack, &b->stack);
		str_eq(a->signature, b->signature);
		assert_int_equal(a->truncated, b->truncated);
	}
}

static void
methods_eq(const struct rs_method *a, const struct rs_method *b, size_t nr)
{
	for (size_t i = 0; i < nr; i++, a++, b++) {
		str_eq(a->source, b->source);
		str_eq(a->name, b->name);
		num_eq(a->cost_ms, b->cost_ms);
		assert_int_equal(a->main_thread, b->main_thread);
	}
}

static void
frames_eq(const struct rs_frames *a, const struct rs_frames *b)
{
	assert_int_equal(a->present, b->present);
	if (!a->present)
		return;
	if (a->source || b->source)
		assert_string_equal(a->source, b->source);
	num_eq(a->count, b->count);
	num_eq(a->janky, b->janky);
	num_eq(a->slow, b->slow);
	num_eq(a->frozen, b->frozen);
	num_eq(a->dropped, b->dropped);
	num_eq(a->p50_ms, b->p50_ms);
	num_eq(a->p90_ms, b->p90_ms);
	num_eq(a->p95_ms, b->p95_ms);
	num_eq(a->p99_ms, b->p99_ms);
	assert_int_equal(a->nr_histogram, b->nr_histogram);
	for (size_t i = 0; i < a->nr_histogram; i++) {
		assert_int_equal(a->histogram[i].ms, b->histogram[i].ms);
		assert_int_equal(a->histogram[i].count, b->histogram[i].count);
	}
	assert_int_equal(a->nr_causes, b->nr_causes);
	for (size_t i = 0; i < a->nr_causes; i++) {
		assert_string_equal(a->causes[i].name, b->causes[i].name);
		assert_int_equal(a->causes[i].count, b->causes[i].count);
	}
	assert_int_equal(a->nr_rows, b->nr_rows);
	for (size_t i = 0; i < a->nr_rows; i++) {
		const struct rs_frame_row *x = &a->rows[i], *y = &b->rows[i];

		assert_true(x->intended_vsync_ns == y->intended_vsync_ns);
		assert_true(x->frame_completed_ns == y->frame_completed_ns);
		num_eq(x->duration_ms, y->duration_ms);
		assert_true(x->flags == y->flags);
		assert_int_equal(x->janky, y->janky);
	}
}

/* The parts issue 20 added: phases, jank types, input steps. */
static void
explain_eq(const struct rs_scene *a, const struct rs_scene *b)
{
	assert_int_equal(a->phases.present, b->phases.present);
	num_eq(a->phases.frames, b->phases.frames);
	num_eq(a->phases.skipped, b->phases.skipped);
	assert_int_equal(a->phases.newest, b->phases.newest);
	for (int i = 0; i < RS_NR_PHASES; i++) {
		num_eq(a->phases.p50_ms[i], b->phases.p50_ms[i]);
		num_eq(a->phases.p90_ms[i], b->phases.p90_ms[i]);
	}
	assert_int_equal(a->jank_types.present, b->jank_types.present);
	num_eq(a->jank_types.frames, b->jank_types.frames);
	num_eq(a->jank_types.janky, b->jank_types.janky);
	for (int i = 0; i < RS_NR_JANK_TYPES; i++)
		num_eq(a->jank_types.count[i], b->jank_types.count[i]);
	assert_int_equal(a->nr_inputs, b->nr_inputs);
	for (size_t i = 0; i < a->nr_inputs; i++) {
		num_eq(a->inputs[i].at_mono_ms, b->inputs[i].at_mono_ms);
		str_eq(a->inputs[i].step, b->inputs[i].step);
	}
}

static void
scene_eq(const struct rs_scene *a, const struct rs_scene *b)
{
	str_eq(a->name, b->name);
	num_eq(a->start_mono_ms, b->start_mono_ms);
	num_eq(a->end_mono_ms, b->end_mono_ms);
	list_eq(&a->app_scenes, &b->app_scenes);
	frames_eq(&a->frames, &b->frames);
	num_eq(a->fps.value, b->fps.value);
	assert_int_equal(a->fps.nr_slices, b->fps.nr_slices);
	for (size_t i = 0; i < a->fps.nr_slices; i++) {
		const struct rs_fps_slice *x = &a->fps.slices[i];
		const struct rs_fps_slice *y = &b->fps.slices[i];

		str_eq(x->source, y->source);
		str_eq(x->app_scene, y->app_scene);
		num_eq(x->fps, y->fps);
		drops_eq(&x->drop_level, &y->drop_level);
		drops_eq(&x->drop_sum, &y->drop_sum);
		assert_int_equal(x->phases.present, y->phases.present);
		for (int k = 0; k < RS_NR_PHASES; k++)
			num_eq(x->phases.ms[k], y->phases.ms[k]);
	}
	explain_eq(a, b);
	assert_int_equal(a->nr_blocks, b->nr_blocks);
	blocks_eq(a->blocks, b->blocks, a->nr_blocks);
	assert_int_equal(a->nr_methods, b->nr_methods);
	methods_eq(a->methods, b->methods, a->nr_methods);
}

static void
startup_eq(const struct rs_startup *a, const struct rs_startup *b)
{
	assert_int_equal(a->present, b->present);
	if (!a->present)
		return;
	assert_int_equal(a->kind, b->kind);
	num_eq(a->total_ms, b->total_ms);
	num_eq(a->wait_ms, b->wait_ms);
	num_eq(a->displayed_ms, b->displayed_ms);
	num_eq(a->fully_drawn_ms, b->fully_drawn_ms);
	str_eq(a->launch_state, b->launch_state);
	assert_int_equal(a->matrix.present, b->matrix.present);
	if (!a->matrix.present)
		return;
	num_eq(a->matrix.application_create_ms,
	    b->matrix.application_create_ms);
	num_eq(a->matrix.first_activity_create_ms,
	    b->matrix.first_activity_create_ms);
	num_eq(a->matrix.startup_duration_ms, b->matrix.startup_duration_ms);
	assert_int_equal(a->matrix.warm, b->matrix.warm);
}

static void
iteration_eq(const struct rs_iteration *a, const struct rs_iteration *b)
{
	assert_int_equal(a->index, b->index);
	assert_int_equal(a->warmup, b->warmup);
	assert_int_equal(a->ok, b->ok);
	str_eq(a->error, b->error);
	str_eq(a->logcat_excerpt, b->logcat_excerpt);
	num_eq(a->started_mono_ms, b->started_mono_ms);
	num_eq(a->duration_ms, b->duration_ms);
	startup_eq(&a->startup, &b->startup);
	assert_int_equal(a->nr_scenes, b->nr_scenes);
	for (size_t i = 0; i < a->nr_scenes; i++)
		scene_eq(&a->scenes[i], &b->scenes[i]);
	assert_int_equal(a->nr_blocks, b->nr_blocks);
	blocks_eq(a->blocks, b->blocks, a->nr_blocks);
	assert_int_equal(a->nr_methods, b->nr_methods);
	methods_eq(a->methods, b->methods, a->nr_methods);
}

static void
results_eq(const struct results *a, const struct results *b)
{
	str_eq(a->run.id, b->run.id);
	str_eq(a->run.started, b->run.started);
	str_eq(a->run.finished, b->run.finished);
	str_eq(a->run.jankgate_version, b->run.jankgate_version);
	str_eq(a->run.host, b->run.host);
	assert_int_equal(a->run.complete, b->run.complete);
	list_eq(&a->run.errors, &b->run.errors);
	list_eq(&a->run.planned, &b->run.planned);
	str_eq(a->app.package, b->app.package);
	str_eq(a->app.version_name, b->app.version_name);
	num_eq(a->app.version_code, b->app.version_code);
	str_eq(a->app.apk_sha256, b->app.apk_sha256);
	list_eq(&a->app.sources, &b->app.sources);
	str_eq(a->device.serial, b->device.serial);
	str_eq(a->device.manufacturer, b->device.manufacturer);
	str_eq(a->device.model, b->device.model);
	num_eq(a->device.sdk, b->device.sdk);
	str_eq(a->device.release, b->device.release);
	str_eq(a->device.fingerprint, b->device.fingerprint);
	str_eq(a->device.abi, b->device.abi);
	num_eq(a->device.refresh_hz, b->device.refresh_hz);
	num_eq(a->device.width, b->device.width);
	num_eq(a->device.height, b->device.height);
	str_eq(a->device.key, b->device.key);
	num_eq(a->hygiene.battery_pct, b->hygiene.battery_pct);
	num_eq(a->hygiene.thermal_status, b->hygiene.thermal_status);
	num_eq(a->hygiene.animator_scale, b->hygiene.animator_scale);
	num_eq(a->hygiene.transition_scale, b->hygiene.transition_scale);
	num_eq(a->hygiene.window_scale, b->hygiene.window_scale);
	assert_int_equal(a->hygiene.screen_on, b->hygiene.screen_on);
	assert_int_equal(a->hygiene.unlocked, b->hygiene.unlocked);
	assert_int_equal(a->hygiene.nr_extras, b->hygiene.nr_extras);
	for (size_t i = 0; i < a->hygiene.nr_extras; i++) {
		const struct rs_extra *x = &a->hygiene.extras[i];
		const struct rs_extra *y = &b->hygiene.extras[i];

		assert_string_equal(x->key, y->key);
		assert_int_equal(x->type, y->type);
		num_eq(x->number, y->number);
		str_eq(x->string, y->string);
	}
	assert_int_equal(a->nr_warnings, b->nr_warnings);
	for (size_t i = 0; i < a->nr_warnings; i++) {
		str_eq(a->warnings[i].source, b->warnings[i].source);
		str_eq(a->warnings[i].scope, b->warnings[i].scope);
		str_eq(a->warnings[i].message, b->warnings[i].message);
		assert_int_equal(a->warnings[i].note, b->warnings[i].note);
	}
	assert_int_equal(a->nr_scenarios, b->nr_scenarios);
	for (size_t i = 0; i < a->nr_scenarios; i++) {
		const struct rs_scenario *x = &a->scenarios[i];
		const struct rs_scenario *y = &b->scenarios[i];

		str_eq(x->name, y->name);
		str_eq(x->file, y->file);
		str_eq(x->sha256, y->sha256);
		assert_int_equal(x->nr_iterations, y->nr_iterations);
		for (size_t j = 0; j < x->nr_iterations; j++)
			iteration_eq(&x->iterations[j], &y->iterations[j]);
	}
}

/* ---- a rich model built in C ---------------------------------------- */

static const char hostile[] =
	"<script>alert(\"x\")</script> & 'quotes' \\back\\slash\n"
	"tab\there \x01\x1f\x7f cr\r bs\b ff\f \xc3\xa9 \xe2\x82\xac "
	"\xf0\x9f\x98\x80 {\"json\": [1,2]} \xe2\x80\xa8";

static struct results *
rich_model(void)
{
	struct results *r = results_new();
	struct rs_scenario *s;
	struct rs_iteration *it;
	struct rs_scene *sc;
	struct rs_fps_slice *sl;
	struct rs_block *b;
	struct rs_frame_row *row;

	rs_str_set(&r->run.id, "run-1");
	rs_str_set(&r->run.started, "2024-05-01T02:00:00Z");
	rs_str_set(&r->run.host, hostile);
	r->run.complete = true;
	strlist_add(&r->run.errors, "device 'x': adb: closed");
	strlist_add(&r->run.planned, "feed");
	rs_str_set(&r->app.package, "com.example");
	r->app.version_code = 4503599627370497.0;	/* 2^52 + 1 */
	strlist_add(&r->app.sources, "gfxinfo");
	r->device.sdk = 24;
	r->device.refresh_hz = 59.94;
	rs_str_set(&r->device.key, "acme-phone-api24-60hz");
	r->hygiene.battery_pct = 100;
	r->hygiene.screen_on = 1;
	r->hygiene.unlocked = 0;
	assert_int_equal(rs_hygiene_set_string(&r->hygiene, "note", hostile),
	    0);
	assert_int_equal(rs_hygiene_set_number(&r->hygiene, "temp_c", 31.5),
	    0);
	assert_int_equal(rs_hygiene_set_bool(&r->hygiene, "charging", false),
	    0);
	assert_int_equal(rs_hygiene_set_string(&r->hygiene, "nothing", NULL),
	    0);
	results_add_warning(r, "matrix", NULL, hostile);
	results_add_note(r, "gfxinfo", NULL, "jank types: not available on API "
	    "30 (SurfaceFlinger's FrameTimeline needs API 31)");

	s = results_add_scenario(r, "feed \"main\"");
	rs_str_set(&s->sha256, "00ff");
	it = rs_scenario_add_iteration(s, true);
	it->ok = false;
	rs_str_set(&it->error, "expect activity failed");
	rs_str_set(&it->logcat_excerpt, hostile);
	it = rs_scenario_add_iteration(s, false);
	it->ok = true;
	it->started_mono_ms = 123456789.25;
	it->duration_ms = 0.1;
	it->startup.present = true;
	it->startup.kind = RS_LAUNCH_HOT;
	it->startup.total_ms = 250;
	rs_str_set(&it->startup.launch_state, "HOT");
	it->startup.matrix.present = true;
	it->startup.matrix.warm = 1;
	it->startup.matrix.startup_duration_ms = 1e-7;

	sc = rs_iteration_add_scene(it, "scroll");
	sc->start_mono_ms = 1000;
	sc->end_mono_ms = 5000;
	strlist_add(&sc->app_scenes, "com.example.Main");
	assert_int_equal(rs_frames_claim(&sc->frames, "gfxinfo"), 0);
	sc->frames.count = 300;
	sc->frames.janky = 12;
	sc->frames.p50_ms = 5;
	rs_frames_add_bucket(&sc->frames, 5, 280);
	rs_frames_add_bucket(&sc->frames, 4950, 1);
	rs_frames_add_bucket(&sc->frames, 17, 19);
	rs_frames_add_cause(&sc->frames, "missed_vsync", 3);
	rs_frames_add_cause(&sc->frames, "slow_ui_thread", 0);
	row = rs_frames_add_row(&sc->frames);
	row->intended_vsync_ns = 9007199254740992LL;	/* 2^53 */
	row->frame_completed_ns = -1;
	row->duration_ms = 9.014377000000001;
	row->flags = 8;
	row->janky = 1;
	sc->phases.present = true;
	sc->phases.frames = 118;
	sc->phases.skipped = 2;
	sc->phases.newest = 1;
	sc->phases.p50_ms[RS_PHASE_LAYOUT] = 1.25;
	sc->phases.p90_ms[RS_PHASE_GPU] = 0.001;
	sc->jank_types.present = true;
	sc->jank_types.janky = 4;
	sc->jank_types.count[RS_JANK_BUFFER_STUFFING] = 3;
	rs_scene_add_input(sc, 1200.5, hostile);
	rs_scene_add_input(sc, NAN, NULL);
	sl = rs_fps_add_slice(&sc->fps, "matrix");
	rs_str_set(&sl->app_scene, "?");
	sl->fps = 57.41302490234375;
	sl->phases.present = true;
	sl->phases.ms[RS_PHASE_DRAW] = 2.101002;
	sl->drop_level.best = 571;
	sl->drop_sum.high = 30;
	b = rs_scene_add_block(sc, "blockcanary");
	rs_str_set(&b->kind, hostile);
	b->wall_ms = 1203;
	b->cpu_busy = 0;
	strlist_add(&b->stack, hostile);
	strlist_add(&b->stack, "android.os.Looper.loop(Looper.java:223)");
	b->truncated = true;
	rs_scene_add_method(sc, "traceman", "A.b")->main_thread = 1;

	sc = rs_iteration_add_scene(it, "empty");
	rs_iteration_add_block(it, "matrix")->start_mono_ms = -5;
	rs_iteration_add_method(it, "traceman", "C.d")->cost_ms = 3599999.5;
	results_add_scenario(r, "second");
	return r;
}

/* The canonical fixture reads into the values it holds, field by field. */
static void
fixture_reads_every_section(void **state)
{
	char *path = fixture("full.json");
	struct results *r = NULL;
	const struct rs_scenario *s;
	const struct rs_iteration *it;
	const struct rs_scene *sc;
	const struct rs_extra *e;

	assert_int_equal(results_read(&r, path), 0);
	assert_string_equal(r->run.id, "20240501T020000Z-pixel7");
	assert_true(r->run.complete);
	assert_int_equal(r->run.errors.nr, 0);
	assert_string_equal(r->app.version_name, "2.7.0 \"beta\"");
	assert_true(r->app.version_code == 20700);
	assert_null(r->app.build_id);	/* the end-to-end cases' too */
	assert_int_equal(r->app.sources.nr, 5);
	assert_string_equal(r->device.key, "google-pixel-7-api34-90hz");
	assert_true(r->device.refresh_hz == 90);
	assert_int_equal(r->hygiene.screen_on, 1);
	assert_true(r->hygiene.animator_scale == 0);
	assert_int_equal(r->hygiene.nr_extras, 4);
	e = rs_hygiene_find(&r->hygiene, "governor");
	assert_non_null(e);
	assert_int_equal(e->type, RS_VALUE_STRING);
	assert_string_equal(e->string, "schedutil");
	assert_int_equal(rs_hygiene_find(&r->hygiene, "dnd")->type,
	    RS_VALUE_NULL);
	assert_int_equal(rs_hygiene_find(&r->hygiene, "stay_awake")->type,
	    RS_VALUE_BOOL);
	assert_int_equal(r->nr_warnings, 1);
	assert_string_equal(r->warnings[0].scope, "scroll_feed/detail_open");

	assert_int_equal(r->nr_scenarios, 2);
	s = results_find_scenario(r, "scroll_feed");
	assert_non_null(s);
	assert_int_equal(s->nr_iterations, 4);
	assert_true(s->iterations[0].warmup);
	assert_false(s->iterations[1].warmup);
	/* issue 20's parts, on the first scene only. */
	sc = &s->iterations[0].scenes[0];
	assert_true(sc->phases.present);
	assert_int_equal(sc->phases.newest, 0);
	assert_true(sc->phases.p90_ms[RS_PHASE_LAYOUT] == 2.25);
	assert_true(sc->jank_types.count[RS_JANK_APP_DEADLINE] == 2);
	assert_int_equal(sc->frames.rows[1].janky, 1);
	assert_int_equal(sc->nr_inputs, 1);
	assert_string_equal(sc->inputs[0].step, "swipe 50% 80% 50% 20% 200");
	assert_true(sc->fps.slices[0].phases.ms[RS_PHASE_GPU] == 2.25);
	assert_false(s->iterations[1].scenes[0].phases.present);
	assert_int_equal(s->iterations[1].scenes[0].frames.rows[0].janky,
	    RS_UNKNOWN);
	it = &s->iterations[2];
	assert_int_equal(it->index, 2);
	assert_true(it->ok);
	assert_null(it->error);
	assert_int_equal(it->startup.kind, RS_LAUNCH_COLD);
	assert_true(it->startup.total_ms == 826);
	assert_true(isnan(it->startup.fully_drawn_ms));
	assert_true(it->startup.matrix.present);
	assert_int_equal(it->startup.matrix.warm, 0);
	assert_true(it->startup.matrix.application_create_ms == 417);
	assert_int_equal(it->nr_scenes, 2);
	sc = rs_iteration_find_scene(it, "feed_scroll");
	assert_non_null(sc);
	assert_true(sc->frames.present);
	assert_string_equal(sc->frames.source, "gfxinfo");
	assert_true(sc->frames.count == 93);
	assert_int_equal(sc->frames.nr_histogram, 11);
	assert_int_equal(sc->frames.histogram[10].ms, 750);
	assert_int_equal(sc->frames.histogram[10].count, 1);
	assert_int_equal(rs_frames_cause(&sc->frames, "high_input_latency"),
	    27);
	assert_int_equal(sc->frames.nr_rows, 2);
	assert_true(sc->frames.rows[1].intended_vsync_ns == 993120386975LL);
	assert_int_equal(sc->fps.nr_slices, 1);
	assert_true(sc->fps.slices[0].fps == 55.41302490234375);
	assert_true(isnan(sc->fps.value));
	assert_int_equal(sc->nr_blocks, 1);
	assert_int_equal(sc->blocks[0].cpu_busy, 0);
	assert_true(sc->blocks[0].thread_ms == 1198);
	assert_null(sc->blocks[0].kind);
	assert_int_equal(sc->blocks[0].stack.nr, 6);
	assert_int_equal(sc->methods[0].main_thread, 1);
	sc = rs_iteration_find_scene(it, "detail_open");
	assert_true(isnan(sc->blocks[0].thread_ms));
	assert_int_equal(sc->blocks[0].cpu_busy, RS_UNKNOWN);
	assert_true(sc->blocks[0].truncated);
	assert_true(sc->fps.value == 58);
	assert_int_equal(s->iterations[0].nr_blocks, 1);
	assert_int_equal(s->iterations[0].nr_methods, 1);

	it = &results_find_scenario(r, "settings")->iterations[3];
	assert_int_equal(it->startup.kind, RS_LAUNCH_WARM);
	assert_false(it->startup.matrix.present);
	results_free(r);
	free(path);
}

/*
 * A scene's frames belong to the source that fills them: the same source
 * may add to them, a second frame source is told no, and frames read from
 * a file that does not name their source are nobody's to claim.
 */
static void
frames_are_claimed_by_one_source(void **state)
{
	struct rs_frames f;

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_int_equal(rs_frames_claim(&f, "gfxinfo"), 0);
	assert_string_equal(f.source, "gfxinfo");
	rs_frames_add_bucket(&f, 16, 3);
	assert_int_equal(rs_frames_claim(&f, "gfxinfo"), 0);
	assert_int_equal(rs_frames_claim(&f, "framemetrics"), -1);
	assert_string_equal(f.source, "gfxinfo");
	free(f.source);
	free(f.histogram);
	memset(&f, 0, sizeof(f));
	rs_frames_add_bucket(&f, 16, 3);
	assert_int_equal(rs_frames_claim(&f, "gfxinfo"), -1);
	assert_null(f.source);
	free(f.histogram);
}

/* Writing the parsed fixture gives back the same bytes. */
static void
fixture_writes_back_byte_identical(void **state)
{
	char *path = fixture("full.json");
	struct strbuf want = STRBUF_INIT;
	struct results *r = NULL;
	char *got;

	assert_int_equal(file_read(&want, path), 0);
	assert_int_equal(results_parse(&r, want.buf, want.len, path), 0);
	got = results_to_json(r);
	assert_string_equal(got, want.buf);
	free(got);
	results_free(r);
	strbuf_release(&want);
	free(path);
}

/* parse(write(x)) holds every field of x, including NANs and unknowns. */
static void
rich_model_round_trips(void **state)
{
	struct results *r = rich_model(), *back = NULL;
	char *json = results_to_json(r), *again;

	assert_int_equal(results_parse(&back, json, strlen(json), "mem"), 0);
	results_eq(r, back);
	again = results_to_json(back);
	assert_string_equal(json, again);
	free(again);
	free(json);
	results_free(back);
	results_free(r);
}

/* An empty model writes and reads back as an empty model. */
static void
empty_model_round_trips(void **state)
{
	struct results *r = results_new(), *back;
	char *json = results_to_json(r);

	back = parse_ok(json);
	results_eq(r, back);
	assert_non_null(strstr(json, "\"schema\": \"jankgate.results/1\""));
	assert_non_null(strstr(json, "\"scenarios\": []\n}\n"));
	free(json);
	results_free(back);
	results_free(r);
	results_free(NULL);	/* a no-op, like free(NULL) */
}

/*
 * A build id reads and writes back; a file from before build ids reads
 * as an unknown build, written back as null; a build id is one line of
 * at most RS_MAX_BUILD_ID bytes.
 */
static void
build_id_is_optional_and_one_line(void **state)
{
	static const char *const bad[] = {
		"", " a1b2", "a1b2 ", "a1\nb2", "tab\there",
	};
	struct results *r = parse_ok("{\"schema\": \"jankgate.results/1\", "
	    "\"app\": {\"package\": \"p\"}}");
	char *json, *tall = xcalloc(RS_MAX_BUILD_ID + 2, 1);
	struct results *known = parse_ok("{\"schema\": \"jankgate.results/1\", "
	    "\"app\": {\"package\": \"p\", \"build_id\": \"build-11\"}}");

	assert_string_equal(known->app.build_id, "build-11");
	json = results_to_json(known);
	assert_non_null(strstr(json, "\"build_id\": \"build-11\""));
	free(json);
	results_free(known);
	assert_null(r->app.build_id);
	json = results_to_json(r);
	assert_non_null(strstr(json, "\"build_id\": null"));
	free(json);
	results_free(r);
	assert_int_equal(results_build_id_check("build-11"), 0);
	assert_int_equal(results_build_id_check("9f2c1e7 (release 2.1)"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(results_build_id_check(bad[i]), JG_EINVAL);
	memset(tall, 'a', RS_MAX_BUILD_ID);
	assert_int_equal(results_build_id_check(tall), 0);
	tall[RS_MAX_BUILD_ID] = 'a';
	assert_int_equal(results_build_id_check(tall), JG_EINVAL);
	free(tall);
}

/* A newer major schema is refused by name, with what this build reads. */
static void
unknown_major_schema_is_refused(void **state)
{
	char *path = fixture("schema2.json");
	char *msg = xasprintf("%s: unsupported schema 'jankgate.results/2' "
	    "(this jankgate reads jankgate.results/1)", path);
	struct results *r = (struct results *)1;

	assert_int_equal(results_read(&r, path), JG_EINVAL);
	assert_null(r);
	assert_string_equal(jg_error_msg(), msg);
	free(msg);
	free(path);
}

/* Minor versions of 1 are read; anything else is refused. */
static void
schema_versions(void **state)
{
	static const char *const ok[] = {
		"jankgate.results/1", "jankgate.results/1.0",
		"jankgate.results/1.3", "jankgate.results/1.12",
	};
	static const char *const bad[] = {
		"jankgate.results/2", "jankgate.results/10",
		"jankgate.results/0.9", "jankgate.results/1x",
		"jankgate.results/1.", "jankgate.results/",
		"jankgate.comparison/1", "", "jankgate.results/1.3.1",
	};
	char json[128], msg[256];

	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++) {
		snprintf(json, sizeof(json), "{\"schema\": \"%s\"}", ok[i]);
		results_free(parse_ok(json));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(json, sizeof(json), "{\"schema\": \"%s\"}", bad[i]);
		snprintf(msg, sizeof(msg), "t.json: unsupported schema '%s' "
		    "(this jankgate reads jankgate.results/1)", bad[i]);
		assert_parse_error(json, msg);
	}
}

/* A file without "schema" is not taken for results at all. */
static void
missing_schema_is_refused(void **state)
{
	assert_parse_error("{\"run\": {}}",
	    "t.json: missing \"schema\"; not a jankgate results file "
	    "(expected 'jankgate.results/1')");
	assert_parse_error("{\"schema\": 1}",
	    "t.json: schema: expected a string");
}

#define HEAD "{\"schema\": \"jankgate.results/1\", "
#define SCENE_AT(inner) HEAD "\"scenarios\": [{\"name\": \"s\", " \
	"\"iterations\": [{}, {}, {\"scenes\": [{\"name\": \"x\", " inner \
	"}]}]}]}"

/* A value of the wrong type is an error that names its full key path. */
static void
wrong_types_name_the_key_path(void **state)
{
	static const struct { const char *json, *msg; } cases[] = {
		{ SCENE_AT("\"frames\": {\"count\": \"84\"}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames.count: "
		  "expected a number" },
		{ SCENE_AT("\"frames\": {\"histogram\": {\"5.5\": 1}}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames."
		  "histogram.5.5: expected a bucket key in whole "
		  "milliseconds" },
		{ SCENE_AT("\"frames\": {\"histogram\": {\"05\": 1}}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames."
		  "histogram.05: expected a bucket key in whole milliseconds" },
		{ SCENE_AT("\"frames\": {\"causes\": {\"missed_vsync\": -1}}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames."
		  "causes.missed_vsync: expected a non-negative integer" },
		{ SCENE_AT("\"frames\": {\"histogram\": {\"5\": 1, \"5\": 2}}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames."
		  "histogram.5: expected each key once" },
		{ SCENE_AT("\"frames\": {\"rows\": [{\"flags\": 0.5}]}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames."
		  "rows[0].flags: expected an integer" },
		{ SCENE_AT("\"frames\": []"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames: "
		  "expected an object" },
		{ SCENE_AT("\"fps\": {\"slices\": [{\"drop_sum\": {\"high\": "
		  "true}}]}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].fps.slices[0]."
		  "drop_sum.high: expected a number" },
		{ SCENE_AT("\"blocks\": [{\"stack\": [\"a\", 7]}]"),
		  "t.json: scenarios[0].iterations[2].scenes[0].blocks[0]."
		  "stack[1]: expected a string" },
		{ SCENE_AT("\"blocks\": [{\"cpu_busy\": \"no\"}]"),
		  "t.json: scenarios[0].iterations[2].scenes[0].blocks[0]."
		  "cpu_busy: expected true, false or null" },
		{ SCENE_AT("\"methods\": [3]"),
		  "t.json: scenarios[0].iterations[2].scenes[0].methods[0]: "
		  "expected an object" },
		{ HEAD "\"scenarios\": [{\"name\": \"s\", \"iterations\": "
		  "[{\"startup\": {\"kind\": \"lukewarm\"}}]}]}",
		  "t.json: scenarios[0].iterations[0].startup.kind: expected "
		  "\"cold\", \"warm\" or \"hot\"" },
		{ HEAD "\"scenarios\": [{\"name\": \"s\", \"iterations\": "
		  "[{\"index\": 1.5}]}]}",
		  "t.json: scenarios[0].iterations[0].index: expected a "
		  "non-negative integer" },
		{ HEAD "\"scenarios\": [{\"file\": \"a.scn\"}]}",
		  "t.json: scenarios[0].name: expected a string" },
		{ HEAD "\"scenarios\": [{\"name\": \"s\", \"iterations\": "
		  "[{\"scenes\": [{}]}]}]}",
		  "t.json: scenarios[0].iterations[0].scenes[0].name: "
		  "expected a string" },
		{ HEAD "\"scenarios\": {}}",
		  "t.json: scenarios: expected an array" },
		{ HEAD "\"run\": {\"complete\": \"yes\"}}",
		  "t.json: run.complete: expected true or false" },
		{ HEAD "\"app\": {\"sources\": [\"gfxinfo\", 5]}}",
		  "t.json: app.sources[1]: expected a string" },
		{ HEAD "\"app\": {\"sources\": \"gfxinfo\"}}",
		  "t.json: app.sources: expected an array of strings" },
		{ HEAD "\"device\": []}",
		  "t.json: device: expected an object" },
		{ HEAD "\"hygiene\": {\"screen_on\": 1}}",
		  "t.json: hygiene.screen_on: expected true, false or null" },
		{ HEAD "\"hygiene\": {\"props\": {\"a\": 1}}}",
		  "t.json: hygiene.props: expected a string, number, boolean "
		  "or null" },
		{ HEAD "\"warnings\": [{\"message\": false}]}",
		  "t.json: warnings[0].message: expected a string" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		assert_parse_error(cases[i].json, cases[i].msg);
}

#define ITER_AT(inner) HEAD "\"scenarios\": [{\"name\": \"s\", " \
	"\"iterations\": [{}, {" inner "}]}]}"

/*
 * A strict read refuses a number outside its limits (results.h) by its
 * key path: infinities (1e999 reads as one), negative and absurd
 * durations, counts and frame rates, histogram keys past an hour.
 */
static void
strict_read_refuses_values_out_of_limits(void **state)
{
	static const struct { const char *json, *msg; } cases[] = {
		{ ITER_AT("\"startup\": {\"total_ms\": 1.7e308}"),
		  "t.json: scenarios[0].iterations[1].startup.total_ms: "
		  "1.7e+308 is not a duration (0 to 3600000 ms)" },
		{ ITER_AT("\"startup\": {\"matrix\": {\"startup_duration_ms\": "
		  "-1}}"),
		  "t.json: scenarios[0].iterations[1].startup.matrix."
		  "startup_duration_ms: -1 is not a duration (0 to 3600000 "
		  "ms)" },
		{ ITER_AT("\"duration_ms\": 86400001"),
		  "t.json: scenarios[0].iterations[1].duration_ms: 86400001 "
		  "is not an iteration's duration (0 to 86400000 ms)" },
		{ ITER_AT("\"started_mono_ms\": -1e999"),
		  "t.json: scenarios[0].iterations[1].started_mono_ms: -inf "
		  "is not a monotonic time (within +-2^53 ms)" },
		{ ITER_AT("\"blocks\": [{\"wall_ms\": 3600000.5}]"),
		  "t.json: scenarios[0].iterations[1].blocks[0].wall_ms: "
		  "3600000.5 is not a duration (0 to 3600000 ms)" },
		{ ITER_AT("\"methods\": [{\"cost_ms\": 1e20}]"),
		  "t.json: scenarios[0].iterations[1].methods[0].cost_ms: "
		  "1e+20 is not a duration (0 to 3600000 ms)" },
		{ SCENE_AT("\"frames\": {\"p90_ms\": 1e999}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames.p90_ms: "
		  "inf is not a duration (0 to 3600000 ms)" },
		{ SCENE_AT("\"frames\": {\"janky\": -3}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames.janky: "
		  "-3 is not a count (0 to 2^53)" },
		{ SCENE_AT("\"frames\": {\"histogram\": {\"3600001\": 1}}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames."
		  "histogram.3600001: 3600001 is not a duration (0 to 3600000 "
		  "ms)" },
		{ SCENE_AT("\"frames\": {\"rows\": [{\"duration_ms\": -0.5}]}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].frames."
		  "rows[0].duration_ms: -0.5 is not a duration (0 to 3600000 "
		  "ms)" },
		{ SCENE_AT("\"fps\": {\"value\": 5000}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].fps.value: "
		  "5000 is not a frame rate (0 to 1000 fps)" },
		{ SCENE_AT("\"fps\": {\"slices\": [{\"phases_ms\": {\"draw\": "
		  "-2}}]}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].fps.slices[0]."
		  "phases_ms.draw: -2 is not a duration (0 to 3600000 ms)" },
		{ SCENE_AT("\"phases\": {\"gpu_p90_ms\": 1e300}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].phases."
		  "gpu_p90_ms: 1e+300 is not a duration (0 to 3600000 ms)" },
		{ SCENE_AT("\"jank_types\": {\"unknown\": -1}"),
		  "t.json: scenarios[0].iterations[2].scenes[0].jank_types."
		  "unknown: -1 is not a count (0 to 2^53)" },
		{ SCENE_AT("\"end_mono_ms\": 1e16"),
		  "t.json: scenarios[0].iterations[2].scenes[0].end_mono_ms: "
		  "1e+16 is not a monotonic time (within +-2^53 ms)" },
	};
	struct results *r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		r = (struct results *)1;
		if (results_parse_strict(&r, cases[i].json,
		    strlen(cases[i].json), "t.json") != JG_EINVAL)
			fail_msg("accepted: %s", cases[i].json);
		assert_null(r);
		assert_string_equal(jg_error_msg(), cases[i].msg);
	}
	/* The limits themselves are inside. */
	r = NULL;
	assert_int_equal(results_parse_strict(&r, ITER_AT("\"startup\": "
	    "{\"total_ms\": 3600000, \"wait_ms\": 0}, \"started_mono_ms\": "
	    "-5"), strlen(ITER_AT("\"startup\": {\"total_ms\": 3600000, "
	    "\"wait_ms\": 0}, \"started_mono_ms\": -5")), "t.json"), 0);
	assert_true(r->scenarios[0].iterations[1].startup.total_ms ==
	    RS_MAX_DURATION_MS);
	results_free(r);
}

/*
 * The lenient read (the gate's, the baseline history's) makes each such
 * value absent instead, with one warning that names the first by its
 * path and counts the rest; the file it writes then reads back the same.
 */
static void
lenient_read_drops_values_out_of_limits(void **state)
{
	static const char json[] = ITER_AT("\"startup\": {\"total_ms\": "
	    "1.7e308, \"displayed_ms\": 420}, \"duration_ms\": -1, "
	    "\"scenes\": [{\"name\": \"x\", \"frames\": {\"p50_ms\": 1e999, "
	    "\"histogram\": {\"8\": 5, \"4000000\": 1}}}]");
	struct results *r = parse_ok(json), *back;
	const struct rs_iteration *it = &r->scenarios[0].iterations[1];
	char *text, *again;

	assert_true(isnan(it->startup.total_ms));
	assert_true(it->startup.displayed_ms == 420);
	assert_true(isnan(it->duration_ms));
	assert_true(isnan(it->scenes[0].frames.p50_ms));
	assert_int_equal(it->scenes[0].frames.nr_histogram, 1);
	assert_int_equal(it->scenes[0].frames.histogram[0].ms, 8);
	assert_int_equal(r->nr_warnings, 1);
	assert_null(r->warnings[0].source);
	assert_null(r->warnings[0].scope);
	assert_string_equal(r->warnings[0].message, "t.json: scenarios[0]."
	    "iterations[1].duration_ms: -1 is not an iteration's duration "
	    "(0 to 86400000 ms); read as absent, and 3 more values out of "
	    "their limits");
	text = results_to_json(r);
	assert_int_equal(results_parse_strict(&back, text, strlen(text),
	    "w.json"), 0);
	again = results_to_json(back);
	assert_string_equal(text, again);
	free(text);
	free(again);
	results_free(back);
	results_free(r);
}

/*
 * Free text past RS_MAX_TEXT bytes (a 50 MB error) is cut between UTF-8
 * sequences with a marker of its length, and the cut text reads back
 * uncut, so the file is a fixed point.
 */
static void
long_text_is_cut_with_a_marker(void **state)
{
	size_t big = 3 * RS_MAX_TEXT;
	struct strbuf json = STRBUF_INIT;
	struct results *r, *back;
	const char *err, *marker;
	char *text;

	strbuf_addstr(&json, HEAD "\"scenarios\": [{\"name\": \"s\", "
	    "\"iterations\": [{}, {\"error\": \"");
	for (size_t i = 0; i < big / 2; i++)
		strbuf_addstr(&json, "\xc3\xa9");	/* two bytes each */
	strbuf_addstr(&json, "\", \"logcat_excerpt\": \"short\"}]}], "
	    "\"run\": {\"errors\": [\"");
	for (size_t i = 0; i < big; i++)
		strbuf_addch(&json, 'x');
	strbuf_addstr(&json, "\"]}}");
	r = parse_ok(json.buf);
	err = r->scenarios[0].iterations[1].error;
	assert_true(strlen(err) <= RS_MAX_TEXT);
	marker = strstr(err, "\n[... cut: 196608 bytes in all]");
	assert_non_null(marker);
	assert_int_equal(marker[strlen(marker) - 1], ']');
	/* Whole characters only before the marker. */
	assert_int_equal((marker - err) % 2, 0);
	assert_string_equal(r->scenarios[0].iterations[1].logcat_excerpt,
	    "short");
	assert_true(strlen(r->run.errors.items[0]) <= RS_MAX_TEXT);
	assert_non_null(strstr(r->run.errors.items[0], "cut: 196608 bytes"));
	text = results_to_json(r);
	back = parse_ok(text);
	assert_string_equal(back->scenarios[0].iterations[1].error, err);
	assert_string_equal(back->run.errors.items[0], r->run.errors.items[0]);
	free(text);
	results_free(back);
	results_free(r);
	strbuf_release(&json);
}

/*
 * A histogram read in any key order comes out ascending, causes in file
 * order, and a repeated key is found among many (on a sorted copy: the
 * reader once took minutes over 200000 buckets, a lookup per key).
 */
static void
many_counts_read_sorted_and_once(void **state)
{
	struct strbuf json = STRBUF_INIT;
	struct results *r = NULL;
	const struct rs_frames *f;

	strbuf_addstr(&json, SCENE_AT("\"frames\": {\"histogram\": {"));
	strbuf_setlen(&json, json.len - strlen("}]}]}]}"));
	for (int ms = 5000; ms >= 1; ms--)
		strbuf_addf(&json, "%s\"%d\": %d", ms < 5000 ? ", " : "", ms,
		    ms % 7);
	strbuf_addstr(&json, "}, \"causes\": {");
	for (int i = 0; i < 3000; i++)
		strbuf_addf(&json, "%s\"c%d\": %d", i ? ", " : "",
		    (i * 7919) % 3000, i);
	strbuf_addstr(&json, "}}}]}]}]}");
	r = parse_ok(json.buf);
	f = &r->scenarios[0].iterations[2].scenes[0].frames;
	/* Zero counts store nothing: 5000 keys, 4286 buckets. */
	assert_int_equal(f->nr_histogram, 4286);
	for (size_t i = 1; i < f->nr_histogram; i++)
		assert_true(f->histogram[i - 1].ms < f->histogram[i].ms);
	assert_int_equal(f->histogram[0].ms, 1);
	assert_int_equal(f->histogram[0].count, 1);
	assert_int_equal(f->nr_causes, 3000);
	assert_string_equal(f->causes[1].name, "c1919");
	assert_int_equal(f->causes[1].count, 1);
	results_free(r);
	/* The same key twice, far apart, is still refused by name. */
	strbuf_reset(&json);
	strbuf_addstr(&json, SCENE_AT("\"frames\": {\"causes\": {"));
	strbuf_setlen(&json, json.len - strlen("}]}]}]}"));
	for (int i = 0; i < 3000; i++)
		strbuf_addf(&json, "%s\"c%d\": 1", i ? ", " : "",
		    i == 2999 ? 17 : i);
	strbuf_addstr(&json, "}}}]}]}]}");
	assert_parse_error(json.buf, "t.json: scenarios[0].iterations[2]."
	    "scenes[0].frames.causes.c17: expected each key once");
	strbuf_release(&json);
}

/*
 * results_write() holds the model to the limits before writing, as a
 * lenient read would: what a device misreported is written as absent
 * with one warning, long text is cut, and the file passes a strict read.
 */
static void
write_holds_the_limits(void **state)
{
	char *path = xasprintf("%s/held.json", unit_tmpdir());
	struct results *r = results_new(), *back = NULL;
	struct rs_iteration *it;
	struct rs_scene *sc;
	char *big = xmalloc(3 * RS_MAX_TEXT + 1);

	memset(big, 'x', 3 * RS_MAX_TEXT);
	big[3 * RS_MAX_TEXT] = '\0';
	it = rs_scenario_add_iteration(results_add_scenario(r, "s"), false);
	it->startup.present = true;
	it->startup.total_ms = 1.7e308;
	it->startup.wait_ms = 400;
	rs_str_set(&it->error, big);
	strlist_add(&r->run.errors, big);
	sc = rs_iteration_add_scene(it, "x");
	rs_frames_add_bucket(&sc->frames, 8, 3);
	rs_frames_add_bucket(&sc->frames, 4000000, 1);
	sc->frames.p90_ms = INFINITY;
	rs_iteration_add_block(it, "perf")->wall_ms = -5;
	assert_int_equal(results_write(r, path), 0);
	assert_true(isnan(it->startup.total_ms));
	assert_true(it->startup.wait_ms == 400);
	assert_int_equal(results_read_strict(&back, path), 0);
	it = &back->scenarios[0].iterations[0];
	assert_true(isnan(it->startup.total_ms));
	assert_true(isnan(it->blocks[0].wall_ms));
	assert_true(isnan(it->scenes[0].frames.p90_ms));
	assert_int_equal(it->scenes[0].frames.nr_histogram, 1);
	assert_true(strlen(it->error) <= RS_MAX_TEXT);
	assert_non_null(strstr(it->error, "cut: 196608 bytes in all"));
	assert_true(strlen(back->run.errors.items[0]) <= RS_MAX_TEXT);
	assert_int_equal(back->nr_warnings, 1);
	assert_true(!strncmp(back->warnings[0].message, path, strlen(path)));
	assert_non_null(strstr(back->warnings[0].message, ": scenarios[0]."
	    "iterations[0].startup.total_ms: 1.7e+308 is not a duration (0 "
	    "to 3600000 ms); written as absent, and 3 more values out of "
	    "their limits"));
	/* Held once, it stays: a second write adds nothing. */
	assert_int_equal(results_hold_limits(r, path), 0);
	assert_int_equal(r->nr_warnings, 1);
	results_free(back);
	results_free(r);
	free(big);
	free(path);
}

/* Broken JSON is reported with its line and column. */
static void
invalid_json_reports_position(void **state)
{
	struct results *r = NULL;

	assert_parse_error("{\n  \"schema\": }", "t.json:2:13: invalid JSON");
	assert_parse_error("{\"schema\": \"jankgate.results/1\"}\n x",
	    "t.json:2:2: unexpected data after the JSON value");
	assert_parse_error("[1, 2]", "t.json: expected a JSON object");
	assert_parse_error("", "t.json:1:1: invalid JSON");
	/* The length is honoured: bytes after it are not read. */
	assert_int_equal(results_parse(&r, "{\"schema\": "
	    "\"jankgate.results/1\"}garbage", 32, "t.json"), 0);
	results_free(r);
}

/* Hostile strings round trip exactly and leave no raw control bytes. */
static void
hostile_strings_round_trip(void **state)
{
	struct results *r = results_new(), *back;
	char *json;

	rs_str_set(&r->app.package, hostile);
	json = results_to_json(r);
	for (const char *p = json; *p; p++)
		if ((unsigned char)*p < 0x20)
			assert_true(*p == '\n');
	assert_non_null(strstr(json, "\\\"x\\\")</script>"));
	assert_non_null(strstr(json, "\\u0001\\u001f\x7f"));
	assert_non_null(strstr(json, "\\b ff\\f"));
	back = parse_ok(json);
	assert_string_equal(back->app.package, hostile);
	free(json);
	results_free(back);
	results_free(r);
}

/*
 * Invalid UTF-8 is written as U+FFFD, one per bad byte, so the file stays
 * valid UTF-8; such a string then reads back as the replaced text.
 */
static void
invalid_utf8_is_replaced(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "a\xff" "b", "a\xef\xbf\xbd" "b" },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong */
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd" },	/* cut */
		{ "\xf4\x90\x80\x80x", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		  "\xef\xbf\xbdx" },				/* > U+10FFFF */
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },	/* valid */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct results *r = results_new(), *back;
		char *json, *again;

		rs_str_set(&r->device.model, cases[i].in);
		json = results_to_json(r);
		back = parse_ok(json);
		assert_string_equal(back->device.model, cases[i].out);
		again = results_to_json(back);
		assert_string_equal(json, again);
		free(again);
		free(json);
		results_free(back);
		results_free(r);
	}
}

/* Absent numbers, tri-states and records are null, and read back absent. */
static void
absent_values_are_null(void **state)
{
	struct results *r = results_new(), *back;
	struct rs_scenario *s = results_add_scenario(r, "s");
	struct rs_iteration *it = rs_scenario_add_iteration(s, false);
	struct rs_scene *sc;
	char *json;

	rs_iteration_add_scene(it, "x");
	r->device.refresh_hz = INFINITY;	/* not JSON either */
	json = results_to_json(r);
	assert_non_null(strstr(json, "\"sdk\": null"));
	assert_non_null(strstr(json, "\"refresh_hz\": null"));
	assert_non_null(strstr(json, "\"screen_on\": null"));
	assert_non_null(strstr(json, "\"startup\": null"));
	assert_non_null(strstr(json, "\"frames\": null"));
	assert_non_null(strstr(json, "\"value\": null"));
	back = parse_ok(json);
	assert_true(isnan(back->device.sdk));
	assert_true(isnan(back->device.refresh_hz));
	assert_int_equal(back->hygiene.screen_on, RS_UNKNOWN);
	it = &back->scenarios[0].iterations[0];
	assert_false(it->startup.present);
	assert_false(it->scenes[0].frames.present);
	assert_true(isnan(it->scenes[0].frames.count));
	free(json);
	results_free(back);
	results_free(r);

	/* Keys left out altogether read as absent too. */
	back = parse_ok(HEAD "\"scenarios\": [{\"name\": \"s\", "
	    "\"iterations\": [{\"scenes\": [{\"name\": \"x\"}]}]}]}");
	sc = &back->scenarios[0].iterations[0].scenes[0];
	assert_false(sc->frames.present);
	assert_true(isnan(sc->start_mono_ms));
	assert_int_equal(back->scenarios[0].iterations[0].index, 0);
	results_free(back);
}

/* Integers print as integers, fractions with the digits they need. */
static void
numbers_print_exactly(void **state)
{
	static const struct { double v; const char *text; } cases[] = {
		{ 84, "84" }, { -0.0, "0" }, { 1e15, "1000000000000000" },
		{ 4503599627370497.0, "4503599627370497" },
		{ 0.1, "0.1" }, { 59.94, "59.94" },
		{ 57.41302490234375, "57.41302490234375" },
		{ 9.014377000000001, "9.014377000000001" },
		{ 1e-7, "1e-07" }, { 1e20, "1e+20" }, { -2.5, "-2.5" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct results *r = results_new(), *back;
		char want[64], *json;

		r->device.width = cases[i].v;
		json = results_to_json(r);
		snprintf(want, sizeof(want), "\"width\": %s,", cases[i].text);
		if (!strstr(json, want))
			fail_msg("%g: want %s", cases[i].v, want);
		back = parse_ok(json);
		assert_true(back->device.width == cases[i].v);
		free(json);
		results_free(back);
		results_free(r);
	}
}

/* results_write replaces the file and leaves no temporary file behind. */
static void
write_is_atomic_and_clean(void **state)
{
	char *dir = xasprintf("%s/results-write", unit_tmpdir());
	char *path = xasprintf("%s/results.json", dir);
	struct results *r = rich_model(), *back = NULL;
	struct dirent *de;
	DIR *d;
	int files = 0;

	assert_int_equal(file_mkdirs(dir, 0755), 0);
	assert_int_equal(results_write(r, path), 0);
	assert_int_equal(results_write(r, path), 0);
	assert_int_equal(results_read(&back, path), 0);
	results_eq(r, back);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			files++;
	closedir(d);
	assert_int_equal(files, 1);
	results_free(back);
	results_free(r);
	free(path);
	free(dir);
}

/* Unwritable and missing paths fail with the matching codes. */
static void
io_errors_have_codes(void **state)
{
	struct results *r = results_new(), *back = (struct results *)1;
	char *nodir = xasprintf("%s/no/such/dir/r.json", unit_tmpdir());

	assert_int_equal(results_write(r, nodir), JG_EIO);
	assert_int_equal(results_read(&back, nodir), JG_ENOTFOUND);
	assert_null(back);
	free(nodir);
	results_free(r);
}

/* Lookups find by name, and scene names are the ordered union. */
static void
lookups_find_by_name(void **state)
{
	struct results *r = results_new();
	struct rs_scenario *s = results_add_scenario(r, "a");
	struct rs_iteration *it1, *it2;
	struct strlist names = STRLIST_INIT;

	results_add_scenario(r, "b");
	s = results_find_scenario(r, "a");	/* the add may have moved it */
	it1 = rs_scenario_add_iteration(s, true);
	rs_iteration_add_scene(it1, "open");
	rs_iteration_add_scene(it1, "scroll");
	it2 = rs_scenario_add_iteration(s, false);
	it1 = &s->iterations[0];
	assert_int_equal(it2->index, 1);
	rs_iteration_add_scene(it2, "scroll");
	rs_iteration_add_scene(it2, "close");
	assert_ptr_equal(results_find_scenario(r, "b"), &r->scenarios[1]);
	assert_null(results_find_scenario(r, "c"));
	assert_ptr_equal(rs_iteration_find_scene(it1, "scroll"),
	    &it1->scenes[1]);
	assert_null(rs_iteration_find_scene(it2, "open"));
	rs_scenario_scene_names(s, &names);
	assert_int_equal(names.nr, 3);
	assert_string_equal(names.items[0], "open");
	assert_string_equal(names.items[1], "scroll");
	assert_string_equal(names.items[2], "close");
	strlist_release(&names);
	results_free(r);
}

/* Events go to the scene holding them, else to one that ended in grace. */
static void
scene_at_attributes_by_time(void **state)
{
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "s"), false);
	struct rs_scene *a, *b;

	a = rs_iteration_add_scene(it, "a");
	a->start_mono_ms = 100;
	a->end_mono_ms = 200;
	b = rs_iteration_add_scene(it, "b");
	b->start_mono_ms = 250;
	b->end_mono_ms = 400;
	rs_iteration_add_scene(it, "no-window");
	a = &it->scenes[0];
	assert_ptr_equal(rs_iteration_scene_at(it, 100, 0), a);
	assert_ptr_equal(rs_iteration_scene_at(it, 200, 0), a);
	assert_null(rs_iteration_scene_at(it, 220, 0));
	assert_ptr_equal(rs_iteration_scene_at(it, 220, 50), a);
	/* Inside b, even though a's grace period would reach it. */
	assert_ptr_equal(rs_iteration_scene_at(it, 260, 100), &it->scenes[1]);
	assert_ptr_equal(rs_iteration_scene_at(it, 450, 100), &it->scenes[1]);
	assert_null(rs_iteration_scene_at(it, 50, 1000));
	results_free(r);
}

/* Buckets stay ascending and unique; zero counts are not stored. */
static void
histogram_stays_sorted(void **state)
{
	struct rs_frames f;
	struct results *r = results_new();
	struct rs_scene *sc = rs_iteration_add_scene(rs_scenario_add_iteration(
	    results_add_scenario(r, "s"), false), "x");

	rs_frames_add_bucket(&sc->frames, 20, 1);
	rs_frames_add_bucket(&sc->frames, 5, 7);
	rs_frames_add_bucket(&sc->frames, 150, 2);
	rs_frames_add_bucket(&sc->frames, 6, 0);
	rs_frames_add_bucket(&sc->frames, 20, 4);
	rs_frames_add_bucket(&sc->frames, 10, 3);
	f = sc->frames;
	assert_true(f.present);
	assert_int_equal(f.nr_histogram, 4);
	assert_int_equal(f.histogram[0].ms, 5);
	assert_int_equal(f.histogram[1].ms, 10);
	assert_int_equal(f.histogram[2].ms, 20);
	assert_int_equal(f.histogram[2].count, 5);
	assert_int_equal(f.histogram[3].ms, 150);
	assert_int_equal(rs_frames_histogram_total(&f), 17);
	assert_int_equal(rs_frames_histogram_at_least(&f, 16), 7);
	assert_int_equal(rs_frames_histogram_at_least(&f, 151), 0);
	rs_frames_add_cause(&sc->frames, "missed_vsync", 2);
	rs_frames_add_cause(&sc->frames, "missed_vsync", 3);
	assert_int_equal(sc->frames.nr_causes, 1);
	assert_int_equal(rs_frames_cause(&sc->frames, "missed_vsync"), 5);
	assert_int_equal(rs_frames_cause(&sc->frames, "slow_ui_thread"), 0);
	results_free(r);
}

/* Extras replace by key and may not shadow a hygiene field. */
static void
hygiene_extras_are_keyed(void **state)
{
	struct rs_hygiene *h;
	struct results *r = results_new();

	h = &r->hygiene;
	assert_int_equal(rs_hygiene_set_number(h, "brightness", 10), 0);
	assert_int_equal(rs_hygiene_set_string(h, "brightness", "max"), 0);
	assert_int_equal(h->nr_extras, 1);
	assert_string_equal(rs_hygiene_find(h, "brightness")->string, "max");
	assert_int_equal(rs_hygiene_set_bool(h, "screen_on", true), JG_EINVAL);
	assert_int_equal(rs_hygiene_set_number(h, "battery_pct", 5), JG_EINVAL);
	assert_int_equal(h->nr_extras, 1);
	assert_true(rs_hygiene_is_field("window_scale"));
	assert_false(rs_hygiene_is_field("brightness"));
	assert_null(rs_hygiene_find(h, "nope"));
	results_free(r);
}

/*
 * The hygiene keys the file holds before the extras are exactly the ones
 * results.c refuses as extra names (the two lists live in two files).
 */
static void
hygiene_fields_agree_with_file(void **state)
{
	struct results *r = results_new();
	char *json, *p, *end;
	int fields = 0;

	assert_int_equal(rs_hygiene_set_bool(&r->hygiene, "zz_extra", true), 0);
	json = results_to_json(r);
	p = strstr(json, "\"hygiene\": {");
	assert_non_null(p);
	end = strstr(p, "\"zz_extra\"");
	assert_non_null(end);
	p = strchr(p, '{');
	while ((p = strchr(p + 1, '"')) && p < end) {
		char *q = strchr(p + 1, '"');

		*q = '\0';
		assert_true(rs_hygiene_is_field(p + 1));
		fields++;
		p = strchr(q + 1, '\n');
	}
	assert_int_equal(fields, 7);
	free(json);
	results_free(r);
}

/* Launch kinds convert both ways and unknown names are refused. */
static void
launch_names_convert(void **state)
{
	enum rs_launch k = RS_LAUNCH_NONE;

	assert_int_equal(rs_launch_parse("warm", &k), 0);
	assert_int_equal(k, RS_LAUNCH_WARM);
	assert_string_equal(rs_launch_name(RS_LAUNCH_COLD), "cold");
	assert_null(rs_launch_name(RS_LAUNCH_NONE));
	assert_int_equal(rs_launch_parse("COLD", &k), JG_EINVAL);
	assert_int_equal(k, RS_LAUNCH_WARM);
}

/*
 * A warning is kept once however often it is added; one that a later
 * batch proves wrong is removed by its source and message start, and
 * nothing else goes with it.
 */
static void
warnings_once_and_removable(void **state)
{
	struct results *r = results_new();

	(void)state;
	results_add_warning(r, "blockcanary", NULL, "no BlockCanary log in "
	    "the whole run, anywhere");
	results_add_warning(r, "blockcanary", NULL, "no BlockCanary log in "
	    "the whole run, anywhere");
	results_add_warning(r, "matrix", "a/b", "no Trace_FPS line");
	results_add_warning(r, NULL, NULL, "no BlockCanary log in the whole "
	    "run, said by nobody");
	assert_int_equal(r->nr_warnings, 3);
	assert_int_equal(results_remove_warnings(r, "blockcanary",
	    "no BlockCanary log in the whole run"), 1);
	assert_int_equal(r->nr_warnings, 2);
	assert_string_equal(r->warnings[0].source, "matrix");
	assert_null(r->warnings[1].source);
	assert_int_equal(results_remove_warnings(r, "blockcanary", "no"), 0);
	results_free(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(warnings_once_and_removable),
	cmocka_unit_test(fixture_reads_every_section),
	cmocka_unit_test(fixture_writes_back_byte_identical),
	cmocka_unit_test(frames_are_claimed_by_one_source),
	cmocka_unit_test(rich_model_round_trips),
	cmocka_unit_test(empty_model_round_trips),
	cmocka_unit_test(unknown_major_schema_is_refused),
	cmocka_unit_test(build_id_is_optional_and_one_line),
	cmocka_unit_test(schema_versions),
	cmocka_unit_test(missing_schema_is_refused),
	cmocka_unit_test(wrong_types_name_the_key_path),
	cmocka_unit_test(strict_read_refuses_values_out_of_limits),
	cmocka_unit_test(lenient_read_drops_values_out_of_limits),
	cmocka_unit_test(long_text_is_cut_with_a_marker),
	cmocka_unit_test(many_counts_read_sorted_and_once),
	cmocka_unit_test(write_holds_the_limits),
	cmocka_unit_test(invalid_json_reports_position),
	cmocka_unit_test(hostile_strings_round_trip),
	cmocka_unit_test(invalid_utf8_is_replaced),
	cmocka_unit_test(absent_values_are_null),
	cmocka_unit_test(numbers_print_exactly),
	cmocka_unit_test(write_is_atomic_and_clean),
	cmocka_unit_test(io_errors_have_codes),
	cmocka_unit_test(lookups_find_by_name),
	cmocka_unit_test(scene_at_attributes_by_time),
	cmocka_unit_test(histogram_stays_sorted),
	cmocka_unit_test(hygiene_extras_are_keyed),
	cmocka_unit_test(hygiene_fields_agree_with_file),
	cmocka_unit_test(launch_names_convert),
};
JG_UNIT_GROUP(results, tests, NULL, NULL)
