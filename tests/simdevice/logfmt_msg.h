/*
 * logfmt_msg.h: the texts of the log messages the simulated phone emits.
 *
 * Each function appends one log entry's message (possibly multi-line) to
 * `out` and, where the tag or priority depends on the API level or the
 * values, returns them; the caller adds the entry to a logfmt_buf with the
 * right pid (system_server for ActivityManager lines, the app otherwise).
 * Formats are docs/formats.md §3.3 (Displayed), 3.4 (Choreographer), 4
 * (xanderwang/performance), 6.1 (FPSAnalyzer) and 6.2 (MethodTraceMan),
 * plus the framework's crash and ANR reports.  Matrix has its own file,
 * logfmt_matrix.h.
 */
#ifndef SIM_LOGFMT_MSG_H
#define SIM_LOGFMT_MSG_H

struct strbuf;

/* Choreographer's default debug.choreographer.skipwarning. */
#define LOGFMT_SKIP_WARNING	30

/*
 * TimeUtils.formatDuration: "+1s234ms", "+1m0s0ms", "+456ms", "0"; no
 * zero padding, smaller fields printed once a larger one was.
 */
void logfmt_msg_duration(struct strbuf *out, long long ms);

/*
 * "Displayed <pkg/.Act>: +412ms", with " (total +Xms)" on API <= 28 when
 * this_ms != total_ms and " for user 0" on 34.  Returns the tag
 * ("ActivityManager" up to 28, "ActivityTaskManager" after); priority I.
 */
const char *logfmt_msg_displayed(struct strbuf *out, int sdk,
    const char *package, const char *activity, long long this_ms,
    long long total_ms);

/* "Fully drawn <pkg/.Act>: +1s966ms"; returns the tag as above. */
const char *logfmt_msg_fully_drawn(struct strbuf *out, int sdk,
    const char *package, const char *activity, long long ms);

/* Choreographer's "Skipped N frames!  The application may be ..." (I). */
void logfmt_msg_skipped(struct strbuf *out, int frames);

/*
 * AndroidRuntime's crash report (tag "AndroidRuntime", priority E, one
 * entry): "FATAL EXCEPTION: <thread>", "Process: <p>, PID: <pid>", the
 * exception line and "\tat <frame>" lines.
 */
void logfmt_msg_crash(struct strbuf *out, const char *thread,
    const char *process, int pid, const char *exception,
    const char *const *frames, int nr_frames);

/*
 * ActivityManager's ANR report (tag "ActivityManager", E, from
 * system_server): "ANR in <process> (<pkg/.Act>)", PID, Reason and a
 * short load/CPU summary.
 */
void logfmt_msg_anr(struct strbuf *out, const char *process,
    const char *package, const char *activity, int pid, const char *reason);

/*
 * xanderwang/performance Issue.print(): "\n====...\ntype: <type>\nmsg:
 * <msg>\ncreate time: <yyyyMMdd_HHmmss_SSS>\n" then `extra` lines, then
 * "trace:" and "\t<frame>" lines.  `wall_ms` is the device's local time
 * in ms.  Tag "<globalTag>_Issue", priority W.
 */
void logfmt_msg_perf_issue(struct strbuf *out, const char *type,
    const char *msg, long long wall_ms, const char *const *extra,
    int nr_extra, const char *const *frames, int nr_frames);

/*
 * "APP FPS is: %-3sHz"; returns the priority: 'E' at 50 fps or less,
 * else 'W'.  Tag "<globalTag>_FPSTool".
 */
char logfmt_msg_perf_fps(struct strbuf *out, int fps);

/*
 * FPSAnalyzer's line for one Choreographer frame message of `used_ms`;
 * returns the priority ('E' over 40 ms, with "(>40)", else 'I').  Tag
 * "FPSAnalyzer".  `activity` NULL prints UNKNOWN.
 */
char logfmt_msg_fpsanalyzer(struct strbuf *out, long long used_ms,
    const char *package, const char *activity);

/* MethodTraceMan's "<name>  <cost>ms [主线程]" (tag "costTime", I). */
void logfmt_msg_traceman(struct strbuf *out, const char *method,
    long long cost_ms, int main_thread);

#endif
