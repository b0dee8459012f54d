/*
 * fuzz_matrix.c: libFuzzer target for the matrix source: the bytes as a
 * logcat capture through the logcat hook (with scene windows, so events
 * are placed by time), as saved output through the parse hook (scenes by
 * app scene; pretty-printed, annotated and ParseIssueUtil issues joined
 * over their lines: seeds in tests/fuzz/seeds/matrix), and as a
 * method-trace stack, a threadStack and a
 * methodMapping.txt on their own.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "logcat.h"
#include "methodmap.h"
#include "results.h"
#include "matrix_int.h"
#include "source.h"
#include "strlist.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct source *src = source_find("matrix");
	struct results *r = results_new();
	struct rs_scenario *s = results_add_scenario(r, "fuzz");
	struct rs_iteration *it = rs_scenario_add_iteration(s, false);
	struct rs_scene *sc = rs_iteration_add_scene(it, "all");
	struct logcat_buf *log = logcat_buf_new();
	const struct logcat_line *lines;
	struct source_ctx ctx = { 0 };
	struct strlist frames = STRLIST_INIT;
	struct methodmap *map = NULL;
	struct strlist notes = STRLIST_INIT;
	char *text = malloc(size + 1);
	size_t nr;

	memcpy(text, data, size);
	text[size] = '\0';
	sc->start_mono_ms = 0;
	sc->end_mono_ms = 1e9;
	ctx.results = r;
	ctx.it = it;
	logcat_buf_parse_text(log, text, size);
	lines = logcat_buf_lines(log, &nr);
	src->prepare(&ctx);
	src->logcat(&ctx, lines, nr);
	src->finish(&ctx);
	ctx.it = rs_scenario_add_iteration(s, false);
	ctx.notes = &notes;
	src->parse(&ctx, text, size, "fuzz");
	free(results_iteration_to_json(ctx.it));
	strlist_release(&notes);

	/* The stack decoders see text up to the first NUL, as from JSON. */
	if (!methodmap_parse(&map, text, size, "fuzz"))
		methodmap_decode(map, text, strlen(text), size % 2, &frames);
	methodmap_decode(NULL, text, strlen(text), size % 2, &frames);
	mx_thread_stack(&frames, text, size % 2);
	methodmap_free(map);
	strlist_release(&frames);
	logcat_buf_free(log);
	results_free(r);
	free(text);
	return 0;
}
