/*
 * test_src_matrix.c: the pieces of the matrix source: the JSON reader
 * that survives cut lines, finding issues in log messages, copies from a
 * second listener, and threadStack styles (sources/matrix_int.h).
 * test_src_matrix_parse.c runs the whole source.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "methodmap.h"
#include "results.h"
#include "matrix_int.h"
#include "strbuf.h"
#include "strlist.h"

/* Nested objects flatten, escapes decode to UTF-8, arrays are skipped. */
static void
json_reads_members(void **state)
{
	const char *s = "{\"a\":\"x\\/y\\n\\u00e9\\ud83d\\ude00\\\"\","
	    "\"o\":{\"b\":1.5E2,\"c\":true,\"d\":{\"e\":-3}},\"n\":null,"
	    "\"arr\":[1,{\"x\":2},[\"y\"]],\"f\":false} trailing";
	struct mx_json j;

	mx_json_parse(&j, s, strlen(s));
	assert_true(j.complete);
	assert_false(j.cut);
	assert_int_equal(j.end, strlen(s) - strlen(" trailing"));
	assert_string_equal(mx_json_string(&j, "a"),
	    "x/y\n\xc3\xa9\xf0\x9f\x98\x80\"");
	assert_true(mx_json_number(&j, "o.b") == 150);
	assert_int_equal(mx_json_bool(&j, "o.c"), 1);
	assert_true(mx_json_number(&j, "o.d.e") == -3);
	assert_int_equal(mx_json_bool(&j, "f"), 0);
	assert_non_null(mx_json_get(&j, "n"));
	assert_int_equal(mx_json_get(&j, "n")->type, MX_NULL);
	assert_null(mx_json_get(&j, "arr"));
	assert_null(mx_json_get(&j, "x"));
	/* Wrong types read as absent. */
	assert_true(isnan(mx_json_number(&j, "a")));
	assert_null(mx_json_string(&j, "o.b"));
	assert_int_equal(mx_json_bool(&j, "missing"), RS_UNKNOWN);
	mx_json_release(&j);
}

/*
 * A cut object keeps every member before the cut, a cut string flagged,
 * and never a number or literal that the cut may have shortened.
 */
static void
json_cut_keeps_what_was_read(void **state)
{
	const char *full = "{\"cost\":1006,\"ok\":true,\"stack\":\"0,1,1,5\\n"
	    "1,2,1,5\\n\"}";
	struct mx_json j;

	mx_json_parse(&j, full, strlen(full) - 8);	/* inside "stack" */
	assert_false(j.complete);
	assert_true(j.cut);
	assert_true(mx_json_number(&j, "cost") == 1006);
	assert_string_equal(mx_json_string(&j, "stack"), "0,1,1,5\n1,2");
	assert_true(mx_json_get(&j, "stack")->cut);
	mx_json_release(&j);

	mx_json_parse(&j, full, 10);	/* {"cost":10 */
	assert_true(j.cut);
	assert_null(mx_json_get(&j, "cost"));
	mx_json_release(&j);

	mx_json_parse(&j, full, 20);	/* ...,"ok":tr */
	assert_true(mx_json_number(&j, "cost") == 1006);
	assert_null(mx_json_get(&j, "ok"));
	mx_json_release(&j);

	/* Inside an escape: the partial escape is not decoded. */
	mx_json_parse(&j, "{\"s\":\"ab\\u00", 12);
	assert_string_equal(mx_json_string(&j, "s"), "ab");
	mx_json_release(&j);

	for (size_t n = 0; n <= strlen(full); n++) {
		mx_json_parse(&j, full, n);
		assert_true(j.complete == (n == strlen(full)));
		mx_json_release(&j);
	}
}

/*
 * Hostile input never crashes or recurses without bound: deep nesting
 * is refused, NULs and lone surrogates become U+FFFD, junk stops early.
 */
static void
json_hostile_input(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct mx_json j;
	const char nul[] = "{\"a\":\"x\0y\\u0000\",\"b\":\"\\udc00\\ud800z\"}";

	for (int i = 0; i < 10000; i++)
		strbuf_addstr(&sb, "{\"k\":");
	mx_json_parse(&j, sb.buf, sb.len);
	assert_false(j.complete);
	mx_json_release(&j);
	strbuf_release(&sb);

	mx_json_parse(&j, nul, sizeof(nul) - 1);
	assert_true(j.complete);
	assert_string_equal(mx_json_string(&j, "a"),
	    "x\xef\xbf\xbdy\xef\xbf\xbd");
	assert_string_equal(mx_json_string(&j, "b"),
	    "\xef\xbf\xbd\xef\xbf\xbdz");
	mx_json_release(&j);

	mx_json_parse(&j, "{\"a\":1,\"b\":nope}", 16);
	assert_false(j.complete);
	assert_false(j.cut);
	assert_true(mx_json_number(&j, "a") == 1);
	mx_json_release(&j);

	mx_json_parse(&j, "{\"a\":0x10,\"b\":inf,\"c\":1e999}", 28);
	assert_null(mx_json_get(&j, "a"));
	mx_json_release(&j);

	mx_json_parse(&j, "not json", 8);
	assert_int_equal(j.nr, 0);
	assert_false(j.complete);
	mx_json_release(&j);
}

/* Issue.toString() is found under any tag, after any prefix. */
static void
issue_tostring_forms(void **state)
{
	const char *lines[] = {
		"report issue content: tag[Trace_FPS]type[0];key[null];"
		"content[{\"scene\":\"A\",\"fps\":60}]",
		"tag[Trace_FPS]type[null];key[null];content[{\"scene\":\"A\","
		"\"fps\":60}]",
		"onReportIssue >> tag[Trace_FPS]type[0];key[null];content["
		"{\"scene\":\"A\",\"fps\":60}] <<",
	};
	struct mx_issue is;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(mx_issue_find(&is, lines[i],
		    strlen(lines[i]), 5.0), 1);
		assert_int_equal(is.tag, MX_TAG_FPS);
		assert_string_equal(is.tag_name, "Trace_FPS");
		assert_null(is.key);
		assert_false(is.cut);
		assert_true(is.json.complete);
		assert_string_equal(is.content,
		    "{\"scene\":\"A\",\"fps\":60}");
		assert_true(is.mono_ms == 5.0);
		mx_issue_release(&is);
	}
}

/* A Looper ANR's key is kept; every trace tag is told apart. */
static void
issue_key_and_tags(void **state)
{
	const char *anr = "tag[Trace_EvilMethod]type[0];key[8841];content[{"
	    "\"detail\":\"ANR\"}]";
	const char *st = "tag[Trace_StartUp]type[0];key[null];content[{}]";
	const char *other = "tag[memory]type[2];key[null];content[{}]";
	struct mx_issue is;

	assert_int_equal(mx_issue_find(&is, anr, strlen(anr), NAN), 1);
	assert_int_equal(is.tag, MX_TAG_EVIL);
	assert_string_equal(is.key, "8841");
	mx_issue_release(&is);
	assert_int_equal(mx_issue_find(&is, st, strlen(st), NAN), 1);
	assert_int_equal(is.tag, MX_TAG_STARTUP);
	mx_issue_release(&is);
	/* Another plugin's issue is a Matrix line, not a trace issue. */
	assert_int_equal(mx_issue_find(&is, other, strlen(other), NAN), 1);
	assert_int_equal(is.tag, MX_TAG_OTHER);
	assert_string_equal(is.tag_name, "memory");
	mx_issue_release(&is);
}

/* Bare JSON: with a Matrix tag, or cut before it but opening like Matrix. */
static void
issue_bare_json(void **state)
{
	const char *tagged = "{\"machine\":\"HIGH\",\"scene\":\"A\",\"fps\":"
	    "60,\"tag\":\"Trace_FPS\",\"process\":\"p\",\"time\":1}";
	const char *cut = "issue: {\"machine\":\"HIGH\",\"cpu_app\":0,"
	    "\"detail\":\"ANR\",\"cost\":5000,\"threadStack\":\"a.B.c(B.java";
	const char *foreign = "{\"tag\":\"mine\",\"x\":1}";
	const char *unrelated = "{\"machine\":\"HIGH\",\"detail\":\"x\"}";
	struct mx_issue is;

	assert_int_equal(mx_issue_find(&is, tagged, strlen(tagged), NAN), 1);
	assert_int_equal(is.tag, MX_TAG_FPS);
	assert_false(is.cut);
	mx_issue_release(&is);

	assert_int_equal(mx_issue_find(&is, cut, strlen(cut), NAN), 1);
	assert_int_equal(is.tag, MX_TAG_EVIL);
	assert_true(is.cut);
	assert_null(is.tag_name);
	mx_issue_release(&is);

	assert_int_equal(mx_issue_find(&is, foreign, strlen(foreign), NAN), 0);
	/* Complete but without a tag: not an issue. */
	assert_int_equal(mx_issue_find(&is, unrelated, strlen(unrelated),
	    NAN), 0);
}

/* Ordinary log messages, and look-alikes, are not issues. */
static void
issue_not_matrix(void **state)
{
	const char *msgs[] = {
		"", "Skipped 31 frames!  The application may be doing too much",
		"tag[x] then nothing", "tag[", "tag[Trace_FPS]", "{", "{}",
		"tag[Trace_FPS]typo[0];key[null];content[{}]",
		"tag[Trace_FPS]type", "json {\"a\":[1,2]}",
	};
	struct mx_issue is;

	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		assert_int_equal(mx_issue_find(&is, msgs[i], strlen(msgs[i]),
		    NAN), 0);
}

/* A line cut inside the header is still a (cut) Matrix issue. */
static void
issue_cut_in_header(void **state)
{
	const char *full = "tag[Trace_EvilMethod]type[0];key[12];content[{"
	    "\"detail\":\"ANR\"}]";
	size_t tag_end = strlen("tag[Trace_EvilMethod]type[");
	struct mx_issue is;

	for (size_t n = tag_end; n < strlen(full); n++) {
		assert_int_equal(mx_issue_find(&is, full, n, NAN), 1);
		assert_int_equal(is.tag, MX_TAG_EVIL);
		assert_true(is.cut);
		mx_issue_release(&is);
	}
	assert_int_equal(mx_issue_find(&is, full, strlen(full), NAN), 1);
	assert_false(is.cut);
	mx_issue_release(&is);
}

/* Scan `msg` into v[*nr] at `mono`; the message must be an issue. */
static void
scan(struct mx_issue *v, size_t *nr, const char *msg, size_t len,
    double mono)
{
	assert_int_equal(mx_issue_find(&v[*nr], msg, len, mono), 1);
	(*nr)++;
}

/*
 * The sample's second listener logs each issue again; each copy may be
 * cut at its own length.  The longer copy is kept, distinct issues are.
 */
static void
duplicates_from_a_second_listener(void **state)
{
	const char *a = "report issue content: tag[Trace_FPS]type[0];key[null]"
	    ";content[{\"scene\":\"A\",\"fps\":60,\"time\":1}]";
	const char *a2 = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"A\",\"fps\":60,\"time\":1}]";
	const char *b = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"A\",\"fps\":60,\"time\":2}]";
	struct mx_issue v[6];
	size_t nr = 0;

	scan(v, &nr, a, strlen(a) - 10, 100);	/* cut, first */
	scan(v, &nr, a2, strlen(a2), 101);	/* whole copy */
	scan(v, &nr, b, strlen(b), 102);	/* another issue */
	scan(v, &nr, a2, strlen(a2), 5000);	/* same bytes, much later */
	mx_issue_mark_duplicates(v, nr);
	assert_true(v[0].duplicate);
	assert_false(v[1].duplicate);
	assert_false(v[2].duplicate);
	assert_false(v[3].duplicate);
	for (size_t i = 0; i < nr; i++)
		mx_issue_release(&v[i]);
}

/* Contents with NUL bytes compare by their whole length (fuzzing). */
static void
duplicates_with_nul_bytes(void **state)
{
	const char a[] = "tag[Trace_FPS]type[0];key[null];content[{\"s\":\"a\0b"
	    "\",\"fps\":1}]";
	const char b[] = "tag[Trace_FPS]type[0];key[null];content[{\"s\":\"a\0c"
	    "\",\"fps\":1,\"x\":2}]";
	struct mx_issue v[2];
	size_t nr = 0;

	scan(v, &nr, a, sizeof(a) - 1, 1);
	scan(v, &nr, b, sizeof(b) - 1, 1);
	assert_int_equal(v[0].content_len, 19);
	mx_issue_mark_duplicates(v, nr);
	assert_false(v[0].duplicate);
	assert_false(v[1].duplicate);
	mx_issue_release(&v[0]);
	mx_issue_release(&v[1]);
}

static void
check_stack(const char *s, int cut, const char *const *want, size_t nr,
    int lost)
{
	struct strlist out = STRLIST_INIT;

	assert_int_equal(mx_thread_stack(&out, s, cut), lost);
	assert_int_equal(out.nr, nr);
	for (size_t i = 0; i < nr; i++)
		assert_string_equal(out.items[i], want[i]);
	strlist_release(&out);
}

/* Each threadStack style becomes Java frames (docs/formats.md §1.4). */
static void
thread_stack_styles(void **state)
{
	const char *raw = "java.lang.Thread.sleep(Native Method)\n"
	    "com.x.Foo.bar(Foo.java:12)\n...\n";
	const char *const raw_want[] = { "java.lang.Thread.sleep(Native Method)",
		"com.x.Foo.bar(Foo.java:12)", "..." };
	const char *simple = " \n|*\t\tat java.lang.Thread:sleep(-2)\n"
	    "|*\t\tat com.x.Foo:bar(12)\n|*\t\tat com.x.Foo:baz(-1)\r\n"
	    "|*\t\tat com.x.Foo:odd(x)\n";
	const char *const simple_want[] = {
		"java.lang.Thread.sleep(Native Method)",
		"com.x.Foo.bar(Unknown Source:12)",
		"com.x.Foo.baz(Unknown Source)", "com.x.Foo.odd(x)" };
	const char *native = "#00 pc 000000000004e2f8  /apex/com.android."
	    "runtime/lib64/bionic/libc.so (syscall+28)\n";
	const char *const native_want[] = { "#00 pc 000000000004e2f8  /apex/"
		"com.android.runtime/lib64/bionic/libc.so (syscall+28)" };

	check_stack(raw, 0, raw_want, 3, 0);
	check_stack(simple, 0, simple_want, 4, 0);
	check_stack(native, 0, native_want, 1, 0);
	check_stack("", 0, NULL, 0, 0);
}

/* A cut threadStack drops its partial last frame and reports the loss. */
static void
thread_stack_cut(void **state)
{
	const char *s = "a.B.c(B.java:1)\ncom.x.Foo.ba";
	const char *const want[] = { "a.B.c(B.java:1)" };
	struct strbuf sb = STRBUF_INIT;
	struct strlist out = STRLIST_INIT;

	check_stack(s, 1, want, 1, 1);
	check_stack("com.x.Fo", 1, NULL, 0, 1);
	/* A huge stack keeps METHODMAP_MAX_FRAMES frames. */
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "com.x.F%d.m(F.java:%d)\n", i, i);
	assert_int_equal(mx_thread_stack(&out, sb.buf, 0), 1);
	assert_int_equal(out.nr, METHODMAP_MAX_FRAMES);
	assert_string_equal(out.items[0], "com.x.F0.m(F.java:0)");
	strlist_release(&out);
	strbuf_release(&sb);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(json_reads_members),
	cmocka_unit_test(json_cut_keeps_what_was_read),
	cmocka_unit_test(json_hostile_input),
	cmocka_unit_test(issue_tostring_forms),
	cmocka_unit_test(issue_key_and_tags),
	cmocka_unit_test(issue_bare_json),
	cmocka_unit_test(issue_not_matrix),
	cmocka_unit_test(issue_cut_in_header),
	cmocka_unit_test(duplicates_from_a_second_listener),
	cmocka_unit_test(duplicates_with_nul_bytes),
	cmocka_unit_test(thread_stack_styles),
	cmocka_unit_test(thread_stack_cut),
};
JG_UNIT_GROUP(src_matrix, tests, NULL, NULL)
