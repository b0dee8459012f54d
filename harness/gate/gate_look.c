/*
 * gate_look.c: the comparisons of `jankgate gate`, look after look.
 *
 * Per device key: read its devices' results as run wrote them, pool
 * several devices into OUT/<key>/pooled-results.json, load the baseline
 * sample once, refuse a baseline of another kind, compare at this look's
 * share of alpha and write OUT/<key>/comparison.json.  Between looks,
 * plan the batches that could settle an undecided key (gate_policy.c
 * says how many iterations each device may still run) and have gate.c
 * run them, all devices of one batch in parallel.
 *
 * A look that cannot be followed by another (the last one, or nothing
 * left to measure for what is undecided) is told so (compare_opts.last),
 * and compare then decides instead of asking for more.
 */
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exitstatus.h"
#include "compare.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "gate.h"
#include "gate_int.h"
#include "results.h"
#include "run.h"
#include "signature.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Measured (not warm-up) iterations of `scenario` in `r`. */
static int
measured(const struct results *r, const char *scenario)
{
	const struct rs_scenario *s = results_find_scenario(r, scenario);
	int n = 0;

	for (size_t i = 0; s && i < s->nr_iterations; i++)
		n += !s->iterations[i].warmup;
	return n;
}

static void
devs_free(struct gate_work *w)
{
	for (size_t d = 0; d < w->nr_devs; d++)
		results_free(w->devs[d]);
	memset(w->devs, 0, w->nr_devs * sizeof(*w->devs));
	results_free(w->pooled);
	w->pooled = NULL;
}

int
gate_pool_files(struct results **out, char **path, const struct strlist *files)
{
	struct results **tmp = xcalloc(files->nr + 1, sizeof(*tmp));
	char *dir = xstrdup(files->items[0]);
	char *json = NULL;
	int rc = 0;

	*out = NULL;
	*path = NULL;
	for (size_t d = 0; !rc && d < files->nr; d++)
		rc = results_read(&tmp[d], files->items[d]);
	if (rc)
		goto out;
	gate_pool(tmp, files->nr);
	*path = xasprintf("%s/pooled-results.json", dirname(dir));
	json = results_to_json(tmp[0]);
	rc = file_write_atomic(*path, json, strlen(json), 0644);
	if (rc) {
		free(*path);
		*path = NULL;
		goto out;
	}
	*out = tmp[0];
	tmp[0] = NULL;
out:
	for (size_t d = 0; d < files->nr; d++)
		results_free(tmp[d]);
	free(tmp);
	free(dir);
	free(json);
	return rc;
}

/* Pool the devices of a key (gate_pool_files), the key's current file. */
static int
key_pool(struct gate_key *k, struct gate_work *w)
{
	char *path;
	int rc = gate_pool_files(&w->pooled, &path, &k->results);

	if (!rc) {
		free(k->current);
		k->current = path;
	}
	return rc;
}

static const struct results *
key_current(const struct gate_work *w)
{
	return w->pooled ? w->pooled : w->devs[0];
}

int
gate_key_read(struct gate_ctx *g, size_t i)
{
	struct gate_key *k = &g->out->keys[i];
	struct gate_work *w = &g->work[i];
	int rc = 0;

	devs_free(w);
	for (size_t d = 0; !rc && d < w->nr_devs; d++)
		rc = results_read(&w->devs[d], k->results.items[d]);
	if (!rc && w->nr_devs > 1)
		rc = key_pool(k, w);
	if (rc) {
		k->status = exit_status_merge(k->status, EXIT_INFRA);
		gate_fail(g, EXIT_INFRA, "compare", "%s: %s", k->key,
		    jg_error_msg());
		devs_free(w);
		w->stopped = true;
		return rc;
	}
	k->complete = true;
	k->iterations = 0;
	w->refresh_hz = key_current(w)->device.refresh_hz;
	free(w->run_error);
	w->run_error = w->devs[0]->run.errors.nr ?
	    xstrdup(w->devs[0]->run.errors.items[0]) : NULL;
	for (size_t d = 0; d < w->nr_devs; d++) {
		const struct results *r = w->devs[d];

		k->complete = k->complete && r->run.complete;
		for (size_t s = 0; s < r->nr_scenarios; s++) {
			int n = measured(r, r->scenarios[s].name);

			if (n > k->iterations)
				k->iterations = n;
		}
	}
	return 0;
}

/* Keep what confirming needs of the newest run of w->base, by start. */
static void
keep_newest(struct gate_work *w)
{
	const struct results *best = NULL;

	for (size_t i = 0; i < w->base.nr; i++) {
		const struct results *r = w->base.runs[i];

		if (!best || (r->run.started && (!best->run.started ||
		    strcmp(r->run.started, best->run.started) > 0)))
			best = r;
	}
	free(w->newest.version_name);
	free(w->newest.apk_sha256);
	memset(&w->newest, 0, sizeof(w->newest));
	w->newest.version_code = NAN;
	if (!best)
		return;
	w->newest.any = true;
	if (best->app.version_name)
		w->newest.version_name = xstrdup(best->app.version_name);
	w->newest.version_code = best->app.version_code;
	if (best->app.apk_sha256)
		w->newest.apk_sha256 = xstrdup(best->app.apk_sha256);
}

/* Drop key `w`'s baseline sample once it is compared (gate_work). */
static void
sample_drop(struct gate_work *w)
{
	if (!w->sampled)
		return;
	baseline_sample_release(&w->base);
	w->sampled = false;
}

/*
 * The baseline sample, for this comparison; a shard keeps its own
 * scenarios.  Said once per key when the window is empty.
 */
static int
key_sample(struct gate_ctx *g, struct gate_key *k, struct gate_work *w)
{
	const struct results *cur = key_current(w);
	int rc;

	if (w->sampled)
		return 0;
	if (!cur->app.package) {
		jg_error_set(JG_EINVAL, "'%s' has no app.package", k->current);
		return EXIT_BAD_INPUT;
	}
	/* Every shard records its own scenarios: read N times as deep. */
	rc = baseline_sample_load(&w->base, g->bs, g->ref, cur->app.package,
	    k->key, g->cfg->baseline.history * (g->o->shard_count > 1 ?
	    g->o->shard_count : 1));
	if (rc)
		return exit_status_for_lookup(rc);
	if (g->o->shard_count > 1)
		for (size_t i = 0; i < w->base.nr; i++)
			gate_trim_scenarios(w->base.runs[i], cur);
	if (!w->base.nr && !w->window_read)
		gate_note(g, "compare: %s: no baseline yet at '%s'; every "
		    "metric is new", k->key, g->ref);
	w->sampled = true;
	w->window_read = true;
	keep_newest(w);
	return 0;
}

/*
 * The regressions of `c`, or (`suspects`) its suspects (docs/method.md, step 8:
 * passes worse by their threshold that Benjamini-Hochberg lists, never a
 * verdict) with their q-value, one line each, for the table and the notes:
 * the night's table names the suspects as the report does, so a reader of
 * the CI log sees what to rerun.
 */
static void
list_entries(struct strlist *out, const struct comparison *c, bool suspects)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];

		if (suspects ? !e->suspect : e->verdict != CMP_REGRESSION)
			continue;
		strbuf_setlen(&sb, 0);
		strbuf_addf(&sb, "%s%s%s %s: %.4g -> %.4g %s", e->scenario,
		    e->scene ? "/" : "", e->scene ? e->scene : "", e->metric,
		    e->base.median, e->cur.median, e->unit ? e->unit : "");
		if (suspects)
			strbuf_addf(&sb, " (q = %.2g)", e->q_value);
		strlist_add(out, sb.buf);
	}
	strbuf_release(&sb);
}

/*
 * The new and worse main-thread blocks of `c`, one line each, named by
 * their innermost application frame (the one the signature starts with).
 */
static void
list_blocks(struct strlist *out, const struct comparison *c)
{
	for (size_t i = 0; i < c->nr_blocks; i++) {
		const struct cmp_block *b = &c->blocks[i];
		const char *top = NULL;
		size_t len = 0;
		long app = signature_app_frame(&b->stack);

		if (b->status != CMP_BLOCK_NEW && b->status != CMP_BLOCK_WORSE)
			continue;
		if (app >= 0)
			top = signature_frame_name(b->stack.items[app], &len);
		if (!top) {
			top = b->signature ? b->signature : "?";
			len = strlen(top);
		}
		if (b->status == CMP_BLOCK_NEW)
			strlist_addf(out, "%s%s%s: new block at %.*s, %.0f ms, "
			    "in %.0f of %.0f iterations%s", b->scenario,
			    b->scene ? "/" : "", b->scene ? b->scene : "",
			    (int)len, top, b->cur.wall_ms, b->cur.carriers,
			    b->cur.iterations, b->verdict == CMP_REGRESSION ?
			    ": regression" : b->verdict == CMP_INCONCLUSIVE ?
			    ": inconclusive" : "");
		else
			strlist_addf(out, "%s%s%s: worse block at %.*s, "
			    "%.0f -> %.0f ms, %.2g -> %.2g per iteration",
			    b->scenario, b->scene ? "/" : "",
			    b->scene ? b->scene : "", (int)len, top,
			    b->base.wall_ms, b->cur.wall_ms,
			    b->base.per_iteration, b->cur.per_iteration);
		/* Issue 20: what it cost, and the frame on top beneath. */
		if (isfinite(b->cur.janky_frames))
			strlist_addf(out, "  overlapped %.0f janky frame%s",
			    b->cur.janky_frames, b->cur.janky_frames == 1 ?
			    "" : "s");
		if (app > 0)
			strlist_addf(out, "  top frame %s", b->stack.items[0]);
	}
}

/* Refuse a key whose baseline is of another kind, naming every way. */
static int
key_check(struct gate_ctx *g, struct gate_key *k,
    const struct compare_input *cur, const struct compare_input *base,
    size_t nr)
{
	struct strlist reasons = STRLIST_INIT;

	if (!compare_check(&reasons, cur, base, nr)) {
		strlist_release(&reasons);
		return 0;
	}
	for (size_t i = 0; i < reasons.nr; i++) {
		strlist_addf(&k->notes, "not comparable: %s", reasons.items[i]);
		gate_fail(g, EXIT_BAD_INPUT, "compare",
		    "%s: not comparable: %s", k->key, reasons.items[i]);
	}
	strlist_release(&reasons);
	return EXIT_BAD_INPUT;
}

/*
 * One batch request: these devices run `n` more iterations of `scenario`.
 * Requests of the same scenario and size share one parallel run.
 */
struct batch {
	char *scenario;
	int n;
	struct strlist serials;
};

static void
batch_add(struct batch **b, size_t *nr, size_t *alloc, const char *scenario,
    int n, const char *serial)
{
	for (size_t i = 0; i < *nr; i++)
		if ((*b)[i].n == n && !strcmp((*b)[i].scenario, scenario)) {
			strlist_add(&(*b)[i].serials, serial);
			return;
		}
	XALLOC_GROW(*b, *nr + 1, *alloc);
	(*b)[*nr].scenario = xstrdup(scenario);
	(*b)[*nr].n = n;
	strlist_init(&(*b)[*nr].serials);
	strlist_add(&(*b)[*nr].serials, serial);
	(*nr)++;
}

/*
 * Plan the batches that could settle comparison `cmp` of key `i`, adding
 * them to b[0..nr) unless `b` is NULL; 1 when there is any.
 */
static int
key_plan(struct gate_ctx *g, size_t i, const struct comparison *cmp,
    struct batch **b, size_t *nr, size_t *alloc)
{
	struct gate_work *w = &g->work[i];
	struct strlist undecided = STRLIST_INIT;
	int asked = 0;

	/*
	 * A key looks again while it has undecided entries, even when some
	 * other entry is already a regression: the gate fails either way,
	 * but the report should name every regression the night can
	 * establish, not only the first look's.  What a look found stays
	 * found (compare_opts.prior).
	 */
	if (w->stopped || !cmp)
		return 0;
	gate_undecided(&undecided, cmp);
	/* A settled look freed the results: read them for what they hold. */
	if (undecided.nr && !w->devs[0] && gate_key_read(g, i)) {
		strlist_release(&undecided);
		return 0;
	}
	for (size_t s = 0; s < undecided.nr; s++)
		for (size_t d = 0; d < w->nr_devs; d++) {
			int n = gate_batch(g->cfg->iterations,
			    g->cfg->max_iterations,
			    measured(w->devs[d], undecided.items[s]));

			if (!w->alive[d] || n <= 0)
				continue;
			if (b)
				batch_add(b, nr, alloc, undecided.items[s], n,
				    g->out->keys[i].serials.items[d]);
			asked = 1;
		}
	strlist_release(&undecided);
	return asked;
}

void
gate_key_compare(struct gate_ctx *g, size_t i, int look)
{
	struct gate_key *k = &g->out->keys[i];
	struct gate_work *w = &g->work[i];
	struct compare_input cur, *base;
	struct compare_opts co;
	struct comparison *cmp = NULL;
	int status, rc;

	if ((status = key_sample(g, k, w))) {
		k->status = exit_status_merge(k->status, status);
		gate_fail(g, status, "compare", "%s: %s", k->key,
		    jg_error_msg());
		w->stopped = true;
		return;
	}
	cur.results = key_current(w);
	cur.name = k->current;
	base = xcalloc(w->base.nr + 1, sizeof(*base));
	for (size_t b = 0; b < w->base.nr; b++) {
		base[b].results = w->base.runs[b];
		base[b].name = w->base.names[b];
	}
	if ((status = key_check(g, k, &cur, base, w->base.nr))) {
		k->status = exit_status_merge(k->status, status);
		w->stopped = true;
		goto out;
	}
	compare_opts_init(&co, &g->cfg->compare);
	co.share = gate_share(cur.results->nr_scenarios, g->out->nr_keys,
	    g->cfg->scenarios.nr);
	co.look = look;
	co.looks = g->looks;
	co.last = look >= g->looks || run_interrupted();
	co.prior = w->cmp;
	rc = compare_run(&cmp, &cur, base, w->base.nr, &co);
	/*
	 * Undecided, but nothing more can be measured for it (devices at
	 * max_iterations or failed): this look is the last, and decides.
	 */
	if (!rc && !co.last && !key_plan(g, i, cmp, NULL, NULL, NULL)) {
		comparison_free(cmp);
		cmp = NULL;
		co.last = true;
		rc = compare_run(&cmp, &cur, base, w->base.nr, &co);
	}
	if (rc) {
		status = exit_status_for_error(jg_error_code());
		k->status = exit_status_merge(k->status, status);
		gate_fail(g, status, "compare", "%s: %s", k->key,
		    jg_error_msg());
		w->stopped = true;
		goto out;
	}
	gate_key_store(g, i, cmp, look);
out:
	free(base);
	sample_drop(w);
	devs_free(w);
}

/* Key `i`'s verdict, counts and lists from its comparison, w->cmp. */
static void
key_refresh(struct gate_key *k, const struct comparison *cmp)
{
	k->compared = true;
	k->no_data = comparison_measured(cmp) == 0;
	k->verdict = comparison_verdict(cmp);
	comparison_count(cmp, k->counts);
	strlist_release(&k->regressions);
	list_entries(&k->regressions, cmp, false);
	strlist_release(&k->suspects);
	list_entries(&k->suspects, cmp, true);
	strlist_release(&k->blocks);
	list_blocks(&k->blocks, cmp);
}

void
gate_key_rewrite(struct gate_ctx *g, size_t i)
{
	struct gate_key *k = &g->out->keys[i];

	key_refresh(k, g->work[i].cmp);
	if (k->comparison && comparison_write(g->work[i].cmp, k->comparison)) {
		k->status = exit_status_merge(k->status, EXIT_INFRA);
		gate_fail(g, EXIT_INFRA, "compare", "%s", jg_error_msg());
	}
}

void
gate_key_store(struct gate_ctx *g, size_t i, struct comparison *cmp, int look)
{
	struct gate_key *k = &g->out->keys[i];
	struct gate_work *w = &g->work[i];
	char *dir, *what;

	comparison_free(w->cmp);
	w->cmp = cmp;
	k->looks = look;
	key_refresh(k, cmp);
	dir = xstrdup(k->results.items[0]);
	if (!k->comparison)
		k->comparison = xasprintf("%s/comparison.json", dirname(dir));
	free(dir);
	if (comparison_write(cmp, k->comparison)) {
		k->status = exit_status_merge(k->status, EXIT_INFRA);
		gate_fail(g, EXIT_INFRA, "compare", "%s", jg_error_msg());
		free(k->comparison);
		k->comparison = NULL;
	} else {
		/*
		 * Each look's too, beside it: `compare --look K/N --prior`
		 * recomputes a night's verdict from these files.
		 */
		char *copy = xstrdup(k->comparison), *each;

		each = xasprintf("%s/comparison-look-%d.json", dirname(copy),
		    look);
		if (comparison_write(cmp, each)) {
			k->status = exit_status_merge(k->status, EXIT_INFRA);
			gate_fail(g, EXIT_INFRA, "compare", "%s",
			    jg_error_msg());
		}
		free(each);
		free(copy);
	}
	/* Suspects are named at the look too, not only in the final table. */
	if (k->no_data)
		what = xstrdup("no valid iteration");
	else if (k->suspects.nr)
		what = xasprintf("%s (%zu suspect%s listed)",
		    cmp_verdict_name(k->verdict), k->suspects.nr,
		    k->suspects.nr == 1 ? "" : "s");
	else
		what = xstrdup(cmp_verdict_name(k->verdict));
	gate_note(g, "compare: %s, look %d of %d, %d iteration%s: %s", k->key,
	    look, g->looks, k->iterations, k->iterations == 1 ? "" : "s",
	    what);
	free(what);
}

void
gate_adapt(struct gate_ctx *g)
{
	struct gate_outcome *out = g->out;

	for (int look = 2; look <= g->looks; look++) {
		struct batch *b = NULL;
		size_t nr = 0, alloc = 0;
		bool *asked = xcalloc(out->nr_keys + 1, sizeof(*asked));

		for (size_t i = 0; i < out->nr_keys; i++) {
			asked[i] = key_plan(g, i, g->work[i].cmp, &b, &nr,
			    &alloc);
			if (!asked[i])
				devs_free(&g->work[i]);
		}
		for (size_t i = 0; i < nr && !run_interrupted(); i++)
			gate_run_more(g, b[i].scenario, b[i].n, &b[i].serials);
		for (size_t i = 0; i < out->nr_keys; i++)
			if (asked[i] && !gate_key_read(g, i))
				gate_key_compare(g, i, look);
		for (size_t i = 0; i < nr; i++) {
			free(b[i].scenario);
			strlist_release(&b[i].serials);
		}
		free(b);
		free(asked);
		if (!nr || run_interrupted())
			break;
	}
}

void
gate_work_release(struct gate_work *w)
{
	devs_free(w);
	free(w->devs);
	free(w->alive);
	sample_drop(w);
	free(w->run_error);
	free(w->newest.version_name);
	free(w->newest.apk_sha256);
	comparison_free(w->cmp);
	strlist_release(&w->ab_a);
}

void
gate_settle(struct gate_ctx *g)
{
	for (size_t i = 0; i < g->out->nr_keys; i++) {
		struct gate_key *k = &g->out->keys[i];

		if (!k->compared)
			continue;
		if (k->no_data) {
			const char *why = g->work[i].run_error;

			/* Nothing measured is never a pass: say why. */
			k->status = exit_status_merge(k->status, EXIT_INFRA);
			strlist_addf(&k->notes, "no valid iteration was "
			    "measured%s%s", why ? ": " : "", why ? why : "");
		} else {
			k->status = exit_status_merge(k->status,
			    exit_status_of(cmp_verdict_outcome(k->verdict)));
		}
		/* What the baseline measured and tonight did not fails. */
		for (size_t j = 0; !k->no_data && g->work[i].cmp &&
		    j < g->work[i].cmp->missing.nr; j++) {
			const char *what = g->work[i].cmp->missing.items[j];

			strlist_addf(&k->notes, "%s was measured in the "
			    "baseline and not in this run", what);
			gate_note(g, "compare: %s: %s was measured in the "
			    "baseline and not in this run", k->key, what);
		}
		if (!k->no_data && k->verdict == CMP_INCONCLUSIVE) {
			if (k->run_status || g->out->interrupted)
				strlist_addf(&k->notes, "inconclusive after "
				    "%d iteration%s: the run %s before "
				    "max_iterations", k->iterations,
				    k->iterations == 1 ? "" : "s",
				    g->out->interrupted ? "was stopped" :
				    "failed");
			else if (g->o->ab_old_apk)
				strlist_addf(&k->notes, "still inconclusive "
				    "after %d round%s of ABBA blocks (--rounds "
				    "%d)", k->looks, k->looks == 1 ? "" : "s",
				    g->looks);
			else
				strlist_addf(&k->notes, "still inconclusive "
				    "after %d iteration%s (max_iterations %d)",
				    k->iterations, k->iterations == 1 ? "" :
				    "s", g->cfg->max_iterations);
		}
		g->out->status = exit_status_merge(g->out->status, k->status);
	}
}

void
gate_keys_done(struct gate_ctx *g)
{
	for (size_t i = 0; i < g->out->nr_keys; i++) {
		struct gate_work *w = &g->work[i];

		if (!w->cmp)
			continue;
		w->commit_word = gate_commit_verdict(w->cmp);
		comparison_free(w->cmp);
		w->cmp = NULL;
	}
}
