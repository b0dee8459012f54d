/*
 * baseline.h: the baseline runs as compare, gate, report and the
 * `baseline` command use them: open, sample, record, history.
 *
 * One module over the store (baseline_store.h), so that each of these is
 * written once:
 *
 *   open     the store with the options baseline.* gives (repo, cache,
 *            credentials, retries, identity), a --repo flag overriding
 *            the repository;
 *   sample   the baseline of one device key is its window: the newest
 *            `history` versions of <package>/<key>/results.json on a ref,
 *            newest first, stopping at the newest acceptance (`baseline
 *            accept`): an accepted change starts a new window, so the
 *            runs it replaced are never pooled with it;
 *   record   a run's results file, byte for byte, as its key's newest
 *            baseline, the commit naming run, version and verdict;
 *   history  the newest runs of a key for trend lines, through a store
 *            opened on first use for reading, in the shape report.h's
 *            history hook takes (report never opens the store itself).
 */
#ifndef JG_BASELINE_H
#define JG_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "baseline_store.h"

struct config_baseline;
struct results;
struct strlist;

/*
 * Fill *o from `cfg` (NULL: defaults) with `repo`, when not NULL, as the
 * repository.  Strings are borrowed from `cfg` and `repo`.
 */
void baseline_opts_from_config(struct baseline_store_opts *o,
    const struct config_baseline *cfg, const char *repo);

/*
 * Open the store named by `repo`, else baseline.repo, with the
 * configuration's options.  JG_EINVAL when neither names one; otherwise
 * baseline_store_open()'s errors.
 */
int baseline_open(struct baseline_store **out,
    const struct config_baseline *cfg, const char *repo);

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

/*
 * Commit run `r`, whose file holds the `len` bytes at `data`, as the
 * baseline of its package and device key on `branch`, with `verdict`,
 * and `reason` for an acceptance (NULL: a recorded run).  A run whose app
 * reported no version is recorded as version "unknown".  `r` must have
 * app.package, device.key and run.id, and be what a strict read
 * (results_parse_strict()) made of `data`: the bytes are committed as
 * they are, so a value out of its limits must have been refused.  The
 * commit id goes to `out`.  Once BASELINE_PACK_LOOSE objects are loose
 * the store's loose objects are packed (baseline_store_pack_loose()); a
 * failure there leaves the run recorded and 0 returned, and
 * baseline_store_pack_error() says what it was.  Returns 0 or
 * baseline_store_record()'s error.
 */
int baseline_record_run(char out[BASELINE_OID_HEXSZ + 1],
    struct baseline_store *bs, const char *branch, const struct results *r,
    const char *data, size_t len, const char *verdict, const char *reason);

/*
 * The same for the results file at `path`, read and checked here: one
 * without app.package, device.key or run.id is JG_EINVAL, and so is one
 * that a strict read refuses (results_parse_strict()).  The number of
 * attempts (baseline_store_attempts()) goes to *attempts.
 */
int baseline_record_file(char out[BASELINE_OID_HEXSZ + 1], int *attempts,
    struct baseline_store *bs, const char *branch, const char *path,
    const char *verdict);

/*
 * Trend lines: the history of device keys read for a report.  The store
 * is opened on the first load, for reading: a network repository from
 * its cache when it has one (a report touches no network it need not),
 * else fetched; or it is one the caller already holds (gate).
 */
struct baseline_trends {
	struct baseline_store_opts opts;
	struct baseline_store *bs;
	bool own;		/* opened here: freed by release */
	bool failed;		/* could not be opened: no trend lines */
};

/*
 * Prepare `t` to open the store of `cfg`, with `repo` overriding
 * baseline.repo, or to read `bs` when not NULL (borrowed).
 */
void baseline_trends_init(struct baseline_trends *t,
    const struct config_baseline *cfg, const char *repo,
    struct baseline_store *bs);

/*
 * The newest `max` runs of `package`/`key` on `ref`, parsed, newest first,
 * into *out (an array the caller frees, and each run with results_free)
 * and *nr.  What could not be read is a line in `notes` ("no trend
 * lines: ...", once, when the store cannot be opened; "no trend lines for
 * KEY: ..."; "trend lines skip REF@COMMIT: ..." for a run that does not
 * parse), never an error the caller must handle.  `trends` is a struct
 * baseline_trends: the signature is report.h's history hook.  Returns 0,
 * or -1 with nothing loaded.
 */
int baseline_trends_load(void *trends, struct results ***out, size_t *nr,
    const char *ref, const char *package, const char *key, size_t max,
    struct strlist *notes);

/* Close a store opened here. */
void baseline_trends_release(struct baseline_trends *t);

#endif
