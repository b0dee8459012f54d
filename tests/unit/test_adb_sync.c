/*
 * test_adb_sync.c: stat, list, pull and push over `sync:`, against the
 * scripted server of fake_adb.c (which checks the request records and
 * captures pushed bytes).
 */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "unit.h"
#include "adb.h"
#include "adb_sync.h"
#include "error.h"
#include "fake_adb.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"

#define TIMEOUT_MS 3000

struct rig {
	struct fake_adb *fa;
	struct adb_server *srv;
	struct adb_device *dev;
	struct adb_sync *s;
};

/* A fake server already past "sync:", and a device with `features`. */
static void
rig_init(struct rig *r, const char *features)
{
	r->fa = fake_adb_new();
	r->srv = adb_server_new_at("127.0.0.1", fake_adb_port(r->fa),
	    TIMEOUT_MS);
	adb_server_set_adb(r->srv, NULL);
	r->dev = adb_device_new(r->srv, "emu-1");
	adb_device_set_features(r->dev, features);
	r->s = NULL;
	fake_adb_expect(r->fa, "host:transport:emu-1");
	fake_adb_okay(r->fa);
	fake_adb_expect(r->fa, "sync:");
	fake_adb_okay(r->fa);
}

/* Start the fake and open the client's session. */
static void
rig_start(struct rig *r)
{
	fake_adb_start(r->fa);
	assert_int_equal(adb_sync_open(&r->s, r->dev), 0);
}

/* Close the session and check the fake saw every step. */
static const char *
rig_finish(struct rig *r)
{
	adb_sync_free(r->s);
	r->s = NULL;
	return fake_adb_finish(r->fa);
}

static void
rig_release(struct rig *r)
{
	adb_sync_free(r->s);
	adb_device_free(r->dev);
	adb_server_free(r->srv);
	fake_adb_free(r->fa);
}

static void
put32(struct strbuf *sb, unsigned int v)
{
	unsigned char b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
	    v >> 24 };

	strbuf_add(sb, b, 4);
}

static void
put64(struct strbuf *sb, unsigned long long v)
{
	put32(sb, (unsigned int)v);
	put32(sb, (unsigned int)(v >> 32));
}

/* The 64 bytes of a stat v2 record after id and error. */
static void
stat2_body(struct strbuf *sb, unsigned int mode, unsigned long long size,
    long long mtime)
{
	put64(sb, 66309);		/* dev */
	put64(sb, 1234);		/* ino */
	put32(sb, mode);
	put32(sb, 1);			/* nlink */
	put32(sb, 2000);		/* uid */
	put32(sb, 2000);		/* gid */
	put64(sb, size);
	put64(sb, (unsigned long long)mtime - 5);	/* atime */
	put64(sb, (unsigned long long)mtime);
	put64(sb, (unsigned long long)mtime + 5);	/* ctime */
}

/* stat v2 reads the 72-byte record, 64-bit size included. */
static void
stat_v2_found(void **state)
{
	struct strbuf body = STRBUF_INIT;
	struct adb_stat st;
	struct rig r;

	rig_init(&r, "stat_v2,ls_v2");
	fake_adb_capture_sync(r.fa, "STA2");
	stat2_body(&body, 0100644, 5000000000ull, 1700000000);
	fake_adb_sync(r.fa, "STA2", 0, body.buf, body.len);
	fake_adb_capture_sync(r.fa, "QUIT");
	rig_start(&r);
	assert_int_equal(adb_sync_stat(r.s, "/sdcard/big.bin", &st), 0);
	assert_int_equal(st.mode, 0100644);
	assert_true(st.size == 5000000000ull);
	assert_int_equal(st.mtime, 1700000000);
	assert_string_equal(rig_finish(&r), "");
	assert_string_equal(fake_adb_captured(r.fa)->buf,
	    "STA2 /sdcard/big.bin\nQUIT \n");
	strbuf_release(&body);
	rig_release(&r);
}

/* A missing file is JG_ENOTFOUND (v2 errno, v1 all zeros); the session lives on. */
static void
stat_missing(void **state)
{
	static const char zeros[64];
	struct strbuf body = STRBUF_INIT;
	struct adb_stat st;
	struct rig r;

	rig_init(&r, "stat_v2");
	fake_adb_capture_sync(r.fa, "STA2");
	fake_adb_sync(r.fa, "STA2", 2, zeros, 64);	/* ENOENT */
	fake_adb_capture_sync(r.fa, "STA2");
	stat2_body(&body, 040771, 4096, 1);
	fake_adb_sync(r.fa, "STA2", 0, body.buf, body.len);
	fake_adb_capture_sync(r.fa, "QUIT");
	rig_start(&r);
	assert_int_equal(adb_sync_stat(r.s, "/nope", &st), JG_ENOTFOUND);
	assert_string_equal(jg_error_msg(), "device 'emu-1': 'stat /nope': "
	    "stat failed: No such file or directory");
	assert_int_equal(adb_sync_stat(r.s, "/sdcard", &st), 0);
	assert_int_equal(st.mode, 040771);
	assert_string_equal(rig_finish(&r), "");
	rig_release(&r);
	strbuf_release(&body);

	rig_init(&r, "");
	fake_adb_capture_sync(r.fa, "STAT");
	fake_adb_sync(r.fa, "STAT", 0, zeros, 8);
	fake_adb_capture_sync(r.fa, "STAT");
	fake_adb_sync(r.fa, "STAT", 0100600, "\x05\0\0\0\x10\0\0\0", 8);
	fake_adb_capture_sync(r.fa, "QUIT");
	rig_start(&r);
	assert_int_equal(adb_sync_stat(r.s, "/nope", &st), JG_ENOTFOUND);
	assert_int_equal(adb_sync_stat(r.s, "/f", &st), 0);
	assert_int_equal(st.mode, 0100600);
	assert_int_equal(st.size, 5);
	assert_int_equal(st.mtime, 16);
	assert_string_equal(rig_finish(&r), "");
	rig_release(&r);
}

/* Queue a DNT2 (v2) or DENT (v1) record for `name`. */
static void
dent(struct fake_adb *fa, int v2, const char *name, unsigned int mode,
    unsigned int size)
{
	struct strbuf sb = STRBUF_INIT;

	if (v2)
		stat2_body(&sb, mode, size, 1700000000);
	else {
		put32(&sb, size);
		put32(&sb, 1700000000);
	}
	put32(&sb, (unsigned int)strlen(name));
	strbuf_addstr(&sb, name);
	fake_adb_sync(fa, v2 ? "DNT2" : "DENT", v2 ? 0 : mode, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* LIS2 and LIST both list entries, skip "." and "..", and end at DONE. */
static void
list_both_versions(void **state)
{
	static const char zeros[68];

	for (int v2 = 0; v2 <= 1; v2++) {
		struct adb_dirent_list list = ADB_DIRENT_LIST_INIT;
		struct rig r;

		rig_init(&r, v2 ? "ls_v2" : "");
		fake_adb_capture_sync(r.fa, v2 ? "LIS2" : "LIST");
		dent(r.fa, v2, ".", 040755, 4096);
		dent(r.fa, v2, "..", 040755, 4096);
		dent(r.fa, v2, "a.txt", 0100644, 12);
		dent(r.fa, v2, "sub dir", 040700, 4096);
		/* DONE is padded to the full entry size. */
		fake_adb_sync(r.fa, "DONE", 0, zeros, v2 ? 68 : 12);
		fake_adb_capture_sync(r.fa, "QUIT");
		rig_start(&r);
		assert_int_equal(adb_sync_list(r.s, "/sdcard", &list), 0);
		assert_int_equal(list.nr, 2);
		assert_string_equal(list.items[0].name, "a.txt");
		assert_int_equal(list.items[0].st.mode, 0100644);
		assert_int_equal(list.items[0].st.size, 12);
		assert_int_equal(list.items[0].st.mtime, 1700000000);
		assert_string_equal(list.items[1].name, "sub dir");
		assert_int_equal(list.items[1].st.mode, 040700);
		assert_string_equal(rig_finish(&r), "");
		adb_dirent_list_release(&list);
		rig_release(&r);
	}
}

/* 1 when a file whose name contains ".jgtmp." is left in `dir`. */
static int
temp_left(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d)))
		found |= strstr(e->d_name, ".jgtmp.") != NULL;
	if (d)
		closedir(d);
	return found;
}

/* A multi-chunk pull lands complete in the file, with no temp left. */
static void
pull_to_file_multi_chunk(void **state)
{
	char *dir = xasprintf("%s/pull", unit_tmpdir());
	char *local = xasprintf("%s/trace.bin", dir);
	struct strbuf data = STRBUF_INIT, back = STRBUF_INIT;
	struct rig r;

	assert_int_equal(file_mkdirs(dir, 0755), 0);
	for (int i = 0; i < 200000; i++)
		strbuf_addch(&data, (char)(i * 13 % 256));
	rig_init(&r, "stat_v2");
	fake_adb_capture_sync(r.fa, "RECV");
	for (size_t off = 0; off < data.len; off += 65536) {
		size_t n = data.len - off < 65536 ? data.len - off : 65536;

		fake_adb_sync(r.fa, "DATA", (unsigned int)n, data.buf + off, n);
	}
	fake_adb_sync(r.fa, "DONE", 0, NULL, 0);
	fake_adb_capture_sync(r.fa, "QUIT");
	rig_start(&r);
	assert_int_equal(adb_sync_pull(r.s, "/sdcard/trace.bin", local), 0);
	assert_string_equal(rig_finish(&r), "");
	assert_int_equal(file_read(&back, local), 0);
	assert_int_equal(back.len, data.len);
	assert_memory_equal(back.buf, data.buf, data.len);
	assert_false(temp_left(dir));
	rig_release(&r);
	strbuf_release(&data);
	strbuf_release(&back);
	free(local);
	free(dir);
}

/*
 * A FAIL to RECV names the file, leaves no local file, and ends the
 * session (the device closes it too).
 */
static void
pull_missing_file(void **state)
{
	char *dir = xasprintf("%s/pullfail", unit_tmpdir());
	char *local = xasprintf("%s/x.log", dir);
	static const char text[] = "open failed: No such file or directory";
	struct strbuf out = STRBUF_INIT;
	struct rig r;

	assert_int_equal(file_mkdirs(dir, 0755), 0);
	rig_init(&r, "");
	fake_adb_capture_sync(r.fa, "RECV");
	fake_adb_sync(r.fa, "FAIL", sizeof(text) - 1, text, sizeof(text) - 1);
	fake_adb_capture_eof(r.fa);
	rig_start(&r);
	assert_int_equal(adb_sync_pull(r.s, "/sdcard/x.log", local),
	    JG_ENOTFOUND);
	assert_string_equal(jg_error_msg(), "device 'emu-1': 'pull "
	    "/sdcard/x.log': open failed: No such file or directory");
	assert_false(file_exists(local));
	assert_false(temp_left(dir));
	assert_int_equal(adb_sync_pull_mem(r.s, "/sdcard/y", &out), JG_ECLOSED);
	assert_string_equal(rig_finish(&r), "");
	assert_string_equal(fake_adb_captured(r.fa)->buf, "RECV /sdcard/x.log\n");
	rig_release(&r);
	strbuf_release(&out);
	free(local);
	free(dir);
}

/* A pull to memory; a device lost mid-DATA is JG_ECLOSED. */
static void
pull_to_memory(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct rig r;

	rig_init(&r, "");
	fake_adb_capture_sync(r.fa, "RECV");
	fake_adb_sync(r.fa, "DATA", 6, "hello\n", 6);
	fake_adb_sync(r.fa, "DATA", 0, NULL, 0);
	fake_adb_sync(r.fa, "DONE", 0, NULL, 0);
	fake_adb_capture_sync(r.fa, "RECV");
	fake_adb_sync(r.fa, "DATA", 100, "cut", 3);
	fake_adb_hangup(r.fa);
	rig_start(&r);
	assert_int_equal(adb_sync_pull_mem(r.s, "/a", &out), 0);
	assert_string_equal(out.buf, "hello\n");
	assert_int_equal(adb_sync_pull_mem(r.s, "/b", &out), JG_ECLOSED);
	assert_non_null(strstr(jg_error_msg(), "device 'emu-1': 'pull /b': "));
	assert_string_equal(rig_finish(&r), "");
	rig_release(&r);
	strbuf_release(&out);
}

/*
 * A push sends SEND "path,mode", DATA chunks of at most 64 KiB holding the
 * exact bytes, and DONE with the mtime.
 */
static void
push_memory_multi_chunk(void **state)
{
	struct strbuf data = STRBUF_INIT, want = STRBUF_INIT;
	size_t records, max;
	unsigned int done;
	struct rig r;

	for (int i = 0; i < 150000; i++)
		strbuf_addch(&data, (char)(i % 253));
	rig_init(&r, "");
	fake_adb_capture_sync(r.fa, "SEND");
	fake_adb_capture_send_body(r.fa);
	fake_adb_sync(r.fa, "OKAY", 0, NULL, 0);
	fake_adb_capture_sync(r.fa, "QUIT");
	rig_start(&r);
	assert_int_equal(adb_sync_push_mem(r.s, data.buf, data.len,
	    "/data/local/tmp/x.bin", 0755, 1600000000), 0);
	assert_string_equal(rig_finish(&r), "");
	strbuf_addf(&want, "SEND /data/local/tmp/x.bin,%u", 0100755);
	assert_memory_equal(fake_adb_captured(r.fa)->buf, want.buf, want.len);
	assert_memory_equal(fake_adb_captured(r.fa)->buf + want.len + 1,
	    data.buf, data.len);
	fake_adb_send_info(r.fa, &records, &max, &done);
	assert_int_equal(records, 3);
	assert_true(max <= 65536);
	assert_int_equal(done, 1600000000);
	rig_release(&r);
	strbuf_release(&data);
	strbuf_release(&want);
}

/* A file push takes the file's mode and mtime; a FAIL reply is reported. */
static void
push_file_and_failure(void **state)
{
	char *local = xasprintf("%s/push.txt", unit_tmpdir());
	static const char text[] = "couldn't create file: Read-only file system";
	struct strbuf want = STRBUF_INIT;
	size_t records, max;
	unsigned int done;
	struct stat st;
	struct rig r;

	assert_int_equal(file_write_atomic(local, "abc", 3, 0600), 0);
	assert_int_equal(stat(local, &st), 0);
	rig_init(&r, "");
	fake_adb_capture_sync(r.fa, "SEND");
	fake_adb_capture_send_body(r.fa);
	fake_adb_sync(r.fa, "OKAY", 0, NULL, 0);
	fake_adb_capture_sync(r.fa, "SEND");
	fake_adb_capture_send_body(r.fa);
	fake_adb_sync(r.fa, "FAIL", sizeof(text) - 1, text, sizeof(text) - 1);
	fake_adb_capture_eof(r.fa);
	rig_start(&r);
	assert_int_equal(adb_sync_push(r.s, local, "/sdcard/p.txt", 0), 0);
	assert_int_equal(adb_sync_push(r.s, local, "/system/p.txt", 0644),
	    JG_EIO);
	assert_string_equal(jg_error_msg(), "device 'emu-1': 'push "
	    "/system/p.txt': couldn't create file: Read-only file system");
	assert_string_equal(rig_finish(&r), "");
	strbuf_addf(&want, "SEND /sdcard/p.txt,%u\nabcSEND /system/p.txt,%u\n"
	    "abc", 0100600, 0100644);
	assert_string_equal(fake_adb_captured(r.fa)->buf, want.buf);
	fake_adb_send_info(r.fa, &records, &max, &done);
	assert_int_equal(done, (unsigned int)st.st_mtime);
	rig_release(&r);
	strbuf_release(&want);
	free(local);
}

/* The one-shot forms open and close their own session. */
static void
one_shot_pull(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct rig r;

	rig_init(&r, "");
	fake_adb_capture_sync(r.fa, "RECV");
	fake_adb_sync(r.fa, "DATA", 2, "ok", 2);
	fake_adb_sync(r.fa, "DONE", 0, NULL, 0);
	fake_adb_capture_sync(r.fa, "QUIT");
	fake_adb_start(r.fa);
	assert_int_equal(adb_pull_mem(r.dev, "/x", &out), 0);
	assert_string_equal(out.buf, "ok");
	assert_string_equal(fake_adb_finish(r.fa), "");
	rig_release(&r);
	strbuf_release(&out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(stat_v2_found),
	cmocka_unit_test(stat_missing),
	cmocka_unit_test(list_both_versions),
	cmocka_unit_test(pull_to_file_multi_chunk),
	cmocka_unit_test(pull_missing_file),
	cmocka_unit_test(pull_to_memory),
	cmocka_unit_test(push_memory_multi_chunk),
	cmocka_unit_test(push_file_and_failure),
	cmocka_unit_test(one_shot_pull),
};
JG_UNIT_GROUP(adb_sync, tests, NULL, NULL)
