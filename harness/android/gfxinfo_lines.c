/*
 * gfxinfo_lines.c: the lines inside a gfxinfo dump's sections and windows
 * (gfxinfo_int.h): the summary numbers, the jank causes ("Number Missed
 * Vsync: 1"), the HISTOGRAM, and PROFILEDATA's header and rows, read by
 * column name.  gfxinfo_dump.c draws the whole dump.
 *
 * Numbers are hwui's unsigned 32-bit counters: larger values, like any
 * unreadable one, are counted as bad and skipped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfxinfo_dump.h"
#include "gfxinfo_int.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

/* hwui ignores frame times of 10 s and more (IGNORE_EXCEEDING). */
#define ROW_MAX_NS 10000000000LL
/* A vsync period is below a second; a timestamp is far above. */
#define PERIOD_MAX_NS 1000000000LL
/* The longest cause name kept ("frame_deadline_missed_legacy" is 28). */
#define CAUSE_NAME_MAX 64

bool
gfx_line_starts(const struct text_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->n >= n && !memcmp(l->s, prefix, n);
}

static const char *const pct_labels[GFX_NR_PCT] = {
	"50th percentile: ", "90th percentile: ", "95th percentile: ",
	"99th percentile: ",
};

static const char *const col_names[GFX_NR_COLS] = {
	"Flags", "IntendedVsync", "FrameCompleted", "FrameInterval",
	"FrameStartTime",
};

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The unsigned decimal at s[*i] (advancing *i), at most `max`.  Returns
 * false when there are no digits or the value is larger.
 */
bool
gfx_read_uint(const char *s, size_t n, size_t *i, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t start = *i;

	for (; *i < n && is_digit(s[*i]); (*i)++) {
		uint64_t d = (uint64_t)(s[*i] - '0');

		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return *i > start;
}

/* A signed 64-bit decimal filling s[0..n) exactly. */
static bool
read_int64(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	uint64_t v;
	bool neg = n && s[0] == '-';

	if (neg)
		i++;
	if (!gfx_read_uint(s, n, &i, neg ? (uint64_t)INT64_MAX + 1 :
	    (uint64_t)INT64_MAX, &v) || i != n)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

/* "<prefix>N<suffix>" with N at most UINT32_MAX into *out (a double). */
static bool
line_number(struct gfx_dump *d, const struct text_line *l, const char *prefix,
    const char *suffix, double *out)
{
	size_t i = strlen(prefix), k = strlen(suffix);
	uint64_t v;

	if (!gfx_read_uint(l->s, l->n, &i, UINT32_MAX, &v) ||
	    (k && (l->n - i < k || memcmp(l->s + i, suffix, k)))) {
		d->bad_values++;
		return false;
	}
	*out = (double)v;
	return true;
}

/* "Frame deadline missed (legacy)" -> "frame_deadline_missed_legacy". */
static bool
cause_name(char *out, const char *s, size_t n)
{
	size_t len = 0;
	bool sep = false;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || is_digit(c)) {
			if (sep && len)
				out[len++] = '_';
			sep = false;
			out[len++] = c;
		} else {
			sep = true;
		}
		if (len >= CAUSE_NAME_MAX - 1)
			return false;
	}
	out[len] = '\0';
	return len > 0;
}

/* "Number Slow UI thread: 11" */
static void
read_cause(struct gfx_dump *d, struct gfx_summary *s, const struct text_line *l)
{
	size_t skip = strlen("Number "), colon = 0, i;
	char name[CAUSE_NAME_MAX];
	uint64_t v;
	long at;

	/* The name may hold ": " itself; the count follows the last one. */
	for (size_t k = skip; k + 1 < l->n; k++)
		if (l->s[k] == ':' && l->s[k + 1] == ' ')
			colon = k;
	if (!colon || !cause_name(name, l->s + skip, colon - skip))
		goto bad;
	i = colon + 2;
	if (!gfx_read_uint(l->s, l->n, &i, UINT32_MAX, &v) || i != l->n)
		goto bad;
	at = strlist_find(&s->causes, name);
	if (at < 0) {
		strlist_add(&s->causes, name);
		XALLOC_GROW(s->cause_counts, s->causes.nr,
		    s->alloc_cause_counts);
		at = (long)s->causes.nr - 1;
	}
	s->cause_counts[at] = v;
	s->seen = true;
	return;
bad:
	d->bad_values++;
}

static int
bucket_cmp(const void *a, const void *b)
{
	const struct rs_bucket *x = a, *y = b;

	return x->ms < y->ms ? -1 : x->ms > y->ms;
}

/* "...", "…", "[...]": what a paste puts where it left buckets out. */
static bool
is_elision(const char *s, size_t n)
{
	size_t i = 0, dots = 0;

	if (n && (s[0] == '[' || s[0] == '('))
		s++, n--;
	if (n && (s[n - 1] == ']' || s[n - 1] == ')'))
		n--;
	while (i < n) {
		if (s[i] == '.') {
			dots++;
			i++;
		} else if (n - i >= 3 && !memcmp(s + i, "\xe2\x80\xa6", 3)) {
			dots += 3;
			i += 3;
		} else {
			return false;
		}
	}
	return dots >= 2;
}

enum hist_token { HT_BUCKET, HT_ELISION, HT_BAD };

/*
 * One token of a HISTOGRAM line: "12ms=3" (a bucket), "..." or a bucket
 * whose count ends in one ("12ms=3...", "12ms=...": the count is not all
 * there, so the bucket counts as left out), or anything else.
 */
static enum hist_token
read_hist_token(const char *s, size_t n, uint64_t *ms, uint64_t *count)
{
	size_t i = 0;

	if (is_elision(s, n))
		return HT_ELISION;
	if (!gfx_read_uint(s, n, &i, UINT32_MAX, ms) || n - i < 3 ||
	    memcmp(s + i, "ms=", 3))
		return HT_BAD;
	i += 3;
	if (gfx_read_uint(s, n, &i, UINT32_MAX, count) && i == n)
		return HT_BUCKET;
	return i < n && is_elision(s + i, n - i) ? HT_ELISION : HT_BAD;
}

/*
 * "HISTOGRAM: 5ms=376 6ms=122 ..." replaces the summary's histogram; its
 * shape (struct gfx_hist_shape) says whether all of it is there.
 */
static void
read_histogram(struct gfx_dump *d, struct gfx_summary *s,
    const struct text_line *l)
{
	struct gfx_hist_shape *h = &s->hist;
	size_t i = strlen("HISTOGRAM:"), out = 0;
	enum hist_token last = HT_BAD;
	bool any = false, after_elision = false, bad = false;
	uint32_t last_ms = 0, whole_ms = 0;
	uint64_t last_count = 0;

	s->nr_buckets = 0;
	s->has_histogram = true;
	s->seen = true;
	memset(h, 0, sizeof(*h));
	h->elided_hi = UINT32_MAX;
	while (i < l->n) {
		size_t end = i;
		uint64_t ms, count;

		if (l->s[i] == ' ' || l->s[i] == '\t') {
			i++;
			continue;
		}
		while (end < l->n && l->s[end] != ' ' && l->s[end] != '\t')
			end++;
		/* Whatever follows a bucket shows that it was whole. */
		if (any)
			whole_ms = last_ms;
		/* A bad last token is where the line was cut, not a value. */
		if (bad)
			d->bad_values++;
		last = read_hist_token(l->s + i, end - i, &ms, &count);
		bad = last == HT_BAD;
		any = true;
		i = end;
		if (last == HT_ELISION) {
			if (!h->elided)
				h->elided_lo = last_ms;
			h->elided = true;
			h->elided_hi = UINT32_MAX;
			after_elision = true;
			continue;
		}
		if (bad)
			continue;
		if (after_elision)
			h->elided_hi = (uint32_t)ms;
		after_elision = false;
		last_ms = (uint32_t)ms;
		last_count = count;
		XALLOC_GROW(s->buckets, s->nr_buckets + 1, s->alloc_buckets);
		s->buckets[s->nr_buckets].ms = (uint32_t)ms;
		s->buckets[s->nr_buckets++].count = count;
	}
	h->whole_end = last == HT_BUCKET && last_ms == GFX_HIST_LAST_MS;
	h->broken_end = last != HT_BUCKET;
	h->tail_suspect = last == HT_BUCKET && !h->whole_end;
	h->cut_after = h->tail_suspect ? whole_ms : last_ms;
	if (h->tail_suspect) {
		h->tail_ms = last_ms;
		h->tail_count = last_count;
	}
	/* Ascending and unique, whatever order the line had; no zeros. */
	if (s->nr_buckets)
		qsort(s->buckets, s->nr_buckets, sizeof(*s->buckets),
		    bucket_cmp);
	for (size_t k = 0; k < s->nr_buckets; k++) {
		if (!s->buckets[k].count)
			continue;
		if (out && s->buckets[out - 1].ms == s->buckets[k].ms)
			s->buckets[out - 1].count += s->buckets[k].count;
		else
			s->buckets[out++] = s->buckets[k];
	}
	s->nr_buckets = out;
}

/* One summary line into `s`; false when the line is not one. */
bool
gfx_read_summary_line(struct gfx_dump *d, struct gfx_summary *s,
    const struct text_line *l)
{
	double v;

	if (gfx_line_starts(l, "Stats since: ")) {
		size_t i = strlen("Stats since: ");
		uint64_t ns;

		if (gfx_read_uint(l->s, l->n, &i, UINT64_MAX, &ns))
			s->stats_since_ns = (double)ns;
		else
			d->bad_values++;
	} else if (gfx_line_starts(l, "Total frames rendered: ")) {
		line_number(d, l, "Total frames rendered: ", "", &s->total);
	} else if (gfx_line_starts(l, "Janky frames: ")) {
		/* hwui always adds " (P%)": without it the line was cut. */
		line_number(d, l, "Janky frames: ", " (", &s->janky);
	} else if (gfx_line_starts(l, "Janky frames (legacy): ")) {
		line_number(d, l, "Janky frames (legacy): ", " (",
		    &s->janky_legacy);
	} else if (gfx_line_starts(l, "Number ")) {
		read_cause(d, s, l);
		return true;
	} else if (gfx_line_starts(l, "HISTOGRAM:")) {
		read_histogram(d, s, l);
		return true;
	} else {
		int k;

		for (k = 0; k < GFX_NR_PCT; k++)
			if (gfx_line_starts(l, pct_labels[k]))
				break;
		if (k == GFX_NR_PCT)
			return false;
		if (line_number(d, l, pct_labels[k], "ms", &v))
			s->pct_ms[k] = v;
	}
	s->seen = true;
	return true;
}

/* The comma-separated field `idx` of a header or row, by scanning. */
void
gfx_read_profile_header(struct gfx_profile *p, const struct text_line *l)
{
	size_t start = 0, idx = 0;

	for (int c = 0; c < GFX_NR_COLS; c++)
		p->col[c] = -1;
	while (start < l->n) {
		const char *comma = memchr(l->s + start, ',', l->n - start);
		size_t end = comma ? (size_t)(comma - l->s) : l->n;

		for (int c = 0; c < GFX_NR_COLS; c++)
			if (p->col[c] < 0 && end - start == strlen(col_names[c])
			    && !memcmp(l->s + start, col_names[c], end - start))
				p->col[c] = (long)idx;
		idx++;
		start = end + 1;
	}
	p->nr_cols = idx;
	p->have_header = true;
}

bool
gfx_profile_usable(const struct gfx_profile *p)
{
	return p->col[GFX_COL_FLAGS] >= 0 && p->col[GFX_COL_INTENDED] >= 0 &&
	    p->col[GFX_COL_COMPLETED] >= 0;
}

/* A vsync period from the FrameInterval/FrameStartTime pair, if any. */
static void
note_interval(struct gfx_dump *d, const int64_t *v, const bool *got)
{
	if (!isnan(d->interval_ns))
		return;
	for (int c = GFX_COL_INTERVAL; c <= GFX_COL_START; c++)
		if (got[c] && v[c] > 0 && v[c] < PERIOD_MAX_NS) {
			d->interval_ns = (double)v[c];
			return;
		}
}

void
gfx_read_profile_row(struct gfx_dump *d, const struct gfx_profile *p,
    const struct text_line *l, struct gfx_window *w)
{
	int64_t v[GFX_NR_COLS] = { 0 };
	bool got[GFX_NR_COLS] = { false };
	size_t start = 0, idx = 0;
	int64_t dur;
	struct rs_frame_row *row;

	if (w)
		w->nr_rows++;
	/* Every row ends with a comma: one without was cut short. */
	if (!l->n || l->s[l->n - 1] != ',')
		goto bad;
	while (start < l->n) {
		const char *comma = memchr(l->s + start, ',', l->n - start);
		size_t end = (size_t)(comma - l->s);

		for (int c = 0; c < GFX_NR_COLS; c++) {
			if (p->col[c] != (long)idx)
				continue;
			if (!read_int64(l->s + start, end - start, &v[c]))
				goto bad;
			got[c] = true;
		}
		idx++;
		start = end + 1;
	}
	if (idx < p->nr_cols)
		goto bad;
	note_interval(d, v, got);
	dur = v[GFX_COL_COMPLETED] - v[GFX_COL_INTENDED];
	if (v[GFX_COL_INTENDED] <= 0 || v[GFX_COL_COMPLETED] <= 0 ||
	    v[GFX_COL_COMPLETED] == INT64_MAX || dur <= 0 ||
	    dur >= ROW_MAX_NS) {
		d->insane_rows++;
		return;
	}
	/* Kept with their Flags: readers leave those out of jank. */
	if (v[GFX_COL_FLAGS])
		d->flagged_rows++;
	XALLOC_GROW(d->rows, d->nr_rows + 1, d->alloc_rows);
	row = &d->rows[d->nr_rows++];
	row->intended_vsync_ns = v[GFX_COL_INTENDED];
	row->frame_completed_ns = v[GFX_COL_COMPLETED];
	row->duration_ms = (double)dur / 1e6;
	row->flags = v[GFX_COL_FLAGS];
	row->janky = RS_UNKNOWN;	/* phases.c judges it */
	return;
bad:
	d->bad_rows++;
}
