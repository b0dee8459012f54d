/*
 * startup_int.h: the pieces of the `startup` source, private to
 * harness/sources/startup*.c.
 *
 *   startup.c      `am start -W` output, the hooks, `jankgate parse`
 *   startup_log.c  the system's START, Displayed and Fully drawn lines
 */
#ifndef JG_STARTUP_INT_H
#define JG_STARTUP_INT_H

#include <stdbool.h>
#include <stddef.h>

struct logcat_line;

/* A component "pkg/.Cls" as the system prints it; not NUL-terminated. */
struct st_comp {
	const char *s;
	size_t n;
};

/* Whether `c` is an activity of `pkg`, or of any package when NULL. */
bool st_comp_of(const struct st_comp *c, const char *pkg);

/* The package part of `c` ("pkg" of "pkg/.Cls"); its length, 0 if none. */
size_t st_comp_package(const struct st_comp *c);

/*
 * A TimeUtils.formatDuration text filling s[0..n): "+1s234ms", "+456ms",
 * "0".  Negative durations are refused.
 */
bool st_read_duration(const char *s, size_t n, double *ms);

/* What the log says about one launch. */
struct st_launch {
	struct st_comp comp;	/* the activity, or {NULL, 0} */
	double displayed_ms;	/* the Displayed line's own number */
	double total_ms;	/* its "(total ...)", API <= 28 */
	double fully_drawn_ms;
};

/* An st_launch with every number unknown. */
void st_launch_init(struct st_launch *l);

/*
 * The indexes of the shell's START lines ("START u0 {... cmp=PKG/...}
 * from uid 2000") of `pkg` (NULL: any) in *out (caller frees); their
 * number.
 */
size_t st_log_anchors(const struct logcat_line *lines, size_t nr,
    const char *pkg, size_t **out);

/*
 * The Displayed and Fully drawn lines of the launch whose START line is
 * lines[anchor], looking before index `until`: the first Displayed of
 * `pkg` after the anchor at most `limit_ms` after it (none when `hot`),
 * and the first Fully drawn after the anchor of the activity Displayed
 * named (of any of the package's without one).  Without an anchor (-1),
 * the last of each before `until`.
 */
void st_log_timings(const struct logcat_line *lines, size_t until,
    long anchor, double limit_ms, const char *pkg, bool hot,
    struct st_launch *out);

/*
 * Every launch the log shows by itself: one per Displayed line of `pkg`
 * (NULL: any package), in order, with the Fully drawn line of the same
 * activity that follows before that activity is displayed again; when
 * the log has no Displayed line of `pkg`, one per Fully drawn line.
 * *out gets the array (caller frees); returns its length.
 */
size_t st_log_launches(const struct logcat_line *lines, size_t nr,
    const char *pkg, struct st_launch **out);

#endif
