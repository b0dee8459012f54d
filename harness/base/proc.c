/*
 * proc.c: fork/exec with captured output and a timeout (see proc.h).
 *
 * exec failures travel back over a close-on-exec pipe: the child writes its
 * errno there when execvp fails, and the parent reads 0 bytes when the exec
 * succeeded.  That tells "not installed" apart from "ran and failed".
 *
 * A program may leave a daemon behind that inherited our pipes (`adb
 * start-server` does this); so once the child itself has exited, the pipes
 * are drained for a short moment and then abandoned rather than waited on.
 *
 * A cancel (cancel.h) ends the child as the timeout does, with a shorter
 * grace: SIGTERM first, so that git, say, removes its lock files.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cancel.h"
#include "error.h"
#include "monoclock.h"
#include "proc.h"
#include "xalloc.h"
#include "banned.h"

#define KILL_GRACE_MS 2000
#define CANCEL_GRACE_MS 1000
#define DRAIN_AFTER_EXIT_MS 200

/*
 * The process groups of the children running now, for proc_kill_all():
 * lock-free atomics, which a signal handler may touch.  A child beyond
 * LIVE_MAX at once is not listed (jankgate runs one or two).
 */
#define LIVE_MAX 16
static _Atomic int live[LIVE_MAX];

static void
live_add(pid_t pid)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		int none = 0;

		if (atomic_compare_exchange_strong(&live[i], &none, (int)pid))
			return;
	}
}

static void
live_remove(pid_t pid)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		int p = (int)pid;

		if (atomic_compare_exchange_strong(&live[i], &p, 0))
			return;
	}
}

void
proc_kill_all(void)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		int p = atomic_load(&live[i]);

		if (p > 0)
			kill(-p, SIGKILL);
	}
}

void
proc_result_init(struct proc_result *res)
{
	memset(res, 0, sizeof(*res));
	strbuf_init(&res->out, 0);
	strbuf_init(&res->err, 0);
}

void
proc_result_release(struct proc_result *res)
{
	strbuf_release(&res->out);
	strbuf_release(&res->err);
}

int
proc_in_path(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	int found = 0;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	if (!path)
		path = "/usr/bin:/bin";
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	    dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *dir ? dir : ".", name);
		struct stat st;

		found = stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(full, X_OK) == 0;
		free(full);
	}
	free(copy);
	return found;
}

static void __attribute__((noreturn))
child(const char *const argv[], const struct proc_opts *o, int in_fd,
    int out_fd, int err_fd, int report_fd)
{
	int e;

	setpgid(0, 0);	/* own group, so a timeout kills its children too */
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		goto fail;
	if (o && o->dir && chdir(o->dir) < 0)
		goto fail;
	if (o && o->env)
		for (const char *const *p = o->env; *p; p++)
			putenv((char *)*p);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], (char *const *)argv);
fail:
	e = errno;
	/* Nothing more can be reported if this write fails: exit either way. */
	(void)!write(report_fd, &e, sizeof(e));
	_exit(127);
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int
proc_run(struct proc_result *res, const char *const argv[],
    const struct proc_opts *opts)
{
	int in_p[2] = { -1, -1 }, out_p[2], err_p[2], rep_p[2];
	const char *in = opts ? opts->in : NULL;
	size_t in_left = opts ? opts->in_len : 0;
	int timeout = opts ? opts->timeout_ms : 0;
	long long start = monoclock_real_ms(), exited_at = 0, kill_at = 0;
	int status = 0, have_status = 0, cancelled = 0, e, rc = 0;
	pid_t pid;
	ssize_t n;

	if (pipe2(out_p, O_CLOEXEC) < 0)
		return jg_error_errno(JG_EIO, errno, "cannot run '%s'", argv[0]);
	if (pipe2(err_p, O_CLOEXEC) < 0 || pipe2(rep_p, O_CLOEXEC) < 0 ||
	    (in ? pipe2(in_p, O_CLOEXEC) :
	    ((in_p[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0 ? -1 : 0)) < 0)
		return jg_error_errno(JG_EIO, errno, "cannot run '%s'", argv[0]);

	pid = fork();
	if (pid < 0)
		return jg_error_errno(JG_EIO, errno, "cannot run '%s'", argv[0]);
	if (pid == 0)
		child(argv, opts, in_p[0], out_p[1], err_p[1], rep_p[1]);
	setpgid(pid, pid);	/* as the child does: kill(-pid) at once */
	live_add(pid);

	close_fd(&in_p[0]);
	close_fd(&out_p[1]);
	close_fd(&err_p[1]);
	close_fd(&rep_p[1]);
	if (!in)
		in_p[1] = -1;
	else
		fcntl(in_p[1], F_SETFL, O_NONBLOCK);

	n = read(rep_p[0], &e, sizeof(e));
	close_fd(&rep_p[0]);
	if (n == (ssize_t)sizeof(e)) {
		live_remove(pid);
		waitpid(pid, NULL, 0);
		close_fd(&in_p[1]);
		close_fd(&out_p[0]);
		close_fd(&err_p[0]);
		return jg_error_errno(e == ENOENT ? JG_ENOTFOUND : JG_EIO, e,
		    "cannot run '%s'", argv[0]);
	}

	for (;;) {
		struct pollfd pf[3];
		int nf = 0, wait_ms = 100;
		long long now = monoclock_real_ms();

		if (!have_status && waitpid(pid, &status, WNOHANG) == pid) {
			live_remove(pid);
			have_status = 1;
			exited_at = now;
		}
		if (have_status && ((out_p[0] < 0 && err_p[0] < 0) ||
		    now - exited_at > DRAIN_AFTER_EXIT_MS))
			break;
		if (!have_status && timeout > 0 && !kill_at &&
		    now - start > timeout) {
			res->timed_out = 1;
			kill(-pid, SIGTERM);
			kill_at = now;
		}
		if (!have_status && !kill_at && cancel_pending()) {
			cancelled = 1;
			kill(-pid, SIGTERM);
			kill_at = now;
		}
		if (kill_at && !have_status && now - kill_at >
		    (cancelled ? CANCEL_GRACE_MS : KILL_GRACE_MS))
			kill(-pid, SIGKILL);

		if (out_p[0] >= 0)
			pf[nf++] = (struct pollfd){ out_p[0], POLLIN, 0 };
		if (err_p[0] >= 0)
			pf[nf++] = (struct pollfd){ err_p[0], POLLIN, 0 };
		if (in_p[1] >= 0)
			pf[nf++] = (struct pollfd){ in_p[1], POLLOUT, 0 };
		if (have_status)
			wait_ms = 20;
		/*
		 * Output closed but the child still running: check often,
		 * so its exit (or a cancel) is seen within milliseconds, not
		 * a whole poll period.
		 */
		if (!nf && !have_status)
			wait_ms = 2;
		if (poll(pf, (nfds_t)nf, wait_ms) < 0 && errno != EINTR) {
			rc = jg_error_errno(JG_EIO, errno, "poll");
			break;
		}
		for (int i = 0; i < nf; i++) {
			char buf[16384];

			if (!pf[i].revents)
				continue;
			if (pf[i].fd == in_p[1]) {
				n = write(in_p[1], in, in_left);
				if (n > 0) {
					in += n;
					in_left -= (size_t)n;
				}
				if ((n < 0 && errno != EAGAIN) || !in_left)
					close_fd(&in_p[1]);
				continue;
			}
			n = read(pf[i].fd, buf, sizeof(buf));
			if (n > 0) {
				strbuf_add(pf[i].fd == out_p[0] ? &res->out :
				    &res->err, buf, (size_t)n);
			} else if (n == 0 || errno != EINTR) {
				if (pf[i].fd == out_p[0])
					close_fd(&out_p[0]);
				else
					close_fd(&err_p[0]);
			}
		}
	}
	close_fd(&in_p[1]);
	close_fd(&out_p[0]);
	close_fd(&err_p[0]);
	if (!have_status)
		waitpid(pid, &status, 0);
	live_remove(pid);
	if (WIFEXITED(status)) {
		res->exit_code = WEXITSTATUS(status);
	} else {
		res->exit_code = -1;
		res->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
	if (!rc && cancelled)
		rc = jg_error_set(JG_EINTR, "'%s' was stopped: interrupted",
		    argv[0]);
	else if (!rc && res->timed_out)
		rc = jg_error_set(JG_ETIMEOUT, "'%s' did not finish within %d ms",
		    argv[0], timeout);
	return rc;
}
