/*
 * test_scenario.c: the scenario language (scenario.h): parsing, errors,
 * includes, and the helpers the executor uses.
 *
 * Most tests are tables: a script and either the steps it must produce
 * (one "LINE:COL canonical-form" line per step) or the exact errors it must
 * report.  Include tests use the fixtures in tests/unit/data/scenarios/ and
 * files written to the per-process temporary directory.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "fileio.h"
#include "scenario.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"

/* Every step of `scn` as "LINE:COL text\n", indented by block depth. */
static void
dump(const struct scenario *scn, struct strbuf *out)
{
	int depth = 0;

	for (size_t i = 0; i < scenario_step_count(scn); i++) {
		const struct scenario_step *st = scenario_step(scn, i);

		if (st->kind == SCN_SCENE_END || st->kind == SCN_REPEAT_END)
			depth--;
		strbuf_addf(out, "%d:%d %*s", st->line, st->col, 2 * depth, "");
		scenario_format_step(st, out);
		strbuf_addch(out, '\n');
		if (st->kind == SCN_SCENE || st->kind == SCN_REPEAT)
			depth++;
	}
}

/* All errors of `problems`, one per line. */
static void
join_problems(const struct strlist *problems, struct strbuf *out)
{
	for (size_t i = 0; i < problems->nr; i++)
		strbuf_addf(out, "%s\n", problems->items[i]);
}

/* Parse `text` as "t.scn"; on failure fail the test showing every error. */
static struct scenario *
parse_ok(const char *text, size_t len)
{
	struct strlist problems = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct scenario *scn;

	if (scenario_parse(&scn, text, len, "t.scn", NULL, &problems)) {
		join_problems(&problems, &sb);
		fail_msg("unexpected errors:\n%s", sb.buf);
	}
	strlist_release(&problems);
	strbuf_release(&sb);
	return scn;
}

/* Parse `text` as "t.scn" and return its errors joined; "" when none. */
static char *
parse_errors(const char *text, size_t len)
{
	struct strlist problems = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct scenario *scn;
	int rc;

	rc = scenario_parse(&scn, text, len, "t.scn", NULL, &problems);
	assert_int_equal(rc, problems.nr ? JG_EINVAL : 0);
	if (rc)
		assert_null(scn);
	scenario_free(scn);
	join_problems(&problems, &sb);
	strlist_release(&problems);
	return strbuf_detach(&sb, NULL);
}

static void
write_file(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *slash = strrchr(path, '/');

	*slash = '\0';
	assert_int_equal(file_mkdirs(path, 0755), 0);
	*slash = '/';
	assert_int_equal(file_write_atomic(path, text, strlen(text), 0644), 0);
	free(path);
}

/* "scene " and a name of the longest length allowed, or one byte more. */
#define A10 "aaaaaaaaaa"
#define NAME100 "scene " A10 A10 A10 A10 A10 A10 A10 A10 A10 A10
#define NAME101 NAME100 "a"

static const struct valid_case {
	const char *script;
	const char *steps;
} valid_cases[] = {
	/* launch forms and their defaults */
	{ "launch\nlaunch warm\nlaunch hot .Main\nlaunch com.shop/.Main\n",
	  "1:1 launch cold\n2:1 launch warm\n3:1 launch hot .Main\n"
	  "4:1 launch cold com.shop/.Main\n" },
	{ "stop\nclear\n", "1:1 stop\n2:1 clear\n" },
	/* coordinates: pixels, percentages with decimals, mixed */
	{ "tap 540 1200\ntap 50% 12.5%\ntap 0 100%\ntap 0.125% 99.9%\n",
	  "1:1 tap 540 1200\n2:1 tap 50% 12.5%\n3:1 tap 0 100%\n"
	  "4:1 tap 0.125% 99.9%\n" },
	/* durations: plain ms, ms suffix, seconds with decimals, defaults */
	{ "longpress 1 2\nlongpress 1 2 750\nswipe 1 2 3 4\n"
	  "swipe 1 2 3 4 1.5s\nfling left\nfling right 80ms\nwait 2s\n",
	  "1:1 longpress 1 2 1000ms\n2:1 longpress 1 2 750ms\n"
	  "3:1 swipe 1 2 3 4 300ms\n4:1 swipe 1 2 3 4 1500ms\n"
	  "5:1 fling left 100ms\n6:1 fling right 80ms\n7:1 wait 2000ms\n" },
	/* the UI-reading commands, bare and quoted words */
	{ "tap text \"Buy now\"\ntap text Cart\ntap id com.shop:id/buy\n"
	  "tap desc \"Open menu\"\n",
	  "1:1 tap text \"Buy now\"\n2:1 tap text Cart\n"
	  "3:1 tap id com.shop:id/buy\n4:1 tap desc \"Open menu\"\n" },
	/* escapes in strings, '#' inside quotes and inside a word */
	{ "type \"say \\\"hi\\\"\\n\\tand \\\\ # no comment\"\ntype id#3\n",
	  "1:1 type \"say \\\"hi\\\"\\n\\tand \\\\ # no comment\"\n"
	  "2:1 type id#3\n" },
	/* keys by name (any case, KEYCODE_ prefix) and by number */
	{ "key BACK\nkey home\nkey KEYCODE_ENTER\nkey 187\nkey 300\n"
	  "key KEYCODE_7\nkey a\n",
	  "1:1 key BACK\n2:1 key HOME\n3:1 key ENTER\n4:1 key APP_SWITCH\n"
	  "5:1 key 300\n6:1 key KEYCODE_7\n7:1 key A\n" },
	/* every wait form and expect */
	{ "wait 500\nwait idle\nwait idle 3s\nwait activity .Feed\n"
	  "wait activity com.shop.Feed 20s\nwait text \"Done\" 1500ms\n"
	  "expect activity .Feed\n",
	  "1:1 wait 500ms\n2:1 wait idle 10000ms\n3:1 wait idle 3000ms\n"
	  "4:1 wait activity .Feed 10000ms\n"
	  "5:1 wait activity com.shop.Feed 20000ms\n"
	  "6:1 wait text Done 1500ms\n7:1 expect activity .Feed\n" },
	/* blocks, nested repeats inside a scene, columns of indented lines */
	{ "scene feed\n  repeat 3\n    repeat 2\n      fling up\n    end\n"
	  "    wait idle\n  end\nend\nscene \"product detail\"\n"
	  "\twait 10\nend\n",
	  "1:1 scene feed\n2:3   repeat 3\n3:5     repeat 2\n"
	  "4:7       fling up 100ms\n5:5     end\n6:5     wait idle 10000ms\n"
	  "7:3   end\n8:1 end\n9:1 scene \"product detail\"\n"
	  "10:2   wait 10ms\n11:1 end\n" },
	/* comments, blank lines, CRLF, a byte order mark, no final newline */
	{ "\xef\xbb\xbf# header\r\n\r\n   \t\ntap 1 2  # trailing\r\n"
	  "# \xff not UTF-8 in a comment is fine\nstop",
	  "4:1 tap 1 2\n6:1 stop\n" },
	/* UTF-8 in words; canonical form quotes only where needed */
	{ "tap text \"\xc3\xa9t\xc3\xa9\" \nscene \"caf\xc3\xa9 1\"\n"
	  "wait 1\nend\n", "1:1 tap text \xc3\xa9t\xc3\xa9\n"
	  "2:1 scene \"caf\xc3\xa9 1\"\n3:1   wait 1ms\n4:1 end\n" },
	/* mode words and scene names that look like commands */
	{ "scene end\nwait 1\nend\n",
	  "1:1 scene end\n2:1   wait 1ms\n3:1 end\n" },
	/* the longest scene name */
	{ NAME100 "\nwait 1\nend\n", "1:1 " NAME100 "\n2:1   wait 1ms\n"
	  "3:1 end\n" },
	/* exec: every word an argument, quotes kept where needed, in scenes */
	{ "exec maestro test \"my flow.yaml\" # the shop\nscene s\n"
	  "exec ./run.sh\nend\n", "1:1 exec maestro test \"my flow.yaml\"\n"
	  "2:1 scene s\n3:1   exec ./run.sh\n4:1 end\n" },
	/* the empty file */
	{ "", "" },
};

/* Valid scripts produce exactly the expected steps, positions included. */
static void
valid_scripts_give_expected_steps(void **state)
{
	for (size_t i = 0; i < sizeof(valid_cases) / sizeof(valid_cases[0]);
	    i++) {
		const struct valid_case *c = &valid_cases[i];
		struct strbuf sb = STRBUF_INIT;
		struct scenario *scn = parse_ok(c->script, strlen(c->script));

		dump(scn, &sb);
		if (strcmp(sb.buf, c->steps))
			fail_msg("case %zu:\n%s\nwant:\n%s\ngot:\n%s", i,
			    c->script, c->steps, sb.buf);
		strbuf_release(&sb);
		scenario_free(scn);
	}
}

static const struct invalid_case {
	const char *script;
	const char *errors;
} invalid_cases[] = {
	/* commands */
	{ "tapp 1 2\n", "t.scn:1:1: unknown command 'tapp' (did you mean "
	  "'tap'?)\n" },
	{ "  frobnicate\n", "t.scn:1:3: unknown command 'frobnicate' "
	  "(expected one of: launch, stop, clear, scene, end, tap, longpress, "
	  "swipe, fling, type, key, wait, repeat, include, expect, exec, instrument)\n" },
	{ "TAP 1 2\n", "t.scn:1:1: unknown command 'TAP' (did you mean "
	  "'tap'?)\n" },
	{ "\"tap\" 1 2\n", "t.scn:1:1: expected a command, not a quoted "
	  "word\n" },
	/* exec needs a command, and words execvp() can take */
	{ "exec\n", "t.scn:1:5: missing COMMAND (usage: exec COMMAND "
	  "[ARG...])\n" },
	{ "exec sh \"\"\n", "t.scn:1:9: empty argument '' to 'exec'\n" },
	{ "exec sh \"a\\nb\"\n", "t.scn:1:9: control character in argument "
	  "'a\\nb' to 'exec'\n" },
	/* missing and extra arguments */
	{ "tap 1\n", "t.scn:1:6: missing Y (usage: tap X Y)\n" },
	{ "tap\n", "t.scn:1:4: missing argument (usage: tap text LABEL | "
	  "tap id RESOURCE_ID | tap desc DESCRIPTION | tap X Y)\n" },
	{ "swipe 1 2 3\n", "t.scn:1:12: missing Y2 (usage: swipe X1 Y1 X2 Y2 "
	  "[MS])\n" },
	{ "tap 1 2 3\n", "t.scn:1:9: unexpected argument '3' (usage: tap X "
	  "Y)\n" },
	{ "stop now\n", "t.scn:1:6: unexpected argument 'now' (usage: "
	  "stop)\n" },
	{ "tap text\n", "t.scn:1:9: missing LABEL (usage: tap text LABEL)\n" },
	{ "wait activity .A 1s 2s\n", "t.scn:1:21: unexpected argument '2s' "
	  "(usage: wait activity ACTIVITY [TIMEOUT])\n" },
	{ "expect\n", "t.scn:1:7: missing argument (usage: expect activity "
	  "ACTIVITY)\n" },
	{ "expect .Main\n", "t.scn:1:8: bad argument '.Main' to 'expect' "
	  "(expected one of: activity)\n" },
	/* sub words */
	{ "tap txt \"x\"\n", "t.scn:1:5: bad argument 'txt' to 'tap' (did you "
	  "mean 'text'?)\n" },
	{ "tap here\n", "t.scn:1:5: bad argument 'here' to 'tap' (expected "
	  "coordinates or one of: text, id, desc)\n" },
	{ "wait idel\n", "t.scn:1:6: bad argument 'idel' to 'wait' (did you "
	  "mean 'idle'?)\n" },
	{ "wait forever\n", "t.scn:1:6: bad argument 'forever' to 'wait' "
	  "(expected a duration or one of: idle, activity, text)\n" },
	/* numbers, percentages, durations */
	{ "tap 101% 5\n", "t.scn:1:5: percentage '101%' out of range "
	  "(expected 0% to 100%)\n" },
	{ "tap 5 12.5001%\n", "t.scn:1:7: bad coordinate '12.5001%' (expected "
	  "pixels such as 540 or a percentage such as 50%)\n" },
	{ "tap -5 5\n", "t.scn:1:5: bad coordinate '-5' (expected pixels such "
	  "as 540 or a percentage such as 50%)\n" },
	{ "tap 1.5 2\n", "t.scn:1:5: bad coordinate '1.5' (expected pixels "
	  "such as 540 or a percentage such as 50%)\n" },
	{ "tap 70000 1\n", "t.scn:1:5: pixel coordinate '70000' out of range "
	  "(expected 0 to 65535)\n" },
	{ "tap 99999999999999999999999 1\n", "t.scn:1:5: pixel coordinate "
	  "'99999999999999999999999' out of range (expected 0 to 65535)\n" },
	{ "tap \"5\" 1\n", "t.scn:1:5: bad coordinate '5' (numbers must not be "
	  "quoted)\n" },
	{ "wait 0\n", "t.scn:1:6: duration '0' out of range (expected 1ms to "
	  "3600s)\n" },
	{ "wait 2h\n", "t.scn:1:6: bad duration '2h' (expected milliseconds "
	  "such as 500 or 500ms, or seconds such as 2s)\n" },
	{ "longpress 1 2 61s\n", "t.scn:1:15: duration '61s' out of range "
	  "(expected 1ms to 60s)\n" },
	{ "wait idle 1.5ms\n", "t.scn:1:11: bad timeout '1.5ms' (expected "
	  "milliseconds such as 500 or 500ms, or seconds such as 2s)\n" },
	{ "repeat 0\ntap 1 1\nend\n", "t.scn:1:8: repeat count '0' out of "
	  "range (expected 1 to 10000)\n" },
	{ "repeat 10001\ntap 1 1\nend\n", "t.scn:1:8: repeat count '10001' "
	  "out of range (expected 1 to 10000)\n" },
	{ "repeat many\ntap 1 1\nend\n", "t.scn:1:8: bad repeat count 'many' "
	  "(expected a number from 1 to 10000)\n" },
	/* keys, directions, launch */
	{ "key BAKC\n", "t.scn:1:5: unknown key 'BAKC' (did you mean "
	  "'BACK'?)\n" },
	{ "key KEYCODE_ENTRE\n", "t.scn:1:5: unknown key 'KEYCODE_ENTRE' (did "
	  "you mean 'ENTER'?)\n" },
	{ "key FROBNICATE\n", "t.scn:1:5: unknown key 'FROBNICATE' (expected "
	  "an Android key name such as BACK, HOME or ENTER, or a keycode from "
	  "1 to 999)\n" },
	{ "key 0\n", "t.scn:1:5: keycode '0' out of range (expected 1 to "
	  "999)\n" },
	{ "fling upp\n", "t.scn:1:7: bad direction 'upp' (did you mean "
	  "'up'?)\n" },
	{ "fling sideways\n", "t.scn:1:7: bad direction 'sideways' (expected "
	  "up, down, left or right)\n" },
	{ "launch clod\n", "t.scn:1:8: bad launch mode 'clod' (did you mean "
	  "'cold'?)\n" },
	{ "launch Main\n", "t.scn:1:8: bad argument 'Main' to 'launch' "
	  "(expected cold, warm, hot or a class name such as .MainActivity)\n" },
	{ "launch warm Main\n", "t.scn:1:13: bad argument 'Main' to 'launch' "
	  "(expected a class name such as .MainActivity)\n" },
	{ "launch cold .A .B\n", "t.scn:1:16: unexpected argument '.B' "
	  "(usage: launch [cold|warm|hot] [ACTIVITY])\n" },
	{ "wait activity \"com.shop .A\"\n", "t.scn:1:15: bad activity name "
	  "'com.shop .A' (expected a class name such as .MainActivity or "
	  "com.shop/.MainActivity)\n" },
	{ "tap id \"a b\"\n", "t.scn:1:8: bad resource id 'a b' (expected a "
	  "name such as buy or com.shop:id/buy)\n" },
	/* texts and scene names */
	{ "type \"\"\n", "t.scn:1:6: empty text\n" },
	{ "scene \"\"\nwait 1\nend\n", "t.scn:1:7: empty scene name\n" },
	{ "scene \" a\"\nwait 1\nend\n", "t.scn:1:7: scene name ' a' starts or "
	  "ends with a space\n" },
	{ "scene \"a\\nb\"\nwait 1\nend\n", "t.scn:1:7: control character in "
	  "scene name 'a\\nb'\n" },
	{ NAME101 "\nwait 1\nend\n",
	  "t.scn:1:7: scene name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' "
	  "too long (101 bytes, at most 100)\n" },
	/* words and strings */
	{ "tap text \"abc\n", "t.scn:1:10: unterminated string\n" },
	{ "tap text \"abc\\\n", "t.scn:1:10: unterminated string\n" },
	{ "tap text \"a\\q\"\n", "t.scn:1:12: bad escape '\\q' in string "
	  "(expected \\\\, \\\", \\n or \\t)\n" },
	{ "tap text \"a\"b\n", "t.scn:1:13: expected a space after the closing "
	  "quote\n" },
	{ "tap text ab\"c\"\n", "t.scn:1:12: unexpected '\"' inside a word "
	  "(quote the whole word)\n" },
	{ "type \"a\x01\"\n", "t.scn:1:8: control character 0x01\n" },
	{ "tap 1\x7f 2\n", "t.scn:1:6: control character 0x7f\n" },
	{ "type \"\xc3\xa9\xff\"\n", "t.scn:1:8: invalid UTF-8\n" },
	{ "type \"\xc0\xaf\"\n", "t.scn:1:7: invalid UTF-8\n" },
	{ "type \"\xed\xa0\x80\"\n", "t.scn:1:7: invalid UTF-8\n" },
	/* columns count characters (code points), not bytes */
	{ "tap text \"\xc3\xa9t\xc3\xa9\" x\n", "t.scn:1:16: unexpected "
	  "argument 'x' (usage: tap text LABEL)\n" },
	{ "\xe2\x80\x83tap 1 1\n", "t.scn:1:1: unknown command "
	  "'\xe2\x80\x83tap' (expected one of: launch, stop, clear, scene, end, "
	  "tap, longpress, swipe, fling, type, key, wait, repeat, include, "
	  "expect, exec, instrument)\n" },
	{ "tap 1 2#c\n", "t.scn:1:7: bad coordinate '2#c' (expected pixels "
	  "such as 540 or a percentage such as 50%)\n" },
	/* blocks */
	{ "end\n", "t.scn:1:1: 'end' without an open 'scene' or 'repeat'\n" },
	{ "repeat 2\ntap 1 1\nend extra\n", "t.scn:3:5: unexpected argument "
	  "'extra' (usage: end)\n" },
	{ "tap 1 1\nscene feed\n  fling up\n", "t.scn:2:1: 'scene' is not "
	  "closed by 'end'\n" },
	{ "repeat 2\n  repeat 3\n    tap 1 1\n  end\n", "t.scn:1:1: 'repeat' "
	  "is not closed by 'end'\n" },
	{ "scene a\nend\nrepeat 3\nend\n", "t.scn:1:1: scene 'a' has no "
	  "steps\nt.scn:3:1: 'repeat' has no steps\n" },
	{ "scene a\n  scene b\n    tap 1 1\n  end\nend\n", "t.scn:2:3: "
	  "'scene' inside scene 'a' (opened at t.scn:1:1): scenes may not "
	  "nest\n" },
	{ "scene a\n  repeat 2\n    scene b\n      tap 1 1\n    end\n  end\n"
	  "end\n", "t.scn:3:5: 'scene' inside scene 'a' (opened at t.scn:1:1): "
	  "scenes may not nest\n" },
	{ "repeat 2\n  scene b\n    tap 1 1\n  end\nend\n", "t.scn:2:3: "
	  "'scene' inside 'repeat' (opened at t.scn:1:1): a scene is measured "
	  "once per iteration; put the repeat inside the scene\n" },
	{ "scene a\ntap 1 1\nend\nscene a\ntap 1 1\nend\n", "t.scn:4:7: "
	  "duplicate scene name 'a' (first at t.scn:1:1)\n" },
	/* what a scene refuses, and why */
	{ "scene s\n"
	  "  tap text OK\n  tap id ok\n  tap desc OK\n  wait text OK\n"
	  "  wait activity .A\n  expect activity .A\n"
	  "  launch\n  stop\n  clear\nend\n",
	  "t.scn:2:3: 'tap text' is not allowed inside scene 's': it dumps the "
	  "UI hierarchy, which would disturb the measurement\n"
	  "t.scn:3:3: 'tap id' is not allowed inside scene 's': it dumps the "
	  "UI hierarchy, which would disturb the measurement\n"
	  "t.scn:4:3: 'tap desc' is not allowed inside scene 's': it dumps the "
	  "UI hierarchy, which would disturb the measurement\n"
	  "t.scn:5:3: 'wait text' is not allowed inside scene 's': it dumps "
	  "the UI hierarchy, which would disturb the measurement\n"
	  "t.scn:6:3: 'wait activity' is not allowed inside scene 's': it "
	  "queries the activity manager, which would disturb the "
	  "measurement\n"
	  "t.scn:7:3: 'expect activity' is not allowed inside scene 's': it "
	  "queries the activity manager, which would disturb the "
	  "measurement\n"
	  "t.scn:8:3: 'launch' is not allowed inside scene 's': it ends the "
	  "app process whose frames the scene measures\n"
	  "t.scn:9:3: 'stop' is not allowed inside scene 's': it ends the app "
	  "process whose frames the scene measures\n"
	  "t.scn:10:3: 'clear' is not allowed inside scene 's': it ends the "
	  "app process whose frames the scene measures\n" },
	/* a bad opening line does not cascade into its block */
	{ "repeat x\n  tap 1 1\nend\nscene\n  tap text OK\nend\n",
	  "t.scn:1:8: bad repeat count 'x' (expected a number from 1 to "
	  "10000)\nt.scn:4:6: missing NAME (usage: scene NAME)\n"
	  "t.scn:5:3: 'tap text' is not allowed inside a scene: it dumps the "
	  "UI hierarchy, which would disturb the measurement\n" },
	{ "scene s\n  type \"abc\nend\n", "t.scn:2:8: unterminated string\n" },
	/* many errors in one script, each on its own line */
	{ "tap 5 x\nwait\nkey\nend\n", "t.scn:1:7: bad coordinate 'x' "
	  "(expected pixels such as 540 or a percentage such as 50%)\n"
	  "t.scn:2:5: missing argument (usage: wait idle [TIMEOUT] | wait "
	  "activity ACTIVITY [TIMEOUT] | wait text TEXT [TIMEOUT] | wait MS)\n"
	  "t.scn:3:4: missing NAME|CODE (usage: key NAME|CODE)\n"
	  "t.scn:4:1: 'end' without an open 'scene' or 'repeat'\n" },
	/* size limits */
	{ "repeat 10000\n  repeat 10000\n    tap 1 1\n  end\nend\n",
	  "t.scn:1:1: scenario expands to more than 1000000 steps (check the "
	  "repeat counts)\n" },
	{ "include \"\"\n", "t.scn:1:9: empty file name\n" },
	/* instrument (issue 52) */
	{ "instrument\n", "t.scn:1:11: missing RUNNER (usage: instrument "
	  "RUNNER [TEST]... [arg KEY VALUE]...)\n" },
	{ "instrument Runner\n", "t.scn:1:12: bad runner 'Runner' (expected "
	  "an instrumentation class such as androidx.test.runner."
	  "AndroidJUnitRunner or .MyRunner)\n" },
	{ "instrument .R a.B,c.D\n", "t.scn:1:15: bad test 'a.B,c.D' "
	  "(expected a class such as com.shop.test.FeedTest, or "
	  "CLASS#METHOD)\n" },
	{ "instrument .R a.B# x..Y\n", "t.scn:1:15: bad test 'a.B#' (expected "
	  "a class such as com.shop.test.FeedTest, or CLASS#METHOD)\n" },
	{ "instrument .R arg class a.B\n", "t.scn:1:19: 'arg class' would "
	  "replace the tests: name them after the runner\n" },
	{ "instrument .R arg size\n", "t.scn:1:23: missing VALUE (usage: "
	  "instrument RUNNER [TEST]... [arg KEY VALUE]...)\n" },
	{ "instrument .R arg size large a.B\n", "t.scn:1:30: expected 'arg "
	  "KEY VALUE', not 'a.B' (tests come before the first arg)\n" },
	{ "scene s\n  instrument .R\nend\n", "t.scn:2:3: 'instrument' is not "
	  "allowed inside scene 's': it ends the app process whose frames the "
	  "scene measures\n" },
	{ "repeat 2\n  instrument .R\nend\n", "t.scn:2:3: 'instrument' inside "
	  "'repeat' (opened at t.scn:1:1): its tests are scenes, measured "
	  "once per iteration\n" },
};

/* Invalid scripts report exactly the expected errors, with positions. */
static void
invalid_scripts_give_exact_errors(void **state)
{
	for (size_t i = 0;
	    i < sizeof(invalid_cases) / sizeof(invalid_cases[0]); i++) {
		const struct invalid_case *c = &invalid_cases[i];
		char *got = parse_errors(c->script, strlen(c->script));

		if (strcmp(got, c->errors))
			fail_msg("case %zu:\n%s\nwant:\n%s\ngot:\n%s", i,
			    c->script, c->errors, got);
		free(got);
	}
}

/* A failed parse returns JG_EINVAL, no scenario, the first error as message. */
static void
failure_sets_first_error_as_message(void **state)
{
	static const char text[] = "tap 1 1\nkey NOPE\nwait never\n";
	struct scenario *scn = (struct scenario *)&scn;

	jg_error_clear();
	assert_int_equal(scenario_parse(&scn, text, strlen(text), "dir/x.scn",
	    NULL, NULL), JG_EINVAL);
	assert_null(scn);
	assert_string_equal(jg_error_msg(), "dir/x.scn:2:5: unknown key 'NOPE' "
	    "(expected an Android key name such as BACK, HOME or ENTER, or a "
	    "keycode from 1 to 999)");
}

/* Errors past the limit are dropped after one "too many errors" line. */
static void
errors_stop_after_limit(void **state)
{
	struct strlist problems = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct scenario *scn;

	for (int i = 0; i < 50; i++)
		strbuf_addstr(&sb, "bogus\n");
	assert_int_equal(scenario_parse(&scn, sb.buf, sb.len, "t.scn", NULL,
	    &problems), JG_EINVAL);
	assert_int_equal(problems.nr, SCN_MAX_ERRORS + 1);
	assert_string_equal(problems.items[SCN_MAX_ERRORS - 1], "t.scn:20:1: "
	    "unknown command 'bogus' (expected one of: launch, stop, clear, "
	    "scene, end, tap, longpress, swipe, fling, type, key, wait, repeat, "
	    "include, expect, exec, instrument)");
	assert_string_equal(problems.items[SCN_MAX_ERRORS],
	    "t.scn:21:1: too many errors, stopping");
	strlist_release(&problems);
	strbuf_release(&sb);
}

/* New errors are appended after what the caller's list already holds. */
static void
errors_append_to_callers_list(void **state)
{
	struct strlist problems = STRLIST_INIT;
	struct scenario *scn;

	assert_int_equal(scenario_parse(&scn, "end\n", 4, "a.scn", NULL,
	    &problems), JG_EINVAL);
	assert_int_equal(scenario_parse(&scn, "x\n", 2, "b.scn", NULL,
	    &problems), JG_EINVAL);
	assert_int_equal(problems.nr, 2);
	assert_string_equal(problems.items[0], "a.scn:1:1: 'end' without an "
	    "open 'scene' or 'repeat'");
	assert_non_null(strstr(problems.items[1],
	    "b.scn:1:1: unknown command 'x'"));
	strlist_release(&problems);
}

/* NUL bytes are errors at their column, the rest of the file still parsed. */
static void
nul_byte_is_an_error(void **state)
{
	static const char text[] = "tap 1 1\nta\0p 1 1\n# \0 in a comment\nx\n";
	char *got = parse_errors(text, sizeof(text) - 1);

	assert_string_equal(got, "t.scn:2:3: NUL byte in file\n"
	    "t.scn:3:3: NUL byte in file\n"
	    "t.scn:4:1: unknown command 'x' (expected one of: launch, stop, "
	    "clear, scene, end, tap, longpress, swipe, fling, type, key, wait, "
	    "repeat, include, expect, exec, instrument)\n");
	free(got);
}

/* A megabyte of junk on one line gives one short error, and no crash. */
static void
huge_line_gives_one_short_error(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *got;

	strbuf_addstr(&sb, "tap ");
	for (int i = 0; i < 1 << 20; i++)
		strbuf_addch(&sb, i % 2 ? ' ' : '7');
	got = parse_errors(sb.buf, sb.len);
	assert_string_equal(got, "t.scn:1:131: too many words on one line (at "
	    "most 64)\n");
	free(got);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "tap text ");
	for (int i = 0; i < 1 << 20; i++)
		strbuf_addch(&sb, 'w');
	strbuf_addstr(&sb, "\"\n");
	got = parse_errors(sb.buf, sb.len);
	assert_string_equal(got, "t.scn:1:1048586: unexpected '\"' inside a "
	    "word (quote the whole word)\n");
	free(got);
	strbuf_release(&sb);
}

/* A 1 MB script of valid lines parses completely. */
static void
megabyte_script_parses(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct scenario *scn;
	size_t lines = 0;

	strbuf_addstr(&sb, "scene big\n");
	while (sb.len < (1 << 20)) {
		strbuf_addstr(&sb, "  swipe 10% 90% 10% 10% 50ms # up\n");
		lines++;
	}
	strbuf_addstr(&sb, "end\n");
	scn = parse_ok(sb.buf, sb.len);
	assert_int_equal(scenario_step_count(scn), lines + 2);
	assert_int_equal(scenario_length(scn), lines + 2);
	scenario_free(scn);
	strbuf_release(&sb);
}

/* Blocks nest up to SCN_MAX_DEPTH deep, one more is an error. */
static void
nesting_depth_is_limited(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct scenario *scn;
	char *got;

	for (int i = 0; i < SCN_MAX_DEPTH; i++)
		strbuf_addstr(&sb, "repeat 1\n");
	strbuf_addstr(&sb, "tap 1 1\n");
	for (int i = 0; i < SCN_MAX_DEPTH; i++)
		strbuf_addstr(&sb, "end\n");
	scn = parse_ok(sb.buf, sb.len);
	scenario_free(scn);
	strbuf_reset(&sb);
	for (int i = 0; i <= SCN_MAX_DEPTH; i++)
		strbuf_addf(&sb, "%*srepeat 1\n", i, "");
	strbuf_addstr(&sb, "tap 1 1\n");
	for (int i = 0; i <= SCN_MAX_DEPTH; i++)
		strbuf_addstr(&sb, "end\n");
	got = parse_errors(sb.buf, sb.len);
	assert_string_equal(got, "t.scn:17:17: blocks nested too deeply (at "
	    "most 16)\n");
	free(got);
	strbuf_release(&sb);
}

/* Scene names stay unique cheaply: 1000 scenes are fine, 1001 are not. */
static void
scene_count_is_limited(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct scenario *scn;
	char *got;

	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "scene s%d\nwait 1\nend\n", i);
	scn = parse_ok(sb.buf, sb.len);
	assert_int_equal(scenario_scene_count(scn), 1000);
	assert_string_equal(scenario_scene(scn, 999)->text, "s999");
	assert_null(scenario_scene(scn, 1000));
	scenario_free(scn);
	strbuf_addstr(&sb, "scene last\nwait 1\nend\n");
	got = parse_errors(sb.buf, sb.len);
	assert_string_equal(got, "t.scn:3001:1: too many scenes (at most "
	    "1000)\n");
	free(got);
	strbuf_release(&sb);
}

/* Begin and end markers point at each other; scenes are listed in order. */
static void
markers_match_and_scenes_are_listed(void **state)
{
	static const char text[] = "launch\nscene a\nrepeat 2\ntap 1 1\nend\n"
	    "end\nscene \"b c\"\nwait 5\nend\n";
	struct scenario *scn = parse_ok(text, strlen(text));
	const struct scenario_step *st;

	assert_string_equal(scenario_name(scn), "t");
	assert_string_equal(scenario_path(scn), "t.scn");
	assert_int_equal(scenario_step_count(scn), 9);
	assert_int_equal(scenario_scene_count(scn), 2);
	st = scenario_scene(scn, 0);
	assert_int_equal(st->kind, SCN_SCENE);
	assert_string_equal(st->text, "a");
	assert_int_equal(st->match, 5);
	assert_int_equal(scenario_step(scn, 5)->kind, SCN_SCENE_END);
	assert_int_equal(scenario_step(scn, 5)->match, 1);
	assert_int_equal(scenario_step(scn, 2)->match, 4);
	assert_int_equal(scenario_step(scn, 4)->match, 2);
	assert_string_equal(scenario_scene(scn, 1)->text, "b c");
	assert_null(scenario_step(scn, 9));
	scenario_free(scn);
}

/* The cursor expands nested repeats in order and skips their markers. */
static void
cursor_expands_repeats(void **state)
{
	static const char text[] = "stop\nscene s\nrepeat 2\nkey 10\n"
	    "repeat 3\nkey 11\nend\nkey 12\nend\nend\nrepeat 2\nkey 13\nend\n";
	static const char want[] = "stop,scene,10,11,11,11,12,10,11,11,11,12,"
	    "end,13,13,";
	struct scenario *scn = parse_ok(text, strlen(text));
	struct scenario_cursor cur;
	const struct scenario_step *st;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	scenario_cursor_init(&cur, scn);
	while ((st = scenario_cursor_next(&cur))) {
		if (st->kind == SCN_KEY)
			strbuf_addf(&sb, "%d,", st->key);
		else if (st->kind == SCN_SCENE_END)
			strbuf_addstr(&sb, "end,");
		else
			strbuf_addf(&sb, "%s,", st->kind == SCN_STOP ? "stop" :
			    "scene");
		n++;
	}
	assert_string_equal(sb.buf, want);
	assert_int_equal(n, scenario_length(scn));
	assert_null(scenario_cursor_next(&cur));
	strbuf_release(&sb);
	scenario_free(scn);
}

/* Percentages round to the nearest pixel, halves up, 100% = last pixel. */
static void
resolve_rounds_percentages(void **state)
{
	static const struct {
		struct scenario_coord c;
		int size, px;
	} cases[] = {
		{ { 540, 0, 0 }, 1080, 540 },
		{ { 5000, 0, 0 }, 1080, 5000 },	/* pixels pass through */
		{ { 50000, 1, 0 }, 1080, 540 },
		{ { 12500, 1, 0 }, 1080, 135 },
		{ { 0, 1, 0 }, 1080, 0 },
		{ { 100000, 1, 0 }, 1080, 1079 },
		{ { 100000, 1, 0 }, 2400, 2399 },
		{ { 33333, 1, 0 }, 1080, 360 },	/* 359.99 */
		{ { 50000, 1, 0 }, 1081, 541 },	/* 540.5 rounds up */
		{ { 99999, 1, 0 }, 1080, 1079 },
		{ { 50000, 1, 0 }, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(scenario_resolve(&cases[i].c, cases[i].size),
		    cases[i].px);
}

/* Flings run along the middle of the screen from 75% to 25% of the axis. */
static void
fling_path_follows_the_finger(void **state)
{
	static const char text[] = "fling up\nfling down\nfling left\n"
	    "fling right\n";
	static const int want[4][4] = {
		{ 540, 1800, 540, 600 }, { 540, 600, 540, 1800 },
		{ 810, 1200, 270, 1200 }, { 270, 1200, 810, 1200 },
	};
	struct scenario *scn = parse_ok(text, strlen(text));

	for (size_t i = 0; i < 4; i++) {
		int xy[4];

		scenario_fling_path(scenario_step(scn, i), 1080, 2400, xy);
		assert_memory_equal(xy, want[i], sizeof(xy));
	}
	scenario_free(scn);
}

/* Pixel coordinates off a given screen are reported; percentages never. */
static void
check_screen_reports_off_screen_pixels(void **state)
{
	static const char text[] = "tap 1079 2399\ntap 100% 100%\n"
	    "tap 1200 300\nlongpress 5 2400\nswipe 0 0 1080 50%\n";
	struct strlist problems = STRLIST_INIT;
	struct scenario *scn = parse_ok(text, strlen(text));

	assert_int_equal(scenario_check_screen(scn, 1080, 2400, &problems),
	    JG_EINVAL);
	assert_int_equal(problems.nr, 3);
	assert_string_equal(problems.items[0], "t.scn:3:5: coordinates off "
	    "screen (1200 x 300 on a 1080x2400 screen)");
	assert_string_equal(problems.items[1], "t.scn:4:11: coordinates off "
	    "screen (5 x 2400 on a 1080x2400 screen)");
	assert_string_equal(problems.items[2], "t.scn:5:11: coordinates off "
	    "screen (1080 x 50% on a 1080x2400 screen)");
	assert_string_equal(jg_error_msg(), problems.items[0]);
	assert_int_equal(scenario_check_screen(scn, 1440, 3200, NULL), 0);
	assert_int_equal(scenario_check_screen(scn, 0, 3200, NULL), JG_EINVAL);
	strlist_release(&problems);
	scenario_free(scn);
}

/* Writing steps back in canonical form and parsing that gives the same. */
static void
canonical_form_round_trips(void **state)
{
	static const char text[] = "launch hot com.a/.B\nscene \"x \\\"y\\\"\"\n"
	    "repeat 2\ntype \"#not a comment\"\ntype \"a\\\\b\\n\"\nend\n"
	    "swipe 1 2.5% 3 4 1s\nend\nkey 998\nwait text \"\\t\"\n"
	    "exec sh -c \"echo \\\"#x\\\"\"\n";
	struct strbuf canon = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct scenario *scn, *again;

	scn = parse_ok(text, strlen(text));
	for (size_t i = 0; i < scenario_step_count(scn); i++) {
		scenario_format_step(scenario_step(scn, i), &canon);
		strbuf_addch(&canon, '\n');
	}
	again = parse_ok(canon.buf, canon.len);
	assert_int_equal(scenario_step_count(again), scenario_step_count(scn));
	for (size_t i = 0; i < scenario_step_count(scn); i++) {
		strbuf_reset(&a);
		strbuf_reset(&b);
		scenario_format_step(scenario_step(scn, i), &a);
		scenario_format_step(scenario_step(again, i), &b);
		assert_string_equal(a.buf, b.buf);
		assert_int_equal(scenario_step(scn, i)->kind,
		    scenario_step(again, i)->kind);
	}
	assert_string_equal(scenario_step(again, 3)->text, "#not a comment");
	assert_string_equal(scenario_step(again, 4)->text, "a\\b\n");
	{
		char *const *argv = scenario_step(again,
		    scenario_step_count(again) - 1)->argv;

		assert_string_equal(argv[0], "sh");
		assert_string_equal(argv[2], "echo \"#x\"");
		assert_null(argv[3]);
	}
	scenario_free(again);
	scenario_free(scn);
	strbuf_release(&canon);
	strbuf_release(&a);
	strbuf_release(&b);
}

/*
 * instrument: the runner, the tests in order and the extras as pairs,
 * written back in canonical form (quoting values that need it).
 */
static void
instrument_words(void **state)
{
	static const char text[] = "instrument androidx.test.runner."
	    "AndroidJUnitRunner com.x.FeedTest com.x.CheckoutTest#placeOrder "
	    "arg size large arg note \"two words\"\ninstrument .R\n";
	struct scenario *scn = parse_ok(text, strlen(text));
	const struct scenario_step *st = scenario_step(scn, 0);
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(scenario_step_count(scn), 2);
	assert_int_equal(st->kind, SCN_INSTRUMENT);
	assert_string_equal(st->text, "androidx.test.runner.AndroidJUnitRunner");
	assert_int_equal(st->nr_tests, 2);
	assert_string_equal(st->tests[0], "com.x.FeedTest");
	assert_string_equal(st->tests[1], "com.x.CheckoutTest#placeOrder");
	assert_int_equal(st->nr_extras, 4);
	assert_string_equal(st->extras[1], "large");
	assert_string_equal(st->extras[3], "two words");
	assert_int_equal(scenario_scene_count(scn), 0);
	scenario_format_step(st, &sb);
	assert_string_equal(sb.buf, "instrument androidx.test.runner."
	    "AndroidJUnitRunner com.x.FeedTest com.x.CheckoutTest#placeOrder "
	    "arg size large arg note \"two words\"");
	st = scenario_step(scn, 1);
	assert_int_equal(st->nr_tests, 0);
	assert_int_equal(st->nr_extras, 0);
	strbuf_release(&sb);
	scenario_free(scn);
}

/* Includes resolve relative to the including file, steps keep their file. */
static void
includes_resolve_relative_to_includer(void **state)
{
	char *dir = xasprintf("%s/tests/unit/data/scenarios/nested",
	    unit_srcdir());
	char *top = xasprintf("%s/main.scn", dir);
	struct strbuf got = STRBUF_INIT;
	struct scenario *scn;

	assert_int_equal(scenario_load(&scn, top, NULL), 0);
	for (size_t i = 0; i < scenario_step_count(scn); i++) {
		const struct scenario_step *st = scenario_step(scn, i);

		assert_memory_equal(st->file, dir, strlen(dir));
		strbuf_addf(&got, "%s:%d ", st->file + strlen(dir) + 1,
		    st->line);
		scenario_format_step(st, &got);
		strbuf_addch(&got, '\n');
	}
	assert_string_equal(got.buf, "main.scn:2 launch cold\n"
	    "sub/input.scn:1 tap 10 20\n"
	    "sub/setup.scn:3 wait activity .Main 10000ms\n"
	    "main.scn:4 scene s\nsub/input.scn:1 tap 10 20\nmain.scn:6 end\n");
	assert_string_equal(scenario_name(scn), "main");
	assert_string_equal(scenario_path(scn), top);
	scenario_free(scn);
	strbuf_release(&got);
	free(top);
	free(dir);
}

/* Blocks must close in their own file; errors name the included file. */
static void
include_errors_point_into_included_file(void **state)
{
	struct strlist problems = STRLIST_INIT;
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	char *dir = xasprintf("%s/tests/unit/data/scenarios/unbalanced",
	    unit_srcdir());
	char *top = xasprintf("%s/main.scn", dir);
	struct scenario *scn;

	assert_int_equal(scenario_load(&scn, top, &problems), JG_EINVAL);
	join_problems(&problems, &got);
	strbuf_addf(&want, "%s/opens.scn:1:1: 'repeat' is not closed by "
	    "'end'\n", dir);
	strbuf_addf(&want, "%s/closes.scn:2:1: 'end' without an open 'scene' "
	    "or 'repeat' in this file (a block must be closed in the file that "
	    "opens it)\n", dir);
	strbuf_addf(&want, "%s/forbidden.scn:2:5: 'tap text' is not allowed "
	    "inside scene 'inner': it dumps the UI hierarchy, which would "
	    "disturb the measurement\n", dir);
	assert_string_equal(got.buf, want.buf);
	strlist_release(&problems);
	strbuf_release(&want);
	strbuf_release(&got);
	free(top);
	free(dir);
}

/* A cycle is reported with its chain, whatever the spelling of the path. */
static void
include_cycle_is_reported(void **state)
{
	const char *tmp = unit_tmpdir();
	struct strlist problems = STRLIST_INIT;
	struct scenario *scn;
	char *top = xasprintf("%s/cyc/a.scn", tmp), *want;

	write_file(tmp, "cyc/a.scn", "tap 1 1\ninclude b.scn\n");
	write_file(tmp, "cyc/b.scn", "# b\ninclude ./../cyc/a.scn\n");
	assert_int_equal(scenario_load(&scn, top, &problems), JG_EINVAL);
	assert_int_equal(problems.nr, 1);
	want = xasprintf("%s/cyc/b.scn:2:9: include cycle: %s/cyc/a.scn -> "
	    "%s/cyc/b.scn -> %s/cyc/./../cyc/a.scn", tmp, tmp, tmp, tmp);
	assert_string_equal(problems.items[0], want);
	free(want);
	strlist_release(&problems);

	write_file(tmp, "cyc/self.scn", "include \"self.scn\"\n");
	free(top);
	top = xasprintf("%s/cyc/self.scn", tmp);
	assert_int_equal(scenario_load(&scn, top, &problems), JG_EINVAL);
	want = xasprintf("%s:1:9: include cycle: %s -> %s", top, top, top);
	assert_string_equal(problems.items[0], want);
	free(want);
	strlist_release(&problems);
	free(top);
}

/* A missing or unreadable include is reported at its line, by its path. */
static void
bad_include_names_resolved_path(void **state)
{
	const char *tmp = unit_tmpdir();
	struct strlist problems = STRLIST_INIT;
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	struct scenario *scn;
	char *top = xasprintf("%s/inc/top.scn", tmp);

	write_file(tmp, "inc/top.scn", "tap 1 1\n  include common/none.scn\n"
	    "include common\n");
	write_file(tmp, "inc/common/x.scn", "stop\n");
	assert_int_equal(scenario_load(&scn, top, &problems), JG_EINVAL);
	join_problems(&problems, &got);
	strbuf_addf(&want, "%s:2:11: cannot open include file "
	    "'%s/inc/common/none.scn': No such file or directory\n"
	    "%s:3:9: include file '%s/inc/common' is not a regular file\n",
	    top, tmp, top, tmp);
	assert_string_equal(got.buf, want.buf);
	strlist_release(&problems);
	strbuf_release(&want);
	strbuf_release(&got);
	free(top);
}

/* Includes nest at most 16 deep, even without a cycle. */
static void
include_depth_is_limited(void **state)
{
	const char *tmp = unit_tmpdir();
	struct strlist problems = STRLIST_INIT;
	struct scenario *scn;
	char name[32], text[64], *top, *want;

	for (int i = 0; i <= 17; i++) {
		snprintf(name, sizeof(name), "deep/d%d.scn", i);
		snprintf(text, sizeof(text), "tap %d 1\ninclude d%d.scn\n", i,
		    i + 1);
		write_file(tmp, name, i == 17 ? "stop\n" : text);
	}
	top = xasprintf("%s/deep/d1.scn", tmp);
	assert_int_equal(scenario_load(&scn, top, NULL), 0);
	assert_int_equal(scenario_step_count(scn), 17);
	scenario_free(scn);
	free(top);
	top = xasprintf("%s/deep/d0.scn", tmp);
	assert_int_equal(scenario_load(&scn, top, &problems), JG_EINVAL);
	assert_int_equal(problems.nr, 1);
	want = xasprintf("%s/deep/d16.scn:2:9: includes nested too deeply (at "
	    "most 16)", tmp);
	assert_string_equal(problems.items[0], want);
	free(want);
	free(top);
	strlist_release(&problems);
}

/* scenario_parse() looks up includes in base_dir. */
static void
parse_uses_base_dir(void **state)
{
	const char *tmp = unit_tmpdir();
	static const char text[] = "include part.scn\n";
	struct scenario *scn;

	write_file(tmp, "base/part.scn", "key HOME\n");
	{
		char *dir = xasprintf("%s/base", tmp);

		assert_int_equal(scenario_parse(&scn, text, strlen(text),
		    "memory", dir, NULL), 0);
		free(dir);
	}
	assert_int_equal(scenario_step_count(scn), 1);
	assert_int_equal(scenario_step(scn, 0)->key, 3);
	assert_string_equal(scenario_name(scn), "memory");
	scenario_free(scn);
}

/*
 * A missing top file is JG_ENOTFOUND with a plain message, not in problems:
 * those are the file's own lines, and the caller names the key that named
 * the file (check's and run's "CONFIG: scenarios[N]: cannot open ...").
 */
static void
missing_file_is_not_found(void **state)
{
	struct strlist problems = STRLIST_INIT;
	struct scenario *scn = (struct scenario *)&scn;
	char *path = xasprintf("%s/nope.scn", unit_tmpdir()), *want;

	assert_int_equal(scenario_load(&scn, path, &problems), JG_ENOTFOUND);
	assert_null(scn);
	want = xasprintf("cannot open '%s': No such file or directory", path);
	assert_string_equal(jg_error_msg(), want);
	assert_int_equal(problems.nr, 0);
	assert_int_equal(scenario_load(&scn, "/dev/null", &problems),
	    JG_EINVAL);
	assert_int_equal(problems.nr, 0);
	assert_string_equal(jg_error_msg(),
	    "'/dev/null' is not a regular file");
	free(want);
	free(path);
	strlist_release(&problems);
}

/* The demo scenario and its include load, with the four shop scenes. */
static void
demo_scenario_loads(void **state)
{
	static const char *const scenes[] = {
		"home", "feed", "product detail", "checkout"
	};
	char *top = xasprintf("%s/scenarios/demo/shop.scn", unit_srcdir());
	struct scenario *scn;
	const char *file;

	assert_int_equal(scenario_load(&scn, top, NULL), 0);
	assert_string_equal(scenario_name(scn), "shop");
	assert_int_equal(scenario_scene_count(scn), 4);
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(scenario_scene(scn, i)->text, scenes[i]);
	file = scenario_step(scn, 0)->file;
	assert_string_equal(file + strlen(file) - strlen("/common/login.scn"),
	    "/common/login.scn");
	assert_int_equal(scenario_check_screen(scn, 720, 1280, NULL), 0);
	scenario_free(scn);
	free(top);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(valid_scripts_give_expected_steps),
	cmocka_unit_test(invalid_scripts_give_exact_errors),
	cmocka_unit_test(failure_sets_first_error_as_message),
	cmocka_unit_test(errors_stop_after_limit),
	cmocka_unit_test(errors_append_to_callers_list),
	cmocka_unit_test(nul_byte_is_an_error),
	cmocka_unit_test(huge_line_gives_one_short_error),
	cmocka_unit_test(megabyte_script_parses),
	cmocka_unit_test(nesting_depth_is_limited),
	cmocka_unit_test(scene_count_is_limited),
	cmocka_unit_test(markers_match_and_scenes_are_listed),
	cmocka_unit_test(cursor_expands_repeats),
	cmocka_unit_test(resolve_rounds_percentages),
	cmocka_unit_test(fling_path_follows_the_finger),
	cmocka_unit_test(check_screen_reports_off_screen_pixels),
	cmocka_unit_test(canonical_form_round_trips),
	cmocka_unit_test(instrument_words),
	cmocka_unit_test(includes_resolve_relative_to_includer),
	cmocka_unit_test(include_errors_point_into_included_file),
	cmocka_unit_test(include_cycle_is_reported),
	cmocka_unit_test(bad_include_names_resolved_path),
	cmocka_unit_test(include_depth_is_limited),
	cmocka_unit_test(parse_uses_base_dir),
	cmocka_unit_test(missing_file_is_not_found),
	cmocka_unit_test(demo_scenario_loads),
};
JG_UNIT_GROUP(scenario, tests, NULL, NULL)
