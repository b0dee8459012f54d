/*
 * matrix_join.c: the messages a Matrix issue may span (docs/formats.md
 * §1.6), joined into one text before matrix_issue.c looks for issues.
 *
 * Matrix logs an issue on one line, but what people save and paste is
 * not always that line:
 *
 *   pretty-printed JSON   one member a line, as a JSON viewer or a blog
 *                         shows it, bare or after "content[":
 *                             {
 *                               "machine": "HIGH",
 *                               "scene": "com.x.MainActivity",   // note
 *                               ...
 *                             }
 *   annotated pastes      the same with "// ..." notes after a member or
 *                         on lines of their own
 *   ParseIssueUtil        the Matrix sample's own print of an issue:
 *                             tag : Trace_EvilMethod
 *                             type : 0
 *                             key : null
 *                             content :            (or "ISSUE Content:")
 *                             <TAB>machine : HIGH
 *                             <TAB>cost : 1200
 *                             <TAB>stack : 0,1048574,1,1200
 *                             1,243,1,1195         (a value's own lines)
 *                         each member "<TAB>KEY : VALUE", VALUE as
 *                         JSONObject.optString() prints it (a nested
 *                         object as its JSON)
 *
 * An object that opens on a line and does not close there takes the
 * lines after it, "//" notes dropped, while they are its entry's (a
 * continuation, a bare line, or logcat's repeat of its prefix) and until
 * its braces close.  It stops at a line that starts another issue (an
 * Issue.toString() header, a second "machine" key, an object opening
 * where no value is due).  When no line goes on with it, the line was
 * cut by logcat and is read alone as before; when some do but the
 * object never closes, the paste was cut short, and the message says so
 * (mx_msg.unclosed).  A ParseIssueUtil print becomes the JSON object it stands
 * for.  Either way the lines used are marked, so that `jankgate parse`
 * does not count them as lines it could not place.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "logcat.h"
#include "matrix_int.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* The most lines one issue may span: Matrix's longest stacks fit. */
#define MAX_JOIN_LINES 4000

/* Brace depth and string state across the lines of one object. */
struct scan {
	int depth;
	bool in_string, escape;
};

/*
 * Scan s[0..n) from its first '{' (when `start`) or from 0: depth and
 * string state into `sc`; the length of the text before a "//" note
 * outside strings in *keep.  Returns false when `start` and there is no
 * '{'.
 */
static bool
scan_text(struct scan *sc, const char *s, size_t n, bool start, size_t *keep)
{
	size_t i = 0;

	*keep = n;
	if (start) {
		const char *brace = memchr(s, '{', n);

		if (!brace)
			return false;
		i = (size_t)(brace - s);
	}
	for (; i < n; i++) {
		char c = s[i];

		if (sc->in_string) {
			if (sc->escape)
				sc->escape = false;
			else if (c == '\\')
				sc->escape = true;
			else if (c == '"')
				sc->in_string = false;
			continue;
		}
		if (c == '"') {
			sc->in_string = true;
		} else if (c == '{' || c == '[') {
			sc->depth++;
		} else if (c == '}' || c == ']') {
			/* "]" of the toString form closes nothing of ours */
			if (sc->depth > 0)
				sc->depth--;
			if (!sc->depth) {
				*keep = n;
				return true;
			}
		} else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			*keep = i;
			return true;
		}
	}
	return true;
}

/* Is line `b` part of the entry that line `a` starts (or a paste's)? */
static bool
same_entry(const struct logcat_line *a, const struct logcat_line *b)
{
	if (b->cont || b->layout == LOGCAT_BARE)
		return true;
	return a->layout == b->layout && a->pid == b->pid &&
	    a->tid == b->tid && logcat_same_time(a, b) &&
	    a->tag_len == b->tag_len && (!a->tag_len ||
	    !memcmp(a->tag, b->tag, a->tag_len));
}

static size_t
skip_blanks(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

static size_t
trim_end(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return n;
}

static bool
has_machine(const char *s, size_t n)
{
	return memmem(s, n, "\"machine\"", 9) != NULL;
}

/*
 * Does the line start another issue rather than go on with the object
 * joined so far (which has a "machine" key when `machine`)?
 */
static bool
starts_issue(const struct strbuf *joined, bool machine, const char *s,
    size_t n)
{
	size_t i = skip_blanks(s, n, 0), end = trim_end(joined->buf,
	    joined->len);
	char last = end ? joined->buf[end - 1] : 0;

	if (memmem(s, n, "tag[", 4) && memmem(s, n, "]type[", 6))
		return true;
	if (machine && has_machine(s, n))
		return true;
	return i < n && s[i] == '{' && last != ':' && last != ',' &&
	    last != '[';
}

/*
 * The object opening on lines[i] and going on on later lines: its text
 * into `out`, *used the lines it took, *unclosed whether they ended
 * before it closed.  False when it does not open there, or closes on its
 * own line, or no later line goes on with it (a line cut by logcat).
 */
static bool
join_object(struct strbuf *out, const struct logcat_line *lines, size_t nr,
    size_t i, size_t *used, bool *unclosed)
{
	struct scan sc = { 0, false, false };
	const struct logcat_line *head = &lines[i];
	size_t keep, j;
	bool machine;

	*unclosed = false;
	if (!scan_text(&sc, head->msg, head->msg_len, true, &keep) ||
	    !sc.depth || sc.in_string)
		return false;
	strbuf_reset(out);
	strbuf_add(out, head->msg, keep);
	machine = has_machine(out->buf, out->len);
	for (j = i + 1; j < nr && j - i < MAX_JOIN_LINES; j++) {
		const struct logcat_line *l = &lines[j];

		if (!same_entry(head, l) || starts_issue(out, machine, l->msg,
		    l->msg_len))
			break;
		scan_text(&sc, l->msg, l->msg_len, false, &keep);
		strbuf_addch(out, '\n');
		strbuf_add(out, l->msg, keep);
		machine = machine || has_machine(l->msg, keep);
		/* A string does not go on past its line in JSON. */
		sc.in_string = sc.escape = false;
		if (!sc.depth) {
			*used = j - i + 1;
			return true;
		}
	}
	*used = j - i;
	*unclosed = true;
	return *used > 1;
}

/* ---- ParseIssueUtil ---- */

/*
 * "KEY : VALUE" in s[0..n), KEY a word from after the leading blanks:
 * the key and the value (its blanks trimmed); false when not one.
 */
static bool
key_value(const char *s, size_t n, const char **key, size_t *key_n,
    const char **val, size_t *val_n)
{
	size_t i = skip_blanks(s, n, 0), k = i, v;

	while (k < n && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' &&
	    s[k] <= 'Z') || (s[k] >= '0' && s[k] <= '9') || s[k] == '_' ||
	    s[k] == '.'))
		k++;
	if (k == i || k + 2 > n || s[k] != ' ' || s[k + 1] != ':' ||
	    (k + 2 < n && s[k + 2] != ' '))
		return false;
	*key = s + i;
	*key_n = k - i;
	v = skip_blanks(s, n, k + 2);
	*val = s + v;
	*val_n = trim_end(s + v, n - v);
	return true;
}

/* "content :" or "ISSUE Content:", the line before the members. */
static bool
content_line(const char *s, size_t n)
{
	size_t i = skip_blanks(s, n, 0);

	n = trim_end(s, n);
	return (n - i == 9 && !memcmp(s + i, "content :", 9)) ||
	    (n - i == 14 && !strncasecmp(s + i, "ISSUE Content:", 14)) ||
	    (n - i == 8 && !memcmp(s + i, "content:", 8));
}

static bool
is_key(const char *k, size_t n, const char *want)
{
	return n == strlen(want) && !memcmp(k, want, n);
}

/* A JSON number filling s[0..n)? */
static bool
json_number(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	if (i < n && s[i] == '-')
		i++;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (digits && i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	return digits && i == n && (s[0] != '0' || n == 1 || s[1] == '.' ||
	    s[1] == 'e' || s[1] == 'E');
}

static void
add_json_string(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_addch(sb, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c == '\n')
			strbuf_addstr(sb, "\\n");
		else if (c == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c < 0x20)
			strbuf_addf(sb, "\\u%04x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addch(sb, '"');
}

/* One member's value as optString() printed it, as JSON. */
static void
add_value(struct strbuf *sb, const char *v, size_t n)
{
	if (json_number(v, n) || (n == 4 && !memcmp(v, "true", 4)) ||
	    (n == 5 && !memcmp(v, "false", 5)) ||
	    (n == 4 && !memcmp(v, "null", 4)) ||
	    (n >= 2 && v[0] == '{' && v[n - 1] == '}'))
		strbuf_add(sb, v, n);
	else
		add_json_string(sb, v, n);
}

/* Keys whose values hold lines of their own (stacks). */
static bool
multiline_key(const char *k, size_t n)
{
	return is_key(k, n, "stack") || is_key(k, n, "threadStack");
}

/*
 * A ParseIssueUtil print from lines[i]: the JSON object it stands for
 * into `out`, *used the lines it took.  False when lines[i] does not
 * start one.
 */
static bool
join_util(struct strbuf *out, const struct logcat_line *lines, size_t nr,
    size_t i, size_t *used)
{
	const struct logcat_line *head = &lines[i];
	struct strbuf tag = STRBUF_INIT, val = STRBUF_INIT;
	const char *k, *v, *key = NULL;
	size_t kn, vn, key_n = 0, j = i, members = 0;
	bool has_tag = false;

	/* The header, "tag : T" "type : N" "key : K", when printed. */
	while (j < nr && j - i < 3 && same_entry(head, &lines[j]) &&
	    key_value(lines[j].msg, lines[j].msg_len, &k, &kn, &v, &vn) &&
	    (is_key(k, kn, "tag") || is_key(k, kn, "type") ||
	    is_key(k, kn, "key"))) {
		if (is_key(k, kn, "tag"))
			strbuf_add(&tag, v, vn);
		j++;
	}
	if (j >= nr || !same_entry(head, &lines[j]) ||
	    !content_line(lines[j].msg, lines[j].msg_len)) {
		strbuf_release(&tag);
		return false;
	}
	strbuf_reset(out);
	strbuf_addch(out, '{');
	for (j++; j < nr && j - i < MAX_JOIN_LINES; j++) {
		const struct logcat_line *l = &lines[j];
		bool kv = key_value(l->msg, l->msg_len, &k, &kn, &v, &vn);

		if (!same_entry(head, l))
			break;
		/* A stack's later lines, right below it. */
		if (!kv && key && multiline_key(key, key_n) &&
		    l->lineno == lines[j - 1].lineno + 1) {
			strbuf_addch(&val, '\n');
			strbuf_add(&val, l->msg, l->msg_len);
			continue;
		}
		if (!kv)
			break;
		if (key) {
			add_value(out, val.buf, val.len);
			strbuf_addch(out, ',');
		}
		add_json_string(out, k, kn);
		strbuf_addch(out, ':');
		has_tag = has_tag || is_key(k, kn, "tag");
		key = k;
		key_n = kn;
		strbuf_reset(&val);
		strbuf_add(&val, v, vn);
		members++;
	}
	if (key)
		add_value(out, val.buf, val.len);
	if (!has_tag && tag.len) {
		if (members)
			strbuf_addch(out, ',');
		strbuf_addstr(out, "\"tag\":");
		add_json_string(out, tag.buf, tag.len);
	}
	strbuf_addch(out, '}');
	*used = j - i;
	strbuf_release(&tag);
	strbuf_release(&val);
	return members > 0;
}

/* ---- the messages ---- */

static void
add_msg(struct mx_msgs *m, const struct logcat_line *l, char *text,
    size_t len, size_t nr_lines, bool unclosed, bool util)
{
	struct mx_msg *x;

	XALLOC_GROW(m->v, m->nr + 1, m->alloc);
	x = &m->v[m->nr++];
	x->line = l;
	x->text = text;
	x->s = text ? text : l->msg;
	x->n = text ? len : l->msg_len;
	x->nr_lines = nr_lines;
	x->unclosed = unclosed;
	x->util = util;
	if (text && util)
		m->nr_util++;
	else if (text)
		m->nr_json++;
}

void
mx_join(struct mx_msgs *out, const struct logcat_line *lines, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;

	memset(out, 0, sizeof(*out));
	out->lines = lines;
	out->used = xcalloc(nr ? nr : 1, sizeof(bool));
	for (size_t i = 0; i < nr;) {
		size_t used = 0;
		bool unclosed = false, util = false;

		if ((util = join_util(&sb, lines, nr, i, &used)) ||
		    join_object(&sb, lines, nr, i, &used, &unclosed)) {
			size_t len = sb.len;

			add_msg(out, &lines[i], strbuf_detach(&sb, NULL), len,
			    used, unclosed, util);
			for (size_t k = i; k < i + used; k++)
				out->used[k] = true;
			i += used;
			continue;
		}
		add_msg(out, &lines[i], NULL, 0, 1, false, false);
		i++;
	}
	strbuf_release(&sb);
}

void
mx_msgs_release(struct mx_msgs *m)
{
	for (size_t i = 0; i < m->nr; i++)
		free(m->v[i].text);
	free(m->v);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
