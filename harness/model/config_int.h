/*
 * config_int.h: the configuration schema, shared by config.c (validation)
 * and config_keys.c (the table and its documentation).  Private to them.
 */
#ifndef JG_CONFIG_INT_H
#define JG_CONFIG_INT_H

#include <stddef.h>

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

extern const struct key config_keys[];
extern const size_t config_nkeys;

/* "JANKGATE_" + the key path upper-cased, dots as underscores; caller frees. */
char *config_env_name(const char *path);

/* Levenshtein distance of two names; 99 for names of 63 bytes or more. */
size_t config_edit_distance(const char *a, const char *b);

/* The index of `s` in the NULL-terminated `values` (a K_ENUM's), or -1. */
int config_enum_index(const char *const *values, const char *s);

#endif
