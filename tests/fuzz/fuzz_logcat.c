/*
 * fuzz_logcat.c: libFuzzer target for the `logcat -v monotonic` parser,
 * one line and a whole capture, and for the choreographer source that
 * reads its lines.  A parsed line must point inside the bytes it came
 * from.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "logcat.h"
#include "results.h"
#include "sources/source.h"

static void
check_inside(const struct logcat_line *l, const char *s, size_t n)
{
	if (l->tag < s || l->tag + l->tag_len > s + n ||
	    l->msg < s || l->msg + l->msg_len > s + n || isnan(l->mono_ms))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct source *src = source_find("choreographer");
	const char *text = (const char *)data;
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	struct logcat_line one;
	struct results *r = results_new();
	struct source_ctx ctx = { 0 };
	size_t nr;

	if (!logcat_parse_line(&one, text, size))
		check_inside(&one, text, size);
	logcat_buf_parse_text(b, text, size);
	lines = logcat_buf_lines(b, &nr);
	ctx.results = r;
	ctx.it = rs_scenario_add_iteration(results_add_scenario(r, "f"),
	    false);
	ctx.refresh_hz = 60;
	src->logcat(&ctx, lines, nr);
	logcat_buf_free(b);
	results_free(r);
	return 0;
}
