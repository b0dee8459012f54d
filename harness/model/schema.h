/*
 * schema.h: the "schema" string every jankgate JSON file carries.
 *
 * "jankgate.<kind>/<major>[.<minor>]": a reader accepts its own major
 * version with any minor (minor versions only add keys) and refuses every
 * other by name, so an old jankgate meeting a newer file says so instead of
 * misreading it (the man page's FILES).
 */
#ifndef JG_SCHEMA_H
#define JG_SCHEMA_H

/*
 * Check `value` (the file's "schema" string; NULL when absent or not a
 * string) against `expected`, e.g. "jankgate.results/1".  `name` is the
 * file for messages and `kind` what it should be ("results").  Returns 0,
 * or JG_EINVAL with a message naming both versions.
 */
int schema_check(const char *name, const char *value, const char *expected,
    const char *kind);

#endif
