/*
 * run_trace.c: a Perfetto trace around one iteration (trace.h, issue 20).
 *
 *	echo CONFIG | perfetto --background --txt -c - -o REMOTE
 *	    -> its pid on stdout; the steps run;
 *	kill -TERM PID; until kill -0 PID fails (the trace is written)
 *	pull REMOTE to <results dir>/<trace_file_name(scenario)>; rm -f REMOTE
 *
 * The config goes on stdin because from Android 12 perfetto may not read
 * a config file under /data/local/tmp (SELinux); the text form (--txt)
 * keeps it readable here.  It records SurfaceFlinger's frame timeline
 * (API 31+; older releases skip the data source), the gfx, view and am
 * atrace categories of the app, and scheduling (sched_switch, wakeups,
 * CPU frequency), in a ring buffer: what ui.perfetto.dev needs to show
 * why a frame was late.  /data/misc/perfetto-traces is where the shell
 * user may write a trace (API 28+).  `duration_ms` caps a run whose stop
 * never comes (the iteration's own timeout).
 *
 * No trace is not an error: below API 28, or when the device has no
 * `perfetto` (exit 127), a warning goes into the results once and the
 * iteration runs untraced.
 */
#include <libgen.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "adb_sync.h"
#include "config.h"
#include "error.h"
#include "results.h"
#include "run_int.h"
#include "shquote.h"
#include "strbuf.h"
#include "trace.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "trace"
#define MIN_SDK 28
#define REMOTE_DIR "/data/misc/perfetto-traces"
#define STOP_POLL_MS 200
#define STOP_TIMEOUT_MS 15000

static void
warn(struct run_dev *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
warn(struct run_dev *d, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	results_add_warning(d->res, SRC, NULL, sb.buf);
	strbuf_release(&sb);
}

static void
remote_path(struct strbuf *out, const char *scenario)
{
	strbuf_addstr(out, REMOTE_DIR "/jankgate-");
	trace_file_name(out, scenario);
}

/* The trace config, text form, for the app `package`. */
static void
config_text(struct strbuf *out, const char *package, int timeout_s)
{
	strbuf_addstr(out,
	    "buffers { size_kb: 65536 fill_policy: RING_BUFFER }\n"
	    "buffers { size_kb: 4096 fill_policy: RING_BUFFER }\n"
	    "data_sources { config { name: \"android.surfaceflinger."
	    "frametimeline\" } }\n"
	    "data_sources { config { name: \"linux.ftrace\" ftrace_config {\n"
	    "  ftrace_events: \"sched/sched_switch\"\n"
	    "  ftrace_events: \"sched/sched_wakeup\"\n"
	    "  ftrace_events: \"sched/sched_waking\"\n"
	    "  ftrace_events: \"power/cpu_frequency\"\n"
	    "  atrace_categories: \"gfx\"\n"
	    "  atrace_categories: \"view\"\n"
	    "  atrace_categories: \"am\"\n");
	strbuf_addf(out, "  atrace_apps: \"%s\"\n", package);
	strbuf_addstr(out,
	    "} } }\n"
	    "data_sources { config { name: \"linux.process_stats\" "
	    "target_buffer: 1 process_stats_config { "
	    "scan_all_processes_on_start: true } } }\n");
	strbuf_addf(out, "duration_ms: %d\n", timeout_s * 1000);
}

int
run_trace_begin(struct run_dev *d, const char *scenario, long *pid)
{
	struct strbuf cfg = STRBUF_INIT, cmd = STRBUF_INIT, remote =
	    STRBUF_INIT;
	struct adb_shell_result r;
	char *end;
	int rc;

	*pid = 0;
	if (d->props.sdk > 0 && d->props.sdk < MIN_SDK) {
		warn(d, "no Perfetto trace: perfetto needs API %d, this device "
		    "is API %d", MIN_SDK, d->props.sdk);
		return 1;
	}
	config_text(&cfg, d->package, d->ctx->cfg->devices.iteration_timeout_s);
	remote_path(&remote, scenario);
	strbuf_addstr(&cmd, "echo ");
	sh_quote(&cmd, cfg.buf);
	strbuf_addstr(&cmd, " | perfetto --background --txt -c - -o ");
	sh_quote(&cmd, remote.buf);
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd.buf, &r);
	if (!rc && r.exit_code == 127) {
		warn(d, "no Perfetto trace: this device has no perfetto");
		rc = 1;
	} else if (!rc && r.exit_code != 0) {
		size_t n = strcspn(r.err.buf, "\n");

		warn(d, "no Perfetto trace of '%s': perfetto exited with "
		    "status %d: %.*s", scenario, r.exit_code,
		    (int)(n > 160 ? 160 : n), r.err.buf);
		rc = 1;
	} else if (!rc) {
		*pid = strtol(r.out.buf, &end, 10);
		if (end == r.out.buf || *pid <= 0) {
			warn(d, "no Perfetto trace of '%s': perfetto printed "
			    "no pid", scenario);
			rc = 1;
		}
	}
	adb_shell_result_release(&r);
	strbuf_release(&cfg);
	strbuf_release(&cmd);
	strbuf_release(&remote);
	return rc;
}

/* Signal `pid` (sig "-TERM", "-0"); its exit status, or a device error. */
static int
signal_pid(struct run_dev *d, const char *sig, long pid, int *status)
{
	struct adb_shell_result r;
	char cmd[64];
	int rc;

	snprintf(cmd, sizeof(cmd), "kill %s %ld", sig, pid);
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd, &r);
	*status = r.exit_code;
	adb_shell_result_release(&r);
	return rc;
}

int
run_trace_end(struct run_dev *d, const char *scenario, long pid)
{
	struct strbuf remote = STRBUF_INIT, local = STRBUF_INIT,
	    cmd = STRBUF_INIT;
	char *dir = xstrdup(d->results_path ? d->results_path : ".");
	double until = run_now_ms() + STOP_TIMEOUT_MS;
	struct adb_shell_result r;
	int rc, status = 0;

	remote_path(&remote, scenario);
	strbuf_addf(&local, "%s/", d->results_path ? dirname(dir) : ".");
	trace_file_name(&local, scenario);
	rc = signal_pid(d, "-TERM", pid, &status);
	/* perfetto writes the trace on SIGTERM, then exits. */
	while (!rc && !status && run_now_ms() < until) {
		rc = signal_pid(d, "-0", pid, &status);
		if (!rc && !status)
			run_sleep_ms(STOP_POLL_MS);
	}
	if (!rc && !status)
		warn(d, "Perfetto trace of '%s': perfetto (pid %ld) did not "
		    "stop within %d s", scenario, pid, STOP_TIMEOUT_MS / 1000);
	if (!rc) {
		rc = adb_pull(d->dev, remote.buf, local.buf);
		if (rc == JG_ENOTFOUND || rc == JG_EGENERIC) {
			warn(d, "no Perfetto trace of '%s': %s", scenario,
			    jg_error_msg());
			jg_error_clear();
			rc = 1;
		}
	}
	if (rc >= 0) {
		strbuf_addstr(&cmd, "rm -f ");
		sh_quote(&cmd, remote.buf);
		adb_shell_result_init(&r);
		if (!adb_shell(d->dev, cmd.buf, &r))
			jg_error_clear();
		adb_shell_result_release(&r);
	}
	free(dir);
	strbuf_release(&remote);
	strbuf_release(&local);
	strbuf_release(&cmd);
	return rc;
}
