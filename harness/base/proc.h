/*
 * proc.h: running the few outside programs jankgate starts.
 *
 * fork + exec with an argv array (never a shell), stdin fed from memory,
 * stdout and stderr captured separately, and a timeout after which the child
 * gets SIGTERM and, 2 s later, SIGKILL.  Used for `adb start-server`, git's
 * helpers in tests, and nothing on a hot path.
 */
#ifndef JG_PROC_H
#define JG_PROC_H

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

struct proc_result {
	int exit_code;		/* 0..255, or -1 when killed by a signal */
	int signal;		/* the signal that ended it, or 0 */
	int timed_out;		/* 1 when we killed it for the timeout */
	struct strbuf out;	/* captured stdout */
	struct strbuf err;	/* captured stderr */
};

struct proc_opts {
	const char *const *env;	/* extra NAME=VALUE entries, NULL-terminated */
	const char *dir;	/* working directory, or NULL */
	const void *in;		/* bytes for stdin (NULL: /dev/null) */
	size_t in_len;
	int timeout_ms;		/* <= 0: none */
};

void proc_result_init(struct proc_result *res);
void proc_result_release(struct proc_result *res);

/*
 * Run argv[0] (looked up in PATH) with `argv` and wait for it.  Returns 0
 * when it ran, whatever its exit code (see res), JG_ENOTFOUND when it could
 * not be executed, JG_ETIMEOUT when it was killed for the timeout (res holds
 * what it printed), JG_EINTR when it was ended for a cancel (cancel.h),
 * JG_EIO on other failures.  `opts` may be NULL.
 */
int proc_run(struct proc_result *res, const char *const argv[],
    const struct proc_opts *opts);

/*
 * SIGKILL the process group of every child proc_run() is waiting for, in
 * any thread.  Async-signal-safe: for the handler of a second SIGINT,
 * which exits at once and must not leave a `git push` to finish alone.
 */
void proc_kill_all(void);

/*
 * 1 when `name` is an executable on PATH (or a path to one), else 0.
 */
int proc_in_path(const char *name);

#endif
