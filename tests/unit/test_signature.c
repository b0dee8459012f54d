/*
 * test_signature.c: block signatures, the stable names of block causes.
 */
#include <stdbool.h>
#include <string.h>

#include "unit.h"
#include "results.h"
#include "signature.h"
#include "strlist.h"

/* A stack from a NULL-terminated list of frames. */
static void
stack_of(struct strlist *l, const char *const *frames)
{
	strlist_init(l);
	for (; *frames; frames++)
		strlist_add(l, *frames);
}

/* The signature of a NULL-terminated list of frames; caller frees. */
static char *
sig(const char *const *frames)
{
	struct strlist l;
	char *s;

	stack_of(&l, frames);
	s = signature_of(&l);
	strlist_release(&l);
	return s;
}

/*
 * The hash is pinned: a change to the rule or the hash would regroup every
 * stored baseline, so it must show up here.  FNV-1a 64 of "com.x.Foo.bar\n".
 */
static void
hash_value_is_pinned(void **state)
{
	const char *const f[] = { "com.x.Foo.bar", NULL };
	char *s = sig(f);

	assert_non_null(s);
	assert_int_equal(strlen(s), 16);
	assert_string_equal(s, "f5dd166c56038f51");
	free(s);
}

/* Line numbers, "at ", blanks and "(Unknown Source)" never matter. */
static void
line_numbers_are_optional(void **state)
{
	const char *const a[] = { "at com.x.Foo.bar(Foo.java:12)",
		"at com.x.Main.run(Main.java:3)", NULL };
	const char *const b[] = { "com.x.Foo.bar", "com.x.Main.run", NULL };
	const char *const c[] = { "\tcom.x.Foo.bar(Unknown Source) ",
		"  at com.x.Main.run(Main.java:99)\r", NULL };
	char *sa = sig(a), *sb = sig(b), *sc = sig(c);

	assert_non_null(sa);
	assert_string_equal(sa, sb);
	assert_string_equal(sa, sc);
	free(sa);
	free(sb);
	free(sc);
}

/* Framework, runtime and jank-library frames do not change a signature. */
static void
framework_frames_are_skipped(void **state)
{
	const char *const bare[] = { "com.x.Prefs.commit(Prefs.java:40)",
		"com.x.Checkout.onPay(Checkout.java:88)", NULL };
	const char *const framed[] = {
		"java.io.FileOutputStream.write(FileOutputStream.java:1)",
		"android.app.SharedPreferencesImpl.commit(Native Method)",
		"com.x.Prefs.commit(Prefs.java:41)",
		"kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:1)",
		"com.x.Checkout.onPay(Checkout.java:90)",
		"android.view.View.performClick(View.java:7448)",
		"com.tencent.matrix.trace.core.LooperMonitor.dispatch(L.java:1)",
		"android.os.Handler.dispatchMessage(Handler.java:106)",
		NULL };
	char *s1 = sig(bare), *s2 = sig(framed);

	assert_non_null(s1);
	assert_string_equal(s1, s2);
	free(s1);
	free(s2);
}

/* Only the first SIGNATURE_FRAMES application frames count. */
static void
only_top_frames_count(void **state)
{
	const char *const a[] = { "a.A.a", "a.B.b", "a.C.c", "a.D.d", "a.E.e",
		"a.F.f", NULL };
	const char *const b[] = { "a.A.a", "a.B.b", "a.C.c", "a.D.d", "a.E.e",
		"z.Other.entry", NULL };
	const char *const c[] = { "a.A.a", "a.B.b", "a.C.c", "a.D.d", "a.X.x",
		NULL };
	char *sa = sig(a), *sb = sig(b), *sc = sig(c);

	assert_int_equal(SIGNATURE_FRAMES, 5);
	assert_string_equal(sa, sb);
	assert_string_not_equal(sa, sc);
	free(sa);
	free(sb);
	free(sc);
}

/* Frame order matters: the innermost frame is the cause. */
static void
order_matters(void **state)
{
	const char *const a[] = { "com.x.A.a", "com.x.B.b", NULL };
	const char *const b[] = { "com.x.B.b", "com.x.A.a", NULL };
	char *sa = sig(a), *sb = sig(b);

	assert_string_not_equal(sa, sb);
	free(sa);
	free(sb);
}

/* No application frame, an empty stack or NULL give no signature. */
static void
no_app_frame_is_null(void **state)
{
	const char *const fw[] = { "java.lang.Thread.sleep(Native Method)",
		"android.os.Looper.loop(Looper.java:223)", "...", "  ", "",
		"(Unknown Source)", "12", NULL };
	const char *const none[] = { NULL };

	assert_null(sig(fw));
	assert_null(sig(none));
	assert_null(signature_of(NULL));
}

/* A prefix is a package boundary: "javafoo." and "androidapp." are apps. */
static void
prefixes_need_the_dot(void **state)
{
	size_t len;
	const char *n = signature_frame_name("at androidapp.Main.x(M.java:1)",
	    &len);

	assert_int_equal(len, strlen("androidapp.Main.x"));
	assert_memory_equal(n, "androidapp.Main.x", len);
	assert_true(signature_frame_is_app(n, len));
	assert_true(signature_frame_is_app("javafoo.A.b", 11));
	assert_false(signature_frame_is_app("java.A.b", 8));
	assert_false(signature_frame_is_app("com.android.internal.X.y", 24));
	assert_true(signature_frame_is_app("method#1234", 11));
}

/* Decoded Matrix frames ("Cls.m(desc)ret") group with Java frames. */
static void
matrix_frames_group_with_java_frames(void **state)
{
	const char *const m[] = { "com.x.Feed.bind(Landroid.view.View;)V",
		"android.os.Handler.dispatchMessage(Landroid.os.Message;)V",
		NULL };
	const char *const j[] = { "com.x.Feed.bind(Feed.java:77)", NULL };
	char *sm = sig(m), *sj = sig(j);

	assert_string_equal(sm, sj);
	free(sm);
	free(sj);
}

/* signature_set() fills and replaces the block's signature. */
static void
set_fills_and_replaces(void **state)
{
	struct rs_block b;

	memset(&b, 0, sizeof(b));
	strlist_add(&b.stack, "java.lang.Object.wait(Native Method)");
	signature_set(&b);
	assert_null(b.signature);
	strlist_add(&b.stack, "com.x.A.a(A.java:1)");
	signature_set(&b);
	assert_non_null(b.signature);
	signature_set(&b);
	assert_non_null(b.signature);
	free(b.signature);
	strlist_release(&b.stack);
}

/* Hostile bytes in a frame (HTML, quotes, controls, UTF-8) hash fine. */
static void
hostile_frames_hash(void **state)
{
	const char *const f[] = { "<script>\"x\".y('z')</script>",
		"com.x.\x01\x7f\"<b>.m", "com.\xc3\xa9t\xc3\xa9.A.b", NULL };
	char *s = sig(f);

	assert_non_null(s);
	assert_int_equal(strlen(s), 16);
	assert_int_equal(strspn(s, "0123456789abcdef"), 16);
	free(s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(hash_value_is_pinned),
	cmocka_unit_test(line_numbers_are_optional),
	cmocka_unit_test(framework_frames_are_skipped),
	cmocka_unit_test(only_top_frames_count),
	cmocka_unit_test(order_matters),
	cmocka_unit_test(no_app_frame_is_null),
	cmocka_unit_test(prefixes_need_the_dot),
	cmocka_unit_test(matrix_frames_group_with_java_frames),
	cmocka_unit_test(set_fills_and_replaces),
	cmocka_unit_test(hostile_frames_hash),
};
JG_UNIT_GROUP(signature, tests, NULL, NULL)
