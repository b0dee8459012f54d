/*
 * test_instrument.c: the `am instrument -r` status protocol (instrument.h)
 * as AndroidJUnitRunner and the activity manager print it: passing tests,
 * a failure with its stack, the app crashing mid-test, a runner that does
 * not exist, and output that stops halfway.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "instrument.h"
#include "strbuf.h"

/* What the callback saw, one line per event: "+cls#test" / "-cls#test code". */
struct seen {
	struct strbuf log;
	struct strbuf stacks;	/* every end's stack, "|" between */
};

static int
record(void *arg, const struct instr_test *t)
{
	struct seen *s = arg;

	if (!t->end) {
		strbuf_addf(&s->log, "+%s#%s\n", t->cls, t->test);
		return 0;
	}
	strbuf_addf(&s->log, "-%s#%s %d\n", t->cls, t->test, t->code);
	if (t->stack)
		strbuf_addf(&s->stacks, "%s|", t->stack);
	return 0;
}

#define ST(k, v) "INSTRUMENTATION_STATUS: " k "=" v "\n"
#define HEAD(cls, test, n) ST("class", cls) ST("current", n) \
	ST("id", "AndroidJUnitRunner") ST("numtests", "3")
#define START(cls, test, n) HEAD(cls, test, n) ST("stream", "") cls ":\n" \
	ST("test", test) "INSTRUMENTATION_STATUS_CODE: 1\n"
#define PASS(cls, test, n) HEAD(cls, test, n) ST("stream", ".") \
	ST("test", test) "INSTRUMENTATION_STATUS_CODE: 0\n"
#define OK_END "INSTRUMENTATION_RESULT: stream=\n\nTime: 4.52\n\n" \
	"OK (2 tests)\n\n\nINSTRUMENTATION_CODE: -1\n"

#define FEED "com.example.shop.test.FeedTest"
#define CHECKOUT "com.example.shop.test.CheckoutTest"

#define STACK "java.lang.AssertionError: total is 12.00, expected 10.00\n" \
	"\tat org.junit.Assert.fail(Assert.java:89)\n" \
	"\tat com.example.shop.test.CheckoutTest.failOnPurpose" \
	"(CheckoutTest.java:41)"

static void
parse(const char *text, struct seen *s, struct instr_run *run, bool end)
{
	struct instr_parser *p = instr_parser_new(record, s);

	strbuf_init(&s->log, 0);
	strbuf_init(&s->stacks, 0);
	assert_int_equal(instr_parser_text(p, text, strlen(text)), 0);
	if (end)
		assert_int_equal(instr_parser_end(p), 0);
	*run = *instr_parser_run(p);
	/* The strings go with the parser: keep the flags only. */
	run->short_msg = run->failed = NULL;
	instr_parser_free(p);
}

static void
release(struct seen *s)
{
	strbuf_release(&s->log);
	strbuf_release(&s->stacks);
}

/* Two passing tests: a start and an end each, a finished run, no problem. */
static void
two_tests_pass(void **state)
{
	struct seen s;
	struct instr_run run;
	struct strbuf why = STRBUF_INIT;

	parse(START(FEED, "scrollFeed", "1") PASS(FEED, "scrollFeed", "1")
	    START(CHECKOUT, "placeOrder", "2") PASS(CHECKOUT, "placeOrder", "2")
	    OK_END, &s, &run, true);
	assert_string_equal(s.log.buf,
	    "+" FEED "#scrollFeed\n-" FEED "#scrollFeed 0\n"
	    "+" CHECKOUT "#placeOrder\n-" CHECKOUT "#placeOrder 0\n");
	assert_string_equal(s.stacks.buf, "");
	assert_true(run.finished);
	assert_int_equal(run.code, -1);
	assert_int_equal(run.started, 2);
	assert_int_equal(run.failures, 0);
	assert_int_equal(instr_run_problem(&run, &why), 0);
	strbuf_release(&why);
	release(&s);
}

/* A failure: code -2 with the whole multi-line stack, tabs kept. */
static void
failure_keeps_stack(void **state)
{
	struct seen s;
	struct instr_run run;

	parse(START(CHECKOUT, "failOnPurpose", "1")
	    HEAD(CHECKOUT, "failOnPurpose", "1")
	    ST("stack", STACK)
	    ST("stream", "\nError in failOnPurpose(" CHECKOUT "):\n" STACK)
	    ST("test", "failOnPurpose") "INSTRUMENTATION_STATUS_CODE: -2\n"
	    "INSTRUMENTATION_RESULT: stream=\n\nTime: 1\nFAILURES!!!\n"
	    "Tests run: 1,  Failures: 1\n\nINSTRUMENTATION_CODE: -1\n",
	    &s, &run, true);
	assert_string_equal(s.log.buf, "+" CHECKOUT "#failOnPurpose\n-"
	    CHECKOUT "#failOnPurpose -2\n");
	assert_string_equal(s.stacks.buf, STACK "|");
	assert_int_equal(run.failures, 1);
	assert_true(run.finished);
	assert_false(run.crashed);
	release(&s);
}

/*
 * The app crashes inside a test: the runner reports that test failed
 * with the crash's stack, then the run ends with "Process crashed.".
 */
static void
crash_mid_test(void **state)
{
	static const char text[] = START(FEED, "scrollFeed", "1")
	    HEAD(FEED, "scrollFeed", "1")
	    ST("stack", "java.lang.IllegalStateException: adapter gone\n"
	    "\tat com.example.shop.FeedAdapter.bind(FeedAdapter.java:7)")
	    ST("test", "scrollFeed") "INSTRUMENTATION_STATUS_CODE: -2\n"
	    "INSTRUMENTATION_RESULT: shortMsg=Process crashed.\n"
	    "INSTRUMENTATION_CODE: 0\n";
	struct seen s = { STRBUF_INIT, STRBUF_INIT };
	struct instr_parser *p = instr_parser_new(record, &s);
	struct strbuf why = STRBUF_INIT;

	instr_parser_text(p, text, sizeof(text) - 1);
	instr_parser_end(p);
	assert_true(instr_parser_run(p)->crashed);
	assert_int_equal(instr_parser_run(p)->code, 0);
	assert_int_equal(instr_run_problem(instr_parser_run(p), &why), 1);
	assert_string_equal(why.buf, "the app crashed (Process crashed.)");
	assert_non_null(strstr(s.stacks.buf,
	    "IllegalStateException: adapter gone\n\tat "));
	release(&s);
	instr_parser_free(p);
	strbuf_release(&why);
}

/* An older runner: the crash ends the run with the test still open. */
static void
crash_leaves_test_open(void **state)
{
	struct seen s;
	struct instr_run run;

	parse(START(FEED, "scrollFeed", "1")
	    "INSTRUMENTATION_RESULT: shortMsg=Process crashed.\n"
	    "INSTRUMENTATION_CODE: 0\n", &s, &run, true);
	assert_string_equal(s.log.buf, "+" FEED "#scrollFeed\n-" FEED
	    "#scrollFeed -100\n");
	assert_true(run.crashed);
	assert_int_equal(run.failures, 1);
	release(&s);
}

/*
 * Truncated output (the device went away mid-test): the open test ends
 * as incomplete, the run is not finished, and the problem says so; a
 * half-read status block starts nothing.
 */
static void
truncated_output(void **state)
{
	struct seen s;
	struct instr_run run;
	struct strbuf why = STRBUF_INIT;

	parse(START(FEED, "scrollFeed", "1") PASS(FEED, "scrollFeed", "1")
	    START(CHECKOUT, "placeOrder", "2") HEAD(CHECKOUT, "placeOrder",
	    "2") ST("stream", "."), &s, &run, true);
	assert_string_equal(s.log.buf,
	    "+" FEED "#scrollFeed\n-" FEED "#scrollFeed 0\n"
	    "+" CHECKOUT "#placeOrder\n-" CHECKOUT "#placeOrder -100\n");
	assert_false(run.finished);
	assert_int_equal(instr_run_problem(&run, &why), 1);
	assert_non_null(strstr(why.buf, "ended before INSTRUMENTATION_CODE"));
	strbuf_release(&why);
	release(&s);
}

/* No such runner: the activity manager's Error= and INSTRUMENTATION_FAILED. */
static void
runner_not_found(void **state)
{
	static const char text[] =
	    "INSTRUMENTATION_STATUS: id=ActivityManagerService\n"
	    "INSTRUMENTATION_STATUS: Error=Unable to find instrumentation "
	    "info for: ComponentInfo{com.x.test/com.x.Nope}\n"
	    "INSTRUMENTATION_STATUS_CODE: -1\n"
	    "android.util.AndroidException: INSTRUMENTATION_FAILED: "
	    "com.x.test/com.x.Nope\n"
	    "\tat com.android.commands.am.Instrument.run(Instrument.java:519)\n";
	struct instr_parser *p = instr_parser_new(NULL, NULL);
	struct strbuf why = STRBUF_INIT;

	instr_parser_text(p, text, sizeof(text) - 1);
	instr_parser_end(p);
	assert_int_equal(instr_parser_run(p)->started, 0);
	assert_int_equal(instr_run_problem(instr_parser_run(p), &why), 1);
	assert_string_equal(why.buf, "instrumentation failed: Unable to find "
	    "instrumentation info for: ComponentInfo{com.x.test/com.x.Nope}");
	instr_parser_free(p);
	strbuf_release(&why);
}

/* Ignored and assumption-failed tests end with their codes, not failures. */
static void
ignored_and_assumption(void **state)
{
	struct seen s;
	struct instr_run run;

	parse(START(FEED, "a", "1") HEAD(FEED, "a", "1") ST("test", "a")
	    "INSTRUMENTATION_STATUS_CODE: -3\n"
	    START(FEED, "b", "2") HEAD(FEED, "b", "2")
	    ST("stack", "org.junit.AssumptionViolatedException: no net")
	    ST("test", "b") "INSTRUMENTATION_STATUS_CODE: -4\n" OK_END,
	    &s, &run, true);
	assert_string_equal(s.log.buf, "+" FEED "#a\n-" FEED "#a -3\n+" FEED
	    "#b\n-" FEED "#b -4\n");
	assert_int_equal(run.failures, 0);
	release(&s);
}

/*
 * CRLF line ends (a legacy shell's pty), progress statuses (code 2) and
 * noise lines change nothing; an end without a start gets one first.
 */
static void
crlf_progress_and_noise(void **state)
{
	struct seen s;
	struct instr_run run;

	parse("WARNING: linker: something\r\n"
	    ST("class", FEED) ST("test", "x") "INSTRUMENTATION_STATUS_CODE: 2\r\n"
	    HEAD(FEED, "x", "1") ST("test", "x")
	    "INSTRUMENTATION_STATUS_CODE: -2\r\n" OK_END, &s, &run, true);
	assert_string_equal(s.log.buf, "+" FEED "#x\n-" FEED "#x -2\n");
	release(&s);
}

static int
stop_at_first(void *arg, const struct instr_test *t)
{
	++*(int *)arg;
	return -7;
}

/* A callback's error stops the parser and is returned from then on. */
static void
callback_value_returned(void **state)
{
	static const char text[] = START(FEED, "a", "1") PASS(FEED, "a", "1");
	int calls = 0;
	struct instr_parser *p = instr_parser_new(stop_at_first, &calls);

	assert_int_equal(instr_parser_text(p, text, sizeof(text) - 1), -7);
	assert_int_equal(instr_parser_line(p, "x", 1), -7);
	assert_int_equal(instr_parser_end(p), -7);
	assert_int_equal(calls, 1);
	instr_parser_free(p);
}

/* A value longer than INSTR_MAX_VALUE is cut there, not grown. */
static void
value_is_capped(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct seen s;
	struct instr_run run;

	strbuf_addstr(&text, START(FEED, "a", "1") HEAD(FEED, "a", "1")
	    ST("stack", "java.lang.Error: big"));
	for (int i = 0; i < 5000; i++)
		strbuf_addstr(&text, "\tat a.very.long.frame.Name(Name.java)\n");
	strbuf_addstr(&text, ST("test", "a") "INSTRUMENTATION_STATUS_CODE: -2\n");
	parse(text.buf, &s, &run, true);
	/* The stack plus its "|" separator. */
	assert_int_equal(s.stacks.len, INSTR_MAX_VALUE + 1);
	strbuf_release(&text);
	release(&s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(two_tests_pass),
	cmocka_unit_test(failure_keeps_stack),
	cmocka_unit_test(crash_mid_test),
	cmocka_unit_test(crash_leaves_test_open),
	cmocka_unit_test(truncated_output),
	cmocka_unit_test(runner_not_found),
	cmocka_unit_test(ignored_and_assumption),
	cmocka_unit_test(crlf_progress_and_noise),
	cmocka_unit_test(callback_value_returned),
	cmocka_unit_test(value_is_capped),
};

JG_UNIT_GROUP(instrument, tests, NULL, NULL)
