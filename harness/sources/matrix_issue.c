/*
 * matrix_issue.c: finding Matrix issues in log messages (docs/formats.md §1.6).
 *
 * The app's PluginListener decides the log tag, so an issue is found by
 * its shape, in any message.  Two shapes:
 *
 *	...tag[Trace_EvilMethod]type[0];key[null];content[{"machine":...}]
 *	   (Issue.toString(); type[null] before 0.6; key[TOKEN] for a
 *	   Looper ANR; DefaultPluginListener puts "report issue content: "
 *	   in front)
 *
 *	...{"machine":"HIGH",...,"tag":"Trace_FPS","process":...,"time":...}
 *	   (a listener that logs issue.getContent() itself)
 *
 * The header of the first shape names the tag before the content; a bare
 * object names it last, so a bare line cut by logcat has lost its tag and
 * is recognised by Matrix's device keys ("machine" always comes first)
 * and classified by the keys it still has.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"
#include "xalloc.h"
#include "banned.h"

/* How many issues back a second listener's copy may be. */
#define DUP_WINDOW 8
/* ... and how late, in milliseconds of logcat time. */
#define DUP_WINDOW_MS 1000.0

static enum mx_tag
tag_of(const char *name)
{
	if (!name)
		return MX_TAG_OTHER;
	if (!strcmp(name, "Trace_FPS"))
		return MX_TAG_FPS;
	if (!strcmp(name, "Trace_EvilMethod"))
		return MX_TAG_EVIL;
	if (!strcmp(name, "Trace_StartUp"))
		return MX_TAG_STARTUP;
	return MX_TAG_OTHER;
}

/* The trace issue a cut bare object was, from the keys it kept. */
static enum mx_tag
tag_from_keys(const struct mx_json *j)
{
	if (mx_json_get(j, "detail"))
		return MX_TAG_EVIL;
	if (mx_json_get(j, "scene") ||
	    mx_json_get(j, "dropLevel.DROPPED_BEST") ||
	    mx_json_get(j, "dropLevel.DROPPED_FROZEN"))
		return MX_TAG_FPS;
	if (mx_json_get(j, "application_create"))
		return MX_TAG_STARTUP;
	return MX_TAG_OTHER;
}

/*
 * Does `word` follow at p[0..end)?  1 yes, 0 no, -1 when the text ends
 * inside it (a cut header).
 */
static int
expect(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word), have = (size_t)(end - p);

	if (have < n)
		return memcmp(p, word, have) ? 0 : -1;
	return !memcmp(p, word, n);
}

/*
 * The "[...]" value after a header word; *vend gets its ']' (or `end`
 * when cut).  NULL when the text is not this header.
 */
static const char *
header_field(const char *p, const char *end, const char *word,
    const char **vend, int *cut)
{
	int e = expect(p, end, word);
	const char *v;

	if (e <= 0) {
		*cut = e < 0;
		return NULL;
	}
	v = p + strlen(word);
	*vend = memchr(v, ']', (size_t)(end - v));
	if (!*vend) {
		*vend = end;
		*cut = 1;
	}
	return v;
}

/* The content at p; where its object closed, or NULL when it did not. */
static const char *
set_content(struct mx_issue *is, const char *p, const char *end)
{
	mx_json_parse(&is->json, p, (size_t)(end - p));
	if (is->json.complete)
		end = p + is->json.end;
	/* Byte for byte, NULs too: duplicates are compared by length. */
	is->content_len = (size_t)(end - p);
	is->content = xmalloc(is->content_len + 1);
	memcpy(is->content, p, is->content_len);
	is->content[is->content_len] = '\0';
	is->cut = is->cut || is->json.cut;
	return is->json.complete ? end : NULL;
}

/*
 * The Issue.toString() form starting at `p` ("tag[").  Returns 1 when it
 * is one, cut or not.
 */
static int
find_tostring(struct mx_issue *is, const char *p, const char *end,
    const char **stop)
{
	const char *v, *vend, *key, *kend, *c = NULL;
	int cut = 0;

	v = header_field(p, end, "tag[", &vend, &cut);
	if (!v || vend == end)
		return 0;	/* without its tag a header is not worth it */
	/* "tag[X]type[" must be whole: after that, a cut is a cut issue. */
	if (expect(vend + 1, end, "type[") <= 0)
		return 0;
	is->tag_name = xstrndup(v, (size_t)(vend - v));
	is->tag = tag_of(is->tag_name);
	header_field(vend + 1, end, "type[", &c, &cut);
	if (c == end) {
		is->cut = true;
		return 1;
	}
	key = header_field(c + 1, end, ";key[", &kend, &cut);
	if (!key) {
		if (!cut) {
			free(is->tag_name);
			is->tag_name = NULL;
			return 0;
		}
		is->cut = true;
		return 1;
	}
	/* The key is the rest up to "];content[", whatever it holds. */
	c = memmem(key, (size_t)(end - key), "];content[", 10);
	if (!c) {
		is->cut = true;
		return 1;
	}
	if (c - key != 4 || memcmp(key, "null", 4))
		is->key = xstrndup(key, (size_t)(c - key));
	*stop = set_content(is, c + 10, end);
	/* Without the closing ']' the line was cut, if only just. */
	if (is->json.complete && (c + 10 + is->json.end == end ||
	    c[10 + is->json.end] != ']'))
		is->cut = true;
	else if (*stop)
		(*stop)++;
	return 1;
}

/* A bare object from `p` ('{'); 1 when it is a Matrix trace issue. */
static int
find_bare(struct mx_issue *is, const char *p, const char *end,
    const char **stop)
{
	const char *name;

	*stop = set_content(is, p, end);
	name = mx_json_string(&is->json, "tag");
	if (name) {
		is->tag = tag_of(name);
		is->tag_name = xstrdup(name);
		return is->tag != MX_TAG_OTHER;
	}
	/* A cut line: Matrix's when it opens with the device keys. */
	if (!is->json.cut || !is->json.nr ||
	    strcmp(is->json.members[0].key, "machine"))
		return 0;
	is->tag = tag_from_keys(&is->json);
	return 1;
}

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

/* "\"KEY\"" then a colon, blanks around it allowed: past it, or NULL. */
static const char *
after_key(const char *p, const char *end, const char *key)
{
	if (expect(p, end, key) <= 0)
		return NULL;
	p = skip_ws(p + strlen(key), end);
	if (p >= end || *p != ':')
		return NULL;
	return skip_ws(p + 1, end);
}

/* "tag": "Trace_..." anywhere from p, in any formatting. */
static bool
has_trace_tag(const char *p, const char *end)
{
	while ((p = memmem(p, (size_t)(end - p), "\"tag\"", 5))) {
		const char *v = after_key(p, end, "\"tag\"");

		if (v && expect(v, end, "\"Trace_") > 0)
			return true;
		p += 5;
	}
	return false;
}

/* An object at p ('{') whose first key is "machine". */
static bool
opens_with_machine(const char *p, const char *end)
{
	return after_key(skip_ws(p + 1, end), end, "\"machine\"") != NULL;
}

int
mx_issue_find(struct mx_issue *out, const char *msg, size_t len,
    double mono_ms)
{
	const char *end = msg + len, *p = msg, *stop = NULL;

	memset(out, 0, sizeof(*out));
	out->mono_ms = mono_ms;
	while ((p = memmem(p, (size_t)(end - p), "tag[", 4))) {
		if (find_tostring(out, p, end, &stop))
			goto found;
		p += 4;
	}
	/* Cheap tests first: most messages have neither. */
	p = memchr(msg, '{', len);
	if (p && (has_trace_tag(p, end) || opens_with_machine(p, end))) {
		if (find_bare(out, p, end, &stop))
			goto found;
	}
	mx_issue_release(out);
	return 0;
found:
	out->end = !out->cut && stop ? (size_t)(stop - msg) : 0;
	return 1;
}

void
mx_issue_release(struct mx_issue *is)
{
	free(is->tag_name);
	free(is->key);
	free(is->content);
	mx_json_release(&is->json);
	memset(is, 0, sizeof(*is));
	is->mono_ms = NAN;
}

/* Is one of the two contents the start of the other? */
static int
same_start(const struct mx_issue *a, const struct mx_issue *b)
{
	size_t n = a->content_len < b->content_len ? a->content_len :
	    b->content_len;

	return !memcmp(a->content, b->content, n);
}

void
mx_issue_mark_duplicates(struct mx_issue *v, size_t nr)
{
	for (size_t j = 1; j < nr; j++) {
		size_t from = j > DUP_WINDOW ? j - DUP_WINDOW : 0;

		for (size_t i = from; i < j; i++) {
			struct mx_issue *a = &v[i], *b = &v[j];

			if (a->duplicate || a->tag != b->tag ||
			    fabs(a->mono_ms - b->mono_ms) > DUP_WINDOW_MS ||
			    !a->content || !b->content || !same_start(a, b))
				continue;
			/* Keep the longer: it was cut later, or not at all. */
			if (b->content_len > a->content_len)
				a->duplicate = true;
			else
				b->duplicate = true;
			break;
		}
	}
}
