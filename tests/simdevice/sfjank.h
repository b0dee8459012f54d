/*
 * sfjank.h: SurfaceFlinger's FrameTimeline on the simulated phone
 * (`dumpsys SurfaceFlinger --frametimeline -jank`, API 31+).
 *
 * Each app keeps the frames it presented last, with the jank type
 * framegen.c gave each; a dump gathers every app's, groups them into
 * display frames by present time (one per vsync that showed something),
 * keeps the last SF_DISPLAY_FRAMES as SurfaceFlinger does, and prints the
 * ones that janked in FrameTimeline::dumpJank's layout (the layout is
 * drawn in harness/sources/frametimeline.c).
 */
#ifndef SIM_SFJANK_H
#define SIM_SFJANK_H

#include <stddef.h>

#include "framegen.h"

struct strbuf;

/* SurfaceFlinger's kDefaultMaxDisplayFrames. */
#define SF_DISPLAY_FRAMES 64
/* Frames an app keeps for it: a display frame holds one of the app's. */
#define SF_RING (2 * SF_DISPLAY_FRAMES)

struct sf_frame {
	const char *activity;	/* borrowed from the model */
	int pid;
	long long token;	/* the vsync id */
	long long intended, deadline, start, done, present;
	unsigned jank;		/* FRAMEGEN_SF_* */
};

/* One app's frames, oldest overwritten first. */
struct sf_ring {
	struct sf_frame v[SF_RING];
	size_t n, next;
};

void sf_ring_add(struct sf_ring *r, const struct framegen_frame *f, int pid);

/* The frames of one app, for a dump. */
struct sf_source {
	const char *package;
	const struct sf_ring *ring;
};

/*
 * Append the -jank dump as of `now_ns` of the sources' frames presented
 * by then, on a display of vsync period `period_ns`.
 */
void sf_dump_jank(struct strbuf *out, const struct sf_source *src,
    size_t nr, long long now_ns, long long period_ns);

#endif
