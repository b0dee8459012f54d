/*
 * config.c: a whole jankgate.json: parsed, walked against the schema
 * (config_keys.c, with the data sources' keys), the rules between keys
 * checked, the environment applied (config_value.c), and what commands ask
 * of the result.
 *
 * Validation collects every problem instead of stopping at the first; an
 * unknown key names the nearest known one ("did you mean 'iterations'?").
 */
#include <limits.h>
#include <math.h>
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
#include "retain.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* The closest known key with the same parent as `path`, or NULL. */
static const char *
suggest(const struct config_schema *sch, const char *parent,
    const char *name)
{
	size_t plen = parent ? strlen(parent) : 0, best = 3;
	const char *hit = NULL;

	for (size_t i = 0; i < sch->nr; i++) {
		const char *p = sch->keys[i].path, *leaf;

		if (plen && (strncmp(p, parent, plen) || p[plen] != '.'))
			continue;
		leaf = plen ? p + plen + 1 : p;
		if (strchr(leaf, '.') || sch->keys[i].type == K_SECRET ||
		    sch->keys[i].type == K_RETIRED)
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
unknown_key(struct config_ctx *c, const char *parent, const char *path,
    const char *name)
{
	const char *s = suggest(c->schema, parent, name);

	if (s)
		config_problem(c, path, "unknown key (did you mean '%s'?)", s);
	else
		config_problem(c, path, "unknown key");
}

static void
walk(struct config_ctx *c, const char *parent, const cJSON *obj, int *seen)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, obj) {
		char *path = parent ? xasprintf("%s.%s", parent, it->string) :
		    xstrdup(it->string);
		const struct key *k = config_schema_find(c->schema, path);

		/* cJSON keeps duplicate keys; a second one would be ignored. */
		for (const cJSON *p = obj->child; p != it; p = p->next)
			if (!strcmp(p->string, it->string)) {
				config_problem(c, path, "duplicate key");
				break;
			}
		if (!k) {
			unknown_key(c, parent, path, it->string);
		} else {
			seen[k - c->schema->keys] = 1;
			if (k->type == K_OBJECT) {
				if (cJSON_IsObject(it))
					walk(c, path, it, seen);
				else
					config_expected(c, path, "an object",
					    it);
			} else {
				config_set_value(c, k, path, it);
			}
		}
		free(path);
	}
}


/* Rules that involve more than one key. */
static void
cross_check(struct config_ctx *c, const int *seen, int need_required)
{
	struct config *cfg = c->cfg;
	const struct config_schema *sch = c->schema;
	struct retain_rule rule;
	struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; i < sch->nr; i++)
		if (need_required && sch->keys[i].required && !seen[i])
			config_problem(c, sch->keys[i].path, "missing (%s)",
			    sch->keys[i].doc);
	if (seen[config_schema_find(sch, "scenarios") - sch->keys] &&
	    !cfg->scenarios.nr)
		config_problem(c, "scenarios",
		    "expected at least one scenario file");
	if (cfg->max_iterations < cfg->iterations)
		config_problem(c, "max_iterations",
		    "expected a number >= iterations (%d), got %d",
		    cfg->iterations, cfg->max_iterations);
	if (cfg->compare.min_iterations > cfg->iterations)
		config_problem(c, "min_iterations",
		    "expected a number <= iterations (%d), got %d",
		    cfg->iterations, cfg->compare.min_iterations);
	if (cfg->mail.to.nr && !cfg->mail.server)
		config_problem(c, "mail.server", "missing (mail.to is set, "
		    "so mail needs a server such as "
		    "\"smtp://mail.example.com:587\")");
	if (cfg->mail.server && strncmp(cfg->mail.server, "smtp://", 7) &&
	    strncmp(cfg->mail.server, "smtps://", 8))
		config_problem(c, "mail.server", "expected a URL starting with "
		    "smtp:// or smtps://, got \"%s\"", cfg->mail.server);
	for (size_t i = 0; i < cfg->mail.to.nr; i++)
		if (!strchr(cfg->mail.to.items[i], '@') ||
		    strpbrk(cfg->mail.to.items[i], "\r\n<>,; "))
			config_problem(c, "mail.to", "expected an address like "
			    "\"team@example.com\", got \"%s\"",
			    cfg->mail.to.items[i]);
	if (cfg->devices.install != INSTALL_REPLACE && !cfg->apk.nr)
		config_problem(c, "devices.install",
		    "\"%s\" needs an apk to install",
		    config_install_name(cfg->devices.install));
	if (cfg->baseline.retain &&
	    retain_check(&rule, cfg->baseline.retain, &why) < 0)
		config_problem(c, "baseline.retain", "%s", why.buf);
	strbuf_release(&why);
	if (cfg->app && strpbrk(cfg->app, " \t'\"$;&|`\\/"))
		config_problem(c, "app", "expected a package name like "
		    "\"com.example.shop\", got \"%s\"", cfg->app);
	/*
	 * Valid, but it does nothing: markers.matrix makes scenes of the
	 * FPS reports only the matrix source reads.  Every command that
	 * loads the file says so (commands.c), so run and gate do not
	 * silently measure without the scenes it asks for.
	 */
	if (cfg->markers.matrix && strlist_find(&cfg->sources, "matrix") < 0)
		strlist_addf(&cfg->warnings, "%s: markers.matrix: set, but "
		    "\"matrix\" is not in sources, so no Matrix report is read "
		    "and no scene is made from one (add \"matrix\" to sources)",
		    cfg->path);
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

/* A config being made, and its schema. */
static struct config *
start(struct config_ctx *c, struct config_schema *sch, const char *name,
    const char *path, const struct config_plugins *plugins,
    struct strlist *problems)
{
	struct config *cfg = xcalloc(1, sizeof(*cfg));

	config_schema_init(sch, plugins, cfg);
	*c = (struct config_ctx){ cfg, sch, name, problems, 0, 0 };
	cfg->path = xstrdup(path);
	cfg->dir = dir_of(path);
	cfg->plugins = plugins;
	config_apply_defaults(c);
	return cfg;
}

int
config_parse(struct config **out, const char *buf, size_t len,
    const char *name, const struct config_plugins *plugins,
    struct strlist *problems)
{
	struct config_schema sch;
	struct config_ctx c;
	struct config *cfg = start(&c, &sch, name, name, plugins, problems);
	int *seen = xcalloc(sch.nr, sizeof(*seen));
	const char *end = NULL;
	cJSON *root;

	*out = NULL;
	if (memchr(buf, '\0', len)) {
		config_problem(&c, NULL, "contains a NUL byte; not a JSON text "
		    "file");
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
		config_expected(&c, NULL, "a JSON object at the top level",
		    root);
		cJSON_Delete(root);
		goto fail;
	}
	walk(&c, NULL, root, seen);
	cJSON_Delete(root);
	config_apply_env(&c, seen);
	cross_check(&c, seen, 1);
	if (c.nproblems)
		goto fail;
	free(seen);
	config_schema_release(&sch);
	*out = cfg;
	return 0;
fail:
	free(seen);
	config_schema_release(&sch);
	config_free(cfg);
	return JG_EINVAL;
}

int
config_defaults(struct config **out, const struct config_plugins *plugins,
    struct strlist *problems)
{
	struct config_schema sch;
	struct config_ctx c;
	struct config *cfg = start(&c, &sch, "defaults", "x", plugins,
	    problems);
	int *seen = xcalloc(sch.nr, sizeof(*seen));

	*out = NULL;
	free(cfg->path);
	cfg->path = xstrdup("(no configuration file)");
	config_apply_env(&c, seen);
	cross_check(&c, seen, 0);
	free(seen);
	config_schema_release(&sch);
	if (c.nproblems) {
		config_free(cfg);
		return JG_EINVAL;
	}
	*out = cfg;
	return 0;
}

int
config_load(struct config **out, const char *path,
    const struct config_plugins *plugins, struct strlist *problems)
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
	rc = config_parse(out, sb.buf, sb.len, path, plugins, problems);
	strbuf_release(&sb);
	return rc;
}

void
config_free(struct config *cfg)
{
	struct config_schema sch;

	if (!cfg)
		return;
	/* The table's keys; the plug-ins' values follow. */
	config_schema_init(&sch, NULL, NULL);
	for (size_t i = 0; i < sch.nr; i++) {
		const struct key *k = &sch.keys[i];
		char *slot = (char *)cfg + k->off;

		switch (k->type) {
		case K_STRING:
		case K_PATH:
		case K_REPO:
			free(*(char **)slot);
			break;
		case K_LIST:
		case K_SOURCES:
		case K_PATHLIST:
		case K_PATHS:
			strlist_release((struct strlist *)slot);
			break;
		default:
			break;
		}
	}
	config_schema_release(&sch);
	strlist_release(&cfg->warnings);
	for (size_t i = 0; i < cfg->nr_opts; i++)
		free(cfg->opts[i].path);
	free(cfg->opts);
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

/* The value of declared option `name`, or NULL. */
static const struct config_opt_value *
opt_value(const struct config *cfg, const char *name)
{
	for (size_t i = 0; cfg && i < cfg->nr_opts; i++)
		if (!strcmp(cfg->opts[i].opt->name, name))
			return &cfg->opts[i];
	return NULL;
}

int
config_opt_int(const struct config *cfg, const char *name)
{
	const struct config_opt_value *v = opt_value(cfg, name);

	return v && v->opt->type == CONFIG_OPT_INT ? v->num : 0;
}

const char *
config_opt_path(const struct config *cfg, const char *name)
{
	const struct config_opt_value *v = opt_value(cfg, name);

	return v && v->opt->type == CONFIG_OPT_PATH ? v->path : NULL;
}
