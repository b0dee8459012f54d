/*
 * test_baseline_damage.c: the baseline store on damaged repositories.
 *
 * Each test records a few runs with the store, damages one object, ref or
 * pack the way a full disk, a crash or a bad copy would, and reads again.
 * Every read and record runs in a child process that SIGALRM stops after
 * 20 s, so a read that never ends (a truncated loose object used to spin
 * libgit2 1.5 forever) fails the test instead of hanging the suite.  The
 * limit is a guard, not a measure: these reads take milliseconds.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

/* Before unit.h: cmocka's fail() macro would rename the store's fail(). */
#include "baseline_git_int.h"
#include "unit.h"
#include "baseline_store.h"
#include "error.h"
#include "fileio.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"

#define PKG "com.example.app"
#define DEV "google-pixel-7-api34-90hz"
#define PATH_IN_REPO PKG "/" DEV "/results.json"

/* A path under this process's temp dir; a fresh name per call. */
static char *
tmp(const char *name)
{
	static int seq;

	return xasprintf("%s/%s-%d", unit_tmpdir(), name, ++seq);
}

/* Run git in `dir`, assert it succeeded, return its stdout (to free). */
static char *
git(const char *dir, const char *a1, const char *a2, const char *a3)
{
	const char *argv[] = { "git", "-C", dir, a1, a2, a3, NULL };
	struct proc_result r;
	char *out;

	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, NULL), 0);
	if (r.exit_code != 0)
		fail_msg("git %s: %s", a1, r.err.buf);
	out = strbuf_detach(&r.out, NULL);
	proc_result_release(&r);
	return out;
}

static char *
results(const char *run, int schema)
{
	return xasprintf("{\n  \"schema\": \"jankgate.results/%d\",\n"
	    "  \"run\": { \"id\": \"%s\" }\n}\n", schema, run);
}

static struct baseline_store *
open_store(const char *repo, int create)
{
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;

	o.repo = repo;
	o.create = create;
	if (baseline_store_open(&bs, &o) < 0)
		fail_msg("open '%s': %s", repo, jg_error_msg());
	return bs;
}

static int
record_schema(struct baseline_store *bs, const char *run, int schema)
{
	struct baseline_commit_info info = { "1.4.2", run, "pass", NULL,
	    NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1];
	char *data = results(run, schema);
	int rc;

	rc = baseline_store_record(id, bs, "main", PKG, DEV, data,
	    strlen(data), &info);
	free(data);
	return rc;
}

/* A repository holding runs r1..r<n> on main; its tip's id in `tip`. */
static char *
repo_with_runs(int n, char tip[BASELINE_OID_HEXSZ + 1])
{
	char *path = tmp("repo.git");
	struct baseline_store *bs = open_store(path, 1);
	char *out;

	for (int i = 1; i <= n; i++) {
		char run[16];

		snprintf(run, sizeof(run), "r%d", i);
		if (record_schema(bs, run, 1) < 0)
			fail_msg("record %s: %s", run, jg_error_msg());
	}
	baseline_store_free(bs);
	out = git(path, "rev-parse", "main", NULL);
	assert_int_equal(strlen(out), BASELINE_OID_HEXSZ + 1);
	memcpy(tip, out, BASELINE_OID_HEXSZ);
	tip[BASELINE_OID_HEXSZ] = '\0';
	free(out);
	return path;
}

/* The loose file of object `hex` in `repo` (to free). */
static char *
loose_path(const char *repo, const char *hex)
{
	return xasprintf("%s/objects/%.2s/%s", repo, hex, hex + 2);
}

/* Cut the loose object `hex` to `len` bytes (git makes it read-only). */
static void
truncate_object(const char *repo, const char *hex, off_t len)
{
	char *path = loose_path(repo, hex);

	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(truncate(path, len), 0);
	free(path);
}

static void
write_file(const char *path, const char *s)
{
	assert_int_equal(file_write_atomic(path, s, strlen(s), 0644), 0);
}

enum op { OP_HISTORY, OP_LOG, OP_SHOW, OP_RECORD };

static const char *const op_names[] = { "history", "log", "show",
    "record" };

/* What one operation in the child returned. */
struct outcome {
	int rc;
	size_t nr;
	char msg[2048];
};

static void
run_op(struct outcome *o, const char *repo, enum op op, const char *ref)
{
	struct baseline_entry *e = NULL;
	struct baseline_store *bs;
	struct baseline_store_opts opts = { 0 };

	opts.repo = repo;
	o->rc = baseline_store_open(&bs, &opts);
	if (o->rc == 0) {
		switch (op) {
		case OP_HISTORY:
			o->rc = baseline_store_history(&e, &o->nr, bs, ref,
			    PKG, DEV, 0);
			break;
		case OP_LOG:
			o->rc = baseline_store_log(&e, &o->nr, bs, ref, NULL,
			    NULL, 0);
			break;
		case OP_SHOW:
			o->rc = baseline_store_show(&e, &o->nr, bs, ref, NULL,
			    NULL);
			break;
		case OP_RECORD:
			o->rc = record_schema(bs, "r-new", 1);
			break;
		}
	}
	snprintf(o->msg, sizeof(o->msg), "%s", jg_error_msg());
	baseline_entries_free(e, o->nr);
	baseline_store_free(bs);
}

/*
 * Run `op` on `repo` in a child that SIGALRM stops after 20 s; fail the
 * test when the child did not end on its own.
 */
static struct outcome
try_op(const char *repo, enum op op, const char *ref)
{
	struct outcome o;
	size_t got = 0;
	int fd[2], st;
	pid_t pid;

	memset(&o, 0, sizeof(o));
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		size_t off = 0;

		close(fd[0]);
		alarm(20);
		run_op(&o, repo, op, ref);
		while (off < sizeof(o)) {
			ssize_t n = write(fd[1], (char *)&o + off,
			    sizeof(o) - off);

			if (n <= 0)
				_exit(2);
			off += (size_t)n;
		}
		_exit(0);
	}
	close(fd[1]);
	while (got < sizeof(o)) {
		ssize_t n = read(fd[0], (char *)&o + got, sizeof(o) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		fail_msg("%s on '%s' did not end (signal %d)", op_names[op],
		    repo, WTERMSIG(st));
	assert_int_equal(got, sizeof(o));
	return o;
}

/* `op` fails with JG_EIO, naming `subject` and advising git fsck. */
static void
assert_damage(const char *repo, enum op op, const char *ref,
    const char *subject)
{
	struct outcome o = try_op(repo, op, ref);

	if (o.rc != JG_EIO)
		fail_msg("%s: got %d (%s), want JG_EIO", op_names[op], o.rc,
		    o.msg);
	assert_int_equal(o.nr, 0);
	if (!strstr(o.msg, subject) || !strstr(o.msg, "git fsck"))
		fail_msg("%s: '%s' does not name '%s' and git fsck",
		    op_names[op], o.msg, subject);
}

/* ---- the loose-object check ---- */

static unsigned char *
deflated(const char *raw, size_t len, size_t *out_len)
{
	uLongf n = compressBound((uLong)len);
	unsigned char *buf = xmalloc(n);

	assert_int_equal(compress(buf, &n, (const Bytef *)raw, (uLong)len),
	    Z_OK);
	*out_len = n;
	return buf;
}

/*
 * A whole loose object passes; a cut at any byte, a size that disagrees
 * with the header, a bad header or bytes after the stream do not.
 */
static void
loose_check_tells_whole_objects(void **state)
{
	static const struct {
		const char *raw;
		size_t len;
		int ok;
	} cases[] = {
		{ "blob 3\0abc", 10, 1 },
		{ "blob 0\0", 7, 1 },
		{ "commit 3\0abc", 12, 1 },
		{ "blob 4\0abc", 10, 0 },	/* shorter than declared */
		{ "blob 2\0abc", 10, 0 },	/* longer than declared */
		{ "blub 3\0abc", 10, 0 },	/* no such type */
		{ "blob 03\0abc", 11, 0 },	/* leading zero */
		{ "blob 3", 6, 0 },		/* no NUL */
		{ "blob\0abc", 8, 0 },		/* no size */
		{ "", 0, 0 },
	};
	size_t len;
	unsigned char *buf;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why;

		buf = deflated(cases[i].raw, cases[i].len, &len);
		why = bgit_loose_check(buf, len);
		if (cases[i].ok != !why)
			fail_msg("case %zu: %s", i, why ? why : "passed");
		free(buf);
	}
	buf = deflated("blob 3\0abc", 10, &len);
	for (size_t cut = 0; cut < len; cut++)
		if (!bgit_loose_check(buf, cut))
			fail_msg("cut at %zu of %zu passed", cut, len);
	buf = xrealloc(buf, len + 1);
	buf[len] = 'x';
	assert_non_null(bgit_loose_check(buf, len + 1));
	free(buf);
	assert_non_null(bgit_loose_check((const unsigned char *)"not zlib",
	    8));
}

/* The schema's major version is read; anything else is -1. */
static void
schema_version_reads_major(void **state)
{
	static const struct {
		const char *data;
		int want;
	} cases[] = {
		{ "{\"schema\": \"jankgate.results/1\"}", 1 },
		{ "{ \"schema\" : \"jankgate.results/99\" }", 99 },
		{ "{\"schema\": \"jankgate.results/2.1\"}", 2 },
		{ "{\"schema\": \"jankgate.results/\"}", -1 },
		{ "{\"schema\": \"jankgate.results/x\"}", -1 },
		{ "{\"schema\": \"other/3\"}", -1 },
		{ "{\"schema\": 1}", -1 },
		{ "{}", -1 },
		{ "[]", -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(baseline_schema_version(cases[i].data,
		    strlen(cases[i].data)), cases[i].want);
}

/* ---- damaged repositories ---- */

/*
 * The tip commit cut to 20 bytes: every read and a record end at once
 * with JG_EIO naming the object (libgit2 1.5 alone spins forever).
 */
static void
truncated_tip_is_damage_everywhere(void **state)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(2, tip);

	truncate_object(repo, tip, 20);
	assert_damage(repo, OP_HISTORY, "main", tip);
	assert_damage(repo, OP_LOG, "main", tip);
	assert_damage(repo, OP_SHOW, "main", tip);
	assert_damage(repo, OP_RECORD, "main", tip);
	free(repo);
}

/* Damage further down the history is found when the walk gets there. */
static void
truncated_parent_is_damage(void **state)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(3, tip);
	char *parent = git(repo, "rev-parse", "main~1", NULL);

	parent[BASELINE_OID_HEXSZ] = '\0';
	truncate_object(repo, parent, 30);
	assert_damage(repo, OP_HISTORY, "main", parent);
	assert_damage(repo, OP_LOG, "main", parent);
	free(parent);
	free(repo);
}

/* A loose object that is a FIFO is refused, not waited on. */
static void
fifo_object_is_damage(void **state)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(1, tip);
	char *path = loose_path(repo, tip);

	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_damage(repo, OP_HISTORY, "main", tip);
	free(path);
	free(repo);
}

/* A ref or packed-refs that is a FIFO is refused, not waited on. */
static void
fifo_ref_is_damage(void **state)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(1, tip);
	char *ref = xasprintf("%s/refs/heads/main", repo);
	char *packed = xasprintf("%s/packed-refs", repo);

	assert_int_equal(unlink(ref), 0);
	assert_int_equal(mkfifo(ref, 0644), 0);
	assert_damage(repo, OP_HISTORY, "main", "refs/heads/main");
	assert_int_equal(unlink(ref), 0);
	write_file(ref, tip);
	assert_int_equal(mkfifo(packed, 0644), 0);
	assert_damage(repo, OP_LOG, "main", "packed-refs");
	free(packed);
	free(ref);
	free(repo);
}

/* A garbage ref is damage, never "no baseline yet". */
static void
garbage_ref_is_damage_not_empty(void **state)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(1, tip);
	char *ref = xasprintf("%s/refs/heads/main", repo);

	write_file(ref, "not-a-sha\n");
	assert_damage(repo, OP_HISTORY, "main", "'main'");
	assert_damage(repo, OP_LOG, "main", "'main'");
	assert_damage(repo, OP_SHOW, "main", "'main'");
	assert_damage(repo, OP_RECORD, "main", "main");
	free(ref);
	free(repo);
}

/* The same for a packed-refs file that does not parse. */
static void
garbage_packed_ref_is_damage(void **state)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(1, tip);
	char *packed = xasprintf("%s/packed-refs", repo);

	free(git(repo, "pack-refs", "--all", NULL));
	write_file(packed, "# pack-refs with: peeled fully-peeled sorted \n"
	    "not-a-sha refs/heads/main\n");
	assert_damage(repo, OP_HISTORY, "main", "'main'");
	free(packed);
	free(repo);
}

/*
 * A repository whose only ref does not parse is not an empty one: asking
 * for another ref is an error too, not "no baseline yet".
 */
static void
only_garbage_ref_is_not_empty(void **state)
{
	char *repo = tmp("empty.git");
	char *ref = xasprintf("%s/refs/heads/other", repo);
	struct outcome o;

	baseline_store_free(open_store(repo, 1));
	write_file(ref, "not-a-sha\n");
	o = try_op(repo, OP_HISTORY, "main");
	assert_true(o.rc < 0);
	o = try_op(repo, OP_LOG, "main");
	assert_true(o.rc < 0);
	free(ref);
	free(repo);
}

/* A deleted tip object is named as missing: damage, not "no such ref". */
static void
deleted_tip_names_missing_object(void **state)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(2, tip);
	char *path = loose_path(repo, tip);
	struct outcome o;

	assert_int_equal(unlink(path), 0);
	assert_damage(repo, OP_HISTORY, "main", tip);
	o = try_op(repo, OP_LOG, "main");
	assert_int_equal(o.rc, JG_EIO);
	assert_non_null(strstr(o.msg, "missing"));
	assert_damage(repo, OP_RECORD, "main", tip);
	free(path);
	free(repo);
}

/* The pack or index file (ext ".pack" or ".idx") of a packed copy. */
static char *
packed_repo(char **file, const char *ext)
{
	char tip[BASELINE_OID_HEXSZ + 1];
	char *repo = repo_with_runs(3, tip);
	char *dir = xasprintf("%s/objects/pack", repo);
	struct dirent *de;
	DIR *d;

	free(git(repo, "repack", "-adq", NULL));
	free(git(repo, "prune-packed", NULL, NULL));
	*file = NULL;
	assert_non_null(d = opendir(dir));
	while ((de = readdir(d)))
		if (strlen(de->d_name) > strlen(ext) && !strcmp(de->d_name +
		    strlen(de->d_name) - strlen(ext), ext))
			*file = xasprintf("%s/%s", dir, de->d_name);
	closedir(d);
	assert_non_null(*file);
	assert_int_equal(chmod(*file, 0644), 0);
	free(dir);
	return repo;
}

/* Flip one bit of the file at `path`, `at` bytes from its start. */
static void
flip_bit(const char *path, off_t at)
{
	unsigned char c;
	int fd = open(path, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, at), 1);
	c ^= 0x10;
	assert_int_equal(pwrite(fd, &c, 1, at), 1);
	close(fd);
}

/*
 * A pack cut in half, one bit flipped in a pack or in its index: each
 * read names the pack before libgit2 reads it (libgit2 1.5 trusts an
 * index, and a damaged one can make it read outside the file).
 */
static void
damaged_pack_is_damage(void **state)
{
	static const struct {
		const char *ext;
		int cut;
		off_t at;
	} cases[] = {
		{ ".pack", 1, 0 },
		{ ".pack", 0, 40 },
		{ ".idx", 0, 8 },
		{ ".idx", 0, 1100 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *file, *repo = packed_repo(&file, cases[i].ext);
		struct stat st;

		assert_int_equal(stat(file, &st), 0);
		if (cases[i].cut)
			assert_int_equal(truncate(file, st.st_size / 2), 0);
		else
			flip_bit(file, cases[i].at % st.st_size);
		assert_damage(repo, OP_HISTORY, "main", "objects/pack/pack-");
		assert_damage(repo, OP_LOG, "main", "is damaged");
		free(file);
		free(repo);
	}
}

/*
 * Issue 51: a pack found whole is noted with its stat data and that of
 * its index, and not read again while they hold: the first read notes
 * it, the next leaves the note as it was; a bit flipped in it after it
 * was noted changes its stat data, and it is damage again.
 */
static void
whole_pack_is_noted_and_damage_still_found(void **state)
{
	char *file, *repo = packed_repo(&file, ".pack");
	char *note = xasprintf("%s/jankgate-packs-checked", repo);
	const char *name = strrchr(file, '/') + 1;
	struct strbuf first = STRBUF_INIT, again = STRBUF_INIT;
	struct outcome o;
	struct stat st;
	char *want;

	assert_int_equal(stat(file, &st), 0);
	o = try_op(repo, OP_HISTORY, "main");
	if (o.rc)
		fail_msg("history: %s", o.msg);
	assert_int_equal(o.nr, 3);
	assert_int_equal(file_read(&first, note), 0);
	want = xasprintf("%s %lld ", name, (long long)st.st_size);
	assert_true(!strncmp(first.buf, want, strlen(want)));
	assert_int_equal(first.buf[first.len - 1], '\n');
	assert_null(strchr(first.buf, '\n') + 1 < first.buf + first.len ?
	    "more than one line" : NULL);
	o = try_op(repo, OP_LOG, "main");
	assert_int_equal(o.rc, 0);
	assert_int_equal(file_read(&again, note), 0);
	assert_int_equal(again.len, first.len);
	assert_memory_equal(again.buf, first.buf, first.len);
	flip_bit(file, 40);
	assert_damage(repo, OP_HISTORY, "main", "objects/pack/pack-");
	strbuf_release(&first);
	strbuf_release(&again);
	free(want);
	free(note);
	free(file);
	free(repo);
}

/*
 * A pack without its index is one being written or removed (the index
 * goes first), as a record's merge or a gc does next door: git and
 * libgit2 do not read it, and it is no damage.
 */
static void
pack_without_index_is_not_damage(void **state)
{
	char *file, *repo = packed_repo(&file, ".pack");
	char *copy = xasprintf("%s/objects/pack/pack-%040d.pack", repo, 0);
	struct strbuf data = STRBUF_INIT;
	struct outcome o;

	assert_int_equal(file_read(&data, file), 0);
	/* a pack whose .idx is not there (yet) */
	assert_int_equal(file_write_atomic(copy, data.buf, data.len, 0644), 0);
	o = try_op(repo, OP_HISTORY, "main");
	if (o.rc)
		fail_msg("history: %s", o.msg);
	assert_int_equal(o.nr, 3);
	o = try_op(repo, OP_RECORD, "main");
	if (o.rc)
		fail_msg("record: %s", o.msg);
	strbuf_release(&data);
	free(copy);
	free(file);
	free(repo);
}

/*
 * A stored file of a newer schema is not replaced by an older run: the
 * record fails naming the file and both schemas, and nothing is committed.
 */
static void
newer_schema_is_not_replaced(void **state)
{
	char *repo = tmp("schema.git");
	struct baseline_store *bs = open_store(repo, 1);
	char *count;

	assert_int_equal(record_schema(bs, "r1", 1), 0);
	assert_int_equal(record_schema(bs, "r2", 99), 0);
	assert_int_equal(record_schema(bs, "r3", 1), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), PATH_IN_REPO));
	assert_non_null(strstr(jg_error_msg(), "jankgate.results/99"));
	assert_non_null(strstr(jg_error_msg(), "jankgate.results/1"));
	count = git(repo, "rev-list", "--count", "main");
	assert_string_equal(count, "2\n");
	/* the same schema replaces it as always */
	assert_int_equal(record_schema(bs, "r4", 99), 0);
	free(count);
	baseline_store_free(bs);
	free(repo);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(loose_check_tells_whole_objects),
	cmocka_unit_test(schema_version_reads_major),
	cmocka_unit_test(truncated_tip_is_damage_everywhere),
	cmocka_unit_test(truncated_parent_is_damage),
	cmocka_unit_test(fifo_object_is_damage),
	cmocka_unit_test(fifo_ref_is_damage),
	cmocka_unit_test(garbage_ref_is_damage_not_empty),
	cmocka_unit_test(garbage_packed_ref_is_damage),
	cmocka_unit_test(only_garbage_ref_is_not_empty),
	cmocka_unit_test(pack_without_index_is_not_damage),
	cmocka_unit_test(deleted_tip_names_missing_object),
	cmocka_unit_test(damaged_pack_is_damage),
	cmocka_unit_test(whole_pack_is_noted_and_damage_still_found),
	cmocka_unit_test(newer_schema_is_not_replaced),
};

JG_UNIT_GROUP(baseline_damage, tests, NULL, NULL)
