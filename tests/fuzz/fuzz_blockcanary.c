/*
 * fuzz_blockcanary.c: libFuzzer target for the blockcanary source: the
 * bytes as a looper log (parsed, turned into a block placed among scene
 * windows with a clock offset, and through the parse hook), as a clock
 * reading, and as a device file name.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "blockcanary.h"
#include "source.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct source *src = source_find("blockcanary");
	struct results *r = results_new();
	struct rs_scenario *s = results_add_scenario(r, "fuzz");
	struct rs_iteration *it = rs_scenario_add_iteration(s, false);
	struct rs_scene *sc = rs_iteration_add_scene(it, "all");
	struct source_ctx ctx = { 0 };
	char *text = malloc(size + 1);
	double off, prec, ref;

	memcpy(text, data, size);
	text[size] = '\0';
	sc->start_mono_ms = 0;
	sc->end_mono_ms = 1e9;
	it->started_mono_ms = size % 3 ? 1e6 : NAN;
	ctx.results = r;
	ctx.it = it;
	/* 2016-11-02 at monotonic 1e6 ms: the fixtures' era. */
	bc_add_file(&ctx, text, size, "fuzz", 1478095532011.0 - 1e6,
	    1478095532011.0, 5);
	src->parse(&ctx, text, size, "fuzz");
	bc_clock_parse(text, size, &off, &prec, &ref);
	bc_name_ok(text);
	free(results_iteration_to_json(it));
	results_free(r);
	free(text);
	return 0;
}
