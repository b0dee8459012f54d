/*
 * mustache_render.c: render a compiled template over a cJSON tree.
 *
 * Rendering walks the node array with a context stack of cJSON values: the
 * data at the bottom, one entry per enclosing section (per list element for
 * lists).  A name's first part is looked up from the top of the stack down
 * in the objects on it; the remaining parts are looked up only in the value
 * found so far, so {{a.b}} is empty when a has no b even if an outer
 * context has a b ("broken chains" in the spec).
 *
 * Partials are loaded through the caller's callback and compiled the first
 * time a render meets them, then kept for the rest of that render: a report
 * repeats its row partials thousands of times.  A standalone partial's
 * indentation is put in front of every line of its source before compiling
 * it, as the spec requires, so it becomes a separate cache entry; the lines
 * of a value interpolated into it are not indented (the spec agrees).
 *
 * Output only ever grows at its end, so the cost is linear in the output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "error.h"
#include "mustache.h"
#include "mustache_priv.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* A partial as compiled for one name and indentation. */
struct partial {
	char *name;
	char *indent;		/* NULL: not standalone, or not indented */
	struct mustache *t;	/* NULL: the loader did not find it */
};

struct render {
	const struct mustache_opts *opts;
	void (*escape)(struct strbuf *out, const char *s, size_t len);
	struct strbuf *out;
	const cJSON **stack;
	size_t nstack, astack;
	struct partial *partials;
	size_t npartials, apartials;
	int depth;		/* sections and partials entered */
};

static int render_range(struct render *r, const struct mustache *t,
    size_t from, size_t to);

void
mustache_escape_html(struct strbuf *out, const char *s, size_t len)
{
	size_t i, run = 0;
	const char *ent;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		default: continue;
		}
		strbuf_add(out, s + run, i - run);
		strbuf_addstr(out, ent);
		run = i + 1;
	}
	strbuf_add(out, s + run, len - run);
}

void
mustache_escape_none(struct strbuf *out, const char *s, size_t len)
{
	strbuf_add(out, s, len);
}

/*
 * The shortest of %.15g..%.17g that reads back as `d`: 15 significant
 * digits always survive a round trip, so the first that does is the
 * shortest.  Integral values below 1e17 print in full, without exponent.
 * Assumes the "C" LC_NUMERIC locale, which jankgate never changes.
 */
static void
format_number(char *buf, size_t size, double d)
{
	if (d == 0) {
		snprintf(buf, size, "0");
		return;
	}
	if (floor(d) == d && fabs(d) < 1e17) {
		snprintf(buf, size, "%.0f", d);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

/* Missing, null, false and [] are falsy; 0 and "" are not. */
static int
is_falsy(const cJSON *v)
{
	return !v || cJSON_IsNull(v) || cJSON_IsFalse(v) ||
	    cJSON_IsInvalid(v) || (cJSON_IsArray(v) && !v->child);
}

static const cJSON *
lookup(const struct render *r, const struct mustache_node *n)
{
	const char *part = n->path;
	const cJSON *v = NULL;
	size_t i;

	if (!n->nparts)
		return r->stack[r->nstack - 1];
	for (i = r->nstack; i-- > 0 && !v;)
		if (cJSON_IsObject(r->stack[i]))
			v = cJSON_GetObjectItemCaseSensitive(r->stack[i], part);
	for (i = 1; i < n->nparts && v; i++) {
		part += strlen(part) + 1;
		v = cJSON_IsObject(v) ?
		    cJSON_GetObjectItemCaseSensitive(v, part) : NULL;
	}
	return v;
}

static void
interpolate(struct render *r, const cJSON *v, int escape)
{
	char num[64];
	const char *s = NULL;

	if (cJSON_IsString(v) || cJSON_IsRaw(v)) {
		s = v->valuestring ? v->valuestring : "";
	} else if (cJSON_IsNumber(v)) {
		format_number(num, sizeof(num), v->valuedouble);
		s = num;
	} else if (cJSON_IsTrue(v)) {
		s = "true";
	} else if (cJSON_IsFalse(v)) {
		s = "false";
	}
	if (!s)
		return;
	if (escape)
		r->escape(r->out, s, strlen(s));
	else
		strbuf_addstr(r->out, s);
}

/* Count one level of nesting; fails past MUSTACHE_MAX_DEPTH. */
static int
enter(struct render *r, const struct mustache *t,
    const struct mustache_node *n)
{
	if (++r->depth > MUSTACHE_MAX_DEPTH)
		return jg_error_set(JG_EINVAL,
		    "%s:%u:%u: sections and partials nested deeper than %d "
		    "levels at '%s'", t->name, n->line, n->col,
		    MUSTACHE_MAX_DEPTH, n->name);
	return 0;
}

static int
render_body(struct render *r, const struct mustache *t, size_t i,
    const cJSON *ctx)
{
	int err;

	if (ctx) {
		XALLOC_GROW(r->stack, r->nstack + 1, r->astack);
		r->stack[r->nstack++] = ctx;
	}
	err = render_range(r, t, i + 1, t->nodes[i].end);
	if (ctx)
		r->nstack--;
	return err;
}

static int
render_section(struct render *r, const struct mustache *t, size_t i)
{
	const struct mustache_node *n = &t->nodes[i];
	const cJSON *v = lookup(r, n), *e;
	int err;

	if ((n->kind == MU_SECTION) == is_falsy(v))
		return 0;
	if ((err = enter(r, t, n)))
		return err;
	if (n->kind == MU_INVERTED)
		err = render_body(r, t, i, NULL);
	else if (cJSON_IsArray(v))
		for (e = v->child; e && !err; e = e->next)
			err = render_body(r, t, i, e);
	else
		err = render_body(r, t, i, v);
	r->depth--;
	return err;
}

/* Put `indent` in front of every line of `src`; no line after a final \n. */
static void
indent_lines(struct strbuf *out, const struct strbuf *src,
    const char *indent)
{
	const char *s = src->buf, *end = src->buf + src->len, *nl;

	while (s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		nl = nl ? nl + 1 : end;
		strbuf_addstr(out, indent);
		strbuf_add(out, s, (size_t)(nl - s));
		s = nl;
	}
}

static int
same_indent(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Find, or load and compile, the partial node `n` names. */
static int
partial_get(struct render *r, const struct mustache *t,
    const struct mustache_node *n, const struct partial **out)
{
	struct strbuf src = STRBUF_INIT, indented = STRBUF_INIT;
	const struct mustache_opts *o = r->opts;
	struct partial *p;
	size_t i;
	int err = 0;

	for (i = 0; i < r->npartials; i++) {
		p = &r->partials[i];
		if (!strcmp(p->name, n->name) && same_indent(p->indent,
		    n->indent)) {
			*out = p;
			return 0;
		}
	}
	err = o && o->load_partial ?
	    o->load_partial(o->partial_ctx, n->name, &src) : JG_ENOTFOUND;
	if (err == JG_ENOTFOUND) {
		err = 0;
	} else if (err) {
		jg_error_prefix("%s:%u:%u: partial '%s'", t->name, n->line,
		    n->col, n->name);
		goto out;
	}
	XALLOC_GROW(r->partials, r->npartials + 1, r->apartials);
	p = &r->partials[r->npartials++];
	p->name = xstrdup(n->name);
	p->indent = n->indent ? xstrdup(n->indent) : NULL;
	p->t = NULL;
	if (src.len) {
		if (n->indent) {
			indent_lines(&indented, &src, n->indent);
			strbuf_release(&src);
			src = indented;
		}
		err = mustache_compile(&p->t, src.buf, src.len, n->name);
	}
	*out = p;
out:
	strbuf_release(&src);
	return err;
}

static int
render_partial(struct render *r, const struct mustache *t,
    const struct mustache_node *n)
{
	const struct partial *p;
	int err;

	if ((err = partial_get(r, t, n, &p)) || !p->t)
		return err;
	if ((err = enter(r, t, n)))
		return err;
	err = render_range(r, p->t, 0, p->t->nr);
	r->depth--;
	return err;
}

static int
render_range(struct render *r, const struct mustache *t, size_t from,
    size_t to)
{
	const struct mustache_node *n;
	int err = 0;

	for (size_t i = from; i < to && !err; i++) {
		n = &t->nodes[i];
		switch (n->kind) {
		case MU_TEXT:
			strbuf_add(r->out, t->src + n->off, n->len);
			break;
		case MU_VAR:
		case MU_RAW:
			interpolate(r, lookup(r, n), n->kind == MU_VAR);
			break;
		case MU_SECTION:
		case MU_INVERTED:
			err = render_section(r, t, i);
			i = n->end - 1;
			break;
		case MU_PARTIAL:
			err = render_partial(r, t, n);
			break;
		}
	}
	return err;
}

int
mustache_render(const struct mustache *t, const struct cJSON *data,
    const struct mustache_opts *opts, struct strbuf *out)
{
	struct render r = { 0 };
	size_t keep = out->len;
	int err;

	r.opts = opts;
	r.escape = opts && opts->escape ? opts->escape : mustache_escape_html;
	r.out = out;
	XALLOC_GROW(r.stack, 1, r.astack);
	r.stack[r.nstack++] = data;
	err = render_range(&r, t, 0, t->nr);
	for (size_t i = 0; i < r.npartials; i++) {
		free(r.partials[i].name);
		free(r.partials[i].indent);
		mustache_free(r.partials[i].t);
	}
	free(r.partials);
	free(r.stack);
	if (err)
		strbuf_setlen(out, keep);
	return err;
}
