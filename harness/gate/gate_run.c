/*
 * gate_run.c: the runs of a gate: the first, of every selected device,
 * and the extra batches of one scenario gate_look.c asks for, each a new
 * session after a cool-down; and the account of what each run_execute()
 * call reported.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "exitstatus.h"
#include "gate.h"
#include "gate_int.h"
#include "run.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Account for one run_execute() call: its problems, its status, and each
 * failed device's key, whose run is then not recorded and whose device
 * runs no more batches (a lost device stays lost; a scenario that failed
 * every iteration would fail again).
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
			key->run_status = exit_status_merge(key->run_status,
			    d->status);
		}
	}
	if (r->status && !r->errors.nr && !r->nr_devices)
		gate_fail(g, r->status, "run", "nothing ran");
	g->out->status = exit_status_merge(g->out->status, r->status);
}

void
gate_run_opts(struct gate_ctx *g, struct run_opts *ro)
{
	run_opts_init(ro);
	ro->cfg = g->cfg;
	ro->out_dir = g->out_dir;
	/* An A/B measures two builds: neither is tonight's alone. */
	ro->build_id = g->o->ab_old_apk ? NULL : g->o->build_id;
	ro->progress = g->o->progress;
	ro->progress_fp = g->o->progress_fp ? g->o->progress_fp : stderr;
}

/* The first run, every device; then one key per device key. */
int
gate_first_run(struct gate_ctx *g)
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
	return gate_keys_from_run(g);
}

int
gate_keys_from_run(struct gate_ctx *g)
{
	struct gate_outcome *out = g->out;

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
	/* A new session, not more of tonight's: see docs/method.md, step 1. */
	ro.cooldown_ms = g->cfg->compare.session.cooldown_s * 1000;
	gate_note(g, "run: %d more iteration%s of '%s' on %s%s", n,
	    n == 1 ? "" : "s", scenario, serials->items[0],
	    serials->nr > 1 ? " and others" : "");
	run_report_init(&rr);
	run_execute(&ro, &rr);
	gate_run_account(g, &rr);
	run_report_release(&rr);
	run_opts_release(&ro);
}
