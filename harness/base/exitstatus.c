/*
 * exitstatus.c: the exit-status rules of exitstatus.h.
 */
#include "error.h"
#include "exitstatus.h"
#include "banned.h"

/* Precedence: the higher wins. */
static int
rank(int status)
{
	static const int r[] = {
		[EXIT_PASS] = 0, [EXIT_INCONCLUSIVE] = 1, [EXIT_INFRA] = 2,
		[EXIT_REGRESSION] = 3, [EXIT_BAD_INPUT] = 4,
	};

	return status >= EXIT_PASS && status <= EXIT_INCONCLUSIVE ?
	    r[status] : r[EXIT_BAD_INPUT];
}

int
exit_status_merge(int a, int b)
{
	return rank(a) >= rank(b) ? a : b;
}

int
exit_status_for_error(int rc)
{
	return rc == JG_EINVAL || rc == JG_EMISMATCH ? EXIT_BAD_INPUT :
	    EXIT_INFRA;
}

int
exit_status_for_lookup(int rc)
{
	return rc == JG_EINVAL || rc == JG_ENOTFOUND ? EXIT_BAD_INPUT :
	    EXIT_INFRA;
}

int
exit_status_of(enum exit_outcome o)
{
	switch (o) {
	case OUTCOME_REGRESSION:
		return EXIT_REGRESSION;
	case OUTCOME_INFRA:
		return EXIT_INFRA;
	case OUTCOME_INCONCLUSIVE:
		return EXIT_INCONCLUSIVE;
	default:
		return EXIT_PASS;
	}
}

enum exit_outcome
exit_outcome_of(int status)
{
	switch (status) {
	case EXIT_REGRESSION:
		return OUTCOME_REGRESSION;
	case EXIT_INFRA:
		return OUTCOME_INFRA;
	case EXIT_INCONCLUSIVE:
		return OUTCOME_INCONCLUSIVE;
	default:
		return OUTCOME_PASS;
	}
}

enum exit_outcome
exit_outcome_worst(enum exit_outcome a, enum exit_outcome b)
{
	return a > b ? a : b;
}

const char *
exit_status_name(int status)
{
	switch (status) {
	case EXIT_PASS:
		return "pass";
	case EXIT_REGRESSION:
		return "regression";
	case EXIT_BAD_INPUT:
		return "bad input";
	case EXIT_INFRA:
		return "infrastructure failure";
	case EXIT_INCONCLUSIVE:
		return "inconclusive";
	default:
		return "?";
	}
}

const char *
exit_outcome_name(enum exit_outcome o)
{
	switch (o) {
	case OUTCOME_REGRESSION:
		return "regression";
	case OUTCOME_INFRA:
		return "infrastructure";
	case OUTCOME_INCONCLUSIVE:
		return "inconclusive";
	default:
		return "pass";
	}
}
