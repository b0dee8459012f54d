/*
 * baseline_git_write.c: recording a run (baseline_store.h).
 *
 * Writing never touches an index or a working tree: it writes the blob,
 * the three trees on the path and the commit, then moves the branch with
 * git_reference_create_matching() against the tip the commit was built
 * on.  If another writer moved the branch in between, the commit is built
 * again on the new tip; the change touches one file, so it always applies.
 * A network repository adds one step: the commit is made in the cache and
 * pushed, and a push refused because the remote branch moved is followed by
 * a fetch and the same rebuild.  A local repository with receive hooks has
 * its branch moved by `git push` instead (baseline_git_hooks.c), with the
 * same compare-and-swap, so that its hooks may refuse.
 *
 * A cancel (cancel.h) seen before the branch moves, or before the push,
 * records nothing (JG_EINTR); a `git push` in flight is stopped.  Once the
 * branch holds the run, the device key's ref follows it (key_follow()).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline_git_int.h"
#include "baseline_store.h"
#include "cancel.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* "refs/heads/<branch>" for `branch`, which must not be a tag's name. */
static int
branch_refname(struct strbuf *out, struct baseline_store *bs,
    const char *branch)
{
	git_oid tag;
	char *tagref;
	int valid = 0, is_tag;

	if (!branch || !*branch)
		return fail(bs, JG_EINVAL, "no branch to record on (set "
		    "baseline.ref)");
	if (!strncmp(branch, "refs/", 5) && strncmp(branch, "refs/heads/", 11))
		return fail(bs, JG_EINVAL, "can only record on a branch, not "
		    "on '%s'", branch);
	if (strncmp(branch, "refs/heads/", 11))
		strbuf_addstr(out, "refs/heads/");
	strbuf_addstr(out, branch);
	if (git_reference_name_is_valid(&valid, out->buf) < 0 || !valid)
		return fail(bs, JG_EINVAL, "'%s' is not a valid branch name",
		    branch);
	tagref = xasprintf("refs/tags/%s", out->buf + 11);
	is_tag = git_reference_name_to_id(&tag, bs->repo, tagref) == 0;
	git_error_clear();
	free(tagref);
	if (is_tag)
		return fail(bs, JG_EINVAL, "'%s' is a tag in '%s'; record on "
		    "a branch", branch, bs->name);
	return 0;
}

/*
 * Write the tree that is `base` (NULL: empty) with `blob` stored at
 * names[level]/.../names[2], into *out.  bgit_file_at() has already checked
 * that nothing foreign is in the way.
 */
static int
tree_with_file(git_oid *out, struct baseline_store *bs, const git_tree *base,
    const char *const names[3], int level, const git_oid *blob)
{
	const git_tree_entry *e = base ?
	    git_tree_entry_byname(base, names[level]) : NULL;
	git_treebuilder *tb = NULL;
	git_tree *sub = NULL;
	git_oid child;
	int err = 0;

	if (level < 2) {
		if (e && git_tree_lookup(&sub, bs->repo,
		    git_tree_entry_id(e)) < 0) {
			err = fail_damaged(bs, "cannot read a tree of '%s'",
			    bs->name);
			goto out;
		}
		err = tree_with_file(&child, bs, sub, names, level + 1, blob);
		if (err < 0)
			goto out;
	} else {
		git_oid_cpy(&child, blob);
	}
	if (git_treebuilder_new(&tb, bs->repo, base) < 0 ||
	    git_treebuilder_insert(NULL, tb, names[level], &child,
	    level < 2 ? GIT_FILEMODE_TREE : GIT_FILEMODE_BLOB) < 0 ||
	    git_treebuilder_write(out, tb) < 0)
		err = fail_git(bs, JG_EIO, "cannot write a tree in '%s'",
		    bs->name);
out:
	git_treebuilder_free(tb);
	git_tree_free(sub);
	return err;
}

/*
 * The file the branch holds must be ours before it is replaced, and of a
 * schema no newer than the run replacing it (`data`, `len`): a newer
 * jankgate's baseline is not this one's to overwrite.
 */
static int
check_replaced(struct baseline_store *bs, const git_oid *id,
    const char *path, const git_oid *tip, const char *data, size_t len)
{
	git_blob *blob;
	const char *old;
	size_t old_len;
	char *what;
	int err, old_v, new_v;

	if (git_blob_lookup(&blob, bs->repo, id) < 0)
		return fail_damaged(bs, "cannot read '%s' in '%s'", path,
		    bs->name);
	old = git_blob_rawcontent(blob);
	old_len = (size_t)git_blob_rawsize(blob);
	what = xasprintf("'%s' at %.7s in '%s'", path, git_oid_tostr_s(tip),
	    bs->name);
	err = baseline_content_check(old, old_len, what);
	if (err < 0)
		jg_error_prefix("refusing to replace it");
	old_v = baseline_schema_version(old, old_len);
	new_v = baseline_schema_version(data, len);
	if (!err && old_v > new_v)
		err = jg_error_set(JG_EINVAL, "refusing to replace %s: it is "
		    "jankgate.results/%d, newer than the jankgate.results/%d "
		    "being recorded (a newer jankgate wrote it)", what, old_v,
		    new_v);
	free(what);
	git_blob_free(blob);
	return err;
}

/*
 * One attempt: build a commit that stores `blob` at names[] on top of the
 * current tip of `refname` (*tip; zero when the branch is new) and move the
 * branch to it if it still points at that tip.  Returns a `step`, or an
 * error.
 */
static int
commit_step(git_oid *new_id, git_oid *tip, struct baseline_store *bs,
    const char *refname, const char *const names[3], const char *path,
    const git_oid *blob, const char *data, size_t len, const char *msg,
    const git_signature *sig)
{
	git_commit *parent = NULL;
	git_tree *base = NULL, *tree = NULL;
	git_reference *ref = NULL;
	git_oid tree_id, cur;
	int err, has;

	memset(tip, 0, sizeof(*tip));
	err = git_reference_name_to_id(tip, bs->repo, refname);
	if (err < 0 && err != GIT_ENOTFOUND)
		return fail_damaged(bs, "cannot read ref '%s' in '%s'",
		    refname, bs->name);
	git_error_clear();
	if (err == 0) {
		if (git_commit_lookup(&parent, bs->repo, tip) < 0 ||
		    git_commit_tree(&base, parent) < 0) {
			err = fail_damaged(bs, "cannot read the tip of '%s' "
			    "in '%s'", refname, bs->name);
			goto out;
		}
		has = bgit_file_at(&cur, bs, base, names[0], names[1], tip);
		if (has > 0 && git_oid_equal(&cur, blob)) {
			git_oid_cpy(new_id, tip);
			err = STEP_SAME;
			goto out;
		}
		if (has < 0 || (has > 0 && (has = check_replaced(bs, &cur,
		    path, tip, data, len)) < 0)) {
			err = has;
			goto out;
		}
	}
	if ((err = tree_with_file(&tree_id, bs, base, names, 0, blob)) < 0)
		goto out;
	if (git_tree_lookup(&tree, bs->repo, &tree_id) < 0 ||
	    git_commit_create(new_id, bs->repo, NULL, sig, sig, NULL, msg,
	    tree, parent ? 1 : 0, (const git_commit **)&parent) < 0) {
		err = fail_git(bs, JG_EIO, "cannot write a commit in '%s'",
		    bs->name);
		goto out;
	}
	/*
	 * The compare-and-swap: only from the tip the commit was built on, a
	 * zero tip meaning "only if the branch still does not exist".  Both
	 * are checked under the ref's lock; git_reference_create() without
	 * force is not, and lets two first commits overwrite each other.
	 */
	/* The last moment a cancel keeps the shared branch as it was. */
	if (cancel_pending()) {
		err = fail(bs, JG_EINTR, "interrupted: nothing recorded in "
		    "'%s'", bs->name);
		goto out;
	}
	if (bs->hook) {
		err = bgit_push_local(bs, refname, new_id, tip);
		goto out;
	}
	err = git_reference_create_matching(&ref, bs->repo, refname, new_id,
	    1, tip, "jankgate: baseline");
	if (err == GIT_EMODIFIED || err == GIT_EEXISTS ||
	    err == GIT_ENOTFOUND)
		err = STEP_RACED;
	else if (err == GIT_ELOCKED)
		err = STEP_LOCKED;
	else if (err < 0)
		err = fail_git(bs, JG_EIO, "cannot update '%s' in '%s'",
		    refname, bs->name);
	else
		err = STEP_DONE;
	if (err > 0)
		git_error_clear();
out:
	git_reference_free(ref);
	git_tree_free(tree);
	git_tree_free(base);
	git_commit_free(parent);
	return err;
}

/* 1 when the fetched branch differs from the tip the push was built on. */
static int
branch_moved(struct baseline_store *bs, const char *refname,
    const git_oid *tip)
{
	git_oid now;
	int exists = git_reference_name_to_id(&now, bs->repo, refname) == 0;

	git_error_clear();
	if (!exists)
		return !git_oid_is_zero(tip);
	return !git_oid_equal(&now, tip);
}

/*
 * Push the commit just made; on refusal fetch, and say whether to build it
 * again (1) because the branch moved, or fail because it did not.
 */
static int
push_or_retry(struct baseline_store *bs, const char *refname,
    const git_oid *tip, int pushes)
{
	char *refused = NULL;
	int err = bgit_push(bs, refname, 0, &refused);

	if (err <= 0)
		goto out;
	if (pushes > bs->push_retries) {
		err = fail(bs, JG_EIO, "push to '%s' refused %d times, last "
		    "with '%s': other jobs keep updating '%s' (raise "
		    "baseline.push_retries)", bs->name, pushes, refused,
		    refname);
		goto out;
	}
	if ((err = bgit_fetch(bs)) < 0)
		goto out;
	if (!branch_moved(bs, refname, tip))
		err = fail(bs, JG_EIO, "push to '%s' refused: %s", bs->name,
		    refused);
	else
		err = 1;
out:
	free(refused);
	return err;
}

/*
 * A commit that did not land must not stay in the cache, where an offline
 * read would take it for the remote's: put the branch back where it was.
 */
static void
cache_rollback(struct baseline_store *bs, const char *refname,
    const git_oid *ours, const git_oid *tip)
{
	git_reference *ref = NULL;

	if (!git_oid_is_zero(tip)) {
		git_reference_create_matching(&ref, bs->repo, refname, tip, 1,
		    ours, "jankgate: push failed");
	} else if (git_reference_lookup(&ref, bs->repo, refname) == 0 &&
	    git_oid_equal(git_reference_target(ref), ours)) {
		git_reference_delete(ref);
	}
	git_reference_free(ref);
	git_error_clear();
}

/* A bare repository created by jankgate shows the branch it holds. */
static void
point_unborn_head(struct baseline_store *bs, const char *refname)
{
	if (git_repository_is_bare(bs->repo) &&
	    git_repository_head_unborn(bs->repo) == 1)
		git_repository_set_head(bs->repo, refname);
	git_error_clear();
}

/*
 * The device key's ref follows the branch (baseline_git_keys.c), and goes
 * to the remote, forced: it is derived from the branch just pushed.  The
 * run is recorded already, so what stops it is kept for the caller to
 * tell (baseline_store_key_error()); the key's next record, or gc on the
 * server, brings the ref in line.
 */
static void
key_follow(struct baseline_store *bs, const char *refname,
    const char *package, const char *device_key)
{
	struct strbuf name = STRBUF_INIT;
	char *refused = NULL;
	int moved = 0, err;

	free(bs->key_error);
	bs->key_error = NULL;
	err = bgit_key_sync(bs, refname, package, device_key, 0, &moved);
	if (!err && moved && bs->url &&
	    !bgit_key_refname(&name, refname, package, device_key)) {
		err = bgit_push(bs, name.buf, 1, &refused);
		if (err > 0)
			err = fail(bs, JG_EIO, "push of '%s' to '%s' refused: "
			    "%s", name.buf, bs->name, refused);
	}
	if (err < 0) {
		bs->key_error = xstrdup(jg_error_msg());
		jg_error_clear();
	}
	free(refused);
	strbuf_release(&name);
}

int
baseline_store_record(char out[BASELINE_OID_HEXSZ + 1],
    struct baseline_store *bs, const char *branch, const char *package,
    const char *device_key, const char *data, size_t len,
    const struct baseline_commit_info *info)
{
	const char *names[3] = { package, device_key, BASELINE_FILE };
	struct strbuf refname = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf msg = STRBUF_INIT, who = STRBUF_INIT;
	struct baseline_commit_info ci;
	git_signature *sig = NULL;
	git_oid blob, id, tip;
	int races = 0, lock_waited = 0, pushes = 0, err;

	out[0] = '\0';
	bs->attempts = 0;
	if (bs->url && bs->offline)
		return fail(bs, JG_EINVAL, "cannot record in '%s': it was "
		    "opened offline", bs->name);
	if (!info)
		return jg_error_set(JG_EINVAL, "no run to record");
	ci = *info;
	if (ci.reason && !ci.accepted_by) {
		strbuf_addf(&who, "%s <%s>", bs->author_name, bs->author_email);
		ci.accepted_by = who.buf;
	}
	if ((err = baseline_path(&path, package, device_key)) < 0 ||
	    (err = branch_refname(&refname, bs, branch)) < 0 ||
	    (err = baseline_content_check(data, len,
	    "the run to record")) < 0 ||
	    (err = baseline_message_format(&msg, package, device_key, &ci)) < 0)
		goto out;
	if (git_signature_now(&sig, bs->author_name, bs->author_email) < 0) {
		err = fail_git(bs, JG_EINVAL, "bad author '%s <%s>'",
		    bs->author_name, bs->author_email);
		goto out;
	}
	if (bs->url && ((err = bgit_cache_lock(bs)) < 0 ||
	    (err = bgit_fetch_whole(bs)) < 0))
		goto out;
	if (!bs->url && (err = bgit_find_hook(bs)) < 0)
		goto out;
	if (git_blob_create_from_buffer(&blob, bs->repo, data, len) < 0) {
		err = fail_git(bs, JG_EIO, "cannot write to '%s'", bs->name);
		goto out;
	}
	for (;;) {
		err = commit_step(&id, &tip, bs, refname.buf, names, path.buf,
		    &blob, data, len, msg.buf, sig);
		if (err < 0 || err == STEP_SAME)
			break;
		bs->attempts++;
		if (err == STEP_RACED && ++races > LOCAL_RACES_MAX) {
			err = fail(bs, JG_EIO, "'%s' in '%s' kept moving under "
			    "%d tries", refname.buf, bs->name, races);
			break;
		}
		if (err == STEP_LOCKED) {
			if (lock_waited >= REF_LOCK_WAIT_MS) {
				err = fail(bs, JG_EIO, "'%s' in '%s' stayed "
				    "locked for %d s (a stale '%s.lock'?)",
				    refname.buf, bs->name,
				    REF_LOCK_WAIT_MS / 1000, refname.buf);
				break;
			}
			bgit_sleep_ms(20);
			lock_waited += 20;
		}
		if (err != STEP_DONE)
			continue;
		if (!bs->url)
			break;
		if (cancel_pending())
			err = fail(bs, JG_EINTR, "interrupted: nothing pushed "
			    "to '%s'", bs->name);
		else
			err = push_or_retry(bs, refname.buf, &tip, ++pushes);
		if (err < 0)
			cache_rollback(bs, refname.buf, &id, &tip);
		if (err <= 0)
			break;
	}
	if (err >= 0) {
		git_oid_tostr(out, BASELINE_OID_HEXSZ + 1, &id);
		if (!bs->url)
			point_unborn_head(bs, refname.buf);
		key_follow(bs, refname.buf, package, device_key);
		err = 0;
	}
out:
	bgit_cache_unlock(bs);
	git_signature_free(sig);
	strbuf_release(&refname);
	strbuf_release(&path);
	strbuf_release(&msg);
	strbuf_release(&who);
	return err;
}
