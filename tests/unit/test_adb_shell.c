/*
 * test_adb_shell.c: shell v2, legacy shell, exec and line streams of the
 * adb client, against the scripted server of fake_adb.c.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "adb.h"
#include "error.h"
#include "fake_adb.h"
#include "strbuf.h"
#include "xalloc.h"

#define TIMEOUT_MS 3000

struct rig {
	struct fake_adb *fa;
	struct adb_server *srv;
	struct adb_device *dev;
	struct adb_shell_result res;
};

/* A fake server, a client device "emu-1" with `features`, and a result. */
static void
rig_init(struct rig *r, const char *features, int timeout_ms)
{
	r->fa = fake_adb_new();
	r->srv = adb_server_new_at("127.0.0.1", fake_adb_port(r->fa),
	    timeout_ms);
	adb_server_set_adb(r->srv, NULL);
	r->dev = adb_device_new(r->srv, "emu-1");
	adb_device_set_features(r->dev, features);
	adb_shell_result_init(&r->res);
}

static void
rig_release(struct rig *r)
{
	assert_string_equal(fake_adb_finish(r->fa), "");
	adb_shell_result_release(&r->res);
	adb_device_free(r->dev);
	adb_server_free(r->srv);
	fake_adb_free(r->fa);
}

/* The exchange that opens a device service. */
static void
expect_service(struct fake_adb *fa, const char *service)
{
	fake_adb_expect(fa, "host:transport:emu-1");
	fake_adb_okay(fa);
	fake_adb_expect(fa, service);
	fake_adb_okay(fa);
}

/* The v2 exchange up to the client's close-stdin packet. */
static void
expect_v2(struct fake_adb *fa, const char *cmd)
{
	char *svc = xasprintf("shell,v2,raw:%s", cmd);

	expect_service(fa, svc);
	fake_adb_capture(fa, 5);
	free(svc);
}

/*
 * stdout, stderr and the exit code come back separately, whatever the
 * packet boundaries, and the client closes stdin first.
 */
static void
v2_separates_streams(void **state)
{
	struct rig r;

	rig_init(&r, "cmd,shell_v2", TIMEOUT_MS);
	expect_v2(r.fa, "dumpsys gfxinfo com.x");
	fake_adb_send(r.fa, "\x01\x03\x00", 3);		/* header in pieces */
	fake_adb_pause(r.fa, 10);
	fake_adb_send(r.fa, "\x00\x00" "ab", 4);
	fake_adb_pause(r.fa, 10);
	fake_adb_send(r.fa, "c", 1);
	fake_adb_v2(r.fa, 2, "warn\n", 5);
	fake_adb_v2(r.fa, 7, "ignored", 7);		/* unknown id */
	fake_adb_v2(r.fa, 1, "def\n", 4);
	fake_adb_v2(r.fa, 3, "\x03", 1);
	fake_adb_start(r.fa);
	assert_int_equal(adb_shell(r.dev, "dumpsys gfxinfo com.x", &r.res), 0);
	assert_string_equal(r.res.out.buf, "abcdef\n");
	assert_string_equal(r.res.err.buf, "warn\n");
	assert_int_equal(r.res.exit_code, 3);
	assert_string_equal(fake_adb_finish(r.fa), "");
	assert_memory_equal(fake_adb_captured(r.fa)->buf, "\x04\0\0\0\0", 5);
	rig_release(&r);
}

/* A stream that ends without an exit packet is JG_EPROTO, never exit 0. */
static void
v2_missing_exit_is_error(void **state)
{
	struct rig r;

	rig_init(&r, "shell_v2", TIMEOUT_MS);
	expect_v2(r.fa, "dumpsys gfxinfo com.x");
	fake_adb_v2(r.fa, 1, "partial output\n", 15);
	fake_adb_hangup(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_shell(r.dev, "dumpsys gfxinfo com.x", &r.res),
	    JG_EPROTO);
	assert_string_equal(jg_error_msg(), "device 'emu-1': 'dumpsys gfxinfo "
	    "com.x': connection closed before the exit status");
	rig_release(&r);
}

/* A device that vanishes inside a packet or resets is JG_ECLOSED. */
static void
v2_vanishing_device(void **state)
{
	struct rig r;

	rig_init(&r, "shell_v2", TIMEOUT_MS);
	expect_v2(r.fa, "ls");
	fake_adb_send(r.fa, "\x01\x10\x00\x00\x00" "only", 9);
	fake_adb_hangup(r.fa);
	expect_v2(r.fa, "ls");
	fake_adb_v2(r.fa, 1, "x", 1);
	fake_adb_pause(r.fa, 20);
	fake_adb_reset(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_shell(r.dev, "ls", &r.res), JG_ECLOSED);
	assert_non_null(strstr(jg_error_msg(), "device 'emu-1': 'ls': "));
	assert_int_equal(adb_shell(r.dev, "ls", &r.res), JG_ECLOSED);
	rig_release(&r);
}

/* Several MiB of output arrive intact, in big and small packets. */
static void
v2_large_output_intact(void **state)
{
	size_t total = 0, sizes[] = { 1, 65536, 300000, 7, 65536, 1048576 };
	struct strbuf want = STRBUF_INIT;
	struct rig r;

	rig_init(&r, "shell_v2", 10000);
	expect_v2(r.fa, "cat big");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t start = want.len;

		for (size_t k = 0; k < sizes[i]; k++)
			strbuf_addch(&want, (char)((total + k) * 7 % 251));
		fake_adb_v2(r.fa, 1, want.buf + start, sizes[i]);
		total += sizes[i];
	}
	fake_adb_v2(r.fa, 3, "\0", 1);
	fake_adb_start(r.fa);
	assert_int_equal(adb_shell(r.dev, "cat big", &r.res), 0);
	assert_int_equal(r.res.out.len, want.len);
	assert_memory_equal(r.res.out.buf, want.buf, want.len);
	assert_int_equal(r.res.exit_code, 0);
	strbuf_release(&want);
	rig_release(&r);
}

/*
 * Without shell_v2 the exit code comes from the marker line, checked with
 * the commands run by a real /bin/sh, and the marker is cut from the output.
 */
static void
legacy_marker_gives_exit_code(void **state)
{
	static const struct { const char *cmd, *out; int code; } cases[] = {
		{ "echo hi", "hi\n", 0 },
		{ "exit 7", "", 7 },
		{ "echo out; echo err >&2; false", "out\nerr\n", 1 },
		{ "printf 'no newline'", "no newline", 0 },
		{ "true # a trailing comment", "", 0 },
		{ "(exit 4)", "", 4 },
		{ "sleep 0 &", "", 0 },
		{ "cat <<EOF\nhere\nEOF", "here\n", 0 },
		{ "echo 'jg-exit.1.2.3:9'", "jg-exit.1.2.3:9\n", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rig r;

		rig_init(&r, "", TIMEOUT_MS);
		fake_adb_expect(r.fa, "host:transport:emu-1");
		fake_adb_okay(r.fa);
		fake_adb_expect(r.fa, "shell:*");
		fake_adb_okay(r.fa);
		fake_adb_run_shell(r.fa);
		fake_adb_start(r.fa);
		assert_int_equal(adb_shell(r.dev, cases[i].cmd, &r.res), 0);
		assert_string_equal(r.res.out.buf, cases[i].out);
		assert_int_equal(r.res.exit_code, cases[i].code);
		assert_int_equal(r.res.err.len, 0);
		rig_release(&r);
	}
}

/* A legacy shell that ends before the marker has no exit status. */
static void
legacy_without_marker_is_error(void **state)
{
	struct rig r;

	rig_init(&r, "", TIMEOUT_MS);
	fake_adb_expect(r.fa, "host:transport:emu-1");
	fake_adb_okay(r.fa);
	fake_adb_expect(r.fa, "shell:*");
	fake_adb_okay(r.fa);
	fake_adb_sendstr(r.fa, "half a line");
	fake_adb_start(r.fa);
	assert_int_equal(adb_shell(r.dev, "logcat -d", &r.res), JG_EPROTO);
	assert_non_null(strstr(jg_error_msg(), "'logcat -d': connection closed "
	    "before the exit status"));
	assert_non_null(strstr(jg_error_msg(), "output ends with 'half a "
	    "line'"));
	rig_release(&r);
}

/* exec: returns raw bytes (NULs, CRs) exactly and can take stdin. */
static void
exec_is_binary_safe(void **state)
{
	static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\x00";
	struct strbuf out = STRBUF_INIT;
	struct rig r;

	rig_init(&r, "", TIMEOUT_MS);
	expect_service(r.fa, "exec:screencap -p");
	fake_adb_send(r.fa, png, sizeof(png));
	fake_adb_hangup(r.fa);
	expect_service(r.fa, "exec:cat > /dev/null; echo done");
	fake_adb_capture(r.fa, 3);
	fake_adb_sendstr(r.fa, "done\n");
	fake_adb_start(r.fa);
	assert_int_equal(adb_exec(r.dev, "screencap -p", NULL, 0, &out), 0);
	assert_int_equal(out.len, sizeof(png));
	assert_memory_equal(out.buf, png, sizeof(png));
	strbuf_reset(&out);
	assert_int_equal(adb_exec(r.dev, "cat > /dev/null; echo done", "a\0b",
	    3, &out), 0);
	assert_string_equal(out.buf, "done\n");
	assert_string_equal(fake_adb_finish(r.fa), "");
	assert_memory_equal(fake_adb_captured(r.fa)->buf, "a\0b", 3);
	strbuf_release(&out);
	rig_release(&r);
}

/* argv words are quoted; check() wants status 0 and quotes stderr. */
static void
argv_quoting_and_check(void **state)
{
	const char *argv[] = { "input", "text", "it's a $(test)", NULL };
	struct strbuf out = STRBUF_INIT;
	struct rig r;

	rig_init(&r, "shell_v2", TIMEOUT_MS);
	expect_v2(r.fa, "'input' 'text' 'it'\\''s a $(test)'");
	fake_adb_v2(r.fa, 3, "\0", 1);
	fake_adb_hangup(r.fa);
	expect_v2(r.fa, "getprop ro.build.version.sdk");
	fake_adb_v2(r.fa, 1, "34\n", 3);
	fake_adb_v2(r.fa, 3, "\0", 1);
	fake_adb_hangup(r.fa);
	expect_v2(r.fa, "wm size");
	fake_adb_v2(r.fa, 2, "wm: no display\nmore\n", 20);
	fake_adb_v2(r.fa, 3, "\x01", 1);
	fake_adb_start(r.fa);
	assert_int_equal(adb_shell_argv(r.dev, argv, &r.res), 0);
	assert_int_equal(adb_shell_check(r.dev, "getprop ro.build.version.sdk",
	    &out), 0);
	assert_string_equal(out.buf, "34\n");
	assert_int_equal(adb_shell_check(r.dev, "wm size", &out), JG_EGENERIC);
	assert_string_equal(jg_error_msg(), "device 'emu-1': 'wm size': "
	    "exited with 1: wm: no display");
	strbuf_release(&out);
	rig_release(&r);
}

#define PARALLEL_RUNS 30

struct worker {
	pthread_t thread;
	struct rig rig;
	char name[32];
	int ok;
};

/* Run PARALLEL_RUNS commands on one device, checking every result. */
static void *
work(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < PARALLEL_RUNS; i++) {
		struct adb_shell_result res;

		adb_shell_result_init(&res);
		if (!adb_shell(w->rig.dev, "getprop ro.serialno", &res) &&
		    !strcmp(res.out.buf, w->name) && res.exit_code == 0)
			w->ok++;
		adb_shell_result_release(&res);
	}
	return NULL;
}

/*
 * Two devices driven from two threads at once each get their own
 * answers: the client keeps no shared state between handles.
 */
static void
devices_in_parallel_threads(void **state)
{
	struct worker w[2];

	for (int k = 0; k < 2; k++) {
		snprintf(w[k].name, sizeof(w[k].name), "device-%d\n", k);
		w[k].ok = 0;
		rig_init(&w[k].rig, "shell_v2", TIMEOUT_MS);
		for (int i = 0; i < PARALLEL_RUNS; i++) {
			expect_v2(w[k].rig.fa, "getprop ro.serialno");
			fake_adb_v2(w[k].rig.fa, 1, w[k].name, strlen(w[k].name));
			fake_adb_v2(w[k].rig.fa, 3, "\0", 1);
			fake_adb_hangup(w[k].rig.fa);
		}
		fake_adb_start(w[k].rig.fa);
	}
	for (int k = 0; k < 2; k++)
		pthread_create(&w[k].thread, NULL, work, &w[k]);
	for (int k = 0; k < 2; k++) {
		pthread_join(w[k].thread, NULL);
		assert_int_equal(w[k].ok, PARALLEL_RUNS);
		rig_release(&w[k].rig);
	}
}

/* A device that stays silent makes a shell call time out. */
static void
shell_times_out(void **state)
{
	struct rig r;

	rig_init(&r, "shell_v2", 100);
	expect_v2(r.fa, "sleep 100");
	fake_adb_capture_eof(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_shell(r.dev, "sleep 100", &r.res), JG_ETIMEOUT);
	assert_string_equal(jg_error_msg(), "device 'emu-1': 'sleep 100': "
	    "no answer within 100 ms");
	rig_release(&r);
}

/*
 * Lines split across packets and reads come out whole, "\r\n" is cut, a
 * last line without "\n" is delivered, then the end with its status.
 */
static void
stream_lines_in_pieces(void **state)
{
	struct strbuf line = STRBUF_INIT;
	struct adb_stream *s;
	struct rig r;

	rig_init(&r, "shell_v2", TIMEOUT_MS);
	expect_v2(r.fa, "logcat -v monotonic");
	fake_adb_v2(r.fa, 1, "hel", 3);
	fake_adb_pause(r.fa, 10);
	fake_adb_send(r.fa, "\x01\x06\x00", 3);
	fake_adb_pause(r.fa, 10);
	fake_adb_send(r.fa, "\x00\x00lo\nwor", 8);
	fake_adb_v2(r.fa, 2, "stderr bit", 10);
	fake_adb_v2(r.fa, 1, "ld\r\n\nlast", 9);
	fake_adb_v2(r.fa, 3, "\x02", 1);
	fake_adb_start(r.fa);
	assert_int_equal(adb_stream_open(&s, r.dev, "logcat -v monotonic"), 0);
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "hello");
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "world");
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "");
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "last");
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 0);
	assert_int_equal(adb_stream_exit_code(s), 2);
	assert_string_equal(adb_stream_stderr(s)->buf, "stderr bit");
	adb_stream_free(s);
	strbuf_release(&line);
	rig_release(&r);
}

struct stopper {
	pthread_t thread;
	struct adb_stream *s;
};

static void *
stop_stream_later(void *arg)
{
	struct stopper *st = arg;

	usleep(50 * 1000);
	adb_stream_stop(st->s);
	return NULL;
}

/*
 * A read blocked on a quiet stream returns JG_EINTR when another thread
 * stops it, and the connection is closed (the fake sees end of stream,
 * which is what makes the real server send CLSE to the device).
 */
static void
stream_stops_from_another_thread(void **state)
{
	struct strbuf line = STRBUF_INIT;
	struct stopper st;
	struct rig r;

	rig_init(&r, "shell_v2", TIMEOUT_MS);
	expect_v2(r.fa, "logcat");
	fake_adb_v2(r.fa, 1, "first\n", 6);
	fake_adb_capture_eof(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_stream_open(&st.s, r.dev, "logcat"), 0);
	assert_int_equal(adb_stream_read_line(st.s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "first");
	pthread_create(&st.thread, NULL, stop_stream_later, &st);
	assert_int_equal(adb_stream_read_line(st.s, &line, 60000), JG_EINTR);
	pthread_join(st.thread, NULL);
	assert_int_equal(adb_stream_read_line(st.s, &line, 10), JG_EINTR);
	assert_string_equal(fake_adb_finish(r.fa), "");	/* closed */
	adb_stream_free(st.s);
	strbuf_release(&line);
	rig_release(&r);
}

/* A timeout leaves the stream usable: the next line still arrives. */
static void
stream_timeout_then_more(void **state)
{
	struct strbuf line = STRBUF_INIT;
	struct adb_stream *s;
	struct rig r;

	rig_init(&r, "shell_v2", TIMEOUT_MS);
	expect_v2(r.fa, "logcat");
	fake_adb_v2(r.fa, 1, "a\npartial", 9);
	fake_adb_pause(r.fa, 1000);
	fake_adb_v2(r.fa, 1, " line\n", 6);
	fake_adb_hangup(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_stream_open(&s, r.dev, "logcat"), 0);
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "a");
	assert_int_equal(adb_stream_read_line(s, &line, 10), JG_ETIMEOUT);
	assert_non_null(strstr(jg_error_msg(), "device 'emu-1': 'logcat': no "
	    "complete line within 10 ms"));
	assert_int_equal(adb_stream_read_line(s, &line, 10000), 1);
	assert_string_equal(line.buf, "partial line");
	/* No exit packet: the device went away. */
	assert_int_equal(adb_stream_read_line(s, &line, 10000), JG_EPROTO);
	assert_non_null(strstr(jg_error_msg(), "before the exit status"));
	adb_stream_free(s);
	strbuf_release(&line);
	rig_release(&r);
}

/* Legacy streams are raw lines; their end is a normal end. */
static void
stream_legacy(void **state)
{
	struct strbuf line = STRBUF_INIT;
	struct adb_stream *s;
	struct rig r;

	rig_init(&r, "", TIMEOUT_MS);
	expect_service(r.fa, "shell:logcat");
	fake_adb_sendstr(r.fa, "l1\r\nl");
	fake_adb_pause(r.fa, 10);
	fake_adb_sendstr(r.fa, "2");
	fake_adb_hangup(r.fa);
	fake_adb_start(r.fa);
	assert_int_equal(adb_stream_open(&s, r.dev, "logcat"), 0);
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "l1");
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 1);
	assert_string_equal(line.buf, "l2");
	assert_int_equal(adb_stream_read_line(s, &line, TIMEOUT_MS), 0);
	assert_int_equal(adb_stream_exit_code(s), -1);
	adb_stream_free(s);
	strbuf_release(&line);
	rig_release(&r);
}

/* Many lines (over 1 MiB, long and short) come out in order, intact. */
static void
stream_many_lines(void **state)
{
	struct strbuf all = STRBUF_INIT, line = STRBUF_INIT;
	struct adb_stream *s;
	size_t n = 0, off = 0;
	struct rig r;

	for (int i = 0; all.len < (1u << 20) + 1000; i++) {
		strbuf_addf(&all, "%d:", i);
		for (int k = 0; k < (i * 37) % 300; k++)
			strbuf_addch(&all, 'a' + k % 26);
		if (i % 500 == 0)
			for (int k = 0; k < 100000; k++)
				strbuf_addch(&all, 'z');
		strbuf_addch(&all, '\n');
		n++;
	}
	rig_init(&r, "shell_v2", 10000);
	expect_v2(r.fa, "logcat");
	for (size_t p = 0; p < all.len; p += 4093) {
		size_t len = all.len - p < 4093 ? all.len - p : 4093;

		fake_adb_v2(r.fa, 1, all.buf + p, len);
	}
	fake_adb_v2(r.fa, 3, "\0", 1);
	fake_adb_start(r.fa);
	assert_int_equal(adb_stream_open(&s, r.dev, "logcat"), 0);
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(all.buf + off, "\n");

		assert_int_equal(adb_stream_read_line(s, &line, 10000), 1);
		assert_int_equal(line.len, len);
		assert_memory_equal(line.buf, all.buf + off, len);
		off += len + 1;
	}
	assert_int_equal(adb_stream_read_line(s, &line, 10000), 0);
	adb_stream_free(s);
	strbuf_release(&all);
	strbuf_release(&line);
	rig_release(&r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(v2_separates_streams),
	cmocka_unit_test(v2_missing_exit_is_error),
	cmocka_unit_test(v2_vanishing_device),
	cmocka_unit_test(v2_large_output_intact),
	cmocka_unit_test(legacy_marker_gives_exit_code),
	cmocka_unit_test(legacy_without_marker_is_error),
	cmocka_unit_test(exec_is_binary_safe),
	cmocka_unit_test(argv_quoting_and_check),
	cmocka_unit_test(devices_in_parallel_threads),
	cmocka_unit_test(shell_times_out),
	cmocka_unit_test(stream_lines_in_pieces),
	cmocka_unit_test(stream_stops_from_another_thread),
	cmocka_unit_test(stream_timeout_then_more),
	cmocka_unit_test(stream_legacy),
	cmocka_unit_test(stream_many_lines),
};
JG_UNIT_GROUP(adb_shell, tests, NULL, NULL)
