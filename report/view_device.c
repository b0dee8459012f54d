/*
 * view_device.c: one device of the report, from one or more comparisons.
 *
 * A device gets the facts of its run (model, key, app version, run id,
 * and for `jankgate ab` the two builds and the blocks: ab_of()),
 * its verdict, its preflight hygiene as name/value pairs, and three kinds
 * of remarks: notes on comparability and measurement conditions (a
 * mismatch compared anyway, a changed scenario, too few valid iterations,
 * a warm phone, animations on), warnings from sources that yielded nothing
 * and from compare, and the infrastructure errors its run recorded.  When
 * the shards of one device's suite come as several comparisons, their
 * scenarios are listed together, worst first.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"


static void
add_pair(cJSON *arr, const char *name, const char *value)
{
	cJSON *o = cJSON_CreateObject();

	view_json_str(o, "name", name);
	view_json_str(o, "value", value);
	cJSON_AddItemToArray(arr, o);
}

static void
add_number_pair(cJSON *arr, const char *name, double v, const char *unit)
{
	struct strbuf sb = STRBUF_INIT;

	if (isnan(v))
		return;
	view_text_value(&sb, v, unit);
	add_pair(arr, name, sb.buf);
	strbuf_release(&sb);
}

static void
add_tri_pair(cJSON *arr, const char *name, int v)
{
	if (v != RS_UNKNOWN)
		add_pair(arr, name, v ? "yes" : "no");
}

static cJSON *
hygiene_of(const struct rs_hygiene *h)
{
	cJSON *arr = cJSON_CreateArray();

	add_number_pair(arr, "battery", h->battery_pct, "%");
	add_number_pair(arr, "thermal status", h->thermal_status, NULL);
	add_number_pair(arr, "animator scale", h->animator_scale, NULL);
	add_number_pair(arr, "transition scale", h->transition_scale, NULL);
	add_number_pair(arr, "window scale", h->window_scale, NULL);
	add_tri_pair(arr, "screen on", h->screen_on);
	add_tri_pair(arr, "unlocked", h->unlocked);
	for (size_t i = 0; i < h->nr_extras; i++) {
		const struct rs_extra *x = &h->extras[i];

		if (x->type == RS_VALUE_STRING)
			add_pair(arr, x->key, x->string);
		else if (x->type == RS_VALUE_NUMBER)
			add_number_pair(arr, x->key, x->number, NULL);
		else if (x->type == RS_VALUE_BOOL)
			add_pair(arr, x->key, x->number ? "yes" : "no");
	}
	return arr;
}

static void
note(cJSON *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Add a note, once: gate's notes and the comparison's may say the same. */
static void
note(cJSON *notes, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	const cJSON *it;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	cJSON_ArrayForEach(it, notes)
		if (cJSON_IsString(it) && !strcmp(it->valuestring, sb.buf))
			goto out;
	cJSON_AddItemToArray(notes, cJSON_CreateString(sb.buf));
out:
	strbuf_release(&sb);
}

/* Conditions that make numbers less trustworthy, said plainly. */
static void
hygiene_notes(cJSON *notes, const struct rs_hygiene *h)
{
	if (h->thermal_status > 0)
		note(notes, "the device was warm (thermal status %.0f): frame "
		    "times may be throttled", h->thermal_status);
	if (h->animator_scale > 0 || h->transition_scale > 0 ||
	    h->window_scale > 0)
		note(notes, "system animations were on during the run");
	if (h->battery_pct < 20)
		note(notes, "the battery was at %.0f%%", h->battery_pct);
	if (h->screen_on == 0)
		note(notes, "the screen was off at preflight");
	if (h->unlocked == 0)
		note(notes, "the device was locked at preflight");
}

static void
comparison_notes(cJSON *notes, const struct view_input *in)
{
	const struct comparison *c = in->cmp;

	for (size_t i = 0; in->notes && i < in->notes->nr; i++)
		note(notes, "%s", in->notes->items[i]);
	for (size_t i = 0; i < c->mismatches.nr; i++)
		note(notes, "compared despite a mismatch: %s",
		    c->mismatches.items[i]);
	if (!c->nr_baselines)
		note(notes, "no baseline yet: every metric is new");
	if (c->nr_scenarios && comparison_measured(c) == 0)
		note(notes, "not one valid iteration was measured: nothing "
		    "was compared");
	for (size_t i = 0; i < c->nr_scenarios; i++) {
		const struct cmp_scenario *s = &c->scenarios[i];

		if (s->changed)
			note(notes, "scenario '%s' differs from the text the "
			    "baseline ran", s->name);
		if (s->verdict == CMP_INCONCLUSIVE)
			note(notes, "scenario '%s': %.0f of %.0f iterations "
			    "valid, fewer than min_iterations (%d)", s->name,
			    s->cur_valid, s->cur_iterations,
			    c->min_iterations);
		if (s->verdict == CMP_MISSING && !c->missing.nr)
			note(notes, "scenario '%s' is in the baseline but was "
			    "not run", s->name);
	}
	/* What an A/B against the previous build made of the regressions. */
	for (size_t i = 0; i < c->confirmation.nr; i++)
		note(notes, "confirmation: %s", c->confirmation.items[i]);
	/* What fails the device as `missing` (comparison.h). */
	for (size_t i = 0; i < c->missing.nr; i++)
		note(notes, "%s was measured in the baseline and not in this "
		    "run", c->missing.items[i]);
}

static int
same_field(const cJSON *o, const char *key, const char *s)
{
	const char *v = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(o, key));

	return v == s || (v && s && !strcmp(v, s));
}

/*
 * A WARNING, once per device however many comparisons (shards, gate's
 * looks) carry it; `line` is the whole of it as one line of text, so no
 * template has to join optional parts (and leave a stray ": ").
 */
static void
add_warning(cJSON *arr, const char *source, const char *scope,
    const char *text)
{
	struct rs_warning w = { (char *)source, (char *)scope, (char *)text,
	    false };
	struct strbuf sb = STRBUF_INIT;
	const cJSON *it;
	cJSON *o;

	cJSON_ArrayForEach(it, arr)
		if (same_field(it, "source", source) &&
		    same_field(it, "scope", scope) &&
		    same_field(it, "text", text))
			return;
	o = cJSON_CreateObject();
	view_json_str(o, "source", source);
	view_json_str(o, "scope", scope);
	view_json_str(o, "text", text);
	rs_warning_format(&sb, &w);
	view_json_str(o, "line", sb.buf);
	cJSON_AddItemToArray(arr, o);
	strbuf_release(&sb);
}

/*
 * Whether warning `w` of comparison `c` is a fact of an A/B: `jankgate
 * ab` (gate_ab.c) files how it ran (the builds, the blocks in ABBA order,
 * the installs' share, the order the blocks ran) among the comparison's
 * warnings.  They describe the measurement, they warn of nothing, so the
 * report shows them beside the A/B's banner instead of under Warnings,
 * which CI turns into ::warning annotations (issue 48).
 */
static bool
is_ab_fact(const struct comparison *c, const char *w)
{
	static const char *const prefix[] = {
		"interleaved A/B on the same phones",
		"the blocks, in the order they ran",
	};

	if (!c->interleaved)
		return false;
	for (size_t i = 0; i < sizeof(prefix) / sizeof(*prefix); i++)
		if (!strncmp(w, prefix[i], strlen(prefix[i])))
			return true;
	return false;
}

/* What the current run of `in` says about itself. */
static enum exit_outcome
run_remarks(const struct view_input *in, cJSON *notes, cJSON *warnings,
    cJSON *errors, cJSON *ab_facts)
{
	const struct results *r = in->current;
	const struct comparison *c = in->cmp;

	for (size_t i = 0; i < c->warnings.nr; i++)
		if (is_ab_fact(c, c->warnings.items[i]))
			note(ab_facts, "%s", c->warnings.items[i]);
		else
			add_warning(warnings, "compare", NULL,
			    c->warnings.items[i]);
	if (!r)
		return OUTCOME_PASS;
	for (size_t i = 0; i < r->nr_warnings; i++)
		if (r->warnings[i].note)
			note(notes, "%s", r->warnings[i].message);
		else
			add_warning(warnings, r->warnings[i].source,
			    r->warnings[i].scope, r->warnings[i].message);
	for (size_t i = 0; i < r->run.errors.nr; i++)
		cJSON_AddItemToArray(errors,
		    cJSON_CreateString(r->run.errors.items[i]));
	if (!r->run.complete)
		note(notes, "the run did not complete: not every planned "
		    "iteration was attempted");
	hygiene_notes(notes, &r->hygiene);
	return r->run.errors.nr || !r->run.complete ? OUTCOME_INFRA :
	    OUTCOME_PASS;
}

static enum exit_outcome
from_comparison(const struct comparison *c)
{
	/* Nothing measured is never a pass. */
	if (c->nr_scenarios && comparison_measured(c) == 0)
		return OUTCOME_INFRA;
	return cmp_verdict_outcome(comparison_verdict(c));
}

/*
 * Seconds of every iteration (warm-ups and failed ones too) of the
 * scenarios the comparisons of one device cover, each scenario once.
 */
static double
device_seconds(const struct view_input *const *in, size_t nr)
{
	struct strlist seen = STRLIST_INIT;
	double ms = 0;

	for (size_t i = 0; i < nr; i++) {
		const struct results *r = in[i]->current;

		for (size_t j = 0; r && j < in[i]->cmp->nr_scenarios; j++) {
			const char *name = in[i]->cmp->scenarios[j].name;
			const struct rs_scenario *s =
			    results_find_scenario(r, name);

			if (!s || strlist_find(&seen, name) >= 0)
				continue;
			strlist_add(&seen, name);
			for (size_t k = 0; k < s->nr_iterations; k++)
				if (isfinite(s->iterations[k].duration_ms) &&
				    s->iterations[k].duration_ms > 0)
					ms += s->iterations[k].duration_ms;
		}
	}
	strlist_release(&seen);
	return ms / 1000;
}

/* Model, key, run and app of the device, from its first comparison. */
static void
put_identity(cJSON *o, const struct view_input *const *in, size_t nr)
{
	const struct results *r = NULL;
	const struct comparison *c = in[0]->cmp;
	struct strbuf sb = STRBUF_INIT;
	cJSON *files = cJSON_CreateArray();
	struct strlist versions = STRLIST_INIT;
	double runs = 0;

	for (size_t i = 0; i < nr && !r; i++)
		r = in[i]->current;
	view_json_str(o, "key", c->device);
	view_json_str(o, "serial", r ? r->device.serial : NULL);
	view_json_str(o, "model", r ? r->device.model : NULL);
	view_json_str(o, "manufacturer", r ? r->device.manufacturer : NULL);
	if (r && r->device.model)
		strbuf_addf(&sb, "%s (%s)", r->device.model,
		    c->device ? c->device : "no device key");
	else
		strbuf_addstr(&sb, c->device ? c->device : "unknown device");
	view_json_str(o, "label", sb.buf);
	strbuf_setlen(&sb, 0);
	if (r && isfinite(r->device.refresh_hz)) {
		view_text_value(&sb, r->device.refresh_hz, "Hz");
		view_json_str(o, "refresh", sb.buf);
	}
	view_json_str(o, "release", r ? r->device.release : NULL);
	view_json_str(o, "app_version", c->current.app_version);
	view_json_str(o, "run_id", c->current.run_id);
	view_json_str(o, "started", c->current.started);
	for (size_t i = 0; i < nr; i++) {
		const struct comparison *ci = in[i]->cmp;

		cJSON_AddItemToArray(files, cJSON_CreateString(in[i]->name ?
		    in[i]->name : "comparison"));
		if ((double)ci->nr_baselines > runs)
			runs = (double)ci->nr_baselines;
		for (size_t j = 0; j < ci->nr_baselines; j++)
			if (ci->baselines[j].app_version &&
			    strlist_find(&versions,
			    ci->baselines[j].app_version) < 0)
				strlist_add(&versions,
				    ci->baselines[j].app_version);
	}
	view_json_list(o, "comparisons", files);
	cJSON_AddNumberToObject(o, "baseline_runs", runs);
	view_json_strf(o, "baseline_runs_text", "%.0f baseline run%s", runs,
	    runs == 1 ? "" : "s");
	strbuf_setlen(&sb, 0);
	for (size_t i = 0; i < versions.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", versions.items[i]);
	view_json_str(o, "baseline_versions", sb.len ? sb.buf : NULL);
	cJSON_AddItemToObject(o, "hygiene", r ? hygiene_of(&r->hygiene) :
	    cJSON_CreateArray());
	strlist_release(&versions);
	strbuf_release(&sb);
}

/* "1.1.0 (110)": a build's version name and code, as far as known. */
static void
build_text(struct strbuf *sb, const char *version, const struct results *r)
{
	if (!version && r)
		version = r->app.version_name;
	strbuf_addstr(sb, version ? version : "version unknown");
	if (r && isfinite(r->app.version_code))
		strbuf_addf(sb, " (%.0f)", r->app.version_code);
}

/*
 * The A/B object of a device measured by `jankgate ab` (issue 48), or
 * false: { a, b (the builds), blocks, text (one sentence for the
 * banner), facts: [str] (what the A/B said of how it ran) }.  The blocks
 * are counted from the sessions of both results files (each block is a
 * session of its build's file); without the files, the facts say it.
 */
static cJSON *
ab_of(const struct view_input *const *in, size_t nr, cJSON *facts)
{
	const struct view_input *x = NULL;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, sb = STRBUF_INIT;
	const struct results *ra = NULL;
	cJSON *o;
	int na = 0, nb = 0;

	for (size_t i = 0; i < nr && !x; i++)
		if (in[i]->cmp->interleaved)
			x = in[i];
	if (!x) {
		cJSON_Delete(facts);
		return cJSON_CreateFalse();
	}
	if (x->nr_baselines)
		ra = x->baselines[0];
	build_text(&a, x->cmp->nr_baselines ? x->cmp->baselines[0].app_version
	    : NULL, ra);
	build_text(&b, x->cmp->current.app_version, x->current);
	if (ra)
		na = results_next_session(ra);
	if (x->current)
		nb = results_next_session(x->current);
	o = cJSON_CreateObject();
	view_json_str(o, "a", a.buf);
	view_json_str(o, "b", b.buf);
	strbuf_addf(&sb, "interleaved A/B on the same phones: build A %s "
	    "(baseline) against build B %s (current)", a.buf, b.buf);
	if (!strcmp(a.buf, b.buf))
		strbuf_addstr(&sb, ", the same version on both sides");
	if (na > 0 && nb > 0) {
		strbuf_addf(&sb, ", %d blocks in ABBA order (%d of A, %d of B)",
		    na + nb, na, nb);
		cJSON_AddNumberToObject(o, "blocks", na + nb);
	} else {
		strbuf_addstr(&sb, ", blocks in ABBA order");
		view_json_num(o, "blocks", NAN);	/* null: unknown */
	}
	view_json_str(o, "text", sb.buf);
	view_json_list(o, "facts", facts);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&sb);
	return o;
}

/* Scenarios of every comparison of the device, worst first. */
static cJSON *
scenarios_of(struct view_builder *b, const struct view_input *const *in,
    size_t nr, const char *device)
{
	cJSON *arr = cJSON_CreateArray(), **items = NULL;
	size_t n = 0, alloc = 0;
	int *rank = NULL;

	for (size_t i = 0; i < nr; i++) {
		struct view_dev d = { b, in[i], device, NULL, 0 };

		history_series(&d.series, &d.nr_series, in[i]->history,
		    in[i]->nr_history);
		for (size_t j = 0; j < in[i]->cmp->nr_scenarios; j++) {
			enum cmp_verdict w;

			XALLOC_GROW(items, n + 1, alloc);
			rank = xreallocarray(rank, alloc, sizeof(*rank));
			items[n] = view_scenario(&d, &in[i]->cmp->scenarios[j],
			    &w);
			rank[n++] = (int)w;
		}
		history_series_free(d.series, d.nr_series);
	}
	for (int r = CMP_NR_VERDICTS - 1; r >= 0; r--)
		for (size_t i = 0; i < n; i++)
			if (rank[i] == r)
				cJSON_AddItemToArray(arr, items[i]);
	free(items);
	free(rank);
	return arr;
}

cJSON *
view_device(struct view_builder *b, const struct view_input *const *in,
    size_t nr, enum exit_outcome *verdict)
{
	cJSON *o = cJSON_CreateObject(), *notes = cJSON_CreateArray();
	cJSON *warnings = cJSON_CreateArray(), *errors = cJSON_CreateArray();
	cJSON *missing = cJSON_CreateArray(), *scenarios;
	cJSON *ab_facts = cJSON_CreateArray();
	const cJSON *sc;
	size_t quiet = 0;
	size_t before[CMP_NR_VERDICTS], counts[CMP_NR_VERDICTS];
	enum exit_outcome v = OUTCOME_PASS;
	const char *device = in[0]->cmp->device;

	memcpy(before, b->counts, sizeof(before));
	view_json_anchor(b, o);
	put_identity(o, in, nr);
	for (size_t i = 0; i < nr; i++) {
		comparison_notes(notes, in[i]);
		v = exit_outcome_worst(v, run_remarks(in[i], notes, warnings,
		    errors, ab_facts));
		v = exit_outcome_worst(v, from_comparison(in[i]->cmp));
		/* once each, however many comparisons (shards) say it */
		for (size_t j = 0; j < in[i]->cmp->missing.nr; j++) {
			const char *m = in[i]->cmp->missing.items[j];
			const cJSON *it;
			bool seen = false;

			cJSON_ArrayForEach(it, missing)
				seen = seen || !strcmp(it->valuestring, m);
			if (!seen)
				cJSON_AddItemToArray(missing,
				    cJSON_CreateString(m));
		}
	}
	scenarios = scenarios_of(b, in, nr, device ? device :
	    "unknown device");
	cJSON_ArrayForEach(sc, scenarios)
		quiet += !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sc,
		    "attention"));
	view_json_list(o, "scenarios", scenarios);
	cJSON_AddNumberToObject(o, "quiet_scenarios", (double)quiet);
	view_json_flag(o, "has_quiet_scenarios", quiet > 0);
	for (int i = 0; i < CMP_NR_VERDICTS; i++)
		counts[i] = b->counts[i] - before[i];
	cJSON_AddItemToObject(o, "counts", view_json_counts(counts));
	view_json_list(o, "notes", notes);
	view_json_list(o, "warnings", warnings);
	cJSON_AddNumberToObject(o, "error_count",
	    (double)cJSON_GetArraySize(errors));
	view_json_list(o, "errors", errors);
	view_json_list(o, "missing", missing);
	cJSON_AddItemToObject(o, "verdict", view_json_outcome(v));
	cJSON_AddNumberToObject(o, "seconds", device_seconds(in, nr));
	/* always there, so no part of a device reads the report's */
	cJSON_AddItemToObject(o, "ab", ab_of(in, nr, ab_facts));
	*verdict = v;
	return o;
}
