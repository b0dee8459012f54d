/* textline.c: see textline.h. */
#include <string.h>

#include "textline.h"
#include "banned.h"

bool
text_next_line(const char **pos, const char *end, struct text_line *l)
{
	const char *nl;

	if (*pos >= end)
		return false;
	nl = memchr(*pos, '\n', (size_t)(end - *pos));
	l->s = *pos;
	l->n = (size_t)((nl ? nl : end) - *pos);
	*pos = nl ? nl + 1 : end;
	while (l->n && (l->s[l->n - 1] == '\r' || l->s[l->n - 1] == ' '))
		l->n--;
	return true;
}
