/*
 * metrics_explain.h: the metrics that say why a scene janked (issue 20).
 *
 * Per scene, beside the metrics of metrics.c's table:
 *
 *   phase_<phase>_p50_ms, phase_<phase>_p90_ms
 *       median and 90th percentile of a frame phase over the scene's
 *       PROFILEDATA rows (sources/phases.c), for each phase of enum
 *       rs_phase: wait, input, animation, layout, draw, sync, command,
 *       gpu;
 *   phase_<phase>_mean_ms
 *       the mean per frame Matrix 2.1+ reports (FrameMetrics), over the
 *       scene's slices weighted by their frames;
 *   jank_type_<type>
 *       the app's frames SurfaceFlinger judged janky for that reason in
 *       the scene (API 31+, sources/frametimeline.c): app_deadline_missed,
 *       buffer_stuffing, sf_cpu_deadline_missed, sf_gpu_deadline_missed,
 *       display_hal, prediction_error, sf_scheduling, unknown.
 *
 * Each has explain set in its metric_def: compare tests it like any
 * metric but keeps it out of the correction's family and out of the
 * run's verdict (it lands in comparison.explains, not .entries), so it
 * can say which phase moved without ever failing a build by itself.
 * metrics.c's metric_count(), metric_at() and metric_find() cover them
 * after the table's own.
 */
#ifndef JG_METRICS_EXPLAIN_H
#define JG_METRICS_EXPLAIN_H

#include <stddef.h>

#include "metrics.h"

struct rs_scene;

/* Their number, the i-th, and the one named `name` (NULL: none). */
size_t metric_explain_count(void);
const struct metric_def *metric_explain_at(size_t i);
const struct metric_def *metric_explain_find(const char *name);

/*
 * The value of explain metric `m` in `scene`: 0, or JG_ENOTFOUND when the
 * scene has none (no rows, no Matrix 2.1, API below 31), or JG_EINVAL
 * when `m` is not an explain metric.
 */
int metric_explain_value(const struct metric_def *m,
    const struct rs_scene *scene, double *out);

/* What an explain metric is about. */
struct metric_about {
	int phase;		/* enum rs_phase, or -1 */
	int stat;		/* 50, 90, or 0 for Matrix's mean */
	int jank_type;		/* enum rs_jank_type, or -1 */
};

/* Fill *out for the explain metric called `name`; -1 for another name. */
int metric_explain_about(const char *name, struct metric_about *out);

#endif
