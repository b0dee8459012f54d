/*
 * logcat.c: the `logcat -v monotonic` line parser and a buffer of lines.
 *
 * liblog's threadtime layout with the monotonic time (FORMATS §3.5):
 *
 *   "%6lld.%03ld" " " [uid "%5s "] "%5d %5d %c %-8.*s: " message
 *
 *     3600.002   901   928 I ActivityManager: START u0 {...} from ...
 *     3600.918  3920  3979 I Matrix.DefaultPluginListener: report ...
 *     3601.200 10123  3920  3920 I Choreographer: Skipped 31 frames!
 *   --------- beginning of main                (a marker, not a line)
 *
 * The fraction may also have 6 or 9 digits (`-v usec`, `-v nsec`).  The
 * uid column, when `-v uid` adds it, is a number or a user name of up to
 * five characters; it is told apart from the pid by counting the columns
 * before the priority letter.  The tag is padded to eight columns and
 * ends at the first ": "; a line cut inside the tag (logcat entries are
 * capped near 4 KB, captures get truncated) keeps the tag and an empty
 * message, and so does a line whose message is empty.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "logcat.h"
#include "xalloc.h"
#include "banned.h"

/* Seconds since boot: 12 digits is 31,000 years, and keeps doubles exact. */
#define MAX_SECONDS_DIGITS 12

struct logcat_buf {
	char **texts;		/* a copy of each kept line, NUL-ended */
	struct logcat_line *lines;
	size_t nr, alloc, alloc_texts;
	size_t rejects;
};

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t
skip_spaces(const char *s, size_t i, size_t len)
{
	while (i < len && s[i] == ' ')
		i++;
	return i;
}

/* The next run of non-blanks from s[*i]; its length, 0 at the end. */
static size_t
next_word(const char *s, size_t *i, size_t len, const char **word)
{
	size_t start;

	*i = skip_spaces(s, *i, len);
	start = *i;
	while (*i < len && s[*i] != ' ')
		(*i)++;
	*word = s + start;
	return *i - start;
}

/* A decimal int of at most 9 digits (pid, tid); -1 when not one. */
static int
small_number(const char *s, size_t n)
{
	int v = 0;

	if (!n || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int
is_priority(const char *w, size_t n)
{
	return n == 1 && strchr("VDIWEFA", w[0]) && w[0];
}

/* "SSSS.mmm[uuu[nnn]]" at the start of s; its length, 0 when not one. */
static size_t
parse_time(const char *s, size_t len, double *mono_ms)
{
	size_t i = skip_spaces(s, 0, len), digits = 0, frac = 0;
	double secs = 0, part = 0, scale = 1;

	while (i < len && is_digit(s[i])) {
		if (++digits > MAX_SECONDS_DIGITS)
			return 0;
		secs = secs * 10 + (s[i++] - '0');
	}
	if (!digits || i >= len || s[i++] != '.')
		return 0;
	while (i < len && is_digit(s[i])) {
		if (++frac > 9)
			return 0;
		part = part * 10 + (s[i++] - '0');
		scale *= 10;
	}
	if (frac != 3 && frac != 6 && frac != 9)
		return 0;
	*mono_ms = secs * 1000 + part * 1000 / scale;
	return i;
}

int
logcat_parse_line(struct logcat_line *out, const char *line, size_t len)
{
	const char *w[4], *tag, *sep;
	size_t n[4], i, end, nr_words = 0;
	double mono_ms;
	int pid, tid;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	i = parse_time(line, len, &mono_ms);
	if (!i || i >= len || line[i] != ' ')
		goto bad;
	/* [uid] pid tid prio: the priority letter ends the columns. */
	while (nr_words < 4) {
		n[nr_words] = next_word(line, &i, len, &w[nr_words]);
		if (!n[nr_words])
			goto bad;
		if (is_priority(w[nr_words], n[nr_words]))
			break;
		nr_words++;
	}
	if (nr_words != 2 && nr_words != 3)
		goto bad;
	pid = small_number(w[nr_words - 2], n[nr_words - 2]);
	tid = small_number(w[nr_words - 1], n[nr_words - 1]);
	if (pid < 0 || tid < 0)
		goto bad;

	out->mono_ms = mono_ms;
	out->pid = pid;
	out->tid = tid;
	out->prio = w[nr_words][0];
	tag = line + (i < len ? i + 1 : len);
	end = (size_t)(line + len - tag);
	sep = memmem(tag, end, ": ", 2);
	if (sep) {
		out->msg = sep + 2;
		out->msg_len = (size_t)(line + len - out->msg);
	} else {
		/* A cut line or an empty message ("tag:" or just "tag"). */
		sep = tag + end;
		if (end && tag[end - 1] == ':')
			sep--;
		out->msg = line + len;
		out->msg_len = 0;
	}
	out->tag = tag;
	out->tag_len = (size_t)(sep - tag);
	while (out->tag_len && out->tag[out->tag_len - 1] == ' ')
		out->tag_len--;
	return 0;
bad:
	return jg_error_set(JG_EINVAL, "not a 'logcat -v monotonic' line");
}

struct logcat_buf *
logcat_buf_new(void)
{
	return xcalloc(1, sizeof(struct logcat_buf));
}

void
logcat_buf_free(struct logcat_buf *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr; i++)
		free(b->texts[i]);
	free(b->texts);
	free(b->lines);
	free(b);
}

void
logcat_buf_add(struct logcat_buf *b, const char *line, size_t len)
{
	struct logcat_line parsed;
	char *copy;

	if (logcat_parse_line(&parsed, line, len)) {
		b->rejects++;
		return;
	}
	/* Parse the copy again so the pointers are into owned bytes. */
	copy = xmalloc(len + 1);
	memcpy(copy, line, len);
	copy[len] = '\0';
	XALLOC_GROW(b->texts, b->nr + 1, b->alloc_texts);
	XALLOC_GROW(b->lines, b->nr + 1, b->alloc);
	b->texts[b->nr] = copy;
	logcat_parse_line(&b->lines[b->nr], copy, len);
	b->nr++;
}

const struct logcat_line *
logcat_buf_lines(const struct logcat_buf *b, size_t *nr)
{
	*nr = b->nr;
	return b->lines;
}

size_t
logcat_buf_rejects(const struct logcat_buf *b)
{
	return b->rejects;
}

int
logcat_buf_parse_text(struct logcat_buf *b, const char *text, size_t len)
{
	size_t before = b->nr, rejects = b->rejects, pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;

		/* Blank lines (a capture's last CRLF) are nothing to reject. */
		while (n && text[pos + n - 1] == '\r')
			n--;
		if (n)
			logcat_buf_add(b, text + pos, n);
		pos = end + 1;
	}
	if (b->nr == before && b->rejects > rejects)
		return jg_error_set(JG_EINVAL,
		    "no 'logcat -v monotonic' line among %zu lines",
		    b->rejects - rejects);
	return 0;
}
