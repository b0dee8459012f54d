/*
 * logfmt_matrix.h: Tencent Matrix TraceCanary issues, as a PluginListener
 * logs them (docs/formats.md §1).
 *
 * An issue reaches logcat as Issue.toString():
 *
 *	tag[Trace_FPS]type[0];key[null];content[{"machine":"HIGH",...}]
 *
 * (type[null] on 0.5.x), logged at I by Matrix.DefaultPluginListener after
 * "report issue content: ", and at E by the sample's TestPluginListener.
 * The content is org.json output: keys in put() order, '/' escaped, whole
 * doubles without a fraction.  Three version shapes are modelled: 0.5.x,
 * 2.0.x and 2.1+ (enum appmodel_matrix).
 *
 * The FPS collector reproduces both FrameTracers: 0.5/2.0 count dropped
 * frames from the main thread's doFrame end and report every 10 s of
 * accumulated frame time; 2.1+ read FrameMetrics per frame, report per
 * scene after 10 s (or on pause) and only with more than 20 frames.
 */
#ifndef SIM_LOGFMT_MATRIX_H
#define SIM_LOGFMT_MATRIX_H

#include "appmodel.h"
#include "framegen.h"

struct strbuf;

#define LOGFMT_MATRIX_DEFAULT_TAG	"Matrix.DefaultPluginListener"
#define LOGFMT_MATRIX_TEST_TAG		"TestPluginListener"
/* The method id Matrix gives Handler.dispatchMessage. */
#define LOGFMT_MATRIX_DISPATCH_ID	1048574

/* DeviceUtil.getDeviceInfo() and the process name. */
struct logfmt_matrix_device {
	const char *machine;	/* "BEST", "HIGH", "MIDDLE", "LOW", "BAD" */
	double cpu_app;
	long long mem;		/* bytes */
	long long mem_free;	/* KB */
	const char *process;
};

/*
 * Append Issue.toString() for an issue of `tag` with JSON `content`;
 * `key` NULL prints "null".
 */
void logfmt_matrix_issue(struct strbuf *out, enum appmodel_matrix v,
    const char *tag, const char *key, const char *content);

/* Frames of one scene on their way to a Trace_FPS report. */
struct logfmt_matrix_fps {
	enum appmodel_matrix version;
	int sdk;
	long long interval_ns;
	long long begin_ns;	/* first frame's start */
	long long last_ns;	/* last frame's end */
	unsigned int frames;
	unsigned int level[5];	/* BEST, NORMAL, MIDDLE, HIGH, FROZEN */
	unsigned int sum[5];
	long long dropped_total;
	double cost_ms;		/* 0.5/2.0: sum of (dropped+1)*period */
	double sum_total_ns;	/* 2.1: sum of max(TOTAL, interval) */
	long long dur[10];	/* 2.1: sums of the FrameMetrics durations */
};

/* Start collecting for a display of period `interval_ns`. */
void logfmt_matrix_fps_init(struct logfmt_matrix_fps *c,
    enum appmodel_matrix v, int sdk, long long interval_ns);

/* Count one frame. */
void logfmt_matrix_fps_add(struct logfmt_matrix_fps *c,
    const struct framegen_frame *f);

/* Has the collector reached its 10 s reporting slice? */
int logfmt_matrix_fps_due(const struct logfmt_matrix_fps *c);

/*
 * Append the Trace_FPS content of the collected frames and start over.
 * Returns 1 when a report was made, 0 when there was nothing to report
 * (no frames; 2.1+: 20 frames or fewer, which Matrix drops).
 */
int logfmt_matrix_fps_report(struct logfmt_matrix_fps *c, struct strbuf *out,
    const struct logfmt_matrix_device *d, const char *scene,
    long long time_ms);

enum logfmt_matrix_detail {
	LOGFMT_MATRIX_NORMAL,
	LOGFMT_MATRIX_ANR,
	LOGFMT_MATRIX_STARTUP,
	LOGFMT_MATRIX_LAG,
	LOGFMT_MATRIX_SIGNAL_ANR,
	LOGFMT_MATRIX_SIGNAL_ANR_NATIVE_BACKTRACE,
	LOGFMT_MATRIX_LAG_IDLE_HANDLER,
	LOGFMT_MATRIX_LAG_TOUCH,
	LOGFMT_MATRIX_PRIORITY_MODIFIED,
	LOGFMT_MATRIX_TIMERSLACK_MODIFIED,
};

/* The fields a Trace_EvilMethod may carry; each detail uses some. */
struct logfmt_matrix_evil {
	enum logfmt_matrix_detail detail;
	long long cost_ms;
	const char *scene;
	const char *stack;	/* "depth,id,count,cost\n" lines */
	const char *stack_key;
	const char *thread_stack;
	double cpu_usage;	/* NORMAL on 0.5/2.0: printed as "95.65%" */
	int priority, nice, timer_slack;
	int foreground;
	long long dalvik_kb, native_kb, vm_kb;	/* ANR memory */
	int sub_type;		/* STARTUP: 1 cold, 2 warm */
};

/*
 * Append the Trace_EvilMethod content of `e` with the keys and order of
 * version `v` (docs/formats.md §1.4).
 */
void logfmt_matrix_evil(struct strbuf *out, enum appmodel_matrix v,
    const struct logfmt_matrix_device *d, const struct logfmt_matrix_evil *e,
    long long time_ms);

/* The phases of a start, for Trace_StartUp (docs/formats.md §1.5). */
struct logfmt_matrix_startup {
	long long app_create_ms;
	int scene;		/* 159 on API 28+, else 100 */
	long long first_activity_ms;
	long long duration_ms;
	int warm;
};

/* Append the Trace_StartUp content. */
void logfmt_matrix_startup(struct strbuf *out,
    const struct logfmt_matrix_device *d,
    const struct logfmt_matrix_startup *s, long long time_ms);

/*
 * The method-trace stack of a message of `cost_ms` whose calls are the
 * Matrix method ids `ids` (outermost first): the dispatchMessage root,
 * then one line per id, each a little cheaper than its caller, costs in
 * steps of 5 ms.  Appends the stack to `stack` and its key to `key`
 * ("243|" on 2.x, every heavy id "1|2|" on 0.5).
 */
void logfmt_matrix_trace(struct strbuf *stack, struct strbuf *key,
    enum appmodel_matrix v, long long cost_ms, const int *ids, size_t nr);

/*
 * The threadStack of a LAG issue (each frame then "\n") or, with `anr`,
 * of an ANR (" \n" then "|*\t\tat <class>:<method>(<line>)\n" for frames
 * 3 to 11, as Utils.getStack prints them).
 */
void logfmt_matrix_thread_stack(struct strbuf *out, int anr,
    const char *const *frames, size_t nr);

/*
 * Java's Double.toString as org.json prints a number: "60" for whole
 * values, else the shortest digits that read back ("57.41302490234375").
 */
void logfmt_matrix_number(struct strbuf *out, double d);

#endif
