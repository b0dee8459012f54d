/*
 * view_explain.c: the parts of the model that say why (issue 20).
 *
 * Beside each scene's metric table a reader gets the first clue:
 *
 *   ROW     + explain      on a frame-time row that regressed (or is
 *                          inconclusive): the phase that moved most,
 *                          "p90 +3 ms: measure/layout +2.6 ms (+2.1 to
 *                          +3.1 ms)", from the explain entries of the
 *                          same percentile (p50 for frame_p50_ms, p90
 *                          for the tail ones), else Matrix's means
 *   BLOCK   + headline     the frame the signature starts with (the
 *                          first application frame), + top_differs when
 *                          the top frame is another (then shown beneath),
 *                          + janky: the janky frames it overlapped
 *   SCENE   + phases: [ PHASE ], phases_note, phases_moved
 *           + jank_types: [ JANK ], jank_grew
 *           + methods: [ METHOD ]
 *           + timelines: [ { caption, svg } ]   (view_timeline.c)
 *   SCENARIO + methods (outside scenes), trace: TRACE
 *   report  + changed_methods: [ METHOD ], changed_methods_more
 *
 *   PHASE  = { label, p50: CELL, p90: CELL, mean: CELL, moved }
 *   CELL   = { baseline, current, change, interval, verdict }
 *   JANK   = { label, baseline, current, change, interval, grew }
 *   METHOD = { device, where, name, source, status, status_label, color,
 *              background, baseline, current }   (sides as text)
 *   TRACE  = { href, page_href (from a device page), file }
 *
 * Explanations never change a verdict or a count: they are read from
 * comparison.explains and .methods, which nothing else reads.
 */
#include <limits.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metrics_explain.h"
#include "results.h"
#include "signature.h"
#include "stats.h"
#include "strbuf.h"
#include "trace.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

/* Changed methods listed report-wide, at most. */
#define MAX_CHANGED_METHODS 20

static bool
same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* "+2.1 to +3.1 ms" into sb, nothing when the interval is unknown. */
static void
interval(struct strbuf *sb, const struct cmp_entry *e)
{
	if (!isfinite(e->shift_lo) || !isfinite(e->shift_hi))
		return;
	view_text_signed(sb, e->shift_lo, NULL);
	strbuf_addstr(sb, " to ");
	view_text_signed(sb, e->shift_hi, e->unit);
}

/* ---- the phase that moved most ------------------------------------------ */

/*
 * Of the explain entries of `scenario`/`scene` about a phase at `stat`
 * (50, 90, or 0 for Matrix's means), the one whose worse shift is the
 * largest and positive; NULL when none moved the worse way.
 */
static const struct cmp_entry *
moved_most(const struct comparison *c, const char *scenario,
    const char *scene, int stat)
{
	const struct cmp_entry *best = NULL;

	for (size_t i = 0; i < c->nr_explains; i++) {
		const struct cmp_entry *e = &c->explains[i];
		struct metric_about a;

		if (!same(e->scenario, scenario) || !same(e->scene, scene) ||
		    metric_explain_about(e->metric, &a) || a.phase < 0 ||
		    a.stat != stat || !(e->shift > 0))
			continue;
		if (!best || e->shift > best->shift)
			best = e;
	}
	return best;
}

/* The percentile a frame-time metric is about, 0 for other metrics. */
static int
frame_stat(const char *metric)
{
	if (!strcmp(metric, "frame_p50_ms"))
		return 50;
	if (!strcmp(metric, "frame_p90_ms") ||
	    !strcmp(metric, "frame_p95_ms") ||
	    !strcmp(metric, "frame_p99_ms"))
		return 90;
	return 0;
}

void
view_explain_row(struct view_dev *d, cJSON *row, const struct cmp_entry *e)
{
	const struct cmp_entry *p;
	struct metric_about a;
	struct strbuf sb = STRBUF_INIT;
	int stat = frame_stat(e->metric);

	if (!stat || !e->scene || (e->verdict != CMP_REGRESSION &&
	    e->verdict != CMP_INCONCLUSIVE))
		return;
	p = moved_most(d->in->cmp, e->scenario, e->scene, stat);
	if (!p)
		p = moved_most(d->in->cmp, e->scenario, e->scene, 0);
	if (!p || metric_explain_about(p->metric, &a))
		return;
	/* "p90 +3 ms: measure/layout +2.6 ms (+2.1 to +3.1 ms)" */
	strbuf_addf(&sb, "%.3s ", e->metric + strlen("frame_"));
	view_text_signed(&sb, e->shift, e->unit);
	strbuf_addf(&sb, ": %s ", rs_phase_label((enum rs_phase)a.phase));
	view_text_signed(&sb, p->shift, p->unit);
	if (isfinite(p->shift_lo)) {
		strbuf_addstr(&sb, " (");
		interval(&sb, p);
		strbuf_addch(&sb, ')');
	}
	if (a.stat == 0)
		strbuf_addstr(&sb, ", Matrix's mean");
	view_json_str(row, "explain", sb.buf);
	strbuf_release(&sb);
}

/* ---- blocks ------------------------------------------------------------- */

void
view_explain_block(struct view_dev *d, cJSON *o, const struct cmp_block *blk)
{
	const struct cmp_block_side *side = blk->status == CMP_BLOCK_RESOLVED ?
	    &blk->base : &blk->cur;
	long app = signature_app_frame(&blk->stack);
	struct strbuf sb = STRBUF_INIT;

	(void)d;
	view_json_str(o, "headline", app >= 0 ? blk->stack.items[app] :
	    blk->stack.nr ? blk->stack.items[0] : "(no stack)");
	view_json_flag(o, "top_differs", app > 0);
	if (isfinite(side->janky_frames) && side->frames_seen > 0) {
		strbuf_addstr(&sb, "overlapped ");
		view_text_num(&sb, side->janky_frames);
		strbuf_addstr(&sb, side->janky_frames == 1 ? " janky frame" :
		    " janky frames");
		if (side->frames_seen < side->count) {
			strbuf_addstr(&sb, " in the ");
			view_text_num(&sb, side->frames_seen);
			strbuf_addstr(&sb, " of ");
			view_text_num(&sb, side->count);
			strbuf_addstr(&sb, " occurrences the frame rows cover");
		}
		view_json_str(o, "janky", sb.buf);
	} else if (blk->status != CMP_BLOCK_RESOLVED) {
		view_json_str(o, "janky", "janky frames not known (no frame "
		    "rows around it)");
	}
	strbuf_release(&sb);
}

/* ---- phases ------------------------------------------------------------- */

static cJSON *
cell(const struct cmp_entry *e)
{
	cJSON *o = cJSON_CreateObject();
	struct strbuf sb = STRBUF_INIT;

	view_json_value(o, "baseline", e->base.n ? e->base.median : NAN, e->unit,
	    view_text_value);
	view_json_value(o, "current", e->cur.n ? e->cur.median : NAN, e->unit,
	    view_text_value);
	view_json_value(o, "change", e->shift, e->unit, view_text_signed);
	interval(&sb, e);
	view_json_str(o, "interval", sb.len ? sb.buf : NULL);
	cJSON_AddItemToObject(o, "verdict", view_json_verdict(e->verdict));
	strbuf_release(&sb);
	return o;
}

/* "phases from the newest 120 of 452 frames (median per iteration)". */
static void
phases_note(cJSON *o, const struct results *r, const char *scenario,
    const char *scene)
{
	const struct rs_scenario *s = view_find_scenario(r, scenario);
	double rows[64], counts[64], skipped = 0, med_rows, med_count;
	size_t n = 0, newest = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; s && i < s->nr_iterations && n < 64; i++) {
		const struct rs_iteration *it = &s->iterations[i];
		const struct rs_scene *sc;

		if (it->warmup || !it->ok)
			continue;
		sc = rs_iteration_find_scene(it, scene);
		if (!sc || !sc->phases.present)
			continue;
		rows[n] = sc->phases.frames + sc->phases.skipped;
		counts[n] = sc->frames.count;
		skipped += sc->phases.skipped;
		newest += sc->phases.newest == 1;
		n++;
	}
	if (!n || stats_quantile(&med_rows, rows, n, 0.5))
		return;
	if (newest) {
		strbuf_addstr(&sb, "phases of the newest ");
		view_text_num(&sb, med_rows);
		if (!stats_quantile(&med_count, counts, n, 0.5) &&
		    isfinite(med_count)) {
			strbuf_addstr(&sb, " of ");
			view_text_num(&sb, med_count);
		}
		strbuf_addstr(&sb, " frames the framework kept");
	} else {
		strbuf_addstr(&sb, "phases of every frame (");
		view_text_num(&sb, med_rows);
		strbuf_addch(&sb, ')');
	}
	strbuf_addstr(&sb, ", median per iteration of the current run");
	if (skipped > 0) {
		strbuf_addstr(&sb, "; ");
		view_text_num(&sb, skipped);
		strbuf_addstr(&sb, " rows skipped (Flags set, or a timestamp "
		    "missing, zero or out of order)");
	}
	view_json_str(o, "phases_note", sb.buf);
	strbuf_release(&sb);
}

static void
put_phases(struct view_dev *d, cJSON *scene_o, const char *scenario,
    const char *scene)
{
	static const char *const keys[3] = { "p50", "p90", "mean" };
	static const int stats[3] = { 50, 90, 0 };
	const struct comparison *c = d->in->cmp;
	const struct cmp_entry *moved = moved_most(c, scenario, scene, 90);
	cJSON *arr = cJSON_CreateArray();

	for (int p = 0; p < RS_NR_PHASES; p++) {
		cJSON *o = NULL;

		for (int k = 0; k < 3; k++) {
			char name[64];
			const struct cmp_entry *e;

			if (stats[k])
				snprintf(name, sizeof(name), "phase_%s_%s_ms",
				    rs_phase_name(p), keys[k]);
			else
				snprintf(name, sizeof(name),
				    "phase_%s_mean_ms", rs_phase_name(p));
			e = comparison_find_explain(c, scenario, scene, name);
			if (!e)
				continue;
			if (!o) {
				o = cJSON_CreateObject();
				view_json_str(o, "label", rs_phase_label(p));
			}
			cJSON_AddItemToObject(o, keys[k], cell(e));
			if (e == moved)
				view_json_flag(o, "moved", true);
		}
		if (o)
			cJSON_AddItemToArray(arr, o);
	}
	if (moved) {
		struct metric_about a;
		struct strbuf sb = STRBUF_INIT;

		metric_explain_about(moved->metric, &a);
		strbuf_addf(&sb, "%s moved most: p90 ",
		    rs_phase_label(a.phase));
		view_text_signed(&sb, moved->shift, moved->unit);
		view_json_str(scene_o, "phases_moved", sb.buf);
		strbuf_release(&sb);
	}
	view_json_list(scene_o, "phases", arr);
	if (cJSON_GetArraySize(arr))
		phases_note(scene_o, d->in->current, scenario, scene);
}

/* ---- jank types --------------------------------------------------------- */

static void
put_jank_types(struct view_dev *d, cJSON *scene_o, const char *scenario,
    const char *scene)
{
	const struct comparison *c = d->in->cmp;
	cJSON *arr = cJSON_CreateArray();
	struct strbuf grew = STRBUF_INIT;

	for (int t = 0; t < RS_NR_JANK_TYPES; t++) {
		char name[64];
		const struct cmp_entry *e;
		cJSON *o;
		struct strbuf sb = STRBUF_INIT;
		bool up;

		snprintf(name, sizeof(name), "jank_type_%s",
		    rs_jank_type_name(t));
		e = comparison_find_explain(c, scenario, scene, name);
		/* A type no iteration of either side had says nothing. */
		if (!e || !(e->base.max > 0 || e->cur.max > 0))
			continue;
		o = cJSON_CreateObject();
		view_json_str(o, "label", rs_jank_type_label(t));
		view_json_value(o, "baseline", e->base.n ? e->base.median : NAN,
		    e->unit, view_text_value);
		view_json_value(o, "current", e->cur.n ? e->cur.median : NAN,
		    e->unit, view_text_value);
		view_json_value(o, "change", e->shift, e->unit, view_text_signed);
		interval(&sb, e);
		view_json_str(o, "interval", sb.len ? sb.buf : NULL);
		strbuf_release(&sb);
		/*
		 * Grew: the explanations' own test says it got worse, or the
		 * estimate reaches the threshold with its whole interval above
		 * zero.  A clue, not a verdict: with five iterations a
		 * handful of frames rarely survives the family's correction,
		 * and the reader wants to know which type moved.
		 */
		up = e->verdict == CMP_REGRESSION || (e->shift > 0 &&
		    e->shift >= e->threshold && e->shift_lo > 0);
		view_json_flag(o, "grew", up);
		cJSON_AddItemToArray(arr, o);
		if (up) {
			strbuf_addf(&grew, "%s%s ", grew.len ? ", " : "",
			    rs_jank_type_label(t));
			view_text_signed(&grew, e->shift, e->unit);
		}
	}
	view_json_list(scene_o, "jank_types", arr);
	view_json_str(scene_o, "jank_grew", grew.len ? grew.buf : NULL);
	strbuf_release(&grew);
}

/* ---- methods ------------------------------------------------------------ */

static void
method_side(cJSON *o, const char *key, const struct cmp_block_side *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!isfinite(s->count) || s->count == 0) {
		strbuf_addstr(&sb, "none");
	} else {
		view_text_num(&sb, s->count);
		strbuf_addstr(&sb, s->count == 1 ? " call in " : " calls in ");
		view_text_num(&sb, s->iterations);
		strbuf_addstr(&sb, s->iterations == 1 ? " iteration" :
		    " iterations");
		if (isfinite(s->wall_ms)) {
			strbuf_addstr(&sb, ", median ");
			view_text_value(&sb, s->wall_ms, "ms");
		}
	}
	view_json_str(o, key, sb.buf);
	strbuf_release(&sb);
}

static cJSON *
method_obj(struct view_dev *d, const struct cmp_method *m)
{
	static const char *const label[] = {
		[CMP_BLOCK_UNCHANGED] = "Unchanged", [CMP_BLOCK_NEW] = "New",
		[CMP_BLOCK_WORSE] = "Slower", [CMP_BLOCK_RESOLVED] = "Resolved",
	};
	cJSON *o = cJSON_CreateObject();
	bool bad = m->status == CMP_BLOCK_NEW || m->status == CMP_BLOCK_WORSE;

	view_json_str(o, "device", d->device);
	if (m->scene)
		view_json_strf(o, "where", "%s / %s", m->scenario, m->scene);
	else
		view_json_strf(o, "where", "%s (outside scenes)", m->scenario);
	view_json_str(o, "name", m->name);
	view_json_str(o, "source", m->source && !strcmp(m->source, "matrix") ?
	    "Matrix evil method" : m->source && !strcmp(m->source,
	    "traceman") ? "MethodTraceMan" : m->source);
	view_json_str(o, "status", cmp_block_status_name(m->status));
	view_json_str(o, "status_label", label[m->status]);
	view_json_str(o, "color", bad ? "#a50e0e" : "#1e6b34");
	view_json_str(o, "background", bad ? "#fce8e6" : "#e6f4ea");
	method_side(o, "baseline", &m->base);
	method_side(o, "current", &m->cur);
	return o;
}

/* The changed methods of `scenario`/`scene`, slower and new first. */
static cJSON *
methods_of(struct view_dev *d, const char *scenario, const char *scene)
{
	const struct comparison *c = d->in->cmp;
	cJSON *arr = cJSON_CreateArray();

	for (int rank = 3; rank > 0; rank--)
		for (size_t i = 0; i < c->nr_methods; i++) {
			const struct cmp_method *m = &c->methods[i];
			cJSON *o;

			if (view_block_rank(m->status) != rank ||
			    !same(m->scenario, scenario) ||
			    !same(m->scene, scene))
				continue;
			o = method_obj(d, m);
			cJSON_AddItemToArray(arr, o);
			view_note_method(d->b, o, m->status);
		}
	return arr;
}

void
view_explain_scene(struct view_dev *d, cJSON *o, const char *scenario,
    const char *scene, int worst)
{
	put_phases(d, o, scenario, scene);
	put_jank_types(d, o, scenario, scene);
	view_json_list(o, "methods", methods_of(d, scenario, scene));
	if (worst == CMP_REGRESSION && d->b->o->charts)
		view_timelines(d, o, scenario, scene);
}

/* ---- the scenario: methods outside scenes, the trace -------------------- */

/*
 * `to` relative to directory `from` (which need not exist yet), both
 * made absolute first: "../" for each component of `from` past their
 * common ones, then the rest of `to`.  NULL when `to` does not exist.
 */
/* `path` made absolute, its missing tail components kept as written. */
static bool
absolute(const char *path, char out[PATH_MAX], int depth)
{
	char *copy, *slash, *base;
	bool ok;

	if (realpath(path, out))
		return true;
	if (depth > 16 || !*path)
		return false;
	copy = xstrdup(path);
	while ((slash = strrchr(copy, '/')) && slash != copy && !slash[1])
		*slash = '\0';		/* trailing slashes */
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	if (slash)
		*slash = '\0';
	ok = *base && strcmp(base, ".") && strcmp(base, "..") &&
	    absolute(slash ? (*copy ? copy : "/") : ".", out, depth + 1) &&
	    strlen(out) + strlen(base) + 2 < PATH_MAX;
	if (ok) {
		size_t n = strlen(out);

		if (strcmp(out, "/"))
			out[n++] = '/';
		memcpy(out + n, base, strlen(base) + 1);
	}
	free(copy);
	return ok;
}

static char *
relative_to(const char *from, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX];
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0, common = 0;

	if (!absolute(from, a, 0) || !realpath(to, b))
		return NULL;
	/* The last '/' both share, with a[i] ending a component there. */
	for (; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			common = i;
	if (!a[i] && b[i] == '/')
		common = i;
	for (const char *p = a + common; *p; p++)
		if (*p == '/' && p[1])
			strbuf_addstr(&sb, "../");
	strbuf_addstr(&sb, b + common + 1);
	return strbuf_detach(&sb, NULL);
}

static void
put_trace(struct view_dev *d, cJSON *o, const char *scenario)
{
	struct strbuf file = STRBUF_INIT, path = STRBUF_INIT;
	char *dir, *href;
	struct stat st;
	cJSON *t;

	if (!d->in->name)
		return;
	dir = xstrdup(d->in->name);
	trace_file_name(&file, scenario);
	strbuf_addf(&path, "%s/%s/%s", dirname(dir), TRACE_DIR, file.buf);
	if (!stat(path.buf, &st) && S_ISREG(st.st_mode)) {
		href = d->b->o->report_dir ?
		    relative_to(d->b->o->report_dir, path.buf) : NULL;
		t = cJSON_CreateObject();
		view_json_str(t, "href", href ? href : path.buf);
		/* the same file from a device page, one folder down */
		if (href && href[0] != '/')
			view_json_strf(t, "page_href", "../%s", href);
		else
			view_json_str(t, "page_href", href ? href : path.buf);
		view_json_str(t, "file", file.buf);
		cJSON_AddItemToObject(o, "trace", t);
		free(href);
	}
	free(dir);
	strbuf_release(&file);
	strbuf_release(&path);
}

void
view_explain_scenario(struct view_dev *d, cJSON *o, const char *scenario)
{
	view_json_list(o, "methods", methods_of(d, scenario, NULL));
	put_trace(d, o, scenario);
}

/* ---- report-wide -------------------------------------------------------- */

void
view_note_method(struct view_builder *b, const cJSON *m,
    enum cmp_block_status s)
{
	if (s != CMP_BLOCK_NEW && s != CMP_BLOCK_WORSE)
		return;
	XALLOC_GROW(b->methods, b->nr_methods + 1, b->alloc_methods);
	b->methods[b->nr_methods] = (struct view_item){ m, view_block_rank(s),
	    b->nr_methods };
	b->nr_methods++;
}

void
view_explain_report(cJSON *root, struct view_builder *b)
{
	view_list_add(root, "changed_methods", b->methods, b->nr_methods,
	    MAX_CHANGED_METHODS, 0, INT_MAX);
	free(b->methods);
	b->methods = NULL;
	b->nr_methods = b->alloc_methods = 0;
}
