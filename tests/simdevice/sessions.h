/*
 * sessions.h: the package manager's install sessions, as `adb
 * install-multiple` (and jankgate, for a base APK and its splits) drives
 * them through `pm` / `cmd package`:
 *
 *   install-create [-r] [-d] [-S TOTAL]   Success: created install session [N]
 *   install-write [-S SIZE] N NAME [PATH|-]   Success: streamed SIZE bytes
 *   install-commit N                      Success, or Failure [...]
 *   install-abandon N                     Success
 *
 * A session stages files by name; the commit installs the one file that
 * holds an app model (the base) with the session's flags, and stores the
 * others beside it as /data/app/<pkg>-1/split_<NAME>.  A session that does
 * not exist is the SecurityException Android throws.
 */
#ifndef SIM_SESSIONS_H
#define SIM_SESSIONS_H

#include <stddef.h>

struct simdev;
struct strbuf;

/* A new session with PACKAGES_* `flags`; its id. */
int sessions_create(struct simdev *dev, int flags);

/* Stage `len` bytes as `name` in session `id`.  0, or -1: no session. */
int sessions_write(struct simdev *dev, int id, const char *name,
    const void *data, size_t len);

/*
 * Install what session `id` staged, then forget the session.  0, or -1
 * with the text between "Failure [" and "]" in `why` (no session: `why`
 * starts with "no session").
 */
int sessions_commit(struct simdev *dev, int id, struct strbuf *why);

/* Forget session `id`.  0, or -1 when there is none. */
int sessions_abandon(struct simdev *dev, int id);

/* Forget every session (at simdev_free). */
void sessions_release(struct simdev *dev);

#endif
