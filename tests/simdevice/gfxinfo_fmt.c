/*
 * gfxinfo_fmt.c: hwui's frame statistics and their dump, per API level.
 *
 * The histogram is hwui's: 57 buckets of 1, 2 and 4 ms from 5 to 133 ms,
 * then 97 "slow" buckets of 50 ms from 150 to 4950 ms; percentiles are
 * read from it by walking down from the slowest bucket, which is why an
 * empty histogram reports 4950ms.  The GPU histogram has 1 ms buckets up
 * to 25 ms and one 4950ms bucket for the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "gfxinfo_fmt.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define NR_BUCKETS	57
#define NR_SLOW		97
#define NR_GPU		26
#define SLOW_START_MS	150
#define SLOW_STEP_MS	50
#define RING_SIZE	120
#define MS		1000000LL

enum jank_type {
	JANK_MISSED_VSYNC,
	JANK_HIGH_INPUT_LATENCY,
	JANK_SLOW_UI,
	JANK_SLOW_BITMAP,
	JANK_SLOW_ISSUE,
	JANK_DEADLINE,
	JANK_DEADLINE_LEGACY,
	NR_JANK_TYPES
};

static const char *const jank_names[NR_JANK_TYPES] = {
	"Missed Vsync", "High input latency", "Slow UI thread",
	"Slow bitmap uploads", "Slow issue draw commands",
	"Frame deadline missed", "Frame deadline missed (legacy)",
};

/* One ProfileData: what a summary block prints. */
struct gfx_stats {
	long long since_ns;
	unsigned int total, janky, janky_legacy;
	unsigned int jank[NR_JANK_TYPES];
	unsigned int buckets[NR_BUCKETS];
	unsigned int slow[NR_SLOW];
	unsigned int gpu[NR_GPU];
};

struct gfx_window {
	char *activity;
	unsigned int hash;		/* the ViewRootImpl@%x identity */
	struct gfx_stats stats;
	struct framegen_frame ring[RING_SIZE];
	size_t ring_next, ring_len;
};

struct gfx_state {
	int sdk, pid;
	char *package;
	struct gfx_stats stats;		/* process-wide */
	struct gfx_window *windows;
	size_t nr_windows, alloc_windows;
	const char *top;		/* activity of the newest frame */
	struct framegen_frame *pending;	/* added, not completed yet */
	size_t nr_pending, alloc_pending;
};

/* The bucket of a frame of `ms` whole milliseconds, or -1 for slow ones. */
int
gfx_bucket_index(long long ms)
{
	long long x = ms;

	if (ms <= 5)
		return 0;
	if (ms >= 136)
		return -1;
	/* Halve the resolution above 48 ms, then again above 32 ms. */
	if (x > 48)
		x = 48 + (x - 48) / 2;
	if (x > 32)
		x = 32 + (x - 32) / 2;
	return (int)(x - 5);
}

/* The label, in ms, of bucket `i` (5 .. 32, 34 .. 48, 53 .. 133). */
unsigned int
gfx_bucket_label(int i)
{
	unsigned int x = (unsigned int)i + 5;

	if (x > 32)
		x += x - 32;
	if (x > 48)
		x += x - 48 + 1;
	return x;
}

int
gfx_slow_index(long long ms)
{
	long long i = ms < SLOW_START_MS ? 0 :
	    (ms - SLOW_START_MS) / SLOW_STEP_MS;

	return i >= NR_SLOW ? NR_SLOW - 1 : (int)i;
}

/* The framework's percentile: walk down from the slowest bucket. */
static unsigned int
percentile(const struct gfx_stats *s, unsigned int p)
{
	long long remaining = s->total - (long long)p * s->total / 100;
	int i;

	for (i = NR_SLOW - 1; i >= 0; i--) {
		remaining -= s->slow[i];
		if (remaining <= 0)
			return (unsigned int)(SLOW_START_MS + i * SLOW_STEP_MS);
	}
	for (i = NR_BUCKETS - 1; i >= 0; i--) {
		remaining -= s->buckets[i];
		if (remaining <= 0)
			return gfx_bucket_label(i);
	}
	return 0;
}

static unsigned int
gpu_label(int i)
{
	return i == NR_GPU - 1 ? 4950 : (unsigned int)i + 1;
}

static unsigned int
gpu_percentile(const struct gfx_stats *s, unsigned int p)
{
	long long remaining = s->total - (long long)p * s->total / 100;
	int i;

	for (i = NR_GPU - 1; i >= 0; i--) {
		remaining -= s->gpu[i];
		if (remaining <= 0)
			return gpu_label(i);
	}
	return 0;
}

/* The RenderThread was still on the previous frame: triple buffering. */
static int
triple_buffered(const struct framegen_frame *f)
{
	return f->sync_start - f->sync_queued > f->frame_interval / 10;
}

static void
stats_add(struct gfx_stats *s, int sdk, const struct framegen_frame *f)
{
	long long dur = framegen_duration(f), iv = f->frame_interval;
	long long end = f->gpu_completed > f->frame_completed ?
	    f->gpu_completed : f->frame_completed;
	long long deadline = f->frame_deadline;
	long long ms = dur / MS, gpu_ms;
	int legacy, janky, b;

	s->total++;
	b = gfx_bucket_index(ms);
	if (b >= 0)
		s->buckets[b]++;
	else
		s->slow[gfx_slow_index(ms)]++;
	gpu_ms = (f->gpu_completed - f->swap_buffers) / MS;
	s->gpu[gpu_ms < NR_GPU - 1 ? gpu_ms : NR_GPU - 1]++;

	legacy = sdk <= 25 ? dur >= iv : dur > iv;
	if (sdk >= 31) {
		if (triple_buffered(f))
			deadline += iv;
		janky = end >= deadline;
		s->janky_legacy += legacy;
		if (legacy && dur >= 2 * iv)
			s->jank[JANK_DEADLINE_LEGACY]++;
	} else
		janky = legacy;
	if (!janky)
		return;
	s->janky++;
	if (f->vsync - f->intended_vsync >= 1)
		s->jank[JANK_MISSED_VSYNC]++;
	if (sdk <= 25 ? f->oldest_input != FRAMEGEN_NO_INPUT &&
	    2 * (f->vsync - f->oldest_input) >= 3 * iv : triple_buffered(f))
		s->jank[JANK_HIGH_INPUT_LATENCY]++;
	if (2 * (f->sync_start - f->vsync) >= iv)
		s->jank[JANK_SLOW_UI]++;
	if (5 * (f->issue_draw_commands_start - f->sync_start) >= iv)
		s->jank[JANK_SLOW_BITMAP]++;
	if (4 * (f->frame_completed - f->issue_draw_commands_start) >= 3 * iv)
		s->jank[JANK_SLOW_ISSUE]++;
	if (sdk >= 31 || dur >= 2 * iv)
		s->jank[JANK_DEADLINE]++;
}

static void
stats_reset(struct gfx_stats *s, long long now_ns)
{
	memset(s, 0, sizeof(*s));
	s->since_ns = now_ns;
}

static void
janky_line(struct strbuf *out, const char *label, unsigned int n,
    unsigned int total, int sdk)
{
	strbuf_addf(out, "\n%s: %u (", label, n);
	/* N divides without a guard; later releases print 0.00%. */
	if (!total && sdk <= 25)
		strbuf_addstr(out, "nan");
	else
		strbuf_addf(out, "%.2f", total ? 100.0 * n / total : 0.0);
	strbuf_addstr(out, "%)");
}

/* One summary block (ProfileData::dump), each line '\n'-prefixed. */
static void
stats_dump(const struct gfx_stats *s, int sdk, struct strbuf *out)
{
	static const unsigned int pct[] = { 50, 90, 95, 99 };
	int i, nr_types = sdk >= 31 ? 7 : sdk >= 26 ? 6 : 5;

	strbuf_addf(out, "\nStats since: %lldns", s->since_ns);
	strbuf_addf(out, "\nTotal frames rendered: %u", s->total);
	janky_line(out, "Janky frames", s->janky, s->total, sdk);
	if (sdk >= 31)
		janky_line(out, "Janky frames (legacy)", s->janky_legacy,
		    s->total, sdk);
	for (i = 0; i < 4; i++)
		strbuf_addf(out, "\n%uth percentile: %ums", pct[i],
		    percentile(s, pct[i]));
	for (i = 0; i < nr_types; i++)
		strbuf_addf(out, "\nNumber %s: %u", jank_names[i], s->jank[i]);
	strbuf_addstr(out, "\nHISTOGRAM:");
	for (i = 0; i < NR_BUCKETS; i++)
		strbuf_addf(out, " %ums=%u", gfx_bucket_label(i), s->buckets[i]);
	for (i = 0; i < NR_SLOW; i++)
		strbuf_addf(out, " %dms=%u", SLOW_START_MS + i * SLOW_STEP_MS,
		    s->slow[i]);
	if (sdk < 30)
		return;
	for (i = 0; i < 4; i++)
		strbuf_addf(out, "\n%uth gpu percentile: %ums", pct[i],
		    gpu_percentile(s, pct[i]));
	strbuf_addstr(out, "\nGPU HISTOGRAM:");
	for (i = 0; i < NR_GPU; i++)
		strbuf_addf(out, " %ums=%u", gpu_label(i), s->gpu[i]);
}

/* FrameInfo fields, in the data order of the newest layout. */
enum col {
	C_FLAGS, C_VSYNC_ID, C_INTENDED, C_VSYNC, C_OLDEST, C_NEWEST,
	C_INPUT_ID, C_HANDLE_INPUT, C_ANIM, C_TRAVERSALS, C_DRAW,
	C_DEADLINE, C_START_TIME, C_INTERVAL, C_SYNC_QUEUED, C_SYNC_START,
	C_ISSUE, C_SWAP, C_COMPLETED, C_DEQUEUE, C_QUEUE, C_GPU,
	C_SWAP_COMPLETED, C_PRESENT, C_CMD_SUBMIT, C_END
};

static const enum col cols_24[] = {
	C_FLAGS, C_INTENDED, C_VSYNC, C_OLDEST, C_NEWEST, C_HANDLE_INPUT,
	C_ANIM, C_TRAVERSALS, C_DRAW, C_SYNC_QUEUED, C_SYNC_START, C_ISSUE,
	C_SWAP, C_COMPLETED, C_END,
	/* 25..29 append these, 30 also GpuCompleted */
	C_DEQUEUE, C_QUEUE, C_GPU, C_END
};

static const enum col cols_31[] = {
	C_FLAGS, C_VSYNC_ID, C_INTENDED, C_VSYNC, C_INPUT_ID, C_HANDLE_INPUT,
	C_ANIM, C_TRAVERSALS, C_DRAW, C_DEADLINE, C_START_TIME, C_INTERVAL,
	C_SYNC_QUEUED, C_SYNC_START, C_ISSUE, C_SWAP, C_COMPLETED, C_DEQUEUE,
	C_QUEUE, C_GPU, C_SWAP_COMPLETED, C_PRESENT, C_CMD_SUBMIT, C_END
};

static const char *const col_names[] = {
	"Flags", "FrameTimelineVsyncId", "IntendedVsync", "Vsync",
	"OldestInputEvent", "NewestInputEvent", "InputEventId",
	"HandleInputStart", "AnimationStart", "PerformTraversalsStart",
	"DrawStart", "FrameDeadline", "FrameStartTime", "FrameInterval",
	"SyncQueued", "SyncStart", "IssueDrawCommandsStart", "SwapBuffers",
	"FrameCompleted", "DequeueBufferDuration", "QueueBufferDuration",
	"GpuCompleted", "SwapBuffersCompleted", "DisplayPresentTime",
	"CommandSubmissionCompleted",
};

/* The columns of API `sdk`, in print order; returns how many. */
static size_t
columns(int sdk, enum col *out)
{
	size_t n = 0, i;

	if (sdk >= 31) {
		for (i = 0; cols_31[i] != C_END; i++)
			out[n++] = cols_31[i];
		/* CommandSubmissionCompleted arrived in 13. */
		return sdk >= 33 ? n : n - 1;
	}
	for (i = 0; cols_24[i] != C_END; i++)
		out[n++] = cols_24[i];
	if (sdk >= 25) {
		out[n++] = C_DEQUEUE;
		out[n++] = C_QUEUE;
	}
	if (sdk >= 30)
		out[n++] = C_GPU;
	return n;
}

/*
 * The header name of a column.  On 31..34 the names of the data columns
 * FrameStartTime and FrameInterval are swapped (docs/formats.md §3.1: the label
 * swap).
 */
static const char *
column_label(int sdk, enum col c)
{
	if (sdk >= 31 && c == C_START_TIME)
		return col_names[C_INTERVAL];
	if (sdk >= 31 && c == C_INTERVAL)
		return col_names[C_START_TIME];
	return col_names[c];
}

static long long
column_value(const struct framegen_frame *f, enum col c)
{
	switch (c) {
	case C_FLAGS: return f->flags;
	case C_VSYNC_ID: return f->vsync_id;
	case C_INTENDED: return f->intended_vsync;
	case C_VSYNC: return f->vsync;
	case C_OLDEST: return f->oldest_input;
	case C_NEWEST: return f->newest_input;
	case C_INPUT_ID: return f->input_event_id;
	case C_HANDLE_INPUT: return f->handle_input_start;
	case C_ANIM: return f->animation_start;
	case C_TRAVERSALS: return f->perform_traversals_start;
	case C_DRAW: return f->draw_start;
	case C_DEADLINE: return f->frame_deadline;
	case C_START_TIME: return f->frame_start;
	case C_INTERVAL: return f->frame_interval;
	case C_SYNC_QUEUED: return f->sync_queued;
	case C_SYNC_START: return f->sync_start;
	case C_ISSUE: return f->issue_draw_commands_start;
	case C_SWAP: return f->swap_buffers;
	case C_COMPLETED: return f->frame_completed;
	case C_DEQUEUE: return f->dequeue_buffer_duration;
	case C_QUEUE: return f->queue_buffer_duration;
	case C_GPU: return f->gpu_completed;
	case C_SWAP_COMPLETED: return f->swap_buffers_completed;
	case C_PRESENT: return f->display_present_time;
	case C_CMD_SUBMIT: return f->command_submission_completed;
	case C_END: break;
	}
	return 0;
}

static void
profiledata_dump(const struct gfx_window *w, int sdk, struct strbuf *out)
{
	enum col cols[C_END];
	size_t nr = columns(sdk, cols), i, k;
	size_t first = (w->ring_next + RING_SIZE - w->ring_len) % RING_SIZE;

	strbuf_addstr(out, "\n\n---PROFILEDATA---\n");
	for (k = 0; k < nr; k++)
		strbuf_addf(out, "%s,", column_label(sdk, cols[k]));
	for (i = 0; i < w->ring_len; i++) {
		const struct framegen_frame *f = &w->ring[(first + i) %
		    RING_SIZE];

		if (!f->sync_start)
			continue;
		strbuf_addch(out, '\n');
		for (k = 0; k < nr; k++)
			strbuf_addf(out, "%lld,", column_value(f, cols[k]));
	}
	strbuf_addstr(out, "\n---PROFILEDATA---\n\n");
}

/* A stable stand-in for the ViewRootImpl's identity hash. */
static unsigned int
name_hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h & 0x0fffffff;
}

struct gfx_state *
gfx_state_new(int sdk, const char *package, int pid, long long now_ns)
{
	struct gfx_state *st = xcalloc(1, sizeof(*st));

	st->sdk = sdk;
	st->pid = pid;
	st->package = xstrdup(package);
	stats_reset(&st->stats, now_ns);
	return st;
}

void
gfx_state_free(struct gfx_state *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nr_windows; i++)
		free(st->windows[i].activity);
	free(st->windows);
	free(st->pending);
	free(st->package);
	free(st);
}

static struct gfx_window *
find_window(struct gfx_state *st, const char *activity)
{
	size_t i;

	for (i = 0; i < st->nr_windows; i++)
		if (!strcmp(st->windows[i].activity, activity))
			return &st->windows[i];
	return NULL;
}

static struct gfx_window *
window_for(struct gfx_state *st, const char *activity, long long since)
{
	struct gfx_window *w = find_window(st, activity);

	if (w)
		return w;
	XALLOC_GROW(st->windows, st->nr_windows + 1, st->alloc_windows);
	w = &st->windows[st->nr_windows++];
	memset(w, 0, sizeof(*w));
	w->activity = xstrdup(activity);
	w->hash = name_hash(activity);
	stats_reset(&w->stats, since);
	return w;
}

void
gfx_add_frame(struct gfx_state *st, const struct framegen_frame *f)
{
	XALLOC_GROW(st->pending, st->nr_pending + 1, st->alloc_pending);
	st->pending[st->nr_pending++] = *f;
}

/* Fold every pending frame completed by `now_ns` into the statistics. */
static void
commit(struct gfx_state *st, long long now_ns)
{
	size_t i, keep = 0;

	for (i = 0; i < st->nr_pending; i++) {
		struct framegen_frame *f = &st->pending[i];
		struct gfx_window *w;

		if (f->frame_completed > now_ns) {
			st->pending[keep++] = *f;
			continue;
		}
		w = window_for(st, f->activity, f->intended_vsync);
		stats_add(&st->stats, st->sdk, f);
		stats_add(&w->stats, st->sdk, f);
		w->ring[w->ring_next] = *f;
		w->ring_next = (w->ring_next + 1) % RING_SIZE;
		if (w->ring_len < RING_SIZE)
			w->ring_len++;
		/* Borrow the window's copy: the frame's may be freed. */
		st->top = w->activity;
	}
	st->nr_pending = keep;
}

void
gfx_close_window(struct gfx_state *st, const char *activity)
{
	struct gfx_window *w = find_window(st, activity);
	size_t i;

	if (!w)
		return;
	if (st->top == w->activity)
		st->top = NULL;
	free(w->activity);
	i = (size_t)(w - st->windows);
	memmove(w, w + 1, (st->nr_windows - i - 1) * sizeof(*w));
	st->nr_windows--;
}

void
gfx_parse_args(int sdk, int argc, const char *const *argv,
    const char **package, unsigned int *flags)
{
	int i, any = 0;

	*package = NULL;
	*flags = 0;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "framestats") || (sdk >= 28 && !strcmp(a, "-a")))
			*flags |= GFX_FRAMESTATS;
		else if (!strcmp(a, "reset"))
			*flags |= GFX_RESET;
		else {
			/*
			 * The first other word names the package; AMS eats it.
			 */
			if (a[0] != '-' && !*package)
				*package = a;
			continue;
		}
		any = 1;
	}
	if (!any && sdk >= 28)
		*flags = GFX_FRAMESTATS;
}

void
gfx_dump_header(struct strbuf *out, long long uptime_ms,
    long long realtime_ms)
{
	strbuf_addf(out, "Applications Graphics Acceleration Info:\n"
	    "Uptime: %lld Realtime: %lld\n", uptime_ms, realtime_ms);
}

void
gfx_dump_no_process(struct strbuf *out, const char *package)
{
	strbuf_addf(out, "No process found for: %s\n", package);
}

/* The memory part between the summary and the windows; parsers skip it. */
static void
memory_dump(int sdk, struct strbuf *out)
{
	if (sdk >= 28) {
		strbuf_addstr(out, "\n\nPipeline=Skia (OpenGL)\n"
		    "CPU Caches:\n"
		    "  Glyph Cache: 31.52 KB (of 4.00 MB)\n"
		    "  Glyph Count: 11\n"
		    "Total CPU memory usage:\n"
		    "  31.52 KB (of 4.00 MB)\n"
		    "GPU Caches:\n"
		    "  Other:\n"
		    "    Other: 2.16 KB (1 entry)\n"
		    "  Image:\n"
		    "    Texture: 1.23 MB (4 entries)\n"
		    "Total GPU memory usage:\n"
		    "  1.23 MB (of 36.00 MB)\n\n");
		return;
	}
	strbuf_addstr(out, "\n\nCaches:\n"
	    "Current memory usage / total memory usage (bytes):\n"
	    "  TextureCache          1290240 / 75497472\n"
	    "  LayerCache                  0 / 50331648 (numLayers = 0)\n"
	    "  RenderBufferCache           0 /  8388608\n"
	    "  GradientCache               0 /  1048576\n"
	    "  PathCache                   0 / 33554432\n"
	    "  TessellationCache           0 /  1048576\n"
	    "  TextDropShadowCache         0 /  6291456\n"
	    "  PatchCache                  0 /   131072\n"
	    "  FontRenderer A8        1048576 /  1048576\n"
	    "Other:\n"
	    "  FboCache                    0 /        0\n"
	    "Total memory usage:\n"
	    "  2338816 bytes, 2.23 MB\n\n");
}

static void
window_line(const struct gfx_state *st, const struct gfx_window *w,
    struct strbuf *out)
{
	strbuf_addf(out, "%s/%s/android.view.ViewRootImpl@%x", st->package,
	    w->activity, w->hash);
}

void
gfx_dump_process(struct gfx_state *st, struct strbuf *out,
    unsigned int flags, long long now_ns)
{
	size_t i;
	int framestats = flags & GFX_FRAMESTATS;

	commit(st, now_ns);
	strbuf_addf(out, "\n** Graphics info for pid %d [%s] **\n", st->pid,
	    st->package);
	stats_dump(&st->stats, st->sdk, out);
	memory_dump(st->sdk, out);
	strbuf_addstr(out, "Profile data in ms:\n");
	for (i = 0; i < st->nr_windows; i++) {
		const struct gfx_window *w = &st->windows[i];

		strbuf_addstr(out, "\n\t");
		window_line(st, w, out);
		strbuf_addf(out, " (visibility=%d)",
		    st->top == w->activity ? 0 : 8);
		if (!framestats)
			continue;
		if (st->sdk >= 26) {
			strbuf_addf(out, "\nWindow: %s/%s", st->package,
			    w->activity);
			stats_dump(&w->stats, st->sdk, out);
		}
		profiledata_dump(w, st->sdk, out);
	}
	strbuf_addstr(out, "\nView hierarchy:\n\n");
	for (i = 0; i < st->nr_windows; i++) {
		strbuf_addstr(out, "  ");
		window_line(st, &st->windows[i], out);
		strbuf_addf(out, "\n  68 views, 115.76 kB of %s\n",
		    st->sdk >= 26 ? "render nodes" : "display lists");
	}
	if (st->sdk >= 26)
		strbuf_addf(out, "\n\nTotal %-15s: %zu\nTotal %-15s: %zu\n"
		    "Total %-15s: %.2f kB (used) / %.2f kB (capacity)\n\n",
		    "ViewRootImpl", st->nr_windows, "attached Views",
		    68 * st->nr_windows, "RenderNode",
		    115.76 * (double)st->nr_windows,
		    732.03 * (double)st->nr_windows);
	else
		strbuf_addf(out, "\n\nTotal ViewRootImpl: %zu\n"
		    "Total Views:        %zu\n"
		    "Total DisplayList:  %.2f kB\n\n", st->nr_windows,
		    68 * st->nr_windows, 115.76 * (double)st->nr_windows);

	if (!(flags & GFX_RESET))
		return;
	stats_reset(&st->stats, now_ns);
	for (i = 0; i < st->nr_windows; i++) {
		stats_reset(&st->windows[i].stats, now_ns);
		st->windows[i].ring_len = st->windows[i].ring_next = 0;
	}
}
