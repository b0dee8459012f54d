/*
 * fuzz_logcat.c: libFuzzer target for the logcat line reader (logcat.h):
 * the bytes as one line in any layout, then as a whole capture of mixed
 * layouts and cut lines, as given and widened to UTF-16LE with and
 * without a BOM (a PowerShell redirect), so the decoder and the reader
 * see the same text; then the choreographer and startup sources over the
 * capture's lines.  A line parsed alone points inside its bytes; every
 * line has its message, a time that is NAN or finite, and a monotonic
 * time only where its printed time is one.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "logcat.h"
#include "results.h"
#include "source.h"
#include "strlist.h"

static const int app_pids[] = { 3920 };

static void
check_inside(const struct logcat_line *l, const char *s, size_t n)
{
	if (l->msg < s || l->msg + l->msg_len > s + n)
		abort();
	if (l->tag && (l->tag < s || l->tag + l->tag_len > s + n))
		abort();
	if (l->pkg && (l->pkg < s || l->pkg + l->pkg_len > s + n))
		abort();
}

static void
check_line(const struct logcat_line *l, size_t max)
{
	if (!l->msg || l->msg_len > max || (l->tag && l->tag_len > max) ||
	    (l->pkg && l->pkg_len > max) || l->layout >= LOGCAT_NR_LAYOUTS)
		abort();
	/* A line of the capture is one of its lines. */
	if (l->lineno < 1 || l->lineno > max + 1)
		abort();
	if (isinf(l->time_ms) || isinf(l->mono_ms) ||
	    (!isnan(l->mono_ms) && l->mono_ms != l->time_ms))
		abort();
	/* Touch every byte, so ASan sees a dangling pointer. */
	for (size_t i = 0; i < l->msg_len; i++)
		if (l->msg[i] == '\1' && l->msg_len > max)
			abort();
}

static void
capture(const char *text, size_t size, size_t max, const char *package)
{
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	struct results *r = results_new();
	struct source_launches launches = { NULL, 0, 0 };
	struct strlist notes = STRLIST_INIT;
	struct source_ctx ctx = { 0 };
	size_t nr, lineno;

	logcat_buf_parse_text(b, text, size);
	lines = logcat_buf_lines(b, &nr);
	for (size_t i = 0; i < nr; i++)
		check_line(&lines[i], max);
	logcat_buf_first_unread(b, &lineno);
	ctx.results = r;
	ctx.it = rs_scenario_add_iteration(results_add_scenario(r, "f"),
	    false);
	ctx.refresh_hz = 60;
	ctx.package = package;
	ctx.app_pids = package ? app_pids : NULL;
	ctx.nr_app_pids = package ? 1 : 0;
	source_find("choreographer")->logcat(&ctx, lines, nr);
	ctx.it = rs_scenario_add_iteration(&r->scenarios[0], false);
	ctx.launches = &launches;
	ctx.notes = &notes;
	source_find("startup")->parse(&ctx, text, size, "fuzz");
	ctx.it = rs_scenario_add_iteration(&r->scenarios[0], false);
	source_find("choreographer")->parse(&ctx, text, size, "fuzz");
	strlist_release(&notes);
	free(results_iteration_to_json(ctx.it));
	source_launches_release(&launches);
	logcat_buf_free(b);
	results_free(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *package = size && data[0] & 1 ? "com.example.shop" : NULL;
	struct logcat_line one;
	char *wide;

	if (!logcat_parse_line(&one, text, size))
		check_inside(&one, text, size);
	/* UTF-16 text grows by half at most as UTF-8 (3 bytes a unit). */
	capture(text, size, 2 * size, package);
	/* The same text in UTF-16LE, with a BOM when the first byte says. */
	wide = malloc(2 * size + 2);
	if (!wide)
		return 0;
	wide[0] = (char)0xff;
	wide[1] = (char)0xfe;
	for (size_t i = 0; i < size; i++) {
		wide[2 + 2 * i] = text[i];
		wide[3 + 2 * i] = 0;
	}
	if (package)
		capture(wide, 2 * size + 2, 4 * size + 4, package);
	else
		capture(wide + 2, 2 * size, 4 * size, package);
	free(wide);
	return 0;
}
