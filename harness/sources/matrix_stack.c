/*
 * matrix_stack.c: Matrix `threadStack` strings, in each of their styles,
 * as Java frames (docs/formats.md §1.4, trace/util/Utils.java).
 *
 *	LAG, SIGNAL_ANR, PRIORITY_MODIFIED, STACK_STYLE_RAW
 *	  (StackTraceElement.toString() per line):
 *		java.lang.Thread.sleep(Native Method)\n
 *		com.x.Foo.bar(Foo.java:12)\n
 *	ANR, STACK_STYLE_SIMPLE (frames 3 to 11) and STACK_STYLE_WHOLE:
 *		" \n"
 *		|*\t\tat java.lang.Thread:sleep(-2)\n
 *		|*\t\tat com.x.Foo:bar(12)\n
 *
 * The second style loses the file name; its frames come out the way
 * Android prints a frame without one: "com.x.Foo.bar(Unknown Source:12)",
 * "(Native Method)" for line -2 and "(Unknown Source)" for other negative
 * lines.  Either way signature.h sees "com.x.Foo.bar", so an ANR and the
 * LAG of the same stall get the same signature.  Lines of other shapes
 * (native backtraces, "...") are kept as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"
#include "methodmap.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* "(12)" / "(-2)" of Utils.getStack as Java prints the frame's source. */
static void
add_source(struct strbuf *sb, const char *p, const char *end)
{
	char num[24], *e;
	long line;
	size_t n = (size_t)(end - p);

	if (n && n < sizeof(num)) {
		memcpy(num, p, n);
		num[n] = '\0';
		line = strtol(num, &e, 10);
		if (!*e) {
			if (line == -2)
				strbuf_addstr(sb, "(Native Method)");
			else if (line < 0)
				strbuf_addstr(sb, "(Unknown Source)");
			else
				strbuf_addf(sb, "(Unknown Source:%ld)", line);
			return;
		}
	}
	strbuf_addch(sb, '(');
	strbuf_add(sb, p, n);
	strbuf_addch(sb, ')');
}

/* One line of either style, as a Java frame in `sb` (empty: none). */
static void
frame_of(struct strbuf *sb, const char *p, const char *end)
{
	const char *paren, *colon = NULL, *q, *close;

	while (end > p && is_blank(end[-1]))
		end--;
	while (p < end && is_blank(*p))
		p++;
	if (end - p >= 2 && p[0] == '|' && p[1] == '*') {
		p += 2;
		while (p < end && is_blank(*p))
			p++;
	}
	if (end - p >= 3 && !memcmp(p, "at ", 3))
		p += 3;
	paren = memchr(p, '(', (size_t)(end - p));
	for (q = p; q < (paren ? paren : end); q++)
		if (*q == ':')
			colon = q;
	if (!colon || !paren) {
		strbuf_add(sb, p, (size_t)(end - p));
		return;
	}
	/* "com.x.Foo:bar(12)": Utils.getStack's class:method(line). */
	close = memchr(paren, ')', (size_t)(end - paren));
	strbuf_add(sb, p, (size_t)(colon - p));
	strbuf_addch(sb, '.');
	strbuf_add(sb, colon + 1, (size_t)(paren - colon - 1));
	add_source(sb, paren + 1, close ? close : end);
}

int
mx_thread_stack(struct strlist *out, const char *s, int cut)
{
	const char *p = s, *end = s + strlen(s);
	struct strbuf sb = STRBUF_INIT;
	size_t kept = 0;
	int lost = 0;

	if (cut) {
		/* A cut frame would hash as another method. */
		while (end > s && end[-1] != '\n')
			end--;
		lost = 1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		strbuf_setlen(&sb, 0);
		frame_of(&sb, p, eol);
		p = nl ? nl + 1 : end;
		if (!sb.len)
			continue;
		if (kept == METHODMAP_MAX_FRAMES) {
			lost = 1;
			break;
		}
		strlist_add(out, sb.buf);
		kept++;
	}
	strbuf_release(&sb);
	return lost;
}
