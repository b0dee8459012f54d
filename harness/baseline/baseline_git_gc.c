/*
 * baseline_git_gc.c: packing and pruning the store (baseline_store_gc()).
 *
 * A year of nightly runs is tens of thousands of loose objects, each a
 * file.  gc writes what the refs reach into one pack with libgit2's
 * packbuilder, and then deletes files, in an order that keeps every
 * reachable object readable at every moment:
 *
 *   1. the roots: every ref (branches, tags and any other), peeled through
 *      annotated tags (whose objects go in too), a detached HEAD, what
 *      the reflogs name (none in a bare repository unless configured),
 *      and the index of a repository with a working tree;
 *   2. the pack: every commit first-parent or not, tree and blob they
 *      reach, written into objects/pack and synced (fsync) before
 *      anything is removed;
 *   3. loose objects: removed when the new pack holds them; one it does
 *      not hold is unreachable and is removed when older than the grace;
 *   4. older packs: removed when the new pack holds each of their objects,
 *      or when they are older than the grace; never one with a .keep;
 *      and the temporary files of a pack write that was stopped midway,
 *      older than the grace.
 *
 * Writing the pack and removing what it holds are baseline_git_pack.c's,
 * shared with the lighter pass the record path runs.  A writer racing with gc writes its objects before it moves its
 * branch: they are younger than the grace, and stay.  Refs are not
 * touched.
 */
#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline_git_int.h"
#include "baseline_store.h"
#include "error.h"
#include "strbuf.h"
#include "banned.h"

/* Put `id` (a ref's target) and what it reaches into the pack. */
static int
add_root(struct bgit_pack *g, const git_oid *id, const char *what)
{
	git_object *obj = NULL;
	git_oid cur = *id;
	int err = 0;

	for (int depth = 0; depth < 32; depth++) {
		if (git_object_lookup(&obj, g->bs->repo, &cur,
		    GIT_OBJECT_ANY) < 0)
			return fail_damaged(g->bs, "cannot read what '%s' "
			    "points at", what);
		switch (git_object_type(obj)) {
		case GIT_OBJECT_TAG:
			if (git_packbuilder_insert(g->pb, &cur, NULL) < 0)
				err = fail_git(g->bs, JG_EIO, "cannot pack "
				    "tag '%s'", what);
			cur = *git_tag_target_id((git_tag *)obj);
			git_object_free(obj);
			if (err)
				return err;
			continue;
		case GIT_OBJECT_COMMIT:
			if (git_revwalk_push(g->walk, &cur) < 0)
				err = fail_git(g->bs, JG_EIO, "cannot walk "
				    "'%s'", what);
			break;
		case GIT_OBJECT_TREE:
			if (git_packbuilder_insert_tree(g->pb, &cur) < 0)
				err = fail_git(g->bs, JG_EIO, "cannot pack "
				    "the tree of '%s'", what);
			break;
		default:
			if (git_packbuilder_insert(g->pb, &cur, NULL) < 0)
				err = fail_git(g->bs, JG_EIO, "cannot pack "
				    "'%s'", what);
			break;
		}
		git_object_free(obj);
		return err;
	}
	git_object_free(obj);
	return fail(g->bs, JG_EIO, "'%s' is a chain of more than 32 tags",
	    what);
}

/*
 * What the reflog of `name` names, as git gc keeps it: a branch reset by
 * hand can be undone.  Entries whose object is gone are skipped.
 */
static int
add_reflog(struct bgit_pack *g, const char *name)
{
	git_reflog *log = NULL;
	git_odb *odb = NULL;
	int err = 0;

	if (git_reflog_read(&log, g->bs->repo, name) < 0 ||
	    git_repository_odb(&odb, g->bs->repo) < 0) {
		err = fail_git(g->bs, JG_EIO, "cannot read the reflog of '%s'",
		    name);
		goto out;
	}
	for (size_t i = 0; !err && i < git_reflog_entrycount(log); i++) {
		const git_reflog_entry *e = git_reflog_entry_byindex(log, i);
		const git_oid *ids[2] = { git_reflog_entry_id_old(e),
		    git_reflog_entry_id_new(e) };

		for (int k = 0; !err && k < 2; k++)
			if (!git_oid_is_zero(ids[k]) &&
			    git_odb_exists(odb, ids[k]))
				err = add_root(g, ids[k], name);
	}
out:
	git_odb_free(odb);
	git_reflog_free(log);
	return err;
}

static int
add_refs(struct bgit_pack *g)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL, *resolved = NULL;
	int err = 0, rc;

	if (git_reference_iterator_new(&it, g->bs->repo) < 0)
		return fail_damaged(g->bs, "cannot list the refs of '%s'",
		    g->bs->name);
	while (!err && !(rc = git_reference_next(&ref, it))) {
		/* A symbolic ref to nothing (an unborn branch) reaches
		 * nothing; its target, when there is one, is a ref too. */
		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT)
			err = add_root(g, git_reference_target(ref),
			    git_reference_name(ref));
		if (!err)
			err = add_reflog(g, git_reference_name(ref));
		git_reference_free(ref);
	}
	if (!err && rc != GIT_ITEROVER)
		err = fail_damaged(g->bs, "cannot list the refs of '%s'",
		    g->bs->name);
	git_reference_iterator_free(it);
	if (err)
		return err;
	if (git_repository_head_detached(g->bs->repo) == 1) {
		if (git_repository_head(&resolved, g->bs->repo) < 0)
			return fail_damaged(g->bs, "cannot read HEAD of '%s'",
			    g->bs->name);
		err = add_root(g, git_reference_target(resolved), "HEAD");
		git_reference_free(resolved);
	}
	return err ? err : add_reflog(g, "HEAD");
}

/* A repository with a working tree: what its index stages stays. */
static int
add_index(struct bgit_pack *g)
{
	git_index *index = NULL;
	git_odb *odb = NULL;
	int err = 0;

	if (git_repository_is_bare(g->bs->repo))
		return 0;
	if (git_repository_index(&index, g->bs->repo) < 0 ||
	    git_repository_odb(&odb, g->bs->repo) < 0) {
		err = fail_git(g->bs, JG_EIO, "cannot read the index of '%s'",
		    g->bs->name);
		goto out;
	}
	for (size_t i = 0; !err && i < git_index_entrycount(index); i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);

		if (e->mode == GIT_FILEMODE_COMMIT ||
		    !git_odb_exists(odb, &e->id))
			continue;
		if (git_packbuilder_insert(g->pb, &e->id, e->path) < 0)
			err = fail_git(g->bs, JG_EIO, "cannot pack '%s' of the "
			    "index", e->path);
	}
out:
	git_odb_free(odb);
	git_index_free(index);
	return err;
}

static int
sweep_packs(struct bgit_pack *g)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int err = 0;

	strbuf_addf(&dir, "%s/pack", g->objects.buf);
	if (!(d = opendir(dir.buf))) {
		err = errno == ENOENT ? 0 : jg_error_errno(JG_EIO, errno,
		    "cannot read '%s'", dir.buf);
		goto out;
	}
	while (!err && (de = readdir(d))) {
		size_t n = strlen(de->d_name), stem;

		/* What a pack write stopped midway left (libgit2's, git's):
		 * old enough, no writer is still at it. */
		if (!strncmp(de->d_name, "pack_git2_", 10) ||
		    !strncmp(de->d_name, "tmp_pack_", 9) ||
		    !strncmp(de->d_name, "tmp_idx_", 8)) {
			strbuf_setlen(&path, 0);
			strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
			if (bgit_old_enough(g, path.buf) &&
			    unlink(path.buf) < 0 && errno != ENOENT)
				err = jg_error_errno(JG_EIO, errno, "cannot "
				    "remove '%s'", path.buf);
			continue;
		}
		if (n < 10 || strncmp(de->d_name, "pack-", 5) ||
		    strcmp(de->d_name + n - 5, ".pack"))
			continue;
		if (g->st->pack[0] && !strncmp(de->d_name + 5, g->st->pack,
		    n - 10) && strlen(g->st->pack) == n - 10)
			continue;
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s/%.*s", dir.buf, (int)(n - 5),
		    de->d_name);
		stem = path.len;
		strbuf_addstr(&path, ".keep");
		if (!access(path.buf, F_OK))
			continue;
		strbuf_setlen(&path, stem);
		strbuf_addstr(&path, ".pack");
		if (!bgit_old_enough(g, path.buf)) {
			strbuf_setlen(&path, stem);
			strbuf_addstr(&path, ".idx");
			if (!bgit_pack_covered(g, path.buf))
				continue;
		}
		if (!(err = bgit_pack_remove(g, &path, stem)))
			g->st->packs_removed++;
	}
	closedir(d);
	/* It names the packs just removed; git reads the packs without. */
	if (!err && g->st->packs_removed) {
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s/multi-pack-index", dir.buf);
		if (unlink(path.buf) < 0 && errno != ENOENT)
			err = jg_error_errno(JG_EIO, errno, "cannot remove "
			    "'%s'", path.buf);
	}
out:
	strbuf_release(&dir);
	strbuf_release(&path);
	return err;
}

int
baseline_store_gc(struct baseline_gc_stats *st, struct baseline_store *bs,
    long grace)
{
	struct bgit_pack g = { .bs = bs, .st = st, .objects = STRBUF_INIT,
	    .prune = 1 };
	git_odb *odb = NULL;
	int err;

	memset(st, 0, sizeof(*st));
	if (bs->url)
		return fail(bs, JG_EINVAL, "'%s' is a network repository; "
		    "baseline gc packs a repository on this machine: run it "
		    "where the repository lives, or 'git gc' there",
		    bs->name);
	g.cutoff = time(NULL) - (grace > 0 ? grace : 0);
	strbuf_addf(&g.objects, "%sobjects", git_repository_path(bs->repo));
	if (git_packbuilder_new(&g.pb, bs->repo) < 0 ||
	    git_revwalk_new(&g.walk, bs->repo) < 0) {
		err = fail_git(bs, JG_EIO, "cannot pack '%s'", bs->name);
		goto out;
	}
	git_packbuilder_set_threads(g.pb, 1);
	if ((err = add_refs(&g)) < 0 || (err = add_index(&g)) < 0)
		goto out;
	if (git_packbuilder_insert_walk(g.pb, g.walk) < 0) {
		err = fail_damaged(bs, "cannot pack the history of '%s'",
		    bs->name);
		goto out;
	}
	if ((err = bgit_pack_write(&g)) < 0 ||
	    (err = bgit_sweep_loose(&g)) < 0 ||
	    (err = sweep_packs(&g)) < 0)
		goto out;
	/* This process reads on from the pack. */
	if (!git_repository_odb(&odb, bs->repo))
		git_odb_refresh(odb);
	git_odb_free(odb);
out:
	git_odb_free(g.pack);
	git_revwalk_free(g.walk);
	git_packbuilder_free(g.pb);
	strbuf_release(&g.objects);
	return err;
}
