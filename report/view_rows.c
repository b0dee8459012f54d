/*
 * view_rows.c: one metric row and one block of the model.
 *
 * A row is one (device, scenario, scene, metric) entry of comparison.json
 * as a table shows it: medians with their units, the change and its
 * interval, the p-value, the threshold applied, the smallest detectable
 * change as a sentence, the reason compare gave, and the trend line.  A
 * block is one stack signature that is new, worse or resolved, with its
 * frames (innermost first, as Java prints them) and its counts and
 * durations on both sides.  Every string from a device or a scenario goes
 * in as it is; the templates' escaping makes it safe.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "strbuf.h"
#include "view_int.h"
#include "banned.h"

static void
put_where(cJSON *o, const char *scenario, const char *scene)
{
	if (scene)
		view_json_strf(o, "where", "%s / %s", scenario, scene);
	else
		view_json_str(o, "where", scenario);
}

/*
 * One estimator per column (issue 48).  `change` is current minus
 * baseline of the two medians printed beside it, so the three agree;
 * `shift` is the test's own estimate (Hodges-Lehmann, or the difference
 * of the sessions' means for the t test, after the session offsets:
 * docs/method.md, step 5), which `interval` and `p` belong to.  They
 * differ where the test sees what the medians do not: a block_ms of
 * 0 ms on both sides whose occurrences grew.
 */
static void
put_change(cJSON *o, const struct cmp_entry *e)
{
	struct strbuf sb = STRBUF_INIT;
	double change = e->base.n && e->cur.n ? e->cur.median - e->base.median :
	    NAN;

	view_json_value(o, "change", change, e->unit, view_text_signed);
	/* A relative change of a percentage reads as a typo: leave it out. */
	if (!e->unit || strcmp(e->unit, "%"))
		view_text_percent_change(&sb, change, e->base.median);
	view_json_str(o, "change_pct", sb.len ? sb.buf : NULL);
	strbuf_setlen(&sb, 0);
	view_json_value(o, "shift", e->shift, e->unit, view_text_signed);
	if (isfinite(e->shift_lo) && isfinite(e->shift_hi)) {
		view_text_signed(&sb, e->shift_lo, NULL);
		strbuf_addstr(&sb, " to ");
		view_text_signed(&sb, e->shift_hi, e->unit);
		view_json_str(o, "interval", sb.buf);
	} else {
		cJSON_AddNullToObject(o, "interval");
	}
	strbuf_setlen(&sb, 0);
	if (isfinite(e->shift_level)) {
		view_text_num(&sb, round(e->shift_level * 100));
		strbuf_addch(&sb, '%');
	}
	view_json_str(o, "interval_level", sb.len ? sb.buf : NULL);
	strbuf_setlen(&sb, 0);
	view_text_p_value(&sb, e->p_adjusted);
	view_json_str(o, "p", sb.len ? sb.buf : NULL);
	/* "p = 0.002", "p < 0.0001": for prose, where "p 0.002" would not do */
	if (sb.len)
		view_json_strf(o, "p_text", "p %s%s", sb.buf[0] == '<' ? "" :
		    "= ", sb.buf);
	else
		cJSON_AddNullToObject(o, "p_text");
	strbuf_release(&sb);
}

/*
 * The A/B's p for an entry a gate confirmation (compare_confirm.c, Method
 * step 9) confirmed or found: its reason ends "...; confirmed by WHAT:
 * EVIDENCE" or "...; found by WHAT: EVIDENCE", EVIDENCE being the A/B's
 * regressions of the scene, "METRIC +3 ms, p 0.0002; ...".  Puts
 * `ab_p`, the p of the entry's own metric, else of the first, with
 * `ab_p_of` saying what that is ("frame_p50_ms", "new block"); null when
 * there is none.
 * The entry's p_adjusted stays the history's, so the p column would
 * show the screen's evidence for the judge's verdict (issue 48).
 */
static void
put_ab_p(cJSON *o, const struct cmp_entry *e)
{
	const char *r = e->reason, *ev = NULL, *best = NULL, *of = NULL;
	size_t of_len = 0;

	if (r && (strstr(r, "; confirmed by ") || strstr(r, "; found by ")))
		ev = strrchr(r, ':');
	for (const char *item = ev ? ev + 1 : NULL; item && *item; ) {
		const char *end = strstr(item, "; "), *p;
		size_t n = end ? (size_t)(end - item) : strlen(item);
		bool own;

		while (*item == ' ')
			item++;
		p = strstr(item, ", p ");
		own = e->metric && !strncmp(item, e->metric,
		    strlen(e->metric)) && item[strlen(e->metric)] == ' ';
		if (p && p < item + n && (!best || own)) {
			best = p + 4;
			of = own ? NULL : item;
			of_len = !strncmp(item, "new block", 9) ? 9 :
			    strcspn(item, " ");
			if (own)
				break;
		}
		item = end ? end + 2 : NULL;
	}
	if (best)
		view_json_strf(o, "ab_p", "%.*s", (int)strcspn(best, ";"),
		    best);
	else
		cJSON_AddNullToObject(o, "ab_p");
	if (of)
		view_json_strf(o, "ab_p_of", "%.*s", (int)of_len, of);
	else
		cJSON_AddNullToObject(o, "ab_p_of");
}

/*
 * The session spread the entry was tested with, when it is not its kind's
 * (the method paragraph names those): a metric whose own sessions move
 * more, or a jank share whose scene's speed says more; and the phone's
 * session offset taken off its values.  NULL when neither.
 */
static void
put_spread(cJSON *o, const struct cmp_entry *e)
{
	struct strbuf sb = STRBUF_INIT;

	if ((e->spread_from == CMP_SPREAD_OWN ||
	    e->spread_from == CMP_SPREAD_SPEED) && isfinite(e->sd_session)) {
		strbuf_addstr(&sb, "tested with a session spread of ");
		if (e->log_scale) {
			view_text_num(&sb, 100 * e->sd_session);
			strbuf_addstr(&sb, " %");
		} else {
			view_text_value(&sb, e->sd_session, e->unit);
		}
		strbuf_addstr(&sb, e->spread_from == CMP_SPREAD_OWN ?
		    ": this metric's own sessions differ more than its "
		    "kind's" : ": what the frame times' spread makes of how "
		    "this scene follows its frames' speed");
	}
	/* compare_offset.c: tonight's values taken back by the phone's
	 * offset in their sessions, as the session's other scenes saw it. */
	if (isfinite(e->offset) && e->offset != 0) {
		strbuf_addstr(&sb, sb.len ? "; " : "");
		strbuf_addstr(&sb, "tonight's values taken back by ");
		view_text_value(&sb, e->offset, e->unit);
		strbuf_addstr(&sb, ", the phone's offset in their sessions as "
		    "the other scenes measured it");
	}
	view_json_str(o, "spread", sb.len ? sb.buf : NULL);
	strbuf_release(&sb);
}

cJSON *
view_row(struct view_dev *d, const struct cmp_entry *e)
{
	const struct metric_def *m = metric_find(e->metric);
	cJSON *o = cJSON_CreateObject();
	struct strbuf sb = STRBUF_INIT;
	char *trend;

	view_json_str(o, "device", d->device);
	view_json_str(o, "scenario", e->scenario);
	view_json_str(o, "scene", e->scene);
	put_where(o, e->scenario, e->scene);
	view_json_str(o, "metric", e->metric);
	view_json_str(o, "description", m ? m->description : NULL);
	view_json_str(o, "unit", e->unit);
	view_json_str(o, "better", e->higher_is_better ? "higher" : "lower");
	cJSON_AddItemToObject(o, "verdict", view_json_verdict(e->verdict));
	view_json_value(o, "baseline", e->base.n ? e->base.median : NAN, e->unit,
	    view_text_value);
	cJSON_AddNumberToObject(o, "baseline_n", (double)e->base.n);
	view_json_value(o, "current", e->cur.n ? e->cur.median : NAN, e->unit,
	    view_text_value);
	cJSON_AddNumberToObject(o, "current_n", (double)e->cur.n);
	put_change(o, e);
	view_json_value(o, "threshold", e->threshold, e->unit, view_text_value);
	view_text_detectable(&sb, e);
	view_json_str(o, "detectable", sb.len ? sb.buf : NULL);
	view_json_str(o, "reason", e->reason);
	/* docs/method.md, step 8: worse by T, listed by BH, not a verdict. */
	if (e->suspect) {
		cJSON_AddTrueToObject(o, "suspect");
		strbuf_setlen(&sb, 0);
		view_text_p_value(&sb, e->q_value);
		view_json_str(o, "q", sb.buf);
		strbuf_setlen(&sb, 0);
	}
	put_spread(o, e);
	put_ab_p(o, e);
	view_explain_row(d, o, e);	/* issue 20: the phase that moved */
	/* an A/B has no history: its baseline is build A, measured tonight */
	trend = d->in->cmp->interleaved ? NULL : view_chart_sparkline(d, e);
	view_json_str(o, "trend", trend);
	free(trend);
	strbuf_release(&sb);
	return o;
}


/* One side of a block: "3 in 5 iterations, median 240 ms". */
static cJSON *
block_side(const struct cmp_block_side *s)
{
	cJSON *o = cJSON_CreateObject();
	struct strbuf sb = STRBUF_INIT;

	view_json_value(o, "count", s->count, NULL, view_text_value);
	view_json_value(o, "iterations", s->iterations, NULL, view_text_value);
	view_json_value(o, "per_iteration", s->per_iteration, NULL, view_text_value);
	view_json_value(o, "wall_ms", s->wall_ms, "ms", view_text_value);
	if (!isfinite(s->count) || s->count == 0) {
		strbuf_addstr(&sb, "none");
	} else {
		view_text_num(&sb, s->count);
		strbuf_addstr(&sb, " in ");
		view_text_num(&sb, s->iterations);
		strbuf_addstr(&sb, s->iterations == 1 ? " iteration" :
		    " iterations");
		if (isfinite(s->wall_ms)) {
			strbuf_addstr(&sb, ", median ");
			view_text_value(&sb, s->wall_ms, "ms");
		}
	}
	view_json_str(o, "text", sb.buf);
	strbuf_release(&sb);
	return o;
}

cJSON *
view_block(struct view_dev *d, const struct cmp_block *blk)
{
	static const char *const label[] = {
		[CMP_BLOCK_UNCHANGED] = "Unchanged", [CMP_BLOCK_NEW] = "New",
		[CMP_BLOCK_WORSE] = "Worse", [CMP_BLOCK_RESOLVED] = "Resolved",
	};
	const struct strlist *st = &blk->stack;
	size_t max = d->b->o->max_stack, shown;
	cJSON *o = cJSON_CreateObject(), *frames;
	const struct cmp_block_side *side;
	int bad = blk->status == CMP_BLOCK_NEW ||
	    blk->status == CMP_BLOCK_WORSE;

	view_json_str(o, "device", d->device);
	view_json_str(o, "scenario", blk->scenario);
	view_json_str(o, "scene", blk->scene);
	if (blk->scene)
		put_where(o, blk->scenario, blk->scene);
	else
		view_json_strf(o, "where", "%s (outside scenes)",
		    blk->scenario);
	view_json_str(o, "status", cmp_block_status_name(blk->status));
	/* A new signature that fails the run says so in its label. */
	if (blk->verdict == CMP_REGRESSION) {
		view_json_str(o, "status_label", "New: regression");
		cJSON_AddTrueToObject(o, "regression");
		view_json_strf(o, "verdict_text", "new in %.0f of %.0f "
		    "iterations, none of %.0f baseline ones (p = %.2g)",
		    blk->cur.carriers, blk->cur.iterations,
		    blk->base.iterations, blk->p_value);
	} else if (blk->elsewhere) {
		/* Not a new cause: the baseline had it in another scene. */
		view_json_str(o, "status_label", "New here, known elsewhere");
	} else {
		view_json_str(o, "status_label", label[blk->status]);
	}
	cJSON_AddTrueToObject(o, cmp_block_status_name(blk->status));
	view_json_str(o, "color", bad ? "#a50e0e" : "#1e6b34");
	view_json_str(o, "background", bad ? "#fce8e6" : "#e6f4ea");
	view_json_str(o, "signature", blk->signature);
	view_json_strf(o, "short_signature", "%.12s", blk->signature);
	view_json_str(o, "top", st->nr ? st->items[0] : "(no stack)");
	frames = cJSON_CreateArray();
	shown = st->nr < max ? st->nr : max;
	for (size_t i = 0; i < shown; i++)
		cJSON_AddItemToArray(frames, cJSON_CreateString(st->items[i]));
	view_json_list(o, "stack", frames);
	if (st->nr > shown)
		cJSON_AddNumberToObject(o, "stack_more",
		    (double)(st->nr - shown));
	cJSON_AddItemToObject(o, "baseline", block_side(&blk->base));
	cJSON_AddItemToObject(o, "current", block_side(&blk->cur));
	/* The side that has the block: the current one unless resolved. */
	side = blk->status == CMP_BLOCK_RESOLVED ? &blk->base : &blk->cur;
	view_json_value(o, "wall_ms", side->wall_ms, "ms", view_text_value);
	view_explain_block(d, o, blk);	/* issue 20: headline frame, janky frames */
	return o;
}
