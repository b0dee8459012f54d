/*
 * utf8.h: strict UTF-8 decoding (and encoding), shared by every module that must not pass
 * invalid text on (JSON files, scenario files, mail headers).
 *
 * "Strict" means what RFC 3629 allows: no overlong forms, no surrogates,
 * nothing past U+10FFFF, no truncated sequences.
 */
#ifndef JG_UTF8_H
#define JG_UTF8_H

#include <stddef.h>

struct strbuf;

/*
 * Length (1-4) of the valid UTF-8 sequence at p[0..n), or 0 when it is
 * invalid or cut short.  `n` must be at least 1.
 */
size_t utf8_len(const unsigned char *p, size_t n);

/*
 * Decode the character at p[0..n) into *cp and return its length; an
 * invalid sequence decodes as U+FFFD and consumes one byte.
 */
size_t utf8_decode(const unsigned char *p, size_t n, unsigned *cp);

/*
 * Append the UTF-8 form of code point `cp`; a surrogate or a value past
 * U+10FFFF is appended as U+FFFD.
 */
void utf8_encode(struct strbuf *sb, unsigned cp);

/*
 * Append `len` bytes of `s` to `sb` made safe for a terminal: C0 and C1
 * control characters, DEL and the bidirectional overrides (U+202A-202E,
 * U+2066-2069, U+200E, U+200F, U+061C) become '?', so a device or
 * scenario string cannot move the cursor, recolour the screen or reorder
 * what follows it; invalid UTF-8 bytes become '?' too.  A newline is kept
 * when `keep_newline` is set (multi-line diagnostics), else it is a
 * space; a tab is a space.
 */
void utf8_add_printable(struct strbuf *sb, const char *s, size_t len,
    int keep_newline);

#endif
