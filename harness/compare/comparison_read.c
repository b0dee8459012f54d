/*
 * comparison_read.c: comparison.json into the model of comparison.h.  The
 * layout is drawn in comparison_write.c.
 *
 * Like results.json, a reader takes any 1.x, ignores unknown keys, reads a
 * missing key as null, and names the key path of a value of the wrong
 * type.  Files written before the session model lack `session` and `trend`
 * and read them as null; a missing `look` is the comparison's.  `verdict`
 * and `counts` are derived: the reader ignores them and recomputes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "comparison.h"
#include "error.h"
#include "fileio.h"
#include "schema.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* The reader's state: the file name and the key path of the current value. */
struct cr {
	const char *name;
	struct strbuf path;
};

static int
bad(struct cr *r, const char *key, const char *what)
{
	return jg_error_set(JG_EINVAL, "%s: %s%s%s: expected %s", r->name,
	    r->path.buf, r->path.len && key ? "." : "", key ? key : "",
	    what);
}

/* Enter member `key` (or array element `idx` when key is NULL). */
static size_t
path_push(struct cr *r, const char *key, size_t idx)
{
	size_t len = r->path.len;

	if (key)
		strbuf_addf(&r->path, "%s%s", len ? "." : "", key);
	else
		strbuf_addf(&r->path, "[%zu]", idx);
	return len;
}

static const cJSON *
member(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return v && !cJSON_IsNull(v) ? v : NULL;
}

static int
get_str(struct cr *r, const cJSON *obj, const char *key, char **out)
{
	const cJSON *v = member(obj, key);

	free(*out);
	*out = NULL;
	if (!v)
		return 0;
	if (!cJSON_IsString(v))
		return bad(r, key, "a string or null");
	*out = xstrdup(v->valuestring);
	return 0;
}

static int
get_num(struct cr *r, const cJSON *obj, const char *key, double *out)
{
	const cJSON *v = member(obj, key);

	*out = NAN;
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v))
		return bad(r, key, "a number or null");
	*out = v->valuedouble;
	return 0;
}

static int
get_bool(struct cr *r, const cJSON *obj, const char *key, bool *out)
{
	const cJSON *v = member(obj, key);

	*out = false;
	if (!v)
		return 0;
	if (!cJSON_IsBool(v))
		return bad(r, key, "true, false or null");
	*out = cJSON_IsTrue(v);
	return 0;
}

/* A look number, 1 .. 1000 (max_iterations' bound); null: `dflt`. */
static int
get_look(struct cr *r, const cJSON *obj, const char *key, int *out, int dflt)
{
	double d;

	if (get_num(r, obj, key, &d) < 0)
		return JG_EINVAL;
	if (isnan(d)) {
		*out = dflt;
		return 0;
	}
	if (d < 1 || d > 1000 || d != floor(d))
		return bad(r, key, "a look number 1 .. 1000");
	*out = (int)d;
	return 0;
}

static int
get_count(struct cr *r, const cJSON *obj, const char *key, size_t *out)
{
	double d;

	if (get_num(r, obj, key, &d) < 0)
		return JG_EINVAL;
	if (isnan(d)) {
		*out = 0;
		return 0;
	}
	if (d < 0 || d != floor(d) || d > 9007199254740992.0)
		return bad(r, key, "a count");
	*out = (size_t)d;
	return 0;
}

static int
get_verdict(struct cr *r, const cJSON *obj, const char *key,
    enum cmp_verdict *out)
{
	char *s = NULL;
	int rc = get_str(r, obj, key, &s);

	if (!rc && (!s || cmp_verdict_parse(out, s)))
		rc = bad(r, key, "pass, improvement, new, missing, "
		    "inconclusive or regression");
	free(s);
	return rc;
}

static int
get_list(struct cr *r, const cJSON *obj, const char *key, struct strlist *l)
{
	const cJSON *v = member(obj, key), *it;

	if (!v)
		return 0;
	if (!cJSON_IsArray(v))
		return bad(r, key, "an array of strings");
	cJSON_ArrayForEach(it, v) {
		if (!cJSON_IsString(it))
			return bad(r, key, "an array of strings");
		strlist_add(l, it->valuestring);
	}
	return 0;
}

typedef int (*read_fn)(struct cr *r, const cJSON *obj, void *dst);

/* Read the object at `key` with `fn`; null or absent leaves `dst` as is. */
static int
read_object(struct cr *r, const cJSON *parent, const char *key, read_fn fn,
    void *dst)
{
	const cJSON *v = member(parent, key);
	size_t len;
	int rc;

	if (!v)
		return 0;
	if (!cJSON_IsObject(v))
		return bad(r, key, "an object");
	len = path_push(r, key, 0);
	rc = fn(r, v, dst);
	strbuf_setlen(&r->path, len);
	return rc;
}

/* Call `fn` on each element of the array at `key`, which must be objects. */
static int
read_array(struct cr *r, const cJSON *parent, const char *key, read_fn fn,
    void *dst)
{
	const cJSON *v = member(parent, key), *it;
	size_t i = 0, len, klen;
	int rc = 0;

	if (!v)
		return 0;
	if (!cJSON_IsArray(v))
		return bad(r, key, "an array");
	klen = path_push(r, key, 0);
	cJSON_ArrayForEach(it, v) {
		len = path_push(r, NULL, i++);
		if (!cJSON_IsObject(it))
			rc = bad(r, NULL, "an object");
		else
			rc = fn(r, it, dst);
		strbuf_setlen(&r->path, len);
		if (rc)
			break;
	}
	strbuf_setlen(&r->path, klen);
	return rc;
}

static int
read_run(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_run *run = dst;

	if (get_str(r, o, "file", &run->file) ||
	    get_str(r, o, "run_id", &run->run_id) ||
	    get_str(r, o, "app_version", &run->app_version) ||
	    get_str(r, o, "started", &run->started))
		return JG_EINVAL;
	return 0;
}

static int
read_baseline(struct cr *r, const cJSON *o, void *dst)
{
	return read_run(r, o, comparison_add_baseline(dst));
}

static int
read_kind(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_session_kind *sk = dst;

	if (get_num(r, o, "prior", &sk->prior) ||
	    get_num(r, o, "estimate", &sk->estimate) ||
	    get_num(r, o, "sessions", &sk->sessions) ||
	    get_num(r, o, "used", &sk->used) ||
	    get_num(r, o, "df", &sk->df) ||
	    get_num(r, o, "trend", &sk->trend) ||
	    get_num(r, o, "trend_t", &sk->trend_t) ||
	    get_bool(r, o, "trend_on", &sk->trend_on) ||
	    get_num(r, o, "offset", &sk->offset) ||
	    get_num(r, o, "offset_p", &sk->offset_p) ||
	    get_num(r, o, "offset_sd", &sk->offset_sd) ||
	    get_bool(r, o, "offset_on", &sk->offset_on))
		return JG_EINVAL;
	if (isnan(sk->df) && !isnan(sk->used))
		sk->df = INFINITY;
	return 0;
}

static int
read_session_kinds(struct cr *r, const cJSON *o, void *dst)
{
	struct comparison *c = dst;

	for (int k = 0; k < METRIC_NR_KINDS; k++)
		if (read_object(r, o, metric_kind_name((enum metric_kind)k),
		    read_kind, &c->kinds[k]))
			return JG_EINVAL;
	return 0;
}

/* What the session model added to `method`; older files lack it. */
static int
read_method_session(struct cr *r, const cJSON *o, struct comparison *c)
{
	double share, n_trend, n_anchor, weight, fdr;

	if (get_num(r, o, "share", &share) ||
	    get_num(r, o, "primary_weight", &weight) ||
	    get_num(r, o, "suspect_fdr", &fdr) ||
	    get_list(r, o, "primary_metrics", &c->primary_metrics) ||
	    get_num(r, o, "alpha_trend", &c->alpha_trend) ||
	    get_num(r, o, "trend_tests", &n_trend) ||
	    get_num(r, o, "anchor_runs", &n_anchor) ||
	    get_num(r, o, "prior_runs", &c->prior_runs) ||
	    get_bool(r, o, "interleaved", &c->interleaved) ||
	    read_object(r, o, "session", read_session_kinds, c))
		return JG_EINVAL;
	c->share = isnan(share) ? 1 : share;
	if (!isnan(weight) && !(weight > 0))
		return bad(r, "primary_weight", "a positive number");
	c->primary_weight = isnan(weight) ? 1 : weight;
	/* Older files: the metrics the table marked primary then. */
	if (!member(o, "primary_metrics"))
		for (size_t i = 0; i < metric_count(); i++)
			if (metric_at(i)->primary && !metric_at(i)->explain)
				strlist_add(&c->primary_metrics,
				    metric_at(i)->name);
	if (!isnan(fdr) && !(fdr >= 0 && fdr < 1))
		return bad(r, "suspect_fdr", "a number in [0, 1)");
	c->suspect_fdr = isnan(fdr) ? 0 : fdr;	/* older files: none */
	if (isnan(c->alpha_trend))
		c->alpha_trend = 0;
	if (!isnan(n_trend) && (n_trend < 0 || n_trend != floor(n_trend)))
		return bad(r, "trend_tests", "a count");
	if (!isnan(n_anchor) && (n_anchor < 0 || n_anchor != floor(n_anchor)))
		return bad(r, "anchor_runs", "a count");
	c->trend_tests = isnan(n_trend) ? 0 : (size_t)n_trend;
	c->anchor_runs = isnan(n_anchor) ? 0 : (size_t)n_anchor;
	return 0;
}

static int
read_method(struct cr *r, const cJSON *o, void *dst)
{
	struct comparison *c = dst;
	char *corr = NULL, *spend = NULL;
	double min;
	int rc;

	rc = get_num(r, o, "alpha", &c->alpha);
	if (!rc)
		rc = get_num(r, o, "ci_level", &c->ci_level);
	if (!rc)
		rc = get_count(r, o, "tests", &c->tests);
	if (!rc)
		rc = get_num(r, o, "min_iterations", &min);
	if (!rc)
		c->min_iterations = isnan(min) ? 0 : (int)min;
	if (!rc)
		rc = get_str(r, o, "correction", &corr);
	if (!rc && corr && stats_adjust_parse(&c->correction, corr))
		rc = bad(r, "correction", "none, holm or bh");
	/* Files from before looks were one look at alpha. */
	if (!rc)
		rc = get_num(r, o, "noise", &c->noise);
	if (!rc)
		rc = get_look(r, o, "look", &c->look, 1);
	if (!rc)
		rc = get_look(r, o, "looks", &c->looks, 1);
	if (!rc)
		rc = get_num(r, o, "alpha_look", &c->alpha_look);
	if (!rc) {
		if (isnan(c->alpha_look))
			c->alpha_look = c->alpha;
		rc = get_str(r, o, "spending", &spend);
	}
	if (!rc)
		rc = get_bool(r, o, "last", &c->last);
	if (!rc && spend && cmp_spending_parse(&c->spending, spend))
		rc = bad(r, "spending", "pocock or equal");
	if (!rc)
		rc = read_method_session(r, o, c);
	if (!rc)
		rc = get_count(r, o, "explain_tests", &c->explain_tests);
	free(corr);
	free(spend);
	return rc;
}

static int
read_scenario(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_scenario *s = comparison_add_scenario(dst);

	if (get_str(r, o, "name", &s->name) ||
	    get_verdict(r, o, "verdict", &s->verdict) ||
	    get_num(r, o, "cur_iterations", &s->cur_iterations) ||
	    get_num(r, o, "cur_valid", &s->cur_valid) ||
	    get_num(r, o, "base_runs", &s->base_runs) ||
	    get_num(r, o, "base_valid", &s->base_valid) ||
	    get_bool(r, o, "changed", &s->changed))
		return JG_EINVAL;
	if (!s->name)
		return bad(r, "name", "a string");
	return 0;
}

static int
read_summary(struct cr *r, const cJSON *o, void *dst)
{
	struct stats_summary *s = dst;

	if (get_count(r, o, "n", &s->n) ||
	    get_num(r, o, "min", &s->min) ||
	    get_num(r, o, "q1", &s->q1) ||
	    get_num(r, o, "median", &s->median) ||
	    get_num(r, o, "q3", &s->q3) ||
	    get_num(r, o, "max", &s->max) ||
	    get_num(r, o, "iqr", &s->iqr) ||
	    get_num(r, o, "mean", &s->mean))
		return JG_EINVAL;
	return 0;
}

static int
read_shift(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_entry *e = dst;

	if (get_num(r, o, "estimate", &e->shift) ||
	    get_num(r, o, "lo", &e->shift_lo) ||
	    get_num(r, o, "hi", &e->shift_hi) ||
	    get_num(r, o, "level", &e->shift_level))
		return JG_EINVAL;
	return 0;
}

static int
read_threshold(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_entry *e = dst;

	if (get_num(r, o, "relative", &e->rel_threshold) ||
	    get_num(r, o, "absolute", &e->abs_threshold) ||
	    get_num(r, o, "noise", &e->noise_threshold) ||
	    get_num(r, o, "spread", &e->spread) ||
	    get_num(r, o, "value", &e->threshold))
		return JG_EINVAL;
	return 0;
}

static int
read_detectable(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_entry *e = dst;
	const cJSON *possible = member(o, "possible");

	if (get_num(r, o, "shift", &e->detectable))
		return JG_EINVAL;
	if (possible && !cJSON_IsBool(possible))
		return bad(r, "possible", "true, false or null");
	if (possible && cJSON_IsFalse(possible))
		e->detectable = INFINITY;
	return 0;
}

static int
read_entry_session(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_entry *e = dst;

	char *test = NULL, *from = NULL;

	if (get_str(r, o, "test", &test))
		return JG_EINVAL;
	if (test && strcmp(test, "rank") && strcmp(test, "t")) {
		free(test);
		return bad(r, "test", "\"rank\", \"t\" or null");
	}
	e->rank_test = test && !strcmp(test, "rank");
	free(test);
	if (get_str(r, o, "spread_from", &from))
		return JG_EINVAL;
	e->spread_from = CMP_SPREAD_NONE;
	if (from && cmp_spread_parse(&e->spread_from, from)) {
		jg_error_clear();
		free(from);
		return bad(r, "spread_from", "\"kind\", \"speed\", \"own\" "
		    "or null");
	}
	free(from);
	if (get_num(r, o, "deff", &e->deff) ||
	    get_num(r, o, "drift", &e->drift) ||
	    get_num(r, o, "offset", &e->offset) ||
	    get_bool(r, o, "log_scale", &e->log_scale) ||
	    get_num(r, o, "sd_within", &e->sd_within) ||
	    get_num(r, o, "sd_session", &e->sd_session) ||
	    get_num(r, o, "df", &e->df) ||
	    get_num(r, o, "sessions_base", &e->sessions_base) ||
	    get_num(r, o, "sessions_cur", &e->sessions_cur))
		return JG_EINVAL;
	return 0;
}

static int
read_trend(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_trend *t = dst;

	if (get_bool(r, o, "tested", &t->tested) ||
	    get_num(r, o, "shift", &t->shift) ||
	    get_num(r, o, "lo", &t->lo) ||
	    get_num(r, o, "hi", &t->hi) ||
	    get_num(r, o, "p_value", &t->p_value) ||
	    get_num(r, o, "p_adjusted", &t->p_adjusted) ||
	    get_bool(r, o, "crept", &t->crept) ||
	    get_str(r, o, "stepped_run", &t->stepped_run) ||
	    get_str(r, o, "stepped_started", &t->stepped_started) ||
	    get_num(r, o, "stepped_by", &t->stepped_by))
		return JG_EINVAL;
	return 0;
}

static int
read_entry_into(struct cr *r, const cJSON *o, struct comparison *c,
    struct cmp_entry *e);

static int
read_entry(struct cr *r, const cJSON *o, void *dst)
{
	struct comparison *c = dst;

	return read_entry_into(r, o, c, comparison_add_entry(c));
}

static int
read_explain(struct cr *r, const cJSON *o, void *dst)
{
	struct comparison *c = dst;

	return read_entry_into(r, o, c, comparison_add_explain(c));
}

static int
read_entry_into(struct cr *r, const cJSON *o, struct comparison *c,
    struct cmp_entry *e)
{
	char *better = NULL;
	int rc;

	rc = get_str(r, o, "device", &e->device);
	if (!rc)
		rc = get_str(r, o, "scenario", &e->scenario);
	if (!rc)
		rc = get_str(r, o, "scene", &e->scene);
	if (!rc)
		rc = get_str(r, o, "metric", &e->metric);
	if (!rc)
		rc = get_str(r, o, "unit", &e->unit);
	if (!rc)
		rc = get_str(r, o, "better", &better);
	if (!rc && better && strcmp(better, "lower") &&
	    strcmp(better, "higher"))
		rc = bad(r, "better", "\"lower\" or \"higher\"");
	e->higher_is_better = better && !strcmp(better, "higher");
	free(better);
	if (!rc && (!e->scenario || !e->metric))
		rc = bad(r, e->scenario ? "metric" : "scenario", "a string");
	if (!rc)
		rc = get_verdict(r, o, "verdict", &e->verdict);
	if (!rc)
		rc = get_str(r, o, "reason", &e->reason);
	if (!rc)
		rc = read_object(r, o, "baseline", read_summary, &e->base);
	if (!rc)
		rc = read_object(r, o, "current", read_summary, &e->cur);
	if (!rc)
		rc = read_object(r, o, "shift", read_shift, e);
	if (!rc)
		rc = get_num(r, o, "p_value", &e->p_value);
	if (!rc)
		rc = get_num(r, o, "p_adjusted", &e->p_adjusted);
	if (!rc)
		rc = get_num(r, o, "q_value", &e->q_value);
	if (!rc)
		rc = get_bool(r, o, "suspect", &e->suspect);
	if (!rc)
		rc = get_bool(r, o, "tested", &e->tested);
	if (!rc)
		rc = read_object(r, o, "threshold", read_threshold, e);
	if (!rc)
		rc = read_object(r, o, "detectable", read_detectable, e);
	if (!rc)
		rc = read_object(r, o, "session", read_entry_session, e);
	if (!rc)
		rc = read_object(r, o, "trend", read_trend, &e->trend);
	/* Files from before kept regressions: the comparison's own look. */
	if (!rc)
		rc = get_look(r, o, "look", &e->look, c->look);
	return rc;
}

static int
read_side(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_block_side *s = dst;

	if (get_num(r, o, "iterations", &s->iterations) ||
	    get_num(r, o, "carriers", &s->carriers) ||
	    get_num(r, o, "count", &s->count) ||
	    get_num(r, o, "per_iteration", &s->per_iteration) ||
	    get_num(r, o, "wall_ms", &s->wall_ms) ||
	    get_num(r, o, "janky_frames", &s->janky_frames) ||
	    get_num(r, o, "frames_seen", &s->frames_seen))
		return JG_EINVAL;
	return 0;
}

static int
read_cmp_method(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_method *m = comparison_add_method(dst);
	char *status = NULL;
	int rc;

	rc = get_str(r, o, "device", &m->device);
	if (!rc)
		rc = get_str(r, o, "scenario", &m->scenario);
	if (!rc)
		rc = get_str(r, o, "scene", &m->scene);
	if (!rc)
		rc = get_str(r, o, "name", &m->name);
	if (!rc)
		rc = get_str(r, o, "source", &m->source);
	if (!rc && (!m->scenario || !m->name))
		rc = bad(r, m->scenario ? "name" : "scenario", "a string");
	if (!rc)
		rc = get_str(r, o, "status", &status);
	if (!rc && (!status || cmp_block_status_parse(&m->status, status)))
		rc = bad(r, "status", "unchanged, new, worse or resolved");
	free(status);
	if (!rc)
		rc = read_object(r, o, "baseline", read_side, &m->base);
	if (!rc)
		rc = read_object(r, o, "current", read_side, &m->cur);
	return rc;
}

static int
read_block(struct cr *r, const cJSON *o, void *dst)
{
	struct cmp_block *b = comparison_add_block(dst);
	char *status = NULL;
	int rc;

	rc = get_str(r, o, "device", &b->device);
	if (!rc)
		rc = get_str(r, o, "scenario", &b->scenario);
	if (!rc)
		rc = get_str(r, o, "scene", &b->scene);
	if (!rc)
		rc = get_str(r, o, "signature", &b->signature);
	if (!rc && (!b->scenario || !b->signature))
		rc = bad(r, b->scenario ? "signature" : "scenario",
		    "a string");
	if (!rc)
		rc = get_str(r, o, "status", &status);
	if (!rc && (!status || cmp_block_status_parse(&b->status, status)))
		rc = bad(r, "status", "unchanged, new, worse or resolved");
	free(status);
	status = NULL;
	/* A file from before blocks had verdicts: they all passed. */
	if (!rc)
		rc = get_str(r, o, "verdict", &status);
	if (!rc && status && cmp_verdict_parse(&b->verdict, status))
		rc = bad(r, "verdict", "a verdict");
	free(status);
	if (!rc)
		rc = get_num(r, o, "p_value", &b->p_value);
	if (!rc)
		rc = get_bool(r, o, "suspect", &b->suspect);
	if (!rc)	/* older files: every new signature was tested */
		rc = get_bool(r, o, "elsewhere", &b->elsewhere);
	if (!rc) {
		double look = b->look;

		rc = get_num(r, o, "look", &look);
		b->look = isfinite(look) ? (int)look : b->look;
	}
	if (!rc)
		rc = read_object(r, o, "baseline", read_side, &b->base);
	if (!rc)
		rc = read_object(r, o, "current", read_side, &b->cur);
	if (!rc)
		rc = get_list(r, o, "stack", &b->stack);
	return rc;
}

/* Any jankgate.comparison/1 or /1.N; anything else is refused by name. */
static int
check_schema(const char *name, const cJSON *root)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "schema");

	return schema_check(name, cJSON_IsString(v) ? v->valuestring : NULL,
	    CMP_SCHEMA, "comparison");
}

static int
read_root(struct cr *r, const cJSON *root, struct comparison *c)
{
	if (get_str(r, root, "device", &c->device) ||
	    get_str(r, root, "package", &c->package) ||
	    read_object(r, root, "current", read_run, &c->current) ||
	    read_array(r, root, "baselines", read_baseline, c) ||
	    read_object(r, root, "method", read_method, c) ||
	    get_list(r, root, "mismatches", &c->mismatches) ||
	    get_list(r, root, "warnings", &c->warnings) ||
	    get_list(r, root, "confirmation", &c->confirmation) ||
	    get_list(r, root, "missing", &c->missing) ||
	    read_array(r, root, "scenarios", read_scenario, c) ||
	    read_array(r, root, "entries", read_entry, c) ||
	    read_array(r, root, "blocks", read_block, c) ||
	    read_array(r, root, "explains", read_explain, c) ||
	    read_array(r, root, "methods", read_cmp_method, c))
		return JG_EINVAL;
	return 0;
}

int
comparison_parse(struct comparison **out, const char *buf, size_t len,
    const char *name)
{
	struct cr r = { name, STRBUF_INIT };
	struct comparison *c = NULL;
	const char *end = NULL;
	cJSON *root;
	int rc;

	*out = NULL;
	root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!root)
		return jg_error_set(JG_EINVAL, "%s: invalid JSON near byte "
		    "%zu", name, end && end >= buf ? (size_t)(end - buf) : 0);
	if (!cJSON_IsObject(root)) {
		rc = jg_error_set(JG_EINVAL, "%s: expected a JSON object",
		    name);
		goto out;
	}
	rc = check_schema(name, root);
	if (rc)
		goto out;
	c = comparison_new();
	rc = read_root(&r, root, c);
	if (!rc) {
		*out = c;
		c = NULL;
	}
out:
	comparison_free(c);
	cJSON_Delete(root);
	strbuf_release(&r.path);
	return rc;
}

int
comparison_read(struct comparison **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = file_read(&sb, path);

	if (!rc)
		rc = comparison_parse(out, sb.buf, sb.len, path);
	else
		*out = NULL;
	strbuf_release(&sb);
	return rc;
}
