/*
 * view_timeline.c: the frame timelines of a regressed scene (issue 20).
 *
 * For a scene that regressed, one iteration is drawn as a timeline
 * (svg_timeline.h): where the scene has a new or worse block (the
 * headline block: headline_block()), the iteration in which it
 * overlapped the most janky frames, so the chart shows what the table
 * says (issue 48: the worst iteration by a metric could show the block
 * after the last frame drawn); else, or when it overlapped none in the
 * frames kept, the worst iteration by the first metric that regressed
 * there (the largest value, or the smallest for fps).  The timeline has: its frame rows at their intended
 * vsync, coloured by jank; its input steps; its blocks as spans, the new
 * and worse ones (by signature, compare_blocks.c) in red, each with the
 * janky frames it overlapped.  The baseline's worst iteration of the same
 * scene comes second when its results are at hand, so the two read one
 * above the other.
 *
 *   SCENE.timelines = [ { side: "current" | "baseline", caption, svg } ]
 *
 * Frame rows are PROFILEDATA's newest 120 frames of each window, so a
 * long scene shows its end; the caption says how many frames it shows
 * of how many the scene rendered.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "report.h"
#include "results.h"
#include "signature.h"
#include "strbuf.h"
#include "svg_timeline.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

const struct rs_scenario *
view_find_scenario(const struct results *r, const char *name)
{
	return r && name ? results_find_scenario(r, name) : NULL;
}

static bool
same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The first regression of the scene, in table order. */
static const struct cmp_entry *
regressed(const struct comparison *c, const char *scenario, const char *scene)
{
	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];

		if (e->verdict == CMP_REGRESSION && same(e->scenario, scenario)
		    && same(e->scene, scene))
			return e;
	}
	return NULL;
}

struct worst {
	const struct rs_scene *sc;
	int index;		/* the iteration's */
	double value;
	const struct cmp_block *block;	/* chosen for it, or NULL */
	int janky;		/* the janky frames `block` overlapped */
};

/*
 * The scene's headline block: of its new and worse blocks, a regression
 * first, then the one that overlapped the most janky frames in the
 * current run (the count the block table prints), then the table's
 * order (worse before new).
 */
static const struct cmp_block *
headline_block(const struct comparison *c, const char *scenario,
    const char *scene)
{
	const struct cmp_block *best = NULL;

	for (int rank = 3; rank > 0; rank--)
		for (size_t i = 0; i < c->nr_blocks; i++) {
			const struct cmp_block *k = &c->blocks[i];
			double jk = isfinite(k->cur.janky_frames) ?
			    k->cur.janky_frames : 0;
			double jb;

			if ((k->status != CMP_BLOCK_NEW &&
			    k->status != CMP_BLOCK_WORSE) ||
			    view_block_rank(k->status) != rank ||
			    !same(k->scenario, scenario) ||
			    !same(k->scene, scene) || !k->signature)
				continue;
			if (!best) {
				best = k;
				continue;
			}
			jb = isfinite(best->cur.janky_frames) ?
			    best->cur.janky_frames : 0;
			if ((k->verdict == CMP_REGRESSION) !=
			    (best->verdict == CMP_REGRESSION)) {
				if (k->verdict == CMP_REGRESSION)
					best = k;
			} else if (jk > jb) {
				best = k;
			}
		}
	return best;
}

/*
 * Keep in *w the iteration of `scene` in `r` where block `k` overlapped
 * the most janky frames (the first of a tie), when it overlapped any.
 */
static void
find_blocked(struct worst *w, const struct results *r, const char *scenario,
    const char *scene, const struct cmp_block *k)
{
	const struct rs_scenario *s = view_find_scenario(r, scenario);

	for (size_t i = 0; s && k && i < s->nr_iterations; i++) {
		const struct rs_iteration *it = &s->iterations[i];
		const struct rs_scene *sc;

		if (it->warmup || !it->ok ||
		    !(sc = rs_iteration_find_scene(it, scene)))
			continue;
		for (size_t j = 0; j < sc->nr_blocks; j++) {
			const struct rs_block *b = &sc->blocks[j];
			int n;

			if (!same(b->signature, k->signature))
				continue;
			n = cmp_block_janky_frames(sc, b);
			if (n > 0 && n > w->janky) {
				w->sc = sc;
				w->index = it->index;
				w->block = k;
				w->janky = n;
			}
		}
	}
}

/* Keep in *w the worst iteration of `scene` in `r` by `m`. */
static void
find_worst(struct worst *w, const struct results *r, const char *scenario,
    const char *scene, const struct metric_def *m)
{
	const struct rs_scenario *s = view_find_scenario(r, scenario);

	for (size_t i = 0; s && i < s->nr_iterations; i++) {
		const struct rs_iteration *it = &s->iterations[i];
		const struct rs_scene *sc;
		double v;

		if (it->warmup || !it->ok)
			continue;
		sc = rs_iteration_find_scene(it, scene);
		if (!sc || metric_scene_value(m, sc, &v) || !isfinite(v))
			continue;
		if (w->sc && (m->dir == METRIC_HIGHER_IS_BETTER ?
		    v >= w->value : v <= w->value))
			continue;
		w->sc = sc;
		w->index = it->index;
		w->value = v;
	}
}

/* Is the block's signature new or worse in this scene? */
static bool
changed(const struct comparison *c, const char *scenario, const char *scene,
    const struct rs_block *b)
{
	for (size_t i = 0; b->signature && i < c->nr_blocks; i++) {
		const struct cmp_block *k = &c->blocks[i];

		if (same(k->scenario, scenario) && same(k->scene, scene) &&
		    same(k->signature, b->signature))
			return k->status == CMP_BLOCK_NEW ||
			    k->status == CMP_BLOCK_WORSE;
	}
	return false;
}

static char *
block_label(const struct rs_block *b)
{
	long app = signature_app_frame(&b->stack);
	const char *frame = app >= 0 ? b->stack.items[app] :
	    b->stack.nr ? b->stack.items[0] : "(no stack)";
	size_t len;
	const char *name = signature_frame_name(frame, &len);

	return xasprintf("%.*s (%s%s%s)", (int)len, name,
	    b->source ? b->source : "?", b->kind ? " " : "",
	    b->kind ? b->kind : "");
}

static cJSON *
timeline(struct view_dev *d, const char *scenario, const char *scene,
    const struct worst *w, const struct cmp_entry *e, bool cur,
    double hz)
{
	const struct rs_scene *sc = w->sc;
	struct svg_tl_frame *fr = xcalloc(sc->frames.nr_rows + 1,
	    sizeof(*fr));
	struct svg_tl_input *in = xcalloc(sc->nr_inputs + 1, sizeof(*in));
	struct svg_tl_block *bl = xcalloc(sc->nr_blocks + 1, sizeof(*bl));
	char **labels = xcalloc(sc->nr_blocks + 1, sizeof(*labels));
	struct svg_tl t = { 0 };
	struct strbuf title = STRBUF_INIT, cap = STRBUF_INIT, clean =
	    STRBUF_INIT;
	double t0 = sc->start_mono_ms;
	size_t janky = 0, judged = 0;
	cJSON *o;
	char *svg;

	if (!isfinite(t0))
		t0 = sc->frames.nr_rows ?
		    (double)sc->frames.rows[0].intended_vsync_ns / 1e6 : 0;
	for (size_t i = 0; i < sc->frames.nr_rows; i++) {
		const struct rs_frame_row *r = &sc->frames.rows[i];

		fr[i].start_ms = (double)r->intended_vsync_ns / 1e6 - t0;
		fr[i].dur_ms = r->duration_ms;
		fr[i].janky = r->janky == RS_UNKNOWN ? -1 : r->janky;
		janky += r->janky == 1;
		judged += r->janky != RS_UNKNOWN;
	}
	for (size_t i = 0; i < sc->nr_inputs; i++) {
		in[i].at_ms = sc->inputs[i].at_mono_ms - t0;
		in[i].label = sc->inputs[i].step;
	}
	for (size_t i = 0; i < sc->nr_blocks; i++) {
		const struct rs_block *b = &sc->blocks[i];

		labels[i] = block_label(b);
		bl[i].start_ms = b->start_mono_ms - t0;
		bl[i].dur_ms = b->wall_ms;
		bl[i].label = labels[i];
		bl[i].changed = cur && changed(d->in->cmp, scenario, scene, b);
		bl[i].janky = cmp_block_janky_frames(sc, b);
	}
	strbuf_addf(&title, "%s / %s: frames, input and blocks of the %s "
	    "run's iteration %d", scenario, scene, cur ? "current" :
	    "baseline", w->index);
	report_escape_text(&clean, title.buf, title.len);
	t.title = clean.buf;
	t.span_ms = sc->end_mono_ms - t0;
	t.period_ms = hz > 0 ? 1000 / hz : 0;
	t.frames = fr;
	t.nr_frames = sc->frames.nr_rows;
	t.inputs = in;
	t.nr_inputs = sc->nr_inputs;
	t.blocks = bl;
	t.nr_blocks = sc->nr_blocks;
	svg = svg_timeline(&t);

	if (w->block) {
		strbuf_addf(&cap, "%s, iteration %d, where the %s block "
		    "overlapped the most janky frames (%d): ", cur ?
		    "Current run" : "Baseline", w->index,
		    w->block->status == CMP_BLOCK_NEW ? "new" : "worse",
		    w->janky);
	} else {
		strbuf_addf(&cap, "%s, iteration %d, the worst by %s (",
		    cur ? "Current run" : "Baseline", w->index, e->metric);
		view_text_value(&cap, w->value, e->unit);
		strbuf_addstr(&cap, "): ");
	}
	view_text_num(&cap, (double)janky);
	strbuf_addf(&cap, " janky of %zu frames shown", sc->frames.nr_rows);
	if (isfinite(sc->frames.count) &&
	    sc->frames.count > (double)sc->frames.nr_rows) {
		strbuf_addstr(&cap, " (the newest the framework kept of ");
		view_text_num(&cap, sc->frames.count);
		strbuf_addch(&cap, ')');
	}
	if (judged < sc->frames.nr_rows)
		strbuf_addf(&cap, ", %zu not judged", sc->frames.nr_rows -
		    judged);
	strbuf_addf(&cap, "; %zu input step%s, %zu block%s", sc->nr_inputs,
	    sc->nr_inputs == 1 ? "" : "s", sc->nr_blocks,
	    sc->nr_blocks == 1 ? "" : "s");
	o = cJSON_CreateObject();
	view_json_str(o, "side", cur ? "current" : "baseline");
	view_json_str(o, "caption", cap.buf);
	view_json_str(o, "svg", svg);
	free(svg);
	for (size_t i = 0; i < sc->nr_blocks; i++)
		free(labels[i]);
	free(labels);
	free(fr);
	free(in);
	free(bl);
	strbuf_release(&title);
	strbuf_release(&clean);
	strbuf_release(&cap);
	return o;
}

void
view_timelines(struct view_dev *d, cJSON *o, const char *scenario,
    const char *scene)
{
	const struct cmp_entry *e = regressed(d->in->cmp, scenario, scene);
	const struct metric_def *m = e ? metric_find(e->metric) : NULL;
	struct worst cur = { NULL, 0, NAN, NULL, 0 };
	struct worst base = { NULL, 0, NAN, NULL, 0 };
	cJSON *arr = cJSON_CreateArray();
	double hz = NAN;

	if (m && m->scope == METRIC_SCENE && d->in->current) {
		hz = d->in->current->device.refresh_hz;
		find_blocked(&cur, d->in->current, scenario, scene,
		    headline_block(d->in->cmp, scenario, scene));
		if (!cur.sc)
			find_worst(&cur, d->in->current, scenario, scene, m);
		for (size_t i = 0; i < d->in->nr_baselines; i++)
			find_worst(&base, d->in->baselines[i], scenario, scene,
			    m);
	}
	if (cur.sc)
		cJSON_AddItemToArray(arr, timeline(d, scenario, scene, &cur, e,
		    true, hz));
	if (base.sc)
		cJSON_AddItemToArray(arr, timeline(d, scenario, scene, &base,
		    e, false, hz));
	view_json_list(o, "timelines", arr);
}
