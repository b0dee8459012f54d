/*
 * textenc.c: see textenc.h.
 *
 * The byte order marks:
 *
 *	EF BB BF	UTF-8
 *	FF FE		UTF-16 LE	("A" is 41 00)
 *	FE FF		UTF-16 BE	("A" is 00 41)
 *
 * Without a mark, the first SNIFF_UNITS 16-bit units decide: UTF-16 when
 * at least half of them are an ASCII character next to a NUL byte, LE or
 * BE by the side the NUL is on.  UTF-8 text holds no NUL byte at all, and
 * a capture with the odd NUL in a message stays far below half.
 */
#include <stdint.h>
#include <string.h>

#include "strbuf.h"
#include "textenc.h"
#include "utf8.h"
#include "banned.h"

#define SNIFF_UNITS 2048

static enum textenc
sniff(const unsigned char *p, size_t len)
{
	size_t units = len / 2, le = 0, be = 0;

	if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		return TEXTENC_UTF8_BOM;
	if (len >= 2 && p[0] == 0xFF && p[1] == 0xFE)
		return TEXTENC_UTF16LE;
	if (len >= 2 && p[0] == 0xFE && p[1] == 0xFF)
		return TEXTENC_UTF16BE;
	if (units > SNIFF_UNITS)
		units = SNIFF_UNITS;
	for (size_t i = 0; i < units; i++) {
		unsigned char a = p[2 * i], b = p[2 * i + 1];

		if (a && a < 0x80 && !b)
			le++;
		else if (!a && b && b < 0x80)
			be++;
	}
	if (units && le * 2 >= units && le > be)
		return TEXTENC_UTF16LE;
	if (units && be * 2 >= units && be > le)
		return TEXTENC_UTF16BE;
	return TEXTENC_UTF8;
}

static unsigned
unit_at(const unsigned char *p, int big)
{
	return big ? (unsigned)(p[0] << 8 | p[1]) :
	    (unsigned)(p[1] << 8 | p[0]);
}

static void
from_utf16(struct strbuf *sb, const unsigned char *p, size_t len, int big)
{
	size_t i = 0;

	/* One BOM at the start is no character. */
	if (len >= 2 && unit_at(p, big) == 0xFEFF)
		i = 2;
	strbuf_grow(sb, len);
	for (; i + 1 < len; i += 2) {
		unsigned u = unit_at(p + i, big);

		if (u >= 0xD800 && u <= 0xDBFF && i + 3 < len) {
			unsigned lo = unit_at(p + i + 2, big);

			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				utf8_encode(sb, 0x10000 + ((u - 0xD800) << 10) +
				    (lo - 0xDC00));
				i += 2;
				continue;
			}
		}
		/* utf8_encode() turns a lone surrogate into U+FFFD. */
		utf8_encode(sb, u);
	}
}

enum textenc
textenc_utf8(struct strbuf *sb, const char *buf, size_t len,
    const char **out, size_t *out_len)
{
	const unsigned char *p = (const unsigned char *)buf;
	enum textenc e = sniff(p, len);
	size_t start = sb->len;

	switch (e) {
	case TEXTENC_UTF8:
		*out = buf;
		*out_len = len;
		break;
	case TEXTENC_UTF8_BOM:
		*out = buf + 3;
		*out_len = len - 3;
		break;
	case TEXTENC_UTF16LE:
	case TEXTENC_UTF16BE:
		from_utf16(sb, p, len, e == TEXTENC_UTF16BE);
		*out = sb->buf + start;
		*out_len = sb->len - start;
		break;
	}
	return e;
}

const char *
textenc_name(enum textenc e)
{
	switch (e) {
	case TEXTENC_UTF8_BOM:
		return "UTF-8 with a BOM";
	case TEXTENC_UTF16LE:
		return "UTF-16LE";
	case TEXTENC_UTF16BE:
		return "UTF-16BE";
	default:
		return "UTF-8";
	}
}
