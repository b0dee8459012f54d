/*
 * jsonw.c: a canonical JSON writer.
 *
 * Files jankgate writes (results.json, comparison.json, --json output) are
 * read by people in `git diff` and by other programs, so their bytes must
 * not depend on a library version: two-space indent, one value per line,
 * keys in the order written, integers without a fraction, other numbers in
 * the shortest form that reads back to the same double, NaN and infinities
 * as null, and strings always valid UTF-8 (each invalid byte becomes
 * U+FFFD) with control characters escaped.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "jsonw.h"
#include "strbuf.h"
#include "banned.h"

/* Integers below 2^53 are exact in a double and print without exponent. */
#define EXACT_INT_LIMIT 9007199254740992.0

void
jsonw_init(struct jsonw *w, struct strbuf *sb)
{
	w->sb = sb;
	w->depth = 0;
	w->first = true;
}

void
jsonw_end(struct jsonw *w)
{
	strbuf_addch(w->sb, '\n');
}

/* Length of the valid UTF-8 sequence at `p`, or 0 when it is not one. */
static size_t
utf8_seq_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* The second byte carries the overlong, surrogate and range limits. */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

void
json_quote(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	strbuf_addch(sb, '"');
	while (*p) {
		size_t n;

		switch (*p) {
		case '"':  strbuf_addstr(sb, "\\\""); p++; continue;
		case '\\': strbuf_addstr(sb, "\\\\"); p++; continue;
		case '\b': strbuf_addstr(sb, "\\b"); p++; continue;
		case '\f': strbuf_addstr(sb, "\\f"); p++; continue;
		case '\n': strbuf_addstr(sb, "\\n"); p++; continue;
		case '\r': strbuf_addstr(sb, "\\r"); p++; continue;
		case '\t': strbuf_addstr(sb, "\\t"); p++; continue;
		}
		if (*p < 0x20) {
			strbuf_addf(sb, "\\u%04x", *p++);
			continue;
		}
		n = utf8_seq_len(p);
		if (n) {
			strbuf_add(sb, p, n);
			p += n;
		} else {
			strbuf_addstr(sb, "\xef\xbf\xbd");	/* U+FFFD */
			p++;
		}
	}
	strbuf_addch(sb, '"');
}

void
json_number(struct strbuf *sb, double d)
{
	char buf[40];

	if (!isfinite(d)) {
		strbuf_addstr(sb, "null");
		return;
	}
	if (d == floor(d) && fabs(d) < EXACT_INT_LIMIT) {
		/* "+ 0.0" turns -0 into 0: a zero's sign measures nothing. */
		snprintf(buf, sizeof(buf), "%.0f", d + 0.0);
	} else {
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, d);
			if (strtod(buf, NULL) == d)
				break;
		}
	}
	strbuf_addstr(sb, buf);
}

void
jsonw_item(struct jsonw *w, const char *key)
{
	if (w->depth == 0)
		return;		/* the top-level value: no separator, no key */
	if (!w->first)
		strbuf_addch(w->sb, ',');
	strbuf_addch(w->sb, '\n');
	for (int i = 0; i < w->depth; i++)
		strbuf_addstr(w->sb, "  ");
	if (key) {
		json_quote(w->sb, key);
		strbuf_addstr(w->sb, ": ");
	}
	w->first = false;
}

void
jsonw_open(struct jsonw *w, const char *key, char brace)
{
	jsonw_item(w, key);
	strbuf_addch(w->sb, brace);
	w->depth++;
	w->first = true;
}

void
jsonw_close(struct jsonw *w, char brace)
{
	w->depth--;
	if (!w->first) {
		strbuf_addch(w->sb, '\n');
		for (int i = 0; i < w->depth; i++)
			strbuf_addstr(w->sb, "  ");
	}
	strbuf_addch(w->sb, brace);
	w->first = false;
}

void
jsonw_str(struct jsonw *w, const char *key, const char *s)
{
	jsonw_item(w, key);
	if (s)
		json_quote(w->sb, s);
	else
		strbuf_addstr(w->sb, "null");
}

void
jsonw_num(struct jsonw *w, const char *key, double d)
{
	jsonw_item(w, key);
	json_number(w->sb, d);
}

void
jsonw_lit(struct jsonw *w, const char *key, const char *literal)
{
	jsonw_item(w, key);
	strbuf_addstr(w->sb, literal);
}

