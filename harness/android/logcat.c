/*
 * logcat.c: one log line in any layout (logcat.h), told apart by its
 * prefix alone.
 *
 * logcat's layouts, from liblog's android_log_formatLogLine (docs/formats.md
 * §3.5); TIME is any time below, UID the `-v uid` column (a number, or a user
 * name of up to five characters, or six blanks when unknown):
 *
 *   threadtime  TIME " " [UID " "] "%5d %5d %c %-8s: " msg
 *   time        TIME " %c/%-8s(" [UID ":"] "%5d): " msg
 *   brief       "%c/%-8s(" [UID ":"] "%5d): " msg
 *   process     "%c(" [UID ":"] "%5d) " msg "  (" tag ")"
 *   thread      "%c(" [UID ":"] "%5d:%5d) " msg
 *   tag         "%c/%-8s: " msg
 *   long        "[ " TIME " " [UID ":"] "%5d:%5d %c/%-8s ]", then the
 *               message's lines and a blank line (logcat_buf.c)
 *
 *   TIME        "%m-%d %H:%M:%S.mmm"           (default)
 *               "%Y-%m-%d %H:%M:%S.mmm"        (-v year)
 *               "%19lld.mmm" seconds since 1970 (-v epoch)
 *               "%6lld.mmm" seconds since boot  (-v monotonic)
 *               .mmm may be .uuuuuu (-v usec) or .nnnnnnnnn (-v nsec);
 *               " +0100" may follow a date (-v zone)
 *
 * Layouts no logcat -v prints but users paste:
 *
 *   tag only    TAG ": " msg     (a grep of a capture, a blog's excerpt;
 *               TAG one word with a capital letter: "ActivityTaskManager")
 *   time, no pid  TIME " %c %s: " msg       (threadtime less its ids)
 *   Eclipse     TIME ": %c/%s(%d): " msg   (Eclipse's DDMS Logcat view;
 *               "(%d)" may be missing)
 *
 * `-v color` wraps a line in "ESC[3Nm" ... "ESC[0m"; both are dropped.
 * Epoch and monotonic seconds look alike: 10^9 seconds and more is an
 * epoch time (2001 on), less is an uptime (31 years).
 *
 * Android Studio's layouts, as its Logcat window copies them:
 *
 *   up to 2021  [DATE " " TIME " "] [PID "-" TID "/"] [PKG " "] "%c/" tag
 *               ": " msg        (PKG "?" when unknown)
 *   1.x         the same, but U+FE55 SMALL COLON "\xef\xb9\x95" (and
 *               maybe a blank) instead of ": " after the tag
 *   from 2022   [DATE " "] [TIME " "] [PID "-" TID] tag pkg "%c  " msg
 *               in blank-padded columns; the tag may hold blanks and
 *               colons, pkg is one word ("system_process", "pid-123")
 *
 * Both indent the later lines of a message instead of repeating the
 * prefix (logcat_buf.c joins them to their entry).
 *
 * Tags end at the first ": " where a colon ends them; a line cut inside
 * its tag (logcat caps an entry near 4 KB, captures get truncated) keeps
 * the tag and an empty message in the layouts that put a time or pid
 * first, and is a bare message in the others.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "logcat.h"
#include "logcat_int.h"
#include "banned.h"

static const char *const layout_names[LOGCAT_NR_LAYOUTS] = {
	[LOGCAT_BARE] = "bare",
	[LOGCAT_THREADTIME] = "threadtime",
	[LOGCAT_TIME] = "time",
	[LOGCAT_BRIEF] = "brief",
	[LOGCAT_PROCESS] = "process",
	[LOGCAT_THREAD] = "thread",
	[LOGCAT_TAG] = "tag",
	[LOGCAT_LONG] = "long",
	[LOGCAT_STUDIO] = "Android Studio",
	[LOGCAT_STUDIO_COLUMNS] = "Android Studio (columns)",
	[LOGCAT_MARKER] = "Android Studio process marker",
	[LOGCAT_TAG_ONLY] = "tag only",
	[LOGCAT_TIME_PRIO] = "time and priority, no pid",
	[LOGCAT_ECLIPSE] = "Eclipse DDMS",
	[LOGCAT_STUDIO_1] = "Android Studio 1.x",
};

/* Trim trailing blanks off a tag. */
static void
set_tag(struct logcat_line *o, const char *tag, size_t len)
{
	while (len && (tag[len - 1] == ' ' || tag[len - 1] == '\t'))
		len--;
	o->tag = tag;
	o->tag_len = len;
}

static void
set_msg(struct logcat_line *o, const char *s, size_t n, size_t i)
{
	o->msg = s + (i < n ? i : n);
	o->msg_len = i < n ? n - i : 0;
}

/* threadtime after TIME: " [UID] PID TID P TAG: msg". */
static bool
body_threadtime(struct logcat_line *o, const char *s, size_t n, size_t i)
{
	const char *w[4], *tag, *sep;
	size_t len[4], nr = 0, end;

	if (i >= n || s[i] != ' ')
		return false;
	/* The priority letter ends the columns: 2 or 3 before it. */
	while (nr < 4) {
		len[nr] = lc_next_word(s, &i, n, &w[nr]);
		if (!len[nr])
			return false;
		if (len[nr] == 1 && lc_is_prio(w[nr][0]))
			break;
		nr++;
	}
	if (nr != 0 && nr != 2 && nr != 3)
		return false;
	if (nr) {
		o->pid = lc_id_of(w[nr - 2], len[nr - 2]);
		o->tid = lc_id_of(w[nr - 1], len[nr - 1]);
		if (o->pid < 0 || o->tid < 0)
			return false;
	}
	o->prio = w[nr][0];
	tag = s + (i < n ? i + 1 : n);
	end = (size_t)(s + n - tag);
	sep = memmem(tag, end, ": ", 2);
	if (sep) {
		set_msg(o, s, n, (size_t)(sep + 2 - s));
	} else {
		/* A cut line or an empty message ("tag:" or just "tag"). */
		sep = tag + end;
		if (end && tag[end - 1] == ':')
			sep--;
		set_msg(o, s, n, n);
	}
	set_tag(o, tag, (size_t)(sep - tag));
	o->layout = nr ? LOGCAT_THREADTIME : LOGCAT_TIME_PRIO;
	return true;
}

/* Android Studio 1.x's separator after a tag, U+FE55 SMALL COLON. */
#define SMALL_COLON "\xef\xb9\x95"
#define SMALL_COLON_LEN 3

/*
 * The first tag separator in s[i..n): ": " (*sep_len 2), or a small colon
 * and the blank after it if any (*sep_len 3 or 4); NULL when none.
 */
static const char *
find_separator(const char *s, size_t n, size_t i, size_t *sep_len)
{
	const char *colon = memmem(s + i, n - i, ": ", 2);
	const char *small = memmem(s + i, n - i, SMALL_COLON, SMALL_COLON_LEN);

	if (small && (!colon || small < colon)) {
		*sep_len = SMALL_COLON_LEN;
		if (small + SMALL_COLON_LEN < s + n &&
		    small[SMALL_COLON_LEN] == ' ')
			(*sep_len)++;
		return small;
	}
	*sep_len = 2;
	return colon;
}

/*
 * "TAG: msg" from s[i] (the tag layouts); false without ": " or ':'.
 * *small tells whether a small colon (Studio 1.x) ended the tag.
 */
static bool
tag_colon(struct logcat_line *o, const char *s, size_t n, size_t i,
    bool *small)
{
	size_t sep_len;
	const char *sep = find_separator(s, n, i, &sep_len);

	*small = sep && sep_len > 2;
	if (sep) {
		set_tag(o, s + i, (size_t)(sep - (s + i)));
		set_msg(o, s, n, (size_t)(sep + sep_len - s));
		return true;
	}
	if (n > i && s[n - 1] == ':') {
		set_tag(o, s + i, n - 1 - i);
		set_msg(o, s, n, n);
		return true;
	}
	return false;
}

/* "P/TAG(" [UID ":"] "PID): msg" from s[i] (brief, time). */
static bool
slash_paren(struct logcat_line *o, const char *s, size_t n, size_t i)
{
	size_t tag = i + 2;

	if (i + 2 >= n || !lc_is_prio(s[i]) || s[i + 1] != '/')
		return false;
	for (size_t p = tag; p < n; p++) {
		long v[3];
		size_t k = p, nr;

		if (s[p] != '(' || !lc_id_parens(s, n, &k, v, &nr) || nr > 2 ||
		    v[nr - 1] < 0 || k >= n || s[k] != ':' ||
		    (k + 1 < n && s[k + 1] != ' '))
			continue;
		o->prio = s[i];
		o->pid = (int)v[nr - 1];
		set_tag(o, s + tag, p - tag);
		set_msg(o, s, n, k + 2);
		return true;
	}
	return false;
}

/* "P(...) msg[  (TAG)]" from s[i]: process or thread. */
static bool
paren_first(struct logcat_line *o, const char *s, size_t n, size_t i)
{
	size_t k = i + 1, nr, end = n;
	const char *open = NULL;
	long v[3];

	if (i + 1 >= n || !lc_is_prio(s[i]) ||
	    !lc_id_parens(s, n, &k, v, &nr) || (k < n && s[k] != ' '))
		return false;
	/* process ends in "  (TAG)"; the last such group is the tag. */
	if (n > k + 4 && s[n - 1] == ')')
		for (size_t p = n - 1; p-- > k + 2;)
			if (s[p] == '(' && s[p - 1] == ' ' && s[p - 2] == ' ') {
				open = s + p;
				break;
			}
	o->prio = s[i];
	if (open && nr <= 2 && v[nr - 1] >= 0) {
		o->pid = (int)v[nr - 1];
		set_tag(o, open + 1, (size_t)(s + n - 1 - open - 1));
		end = (size_t)(open - s) - 2;
		o->layout = LOGCAT_PROCESS;
	} else if (nr >= 2 && v[nr - 1] >= 0 && v[nr - 2] >= 0) {
		o->pid = (int)v[nr - 2];
		o->tid = (int)v[nr - 1];
		o->layout = LOGCAT_THREAD;
	} else if (nr == 1 && v[0] >= 0) {
		/* process cut before its tag */
		o->pid = (int)v[0];
		o->layout = LOGCAT_PROCESS;
	} else {
		return false;
	}
	set_msg(o, s, end, k + 1);
	return true;
}

/* Studio up to 2021 from s[i]: "[PID-TID/][PKG ]P/TAG: msg". */
static bool
body_studio(struct logcat_line *o, const char *s, size_t n, size_t i,
    bool timed)
{
	bool pid = lc_pid_dash_tid(o, s, n, &i), slash = false, small;
	size_t start;

	if (pid && i < n && s[i] == '/')
		slash = true, i++;
	else if (pid && (i >= n || s[i] != ' '))
		return false;
	i = slash ? i : lc_skip_spaces(s, i, n);
	start = i;
	/* The package column, unless "P/" comes first. */
	if (slash || i + 1 >= n || !lc_is_prio(s[i]) || s[i + 1] != '/') {
		while (i < n && s[i] != ' ')
			i++;
		if (!lc_is_package(s + start, i - start))
			return false;
		if (i - start != 1 || s[start] != '?') {
			o->pkg = s + start;
			o->pkg_len = i - start;
		}
	} else if (!pid && !timed) {
		return false;
	}
	i = lc_skip_spaces(s, i, n);
	if (i + 2 >= n || !lc_is_prio(s[i]) || s[i + 1] != '/' ||
	    !tag_colon(o, s, n, i + 2, &small))
		return false;
	o->prio = s[i];
	o->layout = small ? LOGCAT_STUDIO_1 : LOGCAT_STUDIO;
	return true;
}

/* Studio from 2022 from s[i]: "[PID-TID] TAG PKG P  msg" in columns. */
static bool
body_columns(struct logcat_line *o, const char *s, size_t n, size_t i,
    bool timed)
{
	size_t k, cols, end, w;

	i = lc_skip_spaces(s, i, n);
	if (lc_pid_dash_tid(o, s, n, &i)) {
		if (i < n && s[i] != ' ')
			return false;
	} else if (!timed) {
		return false;
	}
	i = lc_skip_spaces(s, i, n);
	/* The level: one letter between a blank and two blanks (or the end). */
	for (k = i; k < n; k++)
		if (lc_is_prio(s[k]) && (k == i || s[k - 1] == ' ') &&
		    (k + 1 == n || (k + 2 < n && s[k + 1] == ' ' &&
		    s[k + 2] == ' ')))
			break;
	if (k >= n)
		return false;
	o->prio = s[k];
	set_msg(o, s, n, k + 3);
	cols = i;
	end = k;
	while (end > cols && s[end - 1] == ' ')
		end--;
	/* The package column is the last word, when it looks like one. */
	for (w = end; w > cols && s[w - 1] != ' '; w--)
		;
	if (w > cols && lc_is_package(s + w, end - w)) {
		if (end - w != 1 || s[w] != '?') {
			o->pkg = s + w;
			o->pkg_len = end - w;
		}
		end = w;
		while (end > cols && s[end - 1] == ' ')
			end--;
	}
	if (end > cols)
		set_tag(o, s + cols, end - cols);
	o->layout = LOGCAT_STUDIO_COLUMNS;
	return true;
}

/*
 * "TAG: msg" with no priority: TAG one word of letters, digits and "._$-"
 * that starts with a letter and holds a capital one, so that a message's
 * own "key: value" ("type: UI BLOCK", "msg: ...") is not taken for a tag.
 */
static bool
tag_only(struct logcat_line *o, const char *s, size_t n)
{
	size_t i = 0, sep_len;
	bool capital = false;

	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' &&
	    s[0] <= 'Z')))
		return false;
	for (; i < n; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			capital = true;
		else if (!(lc_is_digit(c) || (c >= 'a' && c <= 'z') ||
		    (c && strchr("._$-", c))))
			break;
	}
	if (!capital || i < 2 || find_separator(s, n, i, &sep_len) != s + i)
		return false;
	set_tag(o, s, i);
	set_msg(o, s, n, i + sep_len);
	o->layout = LOGCAT_TAG_ONLY;
	return true;
}

/* "[ TIME [UID:] PID:TID P/TAG ]": a -v long header, no message. */
static bool
long_header(struct logcat_line *o, const char *s, size_t n)
{
	size_t i, close;
	long v[3];
	size_t nr = 0;

	if (n < 4 || memcmp(s, "[ ", 2) || s[n - 1] != ']' || s[n - 2] != ' ')
		return false;
	i = lc_read_time(o, s, n, 2);
	if (!i || i >= n || s[i] != ' ')
		return false;
	/* [UID:] PID:TID, blank-padded, like the inside of lc_id_parens(). */
	while (nr < 3) {
		size_t start;

		i = lc_skip_spaces(s, i, n);
		start = i;
		if (!lc_read_num(s, n, &i, 0, &v[nr])) {
			while (i < n && s[i] != ':' && s[i] != ' ' &&
			    i - start <= 5)
				i++;
			if (nr || i == start || i - start > 5 || i >= n ||
			    s[i] != ':')
				return false;
			v[nr] = -1;
		}
		nr++;
		if (i >= n || s[i] != ':')
			break;
		i++;
	}
	if (nr < 2 || v[nr - 1] < 0 || v[nr - 2] < 0 || i >= n || s[i] != ' ')
		return false;
	i = lc_skip_spaces(s, i, n);
	close = n - 2;
	if (i + 2 > close || !lc_is_prio(s[i]) || s[i + 1] != '/')
		return false;
	o->pid = (int)v[nr - 2];
	o->tid = (int)v[nr - 1];
	o->prio = s[i];
	set_tag(o, s + i + 2, close - (i + 2));
	set_msg(o, s, n, n);
	o->layout = LOGCAT_LONG;
	return true;
}

/* Drop `-v color`'s "ESC[..m" in front and "ESC[0m" behind. */
static void
strip_color(const char **s, size_t *n)
{
	if (*n >= 3 && (*s)[0] == '\x1b' && (*s)[1] == '[') {
		size_t i = 2;

		while (i < *n && (lc_is_digit((*s)[i]) || (*s)[i] == ';'))
			i++;
		if (i < *n && (*s)[i] == 'm') {
			*s += i + 1;
			*n -= i + 1;
		}
	}
	if (*n >= 4 && !memcmp(*s + *n - 4, "\x1b[0m", 4))
		*n -= 4;
}

static void
line_init(struct logcat_line *o, const char *s)
{
	memset(o, 0, sizeof(*o));
	o->mono_ms = o->time_ms = NAN;
	o->pid = o->tid = -1;
	o->msg = s;
}

int
logcat_parse_line(struct logcat_line *out, const char *line, size_t len)
{
	struct logcat_line o;
	bool small;
	size_t i;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	strip_color(&line, &len);
	line_init(&o, line);
	if (long_header(&o, line, len))
		goto ok;
	line_init(&o, line);
	if ((i = lc_read_time(&o, line, len, 0))) {
		struct logcat_line t = o;

		if (body_threadtime(&o, line, len, i))
			goto ok;
		o = t;
		if (i < len && line[i] == ' ' &&
		    slash_paren(&o, line, len, i + 1)) {
			o.layout = LOGCAT_TIME;
			goto ok;
		}
		o = t;
		if (i + 3 < len && line[i] == ':' && line[i + 1] == ' ' &&
		    (slash_paren(&o, line, len, i + 2) ||
		    (lc_is_prio(line[i + 2]) && line[i + 3] == '/' &&
		    tag_colon(&o, line, len, i + 4, &small)))) {
			o.prio = line[i + 2];
			o.layout = LOGCAT_ECLIPSE;
			goto ok;
		}
		o = t;
		if (i < len && line[i] == ' ' &&
		    body_studio(&o, line, len, lc_skip_spaces(line, i, len),
		    true))
			goto ok;
		o = t;
		if (body_columns(&o, line, len, i, true))
			goto ok;
	}
	line_init(&o, line);
	if (slash_paren(&o, line, len, 0)) {
		o.layout = LOGCAT_BRIEF;
		goto ok;
	}
	line_init(&o, line);
	if (paren_first(&o, line, len, 0))
		goto ok;
	line_init(&o, line);
	if (body_studio(&o, line, len, 0, false))
		goto ok;
	line_init(&o, line);
	if (body_columns(&o, line, len, 0, false))
		goto ok;
	line_init(&o, line);
	if (len > 2 && lc_is_prio(line[0]) && line[1] == '/' &&
	    tag_colon(&o, line, len, 2, &small)) {
		o.prio = line[0];
		o.layout = small ? LOGCAT_STUDIO_1 : LOGCAT_TAG;
		goto ok;
	}
	line_init(&o, line);
	if (tag_only(&o, line, len))
		goto ok;
	return jg_error_set(JG_EINVAL, "not a logcat line in a known layout");
ok:
	*out = o;
	return 0;
}

const char *
logcat_layout_name(enum logcat_layout layout)
{
	return layout < LOGCAT_NR_LAYOUTS ? layout_names[layout] : "?";
}

bool
logcat_tag_fits(const struct logcat_line *l, const char *tag)
{
	size_t n = strlen(tag);

	if (l->layout == LOGCAT_MARKER)
		return false;
	return !l->tag || (l->tag_len == n && !memcmp(l->tag, tag, n));
}

bool
logcat_tag_suffix_fits(const struct logcat_line *l, const char *suffix)
{
	size_t n = strlen(suffix);

	if (l->layout == LOGCAT_MARKER)
		return false;
	return !l->tag || (l->tag_len > n &&
	    !memcmp(l->tag + l->tag_len - n, suffix, n));
}

bool
logcat_same_time(const struct logcat_line *a, const struct logcat_line *b)
{
	return (isnan(a->time_ms) && isnan(b->time_ms)) ||
	    a->time_ms == b->time_ms;
}
