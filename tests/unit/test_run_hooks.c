/*
 * test_run_hooks.c: how the runner calls the sources' hooks (run_hooks.c):
 * at each point of an iteration, every configured source that has a hook
 * there, in config order, with the iteration in its context; a failing
 * hook stops the round and is named.
 */
#include <string.h>

#include "unit.h"
#include "error.h"
#include "results.h"
#include "run_int.h"
#include "source.h"
#include "strbuf.h"

static struct strbuf calls = STRBUF_INIT;

/* Each fake hook appends "NAME:hook " to `calls`. */
static void
note(const struct source_ctx *ctx, const char *hook)
{
	strbuf_addf(&calls, "%s:%s ", (const char *)ctx->state, hook);
}

static int
fake_begin(struct source_ctx *ctx)
{
	note(ctx, "begin");
	return 0;
}

static int
fake_end(struct source_ctx *ctx)
{
	note(ctx, "end");
	assert_null(ctx->step_spans);
	return 0;
}

static int
fake_launch(struct source_ctx *ctx, const char *out, size_t len)
{
	note(ctx, "launch");
	assert_memory_equal(out, "Status: ok", len);
	return 0;
}

static int
fake_scene_end(struct source_ctx *ctx, struct rs_scene *sc,
    const char *dump, size_t len)
{
	note(ctx, "scene_end");
	assert_string_equal(sc->name, "feed");
	return 0;
}

static int
fake_logcat(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr)
{
	note(ctx, "logcat");
	/* The app's pids and the steps' spans reach the logcat hook only. */
	assert_int_equal(ctx->nr_app_pids, 2);
	assert_int_equal(ctx->app_pids[1], 4242);
	assert_int_equal(ctx->nr_step_spans, 1);
	assert_true(ctx->step_spans[0].from == 100 &&
	    ctx->step_spans[0].to == 200);
	return 0;
}

static int
failing_collect(struct source_ctx *ctx)
{
	note(ctx, "collect");
	return jg_error_set(JG_EIO, "pull failed");
}

static int
fake_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	return 0;
}

static const struct source one = {
	.name = "one", .summary = "-", .fills = SOURCE_BLOCKS,
	.iteration_begin = fake_begin, .iteration_end = fake_end,
	.launch = fake_launch, .logcat = fake_logcat,
	.collect = failing_collect, .parse = fake_parse,
};
static const struct source two = {
	.name = "two", .summary = "-", .fills = SOURCE_FRAMES,
	.iteration_end = fake_end, .scene_end = fake_scene_end,
	.logcat = fake_logcat, .collect = failing_collect,
	.parse = fake_parse,
};

static void
each_point_calls_the_sources_that_have_a_hook_there(void **state)
{
	const struct source *srcs[] = { &one, &two };
	struct source_ctx ctx[2];
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "shop"), false);
	int pids[] = { 4241, 4242 };
	const struct source_span spans[] = { { 100, 200 } };
	struct run_hook_args a;

	(void)state;
	memset(ctx, 0, sizeof(ctx));
	ctx[0].state = "one";
	ctx[1].state = "two";
	strbuf_reset(&calls);
	assert_int_equal(run_hooks(srcs, ctx, 2, it,
	    RUN_HOOK_ITERATION_BEGIN, NULL), 0);
	assert_ptr_equal(ctx[0].it, it);
	assert_ptr_equal(ctx[1].it, it);
	a = (struct run_hook_args){ .text = "Status: ok", .len = 10 };
	assert_int_equal(run_hooks(srcs, ctx, 2, it, RUN_HOOK_LAUNCH, &a), 0);
	a = (struct run_hook_args){ .scene = rs_iteration_add_scene(it,
	    "feed") };
	assert_int_equal(run_hooks(srcs, ctx, 2, it, RUN_HOOK_SCENE_BEGIN,
	    &a), 0);
	assert_int_equal(run_hooks(srcs, ctx, 2, it, RUN_HOOK_SCENE_END, &a),
	    0);
	assert_int_equal(run_hooks(srcs, ctx, 2, it, RUN_HOOK_ITERATION_END,
	    NULL), 0);
	a = (struct run_hook_args){ .pids = pids, .nr_pids = 2,
	    .spans = spans, .nr_spans = 1 };
	assert_int_equal(run_hooks(srcs, ctx, 2, it, RUN_HOOK_LOGCAT, &a), 0);
	assert_null(ctx[0].app_pids);
	assert_int_equal(ctx[1].nr_app_pids, 0);
	assert_null(ctx[0].step_spans);
	assert_int_equal(ctx[1].nr_step_spans, 0);
	assert_string_equal(calls.buf, "one:begin one:launch two:scene_end "
	    "one:end two:end one:logcat two:logcat ");

	/* The first failure ends the round and names its source. */
	strbuf_reset(&calls);
	assert_int_equal(run_hooks(srcs, ctx, 2, it, RUN_HOOK_COLLECT, NULL),
	    JG_EIO);
	assert_string_equal(calls.buf, "one:collect ");
	assert_string_equal(jg_error_msg(), "source 'one': pull failed");
	strbuf_release(&calls);
	results_free(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(each_point_calls_the_sources_that_have_a_hook_there),
};
JG_UNIT_GROUP(run_hooks, tests, NULL, NULL)
