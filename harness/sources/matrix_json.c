/*
 * matrix_json.c: a JSON object reader that keeps what it read of a cut
 * object.
 *
 * A Matrix issue is one org.json object on one logcat line, and logcat
 * cuts the line at about 4 KB: typically inside the `stack` or
 * `threadStack` string of a long evil method.  A strict parser (cJSON)
 * would lose the whole issue; this one returns every member read before
 * the cut, the cut string itself (flagged), and whether the object closed:
 *
 *	{"machine":"HIGH",...,"cost":1006,"stack":"0,1048574,1,1006\n1,24
 *	 ^ kept ...           ^ kept       ^ kept, cut = true          ^ end
 *
 * A number or literal that reaches the end of the input is dropped: "10"
 * may be the start of "1006".  Nested objects are flattened into dotted
 * keys; arrays are skipped (no trace issue has one).  Escapes are decoded
 * to UTF-8; a NUL, escaped or raw, becomes U+FFFD so that strings stay C
 * strings.  Nesting deeper than MAX_DEPTH is a syntax error, so a hostile
 * line cannot exhaust the stack.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"
#include "results.h"
#include "strbuf.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

#define MAX_DEPTH 32

/* What a reading step found. */
enum step {
	STEP_OK,
	STEP_CUT,		/* the input ended */
	STEP_BAD,		/* not JSON */
};

struct reader {
	const char *s;
	size_t len, pos;
	struct mx_json *j;
	struct strbuf path;	/* the key of the object being read */
};

static void
skip_ws(struct reader *r)
{
	while (r->pos < r->len && (r->s[r->pos] == ' ' ||
	    r->s[r->pos] == '\t' || r->s[r->pos] == '\r' ||
	    r->s[r->pos] == '\n'))
		r->pos++;
}

/* JSON's \u0000 would cut a C string: it becomes U+FFFD. */
static void
add_utf8(struct strbuf *sb, unsigned cp)
{
	utf8_encode(sb, cp ? cp : 0xfffd);
}

/* Four hex digits at r->pos; -1 when not there, -2 when cut. */
static long
hex4(struct reader *r)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		char c;

		if (r->pos + (size_t)i >= r->len)
			return -2;
		c = r->s[r->pos + (size_t)i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	r->pos += 4;
	return v;
}

/* After "\u": one code point, pairing surrogates. */
static enum step
read_unicode(struct reader *r, struct strbuf *out)
{
	long hi = hex4(r), lo;

	if (hi == -2)
		return STEP_CUT;
	if (hi < 0)
		return STEP_BAD;
	if (hi < 0xd800 || hi > 0xdfff) {
		add_utf8(out, (unsigned)hi);
		return STEP_OK;
	}
	if (hi <= 0xdbff && r->pos + 1 < r->len && r->s[r->pos] == '\\' &&
	    r->s[r->pos + 1] == 'u') {
		size_t at = r->pos;

		r->pos += 2;
		lo = hex4(r);
		if (lo == -2)
			return STEP_CUT;
		if (lo >= 0xdc00 && lo <= 0xdfff) {
			add_utf8(out, 0x10000 + (unsigned)((hi - 0xd800) << 10 |
			    (lo - 0xdc00)));
			return STEP_OK;
		}
		r->pos = at;	/* not a pair: read it on its own */
	}
	add_utf8(out, 0xfffd);	/* a lone surrogate */
	return STEP_OK;
}

/* At the opening quote; the unescaped text goes to `out`. */
static enum step
read_string(struct reader *r, struct strbuf *out)
{
	r->pos++;
	while (r->pos < r->len) {
		char c = r->s[r->pos++];
		enum step st;

		if (c == '"')
			return STEP_OK;
		if (c == '\0') {
			add_utf8(out, 0xfffd);
			continue;
		}
		if (c != '\\') {
			strbuf_addch(out, c);
			continue;
		}
		if (r->pos >= r->len)
			return STEP_CUT;
		c = r->s[r->pos++];
		switch (c) {
		case 'n': strbuf_addch(out, '\n'); break;
		case 't': strbuf_addch(out, '\t'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 'b': strbuf_addch(out, '\b'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'u':
			st = read_unicode(r, out);
			if (st != STEP_OK)
				return st;
			break;
		default:
			/* \" \\ \/ and, leniently, any other character. */
			if (c == '\0')
				add_utf8(out, 0xfffd);
			else
				strbuf_addch(out, c);
		}
	}
	return STEP_CUT;
}

static enum step
read_number(struct reader *r, double *out)
{
	size_t start = r->pos;
	char buf[64], *end;

	while (r->pos < r->len && strchr("+-.0123456789eE", r->s[r->pos]) &&
	    r->s[r->pos] != '\0')
		r->pos++;
	if (r->pos == r->len)
		return STEP_CUT;	/* more digits may have followed */
	/* "0x10" is no number: what follows must end it. */
	if (r->pos == start || r->pos - start >= sizeof(buf) ||
	    r->s[r->pos] == '\0' || !strchr(" \t\r\n,}]", r->s[r->pos]))
		return STEP_BAD;
	memcpy(buf, r->s + start, r->pos - start);
	buf[r->pos - start] = '\0';
	/* Only the characters above reach strtod: no "inf", no hex. */
	*out = strtod(buf, &end);
	if (*end || !isfinite(*out))
		return STEP_BAD;
	return STEP_OK;
}

static enum step
read_literal(struct reader *r, const char *word)
{
	size_t n = strlen(word), have = r->len - r->pos;

	if (have < n)
		return memcmp(r->s + r->pos, word, have) ? STEP_BAD : STEP_CUT;
	if (memcmp(r->s + r->pos, word, n))
		return STEP_BAD;
	r->pos += n;
	return STEP_OK;
}

static struct mx_member *
add_member(struct reader *r, enum mx_type type)
{
	struct mx_member *m;

	XALLOC_GROW(r->j->members, r->j->nr + 1, r->j->alloc);
	m = &r->j->members[r->j->nr++];
	memset(m, 0, sizeof(*m));
	m->key = xstrdup(r->path.buf);
	m->type = type;
	m->number = NAN;
	return m;
}

static enum step read_object(struct reader *r, int depth, bool record);
static enum step read_value(struct reader *r, int depth, bool record);

static enum step
read_array(struct reader *r, int depth)
{
	enum step st;

	r->pos++;
	for (;;) {
		skip_ws(r);
		if (r->pos >= r->len)
			return STEP_CUT;
		if (r->s[r->pos] == ']') {
			r->pos++;
			return STEP_OK;
		}
		st = read_value(r, depth, false);
		if (st != STEP_OK)
			return st;
		skip_ws(r);
		if (r->pos >= r->len)
			return STEP_CUT;
		if (r->s[r->pos] == ',')
			r->pos++;
		else if (r->s[r->pos] != ']')
			return STEP_BAD;
	}
}

/* A value at r->pos, recorded under r->path when `record`. */
static enum step
read_value(struct reader *r, int depth, bool record)
{
	struct strbuf sb = STRBUF_INIT;
	struct mx_member *m;
	enum step st;
	double d = NAN;
	char c;

	if (depth > MAX_DEPTH)
		return STEP_BAD;
	if (r->pos >= r->len)
		return STEP_CUT;
	c = r->s[r->pos];
	switch (c) {
	case '{':
		return read_object(r, depth + 1, record);
	case '[':
		return read_array(r, depth + 1);
	case '"':
		st = read_string(r, &sb);
		if (st != STEP_BAD && record) {
			m = add_member(r, MX_STRING);
			m->string = strbuf_detach(&sb, NULL);
			m->cut = st == STEP_CUT;
		}
		strbuf_release(&sb);
		return st;
	case 't':
	case 'f':
		st = read_literal(r, c == 't' ? "true" : "false");
		if (st == STEP_OK && record)
			add_member(r, MX_BOOL)->number = c == 't';
		return st;
	case 'n':
		st = read_literal(r, "null");
		if (st == STEP_OK && record)
			add_member(r, MX_NULL);
		return st;
	default:
		st = read_number(r, &d);
		if (st == STEP_OK && record)
			add_member(r, MX_NUMBER)->number = d;
		return st;
	}
}

/* At '{': the members, each under "<path>.<key>". */
static enum step
read_object(struct reader *r, int depth, bool record)
{
	size_t base = r->path.len;
	enum step st;

	r->pos++;
	for (;;) {
		skip_ws(r);
		if (r->pos >= r->len)
			return STEP_CUT;
		if (r->s[r->pos] == '}') {
			r->pos++;
			return STEP_OK;
		}
		if (r->s[r->pos] != '"')
			return STEP_BAD;
		if (base)
			strbuf_addch(&r->path, '.');
		st = read_string(r, &r->path);
		if (st != STEP_OK)
			return st;
		skip_ws(r);
		if (r->pos >= r->len)
			return STEP_CUT;
		if (r->s[r->pos++] != ':')
			return STEP_BAD;
		skip_ws(r);
		st = read_value(r, depth, record);
		strbuf_setlen(&r->path, base);
		if (st != STEP_OK)
			return st;
		skip_ws(r);
		if (r->pos >= r->len)
			return STEP_CUT;
		if (r->s[r->pos] == ',')
			r->pos++;
		else if (r->s[r->pos] != '}')
			return STEP_BAD;
	}
}

void
mx_json_parse(struct mx_json *j, const char *s, size_t len)
{
	struct reader r = { s, len, 0, j, STRBUF_INIT };
	enum step st;

	memset(j, 0, sizeof(*j));
	skip_ws(&r);
	if (r.pos < len && s[r.pos] != '{')
		return;
	st = r.pos < len ? read_object(&r, 0, true) : STEP_CUT;
	strbuf_release(&r.path);
	j->complete = st == STEP_OK;
	j->cut = st == STEP_CUT;
	j->end = j->complete ? r.pos : 0;
}

void
mx_json_release(struct mx_json *j)
{
	for (size_t i = 0; i < j->nr; i++) {
		free(j->members[i].key);
		free(j->members[i].string);
	}
	free(j->members);
	memset(j, 0, sizeof(*j));
}

const struct mx_member *
mx_json_get(const struct mx_json *j, const char *key)
{
	for (size_t i = 0; i < j->nr; i++)
		if (!strcmp(j->members[i].key, key))
			return &j->members[i];
	return NULL;
}

double
mx_json_number(const struct mx_json *j, const char *key)
{
	const struct mx_member *m = mx_json_get(j, key);

	return m && m->type == MX_NUMBER ? m->number : NAN;
}

const char *
mx_json_string(const struct mx_json *j, const char *key)
{
	const struct mx_member *m = mx_json_get(j, key);

	return m && m->type == MX_STRING ? m->string : NULL;
}

int
mx_json_bool(const struct mx_json *j, const char *key)
{
	const struct mx_member *m = mx_json_get(j, key);

	return m && m->type == MX_BOOL ? (int)m->number : RS_UNKNOWN;
}
