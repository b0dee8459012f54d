/*
 * config.c: the jankgate.json schema, its validation and the environment.
 *
 * One table (`keys` below) describes every key: its dotted path, type, range,
 * default (as a JSON literal, applied through the same setter as the file so
 * the documented default is the real one), environment variable and one line
 * of documentation.  Validation walks the parsed JSON against the table and
 * collects every problem instead of stopping at the first, because a user
 * fixing a config wants the whole list at once:
 *
 *   jankgate.json: thresholds.frame_p90_ms.relative: expected a number
 *       between 0 and 1, got "5%"
 *
 * Two keys are maps rather than fixed objects: `thresholds` (metric name ->
 * {relative, absolute}) and `scene_thresholds` (scene name -> the same map).
 * Metric names are checked against the metric table.
 *
 * Environment: every scalar or list key K can be set by JANKGATE_<K>, with
 * the path upper-cased and dots turned into underscores (baseline.ref ->
 * JANKGATE_BASELINE_REF); lists are comma-separated.  The environment wins
 * over the file; command-line flags, applied later by commands, win over both.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "config.h"
#include "error.h"
#include "fileio.h"
#include "metrics.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

enum ktype {
	K_OBJECT,	/* a fixed sub-object; its keys follow in the table */
	K_STRING,
	K_PATH,		/* string, resolved against the config's directory */
	K_REPO,		/* local path (resolved) or URL (kept) */
	K_INT,
	K_NUMBER,
	K_BOOL,
	K_ENUM,		/* string from `values`, stored as its index */
	K_LIST,		/* list of strings; restricted to `values` when set */
	K_PATHLIST,	/* list of paths */
	K_THRESHOLDS,	/* metric -> { relative, absolute } */
	K_SCENE_THRESHOLDS,	/* scene -> metric -> { ... } */
	K_SECRET,	/* always an error: secrets never live in the file */
};

struct key {
	const char *path;
	enum ktype type;
	size_t off;
	double min, max;
	const char *const *values;
	const char *def;	/* JSON literal, or NULL */
	int required;
	const char *doc;
};

static const char *const source_names[] = {
	"gfxinfo", "startup", "choreographer", "matrix", "blockcanary",
	"perf", "fpsanalyzer", "traceman", NULL
};
static const char *const update_names[] = {
	"never", "on-pass", "always", NULL
};
static const char *const mail_when_names[] = {
	"always", "regression", "never", NULL
};
static const char *const correction_names[] = { "holm", "bh", NULL };
static const char *const tls_names[] = { "auto", "required", "none", NULL };

#define O(f) offsetof(struct config, f)
#define NONE 0, 0, NULL

static const struct key keys[] = {
	{ "app", K_STRING, O(app), NONE, NULL, 1,
	  "package name of the app under test" },
	{ "apk", K_PATH, O(apk), NONE, NULL, 0,
	  "APK to install before measuring; unset: use what is installed" },
	{ "activity", K_STRING, O(activity), NONE, NULL, 0,
	  "activity `launch` starts; unset: the app's launcher activity" },
	{ "sources", K_LIST, O(sources), 0, 0, source_names,
	  "[\"gfxinfo\",\"startup\",\"choreographer\"]", 0,
	  "data sources to collect (see SOURCES)" },
	{ "scenarios", K_PATHLIST, O(scenarios), NONE, NULL, 1,
	  "scenario files (*.scn) to run, in order" },
	{ "iterations", K_INT, O(iterations), 1, 1000, NULL, "5", 0,
	  "measured iterations per scenario" },
	{ "warmups", K_INT, O(warmups), 0, 100, NULL, "1", 0,
	  "unmeasured warm-up iterations before them" },
	{ "max_iterations", K_INT, O(max_iterations), 1, 1000, NULL, "15", 0,
	  "`gate` runs more iterations up to this when inconclusive" },
	{ "min_iterations", K_INT, O(min_iterations), 2, 1000, NULL, "3", 0,
	  "fewer valid iterations than this make a metric inconclusive" },
	{ "out_dir", K_PATH, O(out_dir), NONE, "\"jankgate-out\"", 0,
	  "where `run` and `gate` write results and reports" },

	{ "devices", K_OBJECT, 0, NONE, NULL, 0, "device selection and hygiene" },
	{ "devices.serials", K_LIST, O(devices.serials), NONE, "[]", 0,
	  "serials to use; empty: every attached device" },
	{ "devices.connect", K_LIST, O(devices.connect), NONE, "[]", 0,
	  "HOST:PORT endpoints to `adb connect` first (device farms)" },
	{ "devices.min_battery_pct", K_INT, O(devices.min_battery_pct), 0, 100,
	  NULL, "20", 0, "refuse to measure below this battery level" },
	{ "devices.max_thermal_status", K_INT, O(devices.max_thermal_status),
	  0, 6, NULL, "1", 0,
	  "refuse to measure above this thermal status (0 none .. 6 shutdown)" },
	{ "devices.require_screen_on", K_BOOL, O(devices.require_screen_on),
	  NONE, "true", 0, "refuse to measure when the screen is off or locked" },
	{ "devices.require_animations_off", K_BOOL,
	  O(devices.require_animations_off), NONE, "false", 0,
	  "refuse to measure unless all animation scales are 0" },
	{ "devices.refresh_hz", K_INT, O(devices.refresh_hz), 0, 240, NULL,
	  "0", 0, "refuse devices whose refresh rate differs; 0: any" },
	{ "devices.command_timeout_ms", K_INT, O(devices.command_timeout_ms),
	  100, 600000, NULL, "30000", 0, "timeout of one device command" },
	{ "devices.iteration_timeout_s", K_INT, O(devices.iteration_timeout_s),
	  1, 86400, NULL, "600", 0, "an iteration running longer fails" },

	{ "baseline", K_OBJECT, 0, NONE, NULL, 0, "the git baseline store" },
	{ "baseline.repo", K_REPO, O(baseline.repo), NONE, NULL, 0,
	  "repository: a local path, file://, ssh:// or https:// URL" },
	{ "baseline.ref", K_STRING, O(baseline.ref), NONE, "\"main\"", 0,
	  "branch records go to and compare reads by default" },
	{ "baseline.history", K_INT, O(baseline.history), 1, 100, NULL, "5", 0,
	  "K: accepted runs pooled into the baseline sample" },
	{ "baseline.update", K_ENUM, O(baseline.update), 0, 0, update_names,
	  "\"on-pass\"", 0, "when `gate` records the run as the new baseline" },
	{ "baseline.cache_dir", K_PATH, O(baseline.cache_dir), NONE, NULL, 0,
	  "clone cache for remote repositories; default $XDG_CACHE_HOME/jankgate" },
	{ "baseline.ssh_key", K_PATH, O(baseline.ssh_key), NONE, NULL, 0,
	  "private key file for ssh remotes; default: ssh-agent" },
	{ "baseline.known_hosts", K_PATH, O(baseline.known_hosts), NONE, NULL,
	  0, "known_hosts file for ssh remotes; default ~/.ssh/known_hosts" },
	{ "baseline.token_env", K_STRING, O(baseline.token_env), NONE,
	  "\"JANKGATE_GIT_TOKEN\"", 0,
	  "environment variable holding an https token" },
	{ "baseline.token_user", K_STRING, O(baseline.token_user), NONE,
	  "\"x-access-token\"", 0, "user name sent with the https token" },
	{ "baseline.push_retries", K_INT, O(baseline.push_retries), 0, 100,
	  NULL, "5", 0, "rebase-and-retry attempts when a push is rejected" },
	{ "baseline.author_name", K_STRING, O(baseline.author_name), NONE,
	  "\"jankgate\"", 0, "commit author name" },
	{ "baseline.author_email", K_STRING, O(baseline.author_email), NONE,
	  "\"jankgate@localhost\"", 0, "commit author e-mail" },
	{ "baseline.token", K_SECRET, 0, NONE, NULL, 0,
	  "set the token in the variable named by baseline.token_env" },
	{ "baseline.password", K_SECRET, 0, NONE, NULL, 0,
	  "set the token in the variable named by baseline.token_env" },

	{ "thresholds", K_THRESHOLDS, 0, NONE, NULL, 0,
	  "per metric {\"relative\": fraction, \"absolute\": units} overrides" },
	{ "scene_thresholds", K_SCENE_THRESHOLDS, 0, NONE, NULL, 0,
	  "per scene name, the same map as thresholds" },
	{ "alpha", K_NUMBER, O(alpha), 0.0001, 0.5, NULL, "0.05", 0,
	  "false-alarm rate for a whole run, after correction" },
	{ "correction", K_ENUM, O(correction), 0, 0, correction_names,
	  "\"holm\"", 0, "multiple-testing correction: holm or bh" },

	{ "report", K_OBJECT, 0, NONE, NULL, 0, "reports" },
	{ "report.title", K_STRING, O(report.title), NONE,
	  "\"jankgate report\"", 0, "title of reports and mail" },
	{ "report.templates", K_PATH, O(report.templates), NONE, NULL, 0,
	  "directory whose templates replace the built-in ones" },
	{ "report.history", K_INT, O(report.history), 0, 1000, NULL, "20", 0,
	  "baseline runs shown in trend sparklines" },

	{ "mail", K_OBJECT, 0, NONE, NULL, 0, "mail delivery" },
	{ "mail.to", K_LIST, O(mail.to), NONE, "[]", 0, "recipients" },
	{ "mail.from", K_STRING, O(mail.from), NONE, "\"jankgate@localhost\"",
	  0, "sender address" },
	{ "mail.server", K_STRING, O(mail.server), NONE, NULL, 0,
	  "smtp://HOST:PORT (STARTTLS) or smtps://HOST:PORT" },
	{ "mail.tls", K_ENUM, O(mail.tls), 0, 0, tls_names, "\"auto\"", 0,
	  "auto: required unless the server is on loopback" },
	{ "mail.user_env", K_STRING, O(mail.user_env), NONE,
	  "\"JANKGATE_SMTP_USER\"", 0, "environment variable holding the user" },
	{ "mail.password_env", K_STRING, O(mail.password_env), NONE,
	  "\"JANKGATE_SMTP_PASSWORD\"", 0,
	  "environment variable holding the password" },
	{ "mail.password_file", K_PATH, O(mail.password_file), NONE, NULL, 0,
	  "file holding the password (first line)" },
	{ "mail.when", K_ENUM, O(mail.when), 0, 0, mail_when_names,
	  "\"always\"", 0, "when `gate` mails: always, regression or never" },
	{ "mail.subject_prefix", K_STRING, O(mail.subject_prefix), NONE,
	  "\"[jankgate]\"", 0, "text before the subject" },
	{ "mail.retries", K_INT, O(mail.retries), 0, 20, NULL, "3", 0,
	  "retries on transient (4xx) failures, with backoff" },
	{ "mail.timeout_s", K_INT, O(mail.timeout_s), 1, 3600, NULL, "60", 0,
	  "SMTP timeout" },
	{ "mail.password", K_SECRET, 0, NONE, NULL, 0,
	  "set mail.password_env's variable or mail.password_file" },

	{ "source_options", K_OBJECT, 0, NONE, NULL, 0, "source settings" },
	{ "source_options.grace_ms", K_INT, O(source_opts.grace_ms), 0, 60000,
	  NULL, "1000", 0,
	  "events up to this late still belong to the scene that just ended" },
	{ "source_options.method_mapping", K_PATH,
	  O(source_opts.method_mapping), NONE, NULL, 0,
	  "Matrix methodMapping.txt to decode stack ids" },
	{ "source_options.traceman_port", K_INT, O(source_opts.traceman_port),
	  1, 65535, NULL, "5392", 0, "MethodTraceMan's WebSocket port" },
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* Validation state threaded through the walk. */
struct ctx {
	struct config *cfg;
	const char *file;	/* prefix of messages */
	struct strlist *problems;
	int nproblems;
	int from_env;
};

static void
problem(struct ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
problem(struct ctx *c, const char *path, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", c->file);
	if (path && *path)
		strbuf_addf(&sb, "%s: ", path);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (!c->nproblems)
		jg_error_set(JG_EINVAL, "%s", sb.buf);
	c->nproblems++;
	if (c->problems)
		strlist_add(c->problems, sb.buf);
	strbuf_release(&sb);
}

/* "got ..." text for a JSON value: strings quoted and cut, others by kind. */
static void
describe(struct strbuf *sb, const cJSON *v)
{
	if (cJSON_IsString(v)) {
		const char *s = v->valuestring;
		size_t n = strlen(s);

		strbuf_addch(sb, '"');
		for (size_t i = 0; i < n && i < 40; i++)
			strbuf_addch(sb, isprint((unsigned char)s[i]) ||
			    (unsigned char)s[i] >= 0x80 ? s[i] : '?');
		strbuf_addstr(sb, n > 40 ? "...\"" : "\"");
	} else if (cJSON_IsNumber(v)) {
		strbuf_addf(sb, "%.15g", v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		strbuf_addstr(sb, cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsNull(v)) {
		strbuf_addstr(sb, "null");
	} else if (cJSON_IsArray(v)) {
		strbuf_addstr(sb, "a list");
	} else {
		strbuf_addstr(sb, "an object");
	}
}

static void
expected(struct ctx *c, const char *path, const char *what, const cJSON *v)
{
	struct strbuf got = STRBUF_INIT;

	describe(&got, v);
	problem(c, path, "expected %s, got %s", what, got.buf);
	strbuf_release(&got);
}

static const struct key *
find_key(const char *path)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].path, path))
			return &keys[i];
	return NULL;
}

static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			cur[j] = d;
		}
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb];
}

/* The closest known key with the same parent as `path`, or NULL. */
static const char *
suggest(const char *parent, const char *name)
{
	size_t plen = parent ? strlen(parent) : 0, best = 3;
	const char *hit = NULL;

	for (size_t i = 0; i < NKEYS; i++) {
		const char *p = keys[i].path, *leaf;

		if (plen && (strncmp(p, parent, plen) || p[plen] != '.'))
			continue;
		leaf = plen ? p + plen + 1 : p;
		if (strchr(leaf, '.') || keys[i].type == K_SECRET)
			continue;
		size_t d = edit_distance(name, leaf);

		if (d < best) {
			best = d;
			hit = leaf;
		}
	}
	return hit;
}

static void
unknown_key(struct ctx *c, const char *parent, const char *path,
    const char *name)
{
	const char *s = suggest(parent, name);

	if (s)
		problem(c, path, "unknown key (did you mean '%s'?)", s);
	else
		problem(c, path, "unknown key");
}

static char *
resolve_path(struct ctx *c, const char *p)
{
	if (p[0] == '/' || (!c->from_env && !c->cfg->dir))
		return xstrdup(p);
	if (c->from_env) {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof(cwd)))
			return xstrdup(p);
		return xasprintf("%s/%s", cwd, p);
	}
	return xasprintf("%s/%s", c->cfg->dir, p);
}

/* A URL, or git's scp-like "[user@]host:path" (a colon before any slash). */
static int
is_url(const char *s)
{
	const char *colon = strchr(s, ':');
	const char *slash = strchr(s, '/');

	return strstr(s, "://") || (colon && (!slash || colon < slash));
}

static void
set_string(char **slot, char *v)
{
	free(*slot);
	*slot = v;
}

static int
enum_index(const char *const *values, const char *s)
{
	for (int i = 0; values[i]; i++)
		if (!strcmp(values[i], s))
			return i;
	return -1;
}

static void
one_of(struct strbuf *sb, const char *const *values)
{
	strbuf_addstr(sb, "one of ");
	for (int i = 0; values[i]; i++)
		strbuf_addf(sb, "%s\"%s\"", i ? ", " : "", values[i]);
}

static int
is_integer(const cJSON *v)
{
	double d = v->valuedouble;

	return cJSON_IsNumber(v) && isfinite(d) && d == floor(d) &&
	    fabs(d) < 1e15;
}

static void
set_list(struct ctx *c, const struct key *k, const char *path,
    const cJSON *v, struct strlist *l)
{
	const cJSON *it;
	size_t i = 0;
	int bad = 0;

	if (!cJSON_IsArray(v)) {
		expected(c, path, "a list of strings", v);
		return;
	}
	strlist_release(l);
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s[%zu]", path, i++);

		if (!cJSON_IsString(it)) {
			expected(c, ipath, "a string", it);
			bad = 1;
		} else if (k->values && enum_index(k->values,
		    it->valuestring) < 0) {
			struct strbuf sb = STRBUF_INIT;

			one_of(&sb, k->values);
			expected(c, ipath, sb.buf, it);
			strbuf_release(&sb);
			bad = 1;
		} else if (strlist_find(l, it->valuestring) >= 0) {
			problem(c, ipath, "'%s' is listed twice",
			    it->valuestring);
			bad = 1;
		} else if (k->type == K_PATHLIST) {
			char *p = resolve_path(c, it->valuestring);

			strlist_add(l, p);
			free(p);
		} else {
			strlist_add(l, it->valuestring);
		}
		free(ipath);
	}
	(void)bad;
}

static void
add_threshold(struct ctx *c, const char *path, const char *scene,
    const char *metric, const cJSON *v)
{
	struct config *cfg = c->cfg;
	struct config_threshold t = { NULL, NULL, NAN, NAN };
	const cJSON *it;

	if (!metric_find(metric)) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < metric_count(); i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "",
			    metric_at(i)->name);
		problem(c, path, "unknown metric (known: %s)", sb.buf);
		strbuf_release(&sb);
		return;
	}
	if (!cJSON_IsObject(v)) {
		expected(c, path,
		    "an object like {\"relative\": 0.1, \"absolute\": 1}", v);
		return;
	}
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s.%s", path, it->string);

		if (!strcmp(it->string, "relative")) {
			if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
			    it->valuedouble > 1)
				expected(c, ipath,
				    "a number between 0 and 1", it);
			else
				t.relative = it->valuedouble;
		} else if (!strcmp(it->string, "absolute")) {
			if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
			    !isfinite(it->valuedouble))
				expected(c, ipath, "a number >= 0", it);
			else
				t.absolute = it->valuedouble;
		} else {
			problem(c, ipath, "unknown key (expected 'relative' "
			    "or 'absolute')");
		}
		free(ipath);
	}
	/* A config names a handful of overrides: grow one at a time. */
	cfg->thresholds = xreallocarray(cfg->thresholds,
	    cfg->nr_thresholds + 1, sizeof(*cfg->thresholds));
	t.scene = scene ? xstrdup(scene) : NULL;
	t.metric = xstrdup(metric);
	cfg->thresholds[cfg->nr_thresholds++] = t;
}

static void
set_thresholds(struct ctx *c, const char *path, const char *scene,
    const cJSON *v)
{
	const cJSON *it;

	if (!cJSON_IsObject(v)) {
		expected(c, path, "an object keyed by metric name", v);
		return;
	}
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s.%s", path, it->string);

		add_threshold(c, ipath, scene, it->string, it);
		free(ipath);
	}
}

static void
set_scene_thresholds(struct ctx *c, const char *path, const cJSON *v)
{
	const cJSON *it;

	if (!cJSON_IsObject(v)) {
		expected(c, path, "an object keyed by scene name", v);
		return;
	}
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s.%s", path, it->string);

		if (!*it->string)
			problem(c, ipath, "scene name is empty");
		else
			set_thresholds(c, ipath, it->string, it);
		free(ipath);
	}
}

/* Store value `v` for key `k` (path `path` for messages). */
static void
set_value(struct ctx *c, const struct key *k, const char *path,
    const cJSON *v)
{
	char *base = (char *)c->cfg;
	struct strbuf what = STRBUF_INIT;

	switch (k->type) {
	case K_OBJECT:
		break;	/* handled by the walk */
	case K_STRING:
	case K_PATH:
	case K_REPO:
		if (!cJSON_IsString(v) || !*v->valuestring) {
			expected(c, path, k->type == K_STRING ?
			    "a non-empty string" : "a path", v);
			break;
		}
		if (strpbrk(v->valuestring, "\r\n")) {
			expected(c, path, "a single line", v);
			break;
		}
		set_string((char **)(base + k->off),
		    k->type == K_STRING || (k->type == K_REPO &&
		    is_url(v->valuestring)) ? xstrdup(v->valuestring) :
		    resolve_path(c, v->valuestring));
		break;
	case K_INT:
		if (!is_integer(v) || v->valuedouble < k->min ||
		    v->valuedouble > k->max) {
			strbuf_addf(&what, "an integer between %.0f and %.0f",
			    k->min, k->max);
			expected(c, path, what.buf, v);
			break;
		}
		*(int *)(base + k->off) = (int)v->valuedouble;
		break;
	case K_NUMBER:
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= k->min) ||
		    !(v->valuedouble <= k->max)) {
			strbuf_addf(&what, "a number between %g and %g",
			    k->min, k->max);
			expected(c, path, what.buf, v);
			break;
		}
		*(double *)(base + k->off) = v->valuedouble;
		break;
	case K_BOOL:
		if (!cJSON_IsBool(v)) {
			expected(c, path, "true or false", v);
			break;
		}
		*(int *)(base + k->off) = cJSON_IsTrue(v);
		break;
	case K_ENUM: {
		int i = cJSON_IsString(v) ?
		    enum_index(k->values, v->valuestring) : -1;

		if (i < 0) {
			one_of(&what, k->values);
			expected(c, path, what.buf, v);
			break;
		}
		*(int *)(base + k->off) = i;
		break;
	}
	case K_LIST:
	case K_PATHLIST:
		set_list(c, k, path, v, (struct strlist *)(base + k->off));
		break;
	case K_THRESHOLDS:
		set_thresholds(c, path, NULL, v);
		break;
	case K_SCENE_THRESHOLDS:
		set_scene_thresholds(c, path, v);
		break;
	case K_SECRET:
		problem(c, path, "secrets are not read from the config file; "
		    "%s", k->doc);
		break;
	}
	strbuf_release(&what);
}

static void
walk(struct ctx *c, const char *parent, const cJSON *obj, int *seen)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, obj) {
		char *path = parent ? xasprintf("%s.%s", parent, it->string) :
		    xstrdup(it->string);
		const struct key *k = find_key(path);

		/* cJSON keeps duplicate keys; a second one would be ignored. */
		for (const cJSON *p = obj->child; p != it; p = p->next)
			if (!strcmp(p->string, it->string)) {
				problem(c, path, "duplicate key");
				break;
			}
		if (!k) {
			unknown_key(c, parent, path, it->string);
		} else {
			seen[k - keys] = 1;
			if (k->type == K_OBJECT) {
				if (cJSON_IsObject(it))
					walk(c, path, it, seen);
				else
					expected(c, path, "an object", it);
			} else {
				set_value(c, k, path, it);
			}
		}
		free(path);
	}
}

static void
apply_defaults(struct ctx *c)
{
	for (size_t i = 0; i < NKEYS; i++) {
		cJSON *v;

		if (!keys[i].def)
			continue;
		v = cJSON_Parse(keys[i].def);
		if (!v)
			abort();	/* a broken literal in the table above */
		set_value(c, &keys[i], keys[i].path, v);
		cJSON_Delete(v);
	}
}

static char *
env_name(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "JANKGATE_");
	for (const char *p = path; *p; p++)
		strbuf_addch(&sb, *p == '.' ? '_' : toupper((unsigned char)*p));
	return strbuf_detach(&sb, NULL);
}

/* Turn an environment string into the JSON value the key's type wants. */
static cJSON *
env_value(const struct key *k, const char *s)
{
	char *end;
	double d;

	switch (k->type) {
	case K_INT:
	case K_NUMBER:
		errno = 0;
		d = strtod(s, &end);
		if (*s && !*end && !errno)
			return cJSON_CreateNumber(d);
		return cJSON_CreateString(s);
	case K_BOOL:
		if (!strcmp(s, "true") || !strcmp(s, "1") || !strcmp(s, "yes"))
			return cJSON_CreateTrue();
		if (!strcmp(s, "false") || !strcmp(s, "0") || !strcmp(s, "no"))
			return cJSON_CreateFalse();
		return cJSON_CreateString(s);
	case K_LIST:
	case K_PATHLIST: {
		cJSON *a = cJSON_CreateArray();
		char *copy = xstrdup(s), *save = NULL;

		for (char *t = strtok_r(copy, ",", &save); t;
		    t = strtok_r(NULL, ",", &save)) {
			while (*t == ' ')
				t++;
			if (*t)
				cJSON_AddItemToArray(a, cJSON_CreateString(t));
		}
		free(copy);
		return a;
	}
	default:
		return cJSON_CreateString(s);
	}
}

static void
apply_env(struct ctx *c, int *seen)
{
	const char *file = c->file;

	c->from_env = 1;
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		char *name;
		const char *s;

		if (k->type == K_OBJECT || k->type == K_THRESHOLDS ||
		    k->type == K_SCENE_THRESHOLDS || k->type == K_SECRET)
			continue;
		name = env_name(k->path);
		s = getenv(name);
		if (s) {
			cJSON *v = env_value(k, s);
			char *where = xasprintf("environment %s", name);

			c->file = where;
			set_value(c, k, k->path, v);
			c->file = file;
			seen[i] = 1;
			free(where);
			cJSON_Delete(v);
		}
		free(name);
	}
	c->from_env = 0;
}

/* Rules that involve more than one key. */
static void
cross_check(struct ctx *c, const int *seen)
{
	struct config *cfg = c->cfg;

	for (size_t i = 0; i < NKEYS; i++)
		if (keys[i].required && !seen[i])
			problem(c, keys[i].path, "missing (%s)", keys[i].doc);
	if (seen[find_key("scenarios") - keys] && !cfg->scenarios.nr)
		problem(c, "scenarios", "expected at least one scenario file");
	if (cfg->max_iterations < cfg->iterations)
		problem(c, "max_iterations", "expected a number >= iterations "
		    "(%d), got %d", cfg->iterations, cfg->max_iterations);
	if (cfg->min_iterations > cfg->iterations)
		problem(c, "min_iterations", "expected a number <= iterations "
		    "(%d), got %d", cfg->iterations, cfg->min_iterations);
	if (cfg->mail.to.nr && !cfg->mail.server)
		problem(c, "mail.server", "missing (mail.to is set, so mail "
		    "needs a server such as \"smtp://mail.example.com:587\")");
	if (cfg->mail.server && strncmp(cfg->mail.server, "smtp://", 7) &&
	    strncmp(cfg->mail.server, "smtps://", 8))
		problem(c, "mail.server", "expected a URL starting with "
		    "smtp:// or smtps://, got \"%s\"", cfg->mail.server);
	for (size_t i = 0; i < cfg->mail.to.nr; i++)
		if (!strchr(cfg->mail.to.items[i], '@') ||
		    strpbrk(cfg->mail.to.items[i], "\r\n<>,; "))
			problem(c, "mail.to", "expected an address like "
			    "\"team@example.com\", got \"%s\"",
			    cfg->mail.to.items[i]);
	if (cfg->app && strpbrk(cfg->app, " \t'\"$;&|`\\/"))
		problem(c, "app", "expected a package name like "
		    "\"com.example.shop\", got \"%s\"", cfg->app);
}

static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char cwd[PATH_MAX];

	if (slash && slash == path)
		return xstrdup("/");
	if (path[0] == '/')
		return xstrndup(path, (size_t)(slash - path));
	if (!getcwd(cwd, sizeof(cwd)))
		return slash ? xstrndup(path, (size_t)(slash - path)) :
		    xstrdup(".");
	if (!slash)
		return xstrdup(cwd);
	return xasprintf("%s/%.*s", cwd, (int)(slash - path), path);
}

/* Line and column of byte offset `off` in `buf`, 1-based. */
static void
line_col(const char *buf, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int
config_parse(struct config **out, const char *buf, size_t len,
    const char *name, struct strlist *problems)
{
	struct config *cfg = xcalloc(1, sizeof(*cfg));
	struct ctx c = { cfg, name, problems, 0, 0 };
	int seen[NKEYS] = { 0 };
	const char *end = NULL;
	cJSON *root;

	*out = NULL;
	cfg->path = xstrdup(name);
	cfg->dir = dir_of(name);
	apply_defaults(&c);

	if (memchr(buf, '\0', len)) {
		problem(&c, NULL, "contains a NUL byte; not a JSON text file");
		goto fail;
	}
	root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!root) {
		int line, col;
		size_t off = end && end >= buf ? (size_t)(end - buf) : 0;

		if (off > len)
			off = len;
		line_col(buf, off, &line, &col);
		jg_error_set(JG_EINVAL, "%s:%d:%d: invalid JSON", name, line,
		    col);
		c.nproblems++;
		if (problems)
			strlist_add(problems, jg_error_msg());
		goto fail;
	}
	if (!cJSON_IsObject(root)) {
		expected(&c, NULL, "a JSON object at the top level", root);
		cJSON_Delete(root);
		goto fail;
	}
	walk(&c, NULL, root, seen);
	cJSON_Delete(root);
	apply_env(&c, seen);
	cross_check(&c, seen);
	if (c.nproblems)
		goto fail;
	*out = cfg;
	return 0;
fail:
	config_free(cfg);
	return JG_EINVAL;
}

int
config_load(struct config **out, const char *path, struct strlist *problems)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	*out = NULL;
	rc = file_read(&sb, path);
	if (rc) {
		if (problems)
			strlist_add(problems, jg_error_msg());
		strbuf_release(&sb);
		return rc;
	}
	rc = config_parse(out, sb.buf, sb.len, path, problems);
	strbuf_release(&sb);
	return rc;
}

void
config_free(struct config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		char *slot = (char *)cfg + k->off;

		switch (k->type) {
		case K_STRING:
		case K_PATH:
		case K_REPO:
			free(*(char **)slot);
			break;
		case K_LIST:
		case K_PATHLIST:
			strlist_release((struct strlist *)slot);
			break;
		default:
			break;
		}
	}
	for (size_t i = 0; i < cfg->nr_thresholds; i++) {
		free(cfg->thresholds[i].scene);
		free(cfg->thresholds[i].metric);
	}
	free(cfg->thresholds);
	free(cfg->path);
	free(cfg->dir);
	free(cfg);
}

void
config_threshold_for(const struct config *cfg, const char *scene,
    const struct metric_def *m, double *relative, double *absolute)
{
	double rel = NAN, abs_ = NAN, grel = NAN, gabs = NAN;

	for (size_t i = 0; i < cfg->nr_thresholds; i++) {
		const struct config_threshold *t = &cfg->thresholds[i];

		if (strcmp(t->metric, m->name))
			continue;
		if (!t->scene) {
			grel = t->relative;
			gabs = t->absolute;
		} else if (scene && !strcmp(t->scene, scene)) {
			rel = t->relative;
			abs_ = t->absolute;
		}
	}
	*relative = !isnan(rel) ? rel : !isnan(grel) ? grel : m->rel_threshold;
	*absolute = !isnan(abs_) ? abs_ : !isnan(gabs) ? gabs :
	    m->abs_threshold;
}

const char *
config_default_path(const char *flag)
{
	const char *env = getenv("JANKGATE_CONFIG");

	if (flag)
		return flag;
	if (env && *env)
		return env;
	return "jankgate.json";
}

static const char *const type_names[] = {
	[K_OBJECT] = "object", [K_STRING] = "string", [K_PATH] = "path",
	[K_REPO] = "path or URL", [K_INT] = "integer", [K_NUMBER] = "number",
	[K_BOOL] = "boolean", [K_ENUM] = "string", [K_LIST] = "list",
	[K_PATHLIST] = "list of paths", [K_THRESHOLDS] = "object",
	[K_SCENE_THRESHOLDS] = "object", [K_SECRET] = "(refused)",
};

size_t
config_key_docs(const struct config_key_doc **out)
{
	static struct config_key_doc docs[NKEYS];
	static char envs[NKEYS][64];
	size_t n = 0;

	for (size_t i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		int scalar = k->type != K_OBJECT && k->type != K_THRESHOLDS &&
		    k->type != K_SCENE_THRESHOLDS && k->type != K_SECRET;

		if (k->type == K_SECRET)
			continue;
		if (scalar) {
			char *e = env_name(k->path);

			snprintf(envs[n], sizeof(envs[n]), "%s", e);
			free(e);
		} else {
			envs[n][0] = '\0';
		}
		docs[n] = (struct config_key_doc){ k->path, type_names[k->type],
		    k->def ? k->def : "", envs[n], k->doc };
		n++;
	}
	*out = docs;
	return n;
}
