/*
 * test_uidump.c: the UI hierarchy parser (harness/android/uidump.c), over dumps
 * shaped like UiAutomator's and over hostile ones: the app under test
 * controls every string in a dump, so a text must never become markup,
 * an entity must never reach a file, and a broken dump must be an error.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "strbuf.h"
#include "uidump.h"

#define HEAD "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" \
	"<hierarchy rotation=\"0\">"
#define NODE(attrs) "<node index=\"0\" " attrs " class=\"android.widget." \
	"TextView\" package=\"com.example.shop\" clickable=\"true\">"

static const char shop_home[] =
	HEAD "<node index=\"0\" text=\"\" resource-id=\"\" class=\"android."
	"widget.FrameLayout\" package=\"com.example.shop\" content-desc=\"\" "
	"clickable=\"false\" bounds=\"[0,0][1080,2400]\">"
	"<node index=\"0\" text=\"Shop\" resource-id=\"com.example.shop:id/"
	"title\" class=\"android.widget.TextView\" package=\"com.example.shop"
	"\" content-desc=\"\" clickable=\"false\" bounds=\"[48,150][600,260]\">"
	"</node>"
	"<node index=\"1\" text=\"\" resource-id=\"com.example.shop:id/search\" "
	"class=\"android.widget.ImageButton\" package=\"com.example.shop\" "
	"content-desc=\"Search\" clickable=\"true\" "
	"bounds=\"[900,150][1032,260]\"></node>"
	"<node index=\"2\" text=\"Browse the feed\" resource-id=\"com.example."
	"shop:id/browse\" class=\"android.widget.Button\" package=\"com.example"
	".shop\" content-desc=\"\" clickable=\"true\" "
	"bounds=\"[90,1100][990,1260]\"></node>"
	"</node></hierarchy>UI hierchary dumped to: /dev/tty\n";

/* Views come out flat, in document order, with their attributes. */
static void
parses_every_node_in_order(void **state)
{
	struct uidump *d;
	const struct uidump_node *n;

	assert_int_equal(uidump_parse(&d, shop_home, strlen(shop_home)), 0);
	assert_int_equal(uidump_count(d), 4);
	n = uidump_node(d, 2);
	assert_string_equal(n->text, "");
	assert_string_equal(n->desc, "Search");
	assert_string_equal(n->id, "com.example.shop:id/search");
	assert_true(n->clickable);
	assert_int_equal(n->left, 900);
	assert_int_equal(n->bottom, 260);
	assert_null(uidump_node(d, 4));
	uidump_free(d);
}

/* Text, description and id (bare or full) find the right view. */
static void
finds_by_text_id_and_desc(void **state)
{
	struct uidump *d;
	const struct uidump_node *n;
	int x, y;

	assert_int_equal(uidump_parse(&d, shop_home, strlen(shop_home)), 0);
	n = uidump_find(d, UIDUMP_TEXT, "Browse the feed");
	assert_non_null(n);
	uidump_center(n, &x, &y);
	assert_int_equal(x, 540);
	assert_int_equal(y, 1180);
	assert_ptr_equal(uidump_find(d, UIDUMP_ID, "browse"), n);
	assert_ptr_equal(uidump_find(d, UIDUMP_ID,
	    "com.example.shop:id/browse"), n);
	assert_null(uidump_find(d, UIDUMP_ID, "other:id/browse"));
	assert_non_null(uidump_find(d, UIDUMP_DESC, "Search"));
	assert_null(uidump_find(d, UIDUMP_TEXT, "Browse"));
	assert_null(uidump_find(d, UIDUMP_TEXT, "browse the feed"));
	uidump_free(d);
}

/* The "not found" listing names texts, ids and descriptions once each. */
static void
describe_lists_what_is_on_screen(void **state)
{
	struct uidump *d;
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(uidump_parse(&d, shop_home, strlen(shop_home)), 0);
	uidump_describe(d, &sb);
	assert_string_equal(sb.buf, "texts 'Shop', 'Browse the feed'; ids "
	    "'com.example.shop:id/title', 'com.example.shop:id/search', "
	    "'com.example.shop:id/browse'; descriptions 'Search'");
	strbuf_release(&sb);
	uidump_free(d);
}

/* Escaped markup in a text stays text: it is matched and shown as such. */
static void
hostile_text_stays_text(void **state)
{
	static const char xml[] = HEAD NODE("text=\"&lt;/node&gt;&quot;'&amp;"
	    "&#10;x\" bounds=\"[0,0][10,10]\"") "</node></hierarchy>";
	struct uidump *d;
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(uidump_parse(&d, xml, strlen(xml)), 0);
	assert_int_equal(uidump_count(d), 1);
	assert_string_equal(uidump_node(d, 0)->text, "</node>\"'&\nx");
	assert_non_null(uidump_find(d, UIDUMP_TEXT, "</node>\"'&\nx"));
	uidump_describe(d, &sb);
	assert_string_equal(sb.buf, "texts '</node>\"\\'&\\x0ax'");
	strbuf_release(&sb);
	uidump_free(d);
}

/* An external entity is never fetched: the file's bytes never appear. */
static void
external_entities_are_not_loaded(void **state)
{
	char path[512], xml[1024];
	struct uidump *d = NULL;
	FILE *fp;
	int rc;

	snprintf(path, sizeof(path), "%s/secret.txt", unit_tmpdir());
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("TOPSECRET", fp);
	fclose(fp);
	snprintf(xml, sizeof(xml), "<?xml version='1.0'?><!DOCTYPE hierarchy "
	    "[<!ENTITY e SYSTEM \"file://%s\">]><hierarchy><node text=\"&e;\" "
	    "bounds=\"[0,0][1,1]\"/><node text=\"x\">&e;</node></hierarchy>",
	    path);
	rc = uidump_parse(&d, xml, strlen(xml));
	if (rc == 0) {
		for (size_t i = 0; i < uidump_count(d); i++)
			assert_null(strstr(uidump_node(d, i)->text,
			    "TOPSECRET"));
	} else {
		assert_int_equal(rc, JG_EINVAL);
		assert_null(d);
	}
	uidump_free(d);
}

/* Nested entity expansion ("billion laughs") is refused or not expanded. */
static void
entity_bombs_do_not_expand(void **state)
{
	struct strbuf xml = STRBUF_INIT;
	struct uidump *d = NULL;
	int rc;

	strbuf_addstr(&xml, "<?xml version='1.0'?><!DOCTYPE hierarchy [<!ENTITY "
	    "a0 \"lollollollollollollollollollol\">");
	for (int i = 1; i < 10; i++) {
		strbuf_addf(&xml, "<!ENTITY a%d \"", i);
		for (int j = 0; j < 10; j++)
			strbuf_addf(&xml, "&a%d;", i - 1);
		strbuf_addstr(&xml, "\">");
	}
	strbuf_addstr(&xml, "]><hierarchy><node text=\"&a9;\" "
	    "bounds=\"[0,0][1,1]\"/></hierarchy>");
	rc = uidump_parse(&d, xml.buf, xml.len);
	if (rc == 0)
		assert_true(strlen(uidump_node(d, 0)->text) < 100000);
	else
		assert_int_equal(rc, JG_EINVAL);
	uidump_free(d);
	strbuf_release(&xml);
}

/* Output that is not a hierarchy, or is cut short, is an error. */
static void
broken_dumps_are_errors(void **state)
{
#define S(x) { x, sizeof(x) - 1 }
	static const struct {
		const char *s;
		size_t len;
	} bad[] = {
		S(""),
		S("ERROR: null root node returned by UiTestAutomationBridge.\n"),
		S(HEAD NODE("text=\"a\"") "</hierarchy>"),
		S("<hierarchy><node text=\"a\" bounds=\"[0,0][1,1]\">"
		    "</hierarchy>"),
		S("</hierarchy><hierarchy>"),
		S("<hierarchy><node text=\"a\0b\"/></hierarchy>"),
		S("<other><hierarchy/></other>"),
	};
#undef S

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct uidump *d = (struct uidump *)1;

		assert_int_equal(uidump_parse(&d, bad[i].s, bad[i].len),
		    JG_EINVAL);
		assert_null(d);
		assert_true(strlen(jg_error_msg()) > 0);
	}
}

/* Odd bounds leave a view unfindable instead of tapping nonsense. */
static void
bad_bounds_are_skipped_by_find(void **state)
{
	static const char xml[] = "<hierarchy>"
		"<node text=\"A\" bounds=\"[0,0][1080\"/>"
		"<node text=\"A\" bounds=\"[5,5][5,9]\"/>"
		"<node text=\"A\" bounds=\"[1,2][3,4]x\"/>"
		"<node text=\"A\" bounds=\"[10,20][30,40]\"/>"
		"</hierarchy>";
	struct uidump *d;
	const struct uidump_node *n;

	assert_int_equal(uidump_parse(&d, xml, strlen(xml)), 0);
	assert_int_equal(uidump_count(d), 4);
	n = uidump_find(d, UIDUMP_TEXT, "A");
	assert_ptr_equal(n, uidump_node(d, 3));
	uidump_free(d);
}

/* Long strings are cut in the listing, at a character, and lists end. */
static void
describe_bounds_its_output(void **state)
{
	struct strbuf xml = STRBUF_INIT, sb = STRBUF_INIT;
	struct uidump *d;

	strbuf_addstr(&xml, "<hierarchy><node text=\"");
	for (int i = 0; i < 30; i++)
		strbuf_addstr(&xml, "\xc3\xa9");	/* é: two bytes */
	strbuf_addstr(&xml, "zz\"/>");
	for (int i = 0; i < 50; i++)
		strbuf_addf(&xml, "<node text=\"t%d\"/>", i);
	strbuf_addstr(&xml, "</hierarchy>");
	assert_int_equal(uidump_parse(&d, xml.buf, xml.len), 0);
	uidump_describe(d, &sb);
	/* 60 bytes of é, then "...": the "zz" is cut off. */
	assert_non_null(strstr(sb.buf, "\xc3\xa9'..."));
	assert_null(strstr(sb.buf, "zz"));
	assert_non_null(strstr(sb.buf, "'t38' and 11 more"));
	assert_null(strstr(sb.buf, "t39"));
	uidump_free(d);
	strbuf_release(&xml);
	strbuf_release(&sb);
}

/* An empty screen (the launcher) says so. */
static void
empty_screen_says_nothing_is_there(void **state)
{
	static const char xml[] = HEAD "<node text=\"\" resource-id=\"\" "
	    "content-desc=\"\" bounds=\"[0,0][1080,2400]\"/></hierarchy>";
	struct uidump *d;
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(uidump_parse(&d, xml, strlen(xml)), 0);
	uidump_describe(d, &sb);
	assert_string_equal(sb.buf, "nothing with text, id or description");
	assert_null(uidump_find(d, UIDUMP_TEXT, ""));
	strbuf_release(&sb);
	uidump_free(d);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(parses_every_node_in_order),
	cmocka_unit_test(finds_by_text_id_and_desc),
	cmocka_unit_test(describe_lists_what_is_on_screen),
	cmocka_unit_test(hostile_text_stays_text),
	cmocka_unit_test(external_entities_are_not_loaded),
	cmocka_unit_test(entity_bombs_do_not_expand),
	cmocka_unit_test(broken_dumps_are_errors),
	cmocka_unit_test(bad_bounds_are_skipped_by_find),
	cmocka_unit_test(describe_bounds_its_output),
	cmocka_unit_test(empty_screen_says_nothing_is_there),
};
JG_UNIT_GROUP(uidump, tests, NULL, NULL)
