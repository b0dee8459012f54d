/*
 * baseline_git_keys.c: a device key's file, its versions on a branch, and
 * the ref per device key that mirrors them (baseline_git_int.h).
 *
 * The branch holds every key's runs interleaved: one key's window of 40
 * nights on a farm of 50 phones reaches 2,000 commits back, and a fetch of
 * the branch, shallow or not, carries them all.  So each key also has a
 * ref of its own,
 *
 *	refs/jankgate/keys/<branch>/<package>/<device-key>
 *
 * whose commits mirror, oldest first, the branch's versions of that key's
 * file (the versions baseline_store_history() reads: first parents, back
 * to where the file was absent).  A mirror commit's tree holds only that
 * file (the same blob), its author, committer and message are the branch
 * commit's, with a Jankgate-Commit trailer naming it, and its parent is
 * the mirror of the version before.  So a mirror is a function of the
 * branch's history: written again, it is the same object, and a reader of
 * the key ref sees the same runs, times and commit ids as a reader of the
 * branch.
 *
 * A key ref is derived data.  The branch is written first and is the
 * record; a key ref is brought in line after it (bgit_key_sync()): from
 * where its tip's Jankgate-Commit is met on the branch's first parents,
 * or from scratch when it is not (a branch retention wrote again, a key
 * ref lost to a crash between the two writes).  `baseline gc` brings every
 * key ref in line (baseline_store_sync_keys()).  A key ref is written
 * directly, not through a local repository's receive hooks: they judge
 * the branch, which went through them.
 */
#include <git2.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_git_int.h"
#include "baseline_store.h"
#include "error.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Key ref updates lost to other writers before giving up. */
#define KEY_RACES_MAX 20

int
bgit_key_refname(struct strbuf *out, const char *branch_ref,
    const char *package, const char *device_key)
{
	int valid = 0;

	strbuf_reset(out);
	if (strncmp(branch_ref, "refs/heads/", 11) || !branch_ref[11])
		return 1;
	strbuf_addf(out, KEY_REFS "%s/%s/%s", branch_ref + 11, package,
	    device_key);
	if (git_reference_name_is_valid(&valid, out->buf) < 0 || !valid) {
		git_error_clear();
		return 1;
	}
	return 0;
}

/*
 * The blob at <package>/<device_key>/results.json in `root`: 1 with *out
 * set when there is one, 0 when the path is absent, JG_EINVAL when
 * something else is in the way (`at` names the commit for the message).
 */
int
bgit_file_at(git_oid *out, struct baseline_store *bs, const git_tree *root,
    const char *package, const char *device_key, const git_oid *at)
{
	const char *names[3] = { package, device_key, BASELINE_FILE };
	const git_tree *tree = root;
	git_tree *sub = NULL;
	char hex[8];
	int ret = 0;

	for (int i = 0; i < 3; i++) {
		const git_tree_entry *e = git_tree_entry_byname(tree, names[i]);
		git_object_t want = i < 2 ? GIT_OBJECT_TREE : GIT_OBJECT_BLOB;
		git_tree *next;

		if (!e)
			break;
		if (git_tree_entry_type(e) != want ||
		    git_tree_entry_filemode(e) == GIT_FILEMODE_LINK) {
			git_oid_tostr(hex, sizeof(hex), at);
			ret = fail(bs, JG_EINVAL, "'%s%s%s%s%s' at %s in '%s' "
			    "is %s, not %s: it is not a jankgate baseline",
			    package, i ? "/" : "", i ? device_key : "",
			    i > 1 ? "/" : "", i > 1 ? BASELINE_FILE : "",
			    hex, bs->name, i < 2 ? "a file" : "a directory",
			    i < 2 ? "a directory" : "a file");
			break;
		}
		if (i == 2) {
			git_oid_cpy(out, git_tree_entry_id(e));
			ret = 1;
			break;
		}
		if (git_tree_lookup(&next, bs->repo,
		    git_tree_entry_id(e)) < 0) {
			ret = fail_damaged(bs, "cannot read a tree of '%s'",
			    bs->name);
			break;
		}
		git_tree_free(sub);
		tree = sub = next;
	}
	git_tree_free(sub);
	return ret;
}

int
bgit_file_in_commit(git_oid *out, struct baseline_store *bs, const git_commit *c,
    const char *package, const char *device_key)
{
	git_tree *tree;
	int ret;

	if (git_commit_tree(&tree, c) < 0)
		return fail_damaged(bs, "cannot read a tree of '%s'",
		    bs->name);
	ret = bgit_file_at(out, bs, tree, package, device_key,
	    git_commit_id(c));
	git_tree_free(tree);
	return ret;
}

/*
 * The branch commit a key ref's commit mirrors, read from its trailers as
 * every reader of the store reads them (baseline_message_parse()): 1 with
 * *out, else 0.
 */
static int
mirrored(git_oid *out, const git_commit *c)
{
	struct baseline_entry *e = xcalloc(1, sizeof(*e));
	const char *msg = git_commit_message(c);
	int ok;

	baseline_message_parse(e, msg ? msg : "");
	ok = e->commit[0] && git_oid_fromstr(out, e->commit) == 0;
	git_error_clear();
	baseline_entries_free(e, 1);
	return ok;
}

int
bgit_versions(struct bgit_versions *out, int *anchored,
    struct baseline_store *bs, const git_oid *tip, const char *package,
    const char *device_key, const git_oid *anchor, size_t max)
{
	git_commit *c = NULL, *parent = NULL;
	git_oid cur, prev;
	int has, prev_has;

	*anchored = 0;
	if (git_commit_lookup(&c, bs->repo, tip) < 0)
		return fail_damaged(bs, "cannot read commit %.7s of '%s'",
		    git_oid_tostr_s(tip), bs->name);
	has = bgit_file_in_commit(&cur, bs, c, package, device_key);
	while (has > 0 && (!max || out->nr < max)) {
		if (anchor && git_oid_equal(git_commit_id(c), anchor)) {
			*anchored = 1;
			break;
		}
		prev_has = 0;
		if (git_commit_parentcount(c) > 0) {
			if (git_commit_parent(&parent, c, 0) < 0) {
				has = fail_damaged(bs, "cannot read the "
				    "history of '%s'", bs->name);
				break;
			}
			if ((prev_has = bgit_file_in_commit(&prev, bs, parent, package,
			    device_key)) < 0) {
				has = prev_has;
				break;
			}
		}
		/* A version: a commit whose blob is not its parent's. */
		if (!prev_has || !git_oid_equal(&prev, &cur)) {
			XALLOC_GROW(out->v, out->nr + 1, out->alloc);
			git_oid_cpy(&out->v[out->nr].commit, git_commit_id(c));
			git_oid_cpy(&out->v[out->nr].blob, &cur);
			out->nr++;
		}
		git_commit_free(c);
		c = parent;
		parent = NULL;
		cur = prev;
		has = prev_has;
	}
	git_commit_free(parent);
	git_commit_free(c);
	return has < 0 ? has : 0;
}

/* The tree holding only <package>/<device_key>/results.json = `blob`. */
static int
single_file_tree(git_oid *out, struct baseline_store *bs, const char *package,
    const char *device_key, const git_oid *blob)
{
	const char *names[3] = { package, device_key, BASELINE_FILE };
	git_oid child = *blob;

	for (int level = 2; level >= 0; level--) {
		git_treebuilder *tb = NULL;
		int bad = git_treebuilder_new(&tb, bs->repo, NULL) < 0 ||
		    git_treebuilder_insert(NULL, tb, names[level], &child,
		    level == 2 ? GIT_FILEMODE_BLOB : GIT_FILEMODE_TREE) < 0 ||
		    git_treebuilder_write(&child, tb) < 0;

		git_treebuilder_free(tb);
		if (bad)
			return fail_git(bs, JG_EIO, "cannot write a tree in "
			    "'%s'", bs->name);
	}
	git_oid_cpy(out, &child);
	return 0;
}

/* The mirror of version `v` on top of `parent` (NULL: the first). */
static int
mirror_commit(git_oid *out, struct baseline_store *bs,
    const struct bgit_version *v, const git_oid *parent, const char *package,
    const char *device_key)
{
	git_commit *c = NULL, *p = NULL;
	git_tree *tree = NULL;
	struct strbuf msg = STRBUF_INIT;
	git_oid tree_id;
	int err = 0;

	if (git_commit_lookup(&c, bs->repo, &v->commit) < 0 ||
	    (parent && git_commit_lookup(&p, bs->repo, parent) < 0)) {
		err = fail_damaged(bs, "cannot read commit %.7s of '%s'",
		    git_oid_tostr_s(p || !parent ? &v->commit : parent),
		    bs->name);
		goto out;
	}
	if ((err = single_file_tree(&tree_id, bs, package, device_key,
	    &v->blob)) < 0)
		goto out;
	baseline_message_mirror(&msg, git_commit_message(c) ?
	    git_commit_message(c) : "", git_oid_tostr_s(&v->commit));
	if (git_tree_lookup(&tree, bs->repo, &tree_id) < 0 ||
	    git_commit_create(out, bs->repo, NULL, git_commit_author(c),
	    git_commit_committer(c), git_commit_message_encoding(c), msg.buf,
	    tree, p ? 1 : 0, (const git_commit **)&p) < 0)
		err = fail_git(bs, JG_EIO, "cannot write a commit in '%s'",
		    bs->name);
out:
	strbuf_release(&msg);
	git_tree_free(tree);
	git_commit_free(p);
	git_commit_free(c);
	return err;
}

/* Delete `name` if it still points at `at`: 1 when raced. */
static int
key_delete(struct baseline_store *bs, const char *name, const git_oid *at)
{
	git_reference *ref = NULL;
	int err;

	err = git_reference_lookup(&ref, bs->repo, name);
	if (err == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (err < 0)
		return fail_git(bs, JG_EIO, "cannot read ref '%s' in '%s'",
		    name, bs->name);
	if (!git_reference_target(ref) ||
	    !git_oid_equal(git_reference_target(ref), at)) {
		git_reference_free(ref);
		return 1;
	}
	err = git_reference_delete(ref);
	git_reference_free(ref);
	if (err == GIT_EMODIFIED || err == GIT_ELOCKED) {
		git_error_clear();
		return 1;
	}
	if (err < 0)
		return fail_git(bs, JG_EIO, "cannot delete ref '%s' in '%s'",
		    name, bs->name);
	return 0;
}

/*
 * One attempt of bgit_key_sync(): 0 done, 1 raced with another writer,
 * or an error.
 */
static int
sync_once(struct baseline_store *bs, const char *name, const char *branch_ref,
    const char *package, const char *device_key, int rebuild, int *moved)
{
	struct bgit_versions vs = { NULL, 0, 0 };
	git_commit *kc = NULL;
	git_reference *ref = NULL;
	git_oid branch_tip, key_tip, anchor, id, *parent = NULL;
	int err, has_key, anchored = 0;

	memset(&key_tip, 0, sizeof(key_tip));
	has_key = git_reference_name_to_id(&key_tip, bs->repo, name) == 0;
	git_error_clear();
	err = git_reference_name_to_id(&branch_tip, bs->repo, branch_ref);
	if (err < 0) {
		git_error_clear();
		if (err != GIT_ENOTFOUND)
			return fail_damaged(bs, "cannot read ref '%s' in "
			    "'%s'", branch_ref, bs->name);
		/* The branch is gone: so is its key ref. */
		if (has_key && !(err = key_delete(bs, name, &key_tip)))
			*moved = 1;
		return err;
	}
	if (has_key && !rebuild && git_commit_lookup(&kc, bs->repo,
	    &key_tip) == 0 && mirrored(&anchor, kc))
		parent = &key_tip;
	git_error_clear();
	git_commit_free(kc);
	if ((err = bgit_versions(&vs, &anchored, bs, &branch_tip, package,
	    device_key, parent ? &anchor : NULL, 0)) < 0)
		goto out;
	if (!anchored)
		parent = NULL;
	if (anchored && !vs.nr)
		goto out;	/* in line already */
	if (!vs.nr) {
		if (has_key && !(err = key_delete(bs, name, &key_tip)))
			*moved = 1;
		goto out;
	}
	for (size_t i = vs.nr; i-- > 0; parent = &id)
		if ((err = mirror_commit(&id, bs, &vs.v[i], parent, package,
		    device_key)) < 0)
			goto out;
	if (has_key && git_oid_equal(&id, &key_tip))
		goto out;	/* written again, the same */
	err = git_reference_create_matching(&ref, bs->repo, name, &id, 1,
	    &key_tip, "jankgate: key ref");
	if (err == GIT_EMODIFIED || err == GIT_EEXISTS ||
	    err == GIT_ENOTFOUND || err == GIT_ELOCKED) {
		git_error_clear();
		err = 1;
	} else if (err < 0) {
		err = fail_git(bs, JG_EIO, "cannot update '%s' in '%s'", name,
		    bs->name);
	} else {
		*moved = 1;
	}
out:
	git_reference_free(ref);
	free(vs.v);
	return err;
}

int
bgit_key_sync(struct baseline_store *bs, const char *branch_ref,
    const char *package, const char *device_key, int rebuild, int *moved)
{
	struct strbuf name = STRBUF_INIT;
	int err = 0;

	*moved = 0;
	if (bgit_key_refname(&name, branch_ref, package, device_key))
		goto out;
	for (int races = 0; (err = sync_once(bs, name.buf, branch_ref,
	    package, device_key, rebuild, moved)) == 1; races++) {
		if (races >= KEY_RACES_MAX) {
			err = fail(bs, JG_EIO, "'%s' in '%s' kept moving under "
			    "%d tries", name.buf, bs->name, races);
			break;
		}
		bgit_sleep_ms(20);
	}
out:
	strbuf_release(&name);
	return err;
}

/* Sync the key ref of each <package>/<key>/ in the tip tree of `branch`. */
static int
sync_branch(struct baseline_store *bs, const char *branch,
    struct strlist *done, size_t *moved)
{
	git_commit *c = NULL;
	git_tree *root = NULL, *pkg = NULL;
	git_oid tip;
	int err = 0, one;

	if (git_reference_name_to_id(&tip, bs->repo, branch) < 0 ||
	    git_commit_lookup(&c, bs->repo, &tip) < 0 ||
	    git_commit_tree(&root, c) < 0) {
		err = fail_damaged(bs, "cannot read the tip of '%s' in '%s'",
		    branch, bs->name);
		goto out;
	}
	for (size_t i = 0; !err && i < git_tree_entrycount(root); i++) {
		const git_tree_entry *pe = git_tree_entry_byindex(root, i);

		if (git_tree_entry_type(pe) != GIT_OBJECT_TREE)
			continue;
		if (git_tree_lookup(&pkg, bs->repo, git_tree_entry_id(pe)) < 0) {
			err = fail_damaged(bs, "cannot read a tree of '%s'",
			    bs->name);
			break;
		}
		for (size_t j = 0; !err && j < git_tree_entrycount(pkg); j++) {
			const git_tree_entry *ke = git_tree_entry_byindex(pkg, j);
			struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
			/* Only what could be a baseline's directory. */
			int named = git_tree_entry_type(ke) ==
			    GIT_OBJECT_TREE && !baseline_path(&path,
			    git_tree_entry_name(pe), git_tree_entry_name(ke));

			if (!named)
				jg_error_clear();
			if (named && !bgit_key_refname(&name, branch,
			    git_tree_entry_name(pe), git_tree_entry_name(ke))) {
				err = bgit_key_sync(bs, branch,
				    git_tree_entry_name(pe),
				    git_tree_entry_name(ke), 1, &one);
				/* A directory that is no baseline's (its
				 * results.json a directory): not a key. */
				if (err == JG_EINVAL) {
					jg_error_clear();
					err = 0;
				}
				*moved += one;
				strlist_add(done, name.buf);
			}
			strbuf_release(&path);
			strbuf_release(&name);
		}
		git_tree_free(pkg);
		pkg = NULL;
	}
out:
	git_tree_free(root);
	git_commit_free(c);
	return err;
}

int
baseline_store_sync_keys(size_t *moved, struct baseline_store *bs)
{
	struct strlist branches = STRLIST_INIT, keys = STRLIST_INIT;
	struct strlist done = STRLIST_INIT;
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int err = 0, one;

	*moved = 0;
	if (bs->url)
		return fail(bs, JG_EINVAL, "key refs of '%s' are its server's "
		    "to write", bs->name);
	if (git_reference_iterator_glob_new(&it, bs->repo, "refs/*") < 0)
		return fail_damaged(bs, "cannot list the refs of '%s'",
		    bs->name);
	while (git_reference_next(&ref, it) == 0) {
		const char *n = git_reference_name(ref);

		if (!strncmp(n, "refs/heads/", 11))
			strlist_add(&branches, n);
		else if (!strncmp(n, KEY_REFS, strlen(KEY_REFS)))
			strlist_add(&keys, n);
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	git_error_clear();
	for (size_t i = 0; !err && i < branches.nr; i++)
		err = sync_branch(bs, branches.items[i], &done, moved);
	/* Key refs no branch's tip has a file for: gone, or left behind. */
	for (size_t i = 0; !err && i < keys.nr; i++) {
		const char *n = keys.items[i] + strlen(KEY_REFS);
		const char *key = strrchr(n, '/'), *pkg;
		char *branch, *package;

		if (strlist_find(&done, keys.items[i]) >= 0 || !key ||
		    key == n)
			continue;
		for (pkg = key - 1; pkg > n && pkg[-1] != '/'; pkg--)
			;
		if (pkg == n)
			continue;
		branch = xasprintf("refs/heads/%.*s", (int)(pkg - 1 - n), n);
		package = xstrndup(pkg, (size_t)(key - pkg));
		err = bgit_key_sync(bs, branch, package, key + 1, 1, &one);
		*moved += one;
		free(branch);
		free(package);
	}
	strlist_release(&branches);
	strlist_release(&keys);
	strlist_release(&done);
	return err;
}
