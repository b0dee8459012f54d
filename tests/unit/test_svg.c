/*
 * test_svg.c: the report's charts, read back by an XML parser.
 *
 * Every chart is parsed with libxml2 in strict mode (no recovery, no
 * network): a chart that is not well-formed XML fails there, whatever it
 * looks like.  The tests then walk the tree: which elements exist (an
 * allow-list, so hostile labels cannot smuggle in a <script>), what the
 * text says, and the geometry of the bars, since a share drawn at the
 * wrong height is a wrong report even when the XML is fine.
 */
#include <float.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "unit.h"
#include "fileio.h"
#include "proc.h"
#include "strbuf.h"
#include "svg.h"
#include "svg_timeline.h"
#include "xalloc.h"

#define SVG_NS "http://www.w3.org/2000/svg"
#define COLOR_BASE "#9aa5b1"
#define COLOR_CUR "#2b6cb0"
#define COLOR_WORSE "#c53030"

/* Parse `svg` strictly; fail the test when it is not well-formed. */
static xmlDocPtr
parse(const char *svg)
{
	xmlDocPtr doc = xmlReadMemory(svg, (int)strlen(svg), "chart.svg",
	    "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR |
	    XML_PARSE_NOWARNING);

	if (!doc)
		fail_msg("not well-formed XML:\n%s", svg);
	return doc;
}

static const char *
attr(xmlNodePtr n, const char *name)
{
	static char buf[4][256];
	static int next;
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *out = buf[next++ % 4];

	if (!v)
		return NULL;
	snprintf(out, sizeof(buf[0]), "%s", (const char *)v);
	xmlFree(v);
	return out;
}

static double
num_attr(xmlNodePtr n, const char *name)
{
	const char *v = attr(n, name);
	char *end;
	double d;

	assert_non_null(v);
	d = strtod(v, &end);
	if (*end || !isfinite(d))
		fail_msg("attribute %s='%s' is not a number", name, v);
	return d;
}

/*
 * Every element of the tree is an SVG element from the short list the
 * charts use, in the SVG namespace; returns how many there are.
 */
static int
check_elements(xmlNodePtr n)
{
	static const char *const allowed[] = { "svg", "title", "desc",
		"rect", "text", "line", "path", "circle" };
	int count = 0;

	for (; n; n = n->next) {
		int ok = 0;

		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (size_t i = 0; i < sizeof(allowed) / sizeof(*allowed); i++)
			ok |= !strcmp((const char *)n->name, allowed[i]);
		if (!ok)
			fail_msg("unexpected element <%s>", n->name);
		assert_non_null(n->ns);
		assert_string_equal((const char *)n->ns->href, SVG_NS);
		count += 1 + check_elements(n->children);
	}
	return count;
}

/* Collect the elements named `name` (optionally with fill `fill`). */
static int
find_all(xmlNodePtr n, const char *name, const char *fill, xmlNodePtr *out,
    int max)
{
	int nr = 0;

	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, name) && (!fill ||
		    (attr(n, "fill") && !strcmp(attr(n, "fill"), fill)))) {
			if (nr < max)
				out[nr] = n;
			nr++;
		}
		nr += find_all(n->children, name, fill, out ? out + nr : NULL,
		    max > nr ? max - nr : 0);
	}
	return nr;
}

static int
count_elements(xmlDocPtr doc, const char *name, const char *fill)
{
	return find_all(xmlDocGetRootElement(doc), name, fill, NULL, 0);
}

/* The text of the first child element named `name` of the root. */
static char *
child_text(xmlDocPtr doc, const char *name)
{
	for (xmlNodePtr n = xmlDocGetRootElement(doc)->children; n;
	    n = n->next) {
		if (n->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)n->name, name)) {
			xmlChar *c = xmlNodeGetContent(n);
			char *s = xstrdup((const char *)c);

			xmlFree(c);
			return s;
		}
	}
	return NULL;
}

/* All text a reader would see, joined by '|'. */
static void
all_text(xmlNodePtr n, struct strbuf *out)
{
	for (; n; n = n->next) {
		if (n->type == XML_TEXT_NODE) {
			strbuf_addstr(out, (const char *)n->content);
			strbuf_addch(out, '|');
		}
		all_text(n->children, out);
	}
}

/*
 * What every chart shares: the SVG root with its namespace, a viewBox of
 * four numbers matching width and height, <title> as the first child with
 * the expected text, role="img", only allowed elements, no id attribute
 * and no "nan" or "inf" anywhere in the bytes.
 */
static xmlDocPtr
check_chart(const char *svg, const char *title)
{
	xmlDocPtr doc = parse(svg);
	xmlNodePtr root = xmlDocGetRootElement(doc), first = root->children;
	double x, y, w, h;
	char *t;

	assert_string_equal((const char *)root->name, "svg");
	check_elements(root);
	assert_int_equal(sscanf(attr(root, "viewBox"), "%lf %lf %lf %lf",
	    &x, &y, &w, &h), 4);
	assert_true(x == 0 && y == 0 && w > 0 && h > 0);
	assert_true(num_attr(root, "width") == w);
	assert_true(num_attr(root, "height") == h);
	assert_string_equal(attr(root, "role"), "img");
	while (first && first->type != XML_ELEMENT_NODE)
		first = first->next;
	assert_non_null(first);
	assert_string_equal((const char *)first->name, "title");
	t = child_text(doc, "title");
	assert_string_equal(t, title);
	free(t);
	assert_null(strstr(svg, " id="));
	assert_null(strstr(svg, "nan"));
	assert_null(strstr(svg, "inf"));
	assert_null(strstr(svg, "NaN"));
	return doc;
}

static const struct svg_bucket base_b[] = {
	{ 6, 30 }, { 7, 10 }, { 16, 10 }, { 18, 0 }, { 150, 0 },
};
static const struct svg_bucket cur_b[] = {
	{ 16, 60 }, { 6, 20 }, { 32, 20 },
};

/*
 * Bars are shares of each side's own frames: with 50 baseline and 100
 * current frames, 60% current at 16 ms is drawn exactly three times as
 * tall as 20% baseline at 16 ms; empty buckets draw nothing; one slot per
 * distinct bucket in ascending order.
 */
static void
histogram_draws_shares_per_side(void **state)
{
	struct svg_hist base = { base_b, 5 }, cur = { cur_b, 3 };
	struct svg_opts o = { .title = "feed scroll" };
	char *svg = svg_histogram(&base, &cur, &o);
	xmlDocPtr doc = check_chart(svg, "feed scroll");
	xmlNodePtr b[8], c[8];
	char *desc = child_text(doc, "desc");

	assert_int_equal(find_all(xmlDocGetRootElement(doc), "rect",
	    COLOR_BASE, b, 8), 4);	/* 3 bars and the legend swatch */
	assert_int_equal(find_all(xmlDocGetRootElement(doc), "rect",
	    COLOR_CUR, c, 8), 4);
	/* b[1..3] are 6, 7, 16 ms; c[1..3] are 6, 16, 32 ms. */
	assert_true(num_attr(b[1], "x") < num_attr(b[2], "x"));
	assert_true(num_attr(b[2], "x") < num_attr(b[3], "x"));
	assert_true(num_attr(c[2], "x") > num_attr(b[3], "x"));
	assert_true(fabs(num_attr(c[2], "height") -
	    3 * num_attr(b[3], "height")) < 0.05);
	assert_true(fabs(num_attr(c[1], "height") -
	    num_attr(b[3], "height")) < 0.05);	/* both 20% */
	/* Bars stand on one baseline. */
	assert_true(fabs(num_attr(b[1], "y") + num_attr(b[1], "height") -
	    num_attr(c[3], "y") - num_attr(c[3], "height")) < 0.05);
	assert_non_null(strstr(svg, "<title>current, 16 ms: 60% (60 frames)"
	    "</title>"));
	assert_string_equal(desc, "frame-time distribution as share of "
	    "frames; baseline: 50 frames, current: 100 frames");
	free(desc);
	xmlFreeDoc(doc);
	free(svg);
}

/*
 * The frame budget of the refresh rate is a dashed line inside the slot
 * whose range holds it (16.67 ms falls between the 16 and 32 ms slots'
 * bars), labelled with the budget and the rate.
 */
static void
histogram_draws_frame_budget(void **state)
{
	struct svg_hist base = { base_b, 5 }, cur = { cur_b, 3 };
	struct svg_opts o = { .refresh_hz = 60 };
	char *svg = svg_histogram(&base, &cur, &o);
	xmlDocPtr doc = check_chart(svg, "frame-time distribution");
	xmlNodePtr lines[64], b[8], budget = NULL;
	int nr = find_all(xmlDocGetRootElement(doc), "line", NULL, lines, 64);
	double slot, want;

	for (int i = 0; i < nr && i < 64; i++)
		if (attr(lines[i], "stroke-dasharray"))
			budget = lines[i];
	assert_non_null(budget);
	/* b[3] is the baseline bar of the 16 ms slot: 0.1 in, 0.4 wide. */
	find_all(xmlDocGetRootElement(doc), "rect", COLOR_BASE, b, 8);
	slot = num_attr(b[3], "width") / 0.4;
	want = num_attr(b[3], "x") - 0.1 * slot +
	    slot * (1000.0 / 60 - 16) / (32 - 16);
	assert_true(fabs(num_attr(budget, "x1") - want) < 0.05);
	assert_non_null(strstr(svg, ">16.7 ms budget (60 Hz)</text>"));

	/* Without a rate there is no line. */
	free(svg);
	xmlFreeDoc(doc);
	o.refresh_hz = 0;
	svg = svg_histogram(&base, &cur, &o);
	assert_null(strstr(svg, "stroke-dasharray"));
	assert_null(strstr(svg, "budget"));
	free(svg);
}

static const char *const hostile[] = {
	"</title><script>alert(1)</script>",
	"a & b <c> \"d\" 'e' ]]> <!-- x -->",
	"ctl\x01\x08\x0b\x1b[31m\x7f\xc2\x85 end",
	"bad \xff\xfe utf-8 \xc3",
	"nonchar \xef\xbf\xbe\xef\xbf\xbf",
	"<svg onload=\"alert(1)\"><foreignObject>",
	"&amp;&#x3c;&lt;",
};

/*
 * Hostile strings in every label (title, legends, unit, bar labels) stay
 * text: the output parses, holds only chart elements, and the title reads
 * back as the input with controls made spaces and bad bytes U+FFFD.
 */
static void
hostile_labels_stay_text(void **state)
{
	static const char *const cleaned[] = {
		"</title><script>alert(1)</script>",
		"a & b <c> \"d\" 'e' ]]> <!-- x -->",
		"ctl    [31m   end",
		"bad \xef\xbf\xbd\xef\xbf\xbd utf-8 \xef\xbf\xbd",
		"nonchar \xef\xbf\xbd\xef\xbf\xbd",
		"<svg onload=\"alert(1)\"><foreignObject>",
		"&amp;&#x3c;&lt;",
	};
	struct svg_hist cur = { cur_b, 3 };
	double v[] = { 1, 2, 3 };

	for (size_t i = 0; i < sizeof(hostile) / sizeof(*hostile); i++) {
		struct svg_opts o = { .title = hostile[i], .unit = hostile[i],
			.base_label = hostile[i], .cur_label = hostile[i],
			.refresh_hz = 90 };
		struct svg_bar bar = { hostile[i], 400, 380, 420, 450, 440,
			470, SVG_WORSE };
		char *out[3];

		out[0] = svg_histogram(&cur, &cur, &o);
		out[1] = svg_bars(&bar, 1, &o);
		out[2] = svg_sparkline(v, 3, &o);
		for (int k = 0; k < 3; k++) {
			xmlDocPtr doc = check_chart(out[k], cleaned[i]);
			struct strbuf text = STRBUF_INIT;

			all_text(xmlDocGetRootElement(doc), &text);
			assert_null(strstr(text.buf, "\x1b"));
			assert_int_equal(count_elements(doc, "svg", NULL), 1);
			strbuf_release(&text);
			xmlFreeDoc(doc);
			free(out[k]);
		}
	}
}

/* Labels longer than a chart can hold are cut, with an ellipsis. */
static void
long_labels_are_cut(void **state)
{
	struct strbuf label = STRBUF_INIT;
	struct svg_bar bar = { NULL, 400, NAN, NAN, 450, NAN, NAN, 0 };
	xmlDocPtr doc;
	char *svg;

	for (int i = 0; i < 500; i++)
		strbuf_addstr(&label, "\xc3\xa9");	/* two bytes each */
	bar.label = label.buf;
	svg = svg_bars(&bar, 1, NULL);
	doc = check_chart(svg, "startup times");
	assert_null(strstr(svg, label.buf + 200));
	assert_non_null(strstr(svg, "\xc3\xa9\xe2\x80\xa6</text>"));
	xmlFreeDoc(doc);
	free(svg);
	strbuf_release(&label);
}

/*
 * Nothing to draw is still a valid chart that says so: NULL and empty
 * inputs, all-NAN and infinite values, zero and negative counts.
 */
static void
empty_inputs_draw_no_data(void **state)
{
	static const struct svg_bucket junk[] = {
		{ 16, 0 }, { 17, -5 }, { NAN, 10 }, { 20, INFINITY },
		{ INFINITY, 3 },
	};
	struct svg_hist empty = { NULL, 3 }, bad = { junk, 5 };
	struct svg_bar nobar = { "TotalTime", NAN, NAN, NAN, NAN, NAN, NAN,
		0 };
	double nans[] = { NAN, INFINITY, -INFINITY };
	char *out[] = {
		svg_histogram(NULL, NULL, NULL),
		svg_histogram(&empty, &bad, NULL),
		svg_bars(NULL, 3, NULL),
		svg_bars(&nobar, 1, NULL),
		svg_sparkline(NULL, 4, NULL),
		svg_sparkline(nans, 3, NULL),
		svg_sparkline(nans, 0, NULL),
	};
	const char *titles[] = { "frame-time distribution",
		"frame-time distribution", "startup times", "startup times",
		"trend", "trend", "trend" };

	for (size_t i = 0; i < sizeof(out) / sizeof(*out); i++) {
		xmlDocPtr doc = check_chart(out[i], titles[i]);

		assert_non_null(strstr(out[i], "no "));
		assert_int_equal(count_elements(doc, "rect", NULL), 0);
		assert_int_equal(count_elements(doc, "path", NULL), 0);
		xmlFreeDoc(doc);
		free(out[i]);
	}
}

/*
 * One side alone, a single bucket, a single bar value and a flat series
 * are drawn, not refused: a first run has no baseline.
 */
static void
single_values_are_drawn(void **state)
{
	static const struct svg_bucket one[] = { { 16, 1 } };
	struct svg_hist cur = { one, 1 };
	struct svg_bar bar = { "TotalTime", NAN, NAN, NAN, 0.5, NAN, NAN, 0 };
	double flat[] = { 7, 7, 7 }, single[] = { 3.25 };
	char *svg = svg_histogram(NULL, &cur, NULL);
	xmlDocPtr doc = check_chart(svg, "frame-time distribution");

	assert_int_equal(count_elements(doc, "rect", COLOR_CUR), 2);
	assert_non_null(strstr(svg, ">100%</text>"));
	xmlFreeDoc(doc);
	free(svg);

	svg = svg_bars(&bar, 1, NULL);
	doc = check_chart(svg, "startup times");
	assert_non_null(strstr(svg, ">0.5 ms</text>"));
	assert_non_null(strstr(svg, ">no data</text>"));	/* baseline */
	xmlFreeDoc(doc);
	free(svg);

	svg = svg_sparkline(flat, 3, NULL);
	doc = check_chart(svg, "trend");
	assert_int_equal(count_elements(doc, "path", NULL), 1);
	assert_non_null(strstr(svg, ">7 ms</text>"));
	xmlFreeDoc(doc);
	free(svg);

	svg = svg_sparkline(single, 1, NULL);
	doc = check_chart(svg, "trend");
	assert_non_null(strstr(svg, ">3.25 ms</text>"));
	assert_int_equal(count_elements(doc, "circle", COLOR_CUR), 1);
	xmlFreeDoc(doc);
	free(svg);
}

/*
 * NAN breaks the trend line: separate runs of points start with their own
 * move, a lone point gets a dot, and the last value is marked in the
 * colour of its verdict; a NAN last value is not marked.
 */
static void
sparkline_gaps_and_last_point(void **state)
{
	double v[] = { 10, 12, NAN, 14, NAN, 11, 13 };
	struct svg_opts o = { .mark = SVG_WORSE, .unit = "%" };
	char *svg = svg_sparkline(v, 7, &o), *d;
	xmlDocPtr doc = check_chart(svg, "trend");
	xmlNodePtr path[2], dots[4];
	int moves = 0;

	assert_int_equal(find_all(xmlDocGetRootElement(doc), "path", NULL,
	    path, 2), 1);
	d = xstrdup(attr(path[0], "d"));
	for (char *p = d; *p; p++)
		moves += *p == 'M';
	assert_int_equal(moves, 3);
	free(d);
	assert_int_equal(find_all(xmlDocGetRootElement(doc), "circle",
	    COLOR_WORSE, dots, 4), 1);
	assert_true(num_attr(dots[0], "cy") > 3);	/* 13 is not the top */
	assert_int_equal(count_elements(doc, "circle", NULL), 2);
	assert_non_null(strstr(svg, ">13 %</text>"));
	xmlFreeDoc(doc);
	free(svg);

	v[6] = NAN;
	svg = svg_sparkline(v, 7, &o);
	doc = check_chart(svg, "trend");
	assert_int_equal(count_elements(doc, "circle", COLOR_WORSE), 0);
	xmlFreeDoc(doc);
	free(svg);
}

/*
 * Bars are drawn to scale from a common origin, each with its whisker
 * over q1..q3; the current bar takes the colour of its mark.
 */
static void
bars_to_scale_with_whiskers(void **state)
{
	struct svg_bar bars[] = {
		{ "TotalTime", 400, 380, 420, 800, 760, 840, SVG_WORSE },
		{ "Displayed", 200, 190, 210, 100, NAN, NAN, SVG_BETTER },
	};
	char *svg = svg_bars(bars, 2, NULL);
	xmlDocPtr doc = check_chart(svg, "startup times");
	xmlNodePtr base[4], worse[2];

	assert_int_equal(find_all(xmlDocGetRootElement(doc), "rect",
	    COLOR_BASE, base, 4), 3);
	assert_int_equal(find_all(xmlDocGetRootElement(doc), "rect",
	    COLOR_WORSE, worse, 2), 1);
	assert_int_equal(count_elements(doc, "rect", "#2f855a"), 1);
	assert_true(fabs(num_attr(worse[0], "width") -
	    2 * num_attr(base[1], "width")) < 0.05);
	assert_true(num_attr(worse[0], "x") == num_attr(base[1], "x"));
	assert_int_equal(count_elements(doc, "path", NULL), 3);
	assert_non_null(strstr(svg, ">800 ms</text>"));
	assert_non_null(strstr(svg, ">TotalTime</text>"));
	xmlFreeDoc(doc);
	free(svg);
}

/*
 * Draw a chart in a child process that SIGALRM stops after 20 s, and
 * return its bytes: a chart whose loop never ends (it grew without bound
 * on a 1.7e308 ms startup) fails the test instead of hanging the suite.
 * The limit is a guard, not a measure: a chart takes milliseconds.
 */
static char *
draw_or_fail(char *(*draw)(void))
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	ssize_t n;
	int fd[2], status;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		char *svg;
		size_t len, off = 0;

		close(fd[0]);
		alarm(20);
		svg = draw();
		len = strlen(svg);
		while (off < len && (n = write(fd[1], svg + off,
		    len - off)) > 0)
			off += (size_t)n;
		_exit(off == len ? 0 : 1);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)n);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail_msg("the chart did not finish (%s %d)",
		    WIFSIGNALED(status) ? "signal" : "exit",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status));
	return strbuf_detach(&sb, NULL);
}

static char *
draw_huge_bars(void)
{
	static const struct svg_bar bars[] = {
		{ "TotalTime", 1.7e308, 400, DBL_MAX, 420, 400, 440, 0 },
		{ "Displayed", 5e307, 1e307, 1e308, -1e308, NAN, NAN, 0 },
	};

	return svg_bars(bars, 2, NULL);
}

static char *
draw_overflowing_histogram(void)
{
	/* Shares of an infinite total are all 0: the axis has no height. */
	static const struct svg_bucket b[] = {
		{ 8, 1e308 }, { 16, 1e308 }, { 4e9, DBL_MAX },
	};
	struct svg_hist h = { b, 3 };

	return svg_histogram(&h, &h, NULL);
}

static char *
draw_far_timeline(void)
{
	static const struct svg_tl_frame f[] = {
		{ -1e308, 1e308, 1 }, { 1e308, DBL_MAX, 0 }, { 5, 16, 0 },
	};
	static const struct svg_tl_block b[] = {
		{ 1.7e308, 1.7e308, "huge", true, 0 },
		{ -DBL_MAX, NAN, "far back", false, -1 },
	};
	struct svg_tl t = { .span_ms = 1.7e308, .period_ms = 1e-300,
		.frames = f, .nr_frames = 3, .blocks = b, .nr_blocks = 2 };

	return svg_timeline(&t);
}

/*
 * Thousands of distinct buckets (a file chooses how many) are drawn as
 * 120 bars at most, neighbours grouped, every frame still counted.
 */
static void
many_buckets_draw_bounded_bars(void **state)
{
	struct svg_bucket *b = xcalloc(5000, sizeof(*b));
	struct svg_hist h = { b, 5000 };
	xmlDocPtr doc;
	char *svg;

	for (int i = 0; i < 5000; i++)
		b[i] = (struct svg_bucket){ 5000 - i, 1 };
	svg = svg_histogram(NULL, &h, NULL);
	doc = check_chart(svg, "frame-time distribution");
	assert_true(count_elements(doc, "rect", COLOR_CUR) <= 121);
	assert_true(count_elements(doc, "rect", COLOR_CUR) >= 100);
	assert_non_null(strstr(svg, "current: 5000 frames"));
	xmlFreeDoc(doc);
	free(svg);
	free(b);
}

/*
 * A value as large as a double holds (1.7e308, which a startup once was)
 * ends: the axes draw a bounded number of gridlines, the charts stay
 * well-formed and hold no "inf" or "nan".
 */
static void
huge_values_draw_bounded_axes(void **state)
{
	char *svg = draw_or_fail(draw_huge_bars);
	xmlDocPtr doc = check_chart(svg, "startup times");
	xmlNodePtr lines[13];
	int nr = find_all(xmlDocGetRootElement(doc), "line", NULL, lines, 13);

	/* Inside the plot, in order, and labelled in a few characters. */
	assert_true(nr >= 2 && nr <= 13);
	for (int i = 1; i < nr; i++)
		assert_true(num_attr(lines[i], "x1") >
		    num_attr(lines[i - 1], "x1"));
	assert_true(num_attr(lines[nr - 1], "x1") <= 640);
	assert_non_null(strstr(svg, ">1.7e308 ms</text>"));
	assert_null(strstr(svg, "0000000000"));
	xmlFreeDoc(doc);
	free(svg);

	svg = draw_or_fail(draw_overflowing_histogram);
	doc = parse(svg);
	check_elements(xmlDocGetRootElement(doc));
	assert_true(count_elements(doc, "line", NULL) <= 13);
	assert_null(strstr(svg, "nan"));
	xmlFreeDoc(doc);
	free(svg);

	svg = draw_or_fail(draw_far_timeline);
	doc = parse(svg);
	assert_true(count_elements(doc, "line", NULL) <= 26);
	assert_null(strstr(svg, "nan"));
	xmlFreeDoc(doc);
	free(svg);
}

/* The same input gives the same bytes. */
static void
output_is_deterministic(void **state)
{
	struct svg_hist base = { base_b, 5 }, cur = { cur_b, 3 };
	struct svg_opts o = { .refresh_hz = 120 };
	char *a = svg_histogram(&base, &cur, &o);
	char *b = svg_histogram(&base, &cur, &o);

	assert_string_equal(a, b);
	free(a);
	free(b);
}

/*
 * A locale with a decimal comma changes nothing: the chart under de_DE
 * is byte for byte the chart under C.  The locale is compiled into the
 * temp dir with localedef; the test is skipped where that cannot be done.
 */
static void
numbers_ignore_the_locale(void **state)
{
	struct svg_hist base = { base_b, 5 }, cur = { cur_b, 3 };
	struct svg_bar bar = { "TotalTime", 412.5, 400.25, 430.75, 1.5, 1.25,
		1.75, 0 };
	struct svg_opts o = { .refresh_hz = 59.94 };
	double v[] = { 0.125, 2.5, 1e6 };
	char *dir = xasprintf("%s/locale", unit_tmpdir());
	char *out = xasprintf("%s/de_DE.UTF-8", dir);
	const char *argv[] = { "localedef", "-i", "de_DE", "-f", "UTF-8", out,
		NULL };
	char *c[3], *de[3];
	struct proc_result r;
	char buf[32];

	c[0] = svg_histogram(&base, &cur, &o);
	c[1] = svg_bars(&bar, 1, &o);
	c[2] = svg_sparkline(v, 3, &o);
	proc_result_init(&r);
	if (file_mkdirs(dir, 0777) < 0 || proc_run(&r, argv, NULL) < 0 || r.exit_code > 1 ||
	    setenv("LOCPATH", dir, 1) ||
	    !setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
		proc_result_release(&r);
		for (int k = 0; k < 3; k++)
			free(c[k]);
		free(dir);
		free(out);
		skip();
	}
	snprintf(buf, sizeof(buf), "%.1f", 1.5);
	de[0] = svg_histogram(&base, &cur, &o);
	de[1] = svg_bars(&bar, 1, &o);
	de[2] = svg_sparkline(v, 3, &o);
	setlocale(LC_NUMERIC, "C");
	unsetenv("LOCPATH");
	assert_string_equal(buf, "1,5");	/* the locale took effect */
	assert_non_null(strstr(c[2], ">1000000 ms</text>"));
	assert_non_null(strstr(c[0], ">16.7 ms budget (59.9 Hz)</text>"));
	for (int k = 0; k < 3; k++) {
		assert_string_equal(de[k], c[k]);
		free(c[k]);
		free(de[k]);
	}
	proc_result_release(&r);
	free(dir);
	free(out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(histogram_draws_shares_per_side),
	cmocka_unit_test(histogram_draws_frame_budget),
	cmocka_unit_test(hostile_labels_stay_text),
	cmocka_unit_test(long_labels_are_cut),
	cmocka_unit_test(empty_inputs_draw_no_data),
	cmocka_unit_test(single_values_are_drawn),
	cmocka_unit_test(sparkline_gaps_and_last_point),
	cmocka_unit_test(bars_to_scale_with_whiskers),
	cmocka_unit_test(huge_values_draw_bounded_axes),
	cmocka_unit_test(many_buckets_draw_bounded_bars),
	cmocka_unit_test(output_is_deterministic),
	cmocka_unit_test(numbers_ignore_the_locale),
};

JG_UNIT_GROUP(svg, tests, NULL, NULL)
