/*
 * svg.h: the report's charts, drawn in C as standalone SVG text.
 *
 * report.html must be readable offline and without JavaScript, so each chart
 * is a complete <svg> element the templates paste in raw (triple mustache):
 * xmlns and viewBox set, a <title> first for screen readers, role="img", no
 * id attributes (many charts share one page), no external references.  Every
 * label is XML-escaped, so a scene or metric name from a device cannot add
 * markup.  Numbers are formatted without the C locale's help (a decimal
 * comma would break the geometry), and the same input always gives the same
 * bytes, so reports diff cleanly and tests can compare text.
 *
 *	svg_histogram  frame-time distribution of one scene, baseline vs
 *	               current, as share of frames per bucket, with the frame
 *	               budget of the refresh rate drawn as a vertical line
 *	svg_bars       startup times per metric: baseline median with its
 *	               interquartile range as a whisker, current beside it
 *	svg_sparkline  one metric over the baseline history, the last point
 *	               (the current run) marked, NAN values left as gaps
 *
 * Every function copes with empty input, single values, zeros, NAN and
 * infinities: it then draws what it can, or a "no data" note, and never
 * fails.  Results are malloc'd, NUL-terminated and the caller's to free.
 */
#ifndef JG_SVG_H
#define JG_SVG_H

#include <stddef.h>

/* How a current value compares with its baseline, for its colour. */
enum svg_mark {
	SVG_NEUTRAL = 0,
	SVG_WORSE,
	SVG_BETTER,
};

/* One histogram bucket: frames whose time is at least `ms`. */
struct svg_bucket {
	double ms;		/* lower bound; buckets need not be sorted */
	double count;		/* frames, summed over iterations; < 0 ignored */
};

/* One series of the distribution; NULL or nr 0: no data for this side. */
struct svg_hist {
	const struct svg_bucket *buckets;
	size_t nr;
};

/* One startup metric: a median and quartiles per side, NAN when absent. */
struct svg_bar {
	const char *label;	/* e.g. "TotalTime"; NULL: "" */
	double base_median, base_q1, base_q3;
	double cur_median, cur_q1, cur_q3;
	int mark;		/* enum svg_mark, colours the current bar */
};

/* Options shared by the charts; a zeroed struct (or NULL) gives defaults. */
struct svg_opts {
	const char *title;	/* accessible name in <title>; NULL: chart kind */
	int width, height;	/* user units of the viewBox; 0: default */
	double refresh_hz;	/* histogram: budget line at 1000/hz ms; 0: none */
	const char *unit;	/* bars and sparkline values; NULL: "ms" */
	const char *base_label;	/* legend; NULL: "baseline" */
	const char *cur_label;	/* legend; NULL: "current" */
	int mark;		/* sparkline: colour of the last point */
};

/*
 * The frame-time distribution of `base` against `cur` (either may be NULL
 * or empty): bars of the share of each side's frames per bucket, over the
 * union of their buckets (neighbours grouped past 120 of them), the budget
 * line when o->refresh_hz > 0.
 */
char *svg_histogram(const struct svg_hist *base, const struct svg_hist *cur,
    const struct svg_opts *o);

/*
 * Horizontal bars, one group per metric: baseline median with a q1..q3
 * whisker, and the current median (with its own whisker when given).
 */
char *svg_bars(const struct svg_bar *bars, size_t nr,
    const struct svg_opts *o);

/*
 * A small line over `values` in order (oldest first, the current run
 * last); NAN breaks the line.  The last value, when finite, is marked with
 * a dot in o->mark's colour and written out with o->unit.
 */
char *svg_sparkline(const double *values, size_t nr,
    const struct svg_opts *o);

#endif
