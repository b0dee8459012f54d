/*
 * results_read.c: results.json into the model of results.h (the layout is
 * drawn in results_json_int.h).
 *
 * Reading is done with cJSON and is lenient where that is safe: a missing
 * key reads as null, unknown keys are ignored (a 1.x minor version may add
 * some), but a value of the wrong type is an error that names its key path.
 * Only the schema, scenario names and scene names are required.
 *
 * Numbers with a meaning (durations, times, counts, frame rates) are held
 * to the limits of results.h, so that nothing downstream meets an infinite
 * or absurd value: a strict read refuses the first one by its key path,
 * a lenient read makes each absent and says so in one warning.  Free text
 * is cut to RS_MAX_TEXT bytes in both.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "error.h"
#include "fileio.h"
#include "results.h"
#include "results_json_int.h"
#include "schema.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

struct jr {
	const char *name;	/* the file, for messages */
	struct strbuf path;	/* key path of the value being read */
	bool strict;		/* refuse a value out of its limits */
	size_t nr_dropped;	/* lenient: values read as absent ... */
	struct strbuf dropped;	/* ... and what the first one was */
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

/*
 * Hold `v` at the current path to `lim`: 0 when inside; strict, the error;
 * lenient, 1 after noting the value (the caller makes it absent).  NAN is
 * never seen here: JSON has no literal for it, while 1e999 reads as inf.
 */
static int
jr_limit(struct jr *r, double v, const struct field_limit *lim)
{
	struct strbuf msg = STRBUF_INIT;

	if (field_limit_holds(lim, v))
		return 0;
	field_limit_say(&msg, r->name, r->path.buf, v, lim);
	if (r->strict) {
		jg_error_set(JG_EINVAL, "%s", msg.buf);
		strbuf_release(&msg);
		return JG_EINVAL;
	}
	if (!r->nr_dropped++)
		strbuf_add(&r->dropped, msg.buf, msg.len);
	strbuf_release(&msg);
	return 1;
}

/* 1 when `v` is a number holding an integer in [lo, hi]. */
static int
is_integer(const cJSON *v, double lo, double hi)
{
	return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
	    v->valuedouble >= lo && v->valuedouble <= hi;
}

static int
read_list(struct jr *r, const cJSON *v, struct strlist *l, bool text)
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
		if (text) {
			char *cut = NULL;

			field_text_set(&cut, item->valuestring);
			strlist_add(l, cut);
			free(cut);
		} else {
			strlist_add(l, item->valuestring);
		}
	}
	return 0;
}

/* Read one scalar into `p`; a missing or null value leaves the default. */
static int
read_scalar(struct jr *r, const cJSON *v, const struct field *f, char *p)
{
	int ret;

	if (!v || cJSON_IsNull(v))
		return f->required ? jr_fail(r, "a string") : 0;
	switch (f->kind) {
	case FK_STR:
	case FK_TEXT:
		if (!cJSON_IsString(v))
			return jr_fail(r, "a string");
		if (f->kind == FK_TEXT)
			field_text_set((char **)p, v->valuestring);
		else
			rs_str_set((char **)p, v->valuestring);
		return 0;
	case FK_NUM:
		if (!cJSON_IsNumber(v))
			return jr_fail(r, "a number");
		*(double *)p = v->valuedouble;
		return 0;
	case FK_MS:
	case FK_LONG_MS:
	case FK_MONO:
	case FK_COUNT:
	case FK_FPS:
		if (!cJSON_IsNumber(v))
			return jr_fail(r, "a number");
		ret = jr_limit(r, v->valuedouble, field_limit_of(f->kind));
		if (ret < 0)
			return ret;
		*(double *)p = ret ? NAN : v->valuedouble;
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
	case FK_TEXTS:
		return read_list(r, v, (struct strlist *)p,
		    f->kind == FK_TEXTS);
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
		return read_fields(r, obj, (type *)dst, (table).f, \
		    (table).n); \
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
	int ret = read_fields(r, obj, h, hygiene_fields.f,
	    hygiene_fields.n);

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

	return read_fields(r, obj, w, warning_fields.f, warning_fields.n);
}

static int
read_block(struct jr *r, const cJSON *obj, struct rs_block *b)
{
	return read_fields(r, obj, b, block_fields.f, block_fields.n);
}

static int
read_method(struct jr *r, const cJSON *obj, struct rs_method *m)
{
	return read_fields(r, obj, m, method_fields.f, method_fields.n);
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

/* A key of a histogram or causes object, kept to check and store it. */
struct count_key {
	const cJSON *v;
	uint32_t ms;		/* histogram: the bucket */
};

static int
cmp_ms(const void *a, const void *b)
{
	uint32_t x = ((const struct count_key *)a)->ms;
	uint32_t y = ((const struct count_key *)b)->ms;

	return x < y ? -1 : x > y;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct count_key *)a)->v->string,
	    ((const struct count_key *)b)->v->string);
}

/*
 * The entries of a "<key>": count object, checked and stored.  Each key
 * once is checked on a sorted copy, where a repeat sits next to its twin:
 * cJSON's lookup by key, or adding one entry after another with a search
 * each, would take quadratic time, minutes on a file of 200000 buckets.
 * Buckets are then added in ascending order, causes in file order.
 */
static int
read_counts(struct jr *r, const cJSON *obj, struct rs_frames *f,
    bool histogram)
{
	struct count_key *keys = xcalloc((size_t)cJSON_GetArraySize(obj) + 1,
	    sizeof(*keys));
	const cJSON *v;
	size_t nr = 0;
	int ret = 0;

	cJSON_ArrayForEach(v, obj) {
		size_t old = jr_push_key(r, v->string);
		uint32_t ms = 0;

		if (!is_integer(v, 0, 18446744073709549568.0))
			ret = jr_fail(r, "a non-negative integer");
		else if (histogram && parse_bucket_ms(v->string, &ms) < 0)
			ret = jr_fail(r, "a bucket key in whole milliseconds");
		/* A key is a frame's time: an hour at most (a lenient read
		 * drops the bucket). */
		else if (histogram)
			ret = jr_limit(r, ms, field_limit_of(FK_MS));
		if (ret < 0)
			goto out;
		jr_pop(r, old);
		if (!ret)
			keys[nr++] = (struct count_key){ v, ms };
		ret = 0;
	}
	if (nr)
		qsort(keys, nr, sizeof(*keys), histogram ? cmp_ms : cmp_name);
	for (size_t i = 1; i < nr; i++)
		if (!(histogram ? cmp_ms : cmp_name)(&keys[i - 1], &keys[i])) {
			jr_push_key(r, keys[i].v->string);
			ret = jr_fail(r, "each key once");
			goto out;
		}
	if (histogram)
		for (size_t i = 0; i < nr; i++)
			rs_frames_add_bucket(f, keys[i].ms,
			    (uint64_t)keys[i].v->valuedouble);
	else
		cJSON_ArrayForEach(v, obj)
			rs_frames_append_cause(f, v->string,
			    (uint64_t)v->valuedouble);
out:
	free(keys);
	return ret;
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
	return read_fields(r, obj, rs_frames_add_row(dst), row_fields.f,
	    row_fields.n);
}

static int
read_frames(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_frames *f = dst;
	int ret;

	f->present = true;
	ret = read_fields(r, obj, f, frames_fields.f, frames_fields.n);
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
	return read_fields(r, obj, m, phase_means_fields.f,
	    phase_means_fields.n);
}

static int
read_slice(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_fps_slice *s = rs_fps_add_slice(dst, NULL);
	int ret = read_fields(r, obj, s, slice_fields.f, slice_fields.n);

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
	return read_fields(r, obj, p, phases_fields.f, phases_fields.n);
}

static int
read_jank_types(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_jank_types *j = dst;

	j->present = true;
	return read_fields(r, obj, j, jank_types_fields.f,
	    jank_types_fields.n);
}

static int
read_input(struct jr *r, const cJSON *obj, void *dst)
{
	return read_fields(r, obj, rs_scene_add_input(dst, NAN, NULL),
	    input_fields.f, input_fields.n);
}

static int
read_fps(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_fps *fps = dst;
	int ret = read_fields(r, obj, fps, fps_fields.f, fps_fields.n);

	return ret ? ret : read_array(r, obj, "slices", read_slice, fps);
}

static int
read_scene(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_scene *sc = rs_iteration_add_scene(dst, NULL);
	int ret = read_fields(r, obj, sc, scene_fields.f, scene_fields.n);

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
	return read_fields(r, obj, m, matrix_fields.f, matrix_fields.n);
}

static int
read_startup(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_startup *st = dst;
	int ret;

	st->present = true;
	ret = read_fields(r, obj, st, startup_fields.f, startup_fields.n);
	if (!ret && read_object(r, obj, "matrix", read_matrix,
	    &st->matrix) < 0)
		ret = JG_EINVAL;
	return ret;
}

static int
read_iteration(struct jr *r, const cJSON *obj, void *dst)
{
	struct rs_iteration *it = rs_scenario_add_iteration(dst, false);
	int ret = read_fields(r, obj, it, iteration_fields.f,
	    iteration_fields.n);

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
	int ret = read_fields(r, obj, s, scenario_fields.f,
	    scenario_fields.n);

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

static int
parse(struct results **out, const char *buf, size_t len, const char *name,
    bool strict)
{
	struct jr r = { name, STRBUF_INIT, strict, 0, STRBUF_INIT };
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
	if (r.nr_dropped)
		field_limit_note(res, r.dropped.buf, r.nr_dropped,
		    "read as absent");
	*out = res;
	res = NULL;
out:
	results_free(res);
	cJSON_Delete(root);
	strbuf_release(&r.path);
	strbuf_release(&r.dropped);
	return ret;
}

int
results_parse(struct results **out, const char *buf, size_t len,
    const char *name)
{
	return parse(out, buf, len, name, false);
}

int
results_parse_strict(struct results **out, const char *buf, size_t len,
    const char *name)
{
	return parse(out, buf, len, name, true);
}

static int
read_file(struct results **out, const char *path, bool strict)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = file_read(&sb, path);

	if (!ret)
		ret = parse(out, sb.buf, sb.len, path, strict);
	else
		*out = NULL;
	strbuf_release(&sb);
	return ret;
}

int
results_read(struct results **out, const char *path)
{
	return read_file(out, path, false);
}

int
results_read_strict(struct results **out, const char *path)
{
	return read_file(out, path, true);
}
