/*
 * capture.c: the scene of a parsed logcat capture (capture.h).
 *
 * The window starts at boot rather than at the first line because the
 * sources date events before the line that reports them (a UI BLOCK
 * began 100 ms before its report, a frame before its dispatch line).
 */
#include "capture.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "banned.h"

struct rs_scene *
capture_scene(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr, const char *name)
{
	struct rs_scene *sc;
	double last = 0;

	if (!nr || ctx->it->nr_scenes)
		return NULL;
	for (size_t i = 0; i < nr; i++)
		if (lines[i].mono_ms > last)
			last = lines[i].mono_ms;
	sc = rs_iteration_add_scene(ctx->it, name);
	sc->start_mono_ms = 0;
	sc->end_mono_ms = last;
	return sc;
}
