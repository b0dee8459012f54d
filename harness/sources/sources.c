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
