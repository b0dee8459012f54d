/*
 * textline.h: walk a text buffer line by line, without copying.
 *
 * For the device outputs the sources read (`dumpsys gfxinfo`, `am start
 * -W`): lines end in LF, sometimes CRLF from a pty, and carry trailing
 * blanks nobody means.
 */
#ifndef JG_TEXTLINE_H
#define JG_TEXTLINE_H

#include <stdbool.h>
#include <stddef.h>

/* A line of the text, without its LF, CR or trailing blanks. */
struct text_line {
	const char *s;		/* into the text, not NUL-terminated */
	size_t n;
};

/*
 * The line at *pos (before `end`) in *l, and *pos moved past its LF.
 * false, with *l untouched, when *pos has reached `end`.
 */
bool text_next_line(const char **pos, const char *end, struct text_line *l);

#endif
