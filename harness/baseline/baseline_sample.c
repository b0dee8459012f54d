/*
 * baseline_sample.c: the store opened from the configuration, and a device
 * key's baseline window (baseline_sample.h).
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

#include "baseline_sample.h"
#include "config.h"
#include "error.h"
#include "results.h"
#include "xalloc.h"
#include "banned.h"

void
baseline_opts_from_config(struct baseline_store_opts *o,
    const struct config *cfg, const char *repo)
{
	memset(o, 0, sizeof(*o));
	if (cfg) {
		o->repo = cfg->baseline.repo;
		o->cache_dir = cfg->baseline.cache_dir;
		o->ssh_key = cfg->baseline.ssh_key;
		o->known_hosts = cfg->baseline.known_hosts;
		o->token_env = cfg->baseline.token_env;
		o->token_user = cfg->baseline.token_user;
		o->push_retries = cfg->baseline.push_retries;
		o->author_name = cfg->baseline.author_name;
		o->author_email = cfg->baseline.author_email;
	}
	if (repo)
		o->repo = repo;
}

int
baseline_open_configured(struct baseline_store **out, const struct config *cfg,
    const char *repo)
{
	struct baseline_store_opts o;

	*out = NULL;
	baseline_opts_from_config(&o, cfg, repo);
	if (!o.repo || !*o.repo)
		return jg_error_set(JG_EINVAL, "no baseline repository: pass "
		    "--repo URL or set baseline.repo in the configuration");
	return baseline_store_open(out, &o);
}

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
