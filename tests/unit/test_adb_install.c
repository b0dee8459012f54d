/*
 * test_adb_install.c: both install routes and the package manager's
 * failure text, against the scripted server of fake_adb.c.
 */
#include <string.h>

#include "unit.h"
#include "adb.h"
#include "error.h"
#include "fake_adb.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"

#define TIMEOUT_MS 3000
#define APK_SIZE 100000

struct rig {
	struct fake_adb *fa;
	struct adb_server *srv;
	struct adb_device *dev;
	char *apk;
	struct strbuf bytes;
};

/* A fake server, device "emu-1" with `features`, and an APK on disk. */
static void
rig_init(struct rig *r, const char *features)
{
	r->fa = fake_adb_new();
	r->srv = adb_server_new_at("127.0.0.1", fake_adb_port(r->fa),
	    TIMEOUT_MS);
	adb_server_set_adb(r->srv, NULL);
	r->dev = adb_device_new(r->srv, "emu-1");
	adb_device_set_features(r->dev, features);
	r->apk = xasprintf("%s/my app.apk", unit_tmpdir());
	strbuf_init(&r->bytes, APK_SIZE);
	for (int i = 0; i < APK_SIZE; i++)
		strbuf_addch(&r->bytes, (char)(i * 31 % 256));
	assert_int_equal(file_write_atomic(r->apk, r->bytes.buf, r->bytes.len,
	    0644), 0);
}

static void
rig_release(struct rig *r)
{
	adb_device_free(r->dev);
	adb_server_free(r->srv);
	fake_adb_free(r->fa);
	strbuf_release(&r->bytes);
	free(r->apk);
}

static void
expect_service(struct fake_adb *fa, const char *service)
{
	fake_adb_expect(fa, "host:transport:emu-1");
	fake_adb_okay(fa);
	fake_adb_expect(fa, service);
	fake_adb_okay(fa);
}

/* A v2 command answered with `out`, `err` and `code`, then hang up. */
static void
v2_command(struct fake_adb *fa, const char *cmd, const char *out,
    const char *err, int code)
{
	char *svc = xasprintf("shell,v2,raw:%s", cmd);
	char c = (char)code;

	expect_service(fa, svc);
	fake_adb_capture(fa, 5);
	if (*out)
		fake_adb_v2(fa, 1, out, strlen(out));
	if (*err)
		fake_adb_v2(fa, 2, err, strlen(err));
	fake_adb_v2(fa, 3, &c, 1);
	fake_adb_hangup(fa);
	free(svc);
}

/* The push route as a device without `cmd` sees it, up to pm's answer. */
static void
push_route_script(struct rig *r, const char *out, const char *err, int code)
{
	expect_service(r->fa, "sync:");
	fake_adb_capture_sync(r->fa, "SEND");
	fake_adb_capture_send_body(r->fa);
	fake_adb_sync(r->fa, "OKAY", 0, NULL, 0);
	fake_adb_capture_sync(r->fa, "QUIT");
	fake_adb_hangup(r->fa);
	v2_command(r->fa, "pm install -r '/data/local/tmp/my app.apk'", out,
	    err, code);
	v2_command(r->fa, "rm -f '/data/local/tmp/my app.apk'", "", "", 0);
}

/* Without `cmd`, auto pushes the APK, runs pm install, and removes it. */
static void
push_route_success(void **state)
{
	struct rig r;

	rig_init(&r, "shell_v2");
	push_route_script(&r, "\tpkg: /data/local/tmp/my app.apk\nSuccess\n",
	    "", 0);
	fake_adb_start(r.fa);
	assert_int_equal(adb_install(r.dev, r.apk, NULL), 0);
	assert_string_equal(fake_adb_finish(r.fa), "");
	/* 5 bytes of close-stdin, "SEND ...,33188\n", the APK bytes, ... */
	assert_non_null(memmem(fake_adb_captured(r.fa)->buf,
	    fake_adb_captured(r.fa)->len, r.bytes.buf, r.bytes.len));
	rig_release(&r);
}

/* pm's "Failure [...]" becomes the error, and the copy is still removed. */
static void
push_route_failure_text(void **state)
{
	struct rig r;

	rig_init(&r, "shell_v2");
	push_route_script(&r, "", "Failure [INSTALL_FAILED_VERSION_DOWNGRADE]\n",
	    1);
	fake_adb_start(r.fa);
	assert_int_equal(adb_install(r.dev, r.apk, NULL), JG_EGENERIC);
	assert_non_null(strstr(jg_error_msg(), "device 'emu-1': 'install "));
	assert_non_null(strstr(jg_error_msg(),
	    "': Failure [INSTALL_FAILED_VERSION_DOWNGRADE]"));
	assert_string_equal(fake_adb_finish(r.fa), "");	/* rm ran */
	rig_release(&r);
}

/* With `cmd`, auto streams exactly SIZE bytes to cmd package install. */
static void
stream_route_success(void **state)
{
	struct rig r;
	char *svc;

	rig_init(&r, "shell_v2,cmd");
	svc = xasprintf("exec:cmd package install -r -S %d", APK_SIZE);
	expect_service(r.fa, svc);
	fake_adb_capture(r.fa, APK_SIZE);
	fake_adb_sendstr(r.fa, "Success\n");
	fake_adb_hangup(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_install(r.dev, r.apk, NULL), 0);
	assert_string_equal(fake_adb_finish(r.fa), "");
	assert_int_equal(fake_adb_captured(r.fa)->len, APK_SIZE);
	assert_memory_equal(fake_adb_captured(r.fa)->buf, r.bytes.buf,
	    APK_SIZE);
	rig_release(&r);
	free(svc);
}

/* A streamed install's failure text is reported; extra options are quoted. */
static void
stream_route_failure_and_args(void **state)
{
	static const char *const args[] = { "-d", "-g", NULL };
	struct adb_install_opts opts = { ADB_INSTALL_STREAM, args };
	struct rig r;
	char *svc;

	rig_init(&r, "cmd");
	svc = xasprintf("exec:cmd package install -r '-d' '-g' -S %d",
	    APK_SIZE);
	expect_service(r.fa, svc);
	fake_adb_capture(r.fa, APK_SIZE);
	fake_adb_sendstr(r.fa, "Failure [INSTALL_FAILED_INVALID_APK: no "
	    "certificates]\n");
	fake_adb_hangup(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_install(r.dev, r.apk, &opts), JG_EGENERIC);
	assert_non_null(strstr(jg_error_msg(),
	    "Failure [INSTALL_FAILED_INVALID_APK: no certificates]"));
	assert_string_equal(fake_adb_finish(r.fa), "");
	rig_release(&r);
	free(svc);
}

/* The route can be forced: push on a `cmd` device; stream needs `cmd`. */
static void
route_can_be_forced(void **state)
{
	struct adb_install_opts push = { ADB_INSTALL_PUSH, NULL };
	struct adb_install_opts stream = { ADB_INSTALL_STREAM, NULL };
	struct rig r;

	rig_init(&r, "shell_v2,cmd");
	push_route_script(&r, "Success\n", "", 0);
	fake_adb_start(r.fa);
	assert_int_equal(adb_install(r.dev, r.apk, &push), 0);
	assert_string_equal(fake_adb_finish(r.fa), "");
	adb_device_set_features(r.dev, "shell_v2");
	assert_int_equal(adb_install(r.dev, r.apk, &stream), JG_EDEVICE);
	assert_non_null(strstr(jg_error_msg(), "'cmd'"));
	rig_release(&r);
}

/* A missing APK is reported by name before the device is touched. */
static void
missing_apk(void **state)
{
	struct adb_install_opts stream = { ADB_INSTALL_STREAM, NULL };
	struct rig r;

	rig_init(&r, "cmd");
	fake_adb_start(r.fa);
	assert_int_equal(adb_install(r.dev, "/nonexistent/x.apk", &stream),
	    JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "'/nonexistent/x.apk'"));
	assert_string_equal(fake_adb_finish(r.fa), "");
	rig_release(&r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(push_route_success),
	cmocka_unit_test(push_route_failure_text),
	cmocka_unit_test(stream_route_success),
	cmocka_unit_test(stream_route_failure_and_args),
	cmocka_unit_test(route_can_be_forced),
	cmocka_unit_test(missing_apk),
};
JG_UNIT_GROUP(adb_install, tests, NULL, NULL)
