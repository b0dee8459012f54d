/*
 * run_markers.c: scenes marked by the test command or the app, and their
 * frames sliced out of framestats reads (issue 52; run_marks.h).
 *
 * A flow marks a scene with two log lines, any tag:
 *
 *	I Flow    : jankgate: scene begin feed
 *	I Flow    : jankgate: scene end feed
 *
 * (or the tag "jankgate" with "scene begin feed"), from a host tool
 * (`adb shell log -t Flow 'jankgate: scene begin feed'`) or from the app
 * (Log.i("Flow", "jankgate: scene begin feed")).  The window is the two
 * lines' `logcat -v monotonic` times.
 *
 * No dumpsys may run inside a window, so a scene's frames cannot come
 * from a reset at its begin and a dump at its end as a scenario scene's
 * do.  They come from PROFILEDATA rows instead, which carry their own
 * CLOCK_MONOTONIC timestamps: run_exec.c takes a `dumpsys gfxinfo PKG
 * framestats reset` when an `exec` step starts, after each marked end
 * when no marked scene is open, and when the step ends.  Each read holds
 * the rows rendered since the one before; a scene's frames are the rows
 * whose FrameCompleted lies in (begin, end], as gfxinfo counts a frame
 * once it completed.  From them, as the gfxinfo source does from a
 * HISTOGRAM line: the count, hwui's histogram (5..32 ms by 1, to 48 by 2,
 * to 133 by 4, then 150..4950 by 50), the percentiles by hwui's rule,
 * slow (16 ms bucket and up) and frozen (700 and up), janky (phases.c:
 * the row's own deadline from API 31, else longer than a vsync period)
 * and dropped vsyncs (floor(bucket * hz / 1000) a frame); the rows
 * themselves for the report's frame timeline.  What the gfxinfo source
 * adds at a scenario scene's end (frame phases, SurfaceFlinger's jank
 * types, the sources' scene hooks) marked scenes do not have.
 *
 * hwui keeps only the last 120 rows of each window.  A read whose
 * process summary counts more frames ("Total frames rendered") than its
 * rows show lost some: the time from the previous read to the oldest row
 * of a full window (or, with no window full, a window gone since, the
 * whole time since the previous read) is unseen.  The count runs from
 * the last reset: when the read before had the same "Stats since" (an
 * `instrument` step's framestats, then the next test's plain reset), the
 * frames it counted are not new.  A scene whose window meets unseen time
 * gets no frames, and a warning says how many frames went unread: the
 * report says so rather than guessing.  The reads' Uptime is whole ms,
 * so a read or an unseen stretch meets a scene only when it does by more
 * than that ms: a read a fraction of a ms after a section's last frame
 * is after the section.
 *
 * With markers.trace the flow may mark a scene with an android.os.Trace
 * section named PREFIX + NAME instead (atrace.c reads them): run_exec.c
 * runs `atrace --async_start -b KB -a PKG` after the step's first read
 * and `atrace --async_stop` once the command has ended, and hands the
 * capture here.  An `instrument` step does the same around `am
 * instrument` (run_iter.c), its reads each test's reset and framestats,
 * its span one for sections only: log markers there are left out, as
 * its tests are its scenes.  A section's end is only known when the capture stops,
 * so within one step the reads are its first and its last: the step's
 * frames must fit hwui's 120 rows a window, or the scenes get the
 * unseen-frames warning above.  Sections are on atrace's trace clock,
 * "boot" (CLOCK_BOOTTIME) where the kernel has it, which runs ahead of
 * CLOCK_MONOTONIC by the time the phone slept.  Two clues say by how
 * much: each gfxinfo read prints both clocks (`Uptime:` is
 * uptimeMillis, CLOCK_MONOTONIC; `Realtime:` is elapsedRealtime,
 * CLOCK_BOOTTIME), to the ms; and atrace's clock-sync marker pairs the
 * trace clock with CLOCK_MONOTONIC, but prints the latter from a float,
 * coarse (tens of ms) after days of uptime.  So the reads' Realtime -
 * Uptime is used when it agrees with the marker within the float's
 * step (the trace clock is boot), the marker when they disagree (an
 * older kernel's "mono" or "global" clock), whichever exists when only
 * one does, and with neither the capture gives no scenes and a warning.
 *
 * A scene both a log marker and a Trace section name is the log
 * marker's: its times come from the stream every other event of the
 * iteration is placed by, and a flow moving from one to the other may
 * emit both.  A section the capture holds no end of (the buffer filled,
 * or the section ended after the command did) is no scene: a warning
 * names it.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrace.h"
#include "error.h"
#include "framestats.h"
#include "gfxinfo_dump.h"
#include "logcat.h"
#include "metrics.h"
#include "phases.h"
#include "results.h"
#include "run_marks.h"
#include "source.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define RING_ROWS	120	/* hwui's RingBuffer<FrameInfo, 120> */
#define MAX_NAME	100	/* as a scenario's scene name */
#define UPTIME_MS	1	/* the resolution of gfxinfo's Uptime: line */

struct mark_read {
	double asked_ms, at_ms;		/* device times, NAN when unknown */
};

struct mark_span {
	double from, to;
	bool sections_only;		/* an `instrument` step's */
};

struct mark_gap {
	double lo, hi;			/* unseen (lo, hi]; lo may be -inf */
	double frames;			/* rendered and not shown */
};

/* A Trace section on CLOCK_MONOTONIC (end NAN: the capture had none). */
struct mark_section {
	char *name;
	double begin, end;
};

/* A warning of a capture, for run_marks_scenes (scene NULL: the scenario). */
struct mark_note {
	char *scene, *msg;
};

struct run_marks {
	struct fst_frame *rows;
	size_t nr_rows, alloc_rows;
	struct mark_read *reads;
	size_t nr_reads, alloc_reads;
	struct mark_gap *gaps;
	size_t nr_gaps, alloc_gaps;
	struct mark_span *spans;
	size_t nr_spans, alloc_spans;
	struct source_span *steps;	/* the same spans, for the sources */
	size_t alloc_steps;
	double last_at;			/* the previous read's Uptime */
	double last_since, last_total;	/* its Stats since and total */
	double boot_ahead;		/* Realtime - Uptime of a read, NAN */
	struct mark_section *sections;
	size_t nr_sections, alloc_sections;
	struct mark_note *notes;
	size_t nr_notes, alloc_notes;
};

struct run_marks *
run_marks_new(void)
{
	struct run_marks *m = xcalloc(1, sizeof(*m));

	m->last_at = NAN;
	m->last_since = NAN;
	m->boot_ahead = NAN;
	return m;
}

void
run_marks_free(struct run_marks *m)
{
	if (!m)
		return;
	free(m->rows);
	free(m->reads);
	free(m->gaps);
	free(m->spans);
	free(m->steps);
	for (size_t i = 0; i < m->nr_sections; i++)
		free(m->sections[i].name);
	free(m->sections);
	for (size_t i = 0; i < m->nr_notes; i++) {
		free(m->notes[i].scene);
		free(m->notes[i].msg);
	}
	free(m->notes);
	free(m);
}

int
run_marks_active(const struct run_marks *m)
{
	return m && m->nr_reads > 0;
}

static int
starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

enum run_mark_kind
run_mark_parse(const struct logcat_line *l, const char **name, size_t *len)
{
	const char *s = l->msg;
	size_t n = l->msg_len, skip = strlen(RUN_MARK_PREFIX);
	enum run_mark_kind kind;

	if (starts(s, n, RUN_MARK_PREFIX)) {
		s += skip;
		n -= skip;
	} else if (l->tag && l->tag_len == 8 && !memcmp(l->tag, "jankgate", 8)
	    && starts(s, n, "scene ")) {
		s += 6;
		n -= 6;
	} else {
		return RUN_MARK_NONE;
	}
	if (starts(s, n, "begin ")) {
		kind = RUN_MARK_BEGIN;
		s += 6;
		n -= 6;
	} else if (starts(s, n, "end ")) {
		kind = RUN_MARK_END;
		s += 4;
		n -= 4;
	} else {
		return RUN_MARK_NONE;
	}
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (!n)
		return RUN_MARK_NONE;
	*name = s;
	*len = n;
	return kind;
}

void
run_marks_add_read(struct run_marks *m, const char *buf, size_t len,
    const char *package, double asked_ms, double uptime_ms)
{
	struct gfx_dump g;
	struct fst_dump f;
	double lo = isnan(m->last_at) ? -INFINITY : m->last_at;
	double full_hi = -INFINITY, block_first = NAN, boot, unseen;
	size_t block_rows = 0;
	bool full = false;

	XALLOC_GROW(m->reads, m->nr_reads + 1, m->alloc_reads);
	m->reads[m->nr_reads++] = (struct mark_read){ asked_ms, uptime_ms };

	gfx_dump_init(&g);
	fst_dump_init(&f);
	gfx_dump_parse(&g, buf, len, package);
	if (g.section)
		fst_parse(&f, g.section, g.section_len);
	for (size_t i = 0; i <= f.nr; i++) {
		const int64_t *v = i < f.nr ? f.frames[i].v : NULL;

		/* A window's rows ascend; a step back starts the next one. */
		if (!v || (i && v[FST_INTENDED] <
		    f.frames[i - 1].v[FST_INTENDED])) {
			if (block_rows >= RING_ROWS) {
				full = true;
				if (block_first > full_hi)
					full_hi = block_first;
			}
			block_rows = 0;
		}
		if (!v)
			break;
		if (!block_rows)
			block_first = (double)v[FST_COMPLETED] / 1e6;
		block_rows++;
		XALLOC_GROW(m->rows, m->nr_rows + 1, m->alloc_rows);
		m->rows[m->nr_rows++] = f.frames[i];
	}
	unseen = g.sum.total - (double)(f.nr + f.bad_rows);
	if (g.sum.stats_since_ns == m->last_since)
		unseen -= m->last_total;
	if (unseen > 0) {
		XALLOC_GROW(m->gaps, m->nr_gaps + 1, m->alloc_gaps);
		m->gaps[m->nr_gaps++] = (struct mark_gap){
			.lo = lo,
			.hi = full ? full_hi : isnan(uptime_ms) ? INFINITY :
			    uptime_ms,
			.frames = unseen,
		};
	}
	m->last_since = g.sum.stats_since_ns;
	m->last_total = g.sum.total;
	if (!isnan(uptime_ms))
		m->last_at = uptime_ms;
	if (!isnan(uptime_ms) && !gfxinfo_realtime(buf, len, &boot))
		m->boot_ahead = boot - uptime_ms;
	fst_dump_release(&f);
	gfx_dump_release(&g);
}

static void
note(struct run_marks *m, const char *scene, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
note(struct run_marks *m, const char *scene, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	XALLOC_GROW(m->notes, m->nr_notes + 1, m->alloc_notes);
	m->notes[m->nr_notes++] = (struct mark_note){
		scene ? xstrdup(scene) : NULL, strbuf_detach(&sb, NULL) };
}

/*
 * How far the capture's trace clock runs ahead of CLOCK_MONOTONIC, as
 * the header says; false when nothing tells.
 */
static bool
trace_ahead(const struct run_marks *m, const struct atrace_capture *c,
    double *ahead)
{
	double sync = c->sync_trace_ms - c->sync_mono_ms;
	float parent = (float)(c->sync_mono_ms / 1000.0);
	/* The float's step at parent_ts, in ms, and a little for the write. */
	double tol = 1000.0 * ((double)nextafterf(parent, INFINITY) -
	    (double)parent) + 2;

	if (!isnan(m->boot_ahead) && (isnan(sync) ||
	    fabs(sync - m->boot_ahead) <= tol))
		*ahead = m->boot_ahead;
	else if (!isnan(sync))
		*ahead = sync;
	else
		return false;
	return true;
}

void
run_marks_add_trace(struct run_marks *m, const char *buf, size_t len,
    const char *prefix)
{
	struct atrace_capture c;
	double ahead = 0;

	atrace_capture_init(&c);
	if (atrace_parse(&c, buf, len, prefix)) {
		size_t n = 0;

		while (n < len && n < 160 && buf[n] != '\n')
			n++;
		note(m, NULL, "no Trace sections: atrace printed no trace "
		    "(%.*s)", (int)n, buf);
		goto out;
	}
	if (!trace_ahead(m, &c, &ahead)) {
		if (c.nr)
			note(m, NULL, "no Trace sections: neither a frame read "
			    "nor atrace's clock-sync marker says how the "
			    "trace's clock relates to the frames'");
		goto out;
	}
	/*
	 * Ends without a begin are no loss by themselves: a section the app
	 * had open when the capture started ends in it.
	 */
	if (c.overwritten)
		note(m, NULL, "the atrace buffer overwrote its oldest events: "
		    "a scene may be missing; raise markers.trace_buffer_kb");
	for (size_t i = 0; i < c.nr; i++) {
		const struct atrace_section *t = &c.sections[i];

		XALLOC_GROW(m->sections, m->nr_sections + 1,
		    m->alloc_sections);
		m->sections[m->nr_sections++] = (struct mark_section){
			xstrdup(t->name), t->begin_ms - ahead,
			t->end_ms - ahead };
	}
out:
	atrace_capture_release(&c);
}

void
run_marks_span(struct run_marks *m, double from_ms, double to_ms,
    bool sections_only)
{
	struct mark_span sp = {
		isnan(from_ms) ? -INFINITY : from_ms,
		isnan(to_ms) ? INFINITY : to_ms, sections_only,
	};

	XALLOC_GROW(m->spans, m->nr_spans + 1, m->alloc_spans);
	XALLOC_GROW(m->steps, m->nr_spans + 1, m->alloc_steps);
	m->steps[m->nr_spans] = (struct source_span){ sp.from, sp.to };
	m->spans[m->nr_spans++] = sp;
}

const struct source_span *
run_marks_steps(const struct run_marks *m, size_t *nr)
{
	*nr = m ? m->nr_spans : 0;
	return *nr ? m->steps : NULL;
}

/*
 * Whether a marker at `at` lies in the span of a step that reads it: a
 * log marker (`logged`) in an exec step's, a section in any.
 */
static bool
in_span(const struct run_marks *m, double at, bool logged)
{
	for (size_t i = 0; i < m->nr_spans; i++)
		if (m->spans[i].from <= at && at <= m->spans[i].to &&
		    !(logged && m->spans[i].sections_only))
			return true;
	return false;
}

/* hwui's histogram bucket, as its label in ms, of a frame of `ms`. */
static uint32_t
bucket_of(int64_t ms)
{
	int64_t x = ms;

	if (ms >= 136) {
		int64_t i = ms < 150 ? 0 : (ms - 150) / 50;

		return (uint32_t)(150 + 50 * (i > 96 ? 96 : i));
	}
	if (x <= 5)
		return 5;
	if (x > 48)
		x = 48 + (x - 48) / 2;
	if (x > 32)
		x = 32 + (x - 32) / 2;
	/* Back from the bucket to its label (5..32, 34..48, 53..133). */
	if (x > 32)
		x += x - 32;
	if (x > 48)
		x += x - 48 + 1;
	return (uint32_t)x;
}

/* The frames of the window (lo, hi] into `f`, as the header says. */
static void
fill_frames(const struct run_marks *m, double lo, double hi, double hz,
    struct rs_frames *f)
{
	double period_ns = hz > 0 ? 1e9 / hz : 0;
	double janky = 0, dropped = 0, count = 0;
	bool janky_known = true;
	static const int pct[] = { 50, 90, 95, 99 };
	double *out[] = { &f->p50_ms, &f->p90_ms, &f->p95_ms, &f->p99_ms };

	rs_frames_claim(f, "markers");
	f->present = true;
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct fst_frame *r = &m->rows[i];
		double done = (double)r->v[FST_COMPLETED] / 1e6;
		int64_t ns = r->v[FST_COMPLETED] - r->v[FST_INTENDED];
		struct rs_frame_row *row;
		uint32_t b;
		int j;

		if (r->v[FST_COMPLETED] == FST_ABSENT ||
		    r->v[FST_INTENDED] == FST_ABSENT || !(done > lo) ||
		    done > hi || ns < 0)
			continue;
		b = bucket_of(ns / 1000000);
		rs_frames_add_bucket(f, b, 1);
		count++;
		if (hz > 0)
			dropped += floor(b * hz / 1000);
		j = phases_frame_janky(r, period_ns);
		if (j == 1)
			janky++;
		else if (j != 0)
			janky_known = false;
		row = rs_frames_add_row(f);
		row->intended_vsync_ns = r->v[FST_INTENDED];
		row->frame_completed_ns = r->v[FST_COMPLETED];
		row->duration_ms = (double)ns / 1e6;
		row->flags = r->v[FST_FLAGS] == FST_ABSENT ? 0 :
		    r->v[FST_FLAGS];
		row->janky = j;
	}
	f->count = count;
	f->janky = janky_known ? janky : NAN;
	f->dropped = hz > 0 ? dropped : NAN;
	f->slow = (double)rs_frames_histogram_at_least(f, METRIC_SLOW_MS);
	f->frozen = (double)rs_frames_histogram_at_least(f, METRIC_FROZEN_MS);
	for (size_t k = 0; k < 4; k++)
		if (frames_percentile_from_histogram(f->histogram,
		    f->nr_histogram, pct[k], out[k]))
			*out[k] = NAN;
}

/* Scene warnings, scoped "SCENARIO/NAME". */
static void
warn(struct results *res, const char *scenario, const char *scene,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
warn(struct results *res, const char *scenario, const char *scene,
    const char *fmt, ...)
{
	struct strbuf scope = STRBUF_INIT, msg = STRBUF_INIT;
	va_list ap;

	if (!res)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	strbuf_addstr(&scope, scenario);
	if (scene)
		strbuf_addf(&scope, "/%s", scene);
	results_add_warning(res, "markers", scope.buf, msg.buf);
	strbuf_release(&scope);
	strbuf_release(&msg);
}

/* Check a marked name as the scenario language checks a scene's. */
static int
check_name(const char *s, size_t len, double at)
{
	if (len > MAX_NAME)
		return jg_error_set(JG_EINVAL, "scene marker at %.0f ms: name "
		    "'%.40s...' too long (%zu bytes, at most %d)", at, s, len,
		    MAX_NAME);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return jg_error_set(JG_EINVAL, "scene marker at %.0f "
			    "ms: control character in name", at);
	return 0;
}

/* Judge and fill one marked scene `sc` (its window set). */
static void
judge(const struct run_marks *m, struct rs_scene *sc, double hz,
    struct results *res, const char *scenario)
{
	double lo = sc->start_mono_ms, hi = sc->end_mono_ms, lost = 0;

	for (size_t i = 0; i < m->nr_gaps; i++)
		if (m->gaps[i].lo + UPTIME_MS < hi && m->gaps[i].hi > lo)
			lost += m->gaps[i].frames;
	if (lost > 0) {
		warn(res, scenario, sc->name, "frames not reported: %.0f "
		    "frames rendered around this scene were gone before "
		    "jankgate could read them (framestats keeps the last %d "
		    "of each window); mark shorter scenes, or leave time "
		    "between them", lost, RING_ROWS);
		return;
	}
	for (size_t i = 0; i < m->nr_reads; i++) {
		const struct mark_read *r = &m->reads[i];
		double from = isnan(r->asked_ms) ? r->at_ms : r->asked_ms;

		if (!isnan(r->at_ms) && from + UPTIME_MS < hi && r->at_ms > lo)
			warn(res, scenario, sc->name, "jankgate read the "
			    "frames inside this scene (%.0f ms after its "
			    "begin): leave time between a scene's end and the "
			    "next one's begin", from > lo ? from - lo : 0);
	}
	fill_frames(m, lo, hi, hz, &sc->frames);
}

/*
 * The Trace sections' scenes, after the log markers' (it->scenes from
 * `first` on), as the header says; `outside` counts markers left out.
 */
static int
trace_scenes(struct run_marks *m, struct rs_iteration *it, size_t first,
    int *outside, struct results *res, const char *scenario)
{
	size_t logged = it->nr_scenes;

	for (size_t i = 0; i < m->nr_notes; i++)
		warn(res, scenario, m->notes[i].scene, "%s", m->notes[i].msg);
	for (size_t i = 0; i < m->nr_sections; i++) {
		const struct mark_section *t = &m->sections[i];
		struct rs_scene *sc = NULL;
		int rc;

		if (!in_span(m, t->begin, false)) {
			if (!(*outside)++)
				warn(res, scenario, NULL, "scene markers "
				    "outside an exec or instrument step are "
				    "left out (the first: '%s'): jankgate reads "
				    "no frames for them there", t->name);
			continue;
		}
		if ((rc = check_name(t->name, strlen(t->name), t->begin)))
			return rc;
		for (size_t j = 0; j < it->nr_scenes; j++)
			if (!strcmp(it->scenes[j].name, t->name))
				sc = &it->scenes[j];
		if (sc && (size_t)(sc - it->scenes) < first)
			return jg_error_set(JG_EINVAL, "scene marker (a Trace "
			    "section) at %.0f ms: '%s' is a scene of the "
			    "scenario", t->begin, t->name);
		if (sc && (size_t)(sc - it->scenes) < logged)
			continue;	/* the log marker's scene wins */
		if (sc)
			return jg_error_set(JG_EINVAL, "scene marker (a Trace "
			    "section) at %.0f ms: '%s' begins again (scenes "
			    "are measured once an iteration)", t->begin,
			    t->name);
		if (isnan(t->end)) {
			warn(res, scenario, t->name, "no frames: its Trace "
			    "section began at %.0f ms and the capture holds "
			    "no end (the buffer filled, see "
			    "markers.trace_buffer_kb, or it ended after the "
			    "exec step's command)", t->begin);
			continue;
		}
		sc = rs_iteration_add_scene(it, t->name);
		sc->start_mono_ms = t->begin;
		sc->end_mono_ms = t->end;
	}
	return 0;
}

int
run_marks_scenes(struct run_marks *m, const struct logcat_line *lines,
    size_t nr, struct rs_iteration *it, double refresh_hz,
    struct results *res, const char *scenario)
{
	size_t first = it->nr_scenes;
	int rc = 0, outside = 0;

	for (size_t i = 0; i < nr && !rc; i++) {
		const char *name;
		size_t len;
		enum run_mark_kind k = run_mark_parse(&lines[i], &name, &len);
		double at = lines[i].mono_ms;
		struct rs_scene *sc = NULL;
		bool marked;
		char *s;

		if (k == RUN_MARK_NONE || isnan(at))
			continue;
		if (!in_span(m, at, true)) {
			if (!outside++)
				warn(res, scenario, NULL, "scene markers "
				    "outside an exec step are left out (the "
				    "first: '%.*s'): jankgate reads no frames "
				    "for them there", (int)len, name);
			continue;
		}
		if ((rc = check_name(name, len, at)))
			break;
		s = xstrndup(name, len);
		for (size_t j = 0; j < it->nr_scenes; j++)
			if (!strcmp(it->scenes[j].name, s))
				sc = &it->scenes[j];
		/* A scene of the scenario's own steps is no marked one. */
		marked = sc && (size_t)(sc - it->scenes) >= first;
		if (k == RUN_MARK_BEGIN && sc)
			rc = jg_error_set(JG_EINVAL, "scene marker at %.0f ms: "
			    "'%s' begins again (%s)", at, s, marked ?
			    "scenes are measured once an iteration" :
			    "a scene of the scenario has that name");
		else if (k == RUN_MARK_END && (!marked ||
		    !isnan(sc->end_mono_ms)))
			rc = jg_error_set(JG_EINVAL, "scene marker at %.0f ms: "
			    "'%s' ends without a begin", at, s);
		else if (k == RUN_MARK_BEGIN)
			rs_iteration_add_scene(it, s)->start_mono_ms = at;
		else
			sc->end_mono_ms = at;
		free(s);
	}
	for (size_t j = first; j < it->nr_scenes && !rc; j++)
		if (isnan(it->scenes[j].end_mono_ms))
			rc = jg_error_set(JG_EINVAL, "scene marker: '%s' began "
			    "at %.0f ms and never ended", it->scenes[j].name,
			    it->scenes[j].start_mono_ms);
	if (!rc)
		rc = trace_scenes(m, it, first, &outside, res, scenario);
	for (size_t j = first; j < it->nr_scenes && !rc; j++)
		judge(m, &it->scenes[j], refresh_hz, res, scenario);
	return rc;
}
