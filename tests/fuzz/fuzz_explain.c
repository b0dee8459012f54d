/*
 * fuzz_explain.c: libFuzzer target for the parsers issue 20 added:
 * every PROFILEDATA column (framestats.c), a frame's phases and jank
 * (phases.c) and SurfaceFlinger's FrameTimeline jank dump
 * (frametimeline.c, through its `jankgate parse` entry).
 *
 * Whatever the input: phases are never negative and the p90 of a phase
 * never below its p50; a scene's used and skipped rows are what the
 * dump held; jank type counts never exceed the frames counted, nor the
 * janky ones the frames; the iteration still writes as JSON.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "framestats.h"
#include "frametimeline.h"
#include "phases.h"
#include "source.h"

static void
check_phases(const struct rs_phases *p)
{
	if (!p->present)
		return;
	if (p->frames < 0 || p->skipped < 0)
		abort();
	for (int i = 0; i < RS_NR_PHASES; i++) {
		if (isnan(p->p50_ms[i]) != isnan(p->p90_ms[i]))
			abort();
		if (p->p50_ms[i] < 0 || p->p90_ms[i] < p->p50_ms[i])
			abort();
	}
}

static void
check_jank(const struct rs_jank_types *j)
{
	if (!j->present)
		return;
	if (j->janky > j->frames)
		abort();
	for (int t = 0; t < RS_NR_JANK_TYPES; t++)
		if (j->count[t] < 0 || j->count[t] > j->janky)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "fuzz"), false);
	struct source_ctx ctx = { 0 };
	struct fst_dump d;
	char *json;

	fst_dump_init(&d);
	fst_parse(&d, text, size);
	for (size_t i = 0; i < d.nr; i++) {
		double ms[RS_NR_PHASES];

		if (!phases_of_frame(&d.frames[i], ms))
			for (int p = 0; p < RS_NR_PHASES; p++)
				if (!(ms[p] >= 0))
					abort();
		phases_frame_janky(&d.frames[i], size % 3 ? 16666666 : 0);
	}
	fst_dump_release(&d);

	ctx.results = r;
	ctx.it = it;
	ctx.refresh_hz = size % 2 ? 60 : NAN;
	ctx.package = size % 5 ? "com.example.shop" : NULL;
	source_find("gfxinfo")->parse(&ctx, text, size, "fuzz");
	source_find("frametimeline")->parse(&ctx, text, size, "fuzz");
	for (size_t i = 0; i < it->nr_scenes; i++) {
		check_phases(&it->scenes[i].phases);
		check_jank(&it->scenes[i].jank_types);
	}
	json = results_iteration_to_json(it);
	free(json);
	results_free(r);
	return 0;
}
