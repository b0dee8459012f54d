/*
 * compare_blocks.c: main-thread blocks compared by signature.
 *
 * A block's signature is a stable hash of its top application frames
 * (signature.h), so the same cause has the same signature in every run.  For
 * each scenario, per scene and for the blocks outside every scene, each
 * signature gets one record: how often it occurred per valid iteration on
 * each side, and the median wall time of its occurrences.  Then:
 *
 *   new        occurs now, never in the baseline
 *   resolved   occurred in the baseline, not now
 *   worse      occurs on both sides, and more often: the rate per iteration
 *              rose by at least the `blocks` threshold of the scene
 *              (default: by 1 per iteration and by 25 %), or longer: the
 *              median wall time rose by at least the `block_ms` threshold
 *              (default: 100 ms and 20 %)
 *   unchanged  anything else
 *
 * Each side also counts the janky frames its occurrences overlapped
 * (compare_overlap.c), so a report can say what a stall cost.
 *
 * These records explain the `blocks` and `block_ms` metrics, which carry
 * the statistics for blocks the baseline knows.  A new signature is
 * different: BlockCanary's users treat a new stall as a defect, and a
 * count of all of a scene's blocks dilutes one new cause among the old
 * ones.  So a new signature whose occurrences last at least the scene's
 * absolute block_ms threshold (100 ms by default) is tested on its
 * carriers, the iterations it occurred in: k of the n current ones
 * against none of the m baseline ones, by new_block_p() (exact and
 * unconditional; docs/method.md, step 7).  New means that no baseline
 * iteration carries it anywhere (cmp_mark_known_blocks()).  At p <=
 * alpha_look over the family (the signatures tested, and those the
 * baseline could as well have missed: could_have_been_missed()) it is a
 * regression of its scene; before the last of several looks,
 * inconclusive while it could still reach the last look's level or the
 * suspect level (projected_p()), so the gate measures the scenario again
 * (cmp_decide_blocks()); a pass at p <= suspect_fdr times the
 * comparison's share over the family is a suspect (step 8), as a passing
 * entry by its BH q.  Blocks without a signature are not grouped here
 * (they still count in the metrics), and a scope with no valid current
 * iteration is skipped, since nothing can be said to have gone away from
 * a run that did not happen.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_int.h"
#include "config.h"
#include "metrics.h"
#include "results.h"
#include "signature.h"
#include "stats.h"
#include "xalloc.h"
#include "banned.h"

/*
 * How optimistic "measure again" is about a new signature's rate (one
 * side of a Wilson interval: 1.28, 90 %): see projected_p().
 */
#define CMP_BLOCK_PROJECT_Z 1.28

/* Frames of the example stack kept for the report. */
#define STACK_KEEP 12

enum { SIDE_BASE, SIDE_CUR };

struct sig_acc {
	const char *signature;
	const struct rs_block *example;	/* the first seen, current first */
	double count[2];
	double carriers[2];	/* iterations it occurred in */
	double stamp[2];	/* the last such, as set->iterations */
	double *wall[2];
	size_t nr_wall[2], alloc_wall[2];
	double janky[2], seen[2];	/* compare_overlap.c */
};

struct block_scope {
	const char *scene;		/* NULL: outside every scene */
	struct sig_acc *sigs;
	size_t nr, alloc;
};

struct block_set {
	struct block_scope *scopes;
	size_t nr, alloc;
	double iterations[2];
};

static struct block_scope *
scope_for(struct block_set *set, const char *scene)
{
	struct block_scope *s;

	for (size_t i = 0; i < set->nr; i++) {
		s = &set->scopes[i];
		if (s->scene == scene || (s->scene && scene &&
		    !strcmp(s->scene, scene)))
			return s;
	}
	XALLOC_GROW(set->scopes, set->nr + 1, set->alloc);
	s = &set->scopes[set->nr++];
	memset(s, 0, sizeof(*s));
	s->scene = scene;
	return s;
}

static void
add_block(struct block_set *set, const struct rs_scene *sn, int side,
    const struct rs_block *blk)
{
	const char *scene = sn ? sn->name : NULL;
	int janky;
	struct block_scope *s;
	struct sig_acc *a = NULL;

	if (!blk->signature)
		return;
	s = scope_for(set, scene);
	for (size_t i = 0; i < s->nr && !a; i++)
		if (!strcmp(s->sigs[i].signature, blk->signature))
			a = &s->sigs[i];
	if (!a) {
		XALLOC_GROW(s->sigs, s->nr + 1, s->alloc);
		a = &s->sigs[s->nr++];
		memset(a, 0, sizeof(*a));
		a->signature = blk->signature;
		a->example = blk;
	}
	a->count[side]++;
	if (a->stamp[side] != set->iterations[side]) {
		a->stamp[side] = set->iterations[side];
		a->carriers[side]++;
	}
	if ((janky = cmp_block_janky_frames(sn, blk)) >= 0) {
		a->janky[side] += janky;
		a->seen[side]++;
	}
	if (isfinite(blk->wall_ms)) {
		XALLOC_GROW(a->wall[side], a->nr_wall[side] + 1,
		    a->alloc_wall[side]);
		a->wall[side][a->nr_wall[side]++] = blk->wall_ms;
	}
}

static void
collect(struct block_set *set, const struct rs_scenario *sc, int side)
{
	for (size_t i = 0; sc && i < sc->nr_iterations; i++) {
		const struct rs_iteration *it = &sc->iterations[i];

		if (it->warmup || !it->ok)
			continue;
		set->iterations[side]++;
		for (size_t j = 0; j < it->nr_scenes; j++)
			for (size_t k = 0; k < it->scenes[j].nr_blocks; k++)
				add_block(set, &it->scenes[j], side,
				    &it->scenes[j].blocks[k]);
		for (size_t k = 0; k < it->nr_blocks; k++)
			add_block(set, NULL, side, &it->blocks[k]);
	}
}

static void
fill_side(struct cmp_block_side *out, const struct sig_acc *a, int side,
    double iterations)
{
	out->iterations = iterations;
	out->carriers = a->carriers[side];
	out->count = a->count[side];
	out->per_iteration = iterations > 0 ? a->count[side] / iterations :
	    NAN;
	if (!a->nr_wall[side] || stats_quantile(&out->wall_ms, a->wall[side],
	    a->nr_wall[side], 0.5))
		out->wall_ms = NAN;
	out->frames_seen = a->seen[side];
	out->janky_frames = a->seen[side] > 0 ? a->janky[side] : NAN;
}

/* The threshold rule of metrics.h: a rise counts when it reaches both. */
static bool
rose(double base, double cur, const struct compare_opts *o,
    const char *scene, const char *metric)
{
	const struct metric_def *m = metric_find(metric);
	double rel = m->rel_threshold, abs_ = m->abs_threshold;

	if (isnan(base) || isnan(cur))
		return false;
	if (o->cfg)
		config_threshold_for(o->cfg, scene, m, &rel, &abs_);
	return cur - base >= fmax(abs_, rel * fabs(base)) && cur > base;
}

static enum cmp_block_status
block_status(const struct cmp_block *b, const struct compare_opts *o)
{
	if (b->base.count == 0)
		return CMP_BLOCK_NEW;
	if (b->cur.count == 0)
		return CMP_BLOCK_RESOLVED;
	if (rose(b->base.per_iteration, b->cur.per_iteration, o, b->scene,
	    "blocks") || rose(b->base.wall_ms, b->cur.wall_ms, o, b->scene,
	    "block_ms"))
		return CMP_BLOCK_WORSE;
	return CMP_BLOCK_UNCHANGED;
}

static void
emit(struct comparison *c, const char *scenario, const struct block_set *set,
    const struct compare_opts *o)
{
	for (size_t i = 0; i < set->nr; i++) {
		const struct block_scope *s = &set->scopes[i];

		for (size_t j = 0; j < s->nr; j++) {
			const struct sig_acc *a = &s->sigs[j];
			struct cmp_block *b = comparison_add_block(c);
			const struct strlist *st = &a->example->stack;
			long app = signature_app_frame(st);

			b->device = c->device ? xstrdup(c->device) : NULL;
			b->scenario = xstrdup(scenario);
			b->scene = s->scene ? xstrdup(s->scene) : NULL;
			b->signature = xstrdup(a->signature);
			fill_side(&b->base, a, SIDE_BASE,
			    set->iterations[SIDE_BASE]);
			fill_side(&b->cur, a, SIDE_CUR,
			    set->iterations[SIDE_CUR]);
			/* Down to the app frame a report names it by. */
			for (size_t k = 0; k < st->nr && (k < STACK_KEEP ||
			    (long)k <= app); k++)
				strlist_add(&b->stack, st->items[k]);
			b->status = block_status(b, o);
		}
	}
}

void
compare_blocks(struct comparison *c, const char *scenario,
    const struct rs_scenario *cur, const struct rs_scenario *const *base,
    size_t nr_base, const struct compare_opts *o)
{
	struct block_set set = { NULL, 0, 0, { 0, 0 } };

	/* The current run first, so its scenes and examples lead. */
	collect(&set, cur, SIDE_CUR);
	for (size_t i = 0; i < nr_base; i++)
		collect(&set, base[i], SIDE_BASE);
	if (set.iterations[SIDE_CUR] > 0)
		emit(c, scenario, &set, o);
	for (size_t i = 0; i < set.nr; i++) {
		struct block_scope *s = &set.scopes[i];

		for (size_t j = 0; j < s->nr; j++) {
			free(s->sigs[j].wall[0]);
			free(s->sigs[j].wall[1]);
		}
		free(s->sigs);
	}
	free(set.scopes);
}

/*
 * The p-value of k carriers among n current iterations when none of the
 * m baseline iterations carries the signature: the largest chance, over
 * every rate q the signature could occur at on both sides alike, that
 * the baseline shows none and the current run k or more,
 *
 *	p = max over q of (1 - q)^m P(Binomial(n, q) >= k).
 *
 * Exact and unconditional (it does not condition on the total of
 * carriers as Fisher's test does, which holds a rare signature to C(n, k)
 * / C(n + m, k), about four times as much at 10 of 20 against 15): the
 * event "none in the baseline, k or more now" has at most that chance
 * under any common rate.  The maximum is found on a grid of rates and
 * refined around the best point.
 */
static double
new_block_p(double k, double n, double m)
{
	double best = 0, at = 0;

	if (k <= 0 || n <= 0)
		return 1;
	/* 1/200 steps, then 1/4000 around the best of them. */
	for (int pass = 0; pass < 2; pass++) {
		double from = pass ? at - 0.005 : 0, step = pass ? 0.00025 :
		    0.005;

		for (int i = 1; i <= (pass ? 40 : 199); i++) {
			double q = from + i * step, v;

			if (q <= 0 || q >= 1)
				continue;
			v = exp(m * log1p(-q)) *
			    cmp_binom_upper((long)k, (long)n, q);
			if (v > best) {
				best = v;
				at = q;
			}
		}
	}
	return fmin(best, 1);
}

/* The scene's absolute block_ms threshold. */
static double
block_ms_abs(const struct cmp_block *b, const struct compare_opts *o)
{
	const struct metric_def *m = metric_find("block_ms");
	double rel = m->rel_threshold, abs_ = m->abs_threshold;

	if (o->cfg)
		config_threshold_for(o->cfg, b->scene, m, &rel, &abs_);
	return abs_;
}

/* A new signature's occurrences last the scene's block_ms threshold. */
static bool
practical(const struct cmp_block *b, const struct compare_opts *o)
{
	return isfinite(b->cur.wall_ms) && b->cur.wall_ms >= block_ms_abs(b, o);
}

/*
 * Measure again?  The p-value the signature would have at the gate's last
 * look if it occurred at the high end of the rates tonight's carriers
 * allow (the Wilson bound at CMP_BLOCK_PROJECT_Z: 1 carrier of 5 allows
 * a signature in half the iterations, which the gate must not give up
 * on): the current iterations grow to looks / look times what they are
 * (each look adds a batch of the same size).  A signature that could not
 * reach the last look's level even so, nor the suspect level (a suspect
 * goes to the gate's A/B), is not worth the device time; one that could
 * is inconclusive until then (docs/method.md, step 7).
 */
static double
projected_p(const struct cmp_block *b, const struct compare_opts *o)
{
	const double z = CMP_BLOCK_PROJECT_Z;
	double n = b->cur.iterations, k = b->cur.carriers, q, hi, nn;

	if (!(n > 0))
		return 1;
	q = k / n;
	hi = (q + z * z / (2 * n) + z * sqrt(q * (1 - q) / n +
	    z * z / (4 * n * n))) / (1 + z * z / n);
	nn = round(n * (double)o->looks / (double)(o->look > 0 ?
	    o->look : 1));
	return new_block_p(fmax(k, round(fmin(hi, 1) * nn)), nn,
	    b->base.iterations);
}

static void
add_known(struct strlist *known, const struct rs_block *blk, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (blk[k].signature &&
		    strlist_find(known, blk[k].signature) < 0)
			strlist_add(known, blk[k].signature);
}

/*
 * A signature is new when no baseline iteration carries it anywhere: one
 * the baseline saw in another scene or scenario is a known cause met in
 * a new place, which the scene's `blocks` and `block_ms` metrics judge
 * (docs/method.md, step 7).  Read from the whole of each baseline run, not
 * only the scenarios compared, so that every look of a gate draws the same
 * line.
 */
void
cmp_mark_known_blocks(struct comparison *c, const struct compare_input *base,
    size_t nr_base)
{
	struct strlist known = STRLIST_INIT;

	for (size_t r = 0; r < nr_base; r++) {
		const struct results *res = base[r].results;

		for (size_t i = 0; res && i < res->nr_scenarios; i++) {
			const struct rs_scenario *sc = &res->scenarios[i];

			for (size_t j = 0; j < sc->nr_iterations; j++) {
				const struct rs_iteration *it =
				    &sc->iterations[j];

				if (it->warmup || !it->ok)
					continue;
				for (size_t s = 0; s < it->nr_scenes; s++)
					add_known(&known, it->scenes[s].blocks,
					    it->scenes[s].nr_blocks);
				add_known(&known, it->blocks, it->nr_blocks);
			}
		}
	}
	for (size_t i = 0; i < c->nr_blocks; i++) {
		struct cmp_block *b = &c->blocks[i];

		b->elsewhere = b->status == CMP_BLOCK_NEW &&
		    strlist_find(&known, b->signature) >= 0;
	}
	strlist_release(&known);
}

/* The block of `prior` with the scope and signature of `b`, or NULL. */
static const struct cmp_block *
prior_block(const struct comparison *prior, const struct cmp_block *b)
{
	for (size_t i = 0; prior && i < prior->nr_blocks; i++) {
		const struct cmp_block *p = &prior->blocks[i];

		if (!strcmp(p->scenario, b->scenario) &&
		    !strcmp(p->signature, b->signature) &&
		    (p->scene == b->scene || (p->scene && b->scene &&
		    !strcmp(p->scene, b->scene))))
			return p;
	}
	return NULL;
}

/*
 * Whether the baseline could as well have missed `b`'s signature: the
 * chance it shows in none of the baseline iterations of each scope it was
 * seen in, at the rate it was seen at there ((1 - c/m)^m per scope), is
 * at least `level`.  Such a signature was as much at risk of reading as
 * new tonight as the ones tested, and counts in the test's family
 * (docs/method.md, step 7).  Each signature is counted at its first
 * block: returns false for the others.
 */
static bool
could_have_been_missed(const struct comparison *c, size_t at,
    const struct compare_opts *o, double level)
{
	const struct cmp_block *b = &c->blocks[at];
	double none = 1;
	bool big = false;

	for (size_t i = 0; i < c->nr_blocks; i++) {
		const struct cmp_block *s = &c->blocks[i];
		double m = s->base.iterations, k = s->base.carriers;

		if (strcmp(s->signature, b->signature) || !(k > 0) ||
		    !(m >= k))
			continue;
		if (i < at)
			return false;
		none *= exp(m * log1p(-fmin(k / m, 1 - 1e-9)));
		big |= isfinite(s->base.wall_ms) &&
		    s->base.wall_ms >= block_ms_abs(s, o);
	}
	return big && none >= level;
}

void
cmp_decide_blocks(struct comparison *c, const struct compare_opts *o)
{
	size_t tested = 0, family;
	double level, last, suspect, aim;

	for (size_t i = 0; i < c->nr_blocks; i++) {
		struct cmp_block *b = &c->blocks[i];

		b->verdict = CMP_PASS;
		b->p_value = NAN;
		if (b->status != CMP_BLOCK_NEW || b->elsewhere ||
		    !(b->base.iterations >= 1) ||
		    !(b->cur.iterations >= 1) || !practical(b, o))
			continue;
		b->p_value = new_block_p(b->cur.carriers,
		    b->cur.iterations, b->base.iterations);
		tested++;
	}
	family = tested;
	for (size_t i = 0; tested && i < c->nr_blocks; i++)
		family += could_have_been_missed(c, i, o, c->alpha_look);
	level = tested ? c->alpha_look / (double)family : 0;
	last = tested ? compare_look_alpha(o->alpha * o->share, o->looks,
	    o->looks, o->spending) / (double)family : 0;
	/* Or step 8's suspect level: a suspect goes to the A/B (step 7). */
	suspect = o->suspect_fdr * c->share / (double)(family ? family : 1);
	aim = fmax(last, suspect);
	for (size_t i = 0; i < c->nr_blocks; i++) {
		struct cmp_block *b = &c->blocks[i];
		const struct cmp_block *p = prior_block(o->prior, b);

		if (p && p->verdict == CMP_REGRESSION) {
			/* An earlier look's finding stands (docs/method.md, step 7). */
			b->verdict = CMP_REGRESSION;
			b->p_value = p->p_value;
			b->look = p->look;
			continue;
		}
		if (!isfinite(b->p_value))
			continue;
		if (b->p_value <= level)
			b->verdict = CMP_REGRESSION;
		else if (o->looks > 1 && !o->last &&
		    projected_p(b, o) <= aim)
			b->verdict = CMP_INCONCLUSIVE;
		/* Step 8: a pass that leans worse, as the entries' BH. */
		b->suspect = b->verdict == CMP_PASS && o->suspect_fdr > 0 &&
		    b->p_value <= suspect;
	}
}
