/*
 * apkset.h: what the configuration's `apk` stands for, as the files to
 * install and the manifest to check the device against.
 *
 * `apk` names one APK, the APKs of a split set (a base and its
 * configuration or feature splits, as a list or as a directory holding
 * them), or an Android App Bundle (.aab).  A set is installed as one
 * package-manager session; a bundle goes through Google's bundletool,
 * which builds one universal APK from it.  `check` and `run` both open
 * the set here, so an `apk` that is no APK, holds another app, or is a
 * set without one base is a configuration error before any device is
 * touched (exit 2), named with the file and what is wrong.
 */
#ifndef JG_APKSET_H
#define JG_APKSET_H

#include "apk.h"
#include "strlist.h"

struct apkset {
	struct strlist files;	/* APKs to install, the base first */
	struct apk_manifest base;	/* the base's, when `readable` */
	int readable;		/* the base's manifest was read */
	char *unreadable;	/* else why not (aapt may read it) */
	char *bundle;		/* the .aab the files came from, or NULL */
};

/*
 * Resolve `paths` (absolute; files, directories, one .aab) into s->files
 * and read every APK: each must open as an APK (JG_EINVAL naming the file
 * and what is wrong; JG_EIO when it cannot be read), hold the package
 * `app` (JG_EMISMATCH naming both; NULL: any one package), and a set
 * of several must have one base, readable manifests, distinct split
 * names and one versionCode (JG_EINVAL).  An .aab must be alone and be a bundle; with `bundle_dir`
 * NULL (`check`) it is only opened, and bundletool must be on PATH;
 * otherwise `bundletool build-apks --mode=universal` builds its APK into
 * bundle_dir/<the bundle's sha256>/universal.apk (reused while the bundle
 * is unchanged, so gate's batches build it once), and no bundletool is
 * JG_EINVAL saying so.  Fill `s` (release it with apkset_release, also
 * after an error).
 */
int apkset_open(struct apkset *s, const struct strlist *paths,
    const char *app, const char *bundle_dir);

void apkset_release(struct apkset *s);

#endif
