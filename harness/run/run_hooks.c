/*
 * run_hooks.c: the configured sources' hooks at one point of an
 * iteration (source.h), each source in config order.
 *
 * The runner knows no source: it calls run_hooks() with the point it has
 * reached, and every source that has a hook there gets it, with the
 * iteration being measured in its context.  A hook's error ends the round
 * and is returned with "source 'NAME': " in front of its message.
 */
#include <stddef.h>

#include "error.h"
#include "run_int.h"
#include "source.h"
#include "banned.h"

static int
call(const struct source *s, struct source_ctx *ctx, enum run_hook h,
    const struct run_hook_args *a)
{
	switch (h) {
	case RUN_HOOK_ITERATION_BEGIN:
		return s->iteration_begin ? s->iteration_begin(ctx) : 0;
	case RUN_HOOK_LAUNCH:
		return s->launch ? s->launch(ctx, a->text, a->len) : 0;
	case RUN_HOOK_SCENE_BEGIN:
		return s->scene_begin ? s->scene_begin(ctx, a->scene) : 0;
	case RUN_HOOK_SCENE_END:
		return s->scene_end ? s->scene_end(ctx, a->scene, a->text,
		    a->len) : 0;
	case RUN_HOOK_ITERATION_END:
		return s->iteration_end ? s->iteration_end(ctx) : 0;
	case RUN_HOOK_LOGCAT:
		return s->logcat ? s->logcat(ctx, a->lines, a->nr_lines) : 0;
	case RUN_HOOK_COLLECT:
		return s->collect ? s->collect(ctx) : 0;
	}
	return 0;
}

int
run_hooks(const struct source *const *srcs, struct source_ctx *ctx,
    size_t nr, struct rs_iteration *it, enum run_hook h,
    const struct run_hook_args *a)
{
	static const struct run_hook_args none;

	for (size_t i = 0; i < nr; i++) {
		int rc;

		ctx[i].it = it;
		/* The app's pids and the steps' spans: the logcat hook's. */
		if (h == RUN_HOOK_LOGCAT && a) {
			ctx[i].app_pids = a->pids;
			ctx[i].nr_app_pids = a->nr_pids;
			ctx[i].step_spans = a->spans;
			ctx[i].nr_step_spans = a->nr_spans;
		}
		rc = call(srcs[i], &ctx[i], h, a ? a : &none);
		ctx[i].app_pids = NULL;
		ctx[i].nr_app_pids = 0;
		ctx[i].step_spans = NULL;
		ctx[i].nr_step_spans = 0;
		if (rc)
			return jg_error_prefix("source '%s'", srcs[i]->name);
	}
	return 0;
}
