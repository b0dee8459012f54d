/*
 * run_device.c: one device's worker thread.
 *
 *	results: new, or (append) the device's existing results.json
 *	preflight: hygiene read, recorded and checked (run_hygiene.c)
 *	install and versionCode check (run_install.c)
 *	with a cool-down (gate's extra batches): the app force-stopped
 *	and the phone left idle, so the batch is a new session
 *	sources: prepare hooks; the logcat buffers they need
 *	for each scenario of the device's shard:
 *	    pixel coordinates checked against the screen
 *	    warm-ups, then iterations (run_iter.c); results.json rewritten
 *	    atomically after each one, so a kill loses nothing measured;
 *	    a rewrite that fails (a full disk) stops the device, the last
 *	    good file kept
 *	finish hooks; after an interrupt the app is force-stopped
 *	results.json with run.complete and run.errors
 *
 * Every problem that stops or spoils the device is one line in
 * run.errors (and in the device's report), and its exit status is merged
 * into the device's: 2 for a scenario that does not fit the screen, 3 for
 * the rest.  A device that goes away stops its worker only; the others
 * go on.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "cancel.h"
#include "config.h"
#include "error.h"
#include "exitstatus.h"
#include "fileio.h"
#include "results.h"
#include "run_int.h"
#include "hash.h"
#include "scenario.h"
#include "shquote.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Buffers every iteration reads: the app's log, ActivityManager, crashes. */
#define BASE_BUFFERS "main,system,crash"
/* How long the force-stop after an interrupt may take (real ms). */
#define STOP_GRACE_MS 1500

/* One line in run.errors and the report, and the device's status. */
static void
device_error(struct run_dev *d, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
device_error(struct run_dev *d, int status, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (d->res)
		strlist_add(&d->res->run.errors, sb.buf);
	strlist_add(&d->report->errors, sb.buf);
	run_progress_note(d->ctx->progress, d->index, "%s", sb.buf);
	d->status = exit_status_merge(d->status, status);
	strbuf_release(&sb);
}

static void
progress(struct run_dev *d, const char *phase, const char *scn,
    int i, int of, bool warmup, size_t done, size_t total, double t0)
{
	struct run_progress_state st = { d->serial, phase, scn, i, of, warmup,
		done, total, t0 };

	run_progress_update(d->ctx->progress, d->index, &st);
}

static size_t
iterations_in(const struct results *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_scenarios; i++)
		n += r->scenarios[i].nr_iterations;
	return n;
}

/*
 * Rewrite the results file (atomically: a failure leaves the last good
 * one).  The first failure is one error naming the file, the errno text
 * and what the file still holds; `stop` says the worker stops measuring
 * for it, since what it measured next could not be kept.  Returns 0 or
 * JG_EIO.
 */
static int
write_results(struct run_dev *d, bool stop)
{
	size_t kept = d->saved_iterations;

	if (!results_write(d->res, d->results_path)) {
		d->on_disk = true;
		d->saved_iterations = iterations_in(d->res);
		return 0;
	}
	if (!d->unwritable && d->on_disk)
		device_error(d, 3, "%s; %sthe file keeps the %zu iteration%s "
		    "written before", jg_error_msg(), stop ? "measuring "
		    "stopped, " : "", kept, kept == 1 ? "" : "s");
	else if (!d->unwritable)
		device_error(d, 3, "%s; %snothing of this run is on disk",
		    jg_error_msg(), stop ? "measuring stopped, " : "");
	d->unwritable = true;
	return JG_EIO;
}

/* The run, app and device parts of a new results model. */
static void
results_fill(struct run_dev *d)
{
	struct results *r = d->res;
	const struct run_ctx *c = d->ctx;
	const struct device_props *p = &d->props;

	rs_str_set(&r->run.id, c->run_id);
	rs_str_set(&r->run.started, c->started);
	rs_str_set(&r->run.jankgate_version, JG_VERSION);
	rs_str_set(&r->run.host, c->host);
	rs_str_set(&r->app.package, c->cfg->app);
	rs_str_set(&r->app.build_id, c->opts->build_id);
	strlist_copy(&r->app.sources, &c->cfg->sources);
	rs_str_set(&r->device.serial, d->serial);
	rs_str_set(&r->device.manufacturer, p->manufacturer);
	rs_str_set(&r->device.model, p->model);
	rs_str_set(&r->device.release, p->release);
	rs_str_set(&r->device.fingerprint, p->fingerprint);
	rs_str_set(&r->device.abi, p->abi);
	rs_str_set(&r->device.key, d->report->key);
	r->device.sdk = p->sdk > 0 ? p->sdk : NAN;
	r->device.refresh_hz = p->refresh_hz > 0 ? p->refresh_hz : NAN;
	r->device.width = p->width > 0 ? p->width : NAN;
	r->device.height = p->height > 0 ? p->height : NAN;
}

/*
 * Record the scenarios this device is to measure in run.planned, config
 * order, each once: a fresh file's plan, or what an appended batch adds
 * to the plan of a file that has one (an older file's unrecorded plan
 * stays unrecorded: nothing says what it set out to do).
 */
static void
plan(struct run_dev *d, bool fresh)
{
	const struct run_ctx *c = d->ctx;
	struct strlist *p = &d->res->run.planned;

	if (!fresh && !p->nr)
		return;
	for (size_t i = 0; i < c->nr_scns; i++)
		if (d->selected[i] &&
		    strlist_find(p, scenario_name(c->scns[i])) < 0)
			strlist_add(p, scenario_name(c->scns[i]));
}

/* A fresh model, or with `append` the existing file's (same device key). */
static int
results_open(struct run_dev *d, bool *was_complete)
{
	int rc;

	*was_complete = true;
	if (d->ctx->opts->append && file_exists(d->results_path)) {
		rc = results_read(&d->res, d->results_path);
		if (rc)
			return rc;
		if (!d->res->device.key || strcmp(d->res->device.key,
		    d->report->key))
			return jg_error_set(JG_EMISMATCH, "'%s' holds results "
			    "of device key '%s', not '%s'", d->results_path,
			    d->res->device.key ? d->res->device.key : "none",
			    d->report->key);
		*was_complete = d->res->run.complete;
		d->res->run.complete = false;
		d->on_disk = true;
		d->saved_iterations = iterations_in(d->res);
		/* A later batch is a session of its own (results.h). */
		d->session = results_next_session(d->res);
		rs_str_set(&d->res->run.finished, NULL);
		plan(d, false);
		return 0;
	}
	d->res = results_new();
	results_fill(d);
	plan(d, true);
	return 0;
}

/* "main,system,crash" plus what the sources ask for, each once. */
static void
collect_buffers(struct run_dev *d)
{
	struct strlist names = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, BASE_BUFFERS);
	strlist_add(&names, "main");
	strlist_add(&names, "system");
	strlist_add(&names, "crash");
	for (size_t i = 0; i < d->nr_srcs; i++) {
		const char *b = d->srcs[i]->logcat_buffers;

		while (b && *b) {
			size_t n = strcspn(b, ",");
			char *one = xstrndup(b, n);

			if (*one && strlist_find(&names, one) < 0) {
				strlist_add(&names, one);
				strbuf_addf(&sb, ",%s", one);
			}
			free(one);
			b += n + (b[n] == ',');
		}
	}
	d->buffers = strbuf_detach(&sb, NULL);
	strlist_release(&names);
}

static int
sources_prepare(struct run_dev *d)
{
	const struct config *cfg = d->ctx->cfg;

	d->srcs = xcalloc(cfg->sources.nr + 1, sizeof(*d->srcs));
	d->sctx = xcalloc(cfg->sources.nr + 1, sizeof(*d->sctx));
	for (size_t i = 0; i < cfg->sources.nr; i++) {
		const struct source *s = source_find(cfg->sources.items[i]);
		struct source_ctx *x = &d->sctx[d->nr_srcs];

		if (!s) {
			results_add_warning(d->res, cfg->sources.items[i], NULL,
			    "unknown source, ignored");
			continue;
		}
		x->cfg = cfg;
		x->package = d->package;
		x->dev = d->dev;
		x->results = d->res;
		x->refresh_hz = d->props.refresh_hz > 0 ? d->props.refresh_hz :
		    NAN;
		x->sdk = d->props.sdk;
		d->srcs[d->nr_srcs++] = s;
		if (s->prepare && s->prepare(x))
			return jg_error_prefix("source '%s'", s->name);
	}
	collect_buffers(d);
	return 0;
}

static void
sources_finish(struct run_dev *d)
{
	for (size_t i = 0; i < d->nr_srcs; i++)
		if (d->srcs[i]->finish)
			d->srcs[i]->finish(&d->sctx[i]);
}

/* The scenario's fingerprint: its canonical steps, includes spliced in. */
static void
scenario_sha(const struct scenario *scn, char hex[65])
{
	struct hash_sha256 c;
	struct strbuf sb = STRBUF_INIT;

	hash_sha256_init(&c);
	for (size_t i = 0; i < scenario_step_count(scn); i++) {
		strbuf_setlen(&sb, 0);
		scenario_format_step(scenario_step(scn, i), &sb);
		strbuf_addch(&sb, '\n');
		hash_sha256_add(&c, sb.buf, sb.len);
	}
	hash_sha256_hex(&c, hex);
	strbuf_release(&sb);
}

static struct rs_scenario *
results_scenario(struct run_dev *d, const struct scenario *scn)
{
	struct rs_scenario *s = results_find_scenario(d->res,
	    scenario_name(scn));
	char hex[65];

	scenario_sha(scn, hex);
	if (!s) {
		s = results_add_scenario(d->res, scenario_name(scn));
		rs_str_set(&s->file, scenario_path(scn));
	}
	rs_str_set(&s->sha256, hex);
	return s;
}

/* Warm-ups and iterations of one scenario; a device/interrupt code stops. */
static int
run_scenario(struct run_dev *d, const struct scenario *scn, size_t *done,
    size_t total, double t0)
{
	const struct run_ctx *c = d->ctx;
	int planned = c->warmups + c->iterations, measured = 0, failed = 0;
	int before;
	const char *name = scenario_name(scn);
	struct strlist problems = STRLIST_INIT;
	int rc = 0;

	if (d->props.width > 0 && scenario_check_screen(scn, d->props.width,
	    d->props.height, &problems)) {
		for (size_t i = 0; i < problems.nr; i++)
			device_error(d, 2, "scenario '%s' does not fit the "
			    "screen: %s", name, problems.items[i]);
		strlist_release(&problems);
		jg_error_clear();
		d->skipped = true;
		return 0;
	}
	strlist_release(&problems);
	/* An appended batch counts on from what the results hold. */
	before = (int)results_scenario(d, scn)->nr_iterations;
	for (int i = 0; i < planned; i++) {
		/* Found again each time: a hook may have added scenarios. */
		struct rs_scenario *s = results_find_scenario(d->res, name);
		bool warmup = i < c->warmups;
		struct rs_iteration *it;

		progress(d, "running", name, before + i + 1, before + planned,
		    warmup, *done, total, t0);
		it = rs_scenario_add_iteration(s, warmup);
		it->session = d->session;
		rc = run_iteration(d, scn, it);
		it = &s->iterations[s->nr_iterations - 1];
		(*done)++;
		if (!warmup) {
			measured++;
			failed += !it->ok;
		}
		if (!it->ok && rc != JG_EINTR)
			run_progress_note(c->progress, d->index, "%s: "
			    "iteration %d/%d failed: %s", name, before + i + 1,
			    before + planned, it->error);
		if (write_results(d, !rc) && !rc) {
			d->write_stop = true;
			return JG_EIO;
		}
		if (rc)
			return rc;
	}
	if (measured && failed == measured)
		device_error(d, 3, "scenario '%s': every measured iteration "
		    "failed", name);
	return 0;
}

/* The device after the preflight; returns what stopped it, or 0. */
static int
run_scenarios(struct run_dev *d)
{
	const struct run_ctx *c = d->ctx;
	size_t done = 0, total = 0;
	double t0 = run_now_ms();
	int rc = 0;

	for (size_t i = 0; i < c->nr_scns; i++)
		total += d->selected[i] ? (size_t)(c->warmups + c->iterations) :
		    0;
	for (size_t i = 0; !rc && i < c->nr_scns; i++)
		if (d->selected[i])
			rc = run_scenario(d, c->scns[i], &done, total, t0);
	progress(d, rc ? "stopped" : "done", NULL, 0, 0, false, done, total,
	    t0);
	return rc;
}

/*
 * The app stopped, as every new session starts; after an interrupt, the
 * phone left without it running.
 */
static void
force_stop(struct run_dev *d)
{
	struct adb_shell_result r;
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addstr(&cmd, "am force-stop ");
	sh_quote(&cmd, d->package);
	adb_shell_result_init(&r);
	if (adb_shell(d->dev, cmd.buf, &r))
		jg_error_clear();
	adb_shell_result_release(&r);
	strbuf_release(&cmd);
}

/*
 * Stopped by run_interrupt(): the line in run.errors, and the app stopped
 * on a phone that may have been mid-command (its command was abandoned).
 * The force-stop alone may still use the phone, for STOP_GRACE_MS.
 */
static void
interrupted(struct run_dev *d)
{
	device_error(d, 3, "interrupted: the run was stopped before every "
	    "iteration ran");
	cancel_shield(STOP_GRACE_MS);
	force_stop(d);
	cancel_unshield();
}

/* The results' warnings, for the command to print once at the end. */
static void
report_warnings(struct run_dev *d)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < d->res->nr_warnings; i++) {
		if (d->res->warnings[i].note)
			continue;
		strbuf_setlen(&sb, 0);
		rs_warning_format(&sb, &d->res->warnings[i]);
		if (strlist_find(&d->report->warnings, sb.buf) < 0)
			strlist_add(&d->report->warnings, sb.buf);
	}
	strbuf_release(&sb);
}

static void
device_run(struct run_dev *d)
{
	const struct run_ctx *c = d->ctx;
	struct strlist why = STRLIST_INIT;
	bool was_complete, prepared = false;
	char stamp[32];
	int rc;

	if (results_open(d, &was_complete)) {
		device_error(d, exit_status_for_error(jg_error_code()), "%s",
		    jg_error_msg());
		return;
	}
	if (run_interrupted()) {
		/* Stopped before this phone was touched: nothing to undo. */
		device_error(d, 3, "interrupted: the run was stopped before "
		    "every iteration ran");
		goto out;
	}
	progress(d, "preflight", NULL, 0, 0, false, 0, 0, run_now_ms());
	if ((rc = run_hygiene_read(d)) == JG_EINTR || (!rc &&
	    run_interrupted()))
		goto stopped;
	if (rc)
		goto lost;
	if (run_hygiene_check(c->cfg, &d->res->hygiene, d->props.refresh_hz,
	    &why)) {
		for (size_t i = 0; i < why.nr; i++)
			device_error(d, 3, "device refused: %s",
			    why.items[i]);
		goto out;
	}
	progress(d, c->cfg->apk.nr ? "installing" : "reading the app", NULL, 0,
	    0, false, 0, 0, run_now_ms());
	if ((rc = run_install(d)) == JG_EINTR || (!rc && run_interrupted()))
		goto stopped;
	if (rc) {
		device_error(d, 3, "%s", jg_error_msg());
		goto out;
	}
	prepared = true;
	if (c->opts->cooldown_ms > 0) {
		/* A new session: the app stopped, the phone left to cool. */
		progress(d, "cooling down", NULL, 0, 0, false, 0, 0,
		    run_now_ms());
		force_stop(d);
		if (run_sleep_ms(c->opts->cooldown_ms) == JG_EINTR)
			goto stopped;
	}
	if ((rc = sources_prepare(d)) == JG_EINTR)
		goto stopped;
	if (rc) {
		device_error(d, 3, "%s", jg_error_msg());
		goto out;
	}
	rc = run_scenarios(d);
	if (rc == JG_EINTR)
		goto stopped;
	if (d->write_stop)
		goto out;
	if (rc)
		goto lost;
	d->res->run.complete = was_complete && !d->skipped;
	goto out;
stopped:
	interrupted(d);
	goto out;
lost:
	d->lost = true;
	device_error(d, 3, "device '%s' lost: %s", d->serial, jg_error_msg());
out:
	/* After an interrupt its device commands give up at once. */
	if (prepared)
		sources_finish(d);
	strlist_release(&why);
	d->report->complete = d->res->run.complete;
	report_warnings(d);
	run_format_now(stamp, sizeof(stamp));
	rs_str_set(&d->res->run.finished, stamp);
	/* The last good file stands for the run, with complete: false. */
	if (write_results(d, false))
		d->report->complete = false;
	if (d->on_disk)
		d->report->results_path = xstrdup(d->results_path);
}

void *
run_device_main(void *arg)
{
	struct run_dev *d = arg;

	d->package = d->ctx->cfg->app;
	d->status = 0;
	device_run(d);
	d->report->status = d->status;
	return NULL;
}
