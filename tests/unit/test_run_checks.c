/*
 * test_run_checks.c: what the executor decides whether to go on by: the
 * preflight limits, the crash and ANR lines of logcat, and the progress
 * line.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "error.h"
#include "logcat.h"
#include "results.h"
#include "run_int.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"

/* A broken limit refuses with a reason; unknown values refuse nothing. */
static void
hygiene_limits(void **state)
{
	struct config *cfg;
	struct results *r = results_new();
	struct strlist why = STRLIST_INIT;

	assert_int_equal(config_defaults(&cfg, &source_plugins, NULL), 0);
	cfg->devices.min_battery_pct = 20;
	cfg->devices.max_thermal_status = 1;
	cfg->devices.require_screen_on = 1;
	cfg->devices.require_animations_off = 1;
	cfg->devices.refresh_hz = 90;

	/* Everything unknown: only the refresh rate cannot be waved through. */
	assert_int_equal(run_hygiene_check(cfg, &r->hygiene, NAN, &why), 1);
	assert_string_equal(why.items[0], "refresh rate unknown; "
	    "devices.refresh_hz asks for 90 Hz");
	strlist_release(&why);

	r->hygiene.battery_pct = 15;
	r->hygiene.thermal_status = 3;
	r->hygiene.screen_on = 0;
	r->hygiene.unlocked = 0;
	r->hygiene.animator_scale = 1;
	r->hygiene.transition_scale = 0;
	r->hygiene.window_scale = 0;
	assert_int_equal(run_hygiene_check(cfg, &r->hygiene, 60, &why), 6);
	assert_string_equal(why.items[0], "battery at 15% is below "
	    "devices.min_battery_pct (20%)");
	assert_string_equal(why.items[1], "thermal status 3 is above "
	    "devices.max_thermal_status (1)");
	assert_non_null(strstr(why.items[4], "animator 1"));
	assert_string_equal(why.items[5], "refresh rate 60 Hz is not "
	    "devices.refresh_hz (90 Hz)");
	strlist_release(&why);

	r->hygiene.battery_pct = 20;
	r->hygiene.thermal_status = 1;
	r->hygiene.screen_on = 1;
	r->hygiene.unlocked = 1;
	r->hygiene.animator_scale = 0;
	assert_int_equal(run_hygiene_check(cfg, &r->hygiene, 90.000004, &why),
	    0);
	strlist_release(&why);
	results_free(r);
	config_free(cfg);
}

static int
classify(const char *line, const char *pkg)
{
	struct logcat_line l;

	assert_int_equal(logcat_parse_line(&l, line, strlen(line)), 0);
	return run_logcat_classify(&l, pkg);
}

/* Crashes and ANRs of the app are told from other processes'. */
static void
crash_and_anr_lines(void **state)
{
	const char *pkg = "com.example.shop";

	assert_int_equal(classify("  3601.009  3920  3920 E AndroidRuntime: "
	    "FATAL EXCEPTION: main", pkg), 1);
	assert_int_equal(classify("  3601.009  3920  3920 E AndroidRuntime: "
	    "Process: com.example.shop, PID: 3920", pkg), 2);
	assert_int_equal(classify("  3601.009  3920  3920 E AndroidRuntime: "
	    "Process: com.example.shop:sync, PID: 3921", pkg), 2);
	assert_int_equal(classify("  3601.009  3920  3920 E AndroidRuntime: "
	    "Process: com.example.shopping, PID: 3920", pkg), 0);
	assert_int_equal(classify("  3606.050   901   928 E ActivityManager: "
	    "ANR in com.example.shop (com.example.shop/.HomeActivity)", pkg),
	    3);
	assert_int_equal(classify("  3606.050   901   928 E ActivityManager: "
	    "ANR in com.example.shopping", pkg), 0);
	assert_int_equal(classify("  3600.888   901   928 I ActivityTaskManager: "
	    "Displayed com.example.shop/.HomeActivity: +888ms", pkg), 0);
}

static int
launch_kind(const char *line, const char *pkg)
{
	struct logcat_line l;

	assert_int_equal(logcat_parse_line(&l, line, strlen(line)), 0);
	return run_logcat_launch_kind(&l, pkg);
}

/*
 * The app's Displayed and Fully drawn lines are what the end of an
 * iteration waits for; another package's, or a longer name that starts
 * with the app's, are not.
 */
static void
launch_lines_of_the_app(void **state)
{
	const char *pkg = "com.example.shop";

	assert_int_equal(launch_kind("  3600.888   901   928 I "
	    "ActivityTaskManager: Displayed com.example.shop/.HomeActivity: "
	    "+888ms", pkg), 1);
	assert_int_equal(launch_kind("  3601.350   901   928 I "
	    "ActivityTaskManager: Fully drawn com.example.shop/.HomeActivity: "
	    "+1s350ms", pkg), 2);
	assert_int_equal(launch_kind("  3601.350   901   928 I "
	    "ActivityManager: Fully drawn com.example.shop/.HomeActivity: "
	    "+1s350ms", pkg), 2);
	assert_int_equal(launch_kind("  3600.888   901   928 I "
	    "ActivityTaskManager: Displayed com.example.shopping/.Main: "
	    "+888ms", pkg), 0);
	assert_int_equal(launch_kind("  3600.888   901   928 I "
	    "ActivityTaskManager: Displayed com.example.sho", pkg), 0);
	assert_int_equal(launch_kind("  3601.009  3920  3920 E AndroidRuntime: "
	    "FATAL EXCEPTION: main", pkg), 0);
}

/* Durations and the live line, with an ETA from the pace so far. */
static void
progress_lines(void **state)
{
	struct run_progress_state st = { "127.0.0.1:7001", "running", "shop",
		3, 6, false, 2, 6, 1000 };
	struct strbuf sb = STRBUF_INIT;

	run_format_duration(&sb, 42000);
	strbuf_addch(&sb, ' ');
	run_format_duration(&sb, 185000);
	strbuf_addch(&sb, ' ');
	run_format_duration(&sb, 3725000);
	strbuf_addch(&sb, ' ');
	run_format_duration(&sb, -1);
	assert_string_equal(sb.buf, "42s 3m05s 1h02m ?");
	strbuf_setlen(&sb, 0);

	/* Two iterations took 20 s: four more take 40 s. */
	run_progress_line(&sb, &st, 21000);
	assert_string_equal(sb.buf, "127.0.0.1:7001  shop  iteration 3/6  "
	    "ETA 40s");
	strbuf_setlen(&sb, 0);
	st.warmup = true;
	st.iteration = 1;
	st.done = 0;
	run_progress_line(&sb, &st, 21000);
	assert_string_equal(sb.buf, "127.0.0.1:7001  shop  iteration 1/6 "
	    "(warm-up)");
	strbuf_setlen(&sb, 0);
	st.scenario = NULL;
	st.iteration = 0;
	st.phase = "preflight";
	run_progress_line(&sb, &st, 21000);
	assert_string_equal(sb.buf, "127.0.0.1:7001  preflight");
	strbuf_setlen(&sb, 0);
	/* Stopped by Ctrl-C with iterations left: no ETA stays behind. */
	st.phase = "stopped";
	st.done = 2;
	run_progress_line(&sb, &st, 21000);
	assert_string_equal(sb.buf, "127.0.0.1:7001  stopped");
	strbuf_release(&sb);
}

/*
 * The room a results file needs: twice the file it grows to (each rewrite
 * holds the old file and the new at once), less what the file there now
 * takes, never less than the file itself; each scene-iteration at the
 * size the last run's file gives, else at the default.
 */
static void
space_estimate(void **state)
{
	static const struct {
		struct run_space_plan p;
		uint64_t need;
	} cases[] = {
		/* Nothing there: 10 scene-iterations at 64 KiB, twice. */
		{ { 0, 0, false, 10 }, 2 * 10 * RUN_SPACE_UNIT_BYTES },
		/* An unreadable file there: the default, less its size. */
		{ { 1000, 0, false, 10 }, 2 * 10 * RUN_SPACE_UNIT_BYTES - 1000 },
		/* Last run: 40000 bytes for 4 units, 10000 each. */
		{ { 40000, 4, false, 10 }, 2 * 100000 - 40000 },
		/* Rounded up: 10001 bytes for 2 units, 5001 each. */
		{ { 10001, 2, false, 2 }, 2 * 10002 - 10001 },
		/* A bigger last run: the new file itself at the least. */
		{ { 1000000, 100, false, 10 }, 100000 },
		/* Appending grows the file: 40000 + 10 x 10000, twice, less
		   the 40000 there. */
		{ { 40000, 4, true, 10 }, 2 * 140000 - 40000 },
		/* Nothing to measure. */
		{ { 0, 0, false, 0 }, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = run_space_need(&cases[i].p);

		if (got != cases[i].need)
			fail_msg("case %zu: need %llu, expected %llu", i,
			    (unsigned long long)got,
			    (unsigned long long)cases[i].need);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(space_estimate),
	cmocka_unit_test(hygiene_limits),
	cmocka_unit_test(crash_and_anr_lines),
	cmocka_unit_test(launch_lines_of_the_app),
	cmocka_unit_test(progress_lines),
};
JG_UNIT_GROUP(run_checks, tests, NULL, NULL)
