/*
 * apk.h: what an APK says about itself, read without the Android SDK.
 *
 * `run` checks that the build it installed is the build the device runs
 * (DESIGN §4.2).  The APK's package name and versionCode live in its
 * AndroidManifest.xml, which the build tools store in the zip as compiled
 * "binary XML".  apk.c finds that entry through the zip's central
 * directory (zip64 included), inflates it with zlib, checks its CRC, and
 * walks the binary XML to the first element, <manifest>, whose attributes
 * it reads.
 *
 * Every length and offset comes from the file and is checked before use:
 * a truncated, corrupt or hostile APK is an error naming what was wrong,
 * never a crash (fuzz_apk covers both layers).
 */
#ifndef JG_APK_H
#define JG_APK_H

#include <stddef.h>

struct apk_manifest {
	char *package;		/* <manifest package=…>, NULL when absent */
	char *version_name;	/* android:versionName, NULL when absent or
				 * not a literal string */
	long long version_code;	/* android:versionCode, with
				 * android:versionCodeMajor in the high 32
				 * bits as Android's getLongVersionCode();
				 * 0 when absent, as Android reads it */
};

void apk_manifest_init(struct apk_manifest *m);
void apk_manifest_release(struct apk_manifest *m);

/*
 * Read the manifest of the APK at `path`.  Returns 0, JG_EIO when the file
 * cannot be read, JG_EINVAL when it is not an APK jankgate can read (not a
 * zip, no AndroidManifest.xml, encrypted, corrupt, a versionCode that is
 * a resource reference).  The message names what was wrong, not the path;
 * callers add it.
 */
int apk_read_manifest(const char *path, struct apk_manifest *m);

/*
 * JG_EMISMATCH naming both packages when manifest `m` of the APK at `path`
 * holds another package than `app`; 0 otherwise (also with no package).
 */
int apk_is_of(const struct apk_manifest *m, const char *path,
    const char *app);

/*
 * Is the APK at `path` a build of `app`?  0 when it is, and when its
 * manifest cannot be read (jankgate run then asks aapt for the version);
 * JG_EIO naming the path when it cannot be opened; JG_EMISMATCH naming
 * both packages when it holds another app.  `check` and `run` refuse such
 * an APK as a configuration error before any device is touched.
 */
int apk_check_app(const char *path, const char *app);

/* The same over an APK held in memory. */
int apk_manifest_from_zip(const void *zip, size_t len, struct apk_manifest *m);

/* The manifest's attributes from compiled binary XML. */
int apk_parse_axml(const void *data, size_t len, struct apk_manifest *m);

#endif
