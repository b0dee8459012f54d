/*
 * test_src_matrix_parse.c: the matrix source as the runner and `jankgate
 * parse` use it, over the documented samples (formats.txt) and over
 * sessions of the simulated phone checked against its ground truth
 * (tests/unit/data/sources/matrix/README).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "logcat.h"
#include "matrix_int.h"
#include "results.h"
#include "signature.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"

extern const struct source source_matrix;

/* One device's results with one iteration, and the hooks' context. */
struct fx {
	struct results *r;
	struct config cfg;
	struct config_opt_value opt;	/* source_options.method_mapping */
	struct source_ctx ctx;
	char mapping[512];
};

static struct fx *
fx_new(bool with_mapping)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct rs_scenario *s;

	f->r = results_new();
	s = results_add_scenario(f->r, "shop");
	f->cfg.source_opts.grace_ms = 1000;
	/* The option as matrix declares it, given as the config gives it. */
	assert_string_equal(source_matrix.options[0].name, "method_mapping");
	f->opt.opt = &source_matrix.options[0];
	f->cfg.opts = &f->opt;
	f->cfg.nr_opts = 1;
	if (with_mapping) {
		snprintf(f->mapping, sizeof(f->mapping),
		    "%s/tests/unit/data/sources/matrix/methodMapping.txt",
		    unit_srcdir());
		f->opt.path = f->mapping;
	}
	f->ctx.cfg = &f->cfg;
	f->ctx.package = "com.example.shop";
	f->ctx.results = f->r;
	f->ctx.it = rs_scenario_add_iteration(s, false);
	return f;
}

static void
fx_free(struct fx *f)
{
	source_matrix.finish(&f->ctx);
	results_free(f->r);
	free(f);
}

static void
fx_scene(struct fx *f, const char *name, double start_s, double end_s)
{
	struct rs_scene *sc = rs_iteration_add_scene(f->ctx.it, name);

	sc->start_mono_ms = start_s * 1000;
	sc->end_mono_ms = end_s * 1000;
}

static void
read_fixture(struct strbuf *sb, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/tests/unit/data/sources/matrix/%s",
	    unit_srcdir(), name);
	assert_int_equal(file_read(sb, path), 0);
}

/* Run the logcat hook over the lines of `text`. */
static void
run_logcat(struct fx *f, const char *text, size_t len)
{
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	size_t nr;

	logcat_buf_parse_text(b, text, len);
	lines = logcat_buf_lines(b, &nr);
	assert_int_equal(source_matrix.prepare(&f->ctx), 0);
	assert_int_equal(source_matrix.logcat(&f->ctx, lines, nr), 0);
	logcat_buf_free(b);
}

static void
run_parse(struct fx *f, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	read_fixture(&sb, name);
	assert_int_equal(source_matrix.parse(&f->ctx, sb.buf, sb.len, name),
	    0);
	strbuf_release(&sb);
}

/* The first block of `kind` in `sc` (NULL: the iteration) after `from`. */
static const struct rs_block *
block_of(const struct fx *f, const char *scene, const char *kind,
    size_t nth)
{
	const struct rs_block *v;
	size_t nr;

	if (scene) {
		const struct rs_scene *sc = rs_iteration_find_scene(f->ctx.it,
		    scene);

		if (!sc)
			return NULL;
		v = sc->blocks;
		nr = sc->nr_blocks;
	} else {
		v = f->ctx.it->blocks;
		nr = f->ctx.it->nr_blocks;
	}
	for (size_t i = 0; i < nr; i++)
		if (v[i].kind && !strcmp(v[i].kind, kind) && !nth--)
			return &v[i];
	return NULL;
}

static size_t
count_blocks(const struct fx *f)
{
	size_t n = f->ctx.it->nr_blocks;

	for (size_t i = 0; i < f->ctx.it->nr_scenes; i++)
		n += f->ctx.it->scenes[i].nr_blocks;
	return n;
}

static bool
has_warning(const struct fx *f, const char *part)
{
	for (size_t i = 0; i < f->r->nr_warnings; i++)
		if (strstr(f->r->warnings[i].message, part))
			return true;
	return false;
}

#define TEST_FPS "sample.tencent.matrix.trace.TestFpsActivity"
#define TEST_MAIN "sample.tencent.matrix.trace.TestTraceMainActivity"

/*
 * `parse` over every documented sample (formats.txt): one scene per app scene,
 * FPS slices with both level orders, every detail type a block of its kind,
 * Trace_StartUp in the iteration's startup.
 */
static void
formats_samples_every_shape(void **state)
{
	static const char *const kinds[] = { "ANR", "LAG", "LAG_IDLE_HANDLER",
		"LAG_TOUCH", "SIGNAL_ANR", "SIGNAL_ANR_NATIVE_BACKTRACE" };
	struct fx *f = fx_new(false);
	const struct rs_scene *sc;
	const struct rs_fps_slice *sl;
	const struct rs_block *b;

	run_parse(f, "formats.txt");
	/* 0.5.x FPS: FROZEN-first key order, whole fps. */
	sc = rs_iteration_find_scene(f->ctx.it,
	    "sample.tencent.matrix.issue.IssuesListActivity");
	assert_non_null(sc);
	assert_true(isnan(sc->start_mono_ms));
	assert_int_equal(sc->fps.nr_slices, 1);
	sl = &sc->fps.slices[0];
	assert_string_equal(sl->source, "matrix");
	assert_true(sl->fps == 60);
	assert_true(sl->drop_level.best == 61 && sl->drop_level.frozen == 0);
	assert_true(sl->drop_sum.best == 0);
	assert_int_equal(strlist_find(&sc->app_scenes,
	    "sample.tencent.matrix.issue.IssuesListActivity"), 0);
	/* 2.1+ FPS: BEST-first order, float fps, extra keys ignored. */
	sc = rs_iteration_find_scene(f->ctx.it, TEST_FPS);
	assert_int_equal(sc->fps.nr_slices, 1);
	sl = &sc->fps.slices[0];
	assert_true(sl->fps == 57.41302490234375);
	assert_true(sl->drop_level.best == 571 && sl->drop_level.normal == 9 &&
	    sl->drop_level.middle == 2 && sl->drop_level.high == 1 &&
	    sl->drop_level.frozen == 0);
	assert_true(sl->drop_sum.best == 38 && sl->drop_sum.normal == 36 &&
	    sl->drop_sum.middle == 21 && sl->drop_sum.high == 30);

	/* 0.4/0.5 NORMAL has no scene: the iteration's; ids kept. */
	b = block_of(f, NULL, "NORMAL", 0);
	assert_non_null(b);
	assert_true(b->wall_ms == 1616);
	assert_true(isnan(b->start_mono_ms));	/* no logcat time */
	assert_int_equal(b->stack.nr, 2);
	assert_string_equal(b->stack.items[0], "method#101");
	assert_string_equal(b->stack.items[1], "method#99");
	assert_non_null(b->signature);
	assert_false(b->truncated);
	/* 2.1 NORMAL (bare line) and 0.5.2+ NORMAL with usage. */
	b = block_of(f, TEST_FPS, "NORMAL", 0);
	assert_true(b->wall_ms == 1006);
	assert_true(isnan(b->thread_ms));
	assert_string_equal(b->stack.items[0], "method#243");
	assert_string_equal(b->stack.items[1],
	    "android.os.Handler.dispatchMessage");
	/* "usage" is no thread time: none is invented from it. */
	b = block_of(f, TEST_FPS, "NORMAL", 1);
	assert_true(b->wall_ms == 1006);
	assert_true(isnan(b->thread_ms));
	/* Every Looper/signal detail is a block of its kind in its scene. */
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		b = block_of(f, TEST_MAIN, kinds[i], 0);
		assert_non_null(b);
		assert_string_equal(b->source, "matrix");
		assert_true(b->stack.nr >= 3);
	}
	assert_true(block_of(f, TEST_MAIN, "ANR", 0)->wall_ms == 5000);
	assert_true(isnan(block_of(f, TEST_MAIN, "LAG", 0)->wall_ms));
	/* Without a mapping the ANR's Java threadStack is the stack... */
	b = block_of(f, TEST_MAIN, "ANR", 0);
	assert_int_equal(b->stack.nr, 3);
	assert_string_equal(b->stack.items[0],
	    "java.lang.Thread.sleep(Native Method)");
	assert_string_equal(b->stack.items[2], TEST_MAIN
	    ".testANR(Unknown Source:120)");
	/* ...so the ANR and the LAG of the same stall group together. */
	assert_string_equal(b->signature,
	    block_of(f, TEST_MAIN, "LAG", 0)->signature);
	/* A signal ANR in the Looper's idle poll has no app frame. */
	assert_null(block_of(f, TEST_MAIN, "SIGNAL_ANR", 0)->signature);
	/* Scene-less details: thread changes, slow startup, 0.4.x types. */
	assert_non_null(block_of(f, NULL, "PRIORITY_MODIFIED", 0));
	assert_non_null(block_of(f, NULL, "TIMERSLACK_MODIFIED", 0));
	assert_true(block_of(f, NULL, "STARTUP", 0)->wall_ms == 10342);
	assert_string_equal(block_of(f, NULL, "STARTUP", 0)->stack.items[0],
	    "method#57");
	assert_non_null(block_of(f, NULL, "ENTER", 0));
	assert_non_null(block_of(f, NULL, "FULL", 0));
	assert_int_equal(count_blocks(f), 14);
	/* Trace_StartUp. */
	assert_true(f->ctx.it->startup.present);
	assert_true(f->ctx.it->startup.matrix.present);
	assert_true(f->ctx.it->startup.matrix.application_create_ms == 415);
	assert_true(f->ctx.it->startup.matrix.first_activity_create_ms ==
	    1240);
	assert_true(f->ctx.it->startup.matrix.startup_duration_ms == 1240);
	assert_int_equal(f->ctx.it->startup.matrix.warm, 0);
	assert_int_equal(f->r->nr_warnings, 0);
	fx_free(f);
}

/* The truth's Java stack of a block, as a strlist, from its model. */
static char *
truth_signature(const char *const *frames)
{
	struct strlist l = STRLIST_INIT;
	char *s;

	for (; *frames; frames++)
		strlist_add(&l, *frames);
	s = signature_of(&l);
	strlist_release(&l);
	return s;
}

static const char *const feed_stack[] = {
	"android.graphics.BitmapFactory.nativeDecodeStream(Native Method)",
	"android.graphics.BitmapFactory.decodeStream(BitmapFactory.java:790)",
	"com.example.shop.feed.ThumbnailLoader.load(ThumbnailLoader.java:57)",
	"com.example.shop.feed.FeedAdapter.onBindViewHolder(FeedAdapter.java:88)",
	"androidx.recyclerview.widget.RecyclerView$Adapter.bindViewHolder("
	    "RecyclerView.java:7254)",
	"android.os.Handler.dispatchMessage(Handler.java:102)", NULL
};
static const char *const checkout_stack[] = {
	"android.app.SharedPreferencesImpl$EditorImpl.commit("
	    "SharedPreferencesImpl.java:604)",
	"com.example.shop.checkout.CheckoutPresenter.saveAddress("
	    "CheckoutPresenter.java:141)",
	"com.example.shop.checkout.CheckoutActivity.onPlaceOrder("
	    "CheckoutActivity.java:77)", NULL
};

/* Blocks of slowshop.truth: scene, start and duration, ms. */
static const struct {
	const char *scene;
	double start_ms, wall_ms;
} truth_blocks[] = {
	{ "feed", 3603166.52254, 910.395968 },
	{ "feed", 3605316.522454, 864.451527 },
	{ "product", 3613033.188812, 5536.715994 },
	{ "product", 3620149.855194, 5626.551677 },
	{ "checkout", 3626133.188288, 2517.602499 },
};

/* The scenes a runner would have drawn around the session's screens. */
static void
slowshop_scenes(struct fx *f)
{
	fx_scene(f, "feed", 3602.4, 3611.9);
	fx_scene(f, "product", 3612.3, 3625.9);
	fx_scene(f, "checkout", 3626.0, 3632.0);
}

/*
 * Matrix 2.1 through the logcat hook: every truth block is a NORMAL
 * block in its scene, starting within 2 ms of the truth (logcat's 1 ms
 * times, Matrix's whole-ms cost) and as long to the millisecond; the
 * stalls past 2 s and 5 s add their LAG and ANR; with the mapping, the
 * NORMAL blocks' signatures are those of the truth's Java stacks.
 */
static void
slowshop_21_matches_truth(void **state)
{
	struct fx *f = fx_new(true);
	struct strbuf sb = STRBUF_INIT;
	size_t seen[3] = { 0, 0, 0 };
	char *sig;

	slowshop_scenes(f);
	read_fixture(&sb, "slowshop-2.1.logcat");
	run_logcat(f, sb.buf, sb.len);
	for (size_t i = 0; i < sizeof(truth_blocks) / sizeof(*truth_blocks);
	    i++) {
		int k = !strcmp(truth_blocks[i].scene, "feed") ? 0 :
		    !strcmp(truth_blocks[i].scene, "product") ? 1 : 2;
		const struct rs_block *b = block_of(f, truth_blocks[i].scene,
		    "NORMAL", seen[k]++);

		assert_non_null(b);
		assert_true(fabs(b->start_mono_ms - truth_blocks[i].start_ms)
		    <= 2);
		assert_true(fabs(b->wall_ms - truth_blocks[i].wall_ms) < 1);
		assert_false(b->truncated);
	}
	assert_non_null(block_of(f, "product", "LAG", 1));
	assert_non_null(block_of(f, "product", "ANR", 1));
	assert_non_null(block_of(f, "checkout", "LAG", 0));
	assert_null(block_of(f, "checkout", "ANR", 0));
	assert_int_equal(count_blocks(f), 5 + 2 + 2 + 1);
	/* The LAG starts 2 s before its report: at the stall's start. */
	assert_true(fabs(block_of(f, "product", "LAG", 0)->start_mono_ms -
	    truth_blocks[2].start_ms) <= 1);
	/* Decoded stacks group with the Java stacks of the same cause. */
	sig = truth_signature(feed_stack);
	assert_string_equal(block_of(f, "feed", "NORMAL", 0)->signature, sig);
	assert_string_equal(block_of(f, "feed", "NORMAL", 1)->signature, sig);
	free(sig);
	sig = truth_signature(checkout_stack);
	assert_string_equal(block_of(f, "checkout", "NORMAL", 0)->signature,
	    sig);
	assert_string_equal(block_of(f, "checkout", "LAG", 0)->signature, sig);
	free(sig);
	assert_string_equal(block_of(f, "feed", "NORMAL", 0)->stack.items[0],
	    "com.example.shop.feed.ThumbnailLoader.load(Ljava.lang.String;)"
	    "Landroid.graphics.Bitmap;");
	strbuf_release(&sb);
	fx_free(f);
}

/*
 * 2.1 FPS slices land in the scene they were reported in (the feed's on
 * pause, within the grace period), and their frames add up to the frames
 * the phone drew on that screen (slowshop.truth: 180 on the feed).
 */
static void
slowshop_21_fps_slices(void **state)
{
	struct fx *f = fx_new(false);
	struct strbuf sb = STRBUF_INIT;
	const struct rs_scene *feed;
	const struct rs_fps_slice *sl;
	double frames;

	slowshop_scenes(f);
	read_fixture(&sb, "slowshop-2.1.logcat");
	run_logcat(f, sb.buf, sb.len);
	feed = rs_iteration_find_scene(f->ctx.it, "feed");
	assert_int_equal(feed->fps.nr_slices, 1);
	sl = &feed->fps.slices[0];
	assert_string_equal(sl->app_scene, "com.example.shop.FeedActivity");
	assert_true(fabs(sl->fps - 27.421091079711914) < 1e-12);
	frames = sl->drop_level.best + sl->drop_level.normal +
	    sl->drop_level.middle + sl->drop_level.high + sl->drop_level.frozen;
	assert_true(frames == 180);
	assert_true(strlist_find(&feed->app_scenes,
	    "com.example.shop.FeedActivity") >= 0);
	/* Home's slice came before every scene: not recorded. */
	for (size_t i = 0; i < f->ctx.it->nr_scenes; i++)
		for (size_t j = 0; j < f->ctx.it->scenes[i].fps.nr_slices; j++)
			assert_string_not_equal(
			    f->ctx.it->scenes[i].fps.slices[j].app_scene,
			    "com.example.shop.HomeActivity");
	/* Trace_StartUp: the cold start's phases (slowshop.truth). */
	assert_true(f->ctx.it->startup.matrix.application_create_ms == 277);
	assert_true(f->ctx.it->startup.matrix.first_activity_create_ms == 726);
	assert_int_equal(f->ctx.it->startup.matrix.warm, 0);
	strbuf_release(&sb);
	fx_free(f);
}

/*
 * Older shapes of the same session: 0.5 reports only stalls of 1 s and
 * more, no LAG, and NORMAL without scene (placed by time all the same);
 * 2.0 reports as 2.1 does, with a CPU usage that is no thread time.
 */
static void
slowshop_older_versions(void **state)
{
	struct fx *f = fx_new(false);
	struct strbuf sb = STRBUF_INIT;
	const struct rs_block *b;

	slowshop_scenes(f);
	read_fixture(&sb, "slowshop-0.5.logcat");
	run_logcat(f, sb.buf, sb.len);
	assert_null(block_of(f, "feed", "NORMAL", 0));
	assert_null(block_of(f, "product", "LAG", 0));
	b = block_of(f, "product", "NORMAL", 0);
	assert_true(fabs(b->wall_ms - truth_blocks[2].wall_ms) < 1);
	assert_true(isnan(b->thread_ms));
	assert_non_null(block_of(f, "product", "ANR", 1));
	assert_non_null(block_of(f, "checkout", "NORMAL", 0));
	assert_int_equal(count_blocks(f), 5);
	assert_true(f->ctx.it->startup.matrix.present);
	fx_free(f);
	strbuf_release(&sb);

	f = fx_new(false);
	slowshop_scenes(f);
	read_fixture(&sb, "slowshop-2.0.logcat");
	run_logcat(f, sb.buf, sb.len);
	b = block_of(f, "feed", "NORMAL", 0);
	assert_true(fabs(b->start_mono_ms - truth_blocks[0].start_ms) <= 2);
	assert_true(isnan(b->thread_ms));
	assert_int_equal(count_blocks(f), 10);
	assert_int_equal(f->r->nr_warnings, 0);
	strbuf_release(&sb);
	fx_free(f);
}

/* CRLF captures give exactly what LF captures give. */
static void
crlf_equals_lf(void **state)
{
	struct fx *a = fx_new(true), *b = fx_new(true);
	struct strbuf lf = STRBUF_INIT, crlf = STRBUF_INIT;
	char *ja, *jb;

	read_fixture(&lf, "slowshop-2.1.logcat");
	for (size_t i = 0; i < lf.len; i++) {
		if (lf.buf[i] == '\n')
			strbuf_addch(&crlf, '\r');
		strbuf_addch(&crlf, lf.buf[i]);
	}
	assert_int_equal(source_matrix.parse(&a->ctx, lf.buf, lf.len, "cap"),
	    0);
	assert_int_equal(source_matrix.parse(&b->ctx, crlf.buf, crlf.len,
	    "cap"), 0);
	assert_true(count_blocks(a) == 10);
	ja = results_to_json(a->r);
	jb = results_to_json(b->r);
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	strbuf_release(&lf);
	strbuf_release(&crlf);
	fx_free(a);
	fx_free(b);
}

/* A logcat line whose message is `msg`, at `t` seconds. */
static void
add_line(struct strbuf *sb, double t, const char *tag, const char *msg)
{
	strbuf_addf(sb, "%10.3f  4242  4301 I %s: %s\n", t, tag, msg);
}

/*
 * A 5 s stall whose ANR threadStack (STACK_STYLE_WHOLE, 400 frames) is
 * cut at logcat's 4068-byte entry: the block is kept with its kind, cost
 * and the whole frames before the cut, marked truncated, and the scene
 * gets a warning.  The sample's second listener logs the same issue
 * under a shorter prefix: its copy, cut later, is the one kept.
 */
static void
cut_anr_is_kept_and_marked(void **state)
{
	struct fx *f = fx_new(false);
	struct strbuf ts = STRBUF_INIT, json = STRBUF_INIT, msg = STRBUF_INIT;
	struct strbuf log = STRBUF_INIT;
	const struct rs_block *b;
	size_t cap;

	fx_scene(f, "checkout", 100.0, 120.0);
	strbuf_addstr(&ts, " \\n");
	for (int i = 0; i < 400; i++)
		strbuf_addf(&ts, "|*\\t\\tat com.example.shop.Deep%d:call(%d)"
		    "\\n", i, i + 1);
	strbuf_addf(&json, "{\"machine\":\"HIGH\",\"cpu_app\":0,\"mem\":1,"
	    "\"mem_free\":1,\"detail\":\"ANR\",\"cost\":5000,\"stackKey\":"
	    "\"9|\",\"scene\":\"com.example.shop.CheckoutActivity\","
	    "\"stack\":\"0,1048574,1,5000\\n1,9,1,4995\\n\",\"threadStack\":"
	    "\"%s\",\"processPriority\":10,\"tag\":\"Trace_EvilMethod\"}",
	    ts.buf);
	/* priority + tag + NUL + message + NUL within 4068 bytes. */
	strbuf_addf(&msg, "report issue content: tag[Trace_EvilMethod]type[0]"
	    ";key[77];content[%s]", json.buf);
	cap = 4068 - 1 - strlen("Matrix.DefaultPluginListener") - 2;
	assert_true(msg.len > cap);
	strbuf_setlen(&msg, cap);
	add_line(&log, 110.0, "Matrix.DefaultPluginListener", msg.buf);
	strbuf_reset(&msg);
	strbuf_addf(&msg, "tag[Trace_EvilMethod]type[0];key[77];content[%s]",
	    json.buf);
	strbuf_setlen(&msg, 4068 - 1 - strlen("TestPluginListener") - 2);
	add_line(&log, 110.001, "TestPluginListener", msg.buf);
	run_logcat(f, log.buf, log.len);

	assert_int_equal(count_blocks(f), 1);
	b = block_of(f, "checkout", "ANR", 0);
	assert_non_null(b);
	assert_true(b->wall_ms == 5000);
	assert_true(fabs(b->start_mono_ms - 105001) < 1e-6);	/* the copy */
	assert_true(b->truncated);
	assert_true(b->stack.nr > 50 && b->stack.nr < 400);
	assert_string_equal(b->stack.items[0],
	    "com.example.shop.Deep0.call(Unknown Source:1)");
	/* Every kept frame is whole. */
	for (size_t i = 0; i < b->stack.nr; i++)
		assert_non_null(strstr(b->stack.items[i], ")"));
	assert_non_null(b->signature);
	assert_int_equal(f->r->nr_warnings, 1);
	assert_string_equal(f->r->warnings[0].scope, "shop/checkout");
	assert_true(has_warning(f, "Trace_EvilMethod ANR issue cut at the "
	    "logcat entry limit: kept as far as it parses"));
	strbuf_release(&ts);
	strbuf_release(&json);
	strbuf_release(&msg);
	strbuf_release(&log);
	fx_free(f);
}

/*
 * Cut anywhere: every prefix of every issue of a real session, through
 * `parse`, never crashes, never invents a block, and a cut issue is
 * either used or named in a warning: never dropped silently.
 */
static void
every_cut_is_used_or_warned(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	read_fixture(&sb, "slowshop-2.1.logcat");
	p = sb.buf;
	while ((p = strstr(p, "report issue content: "))) {
		const char *eol = strchr(p, '\n');
		const char *start = strstr(p, "content[") + 8;

		for (const char *q = start; q < eol; q += 7) {
			struct fx *f = fx_new(true);

			assert_int_equal(source_matrix.parse(&f->ctx, p,
			    (size_t)(q - p), "cut"), 0);
			assert_true(count_blocks(f) <= 1);
			if (q > start)
				assert_true(f->r->nr_warnings == 1);
			fx_free(f);
		}
		p = eol;
	}
	strbuf_release(&sb);
}

/*
 * Hostile scene names and frames (HTML, quotes, controls, bad UTF-8)
 * are kept as text, and the results still write as valid JSON that
 * reads back.
 */
static void
hostile_strings_survive(void **state)
{
	struct fx *f = fx_new(false);
	struct results *back = NULL;
	const char *text =
	    "{\"machine\":\"HIGH\",\"scene\":\"<script>alert(\\\"x\\\")"
	    "</script>\\u0007\\t\\\\\",\"dropLevel\":{\"DROPPED_BEST\":30},"
	    "\"fps\":59,\"tag\":\"Trace_FPS\"}\n"
	    "{\"machine\":\"HIGH\",\"detail\":\"LAG\",\"scene\":\"<b>\\\"'\","
	    "\"threadStack\":\"com.x.<img src=x>.m(A.java:1)\\n\\u0001\\n"
	    "\xff\xfe.x(\\\"q\\\")\\n\",\"tag\":\"Trace_EvilMethod\"}\n";
	const struct rs_scene *sc;
	char *json;

	assert_int_equal(source_matrix.parse(&f->ctx, text, strlen(text),
	    "hostile"), 0);
	sc = rs_iteration_find_scene(f->ctx.it,
	    "<script>alert(\"x\")</script>\a\t\\");
	assert_non_null(sc);
	assert_int_equal(sc->fps.nr_slices, 1);
	assert_non_null(block_of(f, "<b>\"'", "LAG", 0));
	assert_string_equal(block_of(f, "<b>\"'", "LAG", 0)->stack.items[0],
	    "com.x.<img src=x>.m(A.java:1)");
	json = results_to_json(f->r);
	assert_int_equal(results_parse(&back, json, strlen(json), "r"), 0);
	results_free(back);
	free(json);
	fx_free(f);
}

/* Missing keys leave fields unknown; a huge `stack` is capped, marked. */
static void
missing_keys_and_huge_stacks(void **state)
{
	struct fx *f = fx_new(false);
	struct strbuf sb = STRBUF_INIT;
	const struct rs_block *b;

	strbuf_addstr(&sb, "tag[Trace_FPS]type[0];key[null];content[{"
	    "\"scene\":\"A\",\"fps\":50}]\n"
	    "tag[Trace_EvilMethod]type[0];key[null];content[{\"detail\":"
	    "\"NORMAL\",\"scene\":\"A\"}]\n"
	    "tag[Trace_StartUp]type[0];key[null];content[{"
	    "\"startup_duration\":300,\"is_warm_start_up\":true}]\n"
	    "tag[Trace_EvilMethod]type[0];key[null];content[{\"detail\":"
	    "\"NORMAL\",\"cost\":9000,\"scene\":\"B\",\"stack\":\"");
	for (int i = 0; i < 20000; i++)
		strbuf_addf(&sb, "%d,%d,1,%d\\n", i, i + 1, 9000 - i / 10);
	strbuf_addstr(&sb, "\"}]\n");
	assert_int_equal(source_matrix.parse(&f->ctx, sb.buf, sb.len, "m"),
	    0);
	assert_true(isnan(rs_iteration_find_scene(f->ctx.it, "A")->fps
	    .slices[0].drop_level.best));
	b = block_of(f, "A", "NORMAL", 0);
	assert_true(isnan(b->wall_ms));
	assert_int_equal(b->stack.nr, 0);
	assert_null(b->signature);
	assert_true(f->ctx.it->startup.matrix.startup_duration_ms == 300);
	assert_true(isnan(f->ctx.it->startup.matrix.application_create_ms));
	assert_int_equal(f->ctx.it->startup.matrix.warm, 1);
	b = block_of(f, "B", "NORMAL", 0);
	assert_true(b->truncated);
	assert_int_equal(b->stack.nr, 256);
	assert_string_equal(b->stack.items[0], "method#20000");
	strbuf_release(&sb);
	fx_free(f);
}

/*
 * Scenes by time: a block belongs where it started even when reported
 * after the scene; a slice reported within the grace period belongs to
 * the scene that just ended, a later one to none.
 */
static void
scenes_by_time_and_grace(void **state)
{
	struct fx *f = fx_new(false);
	struct strbuf log = STRBUF_INIT;
	const char *fps = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"A\",\"fps\":40}]";

	fx_scene(f, "one", 10.0, 20.0);
	fx_scene(f, "two", 30.0, 40.0);
	add_line(&log, 20.5, "L", "tag[Trace_EvilMethod]type[0];key[null];"
	    "content[{\"detail\":\"NORMAL\",\"cost\":900}]");
	add_line(&log, 20.9, "L", fps);
	add_line(&log, 22.0, "L", fps);
	add_line(&log, 25.0, "L", "tag[Trace_EvilMethod]type[0];key[null];"
	    "content[{\"detail\":\"LAG\"}]");
	run_logcat(f, log.buf, log.len);
	assert_non_null(block_of(f, "one", "NORMAL", 0));
	assert_true(block_of(f, "one", "NORMAL", 0)->start_mono_ms == 19600);
	assert_int_equal(rs_iteration_find_scene(f->ctx.it, "one")->fps
	    .nr_slices, 1);
	assert_int_equal(rs_iteration_find_scene(f->ctx.it, "two")->fps
	    .nr_slices, 0);
	/* Outside every scene: the iteration's. */
	assert_non_null(block_of(f, NULL, "LAG", 0));
	assert_true(block_of(f, NULL, "LAG", 0)->start_mono_ms == 23000);
	strbuf_release(&log);
	fx_free(f);
}

/*
 * A 2.1 FPS report flushes an activity's frames when the next activity
 * draws, often just inside the next scene: it goes to the scene before
 * when the activity drew there, and to the scene it was reported in
 * otherwise, or when it came well into that scene.
 */
static void
fps_flush_goes_to_the_scene_before(void **state)
{
	struct fx *f = fx_new(false);
	struct strbuf log = STRBUF_INIT;
	const char *a = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"A\",\"fps\":40}]";
	const char *b = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"B\",\"fps\":50}]";
	struct rs_scene *one, *two;

	fx_scene(f, "one", 10.0, 20.0);
	fx_scene(f, "two", 21.0, 40.0);
	strlist_add(&f->ctx.it->scenes[0].app_scenes, "A");
	add_line(&log, 21.3, "L", a);	/* flush: "one" */
	add_line(&log, 21.3, "L", b);	/* B never drew in "one" */
	add_line(&log, 30.0, "L", a);	/* 9 s into "two": its own */
	add_line(&log, 55.0, "L", a);	/* long after both: none */
	run_logcat(f, log.buf, log.len);
	one = rs_iteration_find_scene(f->ctx.it, "one");
	two = rs_iteration_find_scene(f->ctx.it, "two");
	assert_int_equal(one->fps.nr_slices, 1);
	assert_true(one->fps.slices[0].fps == 40);
	assert_int_equal(two->fps.nr_slices, 2);
	assert_string_equal(two->fps.slices[0].app_scene, "B");
	assert_string_equal(two->fps.slices[1].app_scene, "A");
	strbuf_release(&log);
	fx_free(f);
}

/* The last Trace_StartUp of an iteration is the one kept. */
static void
last_startup_wins(void **state)
{
	struct fx *f = fx_new(false);
	const char *text =
	    "tag[Trace_StartUp]type[0];key[null];content[{\"application_create"
	    "\":400,\"first_activity_create\":900,\"startup_duration\":900,"
	    "\"is_warm_start_up\":false}]\n"
	    "tag[Trace_StartUp]type[0];key[null];content[{\"application_create"
	    "\":0,\"first_activity_create\":0,\"startup_duration\":350,"
	    "\"is_warm_start_up\":true}]\n";

	assert_int_equal(source_matrix.parse(&f->ctx, text, strlen(text), "s"),
	    0);
	assert_true(f->ctx.it->startup.matrix.startup_duration_ms == 350);
	assert_int_equal(f->ctx.it->startup.matrix.warm, 1);
	fx_free(f);
}

/*
 * A run in which no iteration logged a Matrix issue ends with one
 * warning; a run that saw one does not; a file without one says so.
 */
static void
silence_is_a_warning(void **state)
{
	struct fx *f = fx_new(false);
	const char *quiet = "   100.000  4242  4242 I Choreographer: Skipped "
	    "31 frames!  The application may be doing too much work\n";

	run_logcat(f, quiet, strlen(quiet));
	run_logcat(f, quiet, strlen(quiet));
	source_matrix.finish(&f->ctx);
	assert_int_equal(f->r->nr_warnings, 1);
	assert_null(f->r->warnings[0].scope);
	assert_string_equal(f->r->warnings[0].source, "matrix");
	assert_true(has_warning(f, "no Matrix issue in any iteration"));
	fx_free(f);

	f = fx_new(false);
	run_logcat(f, quiet, strlen(quiet));
	{
		struct strbuf sb = STRBUF_INIT;

		read_fixture(&sb, "slowshop-0.5.logcat");
		run_logcat(f, sb.buf, sb.len);
		strbuf_release(&sb);
	}
	source_matrix.finish(&f->ctx);
	assert_int_equal(f->r->nr_warnings, 0);
	fx_free(f);

	f = fx_new(false);
	assert_int_equal(source_matrix.parse(&f->ctx, quiet, strlen(quiet),
	    "quiet.txt"), 0);
	assert_true(has_warning(f, "'quiet.txt' holds no Matrix issue"));
	fx_free(f);
}

/* A method mapping that cannot be read fails prepare and names the key. */
static void
unreadable_mapping_fails_prepare(void **state)
{
	struct fx *f = fx_new(false);

	f->opt.path = "/nonexistent/methodMapping.txt";
	assert_int_equal(source_matrix.prepare(&f->ctx), JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(),
	    "matrix: source_options.method_mapping: "));
	assert_null(f->ctx.state);
	assert_int_equal(source_matrix.parse(&f->ctx, "", 0, "x"),
	    JG_ENOTFOUND);
	fx_free(f);
}

/* Ids a configured mapping lacks are kept, and the stale mapping named. */
static void
stale_mapping_is_a_warning(void **state)
{
	struct fx *f = fx_new(true);
	const char *text = "tag[Trace_EvilMethod]type[0];key[null];content[{"
	    "\"detail\":\"NORMAL\",\"cost\":800,\"scene\":\"A\",\"stack\":"
	    "\"0,1048574,1,800\\n1,243,1,795\\n2,9999,1,790\\n\"}]\n";
	const struct rs_block *b;

	assert_int_equal(source_matrix.parse(&f->ctx, text, strlen(text), "s"),
	    0);
	b = block_of(f, "A", "NORMAL", 0);
	assert_int_equal(b->stack.nr, 3);
	assert_string_equal(b->stack.items[0], "method#9999");
	assert_string_equal(b->stack.items[1], "com.example.shop.feed."
	    "FeedAdapter.onBindViewHolder(Landroidx.recyclerview.widget."
	    "RecyclerView$ViewHolder;I)V");
	assert_true(has_warning(f, "method ids missing from "
	    "source_options.method_mapping"));
	fx_free(f);
}

/* No config at all (bare `parse`): defaults, ids kept. */
static void
works_without_config(void **state)
{
	struct fx *f = fx_new(false);

	f->ctx.cfg = NULL;
	run_parse(f, "formats.txt");
	assert_int_equal(count_blocks(f), 14);
	fx_free(f);
}

/* `parse` over the text `text`, named `name`. */
static void
parse_text(struct fx *f, const char *text, const char *name)
{
	assert_int_equal(source_matrix.parse(&f->ctx, text, strlen(text),
	    name), 0);
}

/* The FPS of the one slice of scene `scene`, or -1. */
static double
slice_fps(const struct fx *f, const char *scene)
{
	const struct rs_scene *sc = rs_iteration_find_scene(f->ctx.it, scene);

	return sc && sc->fps.nr_slices == 1 ? sc->fps.slices[0].fps : -1;
}

#define SHOP "com.example.shop."

/*
 * Bare JSON in any formatting: pretty-printed, several issues in one
 * file, one member a line with "//" notes after members and on lines of
 * their own, a JSON array of issues on one line: every issue is read,
 * and no line is left unplaced.
 */
static void
bare_json_any_formatting(void **state)
{
	static const char pretty[] =
	    "{\n"
	    "  \"machine\": \"HIGH\",\n"
	    "  \"scene\": \"" SHOP "HomeActivity\",   // the home screen\n"
	    "  \"dropLevel\": {\n"
	    "    \"DROPPED_BEST\": 50\n"
	    "  },\n"
	    "  // the frames per second Matrix measured\n"
	    "  \"fps\": 55.5,\n"
	    "  \"tag\": \"Trace_FPS\"\n"
	    "}\n"
	    "\n"
	    "{\n"
	    "  \"machine\": \"HIGH\",\n"
	    "  \"detail\": \"NORMAL\",\n"
	    "  \"cost\": 900,\n"
	    "  \"scene\": \"" SHOP "CartActivity\",\n"
	    "  \"stack\": \"0,1048574,1,900\\n\",\n"
	    "  \"tag\": \"Trace_EvilMethod\"\n"
	    "}  // a slow method\n";
	static const char array[] =
	    "[{\"machine\":\"HIGH\",\"scene\":\"" SHOP "A\",\"fps\":40,"
	    "\"tag\":\"Trace_FPS\"},{\"machine\":\"HIGH\",\"scene\":\""
	    SHOP "B\",\"fps\":30,\"tag\":\"Trace_FPS\"}]\n";
	struct fx *f = fx_new(false);
	const struct rs_block *b;

	parse_text(f, pretty, "pretty.json");
	assert_true(slice_fps(f, SHOP "HomeActivity") == 55.5);
	b = block_of(f, SHOP "CartActivity", "NORMAL", 0);
	assert_non_null(b);
	assert_true(b->wall_ms == 900);
	assert_false(b->truncated);
	assert_int_equal(f->r->nr_warnings, 0);
	fx_free(f);

	f = fx_new(false);
	parse_text(f, array, "array.json");
	assert_true(slice_fps(f, SHOP "A") == 40);
	assert_true(slice_fps(f, SHOP "B") == 30);
	assert_int_equal(f->r->nr_warnings, 0);
	fx_free(f);
}

/*
 * An issue logged one member a line (logcat repeats the prefix on each)
 * or pasted with notes after its header line is read whole; one whose
 * JSON never closes is kept as far as it parses, and the warning says
 * the paste ends first, not that logcat cut it; so does a single line
 * cut far short of logcat's entry limit.
 */
static void
annotated_and_unclosed_pastes(void **state)
{
	struct strbuf log = STRBUF_INIT;
	static const char unclosed[] =
	    "report issue content: tag[Trace_EvilMethod]type[0];key[null];"
	    "content[{\n"
	    "  \"machine\": \"HIGH\",   // device class\n"
	    "  \"detail\": \"LAG\",\n"
	    "  \"scene\": \"" SHOP "CartActivity\",\n"
	    "  \"cost\": 700,\n"
	    "...and so on\n";
	struct fx *f = fx_new(false);
	const struct rs_block *b;

	add_line(&log, 10.0, "Matrix.DefaultPluginListener", "report issue "
	    "content: tag[Trace_FPS]type[0];key[null];content[{");
	add_line(&log, 10.0, "Matrix.DefaultPluginListener", "\"machine\": "
	    "\"HIGH\", \"scene\": \"" SHOP "HomeActivity\",");
	add_line(&log, 10.0, "Matrix.DefaultPluginListener", "\"fps\": 58, "
	    "\"tag\": \"Trace_FPS\"}]");
	parse_text(f, log.buf, "log.txt");
	assert_true(slice_fps(f, SHOP "HomeActivity") == 58);
	assert_int_equal(f->r->nr_warnings, 0);
	fx_free(f);

	f = fx_new(false);
	parse_text(f, unclosed, "paste.txt");
	b = block_of(f, SHOP "CartActivity", "LAG", 0);
	assert_non_null(b);
	assert_true(b->truncated);
	assert_false(has_warning(f, "logcat entry limit"));
	assert_true(has_warning(f, "Trace_EvilMethod LAG issue's JSON does "
	    "not close: the lines after it go on with it but end first (a "
	    "paste cut short?): kept as far as it parses"));
	fx_free(f);

	/* One line, far short of logcat's limit: cut by whoever saved it. */
	f = fx_new(false);
	parse_text(f, "{\"machine\":\"HIGH\",\"detail\":\"LAG\",\"scene\":"
	    "\"" SHOP "CartActivity\",\"cost\":700,\"threadStack\":\"at",
	    "short.txt");
	b = block_of(f, SHOP "CartActivity", "LAG", 0);
	assert_non_null(b);
	assert_true(b->truncated);
	/* cut before its tag: named by its keys */
	assert_true(has_warning(f, "Matrix LAG issue ends before its JSON "
	    "closes, on a line of 101 bytes, short of logcat's 4 KB entry "
	    "limit (cut when saved or pasted?): kept as far as it parses"));
	fx_free(f);
	strbuf_release(&log);
}

/*
 * The Matrix sample's ParseIssueUtil print: "key : value" lines, the
 * content's members after a tab, a stack's own lines under it, as an
 * app shows it and logs it; with its header or without.
 */
static void
parse_issue_util_print(void **state)
{
	static const char evil[] =
	    "tag : Trace_EvilMethod\n"
	    "type : 0\n"
	    "key : null\n"
	    "content :\n"
	    "\tmachine : HIGH\n"
	    "\tdetail : NORMAL\n"
	    "\tcost : 1200\n"
	    "\tscene : " SHOP "CartActivity\n"
	    "\tstack : 0,1048574,1,1200\n"
	    "1,243,1,1195\n"
	    "\n"
	    "\tstackKey : 243|\n"
	    "\tprocess : com.example.shop\n"
	    "\ttime : 1700000000000\n";
	static const char fps[] =
	    "ISSUE Content:\n"
	    "\tmachine : HIGH\n"
	    "\tscene : " SHOP "HomeActivity\n"
	    "\tdropLevel : {\"DROPPED_BEST\":58,\"DROPPED_HIGH\":2}\n"
	    "\tfps : 57.5\n"
	    "\ttag : Trace_FPS\n";
	struct fx *f = fx_new(false);
	const struct rs_block *b;
	const struct rs_scene *sc;

	parse_text(f, evil, "util.txt");
	b = block_of(f, SHOP "CartActivity", "NORMAL", 0);
	assert_non_null(b);
	assert_true(b->wall_ms == 1200);
	assert_false(b->truncated);
	assert_int_equal(b->stack.nr, 2);
	assert_int_equal(f->r->nr_warnings, 0);
	fx_free(f);

	f = fx_new(false);
	parse_text(f, fps, "util-fps.txt");
	sc = rs_iteration_find_scene(f->ctx.it, SHOP "HomeActivity");
	assert_non_null(sc);
	assert_int_equal(sc->fps.nr_slices, 1);
	assert_true(sc->fps.slices[0].fps == 57.5);
	assert_int_equal(sc->fps.slices[0].drop_level.best, 58);
	assert_int_equal(sc->fps.slices[0].drop_level.high, 2);
	fx_free(f);
}

/*
 * markers.matrix: each FPS report logged while a test step drove the app
 * (or within the grace period after one, outside every scene's window)
 * is a scene named by its activity's simple class name, rather than the
 * test's or marked scene whose window holds it; an activity's reports
 * are one scene of several slices, with Matrix's fps and drop levels,
 * its blocks (Matrix names their activity too), no frames and no
 * window.  Reports outside the steps keep the rules of
 * time; without the key, so do all.
 */
static void
matrix_reports_in_test_steps_are_scenes(void **state)
{
	static const struct source_span steps[] = { { 10000, 20000 },
		{ 30000, 40000 } };
	const char *feed = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"com.example.shop.FeedActivity\",\"dropLevel\":{"
	    "\"DROPPED_BEST\":50,\"DROPPED_NORMAL\":2,\"DROPPED_MIDDLE\":1,"
	    "\"DROPPED_HIGH\":0,\"DROPPED_FROZEN\":0},\"dropSum\":{"
	    "\"DROPPED_BEST\":3,\"DROPPED_NORMAL\":7,\"DROPPED_MIDDLE\":9,"
	    "\"DROPPED_HIGH\":0,\"DROPPED_FROZEN\":0},\"fps\":52.5}]";
	const char *inner = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"com.example.shop.Home$Tab\",\"fps\":58}]";
	const char *other = "tag[Trace_FPS]type[0];key[null];content[{\"scene\":"
	    "\"com.example.shop.Other\",\"fps\":30}]";
	const char *evil = "tag[Trace_EvilMethod]type[0];key[null];content[{"
	    "\"detail\":\"NORMAL\",\"cost\":800,\"scene\":"
	    "\"com.example.shop.FeedActivity\"}]";

	for (int on = 0; on <= 1; on++) {
		struct fx *f = fx_new(false);
		struct strbuf log = STRBUF_INIT;
		struct rs_scene *sc;

		f->cfg.markers.matrix = on;
		f->ctx.step_spans = steps;
		f->ctx.nr_step_spans = 2;
		fx_scene(f, "FeedTest#scroll", 11.0, 19.0);
		fx_scene(f, "after", 22.0, 24.0);
		/* A scene of the activity's name, marked later on. */
		fx_scene(f, "Home$Tab", 50.0, 60.0);
		add_line(&log, 15.0, "L", feed);	/* in a test */
		add_line(&log, 16.0, "L", evil);	/* a block there */
		add_line(&log, 20.5, "L", inner);	/* grace, no window */
		add_line(&log, 22.5, "L", other);	/* grace, in "after" */
		add_line(&log, 27.0, "L", other);	/* between steps */
		add_line(&log, 35.0, "L", feed);	/* the step after */
		run_logcat(f, log.buf, log.len);
		sc = rs_iteration_find_scene(f->ctx.it, "FeedTest#scroll");
		if (!on) {
			/* By time: the test's scene; the rest as before. */
			assert_int_equal(sc->fps.nr_slices, 1);
			assert_int_equal(sc->nr_blocks, 1);
			assert_int_equal(f->ctx.it->nr_scenes, 3);
			strbuf_release(&log);
			fx_free(f);
			continue;
		}
		assert_int_equal(sc->fps.nr_slices, 0);
		assert_int_equal(sc->nr_blocks, 0);
		assert_int_equal(f->ctx.it->nr_scenes, 4);
		sc = rs_iteration_find_scene(f->ctx.it, "FeedActivity");
		assert_non_null(sc);
		assert_int_equal(sc->fps.nr_slices, 2);
		assert_true(sc->fps.slices[0].fps == 52.5);
		assert_true(sc->fps.slices[0].drop_level.normal == 2);
		assert_true(sc->fps.slices[0].drop_sum.middle == 9);
		assert_string_equal(sc->fps.slices[1].app_scene,
		    "com.example.shop.FeedActivity");
		assert_int_equal(sc->app_scenes.nr, 1);
		assert_false(sc->frames.present);
		assert_int_equal(sc->nr_blocks, 1);
		assert_true(sc->blocks[0].wall_ms == 800);
		assert_true(isnan(sc->start_mono_ms) && isnan(sc->end_mono_ms));
		/* The scene of that name takes the report, window and all. */
		sc = rs_iteration_find_scene(f->ctx.it, "Home$Tab");
		assert_int_equal(sc->fps.nr_slices, 1);
		assert_true(sc->start_mono_ms == 50000);
		/* In "after"'s window: by time, as without the key. */
		assert_int_equal(rs_iteration_find_scene(f->ctx.it, "after")
		    ->fps.nr_slices, 1);
		assert_null(rs_iteration_find_scene(f->ctx.it, "Other"));
		strbuf_release(&log);
		fx_free(f);
	}
}

/* A scene named by markers.matrix is a scene name the language allows. */
static void
matrix_scene_names_are_sanitised(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "sample.tencent.matrix.trace.TestFpsActivity",
		  "TestFpsActivity" },
		{ "default", "default" },
		{ "?", "?" },
		{ "com.x.Outer$Inner", "Outer$Inner" },
		{ "com.x.", "com.x." },
		{ "com.x.\tFeed \x01Tab ", "Feed ?Tab" },
		{ "  ", NULL },
		{ "", NULL },
	};
	struct strbuf sb = STRBUF_INIT, long_name = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		assert_int_equal(mx_scene_name(&sb, cases[i].in),
		    cases[i].out ? 0 : -1);
		if (cases[i].out)
			assert_string_equal(sb.buf, cases[i].out);
	}
	/* 100 bytes at most, cut at a character's edge. */
	strbuf_addstr(&long_name, "com.x.y");
	for (int i = 0; i < 60; i++)
		strbuf_addstr(&long_name, "\xc3\xa9");
	strbuf_reset(&sb);
	assert_int_equal(mx_scene_name(&sb, long_name.buf), 0);
	assert_int_equal(sb.len, 99);
	assert_memory_equal(sb.buf + 97, "\xc3\xa9", 2);
	strbuf_release(&sb);
	strbuf_release(&long_name);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(formats_samples_every_shape),
	cmocka_unit_test(slowshop_21_matches_truth),
	cmocka_unit_test(slowshop_21_fps_slices),
	cmocka_unit_test(slowshop_older_versions),
	cmocka_unit_test(crlf_equals_lf),
	cmocka_unit_test(cut_anr_is_kept_and_marked),
	cmocka_unit_test(every_cut_is_used_or_warned),
	cmocka_unit_test(hostile_strings_survive),
	cmocka_unit_test(missing_keys_and_huge_stacks),
	cmocka_unit_test(scenes_by_time_and_grace),
	cmocka_unit_test(fps_flush_goes_to_the_scene_before),
	cmocka_unit_test(matrix_reports_in_test_steps_are_scenes),
	cmocka_unit_test(matrix_scene_names_are_sanitised),
	cmocka_unit_test(last_startup_wins),
	cmocka_unit_test(silence_is_a_warning),
	cmocka_unit_test(unreadable_mapping_fails_prepare),
	cmocka_unit_test(stale_mapping_is_a_warning),
	cmocka_unit_test(works_without_config),
	cmocka_unit_test(bare_json_any_formatting),
	cmocka_unit_test(annotated_and_unclosed_pastes),
	cmocka_unit_test(parse_issue_util_print),
};
JG_UNIT_GROUP(src_matrix_parse, tests, NULL, NULL)
