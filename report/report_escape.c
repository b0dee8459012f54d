/*
 * report_escape.c: what {{var}} does to a value in each output format.
 *
 * Scene names, stack frames, activity names and error messages come from
 * devices and scenario files, so a report must treat them as hostile.
 * Each output has its own danger: markup in HTML and XML, a forged line
 * in plain text, emphasis, links, images, raw HTML or a broken table in
 * Markdown.  Common to all: bytes that are not UTF-8, control characters
 * (forbidden in XML 1.0, invisible elsewhere) and bidirectional overrides
 * (which make text read differently than it is stored) become U+FFFD, the
 * replacement character, so a reader sees that something was there.
 */
#include <stdbool.h>
#include <string.h>

#include "report.h"
#include "strbuf.h"
#include "utf8.h"
#include "banned.h"

#define REPLACEMENT "\xef\xbf\xbd"

enum mode { M_HTML, M_TEXT, M_MARKDOWN, M_CLEAN };

/* U+202A..U+202E and U+2066..U+2069 reorder the text around them. */
static bool
is_bidi_control(unsigned cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Markdown punctuation that starts markup anywhere in a line. */
static bool
is_md_special(unsigned char c)
{
	return c && strchr("\\`*_{}[]()<>#|~!&@", c) != NULL;
}

/*
 * A value starting like a list item marker ("- x", "+ x", "12. x",
 * "3) x": the marker, then a space or the end) would open a list inside
 * a list item it is put in: the offset of the character to escape, or
 * `len` when there is none.  "+3.1 ms" and "1.5 ms" are no markers.
 */
static size_t
md_leading_marker(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 0 && len && (s[0] == '-' || s[0] == '+'))
		;
	else if (!(i > 0 && i < len && (s[i] == '.' || s[i] == ')')))
		return len;
	if (i + 1 == len || s[i + 1] == ' ' || s[i + 1] == '\t')
		return i;
	return len;
}

static void
escape(struct strbuf *out, const char *s, size_t len, enum mode m)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, marker = m == M_MARKDOWN ?
	    md_leading_marker(s, len) : len;
	unsigned cp;

	while (i < len) {
		unsigned char c = p[i];

		if (c >= 0x80) {
			n = utf8_len(p + i, len - i);
			if (!n) {
				strbuf_addstr(out, REPLACEMENT);
				i++;
				continue;
			}
			utf8_decode(p + i, n, &cp);
			if (is_bidi_control(cp) || (cp >= 0x80 && cp < 0xa0))
				strbuf_addstr(out, REPLACEMENT);
			else
				strbuf_add(out, p + i, n);
			i += n;
			continue;
		}
		if (c == '\n' || c == '\r' || c == '\t') {
			if (m == M_HTML || m == M_CLEAN)
				strbuf_addch(out, c);
			else
				strbuf_addch(out, ' ');
		} else if (c < 0x20 || c == 0x7f) {
			strbuf_addstr(out, REPLACEMENT);
		} else if (m == M_CLEAN) {
			strbuf_addch(out, c);
		} else if (m == M_HTML) {
			switch (c) {
			case '&': strbuf_addstr(out, "&amp;"); break;
			case '<': strbuf_addstr(out, "&lt;"); break;
			case '>': strbuf_addstr(out, "&gt;"); break;
			case '"': strbuf_addstr(out, "&quot;"); break;
			case '\'': strbuf_addstr(out, "&#39;"); break;
			default: strbuf_addch(out, c); break;
			}
		} else {
			if (m == M_MARKDOWN && (is_md_special(c) || i == marker))
				strbuf_addch(out, '\\');
			strbuf_addch(out, c);
		}
		i++;
	}
}

void
report_escape_html(struct strbuf *out, const char *s, size_t len)
{
	escape(out, s, len, M_HTML);
}

void
report_escape_text(struct strbuf *out, const char *s, size_t len)
{
	escape(out, s, len, M_TEXT);
}

void
report_escape_markdown(struct strbuf *out, const char *s, size_t len)
{
	escape(out, s, len, M_MARKDOWN);
}

void
report_clean_text(struct strbuf *out, const char *s, size_t len)
{
	escape(out, s, len, M_CLEAN);
}
