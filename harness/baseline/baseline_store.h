/*
 * baseline_store.h: the git repository that holds accepted runs.
 *
 * One repository, on this machine or behind a URL, keeps the baseline of any
 * number of apps and device classes, one file each:
 *
 *	<package>/<device-key>/results.json
 *
 * Every accepted run is one commit that touches one such file, so plain
 * `git log -- com.example.app/pixel-7-api34/results.json` is that device's
 * history.  The commit message names the run:
 *
 *	baseline com.example.app 1.4.2 on pixel-7-api34: pass (run r42)
 *
 *	Jankgate-Run: r42
 *	Jankgate-Verdict: pass
 *	Jankgate-App-Version: 1.4.2
 *
 * and a hand-made acceptance says "accept ..." instead, with the reason as a
 * paragraph before the trailers and a `Jankgate-Accepted-By:` trailer.
 *
 * Where the repository lives decides how it is written:
 *   - a path or a file:// URL is used in place.  A commit is written as
 *     objects only (blob, trees, commit; the index and any working tree are
 *     left alone) and the branch is moved with a compare-and-swap, so two
 *     processes racing on one repository both land, one after the other.
 *     (libgit2's own file:// push overwrites the remote branch without that
 *     check, which could lose a concurrent commit; committing in place is
 *     what a push would do there anyway.)  A repository with a hook that
 *     `git receive-pack` runs (pre-receive, update, post-receive...) has
 *     its branch moved by `git push` into itself instead, with the same
 *     check, so its hooks run and may refuse; without the git program
 *     such a repository is not written.
 *   - ssh://, scp-like user@host:path, https://, http:// and git:// URLs are
 *     cloned once into a bare cache under opts.cache_dir, fetched when the
 *     store is opened, committed to there and pushed.  A push that another
 *     job beat is retried on the new tip, up to opts.push_retries times.
 *
 * Reading never checks anything out: histories are first-parent walks over
 * commit and tree objects.  Credentials come from ssh-agent, the key file in
 * opts.ssh_key or the token in the variable opts.token_env names; no message
 * this module sets contains a token or the userinfo part of a URL.  An ssh
 * host must be in known_hosts, as the ssh client would insist.
 *
 * The operations live in baseline_git_*.c, the only files that speak libgit2;
 * baseline_store.c holds the rules that need no repository (layout, commit
 * messages, the content check, URL scrubbing).
 */
#ifndef JG_BASELINE_STORE_H
#define JG_BASELINE_STORE_H

#include <stddef.h>

struct strbuf;
struct retain_rule;

#define BASELINE_FILE "results.json"
#define BASELINE_OID_HEXSZ 40

struct baseline_store;

struct baseline_store_opts {
	/* A path, a file:// URL or a network URL. */
	const char *repo;
	/* Clones of network repositories.  NULL: $XDG_CACHE_HOME/jankgate,
	 * else ~/.cache/jankgate. */
	const char *cache_dir;
	/* Private key file for ssh.  NULL: ssh-agent. */
	const char *ssh_key;
	/* Known ssh host keys.  NULL: ~/.ssh/known_hosts, then
	 * /etc/ssh/ssh_known_hosts. */
	const char *known_hosts;
	/* The variable holding an https token, or NULL. */
	const char *token_env;
	/* User sent with the token.  NULL: the URL's, else x-access-token. */
	const char *token_user;
	/* Pushes after a refused one, each on the new tip (< 0: none). */
	int push_retries;
	/* Commit identity.  NULL: "jankgate" <jankgate@localhost>. */
	const char *author_name;
	const char *author_email;
	/* A local path that does not exist becomes a bare repository. */
	int create;
	/* Use the cache as it was last fetched: no fetch and no push. */
	int offline;
};

/* What a commit says about the run it stores. */
struct baseline_commit_info {
	const char *app_version;	/* required, one line */
	const char *run_id;		/* required, one line */
	const char *verdict;		/* required, one line */
	const char *reason;	/* NULL: a recorded run; else accepted */
	const char *accepted_by;	/* accepted only; NULL: the author */
	const char *build_id;	/* one line; NULL: not known, no trailer */
};

/*
 * One version of one device's baseline, or one commit of the log.  Strings
 * are NULL when the commit lacks them (a commit made by hand has no
 * trailers).  `data` is NUL-terminated for convenience but may hold NULs;
 * `len` is its size.  All members belong to the array; free it with
 * baseline_entries_free().
 */
struct baseline_entry {
	char commit[BASELINE_OID_HEXSZ + 1];
	long long time;		/* committer time, seconds since 1970 */
	int tz_minutes;		/* committer's offset from UTC */
	char *subject;
	char *run_id;		/* Jankgate-Run */
	char *verdict;		/* Jankgate-Verdict */
	char *app_version;	/* Jankgate-App-Version */
	char *build_id;		/* Jankgate-Build */
	char *accepted_by;	/* Jankgate-Accepted-By: acceptances */
	char *reason;		/* between the subject and the trailers */
	char *package;
	char *device_key;
	char *data;		/* the file; NULL in a log entry */
	size_t len;
};

/*
 * Open the repository named by o->repo: a local repository as it is (a
 * missing path is created as a bare repository when o->create is set), a
 * network one by cloning or fetching it into the cache.  Returns 0,
 * JG_ENOTFOUND (no such repository), JG_EAUTH, JG_EIO, JG_EINVAL, or
 * JG_ETIMEOUT when another jankgate held the cache for minutes.
 */
int baseline_store_open(struct baseline_store **out,
    const struct baseline_store_opts *o);

/* Close the store.  NULL is a no-op. */
void baseline_store_free(struct baseline_store *bs);

/* The repository as messages should name it (no userinfo); borrowed. */
const char *baseline_store_name(const struct baseline_store *bs);

/*
 * The baseline sample: the `max` newest versions (0: all) of one device's
 * file on `ref` (branch, tag or commit id), newest first, following first
 * parents and stopping where the file was absent.  *nr == 0 with 0 returned
 * means "no baseline yet" (no version, or an empty repository).  Returns
 * JG_ENOTFOUND for an unknown ref (the message lists the refs there are) and
 * JG_EINVAL when something other than a jankgate results file is there.
 */
int baseline_store_history(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *ref, const char *package,
    const char *device_key, size_t max);

/*
 * The commits on the first-parent history of `ref` that stored a version,
 * newest first, `max` at most (0: all), for one device key, all keys of one
 * package (device_key NULL) or everything (both NULL).  A commit storing
 * several files gives one entry per file.  Entries carry no data.  Errors as
 * baseline_store_history(), except that content is not inspected.
 */
int baseline_store_log(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *ref, const char *package,
    const char *device_key, size_t max);

/*
 * The files present in the tree of `rev`, filtered as baseline_store_log();
 * each entry carries the data and the metadata of `rev` itself.  *nr == 0
 * when none matches.  Errors as baseline_store_history().
 */
int baseline_store_show(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *rev, const char *package,
    const char *device_key);

/*
 * Commit `data` (checked to be a jankgate results file) as the baseline of
 * `package`/`device_key` on `branch`, which is created when missing, and
 * push it for a network repository.  Writes the new commit's id to `out`.
 * When the branch already holds exactly these bytes nothing is committed
 * and `out` is the tip.  A checked-out branch moves without its index or
 * files.  Returns 0, JG_EINVAL (bad names, info or data, a foreign file in
 * the way, or a store opened offline), JG_EAUTH, JG_ETIMEOUT, or JG_EIO
 * (also when every retry of a refused push was beaten again, and when a
 * local repository's receive hook refused the update or git, which runs
 * it, is not installed).
 */
int baseline_store_record(char out[BASELINE_OID_HEXSZ + 1],
    struct baseline_store *bs, const char *branch, const char *package,
    const char *device_key, const char *data, size_t len,
    const struct baseline_commit_info *info);

/*
 * How many times the last baseline_store_record() wrote its commit: 1 when
 * the first push or branch update went through, more when it was beaten,
 * 0 when the branch already held the data.
 */
int baseline_store_attempts(const struct baseline_store *bs);

/*
 * Why the last baseline_store_record() could not bring the device key's
 * ref (refs/jankgate/keys/..., docs/store.md) in line after recording, or
 * NULL.  The run is recorded either way; `baseline gc` brings the ref in
 * line later.
 */
const char *baseline_store_key_error(const struct baseline_store *bs);

/*
 * Bring every key ref of a local repository in line with its branch:
 * each key ref of a file at a branch's tip written again (the same
 * objects where it was right), and those whose branch or file is gone
 * deleted.  *moved counts the refs written or deleted.  Returns 0,
 * JG_EINVAL for a network repository, or JG_EIO.
 */
int baseline_store_sync_keys(size_t *moved, struct baseline_store *bs);

/* What baseline_store_gc() did. */
struct baseline_gc_stats {
	size_t packed;		/* objects in the new pack */
	size_t loose_packed;	/* loose objects removed: now in the pack */
	size_t pruned;		/* unreachable loose objects removed */
	size_t kept;		/* unreachable loose ones, younger than grace */
	size_t packs_removed;	/* older packs the new one replaced */
	char pack[BASELINE_OID_HEXSZ + 1];	/* its name; "" when none */
};

/* Unreachable objects younger than this stay (git gc's default). */
#define BASELINE_GC_GRACE (14 * 24 * 60 * 60L)

/*
 * Pack everything that a branch, a tag, any other ref, a detached HEAD, a
 * reflog or (in a repository with a working tree) the index reaches into
 * one new pack in objects/pack, written with libgit2's packbuilder and
 * synced to disk, then remove the loose objects that pack holds, the unreachable
 * loose ones older than `grace` seconds, and the older packs (without a
 * .keep file) whose objects the new pack holds or that are older than
 * `grace`.  The grace keeps what a concurrent record has written but not
 * yet put on its branch.  Refs are never changed.  Only a local repository
 * is packed: a network one gives JG_EINVAL (its server packs it).  Returns
 * 0, JG_EINVAL or JG_EIO (the repository is as readable as before: nothing
 * is removed that the new pack does not hold, or that is unreachable).
 */
int baseline_store_gc(struct baseline_gc_stats *st, struct baseline_store *bs,
    long grace);

/*
 * Records between packs: a record writes five loose objects on the branch
 * (the file, three trees, the commit) and up to three for its key ref (a
 * commit, and its package's tree and root tree where the branch's differ),
 * so the record path packs once 8 * this many are loose.  50 is one pack a
 * night for a farm of 50 phones, so the loose files of a store stay under
 * 400 and a pack is written at most once a night there.
 */
#define BASELINE_PACK_EVERY 50
#define BASELINE_PACK_LOOSE (8 * BASELINE_PACK_EVERY)

/*
 * Packs of one size class merged into one: a class spans a factor of
 * this many objects, from BASELINE_PACK_LOOSE up.  Reading slows with the
 * number of packs (a lookup may search each), so the packs of a class
 * merged are kept fewer than this many.
 */
#define BASELINE_PACK_MERGE 10

/*
 * The size classes the record path merges, from the smallest: 1, packs
 * under BASELINE_PACK_LOOSE x BASELINE_PACK_MERGE objects only.  libgit2's
 * packbuilder deltifies every object it writes anew, so a merge costs
 * in proportion to its objects: this bounds what a record rewrites,
 * whatever the store's size.  The larger packs are left to gc, which
 * puts everything in one; without gc they add up to one per
 * BASELINE_PACK_LOOSE x BASELINE_PACK_MERGE objects recorded.
 */
#define BASELINE_PACK_MERGE_CLASSES 1

/*
 * When at least `min_loose` objects of the store's repository are loose,
 * write them all into one new pack (packbuilder, synced to disk) and
 * remove the loose copies the pack holds; a loose object another writer
 * adds meanwhile stays.  Then, while BASELINE_PACK_MERGE packs (without
 * a .keep) of one of the BASELINE_PACK_MERGE_CLASSES smallest size
 * classes exist, merge them into one, removing each
 * only once the synced new pack holds all it held.  Unreachable objects
 * are packed too: gc drops them.  Fills `st` (packed 0: under the
 * threshold; packs_removed: the packs merged).  Returns 0 or
 * JG_EIO, whose message baseline_store_pack_error() also keeps.
 */
int baseline_store_pack_loose(struct baseline_gc_stats *st,
    struct baseline_store *bs, size_t min_loose);

/* Why the last baseline_store_pack_loose() failed, or NULL; borrowed. */
const char *baseline_store_pack_error(const struct baseline_store *bs);

/* A run baseline_store_retain() dropped from a branch. */
struct baseline_drop {
	char commit[BASELINE_OID_HEXSZ + 1];	/* as it was on the branch */
	char *branch;		/* "main" */
	char *package;
	char *device_key;
	char *run_id;
	long long time;		/* committer time, seconds since 1970 */
};

/*
 * Apply `rule` (retain.h) at time `now` to every branch of a local
 * repository: per branch and device file, the runs the rule does not keep
 * are dropped from the first-parent history, which is written again above
 * the oldest of them (authors, committers and messages as they were) and
 * the branch moved with a compare-and-swap.  Tagged runs and acceptances
 * always stay; tags and other refs are not changed.  *out gets what was
 * dropped, oldest first per branch (free with baseline_drops_free()), also
 * when an error stops it at a later branch.  Returns 0, JG_EIO (damage, a
 * write that failed, or a branch that moved meanwhile: that branch is as
 * it was).
 */
int baseline_store_retain(struct baseline_drop **out, size_t *nr,
    struct baseline_store *bs, const struct retain_rule *rule,
    long long now);

/* Free `nr` drops and the array.  NULL is a no-op. */
void baseline_drops_free(struct baseline_drop *d, size_t nr);

/* Free `nr` entries and the array.  NULL is a no-op. */
void baseline_entries_free(struct baseline_entry *e, size_t nr);

/*
 * The rules below need no repository; baseline_git_*.c and the commands share
 * them.
 */

/*
 * Append "<package>/<device_key>/results.json" to `out`.  Returns 0, or
 * JG_EINVAL when either name is not one safe path component (letters,
 * digits, '.', '_', '-', '+', '@'; not starting with '.' or '-').
 */
int baseline_path(struct strbuf *out, const char *package,
    const char *device_key);

/*
 * Append the commit message for storing `info` as the baseline of
 * `package`/`device_key` (the format above).  Returns 0, or JG_EINVAL when
 * a required field is missing, a one-line field holds a line break or
 * control character, or an acceptance has an empty reason.
 */
int baseline_message_format(struct strbuf *out, const char *package,
    const char *device_key, const struct baseline_commit_info *info);

/*
 * Fill e->subject, reason, run_id, verdict, app_version, build_id and
 * accepted_by
 * from a commit message (newly allocated; fields missing from `msg` are
 * left NULL), and e->commit from a Jankgate-Commit trailer (a key ref's
 * commit reports the branch commit it mirrors).  Any message is accepted.
 */
void baseline_message_parse(struct baseline_entry *e, const char *msg);

/*
 * Append `msg` with a Jankgate-Commit trailer naming `commit` (40 hex
 * digits): the message of a key ref's commit mirroring that one.
 */
void baseline_message_mirror(struct strbuf *out, const char *msg,
    const char *commit);

/*
 * The light check that `data` is a jankgate results file: a JSON object
 * with a "schema" of "jankgate.results/<n>".  The full parse is the
 * caller's.  Returns 0 or JG_EINVAL with a message naming `what`.
 */
int baseline_content_check(const char *data, size_t len, const char *what);

/*
 * The major version of the "schema" of a results file: 1 for
 * "jankgate.results/1" (or "/1.2"), -1 when there is none that reads
 * as one.
 */
int baseline_schema_version(const char *data, size_t len);

/*
 * Whether `repo` names a network repository (one the store clones into its
 * cache): any URL with a scheme but file://, or git's scp-like
 * "[user@]host:path".
 */
int baseline_is_network_url(const char *repo);

/*
 * Append `s` to `out` with the userinfo of every URL in it removed
 * ("https://u:t@host/x" becomes "https://host/x") and each occurrence of
 * `secret` (NULL or "": none) replaced by "***".
 */
void baseline_scrub(struct strbuf *out, const char *s, const char *secret);

#endif
