/*
 * test_view.c: the view model every report format is rendered from.
 *
 * The model is read back through view_to_json() and cJSON, the way a
 * template author sees it, so these tests pin the shape the man page
 * documents: merging, the report's verdict, the order of the lists, the
 * text of the numbers, the charts and the notes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "unit.h"
#include "compare.h"
#include "metrics.h"
#include "mustache.h"
#include "results.h"
#include "strbuf.h"
#include "view.h"
#include "xalloc.h"

static struct cmp_entry *
add_entry(struct comparison *c, const char *scenario, const char *scene,
    const char *metric, enum cmp_verdict v)
{
	struct cmp_entry *e = comparison_add_entry(c);

	e->device = xstrdup(c->device);
	e->scenario = xstrdup(scenario);
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(metric);
	e->unit = xstrdup(metric_find(metric)->unit);
	e->verdict = v;
	e->tested = true;
	e->base.n = 16;
	e->base.median = 10;
	e->cur.n = 5;
	e->cur.median = 13.1;
	e->shift = 3.1;
	e->shift_lo = 2.9;
	e->shift_hi = 3.3;
	e->shift_level = 0.9067;
	e->p_adjusted = 0.00231;
	e->threshold = 1.01;
	e->detectable = 0.8123;
	return e;
}

static struct comparison *
new_comparison(const char *device, const char *scenario, enum cmp_verdict v)
{
	struct comparison *c = comparison_new();
	struct cmp_scenario *s;

	c->device = xstrdup(device);
	c->package = xstrdup("com.example.feed");
	c->current.run_id = xstrdup("c1");
	c->current.app_version = xstrdup("2.0");
	comparison_add_baseline(c)->run_id = xstrdup("b1");
	s = comparison_add_scenario(c);
	s->name = xstrdup(scenario);
	s->verdict = CMP_PASS;
	s->cur_iterations = 5;
	s->cur_valid = 5;
	s->base_runs = 1;
	s->base_valid = 8;
	add_entry(c, scenario, "list", "frame_p90_ms", v);
	return c;
}

/* A current run on `serial` with one valid iteration of scenario/list. */
static struct results *
new_run(const char *serial, const char *scenario)
{
	struct results *r = results_new();
	struct rs_iteration *it;

	rs_str_set(&r->device.serial, serial);
	rs_str_set(&r->device.model, "Pixel 7");
	r->run.complete = true;
	it = rs_scenario_add_iteration(results_add_scenario(r, scenario),
	    false);
	it->ok = true;
	rs_iteration_add_scene(it, "list");
	return r;
}

/* Build, print and parse: the model as a template sees it. */
static cJSON *
model_of(const struct view_input *in, size_t nr, struct view **out)
{
	struct view_opts o = { .charts = 1, .max_attention = 2 };
	struct view *v = view_build(in, nr, &o);
	char *json = view_to_json(v);
	cJSON *root = cJSON_Parse(json);

	assert_non_null(root);
	free(json);
	if (out)
		*out = v;
	else
		view_free(v);
	return root;
}

/* The node at a dotted path ("devices.0.scenarios"); NULL when absent. */
static const cJSON *
node_at(const cJSON *o, const char *path)
{
	char *copy = xstrdup(path), *save = NULL;
	const cJSON *cur = o;

	for (char *k = strtok_r(copy, ".", &save); k && cur;
	    k = strtok_r(NULL, ".", &save)) {
		char *end;
		long idx = strtol(k, &end, 10);

		cur = *end ? cJSON_GetObjectItemCaseSensitive(cur, k) :
		    cJSON_GetArrayItem(cur, (int)idx);
	}
	free(copy);
	return cur;
}

static const char *
str_at(const cJSON *o, const char *path)
{
	const cJSON *cur = node_at(o, path);

	return cur && cJSON_IsString(cur) ? cur->valuestring :
	    cur && cJSON_IsNull(cur) ? "(null)" : "(absent)";
}

/*
 * The report's verdict follows exitstatus.h across devices: a regression on
 * one device outranks a broken run on another, which outranks an
 * inconclusive one; devices are listed worst first.
 */
static void
verdict_follows_exit_precedence(void **state)
{
	struct comparison *a = new_comparison("dev-a", "feed",
	    CMP_INCONCLUSIVE);
	struct comparison *b = new_comparison("dev-b", "feed", CMP_PASS);
	struct comparison *c = new_comparison("dev-c", "feed", CMP_REGRESSION);
	struct results *broken = new_run("B1", "feed");
	struct view_input in[3] = {
		{ .cmp = a }, { .cmp = b, .current = broken }, { .cmp = c },
	};
	struct view *v;
	cJSON *m;

	strlist_add(&broken->run.errors, "device 'B1' went offline");
	m = model_of(in, 3, &v);
	assert_int_equal(view_verdict(v), OUTCOME_REGRESSION);
	assert_int_equal(exit_status_of(view_verdict(v)), 1);
	assert_string_equal(str_at(m, "verdict.name"), "regression");
	assert_string_equal(str_at(m, "devices.0.key"), "dev-c");
	assert_string_equal(str_at(m, "devices.1.key"), "dev-b");
	assert_string_equal(str_at(m, "devices.1.verdict.name"),
	    "infrastructure");
	assert_string_equal(str_at(m, "devices.1.errors.0"),
	    "device 'B1' went offline");
	assert_string_equal(str_at(m, "devices.2.key"), "dev-a");
	cJSON_Delete(m);
	view_free(v);

	m = model_of(in, 2, &v);
	assert_int_equal(view_verdict(v), OUTCOME_INFRA);
	assert_int_equal(exit_status_of(view_verdict(v)), 3);
	cJSON_Delete(m);
	view_free(v);
	m = model_of(in, 1, &v);
	assert_int_equal(exit_status_of(view_verdict(v)), 4);
	assert_string_equal(str_at(m, "verdict.name"), "inconclusive");
	cJSON_Delete(m);
	view_free(v);
	results_free(broken);
	comparison_free(a);
	comparison_free(b);
	comparison_free(c);
}

/*
 * Shards of one device (same key and serial) merge into one device with
 * the scenarios of both; the same key on another serial is another
 * device.
 */
static void
shards_merge_by_key_and_serial(void **state)
{
	struct comparison *s1 = new_comparison("pixel-7", "feed", CMP_PASS);
	struct comparison *s2 = new_comparison("pixel-7", "cart",
	    CMP_REGRESSION);
	struct comparison *s3 = new_comparison("pixel-7", "feed", CMP_PASS);
	struct results *r1 = new_run("AAA", "feed"),
	    *r2 = new_run("AAA", "cart"), *r3 = new_run("BBB", "feed");
	struct view_input in[3] = {
		{ .cmp = s1, .current = r1 }, { .cmp = s2, .current = r2 },
		{ .cmp = s3, .current = r3 },
	};
	cJSON *m = model_of(in, 3, NULL);

	assert_int_equal(cJSON_GetNumberValue(
	    cJSON_GetObjectItem(m, "device_count")), 2);
	assert_string_equal(str_at(m, "devices.0.serial"), "AAA");
	/* worst scenario first, although its shard came second */
	assert_string_equal(str_at(m, "devices.0.scenarios.0.name"), "cart");
	assert_string_equal(str_at(m, "devices.0.scenarios.1.name"), "feed");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(m, "devices"), 0),
	    "comparisons")), 2);
	assert_string_equal(str_at(m, "devices.1.serial"), "BBB");
	assert_string_equal(str_at(m, "devices.1.verdict.name"), "pass");
	assert_string_equal(str_at(m, "summary"),
	    "2 devices, 3 metrics: 1 regression, 2 pass");
	cJSON_Delete(m);
	results_free(r1);
	results_free(r2);
	results_free(r3);
	comparison_free(s1);
	comparison_free(s2);
	comparison_free(s3);
}

/*
 * Regressions come first: `regressions` holds all of them, `attention`
 * puts them before inconclusive and improvement rows and stops at
 * max_attention with a count of the rest; passes are in neither.
 */
static void
regressions_come_first(void **state)
{
	struct comparison *c = new_comparison("pixel-7", "feed", CMP_PASS);
	struct view_input in = { .cmp = c };
	cJSON *m;

	add_entry(c, "feed", "list", "fps", CMP_IMPROVEMENT);
	add_entry(c, "feed", "list", "jank_pct", CMP_INCONCLUSIVE);
	add_entry(c, "feed", "grid", "frame_p99_ms", CMP_REGRESSION);
	add_entry(c, "feed", NULL, "startup_ms", CMP_REGRESSION);
	m = model_of(&in, 1, NULL);
	assert_int_equal(cJSON_GetArraySize(
	    cJSON_GetObjectItem(m, "regressions")), 2);
	/* in the order of the report: launch metrics, then scenes */
	assert_string_equal(str_at(m, "regressions.0.where"), "feed");
	assert_string_equal(str_at(m, "regressions.1.metric"),
	    "frame_p99_ms");
	assert_string_equal(str_at(m, "attention.0.verdict.name"),
	    "regression");
	assert_string_equal(str_at(m, "attention.1.verdict.name"),
	    "regression");
	assert_string_equal(str_at(m, "attention.2.metric"), "(absent)");
	assert_int_equal(cJSON_GetNumberValue(
	    cJSON_GetObjectItem(m, "attention_more")), 2);
	assert_string_equal(str_at(m, "others.0.verdict.name"),
	    "inconclusive");
	assert_string_equal(str_at(m, "others.1.verdict.name"),
	    "improvement");
	/* scene "grid" holds the regression: it comes before "list" */
	assert_string_equal(str_at(m, "devices.0.scenarios.0.scenes.0.name"),
	    "grid");
	assert_string_equal(str_at(m,
	    "devices.0.scenarios.0.scenes.1.verdict.name"), "inconclusive");
	cJSON_Delete(m);
	comparison_free(c);
}

/*
 * Issue 48: one estimator per column.  Change is current minus baseline
 * of the two medians beside it, so "822 ms -> 819 ms" never reads
 * "+17.7 ms"; the test's estimate, which the interval and p belong to,
 * is `shift`, apart.  A block_ms of 0 ms on both sides changes by 0 ms;
 * its shift is the test's +81.7 ms.
 */
static void
change_is_the_medians_shift_the_tests(void **state)
{
	struct comparison *c = new_comparison("pixel-7", "feed", CMP_PASS);
	struct view_input in = { .cmp = c };
	struct cmp_entry *e;
	cJSON *m;
	const cJSON *row;

	for (size_t i = 0; i < c->nr_entries; i++)
		c->entries[i].verdict = CMP_PASS;
	e = add_entry(c, "feed", NULL, "startup_ms", CMP_REGRESSION);
	e->base.median = 822;
	e->cur.median = 819;
	e->shift = 17.7;
	e->shift_lo = 9;
	e->shift_hi = 26;
	e = add_entry(c, "feed", "list", "block_ms", CMP_REGRESSION);
	e->base.median = 0;
	e->cur.median = 0;
	e->shift = 81.7;
	m = model_of(&in, 1, NULL);
	row = node_at(m, "regressions.0");
	assert_string_equal(str_at(row, "metric"), "startup_ms");
	assert_string_equal(str_at(row, "baseline"), "822 ms");
	assert_string_equal(str_at(row, "current"), "819 ms");
	assert_string_equal(str_at(row, "change"), "-3 ms");
	assert_string_equal(str_at(row, "shift"), "+17.7 ms");
	assert_string_equal(str_at(row, "interval"), "+9 to +26 ms");
	row = node_at(m, "regressions.1");
	assert_string_equal(str_at(row, "metric"), "block_ms");
	assert_string_equal(str_at(row, "change"), "0 ms");
	assert_string_equal(str_at(row, "change_pct"), "(null)");
	assert_string_equal(str_at(row, "shift"), "+81.7 ms");
	cJSON_Delete(m);
	comparison_free(c);
}

/*
 * Numbers are text with three significant digits and their unit; the
 * smallest detectable change reads as a sentence fitting the verdict.
 */
static void
numbers_read_as_people_write_them(void **state)
{
	struct comparison *c = new_comparison("pixel-7", "feed", CMP_PASS);
	struct view_input in = { .cmp = c };
	struct cmp_entry *e;
	cJSON *m;
	const cJSON *row;

	e = add_entry(c, "feed", "list", "jank_pct", CMP_INCONCLUSIVE);
	e->base.median = 4.25;
	e->cur.median = 0.00049;
	e->shift = -1234.6;
	e->shift_lo = -0.0001;
	e->detectable = INFINITY;
	add_entry(c, "feed", "list", "frozen_frames", CMP_REGRESSION)->cur
	    .median = 1;
	m = model_of(&in, 1, NULL);
	row = node_at(m, "devices.0.scenarios.0.scenes.0.metrics.0");
	/* the first row of the table is frame_p90_ms, a pass */
	assert_string_equal(str_at(row, "metric"), "frame_p90_ms");
	assert_string_equal(str_at(row, "baseline"), "10 ms");
	assert_string_equal(str_at(row, "current"), "13.1 ms");
	assert_string_equal(str_at(row, "change"), "+3.1 ms");
	assert_string_equal(str_at(row, "change_pct"), "+31%");
	assert_string_equal(str_at(row, "interval"), "+2.9 to +3.3 ms");
	assert_string_equal(str_at(row, "interval_level"), "91%");
	assert_string_equal(str_at(row, "p"), "0.0023");
	assert_string_equal(str_at(row, "threshold"), "1.01 ms");
	/* A pass whose interval reaches T cannot rule it out. */
	assert_string_equal(str_at(row, "detectable"),
	    "cannot rule out a change of practical size (+1.01 ms)");
	assert_string_equal(str_at(row, "trend"), "(null)");
	row = row->next;
	assert_string_equal(str_at(row, "baseline"), "4.25%");
	assert_string_equal(str_at(row, "current"), "0%");
	/* the medians' difference beside them; the test's own estimate
	 * apart (issue 48) */
	assert_string_equal(str_at(row, "change"), "-4.25%");
	assert_string_equal(str_at(row, "shift"), "-1235%");
	assert_string_equal(str_at(row, "interval"), "0 to +3.3%");
	assert_string_equal(str_at(row, "detectable"),
	    "too few iterations to flag any change");
	row = row->next;
	assert_string_equal(str_at(row, "current"), "1 frame");
	assert_string_equal(str_at(row, "detectable"),
	    "flags +1.01 frames or more at this sample");
	cJSON_Delete(m);
	comparison_free(c);
}

/*
 * The method line says which session spread each kind's tests used and
 * where it came from; for jank counts and shares, that a scene's own
 * speed prior takes over where it says more (compare_test.c), as long
 * as priors have any weight.  A row whose spread is not its kind's says
 * which it was, and how large: its own sessions', or its scene's speed's.
 */
static void
session_spread_is_named_with_its_source(void **state)
{
	(void)state;
	for (int w = 0; w < 2; w++) {
		struct comparison *c = new_comparison("pixel-7", "feed",
		    CMP_PASS);
		struct view_input in = { .cmp = c };
		struct cmp_entry *own, *speed;
		const char *line;
		cJSON *m;
		const cJSON *row;
		int rows = 0;

		c->prior_runs = w;
		c->entries[0].spread_from = CMP_SPREAD_KIND;
		c->entries[0].sd_session = 0.018;
		c->entries[0].log_scale = true;
		own = add_entry(c, "feed", "list", "frame_p95_ms", CMP_PASS);
		own->spread_from = CMP_SPREAD_OWN;
		own->sd_session = 0.031;
		own->log_scale = true;
		speed = add_entry(c, "feed", "list", "jank_pct", CMP_PASS);
		speed->spread_from = CMP_SPREAD_SPEED;
		speed->sd_session = 2.5;
		c->kinds[METRIC_KIND_FRAME_TIME].used = 0.018;
		c->kinds[METRIC_KIND_FRAME_TIME].estimate = 0.017;
		c->kinds[METRIC_KIND_FRAME_TIME].sessions = 20;
		c->kinds[METRIC_KIND_JANK].used = 0.5;
		c->kinds[METRIC_KIND_JANK].sessions = 1;
		/* The phone's session offsets: taken off, or not. */
		c->kinds[METRIC_KIND_FRAME_TIME].offset = log(1.021);
		c->kinds[METRIC_KIND_FRAME_TIME].offset_sd = 0.02;
		c->kinds[METRIC_KIND_FRAME_TIME].offset_p = w ? 0.15 : 0.004;
		c->kinds[METRIC_KIND_FRAME_TIME].offset_on = w;
		c->entries[0].offset = w ? 0.31 : 0;
		m = model_of(&in, 1, NULL);
		line = str_at(m, "method.session");
		assert_non_null(strstr(line, "frame times 1.8 % (estimated "
		    "from 20 baseline sessions with the prior)"));
		assert_non_null(strstr(line, w ? "each session's offset "
		    "taken off as the other scenes of it measure it (tonight "
		    "2.1 % against the baseline's sessions, which differ by "
		    "2 %, p = 0.15)" : "no session's offset taken off: "
		    "tonight stood 2.1 % from the baseline's sessions, further "
		    "than they differ (2 %, p = 0.004)"));
		assert_non_null(strstr(line, "jank counts and shares 0.5 of "
		    "the within-session spread (the prior: 1 baseline "
		    "session)"));
		assert_true(!strstr(line, "frames' speed") == !w);
		row = node_at(m, "devices.0.scenarios.0.scenes.0.metrics.0");
		for (; row; row = row->next) {
			const char *metric = str_at(row, "metric");
			const char *spread = str_at(row, "spread");

			rows++;
			if (!strcmp(metric, "frame_p90_ms"))
				assert_string_equal(spread, w ? "tonight's "
				    "values taken back by 0.31 ms, the phone's "
				    "offset in their sessions as the other "
				    "scenes measured it" : "(null)");
			else if (!strcmp(metric, "frame_p95_ms"))
				assert_string_equal(spread, "tested with a "
				    "session spread of 3.1 %: this metric's "
				    "own sessions differ more than its "
				    "kind's");
			else
				assert_string_equal(spread, "tested with a "
				    "session spread of 2.5%: what the frame "
				    "times' spread makes of how this scene "
				    "follows its frames' speed");
		}
		assert_int_equal(rows, 3);
		cJSON_Delete(m);
		comparison_free(c);
	}
}

/*
 * The method names the primary metrics and their weight where they weigh
 * more, and says nothing of them where every metric weighs alike.
 */
static void
primary_weight_is_named_where_it_weighs(void **state)
{
	(void)state;
	for (int w = 0; w < 2; w++) {
		struct comparison *c = new_comparison("pixel-7", "feed",
		    CMP_PASS);
		struct view_input in = { .cmp = c };
		cJSON *m;

		c->primary_weight = w ? 4 : 1;
		c->correction = STATS_ADJUST_HOLM;
		strlist_add(&c->primary_metrics, "frame_p90_ms");
		strlist_add(&c->primary_metrics, "jank_pct");
		strlist_add(&c->primary_metrics, "startup_ms");
		m = model_of(&in, 1, NULL);
		if (w) {
			assert_string_equal(str_at(m,
			    "method.primary_weight"), "4");
			assert_string_equal(str_at(m,
			    "method.primary_metrics"),
			    "frame_p90_ms, jank_pct and startup_ms");
		} else {
			assert_null(node_at(m, "method.primary_weight"));
			assert_null(node_at(m, "method.primary_metrics"));
		}
		assert_string_equal(str_at(m, "method.correction"), "holm");
		cJSON_Delete(m);
		comparison_free(c);
	}
}

/*
 * Every list has its has_ flag, false too, so a section inside a scene
 * never sees the enclosing scenario's blocks.
 */
static void
list_flags_do_not_leak_into_scenes(void **state)
{
	static const char tpl[] = "{{#devices}}{{#scenarios}}"
	    "S{{#has_blocks}}+{{/has_blocks}}"
	    "{{#scenes}}/{{name}}{{#has_blocks}}+{{/has_blocks}}{{/scenes}}"
	    "{{/scenarios}}{{/devices}}";
	struct comparison *c = new_comparison("pixel-7", "feed", CMP_PASS);
	struct view_input in = { .cmp = c };
	struct cmp_block *b = comparison_add_block(c);
	struct mustache *t;
	struct strbuf sb = STRBUF_INIT;
	struct view *v;

	b->scenario = xstrdup("feed");
	b->signature = xstrdup("abc");
	b->status = CMP_BLOCK_NEW;
	v = view_build(&in, 1, NULL);
	assert_int_equal(mustache_compile(&t, tpl, strlen(tpl), NULL), 0);
	assert_int_equal(view_render(v, t, NULL, &sb), 0);
	assert_string_equal(sb.buf, "S+/list");
	mustache_free(t);
	strbuf_release(&sb);
	view_free(v);
	comparison_free(c);
}

/*
 * A new signature the baseline carried in another scene is labelled so,
 * beside a plain new one and one that failed the run.
 */
static void
a_block_known_elsewhere_says_so(void **state)
{
	const char *want[] = { "New: regression", "New here, known elsewhere",
		"New" };
	struct comparison *c = new_comparison("pixel-7", "feed", CMP_PASS);
	struct view_input in = { .cmp = c };
	cJSON *m;
	char path[64];

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct cmp_block *b = comparison_add_block(c);

		b->scenario = xstrdup("feed");
		b->signature = xstrdup(i == 0 ? "a" : i == 1 ? "b" : "c");
		b->status = CMP_BLOCK_NEW;
		b->verdict = i == 0 ? CMP_REGRESSION : CMP_PASS;
		b->elsewhere = i == 1;
	}
	m = model_of(&in, 1, NULL);
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path),
		    "devices.0.scenarios.0.blocks.%d.status_label", i);
		assert_string_equal(str_at(m, path), want[i]);
	}
	cJSON_Delete(m);
	comparison_free(c);
}

/* Scene "list" of `scenario` with `fast` frames at 8 ms, `slow` at 40. */
static struct results *
run_with_frames(const char *id, double p90, uint64_t fast, uint64_t slow)
{
	struct results *r = new_run("AAA", "feed");
	struct rs_scene *sc = &r->scenarios[0].iterations[0].scenes[0];

	rs_str_set(&r->run.id, id);
	sc->frames.p90_ms = p90;
	sc->frames.count = (double)(fast + slow);
	rs_frames_add_bucket(&sc->frames, 8, fast);
	rs_frames_add_bucket(&sc->frames, 40, slow);
	return r;
}

/*
 * With results and a history, a scene gets its frame-time chart (both
 * sides) and its rows a trend line; without them, both are null.
 */
static void
charts_come_from_results_and_history(void **state)
{
	struct comparison *c = new_comparison("pixel-7", "feed",
	    CMP_REGRESSION);
	struct results *cur = run_with_frames("c1", 13, 80, 20);
	struct results *hist[3] = { run_with_frames("h3", 10, 95, 5),
	    run_with_frames("h2", 11, 95, 5), run_with_frames("h1", 9, 95, 5) };
	struct view_input in = { .cmp = c, .current = cur,
	    .baselines = hist, .nr_baselines = 1,
	    .history = hist, .nr_history = 3 };
	cJSON *m = model_of(&in, 1, NULL);
	const char *chart = str_at(m,
	    "devices.0.scenarios.0.scenes.0.chart");
	const char *trend = str_at(m,
	    "devices.0.scenarios.0.scenes.0.metrics.0.trend");

	assert_true(!strncmp(chart, "<svg", 4));
	assert_true(!strncmp(trend, "<svg", 4));
	assert_string_equal(str_at(m,
	    "devices.0.scenarios.0.scenes.0.frames"),
	    "frames: 100 baseline, 100 current");
	cJSON_Delete(m);
	in.current = NULL;
	in.nr_baselines = 0;
	in.nr_history = 0;
	m = model_of(&in, 1, NULL);
	assert_string_equal(str_at(m,
	    "devices.0.scenarios.0.scenes.0.chart"), "(null)");
	assert_string_equal(str_at(m,
	    "devices.0.scenarios.0.scenes.0.metrics.0.trend"), "(null)");
	cJSON_Delete(m);
	results_free(cur);
	for (int i = 0; i < 3; i++)
		results_free(hist[i]);
	comparison_free(c);
}

/*
 * Notes say what makes numbers less trustworthy (a mismatch compared
 * anyway, a changed scenario, too few valid iterations, a warm phone),
 * warnings carry the source, and failed iterations their error.
 */
static void
notes_and_warnings_are_collected(void **state)
{
	struct comparison *c = new_comparison("pixel-7", "feed", CMP_PASS);
	struct results *r = new_run("AAA", "feed");
	struct rs_iteration *bad;
	struct strlist loader = STRLIST_INIT;
	struct view_input in = { .cmp = c, .current = r, .notes = &loader };
	cJSON *m;

	strlist_add(&loader, "no trend lines: no repository");
	strlist_add(&c->mismatches, "refresh rate 60 Hz, baseline 90 Hz");
	c->scenarios[0].changed = true;
	c->scenarios[0].verdict = CMP_INCONCLUSIVE;
	c->scenarios[0].cur_valid = 2;
	c->min_iterations = 3;
	r->hygiene.thermal_status = 2;
	results_add_warning(r, "matrix", "feed/list", "no Trace_FPS lines");
	bad = rs_scenario_add_iteration(&r->scenarios[0], false);
	rs_str_set(&bad->error, "activity did not start");
	m = model_of(&in, 1, NULL);
	assert_string_equal(str_at(m, "devices.0.notes.0"),
	    "no trend lines: no repository");
	assert_string_equal(str_at(m, "devices.0.notes.1"),
	    "compared despite a mismatch: refresh rate 60 Hz, baseline 90 Hz");
	assert_string_equal(str_at(m, "devices.0.notes.2"),
	    "scenario 'feed' differs from the text the baseline ran");
	assert_string_equal(str_at(m, "devices.0.notes.3"),
	    "scenario 'feed': 2 of 5 iterations valid, fewer than "
	    "min_iterations (3)");
	assert_non_null(strstr(str_at(m, "devices.0.notes.4"), "warm"));
	assert_string_equal(str_at(m, "devices.0.warnings.0.source"),
	    "matrix");
	assert_string_equal(str_at(m, "devices.0.warnings.0.scope"),
	    "feed/list");
	assert_string_equal(str_at(m, "warnings.0.text"),
	    "no Trace_FPS lines");
	assert_string_equal(str_at(m, "devices.0.scenarios.0.failures.0"
	    ".error"), "activity did not start");
	assert_string_equal(str_at(m, "devices.0.scenarios.0.verdict.name"),
	    "inconclusive");
	assert_string_equal(str_at(m, "verdict.name"), "inconclusive");
	cJSON_Delete(m);
	strlist_release(&loader);
	results_free(r);
	comparison_free(c);
}

/*
 * A warning is one line however it was said: without a source it is just
 * its text (no ": " before it), and the same warning in two comparisons of
 * one device (shards, looks) or twice in one results file is listed once.
 */
static void
warnings_are_listed_once_as_one_line(void **state)
{
	struct comparison *c1 = new_comparison("pixel-7", "feed", CMP_PASS);
	struct comparison *c2 = new_comparison("pixel-7", "cart", CMP_PASS);
	struct results *r1 = new_run("AAA", "feed");
	struct results *r2 = new_run("AAA", "cart");
	struct view_input in[2] = { { .cmp = c1, .current = r1 },
	    { .cmp = c2, .current = r2 } };
	cJSON *m;

	(void)state;
	results_add_warning(r1, NULL, NULL, "versionCode not verified");
	results_add_warning(r1, NULL, NULL, "versionCode not verified");
	results_add_warning(r2, NULL, NULL, "versionCode not verified");
	results_add_warning(r1, "blockcanary", NULL, "no BlockCanary log");
	results_add_warning(r2, "matrix", "cart/pay", "no Trace_FPS lines");
	assert_int_equal(r1->nr_warnings, 2);
	m = model_of(in, 2, NULL);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m,
	    "warnings")), 3);
	assert_string_equal(str_at(m, "warnings.0.line"),
	    "versionCode not verified");
	assert_string_equal(str_at(m, "warnings.1.line"),
	    "blockcanary: no BlockCanary log");
	assert_string_equal(str_at(m, "warnings.2.line"),
	    "matrix in cart/pay: no Trace_FPS lines");
	assert_string_equal(str_at(m, "warnings.2.device"),
	    "Pixel 7 (pixel-7)");
	cJSON_Delete(m);
	results_free(r1);
	results_free(r2);
	comparison_free(c1);
	comparison_free(c2);
}

/* The model holds strings as they came; escaping is each output's job. */
static void
hostile_strings_are_kept_verbatim(void **state)
{
	const char *evil = "<img src=x onerror=alert(1)>&\"'";
	struct comparison *c = new_comparison("pixel-7", evil, CMP_PASS);
	struct view_input in = { .cmp = c };
	cJSON *m = model_of(&in, 1, NULL);

	assert_string_equal(str_at(m, "devices.0.scenarios.0.name"), evil);
	assert_string_equal(str_at(m,
	    "devices.0.scenarios.0.scenes.0.metrics.0.scenario"), evil);
	cJSON_Delete(m);
	comparison_free(c);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(verdict_follows_exit_precedence),
	cmocka_unit_test(shards_merge_by_key_and_serial),
	cmocka_unit_test(regressions_come_first),
	cmocka_unit_test(numbers_read_as_people_write_them),
	cmocka_unit_test(change_is_the_medians_shift_the_tests),
	cmocka_unit_test(session_spread_is_named_with_its_source),
	cmocka_unit_test(primary_weight_is_named_where_it_weighs),
	cmocka_unit_test(list_flags_do_not_leak_into_scenes),
	cmocka_unit_test(a_block_known_elsewhere_says_so),
	cmocka_unit_test(charts_come_from_results_and_history),
	cmocka_unit_test(notes_and_warnings_are_collected),
	cmocka_unit_test(hostile_strings_are_kept_verbatim),
	cmocka_unit_test(warnings_are_listed_once_as_one_line),
};

JG_UNIT_GROUP(view, tests, NULL, NULL)
