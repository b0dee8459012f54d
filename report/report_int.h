/*
 * report_int.h: what report.c shares with report_load.c and with the
 * writers of the formats that are not templates (junit.c, openmetrics.c,
 * ci.c).  Nothing outside report/ includes it.
 */
#ifndef JG_REPORT_INT_H
#define JG_REPORT_INT_H

#include <stddef.h>

#include "strlist.h"

struct comparison;
struct report_opts;
struct results;

/* One comparison file and everything read for it. */
struct report_input {
	char *path;
	struct comparison *cmp;
	struct results *current;	/* NULL: not found */
	struct results **baselines;	/* borrowed from `owned` or history */
	size_t nr_baselines;
	size_t nr_baseline_files;	/* the first ones, from `owned` */
	struct results **history;	/* borrowed, newest first */
	size_t nr_history;
	struct strlist notes;		/* what is missing and why */
	struct results **owned;		/* current and baseline files */
	size_t nr_owned, alloc_owned;
};

/* The baseline history of one package and device key, while in use. */
struct report_history_runs {
	char *package, *key;
	struct results **runs;		/* newest first */
	size_t nr;
	size_t users;			/* inputs attached; 0: not loaded */
};

struct report_inputs {
	struct report_input *in;
	size_t nr;
	struct report_history_runs *hist;
	size_t nr_hist, alloc_hist;
};

/*
 * Read every comparison of `o` and the files it names (report.h says
 * what), not the history: report_history_attach() reads that one device
 * at a time.  Problems that only leave something out of the report are
 * appended to `notes`; an unreadable or invalid comparison or results
 * file is an error (JG_ENOTFOUND, JG_EINVAL or JG_EIO, naming the file).
 * `out` is filled even on error: release it with report_inputs_release().
 */
int report_load(struct report_inputs *out, const struct report_opts *o,
    struct strlist *notes);

/*
 * Give ri->in[i] its history through o->history (its baselines too when
 * their files were not found), read once for all the inputs of one
 * package and device key attached at a time; what cannot be read is a
 * line in `notes` (each line once), never an error.
 */
void report_history_attach(struct report_inputs *ri,
    const struct report_opts *o, size_t i, struct strlist *notes);

/* Take back what report_history_attach() gave ri->in[i]; the history of
 * its device key is freed when no input holds it. */
void report_history_detach(struct report_inputs *ri, size_t i);

void report_inputs_release(struct report_inputs *ri);

/*
 * junit.c: junit.xml of the model `v`, appended to `out`: valid against
 * the junit-10 schema, counts that add up (junit.c draws the layout).
 * Returns 0, or JG_EGENERIC when libxml2 fails.
 */
struct strbuf;
struct view;
int junit_write(const struct view *v, struct strbuf *out);

/*
 * openmetrics.c: metrics.txt for comparisons cmps[0..nr) and the report's
 * exit status, appended to `out` (the layout is drawn in openmetrics.c).
 */
void openmetrics_write(const struct comparison *const *cmps, size_t nr,
    int exit_code, struct strbuf *out);

/* ci.c: the GitHub workflow commands of the model, one line each. */
void ci_github_commands(const struct view *v, struct strlist *out);

#endif
