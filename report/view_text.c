/*
 * view_text.c: numbers as people read them (view_int.h, view_text_*).
 *
 * Templates cannot format numbers, so the model carries text: a value with
 * three significant digits and its unit ("13.1 ms", "4.2%", "58 fps"), a
 * change with its sign, a p-value that never prints as 0, and a sentence
 * for the smallest change the data could detect.  The same input gives the
 * same bytes in every locale: printf's %f is used only on the C digits it
 * prints, and a decimal comma is turned back into a point.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"
#include "view_int.h"
#include "banned.h"

void
view_text_num(struct strbuf *sb, double v)
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
view_text_value(struct strbuf *sb, double v, const char *unit)
{
	view_text_num(sb, v);
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
view_text_signed(struct strbuf *sb, double v, const char *unit)
{
	if (v > 0)
		strbuf_addch(sb, '+');
	view_text_value(sb, v, unit);
}

void
view_text_percent_change(struct strbuf *sb, double shift, double base)
{
	double pct;

	if (!isfinite(shift) || !isfinite(base) || base == 0)
		return;
	pct = 100 * shift / fabs(base);
	if (pct > 0)
		strbuf_addch(sb, '+');
	view_text_num(sb, fabs(pct) >= 10 ? round(pct) : pct);
	strbuf_addch(sb, '%');
}

void
view_text_p_value(struct strbuf *sb, double p)
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
view_text_detectable(struct strbuf *sb, const struct cmp_entry *e)
{
	double s = e->higher_is_better ? -1 : 1;
	double worse_hi = s > 0 ? e->shift_hi : -e->shift_lo;

	if (e->verdict == CMP_PASS || e->verdict == CMP_IMPROVEMENT) {
		if (!e->tested || isnan(worse_hi))
			return;
		if (worse_hi < e->threshold) {
			strbuf_addstr(sb, "rules out worse than ");
			view_text_signed(sb, fmax(worse_hi, 0), e->unit);
		} else {
			strbuf_addstr(sb, "cannot rule out a change of "
			    "practical size (");
			view_text_signed(sb, e->threshold, e->unit);
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
	view_text_signed(sb, fmax(e->detectable, e->threshold), e->unit);
	strbuf_addstr(sb, " or more at this sample");
}
