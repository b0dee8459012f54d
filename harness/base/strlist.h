/*
 * strlist.h: a growable list of owned C strings.
 *
 * Used for configuration lists (sources, scenarios, recipients) and for
 * collected diagnostics.  Embedded by value; STRLIST_INIT or strlist_init,
 * then strlist_release frees every string.
 */
#ifndef JG_STRLIST_H
#define JG_STRLIST_H

#include <stddef.h>

struct strlist {
	char **items;
	size_t nr;
	size_t alloc;
};

#define STRLIST_INIT { NULL, 0, 0 }

void strlist_init(struct strlist *l);
void strlist_release(struct strlist *l);
/* Append a copy of `s`; returns the copy (owned by the list). */
char *strlist_add(struct strlist *l, const char *s);
/* Append a printf-formatted string. */
char *strlist_addf(struct strlist *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Index of `s` in the list, or -1. */
long strlist_find(const struct strlist *l, const char *s);
/* Replace the contents of `dst` with copies of `src`'s strings. */
void strlist_copy(struct strlist *dst, const struct strlist *src);

#endif
