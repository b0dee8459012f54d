/*
 * utf8.c: the strict decoder of utf8.h.
 *
 * The first byte gives the length; the second byte's allowed range is what
 * rules out overlong forms (E0, F0), surrogates (ED) and code points past
 * U+10FFFF (F4); the rest must be continuation bytes.
 */
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
