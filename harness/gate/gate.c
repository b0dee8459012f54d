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
 * This file opens the store and calls the stages in order: gate_run.c
 * runs the devices, gate_look.c compares (and asks gate_run.c for more),
 * gate_deliver.c reports, mails and records; gate_outcome.c holds what
 * they all write into.
 */
#include <stdlib.h>
#include <string.h>

#include "baseline_store.h"
#include "exitstatus.h"
#include "config.h"
#include "error.h"
#include "gate.h"
#include "gate_int.h"
#include "run.h"
#include "strlist.h"
#include "banned.h"

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
	gate_fail(g, exit_status_for_lookup(rc), "baseline", "%s",
	    jg_error_msg());
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

void
gate_after_run(struct gate_ctx *g)
{
	struct gate_outcome *out = g->out;

	out->interrupted = run_interrupted();
	for (size_t i = 0; i < out->nr_keys; i++)
		if (!gate_key_read(g, i))
			gate_key_compare(g, i, 1);
	if (!out->interrupted)
		gate_adapt(g);
	out->interrupted = run_interrupted();
	if (!out->interrupted)
		gate_confirm(g);	/* issue 46: confirm before failing */
	out->interrupted = run_interrupted();
	gate_settle(g);
	gate_trace(g);		/* issue 20: diagnose.trace */
	gate_bisect(g);		/* issue 53: --bisect */
	gate_keys_done(g);	/* issue 51: the report reads them back */
	run_unlock_devices();	/* the phones' last command: run.h */
	gate_report(g);
	gate_mail(g);
	gate_record(g);
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
		run_unlock_devices();	/* the last device command is done */
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
	rc = baseline_open(&g.bs, &g.cfg->baseline, o->repo);
	if (rc) {
		gate_fail(&g, exit_status_for_lookup(rc), "baseline", "%s",
		    jg_error_msg());
		goto out;
	}
	if (ref_check(&g) || gate_first_run(&g))
		goto out;
	gate_after_run(&g);
out:
	run_unlock_devices();
	ctx_release(&g);
	/* Interrupted in any stage, even after measuring: never a pass. */
	if (run_interrupted()) {
		out->interrupted = true;
		out->status = exit_status_merge(out->status, EXIT_INFRA);
	}
	return out->status;
}
