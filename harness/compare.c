/*
 * compare.c: samples, statistics and the run's pass over them (the method
 * is in compare.h; the verdict of one entry is compare_verdict.c's).
 *
 * compare_run() walks the union of the scenarios of both sides, current
 * order first; in each, the scenario's own metrics (launch timing), then
 * every scene in order of first appearance with the scene metrics, in
 * metric table order.  Each pair that has a value on either side becomes
 * one entry.  The verdict needs the adjusted p-value, which needs every
 * p-value of the run, so entries that reach the statistics are decided in
 * a second pass (decide_all), after stats_p_adjust() has seen them all.
 *
 * Choices the design leaves open, and why:
 *
 *   - The interval is 1 - 2 alpha (96 % at the default 0.02, never below
 *     50 %): its upper end is the one-sided alpha bound that the first
 *     pass rule needs, the same pairing as a two one-sided tests (TOST)
 *     equivalence test.  It uses the whole alpha at every look: a pass
 *     is not a false alarm, and splitting alpha over looks is about those.
 *   - Pass does not require ruling a regression out.  "Every metric is
 *     proven not worse by T" is a claim 600 metrics at 5 iterations almost
 *     never support, and asking for it made 98 % of unchanged nights
 *     inconclusive (the old rule; `make bench`).  Inconclusive is kept for
 *     what more iterations can settle: a shift significant on its own
 *     whose estimate or interval reaches T, where only the correction
 *     stands in the way.  For a caller that looks again (looks > 1, the
 *     gate) that includes a significant shift whose estimate is below T:
 *     a real 1.5 IQR shift fell there at the first look on about 8 % of
 *     nights and passed; now it waits for the next look, at the price of
 *     more unchanged nights with something to measure again (README has
 *     the figures).  A single look (`jankgate compare`) still passes it:
 *     asking for more iterations on 94 % of unchanged runs instead of
 *     78 % would make the answer useless at a desk.
 *   - The last look decides.  More iterations will not come, so an
 *     estimate at T that is not significant passes unless it would be at
 *     the run's whole alpha: then splitting alpha over looks is what
 *     stands in the way, and that is inconclusive (exit 4).
 *   - An interval that cannot reach its level at these sample sizes (3 vs
 *     3 reaches 90 % at best) never passes.
 *   - One-sided tests in two families rather than one two-sided family:
 *     the gate's question is directional ("did it get worse?"), and a
 *     two-sided test would spend half of alpha on improvements, which do
 *     not fail a run.  Each family holds its own error rate at alpha.
 *   - The detectable shift is quoted at the level the correction's first
 *     step tests a lone change at: this look's alpha / tests, one-sided.
 *     It is the statistical limit only; a regression also needs the
 *     threshold, so the smallest regression the run could flag is the
 *     larger of the two.
 *   - A missing metric does not fail a run (exit 0): more iterations would
 *     not bring it back, and the report shows it.  A scenario with fewer
 *     valid current iterations than min_iterations is inconclusive.
 *   - Values that are not finite (a broken source) are dropped from the
 *     sample with a warning, never compared.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_int.h"
#include "config.h"
#include "error.h"
#include "metrics.h"
#include "results.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* ---- options ------------------------------------------------------------ */

void
compare_opts_init(struct compare_opts *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->alpha = cfg ? cfg->alpha : 0.02;
	o->correction = cfg && cfg->correction == CORRECTION_BH ?
	    STATS_ADJUST_BH : STATS_ADJUST_HOLM;
	o->min_iterations = cfg ? cfg->min_iterations : 3;
	o->noise = 1;
	o->look = o->looks = 1;
	o->spending = CMP_SPEND_POCOCK;
	o->cfg = cfg;
}

/* ---- samples ------------------------------------------------------------ */

/* Both NULL, or both the same string. */
static bool
same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

struct sample {
	double *v;
	size_t n, alloc;
	size_t dropped;		/* values that were not finite */
};

static bool
iteration_valid(const struct rs_iteration *it)
{
	return !it->warmup && it->ok;
}

static size_t
valid_iterations(const struct rs_scenario *sc)
{
	size_t n = 0;

	for (size_t i = 0; sc && i < sc->nr_iterations; i++)
		n += iteration_valid(&sc->iterations[i]);
	return n;
}

/* Append the values of `m` in scene `scene` (NULL: the launch) of `sc`. */
static void
gather(struct sample *s, const struct rs_scenario *sc, const char *scene,
    const struct metric_def *m)
{
	for (size_t i = 0; sc && i < sc->nr_iterations; i++) {
		const struct rs_iteration *it = &sc->iterations[i];
		const struct rs_scene *sn;
		double x;
		int rc;

		if (!iteration_valid(it))
			continue;
		if (scene) {
			sn = rs_iteration_find_scene(it, scene);
			if (!sn)
				continue;
			rc = metric_scene_value(m, sn, &x);
		} else {
			rc = metric_iteration_value(m, it, &x);
		}
		if (rc) {
			/* Not measured in this iteration: no value. */
			jg_error_clear();
			continue;
		}
		if (!isfinite(x)) {
			s->dropped++;
			continue;
		}
		XALLOC_GROW(s->v, s->n + 1, s->alloc);
		s->v[s->n++] = x;
	}
}

/*
 * The per-iteration spread behind the noise term of T, the smaller of two
 * estimates that are both the IQR for normal data and each over-read in
 * one case:
 *   - the IQR of the pooled baseline, which also counts what moves whole
 *     runs (a fix or a regression inside the baseline window);
 *   - how much two iterations of the same run differ: sqrt 2 times the
 *     median of |x - y| over every pair of one run's values, pooled over
 *     runs (within 3 % of the IQR for lognormal frame times), which jumps
 *     by whole steps on values that sit on a few integers (p90 in whole
 *     ms, block counts: its median is 0 or 1).
 * run_pairs() collects the pairs of one run, spread_of() the result; NAN
 * when there is neither.
 */
static void
run_pairs(struct sample *pairs, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			XALLOC_GROW(pairs->v, pairs->n + 1, pairs->alloc);
			pairs->v[pairs->n++] = fabs(v[i] - v[j]);
		}
}

static double
spread_of(const struct sample *pairs, const struct stats_summary *base)
{
	double med, iqr = base->n > 1 ? base->iqr : NAN;

	if (!pairs->n || stats_quantile(&med, pairs->v, pairs->n, 0.5))
		return iqr;
	return fmin(iqr, M_SQRT2 * med);
}

/* ---- one entry ---------------------------------------------------------- */

/* What a scenario contributes to every entry in it. */
struct scope {
	const char *scenario;
	const struct rs_scenario *cur;
	const struct rs_scenario *const *base;	/* one per baseline */
	size_t nr_base;
	size_t cur_valid, base_valid;
};

struct run_ctx {
	struct comparison *c;
	const struct compare_opts *o;
	struct cmp_pending *pend;
	size_t nr_pend, alloc_pend;
};

static void
set_reason(struct cmp_entry *e, struct strbuf *sb)
{
	free(e->reason);
	e->reason = strbuf_detach(sb, NULL);
}

static void
set_reasonf(struct cmp_entry *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
set_reasonf(struct cmp_entry *e, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	set_reason(e, &sb);
}

static bool
all_equal(const struct sample *a, const struct sample *b)
{
	double x = a->v[0];

	for (size_t i = 0; i < a->n; i++)
		if (a->v[i] != x)
			return false;
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i] != x)
			return false;
	return true;
}

/*
 * The statistics of an entry with enough values on both sides: summaries
 * are already in; add the test, the shift and the threshold, and queue the
 * entry for decide_all().
 */
static int
run_statistics(struct run_ctx *x, size_t idx, const struct sample *b,
    const struct sample *cu)
{
	struct cmp_entry *e = &x->c->entries[idx];
	struct cmp_pending *p;
	struct stats_mw mw;
	struct stats_shift sh;
	int rc;

	XALLOC_GROW(x->pend, x->nr_pend + 1, x->alloc_pend);
	p = &x->pend[x->nr_pend++];
	p->entry = idx;
	p->level_short = false;
	p->p_worse_raw = p->p_better_raw = p->p_worse = p->p_better = 1;
	p->degenerate = all_equal(b, cu);
	if (p->degenerate) {
		e->shift = e->shift_lo = e->shift_hi = 0;
		e->shift_level = 1;
		return 0;
	}
	rc = stats_mann_whitney(&mw, b->v, b->n, cu->v, cu->n,
	    STATS_MW_AUTO);
	if (!rc)
		rc = stats_hodges_lehmann(&sh, b->v, b->n, cu->v, cu->n,
		    x->c->ci_level, STATS_MW_AUTO);
	if (rc)
		return jg_error_prefix("%s: %s", e->scenario, e->metric);
	p->p_worse_raw = e->higher_is_better ? mw.p_less : mw.p_greater;
	p->p_better_raw = e->higher_is_better ? mw.p_greater : mw.p_less;
	e->shift = sh.estimate;
	e->shift_lo = sh.lo;
	e->shift_hi = sh.hi;
	e->shift_level = sh.level;
	e->tested = true;
	p->level_short = sh.level_short;
	return 0;
}

/*
 * Build the entry for metric `m` in `scene` (NULL: scenario metric) and
 * apply the gates of compare.h step 2.  No entry when neither side has a
 * value.
 */
static int
compare_metric(struct run_ctx *x, const struct scope *sc, const char *scene,
    const struct metric_def *m)
{
	struct comparison *c = x->c;
	struct sample b = { 0 }, cu = { 0 }, pairs = { 0 };
	size_t min = (size_t)x->o->min_iterations, idx;
	struct cmp_entry *e;
	int rc = 0;

	for (size_t i = 0; i < sc->nr_base; i++) {
		size_t from = b.n;

		gather(&b, sc->base[i], scene, m);
		run_pairs(&pairs, b.v + from, b.n - from);
	}
	gather(&cu, sc->cur, scene, m);
	if (b.dropped + cu.dropped)
		strlist_addf(&c->warnings, "%s%s%s: %s: %zu values that are "
		    "not finite numbers were left out", sc->scenario,
		    scene ? "/" : "", scene ? scene : "", m->name,
		    b.dropped + cu.dropped);
	if (!b.n && !cu.n)
		goto out;

	idx = c->nr_entries;
	e = comparison_add_entry(c);
	e->device = c->device ? xstrdup(c->device) : NULL;
	e->scenario = xstrdup(sc->scenario);
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(m->name);
	e->unit = xstrdup(m->unit);
	e->higher_is_better = m->dir == METRIC_HIGHER_IS_BETTER;
	stats_summarize(&e->base, b.v, b.n);
	stats_summarize(&e->cur, cu.v, cu.n);
	if (x->o->cfg)
		config_threshold_for(x->o->cfg, scene, m, &e->rel_threshold,
		    &e->abs_threshold);
	else {
		e->rel_threshold = m->rel_threshold;
		e->abs_threshold = m->abs_threshold;
	}
	e->noise_threshold = x->o->noise;
	e->spread = spread_of(&pairs, &e->base);
	if (b.n)
		e->threshold = fmax(fmax(e->abs_threshold,
		    e->rel_threshold * fabs(e->base.median)),
		    isnan(e->spread) ? 0 : e->noise_threshold * e->spread);

	if (!b.n) {
		e->verdict = CMP_NEW;
		set_reasonf(e, "no baseline values yet");
	} else if (!sc->cur) {
		e->verdict = CMP_MISSING;
		set_reasonf(e, "scenario '%s' is not in the current run",
		    sc->scenario);
	} else if (sc->cur_valid < min) {
		e->verdict = CMP_INCONCLUSIVE;
		set_reasonf(e, "%zu valid current iterations of '%s', fewer "
		    "than min_iterations (%zu)", sc->cur_valid, sc->scenario,
		    min);
	} else if (!cu.n) {
		e->verdict = CMP_MISSING;
		set_reasonf(e, "no value in the current run");
	} else if (cu.n < min || b.n < min) {
		e->verdict = CMP_INCONCLUSIVE;
		set_reasonf(e, "%zu current and %zu baseline values, fewer "
		    "than min_iterations (%zu) on one side", cu.n, b.n, min);
	} else {
		rc = run_statistics(x, idx, &b, &cu);
	}
out:
	free(b.v);
	free(cu.v);
	free(pairs.v);
	return rc;
}

/*
 * The detectable shift depends on the samples only through n_base, n_cur
 * and the pooled sigma, and linearly on sigma, so it is computed once per
 * pair of sizes in sigma units.
 */
struct mde_cache {
	size_t nb, nc;
	double delta;		/* in sigmas; INFINITY: undetectable */
};

static double
mde_delta(struct mde_cache **cache, size_t *nr, size_t nb, size_t nc,
    double alpha)
{
	struct stats_mde mde;

	for (size_t i = 0; i < *nr; i++)
		if ((*cache)[i].nb == nb && (*cache)[i].nc == nc)
			return (*cache)[i].delta;
	if (stats_min_detectable_shift(&mde, nb, nc, alpha, CMP_POWER, 1))
		mde.shift = NAN;
	else if (!mde.detectable)
		mde.shift = INFINITY;
	*cache = xreallocarray(*cache, *nr + 1, sizeof(**cache));
	(*cache)[*nr].nb = nb;
	(*cache)[*nr].nc = nc;
	(*cache)[*nr].delta = mde.shift;
	(*nr)++;
	return mde.shift;
}

/*
 * Adjust the one-sided p-values of every tested entry, each direction as
 * its own family, then decide every pending entry.
 */
static int
decide_all(struct run_ctx *x)
{
	struct comparison *c = x->c;
	struct mde_cache *cache = NULL;
	size_t nr_cache = 0, nt = 0;
	double *pw = xcalloc(x->nr_pend + 1, sizeof(*pw));
	double *pb = xcalloc(x->nr_pend + 1, sizeof(*pb));
	struct cmp_rules r = { c->alpha_look, c->alpha, c->correction,
		x->o->last, x->o->looks > 1 };
	double alpha_one;
	int rc;

	for (size_t i = 0; i < x->nr_pend; i++) {
		if (x->pend[i].degenerate)
			continue;
		pw[nt] = x->pend[i].p_worse_raw;
		pb[nt++] = x->pend[i].p_better_raw;
	}
	rc = stats_p_adjust(pw, pw, nt, c->correction);
	if (!rc)
		rc = stats_p_adjust(pb, pb, nt, c->correction);
	if (rc)
		goto out;
	c->tests = nt;
	alpha_one = c->alpha_look / (double)(nt ? nt : 1);
	nt = 0;
	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *pd = &x->pend[i];
		struct cmp_entry *e = &c->entries[pd->entry];
		double sigma = stats_pooled_sigma(&e->base, &e->cur);
		double delta;

		if (!pd->degenerate) {
			pd->p_worse = pw[nt];
			pd->p_better = pb[nt++];
		}
		cmp_decide(e, pd, &r);
		delta = mde_delta(&cache, &nr_cache, e->base.n, e->cur.n,
		    alpha_one);
		if (isinf(delta))
			e->detectable = INFINITY;
		else if (!isnan(sigma))
			e->detectable = delta * sigma;
	}
out:
	free(cache);
	free(pw);
	free(pb);
	return rc;
}

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

static int
compare_scenario(struct run_ctx *x, struct scope *sc)
{
	struct comparison *c = x->c;
	struct strlist scenes = STRLIST_INIT;
	struct cmp_scenario *s = comparison_add_scenario(c);
	size_t runs = 0, measured = 0;
	int rc = 0;

	sc->cur_valid = valid_iterations(sc->cur);
	sc->base_valid = 0;
	for (size_t i = 0; i < sc->nr_base; i++) {
		sc->base_valid += valid_iterations(sc->base[i]);
		runs += sc->base[i] != NULL;
		if (sc->cur && sc->base[i] &&
		    !same_str(sc->cur->sha256, sc->base[i]->sha256))
			s->changed = true;
	}
	for (size_t i = 0; sc->cur && i < sc->cur->nr_iterations; i++)
		measured += !sc->cur->iterations[i].warmup;
	s->name = xstrdup(sc->scenario);
	s->cur_iterations = (double)measured;
	s->cur_valid = (double)sc->cur_valid;
	s->base_runs = (double)runs;
	s->base_valid = (double)sc->base_valid;
	if (!sc->cur)
		s->verdict = CMP_MISSING;
	else if (sc->cur_valid < (size_t)x->o->min_iterations)
		s->verdict = CMP_INCONCLUSIVE;
	else
		s->verdict = runs ? CMP_PASS : CMP_NEW;
	if (s->changed)
		strlist_addf(&c->warnings, "scenario '%s' changed since the "
		    "baseline (its sha256 differs)", sc->scenario);

	add_scene_names(&scenes, sc->cur);
	for (size_t i = 0; i < sc->nr_base; i++)
		add_scene_names(&scenes, sc->base[i]);
	for (size_t k = 0; k < metric_count() && !rc; k++)
		if (metric_at(k)->scope == METRIC_SCENARIO)
			rc = compare_metric(x, sc, NULL, metric_at(k));
	for (size_t j = 0; j < scenes.nr && !rc; j++)
		for (size_t k = 0; k < metric_count() && !rc; k++)
			if (metric_at(k)->scope == METRIC_SCENE)
				rc = compare_metric(x, sc, scenes.items[j],
				    metric_at(k));
	if (!rc)
		compare_blocks(c, sc->scenario, sc->cur, sc->base, sc->nr_base,
		    x->o);
	strlist_release(&scenes);
	return rc;
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
	return 0;
}

/* The union of scenario names, current order first. */
static void
scenario_names(struct strlist *names, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base)
{
	const struct results *r = cur->results;

	for (size_t i = 0; i <= nr_base; i++) {
		if (i)
			r = base[i - 1].results;
		for (size_t j = 0; j < r->nr_scenarios; j++)
			if (r->scenarios[j].name &&
			    strlist_find(names, r->scenarios[j].name) < 0)
				strlist_add(names, r->scenarios[j].name);
	}
}

int
compare_run(struct comparison **out, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base,
    const struct compare_opts *o)
{
	struct strlist reasons = STRLIST_INIT, names = STRLIST_INIT;
	const struct rs_scenario **bsc = NULL;
	struct run_ctx x = { NULL, o, NULL, 0, 0 };
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
	c = x.c = comparison_new();
	strlist_release(&c->mismatches);
	c->mismatches = reasons;
	c->device = cur->results->device.key ?
	    xstrdup(cur->results->device.key) : NULL;
	c->package = cur->results->app.package ?
	    xstrdup(cur->results->app.package) : NULL;
	run_info(&c->current, cur);
	for (size_t i = 0; i < nr_base; i++)
		run_info(comparison_add_baseline(c), &base[i]);
	c->alpha = o->alpha;
	c->correction = o->correction;
	c->ci_level = fmax(1 - 2 * o->alpha, 0.5);
	c->min_iterations = o->min_iterations;
	c->noise = o->noise;
	c->look = o->look;
	c->looks = o->looks;
	c->spending = o->spending;
	c->last = o->last;
	c->alpha_look = compare_look_alpha(o->alpha, o->look, o->looks,
	    o->spending);

	scenario_names(&names, cur, base, nr_base);
	bsc = xcalloc(nr_base + 1, sizeof(*bsc));
	rc = 0;
	for (size_t i = 0; i < names.nr && !rc; i++) {
		struct scope sc = { names.items[i], NULL, bsc, nr_base, 0, 0 };

		sc.cur = results_find_scenario(cur->results, names.items[i]);
		for (size_t j = 0; j < nr_base; j++)
			bsc[j] = results_find_scenario(base[j].results,
			    names.items[i]);
		rc = compare_scenario(&x, &sc);
	}
	if (!rc)
		rc = decide_all(&x);
	if (!rc)
		keep_regressions(c, o->prior);
	free(bsc);
	free(x.pend);
	strlist_release(&names);
	if (rc) {
		comparison_free(c);
		return rc;
	}
	*out = c;
	return 0;
}
