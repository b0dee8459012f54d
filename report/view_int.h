/*
 * view_int.h: what the view*.c files share while they build the model.
 * Besides report/view*.c only the writers that walk the finished model
 * in code include it (junit.c, ci.c); it is where cJSON shows.
 *
 *	view.c          the top of the model: merge, verdict, summary
 *	view_device.c   one device: run, hygiene, notes, its scenarios
 *	                (view_device)
 *	view_scenario.c one scenario and its scenes (view_scenario)
 *	view_rows.c     one metric row, one block (view_row, view_block)
 *	view_explain.c  what explains a row, a block, a scene, a scenario
 *	                (view_explain_*, issue 20)
 *	view_list.c     the report-wide attention lists (view_note_*)
 *	view_timeline.c a regressed scene's frame timelines (view_timelines)
 *	view_charts.c   the charts, through svg.h (view_chart_*)
 *	view_text.c     numbers, units, phrases for people (view_text_*)
 *	view_json.c     values into the tree (view_json_*)
 *
 * Each file calls only the ones below it in this list.
 */
#ifndef JG_VIEW_INT_H
#define JG_VIEW_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "comparison.h"
#include "view.h"

struct metric_series;
struct results;
struct rs_scenario;
struct strbuf;

struct view {
	cJSON *root;
	enum exit_outcome verdict;
};

/* A row or block kept for the report-wide lists, with its severity. */
struct view_item {
	const cJSON *obj;
	int severity;		/* enum cmp_verdict, or a block's rank */
	size_t order;		/* position in the report, for stable sorts */
};

/* The whole build. */
struct view_builder {
	const struct view_opts *o;
	struct view_item *rows;		/* entries that are not pass or new */
	size_t nr_rows, alloc_rows;
	struct view_item *suspects;	/* entries compare named suspects */
	size_t nr_suspects, alloc_suspects;
	struct view_item *blocks;		/* new and worse blocks */
	size_t nr_blocks, alloc_blocks;
	size_t counts[CMP_NR_VERDICTS];
	size_t block_counts[CMP_BLOCK_RESOLVED + 1];
	size_t anchors;			/* ids handed out for in-page links */
	struct view_item *methods;		/* new and slower methods */
	size_t nr_methods, alloc_methods;
};

/* One comparison of the device being built. */
struct view_dev {
	struct view_builder *b;
	const struct view_input *in;
	const char *device;		/* display name for report-wide rows */
	struct metric_series *series;	/* trend lines from in->history */
	size_t nr_series;
};

/*
 * view_device.c: the DEVICE object of the comparisons in[0..nr) (one
 * device, merged), with its verdict in *verdict.  Rows and blocks are
 * counted into b and remembered for the report-wide lists.
 */
cJSON *view_device(struct view_builder *b, const struct view_input *const *in,
    size_t nr, enum exit_outcome *verdict);

/* view_scenario.c: the scenario `s` of d->in->cmp; *worst its verdict. */
cJSON *view_scenario(struct view_dev *d, const struct cmp_scenario *s,
    enum cmp_verdict *worst);

/* view_rows.c: a ROW for entry `e`, a BLOCK for `blk` (new objects). */
cJSON *view_row(struct view_dev *d, const struct cmp_entry *e);
cJSON *view_block(struct view_dev *d, const struct cmp_block *blk);

/* view_charts.c: complete <svg> strings, or NULL when there is no data. */
char *view_chart_histogram(const struct view_dev *d, const char *scenario,
    const char *scene);
char *view_chart_startup(const struct view_dev *d, const char *scenario);
char *view_chart_sparkline(const struct view_dev *d, const struct cmp_entry *e);
/* The frames on each side behind view_chart_histogram, for a caption. */
void view_chart_frame_totals(const struct view_dev *d, const char *scenario,
    const char *scene, double *base, double *cur);

/*
 * view_text.c: text for people, appended to sb.  view_text_num: three
 * significant digits, no exponent ("13.1", "0.812", "1235", "n/a" for
 * NAN); view_text_value adds the unit ("13.1 ms", "4.2%");
 * view_text_signed a "+" when positive; view_text_percent_change the
 * shift relative to the baseline ("+31%", nothing when the base is 0 or
 * unknown); view_text_p_value "0.0023" or "< 0.0001";
 * view_text_detectable what the comparison rules out (a pass), or the
 * smallest worse shift it flags at this sample (the rest), as a phrase.
 */
void view_text_num(struct strbuf *sb, double v);
void view_text_value(struct strbuf *sb, double v, const char *unit);
void view_text_signed(struct strbuf *sb, double v, const char *unit);
void view_text_percent_change(struct strbuf *sb, double shift, double base);
void view_text_p_value(struct strbuf *sb, double p);
void view_text_detectable(struct strbuf *sb, const struct cmp_entry *e);

/*
 * view_json.c: building the tree.  view_json_str adds a string or null
 * (s NULL), view_json_num a number or null (not finite), view_json_flag
 * true or nothing, view_json_list an array and its has_<key> boolean;
 * view_json_verdict and view_json_outcome make VERDICT objects,
 * view_json_counts a COUNTS object; view_json_add_ref appends a reference
 * to `item` (not a copy: `item` must outlive the array).
 */
void view_json_str(cJSON *obj, const char *key, const char *s);
void view_json_strf(cJSON *obj, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void view_json_num(cJSON *obj, const char *key, double v);
/* The text `fn` makes of (v, unit) as `key`, or null for NAN. */
void view_json_value(cJSON *obj, const char *key, double v, const char *unit,
    void (*fn)(struct strbuf *, double, const char *));
void view_json_flag(cJSON *obj, const char *key, bool on);
void view_json_list(cJSON *obj, const char *key, cJSON *arr);
cJSON *view_json_verdict(enum cmp_verdict v);
cJSON *view_json_outcome(enum exit_outcome v);
cJSON *view_json_counts(const size_t counts[CMP_NR_VERDICTS]);
/* "1 regression, 11 pass" (or "no metrics") in `sb`, which it returns. */
const char *view_counts_text(struct strbuf *sb,
    const size_t counts[CMP_NR_VERDICTS]);
void view_json_add_ref(cJSON *arr, const cJSON *item);
/* A fresh in-page anchor, "jg-N". */
void view_json_anchor(struct view_builder *b, cJSON *obj);

/*
 * view_list.c: remember a row or block for the report-wide lists (rows
 * that are not pass or new, blocks that are new or worse); then add `key`
 * with references to those of items[0..nr) whose severity is in
 * [min_severity, max_severity], worst first, at most `max`, and
 * "<key>_more": the number left out, when any.
 */
void view_note_row(struct view_builder *b, const cJSON *row,
    enum cmp_verdict v);
void view_note_block(struct view_builder *b, const cJSON *blk,
    enum cmp_block_status s);
/* A row compare named a suspect (docs/method.md, step 8), in report order. */
void view_note_suspect(struct view_builder *b, const cJSON *row);
void view_list_add(cJSON *root, const char *key, struct view_item *items,
    size_t nr, size_t max, int min_severity, int max_severity);
/* Severity of a block status for sorting: worse > new > resolved. */
int view_block_rank(enum cmp_block_status s);

/*
 * view_explain.c (issue 20): the explanations beside a row, a block, a
 * scene and a scenario, the report-wide list of changed methods (the
 * shapes are drawn there), and view_note_method() for that list.
 */
void view_explain_row(struct view_dev *d, cJSON *row,
    const struct cmp_entry *e);
void view_explain_block(struct view_dev *d, cJSON *o,
    const struct cmp_block *blk);
void view_explain_scene(struct view_dev *d, cJSON *o, const char *scenario,
    const char *scene, int worst);
void view_explain_scenario(struct view_dev *d, cJSON *o, const char *scenario);
void view_explain_report(cJSON *root, struct view_builder *b);
void view_note_method(struct view_builder *b, const cJSON *m,
    enum cmp_block_status s);

/*
 * view_timeline.c: the frame timelines of a regressed scene (its worst
 * iteration now, and in the baseline) as "timelines" of `o`.
 */
void view_timelines(struct view_dev *d, cJSON *o, const char *scenario,
    const char *scene);

/* The scenario `name` of `r`, or NULL (r may be NULL). */
const struct rs_scenario *view_find_scenario(const struct results *r,
    const char *name);

#endif
