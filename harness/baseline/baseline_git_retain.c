/*
 * baseline_git_retain.c: thinning branches by baseline.retain
 * (baseline_store_retain()).
 *
 * A run is a commit on a branch's first-parent history that changes one
 * file of the layout, <package>/<device-key>/results.json, and carries a
 * Jankgate-Run trailer.  Per branch and file, retain_select() (retain.h)
 * says which runs stay; a tagged run and an acceptance (it opens a
 * comparison's window) always do.  A run is tagged when a tag peels to a
 * commit of the same committer time and message: the tagged commit
 * itself, or the same run written again by an earlier gc.  Dropping a
 * run rewrites the history above it, as git rebase would:
 *
 *   1. below the oldest dropped run, every commit is kept as it is;
 *   2. from there up, each kept commit is written again on the new
 *      parent, with the changes it made to its own parent applied to the
 *      new parent's tree, and its author, committer and message as they
 *      were (so two branches that share a history rewrite it to the same
 *      commits);
 *   3. the branch moves to the new tip only if it still points at the
 *      tip this began from (a record meanwhile: nothing changes there,
 *      and the message says to run gc again).
 *
 * The newest run of each file is the newest of its period, so it stays
 * and the tip reads as before, unless the rule drops all runs that old:
 * then the file is gone from the branch.  Tags, and what they reach, are
 * never touched; other refs than branches neither.  What is dropped stays
 * in the repository until baseline_store_gc() prunes it.
 */
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_git_int.h"
#include "baseline_store.h"
#include "error.h"
#include "retain.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* One commit of a branch's first-parent history. */
struct link {
	git_oid id;
	long long time;
	int file;		/* index in files; -1: not a run */
	int pinned;
	int drop;
	char *run_id;
};

struct branch {
	const char *name;	/* "refs/heads/..." */
	struct link *links;	/* newest first */
	size_t nr, alloc;
	struct strlist files;	/* the runs' paths */
};

struct retain {
	struct baseline_store *bs;
	const struct retain_rule *rule;
	long long now;
	struct tagged {
		long long time;
		char *msg;
	} *tags;		/* the commits tags peel to */
	size_t nr_tags;
	struct baseline_drop *drops;
	size_t nr_drops, alloc_drops;
};

static void
drop_release(struct baseline_drop *d)
{
	free(d->branch);
	free(d->package);
	free(d->device_key);
	free(d->run_id);
	memset(d, 0, sizeof(*d));
}

static void
entry_release(struct baseline_entry *e)
{
	free(e->subject);
	free(e->run_id);
	free(e->verdict);
	free(e->app_version);
	free(e->build_id);
	free(e->accepted_by);
	free(e->reason);
}

/*
 * The runs tags name, by committer time and message: a kept run written
 * again by an earlier gc is another commit than the one tagged, with the
 * same time and message.
 */
static int
read_tags(struct retain *r)
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	size_t alloc = 0;
	int rc;

	if (git_reference_iterator_glob_new(&it, r->bs->repo,
	    "refs/tags/*") < 0)
		return fail_damaged(r->bs, "cannot list the tags of '%s'",
		    r->bs->name);
	while (!(rc = git_reference_next(&ref, it))) {
		git_object *obj = NULL;

		if (git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) == 0) {
			const git_commit *c = (const git_commit *)obj;

			if (r->nr_tags == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				r->tags = xrealloc(r->tags,
				    alloc * sizeof(*r->tags));
			}
			r->tags[r->nr_tags].time = git_commit_time(c);
			r->tags[r->nr_tags++].msg =
			    xstrdup(git_commit_message_raw(c));
		}
		/* A tag of a tree or blob pins no run. */
		git_error_clear();
		git_object_free(obj);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	if (rc != GIT_ITEROVER)
		return fail_damaged(r->bs, "cannot list the tags of '%s'",
		    r->bs->name);
	return 0;
}

static int
tagged(const struct retain *r, const git_commit *c)
{
	long long t = git_commit_time(c);

	for (size_t i = 0; i < r->nr_tags; i++)
		if (r->tags[i].time == t &&
		    !strcmp(r->tags[i].msg, git_commit_message_raw(c)))
			return 1;
	return 0;
}

/* The tree of `c`'s first parent, or NULL for a root commit. */
static int
parent_tree(git_tree **out, struct baseline_store *bs, const git_commit *c)
{
	git_commit *p = NULL;
	int err = 0;

	*out = NULL;
	if (!git_commit_parentcount(c))
		return 0;
	if (git_commit_parent(&p, c, 0) < 0 || git_commit_tree(out, p) < 0)
		err = fail_damaged(bs, "cannot read the parent of %s in '%s'",
		    git_oid_tostr_s(git_commit_id(c)), bs->name);
	git_commit_free(p);
	return err;
}

/* What `c` changed relative to its first parent; the caller frees. */
static int
commit_diff(git_diff **out, struct baseline_store *bs, const git_commit *c)
{
	git_tree *old = NULL, *tree = NULL;
	int err;

	*out = NULL;
	if ((err = parent_tree(&old, bs, c)) < 0)
		return err;
	if (git_commit_tree(&tree, c) < 0 ||
	    git_diff_tree_to_tree(out, bs->repo, old, tree, NULL) < 0)
		err = fail_damaged(bs, "cannot read what %s changed in '%s'",
		    git_oid_tostr_s(git_commit_id(c)), bs->name);
	git_tree_free(old);
	git_tree_free(tree);
	return err;
}

/* "pkg/key/results.json" with each name a valid one. */
static int
is_layout_path(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *a = strchr(path, '/'), *b = a ? strchr(a + 1, '/') : NULL;
	char *pkg, *key;
	int ok;

	if (!b || strcmp(b + 1, BASELINE_FILE))
		return 0;
	pkg = xstrndup(path, (size_t)(a - path));
	key = xstrndup(a + 1, (size_t)(b - a - 1));
	ok = baseline_path(&sb, pkg, key) == 0;
	jg_error_clear();
	free(pkg);
	free(key);
	strbuf_release(&sb);
	return ok;
}

/* Classify one commit of the history: which file it is a run of. */
static int
read_link(struct retain *r, struct branch *b, struct link *l,
    const git_commit *c)
{
	struct baseline_entry e = { 0 };
	git_diff *diff = NULL;
	const char *path;
	int err;

	l->file = -1;
	l->time = (long long)git_commit_time(c);
	l->pinned = tagged(r, c);
	if ((err = commit_diff(&diff, r->bs, c)) < 0)
		return err;
	if (git_diff_num_deltas(diff) != 1 ||
	    git_diff_get_delta(diff, 0)->status == GIT_DELTA_DELETED)
		goto out;
	path = git_diff_get_delta(diff, 0)->new_file.path;
	if (!is_layout_path(path))
		goto out;
	baseline_message_parse(&e, git_commit_message(c));
	if (!e.run_id)
		goto out;
	l->pinned |= e.accepted_by != NULL;
	l->run_id = e.run_id;
	e.run_id = NULL;
	for (size_t i = 0; i < b->files.nr; i++)
		if (!strcmp(b->files.items[i], path))
			l->file = (int)i;
	if (l->file < 0) {
		strlist_add(&b->files, path);
		l->file = (int)b->files.nr - 1;
	}
out:
	entry_release(&e);
	git_diff_free(diff);
	return 0;
}

static int
read_branch(struct retain *r, struct branch *b, const git_oid *tip)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int err = 0, rc;

	if (git_revwalk_new(&walk, r->bs->repo) < 0 ||
	    git_revwalk_simplify_first_parent(walk) < 0 ||
	    git_revwalk_push(walk, tip) < 0) {
		err = fail_damaged(r->bs, "cannot walk '%s' in '%s'", b->name,
		    r->bs->name);
		goto out;
	}
	while (!err && !(rc = git_revwalk_next(&id, walk))) {
		git_commit *c = NULL;
		struct link *l;

		if (b->nr == b->alloc) {
			b->alloc = b->alloc ? 2 * b->alloc : 64;
			b->links = xrealloc(b->links,
			    b->alloc * sizeof(*b->links));
		}
		l = &b->links[b->nr++];
		memset(l, 0, sizeof(*l));
		git_oid_cpy(&l->id, &id);
		if (git_commit_lookup(&c, r->bs->repo, &id) < 0)
			err = fail_damaged(r->bs, "cannot read commit %s of "
			    "'%s' in '%s'", git_oid_tostr_s(&id), b->name,
			    r->bs->name);
		else
			err = read_link(r, b, l, c);
		git_commit_free(c);
	}
	if (!err && rc != GIT_ITEROVER)
		err = fail_damaged(r->bs, "cannot walk '%s' in '%s'", b->name,
		    r->bs->name);
out:
	git_revwalk_free(walk);
	return err;
}

/* Mark the runs the rule drops; returns how many. */
static size_t
select_drops(struct retain *r, struct branch *b)
{
	long long *times = xcalloc(b->nr + 1, sizeof(*times));
	int *pinned = xcalloc(b->nr + 1, sizeof(*pinned));
	int *keep = xcalloc(b->nr + 1, sizeof(*keep));
	size_t *at = xcalloc(b->nr + 1, sizeof(*at)), drops = 0;

	for (size_t f = 0; f < b->files.nr; f++) {
		size_t n = 0;

		for (size_t i = 0; i < b->nr; i++) {
			if (b->links[i].file != (int)f)
				continue;
			times[n] = b->links[i].time;
			pinned[n] = b->links[i].pinned;
			at[n++] = i;
		}
		retain_select(keep, r->rule, r->now, times, pinned, n);
		for (size_t k = 0; k < n; k++)
			if (!keep[k]) {
				b->links[at[k]].drop = 1;
				drops++;
			}
	}
	free(times);
	free(pinned);
	free(keep);
	free(at);
	return drops;
}

/* Apply what `c` changed to `base`, into *out. */
static int
replay_tree(git_oid *out, struct baseline_store *bs, git_tree *base,
    const git_commit *c)
{
	git_diff *diff = NULL;
	git_tree_update *up = NULL;
	size_t n = 0, nr;
	int err;

	if ((err = commit_diff(&diff, bs, c)) < 0)
		return err;
	nr = git_diff_num_deltas(diff);
	up = xcalloc(nr + 1, sizeof(*up));
	for (size_t i = 0; i < nr; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		git_tree_entry *e = NULL;

		if (d->status != GIT_DELTA_DELETED) {
			up[n].action = GIT_TREE_UPDATE_UPSERT;
			git_oid_cpy(&up[n].id, &d->new_file.id);
			up[n].filemode = (git_filemode_t)d->new_file.mode;
			up[n++].path = d->new_file.path;
			continue;
		}
		/* Removing what a dropped run never added is nothing. */
		if (git_tree_entry_bypath(&e, base, d->old_file.path) == 0) {
			up[n].action = GIT_TREE_UPDATE_REMOVE;
			up[n++].path = d->old_file.path;
		}
		git_error_clear();
		git_tree_entry_free(e);
	}
	if (git_tree_create_updated(out, bs->repo, base, n, up) < 0)
		err = fail_git(bs, JG_EIO, "cannot write a tree in '%s'",
		    bs->name);
	free(up);
	git_diff_free(diff);
	return err;
}

/* The empty tree, for a history whose root commit is dropped. */
static int
empty_tree(git_tree **out, struct baseline_store *bs)
{
	git_treebuilder *tb = NULL;
	git_oid id;
	int err = 0;

	if (git_treebuilder_new(&tb, bs->repo, NULL) < 0 ||
	    git_treebuilder_write(&id, tb) < 0 ||
	    git_tree_lookup(out, bs->repo, &id) < 0)
		err = fail_git(bs, JG_EIO, "cannot write a tree in '%s'",
		    bs->name);
	git_treebuilder_free(tb);
	return err;
}

/* Write `c` again on `parent` (NULL: as a root) with the tree `tree`. */
static int
rewrite_commit(git_oid *out, struct baseline_store *bs, const git_commit *c,
    const git_commit *parent, const git_tree *tree)
{
	size_t n = git_commit_parentcount(c);
	const git_commit **parents = xcalloc(n + 1, sizeof(*parents));
	git_commit **others = xcalloc(n + 1, sizeof(*others));
	size_t np = 0;
	int err = 0;

	if (parent)
		parents[np++] = parent;
	/* A merge keeps the parents beside the first as they are. */
	for (size_t i = 1; !err && i < n; i++) {
		if (git_commit_parent(&others[i], c, (unsigned)i) < 0)
			err = fail_damaged(bs, "cannot read a parent of %s in "
			    "'%s'", git_oid_tostr_s(git_commit_id(c)),
			    bs->name);
		else
			parents[np++] = others[i];
	}
	if (!err && git_commit_create(out, bs->repo, NULL,
	    git_commit_author(c), git_commit_committer(c),
	    git_commit_message_encoding(c), git_commit_message_raw(c), tree,
	    np, parents) < 0)
		err = fail_git(bs, JG_EIO, "cannot write a commit in '%s'",
		    bs->name);
	for (size_t i = 0; i < n; i++)
		git_commit_free(others[i]);
	free(others);
	free(parents);
	return err;
}

static void
add_drop(struct retain *r, const struct branch *b, const struct link *l)
{
	const char *path = b->files.items[l->file];
	const char *slash = strchr(path, '/');
	const char *end = strchr(slash + 1, '/');
	struct baseline_drop *d;

	if (r->nr_drops == r->alloc_drops) {
		r->alloc_drops = r->alloc_drops ? 2 * r->alloc_drops : 16;
		r->drops = xrealloc(r->drops,
		    r->alloc_drops * sizeof(*r->drops));
	}
	d = &r->drops[r->nr_drops++];
	memset(d, 0, sizeof(*d));
	git_oid_tostr(d->commit, sizeof(d->commit), &l->id);
	d->branch = xstrdup(b->name + strlen("refs/heads/"));
	d->package = xstrndup(path, (size_t)(slash - path));
	d->device_key = xstrndup(slash + 1, (size_t)(end - slash - 1));
	d->run_id = xstrdup(l->run_id);
	d->time = l->time;
}

/*
 * Write the branch again without its dropped runs (oldest first) and
 * move it from `tip` to the new tip.
 */
static int
rewrite_branch(struct retain *r, struct branch *b, const git_oid *tip)
{
	struct baseline_store *bs = r->bs;
	git_commit *parent = NULL, *c = NULL;
	git_tree *tree = NULL;
	git_reference *ref = NULL;
	size_t first = r->nr_drops;
	int diverged = 0, err = 0;

	for (size_t i = b->nr; !err && i-- > 0;) {
		const struct link *l = &b->links[i];
		git_oid id;

		if (!diverged && !l->drop)
			continue;
		if (git_commit_lookup(&c, bs->repo, &l->id) < 0) {
			err = fail_damaged(bs, "cannot read commit %s in '%s'",
			    git_oid_tostr_s(&l->id), bs->name);
			break;
		}
		if (!diverged) {
			/* Below the oldest drop the history stays. */
			diverged = 1;
			if (git_commit_parentcount(c) &&
			    git_commit_parent(&parent, c, 0) < 0)
				err = fail_damaged(bs, "cannot read the parent "
				    "of %s in '%s'", git_oid_tostr_s(&l->id),
				    bs->name);
			else if (parent)
				err = git_commit_tree(&tree, parent) < 0 ?
				    fail_damaged(bs, "cannot read a tree in "
				    "'%s'", bs->name) : 0;
			else
				err = empty_tree(&tree, bs);
		}
		if (!err && l->drop) {
			add_drop(r, b, l);
		} else if (!err) {
			if (!(err = replay_tree(&id, bs, tree, c))) {
				git_tree_free(tree);
				tree = NULL;
				if (git_tree_lookup(&tree, bs->repo, &id) < 0)
					err = fail_git(bs, JG_EIO, "cannot "
					    "read a tree in '%s'", bs->name);
			}
			if (!err)
				err = rewrite_commit(&id, bs, c, parent, tree);
			git_commit_free(parent);
			parent = NULL;
			if (!err && git_commit_lookup(&parent, bs->repo,
			    &id) < 0)
				err = fail_git(bs, JG_EIO, "cannot read a "
				    "commit in '%s'", bs->name);
		}
		git_commit_free(c);
		c = NULL;
	}
	if (err)
		goto out;
	if (!parent) {
		/* Every commit was a dropped run: the branch goes. */
		if (git_reference_lookup(&ref, bs->repo, b->name) < 0 ||
		    !git_oid_equal(git_reference_target(ref), tip) ||
		    git_reference_delete(ref) < 0)
			err = fail(bs, JG_EIO, "'%s' in '%s' moved while gc "
			    "ran; nothing is dropped from it: run gc again",
			    b->name, bs->name);
	} else if (git_reference_create_matching(&ref, bs->repo, b->name,
	    git_commit_id(parent), 1, tip, "jankgate: baseline gc, "
	    "baseline.retain") < 0) {
		err = fail(bs, JG_EIO, "'%s' in '%s' moved while gc ran; "
		    "nothing is dropped from it: run gc again", b->name,
		    bs->name);
	}
out:
	if (err) {
		/* Nothing was dropped from this branch after all. */
		while (r->nr_drops > first)
			drop_release(&r->drops[--r->nr_drops]);
	}
	git_reference_free(ref);
	git_commit_free(parent);
	git_commit_free(c);
	git_tree_free(tree);
	return err;
}

static void
branch_release(struct branch *b)
{
	for (size_t i = 0; i < b->nr; i++)
		free(b->links[i].run_id);
	free(b->links);
	strlist_release(&b->files);
}

static int
retain_branch(struct retain *r, const char *name, const git_oid *tip)
{
	struct branch b = { .name = name, .files = STRLIST_INIT };
	int err;

	if (!(err = read_branch(r, &b, tip)) && select_drops(r, &b))
		err = rewrite_branch(r, &b, tip);
	branch_release(&b);
	return err;
}

int
baseline_store_retain(struct baseline_drop **out, size_t *nr,
    struct baseline_store *bs, const struct retain_rule *rule,
    long long now)
{
	struct retain r = { .bs = bs, .rule = rule, .now = now };
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	struct strlist names = STRLIST_INIT;
	git_oid *tips = NULL;
	int err = 0, rc;

	*out = NULL;
	*nr = 0;
	if ((err = bgit_fetch_whole(bs)) < 0 || (err = read_tags(&r)) < 0)
		goto out;
	/* The branches first: rewriting one must not upset the walk. */
	if (git_reference_iterator_glob_new(&it, bs->repo,
	    "refs/heads/*") < 0) {
		err = fail_damaged(bs, "cannot list the branches of '%s'",
		    bs->name);
		goto out;
	}
	while (!(rc = git_reference_next(&ref, it))) {
		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT) {
			tips = xrealloc(tips, (names.nr + 1) * sizeof(*tips));
			git_oid_cpy(&tips[names.nr],
			    git_reference_target(ref));
			strlist_add(&names, git_reference_name(ref));
		}
		git_reference_free(ref);
	}
	if (rc != GIT_ITEROVER) {
		err = fail_damaged(bs, "cannot list the branches of '%s'",
		    bs->name);
		goto out;
	}
	for (size_t i = 0; !err && i < names.nr; i++)
		err = retain_branch(&r, names.items[i], &tips[i]);
out:
	git_reference_iterator_free(it);
	strlist_release(&names);
	free(tips);
	for (size_t i = 0; i < r.nr_tags; i++)
		free(r.tags[i].msg);
	free(r.tags);
	/* What was dropped before an error is dropped: say so. */
	*out = r.drops;
	*nr = r.nr_drops;
	return err;
}

void
baseline_drops_free(struct baseline_drop *d, size_t nr)
{
	for (size_t i = 0; d && i < nr; i++)
		drop_release(&d[i]);
	free(d);
}
