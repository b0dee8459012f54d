/*
 * zipread.h: reading entries of a zip archive (an APK, an app bundle, the
 * .apks bundletool writes), without trusting a byte of it.
 *
 * The end-of-central-directory record is found by scanning back over at
 * most a 64 KiB comment; a zip64 record replaces its counts and offsets
 * when they are saturated.  The central directory is read whole (capped)
 * when the archive is opened; an entry's local header says where its data
 * starts.  Stored and deflated entries are read, and the CRC-32 of what
 * comes out must match the directory's.  APK signing blocks sit between
 * the entries and the directory and are never touched.  Every length and
 * offset comes from the file and is checked before use: a truncated,
 * corrupt or hostile archive is an error naming what was wrong, never a
 * crash (fuzz_apk covers it).
 */
#ifndef JG_ZIPREAD_H
#define JG_ZIPREAD_H

#include <stddef.h>

struct zipread;

/*
 * Open the archive at `path`.  Returns 0; JG_EIO when the file cannot be
 * read or is not a regular file; JG_EINVAL when it is not a zip archive
 * (the message says why, without the path).
 */
int zipread_open(struct zipread **out, const char *path);

/* The same over `len` bytes at `buf`, which must outlive the archive. */
int zipread_open_mem(struct zipread **out, const void *buf, size_t len);

/* 1 when the archive has an entry called `name`, else 0. */
int zipread_has(const struct zipread *z, const char *name);

/*
 * The entry `name`, whole, into a buffer the caller frees.  Returns 0;
 * JG_ENOTFOUND when there is none; JG_EINVAL when it is corrupt or larger
 * than `max` bytes; JG_EPROTO when it is encrypted or compressed by a
 * method other than stored or deflated (a valid archive jankgate cannot
 * read).
 */
int zipread_read(const struct zipread *z, const char *name, size_t max,
    unsigned char **data, size_t *len);

/*
 * Write the entry `name` to the file `dest` (created or replaced,
 * atomically), streaming, CRC checked.  Returns as zipread_read, and
 * JG_EIO when `dest` cannot be written.
 */
int zipread_extract(const struct zipread *z, const char *name,
    const char *dest);

/* Close; NULL is a no-op. */
void zipread_close(struct zipread *z);

#endif
