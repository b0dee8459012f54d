/*
 * test_bisect.c: `jankgate bisect` without a phone: the search
 * (bisect_state.c), its file, the lists of builds and the build command
 * (bisect_builds.c), the judge of a step (bisect_judge.c) and the range
 * of commits (commit_range.c).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "bisect.h"
#include "bisect_state.h"
#include "cancel.h"
#include "commit_range.h"
#include "comparison.h"
#include "error.h"
#include "fetch.h"
#include "fileio.h"
#include "results.h"
#include "strbuf.h"
#include "xalloc.h"

/* A state of n builds "b0".."b{n-1}", the first good. */
static struct bisect_state *
state_of(size_t n)
{
	struct bisect_state *st = bisect_state_new();

	for (size_t i = 0; i < n; i++) {
		char id[16];

		snprintf(id, sizeof(id), "b%zu", i);
		bisect_state_add(st, id, NULL);
	}
	st->commits[0].mark = BISECT_GOOD;
	return st;
}

/* A file `name` in the unit tests' temporary directory with `text`. */
static char *
tmp_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", unit_tmpdir(), name);

	assert_int_equal(file_write_atomic(path, text, strlen(text), 0644), 0);
	return path;
}

/* The first step tests the bad build against the good one. */
static void
next_checks_the_bad_build_first(void **state)
{
	struct bisect_state *st = state_of(16);
	size_t g, c;

	(void)state;
	assert_int_equal(bisect_next(st, &g, &c), BISECT_NEXT_STEP);
	assert_int_equal(g, 0);
	assert_int_equal(c, 15);
	bisect_state_free(st);
}

/* A bad build that is not worse ends the search: no culprit. */
static void
next_ends_without_culprit_when_the_bad_build_is_good(void **state)
{
	struct bisect_state *st = state_of(16);
	size_t g, c;

	(void)state;
	st->commits[15].mark = BISECT_GOOD;
	assert_int_equal(bisect_next(st, &g, &c), BISECT_NEXT_NONE);
	st->commits[15].mark = BISECT_SKIP;
	assert_int_equal(bisect_next(st, &g, &c), BISECT_NEXT_UNDECIDED);
	bisect_state_free(st);
}

/*
 * Whatever the culprit among 16 builds, the search names it, testing
 * the bad build and then at most ceil(log2 15) = 4 candidates.
 */
static void
next_names_every_culprit_in_log_steps(void **state)
{
	(void)state;
	for (size_t culprit = 1; culprit < 16; culprit++) {
		struct bisect_state *st = state_of(16);
		enum bisect_next r;
		size_t g, c, steps = 0;

		while ((r = bisect_next(st, &g, &c)) == BISECT_NEXT_STEP) {
			assert_true(g < c);
			assert_int_equal(st->commits[g].mark, BISECT_GOOD);
			st->commits[c].mark = c >= culprit ? BISECT_BAD :
			    BISECT_GOOD;
			steps++;
		}
		assert_int_equal(r, BISECT_NEXT_CULPRIT);
		assert_int_equal(c, culprit);
		assert_int_equal(g, culprit - 1);
		assert_true(steps <= 5);
		bisect_state_free(st);
	}
}

/* The midpoint's nearest untested build, the lower one on a tie. */
static void
next_goes_round_an_untestable_build(void **state)
{
	struct bisect_state *st = state_of(16);
	size_t g, c;

	(void)state;
	st->commits[15].mark = BISECT_BAD;
	assert_int_equal(bisect_next(st, &g, &c), BISECT_NEXT_STEP);
	assert_int_equal(c, 7);
	st->commits[7].mark = BISECT_SKIP;
	assert_int_equal(bisect_next(st, &g, &c), BISECT_NEXT_STEP);
	assert_int_equal(c, 6);
	bisect_state_free(st);
}

/* Only untestable builds left in the range: undecided, and where. */
static void
next_is_undecided_between_untestable_builds(void **state)
{
	struct bisect_state *st = state_of(4);
	size_t g, c;

	(void)state;
	st->commits[3].mark = BISECT_BAD;
	st->commits[1].mark = BISECT_SKIP;
	st->commits[2].mark = BISECT_SKIP;
	assert_int_equal(bisect_next(st, &g, &c), BISECT_NEXT_UNDECIDED);
	assert_int_equal(g, 0);
	assert_int_equal(c, 3);
	/* A good build after the skipped one narrows it to one: named. */
	st->commits[2].mark = BISECT_GOOD;
	assert_int_equal(bisect_next(st, &g, &c), BISECT_NEXT_CULPRIT);
	assert_int_equal(c, 3);
	bisect_state_free(st);
}

/* The state file reads back as it was written. */
static void
state_file_round_trips(void **state)
{
	struct bisect_state *st = state_of(3), *back = NULL;
	struct bisect_step *s;
	char *path = xasprintf("%s/bisect.json", unit_tmpdir());

	(void)state;
	st->source = xstrdup("manifest m");
	st->build_cmd = xstrdup("make {commit}");
	strlist_add(&st->targets, "shop/feed *");
	st->commits[1].apk = xstrdup("b1.apk");
	st->commits[1].subject = xstrdup("build 1: \"quoted\"");
	st->commits[1].author = xstrdup("Ada <ada@example.com>");
	st->commits[1].mark = BISECT_SKIP;
	st->commits[1].why = xstrdup("the build command exited with 1");
	st->commits[2].mark = BISECT_BAD;
	s = bisect_state_add_step(st, 0, 2);
	s->outcome = BISECT_BAD;
	s->dir = xstrdup("out/step-1");
	s->rounds = 2;
	strlist_add(&s->evidence, "feed frame_p50_ms: 10 -> 12 ms");
	strlist_add(&s->comparisons, "out/step-1/k/comparison.json");
	assert_int_equal(bisect_state_write(st, path), 0);
	assert_int_equal(bisect_state_read(&back, path), 0);
	assert_string_equal(back->source, "manifest m");
	assert_null(back->repo);
	assert_string_equal(back->build_cmd, "make {commit}");
	assert_int_equal(back->targets.nr, 1);
	assert_int_equal(back->nr, 3);
	assert_string_equal(back->commits[1].subject, "build 1: \"quoted\"");
	assert_int_equal(back->commits[1].mark, BISECT_SKIP);
	assert_string_equal(back->commits[1].why,
	    "the build command exited with 1");
	assert_int_equal(back->commits[2].mark, BISECT_BAD);
	assert_int_equal(back->nr_steps, 1);
	assert_int_equal(back->steps[0].candidate, 2);
	assert_int_equal(back->steps[0].outcome, BISECT_BAD);
	assert_int_equal(back->steps[0].rounds, 2);
	assert_string_equal(back->steps[0].evidence.items[0],
	    "feed frame_p50_ms: 10 -> 12 ms");
	bisect_state_free(st);
	bisect_state_free(back);
	free(path);
}

/* A state with a step outside the builds, or of another schema, fails. */
static void
state_file_refuses_what_it_did_not_write(void **state)
{
	struct bisect_state *st = NULL;
	char *a = tmp_file("bad-index.json", "{\"schema\": "
	    "\"jankgate.bisect/1\", \"commits\": [{\"id\": \"a\", \"mark\": "
	    "\"good\"}, {\"id\": \"b\", \"mark\": \"untested\"}], \"steps\": "
	    "[{\"good\": 0, \"candidate\": 2, \"outcome\": \"bad\"}]}");
	char *b = tmp_file("bad-schema.json", "{\"schema\": "
	    "\"jankgate.bisect/2\", \"commits\": []}");

	(void)state;
	assert_int_equal(bisect_state_read(&st, a), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "steps[0]"));
	assert_null(st);
	assert_int_equal(bisect_state_read(&st, b), JG_EINVAL);
	jg_error_clear();
	free(a);
	free(b);
}

/* A manifest: comments, paths beside it, cut from --good to --bad. */
static void
manifest_lists_builds_in_order(void **state)
{
	struct bisect_state *st = bisect_state_new();
	char *m = tmp_file("builds.manifest", "# build APK\n"
	    "a1 a1.apk\n\n  b2\tsub/b2.apk  \nc3 /abs/c3.apk\nd4 d4.apk\n");
	char *want = xasprintf("%s/sub/b2.apk", unit_tmpdir());

	(void)state;
	assert_int_equal(bisect_list_manifest(st, m, "b2", "c3"), 0);
	assert_int_equal(st->nr, 2);
	assert_string_equal(st->commits[0].id, "b2");
	assert_string_equal(st->commits[0].apk, want);
	assert_string_equal(st->commits[1].apk, "/abs/c3.apk");
	bisect_state_free(st);
	free(m);
	free(want);
}

/* What a manifest must not be, each with its line or its reason. */
static void
manifest_errors_name_the_line(void **state)
{
	static const struct {
		const char *text, *good, *bad, *says;
	} cases[] = {
		{ "a a.apk\nb b.apk extra\n", NULL, NULL, ":2: expected" },
		{ "a a.apk\na a2.apk\n", NULL, NULL, ":2: 'a' is listed twice" },
		{ "a a.apk\n", NULL, NULL, "at least two" },
		{ "a a.apk\nb b.apk\n", "b", "a", "before the good one" },
		{ "a a.apk\nb b.apk\n", "z", NULL, "no build 'z'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bisect_state *st = bisect_state_new();
		char *m = tmp_file("bad.manifest", cases[i].text);

		assert_int_equal(bisect_list_manifest(st, m, cases[i].good,
		    cases[i].bad), JG_EINVAL);
		if (!strstr(jg_error_msg(), cases[i].says))
			fail_msg("case %zu: '%s' lacks '%s'", i, jg_error_msg(),
			    cases[i].says);
		jg_error_clear();
		bisect_state_free(st);
		free(m);
	}
}

/* A directory's APKs in version order: app-9 before app-10. */
static void
directory_lists_apks_in_version_order(void **state)
{
	struct bisect_state *st = bisect_state_new();
	char *dir = xasprintf("%s/apks", unit_tmpdir());
	const char *names[] = { "app-10.apk", "app-9.apk", "notes.txt",
		"app-1.apk" };

	(void)state;
	assert_int_equal(file_mkdirs(dir, 0755), 0);
	for (size_t i = 0; i < 4; i++) {
		char *p = xasprintf("apks/%s", names[i]);

		free(tmp_file(p, "x"));
		free(p);
	}
	assert_int_equal(bisect_list_dir(st, dir, NULL, NULL), 0);
	assert_int_equal(st->nr, 3);
	assert_string_equal(st->commits[0].id, "app-1");
	assert_string_equal(st->commits[1].id, "app-9");
	assert_string_equal(st->commits[2].id, "app-10");
	bisect_state_free(st);
	free(dir);
}

/*
 * The build command runs in the repository with the commit as $1; its
 * last line is the APK, relative to where it ran.
 */
static void
build_command_prints_the_apk(void **state)
{
	struct bisect_state *st = state_of(2);
	char *apk = tmp_file("built-b1.apk", "x");

	(void)state;
	st->repo = xstrdup(unit_tmpdir());
	st->build_cmd = xstrdup("echo building {commit} >&2; echo noise; "
	    "echo built-{commit}.apk");
	assert_int_equal(bisect_build(st, 1, NULL), 0);
	assert_string_equal(st->commits[1].apk, apk);
	bisect_state_free(st);
	free(apk);
}

/* A failed build is run twice, then its reason is kept. */
static void
build_command_failure_is_retried_once(void **state)
{
	struct bisect_state *st = state_of(2);
	char *count = xasprintf("%s/attempts", unit_tmpdir());
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	unlink(count);
	st->repo = xstrdup(unit_tmpdir());
	st->build_cmd = xstrdup("echo x >> attempts; echo 'no {commit}' >&2; "
	    "exit 3");
	assert_int_equal(bisect_build(st, 1, NULL), 1);
	assert_int_equal(file_read(&sb, count), 0);
	assert_string_equal(sb.buf, "x\nx\n");
	assert_string_equal(st->commits[1].why, "the build command exited "
	    "with 3: no b1 (twice)");
	assert_null(st->commits[1].apk);
	strbuf_release(&sb);
	bisect_state_free(st);
	free(count);
}

/*
 * A build stopped by a cancel (SIGINT) says nothing of the commit: it is
 * not retried, and no reason is kept that would make it untestable.
 */
static void
build_command_cancelled_blames_no_commit(void **state)
{
	struct bisect_state *st = state_of(2);
	char *count = xasprintf("%s/attempts", unit_tmpdir());
	struct strbuf sb = STRBUF_INIT;
	pthread_t t;

	(void)state;
	unlink(count);
	st->repo = xstrdup(unit_tmpdir());
	st->build_cmd = xstrdup("echo x >> attempts; sleep 30");
	pthread_create(&t, NULL, unit_cancel_soon, NULL);
	assert_int_equal(bisect_build(st, 1, NULL), JG_EINTR);
	pthread_join(t, NULL);
	cancel_reset();
	assert_int_equal(file_read(&sb, count), 0);
	assert_string_equal(sb.buf, "x\n");
	assert_null(st->commits[1].why);
	assert_null(st->commits[1].apk);
	strbuf_release(&sb);
	bisect_state_free(st);
	free(count);
}

/* An entry of `c` for (shop, scene, metric) with `v`. */
static void
add_entry(struct comparison *c, const char *scene, const char *metric,
    enum cmp_verdict v)
{
	struct cmp_entry *e = comparison_add_entry(c);

	e->device = xstrdup("key");
	e->scenario = xstrdup("shop");
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(metric);
	e->unit = xstrdup("ms");
	e->verdict = v;
}

/* A step is judged on its targets alone. */
static void
judge_looks_at_the_targets_only(void **state)
{
	struct comparison *c = comparison_new();
	const struct comparison *cs[] = { c };
	struct strlist t = STRLIST_INIT, ev = STRLIST_INIT;

	(void)state;
	add_entry(c, "feed", "frame_p50_ms", CMP_PASS);
	add_entry(c, "checkout", "jank_pct", CMP_REGRESSION);
	add_entry(c, NULL, "startup_ms", CMP_INCONCLUSIVE);
	strlist_add(&t, "shop/feed frame_p50_ms");
	/* The checkout's regression and the launch are not asked about. */
	assert_int_equal(bisect_judge(cs, 1, &t, &ev), BISECT_GOOD);
	assert_int_equal(ev.nr, 0);
	strlist_add(&t, "shop/- startup_ms");
	assert_int_equal(bisect_judge(cs, 1, &t, &ev), BISECT_UNTESTED);
	assert_int_equal(ev.nr, 1);
	assert_non_null(strstr(ev.items[0], "shop/- startup_ms"));
	strlist_add(&t, "shop/checkout *");
	strlist_release(&ev);
	assert_int_equal(bisect_judge(cs, 1, &t, &ev), BISECT_BAD);
	assert_int_equal(ev.nr, 1);
	assert_non_null(strstr(ev.items[0], "checkout jank_pct"));
	/* No targets: everything counts. */
	assert_int_equal(bisect_judge(cs, 1, NULL, NULL), BISECT_BAD);
	strlist_release(&ev);
	strlist_release(&t);
	comparison_free(c);
}

/*
 * A new block that regressed convicts a "block" target; one that did
 * not is evidence beside a regression, never a verdict.
 */
static void
judge_counts_blocks_of_the_scene(void **state)
{
	struct comparison *c = comparison_new();
	const struct comparison *cs[] = { c };
	struct strlist t = STRLIST_INIT, ev = STRLIST_INIT;
	struct cmp_block *b = comparison_add_block(c);

	(void)state;
	b->device = xstrdup("key");
	b->scenario = xstrdup("shop");
	b->scene = xstrdup("checkout");
	b->signature = xstrdup("abc123");
	b->status = CMP_BLOCK_NEW;
	b->verdict = CMP_PASS;
	add_entry(c, "checkout", "jank_pct", CMP_PASS);
	add_entry(c, "feed", "fps", CMP_REGRESSION);
	strlist_add(&t, "shop/checkout block");
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_GOOD);
	b->verdict = CMP_REGRESSION;
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_BAD);
	b->verdict = CMP_PASS;
	strlist_add(&t, "shop/feed *");
	assert_int_equal(bisect_judge(cs, 1, &t, &ev), BISECT_BAD);
	assert_int_equal(ev.nr, 2);
	assert_non_null(strstr(ev.items[1], "block abc123"));
	assert_non_null(strstr(ev.items[1], "new"));
	strlist_release(&ev);
	strlist_release(&t);
	comparison_free(c);
}

/*
 * A pass that leans worse (its estimate worse by its threshold, p at
 * most 0.1, not significant yet) is no "good" for a bisect: another
 * round.
 */
static void
judge_keeps_a_pass_that_leans_worse_open(void **state)
{
	struct comparison *c = comparison_new();
	const struct comparison *cs[] = { c };
	struct strlist t = STRLIST_INIT, more = STRLIST_INIT;
	struct cmp_entry *e;

	(void)state;
	add_entry(c, "feed", "jank_pct", CMP_PASS);
	e = &c->entries[0];
	e->shift = 6.3;
	e->threshold = 2.7;
	e->p_value = 0.5;
	strlist_add(&t, "shop/feed *");
	/* Worse by T on noise alone (p 0.5) leans nowhere: good. */
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_GOOD);
	e->p_value = 0.01;
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_UNTESTED);
	bisect_undecided(&more, c, &t);
	assert_int_equal(more.nr, 1);
	assert_string_equal(more.items[0], "shop");
	e->shift = 1.0;
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_GOOD);
	/* fps: worse is lower */
	e->higher_is_better = true;
	e->shift = -3.1;
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_UNTESTED);
	e->shift = 3.1;
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_GOOD);
	e->suspect = true;
	assert_int_equal(bisect_judge(cs, 1, &t, NULL), BISECT_UNTESTED);
	strlist_release(&more);
	strlist_release(&t);
	comparison_free(c);
}

/*
 * A step compares its targets' scenes alone: the others are cut from
 * both sides (the launch stays with its iteration).
 */
static void
step_keeps_the_targeted_scenes(void **state)
{
	struct results *r = results_new();
	struct rs_scenario *sc = results_add_scenario(r, "shop");
	struct rs_iteration *it = rs_scenario_add_iteration(sc, 0);
	struct strlist t = STRLIST_INIT;
	const char *names[] = { "feed", "checkout", "home" };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		it->scenes = xreallocarray(it->scenes, it->nr_scenes + 1,
		    sizeof(*it->scenes));
		memset(&it->scenes[it->nr_scenes], 0, sizeof(*it->scenes));
		it->scenes[it->nr_scenes++].name = xstrdup(names[i]);
	}
	it->startup.total_ms = 412;
	strlist_add(&t, "shop/checkout block");
	strlist_add(&t, "shop/home fps");
	assert_false(bisect_targeted("shop", "feed", &t));
	assert_false(bisect_targeted("shop", NULL, &t));
	assert_true(bisect_targeted("shop", "home", &t));
	assert_false(bisect_targeted("shopping", "home", &t));
	results_keep_scenes(r, bisect_targeted, &t);
	assert_int_equal(it->nr_scenes, 2);
	assert_string_equal(it->scenes[0].name, "checkout");
	assert_string_equal(it->scenes[1].name, "home");
	assert_true(it->startup.total_ms == 412);
	/* No targets: every scene. */
	strlist_release(&t);
	assert_true(bisect_targeted("shop", "feed", &t));
	results_free(r);
}

/* A step that measured none of its targets decides nothing. */
static void
judge_without_the_targets_is_undecided(void **state)
{
	struct comparison *c = comparison_new();
	const struct comparison *cs[] = { c };
	struct strlist t = STRLIST_INIT, ev = STRLIST_INIT;

	(void)state;
	add_entry(c, "feed", "fps", CMP_PASS);
	strlist_add(&t, "shop/checkout *");
	assert_int_equal(bisect_judge(cs, 1, &t, &ev), BISECT_UNTESTED);
	assert_string_equal(ev.items[0], "the A/B measured none of the "
	    "targets");
	strlist_release(&ev);
	strlist_release(&t);
	comparison_free(c);
}

/* --from: a night's regressions and regressed blocks become targets. */
static void
targets_come_from_a_failed_comparison(void **state)
{
	struct comparison *c = comparison_new();
	struct strlist t = STRLIST_INIT;
	char *path = xasprintf("%s/night.json", unit_tmpdir());
	struct cmp_block *b;

	(void)state;
	c->device = xstrdup("key");
	c->package = xstrdup("com.example.shop");
	add_entry(c, "feed", "frame_p50_ms", CMP_REGRESSION);
	add_entry(c, "feed", "fps", CMP_PASS);
	add_entry(c, NULL, "startup_ms", CMP_REGRESSION);
	b = comparison_add_block(c);
	b->device = xstrdup("key");
	b->scenario = xstrdup("shop");
	b->scene = xstrdup("checkout");
	b->signature = xstrdup("abc");
	b->status = CMP_BLOCK_NEW;
	b->verdict = CMP_REGRESSION;
	assert_int_equal(comparison_write(c, path), 0);
	assert_int_equal(bisect_targets_from(&t, path), 0);
	assert_int_equal(t.nr, 3);
	assert_string_equal(t.items[0], "shop/feed frame_p50_ms");
	assert_string_equal(t.items[1], "shop/- startup_ms");
	assert_string_equal(t.items[2], "shop/checkout block");
	comparison_free(c);
	/* A night that passed has nothing to bisect. */
	c = comparison_new();
	c->device = xstrdup("key");
	c->package = xstrdup("com.example.shop");
	add_entry(c, "feed", "fps", CMP_PASS);
	assert_int_equal(comparison_write(c, path), 0);
	strlist_release(&t);
	assert_int_equal(bisect_targets_from(&t, path), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "no regression"));
	jg_error_clear();
	comparison_free(c);
	strlist_release(&t);
	free(path);
}

/* A range is GOOD..BAD of an existing repository. */
static void
range_must_be_good_dot_dot_bad(void **state)
{
	struct range_commit *c = NULL;
	size_t nr = 0;
	char *none = xasprintf("%s/no-repo", unit_tmpdir());

	(void)state;
	assert_int_equal(range_commits_read(&c, &nr, ".", "main"),
	    JG_EINVAL);
	assert_int_equal(range_commits_read(&c, &nr, ".", "..main"),
	    JG_EINVAL);
	assert_int_equal(range_commits_read(&c, &nr, ".", "a...b"),
	    JG_EINVAL);
	assert_int_equal(range_commits_read(&c, &nr, none, "a..b"),
	    JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "no-repo"));
	jg_error_clear();
	assert_null(c);
	free(none);
}

/* Only http://, https:// and file:// (any case) make an APK a URL. */
static void
url_is_told_from_a_path(void **state)
{
	static const struct {
		const char *s;
		int url;
	} cases[] = {
		{ "http://h/a.apk", 1 }, { "https://h/a.apk", 1 },
		{ "file:///a.apk", 1 }, { "HTTPS://h/a.apk", 1 },
		{ "builds/a.apk", 0 }, { "/abs/a.apk", 0 },
		{ "http:/a.apk", 0 }, { "ftp://h/a.apk", 0 },
		{ "http-builds/a.apk", 0 }, { "", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		assert_int_equal(fetch_is_url(cases[i].s), cases[i].url);
	assert_int_equal(fetch_is_url(NULL), 0);
}

/*
 * A build listed by URL is downloaded into DIR/builds/ID.apk when asked
 * for, and that file is then the build's APK.
 */
static void
url_build_is_downloaded_into_the_builds_dir(void **state)
{
	struct bisect_state *st = state_of(2);
	char *src = tmp_file("served.apk", "apk bytes");
	char *dir = xasprintf("%s/urlout", unit_tmpdir());
	char *want = xasprintf("%s/builds/b1.apk", dir);
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	file_remove_tree(dir);
	free(st->commits[1].apk);
	st->commits[1].apk = xasprintf("file://%s", src);
	assert_int_equal(bisect_build(st, 1, dir), 0);
	assert_string_equal(st->commits[1].apk, want);
	assert_int_equal(file_read(&sb, want), 0);
	assert_string_equal(sb.buf, "apk bytes");
	/* Only the complete file is left, no temporary. */
	strbuf_release(&sb);
	strbuf_addf(&sb, "%s.part", want);
	assert_int_not_equal(access(sb.buf, F_OK), 0);
	strbuf_release(&sb);
	bisect_state_free(st);
	file_remove_tree(dir);
	free(src);
	free(dir);
	free(want);
}

/*
 * A download found complete from an earlier run is used again (as on
 * --resume); a URL that cannot be fetched leaves the build untestable
 * with the reason, and no file behind.
 */
static void
url_build_reuses_a_download_and_fails_untestable(void **state)
{
	struct bisect_state *st = state_of(3);
	char *dir = xasprintf("%s/urlout2", unit_tmpdir());
	char *kept = xasprintf("%s/builds/b1.apk", dir);
	char *lost = xasprintf("%s/builds/b2.apk", dir);

	(void)state;
	file_remove_tree(dir);
	free(kept);
	kept = xasprintf("%s/builds", dir);
	assert_int_equal(file_mkdirs(kept, 0755), 0);
	free(kept);
	kept = tmp_file("urlout2/builds/b1.apk", "old");
	free(st->commits[1].apk);
	st->commits[1].apk = xstrdup("file:///nonexistent/gone-b1.apk");
	assert_int_equal(bisect_build(st, 1, dir), 0);
	assert_string_equal(st->commits[1].apk, kept);
	free(st->commits[2].apk);
	st->commits[2].apk = xstrdup("file:///nonexistent/gone-b2.apk");
	assert_int_equal(bisect_build(st, 2, dir), 1);
	assert_non_null(strstr(st->commits[2].why, "gone-b2.apk"));
	assert_non_null(strstr(st->commits[2].why, "(twice)"));
	assert_string_equal(st->commits[2].apk,
	    "file:///nonexistent/gone-b2.apk");
	assert_int_not_equal(access(lost, F_OK), 0);
	bisect_state_free(st);
	file_remove_tree(dir);
	free(dir);
	free(kept);
	free(lost);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(next_checks_the_bad_build_first),
	cmocka_unit_test(next_ends_without_culprit_when_the_bad_build_is_good),
	cmocka_unit_test(next_names_every_culprit_in_log_steps),
	cmocka_unit_test(next_goes_round_an_untestable_build),
	cmocka_unit_test(next_is_undecided_between_untestable_builds),
	cmocka_unit_test(state_file_round_trips),
	cmocka_unit_test(state_file_refuses_what_it_did_not_write),
	cmocka_unit_test(manifest_lists_builds_in_order),
	cmocka_unit_test(manifest_errors_name_the_line),
	cmocka_unit_test(directory_lists_apks_in_version_order),
	cmocka_unit_test(build_command_prints_the_apk),
	cmocka_unit_test(build_command_failure_is_retried_once),
	cmocka_unit_test(url_is_told_from_a_path),
	cmocka_unit_test(url_build_is_downloaded_into_the_builds_dir),
	cmocka_unit_test(url_build_reuses_a_download_and_fails_untestable),
	cmocka_unit_test_teardown(build_command_cancelled_blames_no_commit,
	    unit_cancel_forget),
	cmocka_unit_test(judge_looks_at_the_targets_only),
	cmocka_unit_test(judge_counts_blocks_of_the_scene),
	cmocka_unit_test(judge_without_the_targets_is_undecided),
	cmocka_unit_test(judge_keeps_a_pass_that_leans_worse_open),
	cmocka_unit_test(step_keeps_the_targeted_scenes),
	cmocka_unit_test(targets_come_from_a_failed_comparison),
	cmocka_unit_test(range_must_be_good_dot_dot_bad),
};

JG_UNIT_GROUP(bisect, tests, NULL, NULL)
