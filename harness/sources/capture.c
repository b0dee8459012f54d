/*
 * capture.c: the scene of a parsed logcat capture (capture.h).
 *
 * The window starts at boot rather than at the first line because the
 * sources date events before the line that reports them (a UI BLOCK
 * began 100 ms before its report, a frame before its dispatch line).
 *
 * It also holds the hooks that the logcat-only sources (perf,
 * fpsanalyzer) share: a line count per run, the warning when it stays at
 * zero, and `jankgate parse` over a saved capture.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "error.h"
#include "source_warn.h"
#include "strbuf.h"
#include "strlist.h"
#include "utf8.h"
#include "xalloc.h"
#include "logcat.h"
#include "logpid.h"
#include "results.h"
#include "source.h"
#include "banned.h"

struct rs_scene *
capture_scene(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr, const char *name)
{
	struct rs_scene *sc;
	double last = NAN;

	if (!nr || ctx->it->nr_scenes)
		return NULL;
	for (size_t i = 0; i < nr; i++)
		if (isnan(last) || lines[i].mono_ms > last)
			last = lines[i].mono_ms;
	sc = rs_iteration_add_scene(ctx->it, name);
	sc->start_mono_ms = isnan(last) ? NAN : 0;
	sc->end_mono_ms = last;
	return sc;
}

struct rs_scene *
capture_scene_at(const struct source_ctx *ctx, double mono_ms,
    double grace_ms)
{
	if (isnan(mono_ms))
		return ctx->it->nr_scenes == 1 ? &ctx->it->scenes[0] : NULL;
	return rs_iteration_scene_at(ctx->it, mono_ms, grace_ms);
}

struct logpid *
capture_app_pids(const struct source_ctx *ctx,
    const struct logcat_line *lines, size_t nr)
{
	struct logpid *p = logpid_new(ctx->package, ctx->app_pids,
	    ctx->nr_app_pids);

	logpid_scan(p, lines, nr);
	return p;
}

struct logcat_buf *
capture_read(const char *buf, size_t len, char **unread)
{
	struct logcat_buf *log = logcat_buf_new();

	*unread = logcat_buf_parse_text(log, buf, len) ?
	    xstrdup(jg_error_msg()) : NULL;
	jg_error_clear();
	return log;
}

void
capture_warn_nothing(const struct source_ctx *ctx, const char *src,
    const char *name, size_t len, const char *unread, const char *what)
{
	if (!len)
		source_warn(ctx, NULL, src, "'%s' is empty", name);
	else if (unread)
		source_warn(ctx, NULL, src, "'%s': %s", name, unread);
	else
		source_warn(ctx, NULL, src, "'%s' holds no %s%s%s", name, what,
		    ctx->package ? " of " : "", ctx->package ? ctx->package :
		    "");
}

/* How much of an unplaced line a warning quotes. */
#define QUOTE_MAX 80

/*
 * A line of `am start -W` output (startup.c reads it from the text),
 * often saved with a log: not a log line, neither a layout nor unplaced.
 * "Status: ok" reads as a tag-only line of tag "Status".
 */
static bool
am_output(const struct logcat_line *l)
{
	static const char *const heads[] = { "Starting: ", "Status: ",
	    "LaunchState: ", "Activity: ", "ThisTime: ", "TotalTime: ",
	    "WaitTime: ", "Warning: Activity not started", "Error: " };
	const char *s = l->layout == LOGCAT_TAG_ONLY ? l->tag : l->msg;
	size_t n = (size_t)(l->msg + l->msg_len - s);

	if (l->layout != LOGCAT_BARE && l->layout != LOGCAT_TAG_ONLY)
		return false;
	if (n == 8 && !memcmp(s, "Complete", 8))
		return true;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (n >= strlen(heads[i]) && !memcmp(s, heads[i],
		    strlen(heads[i])))
			return true;
	return false;
}

void
capture_report(const struct source_ctx *ctx, const char *src,
    const char *name, const struct logcat_buf *log,
    bool (*placed)(void *arg, const struct logcat_line *l), void *arg)
{
	struct strbuf sb = STRBUF_INIT;
	const struct logcat_line *lines, *first = NULL;
	size_t nr, count[LOGCAT_NR_LAYOUTS] = { 0 }, entries = 0;
	size_t unplaced = 0;
	const char *sep = "";

	/* Entries, not lines: a continuation is its entry's. */
	lines = logcat_buf_lines(log, &nr);
	for (size_t i = 0; i < nr; i++) {
		if (lines[i].cont || am_output(&lines[i]))
			continue;
		count[lines[i].layout]++;
		entries++;
		if (lines[i].layout != LOGCAT_BARE ||
		    (placed && placed(arg, &lines[i])))
			continue;
		if (!unplaced++)
			first = &lines[i];
	}
	for (int k = 0; k < LOGCAT_NR_LAYOUTS; k++) {
		if (!count[k])
			continue;
		strbuf_addf(&sb, "%s%s (%zu line%s)", sep,
		    logcat_layout_name(k), count[k], count[k] == 1 ? "" : "s");
		sep = ", ";
	}
	if (ctx->notes && entries)
		strlist_addf(ctx->notes, "'%s': logcat layouts: %s", name,
		    sb.buf);
	strbuf_reset(&sb);
	/* Without a line in a layout, every line is a message: no news. */
	if (unplaced && count[LOGCAT_BARE] < entries) {
		utf8_add_printable(&sb, first->msg, first->msg_len > QUOTE_MAX ?
		    QUOTE_MAX : first->msg_len, 0);
		source_warn(ctx, NULL, src, "'%s': %zu line%s in no logcat "
		    "layout jankgate knows, read as bare messages (no time, "
		    "process or tag); the first is line %zu: '%s%s'", name,
		    unplaced, unplaced == 1 ? "" : "s", first->lineno, sb.buf,
		    first->msg_len > QUOTE_MAX ? "..." : "");
	}
	strbuf_release(&sb);
}

int
capture_count_prepare(struct source_ctx *ctx)
{
	ctx->state = xcalloc(1, sizeof(struct capture_count));
	return 0;
}

void
capture_count_finish(struct source_ctx *ctx, const char *src,
    const char *what, const char *hint)
{
	struct capture_count *st = ctx->state;
	char *prefix = xasprintf("no %s in the whole run", what);

	/* An earlier batch's "none" is wrong now, or this one's would be. */
	if (st && st->lines && ctx->results)
		results_remove_warnings(ctx->results, src, prefix);
	if (st && !st->lines && ctx->results &&
	    !source_in_results(ctx->results, src)) {
		char *msg = xasprintf("%s: %s", prefix, hint);

		results_add_warning(ctx->results, src, NULL, msg);
		free(msg);
	}
	free(prefix);
	free(st);
	ctx->state = NULL;
}

int
capture_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name, const char *src, const char *what,
    int (*logcat)(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr))
{
	struct capture_count st = { 0 };
	const struct logcat_line *lines;
	void *saved = ctx->state;
	struct logcat_buf *log;
	char *unread;
	size_t nr;
	int rc;

	log = capture_read(buf, len, &unread);
	lines = logcat_buf_lines(log, &nr);
	capture_scene(ctx, lines, nr, name);
	ctx->state = &st;
	rc = logcat(ctx, lines, nr);
	ctx->state = saved;
	capture_report(ctx, src, name, log, NULL, NULL);
	if (!rc && !st.lines)
		capture_warn_nothing(ctx, src, name, len, unread, what);
	free(unread);
	logcat_buf_free(log);
	return rc;
}
