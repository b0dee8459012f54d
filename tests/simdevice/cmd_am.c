/*
 * cmd_am.c: starting and stopping apps: `am`, `monkey` and `pidof`.
 *
 *   am start [-W] [-S] [-n] PKG/ACTIVITY [-a ACTION] [-c CATEGORY] ...
 *   am force-stop [--user N] PKG
 *   am kill [--user N] PKG          (a process not in front only)
 *   am instrument ...               (cmd_instrument.c)
 *   monkey -p PKG [-c CATEGORY]... [-v]... COUNT
 *   pidof NAME...
 *
 * `am start -W` blocks until the launch's WaitTime has passed on the
 * device clock and prints amfmt_start()'s lines; without -W it returns
 * after the intent was delivered.  monkey starts the package's launcher
 * activity through a MAIN/LAUNCHER intent and prints what monkey prints
 * for one event.  The crash-on and anr-on faults are checked against the
 * command line: the app starts, then crashes right after its first frame,
 * or its main thread hangs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "amfmt.h"
#include "appmodel.h"
#include "apprun.h"
#include "commands.h"
#include "error.h"
#include "simapps.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define MS		1000000LL
#define AM_START_MS	35	/* am without -W: the binder call */
#define MONKEY_MS	280	/* monkey's VM start and one event */

/* Options of `am start` that take a value; all are accepted and ignored. */
static const char *const valued[] = {
	"-a", "-c", "-d", "-t", "-f", "-e", "--user", "--es", "--ei", "--ez",
	"--el", "--ef", "--eu", "--ecn", "--esn", "--display",
	"--windowingMode", "--activityType", "-P", "--start-profiler",
	"--sampling", "-R",
	NULL,
};

static int
is_valued(const char *opt)
{
	for (size_t i = 0; valued[i]; i++)
		if (!strcmp(opt, valued[i]))
			return 1;
	return 0;
}

/* Extras with a key and a value ("--es KEY VALUE"). */
static int
is_extra(const char *opt)
{
	return !strcmp(opt, "-e") || (!strncmp(opt, "--e", 3) &&
	    strcmp(opt, "--user"));
}

/* The whole command line, for matching faults. */
static void
join_args(struct strbuf *out, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (i)
			strbuf_addch(out, ' ');
		strbuf_addstr(out, argv[i]);
	}
}

/* Which fault, if any, the command line triggers: 'c' crash, 'a' ANR. */
static char
fault_for(struct simdev *dev, const char *line)
{
	struct faults f;
	char hit = 0;

	faults_init(&f);
	simdev_faults(dev, &f);
	if (faults_interaction(&f.crash_on, line, NULL, 0))
		hit = 'c';
	else if (faults_interaction(&f.anr_on, line, NULL, 0))
		hit = 'a';
	faults_release(&f);
	return hit;
}

struct start_req {
	const char *package;
	char *activity;		/* full class name, or NULL: the launcher */
	int wait, stop;
	int launcher_intent;
};

/*
 * Start the app under the device lock.  Returns 0 with `as` filled, or
 * JG_ENOTFOUND when the package or the activity does not exist.
 */
static int
start_app(struct simdev *dev, const struct start_req *q, const char *line,
    long long now, struct amfmt_start *as)
{
	struct apprun *r;
	char fault = fault_for(dev, line);
	int ret;

	simdev_lock(dev);
	ret = simapps_get(dev->apps, q->package, &r);
	if (!ret && q->stop)
		simapps_stop(dev->apps, r, now);
	if (!ret)
		ret = simapps_start(dev->apps, r, q->activity,
		    q->launcher_intent, now, as);
	if (!ret && fault && apprun_pid(r)) {
		long long at = now + (as->total_ms > 0 ? as->total_ms : 1) *
		    MS + 20 * MS;

		if (fault == 'c')
			simapps_crash(dev->apps, r, at, line);
		else
			simapps_anr(dev->apps, r, at, "FocusEvent");
	}
	simdev_unlock(dev);
	return ret;
}

/* "pkg/.Act" or "pkg/com.x.Act" into the package and the full class. */
static int
split_component(const char *comp, char **pkg, char **cls)
{
	const char *slash = strchr(comp, '/');

	if (!slash || slash == comp || !slash[1])
		return -1;
	*pkg = xstrndup(comp, (size_t)(slash - comp));
	if (slash[1] == '.')
		*cls = xasprintf("%s%s", *pkg, slash + 1);
	else
		*cls = xstrdup(slash + 1);
	return 0;
}

static int
am_start(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	struct start_req q = { NULL, NULL, 0, 0, 0 };
	struct amfmt_start as;
	const char *comp = NULL;
	char *pkg = NULL;
	long long now;
	int i, ok = 1;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-W"))
			q.wait = 1;
		else if (!strcmp(argv[i], "-S"))
			q.stop = 1;
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			comp = argv[++i];
		else if (is_extra(argv[i]) && i + 2 < argc)
			i += 2;
		else if (is_valued(argv[i]) && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-')
			comp = argv[i];
	}
	if (!comp || split_component(comp, &pkg, &q.activity)) {
		simio_puts(ctx->io, 2, "Error: Intent does not match any "
		    "activities: Intent { }\n");
		return 1;
	}
	q.package = pkg;
	join_args(&line, argc, argv);
	now = simdev_now_ns(ctx->dev);
	/* Like am, a launch that fails still exits 0: read the output. */
	if (start_app(ctx->dev, &q, line.buf, now, &as)) {
		amfmt_no_activity(&out, pkg, q.activity);
		ok = 0;
	} else if (q.wait) {
		as.stop_first = q.stop;
		amfmt_start(&out, ctx->dev->sdk, &as);
	} else {
		if (q.stop)
			strbuf_addf(&out, "Stopping: %s\n", pkg);
		strbuf_addstr(&out, "Starting: Intent { cmp=");
		appmodel_short_component(&out, pkg, q.activity);
		strbuf_addstr(&out, " }\n");
	}
	/* -W returns once the launch is reported: WaitTime on the device. */
	if (!simdev_spend(ctx->dev, ctx->io, ok && q.wait ?
	    (double)as.wait_ms : AM_START_MS))
		simio_write(ctx->io, 1, out.buf, out.len);
	jg_error_clear();
	free(pkg);
	free(q.activity);
	strbuf_release(&out);
	strbuf_release(&line);
	return 0;
}

/* force-stop (any) or kill (only a process not in front) of a package. */
static int
am_stop(struct simcmd_ctx *ctx, int argc, char **argv, int kill)
{
	const char *pkg = NULL;
	struct apprun *r;
	int i;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--user") && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-')
			pkg = argv[i];
	}
	if (!pkg) {
		simio_puts(ctx->io, 2, "Error: no package specified\n");
		return 1;
	}
	simdev_lock(ctx->dev);
	if (!simapps_get(ctx->dev->apps, pkg, &r) &&
	    (!kill || !apprun_top(r)))
		simapps_stop(ctx->dev->apps, r, simdev_now_ns(ctx->dev));
	simdev_unlock(ctx->dev);
	jg_error_clear();
	return 0;
}

int
cmd_am(struct simcmd_ctx *ctx, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "start") || !strcmp(sub, "start-activity"))
		return am_start(ctx, argc, argv);
	if (!strcmp(sub, "force-stop"))
		return am_stop(ctx, argc, argv, 0);
	if (!strcmp(sub, "kill"))
		return am_stop(ctx, argc, argv, 1);
	if (!strcmp(sub, "instrument"))
		return am_instrument(ctx, argc, argv);
	if (!*sub) {
		simio_puts(ctx->io, 2, "usage: am start|force-stop|kill|"
		    "instrument ...\n");
		return 1;
	}
	simio_printf(ctx->io, 2, "Unknown command: %s\n", sub);
	return 1;
}

/* What monkey echoes of its arguments before it runs. */
static void
monkey_args(struct strbuf *out, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		strbuf_addf(out, "  bash arg: %s\n", argv[i]);
	strbuf_addstr(out, "args: [");
	for (i = 1; i < argc; i++)
		strbuf_addf(out, "%s%s", i > 1 ? ", " : "", argv[i]);
	strbuf_addstr(out, "]\n");
	for (i = 1; i < argc; i++)
		strbuf_addf(out, " arg: \"%s\"\n", argv[i]);
}

int
cmd_monkey(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	struct start_req q = { NULL, NULL, 0, 0, 1 };
	struct amfmt_start as;
	long events = 0;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-p") && i + 1 < argc)
			q.package = argv[++i];
		else if ((!strcmp(argv[i], "-c") || !strcmp(argv[i], "-s") ||
		    !strcmp(argv[i], "--throttle")) && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-') {
			char *end;

			errno = 0;
			events = strtol(argv[i], &end, 10);
			if (errno || *end || events < 0)
				events = 0;
		}
	}
	monkey_args(&out, argc, argv);
	if (!q.package || events < 1) {
		strbuf_addstr(&out, "** Error: Count not specified\n");
		simio_write(ctx->io, 2, out.buf, out.len);
		strbuf_release(&out);
		return 1;
	}
	strbuf_addf(&out, "data=\"%s\"\n", q.package);
	join_args(&line, argc, argv);
	ret = start_app(ctx->dev, &q, line.buf, simdev_now_ns(ctx->dev), &as);
	if (ret) {
		strbuf_addstr(&out, "** No activities found to run, monkey "
		    "aborted.\n");
		simio_write(ctx->io, 2, out.buf, out.len);
		strbuf_release(&out);
		strbuf_release(&line);
		return 252;
	}
	strbuf_addf(&out, "Events injected: %ld\n## Network stats: elapsed "
	    "time=%dms (0ms mobile, 0ms wifi, %dms not connected)\n", events,
	    MONKEY_MS - 250, MONKEY_MS - 250);
	if (!simdev_spend(ctx->dev, ctx->io, MONKEY_MS))
		simio_write(ctx->io, 1, out.buf, out.len);
	strbuf_release(&out);
	strbuf_release(&line);
	return 0;
}

int
cmd_pidof(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct simapps *a = ctx->dev->apps;
	int i, found = 0;

	simdev_lock(ctx->dev);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "system_server")) {
			strbuf_addf(&out, "%s%d", found++ ? " " : "",
			    simapps_system_pid(a));
			continue;
		}
		for (size_t k = 0; k < simapps_count(a); k++) {
			struct apprun *r = simapps_at(a, k);

			if (apprun_pid(r) && !strcmp(apprun_model(r)->process,
			    argv[i]))
				strbuf_addf(&out, "%s%d", found++ ? " " : "",
				    apprun_pid(r));
		}
	}
	simdev_unlock(ctx->dev);
	if (found) {
		strbuf_addch(&out, '\n');
		simio_write(ctx->io, 1, out.buf, out.len);
	}
	strbuf_release(&out);
	return found ? 0 : 1;
}
