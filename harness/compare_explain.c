/*
 * compare_explain.c: the parts of a comparison that explain rather than
 * decide (issue 20): the entries of the explain metrics and the methods
 * compared by name.
 *
 * compare.c tests an explain metric exactly as any other (the same
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "xalloc.h"
#include "banned.h"

static bool
same(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

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

		if (same(e->scenario, scenario) && same(e->scene, scene) &&
		    same(e->metric, metric))
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
