/*
 * adbprobe.c: drive jankgate's adb client from the command line, for tests.
 *
 * jankgate's user commands reach the client's services only as part of a
 * measurement, so the end-to-end cases use this small driver to exercise
 * each service against the real adb server and a simulated device, one
 * call per invocation.  It is a test instrument, not installed.
 *
 *   adbprobe shell SERIAL CMD             stdout/stderr apart; exits with
 *                                         the device's exit code
 *   adbprobe exec SERIAL CMD              raw output to stdout
 *   adbprobe push SERIAL LOCAL REMOTE [MODE]
 *   adbprobe pull SERIAL REMOTE LOCAL
 *   adbprobe ls SERIAL DIR                "name size mode" lines
 *   adbprobe stat SERIAL PATH             "size mode", or exit 1 if missing
 *   adbprobe install SERIAL APK auto|push|stream
 *   adbprobe install-multiple SERIAL auto|push|stream BASE SPLIT...
 *   adbprobe uninstall SERIAL PACKAGE     exit 1 when not installed
 *   adbprobe stream SERIAL CMD N          print N lines, then stop early
 *   adbprobe bench SERIAL N               N shell round trips and a 5 MiB
 *                                         push and pull; prints the timings
 *                                         (used by `make bench`)
 *
 * Errors print the client's message and exit 3, as jankgate would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adb.h"
#include "adb_sync.h"
#include "error.h"
#include "strbuf.h"

static int
fail(void)
{
	fprintf(stderr, "adbprobe: %s\n", jg_error_msg());
	return 3;
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Shell round trips, then push and pull of 5 MiB, all in this process. */
static int
bench(struct adb_device *dev, long n)
{
	size_t big = 5u << 20;
	double *lat = calloc((size_t)n, sizeof(*lat)), t0, push_ms, pull_ms;
	struct strbuf data = STRBUF_INIT, back = STRBUF_INIT;
	struct adb_sync *s;

	for (long i = 0; i < n; i++) {
		struct adb_shell_result r;

		adb_shell_result_init(&r);
		t0 = now_ms();
		if (adb_shell(dev, "true", &r) || r.exit_code != 0)
			return fail();
		lat[i] = now_ms() - t0;
		adb_shell_result_release(&r);
	}
	qsort(lat, (size_t)n, sizeof(*lat), cmp_double);
	printf("client_shell_ms median=%.3f p95=%.3f n=%ld\n", lat[n / 2],
	    lat[(long)(n * 0.95)], n);
	for (size_t i = 0; i < big; i++)
		strbuf_addch(&data, (char)(i * 2654435761u >> 24));
	if (adb_sync_open(&s, dev))
		return fail();
	t0 = now_ms();
	if (adb_sync_push_mem(s, data.buf, data.len, "/data/local/tmp/bench.bin",
	    0644, -1))
		return fail();
	push_ms = now_ms() - t0;
	t0 = now_ms();
	if (adb_sync_pull_mem(s, "/data/local/tmp/bench.bin", &back))
		return fail();
	pull_ms = now_ms() - t0;
	adb_sync_free(s);
	if (back.len != data.len || memcmp(back.buf, data.buf, data.len)) {
		fprintf(stderr, "adbprobe: pulled data differs\n");
		return 3;
	}
	printf("client_push_MBps %.1f\nclient_pull_MBps %.1f\n",
	    big / 1e6 / (push_ms / 1e3), big / 1e6 / (pull_ms / 1e3));
	free(lat);
	strbuf_release(&data);
	strbuf_release(&back);
	return 0;
}

static int
probe(struct adb_device *dev, int argc, char **argv)
{
	const char *verb = argv[1];

	if (!strcmp(verb, "shell") && argc == 4) {
		struct adb_shell_result r;
		int code;

		adb_shell_result_init(&r);
		if (adb_shell(dev, argv[3], &r)) {
			adb_shell_result_release(&r);
			return fail();
		}
		fwrite(r.out.buf, 1, r.out.len, stdout);
		fwrite(r.err.buf, 1, r.err.len, stderr);
		code = r.exit_code;
		adb_shell_result_release(&r);
		return code;
	}
	if (!strcmp(verb, "exec") && argc == 4) {
		struct strbuf out = STRBUF_INIT;

		if (adb_exec(dev, argv[3], NULL, 0, &out))
			return fail();
		fwrite(out.buf, 1, out.len, stdout);
		strbuf_release(&out);
		return 0;
	}
	if (!strcmp(verb, "push") && (argc == 5 || argc == 6))
		return adb_push(dev, argv[3], argv[4], argc == 6 ?
		    (unsigned)strtoul(argv[5], NULL, 8) : 0) ? fail() : 0;
	if (!strcmp(verb, "pull") && argc == 5)
		return adb_pull(dev, argv[3], argv[4]) ? fail() : 0;
	if (!strcmp(verb, "stat") && argc == 4) {
		struct adb_stat st;
		int rc = adb_stat(dev, argv[3], &st);

		if (rc == JG_ENOTFOUND) {
			fprintf(stderr, "adbprobe: %s\n", jg_error_msg());
			return 1;
		}
		if (rc)
			return fail();
		printf("%llu %o\n", st.size, st.mode);
		return 0;
	}
	if (!strcmp(verb, "ls") && argc == 4) {
		struct adb_dirent_list l = { NULL, 0, 0 };
		struct adb_sync *s;

		if (adb_sync_open(&s, dev))
			return fail();
		if (adb_sync_list(s, argv[3], &l)) {
			adb_sync_free(s);
			return fail();
		}
		for (size_t i = 0; i < l.nr; i++)
			printf("%s %llu %o\n", l.items[i].name,
			    l.items[i].st.size, l.items[i].st.mode);
		adb_dirent_list_release(&l);
		adb_sync_free(s);
		return 0;
	}
	if (!strcmp(verb, "install") && argc == 5) {
		struct adb_install_opts o = { ADB_INSTALL_AUTO, NULL };

		if (!strcmp(argv[4], "push"))
			o.route = ADB_INSTALL_PUSH;
		else if (!strcmp(argv[4], "stream"))
			o.route = ADB_INSTALL_STREAM;
		return adb_install(dev, argv[3], &o) ? fail() : 0;
	}
	if (!strcmp(verb, "install-multiple") && argc >= 5) {
		struct adb_install_opts o = { ADB_INSTALL_AUTO, NULL };

		if (!strcmp(argv[3], "push"))
			o.route = ADB_INSTALL_PUSH;
		else if (!strcmp(argv[3], "stream"))
			o.route = ADB_INSTALL_STREAM;
		return adb_install_multiple(dev, (const char *const *)argv + 4,
		    (size_t)(argc - 4), &o) ? fail() : 0;
	}
	if (!strcmp(verb, "uninstall") && argc == 4) {
		int rc = adb_uninstall(dev, argv[3]);

		return rc == JG_ENOTFOUND ? 1 : rc ? fail() : 0;
	}
	if (!strcmp(verb, "stream") && argc == 5) {
		struct strbuf line = STRBUF_INIT;
		struct adb_stream *s;
		long want = strtol(argv[4], NULL, 10);
		int rc = 0;

		if (adb_stream_open(&s, dev, argv[3]))
			return fail();
		for (long n = 0; n < want; n++) {
			rc = adb_stream_read_line(s, &line, 10000);
			if (rc != 1)
				break;
			printf("%s\n", line.buf);
		}
		adb_stream_stop(s);
		adb_stream_free(s);
		strbuf_release(&line);
		return rc < 0 ? fail() : 0;
	}
	if (!strcmp(verb, "bench") && argc == 4 && atol(argv[3]) > 0)
		return bench(dev, atol(argv[3]));
	fprintf(stderr, "adbprobe: bad arguments (see tests/e2e/adbprobe.c)\n");
	return 2;
}

int
main(int argc, char **argv)
{
	struct adb_server *srv;
	struct adb_device *dev;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: adbprobe VERB SERIAL ARGS...\n");
		return 2;
	}
	if (adb_server_new(&srv, 0))
		return fail();
	dev = adb_device_new(srv, argv[2]);
	rc = probe(dev, argc, argv);
	fflush(stdout);
	adb_device_free(dev);
	adb_server_free(srv);
	return rc;
}
