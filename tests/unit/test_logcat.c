/*
 * test_logcat.c: the `logcat -v monotonic` line parser and line buffer.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "logcat.h"

static void
assert_field(const char *s, size_t n, const char *want)
{
	if (n != strlen(want) || memcmp(s, want, n))
		fail_msg("got '%.*s', expected '%s'", (int)n, s, want);
}

struct line_case {
	const char *line;
	double mono_ms;
	int pid, tid;
	char prio;
	const char *tag, *msg;
};

/* Every layout `-v monotonic` prints, with its modifiers. */
static void
parses_each_layout(void **state)
{
	static const struct line_case cases[] = {
		{ "  3600.002   901   928 I ActivityManager: START u0 {x}",
		  3600002, 901, 928, 'I', "ActivityManager", "START u0 {x}" },
		/* a tag shorter than 8 columns is padded */
		{ "    12.345  4242  4242 W chatty  : uid=10100 expire 3 lines",
		  12345, 4242, 4242, 'W', "chatty",
		  "uid=10100 expire 3 lines" },
		/* -v uid: a number, a short user name, or six blanks */
		{ "  3601.200 10123  3920  3920 I Choreographer: Skipped 31 "
		  "frames!  The application", 3601200, 3920, 3920, 'I',
		  "Choreographer", "Skipped 31 frames!  The application" },
		{ "     1.000  root     1     1 E init    : boom", 1000, 1, 1,
		  'E', "init", "boom" },
		{ "1234567.890       77    78 D Tag: m", 1234567890, 77, 78,
		  'D', "Tag", "m" },
		/* -v usec and -v nsec */
		{ "  3600.002345   901   928 V T: a: b", 3600002.345, 901, 928,
		  'V', "T", "a: b" },
		{ "  3600.002345678   1   2 F T: x", 3600002.345678, 1, 2, 'F',
		  "T", "x" },
		/* a tag with spaces, a colon in the message */
		{ "  1.000  1  2 A My Tag: key: value", 1000, 1, 2, 'A',
		  "My Tag", "key: value" },
		/* CRLF */
		{ "  5.005   1   2 I T: crlf\r\n", 5005, 1, 2, 'I', "T",
		  "crlf" },
		/* no message, or a line cut inside the tag */
		{ "  5.005   1   2 I T: ", 5005, 1, 2, 'I', "T", "" },
		{ "  5.005   1   2 I T:", 5005, 1, 2, 'I', "T", "" },
		{ "  5.005   1   2 I ActivityTaskMan", 5005, 1, 2, 'I',
		  "ActivityTaskMan", "" },
		{ "  5.005   1   2 I", 5005, 1, 2, 'I', "", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct line_case *c = &cases[i];
		struct logcat_line l;

		if (logcat_parse_line(&l, c->line, strlen(c->line)))
			fail_msg("rejected: %s", c->line);
		assert_true(l.mono_ms > c->mono_ms - 1e-6 &&
		    l.mono_ms < c->mono_ms + 1e-6);
		assert_int_equal(l.pid, c->pid);
		assert_int_equal(l.tid, c->tid);
		assert_int_equal(l.prio, c->prio);
		assert_field(l.tag, l.tag_len, c->tag);
		assert_field(l.msg, l.msg_len, c->msg);
	}
}

/* Markers, other layouts and junk are not lines. */
static void
rejects_what_is_not_a_line(void **state)
{
	static const char *const bad[] = {
		"--------- beginning of main",
		"--------- switch to system",
		"11-05 14:22:33.456  1502  1560 I ActivityManager: Displayed x",
		"I/ActivityManager( 1502): Displayed x",
		"[ 11-05 14:22:33.456  1502: 1560 I/ActivityManager ]",
		"",
		"   ",
		"  3600.0   901   928 I T: two fraction digits",
		"  3600.002",
		"  3600.002   901",
		"  3600.002   901   928",
		"  3600.002   901   928 X T: not a priority",
		"  3600.002   901   9x8 I T: bad tid",
		"  3600.002 a b c d I T: too many columns",
		"  3600.002   1234567890   928 I T: ten-digit pid",
		"1234567890123.000   1   2 I T: thirteen-digit seconds",
		"\tat com.example.Foo.bar(Foo.java:12)",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct logcat_line l;

		if (logcat_parse_line(&l, bad[i], strlen(bad[i])) != JG_EINVAL)
			fail_msg("accepted: '%s'", bad[i]);
	}
}

/* The length bounds the parse: nothing past it is read. */
static void
length_bounds_the_line(void **state)
{
	static const char text[] = "  1.000   1   2 I Tag: message";
	struct logcat_line l;

	assert_int_equal(logcat_parse_line(&l, text, 22), 0);
	assert_field(l.tag, l.tag_len, "Tag");
	assert_int_equal(l.msg_len, 0);
	assert_int_equal(logcat_parse_line(&l, text, 10), JG_EINVAL);
}

/*
 * A saved capture: markers and junk are counted as rejects, CRLF and a
 * last line without a newline are fine, lines keep their order.
 */
static void
buffer_reads_a_capture(void **state)
{
	static const char text[] =
	    "--------- beginning of system\r\n"
	    "  3600.002   901   928 I ActivityManager: START u0 {x}\r\n"
	    "\r\n"
	    "--------- beginning of main\r\n"
	    "  3600.918  3920  3979 I Matrix: report\r\n"
	    "garbage\n"
	    "  3601.331   901   928 I ActivityManager: Displayed p/.A: +3ms";
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	size_t nr;

	assert_int_equal(logcat_buf_parse_text(b, text, strlen(text)), 0);
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 3);
	assert_int_equal(logcat_buf_rejects(b), 3);
	assert_field(l[0].msg, l[0].msg_len, "START u0 {x}");
	assert_field(l[1].tag, l[1].tag_len, "Matrix");
	assert_field(l[2].msg, l[2].msg_len, "Displayed p/.A: +3ms");
	assert_true(l[2].mono_ms == 3601331);
	logcat_buf_free(b);
}

/*
 * The buffer owns its bytes: lines stay valid after the caller's text is
 * gone and after many more lines were added.
 */
static void
buffer_owns_its_lines(void **state)
{
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	char line[64];
	size_t nr;

	for (int i = 0; i < 1000; i++) {
		int n = snprintf(line, sizeof(line), "  %d.000  1  2 I T: m%d",
		    i, i);

		logcat_buf_add(b, line, (size_t)n);
		memset(line, 'x', sizeof(line));
	}
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 1000);
	assert_field(l[0].msg, l[0].msg_len, "m0");
	assert_field(l[999].msg, l[999].msg_len, "m999");
	assert_true(l[999].mono_ms == 999000);
	logcat_buf_free(b);
	logcat_buf_free(NULL);
}

/* A message may hold a NUL; the length, not the NUL, ends it. */
static void
nul_inside_a_message(void **state)
{
	static const char text[] = "  1.000  1  2 I T: a\0b";
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	size_t nr;

	logcat_buf_add(b, text, sizeof(text) - 1);
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(l[0].msg_len, 3);
	assert_memory_equal(l[0].msg, "a\0b", 3);
	logcat_buf_free(b);
}

/* Text with no line at all is an error that says how many were rejected. */
static void
capture_without_lines_is_an_error(void **state)
{
	static const char text[] = "hello\nworld\n";
	struct logcat_buf *b = logcat_buf_new();
	size_t nr;

	assert_int_equal(logcat_buf_parse_text(b, text, strlen(text)),
	    JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "among 2 lines"));
	logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 0);
	/* Empty text is no error: an idle iteration logs nothing. */
	assert_int_equal(logcat_buf_parse_text(b, "", 0), 0);
	logcat_buf_free(b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(parses_each_layout),
	cmocka_unit_test(rejects_what_is_not_a_line),
	cmocka_unit_test(length_bounds_the_line),
	cmocka_unit_test(buffer_reads_a_capture),
	cmocka_unit_test(buffer_owns_its_lines),
	cmocka_unit_test(nul_inside_a_message),
	cmocka_unit_test(capture_without_lines_is_an_error),
};

JG_UNIT_GROUP(logcat, tests, NULL, NULL)
