/*
 * run_exec.c: the `exec` step, a host command that drives the phone
 * itself (a Maestro flow, an Appium script, a shell script of adb calls;
 * issue 52).
 *
 * The command runs with fork/exec and its argv (proc.c: no shell, its
 * own process group, killed with it on a cancel or when the iteration's
 * time is up), with these in its environment so that `adb` and the tools
 * built on it reach the phone being measured through jankgate's server:
 *
 *	ANDROID_SERIAL=SERIAL
 *	ADB_SERVER_SOCKET=tcp:HOST:PORT
 *	ANDROID_ADB_SERVER_ADDRESS=HOST  ANDROID_ADB_SERVER_PORT=PORT
 *	JANKGATE_PACKAGE=PKG
 *
 * Its exit status decides the iteration: anything but 0 fails it, with
 * the last line it printed.  What it printed, stdout then stderr, is
 * appended to SCENARIO.exec.log beside the results file, one section an
 * iteration, so a failure can be read in full.
 *
 * Outside a scenario scene the step also reads the app's frames for the
 * scenes the command marks (run_markers.c): `dumpsys gfxinfo PKG
 * framestats reset` before the command starts, after every marked end
 * the log stream shows while no marked scene is open, and after the
 * command ends.  Inside a scenario scene it reads nothing: the scene's
 * own reset and dump measure the whole command, and nothing else may
 * reach the phone there.
 *
 * With markers.trace it also captures the app's Trace sections around
 * the command, outside any scene as the reads are:
 *
 *	dumpsys gfxinfo PKG framestats reset
 *	atrace --async_start -b KB -a PKG     (no categories: the app's own
 *	    sections only, which -a turns on in the app's process)
 *	... the command ...
 *	atrace --async_stop                   -> the trace text
 *	dumpsys gfxinfo PKG framestats reset
 *
 * A capture that cannot start (no atrace, an error) is a warning and the
 * step runs without it; one that started is always stopped, even when
 * the command failed, so no capture outlives the step.  In the iteration
 * diagnose.trace records under Perfetto none is started
 * (run_marks_want_trace() says why).  An `instrument` step uses the same
 * start and stop (run_iter.c).
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "gfxinfo_dump.h"
#include "monoclock.h"
#include "proc.h"
#include "results.h"
#include "run_int.h"
#include "run_marks.h"
#include "scenario.h"
#include "shquote.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

#define POLL_MS		20	/* how often the step looks at the stream */
#define MIN_TIMEOUT_MS	1000

struct child {
	const char *const *argv;
	struct proc_opts opts;
	struct proc_result res;
	int rc;
	char *msg;		/* the error message of rc, set in the thread */
	atomic_bool done;
};

static void *
child_main(void *arg)
{
	struct child *c = arg;

	c->rc = proc_run(&c->res, c->argv, &c->opts);
	if (c->rc)
		c->msg = xstrdup(jg_error_msg());
	atomic_store(&c->done, true);
	return NULL;
}

/* The environment entries of the header, into `env` (NULL-terminated). */
static int
make_env(struct run_dev *d, struct strlist *env)
{
	char *host = NULL;
	int port = 0;
	int rc = adb_address_parse(&host, &port,
	    adb_server_address(adb_device_server(d->dev)), NULL);

	if (rc)
		return rc;
	strlist_addf(env, "ANDROID_SERIAL=%s", adb_device_serial(d->dev));
	strlist_addf(env, "ADB_SERVER_SOCKET=tcp:%s:%d", host, port);
	strlist_addf(env, "ANDROID_ADB_SERVER_ADDRESS=%s", host);
	strlist_addf(env, "ANDROID_ADB_SERVER_PORT=%d", port);
	strlist_addf(env, "JANKGATE_PACKAGE=%s", d->package);
	free(host);
	return 0;
}

/*
 * One frame read for the marked scenes.  A dump without an Uptime (no
 * process of the app yet) is noted all the same: it says nothing was
 * rendered before it that a later read could lose.
 */
static int
read_frames(struct run_dev *d, struct run_marks *m, double *uptime)
{
	struct strbuf cmd = STRBUF_INIT;
	struct adb_shell_result r;
	double t0 = run_now_ms();
	double asked = d->have_offset ? t0 + d->clock_offset : NAN;
	double up = NAN;
	int rc;

	strbuf_addstr(&cmd, "dumpsys gfxinfo ");
	sh_quote(&cmd, d->package);
	strbuf_addstr(&cmd, " framestats reset");
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd.buf, &r);
	if (!rc) {
		run_dev_clock(d, r.out.buf, r.out.len, (t0 + run_now_ms()) / 2);
		if (gfxinfo_uptime(r.out.buf, r.out.len, &up))
			up = d->have_offset ? run_now_ms() + d->clock_offset :
			    NAN;
		run_marks_add_read(m, r.out.buf, r.out.len, d->package, asked,
		    up);
	}
	*uptime = up;
	adb_shell_result_release(&r);
	strbuf_release(&cmd);
	return rc;
}

/* A warning of the markers in the results, scoped to the scenario. */
static void
warn_trace(struct run_dev *d, const char *scenario, const char *what,
    const struct adb_shell_result *r)
{
	const struct strbuf *sb = r->err.len ? &r->err : &r->out;
	size_t n = strcspn(sb->buf, "\n");
	struct strbuf msg = STRBUF_INIT;

	strbuf_addf(&msg, "no Trace sections: %s exited with status %d",
	    what, r->exit_code);
	if (n)
		strbuf_addf(&msg, ": %.*s", (int)(n > 160 ? 160 : n), sb->buf);
	results_add_warning(d->res, "markers", scenario, msg.buf);
	strbuf_release(&msg);
}

bool
run_marks_want_trace(struct run_dev *d, const char *scenario)
{
	if (!d->ctx->cfg->markers.trace)
		return false;
	/*
	 * diagnose.trace's iteration runs Perfetto, which owns the kernel's
	 * trace buffer as atrace would: a capture started now would reset
	 * it under Perfetto.  That iteration is never compared, and its
	 * Perfetto trace records the app's sections itself, so it goes
	 * without the capture rather than the night without either.
	 */
	if (d->ctx->opts->trace) {
		results_add_warning(d->res, "markers", scenario, "no Trace "
		    "sections in diagnose.trace's iteration: Perfetto holds "
		    "the kernel's trace buffer (the Perfetto trace shows the "
		    "app's sections)");
		return false;
	}
	return true;
}

int
run_marks_trace_start(struct run_dev *d, const char *scenario, bool *on)
{
	struct strbuf cmd = STRBUF_INIT;
	struct adb_shell_result r;
	int rc;

	strbuf_addf(&cmd, "atrace --async_start -b %d -a ",
	    d->ctx->cfg->markers.trace_buffer_kb);
	sh_quote(&cmd, d->package);
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd.buf, &r);
	*on = !rc && r.exit_code == 0;
	if (!rc && !*on)
		warn_trace(d, scenario, "atrace --async_start", &r);
	adb_shell_result_release(&r);
	strbuf_release(&cmd);
	return rc;
}

int
run_marks_trace_stop(struct run_dev *d, struct run_marks *m,
    const char *scenario, bool keep)
{
	struct adb_shell_result r;
	int rc;

	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, "atrace --async_stop", &r);
	if (!rc && keep && r.exit_code != 0)
		warn_trace(d, scenario, "atrace --async_stop", &r);
	else if (!rc && keep)
		run_marks_add_trace(m, r.out.buf, r.out.len,
		    d->ctx->cfg->markers.trace_prefix);
	adb_shell_result_release(&r);
	return rc;
}

/* The last non-blank line of `sb`, at most 200 bytes, into `out`. */
static void
last_line(const struct strbuf *sb, struct strbuf *out)
{
	size_t end = sb->len, start;

	while (end && (sb->buf[end - 1] == '\n' || sb->buf[end - 1] == '\r' ||
	    sb->buf[end - 1] == ' '))
		end--;
	for (start = end; start && sb->buf[start - 1] != '\n'; start--)
		;
	if (end - start > 200)
		start = end - 200;
	strbuf_add(out, sb->buf + start, end - start);
}

/* Append the command's section to the scenario's exec log; its path out. */
static void
keep_output(struct run_dev *d, const char *scenario, int index,
    const struct scenario_step *st, const struct child *c,
    struct strbuf *path)
{
	const char *slash = d->results_path ? strrchr(d->results_path, '/') :
	    NULL;
	struct strbuf sb = STRBUF_INIT;

	/* Beside the results file; a name of the scenario's safe bytes. */
	if (slash)
		strbuf_add(path, d->results_path, (size_t)(slash -
		    d->results_path) + 1);
	for (const char *p = scenario; *p; p++)
		strbuf_addch(path, isalnum((unsigned char)*p) || *p == '.' ||
		    *p == '_' || *p == '-' ? *p : '_');
	strbuf_addstr(path, ".exec.log");
	strbuf_addf(&sb, "# iteration %d: ", index);
	scenario_format_step(st, &sb);
	strbuf_addch(&sb, '\n');
	strbuf_add(&sb, c->res.out.buf, c->res.out.len);
	if (c->res.out.len && c->res.out.buf[c->res.out.len - 1] != '\n')
		strbuf_addch(&sb, '\n');
	if (c->res.err.len) {
		strbuf_addstr(&sb, "# stderr\n");
		strbuf_add(&sb, c->res.err.buf, c->res.err.len);
		if (c->res.err.buf[c->res.err.len - 1] != '\n')
			strbuf_addch(&sb, '\n');
	}
	if (c->rc)
		strbuf_addf(&sb, "# %s\n", c->msg);
	else if (c->res.signal)
		strbuf_addf(&sb, "# killed by signal %d\n", c->res.signal);
	else
		strbuf_addf(&sb, "# exit status %d\n", c->res.exit_code);
	/* The log helps; a full disk shows up in the results write. */
	(void)file_append(path->buf, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* What the command's end means for the iteration: 0 or a failure. */
static int
judge(const struct scenario_step *st, const struct child *c,
    const struct strbuf *log)
{
	struct strbuf why = STRBUF_INIT;
	int rc;

	if (c->rc == JG_EINTR)
		return jg_error_set(JG_EINTR, "interrupted");
	if (c->rc == JG_ENOTFOUND)
		return jg_error_set(JG_ENOTFOUND, "cannot run '%s': no such "
		    "command", st->argv[0]);
	if (c->rc)
		return jg_error_set(c->rc == JG_ETIMEOUT ? JG_ETIMEOUT :
		    JG_EGENERIC, "%s (output in %s)", c->msg, log->buf);
	if (!c->res.signal && !c->res.exit_code)
		return 0;
	last_line(c->res.err.len ? &c->res.err : &c->res.out, &why);
	if (c->res.signal)
		rc = jg_error_set(JG_EGENERIC, "'%s' was killed by signal %d%s"
		    "%s (output in %s)", st->argv[0], c->res.signal,
		    why.len ? ": " : "", why.buf, log->buf);
	else
		rc = jg_error_set(JG_EGENERIC, "'%s' exited with status %d%s"
		    "%s (output in %s)", st->argv[0], c->res.exit_code,
		    why.len ? ": " : "", why.buf, log->buf);
	strbuf_release(&why);
	return rc;
}

int
run_exec_check(const struct scenario *scn, struct strlist *problems)
{
	int bad = 0;

	for (size_t i = 0; i < scenario_step_count(scn); i++) {
		const struct scenario_step *st = scenario_step(scn, i);

		if (st->kind != SCN_EXEC || proc_in_path(st->argv[0]))
			continue;
		if (strchr(st->argv[0], '/'))
			strlist_addf(problems, "%s:%d:%d: exec: '%s' is not an "
			    "executable file", st->file, st->line, st->col,
			    st->argv[0]);
		else
			strlist_addf(problems, "%s:%d:%d: exec: no command "
			    "'%s' in PATH", st->file, st->line, st->col,
			    st->argv[0]);
		bad = 1;
	}
	return bad ? JG_ENOTFOUND : 0;
}

int
run_exec_step(struct run_dev *d, struct run_logcat *lc, struct run_marks *m,
    const struct scenario_step *st, bool in_scene, double deadline,
    const char *scenario, int index)
{
	struct strlist env = STRLIST_INIT;
	struct strbuf log = STRBUF_INIT;
	struct child c = { .argv = (const char *const *)st->argv };
	const char **envp = NULL;
	size_t seen_ends = 0;
	double from = NAN, to = NAN, up;
	int open = 0, rc, left, trc;
	bool tracing = false;
	pthread_t th;

	if ((rc = make_env(d, &env)))
		goto out;
	envp = xcalloc(env.nr + 1, sizeof(*envp));
	for (size_t i = 0; i < env.nr; i++)
		envp[i] = env.items[i];
	if (!in_scene) {
		run_logcat_marks(lc, &seen_ends, &open);
		if ((rc = read_frames(d, m, &from)))
			goto out;
		if (run_marks_want_trace(d, scenario) &&
		    (rc = run_marks_trace_start(d, scenario, &tracing)))
			goto out;
	}
	/* The deadline is on the phone's pace (monoclock.h), proc's real. */
	left = (int)((deadline - run_now_ms()) / monoclock_scale());
	c.opts.env = envp;
	c.opts.timeout_ms = left < MIN_TIMEOUT_MS ? MIN_TIMEOUT_MS : left;
	proc_result_init(&c.res);
	atomic_init(&c.done, false);
	if (pthread_create(&th, NULL, child_main, &c)) {
		rc = jg_error_set(JG_EIO, "cannot start a thread for '%s'",
		    st->argv[0]);
		proc_result_release(&c.res);
		if (tracing)
			(void)run_marks_trace_stop(d, m, scenario, false);
		goto out;
	}
	/*
	 * A device error of a read must not leave the child running: the
	 * reads stop, the child is waited for (the cancel or its timeout
	 * ends it) and the error is returned after.
	 */
	while (!atomic_load(&c.done)) {
		size_t ends;

		if (run_sleep_ms(POLL_MS))
			continue;	/* proc_run sees the cancel too */
		if (in_scene || rc)
			continue;
		run_logcat_marks(lc, &ends, &open);
		if (ends > seen_ends && !open) {
			seen_ends = ends;
			rc = read_frames(d, m, &up);
		}
	}
	pthread_join(th, NULL);
	keep_output(d, scenario, index, st, &c, &log);
	if (tracing) {
		trc = run_marks_trace_stop(d, m, scenario,
		    !rc && c.rc != JG_EINTR);
		if (!rc)
			rc = trc;
	}
	if (!rc && !in_scene && c.rc != JG_EINTR)
		rc = read_frames(d, m, &to);
	if (!rc && !in_scene)
		run_marks_span(m, from, to, false);
	if (!rc)
		rc = judge(st, &c, &log);
	else if (c.rc == JG_EINTR)
		rc = jg_error_set(JG_EINTR, "interrupted");
	free(c.msg);
	proc_result_release(&c.res);
out:
	free(envp);
	strlist_release(&env);
	strbuf_release(&log);
	return rc;
}
