/*
 * config_value.c: one value of jankgate.json, from the file, a default or
 * the environment, checked against its key and stored (config_int.h).
 *
 * Every problem is collected instead of stopping at the first, because a
 * user fixing a config wants the whole list at once:
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
#include "config_int.h"
#include "error.h"
#include "metrics.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

void
config_problem(struct config_ctx *c, const char *path, const char *fmt, ...)
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

void
config_expected(struct config_ctx *c, const char *path, const char *what,
    const cJSON *v)
{
	struct strbuf got = STRBUF_INIT;

	describe(&got, v);
	config_problem(c, path, "expected %s, got %s", what, got.buf);
	strbuf_release(&got);
}

static char *
resolve_path(struct config_ctx *c, const char *p)
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
set_list(struct config_ctx *c, const struct key *k, const char *path,
    const cJSON *v, struct strlist *l)
{
	const cJSON *it;
	size_t i = 0;

	if (!cJSON_IsArray(v)) {
		config_expected(c, path, "a list of strings", v);
		return;
	}
	strlist_release(l);
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s[%zu]", path, i++);

		if (!cJSON_IsString(it)) {
			config_expected(c, ipath, "a string", it);
		} else if (k->values && config_enum_index(k->values,
		    it->valuestring) < 0) {
			struct strbuf sb = STRBUF_INIT;

			one_of(&sb, k->values);
			config_expected(c, ipath, sb.buf, it);
			strbuf_release(&sb);
		} else if (strlist_find(l, it->valuestring) >= 0) {
			config_problem(c, ipath, "'%s' is listed twice",
			    it->valuestring);
		} else if (k->type == K_PATHLIST || k->type == K_PATHS) {
			char *p = resolve_path(c, it->valuestring);

			strlist_add(l, p);
			free(p);
		} else {
			strlist_add(l, it->valuestring);
		}
		free(ipath);
	}
}

/* One path (a string) or several (a list), into a list either way. */
static void
set_paths(struct config_ctx *c, const struct key *k, const char *path,
    const cJSON *v, struct strlist *l)
{
	char *p;

	if (cJSON_IsArray(v)) {
		if (!cJSON_GetArraySize(v)) {
			config_expected(c, path,
			    "a path or a non-empty list of paths", v);
			return;
		}
		set_list(c, k, path, v, l);
		return;
	}
	if (!cJSON_IsString(v) || !*v->valuestring ||
	    strpbrk(v->valuestring, "\r\n")) {
		config_expected(c, path, "a path or a list of paths", v);
		return;
	}
	strlist_release(l);
	p = resolve_path(c, v->valuestring);
	strlist_add(l, p);
	free(p);
}

static void
add_threshold(struct config_ctx *c, const char *path, const char *scene,
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
		config_problem(c, path, "unknown metric (known: %s)", sb.buf);
		strbuf_release(&sb);
		return;
	}
	if (!cJSON_IsObject(v)) {
		config_expected(c, path,
		    "an object like {\"relative\": 0.1, \"absolute\": 1}", v);
		return;
	}
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s.%s", path, it->string);

		if (!strcmp(it->string, "relative")) {
			if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
			    it->valuedouble > 1)
				config_expected(c, ipath,
				    "a number between 0 and 1", it);
			else
				t.relative = it->valuedouble;
		} else if (!strcmp(it->string, "absolute")) {
			if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
			    !isfinite(it->valuedouble))
				config_expected(c, ipath, "a number >= 0", it);
			else
				t.absolute = it->valuedouble;
		} else {
			config_problem(c, ipath,
			    "unknown key (expected 'relative' or 'absolute')");
		}
		free(ipath);
	}
	/* A config names a handful of overrides: grow one at a time. */
	cfg->compare.thresholds = xreallocarray(cfg->compare.thresholds,
	    cfg->compare.nr_thresholds + 1, sizeof(*cfg->compare.thresholds));
	t.scene = scene ? xstrdup(scene) : NULL;
	t.metric = xstrdup(metric);
	cfg->compare.thresholds[cfg->compare.nr_thresholds++] = t;
}

static void
set_thresholds(struct config_ctx *c, const char *path, const char *scene,
    const cJSON *v)
{
	const cJSON *it;

	if (!cJSON_IsObject(v)) {
		config_expected(c, path, "an object keyed by metric name", v);
		return;
	}
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s.%s", path, it->string);

		add_threshold(c, ipath, scene, it->string, it);
		free(ipath);
	}
}

static void
set_scene_thresholds(struct config_ctx *c, const char *path, const cJSON *v)
{
	const cJSON *it;

	if (!cJSON_IsObject(v)) {
		config_expected(c, path, "an object keyed by scene name", v);
		return;
	}
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s.%s", path, it->string);

		if (!*it->string)
			config_problem(c, ipath, "scene name is empty");
		else
			set_thresholds(c, ipath, it->string, it);
		free(ipath);
	}
}

/* Store value `v` for key `k` (path `path` for messages). */
void
config_set_value(struct config_ctx *c, const struct key *k, const char *path,
    const cJSON *v)
{
	size_t opt = c->schema->opt[k - c->schema->keys];
	char *base = opt ? (char *)&c->cfg->opts[opt - 1] : (char *)c->cfg;
	struct strbuf what = STRBUF_INIT;

	switch (k->type) {
	case K_OBJECT:
		break;	/* handled by the walk */
	case K_STRING:
	case K_PATH:
	case K_REPO:
		if (!cJSON_IsString(v) || !*v->valuestring) {
			config_expected(c, path, k->type == K_STRING ?
			    "a non-empty string" : "a path", v);
			break;
		}
		if (strpbrk(v->valuestring, "\r\n")) {
			config_expected(c, path, "a single line", v);
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
			config_expected(c, path, what.buf, v);
			break;
		}
		*(int *)(base + k->off) = (int)v->valuedouble;
		break;
	case K_NUMBER:
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= k->min) ||
		    !(v->valuedouble <= k->max)) {
			strbuf_addf(&what, "a number between %g and %g",
			    k->min, k->max);
			config_expected(c, path, what.buf, v);
			break;
		}
		*(double *)(base + k->off) = v->valuedouble;
		break;
	case K_BOOL:
		if (!cJSON_IsBool(v)) {
			config_expected(c, path, "true or false", v);
			break;
		}
		*(int *)(base + k->off) = cJSON_IsTrue(v);
		break;
	case K_ENUM: {
		int i = cJSON_IsString(v) ?
		    config_enum_index(k->values, v->valuestring) : -1;

		if (i < 0) {
			one_of(&what, k->values);
			config_expected(c, path, what.buf, v);
			break;
		}
		*(int *)(base + k->off) = i;
		break;
	}
	case K_LIST:
	case K_SOURCES:
	case K_PATHLIST:
		set_list(c, k, path, v, (struct strlist *)(base + k->off));
		break;
	case K_PATHS:
		set_paths(c, k, path, v, (struct strlist *)(base + k->off));
		break;
	case K_THRESHOLDS:
		set_thresholds(c, path, NULL, v);
		break;
	case K_SCENE_THRESHOLDS:
		set_scene_thresholds(c, path, v);
		break;
	case K_SECRET:
		config_problem(c, path, "secrets are not read from the config "
		    "file; %s", k->doc);
		break;
	case K_RETIRED:
		/* An older configuration still loads; it is told once. */
		strlist_addf(&c->cfg->warnings, "%s: %s is no longer read: %s",
		    c->file, path, k->doc);
		break;
	}
	strbuf_release(&what);
}

void
config_apply_defaults(struct config_ctx *c)
{
	for (size_t i = 0; i < c->schema->nr; i++) {
		const struct key *k = &c->schema->keys[i];
		cJSON *v;

		if (!k->def)
			continue;
		v = cJSON_Parse(k->def);
		if (!v)
			abort();	/* a broken literal in a table */
		config_set_value(c, k, k->path, v);
		cJSON_Delete(v);
	}
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
	case K_SOURCES:
	case K_PATHLIST:
	case K_PATHS: {
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

void
config_apply_env(struct config_ctx *c, int *seen)
{
	const char *file = c->file;

	c->from_env = 1;
	for (size_t i = 0; i < c->schema->nr; i++) {
		const struct key *k = &c->schema->keys[i];
		char *name;
		const char *s;

		if (k->type == K_OBJECT || k->type == K_THRESHOLDS ||
		    k->type == K_SCENE_THRESHOLDS || k->type == K_SECRET)
			continue;
		name = config_env_name(k->path);
		s = getenv(name);
		if (s) {
			cJSON *v = env_value(k, s);
			char *where = xasprintf("environment %s", name);

			c->file = where;
			config_set_value(c, k, k->path, v);
			c->file = file;
			seen[i] = 1;
			free(where);
			cJSON_Delete(v);
		}
		free(name);
	}
	c->from_env = 0;
}
