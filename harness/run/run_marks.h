/*
 * run_marks.h: scenes a test command or the app marks itself (issue 52),
 * private to run/ and its unit tests.
 *
 * run_exec.c reads the app's frames while an `exec` step runs, each read
 * at or after a marked scene's end, never inside one; run_markers.c keeps
 * those reads and, once the iteration's log is complete, turns the
 * markers into scenes whose frames are the rows the reads saw inside
 * their windows.  The two halves meet in struct run_marks.
 */
#ifndef JG_RUN_MARKS_H
#define JG_RUN_MARKS_H

#include <stdbool.h>
#include <stddef.h>

struct logcat_line;
struct results;
struct rs_iteration;

/* The words a marker starts with, in a log message of any tag. */
#define RUN_MARK_PREFIX "jankgate: scene "

/* What one log line is (run_mark_parse()). */
enum run_mark_kind { RUN_MARK_NONE, RUN_MARK_BEGIN, RUN_MARK_END };

/*
 * Whether line `l` is a scene marker: "jankgate: scene begin NAME" or
 * "jankgate: scene end NAME" as the message of any tag, or "scene begin
 * NAME" / "scene end NAME" as a message of the tag "jankgate".  NAME is
 * the rest of the message, spaces at its ends dropped; *name and *len
 * point into the line.  A marker without a name is RUN_MARK_NONE.
 */
enum run_mark_kind run_mark_parse(const struct logcat_line *l,
    const char **name, size_t *len);

/* One iteration's frame reads for its marked scenes. */
struct run_marks;

struct run_marks *run_marks_new(void);
void run_marks_free(struct run_marks *m);

/* 1 when a frame read was noted (an `exec` step ran), else 0. */
int run_marks_active(const struct run_marks *m);

/*
 * Note one `dumpsys gfxinfo PKG framestats reset` of `len` bytes of
 * `buf`, asked for at device time `asked_ms` (NAN when the clock is not
 * known yet) and answered at `uptime_ms` (its Uptime line; NAN when it
 * has none, as when no process of the app runs).  The read covers the
 * frames since the previous one: those it holds are kept, and when the
 * app rendered more than its rows show (hwui keeps the last 120 of each
 * window) the time before its oldest row is noted as unseen.
 */
void run_marks_add_read(struct run_marks *m, const char *buf, size_t len,
    const char *package, double asked_ms, double uptime_ms);

/*
 * Note that a step read frames from device time `from_ms` to `to_ms`
 * (its first and last reads; NAN: unknown, taken as unbounded): an
 * `exec` step, where log markers and Trace sections are scenes, or with
 * `sections_only` an `instrument` step, where only Trace sections are
 * (its tests are the scenes a log line could mark).  Only markers inside
 * such a span are scenes: outside, no read covers them (a scenario
 * scene's reset may even have cleared their frames).
 */
void run_marks_span(struct run_marks *m, double from_ms, double to_ms,
    bool sections_only);

/*
 * The spans noted so far, in order, for the sources' logcat hook
 * (source.h, step_spans): *nr of them, valid until the next
 * run_marks_span() or run_marks_free().  NULL when there are none.
 */
struct source_span;
const struct source_span *run_marks_steps(const struct run_marks *m,
    size_t *nr);

/*
 * Note the output of one `atrace --async_stop` (`len` bytes of `buf`):
 * its sections named `prefix` + NAME, placed on CLOCK_MONOTONIC by the
 * reads noted so far (run_markers.c says how), become scenes NAME in
 * run_marks_scenes().  What is wrong with the capture (no trace, no way
 * to place it, lost events) is kept for a warning there.
 */
void run_marks_add_trace(struct run_marks *m, const char *buf, size_t len,
    const char *prefix);

/*
 * The marked scenes of `lines` (the iteration's whole log), appended to
 * it->scenes in the order they began, each with the frames the reads
 * saw in its window (FrameCompleted in (begin, end]), by hwui's
 * histogram, at `refresh_hz` (<= 0: unknown) for the janky and dropped
 * counts.  A scene part of whose window went unseen gets no frames and a
 * warning in `res` (scoped "SCENARIO/NAME"); so does one a read fell
 * inside.  Markers outside every span are left out, with one warning
 * (scoped "SCENARIO").  Then the Trace sections' scenes, those a log
 * marker did not name already; a section without an end gets a warning
 * (scoped "SCENARIO/NAME") and no scene.  Returns 0, or JG_EINVAL with
 * a message for markers that do not pair up (an end without a begin, a
 * begin never ended, a name used twice or taken by a scenario scene, a
 * bad name): the iteration fails.
 */
int run_marks_scenes(struct run_marks *m, const struct logcat_line *lines,
    size_t nr, struct rs_iteration *it, double refresh_hz,
    struct results *res, const char *scenario);

/* ---- the step (run_exec.c) ---- */

struct run_dev;
struct run_logcat;
struct scenario_step;

/*
 * Whether a step of `scenario` on `d` captures Trace sections:
 * markers.trace, but not in diagnose.trace's iteration (run_exec.c says
 * why; a warning in the results says so).
 */
bool run_marks_want_trace(struct run_dev *d, const char *scenario);

/*
 * Start an atrace capture of the app's sections (`atrace --async_start
 * -b KB -a PKG`); *on says whether one runs.  Returns 0 (a capture that
 * cannot start is a warning) or a device error.  run_marks_trace_stop()
 * stops it and hands its sections to `m` unless `keep` is false; 0 or a
 * device error.
 */
int run_marks_trace_start(struct run_dev *d, const char *scenario, bool *on);
int run_marks_trace_stop(struct run_dev *d, struct run_marks *m,
    const char *scenario, bool keep);

/*
 * Run `exec` step `st` of iteration `index` of `scenario` on `d`, as
 * run_exec.c says, reading frames into `m` unless `in_scene`; the
 * command is ended at host time `deadline`.  Returns 0 when it exited
 * 0, JG_EGENERIC / JG_ENOTFOUND / JG_ETIMEOUT (the iteration fails, the
 * message says why and where the output is), JG_EINTR, or a device
 * error from a frame read.
 */
int run_exec_step(struct run_dev *d, struct run_logcat *lc,
    struct run_marks *m, const struct scenario_step *st, bool in_scene,
    double deadline, const char *scenario, int index);

#endif
