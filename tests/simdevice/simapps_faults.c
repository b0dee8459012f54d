/*
 * simapps_faults.c: the faults that end or hang an app process: a crash
 * (crash-on) and an ANR (anr-on), with what Android logs for each.
 *
 * A crash is AndroidRuntime's report in the crash buffer, then
 * ActivityManager's "Force finishing activity" and "Process ... has died"
 * in the system buffer; the process is stopped first, so whatever it had
 * scheduled to log later is gone.  An ANR stops the main thread: after
 * the input dispatch timeout (5 s) system_server signals the process and
 * logs "ANR in ..."; the app then ignores input until it is stopped.
 */
#include <string.h>

#include "appmodel.h"
#include "apprun.h"
#include "logfmt_msg.h"
#include "simapps_priv.h"
#include "simdev.h"
#include "strbuf.h"
#include "banned.h"

#define ANR_INPUT_MS	5000		/* input dispatching timeout */

/* The short class name of a full one ("com.x.FeedActivity" -> "Feed..."). */
static const char *
simple_name(const char *cls)
{
	const char *dot = strrchr(cls, '.');

	return dot ? dot + 1 : cls;
}

void
simapps_crash(struct simapps *a, struct apprun *r, long long at_ns,
    const char *what)
{
	static const char *const framework[] = {
		"android.view.View.performClick(View.java:7448)",
		"android.view.View.performClickInternal(View.java:7425)",
		"android.view.View$PerformClick.run(View.java:28305)",
		"android.os.Handler.handleCallback(Handler.java:938)",
		"android.os.Handler.dispatchMessage(Handler.java:99)",
		"android.os.Looper.loop(Looper.java:223)",
		"android.app.ActivityThread.main(ActivityThread.java:7656)",
		"java.lang.reflect.Method.invoke(Native Method)",
		"com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run("
		    "RuntimeInit.java:592)",
		"com.android.internal.os.ZygoteInit.main(ZygoteInit.java:947)",
	};
	const char *frames[1 + sizeof(framework) / sizeof(framework[0])];
	const struct appmodel *m = apprun_model(r);
	struct simapp *app = simapps_find_run(a, r);
	const char *top = apprun_top(r);
	struct strbuf msg = STRBUF_INIT, first = STRBUF_INIT;
	struct strbuf exc = STRBUF_INIT;
	int pid = apprun_pid(r);
	size_t i;

	if (!pid || !app)
		return;
	if (!top)
		top = m->launcher ? m->launcher : m->activities[0].name;
	strbuf_addf(&first, "%s.onClick(%s.java:87)", top, simple_name(top));
	frames[0] = first.buf;
	for (i = 0; i < sizeof(framework) / sizeof(framework[0]); i++)
		frames[i + 1] = framework[i];
	strbuf_addf(&exc, "java.lang.IllegalStateException: simulated crash "
	    "on '%s'", what);
	logfmt_msg_crash(&msg, "main", m->process, pid, exc.buf, frames,
	    (int)(sizeof(frames) / sizeof(frames[0])));
	/* The process ends first, so its scheduled lines go, these stay. */
	simapps_stop(a, r, at_ns);
	simapps_log_entry(a, LOGFMT_CRASH, at_ns, pid, app->uid, 'E',
	    "AndroidRuntime", msg.buf);

	strbuf_reset(&msg);
	strbuf_addstr(&msg, "  Force finishing activity ");
	appmodel_short_component(&msg, m->package, top);
	simapps_log_entry(a, LOGFMT_SYSTEM, at_ns + 3 * MS, 0, 0, 'W',
	    simapps_atm_tag(a), msg.buf);
	strbuf_reset(&msg);
	strbuf_addf(&msg, "Process %s (pid %d) has died%s", m->process, pid,
	    a->dev->sdk >= 29 ? ": fg  TOP" : "");
	simapps_log_entry(a, LOGFMT_SYSTEM, at_ns + 150 * MS, 0, 0, 'I',
	    "ActivityManager", msg.buf);
	strbuf_release(&msg);
	strbuf_release(&first);
	strbuf_release(&exc);
}

void
simapps_anr(struct simapps *a, struct apprun *r, long long at_ns,
    const char *what)
{
	const struct appmodel *m = apprun_model(r);
	struct simapp *app = simapps_find_run(a, r);
	const char *top = apprun_top(r);
	struct strbuf msg = STRBUF_INIT, reason = STRBUF_INIT;
	long long t = at_ns + ANR_INPUT_MS * MS;
	int pid = apprun_pid(r);

	if (!pid || !app || app->hung)
		return;
	if (!top)
		top = m->launcher ? m->launcher : m->activities[0].name;
	app->hung = 1;
	strbuf_addf(&msg, "Sending signal. PID: %d SIG: 3", pid);
	simapps_log_entry(a, LOGFMT_MAIN, t, 0, 0, 'I', "Process", msg.buf);
	strbuf_reset(&msg);
	strbuf_addstr(&reason, "Input dispatching timed out (");
	appmodel_short_component(&reason, m->package, top);
	strbuf_addf(&reason, " is not responding. Waited %dms for %s)",
	    ANR_INPUT_MS, what);
	logfmt_msg_anr(&msg, m->process, m->package, top, pid, reason.buf);
	simapps_log_entry(a, LOGFMT_SYSTEM, t + 40 * MS, 0, 0, 'E',
	    "ActivityManager", msg.buf);
	strbuf_release(&msg);
	strbuf_release(&reason);
}

int
simapps_hung(struct simapps *a, const struct apprun *r)
{
	struct simapp *app = simapps_find_run(a, r);

	return app && app->hung;
}
