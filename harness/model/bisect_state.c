/*
 * bisect_state.c: the bisect's state (bisect_state.h), its search and
 * its file.
 *
 *   { "schema": "jankgate.bisect/1",
 *     "source": "repo app.git, first-parent 1a2b..9f8e",
 *     "repo": "app.git" | null, "build": "make apk C={commit}" | null,
 *     "targets": [ "shop/feed frame_p50_ms", "shop/checkout *" ],
 *     "commits": [ { "id", "apk", "subject", "author",
 *                    "mark": "good|bad|untestable|untested", "why" } ],
 *     "steps": [ { "good": 0, "candidate": 15, "outcome": "bad",
 *                  "dir": "out/step-1", "rounds": 1,
 *                  "evidence": [ "..." ], "comparisons": [ "..." ] } ] }
 *
 * Indices in "steps" point into "commits"; a reader checks them.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bisect_state.h"
#include "error.h"
#include "fileio.h"
#include "jsonw.h"
#include "schema.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

static const char *const mark_names[] = {
	[BISECT_UNTESTED] = "untested",
	[BISECT_GOOD] = "good",
	[BISECT_BAD] = "bad",
	[BISECT_SKIP] = "untestable",
};

const char *
bisect_mark_name(enum bisect_mark m)
{
	return m <= BISECT_SKIP ? mark_names[m] : "untested";
}

struct bisect_state *
bisect_state_new(void)
{
	struct bisect_state *st = xcalloc(1, sizeof(*st));

	strlist_init(&st->targets);
	return st;
}

void
bisect_state_free(struct bisect_state *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr; i++) {
		struct bisect_commit *c = &st->commits[i];

		free(c->id);
		free(c->apk);
		free(c->subject);
		free(c->author);
		free(c->why);
	}
	for (size_t i = 0; i < st->nr_steps; i++) {
		free(st->steps[i].dir);
		strlist_release(&st->steps[i].evidence);
		strlist_release(&st->steps[i].comparisons);
	}
	free(st->commits);
	free(st->steps);
	free(st->source);
	free(st->repo);
	free(st->build_cmd);
	strlist_release(&st->targets);
	free(st);
}

struct bisect_commit *
bisect_state_add(struct bisect_state *st, const char *id, const char *apk)
{
	struct bisect_commit *c;

	st->commits = xreallocarray(st->commits, st->nr + 1,
	    sizeof(*st->commits));
	c = &st->commits[st->nr++];
	memset(c, 0, sizeof(*c));
	c->id = xstrdup(id);
	c->apk = apk ? xstrdup(apk) : NULL;
	return c;
}

struct bisect_step *
bisect_state_add_step(struct bisect_state *st, size_t good,
    size_t candidate)
{
	struct bisect_step *s;

	st->steps = xreallocarray(st->steps, st->nr_steps + 1,
	    sizeof(*st->steps));
	s = &st->steps[st->nr_steps++];
	memset(s, 0, sizeof(*s));
	s->good = good;
	s->candidate = candidate;
	s->outcome = BISECT_SKIP;
	strlist_init(&s->evidence);
	strlist_init(&s->comparisons);
	return s;
}

long
bisect_state_find(const struct bisect_state *st, const char *id)
{
	size_t n = strlen(id);
	long found = -1;

	for (size_t i = 0; i < st->nr; i++)
		if (!strcmp(st->commits[i].id, id))
			return (long)i;
	/* An abbreviated commit id names the one build it starts. */
	for (size_t i = 0; n >= 4 && i < st->nr; i++)
		if (!strncmp(st->commits[i].id, id, n)) {
			if (found >= 0)
				return -1;
			found = (long)i;
		}
	return found;
}

enum bisect_next
bisect_next(const struct bisect_state *st, size_t *good, size_t *candidate)
{
	size_t lo = 0, hi = st->nr - 1, best = 0, mid, dist = (size_t)-1;
	enum bisect_mark last = st->commits[hi].mark;

	*good = 0;
	*candidate = hi;
	/* The bad build against the good one first. */
	if (last == BISECT_UNTESTED)
		return BISECT_NEXT_STEP;
	if (last == BISECT_GOOD)
		return BISECT_NEXT_NONE;
	if (last == BISECT_SKIP)
		return BISECT_NEXT_UNDECIDED;
	for (size_t i = 0; i < st->nr; i++)
		if (st->commits[i].mark == BISECT_GOOD)
			lo = i;
	for (size_t i = st->nr; i-- > lo + 1;)
		if (st->commits[i].mark == BISECT_BAD)
			hi = i;
	*good = lo;
	*candidate = hi;
	mid = lo + (hi - lo) / 2;
	for (size_t i = lo + 1; i < hi; i++) {
		size_t d = i < mid ? mid - i : i - mid;

		if (st->commits[i].mark == BISECT_UNTESTED && d < dist) {
			dist = d;
			best = i;
		}
	}
	if (dist != (size_t)-1) {
		*candidate = best;
		return BISECT_NEXT_STEP;
	}
	return hi == lo + 1 ? BISECT_NEXT_CULPRIT : BISECT_NEXT_UNDECIDED;
}

/* ---- the file -------------------------------------------------------- */

static void
write_list(struct jsonw *w, const char *key, const struct strlist *l)
{
	jsonw_open(w, key, '[');
	for (size_t i = 0; i < l->nr; i++)
		jsonw_str(w, NULL, l->items[i]);
	jsonw_close(w, ']');
}

int
bisect_state_write(const struct bisect_state *st, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct jsonw w;
	int rc;

	jsonw_init(&w, &sb);
	jsonw_open(&w, NULL, '{');
	jsonw_str(&w, "schema", BISECT_SCHEMA);
	jsonw_str(&w, "source", st->source);
	jsonw_str(&w, "repo", st->repo);
	jsonw_str(&w, "build", st->build_cmd);
	write_list(&w, "targets", &st->targets);
	jsonw_open(&w, "commits", '[');
	for (size_t i = 0; i < st->nr; i++) {
		const struct bisect_commit *c = &st->commits[i];

		jsonw_open(&w, NULL, '{');
		jsonw_str(&w, "id", c->id);
		jsonw_str(&w, "apk", c->apk);
		jsonw_str(&w, "subject", c->subject);
		jsonw_str(&w, "author", c->author);
		jsonw_str(&w, "mark", bisect_mark_name(c->mark));
		jsonw_str(&w, "why", c->why);
		jsonw_close(&w, '}');
	}
	jsonw_close(&w, ']');
	jsonw_open(&w, "steps", '[');
	for (size_t i = 0; i < st->nr_steps; i++) {
		const struct bisect_step *s = &st->steps[i];

		jsonw_open(&w, NULL, '{');
		jsonw_num(&w, "good", (double)s->good);
		jsonw_num(&w, "candidate", (double)s->candidate);
		jsonw_str(&w, "outcome", bisect_mark_name(s->outcome));
		jsonw_str(&w, "dir", s->dir);
		jsonw_num(&w, "rounds", s->rounds);
		write_list(&w, "evidence", &s->evidence);
		write_list(&w, "comparisons", &s->comparisons);
		jsonw_close(&w, '}');
	}
	jsonw_close(&w, ']');
	jsonw_close(&w, '}');
	jsonw_end(&w);
	rc = file_write_atomic(path, sb.buf, sb.len, 0644);
	strbuf_release(&sb);
	return rc;
}

/* The string at `key` of `o`, copied; NULL when absent or null. */
static char *
get_str(const cJSON *o, const char *key, bool *bad)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!v || cJSON_IsNull(v))
		return NULL;
	if (!cJSON_IsString(v)) {
		*bad = true;
		return NULL;
	}
	return xstrdup(v->valuestring);
}

static int
get_list(struct strlist *out, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key), *e;

	if (!v)
		return 0;
	if (!cJSON_IsArray(v))
		return -1;
	cJSON_ArrayForEach(e, v) {
		if (!cJSON_IsString(e))
			return -1;
		strlist_add(out, e->valuestring);
	}
	return 0;
}

static int
get_mark(enum bisect_mark *out, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	for (int m = BISECT_UNTESTED; m <= BISECT_SKIP; m++)
		if (cJSON_IsString(v) && !strcmp(v->valuestring,
		    mark_names[m])) {
			*out = (enum bisect_mark)m;
			return 0;
		}
	return -1;
}

/* A step's index into the commits, or -1. */
static long
get_index(const cJSON *o, const char *key, size_t nr)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
	    v->valuedouble >= (double)nr ||
	    v->valuedouble != (double)(long)v->valuedouble)
		return -1;
	return (long)v->valuedouble;
}

static int
read_tree(struct bisect_state *st, const cJSON *root, const char *path)
{
	const cJSON *commits, *steps, *e;
	bool bad = false;
	char *id;

	st->source = get_str(root, "source", &bad);
	st->repo = get_str(root, "repo", &bad);
	st->build_cmd = get_str(root, "build", &bad);
	if (bad || get_list(&st->targets, root, "targets"))
		return jg_error_set(JG_EINVAL, "'%s': source, repo, build or "
		    "targets is not what a bisect writes", path);
	commits = cJSON_GetObjectItemCaseSensitive(root, "commits");
	if (!cJSON_IsArray(commits) || cJSON_GetArraySize(commits) < 2)
		return jg_error_set(JG_EINVAL, "'%s': commits: expected a list "
		    "of at least two builds", path);
	cJSON_ArrayForEach(e, commits) {
		struct bisect_commit *c;

		if (!(id = get_str(e, "id", &bad)))
			return jg_error_set(JG_EINVAL, "'%s': commits[%zu]: no "
			    "id", path, st->nr);
		c = bisect_state_add(st, id, NULL);
		free(id);
		c->apk = get_str(e, "apk", &bad);
		c->subject = get_str(e, "subject", &bad);
		c->author = get_str(e, "author", &bad);
		c->why = get_str(e, "why", &bad);
		if (bad || get_mark(&c->mark, e, "mark"))
			return jg_error_set(JG_EINVAL, "'%s': commits[%zu]: "
			    "a value of the wrong type or an unknown mark",
			    path, st->nr - 1);
	}
	steps = cJSON_GetObjectItemCaseSensitive(root, "steps");
	if (steps && !cJSON_IsArray(steps))
		return jg_error_set(JG_EINVAL, "'%s': steps: expected a list",
		    path);
	cJSON_ArrayForEach(e, steps) {
		long g = get_index(e, "good", st->nr);
		long c = get_index(e, "candidate", st->nr);
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "rounds");
		struct bisect_step *s;

		if (g < 0 || c < 0)
			return jg_error_set(JG_EINVAL, "'%s': steps[%zu]: good "
			    "and candidate must index the commits", path,
			    st->nr_steps);
		s = bisect_state_add_step(st, (size_t)g, (size_t)c);
		s->dir = get_str(e, "dir", &bad);
		s->rounds = cJSON_IsNumber(r) ? r->valueint : 0;
		if (bad || get_mark(&s->outcome, e, "outcome") ||
		    get_list(&s->evidence, e, "evidence") ||
		    get_list(&s->comparisons, e, "comparisons"))
			return jg_error_set(JG_EINVAL, "'%s': steps[%zu]: a "
			    "value of the wrong type", path,
			    st->nr_steps - 1);
	}
	return 0;
}

int
bisect_state_read(struct bisect_state **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct bisect_state *st;
	const cJSON *schema;
	cJSON *root;
	int rc;

	*out = NULL;
	if ((rc = file_read(&sb, path)))
		return rc;
	root = cJSON_ParseWithLength(sb.buf, sb.len);
	strbuf_release(&sb);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return jg_error_set(JG_EINVAL, "'%s' is not a JSON object",
		    path);
	}
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	rc = schema_check(path, cJSON_IsString(schema) ?
	    schema->valuestring : NULL, BISECT_SCHEMA, "bisect state");
	st = bisect_state_new();
	if (!rc)
		rc = read_tree(st, root, path);
	cJSON_Delete(root);
	if (rc) {
		bisect_state_free(st);
		return rc;
	}
	*out = st;
	return 0;
}
