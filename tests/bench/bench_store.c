/*
 * bench_store.c: a year of nights in the baseline store (issue 51).
 *
 * Builds a store of KEYS device keys x NIGHTS nights (default 50 x 365:
 * 18,250 runs of 5 iterations) through the record path `baseline record`
 * and `gate` use (results_parse_strict(), then baseline_record_run(),
 * which packs every BASELINE_PACK_EVERY records), night by night as
 * nightly jobs would.  Each run is the template results file with the
 * device key, run id and every duration moved by a little noise, so
 * nights differ as real ones do.  It prints, at 1,000 and 2,000 runs,
 * every 5,000 and at the end: the mean time of the last 200 records, and
 * the median of 3 of `jankgate compare --against main` and of `jankgate
 * baseline log` (run as programs, as CI runs them), each as wall time
 * and as CPU time (user + system), which a machine busy with other jobs
 * does not inflate.  With 50 keys, 1,000 runs hold half a window of the
 * default baseline.history of 40, so a comparison there reads half the
 * runs it reads from 2,000 on: compare runs a second time with the
 * window 1,000 runs fill (JANKGATE_BASELINE_HISTORY=1000/KEYS), which
 * reads the same number of runs at every size, so its growth is the
 * store's.  Then it prints the size on disk and the
 * file count of the repository before and after `jankgate baseline gc`,
 * and the bytes of results recorded, for scale.  Targets (issue 51):
 * after gc at most 1,000 files; record, compare and log at the end at
 * most 1.2 x their time at 1,000 runs.
 *
 * Usage: bench-store [--keys N] [--nights N] JANKGATE TEMPLATE.json DIR
 *   DIR: an empty scratch directory.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include <cJSON.h>

#include "baseline.h"
#include "bench_nights.h"
#include "baseline_store.h"
#include "error.h"
#include "fileio.h"
#include "proc.h"
#include "results.h"
#include "strbuf.h"

#define ITERATIONS 5
#define RECORD_WINDOW 200
#define REPEAT 3
#define CHECKPOINT 1000

static const char *jankgate, *dir;
/* The window CHECKPOINT runs fill for every key, as JANKGATE_BASELINE_HISTORY. */
static char fixed_window[16];
static char repo[4096], cur[4096], cmp_out[4096];

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
die(const char *what)
{
	fprintf(stderr, "bench-store: %s: %s\n", what, jg_error_msg());
	exit(1);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One command's figures: the medians of REPEAT runs. */
struct cli_time {
	double wall_ms;
	double cpu_ms;		/* user + system of the child */
};

/* User + system time of RUSAGE_SELF or RUSAGE_CHILDREN, in ms. */
static double
cpu_ms(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double
children_cpu_ms(void)
{
	return cpu_ms(RUSAGE_CHILDREN);
}

static double
self_cpu_ms(void)
{
	return cpu_ms(RUSAGE_SELF);
}

/*
 * The median wall and CPU time of REPEAT runs of jankgate with `args`.
 * The CPU time is what a loaded machine does not inflate: on a CI host
 * running other jobs, wall times of the same command vary threefold.
 */
static struct cli_time
time_cli(const char *const *args, int want_ok)
{
	double t[REPEAT], c[REPEAT];
	struct cli_time out;

	for (int r = 0; r < REPEAT; r++) {
		struct proc_result res;
		double t0 = now_ms(), c0 = children_cpu_ms();

		proc_result_init(&res);
		if (proc_run(&res, args, NULL) < 0)
			die(args[1]);
		t[r] = now_ms() - t0;
		c[r] = children_cpu_ms() - c0;
		if (want_ok && res.exit_code != 0 && res.exit_code != 1) {
			fprintf(stderr, "bench-store: %s exited %d: %s", args[1],
			    res.exit_code, res.err.buf);
			exit(1);
		}
		proc_result_release(&res);
	}
	qsort(t, REPEAT, sizeof(t[0]), cmp_double);
	qsort(c, REPEAT, sizeof(c[0]), cmp_double);
	out.wall_ms = t[REPEAT / 2];
	out.cpu_ms = c[REPEAT / 2];
	return out;
}

/* Bytes on disk and files under `path`. */
static void
disk_use(const char *path, unsigned long long *bytes, unsigned long *files)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[4096];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (lstat(sub, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			disk_use(sub, bytes, files);
		} else {
			*bytes += (unsigned long long)st.st_blocks * 512;
			(*files)++;
		}
	}
	closedir(d);
}

/*
 * The figures at `label`: the records' mean (wall and CPU), median and
 * slowest of the last RECORD_WINDOW (the slowest merged packs), then the
 * commands'.
 */
static void
checkpoint(const char *label, double record_ms, double record_cpu_ms,
    double record_median_ms, double record_max_ms)
{
	const char *compare[] = { jankgate, "compare", cur, "--against",
	    "main", "--repo", repo, "-o", cmp_out, NULL };
	const char *log[] = { jankgate, "baseline", "log", "--repo", repo,
	    NULL };
	const char *log_key[] = { jankgate, "baseline", "log", "--device",
	    "vendor-model00-api34-60hz", "--repo", repo, NULL };
	struct cli_time tc = time_cli(compare, 1), tl = time_cli(log, 1),
	    tk = time_cli(log_key, 1), tw;

	/* The same window at every size: what the store's size costs. */
	setenv("JANKGATE_BASELINE_HISTORY", fixed_window, 1);
	tw = time_cli(compare, 1);
	unsetenv("JANKGATE_BASELINE_HISTORY");

	printf("  %-12s record: mean of the last %d %6.1f ms (%6.1f CPU), "
	    "median %5.1f, slowest %7.0f\n"
	    "  %-12s compare --against %5.0f ms (%4.0f CPU), with a window "
	    "of %s runs %5.0f ms (%4.0f CPU)\n"
	    "  %-12s log %4.0f ms (%4.0f CPU)   log --device %4.0f ms "
	    "(%4.0f CPU)\n", label, RECORD_WINDOW, record_ms, record_cpu_ms,
	    record_median_ms, record_max_ms, "", tc.wall_ms, tc.cpu_ms,
	    fixed_window, tw.wall_ms, tw.cpu_ms, "", tl.wall_ms, tl.cpu_ms,
	    tk.wall_ms, tk.cpu_ms);
	fflush(stdout);
}

static void
print_disk(const char *when)
{
	unsigned long long bytes = 0;
	unsigned long files = 0;

	disk_use(repo, &bytes, &files);
	printf("  %-12s %8.1f MB on disk in %lu files\n", when, bytes / 1e6,
	    files);
}

int
main(int argc, char **argv)
{
	struct baseline_store_opts o;
	struct baseline_store *bs;
	struct strbuf tmpl = STRBUF_INIT, data = STRBUF_INIT;
	cJSON *base, *work;
	int keys = 50, nights = 365, ai = 1;
	double window[RECORD_WINDOW] = { 0 }, t0, build_ms, raw = 0;
	double cpu_window[RECORD_WINDOW] = { 0 };
	char oid[BASELINE_OID_HEXSZ + 1];
	long runs = 0;

	for (; ai + 1 < argc && argv[ai][0] == '-'; ai += 2) {
		if (!strcmp(argv[ai], "--keys"))
			keys = atoi(argv[ai + 1]);
		else if (!strcmp(argv[ai], "--nights"))
			nights = atoi(argv[ai + 1]);
		else
			break;
	}
	if (argc - ai != 3 || keys < 1 || keys > 99 || nights < 1) {
		fprintf(stderr, "usage: bench-store [--keys N] [--nights N] "
		    "JANKGATE TEMPLATE.json DIR\n");
		return 2;
	}
	jankgate = argv[ai];
	/* baseline.history takes 1 to 100 */
	snprintf(fixed_window, sizeof(fixed_window), "%d",
	    CHECKPOINT / keys < 1 ? 1 : CHECKPOINT / keys > 100 ? 100 :
	    CHECKPOINT / keys);
	dir = argv[ai + 2];
	snprintf(repo, sizeof(repo), "%s/store.git", dir);
	snprintf(cur, sizeof(cur), "%s/current.json", dir);
	snprintf(cmp_out, sizeof(cmp_out), "%s/comparison.json", dir);
	if (file_read(&tmpl, argv[ai + 1]))
		die("template");
	if (!(base = cJSON_Parse(tmpl.buf))) {
		fprintf(stderr, "bench-store: template is not JSON\n");
		return 1;
	}
	nights_widen(base, ITERATIONS);
	work = cJSON_Duplicate(base, 1);
	memset(&o, 0, sizeof(o));
	o.repo = repo;
	o.create = 1;
	if (baseline_store_open(&bs, &o))
		die("open");
	printf("store: %d device keys x %d nights of %d-iteration runs through "
	    "the record path (packing every %d records)\n", keys, nights,
	    ITERATIONS, BASELINE_PACK_EVERY);
	fflush(stdout);
	t0 = now_ms();
	for (int night = 0; night < nights; night++) {
		for (int k = 0; k < keys; k++) {
			struct results *r = NULL;
			char label[32];
			double t1, c1;

			nights_make_run(&data, work, base, night, k);
			raw += data.len;
			t1 = now_ms();
			c1 = self_cpu_ms();
			if (results_parse_strict(&r, data.buf, data.len, "run") ||
			    baseline_record_run(oid, bs, "main", r, data.buf,
			    data.len, "pass", NULL))
				die("record");
			window[runs % RECORD_WINDOW] = now_ms() - t1;
			cpu_window[runs % RECORD_WINDOW] = self_cpu_ms() - c1;
			results_free(r);
			if (baseline_store_pack_error(bs)) {
				fprintf(stderr, "bench-store: pack: %s\n",
				    baseline_store_pack_error(bs));
				return 1;
			}
			if (++runs == CHECKPOINT || runs == 2 * CHECKPOINT ||
			    runs % 5000 == 0 ||
			    runs == (long)keys * nights) {
				long n = runs < RECORD_WINDOW ? runs :
				    RECORD_WINDOW;
				double sum = 0, cpu = 0, sorted[RECORD_WINDOW];

				for (long i = 0; i < n; i++) {
					sum += window[i];
					cpu += cpu_window[i];
					sorted[i] = window[i];
				}
				qsort(sorted, (size_t)n, sizeof(sorted[0]),
				    cmp_double);
				/* Tonight's run of key 0, not yet recorded. */
				nights_make_run(&data, work, base, night + 1, 0);
				if (file_write_atomic(cur, data.buf, data.len, 0644))
					die("current");
				snprintf(label, sizeof(label), "%ld runs", runs);
				checkpoint(label, sum / n, cpu / n,
				    sorted[n / 2], sorted[n - 1]);
			}
		}
	}
	build_ms = now_ms() - t0;
	baseline_store_free(bs);
	printf("  %ld runs recorded in %.0f s; %.1f MB of results files\n",
	    runs, build_ms / 1e3, raw / 1e6);
	print_disk("before gc");
	{
		const char *gc[] = { jankgate, "baseline", "gc", "--repo", repo,
		    NULL };
		struct proc_result res;

		t0 = now_ms();
		proc_result_init(&res);
		if (proc_run(&res, gc, NULL) < 0 || res.exit_code) {
			fprintf(stderr, "bench-store: gc: %s", res.err.buf);
			return 1;
		}
		proc_result_release(&res);
		printf("  baseline gc took %.1f s\n", (now_ms() - t0) / 1e3);
	}
	print_disk("after gc");
	printf("  targets: <= 1,000 files after gc; record, compare and log at "
	    "the end <= 1.2 x at 1,000 runs\n");
	cJSON_Delete(base);
	cJSON_Delete(work);
	strbuf_release(&tmpl);
	strbuf_release(&data);
	return 0;
}
