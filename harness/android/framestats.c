/*
 * framestats.c: every column of PROFILEDATA rows, by name (framestats.h).
 *
 *   ---PROFILEDATA---
 *   Flags,IntendedVsync,Vsync,OldestInputEvent,...,FrameCompleted,
 *   0,10000000000,10000000000,9223372036854775807,0,...,10011000000,
 *   ---PROFILEDATA---
 *
 * The header ends with a comma and so does every row (FORMATS §3.1); a
 * row without its last comma was cut.  Columns are found by name, so the
 * 14 (API 23/24), 16 (25-29), 17 (30), 22 (31/32), 23 (33-35), 24 and 25
 * column layouts read alike, and columns this file does not know are
 * skipped.  A block one of whose headers lacks a column the phases need
 * (phases.c: IntendedVsync, HandleInputStart, AnimationStart,
 * PerformTraversalsStart, DrawStart, SyncQueued, SyncStart,
 * IssueDrawCommandsStart, SwapBuffers, FrameCompleted) is an unknown
 * layout: counted, named, its rows left alone.
 *
 * The label swap of API 31 to 35: the data is FrameDeadline,
 * FrameStartTime, FrameInterval while the header says FrameDeadline,
 * FrameInterval, FrameStartTime.  The real redfin row shows
 * "FrameInterval" = 993103919554 and "FrameStartTime" = 11111111.  So
 * of the two the one below a second is the period and the other the
 * start time, whatever the label, which is also right for the later
 * builds that print them in order.
 */
#include <stdlib.h>
#include <string.h>

#include "framestats.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

#define PROFILE_MARK "---PROFILEDATA---"
/* A vsync period is below a second; a timestamp is far above. */
#define PERIOD_MAX_NS 1000000000LL

static const char *const col_names[FST_NR_COLS] = {
	[FST_FLAGS] = "Flags",
	[FST_VSYNC_ID] = "FrameTimelineVsyncId",
	[FST_INTENDED] = "IntendedVsync",
	[FST_VSYNC] = "Vsync",
	[FST_HANDLE_INPUT] = "HandleInputStart",
	[FST_ANIMATION] = "AnimationStart",
	[FST_TRAVERSALS] = "PerformTraversalsStart",
	[FST_DRAW] = "DrawStart",
	[FST_DEADLINE] = "FrameDeadline",
	[FST_INTERVAL] = "FrameInterval",
	[FST_START] = "FrameStartTime",
	[FST_SYNC_QUEUED] = "SyncQueued",
	[FST_SYNC_START] = "SyncStart",
	[FST_ISSUE] = "IssueDrawCommandsStart",
	[FST_SWAP] = "SwapBuffers",
	[FST_COMPLETED] = "FrameCompleted",
	[FST_GPU_COMPLETED] = "GpuCompleted",
};

/* What a frame's phases are measured between (phases.c). */
static const enum fst_col needed[] = {
	FST_FLAGS, FST_INTENDED, FST_HANDLE_INPUT, FST_ANIMATION,
	FST_TRAVERSALS, FST_DRAW, FST_SYNC_QUEUED, FST_SYNC_START, FST_ISSUE,
	FST_SWAP, FST_COMPLETED,
};

struct header {
	long col[FST_NR_COLS];	/* field index of each column, -1 absent */
	size_t nr_fields;
	bool usable;
};

const char *
fst_col_name(enum fst_col c)
{
	return (unsigned)c < FST_NR_COLS ? col_names[c] : "?";
}

void
fst_dump_init(struct fst_dump *d)
{
	memset(d, 0, sizeof(*d));
}

void
fst_dump_release(struct fst_dump *d)
{
	free(d->frames);
	fst_dump_init(d);
}

static bool
starts(const struct text_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->n >= n && !memcmp(l->s, prefix, n);
}

/* A signed 64-bit decimal filling s[0..n) exactly. */
static bool
read_int64(const char *s, size_t n, int64_t *out)
{
	uint64_t v = 0, max;
	size_t i = 0;
	bool neg = n && s[0] == '-';

	if (neg)
		i++;
	if (i == n)
		return false;
	max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; i < n; i++) {
		uint64_t dg;

		if (s[i] < '0' || s[i] > '9')
			return false;
		dg = (uint64_t)(s[i] - '0');
		if (v > (max - dg) / 10)
			return false;
		v = v * 10 + dg;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static void
read_header(struct fst_dump *d, struct header *h, const struct text_line *l)
{
	size_t start = 0, idx = 0;

	for (int c = 0; c < FST_NR_COLS; c++)
		h->col[c] = -1;
	while (start < l->n) {
		const char *comma = memchr(l->s + start, ',', l->n - start);
		size_t end = comma ? (size_t)(comma - l->s) : l->n;

		for (int c = 0; c < FST_NR_COLS; c++)
			if (h->col[c] < 0 && end - start ==
			    strlen(col_names[c]) && !memcmp(l->s + start,
			    col_names[c], end - start))
				h->col[c] = (long)idx;
		idx++;
		start = end + 1;
	}
	h->nr_fields = idx;
	h->usable = true;
	for (size_t k = 0; k < sizeof(needed) / sizeof(*needed); k++)
		if (h->col[needed[k]] < 0) {
			h->usable = false;
			d->unknown_layouts++;
			if (!d->missing)
				d->missing = col_names[needed[k]];
			break;
		}
}

/* Put the period and the start time where their names say (above). */
static void
unswap(struct fst_frame *f)
{
	int64_t a = f->v[FST_INTERVAL], b = f->v[FST_START];
	bool a_period = a != FST_ABSENT && a > 0 && a < PERIOD_MAX_NS;
	bool b_period = b != FST_ABSENT && b > 0 && b < PERIOD_MAX_NS;

	if (b_period && !a_period && a != FST_ABSENT) {
		f->v[FST_INTERVAL] = b;
		f->v[FST_START] = a;
	}
}

static void
read_row(struct fst_dump *d, const struct header *h, const struct text_line *l)
{
	struct fst_frame f;
	size_t start = 0, idx = 0;

	for (int c = 0; c < FST_NR_COLS; c++)
		f.v[c] = FST_ABSENT;
	if (!l->n || l->s[l->n - 1] != ',')
		goto bad;
	while (start < l->n) {
		const char *comma = memchr(l->s + start, ',', l->n - start);
		size_t end = (size_t)(comma - l->s);

		for (int c = 0; c < FST_NR_COLS; c++)
			if (h->col[c] == (long)idx &&
			    !read_int64(l->s + start, end - start, &f.v[c]))
				goto bad;
		idx++;
		start = end + 1;
	}
	if (idx < h->nr_fields)
		goto bad;
	unswap(&f);
	XALLOC_GROW(d->frames, d->nr + 1, d->alloc);
	d->frames[d->nr++] = f;
	return;
bad:
	d->bad_rows++;
}

void
fst_parse(struct fst_dump *d, const char *buf, size_t len)
{
	const char *pos = buf, *end = buf + len;
	struct header h = { { 0 }, 0, false };
	bool open = false, have_header = false;
	struct text_line l;

	while (pos && text_next_line(&pos, end, &l)) {
		if (starts(&l, PROFILE_MARK)) {
			open = !open;
			have_header = false;
			if (open)
				d->blocks++;
		} else if (open && !have_header) {
			read_header(d, &h, &l);
			have_header = true;
		} else if (open && h.usable) {
			read_row(d, &h, &l);
		}
	}
}
