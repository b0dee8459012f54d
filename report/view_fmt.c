/*
 * view_fmt.c: numbers and verdicts as people read them, and the small
 * helpers that put them into the model.
 *
 * Templates cannot format numbers, so the model carries text: a value with
 * three significant digits and its unit ("13.1 ms", "4.2%", "58 fps"), a
 * change with its sign, a p-value that never prints as 0, and a sentence
 * for the smallest change the data could detect.  The same input gives the
 * same bytes in every locale: printf's %f is used only on the C digits it
 * prints, and a decimal comma is turned back into a point.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

void
vf_num(struct strbuf *sb, double v)
{
	char buf[64], *p;
	double a = fabs(v);
	int dec;

	if (isnan(v)) {
		strbuf_addstr(sb, "n/a");
		return;
	}
	if (isinf(v)) {
		strbuf_addstr(sb, v > 0 ? "infinity" : "-infinity");
		return;
	}
	/* Three significant digits, never an exponent. */
	dec = a == 0 || a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
	snprintf(buf, sizeof(buf), "%.*f", dec, v);
	for (p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
	if (strchr(buf, '.')) {
		size_t n = strlen(buf);

		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	strbuf_addstr(sb, strcmp(buf, "-0") ? buf : "0");
}

void
vf_value(struct strbuf *sb, double v, const char *unit)
{
	vf_num(sb, v);
	if (!unit || !*unit || !strcmp(unit, "count") || isnan(v))
		return;
	if (!strcmp(unit, "%"))
		strbuf_addch(sb, '%');
	else if (!strcmp(unit, "frames") && v == 1)
		strbuf_addstr(sb, " frame");
	else
		strbuf_addf(sb, " %s", unit);
}

void
vf_signed(struct strbuf *sb, double v, const char *unit)
{
	if (v > 0)
		strbuf_addch(sb, '+');
	vf_value(sb, v, unit);
}

void
vf_percent_change(struct strbuf *sb, double shift, double base)
{
	double pct;

	if (!isfinite(shift) || !isfinite(base) || base == 0)
		return;
	pct = 100 * shift / fabs(base);
	if (pct > 0)
		strbuf_addch(sb, '+');
	vf_num(sb, fabs(pct) >= 10 ? round(pct) : pct);
	strbuf_addch(sb, '%');
}

void
vf_p_value(struct strbuf *sb, double p)
{
	char buf[32], *c;

	if (isnan(p))
		return;
	if (p < 0.0001) {
		strbuf_addstr(sb, "< 0.0001");
		return;
	}
	snprintf(buf, sizeof(buf), "%.2g", p);
	if ((c = strchr(buf, ',')))
		*c = '.';
	strbuf_addstr(sb, buf);
}

/*
 * What the comparison can back about an entry, as a phrase that fits the
 * verdict: a pass names the interval's worse end when it rules out a
 * change of practical size, and says it cannot when it does not; the rest
 * name the smallest worse shift the test would have flagged at this
 * sample, which is the test's arithmetic, not a power claim.
 */
void
vf_detectable(struct strbuf *sb, const struct cmp_entry *e)
{
	double s = e->higher_is_better ? -1 : 1;
	double worse_hi = s > 0 ? e->shift_hi : -e->shift_lo;

	if (e->verdict == CMP_PASS || e->verdict == CMP_IMPROVEMENT) {
		if (!e->tested || isnan(worse_hi))
			return;
		if (worse_hi < e->threshold) {
			strbuf_addstr(sb, "rules out worse than ");
			vf_signed(sb, fmax(worse_hi, 0), e->unit);
		} else {
			strbuf_addstr(sb, "cannot rule out a change of "
			    "practical size (");
			vf_signed(sb, e->threshold, e->unit);
			strbuf_addch(sb, ')');
		}
		return;
	}
	if (isnan(e->detectable))
		return;
	if (isinf(e->detectable)) {
		strbuf_addstr(sb, "too few iterations to flag any change");
		return;
	}
	strbuf_addstr(sb, "flags ");
	vf_signed(sb, fmax(e->detectable, e->threshold), e->unit);
	strbuf_addstr(sb, " or more at this sample");
}

void
vj_str(cJSON *obj, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(obj, key, s);
	else
		cJSON_AddNullToObject(obj, key);
}

void
vj_strf(cJSON *obj, const char *key, const char *fmt, ...)
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
vj_num(cJSON *obj, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(obj, key, v);
	else
		cJSON_AddNullToObject(obj, key);
}

/* Only true is stored: an absent key is already false for a template. */
void
vj_flag(cJSON *obj, const char *key, bool on)
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
vj_list(cJSON *obj, const char *key, cJSON *arr)
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
vj_verdict(enum cmp_verdict v)
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
vj_view_verdict(enum exit_outcome v)
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

cJSON *
vj_counts(const size_t counts[CMP_NR_VERDICTS])
{
	cJSON *o = cJSON_CreateObject();
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
	return o;
}

/* A second parent for `item` without copying it (a cJSON reference). */
void
vj_add_ref(cJSON *arr, const cJSON *item)
{
	cJSON_AddItemToArray(arr, cJSON_CreateObjectReference(item->child));
}

void
vj_anchor(struct vbuild *b, cJSON *obj)
{
	vj_strf(obj, "anchor", "jg-%zu", ++b->anchors);
}
