/*
 * compare_methods.c: method costs compared by name (issue 20).
 *
 * Two sources measure methods: MethodTraceMan gives each traced method's
 * cost per scene (rs_scene.methods), and Matrix reports an "evil method"
 * (a Looper message over its threshold) as a block whose stack starts
 * with the method.  Both become one record per (scene, source, method):
 * a MethodTraceMan method by its name, a Matrix evil method by the
 * application frame its signature starts with (signature.h), cost = the
 * block's wall time.  Per side, over the valid iterations: the calls, the
 * calls per iteration and the median cost of a call.  Then, the rules of
 * compare_blocks.c:
 *
 *   new        measured now, never in the baseline
 *   resolved   measured in the baseline, not now
 *   worse      on both sides, and called more often: the calls per
 *              iteration rose by the scene's `blocks` threshold (default
 *              1 and 25 %), or slower: the median cost rose by the
 *              `block_ms` relative threshold (default 20 %) and by at
 *              least METHOD_MS_ABS (5 ms; block_ms's 100 ms floor is
 *              made for whole messages, a method is part of one)
 *   unchanged  anything else, and not written: MethodTraceMan traces
 *              hundreds of methods, and the report wants what moved
 *
 * Like blocks, these records explain; they never change a verdict.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "config.h"
#include "metrics.h"
#include "results.h"
#include "signature.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* The smallest rise of a method's median cost that counts, in ms. */
#define METHOD_MS_ABS 5.0

enum { SIDE_BASE, SIDE_CUR };

struct meth_acc {
	const char *scene;	/* borrowed from the results */
	const char *source;
	char *name;
	double count[2];
	double *cost[2];
	size_t nr_cost[2], alloc_cost[2];
};

struct meth_set {
	struct meth_acc *v;
	size_t nr, alloc;
	double iterations[2];
};

static bool
same(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static void
add(struct meth_set *set, const char *scene, const char *source,
    const char *name, size_t len, double cost, int side)
{
	struct meth_acc *a = NULL;

	for (size_t i = 0; i < set->nr && !a; i++)
		if (same(set->v[i].scene, scene) &&
		    same(set->v[i].source, source) &&
		    strlen(set->v[i].name) == len &&
		    !memcmp(set->v[i].name, name, len))
			a = &set->v[i];
	if (!a) {
		XALLOC_GROW(set->v, set->nr + 1, set->alloc);
		a = &set->v[set->nr++];
		memset(a, 0, sizeof(*a));
		a->scene = scene;
		a->source = source;
		a->name = xstrndup(name, len);
	}
	a->count[side]++;
	if (isfinite(cost)) {
		XALLOC_GROW(a->cost[side], a->nr_cost[side] + 1,
		    a->alloc_cost[side]);
		a->cost[side][a->nr_cost[side]++] = cost;
	}
}

static void
add_methods(struct meth_set *set, const char *scene,
    const struct rs_method *m, size_t nr, int side)
{
	for (size_t i = 0; i < nr; i++)
		if (m[i].name && *m[i].name)
			add(set, scene, m[i].source ? m[i].source : "?",
			    m[i].name, strlen(m[i].name), m[i].cost_ms, side);
}

/* Matrix's evil methods: its blocks with a cost, by their app frame. */
static void
add_evil(struct meth_set *set, const char *scene, const struct rs_block *b,
    size_t nr, int side)
{
	for (size_t i = 0; i < nr; i++) {
		long at;
		size_t len;
		const char *name;

		if (!b[i].source || strcmp(b[i].source, "matrix") ||
		    !isfinite(b[i].wall_ms))
			continue;
		at = signature_app_frame(&b[i].stack);
		if (at < 0)
			continue;
		name = signature_frame_name(b[i].stack.items[at], &len);
		add(set, scene, "matrix", name, len, b[i].wall_ms, side);
	}
}

static void
collect(struct meth_set *set, const struct rs_scenario *sc, int side)
{
	for (size_t i = 0; sc && i < sc->nr_iterations; i++) {
		const struct rs_iteration *it = &sc->iterations[i];

		if (it->warmup || !it->ok)
			continue;
		set->iterations[side]++;
		for (size_t j = 0; j < it->nr_scenes; j++) {
			const struct rs_scene *sn = &it->scenes[j];

			add_methods(set, sn->name, sn->methods, sn->nr_methods,
			    side);
			add_evil(set, sn->name, sn->blocks, sn->nr_blocks,
			    side);
		}
		add_methods(set, NULL, it->methods, it->nr_methods, side);
		add_evil(set, NULL, it->blocks, it->nr_blocks, side);
	}
}

static void
fill_side(struct cmp_block_side *out, const struct meth_acc *a, int side,
    double iterations)
{
	out->iterations = iterations;
	out->count = a->count[side];
	out->per_iteration = iterations > 0 ? a->count[side] / iterations :
	    NAN;
	if (!a->nr_cost[side] || stats_quantile(&out->wall_ms, a->cost[side],
	    a->nr_cost[side], 0.5))
		out->wall_ms = NAN;
}

static enum cmp_block_status
status_of(const struct cmp_method *m, const struct compare_opts *o)
{
	const struct metric_def *blocks = metric_find("blocks");
	const struct metric_def *block_ms = metric_find("block_ms");
	double rel = blocks->rel_threshold, abs_ = blocks->abs_threshold;
	double rel_ms = block_ms->rel_threshold, abs_ms = 0;
	double b, c;

	if (m->base.count == 0)
		return CMP_BLOCK_NEW;
	if (m->cur.count == 0)
		return CMP_BLOCK_RESOLVED;
	if (o && o->cfg) {
		config_threshold_for(o->cfg, m->scene, blocks, &rel, &abs_);
		config_threshold_for(o->cfg, m->scene, block_ms, &rel_ms,
		    &abs_ms);
	}
	b = m->base.per_iteration;
	c = m->cur.per_iteration;
	if (c > b && c - b >= fmax(abs_, rel * fabs(b)))
		return CMP_BLOCK_WORSE;
	b = m->base.wall_ms;
	c = m->cur.wall_ms;
	if (isfinite(b) && isfinite(c) && c > b &&
	    c - b >= fmax(METHOD_MS_ABS, rel_ms * fabs(b)))
		return CMP_BLOCK_WORSE;
	return CMP_BLOCK_UNCHANGED;
}

void
compare_methods(struct comparison *c, const char *scenario,
    const struct rs_scenario *cur, const struct rs_scenario *const *base,
    size_t nr_base, const struct compare_opts *o)
{
	struct meth_set set = { NULL, 0, 0, { 0, 0 } };

	collect(&set, cur, SIDE_CUR);
	for (size_t i = 0; i < nr_base; i++)
		collect(&set, base[i], SIDE_BASE);
	for (size_t i = 0; set.iterations[SIDE_CUR] > 0 && i < set.nr; i++) {
		const struct meth_acc *a = &set.v[i];
		struct cmp_method m;

		memset(&m, 0, sizeof(m));
		m.base.janky_frames = m.base.frames_seen = NAN;
		m.cur.janky_frames = m.cur.frames_seen = NAN;
		fill_side(&m.base, a, SIDE_BASE, set.iterations[SIDE_BASE]);
		fill_side(&m.cur, a, SIDE_CUR, set.iterations[SIDE_CUR]);
		m.scene = (char *)a->scene;
		m.status = status_of(&m, o);
		if (m.status == CMP_BLOCK_UNCHANGED)
			continue;
		{
			struct cmp_method *out = comparison_add_method(c);

			*out = m;
			out->device = c->device ? xstrdup(c->device) : NULL;
			out->scenario = xstrdup(scenario);
			out->scene = a->scene ? xstrdup(a->scene) : NULL;
			out->name = xstrdup(a->name);
			out->source = xstrdup(a->source);
		}
	}
	for (size_t i = 0; i < set.nr; i++) {
		free(set.v[i].name);
		free(set.v[i].cost[0]);
		free(set.v[i].cost[1]);
	}
	free(set.v);
}
