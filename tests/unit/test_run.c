/*
 * test_run.c: the executor's pure pieces that turn scenario steps into
 * device commands: input command lines and their quoting, percent
 * coordinates on two screens, `am start` components, shards and result
 * paths.  What the device prints back is test_dumpsys.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "run.h"
#include "run_int.h"
#include "scenario.h"
#include "strbuf.h"
#include "strlist.h"

/* The input commands of every input step of `text`, one per line. */
static void
commands_of(const char *text, int w, int h, struct strbuf *out)
{
	struct scenario *scn;
	struct strlist cmds = STRLIST_INIT;

	assert_int_equal(scenario_parse(&scn, text, strlen(text), "t.scn",
	    NULL, NULL), 0);
	for (size_t i = 0; i < scenario_step_count(scn); i++) {
		const struct scenario_step *st = scenario_step(scn, i);

		if (run_step_is_input(st))
			assert_int_equal(run_input_commands(st, w, h, &cmds), 0);
		else
			assert_int_equal(run_input_commands(st, w, h, &cmds),
			    JG_EINVAL);
	}
	for (size_t i = 0; i < cmds.nr; i++)
		strbuf_addf(out, "%s\n", cmds.items[i]);
	strlist_release(&cmds);
	scenario_free(scn);
}

/* Gestures map to `input` with pixels; percentages follow the screen. */
static void
gestures_become_input_commands(void **state)
{
	static const char scn[] =
		"tap 50% 80%\n"
		"tap 10 20\n"
		"longpress 50% 25% 600ms\n"
		"swipe 50% 75% 50% 30%\n"
		"fling up\n"
		"fling left 150ms\n"
		"key BACK\n"
		"key 66\n"
		"wait 10\n";
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	commands_of(scn, 1080, 2400, &a);
	assert_string_equal(a.buf,
	    "input tap 540 1920\n"
	    "input tap 10 20\n"
	    "input swipe 540 600 540 600 600\n"
	    "input swipe 540 1800 540 720 300\n"
	    "input swipe 540 1800 540 600 100\n"
	    "input swipe 810 1200 270 1200 150\n"
	    "input keyevent 4\n"
	    "input keyevent 66\n");
	/* The same script on a smaller screen lands on the same places. */
	commands_of(scn, 720, 1600, &b);
	assert_string_equal(b.buf,
	    "input tap 360 1280\n"
	    "input tap 10 20\n"
	    "input swipe 360 400 360 400 600\n"
	    "input swipe 360 1200 360 480 300\n"
	    "input swipe 360 1200 360 400 100\n"
	    "input swipe 540 800 180 800 150\n"
	    "input keyevent 4\n"
	    "input keyevent 66\n");
	strbuf_release(&a);
	strbuf_release(&b);
}

/* Typed text is one shell word with spaces as %s, whatever it holds. */
static void
typed_text_is_quoted_for_the_shell(void **state)
{
	static const struct {
		const char *scn;
		const char *cmds;
	} cases[] = {
		{ "type \"1 Main Street\"\n", "input text '1%sMain%sStreet'\n" },
		{ "type \"it's\"\n", "input text 'it'\\''s'\n" },
		{ "type \"$(reboot);`id`|&>x\"\n",
		  "input text '$(reboot);`id`|&>x'\n" },
		{ "type \"a\\\"b\\\\c\"\n", "input text 'a\"b\\c'\n" },
		/* input has no escape for %s: split between '%' and 's'. */
		{ "type \"50%sale\"\n", "input text '50%'\ninput text 'sale'\n" },
		{ "type \"%s\"\n", "input text '%'\ninput text 's'\n" },
		{ "type \"% s\"\n", "input text '%%ss'\n" },
		{ "type \"%%s x\"\n", "input text '%%'\ninput text 's%sx'\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		commands_of(cases[i].scn, 1080, 2400, &sb);
		assert_string_equal(sb.buf, cases[i].cmds);
		strbuf_release(&sb);
	}
}

/* `am start -n` takes pkg/.Act or pkg/full.Class as the user wrote it. */
static void
components_for_am_start(void **state)
{
	static const char *const cases[][2] = {
		{ ".HomeActivity", "com.example.shop/.HomeActivity" },
		{ "org.lib.Screen", "com.example.shop/org.lib.Screen" },
		{ "com.other/.Main", "com.other/.Main" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		run_component(&sb, "com.example.shop", cases[i][0]);
		assert_string_equal(sb.buf, cases[i][1]);
		strbuf_release(&sb);
	}
}

/* Shards: I/N parses strictly, and N shards cover each pair once. */
static void
shards_partition_the_pairs(void **state)
{
	static const char *const bad[] = {
		"", "1", "0/3", "4/3", "1/0", "a/2", "1/2x", "-1/2", "1/1001",
		"/2", "1/",
	};
	int i, n;

	assert_int_equal(run_parse_shard("2/4", &i, &n), 0);
	assert_int_equal(i, 2);
	assert_int_equal(n, 4);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
		assert_int_equal(run_parse_shard(bad[k], &i, &n), JG_EINVAL);

	for (int count = 1; count <= 5; count++) {
		for (size_t d = 0; d < 3; d++) {
			for (size_t s = 0; s < 4; s++) {
				int hits = 0;

				for (int idx = 1; idx <= count; idx++)
					hits += run_shard_selects(idx, count,
					    d, s, 4);
				assert_int_equal(hits, 1);
			}
		}
	}
	/* Pair k = d * S + s goes to shard k mod N + 1. */
	assert_true(run_shard_selects(1, 3, 1, 2, 4));	/* k = 6 */
	assert_false(run_shard_selects(2, 3, 1, 2, 4));
	assert_true(run_shard_selects(3, 3, 1, 1, 4));	/* k = 5 */
	assert_true(run_shard_selects(0, 0, 9, 9, 10));
}

/* Results paths: the key, or key@serial with the serial made safe. */
static void
results_paths(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	run_results_path(&sb, "out", "google-pixel-7-api34-90hz",
	    "127.0.0.1:5555", false);
	assert_string_equal(sb.buf, "out/google-pixel-7-api34-90hz/"
	    "results.json");
	strbuf_setlen(&sb, 0);
	run_results_path(&sb, "/o", "k", "127.0.0.1:5555", true);
	assert_string_equal(sb.buf, "/o/k@127.0.0.1_5555/results.json");
	strbuf_setlen(&sb, 0);
	run_results_path(&sb, "o", "k", "../../etc/x y", true);
	assert_string_equal(sb.buf, "o/k@.._.._etc_x_y/results.json");
	strbuf_release(&sb);
}

/*
 * An instrument step becomes one am instrument line: the extras and the
 * tests quoted for the device shell (a value with a space or a quote
 * stays one word), the runner completed in the test package; and a
 * test's scene is SimpleClass#method, refused when it could not be a
 * scene name.
 */
static void
instrument_command_line(void **state)
{
	static const char text[] = "instrument .ShopRunner com.x.FeedTest "
	    "com.x.CheckoutTest#placeOrder arg note \"it's two\"\n"
	    "instrument androidx.test.runner.AndroidJUnitRunner\n";
	struct scenario *scn;
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(scenario_parse(&scn, text, strlen(text), "t.scn",
	    NULL, NULL), 0);
	run_instrument_command(&sb, scenario_step(scn, 0), "com.x.test");
	assert_string_equal(sb.buf, "am instrument -w -r -e 'note' 'it'\\''s "
	    "two' -e class 'com.x.FeedTest,com.x.CheckoutTest#placeOrder' "
	    "'com.x.test/com.x.test.ShopRunner'");
	strbuf_reset(&sb);
	run_instrument_command(&sb, scenario_step(scn, 1), "com.x.test");
	assert_string_equal(sb.buf, "am instrument -w -r 'com.x.test/"
	    "androidx.test.runner.AndroidJUnitRunner'");
	strbuf_reset(&sb);
	run_instrument_scene_name(&sb, "com.x.test.FeedTest", "scrollFeed");
	assert_string_equal(sb.buf, "FeedTest#scrollFeed");
	strbuf_reset(&sb);
	assert_int_equal(run_instrument_scene_name(&sb, "NoPackage", "t[1]"),
	    0);
	assert_string_equal(sb.buf, "NoPackage#t[1]");
	/* a scene name has no control character and 100 bytes at most */
	assert_int_equal(run_instrument_scene_name(&sb, "a.B", "x\ty"),
	    JG_EINVAL);
	assert_string_equal(jg_error_msg(), "test 'a.B#x\ty' has a control "
	    "character in its name");
	assert_int_equal(run_instrument_scene_name(&sb, "a.B",
	    "m0123456789012345678901234567890123456789012345678901234567890"
	    "12345678901234567890123456789012345678"), JG_EINVAL);
	jg_error_clear();
	strbuf_release(&sb);
	scenario_free(scn);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(gestures_become_input_commands),
	cmocka_unit_test(typed_text_is_quoted_for_the_shell),
	cmocka_unit_test(components_for_am_start),
	cmocka_unit_test(shards_partition_the_pairs),
	cmocka_unit_test(results_paths),
	cmocka_unit_test(instrument_command_line),
};
JG_UNIT_GROUP(run, tests, NULL, NULL)
