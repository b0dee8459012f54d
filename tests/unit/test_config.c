/*
 * test_config.c: jankgate.json validation, defaults, environment, overrides.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "error.h"
#include "metrics.h"
#include "source.h"
#include "strlist.h"

#define MINIMAL "\"app\": \"com.example.shop\", \"scenarios\": [\"s.scn\"]"

static struct config *
parse_ok(const char *json)
{
	struct strlist problems = STRLIST_INIT;
	struct config *cfg = NULL;
	int rc = config_parse(&cfg, json, strlen(json), "/etc/jg/jankgate.json",
	    &source_plugins,
	    &problems);

	if (rc)
		for (size_t i = 0; i < problems.nr; i++)
			fprintf(stderr, "unexpected: %s\n", problems.items[i]);
	assert_int_equal(rc, 0);
	assert_non_null(cfg);
	strlist_release(&problems);
	return cfg;
}

/* A minimal file gets every documented default. */
static void
defaults_apply(void **state)
{
	struct config *cfg = parse_ok("{" MINIMAL "}");

	assert_string_equal(cfg->app, "com.example.shop");
	assert_int_equal(cfg->iterations, 5);
	assert_int_equal(cfg->warmups, 1);
	assert_int_equal(cfg->max_iterations, 20);
	assert_int_equal(cfg->baseline.history, 40);
	assert_int_equal(cfg->baseline.update, UPDATE_ON_PASS);
	assert_string_equal(cfg->baseline.ref, "main");
	assert_int_equal(cfg->mail.when, MAIL_ALWAYS);
	assert_true(fabs(cfg->compare.alpha - 0.01) < 1e-12);
	assert_true(fabs(cfg->compare.session.frame_time - 0.02) < 1e-12);
	assert_true(fabs(cfg->compare.session.launch - 0.02) < 1e-12);
	assert_true(fabs(cfg->compare.session.jank - 0.5) < 1e-12);
	assert_int_equal(cfg->warnings.nr, 0);
	assert_int_equal(cfg->compare.session.cooldown_s, 20);
	assert_int_equal(cfg->sources.nr, 3);
	assert_string_equal(cfg->sources.items[0], "gfxinfo");
	assert_int_equal(cfg->devices.command_timeout_ms, 30000);
	/* The metrics the table marks primary, in its order. */
	assert_int_equal(cfg->compare.primary_metrics.nr, 2);
	assert_string_equal(cfg->compare.primary_metrics.items[0],
	    "frame_p90_ms");
	assert_string_equal(cfg->compare.primary_metrics.items[1],
	    "startup_ms");
	assert_true(fabs(cfg->compare.suspect_fdr - 0.1) < 1e-12);
	config_free(cfg);
}

/* Relative paths resolve against the config file's directory; URLs stay. */
static void
paths_resolve_against_config_dir(void **state)
{
	struct config *cfg = parse_ok("{" MINIMAL ", \"apk\": \"out/app.apk\","
	    "\"baseline\": {\"repo\": \"https://git.example.com/b.git\"}}");

	assert_string_equal(cfg->scenarios.items[0], "/etc/jg/s.scn");
	assert_int_equal(cfg->apk.nr, 1);
	assert_string_equal(cfg->apk.items[0], "/etc/jg/out/app.apk");
	assert_string_equal(cfg->out_dir, "/etc/jg/jankgate-out");
	assert_string_equal(cfg->baseline.repo, "https://git.example.com/b.git");
	config_free(cfg);

	cfg = parse_ok("{" MINIMAL ", \"baseline\": {\"repo\": \"base\"}}");
	assert_string_equal(cfg->baseline.repo, "/etc/jg/base");
	config_free(cfg);

	cfg = parse_ok("{" MINIMAL ", \"baseline\": {\"repo\": "
	    "\"git@example.com:team/b.git\"}}");
	assert_string_equal(cfg->baseline.repo, "git@example.com:team/b.git");
	config_free(cfg);
}

struct bad_case {
	const char *json;
	const char *problems[4];
};

/*
 * Every kind of error names the file, the key path and what was expected;
 * all problems are reported, not just the first.
 */
static const struct bad_case bad_cases[] = {
	{ "{" MINIMAL ", \"thresholds\": {\"frame_p90_ms\": {\"relative\": \"5%\"}}}",
	  { "f.json: thresholds.frame_p90_ms.relative: expected a number "
	    "between 0 and 1, got \"5%\"" } },
	{ "{" MINIMAL ", \"iterations\": 0, \"warmups\": 1.5}",
	  { "f.json: iterations: expected an integer between 1 and 1000, got 0",
	    "f.json: warmups: expected an integer between 0 and 100, got 1.5" } },
	{ "{" MINIMAL ", \"iteration\": 3}",
	  { "f.json: iteration: unknown key (did you mean 'iterations'?)" } },
	{ "{" MINIMAL ", \"mail\": {\"tos\": []}}",
	  { "f.json: mail.tos: unknown key (did you mean 'to'?)" } },
	{ "{" MINIMAL ", \"zzz\": 1}", { "f.json: zzz: unknown key" } },
	{ "{\"scenarios\": [\"a.scn\"]}",
	  { "f.json: app: missing (package name of the app under test)" } },
	{ "{" MINIMAL ", \"sources\": [\"gfxinfo\", \"systrace\"]}",
	  { "f.json: sources[1]: expected one of \"gfxinfo\", \"startup\", "
	    "\"choreographer\", \"matrix\", \"blockcanary\", \"perf\", "
	    "\"fpsanalyzer\", \"traceman\", got \"systrace\"" } },
	{ "{" MINIMAL ", \"baseline\": {\"update\": \"sometimes\"}}",
	  { "f.json: baseline.update: expected one of \"never\", \"on-pass\", "
	    "\"always\", got \"sometimes\"" } },
	{ "{" MINIMAL ", \"devices\": {\"require_screen_on\": \"yes\"}}",
	  { "f.json: devices.require_screen_on: expected true or false, got "
	    "\"yes\"" } },
	{ "{" MINIMAL ", \"devices\": 3}",
	  { "f.json: devices: expected an object, got 3" } },
	{ "{" MINIMAL ", \"mail\": {\"password\": \"hunter2\"}}",
	  { "f.json: mail.password: secrets are not read from the config "
	    "file; set mail.password_env's variable or mail.password_file" } },
	{ "{" MINIMAL ", \"thresholds\": {\"frame_p91_ms\": {}}}",
	  { NULL } },	/* checked by prefix below: lists known metrics */
	{ "{" MINIMAL ", \"iterations\": 10, \"max_iterations\": 5}",
	  { "f.json: max_iterations: expected a number >= iterations (10), "
	    "got 5" } },
	{ "{" MINIMAL ", \"alpha\": 0.9}",
	  { "f.json: alpha: expected a number between 0.0001 and 0.5, got 0.9" } },
	{ "{" MINIMAL ", \"iterations\": 3, \"iterations\": 4}",
	  { "f.json: iterations: duplicate key" } },
	{ "{" MINIMAL ", \"mail\": {\"to\": [\"team@example.com\"]}}",
	  { "f.json: mail.server: missing (mail.to is set, so mail needs a "
	    "server such as \"smtp://mail.example.com:587\")" } },
	{ "{\"app\": \"com.x; rm -rf /\", \"scenarios\": [\"a\"]}",
	  { "f.json: app: expected a package name like \"com.example.shop\", "
	    "got \"com.x; rm -rf /\"" } },
	{ "{\n  \"app\": \"x\",\n  \"iterations\": ,\n}",
	  { "f.json:3:17: invalid JSON" } },
	{ "{" MINIMAL ", \"baseline\": {\"retain\": \"90d,weekly,monthly\"}}",
	  { "f.json: baseline.retain: in '90d,weekly,monthly', a tier follows "
	    "one without an age; only the last may omit it" } },
	{ "[1, 2]",
	  { "f.json: expected a JSON object at the top level, got a list" } },
	{ "{" MINIMAL ", \"suspect_fdr\": 0.6}",
	  { "f.json: suspect_fdr: expected a number between 0 and 0.5, got "
	    "0.6" } },
	{ "{" MINIMAL ", \"scene_thresholds\": {\"feed\": {\"fps\": "
	  "{\"absolute\": -1, \"typo\": 1}}}}",
	  { "f.json: scene_thresholds.feed.fps.absolute: expected a number "
	    ">= 0, got -1",
	    "f.json: scene_thresholds.feed.fps.typo: unknown key (expected "
	    "'relative' or 'absolute')" } },
};

static void
bad_configs_name_key_and_expectation(void **state)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *bc = &bad_cases[i];
		struct strlist problems = STRLIST_INIT;
		struct config *cfg = (struct config *)1;
		size_t want = 0;
		int rc;

		rc = config_parse(&cfg, bc->json, strlen(bc->json), "f.json",
		    &source_plugins,
		    &problems);
		assert_int_equal(rc, JG_EINVAL);
		assert_null(cfg);
		while (want < 4 && bc->problems[want])
			want++;
		if (!want) {
			assert_int_equal(problems.nr, 1);
			assert_non_null(strstr(problems.items[0],
			    "thresholds.frame_p91_ms: unknown metric (known: fps, "));
			strlist_release(&problems);
			continue;
		}
		if (problems.nr != want)
			for (size_t j = 0; j < problems.nr; j++)
				fprintf(stderr, "case %zu got: %s\n", i,
				    problems.items[j]);
		assert_int_equal(problems.nr, want);
		for (size_t j = 0; j < want; j++)
			assert_string_equal(problems.items[j], bc->problems[j]);
		/* the error slot holds the first problem */
		assert_string_equal(jg_error_msg(), bc->problems[0]);
		strlist_release(&problems);
	}
}

/*
 * Issue 46: primary_weight, session.prior_runs and session.offsets are
 * read no more; an older file still loads, each told once, and the
 * comparison runs with the method's fixed values whatever they said.
 */
static void
retired_keys_load_with_a_warning(void **state)
{
	struct config *cfg = parse_ok("{" MINIMAL ", \"primary_weight\": 1, "
	    "\"session\": {\"offsets\": false, \"prior_runs\": 7}}");

	(void)state;
	assert_int_equal(cfg->warnings.nr, 3);
	assert_string_equal(cfg->warnings.items[0], "/etc/jg/jankgate.json: "
	    "primary_weight is no longer read: primary metrics weigh "
	    "CMP_PRIMARY_WEIGHT (4) in the correction (docs/method.md, step "
	    "5)");
	assert_non_null(strstr(cfg->warnings.items[1], "session.offsets is no "
	    "longer read: the phone's session offsets are always taken off"));
	assert_non_null(strstr(cfg->warnings.items[2], "session.prior_runs is "
	    "no longer read"));
	config_free(cfg);
}

/*
 * markers.matrix without the matrix source makes no scene: the file stays
 * valid, and the warning is the configuration's, so that run and gate say
 * it as check does (the dispatcher prints every warning of a loaded file).
 */
static void
markers_matrix_without_its_source_warns(void **state)
{
	struct config *cfg = parse_ok("{" MINIMAL ", \"markers\": "
	    "{\"matrix\": true}}");

	(void)state;
	assert_int_equal(cfg->warnings.nr, 1);
	assert_string_equal(cfg->warnings.items[0], "/etc/jg/jankgate.json: "
	    "markers.matrix: set, but \"matrix\" is not in sources, so no "
	    "Matrix report is read and no scene is made from one (add "
	    "\"matrix\" to sources)");
	config_free(cfg);
	cfg = parse_ok("{" MINIMAL ", \"sources\": [\"gfxinfo\", "
	    "\"matrix\"], \"markers\": {\"matrix\": true}}");
	assert_int_equal(cfg->warnings.nr, 0);
	config_free(cfg);
}

/* JANKGATE_* variables override the file, and are validated the same way. */
static void
environment_overrides_file(void **state)
{
	struct strlist problems = STRLIST_INIT;
	struct config *cfg;
	const char *bad = "{" MINIMAL "}";

	setenv("JANKGATE_ITERATIONS", "7", 1);
	setenv("JANKGATE_BASELINE_REF", "release-1.2", 1);
	setenv("JANKGATE_MAIL_TO", "a@example.com, b@example.com", 1);
	setenv("JANKGATE_MAIL_SERVER", "smtp://127.0.0.1:2525", 1);
	cfg = parse_ok("{" MINIMAL ", \"iterations\": 3, \"max_iterations\": 20}");
	assert_int_equal(cfg->iterations, 7);
	assert_string_equal(cfg->baseline.ref, "release-1.2");
	assert_int_equal(cfg->mail.to.nr, 2);
	assert_string_equal(cfg->mail.to.items[1], "b@example.com");
	config_free(cfg);
	unsetenv("JANKGATE_MAIL_TO");
	unsetenv("JANKGATE_MAIL_SERVER");
	unsetenv("JANKGATE_BASELINE_REF");

	setenv("JANKGATE_ITERATIONS", "many", 1);
	assert_int_equal(config_parse(&cfg, bad, strlen(bad), "f.json",
	    &source_plugins,
	    &problems), JG_EINVAL);
	assert_int_equal(problems.nr, 1);
	assert_string_equal(problems.items[0], "environment JANKGATE_ITERATIONS: "
	    "iterations: expected an integer between 1 and 1000, got \"many\"");
	unsetenv("JANKGATE_ITERATIONS");
	strlist_release(&problems);
}

/*
 * primary_metrics takes the decision metrics' names, from the file or
 * from JANKGATE_PRIMARY_METRICS; an explanation or a typo is refused with
 * the names it could be; [] weighs nothing.
 */
static void
primary_metrics_are_metric_names(void **state)
{
	static const char *const bad[] = { "\"jank\"", "\"phase_wait_p90_ms\"" };
	struct config *cfg = parse_ok("{" MINIMAL ", \"primary_metrics\": "
	    "[\"jank_pct\", \"startup_ms\"]}");

	(void)state;
	assert_int_equal(cfg->compare.primary_metrics.nr, 2);
	assert_string_equal(cfg->compare.primary_metrics.items[0],
	    "jank_pct");
	config_free(cfg);
	cfg = parse_ok("{" MINIMAL ", \"primary_metrics\": []}");
	assert_int_equal(cfg->compare.primary_metrics.nr, 0);
	config_free(cfg);
	setenv("JANKGATE_PRIMARY_METRICS", "fps, blocks", 1);
	cfg = parse_ok("{" MINIMAL "}");
	assert_int_equal(cfg->compare.primary_metrics.nr, 2);
	assert_string_equal(cfg->compare.primary_metrics.items[1], "blocks");
	config_free(cfg);
	unsetenv("JANKGATE_PRIMARY_METRICS");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strlist problems = STRLIST_INIT;
		char json[256];

		snprintf(json, sizeof(json), "{" MINIMAL ", \"primary_metrics\": "
		    "[\"fps\", %s]}", bad[i]);
		cfg = NULL;
		assert_int_equal(config_parse(&cfg, json, strlen(json),
		    "f.json", &source_plugins, &problems), JG_EINVAL);
		assert_null(cfg);
		assert_int_equal(problems.nr, 1);
		assert_non_null(strstr(problems.items[0],
		    "f.json: primary_metrics[1]: expected one of "));
		assert_non_null(strstr(problems.items[0], "\"frame_p90_ms\""));
		assert_non_null(strstr(problems.items[0], bad[i]));
		strlist_release(&problems);
	}
}

/* A scene override beats a global override, which beats the default. */
static void
threshold_precedence(void **state)
{
	struct config *cfg = parse_ok("{" MINIMAL ","
	    "\"thresholds\": {\"frame_p90_ms\": {\"relative\": 0.2}},"
	    "\"scene_thresholds\": {\"feed\": {\"frame_p90_ms\": "
	    "{\"absolute\": 4}}}}");
	const struct metric_def *m = metric_find("frame_p90_ms");
	double rel, abs_;

	assert_non_null(m);
	config_threshold_for(&cfg->compare, "checkout", m, &rel, &abs_);
	assert_true(fabs(rel - 0.2) < 1e-12);
	assert_true(fabs(abs_ - m->abs_threshold) < 1e-12);
	config_threshold_for(&cfg->compare, "feed", m, &rel, &abs_);
	assert_true(fabs(rel - 0.2) < 1e-12);
	assert_true(fabs(abs_ - 4) < 1e-12);
	m = metric_find("fps");
	config_threshold_for(&cfg->compare, "feed", m, &rel, &abs_);
	assert_true(fabs(rel - m->rel_threshold) < 1e-12);
	config_free(cfg);
}

/* A missing file is JG_ENOTFOUND with the path in the message. */
static void
missing_file_is_not_found(void **state)
{
	struct strlist problems = STRLIST_INIT;
	struct config *cfg;

	assert_int_equal(config_load(&cfg, "/nonexistent/jankgate.json",
	    &source_plugins, &problems), JG_ENOTFOUND);
	assert_int_equal(problems.nr, 1);
	assert_non_null(strstr(problems.items[0],
	    "cannot open '/nonexistent/jankgate.json'"));
	strlist_release(&problems);
}

/*
 * Every key is a tagged paragraph of the man page's CONFIGURATION (the
 * list the build generates from the same docs, tools/gen-man.c), and
 * every one has a sentence, a type and, when it has a value of its own,
 * its variable.
 */
static void
every_key_is_documented(void **state)
{
	struct config_key_doc *docs;
	size_t n = config_key_docs(&docs, &source_plugins);
	char path[4096];
	FILE *fp;
	static char man[1 << 18];
	size_t len;

	snprintf(path, sizeof(path), "%s/harness/cli/jankgate.1", unit_srcdir());
	fp = fopen(path, "r");
	assert_non_null(fp);
	len = fread(man, 1, sizeof(man) - 1, fp);
	man[len] = '\0';
	fclose(fp);
	assert_true(n > 40);
	for (size_t i = 0; i < n; i++) {
		char needle[128];

		snprintf(needle, sizeof(needle), ".TP\n.B %s\n", docs[i].path);
		if (!strstr(man, needle))
			fail_msg("jankgate.1 does not document %s", docs[i].path);
		assert_true(strlen(docs[i].doc) > 0);
		assert_true(strlen(docs[i].type) > 0);
	}
	config_key_docs_free(docs, n);
}

/*
 * The policy words gate's --update and --mail take are the configuration's
 * own, both ways, and another word is refused.
 */
static void
policy_words_round_trip(void **state)
{
	static const char *const updates[] = { "never", "on-pass", "always" };
	static const char *const whens[] = { "always", "regression", "never" };
	enum config_update u = UPDATE_ALWAYS;
	enum config_mail_when w = MAIL_NEVER;

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(config_update_parse(&u, updates[i]), 0);
		assert_int_equal(u, i);
		assert_string_equal(config_update_name(u), updates[i]);
		assert_int_equal(config_mail_when_parse(&w, whens[i]), 0);
		assert_int_equal(w, i);
		assert_string_equal(config_mail_when_name(w), whens[i]);
	}
	assert_int_equal(config_update_parse(&u, "on_pass"), -1);
	assert_int_equal(config_mail_when_parse(&w, "Always"), -1);
	assert_int_equal(u, UPDATE_ALWAYS);
	assert_int_equal(w, MAIL_NEVER);
}

/*
 * A JANKGATE_* variable no key owns is reported with the nearest name; the
 * keys' own variables, JANKGATE_CONFIG, the credential variables and other
 * prefixes are not.
 */
static void
unknown_environment_is_named(void **state)
{
	char *env[] = {
		"JANKGATE_ITERATONS=3", "JANKGATE_ITERATIONS=3",
		"JANKGATE_CONFIG=x.json", "JANKGATE_SMTP_PASSWORD=s",
		"JANKGATE_MY_TOKEN=t", "JANKGATE_BASLINE_REF=main",
		"JANKGATE_ZZZZZZZZ=1", "PATH=/bin", "JANKGATE=1", NULL
	};
	struct config *cfg = parse_ok("{" MINIMAL ", \"baseline\": "
	    "{\"token_env\": \"JANKGATE_MY_TOKEN\"}}");
	struct strlist w = STRLIST_INIT;

	(void)state;
	assert_int_equal(config_env_unknown(cfg, env, &w), 3);
	assert_string_equal(w.items[0], "environment JANKGATE_ITERATONS: no "
	    "such variable, ignored (did you mean JANKGATE_ITERATIONS?)");
	assert_non_null(strstr(w.items[1], "JANKGATE_BASLINE_REF: no such "
	    "variable, ignored (did you mean JANKGATE_BASELINE_REF?)"));
	assert_non_null(strstr(w.items[2], "JANKGATE_ZZZZZZZZ: no such "
	    "variable, ignored (see ENVIRONMENT"));
	strlist_release(&w);
	/* Without a configuration the default credential names still count. */
	assert_int_equal(config_env_unknown(NULL, env + 1, &w), 3);
	strlist_release(&w);
	config_free(cfg);
}

/*
 * apk is one path or a list of them (a split set), and devices.install
 * takes replace, reinstall or downgrade; the last two need an apk.
 */
static void
apk_list_and_install_policy(void **state)
{
	struct strlist problems = STRLIST_INIT;
	struct config *cfg = parse_ok("{" MINIMAL ", \"apk\": [\"b.apk\", "
	    "\"/x/s.apk\"], \"devices\": {\"install\": \"downgrade\"}}");
	const char *bad = "{" MINIMAL ", \"apk\": [], \"devices\": "
	    "{\"install\": \"reinstall\"}}";

	(void)state;
	assert_int_equal(cfg->apk.nr, 2);
	assert_string_equal(cfg->apk.items[0], "/etc/jg/b.apk");
	assert_string_equal(cfg->apk.items[1], "/x/s.apk");
	assert_int_equal(cfg->devices.install, INSTALL_DOWNGRADE);
	config_free(cfg);
	cfg = parse_ok("{" MINIMAL "}");
	assert_int_equal(cfg->devices.install, INSTALL_REPLACE);
	assert_int_equal(cfg->apk.nr, 0);
	config_free(cfg);
	assert_int_equal(config_parse(&cfg, bad, strlen(bad), "j.json",
	    &source_plugins,
	    &problems), JG_EINVAL);
	assert_int_equal(problems.nr, 2);
	assert_string_equal(problems.items[0], "j.json: apk: expected a path "
	    "or a non-empty list of paths, got a list");
	assert_string_equal(problems.items[1], "j.json: devices.install: "
	    "\"reinstall\" needs an apk to install");
	strlist_release(&problems);
	setenv("JANKGATE_APK", "a.apk, b.apk", 1);
	cfg = parse_ok("{" MINIMAL "}");
	unsetenv("JANKGATE_APK");
	assert_int_equal(cfg->apk.nr, 2);
	assert_non_null(strstr(cfg->apk.items[1], "/b.apk"));
	config_free(cfg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(retired_keys_load_with_a_warning),
	cmocka_unit_test(markers_matrix_without_its_source_warns),
	cmocka_unit_test(apk_list_and_install_policy),
	cmocka_unit_test(defaults_apply),
	cmocka_unit_test(paths_resolve_against_config_dir),
	cmocka_unit_test(bad_configs_name_key_and_expectation),
	cmocka_unit_test(environment_overrides_file),
	cmocka_unit_test(primary_metrics_are_metric_names),
	cmocka_unit_test(threshold_precedence),
	cmocka_unit_test(missing_file_is_not_found),
	cmocka_unit_test(every_key_is_documented),
	cmocka_unit_test(policy_words_round_trip),
	cmocka_unit_test(unknown_environment_is_named),
};
JG_UNIT_GROUP(config, tests, NULL, NULL)
