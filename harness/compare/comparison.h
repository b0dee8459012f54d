/*
 * comparison.h: what compare decided, as a model: the comparison of one
 * device's run with its baseline, entry by entry (scenario, scene,
 * metric), the blocks by signature, the scenarios' iterations, the method
 * and the looks (docs/method.md says how each number is reached).
 *
 * The model is public like results.h: reports, the mail, gate and the
 * commands read it field by field.  Numbers that were not computed are
 * NAN (null in JSON); strings are owned.  comparison.c builds and
 * names it, comparison_write.c and comparison_read.c move it to and from
 * comparison.json.
 */
#ifndef JG_COMPARISON_H
#define JG_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>

#include "exitstatus.h"
#include "metrics.h"
#include "stats.h"
#include "strlist.h"

/* The schema comparison_write.c writes; readers accept any 1.x. */
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

/*
 * Where an entry's session spread came from (compare_test.c): its kind's
 * (the prior, the baseline's sessions or both: the kind says which); the
 * jank kind's speed prior, what the frame times' spread makes of how the
 * scene follows its frames' speed; or the metric's own sessions, where
 * they show it moves more than its kind.  Either of the last two only
 * where it raised the spread by a tenth or more.
 */
enum cmp_spread {
	CMP_SPREAD_NONE,	/* not tested */
	CMP_SPREAD_KIND,
	CMP_SPREAD_SPEED,
	CMP_SPREAD_OWN,
};

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
 * The trend line of an entry (step 8): tonight against the oldest half of
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
	/*
	 * The worse way's Benjamini-Hochberg q-value over the same family
	 * (weighted alike); NAN: not in the family.  `suspect`: worse by
	 * at least T, a pass, and q at most suspect_fdr times the share
	 * (docs/method.md, step 8).
	 */
	double q_value;
	bool suspect;
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
	/* The session model behind the test (step 4). */
	bool log_scale;		/* tested on log values (times) */
	double sd_within;	/* iteration to iteration within a session,
				   on the test's scale (relative for times) */
	double sd_session;	/* session to session, same scale */
	enum cmp_spread spread_from;	/* where sd_session came from */
	double drift;		/* tonight's values were taken back by this
				   much of the kind's trend (unit, worse
				   positive); 0: none */
	double offset;		/* ... and by this much of the phone's
				   session offsets, the mean over tonight's
				   values (unit, as the baseline median
				   moves; compare_offset.c); 0: none */
	bool rank_test;		/* Mann-Whitney decided, else the t test */
	double deff;		/* the design effect of the sessions */
	double df;		/* the t test's degrees of freedom */
	double sessions_base, sessions_cur;	/* behind each side */
	struct cmp_trend trend;
};

/* A main-thread block signature seen in a scenario or scene. */
struct cmp_block_side {
	double iterations;	/* valid iterations looked at */
	double carriers;	/* of those, the ones it occurred in */
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
	/*
	 * A new signature (absent from every baseline iteration) that
	 * enough current iterations carry is a regression of its scene
	 * (compare_blocks.c, cmp_decide_blocks()); one that more
	 * iterations may make one is inconclusive; everything else
	 * passes.  `p_value`: the exact test of its carriers, NAN when
	 * not tested.  `look`: the look whose numbers these are.
	 * `suspect`: a pass whose p is at most suspect_fdr times the
	 * share over the test's family (docs/method.md, steps 7, 8).
	 * `elsewhere`: new in this scene but carried by the baseline in
	 * another scene or scenario, so not a new cause and not tested
	 * (the scene's `blocks` metrics still count it; step 7).
	 */
	enum cmp_verdict verdict;
	double p_value;
	int look;
	bool suspect;
	bool elsewhere;
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
 * How much one session moves the metrics of one kind (step 4): a relative
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
	/* How its entries' own estimates spread (compare_session.c): their
	 * mean, and the variance of their true values around it beyond
	 * what their noise explains (0: they are alike). */
	double own_mean, own_spread;
	/* The kind's drift over the window (compare.c's fit_trend). */
	double trend;		/* worse-way, per run: relative for times,
				   in within-session sds for the rest */
	double trend_t;		/* in its standard errors */
	bool trend_on;		/* taken off tonight's values */
	double trend_mean_pos;	/* the window's mean position */
	/*
	 * The phone's session offsets (compare_offset.c; frame times
	 * only): how far tonight's sessions stood from the baseline's as
	 * the scenes measured them together, on the kind's scale, that
	 * difference's two-sided p against how much sessions differ
	 * (offset_sd, a session's offset's spread), and whether each
	 * session's offset was taken off.  offset NAN: not measured.
	 */
	double offset, offset_p, offset_sd;
	bool offset_on;
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
	double primary_weight;	/* of frame_p90_ms, startup_ms: 1 alike */
	double suspect_fdr;	/* BH's level for suspects; 0: none */
	struct strlist primary_metrics;	/* weighed primary_weight */
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
	bool interleaved;	/* compare_opts.interleaved: jankgate ab */
	struct cmp_session_kind kinds[METRIC_NR_KINDS];

	struct strlist mismatches;	/* accepted with allow_mismatch */
	struct strlist warnings;
	/*
	 * docs/method.md, step 9: what an A/B against the previous build
	 * made of the history's regressions (compare_confirm()), one line
	 * each; empty when none was run.
	 */
	struct strlist confirmation;
	/*
	 * What the baseline measured and this complete run did not, one
	 * line each ("scenario 'checkout'", "scene 'shop/checkout'"): a
	 * scene that crashed or was renamed hides every regression it
	 * would show, so any of them makes the comparison's verdict
	 * `missing`, which fails like a regression (docs/method.md, step 2).
	 */
	struct strlist missing;

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

/* An empty comparison for readers to fill; free with comparison_free(). */
struct comparison *comparison_new(void);

/* Free a comparison and everything it owns; NULL is a no-op. */
void comparison_free(struct comparison *c);

/*
 * The run's verdict over entries, new blocks and scenarios: CMP_REGRESSION
 * if any,
 * else CMP_MISSING when the baseline measured a scenario or scene this
 * complete run did not (c->missing), else CMP_INCONCLUSIVE if any, else
 * CMP_PASS (improvements, new metrics and a single metric without a
 * value do not fail a run).
 */
enum cmp_verdict comparison_verdict(const struct comparison *c);

/*
 * What a run's verdict means for the exit status (exitstatus.h): a
 * regression and an inconclusive one are themselves, `missing` (a
 * scenario or scene the baseline measured and this run did not) fails
 * as a regression does, every other verdict is a pass.
 */
enum exit_outcome cmp_verdict_outcome(enum cmp_verdict v);

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
 * comparison.c: the explains and methods of a comparison.  The add
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
 * comparison_write.c, comparison_read.c: comparison.json.  The reader checks
 * the schema (any jankgate.comparison/1.x; another major version is refused by
 * name) and the type of every known key; errors are JG_EINVAL "<name>: <key
 * path>: expected <what>", or JG_ENOTFOUND / JG_EIO from reading the file.
 */
char *comparison_to_json(const struct comparison *c);
int comparison_write(const struct comparison *c, const char *path);
int comparison_parse(struct comparison **out, const char *buf, size_t len,
    const char *name);
int comparison_read(struct comparison **out, const char *path);

/* "kind", "speed" or "own"; NULL for CMP_SPREAD_NONE. */
const char *cmp_spread_name(enum cmp_spread s);
/* The inverse of cmp_spread_name(); JG_EINVAL for another name. */
int cmp_spread_parse(enum cmp_spread *out, const char *name);

/* "pocock", "equal" or "late"; never NULL. */
const char *cmp_spending_name(enum cmp_spending how);
/* The inverse of cmp_spending_name(); JG_EINVAL for another name. */
int cmp_spending_parse(enum cmp_spending *out, const char *name);

#endif
