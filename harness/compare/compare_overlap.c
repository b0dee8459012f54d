/*
 * compare_overlap.c: how many janky frames a main-thread block overlapped
 * (issue 20).
 *
 * A block holds the main thread from start_mono_ms for wall_ms; a frame
 * runs from its IntendedVsync to its FrameCompleted (the scene's
 * PROFILEDATA rows, whose timestamps are CLOCK_MONOTONIC nanoseconds, the
 * clock every block's start is moved to).  The frames a block overlapped
 * are those two spans intersect; the janky ones among
 * them (rows the gfxinfo source marked janky, sources/phases.c) are what
 * the stall cost the user.  PROFILEDATA keeps the newest 120 frames of a
 * window, so a block earlier in a long scene may lie before every row:
 * then nothing is known (-1), which is not zero.  A block without a
 * duration (perf's UI BLOCK) is unknown too.
 */
#include <math.h>

#include "compare.h"
#include "results.h"
#include "banned.h"

int
cmp_block_janky_frames(const struct rs_scene *sn, const struct rs_block *b)
{
	double start, end, first = INFINITY, last = -INFINITY;
	bool judged = false;
	int n = 0;

	if (!sn || !isfinite(b->start_mono_ms) || !isfinite(b->wall_ms) ||
	    b->wall_ms < 0)
		return -1;
	start = b->start_mono_ms;
	end = start + b->wall_ms;
	for (size_t i = 0; i < sn->frames.nr_rows; i++) {
		const struct rs_frame_row *r = &sn->frames.rows[i];
		double a = (double)r->intended_vsync_ns / 1e6;
		double z = (double)r->frame_completed_ns / 1e6;

		if (r->janky == RS_UNKNOWN)
			continue;
		judged = true;
		first = fmin(first, a);
		last = fmax(last, z);
		if (r->janky == 1 && a <= end && z >= start)
			n++;
	}
	/* The rows must reach over the block, or we cannot tell. */
	if (!judged || first > end || last < start)
		return -1;
	return n;
}
