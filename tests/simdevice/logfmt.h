/*
 * logfmt.h: the simulated device's log buffers and logcat's line layouts.
 *
 * A logfmt_buf holds log entries (main, system, crash, events) in time
 * order, as logd does, so the shell's logcat command only parses its
 * options and calls logfmt_buf_dump().  Layouts follow docs/formats.md §3.5
 * (liblog's android_log_formatLogLine):
 *
 *	threadtime:  11-05 14:22:33.123  4242  4242 I Choreographer: ...
 *	  ,monotonic:    1234.567  4242  4242 I Choreographer: ...
 *	  ,epoch:              1730816553.123  4242  4242 I ...
 *	  ,uid:      11-05 14:22:33.123 10123  4242  4242 I ...
 *	brief:       I/Choreographer( 4242): ...
 *	time:        11-05 14:22:33.123 I/Choreographer( 4242): ...
 *	long:        [ 11-05 14:22:33.123  4242: 4242 I/Choreographer ]
 *	             <message>
 *	             (blank line)
 *
 * Each '\n'-separated line of a message is printed with the whole prefix
 * (a leading '\n' gives an empty first line, a trailing one no extra
 * line), and a buffer's first entry is preceded by "--------- beginning
 * of <buffer>", a change of buffer by "--------- switch to <buffer>".
 *
 * An entry's payload (priority byte, tag and message with their NULs) is
 * at most LOGFMT_MAX_PAYLOAD bytes; a longer message is cut, as liblog
 * does, keeping 4065 - strlen(tag) bytes of it.
 */
#ifndef SIM_LOGFMT_H
#define SIM_LOGFMT_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct logfmt_buf;

#define LOGFMT_MAX_PAYLOAD	4068	/* LOGGER_ENTRY_MAX_PAYLOAD */

enum logfmt_buffer {
	LOGFMT_MAIN,
	LOGFMT_SYSTEM,
	LOGFMT_CRASH,
	LOGFMT_EVENTS,
	LOGFMT_NR_BUFFERS
};

/* logcat's default set: main, system and crash. */
#define LOGFMT_DEFAULT_BUFFERS \
	((1u << LOGFMT_MAIN) | (1u << LOGFMT_SYSTEM) | (1u << LOGFMT_CRASH))

struct logfmt_entry {
	enum logfmt_buffer buffer;
	long long mono_ns;	/* CLOCK_MONOTONIC */
	long long wall_ns;	/* CLOCK_REALTIME: ns since the epoch, UTC */
	int pid, tid;
	unsigned int uid;
	char prio;		/* 'V', 'D', 'I', 'W', 'E', 'F' */
	const char *tag;
	const char *msg;
};

enum logfmt_format {
	LOGFMT_THREADTIME,
	LOGFMT_BRIEF,
	LOGFMT_TIME,
	LOGFMT_LONG,
};

/* One logcat filterspec, TAG:PRIO. */
struct logfmt_filter {
	const char *tag;	/* "*": every tag without its own spec */
	char prio;		/* V D I W E F, or S (silent) */
};

struct logfmt_opts {
	enum logfmt_format format;
	int monotonic, epoch, uid, year, usec, nsec, zone;
	int tz_offset_min;	/* local time = UTC + this many minutes */
	unsigned int buffers;	/* 1u << LOGFMT_* */
	/* An entry shows when its priority reaches its tag's spec, else the
	 * "*" spec's, else V.  Borrowed; none: everything shows. */
	const struct logfmt_filter *filters;
	size_t nr_filters;
};

/* Where a reader is: entries after it are new.  -1: from the start. */
struct logfmt_cursor {
	long long mono_ns;
	unsigned long long seq;
	unsigned int seen;	/* buffers whose "beginning of" was printed */
	int last_buffer;	/* -1 before any */
};

#define LOGFMT_CURSOR_INIT { -1, 0, 0, -1 }

/* Make `c` select entries at or after `mono_ns` (logcat -T TIME). */
void logfmt_cursor_since(struct logfmt_cursor *c, long long mono_ns);

/* threadtime, UTC, the default buffers. */
void logfmt_opts_init(struct logfmt_opts *o);

/*
 * Apply one `-v` word (a format or a modifier: threadtime, brief, time,
 * long, monotonic, epoch, uid, year, usec, nsec, zone, UTC).  Returns 0,
 * or JG_EINVAL for a word logcat would not know.
 */
int logfmt_opts_word(struct logfmt_opts *o, const char *word);

/*
 * The buffer called `name` ("main", "system", "crash", "events"), or -1;
 * "default" and "all" give -2 and -3 so callers can expand them.
 */
int logfmt_buffer_id(const char *name);

/* Append entry `e` in the layout of `o`, one output line per message line. */
void logfmt_entry_format(struct strbuf *out, const struct logfmt_opts *o,
    const struct logfmt_entry *e);

/*
 * A log of at most `capacity` bytes of messages (oldest entries are
 * dropped, as logd prunes).  Free with logfmt_buf_free (NULL: no-op).
 */
struct logfmt_buf *logfmt_buf_new(size_t capacity);
void logfmt_buf_free(struct logfmt_buf *b);

/*
 * Copy `e` into the log, in time order (entries may be added ahead of
 * their time: a reader only sees them once `until_ns` passes them); the
 * message is truncated to the payload limit.  Returns the number of
 * message bytes dropped by truncation.
 */
size_t logfmt_buf_add(struct logfmt_buf *b, const struct logfmt_entry *e);

/*
 * Lose `percent` of the apps' main-buffer entries from now on, chosen by
 * `seed`, as an overloaded logd does; with `chatty`, the next kept entry
 * of the same process is preceded by logd's "chatty" line counting them
 * (API 30 and older), else the lines are just missing.
 */
void logfmt_buf_set_loss(struct logfmt_buf *b, int percent, uint64_t seed,
    int chatty);

/*
 * Forget the entries dated after `after_ns` that process `pid` logged or
 * whose message contains `needle` (NULL: none): what a process that died
 * at `after_ns` had been scheduled to log.
 */
void logfmt_buf_drop_after(struct logfmt_buf *b, long long after_ns, int pid,
    const char *needle);

/* Forget the entries of the buffers in mask `buffers` (logcat -c). */
void logfmt_buf_clear(struct logfmt_buf *b, unsigned int buffers);

/*
 * Append the entries of o->buffers that come after cursor `c` and whose
 * time is at most `until_ns`, with buffer separators, and move `c` past
 * them.  With `tail` > 0 only the last `tail` of them (logcat -t N).
 * Returns the number of entries printed.
 */
size_t logfmt_buf_dump(struct logfmt_buf *b, struct strbuf *out,
    const struct logfmt_opts *o, struct logfmt_cursor *c, long long until_ns,
    size_t tail);

#endif
