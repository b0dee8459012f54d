/*
 * test_src_explain.c: the parsers issue 20 added to the sources: every
 * PROFILEDATA column by name (framestats.c), a frame's phases and jank
 * (phases.c), and SurfaceFlinger's FrameTimeline jank dump
 * (frametimeline.c), over every API level's dump in
 * tests/unit/data/sources/gfxinfo/ and over broken input.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "fileio.h"
#include "results.h"
#include "framestats.h"
#include "frametimeline.h"
#include "gfxinfo_dump.h"
#include "phases.h"
#include "source.h"
#include "strbuf.h"
#include "xalloc.h"

static void
read_data(struct strbuf *sb, const char *name)
{
	char *path = xasprintf("%s/tests/unit/data/sources/%s", unit_srcdir(),
	    name);

	strbuf_reset(sb);
	assert_int_equal(file_read(sb, path), 0);
	free(path);
}

/*
 * Every API level's PROFILEDATA reads by name: rows with their
 * timestamps, the phases' columns found in each layout.
 */
static void
every_layout_reads_by_name(void **state)
{
	static const struct {
		const char *file;
		size_t min_rows;
		bool vsync_id;	/* FrameTimelineVsyncId, 31+ */
	} cases[] = {
		{ "gfxinfo/api24-n.txt", 1, false },
		{ "gfxinfo/api28-built.txt", 1, false },
		{ "gfxinfo/api30.txt", 1, false },
		{ "gfxinfo/api31-redfin.txt", 1, true },
		{ "gfxinfo/api33.txt", 1, true },
		{ "gfxinfo/main-24col.txt", 1, true },
		{ "gfxinfo/sim-api24.txt", 5, false },
		{ "gfxinfo/sim-api29.txt", 5, false },
		{ "gfxinfo/sim-api31.txt", 5, true },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fst_dump d;

		read_data(&sb, cases[i].file);
		fst_dump_init(&d);
		fst_parse(&d, sb.buf, sb.len);
		if (d.nr < cases[i].min_rows || d.unknown_layouts)
			fail_msg("%s: %zu rows, %zu unknown layouts (%s)",
			    cases[i].file, d.nr, d.unknown_layouts,
			    d.missing ? d.missing : "-");
		for (size_t k = 0; k < d.nr; k++) {
			const struct fst_frame *f = &d.frames[k];

			assert_true(f->v[FST_INTENDED] > 0);
			assert_true(f->v[FST_HANDLE_INPUT] != FST_ABSENT);
			assert_true(f->v[FST_COMPLETED] != FST_ABSENT);
			assert_int_equal(f->v[FST_VSYNC_ID] != FST_ABSENT,
			    cases[i].vsync_id);
			if (cases[i].vsync_id && f->v[FST_INTERVAL] > 0)
				assert_true(f->v[FST_INTERVAL] < 1000000000);
		}
		fst_dump_release(&d);
	}
	strbuf_release(&sb);
}

/*
 * The API 31-35 label swap: the column labelled FrameInterval holds the
 * start time and FrameStartTime the period (redfin's real row); the
 * later layout labels them in order.  Either way each lands under its
 * name.
 */
static void
label_swap_is_undone(void **state)
{
	static const char swapped[] =
	    "---PROFILEDATA---\n"
	    "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,"
	    "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,"
	    "FrameDeadline,FrameInterval,FrameStartTime,SyncQueued,SyncStart,"
	    "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,\n"
	    "0,3323,993103720308,993103720308,0,993103921638,993103922419,"
	    "993103923096,993105780292,993124220308,993103919554,11111111,"
	    "993106000000,993106100000,993106200000,993107000000,"
	    "993108000000,\n"
	    "---PROFILEDATA---\n";
	static const char ordered[] =
	    "---PROFILEDATA---\n"
	    "Flags,IntendedVsync,HandleInputStart,AnimationStart,"
	    "PerformTraversalsStart,DrawStart,FrameDeadline,FrameStartTime,"
	    "FrameInterval,SyncQueued,SyncStart,IssueDrawCommandsStart,"
	    "SwapBuffers,FrameCompleted,\n"
	    "0,100000000000,100000100000,100000200000,100000300000,"
	    "100000400000,100030000000,100000050000,16666666,100000500000,"
	    "100000600000,100000700000,100000800000,100000900000,\n"
	    "---PROFILEDATA---\n";
	struct fst_dump d;

	fst_dump_init(&d);
	fst_parse(&d, swapped, strlen(swapped));
	assert_int_equal(d.nr, 1);
	assert_true(d.frames[0].v[FST_INTERVAL] == 11111111);
	assert_true(d.frames[0].v[FST_START] == 993103919554LL);
	assert_true(d.frames[0].v[FST_VSYNC_ID] == 3323);
	fst_dump_release(&d);
	fst_dump_init(&d);
	fst_parse(&d, ordered, strlen(ordered));
	assert_int_equal(d.nr, 1);
	assert_true(d.frames[0].v[FST_INTERVAL] == 16666666);
	assert_true(d.frames[0].v[FST_START] == 100000050000LL);
	fst_dump_release(&d);
}

/* A header it does not know is counted and named; cut rows are counted. */
static void
unknown_layout_and_cut_rows_are_counted(void **state)
{
	static const char text[] =
	    "---PROFILEDATA---\n"
	    "Flags,IntendedVsync,Vsync,FrameCompleted,\n"
	    "0,1000000000,1000000000,1012000000,\n"
	    "---PROFILEDATA---\n"
	    "---PROFILEDATA---\n"
	    "Flags,IntendedVsync,HandleInputStart,AnimationStart,"
	    "PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
	    "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,\n"
	    "0,1,2,3,4,5,6,7,8,9,10,\n"
	    "0,1,2,3,4,5,6,7,8\n"
	    "0,1,2,x,4,5,6,7,8,9,10,\n"
	    "---PROFILEDATA---\n";
	struct fst_dump d;

	fst_dump_init(&d);
	fst_parse(&d, text, strlen(text));
	assert_int_equal(d.blocks, 2);
	assert_int_equal(d.unknown_layouts, 1);
	assert_string_equal(d.missing, "HandleInputStart");
	assert_int_equal(d.nr, 1);
	assert_int_equal(d.bad_rows, 2);
	fst_dump_release(&d);
}

static struct fst_frame
frame(int64_t flags, int64_t t0, const int64_t *steps_us)
{
	static const enum fst_col order[] = {
		FST_HANDLE_INPUT, FST_ANIMATION, FST_TRAVERSALS, FST_DRAW,
		FST_SYNC_QUEUED, FST_SYNC_START, FST_ISSUE, FST_SWAP,
		FST_COMPLETED,
	};
	struct fst_frame f;
	int64_t t = t0;

	for (int c = 0; c < FST_NR_COLS; c++)
		f.v[c] = FST_ABSENT;
	f.v[FST_FLAGS] = flags;
	f.v[FST_INTENDED] = t0;
	for (size_t i = 0; i < sizeof(order) / sizeof(*order); i++) {
		t += steps_us[i] * 1000;
		f.v[order[i]] = t;
	}
	return f;
}

/*
 * A frame's phases are the spans between its timestamps (FrameMetrics'
 * durations); flagged rows and missing, zero or out-of-order timestamps
 * leave the row out.
 */
static void
phases_of_a_frame(void **state)
{
	/* wait, input, animation, layout, draw, (queue), sync, command, gpu */
	static const int64_t us[] = { 500, 250, 400, 2600, 1300, 20, 700,
		2700, 1250 };
	struct fst_frame f = frame(0, 5000000000LL, us);
	double ms[RS_NR_PHASES];

	assert_int_equal(phases_of_frame(&f, ms), 0);
	assert_true(fabs(ms[RS_PHASE_WAIT] - 0.5) < 1e-9);
	assert_true(fabs(ms[RS_PHASE_INPUT] - 0.25) < 1e-9);
	assert_true(fabs(ms[RS_PHASE_ANIMATION] - 0.4) < 1e-9);
	assert_true(fabs(ms[RS_PHASE_LAYOUT] - 2.6) < 1e-9);
	assert_true(fabs(ms[RS_PHASE_DRAW] - 1.3) < 1e-9);
	assert_true(fabs(ms[RS_PHASE_SYNC] - 0.7) < 1e-9);
	assert_true(fabs(ms[RS_PHASE_COMMAND] - 2.7) < 1e-9);
	assert_true(fabs(ms[RS_PHASE_GPU] - 1.25) < 1e-9);
	f = frame(1, 5000000000LL, us);
	assert_int_equal(phases_of_frame(&f, ms), -1);
	f = frame(0, 5000000000LL, us);
	f.v[FST_DRAW] = 0;
	assert_int_equal(phases_of_frame(&f, ms), -1);
	f = frame(0, 5000000000LL, us);
	f.v[FST_SWAP] = INT64_MAX;
	assert_int_equal(phases_of_frame(&f, ms), -1);
	f = frame(0, 5000000000LL, us);
	f.v[FST_ANIMATION] = f.v[FST_HANDLE_INPUT] - 1;
	assert_int_equal(phases_of_frame(&f, ms), -1);
}

/*
 * Jank by the row's own deadline (31+: the later of FrameCompleted and
 * GpuCompleted past FrameDeadline), else by one period.
 */
static void
frame_jank_by_deadline_or_period(void **state)
{
	static const int64_t us[] = { 500, 250, 400, 2600, 1300, 20, 700,
		2700, 1250 };
	struct fst_frame f = frame(0, 5000000000LL, us);

	/* 9.72 ms: not janky at 60 Hz, janky at 120 Hz. */
	assert_int_equal(phases_frame_janky(&f, 16666666), 0);
	assert_int_equal(phases_frame_janky(&f, 8333333), 1);
	assert_int_equal(phases_frame_janky(&f, 0), RS_UNKNOWN);
	f.v[FST_DEADLINE] = f.v[FST_COMPLETED] + 1000;
	assert_int_equal(phases_frame_janky(&f, 8333333), 0);
	f.v[FST_GPU_COMPLETED] = f.v[FST_DEADLINE] + 1;
	assert_int_equal(phases_frame_janky(&f, 8333333), 1);
	f.v[FST_FLAGS] = 1;
	assert_int_equal(phases_frame_janky(&f, 16666666), RS_UNKNOWN);
}

/* The gfxinfo source over a dump, as a run or `parse` calls it. */
static struct rs_scene *
parse_gfxinfo(struct results *r, const char *text, size_t len, double hz)
{
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "feed"), false);
	struct source_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.results = r;
	ctx.it = it;
	ctx.refresh_hz = hz;
	assert_int_equal(source_find("gfxinfo")->parse(&ctx, text, len,
	    "scroll"), 0);
	return &it->scenes[0];
}

/*
 * A simulated phone's dump: the scene's phases hold each phase's median
 * and 90th percentile over its rows, every row is judged, and the
 * framework kept every frame (not only the newest 120).
 */
static void
scene_phases_from_a_dump(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct results *r = results_new();
	struct rs_scene *sc;
	double sum = 0;

	read_data(&sb, "gfxinfo/sim-api31.txt");
	sc = parse_gfxinfo(r, sb.buf, sb.len, 90);
	assert_true(sc->phases.present);
	assert_true(sc->phases.frames + sc->phases.skipped ==
	    (double)sc->frames.nr_rows);
	assert_true(sc->phases.frames > 0);
	for (int p = 0; p < RS_NR_PHASES; p++) {
		assert_true(sc->phases.p50_ms[p] >= 0);
		assert_true(sc->phases.p90_ms[p] >= sc->phases.p50_ms[p]);
		sum += sc->phases.p50_ms[p];
	}
	/* The phases make up most of a frame (the rest is queueing). */
	assert_true(sum > 0.5 * sc->frames.p50_ms);
	for (size_t i = 0; i < sc->frames.nr_rows; i++)
		if (!sc->frames.rows[i].flags)
			assert_int_not_equal(sc->frames.rows[i].janky,
			    RS_UNKNOWN);
	assert_int_equal(sc->phases.newest,
	    sc->frames.count > (double)sc->frames.nr_rows);
	results_free(r);
	strbuf_release(&sb);
}

/*
 * Bad rows are skipped and counted, not fatal: a flagged first frame, a
 * dropped frame with a zero timestamp; an unknown layout is a warning.
 */
static void
bad_rows_are_skipped_and_counted(void **state)
{
	static const char text[] =
	    "** Graphics info for pid 1 [p] **\n"
	    "Total frames rendered: 300\n"
	    "---PROFILEDATA---\n"
	    "Flags,IntendedVsync,Vsync,HandleInputStart,AnimationStart,"
	    "PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
	    "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,\n"
	    "1,1000000000,1000000000,1000500000,1000700000,1001000000,"
	    "1003000000,1004000000,1004100000,1004500000,1007000000,"
	    "1008000000,\n"
	    "0,1016666666,1016666666,1017000000,1017200000,1017500000,"
	    "1020500000,1021500000,1021600000,1022000000,1024500000,"
	    "1025500000,\n"
	    "0,1033333332,1033333332,0,0,0,0,0,0,0,0,1042000000,\n"
	    "0,1050000000,1050000000,1050400000,1050600000,1050900000,"
	    "1053400000,1054400000,1054500000,1054900000,1057400000,"
	    "1058400000,\n"
	    "---PROFILEDATA---\n"
	    "---PROFILEDATA---\n"
	    "Flags,Something,Else,\n"
	    "0,1,2,\n"
	    "---PROFILEDATA---\n";
	struct results *r = results_new();
	struct rs_scene *sc = parse_gfxinfo(r, text, strlen(text), 60);
	bool warned = false;

	assert_true(sc->phases.present);
	assert_true(sc->phases.frames == 2);
	assert_true(sc->phases.skipped == 2);
	assert_int_equal(sc->phases.newest, 1);
	/* Layout: 3.0 and 2.5 ms; the median of two is their mean. */
	assert_true(fabs(sc->phases.p50_ms[RS_PHASE_LAYOUT] - 2.75) < 1e-9);
	for (size_t i = 0; i < r->nr_warnings; i++)
		warned |= strstr(r->warnings[i].message, "frame phases") &&
		    strstr(r->warnings[i].message, "jankgate does not know");
	assert_true(warned);
	results_free(r);
}

/* A FrameTimeline jank dump in the layout of FrameTimeline.cpp. */
static const char ftl_dump[] =
    "Display Frame 3 [*] \n"
    "Prediction State : Valid\n"
    "Jank Type : Display HAL\n"
    "Present Metadata : Late Present\n"
    "Finish Metadata: On Time Finish\n"
    "Start Metadata: On Time Start\n"
    "Vsync Period:  16.666666\n"
    "\t\t    Start time\t\t|    End time\t\t|    Present time\n"
    "Expected\t|\t      0.00\t|\t     12.00\t|\t     28.67\n"
    "Actual  \t|\t      0.11\t|\t     13.20\t|\t     45.33\n"
    "----------------------------------------------------------------"
    "------------------------\n"
    "\n"
    "    Layer - com.example.shop/com.example.shop.FeedActivity#0 [*] \n"
    "    Token: 1005\n"
    "    Is Buffer?: 1\n"
    "    Owner Pid : 3920\n"
    "    Present State : Presented\n"
    "    Prediction State : Valid\n"
    "    Jank Type : Display HAL\n"
    "    Present Metadata : Late Present\n"
    "    Layer - com.other.app/com.other.app.Main#0 [*] \n"
    "    Token: 1006\n"
    "    Owner Pid : 4000\n"
    "    Present State : Presented\n"
    "    Jank Type : App Deadline Missed\n"
    "\n"
    "Display Frame 9\n"
    "Prediction State : Valid\n"
    "Jank Type : None\n"
    "\n"
    "    Layer - com.example.shop/com.example.shop.FeedActivity#0 [*] \n"
    "    Token: 1012\n"
    "    Owner Pid : 3920\n"
    "    Present State : Presented\n"
    "    Jank Type : App Deadline Missed, Buffer Stuffing\n"
    "    Layer - com.example.shop/com.example.shop.FeedActivity#0\n"
    "    Token: 1013\n"
    "    Owner Pid : 3920\n"
    "    Present State : Dropped\n"
    "    Drop time :  40.000000\n"
    "    Jank Type : None\n"
    "Display Frame 10 [*] \n"
    "Jank Type : SurfaceFlinger CPU Deadline Missed\n"
    "    Layer - com.example.shop/com.example.shop.FeedActivity#0 [*] \n"
    "    Token: 990\n"
    "    Owner Pid : 3920\n"
    "    Present State : Presented\n"
    "    Jank Type : SurfaceFlinger CPU Deadline Missed\n"
    "    Layer - SurfaceView - com.example.shop/com.example.shop.Feed#1\n"
    "    Token: 1020\n"
    "    Present State : Presented\n"
    "    Jank Type : Prediction Error, Warp Drive Late\n";

/*
 * The dump reads into one frame per layer block, with its token, pid,
 * present state and jank types; the display frames' own lines are not
 * a layer's.
 */
static void
frametimeline_dump_reads_per_layer(void **state)
{
	struct ftl_dump d;

	ftl_dump_init(&d);
	ftl_parse(&d, ftl_dump, strlen(ftl_dump));
	assert_int_equal(d.display_frames, 3);
	assert_int_equal(d.nr, 6);
	assert_string_equal(d.frames[0].layer,
	    "com.example.shop/com.example.shop.FeedActivity#0");
	assert_true(d.frames[0].token == 1005);
	assert_int_equal(d.frames[0].pid, 3920);
	assert_int_equal(d.frames[0].types, 1u << RS_JANK_DISPLAY_HAL);
	assert_int_equal(d.frames[2].types, (1u << RS_JANK_APP_DEADLINE) |
	    (1u << RS_JANK_BUFFER_STUFFING));
	assert_true(d.frames[3].dropped);
	assert_int_equal(d.frames[3].types, 0);
	assert_int_equal(d.frames[5].pid, -1);
	assert_int_equal(d.unknown_names, 1);
	assert_string_equal(d.unknown_name,
	    "Prediction Error, Warp Drive Late");
	ftl_dump_release(&d);
}

/* Every name of every release maps to its type; None and blanks to none. */
static void
frametimeline_type_names(void **state)
{
	static const struct {
		const char *s;
		unsigned bits;
		size_t unknown;
	} cases[] = {
		{ "None", 0, 0 },
		{ "", 0, 0 },
		{ "App Deadline Missed", 1u << RS_JANK_APP_DEADLINE, 0 },
		{ "Prediction Expired", 1u << RS_JANK_APP_DEADLINE, 0 },
		{ "Buffer Stuffing", 1u << RS_JANK_BUFFER_STUFFING, 0 },
		{ "SurfaceFlinger CPU Deadline Missed", 1u << RS_JANK_SF_CPU, 0 },
		{ "SurfaceFlinger Deadline Missed", 1u << RS_JANK_SF_CPU, 0 },
		{ "SurfaceFlinger GPU Deadline Missed", 1u << RS_JANK_SF_GPU, 0 },
		{ "Display HAL", 1u << RS_JANK_DISPLAY_HAL, 0 },
		{ "Composer/Display - outside SF and App",
		  1u << RS_JANK_DISPLAY_HAL, 0 },
		{ "Prediction Error", 1u << RS_JANK_PREDICTION, 0 },
		{ "SurfaceFlinger Scheduling", 1u << RS_JANK_SF_SCHEDULING, 0 },
		{ "Unknown jank", 1u << RS_JANK_UNKNOWN, 0 },
		{ "SurfaceFlinger Stuffing", 1u << RS_JANK_UNKNOWN, 0 },
		{ "Display HAL, SurfaceFlinger GPU Deadline Missed",
		  (1u << RS_JANK_DISPLAY_HAL) | (1u << RS_JANK_SF_GPU), 0 },
		{ "Something New", 1u << RS_JANK_UNKNOWN, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t unknown = 0;

		if (ftl_types(cases[i].s, strlen(cases[i].s), &unknown) !=
		    cases[i].bits || unknown != cases[i].unknown)
			fail_msg("'%s'", cases[i].s);
	}
}

/*
 * Counted: the app's layers only (by name or pid), from the scene's
 * first vsync id on, each frame in every type it has; dropped frames
 * are not judged.
 */
static void
frametimeline_counts_the_scene_app_frames(void **state)
{
	struct rs_jank_types jt;
	struct ftl_dump d;
	const int pids[] = { 4000 };

	ftl_dump_init(&d);
	ftl_parse(&d, ftl_dump, strlen(ftl_dump));
	ftl_count(&d, "com.example.shop", NULL, 0, 1000, &jt);
	assert_true(jt.present);
	assert_true(jt.frames == 3);	/* 1005, 1012, 1020 */
	assert_true(jt.janky == 3);
	assert_true(jt.count[RS_JANK_DISPLAY_HAL] == 1);
	assert_true(jt.count[RS_JANK_APP_DEADLINE] == 1);
	assert_true(jt.count[RS_JANK_BUFFER_STUFFING] == 1);
	assert_true(jt.count[RS_JANK_SF_CPU] == 0);
	assert_true(jt.count[RS_JANK_PREDICTION] == 1);
	assert_true(jt.count[RS_JANK_UNKNOWN] == 1);
	/* Before the scene (token 990) when the window is unknown. */
	ftl_count(&d, "com.example.shop", NULL, 0, -1, &jt);
	assert_true(jt.count[RS_JANK_SF_CPU] == 1);
	/* Another app's pid given as the app's: its frame counts. */
	ftl_count(&d, "com.example.shop", pids, 1, 1000, &jt);
	assert_true(jt.count[RS_JANK_APP_DEADLINE] == 2);
	ftl_dump_release(&d);
}

/* `jankgate parse frametimeline`: one scene, a warning for non-dumps. */
static void
frametimeline_parse_entry(void **state)
{
	const struct source *src = source_find("frametimeline");
	struct results *r = results_new();
	struct source_ctx ctx;
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "x"), false);

	assert_non_null(src);
	assert_null(src->scene_end);
	memset(&ctx, 0, sizeof(ctx));
	ctx.results = r;
	ctx.it = it;
	ctx.package = "com.example.shop";
	assert_int_equal(src->parse(&ctx, ftl_dump, strlen(ftl_dump), "sf"),
	    0);
	assert_int_equal(it->nr_scenes, 1);
	assert_true(it->scenes[0].jank_types.janky == 4);
	assert_int_equal(src->parse(&ctx, "hello\n", 6, "junk"), 0);
	assert_false(it->scenes[1].jank_types.present);
	assert_true(r->nr_warnings >= 2);
	/* An empty dump: nothing janked, which is a count of zero. */
	assert_int_equal(src->parse(&ctx, "", 0, "empty"), 0);
	assert_true(it->scenes[2].jank_types.present);
	assert_true(it->scenes[2].jank_types.janky == 0);
	results_free(r);
}

/*
 * The simulated phone's dump after a 300 ms stall (API 33): the two late
 * frames of the app, app deadline missed, nothing else.
 */
static void
frametimeline_simulated_phone(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct rs_jank_types jt;
	struct ftl_dump d;

	read_data(&sb, "frametimeline/sim-api33-stall.txt");
	ftl_dump_init(&d);
	ftl_parse(&d, sb.buf, sb.len);
	assert_int_equal(d.unknown_names, 0);
	ftl_count(&d, "com.example.phases", NULL, 0, -1, &jt);
	assert_true(jt.janky == 2);
	assert_true(jt.count[RS_JANK_APP_DEADLINE] == 2);
	assert_true(jt.count[RS_JANK_BUFFER_STUFFING] == 0);
	ftl_count(&d, "com.other", NULL, 0, -1, &jt);
	assert_true(jt.frames == 0);
	ftl_dump_release(&d);
	strbuf_release(&sb);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(frametimeline_simulated_phone),
	cmocka_unit_test(every_layout_reads_by_name),
	cmocka_unit_test(label_swap_is_undone),
	cmocka_unit_test(unknown_layout_and_cut_rows_are_counted),
	cmocka_unit_test(phases_of_a_frame),
	cmocka_unit_test(frame_jank_by_deadline_or_period),
	cmocka_unit_test(scene_phases_from_a_dump),
	cmocka_unit_test(bad_rows_are_skipped_and_counted),
	cmocka_unit_test(frametimeline_dump_reads_per_layer),
	cmocka_unit_test(frametimeline_type_names),
	cmocka_unit_test(frametimeline_counts_the_scene_app_frames),
	cmocka_unit_test(frametimeline_parse_entry),
};

JG_UNIT_GROUP(src_explain, tests, NULL, NULL)
