/*
 * gfxinfo_dump.c: read a `dumpsys gfxinfo PKG framestats` dump into the
 * record of gfxinfo_dump.h (FORMATS §3.1).
 *
 *   Applications Graphics Acceleration Info:
 *   Uptime: 3603109 Realtime: 3603109
 *
 *   ** Graphics info for pid 3920 [com.example.shop] **   (per process)
 *
 *   Stats since: 3600899000000ns                 (the process summary)
 *   Total frames rendered: 31
 *   Janky frames: 4 (12.90%)
 *   Janky frames (legacy): 30 (96.77%)           (31+)
 *   50th percentile: 14ms                        (absent on M)
 *   90th percentile: 19ms ... 99th percentile: 250ms
 *   Number Missed Vsync: 1                       ("Number <cause>: N")
 *   ...
 *   HISTOGRAM: 5ms=0 6ms=0 ... 4950ms=0          (absent on M)
 *   50th gpu percentile: 4ms ... GPU HISTOGRAM   (ignored)
 *   (caches, memory)
 *   Profile data in ms:
 *
 *   <TAB>pkg/pkg.Home/android.view.ViewRootImpl@390ea38 (visibility=0)
 *                           (pastes often turn the tab into blanks)
 *   Window: pkg/pkg.Home                         (per window, O+)
 *   Stats since: ...          (the same summary lines, for this window)
 *
 *   ---PROFILEDATA---
 *   Flags,IntendedVsync,...,FrameCompleted,      (the header, by name)
 *   0,3600888852880,...,3600904676318,           (rows end with ',')
 *   ---PROFILEDATA---
 *
 *   View hierarchy: ...                          (ignored)
 *
 * Every line is optional and may repeat (M prints the process summary
 * again inside each window); unknown lines are skipped.  Only the section
 * of one process is read: `dumpsys gfxinfo` without a package dumps every
 * process, one section each.  A section may hold only
 *
 *   Failure while dumping the app: ProcessRecord{45d538c 25723:pkg/u0a675}
 *
 * (the app did not answer).  Text without any section header, such as a
 * `Window:` section pasted alone, is read as one section.  Numbers are
 * hwui's unsigned 32-bit counters: larger values, like any unreadable
 * one, are counted as bad and skipped.
 *
 * The 31+ label swap: those builds name the columns FrameDeadline,
 * FrameInterval, FrameStartTime while the data is deadline, start time,
 * interval.  The vsync period is therefore taken from whichever of the
 * two columns holds a value below one second, which is right for the
 * swapped builds and for the later ones that print the names in order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gfxinfo.h"
#include "gfxinfo_dump.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

#define PROFILE_MARK "---PROFILEDATA---"
#define SECTION_MARK "** Graphics info for pid "

/* hwui ignores frame times of 10 s and more (IGNORE_EXCEEDING). */
#define ROW_MAX_NS 10000000000LL
/* A vsync period is below a second; a timestamp is far above. */
#define PERIOD_MAX_NS 1000000000LL
/* The longest cause name kept ("frame_deadline_missed_legacy" is 28). */
#define CAUSE_NAME_MAX 64

static const char *const pct_labels[GFX_NR_PCT] = {
	"50th percentile: ", "90th percentile: ", "95th percentile: ",
	"99th percentile: ",
};

/* The PROFILEDATA columns read; the rest are skipped by name. */
enum col {
	COL_FLAGS, COL_INTENDED, COL_COMPLETED, COL_INTERVAL, COL_START,
	NR_COLS
};

static const char *const col_names[NR_COLS] = {
	"Flags", "IntendedVsync", "FrameCompleted", "FrameInterval",
	"FrameStartTime",
};

struct profile {
	bool open;		/* between the two marks */
	bool have_header;
	long col[NR_COLS];	/* index of each column, -1 when absent */
	size_t nr_cols;
};

static bool
starts(const struct text_line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->n >= n && !memcmp(l->s, prefix, n);
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The unsigned decimal at s[*i] (advancing *i), at most `max`.  Returns
 * false when there are no digits or the value is larger.
 */
static bool
read_uint(const char *s, size_t n, size_t *i, uint64_t max, uint64_t *out)
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
	if (!read_uint(s, n, &i, neg ? (uint64_t)INT64_MAX + 1 :
	    (uint64_t)INT64_MAX, &v) || i != n)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static void
summary_init(struct gfx_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->stats_since_ns = s->total = s->janky = s->janky_legacy = NAN;
	for (int i = 0; i < GFX_NR_PCT; i++)
		s->pct_ms[i] = NAN;
	strlist_init(&s->causes);
}

static void
summary_release(struct gfx_summary *s)
{
	free(s->buckets);
	free(s->cause_counts);
	strlist_release(&s->causes);
}

uint64_t
gfx_summary_cause(const struct gfx_summary *s, const char *name)
{
	long i = strlist_find(&s->causes, name);

	return i < 0 ? 0 : s->cause_counts[i];
}

void
gfx_dump_init(struct gfx_dump *d)
{
	memset(d, 0, sizeof(*d));
	d->uptime_ms = NAN;
	d->interval_ns = NAN;
	d->pid = -1;
	summary_init(&d->sum);
}

void
gfx_dump_release(struct gfx_dump *d)
{
	free(d->no_process);
	free(d->failure);
	free(d->process);
	summary_release(&d->sum);
	for (size_t i = 0; i < d->nr_windows; i++) {
		free(d->windows[i].title);
		summary_release(&d->windows[i].sum);
	}
	free(d->windows);
	free(d->rows);
	gfx_dump_init(d);
}

/* "<prefix>N<suffix>" with N at most UINT32_MAX into *out (a double). */
static bool
line_number(struct gfx_dump *d, const struct text_line *l, const char *prefix,
    const char *suffix, double *out)
{
	size_t i = strlen(prefix), k = strlen(suffix);
	uint64_t v;

	if (!read_uint(l->s, l->n, &i, UINT32_MAX, &v) ||
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
	if (!read_uint(l->s, l->n, &i, UINT32_MAX, &v) || i != l->n)
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

/* "HISTOGRAM: 5ms=376 6ms=122 ..." replaces the summary's histogram. */
static void
read_histogram(struct gfx_dump *d, struct gfx_summary *s,
    const struct text_line *l)
{
	size_t i = strlen("HISTOGRAM:"), out = 0;

	s->nr_buckets = 0;
	s->has_histogram = true;
	s->seen = true;
	while (i < l->n) {
		uint64_t ms, count;
		size_t tok = i;

		if (l->s[i] == ' ') {
			i++;
			continue;
		}
		if (read_uint(l->s, l->n, &i, UINT32_MAX, &ms) &&
		    l->n - i > 3 && !memcmp(l->s + i, "ms=", 3) &&
		    (i += 3, read_uint(l->s, l->n, &i, UINT32_MAX, &count)) &&
		    (i == l->n || l->s[i] == ' ')) {
			XALLOC_GROW(s->buckets, s->nr_buckets + 1,
			    s->alloc_buckets);
			s->buckets[s->nr_buckets].ms = (uint32_t)ms;
			s->buckets[s->nr_buckets++].count = count;
			continue;
		}
		d->bad_values++;
		i = tok;
		while (i < l->n && l->s[i] != ' ')
			i++;
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
static bool
read_summary_line(struct gfx_dump *d, struct gfx_summary *s,
    const struct text_line *l)
{
	double v;

	if (starts(l, "Stats since: ")) {
		size_t i = strlen("Stats since: ");
		uint64_t ns;

		if (read_uint(l->s, l->n, &i, UINT64_MAX, &ns))
			s->stats_since_ns = (double)ns;
		else
			d->bad_values++;
	} else if (starts(l, "Total frames rendered: ")) {
		line_number(d, l, "Total frames rendered: ", "", &s->total);
	} else if (starts(l, "Janky frames: ")) {
		line_number(d, l, "Janky frames: ", "", &s->janky);
	} else if (starts(l, "Janky frames (legacy): ")) {
		line_number(d, l, "Janky frames (legacy): ", "",
		    &s->janky_legacy);
	} else if (starts(l, "Number ")) {
		read_cause(d, s, l);
		return true;
	} else if (starts(l, "HISTOGRAM:")) {
		read_histogram(d, s, l);
		return true;
	} else {
		int k;

		for (k = 0; k < GFX_NR_PCT; k++)
			if (starts(l, pct_labels[k]))
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
static void
read_header(struct profile *p, const struct text_line *l)
{
	size_t start = 0, idx = 0;

	for (int c = 0; c < NR_COLS; c++)
		p->col[c] = -1;
	while (start < l->n) {
		const char *comma = memchr(l->s + start, ',', l->n - start);
		size_t end = comma ? (size_t)(comma - l->s) : l->n;

		for (int c = 0; c < NR_COLS; c++)
			if (p->col[c] < 0 && end - start == strlen(col_names[c])
			    && !memcmp(l->s + start, col_names[c], end - start))
				p->col[c] = (long)idx;
		idx++;
		start = end + 1;
	}
	p->nr_cols = idx;
	p->have_header = true;
}

static bool
profile_usable(const struct profile *p)
{
	return p->col[COL_FLAGS] >= 0 && p->col[COL_INTENDED] >= 0 &&
	    p->col[COL_COMPLETED] >= 0;
}

/* A vsync period from the FrameInterval/FrameStartTime pair, if any. */
static void
note_interval(struct gfx_dump *d, const int64_t *v, const bool *got)
{
	if (!isnan(d->interval_ns))
		return;
	for (int c = COL_INTERVAL; c <= COL_START; c++)
		if (got[c] && v[c] > 0 && v[c] < PERIOD_MAX_NS) {
			d->interval_ns = (double)v[c];
			return;
		}
}

static void
read_row(struct gfx_dump *d, const struct profile *p, const struct text_line *l,
    struct gfx_window *w)
{
	int64_t v[NR_COLS] = { 0 };
	bool got[NR_COLS] = { false };
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

		for (int c = 0; c < NR_COLS; c++) {
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
	dur = v[COL_COMPLETED] - v[COL_INTENDED];
	if (v[COL_INTENDED] <= 0 || v[COL_COMPLETED] <= 0 ||
	    v[COL_COMPLETED] == INT64_MAX || dur <= 0 || dur >= ROW_MAX_NS) {
		d->insane_rows++;
		return;
	}
	/* Kept with their Flags: readers leave those out of jank. */
	if (v[COL_FLAGS])
		d->flagged_rows++;
	XALLOC_GROW(d->rows, d->nr_rows + 1, d->alloc_rows);
	row = &d->rows[d->nr_rows++];
	row->intended_vsync_ns = v[COL_INTENDED];
	row->frame_completed_ns = v[COL_COMPLETED];
	row->duration_ms = (double)dur / 1e6;
	row->flags = v[COL_FLAGS];
	row->janky = RS_UNKNOWN;	/* phases.c judges it */
	return;
bad:
	d->bad_rows++;
}

static struct gfx_window *
add_window(struct gfx_dump *d, const char *title, size_t n)
{
	struct gfx_window *w;

	XALLOC_GROW(d->windows, d->nr_windows + 1, d->alloc_windows);
	w = &d->windows[d->nr_windows++];
	memset(w, 0, sizeof(*w));
	w->title = xstrndup(title, n);
	w->visibility = -1;
	summary_init(&w->sum);
	return w;
}

/*
 * "\tpkg/pkg.Act/android.view.ViewRootImpl@5fe5fda (visibility=0)": a new
 * window, titled without the "/ClassName@hash" of its ViewRootImpl.  The
 * tab may have become blanks in a paste.
 */
static struct gfx_window *
read_window_line(struct gfx_dump *d, const struct text_line *l)
{
	const char *vis = NULL, *slash = NULL, *title;
	struct gfx_window *w;
	size_t n, lead = 0;
	uint64_t v;

	while (lead < l->n && (l->s[lead] == '\t' || l->s[lead] == ' '))
		lead++;
	if (!lead || lead == l->n)
		return NULL;
	title = l->s + lead;
	for (size_t k = lead + 1; k + 13 <= l->n; k++)
		if (!memcmp(l->s + k, " (visibility=", 13))
			vis = l->s + k;
	if (!vis)
		return NULL;
	n = (size_t)(vis - title);
	for (size_t k = 0; k < n; k++)
		if (title[k] == '/')
			slash = title + k;
	if (slash && memchr(slash, '@', (size_t)(vis - slash)))
		n = (size_t)(slash - title);
	w = add_window(d, title, n);
	n = (size_t)(vis - l->s) + 13;
	if (read_uint(l->s, l->n, &n, 64, &v))
		w->visibility = (int)v;
	return w;
}

/* "** Graphics info for pid 3920 [com.example.shop] **": the name. */
static bool
section_name(const struct text_line *l, const char **name, size_t *n, int *pid)
{
	size_t i = strlen(SECTION_MARK);
	const char *open, *close = NULL;
	uint64_t v;

	if (!starts(l, SECTION_MARK))
		return false;
	*pid = read_uint(l->s, l->n, &i, INT32_MAX, &v) ? (int)v : -1;
	open = memchr(l->s, '[', l->n);
	for (size_t k = l->n; open && k-- > (size_t)(open - l->s);)
		if (l->s[k] == ']') {
			close = l->s + k;
			break;
		}
	*name = open && close ? open + 1 : "";
	*n = open && close ? (size_t)(close - open - 1) : 0;
	return true;
}

/* Is process `name` (n bytes) the package's: PKG or PKG:something? */
static int
of_package(const char *name, size_t n, const char *package)
{
	size_t k = strlen(package);

	if (n < k || memcmp(name, package, k))
		return 0;
	return n == k ? 2 : name[k] == ':';
}

/*
 * Where the section to read starts: with `package`, its process (exact,
 * else its first "package:..." one); else the `nth` one.  NULL when the
 * dump has no such section (d->nr_processes says whether it has any).
 */
static const char *
pick_section(struct gfx_dump *d, const char *buf, const char *end,
    const char *package, size_t nth)
{
	const char *pos = buf, *first = NULL, *sub = NULL, *at, *exact = NULL;
	struct text_line l;

	while (at = pos, text_next_line(&pos, end, &l)) {
		const char *name;
		size_t n;
		int pid, k;

		if (starts(&l, "Uptime: ") && isnan(d->uptime_ms)) {
			size_t i = strlen("Uptime: ");
			uint64_t v;

			if (read_uint(l.s, l.n, &i, UINT64_MAX / 2, &v))
				d->uptime_ms = (double)v;
		} else if (starts(&l, "No process found for: ") &&
		    !d->no_process) {
			d->no_process = xstrndup(l.s, l.n);
		} else if (starts(&l, "Applications Graphics Acceleration")) {
			d->header = true;
		}
		if (!section_name(&l, &name, &n, &pid))
			continue;
		if (!package && d->nr_processes == nth)
			first = at;
		d->nr_processes++;
		if (package && !first)
			first = at;
		if (package && (k = of_package(name, n, package)) == 2 &&
		    !exact)
			exact = at;
		else if (package && k == 1 && !sub)
			sub = at;
	}
	if (!package)
		return first;
	if (exact || sub)
		return exact ? exact : sub;
	/* One process: `dumpsys gfxinfo PKG` found it under another name. */
	if (d->nr_processes == 1)
		return first;
	d->app_missing = d->nr_processes > 1;
	return NULL;
}

static void
parse_from(struct gfx_dump *d, const char *pos, const char *end)
{
	struct gfx_window *w = NULL;
	struct profile p = { 0 };
	bool header_done = false, done = false;
	struct text_line l;
	const char *at = pos;

	d->section = pos;
	while (pos && !done && (at = pos, text_next_line(&pos, end, &l))) {
		const char *name;
		size_t n;
		int pid;

		if (section_name(&l, &name, &n, &pid)) {
			/* The next process's section ends ours. */
			if (header_done)
				break;
			d->process = xstrndup(name, n);
			d->pid = pid;
			header_done = true;
		} else if (starts(&l, PROFILE_MARK)) {
			p.open = !p.open;
			p.have_header = false;
		} else if (p.open && !p.have_header) {
			read_header(&p, &l);
			if (!profile_usable(&p))
				d->bad_headers++;
		} else if (p.open) {
			if (profile_usable(&p))
				read_row(d, &p, &l, w);
		} else if (starts(&l, "Failure while dumping the app")) {
			if (!d->failure)
				d->failure = xstrndup(l.s, l.n);
		} else if (l.n && (l.s[0] == '\t' || l.s[0] == ' ') &&
		    read_window_line(d, &l)) {
			w = &d->windows[d->nr_windows - 1];
		} else if (starts(&l, "Window: ")) {
			/* It names the window above, or starts one. */
			if (!w || w->named)
				w = add_window(d, "", 0);
			free(w->title);
			w->title = xstrndup(l.s + 8, l.n - 8);
			w->named = true;
		} else if (starts(&l, "View hierarchy:")) {
			done = true;
		} else {
			read_summary_line(d, w ? &w->sum : &d->sum, &l);
		}
	}
	d->section_len = at ? (size_t)(at - d->section) : 0;
}

void
gfx_dump_parse(struct gfx_dump *d, const char *buf, size_t len,
    const char *package)
{
	const char *start = pick_section(d, buf, buf + len,
	    package && *package ? package : NULL, 0);

	/* No section header at all: a part of a dump, read as one. */
	if (!start && !d->nr_processes)
		start = buf;
	parse_from(d, start, buf + len);
}

void
gfx_dump_parse_nth(struct gfx_dump *d, const char *buf, size_t len,
    size_t nth)
{
	const char *start = pick_section(d, buf, buf + len, NULL, nth);

	if (!start && !d->nr_processes && !nth)
		start = buf;
	parse_from(d, start, buf + len);
}

bool
gfx_dump_has_frames(const struct gfx_dump *d)
{
	if (d->nr_rows || d->sum.total > 0 || d->sum.nr_buckets)
		return true;
	for (size_t i = 0; i < d->nr_windows; i++)
		if (d->windows[i].sum.total > 0 || d->windows[i].nr_rows ||
		    d->windows[i].sum.nr_buckets)
			return true;
	return false;
}

void
gfxinfo_app_pids(const char *buf, size_t len, const char *package,
    int *pids, size_t *nr, size_t max)
{
	const char *pos = buf, *end = buf + len;
	struct text_line l;

	while (text_next_line(&pos, end, &l)) {
		const char *name;
		size_t n, k;
		int pid;

		if (!section_name(&l, &name, &n, &pid) || pid < 0 ||
		    !of_package(name, n, package))
			continue;
		for (k = 0; k < *nr && pids[k] != pid; k++)
			;
		if (k == *nr && *nr < max)
			pids[(*nr)++] = pid;
	}
}

int
gfxinfo_uptime(const char *buf, size_t len, double *mono_ms)
{
	const char *pos = buf, *end = buf + len;
	struct text_line l;

	while (text_next_line(&pos, end, &l)) {
		size_t i = strlen("Uptime: ");
		uint64_t v;

		if (starts(&l, "Uptime: ") &&
		    read_uint(l.s, l.n, &i, UINT64_MAX / 2, &v)) {
			*mono_ms = (double)v;
			return 0;
		}
	}
	return jg_error_set(JG_ENOTFOUND, "no 'Uptime:' line in the dump");
}
