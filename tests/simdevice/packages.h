/*
 * packages.h: the package manager of the simulated device.
 *
 * An "APK" here is any file whose contents is, or embeds, a JSON app model:
 * an object with at least "package", "versionName" and "versionCode".  The
 * whole object is kept (struct simpkg.model_json) for the app model that
 * later layers run.  Installing creates /data/app/<pkg>-1/base.apk and the
 * app's data directory /data/data/<pkg>, owned by the app's uid; reinstalls
 * keep the uid and the data, as Android does.
 */
#ifndef SIM_PACKAGES_H
#define SIM_PACKAGES_H

#include <stddef.h>

struct simdev;
struct simpkg;
struct strbuf;

enum {
	PACKAGES_DOWNGRADE = 1 << 0,	/* allow a lower versionCode (-d) */
	PACKAGES_NO_FAULTS = 1 << 1,	/* ignore the pm-fail fault */
};

/* Register the preinstalled system packages (android, shell, ...). */
void packages_add_system(struct simdev *dev);

/*
 * Install the APK held in `apk` (`len` bytes).  Returns 0, or -1 with the
 * text Android puts between "Failure [" and "]" appended to `why`
 * ("INSTALL_FAILED_INVALID_APK: ...").
 */
int packages_install(struct simdev *dev, const void *apk, size_t len,
    int flags, struct strbuf *why);

/*
 * 1 when `apk` holds an app model (a base APK here; a split has none),
 * with its "package" appended to `name` (may be NULL); else 0.
 */
int packages_has_model(const void *apk, size_t len, struct strbuf *name);

/*
 * Remove package `name` with its files.  Returns 0, or -1 with the failure
 * text in `why` (unknown or system package: DELETE_FAILED_INTERNAL_ERROR).
 */
int packages_uninstall(struct simdev *dev, const char *name,
    struct strbuf *why);

/* The package called `name`, or NULL.  Call with simdev_lock() held. */
struct simpkg *packages_find(struct simdev *dev, const char *name);

/* Free every package record (the files stay with the file system). */
void packages_release(struct simdev *dev);

#endif
