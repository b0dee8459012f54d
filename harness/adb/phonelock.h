/*
 * phonelock.h: one jankgate at a time on a phone, host-wide.
 *
 * Two commands driving one phone interleave their input, and both record
 * what they measured as if the phone had been theirs.  So before `run`,
 * `gate` or `ab` touches a phone it takes an exclusive flock() on a lock
 * file named by the adb server and the serial; the kernel lets go of a
 * flock when its holder dies, so no lock outlives its process.  The
 * holder writes who it is into the file, which is how a command that
 * waits or refuses names it.
 *
 * Where: phonelock_default_dir(), the same directory for every process
 * of the user whatever its environment.  $XDG_RUNTIME_DIR is not used:
 * cron jobs and CI services run without it, and a lock in a directory
 * another jankgate of the same user does not look in locks nothing.
 *
 * A lock file, DIR/<server>@<serial>-<hash>.lock (server and serial with
 * every byte but [A-Za-z0-9._-] as '_', and the first 12 hex digits of
 * the SHA-256 of "<server> <serial>", so two names that reduce alike stay
 * apart), holds while locked:
 *
 *	pid 41234
 *	since 2026-12-05T00:31:02Z
 *	command jankgate -c jankgate.json gate -o night2
 *
 * The holder removes the file before it lets go, so the directory does
 * not fill up; a waiter that then wins the lock on the removed file sees
 * that the path names another file (or none) and starts over.
 */
#ifndef JG_PHONELOCK_H
#define JG_PHONELOCK_H

struct phonelock;

enum phonelock_busy {
	PHONELOCK_WAIT,		/* wait for the holder, up to timeout_ms */
	PHONELOCK_REFUSE,	/* fail at once, naming the holder */
};

struct phonelock_opts {
	const char *dir;	/* NULL: phonelock_default_dir() */
	enum phonelock_busy busy;
	long timeout_ms;	/* PHONELOCK_WAIT: give up after; <= 0: never */
	long notify_ms;		/* between calls to waiting(); <= 0: 30000 */
	/*
	 * Called when the phone is found busy and every notify_ms while the
	 * wait lasts: `holder` describes the holder (phonelock_acquire's
	 * message names it the same way), `waited_ms` the time so far.
	 */
	void (*waiting)(void *arg, const char *serial, const char *holder,
	    long waited_ms);
	/* Polled while waiting; nonzero stops the wait (JG_EINTR).  May be NULL. */
	int (*stop)(void *arg);
	void *arg;
};

/*
 * Lock the phone `serial` of the adb server at `server` for this process.
 * Returns 0 and the lock in *out (release with phonelock_release()), or
 * JG_EBUSY naming the phone and its holder (refused, or the wait timed
 * out), JG_EINTR when o->stop() asked to stop, JG_EIO when the directory
 * or the file cannot be used.  Two locks on one phone conflict within one
 * process too.
 */
int phonelock_acquire(struct phonelock **out, const char *server,
    const char *serial, const struct phonelock_opts *o);

/* Remove the lock file and let go of the phone.  NULL is a no-op. */
void phonelock_release(struct phonelock *l);

/*
 * The path of the lock file for (`server`, `serial`) in `dir` (NULL: the
 * default), as the header draws it.  The caller frees it.
 */
char *phonelock_path(const char *dir, const char *server, const char *serial);

/* /tmp/jankgate-locks-<uid>, the directory when none is given; static. */
const char *phonelock_default_dir(void);

#endif
