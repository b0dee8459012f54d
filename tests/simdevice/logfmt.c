/*
 * logfmt.c: log storage in time order and logcat's output layouts.
 *
 * Entries live in one array sorted by (monotonic time, insertion number):
 * the generators add frames' log lines ahead of time, and a reader must
 * still see them in time order and only once their time has come.  The
 * array is pruned from the front in batches when the bytes stored pass
 * the capacity, which keeps insertion cheap for the common case of
 * appending near the end.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "logfmt.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define NS	1000000000LL

static const char *const buffer_names[LOGFMT_NR_BUFFERS] = {
	"main", "system", "crash", "events"
};

struct stored {
	struct logfmt_entry e;	/* tag and msg point into `text` */
	unsigned long long seq;
	char *text;
	size_t size;
};

/* Lines of one process lost since its last kept one (logcat loss). */
struct lost {
	int pid, tid;
	unsigned int uid;
	size_t n;
};

#define NR_LOST	16

struct logfmt_buf {
	struct stored *v;
	size_t nr, alloc;
	size_t bytes, capacity;
	unsigned long long next_seq;
	int loss_percent, loss_chatty;
	uint64_t loss_seed;
	struct lost lost[NR_LOST];
};

void
logfmt_opts_init(struct logfmt_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = LOGFMT_THREADTIME;
	o->buffers = LOGFMT_DEFAULT_BUFFERS;
}

int
logfmt_opts_word(struct logfmt_opts *o, const char *word)
{
	static const struct {
		const char *word;
		enum logfmt_format format;
	} formats[] = {
		{ "threadtime", LOGFMT_THREADTIME }, { "brief", LOGFMT_BRIEF },
		{ "time", LOGFMT_TIME }, { "long", LOGFMT_LONG },
	};
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(word, formats[i].word)) {
			o->format = formats[i].format;
			return 0;
		}
	if (!strcmp(word, "monotonic"))
		o->monotonic = 1;
	else if (!strcmp(word, "epoch"))
		o->epoch = 1;
	else if (!strcmp(word, "uid"))
		o->uid = 1;
	else if (!strcmp(word, "year"))
		o->year = 1;
	else if (!strcmp(word, "usec"))
		o->usec = 1;
	else if (!strcmp(word, "nsec"))
		o->nsec = 1;
	else if (!strcmp(word, "zone"))
		o->zone = 1;
	else if (!strcmp(word, "UTC"))
		o->tz_offset_min = 0;
	else
		return jg_error_set(JG_EINVAL, "unknown log format '%s'", word);
	return 0;
}

int
logfmt_buffer_id(const char *name)
{
	int i;

	for (i = 0; i < LOGFMT_NR_BUFFERS; i++)
		if (!strcmp(name, buffer_names[i]))
			return i;
	if (!strcmp(name, "default"))
		return -2;
	if (!strcmp(name, "all"))
		return -3;
	return -1;
}

/* The time field: local date, monotonic or epoch seconds, then the fraction. */
static void
time_field(struct strbuf *out, const struct logfmt_opts *o,
    const struct logfmt_entry *e)
{
	long long ns = o->monotonic ? e->mono_ns : e->wall_ns;
	long long sec = ns / NS, frac = ns % NS;

	if (o->monotonic)
		strbuf_addf(out, "%6lld", sec);
	else if (o->epoch)
		strbuf_addf(out, "%19lld", sec);
	else {
		time_t t = (time_t)(sec + o->tz_offset_min * 60LL);
		struct tm tm;
		char buf[64];

		gmtime_r(&t, &tm);
		strftime(buf, sizeof(buf), o->year ? "%Y-%m-%d %H:%M:%S" :
		    "%m-%d %H:%M:%S", &tm);
		strbuf_addstr(out, buf);
	}
	if (o->nsec)
		strbuf_addf(out, ".%09lld", frac);
	else if (o->usec)
		strbuf_addf(out, ".%06lld", frac / 1000);
	else
		strbuf_addf(out, ".%03lld", frac / 1000000);
	if (o->zone && !o->monotonic && !o->epoch) {
		int m = o->tz_offset_min < 0 ? -o->tz_offset_min :
		    o->tz_offset_min;

		strbuf_addf(out, " %c%02d%02d",
		    o->tz_offset_min < 0 ? '-' : '+', m / 60, m % 60);
	}
}

/*
 * The uid field of -v uid: a user name of up to 5 characters or the
 * number, right-aligned in 5, then ':' (a space in threadtime).
 */
static void
uid_field(struct strbuf *out, const struct logfmt_opts *o, unsigned int uid,
    char sep)
{
	if (!o->uid)
		return;
	if (uid == 0)
		strbuf_addf(out, "%5s%c", "root", sep);
	else if (uid == 2000)
		strbuf_addf(out, "%5s%c", "shell", sep);
	else
		strbuf_addf(out, "%5u%c", uid, sep);
}

static void
prefix(struct strbuf *out, const struct logfmt_opts *o,
    const struct logfmt_entry *e)
{
	switch (o->format) {
	case LOGFMT_THREADTIME:
		time_field(out, o, e);
		strbuf_addch(out, ' ');
		uid_field(out, o, e->uid, ' ');
		strbuf_addf(out, "%5d %5d %c %-8s: ", e->pid, e->tid, e->prio,
		    e->tag);
		break;
	case LOGFMT_TIME:
		time_field(out, o, e);
		strbuf_addch(out, ' ');
		/* fall through */
	case LOGFMT_BRIEF:
		strbuf_addf(out, "%c/%-8s(", e->prio, e->tag);
		uid_field(out, o, e->uid, ':');
		strbuf_addf(out, "%5d): ", e->pid);
		break;
	case LOGFMT_LONG:
		break;
	}
}

void
logfmt_entry_format(struct strbuf *out, const struct logfmt_opts *o,
    const struct logfmt_entry *e)
{
	const char *p = e->msg, *nl;

	if (o->format == LOGFMT_LONG) {
		strbuf_addstr(out, "[ ");
		time_field(out, o, e);
		strbuf_addch(out, ' ');
		uid_field(out, o, e->uid, ':');
		strbuf_addf(out, "%5d:%5d %c/%-8s ]\n%s\n\n", e->pid, e->tid,
		    e->prio, e->tag, e->msg);
		return;
	}
	/* One line per message line; a trailing newline adds none. */
	do {
		nl = strchr(p, '\n');
		prefix(out, o, e);
		strbuf_add(out, p, nl ? (size_t)(nl - p) : strlen(p));
		strbuf_addch(out, '\n');
		p = nl ? nl + 1 : NULL;
	} while (p && *p);
}

struct logfmt_buf *
logfmt_buf_new(size_t capacity)
{
	struct logfmt_buf *b = xcalloc(1, sizeof(*b));

	b->capacity = capacity;
	return b;
}

void
logfmt_buf_free(struct logfmt_buf *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->nr; i++)
		free(b->v[i].text);
	free(b->v);
	free(b);
}

/* Drop the first `n` entries. */
static void
drop_front(struct logfmt_buf *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		b->bytes -= b->v[i].size;
		free(b->v[i].text);
	}
	memmove(b->v, b->v + n, (b->nr - n) * sizeof(*b->v));
	b->nr -= n;
}

static void
prune(struct logfmt_buf *b)
{
	size_t n = 0, bytes = b->bytes;

	if (bytes <= b->capacity)
		return;
	/* Go down to 90 % so pruning is not needed on every add. */
	while (n < b->nr && bytes > b->capacity / 10 * 9)
		bytes -= b->v[n++].size;
	drop_front(b, n);
}

/* Is stored entry `s` before (mono, seq)? */
static int
before(const struct stored *s, long long mono, unsigned long long seq)
{
	return s->e.mono_ns < mono || (s->e.mono_ns == mono && s->seq < seq);
}

/* Index of the first entry not before (mono, seq). */
static size_t
lower_bound(const struct logfmt_buf *b, long long mono,
    unsigned long long seq)
{
	size_t lo = 0, hi = b->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(&b->v[mid], mono, seq))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
logfmt_buf_set_loss(struct logfmt_buf *b, int percent, uint64_t seed,
    int chatty)
{
	b->loss_percent = percent;
	b->loss_seed = seed;
	b->loss_chatty = chatty;
}

/* The loss record of `pid`, made (or recycled) on demand. */
static struct lost *
lost_slot(struct logfmt_buf *b, int pid)
{
	size_t i, victim = 0;

	for (i = 0; i < NR_LOST; i++) {
		if (b->lost[i].pid == pid)
			return &b->lost[i];
		if (!b->lost[i].n)
			victim = i;
	}
	memset(&b->lost[victim], 0, sizeof(b->lost[victim]));
	b->lost[victim].pid = pid;
	return &b->lost[victim];
}

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static size_t add_entry(struct logfmt_buf *b, const struct logfmt_entry *e);

/*
 * Apply the loss fault to `e`: 1 when it is lost.  A kept entry after
 * lost ones first gets logd's chatty line (uid=N(u0_aM) expire K lines).
 */
static int
lose(struct logfmt_buf *b, const struct logfmt_entry *e)
{
	struct lost *l;

	if (!b->loss_percent || e->uid < 10000 || e->buffer != LOGFMT_MAIN)
		return 0;
	l = lost_slot(b, e->pid);
	if (mix(b->loss_seed ^ (b->next_seq * 0x9e3779b97f4a7c15ULL)) % 100 <
	    (uint64_t)b->loss_percent) {
		b->next_seq++;	/* the lost entry's number, as if stored */
		l->tid = e->tid;
		l->uid = e->uid;
		l->n++;
		return 1;
	}
	if (l->n && b->loss_chatty) {
		struct logfmt_entry c = *e;
		char msg[96];

		snprintf(msg, sizeof(msg), "uid=%u(u0_a%u) expire %zu line%s",
		    l->uid, l->uid % 100000 - 10000, l->n,
		    l->n == 1 ? "" : "s");
		c.tid = l->tid;
		c.prio = 'I';
		c.tag = "chatty";
		c.msg = msg;
		add_entry(b, &c);
	}
	l->n = 0;
	return 0;
}

size_t
logfmt_buf_add(struct logfmt_buf *b, const struct logfmt_entry *e)
{
	if (lose(b, e))
		return 0;
	return add_entry(b, e);
}

static size_t
add_entry(struct logfmt_buf *b, const struct logfmt_entry *e)
{
	size_t taglen = strlen(e->tag), msglen = strlen(e->msg), keep, pos;
	struct stored s;

	/* Payload: priority, tag, NUL, message, NUL. */
	keep = taglen + 3 >= LOGFMT_MAX_PAYLOAD ? 0 :
	    LOGFMT_MAX_PAYLOAD - 3 - taglen;
	if (keep > msglen)
		keep = msglen;
	s.e = *e;
	s.seq = b->next_seq++;
	s.size = taglen + keep + 2;
	s.text = xmalloc(s.size);
	memcpy(s.text, e->tag, taglen + 1);
	memcpy(s.text + taglen + 1, e->msg, keep);
	s.text[taglen + 1 + keep] = '\0';
	s.e.tag = s.text;
	s.e.msg = s.text + taglen + 1;

	pos = lower_bound(b, e->mono_ns, s.seq);
	XALLOC_GROW(b->v, b->nr + 1, b->alloc);
	memmove(b->v + pos + 1, b->v + pos, (b->nr - pos) * sizeof(*b->v));
	b->v[pos] = s;
	b->nr++;
	b->bytes += s.size;
	prune(b);
	return msglen - keep;
}

void
logfmt_buf_drop_after(struct logfmt_buf *b, long long after_ns, int pid,
    const char *needle)
{
	size_t i, keep = lower_bound(b, after_ns + 1, 0);

	for (i = keep; i < b->nr; i++) {
		const struct logfmt_entry *e = &b->v[i].e;

		if (e->pid == pid || (needle && strstr(e->msg, needle))) {
			b->bytes -= b->v[i].size;
			free(b->v[i].text);
		} else
			b->v[keep++] = b->v[i];
	}
	b->nr = keep;
}

void
logfmt_buf_clear(struct logfmt_buf *b, unsigned int buffers)
{
	size_t i, keep = 0;

	for (i = 0; i < b->nr; i++) {
		if (buffers & (1u << b->v[i].e.buffer)) {
			b->bytes -= b->v[i].size;
			free(b->v[i].text);
		} else
			b->v[keep++] = b->v[i];
	}
	b->nr = keep;
}

void
logfmt_cursor_since(struct logfmt_cursor *c, long long mono_ns)
{
	c->mono_ns = mono_ns - 1;
	c->seq = ULLONG_MAX;
}

/* Priorities in logcat's order; S (silent) is above all of them. */
static int
prio_rank(char p)
{
	static const char order[] = "VDIWEFS";
	const char *q = strchr(order, p);

	return q && p ? (int)(q - order) : 0;
}

/* Does the entry pass the filterspecs (TAG:PRIO, then *:PRIO, then V)? */
static int
passes(const struct logfmt_opts *o, const struct logfmt_entry *e)
{
	char want = 'V';
	size_t i;

	for (i = 0; i < o->nr_filters; i++)
		if (!strcmp(o->filters[i].tag, "*"))
			want = o->filters[i].prio;
	for (i = 0; i < o->nr_filters; i++)
		if (!strcmp(o->filters[i].tag, e->tag))
			want = o->filters[i].prio;
	return want != 'S' && prio_rank(e->prio) >= prio_rank(want);
}

static int
selected(const struct stored *s, const struct logfmt_opts *o,
    long long until_ns)
{
	return (o->buffers & (1u << s->e.buffer)) && s->e.mono_ns <= until_ns &&
	    passes(o, &s->e);
}

size_t
logfmt_buf_dump(struct logfmt_buf *b, struct strbuf *out,
    const struct logfmt_opts *o, struct logfmt_cursor *c, long long until_ns,
    size_t tail)
{
	size_t i, first, count = 0, skip = 0, printed = 0;

	if (c->mono_ns < 0)
		first = 0;
	else if (c->seq == ULLONG_MAX)
		first = lower_bound(b, c->mono_ns + 1, 0);
	else
		first = lower_bound(b, c->mono_ns, c->seq + 1);
	if (tail) {
		for (i = first; i < b->nr; i++)
			count += selected(&b->v[i], o, until_ns);
		skip = count > tail ? count - tail : 0;
	}
	for (i = first; i < b->nr; i++) {
		const struct stored *s = &b->v[i];
		int buf = (int)s->e.buffer;

		if (s->e.mono_ns > until_ns)
			break;
		if (!selected(s, o, until_ns) || (skip && skip--))
			continue;
		if (!(c->seen & (1u << buf))) {
			strbuf_addf(out, "--------- beginning of %s\n",
			    buffer_names[buf]);
			c->seen |= 1u << buf;
		} else if (c->last_buffer != buf)
			strbuf_addf(out, "--------- switch to %s\n",
			    buffer_names[buf]);
		c->last_buffer = buf;
		logfmt_entry_format(out, o, &s->e);
		c->mono_ns = s->e.mono_ns;
		c->seq = s->seq;
		printed++;
	}
	return printed;
}
