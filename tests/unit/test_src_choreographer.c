/*
 * test_src_choreographer.c: the choreographer source, "Skipped N frames!"
 * lines (docs/formats.md §3.4) as blocks of the app.
 */
#include <math.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "fileio.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"

#define LINE(t, pid, tag, msg) "  " t "  " pid "  " pid " I " tag ": " \
	msg "\n"
#define SKIP(n) "Skipped " n " frames!  The application may be doing too " \
	"much work on its main thread."

struct fx {
	struct results *r;
	struct rs_iteration *it;
	struct config *cfg;
	struct source_ctx ctx;
	const struct source *src;
};

static void
fx_init(struct fx *fx, const char *package, double hz, int grace_ms)
{
	struct strlist problems = STRLIST_INIT;

	memset(fx, 0, sizeof(*fx));
	assert_int_equal(config_defaults(&fx->cfg, &source_plugins, &problems), 0);
	strlist_release(&problems);
	fx->cfg->source_opts.grace_ms = grace_ms;
	fx->r = results_new();
	fx->it = rs_scenario_add_iteration(results_add_scenario(fx->r, "s"),
	    false);
	fx->ctx.cfg = fx->cfg;
	fx->ctx.package = package;
	fx->ctx.results = fx->r;
	fx->ctx.it = fx->it;
	fx->ctx.refresh_hz = hz;
	fx->src = source_find("choreographer");
	assert_non_null(fx->src);
}

static void
fx_release(struct fx *fx)
{
	results_free(fx->r);
	config_free(fx->cfg);
}

static void
logcat(struct fx *fx, const char *text)
{
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	size_t nr;

	logcat_buf_parse_text(b, text, strlen(text));
	lines = logcat_buf_lines(b, &nr);
	assert_int_equal(fx->src->logcat(&fx->ctx, lines, nr), 0);
	logcat_buf_free(b);
}

static struct rs_scene *
scene(struct fx *fx, const char *name, double start, double end)
{
	struct rs_scene *sc = rs_iteration_add_scene(fx->it, name);

	sc->start_mono_ms = start;
	sc->end_mono_ms = end;
	return sc;
}

static void
assert_close(double have, double want)
{
	if (!(fabs(have - want) < 1e-6))
		fail_msg("%.9g, expected %.9g", have, want);
}

/*
 * The simulated phone's 900 ms block: one SKIPPED_FRAMES block of N
 * vsync periods, ending at the line, with no stack and no signature.
 */
static void
parses_phone_capture(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/tests/unit/data/sources/choreographer/"
	    "sim-api33.txt", unit_srcdir());
	const struct rs_block *b;
	struct fx fx;

	assert_int_equal(file_read(&sb, path), 0);
	fx_init(&fx, "com.example.shop", 60, 0);
	assert_int_equal(fx.src->parse(&fx.ctx, sb.buf, sb.len, "x"), 0);
	assert_int_equal(fx.it->nr_blocks, 1);
	b = &fx.it->blocks[0];
	assert_string_equal(b->source, "choreographer");
	assert_string_equal(b->kind, "SKIPPED_FRAMES");
	assert_close(b->wall_ms, 56 * 1000.0 / 60);
	assert_close(b->start_mono_ms, 3604016 - 56 * 1000.0 / 60);
	assert_true(isnan(b->thread_ms));
	assert_int_equal(b->cpu_busy, RS_UNKNOWN);
	assert_int_equal(b->stack.nr, 0);
	assert_null(b->signature);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);

	/* No app given: the one process that printed any, named, warned. */
	fx_init(&fx, NULL, 60, 0);
	assert_int_equal(fx.src->parse(&fx.ctx, sb.buf, sb.len, "x"), 0);
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_non_null(strstr(fx.r->warnings[0].message, "pid 3923 "
	    "(com.example.shop), the only process that printed any"));
	strbuf_release(&sb);
	free(path);
	fx_release(&fx);
}

/*
 * A line inside a scene's window is that scene's; one shortly after a
 * scene, within the grace period, too; anything else is the iteration's.
 */
static void
blocks_go_to_their_scene(void **state)
{
	struct fx fx;
	struct rs_scene *a, *b;

	fx_init(&fx, "p", 90, 300);
	a = scene(&fx, "a", 1000, 2000);
	b = scene(&fx, "b", 3000, 4000);
	logcat(&fx,
	    LINE("1.500", "50", "Choreographer", SKIP("30"))
	    LINE("2.200", "50", "Choreographer", SKIP("31"))
	    LINE("2.400", "50", "Choreographer", SKIP("32"))
	    LINE("3.000", "50", "Choreographer", SKIP("33")));
	assert_int_equal(a->nr_blocks, 2);
	assert_close(a->blocks[0].wall_ms, 30 * 1000.0 / 90);
	assert_close(a->blocks[1].wall_ms, 31 * 1000.0 / 90);
	assert_int_equal(b->nr_blocks, 1);
	assert_close(b->blocks[0].wall_ms, 33 * 1000.0 / 90);
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_close(fx.it->blocks[0].wall_ms, 32 * 1000.0 / 90);
	fx_release(&fx);
}

/*
 * Only the app's process counts: its pids from "Start proc" lines when the
 * capture has them (its ":remote" process too); without them the one
 * process other than the activity manager's that printed any.
 */
static void
only_the_app_process(void **state)
{
	static const char with_start[] =
	    LINE("1.000", "900", "ActivityManager",
	        "Start proc 4242:com.x/u0a100 for activity com.x/.A")
	    LINE("1.001", "900", "ActivityManager",
	        "Start proc 4343:com.x:remote/u0a100 for service com.x/.S")
	    LINE("1.002", "900", "ActivityManager",
	        "Start proc 4444:com.xy/u0a101 for activity com.xy/.A")
	    LINE("2.000", "4242", "Choreographer", SKIP("40"))
	    LINE("2.100", "4343", "Choreographer", SKIP("41"))
	    LINE("2.200", "4444", "Choreographer", SKIP("42"))
	    LINE("2.300", "2100", "Choreographer", SKIP("43"))
	    LINE("2.400", "900", "Choreographer", SKIP("44"));
	static const char without_start[] =
	    LINE("1.000", "900", "ActivityTaskManager",
	        "START u0 {cmp=com.x/.A} from uid 2000")
	    LINE("2.300", "2100", "Choreographer", SKIP("43"))
	    LINE("2.400", "900", "Choreographer", SKIP("44"));
	struct fx fx;

	fx_init(&fx, "com.x", 60, 0);
	logcat(&fx, with_start);
	assert_int_equal(fx.it->nr_blocks, 2);
	assert_close(fx.it->blocks[0].wall_ms, 40 * 1000.0 / 60);
	assert_close(fx.it->blocks[1].wall_ms, 41 * 1000.0 / 60);
	fx_release(&fx);

	fx_init(&fx, "com.x", 60, 0);
	logcat(&fx, without_start);
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_close(fx.it->blocks[0].wall_ms, 43 * 1000.0 / 60);
	fx_release(&fx);
}

/* Without a refresh rate the block has no duration, and a warning says. */
static void
unknown_rate_has_no_duration(void **state)
{
	static const int pids[] = { 50 };
	struct fx fx;

	fx_init(&fx, "p", NAN, 0);
	fx.ctx.app_pids = pids;
	fx.ctx.nr_app_pids = 1;
	logcat(&fx, LINE("7.000", "50", "Choreographer", SKIP("30")));
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_true(isnan(fx.it->blocks[0].wall_ms));
	assert_close(fx.it->blocks[0].start_mono_ms, 7000);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_non_null(strstr(fx.r->warnings[0].message,
	    "refresh rate unknown"));
	fx_release(&fx);
}

/* Lines that only look like the warning are not blocks. */
static void
lookalikes_ignored(void **state)
{
	struct fx fx;

	fx_init(&fx, "p", 60, 0);
	logcat(&fx,
	    LINE("1.000", "50", "Choreographer", "Skipped 31 frame!")
	    LINE("1.100", "50", "Choreographer", "Skipped x frames!")
	    LINE("1.200", "50", "Choreographer", "Skipped  31 frames!")
	    LINE("1.300", "50", "Choreographer", "Skipped 1234567890 frames!")
	    LINE("1.400", "50", "Choreographer2", SKIP("31"))
	    LINE("1.500", "50", "MyApp", SKIP("31"))
	    LINE("1.600", "50", "Choreographer", "Skipped 31"));
	assert_int_equal(fx.it->nr_blocks, 0);
	fx_release(&fx);
}

/* parse over text that is no logcat capture warns and adds nothing. */
static void
parse_of_other_text_warns(void **state)
{
	struct fx fx;

	fx_init(&fx, NULL, 60, 0);
	assert_int_equal(fx.src->parse(&fx.ctx, "hello\n", 6, "h.txt"), 0);
	assert_int_equal(fx.it->nr_blocks, 0);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_string_equal(fx.r->warnings[0].message, "'h.txt': no line in "
	    "a logcat layout jankgate knows; the first it could not read is "
	    "line 1: 'hello'");
	fx_release(&fx);

	/* A capture without the line says what it lacks. */
	fx_init(&fx, NULL, 60, 0);
	assert_int_equal(fx.src->parse(&fx.ctx, LINE("1.000", "1", "T", "m"),
	    strlen(LINE("1.000", "1", "T", "m")), "l.txt"), 0);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_string_equal(fx.r->warnings[0].message, "'l.txt' holds no "
	    "'Skipped N frames!' line");
	fx_release(&fx);
}

/*
 * Another app's "Skipped 5874 frames!" never becomes the app's: with two
 * processes printing them and nothing telling which is the app's, none
 * counts and the warning names both; --pid, or the app's name in the log
 * (its process-name tag, Studio's column), picks the app's.
 */
static void
another_apps_lines_never_count(void **state)
{
	static const char two[] =
	    "10-19 16:40:50.663 16032 16032 I Choreographer: " SKIP("5874")
	    "\n10-19 16:40:52.398 20641 20641 I Choreographer: " SKIP("1095")
	    "\n10-19 16:41:05.018 20641 22465 E .a1taxicustomer: x\n";
	static const char studio[] =
	    "2023-06-13 14:07:07.443   774-795   Choreographer           "
	    "com.other.app                        I  " SKIP("5874") "\n"
	    "2023-06-13 14:07:08.443  1955-1955  Choreographer           "
	    "com.x                                I  " SKIP("40") "\n";
	static const int pid[] = { 20641 };
	struct fx fx;

	fx_init(&fx, NULL, 60, 0);
	logcat(&fx, two);
	assert_int_equal(fx.it->nr_blocks, 0);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_non_null(strstr(fx.r->warnings[0].message, "2 'Skipped N "
	    "frames!' lines of 2 processes (pids 16032, 20641) are not "
	    "counted"));
	fx_release(&fx);

	fx_init(&fx, NULL, 60, 0);
	fx.ctx.app_pids = pid;
	fx.ctx.nr_app_pids = 1;
	logcat(&fx, two);
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_close(fx.it->blocks[0].wall_ms, 1095 * 1000.0 / 60);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);

	/* ART tags its lines with the last 15 bytes of the process name. */
	fx_init(&fx, "com.a1taxi.a1taxicustomer", 60, 0);
	logcat(&fx, two);
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_close(fx.it->blocks[0].wall_ms, 1095 * 1000.0 / 60);
	assert_int_equal(fx.r->nr_warnings, 0);
	fx_release(&fx);

	fx_init(&fx, "com.x", 60, 0);
	logcat(&fx, studio);
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_close(fx.it->blocks[0].wall_ms, 40 * 1000.0 / 60);
	fx_release(&fx);
}

/* Lines that show no process (a bare paste) count, with a warning. */
static void
lines_without_process(void **state)
{
	struct fx fx;

	fx_init(&fx, "com.x", 60, 0);
	logcat(&fx, SKIP("30") "\nI/Choreographer: " SKIP("31") "\n");
	assert_int_equal(fx.it->nr_blocks, 2);
	assert_true(isnan(fx.it->blocks[1].start_mono_ms));
	assert_close(fx.it->blocks[1].wall_ms, 31 * 1000.0 / 60);
	assert_int_equal(fx.r->nr_warnings, 1);
	assert_non_null(strstr(fx.r->warnings[0].message, "2 'Skipped N "
	    "frames!' lines show no process: counted as the app's"));
	fx_release(&fx);
}

/* Does a warning of `fx` hold `part`? */
static bool
warned(const struct fx *fx, const char *part)
{
	for (size_t i = 0; i < fx->r->nr_warnings; i++)
		if (strstr(fx->r->warnings[i].message, part))
			return true;
	return false;
}

/*
 * A line that lost its first characters still counts when what is left
 * of its tag is the end of "Choreographer", with a warning naming it; a
 * line that says "Skipped N frames!" in any other way is named in a
 * warning and not counted; never one dropped silently.
 */
static void
damaged_lines(void **state)
{
	static const char text[] =
	    "/Choreographer(1234): " SKIP("4") "\n"
	    "horeographer: " SKIP("5") "\n"
	    "ographer( 77): " SKIP("6") "\n"
	    "1-05 14:22:33.456  3920  3920 I Choreographer: " SKIP("9") "\n"
	    /* too little of the tag left to tell */
	    "her: " SKIP("7") "\n"
	    "I/Choreogr: " SKIP("8") "\n";
	struct fx fx;

	fx_init(&fx, "com.x", 60, 0);
	assert_int_equal(fx.src->parse(&fx.ctx, text, strlen(text), "d.txt"),
	    0);
	assert_int_equal(fx.it->nr_blocks, 4);
	assert_close(fx.it->blocks[0].wall_ms, 4 * 1000.0 / 60);
	assert_close(fx.it->blocks[2].wall_ms, 6 * 1000.0 / 60);
	assert_close(fx.it->blocks[3].wall_ms, 9 * 1000.0 / 60);
	assert_true(warned(&fx, "4 'Skipped N frames!' lines lost their "
	    "start (the first is line 1: '/Choreographer(1234): Skipped 4 "
	    "frames!  The application may...'): read as Choreographer's by "
	    "what is left of the tag"));
	assert_true(warned(&fx, "2 lines say 'Skipped N frames!' but not as "
	    "Choreographer's (the first is line 5: 'her: Skipped 7 frames!  "
	    "The application may be doing too muc...'): not counted"));
	/* the file's other lines are in a layout: the bare ones are named */
	assert_true(warned(&fx, "'d.txt': 5 lines in no logcat layout "
	    "jankgate knows, read as bare messages (no time, process or tag); "
	    "the first is line 1: '/Choreographer(1234): Skipped 4"));
	fx_release(&fx);
}

/*
 * A threadtime log without a 'Start proc' line: the app's pid is taken
 * from the ViewRootImpl lines of the activity Displayed names, with a
 * warning saying so, and another process's lines still do not count.
 */
static void
app_pid_inferred_from_displayed(void **state)
{
	static const char text[] =
	    "10-19 16:40:50.100   901   930 I ActivityTaskManager: Displayed "
	    "com.x/.Main: +710ms\n"
	    "10-19 16:40:50.200  3920  3920 D ViewRootImpl@5c1d2e[Main]: "
	    "relayout\n"
	    "10-19 16:40:51.000  1500  1500 I Choreographer: " SKIP("40") "\n"
	    "10-19 16:40:52.000  3920  3920 I Choreographer: " SKIP("31") "\n";
	struct fx fx;

	fx_init(&fx, "com.x", 60, 0);
	assert_int_equal(fx.src->parse(&fx.ctx, text, strlen(text), "t"), 0);
	assert_int_equal(fx.it->nr_blocks, 1);
	assert_close(fx.it->blocks[0].wall_ms, 31 * 1000.0 / 60);
	assert_true(warned(&fx, "no line names the app's process (no 'Start "
	    "proc' line): pid 3920, known from the ViewRootImpl lines of the "
	    "activity a Displayed line names, is taken as the app's"));
	fx_release(&fx);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(parses_phone_capture),
	cmocka_unit_test(blocks_go_to_their_scene),
	cmocka_unit_test(only_the_app_process),
	cmocka_unit_test(unknown_rate_has_no_duration),
	cmocka_unit_test(lookalikes_ignored),
	cmocka_unit_test(parse_of_other_text_warns),
	cmocka_unit_test(another_apps_lines_never_count),
	cmocka_unit_test(lines_without_process),
	cmocka_unit_test(damaged_lines),
	cmocka_unit_test(app_pid_inferred_from_displayed),
};

JG_UNIT_GROUP(src_choreographer, tests, NULL, NULL)
