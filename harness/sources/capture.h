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

#endif
