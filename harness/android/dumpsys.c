/*
 * dumpsys.c: what the framework's dumpsys (and `settings get`) print that
 * the runner and `jankgate init` read (dumpsys.h).  Pure functions over
 * captured output, so each API level's wording is a unit test.
 *
 * The resumed activity, from `dumpsys activity activities`, whose wording
 * changed over the releases:
 *
 *	API 24-28   "    mResumedActivity: ActivityRecord{5a1b2c3 u0
 *	             com.x/.Main t12}" and "  mFocusedActivity: ..."
 *	API 29-30   the same plus "  ResumedActivity: ActivityRecord{...}"
 *	API 31+     "      topResumedActivity=ActivityRecord{...}" and
 *	            "  ResumedActivity: ActivityRecord{...}"
 *
 * The launcher activity and the installed versionCode, from `dumpsys
 * package PKG`:
 *
 *	    android.intent.action.MAIN:
 *	      3aac18c com.example.shop/.HomeActivity filter 5c1735c
 *	        Action: "android.intent.action.MAIN"
 *	        Category: "android.intent.category.LAUNCHER"
 *	    ...
 *	    versionCode=100 minSdk=24 targetSdk=34
 *	    versionName=1.0.0
 *
 * The frames rendered so far, "Total frames rendered: N" of `dumpsys
 * gfxinfo PKG`.  And the state of the phone before measuring (run's
 * hygiene):
 *
 *	dumpsys battery          "  level: 85", "  temperature: 285" (0.1 °C)
 *	dumpsys thermalservice   "Thermal Status: 0"                  (API 29+)
 *	settings get global X    "1.0", or "null" when never set (= 1.0)
 *	                         for animator_duration_scale,
 *	                         transition_animation_scale,
 *	                         window_animation_scale
 *	dumpsys power            "Display Power: state=ON" or
 *	                         "mWakefulness=Awake|Asleep|Dozing"
 *	dumpsys display          "mGlobalDisplayState=ON" (when power says
 *	                         nothing, e.g. a device without the service)
 *	dumpsys window           locked: "mDreamingLockscreen=true",
 *	                         "mShowingLockscreen=true",
 *	                         "isKeyguardShowing=true", or the focus on the
 *	                         status bar, notification shade or keyguard;
 *	                         unlocked: an mCurrentFocus elsewhere
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dumpsys.h"
#include "error.h"
#include "results.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* ---- activities and packages ----------------------------------------- */

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
dumpsys_resumed(const char *text, char **out)
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

			/* "mResumedActivity: " ends the same way. */
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
dumpsys_activity_matches(const char *want, const char *package,
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
dumpsys_package(const char *text, const char *package, char **launcher,
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
dumpsys_gfx_total_frames(const char *text)
{
	const char *p = strstr(text, "Total frames rendered:");
	char *end;
	long n;

	if (!p)
		return -1;
	n = strtol(p + strlen("Total frames rendered:"), &end, 10);
	return n >= 0 ? n : -1;
}

/* ---- the phone's state ------------------------------------------------ */

/* The number after `key` at the start of a (trimmed) line, or NAN. */
static double
line_number(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *q = p + strspn(p, " \t");
		char *end;
		double v;

		if (!strncmp(q, key, kl)) {
			v = strtod(q + kl, &end);
			if (end != q + kl)
				return v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NAN;
}

double
dumpsys_battery_level(const char *text)
{
	double v = line_number(text, "level:");

	return v >= 0 && v <= 100 ? v : NAN;
}

double
dumpsys_battery_temp_c(const char *text)
{
	double v = line_number(text, "temperature:");

	return isnan(v) ? NAN : v / 10;
}

double
dumpsys_thermal_status(const char *text)
{
	double v = line_number(text, "Thermal Status:");

	return v >= 0 && v <= 6 ? v : NAN;
}

double
dumpsys_animation_scale(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	char *end;
	double v = NAN;

	strbuf_addstr(&sb, text);
	strbuf_rtrim(&sb);
	if (!strcmp(sb.buf, "null")) {
		v = 1.0;
	} else if (sb.len) {
		v = strtod(sb.buf, &end);
		if (*end || v < 0 || v > 100)
			v = NAN;
	}
	strbuf_release(&sb);
	return v;
}

/* 1 when `text` holds `key` directly followed by `value` ("=ON"). */
static int
has(const char *text, const char *key, const char *value)
{
	size_t kl = strlen(key);

	for (const char *p = text; (p = strstr(p, key)); p += kl)
		if (!strncmp(p + kl, value, strlen(value)))
			return 1;
	return 0;
}

int
dumpsys_screen_on(const char *power, const char *display)
{
	if (power && (has(power, "Display Power: state=", "ON") ||
	    has(power, "mWakefulness=", "Awake") ||
	    has(power, "mScreenOn=", "true")))
		return 1;
	if (power && (has(power, "Display Power: state=", "OFF") ||
	    has(power, "Display Power: state=", "DOZE") ||
	    has(power, "mWakefulness=", "Asleep") ||
	    has(power, "mWakefulness=", "Dozing") ||
	    has(power, "mScreenOn=", "false")))
		return 0;
	if (display && has(display, "mGlobalDisplayState=", "ON"))
		return 1;
	if (display && (has(display, "mGlobalDisplayState=", "OFF") ||
	    has(display, "mGlobalDisplayState=", "DOZE")))
		return 0;
	return RS_UNKNOWN;
}

int
dumpsys_unlocked(const char *window)
{
	static const char *const focus_locked[] = {
		"StatusBar}", "NotificationShade}", "Keyguard}",
	};
	const char *focus;

	if (has(window, "mDreamingLockscreen=", "true") ||
	    has(window, "mShowingLockscreen=", "true") ||
	    has(window, "isKeyguardShowing=", "true") ||
	    has(window, "mKeyguardShowing=", "true"))
		return 0;
	focus = strstr(window, "mCurrentFocus=");
	if (!focus)
		return RS_UNKNOWN;
	for (size_t i = 0; i < sizeof(focus_locked) / sizeof(*focus_locked);
	    i++) {
		const char *hit = strstr(focus, focus_locked[i]);
		const char *eol = strchr(focus, '\n');

		if (hit && (!eol || hit < eol))
			return 0;
	}
	return 1;
}
