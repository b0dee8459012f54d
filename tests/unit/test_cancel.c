/*
 * test_cancel.c: the request to stop (cancel.h) and the adb client's
 * waits, which give up on it instead of waiting out their timeout.
 */
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "adb_conn.h"
#include "cancel.h"
#include "error.h"

static int
forget(void **state)
{
	(void)state;
	cancel_reset();
	cancel_unshield();
	return 0;
}

/* A request is seen at once; a shield holds it off until its time. */
static void
a_shield_holds_off_a_cancel_for_a_while(void **state)
{
	assert_false(cancel_requested());
	assert_false(cancel_pending());
	cancel_request();
	assert_true(cancel_requested());
	assert_true(cancel_pending());
	cancel_shield(300);
	assert_false(cancel_pending());
	usleep(400000);
	assert_true(cancel_pending());
	cancel_shield(10000);
	assert_false(cancel_pending());
	cancel_unshield();
	assert_true(cancel_pending());
}

/*
 * A device command whose answer never comes (a dumpsys that hangs) is
 * abandoned soon after a cancel from another thread, long before the
 * connection's timeout: JG_EINTR.
 */
static void
a_hung_read_is_abandoned(void **state)
{
	struct adb_conn c = { -1, 60000 };
	char buf[4];
	int sv[2];
	pthread_t t;
	double t0;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	    sv), 0);
	c.fd = sv[0];
	t0 = unit_seconds();
	pthread_create(&t, NULL, unit_cancel_soon, NULL);
	assert_int_equal(adb_conn_read_full(&c, buf, sizeof(buf)), JG_EINTR);
	pthread_join(t, NULL);
	assert_true(unit_seconds() - t0 < 2);
	/* The cleanup after it still reads, under its shield. */
	assert_int_equal(write(sv[1], "OKAY", 4), 4);
	cancel_shield(1000);
	assert_int_equal(adb_conn_read_full(&c, buf, sizeof(buf)), 1);
	cancel_unshield();
	adb_conn_close(&c);
	close(sv[1]);
}

/* Without a cancel, a silent peer is still a timeout, in time. */
static void
silence_is_still_a_timeout(void **state)
{
	struct adb_conn c = { -1, 250 };
	char buf[4];
	int sv[2];
	double t0;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
	    sv), 0);
	c.fd = sv[0];
	t0 = unit_seconds();
	assert_int_equal(adb_conn_read_full(&c, buf, sizeof(buf)),
	    JG_ETIMEOUT);
	assert_true(unit_seconds() - t0 >= 0.24 && unit_seconds() - t0 < 2);
	adb_conn_close(&c);
	close(sv[1]);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test_teardown(a_shield_holds_off_a_cancel_for_a_while,
	    forget),
	cmocka_unit_test_teardown(a_hung_read_is_abandoned, forget),
	cmocka_unit_test_teardown(silence_is_still_a_timeout, forget),
};
JG_UNIT_GROUP(cancel, tests, NULL, NULL)
