/*
 * test_textenc.c: saved text in UTF-8 with or without a BOM, and in
 * UTF-16 LE or BE with or without one, read as UTF-8.
 */
#include <string.h>

#include "unit.h"
#include "strbuf.h"
#include "textenc.h"

/* "Hé €\r\n" followed by U+1F697 (a surrogate pair), in each form. */
static const char want[] = "H\xc3\xa9 \xe2\x82\xac\r\n\xf0\x9f\x9a\x97";

struct enc_case {
	const char *name;
	const char *bytes;
	size_t len;
	enum textenc enc;
};

#define B(s) s, sizeof(s) - 1

/* One body, every encoding: the text read is the same UTF-8. */
static void
every_encoding_reads_as_utf8(void **state)
{
	static const struct enc_case cases[] = {
		{ "utf-8", B("H\xc3\xa9 \xe2\x82\xac\r\n\xf0\x9f\x9a\x97"),
		  TEXTENC_UTF8 },
		{ "utf-8 bom", B("\xef\xbb\xbfH\xc3\xa9 \xe2\x82\xac\r\n"
		  "\xf0\x9f\x9a\x97"), TEXTENC_UTF8_BOM },
		{ "utf-16le bom", B("\xff\xfeH\0\xe9\0 \0\xac\x20\r\0\n\0"
		  "\x3d\xd8\x97\xde"), TEXTENC_UTF16LE },
		{ "utf-16be bom", B("\xfe\xff\0H\0\xe9\0 \x20\xac\0\r\0\n"
		  "\xd8\x3d\xde\x97"), TEXTENC_UTF16BE },
		{ "utf-16le", B("H\0\xe9\0 \0\xac\x20\r\0\n\0\x3d\xd8\x97\xde"),
		  TEXTENC_UTF16LE },
		{ "utf-16be", B("\0H\0\xe9\0 \x20\xac\0\r\0\n\xd8\x3d\xde\x97"),
		  TEXTENC_UTF16BE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *out;
		size_t n;

		if (textenc_utf8(&sb, cases[i].bytes, cases[i].len, &out,
		    &n) != cases[i].enc)
			fail_msg("%s: wrong encoding", cases[i].name);
		if (n != sizeof(want) - 1 || memcmp(out, want, n))
			fail_msg("%s: got '%.*s'", cases[i].name, (int)n, out);
		strbuf_release(&sb);
	}
}

/*
 * A lone surrogate is U+FFFD, an odd last byte (a cut file) is dropped,
 * and a NUL or two in UTF-8 text do not make it UTF-16.
 */
static void
broken_and_ambiguous_text(void **state)
{
	static const char lone[] = "a\0\x00\xd8" "b\0c";
	static const char nul[] = "12-01 10:00:00.000  1  2 I T: a\0b\n";
	struct strbuf sb = STRBUF_INIT;
	const char *out;
	size_t n;

	(void)state;
	assert_int_equal(textenc_utf8(&sb, lone, sizeof(lone) - 1, &out, &n),
	    TEXTENC_UTF16LE);
	assert_int_equal(n, 5);
	assert_memory_equal(out, "a\xef\xbf\xbd" "b", 5);
	assert_int_equal(textenc_utf8(&sb, nul, sizeof(nul) - 1, &out, &n),
	    TEXTENC_UTF8);
	assert_ptr_equal(out, nul);
	assert_int_equal(n, sizeof(nul) - 1);
	assert_int_equal(textenc_utf8(&sb, "", 0, &out, &n), TEXTENC_UTF8);
	assert_int_equal(n, 0);
	assert_string_equal(textenc_name(TEXTENC_UTF16BE), "UTF-16BE");
	strbuf_release(&sb);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(every_encoding_reads_as_utf8),
	cmocka_unit_test(broken_and_ambiguous_text),
};

JG_UNIT_GROUP(textenc, tests, NULL, NULL)
