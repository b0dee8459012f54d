/*
 * test_exitstatus.c: the exit-status rules every command shares
 * (exitstatus.h), and what a comparison's verdict means for them.
 */
#include <string.h>

#include "unit.h"
#include "compare.h"
#include "error.h"
#include "exitstatus.h"

/* 2 first, then 1 > 3 > 4 > 0, whichever order they come in. */
static void
exit_code_precedence(void **state)
{
	static const int order[] = { EXIT_PASS, EXIT_INCONCLUSIVE, EXIT_INFRA,
		EXIT_REGRESSION, EXIT_BAD_INPUT };

	(void)state;
	for (size_t i = 0; i < 5; i++)
		for (size_t j = 0; j < 5; j++) {
			int want = order[i > j ? i : j];

			assert_int_equal(exit_status_merge(order[i], order[j]),
			    want);
		}
}

/* The numbers are the documented ones: CI scripts test them. */
static void
statuses_are_the_documented_numbers(void **state)
{
	(void)state;
	assert_int_equal(EXIT_PASS, 0);
	assert_int_equal(EXIT_REGRESSION, 1);
	assert_int_equal(EXIT_BAD_INPUT, 2);
	assert_int_equal(EXIT_INFRA, 3);
	assert_int_equal(EXIT_INCONCLUSIVE, 4);
	assert_string_equal(exit_status_name(EXIT_INFRA),
	    "infrastructure failure");
	assert_string_equal(exit_status_name(EXIT_BAD_INPUT), "bad input");
	assert_string_equal(exit_status_name(9), "?");
}

/* An outcome and its status go both ways, and order by precedence. */
static void
outcomes_map_to_statuses(void **state)
{
	static const struct {
		enum exit_outcome o;
		int status;
		const char *name;
	} map[] = {
		{ OUTCOME_PASS, EXIT_PASS, "pass" },
		{ OUTCOME_INCONCLUSIVE, EXIT_INCONCLUSIVE, "inconclusive" },
		{ OUTCOME_INFRA, EXIT_INFRA, "infrastructure" },
		{ OUTCOME_REGRESSION, EXIT_REGRESSION, "regression" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++) {
		assert_int_equal(exit_status_of(map[i].o), map[i].status);
		assert_int_equal(exit_outcome_of(map[i].status), map[i].o);
		assert_string_equal(exit_outcome_name(map[i].o), map[i].name);
		for (size_t j = 0; j < sizeof(map) / sizeof(*map); j++)
			assert_int_equal(exit_status_of(exit_outcome_worst(
			    map[i].o, map[j].o)), exit_status_merge(
			    map[i].status, map[j].status));
	}
	/* Nothing ran: no report shows it, so it reads as no news. */
	assert_int_equal(exit_outcome_of(EXIT_BAD_INPUT), OUTCOME_PASS);
}

/* A module error is bad input or infrastructure, by what it means. */
static void
errors_map_to_statuses(void **state)
{
	(void)state;
	assert_int_equal(exit_status_for_error(JG_EINVAL), EXIT_BAD_INPUT);
	assert_int_equal(exit_status_for_error(JG_EMISMATCH), EXIT_BAD_INPUT);
	assert_int_equal(exit_status_for_error(JG_ENOTFOUND), EXIT_INFRA);
	assert_int_equal(exit_status_for_error(JG_EIO), EXIT_INFRA);
	/* A repository or ref that is not there is the user's to fix. */
	assert_int_equal(exit_status_for_lookup(JG_ENOTFOUND), EXIT_BAD_INPUT);
	assert_int_equal(exit_status_for_lookup(JG_EINVAL), EXIT_BAD_INPUT);
	assert_int_equal(exit_status_for_lookup(JG_EAUTH), EXIT_INFRA);
	assert_int_equal(exit_status_for_lookup(JG_ETIMEOUT), EXIT_INFRA);
}

/* Only a regression and an inconclusive verdict fail a run. */
static void
verdicts_map_to_outcomes(void **state)
{
	(void)state;
	assert_int_equal(cmp_verdict_outcome(CMP_REGRESSION),
	    OUTCOME_REGRESSION);
	assert_int_equal(cmp_verdict_outcome(CMP_INCONCLUSIVE),
	    OUTCOME_INCONCLUSIVE);
	assert_int_equal(cmp_verdict_outcome(CMP_PASS), OUTCOME_PASS);
	assert_int_equal(cmp_verdict_outcome(CMP_IMPROVEMENT), OUTCOME_PASS);
	assert_int_equal(cmp_verdict_outcome(CMP_NEW), OUTCOME_PASS);
	/* a scenario or scene the baseline measured and the run did not */
	assert_int_equal(cmp_verdict_outcome(CMP_MISSING), OUTCOME_REGRESSION);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(exit_code_precedence),
	cmocka_unit_test(statuses_are_the_documented_numbers),
	cmocka_unit_test(outcomes_map_to_statuses),
	cmocka_unit_test(errors_map_to_statuses),
	cmocka_unit_test(verdicts_map_to_outcomes),
};
JG_UNIT_GROUP(exitstatus, tests, NULL, NULL)
