/*
 * logcat_lex.c: the pieces a log line's prefix is made of (logcat_int.h):
 * digits and numbers, the times of every layout (logcat.c draws them), a
 * word, a pid or tid, a package name.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logcat.h"
#include "logcat_int.h"
#include "banned.h"

/* Seconds since boot: 12 digits is 31,000 years, and keeps doubles exact. */
#define MAX_SECONDS_DIGITS 12
/* 10^9 s since 1970 is 2001: an epoch time; fewer seconds are an uptime. */
#define EPOCH_MIN_S 1e9
/* A pid or tid has at most 9 digits. */
#define MAX_ID_DIGITS 9

bool
lc_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool
lc_is_prio(char c)
{
	return c && strchr("VDIWEFA", c);
}

size_t
lc_skip_spaces(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] == ' ')
		i++;
	return i;
}

/* Exactly `digits` digits at s[i] (0: 1..MAX_ID_DIGITS), advancing *i. */
bool
lc_read_num(const char *s, size_t n, size_t *i, size_t digits, long *out)
{
	size_t start = *i, max = digits ? digits : MAX_ID_DIGITS;
	long v = 0;

	while (*i < n && lc_is_digit(s[*i]) && *i - start < max)
		v = v * 10 + (s[(*i)++] - '0');
	if (*i == start || (digits && *i - start != digits) ||
	    (*i < n && lc_is_digit(s[*i])))
		return false;
	*out = v;
	return true;
}

/* ".mmm", ".uuuuuu" or ".nnnnnnnnn" at s[*i], as milliseconds. */
static bool
read_fraction(const char *s, size_t n, size_t *i, double *ms)
{
	double part = 0, scale = 1;
	size_t digits = 0;

	if (*i >= n || s[*i] != '.')
		return false;
	for ((*i)++; *i < n && lc_is_digit(s[*i]); (*i)++) {
		if (++digits > 9)
			return false;
		part = part * 10 + (s[*i] - '0');
		scale *= 10;
	}
	if (digits != 3 && digits != 6 && digits != 9)
		return false;
	*ms = part * 1000 / scale;
	return true;
}

/* "SSSS.mmm": monotonic or epoch seconds. */
static size_t
read_seconds(struct logcat_line *o, const char *s, size_t n, size_t i)
{
	double secs = 0, frac;
	size_t digits = 0;

	i = lc_skip_spaces(s, i, n);
	while (i < n && lc_is_digit(s[i])) {
		if (++digits > MAX_SECONDS_DIGITS)
			return 0;
		secs = secs * 10 + (s[i++] - '0');
	}
	if (!digits || !read_fraction(s, n, &i, &frac))
		return 0;
	o->time_ms = secs * 1000 + frac;
	if (secs < EPOCH_MIN_S)
		o->mono_ms = o->time_ms;
	return i;
}

/* "HH:MM:SS.mmm" at s[i]; its ms since midnight. */
static size_t
read_clock(const char *s, size_t n, size_t i, double *ms)
{
	long h, m, sec;
	double frac;

	if (!lc_read_num(s, n, &i, 2, &h) || i >= n || s[i++] != ':' ||
	    !lc_read_num(s, n, &i, 2, &m) || i >= n || s[i++] != ':' ||
	    !lc_read_num(s, n, &i, 2, &sec) || h > 23 || m > 59 || sec > 60 ||
	    !read_fraction(s, n, &i, &frac))
		return 0;
	*ms = ((double)h * 3600 + (double)m * 60 + (double)sec) * 1000 + frac;
	return i;
}

/*
 * "[YYYY-]MM-DD HH:MM:SS.mmm[ +ZZZZ]" or a bare "HH:MM:SS.mmm" (Studio):
 * local time, as ms counted from year 0 in 31-day months (it orders lines
 * and measures gaps within a month, which is all it is used for).
 */
static size_t
read_local(struct logcat_line *o, const char *s, size_t n, size_t i)
{
	long year = 0, mon, day;
	size_t at = i, after;
	double ms;

	if ((after = read_clock(s, n, i, &ms))) {
		o->time_ms = ms;
		return after;
	}
	if (lc_read_num(s, n, &at, 4, &year) && at < n && s[at] == '-')
		i = at + 1;
	else
		year = 0;
	if (!lc_read_num(s, n, &i, 2, &mon) || i >= n || s[i++] != '-' ||
	    !lc_read_num(s, n, &i, 2, &day) || i >= n || s[i++] != ' ' ||
	    mon < 1 || mon > 12 || day < 1 || day > 31 ||
	    !(i = read_clock(s, n, i, &ms)))
		return 0;
	o->time_ms = ((double)(year * 12 + mon) * 31 + (double)day) *
	    86400000.0 + ms;
	/* -v zone: " +0100" */
	if (i + 6 <= n && s[i] == ' ' && (s[i + 1] == '+' || s[i + 1] == '-')) {
		size_t z = i + 2;
		long zone;

		if (lc_read_num(s, n, &z, 4, &zone))
			i = z;
	}
	return i;
}

size_t
lc_read_time(struct logcat_line *o, const char *s, size_t n, size_t i)
{
	size_t at = lc_skip_spaces(s, i, n), after;

	/* A date starts "MM-" or "YYYY-"; seconds run to a '.'. */
	if ((after = read_local(o, s, n, at)))
		return after;
	return read_seconds(o, s, n, i);
}

/* The next run of non-blanks from s[*i]; its length, 0 at the end. */
size_t
lc_next_word(const char *s, size_t *i, size_t n, const char **word)
{
	size_t start;

	*i = lc_skip_spaces(s, *i, n);
	start = *i;
	while (*i < n && s[*i] != ' ')
		(*i)++;
	*word = s + start;
	return *i - start;
}

/* A decimal id of 1..9 digits filling w[0..len); -1 when not one. */
int
lc_id_of(const char *w, size_t len)
{
	size_t i = 0;
	long v;

	if (!lc_read_num(w, len, &i, 0, &v) || i != len)
		return -1;
	return (int)v;
}

/*
 * "(" [UID ":"] ID [":" ID [":" ID]] ")" at s[*i]: up to three fields,
 * the first of which may be a user name; *nr gets their number and *i
 * moves past ')'.
 */
bool
lc_id_parens(const char *s, size_t n, size_t *i, long *v, size_t *nr)
{
	size_t k = *i;

	if (k >= n || s[k++] != '(')
		return false;
	for (*nr = 0; *nr < 3; (*nr)++) {
		size_t start;

		k = lc_skip_spaces(s, k, n);
		start = k;
		if (!lc_read_num(s, n, &k, 0, &v[*nr])) {
			/* A user name of up to five characters, first only. */
			while (k < n && s[k] != ':' && s[k] != ')' &&
			    s[k] != ' ' && k - start <= 5)
				k++;
			if (*nr || k == start || k - start > 5 || k >= n ||
			    s[k] != ':')
				return false;
			v[*nr] = -1;
		}
		if (k < n && s[k] == ')') {
			(*nr)++;
			*i = k + 1;
			return true;
		}
		if (k >= n || s[k++] != ':')
			return false;
	}
	return false;
}

/* "PID-TID" at s[*i], advancing *i. */
bool
lc_pid_dash_tid(struct logcat_line *o, const char *s, size_t n, size_t *i)
{
	size_t k = *i;
	long pid, tid;

	if (!lc_read_num(s, n, &k, 0, &pid) || k >= n || s[k++] != '-' ||
	    !lc_read_num(s, n, &k, 0, &tid))
		return false;
	o->pid = (int)pid;
	o->tid = (int)tid;
	*i = k;
	return true;
}

/* A word that can be a package or process name, or Studio's "?". */
bool
lc_is_package(const char *w, size_t n)
{
	if (n == 1 && w[0] == '?')
		return true;
	if ((n > 4 && !memcmp(w, "pid-", 4)) ||
	    (n == 14 && !memcmp(w, "system_process", 14)))
		return true;
	if (!n || !((w[0] >= 'a' && w[0] <= 'z') || (w[0] >= 'A' &&
	    w[0] <= 'Z')) || !memchr(w, '.', n))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(lc_is_digit(w[i]) || (w[i] >= 'a' && w[i] <= 'z') ||
		    (w[i] >= 'A' && w[i] <= 'Z') || (w[i] && strchr("._:-",
		    w[i]))))
			return false;
	return true;
}
