/*
 * bench_gate.c: the memory of `gate` over many device keys (issue 51).
 *
 * A night of KEYS device keys without phones: the store holds each key's
 * window (baseline.history runs, recorded through the record path as in
 * bench_store.c), tonight's results of each key are on disk where run
 * would have written them, and the gate's own stages after the first run
 * (gate_keys_from_run(), gate_after_run(): compare each key, settle,
 * report; mail and record by policy never) run over them.  max_iterations
 * is iterations, so there is one look: no phone could run more.
 *
 * Each size is measured in a child process of its own, forked from this
 * small parent before it loads anything, so the child's ru_maxrss
 * (wait4()) is that size's own peak.  Printed per size: the peak, the
 * peak through the comparisons alone (VmHWM at the last comparison's
 * note), the report's size and the time of compare and report; then the
 * ratio of the largest size's peak to the smallest's.  Target (issue 51):
 * 50 keys at most 2 x the peak of 5.
 *
 * Usage: bench-gate [--keys N,M,...] [--history K] [--iterations N]
 *                   [--reuse] TEMPLATE.json DIR
 *   DIR: an empty scratch directory, or with --reuse the DIR of an
 *   earlier run with the same options, whose store is used as it is.
 *   Defaults: 5,50 keys, the default baseline.history, 5 iterations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "baseline.h"
#include "baseline_store.h"
#include "bench_nights.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "gate.h"
#include "gate_int.h"
#include "results.h"
#include "run.h"
#include "source.h"
#include "strbuf.h"
#include "xalloc.h"

#define MAX_SIZES 8

static const char *dir, *tmpl_path;
static char repo[4096];
static int history, iterations = 5;

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
	fprintf(stderr, "bench-gate: %s: %s\n", what, jg_error_msg());
	exit(1);
}

/* This process's peak resident size in kB (VmHWM), 0 when unknown. */
static long
vm_hwm_kb(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	long kb = 0;

	if (!file_read(&sb, "/proc/self/status") &&
	    (p = strstr(sb.buf, "VmHWM:")))
		kb = strtol(p + 6, NULL, 10);
	strbuf_release(&sb);
	return kb;
}

static char *
results_path(int k)
{
	char key[64];

	nights_key(key, sizeof(key), k);
	return xasprintf("%s/out/%s/results.json", dir, key);
}

/*
 * The store: `history` nights of `keys` keys through the record path,
 * then tonight's results of each key on disk.
 */
static void
setup(int keys)
{
	struct baseline_store_opts o;
	struct baseline_store *bs;
	struct strbuf tmpl = STRBUF_INIT, data = STRBUF_INIT;
	char oid[BASELINE_OID_HEXSZ + 1];
	cJSON *base, *work;

	if (file_read(&tmpl, tmpl_path))
		die("template");
	if (!(base = cJSON_Parse(tmpl.buf))) {
		fprintf(stderr, "bench-gate: template is not JSON\n");
		exit(1);
	}
	nights_widen(base, iterations);
	work = cJSON_Duplicate(base, 1);
	memset(&o, 0, sizeof(o));
	o.repo = repo;
	o.create = 1;
	if (baseline_store_open(&bs, &o))
		die("open");
	for (int night = 0; night < history; night++)
		for (int k = 0; k < keys; k++) {
			struct results *r = NULL;

			nights_make_run(&data, work, base, night, k);
			if (results_parse_strict(&r, data.buf, data.len, "run") ||
			    baseline_record_run(oid, bs, "main", r, data.buf,
			    data.len, "pass", NULL))
				die("record");
			results_free(r);
		}
	for (int k = 0; k < keys; k++) {
		char *path = results_path(k);
		char *copy = xstrdup(path);

		nights_make_run(&data, work, base, history, k);
		*strrchr(copy, '/') = '\0';
		if (file_mkdirs(copy, 0755) ||
		    file_write_atomic(path, data.buf, data.len, 0644))
			die(path);
		free(copy);
		free(path);
	}
	baseline_store_free(bs);
	cJSON_Delete(base);
	cJSON_Delete(work);
	strbuf_release(&tmpl);
	strbuf_release(&data);
}

/* VmHWM at the last comparison's note: the comparisons' own peak. */
static long compare_hwm_kb;

static void
note(void *data, const char *line)
{
	(void)data;
	if (!strncmp(line, "compare:", 8))
		compare_hwm_kb = vm_hwm_kb();
}

/* The gate's stages after the run over keys 0..keys-1; prints a line. */
static void
measure(int keys)
{
	struct config *cfg = NULL;
	struct gate_opts o;
	struct gate_outcome out;
	struct gate_ctx g = { 0 };
	char *out_dir = xasprintf("%s/gate-%d", dir, keys);
	char *report = xasprintf("%s/report/report.html", out_dir);
	struct stat st;
	double t0;

	if (config_defaults(&cfg, &source_plugins, NULL))
		die("config");
	cfg->max_iterations = cfg->iterations;
	strlist_add(&cfg->scenarios, "scroll_feed.scn");
	strlist_add(&cfg->scenarios, "settings.scn");
	gate_opts_init(&o, cfg);
	o.mail_when = MAIL_NEVER;
	o.update = UPDATE_NEVER;
	o.progress = RUN_PROGRESS_NONE;
	o.note = note;
	gate_outcome_init(&out);
	g.o = &o;
	g.cfg = cfg;
	g.out = &out;
	g.out_dir = out_dir;
	g.ref = "main";
	g.looks = gate_looks(cfg->iterations, cfg->max_iterations);
	if (baseline_open(&g.bs, &cfg->baseline, repo))
		die("open");
	for (int k = 0; k < keys; k++) {
		struct run_device_report *d;
		char key[64];

		XALLOC_GROW(out.run.devices, out.run.nr_devices + 1,
		    out.run.alloc_devices);
		d = &out.run.devices[out.run.nr_devices++];
		memset(d, 0, sizeof(*d));
		nights_key(key, sizeof(key), k);
		d->serial = xasprintf("bench-%02d", k);
		d->key = xstrdup(key);
		d->results_path = results_path(k);
		d->complete = true;
		strlist_init(&d->errors);
		strlist_init(&d->warnings);
	}
	t0 = now_ms();
	if (gate_keys_from_run(&g))
		die("keys");
	gate_after_run(&g);
	if (out.errors.nr) {
		fprintf(stderr, "bench-gate: %s\n", out.errors.items[0]);
		exit(1);
	}
	printf("  %2d keys  peak through the comparisons %6.1f MB   "
	    "compare and report %6.1f s   report.html %6.0f kB   (%s)\n",
	    keys, compare_hwm_kb / 1024.0, (now_ms() - t0) / 1e3,
	    stat(report, &st) ? 0.0 : st.st_size / 1024.0,
	    exit_status_name(out.status));
	fflush(stdout);
	for (size_t i = 0; i < out.nr_keys; i++)
		gate_work_release(&g.work[i]);
	free(g.work);
	baseline_store_free(g.bs);
	gate_outcome_release(&out);
	gate_opts_release(&o);
	config_free(cfg);
	free(report);
	free(out_dir);
}

/* Run `fn(arg)` in a child; its peak resident size in kB. */
static long
in_child(void (*fn)(int), int arg)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(stdout);
	if ((pid = fork()) < 0) {
		perror("bench-gate: fork");
		exit(1);
	}
	if (!pid) {
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "bench-gate: a child failed\n");
		exit(1);
	}
	return ru.ru_maxrss;
}

int
main(int argc, char **argv)
{
	int sizes[MAX_SIZES] = { 5, 50 }, nr = 2, most = 0, ai = 1, reuse = 0;
	long peak[MAX_SIZES];
	struct config *cfg = NULL;
	double t0;

	while (ai < argc && argv[ai][0] == '-') {
		const char *opt = argv[ai++], *val = ai < argc ? argv[ai] : "";

		if (!strcmp(opt, "--reuse")) {
			reuse = 1;
			continue;
		}
		ai++;		/* every other option takes a value */
		if (!strcmp(opt, "--keys")) {
			char *p = (char *)val, *end;

			for (nr = 0; nr < MAX_SIZES && *p; nr++, p = end) {
				sizes[nr] = (int)strtol(p, &end, 10);
				if (end == p) {
					nr = 0;	/* not a number: the usage */
					break;
				}
				if (*end == ',')
					end++;
			}
		} else if (!strcmp(opt, "--history")) {
			history = atoi(val);
		} else if (!strcmp(opt, "--iterations")) {
			iterations = atoi(val);
		} else {
			nr = 0;		/* an unknown option: the usage */
			break;
		}
	}
	for (int i = 0; i < nr; i++)
		if (sizes[i] < 1 || sizes[i] > 99)
			nr = 0;
		else if (sizes[i] > most)
			most = sizes[i];
	if (argc - ai != 2 || !nr || history < 0 || iterations < 1) {
		fprintf(stderr, "usage: bench-gate [--keys N,M,...] "
		    "[--history K] [--iterations N] [--reuse] TEMPLATE.json "
		    "DIR\n");
		return 2;
	}
	tmpl_path = argv[ai];
	dir = argv[ai + 1];
	snprintf(repo, sizeof(repo), "%s/store.git", dir);
	if (!history) {
		/* The default window: what a gate reads of each key. */
		if (config_defaults(&cfg, &source_plugins, NULL))
			die("config");
		history = cfg->baseline.history;
		config_free(cfg);
	}
	printf("gate: compare and report over N device keys, each with a "
	    "window of %d runs of %d iterations in the store; no phones\n",
	    history, iterations);
	t0 = now_ms();
	if (!reuse) {
		in_child(setup, most);
		printf("  store of %d keys x %d runs recorded in %.0f s\n",
		    most, history, (now_ms() - t0) / 1e3);
	}
	for (int i = 0; i < nr; i++) {
		peak[i] = in_child(measure, sizes[i]);
		printf("  %2d keys  peak resident %6.1f MB\n", sizes[i],
		    peak[i] / 1024.0);
	}
	if (nr > 1)
		printf("  peak of %d keys / peak of %d keys: %.2f (target <= 2 "
		    "for 50 / 5)\n", sizes[nr - 1], sizes[0],
		    (double)peak[nr - 1] / (double)peak[0]);
	return 0;
}
