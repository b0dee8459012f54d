/*
 * comparison_write.c: the model of comparison.h into comparison.json
 * (comparison_read.c reads it back).
 *
 * The layout, every key always written in this order (an absent number or
 * string is null; the writer is jsonw, so the bytes are canonical):
 *
 *   { "schema": "jankgate.comparison/1", "jankgate_version",
 *     "verdict":   "pass" | "regression" | "inconclusive"   (the run's),
 *     "device", "package",
 *     "current":   RUN,   "baselines": [ RUN ],
 *     "method":    { test: "session-t", shift: "session-mean",
 *                   alpha, share, correction, primary_weight,
 *                   primary_metrics: [str], suspect_fdr, ci_level,
 *                   min_iterations,
 *                   tests, noise, look, looks, last, spending,
 *                   alpha_look, alpha_trend, trend_tests, anchor_runs,
 *                   prior_runs, interleaved (jankgate ab: the
 *                   sessions of both sides are blocks of one session),
 *                   explain_tests,
 *                   session: { frame_time: KIND, launch: KIND,
 *                              jank: KIND, blocks: KIND } },
 *     "counts":    { pass, improvement, new, missing, inconclusive,
 *                   regression },
 *     "mismatches": [str], "warnings": [str],
 *     "confirmation": [str] (only after an A/B confirmed: step 9),
 *     "missing": [str],
 *     "scenarios": [ { name, verdict, cur_iterations, cur_valid,
 *                      base_runs, base_valid, changed } ],
 *     "entries":   [ { device, scenario, scene, metric, unit,
 *                      better: "lower" | "higher", verdict, reason,
 *                      baseline: SUMMARY, current: SUMMARY,
 *                      shift: { estimate, lo, hi, level },
 *                      p_value, p_adjusted, q_value, suspect, tested,
 *                      threshold: { relative, absolute, noise, spread,
 *                                   value },
 *                      detectable: { shift, possible },
 *                      session: { test: "rank" | "t", deff, drift,
 *                                 offset, log_scale,
 *                                 sd_within, sd_session,
 *                                 spread_from: "kind" | "speed" | "own",
 *                                 df, sessions_base, sessions_cur },
 *                      trend: { tested, shift, lo, hi, p_value,
 *                               p_adjusted, crept, stepped_run,
 *                               stepped_started, stepped_by },
 *                      look } ],
 *     "blocks":    [ { device, scenario, scene, signature, status,
 *                      verdict, p_value, suspect, look, elsewhere,
 *                      baseline: SIDE, current: SIDE, stack: [str] } ],
 *     "explains":  [ ENTRY ]   (the explain metrics, metrics_explain.h),
 *     "methods":   [ { device, scenario, scene, name, source, status,
 *                      baseline: SIDE, current: SIDE } ] }
 *
 *   RUN     = { file, run_id, app_version, started }
 *   SUMMARY = { n, min, q1, median, q3, max, iqr, mean }
 *   SIDE    = { iterations, count, per_iteration, wall_ms, janky_frames,
 *               frames_seen }
 *   ENTRY   = an element of "entries"; `method.explain_tests` is the size
 *             of the explains' own family
 *   KIND    = { prior, estimate, sessions, used, df, trend, trend_t,
 *               trend_on, offset, offset_p, offset_sd, offset_on }
 *             (df null: the prior alone, taken as known; offset null:
 *             no session offsets measured, as in files before them)
 *
 * `scene` is null for scenario metrics (launch timing) and for blocks
 * outside every scene.  `detectable.shift` is the smallest worse shift
 * the test would have flagged at this look (no power is claimed);
 * `possible` is false when none could be; both are null when the entry
 * never reached the statistics.  Files written before the session model
 * lack `session` and `trend` and read them as null.
 * An entry's `look` is the look whose numbers it holds: the comparison's,
 * or an earlier one's for a regression found there and kept
 * (docs/method.md, step 7); a reader takes a missing `look` as the comparison's.
 * `verdict` and `counts` are derived: the reader ignores them and
 * recomputes.  Like results.json, a reader takes any 1.x, ignores unknown
 * keys, reads a missing key as null, and names the key path of a value of
 * the wrong type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "fileio.h"
#include "jsonw.h"
#include "strbuf.h"
#include "banned.h"

#ifndef JG_VERSION
#define JG_VERSION "unknown"
#endif

static void
write_run(struct jsonw *w, const char *key, const struct cmp_run *r)
{
	jsonw_open(w, key, '{');
	jsonw_str(w, "file", r->file);
	jsonw_str(w, "run_id", r->run_id);
	jsonw_str(w, "app_version", r->app_version);
	jsonw_str(w, "started", r->started);
	jsonw_close(w, '}');
}

static void
write_list(struct jsonw *w, const char *key, const struct strlist *l)
{
	jsonw_open(w, key, '[');
	for (size_t i = 0; i < l->nr; i++)
		jsonw_str(w, NULL, l->items[i]);
	jsonw_close(w, ']');
}

static void
write_summary(struct jsonw *w, const char *key, const struct stats_summary *s)
{
	jsonw_open(w, key, '{');
	jsonw_num(w, "n", (double)s->n);
	jsonw_num(w, "min", s->min);
	jsonw_num(w, "q1", s->q1);
	jsonw_num(w, "median", s->median);
	jsonw_num(w, "q3", s->q3);
	jsonw_num(w, "max", s->max);
	jsonw_num(w, "iqr", s->iqr);
	jsonw_num(w, "mean", s->mean);
	jsonw_close(w, '}');
}

static void
write_entry(struct jsonw *w, const struct cmp_entry *e)
{
	jsonw_open(w, NULL, '{');
	jsonw_str(w, "device", e->device);
	jsonw_str(w, "scenario", e->scenario);
	jsonw_str(w, "scene", e->scene);
	jsonw_str(w, "metric", e->metric);
	jsonw_str(w, "unit", e->unit);
	jsonw_str(w, "better", e->higher_is_better ? "higher" : "lower");
	jsonw_str(w, "verdict", cmp_verdict_name(e->verdict));
	jsonw_str(w, "reason", e->reason);
	write_summary(w, "baseline", &e->base);
	write_summary(w, "current", &e->cur);
	jsonw_open(w, "shift", '{');
	jsonw_num(w, "estimate", e->shift);
	jsonw_num(w, "lo", e->shift_lo);
	jsonw_num(w, "hi", e->shift_hi);
	jsonw_num(w, "level", e->shift_level);
	jsonw_close(w, '}');
	jsonw_num(w, "p_value", e->p_value);
	jsonw_num(w, "p_adjusted", e->p_adjusted);
	jsonw_num(w, "q_value", e->q_value);
	jsonw_lit(w, "suspect", e->suspect ? "true" : "false");
	jsonw_lit(w, "tested", e->tested ? "true" : "false");
	jsonw_open(w, "threshold", '{');
	jsonw_num(w, "relative", e->rel_threshold);
	jsonw_num(w, "absolute", e->abs_threshold);
	jsonw_num(w, "noise", e->noise_threshold);
	jsonw_num(w, "spread", e->spread);
	jsonw_num(w, "value", e->threshold);
	jsonw_close(w, '}');
	jsonw_open(w, "detectable", '{');
	jsonw_num(w, "shift", e->detectable);
	jsonw_lit(w, "possible", isnan(e->detectable) ? "null" :
	    isinf(e->detectable) ? "false" : "true");
	jsonw_close(w, '}');
	jsonw_open(w, "session", '{');
	jsonw_str(w, "test", !e->tested ? NULL : e->rank_test ? "rank" :
	    "t");
	jsonw_num(w, "deff", e->deff);
	jsonw_num(w, "drift", e->drift);
	jsonw_num(w, "offset", e->offset);
	jsonw_lit(w, "log_scale", e->log_scale ? "true" : "false");
	jsonw_num(w, "sd_within", e->sd_within);
	jsonw_num(w, "sd_session", e->sd_session);
	jsonw_str(w, "spread_from", cmp_spread_name(e->spread_from));
	jsonw_num(w, "df", e->df);
	jsonw_num(w, "sessions_base", e->sessions_base);
	jsonw_num(w, "sessions_cur", e->sessions_cur);
	jsonw_close(w, '}');
	jsonw_open(w, "trend", '{');
	jsonw_lit(w, "tested", e->trend.tested ? "true" : "false");
	jsonw_num(w, "shift", e->trend.shift);
	jsonw_num(w, "lo", e->trend.lo);
	jsonw_num(w, "hi", e->trend.hi);
	jsonw_num(w, "p_value", e->trend.p_value);
	jsonw_num(w, "p_adjusted", e->trend.p_adjusted);
	jsonw_lit(w, "crept", e->trend.crept ? "true" : "false");
	jsonw_str(w, "stepped_run", e->trend.stepped_run);
	jsonw_str(w, "stepped_started", e->trend.stepped_started);
	jsonw_num(w, "stepped_by", e->trend.stepped_by);
	jsonw_close(w, '}');
	jsonw_num(w, "look", e->look);
	jsonw_close(w, '}');
}

static void
write_side(struct jsonw *w, const char *key, const struct cmp_block_side *s)
{
	jsonw_open(w, key, '{');
	jsonw_num(w, "iterations", s->iterations);
	jsonw_num(w, "carriers", s->carriers);
	jsonw_num(w, "count", s->count);
	jsonw_num(w, "per_iteration", s->per_iteration);
	jsonw_num(w, "wall_ms", s->wall_ms);
	jsonw_num(w, "janky_frames", s->janky_frames);
	jsonw_num(w, "frames_seen", s->frames_seen);
	jsonw_close(w, '}');
}

static void
write_cmp_method(struct jsonw *w, const struct cmp_method *m)
{
	jsonw_open(w, NULL, '{');
	jsonw_str(w, "device", m->device);
	jsonw_str(w, "scenario", m->scenario);
	jsonw_str(w, "scene", m->scene);
	jsonw_str(w, "name", m->name);
	jsonw_str(w, "source", m->source);
	jsonw_str(w, "status", cmp_block_status_name(m->status));
	write_side(w, "baseline", &m->base);
	write_side(w, "current", &m->cur);
	jsonw_close(w, '}');
}

static void
write_block(struct jsonw *w, const struct cmp_block *b)
{
	jsonw_open(w, NULL, '{');
	jsonw_str(w, "device", b->device);
	jsonw_str(w, "scenario", b->scenario);
	jsonw_str(w, "scene", b->scene);
	jsonw_str(w, "signature", b->signature);
	jsonw_str(w, "status", cmp_block_status_name(b->status));
	jsonw_str(w, "verdict", cmp_verdict_name(b->verdict));
	jsonw_num(w, "p_value", b->p_value);
	jsonw_lit(w, "suspect", b->suspect ? "true" : "false");
	jsonw_num(w, "look", (double)b->look);
	jsonw_lit(w, "elsewhere", b->elsewhere ? "true" : "false");
	write_side(w, "baseline", &b->base);
	write_side(w, "current", &b->cur);
	write_list(w, "stack", &b->stack);
	jsonw_close(w, '}');
}

static void
write_scenario(struct jsonw *w, const struct cmp_scenario *s)
{
	jsonw_open(w, NULL, '{');
	jsonw_str(w, "name", s->name);
	jsonw_str(w, "verdict", cmp_verdict_name(s->verdict));
	jsonw_num(w, "cur_iterations", s->cur_iterations);
	jsonw_num(w, "cur_valid", s->cur_valid);
	jsonw_num(w, "base_runs", s->base_runs);
	jsonw_num(w, "base_valid", s->base_valid);
	jsonw_lit(w, "changed", s->changed ? "true" : "false");
	jsonw_close(w, '}');
}

char *
comparison_to_json(const struct comparison *c)
{
	struct strbuf sb = STRBUF_INIT;
	size_t counts[CMP_NR_VERDICTS];
	struct jsonw w;

	comparison_count(c, counts);
	jsonw_init(&w, &sb);
	jsonw_open(&w, NULL, '{');
	jsonw_str(&w, "schema", CMP_SCHEMA);
	jsonw_str(&w, "jankgate_version", JG_VERSION);
	jsonw_str(&w, "verdict", cmp_verdict_name(comparison_verdict(c)));
	jsonw_str(&w, "device", c->device);
	jsonw_str(&w, "package", c->package);
	write_run(&w, "current", &c->current);
	jsonw_open(&w, "baselines", '[');
	for (size_t i = 0; i < c->nr_baselines; i++)
		write_run(&w, NULL, &c->baselines[i]);
	jsonw_close(&w, ']');
	jsonw_open(&w, "method", '{');
	jsonw_str(&w, "test", "session-t");
	jsonw_str(&w, "shift", "session-mean");
	jsonw_num(&w, "alpha", c->alpha);
	jsonw_num(&w, "share", c->share);
	jsonw_str(&w, "correction", stats_adjust_name(c->correction));
	jsonw_num(&w, "primary_weight", c->primary_weight);
	write_list(&w, "primary_metrics", &c->primary_metrics);
	jsonw_num(&w, "suspect_fdr", c->suspect_fdr);
	jsonw_num(&w, "ci_level", c->ci_level);
	jsonw_num(&w, "min_iterations", c->min_iterations);
	jsonw_num(&w, "tests", (double)c->tests);
	jsonw_num(&w, "noise", c->noise);
	jsonw_num(&w, "look", c->look);
	jsonw_num(&w, "looks", c->looks);
	jsonw_lit(&w, "last", c->last ? "true" : "false");
	jsonw_str(&w, "spending", cmp_spending_name(c->spending));
	jsonw_num(&w, "alpha_look", c->alpha_look);
	jsonw_num(&w, "alpha_trend", c->alpha_trend);
	jsonw_num(&w, "trend_tests", (double)c->trend_tests);
	jsonw_num(&w, "anchor_runs", (double)c->anchor_runs);
	jsonw_num(&w, "prior_runs", c->prior_runs);
	jsonw_lit(&w, "interleaved", c->interleaved ? "true" : "false");
	jsonw_num(&w, "explain_tests", (double)c->explain_tests);
	jsonw_open(&w, "session", '{');
	for (int k = 0; k < METRIC_NR_KINDS; k++) {
		const struct cmp_session_kind *sk = &c->kinds[k];

		jsonw_open(&w, metric_kind_name((enum metric_kind)k), '{');
		jsonw_num(&w, "prior", sk->prior);
		jsonw_num(&w, "estimate", sk->estimate);
		jsonw_num(&w, "sessions", sk->sessions);
		jsonw_num(&w, "used", sk->used);
		jsonw_num(&w, "df", isinf(sk->df) ? NAN : sk->df);
		jsonw_num(&w, "trend", sk->trend);
		jsonw_num(&w, "trend_t", sk->trend_t);
		jsonw_lit(&w, "trend_on", sk->trend_on ? "true" : "false");
		jsonw_num(&w, "offset", sk->offset);
		jsonw_num(&w, "offset_p", sk->offset_p);
		jsonw_num(&w, "offset_sd", sk->offset_sd);
		jsonw_lit(&w, "offset_on", sk->offset_on ? "true" : "false");
		jsonw_close(&w, '}');
	}
	jsonw_close(&w, '}');
	jsonw_close(&w, '}');
	jsonw_open(&w, "counts", '{');
	for (int v = 0; v < CMP_NR_VERDICTS; v++)
		jsonw_num(&w, cmp_verdict_name((enum cmp_verdict)v),
		    (double)counts[v]);
	jsonw_close(&w, '}');
	write_list(&w, "mismatches", &c->mismatches);
	write_list(&w, "warnings", &c->warnings);
	/* Only where a confirmation ran: files before it stay the same. */
	if (c->confirmation.nr)
		write_list(&w, "confirmation", &c->confirmation);
	write_list(&w, "missing", &c->missing);
	jsonw_open(&w, "scenarios", '[');
	for (size_t i = 0; i < c->nr_scenarios; i++)
		write_scenario(&w, &c->scenarios[i]);
	jsonw_close(&w, ']');
	jsonw_open(&w, "entries", '[');
	for (size_t i = 0; i < c->nr_entries; i++)
		write_entry(&w, &c->entries[i]);
	jsonw_close(&w, ']');
	jsonw_open(&w, "blocks", '[');
	for (size_t i = 0; i < c->nr_blocks; i++)
		write_block(&w, &c->blocks[i]);
	jsonw_close(&w, ']');
	jsonw_open(&w, "explains", '[');
	for (size_t i = 0; i < c->nr_explains; i++)
		write_entry(&w, &c->explains[i]);
	jsonw_close(&w, ']');
	jsonw_open(&w, "methods", '[');
	for (size_t i = 0; i < c->nr_methods; i++)
		write_cmp_method(&w, &c->methods[i]);
	jsonw_close(&w, ']');
	jsonw_close(&w, '}');
	jsonw_end(&w);
	return strbuf_detach(&sb, NULL);
}

int
comparison_write(const struct comparison *c, const char *path)
{
	char *text = comparison_to_json(c);
	int rc = file_write_atomic(path, text, strlen(text), 0644);

	free(text);
	return rc;
}
