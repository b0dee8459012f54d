/*
 * logsource.h: the body of the fuzz targets for sources that read logcat
 * lines (perf, fpsanalyzer, traceman): the bytes as a logcat capture
 * through the logcat hook, with two scene windows so events are placed by
 * time, then as saved output through the parse hook.  Included by one
 * target each; static so every target links its own copy.
 */
#ifndef JG_FUZZ_LOGSOURCE_H
#define JG_FUZZ_LOGSOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "logcat.h"
#include "results.h"
#include "source.h"

/*
 * Run source `name` over data[0..size-1] for `package` (NULL: any) at
 * `refresh_hz` (0: unknown); its prepare and finish hooks too when
 * `run_prepare` (false for a source whose prepare needs a device).
 */
static int
fuzz_log_source(const char *name, const uint8_t *data, size_t size,
    const char *package, double refresh_hz, bool run_prepare)
{
	const struct source *src = source_find(name);
	struct results *r = results_new();
	struct rs_scenario *s = results_add_scenario(r, "fuzz");
	struct rs_iteration *it = rs_scenario_add_iteration(s, false);
	struct rs_scene *a = rs_iteration_add_scene(it, "a");
	struct rs_scene *b = rs_iteration_add_scene(it, "b");
	struct logcat_buf *log = logcat_buf_new();
	const struct logcat_line *lines;
	struct source_ctx ctx = { 0 };
	const char *text = (const char *)data;
	size_t nr;

	a->start_mono_ms = 0;
	a->end_mono_ms = 5e6;
	b->start_mono_ms = 5e6;
	b->end_mono_ms = 1e9;
	ctx.results = r;
	ctx.it = it;
	ctx.refresh_hz = refresh_hz;
	ctx.package = package;
	logcat_buf_parse_text(log, text, size);
	lines = logcat_buf_lines(log, &nr);
	if (run_prepare)
		src->prepare(&ctx);
	src->logcat(&ctx, lines, nr);
	if (run_prepare)
		src->finish(&ctx);
	ctx.it = rs_scenario_add_iteration(s, false);
	src->parse(&ctx, text, size, "fuzz");
	free(results_iteration_to_json(ctx.it));
	logcat_buf_free(log);
	results_free(r);
	return 0;
}

#endif
