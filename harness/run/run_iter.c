/*
 * run_iter.c: one iteration of one scenario on one device.
 *
 *	logcat -b BUFFERS -c; stream `logcat -v monotonic -b BUFFERS`
 *	iteration_begin hooks
 *	for each step of the scenario (repeats expanded):
 *	    launch   [am force-stop PKG when cold] am start -W -n PKG/ACT,
 *	             then every source's launch hook with am's output;
 *	             pidof PKG (outside a scene) for the app's pids
 *	    scene    dumpsys gfxinfo PKG reset   -> window start (Uptime)
 *	             scene_begin hooks
 *	    ...      input steps (each noted with its device time), plain
 *	             waits, `wait idle` (below)
 *	    end      dumpsys gfxinfo PKG framestats -> window end (Uptime)
 *	             scene_end hooks with the dump
 *	    exec     a host command (run_exec.c), reading frames for the
 *	             scenes it marks between them (run_markers.c)
 *	    instrument  the test APK's tests, each a scene (run_instrument.c);
 *	             with markers.trace inside an atrace capture
 *	    others   input, UI lookups, activity checks (run_ui.c)
 *	drain and stop the stream; the marked scenes; iteration_end hooks;
 *	logcat hooks with every line; collect hooks
 *
 * Between scene and end nothing reaches the device but the scenario's own
 * `input` commands: the crash watch reads the stream already running, and
 * `wait idle` inside a scene cannot ask the device, so there it waits
 * until the logcat stream has been quiet for SCENE_IDLE_MS (at least that
 * long, at most its timeout): a busy app logs, an idle one rarely does.
 *
 * The logcat hooks get the app's process ids the iteration saw: `pidof`
 * after each launch and the pids of the gfxinfo dumps at scene edges,
 * so sources whose lines any process prints (Choreographer) count the
 * app's only; `pidof` is never run inside a scene.
 *
 * The iteration records ONE startup, the last `launch` step's (setup
 * launches such as a login come first in scripts): each launch clears
 * it->startup, sets the kind the scenario asked for and lets the sources
 * fill the rest.
 *
 * An iteration fails, is recorded with its reason and a logcat excerpt,
 * and the run goes on, when: the app crashes or stops responding (seen in
 * the stream), `am start` reports an error, a view or activity is not
 * found in time, an `input` command fails, a scene finds no app process,
 * a hook rejects what it read, or the iteration outlives
 * devices.iteration_timeout_s.  A device error (the device went away) or
 * an interrupt ends the iteration and is returned to the device worker.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "config.h"
#include "error.h"
#include "results.h"
#include "run_int.h"
#include "run_marks.h"
#include "scenario.h"
#include "shquote.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"
#include "gfxinfo_dump.h"

#define DRAIN_MS	2000	/* late log lines may take this long */
#define SCENE_IDLE_MS	500
#define CRASH_GRACE_MS	500	/* after a failed step, wait for the report */
#define EXCERPT_LINES	20
#define MAX_APP_PIDS	32	/* app processes kept per iteration */

struct iter {
	struct run_dev *d;
	const struct scenario *scn;
	struct rs_iteration *it;
	struct run_logcat *lc;
	long scene;		/* index in it->scenes of the open scene, -1 */
	double deadline;	/* host ms */
	int pids[MAX_APP_PIDS];	/* the app's, as pidof and gfxinfo say */
	size_t nr_pids;
	struct run_marks *marks;	/* frame reads of `exec` steps */
	/*
	 * An `instrument` step runs: its tests' scene edges are noted in
	 * `marks` too (`feed`: when a Trace capture runs), and their
	 * Uptimes bound the step's span.
	 */
	bool instrument, feed;
	double instr_from, instr_to;
};

/* The device went away (or never answered), as opposed to a failed step. */
static int
device_gone(struct run_dev *d, int rc)
{
	struct strbuf state = STRBUF_INIT;
	char *msg;
	int gone;

	if (rc == JG_EINTR)
		return 1;
	if (rc != JG_EDEVICE && rc != JG_ECLOSED && rc != JG_EPROTO &&
	    rc != JG_EIO && rc != JG_ETIMEOUT)
		return 0;
	/* Keep the step's message: the probe would overwrite it. */
	msg = xstrdup(jg_error_msg());
	gone = adb_device_get_state(d->dev, &state) ||
	    strcmp(state.buf, "device");
	jg_error_set(rc, "%s", msg);
	free(msg);
	strbuf_release(&state);
	return gone;
}

/* Every configured source's hook `h`, in config order (run_hooks.c). */
static int
hooks(struct iter *x, enum run_hook h, const struct run_hook_args *a)
{
	return run_hooks(x->d->srcs, x->d->sctx, x->d->nr_srcs, x->it, h, a);
}

/* After the stream stopped: the logcat hooks with every line, then collect. */
static int
hooks_after(struct iter *x)
{
	struct run_hook_args a = { 0 };
	int rc;

	a.lines = run_logcat_lines(x->lc, &a.nr_lines);
	a.pids = x->pids;
	a.nr_pids = x->nr_pids;
	a.spans = run_marks_steps(x->marks, &a.nr_spans);
	rc = hooks(x, RUN_HOOK_LOGCAT, &a);
	if (!rc)
		rc = hooks(x, RUN_HOOK_COLLECT, NULL);
	return rc;
}

/* Run `cmd`; a non-zero exit fails the step with its first error line. */
static int
shell_ok(struct iter *x, const char *cmd, struct strbuf *out)
{
	struct adb_shell_result r;
	int rc;

	adb_shell_result_init(&r);
	rc = adb_shell(x->d->dev, cmd, &r);
	if (!rc && r.exit_code != 0) {
		struct strbuf why = STRBUF_INIT;

		strbuf_add(&why, r.err.len ? r.err.buf : r.out.buf,
		    strcspn(r.err.len ? r.err.buf : r.out.buf, "\n"));
		rc = jg_error_set(JG_EGENERIC, "'%s' exited with status %d%s%s",
		    cmd, r.exit_code, why.len ? ": " : "", why.buf);
		strbuf_release(&why);
	}
	if (!rc && out)
		strbuf_add(out, r.out.buf, r.out.len);
	adb_shell_result_release(&r);
	return rc;
}

static void
startup_reset(struct rs_startup *s, enum rs_launch kind)
{
	free(s->launch_state);
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->total_ms = s->wait_ms = s->displayed_ms = s->fully_drawn_ms = NAN;
	s->matrix.application_create_ms = NAN;
	s->matrix.first_activity_create_ms = NAN;
	s->matrix.startup_duration_ms = NAN;
	s->matrix.warm = RS_UNKNOWN;
}

/* Remember `pid` as one of the app's for this iteration. */
static void
add_pid(struct iter *x, long pid)
{
	for (size_t i = 0; i < x->nr_pids; i++)
		if (x->pids[i] == pid)
			return;
	if (pid > 0 && pid <= 999999999 && x->nr_pids < MAX_APP_PIDS)
		x->pids[x->nr_pids++] = (int)pid;
}

/*
 * `pidof PKG` after a launch, outside scenes: the app's pid, for the
 * sources that must tell its log lines from other processes'.  It
 * prints nothing and exits 1 when no such process runs: no pid, no
 * error.
 */
static int
learn_pids(struct iter *x)
{
	struct strbuf cmd = STRBUF_INIT;
	struct adb_shell_result r;
	int rc;

	if (x->scene >= 0)
		return 0;
	strbuf_addstr(&cmd, "pidof ");
	sh_quote(&cmd, x->d->package);
	adb_shell_result_init(&r);
	rc = adb_shell(x->d->dev, cmd.buf, &r);
	for (const char *p = r.out.buf; !rc && p && *p; ) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		add_pid(x, pid);
		p = end;
	}
	adb_shell_result_release(&r);
	strbuf_release(&cmd);
	return rc;
}

/* am prints "Error: ..." / "Error type 3" and still exits 0. */
static int
am_error(const char *out)
{
	for (const char *p = out; p && *p; ) {
		if (!strncmp(p, "Error", 5)) {
			size_t n = strcspn(p, "\n");

			while (n && p[n - 1] == '\r')
				n--;
			return jg_error_set(JG_EGENERIC, "am start: %.*s",
			    (int)n, p);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static int
step_launch(struct iter *x, const struct scenario_step *st)
{
	static const enum rs_launch kinds[] = {
		[SCN_COLD] = RS_LAUNCH_COLD, [SCN_WARM] = RS_LAUNCH_WARM,
		[SCN_HOT] = RS_LAUNCH_HOT,
	};
	struct run_dev *d = x->d;
	const char *act = st->text ? st->text : d->ctx->cfg->activity;
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	int rc;

	if (!act)
		act = d->launcher;
	if (!act)
		return jg_error_set(JG_ENOTFOUND, "no launcher activity for "
		    "'%s': name one after 'launch' or set \"activity\" in the "
		    "configuration", d->package);
	if (st->mode == SCN_COLD) {
		strbuf_addstr(&cmd, "am force-stop ");
		sh_quote(&cmd, d->package);
		rc = shell_ok(x, cmd.buf, NULL);
		if (rc)
			goto out;
		strbuf_setlen(&cmd, 0);
	}
	strbuf_addstr(&cmd, "am start -W -n ");
	{
		struct strbuf comp = STRBUF_INIT;

		run_component(&comp, d->package, act);
		sh_quote(&cmd, comp.buf);
		strbuf_release(&comp);
	}
	rc = shell_ok(x, cmd.buf, &out);
	if (!rc)
		rc = am_error(out.buf);
	if (rc)
		goto out;
	startup_reset(&x->it->startup, kinds[st->mode]);
	rc = hooks(x, RUN_HOOK_LAUNCH, &(struct run_hook_args){ .text = out.buf,
	    .len = out.len });
	if (!rc)
		rc = learn_pids(x);
out:
	strbuf_release(&cmd);
	strbuf_release(&out);
	return rc;
}

/* `dumpsys gfxinfo PKG reset|framestats`, its Uptime into *mono_ms. */
static int
gfxinfo(struct iter *x, const char *arg, struct strbuf *out, double *mono_ms)
{
	struct strbuf cmd = STRBUF_INIT;
	const char *name = x->it->scenes[x->scene].name;
	double t0 = run_now_ms();
	int rc;

	strbuf_addstr(&cmd, "dumpsys gfxinfo ");
	sh_quote(&cmd, x->d->package);
	strbuf_addf(&cmd, " %s", arg);
	rc = shell_ok(x, cmd.buf, out);
	strbuf_release(&cmd);
	if (rc)
		return rc;
	gfxinfo_app_pids(out->buf, out->len, x->d->package, x->pids,
	    &x->nr_pids, MAX_APP_PIDS);
	if (gfxinfo_uptime(out->buf, out->len, mono_ms)) {
		size_t n = strcspn(out->buf, "\n");

		return jg_error_set(JG_ENOTFOUND, "scene '%s': no gfxinfo for "
		    "'%s' (%.*s)", name, x->d->package, (int)(n > 80 ? 80 : n),
		    n ? out->buf : "no output");
	}
	run_dev_clock(x->d, out->buf, out->len, (t0 + run_now_ms()) / 2);
	if (x->instrument) {
		/*
		 * A test's edges are the step's frame reads: the start's
		 * reset drops what was drawn since the last one (run_markers.c
		 * counts it unseen), the end's framestats holds the test's.
		 * Each is placed at its Uptime alone: it ran between the
		 * test's status lines, not while the test drew, and the
		 * host's estimate of when it was asked is coarser than that.
		 */
		if (x->feed)
			run_marks_add_read(x->marks, out->buf, out->len,
			    x->d->package, NAN, *mono_ms);
		if (isnan(x->instr_from))
			x->instr_from = *mono_ms;
		x->instr_to = *mono_ms;
	}
	return 0;
}

static int
step_scene(struct iter *x, const char *name)
{
	struct strbuf out = STRBUF_INIT;
	struct rs_scene *sc;
	double t;
	int rc;

	rs_iteration_add_scene(x->it, name);
	x->scene = (long)x->it->nr_scenes - 1;
	rc = gfxinfo(x, "reset", &out, &t);
	if (!rc) {
		sc = &x->it->scenes[x->scene];
		sc->start_mono_ms = t;
		rc = hooks(x, RUN_HOOK_SCENE_BEGIN, &(struct run_hook_args){
		    .scene = sc });
	}
	strbuf_release(&out);
	return rc;
}

static int
step_scene_end(struct iter *x)
{
	struct strbuf out = STRBUF_INIT;
	double t;
	int rc = gfxinfo(x, "framestats", &out, &t);

	if (!rc) {
		struct rs_scene *sc = &x->it->scenes[x->scene];

		sc->end_mono_ms = t;
		rc = hooks(x, RUN_HOOK_SCENE_END, &(struct run_hook_args){
		    .scene = sc, .text = out.buf, .len = out.len });
	}
	x->scene = -1;
	strbuf_release(&out);
	return rc;
}

/* ---- lent to run_instrument.c (struct run_scenes, run_int.h) ---- */

static int
lent_begin(void *x, const char *name)
{
	return step_scene(x, name);
}

static int
lent_end(void *x)
{
	return step_scene_end(x);
}

static void
lent_abandon(void *x)
{
	((struct iter *)x)->scene = -1;
}

static bool
lent_expired(void *x)
{
	return run_now_ms() > ((struct iter *)x)->deadline;
}

static int
lent_crash(void *x, struct strbuf *why)
{
	return run_logcat_failed(((struct iter *)x)->lc, why);
}

/*
 * The tests, with markers.trace inside an atrace capture as an `exec`
 * step has: started before `am instrument`, stopped once it ended, its
 * sections placed by the tests' frame reads.  Whatever the capture
 * did, the step's span is noted for the sources (markers.matrix).
 */
static int
step_instrument(struct iter *x, const struct scenario_step *st)
{
	struct run_scenes s = { x, x->d, x->it, lent_begin, lent_end,
	    lent_abandon, lent_expired, lent_crash };
	const char *name = scenario_name(x->scn);
	bool tracing = false;
	int rc = 0, trc;

	if (run_marks_want_trace(x->d, name) &&
	    (rc = run_marks_trace_start(x->d, name, &tracing)))
		return rc;
	x->instrument = true;
	x->feed = tracing;
	x->instr_from = x->instr_to = NAN;
	rc = run_instrument_step(&s, st);
	x->instrument = x->feed = false;
	if (tracing) {
		trc = run_marks_trace_stop(x->d, x->marks, name,
		    !rc || rc == JG_EGENERIC);
		if (!rc || rc == JG_EGENERIC)
			rc = trc ? trc : rc;
	}
	if (!isnan(x->instr_from))
		run_marks_span(x->marks, x->instr_from, x->instr_to, true);
	return rc;
}

/* `wait MS`, cut short by a crash or ANR: the next step reports it. */
static int
plain_wait(struct iter *x, const struct scenario_step *st)
{
	double until = run_now_ms() + st->ms;

	for (;;) {
		double left = until - run_now_ms();
		int rc;

		if (left <= 0 || run_logcat_failed(x->lc, NULL))
			return 0;
		if ((rc = run_sleep_ms(left < 50 ? left : 50)))
			return rc;
	}
}

/* `wait idle` inside a scene: listen to the stream, ask nothing. */
static int
scene_idle(struct iter *x, const struct scenario_step *st)
{
	double start = run_now_ms(), until = start + st->ms;

	for (;;) {
		double now = run_now_ms();
		double quiet = now - run_logcat_last_ms(x->lc);
		int rc;

		if (now >= until ||
		    (now - start >= SCENE_IDLE_MS && quiet >= SCENE_IDLE_MS))
			return 0;
		if (run_logcat_failed(x->lc, NULL))
			return 0;
		if ((rc = run_sleep_ms(50)))
			return rc;
	}
}

static int
step_input(struct iter *x, const struct scenario_step *st)
{
	struct strlist cmds = STRLIST_INIT;
	int rc = run_input_commands(st, x->d->props.width, x->d->props.height,
	    &cmds);

	/* Issue 20: the frame timeline marks each input step of a scene. */
	if (!rc && x->scene >= 0)
		run_note_input(x->d, &x->it->scenes[x->scene], st);

	for (size_t i = 0; !rc && i < cmds.nr; i++)
		rc = shell_ok(x, cmds.items[i], NULL);
	strlist_release(&cmds);
	return rc;
}

static int
step_run(struct iter *x, const struct scenario_step *st)
{
	struct strbuf cmd = STRBUF_INIT;
	int rc;

	if (run_step_is_input(st))
		return step_input(x, st);
	switch (st->kind) {
	case SCN_LAUNCH:
		return step_launch(x, st);
	case SCN_STOP:
	case SCN_CLEAR:
		strbuf_addstr(&cmd, st->kind == SCN_STOP ? "am force-stop " :
		    "pm clear ");
		sh_quote(&cmd, x->d->package);
		rc = shell_ok(x, cmd.buf, NULL);
		strbuf_release(&cmd);
		return rc;
	case SCN_SCENE:
		return step_scene(x, st->text);
	case SCN_INSTRUMENT:
		return step_instrument(x, st);
	case SCN_SCENE_END:
		return step_scene_end(x);
	case SCN_TAP_TEXT:
	case SCN_TAP_ID:
	case SCN_TAP_DESC:
		return run_ui_tap(x->d, st);
	case SCN_WAIT:
		return plain_wait(x, st);
	case SCN_WAIT_IDLE:
		return x->scene >= 0 ? scene_idle(x, st) :
		    run_ui_wait_idle(x->d, st);
	case SCN_WAIT_ACTIVITY:
		return run_ui_wait_activity(x->d, st, false);
	case SCN_EXPECT_ACTIVITY:
		return run_ui_wait_activity(x->d, st, true);
	case SCN_WAIT_TEXT:
		return run_ui_wait_text(x->d, st);
	case SCN_EXEC:
		return run_exec_step(x->d, x->lc, x->marks, st, x->scene >= 0,
		    x->deadline, scenario_name(x->scn), x->it->index);
	default:
		return 0;	/* repeat markers never come from the cursor */
	}
}

/* "shop.scn:12: tap text \"Feed\": " in front of the current message. */
static void
blame(const struct scenario_step *st)
{
	struct strbuf sb = STRBUF_INIT;

	scenario_format_step(st, &sb);
	jg_error_prefix("%s:%d: %s", st->file, st->line, sb.buf);
	strbuf_release(&sb);
}

/* Record why the iteration failed, preferring a crash or ANR report. */
static void
record_failure(struct iter *x, const char *msg)
{
	struct strbuf why = STRBUF_INIT, ex = STRBUF_INIT;
	double until = run_now_ms() + CRASH_GRACE_MS;

	/* A failing step is often the crash seen from the other side. */
	while (!run_logcat_failed(x->lc, NULL) && run_now_ms() < until &&
	    !run_interrupted())
		run_sleep_ms(50);
	if (run_logcat_failed(x->lc, &why) && msg && !strstr(msg, why.buf)) {
		strbuf_addstr(&why, " (then ");
		strbuf_addstr(&why, msg);
		strbuf_addch(&why, ')');
	} else if (msg) {
		/* No crash, or a message that already tells it (instrument). */
		strbuf_reset(&why);
		strbuf_addstr(&why, msg);
	}
	x->it->ok = false;
	rs_str_set(&x->it->error, why.buf);
	run_logcat_excerpt(x->lc, &ex, EXCERPT_LINES);
	rs_str_set(&x->it->logcat_excerpt, ex.len ? ex.buf : NULL);
	strbuf_release(&why);
	strbuf_release(&ex);
}

/* The steps; 0, a step failure (recorded), or a device/interrupt code. */
static int
run_steps(struct iter *x)
{
	struct scenario_cursor cur;
	const struct scenario_step *st;
	struct strbuf why = STRBUF_INIT;
	int rc = 0;

	scenario_cursor_init(&cur, x->scn);
	while ((st = scenario_cursor_next(&cur))) {
		if (run_interrupted()) {
			rc = jg_error_set(JG_EINTR, "interrupted");
			break;
		}
		if (run_logcat_failed(x->lc, &why)) {
			rc = jg_error_set(JG_EGENERIC, "%s", why.buf);
			break;
		}
		if (run_now_ms() > x->deadline) {
			rc = jg_error_set(JG_ETIMEOUT, "iteration timed out "
			    "after %d s (devices.iteration_timeout_s)",
			    x->d->ctx->cfg->devices.iteration_timeout_s);
			break;
		}
		rc = step_run(x, st);
		if (rc) {
			if (rc != JG_EINTR)
				blame(st);
			break;
		}
	}
	strbuf_release(&why);
	return rc;
}

int
run_iteration(struct run_dev *d, const struct scenario *scn,
    struct rs_iteration *it)
{
	struct iter x = { .d = d, .scn = scn, .it = it, .scene = -1 };
	double t0 = run_now_ms();
	int rc, stop_rc;
	long trace_pid = 0;
	bool tracing = false;

	x.deadline = t0 + 1000.0 * d->ctx->cfg->devices.iteration_timeout_s;
	if (d->have_offset)
		it->started_mono_ms = t0 + d->clock_offset;
	rc = run_logcat_start(&x.lc, d, d->buffers, d->package);
	if (rc) {
		if (device_gone(d, rc))
			return rc;
		rs_str_set(&it->error, jg_error_msg());
		it->ok = false;
		it->duration_ms = run_now_ms() - t0;
		return 0;
	}
	it->ok = true;
	x.marks = run_marks_new();
	rc = hooks(&x, RUN_HOOK_ITERATION_BEGIN, NULL);
	/* diagnose.trace's iteration: perfetto around the steps. */
	if (!rc && d->ctx->opts->trace) {
		int trc = run_trace_begin(d, scenario_name(scn), &trace_pid);

		if (trc < 0 && device_gone(d, trc)) {
			rc = trc;
			goto out;
		}
		tracing = trc == 0;
	}
	if (!rc)
		rc = run_steps(&x);
	if (tracing) {
		int trc = run_trace_end(d, scenario_name(scn), trace_pid);

		if (!rc && trc < 0 && device_gone(d, trc))
			rc = trc;
	}
	if (rc && device_gone(d, rc))
		goto out;
	if (rc) {
		record_failure(&x, jg_error_msg());
		rc = 0;
	}
	/*
	 * A first launch waits for its "Fully drawn" too, once: an app that
	 * reports it may do so seconds after "Displayed", and one that does
	 * not costs DRAIN_MS a run, not an iteration.
	 */
	stop_rc = run_logcat_stop(x.lc, DRAIN_MS,
	    d->fully_drawn != RUN_FD_ABSENT);
	if (run_logcat_launch_lines(x.lc) & 2)
		d->fully_drawn = RUN_FD_REPORTED;
	else if (run_logcat_launch_lines(x.lc) == 1 &&
	    d->fully_drawn == RUN_FD_UNKNOWN)
		d->fully_drawn = RUN_FD_ABSENT;
	if (stop_rc && device_gone(d, stop_rc)) {
		rc = stop_rc;
		goto out;
	}
	if (it->ok && run_logcat_failed(x.lc, NULL))
		record_failure(&x, NULL);
	/* Marked scenes before the hooks that place events in scenes. */
	if (it->ok && run_marks_active(x.marks)) {
		const struct logcat_line *lines;
		size_t nr;

		lines = run_logcat_lines(x.lc, &nr);
		if (run_marks_scenes(x.marks, lines, nr, it,
		    d->props.refresh_hz, d->res, scenario_name(scn)))
			record_failure(&x, jg_error_msg());
	}
	/* Whatever the steps did: stop what the sources started. */
	rc = hooks(&x, RUN_HOOK_ITERATION_END, NULL);
	if (rc && device_gone(d, rc))
		goto out;
	if (rc && it->ok)
		record_failure(&x, jg_error_msg());
	rc = 0;
	if (run_interrupted()) {
		rc = jg_error_set(JG_EINTR, "interrupted");
		goto out;
	}
	rc = hooks_after(&x);
	if (rc && device_gone(d, rc))
		goto out;
	if (rc && it->ok)
		record_failure(&x, jg_error_msg());
	rc = 0;
out:
	if (rc == JG_EINTR) {
		it->ok = false;
		rs_str_set(&it->error, "interrupted");
	} else if (rc) {
		it->ok = false;
		rs_str_set(&it->error, jg_error_msg());
	}
	it->duration_ms = run_now_ms() - t0;
	run_logcat_free(x.lc);
	run_marks_free(x.marks);
	return rc;
}
