/*
 * sources.c: the table of data sources (source.h), and the warning helper
 * they share (source_warn.h).
 *
 * Adding a source is one `extern` line and one table line here, in the
 * order `jankgate parse --list` should show it: framework sources first,
 * then the in-app libraries.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "textline.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

/* How much of an unreadable line a warning quotes. */
#define QUOTE_MAX 80

extern const struct source source_gfxinfo;
extern const struct source source_frametimeline;
extern const struct source source_startup;
extern const struct source source_choreographer;
extern const struct source source_matrix;
extern const struct source source_blockcanary;
extern const struct source source_perf;
extern const struct source source_fpsanalyzer;
extern const struct source source_traceman;

const struct source *const sources[] = {
	/* the framework: no change to the app */
	&source_gfxinfo,
	&source_frametimeline,	/* parse only: gfxinfo reads it in a run */
	&source_startup,
	&source_choreographer,
	/* in-app libraries */
	&source_matrix,
	&source_blockcanary,
	&source_perf,
	&source_fpsanalyzer,
	&source_traceman,
	NULL
};

const struct source *
source_find(const char *name)
{
	for (const struct source *const *s = sources; *s; s++)
		if (!strcmp((*s)->name, name))
			return *s;
	return NULL;
}

void
source_warn_unread(const struct source_ctx *ctx, const char *src,
    const char *name, const char *buf, size_t len, const char *what)
{
	const char *pos = buf, *end = buf + len;
	struct strbuf quote = STRBUF_INIT;
	struct text_line l;
	size_t lineno = 0;

	while (text_next_line(&pos, end, &l)) {
		size_t i = 0;

		lineno++;
		while (i < l.n && (l.s[i] == ' ' || l.s[i] == '\t'))
			i++;
		if (i == l.n)
			continue;
		utf8_add_printable(&quote, l.s, l.n > QUOTE_MAX ? QUOTE_MAX :
		    l.n, 0);
		source_warn(ctx, NULL, src, "'%s' is not %s: the first line it "
		    "could not read is line %zu: '%s%s'", name, what, lineno,
		    quote.buf, l.n > QUOTE_MAX ? "..." : "");
		strbuf_release(&quote);
		return;
	}
	source_warn(ctx, NULL, src, "'%s' is empty", name);
}

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

/* The scenario holding ctx->it, or NULL. */
static const struct rs_scenario *
scenario_of(const struct source_ctx *ctx)
{
	for (size_t i = 0; i < ctx->results->nr_scenarios; i++) {
		const struct rs_scenario *s = &ctx->results->scenarios[i];

		for (size_t j = 0; j < s->nr_iterations; j++)
			if (&s->iterations[j] == ctx->it)
				return s;
	}
	return NULL;
}

static bool
same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

void
source_warn(const struct source_ctx *ctx, const struct rs_scene *scene,
    const char *src, const char *fmt, ...)
{
	const struct rs_scenario *s;
	struct strbuf scope = STRBUF_INIT, msg = STRBUF_INIT;
	va_list ap;

	if (!ctx->results)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	s = ctx->it ? scenario_of(ctx) : NULL;
	if (s && s->name)
		strbuf_addstr(&scope, s->name);
	if (scene && scene->name)
		strbuf_addf(&scope, "%s%s", scope.len ? "/" : "", scene->name);
	for (size_t i = 0; i < ctx->results->nr_warnings; i++) {
		const struct rs_warning *w = &ctx->results->warnings[i];

		if (same(w->source, src) && same(w->message, msg.buf) &&
		    same(w->scope, scope.len ? scope.buf : NULL))
			goto out;
	}
	results_add_warning(ctx->results, src, scope.len ? scope.buf : NULL,
	    msg.buf);
out:
	strbuf_release(&scope);
	strbuf_release(&msg);
}
