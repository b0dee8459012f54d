/*
 * fileio.c: whole-file reads and atomic writes (see fileio.h).
 *
 * The write order matters: data is fsync'ed before the rename so that after a
 * crash the name points at complete contents, and the directory is fsync'ed
 * after the rename so that the new name itself survives.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

int
file_read(struct strbuf *out, const char *path)
{
	char chunk[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return jg_error_errno(errno == ENOENT ? JG_ENOTFOUND : JG_EIO,
		    errno, "cannot open '%s'", path);
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			return jg_error_errno(JG_EIO, e, "cannot read '%s'",
			    path);
		}
		if (n == 0)
			break;
		strbuf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

static int
write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
sync_dir_of(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int fd;

	if (!slash) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir) {
		slash[1] = '\0';
	} else {
		*slash = '\0';
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);	/* best effort: some file systems refuse */
		close(fd);
	}
	free(dir);
}

/* Write to an existing non-regular file (a device, a FIFO) directly. */
static int
write_in_place(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e;

	if (fd < 0)
		return jg_error_errno(JG_EIO, errno, "cannot open '%s'", path);
	if (write_all(fd, data, len) < 0) {
		e = errno;
		close(fd);
		return jg_error_errno(JG_EIO, e, "cannot write '%s'", path);
	}
	if (close(fd) < 0)
		return jg_error_errno(JG_EIO, errno, "cannot write '%s'", path);
	return 0;
}

int
file_write_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	struct stat st;
	char *tmp;
	mode_t mask;
	int fd, e;

	/*
	 * A device or a pipe (-o /dev/stdout, /dev/null, a FIFO) is written
	 * in place: renaming over it would replace the node with a file.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode))
		return write_in_place(path, data, len);
	tmp = xasprintf("%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		return jg_error_errno(JG_EIO, e, "cannot create '%s'", path);
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, mode & ~mask) < 0 || write_all(fd, data, len) < 0 ||
	    fsync(fd) < 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return jg_error_errno(JG_EIO, e, "cannot write '%s'", path);
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		e = errno;
		unlink(tmp);
		free(tmp);
		return jg_error_errno(JG_EIO, e, "cannot write '%s'", path);
	}
	free(tmp);
	sync_dir_of(path);
	return 0;
}

int
file_append(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	int e;

	if (fd < 0)
		return jg_error_errno(JG_EIO, errno, "cannot open '%s'", path);
	if (write_all(fd, data, len) < 0) {
		e = errno;
		close(fd);
		return jg_error_errno(JG_EIO, e, "cannot write '%s'", path);
	}
	if (close(fd) < 0)
		return jg_error_errno(JG_EIO, errno, "cannot write '%s'", path);
	return 0;
}

int
file_mkdirs(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	char *s;
	struct stat st;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			int e = errno;
			int rc = jg_error_errno(JG_EIO, e,
			    "cannot create directory '%s'", p);

			free(p);
			return rc;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return jg_error_set(JG_EIO, "'%s' exists and is not a directory",
		    path);
	return 0;
}

int
file_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int
file_remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 :
		    jg_error_errno(JG_EIO, errno, "cannot stat '%s'", path);
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0)
			return jg_error_errno(JG_EIO, errno,
			    "cannot remove '%s'", path);
		return 0;
	}
	d = opendir(path);
	if (!d)
		return jg_error_errno(JG_EIO, errno, "cannot open '%s'", path);
	while (!rc && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *sub = xasprintf("%s/%s", path, de->d_name);

		rc = file_remove_tree(sub);
		free(sub);
	}
	closedir(d);
	if (!rc && rmdir(path) < 0)
		rc = jg_error_errno(JG_EIO, errno, "cannot remove '%s'", path);
	return rc;
}
