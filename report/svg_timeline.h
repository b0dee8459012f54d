/*
 * svg_timeline.h: one iteration of a scene on the device's clock, as an
 * SVG chart (issue 20): its frames, its input steps and its main-thread
 * blocks, so a reader sees which stall made which frames late.
 *
 * Three lanes share one time axis (ms from the scene's start):
 *
 *	frames   a bar per frame at its IntendedVsync, as wide as the
 *	         frame took and as tall as its time (a dashed line at one
 *	         vsync period), red when it janked, green when not, grey
 *	         when unknown
 *	input    a tick per input step of the scenario
 *	blocks   a span per block from its start for its wall time, red
 *	         for the new or worse ones, amber for the others
 *
 * Like svg.h's charts: a complete <svg> with xmlns, viewBox, role="img"
 * and a <title>; every label escaped; each bar and span has a <title> a
 * browser shows on hover; no script, no id, no external reference; the
 * same input gives the same bytes.
 */
#ifndef JG_SVG_TIMELINE_H
#define JG_SVG_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>

struct svg_tl_frame {
	double start_ms;	/* IntendedVsync, from the scene's start */
	double dur_ms;
	int janky;		/* 1, 0 or -1 (unknown) */
};

struct svg_tl_input {
	double at_ms;
	const char *label;	/* the scenario step */
};

struct svg_tl_block {
	double start_ms;
	double dur_ms;		/* NAN: no duration (drawn as a tick) */
	const char *label;	/* its headline frame, its source */
	bool changed;		/* new or worse */
	int janky;		/* janky frames it overlapped, -1 unknown */
};

struct svg_tl {
	const char *title;	/* accessible name; NULL: "Frame timeline" */
	double span_ms;		/* the scene's length; <= 0: from the data */
	double period_ms;	/* vsync period; <= 0: no budget line */
	const struct svg_tl_frame *frames;
	size_t nr_frames;
	const struct svg_tl_input *inputs;
	size_t nr_inputs;
	const struct svg_tl_block *blocks;
	size_t nr_blocks;
};

/* The chart, malloc'd; a "no data" chart when there is nothing to draw. */
char *svg_timeline(const struct svg_tl *t);

#endif
