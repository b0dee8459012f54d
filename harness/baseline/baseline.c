/*
 * baseline.c: open, sample, record and history over the store
 * (baseline.h).
 *
 * The window walks the ref's first-parent history of the key's file,
 * newest first, and keeps a version until it has `history` of them or has
 * kept an acceptance: the accepted run is the first of its window, because
 * `baseline accept` says the change it carries is intended, and pooling it
 * with the runs it replaced would make the intended change look like noise
 * between sessions, and the next night of the accepted build look like a
 * regression against the old ones.
 */
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

void
baseline_opts_from_config(struct baseline_store_opts *o,
    const struct config_baseline *cfg, const char *repo)
{
	memset(o, 0, sizeof(*o));
	if (cfg) {
		o->repo = cfg->repo;
		o->cache_dir = cfg->cache_dir;
		o->ssh_key = cfg->ssh_key;
		o->known_hosts = cfg->known_hosts;
		o->token_env = cfg->token_env;
		o->token_user = cfg->token_user;
		o->push_retries = cfg->push_retries;
		o->author_name = cfg->author_name;
		o->author_email = cfg->author_email;
	}
	if (repo)
		o->repo = repo;
}

int
baseline_open(struct baseline_store **out, const struct config_baseline *cfg,
    const char *repo)
{
	struct baseline_store_opts o;

	*out = NULL;
	baseline_opts_from_config(&o, cfg, repo);
	if (!o.repo || !*o.repo)
		return jg_error_set(JG_EINVAL, "no baseline repository: pass "
		    "--repo URL or set baseline.repo in the configuration (to "
		    "start one: 'git init --bare baselines.git' beside the "
		    "configuration and \"baseline\": {\"repo\": "
		    "\"baselines.git\"})");
	return baseline_store_open(out, &o);
}

/* ---- sample ---------------------------------------------------------- */

void
baseline_sample_release(struct baseline_sample *s)
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
baseline_sample_load(struct baseline_sample *s, struct baseline_store *bs,
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
		/* An acceptance opens the window. */
		if (e[i].accepted_by) {
			s->from_accept = true;
			break;
		}
	}
	baseline_entries_free(e, nr);
	if (rc)
		baseline_sample_release(s);
	return rc;
}

/* ---- record ---------------------------------------------------------- */

int
baseline_record_run(char out[BASELINE_OID_HEXSZ + 1],
    struct baseline_store *bs, const char *branch, const struct results *r,
    const char *data, size_t len, const char *verdict, const char *reason)
{
	struct baseline_commit_info info = { 0 };
	struct baseline_gc_stats st;
	int rc;

	info.app_version = r->app.version_name ? r->app.version_name :
	    "unknown";
	info.run_id = r->run.id;
	info.verdict = verdict;
	info.build_id = r->app.build_id;
	info.reason = reason;
	rc = baseline_store_record(out, bs, branch, r->app.package,
	    r->device.key, data, len, &info);
	/* The run is recorded: a store that cannot be packed is still
	 * whole, and the caller tells it (baseline_store_pack_error()). */
	if (!rc)
		baseline_store_pack_loose(&st, bs, BASELINE_PACK_LOOSE);
	return rc;
}

int
baseline_record_file(char out[BASELINE_OID_HEXSZ + 1], int *attempts,
    struct baseline_store *bs, const char *branch, const char *path,
    const char *verdict)
{
	struct results *r = NULL;
	struct strbuf data = STRBUF_INIT;
	int rc;

	*attempts = 0;
	rc = file_read(&data, path);
	/* Strict: these bytes are committed as they are (baseline.h). */
	if (!rc)
		rc = results_parse_strict(&r, data.buf, data.len, path);
	if (rc)
		goto out;
	if (!r->app.package || !r->device.key || !r->run.id) {
		rc = jg_error_set(JG_EINVAL, "'%s' has no %s", path,
		    !r->app.package ? "app.package" : !r->device.key ?
		    "device.key" : "run.id");
		goto out;
	}
	rc = baseline_record_run(out, bs, branch, r, data.buf, data.len,
	    verdict, NULL);
	*attempts = baseline_store_attempts(bs);
out:
	results_free(r);
	strbuf_release(&data);
	return rc;
}

/* ---- history for trend lines ------------------------------------------ */

void
baseline_trends_init(struct baseline_trends *t,
    const struct config_baseline *cfg, const char *repo,
    struct baseline_store *bs)
{
	memset(t, 0, sizeof(*t));
	baseline_opts_from_config(&t->opts, cfg, repo);
	t->bs = bs;
}

/* Offline first: a report touches no network it need not. */
static int
trends_open(struct baseline_trends *t, struct strlist *notes)
{
	if (t->bs)
		return 0;
	if (t->failed)
		return -1;
	t->opts.offline = 1;
	if (!baseline_store_open(&t->bs, &t->opts)) {
		t->own = true;
		return 0;
	}
	t->opts.offline = 0;
	if (!baseline_store_open(&t->bs, &t->opts)) {
		t->own = true;
		return 0;
	}
	strlist_addf(notes, "no trend lines: %s", jg_error_msg());
	t->failed = true;
	return -1;
}

int
baseline_trends_load(void *trends, struct results ***out, size_t *nr,
    const char *ref, const char *package, const char *key, size_t max,
    struct strlist *notes)
{
	struct baseline_trends *t = trends;
	struct baseline_entry *e = NULL;
	size_t n = 0;

	*out = NULL;
	*nr = 0;
	if (trends_open(t, notes))
		return -1;
	if (baseline_store_history(&e, &n, t->bs, ref, package, key, max)) {
		strlist_addf(notes, "no trend lines for %s: %s", key,
		    jg_error_msg());
		return -1;
	}
	*out = xcalloc(n + 1, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		char *name = xasprintf("%s@%.12s", ref, e[i].commit);
		struct results *r;

		if (results_parse(&r, e[i].data, e[i].len, name))
			strlist_addf(notes, "trend lines skip %s: %s", name,
			    jg_error_msg());
		else
			(*out)[(*nr)++] = r;
		free(name);
	}
	baseline_entries_free(e, n);
	return 0;
}

void
baseline_trends_release(struct baseline_trends *t)
{
	if (t->own)
		baseline_store_free(t->bs);
	memset(t, 0, sizeof(*t));
}
