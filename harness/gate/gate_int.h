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
#include "run.h"

struct comparison;
struct config;
struct gate_opts;
struct gate_outcome;
struct results;
struct strlist;

/* What confirming needs of the newest run of a key's window. */
struct gate_newest {
	bool any;		/* the window holds a run */
	char *version_name;	/* its app's, or NULL */
	double version_code;	/* NAN: not recorded */
	char *apk_sha256;	/* or NULL */
};

/*
 * What one device key needs between looks; parallel to out->keys.  The
 * results and the baseline sample are held only while the key is
 * compared: a night of many keys holds one key's runs at a time (issue
 * 51), and a later look reads them again.  `ab` keeps its results.
 */
struct gate_work {
	struct results **devs;	/* one per device, as on disk, or NULL */
	bool *alive;		/* the device may run more iterations */
	size_t nr_devs;
	struct results *pooled;	/* several devices pooled; else NULL */
	struct baseline_sample base;
	bool sampled;		/* `base` is loaded (while comparing) */
	bool window_read;	/* it was loaded once: `newest` holds */
	struct gate_newest newest;
	const char *commit_word;	/* gate_commit_verdict() of `cmp`, kept
					   by gate_keys_done(); NULL before */
	/* Of the results last read (gate_key_read()), kept when freed: */
	double refresh_hz;	/* the display's; NAN: not recorded */
	char *run_error;	/* the first device's first run error, or NULL */
	struct comparison *cmp;	/* the last look's */
	bool stopped;		/* not comparable, broken: no more looks */
	struct strlist ab_a;	/* `ab`: the old build's results files,
				   parallel to the key's (the new build's) */
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
	/*
	 * A confirmation's A/B (gate_confirm.c) runs gate_ab() in a context
	 * of its own: only these scenarios at first (NULL: every one), a
	 * pre-heat block of the new build first (not compared), and each
	 * key's comparison at share_of()'s share of alpha (NULL:
	 * gate_share()'s).
	 */
	const struct strlist *ab_scenarios;
	bool ab_heat;
	const char *ab_old_what;	/* the old build, in messages */
	bool ab_early;		/* spend alpha early (Pocock): a confirmation
				   stops at the round that settles it */
	/*
	 * The scenarios of key `i` another round is for; NULL:
	 * gate_undecided()'s (a confirmation asks only about the scenes
	 * the history accused).
	 */
	void (*undecided_of)(const struct gate_ctx *g, size_t i,
	    struct strlist *out);
	double (*share_of)(const struct gate_ctx *g, const char *key);
	const void *share_data;
	/*
	 * `jankgate bisect`: cut both sides of each A/B comparison to the
	 * scenes this keeps (results_keep_scenes()); NULL: every scene.
	 */
	bool (*ab_keep)(const char *scenario, const char *scene, void *data);
	void *ab_keep_data;
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

/* gate.c */

/*
 * The stages after the first run, in order: compare each key, look again,
 * confirm, settle, trace, report, mail, record.  g->work and the keys are
 * gate_keys_from_run()'s.  tests/bench/bench_gate.c drives it too.
 */
void gate_after_run(struct gate_ctx *g);

/* gate_run.c */

/*
 * The first run, on every selected device, and the keys and work it
 * gives.  Returns 0, or -1 when no device measured anything (accounted).
 */
int gate_first_run(struct gate_ctx *g);

/*
 * The keys of out->run (a key per device key, its devices and results
 * files) and g->work for each, as the first run leaves them; then the
 * run's account (gate_run_account()).  Returns 0, or -1 when no device
 * measured anything (accounted).
 */
int gate_keys_from_run(struct gate_ctx *g);

/*
 * Run `n` more iterations of `scenario` on `serials` in parallel,
 * appending to their results, and account for what the run reported.
 */
void gate_run_more(struct gate_ctx *g, const char *scenario, int n,
    const struct strlist *serials);

/* The run options every run of the gate starts from. */
void gate_run_opts(struct gate_ctx *g, struct run_opts *ro);

/*
 * Account for one run_execute() call: its problems, its status, and each
 * failed device's key, whose device runs no more batches.
 */
void gate_run_account(struct gate_ctx *g, const struct run_report *r);

/* gate_ab.c */

/*
 * `jankgate ab` / `gate --ab OLD.apk`: the two builds in ABBA blocks on
 * every device, compared after each round (gate.h).  Fills the keys as the
 * stages after the comparisons need them.  Returns 0, or -1 when nothing
 * could be measured (already accounted for).
 */
int gate_ab(struct gate_ctx *g);

/* gate_confirm.c */

/*
 * With the previous accepted build (--confirm-apk, baseline.previous_apk),
 * confirm each key's regressions with an interleaved A/B of the suspect
 * scenarios on the key's phones, and rewrite its comparison by what the
 * A/B found (compare_confirm()).  Without it, nothing changes.
 */
void gate_confirm(struct gate_ctx *g);

/* gate_look.c */

/*
 * (Re)read key `i`'s results files, pool several devices, count its
 * iterations.  Returns 0, or an error already accounted for.
 */
int gate_key_read(struct gate_ctx *g, size_t i);

/* Compare key `i` at look `look` and write its comparison.json. */
void gate_key_compare(struct gate_ctx *g, size_t i, int look);

/*
 * Keep `cmp` (owned from now on) as key `i`'s comparison at look `look`:
 * its verdict, counts, regressions and blocks in the key, written to the
 * key's comparison.json (beside its first results file unless already
 * named), and a line for people.
 */
void gate_key_store(struct gate_ctx *g, size_t i, struct comparison *cmp,
    int look);

/*
 * After gate_confirm() changed key `i`'s comparison (w->cmp) in place:
 * its verdict, counts and lists again, and its comparison.json rewritten
 * (the looks' own files keep what each look said).
 */
void gate_key_rewrite(struct gate_ctx *g, size_t i);

/*
 * Read the results files `files` (several devices of one key), pool them
 * (gate_pool) and write the pooled run to pooled-results.json beside the
 * first; the pooled model in *out, the file's path in *path (both the
 * caller's).  Returns 0 or the error of reading or writing.
 */
int gate_pool_files(struct results **out, char **path,
    const struct strlist *files);

/* Looks 2..looks: more iterations where a key is undecided. */
void gate_adapt(struct gate_ctx *g);

/* Each key's verdict becomes its share of the exit status. */
void gate_settle(struct gate_ctx *g);

/*
 * After gate_settle() and gate_trace(), the last readers of the
 * comparisons in memory: keep of each what recording needs (its
 * commit_word) and free it, so the report, which reads every comparison
 * back from disk, does not find fifty more beside its own.
 */
void gate_keys_done(struct gate_ctx *g);

/* Free what `w` holds; the struct itself is the caller's. */
void gate_work_release(struct gate_work *w);

/*
 * gate_trace.c (issue 20): diagnose.trace's traced iteration of each
 * regressed scenario, after gate_settle() and before the report.
 */
void gate_trace(struct gate_ctx *g);

/*
 * gate_bisect.c (issue 53): with --bisect, a night that regressed
 * bisects its builds on the phones that regressed, after gate_trace()
 * and before the report, which names the culprit.
 */
void gate_bisect(struct gate_ctx *g);

/* gate_deliver.c: the stages after the comparisons, in this order. */
void gate_report(struct gate_ctx *g);
void gate_mail(struct gate_ctx *g);
void gate_record(struct gate_ctx *g);

#endif
