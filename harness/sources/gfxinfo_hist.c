/*
 * gfxinfo_hist.c: how much of a scene's frames a dump's HISTOGRAM holds
 * (gfxinfo_hist.h), so that no number is made of a part of it.
 *
 * hwui prints every bucket, zeros included, from 5ms to 4950ms, and the
 * buckets sum to "Total frames rendered" (ProfileData::reportFrame counts
 * each frame in both).  A pasted dump does not always keep all of it:
 *
 *   HISTOGRAM: 5ms=376 6ms=122 7ms=117 8ms=9...     cut: the line stops
 *   HISTOGRAM: 5ms=376 6ms=122 ... 4950ms=0         elided by hand
 *
 * When the buckets do not sum to the printed total, the frames missing
 * from them lie in a range of buckets: after the last bucket surely whole
 * for a cut line (its last bucket may have lost digits and is left out),
 * between the buckets around the "..." for an elided one, anywhere when
 * nothing says.  A number is given only when that range cannot change it:
 * frames of 16 ms and up when the range lies wholly above or below 16 ms,
 * a percentile that falls outside the range, vsyncs missed when every
 * bucket of the range misses as many.  Without a total line, a line with
 * a "..." or a broken end gives no number at all; a line without either
 * is taken as whole.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfxinfo_dump.h"
#include "gfxinfo_hist.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Bucket x rate is exact for integral rates; this absorbs the others. */
#define VSYNC_EPSILON 1e-9

void
gfx_hist_init(struct gfx_hist_check *c)
{
	memset(c, 0, sizeof(*c));
	c->state = GFX_HIST_WHOLE;
	c->lo = UINT32_MAX;
	c->hi = 0;
	c->elided_hi = UINT32_MAX;
}

void
gfx_hist_release(struct gfx_hist_check *c)
{
	free(c->buckets);
	gfx_hist_init(c);
}

static void
add_bucket(struct gfx_hist_check *c, uint32_t ms, uint64_t count)
{
	size_t i = c->nr;

	if (!count)
		return;
	while (i > 0 && c->buckets[i - 1].ms > ms)
		i--;
	if (i > 0 && c->buckets[i - 1].ms == ms) {
		c->buckets[i - 1].count += count;
		return;
	}
	XALLOC_GROW(c->buckets, c->nr + 1, c->alloc);
	memmove(&c->buckets[i + 1], &c->buckets[i],
	    (c->nr - i) * sizeof(*c->buckets));
	c->buckets[i].ms = ms;
	c->buckets[i].count = count;
	c->nr++;
}

/* What summary `s` alone is: its state, range and trusted frames. */
static enum gfx_hist_state
judge(const struct gfx_summary *s, uint64_t sum, uint64_t *shown,
    uint32_t *lo, uint32_t *hi)
{
	const struct gfx_hist_shape *h = &s->hist;

	*shown = sum;
	*lo = 0;
	*hi = UINT32_MAX;
	if (isnan(s->total))
		return h->elided || h->broken_end ? GFX_HIST_UNCOUNTED :
		    GFX_HIST_WHOLE;
	if ((double)sum == s->total)
		return GFX_HIST_WHOLE;
	if ((double)sum > s->total)
		return GFX_HIST_OVER;
	if (!h->whole_end) {
		if (h->tail_suspect)
			*shown = sum - h->tail_count;
		*lo = h->cut_after;
		if (h->elided && h->elided_lo < *lo)
			*lo = h->elided_lo;
		return GFX_HIST_CUT;
	}
	if (h->elided) {
		*lo = h->elided_lo;
		*hi = h->elided_hi;
		return GFX_HIST_ELIDED;
	}
	return GFX_HIST_SHORT;
}

void
gfx_hist_add(struct gfx_hist_check *c, const struct gfx_summary *s)
{
	const struct gfx_hist_shape *h = &s->hist;
	enum gfx_hist_state st;
	uint64_t sum = 0, shown;
	uint32_t lo, hi;

	for (size_t i = 0; i < s->nr_buckets; i++)
		sum += s->buckets[i].count;
	st = judge(s, sum, &shown, &lo, &hi);
	for (size_t i = 0; i < s->nr_buckets; i++) {
		uint64_t n = s->buckets[i].count;

		/* A cut line's last bucket may have lost digits. */
		if (shown != sum && s->buckets[i].ms == h->tail_ms)
			n -= h->tail_count;
		add_bucket(c, s->buckets[i].ms, n);
	}
	c->shown += shown;
	c->total += isnan(s->total) ? (double)sum : s->total;
	if (st == GFX_HIST_WHOLE)
		return;
	if (st == GFX_HIST_UNCOUNTED)
		c->total = NAN;
	c->missing = st == GFX_HIST_OVER || st == GFX_HIST_UNCOUNTED ? NAN :
	    c->missing + (s->total - (double)shown);
	if (c->state == GFX_HIST_WHOLE || st == GFX_HIST_OVER ||
	    st == GFX_HIST_UNCOUNTED) {
		c->state = st;
		c->cut_after = h->cut_after;
		c->elided = h->elided;
		c->elided_lo = h->elided_lo;
		c->elided_hi = h->elided_hi;
	}
	if (lo < c->lo)
		c->lo = lo;
	if (hi > c->hi)
		c->hi = hi;
}

bool
gfx_hist_at_least(const struct gfx_hist_check *c, uint32_t min_ms,
    double *out)
{
	double known = 0;

	for (size_t i = 0; i < c->nr; i++)
		if (c->buckets[i].ms >= min_ms)
			known += (double)c->buckets[i].count;
	if (c->state == GFX_HIST_WHOLE || c->missing == 0) {
		*out = known;
		return true;
	}
	if (isnan(c->missing))
		return false;
	/* The range's buckets are lo + 1 .. hi - 1. */
	if ((uint64_t)c->lo + 1 >= min_ms) {
		*out = known + c->missing;
		return true;
	}
	if (c->hi <= min_ms) {
		*out = known;
		return true;
	}
	return false;
}

bool
gfx_hist_percentile(const struct gfx_hist_check *c, int pct, double *out)
{
	bool gap = c->state != GFX_HIST_WHOLE && c->missing != 0;
	double remaining, in_gap = 0;

	if (!(c->total > 0) || (gap && isnan(c->missing)))
		return false;
	/* hwui: pos = pct * total / 100 in integers; then from the top. */
	remaining = c->total - floor((double)pct * c->total / 100);
	for (size_t i = c->nr; i-- > 0;) {
		const struct rs_bucket *b = &c->buckets[i];

		if (gap && b->ms <= c->lo) {
			remaining -= c->missing + in_gap;
			if (remaining <= 0)
				return false;	/* it lies in the range */
			gap = false;
		}
		if (gap && b->ms < c->hi) {
			in_gap += (double)b->count;
			continue;
		}
		remaining -= (double)b->count;
		if (remaining <= 0) {
			*out = b->ms;
			return true;
		}
	}
	return false;
}

/*
 * Vsyncs a frame in the bucket of `ms` missed: floor(ms / period) =
 * floor(ms * hz / 1000), the second form exact (250 ms at 60 Hz is 15
 * periods, where 250 over the rounded period 16.666666666666668 gives
 * 14.999...).
 */
static double
missed(double ms, double hz)
{
	return floor(ms * hz / 1000 + VSYNC_EPSILON);
}

void
gfx_hist_vsyncs(const struct gfx_hist_check *c, double hz, double *dropped,
    double *late)
{
	double lo, hi;

	*dropped = *late = 0;
	for (size_t i = 0; i < c->nr; i++) {
		double m = missed(c->buckets[i].ms, hz);

		*dropped += m * (double)c->buckets[i].count;
		if (m >= 1)
			*late += (double)c->buckets[i].count;
	}
	if (c->state == GFX_HIST_WHOLE || c->missing == 0)
		return;
	if (isnan(c->missing)) {
		*dropped = *late = NAN;
		return;
	}
	lo = missed((double)c->lo + 1, hz);
	hi = c->hi == UINT32_MAX ? INFINITY : missed((double)c->hi - 1, hz);
	*dropped = lo == hi ? *dropped + lo * c->missing : NAN;
	if (lo >= 1)
		*late += c->missing;
	else if (hi >= 1)
		*late = NAN;
}

/* "between 7ms and 4950ms", "after 7ms", "before 4950ms" */
static void
describe_range(struct strbuf *out, uint32_t lo, uint32_t hi)
{
	if (lo && hi != UINT32_MAX)
		strbuf_addf(out, "between %ums and %ums", lo, hi);
	else if (lo)
		strbuf_addf(out, "after %ums", lo);
	else if (hi != UINT32_MAX)
		strbuf_addf(out, "before %ums", hi);
	else
		strbuf_addstr(out, "somewhere");
}

void
gfx_hist_describe(const struct gfx_hist_check *c, struct strbuf *out)
{
	switch (c->state) {
	case GFX_HIST_WHOLE:
		return;
	case GFX_HIST_CUT:
		if (c->cut_after)
			strbuf_addf(out, "the HISTOGRAM line is cut after "
			    "bucket %ums", c->cut_after);
		else
			strbuf_addstr(out, "the HISTOGRAM line is cut before "
			    "its first bucket");
		break;
	case GFX_HIST_ELIDED:
		strbuf_addstr(out, "the HISTOGRAM line leaves buckets out "
		    "('...') ");
		describe_range(out, c->elided_lo, c->elided_hi);
		break;
	case GFX_HIST_SHORT:
		strbuf_addstr(out, "the HISTOGRAM line lacks buckets");
		break;
	case GFX_HIST_OVER:
		strbuf_addf(out, "the HISTOGRAM buckets hold %llu frames, more "
		    "than the %.0f of 'Total frames rendered'",
		    (unsigned long long)c->shown, c->total);
		return;
	case GFX_HIST_UNCOUNTED:
		if (c->elided) {
			strbuf_addstr(out, "the HISTOGRAM line leaves buckets "
			    "out ('...') ");
			describe_range(out, c->elided_lo, c->elided_hi);
		} else if (c->cut_after) {
			strbuf_addf(out, "the HISTOGRAM line is cut after "
			    "bucket %ums", c->cut_after);
		} else {
			strbuf_addstr(out, "the HISTOGRAM line is cut before "
			    "its first bucket");
		}
		strbuf_addstr(out, " and no 'Total frames rendered' line "
		    "says how many frames there were");
		return;
	}
	strbuf_addf(out, ": it holds %llu of the %.0f frames of 'Total frames "
	    "rendered'", (unsigned long long)c->shown, c->total);
}
