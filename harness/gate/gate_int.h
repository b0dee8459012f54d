/*
 * gate_int.h: what the files of `jankgate gate` share.
 *
 *   gate.c          the context, the stages in order
 *   gate_outcome.c  the keys, notes and failures of the outcome
 *   gate_run.c      the first run and the extra batches
 *   gate_look.c     per device key: read, pool, compare, look again
 *   gate_deliver.c  the report, the mail, the baseline update
 *   gate_policy.c, gate_pool.c   the pure parts (gate.h)
 */
#ifndef JG_GATE_INT_H
#define JG_GATE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "baseline.h"
#include "baseline_store.h"

struct comparison;
struct config;
struct gate_opts;
struct gate_outcome;
struct results;
struct strlist;

/* What one device key needs between looks; parallel to out->keys. */
struct gate_work {
	struct results **devs;	/* one per device, as on disk */
	bool *alive;		/* the device may run more iterations */
	size_t nr_devs;
	struct results *pooled;	/* several devices pooled; else NULL */
	struct baseline_sample base;
	bool sampled;		/* `base` was loaded */
	struct comparison *cmp;	/* the last look's */
	bool stopped;		/* not comparable, broken: no more looks */
};

/* One gate_execute() call. */
struct gate_ctx {
	const struct gate_opts *o;
	const struct config *cfg;
	struct gate_outcome *out;
	struct baseline_store *bs;
	const char *out_dir;
	const char *ref;	/* compared against */
	struct gate_work *work;	/* parallel to out->keys */
	int looks;		/* planned: gate_looks() */
};

/* gate_outcome.c */

/* The key named `key` of the outcome, added when new. */
struct gate_key *gate_key_find_or_add(struct gate_ctx *g, const char *key);

/* Tell people one line through o->note, if set. */
void gate_note(struct gate_ctx *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A failure of `stage` ("run", "compare", "mail"...): merge `status` into
 * the outcome's, add "stage: message" to out->errors (once) and tell it.
 */
void gate_fail(struct gate_ctx *g, int status, const char *stage,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* gate_run.c */

/*
 * The first run, on every selected device, and the keys and work it
 * gives.  Returns 0, or -1 when no device measured anything (accounted).
 */
int gate_first_run(struct gate_ctx *g);

/*
 * Run `n` more iterations of `scenario` on `serials` in parallel,
 * appending to their results, and account for what the run reported.
 */
void gate_run_more(struct gate_ctx *g, const char *scenario, int n,
    const struct strlist *serials);

/* gate_look.c */

/*
 * (Re)read key `i`'s results files, pool several devices, count its
 * iterations.  Returns 0, or an error already accounted for.
 */
int gate_key_read(struct gate_ctx *g, size_t i);

/* Compare key `i` at look `look` and write its comparison.json. */
void gate_key_compare(struct gate_ctx *g, size_t i, int look);

/* Looks 2..looks: more iterations where a key is undecided. */
void gate_adapt(struct gate_ctx *g);

/* Each key's verdict becomes its share of the exit status. */
void gate_settle(struct gate_ctx *g);

/* Free what `w` holds; the struct itself is the caller's. */
void gate_work_release(struct gate_work *w);

/* gate_deliver.c: the stages after the comparisons, in this order. */
void gate_report(struct gate_ctx *g);
void gate_mail(struct gate_ctx *g);
void gate_record(struct gate_ctx *g);

#endif
