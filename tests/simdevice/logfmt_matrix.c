/*
 * logfmt_matrix.c: Matrix issue contents, key by key in put() order.
 *
 * A tiny ordered JSON writer with org.json's escaping stands in for
 * Android's JSONObject; cJSON would reorder nothing but prints numbers
 * and slashes its own way, and those bytes are what a parser sees.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logfmt_matrix.h"
#include "strbuf.h"
#include "banned.h"

enum { BEST, NORMAL, MIDDLE, HIGH, FROZEN };

static const char *const level_names[5] = {
	"DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH",
	"DROPPED_FROZEN"
};

static const char *const detail_names[] = {
	"NORMAL", "ANR", "STARTUP", "LAG", "SIGNAL_ANR",
	"SIGNAL_ANR_NATIVE_BACKTRACE", "LAG_IDLE_HANDLER", "LAG_TOUCH",
	"PRIORITY_MODIFIED", "TIMERSLACK_MODIFIED"
};

/* FrameMetrics durations in Trace_FPS order (2.1+). */
static const char *const duration_names[10] = {
	"UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION",
	"ANIMATION_DURATION", "LAYOUT_MEASURE_DURATION", "DRAW_DURATION",
	"SYNC_DURATION", "COMMAND_ISSUE_DURATION", "SWAP_BUFFERS_DURATION",
	"TOTAL_DURATION", "GPU_DURATION"
};

/* An object being written: how many members it has so far. */
struct jw {
	struct strbuf *out;
	int n;
};

/* JSONStringer.string(): quotes, backslash, '/', controls escaped. */
static void
json_string(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"': case '\\': case '/':
			strbuf_addch(out, '\\');
			strbuf_addch(out, c);
			break;
		case '\t': strbuf_addstr(out, "\\t"); break;
		case '\b': strbuf_addstr(out, "\\b"); break;
		case '\n': strbuf_addstr(out, "\\n"); break;
		case '\r': strbuf_addstr(out, "\\r"); break;
		case '\f': strbuf_addstr(out, "\\f"); break;
		default:
			if (c < 0x20)
				strbuf_addf(out, "\\u%04x", c);
			else
				strbuf_addch(out, c);
		}
	}
	strbuf_addch(out, '"');
}

static void
jw_begin(struct jw *w, struct strbuf *out)
{
	w->out = out;
	w->n = 0;
	strbuf_addch(out, '{');
}

static void
jw_key(struct jw *w, const char *key)
{
	if (w->n++)
		strbuf_addch(w->out, ',');
	json_string(w->out, key);
	strbuf_addch(w->out, ':');
}

static void
jw_str(struct jw *w, const char *key, const char *v)
{
	jw_key(w, key);
	json_string(w->out, v ? v : "");
}

static void
jw_long(struct jw *w, const char *key, long long v)
{
	jw_key(w, key);
	strbuf_addf(w->out, "%lld", v);
}

static void
jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	logfmt_matrix_number(w->out, v);
}

static void
jw_bool(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	strbuf_addstr(w->out, v ? "true" : "false");
}

static void
jw_end(struct jw *w)
{
	strbuf_addch(w->out, '}');
}

/* The fewest significant digits (%g, or %e with `sci`) that read back as d. */
static void
shortest(char *buf, size_t size, int sci, double d)
{
	int p;

	for (p = 1; p <= 17; p++) {
		if (sci)
			snprintf(buf, size, "%.*e", p - 1, d);
		else
			snprintf(buf, size, "%.*g", p, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

void
logfmt_matrix_number(struct strbuf *out, double d)
{
	char buf[64], *e;
	double a = fabs(d);

	if (isnan(d) || isinf(d)) {
		strbuf_addstr(out, isnan(d) ? "NaN" : d < 0 ? "-Infinity" :
		    "Infinity");
		return;
	}
	if (d == floor(d) && a < 9.2e18) {
		strbuf_addf(out, "%lld", (long long)d);
		return;
	}
	if (a >= 1e-3 && a < 1e7) {
		shortest(buf, sizeof(buf), 0, d);
		strbuf_addstr(out, buf);
		return;
	}
	/* Java's computerized scientific notation: "1.5E-4", "2.0E7". */
	shortest(buf, sizeof(buf), 1, d);
	e = strchr(buf, 'e');
	*e = '\0';
	strbuf_addstr(out, buf);
	if (!strchr(buf, '.'))
		strbuf_addstr(out, ".0");
	strbuf_addf(out, "E%d", (int)strtol(e + 1, NULL, 10));
}

static void
device_keys(struct jw *w, const struct logfmt_matrix_device *d)
{
	jw_str(w, "machine", d->machine);
	jw_num(w, "cpu_app", d->cpu_app);
	jw_long(w, "mem", d->mem);
	jw_long(w, "mem_free", d->mem_free);
}

/* Plugin.onDetectIssue() appends these last; trace issues have no type. */
static void
issue_keys(struct jw *w, const char *tag,
    const struct logfmt_matrix_device *d, long long time_ms)
{
	jw_str(w, "tag", tag);
	jw_str(w, "process", d->process);
	jw_long(w, "time", time_ms);
}

void
logfmt_matrix_issue(struct strbuf *out, enum appmodel_matrix v,
    const char *tag, const char *key, const char *content)
{
	strbuf_addf(out, "tag[%s]type[%s];key[%s];content[%s]", tag,
	    v == APPMODEL_MATRIX_05 ? "null" : "0", key ? key : "null",
	    content);
}

static int
drop_level(long long dropped)
{
	if (dropped >= 42)
		return FROZEN;
	if (dropped >= 24)
		return HIGH;
	if (dropped >= 9)
		return MIDDLE;
	if (dropped >= 3)
		return NORMAL;
	return BEST;
}

void
logfmt_matrix_fps_init(struct logfmt_matrix_fps *c, enum appmodel_matrix v,
    int sdk, long long interval_ns)
{
	memset(c, 0, sizeof(*c));
	c->version = v;
	c->sdk = sdk;
	c->interval_ns = interval_ns;
}

void
logfmt_matrix_fps_add(struct logfmt_matrix_fps *c,
    const struct framegen_frame *f)
{
	long long iv = c->interval_ns, total = framegen_duration(f), dropped;
	int lvl;

	if (!c->frames)
		c->begin_ns = f->intended_vsync;
	c->last_ns = f->frame_completed;
	c->frames++;
	if (c->version == APPMODEL_MATRIX_21) {
		/* FrameMetrics: dropped frames in units of the period. */
		double d = total > iv ? (double)(total - iv) / iv : 0;
		const long long v[10] = {
			f->handle_input_start - f->intended_vsync,
			f->animation_start - f->handle_input_start,
			f->perform_traversals_start - f->animation_start,
			f->draw_start - f->perform_traversals_start,
			f->sync_queued - f->draw_start,
			f->issue_draw_commands_start - f->sync_start,
			f->swap_buffers - f->issue_draw_commands_start,
			f->frame_completed - f->swap_buffers,
			total,
			f->gpu_completed - f->swap_buffers,
		};

		for (int i = 0; i < 10; i++)
			c->dur[i] += v[i];
		dropped = (long long)floor(d + 0.5);
		c->sum_total_ns += (double)(total > iv ? total : iv);
	} else {
		/* Choreographer: from the intended vsync to doFrame's end. */
		dropped = (f->sync_queued - f->intended_vsync) / iv;
		c->cost_ms += (double)(dropped + 1) * (double)iv / 1e6;
	}
	lvl = drop_level(dropped);
	c->level[lvl]++;
	c->sum[lvl] += (unsigned int)dropped;
	c->dropped_total += dropped;
}

int
logfmt_matrix_fps_due(const struct logfmt_matrix_fps *c)
{
	if (c->version == APPMODEL_MATRIX_21)
		return c->frames && c->last_ns - c->begin_ns >= 10000000000LL;
	return c->cost_ms >= 10000.0;
}

static void
levels(struct jw *w, const char *key, const unsigned int *v, int newest)
{
	struct jw in;
	int i;

	jw_key(w, key);
	jw_begin(&in, w->out);
	/* The enum's declaration order changed in 2.1. */
	for (i = 0; i < 5; i++) {
		int l = newest ? i : 4 - i;

		jw_long(&in, level_names[l], v[l]);
	}
	jw_end(&in);
}

int
logfmt_matrix_fps_report(struct logfmt_matrix_fps *c, struct strbuf *out,
    const struct logfmt_matrix_device *d, const char *scene,
    long long time_ms)
{
	int newest = c->version == APPMODEL_MATRIX_21;
	float fps;
	struct jw w;

	if (!c->frames || (newest && c->frames <= 20)) {
		logfmt_matrix_fps_init(c, c->version, c->sdk, c->interval_ns);
		return 0;
	}
	if (newest)
		fps = (float)(1e9 / (c->sum_total_ns / c->frames));
	else {
		/* 0.5 caps at 60, 2.0.8 at the refresh rate. */
		double cap = c->version == APPMODEL_MATRIX_05 ? 60 :
		    floor(1e9 / c->interval_ns + 0.5);

		fps = (float)fmin(cap, 1000.0 * c->frames / c->cost_ms);
	}
	jw_begin(&w, out);
	device_keys(&w, d);
	jw_str(&w, "scene", scene);
	levels(&w, "dropLevel", c->level, newest);
	levels(&w, "dropSum", c->sum, newest);
	jw_num(&w, "fps", (double)fps);
	if (newest) {
		for (int i = 0; i < 10; i++)
			if (i != 9 || c->sdk >= 31)
				jw_long(&w, duration_names[i],
				    c->dur[i] / c->frames);
		jw_long(&w, "DROP_COUNT", (long long)floor((double)
		    c->dropped_total / c->frames + 0.5));
		jw_long(&w, "REFRESH_RATE",
		    (long long)floor(1e9 / c->interval_ns + 0.5));
	}
	issue_keys(&w, "Trace_FPS", d, time_ms);
	jw_end(&w);
	logfmt_matrix_fps_init(c, c->version, c->sdk, c->interval_ns);
	return 1;
}

/* Utils.calculateCpuUsage's text. */
static void
usage(struct jw *w, double pct)
{
	char buf[32];

	if (pct >= 100)
		snprintf(buf, sizeof(buf), "100%%");
	else if (pct <= 0)
		snprintf(buf, sizeof(buf), "0%%");
	else
		snprintf(buf, sizeof(buf), "%.2f%%", pct);
	jw_str(w, "usage", buf);
}

void
logfmt_matrix_evil(struct strbuf *out, enum appmodel_matrix v,
    const struct logfmt_matrix_device *d, const struct logfmt_matrix_evil *e,
    long long time_ms)
{
	struct jw w, mem;

	jw_begin(&w, out);
	device_keys(&w, d);
	jw_str(&w, "detail", detail_names[e->detail]);
	switch (e->detail) {
	case LOGFMT_MATRIX_NORMAL:
		jw_long(&w, "cost", e->cost_ms);
		if (v != APPMODEL_MATRIX_21)
			usage(&w, e->cpu_usage);
		if (v != APPMODEL_MATRIX_05)
			jw_str(&w, "scene", e->scene);
		jw_str(&w, "stack", e->stack);
		jw_str(&w, "stackKey", e->stack_key);
		break;
	case LOGFMT_MATRIX_ANR:
		jw_long(&w, "cost", e->cost_ms);
		jw_str(&w, "stackKey", e->stack_key);
		jw_str(&w, "scene", e->scene);
		jw_str(&w, "stack", e->stack);
		jw_str(&w, "threadStack", e->thread_stack);
		jw_long(&w, "processPriority", e->priority);
		jw_long(&w, "processNice", e->nice);
		jw_bool(&w, "isProcessForeground", e->foreground);
		jw_key(&w, "memory");
		jw_begin(&mem, out);
		jw_long(&mem, "dalvik_heap", e->dalvik_kb);
		jw_long(&mem, "native_heap", e->native_kb);
		jw_long(&mem, "vm_size", e->vm_kb);
		jw_end(&mem);
		break;
	case LOGFMT_MATRIX_SIGNAL_ANR:
	case LOGFMT_MATRIX_SIGNAL_ANR_NATIVE_BACKTRACE:
		jw_str(&w, "threadStack", e->thread_stack);
		jw_str(&w, "scene", e->scene);
		jw_bool(&w, "isProcessForeground", e->foreground);
		break;
	case LOGFMT_MATRIX_LAG:
	case LOGFMT_MATRIX_LAG_IDLE_HANDLER:
	case LOGFMT_MATRIX_LAG_TOUCH:
		jw_str(&w, "scene", e->scene);
		jw_str(&w, "threadStack", e->thread_stack);
		jw_bool(&w, "isProcessForeground", e->foreground);
		break;
	case LOGFMT_MATRIX_PRIORITY_MODIFIED:
		jw_str(&w, "threadStack", e->thread_stack);
		jw_long(&w, "processPriority", e->priority);
		break;
	case LOGFMT_MATRIX_TIMERSLACK_MODIFIED:
		jw_str(&w, "threadStack", e->thread_stack);
		jw_long(&w, "processTimerSlack", e->timer_slack);
		break;
	case LOGFMT_MATRIX_STARTUP:
		jw_long(&w, "cost", e->cost_ms);
		jw_str(&w, "stack", e->stack);
		jw_str(&w, "stackKey", e->stack_key);
		jw_long(&w, "subType", e->sub_type);
		break;
	}
	issue_keys(&w, "Trace_EvilMethod", d, time_ms);
	jw_end(&w);
}

void
logfmt_matrix_startup(struct strbuf *out,
    const struct logfmt_matrix_device *d,
    const struct logfmt_matrix_startup *s, long long time_ms)
{
	struct jw w;

	jw_begin(&w, out);
	device_keys(&w, d);
	jw_long(&w, "application_create", s->app_create_ms);
	jw_long(&w, "application_create_scene", s->scene);
	jw_long(&w, "first_activity_create", s->first_activity_ms);
	jw_long(&w, "startup_duration", s->duration_ms);
	jw_bool(&w, "is_warm_start_up", s->warm);
	issue_keys(&w, "Trace_StartUp", d, time_ms);
	jw_end(&w);
}

void
logfmt_matrix_trace(struct strbuf *stack, struct strbuf *key,
    enum appmodel_matrix v, long long cost_ms, const int *ids, size_t nr)
{
	long long best = -1;
	int best_id = 0;
	size_t i;

	strbuf_addf(stack, "0,%d,1,%lld\n", LOGFMT_MATRIX_DISPATCH_ID,
	    cost_ms);
	for (i = 0; i < nr; i++) {
		/* Each callee a few ms cheaper; 5 ms update granularity. */
		long long c = (cost_ms - 5 * (long long)(i + 1)) / 5 * 5;
		long long weight = (long long)(i + 2) * c;

		if (c < 0)
			c = 0;
		strbuf_addf(stack, "%zu,%d,1,%lld\n", i + 1, ids[i], c);
		if (10 * c < 3 * cost_ms)
			continue;
		if (v == APPMODEL_MATRIX_05)
			strbuf_addf(key, "%d|", ids[i]);
		else if (weight > best) {
			best = weight;
			best_id = ids[i];
		}
	}
	if (v != APPMODEL_MATRIX_05 && best >= 0)
		strbuf_addf(key, "%d|", best_id);
}

/* "a.b.C.m(C.java:12)" as Utils.getStack prints it: "a.b.C:m(12)". */
static void
anr_frame(struct strbuf *out, const char *frame)
{
	const char *paren = strchr(frame, '('), *dot, *colon;
	int line = -1;

	if (!paren) {
		strbuf_addstr(out, frame);
		return;
	}
	for (dot = paren; dot > frame && *dot != '.'; dot--)
		;
	if (strstr(paren, "Native Method"))
		line = -2;
	else if ((colon = strrchr(paren, ':')))
		line = (int)strtol(colon + 1, NULL, 10);
	if (dot == frame)
		strbuf_addf(out, ":%.*s(%d)", (int)(paren - frame), frame,
		    line);
	else
		strbuf_addf(out, "%.*s:%.*s(%d)", (int)(dot - frame), frame,
		    (int)(paren - dot - 1), dot + 1, line);
}

void
logfmt_matrix_thread_stack(struct strbuf *out, int anr,
    const char *const *frames, size_t nr)
{
	size_t i;

	if (!anr) {
		for (i = 0; i < nr; i++)
			strbuf_addf(out, "%s\n", frames[i]);
		return;
	}
	strbuf_addstr(out, " \n");
	for (i = 3; i < nr && i < 12; i++) {
		strbuf_addstr(out, "|*\t\tat ");
		anr_frame(out, frames[i]);
		strbuf_addch(out, '\n');
	}
}
