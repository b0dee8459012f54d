/*
 * startup_log.c: the activity manager's launch lines (docs/formats.md §3.3),
 * tag ActivityManager up to API 28 and ActivityTaskManager from 29 (both
 * accepted on every level, for OEM builds; a bare message fits either):
 *
 *	START u0 {... cmp=com.example/.MainActivity} from uid 2000
 *	Displayed com.example/.MainActivity: +412ms
 *	Displayed com.example/.MainActivity: +3s534ms (total +1m22s643ms)
 *	Displayed com.example/.MainActivity for user 0: +412ms	(API 34)
 *	Fully drawn com.example/.MainActivity: +1s966ms
 *
 * Durations are TimeUtils.formatDuration: [+-] then d, h, m, s, ms
 * fields, or "0".  "(total ...)" (API <= 28, when a trampoline activity
 * came first) is the whole launch, the number `am start -W` prints as
 * TotalTime; the first number is the displayed activity's own.
 *
 * A START line from the shell (uid 2000) marks a launch by `am start`; in
 * a run the iteration's last one anchors its launch (startup.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logcat.h"
#include "startup_int.h"
#include "xalloc.h"
#include "banned.h"

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* When `s` (n bytes) starts with `prefix`, the rest; else NULL. */
static const char *
after(const char *s, size_t n, const char *prefix, size_t *rest)
{
	size_t k = strlen(prefix);

	if (n < k || memcmp(s, prefix, k))
		return NULL;
	*rest = n - k;
	return s + k;
}

bool
st_read_duration(const char *s, size_t n, double *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = {
		{ "ms", 1 }, { "d", 86400000 }, { "h", 3600000 },
		{ "m", 60000 }, { "s", 1000 },
	};
	size_t i = 0, fields = 0;
	double total = 0;

	if (n == 1 && s[0] == '0') {
		*ms = 0;
		return true;
	}
	if (!n || s[i++] != '+')
		return false;
	while (i < n) {
		double v = 0;
		size_t digits = 0, u;

		for (; i < n && is_digit(s[i]); i++, digits++)
			v = v * 10 + (s[i] - '0');
		if (!digits || digits > 9)
			return false;
		for (u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
			size_t k = strlen(units[u].unit);

			if (n - i >= k && !memcmp(s + i, units[u].unit, k))
				break;
		}
		if (u == sizeof(units) / sizeof(units[0]))
			return false;
		i += strlen(units[u].unit);
		total += v * units[u].ms;
		fields++;
	}
	*ms = total;
	return fields > 0;
}

/* A line of the activity manager, by tag (any tag-less line may be). */
static bool
is_am_line(const struct logcat_line *l)
{
	return logcat_tag_fits(l, "ActivityManager") ||
	    logcat_tag_fits(l, "ActivityTaskManager");
}

bool
st_comp_of(const struct st_comp *c, const char *pkg)
{
	size_t k = pkg ? strlen(pkg) : 0;

	if (!pkg)
		return st_comp_package(c) > 0;
	return c->n > k && !memcmp(c->s, pkg, k) && c->s[k] == '/';
}

size_t
st_comp_package(const struct st_comp *c)
{
	const char *slash = c->s ? memchr(c->s, '/', c->n) : NULL;

	return slash ? (size_t)(slash - c->s) : 0;
}

static bool
comp_eq(const struct st_comp *a, const struct st_comp *b)
{
	return a->n == b->n && !memcmp(a->s, b->s, a->n);
}

/*
 * "Displayed C: D", "Displayed C for user N: D", "Fully drawn C: D",
 * each maybe with " (total D)".  `prefix` picks the kind.
 */
static bool
read_timing(const struct logcat_line *l, const char *prefix,
    struct st_comp *c, double *ms, double *total_ms)
{
	const char *s, *colon, *total, *end = l->msg + l->msg_len;
	size_t n;

	if (!is_am_line(l) || !(s = after(l->msg, l->msg_len, prefix, &n)))
		return false;
	colon = memmem(s, n, ": ", 2);
	if (!colon)
		return false;
	c->s = s;
	c->n = (size_t)(colon - s);
	for (size_t i = 0; i < c->n; i++)
		if (s[i] == ' ') {
			c->n = i;	/* " for user 0" */
			break;
		}
	s = colon + 2;
	*total_ms = NAN;
	total = memmem(s, (size_t)(end - s), " (total ", 8);
	if (total && (end[-1] != ')' ||
	    !st_read_duration(total + 8, (size_t)(end - total - 9), total_ms)))
		return false;
	return st_read_duration(s, total ? (size_t)(total - s) :
	    (size_t)(end - s), ms);
}

/* "START u0 {... cmp=pkg/.Cls ...} from uid 2000": a launch by the shell. */
static bool
read_start(const struct logcat_line *l, struct st_comp *c)
{
	const char *end = l->msg + l->msg_len, *cmp, *p;
	size_t n;

	if (!is_am_line(l) || !after(l->msg, l->msg_len, "START u", &n) ||
	    !memmem(l->msg, l->msg_len, "} from uid 2000", 15))
		return false;
	cmp = memmem(l->msg, l->msg_len, " cmp=", 5);
	if (!cmp) {
		cmp = memmem(l->msg, l->msg_len, "{cmp=", 5);
		if (!cmp)
			return false;
	}
	c->s = p = cmp + 5;
	while (p < end && *p != ' ' && *p != '}')
		p++;
	c->n = (size_t)(p - c->s);
	return true;
}

void
st_launch_init(struct st_launch *l)
{
	memset(l, 0, sizeof(*l));
	l->displayed_ms = l->total_ms = l->fully_drawn_ms = NAN;
}

size_t
st_log_anchors(const struct logcat_line *lines, size_t nr, const char *pkg,
    size_t **out)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (size_t i = 0; i < nr; i++) {
		struct st_comp c;

		if (read_start(&lines[i], &c) && st_comp_of(&c, pkg)) {
			XALLOC_GROW(*out, n + 1, alloc);
			(*out)[n++] = i;
		}
	}
	return n;
}

/* Milliseconds from line a to line b on their clock; NAN when unknown. */
static double
gap_ms(const struct logcat_line *a, const struct logcat_line *b)
{
	return b->time_ms - a->time_ms;
}

void
st_log_timings(const struct logcat_line *lines, size_t until, long anchor,
    double limit_ms, const char *pkg, bool hot, struct st_launch *out)
{
	size_t from = anchor < 0 ? 0 : (size_t)anchor + 1;
	bool shown = false;

	for (size_t i = from; !hot && i < until; i++) {
		struct st_comp c;
		double ms, total;

		if (!read_timing(&lines[i], "Displayed ", &c, &ms, &total) ||
		    !st_comp_of(&c, pkg))
			continue;
		/* Later lines are the scenario opening other activities. */
		if (anchor >= 0 && gap_ms(&lines[anchor], &lines[i]) > limit_ms)
			break;
		out->comp = c;
		out->displayed_ms = ms;
		out->total_ms = total;
		shown = true;
		if (anchor >= 0)
			break;
	}
	for (size_t i = from; i < until; i++) {
		struct st_comp c;
		double ms, total;

		if (!read_timing(&lines[i], "Fully drawn ", &c, &ms, &total) ||
		    !st_comp_of(&c, pkg) || (shown && !comp_eq(&c, &out->comp)))
			continue;
		out->fully_drawn_ms = ms;
		if (!shown && !out->comp.s)
			out->comp = c;
		if (anchor >= 0)
			break;
	}
}

static struct st_launch *
add_launch(struct st_launch **v, size_t *nr, size_t *alloc)
{
	XALLOC_GROW(*v, *nr + 1, *alloc);
	st_launch_init(&(*v)[*nr]);
	return &(*v)[(*nr)++];
}

size_t
st_log_launches(const struct logcat_line *lines, size_t nr, const char *pkg,
    struct st_launch **out)
{
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (size_t i = 0; i < nr; i++) {
		struct st_launch *l;
		struct st_comp c;
		double ms, total;

		if (!read_timing(&lines[i], "Displayed ", &c, &ms, &total) ||
		    !st_comp_of(&c, pkg))
			continue;
		l = add_launch(out, &n, &alloc);
		l->comp = c;
		l->displayed_ms = ms;
		l->total_ms = total;
		/* Its Fully drawn comes before the activity shows again. */
		for (size_t j = i + 1; j < nr; j++) {
			struct st_comp d;

			if (read_timing(&lines[j], "Displayed ", &d, &ms,
			    &total) && comp_eq(&c, &d))
				break;
			if (read_timing(&lines[j], "Fully drawn ", &d, &ms,
			    &total) && comp_eq(&c, &d)) {
				l->fully_drawn_ms = ms;
				break;
			}
		}
	}
	for (size_t i = 0, any = n; !any && i < nr; i++) {
		struct st_launch *l;
		struct st_comp c;
		double ms, total;

		if (!read_timing(&lines[i], "Fully drawn ", &c, &ms, &total) ||
		    !st_comp_of(&c, pkg))
			continue;
		l = add_launch(out, &n, &alloc);
		l->comp = c;
		l->fully_drawn_ms = ms;
	}
	return n;
}
