/*
 * frametimeline.c: SurfaceFlinger's jank dump, read and counted
 * (frametimeline.h), and the `frametimeline` entry of `jankgate parse`.
 *
 * `dumpsys SurfaceFlinger --frametimeline -jank` (FrameTimeline::dumpJank,
 * frameworks/native/services/surfaceflinger/FrameTimeline, API 31+)
 * prints, for each of the last 64 display frames that janked or holds a
 * janky layer frame, the display frame and then each layer's frame
 * indented by four spaces.  [built] from the format strings; times are ms
 * from the oldest frame kept, so only the token (the vsync id, the
 * FrameTimelineVsyncId of PROFILEDATA) places a frame in time:
 *
 *   Display Frame 42 [*]                      (" [*] ": it janked itself)
 *   Prediction State : Valid
 *   Jank Type : Display HAL                   (the display frame's)
 *   Present Metadata : Late Present
 *   ...
 *   Vsync Period:  16.666666                  (ms; later releases)
 *   ...
 *   		    Start time		|    End time		|    Present time
 *   Expected	|	      0.00	|	     12.00	|	     28.67
 *   Actual  	|	      0.11	|	     13.20	|	     45.33
 *   ------------------------------...
 *
 *       Layer - com.example.shop/com.example.shop.FeedActivity#0 [*]
 *       Token: 216140
 *       Is Buffer?: 1
 *       Owner Pid : 3920
 *       Scheduled rendering rate: 60 fps      (later releases)
 *       Layer ID : 88                         (later releases)
 *       Present State : Presented             (or Dropped, Unknown)
 *       Prediction State : Valid
 *       Jank Type : App Deadline Missed, Buffer Stuffing
 *       Present Metadata : Late Present
 *       ...
 *
 * The jank type is a comma-separated list of the bits set:
 *   App Deadline Missed, Buffer Stuffing, SurfaceFlinger CPU Deadline
 *   Missed, SurfaceFlinger GPU Deadline Missed, Display HAL, Prediction
 *   Error, SurfaceFlinger Scheduling, Unknown jank, None;
 * the early Android 12 builds named some differently ("SurfaceFlinger
 * Deadline Missed": CPU; "Composer/Display - outside SF and App": display
 * HAL; "Prediction Expired": the app's, as SurfaceFlinger's own trace
 * maps it), and Android 14 added "SurfaceFlinger Stuffing", counted here
 * as unknown like any name this file does not know (with a warning for
 * the latter).
 *
 * Counted: the frames of the app's layers (the layer name holds the
 * package; a pid match when the pids are known) from the scene's first
 * vsync id on, each in every type it has.  A display frame's own type is
 * not the app's and is not counted: it shows in its layers' types when
 * SurfaceFlinger passed it on.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "framestats.h"
#include "frametimeline.h"
#include "gfxinfo_dump.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "gfxinfo"
#define DUMP_CMD "dumpsys SurfaceFlinger --frametimeline -jank"
#define MIN_SDK 31

static const struct {
	const char *name;
	int type;		/* enum rs_jank_type, or -1 for None */
} type_names[] = {
	{ "None", -1 },
	{ "App Deadline Missed", RS_JANK_APP_DEADLINE },
	{ "Prediction Expired", RS_JANK_APP_DEADLINE },
	{ "Buffer Stuffing", RS_JANK_BUFFER_STUFFING },
	{ "SurfaceFlinger CPU Deadline Missed", RS_JANK_SF_CPU },
	{ "SurfaceFlinger Deadline Missed", RS_JANK_SF_CPU },
	{ "SurfaceFlinger GPU Deadline Missed", RS_JANK_SF_GPU },
	{ "Display HAL", RS_JANK_DISPLAY_HAL },
	{ "Composer/Display - outside SF and App", RS_JANK_DISPLAY_HAL },
	{ "Prediction Error", RS_JANK_PREDICTION },
	{ "SurfaceFlinger Scheduling", RS_JANK_SF_SCHEDULING },
	{ "Unknown jank", RS_JANK_UNKNOWN },
	{ "SurfaceFlinger Stuffing", RS_JANK_UNKNOWN },
};

void
ftl_dump_init(struct ftl_dump *d)
{
	memset(d, 0, sizeof(*d));
	d->vsync_period_ms = NAN;
}

/* "Vsync Period:  16.666666": the display frame's period, in ms. */
static void
read_period(struct ftl_dump *d, const char *s, size_t n)
{
	char num[32];
	size_t i = strlen("Vsync Period:"), k = 0;
	double v;
	char *end;

	while (i < n && s[i] == ' ')
		i++;
	while (i < n && k + 1 < sizeof(num) && ((s[i] >= '0' && s[i] <= '9') ||
	    s[i] == '.'))
		num[k++] = s[i++];
	num[k] = '\0';
	v = strtod(num, &end);
	/* A display's period: from 1000 Hz to 1 Hz. */
	if (k && !*end && i == n && v >= 1 && v <= 1000)
		d->vsync_period_ms = v;
}

void
ftl_dump_release(struct ftl_dump *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->frames[i].layer);
	free(d->frames);
	free(d->unknown_name);
	ftl_dump_init(d);
}

static bool
starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

static void
trim(const char **s, size_t *n)
{
	while (*n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}

/* The value after "Key" and its ':' (blanks around it dropped). */
static bool
value_of(const char *s, size_t n, const char *key, const char **v,
    size_t *vn)
{
	size_t k = strlen(key);

	if (!starts(s, n, key))
		return false;
	s += k;
	n -= k;
	while (n && *s == ' ') {
		s++;
		n--;
	}
	if (!n || *s != ':')
		return false;
	*v = s + 1;
	*vn = n - 1;
	trim(v, vn);
	return true;
}

static bool
read_long(const char *s, size_t n, long long *out)
{
	long long v = 0;
	size_t i = 0;
	bool neg = n && s[0] == '-';

	if (neg)
		i++;
	if (i == n || n - i > 18)
		return false;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return true;
}

unsigned
ftl_types(const char *s, size_t n, size_t *unknown)
{
	unsigned bits = 0;

	while (n) {
		const char *comma = memchr(s, ',', n);
		size_t len = comma ? (size_t)(comma - s) : n;
		const char *w = s;
		size_t wn = len;
		size_t k;

		trim(&w, &wn);
		for (k = 0; k < sizeof(type_names) / sizeof(*type_names); k++)
			if (strlen(type_names[k].name) == wn &&
			    !memcmp(type_names[k].name, w, wn))
				break;
		if (k == sizeof(type_names) / sizeof(*type_names)) {
			if (wn) {
				bits |= 1u << RS_JANK_UNKNOWN;
				if (unknown)
					(*unknown)++;
			}
		} else if (type_names[k].type >= 0) {
			bits |= 1u << type_names[k].type;
		}
		if (!comma)
			break;
		s += len + 1;
		n -= len + 1;
	}
	return bits;
}

/* "Layer - NAME [*] " -> NAME */
static void
add_layer(struct ftl_dump *d, const char *s, size_t n)
{
	struct ftl_frame *f;

	trim(&s, &n);
	if (n >= 3 && !memcmp(s + n - 3, "[*]", 3)) {
		n -= 3;
		trim(&s, &n);
	}
	XALLOC_GROW(d->frames, d->nr + 1, d->alloc);
	f = &d->frames[d->nr++];
	memset(f, 0, sizeof(*f));
	f->layer = xstrndup(s, n);
	f->token = -1;
	f->pid = -1;
}

/* A line of a layer's block: its indented "Key : value" lines. */
static void
layer_line(struct ftl_dump *d, struct ftl_frame *f, const char *s, size_t n)
{
	const char *v;
	size_t vn, unknown = 0;
	long long x;

	if (value_of(s, n, "Token", &v, &vn) && read_long(v, vn, &x))
		f->token = x;
	else if (value_of(s, n, "Owner Pid", &v, &vn) && read_long(v, vn, &x)
	    && x >= 0 && x <= 0x7fffffff)
		f->pid = (int)x;
	else if (value_of(s, n, "Present State", &v, &vn))
		f->dropped = vn == 7 && !memcmp(v, "Dropped", 7);
	else if (value_of(s, n, "Jank Type", &v, &vn)) {
		f->types = ftl_types(v, vn, &unknown);
		if (unknown && !d->unknown_name)
			d->unknown_name = xstrndup(v, vn);
		d->unknown_names += unknown;
	}
}

void
ftl_parse(struct ftl_dump *d, const char *buf, size_t len)
{
	const char *pos = buf, *end = buf + len;
	struct ftl_frame *cur = NULL;
	struct text_line l;

	while (text_next_line(&pos, end, &l)) {
		const char *s = l.s;
		size_t n = l.n, lead = 0;

		while (lead < n && (s[lead] == ' ' || s[lead] == '\t'))
			lead++;
		s += lead;
		n -= lead;
		if (starts(s, n, "Display Frame")) {
			d->display_frames++;
			cur = NULL;
		} else if (starts(s, n, "Layer - ")) {
			add_layer(d, s + 8, n - 8);
			cur = &d->frames[d->nr - 1];
		} else if (cur && lead) {
			layer_line(d, cur, s, n);
		} else if (!lead && n) {
			/* The display frame's own lines: not a layer's. */
			cur = NULL;
			if (starts(s, n, "Vsync Period:") &&
			    isnan(d->vsync_period_ms))
				read_period(d, s, n);
		}
	}
}

static bool
is_app(const struct ftl_frame *f, const char *package, const int *pids,
    size_t nr_pids)
{
	if (!package || !*package)
		return true;
	if (strstr(f->layer, package))
		return true;
	for (size_t i = 0; i < nr_pids; i++)
		if (f->pid >= 0 && f->pid == pids[i])
			return true;
	return false;
}

void
ftl_count(const struct ftl_dump *d, const char *package, const int *pids,
    size_t nr_pids, int64_t first_token, struct rs_jank_types *out)
{
	rs_jank_types_init(out);
	out->present = true;
	out->frames = out->janky = 0;
	for (int t = 0; t < RS_NR_JANK_TYPES; t++)
		out->count[t] = 0;
	for (size_t i = 0; i < d->nr; i++) {
		const struct ftl_frame *f = &d->frames[i];

		if (f->dropped || !is_app(f, package, pids, nr_pids))
			continue;
		if (first_token >= 0 && f->token >= 0 && f->token < first_token)
			continue;
		out->frames++;
		if (!f->types)
			continue;
		out->janky++;
		for (int t = 0; t < RS_NR_JANK_TYPES; t++)
			if (f->types & (1u << t))
				out->count[t]++;
	}
}

/* The scene's first frame: the smallest vsync id of the app's rows. */
static int64_t
first_vsync_id(const char *gfxinfo, size_t len, const char *package)
{
	struct gfx_dump g;
	struct fst_dump f;
	int64_t first = -1;

	gfx_dump_init(&g);
	fst_dump_init(&f);
	gfx_dump_parse(&g, gfxinfo, len, package);
	if (g.section)
		fst_parse(&f, g.section, g.section_len);
	for (size_t i = 0; i < f.nr; i++) {
		int64_t id = f.frames[i].v[FST_VSYNC_ID];

		if (id > 0 && (first < 0 || id < first))
			first = id;
	}
	fst_dump_release(&f);
	gfx_dump_release(&g);
	return first;
}

static void
warn_unknown(const struct source_ctx *ctx, const struct rs_scene *sc,
    const char *src, const struct ftl_dump *d)
{
	if (d->unknown_names)
		source_warn(ctx, sc, src, "%zu SurfaceFlinger jank type "
		    "names jankgate does not know were counted as unknown, "
		    "the first in '%.80s'", d->unknown_names,
		    d->unknown_name);
}

int
frametimeline_scene_end(struct source_ctx *ctx, struct rs_scene *sc,
    const char *gfxinfo, size_t len)
{
	struct adb_shell_result res;
	struct ftl_dump d;
	int64_t first;
	int rc;

	if (!ctx->dev)
		return 0;
	if (ctx->sdk < MIN_SDK) {
		struct strbuf msg = STRBUF_INIT;

		if (ctx->sdk > 0)
			strbuf_addf(&msg, "jank types: not available on API "
			    "%d (SurfaceFlinger's FrameTimeline needs API %d)",
			    ctx->sdk, MIN_SDK);
		else
			strbuf_addf(&msg, "jank types: not read (the API "
			    "level is unknown; SurfaceFlinger's FrameTimeline "
			    "needs API %d)", MIN_SDK);
		/* Once per run, not once per scene; a fact about the
		 * phone, not a fault: a note. */
		if (ctx->results)
			results_add_note(ctx->results, SRC, NULL, msg.buf);
		strbuf_release(&msg);
		return 0;
	}
	adb_shell_result_init(&res);
	rc = adb_shell(ctx->dev, DUMP_CMD, &res);
	if (rc) {
		adb_shell_result_release(&res);
		return rc;
	}
	if (res.exit_code != 0) {
		source_warn(ctx, sc, SRC, "jank types: '%s' exited with status "
		    "%d", DUMP_CMD, res.exit_code);
		adb_shell_result_release(&res);
		return 0;
	}
	ftl_dump_init(&d);
	ftl_parse(&d, res.out.buf, res.out.len);
	/* "Can't find service: SurfaceFlinger" goes to stderr, status 0. */
	if (!d.display_frames && res.err.len) {
		size_t n = strcspn(res.err.buf, "\n");

		source_warn(ctx, sc, SRC, "jank types: '%s' said '%.*s'",
		    DUMP_CMD, (int)(n > 120 ? 120 : n), res.err.buf);
		ftl_dump_release(&d);
		adb_shell_result_release(&res);
		return 0;
	}
	/* No display frame at all is a valid dump: nothing janked. */
	first = first_vsync_id(gfxinfo, len, ctx->package);
	if (first < 0 && d.nr)
		source_warn(ctx, sc, SRC, "jank types: the scene's first "
		    "vsync id is unknown (no PROFILEDATA row has one): every "
		    "frame of the app SurfaceFlinger kept was counted");
	ftl_count(&d, ctx->package, ctx->app_pids, ctx->nr_app_pids, first,
	    &sc->jank_types);
	warn_unknown(ctx, sc, SRC, &d);
	ftl_dump_release(&d);
	adb_shell_result_release(&res);
	return 0;
}

/*
 * `jankgate parse frametimeline FILE`: one scene named after the file,
 * counting every frame of the app's layers (every layer without --app).
 */
static int
frametimeline_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	struct rs_scene *sc = rs_iteration_add_scene(ctx->it, name);
	struct ftl_dump d;

	ftl_dump_init(&d);
	ftl_parse(&d, buf, len);
	if (!d.display_frames && !d.nr) {
		bool blank = true;

		for (size_t i = 0; i < len && blank; i++)
			blank = buf[i] == ' ' || buf[i] == '\t' ||
			    buf[i] == '\r' || buf[i] == '\n';
		if (!blank) {
			source_warn_unread(ctx, "frametimeline", name, buf,
			    len, "a SurfaceFlinger --frametimeline -jank "
			    "dump");
			ftl_dump_release(&d);
			return 0;
		}
	}
	ftl_count(&d, ctx->package, ctx->app_pids, ctx->nr_app_pids, -1,
	    &sc->jank_types);
	if (!ctx->package)
		source_warn(ctx, sc, "frametimeline", "no app was given "
		    "(--app PKG): the frames of every layer were counted");
	warn_unknown(ctx, sc, "frametimeline", &d);
	ftl_dump_release(&d);
	return 0;
}

/*
 * Only for `jankgate parse`: in a run the gfxinfo source reads the dump
 * at each scene's end, so there is nothing to configure.
 */
const struct source source_frametimeline = {
	.name = "frametimeline",
	.summary = "SurfaceFlinger's jank types of the app's frames (dumpsys "
	    "SurfaceFlinger --frametimeline -jank, API 31+; read by gfxinfo "
	    "at each scene's end)",
	.fills = SOURCE_JANK_TYPES,
	.parse_only = true,
	.parse = frametimeline_parse,
};
