/*
 * test_compare_session.c: the session model's estimates of how much one
 * session moves a metric (compare_session.c): a kind's entries that are
 * alike take the kind's spread, whatever one entry's few sessions say by
 * chance; an entry that truly moves more keeps most of its own.  And the
 * two rules made for counts of events (blocks): the mid-p of their test
 * (compare_test.c) and another look when they promise to reach T
 * (compare_verdict.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "compare.h"
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

/* P(X = k) for X binomial(n, f), from the definition. */
static double
binom_at(int k, int n, double f)
{
	return exp(lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) +
	    k * log(f) + (n - k) * log1p(-f));
}

/*
 * A count of blocks is tested by the conditional test of two Poisson
 * rates, its tails mid-p values: with no session spread (the design
 * effect 1, nothing estimated), the p-value is P(X > 10) + P(X = 10) / 2
 * for X binomial(16, 5 / 25), the current side's share of the 16 blocks.
 * The exact tail P(X >= 10) would be larger by half of P(X = 10), and a
 * t quantile with the within spread's degrees of freedom larger still.
 */
static void
block_counts_take_the_mid_p(void **state)
{
	static const double base[20] = { 0, 1, 0, 0, 1, 0, 0, 1, 0, 0,
		1, 0, 0, 0, 1, 0, 0, 1, 0, 0 };
	static const double cur[5] = { 2, 1, 3, 2, 2 };
	struct cmp_pending p;
	struct cmp_session_kind sk;
	struct cmp_test_opts o = { 0.98, 0.01 / 480, 1, 0, 0 };
	struct cmp_model m;
	double above = 0, at = binom_at(10, 16, 0.2);

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(&sk, 0, sizeof(sk));
	p.metric = metric_find("blocks");
	assert_true(p.metric->by_means);
	for (int i = 0; i < 20; i++)
		cmp_sample_add(&p.b, base[i], i / 5, 0);
	for (int i = 0; i < 5; i++)
		cmp_sample_add(&p.cu, cur[i], 0, 0);
	sk.estimate = NAN;
	sk.df = INFINITY;
	cmp_model_test(&m, &p, &sk, 0, NULL, 0, &o);
	for (int k = 11; k <= 16; k++)
		above += binom_at(k, 16, 0.2);
	assert_false(m.untestable);
	assert_true(fabs(m.p_greater - (above + at / 2)) <= 1e-9 *
	    (above + at / 2));
	/* The other way: P(X < 10) + P(X = 10) / 2, the two summing to 1. */
	assert_true(fabs(m.p_less + m.p_greater - 1) <= 1e-9);
	cmp_sample_release(&p.b);
	cmp_sample_release(&p.cu);
}

/*
 * The sum of block walls against a side that saw no block: one baseline
 * run of 5 iterations without a block against 5 that each caught one is
 * what a rate of one block every two iterations gives on one night in
 * forty, and no ordering of 5 values against 5 is rarer than 1 / 252; the
 * t test, taking the walls' spread for the noise, called it certain
 * (p 5e-8 in `make bench`'s first week).  Against a window that never saw
 * a block (40 runs), the same 15 blocked iterations are a regression far
 * below the level.
 */
static void
walls_against_no_blocks_are_ranks(void **state)
{
	static const double walls[15] = { 480, 520, 455, 610, 500, 530,
		470, 590, 505, 515, 460, 640, 495, 525, 545 };
	struct cmp_pending p;
	struct cmp_session_kind sk;
	struct cmp_test_opts o = { 0.98, 0.01 / 480, 1, 0, 0 };
	struct cmp_model m;

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(&sk, 0, sizeof(sk));
	p.metric = metric_find("block_ms");
	assert_false(p.metric->by_means);
	sk.estimate = NAN;
	sk.prior = sk.used = 0.5;
	sk.df = INFINITY;
	for (int i = 0; i < 5; i++) {
		cmp_sample_add(&p.b, 0, 0, 0);
		cmp_sample_add(&p.cu, walls[i], -1, 0);
	}
	cmp_model_test(&m, &p, &sk, 0, NULL, 0, &o);
	assert_false(m.untestable);
	assert_true(m.rank);
	assert_true(m.p_greater >= 1.0 / 252 * (1 - 1e-9));
	assert_true(m.p_greater > o.level);
	/* The other side without events is held alike. */
	cmp_model_test(&m, &(struct cmp_pending){ .metric = p.metric,
	    .b = p.cu, .cu = p.b }, &sk, 0, NULL, 0, &o);
	assert_true(m.p_less >= 1.0 / 252 * (1 - 1e-9));
	cmp_sample_release(&p.b);
	cmp_sample_release(&p.cu);

	memset(&p, 0, sizeof(p));
	p.metric = metric_find("block_ms");
	for (int i = 0; i < 200; i++)
		cmp_sample_add(&p.b, 0, i / 5, 0);
	for (int i = 0; i < 15; i++)
		cmp_sample_add(&p.cu, walls[i], -1, i / 5);
	cmp_model_test(&m, &p, &sk, 0, NULL, 0, &o);
	assert_true(m.rank);
	assert_true(m.p_greater < o.level);
	assert_true(m.shift > 400);
	cmp_sample_release(&p.b);
	cmp_sample_release(&p.cu);
}

/*
 * An entry of `metric` `worse` worse against T 1 (interval +-0.75), its
 * raw p `p_raw`, at look `look` of 3.
 */
static enum cmp_verdict
decide_at(const char *metric, double worse, double p_raw, int look)
{
	struct cmp_entry e;
	struct cmp_pending p;
	struct cmp_rules r = { 0.00037, 0.01, STATS_ADJUST_HOLM, 1, look == 3,
	    true, cmp_promise(look, 3, false),
	    cmp_promise_count(look, 3, false) };
	enum cmp_verdict v;

	memset(&e, 0, sizeof(e));
	memset(&p, 0, sizeof(p));
	p.metric = metric_find(metric);
	e.unit = (char *)p.metric->unit;
	e.shift = worse;
	e.shift_lo = worse - 0.75;
	e.shift_hi = worse + 0.75;
	e.shift_level = 0.98;
	e.threshold = 1;
	p.p_worse_raw = p_raw;
	p.p_worse = 1;
	p.p_better_raw = 1 - p_raw;
	p.p_better = 1;
	cmp_decide(&e, &p, &r);
	v = e.verdict;
	if (v == CMP_INCONCLUSIVE)
		assert_non_null(strstr(e.reason, "run more iterations"));
	free(e.reason);
	return v;
}

/* ... 0.6 worse, at the first look of 3 or (`last`) the last. */
static enum cmp_verdict
decide(const char *metric, double p_raw, bool last)
{
	return decide_at(metric, 0.6, p_raw, last ? 3 : 1);
}

/*
 * Before the last look, a count whose estimate reaches half of T with raw
 * p <= 0.05 is measured again (a rate 1.5 blocks higher often shows as
 * 0.6-1.0 more at 5 iterations); a metric that is not a count, a weaker
 * p, or the last look pass it as before.
 */
static void
promising_counts_are_measured_again(void **state)
{
	(void)state;
	assert_int_equal(decide("blocks", 0.03, false), CMP_INCONCLUSIVE);
	assert_int_equal(decide("blocks", 0.08, false), CMP_PASS);
	assert_int_equal(decide("blocks", 0.03, true), CMP_PASS);
	assert_int_equal(decide("frame_p90_ms", 0.03, false), CMP_PASS);
	assert_int_equal(decide("block_ms", 0.03, false), CMP_PASS);
}

/*
 * A later look asks more of a raw p before it measures again: what held
 * the first look's promise (conditional power, cmp_promise()) after one
 * session holds far less after two.  Worse by 1.2 T: at p 0.02 the first
 * look of three measures again, the second passes it; at p 0.003 both
 * measure again.  The promise never rises look by look nor above the
 * first look's, and the look before the last asks for much.
 */
static void
later_looks_ask_more_promise(void **state)
{
	(void)state;
	assert_int_equal(decide_at("frame_p90_ms", 1.2, 0.02, 1),
	    CMP_INCONCLUSIVE);
	assert_int_equal(decide_at("frame_p90_ms", 1.2, 0.02, 2), CMP_PASS);
	assert_int_equal(decide_at("frame_p90_ms", 1.2, 0.003, 1),
	    CMP_INCONCLUSIVE);
	assert_int_equal(decide_at("frame_p90_ms", 1.2, 0.003, 2),
	    CMP_INCONCLUSIVE);
	assert_true(fabs(cmp_promise(2, 3, false) - 0.0046) < 0.0002);
	/* Of four looks the first's 0.05 holds a conditional power of
	 * 21 %, and the later looks ask as much. */
	assert_true(fabs(cmp_promise(2, 4, false) - 0.0078) < 0.0002);
	assert_true(fabs(cmp_promise(3, 4, false) - 0.00094) < 0.00002);
	/* A count keeps the three looks' 8 %. */
	assert_true(fabs(cmp_promise_count(2, 4, false) - 0.017) < 0.001);
	assert_true(fabs(cmp_promise_count(3, 4, false) - 0.0022) < 0.0002);
	assert_true(cmp_promise_count(2, 3, false) == cmp_promise(2, 3, false));
	for (int looks = 2; looks <= 20; looks++) {
		assert_true(cmp_promise(1, looks, false) == 0.05);
		assert_true(cmp_promise_count(1, looks, false) == 0.05);
		for (int k = 2; k < looks; k++) {
			assert_true(cmp_promise(k, looks, false) <=
			    cmp_promise(k - 1, looks, false));
			assert_true(cmp_promise_count(k, looks, false) >=
			    cmp_promise(k, looks, false));
			assert_true(cmp_promise_count(k, looks, false) <=
			    cmp_promise_count(k - 1, looks, false));
			/* ab's rounds keep the first look's. */
			assert_true(cmp_promise(k, looks, true) == 0.05);
			assert_true(cmp_promise_count(k, looks, true) == 0.05);
		}
		/* Just before the last look little can still change. */
		if (looks > 2)
			assert_true(cmp_promise(looks - 1, looks, false) <
			    0.005);
	}
}

/*
 * Of four looks, at the second: a count of blocks at p 0.012 is measured
 * again (the promise of three looks, 0.017), a frame time at the same p
 * passes (0.0078).
 */
static void
counts_keep_three_looks_promise(void **state)
{
	struct cmp_entry e;
	struct cmp_pending p;
	struct cmp_rules r = { 0.00037, 0.01, STATS_ADJUST_HOLM, 1, false,
	    true, cmp_promise(2, 4, false), cmp_promise_count(2, 4, false) };
	const char *names[] = { "blocks", "frame_p90_ms" };
	enum cmp_verdict want[] = { CMP_INCONCLUSIVE, CMP_PASS };

	(void)state;
	for (int i = 0; i < 2; i++) {
		memset(&e, 0, sizeof(e));
		memset(&p, 0, sizeof(p));
		p.metric = metric_find(names[i]);
		e.unit = (char *)p.metric->unit;
		e.shift = 1.2;
		e.shift_lo = 0.45;
		e.shift_hi = 1.95;
		e.shift_level = 0.98;
		e.threshold = 1;
		p.p_worse_raw = 0.012;
		p.p_worse = 1;
		p.p_better_raw = 0.988;
		p.p_better = 1;
		cmp_decide(&e, &p, &r);
		assert_int_equal(e.verdict, want[i]);
		free(e.reason);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(alike_entries_take_their_kind),
	cmocka_unit_test(unalike_entries_keep_their_own),
	cmocka_unit_test(no_spread_without_sessions_or_peers),
	cmocka_unit_test(block_counts_take_the_mid_p),
	cmocka_unit_test(walls_against_no_blocks_are_ranks),
	cmocka_unit_test(promising_counts_are_measured_again),
	cmocka_unit_test(later_looks_ask_more_promise),
	cmocka_unit_test(counts_keep_three_looks_promise),
};

JG_UNIT_GROUP(compare_session, tests, NULL, NULL)
