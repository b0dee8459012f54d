/*
 * xalloc.h: allocation that cannot fail.
 *
 * jankgate has no useful way to continue without memory, so these wrappers
 * print one line to stderr and abort() instead of returning NULL; callers do
 * not check.  Sizes are checked for overflow.
 */
#ifndef JG_XALLOC_H
#define JG_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc to nmemb * size, aborting on overflow. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Allocating printf; the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Grow a dynamic array `x` with capacity `alloc` so it holds at least `nr`
 * elements; growth is geometric.  As in git's ALLOC_GROW.
 */
#define XALLOC_GROW(x, nr, alloc) \
	do { \
		if ((size_t)(nr) > (size_t)(alloc)) { \
			size_t jg_na_ = ((size_t)(alloc) + 16) * 3 / 2; \
			if (jg_na_ < (size_t)(nr)) \
				jg_na_ = (size_t)(nr); \
			(x) = xreallocarray((x), jg_na_, sizeof(*(x))); \
			(alloc) = jg_na_; \
		} \
	} while (0)

#endif
