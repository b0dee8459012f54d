/*
 * report_load.c: read what a report is built from.
 *
 * For each comparison.json named on the command line:
 *
 *   current results   `current.file` as written by compare: as given (the
 *                     usual case, compare and report run from one
 *                     directory), else relative to the comparison file's
 *                     directory (a report directory moved elsewhere).  Not
 *                     found: a note, and no frame charts or hygiene.
 *   baseline runs     each `baselines[].file` found the same way; those
 *                     that are not files (compare --against names them
 *                     "REF@COMMIT") are taken from the history by run id.
 *   history           with a baseline store (--repo, else baseline.repo):
 *                     the newest report.history runs of the package and
 *                     device key on the ref (the REF of "REF@COMMIT"
 *                     baselines, else baseline.ref), the current run left
 *                     out, read once per device for all its shards.  A
 *                     store that cannot be read costs the trend lines, not
 *                     the report.
 *
 * An existing file that does not parse is an error: a report that quietly
 * drops a device's data would mislead.
 */
#include <ctype.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_sample.h"
#include "baseline_store.h"
#include "compare.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "report.h"
#include "report_int.h"
#include "results.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Runs of history when there is no configuration (report.history). */
#define DEFAULT_HISTORY 20

/* `file` as given when it exists, else next to `base`; NULL: neither. */
static char *
resolve(const char *file, const char *base)
{
	char *copy, *path = NULL;

	if (!file || !*file)
		return NULL;
	if (file_exists(file))
		return xstrdup(file);
	if (file[0] == '/')
		return NULL;
	copy = xstrdup(base);
	path = xasprintf("%s/%s", dirname(copy), file);
	free(copy);
	if (!file_exists(path)) {
		free(path);
		return NULL;
	}
	return path;
}

static void
own(struct report_input *in, struct results *r)
{
	XALLOC_GROW(in->owned, in->nr_owned + 1, in->alloc_owned);
	in->owned[in->nr_owned++] = r;
}

/* Read the current results and the baseline files of `in`. */
static int
read_files(struct report_input *in)
{
	const struct comparison *c = in->cmp;
	struct results *r;
	char *path;
	int rc;

	path = resolve(c->current.file, in->path);
	if (!path && c->current.file)
		strlist_addf(&in->notes, "current results '%s' not found: "
		    "no frame-time charts, hygiene or failed iterations",
		    c->current.file);
	if (path) {
		rc = results_read(&in->current, path);
		free(path);
		if (rc)
			return rc;
		own(in, in->current);
	}
	in->baselines = xcalloc(c->nr_baselines + 1,
	    sizeof(*in->baselines));
	for (size_t i = 0; i < c->nr_baselines; i++) {
		path = resolve(c->baselines[i].file, in->path);
		if (!path)
			continue;
		rc = results_read(&r, path);
		free(path);
		if (rc)
			return rc;
		own(in, r);
		in->baselines[in->nr_baselines++] = r;
	}
	return 0;
}

/* "REF@0123abcd" (compare --against): REF; else NULL. */
static char *
against_ref(const struct comparison *c)
{
	for (size_t i = 0; i < c->nr_baselines; i++) {
		const char *f = c->baselines[i].file, *at;
		size_t n = 0;

		if (!f || !(at = strrchr(f, '@')) || at == f)
			continue;
		while (isxdigit((unsigned char)at[1 + n]))
			n++;
		if (n >= 7 && !at[1 + n])
			return xstrndup(f, (size_t)(at - f));
	}
	return NULL;
}

/*
 * Open the store for reading: a network repository from its cache when
 * there is one (a report touches no network it need not), else fetched.
 * NULL with a note when there is none or it cannot be opened.
 */
static struct baseline_store *
open_store(const struct report_opts *o, struct strlist *notes)
{
	const char *repo = o->repo;
	struct baseline_store_opts so;
	struct baseline_store *bs = NULL;

	if (!repo && o->cfg)
		repo = o->cfg->baseline.repo;
	if (!repo || !*repo)
		return NULL;
	baseline_opts_from_config(&so, o->cfg, repo);
	so.offline = 1;
	if (!baseline_store_open(&bs, &so))
		return bs;
	so.offline = 0;
	if (!baseline_store_open(&bs, &so))
		return bs;
	strlist_addf(notes, "no trend lines: %s", jg_error_msg());
	return NULL;
}

/* The history of `package`/`key`, read once. */
static struct report_history *
history_of(struct report_inputs *ri, struct baseline_store *bs,
    const char *ref, const char *package, const char *key, size_t max,
    struct strlist *notes)
{
	struct baseline_entry *e = NULL;
	struct report_history *h;
	size_t nr = 0;

	for (size_t i = 0; i < ri->nr_hist; i++)
		if (!strcmp(ri->hist[i].package, package) &&
		    !strcmp(ri->hist[i].key, key))
			return &ri->hist[i];
	XALLOC_GROW(ri->hist, ri->nr_hist + 1, ri->alloc_hist);
	h = &ri->hist[ri->nr_hist++];
	memset(h, 0, sizeof(*h));
	h->package = xstrdup(package);
	h->key = xstrdup(key);
	if (baseline_store_history(&e, &nr, bs, ref, package, key, max)) {
		strlist_addf(notes, "no trend lines for %s: %s", key,
		    jg_error_msg());
		return h;
	}
	h->runs = xcalloc(nr + 1, sizeof(*h->runs));
	for (size_t i = 0; i < nr; i++) {
		char *name = xasprintf("%s@%.12s", ref, e[i].commit);
		struct results *r;

		if (results_parse(&r, e[i].data, e[i].len, name))
			strlist_addf(notes, "trend lines skip %s: %s", name,
			    jg_error_msg());
		else
			h->runs[h->nr++] = r;
		free(name);
	}
	baseline_entries_free(e, nr);
	return h;
}

static int
same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Borrow the history runs for `in`, and its baselines not on disk. */
static void
attach_history(struct report_input *in, const struct report_history *h)
{
	const struct comparison *c = in->cmp;

	in->history = xcalloc(h->nr + 1, sizeof(*in->history));
	for (size_t i = 0; i < h->nr; i++)
		if (!same(h->runs[i]->run.id, c->current.run_id))
			in->history[in->nr_history++] = h->runs[i];
	if (in->nr_baselines)
		return;
	for (size_t i = 0; i < c->nr_baselines; i++)
		for (size_t j = 0; j < h->nr; j++)
			if (same(h->runs[j]->run.id, c->baselines[i].run_id)) {
				in->baselines[in->nr_baselines++] =
				    h->runs[j];
				break;
			}
}

static void
load_history(struct report_inputs *ri, const struct report_opts *o,
    struct strlist *notes)
{
	size_t max = o->cfg ? (size_t)o->cfg->report.history :
	    DEFAULT_HISTORY;
	struct baseline_store *bs;

	if (!max || !(bs = open_store(o, notes)))
		return;
	for (size_t i = 0; i < ri->nr; i++) {
		struct report_input *in = &ri->in[i];
		const struct comparison *c = in->cmp;
		char *ref;

		if (!c->package || !c->device)
			continue;
		ref = against_ref(c);
		if (!ref)
			ref = xstrdup(o->cfg && o->cfg->baseline.ref ?
			    o->cfg->baseline.ref : "main");
		attach_history(in, history_of(ri, bs, ref, c->package,
		    c->device, max, notes));
		free(ref);
	}
	baseline_store_free(bs);
}

int
report_load(struct report_inputs *ri, const struct report_opts *o,
    struct strlist *notes)
{
	int rc = 0;

	memset(ri, 0, sizeof(*ri));
	ri->in = xcalloc(o->nr_comparisons + 1, sizeof(*ri->in));
	for (size_t i = 0; i < o->nr_comparisons && !rc; i++) {
		struct report_input *in = &ri->in[ri->nr++];

		in->path = xstrdup(o->comparisons[i]);
		strlist_init(&in->notes);
		rc = comparison_read(&in->cmp, in->path);
		if (!rc)
			rc = read_files(in);
	}
	if (!rc)
		load_history(ri, o, notes);
	return rc;
}

void
report_inputs_release(struct report_inputs *ri)
{
	for (size_t i = 0; i < ri->nr; i++) {
		struct report_input *in = &ri->in[i];

		free(in->path);
		comparison_free(in->cmp);
		for (size_t j = 0; j < in->nr_owned; j++)
			results_free(in->owned[j]);
		free(in->owned);
		free(in->baselines);
		free(in->history);
		strlist_release(&in->notes);
	}
	for (size_t i = 0; i < ri->nr_hist; i++) {
		for (size_t j = 0; j < ri->hist[i].nr; j++)
			results_free(ri->hist[i].runs[j]);
		free(ri->hist[i].runs);
		free(ri->hist[i].package);
		free(ri->hist[i].key);
	}
	free(ri->hist);
	free(ri->in);
	memset(ri, 0, sizeof(*ri));
}
