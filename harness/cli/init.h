/*
 * init.h: `jankgate init`, a first configuration and scenario for an app.
 *
 * A new user has an APK, or a phone with the app open, and no idea yet of
 * the configuration's keys.  init learns the app's package and launcher
 * activity from the APK's manifest (apk.c) or from the activity in front
 * on the device, and writes jankgate.json and a starter scenario (a cold
 * launch, then one measured scene of flings on the first screen; or, given
 * the app's test APK, its instrumentation tests as scenes) that
 * `jankgate check` accepts and `jankgate run` can run as they are.  It
 * never overwrites a file.
 */
#ifndef JG_INIT_H
#define JG_INIT_H

#include "strlist.h"

/* The app a configuration is written for. */
struct init_app {
	char *package;
	char *activity;		/* launcher (else see note), fully qualified,
				   or NULL */
	char *apk;		/* the APK to install as given; NULL: none */
	char *from;		/* where package and activity came from */
	char *note;		/* why activity is no launcher, or NULL */
	char *test_apk;		/* the test APK as given; NULL: none */
	char *test_runner;	/* its instrumentation, in full */
};

void init_app_release(struct init_app *a);

/*
 * Package and launcher activity from the APK at `apk`.  Returns 0;
 * JG_EIO when it cannot be read; JG_EINVAL when it is not an APK, is a
 * split, or names no package (the message names the file).
 */
int init_app_from_apk(struct init_app *out, const char *apk);

/* A test APK's <instrumentation>, read before the app is known. */
struct init_tests {
	char *apk;		/* as given */
	char *runner;		/* the instrumentation class, in full */
	char *target;		/* the package it instruments */
};

void init_tests_release(struct init_tests *t);

/*
 * Read the test APK at `test_apk`.  Returns 0; JG_EIO when it cannot be
 * read; JG_EINVAL when it is not an APK, is a split, or has no
 * <instrumentation> with a targetPackage (the messages name the file and
 * --test-apk).
 */
int init_tests_read(struct init_tests *out, const char *test_apk);

/*
 * Give `app` (its package known) the tests `t`: the scenario becomes one
 * `instrument` step of t's runner, running every test (the classes are
 * in the APK's dex, which is not read).  JG_EMISMATCH, adding nothing,
 * when `t` instruments another package than app->package.
 */
int init_app_add_tests(struct init_app *app, const struct init_tests *t);

/*
 * The app in front on device `serial` (NULL: the one device attached to
 * the adb server), from `dumpsys activity activities`, and its launcher
 * activity from `dumpsys package PKG` (none: the activity in front, and
 * a note saying so).  Returns 0;
 * JG_EINVAL when several devices are attached and none is named, or the
 * launcher or another system app is in front (the message says what to
 * do); JG_EDEVICE or the adb client's code when no device answers.
 */
int init_app_from_device(struct init_app *out, const char *serial,
    int timeout_ms);

/*
 * Write the configuration `config` (its scenario goes beside it, to
 * scenarios/<last part of the package>.scn, named relatively) for `app`,
 * each path written appended to `written`.  Nothing is written when
 * either file exists: JG_EINVAL naming it.  JG_EIO when a file cannot be
 * written.
 */
int init_write(const struct init_app *app, const char *config,
    struct strlist *written);

#endif
