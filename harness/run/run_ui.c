/*
 * run_ui.c: finding views and activities on the device, outside scenes.
 *
 * `tap text|id|desc` and `wait text` read `uiautomator dump /dev/tty`
 * (uidump.c parses it; when a device prints no hierarchy to the tty the
 * dump goes through /sdcard/window_dump.xml instead).  `wait activity` and
 * `expect activity` read the resumed activity from `dumpsys activity
 * activities`.  `wait idle` outside a scene polls `dumpsys gfxinfo PKG`
 * (no reset) until "Total frames rendered" stops moving for
 * IDLE_QUIET_MS; an app with no process renders nothing and is idle.
 * android/dumpsys.c reads what those print, in every API level's wording.
 *
 * None of this may run inside a scene; the scenario parser refuses those
 * steps there and run_iter.c never calls in here between reset and
 * framestats.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "error.h"
#include "run_int.h"
#include "scenario.h"
#include "strbuf.h"
#include "uidump.h"
#include "banned.h"
#include "dumpsys.h"

#define POLL_MS		200	/* between activity / gfxinfo polls */
#define IDLE_QUIET_MS	300	/* frame count unchanged this long: idle */
#define DUMP_FILE	"/sdcard/window_dump.xml"

/* ---- on the device ---------------------------------------------------- */

static int
dump_ui(struct run_dev *d, struct uidump **out)
{
	struct adb_shell_result r;
	int rc;

	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, "uiautomator dump /dev/tty", &r);
	if (!rc && (rc = uidump_parse(out, r.out.buf, r.out.len))) {
		adb_shell_result_release(&r);
		adb_shell_result_init(&r);
		rc = adb_shell(d->dev, "uiautomator dump " DUMP_FILE
		    " >/dev/null && cat " DUMP_FILE, &r);
		if (!rc)
			rc = uidump_parse(out, r.out.buf, r.out.len);
		if (rc)
			jg_error_prefix("'uiautomator dump'");
	}
	adb_shell_result_release(&r);
	return rc;
}

static enum uidump_by
by_of(const struct scenario_step *st)
{
	return st->kind == SCN_TAP_ID ? UIDUMP_ID : st->kind == SCN_TAP_DESC ?
	    UIDUMP_DESC : UIDUMP_TEXT;
}

static const char *
by_name(enum uidump_by by)
{
	return by == UIDUMP_ID ? "id" : by == UIDUMP_DESC ? "description" :
	    "text";
}

static int
not_found(struct uidump *ui, enum uidump_by by, const char *what,
    const char *after)
{
	struct strbuf sb = STRBUF_INIT;

	uidump_describe(ui, &sb);
	jg_error_set(JG_ENOTFOUND, "no view with %s '%s' on screen%s; on "
	    "screen: %s", by_name(by), what, after, sb.buf);
	strbuf_release(&sb);
	return JG_ENOTFOUND;
}

int
run_ui_tap(struct run_dev *d, const struct scenario_step *st)
{
	struct uidump *ui = NULL;
	const struct uidump_node *n;
	struct adb_shell_result r;
	struct strbuf cmd = STRBUF_INIT;
	int rc, x, y;

	rc = dump_ui(d, &ui);
	if (rc)
		return rc;
	n = uidump_find(ui, by_of(st), st->text);
	if (!n) {
		rc = not_found(ui, by_of(st), st->text, "");
		uidump_free(ui);
		return rc;
	}
	uidump_center(n, &x, &y);
	uidump_free(ui);
	run_tap_command(&cmd, x, y);
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd.buf, &r);
	adb_shell_result_release(&r);
	strbuf_release(&cmd);
	return rc;
}

int
run_ui_wait_text(struct run_dev *d, const struct scenario_step *st)
{
	double until = run_now_ms() + st->ms;
	char after[64];

	for (;;) {
		struct uidump *ui = NULL;
		int rc = dump_ui(d, &ui);

		if (rc)
			return rc;
		if (uidump_find(ui, UIDUMP_TEXT, st->text)) {
			uidump_free(ui);
			return 0;
		}
		if (run_now_ms() >= until) {
			snprintf(after, sizeof(after), " after %d ms", st->ms);
			rc = not_found(ui, UIDUMP_TEXT, st->text, after);
			uidump_free(ui);
			return rc;
		}
		uidump_free(ui);
		if ((rc = run_sleep_ms(POLL_MS)))
			return rc;
	}
}

/* The resumed activity into *out (NULL when none is reported). */
static int
resumed(struct run_dev *d, char **out)
{
	struct adb_shell_result r;
	int rc;

	*out = NULL;
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, "dumpsys activity activities", &r);
	if (!rc && dumpsys_resumed(r.out.buf, out))
		jg_error_clear();
	adb_shell_result_release(&r);
	return rc;
}

int
run_ui_wait_activity(struct run_dev *d, const struct scenario_step *st,
    bool once)
{
	double until = run_now_ms() + (once ? 0 : st->ms);

	for (;;) {
		char *front = NULL;
		int rc = resumed(d, &front);

		if (rc)
			return rc;
		if (front && dumpsys_activity_matches(st->text, d->package,
		    front)) {
			free(front);
			return 0;
		}
		if (run_now_ms() >= until) {
			if (once)
				jg_error_set(JG_ENOTFOUND, "expected activity "
				    "'%s' in front, found '%s'", st->text,
				    front ? front : "none");
			else
				jg_error_set(JG_ETIMEOUT, "activity '%s' not "
				    "in front after %d ms (in front: '%s')",
				    st->text, st->ms, front ? front : "none");
			free(front);
			return once ? JG_ENOTFOUND : JG_ETIMEOUT;
		}
		free(front);
		if ((rc = run_sleep_ms(POLL_MS)))
			return rc;
	}
}

int
run_ui_wait_idle(struct run_dev *d, const struct scenario_step *st)
{
	double until = run_now_ms() + st->ms, since = run_now_ms();
	struct strbuf cmd = STRBUF_INIT;
	long last = -2;
	int rc = 0;

	strbuf_addf(&cmd, "dumpsys gfxinfo %s", d->package);
	for (;;) {
		struct adb_shell_result r;
		long n;

		adb_shell_result_init(&r);
		rc = adb_shell(d->dev, cmd.buf, &r);
		n = rc ? -1 : dumpsys_gfx_total_frames(r.out.buf);
		adb_shell_result_release(&r);
		if (rc)
			break;
		if (n < 0)	/* no process: nothing renders */
			break;
		if (n != last) {
			last = n;
			since = run_now_ms();
		} else if (run_now_ms() - since >= IDLE_QUIET_MS) {
			break;
		}
		if (run_now_ms() >= until) {
			rc = jg_error_set(JG_ETIMEOUT, "the app still renders "
			    "after %d ms of 'wait idle'", st->ms);
			break;
		}
		if ((rc = run_sleep_ms(POLL_MS / 2)))
			break;
	}
	strbuf_release(&cmd);
	return rc;
}
