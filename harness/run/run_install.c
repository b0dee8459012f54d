/*
 * run_install.c: putting the app on the device and checking it is the one
 * the configuration names.
 *
 * With `apk` set, it is installed once per device and run, by
 * devices.install: "replace" installs over what is there (-r: the app's
 * data stays), "reinstall" uninstalls first (a clean state; not again in
 * an appended batch, which continues the run on the same install),
 * "downgrade" adds -d so an older versionCode goes on (debuggable builds,
 * or any on userdebug phones).  One APK is one install; a split set is one
 * package-manager session (adb_install_multiple); an app bundle was made
 * into one APK by apkset.c.  A refusal is the device's failure, with the
 * package manager's words ("Failure [INSTALL_FAILED_VERSION_DOWNGRADE:
 * ...]") and, where one helps, what to set.  Then `dumpsys package PKG`
 * says what is installed: its
 * versionCode and versionName go into results "app", and its MAIN/LAUNCHER
 * activity is what `launch` starts when neither the scenario nor the
 * configuration names one.  A package that is not installed refuses the
 * device.
 *
 * What is verified: the installed versionCode equals the APK's.  What the
 * APK is, is learned once a run, before any device (run_apk_probe, through
 * apkset.c): its SHA-256 (of every file of a set, in install order), its
 * package (another app's APK is a configuration error) and its
 * versionCode from the binary AndroidManifest.xml (apk.c).  An APK that
 * reader cannot read fully (a versionCode given as a resource reference,
 * say) is asked of the SDK's `aapt2 dump badging APK` (or `aapt`) when one
 * is on PATH:
 *
 *	package: name='com.example.shop' versionCode='100' versionName='1.0.0'
 *
 * Without either the installed versionCode is recorded, not checked, and a
 * warning in the results says why.  The APK's SHA-256 is always
 * recorded (app.apk_sha256), so two runs of different builds never look
 * alike.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aapt.h"
#include "adb.h"
#include "apkset.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "results.h"
#include "run_int.h"
#include "hash.h"
#include "shquote.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"
#include "dumpsys.h"

/* `dumpsys package PKG` into the results and d->launcher. */
static int
read_package(struct run_dev *d)
{
	struct adb_shell_result r;
	struct strbuf cmd = STRBUF_INIT;
	char *name = NULL;
	double code;
	int rc;

	strbuf_addstr(&cmd, "dumpsys package ");
	sh_quote(&cmd, d->package);
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd.buf, &r);
	strbuf_release(&cmd);
	if (rc)
		goto out;
	free(d->launcher);
	dumpsys_package(r.out.buf, d->package, &d->launcher, &code, &name);
	if (isnan(code)) {
		rc = jg_error_set(JG_ENOTFOUND, "package '%s' is not installed "
		    "on the device", d->package);
		goto out;
	}
	d->res->app.version_code = code;
	rs_str_set(&d->res->app.version_name, name);
out:
	free(name);
	adb_shell_result_release(&r);
	return rc;
}

/* The SHA-256 of every file, in order, as one stream. */
static int
sha256_files(const struct strlist *files, char hex[65])
{
	struct hash_sha256 c;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	if (files->nr == 1)
		return hash_sha256_file(files->items[0], hex);
	hash_sha256_init(&c);
	for (size_t i = 0; i < files->nr && !rc; i++) {
		strbuf_setlen(&sb, 0);
		if (!(rc = file_read(&sb, files->items[i])))
			hash_sha256_add(&c, sb.buf, sb.len);
	}
	hash_sha256_hex(&c, hex);
	strbuf_release(&sb);
	return rc;
}

int
run_apk_probe(struct run_apk **out, const struct strlist *paths,
    const char *app, const char *bundle_dir)
{
	struct run_apk *a = xcalloc(1, sizeof(*a));
	struct apkset set;
	char *tool = NULL;
	int rc;

	*out = NULL;
	a->version_code = NAN;
	strlist_init(&a->files);
	if ((rc = apkset_open(&set, paths, app, bundle_dir)))
		goto out;
	strlist_copy(&a->files, &set.files);
	if (set.readable) {
		a->version_code = (double)set.base.version_code;
		a->how = set.bundle ? xstrdup("from the manifest of the APK "
		    "bundletool built") : xstrdup("from its "
		    "AndroidManifest.xml");
	} else if (!aapt_version_code(a->files.items[0], &a->version_code,
	    &tool)) {
		a->how = xasprintf("read by %s", tool);
	} else {
		a->unverified = xasprintf("the installed versionCode was "
		    "recorded, not verified against the APK: cannot read its "
		    "manifest (%s), and %s", set.unreadable, jg_error_msg());
		jg_error_clear();
	}
	free(tool);
	rc = sha256_files(&a->files, a->sha256);
out:
	apkset_release(&set);
	if (rc)
		run_apk_free(a);
	else
		*out = a;
	return rc;
}

void
run_apk_free(struct run_apk *a)
{
	if (!a)
		return;
	strlist_release(&a->files);
	free(a->how);
	free(a->unverified);
	free(a);
}

static int
install_files(struct run_dev *d, const struct run_apk *a,
    const struct adb_install_opts *o)
{
	if (a->files.nr == 1)
		return adb_install(d->dev, a->files.items[0], o);
	return adb_install_multiple(d->dev,
	    (const char *const *)a->files.items, a->files.nr, o);
}

/* Put the APK(s) on the device by devices.install. */
static int
install(struct run_dev *d, const struct run_apk *a)
{
	static const char *const downgrade[] = { "-d", NULL };
	const struct config *cfg = d->ctx->cfg;
	const struct run_opts *ro = d->ctx->opts;
	enum config_install policy = ro->install >= 0 ?
	    (enum config_install)ro->install : cfg->devices.install;
	struct adb_install_opts o = { ADB_INSTALL_AUTO, NULL };
	const char *what = a->files.items[0], *words, *hint = "";
	char *msg;
	int rc;

	if (policy == INSTALL_DOWNGRADE)
		o.args = downgrade;
	if (policy == INSTALL_REINSTALL && !ro->append) {
		rc = adb_uninstall(d->dev, d->package);
		if (rc && rc != JG_ENOTFOUND)
			return jg_error_prefix("cannot uninstall '%s' before "
			    "installing (devices.install \"reinstall\")",
			    d->package);
		jg_error_clear();
	}
	rc = install_files(d, a, &o);
	/*
	 * The package manager lets -d replace only a debuggable build; else
	 * (`jankgate ab` going back to the old build) uninstall it first.
	 */
	if (rc && policy == INSTALL_DOWNGRADE && ro->downgrade_fallback &&
	    strstr(jg_error_msg(), "INSTALL_FAILED_VERSION_DOWNGRADE")) {
		jg_error_clear();
		rc = adb_uninstall(d->dev, d->package);
		if (rc && rc != JG_ENOTFOUND)
			return jg_error_prefix("cannot uninstall '%s' to go "
			    "back to an older build", d->package);
		jg_error_clear();
		o.args = NULL;
		rc = install_files(d, a, &o);
		if (!rc)
			results_add_warning(d->res, "install", NULL, "the "
			    "installed build is not debuggable, so -d could "
			    "not replace it with an older one: uninstalled it "
			    "first");
	}
	if (!rc)
		return 0;
	/* A refusal: the package manager's words, without adb's context. */
	msg = xstrdup(jg_error_msg());
	words = rc == JG_EGENERIC && strstr(msg, "Failure") ?
	    strstr(msg, "Failure") : msg;
	if (strstr(words, "INSTALL_FAILED_VERSION_DOWNGRADE"))
		hint = " (devices.install \"downgrade\" installs an older "
		    "build)";
	else if (strstr(words, "INSTALL_FAILED_UPDATE_INCOMPATIBLE"))
		hint = " (devices.install \"reinstall\" uninstalls the other "
		    "build first)";
	jg_error_set(rc, "%s%s", words, hint);
	free(msg);
	return jg_error_prefix("cannot install '%s'%s", what,
	    a->files.nr > 1 ? " and its splits" : "");
}

/* pm clear: the app starts from nothing, whichever build ran before. */
static int
clear_data(struct run_dev *d)
{
	struct adb_shell_result r;
	struct strbuf cmd = STRBUF_INIT;
	int rc;

	strbuf_addstr(&cmd, "pm clear ");
	sh_quote(&cmd, d->package);
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd.buf, &r);
	if (!rc && r.exit_code != 0)
		rc = jg_error_set(JG_EGENERIC, "cannot clear the data of '%s' "
		    "after installing it (pm clear exit %d)", d->package,
		    r.exit_code);
	adb_shell_result_release(&r);
	strbuf_release(&cmd);
	return rc;
}

int
run_install(struct run_dev *d)
{
	const struct run_apk *a = d->ctx->apk;
	int rc;

	if (a) {
		rs_str_set(&d->res->app.apk_sha256, a->sha256);
		if ((rc = install(d, a)))
			return rc;
		if (d->ctx->opts->clear_data && (rc = clear_data(d)))
			return rc;
	}
	if ((rc = run_tapk_install(d)))
		return rc;
	if ((rc = read_package(d)) || !a)
		return rc;
	if (a->unverified) {
		results_add_warning(d->res, NULL, NULL, a->unverified);
		return 0;
	}
	if (a->version_code != d->res->app.version_code)
		return jg_error_set(JG_EMISMATCH, "the installed versionCode "
		    "%.0f of '%s' is not the APK's (%.0f, %s)",
		    d->res->app.version_code, d->package, a->version_code,
		    a->how);
	return 0;
}
