/*
 * report_int.h: what report.c and report_load.c share.  Nothing outside
 * report/report*.c includes it.
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
	struct results **history;	/* borrowed, newest first */
	size_t nr_history;
	struct strlist notes;		/* what is missing and why */
	struct results **owned;		/* current and baseline files */
	size_t nr_owned, alloc_owned;
};

/* The baseline history of one package and device key. */
struct report_history {
	char *package, *key;
	struct results **runs;		/* newest first */
	size_t nr;
};

struct report_inputs {
	struct report_input *in;
	size_t nr;
	struct report_history *hist;
	size_t nr_hist, alloc_hist;
};

/*
 * Read every comparison of `o` and what it names (report.h says what).
 * Problems that only leave something out of the report are appended to
 * `notes`; an unreadable or invalid comparison or results file is an
 * error (JG_ENOTFOUND, JG_EINVAL or JG_EIO, naming the file).  `out` is
 * filled even on error: release it with report_inputs_release().
 */
int report_load(struct report_inputs *out, const struct report_opts *o,
    struct strlist *notes);

void report_inputs_release(struct report_inputs *ri);

#endif
