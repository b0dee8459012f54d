/*
 * results_explain.c: the parts of the results model that say why a
 * scene janked (issue 20): the phases of its frames, SurfaceFlinger's jank
 * types, and the input steps a timeline marks.  results.h declares them;
 * this file names them and sets them to "not measured".
 *
 * The names are the keys of results.json ("phases": { "layout_p50_ms" ...
 * }, "jank_types": { "buffer_stuffing" ... }) and part of the metric names
 * (phase_layout_p90_ms, jank_type_buffer_stuffing), so they never change;
 * the labels are what a report shows.
 */
#include <math.h>
#include <string.h>

#include "results.h"
#include "xalloc.h"
#include "banned.h"

static const char *const phase_names[RS_NR_PHASES] = {
	[RS_PHASE_WAIT] = "wait",
	[RS_PHASE_INPUT] = "input",
	[RS_PHASE_ANIMATION] = "animation",
	[RS_PHASE_LAYOUT] = "layout",
	[RS_PHASE_DRAW] = "draw",
	[RS_PHASE_SYNC] = "sync",
	[RS_PHASE_COMMAND] = "command",
	[RS_PHASE_GPU] = "gpu",
};

static const char *const phase_labels[RS_NR_PHASES] = {
	[RS_PHASE_WAIT] = "wait before the frame",
	[RS_PHASE_INPUT] = "input",
	[RS_PHASE_ANIMATION] = "animation",
	[RS_PHASE_LAYOUT] = "measure/layout",
	[RS_PHASE_DRAW] = "draw",
	[RS_PHASE_SYNC] = "sync/upload",
	[RS_PHASE_COMMAND] = "command issue",
	[RS_PHASE_GPU] = "GPU/swap",
};

static const char *const jank_names[RS_NR_JANK_TYPES] = {
	[RS_JANK_APP_DEADLINE] = "app_deadline_missed",
	[RS_JANK_BUFFER_STUFFING] = "buffer_stuffing",
	[RS_JANK_SF_CPU] = "sf_cpu_deadline_missed",
	[RS_JANK_SF_GPU] = "sf_gpu_deadline_missed",
	[RS_JANK_DISPLAY_HAL] = "display_hal",
	[RS_JANK_PREDICTION] = "prediction_error",
	[RS_JANK_SF_SCHEDULING] = "sf_scheduling",
	[RS_JANK_UNKNOWN] = "unknown",
};

static const char *const jank_labels[RS_NR_JANK_TYPES] = {
	[RS_JANK_APP_DEADLINE] = "app deadline missed",
	[RS_JANK_BUFFER_STUFFING] = "buffer stuffing",
	[RS_JANK_SF_CPU] = "SurfaceFlinger CPU deadline missed",
	[RS_JANK_SF_GPU] = "SurfaceFlinger GPU deadline missed",
	[RS_JANK_DISPLAY_HAL] = "display HAL",
	[RS_JANK_PREDICTION] = "prediction error",
	[RS_JANK_SF_SCHEDULING] = "SurfaceFlinger scheduling",
	[RS_JANK_UNKNOWN] = "unknown",
};

const char *
rs_phase_name(enum rs_phase p)
{
	return (unsigned)p < RS_NR_PHASES ? phase_names[p] : "?";
}

const char *
rs_phase_label(enum rs_phase p)
{
	return (unsigned)p < RS_NR_PHASES ? phase_labels[p] : "?";
}

const char *
rs_jank_type_name(enum rs_jank_type t)
{
	return (unsigned)t < RS_NR_JANK_TYPES ? jank_names[t] : "?";
}

const char *
rs_jank_type_label(enum rs_jank_type t)
{
	return (unsigned)t < RS_NR_JANK_TYPES ? jank_labels[t] : "?";
}

void
rs_phases_init(struct rs_phases *p)
{
	memset(p, 0, sizeof(*p));
	p->frames = p->skipped = NAN;
	p->newest = RS_UNKNOWN;
	for (int i = 0; i < RS_NR_PHASES; i++)
		p->p50_ms[i] = p->p90_ms[i] = NAN;
}

void
rs_phase_means_init(struct rs_phase_means *m)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < RS_NR_PHASES; i++)
		m->ms[i] = NAN;
}

void
rs_jank_types_init(struct rs_jank_types *j)
{
	memset(j, 0, sizeof(*j));
	j->frames = j->janky = NAN;
	for (int i = 0; i < RS_NR_JANK_TYPES; i++)
		j->count[i] = NAN;
}

struct rs_input *
rs_scene_add_input(struct rs_scene *sc, double at_mono_ms, const char *step)
{
	struct rs_input *in;

	XALLOC_GROW(sc->inputs, sc->nr_inputs + 1, sc->alloc_inputs);
	in = &sc->inputs[sc->nr_inputs++];
	in->at_mono_ms = at_mono_ms;
	in->step = step ? xstrdup(step) : NULL;
	return in;
}
