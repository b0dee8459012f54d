/*
 * blockcanary_log.c: one BlockCanary looper log, and its device times.
 *
 * The layout (docs/formats.md §2; every line ends in \r\n, shown as nothing
 * here, and an empty line is a bare \r\n):
 *
 *	                                        <- the file starts empty
 *	**********************
 *	2016-11-02 14:05:33(write log time)
 *
 *	qua = 1_1.0_YYB                         <- "key = value", 1.3+ names
 *	...
 *	time = 1203                             <- wall ms of the block
 *	thread-time = 1198                      <- main-thread CPU ms
 *	time-start = 11-02 14:05:32.011         <- MM-dd HH:mm:ss.SSS, local
 *	time-end = 11-02 14:05:33.214
 *	cpu-busy = false
 *	cpu-rate = 11-02 14:05:32.811 cpu:35% app:12% [...]
 *	11-02 14:05:33.013 cpu:38% app:13% [...]   <- more rates, to a blank
 *
 *	stack = 11-02 14:05:32.814              <- first sample's time
 *
 *	java.lang.Thread.sleep(Native Method)   <- frames, top first
 *	...
 *
 *	11-02 14:05:33.014                      <- next sample
 *
 *	...
 *	                                        <- three empty lines end it
 *
 * Versions 1.0-1.2 use the same layout with the names qualifier,
 * apilevel, cpuCore, processName, timecost, threadtimecost, timestart,
 * timeend, cpubusy, cpurate.  Samples are split on their timestamp lines
 * (a bare `MM-dd HH:mm:ss.SSS`), not on blank lines as BlockCanary's own
 * reader does, so a sample's time stays with its frames.
 *
 * "stack" is the last key: once it is seen every line is a sample time,
 * a frame or blank, whatever it contains, so a frame holding " = " cannot
 * pose as a key.  Whether the file is whole is read from the format:
 * BlockCanary writes the file itself, whole entries of whole lines (no
 * logcat entry limit applies), and an entry is complete once its stack
 * section is.  A file that stops before `stack`, or whose last sample
 * has no frame, or whose last frame is cut (Java prints every frame
 * "class.method(...)", so a frame line not ending in ')' lost its end),
 * is marked truncated; so is one that reaches the caps of blockcanary.h.
 * The closing blank lines are not asked for: a paste or a copy from the
 * app's screen loses them, and no frame with them.
 *
 * Times carry no year and no zone: they are the device's local time.
 * They are placed in the year nearest to a reference (the device's own
 * `date`, or the file's write time) and converted with the offset between
 * local wall time and CLOCK_MONOTONIC that bc_clock_parse() measures.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "blockcanary.h"
#include "error.h"
#include "results.h"
#include "shquote.h"
#include "signature.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"
#include "gfxinfo_dump.h"

enum bc_key {
	K_TIME, K_THREAD_TIME, K_START, K_END, K_BUSY, K_CPU_RATE, K_STACK,
	K_OTHER, NR_KEYS
};

static const struct {
	const char *name;
	enum bc_key key;
	bool old;
} keys[] = {
	{ "time", K_TIME, false },
	{ "thread-time", K_THREAD_TIME, false },
	{ "time-start", K_START, false },
	{ "time-end", K_END, false },
	{ "cpu-busy", K_BUSY, false },
	{ "cpu-rate", K_CPU_RATE, false },
	{ "timecost", K_TIME, true },
	{ "threadtimecost", K_THREAD_TIME, true },
	{ "timestart", K_START, true },
	{ "timeend", K_END, true },
	{ "cpubusy", K_BUSY, true },
	{ "cpurate", K_CPU_RATE, true },
	{ "stack", K_STACK, false },
	{ "qua", K_OTHER, false },
	{ "api-level", K_OTHER, false },
	{ "cpu-core", K_OTHER, false },
	{ "process", K_OTHER, false },
	{ "qualifier", K_OTHER, true },
	{ "apilevel", K_OTHER, true },
	{ "cpuCore", K_OTHER, true },
	{ "processName", K_OTHER, true },
	{ "versionName", K_OTHER, false },
	{ "versionCode", K_OTHER, false },
	{ "imei", K_OTHER, false },
	{ "uid", K_OTHER, false },
	{ "network", K_OTHER, false },
	{ "model", K_OTHER, false },
	{ "freeMemory", K_OTHER, false },
	{ "totalMemory", K_OTHER, false },
};

void
bc_log_init(struct bc_log *log)
{
	memset(log, 0, sizeof(*log));
	log->write_ms = NAN;
	log->wall_ms = NAN;
	log->thread_ms = NAN;
	log->cpu_busy = RS_UNKNOWN;
	strlist_init(&log->problems);
}

void
bc_log_release(struct bc_log *log)
{
	for (size_t i = 0; i < log->nr_samples; i++)
		strlist_release(&log->samples[i].frames);
	free(log->samples);
	strlist_release(&log->problems);
	bc_log_init(log);
}

/* ---- times --------------------------------------------------------- */

static int
digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int
bc_stamp_parse(struct bc_stamp *out, const char *s, size_t len)
{
	struct bc_stamp st;

	/* 11-02 14:05:32.811 */
	if (len != 18 || s[2] != '-' || s[5] != ' ' || s[8] != ':' ||
	    s[11] != ':' || s[14] != '.' ||
	    digits(s, 2, &st.month) || digits(s + 3, 2, &st.day) ||
	    digits(s + 6, 2, &st.hour) || digits(s + 9, 2, &st.min) ||
	    digits(s + 12, 2, &st.sec) || digits(s + 15, 3, &st.ms) ||
	    st.month < 1 || st.month > 12 || st.day < 1 || st.day > 31 ||
	    st.hour > 23 || st.min > 59 || st.sec > 60)
		return JG_EINVAL;
	*out = st;
	return 0;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's method). */
static long long
days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int
month_days(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return month == 2 && leap ? 29 : days[month - 1];
}

double
bc_civil_ms(int year, int month, int day, int hour, int min, int sec,
    int ms)
{
	if (year < 1970 || year > 9999 || month < 1 || month > 12 ||
	    day < 1 || day > month_days(year, month) || hour < 0 ||
	    hour > 23 || min < 0 || min > 59 || sec < 0 || sec > 60 ||
	    ms < 0 || ms > 999)
		return NAN;
	return (double)days_from_civil(year, month, day) * 86400000.0 +
	    hour * 3600000.0 + min * 60000.0 + sec * 1000.0 + ms;
}

/* The year of local wall milliseconds `local_ms`. */
static int
year_of(double local_ms)
{
	long long days = (long long)floor(local_ms / 86400000.0);
	int y = 1970 + (int)(days / 366);

	while (days_from_civil(y + 1, 1, 1) <= days)
		y++;
	return y;
}

double
bc_stamp_local_ms(const struct bc_stamp *st, double ref_local_ms)
{
	double best = NAN;
	int y;

	if (!st->month || !isfinite(ref_local_ms) || ref_local_ms < 0 ||
	    ref_local_ms > 2.5e14)
		return NAN;
	y = year_of(ref_local_ms);
	for (int cand = y - 1; cand <= y + 1; cand++) {
		double ms = bc_civil_ms(cand, st->month, st->day, st->hour,
		    st->min, st->sec, st->ms);

		if (!isnan(ms) && (isnan(best) ||
		    fabs(ms - ref_local_ms) < fabs(best - ref_local_ms)))
			best = ms;
	}
	return best;
}

/* ---- the file ------------------------------------------------------ */

enum state { S_HEAD, S_KEYS, S_CPU, S_STACK };

struct parser {
	struct bc_log *log;
	enum state state;
	int nr_keys;		/* known keys seen */
	bool seen[NR_KEYS];
	int blanks;		/* blank lines in a row, in the stack */
	bool capped;
};

static struct bc_sample *
add_sample(struct parser *p, const struct bc_stamp *at)
{
	struct bc_log *log = p->log;
	struct bc_sample *s;

	if (log->nr_samples >= BC_MAX_SAMPLES) {
		p->capped = true;
		return NULL;
	}
	XALLOC_GROW(log->samples, log->nr_samples + 1, log->alloc_samples);
	s = &log->samples[log->nr_samples++];
	memset(s, 0, sizeof(*s));
	strlist_init(&s->frames);
	if (at)
		s->at = *at;
	return s;
}

static void
add_frame(struct parser *p, const char *line, size_t len)
{
	struct bc_log *log = p->log;
	struct bc_sample *s;
	char *frame;

	if (!log->nr_samples && !add_sample(p, NULL))
		return;
	if (p->capped && log->nr_samples >= BC_MAX_SAMPLES)
		return;
	s = &log->samples[log->nr_samples - 1];
	if (s->frames.nr >= BC_MAX_FRAMES) {
		p->capped = true;
		return;
	}
	if (len > BC_MAX_FRAME_LEN) {
		len = BC_MAX_FRAME_LEN;
		p->capped = true;
	}
	frame = xstrndup(line, len);
	strlist_add(&s->frames, frame);
	free(frame);
}

static void __attribute__((format(printf, 2, 3)))
problem(struct parser *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (p->log->problems.nr >= 20)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strlist_add(&p->log->problems, sb.buf);
	strbuf_release(&sb);
}

static bool
number(const char *v, size_t len, double *out)
{
	char buf[64], *end;
	double d;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, v, len);
	buf[len] = '\0';
	d = strtod(buf, &end);
	if (*end || !isfinite(d) || d < 0)
		return false;
	*out = d;
	return true;
}

static void
key_value(struct parser *p, enum bc_key k, const char *name, const char *v,
    size_t vl)
{
	struct bc_log *log = p->log;
	struct bc_stamp st;

	switch (k) {
	case K_TIME:
	case K_THREAD_TIME:
		if (!number(v, vl, k == K_TIME ? &log->wall_ms :
		    &log->thread_ms))
			problem(p, "'%s' is not a number of ms", name);
		break;
	case K_START:
	case K_END:
		if (bc_stamp_parse(&st, v, vl))
			problem(p, "'%s' is not MM-dd HH:mm:ss.SSS", name);
		else
			*(k == K_START ? &log->start : &log->end) = st;
		break;
	case K_BUSY:
		if (vl == 4 && !memcmp(v, "true", 4))
			log->cpu_busy = 1;
		else if (vl == 5 && !memcmp(v, "false", 5))
			log->cpu_busy = 0;
		else
			problem(p, "'%s' is neither true nor false", name);
		break;
	case K_CPU_RATE:
		p->state = S_CPU;
		break;
	case K_STACK:
		p->state = S_STACK;
		if (bc_stamp_parse(&st, v, vl)) {
			if (vl)
				add_frame(p, v, vl);
		} else {
			add_sample(p, &st);
		}
		break;
	default:
		break;
	}
}

/*
 * A "key = value" line: the key's enum value (K_OTHER with *name NULL for
 * an unknown key), with the value at *vstart; -1 when the line has no
 * " = ".  A "key =" cut before its blank counts, with an empty value.
 */
static int
match_key(const char *line, size_t len, size_t *vstart, bool *old,
    const char **name)
{
	const char *eq = len >= 3 ? memmem(line, len, " = ", 3) : NULL;
	size_t kl;

	*name = NULL;
	if (eq) {
		kl = (size_t)(eq - line);
		*vstart = kl + 3;
	} else if (len >= 2 && !memcmp(line + len - 2, " =", 2)) {
		kl = len - 2;
		*vstart = len;
	} else {
		return -1;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (kl == strlen(keys[i].name) &&
		    !memcmp(line, keys[i].name, kl)) {
			*old = keys[i].old;
			*name = keys[i].name;
			return (int)keys[i].key;
		}
	}
	return K_OTHER;
}

static void
head_line(struct parser *p, const char *line, size_t len)
{
	int f[6];

	/* 2016-11-02 14:05:33(write log time) */
	if (len >= 19 && line[4] == '-' && line[7] == '-' && line[10] == ' ' &&
	    line[13] == ':' && line[16] == ':' && !digits(line, 4, &f[0]) &&
	    !digits(line + 5, 2, &f[1]) && !digits(line + 8, 2, &f[2]) &&
	    !digits(line + 11, 2, &f[3]) && !digits(line + 14, 2, &f[4]) &&
	    !digits(line + 17, 2, &f[5]))
		p->log->write_ms = bc_civil_ms(f[0], f[1], f[2], f[3], f[4],
		    f[5], 0);
}

static void
line_in(struct parser *p, const char *line, size_t len)
{
	struct bc_stamp st;
	const char *name;
	size_t vs = 0;
	bool old = false;
	int k;

	if (p->state == S_STACK) {
		p->blanks = len ? 0 : p->blanks + 1;
		if (len && !bc_stamp_parse(&st, line, len))
			add_sample(p, &st);
		else if (len)
			add_frame(p, line, len);
		return;
	}
	k = match_key(line, len, &vs, &old, &name);
	if (p->state == S_CPU && !name) {
		/* A rate sample; a blank line or the next key ends them. */
		if (!len)
			p->state = S_KEYS;
		return;
	}
	if (!name) {
		if (p->state == S_HEAD)
			head_line(p, line, len);
		return;
	}
	p->state = S_KEYS;
	p->nr_keys++;
	if (old)
		p->log->old_keys = true;
	if (k != K_OTHER) {
		if (p->seen[k])
			problem(p, "'%s' given twice; the last one is kept",
			    name);
		p->seen[k] = true;
	}
	key_value(p, (enum bc_key)k, name, line + vs, len - vs);
}

/*
 * Does the (last) sample hold frames, the last of them whole?  A Java
 * frame always ends in ')': "(File.java:12)", "(Native Method)".
 */
static bool
whole_frames(const struct bc_sample *s)
{
	const char *f;
	size_t n;

	if (!s || !s->frames.nr)
		return false;
	f = s->frames.items[s->frames.nr - 1];
	n = strlen(f);
	while (n && (f[n - 1] == ' ' || f[n - 1] == '\t'))
		n--;
	return n && f[n - 1] == ')';
}

int
bc_log_parse(struct bc_log *log, const char *buf, size_t len)
{
	struct parser p = { log, S_HEAD, 0, { false }, 0, false };
	const char *end = buf + len, *line = buf;
	static const enum bc_key required[] = { K_TIME, K_START, K_STACK };
	static const char *const required_names[] = { "time", "time-start",
	    "stack" };

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end;

		if (le > line && le[-1] == '\r')
			le--;
		line_in(&p, line, (size_t)(le - line));
		line = nl ? nl + 1 : end;
	}
	if (!p.nr_keys)
		return jg_error_set(JG_EINVAL, "not a BlockCanary log: no "
		    "known key");
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!p.seen[required[i]])
			problem(&p, "no '%s' key", required_names[i]);
	if (!p.seen[K_STACK] || p.capped || !whole_frames(log->nr_samples ?
	    &log->samples[log->nr_samples - 1] : NULL))
		log->truncated = true;
	log->capped = p.capped;
	return 0;
}

/* ---- to the results model ------------------------------------------ */

static bool
same_frames(const struct strlist *a, const struct strlist *b)
{
	if (a->nr != b->nr)
		return false;
	for (size_t i = 0; i < a->nr; i++)
		if (strcmp(a->items[i], b->items[i]))
			return false;
	return true;
}

/* The sample whose stack occurs most often; the earliest wins a tie. */
static const struct bc_sample *
typical_sample(const struct bc_log *log)
{
	const struct bc_sample *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < log->nr_samples; i++) {
		size_t n = 0;

		if (!log->samples[i].frames.nr)
			continue;
		for (size_t j = i; j < log->nr_samples; j++)
			n += same_frames(&log->samples[i].frames,
			    &log->samples[j].frames);
		if (n > best_n) {
			best = &log->samples[i];
			best_n = n;
		}
	}
	return best;
}

void
bc_log_to_block(const struct bc_log *log, struct rs_block *blk,
    double local_minus_mono_ms, double ref_local_ms)
{
	const struct bc_sample *s = typical_sample(log);
	double ref = isnan(ref_local_ms) ? log->write_ms : ref_local_ms;
	double start = bc_stamp_local_ms(&log->start, ref);
	double end = bc_stamp_local_ms(&log->end, ref);

	rs_str_set(&blk->kind, "BLOCK");
	blk->start_mono_ms = start - local_minus_mono_ms;
	blk->wall_ms = log->wall_ms;
	if (isnan(blk->wall_ms) && end >= start)
		blk->wall_ms = end - start;
	blk->thread_ms = log->thread_ms;
	blk->cpu_busy = log->cpu_busy;
	blk->truncated = log->truncated;
	strlist_release(&blk->stack);
	if (s)
		strlist_copy(&blk->stack, &s->frames);
	signature_set(blk);
}

/* ---- device names and clocks ---------------------------------------- */

int
bc_name_ok(const char *name)
{
	size_t len = strlen(name), i;

	if (len < 12 || len > 48 || strncmp(name, "looper-", 7) ||
	    (strcmp(name + len - 4, ".log") && strcmp(name + len - 4, ".txt")))
		return 0;
	for (i = 7; i < len - 4; i++)
		if (!strchr("0123456789_-.", name[i]))
			return 0;
	return !strstr(name, "..");
}

/* One `date '+%Y %m %d %H %M %S %N'` line as local wall ms; -1 for none. */
static int
date_line(const char *line, size_t len, double *ms, bool *no_ns)
{
	char buf[64], *p = buf, *end;
	long v[7];
	int n;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	for (n = 0; n < 7; n++) {
		while (*p == ' ')
			p++;
		v[n] = strtol(p, &end, 10);
		if (end == p || (*end && *end != ' '))
			break;
		p = end;
	}
	if (n < 6 || (n == 6 && *p && strspn(p, " %N") != strlen(p)))
		return -1;
	/* A toybox without %N prints it literally: whole seconds only. */
	*no_ns = n == 6;
	*ms = bc_civil_ms((int)v[0], (int)v[1], (int)v[2], (int)v[3],
	    (int)v[4], (int)v[5], 0);
	if (n == 7 && v[6] >= 0 && v[6] < 1000000000)
		*ms += (double)v[6] / 1e6;
	return isnan(*ms) ? -1 : 0;
}

int
bc_clock_parse(const char *out, size_t len, double *local_minus_mono_ms,
    double *precision_ms, double *ref_local_ms)
{
	const char *end = out + len, *line = out;
	double first = NAN, last = NAN, mono, ms;
	bool no_ns = false, ns;
	int rc;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end;

		if (le > line && le[-1] == '\r')
			le--;
		if (!date_line(line, (size_t)(le - line), &ms, &ns)) {
			if (isnan(first))
				first = ms;
			last = ms;
			no_ns |= ns;
		}
		line = nl ? nl + 1 : end;
	}
	if (isnan(first))
		return jg_error_set(JG_EINVAL, "no date in the clock reading");
	if ((rc = gfxinfo_uptime(out, len, &mono)))
		return jg_error_set(rc, "no gfxinfo Uptime in the clock "
		    "reading (is the app running?)");
	*ref_local_ms = (first + last) / 2;
	*local_minus_mono_ms = *ref_local_ms - mono;
	/* Half the bracket, the ms BlockCanary truncates, and %N's absence. */
	*precision_ms = fabs(last - first) / 2 + 1 + (no_ns ? 1000 : 0);
	return 0;
}

void
bc_clock_keep(double *off, double *prec, double new_off, double new_prec)
{
	if (isnan(*off) || isnan(*prec) || new_prec < *prec ||
	    fabs(new_off - *off) > *prec + new_prec) {
		*off = new_off;
		*prec = new_prec;
	}
}

char *
bc_clock_command(const char *package)
{
	struct strbuf sb = STRBUF_INIT;
	static const char date[] = "date '+%Y %m %d %H %M %S %N'";

	strbuf_addf(&sb, "%s; dumpsys gfxinfo ", date);
	sh_quote(&sb, package);
	strbuf_addf(&sb, " | grep Uptime:; %s", date);
	return strbuf_detach(&sb, NULL);
}
