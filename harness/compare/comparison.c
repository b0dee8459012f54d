/*
 * comparison.c: the comparison model of comparison.h, and its names.
 *
 * Allocation and release of a struct comparison and its arrays, the names
 * of verdicts and block statuses as comparison.json spells them, and the
 * run's verdict over its entries.  compare.c fills the model and
 * comparison_read.c and comparison_write.c move it to and from disk;
 * this file is what they share.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "error.h"
#include "xalloc.h"
#include "banned.h"

static const char *const verdict_names[CMP_NR_VERDICTS] = {
	[CMP_PASS] = "pass",
	[CMP_IMPROVEMENT] = "improvement",
	[CMP_NEW] = "new",
	[CMP_MISSING] = "missing",
	[CMP_INCONCLUSIVE] = "inconclusive",
	[CMP_REGRESSION] = "regression",
};

static const char *const block_names[] = {
	[CMP_BLOCK_UNCHANGED] = "unchanged",
	[CMP_BLOCK_NEW] = "new",
	[CMP_BLOCK_WORSE] = "worse",
	[CMP_BLOCK_RESOLVED] = "resolved",
};

const char *
cmp_verdict_name(enum cmp_verdict v)
{
	return (unsigned)v < CMP_NR_VERDICTS ? verdict_names[v] : "?";
}

enum exit_outcome
cmp_verdict_outcome(enum cmp_verdict v)
{
	return v == CMP_REGRESSION || v == CMP_MISSING ? OUTCOME_REGRESSION :
	    v == CMP_INCONCLUSIVE ? OUTCOME_INCONCLUSIVE : OUTCOME_PASS;
}

int
cmp_verdict_parse(enum cmp_verdict *out, const char *name)
{
	for (int i = 0; i < CMP_NR_VERDICTS; i++)
		if (!strcmp(verdict_names[i], name)) {
			*out = (enum cmp_verdict)i;
			return 0;
		}
	return jg_error_set(JG_EINVAL, "unknown verdict '%s'", name);
}

static const char *const spread_names[] = {
	[CMP_SPREAD_NONE] = NULL,
	[CMP_SPREAD_KIND] = "kind",
	[CMP_SPREAD_SPEED] = "speed",
	[CMP_SPREAD_OWN] = "own",
};

const char *
cmp_spread_name(enum cmp_spread s)
{
	return (unsigned)s <= CMP_SPREAD_OWN ? spread_names[s] : NULL;
}

int
cmp_spread_parse(enum cmp_spread *out, const char *name)
{
	for (int i = CMP_SPREAD_KIND; i <= CMP_SPREAD_OWN; i++)
		if (!strcmp(spread_names[i], name)) {
			*out = (enum cmp_spread)i;
			return 0;
		}
	return jg_error_set(JG_EINVAL, "unknown session spread source '%s'",
	    name);
}

static const char *const spending_names[] = {
	[CMP_SPEND_POCOCK] = "pocock",
	[CMP_SPEND_EQUAL] = "equal",
	[CMP_SPEND_LATE] = "late",
};

const char *
cmp_spending_name(enum cmp_spending how)
{
	return (unsigned)how <= CMP_SPEND_LATE ? spending_names[how] : "?";
}

int
cmp_spending_parse(enum cmp_spending *out, const char *name)
{
	for (int i = 0; i <= CMP_SPEND_LATE; i++)
		if (!strcmp(spending_names[i], name)) {
			*out = (enum cmp_spending)i;
			return 0;
		}
	return jg_error_set(JG_EINVAL, "unknown alpha spending '%s'", name);
}

const char *
cmp_block_status_name(enum cmp_block_status s)
{
	return (unsigned)s <= CMP_BLOCK_RESOLVED ? block_names[s] : "?";
}

int
cmp_block_status_parse(enum cmp_block_status *out, const char *name)
{
	for (int i = 0; i <= CMP_BLOCK_RESOLVED; i++)
		if (!strcmp(block_names[i], name)) {
			*out = (enum cmp_block_status)i;
			return 0;
		}
	return jg_error_set(JG_EINVAL, "unknown block status '%s'", name);
}

/* ---- the model ---------------------------------------------------------- */

struct comparison *
comparison_new(void)
{
	struct comparison *c = xcalloc(1, sizeof(*c));

	c->alpha = NAN;
	c->alpha_look = NAN;
	c->noise = NAN;
	c->ci_level = NAN;
	c->look = c->looks = 1;
	c->share = 1;
	c->primary_weight = 1;
	c->alpha_trend = 0;
	c->prior_runs = NAN;
	for (int k = 0; k < METRIC_NR_KINDS; k++) {
		struct cmp_session_kind *sk = &c->kinds[k];

		sk->prior = sk->estimate = sk->sessions = NAN;
		sk->used = sk->df = sk->own_mean = NAN;
		sk->own_spread = 0;
		sk->trend = sk->trend_t = sk->trend_mean_pos = NAN;
		sk->offset = sk->offset_p = sk->offset_sd = NAN;
	}
	strlist_init(&c->mismatches);
	strlist_init(&c->warnings);
	strlist_init(&c->confirmation);
	strlist_init(&c->missing);
	return c;
}

void
cmp_entry_release(struct cmp_entry *e)
{
	free(e->device);
	free(e->scenario);
	free(e->scene);
	free(e->metric);
	free(e->unit);
	free(e->reason);
	free(e->trend.stepped_run);
	free(e->trend.stepped_started);
}

static void
empty_summary(struct stats_summary *s)
{
	stats_summarize(s, NULL, 0);
}

struct cmp_entry *
comparison_add_entry(struct comparison *c)
{
	struct cmp_entry *e;

	XALLOC_GROW(c->entries, c->nr_entries + 1, c->alloc_entries);
	e = &c->entries[c->nr_entries++];
	cmp_entry_init(e, c->look);
	return e;
}

void
cmp_entry_init(struct cmp_entry *e, int look)
{
	memset(e, 0, sizeof(*e));
	empty_summary(&e->base);
	empty_summary(&e->cur);
	e->shift = e->shift_lo = e->shift_hi = e->shift_level = NAN;
	e->p_value = e->p_adjusted = e->q_value = NAN;
	e->rel_threshold = e->abs_threshold = e->threshold = NAN;
	e->noise_threshold = e->spread = NAN;
	e->detectable = NAN;
	e->sd_within = e->sd_session = e->df = e->deff = NAN;
	e->sessions_base = e->sessions_cur = NAN;
	e->trend.shift = e->trend.lo = e->trend.hi = NAN;
	e->trend.p_value = e->trend.p_adjusted = NAN;
	e->trend.stepped_by = NAN;
	e->look = look;
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static bool
same_or_both_null(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

const struct cmp_entry *
comparison_find_entry(const struct comparison *c, const char *scenario,
    const char *scene, const char *metric)
{
	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];

		if (same_or_both_null(e->scenario, scenario) &&
		    same_or_both_null(e->scene, scene) &&
		    same_or_both_null(e->metric, metric))
			return e;
	}
	return NULL;
}

void
cmp_entry_copy(struct cmp_entry *dst, const struct cmp_entry *src)
{
	cmp_entry_release(dst);
	*dst = *src;
	dst->device = dup_or_null(src->device);
	dst->scenario = dup_or_null(src->scenario);
	dst->scene = dup_or_null(src->scene);
	dst->metric = dup_or_null(src->metric);
	dst->unit = dup_or_null(src->unit);
	dst->reason = dup_or_null(src->reason);
	dst->trend.stepped_run = dup_or_null(src->trend.stepped_run);
	dst->trend.stepped_started = dup_or_null(src->trend.stepped_started);
}

static void
empty_side(struct cmp_block_side *s)
{
	s->iterations = s->count = s->per_iteration = s->wall_ms = NAN;
	s->janky_frames = s->frames_seen = s->carriers = NAN;
}

struct cmp_block *
comparison_add_block(struct comparison *c)
{
	struct cmp_block *b;

	XALLOC_GROW(c->blocks, c->nr_blocks + 1, c->alloc_blocks);
	b = &c->blocks[c->nr_blocks++];
	memset(b, 0, sizeof(*b));
	empty_side(&b->base);
	empty_side(&b->cur);
	strlist_init(&b->stack);
	b->verdict = CMP_PASS;
	b->p_value = NAN;
	b->look = c->look;
	return b;
}

struct cmp_scenario *
comparison_add_scenario(struct comparison *c)
{
	struct cmp_scenario *s;

	XALLOC_GROW(c->scenarios, c->nr_scenarios + 1, c->alloc_scenarios);
	s = &c->scenarios[c->nr_scenarios++];
	memset(s, 0, sizeof(*s));
	s->cur_iterations = s->cur_valid = NAN;
	s->base_runs = s->base_valid = NAN;
	return s;
}

struct cmp_run *
comparison_add_baseline(struct comparison *c)
{
	struct cmp_run *r;

	XALLOC_GROW(c->baselines, c->nr_baselines + 1, c->alloc_baselines);
	r = &c->baselines[c->nr_baselines++];
	memset(r, 0, sizeof(*r));
	return r;
}

static void
run_release(struct cmp_run *r)
{
	free(r->file);
	free(r->run_id);
	free(r->app_version);
	free(r->started);
}

void
comparison_free(struct comparison *c)
{
	if (!c)
		return;
	free(c->device);
	free(c->package);
	run_release(&c->current);
	for (size_t i = 0; i < c->nr_baselines; i++)
		run_release(&c->baselines[i]);
	free(c->baselines);
	strlist_release(&c->mismatches);
	strlist_release(&c->missing);
	strlist_release(&c->warnings);
	strlist_release(&c->confirmation);
	strlist_release(&c->primary_metrics);
	for (size_t i = 0; i < c->nr_scenarios; i++)
		free(c->scenarios[i].name);
	free(c->scenarios);
	for (size_t i = 0; i < c->nr_entries; i++)
		cmp_entry_release(&c->entries[i]);
	free(c->entries);
	for (size_t i = 0; i < c->nr_blocks; i++) {
		struct cmp_block *b = &c->blocks[i];

		free(b->device);
		free(b->scenario);
		free(b->scene);
		free(b->signature);
		strlist_release(&b->stack);
	}
	free(c->blocks);
	comparison_explain_release(c);
	free(c);
}

void
comparison_count(const struct comparison *c, size_t counts[CMP_NR_VERDICTS])
{
	memset(counts, 0, CMP_NR_VERDICTS * sizeof(*counts));
	for (size_t i = 0; i < c->nr_entries; i++)
		if ((unsigned)c->entries[i].verdict < CMP_NR_VERDICTS)
			counts[c->entries[i].verdict]++;
}

double
comparison_measured(const struct comparison *c)
{
	double n = 0;

	for (size_t i = 0; i < c->nr_scenarios; i++)
		if (!isnan(c->scenarios[i].cur_valid))
			n += c->scenarios[i].cur_valid;
	return n;
}

enum cmp_verdict
comparison_verdict(const struct comparison *c)
{
	enum cmp_verdict v = CMP_PASS;

	for (size_t i = 0; i < c->nr_entries; i++) {
		if (c->entries[i].verdict == CMP_REGRESSION)
			return CMP_REGRESSION;
		if (c->entries[i].verdict == CMP_INCONCLUSIVE)
			v = CMP_INCONCLUSIVE;
	}
	for (size_t i = 0; i < c->nr_blocks; i++) {
		if (c->blocks[i].verdict == CMP_REGRESSION)
			return CMP_REGRESSION;
		if (c->blocks[i].verdict == CMP_INCONCLUSIVE)
			v = CMP_INCONCLUSIVE;
	}
	if (c->missing.nr)
		return CMP_MISSING;
	for (size_t i = 0; i < c->nr_scenarios; i++)
		if (c->scenarios[i].verdict == CMP_INCONCLUSIVE)
			v = CMP_INCONCLUSIVE;
	return v;
}

/* ---- explanations ----------------------------------------------------- */

/*
 * The parts of a comparison that explain rather than decide (issue 20):
 * the entries of the explain metrics and the methods compared by name.
 *
 * compare_entry.c tests an explain metric exactly as any other (the same
 * gates, the same session model and test) but files its entry in
 * c->explains instead of c->entries.  That is the whole of "kept out of
 * the verdict": every reader of c->entries (the run's verdict, the
 * counts, gate's looks and its exit status, junit.xml, the report's
 * attention lists) never sees them, and the correction's family, the
 * session spread of each kind and the level that picks the test are
 * computed from c->entries' metrics alone, so a run's numbers are the
 * same with or without explanations.  Explains are adjusted among
 * themselves (explain_tests), so "this phase moved" still controls its
 * own false alarms.
 */
struct cmp_entry *
comparison_add_explain(struct comparison *c)
{
	struct cmp_entry *e;

	XALLOC_GROW(c->explains, c->nr_explains + 1, c->alloc_explains);
	e = &c->explains[c->nr_explains++];
	cmp_entry_init(e, c->look);
	return e;
}

const struct cmp_entry *
comparison_find_explain(const struct comparison *c, const char *scenario,
    const char *scene, const char *metric)
{
	for (size_t i = 0; i < c->nr_explains; i++) {
		const struct cmp_entry *e = &c->explains[i];

		if (same_or_both_null(e->scenario, scenario) &&
		    same_or_both_null(e->scene, scene) &&
		    same_or_both_null(e->metric, metric))
			return e;
	}
	return NULL;
}

struct cmp_method *
comparison_add_method(struct comparison *c)
{
	struct cmp_method *m;

	XALLOC_GROW(c->methods, c->nr_methods + 1, c->alloc_methods);
	m = &c->methods[c->nr_methods++];
	memset(m, 0, sizeof(*m));
	m->base.iterations = m->base.count = m->base.per_iteration = NAN;
	m->base.wall_ms = m->base.janky_frames = m->base.frames_seen = NAN;
	m->cur = m->base;
	return m;
}

void
comparison_explain_release(struct comparison *c)
{
	for (size_t i = 0; i < c->nr_explains; i++)
		cmp_entry_release(&c->explains[i]);
	free(c->explains);
	c->explains = NULL;
	c->nr_explains = c->alloc_explains = 0;
	for (size_t i = 0; i < c->nr_methods; i++) {
		struct cmp_method *m = &c->methods[i];

		free(m->device);
		free(m->scenario);
		free(m->scene);
		free(m->name);
		free(m->source);
	}
	free(c->methods);
	c->methods = NULL;
	c->nr_methods = c->alloc_methods = 0;
}
