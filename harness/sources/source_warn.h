/*
 * source_warn.h: how a source says "I could not read all of this".
 *
 * A parse problem in device output is not an error (source.h): the source
 * keeps what it read and leaves a warning in the results, scoped to the
 * scene or scenario it concerns, so the report can say which data is
 * partial.  Implemented in source_warn.c.
 */
#ifndef JG_SOURCE_WARN_H
#define JG_SOURCE_WARN_H

#include <stddef.h>

struct rs_scene;
struct source_ctx;

/*
 * Add a warning from source `src` to ctx->results, scoped
 * "scenario/scene" for `scene` of ctx->it, or "scenario" for a NULL
 * `scene`.  A warning equal to one already there (every iteration finding
 * the same fault) is not added twice.  No-op when ctx->results is NULL.
 */
void source_warn(const struct source_ctx *ctx, const struct rs_scene *scene,
    const char *src, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The warning for input in no layout source `src` knows, `len` bytes of
 * `buf` named `name`: "'NAME' is not WHAT: the first line it could not
 * read is line N: '...'" (quoted in part, made printable), or "'NAME' is
 * empty" when it has no line but blank ones.
 */
void source_warn_unread(const struct source_ctx *ctx, const char *src,
    const char *name, const char *buf, size_t len, const char *what);

#endif
