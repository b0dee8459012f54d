/*
 * baseline_git_int.h: what the files of the store over libgit2 share
 * (baseline_store.h is the store's interface).  Private to them; the only
 * headers besides them that would see libgit2's types are none.
 *
 *   baseline_git_open.c   the store: open a local repository, or clone
 *                         or fetch a network one into its cache, and
 *                         the cache's lock
 *   baseline_git_gc.c     packing what the refs reach, and pruning
 *   baseline_git_retain.c baseline.retain: branches written again
 *                         without the runs the rule drops
 *   baseline_git_pack.c   writing a pack and removing what it holds;
 *                         the record path's packing of loose objects
 *   baseline_git_read.c   histories, logs and trees: reading commits
 *   baseline_git_write.c  a commit, its branch update, push and retry
 *   baseline_git_keys.c   a device key's file in a tree, and the ref per
 *                         device key mirroring the branch's versions of it
 *   baseline_git_hooks.c  a local repository with receive hooks: its
 *                         branch moved by `git push`, so they run
 *   baseline_git_net.c    the network: credentials, ssh host keys,
 *                         fetch and push
 *   baseline_git_odb.c    the guard that checks loose objects before
 *                         libgit2 reads them
 *   baseline_git_err.c    messages, scrubbed of secrets
 *
 * Each file calls only the ones below it in this list.
 */
#ifndef JG_BASELINE_GIT_INT_H
#define JG_BASELINE_GIT_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <time.h>

#include <git2.h>

#include "error.h"
#include "strbuf.h"

/* Branch updates lost to other local writers before giving up. */
#define LOCAL_RACES_MAX 100
/* How long a locked ref or cache is waited for. */
#define REF_LOCK_WAIT_MS 10000
#define CACHE_LOCK_WAIT_MS 300000
/* Refs named in a "ref not found" message. */
#define REFS_LISTED 10

struct baseline_store {
	git_repository *repo;
	char *name;		/* the repository in messages: no userinfo */
	char *url;		/* network URL; NULL for a local repository */
	char *lock_path;	/* the cache's lock file (network only) */
	int lock_fd;
	char *ssh_key;
	char *known_hosts;	/* NULL: ~/.ssh and /etc/ssh known_hosts */
	char *token;		/* the token itself, or NULL */
	char *token_env;
	char *token_user;
	char *author_name;
	char *author_email;
	int push_retries;
	int offline;
	int attempts;
	char *hook;		/* a local repository's first receive hook:
				 * its branches move through `git push` */
	char *pack_error;	/* why the last baseline_store_pack_loose()
				 * failed; NULL when it did not */
	char *key_error;	/* why the last record's key ref could not
				 * follow; NULL when it did */
	int partial;		/* a network cache that holds only the key
				 * refs compare read (bgit_fetch_full()) */
};

/* How one attempt to write the commit ended. */
enum step {
	STEP_DONE,		/* the branch points at the new commit */
	STEP_SAME,		/* the tip already stores these bytes */
	STEP_RACED,		/* another writer moved the branch first */
	STEP_LOCKED,		/* another writer holds the branch's lock */
};

/* What the credential callback saw, for the message when auth fails. */
struct cred_state {
	const struct baseline_store *bs;
	int tries;		/* keys or tokens handed to libgit2 */
	int no_token;		/* the server asked for a token we lack */
	int host_unknown;	/* the ssh host key is not a known one */
	int no_keygen;		/* ssh-keygen (looks keys up) is missing */
	int cleartext;		/* a token was asked for over plain http */
	char host[256];		/* the host as known_hosts names it */
};

/* cred comes first: the callbacks of a push share this one payload. */
struct push_state {
	struct cred_state cred;
	char *refused;		/* the server's reason, when it refused */
};

/* ---- baseline_git_err.c ---- */

/* What bgit_vfail() appends to the message. */
#define FAIL_GIT	1	/* libgit2's last error */
#define FAIL_FSCK	2	/* the advice to run git fsck */

/*
 * Set the error message (scrubbed of userinfo and the token), with what
 * the FAIL_* bits in `with` ask for appended, and return `code`.
 */
int bgit_vfail(const struct baseline_store *bs, int code, int with,
    const char *fmt, va_list ap);

/* bgit_vfail() without and with libgit2's reason, printf-style. */
static inline int __attribute__((format(printf, 3, 4)))
fail(const struct baseline_store *bs, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bgit_vfail(bs, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

static inline int __attribute__((format(printf, 3, 4)))
fail_git(const struct baseline_store *bs, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bgit_vfail(bs, code, FAIL_GIT, fmt, ap);
	va_end(ap);
	return code;
}

/*
 * A read that found the repository damaged (an object or ref that is
 * missing or does not parse): JG_EIO with libgit2's reason and the advice
 * to run git fsck.  Never JG_ENOTFOUND: damage is not "no baseline".
 */
static inline int __attribute__((format(printf, 2, 3)))
fail_damaged(const struct baseline_store *bs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bgit_vfail(bs, JG_EIO, FAIL_GIT | FAIL_FSCK, fmt, ap);
	va_end(ap);
	return JG_EIO;
}

/* Sleep `ms` milliseconds, through signals. */
void bgit_sleep_ms(long ms);

/* ---- baseline_git_pack.c ---- */

/* A pack being written, and what removing objects may do. */
struct bgit_pack {
	struct baseline_store *bs;
	struct baseline_gc_stats *st;
	git_packbuilder *pb;
	git_revwalk *walk;
	git_odb *pack;		/* the new pack alone; NULL: none written */
	struct strbuf objects;	/* "<gitdir>objects" */
	time_t cutoff;		/* unreachable and not newer: removed */
	int prune;		/* remove unreachable objects at all */
	size_t loose;		/* loose objects counted */
};

/* What is done to each loose object: its id, its file.  0 or JG_E*. */
typedef int (*bgit_loose_fn)(struct bgit_pack *g, const git_oid *id,
    const char *path);

/*
 * Write what g->pb holds into objects/pack, synced to disk, and open it
 * alone as g->pack (st->packed 0 and no pack when it holds nothing).
 * 0 or JG_EIO.
 */
int bgit_pack_write(struct bgit_pack *g);

/* Call `fn` for each loose object (and, when g->prune, remove emptied
 * objects/xx directories).  Stops at the first error. */
int bgit_each_loose(struct bgit_pack *g, bgit_loose_fn fn);

/*
 * Remove each loose object the new pack holds, and with g->prune each
 * other one last modified before g->cutoff; count them in g->st.
 */
int bgit_sweep_loose(struct bgit_pack *g);

/* Whether the file at `path` was last modified before g->cutoff. */
int bgit_old_enough(struct bgit_pack *g, const char *path);

/* 1 when the new pack holds every object of the pack whose index is
 * `idx`, else 0 (also when it cannot be read: it stays). */
int bgit_pack_covered(struct bgit_pack *g, const char *idx);

/* Remove <path[0..stem]>.idx, .rev, ... and .pack last.  0 or JG_EIO. */
int bgit_pack_remove(struct bgit_pack *g, struct strbuf *path, size_t stem);

/* ---- baseline_git_keys.c ---- */

#define KEY_REFS "refs/jankgate/keys/"

/*
 * The blob at <package>/<device_key>/results.json in `root`: 1 with *out
 * set when there is one, 0 when the path is absent, JG_EINVAL when
 * something else is in the way (`at` names the commit for the message).
 */
int bgit_file_at(git_oid *out, struct baseline_store *bs,
    const git_tree *root, const char *package, const char *device_key,
    const git_oid *at);

/* bgit_file_at() in the tree of commit `c`. */
int bgit_file_in_commit(git_oid *out, struct baseline_store *bs,
    const git_commit *c, const char *package, const char *device_key);

/* A version of a key's file: the commit that stored it, and its blob. */
struct bgit_version {
	git_oid commit, blob;
};

struct bgit_versions {
	struct bgit_version *v;
	size_t nr, alloc;
};

/*
 * The versions of the key's file on the first parents of `tip` (a commit
 * whose blob is not its parent's), newest first, appended to `out`, `max`
 * at most (0: all), until the file is absent or the commit `anchor` (NULL:
 * none) is met, which sets *anchored.  0 or JG_E*; the caller frees
 * out->v.
 */
int bgit_versions(struct bgit_versions *out, int *anchored,
    struct baseline_store *bs, const git_oid *tip, const char *package,
    const char *device_key, const git_oid *anchor, size_t max);

/*
 * "refs/jankgate/keys/<branch>/<package>/<device_key>" into `out` for the
 * branch `branch_ref` ("refs/heads/<branch>"): 0, or 1 when that is no
 * valid ref name (a branch given otherwise, a name ending in ".lock"):
 * such a key has no key ref.
 */
int bgit_key_refname(struct strbuf *out, const char *branch_ref,
    const char *package, const char *device_key);

/*
 * Bring the key ref of package/device_key on `branch_ref` in line with the
 * branch (written, or deleted when the branch or its file is gone), from
 * where it left off or, with `rebuild`, from scratch (the same objects
 * where it was right).  *moved is 1 when the ref changed.  0 or JG_E*.
 */
int bgit_key_sync(struct baseline_store *bs, const char *branch_ref,
    const char *package, const char *device_key, int rebuild, int *moved);

/* ---- baseline_git_hooks.c ---- */

/*
 * Set bs->hook to the first hook `git receive-pack` would run in the local
 * repository (NULL: none).  0, or JG_EIO when there is one and the git
 * program, which alone runs it, is not installed.
 */
int bgit_find_hook(struct baseline_store *bs);

/*
 * Move `refname` from `tip` (zero: only if absent) to `id`, already in the
 * repository, with `git push` into the repository itself, so its hooks
 * run.  Returns STEP_DONE, STEP_RACED when another writer moved the branch,
 * or JG_EIO (a refusal, with the hooks' message), JG_ETIMEOUT.
 */
int bgit_push_local(struct baseline_store *bs, const char *refname,
    const git_oid *id, const git_oid *tip);

/* ---- baseline_git_net.c ---- */

/* Take and release the cache's lock (network repositories only). */
int bgit_cache_lock(struct baseline_store *bs);
void bgit_cache_unlock(struct baseline_store *bs);

/*
 * Fetch the remote's branches, tags and key refs into the cache (forced,
 * pruned).  The cache's lock is the caller's.  0 or JG_E*.
 */
int bgit_fetch(struct baseline_store *bs);

/*
 * Connect to the remote and hang up: what a fetch would say of the URL,
 * the credentials or the host key, without downloading.  0 or JG_E*.
 */
int bgit_probe(struct baseline_store *bs);

/*
 * A partial cache (bs->partial): one made for a network repository, which
 * fetches only the key refs it reads until something needs a branch.
 * Whether the cache is one (its configuration's jankgate.partial), and
 * marking it so or not.  bgit_set_partial(): 0 or JG_EIO.
 */
int bgit_is_partial(struct baseline_store *bs);
int bgit_set_partial(struct baseline_store *bs, int on);

/*
 * Fetch the one ref `refname` (a key ref), taking the cache's lock unless
 * held; nothing when opened offline.  0 or JG_E*.
 */
int bgit_fetch_key(struct baseline_store *bs, const char *refname);

/*
 * Make a partial cache whole: fetch everything (bgit_fetch()) and drop
 * the mark.  Nothing for a whole cache, a local repository, or offline.
 * 0 or JG_E*.
 */
int bgit_fetch_whole(struct baseline_store *bs);

/*
 * Push `refname` to the remote (forced with `force`).  *refused gets the
 * server's reason (caller frees) when it refused the update, NULL
 * otherwise.
 */
int bgit_push(struct baseline_store *bs, const char *refname, int force,
    char **refused);

/* ---- baseline_git_odb.c ---- */

/*
 * Put the guard in front of the repository's object database, so that a
 * damaged loose object is an error naming it instead of a read that never
 * ends.  0 or JG_EIO.
 */
int bgit_guard_objects(struct baseline_store *bs);

/*
 * Check that HEAD, packed-refs, the files under refs/ and the pack files
 * are regular files (libgit2 would wait on a FIFO forever).  0 or JG_EIO
 * naming the first that is not.
 */
int bgit_guard_files(struct baseline_store *bs);

/*
 * Whether `len` bytes are a whole loose object (zlib stream of a git
 * object header and exactly the size it declares): NULL when they are,
 * else what is wrong, as a static phrase ("is truncated").
 */
const char *bgit_loose_check(const unsigned char *buf, size_t len);


#endif
