/*
 * scenario_lex.c: words and values of the scenario language (the rules are
 * in scenario.h, the interface in scenario_int.h).
 *
 * Everything here runs in time linear in the input: columns are counted as
 * the scan moves forward, never recomputed from the start of the line, and
 * the typo finder refuses words longer than 32 bytes, so a 1 MB line of
 * junk costs one pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "scenario_int.h"
#include "xalloc.h"
#include "utf8.h"
#include "banned.h"

#define MAX_PIXEL 65535
#define MAX_KEYCODE 999

/* No command has more than six words; this keeps junk lines cheap. */
#define MAX_WORDS 64

/* A word longer than this gets no "did you mean" (keeps it linear). */
#define SUGGEST_MAX 32

static const struct key {
	const char *name;
	int code;
} keys[] = {
	{ "SOFT_LEFT", 1 }, { "SOFT_RIGHT", 2 }, { "HOME", 3 }, { "BACK", 4 },
	{ "CALL", 5 }, { "ENDCALL", 6 },
	/* digits only with the prefix: a bare number is a keycode */
	{ "KEYCODE_0", 7 }, { "KEYCODE_1", 8 }, { "KEYCODE_2", 9 },
	{ "KEYCODE_3", 10 }, { "KEYCODE_4", 11 }, { "KEYCODE_5", 12 },
	{ "KEYCODE_6", 13 }, { "KEYCODE_7", 14 }, { "KEYCODE_8", 15 },
	{ "KEYCODE_9", 16 },
	{ "STAR", 17 }, { "POUND", 18 }, { "DPAD_UP", 19 }, { "DPAD_DOWN", 20 },
	{ "DPAD_LEFT", 21 }, { "DPAD_RIGHT", 22 }, { "DPAD_CENTER", 23 },
	{ "VOLUME_UP", 24 }, { "VOLUME_DOWN", 25 }, { "POWER", 26 },
	{ "CAMERA", 27 }, { "CLEAR", 28 },
	{ "A", 29 }, { "B", 30 }, { "C", 31 }, { "D", 32 }, { "E", 33 },
	{ "F", 34 }, { "G", 35 }, { "H", 36 }, { "I", 37 }, { "J", 38 },
	{ "K", 39 }, { "L", 40 }, { "M", 41 }, { "N", 42 }, { "O", 43 },
	{ "P", 44 }, { "Q", 45 }, { "R", 46 }, { "S", 47 }, { "T", 48 },
	{ "U", 49 }, { "V", 50 }, { "W", 51 }, { "X", 52 }, { "Y", 53 },
	{ "Z", 54 },
	{ "COMMA", 55 }, { "PERIOD", 56 }, { "ALT_LEFT", 57 },
	{ "ALT_RIGHT", 58 }, { "SHIFT_LEFT", 59 }, { "SHIFT_RIGHT", 60 },
	{ "TAB", 61 }, { "SPACE", 62 }, { "SYM", 63 }, { "EXPLORER", 64 },
	{ "ENVELOPE", 65 }, { "ENTER", 66 }, { "DEL", 67 }, { "GRAVE", 68 },
	{ "MINUS", 69 }, { "EQUALS", 70 }, { "LEFT_BRACKET", 71 },
	{ "RIGHT_BRACKET", 72 }, { "BACKSLASH", 73 }, { "SEMICOLON", 74 },
	{ "APOSTROPHE", 75 }, { "SLASH", 76 }, { "AT", 77 }, { "NUM", 78 },
	{ "HEADSETHOOK", 79 }, { "FOCUS", 80 }, { "PLUS", 81 }, { "MENU", 82 },
	{ "NOTIFICATION", 83 }, { "SEARCH", 84 }, { "MEDIA_PLAY_PAUSE", 85 },
	{ "MEDIA_STOP", 86 }, { "MEDIA_NEXT", 87 }, { "MEDIA_PREVIOUS", 88 },
	{ "MEDIA_REWIND", 89 }, { "MEDIA_FAST_FORWARD", 90 }, { "MUTE", 91 },
	{ "PAGE_UP", 92 }, { "PAGE_DOWN", 93 }, { "ESCAPE", 111 },
	{ "FORWARD_DEL", 112 }, { "CTRL_LEFT", 113 }, { "CTRL_RIGHT", 114 },
	{ "CAPS_LOCK", 115 }, { "SCROLL_LOCK", 116 }, { "META_LEFT", 117 },
	{ "META_RIGHT", 118 }, { "FUNCTION", 119 }, { "SYSRQ", 120 },
	{ "BREAK", 121 }, { "MOVE_HOME", 122 }, { "MOVE_END", 123 },
	{ "INSERT", 124 }, { "FORWARD", 125 }, { "MEDIA_PLAY", 126 },
	{ "MEDIA_PAUSE", 127 },
	{ "F1", 131 }, { "F2", 132 }, { "F3", 133 }, { "F4", 134 },
	{ "F5", 135 }, { "F6", 136 }, { "F7", 137 }, { "F8", 138 },
	{ "F9", 139 }, { "F10", 140 }, { "F11", 141 }, { "F12", 142 },
	{ "NUM_LOCK", 143 }, { "VOLUME_MUTE", 164 }, { "ZOOM_IN", 168 },
	{ "ZOOM_OUT", 169 }, { "SETTINGS", 176 }, { "APP_SWITCH", 187 },
	{ "ASSIST", 219 }, { "BRIGHTNESS_DOWN", 220 }, { "BRIGHTNESS_UP", 221 },
	{ "SLEEP", 223 }, { "WAKEUP", 224 }, { "VOICE_ASSIST", 231 },
	{ "CUT", 277 }, { "COPY", 278 }, { "PASTE", 279 }, { "ALL_APPS", 284 },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

void
scn_lexer_init(struct scn_lexer *lx)
{
	memset(lx, 0, sizeof(*lx));
	strbuf_init(&lx->text, 0);
}

void
scn_lexer_release(struct scn_lexer *lx)
{
	strbuf_release(&lx->text);
	free(lx->tok);
	memset(lx, 0, sizeof(*lx));
}

static int
is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

int
scn_column(const char *line, size_t pos)
{
	int col = 1;

	for (size_t i = 0; i < pos; i++)
		col += !is_cont((unsigned char)line[i]);
	return col;
}

static int
lex_error(struct scn_lexer *lx, int col, const char *msg)
{
	lx->err_col = col;
	return jg_error_set(JG_EINVAL, "%s", msg);
}

/*
 * Consume one non-ASCII character or one printable ASCII byte at line[*i]
 * into the value.  Control characters other than an allowed tab, and invalid
 * UTF-8, are errors.
 */
static int
take_char(struct scn_lexer *lx, const char *line, size_t len, size_t *i,
    int *col, int tab_ok)
{
	const unsigned char *p = (const unsigned char *)line + *i;
	size_t n;

	if ((*p < 0x20 && !(tab_ok && *p == '\t')) || *p == 0x7f) {
		lx->err_col = *col;
		return jg_error_set(JG_EINVAL, "control character 0x%02x", *p);
	}
	n = utf8_len(p, len - *i);
	if (!n)
		return lex_error(lx, *col, "invalid UTF-8");
	strbuf_add(&lx->text, p, n);
	*i += n;
	(*col)++;
	return 0;
}

static int
lex_bare(struct scn_lexer *lx, const char *line, size_t len, size_t *i,
    int *col)
{
	while (*i < len && line[*i] != ' ' && line[*i] != '\t') {
		if (line[*i] == '"')
			return lex_error(lx, *col, "unexpected '\"' inside a "
			    "word (quote the whole word)");
		if (take_char(lx, line, len, i, col, 0))
			return JG_EINVAL;
	}
	return 0;
}

static int
lex_quoted(struct scn_lexer *lx, const char *line, size_t len, size_t *i,
    int *col)
{
	int open = *col;

	(*i)++;
	(*col)++;
	for (;;) {
		char c, e;

		if (*i >= len)
			return lex_error(lx, open, "unterminated string");
		c = line[*i];
		if (c == '"')
			break;
		if (c != '\\') {
			if (take_char(lx, line, len, i, col, 1))
				return JG_EINVAL;
			continue;
		}
		if (*i + 1 >= len)
			return lex_error(lx, open, "unterminated string");
		e = line[*i + 1];
		if (e == '\\' || e == '"')
			strbuf_addch(&lx->text, e);
		else if (e == 'n')
			strbuf_addch(&lx->text, '\n');
		else if (e == 't')
			strbuf_addch(&lx->text, '\t');
		else if (e > 0x20 && e < 0x7f) {
			lx->err_col = *col;
			return jg_error_set(JG_EINVAL, "bad escape '\\%c' in "
			    "string (expected \\\\, \\\", \\n or \\t)", e);
		} else
			return lex_error(lx, *col, "bad escape in string "
			    "(expected \\\\, \\\", \\n or \\t)");
		*i += 2;
		*col += 2;
	}
	(*i)++;
	(*col)++;
	if (*i < len && line[*i] != ' ' && line[*i] != '\t')
		return lex_error(lx, *col,
		    "expected a space after the closing quote");
	return 0;
}

int
scn_lex_line(struct scn_lexer *lx, const char *line, size_t len)
{
	size_t i = 0;
	int col = 1;

	lx->nr = 0;
	strbuf_reset(&lx->text);
	while (i < len) {
		struct scn_token *t;
		int rc;

		if (line[i] == ' ' || line[i] == '\t') {
			i++;
			col++;
			continue;
		}
		if (line[i] == '#')
			break;
		if (lx->nr == MAX_WORDS) {
			lx->err_col = col;
			return jg_error_set(JG_EINVAL, "too many words on one "
			    "line (at most %d)", MAX_WORDS);
		}
		XALLOC_GROW(lx->tok, lx->nr + 1, lx->alloc);
		t = &lx->tok[lx->nr++];
		t->off = lx->text.len;
		t->col = col;
		t->quoted = line[i] == '"';
		if (t->quoted)
			rc = lex_quoted(lx, line, len, &i, &col);
		else
			rc = lex_bare(lx, line, len, &i, &col);
		if (rc)
			return rc;
		t->len = lx->text.len - t->off;
		t->end_col = col;
		strbuf_addch(&lx->text, '\0');
	}
	/* Pointers only now: the buffer may have moved while growing. */
	for (size_t k = 0; k < lx->nr; k++)
		lx->tok[k].s = lx->text.buf + lx->tok[k].off;
	return 0;
}

/*
 * Read "D+" into *out (0 .. max).  Returns 0, -1 when `s` is not such a
 * number, -2 when it is larger than max.
 */
static int
read_digits(const char *s, size_t n, long max, long *out)
{
	long v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v <= max)
			v = v * 10 + (s[i] - '0');
	}
	if (v > max)
		return -2;
	*out = v;
	return 0;
}

/*
 * Read "D+" or "D+.D{1,3}" as thousandths (12.5 -> 12500) into *out.
 * Returns as read_digits(), with max in thousandths.
 */
static int
read_milli(const char *s, size_t n, long max, long *out)
{
	const char *dot = memchr(s, '.', n);
	size_t ip = dot ? (size_t)(dot - s) : n, fp = dot ? n - ip - 1 : 0;
	long whole, frac = 0;
	int rc;

	if (dot && (fp < 1 || fp > 3))
		return -1;
	rc = read_digits(s, ip, max / 1000 + 1, &whole);
	if (rc == -1 || (dot && read_digits(dot + 1, fp, 999, &frac)))
		return -1;
	for (size_t i = fp; i < 3; i++)
		frac *= 10;
	if (rc == -2 || whole * 1000 + frac > max)
		return -2;
	*out = whole * 1000 + frac;
	return 0;
}

int
scn_read_coord(const struct scn_token *t, struct scenario_coord *out)
{
	char b[80];
	long v;
	int rc;

	if (t->quoted)
		return jg_error_set(JG_EINVAL, "bad coordinate '%s' (numbers "
		    "must not be quoted)", scn_show(b, sizeof(b), t->s));
	out->col = t->col;
	out->percent = t->len && t->s[t->len - 1] == '%';
	if (out->percent)
		rc = read_milli(t->s, t->len - 1, 100000, &v);
	else
		rc = read_digits(t->s, t->len, MAX_PIXEL, &v);
	if (rc == -2 && out->percent)
		return jg_error_set(JG_EINVAL, "percentage '%s' out of range "
		    "(expected 0%% to 100%%)", scn_show(b, sizeof(b), t->s));
	if (rc == -2)
		return jg_error_set(JG_EINVAL, "pixel coordinate '%s' out of "
		    "range (expected 0 to %d)", scn_show(b, sizeof(b), t->s),
		    MAX_PIXEL);
	if (rc)
		return jg_error_set(JG_EINVAL, "bad coordinate '%s' (expected "
		    "pixels such as 540 or a percentage such as 50%%)",
		    scn_show(b, sizeof(b), t->s));
	out->value = (int)v;
	return 0;
}

static const char *
show_ms(char *buf, size_t size, int ms)
{
	if (ms >= 1000 && ms % 1000 == 0)
		snprintf(buf, size, "%ds", ms / 1000);
	else
		snprintf(buf, size, "%dms", ms);
	return buf;
}

int
scn_read_duration(const struct scn_token *t, const char *what, int min_ms,
    int max_ms, int *out)
{
	char b[80], lo[32], hi[32];
	size_t n = t->len;
	long v;
	int rc;

	if (n > 2 && !strcmp(t->s + n - 2, "ms"))
		rc = read_digits(t->s, n - 2, max_ms, &v);
	else if (n > 1 && t->s[n - 1] == 's')
		rc = read_milli(t->s, n - 1, max_ms, &v);
	else
		rc = read_digits(t->s, n, max_ms, &v);
	if (t->quoted)
		rc = -1;
	if (!rc && v < min_ms)
		rc = -2;
	if (rc == -2)
		return jg_error_set(JG_EINVAL, "%s '%s' out of range (expected "
		    "%s to %s)", what, scn_show(b, sizeof(b), t->s),
		    show_ms(lo, sizeof(lo), min_ms),
		    show_ms(hi, sizeof(hi), max_ms));
	if (rc)
		return jg_error_set(JG_EINVAL, "bad %s '%s' (expected "
		    "milliseconds such as 500 or 500ms, or seconds such as 2s)",
		    what, scn_show(b, sizeof(b), t->s));
	*out = (int)v;
	return 0;
}

int
scn_read_count(const struct scn_token *t, int min, int max, int *out)
{
	char b[80];
	long v;
	int rc = t->quoted ? -1 : read_digits(t->s, t->len, max, &v);

	if (!rc && v < min)
		rc = -2;
	if (rc == -2)
		return jg_error_set(JG_EINVAL, "repeat count '%s' out of range "
		    "(expected %d to %d)", scn_show(b, sizeof(b), t->s), min,
		    max);
	if (rc)
		return jg_error_set(JG_EINVAL, "bad repeat count '%s' "
		    "(expected a number from %d to %d)",
		    scn_show(b, sizeof(b), t->s), min, max);
	*out = (int)v;
	return 0;
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/*
 * Edit distance counting a swap of neighbours as one edit ("BAKC" is one
 * from "BACK"), ignoring ASCII case.  Words longer than SUGGEST_MAX are
 * "far" without any work, so hostile input stays cheap.
 */
static int
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];

	if (la > SUGGEST_MAX || lb > SUGGEST_MAX)
		return 1000;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int best = d[i - 1][j - 1] +
			    (lower(a[i - 1]) != lower(b[j - 1]));

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			/* a swap of neighbours is one edit */
			if (i > 1 && j > 1 &&
			    lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* The keycode named `name` (case-insensitive, KEYCODE_ optional), or -1. */
static int
key_code(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcasecmp(name, keys[i].name))
			return keys[i].code;
	if (!strncasecmp(name, "KEYCODE_", 8))
		for (size_t i = 0; i < NKEYS; i++)
			if (!strcasecmp(name + 8, keys[i].name))
				return keys[i].code;
	return -1;
}

const char *
scenario_key_name(int code)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (keys[i].code == code)
			return keys[i].name;
	return NULL;
}

/*
 * The entry of `n` names, `stride` bytes apart from `first`, closest to
 * `word` when it is close enough to be a plausible typo, else NULL.
 */
static const char *
nearest(const char *word, const char *const *first, size_t n, size_t stride)
{
	const char *near = NULL;
	/* One edit in a short word, two in a long one: closer is noise. */
	int best = SUGGEST_MAX, limit = strlen(word) >= 6 ? 2 : 1;

	for (size_t i = 0; i < n; i++) {
		const char *name = *(const char *const *)
		    ((const char *)first + i * stride);
		int d = distance(word, name);

		if (d < best) {
			best = d;
			near = name;
		}
	}
	return best <= limit ? near : NULL;
}

const char *
scn_suggest(const char *word, const char *const *names)
{
	size_t n = 0;

	while (names[n])
		n++;
	return nearest(word, names, n, sizeof(*names));
}

int
scn_read_key(const struct scn_token *t, int *out)
{
	const char *near, *word = t->s;
	char b[80];
	long v;
	int rc, code;

	rc = t->quoted ? -1 : read_digits(t->s, t->len, MAX_KEYCODE, &v);
	if (!rc && v < 1)
		rc = -2;
	if (rc == -2)
		return jg_error_set(JG_EINVAL, "keycode '%s' out of range "
		    "(expected 1 to %d)", scn_show(b, sizeof(b), t->s),
		    MAX_KEYCODE);
	if (!rc) {
		*out = (int)v;
		return 0;
	}
	code = t->quoted ? -1 : key_code(t->s);
	if (code > 0) {
		*out = code;
		return 0;
	}
	if (!strncasecmp(word, "KEYCODE_", 8))
		word += 8;
	near = t->quoted ? NULL : nearest(word, &keys[0].name, NKEYS,
	    sizeof(keys[0]));
	if (near)
		return jg_error_set(JG_EINVAL, "unknown key '%s' (did you mean "
		    "'%s'?)", scn_show(b, sizeof(b), t->s), near);
	return jg_error_set(JG_EINVAL, "unknown key '%s' (expected an Android "
	    "key name such as BACK, HOME or ENTER, or a keycode from 1 to %d)",
	    scn_show(b, sizeof(b), t->s), MAX_KEYCODE);
}

char *
scn_show(char *buf, size_t size, const char *s)
{
	size_t o = 0, keep = size > 48 ? 40 : size / 2;

	for (; *s && o + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (o >= keep && !is_cont(c)) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c == '\n' || c == '\t') {
			buf[o++] = '\\';
			buf[o++] = c == '\n' ? 'n' : 't';
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o] = '\0';
	return buf;
}

void
scn_put_coord(struct strbuf *sb, const struct scenario_coord *c)
{
	int frac = c->value % 1000, digits = 3;

	if (!c->percent) {
		strbuf_addf(sb, "%d", c->value);
		return;
	}
	strbuf_addf(sb, "%d", c->value / 1000);
	if (frac) {
		while (frac % 10 == 0) {
			frac /= 10;
			digits--;
		}
		strbuf_addf(sb, ".%0*d", digits, frac);
	}
	strbuf_addch(sb, '%');
}
