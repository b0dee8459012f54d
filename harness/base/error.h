/*
 * error.h: how modules report failure.
 *
 * Modules never print and never exit.  A function that can fail returns an
 * int: 0 on success or one of the negative JG_E* codes below, and leaves a
 * human-readable message in a per-thread slot that the caller (ultimately a
 * cmd_*.c file) prints.  The slot is thread-local because device workers run
 * in parallel and each must keep its own last error.
 *
 * Messages follow git's rules: lower-case first word, no trailing period,
 * what failed first, the subject quoted: "cannot open 'feed.scn': ...".
 */
#ifndef JG_ERROR_H
#define JG_ERROR_H

enum jg_err {
	JG_OK = 0,
	JG_EGENERIC = -1,	/* anything not below */
	JG_EINVAL = -2,		/* bad input: config, scenario, file contents */
	JG_ENOTFOUND = -3,	/* a named thing does not exist */
	JG_EIO = -4,		/* OS, disk or network error */
	JG_ETIMEOUT = -5,	/* a peer did not answer in time */
	JG_ECLOSED = -6,	/* a peer closed the connection early */
	JG_EPROTO = -7,		/* a peer broke its protocol */
	JG_EDEVICE = -8,	/* device offline, unauthorized or gone */
	JG_EINTR = -9,		/* stopped by a signal or a caller */
	JG_EAUTH = -10,		/* authentication refused */
	JG_EMISMATCH = -11,	/* inputs that cannot be compared */
	JG_EBUSY = -12,		/* held by another process (a phone's lock) */
};

/*
 * Set this thread's message and return `code`, so a failing path reads
 * `return jg_error_set(JG_EINVAL, "bad number '%s'", s);`.
 */
int jg_error_set(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Like jg_error_set, with ": <strerror(errnum)>" appended.  Returns `code`.
 */
int jg_error_errno(int code, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Put "<prefix>: " in front of the current message, to add context on the
 * way up ("device 'emulator-5554': ...").  Returns the current code.
 */
int jg_error_prefix(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* The current message ("" when none); borrowed, valid until the next set. */
const char *jg_error_msg(void);

/* The code passed to the last jg_error_set on this thread (0 after clear). */
int jg_error_code(void);

/* Forget the current message. */
void jg_error_clear(void);

/* Thread-safe strerror(); the result lives until the next call on the thread. */
const char *jg_strerror(int errnum);

/* A short name for a code ("timeout", "device error"...), never NULL. */
const char *jg_error_name(int code);

#endif
