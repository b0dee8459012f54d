/*
 * compare_check.c: are two runs comparable at all?
 *
 * Frame times only mean something against the same class of device at the
 * same refresh rate, for the same app, measured by the same sources.  Runs
 * that differ in device key, refresh rate, package or source set are
 * refused, not compared; each difference becomes one line naming both
 * values and both files, so the refusal says what to fix.  The source set
 * compares as a set: the order of `sources` in the configuration does not
 * matter.  A refresh rate both sides failed to read is the same; one side
 * knowing it and the other not is a difference.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "error.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"

static const char *
input_name(const struct compare_input *in)
{
	if (in->name)
		return in->name;
	return in->results->run.id ? in->results->run.id : "?";
}

static int
str_differs(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b));
}

static int
sources_differ(const struct strlist *a, const struct strlist *b)
{
	for (size_t i = 0; i < a->nr; i++)
		if (strlist_find(b, a->items[i]) < 0)
			return 1;
	for (size_t i = 0; i < b->nr; i++)
		if (strlist_find(a, b->items[i]) < 0)
			return 1;
	return 0;
}

static void
join_list(struct strbuf *sb, const struct strlist *l)
{
	strbuf_addch(sb, '[');
	for (size_t i = 0; i < l->nr; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", l->items[i]);
	strbuf_addch(sb, ']');
}

static const char *
q(const char *s)
{
	return s ? s : "(unknown)";
}

/* "90 Hz", or "an unknown rate" when the device did not say. */
static const char *
hz(char *buf, size_t size, double rate)
{
	if (isnan(rate))
		return "an unknown rate";
	snprintf(buf, size, "%g Hz", rate);
	return buf;
}

/* Both unknown is the same; one unknown is not; else within half a hertz. */
static int
refresh_differs(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) != isnan(b);
	return fabs(a - b) >= 0.5;
}

int
compare_check(struct strlist *reasons, const struct compare_input *cur,
    const struct compare_input *base, size_t nr_base)
{
	const struct results *c = cur->results;
	size_t before = reasons->nr;

	for (size_t i = 0; i < nr_base; i++) {
		const struct results *b = base[i].results;
		const char *cn = input_name(cur), *bn = input_name(&base[i]);
		char ch[32], bh[32];

		if (str_differs(c->device.key, b->device.key))
			strlist_addf(reasons, "device key differs: '%s' in "
			    "'%s', '%s' in baseline '%s'", q(c->device.key),
			    cn, q(b->device.key), bn);
		if (refresh_differs(c->device.refresh_hz,
		    b->device.refresh_hz))
			strlist_addf(reasons, "refresh rate differs: %s in "
			    "'%s', %s in baseline '%s'",
			    hz(ch, sizeof(ch), c->device.refresh_hz), cn,
			    hz(bh, sizeof(bh), b->device.refresh_hz), bn);
		if (str_differs(c->app.package, b->app.package))
			strlist_addf(reasons, "package differs: '%s' in '%s', "
			    "'%s' in baseline '%s'", q(c->app.package), cn,
			    q(b->app.package), bn);
		if (sources_differ(&c->app.sources, &b->app.sources)) {
			struct strbuf sb = STRBUF_INIT;

			join_list(&sb, &c->app.sources);
			strbuf_addf(&sb, " in '%s', ", cn);
			join_list(&sb, &b->app.sources);
			strlist_addf(reasons, "source set differs: %s in "
			    "baseline '%s'", sb.buf, bn);
			strbuf_release(&sb);
		}
	}
	if (reasons->nr == before)
		return 0;
	return jg_error_set(JG_EMISMATCH, "%s", reasons->items[before]);
}
