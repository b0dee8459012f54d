/*
 * shquote.h: quoting words for the device's /system/bin/sh.
 *
 * Everything jankgate puts on a device command line that did not come
 * from its own source (text to type, paths, package names, user options)
 * goes through sh_quote(), so no string can break out of its word: it is
 * wrapped in single quotes, inside which mksh (like every POSIX shell)
 * gives no character a special meaning, and each embedded single quote
 * becomes '\'' (close, escaped quote, reopen).
 */
#ifndef JG_SHQUOTE_H
#define JG_SHQUOTE_H

struct strbuf;

/*
 * Append `s` quoted as one shell word to `out`: "it's" -> 'it'\''s',
 * "" -> ''.  Any bytes are accepted, including newlines and non-ASCII.
 */
void sh_quote(struct strbuf *out, const char *s);

/*
 * Append the words of the NULL-terminated `argv`, each quoted and
 * separated by one space, to `out`.
 */
void sh_quote_argv(struct strbuf *out, const char *const argv[]);

#endif
