/*
 * appmodel_json.c: typed, range-checked reads of JSON members that name
 * the key path when they fail, so a model author sees
 * "activities[1].frames.scroll.median_ms: -1 is outside [0.1, 60000]".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "appmodel_json.h"
#include "error.h"
#include "xalloc.h"
#include "banned.h"

int
appmodel_jcheck(const cJSON *j, const char *const *allowed,
    const char *where)
{
	const cJSON *it;
	size_t i;

	if (!cJSON_IsObject(j))
		return jg_error_set(JG_EINVAL, "%s: expected an object",
		    where);
	cJSON_ArrayForEach(it, j) {
		for (i = 0; allowed[i]; i++)
			if (!strcmp(it->string, allowed[i]))
				break;
		if (!allowed[i])
			return jg_error_set(JG_EINVAL, "%s: unknown key '%s'",
			    where, it->string);
	}
	return 0;
}

int
appmodel_jstr(const cJSON *obj, const char *key, const char *where,
    const char *def, char **out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!j) {
		if (!def)
			return jg_error_set(JG_EINVAL, "%s: missing '%s'",
			    where, key);
		*out = xstrdup(def);
		return 0;
	}
	if (!cJSON_IsString(j))
		return jg_error_set(JG_EINVAL, "%s.%s: expected a string",
		    where, key);
	*out = xstrdup(j->valuestring);
	return 0;
}

int
appmodel_jnum(const cJSON *obj, const char *key, const char *where, double def,
    double min, double max, double *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!j) {
		if (isnan(def))
			return jg_error_set(JG_EINVAL, "%s: missing '%s'",
			    where, key);
		*out = def;
		return 0;
	}
	if (!cJSON_IsNumber(j))
		return jg_error_set(JG_EINVAL, "%s.%s: expected a number",
		    where, key);
	if (j->valuedouble < min || j->valuedouble > max)
		return jg_error_set(JG_EINVAL,
		    "%s.%s: %g is outside [%g, %g]", where, key,
		    j->valuedouble, min, max);
	*out = j->valuedouble;
	return 0;
}

int
appmodel_jint(const cJSON *obj, const char *key, const char *where, double def,
    double min, double max, long long *out)
{
	double d;
	int ret = appmodel_jnum(obj, key, where, def, min, max, &d);

	if (ret)
		return ret;
	if (d != floor(d))
		return jg_error_set(JG_EINVAL, "%s.%s: expected an integer",
		    where, key);
	*out = (long long)d;
	return 0;
}

int
appmodel_jbool(const cJSON *obj, const char *key, const char *where, int def,
    int *out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!j) {
		*out = def;
		return 0;
	}
	if (!cJSON_IsBool(j))
		return jg_error_set(JG_EINVAL, "%s.%s: expected true or false",
		    where, key);
	*out = cJSON_IsTrue(j);
	return 0;
}

int
appmodel_jbounds(const cJSON *obj, const char *key, const char *where,
    int out[4])
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key), *v;
	int i = 0;

	if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != 4)
		return jg_error_set(JG_EINVAL,
		    "%s.%s: expected [left, top, right, bottom]", where, key);
	cJSON_ArrayForEach(v, j) {
		if (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
		    v->valuedouble > 100000)
			return jg_error_set(JG_EINVAL,
			    "%s.%s: coordinates are pixels from 0 to 100000",
			    where, key);
		out[i++] = (int)v->valuedouble;
	}
	if (out[0] >= out[2] || out[1] >= out[3])
		return jg_error_set(JG_EINVAL, "%s.%s: empty rectangle",
		    where, key);
	return 0;
}
