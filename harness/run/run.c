/*
 * run.c: run_execute(), from options to one worker thread per device.
 *
 * Everything that must be decided once, before a device is touched, is
 * decided here, in the calling thread: the scenarios are parsed (a bad one
 * stops the run with status 2 before any device is touched), network
 * devices are `adb connect`ed, the device list is read and narrowed to the
 * requested serials, sorted, and split into shards (run.h has the rule);
 * each selected device is asked what it is (devprops) so that two devices
 * of one key get distinct result directories in a deterministic order.
 * Then the workers (run_device.c) run in parallel and this thread waits
 * for them and merges their statuses.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adb.h"
#include "config.h"
#include "devprops.h"
#include "error.h"
#include "exitstatus.h"
#include "fileio.h"
#include "results.h"
#include "run_int.h"
#include "scenario.h"
#include "strbuf.h"
#include "strlist.h"
#include "uidump.h"
#include "xalloc.h"
#include "banned.h"

#define MAX_SHARDS 1000

void
run_results_path(struct strbuf *out, const char *out_dir, const char *key,
    const char *serial, bool key_taken)
{
	strbuf_addf(out, "%s/%s", out_dir, key);
	if (key_taken) {
		strbuf_addch(out, '@');
		for (const char *p = serial; *p; p++) {
			char c = *p;

			strbuf_addch(out, (c >= 'a' && c <= 'z') ||
			    (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			    c == '.' || c == '-' || c == '_' ? c : '_');
		}
	}
	strbuf_addstr(out, "/results.json");
}

int
run_parse_shard(const char *s, int *index, int *count)
{
	const char *p = s;
	char *end;
	long i, n = 0;

	errno = 0;
	i = strtol(p, &end, 10);
	if (end != p && *end == '/' && !errno) {
		p = end + 1;
		n = strtol(p, &end, 10);
	}
	if (end == p || *end || errno || p == s)
		return jg_error_set(JG_EINVAL, "bad shard '%s': expected I/N, "
		    "e.g. 2/4", s);
	if (n < 1 || n > MAX_SHARDS || i < 1 || i > n)
		return jg_error_set(JG_EINVAL, "bad shard %ld/%ld: need 1 <= I "
		    "<= N <= %d", i, n, MAX_SHARDS);
	*index = (int)i;
	*count = (int)n;
	return 0;
}

int
run_shard_selects(int index, int count, size_t d, size_t s, size_t nr_scn)
{
	if (count <= 0)
		return 1;
	return (d * nr_scn + s) % (size_t)count == (size_t)(index - 1);
}

void
run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	strlist_init(&o->serials);
	strlist_init(&o->connect);
	strlist_init(&o->scenarios);
	o->warmups = -1;
	o->install = -1;
	o->progress = RUN_PROGRESS_AUTO;
}

void
run_opts_release(struct run_opts *o)
{
	strlist_release(&o->serials);
	strlist_release(&o->connect);
	strlist_release(&o->scenarios);
}

void
run_report_init(struct run_report *r)
{
	memset(r, 0, sizeof(*r));
	strlist_init(&r->errors);
}

void
run_report_release(struct run_report *r)
{
	for (size_t i = 0; i < r->nr_devices; i++) {
		struct run_device_report *d = &r->devices[i];

		free(d->serial);
		free(d->key);
		free(d->results_path);
		strlist_release(&d->errors);
		strlist_release(&d->warnings);
	}
	free(r->devices);
	strlist_release(&r->errors);
	run_report_init(r);
}

/* A run-level problem: recorded, status merged (2 wins over 3). */
static void
run_error(struct run_report *out, int status, const char *msg)
{
	strlist_add(&out->errors, msg);
	out->status = exit_status_merge(out->status, status);
}

/* --test-command: the one-step scenario "exec WORDS". */
static int
load_test_command(struct run_ctx *c, struct run_report *out)
{
	struct strlist problems = STRLIST_INIT;
	struct scenario *scn;
	char *text = xasprintf("exec %s\n", c->opts->test_command);
	int rc = scenario_parse(&scn, text, strlen(text), "test-command",
	    NULL, &problems);

	for (size_t j = 0; rc && j < problems.nr; j++) {
		/* "test-command:1:COL: ..." names a column of "exec ..." */
		const char *msg = strstr(problems.items[j], ": ");
		char *line = xasprintf("--test-command: %s",
		    msg ? msg + 2 : problems.items[j]);

		run_error(out, EXIT_BAD_INPUT, line);
		free(line);
	}
	if (rc && !problems.nr) {
		char *line = xasprintf("--test-command: %s", jg_error_msg());

		run_error(out, EXIT_BAD_INPUT, line);
		free(line);
	}
	strlist_release(&problems);
	free(text);
	if (rc)
		return -1;
	if (run_exec_check(scn, &problems)) {
		/* "test-command:1:1: exec: no command ..." */
		char *line = xasprintf("--test-command: %s",
		    strstr(problems.items[0], "exec: ") + 6);

		run_error(out, EXIT_BAD_INPUT, line);
		free(line);
		strlist_release(&problems);
		scenario_free(scn);
		return -1;
	}
	c->scns[c->nr_scns++] = scn;
	return 0;
}

/* Parse the configured scenarios and keep those the filter names. */
static int
load_scenarios(struct run_ctx *c, struct run_report *out)
{
	const struct config *cfg = c->cfg;
	const struct strlist *want = &c->opts->scenarios;
	bool *used = xcalloc(want->nr + 1, sizeof(*used));
	int bad = 0;

	c->scns = xcalloc(cfg->scenarios.nr + 1, sizeof(*c->scns));
	if (c->opts->test_command) {
		free(used);
		return load_test_command(c, out);
	}
	for (size_t i = 0; i < cfg->scenarios.nr; i++) {
		struct strlist problems = STRLIST_INIT;
		struct scenario *scn;
		long k;

		if (scenario_load(&scn, cfg->scenarios.items[i], &problems)) {
			for (size_t j = 0; j < problems.nr; j++)
				run_error(out, EXIT_BAD_INPUT,
				    problems.items[j]);
			/* The file itself: named by the key that names it. */
			if (!problems.nr) {
				char *msg = xasprintf("%s: scenarios[%zu]: %s",
				    cfg->path, i, jg_error_msg());

				run_error(out, EXIT_BAD_INPUT, msg);
				free(msg);
			}
			strlist_release(&problems);
			bad = 1;
			continue;
		}
		strlist_release(&problems);
		k = strlist_find(want, scenario_name(scn));
		if (want->nr && k < 0) {
			scenario_free(scn);
			continue;
		}
		if (k >= 0)
			used[k] = true;
		/* A command that is not there fails each iteration: say so. */
		if (run_exec_check(scn, &problems)) {
			for (size_t j = 0; j < problems.nr; j++)
				run_error(out, EXIT_BAD_INPUT,
				    problems.items[j]);
			strlist_release(&problems);
			scenario_free(scn);
			bad = 1;
			continue;
		}
		c->scns[c->nr_scns++] = scn;
	}
	for (size_t i = 0; i < want->nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (used[i])
			continue;
		strbuf_addf(&sb, "no scenario named '%s' in the configuration",
		    want->items[i]);
		run_error(out, EXIT_BAD_INPUT, sb.buf);
		strbuf_release(&sb);
		bad = 1;
	}
	free(used);
	if (!bad && !c->nr_scns) {
		run_error(out, EXIT_BAD_INPUT, "no scenarios to run");
		bad = 1;
	}
	return bad ? -1 : 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The serials to use, sorted: those asked for (options, else config), each
 * attached and ready, or every device in state "device".
 */
static int
select_devices(struct run_ctx *c, struct strlist *serials,
    struct run_report *out)
{
	const struct strlist *want = c->opts->serials.nr ? &c->opts->serials :
	    &c->cfg->devices.serials;
	struct adb_device_list list = ADB_DEVICE_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if ((rc = adb_server_devices(c->srv, &list, 0))) {
		run_error(out, EXIT_INFRA, jg_error_msg());
		return rc;
	}
	for (size_t i = 0; i < list.nr; i++)
		if (!want->nr && !strcmp(list.items[i].state, "device"))
			strlist_add(serials, list.items[i].serial);
	for (size_t i = 0; i < want->nr; i++) {
		const struct adb_device_info *info = NULL;

		for (size_t j = 0; j < list.nr; j++)
			if (!strcmp(list.items[j].serial, want->items[i]))
				info = &list.items[j];
		strbuf_setlen(&sb, 0);
		if (!info)
			strbuf_addf(&sb, "device '%s' is not attached to the "
			    "adb server at %s", want->items[i],
			    adb_server_address(c->srv));
		else if (strcmp(info->state, "device"))
			strbuf_addf(&sb, "device '%s' is %s and cannot be used",
			    info->serial, info->state);
		else if (strlist_find(serials, info->serial) < 0)
			strlist_add(serials, info->serial);
		if (sb.len)
			run_error(out, EXIT_INFRA, sb.buf);
	}
	if (!serials->nr && !out->errors.nr) {
		strbuf_setlen(&sb, 0);
		strbuf_addf(&sb, "no devices attached to the adb server at %s",
		    adb_server_address(c->srv));
		run_error(out, EXIT_INFRA, sb.buf);
	}
	if (serials->nr)
		qsort(serials->items, serials->nr, sizeof(*serials->items),
		    cmp_str);
	adb_device_list_release(&list);
	strbuf_release(&sb);
	return 0;
}

/*
 * Lock the phones this run (this shard of it) will touch, or stop it:
 * measuring beside another command is worse than not measuring.
 */
static int
lock_devices(struct run_ctx *c, const struct strlist *serials,
    struct run_report *out)
{
	bool *selected = xcalloc(serials->nr + 1, sizeof(*selected));
	int rc;

	for (size_t i = 0; i < serials->nr; i++)
		for (size_t s = 0; s < c->nr_scns; s++)
			selected[i] |= run_shard_selects(c->opts->shard_index,
			    c->opts->shard_count, i, s, c->nr_scns);
	rc = run_lock_devices(c, serials, selected);
	if (rc)
		run_error(out, EXIT_INFRA, jg_error_msg());
	free(selected);
	return rc;
}

/* A run id: the start time and a little entropy, "20240501T020000Z-3f2a". */
static char *
make_run_id(void)
{
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	struct timespec ts;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	clock_gettime(CLOCK_REALTIME, &ts);
	return xasprintf("%s-%04lx", stamp, ((unsigned long)ts.tv_nsec ^
	    (unsigned long)getpid() * 2654435761UL) & 0xffff);
}

static char *
host_name(void)
{
	char buf[256];

	if (gethostname(buf, sizeof(buf)))
		return xstrdup("unknown");
	buf[sizeof(buf) - 1] = '\0';
	return xstrdup(buf);
}

/* The serial recorded in the results file at `path`, or NULL (caller frees). */
static char *
serial_in(const char *path)
{
	struct results *r;
	char *serial = NULL;

	if (!file_exists(path) || results_read(&r, path)) {
		jg_error_clear();
		return NULL;
	}
	if (r->device.serial)
		serial = xstrdup(r->device.serial);
	results_free(r);
	return serial;
}

/*
 * Where a device's results go.  Appending, the file this serial wrote
 * before wins, since an earlier run may have had more devices of the key
 * (and given this one KEY@SERIAL): a batch of extra iterations for one
 * device must land in that device's file.
 */
static char *
results_path_for(const struct run_ctx *c, const char *key,
    const char *serial, bool key_taken)
{
	struct strbuf plain = STRBUF_INIT, at = STRBUF_INIT;
	char *mine;

	run_results_path(&plain, c->out_dir, key, serial, false);
	run_results_path(&at, c->out_dir, key, serial, true);
	if (c->opts->results_sub) {
		/* OUT/KEY/results.json becomes OUT/KEY/SUB/results.json */
		strbuf_setlen(&plain, plain.len - strlen("/results.json"));
		strbuf_addf(&plain, "/%s/results.json", c->opts->results_sub);
		strbuf_setlen(&at, at.len - strlen("/results.json"));
		strbuf_addf(&at, "/%s/results.json", c->opts->results_sub);
	}
	if (c->opts->append) {
		mine = serial_in(at.buf);
		if (mine && !strcmp(mine, serial))
			key_taken = true;
		free(mine);
		mine = serial_in(plain.buf);
		if (mine && !strcmp(mine, serial))
			key_taken = false;
		free(mine);
	}
	strbuf_release(key_taken ? &plain : &at);
	return strbuf_detach(key_taken ? &at : &plain, NULL);
}

/*
 * Ask each device what it is, in serial order, and prepare its worker.
 * Returns the number of workers to start.
 */
static size_t
prepare_devices(struct run_ctx *c, const struct strlist *serials,
    struct run_dev *devs, struct run_report *out)
{
	size_t n = 0;

	for (size_t i = 0; i < serials->nr; i++) {
		struct run_device_report *rep;
		struct run_dev *d;
		struct strbuf key = STRBUF_INIT;
		bool any = false;

		for (size_t s = 0; s < c->nr_scns; s++)
			any |= run_shard_selects(c->opts->shard_index,
			    c->opts->shard_count, i, s, c->nr_scns);
		if (!any)
			continue;
		XALLOC_GROW(out->devices, out->nr_devices + 1,
		    out->alloc_devices);
		rep = &out->devices[out->nr_devices++];
		memset(rep, 0, sizeof(*rep));
		rep->serial = xstrdup(serials->items[i]);
		strlist_init(&rep->errors);
		strlist_init(&rep->warnings);

		d = &devs[n];
		memset(d, 0, sizeof(*d));
		d->ctx = c;
		d->index = out->nr_devices - 1;
		d->serial = rep->serial;
		d->report = rep;	/* re-pointed after the last grow */
		d->dev = adb_device_new(c->srv, rep->serial);
		adb_device_set_timeout(d->dev,
		    c->cfg->devices.command_timeout_ms);
		device_props_init(&d->props);
		if (device_props_query(&d->props, d->dev)) {
			if (jg_error_code() == JG_EINTR)
				strlist_addf(&rep->errors, "device '%s': "
				    "interrupted before it was measured",
				    rep->serial);
			else
				strlist_addf(&rep->errors, "device '%s': "
				    "cannot read its properties: %s",
				    rep->serial, jg_error_msg());
			rep->status = EXIT_INFRA;
			adb_device_free(d->dev);
			device_props_release(&d->props);
			continue;
		}
		device_props_key(&key, &d->props);
		rep->key = strbuf_detach(&key, NULL);
		for (size_t j = 0; j + 1 < out->nr_devices; j++)
			if (out->devices[j].key &&
			    !strcmp(out->devices[j].key, rep->key))
				d->key_taken = true;
		d->results_path = results_path_for(c, rep->key, rep->serial,
		    d->key_taken);
		d->selected = xcalloc(c->nr_scns + 1, sizeof(*d->selected));
		for (size_t s = 0; s < c->nr_scns; s++)
			d->selected[s] = run_shard_selects(c->opts->shard_index,
			    c->opts->shard_count, i, s, c->nr_scns);
		n++;
	}
	for (size_t i = 0; i < n; i++)
		devs[i].report = &out->devices[devs[i].index];
	return n;
}

static void
dev_release(struct run_dev *d)
{
	results_free(d->res);
	free(d->results_path);
	free(d->launcher);
	free(d->srcs);
	free(d->sctx);
	free(d->buffers);
	free(d->selected);
	device_props_release(&d->props);
	adb_device_free(d->dev);
}

/* Make each results directory; a failure stops that device up front. */
static int
make_dirs(struct run_dev *d)
{
	char *dir = xstrdup(d->results_path);
	char *slash = strrchr(dir, '/');
	int rc;

	if (slash)
		*slash = '\0';
	rc = file_mkdirs(dir, 0777);
	free(dir);
	return rc;
}

static void
start_progress(struct run_ctx *c, size_t nr)
{
	enum run_progress_mode mode = c->opts->progress;
	FILE *fp = c->opts->progress_fp;

	if (mode == RUN_PROGRESS_AUTO) {
		const char *term = getenv("TERM");

		mode = fp && isatty(fileno(fp)) && !(term && !strcmp(term,
		    "dumb")) ? RUN_PROGRESS_LIVE : RUN_PROGRESS_PLAIN;
	}
	c->progress = run_progress_new(mode, fp, nr);
}

static void
run_workers(struct run_ctx *c, struct run_dev *devs, size_t n,
    struct run_report *out)
{
	pthread_t *th = xcalloc(n + 1, sizeof(*th));
	bool *started = xcalloc(n + 1, sizeof(*started));

	uidump_global_init();
	for (size_t i = 0; i < n; i++) {
		if (make_dirs(&devs[i])) {
			strlist_add(&devs[i].report->errors, jg_error_msg());
			devs[i].report->status = EXIT_INFRA;
			continue;
		}
		if (pthread_create(&th[i], NULL, run_device_main, &devs[i])) {
			strlist_add(&devs[i].report->errors, "cannot start a "
			    "worker thread");
			devs[i].report->status = EXIT_INFRA;
			continue;
		}
		started[i] = true;
	}
	for (size_t i = 0; i < n; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	free(th);
	free(started);
	(void)c;
	(void)out;
}

int
run_execute(const struct run_opts *o, struct run_report *out)
{
	struct run_ctx c;
	struct strlist serials = STRLIST_INIT;
	struct run_dev *devs = NULL;
	size_t n = 0;
	char stamp[32];

	memset(&c, 0, sizeof(c));
	c.opts = o;
	c.cfg = o->cfg;
	c.iterations = o->iterations > 0 ? o->iterations : o->cfg->iterations;
	c.warmups = o->warmups >= 0 ? o->warmups : o->cfg->warmups;
	c.out_dir = o->out_dir ? o->out_dir : o->cfg->out_dir;
	out->status = EXIT_PASS;
	if (load_scenarios(&c, out))
		goto out;
	if ((o->apk ? o->apk : &c.cfg->apk)->nr) {
		/* A bundle's APK is built once, kept beside the results. */
		char *bundles = xasprintf("%s/.bundletool", c.out_dir);
		int rc = run_apk_probe(&c.apk, o->apk ? o->apk : &c.cfg->apk,
		    c.cfg->app, bundles);

		free(bundles);
		if (rc) {
			run_error(out, EXIT_BAD_INPUT, jg_error_msg());
			goto out;
		}
	}
	/* The instrument steps' test APK: refused before any device too. */
	if (run_tapk_probe(&c.tapk, c.cfg, c.scns, c.nr_scns)) {
		run_error(out, EXIT_BAD_INPUT, jg_error_msg());
		goto out;
	}
	if (adb_server_new(&c.srv, o->cfg->devices.command_timeout_ms)) {
		run_error(out, EXIT_BAD_INPUT, jg_error_msg());
		goto out;
	}
	for (int pass = 0; pass < 2; pass++) {
		const struct strlist *l = pass ? &o->connect :
		    &o->cfg->devices.connect;

		for (size_t i = 0; i < l->nr; i++)
			if (adb_server_connect(c.srv, l->items[i]))
				run_error(out, EXIT_INFRA, jg_error_msg());
	}
	if (select_devices(&c, &serials, out) || !serials.nr)
		goto out;
	/* Before the first device command: never two commands on a phone. */
	if (lock_devices(&c, &serials, out))
		goto out;
	c.run_id = make_run_id();
	run_format_now(stamp, sizeof(stamp));
	c.started = xstrdup(stamp);
	c.host = host_name();
	devs = xcalloc(serials.nr, sizeof(*devs));
	n = prepare_devices(&c, &serials, devs, out);
	/* Before the first measuring command: room for what it yields. */
	if (run_space_check(&c, devs, n)) {
		run_error(out, EXIT_INFRA, jg_error_msg());
		goto out;
	}
	start_progress(&c, out->nr_devices);
	run_workers(&c, devs, n, out);
	run_progress_free(c.progress);
	for (size_t i = 0; i < out->nr_devices; i++) {
		int s = out->devices[i].status;

		out->status = exit_status_merge(out->status, s);
	}
out:
	for (size_t i = 0; i < n; i++)
		dev_release(&devs[i]);
	free(devs);
	for (size_t i = 0; i < c.nr_scns; i++)
		scenario_free(c.scns[i]);
	free(c.scns);
	run_apk_free(c.apk);
	run_tapk_free(c.tapk);
	free(c.run_id);
	free(c.started);
	free(c.host);
	strlist_release(&serials);
	adb_server_free(c.srv);
	if (run_interrupted())
		out->status = exit_status_merge(out->status, EXIT_INFRA);
	return out->status;
}
