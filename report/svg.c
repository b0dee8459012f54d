/*
 * svg.c: the report's charts as SVG text (see svg.h).
 *
 * Every element goes through emit(), a small formatter of its own: %s
 * pastes trusted markup (colours, fixed words), %t escapes text from data,
 * %n writes a coordinate and %v a value for people to read.  Numbers are
 * made from integers here rather than by printf's %f, whose decimal point
 * follows LC_NUMERIC: a report written under a locale with a decimal comma
 * would otherwise draw nonsense, and the bytes would differ from one
 * machine to the next.
 *
 * Text from data is decoded as UTF-8 and re-encoded: invalid bytes become
 * U+FFFD, control characters (which XML 1.0 forbids) become spaces, and the
 * five markup characters become entities.  Long labels are cut with an
 * ellipsis so that they cannot push a chart out of its box.
 *
 * Geometry is in viewBox units with the origin at the top left; each chart
 * reserves margins for its labels around a plot area.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "svg.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

#define COLOR_BASE "#9aa5b1"
#define COLOR_CUR "#2b6cb0"
#define COLOR_WORSE "#c53030"
#define COLOR_BETTER "#2f855a"
#define COLOR_INK "#1a202c"
#define COLOR_MUTED "#718096"
#define COLOR_GRID "#e2e8f0"

#define SIZE_MIN 16
#define SIZE_MAX 4000
#define LABEL_CHARS 28		/* longest label drawn before the ellipsis */
#define TEXT_CHARS 200		/* longest title */
/*
 * Gridlines per axis at most, whatever the data: the number of ticks comes
 * from counting, never from stepping a double up to a maximum that the
 * data chose (1.7e308 + a step is 1.7e308, and the loop would never end).
 */
#define MAX_TICKS 12
/*
 * Bars of a histogram at most: more distinct buckets (a file may hold
 * thousands) are drawn in groups of neighbours, each from its first
 * bucket's ms, so the chart keeps its size whatever the data.
 */
#define MAX_SLOTS 120

/* A plot area inside the viewBox. */
struct plot {
	double x, y, w, h;
};

/* A side of a histogram bucket: share of that side's frames, and count. */
struct slot {
	double ms;
	double count[2];
};

static void
put_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, 0xc0 | cp >> 6);
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, 0xe0 | cp >> 12);
		strbuf_addch(sb, 0x80 | (cp >> 6 & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	} else {
		strbuf_addch(sb, 0xf0 | cp >> 18);
		strbuf_addch(sb, 0x80 | (cp >> 12 & 0x3f));
		strbuf_addch(sb, 0x80 | (cp >> 6 & 0x3f));
		strbuf_addch(sb, 0x80 | (cp & 0x3f));
	}
}

/*
 * `s` as XML character data, valid in text and in quoted attributes, cut
 * to `max` characters (the last one then an ellipsis).  NULL is "".
 */
static void
add_text(struct strbuf *sb, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p), chars = 0;

	while (len) {
		unsigned cp;
		size_t n = utf8_decode(p, len, &cp);

		if (++chars == max && len > n) {
			put_utf8(sb, 0x2026);
			return;
		}
		p += n;
		len -= n;
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			cp = ' ';
		else if (cp == 0xfffe || cp == 0xffff)
			cp = 0xfffd;
		switch (cp) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default: put_utf8(sb, cp); break;
		}
	}
}

/*
 * `v` with at most `decimals` (0 to 3) decimals, trailing zeros dropped
 * and '.' as the point whatever the locale; not finite is "0".
 */
static void
add_num(struct strbuf *sb, double v, int decimals)
{
	static const long long scale[] = { 1, 10, 100, 1000 };
	long long k, frac;
	char digits[8];
	int len;

	if (!isfinite(v))
		v = 0;
	if (fabs(v) >= 1e15) {
		/* No decimals left to print, hence no decimal point. */
		strbuf_addf(sb, "%.0f", v);
		return;
	}
	k = llround(v * scale[decimals]);
	if (k < 0) {
		strbuf_addch(sb, '-');
		k = -k;
	}
	strbuf_addf(sb, "%lld", k / scale[decimals]);
	frac = k % scale[decimals];
	if (!frac)
		return;
	len = snprintf(digits, sizeof(digits), "%0*lld", decimals, frac);
	while (len > 0 && digits[len - 1] == '0')
		digits[--len] = '\0';
	strbuf_addch(sb, '.');
	strbuf_addstr(sb, digits);
}

/*
 * A value for a reader: three significant digits or so; from 1e15 on, as
 * a mantissa and a power of ten ("1.7e308"), not three hundred digits.
 */
static void
add_value(struct strbuf *sb, double v)
{
	double a = fabs(v);
	int exp;

	if (isfinite(v) && a >= 1e15) {
		exp = (int)floor(log10(a));
		v /= pow(10, exp);
		if (fabs(round(v * 100)) >= 1000) {
			v /= 10;
			exp++;
		}
		add_num(sb, v, 2);
		strbuf_addf(sb, "e%d", exp);
		return;
	}
	add_num(sb, v, a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

/*
 * Append `fmt` with its conversions: %s trusted text, %t text from data
 * (escaped, cut to LABEL_CHARS), %n a coordinate (double), %v a value
 * (double), %% a percent sign.
 */
static void
emit(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			strbuf_addch(sb, *p);
			continue;
		}
		switch (*++p) {
		case 's':
			strbuf_addstr(sb, va_arg(ap, const char *));
			break;
		case 't':
			add_text(sb, va_arg(ap, const char *), LABEL_CHARS);
			break;
		case 'n':
			add_num(sb, va_arg(ap, double), 2);
			break;
		case 'v':
			add_value(sb, va_arg(ap, double));
			break;
		default:
			strbuf_addch(sb, '%');
			break;
		}
	}
	va_end(ap);
}

static int
clamp_size(int v, int def)
{
	if (v <= 0)
		return def;
	return v < SIZE_MIN ? SIZE_MIN : v > SIZE_MAX ? SIZE_MAX : v;
}

static const char *
opt_str(const char *s, const char *def)
{
	return s ? s : def;
}

static const char *
mark_color(int mark)
{
	return mark == SVG_WORSE ? COLOR_WORSE :
	    mark == SVG_BETTER ? COLOR_BETTER : COLOR_CUR;
}

/*
 * The root element, its <title> and a <desc> summing up the data; `desc`
 * is markup already (built by emit(), its data escaped there).
 */
static void
doc_open(struct strbuf *sb, int w, int h, const char *title,
    const struct strbuf *desc)
{
	emit(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "viewBox=\"0 0 %n %n\" width=\"%n\" height=\"%n\" role=\"img\" "
	    "font-family=\"sans-serif\" font-size=\"11\" fill=\"%s\">"
	    "<title>", (double)w, (double)h, (double)w, (double)h, COLOR_INK);
	add_text(sb, title, TEXT_CHARS);
	emit(sb, "</title><desc>%s</desc>", desc->buf);
}

static char *
doc_close(struct strbuf *sb)
{
	strbuf_addstr(sb, "</svg>\n");
	return strbuf_detach(sb, NULL);
}

static void
note_no_data(struct strbuf *sb, int w, int h, const char *what)
{
	emit(sb, "<text x=\"%n\" y=\"%n\" text-anchor=\"middle\" "
	    "fill=\"%s\">%s</text>", w / 2.0, h / 2.0 + 4, COLOR_MUTED, what);
}

/* Two swatches with their labels, from (x, y). */
static void
legend(struct strbuf *sb, double x, double y, const char *base,
    const char *cur)
{
	emit(sb, "<rect x=\"%n\" y=\"%n\" width=\"10\" height=\"10\" "
	    "fill=\"%s\"/><text x=\"%n\" y=\"%n\">%t</text>", x, y - 9,
	    COLOR_BASE, x + 14, y, base);
	x += 14 + 7 * (double)(strlen(base) < LABEL_CHARS ? strlen(base) :
	    LABEL_CHARS) + 16;
	emit(sb, "<rect x=\"%n\" y=\"%n\" width=\"10\" height=\"10\" "
	    "fill=\"%s\"/><text x=\"%n\" y=\"%n\">%t</text>", x, y - 9,
	    COLOR_CUR, x + 14, y, cur);
}

/*
 * A round axis maximum at or above `max` in about `ticks` steps; the step
 * goes to *step.  Steps are 1, 2 or 5 times a power of ten.  A `max` that
 * is not a positive finite number gives 1 in one step; one so large that
 * rounding it up overflows is kept as it is, in `ticks` plain steps.
 */
static double
nice_max(double max, int ticks, double *step)
{
	double raw, mag, f, top;

	if (!isfinite(max) || max <= 0) {
		*step = 1;
		return 1;
	}
	raw = max / ticks;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	*step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	top = ceil(max / *step - 1e-9) * *step;
	if (!isfinite(top) || !isfinite(*step) || *step <= 0) {
		*step = raw;
		return max;
	}
	return top;
}

/* Gridlines after 0 on an axis to `max` every `step`; MAX_TICKS at most. */
static int
tick_count(double max, double step)
{
	double n = max / step;

	if (!isfinite(n) || n < 0)
		return 0;
	n = floor(n + 1e-9);
	return n > MAX_TICKS ? MAX_TICKS : (int)n;
}

static int
slot_cmp(const void *a, const void *b)
{
	double x = ((const struct slot *)a)->ms, y = ((const struct slot *)b)->ms;

	return x < y ? -1 : x > y;
}

/*
 * The union of both sides' buckets with frames, sorted and merged by ms;
 * each side's total in tot[].  Returns the number of slots in *out.
 */
static size_t
collect_slots(struct slot **out, const struct svg_hist *side[2],
    double tot[2])
{
	struct slot *s = NULL;
	size_t nr = 0, alloc = 0, merged = 0;

	for (int k = 0; k < 2; k++) {
		tot[k] = 0;
		for (size_t i = 0; side[k] && side[k]->buckets &&
		    i < side[k]->nr; i++) {
			const struct svg_bucket *b = &side[k]->buckets[i];

			if (!isfinite(b->ms) || !isfinite(b->count) ||
			    b->count <= 0)
				continue;
			XALLOC_GROW(s, nr + 1, alloc);
			s[nr].ms = b->ms;
			s[nr].count[k] = b->count;
			s[nr].count[!k] = 0;
			nr++;
			tot[k] += b->count;
		}
	}
	if (nr)
		qsort(s, nr, sizeof(*s), slot_cmp);
	for (size_t i = 0; i < nr; i++) {
		if (merged && s[merged - 1].ms == s[i].ms) {
			s[merged - 1].count[0] += s[i].count[0];
			s[merged - 1].count[1] += s[i].count[1];
		} else {
			s[merged++] = s[i];
		}
	}
	if (merged > MAX_SLOTS) {
		size_t per = (merged + MAX_SLOTS - 1) / MAX_SLOTS, n = 0;

		for (size_t i = 0; i < merged; i++) {
			if (i % per == 0) {
				s[n++] = s[i];
				continue;
			}
			s[n - 1].count[0] += s[i].count[0];
			s[n - 1].count[1] += s[i].count[1];
		}
		merged = n;
	}
	*out = s;
	return merged;
}

/*
 * Where the frame budget falls on the slot axis: slot i holds [ms_i,
 * ms_i+1), so the line goes inside the slot whose range holds the budget.
 */
static double
budget_x(const struct slot *s, size_t nr, const struct plot *p,
    double budget)
{
	double w = p->w / nr;
	size_t i = 0;

	while (i < nr && s[i].ms <= budget)
		i++;
	if (i == 0)
		return p->x;
	if (i == nr)
		return p->x + p->w;
	return p->x + (i - 1) * w +
	    w * (budget - s[i - 1].ms) / (s[i].ms - s[i - 1].ms);
}

static void
hist_budget(struct strbuf *sb, const struct slot *s, size_t nr,
    const struct plot *p, double hz)
{
	double x = budget_x(s, nr, p, 1000 / hz);

	emit(sb, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" "
	    "stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>"
	    "<text x=\"%n\" y=\"%n\" text-anchor=\"%s\" fill=\"%s\">"
	    "%v ms budget (%v Hz)</text>", x, p->y - 2, x, p->y + p->h,
	    COLOR_WORSE, x + (x > p->x + p->w / 2 ? -4 : 4), p->y + 8,
	    x > p->x + p->w / 2 ? "end" : "start", COLOR_WORSE,
	    1000 / hz, hz);
}

/* Gridlines with percent labels, every `step` up to `ymax` (fractions). */
static void
hist_grid(struct strbuf *sb, const struct plot *p, double ymax, double step)
{
	int ticks = tick_count(ymax, step);

	for (int i = 0; i <= ticks; i++) {
		double y = p->y + p->h - p->h * (i * step) / ymax;

		emit(sb, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" "
		    "stroke=\"%s\"/><text x=\"%n\" y=\"%n\" "
		    "text-anchor=\"end\" fill=\"%s\">", p->x, y, p->x + p->w,
		    y, COLOR_GRID, p->x - 4, y + 4, COLOR_MUTED);
		add_num(sb, i * step * 100, 1);
		strbuf_addstr(sb, "%</text>");
	}
}

static void
hist_bars(struct strbuf *sb, const struct slot *s, size_t nr,
    const struct plot *p, double ymax, const double tot[2],
    const char *const names[2])
{
	static const char *const colors[2] = { COLOR_BASE, COLOR_CUR };
	double w = p->w / nr;
	size_t every = (nr + 11) / 12;

	for (size_t i = 0; i < nr; i++) {
		for (int k = 0; k < 2; k++) {
			double share = tot[k] > 0 ? s[i].count[k] / tot[k] : 0;
			double h = p->h * share / ymax;

			if (share <= 0)
				continue;
			emit(sb, "<rect x=\"%n\" y=\"%n\" width=\"%n\" "
			    "height=\"%n\" fill=\"%s\"><title>%t, %v ms: ",
			    p->x + i * w + w * (k ? 0.5 : 0.1),
			    p->y + p->h - h, w * 0.4, h, colors[k], names[k],
			    s[i].ms);
			add_num(sb, share * 100, 1);
			emit(sb, "%% (%v frames)</title></rect>", s[i].count[k]);
		}
		if (i % every == 0)
			emit(sb, "<text x=\"%n\" y=\"%n\" text-anchor=\"middle\" "
			    "fill=\"%s\">%v</text>", p->x + (i + 0.5) * w,
			    p->y + p->h + 13, COLOR_MUTED, s[i].ms);
	}
}

char *
svg_histogram(const struct svg_hist *base, const struct svg_hist *cur,
    const struct svg_opts *o)
{
	static const struct svg_opts none;
	const struct svg_hist *side[2] = { base, cur };
	struct strbuf sb = STRBUF_INIT, desc = STRBUF_INIT;
	const char *names[2];
	struct slot *s;
	double tot[2], ymax = 0, step;
	size_t nr;
	int w, h;
	struct plot p;

	o = o ? o : &none;
	w = clamp_size(o->width, 640);
	h = clamp_size(o->height, 240);
	names[0] = opt_str(o->base_label, "baseline");
	names[1] = opt_str(o->cur_label, "current");
	nr = collect_slots(&s, side, tot);
	emit(&desc, "frame-time distribution as share of frames; %t: %v "
	    "frames, %t: %v frames", names[0], tot[0], names[1], tot[1]);
	if (isfinite(o->refresh_hz) && o->refresh_hz > 0)
		emit(&desc, "; frame budget %v ms", 1000 / o->refresh_hz);
	doc_open(&sb, w, h, opt_str(o->title, "frame-time distribution"),
	    &desc);
	if (!nr) {
		note_no_data(&sb, w, h, "no frame data");
		goto out;
	}
	for (size_t i = 0; i < nr; i++)
		for (int k = 0; k < 2; k++)
			if (tot[k] > 0 && s[i].count[k] / tot[k] > ymax)
				ymax = s[i].count[k] / tot[k];
	ymax = nice_max(ymax * 100, 4, &step) / 100;
	step /= 100;
	p = (struct plot){ 44, 28, w - 44 - 12, h - 28 - 34 };
	if (p.w < 1 || p.h < 1) {
		note_no_data(&sb, w, h, "too small");
		goto out;
	}
	legend(&sb, p.x, 12, names[0], names[1]);
	hist_grid(&sb, &p, ymax, step);
	hist_bars(&sb, s, nr, &p, ymax, tot, names);
	emit(&sb, "<text x=\"%n\" y=\"%n\" text-anchor=\"middle\" "
	    "fill=\"%s\">frame time (ms)</text>", p.x + p.w / 2, (double)h - 4,
	    COLOR_MUTED);
	if (isfinite(o->refresh_hz) && o->refresh_hz > 0)
		hist_budget(&sb, s, nr, &p, o->refresh_hz);
out:
	free(s);
	strbuf_release(&desc);
	return doc_close(&sb);
}

static double
max_finite(double m, double v)
{
	return isfinite(v) && v > m ? v : m;
}

/* A bar from 0 to `median`, a whisker over q1..q3, and the value. */
static void
bar_side(struct strbuf *sb, const struct plot *p, double xmax, double y,
    double median, double q1, double q3, const char *color,
    const char *unit)
{
	double scale = p->w / xmax, end;

	if (!isfinite(median)) {
		emit(sb, "<text x=\"%n\" y=\"%n\" fill=\"%s\">no data</text>",
		    p->x + 2, y + 9, COLOR_MUTED);
		return;
	}
	end = p->x + scale * (median > 0 ? median : 0);
	emit(sb, "<rect x=\"%n\" y=\"%n\" width=\"%n\" height=\"12\" "
	    "fill=\"%s\"/>", p->x, y, end - p->x, color);
	if (isfinite(q1) && isfinite(q3) && q3 >= q1) {
		double a = p->x + scale * (q1 > 0 ? q1 : 0);
		double b = p->x + scale * (q3 > 0 ? q3 : 0);

		emit(sb, "<path d=\"M%n %nV%nM%n %nH%nM%n %nV%n\" "
		    "stroke=\"%s\" fill=\"none\"/>", a, y + 2, y + 10, a,
		    y + 6, b, b, y + 2, y + 10, COLOR_INK);
		if (b > end)
			end = b;
	}
	emit(sb, "<text x=\"%n\" y=\"%n\">%v %t</text>", end + 4, y + 10,
	    median, unit);
}

char *
svg_bars(const struct svg_bar *bars, size_t nr, const struct svg_opts *o)
{
	static const struct svg_opts none;
	struct strbuf sb = STRBUF_INIT, desc = STRBUF_INIT;
	const char *unit, *base, *cur;
	double xmax = 0, step, row;
	struct plot p;
	int w, h;

	o = o ? o : &none;
	unit = opt_str(o->unit, "ms");
	base = opt_str(o->base_label, "baseline");
	cur = opt_str(o->cur_label, "current");
	w = clamp_size(o->width, 640);
	h = clamp_size(o->height, 28 + 36 * (int)(nr ? (nr < 100 ? nr : 100) :
	    1) + 30);
	for (size_t i = 0; bars && i < nr; i++) {
		xmax = max_finite(xmax, bars[i].base_median);
		xmax = max_finite(xmax, bars[i].base_q3);
		xmax = max_finite(xmax, bars[i].cur_median);
		xmax = max_finite(xmax, bars[i].cur_q3);
	}
	emit(&desc, "%v metrics; %t median and interquartile range against "
	    "%t, in %t", (double)(bars ? nr : 0), base, cur, unit);
	doc_open(&sb, w, h, opt_str(o->title, "startup times"), &desc);
	p = (struct plot){ 130, 28, w - 130 - 80, h - 28 - 30 };
	if (!bars || !nr || xmax <= 0 || p.w < 1 || p.h < 1) {
		note_no_data(&sb, w, h, "no startup data");
		goto out;
	}
	xmax = nice_max(xmax, 4, &step);
	row = p.h / nr;
	legend(&sb, p.x, 12, base, cur);
	for (int i = 0, ticks = tick_count(xmax, step); i <= ticks; i++) {
		/* A fraction first: p.w * step alone may overflow. */
		double x = p.x + p.w * (i * step / xmax);

		emit(&sb, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" "
		    "stroke=\"%s\"/><text x=\"%n\" y=\"%n\" "
		    "text-anchor=\"middle\" fill=\"%s\">%v</text>", x, p.y,
		    x, p.y + p.h, COLOR_GRID, x, p.y + p.h + 13, COLOR_MUTED,
		    i * step);
	}
	emit(&sb, "<text x=\"%n\" y=\"%n\" text-anchor=\"middle\" "
	    "fill=\"%s\">%t</text>", p.x + p.w / 2, (double)h - 4,
	    COLOR_MUTED, unit);
	for (size_t i = 0; i < nr; i++) {
		const struct svg_bar *b = &bars[i];
		double y = p.y + i * row + (row - 28) / 2;

		emit(&sb, "<text x=\"%n\" y=\"%n\" text-anchor=\"end\">%t"
		    "</text>", p.x - 6, y + 18, opt_str(b->label, ""));
		bar_side(&sb, &p, xmax, y, b->base_median, b->base_q1,
		    b->base_q3, COLOR_BASE, unit);
		bar_side(&sb, &p, xmax, y + 15, b->cur_median, b->cur_q1,
		    b->cur_q3, mark_color(b->mark), unit);
	}
out:
	strbuf_release(&desc);
	return doc_close(&sb);
}

/* The y of `v` in `p` over [lo, hi]; a flat series sits in the middle. */
static double
spark_y(const struct plot *p, double v, double lo, double hi)
{
	return hi > lo ? p->y + p->h * (1 - (v - lo) / (hi - lo)) :
	    p->y + p->h / 2;
}

static void
spark_line(struct strbuf *sb, const double *v, size_t nr,
    const struct plot *p, double lo, double hi)
{
	struct strbuf d = STRBUF_INIT;
	double dx = nr > 1 ? p->w / (nr - 1) : 0;

	for (size_t i = 0; i < nr; i++) {
		double x = nr > 1 ? p->x + i * dx : p->x + p->w / 2;
		int before = i > 0 && isfinite(v[i - 1]);
		int after = i + 1 < nr && isfinite(v[i + 1]);

		if (!isfinite(v[i]))
			continue;
		if (!before && !after)	/* a lone point draws no line */
			emit(sb, "<circle cx=\"%n\" cy=\"%n\" r=\"1.2\" "
			    "fill=\"%s\"/>", x, spark_y(p, v[i], lo, hi),
			    COLOR_MUTED);
		emit(&d, before ? "L%n %n" : "M%n %n", x,
		    spark_y(p, v[i], lo, hi));
	}
	if (d.len)
		emit(sb, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"1.5\" stroke-linejoin=\"round\"/>", d.buf,
		    COLOR_MUTED);
	strbuf_release(&d);
}

/*
 * The width the sparkline's label ("143 frames") takes at the right, from
 * its characters at 11 px (about 6.5 px each, an entity one), between 56
 * and half the chart: a fixed 56 cut off a unit longer than "ms".
 */
static int
label_room(double last, const char *unit, int w)
{
	struct strbuf sb = STRBUF_INIT;
	int chars = 0, room;

	if (isfinite(last))
		emit(&sb, "%v %t", last, unit);
	for (size_t i = 0; i < sb.len; i++) {
		if (sb.buf[i] == '&')
			i += strcspn(sb.buf + i, ";");
		if (((unsigned char)sb.buf[i] & 0xc0) != 0x80)
			chars++;
	}
	strbuf_release(&sb);
	room = (int)(chars * 6.5) + 8;
	room = room < 56 ? 56 : room;
	return room > w / 2 ? w / 2 : room;
}

char *
svg_sparkline(const double *values, size_t nr, const struct svg_opts *o)
{
	static const struct svg_opts none;
	struct strbuf sb = STRBUF_INIT, desc = STRBUF_INIT;
	double lo = INFINITY, hi = -INFINITY, last;
	const char *unit;
	size_t finite = 0;
	struct plot p;
	int w, h;

	o = o ? o : &none;
	unit = opt_str(o->unit, "ms");
	w = clamp_size(o->width, 160);
	h = clamp_size(o->height, 32);
	for (size_t i = 0; values && i < nr; i++) {
		if (!isfinite(values[i]))
			continue;
		finite++;
		lo = values[i] < lo ? values[i] : lo;
		hi = values[i] > hi ? values[i] : hi;
	}
	if (!values)
		nr = 0;
	last = nr ? values[nr - 1] : NAN;
	emit(&desc, "%v runs", (double)nr);
	if (finite)
		emit(&desc, ", from %v to %v %t", lo, hi, unit);
	if (isfinite(last))
		emit(&desc, ", last %v %t", last, unit);
	doc_open(&sb, w, h, opt_str(o->title, "trend"), &desc);
	p = (struct plot){ 3, 4, w - 3 - label_room(last, unit, w), h - 8 };
	if (!finite || p.w < 1 || p.h < 1) {
		note_no_data(&sb, w, h, "no data");
		goto out;
	}
	spark_line(&sb, values, nr, &p, lo, hi);
	if (isfinite(last)) {
		double x = nr > 1 ? p.x + p.w : p.x + p.w / 2;
		double y = spark_y(&p, last, lo, hi);

		emit(&sb, "<circle cx=\"%n\" cy=\"%n\" r=\"2.5\" fill=\"%s\"/>"
		    "<text x=\"%n\" y=\"%n\" fill=\"%s\">%v %t</text>", x, y,
		    mark_color(o->mark), p.x + p.w + 6, h / 2.0 + 4,
		    mark_color(o->mark), last, unit);
	}
out:
	strbuf_release(&desc);
	return doc_close(&sb);
}
