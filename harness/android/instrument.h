/*
 * instrument.h: what `am instrument -w -r` prints, read a line at a time.
 *
 * The `instrument` scenario step (run_instrument.c) runs a test APK's
 * instrumentation and makes each test a scene; it needs to know, while
 * the run goes on, when a test starts and ends and how it ended.  That is
 * the "raw" status protocol of am (-r), which the test runner speaks
 * through Instrumentation.sendStatus() and finish():
 *
 *	INSTRUMENTATION_STATUS: class=com.example.shop.test.FeedTest
 *	INSTRUMENTATION_STATUS: current=1
 *	INSTRUMENTATION_STATUS: id=AndroidJUnitRunner
 *	INSTRUMENTATION_STATUS: numtests=3
 *	INSTRUMENTATION_STATUS: stream=
 *	com.example.shop.test.FeedTest:
 *	INSTRUMENTATION_STATUS: test=scrollFeed
 *	INSTRUMENTATION_STATUS_CODE: 1
 *	...                                         (the same keys)
 *	INSTRUMENTATION_STATUS: stack=java.lang.AssertionError: total
 *		at org.junit.Assert.fail(Assert.java:89)
 *	INSTRUMENTATION_STATUS: test=failOnPurpose
 *	INSTRUMENTATION_STATUS_CODE: -2
 *	INSTRUMENTATION_RESULT: stream=
 *
 *	Time: 4.52
 *	FAILURES!!!
 *	Tests run: 3,  Failures: 1
 *
 *	INSTRUMENTATION_CODE: -1
 *
 * A status is a block of "key=value" lines closed by its STATUS_CODE; a
 * value runs on over the following lines up to the next line that starts
 * with "INSTRUMENTATION_" (stacks and streams span lines).  The codes of
 * AndroidJUnitRunner's InstrumentationResultPrinter: 1 a test started, 0
 * it passed, -1 an error (JUnit 3), -2 a failure, -3 ignored, -4 an
 * assumption failure; 2 is a progress report inside a test.  The run ends
 * with RESULT lines (the same key=value shape) and INSTRUMENTATION_CODE
 * (-1 is Activity.RESULT_OK).  When things go wrong:
 *
 *	INSTRUMENTATION_RESULT: shortMsg=Process crashed.     the app died
 *	INSTRUMENTATION_CODE: 0
 *
 *	INSTRUMENTATION_STATUS: id=ActivityManagerService     no such runner
 *	INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ...
 *	INSTRUMENTATION_STATUS_CODE: -1
 *	android.util.AndroidException: INSTRUMENTATION_FAILED: pkg/runner
 *
 * and output that simply stops (the device went away, am was killed) is
 * truncated: the test left open ends as INSTR_INCOMPLETE and the run is
 * not finished.  Values are kept up to INSTR_MAX_VALUE bytes each (a
 * hostile stream cannot grow memory without bound); anything that is not
 * the protocol is skipped.
 */
#ifndef JG_INSTRUMENT_H
#define JG_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/* Status codes of a test (INSTRUMENTATION_STATUS_CODE). */
enum instr_code {
	INSTR_START = 1,
	INSTR_PROGRESS = 2,
	INSTR_OK = 0,
	INSTR_ERROR = -1,
	INSTR_FAILURE = -2,
	INSTR_IGNORED = -3,
	INSTR_ASSUMPTION = -4,
	INSTR_INCOMPLETE = -100,	/* not on the wire: the output ended */
};

#define INSTR_MAX_VALUE (64 * 1024)

/* One test starting or ending, as handed to the parser's callback. */
struct instr_test {
	bool end;		/* false: it started */
	const char *cls;	/* "com.example.shop.test.FeedTest"; "" if none */
	const char *test;	/* "scrollFeed"; "" if none */
	int code;		/* enum instr_code (INSTR_START for a start) */
	const char *stack;	/* the failure's "stack" value, or NULL */
};

/* What the run said of itself; complete after instr_parser_end(). */
struct instr_run {
	bool finished;		/* INSTRUMENTATION_CODE was seen */
	int code;		/* its value */
	bool crashed;		/* "Process crashed." */
	char *short_msg;	/* RESULT shortMsg, or NULL */
	char *failed;		/* INSTRUMENTATION_FAILED's component or the
				 * status' Error= text, or NULL */
	int started, failures;	/* tests started; ended with -1, -2 or
				 * incomplete */
};

/*
 * Called for every test start and end, in output order; a start is
 * always followed by its end before the next start (one that never came
 * is INSTR_INCOMPLETE).  Strings live until the callback returns.  A
 * non-zero return stops the parser, which returns it from then on.
 */
typedef int (*instr_cb)(void *arg, const struct instr_test *t);

struct instr_parser;

/* A parser calling `cb(arg, ...)`; `cb` may be NULL.  Free it with _free. */
struct instr_parser *instr_parser_new(instr_cb cb, void *arg);
void instr_parser_free(struct instr_parser *p);

/*
 * Feed one line of output (`len` bytes, without its newline; a trailing
 * CR is dropped).  Returns 0, or the callback's non-zero value.
 */
int instr_parser_line(struct instr_parser *p, const char *line, size_t len);

/* Feed `len` bytes of whole output, split into lines (tests, fuzzing). */
int instr_parser_text(struct instr_parser *p, const char *buf, size_t len);

/*
 * The output ended: close a pending status and a test still open (as
 * INSTR_INCOMPLETE).  Returns 0 or the callback's value; call it once.
 */
int instr_parser_end(struct instr_parser *p);

/* The run's summary; borrowed from `p`. */
const struct instr_run *instr_parser_run(const struct instr_parser *p);

/*
 * Why run `r` did not complete cleanly, appended to `why` as one phrase
 * ("the app crashed (Process crashed.)", "instrumentation failed: ...",
 * "the output ended before INSTRUMENTATION_CODE"); returns 1 then, 0
 * for a run that finished (failed tests are not the run's failure).
 */
int instr_run_problem(const struct instr_run *r, struct strbuf *why);

/* "passed", "failed", "error", "ignored", ... for a status code. */
const char *instr_code_name(int code);

#endif
