/*
 * framegen.c: turning user actions into hwui frames.
 *
 * An action becomes one or two "spans": stretches of time during which
 * the app renders a frame on every vsync it can (the finger moving, a list
 * coasting, a ripple, an activity transition).  Each span is rendered tick
 * by tick against two clocks, when the main thread and the RenderThread
 * are next free, which is all it takes for long frames and blocks to push
 * later frames back exactly as on a phone.  Random draws happen in a fixed
 * order per action so the output depends only on the seed and the inputs.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "framegen.h"
#include "sim_rng.h"
#include "xalloc.h"
#include "banned.h"

#define MS		1000000LL
#define RIPPLE_MS	250	/* a tap's ripple after the finger lifts */
#define TRANSITION_MS	350	/* activity open/return animation */

/* Shares of a frame's work; the rest of the main thread's is drawing. */
#define SHARE_INPUT	0.03
#define SHARE_ANIM	0.05
#define SHARE_TRAVERSAL	0.22
#define SHARE_DRAW	0.15
#define SHARE_SYNC	0.08
#define SHARE_ISSUE	0.32
/* and swap takes the remaining 0.15 */
#define HANDOFF	20000	/* ns from SyncQueued to the RenderThread */

struct framegen {
	struct simrng rng;
	long long period;
	long long ui_free;	/* the main thread is busy until then */
	long long rt_free;	/* and the RenderThread */
	int prev_late;		/* the last frame missed its deadline */
};

/* A stretch of continuous rendering on one activity. */
struct span {
	const struct appmodel_activity *act;
	const struct appmodel_dist *dist;
	long long from, to;	/* frames are requested for ticks in these */
	long long input_to;	/* frames requested before this have input */
	unsigned int first_flags;
};

/* A block waiting for the first frame requested at or after `at`. */
struct pending_block {
	const struct appmodel_block *model;
	long long at;
	double ms;
};

struct framegen *
framegen_new(uint64_t seed, int refresh_hz)
{
	struct framegen *g = xcalloc(1, sizeof(*g));

	if (refresh_hz < 1)
		refresh_hz = 60;
	simrng_seed(&g->rng, seed);
	/* Choreographer truncates: 16666666, 11111111, 8333333. */
	g->period = 1000000000LL / refresh_hz;
	return g;
}

void
framegen_free(struct framegen *g)
{
	free(g);
}

long long
framegen_period_ns(const struct framegen *g)
{
	return g->period;
}

long long
framegen_duration(const struct framegen_frame *f)
{
	return f->frame_completed - f->intended_vsync;
}

void
framegen_out_release(struct framegen_out *out)
{
	free(out->frames);
	free(out->blocks);
	free(out->methods);
	memset(out, 0, sizeof(*out));
}

static long long
tick_at_or_before(const struct framegen *g, long long t)
{
	return t - t % g->period;
}

static long long
tick_at_or_after(const struct framegen *g, long long t)
{
	long long b = tick_at_or_before(g, t);

	return b == t ? t : b + g->period;
}

static long long
max_ll(long long a, long long b)
{
	return a > b ? a : b;
}

/* A frame's undisturbed duration in ns, drawn from `d`. */
static long long
draw_duration(struct framegen *g, const struct appmodel_dist *d)
{
	double ms = simrng_lognormal(&g->rng, d->median_ms, d->sigma);

	if (simrng_chance(&g->rng, d->spike_p))
		ms += d->spike_ms;
	return (long long)(ms * MS);
}

/*
 * SurfaceFlinger's verdict on a frame (API 31+'s FrameTimeline), in a
 * simplified, deterministic form (APPMODEL.md, "SurfaceFlinger"):
 *   - late by its deadline (max(GpuCompleted, FrameCompleted) after
 *     FrameDeadline): App Deadline Missed;
 *   - on time, but queued behind a late frame while the RenderThread was
 *     still busy with it: Buffer Stuffing;
 *   - otherwise, one frame in FRAMEGEN_SF_HAL_EVERY by vsync id: the
 *     display HAL presented it late.
 */
static void
classify_sf(struct framegen *g, struct framegen_frame *f)
{
	long long done = max_ll(f->gpu_completed, f->frame_completed);
	int late = done > f->frame_deadline;

	f->sf_jank = 0;
	if (late)
		f->sf_jank |= FRAMEGEN_SF_APP_DEADLINE;
	else if (g->prev_late && f->sync_start > f->sync_queued + HANDOFF)
		f->sf_jank |= FRAMEGEN_SF_BUFFER_STUFFING;
	else if (f->vsync_id % FRAMEGEN_SF_HAL_EVERY == 0)
		f->sf_jank |= FRAMEGEN_SF_DISPLAY_HAL;
	g->prev_late = late;
}

/*
 * Lay out one frame requested for tick `t` whose main-thread message
 * starts at `s` and costs `dur` ns undisturbed, plus `block_ns` of a
 * block inside its traversal.
 */
static void
lay_out(struct framegen *g, struct framegen_frame *f, long long t,
    long long s, long long dur, long long block_ns, const long long *x)
{
	long long lat = dur / 20 < MS / 2 ? dur / 20 : MS / 2;
	long long work = dur - lat;
	long long in = (long long)(work * SHARE_INPUT);
	long long an = (long long)(work * SHARE_ANIM);
	long long tr = (long long)(work * SHARE_TRAVERSAL);
	long long dr = (long long)(work * SHARE_DRAW);
	long long sy = (long long)(work * SHARE_SYNC);
	long long is = (long long)(work * SHARE_ISSUE);
	/* Swap gets the rest, so an undisturbed frame lasts exactly `dur`. */
	long long sw = max_ll(0, work - in - an - tr - dr - sy - is - HANDOFF);

	f->intended_vsync = t;
	/* Choreographer moves a late frame's time to the last vsync. */
	f->vsync = s - t >= g->period ? tick_at_or_before(g, s) : t;
	f->skipped = (int)((s - t) / g->period);
	f->vsync_id = t / g->period + 1;
	f->frame_start = s;
	f->frame_interval = g->period;
	f->frame_deadline = t + 2 * g->period - g->period / 6;

	/* x[]: the model's fixed extra cost per phase ("phase_ms"). */
	f->handle_input_start = s + lat;
	f->animation_start = f->handle_input_start + in +
	    x[APPMODEL_PHASE_INPUT];
	f->perform_traversals_start = f->animation_start + an +
	    x[APPMODEL_PHASE_ANIMATION];
	f->draw_start = f->perform_traversals_start + tr + block_ns +
	    x[APPMODEL_PHASE_LAYOUT];
	f->sync_queued = f->draw_start + dr + x[APPMODEL_PHASE_DRAW];

	/* The RenderThread takes over when done with the previous frame. */
	f->sync_start = max_ll(f->sync_queued, g->rt_free) + HANDOFF;
	f->issue_draw_commands_start = f->sync_start + sy +
	    x[APPMODEL_PHASE_SYNC];
	f->swap_buffers = f->issue_draw_commands_start + is +
	    x[APPMODEL_PHASE_COMMAND];
	f->frame_completed = f->swap_buffers + sw + x[APPMODEL_PHASE_SWAP];
	f->dequeue_buffer_duration = (f->frame_completed - f->swap_buffers) / 8;
	f->queue_buffer_duration = (f->frame_completed - f->swap_buffers) / 3;
	f->command_submission_completed = f->swap_buffers -
	    (f->swap_buffers - f->issue_draw_commands_start) / 10;
	f->swap_buffers_completed = f->frame_completed;
	f->gpu_completed = f->frame_completed + dur / 10;
	f->display_present_time = tick_at_or_after(g, f->gpu_completed) +
	    g->period;

	g->ui_free = f->sync_queued;
	g->rt_free = f->frame_completed;
	classify_sf(g, f);
}

static void
add_input(struct framegen *g, struct framegen_frame *f)
{
	long long lead = g->period / 2 < 4 * MS ? g->period / 2 : 4 * MS;

	f->oldest_input = f->intended_vsync - lead;
	f->newest_input = f->handle_input_start - MS / 4;
	if (f->newest_input < f->oldest_input)
		f->newest_input = f->oldest_input;
	f->input_event_id = (long long)(simrng_next(&g->rng) >> 33) | 1;
}

static void
add_block(struct framegen_out *out, struct framegen_frame *f,
    const struct span *sp, const struct pending_block *pb)
{
	struct framegen_block *b;

	XALLOC_GROW(out->blocks, out->nr_blocks + 1, out->alloc_blocks);
	b = &out->blocks[out->nr_blocks];
	b->activity = sp->act->name;
	b->model = pb->model;
	b->start_ns = f->frame_start;
	b->end_ns = f->sync_queued;
	b->thread_ms = pb->model->thread_ratio *
	    (double)(b->end_ns - b->start_ns) / MS;
	f->block = (long)out->nr_blocks++;
}

/*
 * Render span `sp`.  Blocks in `pb` (sorted by time) attach to the first
 * frame requested at or after their time, one block per frame.
 */
static void
render(struct framegen *g, struct framegen_out *out, const struct span *sp,
    struct pending_block *pb, size_t nr_pb)
{
	long long t = tick_at_or_after(g, sp->from);
	long long extra[APPMODEL_NR_PHASES];
	size_t next_pb = 0;
	int first = 1;

	for (int p = 0; p < APPMODEL_NR_PHASES; p++)
		extra[p] = (long long)(sp->dist->phase_ms[p] * MS);

	while (t < sp->to || next_pb < nr_pb) {
		long long s = max_ll(t, g->ui_free);
		long long dur = draw_duration(g, sp->dist), block_ns = 0;
		const struct pending_block *use = NULL;
		struct framegen_frame *f;

		/* A block due before the span's end still gets its frame. */
		if (next_pb < nr_pb && (pb[next_pb].at <= t || t >= sp->to)) {
			use = &pb[next_pb++];
			block_ns = (long long)(use->ms * MS);
		}
		XALLOC_GROW(out->frames, out->nr_frames + 1, out->alloc_frames);
		f = &out->frames[out->nr_frames++];
		memset(f, 0, sizeof(*f));
		f->activity = sp->act->name;
		f->block = -1;
		f->oldest_input = FRAMEGEN_NO_INPUT;
		f->flags = first ? sp->first_flags : 0;
		lay_out(g, f, t, s, dur, block_ns, extra);
		if (t < sp->input_to)
			add_input(g, f);
		if (use)
			add_block(out, f, sp, use);
		if (f->frame_completed > out->end_ns)
			out->end_ns = f->frame_completed;
		first = 0;
		t = tick_at_or_before(g, s) + g->period;
	}
}

static int
cmp_pending(const void *a, const void *b)
{
	const struct pending_block *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/*
 * Decide which of `act`'s blocks this interaction of kind `kind` triggers
 * and when, uniformly over [from, to).  Returns a sorted array (caller
 * frees) and its length in *nr.
 */
static struct pending_block *
plan_blocks(struct framegen *g, const struct appmodel_activity *act,
    enum appmodel_kind kind, long long from, long long to, size_t *nr)
{
	struct pending_block *pb = xcalloc(act->nr_blocks + 1, sizeof(*pb));
	size_t i;

	*nr = 0;
	for (i = 0; i < act->nr_blocks; i++) {
		const struct appmodel_block *b = &act->blocks[i];
		double u, ms;
		int hit;

		if (b->on != kind && b->on != APPMODEL_ANY)
			continue;
		/* Always draw all three so the stream ignores the outcome. */
		hit = simrng_chance(&g->rng, b->p);
		u = simrng_uniform(&g->rng);
		ms = simrng_lognormal(&g->rng, b->ms, b->sigma);
		if (!hit)
			continue;
		pb[*nr].model = b;
		pb[*nr].at = from + (long long)(u * (double)(to - from));
		pb[*nr].ms = ms;
		(*nr)++;
	}
	qsort(pb, *nr, sizeof(*pb), cmp_pending);
	return pb;
}

static void
measure_methods(struct framegen *g, struct framegen_out *out,
    const struct appmodel_activity *act, enum appmodel_kind kind,
    long long at)
{
	size_t i;

	for (i = 0; i < act->nr_methods; i++) {
		const struct appmodel_method *m = &act->methods[i];
		struct framegen_method *fm;

		if (m->on != kind && m->on != APPMODEL_ANY)
			continue;
		XALLOC_GROW(out->methods, out->nr_methods + 1,
		    out->alloc_methods);
		fm = &out->methods[out->nr_methods++];
		fm->activity = act->name;
		fm->model = m;
		fm->at_ns = at;
		fm->ms = simrng_lognormal(&g->rng, m->ms, m->sigma);
	}
}

/*
 * Render `sp` with the blocks and methods interaction `kind` triggers;
 * blocks fall in the first `block_ns` of the span.
 */
static void
interact(struct framegen *g, struct framegen_out *out, const struct span *sp,
    enum appmodel_kind kind, long long block_ns)
{
	size_t nr;
	struct pending_block *pb = plan_blocks(g, sp->act, kind, sp->from,
	    sp->from + block_ns, &nr);

	measure_methods(g, out, sp->act, kind, sp->from);
	render(g, out, sp, pb, nr);
	free(pb);
}

/*
 * An activity appearing: its first frame completes `first_ms` after
 * `start` (later if a launch block hits it), then the transition runs
 * for `anim_ms`.  Fills `l` from what was rendered.
 */
static void
appear(struct framegen *g, struct framegen_out *out,
    const struct appmodel_activity *act, long long start, double first_ms,
    double anim_ms, struct framegen_launch *l)
{
	const struct appmodel_dist *d = &act->frames[APPMODEL_LAUNCH];
	struct span sp = { act, d, 0, 0, 0, FRAMEGEN_FLAG_WINDOW_CHANGED };
	long long first_dur = (long long)(d->median_ms * MS);
	long long s0 = start + (long long)(first_ms * MS) - first_dur;
	size_t first = out->nr_frames;

	if (s0 < start)
		s0 = start;
	/* The main thread is busy creating the activity until s0. */
	g->ui_free = max_ll(g->ui_free, s0);
	sp.from = tick_at_or_before(g, g->ui_free);
	sp.to = sp.from + (long long)(anim_ms * MS);
	/* Launch blocks run in onCreate, so they hit the first frame. */
	interact(g, out, &sp, APPMODEL_LAUNCH, 1);

	l->activity = act->name;
	l->start_ns = start;
	l->displayed_ns = out->frames[first].frame_completed;
	l->total_ms = (l->displayed_ns - start + MS / 2) / MS;
}

static int
run_launch(struct framegen *g, const struct appmodel *m,
    const struct appmodel_activity *act, const struct framegen_action *a,
    struct framegen_out *out)
{
	const struct appmodel_startup *st = &m->startup;
	struct framegen_launch l = { a->launch, NULL, 0, 0, 0, 0, 0, 0, 0 };
	double f = simrng_lognormal(&g->rng, 1.0, st->sigma);
	double overhead = simrng_lognormal(&g->rng, 12.0, 0.3);
	double base;

	switch (a->launch) {
	case FRAMEGEN_COLD:
		base = st->cold_ms;
		/* A new process: nothing of the old one is still queued. */
		g->ui_free = g->rt_free = 0;
		break;
	case FRAMEGEN_WARM:
		base = st->warm_ms;
		break;
	default:
		base = st->hot_ms;
		break;
	}
	appear(g, out, act, a->start_ns, base * f, TRANSITION_MS, &l);
	l.wait_ms = l.total_ms + (long long)(overhead + 0.5);
	if (a->launch == FRAMEGEN_COLD) {
		/* Matrix starts its clock when the process starts running. */
		double pre = (st->cold_ms - st->app_create_ms -
		    st->first_activity_ms) * f;

		l.app_create_ms = (long long)(st->app_create_ms * f + 0.5);
		l.first_activity_ms = l.total_ms - (long long)(pre + 0.5);
	} else if (a->launch == FRAMEGEN_WARM)
		l.first_activity_ms = l.total_ms;
	if (st->fully_drawn_ms > 0 && a->launch != FRAMEGEN_HOT) {
		l.fully_drawn_ms = (long long)(st->fully_drawn_ms * f + 0.5);
		if (l.fully_drawn_ms <= l.total_ms)
			l.fully_drawn_ms = l.total_ms + 1;
	}
	out->has_launch = 1;
	out->launch = l;
	return 0;
}

/* A tap: a ripple, and for an element that opens an activity, its start. */
static int
run_tap(struct framegen *g, const struct appmodel *m,
    const struct appmodel_activity *act, const struct framegen_action *a,
    struct framegen_out *out)
{
	const struct appmodel_activity *to = NULL;
	long long up = a->start_ns + (long long)(a->duration_ms * MS);
	struct span sp = { act, &act->frames[APPMODEL_TAP], a->start_ns, 0,
	    up, 0 };
	struct framegen_launch l = { FRAMEGEN_WARM, NULL, 0, 0, 0, 0, 0, 0, 0 };

	if (a->target && !(to = appmodel_activity(m, a->target)))
		return jg_error_set(JG_ENOTFOUND, "no activity '%s' in '%s'",
		    a->target, m->package);
	sp.to = up + (long long)((to ? 100 : RIPPLE_MS) * MS);
	interact(g, out, &sp, APPMODEL_TAP, max_ll(1, up - a->start_ns));
	if (!to)
		return 0;
	appear(g, out, to, up, m->startup.warm_ms *
	    simrng_lognormal(&g->rng, 1.0, m->startup.sigma), TRANSITION_MS,
	    &l);
	l.first_activity_ms = l.total_ms;
	l.wait_ms = l.total_ms;
	out->has_launch = 1;
	out->launch = l;
	return 0;
}

int
framegen_run(struct framegen *g, const struct appmodel *m,
    const struct framegen_action *a, struct framegen_out *out)
{
	const struct appmodel_activity *act = appmodel_activity(m, a->activity);
	long long up = a->start_ns + (long long)(a->duration_ms * MS);
	struct span sp;

	if (!act)
		return jg_error_set(JG_ENOTFOUND, "no activity '%s' in '%s'",
		    a->activity ? a->activity : "(null)", m->package);
	if (a->duration_ms < 0 || a->start_ns < 0)
		return jg_error_set(JG_EINVAL, "negative time in an action");
	out->has_launch = 0;
	if (out->end_ns < a->start_ns)
		out->end_ns = a->start_ns;

	switch (a->kind) {
	case FRAMEGEN_LAUNCH:
		return run_launch(g, m, act, a, out);
	case FRAMEGEN_TAP:
		return run_tap(g, m, act, a, out);
	case FRAMEGEN_RETURN:
		sp = (struct span){ act, &act->frames[APPMODEL_LAUNCH],
		    a->start_ns, a->start_ns + TRANSITION_MS * MS, a->start_ns,
		    FRAMEGEN_FLAG_WINDOW_CHANGED };
		interact(g, out, &sp, APPMODEL_LAUNCH, TRANSITION_MS * MS);
		return 0;
	case FRAMEGEN_SWIPE:
	case FRAMEGEN_FLING:
		sp = (struct span){ act, &act->frames[APPMODEL_SCROLL],
		    a->start_ns, up, up, 0 };
		/* Only scrollable content keeps moving after the finger. */
		if (act->scrollable)
			sp.to += (long long)((a->kind == FRAMEGEN_FLING ?
			    act->fling_ms : SWIPE_SETTLE_MS) * MS);
		/* The expensive binding happens while the finger moves. */
		interact(g, out, &sp, APPMODEL_SCROLL,
		    max_ll(1, up - a->start_ns));
		return 0;
	}
	return jg_error_set(JG_EINVAL, "unknown action kind %d", (int)a->kind);
}

void
framegen_sf_names(unsigned jank, char *buf, size_t size)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		/* FrameTimeline's order (jankTypeBitmaskToString). */
		{ FRAMEGEN_SF_DISPLAY_HAL, "Display HAL" },
		{ FRAMEGEN_SF_APP_DEADLINE, "App Deadline Missed" },
		{ FRAMEGEN_SF_BUFFER_STUFFING, "Buffer Stuffing" },
	};
	size_t n = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		size_t k = strlen(names[i].name);

		if (!(jank & names[i].bit))
			continue;
		if (n && n + 2 < size) {
			memcpy(buf + n, ", ", 2);
			n += 2;
		}
		if (n + k < size) {
			memcpy(buf + n, names[i].name, k);
			n += k;
		}
		buf[n] = '\0';
	}
	if (!n && size > 4)
		memcpy(buf, "None", 5);
}
