/*
 * gfxinfo_dump.c: read a `dumpsys gfxinfo PKG framestats` dump into the
 * record of gfxinfo_dump.h (docs/formats.md §3.1).
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
 * again inside each window); unknown lines are skipped.  A HISTOGRAM
 * line a paste wrapped is joined with the lines that continue it (lines
 * of buckets only).  Only the section
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
#include "gfxinfo_dump.h"
#include "gfxinfo_int.h"
#include "strbuf.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

#define SECTION_MARK "** Graphics info for pid "




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
	if (gfx_read_uint(l->s, l->n, &n, 64, &v))
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

	if (!gfx_line_starts(l, SECTION_MARK))
		return false;
	*pid = gfx_read_uint(l->s, l->n, &i, INT32_MAX, &v) ? (int)v : -1;
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

		if (gfx_line_starts(&l, "Uptime: ") && isnan(d->uptime_ms)) {
			size_t i = strlen("Uptime: ");
			uint64_t v;

			if (gfx_read_uint(l.s, l.n, &i, UINT64_MAX / 2, &v))
				d->uptime_ms = (double)v;
		} else if (gfx_line_starts(&l, "No process found for: ") &&
		    !d->no_process) {
			d->no_process = xstrndup(l.s, l.n);
		} else if (gfx_line_starts(&l,
		    "Applications Graphics Acceleration")) {
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

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * A line that can only be more of a HISTOGRAM line ("53ms=0 57ms=1",
 * "5ms=0 ...", "1 61ms=0"): digits, "ms=", blanks and dots or "…".
 */
static bool
is_wrapped_part(const struct text_line *l)
{
	for (size_t i = 0; i < l->n; i++) {
		unsigned char c = (unsigned char)l->s[i];

		if (!is_digit((char)c) && !strchr("ms=. ", c) && c != 0xe2 &&
		    c != 0x80 && c != 0xa6)
			return false;
	}
	return l->n && (is_digit(l->s[0]) || l->s[0] == '=' ||
	    l->s[0] == 'm' || l->s[0] == 's' || memchr(l->s, '=', l->n));
}

/* s[0..n) is a whole bucket, "57ms=1". */
static bool
is_bucket(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_digit(s[i]))
		i++;
	if (!i || n - i < 4 || memcmp(s + i, "ms=", 3))
		return false;
	for (i += 3; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

/*
 * The HISTOGRAM line `l` and the lines that continue it where a paste
 * wrapped it, into `out`; *pos moves past them.  A wrap between two
 * whole tokens stood for a blank; one inside a token ("12" then "5ms=0",
 * "7ms=1" then "5 8ms=0"), for nothing.  A wrong join shows as buckets
 * that do not sum to the total, which gfxinfo_hist.c judges.
 */
static void
join_wrapped(struct strbuf *out, const struct text_line *l, const char **pos,
    const char *end)
{
	const char *next = *pos;
	struct text_line w;

	strbuf_add(out, l->s, l->n);
	while (next < end && text_next_line(&next, end, &w) &&
	    is_wrapped_part(&w)) {
		size_t last = out->len, first = 0;

		while (last && out->buf[last - 1] != ' ')
			last--;
		while (first < w.n && w.s[first] != ' ')
			first++;
		if (out->buf[out->len - 1] == '.' || w.s[0] == '.' ||
		    (is_bucket(out->buf + last, out->len - last) &&
		    is_bucket(w.s, first)))
			strbuf_addch(out, ' ');
		strbuf_add(out, w.s, w.n);
		*pos = next;
	}
}

static void
parse_from(struct gfx_dump *d, const char *pos, const char *end)
{
	struct gfx_window *w = NULL;
	struct gfx_profile p = { 0 };
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
		} else if (gfx_line_starts(&l, GFX_PROFILE_MARK)) {
			p.open = !p.open;
			p.have_header = false;
		} else if (p.open && !p.have_header) {
			gfx_read_profile_header(&p, &l);
			if (!gfx_profile_usable(&p))
				d->bad_headers++;
		} else if (p.open) {
			if (gfx_profile_usable(&p))
				gfx_read_profile_row(d, &p, &l, w);
		} else if (gfx_line_starts(&l,
		    "Failure while dumping the app")) {
			if (!d->failure)
				d->failure = xstrndup(l.s, l.n);
		} else if (l.n && (l.s[0] == '\t' || l.s[0] == ' ') &&
		    read_window_line(d, &l)) {
			w = &d->windows[d->nr_windows - 1];
		} else if (gfx_line_starts(&l, "Window: ")) {
			/* It names the window above, or starts one. */
			if (!w || w->named)
				w = add_window(d, "", 0);
			free(w->title);
			w->title = xstrndup(l.s + 8, l.n - 8);
			w->named = true;
		} else if (gfx_line_starts(&l, "View hierarchy:")) {
			done = true;
		} else if (gfx_line_starts(&l, "HISTOGRAM:")) {
			struct strbuf joined = STRBUF_INIT;
			struct text_line jl;

			join_wrapped(&joined, &l, &pos, end);
			jl.s = joined.buf;
			jl.n = joined.len;
			gfx_read_summary_line(d, w ? &w->sum : &d->sum, &jl);
			strbuf_release(&joined);
		} else {
			gfx_read_summary_line(d, w ? &w->sum : &d->sum, &l);
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

		if (gfx_line_starts(&l, "Uptime: ") &&
		    gfx_read_uint(l.s, l.n, &i, UINT64_MAX / 2, &v)) {
			*mono_ms = (double)v;
			return 0;
		}
	}
	return jg_error_set(JG_ENOTFOUND, "no 'Uptime:' line in the dump");
}

int
gfxinfo_realtime(const char *buf, size_t len, double *boot_ms)
{
	static const char key[] = " Realtime: ";
	const char *pos = buf, *end = buf + len;
	struct text_line l;

	while (text_next_line(&pos, end, &l)) {
		size_t i = strlen("Uptime: ");
		uint64_t v;

		if (!gfx_line_starts(&l, "Uptime: ") ||
		    !gfx_read_uint(l.s, l.n, &i, UINT64_MAX / 2, &v))
			continue;
		if (l.n - i < sizeof(key) - 1 || memcmp(l.s + i, key,
		    sizeof(key) - 1))
			break;
		i += sizeof(key) - 1;
		if (!gfx_read_uint(l.s, l.n, &i, UINT64_MAX / 2, &v))
			break;
		*boot_ms = (double)v;
		return 0;
	}
	return jg_error_set(JG_ENOTFOUND, "no 'Realtime:' in the dump");
}
