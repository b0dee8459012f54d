/*
 * strlist.c: the list of owned strings of strlist.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

void
strlist_init(struct strlist *l)
{
	l->items = NULL;
	l->nr = 0;
	l->alloc = 0;
}

void
strlist_release(struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	strlist_init(l);
}

char *
strlist_add(struct strlist *l, const char *s)
{
	XALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr] = xstrdup(s);
	return l->items[l->nr++];
}

char *
strlist_addf(struct strlist *l, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	XALLOC_GROW(l->items, l->nr + 1, l->alloc);
	l->items[l->nr] = strbuf_detach(&sb, NULL);
	return l->items[l->nr++];
}

long
strlist_find(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return (long)i;
	return -1;
}

void
strlist_copy(struct strlist *dst, const struct strlist *src)
{
	strlist_release(dst);
	for (size_t i = 0; i < src->nr; i++)
		strlist_add(dst, src->items[i]);
}
