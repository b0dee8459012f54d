/*
 * gate_store.c: what `jankgate gate` reads from and writes to the baseline
 * repository.
 *
 * The same store calls as `jankgate compare --against` and `jankgate
 * baseline record`: the baseline sample of a device key is the last
 * baseline.history versions of <package>/<key>/results.json on the ref,
 * newest first, each named "REF@COMMIT"; recording commits the run's bytes
 * as written on disk, with the gate's verdict in the commit.  The store is
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
gate_store_open(struct baseline_store **out, const struct config *cfg,
    const char *repo)
{
	struct baseline_store_opts o;

	memset(&o, 0, sizeof(o));
	o.repo = repo ? repo : cfg->baseline.repo;
	o.cache_dir = cfg->baseline.cache_dir;
	o.ssh_key = cfg->baseline.ssh_key;
	o.known_hosts = cfg->baseline.known_hosts;
	o.token_env = cfg->baseline.token_env;
	o.token_user = cfg->baseline.token_user;
	o.push_retries = cfg->baseline.push_retries;
	o.author_name = cfg->baseline.author_name;
	o.author_email = cfg->baseline.author_email;
	if (!o.repo || !*o.repo)
		return jg_error_set(JG_EINVAL, "no baseline repository: pass "
		    "--repo URL or set baseline.repo in the configuration");
	return baseline_store_open(out, &o);
}

void
gate_sample_release(struct gate_sample *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		results_free(s->runs[i]);
		free(s->names[i]);
	}
	free(s->runs);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

int
gate_sample_load(struct gate_sample *s, struct baseline_store *bs,
    const char *ref, const char *package, const char *key, int history)
{
	struct baseline_entry *e = NULL;
	size_t nr = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = baseline_store_history(&e, &nr, bs, ref, package, key,
	    history > 0 ? (size_t)history : 0);
	if (rc)
		return rc;
	s->runs = xcalloc(nr + 1, sizeof(*s->runs));
	s->names = xcalloc(nr + 1, sizeof(*s->names));
	for (size_t i = 0; i < nr; i++) {
		char *name = xasprintf("%s@%.12s", ref, e[i].commit);

		rc = results_parse(&s->runs[s->nr], e[i].data, e[i].len, name);
		if (rc) {
			free(name);
			break;
		}
		s->names[s->nr++] = name;
	}
	baseline_entries_free(e, nr);
	if (rc)
		gate_sample_release(s);
	return rc;
}

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
