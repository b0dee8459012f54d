/*
 * retain.c: the baseline.retain rule, parsed and applied to one key's
 * runs (retain.h draws the syntax).  No repository here: the store
 * (baseline_git_retain.c) hands in times and gets back what stays.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "retain.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define DAY_S (24 * 60 * 60LL)

static const struct {
	const char *name;
	enum retain_period period;
} periods[] = {
	{ "daily", RETAIN_DAY },
	{ "weekly", RETAIN_WEEK },
	{ "monthly", RETAIN_MONTH },
};

/* "90d", "12w", "2y" at *s; advances *s.  0 or -1. */
static int
parse_age(long long *out, const char **s)
{
	long long n = 0;
	const char *p = *s;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		n = n * 10 + (*p - '0');
		if (n > 100000)
			return -1;
	}
	switch (*p) {
	case 'd':
		n *= DAY_S;
		break;
	case 'w':
		n *= 7 * DAY_S;
		break;
	case 'y':
		n *= 365 * DAY_S;
		break;
	default:
		return -1;
	}
	if (!n)
		return -1;
	*out = n;
	*s = p + 1;
	return 0;
}

static int
parse_tier(struct retain_tier *t, const char **s)
{
	for (size_t i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		size_t len = strlen(periods[i].name);

		if (strncmp(*s, periods[i].name, len))
			continue;
		*s += len;
		t->period = periods[i].period;
		t->until_s = 0;
		if (**s != ':')
			return 0;
		(*s)++;
		return parse_age(&t->until_s, s);
	}
	return -1;
}

static int __attribute__((format(printf, 2, 3)))
retain_why(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(why, fmt, ap);
	va_end(ap);
	return -1;
}

int
retain_check(struct retain_rule *out, const char *s, struct strbuf *why)
{
	const char *p = s;
	long long last;

	memset(out, 0, sizeof(*out));
	if (parse_age(&out->all_s, &p) < 0)
		return retain_why(why, "'%s' does not start with an "
		    "age such as 90d, 12w or 1y (every run younger stays)", s);
	last = out->all_s;
	while (*p == ',') {
		struct retain_tier *t;

		p++;
		if (out->nr == RETAIN_TIERS_MAX)
			return retain_why(why, "'%s' has more than %d "
			    "tiers", s, RETAIN_TIERS_MAX);
		if (out->nr && !out->tier[out->nr - 1].until_s)
			return retain_why(why, "in '%s', a tier "
			    "follows one without an age; only the last may "
			    "omit it", s);
		t = &out->tier[out->nr];
		if (parse_tier(t, &p) < 0)
			return retain_why(why, "in '%s', expected "
			    "daily, weekly or monthly, optionally with "
			    ":AGE (such as weekly:1y), at '%s'", s,
			    p[-1] == ',' ? p : p - 1);
		if (t->until_s && t->until_s <= last)
			return retain_why(why, "in '%s', each age must "
			    "be greater than the one before it", s);
		last = t->until_s;
		out->nr++;
	}
	if (*p)
		return retain_why(why, "in '%s', unexpected '%s' "
		    "(tiers are separated by commas)", s, p);
	return 0;
}

int
retain_parse(struct retain_rule *out, const char *s)
{
	struct strbuf why = STRBUF_INIT;
	int err = 0;

	if (retain_check(out, s, &why) < 0)
		err = jg_error_set(JG_EINVAL, "%s", why.buf);
	strbuf_release(&why);
	return err;
}

/* The period of `t` in `period` units since 1970. */
static long long
period_of(enum retain_period period, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	long long days = t >= 0 ? t / DAY_S : -((-t + DAY_S - 1) / DAY_S);

	switch (period) {
	case RETAIN_DAY:
		return days;
	case RETAIN_WEEK:
		/* 1970-01-01 was a Thursday: Monday is 3 days later. */
		days -= 4;
		return days >= 0 ? days / 7 : -((-days + 6) / 7);
	case RETAIN_MONTH:
	default:
		if (!gmtime_r(&tt, &tm))
			return 0;
		return (tm.tm_year + 1900LL) * 12 + tm.tm_mon;
	}
}

struct run {
	long long time;
	size_t index;
};

static int
newest_first(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void
retain_select(int *keep, const struct retain_rule *r, long long now,
    const long long *times, const int *pinned, size_t n)
{
	struct run *runs = xcalloc(n + 1, sizeof(*runs));
	size_t next = 0;

	for (size_t i = 0; i < n; i++) {
		runs[i].time = times[i];
		runs[i].index = i;
		keep[i] = pinned && pinned[i];
	}
	qsort(runs, n, sizeof(*runs), newest_first);
	/* Younger than the first age: all stay. */
	for (; next < n && now - runs[next].time < r->all_s; next++)
		keep[runs[next].index] = 1;
	/* Each tier: the newest of each of its periods, in time order. */
	for (size_t k = 0; k < r->nr; k++) {
		const struct retain_tier *t = &r->tier[k];
		long long seen = 0;
		int any = 0;

		for (; next < n && (!t->until_s ||
		    now - runs[next].time < t->until_s);
		    next++) {
			const struct run *run = &runs[next];
			long long p = period_of(t->period, run->time);

			if (pinned && pinned[run->index])
				continue;
			if (any && p == seen)
				continue;
			keep[run->index] = 1;
			seen = p;
			any = 1;
		}
	}
	/* Older than the last age: only pinned runs stay (set above). */
	free(runs);
}
