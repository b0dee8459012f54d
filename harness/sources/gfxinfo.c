/*
 * gfxinfo.c: the `gfxinfo` source, a scene's frames from the framework's
 * own frame statistics (docs/formats.md §3.1).
 *
 * The runner resets the statistics at scene start and hands this source
 * the `dumpsys gfxinfo PKG framestats` output at scene end; gfxinfo_dump.c
 * reads it, and this file decides what the scene's numbers are:
 *
 *   which block  The process-wide summary of the app's process (the
 *                section named after the package, else the first): it
 *                counts every frame of every window (activity, dialog,
 *                popup) since the reset.  Only when it has no HISTOGRAM
 *                line (or is absent: a pasted `Window:` section) while
 *                windows have one are the windows' summaries summed
 *                instead.  Windows are otherwise read for their titles:
 *                each one that rendered a frame adds its activity to the
 *                scene's app_scenes; in a plain dump (no per-window
 *                statistics, no framestats) every visible window does.
 *   histogram    The HISTOGRAM line holds every frame since the reset,
 *                where PROFILEDATA holds the last 120; it is kept when
 *                its buckets sum to "Total frames rendered" (or no such
 *                line and the line is not visibly cut).  A pasted line
 *                that is cut or elided ("...") is not kept, and gives
 *                only the numbers the missing frames cannot change
 *                (gfxinfo_hist.c), with a warning saying what is missing.
 *   count        "Total frames rendered", else the histogram's total;
 *                unknown for a cut histogram without that line.
 *   p50..p99     The printed lines (a warning when the histogram says
 *                otherwise); without them, from the histogram by hwui's
 *                own rule; none for 0 frames (hwui prints 4950).
 *   janky        "Janky frames" as printed: up to API 30 frames longer
 *                than a vsync period, from 31 frames that missed their
 *                deadline ("(legacy)" is not used).  Without that line,
 *                frames whose whole histogram bucket is at or above one
 *                vsync period of the refresh rate.
 *   slow, frozen Frames in buckets of METRIC_SLOW_MS (16 ms) and
 *                METRIC_FROZEN_MS (700 ms) and up.  These, janky and
 *                dropped are unknown where a cut histogram cannot say.
 *   dropped      Vsyncs missed, summed over frames: a frame in the bucket
 *                of b ms misses floor(b / period) vsyncs, the period being
 *                1000 / refresh rate (the device's, else the one the
 *                PROFILEDATA shows; a warning when they differ by more
 *                than 5 %).  Unknown when neither is known.
 *   causes       Every "Number <cause>: N" line, named in snake case:
 *                missed_vsync, high_input_latency, slow_ui_thread,
 *                slow_bitmap_uploads, slow_issue_draw_commands,
 *                frame_deadline_missed, frame_deadline_missed_legacy.
 *   rows         PROFILEDATA rows of every window in dump order,
 *                duration = FrameCompleted - IntendedVsync, with their
 *                Flags (non-zero: a frame the jank rules leave out) and
 *                whether each janked (phases.c).
 *   phases       The rows' phases, median and 90th percentile (phases.c);
 *                on API 31+ SurfaceFlinger's jank types of the app's
 *                frames, read right after the dump (frametimeline.c).
 *
 * The refresh rate is the device's in a run.  `jankgate parse` without
 * --refresh-hz takes the one the file names: a `dumpsys display` part
 * pasted with the dump, else the "Vsync Period" of a FrameTimeline part,
 * else PROFILEDATA's vsync period (FrameInterval), else 60 Hz; the
 * command says which.
 *
 * A dump it cannot fully read still gives what it could, plus a warning;
 * so does one without the app's frames: "No process found", "Failure
 * while dumping the app", an empty dump, a dump of every process none of
 * which is the app.  `jankgate parse` of a dump of every process
 * (`dumpsys gfxinfo framestats` without a package) reads the app's
 * process when the app is known, else makes one scene of each process
 * that has frames, named after it, and says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "devprops.h"
#include "frametimeline.h"
#include "gfxinfo_dump.h"
#include "gfxinfo_hist.h"
#include "metrics.h"
#include "phases.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "gfxinfo"

/* PROFILEDATA and the device disagree on the refresh rate beyond this. */
#define RATE_TOLERANCE 0.05

static double
nan_add(double a, double b)
{
	if (isnan(b))
		return a;
	return isnan(a) ? b : a + b;
}

/* The refresh rate: the device's, else the one PROFILEDATA shows; or NAN. */
static double
refresh_hz(const struct source_ctx *ctx, const struct rs_scene *sc,
    const struct gfx_dump *d)
{
	double dev = ctx->refresh_hz > 0 && isfinite(ctx->refresh_hz) ?
	    ctx->refresh_hz : NAN;
	double seen = 1e9 / d->interval_ns;

	if (!isnan(dev) && !isnan(seen) &&
	    fabs(seen - dev) > dev * RATE_TOLERANCE)
		source_warn(ctx, sc, SRC, "frames were rendered at %.0f Hz "
		    "but the refresh rate is %.0f Hz", seen, dev);
	return isnan(dev) ? seen : dev;
}

/* The summary's causes, total and janky; its histogram into `hc`. */
static void
add_summary(struct rs_frames *f, struct gfx_hist_check *hc,
    const struct gfx_summary *s, double *total, double *janky)
{
	if (s->has_histogram)
		gfx_hist_add(hc, s);
	for (size_t i = 0; i < s->causes.nr; i++)
		rs_frames_add_cause(f, s->causes.items[i], s->cause_counts[i]);
	*total = nan_add(*total, s->total);
	*janky = nan_add(*janky, s->janky);
}

/*
 * The summary the scene's numbers come from: the process's, or (NULL)
 * the sum of the windows' when only they have a histogram, or when only
 * they have a summary at all (a pasted `Window:` section).
 */
static const struct gfx_summary *
pick_summary(const struct gfx_dump *d)
{
	if (d->sum.has_histogram)
		return &d->sum;
	for (size_t i = 0; i < d->nr_windows; i++)
		if (d->windows[i].sum.has_histogram ||
		    (!d->sum.seen && d->windows[i].sum.seen))
			return NULL;
	return &d->sum;
}

/*
 * p50..p99: the printed lines, else from the histogram where it gives
 * them exactly; a printed line the histogram contradicts is kept, with a
 * warning.  None for 0 frames (hwui prints 4950).
 */
static void
fill_percentiles(const struct source_ctx *ctx, struct rs_scene *sc,
    const struct gfx_summary *s, const struct gfx_hist_check *hc,
    bool has_histogram)
{
	static const int pct[GFX_NR_PCT] = { 50, 90, 95, 99 };
	struct rs_frames *f = &sc->frames;
	double *out[GFX_NR_PCT] = { &f->p50_ms, &f->p90_ms, &f->p95_ms,
	    &f->p99_ms };

	if (f->count <= 0 || (isnan(f->count) && !has_histogram))
		return;
	for (int k = 0; k < GFX_NR_PCT; k++) {
		double printed = s ? s->pct_ms[k] : NAN, from = NAN;

		if (has_histogram)
			gfx_hist_percentile(hc, pct[k], &from);
		*out[k] = isnan(printed) ? from : printed;
		if (!isnan(printed) && !isnan(from) && printed != from)
			source_warn(ctx, sc, SRC, "the %dth percentile line "
			    "says %.0f ms, the HISTOGRAM gives %.0f ms: the "
			    "line's is kept", pct[k], printed, from);
	}
}

/* "50th/90th/95th/99th": the percentile lines `s` prints, or none. */
static void
printed_percentiles(struct strbuf *out, const struct gfx_summary *s)
{
	static const char *const name[GFX_NR_PCT] = { "50th", "90th",
	    "95th", "99th" };

	for (int k = 0; s && k < GFX_NR_PCT; k++)
		if (!isnan(s->pct_ms[k]))
			strbuf_addf(out, "%s%s", out->len ? "/" : "", name[k]);
}

/* items[0..nr) as "a", "a and b", "a, b and c". */
static void
add_list(struct strbuf *sb, const char *const *items, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(sb, "%s%s", !i ? "" : i + 1 < nr ? ", " : " and ",
		    items[i]);
}

/*
 * The warning for a histogram that does not hold every frame: what is
 * missing, where each number came from, which ones are unknown.
 */
static void
warn_partial(const struct source_ctx *ctx, struct rs_scene *sc,
    const struct gfx_summary *s, const struct gfx_hist_check *hc)
{
	static const char *const pct_name[GFX_NR_PCT] = { "50th", "90th",
	    "95th", "99th" };
	const struct rs_frames *f = &sc->frames;
	const double pct[GFX_NR_PCT] = { f->p50_ms, f->p90_ms, f->p95_ms,
	    f->p99_ms };
	struct strbuf msg = STRBUF_INIT, lines = STRBUF_INIT;
	const char *gone_pct[GFX_NR_PCT], *gone[5];
	size_t nr_pct = 0, nr = 0;

	gfx_hist_describe(hc, &msg);
	strbuf_addstr(&msg, isnan(f->count) ? "; the frame count is unknown" :
	    "; the frame count is that line's");
	printed_percentiles(&lines, s);
	if (lines.len)
		strbuf_addf(&msg, ", percentiles from the printed %s %s",
		    lines.buf, strchr(lines.buf, '/') ? "lines" : "line");
	for (int k = 0; k < GFX_NR_PCT && !(f->count == 0); k++)
		if (isnan(pct[k]))
			gone_pct[nr_pct++] = pct_name[k];
	if (nr_pct)
		gone[nr++] = "";	/* the percentiles, written first */
	if (isnan(f->janky))
		gone[nr++] = "janky";
	if (isnan(f->slow))
		gone[nr++] = "slow";
	if (isnan(f->frozen))
		gone[nr++] = "frozen";
	if (isnan(f->dropped))
		gone[nr++] = "dropped frames";
	if (nr) {
		strbuf_addstr(&msg, "; unknown: ");
		if (nr_pct) {
			strbuf_addstr(&msg, "the ");
			add_list(&msg, gone_pct, nr_pct);
			strbuf_addstr(&msg, nr_pct > 1 ? " percentiles" :
			    " percentile");
			if (nr > 1)
				strbuf_addstr(&msg, nr > 2 ? ", " : " and ");
		}
		add_list(&msg, gone + !!nr_pct, nr - !!nr_pct);
	}
	strbuf_addstr(&msg, "; its buckets are not kept");
	source_warn(ctx, sc, SRC, "%s", msg.buf);
	strbuf_release(&msg);
	strbuf_release(&lines);
}

static void
add_app_scene(struct rs_scene *sc, const char *title)
{
	const char *slash = strchr(title, '/');
	const char *name = slash && slash[1] ? slash + 1 : title;

	if (*name && strlist_find(&sc->app_scenes, name) < 0)
		strlist_add(&sc->app_scenes, name);
}

static bool
window_drew(const struct gfx_window *w)
{
	return w->sum.total > 0 || w->nr_rows || w->sum.nr_buckets;
}

/*
 * "pkg/pkg.FeedActivity" -> "pkg.FeedActivity", once per scene: the
 * windows that drew; in a plain dump, which says nothing per window, the
 * visible ones (every one when none says it is).
 */
static void
add_app_scenes(struct rs_scene *sc, const struct gfx_dump *d)
{
	bool plain = true, visible = false;

	for (size_t i = 0; i < d->nr_windows; i++) {
		plain &= !d->windows[i].sum.seen && !d->windows[i].nr_rows;
		visible |= d->windows[i].visibility == 0;
	}
	for (size_t i = 0; i < d->nr_windows; i++) {
		const struct gfx_window *w = &d->windows[i];

		if (plain ? !visible || w->visibility == 0 : window_drew(w))
			add_app_scene(sc, w->title);
	}
}

static void
warn_unread(const struct source_ctx *ctx, const struct rs_scene *sc,
    const struct gfx_dump *d)
{
	if (d->bad_values)
		source_warn(ctx, sc, SRC, "%zu unreadable numbers in the "
		    "frame statistics were skipped", d->bad_values);
	if (d->bad_rows)
		source_warn(ctx, sc, SRC, "%zu cut or unreadable PROFILEDATA "
		    "rows were skipped", d->bad_rows);
	if (d->bad_headers)
		source_warn(ctx, sc, SRC, "%zu PROFILEDATA blocks lack the "
		    "Flags, IntendedVsync or FrameCompleted column",
		    d->bad_headers);
}

/* Whether the dump is about the app at all; warns when it is not. */
static bool
dump_has_app(const struct source_ctx *ctx, const struct rs_scene *sc,
    const struct gfx_dump *d, bool empty)
{
	if (empty) {
		source_warn(ctx, sc, SRC, "no frames: the dump is empty");
		return false;
	}
	if (d->no_process) {
		source_warn(ctx, sc, SRC, "no frames: '%.200s'", d->no_process);
		return false;
	}
	if (d->app_missing) {
		source_warn(ctx, sc, SRC, "no frames: none of the %zu "
		    "processes in the dump is '%s'", d->nr_processes,
		    ctx->package);
		return false;
	}
	if (d->failure && !gfx_dump_has_frames(d)) {
		source_warn(ctx, sc, SRC, "no frames: the app's process could "
		    "not dump them: '%.200s'", d->failure);
		return false;
	}
	if (!d->nr_processes && !d->sum.seen && !d->nr_windows &&
	    !d->nr_rows) {
		source_warn(ctx, sc, SRC, "no frames: the dump has no "
		    "'** Graphics info' section");
		return false;
	}
	if (ctx->package && d->process && strcmp(ctx->package, d->process))
		source_warn(ctx, sc, SRC, "no process named '%s' in the dump; "
		    "read '%s' instead", ctx->package, d->process);
	return true;
}

static bool
is_blank(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r' &&
		    buf[i] != '\n')
			return false;
	return true;
}

/* Did the text hold not one line a gfxinfo dump has? */
static bool
no_gfxinfo_line(const struct gfx_dump *d)
{
	return !d->header && isnan(d->uptime_ms) && !d->nr_processes &&
	    !d->sum.seen &&
	    !d->nr_windows && !d->nr_rows && !d->bad_rows &&
	    !d->bad_headers && !d->no_process && !d->failure;
}

/* A parsed dump's section into `sc`'s frames; also its window if unknown. */
static void
fill_from(struct source_ctx *ctx, struct rs_scene *sc,
    const struct gfx_dump *d, bool empty)
{
	struct rs_frames *f = &sc->frames;
	const struct gfx_summary *s;
	struct gfx_hist_check hc;
	bool has_histogram = false;
	double total = NAN, janky = NAN, hz, late;

	if (isnan(sc->end_mono_ms))
		sc->end_mono_ms = d->uptime_ms;
	if (isnan(sc->start_mono_ms) && !isnan(d->sum.stats_since_ns))
		sc->start_mono_ms = d->sum.stats_since_ns / 1e6;
	/* A pasted Window: section has only the window's start. */
	for (size_t i = 0; i < d->nr_windows && isnan(d->sum.stats_since_ns);
	    i++)
		if (!isnan(d->windows[i].sum.stats_since_ns) &&
		    !(sc->start_mono_ms <=
		    d->windows[i].sum.stats_since_ns / 1e6))
			sc->start_mono_ms = d->windows[i].sum.stats_since_ns /
			    1e6;
	if (!dump_has_app(ctx, sc, d, empty))
		return;
	/* Another frame source's numbers are never mixed into ours. */
	if (rs_frames_claim(f, SRC)) {
		source_warn(ctx, sc, SRC, "the scene's frames come from '%s' "
		    "already; this dump is not read into them",
		    f->source ? f->source : "another source");
		return;
	}
	warn_unread(ctx, sc, d);
	add_app_scenes(sc, d);

	gfx_hist_init(&hc);
	s = pick_summary(d);
	if (s) {
		add_summary(f, &hc, s, &total, &janky);
		has_histogram = s->has_histogram;
	} else {
		for (size_t i = 0; i < d->nr_windows; i++) {
			add_summary(f, &hc, &d->windows[i].sum, &total,
			    &janky);
			has_histogram |= d->windows[i].sum.has_histogram;
		}
	}
	if (!d->sum.seen && !has_histogram && isnan(total) && !d->nr_rows) {
		source_warn(ctx, sc, SRC, "no frame statistics in the dump");
		goto out;
	}
	f->present = true;
	/* Only a histogram that holds every frame is kept. */
	if (has_histogram && hc.state == GFX_HIST_WHOLE)
		for (size_t i = 0; i < hc.nr; i++)
			rs_frames_add_bucket(f, hc.buckets[i].ms,
			    hc.buckets[i].count);
	f->count = has_histogram ? hc.total : total;
	f->janky = janky;
	fill_percentiles(ctx, sc, s, &hc, has_histogram);
	for (size_t i = 0; i < d->nr_rows; i++)
		*rs_frames_add_row(f) = d->rows[i];
	/* Issue 20: each frame's phases, and which rows janked. */
	phases_fill(ctx, sc, d->section, d->section_len);
	if (!has_histogram) {
		source_warn(ctx, sc, SRC, "no HISTOGRAM line: slow, frozen "
		    "and dropped frames are unknown");
		goto out;
	}
	if (!gfx_hist_at_least(&hc, METRIC_SLOW_MS, &f->slow))
		f->slow = NAN;
	if (!gfx_hist_at_least(&hc, METRIC_FROZEN_MS, &f->frozen))
		f->frozen = NAN;
	hz = refresh_hz(ctx, sc, d);
	if (!isnan(hz)) {
		gfx_hist_vsyncs(&hc, hz, &f->dropped, &late);
		if (isnan(f->janky))
			f->janky = late;
	} else {
		source_warn(ctx, sc, SRC, "refresh rate unknown: dropped "
		    "frames are not counted");
	}
	if (hc.state != GFX_HIST_WHOLE)
		warn_partial(ctx, sc, s, &hc);
out:
	gfx_hist_release(&hc);
}

/* Read one dump into `sc`: the app's process, as gfx_dump_parse() picks. */
static void
gfxinfo_fill(struct source_ctx *ctx, struct rs_scene *sc, const char *buf,
    size_t len)
{
	struct gfx_dump d;

	gfx_dump_init(&d);
	gfx_dump_parse(&d, buf, len, ctx->package);
	fill_from(ctx, sc, &d, is_blank(buf, len));
	gfx_dump_release(&d);
}

static int
gfxinfo_scene_end(struct source_ctx *ctx, struct rs_scene *scene,
    const char *gfxinfo, size_t len)
{
	gfxinfo_fill(ctx, scene, gfxinfo, len);
	/* Issue 20: SurfaceFlinger's jank types, next to framestats. */
	return frametimeline_scene_end(ctx, scene, gfxinfo, len);
}

/*
 * A dump of every process and no app to pick one: one scene per process
 * that has frames, named after it (pid added if two share a name).
 * Returns how many; 0 leaves the iteration alone.
 */
static size_t
each_process(struct source_ctx *ctx, const char *buf, size_t len,
    size_t nr_processes, const char *name)
{
	size_t made = 0;

	for (size_t i = 0; i < nr_processes; i++) {
		struct strbuf scene = STRBUF_INIT;
		struct gfx_dump d;

		gfx_dump_init(&d);
		gfx_dump_parse_nth(&d, buf, len, i);
		if (gfx_dump_has_frames(&d)) {
			strbuf_addstr(&scene, d.process && *d.process ?
			    d.process : name);
			if (rs_iteration_find_scene(ctx->it, scene.buf))
				strbuf_addf(&scene, " (pid %d)", d.pid);
			fill_from(ctx, rs_iteration_add_scene(ctx->it,
			    scene.buf), &d, false);
			made++;
		}
		strbuf_release(&scene);
		gfx_dump_release(&d);
	}
	if (made)
		source_warn(ctx, NULL, SRC, "'%s' is a dump of %zu processes "
		    "and no app was given (--app PKG): each of the %zu with "
		    "frames is a scene named after its process", name,
		    nr_processes, made);
	return made;
}

/*
 * `jankgate parse` without --refresh-hz: the display's rate as the file
 * names it, into ctx->refresh_hz, and where it came from.  First a
 * `dumpsys display` part (the rate a run reads), then SurfaceFlinger's
 * FrameTimeline "Vsync Period:", then PROFILEDATA's vsync period; else
 * the assumed rate stays.  A period gives the nearest whole rate: the
 * measured one jitters around the mode's (8.31 ms on a 120 Hz panel).
 */
static void
rate_from_dump(struct source_ctx *ctx, const char *buf, size_t len,
    const struct gfx_dump *d)
{
	char *text = xstrndup(buf, len);
	struct ftl_dump ftl;
	double hz;

	ftl_dump_init(&ftl);
	ftl_parse(&ftl, buf, len);
	if (!device_props_parse_refresh(text, &hz)) {
		ctx->refresh_hz = hz;
		ctx->refresh_from = "from the file's 'dumpsys display' "
		    "part";
	} else if (!isnan(ftl.vsync_period_ms)) {
		ctx->refresh_hz = round(1000 / ftl.vsync_period_ms);
		ctx->refresh_from = "from the 'Vsync Period' of the file's "
		    "FrameTimeline part";
	} else if (d->interval_ns > 0) {
		ctx->refresh_hz = round(1e9 / d->interval_ns);
		ctx->refresh_from = "from the vsync period of the dump's "
		    "PROFILEDATA";
	} else {
		ctx->refresh_from = "assumed: the file names none";
	}
	ftl_dump_release(&ftl);
	free(text);
}

/*
 * `jankgate parse gfxinfo FILE`: one scene, named after the file; or,
 * for a dump of every process without an app, one per process.
 */
static int
gfxinfo_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	struct rs_scene *sc;
	struct gfx_dump d;

	gfx_dump_init(&d);
	gfx_dump_parse(&d, buf, len, ctx->package);
	if (!is_blank(buf, len) && no_gfxinfo_line(&d)) {
		/* Not a dump at all: say which line, once. */
		rs_iteration_add_scene(ctx->it, name);
		source_warn_unread(ctx, SRC, name, buf, len,
		    "a gfxinfo dump");
		gfx_dump_release(&d);
		return 0;
	}
	if (ctx->refresh_assumed)
		rate_from_dump(ctx, buf, len, &d);
	if (!ctx->package && d.nr_processes > 1 &&
	    each_process(ctx, buf, len, d.nr_processes, name)) {
		gfx_dump_release(&d);
		return 0;
	}
	sc = rs_iteration_add_scene(ctx->it, name);
	fill_from(ctx, sc, &d, is_blank(buf, len));
	if (ctx->package && d.process && d.nr_processes > 1)
		source_warn(ctx, sc, SRC, "'%s' is a dump of %zu processes: "
		    "read '%s', the app's", name, d.nr_processes, d.process);
	gfx_dump_release(&d);
	return 0;
}

const struct source source_gfxinfo = {
	.name = "gfxinfo",
	.summary = "frames, percentiles, jank causes and per-frame rows "
	    "from dumpsys gfxinfo framestats",
	/* In a run it also counts jank types, through frametimeline.c,
	 * the source that declares them. */
	.fills = SOURCE_FRAMES | SOURCE_APP_SCENES | SOURCE_PHASES,
	.by_default = true,
	.scene_end = gfxinfo_scene_end,
	.parse = gfxinfo_parse,
};
