/*
 * config.c: the jankgate.json schema, its validation and the environment.
 *
 * One table (config_keys.c) describes every key: its dotted path, type,
 * range, default (as a JSON literal, applied through the same setter as the
 * file so the documented default is the real one), environment variable and
 * one line of documentation.  Validation walks the parsed JSON against the
 * table and collects every problem instead of stopping at the first,
 * because a user fixing a config wants the whole list at once:
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
#include "fileio.h"
#include "metrics.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"



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
	for (size_t i = 0; i < config_nkeys; i++)
		if (!strcmp(config_keys[i].path, path))
			return &config_keys[i];
	return NULL;
}

size_t
config_edit_distance(const char *a, const char *b)
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

	for (size_t i = 0; i < config_nkeys; i++) {
		const char *p = config_keys[i].path, *leaf;

		if (plen && (strncmp(p, parent, plen) || p[plen] != '.'))
			continue;
		leaf = plen ? p + plen + 1 : p;
		if (strchr(leaf, '.') || config_keys[i].type == K_SECRET)
			continue;
		size_t d = config_edit_distance(name, leaf);

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

int
config_enum_index(const char *const *values, const char *s)
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

	if (!cJSON_IsArray(v)) {
		expected(c, path, "a list of strings", v);
		return;
	}
	strlist_release(l);
	cJSON_ArrayForEach(it, v) {
		char *ipath = xasprintf("%s[%zu]", path, i++);

		if (!cJSON_IsString(it)) {
			expected(c, ipath, "a string", it);
		} else if (k->values && config_enum_index(k->values,
		    it->valuestring) < 0) {
			struct strbuf sb = STRBUF_INIT;

			one_of(&sb, k->values);
			expected(c, ipath, sb.buf, it);
			strbuf_release(&sb);
		} else if (strlist_find(l, it->valuestring) >= 0) {
			problem(c, ipath, "'%s' is listed twice",
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
set_paths(struct ctx *c, const struct key *k, const char *path,
    const cJSON *v, struct strlist *l)
{
	char *p;

	if (cJSON_IsArray(v)) {
		if (!cJSON_GetArraySize(v)) {
			expected(c, path, "a path or a non-empty list of paths",
			    v);
			return;
		}
		set_list(c, k, path, v, l);
		return;
	}
	if (!cJSON_IsString(v) || !*v->valuestring ||
	    strpbrk(v->valuestring, "\r\n")) {
		expected(c, path, "a path or a list of paths", v);
		return;
	}
	strlist_release(l);
	p = resolve_path(c, v->valuestring);
	strlist_add(l, p);
	free(p);
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
	cfg->compare.thresholds = xreallocarray(cfg->compare.thresholds,
	    cfg->compare.nr_thresholds + 1, sizeof(*cfg->compare.thresholds));
	t.scene = scene ? xstrdup(scene) : NULL;
	t.metric = xstrdup(metric);
	cfg->compare.thresholds[cfg->compare.nr_thresholds++] = t;
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
		    config_enum_index(k->values, v->valuestring) : -1;

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
			seen[k - config_keys] = 1;
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
	for (size_t i = 0; i < config_nkeys; i++) {
		cJSON *v;

		if (!config_keys[i].def)
			continue;
		v = cJSON_Parse(config_keys[i].def);
		if (!v)
			abort();	/* a broken literal in the table above */
		set_value(c, &config_keys[i], config_keys[i].path, v);
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

static void
apply_env(struct ctx *c, int *seen)
{
	const char *file = c->file;

	c->from_env = 1;
	for (size_t i = 0; i < config_nkeys; i++) {
		const struct key *k = &config_keys[i];
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
cross_check(struct ctx *c, const int *seen, int need_required)
{
	struct config *cfg = c->cfg;

	for (size_t i = 0; i < config_nkeys; i++)
		if (need_required && config_keys[i].required && !seen[i])
			problem(c, config_keys[i].path, "missing (%s)",
			    config_keys[i].doc);
	if (seen[find_key("scenarios") - config_keys] && !cfg->scenarios.nr)
		problem(c, "scenarios", "expected at least one scenario file");
	if (cfg->max_iterations < cfg->iterations)
		problem(c, "max_iterations", "expected a number >= iterations "
		    "(%d), got %d", cfg->iterations, cfg->max_iterations);
	if (cfg->compare.min_iterations > cfg->iterations)
		problem(c, "min_iterations", "expected a number <= iterations "
		    "(%d), got %d", cfg->iterations, cfg->compare.min_iterations);
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
	if (cfg->devices.install != INSTALL_REPLACE && !cfg->apk.nr)
		problem(c, "devices.install", "\"%s\" needs an apk to install",
		    config_install_name(cfg->devices.install));
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
	int *seen = xcalloc(config_nkeys, sizeof(*seen));
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
	cross_check(&c, seen, 1);
	if (c.nproblems)
		goto fail;
	free(seen);
	*out = cfg;
	return 0;
fail:
	free(seen);
	config_free(cfg);
	return JG_EINVAL;
}

int
config_defaults(struct config **out, struct strlist *problems)
{
	struct config *cfg = xcalloc(1, sizeof(*cfg));
	struct ctx c = { cfg, "defaults", problems, 0, 0 };
	int *seen = xcalloc(config_nkeys, sizeof(*seen));

	*out = NULL;
	cfg->path = xstrdup("(no configuration file)");
	cfg->dir = dir_of("x");
	apply_defaults(&c);
	apply_env(&c, seen);
	cross_check(&c, seen, 0);
	free(seen);
	if (c.nproblems) {
		config_free(cfg);
		return JG_EINVAL;
	}
	*out = cfg;
	return 0;
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
	for (size_t i = 0; i < config_nkeys; i++) {
		const struct key *k = &config_keys[i];
		char *slot = (char *)cfg + k->off;

		switch (k->type) {
		case K_STRING:
		case K_PATH:
		case K_REPO:
			free(*(char **)slot);
			break;
		case K_LIST:
		case K_PATHLIST:
		case K_PATHS:
			strlist_release((struct strlist *)slot);
			break;
		default:
			break;
		}
	}
	for (size_t i = 0; i < cfg->compare.nr_thresholds; i++) {
		free(cfg->compare.thresholds[i].scene);
		free(cfg->compare.thresholds[i].metric);
	}
	free(cfg->compare.thresholds);
	free(cfg->path);
	free(cfg->dir);
	free(cfg);
}

void
config_threshold_for(const struct config_compare *cfg, const char *scene,
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
