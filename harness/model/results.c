/*
 * results.c: building, searching and freeing the results model (results.h).
 *
 * Everything here is bookkeeping: new elements start "absent" (NAN numbers,
 * RS_UNKNOWN tri-states, NULL strings) so that a source which fills only
 * some fields leaves the rest visibly missing rather than zero, and the
 * free functions walk the same tree in the same shape as the structs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Field names of struct rs_hygiene, which extras may not reuse. */
static const char *const hygiene_fields[] = {
	"battery_pct", "thermal_status", "animator_scale", "transition_scale",
	"window_scale", "screen_on", "unlocked",
};

static const char *const launch_names[] = {
	[RS_LAUNCH_COLD] = "cold",
	[RS_LAUNCH_WARM] = "warm",
	[RS_LAUNCH_HOT] = "hot",
};

void
rs_str_set(char **field, const char *value)
{
	char *copy = value ? xstrdup(value) : NULL;

	/* Copy first: `value` may point into the string being replaced. */
	free(*field);
	*field = copy;
}

static void
drops_init(struct rs_drops *d)
{
	d->best = d->normal = d->middle = d->high = d->frozen = NAN;
}

static void
frames_init(struct rs_frames *f)
{
	memset(f, 0, sizeof(*f));
	f->count = f->janky = f->slow = f->frozen = f->dropped = NAN;
	f->p50_ms = f->p90_ms = f->p95_ms = f->p99_ms = NAN;
}

static void
frames_release(struct rs_frames *f)
{
	for (size_t i = 0; i < f->nr_causes; i++)
		free(f->causes[i].name);
	free(f->causes);
	free(f->histogram);
	free(f->rows);
	free(f->source);
}

static void
block_release(struct rs_block *b)
{
	free(b->source);
	free(b->kind);
	strlist_release(&b->stack);
	free(b->signature);
}

static void
method_release(struct rs_method *m)
{
	free(m->source);
	free(m->name);
}

static void
blocks_free(struct rs_block *blocks, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		block_release(&blocks[i]);
	free(blocks);
}

static void
methods_free(struct rs_method *methods, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		method_release(&methods[i]);
	free(methods);
}

static void
scene_release(struct rs_scene *sc)
{
	free(sc->name);
	strlist_release(&sc->app_scenes);
	frames_release(&sc->frames);
	for (size_t i = 0; i < sc->fps.nr_slices; i++) {
		free(sc->fps.slices[i].source);
		free(sc->fps.slices[i].app_scene);
	}
	free(sc->fps.slices);
	blocks_free(sc->blocks, sc->nr_blocks);
	methods_free(sc->methods, sc->nr_methods);
	for (size_t i = 0; i < sc->nr_inputs; i++)
		free(sc->inputs[i].step);
	free(sc->inputs);
}

static void
iteration_release(struct rs_iteration *it)
{
	free(it->error);
	free(it->logcat_excerpt);
	free(it->test_stack);
	free(it->startup.launch_state);
	for (size_t i = 0; i < it->nr_scenes; i++)
		scene_release(&it->scenes[i]);
	free(it->scenes);
	blocks_free(it->blocks, it->nr_blocks);
	methods_free(it->methods, it->nr_methods);
}

void
results_keep_scenes(struct results *r,
    bool (*keep)(const char *scenario, const char *scene, void *data),
    void *data)
{
	for (size_t s = 0; r && s < r->nr_scenarios; s++) {
		struct rs_scenario *sc = &r->scenarios[s];

		for (size_t i = 0; i < sc->nr_iterations; i++) {
			struct rs_iteration *it = &sc->iterations[i];
			size_t n = 0;

			for (size_t j = 0; j < it->nr_scenes; j++) {
				if (keep(sc->name, it->scenes[j].name, data))
					it->scenes[n++] = it->scenes[j];
				else
					scene_release(&it->scenes[j]);
			}
			it->nr_scenes = n;
		}
	}
}

static void
scenario_release(struct rs_scenario *s)
{
	free(s->name);
	free(s->file);
	free(s->sha256);
	for (size_t i = 0; i < s->nr_iterations; i++)
		iteration_release(&s->iterations[i]);
	free(s->iterations);
}

struct results *
results_new(void)
{
	struct results *r = xcalloc(1, sizeof(*r));

	r->app.version_code = NAN;
	r->device.sdk = r->device.refresh_hz = NAN;
	r->device.width = r->device.height = NAN;
	r->hygiene.battery_pct = r->hygiene.thermal_status = NAN;
	r->hygiene.animator_scale = r->hygiene.transition_scale = NAN;
	r->hygiene.window_scale = NAN;
	r->hygiene.screen_on = r->hygiene.unlocked = RS_UNKNOWN;
	return r;
}

int
results_build_id_check(const char *id)
{
	size_t len = strlen(id);

	if (!len || len > RS_MAX_BUILD_ID)
		return jg_error_set(JG_EINVAL, "build id '%.40s' is %s", id,
		    len ? "too long" : "empty");
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)id[i] < 0x20 || id[i] == 0x7f)
			return jg_error_set(JG_EINVAL, "build id '%.40s' holds "
			    "a line break or control character", id);
	if (id[0] == ' ' || id[len - 1] == ' ')
		return jg_error_set(JG_EINVAL, "build id '%s' starts or ends "
		    "with a space", id);
	return 0;
}

void
results_free(struct results *r)
{
	if (!r)
		return;
	free(r->run.id);
	free(r->run.started);
	free(r->run.finished);
	free(r->run.jankgate_version);
	free(r->run.host);
	strlist_release(&r->run.errors);
	strlist_release(&r->run.planned);
	free(r->app.package);
	free(r->app.version_name);
	free(r->app.apk_sha256);
	free(r->app.build_id);
	strlist_release(&r->app.sources);
	free(r->device.serial);
	free(r->device.manufacturer);
	free(r->device.model);
	free(r->device.release);
	free(r->device.fingerprint);
	free(r->device.abi);
	free(r->device.key);
	for (size_t i = 0; i < r->hygiene.nr_extras; i++) {
		free(r->hygiene.extras[i].key);
		free(r->hygiene.extras[i].string);
	}
	free(r->hygiene.extras);
	for (size_t i = 0; i < r->nr_warnings; i++) {
		free(r->warnings[i].source);
		free(r->warnings[i].scope);
		free(r->warnings[i].message);
	}
	free(r->warnings);
	for (size_t i = 0; i < r->nr_scenarios; i++)
		scenario_release(&r->scenarios[i]);
	free(r->scenarios);
	free(r);
}

struct rs_scenario *
results_add_scenario(struct results *r, const char *name)
{
	struct rs_scenario *s;

	XALLOC_GROW(r->scenarios, r->nr_scenarios + 1, r->alloc_scenarios);
	s = &r->scenarios[r->nr_scenarios++];
	memset(s, 0, sizeof(*s));
	rs_str_set(&s->name, name);
	return s;
}

struct rs_scenario *
results_find_scenario(const struct results *r, const char *name)
{
	for (size_t i = 0; r && name && i < r->nr_scenarios; i++)
		if (r->scenarios[i].name && !strcmp(r->scenarios[i].name, name))
			return &r->scenarios[i];
	return NULL;
}

/* Two optional strings are equal (both NULL counts). */
static int
rs_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

size_t
results_remove_warnings(struct results *r, const char *source,
    const char *prefix)
{
	size_t kept = 0, gone = 0;

	for (size_t i = 0; i < r->nr_warnings; i++) {
		struct rs_warning *w = &r->warnings[i];

		if (rs_same(w->source, source) && w->message &&
		    !strncmp(w->message, prefix, strlen(prefix))) {
			free(w->source);
			free(w->scope);
			free(w->message);
			gone++;
			continue;
		}
		r->warnings[kept++] = *w;
	}
	r->nr_warnings = kept;
	return gone;
}

void
rs_warning_format(struct strbuf *out, const struct rs_warning *w)
{
	if (w->source && *w->source) {
		strbuf_addstr(out, w->source);
		if (w->scope && *w->scope)
			strbuf_addf(out, " in %s", w->scope);
		strbuf_addstr(out, ": ");
	} else if (w->scope && *w->scope) {
		strbuf_addf(out, "%s: ", w->scope);
	}
	strbuf_addstr(out, w->message ? w->message : "");
}

struct rs_warning *
results_add_warning(struct results *r, const char *source, const char *scope,
    const char *message)
{
	struct rs_warning *w;

	for (size_t i = 0; i < r->nr_warnings; i++) {
		w = &r->warnings[i];
		if (rs_same(w->source, source) && rs_same(w->scope, scope) &&
		    rs_same(w->message, message))
			return w;
	}
	XALLOC_GROW(r->warnings, r->nr_warnings + 1, r->alloc_warnings);
	w = &r->warnings[r->nr_warnings++];
	memset(w, 0, sizeof(*w));
	rs_str_set(&w->source, source);
	rs_str_set(&w->scope, scope);
	rs_str_set(&w->message, message);
	return w;
}

struct rs_warning *
results_add_note(struct results *r, const char *source, const char *scope,
    const char *message)
{
	struct rs_warning *w = results_add_warning(r, source, scope, message);

	w->note = true;
	return w;
}

int
rs_hygiene_is_field(const char *key)
{
	for (size_t i = 0; i < sizeof(hygiene_fields) / sizeof(*hygiene_fields);
	    i++)
		if (!strcmp(hygiene_fields[i], key))
			return 1;
	return 0;
}

const struct rs_extra *
rs_hygiene_find(const struct rs_hygiene *h, const char *key)
{
	for (size_t i = 0; i < h->nr_extras; i++)
		if (!strcmp(h->extras[i].key, key))
			return &h->extras[i];
	return NULL;
}

/* The extra named `key`, emptied for a new value, or NULL for a field name. */
static struct rs_extra *
hygiene_slot(struct rs_hygiene *h, const char *key)
{
	struct rs_extra *e = NULL;

	if (rs_hygiene_is_field(key)) {
		jg_error_set(JG_EINVAL,
		    "hygiene key '%s' is a field, not an extra", key);
		return NULL;
	}
	for (size_t i = 0; i < h->nr_extras && !e; i++)
		if (!strcmp(h->extras[i].key, key))
			e = &h->extras[i];
	if (!e) {
		XALLOC_GROW(h->extras, h->nr_extras + 1, h->alloc_extras);
		e = &h->extras[h->nr_extras++];
		memset(e, 0, sizeof(*e));
		e->key = xstrdup(key);
	}
	rs_str_set(&e->string, NULL);
	e->number = 0;
	e->type = RS_VALUE_NULL;
	return e;
}

int
rs_hygiene_set_string(struct rs_hygiene *h, const char *key,
    const char *value)
{
	struct rs_extra *e = hygiene_slot(h, key);

	if (!e)
		return JG_EINVAL;
	if (value) {
		e->type = RS_VALUE_STRING;
		e->string = xstrdup(value);
	}
	return 0;
}

int
rs_hygiene_set_number(struct rs_hygiene *h, const char *key, double value)
{
	struct rs_extra *e = hygiene_slot(h, key);

	if (!e)
		return JG_EINVAL;
	if (!isnan(value)) {
		e->type = RS_VALUE_NUMBER;
		e->number = value;
	}
	return 0;
}

int
rs_hygiene_set_bool(struct rs_hygiene *h, const char *key, bool value)
{
	struct rs_extra *e = hygiene_slot(h, key);

	if (!e)
		return JG_EINVAL;
	e->type = RS_VALUE_BOOL;
	e->number = value ? 1 : 0;
	return 0;
}

int
results_next_session(const struct results *r)
{
	int next = 0;

	for (size_t i = 0; i < r->nr_scenarios; i++)
		for (size_t k = 0; k < r->scenarios[i].nr_iterations; k++)
			if (r->scenarios[i].iterations[k].session >= next)
				next = r->scenarios[i].iterations[k].session +
				    1;
	return next;
}

struct rs_iteration *
rs_scenario_add_iteration(struct rs_scenario *s, bool warmup)
{
	struct rs_iteration *it;

	XALLOC_GROW(s->iterations, s->nr_iterations + 1, s->alloc_iterations);
	it = &s->iterations[s->nr_iterations];
	memset(it, 0, sizeof(*it));
	it->index = (int)s->nr_iterations++;
	it->warmup = warmup;
	it->started_mono_ms = it->duration_ms = NAN;
	it->startup.total_ms = it->startup.wait_ms = NAN;
	it->startup.displayed_ms = it->startup.fully_drawn_ms = NAN;
	it->startup.matrix.application_create_ms = NAN;
	it->startup.matrix.first_activity_create_ms = NAN;
	it->startup.matrix.startup_duration_ms = NAN;
	it->startup.matrix.warm = RS_UNKNOWN;
	return it;
}

void
rs_scenario_scene_names(const struct rs_scenario *s, struct strlist *out)
{
	struct strlist seen = STRLIST_INIT;

	for (size_t i = 0; i < s->nr_iterations; i++) {
		const struct rs_iteration *it = &s->iterations[i];

		for (size_t j = 0; j < it->nr_scenes; j++) {
			const char *name = it->scenes[j].name;

			if (!name || strlist_find(&seen, name) >= 0)
				continue;
			strlist_add(&seen, name);
			strlist_add(out, name);
		}
	}
	strlist_release(&seen);
}

struct rs_scene *
rs_iteration_add_scene(struct rs_iteration *it, const char *name)
{
	struct rs_scene *sc;

	XALLOC_GROW(it->scenes, it->nr_scenes + 1, it->alloc_scenes);
	sc = &it->scenes[it->nr_scenes++];
	memset(sc, 0, sizeof(*sc));
	rs_str_set(&sc->name, name);
	sc->start_mono_ms = sc->end_mono_ms = NAN;
	frames_init(&sc->frames);
	sc->fps.value = NAN;
	rs_phases_init(&sc->phases);
	rs_jank_types_init(&sc->jank_types);
	return sc;
}

struct rs_scene *
rs_iteration_find_scene(const struct rs_iteration *it, const char *name)
{
	for (size_t i = 0; i < it->nr_scenes; i++)
		if (it->scenes[i].name && !strcmp(it->scenes[i].name, name))
			return &it->scenes[i];
	return NULL;
}

struct rs_scene *
rs_iteration_scene_at(const struct rs_iteration *it, double mono_ms,
    double grace_ms)
{
	struct rs_scene *late = NULL;

	/*
	 * A window that holds the event wins over a grace period, so a late
	 * report never steals an event from the scene that follows.
	 */
	for (size_t i = 0; i < it->nr_scenes; i++) {
		struct rs_scene *sc = &it->scenes[i];

		if (isnan(sc->start_mono_ms) || isnan(sc->end_mono_ms))
			continue;
		if (mono_ms >= sc->start_mono_ms && mono_ms <= sc->end_mono_ms)
			return sc;
		if (mono_ms > sc->end_mono_ms &&
		    mono_ms - sc->end_mono_ms <= grace_ms &&
		    (!late || sc->end_mono_ms > late->end_mono_ms))
			late = sc;
	}
	return late;
}

static struct rs_block *
block_append(struct rs_block **arr, size_t *nr, size_t *alloc,
    const char *source)
{
	struct rs_block *b;

	XALLOC_GROW(*arr, *nr + 1, *alloc);
	b = &(*arr)[(*nr)++];
	memset(b, 0, sizeof(*b));
	rs_str_set(&b->source, source);
	b->start_mono_ms = b->wall_ms = b->thread_ms = NAN;
	b->cpu_busy = RS_UNKNOWN;
	return b;
}

static struct rs_method *
method_append(struct rs_method **arr, size_t *nr, size_t *alloc,
    const char *source, const char *name)
{
	struct rs_method *m;

	XALLOC_GROW(*arr, *nr + 1, *alloc);
	m = &(*arr)[(*nr)++];
	memset(m, 0, sizeof(*m));
	rs_str_set(&m->source, source);
	rs_str_set(&m->name, name);
	m->cost_ms = NAN;
	m->main_thread = RS_UNKNOWN;
	return m;
}

struct rs_block *
rs_scene_add_block(struct rs_scene *sc, const char *source)
{
	return block_append(&sc->blocks, &sc->nr_blocks, &sc->alloc_blocks,
	    source);
}

struct rs_method *
rs_scene_add_method(struct rs_scene *sc, const char *source, const char *name)
{
	return method_append(&sc->methods, &sc->nr_methods,
	    &sc->alloc_methods, source, name);
}

struct rs_block *
rs_iteration_add_block(struct rs_iteration *it, const char *source)
{
	return block_append(&it->blocks, &it->nr_blocks, &it->alloc_blocks,
	    source);
}

struct rs_method *
rs_iteration_add_method(struct rs_iteration *it, const char *source,
    const char *name)
{
	return method_append(&it->methods, &it->nr_methods,
	    &it->alloc_methods, source, name);
}

struct rs_fps_slice *
rs_fps_add_slice(struct rs_fps *fps, const char *source)
{
	struct rs_fps_slice *s;

	XALLOC_GROW(fps->slices, fps->nr_slices + 1, fps->alloc_slices);
	s = &fps->slices[fps->nr_slices++];
	memset(s, 0, sizeof(*s));
	rs_str_set(&s->source, source);
	s->fps = NAN;
	drops_init(&s->drop_level);
	drops_init(&s->drop_sum);
	rs_phase_means_init(&s->phases);
	return s;
}

void
rs_frames_add_bucket(struct rs_frames *f, uint32_t ms, uint64_t count)
{
	size_t i = f->nr_histogram;

	f->present = true;
	if (!count)
		return;
	/* Sources add in ascending order, so the search is usually one step. */
	while (i > 0 && f->histogram[i - 1].ms > ms)
		i--;
	if (i > 0 && f->histogram[i - 1].ms == ms) {
		f->histogram[i - 1].count += count;
		return;
	}
	XALLOC_GROW(f->histogram, f->nr_histogram + 1, f->alloc_histogram);
	memmove(&f->histogram[i + 1], &f->histogram[i],
	    (f->nr_histogram - i) * sizeof(*f->histogram));
	f->histogram[i].ms = ms;
	f->histogram[i].count = count;
	f->nr_histogram++;
}

void
rs_frames_add_cause(struct rs_frames *f, const char *name, uint64_t count)
{
	for (size_t i = 0; i < f->nr_causes; i++) {
		if (!strcmp(f->causes[i].name, name)) {
			f->present = true;
			f->causes[i].count += count;
			return;
		}
	}
	rs_frames_append_cause(f, name, count);
}

void
rs_frames_append_cause(struct rs_frames *f, const char *name,
    uint64_t count)
{
	struct rs_cause *c;

	f->present = true;
	XALLOC_GROW(f->causes, f->nr_causes + 1, f->alloc_causes);
	c = &f->causes[f->nr_causes++];
	c->name = xstrdup(name);
	c->count = count;
}

uint64_t
rs_frames_cause(const struct rs_frames *f, const char *name)
{
	for (size_t i = 0; i < f->nr_causes; i++)
		if (!strcmp(f->causes[i].name, name))
			return f->causes[i].count;
	return 0;
}

int
rs_frames_claim(struct rs_frames *f, const char *source)
{
	if (f->source)
		return strcmp(f->source, source) ? -1 : 0;
	if (f->present)
		return -1;	/* filled by a reader that did not say */
	f->source = xstrdup(source);
	return 0;
}

struct rs_frame_row *
rs_frames_add_row(struct rs_frames *f)
{
	struct rs_frame_row *row;

	f->present = true;
	XALLOC_GROW(f->rows, f->nr_rows + 1, f->alloc_rows);
	row = &f->rows[f->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->janky = RS_UNKNOWN;
	return row;
}

uint64_t
rs_frames_histogram_total(const struct rs_frames *f)
{
	return rs_frames_histogram_at_least(f, 0);
}

uint64_t
rs_frames_histogram_at_least(const struct rs_frames *f, uint32_t min_ms)
{
	uint64_t n = 0;

	for (size_t i = 0; i < f->nr_histogram; i++)
		if (f->histogram[i].ms >= min_ms)
			n += f->histogram[i].count;
	return n;
}

const char *
rs_launch_name(enum rs_launch kind)
{
	if (kind <= RS_LAUNCH_NONE || kind > RS_LAUNCH_HOT)
		return NULL;
	return launch_names[kind];
}

int
rs_launch_parse(const char *name, enum rs_launch *out)
{
	for (int k = RS_LAUNCH_COLD; k <= RS_LAUNCH_HOT; k++) {
		if (!strcmp(name, launch_names[k])) {
			*out = (enum rs_launch)k;
			return 0;
		}
	}
	return jg_error_set(JG_EINVAL,
	    "unknown launch kind '%s' (expected cold, warm or hot)", name);
}
