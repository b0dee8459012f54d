/*
 * apprun_emit.c: what the framework and the app's device libraries
 * print or write about the frames, blocks and launches an action made.
 *
 * Thresholds are the libraries' defaults (docs/formats.md): Choreographer
 * warns from 30 skipped frames; Matrix reports a slow message from 700 ms
 * (1000 ms on 0.5), a lag at 2 s (2.x) and an ANR at 5 s; BlockCanary
 * writes a file past its threshold; xanderwang/performance dumps the
 * stack of a message still running after 100 ms and counts frame
 * callbacks every second; FPSAnalyzer logs every frame message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apprun_priv.h"
#include "blockcanary_fmt.h"
#include "logfmt_msg.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define MS		1000000LL
#define SEC		1000000000LL
/* Thread ids relative to the pid (main thread = pid). */
#define TID_ATM		27	/* system_server's AM thread */
#define TID_PERF	18	/* performance's watchdog */
#define TID_FPSA	21	/* FPSAnalyzer's analysis thread */
#define TID_MATRIX	59	/* Matrix's report thread */
#define TID_RENDER	33	/* hwui's RenderThread */
/* The launcher's own skipped frames as a cold start animates away. */
#define LAUNCHER_SKIPPED	45

void
apprun_log(struct apprun *r, long long mono_ns, int pid, int tid, char prio,
    const char *tag, const char *msg)
{
	struct logfmt_entry e;

	if (!r->env.log)
		return;
	e.buffer = pid ? LOGFMT_MAIN : LOGFMT_SYSTEM;
	e.mono_ns = mono_ns;
	e.wall_ns = mono_ns + r->env.wall_offset_ns;
	e.pid = pid ? pid : r->env.system_pid;
	e.tid = pid ? tid : r->env.system_pid + TID_ATM;
	e.uid = pid ? r->uid : 1000;
	e.prio = prio;
	e.tag = tag;
	e.msg = msg;
	logfmt_buf_add(r->env.log, &e);
}

/* Device local time in ms, for the libraries that print dates. */
static long long
local_ms(const struct apprun *r, long long mono_ns)
{
	return (mono_ns + r->env.wall_offset_ns) / MS +
	    r->env.tz_offset_min * 60000LL;
}

static long long
wall_ms(const struct apprun *r, long long mono_ns)
{
	return (mono_ns + r->env.wall_offset_ns) / MS;
}

/* DeviceUtil.getDeviceInfo(): the level follows the RAM size. */
static void
matrix_device(const struct apprun *r, struct logfmt_matrix_device *d)
{
	long long bytes = r->env.mem_total_kb * 1024;
	long long gib = 1LL << 30;

	if (bytes >= 8 * gib)
		d->machine = "BEST";
	else if (bytes >= 6 * gib)
		d->machine = "HIGH";
	else if (bytes >= 4 * gib || (bytes >= 2 * gib && r->env.cores >= 4))
		d->machine = "MIDDLE";
	else
		d->machine = bytes >= 2 * gib ? "LOW" : "BAD";
	/* /proc/stat is unreadable to apps from API 26. */
	d->cpu_app = r->env.sdk >= 26 ? 0 : 0.0031;
	d->mem = bytes;
	d->mem_free = r->env.mem_free_kb;
	d->process = r->m->process;
}

/* Log an issue the way DefaultPluginListener does. */
static void
matrix_report(struct apprun *r, long long mono_ns, const char *tag,
    const char *key, const char *content)
{
	struct strbuf msg = STRBUF_INIT;

	strbuf_addstr(&msg, "report issue content: ");
	logfmt_matrix_issue(&msg, r->m->libs.matrix, tag, key, content);
	apprun_log(r, mono_ns, r->pid, r->pid + TID_MATRIX, 'I',
	    LOGFMT_MATRIX_DEFAULT_TAG, msg.buf);
	strbuf_release(&msg);
}

static void
matrix_startup(struct apprun *r, const struct framegen_launch *l)
{
	struct logfmt_matrix_device d;
	struct logfmt_matrix_startup s = { 0, 0, 0, 0, 0 };
	struct strbuf sb = STRBUF_INIT;
	long long at = l->displayed_ns + 30 * MS;	/* window focus */
	int cold = l->state == FRAMEGEN_COLD;

	matrix_device(r, &d);
	s.scene = r->env.sdk >= 28 ? 159 : 100;
	if (cold) {
		s.app_create_ms = l->app_create_ms;
		s.first_activity_ms = s.duration_ms = l->first_activity_ms;
	} else {
		s.duration_ms = l->total_ms;
		s.warm = 1;
	}
	logfmt_matrix_startup(&sb, &d, &s, wall_ms(r, at));
	matrix_report(r, at, "Trace_StartUp", NULL, sb.buf);

	if (l->total_ms >= (cold ? 10000 : 4000)) {
		struct logfmt_matrix_evil e = { LOGFMT_MATRIX_STARTUP, 0, NULL,
		    NULL, NULL, NULL, 0, 0, 0, 0, 1, 0, 0, 0, cold ? 1 : 2 };
		struct strbuf stack = STRBUF_INIT, key = STRBUF_INIT;

		e.cost_ms = l->total_ms;
		logfmt_matrix_trace(&stack, &key, r->m->libs.matrix,
		    l->total_ms, NULL, 0);
		e.stack = stack.buf;
		e.stack_key = key.buf;
		strbuf_reset(&sb);
		logfmt_matrix_evil(&sb, r->m->libs.matrix, &d, &e,
		    wall_ms(r, at));
		matrix_report(r, at, "Trace_EvilMethod", NULL, sb.buf);
		strbuf_release(&stack);
		strbuf_release(&key);
	}
	strbuf_release(&sb);
}

void
apprun_emit_launch(struct apprun *r, const struct framegen_launch *l,
    int from_intent)
{
	struct strbuf msg = STRBUF_INIT;
	const char *tag;

	/*
	 * Another process's "Skipped N frames!": the launcher's, as the
	 * start animates away from it.  Only its pid tells it from the app's.
	 */
	if (l->state == FRAMEGEN_COLD) {
		int pid = r->env.system_pid + APPRUN_LAUNCHER_PID_OFFSET;

		logfmt_msg_skipped(&msg, LAUNCHER_SKIPPED);
		apprun_log(r, l->start_ns, pid, pid, 'I', "Choreographer",
		    msg.buf);
		strbuf_reset(&msg);
	}
	/* A hot start redraws nothing new: no Displayed. */
	if (l->state != FRAMEGEN_HOT) {
		tag = logfmt_msg_displayed(&msg, r->env.sdk, r->m->package,
		    l->activity, l->total_ms, l->total_ms);
		apprun_log(r, l->displayed_ns, 0, 0, 'I', tag, msg.buf);
	}
	if (l->fully_drawn_ms > 0) {
		strbuf_reset(&msg);
		tag = logfmt_msg_fully_drawn(&msg, r->env.sdk, r->m->package,
		    l->activity, l->fully_drawn_ms);
		apprun_log(r, l->start_ns + l->fully_drawn_ms * MS, 0, 0, 'I',
		    tag, msg.buf);
	}
	if (from_intent && r->m->libs.matrix && l->state != FRAMEGEN_HOT)
		matrix_startup(r, l);
	strbuf_release(&msg);
}

static struct apprun_scene *
scene_for(struct apprun *r, const char *scene)
{
	struct apprun_scene *s;

	for (size_t i = 0; i < r->nr_scenes; i++)
		if (r->scenes[i].scene == scene)
			return &r->scenes[i];
	XALLOC_GROW(r->scenes, r->nr_scenes + 1, r->alloc_scenes);
	s = &r->scenes[r->nr_scenes++];
	s->scene = scene;
	logfmt_matrix_fps_init(&s->fps, r->m->libs.matrix, r->env.sdk,
	    framegen_period_ns(r->g));
	return s;
}

static void
matrix_fps_report(struct apprun *r, struct apprun_scene *s, long long at)
{
	struct logfmt_matrix_device d;
	struct strbuf sb = STRBUF_INIT;

	matrix_device(r, &d);
	if (logfmt_matrix_fps_report(&s->fps, &sb, &d, s->scene,
	    wall_ms(r, at)))
		matrix_report(r, at, "Trace_FPS", NULL, sb.buf);
	strbuf_release(&sb);
}

void
apprun_emit_pause(struct apprun *r, long long now_ns)
{
	/* 2.1+ reports a scene's frames when it is paused. */
	if (r->scene && r->m->libs.matrix == APPMODEL_MATRIX_21)
		matrix_fps_report(r, scene_for(r, r->scene), now_ns);
	r->scene = NULL;
}

/*
 * perf: a main thread busy past its vsync swallows the frame callbacks
 * of every period it overruns; charge them to the seconds they fall in.
 */
static void
perf_lost(struct apprun *r, const struct framegen_frame *f)
{
	long long from = f->intended_vsync + f->frame_interval;
	long long to = f->sync_queued, s;

	for (s = from / SEC; from < to; s++) {
		long long end = (s + 1) * SEC < to ? (s + 1) * SEC : to;
		long long i = s - r->lost_base_s;
		long long n = (end - from) / f->frame_interval;

		from = end;
		if (i < 0 || n <= 0)
			continue;
		if ((size_t)i >= r->nr_lost) {
			size_t old = r->nr_lost;

			XALLOC_GROW(r->lost, (size_t)i + 1, r->alloc_lost);
			r->nr_lost = (size_t)i + 1;
			memset(r->lost + old, 0,
			    (r->nr_lost - old) * sizeof(*r->lost));
		}
		r->lost[i] = (unsigned short)(r->lost[i] + n > 60000 ? 60000 :
		    r->lost[i] + n);
	}
}

static void
emit_frame(struct apprun *r, const struct framegen_frame *f)
{
	const struct appmodel_libs *libs = &r->m->libs;
	struct strbuf msg = STRBUF_INIT;

	if (r->scene && r->scene != f->activity)
		apprun_emit_pause(r, f->intended_vsync);
	r->scene = f->activity;
	if (f->skipped >= LOGFMT_SKIP_WARNING) {
		logfmt_msg_skipped(&msg, f->skipped);
		apprun_log(r, f->frame_start, r->pid, r->pid, 'I',
		    "Choreographer", msg.buf);
	}
	if (libs->fpsanalyzer) {
		char prio;

		strbuf_reset(&msg);
		prio = logfmt_msg_fpsanalyzer(&msg, (f->sync_queued -
		    f->frame_start) / MS, r->m->package, f->activity);
		apprun_log(r, f->sync_queued, r->pid, r->pid + TID_FPSA, prio,
		    "FPSAnalyzer", msg.buf);
	}
	if (libs->matrix) {
		struct apprun_scene *s = scene_for(r, f->activity);

		logfmt_matrix_fps_add(&s->fps, f);
		if (logfmt_matrix_fps_due(&s->fps))
			matrix_fps_report(r, s, f->frame_completed);
	}
	if (libs->perf)
		perf_lost(r, f);
	strbuf_release(&msg);
}

static void
matrix_block(struct apprun *r, const struct framegen_block *b)
{
	const struct appmodel_block *mb = b->model;
	enum appmodel_matrix v = r->m->libs.matrix;
	long long dur = (b->end_ns - b->start_ns) / MS;
	struct logfmt_matrix_evil e = { LOGFMT_MATRIX_NORMAL, dur,
	    b->activity, NULL, NULL, NULL, 0, 10, -10, 0, 1, 0, 0, 0, 0 };
	struct strbuf stack = STRBUF_INIT, key = STRBUF_INIT, ts = STRBUF_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct logfmt_matrix_device d;

	matrix_device(r, &d);
	if (dur >= (v == APPMODEL_MATRIX_05 ? 1000 : 700)) {
		logfmt_matrix_trace(&stack, &key, v, dur, mb->method_ids,
		    mb->nr_method_ids);
		e.stack = stack.buf;
		e.stack_key = key.buf;
		e.cpu_usage = dur ? 100.0 * b->thread_ms / (double)dur : 0;
		logfmt_matrix_evil(&sb, v, &d, &e, wall_ms(r, b->end_ns));
		matrix_report(r, b->end_ns, "Trace_EvilMethod", NULL, sb.buf);
	}
	if (dur >= 2000 && v != APPMODEL_MATRIX_05) {
		logfmt_matrix_thread_stack(&ts, 0,
		    (const char *const *)mb->stack, mb->nr_stack);
		e.detail = LOGFMT_MATRIX_LAG;
		e.thread_stack = ts.buf;
		strbuf_reset(&sb);
		logfmt_matrix_evil(&sb, v, &d, &e,
		    wall_ms(r, b->start_ns + 2 * SEC));
		matrix_report(r, b->start_ns + 2 * SEC, "Trace_EvilMethod",
		    NULL, sb.buf);
	}
	if (dur >= 5000) {
		char token[32];

		strbuf_reset(&stack);
		strbuf_reset(&key);
		strbuf_reset(&ts);
		logfmt_matrix_trace(&stack, &key, v, 5000, mb->method_ids,
		    mb->nr_method_ids);
		logfmt_matrix_thread_stack(&ts, 1,
		    (const char *const *)mb->stack, mb->nr_stack);
		e.detail = LOGFMT_MATRIX_ANR;
		e.cost_ms = 5000;
		e.stack = stack.buf;
		e.stack_key = key.buf;
		e.thread_stack = ts.buf;
		e.dalvik_kb = 8804;
		e.native_kb = 33084;
		e.vm_kb = 4194304;
		strbuf_reset(&sb);
		logfmt_matrix_evil(&sb, v, &d, &e,
		    wall_ms(r, b->start_ns + 5 * SEC));
		snprintf(token, sizeof(token), "%lld", r->token++);
		matrix_report(r, b->start_ns + 5 * SEC, "Trace_EvilMethod",
		    token, sb.buf);
	}
	strbuf_release(&stack);
	strbuf_release(&key);
	strbuf_release(&ts);
	strbuf_release(&sb);
}

static void
blockcanary_block(struct apprun *r, const struct framegen_block *b)
{
	const struct appmodel_libs *libs = &r->m->libs;
	struct bcfmt_device d = { "unknown", r->m->version_name,
	    r->m->version_code, r->env.sdk >= 29 ? "empty_imei" :
	    "358240051111110", "uid", "unknown", r->env.model, r->env.sdk,
	    r->env.release, r->env.cores, r->m->process, r->env.mem_free_kb,
	    r->env.mem_total_kb };
	struct bcfmt_block bb = { local_ms(r, b->start_ns),
	    local_ms(r, b->end_ns), (long long)b->thread_ms,
	    b->model->thread_ratio >= 0.9, (const char *const *)b->model->stack,
	    b->model->nr_stack, libs->bc_threshold_ms, 0 };
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	long long write_ms = bb.end_ms + 5;

	if (!r->env.write_file || !bcfmt_writes(&bb))
		return;
	bcfmt_dir(&path, libs->bc_dir, r->m->package);
	bcfmt_file_name(&path, libs->blockcanary, write_ms);
	bcfmt_file(&data, libs->blockcanary, &d, &bb, write_ms);
	r->env.write_file(r->env.file_ctx, path.buf, data.buf, data.len);
	strbuf_release(&path);
	strbuf_release(&data);
}

static void
perf_block(struct apprun *r, const struct framegen_block *b)
{
	struct strbuf msg = STRBUF_INIT;
	char *tag;
	long long at = b->start_ns + 100 * MS;

	if (b->end_ns <= at)
		return;
	logfmt_msg_perf_issue(&msg, "UI BLOCK", "UI BLOCK", local_ms(r, at),
	    NULL, 0, (const char *const *)b->model->stack,
	    (int)b->model->nr_stack);
	tag = xasprintf("%s_Issue", r->m->libs.perf_tag);
	apprun_log(r, at, r->pid, r->pid + TID_PERF, 'W', tag, msg.buf);
	free(tag);
	strbuf_release(&msg);
}

void
apprun_emit_action(struct apprun *r)
{
	const struct framegen_out *out = &r->out;
	const struct appmodel_libs *libs = &r->m->libs;
	size_t i;

	for (i = 0; i < out->nr_frames; i++)
		emit_frame(r, &out->frames[i]);
	for (i = 0; i < out->nr_blocks; i++) {
		if (libs->matrix)
			matrix_block(r, &out->blocks[i]);
		if (libs->blockcanary)
			blockcanary_block(r, &out->blocks[i]);
		if (libs->perf)
			perf_block(r, &out->blocks[i]);
	}
	for (i = 0; libs->traceman && i < out->nr_methods; i++) {
		const struct framegen_method *m = &out->methods[i];

		logfmt_msg_traceman(&r->traceman, m->model->name,
		    (long long)(m->ms + 0.5), m->model->main_thread);
		strbuf_addch(&r->traceman, '\n');
	}
}

void
apprun_emit_periodic(struct apprun *r, long long now_ns)
{
	struct strbuf msg = STRBUF_INIT;
	char *tag;

	if (!r->m->libs.perf)
		return;
	tag = xasprintf("%s_FPSTool", r->m->libs.perf_tag);
	/* One line per full second since the process started. */
	for (; (r->perf_next_s + 1) * SEC <= now_ns; r->perf_next_s++) {
		long long i = r->perf_next_s - r->lost_base_s;
		int lost = i >= 0 && (size_t)i < r->nr_lost ? r->lost[i] : 0;
		int fps = r->env.refresh_hz - lost;
		char prio;

		if (!r->foreground)
			continue;
		strbuf_reset(&msg);
		prio = logfmt_msg_perf_fps(&msg, fps < 0 ? 0 : fps);
		apprun_log(r, (r->perf_next_s + 1) * SEC, r->pid, r->pid, prio,
		    tag, msg.buf);
	}
	free(tag);
	strbuf_release(&msg);
}

/* The main thread's name as the kernel keeps it: the process's. */
static void
trace(struct apprun *r, int tid, long long mono_ns, const char *text)
{
	if (r->env.trace)
		r->env.trace(r->env.trace_ctx, tid == r->pid ? r->m->process :
		    "RenderThread", r->pid, tid, mono_ns, text);
}

/*
 * The marks as Trace sections: the scroll listener's section around the
 * scroll, RecyclerView's own "RV Scroll" (TRACE_TAG_APP too) inside it
 * around each frame's input work, on the main thread; or an async
 * section the main thread begins and the RenderThread ends.
 */
static void
trace_marks(struct apprun *r, const struct appmodel_activity *a,
    const struct framegen_frame *first, const struct framegen_frame *last)
{
	const struct framegen_out *out = &r->out;
	char *name = xasprintf("%s %u", a->marks, r->marked);
	char *text;

	if (a->marks_by == APPMODEL_MARKS_ASYNC) {
		text = xasprintf("S|%d|%s|%u", r->pid, name, r->marked);
		trace(r, r->pid, first->intended_vsync - MS, text);
		free(text);
		text = xasprintf("F|%d|%s|%u", r->pid, name, r->marked);
		trace(r, r->pid + TID_RENDER, last->frame_completed + MS, text);
		free(text);
		free(name);
		return;
	}
	text = xasprintf("B|%d|%s", r->pid, name);
	trace(r, r->pid, first->intended_vsync - MS, text);
	free(text);
	text = xasprintf("B|%d|RV Scroll", r->pid);
	for (size_t i = 0; i < out->nr_frames; i++) {
		const struct framegen_frame *f = &out->frames[i];
		char end[32];

		snprintf(end, sizeof(end), "E|%d", r->pid);
		trace(r, r->pid, f->intended_vsync + MS / 10, text);
		trace(r, r->pid, f->intended_vsync + MS / 2, end);
	}
	free(text);
	text = xasprintf("E|%d", r->pid);
	trace(r, r->pid, last->frame_completed + MS, text);
	free(text);
	free(name);
}

void
apprun_emit_marks(struct apprun *r, const struct appmodel_activity *a)
{
	const struct framegen_out *out = &r->out;
	const struct framegen_frame *first, *last;
	char *msg;

	if (!a || !a->marks || !out->nr_frames)
		return;
	first = &out->frames[0];
	last = &out->frames[out->nr_frames - 1];
	r->marked++;
	if (a->marks_by != APPMODEL_MARKS_LOG) {
		trace_marks(r, a, first, last);
		return;
	}
	/* A scroll listener: dragging before the first frame, idle after. */
	msg = xasprintf("jankgate: scene begin %s %u", a->marks, r->marked);
	apprun_log(r, first->intended_vsync - MS, r->pid, r->pid, 'I',
	    "ScrollMarks", msg);
	free(msg);
	msg = xasprintf("jankgate: scene end %s %u", a->marks, r->marked);
	apprun_log(r, last->frame_completed + MS, r->pid, r->pid, 'I',
	    "ScrollMarks", msg);
	free(msg);
}

void
apprun_emit_reset(struct apprun *r)
{
	r->marked = 0;
	free(r->scenes);
	r->scenes = NULL;
	r->nr_scenes = r->alloc_scenes = 0;
	r->scene = NULL;
	free(r->lost);
	r->lost = NULL;
	r->nr_lost = r->alloc_lost = 0;
	strbuf_reset(&r->traceman);
}
