/*
 * logcat.h: lines of `adb logcat -v monotonic` (FORMATS §3.5).
 *
 * Every source that reads logcat (startup, choreographer, matrix,
 * blockcanary, perf...) sees the same parsed lines, so the prefix is parsed
 * once, here.  The runner streams `logcat -v monotonic` for an iteration
 * and hands the sources the parsed lines; `jankgate parse` reads a saved
 * capture with logcat_buf_parse_text().
 *
 *      123.456  4242  4242 I Choreographer: Skipped 31 frames!  ...
 *   <%6lld.%03ld> [uid] %5d %5d %c %-8s: <message>
 *
 * The time is CLOCK_MONOTONIC seconds since boot with milliseconds (the
 * clock gfxinfo's `Uptime:` uses).  A multi-line message comes as several
 * lines with the prefix repeated; buffer markers ("--------- beginning of
 * main") are not lines.
 */
#ifndef JG_LOGCAT_H
#define JG_LOGCAT_H

#include <stddef.h>

/*
 * One parsed line.  The strings point into the text it was parsed from
 * and are NOT NUL-terminated: use the lengths.  `msg` is "" (length 0)
 * for a line without a message.
 */
struct logcat_line {
	double mono_ms;		/* device CLOCK_MONOTONIC, in ms */
	int pid, tid;
	char prio;		/* V D I W E F A */
	const char *tag;
	size_t tag_len;
	const char *msg;
	size_t msg_len;
};

/*
 * Parse one `-v monotonic` line of `len` bytes (a trailing CR or LF is
 * ignored) into `out`, pointing into `line`.  Returns 0, or JG_EINVAL when
 * it is not such a line (a "--------- beginning of main" marker, a line of
 * another layout, garbage).
 */
int logcat_parse_line(struct logcat_line *out, const char *line, size_t len);

/* Many parsed lines, owning their bytes. */
struct logcat_buf;

/* An empty buffer; free it with logcat_buf_free() (NULL is a no-op). */
struct logcat_buf *logcat_buf_new(void);
void logcat_buf_free(struct logcat_buf *b);

/*
 * Copy one line (without its newline) into `b` and parse it.  A line that
 * does not parse is dropped and counted (logcat_buf_rejects()).
 */
void logcat_buf_add(struct logcat_buf *b, const char *line, size_t len);

/*
 * The parsed lines in the order they were added; *nr gets their number.
 * Borrowed: valid until the next logcat_buf_add() or logcat_buf_free().
 */
const struct logcat_line *logcat_buf_lines(const struct logcat_buf *b,
    size_t *nr);

/* How many lines logcat_buf_add() could not parse (markers included). */
size_t logcat_buf_rejects(const struct logcat_buf *b);

/*
 * Add every line of a saved capture of `len` bytes (LF or CRLF line ends,
 * a last line without one).  Returns 0, or JG_EINVAL when not one line of
 * the text parsed (the message names how many were rejected); lines that
 * did parse are kept either way.
 */
int logcat_buf_parse_text(struct logcat_buf *b, const char *text, size_t len);

#endif
