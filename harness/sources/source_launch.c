/*
 * source_launch.c: the launches `jankgate parse` shows (source.h): every
 * launch a source found in its input, where a run keeps only the last.
 */
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "source.h"
#include "xalloc.h"
#include "banned.h"

void
source_launch_add(const struct source_ctx *ctx, const char *activity,
    size_t n, const struct rs_startup *st)
{
	struct source_launches *l = ctx->launches;
	struct source_launch *e;

	if (!l)
		return;
	XALLOC_GROW(l->v, l->nr + 1, l->alloc);
	e = &l->v[l->nr++];
	e->activity = activity ? xstrndup(activity, n) : NULL;
	e->startup = xmalloc(sizeof(*e->startup));
	*e->startup = *st;
	e->startup->launch_state = st->launch_state ?
	    xstrdup(st->launch_state) : NULL;
}

void
source_launches_release(struct source_launches *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].activity);
		free(l->v[i].startup->launch_state);
		free(l->v[i].startup);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
