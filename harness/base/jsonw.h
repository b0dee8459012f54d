/*
 * jsonw.h: write canonical JSON into a strbuf (see jsonw.c for the layout).
 *
 * Usage:
 *	struct jsonw w;
 *	jsonw_init(&w, &sb);
 *	jsonw_open(&w, NULL, '{');
 *	jsonw_str(&w, "serial", serial);
 *	jsonw_num(&w, "sdk", 34);
 *	jsonw_close(&w, '}');
 *	jsonw_end(&w);
 *
 * `key` is the member name inside an object and NULL inside an array or
 * for the top-level value.  Nothing here fails.
 */
#ifndef JG_JSONW_H
#define JG_JSONW_H

#include <stdbool.h>

struct strbuf;

struct jsonw {
	struct strbuf *sb;
	int depth;
	bool first;	/* nothing written yet in the open container */
};

void jsonw_init(struct jsonw *w, struct strbuf *sb);
/* Open an object ('{') or array ('['); close with the matching brace. */
void jsonw_open(struct jsonw *w, const char *key, char brace);
void jsonw_close(struct jsonw *w, char brace);
/* A string member; NULL writes null. */
void jsonw_str(struct jsonw *w, const char *key, const char *s);
/* A number; NaN and infinities write null. */
void jsonw_num(struct jsonw *w, const char *key, double d);
/* A literal written as is: "true", "false", "null". */
void jsonw_lit(struct jsonw *w, const char *key, const char *literal);
/* Start a member whose value the caller appends to w->sb itself. */
void jsonw_item(struct jsonw *w, const char *key);
/* The final newline after the top-level value. */
void jsonw_end(struct jsonw *w);

/* Append `s` as a JSON string, repairing invalid UTF-8 with U+FFFD. */
void json_quote(struct strbuf *sb, const char *s);
/* Append `d` as a JSON number (or null when not finite). */
void json_number(struct strbuf *sb, double d);

#endif
