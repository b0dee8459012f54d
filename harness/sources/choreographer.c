/*
 * choreographer.c: the `choreographer` source, the framework's own note
 * that the app's main thread stalled (docs/formats.md §3.4).
 *
 *	I Choreographer: Skipped 31 frames!  The application may be doing
 *	too much work on its main thread.
 *
 * Choreographer logs it (API 23..35, same text) from the thread that runs
 * the frame, when at least debug.choreographer.skipwarning (30) vsyncs
 * passed between a frame's vsync and its start.  Each line is one block
 * (plan.md): kind SKIPPED_FRAMES, wall_ms = N vsync periods of the
 * device's refresh rate (unknown without one), start_mono_ms that long
 * before the line, no stack and so no signature.  The line's own time,
 * when the late frame finally ran, decides its scene (with the configured
 * grace period); outside every scene the block belongs to the iteration.
 *
 * Every process logs these lines, so only the app's count: those of its
 * processes (logpid.h: pids from `pidof` and gfxinfo in a run, --pid in
 * `jankgate parse`, and what the log shows: "Start proc", Studio's
 * package column, ...).  Lines known to be another process's are
 * skipped.  A pid known only from weaker evidence (lines tagged with the
 * package, the ViewRootImpl lines of the activity a Displayed line
 * names) is taken, with a warning saying so.  When nothing tells the
 * app's processes apart, the lines of the one process that printed any
 * are taken as the app's, with a warning; lines of several such processes are all left out, with a
 * warning naming them, since another app's "Skipped 5874 frames!" must
 * never become the app's block.  Lines that show no process at all (a
 * bare paste, -v tag) are taken as the app's, with a warning.
 *
 * A line that lost its first characters to a cut paste
 * ("/Choreographer(1234): Skipped 4 frames!...", "horeographer: Skipped
 * 4 frames!...", "1-05 14:22:33.456 ... I Choreographer: Skipped...") is
 * in no layout; it still counts when what is left of
 * its tag is the end of "Choreographer" (at least DAMAGED_TAG_MIN of its
 * letters), read as a line without a process, with a warning.  Any other
 * line saying "Skipped N frames!" that is not Choreographer's is named in
 * a warning, never dropped silently.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "config.h"
#include "logcat.h"
#include "logpid.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "choreographer"
#define KIND "SKIPPED_FRAMES"
#define TAG "Choreographer"
/* The fewest letters of a cut tag that still tell it is Choreographer's. */
#define DAMAGED_TAG_MIN 5

/* A decimal of at most 9 digits at s[*i], advancing *i; -1 when none. */
static long
read_count(const char *s, size_t n, size_t *i)
{
	long v = 0;
	size_t start = *i;

	while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *i - start < 9)
		v = v * 10 + (s[(*i)++] - '0');
	return *i > start ? v : -1;
}

/* "Skipped 31 frames!" at s[0..n): the count, or -1. */
static long
skipped_text(const char *s, size_t n)
{
	size_t i = strlen("Skipped ");
	long v;

	if (n < i || memcmp(s, "Skipped ", i))
		return -1;
	v = read_count(s, n, &i);
	if (v < 0 || n - i < 8 || memcmp(s + i, " frames!", 8))
		return -1;
	return v;
}

/*
 * A bare line that lost its start: "...[/ ]TAG[(PID)]: Skipped N
 * frames!..." where TAG is the end of "Choreographer" (DAMAGED_TAG_MIN
 * letters at least), whatever is left of the prefix before it (a cut
 * date, half a level).  The count, or -1.
 */
static long
damaged_skipped(const struct logcat_line *l)
{
	const char *s = l->msg, *sep;
	static const char tag[] = TAG;
	size_t n = l->msg_len, end, start, tag_n = sizeof(tag) - 1;

	if (l->layout != LOGCAT_BARE || !(sep = memmem(s, n, ": Skipped ",
	    10)))
		return -1;
	end = (size_t)(sep - s);
	/* "(PID)" before the colon */
	if (end && s[end - 1] == ')') {
		size_t k = end - 1;

		while (k && s[k - 1] >= '0' && s[k - 1] <= '9')
			k--;
		while (k && s[k - 1] == ' ')
			k--;
		if (!k || s[k - 1] != '(')
			return -1;
		end = k - 1;
	}
	for (start = end; start && s[start - 1] != ' ' && s[start - 1] != '/';)
		start--;
	if (end < start + DAMAGED_TAG_MIN || end - start > tag_n ||
	    memcmp(s + start, &tag[tag_n - (end - start)], end - start))
		return -1;
	return skipped_text(sep + 2, n - (size_t)(sep - s) - 2);
}

/* "Skipped 31 frames!  ..." of Choreographer: the count, or -1. */
static long
skipped_frames(const struct logcat_line *l)
{
	if (!logcat_tag_fits(l, TAG))
		return -1;
	return skipped_text(l->msg, l->msg_len);
}

/* The Skipped lines of unknown process: their pids, each once. */
struct unknown {
	int *pids;
	size_t nr_pids, alloc_pids;
	size_t lines, no_pid;
};

static void
note_unknown(struct unknown *u, const struct logcat_line *l)
{
	u->lines++;
	if (l->pid < 0) {
		u->no_pid++;
		return;
	}
	for (size_t i = 0; i < u->nr_pids; i++)
		if (u->pids[i] == l->pid)
			return;
	XALLOC_GROW(u->pids, u->nr_pids + 1, u->alloc_pids);
	u->pids[u->nr_pids++] = l->pid;
}

/*
 * Whether to count the Skipped lines of unknown process, and the warning
 * that says what was done with them.
 */
static bool
judge_unknown(struct source_ctx *ctx, const struct logpid *p,
    const struct unknown *u)
{
	struct strbuf list = STRBUF_INIT;
	bool take;

	if (!u->lines)
		return false;
	for (size_t i = 0; i < u->nr_pids && i < 8; i++) {
		const char *name = logpid_name(p, u->pids[i]);

		strbuf_addf(&list, "%s%d%s%.60s%s", i ? ", " : "", u->pids[i],
		    name ? " (" : "", name ? name : "", name ? ")" : "");
	}
	if (u->nr_pids > 8)
		strbuf_addstr(&list, ", ...");
	take = u->nr_pids <= 1;
	if (!u->nr_pids)
		source_warn(ctx, NULL, SRC, "%zu 'Skipped N frames!' lines "
		    "show no process: counted as the app's", u->lines);
	else if (take)
		source_warn(ctx, NULL, SRC, "the app's process is not known "
		    "(give --app PKG or --pid N): the %zu 'Skipped N frames!' "
		    "lines of pid %s, the only process that printed any, are "
		    "counted as the app's", u->lines, list.buf);
	else
		source_warn(ctx, NULL, SRC, "the app's process is not known "
		    "(give --app PKG or --pid N): %zu 'Skipped N frames!' "
		    "lines of %zu processes (pids %s) are not counted",
		    u->lines, u->nr_pids, list.buf);
	strbuf_release(&list);
	return take;
}

static void
add_block(struct source_ctx *ctx, const struct logcat_line *l, long n,
    double hz, double grace)
{
	struct rs_scene *sc = capture_scene_at(ctx, l->mono_ms, grace);
	struct rs_block *b = sc ? rs_scene_add_block(sc, SRC) :
	    rs_iteration_add_block(ctx->it, SRC);

	rs_str_set(&b->kind, KIND);
	/* n * 1000 / hz rounds once: 30 frames at 60 Hz are 500. */
	b->wall_ms = (double)n * 1000 / hz;
	b->start_mono_ms = l->mono_ms - (isnan(hz) ? 0 : b->wall_ms);
}

/* The count of a Choreographer line, whole or damaged; -1 when neither. */
static long
skipped_any(const struct logcat_line *l, bool *damaged)
{
	long n = skipped_frames(l);

	*damaged = n < 0 && (n = damaged_skipped(l)) >= 0;
	return n;
}

/* Does the message say "Skipped N frames!" anywhere? */
static bool
says_skipped(const struct logcat_line *l)
{
	const char *s = l->msg, *end = l->msg + l->msg_len;

	while ((s = memmem(s, (size_t)(end - s), "Skipped ", 8))) {
		if (skipped_text(s, (size_t)(end - s)) >= 0)
			return true;
		s += 8;
	}
	return false;
}

/* A line's text for a warning: its first 60 bytes, made printable. */
static void
quote_line(struct strbuf *sb, const struct logcat_line *l)
{
	utf8_add_printable(sb, l->msg, l->msg_len > 60 ? 60 : l->msg_len, 0);
	if (l->msg_len > 60)
		strbuf_addstr(sb, "...");
}

/*
 * Say which lines were read from what was left of them, and which say
 * "Skipped N frames!" but could not be read as Choreographer's.
 */
static void
warn_damaged(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	const struct logcat_line *first_d = NULL, *first_u = NULL;
	size_t nr_d = 0, nr_u = 0;
	struct strbuf q = STRBUF_INIT;
	bool damaged;

	for (size_t i = 0; i < nr; i++) {
		if (skipped_any(&lines[i], &damaged) >= 0) {
			if (damaged && !nr_d++)
				first_d = &lines[i];
		} else if (says_skipped(&lines[i]) && !nr_u++) {
			first_u = &lines[i];
		}
	}
	if (nr_d) {
		quote_line(&q, first_d);
		source_warn(ctx, NULL, SRC, "%zu 'Skipped N frames!' line%s "
		    "lost %s start (the first is line %zu: '%s'): read as "
		    "Choreographer's by what is left of the tag", nr_d,
		    nr_d == 1 ? "" : "s", nr_d == 1 ? "its" : "their",
		    first_d->lineno, q.buf);
		strbuf_reset(&q);
	}
	if (nr_u) {
		quote_line(&q, first_u);
		source_warn(ctx, NULL, SRC, "%zu line%s say 'Skipped N "
		    "frames!' but not as Choreographer's (the first is line "
		    "%zu: '%s'): not counted", nr_u, nr_u == 1 ? "" : "s",
		    first_u->lineno, q.buf);
	}
	strbuf_release(&q);
}

static int
choreographer_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	double hz = ctx->refresh_hz > 0 && isfinite(ctx->refresh_hz) ?
	    ctx->refresh_hz : NAN;
	double grace = ctx->cfg ? ctx->cfg->source_opts.grace_ms : 0;
	struct logpid *p = logpid_new(ctx->package, ctx->app_pids,
	    ctx->nr_app_pids);
	struct unknown u = { NULL, 0, 0, 0, 0 };
	size_t counted = 0;
	bool take, damaged;

	logpid_scan(p, lines, nr);
	if (logpid_inferred(p)) {
		const int *pids;
		const char *how;

		logpid_app(p, &pids, &how);
		source_warn(ctx, NULL, SRC, "no line names the app's process "
		    "(no 'Start proc' line): pid %d, known from %s, is taken "
		    "as the app's", pids[0], how);
	}
	for (size_t i = 0; i < nr; i++)
		if (skipped_any(&lines[i], &damaged) >= 0 &&
		    logpid_owner(p, &lines[i]) == LOGPID_UNKNOWN)
			note_unknown(&u, &lines[i]);
	take = judge_unknown(ctx, p, &u);
	warn_damaged(ctx, lines, nr);
	for (size_t i = 0; i < nr; i++) {
		long n = skipped_any(&lines[i], &damaged);
		enum logpid_owner o;

		if (n < 0)
			continue;
		o = logpid_owner(p, &lines[i]);
		if (o == LOGPID_APP || (take && o == LOGPID_UNKNOWN)) {
			add_block(ctx, &lines[i], n, hz, grace);
			counted++;
		}
	}
	if (counted && isnan(hz))
		source_warn(ctx, NULL, SRC, "refresh rate unknown: skipped "
		    "frames have no duration");
	free(u.pids);
	logpid_free(p);
	return 0;
}

/* `jankgate parse choreographer FILE`: a logcat capture. */
static int
choreographer_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	const struct logcat_line *lines;
	struct logcat_buf *log;
	bool any = false, damaged;
	char *unread;
	size_t nr;

	log = capture_read(buf, len, &unread);
	lines = logcat_buf_lines(log, &nr);
	for (size_t i = 0; i < nr && !any; i++)
		any = skipped_any(&lines[i], &damaged) >= 0;
	choreographer_logcat(ctx, lines, nr);
	capture_report(ctx, SRC, name, log, NULL, NULL);
	if (!any)
		capture_warn_nothing(ctx, SRC, name, len, unread,
		    "'Skipped N frames!' line");
	free(unread);
	logcat_buf_free(log);
	return 0;
}

const struct source source_choreographer = {
	.name = "choreographer",
	.summary = "main-thread stalls from Choreographer's "
	    "'Skipped N frames!' log lines",
	.fills = SOURCE_BLOCKS,
	.by_default = true,
	.logcat_buffers = "system",
	.logcat = choreographer_logcat,
	.parse = choreographer_parse,
};
