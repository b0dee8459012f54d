/*
 * compare.c: compare_run(), from the inputs to a comparison (the method is
 * in compare.h; compare_int.h lists the files that do each part).
 *
 * compare_run() walks the union of the scenarios of both sides, current
 * order first; in each, the scenario's own metrics (launch timing), then
 * every scene in order of first appearance with the scene metrics, in
 * metric table order.  Each pair that has a value on either side becomes
 * one entry.  Then, in passes over the entries that reach the statistics:
 * the spread a session adds is estimated per kind of metric from every
 * entry's baseline, each entry is tested under that model (and against
 * the oldest runs of the window, the trend line), the p-values of the run
 * are adjusted, and each entry is decided.
 *
 * Choices the design leaves open, and why:
 *
 *   - The interval is 1 - 2 alpha (98 % at the default 0.01, never below
 *     50 %): its worse end is the one-sided alpha bound a pass quotes as
 *     what it rules out.  It uses the whole alpha at every look: a pass
 *     is not a false alarm, and splitting alpha over looks is about those.
 *   - Pass does not require ruling a regression out.  "Every metric is
 *     proven not worse by T" is a claim hundreds of metrics at 5
 *     iterations almost never support; inconclusive is kept for what more
 *     iterations can settle: a shift significant on its own whose
 *     estimate or interval reaches T, where only the correction stands in
 *     the way.  For a caller that looks again (looks > 1, the gate) that
 *     includes a significant shift whose estimate is below T.  A single
 *     look (`jankgate compare`) passes it and says what it cannot rule
 *     out.
 *   - The last look decides.  More iterations will not come, so an
 *     estimate at T that is not significant passes unless it would be at
 *     the run's whole alpha: then splitting alpha over looks is what
 *     stands in the way, and that is inconclusive (exit 4).
 *   - One-sided tests in two families rather than one two-sided family:
 *     the gate's question is directional ("did it get worse?"), and a
 *     two-sided test would spend half of alpha on improvements, which do
 *     not fail a run.  Each family holds its own error rate.
 *   - The trend line takes a fifth of the look's alpha, and only when the
 *     window holds at least CMP_TREND_MIN_RUNS runs: a creeping metric
 *     moves tonight's value away from the oldest runs of the window long
 *     before it moves it away from the window's mean.
 *   - A missing metric does not fail a run (exit 0): more iterations would
 *     not bring it back, and the report shows it.  A scenario with fewer
 *     valid current iterations than min_iterations is inconclusive, unless
 *     it has no baseline: a first run is new, whatever its size.
 *   - Values that are not finite (a broken source) are dropped from the
 *     sample with a warning, never compared.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_int.h"
#include "config.h"
#include "error.h"
#include "metrics.h"
#include "results.h"
#include "stats.h"
#include "xalloc.h"
#include "banned.h"

/* ---- options ------------------------------------------------------------ */

/* The priors when there is no configuration: config_keys.c's defaults. */
static const double default_prior[METRIC_NR_KINDS] = {
	[METRIC_KIND_FRAME_TIME] = 0.02,
	[METRIC_KIND_LAUNCH] = 0.02,
	[METRIC_KIND_JANK] = 0.5,
	[METRIC_KIND_BLOCKS] = 0.5,
};

void
compare_opts_init(struct compare_opts *o, const struct config_compare *cfg)
{
	memset(o, 0, sizeof(*o));
	o->alpha = cfg ? cfg->alpha : 0.01;
	o->correction = STATS_ADJUST_HOLM;	/* docs/method.md, step 5 */
	o->min_iterations = cfg ? cfg->min_iterations : 3;
	o->noise = 1;
	o->look = o->looks = 1;
	o->spending = CMP_SPEND_LATE;
	o->share = 1;
	o->primary_weight = CMP_PRIMARY_WEIGHT;
	o->suspect_fdr = cfg ? cfg->suspect_fdr : CMP_SUSPECT_FDR;
	o->primary_metrics = cfg ? &cfg->primary_metrics : NULL;
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		o->session_prior[k] = default_prior[k];
	o->prior_runs = 1;
	o->offsets = true;
	if (cfg) {
		o->session_prior[METRIC_KIND_FRAME_TIME] =
		    cfg->session.frame_time;
		o->session_prior[METRIC_KIND_LAUNCH] = cfg->session.launch;
		o->session_prior[METRIC_KIND_JANK] = cfg->session.jank;
		o->session_prior[METRIC_KIND_BLOCKS] = cfg->session.blocks;
	}
	o->trend = true;
	o->cfg = cfg;
}

/* ---- samples ------------------------------------------------------------ */

/*
 * Step 6: a regression an earlier look found stands, with the numbers of
 * the look that found it.  The reason says which look that was, once.
 */
static void
keep_regressions(struct comparison *c, const struct comparison *prior)
{
	for (size_t i = 0; prior && i < c->nr_entries; i++) {
		struct cmp_entry *e = &c->entries[i];
		const struct cmp_entry *p = comparison_find_entry(prior,
		    e->scenario, e->scene, e->metric);
		char *reason;

		if (e->verdict == CMP_REGRESSION || !p ||
		    p->verdict != CMP_REGRESSION)
			continue;
		cmp_entry_copy(e, p);
		if (p->look != prior->look)
			continue;
		reason = xasprintf("at look %d of %d: %s", p->look, c->looks,
		    p->reason ? p->reason : "regression");
		free(e->reason);
		e->reason = reason;
	}
}

/* ---- scenarios ---------------------------------------------------------- */

static void
add_scene_names(struct strlist *names, const struct rs_scenario *sc)
{
	struct strlist l = STRLIST_INIT;

	if (!sc)
		return;
	rs_scenario_scene_names(sc, &l);
	for (size_t i = 0; i < l.nr; i++)
		if (strlist_find(names, l.items[i]) < 0)
			strlist_add(names, l.items[i]);
	strlist_release(&l);
}

static void
compare_scenario(struct cmp_ctx *x, struct cmp_scope *sc)
{
	struct comparison *c = x->c;
	struct strlist scenes = STRLIST_INIT;
	struct cmp_scenario *s = comparison_add_scenario(c);
	size_t runs = 0, measured = 0;

	sc->cur_valid = cmp_valid_iterations(sc->cur);
	sc->base_valid = 0;
	for (size_t i = 0; i < sc->nr_base; i++) {
		sc->base_valid += cmp_valid_iterations(sc->base[i]);
		runs += sc->base[i] != NULL;
		if (sc->cur && sc->base[i] &&
		    !cmp_same_str(sc->cur->sha256, sc->base[i]->sha256))
			s->changed = true;
	}
	for (size_t i = 0; sc->cur && i < sc->cur->nr_iterations; i++)
		measured += !sc->cur->iterations[i].warmup;
	s->name = xstrdup(sc->scenario);
	s->cur_iterations = (double)measured;
	s->cur_valid = (double)sc->cur_valid;
	s->base_runs = (double)runs;
	s->base_valid = (double)sc->base_valid;
	/* A first run is new whatever its size: nothing can be inconclusive
	 * without a baseline to be inconclusive about. */
	if (!sc->cur)
		s->verdict = CMP_MISSING;
	else if (!runs)
		s->verdict = CMP_NEW;
	else if (sc->cur_valid < (size_t)x->o->min_iterations)
		s->verdict = CMP_INCONCLUSIVE;
	else
		s->verdict = CMP_PASS;
	if (s->changed)
		strlist_addf(&c->warnings, "scenario '%s' changed since the "
		    "baseline (its sha256 differs)", sc->scenario);

	add_scene_names(&scenes, sc->cur);
	for (size_t i = 0; i < sc->nr_base; i++)
		add_scene_names(&scenes, sc->base[i]);
	(void)cmp_corrupt_records(sc, NULL, &c->warnings);
	for (size_t j = 0; j < scenes.nr; j++)
		(void)cmp_corrupt_records(sc, scenes.items[j], &c->warnings);
	for (size_t k = 0; k < metric_count(); k++)
		if (metric_at(k)->scope == METRIC_SCENARIO)
			cmp_compare_metric(x, sc, NULL, metric_at(k));
	for (size_t j = 0; j < scenes.nr; j++) {
		for (size_t k = 0; k < metric_count(); k++)
			if (metric_at(k)->scope == METRIC_SCENE)
				cmp_compare_metric(x, sc, scenes.items[j],
				    metric_at(k));
		cmp_frame_drift_add(x, sc, scenes.items[j]);
	}
	cmp_launch_drift_add(x, sc);
	compare_blocks(c, sc->scenario, sc->cur, sc->base, sc->nr_base,
	    x->o);
	compare_methods(c, sc->scenario, sc->cur, sc->base, sc->nr_base,
	    x->o);
	strlist_release(&scenes);
}

static void
run_info(struct cmp_run *r, const struct compare_input *in)
{
	const struct results *res = in->results;

	r->file = in->name ? xstrdup(in->name) : NULL;
	r->run_id = res->run.id ? xstrdup(res->run.id) : NULL;
	r->app_version = res->app.version_name ?
	    xstrdup(res->app.version_name) : NULL;
	r->started = res->run.started ? xstrdup(res->run.started) : NULL;
}

static int
check_opts(const struct compare_opts *o)
{
	if (!(o->alpha > 0 && o->alpha < 1))
		return jg_error_set(JG_EINVAL, "alpha %g is outside (0, 1)",
		    o->alpha);
	if (!(o->share > 0 && o->share <= 1))
		return jg_error_set(JG_EINVAL, "alpha share %g is outside "
		    "(0, 1]", o->share);
	if (!(o->noise >= 0 && o->noise < 100))
		return jg_error_set(JG_EINVAL, "noise %g is outside [0, 100)",
		    o->noise);
	if (o->min_iterations < 1)
		return jg_error_set(JG_EINVAL, "min_iterations %d is below 1",
		    o->min_iterations);
	if (o->looks < 1 || o->look < 1 || o->look > o->looks)
		return jg_error_set(JG_EINVAL, "look %d of %d is not one of "
		    "1 .. %d", o->look, o->looks, o->looks);
	if (isnan(compare_look_alpha(o->alpha, 1, 2, o->spending)))
		return jg_error_set(JG_EINVAL, "unknown alpha spending %d",
		    (int)o->spending);
	if (o->correction != STATS_ADJUST_NONE &&
	    o->correction != STATS_ADJUST_HOLM &&
	    o->correction != STATS_ADJUST_BH)
		return jg_error_set(JG_EINVAL, "unknown correction %d",
		    (int)o->correction);
	if (!(o->primary_weight > 0 && isfinite(o->primary_weight)))
		return jg_error_set(JG_EINVAL, "primary_weight %g is not a "
		    "positive number", o->primary_weight);
	if (!(o->suspect_fdr >= 0 && o->suspect_fdr < 1))
		return jg_error_set(JG_EINVAL, "suspect_fdr %g is not in "
		    "[0, 1)", o->suspect_fdr);
	if (!(o->prior_runs >= 0))
		return jg_error_set(JG_EINVAL, "prior weight %g is negative",
		    o->prior_runs);
	for (int k = 0; k < METRIC_NR_KINDS; k++)
		if (!(o->session_prior[k] >= 0 && isfinite(
		    o->session_prior[k])))
			return jg_error_set(JG_EINVAL, "session prior of %s "
			    "is %g", metric_kind_name((enum metric_kind)k),
			    o->session_prior[k]);
	return 0;
}

/*
 * Step 2: whether the comparison holds the current run to scenario
 * `name`: one it measured, or one it set out to measure (run.planned; a
 * file without a plan set out to measure everything).  Another shard's
 * scenarios, or those an engineer left out of a run at the desk, are
 * not missing: they were never asked for.
 */
static bool
in_scope(const struct results *cur, const char *name)
{
	return !cur->run.planned.nr || results_find_scenario(cur, name) ||
	    strlist_find(&cur->run.planned, name) >= 0;
}

/*
 * The union of scenario names in scope, current order first, and in
 * `out` those of the baseline out of scope.
 */
static void
scenario_names(struct strlist *names, struct strlist *out,
    const struct compare_input *cur, const struct compare_input *base,
    size_t nr_base)
{
	const struct results *r = cur->results;

	for (size_t i = 0; i <= nr_base; i++) {
		if (i)
			r = base[i - 1].results;
		for (size_t j = 0; j < r->nr_scenarios; j++) {
			const char *name = r->scenarios[j].name;
			struct strlist *to = in_scope(cur->results, name) ?
			    names : out;

			if (name && strlist_find(to, name) < 0)
				strlist_add(to, name);
		}
	}
}

/*
 * Step 2: what the baseline measured and this run did not, when the run
 * is complete (a run cut short by a lost device says so itself, as an
 * infrastructure failure): a scenario it has no iteration of, and a
 * scene of a measured scenario none of whose metrics has a value now
 * (a scene that crashed or was renamed).  Entries are grouped by
 * scenario and scene (compare_scenario()'s order).
 */
static void
note_missing(struct comparison *c, const struct results *cur)
{
	if (!cur->run.complete)
		return;
	for (size_t i = 0; i < c->nr_scenarios; i++)
		if (c->scenarios[i].verdict == CMP_MISSING)
			strlist_addf(&c->missing, "scenario '%s'",
			    c->scenarios[i].name);
	for (size_t i = 0; i < c->nr_entries;) {
		const struct cmp_entry *e = &c->entries[i];
		const struct cmp_scenario *s = NULL;
		bool all = true;
		size_t j = i;

		for (; j < c->nr_entries && !strcmp(c->entries[j].scenario,
		    e->scenario) && cmp_same_str(c->entries[j].scene,
		    e->scene); j++)
			all = all && c->entries[j].verdict == CMP_MISSING;
		for (size_t k = 0; k < c->nr_scenarios; k++)
			if (!strcmp(c->scenarios[k].name, e->scenario))
				s = &c->scenarios[k];
		if (e->scene && all && s && s->verdict != CMP_MISSING)
			strlist_addf(&c->missing, "scene '%s/%s'",
			    e->scenario, e->scene);
		i = j;
	}
}

struct dated {
	const char *started;
	int index;
};

/* Oldest first by run.started; equal times keep the newer-first input
 * order reversed. */
static int
cmp_dated(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;
	int d = strcmp(x->started, y->started);

	return d ? d : y->index - x->index;
}

/*
 * The baseline runs oldest first: by run.started when every run has
 * one, else the given order reversed (the store gives the newest first).
 * With CMP_TREND_MIN_RUNS or more, the oldest half is the trend's anchor.
 */
static void
order_runs(struct cmp_ctx *x, const struct compare_input *base, size_t nr)
{
	struct dated *d = xcalloc(nr + 1, sizeof(*d));
	bool dated = true;

	x->order = xcalloc(nr + 1, sizeof(*x->order));
	for (size_t i = 0; i < nr; i++) {
		d[i].started = base[i].results->run.started;
		d[i].index = (int)i;
		dated = dated && d[i].started;
	}
	if (dated)
		qsort(d, nr, sizeof(*d), cmp_dated);
	for (size_t i = 0; i < nr; i++)
		x->order[i] = dated ? d[i].index : (int)(nr - 1 - i);
	free(d);
	x->pos = xcalloc(nr + 1, sizeof(*x->pos));
	for (size_t i = 0; i < nr; i++)
		x->pos[x->order[i]] = (int)i;
	for (int k = 0; k < METRIC_NR_KINDS; k++) {
		x->series[k].sum = xcalloc(nr + 1, sizeof(double));
		x->series[k].n = xcalloc(nr + 1, sizeof(double));
	}
	x->frame_pct.sum = xcalloc(nr + 1, sizeof(double));
	x->frame_pct.n = xcalloc(nr + 1, sizeof(double));
	if (!x->o->trend || nr < CMP_TREND_MIN_RUNS)
		return;
	x->anchor = xcalloc(nr, sizeof(*x->anchor));
	for (size_t k = 0; k < nr / 2; k++)
		x->anchor[x->order[k]] = true;
	x->c->anchor_runs = nr / 2;
}

/*
 * Step 2: baseline runs measured on another OS build of the phone (their
 * device.fingerprint differs from the current run's) are left out when
 * the window holds a run of tonight's build; when it holds none (the
 * night after an OS update) they are all kept, since nothing else can
 * say whether the app changed.  Either way a warning says so.  Returns
 * the runs to use: `base` itself, or *kept (the caller frees it).
 */
static const struct compare_input *
same_os_build(const struct compare_input *cur, const struct compare_input *base,
    size_t *nr, struct compare_input **kept, struct strlist *warnings)
{
	const char *fp = cur->results->device.fingerprint;
	size_t same = 0, n = 0;
	const char *other = NULL;

	*kept = NULL;
	if (!fp || !*fp)
		return base;
	for (size_t i = 0; i < *nr; i++) {
		const char *f = base[i].results->device.fingerprint;

		if (!f || !*f || !strcmp(f, fp))
			same++;
		else if (!other)
			other = f;
	}
	if (!other)
		return base;
	if (!same) {
		strlist_addf(warnings, "every baseline run was measured on "
		    "another OS build of the phone ('%s', tonight '%s'): "
		    "compared anyway; the OS may account for a change",
		    other, fp);
		return base;
	}
	*kept = xcalloc(*nr + 1, sizeof(**kept));
	for (size_t i = 0; i < *nr; i++) {
		const char *f = base[i].results->device.fingerprint;

		if (!f || !*f || !strcmp(f, fp))
			(*kept)[n++] = base[i];
	}
	strlist_addf(warnings, "%zu of %zu baseline runs were measured on "
	    "another OS build of the phone (e.g. '%s', tonight '%s'): left "
	    "out", *nr - n, *nr, other, fp);
	*nr = n;
	return *kept;
}

/*
 * Step 3: tonight's one session stands CMP_PHONE_SHIFT or more worse in
 * every scene.  Its offset was taken off, as a phone's; but a build
 * slower everywhere looks the same in one session, so every scenario
 * that would pass is inconclusive: a gate measures another session of
 * each (a phone's bad session is not repeated; a build's slowdown is,
 * and then is tested as the build's), and `compare` alone says it
 * cannot tell (exit 4).  With `base_only`, tonight's sessions stand that
 * far from the baseline's only session, which may be the odd one: the
 * offset was taken off, and only this look's regressions are left
 * undecided (another session tonight cannot tell; a second baseline
 * run can).
 */
static void
phone_unsure(struct comparison *c, bool base_only)
{
	const struct cmp_session_kind *sk =
	    &c->kinds[METRIC_KIND_FRAME_TIME];
	const char *what = base_only ? "the baseline's only session" :
	    "tonight's one session";

	if (base_only)
		strlist_addf(&c->warnings, "tonight's sessions drew every "
		    "scene %.0f %% slower than the baseline's only session: "
		    "one baseline session cannot tell a slow phone from a "
		    "build slower everywhere; taken as the phone's, and what "
		    "it moves is left undecided (record more baseline runs)",
		    100 * expm1(sk->offset));
	else
		strlist_addf(&c->warnings, "tonight's session drew every "
		    "scene %.0f %% slower than the baseline's sessions: one "
		    "session cannot tell a slow phone from a build slower "
		    "everywhere; measure another session",
		    100 * expm1(sk->offset));
	for (size_t i = 0; !base_only && i < c->nr_scenarios; i++)
		if (c->scenarios[i].verdict == CMP_PASS)
			c->scenarios[i].verdict = CMP_INCONCLUSIVE;
	/* What the phone's speed moves is not evidence from that session. */
	for (size_t i = 0; i < c->nr_entries; i++) {
		struct cmp_entry *e = &c->entries[i];
		const struct metric_def *m = metric_find(e->metric);

		if (e->verdict != CMP_REGRESSION || e->look < c->look || !m ||
		    m->kind == METRIC_KIND_BLOCKS)
			continue;
		e->verdict = CMP_INCONCLUSIVE;
		cmp_set_reasonf(e, "%s; but every scene stands %.0f %% slower "
		    "than in %s: %s", e->reason ? e->reason : "worse",
		    100 * expm1(sk->offset), what, base_only ?
		    "record more baseline runs" : "measure another");
	}
}

int
compare_run(struct comparison **out, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base,
    const struct compare_opts *o)
{
	struct compare_input *kept = NULL;
	struct strlist os_note = STRLIST_INIT;
	struct strlist reasons = STRLIST_INIT, names = STRLIST_INIT;
	struct strlist left_out = STRLIST_INIT;
	const struct rs_scenario **bsc = NULL;
	struct cmp_ctx x;
	struct comparison *c;
	int rc;

	*out = NULL;
	if ((rc = check_opts(o)) < 0)
		return rc;
	rc = compare_check(&reasons, cur, base, nr_base);
	if (rc && !o->allow_mismatch) {
		strlist_release(&reasons);
		return rc;
	}
	jg_error_clear();
	base = same_os_build(cur, base, &nr_base, &kept, &os_note);
	memset(&x, 0, sizeof(x));
	x.o = o;
	x.nr_base = nr_base;
	x.vsync_ms = cur->results->device.refresh_hz > 0 ?
	    1000.0 / cur->results->device.refresh_hz : NAN;
	c = x.c = comparison_new();
	strlist_release(&c->mismatches);
	c->mismatches = reasons;
	for (size_t i = 0; i < os_note.nr; i++)
		strlist_add(&c->warnings, os_note.items[i]);
	strlist_release(&os_note);
	c->device = cur->results->device.key ?
	    xstrdup(cur->results->device.key) : NULL;
	c->package = cur->results->app.package ?
	    xstrdup(cur->results->app.package) : NULL;
	run_info(&c->current, cur);
	for (size_t i = 0; i < nr_base; i++)
		run_info(comparison_add_baseline(c), &base[i]);
	c->alpha = o->alpha;
	c->share = o->share;
	c->correction = o->correction;
	c->primary_weight = o->primary_weight;
	c->suspect_fdr = o->suspect_fdr;
	for (size_t i = 0; i < metric_count(); i++)
		if (cmp_is_primary(o, metric_at(i)))
			strlist_add(&c->primary_metrics, metric_at(i)->name);
	c->ci_level = fmax(1 - 2 * o->alpha, 0.5);
	c->min_iterations = o->min_iterations;
	c->noise = o->noise;
	c->look = o->look;
	c->looks = o->looks;
	c->spending = o->spending;
	c->last = o->last;
	c->prior_runs = o->prior_runs;
	c->interleaved = o->interleaved;
	c->alpha_look = compare_look_alpha(o->alpha * o->share, o->look,
	    o->looks, o->spending);
	order_runs(&x, base, nr_base);
	c->alpha_trend = x.anchor ? CMP_TREND_SHARE * c->alpha_look : 0;

	scenario_names(&names, &left_out, cur, base, nr_base);
	for (size_t i = 0; i < left_out.nr; i++)
		strlist_addf(&c->warnings, "scenario '%s' of the baseline was "
		    "not asked for in this run (not configured, or not "
		    "selected); it is not compared", left_out.items[i]);
	strlist_release(&left_out);
	bsc = xcalloc(nr_base + 1, sizeof(*bsc));
	for (size_t i = 0; i < names.nr; i++) {
		struct cmp_scope sc = {
			names.items[i], NULL, bsc, nr_base, 0, 0
		};

		sc.cur = results_find_scenario(cur->results, names.items[i]);
		for (size_t j = 0; j < nr_base; j++)
			bsc[j] = results_find_scenario(base[j].results,
			    names.items[i]);
		compare_scenario(&x, &sc);
	}
	note_missing(c, cur->results);
	x.speed_vb = NAN;
	cmp_session_offsets(&x);
	cmp_estimate_kinds(&x);
	cmp_test_all(&x);
	rc = cmp_decide_all(&x);
	if (!rc) {
		keep_regressions(c, o->prior);
		cmp_mark_known_blocks(c, base, nr_base);
		cmp_decide_blocks(c, o);
		if (x.phone_unsure || x.base_unsure)
			phone_unsure(c, !x.phone_unsure);
	}
	for (size_t i = 0; i < x.nr_pend; i++) {
		cmp_sample_release(&x.pend[i].b);
		cmp_sample_release(&x.pend[i].cu);
	}
	free(x.pend);
	for (size_t i = 0; i < x.nr_frames; i++) {
		free(x.frames[i].scene);
		cmp_sample_release(&x.frames[i].p.b);
		cmp_sample_release(&x.frames[i].p.cu);
	}
	free(x.frames);
	free(x.anchor);
	free(x.order);
	free(x.pos);
	for (int k = 0; k < METRIC_NR_KINDS; k++) {
		free(x.series[k].sum);
		free(x.series[k].n);
	}
	free(x.frame_pct.sum);
	free(x.frame_pct.n);
	free(bsc);
	free(kept);
	strlist_release(&names);
	if (rc) {
		comparison_free(c);
		return rc;
	}
	*out = c;
	return 0;
}
