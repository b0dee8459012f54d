/*
 * zipread.c: the zip layer of apk.c and of app bundles (zipread.h).
 *
 * The records it reads (all little-endian; APPNOTE.TXT):
 *
 *   end of central directory  "PK\5\6" disk:2 cd_disk:2 n_disk:2 n:2
 *                             cd_size:4 cd_offset:4 comment_len:2 comment
 *   zip64 locator             "PK\6\7" disk:4 record_offset:8 disks:4
 *   zip64 end record          "PK\6\6" size:8 ver:2 ver:2 disk:4 disk:4
 *                             n_disk:8 n:8 cd_size:8 cd_offset:8
 *   central directory entry   "PK\1\2" ... flags:2@8 method:2@10
 *                             crc:4@16 csize:4@20 usize:4@24
 *                             name_len:2@28 extra_len:2@30
 *                             comment_len:2@32 local_offset:4@42, name,
 *                             extra (zip64 sizes in id 0x0001), comment
 *   local header              "PK\3\4" ... name_len:2@26 extra_len:2@28,
 *                             then the data
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "error.h"
#include "xalloc.h"
#include "zipread.h"
#include "banned.h"

#define EOCD_SIG	0x06054b50u
#define EOCD_LEN	22
#define Z64_LOC_SIG	0x07064b50u
#define Z64_LOC_LEN	20
#define Z64_EOCD_SIG	0x06064b50u
#define Z64_EOCD_LEN	56
#define CDIR_SIG	0x02014b50u
#define CDIR_LEN	46
#define LOCAL_SIG	0x04034b50u
#define LOCAL_LEN	30
#define MAX_COMMENT	65535u
#define MAX_CDIR	(256u << 20)	/* 3 million entries of 80 bytes */
#define CHUNK		65536

struct zipread {
	int fd;				/* -1 for a buffer */
	const unsigned char *mem;
	uint64_t size;
	unsigned char *dir;		/* the central directory */
	uint64_t dir_size, count;
};

struct zentry {
	uint16_t flags, method;
	uint32_t crc;
	uint64_t csize, usize, local;
};

static uint16_t
le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static int
zread(const struct zipread *z, uint64_t off, void *buf, size_t len,
    const char *what)
{
	size_t done = 0;

	if (off > z->size || len > z->size - off)
		return jg_error_set(JG_EINVAL, "the %s lies past the end of "
		    "the file (truncated?)", what);
	if (z->mem) {
		memcpy(buf, z->mem + off, len);
		return 0;
	}
	while (done < len) {
		ssize_t n = pread(z->fd, (char *)buf + done, len - done,
		    (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return jg_error_errno(JG_EIO, errno, "cannot read the "
			    "%s", what);
		if (n == 0)
			return jg_error_set(JG_EINVAL, "the %s lies past the "
			    "end of the file (truncated?)", what);
		done += (size_t)n;
	}
	return 0;
}

/* The zip64 end record, when the classic one is saturated. */
static int
find_zip64(struct zipread *z, uint64_t eocd, uint64_t *off)
{
	unsigned char loc[Z64_LOC_LEN], rec[Z64_EOCD_LEN];
	int rc;

	if (eocd < Z64_LOC_LEN)
		return jg_error_set(JG_EINVAL, "the zip64 locator is missing");
	if ((rc = zread(z, eocd - Z64_LOC_LEN, loc, sizeof(loc),
	    "zip64 locator")))
		return rc;
	if (le32(loc) != Z64_LOC_SIG)
		return jg_error_set(JG_EINVAL, "the zip64 locator is missing");
	if ((rc = zread(z, le64(loc + 8), rec, sizeof(rec), "zip64 record")))
		return rc;
	if (le32(rec) != Z64_EOCD_SIG)
		return jg_error_set(JG_EINVAL, "bad zip64 end record");
	z->count = le64(rec + 32);
	z->dir_size = le64(rec + 40);
	*off = le64(rec + 48);
	return 0;
}

/* Find and read the central directory. */
static int
load_dir(struct zipread *z)
{
	size_t tail, i;
	unsigned char *buf;
	uint64_t base, off = 0;
	int rc;

	if (z->size < EOCD_LEN)
		return jg_error_set(JG_EINVAL, "not a zip archive (%llu "
		    "bytes)", (unsigned long long)z->size);
	tail = z->size < EOCD_LEN + MAX_COMMENT ? (size_t)z->size :
	    EOCD_LEN + MAX_COMMENT;
	base = z->size - tail;
	buf = xmalloc(tail);
	if ((rc = zread(z, base, buf, tail, "end of the archive")))
		goto out;
	rc = jg_error_set(JG_EINVAL, "not a zip archive (no end of central "
	    "directory record)");
	for (i = tail - EOCD_LEN + 1; i-- > 0;) {
		const unsigned char *e = buf + i;

		if (le32(e) != EOCD_SIG ||
		    le16(e + 20) > tail - EOCD_LEN - i)
			continue;
		if (le16(e + 4) || le16(e + 6)) {
			rc = jg_error_set(JG_EINVAL, "a zip archive split "
			    "over several disks is not supported");
			goto out;
		}
		z->count = le16(e + 10);
		z->dir_size = le32(e + 12);
		off = le32(e + 16);
		rc = 0;
		if (z->count == 0xffff || z->dir_size == 0xffffffffu ||
		    off == 0xffffffffu)
			rc = find_zip64(z, base + i, &off);
		break;
	}
	if (!rc && (off > z->size || z->dir_size > z->size - off))
		rc = jg_error_set(JG_EINVAL, "the central directory lies past "
		    "the end of the file (truncated?)");
	if (!rc && z->dir_size > MAX_CDIR)
		rc = jg_error_set(JG_EINVAL, "the central directory is %llu "
		    "bytes, more than jankgate reads",
		    (unsigned long long)z->dir_size);
	if (!rc) {
		z->dir = xmalloc(z->dir_size ? (size_t)z->dir_size : 1);
		rc = zread(z, off, z->dir, (size_t)z->dir_size,
		    "central directory");
	}
out:
	free(buf);
	return rc;
}

/* Sizes and offset saturated at 0xffffffff live in the zip64 extra. */
static int
zip64_extra(const unsigned char *x, size_t len, struct zentry *e,
    const char *name)
{
	while (len >= 4) {
		uint16_t id = le16(x), n = le16(x + 2);
		const unsigned char *d = x + 4;
		size_t left;

		if (n > len - 4)
			break;
		left = n;
		if (id == 0x0001) {
			uint64_t *f[] = { &e->usize, &e->csize, &e->local };

			for (size_t i = 0; i < 3; i++) {
				if (*f[i] != 0xffffffffu)
					continue;
				if (left < 8)
					return jg_error_set(JG_EINVAL, "short "
					    "zip64 extra field");
				*f[i] = le64(d);
				d += 8;
				left -= 8;
			}
			return 0;
		}
		x += 4 + n;
		len -= 4 + (size_t)n;
	}
	if (e->usize == 0xffffffffu || e->csize == 0xffffffffu ||
	    e->local == 0xffffffffu)
		return jg_error_set(JG_EINVAL, "no zip64 extra field for "
		    "%s's saturated sizes", name);
	return 0;
}

/* The directory entry `name`: 0, JG_ENOTFOUND, or JG_EINVAL (corrupt). */
static int
find_entry(const struct zipread *z, const char *name, struct zentry *e)
{
	size_t p = 0, want = strlen(name);

	for (uint64_t n = 0; n < z->count && z->dir_size - p >= CDIR_LEN;
	    n++) {
		const unsigned char *h = z->dir + p;
		size_t nl = le16(h + 28), xl = le16(h + 30), cl = le16(h + 32);

		if (le32(h) != CDIR_SIG)
			return jg_error_set(JG_EINVAL, "bad central directory "
			    "entry %llu", (unsigned long long)n);
		if (CDIR_LEN + nl + xl + cl > z->dir_size - p)
			return jg_error_set(JG_EINVAL, "central directory "
			    "entry %llu runs past the directory",
			    (unsigned long long)n);
		if (nl == want && !memcmp(h + CDIR_LEN, name, want)) {
			e->flags = le16(h + 8);
			e->method = le16(h + 10);
			e->crc = le32(h + 16);
			e->csize = le32(h + 20);
			e->usize = le32(h + 24);
			e->local = le32(h + 42);
			return zip64_extra(h + CDIR_LEN + nl, xl, e, name);
		}
		p += CDIR_LEN + nl + xl + cl;
	}
	return jg_error_set(JG_ENOTFOUND, "no %s in the archive", name);
}

/* Where the entry's data starts, after checking what can be read. */
static int
entry_start(const struct zipread *z, const struct zentry *e, const char *name,
    uint64_t *start)
{
	unsigned char h[LOCAL_LEN];
	int rc;

	if (e->flags & 1)
		return jg_error_set(JG_EPROTO, "%s is encrypted", name);
	if (e->method != 0 && e->method != 8)
		return jg_error_set(JG_EPROTO, "%s is compressed with zip "
		    "method %u; jankgate reads stored and deflated entries",
		    name, e->method);
	if (e->method == 0 && e->csize != e->usize)
		return jg_error_set(JG_EINVAL, "stored %s has two sizes "
		    "(corrupt archive)", name);
	if ((rc = zread(z, e->local, h, sizeof(h), "local header")))
		return rc;
	if (le32(h) != LOCAL_SIG)
		return jg_error_set(JG_EINVAL, "bad local header for %s", name);
	*start = e->local + LOCAL_LEN + le16(h + 26) + le16(h + 28);
	if (*start > z->size || e->csize > z->size - *start)
		return jg_error_set(JG_EINVAL, "the data of %s lies past the "
		    "end of the file (truncated?)", name);
	return 0;
}

/*
 * Feed the entry's bytes, inflated when deflated, to `sink` in chunks,
 * checking the size and the CRC.
 */
static int
stream_entry(const struct zipread *z, const struct zentry *e,
    const char *name, int (*sink)(void *ctx, const void *p, size_t n),
    void *ctx)
{
	unsigned char *in = xmalloc(CHUNK), *out = xmalloc(CHUNK);
	uint64_t start = 0, done = 0, total = 0;
	uLong crc = crc32(0L, Z_NULL, 0);
	z_stream zs;
	int rc, zr = Z_OK, inflating = 0;

	memset(&zs, 0, sizeof(zs));
	if ((rc = entry_start(z, e, name, &start)))
		goto out;
	if (e->method == 8) {
		if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
			rc = jg_error_set(JG_EGENERIC, "zlib: cannot start "
			    "inflate");
			goto out;
		}
		inflating = 1;
	}
	while (!rc && done < e->csize && zr != Z_STREAM_END) {
		size_t n = e->csize - done < CHUNK ? (size_t)(e->csize - done) :
		    CHUNK;

		if ((rc = zread(z, start + done, in, n, "entry data")))
			break;
		done += n;
		if (!inflating) {
			crc = crc32(crc, in, (uInt)n);
			total += n;
			rc = sink(ctx, in, n);
			continue;
		}
		zs.next_in = in;
		zs.avail_in = (uInt)n;
		/* Until this input is used up and no output is pending. */
		do {
			size_t got;

			zs.next_out = out;
			zs.avail_out = CHUNK;
			zr = inflate(&zs, Z_NO_FLUSH);
			if (zr == Z_BUF_ERROR) {
				zr = Z_OK;	/* it needs more input */
				break;
			}
			if (zr != Z_OK && zr != Z_STREAM_END) {
				rc = jg_error_set(JG_EINVAL, "%s does not "
				    "inflate (corrupt archive)", name);
				break;
			}
			got = CHUNK - zs.avail_out;
			total += got;
			if (total > e->usize) {
				rc = jg_error_set(JG_EINVAL, "%s inflates to "
				    "more than the %llu bytes the directory "
				    "gives (corrupt archive)", name,
				    (unsigned long long)e->usize);
				break;
			}
			crc = crc32(crc, out, (uInt)got);
			rc = sink(ctx, out, got);
		} while (!rc && zr != Z_STREAM_END &&
		    (zs.avail_in || zs.avail_out == 0));
	}
	if (!rc && (total != e->usize || (inflating && zr != Z_STREAM_END)))
		rc = jg_error_set(JG_EINVAL, "%s does not inflate to the %llu "
		    "bytes the directory gives (corrupt archive)", name,
		    (unsigned long long)e->usize);
	if (!rc && crc != e->crc)
		rc = jg_error_set(JG_EINVAL, "%s fails its CRC check (corrupt "
		    "archive)", name);
out:
	if (inflating)
		inflateEnd(&zs);
	free(in);
	free(out);
	return rc;
}

static int
open_common(struct zipread *z, struct zipread **out)
{
	int rc = load_dir(z);

	if (rc) {
		zipread_close(z);
		return rc;
	}
	*out = z;
	return 0;
}

int
zipread_open(struct zipread **out, const char *path)
{
	struct zipread *z = xcalloc(1, sizeof(*z));
	struct stat st;

	*out = NULL;
	if ((z->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		free(z);
		return jg_error_errno(JG_EIO, errno, "cannot open it");
	}
	if (fstat(z->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		zipread_close(z);
		return jg_error_set(JG_EIO, "it is not a regular file");
	}
	z->size = (uint64_t)st.st_size;
	return open_common(z, out);
}

int
zipread_open_mem(struct zipread **out, const void *buf, size_t len)
{
	struct zipread *z = xcalloc(1, sizeof(*z));

	*out = NULL;
	z->fd = -1;
	z->mem = buf;
	z->size = len;
	return open_common(z, out);
}

int
zipread_has(const struct zipread *z, const char *name)
{
	struct zentry e;
	int rc = find_entry(z, name, &e);

	jg_error_clear();
	return rc == 0;
}

struct membuf {
	unsigned char *p;
	size_t len;
};

static int
to_mem(void *ctx, const void *p, size_t n)
{
	struct membuf *b = ctx;

	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

int
zipread_read(const struct zipread *z, const char *name, size_t max,
    unsigned char **data, size_t *len)
{
	struct zentry e = { 0, 0, 0, 0, 0, 0 };
	struct membuf b = { NULL, 0 };
	int rc;

	*data = NULL;
	*len = 0;
	if ((rc = find_entry(z, name, &e)))
		return rc;
	if (e.usize > max || e.csize > max)
		return jg_error_set(JG_EINVAL, "%s is %llu bytes, more than "
		    "jankgate reads of it", name, (unsigned long long)e.usize);
	b.p = xmalloc(e.usize ? (size_t)e.usize : 1);
	if ((rc = stream_entry(z, &e, name, to_mem, &b))) {
		free(b.p);
		return rc;
	}
	*data = b.p;
	*len = b.len;
	return 0;
}

static int
to_fd(void *ctx, const void *p, size_t n)
{
	int fd = *(int *)ctx;
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return jg_error_errno(JG_EIO, errno, "cannot write");
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int
zipread_extract(const struct zipread *z, const char *name, const char *dest)
{
	struct zentry e = { 0, 0, 0, 0, 0, 0 };
	char *tmp = xasprintf("%s.tmpXXXXXX", dest);
	int rc, fd;

	if ((rc = find_entry(z, name, &e)))
		goto out;
	if ((fd = mkstemp(tmp)) < 0) {
		rc = jg_error_errno(JG_EIO, errno, "cannot create '%s'", dest);
		goto out;
	}
	rc = stream_entry(z, &e, name, to_fd, &fd);
	if (close(fd) < 0 && !rc)
		rc = jg_error_errno(JG_EIO, errno, "cannot write '%s'", dest);
	if (!rc && (chmod(tmp, 0644) < 0 || rename(tmp, dest) < 0))
		rc = jg_error_errno(JG_EIO, errno, "cannot write '%s'", dest);
	if (rc)
		unlink(tmp);
out:
	free(tmp);
	return rc;
}

void
zipread_close(struct zipread *z)
{
	if (!z)
		return;
	if (z->fd >= 0)
		close(z->fd);
	free(z->dir);
	free(z);
}
