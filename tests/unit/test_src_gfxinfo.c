/*
 * test_src_gfxinfo.c: the gfxinfo source over the dump of every API level
 * in docs/formats.md §3.1 (tests/unit/data/sources/gfxinfo/, built from its
 * samples, and sim-api*.txt captured from the simulated phone), and over
 * broken dumps.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "unit.h"
#include "error.h"
#include "fileio.h"
#include "gfxinfo_dump.h"
#include "results.h"
#include "source.h"
#include "strbuf.h"
#include "xalloc.h"

struct fx {
	struct results *r;
	struct rs_iteration *it;
	struct source_ctx ctx;
	struct strbuf text;
};

static void
fx_init(struct fx *fx, const char *package, double hz)
{
	memset(fx, 0, sizeof(*fx));
	fx->r = results_new();
	fx->it = rs_scenario_add_iteration(results_add_scenario(fx->r, "feed"),
	    false);
	fx->ctx.package = package;
	fx->ctx.results = fx->r;
	fx->ctx.it = fx->it;
	fx->ctx.refresh_hz = hz;
	strbuf_init(&fx->text, 0);
}

static void
fx_release(struct fx *fx)
{
	results_free(fx->r);
	strbuf_release(&fx->text);
}

/* The scene the parse hook makes of `text`. */
static struct rs_scene *
parse_text(struct fx *fx, const char *text, size_t len)
{
	const struct source *src = source_find("gfxinfo");

	assert_non_null(src);
	assert_int_equal(src->parse(&fx->ctx, text, len, "scroll"), 0);
	assert_int_equal(fx->it->nr_scenes, 1);
	return &fx->it->scenes[0];
}

static struct rs_scene *
parse_file(struct fx *fx, const char *name)
{
	char *path = xasprintf("%s/tests/unit/data/sources/gfxinfo/%s",
	    unit_srcdir(), name);

	strbuf_reset(&fx->text);
	assert_int_equal(file_read(&fx->text, path), 0);
	free(path);
	return parse_text(fx, fx->text.buf, fx->text.len);
}

static int
warned(const struct fx *fx, const char *part)
{
	for (size_t i = 0; i < fx->r->nr_warnings; i++)
		if (strstr(fx->r->warnings[i].message, part))
			return 1;
	return 0;
}

static void
assert_nan(double v)
{
	assert_true(isnan(v));
}

/* `have` equals `want`, NAN included. */
static void
assert_number(const char *file, const char *what, double have, double want)
{
	if (isnan(want) != isnan(have) || (!isnan(want) && want != have))
		fail_msg("%s: %s is %g, expected %g", file, what, have, want);
}

struct level_case {
	const char *file;
	double hz;
	double count, janky, slow, frozen, dropped;
	double p50, p90, p95, p99;
	size_t rows;
	const char *cause;
	uint64_t cause_count;
	const char *app_scene;
};

/*
 * Each API level's dump gives the counts and percentiles its summary
 * prints, slow/frozen/dropped from its histogram, and its sane rows.
 */
static void
reads_every_api_level(void **state)
{
	static const struct level_case cases[] = {
		{ "api23-m.txt", 60, 82189, 35335, NAN, NAN, NAN,
		  NAN, 34, 42, 69, 3, "slow_ui_thread", 30128,
		  "com.example.app.MainActivity" },
		{ "api24-n.txt", 60, 26, 7, 7, 0, 14, 12, 21, 34, 150, 4,
		  "slow_issue_draw_commands", 1, NULL },
		{ "api28-built.txt", 60, 639, 24, 24, 1, 71, 5, 7, 7, 18, 2,
		  "frame_deadline_missed", 12, NULL },
		{ "api30.txt", 60, 59, 4, 9, 0, 4, 8, 16, 17, 32, 3,
		  "high_input_latency", 1, NULL },
		{ "api31-redfin.txt", 90, 84, 4, NAN, NAN, NAN, 5, 10, 20,
		  105, 3, "frame_deadline_missed_legacy", 3,
		  "com.stephen.redfindemo.MainActivity" },
		{ "api33.txt", 120, 79, 3, 1, 0, 11, 5, 9, 9, 26, 4,
		  "slow_ui_thread", 2, NULL },
		{ "main-24col.txt", 90, 79, 3, 1, 0, 4, 5, 9, 9, 26, 4,
		  "frame_deadline_missed", 3, NULL },
		{ "sim-api24.txt", 60, 63, 4, 4, 0, 4, 9, 14, 18, 32, 63,
		  "slow_ui_thread", 4, "com.example.shop.FeedActivity" },
		{ "sim-api29.txt", 60, 63, 4, 4, 0, 4, 9, 14, 18, 32, 63,
		  "missed_vsync", 0, NULL },
		{ "sim-api31.txt", 120, 126, 8, 6, 0, 62, 8, 12, 14, 23, 120,
		  "frame_deadline_missed", 8, NULL },
		{ "sim-api34.txt", 90, 95, 3, 9, 0, 28, 9, 15, 21, 32, 95,
		  "slow_bitmap_uploads", 2, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct level_case *c = &cases[i];
		struct fx fx;
		const struct rs_frames *f;

		fx_init(&fx, NULL, c->hz);
		f = &parse_file(&fx, c->file)->frames;
		assert_number(c->file, "count", f->count, c->count);
		assert_number(c->file, "janky", f->janky, c->janky);
		assert_number(c->file, "slow", f->slow, c->slow);
		assert_number(c->file, "frozen", f->frozen, c->frozen);
		assert_number(c->file, "dropped", f->dropped, c->dropped);
		assert_number(c->file, "p50", f->p50_ms, c->p50);
		assert_number(c->file, "p90", f->p90_ms, c->p90);
		assert_number(c->file, "p95", f->p95_ms, c->p95);
		assert_number(c->file, "p99", f->p99_ms, c->p99);
		assert_true(f->present);
		assert_int_equal(f->nr_rows, c->rows);
		assert_int_equal(rs_frames_cause(f, c->cause), c->cause_count);
		if (c->app_scene)
			assert_string_equal(
			    fx.it->scenes[0].app_scenes.items[0], c->app_scene);
		/* The histogram, when there is one, holds every frame. */
		if (f->nr_histogram)
			assert_int_equal(rs_frames_histogram_total(f),
			    (uint64_t)c->count);
		fx_release(&fx);
	}
}

/*
 * Row duration is FrameCompleted - IntendedVsync, by header name, whatever
 * the column set (an API 26-29 header, docs/formats.md §3.1).
 */
static void
rows_by_header_name(void **state)
{
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, "com.example.app", 60);
	f = &parse_file(&fx, "api28-built.txt")->frames;
	assert_int_equal(f->nr_rows, 2);
	assert_true(f->rows[0].intended_vsync_ns == 10000000000LL);
	assert_true(f->rows[0].frame_completed_ns == 10011000000LL);
	assert_true(fabs(f->rows[0].duration_ms - 11.0) < 1e-9);
	assert_true(fabs(f->rows[1].duration_ms - 5.833333) < 1e-9);
	assert_int_equal(f->rows[1].flags, 0);
	fx_release(&fx);
}

/*
 * On 31+ the column labelled FrameStartTime holds the vsync period (the
 * label swap): a 90 Hz redfin row read with a 60 Hz device rate says so,
 * and without a device rate the period comes from that column.
 */
static void
label_swap_gives_the_period(void **state)
{
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	parse_file(&fx, "api33.txt");
	assert_true(warned(&fx, "rendered at 120 Hz but the refresh rate is "
	    "60 Hz"));
	fx_release(&fx);

	/* 8.33 ms: buckets 9 and 13 miss one vsync, 26 misses three. */
	fx_init(&fx, NULL, NAN);
	f = &parse_file(&fx, "api33.txt")->frames;
	assert_true(f->dropped == 6 * 1 + 2 * 1 + 1 * 3);
	assert_false(warned(&fx, "rendered at"));
	fx_release(&fx);

	/* Names in order (24 columns): FrameInterval is the period. */
	fx_init(&fx, NULL, 120);
	parse_file(&fx, "main-24col.txt");
	assert_true(warned(&fx, "rendered at 90 Hz"));
	fx_release(&fx);
}

/*
 * Rows with no FrameCompleted, or of 10 s and more, are skipped; rows
 * with Flags != 0 are kept with their flags, for readers to leave out.
 */
static void
flagged_and_insane_rows_skipped(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "---PROFILEDATA---\n"
	    "Flags,IntendedVsync,Vsync,FrameCompleted,\n"
	    "0,1000000000,1000000000,1012000000,\n"
	    "1,2000000000,2000000000,2012000000,\n"
	    "8,3000000000,3000000000,3012000000,\n"
	    "0,4000000000,4000000000,0,\n"
	    "0,5000000000,5000000000,9223372036854775807,\n"
	    "0,6000000000,6000000000,5000000000,\n"
	    "0,7000000000,7000000000,17000000000,\n"
	    "0,8000000000,8000000000,8016000000,\n"
	    "---PROFILEDATA---\n";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_int_equal(f->nr_rows, 4);
	assert_true(f->rows[0].duration_ms == 12);
	assert_int_equal(f->rows[0].flags, 0);
	assert_true(f->rows[1].duration_ms == 12);
	assert_int_equal(f->rows[1].flags, 1);
	assert_int_equal(f->rows[2].flags, 8);
	assert_true(f->rows[3].duration_ms == 16);
	/* Skipping those is the documented rule, not a reading problem. */
	assert_false(warned(&fx, "PROFILEDATA rows"));
	assert_false(warned(&fx, "blocks lack"));
	/* The trimmed header has no phase columns: that much is said. */
	assert_true(warned(&fx, "frame phases"));
	fx_release(&fx);
}

/* A cut row, a row of junk and a header without the needed columns warn. */
static void
broken_profiledata_warns(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "---PROFILEDATA---\n"
	    "Flags,IntendedVsync,FrameCompleted,\n"
	    "0,1000000000,1012000000,\n"
	    "0,2000000000,20120\n"
	    "0,x3000000000,3012000000,\n"
	    "0,4000000000,\n"
	    "---PROFILEDATA---\n"
	    "---PROFILEDATA---\n"
	    "Flags,Vsync,\n"
	    "0,1,\n"
	    "---PROFILEDATA---\n";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_int_equal(f->nr_rows, 1);
	assert_true(warned(&fx, "3 cut or unreadable PROFILEDATA rows"));
	assert_true(warned(&fx, "1 PROFILEDATA blocks lack"));
	/* No summary: the frame numbers are unknown, not zero. */
	assert_nan(f->count);
	assert_nan(f->janky);
	fx_release(&fx);
}

/*
 * Every summary line is optional: a dump with only a HISTOGRAM counts
 * its frames, and janky comes from the histogram and the refresh rate
 * (whole buckets at or above one period: 17 ms at 60 Hz, 12 at 90).
 */
static void
histogram_alone_is_enough(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "HISTOGRAM: 5ms=10 11ms=3 12ms=2 16ms=4 17ms=1 40ms=1 "
	    "250ms=1 750ms=1\n";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_true(f->count == 23);
	assert_true(f->janky == 4);
	assert_true(f->slow == 8);
	assert_true(f->frozen == 1);
	/* 17 -> 1, 40 -> 2, 250 -> 15 (250 / 16.67 is 14.999...), 750 -> 45 */
	assert_true(f->dropped == 63);
	assert_true(f->p50_ms == 11);
	assert_true(f->p95_ms == 250);
	assert_true(f->p99_ms == 750);
	assert_int_equal(f->nr_causes, 0);
	fx_release(&fx);

	fx_init(&fx, NULL, 90);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_true(f->janky == 2 + 4 + 1 + 1 + 1 + 1);
	fx_release(&fx);
}

/* The numbers of a scene's frames a test compares at once. */
struct frame_numbers {
	double count, janky, slow, frozen, dropped, p50, p90, p95, p99;
};

static void
assert_frames(const char *what, const struct rs_frames *f,
    const struct frame_numbers *w)
{
	assert_number(what, "count", f->count, w->count);
	assert_number(what, "janky", f->janky, w->janky);
	assert_number(what, "slow", f->slow, w->slow);
	assert_number(what, "frozen", f->frozen, w->frozen);
	assert_number(what, "dropped", f->dropped, w->dropped);
	assert_number(what, "p50", f->p50_ms, w->p50);
	assert_number(what, "p90", f->p90_ms, w->p90);
	assert_number(what, "p95", f->p95_ms, w->p95);
	assert_number(what, "p99", f->p99_ms, w->p99);
}

#define SUMMARY_300 \
	"** Graphics info for pid 1 [p] **\n" \
	"Total frames rendered: 300\n" \
	"Janky frames: 40 (13.33%)\n" \
	"50th percentile: 9ms\n90th percentile: 17ms\n" \
	"95th percentile: 21ms\n99th percentile: 40ms\n"

/*
 * A HISTOGRAM line cut short, however it ends (mid-count, "...", a
 * bucket cut to "10ms=", nothing), never gives a number of its own: the
 * count is "Total frames rendered", the percentiles the printed lines,
 * slow, frozen and dropped frames unknown, the buckets not kept, and the
 * warning says where it was cut and how many frames it holds.
 */
static void
cut_histogram_keeps_printed_figures(void **state)
{
	static const char *const ends[] = {
		"10ms=2",	/* maybe "10ms=23": left out */
		"10ms=2...",
		"10ms=...",
		"10ms=",
		"...",
		"\xe2\x80\xa6",
		"10",
	};
	static const struct frame_numbers want = {
		300, 40, NAN, NAN, NAN, 9, 17, 21, 40,
	};

	for (size_t i = 0; i < sizeof(ends) / sizeof(*ends); i++) {
		struct strbuf dump = STRBUF_INIT;
		const struct rs_frames *f;
		struct fx fx;

		strbuf_addstr(&dump, SUMMARY_300);
		strbuf_addf(&dump, "HISTOGRAM: 5ms=10 6ms=30 7ms=50 8ms=40 "
		    "9ms=30 %s\n", ends[i]);
		fx_init(&fx, NULL, 60);
		f = &parse_text(&fx, dump.buf, dump.len)->frames;
		assert_frames(ends[i], f, &want);
		assert_int_equal(f->nr_histogram, 0);
		assert_int_equal(fx.r->nr_warnings, 1);
		assert_true(warned(&fx, "the HISTOGRAM line is cut after "
		    "bucket 9ms: it holds 160 of the 300 frames of 'Total "
		    "frames rendered'; the frame count is that line's, "
		    "percentiles from the printed 50th/90th/95th/99th lines; "
		    "unknown: slow, frozen and dropped frames; its buckets "
		    "are not kept"));
		fx_release(&fx);
		strbuf_release(&dump);
	}
}

/*
 * What a cut line still gives exactly is given: its missing frames lie
 * above the cut (its last bucket, which may have lost digits, counts
 * among them), so frames of 16 ms and up, a percentile reached before
 * the cut and, at 60 Hz, the frames that missed a vsync are known; what
 * the missing frames could change (frozen, dropped, the 95th and 99th
 * without their lines) is not.
 */
static void
cut_histogram_gives_what_is_exact(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 100\n"
	    "HISTOGRAM: 5ms=50 12ms=30 16ms=10 20ms=4 21ms=3";
	static const struct frame_numbers want = {
		100, 4 + 6, 10 + 4 + 6, NAN, NAN, 12, 20, NAN, NAN,
	};
	struct fx fx;

	fx_init(&fx, NULL, 60);
	assert_frames("cut at 21ms", &parse_text(&fx, dump,
	    strlen(dump))->frames, &want);
	assert_true(warned(&fx, "cut after bucket 20ms: it holds 94 of the "
	    "100 frames"));
	assert_true(warned(&fx, "unknown: the 95th and 99th percentiles, "
	    "frozen and dropped frames"));
	fx_release(&fx);
}

/*
 * A line with buckets left out ("..." between two buckets) whose buckets
 * sum short of the total: the printed figures win and the warning says
 * between which buckets; one whose buckets still hold every frame (the
 * ones left out were zeros) is whole.
 */
static void
elided_histogram(void **state)
{
	static const char short_dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 105\n"
	    "Janky frames: 3 (2.86%)\n"
	    "50th percentile: 5ms\n90th percentile: 7ms\n"
	    "95th percentile: 8ms\n99th percentile: 19ms\n"
	    "HISTOGRAM: 5ms=60 6ms=30 7ms=14 ... 4950ms=0\n";
	static const char whole_dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 104\n"
	    "HISTOGRAM: 5ms=60 6ms=30 7ms=14 ... 4950ms=0\n";
	static const struct frame_numbers want_short = {
		105, 3, NAN, NAN, NAN, 5, 7, 8, 19,
	};
	static const struct frame_numbers want_whole = {
		104, 0, 0, 0, 0, 5, 7, 7, 7,
	};
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, short_dump, strlen(short_dump))->frames;
	assert_frames("elided", f, &want_short);
	assert_int_equal(f->nr_histogram, 0);
	assert_true(warned(&fx, "the HISTOGRAM line leaves buckets out "
	    "('...') between 7ms and 4950ms: it holds 104 of the 105 "
	    "frames"));
	fx_release(&fx);

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, whole_dump, strlen(whole_dump))->frames;
	assert_frames("elided zeros", f, &want_whole);
	assert_int_equal(f->nr_histogram, 3);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);
}

/*
 * Buckets that sum short with nothing saying where (a whole-looking
 * line), or to more than the total, give only the printed figures.
 */
static void
histogram_disagreeing_with_total(void **state)
{
	static const char lacking[] =
	    SUMMARY_300 "HISTOGRAM: 5ms=100 9ms=100 17ms=50 4950ms=0\n";
	static const char over[] =
	    SUMMARY_300 "HISTOGRAM: 5ms=100 9ms=200 17ms=50 4950ms=0\n";
	static const struct frame_numbers want = {
		300, 40, NAN, NAN, NAN, 9, 17, 21, 40,
	};
	struct fx fx;

	fx_init(&fx, NULL, 60);
	assert_frames("lacking", &parse_text(&fx, lacking,
	    strlen(lacking))->frames, &want);
	assert_true(warned(&fx, "the HISTOGRAM line lacks buckets: it holds "
	    "250 of the 300 frames"));
	fx_release(&fx);

	fx_init(&fx, NULL, 60);
	assert_frames("over", &parse_text(&fx, over, strlen(over))->frames,
	    &want);
	assert_true(warned(&fx, "the HISTOGRAM buckets hold 350 frames, "
	    "more than the 300 of 'Total frames rendered'"));
	fx_release(&fx);
}

/*
 * Without a "Total frames rendered" line a cut or elided HISTOGRAM says
 * nothing of the count: it is unknown, not the buckets' sum; printed
 * percentile lines still count.
 */
static void
cut_histogram_without_total(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "90th percentile: 17ms\n"
	    "HISTOGRAM: 5ms=10 6ms=30 7ms=5...\n";
	static const struct frame_numbers want = {
		NAN, NAN, NAN, NAN, NAN, NAN, 17, NAN, NAN,
	};
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_frames("no total", f, &want);
	assert_true(f->present);
	assert_int_equal(f->nr_histogram, 0);
	assert_true(warned(&fx, "the HISTOGRAM line leaves buckets out "
	    "('...') after 6ms and no 'Total frames rendered' line says how "
	    "many frames there were; the frame count is unknown"));
	fx_release(&fx);
}

/*
 * A HISTOGRAM line a paste wrapped onto several lines, between buckets
 * or inside one ("12" then "5ms=1", "13ms=" then "2"), is read as one:
 * its buckets hold every frame, so they are kept and give every number.
 */
static void
wrapped_histogram_is_joined(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 20\n"
	    "HISTOGRAM: 5ms=10 6ms=4\n"
	    "7ms=1 12\n"
	    "5ms=1 13ms=\n"
	    "2 17ms=1 ...\n"
	    "4950ms=1\n"
	    "50th gpu percentile: 4ms\n";
	static const struct frame_numbers want = {
		20, 3, 3, 1, 1 + 7 + 297, 6, 125, 4950, 4950,
	};
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_frames("wrapped", f, &want);
	assert_int_equal(f->nr_histogram, 7);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);
}

/*
 * A paste that ends inside the "Janky frames" line ("Janky frames: 4"
 * of "Janky frames: 40 (13.33%)") gives no janky count: hwui always
 * prints the percentage after it.
 */
static void
cut_janky_line(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 300\n"
	    "Janky frames: 4";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_true(f->count == 300);
	assert_nan(f->janky);
	assert_true(warned(&fx, "1 unreadable numbers"));
	fx_release(&fx);
}

/*
 * A printed percentile line the whole histogram contradicts (an edited
 * paste) is what a person reads: it is kept, with a warning.
 */
static void
printed_percentile_wins(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 10\n"
	    "50th percentile: 6ms\n90th percentile: 16ms\n"
	    "HISTOGRAM: 5ms=5 6ms=4 7ms=1 4950ms=0\n";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_true(f->p50_ms == 6);
	assert_true(f->p90_ms == 16);
	assert_true(f->p99_ms == 7);
	assert_int_equal(f->nr_histogram, 3);
	assert_true(warned(&fx, "the 90th percentile line says 16 ms, the "
	    "HISTOGRAM gives 7 ms: the line's is kept"));
	assert_int_equal(fx.r->nr_warnings, 1);
	fx_release(&fx);
}

#define RATE_DUMP \
	"** Graphics info for pid 1 [p] **\n" \
	"Total frames rendered: 13\n" \
	"HISTOGRAM: 5ms=10 12ms=2 17ms=1 4950ms=0\n"

/* A PROFILEDATA block of API 31+ whose vsync period is `period`. */
#define PROFILE_31(period) \
	"---PROFILEDATA---\n" \
	"Flags,IntendedVsync,Vsync,FrameDeadline,FrameInterval," \
	"FrameStartTime,FrameCompleted,\n" \
	"0,1000000000,1000000000,1011111111,1000000100," period \
	",1009000000,\n" \
	"---PROFILEDATA---\n"

struct rate_case {
	const char *what, *dump;
	double hz;		/* the rate read, NAN: --refresh-hz 60 */
	const char *from;	/* where from, NULL: none said */
	double dropped;
	const char *warning;
};

/*
 * `jankgate parse` without --refresh-hz takes the rate the file names
 * (a `dumpsys display` part, else FrameTimeline's Vsync Period, else
 * PROFILEDATA's period, else the assumed 60) and says where it came
 * from; --refresh-hz (refresh_assumed false) overrides it.  Dropped
 * frames of 5/12/17 ms buckets: 1 at 60 Hz, 3 at 90, 4 at 120.
 */
static void
refresh_rate_from_the_file(void **state)
{
	static const struct rate_case cases[] = {
		{ "nothing", RATE_DUMP, 60, "assumed: the file names none", 1,
		  NULL },
		{ "profiledata", RATE_DUMP PROFILE_31("11111111"), 90,
		  "from the vsync period of the dump's PROFILEDATA", 3, NULL },
		{ "jittered period", RATE_DUMP PROFILE_31("8311780"), 120,
		  "PROFILEDATA", 4, NULL },
		{ "display", RATE_DUMP PROFILE_31("8333333")
		  "\nDISPLAY MANAGER (dumpsys display)\n"
		  "  DisplayDeviceInfo{\"Built-in Screen\": "
		  "uniqueId=\"local:0\", 1080 x 2400, modeId 2, "
		  "renderFrameRate 90.0, defaultModeId 1, supportedModes "
		  "[{id=1, width=1080, height=2400, fps=60.0}, {id=2, "
		  "width=1080, height=2400, fps=90.0}]}\n", 90,
		  "from the file's 'dumpsys display' part", 3,
		  "frames were rendered at 120 Hz but the refresh rate is "
		  "90 Hz" },
		{ "frametimeline", RATE_DUMP "Display Frame 4 [*]\n"
		  "Prediction State : Valid\nJank Type : Display HAL\n"
		  "Vsync Period:   8.333333\n"
		  "    Layer - p/p.A#0\n    Vsync Period: 50.000000\n"
		  "Display Frame 5\nVsync Period:  16.666666\n", 120,
		  "from the 'Vsync Period' of the file's FrameTimeline part",
		  4, NULL },
		{ "given", RATE_DUMP PROFILE_31("11111111"), NAN, NULL, 1,
		  "frames were rendered at 90 Hz but the refresh rate is "
		  "60 Hz" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct rate_case *c = &cases[i];
		const struct rs_frames *f;
		struct fx fx;

		fx_init(&fx, NULL, 60);
		fx.ctx.refresh_assumed = !isnan(c->hz);
		f = &parse_text(&fx, c->dump, strlen(c->dump))->frames;
		assert_number(c->what, "rate", fx.ctx.refresh_hz,
		    isnan(c->hz) ? 60 : c->hz);
		if (c->from) {
			assert_non_null(fx.ctx.refresh_from);
			if (!strstr(fx.ctx.refresh_from, c->from))
				fail_msg("%s: from '%s'", c->what,
				    fx.ctx.refresh_from);
		} else {
			assert_null(fx.ctx.refresh_from);
		}
		assert_number(c->what, "dropped", f->dropped, c->dropped);
		if (c->warning)
			assert_true(warned(&fx, c->warning));
		else
			assert_false(warned(&fx, "rendered at"));
		fx_release(&fx);
	}
}

/*
 * Just after a reset hwui prints 4950ms percentiles over an all-zero
 * histogram: 0 frames, no percentiles, nothing slow.
 */
static void
empty_histogram_has_no_percentiles(void **state)
{
	static const char dump[] =
	    "Uptime: 100 Realtime: 100\n"
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 0\n"
	    "Janky frames: 0 (nan%)\n"
	    "50th percentile: 4950ms\n"
	    "99th percentile: 4950ms\n"
	    "HISTOGRAM: 5ms=0 6ms=0 4950ms=0\n";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_true(f->present);
	assert_true(f->count == 0);
	assert_true(f->janky == 0);
	assert_true(f->slow == 0 && f->frozen == 0 && f->dropped == 0);
	assert_nan(f->p50_ms);
	assert_nan(f->p99_ms);
	assert_int_equal(f->nr_histogram, 0);
	fx_release(&fx);
}

/*
 * Numbers beyond hwui's 32-bit counters are skipped with a warning; the
 * rest of the line and the dump still count.
 */
static void
huge_values_skipped(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Stats since: 99999999999999999999999ns\n"
	    "Total frames rendered: 4294967296\n"
	    "Janky frames: 4294967295 (100%)\n"
	    "Number Missed Vsync: 123456789012345678901234567890\n"
	    "Number Slow UI thread: 4294967295\n"
	    "HISTOGRAM: 5ms=4294967295 6ms=4294967296 99999999999ms=1 "
	    "7ms=-1 8ms 9ms=2\n";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_true(f->count == 4294967295.0 + 2);
	assert_true(f->janky == 4294967295.0);
	assert_int_equal(rs_frames_cause(f, "slow_ui_thread"), 4294967295U);
	assert_int_equal(f->nr_causes, 1);
	assert_true(warned(&fx, "7 unreadable numbers"));
	assert_nan(fx.it->scenes[0].start_mono_ms);
	fx_release(&fx);
}

/*
 * Window titles are the app's strings: quotes, backslashes, control
 * characters and invalid UTF-8 reach app_scenes and the JSON stays valid.
 */
static void
hostile_window_names(void **state)
{
	struct strbuf dump = STRBUF_INIT, longname = STRBUF_INIT;
	struct fx fx;
	struct rs_scene *sc;
	char *json;
	cJSON *doc;

	for (int i = 0; i < 5000; i++)
		strbuf_addch(&longname, 'a' + i % 26);
	strbuf_addstr(&dump, "** Graphics info for pid 1 [p] **\n"
	    "HISTOGRAM: 5ms=1\n"
	    "\tp/\"q\\uote\x01\xff\r\xc0\xaf (visibility=0)\n"
	    "Total frames rendered: 1\n"
	    "\t");
	strbuf_addf(&dump, "p/%s/android.view.ViewRootImpl@1 (visibility=0)\n"
	    "Window: p/%s\nTotal frames rendered: 2\n", longname.buf,
	    longname.buf);
	strbuf_addstr(&dump, "Window: \nTotal frames rendered: 3\n"
	    "Window: p/\nTotal frames rendered: 4\n");
	fx_init(&fx, "p", 60);
	sc = parse_text(&fx, dump.buf, dump.len);
	/* the title ends at the last " (visibility=", inner CR and all */
	assert_int_equal(sc->app_scenes.nr, 3);
	assert_string_equal(sc->app_scenes.items[0],
	    "\"q\\uote\x01\xff\r\xc0\xaf");
	assert_string_equal(sc->app_scenes.items[1], longname.buf);
	assert_string_equal(sc->app_scenes.items[2], "p/");
	json = results_iteration_to_json(fx.it);
	doc = cJSON_Parse(json);
	assert_non_null(doc);
	cJSON_Delete(doc);
	free(json);
	strbuf_release(&dump);
	strbuf_release(&longname);
	fx_release(&fx);
}

/*
 * The section read is the app's process (not a ":remote" one printed
 * first); without a package, each process with frames is a scene of its
 * own; a package absent from a dump of several processes reads none,
 * while a dump of one process (dumpsys found it under another name) is
 * read with a warning.
 */
static void
picks_the_package_process(void **state)
{
	static const char dump[] =
	    "Applications Graphics Acceleration Info:\n"
	    "Uptime: 5000 Realtime: 5000\n\n"
	    "** Graphics info for pid 11 [com.x.app:remote] **\n\n"
	    "Total frames rendered: 5\nHISTOGRAM: 5ms=5\n\n"
	    "** Graphics info for pid 10 [com.x.app] **\n\n"
	    "Total frames rendered: 7\nHISTOGRAM: 6ms=7\n";
	struct fx fx;

	fx_init(&fx, "com.x.app", 60);
	assert_true(parse_text(&fx, dump, strlen(dump))->frames.count == 7);
	assert_true(warned(&fx, "a dump of 2 processes: read 'com.x.app', "
	    "the app's"));
	fx_release(&fx);
	fx_init(&fx, NULL, 60);
	assert_int_equal(source_find("gfxinfo")->parse(&fx.ctx, dump,
	    strlen(dump), "all"), 0);
	assert_int_equal(fx.it->nr_scenes, 2);
	assert_string_equal(fx.it->scenes[0].name, "com.x.app:remote");
	assert_true(fx.it->scenes[0].frames.count == 5);
	assert_string_equal(fx.it->scenes[1].name, "com.x.app");
	assert_true(fx.it->scenes[1].frames.count == 7);
	assert_true(warned(&fx, "'all' is a dump of 2 processes and no app "
	    "was given (--app PKG): each of the 2 with frames is a scene "
	    "named after its process"));
	fx_release(&fx);
	fx_init(&fx, "com.y", 60);
	assert_false(parse_text(&fx, dump, strlen(dump))->frames.present);
	assert_true(warned(&fx, "no frames: none of the 2 processes in the "
	    "dump is 'com.y'"));
	fx_release(&fx);
	fx_init(&fx, "com.y", 60);
	assert_true(parse_text(&fx, strstr(dump, "** Graphics info for pid 10"),
	    strlen(strstr(dump, "** Graphics info for pid 10")))->frames.count
	    == 7);
	assert_true(warned(&fx, "no process named 'com.y' in the dump; read "
	    "'com.x.app' instead"));
	fx_release(&fx);
}

/* "No process found for" and empty output: no frames, and a warning. */
static void
no_process_is_a_warning(void **state)
{
	static const char dump[] =
	    "Applications Graphics Acceleration Info:\n"
	    "Uptime: 5000 Realtime: 5000\n"
	    "No process found for: com.x.app\n";
	struct fx fx;
	struct rs_scene *sc;

	fx_init(&fx, "com.x.app", 60);
	sc = parse_text(&fx, dump, strlen(dump));
	assert_false(sc->frames.present);
	assert_true(warned(&fx, "No process found for: com.x.app"));
	assert_string_equal(fx.r->warnings[0].source, "gfxinfo");
	assert_string_equal(fx.r->warnings[0].scope, "feed/scroll");
	assert_true(sc->end_mono_ms == 5000);
	fx_release(&fx);

	fx_init(&fx, "com.x.app", 60);
	assert_false(parse_text(&fx, "", 0)->frames.present);
	assert_true(warned(&fx, "no frames: the dump is empty"));
	fx_release(&fx);

	fx_init(&fx, "com.x.app", 60);
	assert_false(parse_text(&fx, dump, 40)->frames.present);
	assert_true(warned(&fx, "no '** Graphics info' section"));
	fx_release(&fx);

	/* Not a dump at all: one warning naming its first line. */
	fx_init(&fx, "com.x.app", 60);
	assert_false(parse_text(&fx, "\n  \nhello\x1b[2J\nworld\n",
	    20)->frames.present);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_string_equal(fx.r->warnings[0].message, "'scroll' is not a "
	    "gfxinfo dump: the first line it could not read is line 3: "
	    "'hello?[2J'");
	fx_release(&fx);
}

/*
 * When only the windows have a histogram, their summaries are summed;
 * otherwise the process summary wins and windows are not added again.
 */
static void
windows_summed_only_without_process_histogram(void **state)
{
	static const char only_windows[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 9\n"
	    "\tp/p.A/android.view.ViewRootImpl@1 (visibility=0)\n"
	    "Window: p/p.A\nTotal frames rendered: 4\nJanky frames: 1 (25%)\n"
	    "Number Slow UI thread: 1\nHISTOGRAM: 5ms=3 20ms=1\n"
	    "\tp/p.B/android.view.ViewRootImpl@2 (visibility=0)\n"
	    "Window: p/p.B\nTotal frames rendered: 5\nJanky frames: 2 (40%)\n"
	    "Number Slow UI thread: 2\nHISTOGRAM: 5ms=3 30ms=2\n";
	static const char both[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Janky frames: 3 (33%)\nHISTOGRAM: 5ms=6 20ms=1 30ms=2\n"
	    "Number Slow UI thread: 3\n"
	    "\tp/p.A/android.view.ViewRootImpl@1 (visibility=0)\n"
	    "Window: p/p.A\nHISTOGRAM: 5ms=3 20ms=1\n"
	    "Number Slow UI thread: 1\n";
	struct fx fx;
	struct rs_scene *sc;

	fx_init(&fx, "p", 60);
	sc = parse_text(&fx, only_windows, strlen(only_windows));
	assert_true(sc->frames.count == 9);
	assert_true(sc->frames.janky == 3);
	assert_int_equal(rs_frames_cause(&sc->frames, "slow_ui_thread"), 3);
	assert_int_equal(rs_frames_histogram_at_least(&sc->frames, 30), 2);
	assert_int_equal(sc->app_scenes.nr, 2);
	fx_release(&fx);

	fx_init(&fx, "p", 60);
	sc = parse_text(&fx, both, strlen(both));
	assert_true(sc->frames.count == 9);
	assert_int_equal(rs_frames_cause(&sc->frames, "slow_ui_thread"), 3);
	fx_release(&fx);
}

/* A summary line printed twice replaces the first: no double counting. */
static void
repeated_lines_replace(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Number Slow UI thread: 2\nHISTOGRAM: 5ms=3\n"
	    "Number Slow UI thread: 5\nHISTOGRAM: 5ms=4 6ms=1 5ms=1\n";
	struct fx fx;
	const struct rs_frames *f;

	fx_init(&fx, NULL, 60);
	f = &parse_text(&fx, dump, strlen(dump))->frames;
	assert_true(f->count == 6);
	assert_int_equal(f->nr_histogram, 2);
	assert_int_equal(f->histogram[0].count, 5);
	assert_int_equal(rs_frames_cause(f, "slow_ui_thread"), 5);
	fx_release(&fx);
}

/* CRLF line ends (a capture through a Windows tool) read the same. */
static void
crlf_dump_reads_the_same(void **state)
{
	struct strbuf crlf = STRBUF_INIT;
	struct fx a, b;
	const struct rs_frames *fa, *fb;

	fx_init(&a, NULL, 90);
	fa = &parse_file(&a, "sim-api34.txt")->frames;
	for (size_t i = 0; i < a.text.len; i++) {
		if (a.text.buf[i] == '\n')
			strbuf_addch(&crlf, '\r');
		strbuf_addch(&crlf, a.text.buf[i]);
	}
	fx_init(&b, NULL, 90);
	fb = &parse_text(&b, crlf.buf, crlf.len)->frames;
	assert_true(fa->count == fb->count && fa->p90_ms == fb->p90_ms);
	assert_int_equal(fa->nr_rows, fb->nr_rows);
	assert_int_equal(fa->nr_causes, fb->nr_causes);
	assert_int_equal(b.r->nr_warnings, 0);
	strbuf_release(&crlf);
	fx_release(&a);
	fx_release(&b);
}

/*
 * scene_end fills the scene the runner gives it, keeps a window the
 * runner already set, and the same problem in each iteration warns once.
 */
static void
scene_end_fills_the_runner_scene(void **state)
{
	static const char dump[] =
	    "Uptime: 7000 Realtime: 7000\n"
	    "** Graphics info for pid 1 [p] **\n"
	    "Stats since: 6000000000ns\nHISTOGRAM: 5ms=2 6ms=x 7ms=0\n";
	const struct source *src = source_find("gfxinfo");
	struct fx fx;
	struct rs_scene *sc;

	fx_init(&fx, "p", 60);
	sc = rs_iteration_add_scene(fx.it, "scroll");
	sc->start_mono_ms = 5900;
	assert_int_equal(src->scene_end(&fx.ctx, sc, dump, strlen(dump)), 0);
	assert_true(sc->start_mono_ms == 5900);
	assert_true(sc->end_mono_ms == 7000);
	assert_true(sc->frames.count == 2);
	fx.it = rs_scenario_add_iteration(&fx.r->scenarios[0], false);
	fx.ctx.it = fx.it;
	sc = rs_iteration_add_scene(fx.it, "scroll");
	assert_int_equal(src->scene_end(&fx.ctx, sc, dump, strlen(dump)), 0);
	assert_true(sc->start_mono_ms == 6000);
	assert_int_equal(fx.r->nr_warnings, 1);
	fx_release(&fx);
}

/* gfxinfo_uptime() reads the Uptime line, and says when there is none. */
static void
uptime_line(void **state)
{
	static const char dump[] =
	    "Applications Graphics Acceleration Info:\r\n"
	    "Uptime: 3603109 Realtime: 3603200\r\n";
	double ms = 0;

	assert_int_equal(gfxinfo_uptime(dump, strlen(dump), &ms), 0);
	assert_true(ms == 3603109);
	assert_int_equal(gfxinfo_uptime("Uptime: x\n", 10, &ms),
	    JG_ENOTFOUND);
	assert_int_equal(gfxinfo_uptime("No process found for: p\n", 24,
	    &ms), JG_ENOTFOUND);
	/* the length bounds the search */
	assert_int_equal(gfxinfo_uptime(dump, 20, &ms), JG_ENOTFOUND);
}

/*
 * A plain dump (no framestats: no per-window statistics) of API 24-28
 * pasted with its tabs turned into blanks: the process summary is read,
 * and the visible windows are the scene's app_scenes (the hidden one is
 * not; with none visible, every one is).
 */
static void
plain_dump_windows(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 3015 [com.android.settings] **\n\n"
	    "Total frames rendered: 24\nJanky frames: 14 (58.33%)\n"
	    "HISTOGRAM: 5ms=10 19ms=14\n"
	    "Profile data in ms:\n\n"
	    "        com.android.settings/com.android.settings.Settings/"
	    "android.view.ViewRootImpl@859603c (visibility=0)\n"
	    "  com.android.settings/com.android.settings.Hidden/"
	    "android.view.ViewRootImpl@1 (visibility=8)\n"
	    "  KHCD.1Pc.feed_timeline/android.view.ViewRootImpl@d871fa5 "
	    "(visibility=0)\n"
	    "View hierarchy:\n\n"
	    "  com.android.settings/com.android.settings.Settings/"
	    "android.view.ViewRootImpl@859603c\n";
	struct rs_scene *sc;
	struct fx fx;

	fx_init(&fx, "com.android.settings", 60);
	sc = parse_text(&fx, dump, strlen(dump));
	assert_true(sc->frames.count == 24);
	assert_true(sc->frames.janky == 14);
	assert_int_equal(sc->app_scenes.nr, 2);
	assert_string_equal(sc->app_scenes.items[0],
	    "com.android.settings.Settings");
	assert_string_equal(sc->app_scenes.items[1], "KHCD.1Pc.feed_timeline");
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);
}

/*
 * The part of a dump a user pastes: one `Window:` section with its
 * summary and PROFILEDATA, no process header.  Its numbers are the
 * scene's.
 */
static void
pasted_window_section(void **state)
{
	static const char part[] =
	    "Window: com.x/com.x.Feed\n"
	    "Stats since: 3600899000000ns\n"
	    "Total frames rendered: 3\nJanky frames: 1 (33.33%)\n"
	    "50th percentile: 6ms\n90th percentile: 40ms\n"
	    "95th percentile: 40ms\n99th percentile: 40ms\n"
	    "HISTOGRAM: 6ms=2 40ms=1\n"
	    "---PROFILEDATA---\n"
	    "Flags,IntendedVsync,Vsync,FrameCompleted,\n"
	    "0,1000000000,1000000000,1006000000,\n"
	    "---PROFILEDATA---\n";
	struct rs_scene *sc;
	struct fx fx;

	fx_init(&fx, NULL, 60);
	sc = parse_text(&fx, part, strlen(part));
	assert_true(sc->frames.present);
	assert_true(sc->frames.count == 3);
	assert_true(sc->frames.janky == 1);
	assert_true(sc->frames.p90_ms == 40);
	assert_int_equal(sc->frames.nr_rows, 1);
	assert_string_equal(sc->app_scenes.items[0], "com.x.Feed");
	assert_true(sc->start_mono_ms == 3600899);
	/* Only that the trimmed header has no phase columns. */
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_true(warned(&fx, "frame phases"));
	fx_release(&fx);
}

/* The app did not answer: no frames, and the warning quotes it. */
static void
failure_while_dumping(void **state)
{
	static const char dump[] =
	    "Applications Graphics Acceleration Info:\r\n"
	    "Uptime: 116130041 Realtime: 256466559\r\n\r\n"
	    "** Graphics info for pid 25723 [com.x] **\r\n"
	    "Failure while dumping the app: ProcessRecord{45d538c "
	    "25723:com.x/u0a675}\r\n";
	struct rs_scene *sc;
	struct fx fx;

	fx_init(&fx, NULL, 60);
	sc = parse_text(&fx, dump, strlen(dump));
	assert_false(sc->frames.present);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_string_equal(fx.r->warnings[0].message, "no frames: the app's "
	    "process could not dump them: 'Failure while dumping the app: "
	    "ProcessRecord{45d538c 25723:com.x/u0a675}'");
	fx_release(&fx);
}

/* The runner learns the app's pids from the dumps' section headers. */
static void
app_pids_of_a_dump(void **state)
{
	static const char dump[] =
	    "** Graphics info for pid 11 [com.x.app:remote] **\n"
	    "** Graphics info for pid 10 [com.x.app] **\n"
	    "** Graphics info for pid 12 [com.x.apps] **\n"
	    "** Graphics info for pid 10 [com.x.app] **\n";
	int pids[4] = { 0 };
	size_t nr = 0;

	gfxinfo_app_pids(dump, strlen(dump), "com.x.app", pids, &nr, 4);
	assert_int_equal(nr, 2);
	assert_int_equal(pids[0], 11);
	assert_int_equal(pids[1], 10);
	nr = 0;
	gfxinfo_app_pids(dump, strlen(dump), "com.x.app", pids, &nr, 1);
	assert_int_equal(nr, 1);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reads_every_api_level),
	cmocka_unit_test(rows_by_header_name),
	cmocka_unit_test(label_swap_gives_the_period),
	cmocka_unit_test(flagged_and_insane_rows_skipped),
	cmocka_unit_test(broken_profiledata_warns),
	cmocka_unit_test(histogram_alone_is_enough),
	cmocka_unit_test(cut_histogram_keeps_printed_figures),
	cmocka_unit_test(cut_histogram_gives_what_is_exact),
	cmocka_unit_test(elided_histogram),
	cmocka_unit_test(histogram_disagreeing_with_total),
	cmocka_unit_test(cut_histogram_without_total),
	cmocka_unit_test(printed_percentile_wins),
	cmocka_unit_test(cut_janky_line),
	cmocka_unit_test(wrapped_histogram_is_joined),
	cmocka_unit_test(refresh_rate_from_the_file),
	cmocka_unit_test(empty_histogram_has_no_percentiles),
	cmocka_unit_test(huge_values_skipped),
	cmocka_unit_test(hostile_window_names),
	cmocka_unit_test(picks_the_package_process),
	cmocka_unit_test(no_process_is_a_warning),
	cmocka_unit_test(windows_summed_only_without_process_histogram),
	cmocka_unit_test(repeated_lines_replace),
	cmocka_unit_test(crlf_dump_reads_the_same),
	cmocka_unit_test(scene_end_fills_the_runner_scene),
	cmocka_unit_test(uptime_line),
	cmocka_unit_test(plain_dump_windows),
	cmocka_unit_test(pasted_window_section),
	cmocka_unit_test(failure_while_dumping),
	cmocka_unit_test(app_pids_of_a_dump),
};

JG_UNIT_GROUP(src_gfxinfo, tests, NULL, NULL)
