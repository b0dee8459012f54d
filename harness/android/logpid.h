/*
 * logpid.h: which processes of a log are the app's.
 *
 * Some lines any process prints (Choreographer's "Skipped 5874 frames!"
 * of another app looks like the app's own), so a source that reads them
 * must know the app's process ids.  They come from outside the log
 * (`pidof` and gfxinfo's section headers in a run, `jankgate parse
 * --pid N`) and from the log itself, when it names the app:
 *
 *	ActivityManager: Start proc 3920:com.example.shop/u0a100 for ...
 *	ActivityManager: Killing 3920:com.example.shop/u0a100 (adj 900): ...
 *	ActivityManager: Process com.example.shop (pid 3920) has died: ...
 *	AndroidRuntime: Process: com.example.shop, PID: 3920
 *	I am_proc_start: [0,3920,10100,com.example.shop,activity,...]
 *	Studio's package column, and its "PROCESS STARTED (3920) for
 *	package com.example.shop" marker
 *	a line tagged with the process name, as ART logs ("...ample.shop":
 *	the last 15 characters, the kernel's limit, of a longer name)
 *
 * Processes named for another package, and the activity manager's own
 * (system_server), are known not to be the app.  A process "PKG:name" is
 * one of the app's.
 *
 * When none of that names the app's process, weaker evidence does (the
 * pid is then "inferred", and a source that counts on it says so):
 *
 *	a line tagged with the whole package name (an app's own
 *	Log.d(BuildConfig.APPLICATION_ID, ...), or a newer ART's tag)
 *	ViewRootImpl[Main] (or ViewRootImpl@1a2b[Main]) lines of an
 *	activity that a "Displayed PKG/.Main" line names: only the
 *	activity's own process draws its window
 */
#ifndef JG_LOGPID_H
#define JG_LOGPID_H

#include <stdbool.h>
#include <stddef.h>

struct logcat_line;
struct logpid;

/* What a line's process is. */
enum logpid_owner {
	LOGPID_UNKNOWN,		/* no pid printed, or nothing known */
	LOGPID_APP,		/* one of the app's */
	LOGPID_NOT_APP,		/* not among the app's known pids */
	LOGPID_OTHER,		/* another package's, or the system's */
};

/*
 * A record for app `package` (NULL: unknown; copied) whose pids include
 * the `nr` of `given`.  Free it with logpid_free() (NULL is a no-op).
 */
struct logpid *logpid_new(const char *package, const int *given, size_t nr);
void logpid_free(struct logpid *p);

/* Learn what the lines say about processes (see above). */
void logpid_scan(struct logpid *p, const struct logcat_line *lines,
    size_t nr);

/* Whose line `l` is. */
enum logpid_owner logpid_owner(const struct logpid *p,
    const struct logcat_line *l);

/*
 * The app's pids known so far (*pids borrowed until the next scan); their
 * number.  How the first was learned in *how ("given", "a Start proc
 * line", ...) when `how` is not NULL.
 */
size_t logpid_app(const struct logpid *p, const int **pids,
    const char **how);

/* Whether the app's pids known came from the weaker evidence above. */
bool logpid_inferred(const struct logpid *p);

/* The process name the log gave `pid`, or NULL.  Borrowed. */
const char *logpid_name(const struct logpid *p, int pid);

#endif
