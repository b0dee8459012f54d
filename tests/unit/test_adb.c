/*
 * test_adb.c: the adb client's connection, framing and host services,
 * against the scripted server of fake_adb.c.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "adb.h"
#include "error.h"
#include "fake_adb.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"

#define TIMEOUT_MS 3000

static struct adb_server *
server_for(struct fake_adb *fa, int timeout_ms)
{
	struct adb_server *srv = adb_server_new_at("127.0.0.1",
	    fake_adb_port(fa), timeout_ms);

	adb_server_set_adb(srv, NULL);
	return srv;
}

/* The address follows adb's precedence and rejects malformed values. */
static void
address_from_environment(void **state)
{
	static const struct {
		const char *sock, *port, *host;
		int want_port;
	} good[] = {
		{ NULL, NULL, "127.0.0.1", 5037 },
		{ "", "", "127.0.0.1", 5037 },
		{ NULL, "5137", "127.0.0.1", 5137 },
		{ "tcp:10.0.0.2:6000", "5137", "10.0.0.2", 6000 },
		{ "tcp:5038", NULL, "127.0.0.1", 5038 },
		{ "tcp:localhost:5039", NULL, "localhost", 5039 },
		{ "tcp:[::1]:5040", NULL, "::1", 5040 },
	};
	static const struct { const char *sock, *port, *word; } bad[] = {
		{ "udp:1.2.3.4:5", NULL, "ADB_SERVER_SOCKET" },
		{ "tcp:host:", NULL, "ADB_SERVER_SOCKET" },
		{ "tcp:host:99999", NULL, "ADB_SERVER_SOCKET" },
		{ "tcp:host:12x", NULL, "ADB_SERVER_SOCKET" },
		{ "tcp::5037", NULL, "ADB_SERVER_SOCKET" },
		{ "localfilesystem:/tmp/s", NULL, "ADB_SERVER_SOCKET" },
		{ NULL, "abc", "ANDROID_ADB_SERVER_PORT" },
		{ NULL, "0", "ANDROID_ADB_SERVER_PORT" },
		{ NULL, "65536", "ANDROID_ADB_SERVER_PORT" },
		{ NULL, " 5037", "ANDROID_ADB_SERVER_PORT" },
	};
	char *host;
	int port;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(adb_address_parse(&host, &port, good[i].sock,
		    good[i].port), 0);
		assert_string_equal(host, good[i].host);
		assert_int_equal(port, good[i].want_port);
		free(host);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(adb_address_parse(&host, &port, bad[i].sock,
		    bad[i].port), JG_EINVAL);
		assert_null(host);
		assert_non_null(strstr(jg_error_msg(), bad[i].word));
	}
}

/* adb_server_new() reads the two variables from the process environment. */
static void
server_reads_environment(void **state)
{
	struct adb_server *srv;

	setenv("ADB_SERVER_SOCKET", "tcp:127.0.0.2:7000", 1);
	setenv("ANDROID_ADB_SERVER_PORT", "5137", 1);
	assert_int_equal(adb_server_new(&srv, 0), 0);
	assert_string_equal(adb_server_address(srv), "tcp:127.0.0.2:7000");
	assert_int_equal(adb_server_timeout(srv), ADB_DEFAULT_TIMEOUT_MS);
	adb_server_free(srv);
	unsetenv("ADB_SERVER_SOCKET");
	assert_int_equal(adb_server_new(&srv, 0), 0);
	assert_string_equal(adb_server_address(srv), "tcp:127.0.0.1:5137");
	adb_server_free(srv);
	setenv("ANDROID_ADB_SERVER_PORT", "x", 1);
	assert_int_equal(adb_server_new(&srv, 0), JG_EINVAL);
	assert_null(srv);
	unsetenv("ANDROID_ADB_SERVER_PORT");
}

/* A request goes out as hex4 + name and the version payload is hex. */
static void
version_round_trip(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	int v = 0;

	fake_adb_expect(fa, "host:version");
	fake_adb_okay_string(fa, "0029");
	fake_adb_start(fa);
	assert_int_equal(adb_server_version(srv, &v), 0);
	assert_int_equal(v, 41);
	assert_string_equal(fake_adb_finish(fa), "");
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* FAIL replies surface the server's text with a code that fits it. */
static void
fail_text_is_surfaced(void **state)
{
	static const struct { const char *fail, *want; int code; } cases[] = {
		{ "device '127.0.0.1:7431' not found",
		  "device '127.0.0.1:7431' not found", JG_EDEVICE },
		{ "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is "
		  "not set", "Allow USB debugging", JG_EDEVICE },
		{ "device offline", "adb connect", JG_EDEVICE },
		{ "closed", "refused the service", JG_EDEVICE },
		{ "unknown host service", "unknown host service", JG_EGENERIC },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_adb *fa = fake_adb_new();
		struct adb_server *srv = server_for(fa, TIMEOUT_MS);
		struct adb_device *dev = adb_device_new(srv, "127.0.0.1:7431");
		struct adb_shell_result res;

		adb_device_set_features(dev, "shell_v2");
		fake_adb_expect(fa, "host:transport:127.0.0.1:7431");
		fake_adb_fail(fa, cases[i].fail);
		fake_adb_start(fa);
		adb_shell_result_init(&res);
		assert_int_equal(adb_shell(dev, "getprop", &res), cases[i].code);
		assert_non_null(strstr(jg_error_msg(), cases[i].want));
		assert_non_null(strstr(jg_error_msg(),
		    "device '127.0.0.1:7431': 'getprop': "));
		assert_string_equal(fake_adb_finish(fa), "");
		adb_shell_result_release(&res);
		adb_device_free(dev);
		adb_server_free(srv);
		fake_adb_free(fa);
	}
}

/* Both list formats parse, including states that are not "device". */
static void
device_list_formats(void **state)
{
	static const char text[] =
	    "emulator-5554          device product:sdk_x86 model:Pixel_7 "
	    "device:generic_x86 transport_id:1\n"
	    "127.0.0.1:7431         unauthorized transport_id:2\n"
	    "127.0.0.1:7433         offline product:p model:m device:d "
	    "transport_id:12\n"
	    "0123456789ABCDEF       no permissions (user in plugdev group; see "
	    "[http://developer.android.com/tools/device.html]) usb:1-1 "
	    "transport_id:3\n"
	    "a-serial-longer-than-22-columns device usb:2-1 product:x "
	    "model:y device:z transport_id:4\n"
	    "\n"
	    "plain-1\tdevice\n"
	    "plain-2\trecovery\r\n";
	struct adb_device_list list = ADB_DEVICE_LIST_INIT;

	assert_int_equal(adb_device_list_parse(&list, text, strlen(text)), 0);
	assert_int_equal(list.nr, 7);
	assert_string_equal(list.items[0].serial, "emulator-5554");
	assert_string_equal(list.items[0].state, "device");
	assert_string_equal(list.items[0].product, "sdk_x86");
	assert_string_equal(list.items[0].model, "Pixel_7");
	assert_string_equal(list.items[0].device, "generic_x86");
	assert_int_equal(list.items[0].transport_id, 1);
	assert_string_equal(list.items[1].state, "unauthorized");
	assert_string_equal(list.items[1].model, "");
	assert_int_equal(list.items[1].transport_id, 2);
	assert_string_equal(list.items[2].serial, "127.0.0.1:7433");
	assert_string_equal(list.items[2].state, "offline");
	assert_int_equal(list.items[2].transport_id, 12);
	assert_string_equal(list.items[3].state, "no permissions (user in "
	    "plugdev group; see [http://developer.android.com/tools/"
	    "device.html])");
	assert_int_equal(list.items[3].transport_id, 3);
	assert_string_equal(list.items[4].serial,
	    "a-serial-longer-than-22-columns");
	assert_string_equal(list.items[4].model, "y");
	assert_string_equal(list.items[5].serial, "plain-1");
	assert_string_equal(list.items[5].state, "device");
	assert_string_equal(list.items[6].state, "recovery");
	adb_device_list_release(&list);
	assert_int_equal(list.nr, 0);

	assert_int_equal(adb_device_list_parse(&list, "lonely\n", 7),
	    JG_EPROTO);
	assert_non_null(strstr(jg_error_msg(), "lonely"));
	adb_device_list_release(&list);
}

/* `devices -l` asks host:devices-l and returns the parsed lines. */
static void
devices_from_server(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	struct adb_device_list list = ADB_DEVICE_LIST_INIT;

	fake_adb_expect(fa, "host:devices-l");
	fake_adb_okay_string(fa, "emu-1                  device product:p "
	    "model:M device:d transport_id:7\nemu-2                  "
	    "offline transport_id:8\n");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host:devices");
	fake_adb_okay_string(fa, "");
	fake_adb_start(fa);
	assert_int_equal(adb_server_devices(srv, &list, 1), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.items[0].model, "M");
	assert_string_equal(list.items[1].state, "offline");
	adb_device_list_release(&list);
	assert_int_equal(adb_server_devices(srv, &list, 0), 0);
	assert_int_equal(list.nr, 0);
	assert_string_equal(fake_adb_finish(fa), "");
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* connect/disconnect succeed or fail by the reply text, not the status. */
static void
connect_reply_texts(void **state)
{
	static const struct { const char *verb, *reply; int code; } cases[] = {
		{ "connect", "connected to 127.0.0.1:7431", 0 },
		{ "connect", "already connected to 127.0.0.1:7431", 0 },
		{ "connect", "failed to connect to 127.0.0.1:7431", JG_EDEVICE },
		{ "connect", "failed to authenticate to 127.0.0.1:7431",
		  JG_EDEVICE },
		{ "disconnect", "disconnected 127.0.0.1:7431", 0 },
		{ "disconnect", "error: something else", JG_EDEVICE },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_adb *fa = fake_adb_new();
		struct adb_server *srv = server_for(fa, TIMEOUT_MS);
		char *svc = xasprintf("host:%s:127.0.0.1:7431", cases[i].verb);
		int rc;

		fake_adb_expect(fa, svc);
		fake_adb_okay_string(fa, cases[i].reply);
		fake_adb_start(fa);
		rc = *cases[i].verb == 'c' ?
		    adb_server_connect(srv, "127.0.0.1:7431") :
		    adb_server_disconnect(srv, "127.0.0.1:7431");
		assert_int_equal(rc, cases[i].code);
		if (rc)
			assert_non_null(strstr(jg_error_msg(), cases[i].reply));
		assert_string_equal(fake_adb_finish(fa), "");
		adb_server_free(srv);
		fake_adb_free(fa);
		free(svc);
	}
}

/* A disconnect the server refuses reports the server's words. */
static void
disconnect_unknown_device(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);

	fake_adb_expect(fa, "host:disconnect:1.2.3.4:5");
	fake_adb_fail(fa, "no such device '1.2.3.4:5'");
	fake_adb_start(fa);
	assert_int_equal(adb_server_disconnect(srv, "1.2.3.4:5"), JG_EDEVICE);
	assert_non_null(strstr(jg_error_msg(), "no such device '1.2.3.4:5'"));
	assert_string_equal(fake_adb_finish(fa), "");
	adb_server_free(srv);
	fake_adb_free(fa);
}

/*
 * Features are asked once, matched as whole words, and the state query
 * uses host-serial.
 */
static void
features_and_state(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	struct adb_device *dev = adb_device_new(srv, "127.0.0.1:7431");
	struct strbuf sb = STRBUF_INIT;
	const char *f;

	fake_adb_expect(fa, "host-serial:127.0.0.1:7431:features");
	fake_adb_okay_string(fa, "fixed_push_mkdir,ls_v2,stat_v2,cmd,shell_v2");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host-serial:127.0.0.1:7431:get-state");
	fake_adb_okay_string(fa, "device");
	fake_adb_start(fa);
	assert_int_equal(adb_device_has_feature(dev, "shell_v2"), 1);
	assert_int_equal(adb_device_has_feature(dev, "cmd"), 1);
	assert_int_equal(adb_device_has_feature(dev, "stat"), 0);
	assert_int_equal(adb_device_has_feature(dev, "shell"), 0);
	assert_int_equal(adb_device_has_feature(dev, "abb_exec"), 0);
	assert_int_equal(adb_device_features(dev, &f), 0);
	assert_string_equal(f, "fixed_push_mkdir,ls_v2,stat_v2,cmd,shell_v2");
	assert_int_equal(adb_device_get_state(dev, &sb), 0);
	assert_string_equal(sb.buf, "device");
	assert_string_equal(fake_adb_finish(fa), "");
	strbuf_release(&sb);
	adb_device_free(dev);
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* A device without a serial means "the only one", as adb without -s. */
static void
any_device(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	struct adb_device *dev = adb_device_new(srv, NULL);
	struct adb_shell_result res;

	fake_adb_expect(fa, "host:features");
	fake_adb_okay_string(fa, "shell_v2");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host:transport-any");
	fake_adb_fail(fa, "more than one device/emulator");
	fake_adb_start(fa);
	adb_shell_result_init(&res);
	assert_int_equal(adb_shell(dev, "id", &res), JG_EDEVICE);
	assert_string_equal(jg_error_msg(), "device '(any)': 'id': adb server: "
	    "'more than one device/emulator'");
	assert_string_equal(fake_adb_finish(fa), "");
	adb_shell_result_release(&res);
	adb_device_free(dev);
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* forward reads two statuses, and the chosen port for tcp:0. */
static void
forward_create_and_remove(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	struct adb_device *dev = adb_device_new(srv, "emu-1");
	int port = 0;

	fake_adb_expect(fa, "host-serial:emu-1:forward:tcp:0;tcp:5392");
	fake_adb_sendstr(fa, "OKAYOKAY0000");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host-serial:emu-1:forward:tcp:6100;tcp:5392");
	fake_adb_sendstr(fa, "OKAY");
	fake_adb_fail(fa, "cannot bind listener: Address already in use");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host-serial:emu-1:killforward:tcp:6100");
	fake_adb_sendstr(fa, "OKAYOKAY");
	fake_adb_start(fa);
	/* An empty port string is a protocol error, not port 0. */
	assert_int_equal(adb_device_forward(dev, 0, "tcp:5392", &port),
	    JG_EPROTO);
	assert_int_not_equal(adb_device_forward(dev, 6100, "tcp:5392", &port),
	    0);
	assert_non_null(strstr(jg_error_msg(), "Address already in use"));
	assert_int_equal(adb_device_forward_remove(dev, 6100), 0);
	assert_string_equal(fake_adb_finish(fa), "");
	adb_device_free(dev);
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* tcp:0 gives back the port the server picked. */
static void
forward_reports_chosen_port(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	struct adb_device *dev = adb_device_new(srv, "emu-1");
	int port = 0;

	fake_adb_expect(fa, "host-serial:emu-1:forward:tcp:0;localabstract:x");
	fake_adb_sendstr(fa, "OKAYOKAY00046100");
	fake_adb_start(fa);
	assert_int_equal(adb_device_forward(dev, 0, "localabstract:x", &port),
	    0);
	assert_int_equal(port, 6100);
	assert_string_equal(fake_adb_finish(fa), "");
	adb_device_free(dev);
	adb_server_free(srv);
	fake_adb_free(fa);
}

struct stopper {
	pthread_t thread;
	struct adb_tracker *t;
};

static void *
stop_tracker_later(void *arg)
{
	struct stopper *st = arg;

	usleep(50 * 1000);
	adb_tracker_stop(st->t);
	return NULL;
}

/*
 * track-devices delivers each list, times out while nothing changes and
 * can be stopped from another thread, which closes the connection.
 */
static void
track_devices(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	struct adb_device_list list = ADB_DEVICE_LIST_INIT;
	struct stopper st;

	fake_adb_expect(fa, "host:track-devices");
	fake_adb_sendstr(fa, "OKAY0000");
	fake_adb_sendstr(fa, "001");	/* a list that arrives in pieces */
	fake_adb_pause(fa, 20);
	fake_adb_sendstr(fa, "7127.0.0.1:7431\toffline\n");
	fake_adb_sendstr(fa, "0023127.0.0.1:7431\tdevice\nemu-2\tdevice\n");
	fake_adb_capture_eof(fa);
	fake_adb_start(fa);
	assert_int_equal(adb_tracker_open(&st.t, srv), 0);
	assert_int_equal(adb_tracker_next(st.t, &list, TIMEOUT_MS), 0);
	assert_int_equal(list.nr, 0);
	assert_int_equal(adb_tracker_next(st.t, &list, TIMEOUT_MS), 0);
	assert_int_equal(list.nr, 1);
	assert_string_equal(list.items[0].state, "offline");
	adb_device_list_release(&list);
	assert_int_equal(adb_tracker_next(st.t, &list, TIMEOUT_MS), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.items[0].state, "device");
	assert_string_equal(list.items[1].serial, "emu-2");
	assert_int_equal(adb_tracker_next(st.t, &list, 10), JG_ETIMEOUT);
	pthread_create(&st.thread, NULL, stop_tracker_later, &st);
	assert_int_equal(adb_tracker_next(st.t, &list, 60000), JG_EINTR);
	pthread_join(st.thread, NULL);
	adb_tracker_free(st.t);
	assert_string_equal(fake_adb_finish(fa), "");
	adb_device_list_release(&list);
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* No server and no adb to start one: JG_EIO naming the address. */
static void
server_not_running(void **state)
{
	struct fake_adb *fa = fake_adb_new_deferred();	/* refuses connects */
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	char *want = xasprintf("adb server is not running at tcp:127.0.0.1:%d "
	    "and adb is not on PATH", fake_adb_port(fa));
	int v;

	assert_int_equal(adb_server_version(srv, &v), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), want));
	adb_server_set_adb(srv, "/nonexistent/adb");
	assert_int_equal(adb_server_version(srv, &v), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), want));
	adb_server_free(srv);
	fake_adb_free(fa);
	free(want);
}

struct starter {
	struct fake_adb *fa;
	char *flag, *ready;
};

/* Plays the adb server that `adb start-server` brings up. */
static void *
listen_when_started(void *arg)
{
	struct starter *s = arg;

	for (int i = 0; i < 500 && !file_exists(s->flag); i++)
		usleep(10 * 1000);
	fake_adb_listen(s->fa);
	fake_adb_start(s->fa);
	close(open(s->ready, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	return NULL;
}

/*
 * With nothing listening, `adb -P PORT start-server` runs once and the
 * request is retried on the server it started.
 */
static void
server_is_started_once(void **state)
{
	struct fake_adb *fa = fake_adb_new_deferred();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	char *dir = xasprintf("%s/autostart", unit_tmpdir());
	char *prog = xasprintf("%s/adb", dir), *args = xasprintf("%s/args", dir);
	struct starter st = { fa, xasprintf("%s/flag", dir),
	    xasprintf("%s/ready", dir) };
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	pthread_t thread;
	int v = 0;

	assert_int_equal(file_mkdirs(dir, 0755), 0);
	strbuf_addf(&sb, "#!/bin/sh\necho \"$@\" >> '%s'\ntouch '%s'\n"
	    "i=0; while [ ! -e '%s' ] && [ $i -lt 500 ]; do sleep 0.01; "
	    "i=$((i+1)); done\n", args, st.flag, st.ready);
	assert_int_equal(file_write_atomic(prog, sb.buf, sb.len, 0755), 0);
	adb_server_set_adb(srv, prog);
	fake_adb_expect(fa, "host:version");
	fake_adb_okay_string(fa, "0029");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host:version");
	fake_adb_okay_string(fa, "0029");
	pthread_create(&thread, NULL, listen_when_started, &st);
	assert_int_equal(adb_server_version(srv, &v), 0);
	assert_int_equal(v, 41);
	assert_int_equal(adb_server_version(srv, &v), 0);
	pthread_join(thread, NULL);
	assert_string_equal(fake_adb_finish(fa), "");
	strbuf_reset(&sb);
	assert_int_equal(file_read(&sb, args), 0);
	strbuf_addf(&want, "-P %d start-server\n", fake_adb_port(fa));
	assert_string_equal(sb.buf, want.buf);
	strbuf_release(&sb);
	strbuf_release(&want);
	adb_server_free(srv);
	fake_adb_free(fa);
	free(dir);
	free(prog);
	free(args);
	free(st.flag);
	free(st.ready);
}

/* A server that never answers gives JG_ETIMEOUT, not a hang. */
static void
silent_server_times_out(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, 100);
	int v;

	fake_adb_expect(fa, "host:version");
	fake_adb_capture_eof(fa);
	fake_adb_start(fa);
	assert_int_equal(adb_server_version(srv, &v), JG_ETIMEOUT);
	assert_non_null(strstr(jg_error_msg(), "no answer within 100 ms"));
	assert_non_null(strstr(jg_error_msg(), "host:version"));
	assert_string_equal(fake_adb_finish(fa), "");
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* A server that hangs up or answers garbage is an error, not a value. */
static void
broken_replies(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	int v;

	fake_adb_expect(fa, "host:version");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host:version");
	fake_adb_sendstr(fa, "OKAY00");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host:version");
	fake_adb_sendstr(fa, "WHAT");
	fake_adb_hangup(fa);
	fake_adb_expect(fa, "host:version");
	fake_adb_sendstr(fa, "OKAYzz00");
	fake_adb_start(fa);
	assert_int_equal(adb_server_version(srv, &v), JG_ECLOSED);
	assert_int_equal(adb_server_version(srv, &v), JG_ECLOSED);
	assert_int_equal(adb_server_version(srv, &v), JG_EPROTO);
	assert_non_null(strstr(jg_error_msg(), "'WHAT'"));
	assert_int_equal(adb_server_version(srv, &v), JG_EPROTO);
	assert_string_equal(fake_adb_finish(fa), "");
	adb_server_free(srv);
	fake_adb_free(fa);
}

/* A request that four hex digits cannot frame is refused up front. */
static void
overlong_request_is_refused(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv = server_for(fa, TIMEOUT_MS);
	struct adb_device *dev = adb_device_new(srv, "emu-1");
	struct adb_shell_result res;
	char *cmd = xmalloc(70001);

	memset(cmd, 'x', 70000);
	cmd[70000] = '\0';
	adb_device_set_features(dev, "shell_v2");
	fake_adb_expect(fa, "host:transport:emu-1");
	fake_adb_okay(fa);
	fake_adb_capture_eof(fa);
	fake_adb_start(fa);
	adb_shell_result_init(&res);
	assert_int_equal(adb_shell(dev, cmd, &res), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "must be 1 to 65535"));
	assert_string_equal(fake_adb_finish(fa), "");
	assert_int_equal(fake_adb_captured(fa)->len, 0);
	adb_shell_result_release(&res);
	adb_device_free(dev);
	adb_server_free(srv);
	fake_adb_free(fa);
	free(cmd);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(address_from_environment),
	cmocka_unit_test(server_reads_environment),
	cmocka_unit_test(version_round_trip),
	cmocka_unit_test(fail_text_is_surfaced),
	cmocka_unit_test(device_list_formats),
	cmocka_unit_test(devices_from_server),
	cmocka_unit_test(connect_reply_texts),
	cmocka_unit_test(disconnect_unknown_device),
	cmocka_unit_test(features_and_state),
	cmocka_unit_test(any_device),
	cmocka_unit_test(forward_create_and_remove),
	cmocka_unit_test(forward_reports_chosen_port),
	cmocka_unit_test(track_devices),
	cmocka_unit_test(server_not_running),
	cmocka_unit_test(server_is_started_once),
	cmocka_unit_test(silent_server_times_out),
	cmocka_unit_test(broken_replies),
	cmocka_unit_test(overlong_request_is_refused),
};
JG_UNIT_GROUP(adb, tests, NULL, NULL)
