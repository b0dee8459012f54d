/*
 * test_dumpsys.c: what the framework prints, as android/dumpsys.c and
 * aapt.c read it: the resumed activity per API level, component names,
 * `dumpsys package`, the frame count of gfxinfo, the phone's state
 * before measuring, and aapt's badging.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "aapt.h"
#include "dumpsys.h"
#include "error.h"
#include "results.h"

/* The resumed activity is read in every API level's wording. */
static void
resumed_activity_per_api_level(void **state)
{
	static const char *const dumps[] = {
		/* API 28 */
		"  Stack #12:\n        Run #0: ActivityRecord{1 u0 com.x/.A t12}\n"
		"\n    mResumedActivity: ActivityRecord{5a1b2c3 u0 "
		"com.example.shop/.FeedActivity t12}\n\n  mFocusedActivity: "
		"ActivityRecord{5a1b2c3 u0 com.example.shop/.FeedActivity t12}\n",
		/* API 30 */
		"    mResumedActivity: ActivityRecord{5a1b2c3 u0 com.example.shop"
		"/.FeedActivity t12}\n\n  ResumedActivity: ActivityRecord{5a1b2c3 "
		"u0 com.example.shop/.FeedActivity t12}\n",
		/* API 34 */
		"      topResumedActivity=ActivityRecord{5a1b2c3 u0 com.example."
		"shop/com.example.shop.FeedActivity t12}\n\n  ResumedActivity: "
		"ActivityRecord{5a1b2c3 u0 com.example.shop/.FeedActivity t12}\n",
	};

	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		char *c = NULL;

		assert_int_equal(dumpsys_resumed(dumps[i], &c), 0);
		assert_string_equal(c, "com.example.shop/com.example.shop."
		    "FeedActivity");
		free(c);
	}
}

/* No resumed activity, or a garbled record, is "not found". */
static void
no_resumed_activity_is_not_found(void **state)
{
	static const char *const dumps[] = {
		"",
		"ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n",
		"  ResumedActivity: ActivityRecord{5a1b2c3}\n",
		"  ResumedActivity: null\n",
	};

	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		char *c = (char *)1;

		assert_int_equal(dumpsys_resumed(dumps[i], &c), JG_ENOTFOUND);
		assert_null(c);
	}
}

/* A scenario's activity name matches in all the forms it may take. */
static void
activity_names_match_components(void **state)
{
	const char *pkg = "com.example.shop";
	const char *feed = "com.example.shop/com.example.shop.FeedActivity";

	assert_true(dumpsys_activity_matches(".FeedActivity", pkg, feed));
	assert_true(dumpsys_activity_matches("com.example.shop.FeedActivity", pkg,
	    feed));
	assert_true(dumpsys_activity_matches("com.example.shop/.FeedActivity", pkg,
	    feed));
	assert_true(dumpsys_activity_matches("com.example.shop/com.example.shop."
	    "FeedActivity", pkg, feed));
	assert_false(dumpsys_activity_matches(".Feed", pkg, feed));
	assert_false(dumpsys_activity_matches(".HomeActivity", pkg, feed));
	assert_false(dumpsys_activity_matches("com.other/.FeedActivity", pkg,
	    feed));
	assert_false(dumpsys_activity_matches(".FeedActivity", pkg,
	    "com.other/com.other.FeedActivity"));
}

/* The launcher activity and the version come from `dumpsys package`. */
static void
package_dump_gives_launcher_and_version(void **state)
{
	static const char dump[] =
		"Activity Resolver Table:\n"
		"  Non-Data Actions:\n"
		"      android.intent.action.VIEW:\n"
		"        11aa22b com.example.shop/.DeepLinkActivity filter 1\n"
		"          Action: \"android.intent.action.VIEW\"\n"
		"      android.intent.action.MAIN:\n"
		"        3aac18c com.example.shop/.HomeActivity filter 5c1735c\n"
		"          Action: \"android.intent.action.MAIN\"\n"
		"          Category: \"android.intent.category.LAUNCHER\"\n"
		"\nPackages:\n  Package [com.example.shop] (b710078):\n"
		"    userId=10100\n"
		"    versionCode=100 minSdk=24 targetSdk=34\n"
		"    versionName=1.0.0\n";
	char *launcher, *name;
	double code;

	dumpsys_package(dump, "com.example.shop", &launcher, &code, &name);
	assert_string_equal(launcher, "com.example.shop/.HomeActivity");
	assert_true(code == 100);
	assert_string_equal(name, "1.0.0");
	free(launcher);
	free(name);

	dumpsys_package("Unable to find package: com.x\n", "com.x",
	    &launcher, &code, &name);
	assert_null(launcher);
	assert_true(isnan(code));
	assert_null(name);
}

/* "Total frames rendered" drives `wait idle` outside scenes. */
static void
gfxinfo_total_frames(void **state)
{
	assert_int_equal(dumpsys_gfx_total_frames("Applications Graphics "
	    "Acceleration Info:\n\nTotal frames rendered: 412\nJanky frames: "
	    "3 (0.73%)\n"), 412);
	assert_int_equal(dumpsys_gfx_total_frames("No process found for: com.x\n"),
	    -1);
	assert_int_equal(dumpsys_gfx_total_frames("Total frames rendered: x\n"), 0);
}

/* Battery, thermal status and animation scales, as the device prints them. */
static void
hygiene_numbers_parse(void **state)
{
	assert_true(dumpsys_battery_level("Current Battery Service state:\n"
	    "  AC powered: false\n  status: 2\n  level: 85\n  scale: 100\n")
	    == 85);
	assert_true(isnan(dumpsys_battery_level("  level: 140\n")));
	assert_true(isnan(dumpsys_battery_level("")));
	assert_true(dumpsys_thermal_status("IsStatusOverride: false\n"
	    "Thermal Status: 3\nCached temperatures:\n") == 3);
	assert_true(isnan(dumpsys_thermal_status("Can't find service: "
	    "thermalservice\n")));
	assert_true(dumpsys_animation_scale("0.5\n") == 0.5);
	assert_true(dumpsys_animation_scale("0\n") == 0);
	assert_true(dumpsys_animation_scale("null\n") == 1.0);	/* never set */
	assert_true(isnan(dumpsys_animation_scale("")));
	assert_true(isnan(dumpsys_animation_scale("fast\n")));
}

/* Screen and lock state come from power, display and window dumps. */
static void
screen_and_lock_state_parse(void **state)
{
	assert_int_equal(dumpsys_screen_on("  mWakefulness=Awake\n", NULL), 1);
	assert_int_equal(dumpsys_screen_on("Display Power: state=OFF\n",
	    "mGlobalDisplayState=ON\n"), 0);
	assert_int_equal(dumpsys_screen_on("  mWakefulness=Dozing\n", NULL),
	    0);
	/* No power service: the display manager decides. */
	assert_int_equal(dumpsys_screen_on("", "  mGlobalDisplayState=ON\n"),
	    1);
	assert_int_equal(dumpsys_screen_on("", "  mGlobalDisplayState=OFF\n"),
	    0);
	assert_int_equal(dumpsys_screen_on("", ""), RS_UNKNOWN);

	assert_int_equal(dumpsys_unlocked("  mCurrentFocus=Window{7d1e2f3 u0 "
	    "com.example.shop/com.example.shop.HomeActivity}\n"), 1);
	assert_int_equal(dumpsys_unlocked("  mCurrentFocus=Window{1 u0 "
	    "NotificationShade}\n"), 0);
	assert_int_equal(dumpsys_unlocked("    mDreamingLockscreen=true "
	    "mDreamingSleepToken=null\n  mCurrentFocus=Window{1 u0 x/x.A}\n"),
	    0);
	assert_int_equal(dumpsys_unlocked("nothing here\n"), RS_UNKNOWN);
}

/* `aapt dump badging` gives the APK's versionCode. */
static void
badging_version_code(void **state)
{
	double v;

	assert_int_equal(aapt_badging_version_code("package: name='com.example.shop' "
	    "versionCode='100' versionName='1.0.0' platformBuildVersionName=''"
	    "\nsdkVersion:'24'\n", &v), 0);
	assert_true(v == 100);
	assert_int_equal(aapt_badging_version_code("package: name='x' versionCode='' "
	    "\n", &v), JG_EINVAL);
	assert_true(isnan(v));
	assert_int_equal(aapt_badging_version_code("ERROR: dump failed\n", &v),
	    JG_ENOTFOUND);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(resumed_activity_per_api_level),
	cmocka_unit_test(no_resumed_activity_is_not_found),
	cmocka_unit_test(activity_names_match_components),
	cmocka_unit_test(package_dump_gives_launcher_and_version),
	cmocka_unit_test(gfxinfo_total_frames),
	cmocka_unit_test(hygiene_numbers_parse),
	cmocka_unit_test(screen_and_lock_state_parse),
	cmocka_unit_test(badging_version_code),
};
JG_UNIT_GROUP(dumpsys, tests, NULL, NULL)
