/*
 * view_charts.c: the data behind each chart, handed to svg.h.
 *
 *   frame-time distribution  per scene: the gfxinfo HISTOGRAM buckets of
 *                            every valid iteration (not a warm-up, not
 *                            failed), summed per side; the baseline side
 *                            pools the baseline runs compared against
 *   startup bars             per scenario: the launch metrics' medians
 *                            and quartiles straight from the comparison
 *   trend sparkline          per row: the metric's per-run median over
 *                            the baseline history (history.h), oldest
 *                            first, then the current run's median
 *
 * No results, no chart: a function returns NULL and the model says null,
 * so a template can leave the figure out instead of drawing "no data".
 * Titles and labels hold scene and metric names from devices: svg.c
 * escapes markup, and they go through report_escape_text() first so no
 * control character or bidirectional override reaches the SVG either.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "report.h"
#include "results.h"
#include "strbuf.h"
#include "svg.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

/* printf into a string fit for a chart: one line, no controls. */
static char *
chart_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
chart_text(const char *fmt, ...)
{
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&raw, fmt, ap);
	va_end(ap);
	report_escape_text(&out, raw.buf, raw.len);
	strbuf_release(&raw);
	return strbuf_detach(&out, NULL);
}

struct hist {
	struct svg_bucket *b;
	size_t nr, alloc;
	double total;
};

/*
 * Appended, not merged: svg_histogram() sorts and merges buckets of one
 * ms, where a search here per bucket took time quadratic in the number of
 * distinct buckets, which a file chooses.
 */
static void
hist_add(struct hist *h, double ms, double count)
{
	XALLOC_GROW(h->b, h->nr + 1, h->alloc);
	h->b[h->nr++] = (struct svg_bucket){ ms, count };
	h->total += count;
}

/* Add the histogram of `scene` in the valid iterations of `scenario`. */
static void
hist_collect(struct hist *h, const struct results *r, const char *scenario,
    const char *scene)
{
	const struct rs_scenario *s = results_find_scenario(r, scenario);

	for (size_t i = 0; s && i < s->nr_iterations; i++) {
		const struct rs_iteration *it = &s->iterations[i];
		const struct rs_scene *sc;

		if (it->warmup || !it->ok)
			continue;
		sc = rs_iteration_find_scene(it, scene);
		for (size_t j = 0; sc && j < sc->frames.nr_histogram; j++)
			hist_add(h, sc->frames.histogram[j].ms,
			    (double)sc->frames.histogram[j].count);
	}
}

static void
hists_of(const struct view_dev *d, const char *scenario, const char *scene,
    struct hist *base, struct hist *cur)
{
	hist_collect(cur, d->in->current, scenario, scene);
	for (size_t i = 0; i < d->in->nr_baselines; i++)
		hist_collect(base, d->in->baselines[i], scenario, scene);
}

void
view_chart_frame_totals(const struct view_dev *d, const char *scenario,
    const char *scene, double *base, double *cur)
{
	struct hist b = { 0 }, c = { 0 };

	hists_of(d, scenario, scene, &b, &c);
	*base = b.total;
	*cur = c.total;
	free(b.b);
	free(c.b);
}

char *
view_chart_histogram(const struct view_dev *d, const char *scenario,
    const char *scene)
{
	struct hist b = { 0 }, c = { 0 };
	struct svg_hist hb, hc;
	struct svg_opts o = { 0 };
	char *title, *svg = NULL;

	hists_of(d, scenario, scene, &b, &c);
	if (b.total > 0 || c.total > 0) {
		title = chart_text("Frame times of %s / %s, baseline against "
		    "current", scenario, scene);
		hb = (struct svg_hist){ b.b, b.nr };
		hc = (struct svg_hist){ c.b, c.nr };
		o.title = title;
		if (d->in->current && isfinite(d->in->current->device.refresh_hz))
			o.refresh_hz = d->in->current->device.refresh_hz;
		svg = svg_histogram(&hb, &hc, &o);
		free(title);
	}
	free(b.b);
	free(c.b);
	return svg;
}

static int
mark_of(enum cmp_verdict v)
{
	return v == CMP_REGRESSION ? SVG_WORSE :
	    v == CMP_IMPROVEMENT ? SVG_BETTER : SVG_NEUTRAL;
}

char *
view_chart_startup(const struct view_dev *d, const char *scenario)
{
	const struct comparison *c = d->in->cmp;
	struct svg_bar *bars = xcalloc(c->nr_entries + 1, sizeof(*bars));
	char **labels = xcalloc(c->nr_entries + 1, sizeof(*labels));
	struct svg_opts o = { 0 };
	size_t n = 0;
	char *title, *svg = NULL;

	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];

		if (e->scene || !e->scenario || strcmp(e->scenario, scenario) ||
		    !e->unit || strcmp(e->unit, "ms"))
			continue;
		if (!e->base.n && !e->cur.n)
			continue;
		labels[n] = chart_text("%s", e->metric);
		bars[n] = (struct svg_bar){
			.label = labels[n],
			.base_median = e->base.n ? e->base.median : NAN,
			.base_q1 = e->base.n ? e->base.q1 : NAN,
			.base_q3 = e->base.n ? e->base.q3 : NAN,
			.cur_median = e->cur.n ? e->cur.median : NAN,
			.cur_q1 = e->cur.n ? e->cur.q1 : NAN,
			.cur_q3 = e->cur.n ? e->cur.q3 : NAN,
			.mark = mark_of(e->verdict),
		};
		n++;
	}
	if (n) {
		title = chart_text("Launch times of %s, baseline against "
		    "current", scenario);
		o.title = title;
		o.unit = "ms";
		svg = svg_bars(bars, n, &o);
		free(title);
	}
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(bars);
	return svg;
}

static int
same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

char *
view_chart_sparkline(const struct view_dev *d, const struct cmp_entry *e)
{
	const struct metric_series *s = NULL;
	struct svg_opts o = { 0 };
	double *v;
	char *title, *svg;

	if (!d->b->o->charts)
		return NULL;
	for (size_t i = 0; i < d->nr_series && !s; i++)
		if (same(d->series[i].scenario, e->scenario) &&
		    same(d->series[i].scene, e->scene) &&
		    !strcmp(d->series[i].metric->name, e->metric))
			s = &d->series[i];
	if (!s)
		return NULL;
	v = xcalloc(s->nr + 1, sizeof(*v));
	memcpy(v, s->values, s->nr * sizeof(*v));
	v[s->nr] = e->cur.n ? e->cur.median : NAN;
	title = chart_text("%s over the last %zu baseline run%s and this one",
	    e->metric, s->nr, s->nr == 1 ? "" : "s");
	o.title = title;
	o.unit = e->unit;
	o.mark = mark_of(e->verdict);
	svg = svg_sparkline(v, s->nr + 1, &o);
	free(title);
	free(v);
	return svg;
}
