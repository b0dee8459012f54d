/*
 * test_src_fpsanalyzer.c: FPSAnalyzer's frame dispatch lines as FPS
 * slices per scene and activity.
 *
 * tests/unit/data/sources/fpsanalyzer/shop-logcat.txt is a `logcat -d
 * -v monotonic` of the simulated shop app with `--libs fpsanalyzer`:
 * 23 frames of HomeActivity, then 108 of FeedActivity (a tap, two
 * flings).  The arithmetic is checked on written lines.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "fileio.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "strbuf.h"

extern const struct source source_fpsanalyzer;

#define PKG "com.example.shop"
#define INFO " INFO:Handler (android.view.Choreographer$FrameHandler) " \
	"{b3e1f2} : android.view.Choreographer$FrameDisplayEventReceiver:"

struct world {
	struct results *r;
	struct rs_iteration *it;
	struct config cfg;
	struct source_ctx ctx;
	struct logcat_buf *log;
};

static void
world_init(struct world *w, double refresh_hz)
{
	struct rs_scene *sc;

	memset(w, 0, sizeof(*w));
	w->r = results_new();
	w->it = rs_scenario_add_iteration(results_add_scenario(w->r, "shop"),
	    false);
	sc = rs_iteration_add_scene(w->it, "home");
	sc->start_mono_ms = 3600000;
	sc->end_mono_ms = 3601200;
	sc = rs_iteration_add_scene(w->it, "feed");
	sc->start_mono_ms = 3601250;
	sc->end_mono_ms = 3606000;
	w->ctx.cfg = &w->cfg;
	w->ctx.results = w->r;
	w->ctx.it = w->it;
	w->ctx.package = PKG;
	w->ctx.refresh_hz = refresh_hz;
	w->log = logcat_buf_new();
}

static void
world_release(struct world *w)
{
	results_free(w->r);
	logcat_buf_free(w->log);
}

static void
feed(struct world *w, const char *text)
{
	const struct logcat_line *lines;
	size_t nr;

	logcat_buf_parse_text(w->log, text, strlen(text));
	lines = logcat_buf_lines(w->log, &nr);
	assert_int_equal(source_fpsanalyzer.logcat(&w->ctx, lines, nr), 0);
}

/* One frame line ending at `end_ms` after `ms` on the main thread. */
static void
frame(struct strbuf *out, double end_ms, int ms, const char *pkg,
    const char *activity)
{
	strbuf_addf(out, "%10.3f  3922  3943 %c FPSAnalyzer: FPSAnalyzer "
	    "DISPATCH FRAME%s:%d" INFO "%s:%s\n", end_ms / 1000,
	    ms > 40 ? 'E' : 'I', ms > 40 ? "(>40)" : "", ms, pkg, activity);
}

static const struct rs_fps_slice *
slice_of(const struct rs_scene *sc, const char *activity)
{
	for (size_t i = 0; i < sc->fps.nr_slices; i++) {
		const char *a = sc->fps.slices[i].app_scene;

		if ((!a && !activity) || (a && activity && !strcmp(a, activity)))
			return &sc->fps.slices[i];
	}
	return NULL;
}

/*
 * At 60 Hz, frames of 5, 20, 70, 210, 460 and 810 ms overrun 0, 1, 4,
 * 12, 27 and 48 vsyncs: Matrix's levels BEST x2, NORMAL, MIDDLE, HIGH,
 * FROZEN, each summing its vsyncs, and fps = 1000 * 6 / (16.67 + 20 +
 * 70 + 210 + 460 + 810).  The activity joins the scene's app scenes.
 */
static void
levels_and_fps(void **state)
{
	static const int ms[] = { 5, 20, 70, 210, 460, 810 };
	struct strbuf text = STRBUF_INIT;
	const struct rs_fps_slice *s;
	struct world w;
	double t = 3602000;

	for (size_t i = 0; i < 6; i++) {
		t += ms[i] + 5;
		frame(&text, t, ms[i], PKG, PKG ".FeedActivity");
	}
	world_init(&w, 60);
	feed(&w, text.buf);
	assert_int_equal(w.it->scenes[1].fps.nr_slices, 1);
	s = slice_of(&w.it->scenes[1], PKG ".FeedActivity");
	assert_non_null(s);
	assert_string_equal(s->source, "fpsanalyzer");
	assert_true(s->drop_level.best == 2);
	assert_true(s->drop_level.normal == 1);
	assert_true(s->drop_level.middle == 1);
	assert_true(s->drop_level.high == 1);
	assert_true(s->drop_level.frozen == 1);
	assert_true(s->drop_sum.best == 1);
	assert_true(s->drop_sum.normal == 4);
	assert_true(s->drop_sum.middle == 12);
	assert_true(s->drop_sum.high == 27);
	assert_true(s->drop_sum.frozen == 48);
	assert_true(fabs(s->fps - 6000.0 / (1000.0 / 60 + 20 + 70 + 210 +
	    460 + 810)) < 1e-9);
	assert_int_equal(w.it->scenes[1].app_scenes.nr, 1);
	assert_string_equal(w.it->scenes[1].app_scenes.items[0],
	    PKG ".FeedActivity");
	assert_int_equal(w.r->nr_warnings, 0);
	world_release(&w);
	strbuf_release(&text);
}

/*
 * Each (scene, activity) pair is its own slice; UNKNOWN is a slice
 * without an app scene that joins no list; a frame belongs to the scene
 * holding its start (the line's time minus its duration), without the
 * grace period, else to none; other apps' lines and broken lines count
 * for nothing.
 */
static void
attribution_and_filtering(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct world w;

	frame(&text, 3600500, 10, PKG, PKG ".HomeActivity");
	frame(&text, 3601250, 80, PKG, PKG ".HomeActivity");	/* from home */
	frame(&text, 3601240, 20, PKG, PKG ".HomeActivity");	/* in grace */
	frame(&text, 3602000, 10, PKG, PKG ".FeedActivity");
	frame(&text, 3602100, 10, PKG, "UNKNOWN");
	frame(&text, 3602200, 10, "com.other.app", "com.other.app.Main");
	frame(&text, 3609000, 10, PKG, PKG ".FeedActivity");	/* after all */
	strbuf_addstr(&text,
	    "  3602.300  3922  3943 I FPSAnalyzer: FPSAnalyzer DISPATCH "
	    "FRAME:abc" INFO PKG ":x\n"
	    "  3602.300  3922  3943 I FPSAnalyzer: FPSAnalyzer DISPATCH "
	    "FRAME:12 no info\n"
	    "  3602.300  3922  3943 I Other: FPSAnalyzer DISPATCH FRAME:12"
	    INFO PKG ":x\n"
	    "  3602.300  3922  3943 I FPSAnalyzer: FPSAnalyzer DISPATCH "
	    "FRAME(>40:99" INFO PKG ":x\n");
	world_init(&w, 60);
	w.cfg.source_opts.grace_ms = 200;
	feed(&w, text.buf);
	assert_int_equal(w.it->scenes[0].fps.nr_slices, 1);
	assert_true(slice_of(&w.it->scenes[0], PKG ".HomeActivity")->
	    drop_level.best == 1);
	assert_true(slice_of(&w.it->scenes[0], PKG ".HomeActivity")->
	    drop_level.normal == 1);
	assert_int_equal(w.it->scenes[1].fps.nr_slices, 2);
	assert_non_null(slice_of(&w.it->scenes[1], PKG ".FeedActivity"));
	assert_non_null(slice_of(&w.it->scenes[1], NULL));
	assert_int_equal(w.it->scenes[1].app_scenes.nr, 1);
	world_release(&w);
	strbuf_release(&text);
}

/* Without the device's refresh rate 60 Hz is used, and the run says so. */
static void
unknown_rate_assumes_60(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct world w;

	frame(&text, 3602000, 20, PKG, PKG ".FeedActivity");
	world_init(&w, 0);
	feed(&w, text.buf);
	assert_true(w.it->scenes[1].fps.slices[0].drop_sum.best == 1);
	assert_int_equal(w.r->nr_warnings, 1);
	assert_non_null(strstr(w.r->warnings[0].message, "60 Hz"));
	world_release(&w);
	strbuf_release(&text);
}

/*
 * The simulated shop's capture: every frame line lands in the slice of
 * its activity, in the scene that was running.
 */
static void
shop_capture(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const struct rs_fps_slice *home, *fd;
	struct world w;
	char *path;
	double n;

	if (asprintf(&path, "%s/tests/unit/data/sources/fpsanalyzer/"
	    "shop-logcat.txt", unit_srcdir()) < 0)
		fail();
	assert_int_equal(file_read(&sb, path), 0);
	world_init(&w, 60);
	feed(&w, sb.buf);
	home = slice_of(&w.it->scenes[0], PKG ".HomeActivity");
	fd = slice_of(&w.it->scenes[1], PKG ".FeedActivity");
	assert_non_null(home);
	assert_non_null(fd);
	n = home->drop_level.best + home->drop_level.normal +
	    home->drop_level.middle + home->drop_level.high +
	    home->drop_level.frozen;
	assert_true(n == 23);
	n = fd->drop_level.best + fd->drop_level.normal +
	    fd->drop_level.middle + fd->drop_level.high + fd->drop_level.frozen;
	assert_true(n == 108);
	assert_true(fd->fps > 0 && fd->fps <= 60);
	free(path);
	strbuf_release(&sb);
	world_release(&w);
}

/*
 * Activity names are kept byte for byte, whatever they hold, and read
 * back from the JSON written with them.
 */
static void
hostile_activity_names(void **state)
{
	static const char *const names[] = {
		"<img src=x onerror=alert(1)>", "it's \"quoted\"",
		"ctl\x01\x1b[0m\x7f",
	};
	struct strbuf text = STRBUF_INIT;
	struct results *back = NULL;
	struct world w;
	char *json;

	for (size_t i = 0; i < 3; i++)
		frame(&text, 3602000 + 100.0 * (double)i, 10, PKG, names[i]);
	world_init(&w, 60);
	feed(&w, text.buf);
	json = results_to_json(w.r);
	assert_int_equal(results_parse(&back, json, strlen(json), "x"), 0);
	for (size_t i = 0; i < 3; i++) {
		assert_non_null(slice_of(&w.it->scenes[1], names[i]));
		assert_non_null(slice_of(&back->scenarios[0].iterations[0].
		    scenes[1], names[i]));
	}
	free(json);
	results_free(back);
	world_release(&w);
	strbuf_release(&text);
}

/* A run without one frame line of the app ends with a run-level warning. */
static void
silent_run_warns(void **state)
{
	struct strbuf text = STRBUF_INIT;

	frame(&text, 3602000, 10, "com.other.app", "com.other.app.Main");
	for (int with = 0; with < 2; with++) {
		struct world w;

		if (with)
			frame(&text, 3602100, 10, PKG, PKG ".FeedActivity");
		world_init(&w, 60);
		assert_int_equal(source_fpsanalyzer.prepare(&w.ctx), 0);
		feed(&w, text.buf);
		source_fpsanalyzer.finish(&w.ctx);
		assert_int_equal(w.r->nr_warnings, with ? 0 : 1);
		world_release(&w);
	}
	strbuf_release(&text);
}

/*
 * `jankgate parse fpsanalyzer`: the capture is one scene with a slice
 * per activity; without a configured package every app's lines count.
 */
static void
parse_hook(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "parse"), false);
	struct source_ctx ctx = { .results = r, .it = it, .refresh_hz = 60 };
	char *path;

	if (asprintf(&path, "%s/tests/unit/data/sources/fpsanalyzer/"
	    "shop-logcat.txt", unit_srcdir()) < 0)
		fail();
	assert_int_equal(file_read(&sb, path), 0);
	assert_int_equal(source_fpsanalyzer.parse(&ctx, sb.buf, sb.len,
	    "cap.txt"), 0);
	assert_int_equal(it->nr_scenes, 1);
	assert_int_equal(it->scenes[0].fps.nr_slices, 2);
	assert_int_equal(it->scenes[0].app_scenes.nr, 2);
	assert_int_equal(r->nr_warnings, 0);
	free(path);
	strbuf_release(&sb);
	results_free(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(levels_and_fps),
	cmocka_unit_test(attribution_and_filtering),
	cmocka_unit_test(unknown_rate_assumes_60),
	cmocka_unit_test(shop_capture),
	cmocka_unit_test(hostile_activity_names),
	cmocka_unit_test(silent_run_warns),
	cmocka_unit_test(parse_hook),
};
JG_UNIT_GROUP(src_fpsanalyzer, tests, NULL, NULL)
