/*
 * logcat.h: log lines in every layout logcat and Android Studio print.
 *
 * Every source that reads logcat (startup, choreographer, matrix, perf,
 * fpsanalyzer, traceman) sees the same parsed lines, so the prefix is
 * parsed once, here, whatever its layout.  The runner streams `logcat -v
 * monotonic`; what users save and paste comes in every other layout too,
 * often several in one file.  Each line is told apart on its own
 * (logcat.c draws every layout):
 *
 *	-v monotonic    "  3600.002   901   928 I ActivityManager: msg"
 *	-v threadtime   "11-05 14:22:33.456   901   928 I ActivityManager: m"
 *	  (and its modifiers: year, epoch, usec, nsec, zone, uid; old liblog
 *	  printed "... I ActivityManager \n\tm", the message on a line)
 *	-v time         "11-05 14:22:33.456 I/ActivityManager(  901): msg"
 *	-v brief        "I/ActivityManager(  901): msg"
 *	-v process      "I(  901) msg  (ActivityManager)"
 *	-v thread       "I(  901:  928) msg"
 *	-v tag          "I/ActivityManager: msg"
 *	tag only        "ActivityManager: msg" (a grep's or a blog's paste)
 *	time, no pid    "11-05 14:22:33.456 I ActivityManager: msg"
 *	Eclipse (DDMS)  "11-05 14:22:33.456: I/ActivityManager(901): msg"
 *	-v long         "[ 11-05 14:22:33.456   901:  928 I/ActivityManager ]"
 *	                 then the message's lines, then a blank line
 *	Studio (old)    "2021-01-13 11:24:41.123 901-928/com.pkg I/Tag: msg"
 *	Studio 1.x      the same with U+FE55 SMALL COLON after the tag:
 *	                "... I/Tag\xef\xb9\x95 msg"
 *	Studio (new)    "2023-06-13 14:07:07.443   774-795   ActivityManager
 *	                 system_process   I  msg" (one line, in columns;
 *	                 a narrow window wraps the message to the next line)
 *	bare            "Displayed com.x/.Main: +710ms" (-v raw, or pasted)
 *
 * Only `-v monotonic` dates a line on the device clock that scene windows
 * use (run_iter.c); other layouts give a time to order lines by, and
 * sources still read every value from them, they just cannot place it in
 * a scene.  A multi-line message comes as several lines: logcat repeats
 * the prefix on each, Android Studio indents the lines after the first;
 * the buffer (logcat_buf_*) gives the indented ones their entry's
 * prefix.  Markers ("--------- beginning of main") are not lines.
 */
#ifndef JG_LOGCAT_H
#define JG_LOGCAT_H

#include <stdbool.h>
#include <stddef.h>

enum logcat_layout {
	LOGCAT_BARE,		/* no known prefix: all is message */
	LOGCAT_THREADTIME,	/* also -v monotonic, epoch, year, uid... */
	LOGCAT_TIME,
	LOGCAT_BRIEF,
	LOGCAT_PROCESS,
	LOGCAT_THREAD,
	LOGCAT_TAG,
	LOGCAT_LONG,
	LOGCAT_STUDIO,		/* Android Studio up to 2021 (Chipmunk) */
	LOGCAT_STUDIO_COLUMNS,	/* Android Studio from 2022 (Dolphin) */
	LOGCAT_MARKER,		/* Studio's "PROCESS STARTED (pid) ..." */
	LOGCAT_TAG_ONLY,	/* "Tag: msg", no priority */
	LOGCAT_TIME_PRIO,	/* threadtime without its pid and tid */
	LOGCAT_ECLIPSE,		/* Eclipse's DDMS: "TIME: P/Tag(pid): msg" */
	LOGCAT_STUDIO_1,	/* Studio 1.x: Studio's with "Tag\uFE55 msg" */
	LOGCAT_NR_LAYOUTS
};

/*
 * One parsed line.  The strings point into the text it was parsed from
 * (for a continuation line, partly into its entry's first line) and are
 * NOT NUL-terminated: use the lengths.
 */
struct logcat_line {
	/* Device CLOCK_MONOTONIC in ms (-v monotonic), else NAN. */
	double mono_ms;
	/*
	 * The printed time in ms on the layout's own clock (monotonic,
	 * epoch, or a local date and time), NAN when none: it orders lines
	 * and tells log entries apart, and measures short gaps, but only
	 * mono_ms places a line in a scene.
	 */
	double time_ms;
	int pid, tid;		/* -1 when the layout prints none */
	char prio;		/* V D I W E F A, or 0 when none printed */
	const char *tag;	/* NULL when the layout prints no tag */
	size_t tag_len;
	const char *pkg;	/* Studio's package column, else NULL */
	size_t pkg_len;
	const char *msg;	/* "" (length 0) for an empty message */
	size_t msg_len;
	enum logcat_layout layout;
	bool cont;		/* a later line of the entry above */
	/* Its 1-based number among the lines of its capture, 0: unknown. */
	size_t lineno;
};

/*
 * Parse one line of `len` bytes (a trailing CR or LF is ignored) in any
 * layout above but bare into `out`, pointing into `line`.  Returns 0, or
 * JG_EINVAL when the line has no known prefix (a marker, a blank line, a
 * bare message, garbage).  A `-v long` header parses with an empty
 * message; its message follows on the next lines.
 */
int logcat_parse_line(struct logcat_line *out, const char *line, size_t len);

/* The layout's name as logcat's -v or Studio calls it ("threadtime"). */
const char *logcat_layout_name(enum logcat_layout layout);

/*
 * Whether the line may be of tag `tag`: its tag is `tag`, or its layout
 * printed none (a bare message, -v thread) so it could be anyone's.  A
 * Studio process marker fits no tag.
 */
bool logcat_tag_fits(const struct logcat_line *l, const char *tag);

/* The same for a tag ending in `suffix` ("_Issue"), longer than it. */
bool logcat_tag_suffix_fits(const struct logcat_line *l, const char *suffix);

/* Whether two lines carry the same time, both none included. */
bool logcat_same_time(const struct logcat_line *a,
    const struct logcat_line *b);

/* Many parsed lines, owning their bytes. */
struct logcat_buf;

/* An empty buffer; free it with logcat_buf_free() (NULL is a no-op). */
struct logcat_buf *logcat_buf_new(void);
void logcat_buf_free(struct logcat_buf *b);

/*
 * Copy one line (without its newline) into `b` and read it in the context
 * of the lines before it: a line with a prefix is a line; an indented
 * line after one, or any line inside a `-v long` entry but one with a
 * time, continues that entry (its prefix copied); the line after a prefix
 * whose message wrapped (Studio's columns, old threadtime) is its
 * message; a marker is dropped (a Studio process marker kept as a
 * LOGCAT_MARKER line naming the pid's package); a blank line is dropped;
 * anything else is kept as a bare message and counted
 * (logcat_buf_first_unread()).  Every line kept gets its number.
 */
void logcat_buf_add(struct logcat_buf *b, const char *line, size_t len);

/*
 * The parsed lines in the order they were added; *nr gets their number.
 * Borrowed: valid until the next logcat_buf_add() or logcat_buf_free().
 */
const struct logcat_line *logcat_buf_lines(const struct logcat_buf *b,
    size_t *nr);

/* How many lines added had a known prefix (continuations included). */
size_t logcat_buf_prefixed(const struct logcat_buf *b);

/* How many lines added were dropped (markers, blank lines). */
size_t logcat_buf_rejects(const struct logcat_buf *b);

/*
 * The first line kept as bare although it started no continuation: its
 * text (NUL-terminated, borrowed like the lines) and, in *lineno, its
 * 1-based number among the lines added.  NULL when there is none.
 */
const char *logcat_buf_first_unread(const struct logcat_buf *b,
    size_t *lineno);

/*
 * Add every line of a saved capture of `len` bytes: UTF-8 with or
 * without a BOM, or UTF-16 (textenc.h); LF, CRLF or CR CR LF ends; a last
 * line without one.  Returns 0, or JG_EINVAL when the text holds lines
 * but not one in a known layout: the message names the first of them,
 * and the lines are kept as bare messages all the same.
 */
int logcat_buf_parse_text(struct logcat_buf *b, const char *text, size_t len);

#endif
