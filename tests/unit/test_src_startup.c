/*
 * test_src_startup.c: the startup source, `am start -W` of API 24..34
 * (docs/formats.md §3.2) and the Displayed / Fully drawn lines (§3.3), over
 * text and over captures of the simulated phone
 * (tests/unit/data/sources/startup/).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "error.h"
#include "fileio.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "strlist.h"
#include "strbuf.h"
#include "xalloc.h"

struct fx {
	struct results *r;
	struct rs_iteration *it;
	struct source_ctx ctx;
	const struct source *src;
};

static void
fx_init(struct fx *fx, const char *package, enum rs_launch kind)
{
	memset(fx, 0, sizeof(*fx));
	fx->r = results_new();
	fx->it = rs_scenario_add_iteration(results_add_scenario(fx->r,
	    "launch"), false);
	fx->it->startup.kind = kind;
	fx->ctx.package = package;
	fx->ctx.results = fx->r;
	fx->ctx.it = fx->it;
	fx->ctx.refresh_hz = 60;
	fx->src = source_find("startup");
	assert_non_null(fx->src);
}

static void
fx_release(struct fx *fx)
{
	results_free(fx->r);
}

static int
launch(struct fx *fx, const char *am)
{
	return fx->src->launch(&fx->ctx, am, strlen(am));
}

/* Run the logcat hook over a capture given as text. */
static void
logcat(struct fx *fx, const char *text)
{
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	size_t nr;

	logcat_buf_parse_text(b, text, strlen(text));
	lines = logcat_buf_lines(b, &nr);
	assert_int_equal(fx->src->logcat(&fx->ctx, lines, nr), 0);
	logcat_buf_free(b);
}

static int
parse_file(struct fx *fx, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/tests/unit/data/sources/startup/%s",
	    unit_srcdir(), name);
	int rc;

	assert_int_equal(file_read(&sb, path), 0);
	rc = fx->src->parse(&fx->ctx, sb.buf, sb.len, name);
	strbuf_release(&sb);
	free(path);
	return rc;
}

static int
warned(const struct fx *fx, const char *part)
{
	for (size_t i = 0; i < fx->r->nr_warnings; i++)
		if (strstr(fx->r->warnings[i].message, part))
			return 1;
	return 0;
}

/* `have` equals `want`, NAN included. */
static void
assert_ms(double have, double want)
{
	if (isnan(want) != isnan(have) || (!isnan(want) && want != have))
		fail_msg("%g ms, expected %g", have, want);
}

struct am_case {
	const char *text;
	double total, wait;
	const char *state;
};

/* Each API level's layout gives TotalTime, WaitTime and LaunchState. */
static void
am_start_layouts(void **state)
{
	static const struct am_case cases[] = {
		/* API 24..28: ThisTime, no LaunchState */
		{ "Stopping: com.example.shop\n"
		  "Starting: Intent { cmp=com.example.shop/.HomeActivity }\n"
		  "Status: ok\nActivity: com.example.shop/.HomeActivity\n"
		  "ThisTime: 888\nTotalTime: 888\nWaitTime: 899\nComplete\n",
		  888, 899, NULL },
		/* API 29+, a real capture (docs/formats.md §3.2) */
		{ "Starting: Intent { "
		  "cmp=com.android.calculator2/.Calculator }\n"
		  "Status: ok\nLaunchState: COLD\n"
		  "Activity: com.android.calculator2/.Calculator\n"
		  "TotalTime: 2229\nWaitTime: 2239\nComplete\n",
		  2229, 2239, "COLD" },
		/* the launcher intent, CRLF through a Windows tool */
		{ "Starting: Intent { act=android.intent.action.MAIN "
		  "cat=[android.intent.category.LAUNCHER] "
		  "cmp=com.example/.MainActivity }\r\nStatus: ok\r\n"
		  "LaunchState: RELAUNCH\r\nActivity: com.example/.MainActivity"
		  "\r\nTotalTime: 412\r\nWaitTime: 431\r\nComplete\r\n",
		  412, 431, "RELAUNCH" },
		/* brought to front: no TotalTime */
		{ "Starting: Intent { cmp=com.example/.MainActivity }\n"
		  "Warning: Activity not started, intent has been delivered to "
		  "currently running top-most instance.\nStatus: ok\n"
		  "LaunchState: UNKNOWN (0)\n"
		  "Activity: com.example/.MainActivity\n"
		  "WaitTime: 4\nComplete\n", NAN, 4, "UNKNOWN (0)" },
		/* a number that is not one */
		{ "Status: ok\nTotalTime: -1\nWaitTime: 12x\n", NAN, NAN,
		  NULL },
		/* pasted in a blog: every line indented by blanks */
		{ "    Starting: Intent { cmp=com.example/.MainActivity }\n"
		  "    Status: ok\n    LaunchState: WARM\n"
		  "    Activity: com.example/.MainActivity\n"
		  "    TotalTime: 317\n    WaitTime: 322\n    Complete\n",
		  317, 322, "WARM" },
		/* ... or by tabs, with CRLF, mixed */
		{ "\tStarting: Intent { cmp=com.example/.MainActivity }\r\n"
		  "\t Status: ok\r\n\tActivity: com.example/.MainActivity\r\n"
		  " \tThisTime: 201\r\n\tTotalTime: 208\r\n"
		  "\tWaitTime: 230\r\n\tComplete\r\n", 208, 230, NULL },
		/* in a code comment, with the reader's notes after values */
		{ "    /**\n     * Starting: Intent { cmp=com.example/.Main }\n"
		  "     * Status: ok //launched\n"
		  "     * LaunchState: WARM //the process was alive\n"
		  "     * Activity: com.example/.Main\n"
		  "     * TotalTime: 90    //every activity\n"
		  "     * WaitTime: 102  as the system saw it\n"
		  "     * Complete\n     */\n", 90, 102, "WARM" },
		/* quoted in Markdown, or after a shell comment mark */
		{ "> Status: ok\n> LaunchState: UNKNOWN (0)\n> TotalTime: 7\n"
		  "# WaitTime: 8\n// Complete\n", 7, 8, "UNKNOWN (0)" },
		/* old releases: no Status line, only the times */
		{ "Starting: Intent { cmp=com.example/.MainActivity }\n"
		  "Activity: com.example/.MainActivity\n"
		  "ThisTime: 640\nTotalTime: 640\nWaitTime: 655\n",
		  640, 655, NULL },
		{ "Activity: com.example/.MainActivity\nTotalTime: 512\n",
		  512, NAN, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct am_case *c = &cases[i];
		struct fx fx;

		/* The app is the one am was asked for. */
		fx_init(&fx, NULL, RS_LAUNCH_NONE);
		assert_int_equal(launch(&fx, c->text), 0);
		assert_true(fx.it->startup.present);
		assert_ms(fx.it->startup.total_ms, c->total);
		assert_ms(fx.it->startup.wait_ms, c->wait);
		if (c->state)
			assert_string_equal(fx.it->startup.launch_state,
			    c->state);
		else
			assert_null(fx.it->startup.launch_state);
		assert_int_equal(fx.r->nr_warnings, 0);
		fx_release(&fx);
	}
}

/*
 * A launch that did not happen fails the iteration: JG_EINVAL with the
 * device's own words, and no startup recorded.
 */
static void
am_errors_fail_the_launch(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "Starting: Intent { cmp=com.example.shop/.NoSuchActivity }\n"
		  "Error type 3\nError: Activity class {com.example.shop/"
		  "com.example.shop.NoSuchActivity} does not exist.\n",
		  "am start failed: 'Error: Activity class {com.example.shop/"
		  "com.example.shop.NoSuchActivity} does not exist.'" },
		{ "Starting: Intent { cmp=com.example/.A }\n"
		  "Error: Activity not started, unable to resolve Intent\n",
		  "am start failed: 'Error: Activity not started, unable to "
		  "resolve Intent'" },
		{ "Starting: Intent { cmp=com.example/.A }\nStatus: timeout\n"
		  "Activity: com.example/.A\nWaitTime: 10012\nComplete\n",
		  "launch of 'com.example/.A' did not complete: "
		  "'Status: timeout'" },
		{ "Exception occurred while executing 'start':\n"
		  "java.lang.IllegalArgumentException: Unknown option: -Q\n",
		  "am start failed: 'Exception occurred while executing "
		  "'start':'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fx fx;

		fx_init(&fx, "com.example", RS_LAUNCH_COLD);
		assert_int_equal(launch(&fx, cases[i].text), JG_EINVAL);
		assert_string_equal(jg_error_msg(), cases[i].msg);
		assert_false(fx.it->startup.present);
		fx_release(&fx);
	}
}

/*
 * The last launch of an iteration wins: a second launch replaces every
 * number of the first, and the kind the runner set stays.
 */
static void
last_launch_replaces(void **state)
{
	struct fx fx;

	fx_init(&fx, "p", RS_LAUNCH_HOT);
	assert_int_equal(launch(&fx, "Status: ok\nLaunchState: COLD\n"
	    "TotalTime: 900\nWaitTime: 910\n"), 0);
	fx.it->startup.displayed_ms = 900;
	assert_int_equal(launch(&fx, "Status: ok\nLaunchState: HOT\n"
	    "WaitTime: 40\n"), 0);
	assert_ms(fx.it->startup.total_ms, NAN);
	assert_ms(fx.it->startup.wait_ms, 40);
	assert_ms(fx.it->startup.displayed_ms, NAN);
	assert_string_equal(fx.it->startup.launch_state, "HOT");
	assert_int_equal(fx.it->startup.kind, RS_LAUNCH_HOT);
	fx_release(&fx);
}

/*
 * A launch of another kind than asked, am's "not started" warning on a
 * cold launch, and output without Status or a time are warnings, not
 * errors.
 */
static void
unexpected_launches_warn(void **state)
{
	struct fx fx;

	fx_init(&fx, "p", RS_LAUNCH_COLD);
	assert_int_equal(launch(&fx, "Warning: Activity not started, its "
	    "current task has been brought to the front\nStatus: ok\n"
	    "LaunchState: HOT\nTotalTime: 90\nWaitTime: 99\n"), 0);
	assert_true(warned(&fx, "a cold launch was asked, the device reports "
	    "'HOT'"));
	assert_true(warned(&fx, "its current task has been brought"));
	assert_string_equal(fx.r->warnings[0].scope, "launch");
	fx_release(&fx);

	fx_init(&fx, "p", RS_LAUNCH_WARM);
	assert_int_equal(launch(&fx, "LaunchState: warm\nActivity: p/.A\n"),
	    0);
	assert_true(warned(&fx, "no 'Status:' line and no TotalTime or "
	    "WaitTime"));
	assert_false(warned(&fx, "was asked"));
	fx_release(&fx);
}

struct dur_case {
	const char *line;
	double ms;
};

/*
 * formatDuration texts, the three tags' layouts, and "(total ...)":
 * each gives Displayed in ms (its own number), or nothing for what is
 * not a duration.
 */
static void
displayed_durations(void **state)
{
	static const struct dur_case cases[] = {
		{ "I ActivityManager: Displayed p/.A: +1s234ms", 1234 },
		{ "I ActivityManager: Displayed p/.A: +234ms", 234 },
		{ "I ActivityManager: Displayed p/.A: +1s5ms", 1005 },
		{ "I ActivityManager: Displayed p/.A: +1m0s0ms", 60000 },
		{ "I ActivityManager: Displayed p/.A: +1d2h3m4s5ms",
		  93784005 },
		{ "I ActivityManager: Displayed p/.A: 0", 0 },
		{ "I ActivityManager: Displayed p/.A: +3s534ms "
		  "(total +1m22s643ms)", 3534 },
		{ "I ActivityTaskManager: Displayed p/.A: +412ms", 412 },
		{ "I ActivityTaskManager: Displayed p/.A for user 0: +412ms",
		  412 },
		{ "I ActivityTaskManager: Displayed p/p.other.A for user 10: "
		  "+2s0ms", 2000 },
		{ "I ActivityManager: Displayed p/.A: -5ms", NAN },
		{ "I ActivityManager: Displayed p/.A: +", NAN },
		{ "I ActivityManager: Displayed p/.A: +12", NAN },
		{ "I ActivityManager: Displayed p/.A: +5xs", NAN },
		{ "I ActivityManager: Displayed p/.A: +1234567890ms", NAN },
		{ "I ActivityManager: Displayed p/.A:", NAN },
		{ "I ActivityManager: Displayed p/.A: +3s (total", NAN },
		{ "I WindowManager: Displayed p/.A: +5ms", NAN },
		{ "I ActivityManager: Displayed q/.A: +5ms", NAN },
		{ "I ActivityManager: Displayed pp/.A: +5ms", NAN },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fx fx;
		char *text = xasprintf("  10.000   900   901 %s\n",
		    cases[i].line);

		fx_init(&fx, "p", RS_LAUNCH_NONE);
		fx.it->startup.present = true;
		logcat(&fx, text);
		if (isnan(cases[i].ms) != isnan(fx.it->startup.displayed_ms) ||
		    (!isnan(cases[i].ms) &&
		    cases[i].ms != fx.it->startup.displayed_ms))
			fail_msg("%s: %g", cases[i].line,
			    fx.it->startup.displayed_ms);
		/* "(total ...)" is the launch's TotalTime, when am has none. */
		if (strstr(cases[i].line, "(total +1m"))
			assert_ms(fx.it->startup.total_ms, 82643);
		else
			assert_ms(fx.it->startup.total_ms, NAN);
		free(text);
		fx_release(&fx);
	}
}

/*
 * The launch's Displayed is the first after the last shell START of the
 * package; the scenario's later navigation and an earlier launch are not
 * it.  Fully drawn is the launched activity's.
 */
static void
displayed_follows_the_last_start(void **state)
{
	static const char log[] =
	    "  10.000   900   901 I ActivityTaskManager: START u0 {flg=0x1 "
	    "cmp=p/.Home} from uid 2000\n"
	    "  10.800   900   901 I ActivityTaskManager: Displayed p/.Home: "
	    "+800ms\n"
	    "  12.000   900   901 I ActivityTaskManager: START u0 {cmp=p/.Home}"
	    " from uid 10100\n"
	    "  14.000   900   901 I ActivityTaskManager: START u0 {flg=0x1 "
	    "cmp=q/.Other} from uid 2000\n"
	    "  15.000   900   901 I ActivityTaskManager: START u0 {flg=0x1 "
	    "cmp=p/.Home} from uid 2000\n"
	    "  15.100   900   901 I ActivityTaskManager: Displayed q/.Other: "
	    "+50ms\n"
	    "  15.350   900   901 I ActivityTaskManager: Displayed p/.Home: "
	    "+340ms\n"
	    "  16.000   900   901 I ActivityTaskManager: Displayed p/.Feed: "
	    "+300ms\n"
	    "  16.100   900   901 I ActivityTaskManager: Fully drawn p/.Feed: "
	    "+400ms\n"
	    "  16.300   900   901 I ActivityTaskManager: Fully drawn p/.Home: "
	    "+1s300ms\n";
	struct fx fx;

	fx_init(&fx, "p", RS_LAUNCH_WARM);
	assert_int_equal(launch(&fx, "Status: ok\nLaunchState: WARM\n"
	    "TotalTime: 340\nWaitTime: 352\n"), 0);
	logcat(&fx, log);
	assert_ms(fx.it->startup.displayed_ms, 340);
	assert_ms(fx.it->startup.fully_drawn_ms, 1300);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);
}

/*
 * A HOT launch has no Displayed: a later one from navigation is not
 * taken, nor one after WaitTime + 1 s when the state is not printed.
 */
static void
no_displayed_for_hot_or_late_lines(void **state)
{
	static const char log[] =
	    "  20.000   900   901 I ActivityManager: START u0 {cmp=p/.Home} "
	    "from uid 2000\n"
	    "  21.500   900   901 I ActivityManager: Displayed p/.Feed: "
	    "+200ms\n";
	struct fx fx;

	fx_init(&fx, "p", RS_LAUNCH_HOT);
	assert_int_equal(launch(&fx, "Status: ok\nLaunchState: HOT\n"
	    "TotalTime: 90\nWaitTime: 100\n"), 0);
	logcat(&fx, log);
	assert_ms(fx.it->startup.displayed_ms, NAN);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);

	fx_init(&fx, "p", RS_LAUNCH_WARM);
	assert_int_equal(launch(&fx, "Status: ok\nThisTime: 90\n"
	    "TotalTime: 90\nWaitTime: 100\n"), 0);
	logcat(&fx, log);
	assert_ms(fx.it->startup.displayed_ms, NAN);
	assert_true(warned(&fx, "no 'Displayed' line for 'p' after the warm "
	    "launch"));
	fx_release(&fx);
}

/* Without any START line (no system buffer) the last Displayed is taken. */
static void
without_start_the_last_displayed(void **state)
{
	static const char log[] =
	    "  10.800   900   901 I ActivityManager: Displayed p/.Home: "
	    "+800ms\n"
	    "  15.350   900   901 I ActivityManager: Displayed p/.Home: "
	    "+340ms (total +350ms)\n"
	    "  16.300   900   901 I ActivityManager: Fully drawn p/.Home: "
	    "+1s300ms\n";
	struct fx fx;

	fx_init(&fx, "p", RS_LAUNCH_COLD);
	assert_int_equal(launch(&fx, "Status: ok\nTotalTime: 355\n"), 0);
	logcat(&fx, log);
	assert_ms(fx.it->startup.displayed_ms, 340);
	/* am's TotalTime stands; the log's total does not replace it. */
	assert_ms(fx.it->startup.total_ms, 355);
	assert_ms(fx.it->startup.fully_drawn_ms, 1300);
	fx_release(&fx);
}

/* An iteration without a launch step gets no startup from its log. */
static void
no_launch_no_startup(void **state)
{
	struct fx fx;

	fx_init(&fx, "p", RS_LAUNCH_NONE);
	logcat(&fx, "  10.800   900   901 I ActivityManager: Displayed "
	    "p/.Home: +800ms\n");
	assert_false(fx.it->startup.present);
	assert_ms(fx.it->startup.displayed_ms, NAN);
	fx_release(&fx);
}

struct capture_case {
	const char *file;
	double total, displayed, fully_drawn;
	const char *state;
};

/*
 * `jankgate parse startup` over the simulated phone's `am start -W`
 * output followed by its logcat: the last launch of each capture.
 */
static void
parses_phone_captures(void **state)
{
	static const struct capture_case cases[] = {
		{ "sim-api28-warm.txt", 344, 344, 1363, NULL },
		{ "sim-api29-warm.txt", 344, 344, 1363, "WARM" },
		{ "sim-api34-hot.txt", 112, NAN, NAN, "HOT" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct capture_case *c = &cases[i];
		struct fx fx;

		fx_init(&fx, NULL, RS_LAUNCH_NONE);
		assert_int_equal(parse_file(&fx, c->file), 0);
		assert_true(fx.it->startup.present);
		assert_ms(fx.it->startup.total_ms, c->total);
		assert_ms(fx.it->startup.displayed_ms, c->displayed);
		assert_ms(fx.it->startup.fully_drawn_ms, c->fully_drawn);
		if (c->state)
			assert_string_equal(fx.it->startup.launch_state,
			    c->state);
		fx_release(&fx);
	}
}

/*
 * parse tells the inputs apart: am output alone (indented or not, with
 * or without Status), a logcat capture alone, an am error (returned, as
 * in a run), and text that is neither.
 */
static void
parse_detects_its_input(void **state)
{
	static const char am[] = "Status: ok\nTotalTime: 7\nWaitTime: 9\n";
	static const char log[] = "  1.000  9  9 I ActivityManager: START u0 "
	    "{cmp=p/.A} from uid 2000\n"
	    "  1.100  9  9 I ActivityManager: Displayed p/.A: +99ms\n";
	static const char indented[] = "\t$ adb shell am start -W p/.A\n"
	    "\tStarting: Intent { cmp=p/.A }\n\tActivity: p/.A\n"
	    "\tTotalTime: 44\n";
	struct fx fx;

	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	assert_int_equal(fx.src->parse(&fx.ctx, am, strlen(am), "am.txt"), 0);
	assert_ms(fx.it->startup.total_ms, 7);
	assert_ms(fx.it->startup.displayed_ms, NAN);
	fx_release(&fx);

	/* indented, and no Status (old releases): am's all the same */
	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	assert_int_equal(fx.src->parse(&fx.ctx, indented, strlen(indented),
	    "ind.txt"), 0);
	assert_ms(fx.it->startup.total_ms, 44);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);

	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	assert_int_equal(fx.src->parse(&fx.ctx, log, strlen(log), "l.txt"),
	    0);
	assert_true(fx.it->startup.present);
	assert_ms(fx.it->startup.total_ms, NAN);
	assert_ms(fx.it->startup.displayed_ms, 99);
	fx_release(&fx);

	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	assert_int_equal(fx.src->parse(&fx.ctx, "Error type 3\n", 13,
	    "e.txt"), JG_EINVAL);
	fx_release(&fx);

	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	assert_int_equal(fx.src->parse(&fx.ctx, "hello\n", 6, "x.txt"), 0);
	assert_false(fx.it->startup.present);
	assert_true(warned(&fx, "'x.txt': no line in a logcat layout "
	    "jankgate knows; the first it could not read is line 1: "
	    "'hello'"));
	fx_release(&fx);

	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	assert_int_equal(fx.src->parse(&fx.ctx, log, 40, "cut.txt"), 0);
	assert_true(warned(&fx, "'cut.txt' holds no 'am start -W' output "
	    "or Displayed / Fully drawn line"));
	fx_release(&fx);
}

/* The launches `jankgate parse` lists, and frees. */
static void
fx_launches(struct fx *fx, struct source_launches *l)
{
	memset(l, 0, sizeof(*l));
	fx->ctx.launches = l;
}

/*
 * Every launch of a file is listed, in order, the last kept by the
 * iteration: each `am start -W` paired with its own START line, or,
 * from a log alone, each Displayed line with the Fully drawn line of the
 * same activity that follows it.
 */
static void
parse_lists_every_launch(void **state)
{
	static const char log[] =
	    "02-22 15:50:50.502  1802  1962 I ActivityTaskManager: Displayed "
	    "com.x/.Main: +477ms\n"
	    "02-22 15:50:50.900  1802  1962 I ActivityTaskManager: Displayed "
	    "com.x/.Other: +50ms\n"
	    "02-22 15:50:51.100  1802  1962 I ActivityTaskManager: Fully "
	    "drawn com.x/.Main: +700ms\n"
	    "02-22 15:50:51.703  1802  1962 I ActivityTaskManager: Displayed "
	    "com.y/.Main: +478ms\n"
	    "Displayed com.x/.Main: +710ms\n";
	struct source_launches l;
	struct fx fx;

	fx_init(&fx, "com.x", RS_LAUNCH_NONE);
	fx_launches(&fx, &l);
	assert_int_equal(fx.src->parse(&fx.ctx, log, strlen(log), "l"), 0);
	assert_int_equal(l.nr, 3);
	assert_string_equal(l.v[0].activity, "com.x/.Main");
	assert_ms(l.v[0].startup->displayed_ms, 477);
	assert_ms(l.v[0].startup->fully_drawn_ms, 700);
	assert_string_equal(l.v[1].activity, "com.x/.Other");
	assert_ms(l.v[1].startup->fully_drawn_ms, NAN);
	/* the bare line, pasted without a prefix */
	assert_ms(l.v[2].startup->displayed_ms, 710);
	assert_ms(fx.it->startup.displayed_ms, 710);
	/* read, but said: it has no time or process to check */
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_true(warned(&fx, "'l': 1 line in no logcat layout jankgate "
	    "knows, read as bare messages (no time, process or tag); the "
	    "first is line 5: 'Displayed com.x/.Main: +710ms'"));
	source_launches_release(&l);
	fx_release(&fx);

	/* No app given: every app's launch, and a warning. */
	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	fx_launches(&fx, &l);
	assert_int_equal(fx.src->parse(&fx.ctx, log, strlen(log), "l"), 0);
	assert_int_equal(l.nr, 4);
	assert_string_equal(l.v[2].activity, "com.y/.Main");
	assert_string_equal(l.v[3].activity, "com.x/.Main");
	assert_true(warned(&fx, "launches of several apps"));
	source_launches_release(&l);
	fx_release(&fx);
}

/*
 * `am start -W` output and the log lines of the same launch in one file,
 * the log as a grep prints it (tag only, no time or pid): both are read,
 * and the note names the log's layout, am's lines aside.
 */
static void
parse_am_with_a_grep_of_the_log(void **state)
{
	static const char text[] =
	    "Starting: Intent { cmp=com.x/.Main }\n"
	    "Status: ok\n"
	    "Activity: com.x/.Main\n"
	    "TotalTime: 710\n"
	    "WaitTime: 730\n"
	    "Complete\n"
	    "ActivityTaskManager: Displayed com.x/.Main: +710ms\n"
	    "ActivityTaskManager: Fully drawn com.x/.Main: +1s200ms\n";
	struct strlist notes = STRLIST_INIT;
	struct source_launches l;
	struct fx fx;

	fx_init(&fx, "com.x", RS_LAUNCH_NONE);
	fx_launches(&fx, &l);
	fx.ctx.notes = &notes;
	assert_int_equal(fx.src->parse(&fx.ctx, text, strlen(text), "m"), 0);
	assert_int_equal(l.nr, 1);
	assert_ms(l.v[0].startup->total_ms, 710);
	assert_ms(l.v[0].startup->displayed_ms, 710);
	assert_ms(l.v[0].startup->fully_drawn_ms, 1200);
	assert_int_equal(fx.r->nr_warnings, 0);
	assert_int_equal(notes.nr, 1);
	assert_string_equal(notes.items[0], "'m': logcat layouts: tag only "
	    "(2 lines)");
	strlist_release(&notes);
	source_launches_release(&l);
	fx_release(&fx);
}

/* Two `am start -W` outputs and their logcat: two launches, paired. */
static void
parse_pairs_am_with_its_start(void **state)
{
	struct source_launches l;
	struct fx fx;

	fx_init(&fx, NULL, RS_LAUNCH_NONE);
	fx_launches(&fx, &l);
	assert_int_equal(parse_file(&fx, "sim-api29-warm.txt"), 0);
	assert_int_equal(l.nr, 2);
	assert_string_equal(l.v[0].startup->launch_state, "COLD");
	assert_ms(l.v[0].startup->total_ms, 773);
	assert_ms(l.v[0].startup->displayed_ms, 773);
	assert_ms(l.v[0].startup->fully_drawn_ms, 1272);
	assert_string_equal(l.v[1].startup->launch_state, "WARM");
	assert_ms(l.v[1].startup->displayed_ms, 344);
	assert_ms(l.v[1].startup->fully_drawn_ms, 1363);
	source_launches_release(&l);
	fx_release(&fx);
}

/*
 * An `Activity:` that is not the app's (a chooser, a launcher, another
 * app's trampoline) is a warning that names it.
 */
static void
another_apps_activity_warns(void **state)
{
	static const char am[] =
	    "Starting: Intent { act=android.intent.action.VIEW "
	    "dat=https://x.example/ }\nStatus: ok\nLaunchState: COLD\n"
	    "Activity: android/com.android.internal.app.ResolverActivity\n"
	    "TotalTime: 180\nWaitTime: 190\nComplete\n";
	struct fx fx;

	fx_init(&fx, "com.x", RS_LAUNCH_COLD);
	assert_int_equal(launch(&fx, am), 0);
	assert_ms(fx.it->startup.total_ms, 180);
	assert_true(warned(&fx, "am start -W reports activity "
	    "'android/com.android.internal.app.ResolverActivity', not one of "
	    "'com.x'"));
	fx_release(&fx);

	fx_init(&fx, "com.x", RS_LAUNCH_COLD);
	assert_int_equal(launch(&fx, "Starting: Intent { cmp=com.x/.A }\n"
	    "Status: ok\nActivity: com.x/.B\nTotalTime: 5\nComplete\n"), 0);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(am_start_layouts),
	cmocka_unit_test(am_errors_fail_the_launch),
	cmocka_unit_test(last_launch_replaces),
	cmocka_unit_test(unexpected_launches_warn),
	cmocka_unit_test(displayed_durations),
	cmocka_unit_test(displayed_follows_the_last_start),
	cmocka_unit_test(no_displayed_for_hot_or_late_lines),
	cmocka_unit_test(without_start_the_last_displayed),
	cmocka_unit_test(no_launch_no_startup),
	cmocka_unit_test(parse_am_with_a_grep_of_the_log),
	cmocka_unit_test(parses_phone_captures),
	cmocka_unit_test(parse_detects_its_input),
	cmocka_unit_test(parse_lists_every_launch),
	cmocka_unit_test(parse_pairs_am_with_its_start),
	cmocka_unit_test(another_apps_activity_warns),
};

JG_UNIT_GROUP(src_startup, tests, NULL, NULL)
