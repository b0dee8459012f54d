/*
 * test_strbuf.c: the growable buffer.
 */
#include <string.h>

#include "unit.h"
#include "strbuf.h"

/* A fresh buffer is an empty string, not NULL, and owns no memory. */
static void
init_is_empty_string(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(sb.buf);
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	assert_int_equal(sb.alloc, 0);
}

/* Appends of every kind accumulate in order and stay NUL-terminated. */
static void
appends_accumulate(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "fps=");
	strbuf_addf(&sb, "%d.%d", 59, 5);
	strbuf_addch(&sb, '!');
	strbuf_add(&sb, "xyz", 2);
	assert_string_equal(sb.buf, "fps=59.5!xy");
	assert_int_equal(sb.len, 11);
	strbuf_release(&sb);
}

/* Binary data with NULs keeps its length. */
static void
binary_data_keeps_length(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, "a\0b", 3);
	assert_int_equal(sb.len, 3);
	assert_memory_equal(sb.buf, "a\0b", 3);
	strbuf_release(&sb);
}

/* Growth past many reallocations keeps earlier contents. */
static void
large_growth_keeps_contents(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < 100000; i++)
		strbuf_addch(&sb, 'a' + i % 26);
	assert_int_equal(sb.len, 100000);
	assert_int_equal(sb.buf[0], 'a');
	assert_int_equal(sb.buf[99999], 'a' + 99999 % 26);
	assert_int_equal(sb.buf[100000], '\0');
	strbuf_release(&sb);
}

/* remove() drops a middle range and clamps ranges past the end. */
static void
remove_drops_range(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "0123456789");
	strbuf_remove(&sb, 2, 3);
	assert_string_equal(sb.buf, "0156789");
	strbuf_remove(&sb, 5, 100);
	assert_string_equal(sb.buf, "01567");
	strbuf_remove(&sb, 50, 1);
	assert_string_equal(sb.buf, "01567");
	strbuf_release(&sb);
}

/* detach() hands over the memory and resets the buffer. */
static void
detach_hands_over(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	s = strbuf_detach(&sb, &len);
	assert_string_equal(s, "");
	free(s);
	strbuf_addstr(&sb, "scene");
	s = strbuf_detach(&sb, &len);
	assert_string_equal(s, "scene");
	assert_int_equal(len, 5);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	free(s);
}

/* rtrim() strips CR, LF, spaces and tabs at the end only. */
static void
rtrim_strips_trailing_space(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, " a b \t\r\n");
	strbuf_rtrim(&sb);
	assert_string_equal(sb.buf, " a b");
	strbuf_release(&sb);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(init_is_empty_string),
	cmocka_unit_test(appends_accumulate),
	cmocka_unit_test(binary_data_keeps_length),
	cmocka_unit_test(large_growth_keeps_contents),
	cmocka_unit_test(remove_drops_range),
	cmocka_unit_test(detach_hands_over),
	cmocka_unit_test(rtrim_strips_trailing_space),
};
JG_UNIT_GROUP(strbuf, tests, NULL, NULL)
