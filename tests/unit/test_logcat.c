/*
 * test_logcat.c: the logcat line parser on `-v monotonic` lines, and the
 * line buffer: continuations, `-v long`, markers, encodings, the first
 * unreadable line.  test_logcat_layouts.c drives every layout.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "logcat.h"
#include "strbuf.h"

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

/* Markers, lines in no known layout and junk are not lines. */
static void
rejects_what_is_not_a_line(void **state)
{
	static const char *const bad[] = {
		"--------- beginning of main",
		"--------- switch to system",
		"Displayed com.x/.Main: +710ms",
		"I/ActivityTaskMan",
		"[ 11-05 14:22:33.456  1502: 1560 I/ActivityManager",
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
 * A saved capture: markers and blank lines are dropped, a line in no
 * layout is kept as a bare message, CRLF and a last line without a
 * newline are fine, lines keep their order.
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
	size_t nr, lineno;

	assert_int_equal(logcat_buf_parse_text(b, text, strlen(text)), 0);
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 4);
	assert_int_equal(logcat_buf_rejects(b), 3);
	assert_int_equal(logcat_buf_prefixed(b), 3);
	assert_field(l[0].msg, l[0].msg_len, "START u0 {x}");
	assert_field(l[1].tag, l[1].tag_len, "Matrix");
	assert_int_equal(l[2].layout, LOGCAT_BARE);
	assert_null(l[2].tag);
	assert_int_equal(l[2].pid, -1);
	assert_field(l[2].msg, l[2].msg_len, "garbage");
	assert_field(l[3].msg, l[3].msg_len, "Displayed p/.A: +3ms");
	assert_true(l[3].mono_ms == 3601331);
	assert_string_equal(logcat_buf_first_unread(b, &lineno), "garbage");
	assert_int_equal(lineno, 6);
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

/*
 * Text with no line in a known layout is an error naming its first line
 * (bounded and printable); its lines are still kept as bare messages.
 */
static void
capture_without_lines_is_an_error(void **state)
{
	static const char text[] = "\n  \n\x1b[2Jhello\x7f\nworld\n";
	struct logcat_buf *b = logcat_buf_new();
	struct strbuf big = STRBUF_INIT;
	size_t nr;

	assert_int_equal(logcat_buf_parse_text(b, text, strlen(text)),
	    JG_EINVAL);
	assert_string_equal(jg_error_msg(), "no line in a logcat layout "
	    "jankgate knows; the first it could not read is line 3: "
	    "'?[2Jhello?'");
	logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 2);
	/* Empty text is no error: an idle iteration logs nothing. */
	assert_int_equal(logcat_buf_parse_text(b, "", 0), 0);
	logcat_buf_free(b);

	b = logcat_buf_new();
	for (int i = 0; i < 10000; i++)
		strbuf_addch(&big, 'x');
	assert_int_equal(logcat_buf_parse_text(b, big.buf, big.len),
	    JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "line 1: 'xxxx"));
	assert_true(strlen(jg_error_msg()) < 200);
	logcat_buf_free(b);
	strbuf_release(&big);
}

/*
 * Android Studio prints a message's prefix once and indents the rest:
 * an indented line after a line with a prefix gets that prefix, without
 * its leading blanks (a tab after them stays).  An indented line after a
 * bare one stays bare.
 */
static void
continuations_take_the_prefix(void **state)
{
	static const char text[] =
	    "com.x W/demo_Issue: ==========\n"
	    "    type: UI BLOCK\n"
	    "    \tcom.x.Main.run(Main.kt:9)\n"
	    "bare line\n"
	    "    indented after bare\n";
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	size_t nr;

	assert_int_equal(logcat_buf_parse_text(b, text, strlen(text)), 0);
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 5);
	assert_int_equal(l[0].layout, LOGCAT_STUDIO);
	assert_field(l[0].pkg, l[0].pkg_len, "com.x");
	assert_false(l[0].cont);
	for (int i = 1; i < 3; i++) {
		assert_true(l[i].cont);
		assert_int_equal(l[i].layout, LOGCAT_STUDIO);
		assert_field(l[i].tag, l[i].tag_len, "demo_Issue");
		assert_field(l[i].pkg, l[i].pkg_len, "com.x");
		assert_int_equal(l[i].prio, 'W');
	}
	assert_field(l[1].msg, l[1].msg_len, "type: UI BLOCK");
	assert_field(l[2].msg, l[2].msg_len, "\tcom.x.Main.run(Main.kt:9)");
	assert_int_equal(l[4].layout, LOGCAT_BARE);
	assert_field(l[4].msg, l[4].msg_len, "    indented after bare");
	logcat_buf_free(b);
}

/*
 * -v long: a header, the message's lines as they are (blank-led ones
 * too), a blank line; the next header starts the next entry.
 */
static void
long_entries(void **state)
{
	static const char text[] =
	    "[ 11-05 14:22:33.456  3920: 3941 W/PERF_Issue ]\n"
	    "=====\n"
	    "\tcom.x.Main.run(Main.kt:9)\n"
	    "  two blanks\n"
	    "\n"
	    "[ 11-05 14:22:34.000  3920: 3920 I/Choreographer ]\n"
	    "Skipped 31 frames!\n"
	    "\n"
	    "after the entry\n";
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	size_t nr;

	assert_int_equal(logcat_buf_parse_text(b, text, strlen(text)), 0);
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 5);
	assert_field(l[0].msg, l[0].msg_len, "=====");
	assert_field(l[1].msg, l[1].msg_len, "\tcom.x.Main.run(Main.kt:9)");
	assert_field(l[2].msg, l[2].msg_len, "  two blanks");
	for (int i = 0; i < 3; i++) {
		assert_int_equal(l[i].layout, LOGCAT_LONG);
		assert_int_equal(l[i].pid, 3920);
		assert_int_equal(l[i].tid, 3941);
		assert_field(l[i].tag, l[i].tag_len, "PERF_Issue");
	}
	assert_field(l[3].tag, l[3].tag_len, "Choreographer");
	assert_int_equal(l[4].layout, LOGCAT_BARE);
	logcat_buf_free(b);
}

/*
 * Markers: logcat's buffer lines are dropped; Studio's process start
 * pairs a pid with its package, as a marker line.
 */
static void
studio_process_marker(void **state)
{
	static const char text[] =
	    "---------------------------- PROCESS STARTED (19955) for package "
	    "com.tencent.wx.app ----------------------------\n"
	    "---------------------------- PROCESS ENDED (19955) for package "
	    "com.tencent.wx.app ----------------------------\n"
	    "------ not a marker\n";
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	size_t nr;

	logcat_buf_parse_text(b, text, strlen(text));
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 3);
	assert_int_equal(l[0].layout, LOGCAT_MARKER);
	assert_int_equal(l[0].pid, 19955);
	assert_field(l[0].pkg, l[0].pkg_len, "com.tencent.wx.app");
	assert_false(logcat_tag_fits(&l[0], "Choreographer"));
	assert_int_equal(l[1].layout, LOGCAT_MARKER);
	assert_int_equal(l[2].layout, LOGCAT_BARE);
	logcat_buf_free(b);
}

/* UTF-16 (a PowerShell redirect) and a UTF-8 BOM read as UTF-8 does. */
static void
encodings(void **state)
{
	static const char utf16[] =
	    "\xff\xfe" "1\0" "0\0-\0" "1\0" "9\0 \0" "1\0" "6\0:\0"
	    "4\0" "0\0:\0" "5\0" "0\0.\0" "6\0" "6\0" "3\0 \0" "1\0 \0"
	    "2\0 \0I\0 \0T\0:\0 \0\xe9\0\r\0\n\0";
	static const char bom[] = "\xef\xbb\xbf  1.000  1  2 I T: \xc3\xa9\n";
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	size_t nr;

	assert_int_equal(logcat_buf_parse_text(b, utf16, sizeof(utf16) - 1),
	    0);
	assert_int_equal(logcat_buf_parse_text(b, bom, strlen(bom)), 0);
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 2);
	assert_int_equal(l[0].layout, LOGCAT_THREADTIME);
	assert_int_equal(l[0].pid, 1);
	assert_true(isnan(l[0].mono_ms));
	assert_field(l[0].msg, l[0].msg_len, "\xc3\xa9");
	assert_true(l[1].mono_ms == 1000);
	assert_field(l[1].msg, l[1].msg_len, "\xc3\xa9");
	logcat_buf_free(b);
}

/*
 * What a line alone cannot say: a -v long message line that looks like
 * a line of another layout ("Status: ok", "I/Tag: m") is still the
 * entry's, up to the next header or timed line even without a blank
 * line; a Studio
 * columns line cut after its level takes the next line as its message;
 * every line knows its number in the capture.
 */
static void
lines_in_context(void **state)
{
	static const char text[] =
	    "[ 01-02 03:04:05.678  1234: 5678 I/Tag ]\n"
	    "Status: ok\n"
	    "I/Other: not a line\n"
	    "[ 01-02 03:04:05.999  1234: 5678 W/Tag2 ]\n"
	    "second\n"
	    /* a timed line ends the entry, blank line or not */
	    "2023-06-13 14:07:07.443   774-795   ActivityManager  "
	    "system_process  I\n"
	    "Displayed com.x/.Main: +710ms\n"
	    "    later line\n";
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *l;
	size_t nr;

	assert_int_equal(logcat_buf_parse_text(b, text, strlen(text)), 0);
	l = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, 5);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(l[i].layout, LOGCAT_LONG);
	assert_field(l[0].tag, l[0].tag_len, "Tag");
	assert_field(l[0].msg, l[0].msg_len, "Status: ok");
	assert_field(l[1].tag, l[1].tag_len, "Tag");
	assert_field(l[1].msg, l[1].msg_len, "I/Other: not a line");
	assert_true(l[1].cont);
	assert_field(l[2].tag, l[2].tag_len, "Tag2");
	assert_int_equal(l[2].lineno, 5);
	assert_int_equal(l[3].layout, LOGCAT_STUDIO_COLUMNS);
	assert_field(l[3].tag, l[3].tag_len, "ActivityManager");
	assert_field(l[3].msg, l[3].msg_len, "Displayed com.x/.Main: +710ms");
	assert_int_equal(l[3].pid, 774);
	assert_false(l[3].cont);
	assert_field(l[4].msg, l[4].msg_len, "later line");
	assert_true(l[4].cont);
	assert_int_equal(l[4].lineno, 8);
	assert_null(logcat_buf_first_unread(b, NULL));
	logcat_buf_free(b);
}

/*
 * A message's own "key: value" is no tag-only line: the tag is one word
 * with a capital letter, ended by ": " or Studio 1.x's small colon.
 */
static void
tag_only_lines(void **state)
{
	static const struct {
		const char *line;
		const char *tag;	/* NULL: no known layout */
	} cases[] = {
		{ "ActivityTaskManager: Displayed com.x/.A: +1ms",
		  "ActivityTaskManager" },
		{ "Matrix.DefaultPluginListener: report", "Matrix."
		  "DefaultPluginListener" },
		{ "PERF_FPSTool\xef\xb9\x95 APP FPS is: 54 Hz", "PERF_FPSTool" },
		{ "type: UI BLOCK", NULL },
		{ "create time: 20231105", NULL },
		{ "Displayed com.x/.A: +1ms", NULL },
		{ "Caused by: java.lang.Error", NULL },
		{ "Tag:no blank", NULL },
		{ "horeographer: Skipped 4 frames!", NULL },
	};
	static const char ddms[] = "09-25 23:08:36.101: I/Choreographer: m";
	struct logcat_line l;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = logcat_parse_line(&l, cases[i].line,
		    strlen(cases[i].line));

		if (!cases[i].tag) {
			if (!rc)
				fail_msg("'%s' read as %s", cases[i].line,
				    logcat_layout_name(l.layout));
			continue;
		}
		if (rc || l.layout != LOGCAT_TAG_ONLY)
			fail_msg("'%s' not read as tag only", cases[i].line);
		assert_field(l.tag, l.tag_len, cases[i].tag);
		assert_int_equal(l.pid, -1);
		assert_int_equal(l.prio, 0);
	}
	/* DDMS without its pid is no tag-only line: its time is kept */
	assert_int_equal(logcat_parse_line(&l, ddms, strlen(ddms)), 0);
	assert_int_equal(l.layout, LOGCAT_ECLIPSE);
	assert_field(l.tag, l.tag_len, "Choreographer");
	assert_int_equal(l.prio, 'I');
	assert_int_equal(l.pid, -1);
	assert_false(isnan(l.time_ms));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(parses_each_layout),
	cmocka_unit_test(rejects_what_is_not_a_line),
	cmocka_unit_test(length_bounds_the_line),
	cmocka_unit_test(buffer_reads_a_capture),
	cmocka_unit_test(buffer_owns_its_lines),
	cmocka_unit_test(nul_inside_a_message),
	cmocka_unit_test(capture_without_lines_is_an_error),
	cmocka_unit_test(continuations_take_the_prefix),
	cmocka_unit_test(long_entries),
	cmocka_unit_test(studio_process_marker),
	cmocka_unit_test(encodings),
	cmocka_unit_test(lines_in_context),
	cmocka_unit_test(tag_only_lines),
};

JG_UNIT_GROUP(logcat, tests, NULL, NULL)
