/*
 * test_compare_confirm.c: the history's regressions put to an A/B
 * (compare_confirm.c, docs/method.md step 9): a regression of the same
 * scene confirms, whatever metric found it; a whole-ms percentile one
 * vsync step worse alone does not; a scene the A/B left undecided becomes
 * inconclusive, never a pass; a scene the A/B found no worse passes, with
 * a warning that keeps the history's word; new blocks alike.  What the
 * history left inconclusive is the A/B's to decide: found (a regression),
 * cleared (a pass) or left inconclusive.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "compare.h"
#include "comparison.h"
#include "strlist.h"
#include "xalloc.h"

#define VSYNC (1000.0 / 90)

static struct cmp_entry *
entry(struct comparison *c, const char *scn, const char *scene,
    const char *metric, enum cmp_verdict v, double shift)
{
	struct cmp_entry *e = comparison_add_entry(c);

	e->scenario = xstrdup(scn);
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(metric);
	e->unit = xstrdup("ms");
	e->verdict = v;
	e->shift = shift;
	e->shift_lo = shift - 0.5;
	e->shift_hi = shift + 0.5;
	e->threshold = 1;
	e->p_adjusted = v == CMP_REGRESSION ? 1e-4 : 0.5;
	e->reason = xstrdup("history says so");
	return e;
}

static void
scenario(struct comparison *c, const char *name, enum cmp_verdict v)
{
	struct cmp_scenario *s = comparison_add_scenario(c);

	s->name = xstrdup(name);
	s->verdict = v;
	s->cur_iterations = s->cur_valid = 10;
}

static struct cmp_block *
block(struct comparison *c, const char *scn, const char *scene,
    enum cmp_verdict v)
{
	struct cmp_block *b = comparison_add_block(c);

	b->scenario = xstrdup(scn);
	b->scene = xstrdup(scene);
	b->signature = xstrdup("com.example.Slow.run");
	b->status = CMP_BLOCK_NEW;
	b->verdict = v;
	b->p_value = 1e-4;
	b->cur.carriers = 5;
	b->cur.iterations = 10;
	return b;
}

static bool
warned(const struct comparison *c, const char *what)
{
	for (size_t i = 0; i < c->confirmation.nr; i++)
		if (strstr(c->confirmation.items[i], what))
			return true;
	return false;
}

/* History: feed p90 and the launch worse; checkout's new block. */
static struct comparison *
history(void)
{
	struct comparison *h = comparison_new();

	scenario(h, "shop", CMP_PASS);
	entry(h, "shop", "feed", "frame_p90_ms", CMP_REGRESSION, 3);
	entry(h, "shop", "feed", "jank_pct", CMP_PASS, 1);
	entry(h, "shop", NULL, "startup_ms", CMP_REGRESSION, 90);
	block(h, "shop", "checkout", CMP_REGRESSION);
	return h;
}

static void
suspects_are_the_accused_scenarios(void **state)
{
	struct comparison *h = history();
	struct strlist s = STRLIST_INIT;

	(void)state;
	entry(h, "browse", "list", "fps", CMP_PASS, 0);
	block(h, "pay", "card", CMP_REGRESSION);
	/* What the history left undecided is asked too. */
	entry(h, "cart", "list", "jank_pct", CMP_INCONCLUSIVE, 2);
	block(h, "order", "done", CMP_INCONCLUSIVE);
	/* And its suspects: passes that lean worse (step 8). */
	entry(h, "home", "top", "fps", CMP_PASS, 3)->suspect = true;
	block(h, "card", "add", CMP_PASS)->suspect = true;
	block(h, "card2", "add", CMP_PASS);
	compare_suspects(&s, h);
	assert_int_equal(s.nr, 6);
	assert_string_equal(s.items[0], "shop");
	assert_string_equal(s.items[1], "cart");
	assert_string_equal(s.items[2], "home");
	assert_string_equal(s.items[3], "pay");
	assert_string_equal(s.items[4], "order");
	assert_string_equal(s.items[5], "card");
	strlist_release(&s);
	comparison_free(h);
}

static void
same_scene_any_metric_confirms(void **state)
{
	struct comparison *h = history(), *ab = comparison_new();

	(void)state;
	scenario(ab, "shop", CMP_PASS);
	/* The A/B names the feed by its jank share, not its p90. */
	entry(ab, "shop", "feed", "frame_p90_ms", CMP_PASS, 2);
	entry(ab, "shop", "feed", "jank_pct", CMP_REGRESSION, 6);
	entry(ab, "shop", NULL, "startup_ms", CMP_REGRESSION, 80);
	block(ab, "shop", "checkout", CMP_REGRESSION);
	assert_int_equal(compare_confirm(h, ab, VSYNC, "the A/B"), 3);
	assert_int_equal(h->entries[0].verdict, CMP_REGRESSION);
	assert_non_null(strstr(h->entries[0].reason, "confirmed by the A/B: "
	    "jank_pct +6"));
	assert_int_equal(h->entries[2].verdict, CMP_REGRESSION);
	assert_int_equal(h->blocks[0].verdict, CMP_REGRESSION);
	assert_int_equal(comparison_verdict(h), CMP_REGRESSION);
	assert_true(warned(h, "3 of the history's 3 regressions confirmed"));
	comparison_free(h);
	comparison_free(ab);
}

static void
no_worse_in_the_ab_clears(void **state)
{
	struct comparison *h = history(), *ab = comparison_new();

	(void)state;
	scenario(ab, "shop", CMP_PASS);
	entry(ab, "shop", "feed", "frame_p90_ms", CMP_PASS, 0);
	entry(ab, "shop", NULL, "startup_ms", CMP_PASS, 0);
	/* Another scene's regression confirms nothing of the feed's. */
	entry(ab, "shop", "search", "frame_p90_ms", CMP_REGRESSION, 5);
	assert_int_equal(compare_confirm(h, ab, VSYNC, "the A/B"), 0);
	assert_int_equal(h->entries[0].verdict, CMP_PASS);
	assert_non_null(strstr(h->entries[0].reason, "history says so"));
	assert_int_equal(h->entries[2].verdict, CMP_PASS);
	assert_int_equal(h->blocks[0].verdict, CMP_PASS);
	assert_int_equal(comparison_verdict(h), CMP_PASS);
	assert_true(warned(h, "shop/feed frame_p90_ms: the history's "
	    "regression (history says so) was not confirmed by the A/B"));
	assert_true(warned(h, "0 of the history's 3 regressions confirmed, "
	    "0 undecided, 3 cleared"));
	comparison_free(h);
	comparison_free(ab);
}

static void
undecided_scene_is_inconclusive(void **state)
{
	struct comparison *h = history(), *ab = comparison_new();
	struct strlist more = STRLIST_INIT;

	(void)state;
	scenario(ab, "shop", CMP_PASS);
	entry(ab, "shop", "feed", "frame_p90_ms", CMP_INCONCLUSIVE, 2);
	entry(ab, "shop", NULL, "startup_ms", CMP_REGRESSION, 80);
	block(ab, "shop", "checkout", CMP_INCONCLUSIVE);
	compare_confirm_undecided(&more, h, ab, VSYNC);
	assert_int_equal(more.nr, 1);
	assert_string_equal(more.items[0], "shop");
	assert_int_equal(compare_confirm(h, ab, VSYNC, "the A/B"), 1);
	assert_int_equal(h->entries[0].verdict, CMP_INCONCLUSIVE);
	assert_int_equal(h->entries[2].verdict, CMP_REGRESSION);
	assert_int_equal(h->blocks[0].verdict, CMP_INCONCLUSIVE);
	strlist_release(&more);
	comparison_free(h);
	comparison_free(ab);
}

static void
unmeasured_scenario_is_inconclusive(void **state)
{
	struct comparison *h = history(), *ab = comparison_new();

	(void)state;
	/* The A/B's phone was lost before it measured the scenario. */
	scenario(ab, "shop", CMP_MISSING);
	assert_int_equal(compare_confirm(h, ab, VSYNC, "the A/B"), 0);
	assert_int_equal(h->entries[0].verdict, CMP_INCONCLUSIVE);
	assert_int_equal(h->entries[2].verdict, CMP_INCONCLUSIVE);
	assert_int_equal(comparison_verdict(h), CMP_INCONCLUSIVE);
	comparison_free(h);
	comparison_free(ab);
}

static void
one_vsync_step_alone_confirms_nothing(void **state)
{
	struct comparison *h = history(), *ab = comparison_new();
	struct strlist more = STRLIST_INIT;

	(void)state;
	scenario(ab, "shop", CMP_PASS);
	/* p95 one 11.1 ms period (give or take 1 ms) worse, and nothing
	 * else. */
	entry(ab, "shop", "feed", "frame_p95_ms", CMP_REGRESSION, 12);
	entry(ab, "shop", NULL, "startup_ms", CMP_PASS, 0);
	compare_confirm_undecided(&more, h, ab, VSYNC);
	assert_int_equal(more.nr, 0);
	compare_confirm(h, ab, VSYNC, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_PASS);
	assert_non_null(strstr(h->entries[0].reason, "one vsync step"));
	comparison_free(h);
	/* Two steps, or the step with another metric, confirm. */
	h = history();
	ab->entries[0].shift = 2 * VSYNC;
	compare_confirm(h, ab, VSYNC, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_REGRESSION);
	comparison_free(h);
	/* A 2 ms move at 60 Hz is the frames moving, not a step. */
	h = history();
	ab->entries[0].shift = 2;
	compare_confirm(h, ab, 1000.0 / 60, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_REGRESSION);
	comparison_free(h);
	h = history();
	ab->entries[0].shift = 12;
	entry(ab, "shop", "feed", "dropped_frames", CMP_REGRESSION, 40);
	compare_confirm(h, ab, VSYNC, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_REGRESSION);
	/* Without a known period, a step is a step. */
	comparison_free(h);
	comparison_free(ab);
	h = history();
	ab = comparison_new();
	scenario(ab, "shop", CMP_PASS);
	entry(ab, "shop", "feed", "frame_p95_ms", CMP_REGRESSION, 12);
	compare_confirm(h, ab, NAN, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_REGRESSION);
	strlist_release(&more);
	comparison_free(h);
	comparison_free(ab);
}

static void
pass_that_reaches_t_waits_for_the_last_look(void **state)
{
	struct comparison *h = history(), *ab = comparison_new();
	struct strlist more = STRLIST_INIT;

	(void)state;
	scenario(ab, "shop", CMP_PASS);
	/* Estimate 0.8 under T 1, interval to 1.3: not ruled out. */
	entry(ab, "shop", "feed", "frame_p90_ms", CMP_PASS, 0.8);
	entry(ab, "shop", NULL, "startup_ms", CMP_PASS, 0);
	/* The accused block, not in one of the new build's iterations. */
	block(ab, "shop", "checkout", CMP_PASS)->cur.carriers = 0;
	compare_confirm_undecided(&more, h, ab, VSYNC);
	assert_int_equal(more.nr, 1);
	compare_confirm(h, ab, VSYNC, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_INCONCLUSIVE);
	assert_int_equal(h->entries[2].verdict, CMP_PASS);
	comparison_free(h);
	/* Another metric of the scene reaching T does not hold it. */
	h = history();
	ab->entries[0].metric[7] = '5';	/* frame_p50_ms */
	strlist_release(&more);
	compare_confirm_undecided(&more, h, ab, VSYNC);
	assert_int_equal(more.nr, 0);
	/* The accused block in 3 of B's iterations, not yet significant. */
	ab->blocks[0].cur.carriers = 3;
	compare_confirm_undecided(&more, h, ab, VSYNC);
	assert_int_equal(more.nr, 1);
	strlist_release(&more);
	ab->blocks[0].cur.carriers = 0;
	ab->entries[0].metric[7] = '9';
	/* At the A/B's last look a pass is a pass. */
	ab->last = true;
	compare_confirm_undecided(&more, h, ab, VSYNC);
	assert_int_equal(more.nr, 0);
	compare_confirm(h, ab, VSYNC, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_PASS);
	strlist_release(&more);
	comparison_free(h);
	comparison_free(ab);
}

/*
 * The history undecided on the feed's p90, the launch and checkout's new
 * block: the A/B finds the feed and the block worse, and the launch no
 * worse.  Found and cleared, with the history's reason kept.
 */
static void
undecided_history_is_the_abs_to_decide(void **state)
{
	struct comparison *h = history(), *ab = comparison_new();
	struct strlist more = STRLIST_INIT;

	(void)state;
	h->entries[0].verdict = CMP_INCONCLUSIVE;
	h->entries[2].verdict = CMP_PASS;
	h->entries[2].suspect = true;
	h->blocks[0].verdict = CMP_INCONCLUSIVE;
	scenario(ab, "shop", CMP_PASS);
	entry(ab, "shop", "feed", "jank_pct", CMP_REGRESSION, 6);
	entry(ab, "shop", NULL, "startup_ms", CMP_PASS, -3);
	block(ab, "shop", "checkout", CMP_REGRESSION);
	ab->last = true;
	compare_confirm_undecided(&more, h, ab, VSYNC);
	assert_int_equal(more.nr, 0);
	assert_int_equal(compare_confirm(h, ab, VSYNC, "the A/B"), 2);
	assert_int_equal(h->entries[0].verdict, CMP_REGRESSION);
	assert_non_null(strstr(h->entries[0].reason, "history says so"));
	assert_non_null(strstr(h->entries[0].reason, "jank_pct"));
	assert_int_equal(h->entries[2].verdict, CMP_PASS);
	assert_false(h->entries[2].suspect);
	assert_non_null(strstr(h->entries[2].reason, "a suspect of the "
	    "history"));
	assert_int_equal(h->blocks[0].verdict, CMP_REGRESSION);
	assert_int_equal(comparison_verdict(h), CMP_REGRESSION);
	assert_true(warned(h, "of the 3 it left undecided or suspected, 2 "
	    "found regressions, 1 passed"));
	/* A scene the A/B leaves undecided stays so; one step is no find. */
	comparison_free(h);
	h = history();
	h->entries[0].verdict = CMP_INCONCLUSIVE;
	h->entries[2].verdict = CMP_PASS;
	h->blocks[0].verdict = CMP_PASS;
	ab->entries[0].verdict = CMP_INCONCLUSIVE;
	compare_confirm(h, ab, VSYNC, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_INCONCLUSIVE);
	assert_true(warned(h, "the history found no regression; of the 1 "
	    "it left undecided or suspected, 0 found regressions, 0 passed, "
	    "1 still open"));
	ab->entries[0].verdict = CMP_PASS;
	entry(ab, "shop", "feed", "frame_p90_ms", CMP_REGRESSION, VSYNC);
	compare_confirm(h, ab, VSYNC, "the A/B");
	assert_int_equal(h->entries[0].verdict, CMP_PASS);
	strlist_release(&more);
	comparison_free(h);
	comparison_free(ab);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(suspects_are_the_accused_scenarios),
	cmocka_unit_test(same_scene_any_metric_confirms),
	cmocka_unit_test(no_worse_in_the_ab_clears),
	cmocka_unit_test(undecided_scene_is_inconclusive),
	cmocka_unit_test(unmeasured_scenario_is_inconclusive),
	cmocka_unit_test(one_vsync_step_alone_confirms_nothing),
	cmocka_unit_test(pass_that_reaches_t_waits_for_the_last_look),
	cmocka_unit_test(undecided_history_is_the_abs_to_decide),
};

JG_UNIT_GROUP(compare_confirm, tests, NULL, NULL)
