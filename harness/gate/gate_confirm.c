/*
 * gate_confirm.c: confirm before failing (docs/method.md, step 9).
 *
 * When a key's looks against the stored window end in a regression, or
 * leave something undecided or suspect (a pass that leans worse, step
 * 8), and the previous accepted build is at hand (--confirm-apk, else the pattern
 * baseline.previous_apk, its {version_name} and {version_code} those of
 * the newest run of the key's window), the regression is put to an
 * interleaved A/B on the same phones before it fails the night: the old
 * build (A) and tonight's (B) in ABBA blocks, gate_ab.c's machinery in a
 * context of its own, writing under OUT/confirm/<key>/:
 *
 *   - only the suspect scenarios (compare_suspects(): those with a
 *     regression, an inconclusive or a suspect), and of those only the ones whose
 *     accused or undecided scenes the A/B has not settled after each round (compare_confirm_undecided()), up
 *     to GATE_AB_ROUNDS rounds; keys with the same previous build and
 *     the same suspects share one A/B, on their phones together;
 *   - a pre-heat block of the new build first (OUT/confirm/<key>/heat/,
 *     never compared): the history's batches ended with a cool-down, and
 *     a phone warming up during the first A block would make A look
 *     faster;
 *   - each key's comparisons at its suspects' share of alpha over every
 *     suspect scenario of this gate (times its shard's part of the
 *     night, when sharded): a night fails on an accused scene
 *     only when both the history and the A/B reject, and on an undecided
 *     one only when the A/B does, on data of its own, so the A/B's
 *     family is the suspects alone; spent over the rounds by Pocock's rule, which gives the
 *     first round 30 % of it (the late rule of the history's looks gives
 *     it under 1 %): a regression plain enough to have been accused is
 *     usually settled by one round, and every round is four blocks of
 *     device time.
 *
 * compare_confirm() then rewrites the key's comparison scene by scene:
 * confirmed regressions stay (the A/B's numbers in their reasons),
 * undecided ones become inconclusive, cleared ones pass with a line that
 * keeps what the history said; what the history left inconclusive or
 * suspect becomes a regression when the A/B finds one in its scene, a
 * pass when the A/B clears it, and stays as it was otherwise (the A/B decides
 * alone there, at the same share of alpha: docs/method.md, step 9); the key's comparison.json is written
 * again (its comparison-look-N.json files keep the history's looks), and
 * the report, the mail and the exit status follow it.  Keys with
 * different previous builds (their windows' newest runs differ) or
 * different suspects are confirmed one A/B after the other.
 *
 * Without the old build (no option, no pattern, or no file where the
 * pattern points) the history decides alone, as before, and the key's
 * notes say so.  An A/B that measured nothing, or that SIGINT or SIGTERM
 * cut short, leaves the history's verdict (an A/B stopped early clears
 * nothing), with its failure in the errors (exit 3 unless something
 * worse); an old build that is not an APK of the app is bad input.
 */
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "config.h"
#include "error.h"
#include "exitstatus.h"
#include "gate.h"
#include "gate_int.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Each key's number of suspect scenarios, and this gate's; this gate's
 * part of the night (its keys' shares of alpha, gate_share(): 1 unless
 * the night is sharded); the gate whose regressions are confirmed.
 */
struct shares {
	struct strlist keys;
	size_t *count;
	size_t total;
	double part;
	const struct gate_ctx *main;
};

static double
share_of(const struct gate_ctx *g, const char *key)
{
	const struct shares *s = g->share_data;
	int at = strlist_find(&s->keys, key);

	return at < 0 || !s->total ? s->part : s->part *
	    (double)s->count[at] / (double)s->total;
}

/*
 * `pattern` with {version_name} and {version_code} of the newest window
 * run `r`; NULL, and why in `why`, when the run did not record the one
 * the pattern asks for.
 */
static char *
expand(const char *pattern, const struct gate_newest *r, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = pattern; *p;) {
		if (!strncmp(p, "{version_name}", 14)) {
			if (!r->version_name || !*r->version_name) {
				strbuf_addstr(why, "the newest baseline run "
				    "recorded no version name");
				goto fail;
			}
			strbuf_addstr(&sb, r->version_name);
			p += 14;
		} else if (!strncmp(p, "{version_code}", 14)) {
			if (!isfinite(r->version_code)) {
				strbuf_addstr(why, "the newest baseline run "
				    "recorded no version code");
				goto fail;
			}
			strbuf_addf(&sb, "%.0f", r->version_code);
			p += 14;
		} else
			strbuf_addch(&sb, *p++);
	}
	return strbuf_detach(&sb, NULL);
fail:
	strbuf_release(&sb);
	return NULL;
}

/* Key i's previous build, or NULL with a note saying why there is none. */
static char *
old_build(struct gate_ctx *g, size_t i)
{
	struct gate_key *k = &g->out->keys[i];
	const char *pattern = g->o->confirm_apk ? g->o->confirm_apk :
	    g->cfg->baseline.previous_apk;
	const struct gate_newest *r = &g->work[i].newest;
	struct strbuf why = STRBUF_INIT;
	char *path = NULL;

	if (g->o->confirm_apk)
		path = xstrdup(pattern);
	else if (!r->any)
		strbuf_addstr(&why, "the window holds no run");
	else
		path = expand(pattern, r, &why);
	if (path && access(path, R_OK)) {
		strbuf_addf(&why, "no previous build at %s", path);
		free(path);
		path = NULL;
	}
	if (!path) {
		strlist_addf(&k->notes, "not confirmed by an A/B: %s; the "
		    "history decides alone", why.buf);
		gate_note(g, "confirm: %s: %s; the history decides alone",
		    k->key, why.buf);
	}
	strbuf_release(&why);
	return path;
}

/* Key i's display period, from its current run; NAN: unknown. */
static double
vsync_ms(const struct gate_work *w)
{
	return w->refresh_hz > 0 ? 1000 / w->refresh_hz : NAN;
}

/*
 * The A/B's key `i` measures again only the scenarios whose accused
 * scenes it has neither confirmed nor cleared.
 */
static void
undecided_of(const struct gate_ctx *g, size_t i, struct strlist *out)
{
	const struct shares *s = g->share_data;
	const struct gate_ctx *m = s->main;

	if (!g->work[i].cmp)
		return;
	for (size_t k = 0; k < m->out->nr_keys; k++)
		if (!strcmp(m->out->keys[k].key, g->out->keys[i].key) &&
		    m->work[k].cmp)
			compare_confirm_undecided(out, m->work[k].cmp,
			    g->work[i].cmp, vsync_ms(&m->work[k]));
}

/* The confirmation's lines, told as the gate's. */
static void
confirm_note(void *data, const char *line)
{
	gate_note(data, "confirm: %s", line);
}

/* A/B key `ab` settles main key `i`. */
static void
settle_key(struct gate_ctx *g, size_t i, const char *old,
    struct gate_ctx *g2, size_t ab)
{
	struct gate_key *k = &g->out->keys[i];
	struct gate_work *w = &g->work[i];
	const struct gate_key *ka = &g2->out->keys[ab];
	const struct gate_work *wa = &g2->work[ab];
	const struct gate_newest *base = &w->newest;
	struct results *a = NULL;
	char *copy = xstrdup(old), *what;
	size_t n;

	what = xasprintf("the A/B against %s", basename(copy));
	/* The A side's install recorded the file's digest. */
	if (wa->ab_a.nr && results_read(&a, wa->ab_a.items[0]))
		jg_error_clear();
	if (base->apk_sha256 && a && a->app.apk_sha256 &&
	    strcmp(base->apk_sha256, a->app.apk_sha256))
		strlist_addf(&w->cmp->warnings, "the previous build %s is not "
		    "the one the newest baseline run measured (sha256 %.12s, "
		    "not %.12s)", old, a->app.apk_sha256,
		    base->apk_sha256);
	results_free(a);
	strlist_addf(&w->cmp->confirmation, "the history's regressions were "
	    "put to an interleaved A/B of %s and tonight's build on the same "
	    "phones: %s", old, ka->comparison ? ka->comparison : "");
	n = compare_confirm(w->cmp, wa->cmp, vsync_ms(w), what);
	gate_key_rewrite(g, i);
	strlist_addf(&k->notes, "confirmation: %s",
	    w->cmp->confirmation.items[w->cmp->confirmation.nr - 1]);
	gate_note(g, "confirm: %s: %zu regression%s stand%s: %s", k->key, n,
	    n == 1 ? "" : "s", n == 1 ? "s" : "", cmp_verdict_name(k->verdict));
	free(what);
	free(copy);
}

/* One A/B of `old` against tonight's build on the keys `which` marks. */
static void
confirm_group(struct gate_ctx *g, const char *old, const bool *which,
    const struct shares *sh)
{
	struct gate_opts o2 = *g->o;
	struct gate_outcome out2;
	struct gate_ctx g2 = { 0 };
	struct strlist suspects = STRLIST_INIT;

	strlist_init(&o2.serials);
	strlist_init(&o2.connect);
	strlist_copy(&o2.connect, &g->o->connect);
	o2.ab_old_apk = old;
	o2.ab_new_apk = NULL;
	o2.ab_block = 0;
	o2.ab_rounds = 0;
	o2.note = confirm_note;
	o2.note_data = g;
	for (size_t i = 0; i < g->out->nr_keys; i++) {
		if (!which[i])
			continue;
		compare_suspects(&suspects, g->work[i].cmp);
		for (size_t d = 0; d < g->work[i].nr_devs; d++)
			if (g->work[i].alive[d])
				strlist_add(&o2.serials,
				    g->out->keys[i].serials.items[d]);
	}
	gate_outcome_init(&out2);
	g2.o = &o2;
	g2.cfg = g->cfg;
	g2.out = &out2;
	g2.out_dir = xasprintf("%s/confirm", g->out_dir);
	g2.looks = GATE_AB_ROUNDS;
	g2.ab_scenarios = &suspects;
	g2.ab_heat = true;
	g2.ab_early = true;
	g2.ab_old_what = "the previous build (baseline.previous_apk, "
	    "--confirm-apk)";
	g2.share_of = share_of;
	g2.undecided_of = undecided_of;
	g2.share_data = sh;
	gate_note(g, "confirm: %s against tonight's build, %zu suspect "
	    "scenario%s", old, suspects.nr, suspects.nr == 1 ? "" : "s");
	if (o2.serials.nr)
		gate_ab(&g2);
	g->out->interrupted |= run_interrupted();
	for (size_t e = 0; e < out2.errors.nr; e++)
		gate_fail(g, out2.status && out2.status != EXIT_REGRESSION ?
		    out2.status : EXIT_INFRA, "confirm", "%s",
		    out2.errors.items[e]);
	for (size_t i = 0; i < g->out->nr_keys; i++) {
		size_t ab = 0;

		if (!which[i])
			continue;
		while (ab < out2.nr_keys && strcmp(out2.keys[ab].key,
		    g->out->keys[i].key))
			ab++;
		/* Cut short, the A/B clears nothing: damaged state. */
		if (g->out->interrupted)
			strlist_addf(&g->out->keys[i].notes, "the A/B against "
			    "%s was interrupted: the history decides alone",
			    old);
		else if (ab < out2.nr_keys && g2.work[ab].cmp)
			settle_key(g, i, old, &g2, ab);
		else
			strlist_addf(&g->out->keys[i].notes, "the A/B against "
			    "%s measured nothing: the history decides alone",
			    old);
	}
	for (size_t i = 0; g2.work && i < out2.nr_keys; i++)
		gate_work_release(&g2.work[i]);
	free(g2.work);
	free((char *)g2.out_dir);
	gate_outcome_release(&out2);
	strlist_release(&suspects);
	strlist_release(&o2.serials);
	strlist_release(&o2.connect);
}

void
gate_confirm(struct gate_ctx *g)
{
	size_t nr = g->out->nr_keys;
	char **old;		/* each key's previous build and suspects */
	size_t *len;
	bool *which;
	struct shares sh = { STRLIST_INIT, NULL, 0, 0, g };

	if (!g->o->confirm_apk && !g->cfg->baseline.previous_apk)
		return;
	old = xcalloc(nr + 1, sizeof(*old));
	len = xcalloc(nr + 1, sizeof(*len));
	which = xcalloc(nr + 1, sizeof(*which));
	sh.count = xcalloc(nr + 1, sizeof(*sh.count));
	/*
	 * A shard's A/B spends its shard's part of the night's alpha: an
	 * undecided or suspect scene fails the night on the A/B's word
	 * alone, so the shards' A/Bs together must stay within alpha.
	 */
	for (size_t i = 0; i < nr; i++)
		if (g->work[i].cmp)
			sh.part += gate_share(g->work[i].cmp->nr_scenarios,
			    nr, g->cfg->scenarios.nr);
	sh.part = sh.part > 0 ? fmin(sh.part, 1) : 1;
	for (size_t i = 0; i < nr; i++) {
		struct strlist s = STRLIST_INIT;
		struct strbuf sb = STRBUF_INIT;
		char *path;

		if (!g->work[i].cmp || run_interrupted())
			continue;
		compare_suspects(&s, g->work[i].cmp);
		if (!s.nr || !(path = old_build(g, i))) {
			strlist_release(&s);
			continue;
		}
		strlist_add(&sh.keys, g->out->keys[i].key);
		sh.count[sh.keys.nr - 1] = s.nr;
		sh.total += s.nr;
		/* The group: the previous build, then the suspects. */
		strbuf_addstr(&sb, path);
		for (size_t k = 0; k < s.nr; k++)
			strbuf_addf(&sb, "%c%s", '\0', s.items[k]);
		old[i] = strbuf_detach(&sb, &len[i]);
		strlist_release(&s);
		free(path);
	}
	/*
	 * One A/B per previous build and suspect set, its keys' phones
	 * together: a key measures its own suspects and no other's.
	 */
	for (size_t i = 0; i < nr; i++) {
		if (!old[i] || run_interrupted())
			continue;
		for (size_t j = i; j < nr; j++)
			which[j] = old[j] && len[j] == len[i] &&
			    !memcmp(old[j], old[i], len[i]);
		confirm_group(g, old[i], which, &sh);
		for (size_t j = nr; j-- > i;)
			if (which[j]) {
				free(old[j]);
				old[j] = NULL;
				which[j] = false;
			}
	}
	for (size_t i = 0; i < nr; i++)
		free(old[i]);
	free(old);
	free(len);
	free(which);
	free(sh.count);
	strlist_release(&sh.keys);
}
