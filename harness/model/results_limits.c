/*
 * results_limits.c: the limits of results.h ("Limits"), held where values
 * enter a results file and where they leave for one.
 *
 * results_read.c holds a file's numbers to them as it reads (refusing or
 * making absent); results_hold_limits() holds a model's before
 * results_write() puts it on disk, so that what jankgate writes itself,
 * from whatever a device printed, always passes the strict readers of
 * check, compare and report.  Both say what they made absent in one
 * warning, and both cut free text the same way.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "results_json_int.h"
#include "strbuf.h"
#include "banned.h"

const struct field_limit *
field_limit_of(enum field_kind kind)
{
	static const struct field_limit ms = {
		"a duration", 0, RS_MAX_DURATION_MS, "0 to 3600000 ms"
	}, long_ms = {
		"an iteration's duration", 0, RS_MAX_ITERATION_MS,
		"0 to 86400000 ms"
	}, mono = {
		"a monotonic time", -RS_MAX_MONO_MS, RS_MAX_MONO_MS,
		"within +-2^53 ms"
	}, count = {
		"a count", 0, RS_MAX_COUNT, "0 to 2^53"
	}, fps = {
		"a frame rate", 0, RS_MAX_FPS, "0 to 1000 fps"
	};

	switch (kind) {
	case FK_MS: return &ms;
	case FK_LONG_MS: return &long_ms;
	case FK_MONO: return &mono;
	case FK_COUNT: return &count;
	case FK_FPS: return &fps;
	default: return NULL;
	}
}

int
field_limit_holds(const struct field_limit *lim, double v)
{
	return isfinite(v) && v >= lim->lo && v <= lim->hi;
}

void
field_limit_say(struct strbuf *out, const char *name, const char *path,
    double v, const struct field_limit *lim)
{
	strbuf_addf(out, "%s: %s: %.15g is not %s (%s)", name, path, v,
	    lim->what, lim->range);
}

void
field_limit_note(struct results *r, const char *first, size_t nr,
    const char *how)
{
	struct strbuf msg = STRBUF_INIT;

	strbuf_addf(&msg, "%s; %s", first, how);
	if (nr > 1)
		strbuf_addf(&msg, ", and %zu more value%s out of %s limits",
		    nr - 1, nr > 2 ? "s" : "", nr > 2 ? "their" : "its");
	results_add_warning(r, NULL, NULL, msg.buf);
	strbuf_release(&msg);
}

void
field_text_set(char **field, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(s), keep = RS_MAX_TEXT - 64;

	if (len <= RS_MAX_TEXT) {
		if (*field != s)
			rs_str_set(field, s);
		return;
	}
	while (keep && ((unsigned char)s[keep] & 0xc0) == 0x80)
		keep--;
	strbuf_add(&sb, s, keep);
	strbuf_addf(&sb, "\n[... cut: %zu bytes in all]", len);
	rs_str_set(field, sb.buf);
	strbuf_release(&sb);
}

/* ---- a model held to the limits --------------------------------------- */

struct hold {
	const char *name;	/* the file, for the warning */
	struct strbuf path;	/* key path of the record being held */
	size_t nr;		/* values made absent ... */
	struct strbuf first;	/* ... and what the first one was */
};

static size_t
push(struct hold *h, const char *key, size_t index, bool indexed)
{
	size_t old = h->path.len;

	if (key) {
		if (old)
			strbuf_addch(&h->path, '.');
		strbuf_addstr(&h->path, key);
	}
	if (indexed)
		strbuf_addf(&h->path, "[%zu]", index);
	return old;
}

static void
pop(struct hold *h, size_t old)
{
	strbuf_setlen(&h->path, old);
}

/* Make absent each bounded number of the record at `base` outside its
 * limits; cut each free text. */
static void
hold_fields(struct hold *h, void *base, const struct field_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct field *f = &t->f[i];
		const struct field_limit *lim = field_limit_of(f->kind);
		char *p = (char *)base + f->off;
		double *v = (double *)p;

		if (f->kind == FK_TEXT && *(char **)p) {
			field_text_set((char **)p, *(char **)p);
		} else if (f->kind == FK_TEXTS) {
			struct strlist *l = (struct strlist *)p;

			for (size_t j = 0; j < l->nr; j++)
				field_text_set(&l->items[j], l->items[j]);
		}
		/* NAN is absent already. */
		if (!lim || isnan(*v) || field_limit_holds(lim, *v))
			continue;
		if (!h->nr++) {
			size_t old = push(h, f->key, 0, false);

			field_limit_say(&h->first, h->name, h->path.buf, *v,
			    lim);
			pop(h, old);
		}
		*v = NAN;
	}
}

/* The record `base` of `t` under `key` (and index), held. */
static void
hold_at(struct hold *h, const char *key, size_t index, bool indexed,
    void *base, const struct field_table *t)
{
	size_t old = push(h, key, index, indexed);

	hold_fields(h, base, t);
	pop(h, old);
}

/* Buckets of frames longer than an hour go, as a lenient read drops them. */
static void
hold_histogram(struct hold *h, struct rs_frames *f)
{
	const struct field_limit *lim = field_limit_of(FK_MS);
	size_t kept = 0;

	for (size_t i = 0; i < f->nr_histogram; i++) {
		if (field_limit_holds(lim, f->histogram[i].ms)) {
			f->histogram[kept++] = f->histogram[i];
			continue;
		}
		if (!h->nr++) {
			char key[16];
			size_t old;

			snprintf(key, sizeof(key), "%u",
			    (unsigned)f->histogram[i].ms);
			old = push(h, "histogram", 0, false);
			push(h, key, 0, false);
			field_limit_say(&h->first, h->name, h->path.buf,
			    f->histogram[i].ms, lim);
			pop(h, old);
		}
	}
	f->nr_histogram = kept;
}

static void
hold_scene(struct hold *h, struct rs_scene *sc)
{
	hold_fields(h, sc, &scene_fields);
	if (sc->frames.present) {
		size_t old = push(h, "frames", 0, false);

		hold_fields(h, &sc->frames, &frames_fields);
		hold_histogram(h, &sc->frames);
		for (size_t i = 0; i < sc->frames.nr_rows; i++)
			hold_at(h, "rows", i, true, &sc->frames.rows[i],
			    &row_fields);
		pop(h, old);
	}
	{
		size_t old = push(h, "fps", 0, false);

		hold_fields(h, &sc->fps, &fps_fields);
		for (size_t i = 0; i < sc->fps.nr_slices; i++) {
			struct rs_fps_slice *s = &sc->fps.slices[i];
			size_t o2 = push(h, "slices", i, true);

			hold_fields(h, s, &slice_fields);
			hold_at(h, "drop_level", 0, false, &s->drop_level,
			    &drops_fields);
			hold_at(h, "drop_sum", 0, false, &s->drop_sum,
			    &drops_fields);
			if (s->phases.present)
				hold_at(h, "phases_ms", 0, false, &s->phases,
				    &phase_means_fields);
			pop(h, o2);
		}
		pop(h, old);
	}
	for (size_t i = 0; i < sc->nr_blocks; i++)
		hold_at(h, "blocks", i, true, &sc->blocks[i], &block_fields);
	for (size_t i = 0; i < sc->nr_methods; i++)
		hold_at(h, "methods", i, true, &sc->methods[i],
		    &method_fields);
	if (sc->phases.present)
		hold_at(h, "phases", 0, false, &sc->phases, &phases_fields);
	if (sc->jank_types.present)
		hold_at(h, "jank_types", 0, false, &sc->jank_types,
		    &jank_types_fields);
	for (size_t i = 0; i < sc->nr_inputs; i++)
		hold_at(h, "inputs", i, true, &sc->inputs[i], &input_fields);
}

static void
hold_iteration(struct hold *h, struct rs_iteration *it)
{
	hold_fields(h, it, &iteration_fields);
	if (it->startup.present) {
		size_t old = push(h, "startup", 0, false);

		hold_fields(h, &it->startup, &startup_fields);
		if (it->startup.matrix.present)
			hold_at(h, "matrix", 0, false, &it->startup.matrix,
			    &matrix_fields);
		pop(h, old);
	}
	for (size_t i = 0; i < it->nr_scenes; i++) {
		size_t old = push(h, "scenes", i, true);

		hold_scene(h, &it->scenes[i]);
		pop(h, old);
	}
	for (size_t i = 0; i < it->nr_blocks; i++)
		hold_at(h, "blocks", i, true, &it->blocks[i], &block_fields);
	for (size_t i = 0; i < it->nr_methods; i++)
		hold_at(h, "methods", i, true, &it->methods[i],
		    &method_fields);
}

size_t
results_hold_limits(struct results *r, const char *name)
{
	struct hold h = { name, STRBUF_INIT, 0, STRBUF_INIT };
	size_t nr;

	hold_fields(&h, &r->run, &run_fields);
	for (size_t i = 0; i < r->nr_warnings; i++)
		hold_fields(&h, &r->warnings[i], &warning_fields);
	for (size_t s = 0; s < r->nr_scenarios; s++) {
		struct rs_scenario *sc = &r->scenarios[s];
		size_t old = push(&h, "scenarios", s, true);

		for (size_t i = 0; i < sc->nr_iterations; i++) {
			size_t o2 = push(&h, "iterations", i, true);

			hold_iteration(&h, &sc->iterations[i]);
			pop(&h, o2);
		}
		pop(&h, old);
	}
	nr = h.nr;
	if (nr)
		field_limit_note(r, h.first.buf, nr, "written as absent");
	strbuf_release(&h.path);
	strbuf_release(&h.first);
	return nr;
}
