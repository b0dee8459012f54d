/*
 * source_warn.h: how a source says "I could not read all of this".
 *
 * A parse problem in device output is not an error (source.h): the source
 * keeps what it read and leaves a warning in the results, scoped to the
 * scene or scenario it concerns, so the report can say which data is
 * partial; and whether a warning about a whole run would be false.
 * Implemented in source_warn.c.
 */
#ifndef JG_SOURCE_WARN_H
#define JG_SOURCE_WARN_H

#include <stdbool.h>
#include <stddef.h>

struct results;
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

/*
 * Whether `r` already holds something source `src` gave: a block, a
 * method cost, an FPS slice or a scene's frames.  A source that heard
 * nothing in this batch asks it before it warns "none in the whole run":
 * gate's extra batches append to the results of the first, and what an
 * earlier batch read makes the warning false.
 */
bool source_in_results(const struct results *r, const char *src);

#endif
