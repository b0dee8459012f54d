/*
 * appmodel_libs.c: which device libraries an app model carries, from its
 * "libraries" object or from a one-line spec that replaces the set
 * ("matrix=2.0,blockcanary=1.5:external,perf").
 */
#include <stdlib.h>
#include <string.h>

#include "appmodel_json.h"
#include "error.h"
#include "xalloc.h"
#include "banned.h"

static int
matrix_version(const char *v, enum appmodel_matrix *out)
{
	if (!strcmp(v, "0.5"))
		*out = APPMODEL_MATRIX_05;
	else if (!strcmp(v, "2.0"))
		*out = APPMODEL_MATRIX_20;
	else if (!strcmp(v, "2.1"))
		*out = APPMODEL_MATRIX_21;
	else
		return jg_error_set(JG_EINVAL, "matrix version '%s' is not "
		    "one of \"0.5\", \"2.0\", \"2.1\"", v);
	return 0;
}

/* "1.0" .. "1.5" as 10 .. 15. */
static int
blockcanary_version(const char *v, int *out)
{
	if (strlen(v) != 3 || v[0] != '1' || v[1] != '.' || v[2] < '0' ||
	    v[2] > '5')
		return jg_error_set(JG_EINVAL, "blockcanary version '%s' is "
		    "not one of 1.0 to 1.5", v);
	*out = 10 + (v[2] - '0');
	return 0;
}

static int
bc_dir(const char *v, enum appmodel_bcdir *out)
{
	if (!strcmp(v, "files"))
		*out = APPMODEL_BC_FILES;
	else if (!strcmp(v, "external"))
		*out = APPMODEL_BC_EXTERNAL;
	else
		return jg_error_set(JG_EINVAL, "blockcanary dir '%s' is not "
		    "\"files\" or \"external\"", v);
	return 0;
}

void
appmodel_libs_clear(struct appmodel_libs *l)
{
	free(l->perf_tag);
	memset(l, 0, sizeof(*l));
	l->perf_tag = xstrdup("PERF");
	l->bc_threshold_ms = 1000;
}

static int
parse_blockcanary(const cJSON *j, struct appmodel_libs *l)
{
	static const char *const keys[] = {
		"version", "dir", "threshold_ms", NULL
	};
	const char *w = "libraries.blockcanary";
	char *s = NULL;
	long long thr;
	int ret;

	if (cJSON_IsString(j))
		return blockcanary_version(j->valuestring, &l->blockcanary);
	if ((ret = appmodel_jcheck(j, keys, w)))
		return ret;
	if ((ret = appmodel_jstr(j, "version", w, "1.5", &s)) ||
	    (ret = blockcanary_version(s, &l->blockcanary)))
		goto out;
	free(s);
	s = NULL;
	if ((ret = appmodel_jstr(j, "dir", w, "files", &s)) ||
	    (ret = bc_dir(s, &l->bc_dir)) ||
	    (ret = appmodel_jint(j, "threshold_ms", w, 1000, 1, 60000, &thr)))
		goto out;
	l->bc_threshold_ms = (int)thr;
out:
	free(s);
	return ret;
}

int
appmodel_parse_libraries(const cJSON *j, struct appmodel_libs *l)
{
	static const char *const keys[] = {
		"matrix", "blockcanary", "perf", "fpsanalyzer", "traceman", NULL
	};
	const char *w = "libraries";
	const cJSON *v;
	int ret;

	appmodel_libs_clear(l);
	if (!j)
		return 0;
	if ((ret = appmodel_jcheck(j, keys, w)))
		return ret;
	if ((v = cJSON_GetObjectItemCaseSensitive(j, "matrix"))) {
		if (!cJSON_IsString(v))
			return jg_error_set(JG_EINVAL, "libraries.matrix: "
			    "expected a version string");
		if ((ret = matrix_version(v->valuestring, &l->matrix)))
			return ret;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(j, "blockcanary")) &&
	    (ret = parse_blockcanary(v, l)))
		return ret;
	if ((v = cJSON_GetObjectItemCaseSensitive(j, "perf"))) {
		if (cJSON_IsString(v)) {
			free(l->perf_tag);
			l->perf_tag = xstrdup(v->valuestring);
			l->perf = 1;
		} else if ((ret = appmodel_jbool(j, "perf", w, 0, &l->perf)))
			return jg_error_set(JG_EINVAL, "libraries.perf: "
			    "expected true, false or a global tag");
	}
	if ((ret = appmodel_jbool(j, "fpsanalyzer", w, 0, &l->fpsanalyzer)) ||
	    (ret = appmodel_jbool(j, "traceman", w, 0, &l->traceman)))
		return ret;
	return 0;
}

/* Apply one "name[=value]" item of a library spec to `l`. */
static int
apply_lib(struct appmodel_libs *l, const char *item)
{
	const char *eq = strchr(item, '=');
	size_t n = eq ? (size_t)(eq - item) : strlen(item);
	const char *v = eq ? eq + 1 : NULL;
	char *colon;
	int ret = 0;

	if (n == 6 && !strncmp(item, "matrix", n) && v)
		return matrix_version(v, &l->matrix);
	if (n == 11 && !strncmp(item, "blockcanary", n)) {
		char *ver = xstrdup(v ? v : "1.5");

		if ((colon = strchr(ver, ':'))) {
			*colon = '\0';
			ret = bc_dir(colon + 1, &l->bc_dir);
		}
		if (!ret)
			ret = blockcanary_version(ver, &l->blockcanary);
		free(ver);
		return ret;
	}
	if (n == 4 && !strncmp(item, "perf", n)) {
		l->perf = 1;
		if (v) {
			free(l->perf_tag);
			l->perf_tag = xstrdup(v);
		}
		return 0;
	}
	if (!v && !strcmp(item, "fpsanalyzer"))
		l->fpsanalyzer = 1;
	else if (!v && !strcmp(item, "traceman"))
		l->traceman = 1;
	else
		return jg_error_set(JG_EINVAL, "unknown library '%s'", item);
	return 0;
}

int
appmodel_set_libraries(struct appmodel *m, const char *spec)
{
	struct appmodel_libs l = { 0 };
	char *copy = xstrdup(spec), *save = NULL, *item;
	int ret = 0;

	appmodel_libs_clear(&l);
	if (strcmp(spec, "none")) {
		for (item = strtok_r(copy, ",", &save); item && !ret;
		    item = strtok_r(NULL, ",", &save))
			ret = apply_lib(&l, item);
	}
	free(copy);
	if (ret) {
		free(l.perf_tag);
		return jg_error_prefix("library set '%s'", spec);
	}
	/* Keep the model's BlockCanary threshold: the spec has no room. */
	l.bc_threshold_ms = m->libs.bc_threshold_ms;
	free(m->libs.perf_tag);
	m->libs = l;
	return 0;
}
