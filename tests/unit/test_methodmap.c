/*
 * test_methodmap.c: methodMapping.txt and Matrix method-trace stacks.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "fileio.h"
#include "methodmap.h"
#include "strlist.h"

static const char mapping[] =
	"1,4,sample.tencent.matrix.battery.stats.BatteryStatsSubProcActivity "
	"onCreate (Landroid.os.Bundle;)V\n"
	"243,1,sample.tencent.matrix.trace.TestFpsActivity onCreate "
	"(Landroid.os.Bundle;)V\r\n"
	"\n"
	"57,9,com.x.Native sleep\n"
	"1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n";

static struct methodmap *
load(const char *text)
{
	struct methodmap *m;

	assert_int_equal(methodmap_parse(&m, text, strlen(text), "map.txt"),
	    0);
	return m;
}

/*
 * The docs/formats.md §1.7 lines resolve to "class.method(desc)", CRLF or LF.
 */
static void
mapping_lines_resolve(void **state)
{
	struct methodmap *m = load(mapping);
	char *f;

	assert_int_equal(methodmap_size(m), 4);
	f = methodmap_frame(m, 243);
	assert_string_equal(f, "sample.tencent.matrix.trace.TestFpsActivity."
	    "onCreate(Landroid.os.Bundle;)V");
	free(f);
	f = methodmap_frame(m, 1);
	assert_string_equal(f, "sample.tencent.matrix.battery.stats."
	    "BatteryStatsSubProcActivity.onCreate(Landroid.os.Bundle;)V");
	free(f);
	methodmap_free(m);
}

/* A native method has no desc: "class.method". */
static void
native_method_has_no_desc(void **state)
{
	struct methodmap *m = load(mapping);
	char *f = methodmap_frame(m, 57);

	assert_string_equal(f, "com.x.Native.sleep");
	free(f);
	methodmap_free(m);
}

/* Unknown ids and a missing map keep the id; the dispatch root is known. */
static void
ids_are_kept_without_a_name(void **state)
{
	struct methodmap *m = load(mapping);
	char *f;

	f = methodmap_frame(m, 9999);
	assert_string_equal(f, "method#9999");
	free(f);
	f = methodmap_frame(NULL, 243);
	assert_string_equal(f, "method#243");
	free(f);
	f = methodmap_frame(NULL, METHODMAP_DISPATCH_ID);
	assert_string_equal(f, "android.os.Handler.dispatchMessage");
	free(f);
	methodmap_free(m);
}

/* A line that is not a mapping line is an error naming file and line. */
static void
bad_line_is_an_error(void **state)
{
	struct methodmap *m = (struct methodmap *)1;
	const char *text = "1,1,a.B c ()V\ncom.x.Foo -> a:\n";

	assert_int_equal(methodmap_parse(&m, text, strlen(text), "map.txt"),
	    JG_EINVAL);
	assert_null(m);
	assert_string_equal(jg_error_msg(),
	    "map.txt:2: expected 'id,flags,class method desc'");
	text = "x,1,a.B c\n";
	assert_int_equal(methodmap_parse(&m, text, strlen(text), "m"),
	    JG_EINVAL);
	text = "1,1,\n";
	assert_int_equal(methodmap_parse(&m, text, strlen(text), "m"),
	    JG_EINVAL);
}

/* methodmap_load reads a file, and a missing file is JG_ENOTFOUND. */
static void
load_reads_a_file(void **state)
{
	char path[512];
	struct methodmap *m;

	snprintf(path, sizeof(path), "%s/methodMapping.txt", unit_tmpdir());
	assert_int_equal(file_write_atomic(path, mapping, strlen(mapping),
	    0644), 0);
	assert_int_equal(methodmap_load(&m, path), 0);
	assert_int_equal(methodmap_size(m), 4);
	methodmap_free(m);
	snprintf(path, sizeof(path), "%s/none.txt", unit_tmpdir());
	assert_int_equal(methodmap_load(&m, path), JG_ENOTFOUND);
	assert_null(m);
	methodmap_free(NULL);
}

/* The first line of a repeated id wins, whatever order the file has. */
static void
first_of_repeated_ids_wins(void **state)
{
	struct methodmap *m = load("9,1,a.Z z\n5,1,a.A a\n9,1,a.B b\n");
	char *f = methodmap_frame(m, 9);

	assert_int_equal(methodmap_size(m), 2);
	assert_string_equal(f, "a.Z.z");
	free(f);
	methodmap_free(m);
}

/* An empty file, or only blank lines, is an empty map (found by fuzzing). */
static void
empty_mapping_is_empty(void **state)
{
	struct methodmap *m = load("");
	char *f = methodmap_frame(m, 1);

	assert_int_equal(methodmap_size(m), 0);
	assert_string_equal(f, "method#1");
	free(f);
	methodmap_free(m);
	m = load("\n\r\n");
	assert_int_equal(methodmap_size(m), 0);
	methodmap_free(m);
}

/* Stack lines parse into depth, id, count and cost. */
static void
stack_items_parse(void **state)
{
	struct methodmap_item *it;
	size_t bad, n;
	const char *s = "0,99,1,1611\n1,101,30,1611\r\n";

	n = methodmap_stack_items(s, strlen(s), 0, &it, &bad);
	assert_int_equal(n, 2);
	assert_int_equal(bad, 0);
	assert_int_equal(it[1].depth, 1);
	assert_int_equal(it[1].id, 101);
	assert_int_equal(it[1].count, 30);
	assert_int_equal(it[1].cost_ms, 1611);
	free(it);
}

/* A cut stack does not trust its last line; garbage lines are counted. */
static void
cut_and_bad_stack_lines(void **state)
{
	struct methodmap_item *it;
	size_t bad, n;
	const char *s = "0,1048574,1,1006\n1,243,1,10";
	const char *g = "0,1,1,5\nx,y\n1,2,3\n-1,2,3,4\n1,2,3,4,5\n2,2,2,2\n";

	n = methodmap_stack_items(s, strlen(s), 1, &it, &bad);
	assert_int_equal(n, 1);
	assert_int_equal(bad, 1);
	free(it);
	/* Not cut: a last line without '\n' is whole. */
	n = methodmap_stack_items(s, strlen(s), 0, &it, &bad);
	assert_int_equal(n, 2);
	assert_int_equal(it[1].cost_ms, 10);
	free(it);
	n = methodmap_stack_items(g, strlen(g), 0, &it, &bad);
	assert_int_equal(n, 2);
	assert_int_equal(bad, 4);
	free(it);
}

/* The Matrix 2.1+ sample decodes innermost first, names from the map. */
static void
decode_real_sample(void **state)
{
	struct methodmap *m = load(mapping);
	struct strlist out = STRLIST_INIT;
	const char *s = "0,1048574,1,1006\n1,243,1,1000\n";

	assert_int_equal(methodmap_decode(m, s, strlen(s), 0, &out), 0);
	assert_int_equal(out.nr, 2);
	assert_string_equal(out.items[0], "sample.tencent.matrix.trace."
	    "TestFpsActivity.onCreate(Landroid.os.Bundle;)V");
	assert_string_equal(out.items[1], "android.os.Handler.dispatchMessage"
	    "(Landroid.os.Message;)V");
	strlist_release(&out);
	methodmap_free(m);
}

/*
 * The path follows the costliest child and stops at children under 30 %
 * of the root: siblings and cheap leaves are not in the block's stack.
 */
static void
decode_follows_costliest_path(void **state)
{
	struct strlist out = STRLIST_INIT;
	const char *s =
		"0,1,1,1000\n"
		"1,2,1,100\n"		/* cheap sibling */
		"2,3,1,100\n"
		"1,4,1,800\n"		/* the heavy child */
		"2,5,2,300\n"		/* 30 %: still followed */
		"3,6,1,50\n"		/* 5 %: not */
		"2,7,1,200\n";

	assert_int_equal(methodmap_decode(NULL, s, strlen(s), 0, &out), 0);
	assert_int_equal(out.nr, 3);
	assert_string_equal(out.items[0], "method#5");
	assert_string_equal(out.items[1], "method#4");
	assert_string_equal(out.items[2], "method#1");
	strlist_release(&out);
}

/* Old stacks without the dispatch root: the costliest root is taken. */
static void
decode_without_dispatch_root(void **state)
{
	struct strlist out = STRLIST_INIT;
	const char *s = "0,99,1,200\n0,98,1,1611\n1,101,30,1611\n";

	assert_int_equal(methodmap_decode(NULL, s, strlen(s), 0, &out), 0);
	assert_int_equal(out.nr, 2);
	assert_string_equal(out.items[0], "method#101");
	assert_string_equal(out.items[1], "method#98");
	strlist_release(&out);
}

/* A cut stack reports the loss and keeps the whole lines before it. */
static void
decode_cut_reports_loss(void **state)
{
	struct strlist out = STRLIST_INIT;
	const char *s = "0,1048574,1,1006\n1,243,1,1000\n2,244,1,99";

	assert_int_equal(methodmap_decode(NULL, s, strlen(s), 1, &out), 1);
	assert_int_equal(out.nr, 2);
	assert_string_equal(out.items[0], "method#243");
	strlist_release(&out);
	assert_int_equal(methodmap_decode(NULL, "", 0, 0, &out), 0);
	assert_int_equal(out.nr, 0);
	assert_int_equal(methodmap_decode(NULL, "garbage", 7, 0, &out), 1);
	assert_int_equal(out.nr, 0);
}

/*
 * A hostile stack (100,000 nested lines) decodes in linear time and keeps
 * the innermost METHODMAP_MAX_FRAMES frames, reporting the loss.
 */
static void
decode_huge_stack_is_capped(void **state)
{
	struct strlist out = STRLIST_INIT;
	size_t n = 100000, len = 0;
	char *s = malloc(n * 32);

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, 32, "%zu,%zu,1,%zu\n", i,
		    i + 1, 1000000 - i);
	assert_int_equal(methodmap_decode(NULL, s, len, 0, &out), 1);
	assert_int_equal(out.nr, METHODMAP_MAX_FRAMES);
	assert_string_equal(out.items[0], "method#100000");
	strlist_release(&out);
	free(s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(mapping_lines_resolve),
	cmocka_unit_test(native_method_has_no_desc),
	cmocka_unit_test(ids_are_kept_without_a_name),
	cmocka_unit_test(bad_line_is_an_error),
	cmocka_unit_test(load_reads_a_file),
	cmocka_unit_test(first_of_repeated_ids_wins),
	cmocka_unit_test(empty_mapping_is_empty),
	cmocka_unit_test(stack_items_parse),
	cmocka_unit_test(cut_and_bad_stack_lines),
	cmocka_unit_test(decode_real_sample),
	cmocka_unit_test(decode_follows_costliest_path),
	cmocka_unit_test(decode_without_dispatch_root),
	cmocka_unit_test(decode_cut_reports_loss),
	cmocka_unit_test(decode_huge_stack_is_capped),
};
JG_UNIT_GROUP(methodmap, tests, NULL, NULL)
