/*
 * uidump.c: `uiautomator dump` XML into a flat list of views, with libxml2.
 *
 * The file that reads XML with libxml2 (report/junit.c writes it):
 * the document is parsed from memory with network access, DTD loading
 * and entity substitution off, so a hostile dump (an app controls every
 * string in it) can neither reach a file or the network nor blow up in
 * memory; libxml2 reports errors into its per-thread slot, never to
 * stderr, because of XML_PARSE_NOERROR / NOWARNING.  What the format
 * looks like is drawn in uidump.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "error.h"
#include "strbuf.h"
#include "uidump.h"
#include "xalloc.h"
#include "banned.h"

#define DESCRIBE_MAX_BYTES	60
#define DESCRIBE_MAX_ITEMS	40

struct uidump {
	struct uidump_node *nodes;
	size_t nr, alloc;
};

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void
xml_init(void)
{
	xmlInitParser();
}

void
uidump_global_init(void)
{
	pthread_once(&xml_once, xml_init);
}

/* The attribute `name` of `n` as an owned string, "" when absent. */
static char *
attr(xmlNode *n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *s = xstrdup(v ? (const char *)v : "");

	xmlFree(v);
	return s;
}

/* "[l,t][r,b]"; anything else leaves the bounds at 0. */
static void
parse_bounds(const char *s, struct uidump_node *nd)
{
	long v[4];
	const char *p = s;

	for (int i = 0; i < 4; i++) {
		char *end;

		if (*p != (i % 2 ? ',' : '['))
			return;
		v[i] = strtol(p + 1, &end, 10);
		if (end == p + 1 || v[i] < -100000 || v[i] > 100000)
			return;
		p = end;
		if (i % 2) {
			if (*p != ']')
				return;
			p++;
		}
	}
	if (*p)
		return;
	nd->left = (int)v[0];
	nd->top = (int)v[1];
	nd->right = (int)v[2];
	nd->bottom = (int)v[3];
}

static void
add_node(struct uidump *d, xmlNode *n)
{
	struct uidump_node *nd;
	char *bounds, *clickable;

	XALLOC_GROW(d->nodes, d->nr + 1, d->alloc);
	nd = &d->nodes[d->nr++];
	memset(nd, 0, sizeof(*nd));
	nd->text = attr(n, "text");
	nd->id = attr(n, "resource-id");
	nd->desc = attr(n, "content-desc");
	nd->cls = attr(n, "class");
	nd->package = attr(n, "package");
	bounds = attr(n, "bounds");
	parse_bounds(bounds, nd);
	free(bounds);
	clickable = attr(n, "clickable");
	nd->clickable = !strcmp(clickable, "true");
	free(clickable);
}

/* Depth first, document order, without recursion (no stack to exhaust). */
static void
collect(struct uidump *d, xmlNode *root)
{
	xmlNode *n = root;

	while (n) {
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, "node"))
			add_node(d, n);
		if (n->type == XML_ELEMENT_NODE && n->children) {
			n = n->children;
			continue;
		}
		while (n && n != root && !n->next)
			n = n->parent;
		if (!n || n == root)
			break;
		n = n->next;
	}
}

/* The bytes from "<?xml" or "<hierarchy" to the last "</hierarchy>". */
static int
hierarchy_span(const char *text, size_t len, size_t *from, size_t *to)
{
	static const char close[] = "</hierarchy>";
	const char *start = memmem(text, len, "<hierarchy", 10);
	const char *decl, *end = NULL, *p = text;

	if (!start)
		return -1;
	decl = memmem(text, (size_t)(start - text), "<?xml", 5);
	if (decl)
		start = decl;
	while ((p = memmem(p, len - (size_t)(p - text), close,
	    sizeof(close) - 1))) {
		end = p + sizeof(close) - 1;
		p = end;
	}
	if (!end || end < start)
		return -1;
	*from = (size_t)(start - text);
	*to = (size_t)(end - text);
	return 0;
}

int
uidump_parse(struct uidump **out, const char *text, size_t len)
{
	struct uidump *d;
	xmlDoc *doc;
	xmlNode *root;
	size_t from, to;

	*out = NULL;
	uidump_global_init();
	if (hierarchy_span(text, len, &from, &to))
		return jg_error_set(JG_EINVAL, "no UI hierarchy in the dump");
	if (to - from > (size_t)64 << 20)
		return jg_error_set(JG_EINVAL, "UI dump too large (%zu bytes)",
		    to - from);
	doc = xmlReadMemory(text + from, (int)(to - from), "uidump.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
	    XML_PARSE_NOCDATA);
	if (!doc) {
		const xmlError *e = xmlGetLastError();

		if (e && e->message) {
			struct strbuf m = STRBUF_INIT;

			strbuf_addstr(&m, e->message);
			strbuf_rtrim(&m);
			jg_error_set(JG_EINVAL, "bad UI dump: line %d: %s",
			    e->line, m.buf);
			strbuf_release(&m);
			xmlResetLastError();
			return JG_EINVAL;
		}
		return jg_error_set(JG_EINVAL, "bad UI dump");
	}
	root = xmlDocGetRootElement(doc);
	if (!root || strcmp((const char *)root->name, "hierarchy")) {
		xmlFreeDoc(doc);
		return jg_error_set(JG_EINVAL, "no UI hierarchy in the dump");
	}
	d = xcalloc(1, sizeof(*d));
	collect(d, root);
	xmlFreeDoc(doc);
	*out = d;
	return 0;
}

void
uidump_free(struct uidump *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr; i++) {
		free(d->nodes[i].text);
		free(d->nodes[i].id);
		free(d->nodes[i].desc);
		free(d->nodes[i].cls);
		free(d->nodes[i].package);
	}
	free(d->nodes);
	free(d);
}

size_t
uidump_count(const struct uidump *d)
{
	return d->nr;
}

const struct uidump_node *
uidump_node(const struct uidump *d, size_t i)
{
	return i < d->nr ? &d->nodes[i] : NULL;
}

static const char *
field(const struct uidump_node *n, enum uidump_by by)
{
	return by == UIDUMP_TEXT ? n->text : by == UIDUMP_ID ? n->id : n->desc;
}

/* "buy" matches "com.x:id/buy"; a full id only itself. */
static int
id_matches(const char *id, const char *want)
{
	const char *slash;

	if (!strcmp(id, want))
		return 1;
	if (strchr(want, '/'))
		return 0;
	slash = strstr(id, ":id/");
	return slash && !strcmp(slash + 4, want);
}

const struct uidump_node *
uidump_find(const struct uidump *d, enum uidump_by by, const char *value)
{
	if (!*value)
		return NULL;	/* every view lacks some attribute */
	for (size_t i = 0; i < d->nr; i++) {
		const struct uidump_node *n = &d->nodes[i];

		if (n->right <= n->left || n->bottom <= n->top)
			continue;
		if (by == UIDUMP_ID ? id_matches(n->id, value) :
		    !strcmp(field(n, by), value))
			return n;
	}
	return NULL;
}

void
uidump_center(const struct uidump_node *n, int *x, int *y)
{
	*x = n->left + (n->right - n->left) / 2;
	*y = n->top + (n->bottom - n->top) / 2;
}

/* 's' quoted for a message: control bytes as \xNN, cut at a character. */
static void
add_shown(struct strbuf *out, const char *s)
{
	size_t len = strlen(s), cut = len;

	if (cut > DESCRIBE_MAX_BYTES) {
		cut = DESCRIBE_MAX_BYTES;
		while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
			cut--;
	}
	strbuf_addch(out, '\'');
	for (size_t i = 0; i < cut; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			strbuf_addf(out, "\\x%02x", c);
		else if (c == '\'' || c == '\\')
			strbuf_addf(out, "\\%c", c);
		else
			strbuf_addch(out, (char)c);
	}
	strbuf_addch(out, '\'');
	if (cut < len)
		strbuf_addstr(out, "...");
}

/* One kind's list; returns 1 when it wrote anything. */
static int
describe_kind(const struct uidump *d, enum uidump_by by, const char *label,
    int sep, struct strbuf *out)
{
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < d->nr; i++) {
		const char *v = field(&d->nodes[i], by);
		size_t j;

		if (!*v)
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(field(&d->nodes[j], by), v))
				break;
		if (j < i)
			continue;
		if (shown == DESCRIBE_MAX_ITEMS) {
			more++;
			continue;
		}
		strbuf_addstr(out, shown ? ", " : sep ? "; " : "");
		if (!shown)
			strbuf_addf(out, "%s ", label);
		add_shown(out, v);
		shown++;
	}
	if (more)
		strbuf_addf(out, " and %zu more", more);
	return shown > 0;
}

void
uidump_describe(const struct uidump *d, struct strbuf *out)
{
	int any = 0;

	any |= describe_kind(d, UIDUMP_TEXT, "texts", any, out);
	any |= describe_kind(d, UIDUMP_ID, "ids", any, out);
	any |= describe_kind(d, UIDUMP_DESC, "descriptions", any, out);
	if (!any)
		strbuf_addstr(out, "nothing with text, id or description");
}
