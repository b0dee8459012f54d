/*
 * strbuf.c: the growable buffer of strbuf.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Shared empty string for buffers that own no memory yet; never written. */
char strbuf_slopbuf[1];

void
strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->buf = strbuf_slopbuf;
	sb->len = 0;
	sb->alloc = 0;
	if (hint)
		strbuf_grow(sb, hint);
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *
strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	int fresh = !sb->alloc;

	if (sb->len + extra + 1 <= sb->len)
		xreallocarray(NULL, (size_t)-1, 2);	/* overflow: aborts */
	if (fresh)
		sb->buf = NULL;
	XALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void
strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (len == 0)
			return;
		strbuf_grow(sb, len);
	}
	sb->len = len;
	sb->buf[len] = '\0';
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void
strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	strbuf_setlen(sb, sb->len + (size_t)n);
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void
strbuf_remove(struct strbuf *sb, size_t pos, size_t len)
{
	if (pos >= sb->len)
		return;
	if (len > sb->len - pos)
		len = sb->len - pos;
	memmove(sb->buf + pos, sb->buf + pos + len, sb->len - pos - len);
	strbuf_setlen(sb, sb->len - len);
}

void
strbuf_rtrim(struct strbuf *sb)
{
	size_t n = sb->len;

	while (n && strchr(" \t\r\n", sb->buf[n - 1]))
		n--;
	strbuf_setlen(sb, n);
}
