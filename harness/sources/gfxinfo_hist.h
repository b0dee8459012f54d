/*
 * gfxinfo_hist.h: whether a dump's HISTOGRAM holds every frame its
 * summary counts, and which numbers it still gives exactly when it does
 * not (private to the gfxinfo source; gfxinfo_hist.c says how).
 */
#ifndef JG_GFXINFO_HIST_H
#define JG_GFXINFO_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results.h"

struct gfx_summary;
struct strbuf;

enum gfx_hist_state {
	GFX_HIST_WHOLE,		/* every frame is in a bucket read */
	GFX_HIST_CUT,		/* the line stops before 4950ms */
	GFX_HIST_ELIDED,	/* "..." left buckets out */
	GFX_HIST_SHORT,		/* too few frames, nothing says where */
	GFX_HIST_OVER,		/* buckets sum to more than the total */
	GFX_HIST_UNCOUNTED,	/* cut or elided, and no total line */
};

/*
 * The histogram of one summary, or the sum of several (the windows').
 * The frames not in `buckets` (`missing`) lie in buckets b with
 * lo < b < hi; numbers that depend on where exactly are unknown.
 */
struct gfx_hist_check {
	enum gfx_hist_state state;
	double total;		/* frames in all; NAN when unknown */
	uint64_t shown;		/* frames in `buckets` */
	double missing;		/* total - shown; NAN when unknown */
	uint32_t lo, hi;
	uint32_t cut_after;	/* GFX_HIST_CUT: the last bucket whole */
	bool elided;		/* a "..." in a line */
	uint32_t elided_lo, elided_hi;	/* around the "..." */
	struct rs_bucket *buckets;	/* the ones trusted, ascending */
	size_t nr, alloc;
};

void gfx_hist_init(struct gfx_hist_check *c);
void gfx_hist_release(struct gfx_hist_check *c);

/*
 * Add summary `s` (one with a HISTOGRAM line) to `c`: its buckets, its
 * "Total frames rendered", and what its line's shape says is missing.
 */
void gfx_hist_add(struct gfx_hist_check *c, const struct gfx_summary *s);

/*
 * Frames in buckets of `min_ms` and up into *out: true when the text
 * gives the number exactly, false (*out untouched) when it does not.
 */
bool gfx_hist_at_least(const struct gfx_hist_check *c, uint32_t min_ms,
    double *out);

/* The `pct`th percentile by hwui's rule (ProfileData::findPercentile). */
bool gfx_hist_percentile(const struct gfx_hist_check *c, int pct,
    double *out);

/*
 * Vsyncs missed in all (*dropped) and frames that missed one (*late) at
 * `hz`: a frame in the bucket of b ms missed floor(b * hz / 1000).  Each
 * is NAN when the text does not give it exactly.
 */
void gfx_hist_vsyncs(const struct gfx_hist_check *c, double hz,
    double *dropped, double *late);

/*
 * What is missing, for a warning: "the HISTOGRAM line is cut after
 * bucket 7ms: it holds 12123 of the 17625 frames of 'Total frames
 * rendered'".  Nothing for a whole one.
 */
void gfx_hist_describe(const struct gfx_hist_check *c, struct strbuf *out);

#endif
