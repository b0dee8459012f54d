/*
 * framegen.h: the frames, blocks and launches an interaction produces.
 *
 * Given an app model and the display's refresh rate, each user action
 * (a swipe or fling on an activity, a tap, a launch) becomes the frames
 * that hwui would record: one per vsync while something moves, each with
 * the FrameInfo timestamps that `dumpsys gfxinfo framestats` prints, on
 * the device's CLOCK_MONOTONIC in ns.  Idle screens render nothing.
 *
 * The timing model, in short (APPMODEL.md has the long form):
 *  - Vsync ticks are at k * period from monotonic 0.
 *  - A frame is requested for the first tick after the previous frame
 *    started; it starts (HandleInputStart) when the main thread is free,
 *    so a long frame or a block delays the next one ("Missed Vsync",
 *    Choreographer's skipped frames).  RenderThread work waits for the
 *    previous frame's RenderThread work the same way.
 *  - Undisturbed, FrameCompleted - IntendedVsync is the duration drawn from
 *    the model: 45 % main thread (input, animation, traversal, draw),
 *    55 % RenderThread (sync, issue draw commands, swap).
 *  - A block triggered by the interaction runs inside one frame's
 *    traversal, so that frame's main-thread message lasts the block.
 *
 * The generator is deterministic: same seed, same model, same actions in
 * the same order give identical frames.
 */
#ifndef SIM_FRAMEGEN_H
#define SIM_FRAMEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "appmodel.h"

/* How long a dragged list takes to settle after the finger lifts. */
#define SWIPE_SETTLE_MS	150

struct framegen;

enum framegen_kind {
	FRAMEGEN_SWIPE,		/* finger drags for duration_ms */
	FRAMEGEN_FLING,		/* drag, then the list coasts fling_ms */
	FRAMEGEN_TAP,		/* press; ripple, or opens `target` */
	FRAMEGEN_RETURN,	/* `activity` comes back (back key, finish) */
	FRAMEGEN_LAUNCH,	/* am start / launcher: `launch` says how */
};

enum framegen_launch_state {
	FRAMEGEN_COLD,		/* new process */
	FRAMEGEN_WARM,		/* process alive, activity created */
	FRAMEGEN_HOT,		/* activity brought to front */
};

struct framegen_action {
	enum framegen_kind kind;
	const char *activity;	/* where it happens; LAUNCH: what starts */
	long long start_ns;	/* monotonic time of the first input event */
	double duration_ms;	/* gesture or press length */
	const char *target;	/* TAP: the activity it opens, or NULL */
	enum framegen_launch_state launch;
};

/* Flags column bits (FrameInfo.h). */
#define FRAMEGEN_FLAG_WINDOW_CHANGED	1
#define FRAMEGEN_FLAG_RT_ANIMATION	2
#define FRAMEGEN_FLAG_SURFACE_CANVAS	4
#define FRAMEGEN_FLAG_SKIPPED		8

/* OldestInputEvent of a frame without input (Long.MAX_VALUE). */
#define FRAMEGEN_NO_INPUT	INT64_MAX

/* One frame; every time is CLOCK_MONOTONIC ns, every duration ns. */
struct framegen_frame {
	const char *activity;		/* borrowed from the model */
	unsigned int flags;
	long long vsync_id;		/* FrameTimelineVsyncId */
	long long intended_vsync, vsync;
	long long oldest_input, newest_input;	/* NO_INPUT, 0: none */
	long long input_event_id;	/* 0 without input */
	long long handle_input_start, animation_start;
	long long perform_traversals_start, draw_start;
	long long frame_deadline, frame_start, frame_interval;
	long long sync_queued, sync_start, issue_draw_commands_start;
	long long swap_buffers, frame_completed;
	long long dequeue_buffer_duration, queue_buffer_duration;
	long long gpu_completed, swap_buffers_completed;
	long long display_present_time, command_submission_completed;
	int skipped;		/* Choreographer's "Skipped N frames" */
	long block;		/* index in framegen_out.blocks, or -1 */
	unsigned sf_jank;	/* FRAMEGEN_SF_* bits, 0: on time */
};

/* SurfaceFlinger's jank types of a frame (framegen.c classify_sf()). */
#define FRAMEGEN_SF_APP_DEADLINE	1u
#define FRAMEGEN_SF_BUFFER_STUFFING	2u
#define FRAMEGEN_SF_DISPLAY_HAL		4u
/* One frame in this many (by vsync id) the display HAL makes late. */
#define FRAMEGEN_SF_HAL_EVERY		211

/*
 * The FrameTimeline names of the FRAMEGEN_SF_* bits of `jank`, ", "
 * between them, "None" for none, into buf (at least 96 bytes).
 */
void framegen_sf_names(unsigned jank, char *buf, size_t size);

/* A main-thread block: one Looper message that ran long. */
struct framegen_block {
	const char *activity;
	const struct appmodel_block *model;
	long long start_ns, end_ns;	/* dispatch start and end */
	double thread_ms;		/* main-thread CPU time */
};

/* One MethodTraceMan measurement. */
struct framegen_method {
	const char *activity;
	const struct appmodel_method *model;
	long long at_ns;
	double ms;
};

/* What a LAUNCH (or a TAP that opens an activity) reports. */
struct framegen_launch {
	enum framegen_launch_state state;
	const char *activity;
	long long start_ns;
	long long displayed_ns;		/* first frame completed */
	long long total_ms;		/* TotalTime / Displayed */
	long long wait_ms;		/* WaitTime (am start's own clock) */
	long long app_create_ms;	/* Matrix phases (0 unless COLD) */
	long long first_activity_ms;
	long long fully_drawn_ms;	/* 0: reportFullyDrawn not called */
};

struct framegen_out {
	struct framegen_frame *frames;
	size_t nr_frames, alloc_frames;
	struct framegen_block *blocks;
	size_t nr_blocks, alloc_blocks;
	struct framegen_method *methods;
	size_t nr_methods, alloc_methods;
	int has_launch;
	struct framegen_launch launch;
	long long end_ns;	/* idle from here until the next action */
};

#define FRAMEGEN_OUT_INIT { 0 }

/*
 * A generator for one app on one display.  `refresh_hz` is 60, 90 or 120
 * (any value from 1 to 1000 works).  Free with framegen_free (NULL: no-op).
 */
struct framegen *framegen_new(uint64_t seed, int refresh_hz);
void framegen_free(struct framegen *g);

/* The vsync period in ns (1e9 / refresh rate, truncated). */
long long framegen_period_ns(const struct framegen *g);

/*
 * Generate what `a` produces and append it to `out` (which may hold
 * earlier actions; block indexes stay valid).  Returns 0, or JG_ENOTFOUND
 * when the activity (or target) is not in the model, JG_EINVAL for a
 * negative duration; `out` is unchanged on error.
 */
int framegen_run(struct framegen *g, const struct appmodel *m,
    const struct framegen_action *a, struct framegen_out *out);

/* Empty `out`, keeping nothing. */
void framegen_out_release(struct framegen_out *out);

/* The duration hwui bins a frame by: FrameCompleted - IntendedVsync. */
long long framegen_duration(const struct framegen_frame *f);

#endif
