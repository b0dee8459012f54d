/*
 * test_proc.c: fork/exec with captured output and a timeout.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "cancel.h"
#include "error.h"
#include "proc.h"

static void *
kill_all_soon(void *arg)
{
	(void)arg;
	usleep(200000);
	proc_kill_all();
	return NULL;
}

/* stdout and stderr are captured apart, and the exit code is kept. */
static void
captures_streams_and_exit_code(void **state)
{
	const char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 7",
	    NULL };
	struct proc_result r;

	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, NULL), 0);
	assert_int_equal(r.exit_code, 7);
	assert_string_equal(r.out.buf, "out\n");
	assert_string_equal(r.err.buf, "err\n");
	proc_result_release(&r);
}

/* Arguments reach the program as they are: no shell re-parses them. */
static void
argv_is_not_reparsed(void **state)
{
	const char *hostile = "a b; echo pwned $(id) `id` '\"";
	const char *argv[] = { "printf", "%s", hostile, NULL };
	struct proc_result r;

	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, NULL), 0);
	assert_string_equal(r.out.buf, hostile);
	proc_result_release(&r);
}

/* stdin is fed from memory, larger than a pipe buffer. */
static void
feeds_stdin(void **state)
{
	static char in[200000];
	const char *argv[] = { "wc", "-c", NULL };
	struct proc_opts o = { 0 };
	struct proc_result r;

	memset(in, 'z', sizeof(in));
	o.in = in;
	o.in_len = sizeof(in);
	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, &o), 0);
	assert_int_equal(strtol(r.out.buf, NULL, 10), 200000);
	proc_result_release(&r);
}

/* A program that does not exist is JG_ENOTFOUND, not a failed run. */
static void
missing_program_is_not_found(void **state)
{
	const char *argv[] = { "jankgate-no-such-program", NULL };
	struct proc_result r;

	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, NULL), JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "jankgate-no-such-program"));
	assert_false(proc_in_path("jankgate-no-such-program"));
	assert_true(proc_in_path("sh"));
	proc_result_release(&r);
}

/*
 * A program past its timeout is killed and reported as a timeout, what it
 * wrote before kept.  The timeout leaves the shell a second to start and
 * write: at 200 ms it did not, once, in a sanitizer build while a
 * benchmark loaded both cores (CI, 7 December 2026).
 */
static void
timeout_kills(void **state)
{
	const char *argv[] = { "sh", "-c", "echo started; sleep 30", NULL };
	struct proc_opts o = { 0 };
	struct proc_result r;

	o.timeout_ms = 1000;
	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, &o), JG_ETIMEOUT);
	assert_true(r.timed_out);
	assert_int_equal(r.exit_code, -1);
	assert_string_equal(r.out.buf, "started\n");
	proc_result_release(&r);
}

/* Extra environment entries and the working directory are applied. */
static void
env_and_dir_apply(void **state)
{
	const char *env[] = { "JG_TEST_VALUE=42", NULL };
	const char *argv[] = { "sh", "-c", "echo $JG_TEST_VALUE; pwd", NULL };
	struct proc_opts o = { 0 };
	struct proc_result r;

	o.env = env;
	o.dir = "/";
	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, &o), 0);
	assert_string_equal(r.out.buf, "42\n/\n");
	proc_result_release(&r);
}

/*
 * A cancel while a program runs ends it (SIGTERM to its group, so its
 * children too) and is JG_EINTR, long before its timeout.
 */
static void
cancel_stops_the_program(void **state)
{
	const char *argv[] = { "sh", "-c", "echo started; sleep 30", NULL };
	struct proc_opts o = { 0 };
	struct proc_result r;
	pthread_t t;
	double t0 = unit_seconds();

	o.timeout_ms = 60000;
	proc_result_init(&r);
	pthread_create(&t, NULL, unit_cancel_soon, NULL);
	assert_int_equal(proc_run(&r, argv, &o), JG_EINTR);
	pthread_join(t, NULL);
	cancel_reset();
	assert_true(unit_seconds() - t0 < 5);
	assert_false(r.timed_out);
	assert_string_equal(r.out.buf, "started\n");
	proc_result_release(&r);
}

/* A program that ignores SIGTERM is killed after the cancel's grace. */
static void
cancel_kills_a_deaf_program(void **state)
{
	const char *argv[] = { "sh", "-c", "trap '' TERM; sleep 30", NULL };
	struct proc_result r;
	pthread_t t;
	double t0 = unit_seconds();

	proc_result_init(&r);
	pthread_create(&t, NULL, unit_cancel_soon, NULL);
	assert_int_equal(proc_run(&r, argv, NULL), JG_EINTR);
	pthread_join(t, NULL);
	cancel_reset();
	assert_true(unit_seconds() - t0 < 5);
	assert_int_equal(r.signal, SIGKILL);
	proc_result_release(&r);
}

/*
 * proc_kill_all() (a second signal's handler) kills the running program's
 * whole group at once, SIGTERM or not.
 */
static void
kill_all_kills_running_groups(void **state)
{
	const char *argv[] = { "sh", "-c", "trap '' TERM; sleep 30", NULL };
	struct proc_result r;
	pthread_t t;
	double t0 = unit_seconds();

	proc_result_init(&r);
	pthread_create(&t, NULL, kill_all_soon, NULL);
	assert_int_equal(proc_run(&r, argv, NULL), 0);
	pthread_join(t, NULL);
	assert_true(unit_seconds() - t0 < 5);
	assert_int_equal(r.signal, SIGKILL);
	proc_result_release(&r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(captures_streams_and_exit_code),
	cmocka_unit_test(argv_is_not_reparsed),
	cmocka_unit_test(feeds_stdin),
	cmocka_unit_test(missing_program_is_not_found),
	cmocka_unit_test(timeout_kills),
	cmocka_unit_test(env_and_dir_apply),
	cmocka_unit_test_teardown(cancel_stops_the_program, unit_cancel_forget),
	cmocka_unit_test_teardown(cancel_kills_a_deaf_program, unit_cancel_forget),
	cmocka_unit_test(kill_all_kills_running_groups),
};
JG_UNIT_GROUP(proc, tests, NULL, NULL)
