/*
 * test_utf8.c: the strict UTF-8 decoder.
 */
#include <string.h>

#include "unit.h"
#include "strbuf.h"
#include "utf8.h"

struct u8case {
	const char *bytes;
	size_t n;
	size_t len;		/* utf8_len */
	unsigned cp;		/* utf8_decode */
};

/* Valid forms decode; overlongs, surrogates, >U+10FFFF and cuts do not. */
static void
strict_rules(void **state)
{
	static const struct u8case cases[] = {
		{ "A", 1, 1, 0x41 },
		{ "\xc3\xa9", 2, 2, 0xe9 },		/* é */
		{ "\xe2\x82\xac", 3, 3, 0x20ac },	/* € */
		{ "\xf0\x9f\x98\x80", 4, 4, 0x1f600 },	/* emoji */
		{ "\xc0\xaf", 2, 0, 0xfffd },		/* overlong '/' */
		{ "\xe0\x80\xaf", 3, 0, 0xfffd },	/* overlong */
		{ "\xed\xa0\x80", 3, 0, 0xfffd },	/* surrogate */
		{ "\xf4\x90\x80\x80", 4, 0, 0xfffd },	/* > U+10FFFF */
		{ "\xe2\x82", 2, 0, 0xfffd },		/* cut short */
		{ "\x80", 1, 0, 0xfffd },		/* lone continuation */
		{ "\xff", 1, 0, 0xfffd },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const unsigned char *p = (const unsigned char *)cases[i].bytes;
		unsigned cp = 0;

		assert_int_equal(utf8_len(p, cases[i].n), cases[i].len);
		assert_int_equal(utf8_decode(p, cases[i].n, &cp),
		    cases[i].len ? cases[i].len : 1);
		assert_int_equal(cp, cases[i].cp);
	}
}

/*
 * Terminal output: controls, DEL, C1 controls, bidi overrides and bad
 * bytes become '?'; newlines stay only when asked; text is kept.
 */
static void
printable_neutralises_terminal_controls(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char in[] = "a\x1b[31mb\r\x7f\xc2\x9b\xe2\x80\xae" "c\n\td\xff"
	    "\xc3\xa9";

	utf8_add_printable(&sb, in, sizeof(in) - 1, 0);
	assert_string_equal(sb.buf, "a?[31mb????c  d?\xc3\xa9");
	strbuf_reset(&sb);
	utf8_add_printable(&sb, "x\ny", 3, 1);
	assert_string_equal(sb.buf, "x\ny");
	strbuf_release(&sb);
}

/* Each length class, and what has no UTF-8 form becomes U+FFFD. */
static void
encode_every_length(void **state)
{
	static const unsigned cps[] = { 0x41, 0xe9, 0x20ac, 0x1f600, 0xd800,
	    0x110000 };
	struct strbuf sb = STRBUF_INIT;
	unsigned back;

	(void)state;
	for (size_t i = 0; i < sizeof(cps) / sizeof(*cps); i++)
		utf8_encode(&sb, cps[i]);
	assert_string_equal(sb.buf, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
	    "\xef\xbf\xbd\xef\xbf\xbd");
	assert_int_equal(utf8_decode((const unsigned char *)sb.buf + 6, 4,
	    &back), 4);
	assert_int_equal(back, 0x1f600);
	strbuf_release(&sb);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(encode_every_length),
	cmocka_unit_test(printable_neutralises_terminal_controls),
	cmocka_unit_test(strict_rules),
};
JG_UNIT_GROUP(utf8, tests, NULL, NULL)
