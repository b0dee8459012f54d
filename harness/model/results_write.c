/*
 * results_write.c: the model of results.h into results.json (the layout
 * is drawn in results_json_int.h).
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

#include "fileio.h"
#include "jsonw.h"
#include "results.h"
#include "results_json_int.h"
#include "strbuf.h"
#include "banned.h"

static void
write_fields(struct jsonw *w, const void *base, const struct field *f, size_t n)
{
	for (size_t i = 0; i < n; i++, f++) {
		const char *p = (const char *)base + f->off;
		const struct strlist *l;
		int tri;

		switch (f->kind) {
		case FK_STR:
		case FK_TEXT:
			jsonw_str(w, f->key, *(char *const *)p);
			break;
		case FK_NUM:
		case FK_MS:
		case FK_LONG_MS:
		case FK_MONO:
		case FK_COUNT:
		case FK_FPS:
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
			jsonw_lit(w, f->key,
			    *(const bool *)p ? "true" : "false");
			break;
		case FK_TRI:
			tri = *(const int *)p;
			jsonw_lit(w, f->key, tri == RS_UNKNOWN ? "null" :
			    tri ? "true" : "false");
			break;
		case FK_LIST:
		case FK_TEXTS:
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
	write_fields(w, h, hygiene_fields.f, hygiene_fields.n);
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
		write_record(w, NULL, &blocks[i], block_fields.f,
		    block_fields.n);
	jsonw_close(w, ']');
	jsonw_open(w, "methods", '[');
	for (size_t i = 0; i < nr_methods; i++)
		write_record(w, NULL, &methods[i], method_fields.f,
		    method_fields.n);
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
	write_fields(w, f, frames_fields.f, frames_fields.n);
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
		write_record(w, NULL, &f->rows[i], row_fields.f,
		    row_fields.n);
	jsonw_close(w, ']');
	jsonw_close(w, '}');
}

static void
write_fps(struct jsonw *w, const struct rs_fps *fps)
{
	jsonw_open(w, "fps", '{');
	write_fields(w, fps, fps_fields.f, fps_fields.n);
	jsonw_open(w, "slices", '[');
	for (size_t i = 0; i < fps->nr_slices; i++) {
		const struct rs_fps_slice *s = &fps->slices[i];

		jsonw_open(w, NULL, '{');
		write_fields(w, s, slice_fields.f, slice_fields.n);
		write_record(w, "drop_level", &s->drop_level, drops_fields.f,
		    drops_fields.n);
		write_record(w, "drop_sum", &s->drop_sum, drops_fields.f,
		    drops_fields.n);
		if (s->phases.present)
			write_record(w, "phases_ms", &s->phases,
			    phase_means_fields.f, phase_means_fields.n);
		else
			jsonw_lit(w, "phases_ms", "null");
		jsonw_close(w, '}');
	}
	jsonw_close(w, ']');
	jsonw_close(w, '}');
}

/* A scene's phases, jank types and input steps (results_explain.c). */
static void
write_explain(struct jsonw *w, const struct rs_scene *sc)
{
	if (sc->phases.present)
		write_record(w, "phases", &sc->phases, phases_fields.f,
		    phases_fields.n);
	else
		jsonw_lit(w, "phases", "null");
	if (sc->jank_types.present)
		write_record(w, "jank_types", &sc->jank_types,
		    jank_types_fields.f, jank_types_fields.n);
	else
		jsonw_lit(w, "jank_types", "null");
	jsonw_open(w, "inputs", '[');
	for (size_t i = 0; i < sc->nr_inputs; i++)
		write_record(w, NULL, &sc->inputs[i], input_fields.f,
		    input_fields.n);
	jsonw_close(w, ']');
}

static void
write_startup(struct jsonw *w, const char *key, const struct rs_startup *st)
{
	if (!st->present) {
		jsonw_lit(w, key, "null");
		return;
	}
	jsonw_open(w, key, '{');
	write_fields(w, st, startup_fields.f, startup_fields.n);
	if (st->matrix.present)
		write_record(w, "matrix", &st->matrix, matrix_fields.f,
		    matrix_fields.n);
	else
		jsonw_lit(w, "matrix", "null");
	jsonw_close(w, '}');
}

static void
write_iteration(struct jsonw *w, const struct rs_iteration *it)
{
	jsonw_open(w, NULL, '{');
	write_fields(w, it, iteration_fields.f, iteration_fields.n);
	write_startup(w, "startup", &it->startup);
	jsonw_open(w, "scenes", '[');
	for (size_t i = 0; i < it->nr_scenes; i++) {
		const struct rs_scene *sc = &it->scenes[i];

		jsonw_open(w, NULL, '{');
		write_fields(w, sc, scene_fields.f, scene_fields.n);
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
	write_record(&w, "run", &r->run, run_fields.f, run_fields.n);
	write_record(&w, "app", &r->app, app_fields.f, app_fields.n);
	write_record(&w, "device", &r->device, device_fields.f,
	    device_fields.n);
	write_hygiene(&w, &r->hygiene);
	jsonw_open(&w, "warnings", '[');
	for (size_t i = 0; i < r->nr_warnings; i++)
		write_record(&w, NULL, &r->warnings[i], warning_fields.f,
		    warning_fields.n);
	jsonw_close(&w, ']');
	jsonw_open(&w, "scenarios", '[');
	for (size_t i = 0; i < r->nr_scenarios; i++) {
		const struct rs_scenario *s = &r->scenarios[i];

		jsonw_open(&w, NULL, '{');
		write_fields(&w, s, scenario_fields.f, scenario_fields.n);
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
results_write(struct results *r, const char *path)
{
	char *json;

	results_hold_limits(r, path);
	json = results_to_json(r);
	int ret = file_write_atomic(path, json, strlen(json), 0666);

	free(json);
	return ret;
}

