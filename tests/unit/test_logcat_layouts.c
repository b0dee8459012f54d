/*
 * test_logcat_layouts.c: every logcat and Android Studio layout
 * (logcat.h), each with lines of startup, choreographer, perf, Matrix and
 * FPSAnalyzer, written the way liblog's android_log_formatLogLine and
 * Studio's Logcat window write them: first line by line through the
 * reader, then as one capture through each source's parse hook.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "strbuf.h"

#define PKG "com.example.shop"
#define APP_PID 3920

/* One log entry, and the message lines it holds. */
struct entry {
	int pid, tid;
	char prio;
	const char *tag, *pkg;
	const char *const *lines;
	size_t nr;
};

static const char *const displayed[] = {
	"Displayed " PKG "/.HomeActivity: +412ms",
};
static const char *const start_proc[] = {
	"Start proc 3920:" PKG "/u0a100 for activity {" PKG "/.HomeActivity}",
};
static const char *const skipped[] = {
	"Skipped 31 frames!  The application may be doing too much work on "
	"its main thread.",
};
static const char *const fps[] = { "APP FPS is: 54 Hz" };
static const char *const matrix[] = {
	"report issue content: tag[Trace_FPS]type[0];key[null];content[{"
	"\"machine\":\"HIGH\",\"cpu_app\":0,\"mem\":3926458368,\"mem_free\":"
	"161364,\"scene\":\"" PKG ".HomeActivity\",\"dropLevel\":{"
	"\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,"
	"\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":61},\"dropSum\":{"
	"\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,"
	"\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":0},\"fps\":60,\"tag\":"
	"\"Trace_FPS\",\"process\":\"" PKG "\",\"time\":1553675665018}]",
};
static const char *const fpsa[] = {
	"FPSAnalyzer DISPATCH FRAME(>40):52 INFO:Handler "
	"(android.view.Choreographer$FrameHandler) {b3e1f2} : 0:" PKG ":"
	PKG ".HomeActivity",
};
static const char *const issue[] = {
	"=================================================",
	"type: UI BLOCK",
	"msg: UI BLOCK",
	"create time: 20231105_142233_123",
	"trace:",
	"\tjava.lang.Thread.sleep(Thread.java:-2)",
	"\t" PKG ".HomeActivity.onClick(HomeActivity.java:49)",
};

#define N(a) a, sizeof(a) / sizeof(a[0])

/* In this order in a capture: the perf issue last, a bare paste has no
 * other way to end it. */
static const struct entry entries[] = {
	{ 901, 928, 'I', "ActivityManager", "system_process", N(start_proc) },
	{ 901, 928, 'I', "ActivityTaskManager", "system_process",
	  N(displayed) },
	{ APP_PID, APP_PID, 'I', "Choreographer", PKG, N(skipped) },
	{ APP_PID, APP_PID, 'W', "PERF_FPSTool", PKG, N(fps) },
	{ APP_PID, 3979, 'I', "Matrix.DefaultPluginListener", PKG,
	  N(matrix) },
	{ APP_PID, 3963, 'E', "FPSAnalyzer", PKG, N(fpsa) },
	{ APP_PID, 3941, 'W', "PERF_Issue", PKG, N(issue) },
};

#define NR_ENTRIES (sizeof(entries) / sizeof(entries[0]))

/* What a layout prints besides the message. */
enum {
	HAS_PID = 1, HAS_TID = 2, HAS_TAG = 4, HAS_PRIO = 8, HAS_MONO = 16,
	HAS_TIME = 32, HAS_PKG = 64,
};

struct layout {
	const char *name;
	/* The prefix of a line; NULL for a later line of the entry. */
	void (*prefix)(struct strbuf *out, const struct entry *e);
	enum logcat_layout want;
	unsigned has;
	const char *indent;	/* before later lines, when not repeated */
	/* -v long: 1 with a blank line after each entry, 2 without. */
	int is_long;
};

#define MONO "  3600.123"
#define DATE "11-05 14:22:33.456"

static void
tt(struct strbuf *o, const struct entry *e, const char *time,
    const char *uid)
{
	strbuf_addf(o, "%s %s%5d %5d %c %-8s: ", time, uid, e->pid, e->tid,
	    e->prio, e->tag);
}

static void p_mono(struct strbuf *o, const struct entry *e)
{ tt(o, e, MONO, ""); }
static void p_mono_uid(struct strbuf *o, const struct entry *e)
{ tt(o, e, MONO, "10123 "); }
static void p_mono_user(struct strbuf *o, const struct entry *e)
{ tt(o, e, MONO, " root "); }
static void p_mono_nouid(struct strbuf *o, const struct entry *e)
{ tt(o, e, MONO, "      "); }
static void p_threadtime(struct strbuf *o, const struct entry *e)
{ tt(o, e, DATE, ""); }
static void p_year(struct strbuf *o, const struct entry *e)
{ tt(o, e, "2024-" DATE, ""); }
static void p_zone(struct strbuf *o, const struct entry *e)
{ tt(o, e, DATE " +0100", ""); }
static void p_usec(struct strbuf *o, const struct entry *e)
{ tt(o, e, DATE "789", ""); }
static void p_nsec_uid(struct strbuf *o, const struct entry *e)
{ tt(o, e, DATE "789012", "10123 "); }
static void p_epoch(struct strbuf *o, const struct entry *e)
{ tt(o, e, "         1730816553.456", ""); }

static void
p_color(struct strbuf *o, const struct entry *e)
{
	strbuf_addstr(o, "\x1b[33m");
	tt(o, e, DATE, "");
}

static void p_time(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, DATE " %c/%-8s(%5d): ", e->prio, e->tag, e->pid); }
static void p_time_uid(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, DATE " %c/%-8s(10123:%5d): ", e->prio, e->tag, e->pid); }
static void p_brief(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%c/%-8s(%5d): ", e->prio, e->tag, e->pid); }
static void p_brief_user(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%c/%-8s( root:%5d): ", e->prio, e->tag, e->pid); }
static void p_process(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%c(%5d) ", e->prio, e->pid); }
static void p_process_uid(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%c(10123:%5d) ", e->prio, e->pid); }
static void p_thread(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%c(%5d:%5d) ", e->prio, e->pid, e->tid); }
static void p_tag(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%c/%-8s: ", e->prio, e->tag); }
static void p_raw(struct strbuf *o, const struct entry *e)
{ (void)o; (void)e; }
static void p_long(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "[ " DATE " %5d:%5d %c/%-8s ]\n", e->pid, e->tid, e->prio,
    e->tag); }
static void p_long_mono(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "[ " MONO " 10123:%5d:%5d %c/%-8s ]\n", e->pid, e->tid,
    e->prio, e->tag); }
static void p_studio(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "2021-01-13 11:24:41.123 %d-%d/%s %c/%s: ", e->pid, e->tid,
    e->pkg, e->prio, e->tag); }
static void p_studio_unknown(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "2021-01-13 11:24:41.123 %d-%d/? %c/%s: ", e->pid, e->tid,
    e->prio, e->tag); }
static void p_studio_nopid(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%s %c/%s: ", e->pkg, e->prio, e->tag); }
static void p_columns(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "2023-06-13 14:07:07.443 %5d-%-5d %-23s %-36s %c  ",
    e->pid, e->tid, e->tag, e->pkg, e->prio); }
static void p_columns_short(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "14:07:07.443  %-23s %-36s %c  ", e->tag, e->pkg,
    e->prio); }
/* A narrow Logcat window: the columns, then the message on a line. */
static void p_columns_wrapped(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "2023-06-13 14:07:07.443 %5d-%-5d %-23s %-36s %c\n",
    e->pid, e->tid, e->tag, e->pkg, e->prio); }
/* Android Studio 1.x: U+FE55 SMALL COLON after the tag. */
static void p_studio_1(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "03-10 12:34:56.789  %d-%d/%s %c/%s\xef\xb9\x95 ",
    e->pid, e->tid, e->pkg, e->prio, e->tag); }
/* Eclipse's DDMS: a colon after the time. */
static void p_eclipse(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, DATE ": %c/%s(%d): ", e->prio, e->tag, e->pid); }
/* threadtime less its ids, as some blogs and tools print it. */
static void p_time_prio(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, DATE " %c %s: ", e->prio, e->tag); }
/* Old liblog's threadtime: the message on the next line, after a tab. */
static void p_threadtime_old(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, DATE " %5d %5d %c %-8s \n\t", e->pid, e->tid, e->prio,
    e->tag); }
/* Only the tag: a grep's or an article's excerpt. */
static void p_tag_only(struct strbuf *o, const struct entry *e)
{ strbuf_addf(o, "%s: ", e->tag); }

#define ALL (HAS_PID | HAS_TID | HAS_TAG | HAS_PRIO | HAS_TIME)
#define STUDIO_INDENT "    "
#define COLUMNS_INDENT "                                                   " \
	"                                               "

static const struct layout layouts[] = {
	{ "monotonic", p_mono, LOGCAT_THREADTIME, ALL | HAS_MONO, NULL, 0 },
	{ "monotonic,uid", p_mono_uid, LOGCAT_THREADTIME, ALL | HAS_MONO,
	  NULL, 0 },
	{ "monotonic,uid (user)", p_mono_user, LOGCAT_THREADTIME,
	  ALL | HAS_MONO, NULL, 0 },
	{ "monotonic,uid (unknown)", p_mono_nouid, LOGCAT_THREADTIME,
	  ALL | HAS_MONO, NULL, 0 },
	{ "threadtime", p_threadtime, LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "threadtime,year", p_year, LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "threadtime,zone", p_zone, LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "threadtime,usec", p_usec, LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "threadtime,nsec,uid", p_nsec_uid, LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "threadtime,epoch", p_epoch, LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "threadtime,color", p_color, LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "time", p_time, LOGCAT_TIME, HAS_PID | HAS_TAG | HAS_PRIO | HAS_TIME,
	  NULL, 0 },
	{ "time,uid", p_time_uid, LOGCAT_TIME, HAS_PID | HAS_TAG | HAS_PRIO |
	  HAS_TIME, NULL, 0 },
	{ "brief", p_brief, LOGCAT_BRIEF, HAS_PID | HAS_TAG | HAS_PRIO, NULL,
	  0 },
	{ "brief,uid", p_brief_user, LOGCAT_BRIEF, HAS_PID | HAS_TAG |
	  HAS_PRIO, NULL, 0 },
	{ "process", p_process, LOGCAT_PROCESS, HAS_PID | HAS_TAG | HAS_PRIO,
	  NULL, 0 },
	{ "process,uid", p_process_uid, LOGCAT_PROCESS, HAS_PID | HAS_TAG |
	  HAS_PRIO, NULL, 0 },
	{ "thread", p_thread, LOGCAT_THREAD, HAS_PID | HAS_TID | HAS_PRIO,
	  NULL, 0 },
	{ "tag", p_tag, LOGCAT_TAG, HAS_TAG | HAS_PRIO, NULL, 0 },
	{ "raw", p_raw, LOGCAT_BARE, 0, NULL, 0 },
	{ "long", p_long, LOGCAT_LONG, ALL, NULL, 1 },
	{ "long,monotonic,uid", p_long_mono, LOGCAT_LONG, ALL | HAS_MONO,
	  NULL, 1 },
	{ "Studio", p_studio, LOGCAT_STUDIO, ALL | HAS_PKG, STUDIO_INDENT,
	  0 },
	{ "Studio, package unknown", p_studio_unknown, LOGCAT_STUDIO, ALL,
	  STUDIO_INDENT, 0 },
	{ "Studio, package only", p_studio_nopid, LOGCAT_STUDIO, HAS_TAG |
	  HAS_PRIO | HAS_PKG, STUDIO_INDENT, 0 },
	{ "Studio columns", p_columns, LOGCAT_STUDIO_COLUMNS, ALL | HAS_PKG,
	  COLUMNS_INDENT, 0 },
	{ "Studio columns, time, no pid", p_columns_short,
	  LOGCAT_STUDIO_COLUMNS, HAS_TAG | HAS_PRIO | HAS_TIME | HAS_PKG,
	  COLUMNS_INDENT, 0 },
	{ "Studio columns, wrapped", p_columns_wrapped, LOGCAT_STUDIO_COLUMNS,
	  ALL | HAS_PKG, COLUMNS_INDENT, 0 },
	{ "Studio 1.x", p_studio_1, LOGCAT_STUDIO_1, ALL | HAS_PKG,
	  STUDIO_INDENT, 0 },
	{ "Eclipse DDMS", p_eclipse, LOGCAT_ECLIPSE, HAS_PID | HAS_TAG |
	  HAS_PRIO | HAS_TIME, NULL, 0 },
	{ "time and priority, no pid", p_time_prio, LOGCAT_TIME_PRIO,
	  HAS_TAG | HAS_PRIO | HAS_TIME, NULL, 0 },
	{ "tag only", p_tag_only, LOGCAT_TAG_ONLY, HAS_TAG, NULL, 0 },
	{ "threadtime, old: message on the next line", p_threadtime_old,
	  LOGCAT_THREADTIME, ALL, NULL, 0 },
	{ "long, no blank line", p_long, LOGCAT_LONG, ALL, NULL, 2 },
};

/* One entry as `l` prints it, every line. */
static void
format(struct strbuf *o, const struct layout *l, const struct entry *e)
{
	for (size_t i = 0; i < e->nr; i++) {
		if (l->is_long && i)
			;
		else if (!i || !l->indent)
			l->prefix(o, e);
		else
			strbuf_addstr(o, l->indent);
		/* The process layout prints the tag last. */
		if (l->prefix == p_process || l->prefix == p_process_uid)
			strbuf_addf(o, "%s  (%s)", e->lines[i], e->tag);
		else
			strbuf_addstr(o, e->lines[i]);
		if (l->prefix == p_color)
			strbuf_addstr(o, "\x1b[0m");
		strbuf_addch(o, '\n');
	}
	if (l->is_long == 1)
		strbuf_addch(o, '\n');
}

static void
assert_span(const char *what, const char *s, size_t n, const char *want)
{
	if (!want) {
		if (s)
			fail_msg("%s: got '%.*s', expected none", what,
			    (int)n, s);
		return;
	}
	if (!s || n != strlen(want) || memcmp(s, want, n))
		fail_msg("%s: got '%.*s', expected '%s'", what, (int)n,
		    s ? s : "", want);
}

/*
 * Each layout's lines of each entry read back as the entry: its message
 * (every line of it), and its pid, tid, tag, level, time and package
 * where the layout prints them.
 */
static void
every_layout_reads_every_entry(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
		const struct layout *l = &layouts[k];

		for (size_t j = 0; j < NR_ENTRIES; j++) {
			const struct entry *e = &entries[j];
			struct logcat_buf *b = logcat_buf_new();
			struct strbuf text = STRBUF_INIT;
			const struct logcat_line *ln;
			size_t nr;

			format(&text, l, e);
			if (logcat_buf_parse_text(b, text.buf, text.len) &&
			    l->want != LOGCAT_BARE)
				fail_msg("%s: %s", l->name, text.buf);
			ln = logcat_buf_lines(b, &nr);
			if (nr != e->nr)
				fail_msg("%s: %zu lines of %zu: %s", l->name,
				    nr, e->nr, text.buf);
			for (size_t i = 0; i < nr; i++) {
				const struct logcat_line *x = &ln[i];

				if (x->layout != l->want)
					fail_msg("%s: read as %s: %s", l->name,
					    logcat_layout_name(x->layout),
					    text.buf);
				assert_span(l->name, x->msg, x->msg_len,
				    e->lines[i]);
				assert_span(l->name, x->tag, x->tag_len,
				    l->has & HAS_TAG ? e->tag : NULL);
				assert_span(l->name, x->pkg, x->pkg_len,
				    l->has & HAS_PKG ? e->pkg : NULL);
				assert_int_equal(x->pid, l->has & HAS_PID ?
				    e->pid : -1);
				assert_int_equal(x->tid, l->has & HAS_TID ?
				    e->tid : -1);
				assert_int_equal(x->prio, l->has & HAS_PRIO ?
				    e->prio : 0);
				if (!isnan(x->mono_ms) !=
				    !!(l->has & HAS_MONO) ||
				    !isnan(x->time_ms) !=
				    !!(l->has & HAS_TIME))
					fail_msg("%s: times %g %g", l->name,
					    x->mono_ms, x->time_ms);
				if (l->has & HAS_MONO)
					assert_true(x->mono_ms == 3600123);
				assert_int_equal(x->cont, i && (l->indent ||
				    l->is_long));
			}
			logcat_buf_free(b);
			strbuf_release(&text);
		}
	}
}

/* One source's parse hook over `text`, for the app, on a fresh model. */
struct run {
	struct results *r;
	struct rs_iteration *it;
	struct source_launches launches;
};

static void
run_source(struct run *x, const char *name, const struct strbuf *text)
{
	static const int pids[] = { APP_PID };
	struct source_ctx ctx = { 0 };

	memset(x, 0, sizeof(*x));
	x->r = results_new();
	x->it = rs_scenario_add_iteration(results_add_scenario(x->r, "p"),
	    false);
	ctx.results = x->r;
	ctx.it = x->it;
	ctx.package = PKG;
	ctx.refresh_hz = 60;
	ctx.app_pids = pids;
	ctx.nr_app_pids = 1;
	ctx.launches = &x->launches;
	assert_int_equal(source_find(name)->parse(&ctx, text->buf, text->len,
	    "capture"), 0);
	for (size_t i = 0; i < x->r->nr_warnings; i++)
		if (strstr(x->r->warnings[i].message, "no line in"))
			fail_msg("%s: %s", name, x->r->warnings[i].message);
}

static void
run_release(struct run *x)
{
	source_launches_release(&x->launches);
	results_free(x->r);
}

/* The blocks of `it`, its scenes' first. */
static const struct rs_block *
only_block(const struct rs_iteration *it, const char *layout)
{
	const struct rs_block *b = NULL;
	size_t n = it->nr_blocks;

	for (size_t i = 0; i < it->nr_scenes; i++) {
		n += it->scenes[i].nr_blocks;
		if (it->scenes[i].nr_blocks)
			b = &it->scenes[i].blocks[0];
	}
	if (n != 1)
		fail_msg("%s: %zu blocks", layout, n);
	return b ? b : &it->blocks[0];
}

/*
 * A capture of every entry in one layout gives every source its values:
 * the launch's Displayed time, the app's 31 skipped frames, perf's UI
 * BLOCK with its stack and its FPS line, Matrix's FPS slice and the
 * FPSAnalyzer frame, whatever the layout.
 */
static void
every_source_reads_every_layout(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
		const struct layout *l = &layouts[k];
		struct strbuf text = STRBUF_INIT;
		const struct rs_block *b;
		const struct rs_scene *sc;
		struct run x;

		for (size_t j = 0; j < NR_ENTRIES; j++)
			format(&text, l, &entries[j]);

		run_source(&x, "startup", &text);
		if (x.launches.nr != 1 ||
		    x.launches.v[0].startup->displayed_ms != 412)
			fail_msg("%s: startup", l->name);
		run_release(&x);

		run_source(&x, "choreographer", &text);
		b = only_block(x.it, l->name);
		assert_string_equal(b->kind, "SKIPPED_FRAMES");
		assert_true(fabs(b->wall_ms - 31 * 1000.0 / 60) < 1e-9);
		run_release(&x);

		run_source(&x, "perf", &text);
		b = only_block(x.it, l->name);
		assert_string_equal(b->kind, "UI BLOCK");
		assert_int_equal(b->stack.nr, 2);
		assert_string_equal(b->stack.items[1], PKG ".HomeActivity."
		    "onClick(HomeActivity.java:49)");
		assert_int_equal(isnan(b->start_mono_ms), !(l->has & HAS_MONO));
		sc = &x.it->scenes[0];
		if (sc->fps.nr_slices != 1 || sc->fps.slices[0].fps != 54)
			fail_msg("%s: perf fps", l->name);
		run_release(&x);

		run_source(&x, "matrix", &text);
		sc = rs_iteration_find_scene(x.it, PKG ".HomeActivity");
		if (!sc || sc->fps.nr_slices != 1 ||
		    sc->fps.slices[0].fps != 60 ||
		    sc->fps.slices[0].drop_level.best != 61)
			fail_msg("%s: matrix", l->name);
		run_release(&x);

		run_source(&x, "fpsanalyzer", &text);
		sc = &x.it->scenes[0];
		if (sc->fps.nr_slices != 1 ||
		    fabs(sc->fps.slices[0].fps - 1000.0 / 52) > 1e-9 ||
		    strcmp(sc->fps.slices[0].app_scene, PKG ".HomeActivity"))
			fail_msg("%s: fpsanalyzer", l->name);
		run_release(&x);
		strbuf_release(&text);
	}
}

/*
 * All layouts at once, in one file: each line is told apart on its own,
 * so a paste of several sources' output still reads.
 */
static void
mixed_layouts_in_one_file(void **state)
{
	struct strbuf text = STRBUF_INIT;
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *ln;
	size_t nr, want = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
		format(&text, &layouts[k], &entries[2]);
		want++;
	}
	assert_int_equal(logcat_buf_parse_text(b, text.buf, text.len), 0);
	ln = logcat_buf_lines(b, &nr);
	assert_int_equal(nr, want);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(ln[i].layout, layouts[i].want);
		assert_span(layouts[i].name, ln[i].msg, ln[i].msg_len,
		    skipped[0]);
	}
	logcat_buf_free(b);
	strbuf_release(&text);
}

static const struct layout *
layout_named(const char *name)
{
	for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++)
		if (!strcmp(layouts[k].name, name))
			return &layouts[k];
	fail_msg("no layout '%s'", name);
	return NULL;
}

/*
 * Any app may carry a library: the lines that another app's process
 * printed (by Studio's package column, or a Start proc line naming the
 * pid for another package) never become the app's, whatever the source.
 */
static void
other_apps_library_lines(void **state)
{
	static const struct entry other[] = {
		{ 901, 928, 'I', "ActivityManager", "system_process",
		  N(start_proc) },
		{ 4100, 4100, 'W', "PERF_FPSTool", "com.other", N(fps) },
		{ 4100, 4141, 'W', "PERF_Issue", "com.other", N(issue) },
		{ 4100, 4179, 'I', "Matrix.DefaultPluginListener", "com.other",
		  N(matrix) },
	};
	static const char *const costs[] = { "com.other.A.b  12ms [x]" };
	static const struct entry cost = { 4100, 4100, 'I', "costTime",
	    "com.other", N(costs) };
	static const char start_other[] = "11-05 14:22:33.000   901   928 I "
	    "ActivityManager: Start proc 4100:com.other/u0a9 for activity "
	    "{com.other/.A}\n";
	struct strbuf columns = STRBUF_INIT, threadtime = STRBUF_INIT;
	const struct strbuf *texts[] = { &columns, &threadtime };
	const struct layout *col = layout_named("Studio columns");
	const struct layout *tt_l = layout_named("threadtime");
	struct run x;

	(void)state;
	strbuf_addstr(&threadtime, start_other);
	for (size_t j = 0; j < sizeof(other) / sizeof(other[0]); j++) {
		format(&columns, col, &other[j]);
		format(&threadtime, tt_l, &other[j]);
	}
	format(&columns, col, &cost);
	format(&threadtime, tt_l, &cost);
	for (size_t k = 0; k < 2; k++) {
		run_source(&x, "perf", texts[k]);
		assert_int_equal(x.it->scenes[0].nr_blocks, 0);
		assert_int_equal(x.it->scenes[0].fps.nr_slices, 0);
		run_release(&x);
		run_source(&x, "matrix", texts[k]);
		assert_int_equal(x.it->nr_scenes, 0);
		run_release(&x);
		run_source(&x, "traceman", texts[k]);
		assert_int_equal(x.it->nr_methods, 0);
		run_release(&x);
	}
	strbuf_release(&columns);
	strbuf_release(&threadtime);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(every_layout_reads_every_entry),
	cmocka_unit_test(every_source_reads_every_layout),
	cmocka_unit_test(mixed_layouts_in_one_file),
	cmocka_unit_test(other_apps_library_lines),
};

JG_UNIT_GROUP(logcat_layouts, tests, NULL, NULL)
