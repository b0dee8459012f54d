/*
 * test_run_marks.c: scenes a test command marks in the log, and their
 * frames sliced out of framestats reads (run_markers.c, issue 52).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "logcat.h"
#include "results.h"
#include "run_marks.h"
#include "source.h"
#include "strbuf.h"

#define MS 1000000LL

/* How far the dumps' Realtime runs ahead of their Uptime (ms). */
static double realtime_ahead;

/* The dumps' "Stats since" (ns): each reset starts a new one. */
static long long stats_since = 1000000;

/*
 * A `dumpsys gfxinfo PKG framestats` of app com.x at Uptime `up` ms:
 * `total` frames rendered since the last reset, and one PROFILEDATA row
 * for each of the `nr` frames at[i] (its FrameCompleted, ms) lasting
 * dur[i] ms.
 */
static void
dump(struct strbuf *sb, double up, int total, const double *at,
    const int *dur, size_t nr)
{
	strbuf_addf(sb, "Applications Graphics Acceleration Info:\n"
	    "Uptime: %.0f Realtime: %.0f\n\n"
	    "** Graphics info for pid 42 [com.x] **\n\n"
	    "Stats since: %lldns\nTotal frames rendered: %d\n"
	    "Janky frames: 0 (0.00%%)\n\nProfile data in ms:\n\n"
	    "\tcom.x/com.x.Main/android.view.ViewRootImpl@1 (visibility=0)\n"
	    "\n---PROFILEDATA---\n"
	    "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,"
	    "HandleInputStart,AnimationStart,PerformTraversalsStart,"
	    "DrawStart,SyncQueued,SyncStart,IssueDrawCommandsStart,"
	    "SwapBuffers,FrameCompleted,DequeueBufferDuration,"
	    "QueueBufferDuration,\n", up, up + realtime_ahead, stats_since,
	    total);
	for (size_t i = 0; i < nr; i++) {
		long long end = (long long)(at[i] * MS);
		long long s = end - dur[i] * MS;

		strbuf_addf(sb, "0,%lld,%lld,9223372036854775807,0,%lld,%lld,"
		    "%lld,%lld,%lld,%lld,%lld,%lld,%lld,100,200,\n", s, s,
		    s + 1, s + 2, s + 3, s + 4, s + 5, s + 6, s + 7, end - 1,
		    end);
	}
	strbuf_addstr(sb, "---PROFILEDATA---\n\n");
}

/* The dump of a read asked for at `asked`, noted in `m`. */
static void
note_read(struct run_marks *m, double asked, double up, int total,
    const double *at, const int *dur, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;

	dump(&sb, up, total, at, dur, nr);
	run_marks_add_read(m, sb.buf, sb.len, "com.x", asked, up);
	strbuf_release(&sb);
}

/* A `framestats reset` (an exec step's): the next dump counts anew. */
static void
add_read(struct run_marks *m, double asked, double up, int total,
    const double *at, const int *dur, size_t nr)
{
	note_read(m, asked, up, total, at, dur, nr);
	stats_since = (long long)up * MS;
}

/* The scenes of `log` (-v monotonic lines) in a new iteration of `r`. */
static int
scenes_of(struct run_marks *m, const char *log, struct results *r,
    struct rs_iteration **it)
{
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	size_t nr;
	int rc;

	*it = rs_scenario_add_iteration(results_add_scenario(r, "s"), false);
	logcat_buf_parse_text(b, log, strlen(log));
	lines = logcat_buf_lines(b, &nr);
	rc = run_marks_scenes(m, lines, nr, *it, 60, r, "s");
	logcat_buf_free(b);
	return rc;
}

/* Markers: any tag with the prefix, or the tag "jankgate" without it. */
static void
markers_are_read_from_any_tag(void **state)
{
	static const struct {
		const char *line;
		enum run_mark_kind kind;
		const char *name;
	} cases[] = {
		{ "    10.000   1   1 I Flow: jankgate: scene begin feed",
		  RUN_MARK_BEGIN, "feed" },
		{ "    10.000   1   1 D jankgate: scene end  home swipe ",
		  RUN_MARK_END, "home swipe" },
		{ "    10.000   1   1 I Flow: jankgate: scene end x y",
		  RUN_MARK_END, "x y" },
		{ "    10.000   1   1 I Flow: jankgate: scene begin ",
		  RUN_MARK_NONE, NULL },
		{ "    10.000   1   1 I Flow: jankgate: scene start feed",
		  RUN_MARK_NONE, NULL },
		{ "    10.000   1   1 I Flow: scene begin feed",
		  RUN_MARK_NONE, NULL },
		{ "    10.000   1   1 I Flow: say jankgate: scene begin feed",
		  RUN_MARK_NONE, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct logcat_line l;
		const char *name = NULL;
		size_t len = 0;

		assert_int_equal(logcat_parse_line(&l, cases[i].line,
		    strlen(cases[i].line)), 0);
		assert_int_equal(run_mark_parse(&l, &name, &len),
		    cases[i].kind);
		if (cases[i].name) {
			assert_int_equal(len, strlen(cases[i].name));
			assert_memory_equal(name, cases[i].name, len);
		}
	}
}

/*
 * A scene's frames are the rows whose FrameCompleted lies in its window,
 * from every read, binned as hwui does; frames outside are not counted.
 */
static void
frames_are_sliced_by_marker_times(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;
	const double at1[] = { 9990, 10010, 10030, 10050 };
	const int dur1[] = { 5, 8, 20, 5 };
	const double at2[] = { 10090, 10110, 10150 };
	const int dur2[] = { 40, 5, 5 };

	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_read(m, 10070, 10080, 4, at1, dur1, 4);
	add_read(m, 10160, 10170, 3, at2, dur2, 3);
	run_marks_span(m, 9000, 10170, false);
	assert_int_equal(scenes_of(m,
	    "    10.000   1   1 I Flow: jankgate: scene begin a\n"
	    "    10.060   1   1 I Flow: jankgate: scene end a\n"
	    "    10.085   1   1 I Flow: jankgate: scene begin b\n"
	    "    10.120   1   1 I Flow: jankgate: scene end b\n", r, &it), 0);
	assert_int_equal(it->nr_scenes, 2);
	assert_string_equal(it->scenes[0].name, "a");
	assert_true(it->scenes[0].start_mono_ms == 10000);
	/* 10010, 10030, 10050: 8, 20 and 5 ms */
	assert_true(it->scenes[0].frames.count == 3);
	assert_true(it->scenes[0].frames.slow == 1);
	assert_true(it->scenes[0].frames.janky == 1);
	assert_true(it->scenes[0].frames.p50_ms == 8);
	assert_true(it->scenes[0].frames.p99_ms == 20);
	assert_string_equal(it->scenes[0].frames.source, "markers");
	/* the rows themselves, for the frame timeline */
	assert_int_equal(it->scenes[0].frames.nr_rows, 3);
	assert_true(it->scenes[0].frames.rows[1].duration_ms == 20);
	assert_int_equal(it->scenes[0].frames.rows[1].janky, 1);
	assert_int_equal(it->scenes[0].frames.rows[2].janky, 0);
	/* 10090 (40 ms: bucket 40) and 10110 */
	assert_true(it->scenes[1].frames.count == 2);
	assert_true(it->scenes[1].frames.p99_ms == 40);
	assert_int_equal(r->nr_warnings, 0);
	results_free(r);
	run_marks_free(m);
}

/*
 * A read that shows fewer rows than the frames rendered since the one
 * before (a full 120-row window) leaves the time before its oldest row
 * unseen: a scene there gets no frames and a warning, one after it is
 * counted as usual.
 */
static void
overrun_leaves_frames_unreported(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;
	double at[120];
	int dur[120];

	for (int i = 0; i < 120; i++) {
		at[i] = 20000 + 16 * i;
		dur[i] = 6;
	}
	add_read(m, NAN, 10000, 0, NULL, NULL, 0);
	add_read(m, 22000, 22010, 300, at, dur, 120);
	run_marks_span(m, 10000, 22010, false);
	assert_int_equal(scenes_of(m,
	    "    19.000   1   1 I F: jankgate: scene begin long\n"
	    "    20.500   1   1 I F: jankgate: scene end long\n"
	    "    21.000   1   1 I F: jankgate: scene begin late\n"
	    "    21.500   1   1 I F: jankgate: scene end late\n", r, &it), 0);
	assert_false(it->scenes[0].frames.present);
	assert_true(isnan(it->scenes[0].frames.count));
	assert_int_equal(r->nr_warnings, 1);
	assert_string_equal(r->warnings[0].scope, "s/long");
	assert_non_null(strstr(r->warnings[0].message, "frames not "
	    "reported: 180 frames"));
	/* (21000, 21500]: rows at 20000 + 16 i for i = 63..93 */
	assert_true(it->scenes[1].frames.count == 31);
	results_free(r);
	run_marks_free(m);
}

/* A read that fell inside a window is named in a warning. */
static void
read_inside_a_scene_is_a_warning(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;

	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_read(m, 10040, 10045, 0, NULL, NULL, 0);
	run_marks_span(m, 9000, NAN, false);
	assert_int_equal(scenes_of(m,
	    "    10.000   1   1 I F: jankgate: scene begin a\n"
	    "    10.100   1   1 I F: jankgate: scene end a\n", r, &it), 0);
	assert_int_equal(r->nr_warnings, 1);
	assert_non_null(strstr(r->warnings[0].message, "jankgate read the "
	    "frames inside this scene (40 ms after its begin)"));
	assert_true(it->scenes[0].frames.count == 0);
	results_free(r);
	run_marks_free(m);
}

/* Markers that do not pair up fail the iteration, saying which. */
static void
unpaired_markers_are_errors(void **state)
{
	static const struct {
		const char *log, *msg;
	} cases[] = {
		{ "    10.000   1   1 I F: jankgate: scene end a\n",
		  "scene marker at 10000 ms: 'a' ends without a begin" },
		{ "    10.000   1   1 I F: jankgate: scene begin a\n",
		  "scene marker: 'a' began at 10000 ms and never ended" },
		{ "    10.000   1   1 I F: jankgate: scene begin a\n"
		  "    10.100   1   1 I F: jankgate: scene end a\n"
		  "    10.200   1   1 I F: jankgate: scene begin a\n",
		  "scene marker at 10200 ms: 'a' begins again (scenes are "
		  "measured once an iteration)" },
		{ "    10.000   1   1 I F: jankgate: scene begin a\n"
		  "    10.100   1   1 I F: jankgate: scene end a\n"
		  "    10.200   1   1 I F: jankgate: scene end a\n",
		  "scene marker at 10200 ms: 'a' ends without a begin" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_marks *m = run_marks_new();
		struct results *r = results_new();
		struct rs_iteration *it;

		add_read(m, NAN, 9000, 0, NULL, NULL, 0);
		run_marks_span(m, NAN, NAN, false);
		assert_int_equal(scenes_of(m, cases[i].log, r, &it),
		    JG_EINVAL);
		assert_string_equal(jg_error_msg(), cases[i].msg);
		results_free(r);
		run_marks_free(m);
	}
}

/*
 * Markers outside every exec step's reads are left out, with one
 * warning: no read covers them (a scenario scene's reset may have
 * cleared their frames), so their frames would be a guess.
 */
static void
markers_outside_exec_are_left_out(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;

	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_read(m, 9500, 9510, 0, NULL, NULL, 0);
	run_marks_span(m, 9000, 9510, false);
	assert_int_equal(scenes_of(m,
	    "    9.100   1   1 I F: jankgate: scene begin in\n"
	    "    9.200   1   1 I F: jankgate: scene end in\n"
	    "    10.000   1   1 I F: jankgate: scene begin out\n"
	    "    10.100   1   1 I F: jankgate: scene end out\n"
	    "    10.200   1   1 I F: jankgate: scene begin out2\n", r, &it), 0);
	assert_int_equal(it->nr_scenes, 1);
	assert_string_equal(it->scenes[0].name, "in");
	assert_int_equal(r->nr_warnings, 1);
	assert_string_equal(r->warnings[0].scope, "s");
	assert_string_equal(r->warnings[0].message, "scene markers outside "
	    "an exec step are left out (the first: 'out'): jankgate reads no "
	    "frames for them there");
	results_free(r);
	run_marks_free(m);
}

/* A marked name may not be one of the scenario's own scenes. */
static void
marked_name_of_a_scenario_scene_is_an_error(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "s"), false);
	struct logcat_buf *b = logcat_buf_new();
	static const char log[] =
	    "    10.000   1   1 I F: jankgate: scene end home\n"
	    "    10.100   1   1 I F: jankgate: scene begin home\n";
	const struct logcat_line *lines;
	size_t nr;

	rs_iteration_add_scene(it, "home");
	run_marks_span(m, NAN, NAN, false);
	logcat_buf_parse_text(b, log, strlen(log));
	lines = logcat_buf_lines(b, &nr);
	/* its end is no marked scene's end */
	assert_int_equal(run_marks_scenes(m, lines, 1, it, 60, r, "s"),
	    JG_EINVAL);
	assert_string_equal(jg_error_msg(), "scene marker at 10000 ms: "
	    "'home' ends without a begin");
	assert_int_equal(run_marks_scenes(m, lines + 1, 1, it, 60, r, "s"),
	    JG_EINVAL);
	assert_string_equal(jg_error_msg(), "scene marker at 10100 ms: "
	    "'home' begins again (a scene of the scenario has that name)");
	logcat_buf_free(b);
	results_free(r);
	run_marks_free(m);
}

/* An atrace capture: a clock-sync marker, then `events` (ftrace lines). */
static void
add_trace(struct run_marks *m, double sync_boot_s, double sync_mono_s,
    const char *events)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "capturing trace... done\nTRACE:\n# tracer: nop\n"
	    "# entries-in-buffer/entries-written: 9/9   #P:8\n");
	if (sync_boot_s > 0)
		strbuf_addf(&sb, "  atrace-9 (    9) [000] ...1 %.6f: "
		    "tracing_mark_write: trace_event_clock_sync: "
		    "parent_ts=%f\n", sync_boot_s, (float)sync_mono_s);
	strbuf_addstr(&sb, events);
	run_marks_add_trace(m, sb.buf, sb.len, "jankgate:");
	strbuf_release(&sb);
}

/*
 * Trace sections are scenes: their times, on the boot clock, go back by
 * the reads' Realtime - Uptime (the phone slept 5 s) when the clock-sync
 * marker agrees (here 1.5 ms off, within its float's step and the write),
 * so the frames sliced are those of the section.  The end of a section
 * the app had open when the capture began is no loss to warn about.
 */
static void
trace_sections_are_scenes_on_the_frames_clock(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;
	const double at[] = { 9990, 10010, 10030, 10050, 10090 };
	const int dur[] = { 5, 8, 20, 5, 40 };

	realtime_ahead = 5000;
	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_trace(m, 14.0015, 9.0,
	    " x-42 (   42) [001] ...1 14.500000: tracing_mark_write: E|42\n"
	    " x-42 (   42) [001] ...1 15.000000: tracing_mark_write: "
	    "B|42|jankgate:a\n"
	    " x-42 (   42) [001] ...1 15.020000: tracing_mark_write: "
	    "B|42|RV Scroll\n"
	    " x-42 (   42) [001] ...1 15.025000: tracing_mark_write: E|42\n"
	    " x-42 (   42) [001] ...1 15.060000: tracing_mark_write: E|42\n");
	add_read(m, 10160, 10170, 5, at, dur, 5);
	run_marks_span(m, 9000, 10170, false);
	realtime_ahead = 0;
	assert_int_equal(scenes_of(m, "", r, &it), 0);
	assert_int_equal(it->nr_scenes, 1);
	assert_string_equal(it->scenes[0].name, "a");
	assert_true(fabs(it->scenes[0].start_mono_ms - 10000) < 1e-6);
	assert_true(fabs(it->scenes[0].end_mono_ms - 10060) < 1e-6);
	assert_true(it->scenes[0].frames.count == 3);
	assert_int_equal(r->nr_warnings, 0);
	results_free(r);
	run_marks_free(m);
}

/*
 * When the clock-sync marker disagrees with the reads' clocks beyond its
 * float's step, the trace clock is no boot clock: the marker places it.
 * With neither clue there are no scenes, and a warning.
 */
static void
clock_sync_marker_places_a_non_boot_trace(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;

	realtime_ahead = 5000;
	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	realtime_ahead = 0;
	add_trace(m, 9.0, 9.0,
	    " x-42 (   42) [001] ...1 10.000000: tracing_mark_write: "
	    "S|42|jankgate:b|3\n"
	    " x-43 (   42) [002] ...1 10.050000: tracing_mark_write: "
	    "F|42|jankgate:b|3\n");
	run_marks_span(m, 9000, 10170, false);
	assert_int_equal(scenes_of(m, "", r, &it), 0);
	assert_int_equal(it->nr_scenes, 1);
	assert_true(fabs(it->scenes[0].start_mono_ms - 10000) < 0.01);
	results_free(r);
	run_marks_free(m);

	m = run_marks_new();
	r = results_new();
	run_marks_add_read(m, "No process found for: com.x\n", 28, "com.x",
	    NAN, NAN);
	add_trace(m, 0, 0, " x-42 (   42) [001] ...1 10.000000: "
	    "tracing_mark_write: B|42|jankgate:b\n");
	run_marks_span(m, NAN, NAN, false);
	assert_int_equal(scenes_of(m, "", r, &it), 0);
	assert_int_equal(it->nr_scenes, 0);
	assert_int_equal(r->nr_warnings, 1);
	assert_non_null(strstr(r->warnings[0].message, "no Trace sections: "
	    "neither a frame read nor atrace's clock-sync marker"));
	results_free(r);
	run_marks_free(m);
}

/*
 * A section the capture holds no end of is no scene: a warning names
 * it.  A log marker of a section's name wins; a section of a scenario
 * scene's name fails the iteration.
 */
static void
trace_sections_without_end_or_taken_names(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;

	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_trace(m, 9.0, 9.0,
	    " x-42 (   42) [001] ...1 10.000000: tracing_mark_write: "
	    "B|42|jankgate:both\n"
	    " x-42 (   42) [001] ...1 10.300000: tracing_mark_write: E|42\n"
	    " x-42 (   42) [001] ...1 10.400000: tracing_mark_write: "
	    "B|42|jankgate:feed 2\n");
	run_marks_span(m, 9000, 11000, false);
	assert_int_equal(scenes_of(m,
	    "    10.100   1   1 I F: jankgate: scene begin both\n"
	    "    10.200   1   1 I F: jankgate: scene end both\n", r, &it), 0);
	assert_int_equal(it->nr_scenes, 1);
	assert_string_equal(it->scenes[0].name, "both");
	assert_true(it->scenes[0].start_mono_ms == 10100);
	assert_true(it->scenes[0].end_mono_ms == 10200);
	assert_int_equal(r->nr_warnings, 1);
	assert_string_equal(r->warnings[0].scope, "s/feed 2");
	assert_non_null(strstr(r->warnings[0].message, "no frames: its Trace "
	    "section began at 10400 ms and the capture holds no end"));
	results_free(r);
	run_marks_free(m);

	m = run_marks_new();
	r = results_new();
	it = rs_scenario_add_iteration(results_add_scenario(r, "s"), false);
	rs_iteration_add_scene(it, "home");
	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_trace(m, 9.0, 9.0,
	    " x-42 (   42) [001] ...1 10.000000: tracing_mark_write: "
	    "B|42|jankgate:home\n"
	    " x-42 (   42) [001] ...1 10.300000: tracing_mark_write: E|42\n");
	run_marks_span(m, NAN, NAN, false);
	assert_int_equal(run_marks_scenes(m, NULL, 0, it, 60, r, "s"),
	    JG_EINVAL);
	assert_string_equal(jg_error_msg(), "scene marker (a Trace section) at "
	    "10000 ms: 'home' is a scene of the scenario");
	results_free(r);
	run_marks_free(m);
}

/*
 * In an `instrument` step's span Trace sections are scenes and log
 * markers are not (its tests are the scenes): those are left out with
 * the warning of markers outside an exec step.  The spans are handed on
 * for the sources, in order.
 */
static void
instrument_spans_take_sections_only(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;
	const struct source_span *sp;
	size_t nr;
	const double at[] = { 10010, 10030, 10050 };
	const int dur[] = { 5, 8, 5 };

	assert_null(run_marks_steps(m, &nr));
	assert_int_equal(nr, 0);
	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_trace(m, 9.0, 9.0,
	    " x-42 (   42) [001] ...1 10.000000: tracing_mark_write: "
	    "B|42|jankgate:a\n"
	    " x-42 (   42) [001] ...1 10.060000: tracing_mark_write: E|42\n");
	add_read(m, NAN, 10170, 3, at, dur, 3);
	run_marks_span(m, 9000, 10170, true);
	assert_int_equal(scenes_of(m,
	    "    10.100   1   1 I F: jankgate: scene begin logged\n"
	    "    10.150   1   1 I F: jankgate: scene end logged\n", r, &it), 0);
	assert_int_equal(it->nr_scenes, 1);
	assert_string_equal(it->scenes[0].name, "a");
	assert_true(it->scenes[0].frames.count == 3);
	assert_int_equal(r->nr_warnings, 1);
	assert_non_null(strstr(r->warnings[0].message, "scene markers outside "
	    "an exec step are left out (the first: 'logged')"));
	sp = run_marks_steps(m, &nr);
	assert_int_equal(nr, 1);
	assert_true(sp[0].from == 9000 && sp[0].to == 10170);
	results_free(r);
	run_marks_free(m);
}

/*
 * An `instrument` step reads each test's end with a framestats that
 * resets nothing, then the next test's start with a plain reset (no
 * rows): the reset's total counts the frames the read before showed
 * again, and only what was drawn since is unseen.  The Uptime of a read
 * is whole ms: a test's end read 0.4 ms (by the trace) after its
 * section's end is after the section, not inside it.
 */
static void
instrument_reads_count_new_frames_to_the_ms(void **state)
{
	struct run_marks *m = run_marks_new();
	struct results *r = results_new();
	struct rs_iteration *it;
	const double at[] = { 10010, 10030, 10050 }, at2[] = { 10180 };
	const int dur[] = { 5, 8, 5 };

	add_read(m, NAN, 9000, 0, NULL, NULL, 0);
	add_trace(m, 9.0, 9.0,
	    " x-42 (   42) [001] ...1 10.000000: tracing_mark_write: "
	    "B|42|jankgate:a\n"
	    " x-42 (   42) [001] ...1 10.060400: tracing_mark_write: E|42\n"
	    " x-42 (   42) [001] ...1 10.100000: tracing_mark_write: "
	    "B|42|jankgate:between\n"
	    " x-42 (   42) [001] ...1 10.150000: tracing_mark_write: E|42\n"
	    " x-42 (   42) [001] ...1 10.170000: tracing_mark_write: "
	    "B|42|jankgate:b\n"
	    " x-42 (   42) [001] ...1 10.201500: tracing_mark_write: E|42\n");
	/* test 1's end (a framestats alone): its 3 frames; test 2's start:
	 * 2 drawn between */
	note_read(m, NAN, 10060, 3, at, dur, 3);
	add_read(m, NAN, 10160, 5, NULL, NULL, 0);
	/* test 2's end, 1.5 ms before its section's end */
	note_read(m, NAN, 10200, 1, at2, dur, 1);
	run_marks_span(m, 9000, 10200, true);
	assert_int_equal(scenes_of(m, "", r, &it), 0);
	assert_int_equal(it->nr_scenes, 3);
	assert_string_equal(it->scenes[0].name, "a");
	assert_true(it->scenes[0].frames.count == 3);
	assert_int_equal(r->nr_warnings, 2);
	assert_string_equal(r->warnings[0].scope, "s/between");
	assert_non_null(strstr(r->warnings[0].message, "frames not reported: "
	    "2 frames rendered around this scene"));
	assert_string_equal(r->warnings[1].scope, "s/b");
	assert_non_null(strstr(r->warnings[1].message, "jankgate read the "
	    "frames inside this scene (30 ms after its begin)"));
	results_free(r);
	run_marks_free(m);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(marked_name_of_a_scenario_scene_is_an_error),
	cmocka_unit_test(markers_outside_exec_are_left_out),
	cmocka_unit_test(markers_are_read_from_any_tag),
	cmocka_unit_test(frames_are_sliced_by_marker_times),
	cmocka_unit_test(overrun_leaves_frames_unreported),
	cmocka_unit_test(read_inside_a_scene_is_a_warning),
	cmocka_unit_test(unpaired_markers_are_errors),
	cmocka_unit_test(trace_sections_are_scenes_on_the_frames_clock),
	cmocka_unit_test(clock_sync_marker_places_a_non_boot_trace),
	cmocka_unit_test(trace_sections_without_end_or_taken_names),
	cmocka_unit_test(instrument_spans_take_sections_only),
	cmocka_unit_test(instrument_reads_count_new_frames_to_the_ms),
};
JG_UNIT_GROUP(run_marks, tests, NULL, NULL)
