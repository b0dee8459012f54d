/*
 * gate_store.c: what `jankgate gate` reads from and writes to the baseline
 * repository.
 *
 * The same store calls as `jankgate compare --against` and `jankgate
 * baseline record`: the baseline sample of a device key is its window
 * (baseline_sample.h); recording commits the run's bytes as written on
 * disk, with the gate's verdict in the commit.  The store is
 * opened once per gate, before any device is touched, so a wrong
 * repository name costs nothing, and a remote one is fetched once: a job
 * that pushed meanwhile makes our push be refused and retried on its tip
 * (baseline_store_record), which is what a nightly of many jobs needs.
 */
#include <stdlib.h>
#include <string.h>

#include "baseline_store.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "gate_int.h"
#include "results.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

int
gate_store_record(char out[BASELINE_OID_HEXSZ + 1], int *attempts,
    struct baseline_store *bs, const char *branch, const char *path,
    const char *verdict)
{
	struct baseline_commit_info info = { 0 };
	struct results *r = NULL;
	struct strbuf data = STRBUF_INIT;
	int rc;

	*attempts = 0;
	rc = file_read(&data, path);
	if (!rc)
		rc = results_parse(&r, data.buf, data.len, path);
	if (rc)
		goto out;
	if (!r->app.package || !r->device.key || !r->run.id) {
		rc = jg_error_set(JG_EINVAL, "'%s' has no %s", path,
		    !r->app.package ? "app.package" : !r->device.key ?
		    "device.key" : "run.id");
		goto out;
	}
	info.app_version = r->app.version_name ? r->app.version_name :
	    "unknown";
	info.run_id = r->run.id;
	info.verdict = verdict;
	rc = baseline_store_record(out, bs, branch, r->app.package,
	    r->device.key, data.buf, data.len, &info);
	*attempts = baseline_store_attempts(bs);
out:
	results_free(r);
	strbuf_release(&data);
	return rc;
}
