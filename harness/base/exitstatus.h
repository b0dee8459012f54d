/*
 * exitstatus.h: the exit status of every command, and how outcomes combine
 * (the man page's EXIT STATUS).  The one place that knows the numbers: commands, the
 * runner, gate, the view and the mail all go through it.
 *
 *	0  pass            nothing worse was found
 *	1  regression      a comparison found a regression
 *	2  bad input       usage, configuration or files: nothing could run
 *	3  infrastructure  a device, git, SMTP or the disk failed
 *	4  inconclusive    more iterations could still decide
 *
 * When several apply, one wins: 2 first (nothing ran), then 1 > 3 > 4 > 0.
 * A report sees outcomes rather than statuses (it never sees bad input):
 * enum exit_outcome orders them by the same precedence.
 */
#ifndef JG_EXITSTATUS_H
#define JG_EXITSTATUS_H

enum jg_exit {
	EXIT_PASS = 0,
	EXIT_REGRESSION = 1,
	EXIT_BAD_INPUT = 2,
	EXIT_INFRA = 3,
	EXIT_INCONCLUSIVE = 4,
};

/* What the runs and comparisons of a report concluded, the worst last. */
enum exit_outcome {
	OUTCOME_PASS,
	OUTCOME_INCONCLUSIVE,
	OUTCOME_INFRA,		/* a run reported infrastructure errors */
	OUTCOME_REGRESSION,
};

/*
 * The status when statuses `a` and `b` both apply: 2 > 1 > 3 > 4 > 0.  A
 * number outside 0..4 ranks with 2.
 */
int exit_status_merge(int a, int b);

/*
 * The status of a module error code (error.h) that stopped a command:
 * 2 for bad input (JG_EINVAL, JG_EMISMATCH), else 3.
 */
int exit_status_for_error(int rc);

/*
 * The same for an error of finding what the user named (a repository, a
 * ref, a file): JG_EINVAL and JG_ENOTFOUND are bad input, else 3.
 */
int exit_status_for_lookup(int rc);

/* The status of an outcome: 0, 4, 3 or 1. */
int exit_status_of(enum exit_outcome o);

/*
 * The outcome a status shows a reader: 1 regression, 3 infrastructure,
 * 4 inconclusive, else pass (2 means nothing ran, which no report shows).
 */
enum exit_outcome exit_outcome_of(int status);

/* The worse of two outcomes. */
enum exit_outcome exit_outcome_worst(enum exit_outcome a,
    enum exit_outcome b);

/*
 * "pass", "regression", "bad input", "infrastructure failure" or
 * "inconclusive"; "?" for another number.  Never NULL.
 */
const char *exit_status_name(int status);

/* "pass", "inconclusive", "infrastructure" or "regression". */
const char *exit_outcome_name(enum exit_outcome o);

#endif
