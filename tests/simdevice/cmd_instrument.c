/*
 * cmd_instrument.c: `am instrument`, running a test APK's tests.
 *
 *   am instrument [-r] [-w] [-e KEY VALUE]... [--no-window-animation]
 *                 [--user N] [--no-hidden-api-checks] [--no-isolated-storage]
 *                 TESTPKG/RUNNER
 *
 * A test APK is an installed package whose model has an "instrumentation"
 * member (APPMODEL.md, "Test APKs"): the runner's class, the target app,
 * and tests, each a class, a method and the shell command lines it runs
 * on the device (`am start`, `input`, `sleep`, as a UiAutomator test
 * drives the app through UiDevice), optionally ending in an assertion
 * that fails.  The target app is force-stopped and its process started
 * with no activity, as the activity manager does for an instrumentation;
 * then each test prints AndroidJUnitRunner's raw status (-r, the layout
 * harness/android/instrument.h draws), waits the runner's setup, runs its
 * steps with their output discarded, waits for the app to go idle (as
 * Espresso's idling does), and ends passed or failed with a stack.  At
 * the end the RESULT and INSTRUMENTATION_CODE lines come, and the
 * target's process is killed.
 *
 * `-e class C1,C2#m` selects tests by class or class#method; `-e log
 * true` lists the tests (start and pass) without running them; other
 * extras are accepted and ignored.  An unknown package or runner prints
 * the activity manager's "Unable to find instrumentation info" failure
 * and exits 1; an app that dies during a test (the crash-on fault) ends
 * the run with "Process crashed.", the test left open, as a runner
 * without a crash handler does.  Without -r only the streams are printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "apprun.h"
#include "commands.h"
#include "error.h"
#include "packages.h"
#include "simapps.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define SETUP_MS	300	/* runner and rule setup before a test's body */
#define TEARDOWN_MS	150	/* @After, activity teardown between tests */
#define FINISH_MS	400	/* the run's end before the process is killed */
#define MAX_STEP_WORDS	16

struct itest {
	const char *cls, *method;
	const cJSON *steps;	/* array of command lines */
	const char *fail;	/* the assertion message, or NULL */
};

struct irun {
	struct simcmd_ctx *ctx;
	int raw;
	const char *target;
	struct itest *tests;
	size_t nr;
};

/* The last dot-separated part: "FeedTest" of "com.x.test.FeedTest". */
static const char *
simple_name(const char *cls)
{
	const char *dot = strrchr(cls, '.');

	return dot ? dot + 1 : cls;
}

static void
status(struct irun *r, const struct itest *t, size_t i, const char *stack,
    const char *stream, int code)
{
	struct strbuf sb = STRBUF_INIT;

	if (!r->raw) {
		simio_puts(r->ctx->io, 1, stream);
		return;
	}
	strbuf_addf(&sb, "INSTRUMENTATION_STATUS: class=%s\n"
	    "INSTRUMENTATION_STATUS: current=%zu\n"
	    "INSTRUMENTATION_STATUS: id=AndroidJUnitRunner\n"
	    "INSTRUMENTATION_STATUS: numtests=%zu\n", t->cls, i + 1, r->nr);
	if (stack)
		strbuf_addf(&sb, "INSTRUMENTATION_STATUS: stack=%s\n", stack);
	strbuf_addf(&sb, "INSTRUMENTATION_STATUS: stream=%s\n"
	    "INSTRUMENTATION_STATUS: test=%s\n"
	    "INSTRUMENTATION_STATUS_CODE: %d\n", stream, t->method, code);
	simio_write(r->ctx->io, 1, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* The pid of the target's process, 0 when it is not running. */
static int
target_pid(struct irun *r)
{
	struct apprun *app;
	int pid = 0;

	simdev_lock(r->ctx->dev);
	if (!simapps_get(r->ctx->dev->apps, r->target, &app))
		pid = apprun_pid(app);
	simdev_unlock(r->ctx->dev);
	jg_error_clear();
	return pid;
}

/* Run one step line with its output discarded; its words split on spaces. */
static void
run_step(struct irun *r, const char *line)
{
	char *copy = xstrdup(line), *argv[MAX_STEP_WORDS + 1], *save = NULL;
	struct simcmd_ctx sub = *r->ctx;
	struct simio io = *r->ctx->io;
	const struct simcmd *c;
	int argc = 0;

	for (char *w = strtok_r(copy, " ", &save); w && argc < MAX_STEP_WORDS;
	    w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	io.out.to = io.err.to = SIMIO_TO_NULL;
	sub.io = &io;
	if (argc && (c = simcmd_find(argv[0])))
		c->run(&sub, argc, argv);
	free(copy);
}

/* Wait until the target has drawn what the test did (Espresso's idling). */
static void
wait_idle(struct irun *r)
{
	struct apprun *app;
	long long idle = 0, now;

	simdev_lock(r->ctx->dev);
	if (!simapps_get(r->ctx->dev->apps, r->target, &app))
		idle = apprun_idle_at(app);
	now = simdev_now_ns(r->ctx->dev);
	simdev_unlock(r->ctx->dev);
	jg_error_clear();
	if (idle > now)
		simdev_spend(r->ctx->dev, r->ctx->io, (double)(idle - now) / 1e6);
}

/* One test: 0 passed, 1 failed, -1 the app died (the run is over). */
static int
run_test(struct irun *r, size_t i, int dry)
{
	const struct itest *t = &r->tests[i];
	struct strbuf stack = STRBUF_INIT, stream = STRBUF_INIT;
	int pid = target_pid(r), rc = 0;
	const cJSON *s;

	strbuf_addf(&stream, "\n%s:", t->cls);
	status(r, t, i, NULL, stream.buf, 1);
	if (dry) {
		status(r, t, i, NULL, ".", 0);
		strbuf_release(&stream);
		return 0;
	}
	simdev_spend(r->ctx->dev, r->ctx->io, SETUP_MS);
	cJSON_ArrayForEach(s, t->steps) {
		run_step(r, s->valuestring);
		if (target_pid(r) != pid) {
			strbuf_release(&stream);
			return -1;
		}
	}
	wait_idle(r);
	strbuf_setlen(&stream, 0);
	if (t->fail) {
		strbuf_addf(&stack, "%s\n\tat org.junit.Assert.fail(Assert.java:"
		    "89)\n\tat %s.%s(%s.java:41)\n\tat java.lang.reflect.Method."
		    "invoke(Native Method)\n", t->fail, t->cls, t->method,
		    simple_name(t->cls));
		strbuf_addf(&stream, "\nError in %s(%s):\n%s", t->method, t->cls,
		    stack.buf);
		status(r, t, i, stack.buf, stream.buf, -2);
		rc = 1;
	} else {
		status(r, t, i, NULL, ".", 0);
	}
	simdev_spend(r->ctx->dev, r->ctx->io, TEARDOWN_MS);
	strbuf_release(&stack);
	strbuf_release(&stream);
	return rc;
}

/* Is test `t` chosen by the comma-separated `filter` (NULL: all)? */
static int
selected(const struct itest *t, const char *filter)
{
	char *copy, *save = NULL;
	int hit = 0;

	if (!filter)
		return 1;
	copy = xstrdup(filter);
	for (char *w = strtok_r(copy, ",", &save); w && !hit;
	    w = strtok_r(NULL, ",", &save)) {
		char *hash = strchr(w, '#');

		if (hash)
			*hash = '\0';
		hit = !strcmp(w, t->cls) && (!hash || !strcmp(hash + 1,
		    t->method));
	}
	free(copy);
	return hit;
}

static int
not_found(struct simcmd_ctx *ctx, const char *comp, const char *full)
{
	simio_printf(ctx->io, 1, "INSTRUMENTATION_STATUS: id=ActivityManager"
	    "Service\nINSTRUMENTATION_STATUS: Error=Unable to find "
	    "instrumentation info for: ComponentInfo{%s}\n"
	    "INSTRUMENTATION_STATUS_CODE: -1\n", full);
	simio_printf(ctx->io, 2, "android.util.AndroidException: "
	    "INSTRUMENTATION_FAILED: %s\n\tat com.android.commands.am."
	    "Instrument.run(Instrument.java:519)\n", comp);
	return 1;
}

/* The model JSON of installed package `pkg`, or NULL. */
static char *
package_json(struct simdev *dev, const char *pkg)
{
	struct simpkg *p;
	char *json = NULL;

	simdev_lock(dev);
	p = packages_find(dev, pkg);
	if (p && p->model_json)
		json = xstrdup(p->model_json);
	simdev_unlock(dev);
	return json;
}

/* The tests of `ins` that `filter` selects, into r->tests. */
static void
collect(struct irun *r, const cJSON *ins, const char *filter)
{
	const cJSON *t, *tests = cJSON_GetObjectItemCaseSensitive(ins, "tests");

	r->tests = xcalloc((size_t)cJSON_GetArraySize(tests) + 1,
	    sizeof(*r->tests));
	cJSON_ArrayForEach(t, tests) {
		struct itest it = { 0 };
		const cJSON *f;

		it.cls = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(t, "class"));
		it.method = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(t, "method"));
		it.steps = cJSON_GetObjectItemCaseSensitive(t, "steps");
		f = cJSON_GetObjectItemCaseSensitive(t, "fail");
		it.fail = cJSON_GetStringValue(f);
		if (it.cls && it.method && selected(&it, filter))
			r->tests[r->nr++] = it;
	}
}

/* Start the target's process with no activity, after a force-stop. */
static int
spawn_target(struct simcmd_ctx *ctx, const char *target)
{
	struct apprun *app;
	long long now;
	int rc;

	simdev_lock(ctx->dev);
	now = simdev_now_ns(ctx->dev);
	rc = simapps_get(ctx->dev->apps, target, &app);
	if (!rc) {
		simapps_stop(ctx->dev->apps, app, now);
		apprun_spawn(app, simapps_new_pid(ctx->dev->apps), now);
	}
	simdev_unlock(ctx->dev);
	jg_error_clear();
	return rc;
}

static void
kill_target(struct simcmd_ctx *ctx, const char *target)
{
	struct apprun *app;

	simdev_lock(ctx->dev);
	if (!simapps_get(ctx->dev->apps, target, &app))
		simapps_stop(ctx->dev->apps, app, simdev_now_ns(ctx->dev));
	simdev_unlock(ctx->dev);
	jg_error_clear();
}

int
am_instrument(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct irun r = { ctx, 0, NULL, NULL, 0 };
	const char *comp = NULL, *filter = NULL, *runner, *slash;
	char *pkg = NULL, *json = NULL, *full = NULL;
	cJSON *j = NULL;
	const cJSON *ins;
	int dry = 0, failures = 0, status = 0, crashed = 0;
	size_t i;

	for (int a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "-r"))
			r.raw = 1;
		else if (!strcmp(argv[a], "-e") && a + 2 < argc) {
			if (!strcmp(argv[a + 1], "class"))
				filter = argv[a + 2];
			else if (!strcmp(argv[a + 1], "log"))
				dry = !strcmp(argv[a + 2], "true");
			a += 2;
		} else if ((!strcmp(argv[a], "--user") || !strcmp(argv[a],
		    "-p") || !strcmp(argv[a], "--abi")) && a + 1 < argc)
			a++;
		else if (argv[a][0] != '-')
			comp = argv[a];
	}
	if (!comp || !(slash = strchr(comp, '/'))) {
		simio_puts(ctx->io, 2, "Error: Bad component name: ");
		simio_printf(ctx->io, 2, "%s\n", comp ? comp : "");
		return 1;
	}
	pkg = xstrndup(comp, (size_t)(slash - comp));
	runner = slash + 1;
	full = runner[0] == '.' ? xasprintf("%s%s", pkg, runner) :
	    xstrdup(runner);
	json = package_json(ctx->dev, pkg);
	j = json ? cJSON_Parse(json) : NULL;
	ins = cJSON_GetObjectItemCaseSensitive(j, "instrumentation");
	r.target = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(ins, "target"));
	if (!r.target || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(ins,
	    "runner")) || strcmp(full, cJSON_GetObjectItemCaseSensitive(ins,
	    "runner")->valuestring) || spawn_target(ctx, r.target)) {
		char *c = xasprintf("%s/%s", pkg, full);

		status = not_found(ctx, comp, c);
		free(c);
		goto out;
	}
	collect(&r, ins, filter);
	for (i = 0; i < r.nr; i++) {
		int rc = run_test(&r, i, dry);

		if (rc < 0) {
			crashed = 1;
			break;
		}
		failures += rc;
	}
	if (crashed) {
		simio_puts(ctx->io, 1, r.raw ?
		    "INSTRUMENTATION_RESULT: shortMsg=Process crashed.\n"
		    "INSTRUMENTATION_CODE: 0\n" : "Process crashed.\n");
		goto out;
	}
	simdev_spend(ctx->dev, ctx->io, FINISH_MS);
	if (r.raw)
		simio_puts(ctx->io, 1, "INSTRUMENTATION_RESULT: stream=\n");
	simio_printf(ctx->io, 1, "\nTime: %.3f\n\n", r.nr * 1.5);
	if (failures)
		simio_printf(ctx->io, 1, "FAILURES!!!\nTests run: %zu,  "
		    "Failures: %d\n\n\n", r.nr, failures);
	else
		simio_printf(ctx->io, 1, "OK (%zu test%s)\n\n\n", r.nr,
		    r.nr == 1 ? "" : "s");
	if (r.raw)
		simio_puts(ctx->io, 1, "INSTRUMENTATION_CODE: -1\n");
	kill_target(ctx, r.target);
out:
	cJSON_Delete(j);
	free(r.tests);
	free(json);
	free(full);
	free(pkg);
	return status;
}
