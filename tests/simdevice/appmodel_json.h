/*
 * appmodel_json.h: what the parts of the app-model reader share.
 *
 * Private to appmodel*.c, which is why cJSON appears here: these are the
 * reader's own helpers, not an interface for other modules.  Every
 * reader takes `where`, the key path of the object, for its messages, and
 * returns 0 or JG_EINVAL with a message naming the key.
 */
#ifndef SIM_APPMODEL_JSON_H
#define SIM_APPMODEL_JSON_H

#include <cJSON.h>

#include "appmodel.h"

/*
 * `j` must be an object whose members are all in the NULL-terminated
 * `allowed`: an unknown key is a typo, not something to ignore.
 */
int appmodel_jcheck(const cJSON *j, const char *const *allowed,
    const char *where);

/* *out = a copy of string `key`, else of `def` (NULL: `key` is required). */
int appmodel_jstr(const cJSON *obj, const char *key, const char *where,
    const char *def, char **out);

/* *out = number `key` in [min, max], else `def` (NAN: `key` is required). */
int appmodel_jnum(const cJSON *obj, const char *key, const char *where,
    double def, double min, double max, double *out);

/* As appmodel_jnum, for an integer. */
int appmodel_jint(const cJSON *obj, const char *key, const char *where,
    double def, double min, double max, long long *out);

/* *out = boolean `key`, else `def`. */
int appmodel_jbool(const cJSON *obj, const char *key, const char *where,
    int def, int *out);

/* A [left, top, right, bottom] array with left < right and top < bottom. */
int appmodel_jbounds(const cJSON *obj, const char *key, const char *where,
    int out[4]);

/* Reset `l` to "no libraries" (appmodel_libs.c). */
void appmodel_libs_clear(struct appmodel_libs *l);

/* Read the "libraries" object `j` (NULL: none) into `l`. */
int appmodel_parse_libraries(const cJSON *j, struct appmodel_libs *l);

#endif
