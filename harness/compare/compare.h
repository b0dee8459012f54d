/*
 * compare.h: verdicts for one device's run against its baseline.
 *
 * compare_run() takes the current results of one device and the results of
 * the baseline runs for the same device key (files named on the command
 * line today, the last K accepted runs of the git store later) and answers,
 * for every (device, scenario, scene, metric): pass, regression,
 * improvement, inconclusive, new or missing, with the numbers behind it.
 * It also compares main-thread blocks by signature and records, per
 * scenario, how many iterations were usable.  The model it fills is
 * comparison.h's.
 *
 * The method is specified, step by step, in docs/method.md; the code
 * cites its steps.  In the order compare.c applies them: samples (1),
 * gates (2), the phone's offset in each session taken off (3,
 * compare_offset.c), the session model (4, compare_session.c), the
 * one-sided tests adjusted over the night's family (5, compare_test.c,
 * compare_pass.c), the practical size (6, compare_entry.c), the verdict
 * and the looks (7, compare_verdict.c; new block signatures,
 * compare_blocks.c), the trend line and the suspects (8,
 * compare_trend.c, compare_pass.c).
 */
#ifndef JG_COMPARE_H
#define JG_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "comparison.h"
#include "metrics.h"
#include "stats.h"
#include "strlist.h"

struct config_compare;
struct results;

/*
 * The metric a team reads first for a scene or a launch (metrics.h
 * `primary`; config `primary_metrics` names others) gets this many times
 * another metric's share of alpha in the correction (docs/method.md,
 * step 5).  Why 4: it finds more of the slower p90s under drift and of
 * the first weeks' slower launches than every metric alike, for a little
 * of the jank share's and the blocks' power, and takes most of what 8
 * would for about half its loss (NEWS: "Why the primary metrics weigh 4").
 */
#define CMP_PRIMARY_WEIGHT 4

/*
 * The false discovery rate of the suspects a pass lists (docs/method.md,
 * step 8; config `suspect_fdr`).  Why 0.1 rather than 0.05: it names
 * more of the first week's launch regressions the gate misses, for an
 * unchanged night now and then with a name that fails nothing (NEWS:
 * "Suspects").
 */
#define CMP_SUSPECT_FDR 0.1
struct rs_scenario;

/*
 * compare_opts_init() gives one look that is not the last.  `jankgate
 * compare` sets last (it decides, unless --look K/N says it is an earlier
 * look of a gate's).  A caller that looks again when a run is inconclusive
 * (`gate`: 5 iterations, then batches up to max_iterations, K looks in
 * all) sets look = k and looks = K at look k, and last = true at the look
 * after which it will not measure more (k == K, or no undecided scenario
 * can get more iterations).  The last look decides (step 7).
 */
struct compare_opts {
	double alpha;		/* run-wide false-alarm rate, all looks */
	enum stats_adjust correction;
	int min_iterations;
	double noise;		/* T is at least noise x the spread */
	int look;		/* this look at the run, 1 .. looks */
	int looks;		/* the most the caller takes; 1: one look */
	enum cmp_spending spending;
	bool last;		/* no more iterations will follow: decide */
	/*
	 * This comparison's share of alpha, (0, 1]: 1 for a comparison
	 * alone; `gate` gives each device key and shard its part of the
	 * night's (device key, scenario) pairs, so the night is the family.
	 */
	double share;
	/*
	 * The weight of each scene's frame_p90_ms and each scenario's
	 * startup_ms in the correction (weighted Holm or BH) against 1 for
	 * every other metric; 1: all alike.  CMP_PRIMARY_WEIGHT without a
	 * configuration.
	 */
	double primary_weight;
	/*
	 * Which metrics are primary (config `primary_metrics`: a team that
	 * reads its jank share first names it); NULL: those metrics.h marks
	 * primary.  Borrowed.
	 */
	const struct strlist *primary_metrics;
	/*
	 * The false discovery rate at which a metric that is worse by its
	 * threshold but passes is listed as a suspect (step 8):
	 * CMP_SUSPECT_FDR without a configuration; 0: no suspects.
	 */
	double suspect_fdr;
	/* The session model's priors (step 4), and their weight in runs. */
	double session_prior[METRIC_NR_KINDS];
	double prior_runs;
	bool trend;		/* run the trend line when the window allows */
	/*
	 * Take the phone's offset in each session off the frame times
	 * (step 3; config `session.offsets`), measured on the other scenes
	 * of the session.
	 */
	bool offsets;
	/*
	 * Current and baseline are blocks of one session of the phone, the
	 * two builds interleaved (`jankgate ab`): the sessions of both sides
	 * are blocks alike, so both estimate the spread between blocks.
	 */
	bool interleaved;
	/* thresholds and scene_thresholds; NULL: the metrics' defaults */
	const struct config_compare *cfg;
	bool allow_mismatch;
	/*
	 * An earlier look at the same run, or NULL.  Its regressions stand:
	 * a rejection at a look's share of alpha is final, and a later look
	 * that tests what is still undecided must not unsay it.  Such an
	 * entry is copied with the numbers of the look that found it (its
	 * `look`), whatever this look's data say.
	 */
	const struct comparison *prior;
};

/* One results file and the name to quote it by (NULL: its run id). */
struct compare_input {
	const struct results *results;
	const char *name;
};

/*
 * compare_methods.c: compare the method costs of `scenario` by name, in
 * each scene and outside scenes, over the valid iterations of `cur` and
 * of base[0..nr_base) (any may be NULL), and append them to c->methods.
 * compare_run() calls it.
 */
struct rs_scenario;
void compare_methods(struct comparison *c, const char *scenario,
    const struct rs_scenario *cur, const struct rs_scenario *const *base,
    size_t nr_base, const struct compare_opts *o);

/*
 * Fill *o from `cfg` (alpha, correction, primary_weight, min_iterations,
 * thresholds, the session priors), or with alpha 0.01, Holm,
 * CMP_PRIMARY_WEIGHT, 3 and the priors' defaults when `cfg` is NULL; noise 1; share 1; the trend line on; one look that
 * is not the last (look 1 of 1, late spending, last false).
 */
void compare_opts_init(struct compare_opts *o,
    const struct config_compare *cfg);

/*
 * The alpha that look `look` of `looks` tests at under `how` (see enum
 * cmp_spending); `alpha` itself for a single look.  NAN for a look outside
 * 1 .. looks or an unknown `how`.
 */
double compare_look_alpha(double alpha, int look, int looks,
    enum cmp_spending how);


/*
 * Append to `reasons` one line per way the baselines differ from the
 * current run in device key, refresh rate, package or source set.
 * Returns 0 when there is none, else JG_EMISMATCH with the first line as
 * the message.
 */
int compare_check(struct strlist *reasons, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base);

/*
 * Compare `cur` with the pooled baselines `base[0..nr_base-1]` (nr_base may
 * be 0: a first run, everything is new) and return the comparison in *out,
 * which the caller frees.  JG_EMISMATCH when compare_check() objects and
 * o->allow_mismatch is false (the lines are then in the result's
 * `mismatches` otherwise); JG_EINVAL for options out of range.
 */
int compare_run(struct comparison **out, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base,
    const struct compare_opts *o);

/*
 * Compare the main-thread blocks of `scenario` by signature, in each scene
 * and outside scenes, over the valid iterations of `cur` and of the pooled
 * base[0..nr_base-1] (any of them may be NULL: absent on that side), and
 * append them to c->blocks (compare_blocks.c has the rules).  compare_run()
 * calls it; it is public so it can be tested alone.
 */
void compare_blocks(struct comparison *c, const char *scenario,
    const struct rs_scenario *cur, const struct rs_scenario *const *base,
    size_t nr_base, const struct compare_opts *o);

/*
 * docs/method.md, step 9 (compare_confirm.c).  compare_suspects() appends
 * to `out` each scenario of `c` (once, in order) with a regression, an
 * inconclusive or a suspect entry or block: what an A/B is asked about.
 * compare_confirm() rewrites those verdicts of `hist` by what the
 * interleaved A/B `ab` (B tonight's build, A the previous accepted one,
 * on the same phones) found of their scene: a regression is confirmed
 * (kept, the A/B's evidence in the reason), undecided (inconclusive) or
 * cleared (pass); an inconclusive or a suspect is found (a regression),
 * settled (a pass) or left as it was.  A whole-ms frame percentile that moved by one vsync
 * step of `vsync_ms` alone confirms nothing.  `what` names the A/B in
 * the reasons and warnings.  Returns the regressions that stand
 * (confirmed or found).
 */
void compare_suspects(struct strlist *out, const struct comparison *c);
/*
 * Append to `out` each scenario (once) with a regression, inconclusive or
 * suspect of `hist` whose scene `ab` leaves undecided so far: what another round of the A/B is
 * for (a scene confirmed or cleared needs no more).
 */
void compare_confirm_undecided(struct strlist *out,
    const struct comparison *hist, const struct comparison *ab,
    double vsync_ms);
size_t compare_confirm(struct comparison *hist, const struct comparison *ab,
    double vsync_ms, const char *what);

#endif
