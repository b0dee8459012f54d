/*
 * faults.h: misbehaviour the simulated device shows on request.
 *
 * Faults come from command-line options and from a control file that the
 * device re-reads whenever a connection or a stream opens, so a test can
 * change them while the device runs.  Both use the same vocabulary, one
 * fault per option or line:
 *
 *   drop-after-packets N      close the TCP link once N packets have been
 *                             received on it (0: never)
 *   drop-on-command TEXT      close the TCP link when a service or shell
 *                             command line matches TEXT (a POSIX extended
 *                             regex, or a plain substring if it does not
 *                             compile)
 *   cnxn-delay-ms N           answer the host's CNXN N ms late
 *   stall-wrte PREFIX         never OKAY the host's WRTEs on streams whose
 *                             service starts with PREFIX
 *   refuse PREFIX             answer an OPEN of such a service with CLSE
 *   pm-fail TEXT              package installs fail with "Failure [TEXT]"
 *   atrace-fail TEXT          `atrace --async_start` prints TEXT and exits
 *                             1 (tracefs closed to the shell user)
 *   crash-on TEXT             the app crashes on an interaction matching
 *                             TEXT (see faults_interaction)
 *   anr-on TEXT               the app's main thread hangs on one: an ANR
 *   slow-dumpsys-ms N         dumpsys answers N ms late
 *   slow-dumpsys-on SERVICE   ... only a dump of SERVICE (repeatable;
 *                             none listed: every dumpsys)
 *
 * In the file, blank lines and lines starting with '#' are ignored.  The
 * file adds to the options: list faults accumulate, numbers, pm-fail and
 * atrace-fail replace the option's value.
 */
#ifndef SIM_FAULTS_H
#define SIM_FAULTS_H

#include <stddef.h>

struct faults_list {
	char **v;
	size_t nr, alloc;
};

struct faults {
	long drop_after_packets;
	long cnxn_delay_ms;
	struct faults_list drop_on_command;
	struct faults_list stall_wrte;
	struct faults_list refuse;
	char *pm_fail;
	char *atrace_fail;
	struct faults_list crash_on;
	struct faults_list anr_on;
	long slow_dumpsys_ms;
	struct faults_list slow_dumpsys_on;
};

/* No faults; faults_release() frees the lists and resets to no faults. */
void faults_init(struct faults *f);
void faults_release(struct faults *f);
/* Make `dst` (initialised) an independent copy of `src`. */
void faults_copy(struct faults *dst, const struct faults *src);

/* 1 when `name` is a fault keyword ("refuse", "cnxn-delay-ms", ...). */
int faults_is_key(const char *name);

/*
 * Record fault `key` with argument `value`.  Returns 0, or JG_EINVAL with a
 * message for an unknown key or a bad number.
 */
int faults_set(struct faults *f, const char *key, const char *value);

/*
 * Apply every line of the control file `path` to `f`.  A missing file adds
 * nothing and is not an error.  Returns 0 or a JG_E* code; lines after a
 * bad one are still applied.
 */
int faults_load(struct faults *f, const char *path);

/* 1 when `service` starts with one of the prefixes in `list`. */
int faults_prefixed(const struct faults_list *list, const char *service);

/* 1 when `text` matches one of the drop-on-command patterns. */
int faults_drop_on(const struct faults *f, const char *text);

/*
 * 1 when an interaction hits a pattern of `list` (crash_on, anr_on): the
 * command line `line` contains it or matches it as a POSIX extended
 * regex, or one of `names` (a tapped element's text, resource-id and
 * content-desc; NULL entries skipped) equals it.
 */
int faults_interaction(const struct faults_list *list, const char *line,
    const char *const *names, size_t nr_names);

#endif
