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
 * The method, in the order compare.c applies it:
 *
 *   1. Samples.  The unit is the iteration: each valid iteration (not a
 *      warm-up, not failed) gives at most one value per metric; an
 *      iteration without the value (no launch, no frames) gives none.
 *      Each value keeps its session: the iterations one device measured
 *      in one go (results.h), which share the phone's state.
 *   2. Gates before any statistics: no baseline values -> new; baseline
 *      values but the scenario or the metric absent now -> missing; fewer
 *      than min_iterations valid iterations, or values, on either side ->
 *      inconclusive (never pass) -- except without a baseline, where a
 *      scenario is new whatever its size.
 *   3. The session model (compare_session.c): a value is the side's level
 *      plus a session effect (sd sb) plus an iteration effect (sd sw), on
 *      a log scale for times.  sw is pooled within the sessions of both
 *      sides, and for a time metric with 5 entries or more moderated over
 *      them (an empirical-Bayes prior, cmp_moderate_within()); sb comes
 *      from the baseline's sessions, per kind of metric (frame times
 *      from the scenes' mean frame, which rounding does not hide),
 *      combined with a documented prior (session.<kind>, weight
 *      session.prior_runs) that alone decides with one baseline run; a
 *      metric whose own sessions differ more than its kind's uses its
 *      own (never less): on the t test of step 4 shrunk toward its
 *      kind's entries by how much they differ beyond noise
 *      (cmp_own_shrunk()), on the others pulled toward the kind's by
 *      the prior's weight after an F test.
 *      Before any of it, the phone's offset in each session is taken off
 *      every frame time (compare_offset.c): the other scenes of the
 *      session measure it, so sb is then what a session does to one scene
 *      beyond what it does to all -- unless tonight's sessions stand
 *      further from the baseline's than sessions differ (a build slower
 *      everywhere), when nothing is taken off.  When every session of
 *      tonight has its offset measured (a first look), the jank kind's
 *      values are taken back too, by their slope on the scene's speed
 *      times that offset (compare_offset.c, speed_offsets()).
 *      A kind that drifted steadily over the window (a phone getting
 *      slower night after night) has that drift taken off tonight's
 *      values first (fit_trend in compare.c).
 *   4. The test, each direction one-sided: for values without a long
 *      tail (times, frame shares and counts; compare_int.h's
 *      CMP_LIGHT_TAIL), for small counts of events (metrics.h by_means)
 *      and where ranks cannot reach the level (a baseline of one run of
 *      5, say), Student's t on the sessions' weighted means with
 *      Satterthwaite's degrees of freedom; else (a long tail, the sums
 *      of block walls) Mann-Whitney (exact for a small side) read as z
 *      and shrunk by the root of the design effect of the sessions, its
 *      Hodges-Lehmann shift with the interval widened alike; a sum of
 *      block walls against a side without any event always so (the
 *      zeros have no spread for a t test to read).  The
 *      p-values of each direction are adjusted (Holm by default, or
 *      Benjamini-Hochberg; weighted, a metric_def.primary one by
 *      opts.primary_weight, every other by 1) over every metric tested
 *      in this comparison and compared with this look's share of this
 *      comparison's share of alpha (`share`: the night is the family;
 *      see enum cmp_spending for the looks).
 *      Metrics whose values are all one and the same number on both
 *      sides cannot reject and are left out of the family: they pass.
 *   5. Practical size: T = max(absolute, relative * |baseline median|,
 *      noise * spread), the first two from the metric table and the
 *      configuration (scene overrides first).  spread is the smaller of
 *      the baseline's IQR and sqrt 2 times the median |x - y| over pairs
 *      of iterations of the same session; both are the IQR for normal
 *      data.  The third term keeps T from falling below what single
 *      iterations already differ by.
 *   6. Verdict, with `worse` the shift signed so that positive is worse, p
 *      and p_raw the adjusted and raw one-sided p-values of the direction
 *      the shift points to, and a this look's alpha:
 *        regression    p <= a and worse >= T
 *        improvement   p <= a and worse <= -T
 *        pass          the interval's worse end is below T (it rules out
 *                      worse than that end); or the estimate is below T
 *                      (better included) and, before the last of several
 *                      looks, p_raw > a: then nothing is ruled out, and
 *                      the reason says so; or it reaches T without
 *                      evidence: p_raw above the look's promise
 *                      before the last of several looks (above a for a
 *                      single look), or at the last look p > alpha;
 *        inconclusive  could be a regression of practical size and we
 *                      cannot tell: before the last look a worse estimate
 *                      at T with p_raw <= the look's promise (a count of
 *                      blocks: at T / 2, compare_verdict.c), or below T with
 *                      p_raw <= a, where more iterations (a new session)
 *                      can settle it; at the last look the estimate
 *                      reaches T and a < p <= alpha (significant at the
 *                      comparison's alpha, not at this look's share).
 *      The promise (cmp_promise()) is 0.05 at the first look; a later
 *      look asks for as much as that holds at the first of its K looks,
 *      by conditional power: 0.0078 and 0.00094 at the second and third
 *      of four (0.0046 at the second of three); a count of blocks keeps
 *      three looks' (0.017 and 0.0022 of four); an interleaved A/B keeps
 *      0.05 at every round.
 *      Earlier looks: a regression an earlier look found (opts.prior)
 *      stays one, with that look's numbers.
 *   7. The trend line, with a tenth of the look's alpha, when the window
 *      holds 6 runs or more: tonight against the oldest half of the
 *      window, by the same test.  A regression there that the whole
 *      window hid (a metric creeping a little every night, each night
 *      passing and recorded) is a regression too, `crept`.  For every
 *      regression, the run where the metric's series of run means
 *      stepped is named (cmp_trend.stepped_run).
 *   8. Suspects: Holm answers "is anything here worse?" for the whole
 *      night; a team reading a pass also wants to know which metrics
 *      lean that way.  The worse way's p-values are adjusted by
 *      Benjamini-Hochberg over the same family with the same weights (a
 *      q-value: the false discovery rate of listing every metric at or
 *      below it), and a metric whose estimate is worse by T or more,
 *      which is not a regression, and whose q is at most suspect_fdr
 *      times `share` is a suspect: named in the report, never a verdict
 *      (BH controls the share of wrong names among those listed, not
 *      the chance of any, so it lists; it does not fail a gate).  Only
 *      passes: an inconclusive metric is listed as that already.
 *
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
 * `primary`) gets this many times another metric's share of alpha in the
 * correction (step 5; config `primary_weight`).  Measured with make bench
 * (README, Method): at 4 the gate finds a p90 1.5 IQR worse at 2 % drift
 * on 73 % of nights where alike it found 64 %, and a 30 % slower launch
 * against one baseline run on 78.5 % where it found 67.5 %, for a point
 * or two of the jank share's and the blocks' power.
 */
#define CMP_PRIMARY_WEIGHT 4

/*
 * The false discovery rate of the suspects a pass lists (step 8; config
 * `suspect_fdr`).  Measured with make bench (README, Method): unchanged
 * nights list one on 0.5-3.5 % of nights (0.25-1.75 % at 0.05), and of
 * the first week's launch regressions the gate misses it names 17.5 in
 * 21.5 (11.5 at 0.05).
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
 * can get more iterations).  The last look decides: see step 5 above.
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
	/* The session model's priors (step 3), and their weight in runs. */
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

#endif
