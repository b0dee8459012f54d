/*
 * packages.c: install, uninstall and look up packages.
 *
 * The app model is found by trying the whole file as JSON first and then
 * every '{' in it, so a model embedded in a zip (stored, uncompressed) or
 * glued after other bytes is found too.  The scan gives up after a bounded
 * number of candidates so a large random file fails quickly.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "faults.h"
#include "packages.h"
#include "simapps.h"
#include "simdev.h"
#include "simfs.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define MAX_CANDIDATES 256

static const struct {
	const char *name, *path;
	unsigned int uid;
} system_pkgs[] = {
	{ "android", "/system/framework/framework-res.apk", 1000 },
	{ "com.android.launcher3",
	  "/system_ext/priv-app/Launcher3QuickStep/Launcher3QuickStep.apk",
	  10050 },
	{ "com.android.settings",
	  "/system_ext/priv-app/Settings/Settings.apk", 1000 },
	{ "com.android.shell", "/system/priv-app/Shell/Shell.apk", 2000 },
	{ "com.android.systemui",
	  "/system_ext/priv-app/SystemUI/SystemUI.apk", 10060 },
};

static struct simpkg *
pkg_add(struct simdev *dev, const char *name)
{
	struct simpkg *p;

	XALLOC_GROW(dev->pkgs, dev->nr_pkgs + 1, dev->alloc_pkgs);
	p = &dev->pkgs[dev->nr_pkgs++];
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	return p;
}

static void
pkg_clear(struct simpkg *p)
{
	free(p->name);
	free(p->version_name);
	free(p->model_json);
	free(p->apk_path);
}

void
packages_add_system(struct simdev *dev)
{
	size_t i;

	simdev_lock(dev);
	for (i = 0; i < sizeof(system_pkgs) / sizeof(system_pkgs[0]); i++) {
		struct simpkg *p = pkg_add(dev, system_pkgs[i].name);

		p->version_name = xasprintf("%d", dev->sdk);
		p->version_code = dev->sdk;
		p->apk_path = xstrdup(system_pkgs[i].path);
		p->uid = system_pkgs[i].uid;
		p->system = 1;
	}
	simdev_unlock(dev);
}

struct simpkg *
packages_find(struct simdev *dev, const char *name)
{
	size_t i;

	for (i = 0; i < dev->nr_pkgs; i++)
		if (!strcmp(dev->pkgs[i].name, name))
			return &dev->pkgs[i];
	return NULL;
}

void
packages_release(struct simdev *dev)
{
	size_t i;

	for (i = 0; i < dev->nr_pkgs; i++)
		pkg_clear(&dev->pkgs[i]);
	free(dev->pkgs);
	dev->pkgs = NULL;
	dev->nr_pkgs = dev->alloc_pkgs = 0;
}

/* A JSON object with a "package" member, or NULL. */
static cJSON *
try_model(const char *p, size_t len)
{
	cJSON *j = cJSON_ParseWithLengthOpts(p, len, NULL, 0);

	if (j && cJSON_IsObject(j) && cJSON_GetObjectItem(j, "package"))
		return j;
	cJSON_Delete(j);
	return NULL;
}

static cJSON *
find_model(const char *apk, size_t len)
{
	const char *p = apk, *end = apk + len;
	cJSON *j;
	int tries = 0;

	if ((j = try_model(apk, len)))
		return j;
	while (tries++ < MAX_CANDIDATES &&
	    (p = memchr(p, '{', (size_t)(end - p)))) {
		if ((j = try_model(p, (size_t)(end - p))))
			return j;
		p++;
	}
	return NULL;
}

int
packages_has_model(const void *apk, size_t len, struct strbuf *name)
{
	cJSON *j = find_model(apk, len), *pkg;

	if (!j)
		return 0;
	pkg = cJSON_GetObjectItem(j, "package");
	if (name && cJSON_IsString(pkg))
		strbuf_addstr(name, pkg->valuestring);
	cJSON_Delete(j);
	return 1;
}

/* Android's rule: two or more dot-separated Java identifiers. */
static int
valid_package_name(const char *s)
{
	int parts = 0;

	while (*s) {
		if (!isalpha((unsigned char)*s) && *s != '_')
			return 0;
		while (isalnum((unsigned char)*s) || *s == '_')
			s++;
		parts++;
		if (*s == '.' && s[1])
			s++;
		else if (*s)
			return 0;
	}
	return parts >= 2;
}

static int
read_model(const char *apk, size_t len, struct simpkg *out, char **json,
    struct strbuf *why)
{
	cJSON *j = find_model(apk, len), *name, *vname, *vcode;
	int ret = -1;

	if (!j) {
		strbuf_addstr(why, "INSTALL_FAILED_INVALID_APK: "
		    "no app model (JSON with \"package\") in the APK");
		return -1;
	}
	name = cJSON_GetObjectItem(j, "package");
	vname = cJSON_GetObjectItem(j, "versionName");
	vcode = cJSON_GetObjectItem(j, "versionCode");
	if (!cJSON_IsString(name) || !valid_package_name(name->valuestring))
		strbuf_addstr(why, "INSTALL_FAILED_INVALID_APK: "
		    "bad \"package\" in the app model");
	else if (!cJSON_IsString(vname))
		strbuf_addstr(why, "INSTALL_FAILED_INVALID_APK: "
		    "app model lacks a string \"versionName\"");
	else if (!cJSON_IsNumber(vcode) || vcode->valuedouble < 1 ||
	    vcode->valuedouble != (double)(long long)vcode->valuedouble)
		strbuf_addstr(why, "INSTALL_FAILED_INVALID_APK: "
		    "app model lacks a positive integer \"versionCode\"");
	else {
		out->name = xstrdup(name->valuestring);
		out->version_name = xstrdup(vname->valuestring);
		out->version_code = (long long)vcode->valuedouble;
		out->debuggable = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
		    j, "debuggable"));
		*json = cJSON_PrintUnformatted(j);
		ret = 0;
	}
	cJSON_Delete(j);
	return ret;
}

static void
write_files(struct simdev *dev, const struct simpkg *p, const void *apk,
    size_t len)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "/data/app/%s-1", p->name);
	simfs_mkdir(dev->fs, path.buf, 0755, 1);
	simfs_chown(dev->fs, path.buf, 1000, 1000, 0);
	simfs_write(dev->fs, p->apk_path, apk, len, 0, 0644);

	strbuf_reset(&path);
	strbuf_addf(&path, "/data/data/%s", p->name);
	if (!simfs_mkdir(dev->fs, path.buf, 0700, 0)) {
		strbuf_addstr(&path, "/cache");
		simfs_mkdir(dev->fs, path.buf, 0771, 0);
		strbuf_setlen(&path, path.len - 6);
		strbuf_addstr(&path, "/code_cache");
		simfs_mkdir(dev->fs, path.buf, 0771, 0);
		strbuf_setlen(&path, path.len - 11);
		simfs_chown(dev->fs, path.buf, p->uid, p->uid, 1);
	}
	strbuf_release(&path);
}

int
packages_install(struct simdev *dev, const void *apk, size_t len,
    int flags, struct strbuf *why)
{
	struct simpkg model = { 0 }, *p;
	char *json = NULL;

	if (!(flags & PACKAGES_NO_FAULTS)) {
		struct faults f;

		faults_init(&f);
		simdev_faults(dev, &f);
		if (f.pm_fail) {
			strbuf_addstr(why, f.pm_fail);
			faults_release(&f);
			return -1;
		}
		faults_release(&f);
	}
	if (read_model(apk, len, &model, &json, why))
		return -1;

	simdev_lock(dev);
	p = packages_find(dev, model.name);
	if (p && p->system) {
		strbuf_addf(why, "INSTALL_FAILED_UPDATE_INCOMPATIBLE: "
		    "package %s is a system package", model.name);
		goto fail;
	}
	/*
	 * As the package manager does on a user build: -d lets an older
	 * build replace the installed one only when that one is debuggable.
	 */
	if (p && (!(flags & PACKAGES_DOWNGRADE) || !p->debuggable) &&
	    model.version_code < p->version_code) {
		strbuf_addf(why, "INSTALL_FAILED_VERSION_DOWNGRADE: "
		    "Downgrade detected: Update version code %lld is older "
		    "than current %lld", model.version_code, p->version_code);
		goto fail;
	}
	if (!p) {
		p = pkg_add(dev, model.name);
		p->uid = dev->next_app_uid++;
		p->apk_path = xasprintf("/data/app/%s-1/base.apk", p->name);
	}
	/* An update kills the running app, as the package manager does. */
	simapps_forget(dev->apps, p->name);
	free(p->version_name);
	free(p->model_json);
	p->version_name = model.version_name;
	p->version_code = model.version_code;
	p->debuggable = model.debuggable;
	p->model_json = json;
	p->installed_ms = simdev_uptime_ms(dev);
	write_files(dev, p, apk, len);
	simdev_unlock(dev);
	free(model.name);
	return 0;

fail:
	simdev_unlock(dev);
	pkg_clear(&model);
	free(json);
	return -1;
}

int
packages_uninstall(struct simdev *dev, const char *name, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;
	struct simpkg *p;
	size_t i;

	simdev_lock(dev);
	p = packages_find(dev, name);
	if (!p || p->system) {
		simdev_unlock(dev);
		strbuf_addstr(why, "DELETE_FAILED_INTERNAL_ERROR");
		return -1;
	}
	simapps_forget(dev->apps, name);
	strbuf_addf(&path, "/data/app/%s-1", name);
	simfs_remove(dev->fs, path.buf, 1);
	strbuf_reset(&path);
	strbuf_addf(&path, "/data/data/%s", name);
	simfs_remove(dev->fs, path.buf, 1);
	strbuf_release(&path);
	i = (size_t)(p - dev->pkgs);
	pkg_clear(p);
	memmove(dev->pkgs + i, dev->pkgs + i + 1,
	    (dev->nr_pkgs - i - 1) * sizeof(*dev->pkgs));
	dev->nr_pkgs--;
	simdev_unlock(dev);
	return 0;
}
