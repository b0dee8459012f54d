/*
 * devprops.c: device identity from getprop, wm size and dumpsys display.
 *
 * Formats read here (real devices, API 24..34):
 *
 *   getprop:          [ro.product.model]: [Pixel 7]
 *   wm size:          Physical size: 1080x2400
 *                     Override size: 720x1600          (only when set)
 *   dumpsys display:  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:0",
 *                       1080 x 2400, modeId 2, renderFrameRate 90.0,
 *                       defaultModeId 1, supportedModes [{id=1, width=1080,
 *                       height=2400, fps=60.000004, ...}, {id=2, ...
 *                       fps=90.0, ...}], ...}
 *                     (renderFrameRate only on API 34; before API 23 the
 *                     rate is in "PhysicalDisplayInfo{1080 x 1920,
 *                     60.000004 fps, ...}")
 *
 * Rates like 60.000004 are rounded to 0.01 Hz so that the device key says
 * "60hz" and the same phone always gets the same key.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "devprops.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

void
device_props_init(struct device_props *p)
{
	memset(p, 0, sizeof(*p));
}

void
device_props_release(struct device_props *p)
{
	free(p->manufacturer);
	free(p->model);
	free(p->release);
	free(p->fingerprint);
	free(p->abi);
	device_props_init(p);
}

static void
set_str(char **slot, const char *v, size_t len)
{
	free(*slot);
	*slot = xstrndup(v, len);
}

int
device_props_parse_getprop(struct device_props *p, const char *text)
{
	static const struct {
		const char *key;
		size_t off;
	} strs[] = {
		{ "ro.product.manufacturer", offsetof(struct device_props,
		    manufacturer) },
		{ "ro.product.model", offsetof(struct device_props, model) },
		{ "ro.build.version.release", offsetof(struct device_props,
		    release) },
		{ "ro.build.fingerprint", offsetof(struct device_props,
		    fingerprint) },
		{ "ro.product.cpu.abi", offsetof(struct device_props, abi) },
	};
	const char *line = text;
	int found = 0;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *kend, *vstart, *vend;
		size_t llen = eol ? (size_t)(eol - line) : strlen(line);

		/* [key]: [value] */
		if (line[0] == '[' && (kend = memchr(line, ']', llen)) &&
		    (vstart = strstr(kend, ": [")) && vstart < line + llen &&
		    (vend = memchr(vstart + 3, ']', llen - (size_t)(vstart + 3 -
		    line)))) {
			size_t klen = (size_t)(kend - line - 1);
			const char *v = vstart + 3;
			size_t vlen = (size_t)(vend - v);

			for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]);
			    i++) {
				if (strlen(strs[i].key) == klen &&
				    !memcmp(strs[i].key, line + 1, klen)) {
					set_str((char **)((char *)p +
					    strs[i].off), v, vlen);
					found++;
				}
			}
			if (klen == 20 && !memcmp(line + 1,
			    "ro.build.version.sdk", 20)) {
				p->sdk = (int)strtol(v, NULL, 10);
				found++;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return found;
}

int
device_props_parse_wm_size(const char *text, int *width, int *height)
{
	const char *keys[] = { "Override size:", "Physical size:" };

	for (size_t i = 0; i < 2; i++) {
		const char *s = strstr(text, keys[i]);
		int w, h;

		if (s && sscanf(s + strlen(keys[i]), " %dx%d", &w, &h) == 2 &&
		    w > 0 && h > 0) {
			*width = w;
			*height = h;
			return 0;
		}
	}
	return jg_error_set(JG_ENOTFOUND, "no screen size in 'wm size' output");
}

static double
round_hz(double hz)
{
	return round(hz * 100) / 100;
}

/* The fps of mode `id` in a "supportedModes [...]" or "modes [...]" list. */
static int
mode_fps(const char *info, const char *info_end, int id, double *hz)
{
	char pat[32];
	const char *s;

	snprintf(pat, sizeof(pat), "{id=%d,", id);
	s = strstr(info, pat);
	if (!s || s > info_end)
		return -1;
	s = strstr(s, "fps=");
	if (!s || s > info_end)
		return -1;
	*hz = strtod(s + 4, NULL);
	return *hz > 0 ? 0 : -1;
}

int
device_props_parse_refresh(const char *text, double *hz)
{
	const char *info = strstr(text, "DisplayDeviceInfo{");
	const char *s;
	double v;

	if (info) {
		const char *end = strchr(info, '\n');

		if (!end)
			end = info + strlen(info);
		s = strstr(info, "renderFrameRate ");
		if (s && s < end && (v = strtod(s + 16, NULL)) > 0) {
			*hz = round_hz(v);
			return 0;
		}
		s = strstr(info, "modeId ");
		if (s && s < end &&
		    !mode_fps(info, end, (int)strtol(s + 7, NULL, 10), &v)) {
			*hz = round_hz(v);
			return 0;
		}
		s = strstr(info, "fps=");
		if (s && s < end && (v = strtod(s + 4, NULL)) > 0) {
			*hz = round_hz(v);
			return 0;
		}
	}
	s = strstr(text, "PhysicalDisplayInfo{");
	if (s) {
		int w, h;

		if (sscanf(s, "PhysicalDisplayInfo{%d x %d, %lf fps", &w, &h,
		    &v) == 3 && v > 0) {
			*hz = round_hz(v);
			return 0;
		}
	}
	return jg_error_set(JG_ENOTFOUND,
	    "no refresh rate in 'dumpsys display' output");
}

static void
key_part(struct strbuf *out, const char *s)
{
	int dash = 1;	/* no leading '-' */
	size_t start = out->len;

	for (; s && *s; s++) {
		int c = tolower((unsigned char)*s);

		if (isalnum(c) && c < 0x80) {
			strbuf_addch(out, c);
			dash = 0;
		} else if (!dash) {
			strbuf_addch(out, '-');
			dash = 1;
		}
	}
	while (out->len > start && out->buf[out->len - 1] == '-')
		strbuf_setlen(out, out->len - 1);
	if (out->len == start)
		strbuf_addstr(out, "unknown");
}

void
device_props_key(struct strbuf *out, const struct device_props *p)
{
	key_part(out, p->manufacturer);
	strbuf_addch(out, '-');
	key_part(out, p->model);
	if (p->sdk > 0)
		strbuf_addf(out, "-api%d", p->sdk);
	else
		strbuf_addstr(out, "-apiunknown");
	if (p->refresh_hz > 0)
		strbuf_addf(out, "-%.0fhz", p->refresh_hz);
	else
		strbuf_addstr(out, "-unknownhz");
}

int
device_props_query(struct device_props *p, struct adb_device *dev)
{
	struct adb_shell_result r;
	int rc;

	adb_shell_result_init(&r);
	rc = adb_shell(dev, "getprop", &r);
	if (rc)
		goto out;
	device_props_parse_getprop(p, r.out.buf);

	adb_shell_result_release(&r);
	adb_shell_result_init(&r);
	rc = adb_shell(dev, "wm size", &r);
	if (rc)
		goto out;
	if (r.exit_code == 0)
		device_props_parse_wm_size(r.out.buf, &p->width, &p->height);

	adb_shell_result_release(&r);
	adb_shell_result_init(&r);
	rc = adb_shell(dev, "dumpsys display", &r);
	if (rc)
		goto out;
	if (r.exit_code == 0)
		device_props_parse_refresh(r.out.buf, &p->refresh_hz);
out:
	adb_shell_result_release(&r);
	return rc;
}
