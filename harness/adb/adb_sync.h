/*
 * adb_sync.h: files on a device through the adb `sync:` service.
 *
 * A `struct adb_sync` is one open sync session (one connection) on which
 * any number of stat, list, pull and push requests run one after another.
 * The v2 records (STA2, LIS2) are used when the device has the `stat_v2` /
 * `ls_v2` features.  A device-side failure during a pull or push ends the
 * session on the device, so later calls on the same session fail with
 * JG_ECLOSED; "does not exist" from stat leaves it usable.  The adb_pull()
 * and adb_push() one-shot calls open their own session.
 *
 * Messages name the device and the operation:
 *	device 'emulator-5554': 'pull /sdcard/x.log': open failed: No such
 *	file or directory
 * Not found is JG_ENOTFOUND, other device refusals JG_EIO, local file
 * errors JG_EIO naming the file, and transport errors as in adb.h.
 */
#ifndef JG_ADB_SYNC_H
#define JG_ADB_SYNC_H

#include <stddef.h>

struct adb_device;
struct adb_sync;
struct strbuf;

struct adb_stat {
	unsigned int mode;		/* st_mode: type and permissions */
	unsigned long long size;
	long long mtime;		/* seconds since the epoch */
};

struct adb_dirent {
	char *name;
	struct adb_stat st;
};

struct adb_dirent_list {
	struct adb_dirent *items;
	size_t nr, alloc;
};

#define ADB_DIRENT_LIST_INIT { NULL, 0, 0 }

/* Free the entries and leave the list empty and reusable. */
void adb_dirent_list_release(struct adb_dirent_list *list);

/*
 * Open a sync session on `dev` (borrowed; it must outlive the session).
 * *out is freed with adb_sync_free().
 */
int adb_sync_open(struct adb_sync **out, struct adb_device *dev);

/* Say QUIT if the session is healthy, close and free; NULL is a no-op. */
void adb_sync_free(struct adb_sync *s);

/* Stat `path` (following symlinks with stat_v2).  JG_ENOTFOUND if absent. */
int adb_sync_stat(struct adb_sync *s, const char *path, struct adb_stat *st);

/*
 * Append the entries of directory `path` to `list`, without "." and "..".
 * A missing directory gives an empty list (the protocol cannot tell).
 */
int adb_sync_list(struct adb_sync *s, const char *path,
    struct adb_dirent_list *list);

/*
 * Copy device file `remote` to host file `local` (mode 0644).  The data
 * goes to a temporary file beside `local` that is renamed over it at the
 * end, so `local` is never half-written; on failure it is untouched.
 */
int adb_sync_pull(struct adb_sync *s, const char *remote, const char *local);

/* Append the contents of device file `remote` to `out`. */
int adb_sync_pull_mem(struct adb_sync *s, const char *remote,
    struct strbuf *out);

/*
 * Copy host file `local` to `remote` with permission bits `mode` (0: those
 * of `local`) and the local file's mtime.  The device creates parent
 * directories when it has fixed_push_mkdir.
 */
int adb_sync_push(struct adb_sync *s, const char *local, const char *remote,
    unsigned int mode);

/*
 * Write `len` bytes of `data` to `remote` with permission bits `mode`
 * (0: 0644) and modification time `mtime` (< 0: now).
 */
int adb_sync_push_mem(struct adb_sync *s, const void *data, size_t len,
    const char *remote, unsigned int mode, long long mtime);

/* One-shot forms: open a session, do one thing, close it. */
int adb_stat(struct adb_device *dev, const char *path, struct adb_stat *st);
int adb_pull(struct adb_device *dev, const char *remote, const char *local);
int adb_pull_mem(struct adb_device *dev, const char *remote,
    struct strbuf *out);
int adb_push(struct adb_device *dev, const char *local, const char *remote,
    unsigned int mode);

#endif
