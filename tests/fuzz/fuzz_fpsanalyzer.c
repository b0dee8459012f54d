/*
 * fuzz_fpsanalyzer.c: libFuzzer target for the fpsanalyzer source: the
 * bytes as a logcat capture through the logcat hook (two scene windows,
 * a known or unknown refresh rate, with or without a package filter) and
 * through the parse hook.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "logcat.h"
#include "results.h"
#include "sources/source.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct source *src = source_find("fpsanalyzer");
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
	ctx.refresh_hz = size % 2 ? 90 : 0;
	ctx.package = size % 3 ? "com.example.shop" : NULL;
	logcat_buf_parse_text(log, text, size);
	lines = logcat_buf_lines(log, &nr);
	src->prepare(&ctx);
	src->logcat(&ctx, lines, nr);
	src->finish(&ctx);
	ctx.it = rs_scenario_add_iteration(s, false);
	src->parse(&ctx, text, size, "fuzz");
	free(results_iteration_to_json(ctx.it));
	logcat_buf_free(log);
	results_free(r);
	return 0;
}
