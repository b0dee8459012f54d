/*
 * matrix_apply.c: Matrix trace issues into the results model.
 *
 *	Trace_FPS         an fps slice (app_scene, fps, dropLevel and
 *	                  dropSum per level, 2.1+'s FrameMetrics phase
 *	                  durations) of a scene, as below
 *	Trace_EvilMethod  a block of kind `detail` (NORMAL, ANR, LAG, ...)
 *	Trace_StartUp     it->startup.matrix (the iteration's last one wins,
 *	                  as the iteration records its last launch)
 *
 * Times.  An issue carries the wall clock only ("time"); its device
 * monotonic time is the logcat line's.  Matrix reports a slow message
 * when it ends (NORMAL, STARTUP: start = line - cost), a Looper ANR 5 s
 * after it began (cost 5000: the same rule) and a lag 2 s after it began
 * (LAG, LAG_IDLE_HANDLER, LAG_TOUCH: start = line - 2000, Matrix's default
 * threshold; they carry no cost, so their wall_ms is unknown).  Other
 * details (SIGNAL_ANR, PRIORITY_MODIFIED, ...) start at the line.
 *
 * Scenes.  A block belongs to the scene whose window holds its start,
 * else to the one that holds (with grace) its report.  An FPS slice
 * counts an activity's frames up to its report, and 2.1+ reports when the
 * activity pauses: at the first frame of the next activity, which is
 * often already inside the next scene (a runner starts a scene once the
 * activity is resumed, before it has drawn).  So a slice of activity A
 * reported at T goes to
 *
 *	1. the latest scene that ended before T, if A drew in it (its
 *	   app_scenes as the frame sources filled them) and T is not more than
 *	   grace_ms into a scene of its own: a flush of earlier frames;
 *	2. else the scene whose window holds T;
 *	3. else the scene that ended at most grace_ms before T;
 *	4. else nowhere: frames outside every scene are not recorded.
 *
 * A slice covers Matrix's window (up to 10 s, or to the pause), which
 * need not match jankgate's scene.
 *
 * With markers.matrix, an FPS slice or a block reported while a step of
 * the team's own tests drove the app (an `exec` step outside a scene,
 * an `instrument` step: a->steps), or up to grace_ms after one ended and
 * in no scene's window, goes to the scene named after the activity it
 * names instead (mx_scene_name), made when the iteration has none of
 * that name: the tests chose the screens, and Matrix's reports name
 * them.  An activity seen twice, or reported in 10 s slices, is one
 * scene of several slices, as its name is one baseline; a scene of that
 * name the scenario, a test or a marker made takes them too.  Such a
 * scene has no window (Matrix reports when a slice ends, not when it
 * began), so no other source places anything in it by time, and no
 * frames: its fps, dropped frames and blocks are Matrix's alone.
 *
 * Stacks.  With a methodMapping.txt the method-trace `stack` is decoded
 * (methodmap.h); without one, a Java `threadStack` is preferred to bare
 * method ids when the issue has both (ANR).  Every style of threadStack
 * becomes Java's "class.method(...)" frames, so that signatures of the
 * same stall agree across details.  Ids the mapping lacks stay ids, with
 * a warning: the mapping is likely another build's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix_int.h"
#include "methodmap.h"
#include "results.h"
#include "signature.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "strlist.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

/* LooperAnrTracer's DEFAULT_NORMAL_LAG: a lag is reported this late. */
#define LAG_REPORT_MS 2000.0
#define MAX_SCENE_NAME 100	/* as the scenario language's */

/* The scene an event belongs to, or NULL for the iteration. */
static struct rs_scene *
scene_of(const struct mx_apply *a, double start, double report,
    const char *app_scene)
{
	struct rs_scene *sc = NULL;

	if (a->by_app_scene) {
		if (!app_scene)
			return NULL;
		sc = rs_iteration_find_scene(a->it, app_scene);
		if (!sc)
			sc = rs_iteration_add_scene(a->it, app_scene);
	} else {
		if (!isnan(start))
			sc = rs_iteration_scene_at(a->it, start, 0);
		if (!sc && !isnan(report))
			sc = rs_iteration_scene_at(a->it, report, a->grace_ms);
	}
	if (sc && app_scene && strlist_find(&sc->app_scenes, app_scene) < 0)
		strlist_add(&sc->app_scenes, app_scene);
	return sc;
}

static void
drops(struct rs_drops *d, const struct mx_json *j, const char *obj)
{
	static const char *const names[5] = { "DROPPED_BEST",
		"DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH",
		"DROPPED_FROZEN" };
	double *field[5] = { &d->best, &d->normal, &d->middle, &d->high,
		&d->frozen };
	char key[64];

	for (int i = 0; i < 5; i++) {
		snprintf(key, sizeof(key), "%s.%s", obj, names[i]);
		*field[i] = mx_json_number(j, key);
	}
}

/* Say what a cut issue lost, once per scope and kind. */
static void
warn_cut(const struct mx_apply *a, const struct mx_issue *is,
    const struct rs_scene *sc, const char *what, int used)
{
	if (!is->cut)
		return;
	/* Device strings of any length: the warning shows a bounded part. */
	if (is->unclosed)
		source_warn(a->ctx, sc, "matrix", "%.40s%s%.40s issue's JSON "
		    "does not close: the lines after it go on with it but "
		    "end first (a paste cut short?): %s",
		    is->tag_name ? is->tag_name : "Matrix", what ? " " : "",
		    what ? what : "", used ? "kept as far as it parses" :
		    "nothing usable, ignored");
	else if (is->line_len < MX_LOGCAT_CUT_MIN)
		source_warn(a->ctx, sc, "matrix", "%.40s%s%.40s issue ends "
		    "before its JSON closes, on a line of %zu bytes, short of "
		    "logcat's 4 KB entry limit (cut when saved or pasted?): %s",
		    is->tag_name ? is->tag_name : "Matrix", what ? " " : "",
		    what ? what : "", is->line_len, used ? "kept as far as it "
		    "parses" : "nothing usable, ignored");
	else if (used)
		source_warn(a->ctx, sc, "matrix", "%.40s%s%.40s issue cut at "
		    "the logcat entry limit: kept as far as it parses",
		    is->tag_name ? is->tag_name : "Matrix",
		    what ? " " : "", what ? what : "");
	else
		source_warn(a->ctx, sc, "matrix", "%.40s issue cut at the "
		    "logcat entry limit before anything usable: ignored",
		    is->tag_name ? is->tag_name : "Matrix");
}

void
mx_apply_begin(struct mx_apply *a)
{
	a->nr_known = a->it->nr_scenes;
	a->known = xcalloc(a->nr_known ? a->nr_known : 1, sizeof(*a->known));
	for (size_t i = 0; i < a->nr_known; i++)
		a->known[i] = a->it->scenes[i].app_scenes.nr;
}

void
mx_apply_end(struct mx_apply *a)
{
	free(a->known);
	a->known = NULL;
	a->nr_known = 0;
}

/* Did a frame source see `app_scene` drawing in `sc`? */
static bool
drew_in(const struct mx_apply *a, const struct rs_scene *sc,
    const char *app_scene)
{
	size_t i = (size_t)(sc - a->it->scenes);
	long at = strlist_find(&sc->app_scenes, app_scene);

	/* Not Matrix's own entries: those would feed back into rule 1. */
	return at >= 0 && i < a->nr_known && (size_t)at < a->known[i];
}

int
mx_scene_name(struct strbuf *out, const char *app_scene)
{
	const char *dot = strrchr(app_scene, '.');
	const char *s = dot && dot[1] ? dot + 1 : app_scene;
	struct strbuf sb = STRBUF_INIT;
	size_t a = 0, b;

	utf8_add_printable(&sb, s, strlen(s), 0);
	while (a < sb.len && sb.buf[a] == ' ')
		a++;
	b = sb.len;
	while (b > a && sb.buf[b - 1] == ' ')
		b--;
	if (b - a > MAX_SCENE_NAME) {
		b = a + MAX_SCENE_NAME;
		/* Back to the first byte of the character cut. */
		while (b > a && ((unsigned char)sb.buf[b] & 0xc0) == 0x80)
			b--;
		while (b > a && sb.buf[b - 1] == ' ')
			b--;
	}
	if (b > a)
		strbuf_add(out, sb.buf + a, b - a);
	strbuf_release(&sb);
	return b > a ? 0 : -1;
}

/* markers.matrix's scene of a slice of `app_scene` at `t`, or NULL. */
static struct rs_scene *
own_scene(const struct mx_apply *a, double t, const char *app_scene)
{
	struct strbuf name = STRBUF_INIT;
	struct rs_scene *sc = NULL;
	bool in = false, late = false;

	if (!a->own_scenes || !app_scene || isnan(t))
		return NULL;
	for (size_t i = 0; i < a->nr_steps; i++) {
		if (a->steps[i].from <= t && t <= a->steps[i].to)
			in = true;
		else if (a->steps[i].to < t && t <= a->steps[i].to +
		    a->grace_ms)
			late = true;
	}
	if (!in && !(late && !rs_iteration_scene_at(a->it, t, 0)))
		return NULL;
	if (!mx_scene_name(&name, app_scene)) {
		sc = rs_iteration_find_scene(a->it, name.buf);
		if (!sc)
			sc = rs_iteration_add_scene(a->it, name.buf);
		if (strlist_find(&sc->app_scenes, app_scene) < 0)
			strlist_add(&sc->app_scenes, app_scene);
	}
	strbuf_release(&name);
	return sc;
}

/* The scene of an FPS slice of `app_scene` reported at `t` (above). */
static struct rs_scene *
fps_scene(const struct mx_apply *a, double t, const char *app_scene)
{
	struct rs_scene *holds = NULL, *before = NULL;

	if ((holds = own_scene(a, t, app_scene)))
		return holds;
	if (a->by_app_scene || isnan(t))
		return scene_of(a, NAN, t, app_scene);
	for (size_t i = 0; i < a->it->nr_scenes; i++) {
		struct rs_scene *sc = &a->it->scenes[i];

		if (isnan(sc->start_mono_ms) || isnan(sc->end_mono_ms))
			continue;
		if (t >= sc->start_mono_ms && t <= sc->end_mono_ms)
			holds = sc;
		else if (sc->end_mono_ms < t && (!before ||
		    sc->end_mono_ms > before->end_mono_ms))
			before = sc;
	}
	if (before && app_scene && drew_in(a, before, app_scene) &&
	    (!holds || t - holds->start_mono_ms <= a->grace_ms))
		return before;
	return scene_of(a, NAN, t, app_scene);
}

/*
 * Matrix 2.1+'s FrameMetrics durations (FORMATS §1.3): each phase's mean
 * per frame of the slice, in ns, into ms (issue 20).  Older versions
 * report none; a slice cut before them keeps none.
 */
static void
fps_phases(struct rs_phase_means *m, const struct mx_json *j)
{
	static const char *const keys[RS_NR_PHASES] = {
		[RS_PHASE_WAIT] = "UNKNOWN_DELAY_DURATION",
		[RS_PHASE_INPUT] = "INPUT_HANDLING_DURATION",
		[RS_PHASE_ANIMATION] = "ANIMATION_DURATION",
		[RS_PHASE_LAYOUT] = "LAYOUT_MEASURE_DURATION",
		[RS_PHASE_DRAW] = "DRAW_DURATION",
		[RS_PHASE_SYNC] = "SYNC_DURATION",
		[RS_PHASE_COMMAND] = "COMMAND_ISSUE_DURATION",
		[RS_PHASE_GPU] = "SWAP_BUFFERS_DURATION",
	};

	for (int p = 0; p < RS_NR_PHASES; p++) {
		double ns = mx_json_number(j, keys[p]);

		if (isnan(ns) || ns < 0)
			continue;
		m->ms[p] = ns / 1e6;
		m->present = true;
	}
}

static int
apply_fps(struct mx_apply *a, const struct mx_issue *is,
    struct rs_scene **scene)
{
	const struct mx_json *j = &is->json;
	const char *app_scene = mx_json_string(j, "scene");
	struct rs_fps_slice *s;
	struct rs_scene *sc;

	if (!app_scene && isnan(mx_json_number(j, "fps")))
		return 0;	/* cut before anything a slice holds */
	sc = fps_scene(a, is->mono_ms, app_scene);
	if (!sc) {
		a->nr_outside++;
		return 0;
	}
	*scene = sc;
	s = rs_fps_add_slice(&sc->fps, "matrix");
	rs_str_set(&s->app_scene, app_scene);
	s->fps = mx_json_number(j, "fps");
	drops(&s->drop_level, j, "dropLevel");
	drops(&s->drop_sum, j, "dropSum");
	fps_phases(&s->phases, j);
	return 1;
}

static int
is_lag(const char *detail)
{
	return !strcmp(detail, "LAG") || !strcmp(detail, "LAG_IDLE_HANDLER") ||
	    !strcmp(detail, "LAG_TOUCH");
}

/* The block's stack from the issue's `stack` and `threadStack`. */
static void
block_stack(const struct mx_apply *a, struct rs_block *b,
    const struct mx_json *j, bool json_cut)
{
	const struct mx_member *st = mx_json_get(j, "stack");
	const struct mx_member *ts = mx_json_get(j, "threadStack");

	if (st && st->type != MX_STRING)
		st = NULL;
	if (ts && ts->type != MX_STRING)
		ts = NULL;
	if (ts && (!st || !a->map)) {
		b->truncated = mx_thread_stack(&b->stack, ts->string, ts->cut);
	} else if (st) {
		b->truncated = methodmap_decode(a->map, st->string,
		    strlen(st->string), st->cut, &b->stack);
	} else {
		/* Cut before any stack: the block lost it to the cut. */
		b->truncated = json_cut;
	}
}

/* Did the mapping lack a method of the stack (a stale mapping)? */
static bool
has_unknown_id(const struct strlist *stack)
{
	for (size_t i = 0; i < stack->nr; i++)
		if (!strncmp(stack->items[i], "method#", 7))
			return true;
	return false;
}

static int
apply_evil(struct mx_apply *a, const struct mx_issue *is,
    struct rs_scene **scene)
{
	const struct mx_json *j = &is->json;
	const char *detail = mx_json_string(j, "detail");
	const char *app_scene = mx_json_string(j, "scene");
	double cost = mx_json_number(j, "cost"), start = is->mono_ms;
	struct rs_scene *sc;
	struct rs_block *b;

	if (!detail && !j->nr)
		return 0;	/* cut inside its header: nothing to keep */
	if (!detail)
		detail = "UNKNOWN";
	if (!isnan(cost))
		start -= cost;
	else if (is_lag(detail))
		start -= LAG_REPORT_MS;
	sc = own_scene(a, is->mono_ms, app_scene);
	if (!sc)
		sc = scene_of(a, start, is->mono_ms, app_scene);
	*scene = sc;
	b = sc ? rs_scene_add_block(sc, "matrix") :
	    rs_iteration_add_block(a->it, "matrix");
	rs_str_set(&b->kind, detail);
	b->start_mono_ms = start;
	b->wall_ms = cost;
	/*
	 * thread_ms stays unknown: Matrix reports no thread time, only a
	 * rounded CPU "usage" percentage (0.5.2 to 2.0.8), and cost x usage
	 * would be a number nobody measured under a name that says it was.
	 */
	block_stack(a, b, j, is->cut);
	signature_set(b);
	if (a->map && has_unknown_id(&b->stack))
		source_warn(a->ctx, sc, "matrix", "method ids missing from "
		    "source_options.method_mapping: is it this build's "
		    "methodMapping.txt?");
	return 1;
}

static int
apply_startup(struct mx_apply *a, const struct mx_issue *is)
{
	const struct mx_json *j = &is->json;
	struct rs_matrix_startup *m = &a->it->startup.matrix;

	if (!mx_json_get(j, "application_create") &&
	    !mx_json_get(j, "startup_duration"))
		return 0;
	a->it->startup.present = true;
	m->present = true;
	m->application_create_ms = mx_json_number(j, "application_create");
	m->first_activity_create_ms = mx_json_number(j,
	    "first_activity_create");
	m->startup_duration_ms = mx_json_number(j, "startup_duration");
	m->warm = mx_json_bool(j, "is_warm_start_up");
	return 1;
}

int
mx_apply_issue(struct mx_apply *a, const struct mx_issue *is)
{
	struct rs_scene *sc = NULL;
	const char *what = NULL;
	size_t outside = a->nr_outside;
	int used = 0;

	if (is->duplicate)
		return 0;
	switch (is->tag) {
	case MX_TAG_FPS:
		used = apply_fps(a, is, &sc);
		break;
	case MX_TAG_EVIL:
		used = apply_evil(a, is, &sc);
		what = mx_json_string(&is->json, "detail");
		break;
	case MX_TAG_STARTUP:
		used = apply_startup(a, is);
		break;
	case MX_TAG_OTHER:
		/* Another plugin's: only a cut one of unknown kind is news. */
		if (is->tag_name)
			return 0;
		break;
	}
	if (a->nr_outside > outside)
		return 0;	/* not measured, cut or not */
	if (is->cut) {
		a->nr_cut++;
		if (!used)
			a->nr_lost++;
		warn_cut(a, is, sc, what, used);
	}
	return used;
}
