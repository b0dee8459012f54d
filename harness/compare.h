/*
 * compare.h: verdicts for one device's run against its baseline (DESIGN §7).
 *
 * compare_run() takes the current results of one device and the results of
 * the baseline runs for the same device key (files named on the command
 * line today, the last K accepted runs of the git store later) and answers,
 * for every (device, scenario, scene, metric): pass, regression,
 * improvement, inconclusive, new or missing, with the numbers behind it.
 * It also compares main-thread blocks by signature and records, per
 * scenario, how many iterations were usable.  The code: compare.c
 * (samples, statistics), compare_verdict.c (an entry's verdict, a look's
 * alpha), compare_check.c (comparability), compare_blocks.c (blocks),
 * compare_model.c (the model and its names) and compare_json.c
 * (comparison.json).
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
 *      sides; sb comes from the baseline's sessions, per kind of metric
 *      (frame times from the scenes' mean frame, which rounding does not
 *      hide), combined with a documented prior (session.<kind>, weight
 *      session.prior_runs) that alone decides with one baseline run; a
 *      metric whose own sessions differ significantly more than its
 *      kind's uses its own.  A kind that drifted steadily over the
 *      window (a phone getting slower night after night) has that drift
 *      taken off tonight's values first (fit_trend in compare.c).
 *   4. The test, each direction one-sided: where the sample sizes let it
 *      reach the level, Mann-Whitney (exact for a small side) read as z
 *      and shrunk by the root of the design effect of the sessions, its
 *      Hodges-Lehmann shift with the interval widened alike; else (a
 *      baseline of one run of 5, say) and for small counts of events
 *      (metrics.h by_means), Student's t on the sessions' weighted means
 *      with Satterthwaite's degrees of freedom.  The p-values of each
 *      direction are adjusted (Holm by default, or Benjamini-Hochberg)
 *      over every metric tested in this comparison and compared with
 *      this look's share of this comparison's share of alpha (`share`:
 *      the night is the family; see enum cmp_spending for the looks).
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
 *                      evidence: p_raw above CMP_PROMISE before the last
 *                      of several looks (above a for a single look), or
 *                      at the last look p > alpha;
 *        inconclusive  could be a regression of practical size and we
 *                      cannot tell: before the last look a worse estimate
 *                      at T with p_raw <= CMP_PROMISE, or below T with
 *                      p_raw <= a, where more iterations (a new session)
 *                      can settle it; at the last look the estimate
 *                      reaches T and a < p <= alpha (significant at the
 *                      comparison's alpha, not at this look's share).
 *      Earlier looks: a regression an earlier look found (opts.prior)
 *      stays one, with that look's numbers.
 *   7. The trend line, with a tenth of the look's alpha, when the window
 *      holds 6 runs or more: tonight against the oldest half of the
 *      window, by the same test.  A regression there that the whole
 *      window hid (a metric creeping a little every night, each night
 *      passing and recorded) is a regression too, `crept`.  For every
 *      regression, the run where the metric's series of run means
 *      stepped is named (cmp_trend.stepped_run).
 *
 * The model is public like results.h: reports read it field by field.
 * Numbers that were not computed are NAN (null in JSON); strings are owned.
 */
#ifndef JG_COMPARE_H
#define JG_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"
#include "stats.h"
#include "strlist.h"

struct config;
struct results;
struct rs_scenario;

/* The schema compare_json.c writes; readers accept any 1.x. */
#define CMP_SCHEMA "jankgate.comparison/1"

/* Listed from the best news to the worst; the names are the JSON ones. */
enum cmp_verdict {
	CMP_PASS,
	CMP_IMPROVEMENT,
	CMP_NEW,		/* no baseline values yet */
	CMP_MISSING,		/* in the baseline, not measured now */
	CMP_INCONCLUSIVE,
	CMP_REGRESSION,
};
#define CMP_NR_VERDICTS 6

enum cmp_block_status {
	CMP_BLOCK_UNCHANGED,
	CMP_BLOCK_NEW,		/* only in the current run */
	CMP_BLOCK_WORSE,	/* more often or longer */
	CMP_BLOCK_RESOLVED,	/* only in the baseline */
};

/*
 * How a caller that looks at one run more than once (`gate`: 5 iterations,
 * then more up to max_iterations) shares alpha among its looks.  Look k of
 * K tests at alpha_k, with alpha_1 + ... + alpha_K = alpha, so the chance
 * of a false regression at any look stays below alpha whatever the looks
 * have in common (Bonferroni over looks):
 *   POCOCK  alpha_k = A(k / K) - A((k - 1) / K) with Lan and DeMets'
 *           Pocock-type spending function A(t) = alpha ln(1 + (e - 1) t)
 *           at information fraction t: the early looks, where a decision
 *           saves the most iterations, get more: 0.62 and 0.38 of alpha
 *           for two looks, 0.45, 0.31 and 0.24 for three;
 *   EQUAL   alpha_k = alpha / K;
 *   LATE    alpha_k = A(k / K) - A((k - 1) / K) with A(t) = alpha t^3:
 *           the last look, which has every iteration (and, in `gate`,
 *           every session), gets most: 0.04, 0.26 and 0.70 of alpha for
 *           three looks.  The early looks rarely decide a regression of
 *           practical size at 5 iterations anyway; they decide what to
 *           measure again.
 */
enum cmp_spending {
	CMP_SPEND_POCOCK,
	CMP_SPEND_EQUAL,
	CMP_SPEND_LATE,
};

/*
 * The trend line of an entry (step 7): tonight against the oldest half of
 * the baseline window, and where the series of runs stepped.
 */
struct cmp_trend {
	bool tested;		/* in the trend test's family */
	double shift, lo, hi;	/* tonight - the anchor runs, in unit */
	double p_value, p_adjusted;	/* one-sided, the worse way */
	bool crept;		/* a regression only the trend test found */
	char *stepped_run;	/* the first run after the step (its id), or
				   NULL: not looked for, or tonight's */
	char *stepped_started;	/* when that run started */
	double stepped_by;	/* the step, in unit, worse positive */
};

/* One (device, scenario, scene, metric). */
struct cmp_entry {
	char *device;		/* device key */
	char *scenario;
	char *scene;		/* NULL: a scenario metric (launch timing) */
	char *metric;		/* a metrics.h name */
	char *unit;
	bool higher_is_better;
	enum cmp_verdict verdict;
	char *reason;		/* one line for people */
	struct stats_summary base, cur;	/* n == 0: no values */
	double shift;		/* Hodges-Lehmann cur - base, in unit */
	double shift_lo, shift_hi;	/* its interval */
	double shift_level;	/* the interval's confidence */
	double p_value;		/* one-sided Mann-Whitney, in the direction
				   the shift points (worse when 0) */
	double p_adjusted;	/* the same after the correction */
	bool tested;		/* counted in the correction's family */
	double rel_threshold, abs_threshold;
	double noise_threshold;	/* in units of `spread` */
	double spread;		/* per-iteration spread of the baseline,
				   IQR scale; NAN: fewer than 2 values */
	double threshold;	/* T, in unit */
	double detectable;	/* the smallest worse shift the test flags
				   at this sample (no power claimed);
				   INFINITY: no shift can be at these n */
	int look;		/* the look whose numbers these are: the
				   comparison's, or an earlier one's for a
				   regression kept from compare_opts.prior */
	/* The session model behind the test (step 3). */
	bool log_scale;		/* tested on log values (times) */
	double sd_within;	/* iteration to iteration within a session,
				   on the test's scale (relative for times) */
	double sd_session;	/* session to session, same scale */
	double drift;		/* tonight's values were taken back by this
				   much of the kind's trend (unit, worse
				   positive); 0: none */
	bool rank_test;		/* Mann-Whitney decided, else the t test */
	double deff;		/* the design effect of the sessions */
	double df;		/* the t test's degrees of freedom */
	double sessions_base, sessions_cur;	/* behind each side */
	struct cmp_trend trend;
};

/* A main-thread block signature seen in a scenario or scene. */
struct cmp_block_side {
	double iterations;	/* valid iterations looked at */
	double count;		/* occurrences in them */
	double per_iteration;	/* count / iterations */
	double wall_ms;		/* median wall time of the occurrences */
	/*
	 * Janky frames the occurrences overlapped (compare_overlap.c),
	 * summed, over `frames_seen` occurrences whose time the scene's
	 * frame rows cover; NAN when none do (methods: always).
	 */
	double janky_frames;
	double frames_seen;
};

struct cmp_block {
	char *device;
	char *scenario;
	char *scene;		/* NULL: outside every scene */
	char *signature;
	enum cmp_block_status status;
	struct cmp_block_side base, cur;
	struct strlist stack;	/* one occurrence, innermost frame first */
};

/*
 * A method's costs in a scene (compare_methods.c): MethodTraceMan's per
 * method, Matrix's evil methods by their application frame.  The sides
 * count calls and hold their median cost (wall_ms); the status is a
 * block's: new, worse (slower by count or time), resolved, unchanged.
 */
struct cmp_method {
	char *device;
	char *scenario;
	char *scene;		/* NULL: outside every scene */
	char *name;		/* "com.example.Feed.bind" */
	char *source;		/* "traceman", "matrix" */
	enum cmp_block_status status;
	struct cmp_block_side base, cur;
};

/* How usable one scenario's iterations were. */
struct cmp_scenario {
	char *name;
	enum cmp_verdict verdict;	/* PASS, NEW, MISSING or INCONCLUSIVE
					   (too few valid iterations now) */
	double cur_iterations;	/* measured, warm-ups excluded */
	double cur_valid;	/* of those, not failed */
	double base_runs;	/* baseline runs holding the scenario */
	double base_valid;	/* their valid iterations, pooled */
	bool changed;		/* scenario text differs from a baseline's */
};

/*
 * How much one session moves the metrics of one kind (step 3): a relative
 * standard deviation for times, a share of the within-session standard
 * deviation for the other kinds.
 */
struct cmp_session_kind {
	double prior;		/* configured (session.<kind>) */
	double estimate;	/* from the baseline; NAN: < 2 sessions */
	double sessions;	/* baseline sessions behind `estimate` */
	double used;		/* what the tests used */
	double df;		/* its degrees of freedom; INFINITY: the
				   prior alone */
	/* The kind's drift over the window (compare.c's fit_trend). */
	double trend;		/* worse-way, per run: relative for times,
				   in within-session sds for the rest */
	double trend_t;		/* in its standard errors */
	bool trend_on;		/* taken off tonight's values */
	double trend_mean_pos;	/* the window's mean position */
};

/* The run a side came from. */
struct cmp_run {
	char *file;		/* as named by the caller, may be NULL */
	char *run_id;
	char *app_version;
	char *started;
};

struct comparison {
	char *device;		/* device key of the current run */
	char *package;
	struct cmp_run current;
	struct cmp_run *baselines;
	size_t nr_baselines, alloc_baselines;

	double alpha;		/* over all looks */
	enum stats_adjust correction;
	double ci_level;
	int min_iterations;
	double noise;		/* T >= noise x spread */
	int look, looks;	/* this look of the caller's */
	enum cmp_spending spending;
	bool last;		/* the caller's last look */
	double alpha_look;	/* what this look tests at */
	double share;		/* of alpha: this comparison's part of
				   the night's family */
	size_t tests;		/* the correction's family size */
	double alpha_trend;	/* the trend test's part of alpha_look;
				   0: no trend test */
	size_t trend_tests;	/* its family size */
	size_t anchor_runs;	/* baseline runs it compared with */
	double prior_runs;	/* weight of the session priors */
	struct cmp_session_kind kinds[METRIC_NR_KINDS];

	struct strlist mismatches;	/* accepted with allow_mismatch */
	struct strlist warnings;

	struct cmp_scenario *scenarios;
	size_t nr_scenarios, alloc_scenarios;
	struct cmp_entry *entries;
	size_t nr_entries, alloc_entries;
	struct cmp_block *blocks;
	size_t nr_blocks, alloc_blocks;
	/*
	 * Issue 20.  Entries of the explain metrics (metrics_explain.h):
	 * tested like `entries`, adjusted as a family of their own
	 * (explain_tests), never part of the verdict, the counts or the
	 * correction of `entries`; and the methods compared by name.
	 */
	struct cmp_entry *explains;
	size_t nr_explains, alloc_explains;
	size_t explain_tests;
	struct cmp_method *methods;
	size_t nr_methods, alloc_methods;
};

/*
 * `jankgate compare` takes one look that is not the last: its user may
 * measure more.  A caller that looks again when a run is inconclusive
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
	/* The session model's priors (step 3), and their weight in runs. */
	double session_prior[METRIC_NR_KINDS];
	double prior_runs;
	bool trend;		/* run the trend line when the window allows */
	const struct config *cfg;	/* thresholds; NULL: metric defaults */
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
 * Fill *o from `cfg` (alpha, correction, min_iterations, thresholds, the
 * session priors), or with alpha 0.01, Holm, 3 and the priors' defaults
 * when `cfg` is NULL; noise 1; share 1; the trend line on; one look that
 * is not the last (look 1 of 1, late spending, last false).
 */
void compare_opts_init(struct compare_opts *o, const struct config *cfg);

/*
 * The alpha that look `look` of `looks` tests at under `how` (see enum
 * cmp_spending); `alpha` itself for a single look.  NAN for a look outside
 * 1 .. looks or an unknown `how`.
 */
double compare_look_alpha(double alpha, int look, int looks,
    enum cmp_spending how);

/* "pocock" or "equal"; never NULL. */
const char *cmp_spending_name(enum cmp_spending how);
/* The inverse of cmp_spending_name(); JG_EINVAL for another name. */
int cmp_spending_parse(enum cmp_spending *out, const char *name);

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

/* An empty comparison for readers to fill; free with comparison_free(). */
struct comparison *comparison_new(void);

/* Free a comparison and everything it owns; NULL is a no-op. */
void comparison_free(struct comparison *c);

/*
 * The run's verdict over entries and scenarios: CMP_REGRESSION if any,
 * else CMP_INCONCLUSIVE if any, else CMP_PASS (improvements, new and
 * missing metrics do not fail a run).
 */
enum cmp_verdict comparison_verdict(const struct comparison *c);

/*
 * The valid iterations the current run brought, over every scenario: 0
 * when nothing could be measured (an install failed, every iteration
 * crashed), which a caller must never report as a pass.
 */
double comparison_measured(const struct comparison *c);

/* counts[v] = the number of entries with verdict v. */
void comparison_count(const struct comparison *c,
    size_t counts[CMP_NR_VERDICTS]);

/* The entry of (scenario, scene, metric), scene NULL for launch timing. */
const struct cmp_entry *comparison_find_entry(const struct comparison *c,
    const char *scenario, const char *scene, const char *metric);
/* Make *dst (an entry of some comparison) a deep copy of *src. */
void cmp_entry_copy(struct cmp_entry *dst, const struct cmp_entry *src);

/* An entry zeroed, every number NAN, of look `look`; free what it owns. */
void cmp_entry_init(struct cmp_entry *e, int look);
void cmp_entry_release(struct cmp_entry *e);

/*
 * compare_explain.c: the explains and methods of a comparison.  The add
 * functions work like comparison_add_entry(); find gives the explain of
 * (scenario, scene, metric) or NULL; release frees both arrays (called
 * by comparison_free()).
 */
struct cmp_entry *comparison_add_explain(struct comparison *c);
const struct cmp_entry *comparison_find_explain(const struct comparison *c,
    const char *scenario, const char *scene, const char *metric);
struct cmp_method *comparison_add_method(struct comparison *c);
void comparison_explain_release(struct comparison *c);

/*
 * compare_overlap.c: the janky frames of scene `sn` that block `b`
 * overlapped in time, or -1 when the scene's frame rows do not cover the
 * block (or it has no duration, or `sn` is NULL).  Reports use it for
 * the blocks of one iteration.
 */
struct rs_block;
struct rs_scene;
int cmp_block_janky_frames(const struct rs_scene *sn, const struct rs_block *b);

/*
 * compare_methods.c: compare the method costs of `scenario` by name, in
 * each scene and outside scenes, over the valid iterations of `cur` and
 * of base[0..nr_base) (any may be NULL), and append them to c->methods.
 * compare_run() calls it.
 */
void compare_methods(struct comparison *c, const char *scenario,
    const struct rs_scenario *cur, const struct rs_scenario *const *base,
    size_t nr_base, const struct compare_opts *o);

/*
 * Append an entry, zeroed with every number NAN and the comparison's look;
 * borrowed until the next.
 */
struct cmp_entry *comparison_add_entry(struct comparison *c);
struct cmp_block *comparison_add_block(struct comparison *c);
struct cmp_scenario *comparison_add_scenario(struct comparison *c);
struct cmp_run *comparison_add_baseline(struct comparison *c);

/* "pass", "regression"...; never NULL. */
const char *cmp_verdict_name(enum cmp_verdict v);
/* The verdict named `name`; JG_EINVAL for another name. */
int cmp_verdict_parse(enum cmp_verdict *out, const char *name);
/* "unchanged", "new", "worse", "resolved"; never NULL. */
const char *cmp_block_status_name(enum cmp_block_status s);
int cmp_block_status_parse(enum cmp_block_status *out, const char *name);

/*
 * compare_json.c: comparison.json.  The reader checks the schema (any
 * jankgate.comparison/1.x; another major version is refused by name) and
 * the type of every known key; errors are JG_EINVAL "<name>: <key path>:
 * expected <what>", or JG_ENOTFOUND / JG_EIO from reading the file.
 */
char *comparison_to_json(const struct comparison *c);
int comparison_write(const struct comparison *c, const char *path);
int comparison_parse(struct comparison **out, const char *buf, size_t len,
    const char *name);
int comparison_read(struct comparison **out, const char *path);

#endif
