/*
 * run_instrument.c: the `instrument` step, a test APK's instrumentation
 * tests as scenes (issue 52).
 *
 * Before any device (run_tapk_probe): when a selected scenario has an
 * `instrument` step, `test_apk` must be set and name a test APK (or split
 * set) whose <instrumentation> targets the configured app, with the
 * runner each step names; otherwise the run is refused (exit 2).  With
 * the app, each device installs it (run_tapk_install), as `apk` is.
 *
 * The step runs, on a connection of its own,
 *
 *	am instrument -w -r [-e KEY VALUE]... [-e class T1,T2] TESTPKG/RUNNER
 *
 * and reads its status protocol (instrument.h) as it comes.  When a test
 * starts, its scene begins (`dumpsys gfxinfo PKG reset`, as `scene`
 * does); when it ends, the scene ends (`framestats`).  So a scene window
 * is from the test's start status to its end status, and nothing of
 * jankgate's reaches the device between them: the test's own input is
 * all that runs.  The start status is printed before the test's setup
 * and body, so what the test renders is inside; what the runner renders
 * between the end status and the dump (the next test's first moments,
 * when it starts at once) is counted with the test that ended.
 *
 * A test's scene is named SimpleClass#method (FeedTest#scrollFeed), the
 * form baselines keep across package renames of the test code; two
 * tests of one name in an iteration fail it.  The iteration fails, after
 * the instrumentation has finished (the other tests are still measured),
 * when a test failed (-1, -2: its message, its stack kept as the
 * iteration's test_stack), when the app crashed during a test (named as
 * such, with the exception the log showed), when the runner cannot be
 * found, or when the output ends before INSTRUMENTATION_CODE.  Ignored
 * and assumption-failed tests are measured scenes and no failure.
 */
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "apkset.h"
#include "config.h"
#include "error.h"
#include "instrument.h"
#include "results.h"
#include "run_int.h"
#include "scenario.h"
#include "shquote.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define READ_SLICE_MS	200	/* how often a quiet run is checked on */
#define MAX_SCENE_NAME	100	/* as the scenario language's */
#define CRASH_WAIT_MS	1000	/* for the crash report in the log */

struct run_tapk {
	struct strlist files;
	char *package;		/* the test package */
	char *runner;		/* its instrumentation class, in full */
};

/* ".Runner" in package `pkg` as a full class name, allocated. */
static char *
full_class(const char *pkg, const char *cls)
{
	return cls[0] == '.' ? xasprintf("%s%s", pkg, cls) : xstrdup(cls);
}

/* The first `instrument` step of `scn`, or NULL. */
static const struct scenario_step *
first_instrument(const struct scenario *scn, size_t from, size_t *at)
{
	for (size_t i = from; i < scenario_step_count(scn); i++)
		if (scenario_step(scn, i)->kind == SCN_INSTRUMENT) {
			*at = i;
			return scenario_step(scn, i);
		}
	return NULL;
}

/* Every step's RUNNER must be the test APK's instrumentation. */
static int
check_runners(const struct run_tapk *t, struct scenario *const *scns,
    size_t n)
{
	for (size_t s = 0; s < n; s++) {
		const struct scenario_step *st;
		size_t at = 0;

		for (size_t from = 0; (st = first_instrument(scns[s], from,
		    &at)); from = at + 1) {
			char *want = full_class(t->package, st->text);
			int same = !strcmp(want, t->runner);

			free(want);
			if (!same)
				return jg_error_set(JG_EINVAL, "%s:%d: "
				    "instrument: the test APK's runner is "
				    "'%s', not '%s'", st->file, st->line,
				    t->runner, st->text);
		}
	}
	return 0;
}

int
run_tapk_probe(struct run_tapk **out, const struct config *cfg,
    struct scenario *const *scns, size_t n)
{
	const struct scenario_step *use = NULL;
	struct run_tapk *t;
	struct apkset set;
	size_t at;
	int rc;

	*out = NULL;
	for (size_t s = 0; s < n && !use; s++)
		use = first_instrument(scns[s], 0, &at);
	if (!cfg->test_apk.nr) {
		if (use)
			return jg_error_set(JG_EINVAL, "%s:%d: instrument needs "
			    "the test APK: set \"test_apk\" in '%s'",
			    use->file, use->line, cfg->path);
		return 0;
	}
	if ((rc = apkset_open(&set, &cfg->test_apk, NULL, NULL))) {
		jg_error_prefix("test_apk");
		goto fail;
	}
	if (!set.readable) {
		rc = jg_error_set(JG_EINVAL, "test_apk '%s': cannot read its "
		    "manifest (%s)", set.files.items[0], set.unreadable);
		goto fail;
	}
	if (!set.base.instr_runner || !set.base.instr_target) {
		rc = jg_error_set(JG_EINVAL, "test_apk '%s' is not a test APK: "
		    "its manifest has no <instrumentation> with a "
		    "targetPackage", set.files.items[0]);
		goto fail;
	}
	if (strcmp(set.base.instr_target, cfg->app)) {
		rc = jg_error_set(JG_EMISMATCH, "test_apk '%s' instruments "
		    "'%s', not the configured app '%s'", set.files.items[0],
		    set.base.instr_target, cfg->app);
		goto fail;
	}
	t = xcalloc(1, sizeof(*t));
	strlist_init(&t->files);
	strlist_copy(&t->files, &set.files);
	t->package = xstrdup(set.base.package);
	t->runner = full_class(t->package, set.base.instr_runner);
	apkset_release(&set);
	if ((rc = check_runners(t, scns, n))) {
		run_tapk_free(t);
		return rc;
	}
	*out = t;
	return 0;
fail:
	apkset_release(&set);
	return rc;
}

int
run_check_test_apk(const struct config *cfg, struct scenario *const *scns,
    size_t n)
{
	struct run_tapk *t;
	int rc = run_tapk_probe(&t, cfg, scns, n);

	run_tapk_free(t);
	return rc;
}

void
run_tapk_free(struct run_tapk *t)
{
	if (!t)
		return;
	strlist_release(&t->files);
	free(t->package);
	free(t->runner);
	free(t);
}

int
run_tapk_install(struct run_dev *d)
{
	const struct run_tapk *t = d->ctx->tapk;
	struct adb_install_opts o = { ADB_INSTALL_AUTO, NULL };
	int rc;

	if (!t)
		return 0;
	if (t->files.nr == 1)
		rc = adb_install(d->dev, t->files.items[0], &o);
	else
		rc = adb_install_multiple(d->dev,
		    (const char *const *)t->files.items, t->files.nr, &o);
	if (rc)
		return jg_error_prefix("cannot install the test APK '%s'",
		    t->files.items[0]);
	return 0;
}

void
run_instrument_command(struct strbuf *out, const struct scenario_step *st,
    const char *package)
{
	char *runner = full_class(package, st->text);

	strbuf_addstr(out, "am instrument -w -r");
	for (size_t i = 0; i + 1 < st->nr_extras; i += 2) {
		strbuf_addstr(out, " -e ");
		sh_quote(out, st->extras[i]);
		strbuf_addch(out, ' ');
		sh_quote(out, st->extras[i + 1]);
	}
	if (st->nr_tests) {
		struct strbuf list = STRBUF_INIT;

		for (size_t i = 0; i < st->nr_tests; i++)
			strbuf_addf(&list, "%s%s", i ? "," : "", st->tests[i]);
		strbuf_addstr(out, " -e class ");
		sh_quote(out, list.buf);
		strbuf_release(&list);
	}
	strbuf_addch(out, ' ');
	{
		struct strbuf comp = STRBUF_INIT;

		strbuf_addf(&comp, "%s/%s", package, runner);
		sh_quote(out, comp.buf);
		strbuf_release(&comp);
	}
	free(runner);
}

int
run_instrument_scene_name(struct strbuf *out, const char *cls,
    const char *test)
{
	const char *dot = strrchr(cls, '.');
	size_t start = out->len;

	strbuf_addf(out, "%s#%s", dot ? dot + 1 : cls, test);
	if (out->len - start > MAX_SCENE_NAME)
		return jg_error_set(JG_EINVAL, "test '%s' makes a scene name "
		    "longer than %d bytes", out->buf + start, MAX_SCENE_NAME);
	for (const char *c = out->buf + start; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return jg_error_set(JG_EINVAL, "test '%s#%s' has a "
			    "control character in its name", cls, test);
	return 0;
}

/* What the step learns while the tests run. */
struct watch {
	const struct run_scenes *x;
	bool in_scene;
	struct strbuf failure;		/* the first failed test's message */
	char *stack;			/* and its stack */
	struct strbuf current;		/* the scene of the test running */
};

/* The first line of `s`, at most 200 bytes, appended to `out`. */
static void
first_line(struct strbuf *out, const char *s)
{
	size_t n = strcspn(s, "\n");

	strbuf_add(out, s, n > 200 ? 200 : n);
}

static int
on_test(void *arg, const struct instr_test *t)
{
	struct watch *w = arg;
	struct rs_iteration *it = w->x->it;
	int rc;

	if (!t->end) {
		strbuf_setlen(&w->current, 0);
		if ((rc = run_instrument_scene_name(&w->current, t->cls,
		    t->test)))
			return rc;
		for (size_t i = 0; i < it->nr_scenes; i++)
			if (!strcmp(it->scenes[i].name, w->current.buf))
				return jg_error_set(JG_EINVAL, "test '%s' ran "
				    "twice in one iteration (its scene is "
				    "already measured)", w->current.buf);
		if ((rc = w->x->begin(w->x->x, w->current.buf)))
			return rc;
		w->in_scene = true;
		return 0;
	}
	if (w->in_scene) {
		w->in_scene = false;
		/*
		 * A test that never ended (the app died, the output stopped)
		 * has no frames to read: its scene stays without an end, and
		 * the iteration fails below.
		 */
		if (t->code == INSTR_INCOMPLETE)
			w->x->abandon(w->x->x);
		else if ((rc = w->x->end(w->x->x)))
			return rc;
	}
	if ((t->code == INSTR_FAILURE || t->code == INSTR_ERROR) &&
	    !w->failure.len) {
		strbuf_addf(&w->failure, "test '%s' failed", w->current.buf);
		if (t->stack && *t->stack) {
			strbuf_addstr(&w->failure, ": ");
			first_line(&w->failure, t->stack);
			w->stack = xstrdup(t->stack);
		}
	} else if (t->code == INSTR_INCOMPLETE && !w->failure.len) {
		strbuf_addf(&w->failure, "test '%s' did not finish",
		    w->current.buf);
	}
	return 0;
}

/*
 * Read the instrumentation's output into the parser until it ends.
 * Returns 0, a callback's error, or a device error/interrupt.
 */
static int
follow(const struct run_scenes *x, struct adb_stream *s,
    struct instr_parser *p)
{
	struct strbuf line = STRBUF_INIT;
	int rc;

	for (;;) {
		rc = adb_stream_read_line(s, &line, READ_SLICE_MS);
		if (rc == 1) {
			if ((rc = instr_parser_line(p, line.buf, line.len)))
				break;
			continue;
		}
		if (rc != JG_ETIMEOUT)
			break;
		if (run_interrupted()) {
			rc = jg_error_set(JG_EINTR, "interrupted");
			break;
		}
		if (x->expired(x->x)) {
			rc = jg_error_set(JG_ETIMEOUT, "iteration timed out "
			    "in the instrumentation (devices."
			    "iteration_timeout_s)");
			break;
		}
	}
	strbuf_release(&line);
	return rc;
}

int
run_instrument_step(const struct run_scenes *x,
    const struct scenario_step *st)
{
	struct run_dev *d = x->d;
	const struct run_tapk *t = d->ctx->tapk;
	struct watch w = { x, false, STRBUF_INIT, NULL, STRBUF_INIT };
	struct strbuf cmd = STRBUF_INIT, why = STRBUF_INIT;
	struct instr_parser *p = instr_parser_new(on_test, &w);
	struct adb_stream *s = NULL;
	const struct instr_run *r;
	int rc;

	if (!t) {
		rc = jg_error_set(JG_EINVAL, "no test APK");
		goto out;
	}
	run_instrument_command(&cmd, st, t->package);
	if ((rc = adb_stream_open(&s, d->dev, cmd.buf)))
		goto out;
	rc = follow(x, s, p);
	if (!rc)
		rc = instr_parser_end(p);
	if (rc)
		goto out;
	r = instr_parser_run(p);
	if (r->crashed) {
		strbuf_reset(&cmd);
		strbuf_addf(&why, "%s%s%s", w.current.len ? "test '" : "",
		    w.current.buf, w.current.len ? "' was cut short: " : "");
		/* The log's crash report may come a moment after am's word. */
		for (double until = run_now_ms() + CRASH_WAIT_MS;
		    !x->crash(x->x, NULL) && run_now_ms() < until &&
		    !run_interrupted(); )
			run_sleep_ms(50);
		if (x->crash(x->x, &cmd))
			strbuf_add(&why, cmd.buf, cmd.len);
		else
			strbuf_addstr(&why, "the app crashed");
		strbuf_addf(&why, " (am instrument: %s)", r->short_msg);
	} else if (w.failure.len) {
		strbuf_add(&why, w.failure.buf, w.failure.len);
	} else if (instr_run_problem(r, &why)) {
		;
	} else if (!r->started) {
		strbuf_addstr(&why, "the instrumentation ran no test");
	}
	if (why.len) {
		if (w.stack)
			rs_str_set(&x->it->test_stack, w.stack);
		rc = jg_error_set(JG_EGENERIC, "%s", why.buf);
	}
out:
	adb_stream_free(s);
	instr_parser_free(p);
	strbuf_release(&w.failure);
	strbuf_release(&w.current);
	free(w.stack);
	strbuf_release(&cmd);
	strbuf_release(&why);
	return rc;
}
