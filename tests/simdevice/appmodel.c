/*
 * appmodel.c: reading an app model from JSON.
 *
 * The reader is strict on purpose: unknown keys, wrong types and values out
 * of range are errors that name the key path, because a typo in a model
 * would otherwise silently become a default and a test would measure the
 * wrong app.  Defaults exist for everything but the identity;
 * APPMODEL.md lists them.  Frame costs fall back from the activity's kind
 * to the activity's "default", then to the model-wide "frames" (kind, then
 * default), then to a built-in light frame.  The typed member readers
 * live in appmodel_json.c, the library set in appmodel_libs.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "appmodel.h"
#include "appmodel_json.h"
#include "error.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* A frame that fits easily in any refresh period. */
static const struct appmodel_dist builtin_frame = { 6.0, 0.2, 0.0, 0.0,
    { 0 } };

static const char *const kind_names[] = { "scroll", "tap", "launch", "any" };

const char *
appmodel_kind_name(enum appmodel_kind k)
{
	return k <= APPMODEL_ANY ? kind_names[k] : "?";
}

static int
parse_kind(const cJSON *obj, const char *where, enum appmodel_kind def,
    enum appmodel_kind *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, "on");
	int k;

	*out = def;
	if (!j)
		return 0;
	for (k = 0; cJSON_IsString(j) && k <= APPMODEL_ANY; k++)
		if (!strcmp(j->valuestring, kind_names[k])) {
			*out = (enum appmodel_kind)k;
			return 0;
		}
	return jg_error_set(JG_EINVAL, "%s.on: expected \"scroll\", "
	    "\"tap\", \"launch\" or \"any\"", where);
}

/* ".Foo" and "Foo" are relative to the package, "a.b.Foo" is full. */
static char *
full_class(const char *pkg, const char *name)
{
	if (name[0] == '.')
		return xasprintf("%s%s", pkg, name);
	if (!strchr(name, '.'))
		return xasprintf("%s.%s", pkg, name);
	return xstrdup(name);
}

/* Names of "phase_ms" keys, in enum appmodel_phase order. */
static const char *const phase_keys[] = {
	"input", "animation", "layout", "draw", "sync", "command", "swap",
	NULL
};

/* "phase_ms": {"layout": 2.5}: a fixed cost added to a phase. */
static int
parse_phase_ms(const cJSON *j, const char *where, struct appmodel_dist *d)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, "phase_ms");
	char *w;
	int ret = 0;

	for (int p = 0; p < APPMODEL_NR_PHASES; p++)
		d->phase_ms[p] = 0;
	if (!o)
		return 0;
	w = xasprintf("%s.phase_ms", where);
	if (!cJSON_IsObject(o))
		ret = jg_error_set(JG_EINVAL, "app model: %s: expected an "
		    "object", w);
	if (!ret)
		ret = appmodel_jcheck(o, phase_keys, w);
	for (int p = 0; !ret && p < APPMODEL_NR_PHASES; p++)
		ret = appmodel_jnum(o, phase_keys[p], w, 0, 0, 60000,
		    &d->phase_ms[p]);
	free(w);
	return ret;
}

static int
parse_dist(const cJSON *j, const char *where, struct appmodel_dist *d)
{
	static const char *const keys[] = {
		"median_ms", "sigma", "spike_p", "spike_ms", "phase_ms", NULL
	};
	int ret;

	if ((ret = appmodel_jcheck(j, keys, where)))
		return ret;
	if ((ret = appmodel_jnum(j, "median_ms", where, NAN, 0.1, 60000,
	    &d->median_ms)) ||
	    (ret = appmodel_jnum(j, "sigma", where, 0.2, 0, 3, &d->sigma)) ||
	    (ret = appmodel_jnum(j, "spike_p", where, 0, 0, 1, &d->spike_p)) ||
	    (ret = appmodel_jnum(j, "spike_ms", where, 0, 0, 60000,
	    &d->spike_ms)) ||
	    (ret = parse_phase_ms(j, where, d)))
		return ret;
	return 0;
}

/*
 * Read a "frames" object into d[kind]; set[kind] says which were given.
 * Index APPMODEL_NR_KINDS holds "default".
 */
static int
parse_frames(const cJSON *j, const char *where,
    struct appmodel_dist d[APPMODEL_NR_KINDS + 1],
    int set[APPMODEL_NR_KINDS + 1])
{
	static const char *const keys[] = {
		"scroll", "tap", "launch", "default", NULL
	};
	int k, ret;

	memset(set, 0, sizeof(int) * (APPMODEL_NR_KINDS + 1));
	if (!j)
		return 0;
	if ((ret = appmodel_jcheck(j, keys, where)))
		return ret;
	for (k = 0; k <= APPMODEL_NR_KINDS; k++) {
		const char *name = k < APPMODEL_NR_KINDS ? kind_names[k] :
		    "default";
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);
		char *w;

		if (!v)
			continue;
		w = xasprintf("%s.%s", where, name);
		ret = parse_dist(v, w, &d[k]);
		free(w);
		if (ret)
			return ret;
		set[k] = 1;
	}
	return 0;
}

static int
parse_string_array(const cJSON *obj, const char *key, const char *where,
    char ***out, size_t *nr)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key), *v;

	*out = NULL;
	*nr = 0;
	if (!j)
		return 0;
	if (!cJSON_IsArray(j))
		return jg_error_set(JG_EINVAL, "%s.%s: expected an array",
		    where, key);
	*out = xcalloc((size_t)cJSON_GetArraySize(j) + 1, sizeof(char *));
	cJSON_ArrayForEach(v, j) {
		if (!cJSON_IsString(v))
			return jg_error_set(JG_EINVAL,
			    "%s.%s: expected strings", where, key);
		(*out)[(*nr)++] = xstrdup(v->valuestring);
	}
	return 0;
}

static int
parse_block(const cJSON *j, const char *where, void *elem, const void *arg)
{
	struct appmodel_block *b = elem;
	static const char *const keys[] = {
		"on", "p", "ms", "sigma", "thread_ratio", "stack", "methods",
		NULL
	};
	const cJSON *ids, *v;
	int ret;

	if ((ret = appmodel_jcheck(j, keys, where)))
		return ret;
	if ((ret = parse_kind(j, where, APPMODEL_ANY, &b->on)) ||
	    (ret = appmodel_jnum(j, "p", where, NAN, 0, 1, &b->p)) ||
	    (ret = appmodel_jnum(j, "ms", where, NAN, 1, 600000, &b->ms)) ||
	    (ret = appmodel_jnum(j, "sigma", where, 0.1, 0, 3, &b->sigma)) ||
	    (ret = appmodel_jnum(j, "thread_ratio", where, 0.95, 0, 1,
	    &b->thread_ratio)) ||
	    (ret = parse_string_array(j, "stack", where, &b->stack,
	    &b->nr_stack)))
		return ret;
	if (!b->nr_stack)
		return jg_error_set(JG_EINVAL, "%s: a block needs a 'stack'",
		    where);
	ids = cJSON_GetObjectItemCaseSensitive(j, "methods");
	if (!ids)
		return 0;
	if (!cJSON_IsArray(ids))
		return jg_error_set(JG_EINVAL, "%s.methods: expected an array "
		    "of Matrix method ids", where);
	b->method_ids = xcalloc((size_t)cJSON_GetArraySize(ids) + 1,
	    sizeof(int));
	cJSON_ArrayForEach(v, ids) {
		if (!cJSON_IsNumber(v) || v->valuedouble < 1 ||
		    v->valuedouble > 1048573)
			return jg_error_set(JG_EINVAL, "%s.methods: method ids "
			    "are integers from 1 to 1048573", where);
		b->method_ids[b->nr_method_ids++] = (int)v->valuedouble;
	}
	return 0;
}

static int
parse_method(const cJSON *j, const char *where, void *elem, const void *arg)
{
	struct appmodel_method *m = elem;
	static const char *const keys[] = {
		"name", "on", "ms", "sigma", "main", NULL
	};
	int ret;

	if ((ret = appmodel_jcheck(j, keys, where)))
		return ret;
	if ((ret = appmodel_jstr(j, "name", where, NULL, &m->name)) ||
	    (ret = parse_kind(j, where, APPMODEL_ANY, &m->on)) ||
	    (ret = appmodel_jnum(j, "ms", where, NAN, 0, 600000, &m->ms)) ||
	    (ret = appmodel_jnum(j, "sigma", where, 0.2, 0, 3, &m->sigma)) ||
	    (ret = appmodel_jbool(j, "main", where, 1, &m->main_thread)))
		return ret;
	return 0;
}

/* `arg` is the package name, for relative "open" targets. */
static int
parse_element(const cJSON *j, const char *where, void *elem, const void *arg)
{
	struct appmodel_element *e = elem;
	const char *pkg = arg;
	static const char *const keys[] = {
		"text", "id", "desc", "bounds", "tap", NULL
	};
	const cJSON *tap;
	int ret;

	if ((ret = appmodel_jcheck(j, keys, where)))
		return ret;
	if ((ret = appmodel_jstr(j, "text", where, "", &e->text)) ||
	    (ret = appmodel_jstr(j, "id", where, "", &e->id)) ||
	    (ret = appmodel_jstr(j, "desc", where, "", &e->desc)) ||
	    (ret = appmodel_jbounds(j, "bounds", where, e->bounds)))
		return ret;
	tap = cJSON_GetObjectItemCaseSensitive(j, "tap");
	if (!tap || (cJSON_IsString(tap) && !strcmp(tap->valuestring, "none")))
		e->tap = APPMODEL_TAP_NONE;
	else if (cJSON_IsString(tap) && !strcmp(tap->valuestring, "back"))
		e->tap = APPMODEL_TAP_BACK;
	else if (cJSON_IsObject(tap) && cJSON_GetArraySize(tap) == 1 &&
	    cJSON_IsString(cJSON_GetObjectItemCaseSensitive(tap, "open"))) {
		e->tap = APPMODEL_TAP_OPEN;
		e->target = full_class(pkg,
		    cJSON_GetObjectItemCaseSensitive(tap, "open")->valuestring);
	} else
		return jg_error_set(JG_EINVAL, "%s.tap: expected \"back\", "
		    "\"none\" or {\"open\": ACTIVITY}", where);
	return 0;
}

static int
parse_scroll(const cJSON *j, const char *where, struct appmodel_activity *a)
{
	static const char *const keys[] = {
		"bounds", "content_px", "fling_ms", NULL
	};
	long long content;
	int ret;

	a->fling_ms = 900;
	if (!j)
		return 0;
	if ((ret = appmodel_jcheck(j, keys, where)))
		return ret;
	if ((ret = appmodel_jbounds(j, "bounds", where, a->scroll_bounds)) ||
	    (ret = appmodel_jint(j, "content_px", where, NAN, 1, 10000000,
	    &content)) ||
	    (ret = appmodel_jnum(j, "fling_ms", where, 900, 0, 10000,
	    &a->fling_ms)))
		return ret;
	a->content_px = (int)content;
	a->scrollable = 1;
	return 0;
}

typedef int parse_fn(const cJSON *j, const char *where, void *elem,
    const void *arg);

/*
 * Parse each item of array member `key` with `fn` into a fresh array of
 * `size`-byte elements, returned with its length in *nr; absent means
 * empty.  On error *ret is set, and the array (partly filled, so its
 * owner can free it) is still returned unless the member is not an array.
 */
static void *
parse_array(const cJSON *obj, const char *key, const char *where,
    size_t size, size_t *nr, parse_fn *fn, const void *arg, int *ret)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key), *it;
	char *arr;

	*ret = 0;
	if (a && !cJSON_IsArray(a)) {
		*ret = jg_error_set(JG_EINVAL, "%s.%s: expected an array",
		    where, key);
		return NULL;
	}
	arr = xcalloc((size_t)cJSON_GetArraySize(a) + 1, size);
	cJSON_ArrayForEach(it, a) {
		char *w = xasprintf("%s.%s[%zu]", where, key, *nr);

		*ret = fn(it, w, arr + *nr * size, arg);
		(*nr)++;
		free(w);
		if (*ret)
			break;
	}
	return arr;
}

static int
parse_activity(const cJSON *j, const char *where, const char *pkg,
    const struct appmodel_dist model_frames[APPMODEL_NR_KINDS + 1],
    const int model_set[APPMODEL_NR_KINDS + 1],
    struct appmodel_activity *a)
{
	static const char *const keys[] = {
		"name", "frames", "scroll", "elements", "blocks", "methods",
		"marks", "marks_by", NULL
	};
	struct appmodel_dist d[APPMODEL_NR_KINDS + 1];
	int set[APPMODEL_NR_KINDS + 1];
	char *name, *w;
	int k, ret;

	if ((ret = appmodel_jcheck(j, keys, where)))
		return ret;
	if ((ret = appmodel_jstr(j, "name", where, NULL, &name)))
		return ret;
	a->name = full_class(pkg, name);
	free(name);

	w = xasprintf("%s.frames", where);
	ret = parse_frames(cJSON_GetObjectItemCaseSensitive(j, "frames"), w,
	    d, set);
	free(w);
	if (ret)
		return ret;
	for (k = 0; k < APPMODEL_NR_KINDS; k++) {
		if (set[k])
			a->frames[k] = d[k];
		else if (set[APPMODEL_NR_KINDS])
			a->frames[k] = d[APPMODEL_NR_KINDS];
		else if (model_set[k])
			a->frames[k] = model_frames[k];
		else if (model_set[APPMODEL_NR_KINDS])
			a->frames[k] = model_frames[APPMODEL_NR_KINDS];
		else
			a->frames[k] = builtin_frame;
	}

	w = xasprintf("%s.scroll", where);
	ret = parse_scroll(cJSON_GetObjectItemCaseSensitive(j, "scroll"), w, a);
	free(w);
	if (ret)
		return ret;

	a->elements = parse_array(j, "elements", where, sizeof(*a->elements),
	    &a->nr_elements, parse_element, pkg, &ret);
	if (ret)
		return ret;
	a->blocks = parse_array(j, "blocks", where, sizeof(*a->blocks),
	    &a->nr_blocks, parse_block, NULL, &ret);
	if (ret)
		return ret;
	a->methods = parse_array(j, "methods", where, sizeof(*a->methods),
	    &a->nr_methods, parse_method, NULL, &ret);
	if (!ret && cJSON_GetObjectItemCaseSensitive(j, "marks"))
		ret = appmodel_jstr(j, "marks", where, NULL, &a->marks);
	if (!ret && cJSON_GetObjectItemCaseSensitive(j, "marks_by")) {
		char *by = NULL;

		ret = appmodel_jstr(j, "marks_by", where, NULL, &by);
		if (!ret && !strcmp(by, "log"))
			a->marks_by = APPMODEL_MARKS_LOG;
		else if (!ret && !strcmp(by, "trace"))
			a->marks_by = APPMODEL_MARKS_TRACE;
		else if (!ret && !strcmp(by, "async"))
			a->marks_by = APPMODEL_MARKS_ASYNC;
		else if (!ret)
			ret = jg_error_set(JG_EINVAL, "%s: marks_by: expected "
			    "\"log\", \"trace\" or \"async\", got \"%s\"",
			    where, by);
		free(by);
	}
	return ret;
}

static const cJSON *
member(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static int
parse_startup(const cJSON *j, struct appmodel_startup *s)
{
	static const char *const keys[] = {
		"cold_ms", "warm_ms", "hot_ms", "application_create_ms",
		"first_activity_ms", "fully_drawn_ms", "sigma", NULL
	};
	const char *w = "startup";
	int ret;

	if (j && (ret = appmodel_jcheck(j, keys, w)))
		return ret;
	/* cJSON_GetObjectItem(NULL, ...) is NULL, so defaults apply. */
	if ((ret = appmodel_jnum(j, "cold_ms", w, 800, 1, 600000,
	    &s->cold_ms)) ||
	    (ret = appmodel_jnum(j, "warm_ms", w, 350, 1, 600000,
	    &s->warm_ms)) ||
	    (ret = appmodel_jnum(j, "hot_ms", w, 120, 1, 600000,
	    &s->hot_ms)) ||
	    (ret = appmodel_jnum(j, "application_create_ms", w,
	    s->cold_ms * 0.3, 0, 600000, &s->app_create_ms)) ||
	    (ret = appmodel_jnum(j, "first_activity_ms", w, s->cold_ms * 0.5,
	    0, 600000, &s->first_activity_ms)) ||
	    (ret = appmodel_jnum(j, "fully_drawn_ms", w, 0, 0, 600000,
	    &s->fully_drawn_ms)) ||
	    (ret = appmodel_jnum(j, "sigma", w, 0.08, 0, 3, &s->sigma)))
		return ret;
	/* What is left of cold_ms is process creation and binding. */
	if (s->app_create_ms + s->first_activity_ms > s->cold_ms)
		return jg_error_set(JG_EINVAL, "startup: application_create_ms "
		    "+ first_activity_ms exceed cold_ms");
	return 0;
}

static int
parse_model(const cJSON *root, struct appmodel *m)
{
	static const char *const keys[] = {
		"package", "versionName", "versionCode", "debuggable",
		"process", "launcher", "libraries", "startup", "frames",
		"activities", NULL
	};
	struct appmodel_dist frames[APPMODEL_NR_KINDS + 1];
	int set[APPMODEL_NR_KINDS + 1];
	const cJSON *acts, *it;
	const char *w = "model";
	char *launcher = NULL;
	int ret;

	if ((ret = appmodel_jcheck(root, keys, w)))
		return ret;
	if ((ret = appmodel_jstr(root, "package", w, NULL, &m->package)) ||
	    (ret = appmodel_jstr(root, "versionName", w, NULL,
	    &m->version_name)) ||
	    (ret = appmodel_jint(root, "versionCode", w, NAN, 1, 2100000000,
	    &m->version_code)) ||
	    (ret = appmodel_jbool(root, "debuggable", w, 0,
	    &m->debuggable)) ||
	    (ret = appmodel_jstr(root, "process", w, m->package,
	    &m->process)) ||
	    (ret = appmodel_parse_libraries(member(root, "libraries"),
	    &m->libs)) ||
	    (ret = parse_startup(member(root, "startup"), &m->startup)) ||
	    (ret = parse_frames(member(root, "frames"), "frames", frames,
	    set)))
		return ret;

	acts = cJSON_GetObjectItemCaseSensitive(root, "activities");
	if (!acts) {
		/* An identity-only model still has a screen to launch. */
		cJSON *main = cJSON_CreateObject();

		cJSON_AddStringToObject(main, "name", ".MainActivity");
		m->activities = xcalloc(1, sizeof(*m->activities));
		m->nr_activities = 1;
		ret = parse_activity(main, "activities[0]", m->package,
		    frames, set, &m->activities[0]);
		cJSON_Delete(main);
		if (ret)
			return ret;
	} else if (!cJSON_IsArray(acts) || !cJSON_GetArraySize(acts))
		return jg_error_set(JG_EINVAL,
		    "model: 'activities' must be a non-empty array");
	else
		m->activities = xcalloc((size_t)cJSON_GetArraySize(acts),
		    sizeof(*m->activities));
	cJSON_ArrayForEach(it, acts) {
		char *path = xasprintf("activities[%zu]", m->nr_activities);

		ret = parse_activity(it, path, m->package, frames, set,
		    &m->activities[m->nr_activities++]);
		free(path);
		if (ret)
			return ret;
	}

	/* null: no MAIN/LAUNCHER filter at all (started by name only). */
	if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(root, "launcher")))
		return 0;
	if ((ret = appmodel_jstr(root, "launcher", w,
	    m->activities[0].name, &launcher)))
		return ret;
	m->launcher = full_class(m->package, launcher);
	free(launcher);
	if (!appmodel_activity(m, m->launcher))
		return jg_error_set(JG_EINVAL, "model: launcher '%s' is not "
		    "an activity", m->launcher);
	return 0;
}

/* Every "open" target must be an activity of the model. */
static int
check_targets(const struct appmodel *m)
{
	size_t i, k;

	for (i = 0; i < m->nr_activities; i++) {
		const struct appmodel_activity *a = &m->activities[i];

		for (k = 0; k < a->nr_elements; k++)
			if (a->elements[k].target &&
			    !appmodel_activity(m, a->elements[k].target))
				return jg_error_set(JG_EINVAL,
				    "activities[%zu].elements[%zu].tap: "
				    "no activity '%s'", i, k,
				    a->elements[k].target);
	}
	return 0;
}

int
appmodel_parse(struct appmodel **out, const char *json, size_t len)
{
	cJSON *root = cJSON_ParseWithLength(json, len);
	struct appmodel *m;
	int ret;

	*out = NULL;
	if (!root)
		return jg_error_set(JG_EINVAL, "app model is not valid JSON");
	m = xcalloc(1, sizeof(*m));
	ret = parse_model(root, m);
	if (!ret)
		ret = check_targets(m);
	cJSON_Delete(root);
	if (ret) {
		appmodel_free(m);
		return jg_error_prefix("app model");
	}
	*out = m;
	return 0;
}

/* Does a JSON object with a "package" member start at p? */
static int
is_model_at(const char *p, size_t len, size_t *objlen)
{
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(p, len, &end, 0);
	int ok = cJSON_IsObject(j) &&
	    cJSON_GetObjectItemCaseSensitive(j, "package") != NULL;

	if (ok)
		*objlen = (size_t)(end - p);
	cJSON_Delete(j);
	return ok;
}

int
appmodel_from_apk(struct appmodel **out, const void *apk, size_t len)
{
	const char *p = apk, *end = p + len;
	size_t objlen;

	*out = NULL;
	/* Bounded scan: a large binary without a model fails quickly. */
	for (int tries = 0; tries < 4096 && p < end; tries++, p++) {
		p = memchr(p, '{', (size_t)(end - p));
		if (!p)
			break;
		if (is_model_at(p, (size_t)(end - p), &objlen))
			return appmodel_parse(out, p, objlen);
	}
	return jg_error_set(JG_EINVAL,
	    "no app model (a JSON object with \"package\") in the APK");
}

int
appmodel_load(struct appmodel **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	*out = NULL;
	if ((ret = file_read(&sb, path)))
		return ret;
	ret = appmodel_from_apk(out, sb.buf, sb.len);
	strbuf_release(&sb);
	if (ret)
		return jg_error_prefix("'%s'", path);
	return 0;
}

static void
free_strings(char **v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

static void
activity_release(struct appmodel_activity *a)
{
	size_t i;

	free(a->name);
	free(a->marks);
	for (i = 0; i < a->nr_elements; i++) {
		free(a->elements[i].text);
		free(a->elements[i].id);
		free(a->elements[i].desc);
		free(a->elements[i].target);
	}
	free(a->elements);
	for (i = 0; i < a->nr_blocks; i++) {
		free_strings(a->blocks[i].stack, a->blocks[i].nr_stack);
		free(a->blocks[i].method_ids);
	}
	free(a->blocks);
	for (i = 0; i < a->nr_methods; i++)
		free(a->methods[i].name);
	free(a->methods);
}

void
appmodel_free(struct appmodel *m)
{
	size_t i;

	if (!m)
		return;
	free(m->package);
	free(m->version_name);
	free(m->process);
	free(m->launcher);
	free(m->libs.perf_tag);
	for (i = 0; i < m->nr_activities; i++)
		activity_release(&m->activities[i]);
	free(m->activities);
	free(m);
}

const struct appmodel_activity *
appmodel_activity(const struct appmodel *m, const char *name)
{
	char *full;
	size_t i;

	if (!name)
		return NULL;
	full = full_class(m->package, name);
	for (i = 0; i < m->nr_activities; i++)
		if (!strcmp(m->activities[i].name, full)) {
			free(full);
			return &m->activities[i];
		}
	free(full);
	return NULL;
}

static int
scale(int v, int to, int from)
{
	return (int)(((long long)v * to + from / 2) / from);
}

static void
fit_bounds(int *b, int width, int height)
{
	b[0] = scale(b[0], width, APPMODEL_LAYOUT_W);
	b[2] = scale(b[2], width, APPMODEL_LAYOUT_W);
	b[1] = scale(b[1], height, APPMODEL_LAYOUT_H);
	b[3] = scale(b[3], height, APPMODEL_LAYOUT_H);
}

void
appmodel_fit(struct appmodel *m, int width, int height)
{
	if (width <= 0 || height <= 0)
		return;
	for (size_t i = 0; i < m->nr_activities; i++) {
		struct appmodel_activity *a = &m->activities[i];

		for (size_t j = 0; j < a->nr_elements; j++)
			fit_bounds(a->elements[j].bounds, width, height);
		fit_bounds(a->scroll_bounds, width, height);
		a->content_px = scale(a->content_px, height,
		    APPMODEL_LAYOUT_H);
	}
}

const struct appmodel_element *
appmodel_element_at(const struct appmodel_activity *a, int x, int y)
{
	const struct appmodel_element *hit = NULL;
	size_t i;

	for (i = 0; i < a->nr_elements; i++) {
		const int *b = a->elements[i].bounds;

		if (x >= b[0] && x < b[2] && y >= b[1] && y < b[3])
			hit = &a->elements[i];
	}
	return hit;
}

void
appmodel_short_component(struct strbuf *out, const char *pkg,
    const char *cls)
{
	size_t n = strlen(pkg);

	strbuf_addf(out, "%s/", pkg);
	if (!strncmp(cls, pkg, n) && cls[n] == '.')
		strbuf_addstr(out, cls + n);
	else
		strbuf_addstr(out, cls);
}
