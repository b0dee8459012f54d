/*
 * view_json.c: putting values into the model's tree (view_int.h,
 * view_json_*): strings and numbers or null, flags, lists with their
 * has_<key>, the VERDICT and COUNTS objects, in-page anchors.  The one
 * file of the view besides view.c that speaks cJSON's API in detail.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"
#include "view_int.h"
#include "banned.h"

void
view_json_str(cJSON *obj, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(obj, key, s);
	else
		cJSON_AddNullToObject(obj, key);
}

void
view_json_strf(cJSON *obj, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	cJSON_AddStringToObject(obj, key, sb.buf);
	strbuf_release(&sb);
}

void
view_json_num(cJSON *obj, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(obj, key, v);
	else
		cJSON_AddNullToObject(obj, key);
}

/* Only true is stored: an absent key is already false for a template. */
void
view_json_flag(cJSON *obj, const char *key, bool on)
{
	if (on)
		cJSON_AddTrueToObject(obj, key);
}

/*
 * Add `arr` as `key`, and "has_<key>": whether it is empty.  The flag is
 * always there, false too: a template inside a scene must not see the
 * enclosing scenario's has_blocks when the scene has none.
 */
void
view_json_list(cJSON *obj, const char *key, cJSON *arr)
{
	char has[64];

	cJSON_AddItemToObject(obj, key, arr);
	snprintf(has, sizeof(has), "has_%s", key);
	cJSON_AddBoolToObject(obj, has, cJSON_GetArraySize(arr) > 0);
}

static const struct {
	const char *label, *color, *background;
} verdict_look[CMP_NR_VERDICTS] = {
	[CMP_PASS] = { "Pass", "#1e6b34", "#e6f4ea" },
	[CMP_IMPROVEMENT] = { "Improvement", "#1e6b34", "#d2ecd9" },
	[CMP_NEW] = { "New", "#1a4f8b", "#e8f0fe" },
	[CMP_MISSING] = { "Missing", "#5f6368", "#eeeeee" },
	[CMP_INCONCLUSIVE] = { "Inconclusive", "#8a5300", "#fff1d6" },
	[CMP_REGRESSION] = { "Regression", "#a50e0e", "#fce8e6" },
};

cJSON *
view_json_verdict(enum cmp_verdict v)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", cmp_verdict_name(v));
	cJSON_AddStringToObject(o, "label", verdict_look[v].label);
	cJSON_AddTrueToObject(o, cmp_verdict_name(v));
	cJSON_AddStringToObject(o, "color", verdict_look[v].color);
	cJSON_AddStringToObject(o, "background", verdict_look[v].background);
	return o;
}

cJSON *
view_json_outcome(enum exit_outcome v)
{
	static const struct {
		const char *label, *headline, *color, *background;
	} look[] = {
		[OUTCOME_PASS] = { "Pass", "No regression", "#1e6b34",
		    "#e6f4ea" },
		[OUTCOME_INCONCLUSIVE] = { "Inconclusive", "Run more iterations",
		    "#8a5300", "#fff1d6" },
		[OUTCOME_INFRA] = { "Infrastructure failure",
		    "Some measurements failed", "#5f2c82", "#f3e8fd" },
		[OUTCOME_REGRESSION] = { "Regression", "Regression detected",
		    "#a50e0e", "#fce8e6" },
	};
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", exit_outcome_name(v));
	cJSON_AddStringToObject(o, "label", look[v].label);
	cJSON_AddStringToObject(o, "headline", look[v].headline);
	cJSON_AddTrueToObject(o, exit_outcome_name(v));
	cJSON_AddStringToObject(o, "color", look[v].color);
	cJSON_AddStringToObject(o, "background", look[v].background);
	return o;
}

/* "1 regression, 11 pass": the non-zero counts, worst first. */
const char *
view_counts_text(struct strbuf *sb, const size_t counts[CMP_NR_VERDICTS])
{
	strbuf_setlen(sb, 0);
	for (int v = CMP_NR_VERDICTS - 1; v >= 0; v--) {
		if (!counts[v])
			continue;
		strbuf_addf(sb, "%s%zu %s", sb->len ? ", " : "", counts[v],
		    cmp_verdict_name(v));
	}
	return sb->len ? sb->buf : "no metrics";
}

cJSON *
view_json_counts(const size_t counts[CMP_NR_VERDICTS])
{
	cJSON *o = cJSON_CreateObject();
	struct strbuf sb = STRBUF_INIT;
	size_t total = 0;

	for (int v = 0; v < CMP_NR_VERDICTS; v++) {
		cJSON_AddNumberToObject(o, cmp_verdict_name(v),
		    (double)counts[v]);
		total += counts[v];
	}
	cJSON_AddNumberToObject(o, "total", (double)total);
	/* What JUnit calls skipped: no verdict either way. */
	cJSON_AddNumberToObject(o, "skipped", (double)(counts[CMP_INCONCLUSIVE]
	    + counts[CMP_MISSING]));
	view_json_str(o, "text", view_counts_text(&sb, counts));
	strbuf_release(&sb);
	return o;
}

/* A second parent for `item` without copying it (a cJSON reference). */
void
view_json_add_ref(cJSON *arr, const cJSON *item)
{
	cJSON_AddItemToArray(arr, cJSON_CreateObjectReference(item->child));
}

void
view_json_anchor(struct view_builder *b, cJSON *obj)
{
	view_json_strf(obj, "anchor", "jg-%zu", ++b->anchors);
}

void
view_json_value(cJSON *o, const char *key, double v, const char *unit,
    void (*fn)(struct strbuf *, double, const char *))
{
	struct strbuf sb = STRBUF_INIT;

	if (isnan(v)) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	fn(&sb, v, unit);
	cJSON_AddStringToObject(o, key, sb.buf);
	strbuf_release(&sb);
}
