/*
 * view_scenario.c: one scenario of one comparison, and its scenes.
 *
 * The entries of comparison.json are a flat list; a report reads them as a
 * tree: scenario (launch metrics, startup chart, blocks outside scenes,
 * failed iterations) and under it the scenes (metric table, frame-time
 * chart, blocks).  Scenes come worst first, the way a reader triages;
 * within a table the metrics keep the metric table's order so columns of
 * the same metric line up from scene to scene.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

/* Failed iterations listed per scenario, at most. */
#define MAX_FAILURES 10

static int
same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* "1 regression, 11 pass": the non-zero counts, worst first. */
static void
put_summary(cJSON *o, const size_t counts[CMP_NR_VERDICTS])
{
	struct strbuf sb = STRBUF_INIT;

	view_json_str(o, "summary", view_counts_text(&sb, counts));
	cJSON_AddItemToObject(o, "counts", view_json_counts(counts));
	strbuf_release(&sb);
}

/*
 * Seconds the current run spent measuring: in the windows of scene `scene`
 * (NULL: the whole measured iterations) of `scenario`, over its measured
 * (not warm-up) iterations; 0 without the results.  junit.xml's times.
 */
static double
measured_seconds(const struct view_dev *d, const char *scenario,
    const char *scene)
{
	const struct rs_scenario *s = results_find_scenario(d->in->current,
	    scenario);
	double ms = 0;

	for (size_t i = 0; s && i < s->nr_iterations; i++) {
		const struct rs_iteration *it = &s->iterations[i];

		if (it->warmup)
			continue;
		if (!scene) {
			if (isfinite(it->duration_ms) && it->duration_ms > 0)
				ms += it->duration_ms;
			continue;
		}
		for (size_t j = 0; j < it->nr_scenes; j++) {
			const struct rs_scene *sc = &it->scenes[j];
			double w = sc->end_mono_ms - sc->start_mono_ms;

			if (same(sc->name, scene) && isfinite(w) && w > 0)
				ms += w;
		}
	}
	return ms / 1000;
}

/*
 * The rows of `scenario`/`scene` (scene NULL: the launch metrics) into
 * `arr`, counted in `counts` and in the report's totals; returns the
 * worst verdict, or -1 when there is none.
 */
static int
add_rows(struct view_dev *d, cJSON *arr, const char *scenario,
    const char *scene, size_t counts[CMP_NR_VERDICTS])
{
	const struct comparison *c = d->in->cmp;
	int worst = -1;

	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		cJSON *row;

		if (!same(e->scenario, scenario) || !same(e->scene, scene))
			continue;
		row = view_row(d, e);
		cJSON_AddItemToArray(arr, row);
		counts[e->verdict]++;
		d->b->counts[e->verdict]++;
		view_note_row(d->b, row, e->verdict);
		if (e->suspect)
			view_note_suspect(d->b, row);
		if ((int)e->verdict > worst)
			worst = (int)e->verdict;
	}
	return worst;
}

/*
 * Whether a scene or scenario object `o`, whose rows' worst verdict is
 * `worst`, is shown in full on report.html (issue 48): a verdict that is
 * not a pass (or new: a first night is all new), a block that is new or
 * worse, a method new or slower, a suspect, a failed iteration, or a
 * scene that is.  The rest is
 * a line there and in full on its device's page, so report.html grows
 * with what changed, not with what was measured.
 */
static bool
wants_attention(const cJSON *o, int worst)
{
	const cJSON *it;

	if (worst != CMP_PASS && worst != CMP_NEW)
		return true;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(o, "blocks"))
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "new")) ||
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "worse")))
			return true;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(o, "methods")) {
		const char *st = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(it, "status"));

		if (st && (!strcmp(st, "new") || !strcmp(st, "worse")))
			return true;
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(o, "metrics"))
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it,
		    "suspect")))
			return true;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(o, "scenes"))
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it,
		    "attention")))
			return true;
	return cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(o,
	    "failures")) > 0;
}

/* The blocks of `scenario`/`scene` that changed, worst first. */
static cJSON *
blocks_of(struct view_dev *d, const char *scenario, const char *scene)
{
	const struct comparison *c = d->in->cmp;
	cJSON *arr = cJSON_CreateArray();

	for (int rank = 3; rank > 0; rank--)
		for (size_t i = 0; i < c->nr_blocks; i++) {
			const struct cmp_block *blk = &c->blocks[i];
			cJSON *o;

			if (view_block_rank(blk->status) != rank ||
			    !same(blk->scenario, scenario) ||
			    !same(blk->scene, scene))
				continue;
			o = view_block(d, blk);
			cJSON_AddItemToArray(arr, o);
			d->b->block_counts[blk->status]++;
			view_note_block(d->b, o, blk->status);
		}
	return arr;
}

static cJSON *
scene_of(struct view_dev *d, const char *scenario, const char *name, int *worst)
{
	size_t counts[CMP_NR_VERDICTS] = { 0 };
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_CreateArray();
	double base = 0, cur = 0;
	char *chart = NULL;
	int w;

	view_json_str(o, "name", name);
	view_json_anchor(d->b, o);
	w = add_rows(d, rows, scenario, name, counts);
	view_json_list(o, "metrics", rows);
	put_summary(o, counts);
	*worst = w < 0 ? CMP_PASS : w;
	cJSON_AddItemToObject(o, "verdict", view_json_verdict(*worst));
	if (d->b->o->charts)
		chart = view_chart_histogram(d, scenario, name);
	view_json_str(o, "chart", chart);
	free(chart);
	view_chart_frame_totals(d, scenario, name, &base, &cur);
	if (base || cur) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "frames: ");
		if (base) {
			view_text_num(&sb, base);
			strbuf_addstr(&sb, " baseline, ");
		}
		view_text_num(&sb, cur);
		strbuf_addstr(&sb, " current");
		if (!base)
			strbuf_addstr(&sb, " (no baseline histogram: its "
			    "results are not at hand)");
		view_json_str(o, "frames", sb.buf);
		strbuf_release(&sb);
	}
	view_json_list(o, "blocks", blocks_of(d, scenario, name));
	view_explain_scene(d, o, scenario, name, *worst);	/* issue 20 */
	/* always there: a scene without it would read its scenario's */
	cJSON_AddBoolToObject(o, "attention", wants_attention(o, *worst));
	cJSON_AddNumberToObject(o, "seconds",
	    measured_seconds(d, scenario, name));
	return o;
}

/* Scene names of `scenario` in entries, then blocks, each once. */
static void
scene_names(const struct comparison *c, const char *scenario,
    struct strlist *out)
{
	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];

		if (e->scene && same(e->scenario, scenario) &&
		    strlist_find(out, e->scene) < 0)
			strlist_add(out, e->scene);
	}
	for (size_t i = 0; i < c->nr_blocks; i++) {
		const struct cmp_block *b = &c->blocks[i];

		if (b->scene && same(b->scenario, scenario) &&
		    strlist_find(out, b->scene) < 0)
			strlist_add(out, b->scene);
	}
}

/* Append `items[0..nr)` to `arr` by descending `rank`, stably. */
static void
add_by_rank(cJSON *arr, cJSON **items, const int *rank, size_t nr)
{
	for (int r = CMP_NR_VERDICTS - 1; r >= 0; r--)
		for (size_t i = 0; i < nr; i++)
			if (rank[i] == r)
				cJSON_AddItemToArray(arr, items[i]);
}

static cJSON *
scenes_of(struct view_dev *d, const char *scenario, int *worst)
{
	struct strlist names = STRLIST_INIT;
	cJSON *arr = cJSON_CreateArray(), **items;
	int *rank;

	scene_names(d->in->cmp, scenario, &names);
	items = xcalloc(names.nr + 1, sizeof(*items));
	rank = xcalloc(names.nr + 1, sizeof(*rank));
	for (size_t i = 0; i < names.nr; i++) {
		items[i] = scene_of(d, scenario, names.items[i], &rank[i]);
		if (rank[i] > *worst)
			*worst = rank[i];
	}
	add_by_rank(arr, items, rank, names.nr);
	free(items);
	free(rank);
	strlist_release(&names);
	return arr;
}

/* Iterations of the current run that failed, with the reason. */
static cJSON *
failures_of(const struct view_dev *d, const char *scenario)
{
	const struct rs_scenario *s = results_find_scenario(d->in->current,
	    scenario);
	cJSON *arr = cJSON_CreateArray();
	size_t n = 0;

	for (size_t i = 0; s && i < s->nr_iterations; i++) {
		const struct rs_iteration *it = &s->iterations[i];
		cJSON *o;

		if (it->ok || it->warmup || n++ >= MAX_FAILURES)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "index", it->index);
		view_json_str(o, "error", it->error ? it->error : "failed");
		if (it->test_stack)
			view_json_str(o, "stack", it->test_stack);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static void
put_iterations(cJSON *o, const struct cmp_scenario *s)
{
	struct strbuf sb = STRBUF_INIT;

	view_json_num(o, "cur_iterations", s->cur_iterations);
	view_json_num(o, "cur_valid", s->cur_valid);
	view_json_num(o, "base_runs", s->base_runs);
	view_json_num(o, "base_valid", s->base_valid);
	if (isfinite(s->cur_valid) && isfinite(s->cur_iterations)) {
		view_text_num(&sb, s->cur_valid);
		strbuf_addstr(&sb, " of ");
		view_text_num(&sb, s->cur_iterations);
		strbuf_addstr(&sb, " iterations valid");
	}
	if (isfinite(s->base_valid) && isfinite(s->base_runs) &&
	    s->base_runs > 0) {
		strbuf_addstr(&sb, sb.len ? "; baseline " : "baseline ");
		view_text_num(&sb, s->base_valid);
		strbuf_addstr(&sb, " from ");
		view_text_num(&sb, s->base_runs);
		strbuf_addstr(&sb, s->base_runs == 1 ? " run" : " runs");
	}
	view_json_str(o, "iterations", sb.len ? sb.buf : NULL);
	strbuf_release(&sb);
}

cJSON *
view_scenario(struct view_dev *d, const struct cmp_scenario *s,
    enum cmp_verdict *worst)
{
	size_t counts[CMP_NR_VERDICTS] = { 0 };
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_CreateArray(), *scenes;
	char *chart = NULL;
	int w = s->verdict, rw;
	size_t quiet;

	view_json_str(o, "name", s->name);
	view_json_anchor(d->b, o);
	put_iterations(o, s);
	view_json_flag(o, "changed", s->changed);
	rw = add_rows(d, rows, s->name, NULL, counts);
	if (rw > w)
		w = rw;
	view_json_list(o, "metrics", rows);
	if (d->b->o->charts && cJSON_GetArraySize(rows))
		chart = view_chart_startup(d, s->name);
	view_json_str(o, "startup_chart", chart);
	free(chart);
	scenes = scenes_of(d, s->name, &w);
	/* The scenario's counts cover its scenes too. */
	for (cJSON *sc = scenes->child; sc; sc = sc->next) {
		cJSON *c = cJSON_GetObjectItemCaseSensitive(sc, "counts");

		for (int v = 0; v < CMP_NR_VERDICTS; v++)
			counts[v] += (size_t)cJSON_GetNumberValue(
			    cJSON_GetObjectItemCaseSensitive(c,
			    cmp_verdict_name(v)));
	}
	put_summary(o, counts);
	view_json_list(o, "scenes", scenes);
	view_json_list(o, "blocks", blocks_of(d, s->name, NULL));
	view_explain_scenario(d, o, s->name);	/* issue 20: methods, trace */
	view_json_list(o, "failures", failures_of(d, s->name));
	cJSON_AddNumberToObject(o, "seconds", measured_seconds(d, s->name,
	    NULL));
	*worst = (enum cmp_verdict)w;
	cJSON_AddItemToObject(o, "verdict", view_json_verdict(*worst));
	quiet = 0;
	for (cJSON *sc = scenes->child; sc; sc = sc->next)
		quiet += !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sc,
		    "attention"));
	cJSON_AddNumberToObject(o, "quiet_scenes", (double)quiet);
	view_json_flag(o, "has_quiet_scenes", quiet > 0);
	cJSON_AddBoolToObject(o, "attention", wants_attention(o, w) ||
	    cJSON_GetObjectItemCaseSensitive(o, "trace"));
	return o;
}
