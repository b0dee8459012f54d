/*
 * gfxinfo_fmt.h: `dumpsys gfxinfo <pkg> [framestats] [reset]` of one app.
 *
 * A gfx_state is what hwui keeps for one app process: the process-wide
 * frame statistics, one JankTracker per window (activity) with its own
 * statistics and the ring of its last 120 frames, all accumulated since
 * the last reset.  The output follows docs/formats.md §3.1 for the API
 * level the device claims (24..34):
 *
 *	Applications Graphics Acceleration Info:
 *	Uptime: 1234567 Realtime: 1234567
 *
 *	** Graphics info for pid 4242 [com.example.shop] **
 *
 *	Stats since: 1203000000ns              <- process summary
 *	Total frames rendered: 84
 *	Janky frames: 4 (4.76%)
 *	Janky frames (legacy): 6 (7.14%)       <- 31+
 *	50th percentile: 5ms  (90th, 95th, 99th)
 *	Number Missed Vsync: 1  (High input latency, Slow UI thread,
 *	    Slow bitmap uploads, Slow issue draw commands)
 *	Number Frame deadline missed: 4        <- 26+
 *	Number Frame deadline missed (legacy): 3   <- 31+
 *	HISTOGRAM: 5ms=10 6ms=2 ... 4950ms=0
 *	50th gpu percentile: 3ms ... GPU HISTOGRAM: 1ms=0 ... 4950ms=0  <- 30+
 *
 *	Pipeline=Skia (OpenGL) ...       <- memory dump (28+; Caches: before)
 *	Profile data in ms:
 *
 *		com.example.shop/com.example.shop.FeedActivity/android.view.ViewRootImpl@1a2b3c4 (visibility=0)
 *	Window: com.example.shop/com.example.shop.FeedActivity  <- 26+
 *	Stats since: ... (the same summary, for this window)
 *
 *	---PROFILEDATA---                       <- framestats
 *	Flags,IntendedVsync,...,
 *	0,10000000000,...,
 *	---PROFILEDATA---
 *
 *	View hierarchy: ... Total RenderNode ...
 *
 * Simulation rules where hwui's own logic is richer (documented in
 * APPMODEL.md too): a frame's duration is FrameCompleted - IntendedVsync;
 * up to API 30 a frame is janky when it exceeds the vsync period (reaches
 * it on 24/25); from 31 "Janky frames" is the deadline rule
 * (max(GpuCompleted, FrameCompleted) >= FrameDeadline, one period later
 * when triple-buffered) and the old rule is "(legacy)".  Triple-buffered
 * means the RenderThread was still busy when the frame was queued.
 * "Frame deadline missed" counts janky frames of two periods or more
 * (26..30) or the deadline-janky frames (31+).  Frames of 136..149 ms,
 * which hwui's bucket arithmetic mishandles, count in the 150ms bucket.
 * The memory dump and the "Total ..." trailer are plausible fillers (the
 * padded "Total %-15s" form from API 26 on is a guess); parsers skip them.
 */
#ifndef SIM_GFXINFO_FMT_H
#define SIM_GFXINFO_FMT_H

#include "framegen.h"

struct strbuf;
struct gfx_state;

enum {
	GFX_FRAMESTATS = 1 << 0,	/* "framestats" */
	GFX_RESET = 1 << 1,		/* "reset" */
};

/*
 * The graphics state of process `pid` of `package` on an API `sdk`
 * device, with statistics starting at `now_ns`.  Free with gfx_state_free
 * (NULL: no-op).
 */
struct gfx_state *gfx_state_new(int sdk, const char *package, int pid,
    long long now_ns);
void gfx_state_free(struct gfx_state *st);

/*
 * Hand a rendered frame to the state (copied; the window is the frame's
 * activity).  It counts from the first dump or reset whose `now_ns` is at
 * or after its FrameCompleted, so frames of a fling still running at a
 * dump are not in it yet.
 */
void gfx_add_frame(struct gfx_state *st, const struct framegen_frame *f);

/* The activity's window is gone (finished): drop its section. */
void gfx_close_window(struct gfx_state *st, const char *activity);

/*
 * Read the arguments after "gfxinfo": the package (or NULL when none is
 * given) and GFX_* flags.  "framestats" and "reset" in any order; "-a"
 * means framestats on API 28+; from API 28 no flag at all means framestats
 * (hwui's FLAG_DUMP_ALL, as the package name is not passed to the app).
 */
void gfx_parse_args(int sdk, int argc, const char *const *argv,
    const char **package, unsigned int *flags);

/* Append the two header lines (a process section starts with a blank line). */
void gfx_dump_header(struct strbuf *out, long long uptime_ms,
    long long realtime_ms);

/*
 * Append the section of one process as of `now_ns` (see the header
 * comment), then apply GFX_RESET: every count, histogram and ring is
 * cleared and "Stats since" becomes `now_ns`.
 */
void gfx_dump_process(struct gfx_state *st, struct strbuf *out,
    unsigned int flags, long long now_ns);

/* Append "No process found for: <package>\n". */
void gfx_dump_no_process(struct strbuf *out, const char *package);

/*
 * hwui's histogram: the bucket of a frame of `ms` whole milliseconds (-1
 * for the slow ones past 133 ms), the label in ms of bucket `i`, and the
 * index among the slow buckets (150 ms to 4950 ms by 50) of a slow frame.
 */
int gfx_bucket_index(long long ms);
unsigned int gfx_bucket_label(int i);
int gfx_slow_index(long long ms);

#endif
