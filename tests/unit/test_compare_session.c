/*
 * test_compare_session.c: the session model's estimates of how much one
 * session moves a metric (compare_session.c): a kind's entries that are
 * alike take the kind's spread, whatever one entry's few sessions say by
 * chance; an entry that truly moves more keeps most of its own.
 */
#include <math.h>
#include <string.h>

#include "unit.h"

#include "compare_int.h"
#include "metrics.h"
#include "stats.h"

#define ENTRIES 40
#define SESSIONS 20

/*
 * Entry `p` of `metric`: SESSIONS baseline sessions of 5 values around 50,
 * sd 1 within a session, each session moved by N(0, sb).
 */
static void
entry_make(struct cmp_pending *p, const char *metric, double sb,
    struct stats_rng *r)
{
	memset(p, 0, sizeof(*p));
	p->metric = metric_find(metric);
	assert_non_null(p->metric);
	for (int s = 0; s < SESSIONS; s++) {
		double u = stats_rng_normal(r, 0, sb);

		for (int i = 0; i < 5; i++)
			cmp_sample_add(&p->b, 50 + u + stats_rng_normal(r, 0, 1),
			    s, 0);
	}
}

/* The kind of ENTRIES entries of jank_pct, entry i moved by sb[i % 2]. */
static void
kind_make(struct cmp_pending *p, struct cmp_session_kind *sk,
    const double sb[2], uint64_t seed)
{
	struct cmp_kind_acc acc;
	struct stats_rng r;

	memset(&acc, 0, sizeof(acc));
	memset(sk, 0, sizeof(*sk));
	stats_rng_init(&r, seed);
	for (int i = 0; i < ENTRIES; i++) {
		entry_make(&p[i], "jank_pct", sb[i % 2], &r);
		cmp_kind_add(&acc, &p[i]);
	}
	cmp_kind_finish(sk, &acc, METRIC_KIND_JANK, 0.5, 1);
}

static void
kind_release(struct cmp_pending *p)
{
	for (int i = 0; i < ENTRIES; i++)
		cmp_sample_release(&p[i].b);
}

/*
 * No entry has a session effect: their own estimates scatter only as
 * 19 degrees of freedom make them, so the largest of 40 (by chance a
 * sizable share of the within variance) is not taken as its own.
 */
static void
alike_entries_take_their_kind(void **state)
{
	static const double none[2] = { 0, 0 };
	struct cmp_pending p[ENTRIES];
	struct cmp_session_kind sk;
	double most = -INFINITY, df;
	int at = 0;

	(void)state;
	kind_make(p, &sk, none, 7);
	for (int i = 0; i < ENTRIES; i++)
		if (p[i].vb_own / p[i].msw_own > most) {
			most = p[i].vb_own / p[i].msw_own;
			at = i;
		}
	/* What the rule before took: this much of the within variance. */
	assert_true(most > 0.1);
	assert_true(sk.own_spread < 0.02);
	{
		double s = cmp_own_shrunk(&p[at], &sk, &df);

		assert_true(isnan(s) || s < 0.5 * most);
	}
	kind_release(p);
}

/*
 * Half the entries move with the session as much as within it (a ratio
 * of 1), half not at all: the kind's entries differ beyond their noise,
 * and each keeps most of what its own sessions show.
 */
static void
unalike_entries_keep_their_own(void **state)
{
	static const double half[2] = { 1, 0 };
	struct cmp_pending p[ENTRIES];
	struct cmp_session_kind sk;
	double moved = 0, still = 0, df;

	(void)state;
	kind_make(p, &sk, half, 11);
	assert_true(sk.own_spread > 0.1);
	for (int i = 0; i < ENTRIES; i++) {
		double s = cmp_own_shrunk(&p[i], &sk, &df);

		assert_false(isnan(s));
		assert_true(df == SESSIONS - 1);
		if (i % 2)
			still += s / (ENTRIES / 2);
		else
			moved += s / (ENTRIES / 2);
	}
	assert_true(moved > 0.7 && moved < 1.4);
	assert_true(still < 0.3);
	kind_release(p);
}

/* One session, or one entry: nothing to set an entry apart by. */
static void
no_spread_without_sessions_or_peers(void **state)
{
	struct cmp_pending p;
	struct cmp_kind_acc acc;
	struct cmp_session_kind sk;
	struct stats_rng r;
	double df;

	(void)state;
	stats_rng_init(&r, 3);
	memset(&acc, 0, sizeof(acc));
	entry_make(&p, "jank_pct", 1, &r);
	cmp_kind_add(&acc, &p);
	cmp_kind_finish(&sk, &acc, METRIC_KIND_JANK, 0.5, 1);
	assert_true(sk.own_spread == 0);
	assert_true(isnan(cmp_own_shrunk(&p, &sk, &df)));
	cmp_sample_release(&p.b);

	memset(&acc, 0, sizeof(acc));
	memset(&p, 0, sizeof(p));
	p.metric = metric_find("jank_pct");
	for (int i = 0; i < 5; i++)
		cmp_sample_add(&p.b, 50 + i, 0, 0);
	cmp_kind_add(&acc, &p);
	cmp_kind_finish(&sk, &acc, METRIC_KIND_JANK, 0.5, 1);
	assert_true(isnan(cmp_own_shrunk(&p, &sk, &df)));
	assert_true(sk.used == 0.5);
	cmp_sample_release(&p.b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(alike_entries_take_their_kind),
	cmocka_unit_test(unalike_entries_keep_their_own),
	cmocka_unit_test(no_spread_without_sessions_or_peers),
};

JG_UNIT_GROUP(compare_session, tests, NULL, NULL)
