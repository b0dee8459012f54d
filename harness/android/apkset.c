/*
 * apkset.c: from `apk` to the files to install (apkset.h).
 *
 * A directory stands for the *.apk files in it (not below it), in byte
 * order of their names; the base is then moved first, since the package
 * manager wants the base in every session and people read it first.  An
 * app bundle is a zip holding BundleConfig.pb and
 * base/manifest/AndroidManifest.xml (a protocol buffer, not the binary
 * XML of an APK), so its package is learned from the APK bundletool
 * builds:
 *
 *   bundletool build-apks --bundle=APP.aab --output=DIR/app.apks
 *       --mode=universal --overwrite
 *
 * writes a zip whose universal.apk is every split merged, signed with the
 * debug key (or the one bundletool's own options name).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apkset.h"
#include "error.h"
#include "fileio.h"
#include "proc.h"
#include "hash.h"
#include "xalloc.h"
#include "zipread.h"
#include "banned.h"

#define BUNDLETOOL_TIMEOUT_MS (10 * 60 * 1000)

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every *.apk directly in `dir`, sorted, appended to `out`. */
static int
list_dir(const char *dir, struct strlist *out)
{
	struct strlist names = STRLIST_INIT;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return jg_error_errno(JG_EIO, errno, "cannot read directory "
		    "'%s'", dir);
	while ((e = readdir(d)))
		if (has_suffix(e->d_name, ".apk") && e->d_name[0] != '.')
			strlist_add(&names, e->d_name);
	closedir(d);
	if (!names.nr) {
		strlist_release(&names);
		return jg_error_set(JG_EINVAL, "directory '%s' holds no .apk "
		    "file", dir);
	}
	qsort(names.items, names.nr, sizeof(*names.items), by_name);
	for (size_t i = 0; i < names.nr; i++)
		strlist_addf(out, "%s/%s", dir, names.items[i]);
	strlist_release(&names);
	return 0;
}

/* The .aab at `path` is a bundle: a zip with its two marks. */
static int
check_bundle(const char *path)
{
	struct zipread *z;
	int rc = zipread_open(&z, path);

	if (rc)
		return jg_error_prefix("'%s'", path);
	if (!zipread_has(z, "BundleConfig.pb") ||
	    !zipread_has(z, "base/manifest/AndroidManifest.xml"))
		rc = jg_error_set(JG_EINVAL, "'%s': not an Android App Bundle "
		    "(no BundleConfig.pb and base/manifest/AndroidManifest.xml "
		    "in it)", path);
	zipread_close(z);
	return rc;
}

/* bundletool's universal APK of `aab`, built once into `dir`. */
static int
build_bundle(const char *aab, const char *dir, struct strlist *files)
{
	char sha[65];
	char *sub = NULL, *apks = NULL, *apk = NULL, *arg_b = NULL,
	    *arg_o = NULL;
	struct proc_result res;
	struct zipread *z = NULL;
	int rc;

	proc_result_init(&res);
	if ((rc = hash_sha256_file(aab, sha)))
		goto out;
	sub = xasprintf("%s/%s", dir, sha);
	apk = xasprintf("%s/universal.apk", sub);
	if (file_exists(apk))
		goto done;
	apks = xasprintf("%s/app.apks", sub);
	arg_b = xasprintf("--bundle=%s", aab);
	arg_o = xasprintf("--output=%s", apks);
	if ((rc = file_mkdirs(sub, 0755)))
		goto out;
	{
		const char *argv[] = { "bundletool", "build-apks", arg_b,
		    arg_o, "--mode=universal", "--overwrite", NULL };
		struct proc_opts po = { .timeout_ms = BUNDLETOOL_TIMEOUT_MS };

		rc = proc_run(&res, argv, &po);
	}
	if (!rc && res.exit_code != 0) {
		size_t n = strcspn(res.err.buf, "\n");

		rc = jg_error_set(JG_EINVAL, "'%s': bundletool build-apks "
		    "exited with status %d: %.*s", aab, res.exit_code, (int)n,
		    n ? res.err.buf : "no message");
		goto out;
	}
	if (rc)
		goto out;
	if ((rc = zipread_open(&z, apks)) ||
	    (rc = zipread_extract(z, "universal.apk", apk))) {
		jg_error_prefix("'%s' (bundletool's output for '%s')", apks,
		    aab);
		goto out;
	}
done:
	strlist_add(files, apk);
out:
	zipread_close(z);
	proc_result_release(&res);
	free(sub);
	free(apks);
	free(apk);
	free(arg_b);
	free(arg_o);
	return rc;
}

/* `paths` into s->files, bundles built or checked. */
static int
resolve(struct apkset *s, const struct strlist *paths, const char *bundle_dir)
{
	int rc;

	for (size_t i = 0; i < paths->nr; i++) {
		const char *p = paths->items[i];
		struct stat st;

		if (stat(p, &st) < 0)
			return jg_error_errno(JG_EIO, errno, "'%s': cannot "
			    "open the APK", p);
		if (S_ISDIR(st.st_mode)) {
			if ((rc = list_dir(p, &s->files)))
				return rc;
			continue;
		}
		if (!has_suffix(p, ".aab")) {
			strlist_add(&s->files, p);
			continue;
		}
		if (paths->nr > 1)
			return jg_error_set(JG_EINVAL, "'%s': an app bundle "
			    "(.aab) is installed alone, not with other APKs",
			    p);
		if ((rc = check_bundle(p)))
			return rc;
		s->bundle = xstrdup(p);
		if (!proc_in_path("bundletool"))
			return jg_error_set(JG_EINVAL, "'%s' is an Android App "
			    "Bundle: installing it needs bundletool on PATH "
			    "(https://developer.android.com/tools/bundletool), "
			    "or give the APK built from it", p);
		if (bundle_dir && (rc = build_bundle(p, bundle_dir,
		    &s->files)))
			return rc;
	}
	return 0;
}

/* Read one APK of the set; its manifest into `m`. */
static int
read_one(const char *path, const char *app, int alone,
    struct apk_manifest *m, char **unreadable)
{
	int rc = apk_read_manifest(path, m);

	if (rc == JG_EPROTO && alone) {
		/* An APK all the same: aapt may read what apk.c cannot. */
		*unreadable = xstrdup(jg_error_msg());
		jg_error_clear();
		return 0;
	}
	if (rc == JG_EIO)
		return jg_error_prefix("'%s'", path);
	if (rc == JG_EPROTO)
		return jg_error_prefix("'%s': cannot read its manifest, which "
		    "every APK of a split set needs", path);
	if (rc)
		return jg_error_prefix("'%s' is not an APK", path);
	if (app && m->package && strcmp(m->package, app))
		return jg_error_set(JG_EMISMATCH, "'%s' is an APK of '%s', "
		    "not of the configured app '%s'", path, m->package, app);
	return 0;
}

/* One base, distinct splits, one versionCode; the base goes first. */
static int
check_set(struct apkset *s, struct apk_manifest *m)
{
	size_t base = s->files.nr;
	char *tmp;

	for (size_t i = 0; i < s->files.nr; i++) {
		if (!m[i].split) {
			if (base < s->files.nr)
				return jg_error_set(JG_EINVAL, "'%s' and '%s' "
				    "are both base APKs; a split set has one",
				    s->files.items[base], s->files.items[i]);
			base = i;
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (m[j].split && !strcmp(m[j].split, m[i].split))
				return jg_error_set(JG_EINVAL, "'%s' and '%s' "
				    "are both split '%s'", s->files.items[j],
				    s->files.items[i], m[i].split);
	}
	if (base == s->files.nr)
		return jg_error_set(JG_EINVAL, "no base APK among the %zu "
		    "split APKs of apk ('%s' is split '%s')", s->files.nr,
		    s->files.items[0], m[0].split);
	for (size_t i = 0; i < s->files.nr; i++)
		if (m[i].version_code != m[base].version_code)
			return jg_error_set(JG_EINVAL, "'%s' has versionCode "
			    "%lld, the base '%s' %lld; a split set is one "
			    "build", s->files.items[i], m[i].version_code,
			    s->files.items[base], m[base].version_code);
	tmp = s->files.items[base];
	memmove(s->files.items + 1, s->files.items,
	    base * sizeof(*s->files.items));
	s->files.items[0] = tmp;
	s->base = m[base];
	m[base] = m[0];
	apk_manifest_init(&m[0]);
	return 0;
}

int
apkset_open(struct apkset *s, const struct strlist *paths, const char *app,
    const char *bundle_dir)
{
	struct apk_manifest *m;
	int rc;

	memset(s, 0, sizeof(*s));
	strlist_init(&s->files);
	apk_manifest_init(&s->base);
	if ((rc = resolve(s, paths, bundle_dir)) || !s->files.nr)
		return rc;
	m = xcalloc(s->files.nr, sizeof(*m));
	for (size_t i = 0; i < s->files.nr && !rc; i++)
		rc = read_one(s->files.items[i], app, s->files.nr == 1, &m[i],
		    &s->unreadable);
	if (!rc && s->files.nr > 1) {
		rc = check_set(s, m);
	} else if (!rc && m[0].split) {
		rc = jg_error_set(JG_EINVAL, "'%s' is split '%s' of %s, not a "
		    "base APK: name the base too (a list or a directory)",
		    s->files.items[0], m[0].split, app);
	} else if (!rc && !s->unreadable) {
		s->base = m[0];
		apk_manifest_init(&m[0]);
	}
	s->readable = !rc && !s->unreadable;
	for (size_t i = 0; i < s->files.nr; i++)
		apk_manifest_release(&m[i]);
	free(m);
	return rc;
}

void
apkset_release(struct apkset *s)
{
	strlist_release(&s->files);
	apk_manifest_release(&s->base);
	free(s->unreadable);
	free(s->bundle);
	memset(s, 0, sizeof(*s));
}
