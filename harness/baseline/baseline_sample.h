/*
 * baseline_sample.h: what compare reads from the baseline store, the same
 * way for `compare --against`, `gate`, `report` and `baseline`.
 *
 * The store is opened with the options the configuration gives (repo,
 * cache, credentials, retries, identity), a --repo flag overriding the
 * repository.  The baseline sample of one device key is its window: the
 * newest `history` versions of <package>/<key>/results.json on a ref,
 * newest first, that stops at the newest acceptance (`baseline accept`):
 * an accepted change starts a new window (DESIGN §7), so the runs it
 * replaced are never pooled with it.
 */
#ifndef JG_BASELINE_SAMPLE_H
#define JG_BASELINE_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>

#include "baseline_store.h"

struct config;
struct results;

/*
 * Fill *o from `cfg` (NULL: defaults) with `repo`, when not NULL, as the
 * repository.  Strings are borrowed from `cfg` and `repo`.
 */
void baseline_opts_from_config(struct baseline_store_opts *o,
    const struct config *cfg, const char *repo);

/*
 * Open the store named by `repo`, else baseline.repo, with the
 * configuration's options.  JG_EINVAL when neither names one; otherwise
 * baseline_store_open()'s errors.
 */
int baseline_open_configured(struct baseline_store **out,
    const struct config *cfg, const char *repo);

/* One device key's window, newest run first. */
struct baseline_sample {
	struct results **runs;
	char **names;		/* "REF@COMMIT", for messages */
	size_t nr;
	bool from_accept;	/* the window starts at an acceptance */
};

/*
 * Load the window of `package`/`key` on `ref`: at most `history` runs,
 * none older than the newest acceptance.  *s is empty for a first run.
 * Returns 0, or the store's or results_parse()'s error with *s empty.
 */
int baseline_sample_load(struct baseline_sample *s, struct baseline_store *bs,
    const char *ref, const char *package, const char *key, int history);

/* Free what `s` holds; *s is left empty. */
void baseline_sample_release(struct baseline_sample *s);

#endif
