/*
 * simfs.h: the simulated device's in-memory file system.
 *
 * A tree of directories and regular files, enough for what adb and the
 * shell see of a phone: /sdcard, /data/local/tmp, /data/data/<pkg>, with
 * modes, owners, sizes and modification times for `sync:` STAT/LIST and
 * `ls -l`.  There are no symlinks, hard links or special files.
 *
 * Paths are absolute; a relative path is taken from "/" (the cwd of an adb
 * shell), "." and ".." and repeated slashes are resolved.  Functions that
 * can fail return 0 or a negative errno value (-ENOENT, -ENOTDIR, -EISDIR,
 * -EEXIST, -ENOTEMPTY): the sync protocol sends errno numbers and the shell
 * prints their texts, so errno is the natural currency here.  Every call
 * takes the tree's lock, so stream threads may share one tree.
 */
#ifndef SIM_SIMFS_H
#define SIM_SIMFS_H

#include <stddef.h>

struct strbuf;
struct simfs;

struct simfs_stat {
	unsigned long long ino;
	unsigned int mode;	/* S_IFDIR or S_IFREG | permission bits */
	unsigned int nlink;
	unsigned int uid, gid;
	unsigned long long size;
	long long mtime;	/* seconds since the epoch */
};

struct simfs_dirent {
	char *name;
	struct simfs_stat st;
};

/* A tree holding only "/" (root, 0755). */
struct simfs *simfs_new(void);
/* Free the tree and every file in it; NULL is a no-op. */
void simfs_free(struct simfs *fs);

/*
 * Append the normalised form of `path` ("/a/b", never a trailing slash),
 * with Android's links resolved: /data/user/0 is /data/data;
 * /storage/emulated/0, /storage/self/primary and /mnt/sdcard are /sdcard.
 */
void simfs_normalize(struct strbuf *out, const char *path);

/* Fill `st` for `path`.  Returns 0, -ENOENT or -ENOTDIR. */
int simfs_stat(struct simfs *fs, const char *path, struct simfs_stat *st);

/* Append the contents of a regular file to `out`.  -ENOENT, -EISDIR... */
int simfs_read(struct simfs *fs, const char *path, struct strbuf *out);

/*
 * Create or replace (append: extend) the regular file `path` with `len`
 * bytes.  `perm` sets the permission bits of a new file (0: 0644); the
 * owner is the parent directory's.  The parent must exist.
 */
int simfs_write(struct simfs *fs, const char *path, const void *data,
    size_t len, int append, unsigned int perm);

/*
 * Make directory `path` (perm 0: 0755).  With `parents`, create missing
 * parents and accept an existing directory, as `mkdir -p` does.
 */
int simfs_mkdir(struct simfs *fs, const char *path, unsigned int perm,
    int parents);

/*
 * Remove a file, or a directory: an empty one, or with `recursive` any.
 * Without `recursive` a directory gives -EISDIR.  "/" cannot be removed.
 */
int simfs_remove(struct simfs *fs, const char *path, int recursive);

/* Set owner and group of `path` and, with `recursive`, of all below it. */
int simfs_chown(struct simfs *fs, const char *path, unsigned int uid,
    unsigned int gid, int recursive);

/* Set the permission bits of `path`. */
int simfs_chmod(struct simfs *fs, const char *path, unsigned int perm);

/* Set the modification time of `path`. */
int simfs_utime(struct simfs *fs, const char *path, long long mtime);

/*
 * The entries of directory `path`, sorted by name, without "." and "..";
 * *out is the caller's, freed with simfs_dirents_free().  A regular file
 * gives -ENOTDIR.
 */
int simfs_list(struct simfs *fs, const char *path, struct simfs_dirent **out,
    size_t *nr);
void simfs_dirents_free(struct simfs_dirent *d, size_t nr);

#endif
