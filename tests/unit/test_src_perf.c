/*
 * test_src_perf.c: xanderwang/performance issues and FPS lines.
 *
 * tests/unit/data/sources/perf/shop-logcat.txt is a `logcat -d -v
 * monotonic` of the simulated shop app with `--libs perf`: three UI BLOCK
 * issues of the checkout's SharedPreferences.commit block and a line of
 * PERF_FPSTool every second.  Other layouts are written in the tests.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "fileio.h"
#include "logcat.h"
#include "results.h"
#include "signature.h"
#include "source.h"
#include "strbuf.h"

extern const struct source source_perf;

struct world {
	struct results *r;
	struct rs_iteration *it;
	struct config cfg;
	struct source_ctx ctx;
	struct logcat_buf *log;
};

/* One iteration with a feed and a checkout scene on the shop's clock. */
static void
world_init(struct world *w)
{
	struct rs_scene *sc;

	memset(w, 0, sizeof(*w));
	w->r = results_new();
	w->it = rs_scenario_add_iteration(results_add_scenario(w->r, "shop"),
	    false);
	sc = rs_iteration_add_scene(w->it, "feed");
	sc->start_mono_ms = 3600800;
	sc->end_mono_ms = 3605200;
	sc = rs_iteration_add_scene(w->it, "checkout");
	sc->start_mono_ms = 3605300;
	sc->end_mono_ms = 3608200;
	w->ctx.cfg = &w->cfg;
	w->ctx.results = w->r;
	w->ctx.it = w->it;
	w->ctx.package = "com.example.shop";
	w->log = logcat_buf_new();
}

static void
world_release(struct world *w)
{
	results_free(w->r);
	logcat_buf_free(w->log);
}

/* Run the logcat hook over `text` (a capture). */
static void
feed(struct world *w, const char *text)
{
	const struct logcat_line *lines;
	size_t nr;

	logcat_buf_parse_text(w->log, text, strlen(text));
	lines = logcat_buf_lines(w->log, &nr);
	assert_int_equal(source_perf.logcat(&w->ctx, lines, nr), 0);
}

static void
feed_fixture(struct world *w)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;

	if (asprintf(&path, "%s/tests/unit/data/sources/perf/shop-logcat.txt",
	    unit_srcdir()) < 0)
		fail();
	assert_int_equal(file_read(&sb, path), 0);
	feed(w, sb.buf);
	free(path);
	strbuf_release(&sb);
}

/* A multi-line issue as logcat prints it: the prefix on every line. */
static void
issue(struct strbuf *out, const char *prefix, const char *const *body)
{
	strbuf_addf(out, "%s\n%s=================================================\n",
	    prefix, prefix);
	for (size_t i = 0; body[i]; i++)
		strbuf_addf(out, "%s%s\n", prefix, body[i]);
}

/*
 * The simulated shop's three UI BLOCK issues become three blocks of the
 * checkout scene, started 100 ms before their report, without a
 * duration, with the commit stack and one signature; each FPS line is a
 * slice of the scene holding the middle of its second.
 */
static void
shop_capture(void **state)
{
	static const double starts[] = { 3606249, 3606749, 3607021 };
	struct world w;
	struct rs_scene *feed_sc, *co;

	world_init(&w);
	feed_fixture(&w);
	feed_sc = &w.it->scenes[0];
	co = &w.it->scenes[1];
	assert_int_equal(feed_sc->nr_blocks, 0);
	assert_int_equal(w.it->nr_blocks, 0);
	assert_int_equal(co->nr_blocks, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct rs_block *b = &co->blocks[i];

		assert_string_equal(b->source, "perf");
		assert_string_equal(b->kind, "UI BLOCK");
		assert_true(fabs(b->start_mono_ms - starts[i]) < 0.01);
		assert_true(isnan(b->wall_ms));
		assert_int_equal(b->stack.nr, 8);
		assert_string_equal(b->stack.items[1], "com.example.shop."
		    "checkout.CheckoutPresenter.saveAddress("
		    "CheckoutPresenter.java:141)");
		assert_non_null(b->signature);
		assert_string_equal(b->signature, co->blocks[0].signature);
		assert_false(b->truncated);
	}
	assert_int_equal(feed_sc->fps.nr_slices, 4);
	assert_string_equal(feed_sc->fps.slices[0].source, "perf");
	assert_null(feed_sc->fps.slices[0].app_scene);
	assert_true(feed_sc->fps.slices[0].fps == 17);
	assert_true(feed_sc->fps.slices[3].fps == 60);
	assert_int_equal(co->fps.nr_slices, 3);
	assert_true(co->fps.slices[0].fps == 0);
	assert_true(co->fps.slices[2].fps == 18);
	assert_int_equal(w.r->nr_warnings, 0);
	world_release(&w);
}

/*
 * Issues of two threads interleaved line by line are reassembled each
 * with its own frames; an IPC issue has its cost as duration and starts
 * that long before its report; a THREAD issue takes its msg as kind; FPS
 * and BITMAP issues are not blocks; any global tag works.
 */
static void
issue_kinds_and_interleaving(void **state)
{
	static const char *const ipc[] = { "type: IPC", "msg: IPC",
	    "create time: 20231105_142233_123",
	    "ipc interface: android.os.IServiceManager", "cost time: 230 ms",
	    "trace:", "\tandroid.os.BinderProxy.transact(BinderProxy.java:1)",
	    "\tcom.example.shop.Api.call(Api.java:9)", NULL };
	static const char *const thr[] = { "type: THREAD",
	    "msg: THREAD CREATE", "thread name: pool-1",
	    "thread create trace:", "\tjava.lang.Thread.<init>(Thread.java:1)",
	    "\tcom.example.shop.Pool.make(Pool.java:3)", NULL };
	static const char *const fps[] = { "type: FPS", "msg: FPS",
	    "data: 42", NULL };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, text = STRBUF_INIT;
	const char *pa, *pb;
	struct rs_scene *co;
	struct world w;

	issue(&a, "  3606.500  3922  3950 W demo_Issue: ", ipc);
	issue(&b, "  3606.500  3922  3951 W demo_Issue: ", thr);
	/* Interleave a and b line by line. */
	for (pa = a.buf, pb = b.buf; *pa || *pb;) {
		size_t la = strcspn(pa, "\n"), lb = strcspn(pb, "\n");

		if (*pa) {
			strbuf_add(&text, pa, la + 1);
			pa += la + 1;
		}
		if (*pb) {
			strbuf_add(&text, pb, lb + 1);
			pb += lb + 1;
		}
	}
	issue(&text, "  3607.000  3922  3950 W demo_Issue: ", fps);
	world_init(&w);
	feed(&w, text.buf);
	co = &w.it->scenes[1];
	assert_int_equal(co->nr_blocks, 2);
	assert_string_equal(co->blocks[0].kind, "IPC");
	assert_true(co->blocks[0].wall_ms == 230);
	assert_true(co->blocks[0].start_mono_ms == 3606500 - 230);
	assert_int_equal(co->blocks[0].stack.nr, 2);
	assert_string_equal(co->blocks[0].stack.items[1],
	    "com.example.shop.Api.call(Api.java:9)");
	assert_string_equal(co->blocks[1].kind, "THREAD CREATE");
	assert_true(co->blocks[1].start_mono_ms == 3606500);
	assert_int_equal(co->blocks[1].stack.nr, 2);
	assert_string_equal(co->blocks[1].stack.items[0],
	    "java.lang.Thread.<init>(Thread.java:1)");
	world_release(&w);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&text);
}

/*
 * Two issues of one thread one after the other are two blocks, also
 * when the second follows within the same millisecond (its rule line
 * opens it); lines before any rule belong to nothing.
 */
static void
consecutive_issues_split(void **state)
{
	static const char *const ui[] = { "type: UI BLOCK", "msg: UI BLOCK",
	    "trace:", "\tcom.example.shop.A.a(A.java:1)", NULL };
	struct strbuf text = STRBUF_INIT;
	struct world w;

	strbuf_addstr(&text, "  3606.000  3922  3940 W PERF_Issue: "
	    "\tcom.orphan.X.y(X.java:1)\n");
	issue(&text, "  3606.400  3922  3940 W PERF_Issue: ", ui);
	issue(&text, "  3606.400  3922  3940 W PERF_Issue: ", ui);
	issue(&text, "  3606.900  3922  3940 W PERF_Issue: ", ui);
	world_init(&w);
	feed(&w, text.buf);
	assert_int_equal(w.it->scenes[1].nr_blocks, 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(w.it->scenes[1].blocks[i].stack.nr, 1);
	world_release(&w);
	strbuf_release(&text);
}

/*
 * An entry that fills logcat's 4068-byte payload was cut: its block is
 * kept, marked truncated.  One whose type line was lost is skipped with
 * a warning.
 */
static void
cut_entries(void **state)
{
	static const char *const head[] = { "type: UI BLOCK", "msg: UI BLOCK",
	    "trace:", NULL };
	static const char *const notype[] = { "msg: UI BLOCK", "trace:",
	    "\tcom.example.shop.A.a(A.java:1)", NULL };
	const char *prefix = "  3606.400  3922  3940 W PERF_Issue: ";
	struct strbuf text = STRBUF_INIT;
	struct world w;
	size_t bytes = 1 + 49 + 1 + 15 + 14 + 7;

	issue(&text, prefix, head);
	while (bytes < 4068 - 10 - 3) {
		strbuf_addf(&text, "%s\tcom.example.shop.Deep.f(Deep.java:%04zu)\n",
		    prefix, bytes);
		bytes += strlen("\tcom.example.shop.Deep.f(Deep.java:0000)") + 1;
	}
	issue(&text, "  3607.400  3922  3940 W PERF_Issue: ", notype);
	world_init(&w);
	feed(&w, text.buf);
	assert_int_equal(w.it->scenes[1].nr_blocks, 1);
	assert_true(w.it->scenes[1].blocks[0].truncated);
	assert_int_equal(w.r->nr_warnings, 1);
	assert_non_null(strstr(w.r->warnings[0].message, "'type:'"));
	world_release(&w);
	strbuf_release(&text);
}

/*
 * FPS lines: the padded and unpadded widths both read, other text under
 * the FPSTool tag does not, and a scene with no line gets no slice.
 */
static void
fps_line_shapes(void **state)
{
	struct world w;

	world_init(&w);
	feed(&w, "  3606.000  3922  3922 W PERF_FPSTool: APP FPS is: 60 Hz\n"
	    "  3607.000  3922  3922 W PERF_FPSTool: APP FPS is: 120Hz\n"
	    "  3608.000  3922  3922 E PERF_FPSTool: APP FPS is: 3  Hz\n"
	    "  3607.100  3922  3922 W PERF_FPSTool: APP FPS is: xx Hz\n"
	    "  3607.200  3922  3922 W PERF_FPSTool: start\n"
	    "  3607.300  3922  3922 W OTHER: APP FPS is: 1 Hz\n");
	assert_int_equal(w.it->scenes[0].fps.nr_slices, 0);
	assert_int_equal(w.it->scenes[1].fps.nr_slices, 3);
	assert_true(w.it->scenes[1].fps.slices[0].fps == 60);
	assert_true(w.it->scenes[1].fps.slices[1].fps == 120);
	assert_true(w.it->scenes[1].fps.slices[2].fps == 3);
	world_release(&w);
}

/*
 * Frames are kept byte for byte, whatever they hold, and the results
 * with them are valid JSON that reads back to the same frames.
 */
static void
hostile_frames(void **state)
{
	static const char *const body[] = { "type: UI BLOCK",
	    "msg: <b>UI</b> \"BLOCK\"", "trace:",
	    "\t<script>alert('x')</script>.run(A.java:1)",
	    "\tcom.ctl.\x01\x1b[31m.m(C.java:3)", "\tcom.q.\"Q\".m(Q.java:4)",
	    NULL };
	struct strbuf text = STRBUF_INIT;
	struct results *back = NULL;
	const struct rs_block *b;
	struct world w;
	char *json;

	issue(&text, "  3606.400  3922  3940 W PERF_Issue: ", body);
	world_init(&w);
	feed(&w, text.buf);
	b = &w.it->scenes[1].blocks[0];
	assert_string_equal(b->stack.items[0],
	    "<script>alert('x')</script>.run(A.java:1)");
	json = results_to_json(w.r);
	assert_int_equal(results_parse(&back, json, strlen(json), "x"), 0);
	b = &back->scenarios[0].iterations[0].scenes[1].blocks[0];
	assert_string_equal(b->stack.items[1], "com.ctl.\x01\x1b[31m.m(C.java:3)");
	assert_string_equal(b->stack.items[2], "com.q.\"Q\".m(Q.java:4)");
	free(json);
	results_free(back);
	world_release(&w);
	strbuf_release(&text);
}

/*
 * A run in which the library logged nothing ends with one run-level
 * warning; a run with its lines ends with none.
 */
static void
silent_run_warns(void **state)
{
	for (int with = 0; with < 2; with++) {
		struct world w;

		world_init(&w);
		assert_int_equal(source_perf.prepare(&w.ctx), 0);
		feed(&w, with ? "  3606.000  3922  3922 W PERF_FPSTool: APP FPS "
		    "is: 60 Hz\n" : "  3606.000  3922  3922 I Other: hello\n");
		source_perf.finish(&w.ctx);
		assert_null(w.ctx.state);
		assert_int_equal(w.r->nr_warnings, with ? 0 : 1);
		if (!with)
			assert_null(w.r->warnings[0].scope);
		world_release(&w);
	}
}

/*
 * `jankgate parse perf`: the capture becomes one scene spanning it, with
 * the blocks and one FPS slice; a capture without perf lines says so.
 */
static void
parse_hook(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "parse"), false);
	struct source_ctx ctx = { .results = r, .it = it };
	char *path;

	if (asprintf(&path, "%s/tests/unit/data/sources/perf/shop-logcat.txt",
	    unit_srcdir()) < 0)
		fail();
	assert_int_equal(file_read(&sb, path), 0);
	assert_int_equal(source_perf.parse(&ctx, sb.buf, sb.len,
	    "shop-logcat.txt"), 0);
	assert_int_equal(it->nr_scenes, 1);
	assert_string_equal(it->scenes[0].name, "shop-logcat.txt");
	assert_int_equal(it->scenes[0].nr_blocks, 3);
	assert_int_equal(it->scenes[0].fps.nr_slices, 8);
	assert_int_equal(r->nr_warnings, 0);
	assert_int_equal(source_perf.parse(&ctx, "  1.000  1  1 I X: y\n", 21,
	    "other.txt"), 0);
	assert_int_equal(r->nr_warnings, 1);
	assert_non_null(strstr(r->warnings[0].message, "'other.txt'"));
	free(path);
	strbuf_release(&sb);
	results_free(r);
}

/* `parse` of `text` as a capture named "c": its iteration's one scene. */
static const struct rs_scene *
parse_scene(struct results **r, const char *text)
{
	struct rs_iteration *it;
	struct source_ctx ctx = { 0 };

	*r = results_new();
	it = rs_scenario_add_iteration(results_add_scenario(*r, "p"), false);
	ctx.results = *r;
	ctx.it = it;
	assert_int_equal(source_perf.parse(&ctx, text, strlen(text), "c"), 0);
	assert_int_equal(it->nr_scenes, 1);
	return &it->scenes[0];
}

/*
 * The scene's fps is its slices' frames over their time: a slice lasts
 * the gap since the previous FPS line (a stalled main thread stretches
 * it), the first one and any without times a second; a longer gap than
 * a slice can last is a pause.  Without times that is the mean.
 */
static void
fps_scene_value(void **state)
{
	struct results *r;
	const struct rs_scene *sc;

	/* 60 over 1 s, 60 over 1 s, 20 over 3 s: 180 frames in 5 s */
	sc = parse_scene(&r, "11-05 14:22:34.000  3922  3922 W PERF_FPSTool: "
	    "APP FPS is: 60 Hz\n"
	    "11-05 14:22:35.000  3922  3922 W PERF_FPSTool: APP FPS is: 60 Hz\n"
	    "11-05 14:22:38.000  3922  3922 E PERF_FPSTool: APP FPS is: 20 Hz\n"
	    /* a minute later: a pause, the slice is a second */
	    "11-05 14:23:38.000  3922  3922 W PERF_FPSTool: APP FPS is: 60 Hz\n");
	assert_int_equal(sc->fps.nr_slices, 4);
	assert_true(fabs(sc->fps.value - 240.0 / 6) < 1e-9);
	results_free(r);

	sc = parse_scene(&r, "W/PERF_FPSTool( 3922): APP FPS is: 60 Hz\n"
	    "E/PERF_FPSTool( 3922): APP FPS is: 30 Hz\n");
	assert_true(fabs(sc->fps.value - 45) < 1e-9);
	results_free(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(shop_capture),
	cmocka_unit_test(issue_kinds_and_interleaving),
	cmocka_unit_test(consecutive_issues_split),
	cmocka_unit_test(cut_entries),
	cmocka_unit_test(fps_line_shapes),
	cmocka_unit_test(fps_scene_value),
	cmocka_unit_test(hostile_frames),
	cmocka_unit_test(silent_run_warns),
	cmocka_unit_test(parse_hook),
};
JG_UNIT_GROUP(src_perf, tests, NULL, NULL)
