/*
 * fuzz_baseline.c: libFuzzer target for the baseline repository reader
 * (baseline_store.h) on damaged repositories.
 *
 * Once per process two small repositories are made in a temporary
 * directory with the store itself: one of loose objects (three runs on
 * main, a tag v1 on the first), and, when the git program is there, the
 * same packed (`git repack -ad`, `git pack-refs --all`).  Each input
 * damages one file of one of them, reads it as compare and `baseline
 * log/show` would, and puts the file back.  The input is
 *
 *	byte 0   bit 0: which repository; the rest: which file (below)
 *	byte 1   what to do: 0 cut the file at OFFSET, 1 xor DATA into it at
 *	         OFFSET, 2 replace it with DATA, 3 write DATA over it at
 *	         OFFSET (growing it as needed)
 *	byte 2-3 OFFSET, big-endian, modulo the file's size + 1
 *	byte 4-  DATA
 *
 * and the files, by byte 0 >> 1 modulo their number: the tip commit's,
 * the parent commit's, the tip tree's and the tip blob's loose object,
 * refs/heads/main, refs/tags/v1, packed-refs, HEAD, the pack and its
 * index (a file that is absent is created, and removed afterwards).
 *
 * Whatever the damage, every read ends (in the seed replay a read that
 * takes a minute is stopped by SIGALRM, failing the run) and returns 0 or
 * one of the store's documented errors with a message.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline_store.h"
#include "error.h"
#include "fileio.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"

#define PKG "com.example.app"
#define DEV_A "google-pixel-7-api34-90hz"
#define DEV_B "samsung-s21-api33-120hz"
#define NR_FILES 10

struct repo {
	char *path;
	char *files[NR_FILES];	/* relative to path */
	int ok;
};

static char *top;
static struct repo repos[2];
static char tip_abbrev[8];
static int under_libfuzzer;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer calls this and keeps its own timer; the replay does not. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	under_libfuzzer = 1;
	return 0;
}

static void
remove_top(void)
{
	if (top)
		file_remove_tree(top);
}

static int
run_git(const char *dir, const char *a1, const char *a2)
{
	const char *argv[] = { "git", "-C", dir, a1, a2, NULL };
	struct proc_result r;
	int ok;

	proc_result_init(&r);
	ok = proc_run(&r, argv, NULL) == 0 && r.exit_code == 0;
	proc_result_release(&r);
	return ok;
}

static int
record(struct baseline_store *bs, const char *dev, const char *run)
{
	struct baseline_commit_info info = { "1.0", run, "pass", NULL, NULL,
	    NULL };
	char id[BASELINE_OID_HEXSZ + 1];
	char *data = xasprintf("{\"schema\": \"jankgate.results/1\", "
	    "\"run\": {\"id\": \"%s\"}}\n", run);
	int rc = baseline_store_record(id, bs, "main", PKG, dev, data,
	    strlen(data), &info);

	free(data);
	return rc;
}

/* "objects/xx/yyyy" for what `spec` names in the repository at `path`. */
static char *
object_file(git_repository *repo, const char *spec)
{
	git_object *obj;
	char hex[GIT_OID_HEXSZ + 1];

	if (git_revparse_single(&obj, repo, spec) < 0)
		return NULL;
	git_oid_tostr(hex, sizeof(hex), git_object_id(obj));
	git_object_free(obj);
	return xasprintf("objects/%.2s/%s", hex, hex + 2);
}

/* The one file in objects/pack ending in `ext`, or a name for none. */
static char *
pack_file(const char *path, const char *ext)
{
	char *dir = xasprintf("%s/objects/pack", path);
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;

	while (d && !found && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > strlen(ext) && !strcmp(de->d_name + n - strlen(ext),
		    ext))
			found = xasprintf("objects/pack/%s", de->d_name);
	}
	if (d)
		closedir(d);
	free(dir);
	return found ? found : xasprintf("objects/pack/none%s", ext);
}

static int
make_repo(struct repo *r, const char *name, int packed)
{
	static const char *const specs[] = { "main", "main~1", "main^{tree}",
	    "main:" PKG "/" DEV_A "/results.json" };
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;
	git_repository *repo;
	git_object *first;
	char hex[GIT_OID_HEXSZ + 1];
	int rc = 0;

	r->path = xasprintf("%s/%s", top, name);
	o.repo = r->path;
	o.create = 1;
	if (baseline_store_open(&bs, &o) < 0)
		return -1;
	if (record(bs, DEV_A, "r1") < 0 || record(bs, DEV_B, "r1") < 0 ||
	    record(bs, DEV_A, "r2") < 0)
		rc = -1;
	baseline_store_free(bs);
	if (rc < 0 || (packed && (!run_git(r->path, "repack", "-adq") ||
	    !run_git(r->path, "pack-refs", "--all"))))
		return -1;
	git_libgit2_init();
	if (git_repository_open(&repo, r->path) < 0) {
		git_libgit2_shutdown();
		return -1;
	}
	for (int i = 0; i < 4; i++)
		if (!(r->files[i] = object_file(repo, specs[i])))
			rc = -1;
	if (!rc && git_revparse_single(&first, repo, "main~2") == 0) {
		char *tag = xasprintf("%s/refs/tags/v1", r->path);

		git_oid_tostr(hex, sizeof(hex), git_object_id(first));
		git_object_free(first);
		strncat(hex, "\n", sizeof(hex) - strlen(hex) - 1);
		if (!packed)
			file_write_atomic(tag, hex, strlen(hex), 0644);
		free(tag);
	}
	git_repository_free(repo);
	git_libgit2_shutdown();
	r->files[4] = xstrdup("refs/heads/main");
	r->files[5] = xstrdup("refs/tags/v1");
	r->files[6] = xstrdup("packed-refs");
	r->files[7] = xstrdup("HEAD");
	r->files[8] = pack_file(r->path, ".pack");
	r->files[9] = pack_file(r->path, ".idx");
	r->ok = rc == 0;
	return rc;
}

static void
setup(void)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/jg-fuzz-baseline-XXXXXX",
	    tmpdir && *tmpdir ? tmpdir : "/tmp");
	char hex[8];
	char *tip;

	top = mkdtemp(tmpl);
	if (!top)
		abort();
	atexit(remove_top);
	if (make_repo(&repos[0], "loose.git", 0) < 0)
		abort();	/* the store cannot make its own repository */
	/* Without git there is no packed copy: both bytes pick loose. */
	if (make_repo(&repos[1], "packed.git", 1) < 0)
		repos[1] = repos[0];
	tip = repos[0].files[0];
	snprintf(hex, sizeof(hex), "%.2s%.5s", tip + 8, tip + 11);
	memcpy(tip_abbrev, hex, sizeof(tip_abbrev));
}

/* What a file held before the damage: its bytes and mode, or absent. */
struct saved {
	struct strbuf data;
	mode_t mode;
	int absent;
};

static void
save(struct saved *s, const char *path)
{
	struct stat st;

	strbuf_init(&s->data, 0);
	s->absent = stat(path, &st) < 0;
	s->mode = s->absent ? 0644 : st.st_mode & 07777;
	if (!s->absent && (!S_ISREG(st.st_mode) || file_read(&s->data,
	    path) < 0))
		abort();
	jg_error_clear();
}

static void
put(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd;

	chmod(path, 0644);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		/* a loose object of the packed repository: no directory */
		char *dir = xstrdup(path);

		*strrchr(dir, '/') = '\0';
		mkdir(dir, 0755);
		free(dir);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0644);
		if (fd < 0)
			abort();
	}
	for (size_t off = 0; off < len; ) {
		ssize_t n = write(fd, (const char *)data + off, len - off);

		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	close(fd);
	chmod(path, mode);
}

static void
restore(struct saved *s, const char *path)
{
	if (s->absent)
		unlink(path);
	else
		put(path, s->data.buf, s->data.len, s->mode);
	strbuf_release(&s->data);
}

/* Damage the file at `path` (saved in `s`) as the input says. */
static void
damage(const char *path, const struct saved *s, const uint8_t *in,
    size_t size)
{
	struct strbuf out = STRBUF_INIT;
	size_t off = ((size_t)in[2] << 8 | in[3]) % (s->data.len + 1);
	const uint8_t *d = in + 4;
	size_t dlen = size - 4;

	strbuf_add(&out, s->data.buf, s->data.len);
	switch (in[1] & 3) {
	case 0:
		strbuf_setlen(&out, off);
		break;
	case 1:
		for (size_t i = 0; i < dlen && off + i < out.len; i++)
			out.buf[off + i] ^= (char)d[i];
		break;
	case 2:
		strbuf_reset(&out);
		strbuf_add(&out, d, dlen);
		break;
	case 3:
		if (off + dlen > out.len) {
			strbuf_grow(&out, off + dlen - out.len);
			strbuf_setlen(&out, off + dlen);
		}
		memcpy(out.buf + off, d, dlen);
		break;
	}
	put(path, out.buf, out.len, s->mode);
	strbuf_release(&out);
}

/* A read returns 0 or a documented error, with a message. */
static void
check(int rc)
{
	if (rc == 0)
		return;
	if (rc != JG_EIO && rc != JG_EINVAL && rc != JG_ENOTFOUND)
		abort();
	if (!*jg_error_msg())
		abort();
	jg_error_clear();
}

static void
read_all(const char *path)
{
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;
	struct baseline_entry *e;
	size_t nr;
	int rc;

	o.repo = path;
	rc = baseline_store_open(&bs, &o);
	check(rc);
	if (rc)
		return;
	check(baseline_store_history(&e, &nr, bs, "main", PKG, DEV_A, 0));
	for (size_t i = 0; i < nr; i++)
		if (!e[i].data || baseline_content_check(e[i].data, e[i].len,
		    "fuzz") < 0)
			abort();	/* history hands out only results */
	baseline_entries_free(e, nr);
	check(baseline_store_log(&e, &nr, bs, "main", NULL, NULL, 0));
	baseline_entries_free(e, nr);
	check(baseline_store_show(&e, &nr, bs, "v1", NULL, NULL));
	baseline_entries_free(e, nr);
	check(baseline_store_show(&e, &nr, bs, tip_abbrev, PKG, NULL));
	baseline_entries_free(e, nr);
	baseline_store_free(bs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct repo *r;
	struct saved s;
	char *path;

	if (!top)
		setup();
	if (size < 4)
		return 0;
	r = &repos[data[0] & 1];
	path = xasprintf("%s/%s", r->path, r->files[(data[0] >> 1) %
	    NR_FILES]);
	save(&s, path);
	damage(path, &s, data, size);
	if (!under_libfuzzer)
		alarm(60);
	read_all(r->path);
	if (!under_libfuzzer)
		alarm(0);
	restore(&s, path);
	free(path);
	return 0;
}
