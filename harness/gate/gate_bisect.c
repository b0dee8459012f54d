/*
 * gate_bisect.c: `gate --bisect` (issue 53), a regressed night that
 * looks for its culprit itself.
 *
 * The range is known when both ends are: the bad build is tonight's
 * (--build-id, else build_id), the good one the build of the newest
 * baseline run of a regressed key whose night passed (gate_bisect_good(),
 * the Jankgate-Build trailer of its commit).  When several keys
 * regressed they must agree on that build: one bisect runs, on the
 * phones of every key that regressed, over the union of their
 * regressions (their comparison.json), which is what `jankgate bisect
 * --from` does with one of them.  Keys whose last passing builds differ
 * are not bisected at all rather than over a range wrong for one of
 * them.  A shard (--shard) does not bisect: it holds part of the night
 * and every shard would bisect on its own.  The builds come from
 * bisect.manifest, or bisect.repo and
 * bisect.build, through the same code as `jankgate bisect`'s options.
 *
 * Whatever the bisect finds or fails at, the night's exit status stays
 * the night's: the bisect's verdict is a line of the outcome
 * (out->bisect) that the table, the report and the mail show, its
 * problems lines of out->errors that do not change the status, and its
 * own report and state under OUT/bisect/ (`jankgate bisect --resume -o
 * OUT/bisect` continues one cut short).  It does not mail on its own.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_store.h"
#include "bisect.h"
#include "bisect_report.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "gate.h"
#include "gate_int.h"
#include "run.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Why there is no bisect tonight: the outcome's line, and a warning. */
static void __attribute__((format(printf, 2, 3)))
not_run(struct gate_ctx *g, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addstr(&sb, "not run: ");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strlist_addf(&g->out->warnings, "bisect: %s", sb.buf);
	g->out->bisect = strbuf_detach(&sb, NULL);
}

/*
 * The good build of key i into *good (borrowed from `e`, which the
 * caller frees), or -1 after not_run().
 */
static int
key_good(struct gate_ctx *g, size_t i, struct baseline_entry **e,
    size_t *nr, const char **good)
{
	const char *key = g->out->keys[i].key;
	long at;

	*good = NULL;
	if (baseline_store_log(e, nr, g->bs, g->ref, g->cfg->app, key, 0)) {
		not_run(g, "%s: %s", key, jg_error_msg());
		return -1;
	}
	if ((at = gate_bisect_good(*e, *nr)) < 0) {
		not_run(g, "%s: no baseline run on '%s' passed, so no build "
		    "is known good", key, g->ref);
		return -1;
	}
	if (!(*e)[at].build_id) {
		not_run(g, "%s: the last passing baseline run (%.10s) has no "
		    "build id, so the good end of the range is unknown (the "
		    "gate records one with --build-id or build_id)", key,
		    (*e)[at].commit);
		return -1;
	}
	*good = (*e)[at].build_id;
	return 0;
}

/*
 * The regressed keys' common good build, its phones and its targets;
 * -1 after not_run().  *good is the caller's.
 */
static int
gather(struct gate_ctx *g, char **good, struct strlist *serials,
    struct strlist *targets)
{
	*good = NULL;
	for (size_t i = 0; i < g->out->nr_keys; i++) {
		const struct gate_key *k = &g->out->keys[i];
		struct baseline_entry *e = NULL;
		size_t nr = 0;
		const char *id;
		int rc;

		if (!k->compared || k->verdict != CMP_REGRESSION)
			continue;
		rc = key_good(g, i, &e, &nr, &id);
		if (!rc && *good && strcmp(*good, id))
			not_run(g, "the keys that regressed last passed on "
			    "different builds (%s, %s on %s): no one range "
			    "holds both culprits", *good, id, k->key);
		else if (!rc && !*good)
			*good = xstrdup(id);
		baseline_entries_free(e, nr);
		if (g->out->bisect)
			return -1;
		if (k->comparison && bisect_targets_from(targets,
		    k->comparison)) {
			not_run(g, "%s", jg_error_msg());
			return -1;
		}
		for (size_t d = 0; d < g->work[i].nr_devs; d++)
			if (g->work[i].alive[d])
				strlist_add(serials, k->serials.items[d]);
	}
	if (!serials->nr) {
		not_run(g, "no phone of the keys that regressed is left");
		return -1;
	}
	return 0;
}

/* The bisect's lines, told as the gate's. */
static void
bisect_note(void *data, const char *line)
{
	gate_note(data, "%s", line);
}

/*
 * The verdict line of the bisect's summary, without its label, and a
 * culprit commit's message after it: the night's reader sees what
 * changed without opening the bisect's report.
 */
static char *
headline(const struct bisect_state *st, const struct bisect_outcome *bo)
{
	struct strbuf sb = STRBUF_INIT;
	const char *subject = NULL;
	char *nl, *p;

	report_bisect_summary(&sb, st, bo->result, bo->good, bo->candidate);
	if ((nl = strchr(sb.buf, '\n')))
		*nl = '\0';
	p = sb.buf + strcspn(sb.buf, " ");
	p += strspn(p, " ");
	if (bo->result == BISECT_NEXT_CULPRIT && bo->candidate < st->nr)
		subject = st->commits[bo->candidate].subject;
	p = xasprintf("%s%s%s", *p ? p : sb.buf, subject ? "; its message: " :
	    "", subject ? subject : "");
	strbuf_release(&sb);
	return p;
}

/* Run the bisect from `good` to tonight's build on `serials`. */
static void
run_bisect(struct gate_ctx *g, const char *good, struct strlist *serials,
    struct strlist *targets)
{
	const struct config *cfg = g->cfg;
	struct bisect_source src = { 0 };
	struct bisect_state *st = NULL;
	struct bisect_outcome bo;
	struct bisect_opts bopt;
	char *dir = xasprintf("%s/bisect", g->out_dir);
	char *range = NULL;

	src.manifest = cfg->bisect.manifest;
	src.repo = cfg->bisect.repo;
	src.build = cfg->bisect.build;
	if (src.repo)
		src.range = range = xasprintf("%s..%s", good,
		    g->o->build_id);
	else {
		src.good = good;
		src.bad = g->o->build_id;
	}
	if (bisect_state_from(&st, &src)) {
		not_run(g, "%s", jg_error_msg());
		goto out;
	}
	strlist_release(&st->targets);
	strlist_copy(&st->targets, targets);
	/* Last night's steps are no part of tonight's bisect. */
	if (file_remove_tree(dir)) {
		not_run(g, "%s", jg_error_msg());
		goto out;
	}
	bisect_opts_init(&bopt, cfg);
	strlist_copy(&bopt.serials, serials);
	strlist_copy(&bopt.connect, &g->o->connect);
	bopt.out_dir = dir;
	bopt.ab_block = cfg->bisect.block;
	bopt.ab_rounds = cfg->bisect.rounds;
	bopt.mail_when = MAIL_NEVER;	/* the gate's mail tells it */
	bopt.progress = g->o->progress;
	bopt.progress_fp = g->o->progress_fp;
	bopt.note = bisect_note;
	bopt.note_data = g;
	gate_note(g, "bisect: %zu builds from %s to %s on %zu phone%s", st->nr,
	    st->commits[0].id, st->commits[st->nr - 1].id, serials->nr,
	    serials->nr == 1 ? "" : "s");
	bisect_outcome_init(&bo);
	bisect_execute(st, &bopt, &bo);
	g->out->bisect = headline(st, &bo);
	if (bo.report)
		g->out->bisect_report = xstrdup(bo.report);
	/* Told, not merged: the exit status is the night's. */
	for (size_t i = 0; i < bo.errors.nr; i++)
		strlist_addf(&g->out->errors, "bisect: %s", bo.errors.items[i]);
	gate_note(g, "bisect: %s", g->out->bisect);
	bisect_outcome_release(&bo);
	bisect_opts_release(&bopt);
out:
	bisect_state_free(st);
	free(range);
	free(dir);
}

void
gate_bisect(struct gate_ctx *g)
{
	struct strlist serials = STRLIST_INIT, targets = STRLIST_INIT;
	bool regression = false;
	char *good = NULL;

	if (!g->o->bisect || g->out->interrupted || run_interrupted())
		return;
	for (size_t i = 0; i < g->out->nr_keys; i++)
		regression = regression || (g->out->keys[i].compared &&
		    g->out->keys[i].verdict == CMP_REGRESSION);
	if (!regression)
		return;
	/* Each shard would bisect its part of the night on its own. */
	if (g->o->shard_count) {
		not_run(g, "a shard sees part of the night: run jankgate "
		    "bisect --from a comparison.json of the merged night");
		return;
	}
	if (!g->o->build_id) {
		not_run(g, "tonight's build id is unknown, so the bad end of "
		    "the range is (set --build-id or build_id)");
		return;
	}
	if (!gather(g, &good, &serials, &targets)) {
		if (!strcmp(good, g->o->build_id))
			not_run(g, "tonight's build %s is the last passing "
			    "run's: no build between them to blame", good);
		else
			run_bisect(g, good, &serials, &targets);
	}
	free(good);
	strlist_release(&serials);
	strlist_release(&targets);
}
