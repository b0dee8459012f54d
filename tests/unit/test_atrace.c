/*
 * test_atrace.c: the Trace sections of an atrace capture (atrace.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "atrace.h"
#include "error.h"

#define HEAD "capturing trace... done\nTRACE:\n# tracer: nop\n#\n" \
	"# entries-in-buffer/entries-written: 9/9   #P:8\n#\n" \
	"#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n" \
	"#              | |        |      |   ||||       |         |\n"

static int
parse(struct atrace_capture *c, const char *text)
{
	atrace_capture_init(c);
	return atrace_parse(c, text, strlen(text), "jankgate:");
}

/*
 * Sections of the prefix are kept with the rest of their name; nested
 * sections of other names close in order, so the outer one ends at its
 * own E, and a thread name with spaces and dashes still gives its tid.
 */
static void
nested_sections_close_in_order(void **state)
{
	struct atrace_capture c;

	assert_int_equal(parse(&c, HEAD
	    "          atrace-4211  ( 4211) [002] ...1  5020.100210: "
	    "tracing_mark_write: trace_event_clock_sync: parent_ts=5015.099854\n"
	    " example.shop-3127  ( 3127) [001] ...1  5021.337040: "
	    "tracing_mark_write: B|3127|jankgate:feed fling\n"
	    " my thread-x-3130  (-----) [003] d..2  5021.338000: "
	    "tracing_mark_write: B|3127|jankgate:other\n"
	    " example.shop-3127  ( 3127) [001] ...1  5021.340112: "
	    "tracing_mark_write: B|3127|RV Scroll\n"
	    " example.shop-3127  ( 3127) [001] ...1  5021.349550: "
	    "tracing_mark_write: E|3127\n"
	    " my thread-x-3130  (-----) [003] d..2  5021.400000: "
	    "tracing_mark_write: E\n"
	    " example.shop-3127  ( 3127) [001] ...1  5022.901003: "
	    "tracing_mark_write: E|3127\n"), 0);
	assert_int_equal(c.nr, 2);
	assert_string_equal(c.sections[0].name, "feed fling");
	assert_int_equal(c.sections[0].pid, 3127);
	assert_int_equal(c.sections[0].tid, 3127);
	assert_false(c.sections[0].async);
	assert_true(fabs(c.sections[0].begin_ms - 5021337.040) < 1e-6);
	assert_true(fabs(c.sections[0].end_ms - 5022901.003) < 1e-6);
	assert_string_equal(c.sections[1].name, "other");
	assert_int_equal(c.sections[1].tid, 3130);
	assert_true(fabs(c.sections[1].end_ms - 5021400) < 1e-6);
	assert_true(fabs(c.sync_trace_ms - 5020100.210) < 1e-6);
	assert_true(fabs(c.sync_mono_ms - 5015099.854) < 1e-6);
	assert_int_equal(c.orphan_ends, 0);
	assert_false(c.overwritten);
	atrace_capture_release(&c);
}

/* Async sections pair by process, name and cookie, across threads. */
static void
async_sections_pair_by_cookie(void **state)
{
	struct atrace_capture c;

	assert_int_equal(parse(&c, HEAD
	    " a-10 (   10) [000] ...1 1.000000: tracing_mark_write: "
	    "S|10|jankgate:x|1\n"
	    " a-10 (   10) [000] ...1 1.100000: tracing_mark_write: "
	    "S|10|jankgate:x|-2\n"
	    " b-11 (   10) [001] ...1 1.200000: tracing_mark_write: "
	    "F|10|jankgate:x|-2\n"
	    " b-11 (   10) [001] ...1 1.300000: tracing_mark_write: "
	    "F|10|jankgate:y|1\n"
	    " b-11 (   10) [001] ...1 1.400000: tracing_mark_write: "
	    "S|10|jankgate:a|b|5\n"
	    " b-11 (   10) [001] ...1 1.500000: tracing_mark_write: "
	    "F|10|jankgate:a|b|5\n"), 0);
	assert_int_equal(c.nr, 3);
	assert_true(c.sections[0].async);
	assert_true(isnan(c.sections[0].end_ms));
	assert_true(fabs(c.sections[1].end_ms - 1200) < 1e-6);
	assert_int_equal(c.sections[1].cookie, -2);
	assert_string_equal(c.sections[2].name, "a|b");
	assert_true(fabs(c.sections[2].end_ms - 1500) < 1e-6);
	atrace_capture_release(&c);
}

/*
 * What a full buffer leaves: a begin without its end (stays NAN), an
 * end without its begin (counted), and an overwritten ring (the header's
 * counts differ).
 */
static void
incomplete_captures_are_told(void **state)
{
	struct atrace_capture c;

	assert_int_equal(parse(&c, "capturing trace... done\nTRACE:\n"
	    "# entries-in-buffer/entries-written: 5/77   #P:8\n"
	    " a-10 (   10) [000] ...1 1.000000: tracing_mark_write: E|10\n"
	    " a-10 (   10) [000] ...1 2.000000: tracing_mark_write: "
	    "B|10|jankgate:feed\n"), 0);
	assert_int_equal(c.nr, 1);
	assert_true(isnan(c.sections[0].end_ms));
	assert_int_equal(c.orphan_ends, 1);
	assert_true(c.overwritten);
	atrace_capture_release(&c);
}

/* Lines that are no event, or a broken one, are skipped; no TRACE: fails. */
static void
junk_is_skipped(void **state)
{
	struct atrace_capture c;
	static const char *bad[] = {
		" a-10 (   10) [000] ...1 x.0: tracing_mark_write: B|10|jankgate:a\n",
		" a10 (   10) [000] ...1 1.0: tracing_mark_write: B|10|jankgate:a\n",
		" a-10 (   10) ...1 1.0: tracing_mark_write: B|10|jankgate:a\n",
		" a-10 [000] ...1 1.0: tracing_mark_write: B|x|jankgate:a\n",
		" a-10 [000] ...1 1.0: tracing_mark_write: S|10|jankgate:a|\n",
		" a-10 [000] ...1 1.0: tracing_mark_write: C|10|jankgate:a|4\n",
		" a-10 [000] ...1 1.0: sched_switch: B|10|jankgate:a\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[300];

		snprintf(text, sizeof(text), "TRACE:\n%s", bad[i]);
		assert_int_equal(parse(&c, text), 0);
		assert_int_equal(c.nr, 0);
		atrace_capture_release(&c);
	}
	assert_int_equal(parse(&c, " a-10 [000] ...1 1.000000: "
	    "tracing_mark_write: B|10|jankgate:a\n"), JG_ENOTFOUND);
	assert_int_equal(c.nr, 1);
	atrace_capture_release(&c);
	assert_int_equal(parse(&c, "error: trace_marker: Permission "
	    "denied\n"), JG_ENOTFOUND);
	atrace_capture_release(&c);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(nested_sections_close_in_order),
	cmocka_unit_test(async_sections_pair_by_cookie),
	cmocka_unit_test(incomplete_captures_are_told),
	cmocka_unit_test(junk_is_skipped),
};
JG_UNIT_GROUP(atrace, tests, NULL, NULL)
