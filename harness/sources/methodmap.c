/*
 * methodmap.c: methodMapping.txt and Matrix method-trace stacks (the
 * formats are drawn in methodmap.h).
 *
 * The map is a sorted array searched by id: a mapping of a large app has
 * some 100,000 lines, read once per run, looked up a few dozen times per
 * issue.  Stacks are decoded in linear time even when hostile (a `parse`
 * input has no logcat size limit): the end of every item's subtree is
 * found in one pass, so walking down the tree visits each child once.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "fileio.h"
#include "methodmap.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

struct method {
	long id;
	size_t line;		/* where it was read, to keep the first */
	char *name;		/* "class.method(desc)" */
};

struct methodmap {
	struct method *methods;	/* ascending id, unique */
	size_t nr, alloc;
};

/* Digits of [p, end) as a non-negative long; 0 or -1 when not a number. */
static int
parse_count(const char *p, const char *end, long *out)
{
	long v = 0;

	if (p == end)
		return -1;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if (v > (LONG_MAX - (*p - '0')) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return 0;
}

static int
cmp_method(const void *a, const void *b)
{
	const struct method *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->line > y->line) - (x->line < y->line);
}

/*
 * "class method desc" → "class.method" + desc.  A native method has no
 * desc; a name without a blank is kept whole.
 */
static char *
method_name(const char *p, const char *end)
{
	const char *sp1 = memchr(p, ' ', (size_t)(end - p)), *sp2;
	struct strbuf sb = STRBUF_INIT;

	if (!sp1)
		return xstrndup(p, (size_t)(end - p));
	strbuf_add(&sb, p, (size_t)(sp1 - p));
	strbuf_addch(&sb, '.');
	sp2 = memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1));
	if (!sp2) {
		strbuf_add(&sb, sp1 + 1, (size_t)(end - sp1 - 1));
	} else {
		strbuf_add(&sb, sp1 + 1, (size_t)(sp2 - sp1 - 1));
		strbuf_add(&sb, sp2 + 1, (size_t)(end - sp2 - 1));
	}
	return strbuf_detach(&sb, NULL);
}

/* One line "id,flags,class method desc" (no newline); -1 if malformed. */
static int
parse_mapping_line(struct methodmap *m, const char *p, const char *end)
{
	const char *c1 = memchr(p, ',', (size_t)(end - p)), *c2;
	long id, flags;

	if (!c1)
		return -1;
	c2 = memchr(c1 + 1, ',', (size_t)(end - c1 - 1));
	if (!c2 || c2 + 1 == end || parse_count(p, c1, &id) ||
	    parse_count(c1 + 1, c2, &flags))
		return -1;
	XALLOC_GROW(m->methods, m->nr + 1, m->alloc);
	m->methods[m->nr].id = id;
	m->methods[m->nr].line = m->nr;
	m->methods[m->nr].name = method_name(c2 + 1, end);
	m->nr++;
	return 0;
}

int
methodmap_parse(struct methodmap **out, const char *buf, size_t len,
    const char *name)
{
	struct methodmap *m = xcalloc(1, sizeof(*m));
	const char *p = buf, *end = buf + len;
	size_t lineno = 0, i, keep;

	*out = NULL;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;		/* a UTF-8 byte order mark */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		lineno++;
		while (eol > p && (eol[-1] == '\r' || eol[-1] == ' '))
			eol--;
		if (eol > p && parse_mapping_line(m, p, eol)) {
			methodmap_free(m);
			return jg_error_set(JG_EINVAL, "%s:%zu: expected "
			    "'id,flags,class method desc'", name, lineno);
		}
		p = nl ? nl + 1 : end;
	}
	if (m->nr)
		qsort(m->methods, m->nr, sizeof(*m->methods), cmp_method);
	/* The first of a repeated id wins (the sort breaks ties by line). */
	for (i = keep = 0; i < m->nr; i++) {
		if (keep && m->methods[keep - 1].id == m->methods[i].id) {
			free(m->methods[i].name);
			continue;
		}
		m->methods[keep++] = m->methods[i];
	}
	m->nr = keep;
	*out = m;
	return 0;
}

int
methodmap_load(struct methodmap **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	*out = NULL;
	ret = file_read(&sb, path);
	if (!ret)
		ret = methodmap_parse(out, sb.buf, sb.len, path);
	strbuf_release(&sb);
	return ret;
}

void
methodmap_free(struct methodmap *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++)
		free(m->methods[i].name);
	free(m->methods);
	free(m);
}

size_t
methodmap_size(const struct methodmap *m)
{
	return m ? m->nr : 0;
}

char *
methodmap_frame(const struct methodmap *m, long id)
{
	struct method *hit = NULL;
	size_t lo = 0, hi = m ? m->nr : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->methods[mid].id < id) {
			lo = mid + 1;
		} else if (m->methods[mid].id > id) {
			hi = mid;
		} else {
			hit = &m->methods[mid];
			break;
		}
	}
	if (hit)
		return xstrdup(hit->name);
	if (id == METHODMAP_DISPATCH_ID)
		return xstrdup("android.os.Handler.dispatchMessage");
	return xasprintf("method#%ld", id);
}

/* "depth,id,count,cost" (no newline); -1 if malformed. */
static int
parse_item(struct methodmap_item *it, const char *p, const char *end)
{
	const char *f[5];
	long v[4];
	int i;

	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	f[0] = p;
	for (i = 1; i < 4; i++) {
		const char *c = memchr(f[i - 1], ',', (size_t)(end - f[i - 1]));

		if (!c)
			return -1;
		f[i] = c + 1;
	}
	f[4] = end + 1;
	for (i = 0; i < 4; i++)
		if (parse_count(f[i], f[i + 1] - 1, &v[i]))
			return -1;
	if (v[0] > 100000)
		return -1;	/* no call tree is that deep */
	it->depth = (int)v[0];
	it->id = v[1];
	it->count = v[2];
	it->cost_ms = v[3];
	return 0;
}

size_t
methodmap_stack_items(const char *s, size_t len, int cut,
    struct methodmap_item **out, size_t *bad)
{
	struct methodmap_item *items = NULL;
	size_t nr = 0, alloc = 0;
	const char *p = s, *end = s + len;

	*bad = 0;
	if (cut) {
		/* A cut line parses as a smaller number: do not trust it. */
		while (end > s && end[-1] != '\n')
			end--;
		if (end < s + len)
			(*bad)++;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol > p) {
			XALLOC_GROW(items, nr + 1, alloc);
			if (parse_item(&items[nr], p, eol))
				(*bad)++;
			else
				nr++;
		}
		p = nl ? nl + 1 : end;
	}
	*out = items;
	return nr;
}

/*
 * end[i] = the index just past item i's subtree: the next item that is
 * not deeper.  One pass with a stack of the items still open.
 */
static size_t *
subtree_ends(const struct methodmap_item *items, size_t nr)
{
	size_t *end = xcalloc(nr ? nr : 1, sizeof(*end));
	size_t *open = xcalloc(nr ? nr : 1, sizeof(*open));
	size_t nr_open = 0, i;

	for (i = 0; i < nr; i++) {
		while (nr_open && items[open[nr_open - 1]].depth >=
		    items[i].depth)
			end[open[--nr_open]] = i;
		open[nr_open++] = i;
	}
	while (nr_open)
		end[open[--nr_open]] = nr;
	free(open);
	return end;
}

/*
 * The costliest item among the direct children of the range [from, to):
 * the first item and each one after a subtree.  SIZE_MAX when empty.
 */
static size_t
costliest(const struct methodmap_item *items, const size_t *end, size_t from,
    size_t to)
{
	size_t best = (size_t)-1, j;

	for (j = from; j < to; j = end[j])
		if (best == (size_t)-1 ||
		    items[j].cost_ms > items[best].cost_ms)
			best = j;
	return best;
}

int
methodmap_decode(const struct methodmap *m, const char *s, size_t len,
    int cut, struct strlist *out)
{
	struct methodmap_item *items;
	size_t nr, bad, *end, *path, nr_path = 0, at, first;
	int lost;

	nr = methodmap_stack_items(s, len, cut, &items, &bad);
	lost = bad > 0;
	if (!nr) {
		free(items);
		return lost;
	}
	end = subtree_ends(items, nr);
	path = xcalloc(nr, sizeof(*path));
	at = costliest(items, end, 0, nr);
	path[nr_path++] = at;
	for (;;) {
		size_t c = costliest(items, end, at + 1, end[at]);

		/* 30 %: TraceDataUtils.getTreeKey's share of the total. */
		if (c == (size_t)-1 || 10.0 * (double)items[c].cost_ms <
		    3.0 * (double)items[path[0]].cost_ms)
			break;
		path[nr_path++] = at = c;
	}
	first = 0;
	if (nr_path > METHODMAP_MAX_FRAMES) {
		first = nr_path - METHODMAP_MAX_FRAMES;
		lost = 1;
	}
	for (size_t i = nr_path; i > first; i--) {
		char *frame = methodmap_frame(m, items[path[i - 1]].id);

		strlist_add(out, frame);
		free(frame);
	}
	free(path);
	free(end);
	free(items);
	return lost;
}
