/*
 * utf8.c: the strict decoder of utf8.h.
 *
 * The first byte gives the length; the second byte's allowed range is what
 * rules out overlong forms (E0, F0), surrogates (ED) and code points past
 * U+10FFFF (F4); the rest must be continuation bytes.
 */
#include "strbuf.h"
#include "utf8.h"
#include "banned.h"

size_t
utf8_len(const unsigned char *p, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

size_t
utf8_decode(const unsigned char *p, size_t n, unsigned *cp)
{
	static const unsigned char mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	size_t len = utf8_len(p, n);
	unsigned c;

	if (!len) {
		*cp = 0xfffd;
		return 1;
	}
	c = p[0] & mask[len];
	for (size_t i = 1; i < len; i++)
		c = c << 6 | (p[i] & 0x3f);
	*cp = c;
	return len;
}

void
utf8_encode(struct strbuf *sb, unsigned cp)
{
	if ((cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff)
		cp = 0xfffd;
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (int)(0xc0 | cp >> 6));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (int)(0xe0 | cp >> 12));
		strbuf_addch(sb, (int)(0x80 | (cp >> 6 & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (int)(0xf0 | cp >> 18));
		strbuf_addch(sb, (int)(0x80 | (cp >> 12 & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp >> 6 & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

static int
is_format_control(unsigned cp)
{
	return (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

void
utf8_add_printable(struct strbuf *sb, const char *s, size_t len,
    int keep_newline)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n = utf8_len(p + i, len - i);
		unsigned cp;

		if (!n) {
			strbuf_addch(sb, '?');
			i++;
			continue;
		}
		utf8_decode(p + i, n, &cp);
		if (cp == '\n' && keep_newline)
			strbuf_addch(sb, '\n');
		else if (cp == '\n' || cp == '\t')
			strbuf_addch(sb, ' ');
		else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
		    is_format_control(cp))
			strbuf_addch(sb, '?');
		else
			strbuf_add(sb, s + i, n);
		i += n;
	}
}
