/*
 * sources.c: the table of data sources (source.h).
 *
 * Adding a source is one `extern` line and one table line here, in the
 * order `jankgate parse --list` should show it: framework sources first,
 * then the in-app libraries.  Everything else about a source, its
 * options and the parts of the results it fills included, is in its own
 * file.
 */
#include <string.h>

#include "config.h"
#include "results.h"
#include "source.h"
#include "banned.h"

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

static int
plugin_at(size_t n, struct config_plugin *out)
{
	for (size_t i = 0; sources[i]; i++) {
		if (sources[i]->parse_only)
			continue;
		if (!n--) {
			*out = (struct config_plugin){ sources[i]->name,
			    sources[i]->options, sources[i]->by_default };
			return 1;
		}
	}
	return 0;
}

const struct config_plugins source_plugins = { plugin_at };

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
