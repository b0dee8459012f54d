/*
 * simio.h: standard input, output and error of a simulated shell command.
 *
 * A command never sees the adb stream directly.  It reads stdin and writes
 * stdout/stderr through a struct simio, which the shell points at the
 * session's channel or, for redirections and pipes, at memory:
 *
 *   channel (struct simchan)       one per session:
 *     raw stream    legacy `shell:`, `exec:`, `abb_exec:`: bytes as they
 *                   are, stdout and stderr mixed;
 *     shell v2      `shell,v2,...:`, `abb:`: packets id 1 (stdout), 2
 *                   (stderr), 3 (exit) out; 0 (stdin) and 4 (close stdin)
 *                   in (docs/adb.md §3.3);
 *     stdio         the simdevice process's own fds (--exec mode).
 *
 * Calls report the client's disappearance: writes return -1, reads return
 * 0, simio_sleep() returns -1 early and simio_closed() turns 1, so a
 * streaming command (logcat) ends as soon as its stream is closed.
 */
#ifndef SIM_SIMIO_H
#define SIM_SIMIO_H

#include <stddef.h>

struct simchan;
struct simstream;
struct strbuf;

/* A channel on `st`, with shell-v2 framing when `v2`; freed by the caller. */
struct simchan *simchan_new_stream(struct simstream *st, int v2);
/* A channel on fds 0, 1 and 2. */
struct simchan *simchan_new_stdio(void);
/* Free the channel (not its stream); NULL is a no-op. */
void simchan_free(struct simchan *ch);

/* Send the exit status (shell v2 only; a no-op otherwise). */
void simchan_exit(struct simchan *ch, int status);

/* 1 when the channel frames output (shell v2). */
int simchan_is_v2(const struct simchan *ch);

/* Where a command's stdout or stderr goes. */
enum simio_to {
	SIMIO_TO_STDOUT,	/* the channel's stdout */
	SIMIO_TO_STDERR,	/* the channel's stderr */
	SIMIO_TO_NULL,		/* /dev/null */
	SIMIO_TO_BUF,		/* memory: a file being written, a pipe */
};

struct simio_sink {
	enum simio_to to;
	struct strbuf *buf;	/* SIMIO_TO_BUF */
};

/*
 * The shell applies redirections in order by assigning sinks, so
 * "2>&1" is `err = out` and ">&2 2>/dev/null" still shows stdout on the
 * channel's stderr, as in any POSIX shell.
 */
struct simio {
	struct simchan *chan;
	struct simio_sink out;
	struct simio_sink err;
	const char *in;		/* stdin from memory when in_set */
	size_t in_len, in_pos;
	int in_set;		/* </dev/null, <FILE or a pipe */
};

/* All three streams on `ch`, no redirection. */
void simio_init(struct simio *io, struct simchan *ch);

/* Write to fd 1 or 2.  Returns 0, or -1 when the client is gone. */
int simio_write(struct simio *io, int fd, const void *buf, size_t len);
int simio_puts(struct simio *io, int fd, const char *s);
int simio_printf(struct simio *io, int fd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read stdin: up to `len` bytes, blocking; 0 at end of input. */
size_t simio_read(struct simio *io, void *buf, size_t len);
/* Read exactly `len` bytes of stdin: 0, or -1 if it ended first. */
int simio_read_full(struct simio *io, void *buf, size_t len);

/* Sleep `ms`; 0, or -1 if the client went away meanwhile. */
int simio_sleep(struct simio *io, double ms);
/* 1 once the client went away. */
int simio_closed(struct simio *io);

#endif
