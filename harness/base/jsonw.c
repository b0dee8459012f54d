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
#include <string.h>

#include "jsonw.h"
#include "strbuf.h"
#include "utf8.h"
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
		/* At most 4 bytes are looked at, and the NUL stops a sequence. */
		n = utf8_len(p, strnlen((const char *)p, 4));
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

