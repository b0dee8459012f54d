/*
 * view.h: the view model, the one tree every report format is rendered from.
 *
 * report.h: report.html, email.html, email.txt, summary.md and junit.xml
 * are Mustache templates over one model, built here from one or more
 * comparisons (shards and devices merge into one report), the current
 * results they name (frame histograms, failed iterations, hygiene, source
 * warnings) and optionally the baseline history (trend sparklines).  The
 * model holds text ready to print: numbers are formatted with their unit,
 * verdicts carry their label and colours, charts are complete <svg>
 * strings, and lists come in the order a reader wants them (worst first).
 *
 * The tree is a cJSON value internally; this header keeps it opaque.  Its
 * shape is the contract with template authors and is drawn in view.c;
 * view_to_json() prints it (report writes it as view.json beside the
 * report, so `jankgate mail` and people can read it).
 */
#ifndef JG_VIEW_H
#define JG_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "exitstatus.h"
#include "strlist.h"

struct comparison;
struct mustache;
struct mustache_opts;
struct results;
struct strbuf;
struct view;


/* One comparison file and what it names; everything but cmp may be NULL. */
struct view_input {
	const struct comparison *cmp;
	const char *name;		/* the file, as the user named it */
	const struct results *current;	/* the run compared, for charts */
	/* The baseline runs compared against, for the distribution charts. */
	struct results *const *baselines;
	size_t nr_baselines;
	/* Accepted runs of this device, NEWEST first, for trend lines. */
	struct results *const *history;
	size_t nr_history;
	/* Why some of the above is missing, one line each; may be NULL. */
	const struct strlist *notes;
};

struct view_opts {
	const char *title;		/* NULL: "jankgate report" */
	size_t max_attention;		/* rows in `attention`; 0: 50 */
	size_t max_stack;		/* frames shown per block; 0: 30 */
	int charts;			/* 0: leave every chart out */
	/* Where report.html goes, for links to traces; NULL: absolute. */
	const char *report_dir;
	/* report_opts' bisect and bisect_href: the view's `bisect`. */
	const char *bisect;
	const char *bisect_href;
	/*
	 * Called for in[i] of each device just before the device is built
	 * (`attach` true) and just after (false), so the caller can read its
	 * baselines and history then and free them after: a report of many
	 * devices holds one device's runs at a time.  The caller's array is
	 * its own to fill.  NULL: every input is complete from the start.
	 */
	void (*runs)(void *data, size_t i, bool attach);
	void *runs_data;
};

/*
 * Build the model of `in[0..nr)` (nr >= 1).  Comparisons of the same
 * device (key and serial) merge into one device entry.  Nothing here
 * fails; the caller frees the result with view_free().
 */
struct view *view_build(const struct view_input *in, size_t nr,
    const struct view_opts *o);

/* Free the model; NULL is a no-op. */
void view_free(struct view *v);

/*
 * The report's verdict: exitstatus.h's precedence between the outcomes a
 * report can see (exitstatus.h): a regression anywhere outranks a device
 * whose run broke, which outranks an inconclusive comparison.
 */
enum exit_outcome view_verdict(const struct view *v);

/* The model as pretty-printed JSON; the caller frees it. */
char *view_to_json(const struct view *v);

/*
 * Render template `t` over the model, appending to `out` (mustache_render
 * with the model as data).  Returns 0 or the engine's error.
 */
int view_render(const struct view *v, const struct mustache *t,
    const struct mustache_opts *o, struct strbuf *out);

/* The number of devices, and the page of device i ("devices/KEY.html"). */
size_t view_device_count(const struct view *v);
const char *view_device_page(const struct view *v, size_t i);

/*
 * Render template `t` over the page of device i (view.c draws its
 * context), appending to `out`.  Returns 0 or the engine's error.
 */
int view_render_device(const struct view *v, size_t i,
    const struct mustache *t, const struct mustache_opts *o,
    struct strbuf *out);

#endif
