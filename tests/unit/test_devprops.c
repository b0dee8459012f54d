/*
 * test_devprops.c: device identity parsers and the device key.
 */
#include <math.h>
#include <string.h>

#include "unit.h"
#include "devprops.h"
#include "error.h"
#include "strbuf.h"

/* getprop's "[key]: [value]" listing fills the known fields. */
static void
getprop_listing_fills_fields(void **state)
{
	struct device_props p;
	const char *text =
	    "[dalvik.vm.heapsize]: [512m]\n"
	    "[ro.build.fingerprint]: [google/panther/panther:14/UQ1A/1:user/release-keys]\n"
	    "[ro.build.version.release]: [14]\n"
	    "[ro.build.version.sdk]: [34]\n"
	    "[ro.product.cpu.abi]: [arm64-v8a]\n"
	    "[ro.product.manufacturer]: [Google]\n"
	    "[ro.product.model]: [Pixel 7]\n"
	    "[broken line\n";

	device_props_init(&p);
	assert_int_equal(device_props_parse_getprop(&p, text), 6);
	assert_string_equal(p.model, "Pixel 7");
	assert_string_equal(p.manufacturer, "Google");
	assert_string_equal(p.release, "14");
	assert_int_equal(p.sdk, 34);
	assert_string_equal(p.abi, "arm64-v8a");
	device_props_release(&p);
}

/* The override size wins over the physical size; garbage is not found. */
static void
wm_size_prefers_override(void **state)
{
	int w = 0, h = 0;

	assert_int_equal(device_props_parse_wm_size(
	    "Physical size: 1080x2400\n", &w, &h), 0);
	assert_int_equal(w, 1080);
	assert_int_equal(h, 2400);
	assert_int_equal(device_props_parse_wm_size(
	    "Physical size: 1440x3120\nOverride size: 1080x2340\n", &w, &h), 0);
	assert_int_equal(w, 1080);
	assert_int_equal(h, 2340);
	assert_int_equal(device_props_parse_wm_size(
	    "/system/bin/sh: wm: not found\n", &w, &h), JG_ENOTFOUND);
}

struct refresh_case {
	const char *text;
	double hz;
	int rc;
};

/* The active mode's rate, from each layout the framework has used. */
static void
refresh_from_each_layout(void **state)
{
	static const struct refresh_case cases[] = {
		/* API 30..33: modeId selects among supportedModes */
		{ "  DisplayDeviceInfo{\"Built-in Screen\": uniqueId=\"local:0\", "
		  "1080 x 2400, modeId 2, defaultModeId 1, supportedModes "
		  "[{id=1, width=1080, height=2400, fps=60.000004}, {id=2, "
		  "width=1080, height=2400, fps=90.0}], colorMode 0}\n", 90, 0 },
		/* API 34: renderFrameRate may be below the mode's rate */
		{ "DisplayDeviceInfo{\"Built-in Screen\": 1080 x 2400, modeId 2, "
		  "renderFrameRate 60.000004, defaultModeId 1, supportedModes "
		  "[{id=1, width=1080, height=2400, fps=120.0}, {id=2, "
		  "width=1080, height=2400, fps=120.0}]}\n", 60, 0 },
		/* a single mode */
		{ "DisplayDeviceInfo{\"Built-in Screen\": 720 x 1280, modeId 1, "
		  "defaultModeId 1, supportedModes [{id=1, width=720, "
		  "height=1280, fps=60.000004}]}\n", 60, 0 },
		/* old builds */
		{ "  PhysicalDisplayInfo{1080 x 1920, 59.998 fps, density 2.625}\n",
		  60, 0 },
		{ "nothing here\n", 0, JG_ENOTFOUND },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double hz = 0;

		assert_int_equal(device_props_parse_refresh(cases[i].text, &hz),
		    cases[i].rc);
		if (!cases[i].rc && fabs(hz - cases[i].hz) > 0.01)
			fail_msg("case %zu: %.3f Hz, expected %.3f", i, hz,
			    cases[i].hz);
	}
}

/* The key is lower-case, dash-separated and says unknown where unknown. */
static void
key_is_stable_and_safe(void **state)
{
	struct device_props p;
	struct strbuf sb = STRBUF_INIT;

	device_props_init(&p);
	p.manufacturer = strdup("Google");
	p.model = strdup("Pixel 7 (5G)");
	p.sdk = 34;
	p.refresh_hz = 90.0;
	device_props_key(&sb, &p);
	assert_string_equal(sb.buf, "google-pixel-7-5g-api34-90hz");
	strbuf_reset(&sb);
	free(p.model);
	p.model = strdup("../../etc/passwd; $(id)");
	p.refresh_hz = 59.999;
	device_props_key(&sb, &p);
	assert_string_equal(sb.buf, "google-etc-passwd-id-api34-60hz");
	strbuf_reset(&sb);
	device_props_release(&p);
	device_props_key(&sb, &p);
	assert_string_equal(sb.buf, "unknown-unknown-apiunknown-unknownhz");
	strbuf_release(&sb);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(getprop_listing_fills_fields),
	cmocka_unit_test(wm_size_prefers_override),
	cmocka_unit_test(refresh_from_each_layout),
	cmocka_unit_test(key_is_stable_and_safe),
};
JG_UNIT_GROUP(devprops, tests, NULL, NULL)
