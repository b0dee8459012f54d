/*
 * shquote.c: single-quote quoting for POSIX shells (see shquote.h).
 *
 * Single quotes rather than backslashes or double quotes: inside '...'
 * nothing is special ($, `, \, !, newlines, globs), so the only character
 * to handle is the quote itself.  Whole runs without a quote are copied at
 * once, keeping very long strings linear.
 */
#include <string.h>

#include "shquote.h"
#include "strbuf.h"
#include "banned.h"

void
sh_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (;;) {
		size_t run = strcspn(s, "'");

		strbuf_add(out, s, run);
		s += run;
		if (!*s)
			break;
		strbuf_addstr(out, "'\\''");
		s++;
	}
	strbuf_addch(out, '\'');
}

void
sh_quote_argv(struct strbuf *out, const char *const argv[])
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(out, ' ');
		sh_quote(out, argv[i]);
	}
}
