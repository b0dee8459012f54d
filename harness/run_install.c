/*
 * run_install.c: putting the app on the device and checking it is the one
 * the configuration names (DESIGN §4.2).
 *
 * With `apk` set, the APK is installed (replacing what is there) once per
 * device and run.  Then `dumpsys package PKG` says what is installed: its
 * versionCode and versionName go into results "app", and its MAIN/LAUNCHER
 * activity is what `launch` starts when neither the scenario nor the
 * configuration names one.  A package that is not installed refuses the
 * device.
 *
 * What is verified: the installed versionCode equals the APK's.  What the
 * APK is, is learned once a run, before any device (run_apk_probe): its
 * SHA-256, its package (another app's APK is a configuration error) and
 * its versionCode from the binary AndroidManifest.xml (apk.c).  An APK
 * that reader cannot read (a versionCode given as a resource reference,
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

#include "adb.h"
#include "apk.h"
#include "config.h"
#include "error.h"
#include "proc.h"
#include "results.h"
#include "run_int.h"
#include "run_sha256.h"
#include "shquote.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define BADGING_TIMEOUT_MS 60000

int
run_parse_badging(const char *text, double *version_code)
{
	const char *p = strstr(text, "versionCode='");
	char *end;
	double v;

	*version_code = NAN;
	if (!p || (p != text && strncmp(text, "package:", 8)))
		return jg_error_set(JG_ENOTFOUND, "no versionCode in the "
		    "badging");
	p += strlen("versionCode='");
	v = strtod(p, &end);
	if (end == p || *end != '\'' || v < 0)
		return jg_error_set(JG_EINVAL, "bad versionCode in the "
		    "badging");
	*version_code = v;
	return 0;
}

int
run_apk_version_code(const char *apk, double *version_code, char **tool)
{
	static const char *const tools[] = { "aapt2", "aapt" };

	*version_code = NAN;
	*tool = NULL;
	for (size_t i = 0; i < sizeof(tools) / sizeof(*tools); i++) {
		const char *argv[] = { tools[i], "dump", "badging", apk, NULL };
		struct proc_opts po = { .timeout_ms = BADGING_TIMEOUT_MS };
		struct proc_result res;
		int rc;

		if (!proc_in_path(tools[i]))
			continue;
		proc_result_init(&res);
		rc = proc_run(&res, argv, &po);
		if (!rc && res.exit_code != 0)
			rc = jg_error_set(JG_EINVAL, "'%s dump badging %s' "
			    "exited with status %d", tools[i], apk,
			    res.exit_code);
		if (!rc)
			rc = run_parse_badging(res.out.buf, version_code);
		proc_result_release(&res);
		if (rc)
			return jg_error_prefix("'%s'", apk);
		*tool = xstrdup(tools[i]);
		return 0;
	}
	return jg_error_set(JG_ENOTFOUND, "neither aapt2 nor aapt is on PATH");
}

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
	rc = run_shell(d, cmd.buf, &r);
	strbuf_release(&cmd);
	if (rc)
		goto out;
	free(d->launcher);
	run_parse_package(r.out.buf, d->package, &d->launcher, &code, &name);
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

int
run_apk_probe(struct run_apk **out, const char *path, const char *app)
{
	struct run_apk *a = xcalloc(1, sizeof(*a));
	struct apk_manifest m;
	char *tool = NULL, *why;
	int rc;

	*out = NULL;
	a->version_code = NAN;
	rc = apk_read_manifest(path, &m);
	if (rc == JG_EIO) {
		rc = jg_error_prefix("'%s'", path);
		goto out;
	}
	if (!rc) {
		if (!(rc = apk_is_of(&m, path, app))) {
			a->version_code = (double)m.version_code;
			a->how = xstrdup("from its AndroidManifest.xml");
		}
		apk_manifest_release(&m);
		if (rc)
			goto out;
	} else {
		why = xstrdup(jg_error_msg());
		if (!run_apk_version_code(path, &a->version_code, &tool))
			a->how = xasprintf("read by %s", tool);
		else
			a->unverified = xasprintf("the installed versionCode "
			    "was recorded, not verified against the APK: "
			    "cannot read its manifest (%s), and %s", why,
			    jg_error_msg());
		free(why);
		free(tool);
		jg_error_clear();
	}
	rc = run_sha256_file(path, a->sha256);
out:
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
	free(a->how);
	free(a->unverified);
	free(a);
}

int
run_install(struct run_dev *d)
{
	const struct run_apk *a = d->ctx->apk;
	const char *path = d->ctx->cfg->apk;
	int rc;

	if (a) {
		rs_str_set(&d->res->app.apk_sha256, a->sha256);
		if ((rc = adb_install(d->dev, path, NULL)))
			return jg_error_prefix("cannot install '%s'", path);
	}
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
