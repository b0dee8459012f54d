/*
 * test_init.c: what `jankgate init` learns from an APK and what it writes.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "init.h"
#include "scenario.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"

/*
 * The package and the MAIN/LAUNCHER activity come from the manifest
 * (--activity .SettingsActivity --activity com.example.shop.HomeActivity:
 * the second launches); a split or a file that is no APK is refused.
 */
static void
app_from_apk(void **state)
{
	char *launcher = xasprintf("%s/tests/unit/data/apk/launcher.apk",
	    unit_srcdir());
	char *split = xasprintf("%s/tests/unit/data/apk/split.apk",
	    unit_srcdir());
	char *json = xasprintf("%s/tests/simdevice/apps/shop-v1.json",
	    unit_srcdir());
	struct init_app a;

	(void)state;
	assert_int_equal(init_app_from_apk(&a, launcher), 0);
	assert_string_equal(a.package, "com.example.shop");
	assert_string_equal(a.activity, "com.example.shop.HomeActivity");
	assert_string_equal(a.apk, launcher);
	init_app_release(&a);
	assert_int_equal(init_app_from_apk(&a, split), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "is a split APK; give the base "
	    "APK"));
	assert_int_equal(init_app_from_apk(&a, json), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "is not an APK: not a zip"));
	assert_null(a.package);
	free(launcher);
	free(split);
	free(json);
	jg_error_clear();
}

/*
 * What init writes is a configuration check accepts and a scenario that
 * parses with a scene; a second init over it writes nothing and says so.
 */
static void
written_files_are_valid_and_never_overwritten(void **state)
{
	char *dir = xasprintf("%s/init", unit_tmpdir());
	char *cfg_path = xasprintf("%s/jg.json", dir);
	struct init_app a = { .package = "com.example.shop",
	    .activity = ".HomeActivity", .from = "--package" };
	struct strlist written = STRLIST_INIT, problems = STRLIST_INIT;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	struct config *cfg = NULL;
	struct scenario *scn = NULL;

	(void)state;
	assert_int_equal(file_mkdirs(dir, 0755), 0);
	assert_int_equal(init_write(&a, cfg_path, &written), 0);
	assert_int_equal(written.nr, 2);
	assert_non_null(strstr(written.items[0], "/init/scenarios/shop.scn"));
	assert_string_equal(written.items[1], cfg_path);
	assert_int_equal(config_load(&cfg, cfg_path, &source_plugins, &problems), 0);
	assert_string_equal(cfg->app, "com.example.shop");
	assert_string_equal(cfg->activity, ".HomeActivity");
	assert_int_equal(cfg->apk.nr, 0);
	assert_int_equal(scenario_load(&scn, cfg->scenarios.items[0],
	    &problems), 0);
	assert_int_equal(problems.nr, 0);
	scenario_free(scn);
	config_free(cfg);
	assert_int_equal(file_read(&before, cfg_path), 0);
	strlist_release(&written);
	a.package = "com.example.other";
	assert_int_equal(init_write(&a, cfg_path, &written), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "never overwrites"));
	assert_int_equal(written.nr, 0);
	assert_int_equal(file_read(&after, cfg_path), 0);
	assert_string_equal(before.buf, after.buf);
	strbuf_release(&before);
	strbuf_release(&after);
	strlist_release(&problems);
	free(cfg_path);
	free(dir);
	jg_error_clear();
}

/*
 * A test APK of the app: "test_apk" names it and the scenario is one
 * `instrument` step of its runner with no test named (all run).  A test
 * APK of another package, or an APK with no <instrumentation>, is refused
 * and adds nothing.
 */
static void
test_apk_scenario(void **state)
{
	char *tapk = xasprintf("%s/tests/unit/data/apk/test-apk.apk",
	    unit_srcdir());
	char *launcher = xasprintf("%s/tests/unit/data/apk/launcher.apk",
	    unit_srcdir());
	char *dir = xasprintf("%s/init-tests", unit_tmpdir());
	char *cfg_path = xasprintf("%s/jg.json", dir);
	struct init_app a;
	struct init_tests t;
	struct strlist written = STRLIST_INIT, problems = STRLIST_INIT;
	struct config *cfg = NULL;
	struct scenario *scn = NULL;
	const struct scenario_step *st;

	(void)state;
	memset(&a, 0, sizeof(a));
	assert_int_equal(init_tests_read(&t, launcher), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "is not a test APK"));
	assert_null(t.runner);
	assert_int_equal(init_tests_read(&t, tapk), 0);
	assert_string_equal(t.runner, "androidx.test.runner.AndroidJUnitRunner");
	assert_string_equal(t.target, "com.example.shop");
	a.package = xstrdup("com.example.other");
	assert_int_equal(init_app_add_tests(&a, &t), JG_EMISMATCH);
	assert_non_null(strstr(jg_error_msg(), "instruments com.example.shop, "
	    "not the app com.example.other"));
	assert_null(a.test_apk);
	free(a.package);
	a.package = xstrdup("com.example.shop");
	assert_int_equal(init_app_add_tests(&a, &t), 0);
	assert_string_equal(a.test_runner,
	    "androidx.test.runner.AndroidJUnitRunner");
	init_tests_release(&t);
	assert_int_equal(file_mkdirs(dir, 0755), 0);
	assert_int_equal(init_write(&a, cfg_path, &written), 0);
	assert_int_equal(config_load(&cfg, cfg_path, &source_plugins,
	    &problems), 0);
	assert_int_equal(cfg->test_apk.nr, 1);
	/* Read from the configuration's directory, as it was written. */
	assert_non_null(strstr(cfg->test_apk.items[0], tapk[0] == '/' ? tapk :
	    tapk + 1));
	assert_int_equal(scenario_load(&scn, cfg->scenarios.items[0],
	    &problems), 0);
	assert_int_equal(problems.nr, 0);
	assert_int_equal(scenario_step_count(scn), 1);
	st = scenario_step(scn, 0);
	assert_int_equal(st->kind, SCN_INSTRUMENT);
	assert_string_equal(st->text,
	    "androidx.test.runner.AndroidJUnitRunner");
	assert_int_equal(st->nr_tests, 0);
	scenario_free(scn);
	config_free(cfg);
	init_app_release(&a);
	strlist_release(&written);
	strlist_release(&problems);
	free(tapk);
	free(launcher);
	free(cfg_path);
	free(dir);
	jg_error_clear();
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(app_from_apk),
	cmocka_unit_test(test_apk_scenario),
	cmocka_unit_test(written_files_are_valid_and_never_overwritten),
};
JG_UNIT_GROUP(init, tests, NULL, NULL)
