/*
 * fuzz_startup.c: libFuzzer target for the startup source: `am start -W`
 * output through the launch hook, the same bytes as a logcat capture
 * through the logcat hook, and the parse hook's detection of both.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "logcat.h"
#include "results.h"
#include "source.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct source *src = source_find("startup");
	struct results *r = results_new();
	struct rs_scenario *s = results_add_scenario(r, "fuzz");
	struct rs_iteration *it = rs_scenario_add_iteration(s, false);
	struct logcat_buf *log = logcat_buf_new();
	const struct logcat_line *lines;
	struct source_ctx ctx = { 0 };
	const char *text = (const char *)data;
	size_t nr;

	ctx.results = r;
	ctx.it = it;
	ctx.package = size % 2 ? "com.example.shop" : NULL;
	it->startup.kind = RS_LAUNCH_COLD;
	src->launch(&ctx, text, size);
	logcat_buf_parse_text(log, text, size);
	lines = logcat_buf_lines(log, &nr);
	it->startup.present = true;
	src->logcat(&ctx, lines, nr);
	ctx.it = rs_scenario_add_iteration(s, false);
	src->parse(&ctx, text, size, "fuzz");
	logcat_buf_free(log);
	free(results_iteration_to_json(ctx.it));
	results_free(r);
	return 0;
}
