/*
 * cmd_wm.c: `wm size` and `wm density`, the window manager's screen
 * geometry (also reached as `cmd window`).
 *
 *   wm size                 Physical size: 1080x2400
 *                           Override size: 720x1600      (when set)
 *   wm size WxH | reset     set or clear the override; no output
 *   wm density              Physical density: 420
 *                           Override density: 360        (when set)
 *   wm density N | reset
 *
 * The override changes what these print and `dumpsys display`'s logical
 * display; the apps' models keep their physical coordinates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "simdev.h"
#include "simio.h"
#include "banned.h"

static int
parse_dim(const char *s, const char *stop, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || (stop ? end != stop : *end != '\0') ||
	    v < 1 || v > 16384)
		return -1;
	*out = (int)v;
	return 0;
}

static int
wm_size(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct simdev *dev = ctx->dev;
	int w = 0, h = 0, ow, oh;
	const char *x;

	if (argc > 2 && strcmp(argv[2], "reset")) {
		x = strchr(argv[2], 'x');
		if (!x || parse_dim(argv[2], x, &w) || parse_dim(x + 1, NULL,
		    &h)) {
			simio_printf(ctx->io, 2, "Error: bad size %s\n",
			    argv[2]);
			return 255;
		}
	}
	simdev_lock(dev);
	if (argc > 2) {
		dev->ov_width = w;
		dev->ov_height = h;
	}
	ow = dev->ov_width;
	oh = dev->ov_height;
	simdev_unlock(dev);
	if (argc > 2)
		return 0;
	simio_printf(ctx->io, 1, "Physical size: %dx%d\n", dev->width,
	    dev->height);
	if (ow)
		simio_printf(ctx->io, 1, "Override size: %dx%d\n", ow, oh);
	return 0;
}

static int
wm_density(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct simdev *dev = ctx->dev;
	int d = 0, od;

	if (argc > 2 && strcmp(argv[2], "reset") &&
	    parse_dim(argv[2], NULL, &d)) {
		simio_printf(ctx->io, 2, "Error: bad density %s\n", argv[2]);
		return 255;
	}
	simdev_lock(dev);
	if (argc > 2)
		dev->ov_density = d;
	od = dev->ov_density;
	simdev_unlock(dev);
	if (argc > 2)
		return 0;
	simio_printf(ctx->io, 1, "Physical density: %d\n", dev->density);
	if (od)
		simio_printf(ctx->io, 1, "Override density: %d\n", od);
	return 0;
}

int
cmd_wm(struct simcmd_ctx *ctx, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "size"))
		return wm_size(ctx, argc, argv);
	if (!strcmp(sub, "density"))
		return wm_density(ctx, argc, argv);
	simio_puts(ctx->io, 2, "usage: wm size [WxH|reset] | density "
	    "[N|reset]\n");
	return 255;
}
