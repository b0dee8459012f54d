/*
 * test_fileio.c: whole-file reads, atomic writes, mkdirs, tree removal.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "error.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"

static char *
tmp_path(const char *name)
{
	return xasprintf("%s/%s", unit_tmpdir(), name);
}

static int
count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* A write replaces the file whole and leaves no temporary file behind. */
static void
atomic_write_replaces_and_cleans_up(void **state)
{
	char *dir = tmp_path("aw"), *p = tmp_path("aw/results.json");
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	assert_int_equal(file_mkdirs(dir, 0755), 0);
	assert_int_equal(file_write_atomic(p, "old", 3, 0644), 0);
	assert_int_equal(file_write_atomic(p, "new contents", 12, 0600), 0);
	assert_int_equal(file_read(&sb, p), 0);
	assert_string_equal(sb.buf, "new contents");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(count_entries(dir), 1);
	strbuf_release(&sb);
	free(dir);
	free(p);
}

/* A write into a missing directory fails, names the path, creates nothing. */
static void
atomic_write_failure_names_path(void **state)
{
	char *p = tmp_path("no/such/dir/x.json");

	assert_int_equal(file_write_atomic(p, "x", 1, 0644), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), "cannot create"));
	assert_non_null(strstr(jg_error_msg(), "x.json"));
	free(p);
}

/*
 * When the data cannot be written (here: a file-size limit, which fails the
 * write the way a full disk does), the old file stays intact, no temporary
 * file is left, and the message names the file and the cause.
 */
static void
failed_write_keeps_old_file(void **state)
{
	char *dir = tmp_path("full"), *p = tmp_path("full/results.json");
	struct strbuf sb = STRBUF_INIT;
	static char big[1 << 16];
	struct rlimit old, lim;
	int rc;

	assert_int_equal(file_mkdirs(dir, 0755), 0);
	assert_int_equal(file_write_atomic(p, "keep", 4, 0644), 0);
	memset(big, 'x', sizeof(big));
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 1024;
	setrlimit(RLIMIT_FSIZE, &lim);
	rc = file_write_atomic(p, big, sizeof(big), 0644);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rc, JG_EIO);
	assert_non_null(strstr(jg_error_msg(), "cannot write"));
	assert_non_null(strstr(jg_error_msg(), "results.json"));
	assert_non_null(strstr(jg_error_msg(), "File too large"));
	assert_int_equal(file_read(&sb, p), 0);
	assert_string_equal(sb.buf, "keep");
	assert_int_equal(count_entries(dir), 1);
	strbuf_release(&sb);
	free(dir);
	free(p);
}

/* Reading a missing file is JG_ENOTFOUND. */
static void
read_missing_is_not_found(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = tmp_path("absent");

	assert_int_equal(file_read(&sb, p), JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "absent"));
	free(p);
}

/* mkdirs creates every level, accepts an existing dir, refuses a file. */
static void
mkdirs_creates_levels(void **state)
{
	char *deep = tmp_path("m/a/b/c"), *f = tmp_path("m/file");
	struct stat st;

	assert_int_equal(file_mkdirs(deep, 0755), 0);
	assert_int_equal(stat(deep, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(file_mkdirs(deep, 0755), 0);
	assert_int_equal(file_write_atomic(f, "", 0, 0644), 0);
	assert_int_equal(file_mkdirs(f, 0755), JG_EIO);
	free(deep);
	free(f);
}

/* remove_tree removes a tree and does not follow symlinks out of it. */
static void
remove_tree_does_not_follow_links(void **state)
{
	char *root = tmp_path("rt"), *outside = tmp_path("outside");
	char *keep = tmp_path("outside/keep"), *sub = tmp_path("rt/x/y");
	char *lnk = tmp_path("rt/link");

	assert_int_equal(file_mkdirs(sub, 0755), 0);
	assert_int_equal(file_mkdirs(outside, 0755), 0);
	assert_int_equal(file_write_atomic(keep, "k", 1, 0644), 0);
	assert_int_equal(symlink(outside, lnk), 0);
	assert_int_equal(file_remove_tree(root), 0);
	assert_false(file_exists(root));
	assert_true(file_exists(keep));
	assert_int_equal(file_remove_tree(root), 0);
	free(root);
	free(outside);
	free(keep);
	free(sub);
	free(lnk);
}

/*
 * A device or a FIFO is written in place, never renamed over: `-o
 * /dev/null` must not turn /dev/null into a regular file (it did once).
 * The reader is open first, so a rename would leave it reading nothing.
 */
static void
atomic_write_to_fifo_writes_in_place(void **state)
{
	char *fifo = xasprintf("%s/out.fifo", unit_tmpdir());
	char buf[16] = { 0 };
	struct stat st;
	int fd;

	assert_int_equal(mkfifo(fifo, 0600), 0);
	fd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	assert_int_equal(file_write_atomic(fifo, "hello", 5, 0644), 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 5);
	assert_string_equal(buf, "hello");
	close(fd);
	assert_int_equal(stat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	free(fifo);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(atomic_write_replaces_and_cleans_up),
	cmocka_unit_test(atomic_write_failure_names_path),
	cmocka_unit_test(failed_write_keeps_old_file),
	cmocka_unit_test(read_missing_is_not_found),
	cmocka_unit_test(mkdirs_creates_levels),
	cmocka_unit_test(remove_tree_does_not_follow_links),
	cmocka_unit_test(atomic_write_to_fifo_writes_in_place),
};
JG_UNIT_GROUP(fileio, tests, NULL, NULL)
