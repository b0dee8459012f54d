/*
 * logcat_buf.c: a capture's lines, each read in the context of the lines
 * before it (logcat.h).
 *
 * What one line cannot say alone:
 *
 *   continuation  Android Studio prints a multi-line message's prefix
 *                 once and indents the lines after it; so does a user
 *                 who pastes a stack under a log line.  An indented line
 *                 without a prefix, right after a line with one, is a
 *                 later line of that entry: it gets the entry's prefix
 *                 (time, pid, tag...) and its text without the leading
 *                 blanks (a tab after them stays: stack frames keep it).
 *   -v long       a header line, then the message's lines as they are
 *                 (whatever they look like, but for a line with a
 *                 time), then a blank line that ends the entry (or the
 *                 next header, or a timed line: apps that save logs in
 *                 this layout do not always leave the blank).
 *   wrapped       Studio's columns in a narrow window: the prefix fills
 *                 one line and ends at the level letter, the message is
 *                 the next line (its indent dropped), the entry's later
 *                 lines are indented as usual.  Old liblog's threadtime
 *                 did the same on purpose: "TIME PID TID P TAG \n\tmsg".
 *   markers       "--------- beginning of main" is dropped; Studio's
 *                 "---- PROCESS STARTED (19955) for package com.x ----"
 *                 (and ENDED) is kept as a LOGCAT_MARKER line, since it
 *                 is the one place a Studio capture pairs pid and package.
 *   bare          anything else is a message without a prefix: kept, so
 *                 a pasted "Displayed com.x/.Main: +710ms" still counts,
 *                 and the first one is remembered for the warning about a
 *                 file in no known layout.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "logcat.h"
#include "strbuf.h"
#include "textenc.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

/* How much of an unreadable line a message quotes. */
#define QUOTE_MAX 80

struct logcat_buf {
	char **texts;		/* a copy of each kept line, NUL-ended */
	size_t nr_texts, alloc_texts;
	struct logcat_line *lines;
	size_t nr, alloc;
	size_t added;		/* lines given to logcat_buf_add() */
	size_t prefixed;
	size_t rejects;
	long head;		/* the line continuations copy, -1: none */
	bool in_long;		/* after a -v long header, to its blank */
	struct logcat_line long_head;
	size_t long_lines;	/* message lines of the entry so far */
	const char *first_unread;
	size_t first_unread_line;
	bool wrapped;		/* the last line is columns waiting for text */
};

struct logcat_buf *
logcat_buf_new(void)
{
	struct logcat_buf *b = xcalloc(1, sizeof(struct logcat_buf));

	b->head = -1;
	return b;
}

void
logcat_buf_free(struct logcat_buf *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_texts; i++)
		free(b->texts[i]);
	free(b->texts);
	free(b->lines);
	free(b);
}

/* An owned, NUL-ended copy of the line. */
static char *
keep(struct logcat_buf *b, const char *line, size_t len)
{
	char *copy = xmalloc(len + 1);

	memcpy(copy, line, len);
	copy[len] = '\0';
	XALLOC_GROW(b->texts, b->nr_texts + 1, b->alloc_texts);
	b->texts[b->nr_texts++] = copy;
	return copy;
}

static struct logcat_line *
push(struct logcat_buf *b, const struct logcat_line *l)
{
	XALLOC_GROW(b->lines, b->nr + 1, b->alloc);
	b->lines[b->nr] = *l;
	return &b->lines[b->nr++];
}

static bool
blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

/*
 * "-----... PROCESS STARTED (19955) for package com.x -----..." (or
 * ENDED): 1 with the marker line in *l, 0 when not such a line.
 */
static int
studio_marker(struct logcat_line *l, const char *s, size_t n)
{
	static const char *const kinds[] = { " PROCESS STARTED (",
	    " PROCESS ENDED (" };
	static const char pkg_word[] = ") for package ";
	const char *p = NULL, *end = s + n, *name;
	long pid = 0;

	for (size_t k = 0; k < 2 && !p; k++) {
		p = memmem(s, n, kinds[k], strlen(kinds[k]));
		if (p)
			p += strlen(kinds[k]);
	}
	if (!p || n < 3 || memcmp(s, "---", 3))
		return 0;
	while (p < end && *p >= '0' && *p <= '9' && pid < 100000000)
		pid = pid * 10 + (*p++ - '0');
	if ((size_t)(end - p) <= strlen(pkg_word) ||
	    memcmp(p, pkg_word, strlen(pkg_word)))
		return 0;
	name = p + strlen(pkg_word);
	for (p = name; p < end && *p != ' '; p++)
		;
	memset(l, 0, sizeof(*l));
	l->mono_ms = l->time_ms = NAN;
	l->pid = (int)pid;
	l->tid = -1;
	l->pkg = name;
	l->pkg_len = (size_t)(p - name);
	l->msg = s;
	l->msg_len = n;
	l->layout = LOGCAT_MARKER;
	return l->pkg_len > 0;
}

/*
 * A line of entry `head` after its first: its prefix, this text (the
 * first message line of a -v long entry, `first`, is no continuation).
 */
static void
add_continuation(struct logcat_buf *b, const struct logcat_line *head,
    const char *copy, size_t len, bool raw, bool first)
{
	struct logcat_line l = *head;
	size_t i = 0;

	l.lineno = b->added;
	while (!raw && i < len && copy[i] == ' ')
		i++;
	l.msg = copy + i;
	l.msg_len = len - i;
	l.cont = !first;
	push(b, &l);
	b->prefixed++;
}

void
logcat_buf_add(struct logcat_buf *b, const char *line, size_t len)
{
	struct logcat_line l;
	char *copy;

	b->added++;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (blank(line, len)) {
		b->in_long = false;
		b->wrapped = false;
		b->rejects++;
		return;
	}
	if (len >= 10 && !memcmp(line, "--------- ", 10)) {
		b->rejects++;
		return;
	}
	copy = keep(b, line, len);
	if (studio_marker(&l, copy, len)) {
		l.lineno = b->added;
		push(b, &l);
		b->head = -1;
		b->wrapped = false;
		return;
	}
	/*
	 * Inside a -v long entry only a line with a time (another header, a
	 * line of a timed layout) ends it: a message line may look like a
	 * tag-only or brief line, not start with a date.
	 */
	if (!logcat_parse_line(&l, copy, len) && (!b->in_long ||
	    !isnan(l.time_ms)) && (!b->wrapped ||
	    l.layout != LOGCAT_TAG_ONLY)) {
		l.lineno = b->added;
		b->prefixed++;
		b->wrapped = false;
		if (l.layout == LOGCAT_LONG) {
			/* Its message is on the lines that follow. */
			b->in_long = true;
			b->long_head = l;
			b->long_lines = 0;
			b->head = -1;
			return;
		}
		b->in_long = false;
		push(b, &l);
		b->head = (long)b->nr - 1;
		/*
		 * A columns prefix alone: its message wraps to the next line;
		 * so does old threadtime's, "TIME PID TID P TAG " then a tab.
		 */
		b->wrapped = !l.msg_len && (l.layout == LOGCAT_STUDIO_COLUMNS ||
		    (l.layout == LOGCAT_THREADTIME && copy[len - 1] == ' ' &&
		    l.tag && l.tag[l.tag_len] != ':'));
		return;
	}
	jg_error_clear();
	if (b->wrapped) {
		struct logcat_line *h = &b->lines[b->head];
		size_t i = 0;

		/* The format's own tab, or the window's indent. */
		if (h->layout == LOGCAT_THREADTIME && copy[0] == '\t')
			i = 1;
		else
			while (i < len && copy[i] == ' ')
				i++;
		h->msg = copy + i;
		h->msg_len = len - i;
		b->wrapped = false;
		b->prefixed++;
		return;
	}
	b->wrapped = false;
	if (b->in_long) {
		add_continuation(b, &b->long_head, copy, len, true,
		    !b->long_lines++);
		return;
	}
	if (b->head >= 0 && (copy[0] == ' ' || copy[0] == '\t')) {
		add_continuation(b, &b->lines[b->head], copy, len, false,
		    false);
		return;
	}
	memset(&l, 0, sizeof(l));
	l.mono_ms = l.time_ms = NAN;
	l.pid = l.tid = -1;
	l.msg = copy;
	l.msg_len = len;
	l.layout = LOGCAT_BARE;
	l.lineno = b->added;
	push(b, &l);
	b->head = -1;
	if (!b->first_unread) {
		b->first_unread = copy;
		b->first_unread_line = b->added;
	}
}

const struct logcat_line *
logcat_buf_lines(const struct logcat_buf *b, size_t *nr)
{
	*nr = b->nr;
	return b->lines;
}

size_t
logcat_buf_prefixed(const struct logcat_buf *b)
{
	return b->prefixed;
}

size_t
logcat_buf_rejects(const struct logcat_buf *b)
{
	return b->rejects;
}

const char *
logcat_buf_first_unread(const struct logcat_buf *b, size_t *lineno)
{
	if (lineno)
		*lineno = b->first_unread ? b->first_unread_line : 0;
	return b->first_unread;
}

int
logcat_buf_parse_text(struct logcat_buf *b, const char *text, size_t len)
{
	struct strbuf conv = STRBUF_INIT, quote = STRBUF_INIT;
	size_t prefixed = b->prefixed, pos = 0, lineno;
	const char *first = b->first_unread, *unread;
	int ret = 0;

	textenc_utf8(&conv, text, len, &text, &len);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		logcat_buf_add(b, text + pos, end - pos);
		pos = end + 1;
	}
	unread = logcat_buf_first_unread(b, &lineno);
	if (b->prefixed == prefixed && unread && unread != first) {
		size_t n = strlen(unread);

		utf8_add_printable(&quote, unread, n > QUOTE_MAX ? QUOTE_MAX :
		    n, 0);
		ret = jg_error_set(JG_EINVAL, "no line in a logcat layout "
		    "jankgate knows; the first it could not read is line "
		    "%zu: '%s%s'", lineno, quote.buf, n > QUOTE_MAX ? "..." :
		    "");
	}
	strbuf_release(&quote);
	strbuf_release(&conv);
	return ret;
}
