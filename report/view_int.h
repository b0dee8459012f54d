/*
 * view_int.h: what the view*.c files share while they build the model.
 * Besides report/view*.c only the writers that walk the finished model
 * in code include it (junit.c, ci.c); it is where cJSON shows.
 *
 *	view.c          the top of the model: merge, verdict, attention lists
 *	view_device.c   one device: run, hygiene, notes, its scenarios
 *	view_scenario.c one scenario and its scenes
 *	view_rows.c     one metric row, one block
 *	view_charts.c   the charts, through svg.h
 *	view_fmt.c      numbers, units, phrases, verdict objects
 */
#ifndef JG_VIEW_INT_H
#define JG_VIEW_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "view.h"

struct metric_series;
struct results;
struct rs_scenario;
struct strbuf;

struct view {
	cJSON *root;
	enum view_verdict verdict;
};

/* A row or block kept for the report-wide lists, with its severity. */
struct vitem {
	const cJSON *obj;
	int severity;		/* enum cmp_verdict, or a block's rank */
	size_t order;		/* position in the report, for stable sorts */
};

/* The whole build. */
struct vbuild {
	const struct view_opts *o;
	struct vitem *rows;		/* entries that are not pass or new */
	size_t nr_rows, alloc_rows;
	struct vitem *blocks;		/* new and worse blocks */
	size_t nr_blocks, alloc_blocks;
	size_t counts[CMP_NR_VERDICTS];
	size_t block_counts[CMP_BLOCK_RESOLVED + 1];
	size_t anchors;			/* ids handed out for in-page links */
	struct vitem *methods;		/* new and slower methods */
	size_t nr_methods, alloc_methods;
};

/* One comparison of the device being built. */
struct vdev {
	struct vbuild *b;
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
cJSON *vd_device(struct vbuild *b, const struct view_input *const *in,
    size_t nr, enum view_verdict *verdict);

/* view_scenario.c: the scenario `s` of d->in->cmp; *worst its verdict. */
cJSON *vs_scenario(struct vdev *d, const struct cmp_scenario *s,
    enum cmp_verdict *worst);

/* view_rows.c: a ROW for entry `e`, a BLOCK for `blk` (new objects). */
cJSON *vr_row(struct vdev *d, const struct cmp_entry *e);
cJSON *vr_block(struct vdev *d, const struct cmp_block *blk);
/* Severity of a block status for sorting: worse > new > resolved. */
int vr_block_rank(enum cmp_block_status s);

/* view_charts.c: complete <svg> strings, or NULL when there is no data. */
char *vc_histogram(const struct vdev *d, const char *scenario,
    const char *scene);
char *vc_startup(const struct vdev *d, const char *scenario);
char *vc_sparkline(const struct vdev *d, const struct cmp_entry *e);
/* The frames on each side behind vc_histogram, for a caption. */
void vc_frame_totals(const struct vdev *d, const char *scenario,
    const char *scene, double *base, double *cur);

/*
 * view_fmt.c: text for people, appended to sb.  vf_num: three significant
 * digits, no exponent ("13.1", "0.812", "1235", "n/a" for NAN); vf_value
 * adds the unit ("13.1 ms", "4.2%"); vf_signed a "+" when positive;
 * vf_percent_change the shift relative to the baseline ("+31%", nothing
 * when the base is 0 or unknown); vf_p_value "0.0023" or "< 0.0001";
 * vf_detectable what the comparison rules out (a pass), or the
 * smallest worse shift it flags at this sample (the rest), as a phrase.
 */
void vf_num(struct strbuf *sb, double v);
void vf_value(struct strbuf *sb, double v, const char *unit);
void vf_signed(struct strbuf *sb, double v, const char *unit);
void vf_percent_change(struct strbuf *sb, double shift, double base);
void vf_p_value(struct strbuf *sb, double p);
void vf_detectable(struct strbuf *sb, const struct cmp_entry *e);

/*
 * view_fmt.c: building the tree.  vj_str adds a string or null (s NULL),
 * vj_num a number or null (not finite), vj_flag true or nothing, vj_list
 * an array and its has_<key> boolean; vj_verdict and vj_view_verdict make
 * VERDICT objects, vj_counts a COUNTS object; vj_add_ref appends a
 * reference to `item` (not a copy: `item` must outlive the array).
 */
void vj_str(cJSON *obj, const char *key, const char *s);
void vj_strf(cJSON *obj, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vj_num(cJSON *obj, const char *key, double v);
void vj_flag(cJSON *obj, const char *key, bool on);
void vj_list(cJSON *obj, const char *key, cJSON *arr);
cJSON *vj_verdict(enum cmp_verdict v);
cJSON *vj_view_verdict(enum view_verdict v);
cJSON *vj_counts(const size_t counts[CMP_NR_VERDICTS]);
void vj_add_ref(cJSON *arr, const cJSON *item);
/* A fresh in-page anchor, "jg-N". */
void vj_anchor(struct vbuild *b, cJSON *obj);

/* view.c: remember a row or block for the report-wide lists. */
void vb_note_row(struct vbuild *b, const cJSON *row, enum cmp_verdict v);
void vb_note_block(struct vbuild *b, const cJSON *blk,
    enum cmp_block_status s);

/* view.c: add_items() for the other view files (see view.c). */
void vb_add_items(cJSON *root, const char *key, struct vitem *items,
    size_t nr, size_t max, int min_severity, int max_severity);

/*
 * view_explain.c (issue 20): the explanations beside a row, a block, a
 * scene and a scenario, the report-wide list of changed methods (the
 * shapes are drawn there), and vb_note_method() for that list.
 */
void vx_row(struct vdev *d, cJSON *row, const struct cmp_entry *e);
void vx_block(struct vdev *d, cJSON *o, const struct cmp_block *blk);
void vx_scene(struct vdev *d, cJSON *o, const char *scenario,
    const char *scene, int worst);
void vx_scenario(struct vdev *d, cJSON *o, const char *scenario);
void vx_report(cJSON *root, struct vbuild *b);
void vb_note_method(struct vbuild *b, const cJSON *m,
    enum cmp_block_status s);

/*
 * view_timeline.c: the frame timelines of a regressed scene (its worst
 * iteration now, and in the baseline) as "timelines" of `o`.
 */
void vt_timelines(struct vdev *d, cJSON *o, const char *scenario,
    const char *scene);

/* The scenario `name` of `r`, or NULL (r may be NULL). */
const struct rs_scenario *vd_find_scenario(const struct results *r,
    const char *name);

#endif
