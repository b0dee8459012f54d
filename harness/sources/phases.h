/*
 * phases.h: where each frame of a scene spent its time (issue 20).
 *
 * The gfxinfo source hands phases.c the PROFILEDATA of the app's process
 * at each scene's end; it fills the scene's `phases` (median and 90th
 * percentile of each phase over the rows) and marks each of the scene's
 * frame rows janky or not, for the frame timeline and for counting the
 * janky frames a block overlapped.
 */
#ifndef JG_PHASES_H
#define JG_PHASES_H

#include <stddef.h>

#include "framestats.h"
#include "results.h"

struct source_ctx;

/*
 * The phases of one row in ms into ms[RS_NR_PHASES].  Returns 0, or -1
 * when the row is one the phases leave out: Flags set (a first frame, a
 * skipped frame...), a timestamp missing, zero or Long.MAX_VALUE, or two
 * out of order.
 */
int phases_of_frame(const struct fst_frame *f, double ms[RS_NR_PHASES]);

/*
 * Whether frame `f` janked: API 31+ rows by their own deadline
 * (max(FrameCompleted, GpuCompleted) past FrameDeadline), others by a
 * frame time over `period_ns` (<= 0: unknown).  1, 0, or RS_UNKNOWN
 * (Flags set, no period, no timestamps).
 */
int phases_frame_janky(const struct fst_frame *f, double period_ns);

/*
 * Fill sc->phases from the PROFILEDATA blocks in section[0..len) (the
 * app's process section of a framestats dump) and set `janky` on the
 * rows of sc->frames they describe.  The vsync period is the device's
 * (ctx->refresh_hz), else the rows' own.  An unknown layout is a warning
 * on the scene, never an error.
 */
void phases_fill(const struct source_ctx *ctx, struct rs_scene *sc,
    const char *section, size_t len);

#endif
