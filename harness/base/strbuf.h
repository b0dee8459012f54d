/*
 * strbuf.h: a growable byte buffer, always NUL-terminated.
 *
 * Modelled on git's strbuf: `buf` is never NULL (it points at a shared empty
 * string until the first write), `len` excludes the terminating NUL, and
 * binary data with embedded NULs is fine.  Embed it by value and release it
 * with strbuf_release().
 */
#ifndef JG_STRBUF_H
#define JG_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { strbuf_slopbuf, 0, 0 }

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the memory and leave `sb` as after STRBUF_INIT. */
void strbuf_release(struct strbuf *sb);
/* Hand the string to the caller (who frees it); `sb` is reset.  `len` may be NULL. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Make room for `extra` more bytes. */
void strbuf_grow(struct strbuf *sb, size_t extra);
/* Truncate or extend (after strbuf_grow) to `len` bytes. */
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Drop `len` bytes starting at `pos` (clamped to the buffer). */
void strbuf_remove(struct strbuf *sb, size_t pos, size_t len);
/* Remove trailing whitespace (space, tab, CR, LF). */
void strbuf_rtrim(struct strbuf *sb);

#endif
