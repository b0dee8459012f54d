/*
 * capture.h: a scene for `jankgate parse` of a logcat capture.
 *
 * FPS slices live in scenes, and a saved capture has none: the device
 * never ran a scenario.  The FPS sources (perf, fpsanalyzer) parse a
 * capture into one scene named after the file that spans everything up
 * to its last line, so what they read has a place in the output.
 */
#ifndef JG_CAPTURE_H
#define JG_CAPTURE_H

#include <stddef.h>

struct logcat_line;
struct rs_scene;
struct source_ctx;

/*
 * When ctx->it has no scene and `nr` > 0: add one named `name` whose
 * window runs from 0 (boot) to the latest line's time, and return it.
 * Otherwise NULL, and ctx->it is unchanged.
 */
struct rs_scene *capture_scene(struct source_ctx *ctx,
    const struct logcat_line *lines, size_t nr, const char *name);

/*
 * The run state of a source that reads only logcat lines: how many lines
 * of its library it saw, so finish can say when there were none.  A
 * source using these keeps a `struct capture_count` as its ctx->state.
 */
struct capture_count {
	size_t lines;
};

/* prepare hook: a zeroed struct capture_count in ctx->state. */
int capture_count_prepare(struct source_ctx *ctx);

/*
 * finish hook body: when the run saw no line of the source, add the
 * run-wide warning "no WHAT in the whole run: HINT"; then free the state.
 */
void capture_count_finish(struct source_ctx *ctx, const char *src,
    const char *what, const char *hint);

/*
 * parse hook body: read `len` bytes of a `logcat -v monotonic` capture
 * named `name`, give it one scene (capture_scene()), run the source's
 * `logcat` hook over it with a fresh count, and warn when the file holds
 * no logcat line or no line of WHAT (naming ctx->package when set).
 */
int capture_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name, const char *src, const char *what,
    int (*logcat)(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr));

#endif
