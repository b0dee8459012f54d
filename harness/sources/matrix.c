/*
 * matrix.c: the `matrix` source, Tencent Matrix TraceCanary issues read
 * from logcat (docs/formats.md §1; source.h).
 *
 * Matrix has no file output for trace issues: a host sees them only when
 * the app's PluginListener logs them, under a tag of its choosing, one
 * issue per line (matrix_issue.c finds them; matrix_join.c joins the
 * lines of an issue that a paste or a listener spread over several).
 * Per iteration the logcat hook collects the iteration's issues, drops
 * the second copy that a listener chain logs (the sample app logs every
 * issue twice), and puts the rest into the iteration (matrix_apply.c;
 * with markers.matrix, FPS reports of the test steps as scenes of their
 * own).
 *
 * Per run, prepare loads source_options.method_mapping, if set, and
 * finish warns when not one Matrix issue was seen: a configured library
 * that says nothing is usually an app built without it, or a listener
 * that does not log.
 *
 * `jankgate parse matrix FILE` reads a saved logcat capture in any
 * layout (logcat.h), bare issues in any JSON formatting (several a file,
 * "//" notes between their lines), or the sample's ParseIssueUtil print,
 * and makes one scene per app scene (activity) that Matrix names.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "config.h"
#include "error.h"
#include "logcat.h"
#include "logpid.h"
#include "matrix_int.h"
#include "methodmap.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

#define OPT_METHOD_MAPPING "method_mapping"

/* source_options.grace_ms when there is no config at all. */
#define DEFAULT_GRACE_MS 1000

struct matrix_state {
	struct methodmap *map;
	size_t issues;		/* Matrix issue lines seen in the run */
};

/* The run's state: the method mapping, loaded once. */
static int
state_new(struct matrix_state **out, const struct source_ctx *ctx)
{
	struct matrix_state *st = xcalloc(1, sizeof(*st));
	const char *path = config_opt_path(ctx->cfg, OPT_METHOD_MAPPING);
	int ret;

	*out = NULL;
	if (path && (ret = methodmap_load(&st->map, path))) {
		free(st);
		return jg_error_prefix("matrix: source_options.method_mapping");
	}
	*out = st;
	return 0;
}

static void
state_free(struct matrix_state *st)
{
	if (!st)
		return;
	methodmap_free(st->map);
	free(st);
}

static int
matrix_prepare(struct source_ctx *ctx)
{
	struct matrix_state *st;
	int ret;

	if (ctx->state)
		return 0;
	ret = state_new(&st, ctx);
	if (!ret)
		ctx->state = st;
	return ret;
}

static void
matrix_finish(struct source_ctx *ctx)
{
	struct matrix_state *st = ctx->state;

	if (!st)
		return;
	/* An earlier batch's "none" is wrong now, or this one's would be. */
	if (st->issues && ctx->results)
		results_remove_warnings(ctx->results, "matrix", "no Matrix "
		    "issue in any iteration's logcat");
	if (!st->issues && ctx->results &&
	    !source_in_results(ctx->results, "matrix"))
		results_add_warning(ctx->results, "matrix", NULL,
		    "no Matrix issue in any iteration's logcat: is the app "
		    "built with Matrix, and does its PluginListener log "
		    "issues?");
	state_free(st);
	ctx->state = NULL;
}

/* A growing list of the issues of one iteration or file. */
struct issue_list {
	struct mx_issue *v;
	size_t nr, alloc;
};

/*
 * Every issue of one message (a JSON array or a paste may hold several);
 * returns how many.
 */
static size_t
issue_list_scan(struct issue_list *l, const struct mx_msg *m)
{
	const char *s = m->s;
	size_t n = m->n, found = 0;

	for (;; found++) {
		struct mx_issue *is;

		XALLOC_GROW(l->v, l->nr + 1, l->alloc);
		is = &l->v[l->nr];
		if (!mx_issue_find(is, s, n, m->line->mono_ms))
			return found;
		/* A paste's end, or text that is not JSON, ended it. */
		if (m->unclosed && !is->json.complete)
			is->cut = is->unclosed = true;
		is->line_len = m->n + m->line->tag_len;
		l->nr++;
		if (!is->end || is->end >= n)
			return found + 1;
		s += is->end;
		n -= is->end;
	}
}

/*
 * The issues of the lines (joined where one spans several, `m`), but
 * those another app's process printed.
 */
static void
scan_lines(const struct source_ctx *ctx, struct issue_list *l,
    const struct logcat_line *lines, size_t nr, struct mx_msgs *m)
{
	struct logpid *p = capture_app_pids(ctx, lines, nr);

	mx_join(m, lines, nr);
	for (size_t i = 0; i < m->nr; i++) {
		const struct mx_msg *x = &m->v[i];

		/* A bare line that held an issue is placed: it is one. */
		if (logpid_owner(p, x->line) != LOGPID_OTHER &&
		    issue_list_scan(l, x) && x->nr_lines == 1)
			m->used[x->line - lines] = true;
	}
	logpid_free(p);
}

/* capture_report()'s test: a line that is (part of) an issue. */
static bool
joined_line(void *arg, const struct logcat_line *l)
{
	const struct mx_msgs *m = arg;

	return m->used[l - m->lines];
}

/* Apply every issue of `l` and free them; returns how many there were. */
static size_t
issue_list_apply(struct issue_list *l, struct mx_apply *a)
{
	size_t nr = l->nr;

	mx_issue_mark_duplicates(l->v, l->nr);
	for (size_t i = 0; i < l->nr; i++) {
		mx_apply_issue(a, &l->v[i]);
		mx_issue_release(&l->v[i]);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
	return nr;
}

static double
grace_ms(const struct source_ctx *ctx)
{
	return ctx->cfg ? ctx->cfg->source_opts.grace_ms : DEFAULT_GRACE_MS;
}

static int
matrix_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	struct issue_list l = { NULL, 0, 0 };
	struct matrix_state *st;
	struct mx_msgs m;
	struct mx_apply a;
	int ret;

	if (!ctx->state && (ret = matrix_prepare(ctx)))
		return ret;
	st = ctx->state;
	scan_lines(ctx, &l, lines, nr, &m);
	mx_msgs_release(&m);
	memset(&a, 0, sizeof(a));
	a.ctx = ctx;
	a.it = ctx->it;
	a.map = st->map;
	a.grace_ms = grace_ms(ctx);
	a.own_scenes = ctx->cfg && ctx->cfg->markers.matrix;
	a.steps = ctx->step_spans;
	a.nr_steps = ctx->nr_step_spans;
	mx_apply_begin(&a);
	st->issues += issue_list_apply(&l, &a);
	mx_apply_end(&a);
	return 0;
}

/* Do the iteration's scenes have windows to place events by time? */
static bool
has_windows(const struct rs_iteration *it)
{
	for (size_t i = 0; i < it->nr_scenes; i++)
		if (!isnan(it->scenes[i].start_mono_ms))
			return true;
	return false;
}

static int
matrix_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	struct issue_list l = { NULL, 0, 0 };
	struct matrix_state *st = ctx->state, *own = NULL;
	const struct logcat_line *lines;
	struct logcat_buf *log;
	struct mx_msgs m;
	struct mx_apply a;
	char *unread;
	size_t found, nr;
	int ret;

	if (!st) {
		if ((ret = state_new(&own, ctx)))
			return ret;
		st = own;
	}
	/* Lines of any layout; text in none is read as bare messages. */
	log = capture_read(buf, len, &unread);
	lines = logcat_buf_lines(log, &nr);
	scan_lines(ctx, &l, lines, nr, &m);
	memset(&a, 0, sizeof(a));
	a.ctx = ctx;
	a.it = ctx->it;
	a.map = st->map;
	a.grace_ms = grace_ms(ctx);
	a.by_app_scene = !has_windows(ctx->it);
	mx_apply_begin(&a);
	found = issue_list_apply(&l, &a);
	mx_apply_end(&a);
	st->issues += found;
	if (!found)
		capture_warn_nothing(ctx, "matrix", name, len, unread,
		    "Matrix issue");
	capture_report(ctx, "matrix", name, log, joined_line, &m);
	if (ctx->notes && (m.nr_json || m.nr_util))
		strlist_addf(ctx->notes, "'%s': messages over several lines: "
		    "%zu JSON object%s (pretty-printed or annotated), %zu "
		    "ParseIssueUtil print%s", name, m.nr_json, m.nr_json == 1 ?
		    "" : "s", m.nr_util, m.nr_util == 1 ? "" : "s");
	mx_msgs_release(&m);
	free(unread);
	logcat_buf_free(log);
	state_free(own);
	return 0;
}

/* source_options.method_mapping */
static const struct config_opt options[] = {
	{ OPT_METHOD_MAPPING, CONFIG_OPT_PATH, 0, 0, NULL,
	  "Matrix methodMapping.txt to decode stack ids" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

const struct source source_matrix = {
	.name = "matrix",
	.summary = "Tencent Matrix TraceCanary: FPS slices, evil-method "
	    "blocks, startup phases",
	.fills = SOURCE_FPS | SOURCE_BLOCKS | SOURCE_STARTUP_MATRIX |
	    SOURCE_APP_SCENES,
	.options = options,
	.logcat_buffers = NULL,
	.prepare = matrix_prepare,
	.logcat = matrix_logcat,
	.finish = matrix_finish,
	.parse = matrix_parse,
};
