/*
 * logfmt_msg.c: message texts of the framework and of the smaller device
 * libraries, byte for byte as their format strings build them.
 */
#include <stdio.h>
#include <time.h>

#include "appmodel.h"
#include "logfmt_msg.h"
#include "strbuf.h"
#include "banned.h"

void
logfmt_msg_duration(struct strbuf *out, long long ms)
{
	static const struct {
		long long unit;
		const char *suffix;
	} fields[] = {
		{ 86400000, "d" }, { 3600000, "h" }, { 60000, "m" },
		{ 1000, "s" }, { 1, "ms" },
	};
	int printed = 0;
	size_t i;

	if (!ms) {
		strbuf_addch(out, '0');
		return;
	}
	strbuf_addch(out, ms < 0 ? '-' : '+');
	if (ms < 0)
		ms = -ms;
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		long long n = ms / fields[i].unit;

		ms %= fields[i].unit;
		/* Once a larger field is printed, the rest follow even if 0. */
		if (n || printed) {
			strbuf_addf(out, "%lld%s", n, fields[i].suffix);
			printed = 1;
		}
	}
}

static const char *
am_tag(int sdk)
{
	return sdk <= 28 ? "ActivityManager" : "ActivityTaskManager";
}

const char *
logfmt_msg_displayed(struct strbuf *out, int sdk, const char *package,
    const char *activity, long long this_ms, long long total_ms)
{
	strbuf_addstr(out, "Displayed ");
	appmodel_short_component(out, package, activity);
	if (sdk >= 34)
		strbuf_addstr(out, " for user 0");
	strbuf_addstr(out, ": ");
	logfmt_msg_duration(out, this_ms);
	if (sdk <= 28 && this_ms != total_ms) {
		strbuf_addstr(out, " (total ");
		logfmt_msg_duration(out, total_ms);
		strbuf_addch(out, ')');
	}
	return am_tag(sdk);
}

const char *
logfmt_msg_fully_drawn(struct strbuf *out, int sdk, const char *package,
    const char *activity, long long ms)
{
	strbuf_addstr(out, "Fully drawn ");
	appmodel_short_component(out, package, activity);
	strbuf_addstr(out, ": ");
	logfmt_msg_duration(out, ms);
	return am_tag(sdk);
}

void
logfmt_msg_skipped(struct strbuf *out, int frames)
{
	strbuf_addf(out, "Skipped %d frames!  The application may be doing "
	    "too much work on its main thread.", frames);
}

void
logfmt_msg_crash(struct strbuf *out, const char *thread, const char *process,
    int pid, const char *exception, const char *const *frames, int nr_frames)
{
	int i;

	strbuf_addf(out, "FATAL EXCEPTION: %s\nProcess: %s, PID: %d\n%s",
	    thread, process, pid, exception);
	for (i = 0; i < nr_frames; i++)
		strbuf_addf(out, "\n\tat %s", frames[i]);
}

void
logfmt_msg_anr(struct strbuf *out, const char *process, const char *package,
    const char *activity, int pid, const char *reason)
{
	strbuf_addf(out, "ANR in %s (", process);
	appmodel_short_component(out, package, activity);
	strbuf_addf(out, ")\nPID: %d\nReason: %s\n"
	    "Load: 4.2 / 3.9 / 3.1\n"
	    "CPU usage from 0ms to 5012ms later:\n"
	    "  61%% %d/%s: 55%% user + 6%% kernel\n"
	    "61%% TOTAL: 50%% user + 9%% kernel + 2%% iowait", pid, reason,
	    pid, process);
}

void
logfmt_msg_perf_issue(struct strbuf *out, const char *type, const char *msg,
    long long wall_ms, const char *const *extra, int nr_extra,
    const char *const *frames, int nr_frames)
{
	time_t t = (time_t)(wall_ms / 1000);
	struct tm tm;
	char stamp[32];
	int i;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", &tm);
	strbuf_addf(out, "\n=================================================\n"
	    "type: %s\nmsg: %s\ncreate time: %s_%03lld\n", type, msg, stamp,
	    wall_ms % 1000);
	for (i = 0; i < nr_extra; i++)
		strbuf_addf(out, "%s\n", extra[i]);
	strbuf_addstr(out, "trace:\n");
	for (i = 0; i < nr_frames; i++)
		strbuf_addf(out, "\t%s\n", frames[i]);
}

char
logfmt_msg_perf_fps(struct strbuf *out, int fps)
{
	char num[16];

	/* Kotlin's String.format("%-3s", fps) pads the decimal text. */
	snprintf(num, sizeof(num), "%d", fps);
	strbuf_addf(out, "APP FPS is: %-3sHz", num);
	return fps <= 50 ? 'E' : 'W';
}

char
logfmt_msg_fpsanalyzer(struct strbuf *out, long long used_ms,
    const char *package, const char *activity)
{
	int slow = used_ms > 40;

	strbuf_addf(out, "FPSAnalyzer DISPATCH FRAME%s:%lld INFO:Handler "
	    "(android.view.Choreographer$FrameHandler) {b3e1f2} : "
	    "android.view.Choreographer$FrameDisplayEventReceiver:%s:%s",
	    slow ? "(>40)" : "", used_ms, package,
	    activity ? activity : "UNKNOWN");
	return slow ? 'E' : 'I';
}

void
logfmt_msg_traceman(struct strbuf *out, const char *method, long long cost_ms,
    int main_thread)
{
	strbuf_addf(out, "%s  %lldms [%s]", method, cost_ms,
	    main_thread ? "\u4e3b\u7ebf\u7a0b" : "\u975e\u4e3b\u7ebf\u7a0b");
}
