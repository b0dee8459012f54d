/*
 * test_shquote.c: quoting for the device shell.
 *
 * The round-trip tests run every quoted string through a real POSIX shell
 * (`/bin/sh -c 'printf %s QUOTED'`) and compare the bytes that come back,
 * so a quoting mistake fails here rather than on a phone.  Devices run
 * mksh, which is not installed on build hosts; /bin/sh (dash) follows the
 * same POSIX single-quote rules, which are all sh_quote relies on.
 */
#include <string.h>

#include "unit.h"
#include "proc.h"
#include "shquote.h"
#include "strbuf.h"
#include "xalloc.h"

/*
 * Run `printf %s WORD` through /bin/sh and return what it printed.  The
 * script goes in on stdin, so strings beyond the kernel's 128 kB limit
 * for one argument can be tested too.
 */
static void
shell_printf(struct strbuf *out, const char *args)
{
	struct proc_result res;
	char *script = xasprintf("printf %s", args);
	const char *argv[] = { "/bin/sh", NULL };
	struct proc_opts opts = { .in = script, .in_len = strlen(script),
	    .timeout_ms = 20000 };

	proc_result_init(&res);
	assert_int_equal(proc_run(&res, argv, &opts), 0);
	assert_int_equal(res.exit_code, 0);
	strbuf_add(out, res.out.buf, res.out.len);
	proc_result_release(&res);
	free(script);
}

static void
assert_round_trip(const char *s)
{
	struct strbuf q = STRBUF_INIT, back = STRBUF_INIT;

	strbuf_addstr(&q, "%s ");
	sh_quote(&q, s);
	shell_printf(&back, q.buf);
	assert_int_equal(back.len, strlen(s));
	assert_memory_equal(back.buf, s, back.len);
	strbuf_release(&q);
	strbuf_release(&back);
}

/* The quoted forms are exactly the documented ones. */
static void
quoted_forms(void **state)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "", "''" },
		{ "abc", "'abc'" },
		{ "it's", "'it'\\''s'" },
		{ "'", "''\\'''" },
		{ "a b", "'a b'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf q = STRBUF_INIT;

		sh_quote(&q, cases[i].in);
		assert_string_equal(q.buf, cases[i].want);
		strbuf_release(&q);
	}
}

/* Hostile strings come back from a real shell byte for byte. */
static void
hostile_strings_survive_the_shell(void **state)
{
	static const char *const cases[] = {
		"", "plain", "it's", "''", "'\\''", "\"double\"",
		"$(rm -rf /tmp/jg-should-not-exist)", "`id`", "${HOME}", "$1$?$$",
		"a\nb\n", "trailing newline\n", "a;b", "a && b || c", "a | b",
		"*", "?", "[a-z]*", "~", "~root", "back\\slash\\", "\\'",
		"tab\there", "-n", "--", "#comment", "!bang", "% %s %d",
		"\xc3\xa9t\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "<in >out 2>&1",
		"$(printf '%s' \"x'y\")", "{a,b}", "a=b c", "\x01\x7f\xff",
	};

	size_t n = sizeof(cases) / sizeof(cases[0]);
	struct strbuf words = STRBUF_INIT, back = STRBUF_INIT;
	const char *p;

	/* One shell for all: printf '%s\0' WORD... then split at the NULs. */
	strbuf_addstr(&words, "'%s\\0'");
	for (size_t i = 0; i < n; i++) {
		strbuf_addch(&words, ' ');
		sh_quote(&words, cases[i]);
	}
	shell_printf(&back, words.buf);
	p = back.buf;
	for (size_t i = 0; i < n; i++) {
		assert_true(p < back.buf + back.len);
		assert_string_equal(p, cases[i]);
		p += strlen(p) + 1;
	}
	assert_true(p == back.buf + back.len);
	strbuf_release(&words);
	strbuf_release(&back);
}

/* Every non-NUL byte value, and a 300 kB string full of quotes, survive. */
static void
all_bytes_and_long_strings_survive(void **state)
{
	char bytes[256], *longs = xmalloc(300001);

	for (int i = 1; i < 256; i++)
		bytes[i - 1] = (char)i;
	bytes[255] = '\0';
	assert_round_trip(bytes);
	for (int i = 0; i < 300000; i++)
		longs[i] = "a'$ \n"[i % 5];
	longs[300000] = '\0';
	assert_round_trip(longs);
	free(longs);
}

/* Words of an argv stay separate words, however they look. */
static void
argv_words_stay_separate(void **state)
{
	const char *argv[] = { "printf", "<%s>", "a b", "", "c'd", NULL };
	struct strbuf cmd = STRBUF_INIT;
	struct proc_result res;
	const char *sh[] = { "/bin/sh", "-c", NULL, NULL };

	sh_quote_argv(&cmd, argv);
	assert_string_equal(cmd.buf, "'printf' '<%s>' 'a b' '' 'c'\\''d'");
	sh[2] = cmd.buf;
	proc_result_init(&res);
	assert_int_equal(proc_run(&res, sh, NULL), 0);
	assert_string_equal(res.out.buf, "<a b><><c'd>");
	proc_result_release(&res);
	strbuf_release(&cmd);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(quoted_forms),
	cmocka_unit_test(hostile_strings_survive_the_shell),
	cmocka_unit_test(all_bytes_and_long_strings_survive),
	cmocka_unit_test(argv_words_stay_separate),
};
JG_UNIT_GROUP(shquote, tests, NULL, NULL)
