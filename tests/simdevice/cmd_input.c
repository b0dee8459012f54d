/*
 * cmd_input.c: `input`, the shell's way of touching the screen.
 *
 *   input [-d DISPLAY] [SOURCE] tap X Y
 *   input [SOURCE] swipe X1 Y1 X2 Y2 [MS]            (default 300 ms)
 *   input [SOURCE] draganddrop X1 Y1 X2 Y2 [MS]
 *   input [SOURCE] keyevent [--longpress|--doubletap] KEY...
 *   input [SOURCE] text TEXT
 *   input [SOURCE] motionevent DOWN|MOVE|UP|CANCEL X Y
 *   input [SOURCE] press | roll DX DY
 *
 * The event goes to the app in front (none: the launcher, where nothing
 * is modelled).  Like the real command, each takes device time: a VM
 * start, then the gesture; a swipe returns when the finger lifts, so a
 * fling is still rendering afterwards.  A swipe that does not move is a
 * long press.  KEYCODE_BACK (4) and KEYCODE_HOME (3) act; other keys and
 * text are accepted and render nothing.  The crash-on and anr-on faults
 * match the command line or the touched element's text, resource-id or
 * content-desc.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "appmodel.h"
#include "apprun.h"
#include "commands.h"
#include "error.h"
#include "simapps.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

#define MS		1000000LL
#define START_MS	60	/* app_process start before the first event */
#define TAP_PRESS_MS	50
#define SWIPE_MS	300	/* InputShellCommand's default duration */
#define KEY_MS		20
#define CHAR_MS		8

enum gesture_kind { G_TAP, G_SWIPE, G_BACK, G_HOME };

struct gesture {
	enum gesture_kind kind;
	int x1, y1, x2, y2;
	double ms;		/* press or swipe length */
};

static const char *const sources[] = {
	"touchscreen", "touchpad", "touchnavigation", "mouse", "stylus",
	"keyboard", "dpad", "gamepad", "trackball", "joystick",
	"rotaryencoder", NULL,
};

static int
is_source(const char *w)
{
	for (size_t i = 0; sources[i]; i++)
		if (!strcmp(w, sources[i]))
			return 1;
	return 0;
}

static int
parse_int(const char *s, int *out)
{
	char *end;
	double v;

	/* input takes floats for coordinates and rounds them. */
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < -1e6 || v > 1e6)
		return -1;
	*out = (int)(v < 0 ? v - 0.5 : v + 0.5);
	return 0;
}

static int
parse_ints(char **argv, int n, int *out)
{
	for (int i = 0; i < n; i++)
		if (parse_int(argv[i], &out[i]))
			return -1;
	return 0;
}

/* The element under (x, y) on the app's resumed activity, or NULL. */
static const struct appmodel_element *
element_at(struct apprun *r, int x, int y)
{
	const struct appmodel_activity *a;

	a = appmodel_activity(apprun_model(r), apprun_top(r));
	return a ? appmodel_element_at(a, x, y) : NULL;
}

static void
join_args(struct strbuf *out, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (i)
			strbuf_addch(out, ' ');
		strbuf_addstr(out, argv[i]);
	}
}

/*
 * Check the crash/ANR faults for gesture `g` on `r` at `at`; returns 1 when
 * one fired (and the gesture must not run).
 */
static int
fault_fired(struct simcmd_ctx *ctx, struct apprun *r, const struct gesture *g,
    const char *line, long long at)
{
	const struct appmodel_element *e = NULL;
	const char *names[3] = { NULL, NULL, NULL };
	struct faults f;
	int fired = 1;

	if (g->kind == G_TAP || g->kind == G_SWIPE)
		e = element_at(r, g->x1, g->y1);
	if (e) {
		names[0] = e->text;
		names[1] = e->id;
		names[2] = e->desc;
	}
	faults_init(&f);
	simdev_faults(ctx->dev, &f);
	if (faults_interaction(&f.crash_on, line, names, 3))
		simapps_crash(ctx->dev->apps, r, at + (long long)(g->ms * MS),
		    e && *e->text ? e->text : line);
	else if (faults_interaction(&f.anr_on, line, names, 3))
		simapps_anr(ctx->dev->apps, r, at, g->kind == G_BACK ||
		    g->kind == G_HOME ? "KeyEvent" : "MotionEvent");
	else
		fired = 0;
	faults_release(&f);
	return fired;
}

/* Hand `g` to the app in front at device time `at`. */
static void
deliver(struct simcmd_ctx *ctx, const struct gesture *g, const char *line,
    long long at)
{
	struct apprun *r;

	simdev_lock(ctx->dev);
	r = simapps_front(ctx->dev->apps);
	if (!r || simapps_hung(ctx->dev->apps, r) ||
	    fault_fired(ctx, r, g, line, at))
		goto out;
	switch (g->kind) {
	case G_TAP:
		apprun_tap(r, g->x1, g->y1, g->ms, at);
		break;
	case G_SWIPE:
		if (g->x1 == g->x2 && g->y1 == g->y2)
			apprun_tap(r, g->x1, g->y1, g->ms, at);
		else
			apprun_swipe(r, g->x1, g->y1, g->x2, g->y2, g->ms, at);
		break;
	case G_BACK:
		apprun_back(r, at);
		break;
	case G_HOME:
		apprun_home(r, at);
		break;
	}
out:
	jg_error_clear();
	simdev_unlock(ctx->dev);
}

/* Run `g`, then let the command's time pass.  Returns the exit status. */
static int
run_gesture(struct simcmd_ctx *ctx, const struct gesture *g, int argc,
    char **argv)
{
	struct strbuf line = STRBUF_INIT;
	long long now = simdev_now_ns(ctx->dev);

	join_args(&line, argc, argv);
	deliver(ctx, g, line.buf, now + START_MS * MS);
	strbuf_release(&line);
	simdev_spend(ctx->dev, ctx->io, START_MS + g->ms);
	return 0;
}

static int
usage(struct simcmd_ctx *ctx, const char *what)
{
	simio_printf(ctx->io, 2, "Error: Invalid arguments for command: %s\n",
	    what);
	simio_puts(ctx->io, 2,
	    "Usage: input [<source>] <command> [<arg>...]\n");
	return 1;
}

/* KEYCODE_BACK / KEYCODE_HOME by name or number; other keys are 0. */
static int
key_code(const char *k)
{
	if (!strncmp(k, "KEYCODE_", 8))
		k += 8;
	if (!strcmp(k, "BACK") || !strcmp(k, "4"))
		return 4;
	if (!strcmp(k, "HOME") || !strcmp(k, "3"))
		return 3;
	return 0;
}

static int
input_keyevent(struct simcmd_ctx *ctx, int argc, char **argv, int first)
{
	struct gesture g = { G_BACK, 0, 0, 0, 0, KEY_MS };
	int i, keys = 0;

	for (i = first + 1; i < argc; i++) {
		int code;

		if (argv[i][0] == '-' && argv[i][1] == '-')
			continue;
		keys++;
		code = key_code(argv[i]);
		if (!code) {
			simdev_spend(ctx->dev, ctx->io, KEY_MS);
			continue;
		}
		g.kind = code == 4 ? G_BACK : G_HOME;
		if (run_gesture(ctx, &g, argc, argv))
			return 1;
	}
	return keys ? 0 : usage(ctx, "keyevent");
}

/* motionevent: DOWN remembers, UP makes a tap or a swipe of the path. */
static int
input_motion(struct simcmd_ctx *ctx, int argc, char **argv, int first)
{
	struct simdev *dev = ctx->dev;
	struct gesture g = { G_TAP, 0, 0, 0, 0, 0 };
	const char *act = first + 1 < argc ? argv[first + 1] : "";
	long long now = simdev_now_ns(dev) + START_MS * MS;
	int xy[2], up = 0;

	if (argc - first < 4 || parse_ints(argv + first + 2, 2, xy))
		return usage(ctx, "motionevent");
	simdev_lock(dev);
	if (!strcmp(act, "DOWN")) {
		dev->touch_down = 1;
		dev->touch_x = xy[0];
		dev->touch_y = xy[1];
		dev->touch_ns = now;
	} else if (!strcmp(act, "UP") && dev->touch_down) {
		g.x1 = dev->touch_x;
		g.y1 = dev->touch_y;
		g.x2 = xy[0];
		g.y2 = xy[1];
		g.kind = g.x1 == g.x2 && g.y1 == g.y2 ? G_TAP : G_SWIPE;
		g.ms = (double)(now - dev->touch_ns) / 1e6;
		now = dev->touch_ns;
		dev->touch_down = 0;
		up = 1;
	} else if (!strcmp(act, "CANCEL"))
		dev->touch_down = 0;
	else if (strcmp(act, "MOVE") && strcmp(act, "UP")) {
		simdev_unlock(dev);
		return usage(ctx, "motionevent");
	}
	simdev_unlock(dev);
	if (up) {
		struct strbuf line = STRBUF_INIT;

		join_args(&line, argc, argv);
		deliver(ctx, &g, line.buf, now);
		strbuf_release(&line);
	}
	simdev_spend(ctx->dev, ctx->io, START_MS);
	return 0;
}

int
cmd_input(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct gesture g = { G_TAP, 0, 0, 0, 0, TAP_PRESS_MS };
	const char *cmd;
	int i = 1, xy[5];

	if (i + 1 < argc && !strcmp(argv[i], "-d"))
		i += 2;
	if (i < argc && is_source(argv[i]))
		i++;
	if (i >= argc)
		return usage(ctx, "");
	cmd = argv[i];
	if (!strcmp(cmd, "tap")) {
		if (argc - i != 3 || parse_ints(argv + i + 1, 2, xy))
			return usage(ctx, cmd);
		g.x1 = g.x2 = xy[0];
		g.y1 = g.y2 = xy[1];
		return run_gesture(ctx, &g, argc, argv);
	}
	if (!strcmp(cmd, "swipe") || !strcmp(cmd, "draganddrop")) {
		xy[4] = SWIPE_MS;
		if ((argc - i != 5 && argc - i != 6) ||
		    parse_ints(argv + i + 1, argc - i - 1, xy) || xy[4] < 0)
			return usage(ctx, cmd);
		g = (struct gesture){ G_SWIPE, xy[0], xy[1], xy[2], xy[3],
		    xy[4] };
		return run_gesture(ctx, &g, argc, argv);
	}
	if (!strcmp(cmd, "keyevent"))
		return input_keyevent(ctx, argc, argv, i);
	if (!strcmp(cmd, "motionevent"))
		return input_motion(ctx, argc, argv, i);
	if (!strcmp(cmd, "text")) {
		if (argc - i < 2)
			return usage(ctx, cmd);
		simdev_spend(ctx->dev, ctx->io, START_MS +
		    CHAR_MS * (double)strlen(argv[i + 1]));
		return 0;
	}
	if (!strcmp(cmd, "press") || !strcmp(cmd, "roll")) {
		simdev_spend(ctx->dev, ctx->io, START_MS);
		return 0;
	}
	simio_printf(ctx->io, 2, "Error: Unknown command: %s\n", cmd);
	return 1;
}
