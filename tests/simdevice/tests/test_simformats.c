/*
 * test_simformats.c: the simulated phone's behaviour and output formats.
 *
 * Part of the simulated phone's own test binary (make check-sim), which
 * links the simulator's modules.
 *
 * Outputs are checked against the documented sample lines (docs/formats.md)
 * where it has them and otherwise re-parsed with sscanf and regexes written
 * here, not with jankgate's own parsers, so a shared misreading cannot hide.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cJSON.h>

#include "unit.h"
#include "amfmt.h"
#include "appmodel.h"
#include "appmodel_json.h"
#include "apprun.h"
#include "blockcanary_fmt.h"
#include "framegen.h"
#include "gfxinfo_fmt.h"
#include "logfmt.h"
#include "logfmt_matrix.h"
#include "logfmt_msg.h"
#include "sim_rng.h"
#include "truth.h"
#include "error.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"


#define SEC	1000000000LL

/* A quiet app: constant-ish frames, no spikes, no blocks. */
static const char quiet_model[] =
	"{\"package\":\"com.example.quiet\",\"versionName\":\"1\","
	"\"versionCode\":1,"
	"\"frames\":{\"default\":{\"median_ms\":8,\"sigma\":0.3}},"
	"\"activities\":["
	"{\"name\":\".List\",\"scroll\":{\"bounds\":[0,0,1080,2000],"
	"\"content_px\":50000,\"fling_ms\":600}},"
	"{\"name\":\".Still\"}]}";

/* An app whose every scroll triggers one 300 ms block. */
static const char blocky_model[] =
	"{\"package\":\"com.example.blocky\",\"versionName\":\"1\","
	"\"versionCode\":1,"
	"\"frames\":{\"default\":{\"median_ms\":4,\"sigma\":0.1}},"
	"\"activities\":[{\"name\":\".Main\","
	"\"scroll\":{\"bounds\":[0,0,1080,2000],\"content_px\":9000},"
	"\"blocks\":[{\"on\":\"scroll\",\"p\":1,\"ms\":300,\"sigma\":0,"
	"\"stack\":[\"a.B.c(B.java:1)\"],\"methods\":[7]}]}]}";

static struct appmodel *
model_from(const char *json)
{
	struct appmodel *m = NULL;

	assert_int_equal(appmodel_parse(&m, json, strlen(json)), 0);
	return m;
}

static struct appmodel *
model_file(const char *name)
{
	struct appmodel *m = NULL;
	char *path = xasprintf("%s/tests/simdevice/apps/%s", unit_srcdir(),
	    name);
	int ret = appmodel_load(&m, path);

	if (ret)
		fail_msg("%s: %s", path, jg_error_msg());
	free(path);
	return m;
}

/* Does `re` (extended) match somewhere in `s`? */
static int
matches(const char *s, const char *re)
{
	regex_t r;
	int ok;

	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NEWLINE), 0);
	ok = !regexec(&r, s, 0, NULL, 0);
	regfree(&r);
	return ok;
}

/* How many lines of `s` contain `needle`. */
static int
count_containing(const char *s, const char *needle)
{
	int count = 0;

	for (const char *p = s; (p = strstr(p, needle)); count++) {
		p = strchr(p, '\n');
		if (!p)
			return count + 1;
	}
	return count;
}

static int
count_lines_starting(const char *s, const char *start)
{
	size_t n = strlen(start);
	int count = 0;

	for (const char *p = s; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, start, n))
			count++;
	}
	return count;
}

/* ---- sim_rng ---- */

/* One seed gives one stream; another seed gives another. */
static void
rng_same_seed_same_stream(void **state)
{
	struct simrng a, b, c;
	int differ = 0;

	simrng_seed(&a, 7);
	simrng_seed(&b, 7);
	simrng_seed(&c, 8);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = simrng_next(&a);

		assert_true(x == simrng_next(&b));
		differ |= x != simrng_next(&c);
	}
	assert_true(differ);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Lognormal draws have the asked median; uniforms stay in [0, 1). */
static void
rng_distributions(void **state)
{
	enum { N = 20001 };
	static double v[N];
	struct simrng r;
	double sum = 0;

	simrng_seed(&r, 1);
	for (int i = 0; i < N; i++) {
		double u = simrng_uniform(&r);

		assert_true(u >= 0 && u < 1);
		v[i] = simrng_lognormal(&r, 10.0, 0.5);
		sum += simrng_normal(&r, 3.0, 1.0);
	}
	qsort(v, N, sizeof(v[0]), cmp_double);
	assert_true(fabs(v[N / 2] - 10.0) < 0.3);
	assert_true(fabs(sum / N - 3.0) < 0.05);
	assert_true(simrng_lognormal(&r, 5.0, 0) == 5.0);
	for (int i = 0; i < 1000; i++)
		assert_true(simrng_below(&r, 3) < 3);
}

/* ---- appmodel ---- */

/* The shipped models load, and v2 regresses the feed as documented. */
static void
appmodel_shipped_models_load(void **state)
{
	struct appmodel *v1 = model_file("shop-v1.json");
	struct appmodel *v2 = model_file("shop-v2.json");
	struct appmodel *hello = model_file("hello.json");
	const struct appmodel_activity *f1, *f2, *c1, *c2;

	assert_string_equal(v1->package, "com.example.shop");
	assert_string_equal(v1->launcher, "com.example.shop.HomeActivity");
	assert_int_equal(v1->nr_activities, 4);
	assert_int_equal(v1->libs.matrix, APPMODEL_MATRIX_21);
	assert_int_equal(v1->libs.blockcanary, 15);
	assert_int_equal(v1->libs.bc_threshold_ms, 500);
	assert_true(v2->version_code > v1->version_code);

	f1 = appmodel_activity(v1, ".FeedActivity");
	f2 = appmodel_activity(v2, "com.example.shop.FeedActivity");
	assert_non_null(f1);
	assert_non_null(f2);
	assert_true(f1->scrollable);
	assert_true(fabs(f2->frames[APPMODEL_SCROLL].median_ms -
	    f1->frames[APPMODEL_SCROLL].median_ms - 2.5) < 1e-9);
	c1 = appmodel_activity(v1, "CheckoutActivity");
	c2 = appmodel_activity(v2, "CheckoutActivity");
	assert_int_equal(c2->nr_blocks, c1->nr_blocks + 1);
	/* Fallbacks: the model-wide launch cost reaches Home. */
	assert_true(appmodel_activity(v1, ".HomeActivity")->
	    frames[APPMODEL_LAUNCH].median_ms == 14.0);

	assert_int_equal(hello->libs.matrix, APPMODEL_MATRIX_NONE);
	assert_int_equal(hello->libs.blockcanary, 0);
	assert_true(hello->startup.cold_ms > 0);
	appmodel_free(v1);
	appmodel_free(v2);
	appmodel_free(hello);

	/* Identity only: one default screen to launch. */
	hello = model_file("hello-min.json");
	assert_int_equal(hello->nr_activities, 1);
	assert_string_equal(hello->launcher, "com.example.hello.MainActivity");
	assert_true(hello->activities[0].frames[APPMODEL_SCROLL].median_ms ==
	    6.0);
	appmodel_free(hello);
}

/* An APK is found behind a fake zip header and before trailing bytes. */
static void
appmodel_found_inside_apk(void **state)
{
	struct strbuf apk = STRBUF_INIT;
	struct appmodel *m = NULL;
	static const char junk[] = "PK\003\004\024\0\0\0{not json} {\"a\":1}";

	strbuf_add(&apk, junk, sizeof(junk));
	strbuf_addstr(&apk, quiet_model);
	strbuf_add(&apk, "\0\0PK\005\006 }", 9);
	assert_int_equal(appmodel_from_apk(&m, apk.buf, apk.len), 0);
	assert_string_equal(m->package, "com.example.quiet");
	appmodel_free(m);

	assert_int_equal(appmodel_from_apk(&m, junk, sizeof(junk)),
	    JG_EINVAL);
	assert_null(m);
	strbuf_release(&apk);
}

/* Bad models are refused with the key path in the message. */
static void
appmodel_rejects_bad_models(void **state)
{
	static const struct {
		const char *json, *where;
	} cases[] = {
		{ "{\"versionName\":\"1\",\"versionCode\":1,"
		  "\"activities\":[{\"name\":\"A\"}]}", "'package'" },
		{ "{\"package\":\"a.b\",\"versionName\":\"1\",\"versionCode\":1,"
		  "\"activities\":[{\"name\":\"A\",\"colour\":1}]}",
		  "activities[0]: unknown key 'colour'" },
		{ "{\"package\":\"a.b\",\"versionName\":\"1\",\"versionCode\":1,"
		  "\"activities\":[{\"name\":\"A\",\"frames\":{\"scroll\":"
		  "{\"median_ms\":-1}}}]}",
		  "activities[0].frames.scroll.median_ms" },
		{ "{\"package\":\"a.b\",\"versionName\":\"1\",\"versionCode\":1,"
		  "\"activities\":[{\"name\":\"A\",\"elements\":[{\"bounds\":"
		  "[0,0,10,10],\"tap\":{\"open\":\".Nowhere\"}}]}]}",
		  "no activity 'a.b.Nowhere'" },
		{ "{\"package\":\"a.b\",\"versionName\":\"1\",\"versionCode\":1,"
		  "\"libraries\":{\"matrix\":\"3.0\"},"
		  "\"activities\":[{\"name\":\"A\"}]}", "'3.0'" },
		{ "{\"package\":\"a.b\",\"versionName\":\"1\",\"versionCode\":1,"
		  "\"activities\":[]}", "'activities'" },
		{ "{\"package\":\"a.b\",\"versionName\":\"1\",\"versionCode\":1,"
		  "\"activities\":[{\"name\":\"A\",\"blocks\":[{\"p\":0.5,"
		  "\"ms\":100}]}]}", "needs a 'stack'" },
		{ "[1,2", "not valid JSON" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct appmodel *m = NULL;
		int ret = appmodel_parse(&m, cases[i].json,
		    strlen(cases[i].json));

		if (ret != JG_EINVAL || !strstr(jg_error_msg(), cases[i].where))
			fail_msg("case %zu: ret %d, message '%s'", i, ret,
			    jg_error_msg());
		assert_null(m);
	}
}

/* A library spec replaces the set; a bad one leaves it alone. */
static void
appmodel_library_override(void **state)
{
	struct appmodel *m = model_file("shop-v1.json");

	assert_int_equal(appmodel_set_libraries(m, "matrix=0.5,"
	    "blockcanary=1.2:external,perf=DEMO,fpsanalyzer,traceman"), 0);
	assert_int_equal(m->libs.matrix, APPMODEL_MATRIX_05);
	assert_int_equal(m->libs.blockcanary, 12);
	assert_int_equal(m->libs.bc_dir, APPMODEL_BC_EXTERNAL);
	assert_int_equal(m->libs.bc_threshold_ms, 500);
	assert_true(m->libs.perf && m->libs.fpsanalyzer && m->libs.traceman);
	assert_string_equal(m->libs.perf_tag, "DEMO");

	assert_int_equal(appmodel_set_libraries(m, "matrix=2.0,bogus"),
	    JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "bogus"));
	assert_int_equal(m->libs.matrix, APPMODEL_MATRIX_05);

	assert_int_equal(appmodel_set_libraries(m, "none"), 0);
	assert_int_equal(m->libs.matrix, APPMODEL_MATRIX_NONE);
	assert_int_equal(m->libs.blockcanary, 0);
	assert_false(m->libs.perf || m->libs.fpsanalyzer || m->libs.traceman);
	appmodel_free(m);
}

/* Taps find the topmost element; components print in short form. */
static void
appmodel_elements_and_components(void **state)
{
	struct appmodel *m = model_file("shop-v1.json");
	const struct appmodel_activity *home = appmodel_activity(m,
	    ".HomeActivity");
	const struct appmodel_element *e = appmodel_element_at(home, 500,
	    1200);
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(e);
	assert_int_equal(e->tap, APPMODEL_TAP_OPEN);
	assert_string_equal(e->target, "com.example.shop.FeedActivity");
	assert_null(appmodel_element_at(home, 5, 5));

	appmodel_short_component(&sb, "com.example", "com.example.Main");
	strbuf_addch(&sb, ' ');
	appmodel_short_component(&sb, "com.example", "org.other.Main");
	strbuf_addch(&sb, ' ');
	appmodel_short_component(&sb, "com.example", "com.examplex.Main");
	assert_string_equal(sb.buf, "com.example/.Main "
	    "com.example/org.other.Main com.example/com.examplex.Main");
	strbuf_release(&sb);
	appmodel_free(m);
}

/* ---- framegen ---- */

static void
run_ok(struct framegen *g, const struct appmodel *m,
    const struct framegen_action *a, struct framegen_out *out)
{
	if (framegen_run(g, m, a, out))
		fail_msg("framegen_run: %s", jg_error_msg());
}

/* Swipes last duration + settle; idle screens and gaps render nothing. */
static void
framegen_frame_count_follows_refresh_rate(void **state)
{
	static const int rates[] = { 60, 90, 120 };
	struct appmodel *m = model_from(quiet_model);

	for (size_t i = 0; i < 3; i++) {
		struct framegen *g = framegen_new(3, rates[i]);
		struct framegen_out out = FRAMEGEN_OUT_INIT;
		struct framegen_action still = { FRAMEGEN_SWIPE, ".Still",
		    10 * SEC, 1000, NULL, 0 };
		struct framegen_action list = { FRAMEGEN_SWIPE, ".List",
		    20 * SEC, 1000, NULL, 0 };
		struct framegen_action fling = { FRAMEGEN_FLING, ".List",
		    30 * SEC, 200, NULL, 0 };
		size_t n1, n2;
		double want;

		run_ok(g, m, &still, &out);
		n1 = out.nr_frames;
		/* Not scrollable: frames only while the finger moves. */
		assert_true(abs((int)n1 - rates[i]) <= 1);
		assert_true(out.end_ns < 11 * SEC + 50000000);
		run_ok(g, m, &list, &out);
		n2 = out.nr_frames - n1;
		want = (1000 + SWIPE_SETTLE_MS) * rates[i] / 1000.0;
		assert_true(fabs((double)n2 - want) <= 1.0);
		run_ok(g, m, &fling, &out);
		want = (200 + 600) * rates[i] / 1000.0;
		assert_true(fabs((double)(out.nr_frames - n1 - n2) - want) <= 1);
		/* Nothing is rendered between the actions. */
		for (size_t k = 0; k < out.nr_frames; k++) {
			long long t = out.frames[k].intended_vsync;

			assert_false(t > 11200000000LL && t < 20 * SEC);
			assert_false(t > 21300000000LL && t < 30 * SEC);
		}
		framegen_out_release(&out);
		framegen_free(g);
	}
	appmodel_free(m);
}

static int
cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Over many frames the duration median is the model's median. */
static void
framegen_median_follows_model(void **state)
{
	struct appmodel *m = model_from(quiet_model);
	struct framegen *g = framegen_new(11, 60);
	struct framegen_out out = FRAMEGEN_OUT_INIT;
	long long *d;
	size_t n;

	for (int i = 0; i < 40; i++) {
		struct framegen_action a = { FRAMEGEN_FLING, ".List",
		    (10 + 2 * i) * SEC, 300, NULL, 0 };

		run_ok(g, m, &a, &out);
	}
	n = out.nr_frames;
	assert_true(n > 2000);
	d = xcalloc(n, sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = framegen_duration(&out.frames[i]);
	qsort(d, n, sizeof(*d), cmp_ll);
	assert_true(fabs(d[n / 2] / 1e6 - 8.0) < 8.0 * 0.03);
	free(d);
	framegen_out_release(&out);
	framegen_free(g);
	appmodel_free(m);
}

/* Every frame's timestamps are ordered and frames sit on vsync ticks. */
static void
framegen_timestamps_are_ordered(void **state)
{
	struct appmodel *m = model_file("shop-v1.json");
	struct framegen *g = framegen_new(5, 90);
	struct framegen_out out = FRAMEGEN_OUT_INIT;
	struct framegen_action acts[] = {
		{ FRAMEGEN_LAUNCH, ".HomeActivity", 5 * SEC, 0, NULL,
		  FRAMEGEN_COLD },
		{ FRAMEGEN_TAP, ".HomeActivity", 8 * SEC, 80, ".FeedActivity",
		  0 },
		{ FRAMEGEN_FLING, ".FeedActivity", 10 * SEC, 250, NULL, 0 },
		{ FRAMEGEN_RETURN, ".HomeActivity", 13 * SEC, 0, NULL, 0 },
	};
	long long period = framegen_period_ns(g);

	assert_int_equal(period, 11111111);
	for (size_t i = 0; i < 4; i++)
		run_ok(g, m, &acts[i], &out);
	for (size_t i = 0; i < out.nr_frames; i++) {
		const struct framegen_frame *f = &out.frames[i];

		assert_int_equal(f->intended_vsync % period, 0);
		assert_int_equal(f->vsync % period, 0);
		assert_true(f->intended_vsync <= f->vsync);
		assert_true(f->vsync <= f->frame_start);
		assert_true(f->frame_start <= f->handle_input_start);
		assert_true(f->handle_input_start <= f->animation_start);
		assert_true(f->animation_start <= f->perform_traversals_start);
		assert_true(f->perform_traversals_start <= f->draw_start);
		assert_true(f->draw_start <= f->sync_queued);
		assert_true(f->sync_queued < f->sync_start);
		assert_true(f->sync_start <= f->issue_draw_commands_start);
		assert_true(f->issue_draw_commands_start <= f->swap_buffers);
		assert_true(f->swap_buffers <= f->frame_completed);
		assert_true(f->frame_completed <= f->gpu_completed);
		assert_int_equal(f->frame_interval, period);
		assert_true(f->frame_deadline > f->intended_vsync);
		if (f->input_event_id)
			assert_true(f->oldest_input <= f->newest_input &&
			    f->newest_input < f->handle_input_start);
		else
			assert_true(f->oldest_input == FRAMEGEN_NO_INPUT &&
			    f->newest_input == 0);
		if (i)
			assert_true(f->intended_vsync >
			    out.frames[i - 1].intended_vsync);
	}
	framegen_out_release(&out);
	framegen_free(g);
	appmodel_free(m);
}

/* A block lengthens its frame and makes the next one miss vsyncs. */
static void
framegen_block_stalls_main_thread(void **state)
{
	struct appmodel *m = model_from(blocky_model);
	struct framegen *g = framegen_new(9, 60);
	struct framegen_out out = FRAMEGEN_OUT_INIT;
	struct framegen_action a = { FRAMEGEN_SWIPE, ".Main", 4 * SEC, 500,
	    NULL, 0 };
	const struct framegen_block *b;
	const struct framegen_frame *f = NULL, *next;

	run_ok(g, m, &a, &out);
	assert_int_equal(out.nr_blocks, 1);
	b = &out.blocks[0];
	assert_true(b->start_ns >= 4 * SEC && b->start_ns < 4500000000LL);
	assert_true(b->end_ns - b->start_ns >= 300000000LL);
	assert_true(fabs(b->thread_ms - 0.95 * (b->end_ns - b->start_ns) /
	    1e6) < 1e-6);
	assert_int_equal(b->model->method_ids[0], 7);
	for (size_t i = 0; i + 1 < out.nr_frames; i++)
		if (out.frames[i].block == 0)
			f = &out.frames[i];
	assert_non_null(f);
	assert_true(framegen_duration(f) >= 300000000LL);
	next = f + 1;
	assert_true(next->skipped >= 17);
	assert_true(next->vsync > next->intended_vsync);
	assert_true(next->frame_start >= f->sync_queued);
	framegen_out_release(&out);
	framegen_free(g);
	appmodel_free(m);
}

/* Launches report consistent times; hot ones are not fully drawn. */
static void
framegen_launch_times(void **state)
{
	struct appmodel *m = model_file("shop-v1.json");
	struct framegen *g = framegen_new(21, 60);
	struct framegen_out out = FRAMEGEN_OUT_INIT;
	struct framegen_action a = { FRAMEGEN_LAUNCH, ".HomeActivity",
	    7 * SEC, 0, NULL, FRAMEGEN_COLD };
	const struct framegen_launch *l = &out.launch;

	run_ok(g, m, &a, &out);
	assert_true(out.has_launch);
	assert_int_equal(l->state, FRAMEGEN_COLD);
	assert_true(l->total_ms > 820 * 0.7 && l->total_ms < 820 * 1.3);
	assert_int_equal(l->total_ms, (l->displayed_ns - 7 * SEC +
	    500000) / 1000000);
	assert_int_equal(out.frames[0].flags, FRAMEGEN_FLAG_WINDOW_CHANGED);
	assert_int_equal(out.frames[0].frame_completed, l->displayed_ns);
	assert_true(l->wait_ms >= l->total_ms);
	assert_true(l->app_create_ms > 0 && l->app_create_ms < l->total_ms);
	assert_true(l->first_activity_ms <= l->total_ms);
	assert_true(l->fully_drawn_ms > l->total_ms);

	a.launch = FRAMEGEN_HOT;
	a.start_ns = 20 * SEC;
	run_ok(g, m, &a, &out);
	assert_int_equal(l->state, FRAMEGEN_HOT);
	assert_true(l->total_ms < 300);
	assert_int_equal(l->fully_drawn_ms, 0);
	assert_int_equal(l->app_create_ms, 0);

	a.activity = ".Nope";
	assert_int_equal(framegen_run(g, m, &a, &out), JG_ENOTFOUND);
	framegen_out_release(&out);
	framegen_free(g);
	appmodel_free(m);
}

/* Render the whole framestats dump of a session with seed `seed`. */
static void
session_dump(uint64_t seed, const char *model, int sdk, struct strbuf *sb)
{
	struct appmodel *m = model_file(model);
	struct framegen *g = framegen_new(seed, 60);
	struct framegen_out out = FRAMEGEN_OUT_INIT;
	struct gfx_state *st = gfx_state_new(sdk, m->package, 4242, 0);
	/* The shop goes to its feed; other apps stay on their launcher. */
	const char *feed = appmodel_activity(m, ".FeedActivity") ?
	    ".FeedActivity" : NULL;
	struct framegen_action acts[] = {
		{ FRAMEGEN_LAUNCH, m->launcher, 5 * SEC, 0, NULL,
		  FRAMEGEN_COLD },
		{ FRAMEGEN_TAP, m->launcher, 8 * SEC, 80, feed, 0 },
		{ FRAMEGEN_FLING, feed ? feed : m->launcher, 10 * SEC, 250,
		  NULL, 0 },
		{ FRAMEGEN_SWIPE, feed ? feed : m->launcher, 12 * SEC, 400,
		  NULL, 0 },
	};

	for (size_t i = 0; i < 4; i++)
		run_ok(g, m, &acts[i], &out);
	for (size_t i = 0; i < out.nr_frames; i++)
		gfx_add_frame(st, &out.frames[i]);
	gfx_dump_header(sb, 20000, 20000);
	gfx_dump_process(st, sb, GFX_FRAMESTATS, 20 * SEC);
	gfx_state_free(st);
	framegen_out_release(&out);
	framegen_free(g);
	appmodel_free(m);
}

/* Same seed, same bytes; another seed, other bytes. */
static void
framegen_is_deterministic(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	session_dump(77, "shop-v1.json", 34, &a);
	session_dump(77, "shop-v1.json", 34, &b);
	session_dump(78, "shop-v1.json", 34, &c);
	assert_true(a.len > 10000);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	assert_true(a.len != c.len || memcmp(a.buf, c.buf, a.len));
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

/* ---- gfxinfo ---- */

/* Parse "<label>: N" (N unsigned) from a dump; -1 when absent. */
static long
field(const char *dump, const char *label)
{
	char *pat = xasprintf("\n%s: ", label);
	const char *p = strstr(dump, pat);
	long v = -1;

	if (p)
		v = strtol(p + strlen(pat), NULL, 10);
	free(pat);
	return v;
}

/* The line after `start` within `s` (borrowed copy in a static buffer). */
static const char *
line_after(const char *s, const char *start)
{
	static char buf[8192];
	const char *p = strstr(s, start), *e;

	if (!p)
		return NULL;
	p += strlen(start);
	e = strchr(p, '\n');
	snprintf(buf, sizeof(buf), "%.*s", (int)(e ? e - p : (long)strlen(p)),
	    p);
	return buf;
}

static int
count_char(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* Which lines and columns each API level prints (docs/formats.md §3.1). */
static void
gfx_layout_per_api(void **state)
{
	static const struct {
		int sdk, cols, legacy, deadline, gpu, window;
	} apis[] = {
		{ 24, 14, 0, 0, 0, 0 }, { 25, 16, 0, 0, 0, 0 },
		{ 26, 16, 0, 1, 0, 1 }, { 28, 16, 0, 1, 0, 1 },
		{ 29, 16, 0, 1, 0, 1 }, { 30, 17, 0, 1, 1, 1 },
		{ 31, 22, 1, 1, 1, 1 }, { 32, 22, 1, 1, 1, 1 },
		{ 33, 23, 1, 1, 1, 1 }, { 34, 23, 1, 1, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(apis) / sizeof(apis[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *hdr;
		int rows;

		session_dump(1, "shop-v1.json", apis[i].sdk, &sb);
		assert_true(!strncmp(sb.buf, "Applications Graphics "
		    "Acceleration Info:\nUptime: 20000 Realtime: 20000\n\n** "
		    "Graphics info for pid 4242 [com.example.shop] **\n\n"
		    "Stats since: 0ns\nTotal frames rendered: ", 148));
		assert_int_equal(count_lines_starting(sb.buf,
		    "Janky frames (legacy): "), apis[i].legacy ? 3 : 0);
		assert_int_equal(count_lines_starting(sb.buf,
		    "Number Frame deadline missed: "), apis[i].deadline ? 3 : 0);
		assert_int_equal(count_lines_starting(sb.buf,
		    "Number Frame deadline missed (legacy): "),
		    apis[i].legacy ? 3 : 0);
		assert_int_equal(count_lines_starting(sb.buf,
		    "GPU HISTOGRAM: "), apis[i].gpu ? 3 : 0);
		assert_int_equal(count_lines_starting(sb.buf,
		    "99th gpu percentile: "), apis[i].gpu ? 3 : 0);
		assert_int_equal(count_lines_starting(sb.buf, "Window: "),
		    apis[i].window ? 2 : 0);
		assert_int_equal(count_lines_starting(sb.buf, "HISTOGRAM: "),
		    apis[i].window ? 3 : 1);
		assert_int_equal(count_lines_starting(sb.buf,
		    "Number Slow issue draw commands: "),
		    apis[i].window ? 3 : 1);
		assert_int_equal(count_lines_starting(sb.buf,
		    "---PROFILEDATA---"), 4);
		assert_true(matches(sb.buf, "\n50th percentile: [0-9]+ms\n"
		    "90th percentile: [0-9]+ms\n95th percentile: [0-9]+ms\n"
		    "99th percentile: [0-9]+ms\nNumber Missed Vsync: "));
		assert_true(matches(sb.buf, "\nJanky frames: [0-9]+ "
		    "\\(([0-9]+[.]?[0-9]+)%\\)\n"));

		hdr = line_after(sb.buf, "---PROFILEDATA---\n");
		assert_int_equal(count_char(hdr, ','), apis[i].cols);
		assert_true(hdr[strlen(hdr) - 1] == ',');
		/*
		 * Every row has as many fields as the header and ends with ','.
		 */
		rows = 0;
		for (const char *p = strstr(sb.buf, hdr); p;) {
			const char *nl = strchr(p, '\n');
			char *line = xstrndup(p, (size_t)(nl - p));

			if (!strcmp(line, "---PROFILEDATA---")) {
				free(line);
				break;
			}
			assert_int_equal(count_char(line, ','), apis[i].cols);
			assert_true(line[strlen(line) - 1] == ',');
			rows++;
			free(line);
			p = nl + 1;
		}
		assert_true(rows > 10);
		strbuf_release(&sb);
	}
}

/*
 * Headers are exactly the documented ones (docs/formats.md §3.1): the 26-29
 * block and redfin's (31).
 */
static void
gfx_profiledata_headers_match_formats(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	session_dump(1, "hello.json", 28, &a);
	assert_string_equal(line_after(a.buf, "---PROFILEDATA---\n"),
	    "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,"
	    "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,"
	    "SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,"
	    "FrameCompleted,DequeueBufferDuration,QueueBufferDuration,");
	session_dump(1, "hello.json", 31, &b);
	assert_string_equal(line_after(b.buf, "---PROFILEDATA---\n"),
	    "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,"
	    "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,"
	    "FrameDeadline,FrameInterval,FrameStartTime,SyncQueued,SyncStart,"
	    "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,"
	    "DequeueBufferDuration,QueueBufferDuration,GpuCompleted,"
	    "SwapBuffersCompleted,DisplayPresentTime,");
	session_dump(1, "hello.json", 34, &c);
	assert_string_equal(line_after(c.buf, "---PROFILEDATA---\n"),
	    "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,"
	    "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,"
	    "FrameDeadline,FrameInterval,FrameStartTime,SyncQueued,SyncStart,"
	    "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,"
	    "DequeueBufferDuration,QueueBufferDuration,GpuCompleted,"
	    "SwapBuffersCompleted,DisplayPresentTime,"
	    "CommandSubmissionCompleted,");
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

/*
 * On 31+ the column labelled FrameInterval holds the start timestamp and
 * FrameStartTime the period; no-input rows on 28 carry Long.MAX_VALUE.
 */
static void
gfx_label_swap_and_no_input(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	long long v[23];
	const char *row;

	session_dump(2, "hello.json", 31, &sb);
	row = line_after(strstr(sb.buf, "---PROFILEDATA---\n") + 18, "\n");
	assert_int_equal(sscanf(row, "%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,"
	    "%lld,%lld,%lld,%lld,", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
	    &v[6], &v[7], &v[8], &v[9], &v[10], &v[11]), 12);
	assert_int_equal(v[0], 1);		/* first frame of the window */
	assert_true(v[10] >= v[3] && v[10] <= v[5]);	/* "FrameInterval" */
	assert_int_equal(v[11], 16666666);	/* "FrameStartTime" */
	strbuf_release(&sb);

	session_dump(2, "hello.json", 28, &sb);
	row = line_after(strstr(sb.buf, "---PROFILEDATA---\n") + 18, "\n");
	assert_true(matches(row, "^1,[0-9]+,[0-9]+,9223372036854775807,0,"));
	strbuf_release(&sb);
}

/* The bucket labels are hwui's list, in order. */
static void
gfx_histogram_buckets(void **state)
{
	struct gfx_state *st = gfx_state_new(29, "a.b", 1, 0);
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	int ms;

	for (ms = 5; ms <= 32; ms++)
		strbuf_addf(&want, " %dms=0", ms);
	for (ms = 34; ms <= 48; ms += 2)
		strbuf_addf(&want, " %dms=0", ms);
	for (ms = 53; ms <= 133; ms += 4)
		strbuf_addf(&want, " %dms=0", ms);
	for (ms = 150; ms <= 4950; ms += 50)
		strbuf_addf(&want, " %dms=0", ms);
	gfx_dump_process(st, &sb, 0, 0);
	assert_string_equal(line_after(sb.buf, "\nHISTOGRAM:"), want.buf);
	/* A few frame times and the bucket hwui puts them in. */
	assert_int_equal(gfx_bucket_label(gfx_bucket_index(3)), 5);
	assert_int_equal(gfx_bucket_label(gfx_bucket_index(17)), 17);
	assert_int_equal(gfx_bucket_label(gfx_bucket_index(33)), 32);
	assert_int_equal(gfx_bucket_label(gfx_bucket_index(35)), 34);
	assert_int_equal(gfx_bucket_label(gfx_bucket_index(51)), 48);
	assert_int_equal(gfx_bucket_label(gfx_bucket_index(52)), 53);
	assert_int_equal(gfx_bucket_label(gfx_bucket_index(135)), 133);
	assert_int_equal(gfx_bucket_index(136), -1);
	assert_int_equal(gfx_slow_index(140), 0);
	assert_int_equal(gfx_slow_index(260), 2);
	assert_int_equal(gfx_slow_index(99999), 96);
	strbuf_release(&sb);
	strbuf_release(&want);
	gfx_state_free(st);
}

/* A frame of `ms` on window `act`, requested at `t`. */
static struct framegen_frame
frame_of(const char *act, long long t, long long ms)
{
	struct framegen_frame f;
	long long d = ms * 1000000;

	memset(&f, 0, sizeof(f));
	f.activity = act;
	f.block = -1;
	f.intended_vsync = f.vsync = f.frame_start = t;
	f.oldest_input = FRAMEGEN_NO_INPUT;
	f.frame_interval = 16666666;
	f.frame_deadline = t + 30555556;
	f.handle_input_start = f.animation_start = t + 100000;
	f.perform_traversals_start = f.draw_start = t + 200000;
	f.sync_queued = t + d / 3;
	f.sync_start = f.sync_queued + 20000;
	f.issue_draw_commands_start = f.sync_start + 100000;
	f.swap_buffers = t + d - 500000;
	f.frame_completed = f.swap_buffers_completed = t + d;
	f.gpu_completed = t + d + 1000000;
	return f;
}

/* Independent percentile: walk buckets parsed from the HISTOGRAM line. */
static long
percentile_from_line(const char *hist, int p)
{
	long labels[200], counts[200], total = 0, remaining;
	int n = 0, used;
	const char *s = hist;

	while (sscanf(s, " %ldms=%ld%n", &labels[n], &counts[n], &used) == 2) {
		total += counts[n++];
		s += used;
	}
	remaining = total - p * total / 100;
	for (int i = n - 1; i >= 0; i--) {
		remaining -= counts[i];
		if (remaining <= 0)
			return labels[i];
	}
	return 0;
}

/* Percentiles and counts follow from the frames as the framework says. */
static void
gfx_percentiles_and_jank(void **state)
{
	static const int ms[] = { 4, 6, 7, 8, 9, 10, 12, 17, 20, 40, 70, 260 };
	struct gfx_state *st = gfx_state_new(30, "a.b", 9, 0);
	struct strbuf sb = STRBUF_INIT;
	const char *hist;
	long long t = SEC;

	/* 100 frames: 12 listed durations, the rest 5 ms. */
	for (int i = 0; i < 100; i++) {
		struct framegen_frame f = frame_of("a.b.Main", t,
		    i < 12 ? ms[i] : 5);

		gfx_add_frame(st, &f);
		t += 300 * 1000000LL;
	}
	gfx_dump_process(st, &sb, 0, t);
	assert_int_equal(field(sb.buf, "Total frames rendered"), 100);
	/* Janky (legacy rule, API 30): 17, 20, 40, 70, 260 ms. */
	assert_int_equal(field(sb.buf, "Janky frames"), 5);
	assert_non_null(strstr(sb.buf, "Janky frames: 5 (5.00%)"));
	/* Two periods or more: 40, 70, 260. */
	assert_int_equal(field(sb.buf, "Number Frame deadline missed"), 3);
	/* Slow issue draw commands: completed - issue >= 12.5 ms. */
	assert_int_equal(field(sb.buf, "Number Slow issue draw commands"), 4);
	hist = line_after(sb.buf, "\nHISTOGRAM:");
	assert_non_null(strstr(hist, " 5ms=89 6ms=1 7ms=1 "));
	assert_non_null(strstr(hist, " 69ms=1 "));
	assert_non_null(strstr(hist, " 250ms=1 "));
	for (int p = 50; p <= 99; p += (p == 50 ? 40 : p == 95 ? 4 : 5)) {
		char *label = xasprintf("%dth percentile", p);

		assert_int_equal(field(sb.buf, label),
		    percentile_from_line(hist, p));
		free(label);
	}
	assert_int_equal(field(sb.buf, "50th percentile"), 5);
	assert_int_equal(field(sb.buf, "95th percentile"), 17);
	assert_int_equal(field(sb.buf, "99th percentile"), 250);
	strbuf_release(&sb);
	gfx_state_free(st);
}

/* Reset clears after printing; frames count once they have completed. */
static void
gfx_reset_and_pending_frames(void **state)
{
	struct gfx_state *st = gfx_state_new(34, "a.b", 9, 0);
	struct strbuf sb = STRBUF_INIT;
	struct framegen_frame f1 = frame_of("a.b.Main", SEC, 8);
	struct framegen_frame f2 = frame_of("a.b.Main", 3 * SEC, 8);

	gfx_add_frame(st, &f1);
	gfx_add_frame(st, &f2);
	gfx_dump_process(st, &sb, GFX_RESET | GFX_FRAMESTATS, 2 * SEC);
	assert_int_equal(field(sb.buf, "Total frames rendered"), 1);
	strbuf_reset(&sb);
	gfx_dump_process(st, &sb, GFX_FRAMESTATS, 2 * SEC + 5);
	assert_non_null(strstr(sb.buf, "\nStats since: 2000000000ns\n"));
	assert_int_equal(field(sb.buf, "Total frames rendered"), 0);
	assert_int_equal(count_lines_starting(sb.buf, "Total frames rendered: 0"),
	    2);
	/* Empty: percentiles fall into the last bucket. */
	assert_int_equal(field(sb.buf, "50th percentile"), 4950);
	assert_int_equal(field(sb.buf, "99th gpu percentile"), 4950);
	assert_non_null(strstr(sb.buf, "Janky frames: 0 (0.00%)"));
	strbuf_reset(&sb);
	gfx_dump_process(st, &sb, GFX_FRAMESTATS, 4 * SEC);
	assert_int_equal(field(sb.buf, "Total frames rendered"), 1);
	assert_non_null(strstr(sb.buf, "\n0,0,3000000000,"));
	strbuf_release(&sb);
	gfx_state_free(st);

	/* N does not guard the division. */
	st = gfx_state_new(24, "a.b", 9, 0);
	gfx_dump_process(st, &sb, 0, SEC);
	assert_non_null(strstr(sb.buf, "Janky frames: 0 (nan%)"));
	strbuf_release(&sb);
	gfx_state_free(st);
}

/* PROFILEDATA keeps the last 120 frames of a window. */
static void
gfx_ring_keeps_last_120(void **state)
{
	struct gfx_state *st = gfx_state_new(29, "a.b", 9, 0);
	struct strbuf sb = STRBUF_INIT;
	char *first;

	for (int i = 0; i < 300; i++) {
		struct framegen_frame f = frame_of("a.b.Main",
		    SEC + i * 16666667LL, 6);

		gfx_add_frame(st, &f);
	}
	gfx_dump_process(st, &sb, GFX_FRAMESTATS, 100 * SEC);
	assert_int_equal(field(sb.buf, "Total frames rendered"), 300);
	{
		const char *a = strstr(sb.buf, "---PROFILEDATA---\n");
		const char *z = strstr(a + 1, "---PROFILEDATA---\n");
		char *block = xstrndup(a, (size_t)(z - a));

		/* The marker's line, the header, 120 rows. */
		assert_int_equal(count_char(block, '\n'), 1 + 1 + 120);
		free(block);
	}
	first = xasprintf("\n0,%lld,", SEC + 180 * 16666667LL);
	assert_non_null(strstr(sb.buf, first));
	free(first);
	gfx_close_window(st, "a.b.Main");
	strbuf_reset(&sb);
	gfx_dump_process(st, &sb, GFX_FRAMESTATS, 100 * SEC);
	assert_null(strstr(sb.buf, "---PROFILEDATA---"));
	assert_int_equal(field(sb.buf, "Total frames rendered"), 300);
	strbuf_release(&sb);
	gfx_state_free(st);
}

/* Argument reading, including the API 28 defaults. */
static void
gfx_args(void **state)
{
	const char *argv1[] = { "com.x", "reset", "framestats" };
	const char *argv2[] = { "com.x" };
	const char *argv3[] = { "-a", "com.x" };
	const char *pkg;
	unsigned int flags;

	gfx_parse_args(34, 3, argv1, &pkg, &flags);
	assert_string_equal(pkg, "com.x");
	assert_int_equal(flags, GFX_RESET | GFX_FRAMESTATS);
	gfx_parse_args(34, 1, argv2, &pkg, &flags);
	assert_int_equal(flags, GFX_FRAMESTATS);
	gfx_parse_args(26, 1, argv2, &pkg, &flags);
	assert_int_equal(flags, 0);
	gfx_parse_args(26, 2, argv3, &pkg, &flags);
	assert_int_equal(flags, 0);
	assert_string_equal(pkg, "com.x");
	gfx_parse_args(28, 2, argv3, &pkg, &flags);
	assert_int_equal(flags, GFX_FRAMESTATS);
	gfx_parse_args(34, 0, NULL, &pkg, &flags);
	assert_null(pkg);
}

/* ---- am start ---- */

/*
 * The line sets of API 24, 28, 29, 30, 31 and 34, and the documented fixture.
 */
static void
am_start_per_api(void **state)
{
	struct amfmt_start s = { "com.example", "com.example.MainActivity", 0,
	    0, AMFMT_NO_WARNING, AMFMT_COLD, 1, 412, 412, 431 };
	struct amfmt_start calc = { "com.android.calculator2",
	    "com.android.calculator2.Calculator", 0, 0, AMFMT_NO_WARNING,
	    AMFMT_COLD, 1, 2229, 2229, 2239 };
	static const char old[] =
	    "Starting: Intent { cmp=com.example/.MainActivity }\n"
	    "Status: ok\nActivity: com.example/.MainActivity\n"
	    "ThisTime: 412\nTotalTime: 412\nWaitTime: 431\nComplete\n";
	static const char new[] =
	    "Starting: Intent { cmp=com.example/.MainActivity }\n"
	    "Status: ok\nLaunchState: COLD\n"
	    "Activity: com.example/.MainActivity\n"
	    "TotalTime: 412\nWaitTime: 431\nComplete\n";
	static const int apis[] = { 24, 28, 29, 30, 31, 34 };
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < 6; i++) {
		strbuf_reset(&sb);
		amfmt_start(&sb, apis[i], &s);
		assert_string_equal(sb.buf, apis[i] <= 28 ? old : new);
	}
	strbuf_reset(&sb);
	amfmt_start(&sb, 29, &calc);
	assert_string_equal(sb.buf,
	    "Starting: Intent { cmp=com.android.calculator2/.Calculator }\n"
	    "Status: ok\nLaunchState: COLD\n"
	    "Activity: com.android.calculator2/.Calculator\n"
	    "TotalTime: 2229\nWaitTime: 2239\nComplete\n");

	/* -S, a warning, no TotalTime, an unnamed state. */
	s.stop_first = 1;
	s.warning = AMFMT_BROUGHT_TO_FRONT;
	s.total_ms = -1;
	s.state = AMFMT_RELAUNCH;
	strbuf_reset(&sb);
	amfmt_start(&sb, 30, &s);
	assert_string_equal(sb.buf, "Stopping: com.example\n"
	    "Starting: Intent { cmp=com.example/.MainActivity }\n"
	    "Warning: Activity not started, its current task has been "
	    "brought to the front\nStatus: ok\nLaunchState: UNKNOWN (4)\n"
	    "Activity: com.example/.MainActivity\nWaitTime: 431\nComplete\n");
	strbuf_reset(&sb);
	amfmt_launch_state(&sb, 31, AMFMT_RELAUNCH);
	amfmt_launch_state(&sb, 34, 0);
	assert_string_equal(sb.buf, "RELAUNCHUNKNOWN (0)");
	strbuf_reset(&sb);
	amfmt_no_activity(&sb, "com.example", "com.example.Nope");
	assert_true(matches(sb.buf, "^Starting: .*\nError type 3\nError: "
	    "Activity class \\{com.example/com.example.Nope\\} does not "
	    "exist.\n$"));
	strbuf_release(&sb);
}

/* ---- logcat ---- */

/* 2024-11-05 14:22:33 UTC, the time of the documented samples. */
#define WALL_SAMPLE	1730816553LL

static struct logfmt_entry
entry(long long wall_ms, int pid, int tid, char prio, const char *tag,
    const char *msg)
{
	struct logfmt_entry e = { LOGFMT_MAIN, 0, 0, pid, tid, 10123, prio,
	    tag, msg };

	e.wall_ns = (WALL_SAMPLE * 1000 + wall_ms) * 1000000LL;
	e.mono_ns = e.wall_ns - 1730815000LL * SEC;
	return e;
}

static void
format_one(struct strbuf *out, const char *words, const struct logfmt_entry *e)
{
	struct logfmt_opts o;
	char *copy = xstrdup(words), *save = NULL, *w;

	logfmt_opts_init(&o);
	for (w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
		assert_int_equal(logfmt_opts_word(&o, w), 0);
	free(copy);
	logfmt_entry_format(out, &o, e);
}

/* TimeUtils.formatDuration (docs/formats.md §3.3). */
static void
log_duration_format(void **state)
{
	static const struct {
		long long ms;
		const char *text;
	} cases[] = {
		{ 1234, "+1s234ms" }, { 1005, "+1s5ms" }, { 60000, "+1m0s0ms" },
		{ 456, "+456ms" }, { 0, "0" }, { 3534, "+3s534ms" },
		{ 82643, "+1m22s643ms" }, { -20, "-20ms" },
		{ 90061001, "+1d1h1m1s1ms" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		logfmt_msg_duration(&sb, cases[i].ms);
		assert_string_equal(sb.buf, cases[i].text);
	}
	strbuf_release(&sb);
}

/*
 * Displayed / Fully drawn lines are the documented [built] lines
 * (docs/formats.md §3.3).
 */
static void
log_displayed_lines(void **state)
{
	static const struct {
		int sdk;
		const char *line;
	} cases[] = {
		{ 24, "11-05 14:22:33.456  1502  1560 I ActivityManager: "
		  "Displayed com.example/.MainActivity: +412ms\n" },
		{ 28, "11-05 14:22:33.456  1502  1560 I ActivityManager: "
		  "Displayed com.example/.MainActivity: +412ms\n" },
		{ 29, "11-05 14:22:33.456  1502  1560 I ActivityTaskManager: "
		  "Displayed com.example/.MainActivity: +412ms\n" },
		{ 31, "11-05 14:22:33.456  1502  1560 I ActivityTaskManager: "
		  "Displayed com.example/.MainActivity: +412ms\n" },
		{ 34, "11-05 14:22:33.456  1502  1560 I ActivityTaskManager: "
		  "Displayed com.example/.MainActivity for user 0: +412ms\n" },
	};
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *tag;
		struct logfmt_entry e;

		strbuf_reset(&msg);
		strbuf_reset(&out);
		tag = logfmt_msg_displayed(&msg, cases[i].sdk, "com.example",
		    "com.example.MainActivity", 412, 412);
		e = entry(456, 1502, 1560, 'I', tag, msg.buf);
		format_one(&out, "threadtime", &e);
		assert_string_equal(out.buf, cases[i].line);
	}
	strbuf_reset(&msg);
	logfmt_msg_displayed(&msg, 26, "com.android.myexample",
	    "com.android.myexample.StartupTiming", 3534, 82643);
	assert_string_equal(msg.buf, "Displayed com.android.myexample/"
	    ".StartupTiming: +3s534ms (total +1m22s643ms)");
	strbuf_reset(&msg);
	logfmt_msg_displayed(&msg, 29, "com.a", "com.a.B", 3534, 82643);
	assert_null(strstr(msg.buf, "total"));

	strbuf_reset(&msg);
	strbuf_reset(&out);
	{
		const char *tag = logfmt_msg_fully_drawn(&msg, 30,
		    "com.example", "com.example.MainActivity", 1966);
		struct logfmt_entry e = entry(2010, 1502, 1560, 'I', tag,
		    msg.buf);

		format_one(&out, "threadtime", &e);
	}
	assert_string_equal(out.buf, "11-05 14:22:35.010  1502  1560 I "
	    "ActivityTaskManager: Fully drawn com.example/.MainActivity: "
	    "+1s966ms\n");
	strbuf_release(&msg);
	strbuf_release(&out);
}

/* The prefixes of threadtime and its modifiers, docs/formats.md §3.4 / 3.5. */
static void
log_layouts(void **state)
{
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;
	struct logfmt_entry e;

	logfmt_msg_skipped(&msg, 31);
	e = entry(7101, 4242, 4242, 'I', "Choreographer", msg.buf);
	format_one(&out, "threadtime", &e);
	assert_string_equal(out.buf, "11-05 14:22:40.101  4242  4242 I "
	    "Choreographer: Skipped 31 frames!  The application may be doing "
	    "too much work on its main thread.\n");

	e = entry(123, 4242, 4242, 'I', "Choreographer", "x");
	strbuf_reset(&out);
	format_one(&out, "threadtime", &e);
	format_one(&out, "threadtime,year", &e);
	format_one(&out, "threadtime,epoch", &e);
	format_one(&out, "threadtime,uid", &e);
	format_one(&out, "monotonic", &e);
	format_one(&out, "threadtime,usec", &e);
	format_one(&out, "brief", &e);
	format_one(&out, "time", &e);
	e.uid = 2000;
	format_one(&out, "threadtime,uid", &e);
	assert_string_equal(out.buf,
	    "11-05 14:22:33.123  4242  4242 I Choreographer: x\n"
	    "2024-11-05 14:22:33.123  4242  4242 I Choreographer: x\n"
	    "         1730816553.123  4242  4242 I Choreographer: x\n"
	    "11-05 14:22:33.123 10123  4242  4242 I Choreographer: x\n"
	    "  1553.123  4242  4242 I Choreographer: x\n"
	    "11-05 14:22:33.123000  4242  4242 I Choreographer: x\n"
	    "I/Choreographer( 4242): x\n"
	    "11-05 14:22:33.123 I/Choreographer( 4242): x\n"
	    "11-05 14:22:33.123 shell  4242  4242 I Choreographer: x\n");

	/* Short tags are padded to 8; a local zone shifts the clock. */
	e = entry(0, 7, 8, 'W', "Tag", "y");
	strbuf_reset(&out);
	format_one(&out, "threadtime", &e);
	assert_string_equal(out.buf,
	    "11-05 14:22:33.000     7     8 W Tag     : y\n");
	assert_int_equal(logfmt_opts_word(&(struct logfmt_opts){ 0 },
	    "fancy"), JG_EINVAL);
	strbuf_release(&msg);
	strbuf_release(&out);
}

/* Each message line gets the full prefix; edges as logcat prints them. */
static void
log_multiline_messages(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct logfmt_entry e = entry(123, 4242, 4260, 'W', "PERF_Issue",
	    "\n=====\ntype: UI BLOCK\n\tframe\n");

	format_one(&out, "threadtime", &e);
	assert_string_equal(out.buf,
	    "11-05 14:22:33.123  4242  4260 W PERF_Issue: \n"
	    "11-05 14:22:33.123  4242  4260 W PERF_Issue: =====\n"
	    "11-05 14:22:33.123  4242  4260 W PERF_Issue: type: UI BLOCK\n"
	    "11-05 14:22:33.123  4242  4260 W PERF_Issue: \tframe\n");
	strbuf_reset(&out);
	e.msg = "a\n\nb";
	format_one(&out, "brief", &e);
	assert_string_equal(out.buf, "W/PERF_Issue( 4242): a\n"
	    "W/PERF_Issue( 4242): \nW/PERF_Issue( 4242): b\n");
	strbuf_reset(&out);
	e.msg = "";
	format_one(&out, "brief", &e);
	assert_string_equal(out.buf, "W/PERF_Issue( 4242): \n");
	strbuf_reset(&out);
	e.msg = "two\nlines";
	format_one(&out, "long", &e);
	assert_string_equal(out.buf, "[ 11-05 14:22:33.123  4242: 4260 "
	    "W/PERF_Issue ]\ntwo\nlines\n\n");
	strbuf_release(&out);
}

/* Entries longer than the payload limit are cut; others are not. */
static void
log_truncation(void **state)
{
	struct logfmt_buf *b = logfmt_buf_new(1 << 20);
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT;
	struct logfmt_opts o;
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;
	const char *tag = "Matrix.DefaultPluginListener";
	struct logfmt_entry e;
	const char *body;

	for (int i = 0; i < 5000; i++)
		strbuf_addch(&msg, 'a' + i % 26);
	e = entry(0, 1, 1, 'I', tag, msg.buf);
	assert_int_equal(logfmt_buf_add(b, &e),
	    5000 - (LOGFMT_MAX_PAYLOAD - 3 - strlen(tag)));
	strbuf_setlen(&msg, 100);
	e.mono_ns++;
	assert_int_equal(logfmt_buf_add(b, &e), 0);
	logfmt_opts_init(&o);
	logfmt_opts_word(&o, "brief");
	logfmt_buf_dump(b, &out, &o, &c, LLONG_MAX, 0);
	body = strstr(out.buf, "): ") + 3;
	/* Priority byte, tag, NUL, message, NUL: 4068 bytes in all. */
	assert_int_equal(strchr(body, '\n') - body,
	    LOGFMT_MAX_PAYLOAD - 3 - (long)strlen(tag));
	assert_int_equal(1 + strlen(tag) + 1 + (size_t)(strchr(body, '\n') -
	    body) + 1, LOGFMT_MAX_PAYLOAD);
	body = strstr(strchr(body, '\n'), "): ") + 3;
	assert_int_equal(strchr(body, '\n') - body, 100);
	strbuf_release(&msg);
	strbuf_release(&out);
	logfmt_buf_free(b);
}

/* Time order, separators, future entries, cursors, tail and clear. */
static void
log_buffer_selection(void **state)
{
	struct logfmt_buf *b = logfmt_buf_new(1 << 20);
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT, since = LOGFMT_CURSOR_INIT;
	struct logfmt_opts o;
	struct strbuf out = STRBUF_INIT;
	struct logfmt_entry e[] = {
		{ LOGFMT_MAIN, 3 * SEC, 3 * SEC, 1, 1, 0, 'I', "t", "m3" },
		{ LOGFMT_SYSTEM, 1 * SEC, 1 * SEC, 1, 1, 0, 'I', "t", "s1" },
		{ LOGFMT_MAIN, 2 * SEC, 2 * SEC, 1, 1, 0, 'I', "t", "m2" },
		{ LOGFMT_EVENTS, 2 * SEC, 2 * SEC, 1, 1, 0, 'I', "t", "e2" },
		{ LOGFMT_MAIN, 9 * SEC, 9 * SEC, 1, 1, 0, 'I', "t", "m9" },
	};

	for (size_t i = 0; i < 5; i++)
		logfmt_buf_add(b, &e[i]);
	logfmt_opts_init(&o);
	logfmt_opts_word(&o, "brief");
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &c, 5 * SEC, 0), 3);
	assert_string_equal(out.buf, "--------- beginning of system\n"
	    "I/t       (    1): s1\n--------- beginning of main\n"
	    "I/t       (    1): m2\nI/t       (    1): m3\n");
	/* The stream goes on: only the newer entry, no separator. */
	strbuf_reset(&out);
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &c, 5 * SEC, 0), 0);
	e[0].mono_ns = 4 * SEC;
	e[0].msg = "m4";
	logfmt_buf_add(b, &e[0]);
	e[0].buffer = LOGFMT_SYSTEM;
	e[0].msg = "s4";
	logfmt_buf_add(b, &e[0]);
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &c, 10 * SEC, 0), 3);
	assert_string_equal(out.buf, "I/t       (    1): m4\n"
	    "--------- switch to system\nI/t       (    1): s4\n"
	    "--------- switch to main\nI/t       (    1): m9\n");

	/* -T 4s: from the first entry at or after it; -t 2: the last two. */
	strbuf_reset(&out);
	logfmt_cursor_since(&since, 4 * SEC);
	o.buffers = 1u << LOGFMT_MAIN;
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &since, LLONG_MAX, 0), 2);
	assert_string_equal(out.buf, "--------- beginning of main\n"
	    "I/t       (    1): m4\nI/t       (    1): m9\n");
	strbuf_reset(&out);
	since = (struct logfmt_cursor)LOGFMT_CURSOR_INIT;
	o.buffers = LOGFMT_DEFAULT_BUFFERS | (1u << LOGFMT_EVENTS);
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &since, LLONG_MAX, 2), 2);
	assert_null(strstr(out.buf, "m4"));
	assert_non_null(strstr(out.buf, "s4"));

	/* -c on main leaves the others. */
	logfmt_buf_clear(b, 1u << LOGFMT_MAIN);
	strbuf_reset(&out);
	since = (struct logfmt_cursor)LOGFMT_CURSOR_INIT;
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &since, LLONG_MAX, 0), 3);
	assert_null(strstr(out.buf, "): m"));
	assert_int_equal(logfmt_buffer_id("crash"), LOGFMT_CRASH);
	assert_int_equal(logfmt_buffer_id("all"), -3);
	assert_int_equal(logfmt_buffer_id("radio"), -1);
	strbuf_release(&out);
	logfmt_buf_free(b);
}

/* Old entries are pruned once the buffer passes its capacity. */
static void
log_buffer_prunes(void **state)
{
	struct logfmt_buf *b = logfmt_buf_new(10000);
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT;
	struct logfmt_opts o;
	struct strbuf out = STRBUF_INIT;
	char msg[64];

	for (int i = 0; i < 1000; i++) {
		struct logfmt_entry e = { LOGFMT_MAIN, i * SEC, i * SEC, 1, 1,
		    0, 'I', "tag", msg };

		snprintf(msg, sizeof(msg), "message number %04d", i);
		logfmt_buf_add(b, &e);
	}
	logfmt_opts_init(&o);
	assert_true(logfmt_buf_dump(b, &out, &o, &c, LLONG_MAX, 0) < 500);
	assert_non_null(strstr(out.buf, "message number 0999"));
	assert_null(strstr(out.buf, "message number 0000"));
	strbuf_release(&out);
	logfmt_buf_free(b);
}

/* The small libraries' lines: perf, FPSAnalyzer, MethodTraceMan, crash. */
static void
log_library_lines(void **state)
{
	static const char *const frames[] = {
		"java.lang.Thread.sleep(Thread.java:-2)",
		"com.xander.performance.demo.MainActivity.testANR(MainActivity.kt:49)",
	};
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(logfmt_msg_perf_fps(&sb, 60), 'W');
	assert_int_equal(logfmt_msg_perf_fps(&sb, 43), 'E');
	assert_int_equal(logfmt_msg_perf_fps(&sb, 120), 'W');
	assert_int_equal(logfmt_msg_perf_fps(&sb, 50), 'E');
	assert_string_equal(sb.buf, "APP FPS is: 60 HzAPP FPS is: 43 Hz"
	    "APP FPS is: 120HzAPP FPS is: 50 Hz");

	strbuf_reset(&sb);
	logfmt_msg_perf_issue(&sb, "UI BLOCK", "UI BLOCK",
	    (WALL_SAMPLE * 1000 + 123) - 365LL * 86400000, NULL, 0, frames, 2);
	assert_string_equal(sb.buf,
	    "\n=================================================\n"
	    "type: UI BLOCK\nmsg: UI BLOCK\ncreate time: 20231106_142233_123\n"
	    "trace:\n\tjava.lang.Thread.sleep(Thread.java:-2)\n"
	    "\tcom.xander.performance.demo.MainActivity.testANR"
	    "(MainActivity.kt:49)\n");

	strbuf_reset(&sb);
	assert_int_equal(logfmt_msg_fpsanalyzer(&sb, 52, "com.a", "com.a.B"),
	    'E');
	assert_true(matches(sb.buf, "^FPSAnalyzer DISPATCH FRAME\\(>40\\):52 "
	    "INFO:Handler \\(android.view.Choreographer\\$FrameHandler\\) "
	    "\\{[0-9a-f]+\\} : [^:]+:com.a:com.a.B$"));
	strbuf_reset(&sb);
	assert_int_equal(logfmt_msg_fpsanalyzer(&sb, 40, "com.a", NULL), 'I');
	assert_true(matches(sb.buf, "^FPSAnalyzer DISPATCH FRAME:40 INFO:.*"
	    ":com.a:UNKNOWN$"));

	strbuf_reset(&sb);
	logfmt_msg_traceman(&sb, "com.a.B.c", 12, 1);
	strbuf_addch(&sb, '|');
	logfmt_msg_traceman(&sb, "com.a.B.d", 3, 0);
	assert_string_equal(sb.buf, "com.a.B.c  12ms [\xe4\xb8\xbb\xe7\xba\xbf"
	    "\xe7\xa8\x8b]|com.a.B.d  3ms [\xe9\x9d\x9e\xe4\xb8\xbb\xe7\xba\xbf"
	    "\xe7\xa8\x8b]");

	strbuf_reset(&sb);
	logfmt_msg_crash(&sb, "main", "com.a", 4242,
	    "java.lang.IllegalStateException: boom", frames, 1);
	assert_string_equal(sb.buf, "FATAL EXCEPTION: main\n"
	    "Process: com.a, PID: 4242\n"
	    "java.lang.IllegalStateException: boom\n"
	    "\tat java.lang.Thread.sleep(Thread.java:-2)");
	strbuf_reset(&sb);
	logfmt_msg_anr(&sb, "com.a", "com.a", "com.a.Main", 4242,
	    "Input dispatching timed out");
	assert_true(matches(sb.buf, "^ANR in com.a \\(com.a/.Main\\)\n"
	    "PID: 4242\nReason: Input dispatching timed out\n"));
	strbuf_release(&sb);
}

/* ---- Matrix ---- */

static const struct logfmt_matrix_device matrix_dev_147 = {
	"HIGH", 0.002791045673872224, 3926458368LL, 161364,
	"sample.tencent.matrix"
};

static const struct logfmt_matrix_device matrix_dev = {
	"HIGH", 0, 7883890688LL, 4016924, "sample.tencent.matrix"
};

/* Java's Double.toString as org.json uses it. */
static void
matrix_numbers(void **state)
{
	static const struct {
		double d;
		const char *text;
	} cases[] = {
		{ 60, "60" }, { -3, "-3" }, { 0.5, "0.5" },
		{ (double)57.41302490234375f, "57.41302490234375" },
		{ 0.002791045673872224, "0.002791045673872224" },
		{ 24.476625442504883, "24.476625442504883" },
		{ 1e-4, "1.0E-4" }, { 1.5e-5, "1.5E-5" }, { 12345678.5,
		  "1.23456785E7" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_reset(&sb);
		logfmt_matrix_number(&sb, cases[i].d);
		assert_string_equal(sb.buf, cases[i].text);
	}
	strbuf_release(&sb);
}

/* A 0.5.x FPS report of 61 smooth frames is issue #147's line, exactly. */
static void
matrix_fps_05_matches_real_issue(void **state)
{
	struct logfmt_matrix_fps c;
	struct strbuf content = STRBUF_INIT, line = STRBUF_INIT;

	logfmt_matrix_fps_init(&c, APPMODEL_MATRIX_05, 28, 16666666);
	for (int i = 0; i < 61; i++) {
		struct framegen_frame f = frame_of("x", SEC + i * 16666666LL,
		    5);

		logfmt_matrix_fps_add(&c, &f);
	}
	assert_false(logfmt_matrix_fps_due(&c));
	assert_int_equal(logfmt_matrix_fps_report(&c, &content,
	    &matrix_dev_147, "sample.tencent.matrix.issue.IssuesListActivity",
	    1553675665018LL), 1);
	logfmt_matrix_issue(&line, APPMODEL_MATRIX_05, "Trace_FPS", NULL,
	    content.buf);
	assert_string_equal(line.buf, "tag[Trace_FPS]type[null];key[null];"
	    "content[{\"machine\":\"HIGH\",\"cpu_app\":0.002791045673872224,"
	    "\"mem\":3926458368,\"mem_free\":161364,\"scene\":\"sample.tencent."
	    "matrix.issue.IssuesListActivity\",\"dropLevel\":{\"DROPPED_FROZEN"
	    "\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,"
	    "\"DROPPED_BEST\":61},\"dropSum\":{\"DROPPED_FROZEN\":0,\"DROPPED_"
	    "HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,\"DROPPED_BEST"
	    "\":0},\"fps\":60,\"tag\":\"Trace_FPS\",\"process\":\"sample.tencent."
	    "matrix\",\"time\":1553675665018}]");
	/* The collector starts over after a report. */
	assert_int_equal(c.frames, 0);
	strbuf_release(&content);
	strbuf_release(&line);
}

/* 2.1+ FPS: key order, levels, averages, GPU on 31+, the 20-frame rule. */
static void
matrix_fps_21(void **state)
{
	static const char *const keys[] = {
		"machine", "cpu_app", "mem", "mem_free", "scene", "dropLevel",
		"dropSum", "fps", "UNKNOWN_DELAY_DURATION",
		"INPUT_HANDLING_DURATION", "ANIMATION_DURATION",
		"LAYOUT_MEASURE_DURATION", "DRAW_DURATION", "SYNC_DURATION",
		"COMMAND_ISSUE_DURATION", "SWAP_BUFFERS_DURATION",
		"TOTAL_DURATION", "GPU_DURATION", "DROP_COUNT", "REFRESH_RATE",
		"tag", "process", "time",
	};
	struct logfmt_matrix_fps c;
	struct strbuf sb = STRBUF_INIT;
	cJSON *j, *it;
	size_t k = 0;
	long long t = SEC;

	logfmt_matrix_fps_init(&c, APPMODEL_MATRIX_21, 31, 16666666);
	for (int i = 0; i < 20; i++)
		logfmt_matrix_fps_add(&c, &(struct framegen_frame){ 0 });
	assert_int_equal(logfmt_matrix_fps_report(&c, &sb, &matrix_dev, "s",
	    1), 0);
	assert_int_equal(sb.len, 0);

	/* 28 frames of 10 ms, one of 100 ms (5 dropped), one of 500 (29). */
	for (int i = 0; i < 30; i++) {
		struct framegen_frame f = frame_of("x", t,
		    i == 3 ? 100 : i == 7 ? 500 : 10);

		logfmt_matrix_fps_add(&c, &f);
		t += 600 * 1000000LL;
	}
	assert_true(logfmt_matrix_fps_due(&c));
	assert_int_equal(logfmt_matrix_fps_report(&c, &sb, &matrix_dev,
	    "a.Feed", 1700000000000LL), 1);
	j = cJSON_Parse(sb.buf);
	assert_non_null(j);
	cJSON_ArrayForEach(it, j) {
		assert_true(k < sizeof(keys) / sizeof(keys[0]));
		assert_string_equal(it->string, keys[k++]);
	}
	assert_int_equal(k, sizeof(keys) / sizeof(keys[0]));
	assert_non_null(strstr(sb.buf, "\"dropLevel\":{\"DROPPED_BEST\":28,"
	    "\"DROPPED_NORMAL\":1,\"DROPPED_MIDDLE\":0,\"DROPPED_HIGH\":1,"
	    "\"DROPPED_FROZEN\":0},\"dropSum\":{\"DROPPED_BEST\":0,"
	    "\"DROPPED_NORMAL\":5,\"DROPPED_MIDDLE\":0,\"DROPPED_HIGH\":29,"));
	/* fps = 1e9 / mean(max(total, period)), as a float. */
	{
		double mean = (28 * 16666666.0 + 100e6 + 500e6) / 30;
		struct strbuf want = STRBUF_INIT;

		strbuf_addstr(&want, "\"fps\":");
		logfmt_matrix_number(&want, (double)(float)(1e9 / mean));
		strbuf_addch(&want, ',');
		assert_non_null(strstr(sb.buf, want.buf));
		strbuf_release(&want);
	}
	assert_int_equal(cJSON_GetObjectItem(j, "TOTAL_DURATION")->valuedouble,
	    (28 * 10000000LL + 100000000LL + 500000000LL) / 30);
	assert_int_equal(cJSON_GetObjectItem(j, "DROP_COUNT")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(j, "REFRESH_RATE")->valueint, 60);
	cJSON_Delete(j);

	/* No GPU_DURATION below 31. */
	strbuf_reset(&sb);
	logfmt_matrix_fps_init(&c, APPMODEL_MATRIX_21, 30, 16666666);
	for (int i = 0; i < 25; i++) {
		struct framegen_frame f = frame_of("x", SEC + i * SEC, 8);

		logfmt_matrix_fps_add(&c, &f);
	}
	assert_int_equal(logfmt_matrix_fps_report(&c, &sb, &matrix_dev, "s",
	    1), 1);
	assert_null(strstr(sb.buf, "GPU_DURATION"));
	/* Every frame counts as one 16666666 ns period. */
	assert_true(matches(sb.buf, "\"fps\":60\\.0000[0-9]*,"));
	strbuf_release(&sb);
}

/* NORMAL on 2.1 is the 27house.cn real report, byte for byte. */
static void
matrix_evil_normal_per_version(void **state)
{
	static const int ids[] = { 243 };
	struct strbuf stack = STRBUF_INIT, key = STRBUF_INIT, sb = STRBUF_INIT;
	struct logfmt_matrix_evil e = { LOGFMT_MATRIX_NORMAL, 1006,
	    "sample.tencent.matrix.trace.TestFpsActivity", NULL, NULL, NULL,
	    95.65, 0, 0, 0, 1, 0, 0, 0, 0 };

	logfmt_matrix_trace(&stack, &key, APPMODEL_MATRIX_21, 1006, ids, 1);
	assert_string_equal(stack.buf, "0,1048574,1,1006\n1,243,1,1000\n");
	assert_string_equal(key.buf, "243|");
	e.stack = stack.buf;
	e.stack_key = key.buf;
	logfmt_matrix_evil(&sb, APPMODEL_MATRIX_21, &matrix_dev, &e,
	    1683771521931LL);
	assert_string_equal(sb.buf, "{\"machine\":\"HIGH\",\"cpu_app\":0,"
	    "\"mem\":7883890688,\"mem_free\":4016924,\"detail\":\"NORMAL\","
	    "\"cost\":1006,\"scene\":\"sample.tencent.matrix.trace."
	    "TestFpsActivity\",\"stack\":\"0,1048574,1,1006\\n1,243,1,1000\\n"
	    "\",\"stackKey\":\"243|\",\"tag\":\"Trace_EvilMethod\",\"process\":"
	    "\"sample.tencent.matrix\",\"time\":1683771521931}");
	strbuf_reset(&sb);
	logfmt_matrix_evil(&sb, APPMODEL_MATRIX_20, &matrix_dev, &e, 1);
	assert_true(matches(sb.buf, "\"cost\":1006,\"usage\":\"95.65%\","
	    "\"scene\":\"[^\"]+\",\"stack\":"));
	strbuf_reset(&sb);
	logfmt_matrix_evil(&sb, APPMODEL_MATRIX_05, &matrix_dev, &e, 1);
	assert_true(matches(sb.buf, "\"cost\":1006,\"usage\":\"95.65%\","
	    "\"stack\":"));
	assert_null(strstr(sb.buf, "scene"));

	/* 0.5 keys every heavy call, 2.x only the heaviest deepest one. */
	{
		static const int chain[] = { 10, 11, 12 };
		struct strbuf s2 = STRBUF_INIT, k2 = STRBUF_INIT;

		logfmt_matrix_trace(&s2, &k2, APPMODEL_MATRIX_05, 800, chain,
		    3);
		assert_string_equal(k2.buf, "10|11|12|");
		strbuf_reset(&s2);
		strbuf_reset(&k2);
		logfmt_matrix_trace(&s2, &k2, APPMODEL_MATRIX_20, 800, chain,
		    3);
		assert_string_equal(k2.buf, "12|");
		assert_string_equal(s2.buf, "0,1048574,1,800\n1,10,1,795\n"
		    "2,11,1,790\n3,12,1,785\n");
		strbuf_release(&s2);
		strbuf_release(&k2);
	}
	strbuf_release(&stack);
	strbuf_release(&key);
	strbuf_release(&sb);
}

/* Key lists and orders of the other details (docs/formats.md §1.4). */
static void
matrix_evil_other_details(void **state)
{
	static const struct {
		enum logfmt_matrix_detail detail;
		const char *keys;
	} cases[] = {
		{ LOGFMT_MATRIX_ANR, "detail,cost,stackKey,scene,stack,"
		  "threadStack,processPriority,processNice,isProcessForeground,"
		  "memory," },
		{ LOGFMT_MATRIX_LAG, "detail,scene,threadStack,"
		  "isProcessForeground," },
		{ LOGFMT_MATRIX_SIGNAL_ANR, "detail,threadStack,scene,"
		  "isProcessForeground," },
		{ LOGFMT_MATRIX_LAG_TOUCH, "detail,scene,threadStack,"
		  "isProcessForeground," },
		{ LOGFMT_MATRIX_PRIORITY_MODIFIED, "detail,threadStack,"
		  "processPriority," },
		{ LOGFMT_MATRIX_TIMERSLACK_MODIFIED, "detail,threadStack,"
		  "processTimerSlack," },
		{ LOGFMT_MATRIX_STARTUP, "detail,cost,stack,stackKey,subType," },
	};
	struct logfmt_matrix_evil e = { 0, 5200, "a.Main", "0,1048574,1,5200\n",
	    "", "java.lang.Thread.sleep(Native Method)\n", 0, 10, -10, 50000,
	    1, 8804, 33084, 4194304, 1 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT, got = STRBUF_INIT;
		cJSON *j, *it;
		int n = 0;

		e.detail = cases[i].detail;
		logfmt_matrix_evil(&sb, APPMODEL_MATRIX_21, &matrix_dev, &e, 1);
		j = cJSON_Parse(sb.buf);
		assert_non_null(j);
		cJSON_ArrayForEach(it, j)
			if (n++ >= 4 && strcmp(it->string, "tag") &&
			    strcmp(it->string, "process") &&
			    strcmp(it->string, "time"))
				strbuf_addf(&got, "%s,", it->string);
		assert_string_equal(got.buf, cases[i].keys);
		if (e.detail == LOGFMT_MATRIX_ANR)
			assert_non_null(strstr(sb.buf, "\"memory\":{\"dalvik_heap"
			    "\":8804,\"native_heap\":33084,\"vm_size\":4194304}"));
		cJSON_Delete(j);
		strbuf_release(&sb);
		strbuf_release(&got);
	}
}

/*
 * Trace_StartUp as documented (docs/formats.md §1.5); threadStack formats;
 * escaping.
 */
static void
matrix_startup_and_stacks(void **state)
{
	static const char *const frames[] = {
		"java.lang.Thread.sleep(Native Method)",
		"java.lang.Thread.sleep(Thread.java:450)",
		"java.lang.Thread.sleep(Thread.java:355)",
		"com.a.Feed.onBind(Feed.java:88)",
		"android.os.Handler.dispatchMessage(Handler.java:99)",
		"Weird(Unknown Source)",
	};
	struct logfmt_matrix_startup s = { 415, 159, 1240, 1240, 0 };
	struct strbuf sb = STRBUF_INIT;

	logfmt_matrix_startup(&sb, &matrix_dev, &s, 1700000000000LL);
	assert_string_equal(sb.buf, "{\"machine\":\"HIGH\",\"cpu_app\":0,"
	    "\"mem\":7883890688,\"mem_free\":4016924,\"application_create\":"
	    "415,\"application_create_scene\":159,\"first_activity_create\":"
	    "1240,\"startup_duration\":1240,\"is_warm_start_up\":false,\"tag\":"
	    "\"Trace_StartUp\",\"process\":\"sample.tencent.matrix\",\"time\":"
	    "1700000000000}");

	strbuf_reset(&sb);
	logfmt_matrix_thread_stack(&sb, 0, frames, 2);
	assert_string_equal(sb.buf, "java.lang.Thread.sleep(Native Method)\n"
	    "java.lang.Thread.sleep(Thread.java:450)\n");
	strbuf_reset(&sb);
	logfmt_matrix_thread_stack(&sb, 1, frames, 6);
	assert_string_equal(sb.buf, " \n|*\t\tat com.a.Feed:onBind(88)\n"
	    "|*\t\tat android.os.Handler:dispatchMessage(99)\n"
	    "|*\t\tat :Weird(-1)\n");

	/* org.json escapes '/', quotes and controls in string values. */
	strbuf_reset(&sb);
	{
		struct logfmt_matrix_evil e = { LOGFMT_MATRIX_LAG, 0,
		    "a/b\"c\x01", NULL, NULL, "x\ty", 0, 0, 0, 0, 1, 0, 0, 0,
		    0 };

		logfmt_matrix_evil(&sb, APPMODEL_MATRIX_21, &matrix_dev, &e, 1);
	}
	assert_non_null(strstr(sb.buf, "\"scene\":\"a\\/b\\\"c\\u0001\","
	    "\"threadStack\":\"x\\ty\""));
	strbuf_reset(&sb);
	logfmt_matrix_issue(&sb, APPMODEL_MATRIX_20, "Trace_EvilMethod",
	    "1234", "{}");
	assert_string_equal(sb.buf,
	    "tag[Trace_EvilMethod]type[0];key[1234];content[{}]");
	strbuf_release(&sb);
}

/* ---- BlockCanary ---- */

static const struct bcfmt_device bc_dev = {
	"1_1.0_YYB", "1.0", 1, "empty_imei", "87224330", "4G", "Pixel 5", 30,
	"11", 8, "com.example.blockcanary", 3870096, 7636716
};

/* 2016-11-02 14:05:32.011 as wall ms. */
#define BC_START	1478095532011LL

/* The 1.5 file: CRLF only, key order, samples inside the block. */
static void
bc_file_layout(void **state)
{
	static const char *const stack[] = {
		"java.lang.Thread.sleep(Native Method)",
		"com.example.blockcanary.DemoFragment.onClick(DemoFragment.java:79)",
	};
	static const char *const keys[] = {
		"qua", "versionName", "versionCode", "imei", "uid", "network",
		"model", "api-level", "cpu-core", "process", "freeMemory",
		"totalMemory", "time", "thread-time", "time-start", "time-end",
		"cpu-busy", "cpu-rate", "stack", NULL
	};
	struct bcfmt_block b = { BC_START, BC_START + 1203, 1198, 0, stack, 2,
	    500, 0 };
	struct strbuf sb = STRBUF_INIT, lf = STRBUF_INIT;
	size_t k = 0;
	int samples = 0;
	char *save = NULL, *line;

	assert_true(bcfmt_writes(&b));
	bcfmt_file(&sb, 15, &bc_dev, &b, BC_START + 1203);
	assert_true(!strncmp(sb.buf, "\r\n**********************\r\n"
	    "2016-11-02 14:05:33(write log time)\r\n\r\nqua = 1_1.0_YYB\r\n",
	    82));
	/* Every '\n' is part of a "\r\n". */
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] == '\n')
			assert_true(i > 0 && sb.buf[i - 1] == '\r');
	assert_non_null(strstr(sb.buf, "\r\napi-level = 30 11\r\n"));
	assert_non_null(strstr(sb.buf, "\r\ntime = 1203\r\nthread-time = 1198"
	    "\r\ntime-start = 11-02 14:05:32.011\r\ntime-end = 11-02 "
	    "14:05:33.214\r\ncpu-busy = false\r\ncpu-rate = 11-02 "
	    "14:05:32.411 cpu:"));
	assert_non_null(strstr(sb.buf, "\r\nstack = 11-02 14:05:32.414\r\n\r\n"
	    "java.lang.Thread.sleep(Native Method)\r\n"));

	/* Keys in order; sample timestamps alone on their line, then blank. */
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] != '\r')
			strbuf_addch(&lf, sb.buf[i]);
	for (line = strtok_r(lf.buf, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		int mo, d, h, mi, s, ms, used = 0;

		if (keys[k] && !strncmp(line, keys[k], strlen(keys[k])) &&
		    !strncmp(line + strlen(keys[k]), " = ", 3))
			k++;
		if (sscanf(line, "%2d-%2d %2d:%2d:%2d.%3d%n", &mo, &d, &h, &mi,
		    &s, &ms, &used) == 6 && !line[used])
			samples++;
	}
	assert_null(keys[k]);
	/*
	 * Samples at 0.4 s + 3 ms, then every 0.5 s, inside 1.203 s: two;
	 * the first one's time is on the "stack = " line.
	 */
	assert_int_equal(samples, 1);
	assert_non_null(strstr(sb.buf, "\r\n\r\n11-02 14:05:32.914\r\n\r\n"
	    "java.lang.Thread.sleep(Native Method)\r\n"));
	assert_non_null(strstr(sb.buf, "\r\n11-02 14:05:32.911 cpu:"));
	assert_int_equal(count_lines_starting(sb.buf, "11-02 14:05:"), 2);
	strbuf_release(&lf);

	/* A short block writes nothing. */
	b.end_ms = BC_START + 499;
	assert_false(bcfmt_writes(&b));
	strbuf_release(&sb);
}

/* 1.0-1.2 keys and .txt; the two directories. */
static void
bc_old_keys_names_and_dirs(void **state)
{
	static const char *const stack[] = { "a.B.c(B.java:1)" };
	struct bcfmt_block b = { BC_START, BC_START + 2500, 2000, 1, stack, 1,
	    1000, 0 };
	struct strbuf sb = STRBUF_INIT;

	bcfmt_file(&sb, 12, &bc_dev, &b, BC_START + 2500);
	assert_true(matches(sb.buf, "\r\nqualifier = 1_1.0_YYB\r\n"));
	assert_true(matches(sb.buf, "\r\napilevel = 30 11\r\ncpuCore = 8\r\n"
	    "processName = com.example.blockcanary\r\n"));
	assert_true(matches(sb.buf, "\r\ntimecost = 2500\r\nthreadtimecost = "
	    "2000\r\ntimestart = .*\r\ntimeend = .*\r\ncpubusy = true\r\n"
	    "cpurate = "));
	assert_null(strstr(sb.buf, "api-level"));
	strbuf_reset(&sb);
	bcfmt_file_name(&sb, 15, BC_START + 1203);
	strbuf_addch(&sb, ' ');
	bcfmt_file_name(&sb, 12, BC_START + 1203);
	strbuf_addch(&sb, ' ');
	bcfmt_dir(&sb, APPMODEL_BC_FILES, "com.a");
	strbuf_addch(&sb, ' ');
	bcfmt_dir(&sb, APPMODEL_BC_EXTERNAL, "com.a");
	assert_string_equal(sb.buf, "looper-2016-11-02_14-05-33.214.log "
	    "looper-2016-11-02_14-05-33.214.txt "
	    "/data/user/0/com.a/files/blockcanary/ "
	    "/storage/emulated/0/blockcanary/");
	strbuf_release(&sb);
}

/* ---- truth ---- */

/* Every frame, block, launch and method is one JSON line, values intact. */
static void
truth_lines_match_generation(void **state)
{
	struct appmodel *m = model_file("shop-v2.json");
	struct framegen *g = framegen_new(4, 60);
	struct framegen_out out = FRAMEGEN_OUT_INIT;
	struct truth_mark mark = { 0, 0, 0 };
	struct strbuf sb = STRBUF_INIT;
	struct truth *t = NULL;
	char *path = xasprintf("%s/truth.jsonl", unit_tmpdir());
	int kinds[4] = { 0, 0, 0, 0 };
	size_t frame = 0;
	char *save = NULL, *line;
	struct framegen_action acts[] = {
		{ FRAMEGEN_LAUNCH, ".CheckoutActivity", 5 * SEC, 0, NULL,
		  FRAMEGEN_WARM },
		{ FRAMEGEN_TAP, ".CheckoutActivity", 8 * SEC, 60, NULL, 0 },
		{ FRAMEGEN_TAP, ".CheckoutActivity", 9 * SEC, 60, NULL, 0 },
		{ FRAMEGEN_TAP, ".CheckoutActivity", 10 * SEC, 60, NULL, 0 },
	};

	assert_int_equal(truth_open(&t, path), 0);
	for (size_t i = 0; i < 4; i++) {
		run_ok(g, m, &acts[i], &out);
		truth_record(t, m->package, &out, &mark);
	}
	truth_close(t);
	assert_true(out.nr_blocks > 0);
	assert_int_equal(file_read(&sb, path), 0);
	for (line = strtok_r(sb.buf, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		cJSON *j = cJSON_Parse(line);
		const char *kind;

		assert_non_null(j);
		kind = cJSON_GetObjectItem(j, "kind")->valuestring;
		assert_string_equal(cJSON_GetObjectItem(j, "package")->
		    valuestring, "com.example.shop");
		if (!strcmp(kind, "frame")) {
			const struct framegen_frame *f = &out.frames[frame++];

			kinds[0]++;
			assert_true(cJSON_GetObjectItem(j, "start_ns")->
			    valuedouble == (double)f->intended_vsync);
			assert_true(cJSON_GetObjectItem(j, "duration_ns")->
			    valuedouble == (double)framegen_duration(f));
			assert_int_equal(cJSON_GetObjectItem(j, "block")->
			    valueint, f->block);
		} else if (!strcmp(kind, "block")) {
			kinds[1]++;
			assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(j,
			    "stack")) > 3);
		} else if (!strcmp(kind, "launch")) {
			kinds[2]++;
			assert_string_equal(cJSON_GetObjectItem(j, "state")->
			    valuestring, "warm");
		} else if (!strcmp(kind, "method"))
			kinds[3]++;
		else
			fail_msg("unknown kind '%s'", kind);
		cJSON_Delete(j);
	}
	assert_int_equal(kinds[0], out.nr_frames);
	assert_int_equal(kinds[1], out.nr_blocks);
	assert_int_equal(kinds[2], 1);
	assert_int_equal(kinds[3], out.nr_methods);
	assert_int_equal(kinds[3], 3);
	free(path);
	strbuf_release(&sb);
	framegen_out_release(&out);
	framegen_free(g);
	appmodel_free(m);
}

/* ---- apprun ---- */

/* An app with every library and a block that every scroll triggers. */
static const char busy_model[] =
	"{\"package\":\"com.example.busy\",\"versionName\":\"2.0\","
	"\"versionCode\":20,\"startup\":{\"fully_drawn_ms\":900},"
	"\"libraries\":{\"matrix\":\"2.1\",\"blockcanary\":{\"version\":"
	"\"1.5\",\"threshold_ms\":500},\"perf\":true,\"fpsanalyzer\":true,"
	"\"traceman\":true},"
	"\"activities\":[{\"name\":\".Main\",\"elements\":["
	"{\"text\":\"Go\",\"bounds\":[0,0,500,500],\"tap\":{\"open\":\".List\"}}"
	"]},{\"name\":\".List\","
	"\"frames\":{\"scroll\":{\"median_ms\":9}},"
	"\"scroll\":{\"bounds\":[0,0,1080,2000],\"content_px\":9000},"
	"\"elements\":[{\"desc\":\"up\",\"bounds\":[0,0,100,100],"
	"\"tap\":\"back\"}],"
	"\"blocks\":[{\"on\":\"scroll\",\"p\":1,\"ms\":1200,\"sigma\":0,"
	"\"stack\":[\"java.lang.Thread.sleep(Native Method)\","
	"\"com.example.busy.List.bind(List.java:42)\"],\"methods\":[5,6]}],"
	"\"methods\":[{\"name\":\"com.example.busy.List.bind\","
	"\"on\":\"scroll\",\"ms\":3}]}]}";

struct files {
	struct strbuf names;
	int count;
	size_t bytes;
};

static void
save_file(void *ctx, const char *path, const void *data, size_t len)
{
	struct files *f = ctx;

	strbuf_addf(&f->names, "%s\n", path);
	f->count++;
	f->bytes += len;
	assert_non_null(memmem(data, len, "\r\nstack = ", 10));
}

/* A scripted session; its log (threadtime) and files go to `log`/`f`. */
static void
busy_session(int sdk, uint64_t seed, struct strbuf *log, struct files *f)
{
	struct appmodel *m = model_from(busy_model);
	struct logfmt_buf *buf = logfmt_buf_new(1 << 24);
	struct apprun_env env = { sdk, "14", "Pixel 7", 8, 7800000, 3900000,
	    60, seed, 1502, 1730815000LL * SEC, 0, buf, NULL, save_file, f, NULL, NULL };
	struct apprun *r = apprun_new(m, &env, 10123);
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT;
	struct amfmt_start as;
	struct logfmt_opts o;
	struct strbuf sb = STRBUF_INIT;
	long long t = 5 * SEC;

	assert_int_equal(apprun_start(r, NULL, 4242, t, &as), 0);
	assert_int_equal(as.state, AMFMT_COLD);
	assert_true(as.total_ms > 0 && as.wait_ms >= as.total_ms);
	assert_string_equal(apprun_top(r), "com.example.busy.Main");
	assert_int_equal(apprun_tap(r, 100, 100, 60, 8 * SEC), 0);
	assert_string_equal(apprun_top(r), "com.example.busy.List");
	for (int i = 0; i < 3; i++)
		assert_int_equal(apprun_swipe(r, 500, 1800, 500, 300, 200,
		    (10 + 3 * i) * SEC), 0);
	apprun_advance(r, 25 * SEC);
	apprun_traceman_end(r, 25 * SEC, NULL);
	assert_int_equal(apprun_gfxinfo(r, &sb, GFX_FRAMESTATS, 25 * SEC), 0);
	/* Each block stalls most of its fling: few, long frames. */
	assert_true(field(sb.buf, "Total frames rendered") > 50);
	assert_int_equal(field(sb.buf, "Number Missed Vsync"), 3);
	assert_int_equal(count_lines_starting(sb.buf, "Window: "), 2);
	/* Back to Main, then out of the app: taps miss it. */
	assert_int_equal(apprun_tap(r, 50, 50, 60, 26 * SEC), 0);
	assert_int_equal(apprun_back(r, 28 * SEC), 0);
	assert_null(apprun_top(r));
	assert_int_equal(apprun_tap(r, 100, 100, 60, 29 * SEC), JG_ENOTFOUND);
	/* Still alive in the background: a start brings it back hot. */
	assert_int_equal(apprun_start(r, NULL, 999, 30 * SEC, &as), 0);
	assert_int_equal(as.state, AMFMT_WARM);
	apprun_home(r, 31 * SEC);
	assert_int_equal(apprun_start(r, ".Main", 999, 32 * SEC, &as), 0);
	assert_int_equal(as.state, AMFMT_HOT);
	assert_int_equal(as.warning, AMFMT_BROUGHT_TO_FRONT);
	assert_int_equal(apprun_pid(r), 4242);
	assert_int_equal(apprun_start(r, ".Main", 999, 33 * SEC, &as), 0);
	assert_int_equal(as.warning, AMFMT_DELIVERED_TO_TOP);
	apprun_force_stop(r, 34 * SEC);
	assert_int_equal(apprun_pid(r), 0);
	strbuf_reset(&sb);
	assert_int_equal(apprun_gfxinfo(r, &sb, 0, 34 * SEC), JG_ENOTFOUND);
	assert_int_equal(apprun_start(r, ".Nope", 1, 35 * SEC, &as),
	    JG_ENOTFOUND);

	logfmt_opts_init(&o);
	logfmt_buf_dump(buf, log, &o, &c, 60 * SEC, 0);
	strbuf_release(&sb);
	apprun_free(r);
	logfmt_buf_free(buf);
	appmodel_free(m);
}

/* A session's log holds each framework and library output it should. */
static void
apprun_session_outputs(void **state)
{
	struct strbuf log = STRBUF_INIT;
	struct files f = { STRBUF_INIT, 0, 0 };

	busy_session(34, 5, &log, &f);
	/* Displayed for the cold start, the in-app start and the warm one. */
	assert_int_equal(count_lines_starting(log.buf, "--------- beginning "
	    "of system"), 1);
	assert_true(matches(log.buf, "\n11-05 13:5[0-9]:[0-9.]+  1502  1529 I "
	    "ActivityTaskManager: Displayed com.example.busy/.Main for user 0: "
	    "\\+[0-9]+ms\n"));
	assert_true(matches(log.buf, "ActivityTaskManager: Displayed "
	    "com.example.busy/.List for user 0: "));
	assert_true(matches(log.buf, "ActivityTaskManager: Fully drawn "
	    "com.example.busy/.Main: \\+[0-9s]+ms\n"));
	/* Three 1.2 s blocks: Choreographer, Matrix, BlockCanary, perf. */
	assert_true(matches(log.buf, " 4242  4242 I Choreographer: Skipped "
	    "7[0-9] frames!  The application"));
	assert_true(matches(log.buf, " 4242  4301 I Matrix.DefaultPluginListener"
	    ": report issue content: tag\\[Trace_StartUp\\]type\\[0\\];key"
	    "\\[null\\];content\\[\\{\"machine\":\"HIGH\",.*"
	    "\"is_warm_start_up\":false,"));
	assert_int_equal(count_containing(log.buf,
	    "tag[Trace_EvilMethod]"), 3);
	assert_true(count_containing(log.buf, "tag[Trace_FPS]") >= 2);
	assert_true(count_containing(log.buf,
	    " I FPSAnalyzer: FPSAnalyzer DISPATCH FRAME:") > 100);
	assert_int_equal(count_containing(log.buf,
	    " E FPSAnalyzer: FPSAnalyzer DISPATCH FRAME(>40):"), 3);
	assert_int_equal(count_containing(log.buf,
	    " W PERF_Issue: type: UI BLOCK"), 3);
	assert_true(count_containing(log.buf, "PERF_FPSTool: APP FPS is: ")
	    >= 19);
	assert_int_equal(count_containing(log.buf,
	    " I costTime: com.example.busy.List.bind  "), 3);
	assert_true(matches(log.buf, " E PERF_FPSTool: APP FPS is: [0-4][0-9] "
	    "Hz\n"));
	/* A BlockCanary file per block, in the app's files dir. */
	assert_int_equal(f.count, 3);
	assert_true(matches(f.names.buf, "^/data/user/0/com.example.busy/files/"
	    "blockcanary/looper-2024-11-05_13-5[0-9]-[0-9.]+\\.log\n"));
	strbuf_release(&log);
	strbuf_release(&f.names);
}

/* Same seed, same log and files; API 28 logs as ActivityManager. */
static void
apprun_is_deterministic(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	struct files fa = { STRBUF_INIT, 0, 0 }, fb = { STRBUF_INIT, 0, 0 };
	struct files fc = { STRBUF_INIT, 0, 0 };

	busy_session(28, 9, &a, &fa);
	busy_session(28, 9, &b, &fb);
	busy_session(28, 10, &c, &fc);
	assert_string_equal(a.buf, b.buf);
	assert_string_equal(fa.names.buf, fb.names.buf);
	assert_int_equal(fa.bytes, fb.bytes);
	assert_string_not_equal(a.buf, c.buf);
	assert_true(matches(a.buf, " I ActivityManager: Displayed "
	    "com.example.busy/.Main: \\+[0-9]+ms\n"));
	assert_null(strstr(a.buf, "ActivityTaskManager"));
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	strbuf_release(&fa.names);
	strbuf_release(&fb.names);
	strbuf_release(&fc.names);
}


/* Filterspecs: a tag's own spec wins over "*", S silences, V is the floor. */
static void
log_filterspecs(void **state)
{
	struct logfmt_buf *b = logfmt_buf_new(1 << 20);
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT;
	struct logfmt_filter f[] = { { "*", 'S' }, { "keep", 'W' } };
	struct logfmt_opts o;
	struct strbuf out = STRBUF_INIT;
	struct logfmt_entry e = { LOGFMT_MAIN, SEC, SEC, 1, 1, 0, 'I', "keep",
	    "info" };

	logfmt_buf_add(b, &e);
	e.prio = 'E';
	e.msg = "error";
	logfmt_buf_add(b, &e);
	e.tag = "other";
	logfmt_buf_add(b, &e);
	logfmt_opts_init(&o);
	logfmt_opts_word(&o, "brief");
	o.filters = f;
	o.nr_filters = 2;
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &c, LLONG_MAX, 0), 1);
	assert_string_equal(out.buf, "--------- beginning of main\n"
	    "E/keep    (    1): error\n");
	/* Without "*:S" the other tag shows at every priority. */
	strbuf_reset(&out);
	c = (struct logfmt_cursor)LOGFMT_CURSOR_INIT;
	o.filters = f + 1;
	o.nr_filters = 1;
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &c, LLONG_MAX, 0), 2);
	strbuf_release(&out);
	logfmt_buf_free(b);
}

/*
 * The loss fault drops about its share of app lines, never system ones,
 * and (API 30 and older) counts them in one chatty line per gap.
 */
static void
log_loss_and_chatty(void **state)
{
	struct logfmt_buf *b = logfmt_buf_new(1 << 22);
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT;
	struct logfmt_opts o;
	struct strbuf out = STRBUF_INIT;
	struct logfmt_entry e = { LOGFMT_MAIN, 0, 0, 4242, 4242, 10123, 'I',
	    "app", "line" };
	struct logfmt_entry sys = { LOGFMT_SYSTEM, 0, 0, 900, 927, 1000, 'I',
	    "ActivityManager", "sys" };
	const char *p;
	long app = 0, lost = 0, chatty = 0, sysn = 0;
	int i, n;

	logfmt_buf_set_loss(b, 25, 7, 1);
	for (i = 0; i < 2000; i++) {
		e.mono_ns = sys.mono_ns = (i + 1) * 1000000LL;
		logfmt_buf_add(b, &e);
		logfmt_buf_add(b, &sys);
	}
	logfmt_opts_init(&o);
	logfmt_opts_word(&o, "brief");
	logfmt_buf_dump(b, &out, &o, &c, LLONG_MAX, 0);
	for (p = out.buf; (p = strchr(p, '\n')); p++) {
		if (!strncmp(p + 1, "I/app ", 6))
			app++;
		else if (!strncmp(p + 1, "I/ActivityManager", 17))
			sysn++;
		else if (sscanf(p + 1, "I/chatty  ( 4242): uid=10123(u0_a123) "
		    "expire %d line", &n) == 1) {
			chatty++;
			lost += n;
		}
	}
	assert_int_equal(sysn, 2000);
	assert_int_equal(app + lost, 2000);
	assert_in_range(lost, 400, 600);
	assert_true(chatty > 0 && chatty <= lost);
	strbuf_release(&out);
	logfmt_buf_free(b);
}

/* A dead process's scheduled lines go; earlier ones and others stay. */
static void
log_drop_after(void **state)
{
	struct logfmt_buf *b = logfmt_buf_new(1 << 20);
	struct logfmt_cursor c = LOGFMT_CURSOR_INIT;
	struct logfmt_opts o;
	struct strbuf out = STRBUF_INIT;
	struct logfmt_entry e[] = {
		{ LOGFMT_MAIN, 1 * SEC, 1 * SEC, 7, 7, 0, 'I', "t", "before" },
		{ LOGFMT_MAIN, 3 * SEC, 3 * SEC, 7, 7, 0, 'I', "t", "after" },
		{ LOGFMT_MAIN, 3 * SEC, 3 * SEC, 8, 8, 0, 'I', "t", "other" },
		{ LOGFMT_SYSTEM, 4 * SEC, 4 * SEC, 9, 9, 0, 'I', "t",
		    "Displayed com.x/.A" },
	};

	for (size_t i = 0; i < 4; i++)
		logfmt_buf_add(b, &e[i]);
	logfmt_buf_drop_after(b, 2 * SEC, 7, " com.x/");
	logfmt_opts_init(&o);
	logfmt_opts_word(&o, "brief");
	assert_int_equal(logfmt_buf_dump(b, &out, &o, &c, LLONG_MAX, 0), 2);
	assert_non_null(strstr(out.buf, ": before\n"));
	assert_non_null(strstr(out.buf, ": other\n"));
	strbuf_release(&out);
	logfmt_buf_free(b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(rng_same_seed_same_stream),
	cmocka_unit_test(rng_distributions),
	cmocka_unit_test(appmodel_shipped_models_load),
	cmocka_unit_test(appmodel_found_inside_apk),
	cmocka_unit_test(appmodel_rejects_bad_models),
	cmocka_unit_test(appmodel_library_override),
	cmocka_unit_test(appmodel_elements_and_components),
	cmocka_unit_test(framegen_frame_count_follows_refresh_rate),
	cmocka_unit_test(framegen_median_follows_model),
	cmocka_unit_test(framegen_timestamps_are_ordered),
	cmocka_unit_test(framegen_block_stalls_main_thread),
	cmocka_unit_test(framegen_launch_times),
	cmocka_unit_test(framegen_is_deterministic),
	cmocka_unit_test(gfx_layout_per_api),
	cmocka_unit_test(gfx_profiledata_headers_match_formats),
	cmocka_unit_test(gfx_label_swap_and_no_input),
	cmocka_unit_test(gfx_histogram_buckets),
	cmocka_unit_test(gfx_percentiles_and_jank),
	cmocka_unit_test(gfx_reset_and_pending_frames),
	cmocka_unit_test(gfx_ring_keeps_last_120),
	cmocka_unit_test(gfx_args),
	cmocka_unit_test(am_start_per_api),
	cmocka_unit_test(log_duration_format),
	cmocka_unit_test(log_displayed_lines),
	cmocka_unit_test(log_layouts),
	cmocka_unit_test(log_multiline_messages),
	cmocka_unit_test(log_truncation),
	cmocka_unit_test(log_buffer_selection),
	cmocka_unit_test(log_buffer_prunes),
	cmocka_unit_test(log_filterspecs),
	cmocka_unit_test(log_loss_and_chatty),
	cmocka_unit_test(log_drop_after),
	cmocka_unit_test(log_library_lines),
	cmocka_unit_test(matrix_numbers),
	cmocka_unit_test(matrix_fps_05_matches_real_issue),
	cmocka_unit_test(matrix_fps_21),
	cmocka_unit_test(matrix_evil_normal_per_version),
	cmocka_unit_test(matrix_evil_other_details),
	cmocka_unit_test(matrix_startup_and_stacks),
	cmocka_unit_test(bc_file_layout),
	cmocka_unit_test(bc_old_keys_names_and_dirs),
	cmocka_unit_test(truth_lines_match_generation),
	cmocka_unit_test(apprun_session_outputs),
	cmocka_unit_test(apprun_is_deterministic),
};

JG_UNIT_GROUP(simformats, tests, NULL, NULL)
