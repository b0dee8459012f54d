/*
 * aapt.c: the versionCode of an APK jankgate cannot read itself, from the
 * SDK's `aapt2 dump badging APK` (or `aapt`), when one is on PATH:
 *
 *	package: name='com.example.shop' versionCode='100' versionName='1.0.0'
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aapt.h"
#include "error.h"
#include "proc.h"
#include "xalloc.h"
#include "banned.h"

#define BADGING_TIMEOUT_MS 60000

int
aapt_badging_version_code(const char *text, double *version_code)
{
	const char *p = strstr(text, "versionCode='");
	char *end;
	double v;

	*version_code = NAN;
	if (!p || (p != text && strncmp(text, "package:", 8)))
		return jg_error_set(JG_ENOTFOUND, "no versionCode in the "
		    "badging");
	p += strlen("versionCode='");
	v = strtod(p, &end);
	if (end == p || *end != '\'' || v < 0)
		return jg_error_set(JG_EINVAL, "bad versionCode in the "
		    "badging");
	*version_code = v;
	return 0;
}

int
aapt_version_code(const char *apk, double *version_code, char **tool)
{
	static const char *const tools[] = { "aapt2", "aapt" };

	*version_code = NAN;
	*tool = NULL;
	for (size_t i = 0; i < sizeof(tools) / sizeof(*tools); i++) {
		const char *argv[] = { tools[i], "dump", "badging", apk, NULL };
		struct proc_opts po = { .timeout_ms = BADGING_TIMEOUT_MS };
		struct proc_result res;
		int rc;

		if (!proc_in_path(tools[i]))
			continue;
		proc_result_init(&res);
		rc = proc_run(&res, argv, &po);
		if (!rc && res.exit_code != 0)
			rc = jg_error_set(JG_EINVAL, "'%s dump badging %s' "
			    "exited with status %d", tools[i], apk,
			    res.exit_code);
		if (!rc)
			rc = aapt_badging_version_code(res.out.buf,
			    version_code);
		proc_result_release(&res);
		if (rc)
			return jg_error_prefix("'%s'", apk);
		*tool = xstrdup(tools[i]);
		return 0;
	}
	return jg_error_set(JG_ENOTFOUND, "neither aapt2 nor aapt is on PATH");
}
