/*
 * apprun.c: an app process's life (start, back stack, background, death)
 * and the user's actions on it.
 *
 * Each action runs the frame generator once, then hands the new frames to
 * gfxinfo, the ground truth and the output emitters, and forgets them:
 * nothing grows with the length of a run except the log itself.
 */
#include <stdlib.h>
#include <string.h>

#include "amfmt.h"
#include "apprun_priv.h"
#include "error.h"
#include "gfxinfo_fmt.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* A finger faster than this (px/ms) flings the list. */
#define FLING_SPEED	1.0

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

struct apprun *
apprun_new(const struct appmodel *m, const struct apprun_env *env,
    unsigned int uid)
{
	struct apprun *r = xcalloc(1, sizeof(*r));

	r->m = m;
	r->env = *env;
	r->uid = uid;
	/* Each app its own stream, so installing another changes nothing. */
	r->g = framegen_new(env->seed ^ hash_str(m->package), env->refresh_hz);
	strbuf_init(&r->traceman, 0);
	r->token = 1000 + (long long)(hash_str(m->package) % 100000);
	return r;
}

void
apprun_free(struct apprun *r)
{
	if (!r)
		return;
	apprun_emit_reset(r);
	framegen_out_release(&r->out);
	framegen_free(r->g);
	gfx_state_free(r->gfx);
	free(r->stack);
	strbuf_release(&r->traceman);
	free(r);
}

int
apprun_pid(const struct apprun *r)
{
	return r->pid;
}

const char *
apprun_top(const struct apprun *r)
{
	if (!r->pid || !r->foreground || !r->nr_stack)
		return NULL;
	return r->stack[r->nr_stack - 1]->name;
}

const struct appmodel_activity *const *
apprun_stack(const struct apprun *r, size_t *nr)
{
	*nr = r->pid ? r->nr_stack : 0;
	return r->stack;
}

const struct appmodel *
apprun_model(const struct apprun *r)
{
	return r->m;
}

long long
apprun_idle_at(const struct apprun *r)
{
	return r->idle_at;
}

static const struct appmodel_activity *
top_activity(const struct apprun *r)
{
	return r->nr_stack ? r->stack[r->nr_stack - 1] : NULL;
}

static void
push(struct apprun *r, const struct appmodel_activity *a)
{
	XALLOC_GROW(r->stack, r->nr_stack + 1, r->alloc_stack);
	r->stack[r->nr_stack++] = a;
}

/* Is `a` anywhere in the back stack? */
static int
in_stack(const struct apprun *r, const struct appmodel_activity *a)
{
	for (size_t i = 0; i < r->nr_stack; i++)
		if (r->stack[i] == a)
			return 1;
	return 0;
}

/*
 * Run `a`, then pass everything it produced on, and forget it.
 * `from_intent`: a launch came from am start, not from inside the app.
 */
static int
act(struct apprun *r, const struct framegen_action *a, int from_intent)
{
	size_t i;
	int ret = framegen_run(r->g, r->m, a, &r->out);

	if (ret)
		return ret;
	for (i = 0; i < r->out.nr_frames; i++) {
		struct framegen_frame *f = &r->out.frames[i];

		if (f->block >= 0)
			f->block += r->blocks_base;
		gfx_add_frame(r->gfx, f);
		sf_ring_add(&r->sf, f, r->pid);
	}
	if (r->env.truth)
		truth_record(r->env.truth, r->m->package, &r->out, &r->mark);
	apprun_emit_action(r);
	if (a->kind == FRAMEGEN_SWIPE || a->kind == FRAMEGEN_FLING)
		apprun_emit_marks(r, appmodel_activity(r->m, a->activity));
	if (r->out.has_launch) {
		apprun_emit_launch(r, &r->out.launch, from_intent);
		r->last_launch = r->out.launch;
	}
	if (r->out.end_ns > r->idle_at)
		r->idle_at = r->out.end_ns;
	r->blocks_base += (long)r->out.nr_blocks;
	framegen_out_release(&r->out);
	memset(&r->mark, 0, sizeof(r->mark));
	return 0;
}

static void
fill_start(struct amfmt_start *as, const struct apprun *r,
    const struct appmodel_activity *a)
{
	memset(as, 0, sizeof(*as));
	as->package = r->m->package;
	as->activity = a->name;
	as->has_activity = 1;
	as->this_ms = as->total_ms = -1;
}

int
apprun_start(struct apprun *r, const char *activity, int new_pid,
    long long now_ns, struct amfmt_start *as)
{
	const struct appmodel_activity *a = appmodel_activity(r->m,
	    activity ? activity : r->m->launcher);
	struct framegen_action fa = { FRAMEGEN_LAUNCH, NULL, now_ns, 0, NULL,
	    FRAMEGEN_COLD };
	int ret;

	if (!a)
		return jg_error_set(JG_ENOTFOUND, "no activity '%s' in '%s'",
		    activity, r->m->package);
	fill_start(as, r, a);
	fa.activity = a->name;
	if (r->pid && r->foreground && top_activity(r) == a) {
		/* singleTop-like delivery: nothing is drawn, no times. */
		as->warning = AMFMT_DELIVERED_TO_TOP;
		as->state = 0;
		as->wait_ms = 4;
		return 0;
	}
	if (!r->pid) {
		r->pid = new_pid;
		r->gfx = gfx_state_new(r->env.sdk, r->m->process, new_pid,
		    now_ns);
		r->perf_next_s = r->lost_base_s = now_ns / 1000000000LL;
	} else if (!r->foreground && in_stack(r, a)) {
		/* The task comes back as it was, whatever is on top. */
		fa.launch = FRAMEGEN_HOT;
		fa.activity = top_activity(r)->name;
		as->warning = AMFMT_BROUGHT_TO_FRONT;
	} else
		fa.launch = FRAMEGEN_WARM;
	if (fa.launch != FRAMEGEN_HOT)
		push(r, a);
	r->foreground = 1;
	if ((ret = act(r, &fa, 1)))
		return ret;
	as->state = fa.launch == FRAMEGEN_COLD ? AMFMT_COLD :
	    fa.launch == FRAMEGEN_WARM ? AMFMT_WARM : AMFMT_HOT;
	as->this_ms = as->total_ms = r->last_launch.total_ms;
	as->wait_ms = r->last_launch.wait_ms;
	return 0;
}

void
apprun_spawn(struct apprun *r, int new_pid, long long now_ns)
{
	if (r->pid)
		return;
	r->pid = new_pid;
	r->gfx = gfx_state_new(r->env.sdk, r->m->process, new_pid, now_ns);
	r->perf_next_s = r->lost_base_s = now_ns / 1000000000LL;
	r->foreground = 0;
	r->nr_stack = 0;
}

void
apprun_force_stop(struct apprun *r, long long now_ns)
{
	if (!r->pid)
		return;
	apprun_emit_reset(r);
	gfx_state_free(r->gfx);
	r->gfx = NULL;
	r->nr_stack = 0;
	r->pid = 0;
	r->foreground = 0;
	if (r->idle_at > now_ns)
		r->idle_at = now_ns;
}

void
apprun_home(struct apprun *r, long long now_ns)
{
	if (!r->pid || !r->foreground)
		return;
	apprun_emit_pause(r, now_ns);
	r->foreground = 0;
}

/* The resumed activity, or NULL when the app is not in front. */
static const struct appmodel_activity *
front(const struct apprun *r)
{
	return r->pid && r->foreground ? top_activity(r) : NULL;
}

int
apprun_back(struct apprun *r, long long now_ns)
{
	const struct appmodel_activity *a = front(r);
	struct framegen_action fa = { FRAMEGEN_RETURN, NULL, now_ns, 0, NULL,
	    0 };

	if (!a)
		return jg_error_set(JG_ENOTFOUND, "'%s' is not in front",
		    r->m->package);
	r->nr_stack--;
	if (!in_stack(r, a))
		gfx_close_window(r->gfx, a->name);
	if (!r->nr_stack) {
		/* The last activity finished: the process lingers, unseen. */
		apprun_emit_pause(r, now_ns);
		r->foreground = 0;
		return 0;
	}
	fa.activity = top_activity(r)->name;
	return act(r, &fa, 0);
}

int
apprun_tap(struct apprun *r, int x, int y, double press_ms, long long now_ns)
{
	const struct appmodel_activity *a = front(r), *to;
	const struct appmodel_element *e;
	struct framegen_action fa = { FRAMEGEN_TAP, NULL, now_ns, press_ms,
	    NULL, 0 };

	if (!a)
		return jg_error_set(JG_ENOTFOUND, "'%s' is not in front",
		    r->m->package);
	e = appmodel_element_at(a, x, y);
	if (e && e->tap == APPMODEL_TAP_BACK)
		return apprun_back(r, now_ns + (long long)(press_ms * 1e6));
	fa.activity = a->name;
	if (e && e->tap == APPMODEL_TAP_OPEN) {
		to = appmodel_activity(r->m, e->target);
		fa.target = to->name;
		push(r, to);
	}
	return act(r, &fa, 0);
}

int
apprun_swipe(struct apprun *r, int x1, int y1, int x2, int y2, double ms,
    long long now_ns)
{
	const struct appmodel_activity *a = front(r);
	double dx = x2 - x1, dy = y2 - y1;
	struct framegen_action fa = { FRAMEGEN_SWIPE, NULL, now_ns, ms, NULL,
	    0 };

	if (!a)
		return jg_error_set(JG_ENOTFOUND, "'%s' is not in front",
		    r->m->package);
	fa.activity = a->name;
	if (ms <= 0 || (dx * dx + dy * dy) >= FLING_SPEED * FLING_SPEED *
	    ms * ms)
		fa.kind = FRAMEGEN_FLING;
	return act(r, &fa, 0);
}

void
apprun_advance(struct apprun *r, long long now_ns)
{
	if (r->pid)
		apprun_emit_periodic(r, now_ns);
}

int
apprun_gfxinfo(struct apprun *r, struct strbuf *out, unsigned int flags,
    long long now_ns)
{
	if (!r->pid)
		return jg_error_set(JG_ENOTFOUND, "'%s' is not running",
		    r->m->package);
	gfx_dump_process(r->gfx, out, flags, now_ns);
	return 0;
}

void
apprun_traceman_start(struct apprun *r)
{
	strbuf_reset(&r->traceman);
}

void
apprun_traceman_end(struct apprun *r, long long now_ns, struct strbuf *lines)
{
	const char *p = r->traceman.buf, *nl;

	if (lines && r->pid)
		strbuf_add(lines, r->traceman.buf, r->traceman.len);
	/* One costTime entry per method, as TraceMan logs them. */
	while (r->pid && (nl = strchr(p, '\n'))) {
		char *line = xstrndup(p, (size_t)(nl - p));

		apprun_log(r, now_ns, r->pid, r->pid, 'I', "costTime", line);
		free(line);
		p = nl + 1;
	}
	strbuf_reset(&r->traceman);
}

const struct sf_ring *
apprun_sf(const struct apprun *r)
{
	return &r->sf;
}
