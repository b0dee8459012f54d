/*
 * apk.h: what an APK says about itself, read without the Android SDK.
 *
 * `run` checks that the build it installed is the build the device runs
 * (run_install.c).  The APK's package name and versionCode live in its
 * AndroidManifest.xml, which the build tools store in the zip as compiled
 * "binary XML".  apk.c reads that entry through zipread.c (zip64
 * included, inflated, CRC checked), takes the attributes of the first
 * element, <manifest>, and walks on for the launcher activity (`jankgate
 * init` writes it into the configuration it makes).
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
	char *split;		/* <manifest split=…> of a split APK, NULL
				 * for a base APK */
	char *launcher;		/* android:name of the first activity (or
				 * alias) with MAIN/LAUNCHER, as written
				 * (".Home" or "com.x.Home"); NULL: none */
	char *instr_runner;	/* a test APK's <instrumentation
				 * android:name> as written, NULL: none */
	char *instr_target;	/* its android:targetPackage, or NULL */
};

void apk_manifest_init(struct apk_manifest *m);
void apk_manifest_release(struct apk_manifest *m);

/*
 * Read the manifest of the APK at `path`.  Returns 0; JG_EIO when the file
 * cannot be read; JG_EINVAL when it is not an APK (not a zip, no
 * AndroidManifest.xml, a manifest that is not binary XML, a corrupt
 * archive); JG_EPROTO when it is one jankgate cannot read fully (an
 * encrypted or unusually compressed manifest, a versionCode that is a
 * resource reference or a string), which `aapt` may.  The message names
 * what was wrong, not the path; callers add it.
 */
int apk_read_manifest(const char *path, struct apk_manifest *m);

/*
 * JG_EMISMATCH naming both packages when manifest `m` of the APK at `path`
 * holds another package than `app`; 0 otherwise (also with no package).
 */
int apk_is_of(const struct apk_manifest *m, const char *path,
    const char *app);

/* The same over an APK held in memory. */
int apk_manifest_from_zip(const void *zip, size_t len, struct apk_manifest *m);

/* The manifest's attributes from compiled binary XML. */
int apk_parse_axml(const void *data, size_t len, struct apk_manifest *m);

#endif
