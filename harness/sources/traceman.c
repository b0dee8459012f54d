/*
 * traceman.c: the `traceman` source, MethodTraceMan's method costs
 * (docs/formats.md §6.2), collected per scene.
 *
 * The app serves a WebSocket on device port 5392 (source_options.
 * traceman_port), path /refresh.  jankgate forwards a host port to it
 * once per device (prepare; removed in finish) and speaks JSON text
 * messages:
 *
 *	launch hook   connect (a new app process has a new server), then
 *	              {"moduleName":"OnlineMessage"}       tracing on
 *	scene_begin   {"moduleName":"StartMethodCost"}     forget, collect;
 *	              waits for the answer naming StartMethodCost
 *	scene_end     {"moduleName":"EndMethodCost"}       stop and report;
 *	              waits for the answer naming EndMethodCost, so the
 *	              report is logged before the logcat stream stops
 *
 * Waiting for StartMethodCost's answer matters: the message and the
 * scene's first `input` travel on different adb streams, and an app that
 * handled the input first would forget what it measured for it.  A
 * server that never answers it (the answers are not a documented
 * format) is waited for once, ACK_WAIT_MS, and then no more, with a
 * warning.
 *
 * Connecting happens after `launch` steps, outside scenes; scene_begin
 * connects only when no launch did (a scenario that starts the app some
 * other way).  On EndMethodCost the app logs one line per method measured
 * since StartMethodCost:
 *
 *	3612.480  4242  4242 I costTime: com.example.shop.Feed.bind  12ms [主线程]
 *	3612.480  4242  4242 I costTime: com.example.shop.Img.decode  85ms [非主线程]
 *
 * name, two spaces, whole ms, then the thread: 主线程 (main) or 非主线程
 * (another).  The lines are read from the right, so a name may hold
 * spaces.  They are written after the scene's window closed, so they
 * belong to the latest traced scene that began before them; lines
 * without a traced scene (a failed connection, `jankgate parse`) fall
 * back to the scene holding them, with the grace period, else to the
 * iteration.
 *
 * A forward that cannot be made or a WebSocket that cannot be reached is
 * a warning, not a failed iteration: the other sources still measure.
 * So is a configured source that logged no costTime line in the whole
 * run.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "capture.h"
#include "config.h"
#include "error.h"
#include "logcat.h"
#include "logpid.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "websocket.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "traceman"
#define TAG "costTime"
#define DEFAULT_PORT 5392
#define OPT_PORT "traceman_port"	/* source_options.traceman_port */
#define STR(x) #x
#define XSTR(x) STR(x)
#define PATH "/refresh"
#define DEFAULT_TIMEOUT_MS 5000
#define ACK_WAIT_MS 1000

#define MAIN_THREAD "\xe4\xb8\xbb\xe7\xba\xbf\xe7\xa8\x8b"	/* 主线程 */
#define OTHER_THREAD "\xe9\x9d\x9e" MAIN_THREAD		/* 非主线程 */

struct tm_state {
	int port;		/* host side of the forward; 0: none */
	struct websocket *ws;
	const struct rs_iteration *it;	/* the iteration `traced` is of */
	size_t *traced;		/* scene indexes that got EndMethodCost */
	size_t nr_traced, alloc_traced;
	size_t lines;		/* costTime lines in the whole run */
	bool no_start_ack;	/* the server does not answer StartMethodCost */
	char *last_error;	/* why the last connection failed */
};

static int
timeout_ms(const struct source_ctx *ctx)
{
	int t = ctx->cfg ? ctx->cfg->devices.command_timeout_ms : 0;

	return t > 0 ? t : DEFAULT_TIMEOUT_MS;
}

static int
send_module(struct tm_state *st, const char *module)
{
	char msg[64];
	int n = snprintf(msg, sizeof(msg), "{\"moduleName\":\"%s\"}", module);

	return websocket_send_text(st->ws, msg, (size_t)n);
}

/* Drop the connection; the next use connects again. */
static void
disconnect(struct tm_state *st)
{
	websocket_free(st->ws);
	st->ws = NULL;
}

/* Connect and switch tracing on; a failure is a warning for `sc`. */
static int
connect_ws(struct source_ctx *ctx, struct tm_state *st,
    const struct rs_scene *sc)
{
	disconnect(st);
	if (!st->port)
		return -1;	/* prepare already said why */
	if (websocket_connect(&st->ws, "127.0.0.1", st->port, PATH,
	    timeout_ms(ctx)) || send_module(st, "OnlineMessage")) {
		free(st->last_error);
		st->last_error = xstrdup(jg_error_msg());
		source_warn(ctx, sc, SRC, "cannot reach MethodTraceMan: %s",
		    st->last_error);
		disconnect(st);
		return -1;
	}
	return 0;
}

/*
 * The forward is made once per device.  Failing to make it costs this
 * source's data, not the device's run: a warning, and no WebSocket.
 */
static int
tm_prepare(struct source_ctx *ctx)
{
	struct tm_state *st = xcalloc(1, sizeof(*st));
	int port = config_opt_int(ctx->cfg, OPT_PORT) > 0 ?
	    config_opt_int(ctx->cfg, OPT_PORT) : DEFAULT_PORT;
	char remote[32];

	ctx->state = st;
	snprintf(remote, sizeof(remote), "tcp:%d", port);
	if (adb_device_forward(ctx->dev, 0, remote, &st->port)) {
		st->port = 0;
		st->last_error = xstrdup(jg_error_msg());
		source_warn(ctx, NULL, SRC, "cannot forward to MethodTraceMan's "
		    "'%s': %s", remote, st->last_error);
	}
	return 0;
}

/* A launch may have started a new process: its server is a new one. */
static int
tm_launch(struct source_ctx *ctx, const char *am_output, size_t len)
{
	struct tm_state *st = ctx->state;

	if (st)
		connect_ws(ctx, st, NULL);
	return 0;
}

/*
 * Wait up to `wait_ms` for the answer naming `module`, skipping others.
 * 1: it came; 0: the connection closed; or an error (JG_ETIMEOUT).
 */
static int
await_answer(struct tm_state *st, const char *module, int wait_ms)
{
	struct strbuf msg = STRBUF_INIT;
	char *want = xasprintf("\"%s\"", module);
	int rc;

	while ((rc = websocket_recv(st->ws, &msg, wait_ms)) == 1 &&
	    !strstr(msg.buf, want))
		;
	free(want);
	strbuf_release(&msg);
	return rc;
}

/* Send StartMethodCost and see it acknowledged.  0 or -1 (link broken). */
static int
start_collecting(struct source_ctx *ctx, struct tm_state *st,
    const struct rs_scene *scene)
{
	int rc;

	if (send_module(st, "StartMethodCost"))
		return -1;
	if (st->no_start_ack)
		return 0;
	rc = await_answer(st, "StartMethodCost", ACK_WAIT_MS);
	if (rc == JG_ETIMEOUT) {
		st->no_start_ack = true;
		source_warn(ctx, scene, SRC, "MethodTraceMan does not answer "
		    "StartMethodCost: a scene's first input may be measured "
		    "before collecting starts");
		return 0;
	}
	return rc == 1 ? 0 : -1;
}

static int
tm_scene_begin(struct source_ctx *ctx, struct rs_scene *scene)
{
	struct tm_state *st = ctx->state;

	if (!st)
		return 0;
	if (st->it != ctx->it) {
		st->it = ctx->it;
		st->nr_traced = 0;
	}
	/* A server gone since the launch (the app restarted): once more. */
	if ((!st->ws || start_collecting(ctx, st, scene)) &&
	    (connect_ws(ctx, st, scene) || start_collecting(ctx, st, scene)))
		disconnect(st);
	return 0;
}

static int
tm_scene_end(struct source_ctx *ctx, struct rs_scene *scene,
    const char *gfxinfo, size_t len)
{
	struct tm_state *st = ctx->state;
	int rc;

	if (!st || !st->ws)
		return 0;
	if (send_module(st, "EndMethodCost")) {
		source_warn(ctx, scene, SRC, "cannot stop MethodTraceMan: %s",
		    jg_error_msg());
		disconnect(st);
		return 0;
	}
	rc = await_answer(st, "EndMethodCost", timeout_ms(ctx));
	if (rc != 1) {
		source_warn(ctx, scene, SRC, "no answer to EndMethodCost: %s",
		    rc ? jg_error_msg() : "connection closed");
		/* A slow answer may still come; a broken link will not. */
		if (rc != JG_ETIMEOUT)
			disconnect(st);
	}
	XALLOC_GROW(st->traced, st->nr_traced + 1, st->alloc_traced);
	st->traced[st->nr_traced++] = (size_t)(scene - ctx->it->scenes);
	return 0;
}

/*
 * "<name>  <N>ms [<thread>]" into its parts; -1 when the line is not
 * one.  *main_thread is 1, 0 or RS_UNKNOWN (another label).
 */
static int
parse_cost(const char *m, size_t len, char **name, double *cost_ms,
    int *main_thread)
{
	const char *end = m + len, *p, *num;
	char buf[32], *stop;
	size_t lab = 0;

	while (end > m && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	*main_thread = RS_UNKNOWN;
	p = end;
	if (p > m && p[-1] == ']') {
		const char *open = p - 1;

		while (open > m && open[-1] != '[')
			open--;
		if (open == m)
			return -1;
		lab = (size_t)(p - 1 - open);
		if (lab == strlen(MAIN_THREAD) && !memcmp(open, MAIN_THREAD,
		    lab))
			*main_thread = 1;
		else if (lab == strlen(OTHER_THREAD) &&
		    !memcmp(open, OTHER_THREAD, lab))
			*main_thread = 0;
		p = open - 1;
		while (p > m && p[-1] == ' ')
			p--;
	}
	if (p - m < 3 || memcmp(p - 2, "ms", 2))
		return -1;
	p -= 2;
	for (num = p; num > m && ((num[-1] >= '0' && num[-1] <= '9') ||
	    num[-1] == '.'); num--)
		;
	if (num == p || (size_t)(p - num) >= sizeof(buf) || num == m ||
	    num[-1] != ' ')
		return -1;
	memcpy(buf, num, (size_t)(p - num));
	buf[p - num] = '\0';
	*cost_ms = strtod(buf, &stop);
	if (*stop || !isfinite(*cost_ms))
		return -1;
	while (num > m && num[-1] == ' ')
		num--;
	if (num == m)
		return -1;
	*name = xstrndup(m, (size_t)(num - m));
	return 0;
}

/* The traced scene a report at `mono_ms` came from, or NULL. */
static struct rs_scene *
traced_scene(struct source_ctx *ctx, const struct tm_state *st,
    double mono_ms)
{
	struct rs_scene *best = NULL;

	if (!st || st->it != ctx->it)
		return NULL;
	for (size_t i = 0; i < st->nr_traced; i++) {
		struct rs_scene *sc = &ctx->it->scenes[st->traced[i]];

		if (sc->start_mono_ms <= mono_ms &&
		    (!best || sc->start_mono_ms > best->start_mono_ms))
			best = sc;
	}
	return best;
}

static int
tm_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	struct tm_state *st = ctx->state;
	double grace = ctx->cfg ? ctx->cfg->source_opts.grace_ms : 0;
	struct logpid *p = capture_app_pids(ctx, lines, nr);

	for (size_t i = 0; i < nr; i++) {
		const struct logcat_line *l = &lines[i];
		struct rs_scene *sc;
		struct rs_method *m;
		char *name;
		double cost;
		int main_thread;

		/* Another app may carry MethodTraceMan too. */
		if (logpid_owner(p, l) == LOGPID_OTHER ||
		    !logcat_tag_fits(l, TAG) || parse_cost(l->msg, l->msg_len,
		    &name, &cost, &main_thread))
			continue;
		sc = traced_scene(ctx, st, l->mono_ms);
		if (!sc)
			sc = capture_scene_at(ctx, l->mono_ms, grace);
		m = sc ? rs_scene_add_method(sc, SRC, name) :
		    rs_iteration_add_method(ctx->it, SRC, name);
		m->cost_ms = cost;
		m->main_thread = main_thread;
		free(name);
		if (st)
			st->lines++;
	}
	logpid_free(p);
	return 0;
}

static void
tm_finish(struct source_ctx *ctx)
{
	struct tm_state *st = ctx->state;

	if (!st)
		return;
	disconnect(st);
	if (st->port && ctx->dev &&
	    adb_device_forward_remove(ctx->dev, st->port))
		source_warn(ctx, NULL, SRC, "cannot remove the forward of "
		    "port %d: %s", st->port, jg_error_msg());
	/* An earlier batch's "none" is wrong now, or this one's would be. */
	if (st->lines && ctx->results)
		results_remove_warnings(ctx->results, SRC, "no MethodTraceMan "
		    "costTime line in the whole run");
	if (!st->lines && ctx->results && !source_in_results(ctx->results,
	    SRC))
		results_add_warning(ctx->results, SRC, NULL, st->last_error ?
		    "no MethodTraceMan costTime line in the whole run; its "
		    "WebSocket was unreachable" : "no MethodTraceMan costTime "
		    "line in the whole run");
	free(st->traced);
	free(st->last_error);
	free(st);
	ctx->state = NULL;
}

/*
 * `jankgate parse traceman FILE`: the costTime lines of a logcat capture,
 * as methods of the iteration.
 */
static int
tm_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	const struct logcat_line *lines;
	size_t nr, before = ctx->it->nr_methods;
	struct logcat_buf *log;
	char *unread;

	log = capture_read(buf, len, &unread);
	lines = logcat_buf_lines(log, &nr);
	tm_logcat(ctx, lines, nr);
	capture_report(ctx, SRC, name, log, NULL, NULL);
	if (ctx->it->nr_methods == before)
		capture_warn_nothing(ctx, SRC, name, len, unread,
		    "costTime line");
	free(unread);
	logcat_buf_free(log);
	return 0;
}

static const struct config_opt options[] = {
	{ OPT_PORT, CONFIG_OPT_INT, 1, 65535, XSTR(DEFAULT_PORT),
	  "MethodTraceMan's WebSocket port" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

const struct source source_traceman = {
	.name = "traceman",
	.summary = "MethodTraceMan method costs per scene, started and "
	    "stopped over its WebSocket",
	.fills = SOURCE_METHODS,
	.options = options,
	.prepare = tm_prepare,
	.launch = tm_launch,
	.scene_begin = tm_scene_begin,
	.scene_end = tm_scene_end,
	.logcat = tm_logcat,
	.finish = tm_finish,
	.parse = tm_parse,
};
