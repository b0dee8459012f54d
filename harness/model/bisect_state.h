/*
 * bisect_state.h: the state of a `jankgate bisect`, as a model, and the
 * search over it.
 *
 * A bisect walks an ordered list of builds, oldest first: the first is
 * the known-good one, the last the known-bad one.  Each build carries a
 * mark (untested, good, bad, untestable) and each A/B step that was run
 * is kept in order with its evidence.  The state is written to
 * OUT/bisect.json after every step (schema "jankgate.bisect/1"), so a
 * bisect cut short resumes from the file.  bisect_next() is the whole
 * search: the first step checks the bad build against the good one (is
 * the regression there on these phones at all?), then each step tests
 * the untested build nearest the middle of the range between the last
 * good build and the first bad one, `git bisect skip`'s way round the
 * untestable ones.
 */
#ifndef JG_BISECT_STATE_H
#define JG_BISECT_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"

#define BISECT_SCHEMA "jankgate.bisect/1"

enum bisect_mark {
	BISECT_UNTESTED,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,		/* untestable: no build, or undecided */
};

/* One build of the list. */
struct bisect_commit {
	char *id;		/* the commit id, or the manifest's name */
	char *apk;		/* its APK; NULL: not built yet */
	char *subject;		/* the commit's first line; NULL: unknown */
	char *author;		/* "Name <email>"; NULL: unknown */
	enum bisect_mark mark;
	char *why;		/* why it is untestable, or NULL */
};

/* One A/B step: the last good build (A) against a candidate (B). */
struct bisect_step {
	size_t good, candidate;	/* indices into the commits */
	enum bisect_mark outcome;	/* GOOD, BAD or SKIP */
	char *dir;		/* the step's output directory */
	int rounds;		/* rounds of ABBA blocks run */
	struct strlist evidence;	/* the targeted entries, one line each */
	struct strlist comparisons;	/* the step's comparison.json files */
};

struct bisect_state {
	char *source;		/* where the list came from, for people */
	char *repo;		/* --repo, or NULL */
	char *build_cmd;	/* --build's template, or NULL */
	/*
	 * What each step looks at: "SCENARIO/SCENE METRIC", METRIC "*" for
	 * any metric or block of the scene; empty: every regression.
	 */
	struct strlist targets;
	struct bisect_commit *commits;
	size_t nr;
	struct bisect_step *steps;
	size_t nr_steps;
};

/* What bisect_next() found. */
enum bisect_next {
	BISECT_NEXT_STEP,	/* *good against *candidate next */
	BISECT_NEXT_CULPRIT,	/* *candidate is the first bad build */
	BISECT_NEXT_NONE,	/* the bad build is not worse: no culprit */
	BISECT_NEXT_UNDECIDED,	/* the first bad build is one of
				   (*good, *candidate], the rest untestable,
				   or the bad build's own check undecided */
};

/* An empty state; bisect_state_free() frees it and all it holds. */
struct bisect_state *bisect_state_new(void);
void bisect_state_free(struct bisect_state *st);

/* Append a build (id copied, apk may be NULL); returns it. */
struct bisect_commit *bisect_state_add(struct bisect_state *st,
    const char *id, const char *apk);

/* Append an empty step for `good` against `candidate`; returns it. */
struct bisect_step *bisect_state_add_step(struct bisect_state *st,
    size_t good, size_t candidate);

/* The index of the build whose id is `id` or starts with it, or -1. */
long bisect_state_find(const struct bisect_state *st, const char *id);

/*
 * The next move over st's marks (st->nr >= 2, the first build good):
 * the first step checks the last build; then the untested build nearest
 * the middle of (last good, first bad), the lower one on a tie.
 */
enum bisect_next bisect_next(const struct bisect_state *st, size_t *good,
    size_t *candidate);

/* "good", "bad", "untestable", "untested". */
const char *bisect_mark_name(enum bisect_mark m);

/* Write `st` to `path` atomically.  Returns 0 or JG_EIO. */
int bisect_state_write(const struct bisect_state *st, const char *path);

/*
 * Read a state written by bisect_state_write() into *out (the caller's).
 * Returns 0, JG_ENOTFOUND when the file is missing, JG_EIO, or JG_EINVAL
 * naming what is wrong with it.
 */
int bisect_state_read(struct bisect_state **out, const char *path);

#endif
