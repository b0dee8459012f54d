/*
 * aapt.h: the versionCode of an APK from the SDK's aapt2 or aapt (aapt.c).
 */
#ifndef JG_AAPT_H
#define JG_AAPT_H

/* The versionCode in `aapt dump badging` output; JG_ENOTFOUND, JG_EINVAL. */
int aapt_badging_version_code(const char *text, double *version_code);

/*
 * The APK's versionCode through aapt2 or aapt on PATH; *tool gets the
 * tool's name (caller frees).  JG_ENOTFOUND when neither is there.
 */
int aapt_version_code(const char *apk, double *version_code, char **tool);

#endif
