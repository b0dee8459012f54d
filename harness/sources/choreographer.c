/*
 * choreographer.c: the `choreographer` source, the framework's own note
 * that the app's main thread stalled (FORMATS §3.4).
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
 * Every process logs these lines, so the app's are picked by pid: those
 * the activity manager gave the package ("Start proc 3920:pkg/u0a100 ..."
 * in the system buffer) when the capture shows one, else every pid but
 * the activity manager's own (system_server).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "choreographer"
#define KIND "SKIPPED_FRAMES"

struct pids {
	int *app;
	size_t nr_app, alloc_app;
	int *system;
	size_t nr_system, alloc_system;
};

static bool
tag_is(const struct logcat_line *l, const char *tag)
{
	size_t n = strlen(tag);

	return l->tag_len == n && !memcmp(l->tag, tag, n);
}

static bool
has_pid(const int *v, size_t nr, int pid)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == pid)
			return true;
	return false;
}

static void
add_pid(int **v, size_t *nr, size_t *alloc, int pid)
{
	if (has_pid(*v, *nr, pid))
		return;
	XALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[(*nr)++] = pid;
}

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

/* "Start proc 3920:com.example.shop[:remote]/u0a100 for ...": the pid. */
static int
start_proc_pid(const struct logcat_line *l, const char *pkg)
{
	size_t i = strlen("Start proc "), k = strlen(pkg);
	const char *name;
	long pid;

	if (l->msg_len < i || memcmp(l->msg, "Start proc ", i))
		return -1;
	pid = read_count(l->msg, l->msg_len, &i);
	if (pid < 0 || i >= l->msg_len || l->msg[i++] != ':')
		return -1;
	name = l->msg + i;
	if (l->msg_len - i <= k || memcmp(name, pkg, k) ||
	    (name[k] != '/' && name[k] != ':'))
		return -1;
	return (int)pid;
}

static void
find_pids(struct pids *p, const struct logcat_line *lines, size_t nr,
    const char *pkg)
{
	for (size_t i = 0; i < nr; i++) {
		const struct logcat_line *l = &lines[i];
		int pid;

		if (!tag_is(l, "ActivityManager") &&
		    !tag_is(l, "ActivityTaskManager"))
			continue;
		add_pid(&p->system, &p->nr_system, &p->alloc_system, l->pid);
		if (pkg && (pid = start_proc_pid(l, pkg)) >= 0)
			add_pid(&p->app, &p->nr_app, &p->alloc_app, pid);
	}
}

/* "Skipped 31 frames!  ...": the count, or -1. */
static long
skipped_frames(const struct logcat_line *l)
{
	size_t i = strlen("Skipped ");
	long n;

	if (!tag_is(l, "Choreographer") || l->msg_len < i ||
	    memcmp(l->msg, "Skipped ", i))
		return -1;
	n = read_count(l->msg, l->msg_len, &i);
	if (n < 0 || l->msg_len - i < 8 || memcmp(l->msg + i, " frames!", 8))
		return -1;
	return n;
}

static bool
is_app_line(const struct pids *p, const struct logcat_line *l)
{
	if (p->nr_app)
		return has_pid(p->app, p->nr_app, l->pid);
	return !has_pid(p->system, p->nr_system, l->pid);
}

static int
choreographer_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	double hz = ctx->refresh_hz > 0 && isfinite(ctx->refresh_hz) ?
	    ctx->refresh_hz : NAN;
	double grace = ctx->cfg ? ctx->cfg->source_opts.grace_ms : 0;
	struct pids p = { 0 };
	bool unknown_rate = false;

	find_pids(&p, lines, nr, ctx->package);
	for (size_t i = 0; i < nr; i++) {
		long n = skipped_frames(&lines[i]);
		struct rs_scene *sc;
		struct rs_block *b;

		if (n < 0 || !is_app_line(&p, &lines[i]))
			continue;
		sc = rs_iteration_scene_at(ctx->it, lines[i].mono_ms, grace);
		b = sc ? rs_scene_add_block(sc, SRC) :
		    rs_iteration_add_block(ctx->it, SRC);
		rs_str_set(&b->kind, KIND);
		/* n * 1000 / hz rounds once: 30 frames at 60 Hz are 500. */
		b->wall_ms = (double)n * 1000 / hz;
		b->start_mono_ms = lines[i].mono_ms -
		    (isnan(hz) ? 0 : b->wall_ms);
		unknown_rate |= isnan(hz);
	}
	if (unknown_rate)
		source_warn(ctx, NULL, SRC, "refresh rate unknown: skipped "
		    "frames have no duration");
	free(p.app);
	free(p.system);
	return 0;
}

/* `jankgate parse choreographer FILE`: a logcat capture. */
static int
choreographer_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	struct logcat_buf *log = logcat_buf_new();
	const struct logcat_line *lines;
	size_t nr;

	if (logcat_buf_parse_text(log, buf, len) || !len)
		source_warn(ctx, NULL, SRC, "'%s' holds no 'logcat -v "
		    "monotonic' line", name);
	lines = logcat_buf_lines(log, &nr);
	choreographer_logcat(ctx, lines, nr);
	logcat_buf_free(log);
	return 0;
}

const struct source source_choreographer = {
	.name = "choreographer",
	.summary = "main-thread stalls from Choreographer's "
	    "'Skipped N frames!' log lines",
	.logcat_buffers = "system",
	.logcat = choreographer_logcat,
	.parse = choreographer_parse,
};
