/*
 * config_int.h: what the files of the configuration share.  Private to
 * them.
 *
 *   config_keys.c   the schema: every key in one table, and the keys the
 *                   data sources declare (struct config_plugins); names,
 *                   environment variables, documentation
 *   config_value.c  one value, from the file, a default or the
 *                   environment, checked against its key and stored
 *   config.c        a whole file: the walk, the rules between keys, load,
 *                   defaults, free, and what commands ask of the result
 *   config_env.c    JANKGATE_* variables that name nothing
 */
#ifndef JG_CONFIG_INT_H
#define JG_CONFIG_INT_H

#include <stddef.h>

struct config;
struct config_plugins;
struct strlist;

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
	K_PATHS,	/* one path, or a list of paths: a strlist either way */
	K_THRESHOLDS,	/* metric -> { relative, absolute } */
	K_SCENE_THRESHOLDS,	/* scene -> metric -> { ... } */
	K_SECRET,	/* always an error: secrets never live in the file */
	K_RETIRED,	/* read no more: any value, ignored with a warning */
	K_SOURCES,	/* a K_LIST of the plug-ins' names */
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

/*
 * The schema of one configuration: the table of config_keys.c with the
 * plug-ins' names as the values of `sources` (the default: those marked
 * by_default) and their options as keys under source_options, in the
 * order of the plug-in table.
 */
struct config_schema {
	struct key *keys;
	/*
	 * Where each key's value lives: 0 in struct config at its `off`; n
	 * in a source's option value, cfg->opts[n - 1], at its `off`.
	 */
	size_t *opt;
	size_t nr;
	const char **names;	/* the plug-ins', NULL-terminated */
	const char **metric_names;	/* primary_metrics' values, too */
	char **owned;		/* paths and literals made here */
	size_t nr_owned;
};

/*
 * Build the schema for `plugins` (NULL: none, so `sources` must stay
 * empty), and make cfg->opts one value per declared option (cfg may be
 * NULL).  Nothing fails.
 */
void config_schema_init(struct config_schema *s,
    const struct config_plugins *plugins, struct config *cfg);
void config_schema_release(struct config_schema *s);

/* The key at `path`, or NULL. */
const struct key *config_schema_find(const struct config_schema *s,
    const char *path);

/* 1 when a key of type `t` has a value of its own (not an object...). */
int config_key_scalar(enum ktype t);

/* "JANKGATE_" + the key path upper-cased, dots as underscores; caller frees. */
char *config_env_name(const char *path);

/* Levenshtein distance of two names; 99 for names of 63 bytes or more. */
size_t config_edit_distance(const char *a, const char *b);

/* The index of `s` in the NULL-terminated `values` (a K_ENUM's), or -1. */
int config_enum_index(const char *const *values, const char *s);

/* ---- config_value.c: one parse's state, and its values -------------- */

struct config_ctx {
	struct config *cfg;
	const struct config_schema *schema;
	const char *file;	/* prefix of messages */
	struct strlist *problems;
	int nproblems;
	int from_env;
};

/*
 * Record a problem "FILE: PATH: message"; the first also becomes the
 * error message (JG_EINVAL).
 */
void config_problem(struct config_ctx *c, const char *path,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The problem "expected WHAT, got V". */
struct cJSON;
void config_expected(struct config_ctx *c, const char *path,
    const char *what, const struct cJSON *v);

/* Store value `v` for key `k` (named `path` in messages). */
void config_set_value(struct config_ctx *c, const struct key *k,
    const char *path, const struct cJSON *v);

/* Every key's default, through config_set_value(). */
void config_apply_defaults(struct config_ctx *c);

/* The JANKGATE_* variables of every key; seen[k] set for each found. */
void config_apply_env(struct config_ctx *c, int *seen);

#endif
