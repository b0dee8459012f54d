/*
 * test_run_checks.c: what the executor reads to decide whether to go on:
 * the preflight parsers and limits, the crash and ANR lines of logcat,
 * the aapt badging line, the progress line, and the SHA-256 fingerprints.
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

/* Battery, thermal status and animation scales, as the device prints them. */
static void
hygiene_numbers_parse(void **state)
{
	assert_true(run_parse_battery_level("Current Battery Service state:\n"
	    "  AC powered: false\n  status: 2\n  level: 85\n  scale: 100\n")
	    == 85);
	assert_true(isnan(run_parse_battery_level("  level: 140\n")));
	assert_true(isnan(run_parse_battery_level("")));
	assert_true(run_parse_thermal_status("IsStatusOverride: false\n"
	    "Thermal Status: 3\nCached temperatures:\n") == 3);
	assert_true(isnan(run_parse_thermal_status("Can't find service: "
	    "thermalservice\n")));
	assert_true(run_parse_scale("0.5\n") == 0.5);
	assert_true(run_parse_scale("0\n") == 0);
	assert_true(run_parse_scale("null\n") == 1.0);	/* never set */
	assert_true(isnan(run_parse_scale("")));
	assert_true(isnan(run_parse_scale("fast\n")));
}

/* Screen and lock state come from power, display and window dumps. */
static void
screen_and_lock_state_parse(void **state)
{
	assert_int_equal(run_parse_screen_on("  mWakefulness=Awake\n", NULL), 1);
	assert_int_equal(run_parse_screen_on("Display Power: state=OFF\n",
	    "mGlobalDisplayState=ON\n"), 0);
	assert_int_equal(run_parse_screen_on("  mWakefulness=Dozing\n", NULL),
	    0);
	/* No power service: the display manager decides. */
	assert_int_equal(run_parse_screen_on("", "  mGlobalDisplayState=ON\n"),
	    1);
	assert_int_equal(run_parse_screen_on("", "  mGlobalDisplayState=OFF\n"),
	    0);
	assert_int_equal(run_parse_screen_on("", ""), RS_UNKNOWN);

	assert_int_equal(run_parse_unlocked("  mCurrentFocus=Window{7d1e2f3 u0 "
	    "com.example.shop/com.example.shop.HomeActivity}\n"), 1);
	assert_int_equal(run_parse_unlocked("  mCurrentFocus=Window{1 u0 "
	    "NotificationShade}\n"), 0);
	assert_int_equal(run_parse_unlocked("    mDreamingLockscreen=true "
	    "mDreamingSleepToken=null\n  mCurrentFocus=Window{1 u0 x/x.A}\n"),
	    0);
	assert_int_equal(run_parse_unlocked("nothing here\n"), RS_UNKNOWN);
}

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

/* `aapt dump badging` gives the APK's versionCode. */
static void
badging_version_code(void **state)
{
	double v;

	assert_int_equal(run_parse_badging("package: name='com.example.shop' "
	    "versionCode='100' versionName='1.0.0' platformBuildVersionName=''"
	    "\nsdkVersion:'24'\n", &v), 0);
	assert_true(v == 100);
	assert_int_equal(run_parse_badging("package: name='x' versionCode='' "
	    "\n", &v), JG_EINVAL);
	assert_true(isnan(v));
	assert_int_equal(run_parse_badging("ERROR: dump failed\n", &v),
	    JG_ENOTFOUND);
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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(hygiene_numbers_parse),
	cmocka_unit_test(screen_and_lock_state_parse),
	cmocka_unit_test(hygiene_limits),
	cmocka_unit_test(crash_and_anr_lines),
	cmocka_unit_test(badging_version_code),
	cmocka_unit_test(progress_lines),
};
JG_UNIT_GROUP(run_checks, tests, NULL, NULL)
