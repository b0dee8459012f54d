/*
 * compare_int.h: what the files of compare share, private to them.
 *
 *   compare.c          compare_run(): options, scenarios, the window
 *   compare_pass.c     the run's passes: session spreads, the tests, the
 *                      correction and the decisions
 *   compare_offset.c   the phone's offset in each session, taken off
 *                      frame times before the session spreads
 *   compare_trend.c    the trend line: a kind's drift, a creeping metric,
 *                      the run where a series stepped
 *   compare_entry.c    one entry: its samples and the gates before the
 *                      statistics
 *   compare_test.c     the test of one entry under the session model
 *   compare_session.c  the session model: sessions, spread per kind,
 *                      the trend line's step finder
 *   compare_verdict.c  the verdict of one entry, a look's alpha
 *
 * Each calls only the ones after it in this list.
 *
 * compare_entry.c gathers every entry's values with the session each came from,
 * lets compare_session.c estimate how much a session moves each kind of
 * metric from the baseline's sessions, tests every entry under that model,
 * and decides entries in a last pass, once the correction has seen every
 * p-value of the run; each entry that reached the statistics is queued as
 * a cmp_pending, and cmp_decide() turns it into the verdict of
 * docs/method.md, step 7, under the look's cmp_rules.
 */
#ifndef JG_COMPARE_INT_H
#define JG_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

/* The values of one side of one entry, each with where it came from. */
struct cmp_sample {
	double *v;		/* per iteration, in the metric's unit */
	int *run;		/* the baseline input it came from; -1: the
				   current run */
	int *sess;		/* its session in that run */
	double *speed;		/* jank kind: how fast its scene's frames
				   came in that iteration, as a log; NAN:
				   not known (what cmp_sample_add leaves) */
	double *speed_var;	/* ... and that log's sampling variance */
	double *off_var;	/* frame times: the variance of the phone's
				   session offset taken off the value
				   (compare_offset.c); 0: none */
	const struct rs_scene **scene;	/* jank kind: the scene the value
				   was read from (compare_offset.c takes
				   the session's speed off through its
				   histogram); NULL: none */
	size_t n, alloc;
	size_t dropped;		/* values that were not finite */
};

void cmp_sample_add(struct cmp_sample *s, double v, int run, int sess);
void cmp_sample_release(struct cmp_sample *s);

/* Whether every value of both samples is one number (true for none). */
bool cmp_all_equal(const struct cmp_sample *a, const struct cmp_sample *b);

/* An entry that reached the statistics, decided after adjustment. */
struct cmp_pending {
	size_t entry;		/* index in comparison.entries, or in
				   .explains when `explain` */
	bool explain;		/* an explain metric (comparison.c) */
	const struct metric_def *metric;
	struct cmp_sample b, cu;	/* owned until the run is decided */
	bool degenerate;	/* every value equal: not in the family */
	bool untestable;	/* no spread within any session */
	double se, df;		/* the test's, on its scale */
	double p_worse_raw, p_better_raw;	/* one-sided t tests */
	double p_worse, p_better;		/* the same, adjusted */
	double q_worse;		/* p_worse_raw's BH q-value (step 8) */
	bool primary;		/* weighed opts.primary_weight (step 5) */
	bool trend;		/* in the trend test's family */
	double trend_p_raw, trend_p;		/* the worse way */
	/* The metric's own between-session variance in the baseline
	 * (cmp_kind_add), on the test's scale, and its sessions. */
	double vb_own;
	size_t s_own;
	double msb_own, msw_own, n0_own;	/* its mean squares */
	size_t values_own;
	double sd_base;		/* the baseline's within-run sd, in unit */
	/* The prior of its within-session variance (cmp_moderate_within):
	 * worth mod_d0 degrees of freedom (0: none), at mod_s2. */
	double mod_d0, mod_s2;
	/* A jank-kind entry whose values had their session's speed taken
	 * off (compare_offset.c, speed_offsets()). */
	bool speed_off;
	/* A frame percentile with fewer than CMP_TAIL_FRAMES frames beyond
	 * it (cmp_compare_metric()): the rank test decides. */
	bool thin_tail;
};

/* What the verdict needs to know about the look. */
struct cmp_rules {
	double alpha;		/* this look's share for the main test */
	double alpha_run;	/* all looks' */
	enum stats_adjust how;	/* named in reasons */
	double primary_weight;	/* ... with it, for a primary metric */
	bool last;		/* no more iterations will follow */
	bool sequential;	/* the caller takes more than one look */
	double promise;		/* before the last look, a worse estimate at
				   T with raw p at most this measures again:
				   cmp_promise() */
	double promise_count;	/* ... for a count: cmp_promise_count() */
};

/*
 * The raw p that promises a regression at look `look` of `looks`; an
 * `interleaved` A/B (`jankgate ab`) keeps the first look's at every look.
 */
double cmp_promise(int look, int looks, bool interleaved);
double cmp_promise_count(int look, int looks, bool interleaved);

/* compare_test.c: P(X >= k) for X binomial(n, f); 1 for k <= 0. */
double cmp_binom_upper(long k, long n, double f);

/*
 * The slope of a jank-kind entry's values on its scene's log speed, within
 * sessions (compare_test.c); 0 when it cannot be fitted.
 */
double cmp_speed_slope(const struct cmp_pending *p, const bool *anchor,
    double *sd);

/*
 * Set e->verdict, e->reason, e->p_value and e->p_adjusted (the direction
 * the shift points to) from `p` under `r`, by the rules of
 * docs/method.md, step 7.  The entry's shift, interval and threshold
 * must be set.
 */
void cmp_decide(struct cmp_entry *e, const struct cmp_pending *p,
    const struct cmp_rules *r);

/*
 * Whether `m` is primary under `o` (opts.primary_metrics, else the
 * metric table's mark); an explanation never is.
 */
bool cmp_is_primary(const struct compare_opts *o, const struct metric_def *m);

/* ---- compare_session.c -------------------------------------------------- */

/*
 * Where the t test on session means decides though ranks could reach the
 * level: a metric whose values have no long tail (their variance at most
 * this many times what ranks feel), of the kinds whose session spread the
 * model measures as a level (times, frame shares and counts; not blocks,
 * whose sums are mostly zeros and a few long stalls).  There ranks throw
 * away how far apart the values are, and on whole-ms percentiles, a step
 * or two apart, they tie so much that 15 values against 100 cannot reach
 * the level one metric of 480 is tested at.  On session means the gate
 * finds, under drift, several times as many of `make bench`'s slower
 * p90s as by ranks, and more slower launches, with no more false alarms
 * once each metric's own session spread counts (compare_test.c;
 * docs/method.md, step 5; NEWS: the method's history, step 4).
 */
#define CMP_LIGHT_TAIL 1.5

/* Sums over one kind's entries for its between-session spread. */
struct cmp_kind_acc {
	double sum;		/* times: between-session variances; other
				   kinds: between-session variances ... */
	double sum_within;	/* ... and within-session ones, for a ratio */
	size_t entries;
	size_t sessions;	/* the most baseline sessions of an entry;
				   interleaved: its pairs of blocks + 1 */
	bool both;		/* interleaved: both sides' blocks */
	/* What each session's estimate averages over independently: the
	 * scenarios, once the session offsets took the part every scene
	 * shares off (cmp_session_offsets()); 0 or 1: one number a session,
	 * the spread every scene shares. */
	double units;
	/* The light-tailed entries' own estimates on the kind's scale, for
	 * how much they differ beyond their noise (cmp_kind_finish). */
	struct {
		double n, sum, sum2;
		double noise[4];	/* sums of the terms of their noise
					   (compare_session.c's own_noise()) */
	} own;
};

/*
 * The one-way analysis of variance of p->b's sessions (the baseline):
 * kept in p (vb_own, s_own) and added to the accumulator of its metric's
 * kind.  Entries with fewer than two sessions, or no spread within them,
 * add nothing.
 */
void cmp_kind_add(struct cmp_kind_acc *acc, struct cmp_pending *p);

/*
 * The spread of one kind from its accumulator and its prior (weight
 * `prior_runs`, in runs): the estimate, and what the tests use.
 */
void cmp_kind_finish(struct cmp_session_kind *out,
    const struct cmp_kind_acc *acc, enum metric_kind kind, double prior,
    double prior_runs);

/*
 * The entry's own between-session variance, shrunk toward what its kind's
 * entries share by how much of its spread over them is noise: on the
 * kind's scale (the log scale's variance for times, a ratio to the
 * within-session variance for the rest), with its degrees of freedom in
 * *df.  NAN when the entry has no estimate of its own or its kind's
 * entries do not differ beyond noise.
 */
double cmp_own_shrunk(const struct cmp_pending *p,
    const struct cmp_session_kind *sk, double *df);

/* The test of one entry under the session model. */
struct cmp_model {
	double d, se, df;	/* cur - base on the test's scale; df
				   INFINITY for the rank test */
	double p_greater, p_less;	/* one-sided: cur larger, smaller */
	double shift, lo, hi;	/* cur - base in unit, at ci_level */
	double sd_within, sd_session;
	enum cmp_spread spread_from;	/* where sd_session came from */
	double deff;		/* the design effect of the sessions */
	size_t sessions_base, sessions_cur;
	bool log_scale;
	bool rank;		/* the rank test decided (else the t test) */
	bool untestable;	/* no spread within any session */
};

struct cmp_test_opts {
	double ci_level;	/* the interval's confidence */
	double level;		/* what a lone change is tested at */
	double prior_runs;	/* weight of the kind's spread against a
				   metric's own sessions */
	double speed_vb;	/* the session spread of frame times (the
				   frame-time kind's, as a variance of logs) */
	double speed_vb_left;	/* ... what the offsets left of it */
};

/*
 * Test p->cu against p->b (only the baseline runs with anchor[run] set
 * when `anchor` is not NULL) under the kind's spread `sk`, tonight's values
 * first taken back by `offset` on the test's scale (the kind's trend; 0:
 * none).  `center` is the baseline median in unit.
 */
void cmp_model_test(struct cmp_model *out, const struct cmp_pending *p,
    const struct cmp_session_kind *sk, double center, const bool *anchor,
    double offset, const struct cmp_test_opts *o);

/*
 * The smallest worse shift (in unit, positive) that model `m` would call
 * significant at one-sided level `alpha`.
 */
double cmp_model_detectable(const struct cmp_model *m, double center,
    bool higher_is_better, double alpha);

/*
 * Where the series of run means stepped: the values of p (baseline runs
 * in the chronological order `order[0..nr)`, oldest first, then the
 * current run) split in two where the worse-way difference of the two
 * sides' means, in units of its standard error, is largest.  Returns the
 * position in `order` of the first run after the step (nr: tonight's),
 * or -1 when the series is too short; *by gets the step in unit, worse
 * positive.
 */
int cmp_step_find(double *by, const struct cmp_pending *p, const int *order,
    size_t nr, bool higher_is_better);


/* ---- compare_session.c: sessions, shared with compare_test.c ---------- */

/* One session of one side: its run, its values' count, mean and squares. */
struct cmp_sess {
	int run, sess;
	size_t n;
	double mean, ss;
	double vo;		/* the variance of the offset taken off its
				   values (compare_offset.c); 0: none */
};

struct cmp_sessions {
	struct cmp_sess *s;
	size_t nr, alloc;
	size_t values;
	double ss;		/* sum of squares within sessions */
};

/* Times go on the log scale when every value of both sides allows it. */
bool cmp_use_log(const struct cmp_pending *p);

/* x on the test's scale. */
double cmp_on_scale(double x, bool log_scale);

/*
 * Group sample `s` by session into *out (its array reused), only the
 * runs with anchor[run] set when `anchor` is not NULL.
 */
void cmp_group(struct cmp_sessions *out, const struct cmp_sample *s,
    bool log_scale, const bool *anchor);

/*
 * The within-session variance, moderated (Smyth's empirical Bayes, as
 * limma does for thousands of genes): the entries of one metric of a log
 * kind (frame_p90_ms in every scene, startup_ms in every scenario) differ
 * in their within-session spread on the log scale far less than their
 * small samples' estimates do.  From the entries that reach the
 * statistics, at least CMP_MOD_MIN_ENTRIES of them, it fits the prior the
 * estimates scatter around (a scaled inverse chi-square: d0 degrees of
 * freedom at s0^2, by the moments of log s^2) and sets each pending's
 * mod_d0 and mod_s2; the test then uses (d0 s0^2 + d s^2) / (d0 + d) on
 * d0 + d degrees of freedom.  Metrics of the other kinds, explanations and
 * degenerate entries get none (mod_d0 0).
 */
void cmp_moderate_within(struct cmp_pending *pend, size_t nr);

/* What rounding alone makes values differ by, as a variance. */
double cmp_rounding_floor(const struct metric_def *m, double center,
    bool log_scale);

/*
 * The within-session spread as ranks feel it, a variance (NAN when no
 * session has two values); compare_session.c says how.
 */
double cmp_rank_within(const struct cmp_sample *const *side,
    const struct cmp_sessions *const *g, bool log_scale,
    const bool *anchor);

/* ---- compare.c, compare_entry.c, compare_pass.c, compare_trend.c ------- */

/* The trend line's share of a look's alpha, and the window it needs. */
#define CMP_TREND_SHARE 0.1
#define CMP_TREND_MIN_RUNS 6
/* The t a kind's slope over the window needs to be taken off tonight. */
#define CMP_TREND_T 3

/*
 * A whole-ms frame percentile of a scene whose frames pile up just before
 * the vsyncs (a waiting RenderThread, triple buffering; compare_entry.c,
 * piles_up()) moves in steps: a phone a percent slower carries the
 * percentile from a plateau into the thin tail above it, or across it,
 * as the real-phone bench's unchanged nights showed.  Such a move is not
 * evidence by itself (docs/method.md, step 6): the practical size of that
 * scene's frame percentiles is at least one period plus the millisecond
 * of rounding, and a change of less than that shows in the continuous
 * metrics of the scene (jank share, frame rate, dropped frames), which
 * are tested too.
 */
#define CMP_VSYNC_ROUNDING_MS 1.0
/*
 * ... where the scene's frames do pile up: the plateau's two buckets hold
 * this many times the frames of the two just above it (a smooth
 * distribution, even at its mode: under 1.5), at one of the first this
 * many multiples.
 */
#define CMP_VSYNC_PILE 3.0
#define CMP_VSYNC_PLATEAUS 4
/*
 * ... and holds too many frames for a smooth distribution's chance: a
 * smooth one puts at most 1.5 / 2.5 of the frames of the four buckets in
 * the plateau's two, and the frames of a pile are that share's binomial
 * upper tail at this level.  A dozen hitches over fifteen iterations,
 * ten at 32-33 ms and two just above, are no pile (docs/method.md,
 * step 6).
 */
#define CMP_VSYNC_SMOOTH_SHARE 0.6
#define CMP_VSYNC_PILE_P 0.001
/*
 * ... and where the percentile can reach a pile: on either side, no more
 * than this many ms below the first plateau's bucket (the pile's window
 * below it, piles_up()), or above it.  A percentile of the frames'
 * body, further below, moves with their work, not by vsync steps.
 */
#define CMP_VSYNC_REACH_MS 3.0
/*
 * The 99th percentile sits in the thinnest tail, where a plateau holds
 * about as many frames as the percentile leaves above it: it steps two or
 * more periods at once, the scene's other metrics unmoved, as on the
 * real-phone bench's first nights (docs/method.md, step 6).  Its practical
 * size is this many periods plus the rounding.
 */
#define CMP_VSYNC_TAIL_PERIODS 2

/*
 * A frame percentile with fewer frames than this beyond it (a p99 of the
 * 300 frames of a five-second scroll: the three slowest) is carried by a
 * handful of frames that come and go: its value jumps between the body of
 * the distribution and its rare long frames, and five iterations of one
 * session can sit all on one side by chance (docs/method.md, step 5).
 */
#define CMP_TAIL_FRAMES 10

/*
 * The degrees of freedom one session's draw is judged on: phones'
 * sessions have heavy tails (most close to the phone's level, now and
 * then one tens of percent off, or one scene or one launch far off on its
 * own), so a single session's offset far off, and the difference of one
 * session tonight from one in the baseline, are weighed as draws of
 * Student's t with this many, whatever the prior says of their spread
 * (docs/method.md, steps 3 and 5).
 */
#define CMP_TAIL_DF 3

/*
 * Tonight's phone offset (every scene of a session slower alike) is taken
 * for the build's own, and nothing taken off, only when it is both beyond
 * what sessions do and at least this large (log scale, 15 %): a phone
 * that ages or has a heavy-tailed bad session moves every scene a few
 * percent, which sessions of a 20-run window rarely show between
 * themselves, and counting that as a change of the app failed every
 * deadline-bound metric of the night (docs/method.md, step 3).
 */
#define CMP_PHONE_SHIFT 0.14

/*
 * A jank share, a frame rate or a count of dropped frames is taken back
 * by its slope on the scene's speed times the session's offset, or, for
 * an offset beyond the speeds the slope was fitted over, by what its
 * scene's histogram reads at the baseline's speed.  Neither is the metric
 * itself (the slope is a line, and a share past a deadline is not one;
 * the histogram is a proxy of gfxinfo's own deadlines): this share of
 * what it takes back counts as uncertain, a variance of
 * (CMP_SLOPE_ERROR x correction)^2 beside the offset's own
 * (docs/method.md, step 3).
 */
#define CMP_SLOPE_ERROR 1.0
/*
 * The least step (log speed) over which the histogram's response to the
 * offset is read for the offset's variance: a smaller one reads whole-ms
 * buckets' edges.
 */
#define CMP_SPEED_STEP 0.01
/*
 * A jank-kind entry's slope on its scene's speed holds over the speeds it
 * was fitted over: this many within-session standard deviations of them
 * either side.  A session's offset beyond that is taken off through the
 * scene's histogram (docs/method.md, step 3).
 */
#define CMP_SLOPE_SPAN 2.0

#define SWAP(a, b) do { struct cmp_kind_series tmp_ = (a); (a) = (b); \
	(b) = tmp_; } while (0)

/* What a scenario contributes to every entry in it. */
struct cmp_scope {
	const char *scenario;
	const struct rs_scenario *cur;
	const struct rs_scenario *const *base;	/* one per baseline */
	size_t nr_base;
	size_t cur_valid, base_valid;
};

/*
 * How a kind of metric moved over the window, run by run: the worse-way
 * deviation of each run's mean from the window's, averaged over the
 * kind's metrics (relative for times, in within-session standard
 * deviations for the rest), per position in the window, oldest first.
 */
struct cmp_kind_series {
	double *sum, *n;
};

/* One scene's mean frames (compare_entry.c's mean_frame_ms), or one
 * scenario's launches, both sides. */
struct cmp_scene_frames {
	const char *scenario;	/* borrowed from the scope */
	char *scene;		/* NULL: the scenario's launch */
	struct cmp_pending p;	/* p.b, p.cu: the values, p.metric */
	/*
	 * Most of the baseline's iterations have most of the scene's kept
	 * frames in gfxinfo's lowest bucket, CMP_LOWEST_BUCKET_MS: its speed
	 * follows the phone a fraction of the way (docs/method.md, step 3).
	 */
	bool censored;
};

struct cmp_ctx {
	struct cmp_kind_acc frame_drift;	/* from scenes' mean frames */
	struct cmp_scene_frames *frames;	/* every scene's, for the
					   session model and the offsets */
	size_t nr_frames, alloc_frames;
	/* The frame-time kind's session variance before the offsets were
	 * taken off (the jank kind's speed prior reads it); NAN: as the
	 * kind's. */
	double speed_vb;
	/* The offsets taken off: the scenarios behind the spread left (its
	 * cmp_kind_acc.units); 0: none taken off. */
	size_t off_units;
	struct cmp_kind_series series[METRIC_NR_KINDS];
	struct cmp_kind_series frame_pct;	/* the percentiles' (no
					   histogram) */
	int *pos;		/* baseline input -> position in the window */
	struct comparison *c;
	const struct compare_opts *o;
	struct cmp_pending *pend;
	size_t nr_pend, alloc_pend;
	bool *anchor;		/* per baseline input: the trend's anchor */
	int *order;		/* baseline inputs, oldest first */
	size_t nr_base;
	/* The current run's frame period (its refresh rate); NAN: unknown. */
	double vsync_ms;
	/* Tonight's one session stands CMP_PHONE_SHIFT or more worse in
	 * every scene: a phone or a build, which another session tells. */
	bool phone_unsure;
	/* ... tonight's sessions against the baseline's only one: which
	 * of them is the phone's, a second baseline run tells. */
	bool base_unsure;
};


/* compare_entry.c: the samples of one entry, and the entry. */

/* Both NULL, or both the same string. */
bool cmp_same_str(const char *a, const char *b);

/* The valid iterations of `sc` (not warm-ups, not failed). */
size_t cmp_valid_iterations(const struct rs_scenario *sc);

/* Set e->reason (printf-style), replacing what it held. */
void cmp_set_reasonf(struct cmp_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A baseline record is corrupt when its scene's median frame (p50), or
 * its launch's total time, lies more than this factor from the median of
 * the scene's (the launch's) over every baseline iteration: a phone does
 * not draw the middle of a scene three times slower or faster from one
 * iteration to the next (they differ by percents; a warm or throttled
 * phone by tens of percents), while one such value, every percentile x10,
 * widens a baseline enough to hide a scene far slower (the real-phone
 * bench's corrupt record did: docs/method.md, step 1).  Such a record is
 * left out of every metric of its scene (its launch), with a warning.
 * Only the baseline: tonight's values are what the gate judges.
 */
#define CMP_CORRUPT_FACTOR 3.0
/* ... once the baseline has this many values to take the median of. */
#define CMP_CORRUPT_MIN 5

/*
 * The share of a scene's frames, its fastest, whose mean is the scene's
 * speed for the session model (compare_entry.c's mean_frame_ms(): the
 * "mean frame" of these files' comments, docs/method.md's speed).  A
 * short scene's few long frames (a transition, a block of the build's)
 * fall in or out of an iteration by chance: in the mean of every frame
 * they made two sessions of one phone look far apart, a spread that hid
 * another scene far slower (docs/method.md, the named constants).  The
 * fastest nine tenths still follow a phone a few percent slower frame by
 * frame.  Three quarters cost the real-phone bench's jank rows power
 * (the figures with the table of constants in docs/method.md).
 */
#define CMP_FRAME_KEEP 0.9

/*
 * gfxinfo's lowest histogram bucket, "5ms": it holds every frame under 6
 * ms, so a frame in it reads 5 whatever the phone's speed.
 */
#define CMP_LOWEST_BUCKET_MS 5

/*
 * The baseline records of `scene` (NULL: the launch) of `sc` that are
 * corrupt (CMP_CORRUPT_FACTOR), counted; with `warnings`, a line saying
 * so when there is any.
 */
size_t cmp_corrupt_records(const struct cmp_scope *sc, const char *scene,
    struct strlist *warnings);

/*
 * Make the entry of metric `m` in `scene` (NULL: the scenario's own) of
 * scope `sc`: its samples, summaries and the gates before any statistics;
 * an entry that reaches the statistics is kept pending in x->pend.
 */
void cmp_compare_metric(struct cmp_ctx *x, const struct cmp_scope *sc,
    const char *scene, const struct metric_def *m);

/*
 * Add the worse-way deviations of baseline sample `b`'s run means from
 * the window's to the series `ks` (on a log scale for times; else in
 * units of *sd, the within-session sd).
 */
void cmp_series_add(struct cmp_ctx *x, struct cmp_kind_series *ks,
    const struct cmp_sample *b, bool log_scale, bool higher_is_better,
    double *sd);

/* The scenes' mean frames of `scene`, both sides, into x->frames. */
void cmp_frame_drift_add(struct cmp_ctx *x, const struct cmp_scope *sc,
    const char *scene);

/* The scenario's cold launches, both sides, a row of the offsets. */
void cmp_launch_drift_add(struct cmp_ctx *x, const struct cmp_scope *sc);

/* The baseline's sessions of every scene's mean frames into
 * x->frame_drift and the frame-time series (after the offsets). */
void cmp_frame_drift_account(struct cmp_ctx *x);

/* compare_offset.c: the phone's session offsets (docs/method.md, step 3). */

/*
 * Take the phone's offset in each session off the frame times of every
 * scene, measured on the other scenes of that session, unless tonight's
 * sessions differ from the baseline's by more than sessions do.
 */
void cmp_session_offsets(struct cmp_ctx *x);

/* compare_pass.c: the run's passes over the pending entries. */

/* The spread a session adds, per kind of metric, from every baseline. */
void cmp_estimate_kinds(struct cmp_ctx *x);

/* Test every pending entry under the session model and the trend line. */
void cmp_test_all(struct cmp_ctx *x);

/* Adjust the run's p-values and decide every pending entry. */
int cmp_decide_all(struct cmp_ctx *x);

/*
 * compare_blocks.c: the verdicts of c's new block signatures (its header
 * has the test), after every scenario's blocks are in c->blocks.
 */
void cmp_decide_blocks(struct comparison *c, const struct compare_opts *o);
/*
 * Marks the new signatures of c->blocks that some valid iteration of
 * base[0..nr_base) carries in another scene or scenario (compare_blocks.c;
 * docs/method.md, step 7).
 */
void cmp_mark_known_blocks(struct comparison *c,
    const struct compare_input *base, size_t nr_base);

/* compare_trend.c: the trend line. */

/* A kind's trend over the window into sk (see compare_trend.c). */
void cmp_fit_trend(struct cmp_ctx *x, struct cmp_session_kind *sk,
    const struct cmp_kind_series *ks);

/* Decide entry `e` by its trend test: a creep is a regression. */
void cmp_decide_trend(struct cmp_ctx *x, struct cmp_pending *p,
    struct cmp_entry *e);

/* Name the run where the series of a regression stepped. */
void cmp_find_step(struct cmp_ctx *x, struct cmp_pending *p,
    struct cmp_entry *e);

#endif
