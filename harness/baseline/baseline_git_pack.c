/*
 * baseline_git_pack.c: writing packs and removing what they hold, for
 * gc (baseline_git_gc.c) and for the record path
 * (baseline_store_pack_loose()).
 *
 * Every removal waits for a pack written with libgit2's packbuilder and
 * synced to disk (bgit_pack_write()), and asks that pack, opened on its
 * own, whether it holds the object (bgit_pack_covered()), so a decision
 * never rests on a list kept in memory.
 *
 * The record path runs the light form every BASELINE_PACK_EVERY records:
 * every loose object into one pack, then the loose copies it holds
 * removed, without pruning and without removing emptied objects/xx
 * directories, where a concurrent record may be about to write; then,
 * while BASELINE_PACK_MERGE packs of one of the smallest size classes
 * (BASELINE_PACK_MERGE_CLASSES) are there, they are merged into one, each
 * removed once the new pack holds all of it.  Larger classes wait for
 * gc: the packbuilder deltifies every object anew, so merging them would
 * make a record's cost grow with the store.
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

int
bgit_pack_write(struct bgit_pack *g)
{
	struct strbuf dir = STRBUF_INIT, idx = STRBUF_INIT;
	git_odb_backend *be = NULL;
	struct stat sb;
	int err = 0;

	g->st->packed = git_packbuilder_object_count(g->pb);
	if (!g->st->packed)
		return 0;
	strbuf_addf(&dir, "%s/pack", g->objects.buf);
	/* libgit2 (1.5) leaves what it set up for a pack behind when the
	 * directory is no directory: say so without asking it. */
	if (stat(dir.buf, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		err = jg_error_set(JG_EIO, "cannot write a pack into '%s': "
		    "not a directory", dir.buf);
		goto out;
	}
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
in_pack(struct bgit_pack *g, const git_oid *id)
{
	return g->pack && git_odb_exists(g->pack, id);
}

int
bgit_old_enough(struct bgit_pack *g, const char *path)
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


/*
 * Call `fn` for each loose object of objects/<xx>/, then, when pruning,
 * remove the directory if it is left empty (as git prune does).
 */
static int
each_loose_in(struct bgit_pack *g, const char *xx, bgit_loose_fn fn)
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

int
bgit_each_loose(struct bgit_pack *g, bgit_loose_fn fn)
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
sweep_one(struct bgit_pack *g, const git_oid *id, const char *path)
{
	int packed = in_pack(g, id);

	if (!packed && (!g->prune || !bgit_old_enough(g, path))) {
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

int
bgit_sweep_loose(struct bgit_pack *g)
{
	return bgit_each_loose(g, sweep_one);
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
int
bgit_pack_covered(struct bgit_pack *g, const char *idx)
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
int
bgit_pack_remove(struct bgit_pack *g, struct strbuf *path, size_t stem)
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
count_one(struct bgit_pack *g, const git_oid *id, const char *path)
{
	(void)id;
	(void)path;
	g->loose++;
	return 0;
}

static int
insert_one(struct bgit_pack *g, const git_oid *id, const char *path)
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
list_packs(struct bgit_pack *g, struct pack_file **out, size_t *nr)
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
	struct bgit_pack *g = payload;

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
	struct bgit_pack g = { .bs = bs, .st = &st, .objects = STRBUF_INIT };
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
	if (err || (err = bgit_pack_write(&g)) < 0)
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
		if (!bgit_pack_covered(&g, path.buf))
			continue;
		if (!(err = bgit_pack_remove(&g, &path, stem)))
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
 * Keep the packs few: while BASELINE_PACK_MERGE packs of one of the
 * BASELINE_PACK_MERGE_CLASSES smallest size classes exist, merge them
 * into one of the next.  Each object is so rewritten once per class
 * merged, and a merge writes fewer than BASELINE_PACK_MERGE packs of a
 * bounded size; the packs of the classes above pile up until gc.
 */
static int
merge_packs(struct bgit_pack *g)
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
		for (int l = 0; l < BASELINE_PACK_MERGE_CLASSES && level < 0;
		    l++)
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
	struct bgit_pack g = { .bs = bs, .st = st, .objects = STRBUF_INIT };
	git_odb *odb = NULL;
	int err;

	memset(st, 0, sizeof(*st));
	free(bs->pack_error);
	bs->pack_error = NULL;
	strbuf_addf(&g.objects, "%sobjects", git_repository_path(bs->repo));
	if ((err = bgit_each_loose(&g, count_one)) < 0 || g.loose < min_loose)
		goto out;
	if (git_packbuilder_new(&g.pb, bs->repo) < 0) {
		err = fail_git(bs, JG_EIO, "cannot pack '%s'", bs->name);
		goto out;
	}
	git_packbuilder_set_threads(g.pb, 1);
	/* Objects a concurrent writer adds from here on are not in the
	 * pack, and stay loose: only what the pack holds is removed. */
	if ((err = bgit_each_loose(&g, insert_one)) < 0 ||
	    (err = bgit_pack_write(&g)) < 0 ||
	    (err = bgit_sweep_loose(&g)) < 0 ||
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
