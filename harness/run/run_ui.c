/*
 * run_ui.c: finding views and activities on the device, outside scenes.
 *
 * `tap text|id|desc` and `wait text` read `uiautomator dump /dev/tty`
 * (uidump.c parses it; when a device prints no hierarchy to the tty the
 * dump goes through /sdcard/window_dump.xml instead).  `wait activity` and
 * `expect activity` read the resumed activity from `dumpsys activity
 * activities`, whose wording changed over the releases:
 *
 *	API 24-28   "    mResumedActivity: ActivityRecord{5a1b2c3 u0
 *	             com.x/.Main t12}" and "  mFocusedActivity: ..."
 *	API 29-30   the same plus "  ResumedActivity: ActivityRecord{...}"
 *	API 31+     "      topResumedActivity=ActivityRecord{...}" and
 *	            "  ResumedActivity: ActivityRecord{...}"
 *
 * `wait idle` outside a scene polls `dumpsys gfxinfo PKG` (no reset) until
 * "Total frames rendered" stops moving for IDLE_QUIET_MS; an app with no
 * process renders nothing and is idle.  The launcher activity and the
 * installed versionCode come from `dumpsys package PKG`:
 *
 *	    android.intent.action.MAIN:
 *	      3aac18c com.example.shop/.HomeActivity filter 5c1735c
 *	        Action: "android.intent.action.MAIN"
 *	        Category: "android.intent.category.LAUNCHER"
 *	    ...
 *	    versionCode=100 minSdk=24 targetSdk=34
 *	    versionName=1.0.0
 *
 * None of this may run inside a scene; the scenario parser refuses those
 * steps there and run_iter.c never calls in here between reset and
 * framestats.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "error.h"
#include "run_int.h"
#include "scenario.h"
#include "strbuf.h"
#include "uidump.h"
#include "xalloc.h"
#include "banned.h"

#define POLL_MS		200	/* between activity / gfxinfo polls */
#define IDLE_QUIET_MS	300	/* frame count unchanged this long: idle */
#define DUMP_FILE	"/sdcard/window_dump.xml"

/* ---- parsers ---------------------------------------------------------- */

/* The component in "ActivityRecord{5a1b2c3 u0 pkg/.Act t12}" at `p`. */
static char *
record_component(const char *p)
{
	const char *open = strstr(p, "ActivityRecord{"), *w, *end;
	const char *eol = strchr(p, '\n');

	if (!open || (eol && open > eol))
		return NULL;
	/* Words: hash, user, component, task. */
	w = open + strlen("ActivityRecord{");
	for (int i = 0; i < 2; i++) {
		w += strcspn(w, " }\n");
		if (*w != ' ')
			return NULL;
		w++;
	}
	end = w + strcspn(w, " }\n");
	if (end == w || !memchr(w, '/', (size_t)(end - w)))
		return NULL;
	return xstrndup(w, (size_t)(end - w));
}

/* "pkg/.Act" -> "pkg/pkg.Act"; others are copied. */
static char *
expand_component(const char *c)
{
	const char *slash = strchr(c, '/');

	if (slash && slash[1] == '.')
		return xasprintf("%.*s/%.*s%s", (int)(slash - c), c,
		    (int)(slash - c), c, slash + 1);
	return xstrdup(c);
}

int
run_parse_resumed(const char *text, char **out)
{
	static const char *const keys[] = {
		"topResumedActivity=", "ResumedActivity: ",
		"mResumedActivity: ", "mFocusedActivity: ",
	};

	*out = NULL;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *p = text;

		while ((p = strstr(p, keys[k]))) {
			char *c;

			/* "ResumedActivity: " also ends "mResumedActivity: ". */
			if (k == 1 && p > text && p[-1] == 'm') {
				p++;
				continue;
			}
			c = record_component(p);
			if (c) {
				*out = expand_component(c);
				free(c);
				return 0;
			}
			p++;
		}
	}
	return jg_error_set(JG_ENOTFOUND, "no resumed activity in 'dumpsys "
	    "activity activities'");
}

int
run_activity_matches(const char *want, const char *package,
    const char *component)
{
	const char *slash = strchr(component, '/');
	const char *cls = slash ? slash + 1 : component;
	const char *wslash = strchr(want, '/');
	char *full;
	int ok;

	if (wslash) {
		full = expand_component(want);
		ok = !strcmp(full, component);
		free(full);
		return ok;
	}
	if (want[0] == '.') {
		size_t n = strlen(package);

		return !strncmp(cls, package, n) && !strcmp(cls + n, want);
	}
	return !strcmp(cls, want);
}

/* The value after "key=" on a line of `text`, up to a space or newline. */
static const char *
find_value(const char *text, const char *key, size_t *len)
{
	const char *p = text;
	size_t kl = strlen(key);

	while ((p = strstr(p, key))) {
		if (p == text || isspace((unsigned char)p[-1])) {
			p += kl;
			*len = strcspn(p, " \t\r\n");
			return p;
		}
		p += kl;
	}
	return NULL;
}

void
run_parse_package(const char *text, const char *package, char **launcher,
    double *version_code, char **version_name)
{
	size_t pl = strlen(package), len;
	const char *p = text, *v;

	*launcher = NULL;
	*version_code = NAN;
	*version_name = NULL;
	/* A "PKG/CLS filter" line followed by the LAUNCHER category. */
	while (!*launcher && (p = strstr(p, package))) {
		const char *line = p, *eol, *next;

		p += pl;
		if (*p != '/' || (line > text && !isspace((unsigned char)
		    line[-1])))
			continue;
		eol = strchr(p, '\n');
		len = strcspn(line, " \t\r\n");
		if (!eol || !strstr(line, " filter ") ||
		    strstr(line, " filter ") > eol)
			continue;
		/* The filter's own lines are indented deeper than `line`. */
		for (next = eol + 1; *next; ) {
			const char *nl = strchr(next, '\n');
			size_t ll = nl ? (size_t)(nl - next) : strlen(next);

			if (memmem(next, ll, "ActivityResolver", 16) ||
			    memmem(next, ll, " filter ", 8))
				break;
			if (memmem(next, ll, "\"android.intent.category."
			    "LAUNCHER\"", 34)) {
				*launcher = xstrndup(line, len);
				break;
			}
			if (!nl)
				break;
			next = nl + 1;
		}
	}
	v = find_value(text, "versionCode=", &len);
	if (v && len) {
		char *end;
		double d = strtod(v, &end);

		if (end == v + len && d >= 0)
			*version_code = d;
	}
	v = find_value(text, "versionName=", &len);
	if (v)
		*version_name = xstrndup(v, len);
}

long
run_gfx_total_frames(const char *text)
{
	const char *p = strstr(text, "Total frames rendered:");
	char *end;
	long n;

	if (!p)
		return -1;
	n = strtol(p + strlen("Total frames rendered:"), &end, 10);
	return n >= 0 ? n : -1;
}

/* ---- on the device ---------------------------------------------------- */

static int
dump_ui(struct run_dev *d, struct uidump **out)
{
	struct adb_shell_result r;
	int rc;

	adb_shell_result_init(&r);
	rc = run_shell(d, "uiautomator dump /dev/tty", &r);
	if (!rc && (rc = uidump_parse(out, r.out.buf, r.out.len))) {
		adb_shell_result_release(&r);
		adb_shell_result_init(&r);
		rc = run_shell(d, "uiautomator dump " DUMP_FILE " >/dev/null "
		    "&& cat " DUMP_FILE, &r);
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
	rc = run_shell(d, cmd.buf, &r);
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
	rc = run_shell(d, "dumpsys activity activities", &r);
	if (!rc && run_parse_resumed(r.out.buf, out))
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
		if (front && run_activity_matches(st->text, d->package,
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
		rc = run_shell(d, cmd.buf, &r);
		n = rc ? -1 : run_gfx_total_frames(r.out.buf);
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
