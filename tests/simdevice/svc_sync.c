/*
 * svc_sync.c: the file sync service (`sync:`), as adbd 29 serves it.
 *
 * Requests are `id[4] len:u32le` + len bytes of path (at most 1024), on a
 * byte stream that need not align with WRTEs (docs/adb.md §3.4):
 *
 *   STAT path   -> "STAT" mode:u32 size:u32 mtime:u32 (all 0: missing)
 *   STA2/LST2   -> id error:u32 dev:u64 ino:u64 mode:u32 nlink:u32
 *                  uid:u32 gid:u32 size:u64 atime:i64 mtime:i64 ctime:i64
 *   LIST path   -> { "DENT" mode size mtime namelen name }... "DONE"+16x0
 *   LIS2 path   -> { "DNT2" <stat2 body> namelen name }... "DONE"+72x0
 *   SEND "path,mode" then { "DATA" len bytes }... "DONE" mtime
 *               -> "OKAY" 0, or "FAIL" len text
 *   RECV path   -> { "DATA" len bytes }... "DONE" 0, or "FAIL" len text
 *   QUIT        -> the stream is closed
 *
 * After a FAIL the session ends, as in adbd.  SEND creates missing parent
 * directories (the fixed_push_mkdir behaviour).  Listings include "." and
 * "..", as adbd's readdir does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "adbwire.h"
#include "error.h"
#include "service.h"
#include "simdev.h"
#include "simfs.h"
#include "stream.h"
#include "strbuf.h"
#include "banned.h"

#define SYNC_PATH_MAX 1024
#define SYNC_DATA_MAX (64 * 1024)
#define FLUSH_AT (512 * 1024)
#define STAT2_BODY 68		/* error .. ctime */

static void
add_id(struct strbuf *out, const char *id, uint32_t v)
{
	unsigned char b[4];

	strbuf_add(out, id, 4);
	put_le32(b, v);
	strbuf_add(out, b, 4);
}

static void
add_u32(struct strbuf *out, uint32_t v)
{
	unsigned char b[4];

	put_le32(b, v);
	strbuf_add(out, b, 4);
}

static void
add_u64(struct strbuf *out, uint64_t v)
{
	unsigned char b[8];

	put_le64(b, v);
	strbuf_add(out, b, 8);
}

static void
add_zeros(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_addch(out, '\0');
}

static void
add_stat2_body(struct strbuf *out, int err, const struct simfs_stat *st)
{
	if (err) {
		add_u32(out, (uint32_t)-err);
		add_zeros(out, STAT2_BODY - 4);
		return;
	}
	add_u32(out, 0);
	add_u64(out, 0xfd00);			/* dev */
	add_u64(out, st->ino);
	add_u32(out, st->mode);
	add_u32(out, st->nlink);
	add_u32(out, st->uid);
	add_u32(out, st->gid);
	add_u64(out, st->size);
	add_u64(out, (uint64_t)st->mtime);	/* atime */
	add_u64(out, (uint64_t)st->mtime);
	add_u64(out, (uint64_t)st->mtime);	/* ctime */
}

static int
send_fail(struct simstream *st, const char *msg, int errnum)
{
	struct strbuf out = STRBUF_INIT, text = STRBUF_INIT;

	strbuf_addstr(&text, msg);
	if (errnum)
		strbuf_addf(&text, ": %s", jg_strerror(errnum));
	add_id(&out, "FAIL", (uint32_t)text.len);
	strbuf_add(&out, text.buf, text.len);
	simstream_write(st, out.buf, out.len);
	strbuf_release(&out);
	strbuf_release(&text);
	return -1;
}

static int
do_stat(struct simstream *st, struct simdev *dev, const char *id,
    const char *path)
{
	struct strbuf out = STRBUF_INIT;
	struct simfs_stat s;
	int err, ret;

	err = simfs_stat(dev->fs, path, &s);
	if (!strcmp(id, "STAT")) {
		strbuf_add(&out, "STAT", 4);
		if (err) {
			add_zeros(&out, 12);
		} else {
			add_u32(&out, s.mode);
			add_u32(&out, (uint32_t)s.size);
			add_u32(&out, (uint32_t)s.mtime);
		}
	} else {
		strbuf_add(&out, id, 4);
		add_stat2_body(&out, err, &s);
	}
	ret = simstream_write(st, out.buf, out.len);
	strbuf_release(&out);
	return ret;
}

static void
add_dent(struct strbuf *out, int v2, const char *name,
    const struct simfs_stat *s)
{
	if (v2) {
		strbuf_add(out, "DNT2", 4);
		add_stat2_body(out, 0, s);
	} else {
		strbuf_add(out, "DENT", 4);
		add_u32(out, s->mode);
		add_u32(out, (uint32_t)s->size);
		add_u32(out, (uint32_t)s->mtime);
	}
	add_u32(out, (uint32_t)strlen(name));
	strbuf_addstr(out, name);
}

static int
do_list(struct simstream *st, struct simdev *dev, int v2, const char *path)
{
	struct strbuf out = STRBUF_INIT, up = STRBUF_INIT;
	struct simfs_dirent *d = NULL;
	struct simfs_stat s;
	size_t nr = 0, i;
	int ret;

	if (!simfs_list(dev->fs, path, &d, &nr)) {
		simfs_stat(dev->fs, path, &s);
		add_dent(&out, v2, ".", &s);
		strbuf_addf(&up, "%s/..", path);
		simfs_stat(dev->fs, up.buf, &s);
		add_dent(&out, v2, "..", &s);
		for (i = 0; i < nr; i++)
			add_dent(&out, v2, d[i].name, &d[i].st);
	}
	strbuf_add(&out, "DONE", 4);
	add_zeros(&out, v2 ? 72 : 16);
	ret = simstream_write(st, out.buf, out.len);
	simfs_dirents_free(d, nr);
	strbuf_release(&out);
	strbuf_release(&up);
	return ret;
}

/* mkdir -p of the directory part of `path`. */
static int
make_parents(struct simdev *dev, const char *path)
{
	struct strbuf dir = STRBUF_INIT;
	char *slash;
	int err = 0;

	simfs_normalize(&dir, path);
	slash = strrchr(dir.buf, '/');
	if (slash && slash != dir.buf) {
		strbuf_setlen(&dir, (size_t)(slash - dir.buf));
		err = simfs_mkdir(dev->fs, dir.buf, 0771, 1);
	}
	strbuf_release(&dir);
	return err;
}

static int
do_send(struct simstream *st, struct simdev *dev, char *spec)
{
	struct strbuf data = STRBUF_INIT;
	char *comma = strrchr(spec, ',');
	unsigned int mode = 0644;
	unsigned char h[8];
	uint32_t mtime;
	int err, ret = -1;

	if (comma) {
		*comma = '\0';
		mode = (unsigned int)strtoul(comma + 1, NULL, 10);
	}
	for (;;) {
		uint32_t len;

		if (simstream_read_full(st, h, sizeof(h)))
			goto out;
		len = get_le32(h + 4);
		if (!memcmp(h, "DONE", 4))
			break;
		if (memcmp(h, "DATA", 4) || len > SYNC_DATA_MAX) {
			send_fail(st, "invalid data message", 0);
			goto out;
		}
		strbuf_grow(&data, len);
		if (simstream_read_full(st, data.buf + data.len, len))
			goto out;
		strbuf_setlen(&data, data.len + len);
	}
	mtime = get_le32(h + 4);
	err = make_parents(dev, spec);
	if (err) {
		send_fail(st, "secure_mkdirs failed", -err);
		goto out;
	}
	err = simfs_write(dev->fs, spec, data.buf, data.len, 0,
	    mode & 07777 ? mode & 07777 : 0644);
	if (err) {
		send_fail(st, "couldn't create file", -err);
		goto out;
	}
	simfs_chmod(dev->fs, spec, mode & 07777 ? mode & 07777 : 0644);
	simfs_utime(dev->fs, spec, mtime);
	ret = simstream_write(st, "OKAY\0\0\0\0", 8);
out:
	strbuf_release(&data);
	return ret;
}

static int
do_recv(struct simstream *st, struct simdev *dev, const char *path)
{
	struct strbuf file = STRBUF_INIT, out = STRBUF_INIT;
	size_t off = 0;
	int err, ret = 0;

	err = simfs_read(dev->fs, path, &file);
	if (err) {
		strbuf_release(&file);
		return send_fail(st, err == -EISDIR ? "read failed" :
		    "open failed", -err);
	}
	while (!ret && off < file.len) {
		size_t n = file.len - off;

		if (n > SYNC_DATA_MAX)
			n = SYNC_DATA_MAX;
		add_id(&out, "DATA", (uint32_t)n);
		strbuf_add(&out, file.buf + off, n);
		off += n;
		if (out.len >= FLUSH_AT) {
			ret = simstream_write(st, out.buf, out.len);
			strbuf_reset(&out);
		}
	}
	add_id(&out, "DONE", 0);
	if (!ret)
		ret = simstream_write(st, out.buf, out.len);
	strbuf_release(&file);
	strbuf_release(&out);
	return ret;
}

void
svc_sync_run(struct simstream *st, const char *arg, void *state)
{
	struct simdev *dev = simstream_dev(st);
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	int ret = 0;

	while (!ret) {
		unsigned char h[8];
		char id[5];
		uint32_t len;

		if (simstream_read_full(st, h, sizeof(h)))
			break;
		memcpy(id, h, 4);
		id[4] = '\0';
		len = get_le32(h + 4);
		if (!strcmp(id, "QUIT"))
			break;
		if (len > SYNC_PATH_MAX) {
			send_fail(st, "path too long", 0);
			break;
		}
		strbuf_reset(&path);
		strbuf_grow(&path, len);
		if (simstream_read_full(st, path.buf, len))
			break;
		strbuf_setlen(&path, len);
		strbuf_reset(&line);
		strbuf_addf(&line, "%s %s", id, path.buf);
		simdev_log(dev, "sync", line.buf);

		if (!strcmp(id, "STAT") || !strcmp(id, "STA2") ||
		    !strcmp(id, "LST2"))
			ret = do_stat(st, dev, id, path.buf);
		else if (!strcmp(id, "LIST") || !strcmp(id, "LIS2"))
			ret = do_list(st, dev, id[3] == '2', path.buf);
		else if (!strcmp(id, "SEND"))
			ret = do_send(st, dev, path.buf);
		else if (!strcmp(id, "RECV"))
			ret = do_recv(st, dev, path.buf);
		else
			ret = send_fail(st, "unknown command", 0);
	}
	strbuf_release(&path);
	strbuf_release(&line);
}
