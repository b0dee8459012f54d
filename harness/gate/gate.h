/*
 * gate.h: `jankgate gate`, the nightly one-shot, as one function.
 *
 * gate_execute() strings the single commands' code together (composition
 * only) and keeps everything it measured on disk whatever fails later:
 *
 *   1. open the baseline store (bad names stop here, before any device
 *      is touched);
 *   2. run_execute() on every selected device in parallel, writing
 *      OUT/<device-key>[@<serial>]/results.json;
 *   3. per device key, one comparison: the devices of one key are pooled
 *      into OUT/<key>/pooled-results.json (their iterations side by side,
 *      a results file like any other), compared by compare_run() with the
 *      last baseline.history runs of that key on the ref (--against REF,
 *      else baseline.ref), written to OUT/<key>/comparison.json;
 *   4. adaptive iterations: while a key's comparison has undecided
 *      (inconclusive) entries and its devices have measured fewer than
 *      max_iterations of an undecided scenario, run another batch of
 *      that scenario on those devices (run_execute with `append`) and
 *      compare again, each look at its share of alpha (below).  A
 *      regression does not end the looking, so every regression the
 *      night can establish is reported; it stands at the later looks
 *      (compare_opts.prior) and is the key's verdict.  A device whose
 *      run failed runs no more batches.  The look after
 *      which nothing more can be measured is the last (compare decides
 *      there instead of asking for more);
 *   4b. with the previous accepted build (confirm_apk, else the pattern
 *      baseline.previous_apk), a key whose looks ended in a regression
 *      puts it to an interleaved A/B of that build and tonight's on its
 *      phones, the suspect scenarios only, and its comparison is
 *      rewritten by what the A/B found (gate_confirm.c; docs/method.md,
 *      step 9);
 *   5. with diagnose.trace, one more, unmeasured iteration of each
 *      regressed scenario records a Perfetto trace into OUT/KEY/traces/
 *      (gate_trace.c), which the report links;
 *   5b. with --bisect (bisect.gate), a night that regressed bisects the
 *      builds from the last passing baseline run's build id to
 *      tonight's on the phones that regressed, into OUT/bisect/
 *      (gate_bisect.c), which the report and the mail name; the exit
 *      status stays the night's;
 *   6. one report over every comparison file, in OUT/report/;
 *   7. mail it by mail.when (or --mail): always, on a regression, never;
 *   8. record each key's run as its new baseline by baseline.update (or
 *      --update): never, on-pass (the key's verdict is pass, improvement
 *      or new, and no key regressed), always (any verdict); a run that
 *      did not complete, that failed on a device, or that could not be
 *      compared, is never recorded.
 *
 * The night is the family: each key's comparison tests at its share of
 * alpha (gate_share(): its scenarios over every key's and every shard's
 * (key, scenario) pairs, which a shard knows from the configuration and
 * the devices), so false regressions over the whole night stay below
 * alpha.  A shard reads history x N baseline commits, so that each of its
 * scenarios keeps `history` runs though every shard records its own.
 * Each extra batch is a new session: the app force-stopped and the phone
 * left idle for session.cooldown_s first.
 *
 * Looks.  The number of looks is fixed before the first one, from the
 * batch size (`iterations`) and max_iterations: looks = 1 +
 * ceil((max_iterations - iterations) / iterations).  Deciding at any of
 * several looks would spend alpha once per look, so look k tests at its
 * share of alpha by compare's spending rule (compare_look_alpha(): the
 * shares add up to alpha, so the gate's false-alarm rate over all looks
 * stays at alpha).  An extra batch runs no warm-ups: the device has just
 * run the same app.
 *
 * Shards (--shard I/N) are run's: the shard measures its (device,
 * scenario) pairs, compares and reports them; scenarios of the baseline
 * that the shard did not measure are left out of its baseline sample, so
 * they are not "missing".  `jankgate report` merges the shards' comparison
 * files into one report, and `jankgate mail` sends it.  A shard records
 * what it measured, its scenarios only, by the update policy; compare
 * pools each scenario over the baseline runs that hold it, so with
 * baseline.history at least N every scenario keeps a baseline.
 *
 * The exit status (out->status) follows exitstatus.h through
 * cmd_exit_merge(): 2 when nothing could run or a key was not comparable;
 * otherwise 1 for any regression, 3 for any infrastructure failure (a
 * device refused or lost, the report, mail or baseline push failing), 4
 * for a comparison still inconclusive after max_iterations, else 0.
 *
 * Interrupted (run_interrupt(), cancel.h) in any stage: the devices stop
 * as run.h says, what was measured is still compared and reported on
 * disk, nothing is mailed or recorded after the request (a mail or push
 * in flight is abandoned), and the status is 3 (or 1 or 2, which rank
 * above it): never 0 or 4.
 */
#ifndef JG_GATE_H
#define JG_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "baseline_store.h"
#include "compare.h"
#include "config.h"
#include "run.h"
#include "strlist.h"

struct gate_opts {
	const struct config *cfg;	/* borrowed; required */
	struct strlist serials;	/* -s; empty: the config's, else all */
	struct strlist connect;	/* --connect, with the config's */
	const char *against;	/* ref compared with; NULL: baseline.ref */
	const char *repo;	/* NULL: baseline.repo */
	const char *out_dir;	/* NULL: cfg->out_dir */
	int shard_index;	/* 1-based I of N ... */
	int shard_count;	/* ... N; 0: no sharding */
	enum config_mail_when mail_when;
	enum config_update update;
	/*
	 * `jankgate ab` / `gate --ab OLD.apk`: the old build (A) interleaved
	 * with the new one (B: ab_new_apk, else the configuration's apk) in
	 * ABBA blocks instead of a comparison with stored baselines (see
	 * gate_ab.c); ab_block iterations a block (0: chosen so installs take
	 * at most GATE_AB_INSTALL_SHARE of device time), at most ab_rounds
	 * rounds of four blocks (0: GATE_AB_ROUNDS).
	 */
	const char *ab_old_apk;
	const char *ab_new_apk;
	/*
	 * The previous accepted build, to confirm the history's regressions
	 * with (gate_confirm.c): --confirm-apk, else baseline.previous_apk's
	 * pattern; NULL and no pattern: the history decides alone.
	 */
	const char *confirm_apk;
	/*
	 * Tonight's build as CI names it (--build-id, else build_id), written
	 * to the night's results and so to its baseline commits; NULL:
	 * unknown.  Never written for an A/B's builds.
	 */
	const char *build_id;
	/*
	 * --bisect (bisect.gate): a regressed night bisects the builds from
	 * the last passing baseline run's build_id to tonight's on the phones
	 * of the keys that regressed (gate_bisect.c); the exit status stays
	 * the night's.
	 */
	bool bisect;
	int ab_block;
	int ab_rounds;
	enum run_progress_mode progress;
	FILE *progress_fp;	/* run's progress; NULL: stderr */
	/* Called with one line for people as each step ends; may be NULL. */
	void (*note)(void *data, const char *line);
	void *note_data;
};

/* Defaults from `cfg` (mail.when, baseline.update); progress AUTO. */
void gate_opts_init(struct gate_opts *o, const struct config *cfg);
void gate_opts_release(struct gate_opts *o);

/* One device key: the devices that share it and their one comparison. */
struct gate_key {
	char *key;
	struct strlist serials;	/* its devices, serial order */
	struct strlist results;	/* their results files, same order */
	char *current;		/* the file compared: results[0], or the
				   pooled file of several devices */
	char *comparison;	/* comparison.json written, or NULL */
	bool compared;		/* `verdict` and `counts` hold */
	bool no_data;		/* compared, but not one valid iteration:
				   never a pass (infrastructure) */
	bool complete;		/* every device ran all it planned */
	int run_status;		/* the worst run status of its devices:
				   0 when all of them ran well */
	enum cmp_verdict verdict;	/* comparison_verdict() */
	size_t counts[CMP_NR_VERDICTS];	/* entries per verdict */
	int looks;		/* the look that gave `verdict` */
	int iterations;		/* most measured iterations of one
				   scenario on one device */
	struct strlist regressions;	/* "scn/scene metric: a -> b unit" */
	struct strlist suspects;	/* passes listed as suspects (compare.h
					   step 8), the same layout + q */
	struct strlist blocks;	/* new and worse blocks, one line each */
	char *commit_verdict;	/* gate_commit_verdict(), or NULL */
	char commit[BASELINE_OID_HEXSZ + 1];	/* recorded, else "" */
	int status;		/* this key's exit status contribution */
	struct strlist notes;	/* what went wrong or was decided */
};

#define GATE_AB_ROUNDS 5
#define GATE_AB_INSTALL_SHARE 0.15

struct gate_outcome {
	struct gate_key *keys;	/* in the order devices were listed */
	size_t nr_keys, alloc_keys;
	struct run_report run;	/* every device of the first run */
	char *report_dir;	/* written, or NULL */
	bool mailed;
	char *mail_subject;	/* when mailed */
	char *mail_note;	/* "sent to ...", or why not */
	bool interrupted;
	/* `ab`: the blocks run, their size, installs' share of the time. */
	int ab_blocks;
	int ab_block;
	double ab_install_share;
	char *ab_how;		/* how the older build went back on */
	char *ab_seq;		/* the blocks run, round by round */
	/*
	 * --bisect: the bisect's verdict line ("culprit: B is the first bad
	 * build, after A"), or "not run: why"; NULL when none was asked for
	 * or the night did not regress.  bisect_report: its report, or NULL.
	 */
	char *bisect;
	char *bisect_report;
	int status;		/* the exit status (exitstatus.h) */
	struct strlist errors;	/* "stage: message", one per failure */
	struct strlist warnings;	/* "SERIAL: warning" of every run, each
					   once however many batches said it */
	struct strlist ci;	/* report_ci()'s lines to print on stdout */
};

void gate_outcome_init(struct gate_outcome *out);
void gate_outcome_release(struct gate_outcome *out);

/*
 * Run the whole gate as the header says, filling `out` (initialised by
 * the caller).  Returns the exit status, also in out->status.  Never
 * prints, except run's progress to o->progress_fp and the lines given to
 * o->note.
 */
int gate_execute(const struct gate_opts *o, struct gate_outcome *out);

/*
 * gate_policy.c: the decisions, as pure functions.
 */

/* 1 + ceil((max_iterations - iterations) / iterations), at least 1. */
int gate_looks(int iterations, int max_iterations);

/* The next batch for a device that measured `done`: 0 when at the max. */
int gate_batch(int iterations, int max_iterations, int done);

/*
 * Append to `out` the scenarios of `c` (each once, in entry order) that
 * more iterations could settle: an entry, a new block or the scenario
 * itself is inconclusive.
 */
void gate_undecided(struct strlist *out, const struct comparison *c);

/*
 * The verdict a baseline commit carries: "regression", "inconclusive",
 * "new" (every entry is new: a first run), "improvement" (some, and no
 * worse news) or "pass".  Never NULL.
 */
const char *gate_commit_verdict(const struct comparison *c);

/*
 * The share of the night's alpha one comparison may spend: its scenarios
 * over the night's (device key, scenario) pairs, `keys` x `scenarios`,
 * so that every key and every shard together spend no more than alpha
 * (Bonferroni over comparisons, Holm within each).  1 when the night has
 * no more than this comparison.
 */
double gate_share(size_t key_scenarios, size_t keys, size_t scenarios);

/*
 * The baseline run (`e`, newest first as baseline_store_log() gives
 * them) whose build a bisect starts from: the newest whose verdict says
 * its night passed (pass, improvement, new) or that was accepted by
 * hand; -1 when none is.  Its build_id may be NULL (unknown).
 */
long gate_bisect_good(const struct baseline_entry *e, size_t nr);

/* 1 when mail.when says to mail an outcome with `any_regression`. */
int gate_wants_mail(enum config_mail_when when, bool any_regression);

/*
 * Whether baseline.update says to record key `k`: NULL when it does, else
 * why not, as a phrase for people.  never: never; on-pass: the key's
 * verdict is pass (improvements and new included) and no key of this
 * gate regressed (a build that regressed on one device class must not
 * become another's baseline); always: any verdict.  A key that was not
 * compared, did not complete, or whose run failed on a device (lost,
 * refused, every iteration of a scenario failed) is never recorded.
 */
const char *gate_record_refusal(enum config_update update,
    const struct gate_key *k, bool any_regression);

/*
 * gate_pool.c: the runs of several devices of one key as one run.
 */

/*
 * Move every iteration of in[1..nr) into in[0], scenario by scenario
 * (a scenario in[0] lacks is added), renumbering them after in[0]'s own
 * and their sessions after in[0]'s (each device is a session apart);
 * run errors are added, `complete` is the AND of all, and a "gate"
 * warning names the pooled serials.  in[1..nr) are left without
 * iterations.  Nothing fails.
 */
void gate_pool(struct results *const *in, size_t nr);

/*
 * Remove from `base` every scenario that `cur` does not hold, so a shard
 * is compared on what it measured.
 */
void gate_trim_scenarios(struct results *base, const struct results *cur);

#endif
