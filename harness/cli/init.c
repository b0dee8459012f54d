/*
 * init.c: what `jankgate init` learns and writes (init.h).
 *
 * The app in front of a phone comes from the same parser `run` uses for
 * `wait activity` (dumpsys_resumed, run_ui.c), over
 *
 *	topResumedActivity=ActivityRecord{5a1b2c3 u0 com.x.shop/.Home t12}
 *
 * (or ResumedActivity / mResumedActivity on older releases): the package
 * before the slash.  A home screen or another system app in front is
 * refused: a configuration for the launcher is no one's first hour.  The
 * activity in front is wherever the user left the app, not what a cold
 * launch starts: the launcher activity is the package's MAIN/LAUNCHER
 * filter in `dumpsys package PKG`, read by the parser run's install step
 * uses (dumpsys_package(); every API level prints it).  An app without
 * one gets the activity in front, and a note saying so.
 *
 * What it writes, for com.example.shop with its launcher activity:
 *
 *	jankgate.json                    scenarios/shop.scn
 *	{                                # written by jankgate init ...
 *	  "app": "com.example.shop",     launch cold
 *	  "apk": "app.apk",              wait idle
 *	  "activity": "com....Home",     scene scroll
 *	  "scenarios": [...],              repeat 3 ... fling up ... end
 *	  "sources": [...],                ...
 *	  "iterations": 5, ...           end
 *	}
 *
 * With the app's test APK (--test-apk), "test_apk" names it and the
 * scenario is one `instrument RUNNER` step of its <instrumentation>: every
 * test, as the test classes are only in the APK's dex, which jankgate does
 * not read; a comment says how to name some.
 *
 * The configuration is written last, and only when neither file exists,
 * so an interrupted init leaves at most a scenario behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "apk.h"
#include "error.h"
#include "fileio.h"
#include "init.h"
#include "jsonw.h"
#include "shquote.h"
#include "source.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"
#include "dumpsys.h"

void
init_app_release(struct init_app *a)
{
	free(a->package);
	free(a->activity);
	free(a->apk);
	free(a->from);
	free(a->note);
	free(a->test_apk);
	free(a->test_runner);
	memset(a, 0, sizeof(*a));
}

/* ".Home" of `pkg` -> "pkg.Home"; a full name stays; NULL stays NULL. */
static char *
qualify(const char *pkg, const char *activity)
{
	if (!activity || !*activity)
		return NULL;
	if (activity[0] == '.')
		return xasprintf("%s%s", pkg, activity);
	if (!strchr(activity, '.'))
		return xasprintf("%s.%s", pkg, activity);
	return xstrdup(activity);
}

int
init_app_from_apk(struct init_app *out, const char *apk)
{
	struct apk_manifest m;
	int rc = apk_read_manifest(apk, &m);

	memset(out, 0, sizeof(*out));
	if (rc == JG_EIO)
		return jg_error_prefix("'%s'", apk);
	if (rc == JG_EPROTO) {
		/* The package is all init needs; its version may be odd. */
		return jg_error_prefix("'%s': cannot read its manifest; give "
		    "the package with --package instead", apk);
	}
	if (rc)
		return jg_error_prefix("'%s' is not an APK", apk);
	if (m.split || !m.package) {
		rc = jg_error_set(JG_EINVAL, "'%s' %s", apk, m.split ?
		    "is a split APK; give the base APK" : "names no package "
		    "in its manifest");
		apk_manifest_release(&m);
		return rc;
	}
	out->package = xstrdup(m.package);
	out->activity = qualify(m.package, m.launcher);
	out->apk = xstrdup(apk);
	out->from = xasprintf("'%s'", apk);
	apk_manifest_release(&m);
	return 0;
}

void
init_tests_release(struct init_tests *t)
{
	free(t->apk);
	free(t->runner);
	free(t->target);
	memset(t, 0, sizeof(*t));
}

int
init_tests_read(struct init_tests *out, const char *test_apk)
{
	struct apk_manifest m;
	int rc = apk_read_manifest(test_apk, &m);

	memset(out, 0, sizeof(*out));
	if (rc == JG_EIO)
		return jg_error_prefix("--test-apk '%s'", test_apk);
	if (rc == JG_EPROTO)
		return jg_error_prefix("--test-apk '%s': cannot read its "
		    "manifest", test_apk);
	if (rc)
		return jg_error_prefix("--test-apk '%s' is not an APK",
		    test_apk);
	if (m.split)
		rc = jg_error_set(JG_EINVAL, "--test-apk '%s' is a split "
		    "APK; give the base APK (and add the splits to "
		    "\"test_apk\" after)", test_apk);
	else if (!m.package || !m.instr_runner || !m.instr_target)
		rc = jg_error_set(JG_EINVAL, "--test-apk '%s' is not a test "
		    "APK: its manifest has no <instrumentation> with a "
		    "targetPackage", test_apk);
	if (!rc) {
		out->apk = xstrdup(test_apk);
		/* In full, as run_instrument.c qualifies it to compare. */
		out->runner = m.instr_runner[0] == '.' ?
		    xasprintf("%s%s", m.package, m.instr_runner) :
		    xstrdup(m.instr_runner);
		out->target = xstrdup(m.instr_target);
	}
	apk_manifest_release(&m);
	return rc;
}

int
init_app_add_tests(struct init_app *app, const struct init_tests *t)
{
	if (strcmp(t->target, app->package))
		return jg_error_set(JG_EMISMATCH, "--test-apk '%s' instruments "
		    "%s, not the app %s: give the test APK built for %s",
		    t->apk, t->target, app->package, app->package);
	app->test_apk = xstrdup(t->apk);
	app->test_runner = xstrdup(t->runner);
	return 0;
}

/* The one usable device, or `serial` when it is usable. */
static int
pick_device(struct adb_server *srv, const char *serial, char **out)
{
	struct adb_device_list list = ADB_DEVICE_LIST_INIT;
	struct strbuf names = STRBUF_INIT;
	size_t usable = 0;
	int rc;

	*out = NULL;
	if ((rc = adb_server_devices(srv, &list, 0)))
		return rc;
	for (size_t i = 0; i < list.nr; i++) {
		const struct adb_device_info *d = &list.items[i];

		if (strcmp(d->state, "device"))
			continue;
		if (serial && !strcmp(serial, d->serial))
			*out = xstrdup(d->serial);
		if (!serial && !usable)
			*out = xstrdup(d->serial);
		strbuf_addf(&names, "%s%s", usable ? ", " : "", d->serial);
		usable++;
	}
	if (serial && !*out)
		rc = jg_error_set(JG_EDEVICE, "device '%s' is not attached to "
		    "the adb server at %s, or not usable", serial,
		    adb_server_address(srv));
	else if (!usable)
		rc = jg_error_set(JG_EDEVICE, "no device attached to the adb "
		    "server at %s: attach the phone with the app open, or give "
		    "--apk FILE or --package PKG", adb_server_address(srv));
	else if (!serial && usable > 1)
		rc = jg_error_set(JG_EINVAL, "%zu devices are attached (%s): "
		    "name the one with the app open with -s SERIAL", usable,
		    names.buf);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	adb_device_list_release(&list);
	strbuf_release(&names);
	return rc;
}

/* Packages of the system, never an app under test. */
static int
is_system(const char *pkg)
{
	return !strcmp(pkg, "android") || !strncmp(pkg, "com.android.", 12) ||
	    !strncmp(pkg, "com.google.android.", 19) ||
	    strstr(pkg, "launcher") != NULL;
}

/*
 * out->activity: the launcher activity of out->package on `dev`, else
 * `front` (the activity in front) with out->note saying there is none.
 */
static int
launcher_of(struct adb_device *dev, struct init_app *out, const char *front)
{
	struct adb_shell_result r;
	struct strbuf cmd = STRBUF_INIT;
	char *launcher = NULL, *name = NULL;
	double code;
	int rc;

	adb_shell_result_init(&r);
	/* The name is what the phone printed: one quoted word. */
	strbuf_addstr(&cmd, "dumpsys package ");
	sh_quote(&cmd, out->package);
	if ((rc = adb_shell(dev, cmd.buf, &r)))
		goto out;
	dumpsys_package(r.out.buf, out->package, &launcher, &code, &name);
	if (launcher) {
		out->activity = qualify(out->package, strchr(launcher, '/') +
		    1);
	} else {
		out->activity = qualify(out->package, front);
		out->note = xasprintf("%s declares no launcher activity (no "
		    "MAIN/LAUNCHER filter in `dumpsys package`): the "
		    "configuration launches %s, the activity in front; "
		    "change \"activity\" if a cold launch should start "
		    "another", out->package, out->activity);
	}
out:
	free(launcher);
	free(name);
	strbuf_release(&cmd);
	adb_shell_result_release(&r);
	return rc;
}

int
init_app_from_device(struct init_app *out, const char *serial, int timeout_ms)
{
	struct adb_server *srv = NULL;
	struct adb_device *dev = NULL;
	struct adb_shell_result r;
	char *picked = NULL, *component = NULL, *slash;
	int rc;

	memset(out, 0, sizeof(*out));
	adb_shell_result_init(&r);
	if ((rc = adb_server_new(&srv, timeout_ms)) ||
	    (rc = pick_device(srv, serial, &picked)))
		goto out;
	dev = adb_device_new(srv, picked);
	adb_device_set_timeout(dev, timeout_ms);
	if ((rc = adb_shell(dev, "dumpsys activity activities", &r)))
		goto out;
	if (dumpsys_resumed(r.out.buf, &component)) {
		rc = jg_error_set(JG_EINVAL, "no activity is in front on '%s': "
		    "open the app, or give --apk FILE or --package PKG",
		    picked);
		goto out;
	}
	slash = strchr(component, '/');
	*slash = '\0';
	if (is_system(component)) {
		rc = jg_error_set(JG_EINVAL, "the app in front on '%s' is %s, "
		    "part of the system: open the app to measure, or give "
		    "--apk FILE or --package PKG", picked, component);
		goto out;
	}
	out->package = xstrdup(component);
	out->from = xasprintf("the app in front on '%s'", picked);
	rc = launcher_of(dev, out, slash + 1);
out:
	free(component);
	free(picked);
	adb_shell_result_release(&r);
	adb_device_free(dev);
	adb_server_free(srv);
	return rc;
}

/* "com.example.shop" -> "shop": the scenario's name. */
static const char *
short_name(const char *pkg)
{
	const char *dot = strrchr(pkg, '.');

	return dot && dot[1] ? dot + 1 : pkg;
}

static void
scenario_text(struct strbuf *sb, const struct init_app *app)
{
	strbuf_addf(sb, "# Written by `jankgate init` for %s, from %s.\n",
	    app->package, app->from ? app->from : "the command line");
	if (app->test_runner) {
		/*
		 * The test classes are in the test APK's dex, which jankgate
		 * does not read: the step runs them all.
		 */
		strbuf_addf(sb,
		    "# The instrumentation tests of %s, each test method a\n"
		    "# measured scene (FeedTest#scrollFeed).  jankgate cannot\n"
		    "# list the test classes (they are in the APK's dex), so\n"
		    "# this runs every test: name classes or Class#method after\n"
		    "# the runner to measure only those (docs/scenarios.md in\n"
		    "# jankgate's source tree has the step's options).\n"
		    "instrument %s\n", app->test_apk, app->test_runner);
		return;
	}
	strbuf_addstr(sb,
	    "# A cold launch, then one measured scene: flings on the first\n"
	    "# screen.  Add what your users do (tap text \"Cart\", type\n"
	    "# \"shoe\")"
	    " and more scenes; docs/scenarios.md in jankgate's\n"
	    "# source tree has every command.\n"
	    "launch cold\n"
	    "wait idle\n"
	    "scene scroll\n"
	    "  repeat 3\n"
	    "    fling up\n"
	    "    wait 500\n"
	    "  end\n"
	    "  repeat 3\n"
	    "    fling down\n"
	    "    wait 500\n"
	    "  end\n"
	    "end\n");
}

static void
config_text(struct strbuf *sb, const struct init_app *app, const char *scn)
{
	struct jsonw w;

	jsonw_init(&w, sb);
	jsonw_open(&w, NULL, '{');
	jsonw_str(&w, "app", app->package);
	if (app->apk)
		jsonw_str(&w, "apk", app->apk);
	if (app->test_apk)
		jsonw_str(&w, "test_apk", app->test_apk);
	if (app->activity)
		jsonw_str(&w, "activity", app->activity);
	jsonw_open(&w, "scenarios", '[');
	jsonw_str(&w, NULL, scn);
	jsonw_close(&w, ']');
	/* The framework's sources: they need no change to the app. */
	jsonw_open(&w, "sources", '[');
	for (size_t i = 0; sources[i]; i++)
		if (sources[i]->by_default)
			jsonw_str(&w, NULL, sources[i]->name);
	jsonw_close(&w, ']');
	jsonw_num(&w, "iterations", 5);
	jsonw_num(&w, "warmups", 1);
	jsonw_str(&w, "out_dir", "jankgate-out");
	jsonw_close(&w, '}');
	jsonw_end(&w);
}

int
init_write(const struct init_app *app, const char *config,
    struct strlist *written)
{
	struct strbuf scn = STRBUF_INIT, cfg = STRBUF_INIT;
	const char *slash = strrchr(config, '/');
	char *dir = slash ? xstrndup(config, (size_t)(slash - config + 1)) :
	    xstrdup("");
	char *rel = xasprintf("scenarios/%s.scn", short_name(app->package));
	char *scn_path = xasprintf("%s%s", dir, rel);
	char *scn_dir = xasprintf("%sscenarios", dir);
	int rc = 0;

	if (file_exists(config))
		rc = jg_error_set(JG_EINVAL, "'%s' exists; init writes a new "
		    "configuration and never overwrites one (edit it, or "
		    "remove it first)", config);
	else if (file_exists(scn_path))
		rc = jg_error_set(JG_EINVAL, "'%s' exists; init never "
		    "overwrites a scenario (remove it first)", scn_path);
	if (rc)
		goto out;
	scenario_text(&scn, app);
	config_text(&cfg, app, rel);
	if ((rc = file_mkdirs(scn_dir, 0755)) ||
	    (rc = file_write_atomic(scn_path, scn.buf, scn.len, 0644)))
		goto out;
	strlist_add(written, scn_path);
	if ((rc = file_write_atomic(config, cfg.buf, cfg.len, 0644)))
		goto out;
	strlist_add(written, config);
out:
	strbuf_release(&scn);
	strbuf_release(&cfg);
	free(dir);
	free(rel);
	free(scn_path);
	free(scn_dir);
	return rc;
}
