/*
 * source_warn.c: how a source says "I could not read all of this"
 * (source_warn.h): a warning in the results, scoped to its scenario and
 * scene, each once.
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
#include "banned.h"

/* How much of an unreadable line a warning quotes. */
#define QUOTE_MAX 80

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

static bool
same_source(const char *a, const char *src)
{
	return a && !strcmp(a, src);
}

static bool
in_events(const struct rs_block *b, size_t nr_b, const struct rs_method *m,
    size_t nr_m, const char *src)
{
	for (size_t i = 0; i < nr_b; i++)
		if (same_source(b[i].source, src))
			return true;
	for (size_t i = 0; i < nr_m; i++)
		if (same_source(m[i].source, src))
			return true;
	return false;
}

static bool
in_scene(const struct rs_scene *sc, const char *src)
{
	if (sc->frames.present && same_source(sc->frames.source, src))
		return true;
	for (size_t i = 0; i < sc->fps.nr_slices; i++)
		if (same_source(sc->fps.slices[i].source, src))
			return true;
	return in_events(sc->blocks, sc->nr_blocks, sc->methods,
	    sc->nr_methods, src);
}

bool
source_in_results(const struct results *r, const char *src)
{
	for (size_t i = 0; r && i < r->nr_scenarios; i++)
		for (size_t j = 0; j < r->scenarios[i].nr_iterations; j++) {
			const struct rs_iteration *it =
			    &r->scenarios[i].iterations[j];

			if (in_events(it->blocks, it->nr_blocks, it->methods,
			    it->nr_methods, src))
				return true;
			for (size_t s = 0; s < it->nr_scenes; s++)
				if (in_scene(&it->scenes[s], src))
					return true;
		}
	return false;
}
