/*
 * gate.c: `jankgate gate`, the stages in their order (gate.h has the whole
 * story), and the runs.
 *
 * Each stage writes what it produced before the next one can fail:
 * run_execute() writes every results file as it measures, a comparison is
 * written as soon as it is made (and again after each look), the report
 * before any mail is attempted, and the baseline is recorded last, from
 * the bytes on disk.  A stage that fails adds its line to out->errors and
 * its exit status to out->status, and the stages after it still run when
 * they can: a lost device does not stop the comparison of the others, a
 * mail server that is down does not stop the baseline.
 *
 * This file opens the store, runs the devices (the first run, and the
 * extra batches gate_look.c asks for) and keeps the account of what each
 * run_execute() call reported; gate_look.c compares, gate_deliver.c
 * reports, mails and records.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_store.h"
#include "cmd.h"
#include "config.h"
#include "error.h"
#include "gate.h"
#include "gate_int.h"
#include "run.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

void
gate_note(struct gate_ctx *g, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!g->o->note)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	g->o->note(g->o->note_data, sb.buf);
	strbuf_release(&sb);
}

void
gate_fail(struct gate_ctx *g, int status, const char *stage,
    const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", stage);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	g->out->status = cmd_exit_merge(g->out->status, status);
	/* A device failing batch after batch is one problem, said once. */
	if (strlist_find(&g->out->errors, sb.buf) < 0) {
		strlist_add(&g->out->errors, sb.buf);
		gate_note(g, "%s: error: %s", stage,
		    sb.buf + strlen(stage) + 2);
	}
	strbuf_release(&sb);
}

void
gate_opts_init(struct gate_opts *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->cfg = cfg;
	strlist_init(&o->serials);
	strlist_init(&o->connect);
	o->mail_when = cfg ? cfg->mail.when : MAIL_ALWAYS;
	o->update = cfg ? cfg->baseline.update : UPDATE_ON_PASS;
	o->progress = RUN_PROGRESS_AUTO;
}

void
gate_opts_release(struct gate_opts *o)
{
	strlist_release(&o->serials);
	strlist_release(&o->connect);
}

void
gate_outcome_init(struct gate_outcome *out)
{
	memset(out, 0, sizeof(*out));
	run_report_init(&out->run);
	strlist_init(&out->errors);
	strlist_init(&out->warnings);
	strlist_init(&out->ci);
}

static void
key_release(struct gate_key *k)
{
	free(k->key);
	strlist_release(&k->serials);
	strlist_release(&k->results);
	free(k->current);
	free(k->comparison);
	strlist_release(&k->regressions);
	strlist_release(&k->blocks);
	free(k->commit_verdict);
	strlist_release(&k->notes);
}

void
gate_outcome_release(struct gate_outcome *out)
{
	for (size_t i = 0; i < out->nr_keys; i++)
		key_release(&out->keys[i]);
	free(out->keys);
	run_report_release(&out->run);
	free(out->report_dir);
	free(out->mail_subject);
	free(out->mail_note);
	free(out->ab_how);
	strlist_release(&out->errors);
	strlist_release(&out->warnings);
	strlist_release(&out->ci);
	memset(out, 0, sizeof(*out));
}

struct gate_key *
gate_key_find_or_add(struct gate_ctx *g, const char *key)
{
	struct gate_outcome *out = g->out;
	struct gate_key *k;

	for (size_t i = 0; i < out->nr_keys; i++)
		if (!strcmp(out->keys[i].key, key))
			return &out->keys[i];
	XALLOC_GROW(out->keys, out->nr_keys + 1, out->alloc_keys);
	k = &out->keys[out->nr_keys++];
	memset(k, 0, sizeof(*k));
	k->key = xstrdup(key);
	strlist_init(&k->serials);
	strlist_init(&k->results);
	strlist_init(&k->regressions);
	strlist_init(&k->blocks);
	strlist_init(&k->notes);
	return k;
}

/*
 * A failed device's key is then not recorded and its device runs no more
 * batches (a lost device stays lost; a scenario that failed every
 * iteration would fail again).
 */
void
gate_run_account(struct gate_ctx *g, const struct run_report *r)
{
	for (size_t i = 0; i < r->errors.nr; i++)
		gate_fail(g, r->status ? r->status : EXIT_INFRA, "run", "%s",
		    r->errors.items[i]);
	for (size_t i = 0; i < r->nr_devices; i++) {
		const struct run_device_report *d = &r->devices[i];

		for (size_t e = 0; e < d->errors.nr; e++) {
			const char *msg = d->errors.items[e];
			int st = d->status ? d->status : EXIT_INFRA;

			/* run's messages mostly name the device already */
			if (strstr(msg, d->serial))
				gate_fail(g, st, "run", "%s", msg);
			else
				gate_fail(g, st, "run", "%s: %s", d->serial,
				    msg);
		}
		for (size_t w = 0; w < d->warnings.nr; w++) {
			char *line = xasprintf("%s: %s", d->serial,
			    d->warnings.items[w]);

			if (strlist_find(&g->out->warnings, line) < 0)
				strlist_add(&g->out->warnings, line);
			free(line);
		}
		if (d->status && !d->errors.nr)
			gate_fail(g, d->status, "run", "%s: failed", d->serial);
		if (!d->status)
			continue;
		for (size_t k = 0; k < g->out->nr_keys; k++) {
			struct gate_key *key = &g->out->keys[k];
			long at = strlist_find(&key->serials, d->serial);

			if (at < 0)
				continue;
			g->work[k].alive[at] = false;
			key->run_status = cmd_exit_merge(key->run_status,
			    d->status);
		}
	}
	if (r->status && !r->errors.nr && !r->nr_devices)
		gate_fail(g, r->status, "run", "nothing ran");
	g->out->status = cmd_exit_merge(g->out->status, r->status);
}

void
gate_run_opts(struct gate_ctx *g, struct run_opts *ro)
{
	run_opts_init(ro);
	ro->cfg = g->cfg;
	ro->out_dir = g->out_dir;
	ro->progress = g->o->progress;
	ro->progress_fp = g->o->progress_fp ? g->o->progress_fp : stderr;
}

/* The first run, every device; then one key per device key. */
static int
first_run(struct gate_ctx *g)
{
	struct gate_outcome *out = g->out;
	struct run_opts ro;

	gate_run_opts(g, &ro);
	strlist_copy(&ro.serials, &g->o->serials);
	strlist_copy(&ro.connect, &g->o->connect);
	ro.shard_index = g->o->shard_index;
	ro.shard_count = g->o->shard_count;
	run_execute(&ro, &out->run);
	run_opts_release(&ro);
	for (size_t i = 0; i < out->run.nr_devices; i++) {
		const struct run_device_report *d = &out->run.devices[i];
		struct gate_key *k;

		if (!d->key || !d->results_path)
			continue;
		k = gate_key_find_or_add(g, d->key);
		strlist_add(&k->serials, d->serial);
		strlist_add(&k->results, d->results_path);
	}
	gate_note(g, "run: %zu device%s, %zu device key%s measured",
	    out->run.nr_devices, out->run.nr_devices == 1 ? "" : "s",
	    out->nr_keys, out->nr_keys == 1 ? "" : "s");
	g->work = xcalloc(out->nr_keys + 1, sizeof(*g->work));
	for (size_t i = 0; i < out->nr_keys; i++) {
		struct gate_work *w = &g->work[i];

		w->nr_devs = out->keys[i].serials.nr;
		w->devs = xcalloc(w->nr_devs, sizeof(*w->devs));
		w->alive = xcalloc(w->nr_devs, sizeof(*w->alive));
		for (size_t d = 0; d < w->nr_devs; d++)
			w->alive[d] = true;
		out->keys[i].current = xstrdup(out->keys[i].results.items[0]);
	}
	gate_run_account(g, &out->run);
	if (!out->nr_keys && !out->status)
		gate_fail(g, EXIT_INFRA, "run", "no device measured anything");
	return out->nr_keys ? 0 : -1;
}

void
gate_run_more(struct gate_ctx *g, const char *scenario, int n,
    const struct strlist *serials)
{
	struct run_report rr;
	struct run_opts ro;

	gate_run_opts(g, &ro);
	strlist_copy(&ro.serials, serials);
	strlist_add(&ro.scenarios, scenario);
	ro.iterations = n;
	ro.warmups = 0;
	ro.append = true;
	/* A new session, not more of tonight's: see compare.h step 3. */
	ro.cooldown_ms = g->cfg->session.cooldown_s * 1000;
	gate_note(g, "run: %d more iteration%s of '%s' on %s%s", n,
	    n == 1 ? "" : "s", scenario, serials->items[0],
	    serials->nr > 1 ? " and others" : "");
	run_report_init(&rr);
	run_execute(&ro, &rr);
	gate_run_account(g, &rr);
	run_report_release(&rr);
	run_opts_release(&ro);
}

/*
 * The ref compared against must exist before a device is touched; an
 * empty repository is a first run, not an error.
 */
static int
ref_check(struct gate_ctx *g)
{
	struct baseline_entry *e = NULL;
	size_t nr = 0;
	int rc = baseline_store_log(&e, &nr, g->bs, g->ref, NULL, NULL, 1);

	baseline_entries_free(e, nr);
	if (!rc)
		return 0;
	gate_fail(g, rc == JG_EINVAL || rc == JG_ENOTFOUND ? EXIT_BAD_INPUT :
	    EXIT_INFRA, "baseline", "%s", jg_error_msg());
	return -1;
}

static void
ctx_release(struct gate_ctx *g)
{
	for (size_t i = 0; g->work && i < g->out->nr_keys; i++)
		gate_work_release(&g->work[i]);
	free(g->work);
	baseline_store_free(g->bs);
}

int
gate_execute(const struct gate_opts *o, struct gate_outcome *out)
{
	struct gate_ctx g = { 0 };
	int rc;

	g.o = o;
	g.cfg = o->cfg;
	g.out = out;
	g.out_dir = o->out_dir ? o->out_dir : o->cfg->out_dir;
	g.ref = o->against ? o->against : o->cfg->baseline.ref;
	g.looks = gate_looks(g.cfg->iterations, g.cfg->max_iterations);

	if (o->ab_old_apk) {
		/* Two builds interleaved: no store, no record. */
		g.looks = o->ab_rounds > 0 ? o->ab_rounds : GATE_AB_ROUNDS;
		if (gate_ab(&g))
			goto out;
		out->interrupted = run_interrupted();
		for (size_t i = 0; i < out->nr_keys; i++)
			strlist_add(&out->keys[i].notes, "baseline not "
			    "updated: an interleaved A/B run is no nightly "
			    "baseline");
		gate_settle(&g);
		gate_report(&g);
		gate_mail(&g);
		goto out;
	}
	/* A wrong repository name must not cost a night of measuring. */
	rc = baseline_open_configured(&g.bs, g.cfg, o->repo);
	if (rc) {
		gate_fail(&g, rc == JG_EINVAL || rc == JG_ENOTFOUND ?
		    EXIT_BAD_INPUT : EXIT_INFRA, "baseline", "%s",
		    jg_error_msg());
		goto out;
	}
	if (ref_check(&g) || first_run(&g))
		goto out;
	out->interrupted = run_interrupted();
	for (size_t i = 0; i < out->nr_keys; i++)
		if (!gate_key_read(&g, i))
			gate_key_compare(&g, i, 1);
	if (!out->interrupted)
		gate_adapt(&g);
	out->interrupted = run_interrupted();
	gate_settle(&g);
	gate_trace(&g);		/* issue 20: diagnose.trace */
	gate_report(&g);
	gate_mail(&g);
	gate_record(&g);
out:
	ctx_release(&g);
	return out->status;
}
