/*
 * fileio.h: reading whole files and writing them atomically.
 *
 * Every file jankgate produces (results, comparison, reports) is written
 * through file_write_atomic(): a temporary file in the same directory,
 * fsync, rename over the target, fsync of the directory.  A reader therefore
 * sees the old file or the new one, never half of either, and a full disk
 * leaves the old file in place with an error that says so.
 */
#ifndef JG_FILEIO_H
#define JG_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

struct strbuf;

/*
 * Append the contents of `path` to `out`.  Returns 0, JG_ENOTFOUND when the
 * file does not exist, JG_EIO otherwise; the message names the path.
 */
int file_read(struct strbuf *out, const char *path);

/*
 * Replace `path` with `len` bytes of `data`, atomically, with mode `mode`
 * (before umask).  Returns 0 or JG_EIO; on failure the old file is untouched
 * and no temporary file is left behind.
 */
int file_write_atomic(const char *path, const void *data, size_t len,
    mode_t mode);

/*
 * Add `len` bytes of `data` at the end of `path`, created (mode 0644
 * before umask) when missing: for files others write too, such as a CI
 * job's step summary.  Returns 0 or JG_EIO naming the path.
 */
int file_append(const char *path, const void *data, size_t len);

/* mkdir -p.  Returns 0 (also when it exists as a directory) or JG_EIO. */
int file_mkdirs(const char *path, mode_t mode);

/* 1 when `path` exists (any type), 0 otherwise. */
int file_exists(const char *path);

/*
 * Remove `path` and, for a directory, everything below it, without following
 * symlinks.  Returns 0 (also when absent) or JG_EIO.
 */
int file_remove_tree(const char *path);

#endif
