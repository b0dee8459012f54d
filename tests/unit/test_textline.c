/* test_textline.c: the line walk the gfxinfo and startup sources share. */
#include <string.h>

#include "unit.h"
#include "textline.h"

/* Split `text` and join the lines with '|' into out (size 256). */
static size_t
split(const char *text, size_t len, char *out)
{
	const char *pos = text, *end = text + len;
	struct text_line l;
	size_t nr = 0, o = 0;

	out[0] = '\0';
	while (text_next_line(&pos, end, &l)) {
		assert_true(o + l.n + 2 < 256);
		if (nr++)
			out[o++] = '|';
		memcpy(out + o, l.s, l.n);
		o += l.n;
		out[o] = '\0';
	}
	assert_ptr_equal(pos, end);
	return nr;
}

/* LF and CRLF ends, trailing blanks, blank lines, no final newline. */
static void
lines_lose_their_ends(void **state)
{
	static const char text[] = "a b  \r\n\n  c\r\r\nlast ";
	char out[256];

	(void)state;
	assert_int_equal(split(text, sizeof(text) - 1, out), 4);
	assert_string_equal(out, "a b||  c|last");
}

/* An empty text has no lines; one LF is one empty line. */
static void
empty_and_lone_newline(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(split("", 0, out), 0);
	assert_int_equal(split("\n", 1, out), 1);
	assert_string_equal(out, "");
}

/* A NUL inside a line is data, not an end: the walk counts bytes. */
static void
embedded_nul_is_kept(void **state)
{
	static const char text[] = "x\0y\nz";
	const char *pos = text;
	struct text_line l;

	(void)state;
	assert_true(text_next_line(&pos, text + 5, &l));
	assert_int_equal(l.n, 3);
	assert_memory_equal(l.s, "x\0y", 3);
	assert_true(text_next_line(&pos, text + 5, &l));
	assert_int_equal(l.n, 1);
	assert_false(text_next_line(&pos, text + 5, &l));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(lines_lose_their_ends),
	cmocka_unit_test(empty_and_lone_newline),
	cmocka_unit_test(embedded_nul_is_kept),
};
JG_UNIT_GROUP(textline, tests, NULL, NULL)
