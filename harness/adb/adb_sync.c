/*
 * adb_sync.c: the `sync:` file protocol (docs/adb.md §3.4, AOSP SYNC.TXT).
 *
 * Requests and most replies are an 8-byte header, id[4] + u32le, then
 * data; all integers little-endian:
 *
 *	STAT len path  ->  "STAT" mode:u32 size:u32 mtime:u32      (all 0: absent)
 *	STA2 len path  ->  "STA2" error:u32 dev:u64 ino:u64 mode:u32 nlink:u32
 *	                          uid:u32 gid:u32 size:u64 atime:i64
 *	                          mtime:i64 ctime:i64              (72 bytes)
 *	LIST len path  ->  ("DENT" mode size mtime namelen:u32 name)*
 *	                   "DONE" + zeros to the 20-byte DENT size
 *	LIS2 len path  ->  ("DNT2" <STA2 body> namelen:u32 name)*
 *	                   "DONE" + zeros to the 76-byte DNT2 size
 *	RECV len path  ->  ("DATA" len bytes)*  "DONE" 0  |  "FAIL" len msg
 *	SEND len "path,mode"  ("DATA" len bytes)*  "DONE" mtime
 *	               ->  "OKAY" 0  |  "FAIL" len msg
 *	QUIT 0         ->  the device closes the stream
 *
 * DATA payloads are at most 64 KiB; we send 65528 bytes per chunk, as adb
 * does (its 64 KiB buffer minus the 8-byte header).  Paths are at most
 * 1024 bytes.  Any reply may be FAIL instead, so every reply is read as a
 * header first and its size decided by the id.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adb.h"
#include "adb_conn.h"
#include "adb_sync.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define SYNC_DATA_MAX 65536
#define SEND_CHUNK (SYNC_DATA_MAX - 8)
#define SYNC_PATH_MAX 1024
#define FAIL_TEXT_MAX 4096

struct adb_sync {
	struct adb_conn conn;
	struct adb_device *dev;
	int stat_v2, ls_v2;
	int broken;		/* an earlier error ended the session */
};

void
adb_dirent_list_release(struct adb_dirent_list *list)
{
	for (size_t i = 0; i < list->nr; i++)
		free(list->items[i].name);
	free(list->items);
	list->items = NULL;
	list->nr = list->alloc = 0;
}

int
adb_sync_open(struct adb_sync **out, struct adb_device *dev)
{
	struct adb_sync *s;
	int st2, ls2, rc;

	*out = NULL;
	if ((st2 = adb_device_has_feature(dev, "stat_v2")) < 0)
		return st2;
	if ((ls2 = adb_device_has_feature(dev, "ls_v2")) < 0)
		return ls2;
	s = xcalloc(1, sizeof(*s));
	s->dev = dev;
	s->stat_v2 = st2;
	s->ls_v2 = ls2;
	rc = adb_conn_open_device(&s->conn, dev, "sync:");
	if (rc) {
		free(s);
		return adb_device_error(dev, "sync:");
	}
	*out = s;
	return 0;
}

void
adb_sync_free(struct adb_sync *s)
{
	static const unsigned char quit[8] = { 'Q', 'U', 'I', 'T', 0, 0, 0, 0 };

	if (!s)
		return;
	if (!s->broken && s->conn.fd >= 0)
		adb_conn_write(&s->conn, quit, sizeof(quit));
	adb_conn_close(&s->conn);
	free(s);
}

/* Send "ID" + len + arg as one write. */
static int
send_request(struct adb_sync *s, const char *id, const char *arg)
{
	struct strbuf req = STRBUF_INIT;
	unsigned char hdr[8];
	size_t len = strlen(arg);
	int rc;

	if (s->broken)
		return jg_error_set(JG_ECLOSED, "sync session ended by an "
		    "earlier error");
	if (len > SYNC_PATH_MAX)
		return jg_error_set(JG_EINVAL, "path of %zu bytes: the device "
		    "accepts at most %d", len, SYNC_PATH_MAX);
	memcpy(hdr, id, 4);
	adb_put_le32(hdr + 4, (unsigned int)len);
	strbuf_add(&req, hdr, sizeof(hdr));
	strbuf_add(&req, arg, len);
	rc = adb_conn_write(&s->conn, req.buf, req.len);
	strbuf_release(&req);
	return rc;
}

/*
 * Read a reply header.  A FAIL is turned into an error with the device's
 * text (JG_ENOTFOUND for a missing file) and ends the session, as it does
 * on the device; an id outside `ids` ("ID1ID2..") is JG_EPROTO.
 */
static int
read_header(struct adb_sync *s, unsigned char hdr[8], const char *ids)
{
	struct strbuf text = STRBUF_INIT;
	unsigned int len;
	int rc;

	if ((rc = adb_conn_read_exact(&s->conn, hdr, 8)))
		goto broken;
	for (const char *id = ids; *id; id += 4)
		if (!memcmp(hdr, id, 4))
			return 0;
	len = adb_get_le32(hdr + 4);
	if (memcmp(hdr, "FAIL", 4) || len > FAIL_TEXT_MAX) {
		rc = jg_error_set(JG_EPROTO, "unexpected sync reply '%.4s'",
		    (const char *)hdr);
		goto broken;
	}
	strbuf_grow(&text, len);
	if (!(rc = adb_conn_read_exact(&s->conn, text.buf, len))) {
		strbuf_setlen(&text, len);
		rc = jg_error_set(strstr(text.buf, "No such file") ?
		    JG_ENOTFOUND : JG_EIO, "%s", text.buf);
	}
	strbuf_release(&text);
broken:
	s->broken = 1;
	return rc;
}

/* Read `n` more bytes of a reply; a failure ends the session. */
static int
read_body(struct adb_sync *s, void *buf, size_t n)
{
	int rc = adb_conn_read_exact(&s->conn, buf, n);

	if (rc)
		s->broken = 1;
	return rc;
}

/* The fields of a stat v2 body (the 64 bytes after id and error). */
static void
stat_from_v2(struct adb_stat *st, const unsigned char *b)
{
	st->mode = adb_get_le32(b + 16);
	st->size = adb_get_le64(b + 32);
	st->mtime = (long long)adb_get_le64(b + 48);
}

static int
do_stat(struct adb_sync *s, const char *path, struct adb_stat *st)
{
	unsigned char b[72];
	unsigned int err;
	int rc;

	if ((rc = send_request(s, s->stat_v2 ? "STA2" : "STAT", path)))
		return rc;
	if (!s->stat_v2) {
		if ((rc = read_header(s, b, "STAT")) ||
		    (rc = read_body(s, b + 8, 8)))
			return rc;
		st->mode = adb_get_le32(b + 4);
		st->size = adb_get_le32(b + 8);
		st->mtime = adb_get_le32(b + 12);
		if (!st->mode && !st->size && !st->mtime)
			return jg_error_set(JG_ENOTFOUND, "No such file or "
			    "directory");
		return 0;
	}
	if ((rc = read_header(s, b, "STA2")) || (rc = read_body(s, b + 8, 64)))
		return rc;
	err = adb_get_le32(b + 4);
	if (err)
		return jg_error_errno(err == ENOENT ? JG_ENOTFOUND : JG_EIO,
		    (int)err, "stat failed");
	stat_from_v2(st, b + 8);
	return 0;
}

int
adb_sync_stat(struct adb_sync *s, const char *path, struct adb_stat *st)
{
	char *what = xasprintf("stat %s", path);
	int rc = do_stat(s, path, st);

	if (rc)
		adb_device_error(s->dev, what);
	free(what);
	return rc;
}

static int
do_list(struct adb_sync *s, const char *path, struct adb_dirent_list *list)
{
	size_t size = s->ls_v2 ? 76 : 20;
	unsigned char b[76];
	int rc;

	if ((rc = send_request(s, s->ls_v2 ? "LIS2" : "LIST", path)))
		return rc;
	for (;;) {
		struct adb_dirent *d;
		unsigned int namelen;
		char *name;

		if ((rc = read_header(s, b, s->ls_v2 ? "DNT2DONE" : "DENTDONE"))
		    || (rc = read_body(s, b + 8, size - 8)))
			return rc;
		if (!memcmp(b, "DONE", 4))
			return 0;
		namelen = adb_get_le32(b + size - 4);
		if (namelen > SYNC_PATH_MAX) {
			s->broken = 1;
			return jg_error_set(JG_EPROTO, "directory entry name of "
			    "%u bytes", namelen);
		}
		name = xmalloc(namelen + 1);
		if ((rc = read_body(s, name, namelen))) {
			free(name);
			return rc;
		}
		name[namelen] = '\0';
		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			free(name);
			continue;
		}
		XALLOC_GROW(list->items, list->nr + 1, list->alloc);
		d = &list->items[list->nr++];
		d->name = name;
		if (s->ls_v2) {
			stat_from_v2(&d->st, b + 8);
		} else {
			d->st.mode = adb_get_le32(b + 4);
			d->st.size = adb_get_le32(b + 8);
			d->st.mtime = adb_get_le32(b + 12);
		}
	}
}

int
adb_sync_list(struct adb_sync *s, const char *path,
    struct adb_dirent_list *list)
{
	char *what = xasprintf("list %s", path);
	int rc = do_list(s, path, list);

	if (rc)
		adb_device_error(s->dev, what);
	free(what);
	return rc;
}

/* write() all of `buf` to a local file. */
static int
write_all(int fd, const char *buf, size_t len, const char *path)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return jg_error_errno(JG_EIO, errno, "cannot write '%s'",
			    path);
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * RECV `remote` into `out`; when `fd` >= 0 each chunk is then written to
 * it (file `local`) and dropped, so memory stays at one chunk.
 */
static int
do_recv(struct adb_sync *s, const char *remote, struct strbuf *out, int fd,
    const char *local)
{
	unsigned char hdr[8];
	int rc;

	if ((rc = send_request(s, "RECV", remote)))
		return rc;
	for (;;) {
		unsigned int len;

		if ((rc = read_header(s, hdr, "DATADONE")))
			return rc;
		if (!memcmp(hdr, "DONE", 4))
			return 0;
		len = adb_get_le32(hdr + 4);
		if (len > SYNC_DATA_MAX) {
			s->broken = 1;
			return jg_error_set(JG_EPROTO, "sync DATA of %u bytes",
			    len);
		}
		strbuf_grow(out, len);
		if ((rc = read_body(s, out->buf + out->len, len)))
			return rc;
		strbuf_setlen(out, out->len + len);
		if (fd >= 0) {
			rc = write_all(fd, out->buf, out->len, local);
			strbuf_reset(out);
			if (rc) {
				/* The rest is still coming: drop the session. */
				s->broken = 1;
				return rc;
			}
		}
	}
}

int
adb_sync_pull_mem(struct adb_sync *s, const char *remote, struct strbuf *out)
{
	char *what = xasprintf("pull %s", remote);
	int rc = do_recv(s, remote, out, -1, NULL);

	if (rc)
		adb_device_error(s->dev, what);
	free(what);
	return rc;
}

int
adb_sync_pull(struct adb_sync *s, const char *remote, const char *local)
{
	struct strbuf chunk = STRBUF_INIT;
	char *tmp = xasprintf("%s.jgtmp.XXXXXX", local);
	char *what = xasprintf("pull %s", remote);
	int fd, rc;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = jg_error_errno(JG_EIO, errno, "cannot create '%s'", tmp);
		goto out;
	}
	fchmod(fd, 0644);
	rc = do_recv(s, remote, &chunk, fd, tmp);
	if (!rc && fsync(fd))
		rc = jg_error_errno(JG_EIO, errno, "cannot write '%s'", tmp);
	if (close(fd) && !rc)
		rc = jg_error_errno(JG_EIO, errno, "cannot write '%s'", tmp);
	if (!rc && rename(tmp, local))
		rc = jg_error_errno(JG_EIO, errno, "cannot rename '%s' to '%s'",
		    tmp, local);
	if (rc)
		unlink(tmp);
out:
	if (rc)
		adb_device_error(s->dev, what);
	strbuf_release(&chunk);
	free(what);
	free(tmp);
	return rc;
}

/*
 * SEND `remote` from memory (`data`, `len`) or, when `fd` >= 0, from that
 * file, then DONE with `mtime` and read the verdict.
 */
static int
do_send(struct adb_sync *s, const char *remote, unsigned int mode,
    long long mtime, const char *data, size_t len, int fd, const char *local)
{
	unsigned char *chunk = xmalloc(8 + SEND_CHUNK), done[8];
	char *arg = xasprintf("%s,%u", remote, S_IFREG | (mode & 07777));
	int rc;

	rc = send_request(s, "SEND", arg);
	while (!rc) {
		size_t n = len < SEND_CHUNK ? len : SEND_CHUNK;

		if (fd >= 0) {
			ssize_t k = read(fd, chunk + 8, SEND_CHUNK);

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				rc = jg_error_errno(JG_EIO, errno, "cannot read "
				    "'%s'", local);
				s->broken = 1;	/* the device waits for DONE */
				break;
			}
			n = (size_t)k;
		} else {
			memcpy(chunk + 8, data, n);
			data += n;
			len -= n;
		}
		if (!n)
			break;
		memcpy(chunk, "DATA", 4);
		adb_put_le32(chunk + 4, (unsigned int)n);
		rc = adb_conn_write(&s->conn, chunk, 8 + n);
	}
	if (!rc) {
		memcpy(done, "DONE", 4);
		adb_put_le32(done + 4, (unsigned int)mtime);
		rc = adb_conn_write(&s->conn, done, sizeof(done));
	}
	/* A device that gave up early may have said why before closing. */
	if (!rc) {
		rc = read_header(s, done, "OKAY");
	} else if (rc == JG_ECLOSED) {
		int rrc = read_header(s, done, "OKAY");

		if (rrc < 0 && rrc != JG_ECLOSED)
			rc = rrc;	/* the device's FAIL text */
	}
	if (rc)
		s->broken = 1;
	free(chunk);
	free(arg);
	return rc;
}

int
adb_sync_push_mem(struct adb_sync *s, const void *data, size_t len,
    const char *remote, unsigned int mode, long long mtime)
{
	char *what = xasprintf("push %s", remote);
	int rc;

	rc = do_send(s, remote, mode ? mode : 0644,
	    mtime < 0 ? (long long)time(NULL) : mtime, data, len, -1, NULL);
	if (rc)
		adb_device_error(s->dev, what);
	free(what);
	return rc;
}

int
adb_sync_push(struct adb_sync *s, const char *local, const char *remote,
    unsigned int mode)
{
	char *what = xasprintf("push %s", remote);
	struct stat st;
	int fd, rc;

	fd = open(local, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = jg_error_errno(errno == ENOENT ? JG_ENOTFOUND : JG_EIO,
		    errno, "cannot open '%s'", local);
	} else {
		rc = do_send(s, remote, mode ? mode : st.st_mode & 0777,
		    (long long)st.st_mtime, NULL, 0, fd, local);
	}
	if (fd >= 0)
		close(fd);
	if (rc)
		adb_device_error(s->dev, what);
	free(what);
	return rc;
}

/* ---- one-shot forms ------------------------------------------------ */

int
adb_stat(struct adb_device *dev, const char *path, struct adb_stat *st)
{
	struct adb_sync *s;
	int rc = adb_sync_open(&s, dev);

	if (!rc)
		rc = adb_sync_stat(s, path, st);
	adb_sync_free(s);
	return rc;
}

int
adb_pull(struct adb_device *dev, const char *remote, const char *local)
{
	struct adb_sync *s;
	int rc = adb_sync_open(&s, dev);

	if (!rc)
		rc = adb_sync_pull(s, remote, local);
	adb_sync_free(s);
	return rc;
}

int
adb_pull_mem(struct adb_device *dev, const char *remote, struct strbuf *out)
{
	struct adb_sync *s;
	int rc = adb_sync_open(&s, dev);

	if (!rc)
		rc = adb_sync_pull_mem(s, remote, out);
	adb_sync_free(s);
	return rc;
}

int
adb_push(struct adb_device *dev, const char *local, const char *remote,
    unsigned int mode)
{
	struct adb_sync *s;
	int rc = adb_sync_open(&s, dev);

	if (!rc)
		rc = adb_sync_push(s, local, remote, mode);
	adb_sync_free(s);
	return rc;
}
