/*
 * mustache_parse.c: compile Mustache source into the node array of
 * mustache_priv.h.
 *
 * The syntax, with the default delimiters {{ and }}:
 *
 *	text {{name}} {{{name}}} {{& name}}      variables (escaped, raw, raw)
 *	{{#name}} ... {{/name}}                  section
 *	{{^name}} ... {{/name}}                  inverted section
 *	{{> partial}}                            partial
 *	{{! anything, even
 *	    over lines }}                        comment
 *	{{=<% %>=}}                              set delimiters to <% and %>
 *
 * A name is "." or dot-separated parts ("scene.fps.p90"); whitespace around
 * it inside the tag is ignored, whitespace within it is an error.  A triple
 * mustache ends at "}" followed by the closing delimiter, whatever the
 * delimiters are.
 *
 * Standalone lines: a section, inverted, close, partial, comment or
 * set-delimiter tag alone on its line, with only spaces and tabs around it,
 * takes its whole line with it (the indentation and the "\n" or "\r\n"), so
 * control tags on their own lines leave no blank lines behind.  The
 * indentation of a standalone partial is remembered in its node, to be put
 * in front of every line of the partial.  Variables are never standalone.
 *
 * Errors name the template and the tag's line and column (1-based, columns
 * in bytes): "report.html:12:5: unclosed section 'scenes'".
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "mustache.h"
#include "mustache_priv.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

struct parser {
	struct mustache *t;
	const char *otag, *ctag;	/* current delimiters */
	size_t olen, clen;
	size_t *open;		/* node indices of unclosed sections */
	size_t nopen, aopen;
	/* A cursor for turning offsets into line:col; offsets only grow. */
	size_t at, line_start;
	unsigned line;
};

/* One tag as found in the source. */
struct tag {
	int type;		/* # ^ / > ! = & { or 0 for a plain variable */
	size_t start, end;	/* the whole tag, delimiters included */
	const char *body;	/* the content, trimmed */
	size_t blen;
	unsigned line, col;
};

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void
locate(struct parser *p, size_t off, unsigned *line, unsigned *col)
{
	const char *src = p->t->src;

	for (; p->at < off; p->at++) {
		if (src[p->at] == '\n') {
			p->line++;
			p->line_start = p->at + 1;
		}
	}
	*line = p->line;
	*col = (unsigned)(off - p->line_start + 1);
}

static int
parse_error(struct parser *p, unsigned line, unsigned col, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static int
parse_error(struct parser *p, unsigned line, unsigned col, const char *fmt,
    ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	jg_error_set(JG_EINVAL, "%s:%u:%u: %s", p->t->name, line, col,
	    msg.buf);
	strbuf_release(&msg);
	return JG_EINVAL;
}

static struct mustache_node *
add_node(struct parser *p, enum mustache_kind kind, const struct tag *tag)
{
	struct mustache *t = p->t;
	struct mustache_node *n;

	XALLOC_GROW(t->nodes, t->nr + 1, t->alloc);
	n = &t->nodes[t->nr++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	if (tag) {
		n->line = tag->line;
		n->col = tag->col;
		n->name = xstrndup(tag->body, tag->blen);
	}
	return n;
}

static void
add_text(struct parser *p, size_t from, size_t to)
{
	struct mustache_node *n;

	if (to <= from)
		return;
	n = add_node(p, MU_TEXT, NULL);
	n->off = from;
	n->len = to - from;
}

/*
 * Find where the tag opening at `start` closes, and its type and content.
 * The closing delimiter is searched for after the type character, and for
 * {{{ and {{= it must follow a "}" or "=" that belongs to the content.
 */
static int
parse_tag(struct parser *p, size_t start, struct tag *tag)
{
	const char *src = p->t->src;
	size_t len = p->t->len, i = start + p->olen, from, j;
	const char *hit;
	int need = 0;

	memset(tag, 0, sizeof(*tag));
	tag->start = start;
	locate(p, start, &tag->line, &tag->col);
	if (i < len && src[i] && strchr("#^/>!=&{", src[i])) {
		tag->type = src[i++];
		if (tag->type == '{')
			need = '}';
		else if (tag->type == '=')
			need = '=';
	}
	for (from = i;; from = j + 1) {
		hit = memmem(src + from, len - from, p->ctag, p->clen);
		if (!hit)
			return parse_error(p, tag->line, tag->col,
			    "unclosed tag");
		j = (size_t)(hit - src);
		if (!need || (j > i && src[j - 1] == need))
			break;
	}
	tag->end = j + p->clen;
	if (need)
		j--;
	while (i < j && is_blank(src[i]))
		i++;
	while (j > i && is_blank(src[j - 1]))
		j--;
	tag->body = src + i;
	tag->blen = j - i;
	return 0;
}

/* 1 when `s` holds whitespace or a NUL, which no name may contain. */
static int
has_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (is_blank(s[i]) || !s[i])
			return 1;
	return 0;
}

/* Check a variable or section name and split it into the node's path. */
static int
set_path(struct parser *p, struct mustache_node *n, const struct tag *tag)
{
	const char *s = tag->body;
	size_t i, len = tag->blen;

	if (!len)
		return parse_error(p, tag->line, tag->col, "empty tag");
	if (len == 1 && s[0] == '.')
		return 0;
	if (has_blank(s, len) || s[0] == '.' || s[len - 1] == '.' ||
	    memmem(s, len, "..", 2))
		return parse_error(p, tag->line, tag->col, "bad name '%.*s'",
		    (int)len, s);
	n->path = xstrndup(s, len);
	n->nparts = 1;
	for (i = 0; i < len; i++) {
		if (n->path[i] == '.') {
			n->path[i] = '\0';
			n->nparts++;
		}
	}
	return 0;
}

/* Skip over blanks (blank = 1) or over non-blanks (blank = 0). */
static const char *
skip(const char *s, const char *e, int blank)
{
	while (s < e && is_blank(*s) == blank)
		s++;
	return s;
}

/* {{=<% %>=}}: two delimiters separated by whitespace, nothing else. */
static int
set_delimiters(struct parser *p, const struct tag *tag)
{
	const char *a = tag->body, *e = tag->body + tag->blen;
	const char *a_end = skip(a, e, 0);
	const char *b = skip(a_end, e, 1);
	const char *b_end = skip(b, e, 0);

	if (a_end == a || b_end == b || b_end != e ||
	    memchr(a, '\0', (size_t)(e - a)))
		return parse_error(p, tag->line, tag->col,
		    "bad set-delimiter tag: expected two delimiters, as in "
		    "'=<%% %%>='");
	p->otag = a;
	p->olen = (size_t)(a_end - a);
	p->ctag = b;
	p->clen = (size_t)(b_end - b);
	return 0;
}

/*
 * If `tag` is alone on its line, return 1 and widen [*ls, *next) to run
 * from its line's start to past its line's end; else leave them alone.
 */
static int
standalone(const struct parser *p, const struct tag *tag, size_t *ls,
    size_t *next)
{
	const char *src = p->t->src;
	size_t len = p->t->len, s = tag->start, e = tag->end;

	while (s > 0 && (src[s - 1] == ' ' || src[s - 1] == '\t'))
		s--;
	if (s > 0 && src[s - 1] != '\n')
		return 0;
	while (e < len && (src[e] == ' ' || src[e] == '\t'))
		e++;
	if (e < len && src[e] == '\r' && e + 1 < len && src[e + 1] == '\n')
		e++;
	if (e < len && src[e] != '\n')
		return 0;
	*ls = s;
	*next = e < len ? e + 1 : len;
	return 1;
}

static int
open_section(struct parser *p, const struct tag *tag)
{
	struct mustache_node *n;
	int err;

	n = add_node(p, tag->type == '#' ? MU_SECTION : MU_INVERTED, tag);
	if ((err = set_path(p, n, tag)))
		return err;
	if (p->nopen >= MUSTACHE_MAX_DEPTH)
		return parse_error(p, tag->line, tag->col,
		    "sections nested deeper than %d levels",
		    MUSTACHE_MAX_DEPTH);
	XALLOC_GROW(p->open, p->nopen + 1, p->aopen);
	p->open[p->nopen++] = p->t->nr - 1;
	return 0;
}

static int
close_section(struct parser *p, const struct tag *tag)
{
	struct mustache_node *n;

	if (!p->nopen)
		return parse_error(p, tag->line, tag->col,
		    "close tag '%.*s' without an open section",
		    (int)tag->blen, tag->body);
	n = &p->t->nodes[p->open[p->nopen - 1]];
	if (strlen(n->name) != tag->blen ||
	    memcmp(n->name, tag->body, tag->blen))
		return parse_error(p, tag->line, tag->col,
		    "close tag '%.*s' does not match section '%s' opened at "
		    "%u:%u", (int)tag->blen, tag->body, n->name, n->line,
		    n->col);
	n->end = p->t->nr;
	p->nopen--;
	return 0;
}

/* Turn one tag into nodes; text before it is already added. */
static int
add_tag(struct parser *p, const struct tag *tag, const char *indent,
    size_t ilen)
{
	struct mustache_node *n;

	switch (tag->type) {
	case '!':
		return 0;
	case '=':
		return set_delimiters(p, tag);
	case '#':
	case '^':
		return open_section(p, tag);
	case '/':
		return close_section(p, tag);
	case '>':
		if (!tag->blen)
			return parse_error(p, tag->line, tag->col,
			    "empty tag");
		if (has_blank(tag->body, tag->blen))
			return parse_error(p, tag->line, tag->col,
			    "bad partial name '%.*s'", (int)tag->blen,
			    tag->body);
		n = add_node(p, MU_PARTIAL, tag);
		if (ilen)
			n->indent = xstrndup(indent, ilen);
		return 0;
	default:
		n = add_node(p, tag->type ? MU_RAW : MU_VAR, tag);
		return set_path(p, n, tag);
	}
}

static int
parse(struct parser *p)
{
	const struct mustache *t = p->t;
	size_t pos = 0, text = 0, ls, next;
	const char *hit;
	struct tag tag;
	int err;

	while ((hit = memmem(t->src + pos, t->len - pos, p->otag, p->olen))) {
		if ((err = parse_tag(p, (size_t)(hit - t->src), &tag)))
			return err;
		ls = tag.start;
		next = tag.end;
		if (tag.type && !strchr("&{", tag.type))
			standalone(p, &tag, &ls, &next);
		add_text(p, text, ls);
		err = add_tag(p, &tag, t->src + ls, tag.start - ls);
		if (err)
			return err;
		pos = text = next;
	}
	add_text(p, text, t->len);
	if (p->nopen) {
		size_t last = p->open[p->nopen - 1];
		const struct mustache_node *n = &t->nodes[last];

		return parse_error(p, n->line, n->col,
		    "unclosed section '%s'", n->name);
	}
	return 0;
}

int
mustache_compile(struct mustache **out, const char *src, size_t len,
    const char *name)
{
	struct parser p = { 0 };
	struct mustache *t = xcalloc(1, sizeof(*t));
	int err;

	t->name = xstrdup(name ? name : "template");
	t->src = xmalloc(len + 1);
	memcpy(t->src, src, len);
	t->src[len] = '\0';
	t->len = len;
	p.t = t;
	p.otag = "{{";
	p.ctag = "}}";
	p.olen = p.clen = 2;
	p.line = 1;
	err = parse(&p);
	free(p.open);
	if (err) {
		mustache_free(t);
		t = NULL;
	}
	*out = t;
	return err;
}

void
mustache_free(struct mustache *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++) {
		free(t->nodes[i].name);
		free(t->nodes[i].path);
		free(t->nodes[i].indent);
	}
	free(t->nodes);
	free(t->src);
	free(t->name);
	free(t);
}
