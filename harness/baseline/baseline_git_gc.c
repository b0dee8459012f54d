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
 *      or when they are older than the grace; never one with a .keep.
 *
 * baseline_store_pack_loose() is the light form the record path runs
 * every BASELINE_PACK_EVERY records: every loose object into one pack,
 * then the loose copies the pack holds removed (steps 2 and 3 without
 * pruning, and without removing emptied objects/xx directories, where a
 * concurrent record may be about to write); then the packs of a size
 * class are merged once BASELINE_PACK_MERGE of them are there (step 4
 * for those packs alone: each goes once the new pack holds all of it).
 *
 * The new pack is opened on its own (git_odb_backend_one_pack()) to ask
 * whether it holds an object, so a decision never rests on a list kept in
 * memory.  A writer racing with gc writes its objects before it moves its
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
#include "xalloc.h"
#include "banned.h"

struct gc {
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

/* Put `id` (a ref's target) and what it reaches into the pack. */
static int
add_root(struct gc *g, const git_oid *id, const char *what)
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
add_reflog(struct gc *g, const char *name)
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
add_refs(struct gc *g)
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
add_index(struct gc *g)
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
write_pack(struct gc *g)
{
	struct strbuf dir = STRBUF_INIT, idx = STRBUF_INIT;
	git_odb_backend *be = NULL;
	int err = 0;

	g->st->packed = git_packbuilder_object_count(g->pb);
	if (!g->st->packed)
		return 0;
	strbuf_addf(&dir, "%s/pack", g->objects.buf);
	/* Durable before any loose copy goes. */
	git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
	if (git_packbuilder_write(g->pb, dir.buf, 0, NULL, NULL) < 0)
		err = fail_git(g->bs, JG_EIO, "cannot write a pack into '%s'",
		    dir.buf);
	git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 0);
	if (err)
		goto out;
	snprintf(g->st->pack, sizeof(g->st->pack), "%s",
	    git_packbuilder_name(g->pb));
	strbuf_addf(&idx, "%s/pack-%s.idx", dir.buf, g->st->pack);
	if (git_odb_new(&g->pack) < 0 ||
	    git_odb_backend_one_pack(&be, idx.buf) < 0)
		err = fail_git(g->bs, JG_EIO, "cannot open the new pack '%s'",
		    idx.buf);
	else if (git_odb_add_backend(g->pack, be, 1) < 0) {
		be->free(be);
		err = fail_git(g->bs, JG_EIO, "cannot open the new pack '%s'",
		    idx.buf);
	}
out:
	strbuf_release(&dir);
	strbuf_release(&idx);
	return err;
}

static int
in_pack(struct gc *g, const git_oid *id)
{
	return g->pack && git_odb_exists(g->pack, id);
}

static int
old_enough(struct gc *g, const char *path)
{
	struct stat st;

	return !lstat(path, &st) && st.st_mtime <= g->cutoff;
}

static int
is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return 0;
	return !s[n];
}

/* What is done to each loose object: its id, its file.  0 or JG_E*. */
typedef int (*loose_fn)(struct gc *g, const git_oid *id, const char *path);

/*
 * Call `fn` for each loose object of objects/<xx>/, then, when pruning,
 * remove the directory if it is left empty (as git prune does).
 */
static int
each_loose_in(struct gc *g, const char *xx, loose_fn fn)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	size_t base;
	DIR *d;
	int err = 0;

	strbuf_addf(&path, "%s/%s", g->objects.buf, xx);
	if (!(d = opendir(path.buf))) {
		if (errno != ENOENT)
			err = jg_error_errno(JG_EIO, errno, "cannot read "
			    "'%s'", path.buf);
		strbuf_release(&path);
		return err;
	}
	strbuf_addch(&path, '/');
	base = path.len;
	while (!err && (de = readdir(d))) {
		char hex[GIT_OID_HEXSZ + 1];
		git_oid id;

		if (!is_hex(de->d_name, GIT_OID_HEXSZ - 2))
			continue;
		memcpy(hex, xx, 2);
		memcpy(hex + 2, de->d_name, GIT_OID_HEXSZ - 2);
		hex[GIT_OID_HEXSZ] = '\0';
		if (git_oid_fromstr(&id, hex) < 0)
			continue;
		strbuf_setlen(&path, base);
		strbuf_addstr(&path, de->d_name);
		err = fn(g, &id, path.buf);
	}
	closedir(d);
	/* Only gc: a writer may have just made the directory for its
	 * object, and would fail to create the file in it. */
	strbuf_setlen(&path, base - 1);
	if (g->prune)
		rmdir(path.buf);
	strbuf_release(&path);
	return err;
}

static int
each_loose(struct gc *g, loose_fn fn)
{
	int err = 0;

	for (int i = 0; !err && i < 256; i++) {
		char xx[3];

		snprintf(xx, sizeof(xx), "%02x", i);
		err = each_loose_in(g, xx, fn);
	}
	return err;
}

/*
 * A loose object goes when the new pack holds it, or when it is
 * unreachable, pruning is asked for and it is older than the grace.
 */
static int
sweep_one(struct gc *g, const git_oid *id, const char *path)
{
	int packed = in_pack(g, id);

	if (!packed && (!g->prune || !old_enough(g, path))) {
		g->st->kept++;
		return 0;
	}
	if (unlink(path) < 0 && errno != ENOENT)
		return jg_error_errno(JG_EIO, errno, "cannot remove '%s'",
		    path);
	if (packed)
		g->st->loose_packed++;
	else
		g->st->pruned++;
	return 0;
}

static int
missing_from_pack(const git_oid *id, void *payload)
{
	return in_pack(payload, id) ? 0 : 1;
}

/*
 * Whether the new pack holds every object of the pack whose index is
 * `idx`: 1 yes, 0 no (or it cannot be read: it stays).
 */
static int
pack_covered(struct gc *g, const char *idx)
{
	git_odb *odb = NULL;
	git_odb_backend *be = NULL;
	int covered = 0;

	if (!g->pack || git_odb_new(&odb) < 0)
		return 0;
	if (git_odb_backend_one_pack(&be, idx) < 0) {
		git_error_clear();
		goto out;
	}
	if (git_odb_add_backend(odb, be, 1) < 0) {
		be->free(be);
		git_error_clear();
		goto out;
	}
	covered = git_odb_foreach(odb, missing_from_pack, g) == 0;
	git_error_clear();
out:
	git_odb_free(odb);
	return covered;
}

/* Remove pack-<stem>.*: the index first, so no reader finds a pack
 * without one, and the pack last. */
static int
remove_pack(struct gc *g, struct strbuf *path, size_t stem)
{
	static const char *const exts[] = { ".idx", ".rev", ".bitmap",
	    ".mtimes", ".promisor", ".pack" };

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		strbuf_setlen(path, stem);
		strbuf_addstr(path, exts[i]);
		if (unlink(path->buf) < 0 && errno != ENOENT)
			return jg_error_errno(JG_EIO, errno, "cannot remove "
			    "'%s'", path->buf);
	}
	return 0;
}

static int
sweep_packs(struct gc *g)
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
		if (!old_enough(g, path.buf)) {
			strbuf_setlen(&path, stem);
			strbuf_addstr(&path, ".idx");
			if (!pack_covered(g, path.buf))
				continue;
		}
		if (!(err = remove_pack(g, &path, stem)))
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
	struct gc g = { .bs = bs, .st = st, .objects = STRBUF_INIT,
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
	if ((err = write_pack(&g)) < 0 ||
	    (err = each_loose(&g, sweep_one)) < 0 ||
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

static int
count_one(struct gc *g, const git_oid *id, const char *path)
{
	(void)id;
	(void)path;
	g->loose++;
	return 0;
}

static int
insert_one(struct gc *g, const git_oid *id, const char *path)
{
	if (git_packbuilder_insert(g->pb, id, NULL) < 0)
		return fail_git(g->bs, JG_EIO, "cannot pack '%s'", path);
	return 0;
}

/* A pack of objects/pack that merge_packs() may merge. */
struct pack_file {
	char *stem;		/* ".../objects/pack/pack-<hex>" */
	size_t objects;
};

/* The object count an .idx file declares (v2, as libgit2 and git write
 * it; 0 when it cannot be read). */
static size_t
idx_objects(const char *path)
{
	unsigned char buf[8 + 256 * 4];
	size_t n;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	if (n < sizeof(buf) || memcmp(buf, "\377tOc", 4))
		return 0;
	return (size_t)buf[8 + 1020] << 24 | (size_t)buf[8 + 1021] << 16 |
	    (size_t)buf[8 + 1022] << 8 | buf[8 + 1023];
}

/* Its size class: 0 under F x BASELINE_PACK_LOOSE objects, then one more
 * for each factor of F. */
static int
pack_level(size_t objects)
{
	size_t bound = (size_t)BASELINE_PACK_LOOSE * BASELINE_PACK_MERGE;
	int level = 0;

	for (; objects >= bound && level < 16; level++)
		bound *= BASELINE_PACK_MERGE;
	return level;
}

/* The packs (with an index, without a .keep) of objects/pack. */
static int
list_packs(struct gc *g, struct pack_file **out, size_t *nr)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	size_t alloc = 0;
	DIR *d;

	*out = NULL;
	*nr = 0;
	strbuf_addf(&dir, "%s/pack", g->objects.buf);
	if (!(d = opendir(dir.buf))) {
		strbuf_release(&dir);
		return errno == ENOENT ? 0 : jg_error_errno(JG_EIO, errno,
		    "cannot read '%s'", dir.buf);
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), stem, objects;

		if (n < 10 || strncmp(de->d_name, "pack-", 5) ||
		    strcmp(de->d_name + n - 5, ".pack"))
			continue;
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s/%.*s", dir.buf, (int)(n - 5),
		    de->d_name);
		stem = path.len;
		strbuf_addstr(&path, ".keep");
		if (!access(path.buf, F_OK))
			continue;
		strbuf_setlen(&path, stem);
		strbuf_addstr(&path, ".idx");
		if (!(objects = idx_objects(path.buf)))
			continue;
		if (*nr == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			*out = xrealloc(*out, alloc * sizeof(**out));
		}
		(*out)[*nr].stem = xstrndup(path.buf, stem);
		(*out)[(*nr)++].objects = objects;
	}
	closedir(d);
	strbuf_release(&dir);
	strbuf_release(&path);
	return 0;
}

static int
insert_packed(const git_oid *id, void *payload)
{
	struct gc *g = payload;

	return git_packbuilder_insert(g->pb, id, NULL) < 0 ? -1 : 0;
}

/*
 * Write the objects of the packs of `level` in p[] into one new pack,
 * then remove each of them the new pack holds all of.
 */
static int
merge_level(struct baseline_store *bs, const struct pack_file *p, size_t nr,
    int level, size_t *removed)
{
	struct baseline_gc_stats st = { 0 };
	struct gc g = { .bs = bs, .st = &st, .objects = STRBUF_INIT };
	struct strbuf path = STRBUF_INIT;
	int err = 0;

	strbuf_addf(&g.objects, "%sobjects", git_repository_path(bs->repo));
	if (git_packbuilder_new(&g.pb, bs->repo) < 0) {
		err = fail_git(bs, JG_EIO, "cannot pack '%s'", bs->name);
		goto out;
	}
	git_packbuilder_set_threads(g.pb, 1);
	for (size_t i = 0; !err && i < nr; i++) {
		git_odb *odb = NULL;
		git_odb_backend *be = NULL;

		if (pack_level(p[i].objects) != level)
			continue;
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s.idx", p[i].stem);
		if (git_odb_new(&odb) < 0 ||
		    git_odb_backend_one_pack(&be, path.buf) < 0 ||
		    git_odb_add_backend(odb, be, 1) < 0 ||
		    git_odb_foreach(odb, insert_packed, &g) < 0) {
			if (be && !git_odb_num_backends(odb))
				be->free(be);
			err = fail_git(bs, JG_EIO, "cannot merge '%s'",
			    path.buf);
		}
		git_odb_free(odb);
	}
	if (err || (err = write_pack(&g)) < 0)
		goto out;
	for (size_t i = 0; !err && i < nr; i++) {
		size_t stem;

		if (pack_level(p[i].objects) != level)
			continue;
		strbuf_setlen(&path, 0);
		strbuf_addstr(&path, p[i].stem);
		stem = path.len;
		strbuf_addstr(&path, ".idx");
		/* Another gc or merge may have taken it already. */
		if (!pack_covered(&g, path.buf))
			continue;
		if (!(err = remove_pack(&g, &path, stem)))
			(*removed)++;
	}
out:
	git_odb_free(g.pack);
	git_packbuilder_free(g.pb);
	strbuf_release(&g.objects);
	strbuf_release(&path);
	return err;
}

/*
 * Keep the packs few: while BASELINE_PACK_MERGE packs of one size class
 * exist, merge them into one of the next.  Each object is so rewritten
 * once per class, and a store holds fewer than BASELINE_PACK_MERGE packs
 * per class, whose count grows with the logarithm of its size.
 */
static int
merge_packs(struct gc *g)
{
	int err = 0;

	for (int round = 0; !err && round < 16; round++) {
		struct pack_file *p = NULL;
		size_t nr = 0, at[17] = { 0 };
		int level = -1;

		if ((err = list_packs(g, &p, &nr)) < 0)
			break;
		for (size_t i = 0; i < nr; i++)
			at[pack_level(p[i].objects)]++;
		for (int l = 0; l < 17 && level < 0; l++)
			if (at[l] >= BASELINE_PACK_MERGE)
				level = l;
		if (level >= 0)
			err = merge_level(g->bs, p, nr, level,
			    &g->st->packs_removed);
		for (size_t i = 0; i < nr; i++)
			free(p[i].stem);
		free(p);
		if (level < 0)
			break;
	}
	return err;
}

int
baseline_store_pack_loose(struct baseline_gc_stats *st,
    struct baseline_store *bs, size_t min_loose)
{
	struct gc g = { .bs = bs, .st = st, .objects = STRBUF_INIT };
	git_odb *odb = NULL;
	int err;

	memset(st, 0, sizeof(*st));
	free(bs->pack_error);
	bs->pack_error = NULL;
	strbuf_addf(&g.objects, "%sobjects", git_repository_path(bs->repo));
	if ((err = each_loose(&g, count_one)) < 0 || g.loose < min_loose)
		goto out;
	if (git_packbuilder_new(&g.pb, bs->repo) < 0) {
		err = fail_git(bs, JG_EIO, "cannot pack '%s'", bs->name);
		goto out;
	}
	git_packbuilder_set_threads(g.pb, 1);
	/* Objects a concurrent writer adds from here on are not in the
	 * pack, and stay loose: only what the pack holds is removed. */
	if ((err = each_loose(&g, insert_one)) < 0 ||
	    (err = write_pack(&g)) < 0 ||
	    (err = each_loose(&g, sweep_one)) < 0 ||
	    (err = merge_packs(&g)) < 0)
		goto out;
	if (!git_repository_odb(&odb, bs->repo))
		git_odb_refresh(odb);
	git_odb_free(odb);
out:
	if (err)
		bs->pack_error = xstrdup(jg_error_msg());
	git_odb_free(g.pack);
	git_packbuilder_free(g.pb);
	strbuf_release(&g.objects);
	return err;
}

const char *
baseline_store_pack_error(const struct baseline_store *bs)
{
	return bs->pack_error;
}
