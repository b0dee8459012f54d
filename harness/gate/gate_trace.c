/*
 * gate_trace.c: a trace to open after a night that regressed (issue 20,
 * diagnose.trace; trace.h).
 *
 * Once every key is decided and before the report, for each key that
 * regressed (diagnose.trace "regression"), or every key ("always"): one
 * more iteration of each scenario that regressed (every scenario of the
 * comparison with "always") runs on the key's first device that is still
 * well, with `perfetto` recording around it (run_trace.c).  The results
 * of that iteration go to OUT/KEY/traces/results.json and the trace to
 * OUT/KEY/traces/<scenario>.perfetto-trace, where the report finds and
 * links it; nothing reads those results for a comparison, so the traced
 * iteration, slowed by the tracing itself, is never measured.
 *
 * A trace that could not be taken (no perfetto, API below 28) is a note
 * and a warning, never a change of the exit status: the night's verdict
 * is already decided.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "config.h"
#include "gate.h"
#include "gate_int.h"
#include "run.h"
#include "strbuf.h"
#include "strlist.h"
#include "trace.h"
#include "xalloc.h"
#include "banned.h"

/* The scenarios of `c` to trace under `mode`, each once. */
static void
scenarios_to_trace(struct strlist *out, const struct comparison *c,
    enum config_trace mode)
{
	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];

		if (mode == TRACE_ALWAYS || e->verdict == CMP_REGRESSION)
			if (e->scenario && strlist_find(out, e->scenario) < 0)
				strlist_add(out, e->scenario);
	}
}

/* The key's directory: where its comparison.json is. */
static char *
key_dir(const struct gate_key *k)
{
	char *copy = xstrdup(k->comparison ? k->comparison : k->current);
	char *dir = xstrdup(dirname(copy));

	free(copy);
	return dir;
}

static void
trace_key(struct gate_ctx *g, size_t i)
{
	struct gate_key *k = &g->out->keys[i];
	struct gate_work *w = &g->work[i];
	struct strlist scns = STRLIST_INIT, serial = STRLIST_INIT;
	struct run_report rr;
	struct run_opts ro;
	char *dir;

	scenarios_to_trace(&scns, w->cmp, g->cfg->diagnose.trace);
	for (size_t d = 0; d < k->serials.nr && !serial.nr; d++)
		if (!w->alive || w->alive[d])
			strlist_add(&serial, k->serials.items[d]);
	if (!scns.nr || !serial.nr) {
		strlist_release(&scns);
		strlist_release(&serial);
		return;
	}
	gate_run_opts(g, &ro);
	strlist_copy(&ro.serials, &serial);
	strlist_copy(&ro.scenarios, &scns);
	ro.iterations = 1;
	ro.warmups = 0;
	ro.results_sub = TRACE_DIR;
	ro.trace = true;
	run_report_init(&rr);
	run_execute(&ro, &rr);
	dir = key_dir(k);
	for (size_t s = 0; s < scns.nr; s++) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&path, "%s/%s/", dir, TRACE_DIR);
		trace_file_name(&path, scns.items[s]);
		if (!stat(path.buf, &st))
			strlist_addf(&k->notes, "trace of '%s': %s (open it "
			    "in https://ui.perfetto.dev)", scns.items[s],
			    path.buf);
		else
			strlist_addf(&k->notes, "no trace of '%s'%s%s",
			    scns.items[s], rr.nr_devices &&
			    rr.devices[0].warnings.nr ? ": " : "",
			    rr.nr_devices && rr.devices[0].warnings.nr ?
			    rr.devices[0].warnings.items[0] : "");
		strbuf_release(&path);
	}
	free(dir);
	run_report_release(&rr);
	run_opts_release(&ro);
	strlist_release(&scns);
	strlist_release(&serial);
}

void
gate_trace(struct gate_ctx *g)
{
	enum config_trace mode = g->cfg->diagnose.trace;

	if (mode == TRACE_NEVER || g->out->interrupted)
		return;
	for (size_t i = 0; i < g->out->nr_keys && !run_interrupted(); i++) {
		const struct gate_key *k = &g->out->keys[i];

		if (!k->compared || k->no_data || !g->work[i].cmp)
			continue;
		if (mode == TRACE_REGRESSION && k->verdict != CMP_REGRESSION)
			continue;
		trace_key(g, i);
	}
}
