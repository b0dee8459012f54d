/*
 * phases.c: a frame's phases from its PROFILEDATA timestamps (phases.h).
 *
 * Each phase is the span between two of hwui's timestamps, the spans
 * FrameMetrics reports (android.view.FrameMetrics' *_DURATION):
 *
 *   wait       IntendedVsync          -> HandleInputStart   the UI thread
 *                                        was busy (FrameMetrics'
 *                                        UNKNOWN_DELAY)
 *   input      HandleInputStart       -> AnimationStart
 *   animation  AnimationStart         -> PerformTraversalsStart
 *   layout     PerformTraversalsStart -> DrawStart          measure/layout
 *   draw       DrawStart              -> SyncQueued
 *   sync       SyncStart              -> IssueDrawCommandsStart  sync and
 *                                        upload
 *   command    IssueDrawCommandsStart -> SwapBuffers        command issue
 *   gpu        SwapBuffers            -> FrameCompleted     GPU and swap
 *
 * (SyncQueued -> SyncStart, the wait for the RenderThread, is in no phase,
 * as in FrameMetrics.)  The same on every API level: the columns exist
 * from 23 on under the same names, and the 31+ label swap touches only
 * FrameInterval and FrameStartTime (framestats.c).
 *
 * Rows left out and counted (phases.skipped): Flags set (hwui's jank
 * rules skip them too: a window's first frame, a skipped frame), a
 * timestamp missing, zero or Long.MAX_VALUE, or a phase that would be
 * negative.  The scene's phases are the median and 90th percentile (type
 * 7) of each phase over the rows kept.  PROFILEDATA holds the newest 120
 * frames of each window, so when the scene rendered more (its histogram
 * counts every frame) `newest` says the phases describe its end.
 */
#include <math.h>
#include <stdlib.h>

#include "phases.h"
#include "quantile.h"
#include "source.h"
#include "source_warn.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "gfxinfo"

/* The timestamps bounding each phase, in order. */
static const enum fst_col bounds[RS_NR_PHASES][2] = {
	[RS_PHASE_WAIT] = { FST_INTENDED, FST_HANDLE_INPUT },
	[RS_PHASE_INPUT] = { FST_HANDLE_INPUT, FST_ANIMATION },
	[RS_PHASE_ANIMATION] = { FST_ANIMATION, FST_TRAVERSALS },
	[RS_PHASE_LAYOUT] = { FST_TRAVERSALS, FST_DRAW },
	[RS_PHASE_DRAW] = { FST_DRAW, FST_SYNC_QUEUED },
	[RS_PHASE_SYNC] = { FST_SYNC_START, FST_ISSUE },
	[RS_PHASE_COMMAND] = { FST_ISSUE, FST_SWAP },
	[RS_PHASE_GPU] = { FST_SWAP, FST_COMPLETED },
};

static bool
is_time(int64_t v)
{
	return v != FST_ABSENT && v > 0 && v != INT64_MAX;
}

int
phases_of_frame(const struct fst_frame *f, double ms[RS_NR_PHASES])
{
	if (f->v[FST_FLAGS] != 0)
		return -1;
	for (int p = 0; p < RS_NR_PHASES; p++) {
		int64_t a = f->v[bounds[p][0]], b = f->v[bounds[p][1]];

		if (!is_time(a) || !is_time(b) || b < a)
			return -1;
		ms[p] = (double)(b - a) / 1e6;
	}
	return 0;
}

int
phases_frame_janky(const struct fst_frame *f, double period_ns)
{
	int64_t done = f->v[FST_COMPLETED], start = f->v[FST_INTENDED];

	if (f->v[FST_FLAGS] != 0 || !is_time(done) || !is_time(start) ||
	    done < start)
		return RS_UNKNOWN;
	if (is_time(f->v[FST_DEADLINE])) {
		if (is_time(f->v[FST_GPU_COMPLETED]) &&
		    f->v[FST_GPU_COMPLETED] > done)
			done = f->v[FST_GPU_COMPLETED];
		return done > f->v[FST_DEADLINE];
	}
	if (!(period_ns > 0))
		return RS_UNKNOWN;
	return (double)(done - start) > period_ns;
}

/* The vsync period: the device's, else the first row that has one. */
static double
period_of(const struct source_ctx *ctx, const struct fst_dump *d)
{
	if (ctx->refresh_hz > 0 && isfinite(ctx->refresh_hz))
		return 1e9 / ctx->refresh_hz;
	for (size_t i = 0; i < d->nr; i++)
		if (is_time(d->frames[i].v[FST_INTERVAL]))
			return (double)d->frames[i].v[FST_INTERVAL];
	return NAN;
}

/* The scene's row for frame `f` (same IntendedVsync and FrameCompleted). */
static struct rs_frame_row *
row_of(struct rs_frames *fr, const struct fst_frame *f)
{
	for (size_t i = 0; i < fr->nr_rows; i++)
		if (fr->rows[i].intended_vsync_ns == f->v[FST_INTENDED] &&
		    fr->rows[i].frame_completed_ns == f->v[FST_COMPLETED])
			return &fr->rows[i];
	return NULL;
}

void
phases_fill(const struct source_ctx *ctx, struct rs_scene *sc,
    const char *section, size_t len)
{
	struct rs_phases *ph = &sc->phases;
	struct fst_dump d;
	double *v[RS_NR_PHASES], period;
	size_t used = 0;

	fst_dump_init(&d);
	if (section)
		fst_parse(&d, section, len);
	if (d.unknown_layouts)
		source_warn(ctx, sc, SRC, "frame phases: %zu of %zu "
		    "PROFILEDATA headers lack the %s column (a layout "
		    "jankgate does not know); their rows have no phases",
		    d.unknown_layouts, d.blocks, d.missing);
	if (!d.nr) {
		fst_dump_release(&d);
		return;
	}
	period = period_of(ctx, &d);
	for (int p = 0; p < RS_NR_PHASES; p++)
		v[p] = xcalloc(d.nr, sizeof(double));
	for (size_t i = 0; i < d.nr; i++) {
		const struct fst_frame *f = &d.frames[i];
		struct rs_frame_row *row = row_of(&sc->frames, f);
		double ms[RS_NR_PHASES];

		if (row)
			row->janky = phases_frame_janky(f, period);
		if (phases_of_frame(f, ms))
			continue;
		for (int p = 0; p < RS_NR_PHASES; p++)
			v[p][used] = ms[p];
		used++;
	}
	rs_phases_init(ph);
	ph->present = true;
	ph->frames = (double)used;
	ph->skipped = (double)(d.nr - used);
	if (sc->frames.present && !isnan(sc->frames.count))
		ph->newest = sc->frames.count > (double)d.nr;
	for (int p = 0; p < RS_NR_PHASES; p++) {
		if (used) {
			quantile(&ph->p50_ms[p], v[p], used, 0.5);
			quantile(&ph->p90_ms[p], v[p], used, 0.9);
		}
		free(v[p]);
	}
	fst_dump_release(&d);
}
