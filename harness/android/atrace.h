/*
 * atrace.h: the sections an app opens with android.os.Trace, as an
 * atrace capture prints them (atrace.c draws the text).
 */
#ifndef JG_ATRACE_H
#define JG_ATRACE_H

#include <stdbool.h>
#include <stddef.h>

/* One section whose name starts with the prefix asked for. */
struct atrace_section {
	char *name;		/* the rest of the name after the prefix */
	int pid, tid;		/* tid: the thread that opened it */
	bool async;		/* Trace.beginAsyncSection (S/F), else B/E */
	int cookie;		/* an async section's cookie */
	double begin_ms;	/* on the trace's clock, in ms */
	double end_ms;		/* NAN: the capture holds no end */
};

struct atrace_capture {
	struct atrace_section *sections;	/* in the order they began */
	size_t nr, alloc;
	/*
	 * atrace's clock-sync marker, written when the capture starts: the
	 * trace clock's time of the line and CLOCK_MONOTONIC's (parent_ts,
	 * printed from a float); NAN when the capture has none.
	 */
	double sync_trace_ms, sync_mono_ms;
	size_t orphan_ends;	/* B/E ends with no begin in the capture */
	bool overwritten;	/* the ring buffer dropped its oldest events */
	bool seen;		/* the text had a "TRACE:" line */
};

void atrace_capture_init(struct atrace_capture *c);
void atrace_capture_release(struct atrace_capture *c);

/*
 * Parse the output of `atrace --async_stop` (`len` bytes of `buf`) into
 * `c` (initialized), keeping the sections whose name starts with
 * `prefix` (a B/E stack per thread, so nested sections close in order;
 * S/F paired by process, name and cookie).  Lines that are no ftrace
 * event of interest are skipped.  Returns 0, or JG_ENOTFOUND when the
 * text has no "TRACE:" line (atrace printed an error instead); `c` holds
 * what was read either way.
 */
int atrace_parse(struct atrace_capture *c, const char *buf, size_t len,
    const char *prefix);

#endif
