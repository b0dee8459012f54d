/*
 * test_phonelock.c: the host-wide lock on a phone (phonelock.h).
 *
 * Holders in other processes are forked children that lock and then
 * wait on a pipe; killing one shows what the kernel does with its lock.
 * Every test uses a directory of its own under the unit tests' temporary
 * directory, never the host's /tmp/jankgate-locks-UID.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "error.h"
#include "phonelock.h"
#include "strbuf.h"
#include "xalloc.h"

#define SERVER "tcp:127.0.0.1:5037"

static char *
test_dir(const char *name)
{
	return xasprintf("%s/locks-%s", unit_tmpdir(), name);
}

struct child {
	pid_t pid;
	int release_fd;		/* write a byte (or close) to let go */
};

/*
 * Fork a child that runs `hold`: it takes a lock, writes a byte to
 * `ready_fd` once it holds it, lets go when a byte (or end of file)
 * comes on `go_fd` or as it says, and returns 0 (the child's exit status).
 * Returns once the child holds the lock.
 */
static void
fork_holder(struct child *ch, int (*hold)(const void *arg, int ready_fd,
    int go_fd), const void *arg)
{
	int ready[2], go[2];
	char c;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	ch->pid = fork();
	assert_true(ch->pid >= 0);
	if (!ch->pid) {
		close(ready[0]);
		close(go[1]);
		_exit(hold(arg, ready[1], go[0]) ? 1 : 0);
	}
	close(ready[1]);
	close(go[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	ch->release_fd = go[1];
}

struct holder {
	const char *dir, *serial;
	int hold_ms;		/* 0: until told through release_fd */
};

/* A holder through phonelock_acquire(), as another jankgate is. */
static int
hold_phone(const void *arg, int ready_fd, int go_fd)
{
	const struct holder *h = arg;
	struct phonelock_opts o = { .dir = h->dir, .busy = PHONELOCK_REFUSE };
	struct phonelock *l;
	char c;

	if (phonelock_acquire(&l, SERVER, h->serial, &o) ||
	    write(ready_fd, "x", 1) != 1)
		return -1;
	if (h->hold_ms)
		usleep(h->hold_ms * 1000);
	else if (read(go_fd, &c, 1) < 0)
		return -1;
	phonelock_release(l);
	return 0;
}

/*
 * Fork a holder of (SERVER, serial): returns once it holds the lock.  It
 * lets go after `hold_ms` (0: when told through release_fd) and exits.
 */
static void
start_holder(struct child *ch, const char *dir, const char *serial,
    int hold_ms)
{
	const struct holder h = { dir, serial, hold_ms };

	fork_holder(ch, hold_phone, &h);
}

static int
wait_child(struct child *ch)
{
	int st;

	close(ch->release_fd);
	assert_int_equal(waitpid(ch->pid, &st, 0), ch->pid);
	return st;
}

struct seen {
	int calls;
	char holder[512];
	int stop_after;		/* stop() says yes from this call on; 0: never */
	int polls;
};

static void
note_waiting(void *arg, const char *serial, const char *holder,
    long waited_ms)
{
	struct seen *s = arg;

	s->calls++;
	snprintf(s->holder, sizeof(s->holder), "%s", holder);
}

static int
stop_when_told(void *arg)
{
	struct seen *s = arg;

	return s->stop_after && ++s->polls >= s->stop_after;
}

/* A phone locked by another process is refused, naming it and its holder. */
static void
refuse_names_the_phone_and_the_holder(void **state)
{
	char *dir = test_dir("refuse");
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_REFUSE };
	struct phonelock *l = (void *)1;
	struct child ch;
	char pid[32];

	start_holder(&ch, dir, "emulator-5554", 0);
	assert_int_equal(phonelock_acquire(&l, SERVER, "emulator-5554", &o),
	    JG_EBUSY);
	assert_null(l);
	snprintf(pid, sizeof(pid), "pid %ld (", (long)ch.pid);
	assert_non_null(strstr(jg_error_msg(), "device 'emulator-5554'"));
	assert_non_null(strstr(jg_error_msg(), pid));
	assert_non_null(strstr(jg_error_msg(), "unit-tests"));
	assert_non_null(strstr(jg_error_msg(), ", since 2"));
	assert_int_equal(wait_child(&ch), 0);
	free(dir);
}

/* A process that locks the file, then writes itself 300 ms later. */
static int
hold_and_write_late(const void *arg, int ready_fd, int go_fd)
{
	int fd = open(arg, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	char who[128], c;
	int len;

	if (fd < 0 || flock(fd, LOCK_EX) || write(ready_fd, "x", 1) != 1)
		return -1;
	usleep(300 * 1000);
	len = snprintf(who, sizeof(who), "pid %ld\ncommand late-holder\n"
	    "since 2026-12-05T00:00:00Z\n", (long)getpid());
	if (pwrite(fd, who, (size_t)len, 0) != len || read(go_fd, &c, 1) < 0)
		return -1;
	return 0;
}

/*
 * A holder writes who it is just after it takes the lock.  One caught in
 * between (here: a process that locks the file, then writes itself 300 ms
 * later) is still named by the waiter, which gives it a moment to.
 */
static void
refuse_names_a_holder_that_writes_itself_late(void **state)
{
	char *dir = test_dir("late");
	char *path = phonelock_path(dir, SERVER, "late-5554");
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_REFUSE };
	struct phonelock *l = (void *)1;
	struct child ch;
	char pid[32];

	assert_true(mkdir(dir, 0700) == 0 || errno == EEXIST);
	fork_holder(&ch, hold_and_write_late, path);
	assert_int_equal(phonelock_acquire(&l, SERVER, "late-5554", &o),
	    JG_EBUSY);
	assert_null(l);
	snprintf(pid, sizeof(pid), "pid %ld (late-holder)", (long)ch.pid);
	assert_non_null(strstr(jg_error_msg(), pid));
	assert_int_equal(wait_child(&ch), 0);
	free(path);
	free(dir);
}

/* Within one process too, one phone has one holder at a time. */
static void
second_lock_in_one_process_is_refused(void **state)
{
	char *dir = test_dir("self");
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_REFUSE };
	struct phonelock *a, *b;

	assert_int_equal(phonelock_acquire(&a, SERVER, "p1", &o), 0);
	assert_int_equal(phonelock_acquire(&b, SERVER, "p1", &o), JG_EBUSY);
	phonelock_release(a);
	assert_int_equal(phonelock_acquire(&b, SERVER, "p1", &o), 0);
	phonelock_release(b);
	phonelock_release(NULL);
	free(dir);
}

/* Another serial, or the same serial on another adb server, is free. */
static void
other_phones_and_servers_are_free(void **state)
{
	char *dir = test_dir("others");
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_REFUSE };
	struct phonelock *a, *b, *c;

	assert_int_equal(phonelock_acquire(&a, SERVER, "p1", &o), 0);
	assert_int_equal(phonelock_acquire(&b, SERVER, "p2", &o), 0);
	assert_int_equal(phonelock_acquire(&c, "tcp:10.0.0.7:5037", "p1",
	    &o), 0);
	phonelock_release(a);
	phonelock_release(b);
	phonelock_release(c);
	free(dir);
}

/*
 * The file's name is readable and safe, and two names that reduce to the
 * same characters still name two files.
 */
static void
paths_are_safe_and_distinct(void **state)
{
	char *a = phonelock_path("/d", "tcp:127.0.0.1:5037",
	    "127.0.0.1:40001");
	char *b = phonelock_path("/d", "tcp:127.0.0.1:5037",
	    "127.0.0.1_40001");
	char *c = phonelock_path(NULL, "s", "../x");

	assert_non_null(strstr(a, "/d/tcp_127.0.0.1_5037@127.0.0.1_40001-"));
	assert_int_equal(strlen(strrchr(a, '-')), strlen("-") + 12 +
	    strlen(".lock"));
	assert_string_not_equal(a, b);
	assert_int_equal(strncmp(c, phonelock_default_dir(),
	    strlen(phonelock_default_dir())), 0);
	assert_null(strstr(c + strlen(phonelock_default_dir()) + 1, "/"));
	free(a);
	free(b);
	free(c);
}

/* A holder that dies holds nothing: the kernel lets go of its lock. */
static void
a_dead_holder_leaves_no_stale_lock(void **state)
{
	char *dir = test_dir("dead");
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_REFUSE };
	struct phonelock *l;
	struct child ch;
	char *path = phonelock_path(dir, SERVER, "p1");
	int st;

	start_holder(&ch, dir, "p1", 0);
	assert_int_equal(phonelock_acquire(&l, SERVER, "p1", &o), JG_EBUSY);
	assert_int_equal(kill(ch.pid, SIGKILL), 0);
	st = wait_child(&ch);
	assert_true(WIFSIGNALED(st));
	/* its file is still there, with a dead pid in it */
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(phonelock_acquire(&l, SERVER, "p1", &o), 0);
	phonelock_release(l);
	/* a holder that lets go removes its file */
	assert_int_not_equal(access(path, F_OK), 0);
	free(path);
	free(dir);
}

/*
 * Waiting, the caller hears who holds the phone, and gets it once the
 * holder lets go.
 */
static void
wait_gets_the_phone_when_the_holder_lets_go(void **state)
{
	char *dir = test_dir("wait");
	struct seen s = { 0 };
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_WAIT,
	    .timeout_ms = 20000, .notify_ms = 100, .waiting = note_waiting,
	    .arg = &s };
	struct phonelock *l;
	struct child ch;
	char pid[32];

	start_holder(&ch, dir, "p1", 700);
	assert_int_equal(phonelock_acquire(&l, SERVER, "p1", &o), 0);
	assert_true(s.calls >= 2);
	snprintf(pid, sizeof(pid), "pid %ld (", (long)ch.pid);
	assert_non_null(strstr(s.holder, pid));
	assert_int_equal(wait_child(&ch), 0);
	phonelock_release(l);
	free(dir);
}

/* A wait gives up at its timeout, and at once when stop() says so. */
static void
wait_gives_up_at_its_timeout_or_when_stopped(void **state)
{
	char *dir = test_dir("timeout");
	struct seen s = { 0 };
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_WAIT,
	    .timeout_ms = 500, .waiting = note_waiting,
	    .stop = stop_when_told, .arg = &s };
	struct phonelock *l;
	struct child ch;

	start_holder(&ch, dir, "p1", 0);
	assert_int_equal(phonelock_acquire(&l, SERVER, "p1", &o), JG_EBUSY);
	assert_non_null(strstr(jg_error_msg(), "still in use by pid"));
	assert_int_equal(s.calls, 1);	/* notify_ms defaults to 30 s */
	s.stop_after = 2;
	o.timeout_ms = 0;		/* forever, but for stop() */
	assert_int_equal(phonelock_acquire(&l, SERVER, "p1", &o), JG_EINTR);
	assert_int_equal(s.polls, 2);
	assert_int_equal(wait_child(&ch), 0);
	free(dir);
}

/* A lock directory others can write to is refused, not used. */
static void
a_shared_directory_is_refused(void **state)
{
	char *dir = test_dir("shared");
	struct phonelock_opts o = { .dir = dir, .busy = PHONELOCK_REFUSE };
	struct phonelock *l;

	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(phonelock_acquire(&l, SERVER, "p1", &o), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), dir));
	free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(refuse_names_the_phone_and_the_holder),
	cmocka_unit_test(refuse_names_a_holder_that_writes_itself_late),
	cmocka_unit_test(second_lock_in_one_process_is_refused),
	cmocka_unit_test(other_phones_and_servers_are_free),
	cmocka_unit_test(paths_are_safe_and_distinct),
	cmocka_unit_test(a_dead_holder_leaves_no_stale_lock),
	cmocka_unit_test(wait_gets_the_phone_when_the_holder_lets_go),
	cmocka_unit_test(wait_gives_up_at_its_timeout_or_when_stopped),
	cmocka_unit_test(a_shared_directory_is_refused),
};
JG_UNIT_GROUP(phonelock, tests, NULL, NULL)
