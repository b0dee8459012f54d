/*
 * svg_timeline.c: the frame timeline chart (svg_timeline.h).
 *
 * Coordinates are written as integers or with one decimal made from
 * integers, never through printf's %f, so a decimal comma in the locale
 * cannot break the geometry and the bytes are the same on every machine
 * (svg.c's rule).  Text goes through report_escape_html(), which also
 * turns invalid UTF-8 and control characters into U+FFFD.
 *
 * Each frame is a mark at its intended vsync, MARK_W wide whatever its
 * duration, its height the duration: frames drawn as wide as they last
 * overlapped into one red wash where jank ran together (issue 48), and
 * a mark per frame keeps them countable.  Janky frames also get a tick
 * under the lane.
 *
 * Frames that reach past the top of the lane (a 700 ms freeze in a chart
 * scaled for 16 ms frames) are drawn to the top with their time in their
 * <title>; the lane's height is three vsync periods, or the longest frame
 * when that is shorter, so a normal frame is never a sliver.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "strbuf.h"
#include "svg_timeline.h"
#include "banned.h"

#define W 960
#define LEFT 64
#define RIGHT 12
#define TOP 28
#define FRAME_H 120
#define INPUT_Y (TOP + FRAME_H + 14)
#define INPUT_H 14
#define BLOCK_Y (INPUT_Y + INPUT_H + 10)
#define BLOCK_H 14
#define AXIS_Y(nb) (BLOCK_Y + (nb) * (BLOCK_H + 4) + 8)
#define MAX_BLOCK_ROWS 4
#define MARK_W 2		/* a frame's mark, px */
#define TICK_H 4		/* a janky frame's tick under the lane */
#define MAX_TICKS 24

#define C_JANK "#c53030"
#define C_OK "#2f855a"
#define C_UNKNOWN "#a0aec0"
#define C_INPUT "#2b6cb0"
#define C_BLOCK "#dd6b20"
#define C_INK "#1a202c"
#define C_MUTED "#718096"
#define C_GRID "#e2e8f0"

/*
 * A coordinate with one decimal, from integers (see above); from 1e15 on,
 * which no coordinate reaches but a time from a bad file may, a mantissa
 * and a power of ten ("1.7e308"), since llround() has no integer for it.
 */
static void
num(struct strbuf *sb, double v)
{
	long long t;
	int exp;

	if (!isfinite(v))
		v = 0;
	if (fabs(v) >= 1e15) {
		exp = (int)floor(log10(fabs(v)));
		t = llround(v / pow(10, exp) * 10);
		if (llabs(t) >= 100) {
			t /= 10;
			exp++;
		}
		strbuf_addf(sb, "%s%lld", t < 0 ? "-" : "", llabs(t) / 10);
		if (llabs(t) % 10)
			strbuf_addf(sb, ".%lld", llabs(t) % 10);
		strbuf_addf(sb, "e%d", exp);
		return;
	}
	t = llround(v * 10);
	if (t < 0) {
		strbuf_addch(sb, '-');
		t = -t;
	}
	strbuf_addf(sb, "%lld", t / 10);
	if (t % 10)
		strbuf_addf(sb, ".%lld", t % 10);
}

static void
text(struct strbuf *sb, const char *s)
{
	if (s)
		report_escape_html(sb, s, strlen(s));
}

struct scale {
	double t0, t1;		/* ms shown */
	double x0, x1;		/* px */
};

static double
x_of(const struct scale *s, double t)
{
	if (s->t1 <= s->t0)
		return s->x0;
	return s->x0 + (t - s->t0) / (s->t1 - s->t0) * (s->x1 - s->x0);
}

static double
nice_step(double span)
{
	double raw = span / 8, p = pow(10, floor(log10(raw)));

	if (raw / p >= 5)
		return 5 * p;
	if (raw / p >= 2)
		return 2 * p;
	return p;
}

/* The time shown: the scene's span, widened to hold every mark. */
static void
time_range(const struct svg_tl *t, double *lo, double *hi)
{
	*lo = 0;
	*hi = t->span_ms > 0 ? t->span_ms : 0;
	for (size_t i = 0; i < t->nr_frames; i++) {
		*lo = fmin(*lo, t->frames[i].start_ms);
		*hi = fmax(*hi, t->frames[i].start_ms + t->frames[i].dur_ms);
	}
	for (size_t i = 0; i < t->nr_inputs; i++)
		if (isfinite(t->inputs[i].at_ms))
			*hi = fmax(*hi, t->inputs[i].at_ms);
	for (size_t i = 0; i < t->nr_blocks; i++) {
		double d = isfinite(t->blocks[i].dur_ms) ?
		    t->blocks[i].dur_ms : 0;

		*lo = fmin(*lo, t->blocks[i].start_ms);
		*hi = fmax(*hi, t->blocks[i].start_ms + d);
	}
	if (*hi <= *lo)
		*hi = *lo + 1;
}

/*
 * Ticks every nice step over the time shown, counted rather than stepped
 * to t1 (a huge t1 plus a step can be t1 again), and MAX_TICKS at most
 * whatever the data: nice_step() makes about 8.
 */
static void
axis(struct strbuf *sb, const struct scale *s, int y, int top)
{
	double step = nice_step(s->t1 - s->t0);
	double first = ceil(s->t0 / step) * step;

	for (int i = 0; i < MAX_TICKS && isfinite(first) && step > 0; i++) {
		double v = first + i * step, x;

		if (!(v <= s->t1))
			break;
		x = x_of(s, v);

		strbuf_addstr(sb, "<line x1=\"");
		num(sb, x);
		strbuf_addf(sb, "\" y1=\"%d\" x2=\"", top);
		num(sb, x);
		strbuf_addf(sb, "\" y2=\"%d\" stroke=\"" C_GRID "\"/>", y);
		strbuf_addstr(sb, "<text x=\"");
		num(sb, x);
		strbuf_addf(sb, "\" y=\"%d\" font-size=\"10\" fill=\"" C_MUTED
		    "\" text-anchor=\"middle\">", y + 12);
		num(sb, v);
		strbuf_addstr(sb, "</text>");
	}
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\""
	    C_MUTED "\" text-anchor=\"end\">ms from the scene's start</text>",
	    W - RIGHT, y + 24);
}

static void
frames(struct strbuf *sb, const struct svg_tl *t, const struct scale *s)
{
	double top = 0;

	for (size_t i = 0; i < t->nr_frames; i++)
		top = fmax(top, t->frames[i].dur_ms);
	if (t->period_ms > 0)
		top = fmin(fmax(top, t->period_ms * 1.5), 3 * t->period_ms);
	if (!(top > 0))
		top = 1;
	if (t->period_ms > 0) {
		double y = TOP + FRAME_H - t->period_ms / top * FRAME_H;

		strbuf_addf(sb, "<line x1=\"%d\" y1=\"", LEFT);
		num(sb, y);
		strbuf_addf(sb, "\" x2=\"%d\" y2=\"", W - RIGHT);
		num(sb, y);
		strbuf_addstr(sb, "\" stroke=\"" C_MUTED "\" "
		    "stroke-dasharray=\"4 3\"><title>one vsync period, ");
		num(sb, t->period_ms);
		strbuf_addstr(sb, " ms</title></line>");
	}
	for (size_t i = 0; i < t->nr_frames; i++) {
		const struct svg_tl_frame *f = &t->frames[i];
		double x = x_of(s, f->start_ms);
		double h = fmax(fmin(f->dur_ms / top, 1) * FRAME_H, 1);

		if (f->janky == 1) {
			strbuf_addstr(sb, "<rect x=\"");
			num(sb, x);
			strbuf_addf(sb, "\" y=\"%d\" width=\"%d\" height=\"%d\" "
			    "fill=\"" C_JANK "\"/>", TOP + FRAME_H + 2, MARK_W,
			    TICK_H);
		}
		strbuf_addstr(sb, "<rect x=\"");
		num(sb, x);
		strbuf_addstr(sb, "\" y=\"");
		num(sb, TOP + FRAME_H - h);
		strbuf_addf(sb, "\" width=\"%d\" height=\"", MARK_W);
		num(sb, h);
		strbuf_addf(sb, "\" fill=\"%s\"><title>"
		    "frame at ", f->janky == 1 ? C_JANK : f->janky == 0 ?
		    C_OK : C_UNKNOWN);
		num(sb, f->start_ms);
		strbuf_addstr(sb, " ms: ");
		num(sb, f->dur_ms);
		strbuf_addf(sb, " ms%s</title></rect>", f->janky == 1 ?
		    ", janky" : "");
	}
}

static void
inputs(struct strbuf *sb, const struct svg_tl *t, const struct scale *s)
{
	for (size_t i = 0; i < t->nr_inputs; i++) {
		double x;

		if (!isfinite(t->inputs[i].at_ms))
			continue;
		x = x_of(s, t->inputs[i].at_ms);
		strbuf_addstr(sb, "<path d=\"M");
		num(sb, x);
		strbuf_addf(sb, " %d l-5 %d h10 z\" fill=\"" C_INPUT "\">"
		    "<title>", INPUT_Y, INPUT_H);
		text(sb, t->inputs[i].label);
		strbuf_addstr(sb, " at ");
		num(sb, t->inputs[i].at_ms);
		strbuf_addstr(sb, " ms</title></path>");
	}
}

/* Blocks in up to MAX_BLOCK_ROWS rows, so overlapping ones stay apart. */
static size_t
blocks(struct strbuf *sb, const struct svg_tl *t, const struct scale *s)
{
	double row_end[MAX_BLOCK_ROWS];
	size_t rows = 0;

	for (size_t r = 0; r < MAX_BLOCK_ROWS; r++)
		row_end[r] = -INFINITY;
	for (size_t i = 0; i < t->nr_blocks; i++) {
		const struct svg_tl_block *b = &t->blocks[i];
		double x = x_of(s, b->start_ms), w;
		size_t r;

		w = isfinite(b->dur_ms) ? fmax(x_of(s, b->start_ms +
		    b->dur_ms) - x, 2) : 2;
		for (r = 0; r < MAX_BLOCK_ROWS - 1 && row_end[r] > x; r++)
			;
		row_end[r] = x + w;
		if (r + 1 > rows)
			rows = r + 1;
		strbuf_addstr(sb, "<rect x=\"");
		num(sb, x);
		strbuf_addf(sb, "\" y=\"%zu\" width=\"", BLOCK_Y +
		    r * (BLOCK_H + 4));
		num(sb, w);
		strbuf_addf(sb, "\" height=\"%d\" rx=\"2\" fill=\"%s\"><title>",
		    BLOCK_H, b->changed ? C_JANK : C_BLOCK);
		text(sb, b->label);
		strbuf_addstr(sb, ": ");
		if (isfinite(b->dur_ms)) {
			num(sb, b->dur_ms);
			strbuf_addstr(sb, " ms from ");
		} else {
			strbuf_addstr(sb, "at ");
		}
		num(sb, b->start_ms);
		strbuf_addstr(sb, " ms");
		if (b->janky >= 0)
			strbuf_addf(sb, ", overlapped %d janky frame%s",
			    b->janky, b->janky == 1 ? "" : "s");
		strbuf_addstr(sb, "</title></rect>");
	}
	return rows ? rows : 1;
}

static void
lane_label(struct strbuf *sb, int y, const char *what)
{
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\""
	    C_INK "\" text-anchor=\"end\">%s</text>", LEFT - 6, y, what);
}

char *
svg_timeline(const struct svg_tl *t)
{
	struct strbuf body = STRBUF_INIT, sb = STRBUF_INIT;
	struct scale s;
	size_t rows;
	int h;

	time_range(t, &s.t0, &s.t1);
	s.x0 = LEFT;
	s.x1 = W - RIGHT;
	frames(&body, t, &s);
	inputs(&body, t, &s);
	rows = blocks(&body, t, &s);
	h = AXIS_Y(rows) + 28;
	strbuf_addf(&sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\">"
	    "<title>", W, h);
	text(&sb, t->title ? t->title : "Frame timeline");
	strbuf_addstr(&sb, "</title>");
	axis(&sb, &s, AXIS_Y(rows), TOP);
	lane_label(&sb, TOP + FRAME_H / 2, "frames");
	lane_label(&sb, INPUT_Y + 11, "input");
	lane_label(&sb, BLOCK_Y + 11, "blocks");
	if (!t->nr_frames && !t->nr_blocks && !t->nr_inputs)
		strbuf_addf(&sb, "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
		    "fill=\"" C_MUTED "\">no frames, inputs or blocks were "
		    "recorded</text>", LEFT + 8, TOP + FRAME_H / 2);
	strbuf_addf(&sb, "<text x=\"%d\" y=\"16\" font-size=\"11\" fill=\""
	    C_MUTED "\">frames (a mark each, its height the time): <tspan "
	    "fill=\"" C_JANK "\">janky</tspan>, <tspan fill=\"" C_OK "\">on "
	    "time</tspan>; blocks: "
	    "<tspan fill=\"" C_JANK "\">new or worse</tspan>, <tspan fill=\""
	    C_BLOCK "\">other</tspan></text>", LEFT);
	strbuf_add(&sb, body.buf, body.len);
	strbuf_addstr(&sb, "</svg>");
	strbuf_release(&body);
	return strbuf_detach(&sb, NULL);
}
