/*
 * mustache.h: the template engine every report output goes through.
 *
 * report.html, email.html, email.txt and summary.md are Mustache templates
 * over one view model (report.h).  The engine implements the
 * Mustache spec without lambdas: variables (HTML-escaped unless written
 * {{{x}}} or {{& x}}), dotted names, the implicit iterator {{.}}, sections,
 * inverted sections, partials with standalone indentation, comments and
 * set-delimiter tags, with the spec's standalone-line rules.
 *
 * The data is a cJSON tree: report/ is the module whose data representation
 * is cJSON by design, so this header forward-declares `struct cJSON` instead
 * of hiding it.  Truthiness: missing, null, false and [] are falsy; every
 * number and string (0 and "" included) is truthy, as in the spec's
 * reference implementation, so a view model says "absent" with null or false.
 * Numbers print in the shortest form that reads back to the same double
 * (85, 1.5, 0.1, 1e+21); true/false print as words; objects and arrays
 * interpolate as the empty string.
 *
 * Compile once, render many times; a compiled template is immutable, so one
 * may be rendered from several threads with separate outputs.
 */
#ifndef JG_MUSTACHE_H
#define JG_MUSTACHE_H

#include <stddef.h>

struct cJSON;
struct strbuf;
struct mustache;

/*
 * Nesting limit for sections and partials together, checked at compile time
 * for sections and at render time across partials, so that a partial that
 * includes itself fails with an error instead of overflowing the stack.
 */
#define MUSTACHE_MAX_DEPTH 200

struct mustache_opts {
	/*
	 * Appends `len` bytes of `s` to `out`, escaped, for {{var}} tags;
	 * NULL means mustache_escape_html.  Raw tags bypass it.
	 */
	void (*escape)(struct strbuf *out, const char *s, size_t len);
	/*
	 * Appends the source of partial `name` to `out` and returns 0, or
	 * returns JG_ENOTFOUND (the partial renders as empty, per the spec),
	 * or another JG_E* code with a message, which fails the render.
	 * NULL means no partial exists.  Called at most once per name and
	 * indentation during one render.
	 */
	int (*load_partial)(void *ctx, const char *name, struct strbuf *out);
	void *partial_ctx;
};

/*
 * Compile `len` bytes of `src` into *out (the caller frees it with
 * mustache_free).  `name` (NULL: "template") prefixes error messages, which
 * look like "report.html:12:5: unclosed section 'scenes'".  Returns 0 or
 * JG_EINVAL; *out is NULL on error.
 */
int mustache_compile(struct mustache **out, const char *src, size_t len,
    const char *name);

/*
 * Render `t` over `data` (NULL renders as an empty context) and append the
 * result to `out`.  `opts` may be NULL for the defaults.  Partials are loaded
 * and compiled once per render.  Returns 0, JG_EINVAL for a bad partial or
 * nesting too deep, or the loader's error; on error `out` is as it was.
 */
int mustache_render(const struct mustache *t, const struct cJSON *data,
    const struct mustache_opts *opts, struct strbuf *out);

/* Free a compiled template; NULL is a no-op. */
void mustache_free(struct mustache *t);

/* HTML escaping: & < > " ' become &amp; &lt; &gt; &quot; &#39;. */
void mustache_escape_html(struct strbuf *out, const char *s, size_t len);

/* No escaping, for plain-text and Markdown outputs. */
void mustache_escape_none(struct strbuf *out, const char *s, size_t len);

#endif
