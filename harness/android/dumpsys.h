/*
 * dumpsys.h: what the framework's dumpsys prints that jankgate reads
 * outside the data sources: the resumed activity, a package's launcher
 * and version, the frames rendered so far, and the phone's state before
 * measuring (battery, heat, animations, screen, lock).  dumpsys.c draws
 * each format.  Pure functions over captured output.
 */
#ifndef JG_DUMPSYS_H
#define JG_DUMPSYS_H

/*
 * The resumed activity in `dumpsys activity activities` output, as
 * "pkg/full.Class" in *out (caller frees).  Reads topResumedActivity=
 * (31+), ResumedActivity: (29+), mResumedActivity: and mFocusedActivity:
 * (older), the first found.  JG_ENOTFOUND when none.
 */
int dumpsys_resumed(const char *text, char **out);

/*
 * 1 when `component` ("pkg/full.Class") is the activity the scenario
 * named `want` (".Main", "com.x.Main", "pkg/.Main", "pkg/com.x.Main") of
 * app `package`.  Without a package in `want` only the class is compared.
 */
int dumpsys_activity_matches(const char *want, const char *package,
    const char *component);

/*
 * From `dumpsys package PKG`: the MAIN/LAUNCHER activity's component
 * ("pkg/.Act") in *launcher (NULL when none; caller frees) and the
 * versionCode / versionName (NAN / NULL when absent).
 */
void dumpsys_package(const char *text, const char *package,
    char **launcher, double *version_code, char **version_name);

/* "Total frames rendered: N" of a gfxinfo dump, or -1. */
long dumpsys_gfx_total_frames(const char *text);

/*
 * The phone's state: battery level (%) and temperature (°C), thermal
 * status (0..6), an
 * animation scale from `settings get global`, screen on, unlocked; NAN or
 * RS_UNKNOWN (results.h) when the output does not say.
 */
double dumpsys_battery_level(const char *dumpsys_battery);
double dumpsys_battery_temp_c(const char *dumpsys_battery);
double dumpsys_thermal_status(const char *dumpsys_thermalservice);
double dumpsys_animation_scale(const char *settings_get);
int dumpsys_screen_on(const char *dumpsys_power, const char *dumpsys_display);
int dumpsys_unlocked(const char *dumpsys_window);

#endif
