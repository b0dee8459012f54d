/*
 * metrics_explain.c: the explain metrics' table and values
 * (metrics_explain.h).
 *
 * Thresholds, and why (metrics.c explains how the pair is used):
 *
 * - phases 10 % and 0.5 ms: a phase is a part of a frame, often a
 *   millisecond or two, so the frame-time floor of one 1 ms bucket would
 *   hide every move; half a millisecond is 3 % of a 60 Hz frame's budget
 *   and more than the rounding of any timestamp (ns).  They are
 *   continuous (resolution 0): PROFILEDATA has nanoseconds.
 * - jank types 25 % and 1 frame, compared as counts of events
 *   (by_means): a handful of frames out of the 64 display frames
 *   SurfaceFlinger keeps, like frozen frames and blocks.
 *
 * Their kinds are the frame times' (phases) and the jank shares' (jank
 * types), so the session spread compare estimates from those metrics is
 * what widens these tests; they do not feed that estimate themselves.
 */
#include <math.h>
#include <string.h>

#include "error.h"
#include "metrics_explain.h"
#include "results.h"
#include "banned.h"

#define LOWER METRIC_LOWER_IS_BETTER

#define PHASE(p, words) \
	{ "phase_" p "_p50_ms", "ms", LOWER, METRIC_SCENE, 0.10, 0.5, \
	  "median " words " per frame (framestats rows)", \
	  METRIC_KIND_FRAME_TIME, 0, 0, 1, 0 }, \
	{ "phase_" p "_p90_ms", "ms", LOWER, METRIC_SCENE, 0.10, 0.5, \
	  "90th percentile " words " per frame (framestats rows)", \
	  METRIC_KIND_FRAME_TIME, 0, 0, 1, 0 }
#define MEAN(p, words) \
	{ "phase_" p "_mean_ms", "ms", LOWER, METRIC_SCENE, 0.10, 0.5, \
	  "mean " words " per frame (Matrix 2.1 FrameMetrics)", \
	  METRIC_KIND_FRAME_TIME, 0, 0, 1, 0 }
#define JANK(t, words) \
	{ "jank_type_" t, "frames", LOWER, METRIC_SCENE, 0.25, 1, \
	  "frames SurfaceFlinger judged janky: " words " (API 31+)", \
	  METRIC_KIND_JANK, 1, 1, 1, 0 }

/* In the order of enum rs_phase and enum rs_jank_type. */
static const struct metric_def explain_table[] = {
	PHASE("wait", "wait before the frame started (UI thread busy)"),
	PHASE("input", "input handling"),
	PHASE("animation", "animation"),
	PHASE("layout", "measure/layout"),
	PHASE("draw", "draw (recording)"),
	PHASE("sync", "sync and upload"),
	PHASE("command", "command issue"),
	PHASE("gpu", "GPU and swap"),
	MEAN("wait", "wait before the frame started"),
	MEAN("input", "input handling"),
	MEAN("animation", "animation"),
	MEAN("layout", "measure/layout"),
	MEAN("draw", "draw"),
	MEAN("sync", "sync and upload"),
	MEAN("command", "command issue"),
	MEAN("gpu", "GPU and swap"),
	JANK("app_deadline_missed", "the app missed its deadline"),
	JANK("buffer_stuffing", "buffer stuffing"),
	JANK("sf_cpu_deadline_missed", "SurfaceFlinger's CPU deadline"),
	JANK("sf_gpu_deadline_missed", "SurfaceFlinger's GPU deadline"),
	JANK("display_hal", "the display HAL"),
	JANK("prediction_error", "a prediction error"),
	JANK("sf_scheduling", "SurfaceFlinger scheduling"),
	JANK("unknown", "unknown or unnamed"),
};

#define NR_EXPLAIN (sizeof(explain_table) / sizeof(*explain_table))
#define FIRST_MEAN (2 * RS_NR_PHASES)
#define FIRST_JANK (3 * RS_NR_PHASES)

size_t
metric_explain_count(void)
{
	return NR_EXPLAIN;
}

const struct metric_def *
metric_explain_at(size_t i)
{
	return i < NR_EXPLAIN ? &explain_table[i] : NULL;
}

const struct metric_def *
metric_explain_find(const char *name)
{
	for (size_t i = 0; i < NR_EXPLAIN; i++)
		if (!strcmp(explain_table[i].name, name))
			return &explain_table[i];
	return NULL;
}

int
metric_explain_about(const char *name, struct metric_about *out)
{
	const struct metric_def *m = metric_explain_find(name);
	size_t i;

	if (!m)
		return -1;
	i = (size_t)(m - explain_table);
	out->phase = out->jank_type = -1;
	out->stat = 0;
	if (i < FIRST_MEAN) {
		out->phase = (int)(i / 2);
		out->stat = i % 2 ? 90 : 50;
	} else if (i < FIRST_JANK) {
		out->phase = (int)(i - FIRST_MEAN);
	} else {
		out->jank_type = (int)(i - FIRST_JANK);
	}
	return 0;
}

/* Matrix's means over the scene's slices, weighted by their frames. */
static int
phase_mean(const struct rs_scene *sc, int phase, double *out)
{
	double sum = 0, weight = 0;

	for (size_t i = 0; i < sc->fps.nr_slices; i++) {
		const struct rs_fps_slice *s = &sc->fps.slices[i];
		const struct rs_drops *d = &s->drop_level;
		double w = d->best + d->normal + d->middle + d->high +
		    d->frozen;

		if (!s->phases.present || isnan(s->phases.ms[phase]))
			continue;
		if (!(w > 0))
			w = 1;
		sum += s->phases.ms[phase] * w;
		weight += w;
	}
	if (!(weight > 0))
		return JG_ENOTFOUND;
	*out = sum / weight;
	return 0;
}

int
metric_explain_value(const struct metric_def *m,
    const struct rs_scene *scene, double *out)
{
	struct metric_about a;
	double v = NAN;

	if (metric_explain_about(m->name, &a))
		return jg_error_set(JG_EINVAL, "'%s' is not an explain metric",
		    m->name);
	if (a.jank_type >= 0) {
		if (scene->jank_types.present)
			v = scene->jank_types.count[a.jank_type];
	} else if (a.stat == 0) {
		if (phase_mean(scene, a.phase, &v))
			v = NAN;
	} else if (scene->phases.present && scene->phases.frames > 0) {
		v = a.stat == 50 ? scene->phases.p50_ms[a.phase] :
		    scene->phases.p90_ms[a.phase];
	}
	if (isnan(v))
		return jg_error_set(JG_ENOTFOUND, "no %s in '%s'", m->name,
		    scene->name ? scene->name : "?");
	*out = v;
	return 0;
}
