/*
 * apprun_priv.h: what apprun.c (process and actions) and apprun_emit.c
 * (the outputs of the framework and the device libraries) share.
 */
#ifndef SIM_APPRUN_PRIV_H
#define SIM_APPRUN_PRIV_H

#include "apprun.h"
#include "framegen.h"
#include "strbuf.h"
#include "logfmt.h"
#include "logfmt_matrix.h"
#include "sfjank.h"
#include "truth.h"

/* A Matrix FPS collector of one scene. */
struct apprun_scene {
	const char *scene;		/* activity name, from the model */
	struct logfmt_matrix_fps fps;
};

struct apprun {
	const struct appmodel *m;
	struct apprun_env env;
	unsigned int uid;
	struct framegen *g;
	struct framegen_out out;	/* the current action's output */
	struct truth_mark mark;
	long blocks_base;		/* blocks of earlier actions */
	struct framegen_launch last_launch;
	long long idle_at;

	int pid;			/* 0: not running */
	int foreground;
	const struct appmodel_activity **stack;	/* top last */
	size_t nr_stack, alloc_stack;
	struct gfx_state *gfx;
	struct sf_ring sf;		/* what SurfaceFlinger judged */

	struct apprun_scene *scenes;	/* Matrix FPS, per scene */
	size_t nr_scenes, alloc_scenes;
	const char *scene;		/* activity of the last frame */
	unsigned short *lost;		/* perf: vsyncs lost per second */
	size_t nr_lost, alloc_lost;
	long long lost_base_s;		/* the second lost[0] counts */
	long long perf_next_s;		/* next second perf reports */
	struct strbuf traceman;		/* costTime lines waiting */
	long long token;		/* Looper message tokens (ANR key) */
	unsigned int marked;		/* scrolls marked in this process */
};

/* Log `msg` as the app (tid `tid`) or, with pid 0, as system_server. */
void apprun_log(struct apprun *r, long long mono_ns, int pid, int tid,
    char prio, const char *tag, const char *msg);

/*
 * Outputs of a launch: Displayed, Fully drawn and, for a start from an
 * intent (not an in-app one), Matrix's startup report.
 */
void apprun_emit_launch(struct apprun *r, const struct framegen_launch *l,
    int from_intent);

/* Outputs of frames/blocks/methods r->out gained since the last call. */
void apprun_emit_action(struct apprun *r);

/* The visible activity is paused (Matrix 2.1+ reports its FPS). */
void apprun_emit_pause(struct apprun *r, long long now_ns);

/*
 * The scene markers of a scroll or fling on activity `a` with `marks`
 * (APPMODEL.md), around the frames r->out holds.
 */
void apprun_emit_marks(struct apprun *r, const struct appmodel_activity *a);

/* Drop every per-process output state (the process died). */
void apprun_emit_reset(struct apprun *r);

/* perf's "APP FPS is:" lines for the seconds before `now_ns`. */
void apprun_emit_periodic(struct apprun *r, long long now_ns);

#endif
