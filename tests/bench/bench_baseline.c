/*
 * bench_baseline.c: how long assembling a baseline sample takes.
 *
 * Issue 8's target: from a repository holding 1,000 accepted runs for 10
 * devices (100 per device, interleaved as nightly jobs would push them),
 * opening the store and reading the last K = 5 runs of every device must
 * take under 100 ms.  The repository is built here with the store itself
 * (baseline_store_record, one commit per run), then the read is timed
 * REPEAT times and the median printed, with the time the build took.
 *
 * Usage: bench-baseline DIR    (DIR: an empty scratch directory)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline_store.h"
#include "error.h"
#include "strbuf.h"

#define DEVICES 10
#define RUNS 1000
#define K 5
#define REPEAT 9

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

/* A results file of a realistic size (~17 KB), different per run. */
static void
fake_results(struct strbuf *sb, int run, int dev)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "{\n  \"schema\": \"jankgate.results/1\",\n"
	    "  \"run\": { \"id\": \"run-%04d-%02d\" },\n  \"scenarios\": [", run,
	    dev);
	for (int i = 0; i < 300; i++)
		strbuf_addf(sb, "%s\n    { \"name\": \"s%d\", \"v\": %d.%03d }",
		    i ? "," : "", i, run + i, (run * 7 + i) % 1000);
	strbuf_addstr(sb, "\n  ]\n}\n");
}

static void
die(const char *what)
{
	fprintf(stderr, "bench-baseline: %s: %s\n", what, jg_error_msg());
	exit(1);
}

int
main(int argc, char **argv)
{
	struct baseline_store_opts o;
	struct baseline_store *bs;
	struct strbuf data = STRBUF_INIT;
	double t0, build_ms, times[REPEAT];
	char oid[BASELINE_OID_HEXSZ + 1];
	char *repo;

	if (argc != 2) {
		fprintf(stderr, "usage: bench-baseline DIR\n");
		return 2;
	}
	repo = malloc(strlen(argv[1]) + 16);
	snprintf(repo, strlen(argv[1]) + 16, "%s/base.git", argv[1]);
	memset(&o, 0, sizeof(o));
	o.repo = repo;
	o.create = 1;
	if (baseline_store_open(&bs, &o))
		die("open");
	t0 = now_ms();
	for (int run = 0; run < RUNS / DEVICES; run++) {
		for (int dev = 0; dev < DEVICES; dev++) {
			struct baseline_commit_info info = {
				.app_version = "1.0", .verdict = "pass"
			};
			char key[32], id[32];

			snprintf(key, sizeof(key), "vendor-model%d-api34-60hz",
			    dev);
			snprintf(id, sizeof(id), "run-%04d-%02d", run, dev);
			info.run_id = id;
			fake_results(&data, run, dev);
			if (baseline_store_record(oid, bs, "main",
			    "com.example.shop", key, data.buf, data.len, &info))
				die("record");
		}
	}
	build_ms = now_ms() - t0;
	baseline_store_free(bs);

	for (int r = 0; r < REPEAT; r++) {
		size_t total = 0;

		t0 = now_ms();
		o.create = 0;
		if (baseline_store_open(&bs, &o))
			die("open");
		for (int dev = 0; dev < DEVICES; dev++) {
			struct baseline_entry *e;
			size_t nr;
			char key[32];

			snprintf(key, sizeof(key), "vendor-model%d-api34-60hz",
			    dev);
			if (baseline_store_history(&e, &nr, bs, "main",
			    "com.example.shop", key, K))
				die("history");
			total += nr;
			baseline_entries_free(e, nr);
		}
		baseline_store_free(bs);
		times[r] = now_ms() - t0;
		if (total != DEVICES * K) {
			fprintf(stderr, "bench-baseline: read %zu runs, "
			    "expected %d\n", total, DEVICES * K);
			return 1;
		}
	}
	qsort(times, REPEAT, sizeof(times[0]), cmp_double);
	printf("baseline: %d accepted runs for %d devices in a bare repository "
	    "(built in %.1f s)\n", RUNS, DEVICES, build_ms / 1e3);
	printf("  open + last %d runs of each of %d devices: median %.1f ms, "
	    "max %.1f ms over %d reads (target < 100 ms)\n", K, DEVICES,
	    times[REPEAT / 2], times[REPEAT - 1], REPEAT);
	strbuf_release(&data);
	free(repo);
	return 0;
}
