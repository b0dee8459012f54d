/*
 * gate_ab.c: two builds interleaved on the same phones (`jankgate ab`,
 * `gate --ab OLD.apk`), the pre-release question "is the new build worse
 * than the old one?".
 *
 * A comparison with stored baselines can never be more precise than the
 * phone is from one session to the next.  Running the old build (A) and
 * the new one (B) alternately on the same phone in the same session
 * cancels that: whatever the session does, it does to both.  On every
 * selected device, in rounds of four blocks in ABBA order, so that a trend
 * inside the session cancels (A's blocks and B's sit at the same mean
 * time), each block
 *
 *	installs its build: with -d, which the package manager allows over a
 *	    debuggable build, else (going back to an older, non-debuggable
 *	    build) after uninstalling the other one; both builds have the
 *	    same package, so the switch is an install;
 *	clears the app's data, so neither build inherits the other's;
 *	runs the scenarios' warm-ups and iterations as `run` does, outside
 *	    of which all of this happens;
 *	appends to OUT/<key>/a/results.json or OUT/<key>/b/results.json,
 *	    both valid inputs to compare, report and baseline record.
 *
 * Each block is a session of its file, so compare's session model takes
 * the block as the session: the spread between blocks, estimated from
 * A's blocks, widens the test, and a trend inside the session, which ABBA
 * balances, only makes that spread wider.  After each round each key
 * compares B (current) with A (baseline), pooled over its devices, at look
 * r of the rounds and at the key's share of the night's alpha: the same
 * verdicts, thresholds, family, report, mail and exit status as `gate`.
 * While a key is undecided, another round of its undecided scenarios, up
 * to ab_rounds.
 *
 * The first block's install, preflight and warm-ups are timed against its
 * iterations; the blocks after it get as many iterations as keep that
 * overhead within GATE_AB_INSTALL_SHARE of a block (no fewer than
 * `iterations`, no more than `max_iterations`), and the share the blocks
 * really took is told.  Nothing is recorded as a baseline: a run
 * interleaved with another build is no nightly baseline.  A failed
 * install of either build is that device's infrastructure failure, both
 * results files kept; an interrupt keeps what was measured.
 */
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apk.h"
#include "apkset.h"
#include "compare.h"
#include "config.h"
#include "error.h"
#include "exitstatus.h"
#include "gate.h"
#include "gate_int.h"
#include "monoclock.h"
#include "results.h"
#include "run.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* One of the two builds. */
struct build {
	const char *label;	/* "A", "B" */
	const char *sub;	/* results in OUT/<key>/<sub>/ */
	struct strlist apk;
	double version_code;	/* NAN: unknown */
	int blocks;		/* run so far */
};

/* The time the blocks took, and their iterations, on the first device. */
struct ab_time {
	double wall_ms, iter_ms;
};


static void
build_init(struct build *b, const char *label, const char *sub,
    const struct strlist *apk)
{
	struct apk_manifest m;

	apk_manifest_init(&m);
	memset(b, 0, sizeof(*b));
	b->label = label;
	b->sub = sub;
	strlist_init(&b->apk);
	strlist_copy(&b->apk, apk);
	b->version_code = NAN;
	if (apk->nr && !apk_read_manifest(apk->items[0], &m))
		b->version_code = (double)m.version_code;
	apk_manifest_release(&m);
	jg_error_clear();
}

/*
 * Exit 2 naming `what` unless b's files open as APKs of the configured
 * app (a bundle only opened: run builds its APK).
 */
static int
check_build(struct gate_ctx *g, const struct build *b, const char *what)
{
	struct apkset set;
	int rc = apkset_open(&set, &b->apk, g->cfg->app, NULL);

	apkset_release(&set);
	if (rc)
		gate_fail(g, EXIT_BAD_INPUT, "ab", "%s: %s", what,
		    jg_error_msg());
	jg_error_clear();
	return rc;
}

/* The time of the iterations of session `sess` in a results file. */
static double
session_ms(const char *path, int sess)
{
	struct results *r = NULL;
	double ms = 0;

	if (results_read(&r, path)) {
		jg_error_clear();
		return 0;
	}
	for (size_t s = 0; s < r->nr_scenarios; s++)
		for (size_t i = 0; i < r->scenarios[s].nr_iterations; i++) {
			const struct rs_iteration *it =
			    &r->scenarios[s].iterations[i];

			if (it->session == sess && !it->warmup &&
			    isfinite(it->duration_ms))
				ms += it->duration_ms;
		}
	results_free(r);
	return ms;
}

/* OUT/<key>/a/results.json -> OUT/<key> */
static char *
key_dir(const char *a_path)
{
	char *dir = xstrdup(a_path), *up = xstrdup(dirname(dir));
	char *out = xstrdup(dirname(up));

	free(dir);
	free(up);
	return out;
}

/* OUT/<key>/a/results.json -> OUT/<key>/<sub>/results.json */
static char *
path_of(const char *a_path, const char *sub)
{
	char *dir = key_dir(a_path);
	char *out = xasprintf("%s/%s/results.json", dir, sub);

	free(dir);
	return out;
}

/* Run one block of `b`: n iterations of `scenarios` on `serials`. */
static void
run_block(struct gate_ctx *g, struct build *b, int n,
    const struct strlist *serials, const struct strlist *scenarios,
    struct run_report *rr)
{
	struct run_opts ro;

	gate_run_opts(g, &ro);
	strlist_copy(&ro.serials, serials);
	strlist_copy(&ro.connect, &g->o->connect);
	strlist_copy(&ro.scenarios, scenarios);
	ro.apk = &b->apk;
	ro.install = INSTALL_DOWNGRADE;
	ro.downgrade_fallback = true;
	ro.clear_data = true;
	ro.results_sub = b->sub;
	ro.append = b->blocks > 0;
	ro.iterations = n;
	gate_note(g, "ab: block %d, build %s, %d iteration%s", g->out->ab_blocks
	    + 1, b->label, n, n == 1 ? "" : "s");
	run_report_init(rr);
	run_execute(&ro, rr);
	/* The first block's devices are accounted once their keys exist. */
	if (g->out->ab_blocks)
		gate_run_account(g, rr);
	run_opts_release(&ro);
	b->blocks++;
	g->out->ab_blocks++;
}

/*
 * After the first block (build A): one key per device key, the A files
 * kept in the work, the B files (not there yet) as the key's results.
 */
static int
keys_from_first_block(struct gate_ctx *g, const struct run_report *rr)
{
	struct gate_outcome *out = g->out;

	for (size_t i = 0; i < rr->nr_devices; i++) {
		const struct run_device_report *d = &rr->devices[i];
		struct gate_key *k;

		if (!d->key || !d->results_path)
			continue;
		k = gate_key_find_or_add(g, d->key);
		strlist_add(&k->serials, d->serial);
		strlist_add(&k->results, d->results_path);
	}
	g->work = xcalloc(out->nr_keys + 1, sizeof(*g->work));
	for (size_t i = 0; i < out->nr_keys; i++) {
		struct gate_key *k = &out->keys[i];
		struct gate_work *w = &g->work[i];
		char *dir;

		w->nr_devs = k->serials.nr;
		w->devs = xcalloc(w->nr_devs, sizeof(*w->devs));
		w->alive = xcalloc(w->nr_devs, sizeof(*w->alive));
		strlist_init(&w->ab_a);
		for (size_t d = 0; d < w->nr_devs; d++) {
			w->alive[d] = true;
			strlist_add(&w->ab_a, k->results.items[d]);
			free(k->results.items[d]);
			k->results.items[d] = path_of(w->ab_a.items[d], "b");
		}
		k->current = xstrdup(k->results.items[0]);
		dir = key_dir(w->ab_a.items[0]);
		k->comparison = xasprintf("%s/comparison.json", dir);
		free(dir);
	}
	/* Now that the keys exist, a device that failed is known dead. */
	gate_run_account(g, rr);
	if (!out->nr_keys && !out->status)
		gate_fail(g, EXIT_INFRA, "run", "no device measured anything");
	return out->nr_keys ? 0 : -1;
}

/*
 * The block size after the first block: its preflight, install and
 * warm-ups (wall time less the iterations') within the install share.
 */
static int
block_size(struct gate_ctx *g, double wall, double iter_ms, int n)
{
	const struct config *cfg = g->cfg;
	double over = wall - iter_ms, per = n > 0 ? iter_ms / n : 0;
	double s = GATE_AB_INSTALL_SHARE;
	int cap = cfg->max_iterations > cfg->iterations ?
	    cfg->max_iterations : cfg->iterations, b;

	if (!(per > 0) || over <= 0)
		return cfg->iterations;
	b = (int)ceil(over * (1 - s) / s / per);
	return b < cfg->iterations ? cfg->iterations : b > cap ? cap : b;
}

/* Compare key `i`'s B (current) with its A (baseline) at look `look`. */
static void
compare_key(struct gate_ctx *g, size_t i, int look, bool last)
{
	struct gate_key *k = &g->out->keys[i];
	struct gate_work *w = &g->work[i];
	struct compare_input cur, base;
	struct results *a = NULL;
	struct comparison *cmp = NULL;
	struct compare_opts co;
	char *a_path = NULL;
	int rc;

	if (w->stopped || gate_key_read(g, i))
		return;
	rc = w->ab_a.nr > 1 ? gate_pool_files(&a, &a_path, &w->ab_a) :
	    results_read(&a, w->ab_a.items[0]);
	if (rc) {
		gate_fail(g, EXIT_INFRA, "compare", "%s: %s", k->key,
		    jg_error_msg());
		w->stopped = true;
		goto out;
	}
	cur.results = w->pooled ? w->pooled : w->devs[0];
	cur.name = k->current;
	if (g->ab_keep) {
		results_keep_scenes(a, g->ab_keep, g->ab_keep_data);
		results_keep_scenes(w->pooled ? w->pooled : w->devs[0],
		    g->ab_keep, g->ab_keep_data);
	}
	base.results = a;
	base.name = a_path ? a_path : w->ab_a.items[0];
	compare_opts_init(&co, &g->cfg->compare);
	co.share = g->share_of ? g->share_of(g, k->key) :
	    gate_share(cur.results->nr_scenarios, g->out->nr_keys,
	    g->cfg->scenarios.nr);
	co.look = look;
	co.looks = g->looks;
	co.last = last;
	co.interleaved = true;
	if (g->ab_early)
		co.spending = CMP_SPEND_POCOCK;
	co.prior = w->cmp;
	if (compare_run(&cmp, &cur, &base, 1, &co)) {
		int st = exit_status_for_error(jg_error_code());

		k->status = exit_status_merge(k->status, st);
		gate_fail(g, st, "compare", "%s: %s", k->key, jg_error_msg());
		w->stopped = true;
		goto out;
	}
	strlist_addf(&cmp->warnings, "interleaved A/B on the same phones: "
	    "%d blocks in ABBA order, up to %d iterations each; A (baseline) "
	    "%s, B (current) %s; installs took %.0f %% of device time%s%s",
	    g->out->ab_blocks, g->out->ab_block, g->o->ab_old_apk,
	    g->o->ab_new_apk ? g->o->ab_new_apk : "the configured apk",
	    100 * g->out->ab_install_share, g->out->ab_how ? "; " : "",
	    g->out->ab_how ? g->out->ab_how : "");
	if (g->out->ab_seq)
		strlist_addf(&cmp->warnings, "the blocks, in the order they "
		    "ran: %s", g->out->ab_seq);
	gate_key_store(g, i, cmp, look);
out:
	results_free(a);
	free(a_path);
}

/* The alive devices of the keys that asked for more, and their scenarios. */
static bool
plan_round(struct gate_ctx *g, struct strlist *serials,
    struct strlist *scenarios)
{
	strlist_release(serials);
	strlist_release(scenarios);
	for (size_t i = 0; i < g->out->nr_keys; i++) {
		struct gate_work *w = &g->work[i];
		struct strlist undecided = STRLIST_INIT;

		if (w->stopped || !w->cmp)
			continue;
		if (g->undecided_of)
			g->undecided_of(g, i, &undecided);
		else
			gate_undecided(&undecided, w->cmp);
		for (size_t s = 0; undecided.nr && s < w->nr_devs; s++)
			if (w->alive[s])
				strlist_add(serials,
				    g->out->keys[i].serials.items[s]);
		for (size_t s = 0; serials->nr && s < undecided.nr; s++)
			if (strlist_find(scenarios, undecided.items[s]) < 0)
				strlist_add(scenarios, undecided.items[s]);
		strlist_release(&undecided);
	}
	return serials->nr && scenarios->nr;
}

/* How the older build went back on, from the devices' warnings. */
static void
tell_downgrade(struct gate_ctx *g, const struct build *old,
    const struct build *new, const struct run_report *rr)
{
	bool uninstalled = false;

	if (g->out->ab_how || !(old->version_code < new->version_code))
		return;
	for (size_t i = 0; i < rr->nr_devices; i++)
		for (size_t w = 0; w < rr->devices[i].warnings.nr; w++)
			uninstalled |= strstr(rr->devices[i].warnings.items[w],
			    "uninstalled it first") != NULL;
	g->out->ab_how = xstrdup(uninstalled ? "the old build went back on "
	    "after uninstalling the new one (not debuggable: -d refused)" :
	    "the old build went back on with install -d (debuggable)");
	gate_note(g, "ab: %s", g->out->ab_how);
}

/*
 * A confirmation's pre-heat: one block of the new build (already on the
 * phones) into OUT/<key>/heat/, never compared, so that the first
 * measured block does not meet a phone cooler than the later ones.
 */
static void
run_heat(struct gate_ctx *g, const struct build *b, int n,
    const struct strlist *serials, const struct strlist *scenarios)
{
	struct run_opts ro;
	struct run_report rr;

	gate_run_opts(g, &ro);
	strlist_copy(&ro.serials, serials);
	strlist_copy(&ro.connect, &g->o->connect);
	strlist_copy(&ro.scenarios, scenarios);
	ro.apk = &b->apk;
	ro.install = INSTALL_DOWNGRADE;
	ro.downgrade_fallback = true;
	ro.results_sub = "heat";
	ro.iterations = n;
	gate_note(g, "ab: pre-heat, build %s, %d iteration%s, not compared",
	    b->label, n, n == 1 ? "" : "s");
	run_report_init(&rr);
	run_execute(&ro, &rr);
	run_report_release(&rr);
	run_opts_release(&ro);
}

int
gate_ab(struct gate_ctx *g)
{
	static const char order[] = "ABBA";
	struct strlist serials = STRLIST_INIT, scenarios = STRLIST_INIT;
	struct strlist new_apk = STRLIST_INIT;
	struct build a, b;
	struct ab_time t = { 0, 0 };
	struct strbuf seq = STRBUF_INIT;
	int rc = 0, n = g->o->ab_block > 0 ? g->o->ab_block :
	    g->cfg->iterations;

	strlist_add(&new_apk, g->o->ab_old_apk);
	build_init(&a, "A", "a", &new_apk);
	strlist_release(&new_apk);
	if (g->o->ab_new_apk)
		strlist_add(&new_apk, g->o->ab_new_apk);
	else
		strlist_copy(&new_apk, &g->cfg->apk);
	build_init(&b, "B", "b", &new_apk);
	strlist_release(&new_apk);
	if (!b.apk.nr) {
		gate_fail(g, EXIT_BAD_INPUT, "ab", "no new build: pass --apk "
		    "NEW.apk or set apk in the configuration");
		rc = -1;
		goto out;
	}
	/* Both builds are APKs of the app before any phone is touched. */
	if (check_build(g, &a, g->ab_old_what ? g->ab_old_what :
	    "the old build (--baseline-apk)") ||
	    check_build(g, &b, g->o->ab_new_apk ? "the new build (--apk)" :
	    "the new build (apk in the configuration)")) {
		rc = -1;
		goto out;
	}
	strlist_copy(&serials, &g->o->serials);
	if (g->ab_scenarios)
		strlist_copy(&scenarios, g->ab_scenarios);
	g->out->ab_block = n;
	if (g->ab_heat)
		run_heat(g, &b, n, &serials, &scenarios);
	for (int round = 1; round <= g->looks; round++) {
		for (int bi = 0; bi < 4 && !run_interrupted(); bi++) {
			struct build *x = order[bi] == 'A' ? &a : &b;
			struct run_report rr;
			double t0 = monoclock_ms(), wall;
			int sess = x->blocks;

			strbuf_addf(&seq, "%s%s %d", bi ? ", " : seq.len ?
			    "; " : "", x->label, g->out->ab_block);
			run_block(g, x, g->out->ab_block, &serials, &scenarios,
			    &rr);
			wall = monoclock_ms() - t0;
			if (round == 1 && bi == 0) {
				if (keys_from_first_block(g, &rr)) {
					run_report_release(&rr);
					rc = -1;
					goto out;
				}
				/* The devices of the first block, as named. */
				strlist_release(&serials);
				for (size_t i = 0; i < g->out->nr_keys; i++)
					for (size_t d = 0; d <
					    g->out->keys[i].serials.nr; d++)
						strlist_add(&serials, g->out->
						    keys[i].serials.items[d]);
			}
			t.wall_ms += wall;
			t.iter_ms += session_ms(x == &a ?
			    g->work[0].ab_a.items[0] :
			    g->out->keys[0].results.items[0], sess);
			if (round == 1 && bi == 0 && g->o->ab_block <= 0)
				g->out->ab_block = block_size(g, wall,
				    t.iter_ms, n);
			g->out->ab_install_share = t.wall_ms > 0 ?
			    1 - t.iter_ms / t.wall_ms : 0;
			if (x == &a && b.blocks)
				tell_downgrade(g, &a, &b, &rr);
			run_report_release(&rr);
		}
		/* The blocks say which scenarios once some are settled. */
		if (scenarios.nr)
			strbuf_addf(&seq, " iterations of the %zu undecided "
			    "scenario%s", scenarios.nr, scenarios.nr == 1 ?
			    "" : "s");
		else
			strbuf_addstr(&seq, " iterations of every scenario");
		free(g->out->ab_seq);
		g->out->ab_seq = xstrdup(seq.buf);
		if (round == 1)
			gate_note(g, "ab: blocks of %d iterations; installs, "
			    "preflight and warm-ups took %.0f %% of device "
			    "time", g->out->ab_block,
			    100 * g->out->ab_install_share);
		for (size_t i = 0; i < g->out->nr_keys; i++)
			compare_key(g, i, round, round == g->looks ||
			    run_interrupted());
		if (run_interrupted() || !plan_round(g, &serials, &scenarios))
			break;
		/* The last look is whichever the undecided reach. */
		if (round == g->looks)
			break;
	}
out:
	strbuf_release(&seq);
	strlist_release(&serials);
	strlist_release(&scenarios);
	strlist_release(&a.apk);
	strlist_release(&b.apk);
	return rc;
}
