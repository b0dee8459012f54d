/*
 * test_src_blockcanary.c: BlockCanary's looper logs, their device times,
 * and how their blocks land in scenes.
 *
 * Fixtures in tests/unit/data/sources/blockcanary/ are the docs/formats.md §2
 * sample written with \r\n line ends, in the 1.3+ key set (.log) and the
 * 1.0-1.2 one (.txt).  Variants (LF, cut, missing or extra keys, hostile
 * frames, huge stacks) are made from them in the tests.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "adb.h"
#include "config.h"
#include "error.h"
#include "fake_adb.h"
#include "fileio.h"
#include "results.h"
#include "signature.h"
#include "source.h"
#include "strbuf.h"
#include "blockcanary.h"

extern const struct source source_blockcanary;

#define NEW_LOG "looper-2016-11-02_14-05-33.214.log"
#define OLD_LOG "looper-2016-11-02_14-05-33.214.txt"

static void
fixture(struct strbuf *sb, const char *name)
{
	char *path;

	if (asprintf(&path, "%s/tests/unit/data/sources/blockcanary/%s",
	    unit_srcdir(), name) < 0)
		fail();
	assert_int_equal(file_read(sb, path), 0);
	free(path);
}

/* Replace the first `from` in `sb` with `to`. */
static void
replace(struct strbuf *sb, const char *from, const char *to)
{
	char *at = strstr(sb->buf, from);
	size_t pos;

	assert_non_null(at);
	pos = (size_t)(at - sb->buf);
	strbuf_remove(sb, pos, strlen(from));
	{
		struct strbuf tail = STRBUF_INIT;

		strbuf_addstr(&tail, sb->buf + pos);
		strbuf_setlen(sb, pos);
		strbuf_addstr(sb, to);
		strbuf_add(sb, tail.buf, tail.len);
		strbuf_release(&tail);
	}
}

static void
strip_cr(struct strbuf *sb)
{
	size_t o = 0;

	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] != '\r')
			sb->buf[o++] = sb->buf[i];
	strbuf_setlen(sb, o);
}

static void
parse_ok(struct bc_log *log, const struct strbuf *sb)
{
	bc_log_init(log);
	assert_int_equal(bc_log_parse(log, sb->buf, sb->len), 0);
}

/* A results model with one iteration and two scenes on the device clock. */
struct world {
	struct results *r;
	struct rs_iteration *it;
	struct config cfg;
	struct source_ctx ctx;
};

static void
world_init(struct world *w, int grace_ms)
{
	struct rs_scenario *s;
	struct rs_scene *sc;

	memset(w, 0, sizeof(*w));
	w->r = results_new();
	s = results_add_scenario(w->r, "shop");
	w->it = rs_scenario_add_iteration(s, false);
	sc = rs_iteration_add_scene(w->it, "feed");
	sc->start_mono_ms = 1000;
	sc->end_mono_ms = 5000;
	sc = rs_iteration_add_scene(w->it, "checkout");
	sc->start_mono_ms = 6000;
	sc->end_mono_ms = 9000;
	w->cfg.source_opts.grace_ms = grace_ms;
	w->ctx.cfg = &w->cfg;
	w->ctx.results = w->r;
	w->ctx.it = w->it;
}

/* 2016-11-02 14:05:32.011, the fixture's time-start, as local wall ms. */
static double
fixture_start_local(void)
{
	return bc_civil_ms(2016, 11, 2, 14, 5, 32, 11);
}

/* ---- the file ------------------------------------------------------- */

/*
 * The 1.3+ sample parses into its numbers, its two stamps, its three
 * samples split on their timestamp lines (each with its own frames), the
 * write time, and is neither truncated nor problematic.
 */
static void
new_keys_parse_whole(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct bc_log log;

	fixture(&sb, NEW_LOG);
	parse_ok(&log, &sb);
	assert_false(log.old_keys);
	assert_true(log.wall_ms == 1203);
	assert_true(log.thread_ms == 1198);
	assert_int_equal(log.cpu_busy, 0);
	assert_int_equal(log.start.month, 11);
	assert_int_equal(log.start.day, 2);
	assert_int_equal(log.start.sec, 32);
	assert_int_equal(log.start.ms, 11);
	assert_int_equal(log.end.ms, 214);
	assert_int_equal(log.nr_samples, 3);
	assert_int_equal(log.samples[0].at.ms, 814);
	assert_int_equal(log.samples[0].frames.nr, 9);
	assert_string_equal(log.samples[0].frames.items[0],
	    "java.lang.Thread.sleep(Native Method)");
	assert_int_equal(log.samples[1].at.ms, 14);
	assert_int_equal(log.samples[1].frames.nr, 4);
	assert_string_equal(log.samples[1].frames.items[0],
	    "java.io.FileOutputStream.write(FileOutputStream.java:315)");
	assert_true(log.write_ms == bc_civil_ms(2016, 11, 2, 14, 5, 33, 0));
	assert_false(log.truncated);
	assert_int_equal(log.problems.nr, 0);
	bc_log_release(&log);
	strbuf_release(&sb);
}

/*
 * The 1.0-1.2 key set gives the same block, and LF line ends read the
 * same as \r\n: one parser for both versions and both line ends.
 */
static void
old_keys_and_lf_read_the_same(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct bc_log n, o, lf;

	fixture(&a, NEW_LOG);
	fixture(&b, OLD_LOG);
	parse_ok(&n, &a);
	parse_ok(&o, &b);
	strip_cr(&a);
	parse_ok(&lf, &a);
	assert_true(o.old_keys);
	assert_int_equal(o.cpu_busy, 1);
	for (struct bc_log *x = &o; x; x = x == &o ? &lf : NULL) {
		assert_true(x->wall_ms == n.wall_ms);
		assert_true(x->thread_ms == n.thread_ms);
		assert_memory_equal(&x->start, &n.start, sizeof(n.start));
		assert_memory_equal(&x->end, &n.end, sizeof(n.end));
		assert_int_equal(x->nr_samples, n.nr_samples);
		for (size_t i = 0; i < n.nr_samples; i++) {
			assert_int_equal(x->samples[i].frames.nr,
			    n.samples[i].frames.nr);
			for (size_t j = 0; j < n.samples[i].frames.nr; j++)
				assert_string_equal(
				    x->samples[i].frames.items[j],
				    n.samples[i].frames.items[j]);
		}
		assert_false(x->truncated);
		assert_int_equal(x->problems.nr, 0);
	}
	bc_log_release(&n);
	bc_log_release(&o);
	bc_log_release(&lf);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* Does the text end right after a whole frame of the stack section? */
static bool
ends_at_frame(const char *s, size_t len)
{
	const char *stack = memmem(s, len, "stack = ", 8);

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	return stack && len && s[len - 1] == ')' && s + len > stack;
}

/*
 * Every proper prefix of a file, cut anywhere, either holds no key yet
 * (not a BlockCanary log) or parses marked truncated, and never crashes;
 * except right after a whole frame of its stack section: BlockCanary
 * writes its file itself, whole lines of whole entries, and nothing in
 * the format tells such a cut from the end of a stack.
 */
static void
every_cut_is_truncated(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t whole = 0, at_frame = 0;

	fixture(&sb, NEW_LOG);
	/* The last blank line may go without loss: stop two bytes early. */
	for (size_t len = 0; len + 2 < sb.len; len++) {
		struct bc_log log;
		int rc;

		bc_log_init(&log);
		rc = bc_log_parse(&log, sb.buf, len);
		if (rc)
			assert_int_equal(rc, JG_EINVAL);
		else if (!log.truncated && !ends_at_frame(sb.buf, len))
			fail_msg("a cut at %zu bytes of %zu reads as whole",
			    len, sb.len);
		whole += !rc && !log.truncated;
		at_frame += !rc && ends_at_frame(sb.buf, len);
		bc_log_release(&log);
	}
	/* Each cut after a whole frame (and only those) reads as whole. */
	assert_true(at_frame >= 6);
	assert_int_equal(whole, at_frame);
	strbuf_release(&sb);
}

/*
 * A paste that lost the closing blank lines (and maybe the last line
 * end) holds a whole stack: not truncated.  One cut inside the last
 * sample is.
 */
static void
paste_without_closing_blanks(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct bc_log log;

	fixture(&sb, NEW_LOG);
	while (sb.len && (sb.buf[sb.len - 1] == '\n' ||
	    sb.buf[sb.len - 1] == '\r'))
		strbuf_setlen(&sb, sb.len - 1);
	parse_ok(&log, &sb);
	assert_false(log.truncated);
	assert_int_equal(log.nr_samples, 3);
	bc_log_release(&log);
	strbuf_addstr(&sb, "\n");
	parse_ok(&log, &sb);
	assert_false(log.truncated);
	bc_log_release(&log);
	strbuf_setlen(&sb, sb.len - 20);
	parse_ok(&log, &sb);
	assert_true(log.truncated);
	bc_log_release(&log);
	strbuf_release(&sb);
}

/*
 * Whole or cut is read from the format: a log whose stack section has
 * its samples, each frame a whole line, is whole without its closing
 * blank lines and whatever its deepest frame (a sampler that stops short
 * of main, a copy from the app's screen); one that ends on a sample time
 * with no frame, or inside a frame, is cut.
 */
static void
truncation_from_the_format(void **state)
{
	static const char head[] =
	    "time = 420\r\n"
	    "time-start = 11-02 14:05:32.011\r\n"
	    "time-end = 11-02 14:05:32.431\r\n"
	    "stack = 11-02 14:05:32.300\r\n"
	    "com.x.Feed.bind(Feed.java:88)\r\n"
	    "android.os.Handler.dispatchMessage(Handler.java:106)\r\n"
	    "android.os.Looper.loop(Looper.java:193)\r\n";
	struct strbuf sb = STRBUF_INIT;
	struct bc_log log;

	strbuf_addstr(&sb, head);
	parse_ok(&log, &sb);
	assert_false(log.truncated);
	assert_int_equal(log.nr_samples, 1);
	assert_int_equal(log.samples[0].frames.nr, 3);
	bc_log_release(&log);

	/* a second sample's time, and nothing after it */
	strbuf_addstr(&sb, "\r\n11-02 14:05:32.400\r\n");
	parse_ok(&log, &sb);
	assert_true(log.truncated);
	bc_log_release(&log);

	/* a frame cut inside its line */
	strbuf_addstr(&sb, "com.x.Feed.bind(Feed.ja");
	parse_ok(&log, &sb);
	assert_true(log.truncated);
	bc_log_release(&log);
	strbuf_release(&sb);
}

/*
 * Missing keys are problems, not failures: without `time` the wall time
 * comes from time-end - time-start; without `time-start` the block has no
 * start.  Both name the key.
 */
static void
missing_keys_are_noted(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct rs_block blk;
	struct bc_log log;

	fixture(&sb, NEW_LOG);
	replace(&sb, "time = 1203\r\n", "");
	parse_ok(&log, &sb);
	assert_true(isnan(log.wall_ms));
	assert_int_equal(log.problems.nr, 1);
	assert_string_equal(log.problems.items[0], "no 'time' key");
	memset(&blk, 0, sizeof(blk));
	bc_log_to_block(&log, &blk, 0, fixture_start_local());
	assert_true(blk.wall_ms == 1203);
	assert_true(blk.start_mono_ms == fixture_start_local());
	bc_log_release(&log);
	free(blk.kind);
	free(blk.signature);
	strlist_release(&blk.stack);

	replace(&sb, "time-start = 11-02 14:05:32.011\r\n", "");
	parse_ok(&log, &sb);
	assert_non_null(strstr(log.problems.items[1], "'time-start'"));
	memset(&blk, 0, sizeof(blk));
	bc_log_to_block(&log, &blk, 0, fixture_start_local());
	assert_true(isnan(blk.start_mono_ms));
	assert_true(isnan(blk.wall_ms));
	bc_log_release(&log);
	free(blk.kind);
	free(blk.signature);
	strlist_release(&blk.stack);
	strbuf_release(&sb);
}

/*
 * Unknown keys (before or among the known ones) are ignored, a repeated
 * key keeps the last value and says so, malformed values are named, and
 * a frame that contains " = " stays a frame.
 */
static void
extra_and_bad_keys(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct bc_log log;

	fixture(&sb, NEW_LOG);
	replace(&sb, "qua = ", "new-key = 1\r\nqua = ");
	replace(&sb, "cpu-busy = false", "cpu-busy = maybe\r\nfuture = x");
	replace(&sb, "thread-time = 1198", "thread-time = 1198\r\n"
	    "thread-time = 77");
	replace(&sb, "time-end = 11-02 14:05:33.214", "time-end = 13-45 "
	    "99:00:00.000");
	replace(&sb, "android.view.View.performClick(View.java:7448)",
	    "com.x.Odd.a(Odd.java:1) = time = 5");
	parse_ok(&log, &sb);
	assert_true(log.wall_ms == 1203);
	assert_true(log.thread_ms == 77);
	assert_int_equal(log.cpu_busy, RS_UNKNOWN);
	assert_int_equal(log.end.month, 0);
	assert_int_equal(log.problems.nr, 3);
	assert_non_null(strstr(log.problems.items[0], "given twice"));
	assert_non_null(strstr(log.problems.items[1], "time-end"));
	assert_non_null(strstr(log.problems.items[2], "cpu-busy"));
	assert_string_equal(log.samples[0].frames.items[4],
	    "com.x.Odd.a(Odd.java:1) = time = 5");
	bc_log_release(&log);
	strbuf_release(&sb);
}

/* Text with no BlockCanary key is refused; nothing is invented from it. */
static void
other_text_is_not_a_log(void **state)
{
	static const char *const texts[] = {
		"", "\r\n\r\n", "hello = world\r\n", "<html>time</html>",
		"stack\r\njava.lang.Thread.run(Thread.java:1)\r\n",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct bc_log log;

		bc_log_init(&log);
		assert_int_equal(bc_log_parse(&log, texts[i],
		    strlen(texts[i])), JG_EINVAL);
		assert_int_equal(log.nr_samples, 0);
		bc_log_release(&log);
	}
}

/*
 * Stack frames are kept byte for byte, whatever they hold (HTML, quotes,
 * control characters, invalid UTF-8), and the results written from them
 * are valid JSON that reads back to the same frames.
 */
static void
hostile_frames_survive_json(void **state)
{
	static const char *const frames[] = {
		"<script>alert(\"x\")</script>.run(A.java:1)",
		"com.evil.Q'uote\".m(\\Q.java:2)",
		"com.ctl.\x01\x1b[31m\x7f.m(C.java:3)",
		"com.bad.\xff\xfe.m(B.java:4)",
		"../../etc/passwd",
	};
	struct strbuf sb = STRBUF_INIT;
	struct world w;
	struct results *back = NULL;
	const struct rs_block *b;
	char *json;

	strbuf_addstr(&sb, "time = 900\r\ntime-start = 11-02 14:05:32.011\r\n"
	    "stack = 11-02 14:05:32.500\r\n\r\n");
	for (size_t i = 0; i < 5; i++)
		strbuf_addf(&sb, "%s\r\n", frames[i]);
	strbuf_addstr(&sb, "\r\n\r\n\r\n");
	world_init(&w, 0);
	assert_int_equal(source_blockcanary.parse(&w.ctx, sb.buf, sb.len,
	    "x.log"), 0);
	assert_int_equal(w.it->nr_blocks, 1);
	b = &w.it->blocks[0];
	assert_int_equal(b->stack.nr, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(b->stack.items[i], frames[i]);
	json = results_to_json(w.r);
	assert_int_equal(results_parse(&back, json, strlen(json), "x"), 0);
	b = &back->scenarios[0].iterations[0].blocks[0];
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(b->stack.items[i], frames[i]);
	free(json);
	results_free(back);
	results_free(w.r);
	strbuf_release(&sb);
}

/*
 * A huge stack is capped (samples, frames per sample, bytes per frame),
 * marked truncated, and still yields a block.
 */
static void
huge_stacks_are_capped(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct bc_log log;

	strbuf_addstr(&sb, "time = 900\r\nstack = 11-02 14:05:32.500\r\n\r\n");
	for (int i = 0; i < 3000; i++)
		strbuf_addf(&sb, "com.deep.R.f%d(R.java:%d)\r\n", i, i);
	strbuf_addstr(&sb, "\r\n");
	for (int s = 0; s < 1200; s++)
		strbuf_addf(&sb, "11-02 14:05:%02d.%03d\r\n\r\ncom.a.B.c(B.java:1)"
		    "\r\n\r\n", 33 + s / 1000 % 20, s % 1000);
	strbuf_addstr(&sb, "11-02 14:05:59.999\r\n\r\n");
	for (int i = 0; i < 10000; i++)
		strbuf_addch(&sb, 'x');
	strbuf_addstr(&sb, "\r\n\r\n\r\n\r\n");
	parse_ok(&log, &sb);
	assert_int_equal(log.nr_samples, BC_MAX_SAMPLES);
	assert_int_equal(log.samples[0].frames.nr, BC_MAX_FRAMES);
	assert_true(log.truncated);
	bc_log_release(&log);

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "time = 900\r\nstack = 11-02 14:05:32.500\r\n\r\n");
	for (int i = 0; i < 10000; i++)
		strbuf_addch(&sb, 'x');
	strbuf_addstr(&sb, "\r\n\r\n\r\n\r\n");
	parse_ok(&log, &sb);
	assert_int_equal(strlen(log.samples[0].frames.items[0]),
	    BC_MAX_FRAME_LEN);
	assert_true(log.truncated);
	bc_log_release(&log);
	strbuf_release(&sb);
}

/* ---- to a block ----------------------------------------------------- */

/*
 * The block takes the stack seen in most samples (two of the three), the
 * times, cpu_busy, kind BLOCK and the signature of that stack; its start
 * is time-start minus the clock offset.
 */
static void
block_takes_the_typical_stack(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct rs_block blk;
	struct bc_log log;
	char *sig;

	fixture(&sb, NEW_LOG);
	parse_ok(&log, &sb);
	memset(&blk, 0, sizeof(blk));
	bc_log_to_block(&log, &blk, fixture_start_local() - 6500,
	    fixture_start_local());
	assert_string_equal(blk.kind, "BLOCK");
	assert_true(blk.start_mono_ms == 6500);
	assert_true(blk.wall_ms == 1203);
	assert_true(blk.thread_ms == 1198);
	assert_int_equal(blk.cpu_busy, 0);
	assert_int_equal(blk.stack.nr, 9);
	assert_string_equal(blk.stack.items[3], "com.example.blockcanary."
	    "DemoFragment.onClick(DemoFragment.java:79)");
	sig = signature_of(&blk.stack);
	assert_non_null(sig);
	assert_string_equal(blk.signature, sig);
	free(sig);
	free(blk.kind);
	free(blk.signature);
	strlist_release(&blk.stack);
	bc_log_release(&log);
	strbuf_release(&sb);
}

/*
 * Blocks land in the scene whose window holds their start, in the scene
 * that just ended within the grace period, else at iteration level; a
 * block that ended before the iteration began is dropped with a warning.
 */
static void
blocks_are_attributed_by_start(void **state)
{
	static const struct {
		double mono, grace, began;
		const char *scene;	/* NULL: iteration; "-": dropped */
	} cases[] = {
		{ 6500, 0, NAN, "checkout" },
		{ 1000, 0, NAN, "feed" },
		{ 9100, 200, NAN, "checkout" },
		{ 9100, 0, NAN, NULL },
		{ 500, 0, NAN, NULL },
		{ 500, 0, 3000, "-" },
		{ 500, 0, 1500, NULL },		/* ends at 1703: counted */
	};
	struct strbuf sb = STRBUF_INIT;

	fixture(&sb, NEW_LOG);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct world w;
		struct rs_scene *sc;
		const char *where = "-";

		world_init(&w, (int)cases[i].grace);
		w.it->started_mono_ms = cases[i].began;
		bc_add_file(&w.ctx, sb.buf, sb.len, NEW_LOG,
		    fixture_start_local() - cases[i].mono,
		    fixture_start_local() + 5000, 1);
		if (w.it->nr_blocks) {
			where = NULL;
			assert_true(w.it->blocks[0].start_mono_ms ==
			    cases[i].mono);
		}
		for (size_t j = 0; j < w.it->nr_scenes; j++) {
			sc = &w.it->scenes[j];
			if (sc->nr_blocks)
				where = sc->name;
		}
		if (!cases[i].scene || !where)
			assert_ptr_equal(where, cases[i].scene);
		else
			assert_string_equal(where, cases[i].scene);
		if (cases[i].scene && !strcmp(cases[i].scene, "-"))
			assert_int_equal(w.r->nr_warnings, 1);
		results_free(w.r);
	}
	strbuf_release(&sb);
}

/*
 * `jankgate parse` has no device clock: the block keeps its durations
 * and stack but no start, at iteration level; a file of another kind is
 * a warning naming it, and no block.
 */
static void
parse_hook_without_a_clock(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct world w;

	fixture(&sb, OLD_LOG);
	world_init(&w, 1000);
	assert_int_equal(source_blockcanary.parse(&w.ctx, sb.buf, sb.len,
	    OLD_LOG), 0);
	assert_int_equal(w.it->nr_blocks, 1);
	assert_int_equal(w.it->scenes[0].nr_blocks +
	    w.it->scenes[1].nr_blocks, 0);
	assert_true(isnan(w.it->blocks[0].start_mono_ms));
	assert_true(w.it->blocks[0].wall_ms == 1203);
	assert_int_equal(w.it->blocks[0].cpu_busy, 1);
	assert_non_null(w.it->blocks[0].signature);
	assert_int_equal(w.r->nr_warnings, 0);
	assert_int_equal(source_blockcanary.parse(&w.ctx, "<html>", 6,
	    "page.html"), 0);
	assert_int_equal(w.it->nr_blocks, 1);
	assert_int_equal(w.r->nr_warnings, 1);
	assert_non_null(strstr(w.r->warnings[0].message, "'page.html'"));
	results_free(w.r);
	strbuf_release(&sb);
}

/* ---- names and clocks ----------------------------------------------- */

/*
 * Only names BlockCanary writes are accepted; anything that could walk
 * out of a directory or break a command line is refused.
 */
static void
only_blockcanary_names_are_touched(void **state)
{
	static const char *const good[] = {
		"looper-2016-11-02_14-05-33.214.log",
		"looper-2016-11-02_14-05-33.214.txt",
	};
	static const char *const bad[] = {
		"", "looper-.log", "looper-../../etc.log", "../looper-1.log",
		"looper-2016/11.log", "looper-2016-11-02.log.gz",
		"looper-2016 11.log", "looper-2016;rm.log", "looper-2016\n.log",
		"looper-<b>1</b>.log", "blockcanary-2016-11-02.log",
		"looper-2016-11-02_14-05-33.214.log.log",
		"looper-1111111111111111111111111111111111111111111111111111.log",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(bc_name_ok(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (bc_name_ok(bad[i]))
			fail_msg("accepted '%s'", bad[i]);
}

/*
 * Stamps without a year go to the year that puts them nearest to the
 * reference, across New Year both ways; impossible dates are NAN.
 */
static void
stamps_find_their_year(void **state)
{
	struct bc_stamp st;

	assert_int_equal(bc_stamp_parse(&st, "12-31 23:59:59.000", 18), 0);
	assert_true(bc_stamp_local_ms(&st, bc_civil_ms(2024, 1, 1, 0, 0, 5,
	    0)) == bc_civil_ms(2023, 12, 31, 23, 59, 59, 0));
	assert_int_equal(bc_stamp_parse(&st, "01-01 00:00:01.250", 18), 0);
	assert_true(bc_stamp_local_ms(&st, bc_civil_ms(2024, 12, 31, 23, 59,
	    59, 0)) == bc_civil_ms(2025, 1, 1, 0, 0, 1, 250));
	assert_int_equal(bc_stamp_parse(&st, "02-30 10:00:00.000", 18), 0);
	assert_true(isnan(bc_stamp_local_ms(&st, bc_civil_ms(2024, 2, 1, 0, 0,
	    0, 0))));
	assert_true(isnan(bc_civil_ms(2023, 2, 29, 0, 0, 0, 0)));
	assert_false(isnan(bc_civil_ms(2024, 2, 29, 0, 0, 0, 0)));
	assert_true(bc_civil_ms(1970, 1, 2, 0, 0, 0, 0) == 86400000.0);
	assert_int_equal(bc_stamp_parse(&st, "11-02 14:05:32.81", 17),
	    JG_EINVAL);
	assert_int_equal(bc_stamp_parse(&st, "11-02T14:05:32.811", 18),
	    JG_EINVAL);
	assert_int_equal(bc_stamp_parse(&st, "00-02 14:05:32.811", 18),
	    JG_EINVAL);
}

/*
 * A clock reading gives local - monotonic at the midpoint of the two
 * dates and half their distance as the precision; no %N costs a second
 * of precision; no Uptime (app not running) and no date are errors.
 */
static void
clock_reading(void **state)
{
	static const char both[] =
	    "2024 11 05 14 00 03 100000000\n"
	    "Uptime: 3603120 Realtime: 3603120\n"
	    "2024 11 05 14 00 03 140000000\n";
	static const char no_ns[] =
	    "2024 11 05 14 00 03 N\r\nUptime: 3603120 Realtime: 3603120\r\n";
	static const char no_app[] =
	    "2024 11 05 14 00 03 100000000\n2024 11 05 14 00 03 100000000\n";
	double off, prec, ref;

	assert_int_equal(bc_clock_parse(both, strlen(both), &off, &prec,
	    &ref), 0);
	assert_true(ref == bc_civil_ms(2024, 11, 5, 14, 0, 3, 120));
	assert_true(off == ref - 3603120);
	assert_true(prec == 21);
	assert_int_equal(bc_clock_parse(no_ns, strlen(no_ns), &off, &prec,
	    &ref), 0);
	assert_true(ref == bc_civil_ms(2024, 11, 5, 14, 0, 3, 0));
	assert_true(prec == 1001);
	assert_int_equal(bc_clock_parse(no_app, strlen(no_app), &off, &prec,
	    &ref), JG_ENOTFOUND);
	assert_int_equal(bc_clock_parse("Uptime: 5 Realtime: 5\n", 22, &off,
	    &prec, &ref), JG_EINVAL);
}

/*
 * The run converts with its tightest reading: a looser one later does not
 * replace it, a tighter one does, and one that disagrees beyond both
 * precisions (the wall clock was set) replaces it however loose.
 */
static void
clock_keeps_the_tightest_reading(void **state)
{
	double off = NAN, prec = NAN;

	bc_clock_keep(&off, &prec, 1000.0, 20.0);
	assert_true(off == 1000.0 && prec == 20.0);
	bc_clock_keep(&off, &prec, 1015.0, 30.0);	/* looser, agrees */
	assert_true(off == 1000.0 && prec == 20.0);
	bc_clock_keep(&off, &prec, 1004.0, 2.0);	/* tighter */
	assert_true(off == 1004.0 && prec == 2.0);
	bc_clock_keep(&off, &prec, 1010.0, 4.0);	/* 6 apart, within 2 + 4 */
	assert_true(off == 1004.0 && prec == 2.0);
	bc_clock_keep(&off, &prec, 61004.0, 40.0);	/* the clock was set */
	assert_true(off == 61004.0 && prec == 40.0);
}

/* The clock command quotes the package for the device shell. */
static void
clock_command_quotes_the_package(void **state)
{
	char *cmd = bc_clock_command("com.x'; rm -rf /; '");

	assert_non_null(strstr(cmd, "dumpsys gfxinfo 'com.x'\\''; rm -rf /; "
	    "'\\''' | grep Uptime:"));
	assert_non_null(strstr(cmd, "date '+%Y %m %d %H %M %S %N'"));
	free(cmd);
}

/* The exchange that opens service `service` of the device "emu-1". */
static void
expect_service(struct fake_adb *fa, const char *service)
{
	fake_adb_expect(fa, "host:transport:emu-1");
	fake_adb_okay(fa);
	fake_adb_expect(fa, service);
	fake_adb_okay(fa);
}

/* What prepare and collect ask each time: both directories, no file. */
static void
expect_listing(struct fake_adb *fa, bool files_dir)
{
	static const char zeros[12];
	static const char missing[] = "ls: files/blockcanary: No such file "
	    "or directory\n";

	/* sync LIST answers the same for an empty directory and none */
	expect_service(fa, "sync:");
	fake_adb_capture_sync(fa, "LIST");
	fake_adb_sync(fa, "DONE", 0, zeros, sizeof(zeros));
	fake_adb_capture_sync(fa, "QUIT");
	fake_adb_hangup(fa);
	expect_service(fa, "shell,v2,raw:'run-as' 'com.example.app' 'ls' "
	    "'-1' 'files/blockcanary'");
	fake_adb_capture(fa, 5);
	if (!files_dir)
		fake_adb_v2(fa, 2, missing, sizeof(missing) - 1);
	fake_adb_v2(fa, 3, files_dir ? "\0" : "\1", 1);
	fake_adb_hangup(fa);
}

/* The warnings of source "blockcanary" in `r`. */
static size_t
bc_warnings(const struct results *r, const char **last)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_warnings; i++)
		if (r->warnings[i].source &&
		    !strcmp(r->warnings[i].source, "blockcanary")) {
			*last = r->warnings[i].message;
			n++;
		}
	return n;
}

/*
 * A run without a block past BlockCanary's threshold leaves its directory
 * and no file: the healthy case, and no warning.  Only when neither
 * directory ever existed (BlockCanary did not start) does the run say
 * "no BlockCanary log"; the external directory is asked once, at the end.
 */
static void
silence_warns_only_without_a_directory(void **state)
{
	for (int files_dir = 1; files_dir >= 0; files_dir--) {
		struct fake_adb *fa = fake_adb_new();
		struct adb_server *srv = adb_server_new_at("127.0.0.1",
		    fake_adb_port(fa), 3000);
		struct adb_device *dev;
		struct results *r = results_new();
		struct source_ctx ctx = { 0 };
		const char *msg = NULL;

		adb_server_set_adb(srv, NULL);
		dev = adb_device_new(srv, "emu-1");
		adb_device_set_features(dev, "shell_v2");
		expect_listing(fa, files_dir);		/* prepare */
		expect_listing(fa, files_dir);		/* collect */
		if (!files_dir) {
			static const char zeros[8];

			expect_service(fa, "sync:");
			fake_adb_capture_sync(fa, "STAT");
			fake_adb_sync(fa, "STAT", 0, zeros, sizeof(zeros));
			fake_adb_capture_sync(fa, "QUIT");
			fake_adb_hangup(fa);
		}
		fake_adb_start(fa);
		ctx.package = "com.example.app";
		ctx.dev = dev;
		ctx.results = r;
		assert_int_equal(source_blockcanary.prepare(&ctx), 0);
		assert_int_equal(source_blockcanary.collect(&ctx), 0);
		source_blockcanary.finish(&ctx);
		assert_string_equal(fake_adb_finish(fa), "");
		if (files_dir) {
			assert_int_equal(bc_warnings(r, &msg), 0);
		} else {
			assert_int_equal(bc_warnings(r, &msg), 1);
			assert_non_null(strstr(msg, "no BlockCanary log in the "
			    "whole run: neither"));
		}
		results_free(r);
		adb_device_free(dev);
		adb_server_free(srv);
		fake_adb_free(fa);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(new_keys_parse_whole),
	cmocka_unit_test(old_keys_and_lf_read_the_same),
	cmocka_unit_test(every_cut_is_truncated),
	cmocka_unit_test(truncation_from_the_format),
	cmocka_unit_test(paste_without_closing_blanks),
	cmocka_unit_test(missing_keys_are_noted),
	cmocka_unit_test(extra_and_bad_keys),
	cmocka_unit_test(other_text_is_not_a_log),
	cmocka_unit_test(hostile_frames_survive_json),
	cmocka_unit_test(huge_stacks_are_capped),
	cmocka_unit_test(block_takes_the_typical_stack),
	cmocka_unit_test(blocks_are_attributed_by_start),
	cmocka_unit_test(parse_hook_without_a_clock),
	cmocka_unit_test(only_blockcanary_names_are_touched),
	cmocka_unit_test(stamps_find_their_year),
	cmocka_unit_test(clock_reading),
	cmocka_unit_test(clock_keeps_the_tightest_reading),
	cmocka_unit_test(clock_command_quotes_the_package),
	cmocka_unit_test(silence_warns_only_without_a_directory),
};
JG_UNIT_GROUP(src_blockcanary, tests, NULL, NULL)
