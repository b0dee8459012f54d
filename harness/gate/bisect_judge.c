/*
 * bisect_judge.c: what one bisect step's A/B says of its candidate, on
 * the targets alone (bisect.h).
 *
 * A target is "SCENARIO/SCENE METRIC": METRIC a metrics.h name, "block"
 * for a block signature that regressed in the scene, or "*" for anything
 * of the scene; SCENE "-" for a scenario's launch metrics.  No targets:
 * every entry and block.  Device keys are not part of a target: the
 * phones of the bisect need not be the night's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "comparison.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/*
 * A pass leans worse when its estimate is worse by its threshold and its
 * one-sided p (before the correction) is at most this: the "lean" of
 * docs/method.md, step 6.
 */
#define BISECT_LEAN_P 0.1

/* Does `t` ("scn/scene metric") name (scenario, scene, metric)? */
static bool
target_is(const char *t, const char *scenario, const char *scene,
    const char *metric)
{
	size_t ls = strlen(scenario), lc = scene ? strlen(scene) : 1;
	const char *p = t;

	if (strncmp(p, scenario, ls) || p[ls] != '/')
		return false;
	p += ls + 1;
	if (strncmp(p, scene ? scene : "-", lc) || p[lc] != ' ')
		return false;
	p += lc + 1;
	return !strcmp(p, "*") || !strcmp(p, metric);
}

static bool
targeted(const struct strlist *targets, const char *scenario,
    const char *scene, const char *metric)
{
	if (!targets || !targets->nr)
		return true;
	for (size_t i = 0; i < targets->nr; i++)
		if (target_is(targets->items[i], scenario, scene, metric))
			return true;
	return false;
}

/*
 * Undecided for a bisect: inconclusive or missing, a suspect, or a pass
 * that leans worse (its estimate worse by its threshold, p at most
 * BISECT_LEAN_P).  The A/B calls such an entry a pass when it is not
 * significant at its look; a bisect that took it for "good" would search
 * above the culprit for good.  Another round is cheaper than a wrong
 * culprit, and one still leaning after the last round leaves its
 * candidate untestable: an "undecided" said plainly, not a wrong name
 * (the bench's bisect row: taking the last round's leaning passes for
 * good trades undecided bisects for wrong answers, one for one).
 */
static bool
open_entry(const struct cmp_entry *e)
{
	double worse = e->higher_is_better ? -e->shift : e->shift;

	if (e->verdict == CMP_INCONCLUSIVE || e->verdict == CMP_MISSING)
		return true;
	return e->verdict == CMP_PASS && (e->suspect || (isfinite(worse) &&
	    isfinite(e->threshold) && e->threshold > 0 &&
	    worse >= e->threshold && e->p_value <= BISECT_LEAN_P));
}

bool
bisect_targeted(const char *scenario, const char *scene, void *targets)
{
	const struct strlist *t = targets;
	size_t ls = strlen(scenario), lc = scene ? strlen(scene) : 1;

	for (size_t i = 0; t && i < t->nr; i++) {
		const char *p = t->items[i];

		if (!strncmp(p, scenario, ls) && p[ls] == '/' &&
		    !strncmp(p + ls + 1, scene ? scene : "-", lc) &&
		    p[ls + 1 + lc] == ' ')
			return true;
	}
	return !t || !t->nr;
}

static void
entry_line(struct strlist *out, const struct cmp_entry *e)
{
	strlist_addf(out, "%s %s/%s %s: %.4g -> %.4g %s (shift %+.3g, "
	    "interval %.3g to %.3g; p %.2g after correction): %s",
	    e->device ? e->device : "?", e->scenario, e->scene ? e->scene :
	    "-", e->metric, e->base.median, e->cur.median, e->unit ? e->unit :
	    "", e->shift, e->shift_lo, e->shift_hi, e->p_adjusted,
	    cmp_verdict_name(e->verdict));
}

static void
block_line(struct strlist *out, const struct cmp_block *b)
{
	strlist_addf(out, "%s %s/%s block %s (%s), %s: in %.0f of %.0f "
	    "iterations, before in %.0f of %.0f; %.0f ms median: %s",
	    b->device ? b->device : "?", b->scenario, b->scene ? b->scene :
	    "-", b->signature ? b->signature : "?", b->stack.nr ?
	    b->stack.items[0] : "no stack", cmp_block_status_name(b->status),
	    b->cur.carriers, b->cur.iterations, b->base.carriers,
	    b->base.iterations, b->cur.wall_ms, cmp_verdict_name(b->verdict));
}

enum bisect_mark
bisect_judge(const struct comparison *const *cmps, size_t nr,
    const struct strlist *targets, struct strlist *evidence)
{
	struct strlist bad = STRLIST_INIT, open = STRLIST_INIT;
	struct strlist changed = STRLIST_INIT;
	size_t seen = 0;
	enum bisect_mark m;

	for (size_t k = 0; k < nr; k++) {
		const struct comparison *c = cmps[k];

		for (size_t i = 0; c && i < c->nr_entries; i++) {
			const struct cmp_entry *e = &c->entries[i];

			/* A block target's scene was measured: seen. */
			if (!targeted(targets, e->scenario, e->scene,
			    e->metric)) {
				seen += targeted(targets, e->scenario,
				    e->scene, "block");
				continue;
			}
			seen++;
			if (e->verdict == CMP_REGRESSION)
				entry_line(&bad, e);
			else if (open_entry(e))
				entry_line(&open, e);
		}
		for (size_t i = 0; c && i < c->nr_blocks; i++) {
			const struct cmp_block *b = &c->blocks[i];

			if (!targeted(targets, b->scenario, b->scene,
			    "block"))
				continue;
			if (b->verdict == CMP_REGRESSION)
				block_line(&bad, b);
			else if (b->verdict == CMP_INCONCLUSIVE)
				block_line(&open, b);
			else if (b->status == CMP_BLOCK_NEW ||
			    b->status == CMP_BLOCK_WORSE)
				block_line(&changed, b);
		}
	}
	m = bad.nr ? BISECT_BAD : open.nr || !seen ? BISECT_UNTESTED :
	    BISECT_GOOD;
	if (evidence && !seen)
		strlist_add(evidence, "the A/B measured none of the targets");
	for (size_t i = 0; evidence && i < bad.nr; i++)
		strlist_add(evidence, bad.items[i]);
	for (size_t i = 0; evidence && !bad.nr && i < open.nr; i++)
		strlist_add(evidence, open.items[i]);
	/* What else changed in a bad build's scenes, as evidence only. */
	for (size_t i = 0; evidence && bad.nr && i < changed.nr; i++)
		strlist_add(evidence, changed.items[i]);
	strlist_release(&changed);
	strlist_release(&bad);
	strlist_release(&open);
	return m;
}

void
bisect_undecided(struct strlist *out, const struct comparison *c,
    const struct strlist *targets)
{
	for (size_t i = 0; c && i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];

		if (open_entry(e) && targeted(targets, e->scenario, e->scene,
		    e->metric) && strlist_find(out, e->scenario) < 0)
			strlist_add(out, e->scenario);
	}
	for (size_t i = 0; c && i < c->nr_blocks; i++) {
		const struct cmp_block *b = &c->blocks[i];

		if (b->verdict == CMP_INCONCLUSIVE && targeted(targets,
		    b->scenario, b->scene, "block") && strlist_find(out,
		    b->scenario) < 0)
			strlist_add(out, b->scenario);
	}
}

int
bisect_targets_from(struct strlist *out, const char *path)
{
	struct comparison *c = NULL;
	size_t before = out->nr;
	int rc = comparison_read(&c, path);

	if (rc)
		return rc;
	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		char *t;

		if (e->verdict != CMP_REGRESSION)
			continue;
		t = xasprintf("%s/%s %s", e->scenario, e->scene ? e->scene :
		    "-", e->metric);
		if (strlist_find(out, t) < 0)
			strlist_add(out, t);
		free(t);
	}
	for (size_t i = 0; i < c->nr_blocks; i++) {
		const struct cmp_block *b = &c->blocks[i];
		char *t;

		if (b->verdict != CMP_REGRESSION)
			continue;
		t = xasprintf("%s/%s block", b->scenario, b->scene ?
		    b->scene : "-");
		if (strlist_find(out, t) < 0)
			strlist_add(out, t);
		free(t);
	}
	comparison_free(c);
	if (out->nr == before)
		return jg_error_set(JG_EINVAL, "'%s' holds no regression to "
		    "bisect: name the scene with --scene", path);
	return 0;
}
