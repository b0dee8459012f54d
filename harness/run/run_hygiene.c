/*
 * run_hygiene.c: the preflight before measuring: read, recorded and enforced.
 *
 * A phone that is hot, nearly flat, locked or animating at 5x does not
 * measure the app, so before the first iteration each device is asked,
 * everything is written under "hygiene" in its results, and a value that
 * breaks a configured devices.* limit refuses the device (exit 3, the
 * reasons in run.errors).  A value the device does not report is recorded
 * as null and refuses nothing: the limit cannot be checked, and refusing
 * every API 28 phone for lacking a thermal service would help nobody.
 *
 * What it asks: dumpsys battery, thermalservice (API 29+), power,
 * display and window, and the three animation scales from `settings get
 * global` (android/dumpsys.c draws each output it reads).
 *
 * `dumpsys gfxinfo` (no package: every process, and its Uptime line) sets
 * the device clock's offset from the host's before the first iteration.
 * The screen size and refresh rate come from devprops (wm size, dumpsys
 * display) and are recorded as the extras screen_width, screen_height and
 * refresh_hz.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "config.h"
#include "results.h"
#include "run_int.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"
#include "dumpsys.h"

int
run_hygiene_check(const struct config *cfg, const struct rs_hygiene *h,
    double refresh_hz, struct strlist *why)
{
	size_t before = why->nr;
	int want_hz = cfg->devices.refresh_hz;

	if (h->battery_pct < cfg->devices.min_battery_pct)
		strlist_addf(why, "battery at %.0f%% is below "
		    "devices.min_battery_pct (%d%%)", h->battery_pct,
		    cfg->devices.min_battery_pct);
	if (h->thermal_status > cfg->devices.max_thermal_status)
		strlist_addf(why, "thermal status %.0f is above "
		    "devices.max_thermal_status (%d)", h->thermal_status,
		    cfg->devices.max_thermal_status);
	if (cfg->devices.require_screen_on && h->screen_on == 0)
		strlist_add(why, "the screen is off "
		    "(devices.require_screen_on)");
	if (cfg->devices.require_screen_on && h->unlocked == 0)
		strlist_add(why, "the device is locked "
		    "(devices.require_screen_on)");
	if (cfg->devices.require_animations_off && (h->animator_scale > 0 ||
	    h->transition_scale > 0 || h->window_scale > 0))
		strlist_addf(why, "animations are on (animator %g, transition "
		    "%g, window %g; devices.require_animations_off)",
		    h->animator_scale, h->transition_scale, h->window_scale);
	if (want_hz > 0 && isnan(refresh_hz))
		strlist_addf(why, "refresh rate unknown; devices.refresh_hz "
		    "asks for %d Hz", want_hz);
	else if (want_hz > 0 && !(fabs(refresh_hz - want_hz) < 0.5))
		strlist_addf(why, "refresh rate %.0f Hz is not "
		    "devices.refresh_hz (%d Hz)", refresh_hz, want_hz);
	return (int)(why->nr - before);
}

/* The stdout of `cmd` in `out` (reset); an exit status is not an error. */
static int
query(struct run_dev *d, const char *cmd, struct strbuf *out)
{
	struct adb_shell_result r;
	int rc;

	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd, &r);
	strbuf_setlen(out, 0);
	if (!rc && r.exit_code == 0)
		strbuf_add(out, r.out.buf, r.out.len);
	adb_shell_result_release(&r);
	return rc;
}

int
run_hygiene_read(struct run_dev *d)
{
	static const char *const scales[] = {
		"animator_duration_scale", "transition_animation_scale",
		"window_animation_scale",
	};
	struct rs_hygiene *h = &d->res->hygiene;
	double *slots[] = { &h->animator_scale, &h->transition_scale,
		&h->window_scale };
	struct strbuf out = STRBUF_INIT, power = STRBUF_INIT;
	struct strbuf cmd = STRBUF_INIT;
	double temp;
	int rc;

	if ((rc = query(d, "dumpsys battery", &out)))
		goto out;
	h->battery_pct = dumpsys_battery_level(out.buf);
	temp = dumpsys_battery_temp_c(out.buf);
	if (!isnan(temp))
		rs_hygiene_set_number(h, "battery_temp_c", temp);
	if (d->props.sdk == 0 || d->props.sdk >= 29) {
		if ((rc = query(d, "dumpsys thermalservice", &out)))
			goto out;
		h->thermal_status = dumpsys_thermal_status(out.buf);
	}
	for (size_t i = 0; i < 3; i++) {
		strbuf_setlen(&cmd, 0);
		strbuf_addf(&cmd, "settings get global %s", scales[i]);
		if ((rc = query(d, cmd.buf, &out)))
			goto out;
		*slots[i] = dumpsys_animation_scale(out.buf);
	}
	if ((rc = query(d, "dumpsys power", &power)) ||
	    (rc = query(d, "dumpsys display", &out)))
		goto out;
	h->screen_on = dumpsys_screen_on(power.buf, out.buf);
	if ((rc = query(d, "dumpsys window", &out)))
		goto out;
	h->unlocked = dumpsys_unlocked(out.buf);
	if (d->props.width > 0) {
		rs_hygiene_set_number(h, "screen_width", d->props.width);
		rs_hygiene_set_number(h, "screen_height", d->props.height);
	}
	if (d->props.refresh_hz > 0)
		rs_hygiene_set_number(h, "refresh_hz", d->props.refresh_hz);
	/*
	 * The device clock, for iterations that start before any scene has
	 * read it: gfxinfo without a package always prints its Uptime.
	 */
	{
		double t0 = run_now_ms();

		if ((rc = query(d, "dumpsys gfxinfo", &out)))
			goto out;
		run_dev_clock(d, out.buf, out.len, (t0 + run_now_ms()) / 2);
	}
out:
	strbuf_release(&out);
	strbuf_release(&power);
	strbuf_release(&cmd);
	return rc;
}
