/*
 * devprops.h: what a device is: model, Android version, screen, refresh rate.
 *
 * `jankgate devices` lists these, `run` records them under "device" in
 * results.json, and the baseline store files results by the device key
 * derived from them (manufacturer-model-apiN-RRhz), because frame times are
 * only comparable on the same class of device at the same refresh rate.
 *
 * The text parsers are separate from the queries so they are unit tested
 * over captured output without a device.
 */
#ifndef JG_DEVPROPS_H
#define JG_DEVPROPS_H

#include <stddef.h>

struct adb_device;
struct strbuf;

struct device_props {
	char *manufacturer;
	char *model;
	char *release;		/* "14" */
	char *fingerprint;
	char *abi;
	int sdk;		/* 0: unknown */
	int width, height;	/* 0: unknown; the override size when set */
	double refresh_hz;	/* 0: unknown */
};

void device_props_init(struct device_props *p);
void device_props_release(struct device_props *p);

/*
 * Ask the device with three shell commands (getprop, wm size, dumpsys
 * display), none of which disturbs the app.  Properties the device does not
 * answer stay unknown; only a failure to talk to the device is an error
 * (the adb module's code and message).
 */
int device_props_query(struct device_props *p, struct adb_device *dev);

/*
 * Parse `getprop` output ("[key]: [value]" lines) into `p`.  Unknown keys
 * are ignored; returns the number of properties recognised.
 */
int device_props_parse_getprop(struct device_props *p, const char *text);

/*
 * Parse `wm size` output.  "Override size:" wins over "Physical size:",
 * since apps draw at the override.  Returns 0 or JG_ENOTFOUND.
 */
int device_props_parse_wm_size(const char *text, int *width, int *height);

/*
 * Parse the active refresh rate from `dumpsys display`: the active mode's
 * fps in DisplayDeviceInfo (API 23+), "renderFrameRate" when present
 * (API 34 may render below the mode rate), else PhysicalDisplayInfo (older
 * builds).  Returns 0 with *hz rounded to 0.01, or JG_ENOTFOUND.
 */
int device_props_parse_refresh(const char *text, double *hz);

/*
 * The device key: "<manufacturer>-<model>-api<sdk>-<hz>hz", lower case, runs
 * of anything but [a-z0-9] turned into one '-'; unknown parts are "unknown".
 * E.g. "google-pixel-7-api34-90hz".  Appends to `out`.
 */
void device_props_key(struct strbuf *out, const struct device_props *p);

#endif
