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
 *   history           through the caller's hook (report.h; the baseline
 *                     store in cli and gate): the newest report.history
 *                     runs of the package and device key on the ref (the
 *                     REF of "REF@COMMIT" baselines, else baseline.ref),
 *                     the current run left out, asked once per device for
 *                     all its shards, while the view builds that device
 *                     (report_history_attach()): a report of fifty device
 *                     keys holds one key's history at a time, not fifty
 *                     (issue 51).  History that cannot be read costs the
 *                     trend lines, not the report.
 *
 * An existing file that does not parse is an error: a report that quietly
 * drops a device's data would mislead.  So is one that counts it twice: a
 * comparison given again is left out with a note, and two comparisons of
 * one scenario of one run are an error (check_repeat()).
 */
#include <ctype.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "error.h"
#include "fileio.h"
#include "report.h"
#include "report_int.h"
#include "results.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

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

/*
 * Read the current results and the baseline files of `in`; `strict`
 * refuses a value out of its limits (results.h) instead of reading it as
 * absent.
 */
static int
read_files(struct report_input *in, bool strict)
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
		rc = strict ? results_read_strict(&in->current, path) :
		    results_read(&in->current, path);
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
		rc = strict ? results_read_strict(&r, path) :
		    results_read(&r, path);
		free(path);
		if (rc)
			return rc;
		own(in, r);
		in->baselines[in->nr_baselines++] = r;
	}
	in->nr_baseline_files = in->nr_baselines;
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

/* The history of `package`/`key`, read when no input holds it. */
static struct report_history_runs *
history_of(struct report_inputs *ri, const struct report_history *hook,
    const char *ref, const char *package, const char *key,
    struct strlist *notes)
{
	struct report_history_runs *h = NULL;
	struct strlist said = STRLIST_INIT;

	for (size_t i = 0; i < ri->nr_hist && !h; i++)
		if (!strcmp(ri->hist[i].package, package) &&
		    !strcmp(ri->hist[i].key, key))
			h = &ri->hist[i];
	if (!h) {
		XALLOC_GROW(ri->hist, ri->nr_hist + 1, ri->alloc_hist);
		h = &ri->hist[ri->nr_hist++];
		memset(h, 0, sizeof(*h));
		h->package = xstrdup(package);
		h->key = xstrdup(key);
	}
	if (h->users++)
		return h;
	/* Two phones of one key read it twice: say a problem once. */
	hook->load(hook->data, &h->runs, &h->nr, ref, package, key, hook->max,
	    &said);
	for (size_t i = 0; i < said.nr; i++)
		if (strlist_find(notes, said.items[i]) < 0)
			strlist_add(notes, said.items[i]);
	strlist_release(&said);
	return h;
}

static void
history_drop(struct report_history_runs *h)
{
	if (!h->users || --h->users)
		return;
	for (size_t j = 0; j < h->nr; j++)
		results_free(h->runs[j]);
	free(h->runs);
	h->runs = NULL;
	h->nr = 0;
}

static int
same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Borrow the history runs for `in`, and its baselines not on disk. */
static void
attach_history(struct report_input *in, const struct report_history_runs *h)
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

/* The history ri->in[i] reads, or NULL when it has none to read. */
static struct report_history_runs *
history_of_input(struct report_inputs *ri, const struct report_opts *o,
    size_t i, struct strlist *notes)
{
	const struct report_history *hook = &o->history;
	const struct comparison *c = ri->in[i].cmp;
	struct report_history_runs *h;
	char *ref;

	if (!hook->max || !hook->load || !c->package || !c->device)
		return NULL;
	ref = against_ref(c);
	if (!ref)
		ref = xstrdup(hook->ref ? hook->ref : "main");
	h = history_of(ri, hook, ref, c->package, c->device, notes);
	free(ref);
	return h;
}

void
report_history_attach(struct report_inputs *ri, const struct report_opts *o,
    size_t i, struct strlist *notes)
{
	struct report_history_runs *h = history_of_input(ri, o, i, notes);

	if (h)
		attach_history(&ri->in[i], h);
}

void
report_history_detach(struct report_inputs *ri, size_t i)
{
	struct report_input *in = &ri->in[i];
	const struct comparison *c = in->cmp;

	free(in->history);
	in->history = NULL;
	in->nr_history = 0;
	in->nr_baselines = in->nr_baseline_files;
	for (size_t j = 0; c->package && c->device && j < ri->nr_hist; j++)
		if (!strcmp(ri->hist[j].package, c->package) &&
		    !strcmp(ri->hist[j].key, c->device))
			history_drop(&ri->hist[j]);
}

/* Whether `a` and `b` compare a scenario of the same name. */
static int
share_scenario(const struct comparison *a, const struct comparison *b)
{
	for (size_t i = 0; i < a->nr_scenarios; i++)
		for (size_t j = 0; j < b->nr_scenarios; j++)
			if (same(a->scenarios[i].name, b->scenarios[j].name))
				return 1;
	return 0;
}

/* Whether files `a` and `b` hold the same bytes; -1: one is unreadable. */
static int
same_bytes(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int rc = -1;

	if (!file_read(&x, a) && !file_read(&y, b))
		rc = x.len == y.len && !memcmp(x.buf, y.buf, x.len);
	strbuf_release(&x);
	strbuf_release(&y);
	return rc;
}

/*
 * Whether `in`, just read, repeats a comparison of ri->in[0..ri->nr): 0
 * no, 1 yes (the caller leaves it out), or an error.  A comparison given
 * twice counts each metric twice, and a glob finds one twice easily: a
 * gate's OUT/KEY/comparison.json has a copy in OUT/report/ beside it,
 * and a glob over every folder of OUT matches both.  The same bytes again
 * lose nothing when left out, so that is a note.  Another comparison of a
 * scenario of the same run on the same device key (an earlier look's, or
 * one against other baselines) is an error: which verdict stands is the
 * user's call, not the report's.  Shards of one run compare other
 * scenarios and are not repeats.
 */
static int
check_repeat(const struct report_inputs *ri, const struct report_input *in,
    struct strlist *notes)
{
	const struct comparison *c = in->cmp;

	for (size_t i = 0; i < ri->nr; i++) {
		const struct report_input *old = &ri->in[i];

		if (!same(old->cmp->device, c->device) ||
		    !same(old->cmp->current.run_id, c->current.run_id) ||
		    !share_scenario(old->cmp, c))
			continue;
		switch (same_bytes(old->path, in->path)) {
		case 1:
			strlist_addf(notes, "'%s' left out: the same as "
			    "'%s', given before", in->path, old->path);
			return 1;
		case 0:
			return jg_error_set(JG_EINVAL, "'%s' and '%s' both "
			    "compare run %s of %s: give one of them",
			    old->path, in->path, c->current.run_id, c->device);
		default:
			return jg_error_set(JG_EIO, "cannot read '%s' again",
			    in->path);
		}
	}
	return 0;
}

int
report_load(struct report_inputs *ri, const struct report_opts *o,
    struct strlist *notes)
{
	int rc = 0;

	memset(ri, 0, sizeof(*ri));
	ri->in = xcalloc(o->nr_comparisons + 1, sizeof(*ri->in));
	for (size_t i = 0; i < o->nr_comparisons && !rc; i++) {
		struct report_input *in = &ri->in[ri->nr];

		in->path = xstrdup(o->comparisons[i]);
		strlist_init(&in->notes);
		rc = comparison_read(&in->cmp, in->path);
		if (!rc)
			rc = check_repeat(ri, in, notes);
		if (rc == 1) {
			free(in->path);
			comparison_free(in->cmp);
			strlist_release(&in->notes);
			memset(in, 0, sizeof(*in));
			rc = 0;
			continue;
		}
		ri->nr++;
		if (!rc)
			rc = read_files(in, o->strict);
	}
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
