/*
 * test_gate.c: the decisions of `jankgate gate` (gate_policy.c) and the
 * pooling of several devices' runs (gate_pool.c), without a device.
 */
#include <math.h>
#include <string.h>

#include "unit.h"

#include "baseline_store.h"
#include "cancel.h"
#include "compare.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "gate.h"
#include "gate_int.h"
#include "results.h"
#include "run.h"
#include "source.h"
#include "strbuf.h"
#include "xalloc.h"

/* Looks: one for the first batch, then one per batch up to the max. */
static void
looks_count_batches_up_to_the_max(void **state)
{
	(void)state;
	assert_int_equal(gate_looks(5, 15), 3);
	assert_int_equal(gate_looks(5, 12), 3);	/* 5 + 5 + 2 */
	assert_int_equal(gate_looks(5, 10), 2);
	assert_int_equal(gate_looks(5, 5), 1);
	assert_int_equal(gate_looks(5, 3), 1);	/* max below the batch */
	assert_int_equal(gate_looks(1, 4), 4);
	assert_int_equal(gate_looks(0, 4), 1);	/* nonsense: one look */
}

/* A batch is `iterations`, cut at max_iterations, and 0 at the max. */
static void
batch_stops_at_the_max(void **state)
{
	(void)state;
	assert_int_equal(gate_batch(5, 15, 5), 5);
	assert_int_equal(gate_batch(5, 12, 10), 2);
	assert_int_equal(gate_batch(5, 15, 15), 0);
	assert_int_equal(gate_batch(5, 15, 17), 0);
	assert_int_equal(gate_batch(0, 15, 0), 0);
}

static void
add_entry(struct comparison *c, const char *scenario, enum cmp_verdict v)
{
	struct cmp_entry *e = comparison_add_entry(c);

	e->scenario = xstrdup(scenario);
	e->metric = xstrdup("frame_p90_ms");
	e->verdict = v;
}

static void
add_scenario(struct comparison *c, const char *name, enum cmp_verdict v)
{
	struct cmp_scenario *s = comparison_add_scenario(c);

	s->name = xstrdup(name);
	s->verdict = v;
}

/*
 * A scenario needs more iterations when one of its entries, or the
 * scenario itself (too few valid iterations), is inconclusive; each is
 * named once, and decided scenarios are not.
 */
static void
undecided_names_each_open_scenario_once(void **state)
{
	struct comparison *c = comparison_new();
	struct strlist out = STRLIST_INIT;

	(void)state;
	add_scenario(c, "login", CMP_PASS);
	add_scenario(c, "crashy", CMP_INCONCLUSIVE);
	add_scenario(c, "feed", CMP_PASS);
	add_entry(c, "login", CMP_PASS);
	add_entry(c, "login", CMP_REGRESSION);
	add_entry(c, "feed", CMP_INCONCLUSIVE);
	add_entry(c, "feed", CMP_INCONCLUSIVE);
	add_entry(c, "crashy", CMP_INCONCLUSIVE);
	gate_undecided(&out, c);
	assert_int_equal(out.nr, 2);
	assert_string_equal(out.items[0], "crashy");
	assert_string_equal(out.items[1], "feed");
	strlist_release(&out);
	comparison_free(c);
}

/* The commit names the news: regression and inconclusive first, a first
 * run as new, an improvement over plain passes. */
static void
commit_verdict_names_the_news(void **state)
{
	static const struct {
		enum cmp_verdict v[3];
		size_t nr;
		const char *want;
	} cases[] = {
		{ { CMP_NEW, CMP_NEW, CMP_NEW }, 3, "new" },
		{ { CMP_NEW, CMP_PASS, CMP_NEW }, 3, "pass" },
		{ { CMP_PASS, CMP_IMPROVEMENT, CMP_MISSING }, 3,
		  "improvement" },
		{ { CMP_IMPROVEMENT, CMP_INCONCLUSIVE, CMP_PASS }, 3,
		  "inconclusive" },
		{ { CMP_INCONCLUSIVE, CMP_REGRESSION, CMP_IMPROVEMENT }, 3,
		  "regression" },
		{ { CMP_PASS }, 0, "pass" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct comparison *c = comparison_new();

		for (size_t j = 0; j < cases[i].nr; j++)
			add_entry(c, "s", cases[i].v[j]);
		assert_string_equal(gate_commit_verdict(c), cases[i].want);
		comparison_free(c);
	}
}

/* gate_opts.note for a_look_lists_...: keeps the last line. */
static void
keep_note(void *data, const char *line)
{
	char **last = data;

	free(*last);
	*last = xstrdup(line);
}

/*
 * What a look leaves in the key's table (cmd_gate prints it): the
 * regressions and, apart, the suspects with their q-value (docs/method.md, step
 * 8) -- a suspect is a pass, so the key's verdict stays pass; a pass that
 * is not a suspect is in neither list.  The comparison is written, and
 * the look's line for the log counts the suspects.
 */
static void
a_look_lists_regressions_and_suspects_apart(void **state)
{
	for (int regressed = 0; regressed < 2; regressed++) {
		struct gate_opts o = { 0 };
		struct gate_outcome out;
		struct gate_work work = { 0 };
		struct gate_ctx g = { 0 };
		struct comparison *c = comparison_new();
		struct gate_key *k;
		struct cmp_entry *e;
		char *dir = xasprintf("%s/gate-store-%d", unit_tmpdir(),
		    regressed);
		char *res = xasprintf("%s/results.json", dir);
		char *note = NULL;

		(void)state;
		assert_int_equal(file_mkdirs(dir, 0700), 0);
		gate_outcome_init(&out);
		o.note = keep_note;
		o.note_data = &note;
		g.o = &o;
		g.out = &out;
		g.work = &work;
		k = gate_key_find_or_add(&g, "pixel-7");
		strlist_add(&k->results, res);
		add_entry(c, "feed", regressed ? CMP_REGRESSION : CMP_PASS);
		e = &c->entries[0];
		e->scene = xstrdup("list");
		e->base.median = 10;
		e->cur.median = 14;
		e->unit = xstrdup("ms");
		add_entry(c, "feed", CMP_PASS);
		e = &c->entries[1];
		free(e->metric);
		e->metric = xstrdup("jank_pct");
		e->base.median = 2;
		e->cur.median = 3.5;
		e->unit = xstrdup("%");
		e->suspect = true;
		e->q_value = 0.031;
		add_entry(c, "login", CMP_PASS);
		comparison_add_scenario(c)->cur_valid = 5;
		gate_key_store(&g, 0, c, 2);
		assert_int_equal(k->looks, 2);
		assert_int_equal(k->verdict, regressed ? CMP_REGRESSION :
		    CMP_PASS);
		assert_int_equal(k->regressions.nr, regressed ? 1 : 0);
		if (regressed)
			assert_string_equal(k->regressions.items[0],
			    "feed/list frame_p90_ms: 10 -> 14 ms");
		assert_int_equal(k->suspects.nr, 1);
		assert_string_equal(k->suspects.items[0],
		    "feed jank_pct: 2 -> 3.5 % (q = 0.031)");
		assert_non_null(k->comparison);
		assert_true(file_exists(k->comparison) > 0);
		/* The look's line on stderr counts the suspects too. */
		assert_non_null(note);
		assert_non_null(strstr(note, regressed ? ": regression (1 "
		    "suspect listed)" : ": pass (1 suspect listed)"));
		free(note);
		comparison_free(work.cmp);
		gate_outcome_release(&out);
		free(res);
		free(dir);
	}
}

/* mail.when: always mails, regression only on one, never not at all. */
static void
mail_policy_follows_mail_when(void **state)
{
	(void)state;
	assert_true(gate_wants_mail(MAIL_ALWAYS, false));
	assert_true(gate_wants_mail(MAIL_ALWAYS, true));
	assert_false(gate_wants_mail(MAIL_REGRESSION, false));
	assert_true(gate_wants_mail(MAIL_REGRESSION, true));
	assert_false(gate_wants_mail(MAIL_NEVER, true));
}

/*
 * baseline.update: on-pass records a pass (which covers improvements and
 * first runs) unless another key of the gate regressed, always records
 * any verdict, never nothing; an incomplete, failed or uncompared run is
 * never recorded, and each refusal says why.
 */
static void
record_policy_follows_update(void **state)
{
	struct gate_key k;

	(void)state;
	memset(&k, 0, sizeof(k));
	k.compared = k.complete = true;
	k.verdict = CMP_PASS;
	assert_null(gate_record_refusal(UPDATE_ON_PASS, &k, false));
	assert_null(gate_record_refusal(UPDATE_ALWAYS, &k, false));
	assert_string_equal(gate_record_refusal(UPDATE_NEVER, &k, false),
	    "update policy never");
	assert_non_null(strstr(gate_record_refusal(UPDATE_ON_PASS, &k, true),
	    "another device key regressed"));
	assert_null(gate_record_refusal(UPDATE_ALWAYS, &k, true));
	k.verdict = CMP_REGRESSION;
	assert_non_null(strstr(gate_record_refusal(UPDATE_ON_PASS, &k, true),
	    "not a pass"));
	assert_null(gate_record_refusal(UPDATE_ALWAYS, &k, true));
	k.verdict = CMP_INCONCLUSIVE;
	assert_non_null(gate_record_refusal(UPDATE_ON_PASS, &k, false));
	k.verdict = CMP_PASS;
	k.complete = false;
	assert_string_equal(gate_record_refusal(UPDATE_ALWAYS, &k, false),
	    "the run did not complete");
	k.complete = true;
	k.run_status = 3;
	assert_string_equal(gate_record_refusal(UPDATE_ALWAYS, &k, false),
	    "the run failed on a device");
	k.run_status = 0;
	k.compared = false;
	assert_string_equal(gate_record_refusal(UPDATE_ALWAYS, &k, false),
	    "not compared");
}

/* A run of `serial` with `n` measured iterations per scenario, after one
 * warm-up, each iteration's error naming where it came from. */
static struct results *
make_run(const char *serial, const char *const *scenarios, int n,
    bool complete)
{
	struct results *r = results_new();

	rs_str_set(&r->device.serial, serial);
	rs_str_set(&r->device.key, "sim-phone-api34-60hz");
	r->run.complete = complete;
	for (; *scenarios; scenarios++) {
		struct rs_scenario *s = results_add_scenario(r, *scenarios);

		rs_str_set(&s->file, "x.scn");
		for (int i = 0; i <= n; i++) {
			struct rs_iteration *it = rs_scenario_add_iteration(s,
			    i == 0);

			it->error = xasprintf("%s %s %d", serial, *scenarios,
			    i);
		}
	}
	return r;
}

/*
 * Pooling moves every iteration of the other devices behind the first
 * device's, scenario by scenario, numbered on, adds scenarios the first
 * lacks, numbers B's sessions after A's, ANDs completeness, carries run
 * errors over and names the pooled serials; the donors keep no iterations (so each string has one owner,
 * which the sanitizer build checks when both models are freed).
 */
static void
pool_moves_iterations_to_the_first_device(void **state)
{
	static const char *const a_scn[] = { "feed", NULL };
	static const char *const b_scn[] = { "feed", "checkout", NULL };
	struct results *a = make_run("A", a_scn, 2, true);
	struct results *b = make_run("B", b_scn, 3, false);
	struct results *in[2] = { a, b };
	const struct rs_scenario *feed, *checkout;

	(void)state;
	strlist_add(&b->run.errors, "device 'B' lost");
	/* A's last iteration came from a second batch (session 1). */
	a->scenarios[0].iterations[2].session = 1;
	b->scenarios[1].iterations[1].session = 1;
	gate_pool(in, 2);
	feed = results_find_scenario(a, "feed");
	checkout = results_find_scenario(a, "checkout");
	assert_non_null(feed);
	assert_non_null(checkout);
	assert_int_equal(feed->nr_iterations, 3 + 4);
	for (size_t i = 0; i < feed->nr_iterations; i++)
		assert_int_equal(feed->iterations[i].index, (int)i);
	assert_string_equal(feed->iterations[2].error, "A feed 2");
	assert_string_equal(feed->iterations[3].error, "B feed 0");
	assert_true(feed->iterations[3].warmup);
	assert_string_equal(feed->iterations[6].error, "B feed 3");
	/* B's sessions come after A's: a device is a session of its own. */
	assert_int_equal(feed->iterations[1].session, 0);
	assert_int_equal(feed->iterations[2].session, 1);
	assert_int_equal(feed->iterations[3].session, 2);
	assert_int_equal(results_find_scenario(a, "checkout")->iterations[1].
	    session, 3);
	assert_int_equal(results_next_session(a), 4);
	assert_int_equal(checkout->nr_iterations, 4);
	assert_string_equal(checkout->file, "x.scn");
	assert_false(a->run.complete);
	assert_int_equal(a->run.errors.nr, 1);
	assert_int_equal(a->nr_warnings, 1);
	assert_string_equal(a->warnings[0].source, "gate");
	assert_non_null(strstr(a->warnings[0].message, "2 devices"));
	assert_non_null(strstr(a->warnings[0].message, "A, B"));
	for (size_t i = 0; i < b->nr_scenarios; i++)
		assert_int_equal(b->scenarios[i].nr_iterations, 0);
	results_free(a);
	results_free(b);
}

/* One device is nothing to pool: the run stays as it was. */
static void
pool_of_one_changes_nothing(void **state)
{
	static const char *const scn[] = { "feed", NULL };
	struct results *a = make_run("A", scn, 2, true);

	(void)state;
	gate_pool(&a, 1);
	assert_int_equal(a->scenarios[0].nr_iterations, 3);
	assert_int_equal(a->nr_warnings, 0);
	assert_true(a->run.complete);
	results_free(a);
}

/* A shard's baseline keeps only the scenarios the shard measured, in
 * their order; the others are freed (the sanitizer build sees no leak). */
static void
trim_keeps_the_measured_scenarios(void **state)
{
	static const char *const base_scn[] = { "login", "feed", "checkout",
	    "search", NULL };
	static const char *const cur_scn[] = { "checkout", "feed", NULL };
	struct results *base = make_run("A", base_scn, 1, true);
	struct results *cur = make_run("A", cur_scn, 1, true);

	(void)state;
	gate_trim_scenarios(base, cur);
	assert_int_equal(base->nr_scenarios, 2);
	assert_string_equal(base->scenarios[0].name, "feed");
	assert_string_equal(base->scenarios[1].name, "checkout");
	assert_string_equal(base->scenarios[1].iterations[1].error,
	    "A checkout 1");
	results_free(base);
	results_free(cur);
}

/* A configuration whose baseline.repo is a new bare repository. */
static struct config *
store_config(const char *name)
{
	struct baseline_store_opts so = { 0 };
	struct baseline_store *bs = NULL;
	struct config *cfg = NULL;
	static int seq;
	char *path = xasprintf("%s/%s-%d.git", unit_tmpdir(), name, ++seq);

	so.repo = path;
	so.create = 1;
	assert_int_equal(baseline_store_open(&bs, &so), 0);
	baseline_store_free(bs);
	assert_int_equal(config_defaults(&cfg, &source_plugins, NULL), 0);
	free(cfg->baseline.repo);
	cfg->baseline.repo = path;
	return cfg;
}

/*
 * The fixture run with its run id (and build id: NULL, none) changed,
 * written to a file of its own.
 */
static char *
write_run_of(const char *run_id, const char *build_id)
{
	struct results *r = NULL;
	char *src = xasprintf("%s/tests/unit/data/results/full.json",
	    unit_srcdir());
	char *path = xasprintf("%s/run-%s.json", unit_tmpdir(), run_id);

	assert_int_equal(results_read(&r, src), 0);
	rs_str_set(&r->run.id, run_id);
	rs_str_set(&r->app.build_id, build_id);
	assert_int_equal(results_write(r, path), 0);
	results_free(r);
	free(src);
	return path;
}

static char *
write_run(const char *run_id)
{
	return write_run_of(run_id, "4f2c9e1");
}

/*
 * The good end of a bisect is the newest baseline run whose night
 * passed (improvements, first runs and acceptances too), not the newest
 * run: a regression recorded by update policy always is no good build.
 */
static void
bisect_good_is_the_newest_passing_run(void **state)
{
	static const struct {
		const char *verdicts[4];	/* newest first */
		long want;
	} cases[] = {
		{ { "pass", "pass", NULL }, 0 },
		{ { "regression", "inconclusive", "pass", NULL }, 2 },
		{ { "regression", "improvement", NULL }, 1 },
		{ { "unchecked", "new", NULL }, 1 },
		{ { "regression", "accepted", "pass", NULL }, 1 },
		{ { "regression", NULL }, -1 },
		{ { NULL }, -1 },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct baseline_entry e[4];
		size_t nr = 0;

		memset(e, 0, sizeof(e));
		while (nr < 3 && cases[c].verdicts[nr]) {
			e[nr].verdict = (char *)cases[c].verdicts[nr];
			nr++;
		}
		assert_int_equal(gate_bisect_good(e, nr), cases[c].want);
		/* before them, a commit made by hand: no verdict at all */
		memmove(&e[1], &e[0], nr * sizeof(e[0]));
		e[0].verdict = NULL;
		assert_int_equal(gate_bisect_good(e, nr + 1), cases[c].want < 0 ?
		    -1 : cases[c].want + 1);
	}
}

/* Whether `s` starts with `prefix`. */
static bool
starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/*
 * --bisect says nothing when the night did not regress; after a
 * regression without tonight's build id, or in a shard, it says why it
 * does not bisect (the outcome's line and a warning) before touching the
 * store or a phone, and the exit status stays the night's.
 */
static void
bisect_says_why_it_does_not_run(void **state)
{
	struct gate_opts o;
	struct gate_outcome out;
	struct gate_ctx g = { 0 };
	struct gate_key *k;

	(void)state;
	gate_opts_init(&o, NULL);
	gate_outcome_init(&out);
	g.o = &o;
	g.out = &out;
	k = gate_key_find_or_add(&g, "acme-phone-api31-60hz");
	k->compared = true;
	k->verdict = CMP_PASS;
	o.build_id = NULL;
	gate_bisect(&g);	/* not asked for */
	assert_null(out.bisect);
	o.bisect = true;
	gate_bisect(&g);	/* nothing regressed */
	assert_null(out.bisect);
	assert_int_equal(out.warnings.nr, 0);
	k->verdict = CMP_REGRESSION;
	gate_bisect(&g);
	assert_true(starts(out.bisect, "not run: tonight's build id is "
	    "unknown"));
	assert_int_equal(out.warnings.nr, 1);
	assert_true(starts(out.warnings.items[0], "bisect: not run: "
	    "tonight's build id"));
	free(out.bisect);
	out.bisect = NULL;
	o.build_id = "build-04";
	o.shard_index = 1;
	o.shard_count = 2;
	gate_bisect(&g);
	assert_true(starts(out.bisect, "not run: a shard sees part of the "
	    "night"));
	assert_null(out.bisect_report);
	assert_int_equal(out.status, 0);
	gate_outcome_release(&out);
	gate_opts_release(&o);
}

/*
 * A run's build id goes into its baseline commit (Jankgate-Build), where
 * the log of its device key finds it for the newest passing run; a run
 * without one records no trailer and reads back as unknown.
 */
static void
store_keeps_each_runs_build_id(void **state)
{
	struct config *cfg = store_config("builds");
	struct baseline_store *bs = NULL;
	struct baseline_entry *e = NULL;
	char id[BASELINE_OID_HEXSZ + 1];
	char *one = write_run_of("b-1", "build-03"),
	    *two = write_run_of("b-2", "build-04"),
	    *three = write_run_of("b-3", "build-05"),
	    *old = write_run_of("b-0", NULL);
	size_t nr = 0;
	int attempts;
	long good;

	(void)state;
	assert_int_equal(baseline_open(&bs, &cfg->baseline, NULL), 0);
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main", old,
	    "new"), 0);
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main", one,
	    "pass"), 0);
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main", two,
	    "improvement"), 0);
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main", three,
	    "regression"), 0);
	assert_int_equal(baseline_store_log(&e, &nr, bs, "main",
	    "com.example.feed", "google-pixel-7-api34-90hz", 0), 0);
	assert_int_equal(nr, 4);
	assert_string_equal(e[0].build_id, "build-05");
	assert_null(e[3].build_id);
	good = gate_bisect_good(e, nr);
	assert_int_equal(good, 1);
	assert_string_equal(e[good].build_id, "build-04");
	baseline_entries_free(e, nr);
	baseline_store_free(bs);
	config_free(cfg);
	free(one);
	free(two);
	free(three);
	free(old);
}

/*
 * Recording stores the file's bytes with the gate's verdict, once per
 * run; the sample reads the runs back newest first, each named by the ref
 * and its commit, and an empty repository is a first run.
 */
static void
store_records_and_samples_newest_first(void **state)
{
	struct config *cfg = store_config("sample");
	struct baseline_store *bs = NULL;
	struct baseline_sample s;
	char id1[BASELINE_OID_HEXSZ + 1], id2[BASELINE_OID_HEXSZ + 1];
	char *one = write_run("night-1"), *two = write_run("night-2");
	int attempts;

	(void)state;
	assert_int_equal(baseline_open(&bs, &cfg->baseline, NULL), 0);
	assert_int_equal(baseline_sample_load(&s, bs, "main", "com.example.feed",
	    "google-pixel-7-api34-90hz", 5), 0);
	assert_int_equal(s.nr, 0);
	baseline_sample_release(&s);
	assert_int_equal(baseline_record_file(id1, &attempts, bs, "main", one,
	    "new"), 0);
	assert_int_equal(attempts, 1);
	assert_int_equal(baseline_record_file(id2, &attempts, bs, "main", two,
	    "pass"), 0);
	assert_string_not_equal(id1, id2);
	/* the same bytes again: nothing to commit */
	assert_int_equal(baseline_record_file(id2, &attempts, bs, "main", two,
	    "pass"), 0);
	assert_int_equal(attempts, 0);
	assert_int_equal(baseline_sample_load(&s, bs, "main", "com.example.feed",
	    "google-pixel-7-api34-90hz", 5), 0);
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.runs[0]->run.id, "night-2");
	assert_string_equal(s.runs[1]->run.id, "night-1");
	assert_true(!strncmp(s.names[0], "main@", 5));
	assert_int_equal(strlen(s.names[0]), 5 + 12);
	assert_true(!strncmp(s.names[0] + 5, id2, 12));
	baseline_sample_release(&s);
	/* baseline.history = 1: the newest run only */
	assert_int_equal(baseline_sample_load(&s, bs, "main", "com.example.feed",
	    "google-pixel-7-api34-90hz", 1), 0);
	assert_int_equal(s.nr, 1);
	baseline_sample_release(&s);
	baseline_store_free(bs);
	config_free(cfg);
	free(one);
	free(two);
}

/*
 * Issue 51: a key once compared holds neither its baseline window nor
 * its results (a night of fifty keys holds one key's runs at a time),
 * and keeps what later stages need of them: the newest window run's
 * version for confirming, tonight's display rate, its comparison.  A
 * second look reads both again and compares as the first did.
 */
static void
a_compared_key_lets_go_of_its_runs(void **state)
{
	struct config *cfg = store_config("release");
	struct gate_opts o;
	struct gate_outcome out;
	struct gate_ctx g = { 0 };
	struct gate_work *w;
	struct baseline_store *bs = NULL;
	struct run_device_report *d;
	char id[BASELINE_OID_HEXSZ + 1];
	char *one = write_run("night-1"), *two = write_run("night-2");
	char *tonight = write_run("night-3");
	int attempts;

	(void)state;
	assert_int_equal(baseline_open(&bs, &cfg->baseline, NULL), 0);
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main", one,
	    "pass"), 0);
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main", two,
	    "pass"), 0);
	gate_opts_init(&o, cfg);
	gate_outcome_init(&out);
	g.o = &o;
	g.cfg = cfg;
	g.out = &out;
	g.bs = bs;
	g.ref = "main";
	g.looks = 2;
	XALLOC_GROW(out.run.devices, 1, out.run.alloc_devices);
	d = &out.run.devices[out.run.nr_devices++];
	memset(d, 0, sizeof(*d));
	d->serial = xstrdup("emulator-5554");
	d->key = xstrdup("google-pixel-7-api34-90hz");
	d->results_path = xstrdup(tonight);
	strlist_init(&d->errors);
	strlist_init(&d->warnings);
	assert_int_equal(gate_keys_from_run(&g), 0);
	w = &g.work[0];
	for (int look = 1; look <= 2; look++) {
		assert_int_equal(gate_key_read(&g, 0), 0);
		assert_non_null(w->devs[0]);
		gate_key_compare(&g, 0, look);
		assert_int_equal(out.errors.nr, 0);
		assert_true(out.keys[0].compared);
		assert_int_equal(out.keys[0].looks, look);
		assert_non_null(w->cmp);
		assert_int_equal(w->cmp->nr_baselines, 2);
		assert_false(w->sampled);
		assert_null(w->devs[0]);
		assert_true(w->newest.any);
		assert_string_equal(w->newest.version_name, "2.7.0 \"beta\"");
		assert_true(w->newest.version_code == 20700);
		assert_true(w->refresh_hz == 90);
	}
	gate_keys_done(&g);
	assert_null(w->cmp);
	assert_non_null(w->commit_word);
	for (size_t i = 0; i < out.nr_keys; i++)
		gate_work_release(&g.work[i]);
	free(g.work);
	baseline_store_free(bs);
	gate_outcome_release(&out);
	gate_opts_release(&o);
	config_free(cfg);
	free(one);
	free(two);
	free(tonight);
}

/*
 * A run the store cannot file (no device key) is refused as bad input,
 * and so are a missing file and a repository nobody configured.
 */
static void
store_refuses_what_it_cannot_file(void **state)
{
	struct config *cfg = store_config("refuse");
	struct baseline_store *bs = NULL;
	struct results *r = NULL;
	char id[BASELINE_OID_HEXSZ + 1];
	char *path = write_run("keyless");
	int attempts;

	(void)state;
	assert_int_equal(results_read(&r, path), 0);
	rs_str_set(&r->device.key, NULL);
	assert_int_equal(results_write(r, path), 0);
	results_free(r);
	assert_int_equal(baseline_open(&bs, &cfg->baseline, NULL), 0);
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main", path,
	    "pass"), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "device.key"));
	assert_int_equal(baseline_record_file(id, &attempts, bs, "main",
	    "/nonexistent/results.json", "pass"), JG_ENOTFOUND);
	baseline_store_free(bs);
	free(cfg->baseline.repo);
	cfg->baseline.repo = NULL;
	assert_int_equal(baseline_open(&bs, &cfg->baseline, NULL), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "no baseline repository"));
	config_free(cfg);
	free(path);
}

/*
 * A cancel that comes after the comparison (while the report is written)
 * still stops the mail and the baseline: neither is tried (this mail
 * server would refuse, and the mail would say "SMTP failed"), both say
 * "interrupted", no stage failed, and the outcome is interrupted.
 */
static void
a_cancel_after_comparing_stops_mail_and_record(void **state)
{
	struct gate_opts o;
	struct gate_outcome out;
	struct gate_work work = { 0 };
	struct gate_ctx g = { 0 };
	struct config *cfg = NULL;
	struct gate_key *k;

	(void)state;
	assert_int_equal(config_defaults(&cfg, &source_plugins, NULL), 0);
	free(cfg->mail.server);
	cfg->mail.server = xstrdup("smtp://127.0.0.1:1");
	strlist_add(&cfg->mail.to, "team@example.com");
	gate_opts_init(&o, cfg);
	o.mail_when = MAIL_ALWAYS;
	o.update = UPDATE_ALWAYS;
	gate_outcome_init(&out);
	g.o = &o;
	g.cfg = cfg;
	g.out = &out;
	g.work = &work;
	k = gate_key_find_or_add(&g, "pixel-7");
	k->complete = true;
	out.report_dir = xstrdup(unit_tmpdir());
	cancel_request();
	gate_mail(&g);
	gate_record(&g);
	cancel_reset();
	assert_true(out.interrupted);
	assert_false(out.mailed);
	assert_string_equal(out.mail_note, "not sent: interrupted");
	assert_true(strlist_find(&k->notes,
	    "baseline not updated: interrupted") >= 0);
	assert_string_equal(k->commit, "");
	assert_int_equal(out.errors.nr, 0);
	gate_outcome_release(&out);
	gate_opts_release(&o);
	config_free(cfg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(looks_count_batches_up_to_the_max),
	cmocka_unit_test(batch_stops_at_the_max),
	cmocka_unit_test(undecided_names_each_open_scenario_once),
	cmocka_unit_test(commit_verdict_names_the_news),
	cmocka_unit_test(a_compared_key_lets_go_of_its_runs),
	cmocka_unit_test(a_look_lists_regressions_and_suspects_apart),
	cmocka_unit_test(mail_policy_follows_mail_when),
	cmocka_unit_test(record_policy_follows_update),
	cmocka_unit_test(pool_moves_iterations_to_the_first_device),
	cmocka_unit_test(pool_of_one_changes_nothing),
	cmocka_unit_test(trim_keeps_the_measured_scenarios),
	cmocka_unit_test(store_records_and_samples_newest_first),
	cmocka_unit_test(store_refuses_what_it_cannot_file),
	cmocka_unit_test(bisect_good_is_the_newest_passing_run),
	cmocka_unit_test(bisect_says_why_it_does_not_run),
	cmocka_unit_test(store_keeps_each_runs_build_id),
	cmocka_unit_test_teardown(
	    a_cancel_after_comparing_stops_mail_and_record, unit_cancel_forget),
};
JG_UNIT_GROUP(gate, tests, NULL, NULL)
