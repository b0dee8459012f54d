/*
 * fuzz_gfxinfo.c: libFuzzer target for the gfxinfo source (a framestats
 * dump into a scene, or a scene per process of a dump of several, at the
 * refresh rate the dump names in a `dumpsys display` or FrameTimeline
 * part or its PROFILEDATA), gfxinfo_uptime() and gfxinfo_app_pids().
 *
 * Whatever the dump, the scene must hold a consistent record: a
 * histogram kept holds exactly the frame count (a cut or elided one is
 * not kept), no count is negative, skipped rows never reach the model,
 * and the iteration still writes as JSON.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "gfxinfo_dump.h"
#include "source.h"

static void
check_frames(const struct rs_frames *f)
{
	if (f->nr_histogram &&
	    f->count != (double)rs_frames_histogram_total(f))
		abort();	/* the histogram is authoritative */
	for (size_t i = 0; i < f->nr_rows; i++)
		if (!(f->rows[i].duration_ms > 0) ||
		    f->rows[i].duration_ms >= 10000)
			abort();	/* a row that should be skipped */
	if (f->slow > f->count || f->frozen > f->slow)
		abort();
	if (f->count < 0 || f->slow < 0 || f->frozen < 0 || f->dropped < 0 ||
	    f->janky < 0 || f->p50_ms < 0 || f->p99_ms < 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct source *src = source_find("gfxinfo");
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "fuzz"), false);
	struct source_ctx ctx = { 0 };
	const char *text = (const char *)data;
	double ms;
	char *json;

	ctx.results = r;
	ctx.it = it;
	ctx.package = "com.example.shop";
	ctx.refresh_hz = size % 2 ? 90 : NAN;
	/* `jankgate parse` without --refresh-hz: the dump's own rate. */
	ctx.refresh_assumed = size % 3 == 0;
	src->parse(&ctx, text, size, "fuzz");
	ctx.package = NULL;
	src->scene_end(&ctx, rs_iteration_add_scene(it, "b"), text, size);
	/* Without an app: a scene per process of a dump of several. */
	src->parse(&ctx, text, size, "fuzz");
	{
		int pids[4];
		size_t nr = 0;

		gfxinfo_app_pids(text, size, "com.example.shop", pids, &nr, 4);
		if (nr > 4)
			abort();
	}
	for (size_t i = 0; i < it->nr_scenes; i++)
		check_frames(&it->scenes[i].frames);
	gfxinfo_uptime(text, size, &ms);
	json = results_iteration_to_json(it);
	free(json);
	results_free(r);
	return 0;
}
