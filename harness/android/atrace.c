/*
 * atrace.c: the android.os.Trace sections of an atrace capture (issue
 * 52: a flow marks its scenes with Trace sections of a prefix).
 *
 * `atrace --async_stop` stops the capture `atrace --async_start` began
 * and prints it: a progress word, "TRACE:", then the kernel's ftrace
 * text, one event a line:
 *
 *	capturing trace... done
 *	TRACE:
 *	# tracer: nop
 *	#
 *	# entries-in-buffer/entries-written: 412/412   #P:8
 *	#
 *	#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
 *	#              | |        |      |   ||||       |         |
 *	          atrace-4211  ( 4211) [002] ...1  5020.100210: tracing_mark_write: trace_event_clock_sync: parent_ts=5015.099854
 *	 example.shop-3127  ( 3127) [001] ...1  5021.337040: tracing_mark_write: B|3127|jankgate:feed
 *	 example.shop-3127  ( 3127) [001] ...1  5021.340112: tracing_mark_write: B|3127|RV Scroll
 *	 example.shop-3127  ( 3127) [001] ...1  5021.349550: tracing_mark_write: E|3127
 *	 example.shop-3127  ( 3127) [001] ...1  5022.901003: tracing_mark_write: E|3127
 *	    RenderThread-3160  ( 3127) [003] ...1  5023.000001: tracing_mark_write: S|3127|jankgate:checkout|7
 *	    RenderThread-3160  ( 3127) [000] ...1  5024.500000: tracing_mark_write: F|3127|jankgate:checkout|7
 *
 * TASK is the thread's name (its last 15 bytes; it may hold spaces and
 * dashes, or be "<...>"), PID the thread's id; the "( TGID)" column is
 * there from Android 7 and may read "(-----)"; TIMESTAMP is seconds on
 * the trace clock.  What Trace writes to trace_marker follows the event
 * name: B|PID|NAME opens a section of the thread, E|PID (or a bare E)
 * closes the thread's innermost one, S|PID|NAME|COOKIE and
 * F|PID|NAME|COOKIE open and close an async section, which any thread
 * may end; C (counters) and the rest are not sections.
 *
 * The trace clock is atrace's choice ("boot" when the kernel has it,
 * "mono" or "global" before): the sections come out on that clock, and
 * the clock-sync marker atrace writes at the start pairs a trace time
 * with CLOCK_MONOTONIC (parent_ts, a float of seconds, so coarse after a
 * long uptime).  Placing the sections on the frames' clock is the
 * caller's (run_markers.c).
 *
 * A capture is incomplete in two ways the text shows.  atrace does not
 * overwrite by default: once the buffer is full the kernel drops the new
 * events, so sections begun before then have no end.  With overwrite on,
 * the oldest go (entries-written above entries-in-buffer) and ends
 * appear whose begins are gone.  Both are reported, not repaired.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atrace.h"
#include "error.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

#define EVENT ": tracing_mark_write: "

/* An open B section of thread `tid`: index in sections, or -1 (other). */
struct open_sync {
	int tid;
	long idx;
};

void
atrace_capture_init(struct atrace_capture *c)
{
	memset(c, 0, sizeof(*c));
	c->sync_trace_ms = c->sync_mono_ms = NAN;
}

void
atrace_capture_release(struct atrace_capture *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->sections[i].name);
	free(c->sections);
	atrace_capture_init(c);
}

static bool
has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);

	return n >= p && !memcmp(s, prefix, p);
}

/* A decimal int of s[0..n); false when it is none or overflows. */
static bool
parse_int(const char *s, size_t n, int *out)
{
	long long v = 0;

	if (!n || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 2147483647LL)
		return false;
	*out = (int)v;
	return true;
}

/* "SECONDS.FRACTION" of s[0..n) in ms; false when it is no such number. */
static bool
parse_seconds(const char *s, size_t n, double *ms)
{
	double v = 0, scale = 0.1;
	size_t i = 0;

	if (!n || n > 24)
		return false;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (!i || i == n || s[i] != '.' || i + 1 == n)
		return false;
	for (i++; i < n; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v += (s[i] - '0') * scale;
	}
	*ms = v * 1000.0;
	return true;
}

/*
 * The thread id and time of the event line whose prefix (before EVENT)
 * is s[0..n): the last word is the time; before it, past the flags, the
 * "[CPU]" column and an optional "( TGID)", the task ends in "-TID".
 */
static bool
parse_head(const char *s, size_t n, int *tid, double *ms)
{
	size_t end = n, i;

	while (end && s[end - 1] == ' ')
		end--;
	for (i = end; i && s[i - 1] != ' '; i--)
		;
	if (!parse_seconds(s + i, end - i, ms))
		return false;
	/* Back to the CPU column's '['. */
	while (i && s[i - 1] != '[')
		i--;
	if (!i)
		return false;
	end = i - 1;
	while (end && s[end - 1] == ' ')
		end--;
	if (end && s[end - 1] == ')') {
		while (end && s[end - 1] != '(')
			end--;
		if (!end)
			return false;
		end--;
		while (end && s[end - 1] == ' ')
			end--;
	}
	for (i = end; i && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
		;
	if (!i || s[i - 1] != '-')
		return false;
	return parse_int(s + i, end - i, tid);
}

static struct atrace_section *
add_section(struct atrace_capture *c, const char *name, size_t len, int pid,
    int tid, bool async, double at)
{
	struct atrace_section *s;

	XALLOC_GROW(c->sections, c->nr + 1, c->alloc);
	s = &c->sections[c->nr++];
	s->name = xstrndup(name, len);
	s->pid = pid;
	s->tid = tid;
	s->async = async;
	s->cookie = 0;
	s->begin_ms = at;
	s->end_ms = NAN;
	return s;
}

/* The next '|'-separated field of p[0..n) at *i, into f/fn. */
static bool
field(const char *p, size_t n, size_t *i, const char **f, size_t *fn)
{
	size_t j = *i;

	if (j > n)
		return false;
	while (j < n && p[j] != '|')
		j++;
	*f = p + *i;
	*fn = j - *i;
	*i = j + 1;
	return true;
}

struct parse_state {
	struct atrace_capture *c;
	const char *prefix;
	struct open_sync *open;
	size_t nr_open, alloc_open;
};

/* B|PID|NAME or E[|PID...] of thread `tid` at `at`. */
static void
sync_event(struct parse_state *st, const char *p, size_t n, int tid,
    double at)
{
	const char *f, *name;
	size_t fn, i = 2, len;
	int pid;
	long idx = -1;

	if (p[0] == 'E') {
		for (size_t k = st->nr_open; k; k--) {
			if (st->open[k - 1].tid != tid)
				continue;
			idx = st->open[k - 1].idx;
			memmove(&st->open[k - 1], &st->open[k],
			    (st->nr_open - k) * sizeof(*st->open));
			st->nr_open--;
			if (idx >= 0)
				st->c->sections[idx].end_ms = at;
			return;
		}
		st->c->orphan_ends++;
		return;
	}
	if (n < 2 || p[1] != '|' || !field(p, n, &i, &f, &fn) ||
	    !parse_int(f, fn, &pid) || i > n)
		return;
	name = p + i;
	len = n - i;
	if (has_prefix(name, len, st->prefix)) {
		size_t skip = strlen(st->prefix);

		add_section(st->c, name + skip, len - skip, pid, tid, false,
		    at);
		idx = (long)st->c->nr - 1;
	}
	XALLOC_GROW(st->open, st->nr_open + 1, st->alloc_open);
	st->open[st->nr_open++] = (struct open_sync){ tid, idx };
}

/* S|PID|NAME|COOKIE or F|PID|NAME|COOKIE (NAME may hold '|'). */
static void
async_event(struct parse_state *st, const char *p, size_t n, int tid,
    double at)
{
	const char *f, *name;
	size_t fn, i = 2, len, skip = strlen(st->prefix), last;
	int pid, cookie;
	size_t neg;

	if (n < 2 || p[1] != '|' || !field(p, n, &i, &f, &fn) ||
	    !parse_int(f, fn, &pid) || i > n)
		return;
	for (last = n; last > i && p[last - 1] != '|'; last--)
		;
	/* A Java int: it may be negative. */
	neg = last < n && p[last] == '-';
	if (last <= i || !parse_int(p + last + neg, n - last - neg, &cookie))
		return;
	if (neg)
		cookie = -cookie;
	name = p + i;
	len = last - 1 - i;
	if (!has_prefix(name, len, st->prefix))
		return;
	name += skip;
	len -= skip;
	if (p[0] == 'S') {
		add_section(st->c, name, len, pid, tid, true, at)->cookie =
		    cookie;
		return;
	}
	for (size_t k = 0; k < st->c->nr; k++) {
		struct atrace_section *s = &st->c->sections[k];

		if (s->async && s->pid == pid && s->cookie == cookie &&
		    isnan(s->end_ms) && strlen(s->name) == len &&
		    !memcmp(s->name, name, len)) {
			s->end_ms = at;
			return;
		}
	}
}

/* "trace_event_clock_sync: parent_ts=SECONDS" at trace time `at`. */
static void
clock_sync(struct atrace_capture *c, const char *p, size_t n, double at)
{
	static const char key[] = "trace_event_clock_sync: parent_ts=";
	size_t k = sizeof(key) - 1;
	double mono;

	if (has_prefix(p, n, key) && parse_seconds(p + k, n - k, &mono) &&
	    isnan(c->sync_trace_ms)) {
		c->sync_trace_ms = at;
		c->sync_mono_ms = mono;
	}
}

/* "# entries-in-buffer/entries-written: IN/WRITTEN   #P:N" */
static void
entries(struct atrace_capture *c, const char *s, size_t n)
{
	static const char key[] = "# entries-in-buffer/entries-written: ";
	size_t k = sizeof(key) - 1, i;
	unsigned long long in = 0, written = 0;

	if (!has_prefix(s, n, key))
		return;
	for (i = k; i < n && s[i] >= '0' && s[i] <= '9' && in < 1ULL << 60;
	    i++)
		in = in * 10 + (unsigned)(s[i] - '0');
	if (i == k || i >= n || s[i] != '/')
		return;
	for (k = ++i; i < n && s[i] >= '0' && s[i] <= '9' &&
	    written < 1ULL << 60; i++)
		written = written * 10 + (unsigned)(s[i] - '0');
	if (i > k && written > in)
		c->overwritten = true;
}

static const char *
find(const char *s, size_t n, const char *what)
{
	size_t w = strlen(what);

	for (size_t i = 0; i + w <= n; i++)
		if (s[i] == what[0] && !memcmp(s + i, what, w))
			return s + i;
	return NULL;
}

int
atrace_parse(struct atrace_capture *c, const char *buf, size_t len,
    const char *prefix)
{
	struct parse_state st = { c, prefix, NULL, 0, 0 };
	const char *pos = buf, *end = buf + len;
	struct text_line l;

	while (text_next_line(&pos, end, &l)) {
		const char *ev, *p;
		size_t n;
		int tid;
		double at;

		while (l.n && l.s[l.n - 1] == '\r')
			l.n--;
		if (l.n == 6 && !memcmp(l.s, "TRACE:", 6)) {
			c->seen = true;
			continue;
		}
		if (l.n && l.s[0] == '#') {
			entries(c, l.s, l.n);
			continue;
		}
		if (find(l.s, l.n, "[LOST ") && find(l.s, l.n, " EVENTS]")) {
			c->overwritten = true;
			continue;
		}
		if (!(ev = find(l.s, l.n, EVENT)) ||
		    !parse_head(l.s, (size_t)(ev - l.s), &tid, &at))
			continue;
		p = ev + strlen(EVENT);
		n = (size_t)(l.s + l.n - p);
		if (!n)
			continue;
		if (p[0] == 'B' || (p[0] == 'E' && (n == 1 || p[1] == '|')))
			sync_event(&st, p, n, tid, at);
		else if (p[0] == 'S' || p[0] == 'F')
			async_event(&st, p, n, tid, at);
		else
			clock_sync(c, p, n, at);
	}
	free(st.open);
	if (!c->seen)
		return jg_error_set(JG_ENOTFOUND, "no trace in atrace's "
		    "output");
	return 0;
}
