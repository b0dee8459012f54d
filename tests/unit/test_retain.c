/*
 * test_retain.c: the baseline.retain rule: its syntax and which runs of
 * one key it keeps.
 */
#include <string.h>

#include "unit.h"
#include "error.h"
#include "retain.h"

#define DAY (24 * 60 * 60LL)
/* 2024-07-01 12:00 UTC, a Monday. */
#define NOW 1719835200LL

/* Every form of the syntax reads as the tiers it names. */
static void
parse_reads_every_form(void **state)
{
	struct retain_rule r;

	assert_int_equal(retain_parse(&r, "90d"), 0);
	assert_true(r.all_s == 90 * DAY);
	assert_int_equal(r.nr, 0);

	assert_int_equal(retain_parse(&r, "90d,weekly"), 0);
	assert_int_equal(r.nr, 1);
	assert_int_equal(r.tier[0].period, RETAIN_WEEK);
	assert_true(r.tier[0].until_s == 0);

	assert_int_equal(retain_parse(&r, "4w,daily:90d,monthly:2y"), 0);
	assert_true(r.all_s == 28 * DAY);
	assert_int_equal(r.nr, 2);
	assert_int_equal(r.tier[0].period, RETAIN_DAY);
	assert_true(r.tier[0].until_s == 90 * DAY);
	assert_int_equal(r.tier[1].period, RETAIN_MONTH);
	assert_true(r.tier[1].until_s == 730 * DAY);
}

/* What is not the syntax is refused with a message saying what is. */
static void
parse_refuses_what_is_not_a_rule(void **state)
{
	static const struct {
		const char *in, *says;
	} bad[] = {
		{ "", "does not start with an age" },
		{ "weekly", "does not start with an age" },
		{ "90", "does not start with an age" },
		{ "0d", "does not start with an age" },
		{ "90d,", "expected daily, weekly or monthly" },
		{ "90d,yearly", "expected daily, weekly or monthly" },
		{ "90d,weekly:", "expected daily, weekly or monthly" },
		{ "90d,weekly,monthly", "only the last may omit it" },
		{ "90d,weekly:30d", "greater than the one before" },
		{ "90d weekly", "unexpected ' weekly'" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct retain_rule r;

		assert_int_equal(retain_parse(&r, bad[i].in), JG_EINVAL);
		if (!strstr(jg_error_msg(), bad[i].says))
			fail_msg("'%s': '%s' lacks '%s'", bad[i].in,
			    jg_error_msg(), bad[i].says);
	}
}

/*
 * "90d,weekly" over nightly runs: all of the last 90 days, then the
 * newest of each Monday-to-Sunday week, for ever.
 */
static void
weekly_keeps_the_newest_run_of_each_week(void **state)
{
	struct retain_rule r;
	long long t[120];
	int keep[120], kept_old = 0;

	assert_int_equal(retain_parse(&r, "90d,weekly"), 0);
	/* Nightly at 02:00 UTC, newest first: t[i] is i days ago. */
	for (int i = 0; i < 120; i++)
		t[i] = NOW - 10 * 60 * 60 - i * DAY;
	retain_select(keep, &r, NOW, t, NULL, 120);
	for (int i = 0; i < 90; i++)
		assert_int_equal(keep[i], 1);
	/* Day 90 ago is 2024-04-02, a Tuesday: the newest of its week
	 * (Mon 04-01..Sun 04-07) older than 90 days; then each Sunday. */
	for (int i = 90; i < 120; i++) {
		int sunday = (i - 92) % 7 == 0 && i >= 92;

		assert_int_equal(keep[i], i == 90 || sunday);
		kept_old += keep[i];
	}
	assert_int_equal(kept_old, 5);
}

/* Older than the last tier's age nothing stays, unless pinned; a pinned
 * run takes no week's place. */
static void
last_age_drops_all_but_pinned(void **state)
{
	struct retain_rule r;
	long long t[4] = { NOW - DAY, NOW - 10 * DAY, NOW - 11 * DAY,
	    NOW - 400 * DAY };
	int pinned[4] = { 0, 1, 0, 1 }, keep[4];

	assert_int_equal(retain_parse(&r, "7d,monthly:1y"), 0);
	retain_select(keep, &r, NOW, t, pinned, 4);
	assert_int_equal(keep[0], 1);	/* a day old */
	assert_int_equal(keep[1], 1);	/* pinned */
	assert_int_equal(keep[2], 1);	/* June's newest unpinned */
	assert_int_equal(keep[3], 1);	/* pinned, past a year */
	retain_select(keep, &r, NOW, t, NULL, 4);
	assert_int_equal(keep[1], 1);	/* June's newest */
	assert_int_equal(keep[2], 0);
	assert_int_equal(keep[3], 0);	/* past a year */
}

/* Order does not matter: the newest of a period by time, not position. */
static void
order_of_runs_does_not_matter(void **state)
{
	struct retain_rule r;
	long long t[3] = { NOW - 20 * DAY - 3600, NOW - 20 * DAY,
	    NOW - 20 * DAY - 7200 };
	int keep[3];

	assert_int_equal(retain_parse(&r, "1d,daily"), 0);
	retain_select(keep, &r, NOW, t, NULL, 3);
	assert_int_equal(keep[0], 0);
	assert_int_equal(keep[1], 1);
	assert_int_equal(keep[2], 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(parse_reads_every_form),
	cmocka_unit_test(parse_refuses_what_is_not_a_rule),
	cmocka_unit_test(weekly_keeps_the_newest_run_of_each_week),
	cmocka_unit_test(last_age_drops_all_but_pinned),
	cmocka_unit_test(order_of_runs_does_not_matter),
};
JG_UNIT_GROUP(retain, tests, NULL, NULL)
