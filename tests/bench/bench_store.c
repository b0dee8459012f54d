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
 * every 5,000 and at the end: the mean time of the last 500 records (one
 * whole cycle of packing and merging, so the mean is a record's amortized
 * cost), its CPU split into user and system time, the median of 40
 * records run as a nightly job runs them (record_cli()), and
 * the median of 3 of `jankgate compare --against main` and of `jankgate
 * baseline log` (run as programs, as CI runs them, each started with
 * posix_spawn() and timed by its own rusage: spawn_timed()), each as
 * wall time and as CPU time (user + system), which a machine busy with
 * other jobs does not inflate.  With 50 keys, 1,000 runs hold half a
 * window of the default baseline.history of 40, so a comparison there
 * reads half the runs it reads from 2,000 on: compare runs a second time
 * with the window 1,000 runs fill (JANKGATE_BASELINE_HISTORY=1000/KEYS),
 * which reads the same number of runs at every size, so its growth is
 * the store's.  Then it prints the size on disk and the file count of
 * the repository before and after `jankgate baseline gc`,
 * and the bytes of results recorded, for scale.  Each record's packs
 * are told by the pack directory before and after it, so the slowest
 * record is printed with what it wrote and removed.  Last, on the store
 * after gc, the bytes a fresh runner fetches for one key's window with
 * the git command-line tool, which (unlike libgit2 1.5) fetches shallow:
 * from the branch, a clone as deep as the commits back to the window's
 * oldest run, and a partial one of the same depth without blobs, followed
 * by one fetch of the window's files; from the key's own ref, a shallow
 * fetch of the window and the whole ref (what a new jankgate cache
 * fetches); each against the store's packed size.  Targets (issue 51):
 * after gc at most 1,000 files; record, compare and log at the end at
 * most 1.2 x their time at 1,000 runs; that fetch at most 5 % of the
 * store.
 *
 * Usage: bench-store [--keys N] [--nights N] JANKGATE TEMPLATE.json DIR
 *   DIR: an empty scratch directory.
 */
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
/* One whole cycle of the record path's packing: BASELINE_PACK_MERGE packs
 * of BASELINE_PACK_EVERY records each, then their merge, so the mean of a
 * window is the amortized cost of a record at every checkpoint. */
#define RECORD_WINDOW (BASELINE_PACK_EVERY * BASELINE_PACK_MERGE)
#define REPEAT 3
/* Records timed as CI runs them at each checkpoint: one process each. */
#define RECORD_CLI 40
#define CHECKPOINT 1000
/* baseline.history's default: the runs a comparison reads for a key. */
#define WINDOW 40

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

/* User time of a struct rusage, in ms; its system time into *system_ms
 * when not NULL. */
static double
ru_user_ms(const struct rusage *ru, double *system_ms)
{
	if (system_ms)
		*system_ms = ru->ru_stime.tv_sec * 1e3 +
		    ru->ru_stime.tv_usec / 1e3;
	return ru->ru_utime.tv_sec * 1e3 + ru->ru_utime.tv_usec / 1e3;
}

/* This process's user time in ms; its system time into *system_ms. */
static double
user_ms(double *system_ms)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru_user_ms(&ru, system_ms);
}

static double
self_cpu_ms(void)
{
	double sys, user = user_ms(&sys);

	return user + sys;
}

/* What one timed child took. */
struct child_time {
	double wall_ms, user_ms, system_ms;
	int exit_code;		/* -1: killed by a signal */
};

/* Where a timed child's stderr goes: DIR/child.err. */
static const char *
child_err(void)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/child.err", dir);
	return path;
}

/*
 * Run `argv` with its output thrown away but for stderr, which goes to
 * DIR/child.err, and time it by its own rusage (wait4()).  posix_spawn,
 * not proc_run()'s fork(): a forked child's exec tears down its copy of
 * this process's address space, on the child's system time, and this
 * process holds a year of records' caches by the end, so the children's
 * figures grew with the bench (docs/validation.md).  A nightly job's
 * shell is small; so is what the figures charge a record now.
 */
static struct child_time
spawn_timed(const char *const *argv)
{
	extern char **environ;
	posix_spawn_file_actions_t fa;
	struct child_time out = { 0, 0, 0, -1 };
	struct rusage ru;
	pid_t pid;
	int st;
	double t0;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, child_err(),
	    O_WRONLY | O_CREAT | O_TRUNC, 0644);
	t0 = now_ms();
	if (posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv,
	    environ)) {
		fprintf(stderr, "bench-store: cannot run %s\n", argv[0]);
		exit(1);
	}
	posix_spawn_file_actions_destroy(&fa);
	if (wait4(pid, &st, 0, &ru) != pid) {
		fprintf(stderr, "bench-store: wait for %s failed\n", argv[0]);
		exit(1);
	}
	out.wall_ms = now_ms() - t0;
	out.user_ms = ru_user_ms(&ru, &out.system_ms);
	if (WIFEXITED(st))
		out.exit_code = WEXITSTATUS(st);
	return out;
}

/* Exit naming `argv` and what it said on stderr. */
static void
child_failed(const char *const *argv, int code)
{
	struct strbuf msg = STRBUF_INIT;

	file_read(&msg, child_err());
	fprintf(stderr, "bench-store: jankgate %s%s%s exited %d: %s", argv[1],
	    strcmp(argv[1], "baseline") ? "" : " ",
	    strcmp(argv[1], "baseline") ? "" : argv[2], code, msg.buf);
	exit(1);
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
		struct child_time ct = spawn_timed(args);

		t[r] = ct.wall_ms;
		c[r] = ct.user_ms + ct.system_ms;
		if (want_ok && ct.exit_code != 0 && ct.exit_code != 1)
			child_failed(args, ct.exit_code);
	}
	qsort(t, REPEAT, sizeof(t[0]), cmp_double);
	qsort(c, REPEAT, sizeof(c[0]), cmp_double);
	out.wall_ms = t[REPEAT / 2];
	out.cpu_ms = c[REPEAT / 2];
	return out;
}

static void run_or_die(struct strbuf *out, const char *const *argv);

/*
 * `jankgate baseline record` as a nightly job runs it, one process a run,
 * on a copy of the store made now (cp -a: its packs and loose objects as
 * they are): RECORD_CLI runs of keys 0 to RECORD_CLI - 1; the median wall
 * and CPU time of one, and the mean user and system time.  The loop in
 * main() keeps one process for the whole year, whose caches and heap grow
 * with it, and creates and removes a year of loose object files in
 * minutes; on a file system without a journal, ext4's allocator then
 * checks every recently freed inode before it reuses one, which slows
 * each new file in the store's directories as the year goes on.  A
 * nightly job sees neither, so its records are timed in processes of
 * their own, on a copy whose files are new.
 */
static struct cli_time
record_cli(struct strbuf *data, cJSON *work, const cJSON *base, int night,
    double *user_ms_out, double *system_ms)
{
	double t[RECORD_CLI], c[RECORD_CLI], user = 0, sys = 0;
	char path[4200], copy[4200];
	const char *argv[] = { jankgate, "baseline", "record", path, "--repo",
	    copy, NULL };
	const char *cp[] = { "cp", "-a", repo, copy, NULL };
	const char *rm[] = { "rm", "-rf", copy, NULL };
	struct cli_time out;

	snprintf(path, sizeof(path), "%s/record.json", dir);
	snprintf(copy, sizeof(copy), "%s/copy.git", dir);
	run_or_die(NULL, rm);
	run_or_die(NULL, cp);
	for (int k = 0; k < RECORD_CLI; k++) {
		struct child_time ct;

		nights_make_run(data, work, base, night, k);
		if (file_write_atomic(path, data->buf, data->len, 0644))
			die("record.json");
		ct = spawn_timed(argv);
		if (ct.exit_code)
			child_failed(argv, ct.exit_code);
		t[k] = ct.wall_ms;
		c[k] = ct.user_ms + ct.system_ms;
		user += ct.user_ms;
		sys += ct.system_ms;
	}
	*user_ms_out = user / RECORD_CLI;
	*system_ms = sys / RECORD_CLI;
	run_or_die(NULL, rm);
	qsort(t, RECORD_CLI, sizeof(t[0]), cmp_double);
	qsort(c, RECORD_CLI, sizeof(c[0]), cmp_double);
	out.wall_ms = t[RECORD_CLI / 2];
	out.cpu_ms = c[RECORD_CLI / 2];
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

/* A pack of the store as a record left it: its name and object count. */
struct pack_seen {
	char name[64];		/* "pack-<hex>.idx" */
	size_t objects;
};

struct pack_list {
	struct pack_seen *p;
	size_t nr, alloc;
};

/* The object count an .idx file declares (its fan-out's last entry). */
static size_t
idx_count(const char *path)
{
	unsigned char b[8 + 256 * 4];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		return 0;
	n = fread(b, 1, sizeof(b), fp);
	fclose(fp);
	if (n < sizeof(b))
		return 0;
	return (size_t)b[1028] << 24 | (size_t)b[1029] << 16 |
	    (size_t)b[1030] << 8 | b[1031];
}

static const struct pack_seen *
pack_find(const struct pack_list *l, const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->p[i].name, name))
			return &l->p[i];
	return NULL;
}

/* The packs of the store now into `now`, counts known in `was` reused. */
static void
packs_list(struct pack_list *now, const struct pack_list *was)
{
	char dpath[4200], path[4300];
	struct dirent *de;
	DIR *d;

	now->nr = 0;
	snprintf(dpath, sizeof(dpath), "%s/objects/pack", repo);
	if (!(d = opendir(dpath)))
		return;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		const struct pack_seen *old;

		if (n < 10 || n >= sizeof(now->p->name) ||
		    strncmp(de->d_name, "pack-", 5) ||
		    strcmp(de->d_name + n - 4, ".idx"))
			continue;
		if (now->nr == now->alloc) {
			now->alloc = now->alloc ? 2 * now->alloc : 64;
			now->p = realloc(now->p, now->alloc * sizeof(*now->p));
			if (!now->p)
				abort();
		}
		snprintf(now->p[now->nr].name, sizeof(now->p->name), "%s",
		    de->d_name);
		if ((old = pack_find(was, de->d_name))) {
			now->p[now->nr].objects = old->objects;
		} else {
			snprintf(path, sizeof(path), "%s/%s", dpath,
			    de->d_name);
			now->p[now->nr].objects = idx_count(path);
		}
		now->nr++;
	}
	closedir(d);
}

/* What a record did to the packs, from `was` to `now`, into `buf`. */
static void
packs_change(char *buf, size_t size, const struct pack_list *was,
    const struct pack_list *now)
{
	size_t wrote = 0, wrote_obj = 0, gone = 0, gone_obj = 0;

	for (size_t i = 0; i < now->nr; i++)
		if (!pack_find(was, now->p[i].name)) {
			wrote++;
			wrote_obj += now->p[i].objects;
		}
	for (size_t i = 0; i < was->nr; i++)
		if (!pack_find(now, was->p[i].name)) {
			gone++;
			gone_obj += was->p[i].objects;
		}
	if (!wrote && !gone)
		snprintf(buf, size, "no pack written; %zu packs", now->nr);
	else if (!gone)
		snprintf(buf, size, "wrote %zu pack(s) of %zu objects; %zu "
		    "packs after", wrote, wrote_obj, now->nr);
	else
		snprintf(buf, size, "wrote %zu pack(s) of %zu objects, "
		    "merging %zu packs of %zu objects; %zu packs after", wrote,
		    wrote_obj, gone, gone_obj, now->nr);
}

/*
 * The figures at `label`: the records' mean (wall, and CPU split into user
 * and system), median and slowest of the last RECORD_WINDOW, with what the
 * slowest did to the packs, then the commands'.
 */
static void
checkpoint(const char *label, double record_ms, double record_cpu_ms,
    double record_user_ms, double record_median_ms, double record_max_ms,
    double record_max_cpu_ms, const char *max_what, struct strbuf *data,
    cJSON *work, const cJSON *base, int night)
{
	double rc_user, rc_system;
	struct cli_time rc = record_cli(data, work, base, night, &rc_user,
	    &rc_system);
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

	printf("  %-12s record: mean of the last %d %5.1f ms (%5.1f CPU: "
	    "%4.1f user, %4.1f system), median %4.1f, slowest %5.0f "
	    "(%4.0f CPU)\n"
	    "  %-12s   the slowest: %s\n"
	    "  %-12s record as a nightly job runs it, on a copy (one process, "
	    "median of %d) %5.1f ms (%4.1f CPU; mean %4.1f user, %4.1f "
	    "system)\n"
	    "  %-12s compare --against %5.0f ms (%4.0f CPU), with a window "
	    "of %s runs %5.0f ms (%4.0f CPU)\n"
	    "  %-12s log %4.0f ms (%4.0f CPU)   log --device %4.0f ms "
	    "(%4.0f CPU)\n", label, RECORD_WINDOW, record_ms, record_cpu_ms,
	    record_user_ms, record_cpu_ms - record_user_ms, record_median_ms,
	    record_max_ms, record_max_cpu_ms, "", max_what, "", RECORD_CLI,
	    rc.wall_ms, rc.cpu_ms, rc_user, rc_system, "", tc.wall_ms,
	    tc.cpu_ms, fixed_window, tw.wall_ms, tw.cpu_ms, "", tl.wall_ms, tl.cpu_ms,
	    tk.wall_ms, tk.cpu_ms);
	fflush(stdout);
}

/* Run `argv`, its stdout into `out` (when not NULL); exit on failure. */
static void
run_or_die(struct strbuf *out, const char *const *argv)
{
	struct proc_result res;

	proc_result_init(&res);
	if (proc_run(&res, argv, NULL) < 0 || res.exit_code) {
		fprintf(stderr, "bench-store: '%s %s' failed: %s", argv[0],
		    argv[3] ? argv[3] : "", res.err.buf);
		exit(1);
	}
	if (out) {
		strbuf_setlen(out, 0);
		strbuf_add(out, res.out.buf, res.out.len);
	}
	proc_result_release(&res);
}

/* The KiB of objects (packed and loose) `git count-objects -v` gives. */
static long
objects_kib(const char *git_dir)
{
	const char *argv[] = { "git", "-C", git_dir, "count-objects", "-v",
	    NULL };
	struct strbuf out = STRBUF_INIT;
	const char *p;
	long kib = 0;

	run_or_die(&out, argv);
	if ((p = strstr(out.buf, "\nsize-pack: ")))
		kib += atol(p + 12);
	if (!strncmp(out.buf, "count: ", 7) && (p = strstr(out.buf,
	    "\nsize: ")))
		kib += atol(p + 7);
	strbuf_release(&out);
	return kib;
}

/*
 * What a fresh runner fetches of the key's own ref (docs/store.md): with
 * git's shallow fetch, the window's last WINDOW versions; and the whole
 * ref, which is what a new jankgate cache fetches (libgit2 1.5 has no
 * shallow fetch; the same objects, fetched here with git).  Each into an
 * empty repository, against the store's packed size.
 */
static void
fetch_key_ref(const char *url, const char *package, const char *key,
    long store_kib)
{
	char spec[1200], win[16], shallow[4200], whole[4200];
	long shallow_kib, whole_kib;

	snprintf(spec, sizeof(spec), "+refs/jankgate/keys/main/%s/%s:"
	    "refs/jankgate/keys/main/%s/%s", package, key, package, key);
	snprintf(win, sizeof(win), "%d", WINDOW);
	snprintf(shallow, sizeof(shallow), "%s/key-shallow.git", dir);
	snprintf(whole, sizeof(whole), "%s/key-whole.git", dir);
	{
		const char *init1[] = { "git", "init", "-q", "--bare", shallow,
		    NULL };
		const char *init2[] = { "git", "init", "-q", "--bare", whole,
		    NULL };
		const char *f1[] = { "git", "-C", shallow, "fetch", "-q",
		    "--no-tags", "--depth", win, url, spec, NULL };
		const char *f2[] = { "git", "-C", whole, "fetch", "-q",
		    "--no-tags", url, spec, NULL };

		run_or_die(NULL, init1);
		run_or_die(NULL, init2);
		run_or_die(NULL, f1);
		run_or_die(NULL, f2);
	}
	shallow_kib = objects_kib(shallow);
	whole_kib = objects_kib(whole);
	printf("  %-12s the key's ref: shallow fetch of the window %ld KiB "
	    "(%.1f %%); the whole ref, what a new jankgate cache fetches, "
	    "%ld KiB (%.1f %%)\n", "", shallow_kib,
	    100.0 * shallow_kib / store_kib, whole_kib,
	    100.0 * whole_kib / store_kib);
}

/*
 * What a fresh runner fetches for the window of `key` with the git
 * tool, which fetches shallow where libgit2 1.5 cannot: the depth is the
 * commits from the tip back to the window's oldest run (one branch, the
 * keys interleaved); then a partial clone of that depth without blobs,
 * and one fetch of the window's files.  Printed against the store's
 * packed size.
 */
static void
fetch_window(const char *package, const char *key)
{
	/* git 2.39 takes a filter over file:// when the server allows it. */
	const char *allow = "git -c uploadpack.allowFilter=true upload-pack";
	char path[512], depth[32], url[4200], full[4200], part[4200];
	char cfg[160], window[16], total[32];
	struct strbuf out = STRBUF_INIT;
	const char *ids[WINDOW];
	char hex[WINDOW][41], oldest[41] = "";
	int w = 0, nid = 0;
	long store_kib, full_kib, part_kib, skel_kib;
	const char *log[] = { "git", "-C", repo, "log", "-n", window,
	    "--format=%H", "main", "--", path, NULL };
	const char *all[] = { "git", "-C", repo, "rev-list", "--count",
	    "main", NULL };

	snprintf(window, sizeof(window), "%d", WINDOW);
	snprintf(path, sizeof(path), "%s/%s/results.json", package, key);
	run_or_die(&out, all);
	snprintf(total, sizeof(total), "%ld", atol(out.buf));
	run_or_die(&out, log);
	for (char *l = out.buf; *l; ) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		if (strlen(l) == 40) {
			snprintf(oldest, sizeof(oldest), "%s", l);
			w++;
		}
		if (!nl)
			break;
		l = nl + 1;
	}
	{
		char range[100];
		const char *count[] = { "git", "-C", repo, "rev-list",
		    "--count", range, NULL };

		snprintf(range, sizeof(range), "%s..main", oldest);
		run_or_die(&out, count);
		snprintf(depth, sizeof(depth), "%ld", atol(out.buf) + 1);
	}
	snprintf(url, sizeof(url), "file://%s", repo);
	snprintf(full, sizeof(full), "%s/shallow.git", dir);
	snprintf(part, sizeof(part), "%s/partial.git", dir);
	{
		const char *clone[] = { "git", "clone", "-q", "--bare",
		    "--no-local", "--depth", depth, "--single-branch",
		    "--branch", "main", url, full, NULL };
		const char *pclone[] = { "git", "clone", "-q", "--bare",
		    "--no-local", "--depth", depth, "--filter=blob:none",
		    "--single-branch", "--branch", "main", "-u", allow, url,
		    part, NULL };

		run_or_die(NULL, clone);
		run_or_die(NULL, pclone);
	}
	skel_kib = objects_kib(part);
	{
		const char *raw[] = { "git", "-C", part, "log", "-n", window,
		    "--format=", "--raw", "--no-abbrev", "main", "--", path,
		    NULL };

		run_or_die(&out, raw);
		for (char *l = out.buf; *l && nid < WINDOW; ) {
			char *nl = strchr(l, '\n');

			if (nl)
				*nl = '\0';
			if (sscanf(l, ":%*s %*s %*s %40s", hex[nid]) == 1 &&
			    strlen(hex[nid]) == 40) {
				ids[nid] = hex[nid];
				nid++;
			}
			if (!nl)
				break;
			l = nl + 1;
		}
	}
	{
		const char *fetch[16 + WINDOW] = { "git", "-C", part, "-c",
		    NULL, "-c", "fetch.negotiationAlgorithm=noop", "fetch",
		    "-q", "--no-tags", "--no-write-fetch-head",
		    "--filter=blob:limit=1g", "origin" };
		int n = 13;

		snprintf(cfg, sizeof(cfg), "remote.origin.uploadpack=%s",
		    allow);
		fetch[4] = cfg;
		for (int i = 0; i < nid; i++)
			fetch[n++] = ids[i];
		fetch[n] = NULL;
		run_or_die(NULL, fetch);
	}
	store_kib = objects_kib(repo);
	full_kib = objects_kib(full);
	part_kib = objects_kib(part);
	printf("  fetch of one key's window (%d runs of %s, %s commits deep "
	    "of %s), git command line:\n"
	    "  %-12s store %ld KiB; the branch: shallow clone %ld KiB "
	    "(%.1f %%); without blobs, then the window's %d files, %ld KiB "
	    "(%.1f %%: %ld KiB of commits and trees, %ld of files)\n",
	    w, key, depth, total, "", store_kib, full_kib,
	    100.0 * full_kib / store_kib, nid, part_kib,
	    100.0 * part_kib / store_kib, skel_kib, part_kib - skel_kib);
	fetch_key_ref(url, package, key, store_kib);
	strbuf_release(&out);
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
	double user_window[RECORD_WINDOW] = { 0 };
	/* What each record of the window did to the packs, and the slowest
	 * record of all. */
	static char what[RECORD_WINDOW][160];
	char slowest_what[160] = "", package[256], key0[64];
	double slowest_ms = 0, slowest_cpu_ms = 0;
	long slowest_run = 0;
	struct pack_list was = { 0 }, now = { 0 }, tmp;
	char oid[BASELINE_OID_HEXSZ + 1];
	long runs = 0;
	cJSON *app;

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
	app = cJSON_GetObjectItem(base, "app");
	if (!cJSON_IsString(cJSON_GetObjectItem(app, "package"))) {
		fprintf(stderr, "bench-store: template has no app.package\n");
		return 1;
	}
	snprintf(package, sizeof(package), "%s",
	    cJSON_GetObjectItem(app, "package")->valuestring);
	nights_key(key0, sizeof(key0), 0);
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
			double t1, c1, u1;

			nights_make_run(&data, work, base, night, k);
			raw += data.len;
			t1 = now_ms();
			c1 = self_cpu_ms();
			u1 = user_ms(NULL);
			if (results_parse_strict(&r, data.buf, data.len, "run") ||
			    baseline_record_run(oid, bs, "main", r, data.buf,
			    data.len, "pass", NULL))
				die("record");
			window[runs % RECORD_WINDOW] = now_ms() - t1;
			cpu_window[runs % RECORD_WINDOW] = self_cpu_ms() - c1;
			user_window[runs % RECORD_WINDOW] = user_ms(NULL) - u1;
			packs_list(&now, &was);
			packs_change(what[runs % RECORD_WINDOW],
			    sizeof(what[0]), &was, &now);
			tmp = was;
			was = now;
			now = tmp;
			if (window[runs % RECORD_WINDOW] > slowest_ms) {
				slowest_ms = window[runs % RECORD_WINDOW];
				slowest_cpu_ms = cpu_window[runs %
				    RECORD_WINDOW];
				slowest_run = runs + 1;
				snprintf(slowest_what, sizeof(slowest_what),
				    "%s", what[runs % RECORD_WINDOW]);
			}
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
				double sum = 0, cpu = 0, user = 0;
				double sorted[RECORD_WINDOW];
				long max = 0;

				for (long i = 0; i < n; i++) {
					sum += window[i];
					cpu += cpu_window[i];
					user += user_window[i];
					sorted[i] = window[i];
					if (window[i] > window[max])
						max = i;
				}
				qsort(sorted, (size_t)n, sizeof(sorted[0]),
				    cmp_double);
				/* Tonight's run of key 0, not yet recorded. */
				nights_make_run(&data, work, base, night + 1, 0);
				if (file_write_atomic(cur, data.buf, data.len, 0644))
					die("current");
				snprintf(label, sizeof(label), "%ld runs", runs);
				checkpoint(label, sum / n, cpu / n, user / n,
				    sorted[n / 2], sorted[n - 1],
				    cpu_window[max], what[max], &data, work,
				    base, night + 1);
			}
		}
	}
	build_ms = now_ms() - t0;
	baseline_store_free(bs);
	printf("  %ld runs recorded in %.0f s; %.1f MB of results files\n"
	    "  the slowest record, run %ld: %.1f s (%.1f CPU), %s\n",
	    runs, build_ms / 1e3, raw / 1e6, slowest_run, slowest_ms / 1e3,
	    slowest_cpu_ms / 1e3, slowest_what);
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
	fetch_window(package, key0);
	printf("  targets: <= 1,000 files after gc; record, compare and log at "
	    "the end <= 1.2 x at 1,000 runs; the window's fetch <= 5 %% of "
	    "the store\n");
	free(was.p);
	free(now.p);
	cJSON_Delete(base);
	cJSON_Delete(work);
	strbuf_release(&tmpl);
	strbuf_release(&data);
	return 0;
}
