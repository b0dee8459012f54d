/*
 * test_error.c: the per-thread error slot.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "unit.h"
#include "error.h"

/* set() stores the message and code and returns the code. */
static void
set_returns_code_and_keeps_message(void **state)
{
	assert_int_equal(jg_error_set(JG_EINVAL, "bad number '%s'", "x1"),
	    JG_EINVAL);
	assert_string_equal(jg_error_msg(), "bad number 'x1'");
	assert_int_equal(jg_error_code(), JG_EINVAL);
	jg_error_clear();
	assert_string_equal(jg_error_msg(), "");
	assert_int_equal(jg_error_code(), 0);
}

/* prefix() adds context in front and keeps the code. */
static void
prefix_adds_context(void **state)
{
	jg_error_set(JG_ETIMEOUT, "no answer");
	assert_int_equal(jg_error_prefix("device '%s'", "emu-1"), JG_ETIMEOUT);
	assert_string_equal(jg_error_msg(), "device 'emu-1': no answer");
}

/* errno() appends the system's text. */
static void
errno_appends_strerror(void **state)
{
	jg_error_errno(JG_EIO, ENOENT, "cannot open '%s'", "a.json");
	assert_string_equal(jg_error_msg(),
	    "cannot open 'a.json': No such file or directory");
}

/* An over-long message is cut with "..." instead of overflowing. */
static void
long_message_is_cut(void **state)
{
	char big[5000];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	jg_error_set(JG_EGENERIC, "%s", big);
	assert_true(strlen(jg_error_msg()) < 2048);
	assert_string_equal(jg_error_msg() + strlen(jg_error_msg()) - 3, "...");
}

static void *
other_thread(void *arg)
{
	jg_error_set(JG_EDEVICE, "thread message");
	return (void *)(strcmp(jg_error_msg(), "thread message") == 0 ?
	    arg : NULL);
}

/* Each thread has its own slot: a worker's error does not clobber ours. */
static void
slot_is_per_thread(void **state)
{
	pthread_t t;
	void *res;

	jg_error_set(JG_EINVAL, "main message");
	pthread_create(&t, NULL, other_thread, (void *)1);
	pthread_join(t, &res);
	assert_ptr_equal(res, (void *)1);
	assert_string_equal(jg_error_msg(), "main message");
	assert_int_equal(jg_error_code(), JG_EINVAL);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(set_returns_code_and_keeps_message),
	cmocka_unit_test(prefix_adds_context),
	cmocka_unit_test(errno_appends_strerror),
	cmocka_unit_test(long_message_is_cut),
	cmocka_unit_test(slot_is_per_thread),
};
JG_UNIT_GROUP(error, tests, NULL, NULL)
