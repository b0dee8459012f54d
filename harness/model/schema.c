/*
 * schema.c: schema version checks shared by every JSON reader.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "schema.h"
#include "banned.h"

int
schema_check(const char *name, const char *value, const char *expected,
    const char *kind)
{
	const char *slash = strrchr(expected, '/');
	size_t family = (size_t)(slash - expected) + 1;
	unsigned long want = strtoul(slash + 1, NULL, 10), major;
	const char *p;
	char *end;

	if (!value)
		return jg_error_set(JG_EINVAL, "%s: missing \"schema\"; not a "
		    "jankgate %s file (expected '%s')", name, kind, expected);
	if (strncmp(value, expected, family))
		goto unsupported;
	p = value + family;
	if (*p < '0' || *p > '9')
		goto unsupported;
	major = strtoul(p, &end, 10);
	if (*end == '.' && end[1] >= '0' && end[1] <= '9')
		strtoul(end + 1, &end, 10);
	if (*end || major != want)
		goto unsupported;
	return 0;
unsupported:
	return jg_error_set(JG_EINVAL, "%s: unsupported schema '%s' (this "
	    "jankgate reads %s)", name, value, expected);
}
