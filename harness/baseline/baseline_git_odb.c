/*
 * baseline_git_odb.c: the loose-object guard (baseline_git_int.h).
 *
 * libgit2 1.5 inflates a loose object until zlib says the stream ended,
 * and takes zlib's "no progress possible" (Z_BUF_ERROR) for "try again":
 * a loose object cut short (a full disk, a crash during a copy) makes
 * every read of it spin at full CPU forever (libgit2 issue 7342, fixed
 * after 1.5).  The guard is an object-database backend placed before
 * libgit2's own.  For every object read it inflates the loose file there
 * is, if any, itself, with a loop that stops at the first step that makes
 * no progress, and checks what git requires of a loose object:
 *
 *	zlib( "<type> <size>\0" <size bytes> )
 *
 * type one of commit, tree, blob, tag; nothing after the stream.  A
 * damaged file is an error naming the object; an intact or absent one is
 * passed through to libgit2's backends, which then read it as always (and
 * check its hash).
 *
 * The rest is checked once, when the store opens the repository
 * (bgit_guard_files()).  Reading a FIFO never ends: HEAD, packed-refs,
 * every file under refs/ and every pack file must be regular files.
 * libgit2 1.5 trusts a pack and its index, and a damaged one can make it
 * read outside the file: every pack, its index and a multi-pack-index
 * must match the SHA-1 checksum git ends them with.
 *
 * Reading every pack at every open costs a store of a year of nights
 * (tens of MB of packs) more than the rest of a comparison grows, so a
 * pack found whole is noted, with the stat data of it and of its index,
 * in PACK_NOTE beside the repository's objects, one line a pack:
 *
 *	pack-<sha1>.pack <size> <mtime> <ctime> <ino> <size> <mtime>
 *	    <ctime> <ino>		(the .pack's, then the .idx's)
 *
 * times as seconds.nanoseconds, all on one line.  A pack whose files
 * still have the noted stat data is not read again: any write to either
 * (a flipped bit, a cut, a copy over it) changes its ctime.  The note is
 * all the guard writes, atomically; a store it cannot write to (read
 * only) checks every pack at every open, as before, and a note that does
 * not parse costs a check, never a skip.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "baseline_git_int.h"
#include "error.h"
#include "fileio.h"
#include "hash.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* The guard's note of the packs it found whole, in the git directory. */
#define PACK_NOTE "jankgate-packs-checked"

/* Alternates followed from the repository's objects directory. */
#define ALTERNATES_MAX 8
/* A header longer than this is not one ("commit 18446744073709551615"). */
#define HEADER_MAX 32

struct guard {
	git_odb_backend parent;
	char *dirs[1 + ALTERNATES_MAX];	/* objects directories */
	size_t nr;
};

/* Parse "<type> <size>" (hdr is NUL-terminated); 0 or -1. */
static int
parse_header(const char *hdr, unsigned long long *size)
{
	static const char *const types[] = { "commit ", "tree ", "blob ",
	    "tag " };
	const char *p = NULL;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strncmp(hdr, types[i], strlen(types[i])))
			p = hdr + strlen(types[i]);
	if (!p || *p < '0' || *p > '9' || (*p == '0' && p[1]))
		return -1;
	*size = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || *size > ULLONG_MAX / 10 - 10)
			return -1;
		*size = *size * 10 + (unsigned)(*p - '0');
	}
	return 0;
}

/*
 * Check that `len` bytes at `buf` are a whole loose object: NULL when
 * they are, else what is wrong (a static string).  Every turn of the loop
 * consumes input or produces output, and output stops at the size the
 * header declares, so it ends.
 */
const char *
bgit_loose_check(const unsigned char *buf, size_t len)
{
	unsigned char out[16384];
	char hdr[HEADER_MAX + 1];
	unsigned long long size = 0, body = 0;
	size_t hlen = 0;
	int have_hdr = 0, ret;
	const char *why = NULL;
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return "cannot be inflated";
	z.next_in = (unsigned char *)buf;
	/* A loose object over 4 GiB is not ours; refuse it rather than
	 * feed zlib in pieces. */
	if (len > UINT_MAX) {
		inflateEnd(&z);
		return "is too large to check";
	}
	z.avail_in = (uInt)len;
	for (;;) {
		uInt in_before = z.avail_in;
		size_t got, i = 0;

		z.next_out = out;
		z.avail_out = sizeof(out);
		ret = inflate(&z, Z_NO_FLUSH);
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
			why = ret == Z_DATA_ERROR ? "does not inflate" :
			    "cannot be inflated";
			break;
		}
		got = sizeof(out) - z.avail_out;
		for (; !have_hdr && i < got; i++) {
			if (out[i]) {
				if (hlen == HEADER_MAX)
					break;
				hdr[hlen++] = (char)out[i];
				continue;
			}
			hdr[hlen] = '\0';
			if (parse_header(hdr, &size) < 0)
				break;
			have_hdr = 1;
		}
		if (!have_hdr && (i < got || hlen == HEADER_MAX)) {
			why = "has no git object header";
			break;
		}
		body += got - i;
		if (have_hdr && body > size) {
			why = "holds more than its header says";
			break;
		}
		if (ret == Z_STREAM_END)
			break;
		if (!got && z.avail_in == in_before) {
			why = "is truncated";
			break;
		}
	}
	if (!why && ret == Z_STREAM_END) {
		if (!have_hdr)
			why = "has no git object header";
		else if (body < size)
			why = "holds less than its header says";
		else if (z.avail_in)
			why = "has garbage after its data";
	}
	inflateEnd(&z);
	return why;
}

/*
 * Read the loose file of `hex` under `dir` into *buf (caller frees):
 * 1 when read, 0 when there is none, -1 with *why set when it cannot be
 * read as a file.  Opened without blocking: a FIFO would never end.
 */
static int
read_loose(unsigned char **buf, size_t *len, const char *dir,
    const char *hex, const char **why)
{
	char *path = xasprintf("%s/%.2s/%s", dir, hex, hex + 2);
	struct stat st;
	size_t n = 0;
	int fd;

	*buf = NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	free(path);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		*why = "cannot be opened";
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		*why = "is not a regular file";
		return -1;
	}
	*buf = xmalloc(st.st_size ? (size_t)st.st_size : 1);
	while (n < (size_t)st.st_size) {
		ssize_t r = read(fd, *buf + n, (size_t)st.st_size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return 1;
}

/* Check the loose copies of `hex`: 0, or -1 with libgit2's error set. */
static int
guard_hex(struct guard *g, const char *hex)
{
	for (size_t i = 0; i < g->nr; i++) {
		unsigned char *buf = NULL;
		const char *why = NULL;
		size_t len = 0;
		int has = read_loose(&buf, &len, g->dirs[i], hex, &why);

		if (has > 0)
			why = bgit_loose_check(buf, len);
		free(buf);
		if (why) {
			git_error_set(GIT_ERROR_ODB, "object %s: its loose "
			    "file %s", hex, why);
			return -1;
		}
	}
	return 0;
}

static int
guard_id(git_odb_backend *b, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), id);
	return guard_hex((struct guard *)b, hex) < 0 ? GIT_ERROR :
	    GIT_PASSTHROUGH;
}

static int
guard_read(void **data, size_t *len, git_object_t *type, git_odb_backend *b,
    const git_oid *id)
{
	return guard_id(b, id);
}

static int
guard_read_header(size_t *len, git_object_t *type, git_odb_backend *b,
    const git_oid *id)
{
	return guard_id(b, id);
}

/* An abbreviated id: check every loose file it could name. */
static int
guard_read_prefix(git_oid *out, void **data, size_t *len,
    git_object_t *type, git_odb_backend *b, const git_oid *short_id,
    size_t hexlen)
{
	struct guard *g = (struct guard *)b;
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), short_id);
	if (hexlen < 2 || hexlen > GIT_OID_HEXSZ)
		return GIT_PASSTHROUGH;
	hex[hexlen] = '\0';
	for (size_t i = 0; i < g->nr; i++) {
		char *path = xasprintf("%s/%.2s", g->dirs[i], hex);
		DIR *d = opendir(path);
		struct dirent *de;
		int err = 0;

		free(path);
		while (d && !err && (de = readdir(d))) {
			char full[GIT_OID_HEXSZ + 1];

			if (strlen(de->d_name) != GIT_OID_HEXSZ - 2 ||
			    strncmp(de->d_name, hex + 2, hexlen - 2))
				continue;
			snprintf(full, sizeof(full), "%.2s%s", hex,
			    de->d_name);
			err = guard_hex(g, full);
		}
		if (d)
			closedir(d);
		if (err)
			return GIT_ERROR;
	}
	return GIT_PASSTHROUGH;
}

static void
guard_free(git_odb_backend *b)
{
	struct guard *g = (struct guard *)b;

	for (size_t i = 0; i < g->nr; i++)
		free(g->dirs[i]);
	free(g);
}

/* Add the directories objects/info/alternates names, one level deep. */
static void
add_alternates(struct guard *g, const char *objects)
{
	char *path = xasprintf("%s/info/alternates", objects);
	FILE *f = fopen(path, "re");
	char line[4096];

	free(path);
	while (f && g->nr < 1 + ALTERNATES_MAX &&
	    fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line || *line == '#')
			continue;
		g->dirs[g->nr++] = *line == '/' ? xstrdup(line) :
		    xasprintf("%s/%s", objects, line);
	}
	if (f)
		fclose(f);
}

/*
 * The first file below `dir` (`rel` names it in messages) that is neither
 * a directory nor a regular file: 1 with *bad set (caller frees), else 0.
 */
static int
find_odd_file(char **bad, const char *dir, const char *rel, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		char *path, *name;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		name = xasprintf("%s/%s", rel, de->d_name);
		/* A dangling symlink is libgit2's to report. */
		if (stat(path, &st) < 0 || S_ISREG(st.st_mode))
			;
		else if (!S_ISDIR(st.st_mode) || depth <= 0)
			found = 1;
		else
			found = find_odd_file(bad, path, name, depth - 1);
		if (found && !*bad)
			*bad = name;
		else
			free(name);
		free(path);
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * Map the file at `path` read-only: its bytes in *map and *len (unmap
 * with munmap), or -1.  An empty file maps to nothing and is -1 too.
 */
static int
map_file(const char *path, unsigned char **map, size_t *len)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		errno = EINVAL;
		return -1;
	}
	*map = p;
	*len = (size_t)st.st_size;
	return 0;
}

/*
 * Whether the `len` bytes at `buf` end with the SHA-1 of what comes
 * before, as every pack, pack index and multi-pack-index does.
 */
static int
trailer_ok(const unsigned char *buf, size_t len)
{
	unsigned char sum[HASH_SHA1_SIZE];

	if (len < HASH_SHA1_SIZE)
		return 0;
	hash_sha1(sum, buf, len - HASH_SHA1_SIZE);
	return !memcmp(sum, buf + len - HASH_SHA1_SIZE, HASH_SHA1_SIZE);
}

/*
 * Check a pack and its index against their checksums: NULL when both
 * hold, else what is wrong.  libgit2 1.5 trusts both, and a flipped
 * byte in either can make it read outside the file (a crash) instead
 * of failing.  This reads every byte of the pack once per open: baseline
 * repositories hold small JSON files, and their packs are small.
 */
static const char *
pack_check(const char *pack_path)
{
	unsigned char *pack = NULL, *idx = NULL;
	size_t pack_len = 0, idx_len = 0;
	size_t stem = strlen(pack_path) - strlen(".pack");
	char *idx_path = xasprintf("%.*s.idx", (int)stem, pack_path);
	const char *why = NULL;

	/* Gone since the directory was read: a gc or a record's merge
	 * removed it, once a newer pack held all it held. */
	if (map_file(pack_path, &pack, &pack_len) < 0 && errno == ENOENT)
		goto out;
	if (!pack)
		why = "it cannot be read";
	else if (pack_len < 12 + HASH_SHA1_SIZE || memcmp(pack, "PACK", 4))
		why = "it is not a pack";
	else if (!trailer_ok(pack, pack_len))
		why = "it does not match its checksum";
	/* A pack without its index is not read (git and libgit2 list the
	 * indexes): being written, or being removed (index first). */
	else if (map_file(idx_path, &idx, &idx_len) < 0 && errno == ENOENT)
		why = NULL;
	else if (!idx)
		why = "its .idx cannot be read";
	else if (idx_len < 2 * HASH_SHA1_SIZE || !trailer_ok(idx, idx_len))
		why = "its .idx does not match its checksum";
	else if (memcmp(idx + idx_len - 2 * HASH_SHA1_SIZE,
	    pack + pack_len - HASH_SHA1_SIZE, HASH_SHA1_SIZE))
		why = "its .idx is another pack's";
out:
	if (pack)
		munmap(pack, pack_len);
	if (idx)
		munmap(idx, idx_len);
	free(idx_path);
	return why;
}

/*
 * The PACK_NOTE line of pack `name` in `dir` (without its newline) into
 * `line`; 0, or -1 when the pack or its index cannot be stat()ed (then
 * it is checked, never noted).
 */
static int
pack_stat_line(struct strbuf *line, const char *dir, const char *name)
{
	size_t n = strlen(name) - strlen(".pack");

	strbuf_setlen(line, 0);
	strbuf_addstr(line, name);
	for (int idx = 0; idx < 2; idx++) {
		char *path = xasprintf("%s/%.*s%s", dir, (int)n, name,
		    idx ? ".idx" : ".pack");
		struct stat st;
		int rc = stat(path, &st);

		free(path);
		if (rc)
			return -1;
		strbuf_addf(line, " %lld %lld.%09ld %lld.%09ld %llu",
		    (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		    st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
		    st.st_ctim.tv_nsec, (unsigned long long)st.st_ino);
	}
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Write `lines` as the note at `path` unless it holds them already; a
 * note that cannot be written is no error (the packs are checked again
 * next time).
 */
static void
note_write(const char *path, const struct strbuf *old,
    const struct strlist *lines)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < lines->nr; i++)
		strbuf_addf(&sb, "%s\n", lines->items[i]);
	if (sb.len != old->len || memcmp(sb.buf, old->buf, sb.len))
		if (file_write_atomic(path, sb.buf, sb.len, 0644))
			jg_error_clear();
	strbuf_release(&sb);
}

/* Whether the note `old` holds `line` as one of its lines. */
static int
note_has(const struct strbuf *old, const struct strbuf *line)
{
	for (const char *p = old->buf; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len == line->len && !memcmp(p, line->buf, len))
			return 1;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

/*
 * Check every pack in `dir` (`rel` in messages) that PACK_NOTE in the
 * git directory `gitdir` does not hold unchanged, and note the whole
 * ones: 0 or JG_EIO.
 */
static int
packs_check(struct baseline_store *bs, const char *gitdir, const char *dir,
    const char *rel)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strbuf old = STRBUF_INIT, line = STRBUF_INIT;
	struct strlist whole = STRLIST_INIT;
	char *note = xasprintf("%s/%s", gitdir, PACK_NOTE);
	int err = 0;

	if (file_read(&old, note))
		jg_error_clear();
	while (d && !err && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		const char *why = NULL;
		char *path;

		if (n > 5 && !strcmp(de->d_name + n - 5, ".pack")) {
			int noted = !pack_stat_line(&line, dir, de->d_name);

			if (noted && note_has(&old, &line)) {
				strlist_add(&whole, line.buf);
				continue;
			}
			path = xasprintf("%s/%s", dir, de->d_name);
			why = pack_check(path);
			free(path);
			/* Stat again: the pack may have gone meanwhile. */
			if (!why && noted && !pack_stat_line(&line, dir,
			    de->d_name))
				strlist_add(&whole, line.buf);
		} else if (!strcmp(de->d_name, "multi-pack-index")) {
			unsigned char *m;
			size_t len;

			path = xasprintf("%s/%s", dir, de->d_name);
			if (map_file(path, &m, &len) < 0) {
				why = "it cannot be read";
			} else {
				if (!trailer_ok(m, len))
					why = "it does not match its checksum";
				munmap(m, len);
			}
			free(path);
		}
		if (why) {
			git_error_clear();
			err = fail_damaged(bs, "'%s/%s' in '%s' is damaged: %s",
			    rel, de->d_name, bs->name, why);
		}
	}
	if (d)
		closedir(d);
	/* readdir's order is no order: keep the note the same bytes. */
	if (whole.nr)
		qsort(whole.items, whole.nr, sizeof(*whole.items), cmp_str);
	if (d && !err)
		note_write(note, &old, &whole);
	strlist_release(&whole);
	strbuf_release(&old);
	strbuf_release(&line);
	free(note);
	return err;
}

int
bgit_guard_files(struct baseline_store *bs)
{
	static const char *const files[] = { "HEAD", "packed-refs" };
	const char *common = git_repository_commondir(bs->repo);
	char *bad = NULL, *path;
	int err = 0;

	for (size_t i = 0; !bad && i < sizeof(files) / sizeof(files[0]);
	    i++) {
		struct stat st;

		path = xasprintf("%s/%s", common, files[i]);
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
			bad = xstrdup(files[i]);
		free(path);
	}
	if (!bad) {
		path = xasprintf("%s/refs", common);
		find_odd_file(&bad, path, "refs", 16);
		free(path);
	}
	if (!bad) {
		path = xasprintf("%s/objects/pack", common);
		find_odd_file(&bad, path, "objects/pack", 0);
		free(path);
	}
	if (bad) {
		git_error_clear();
		err = fail_damaged(bs, "'%s' in '%s' is not a regular file",
		    bad, bs->name);
	}
	free(bad);
	if (!err) {
		path = xasprintf("%s/objects/pack", common);
		err = packs_check(bs, common, path, "objects/pack");
		free(path);
	}
	return err;
}

int
bgit_guard_objects(struct baseline_store *bs)
{
	struct guard *g;
	git_odb *odb = NULL;
	const char *common = git_repository_commondir(bs->repo);

	if (git_repository_odb(&odb, bs->repo) < 0)
		return fail_git(bs, JG_EIO, "cannot open the objects of '%s'",
		    bs->name);
	g = xcalloc(1, sizeof(*g));
	git_odb_init_backend(&g->parent, GIT_ODB_BACKEND_VERSION);
	g->parent.read = guard_read;
	g->parent.read_header = guard_read_header;
	g->parent.read_prefix = guard_read_prefix;
	g->parent.free = guard_free;
	g->dirs[g->nr++] = xasprintf("%s%sobjects", common,
	    *common && common[strlen(common) - 1] == '/' ? "" : "/");
	add_alternates(g, g->dirs[0]);
	/* Above libgit2's backends (priorities 1 and 2): asked first. */
	if (git_odb_add_backend(odb, &g->parent, 1000) < 0) {
		guard_free(&g->parent);
		git_odb_free(odb);
		return fail_git(bs, JG_EIO, "cannot open the objects of '%s'",
		    bs->name);
	}
	git_odb_free(odb);
	return 0;
}
