/*
 * cmd_dumpsys.c: `dumpsys SERVICE ARGS...` and its app-facing services.
 *
 *   dumpsys gfxinfo [PKG|PID] [framestats] [reset]   docs/formats.md §3.1
 *   dumpsys activity [activities|top]                 the resumed activity
 *   dumpsys window [windows]                          mCurrentFocus
 *   dumpsys package PKG                               versionName/Code
 *   dumpsys display | battery | thermalservice        dumpsys_sys.c
 *   dumpsys SurfaceFlinger --frametimeline -jank      sfjank.c (31+)
 *   dumpsys -l                                        the service list
 *
 * The activity and window reports are trimmed to what scripts grep for,
 * in each API level's wording:
 *
 *   ≤ 28:  "    mResumedActivity: ActivityRecord{5a1b2c3 u0 pkg/.Act t12}"
 *          "  mFocusedApp=AppWindowToken{... ActivityRecord{...}}}"
 *   29/30: mResumedActivity plus "  ResumedActivity: ActivityRecord{...}"
 *   31+:   "      topResumedActivity=ActivityRecord{...}" and the
 *          "  ResumedActivity: ActivityRecord{...}" line
 *   all:   "  mCurrentFocus=Window{7d1e2f3 u0 pkg/pkg.Act}"
 *
 * With no app in front the launcher's activity is reported.  The
 * slow-dumpsys-ms fault delays every report (with slow-dumpsys-on, the
 * reports of those services only); its data is taken after the delay.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "appmodel.h"
#include "apprun.h"
#include "commands.h"
#include "dumpsys.h"
#include "gfxinfo_fmt.h"
#include "packages.h"
#include "simapps.h"
#include "simdev.h"
#include "sfjank.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

static int dump_gfxinfo(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv);
static int dump_activity(struct simcmd_ctx *ctx, struct strbuf *out,
    int argc, char **argv);
static int dump_window(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv);

static int dump_sf(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv);

static const struct {
	const char *name;
	int min_sdk;
	int (*dump)(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
	    char **argv);
} services[] = {
	{ "activity", 24, dump_activity },
	{ "battery", 24, dumpsys_battery },
	{ "display", 24, dumpsys_display },
	{ "gfxinfo", 24, dump_gfxinfo },
	{ "package", 24, dumpsys_package },
	{ "SurfaceFlinger", 24, dump_sf },
	{ "thermalservice", 29, dumpsys_thermal },
	{ "window", 24, dump_window },
};

unsigned int
dumpsys_hash(const char *s, int n)
{
	unsigned int h = 2166136261u ^ (unsigned int)n;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return (h % 0xfffffff) | 0x1000000;
}

static int
dump_gfxinfo(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv)
{
	struct simapps *a = ctx->dev->apps;
	const char *pkg;
	unsigned int flags;
	long long now;
	size_t i, found = 0;

	gfx_parse_args(ctx->dev->sdk, argc - 1, (const char *const *)argv + 1,
	    &pkg, &flags);
	simdev_lock(ctx->dev);
	now = simdev_now_ns(ctx->dev);
	for (i = 0; i < simapps_count(a); i++) {
		struct apprun *r = simapps_at(a, i);
		const struct appmodel *m = apprun_model(r);

		if (!apprun_pid(r) || (pkg && strcmp(pkg, m->process) &&
		    strtol(pkg, NULL, 10) != apprun_pid(r)))
			continue;
		if (!found++)
			gfx_dump_header(out, now / 1000000, (now +
			    ctx->dev->boot_ahead_ns) / 1000000);
		apprun_gfxinfo(r, out, flags, now);
	}
	simdev_unlock(ctx->dev);
	if (!found && pkg)
		gfx_dump_no_process(out, pkg);
	else if (!found)
		gfx_dump_header(out, now / 1000000, (now +
		    ctx->dev->boot_ahead_ns) / 1000000);
	return 0;
}

/*
 * `dumpsys SurfaceFlinger --frametimeline -jank` (API 31+): sfjank.c.
 * Other arguments, and every API below 31, get a stand-in for the long
 * general dump, which nothing here reads.
 */
static int
dump_sf(struct simcmd_ctx *ctx, struct strbuf *out, int argc, char **argv)
{
	struct simapps *a = ctx->dev->apps;
	struct sf_source *src;
	int timeline = 0, jank = 0;
	size_t n = 0;

	for (int i = 1; i < argc; i++) {
		timeline |= !strcmp(argv[i], "--frametimeline");
		jank |= !strcmp(argv[i], "-jank");
	}
	if (ctx->dev->sdk < 31 || !timeline) {
		strbuf_addf(out, "Build configuration: [sf PRESENT_TIME_OFFSET=0"
		    "] [libui] [libgui]\n\nDisplay 0 (HWC display 0): port=0 "
		    "pnpId=SIM displayName=\"Simulated\"\n");
		return 0;
	}
	if (!jank)
		return 0;
	simdev_lock(ctx->dev);
	src = xcalloc(simapps_count(a) + 1, sizeof(*src));
	for (size_t i = 0; i < simapps_count(a); i++) {
		struct apprun *r = simapps_at(a, i);

		src[n].package = apprun_model(r)->package;
		src[n++].ring = apprun_sf(r);
	}
	sf_dump_jank(out, src, n, simdev_now_ns(ctx->dev),
	    1000000000LL / (ctx->dev->refresh_hz > 0 ? ctx->dev->refresh_hz :
	    60));
	simdev_unlock(ctx->dev);
	free(src);
	return 0;
}

/* The launcher's activity, for when no app is in front. */
static const char *
launcher_activity(int sdk)
{
	return sdk >= 29 ? "com.android.launcher3.uioverlay.QuickstepLauncher" :
	    "com.android.launcher3.Launcher";
}

#define LAUNCHER_PKG	"com.android.launcher3"

/* What is in front: the package, activity (full) and task of it. */
struct front {
	const char *package, *activity;
	int task, pid;
	unsigned int uid;
};

static void
front_of(struct simapps *a, int sdk, struct front *f)
{
	struct apprun *r = simapps_front(a);

	if (!r) {
		f->package = LAUNCHER_PKG;
		f->activity = launcher_activity(sdk);
		f->task = 1;
		f->pid = simapps_system_pid(a) + APPRUN_LAUNCHER_PID_OFFSET;
		f->uid = 10050;
		return;
	}
	f->package = apprun_model(r)->package;
	f->activity = apprun_top(r);
	f->task = simapps_task(a, r);
	f->pid = apprun_pid(r);
	f->uid = simapps_uid(a, r);
}

/* "ActivityRecord{5a1b2c3 u0 pkg/.Act t12}" */
static void
activity_record(struct strbuf *out, const char *pkg, const char *act,
    int task)
{
	strbuf_addf(out, "ActivityRecord{%x u0 ", dumpsys_hash(act, task));
	appmodel_short_component(out, pkg, act);
	strbuf_addf(out, " t%d}", task);
}

/* One task and its activities, top first, as "Run #N:" lines. */
static void
task_lines(struct strbuf *out, const char *pkg,
    const struct appmodel_activity *const *stack, size_t nr, int task)
{
	size_t i;

	for (i = nr; i-- > 0;) {
		strbuf_addf(out, "        Run #%zu: ", i);
		activity_record(out, pkg, stack[i]->name, task);
		strbuf_addch(out, '\n');
	}
}

static int
dump_activity(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv)
{
	struct simapps *a = ctx->dev->apps;
	int sdk = ctx->dev->sdk;
	struct strbuf rec = STRBUF_INIT;
	struct front f;
	size_t i;

	simdev_lock(ctx->dev);
	front_of(a, sdk, &f);
	activity_record(&rec, f.package, f.activity, f.task);
	if (argc > 1 && !strcmp(argv[1], "top")) {
		strbuf_addf(out, "TASK %s id=%d userId=0\n  ACTIVITY ",
		    f.package, f.task);
		appmodel_short_component(out, f.package, f.activity);
		strbuf_addf(out, " %x pid=%d\n", dumpsys_hash(f.activity,
		    f.task), f.pid);
		goto out;
	}
	strbuf_addstr(out, "ACTIVITY MANAGER ACTIVITIES (dumpsys activity "
	    "activities)\nDisplay #0 (activities from top to bottom):\n");
	for (i = 0; i < simapps_count(a); i++) {
		struct apprun *r = simapps_at(a, i);
		const struct appmodel_activity *const *stack;
		const char *pkg = apprun_model(r)->package;
		size_t nr;
		int task = simapps_task(a, r);

		stack = apprun_stack(r, &nr);
		if (!nr)
			continue;
		if (sdk >= 31)
			strbuf_addf(out, "  * Task{%x #%d type=standard "
			    "A=%s U=0 visible=%s mode=fullscreen "
			    "translucent=false sz=%zu}\n", dumpsys_hash(pkg,
			    task), task, pkg, apprun_top(r) ? "true" : "false",
			    nr);
		else
			strbuf_addf(out, "  Stack #%d:\n    * TaskRecord{%x "
			    "#%d A=%s U=0 StackId=%d sz=%zu}\n", task,
			    dumpsys_hash(pkg, task), task, pkg, task, nr);
		strbuf_addstr(out, "      Running activities (most recent "
		    "first):\n");
		task_lines(out, pkg, stack, nr, task);
		if (!apprun_top(r))
			continue;
		if (sdk >= 31)
			strbuf_addf(out, "      topResumedActivity=%s\n",
			    rec.buf);
		else
			strbuf_addf(out, "\n    mResumedActivity: %s\n",
			    rec.buf);
	}
	strbuf_addch(out, '\n');
	if (sdk >= 29)
		strbuf_addf(out, "  ResumedActivity: %s\n", rec.buf);
	else
		strbuf_addf(out, "  mFocusedActivity: %s\n", rec.buf);
out:
	simdev_unlock(ctx->dev);
	strbuf_release(&rec);
	return 0;
}

static int
dump_window(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv)
{
	int sdk = ctx->dev->sdk;
	struct strbuf rec = STRBUF_INIT;
	unsigned int wh;
	struct front f;

	simdev_lock(ctx->dev);
	front_of(ctx->dev->apps, sdk, &f);
	simdev_unlock(ctx->dev);
	wh = dumpsys_hash(f.activity, -f.task);
	activity_record(&rec, f.package, f.activity, f.task);
	strbuf_addf(out, "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
	    "  Window #0 Window{%x u0 NavigationBar0}:\n"
	    "    mDisplayId=0 mSession=Session{%x 1311:u0a10060}\n"
	    "  Window #1 Window{%x u0 StatusBar}:\n"
	    "    mDisplayId=0 mSession=Session{%x 1311:u0a10060}\n"
	    "  Window #2 Window{%x u0 %s/%s}:\n"
	    "    mDisplayId=0 rootTaskId=%d mSession=Session{%x %d:u0a%u}\n"
	    "    mOwnerUid=%u showForAllUsers=false package=%s appop=NONE\n"
	    "\n", dumpsys_hash("NavigationBar0", 0), dumpsys_hash("s", 1),
	    dumpsys_hash("StatusBar", 0), dumpsys_hash("s", 2), wh, f.package,
	    f.activity, f.task, dumpsys_hash(f.package, 3), f.pid,
	    f.uid - 10000, f.uid, f.package);
	strbuf_addf(out, "  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] "
	    "ldltr sw411dp w411dp h914dp 420dpi nrml long port finger "
	    "-keyb/v/h -nav/h winConfig={ mBounds=Rect(0, 0 - %d, %d)} "
	    "s.1}\n", ctx->dev->width, ctx->dev->height);
	if (sdk >= 29)
		strbuf_addstr(out, "  mTopFocusedDisplayId=0\n");
	strbuf_addf(out, "  mCurrentFocus=Window{%x u0 %s/%s}\n", wh,
	    f.package, f.activity);
	if (sdk >= 29)
		strbuf_addf(out, "  mFocusedApp=%s\n", rec.buf);
	else
		strbuf_addf(out, "  mFocusedApp=AppWindowToken{%x token=Token{"
		    "%x %s}}\n", dumpsys_hash(f.activity, 7),
		    dumpsys_hash(f.activity, 8), rec.buf);
	strbuf_release(&rec);
	return 0;
}

/* "2024-11-05 13:59:12" for a device monotonic time in ms. */
static void
add_date(struct strbuf *out, struct simdev *dev, double mono_ms)
{
	time_t t = (time_t)(simdev_wall_ns(dev, (long long)(mono_ms * 1e6)) /
	    1000000000LL);
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	strbuf_addstr(out, buf);
}

int
dumpsys_package(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv)
{
	struct simdev *dev = ctx->dev;
	const char *name = argc > 1 ? argv[argc - 1] : "";
	const struct appmodel *m = NULL;
	struct apprun *r;
	struct simpkg *p;

	simdev_lock(dev);
	p = packages_find(dev, name);
	if (!p) {
		simdev_unlock(dev);
		strbuf_addf(out, "Unable to find package: %s\n", name);
		return 0;
	}
	if (!simapps_get(dev->apps, name, &r))
		m = apprun_model(r);
	if (m && m->launcher) {
		strbuf_addstr(out, "Activity Resolver Table:\n  Non-Data "
		    "Actions:\n      android.intent.action.MAIN:\n        ");
		strbuf_addf(out, "%x ", dumpsys_hash(m->launcher, 1));
		appmodel_short_component(out, m->package, m->launcher);
		strbuf_addf(out, " filter %x\n          Action: \"android."
		    "intent.action.MAIN\"\n          Category: \"android."
		    "intent.category.LAUNCHER\"\n\n", dumpsys_hash(m->launcher,
		    2));
	}
	strbuf_addf(out, "Packages:\n  Package [%s] (%x):\n    userId=%u\n"
	    "    pkg=Package{%x %s}\n    codePath=/data/app/%s-1\n"
	    "    resourcePath=/data/app/%s-1\n    primaryCpuAbi=null\n"
	    "    secondaryCpuAbi=null\n", p->name, dumpsys_hash(p->name, 0),
	    p->uid, dumpsys_hash(p->name, 1), p->name, p->name, p->name);
	strbuf_addf(out, "    versionCode=%lld minSdk=24 targetSdk=%d\n"
	    "    versionName=%s\n    splits=[base]\n"
	    "    apkSigningVersion=2\n    applicationInfo=ApplicationInfo{"
	    "%x %s}\n    flags=[ %sHAS_CODE ALLOW_CLEAR_USER_DATA "
	    "ALLOW_BACKUP ]\n", p->version_code, dev->sdk, p->version_name,
	    dumpsys_hash(p->name, 2), p->name, m && m->debuggable ?
	    "DEBUGGABLE " : "");
	strbuf_addstr(out, "    timeStamp=");
	add_date(out, dev, p->installed_ms);
	strbuf_addstr(out, "\n    firstInstallTime=");
	add_date(out, dev, p->installed_ms);
	strbuf_addstr(out, "\n    lastUpdateTime=");
	add_date(out, dev, p->installed_ms);
	strbuf_addf(out, "\n    installerPackageName=%s\n"
	    "    User 0: ceDataInode=%u installed=true hidden=false "
	    "suspended=false stopped=false notLaunched=false enabled=0 "
	    "instant=false virtual=false\n", p->system ? "null" :
	    "com.android.shell", dumpsys_hash(p->name, 3));
	simdev_unlock(dev);
	return 0;
}

/* 1 when `service` is one that slow-dumpsys-on names. */
static int
slow_service(const struct faults_list *on, const char *service)
{
	for (size_t i = 0; i < on->nr; i++)
		if (!strcmp(on->v[i], service))
			return 1;
	return 0;
}

int
cmd_dumpsys(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct faults f;
	size_t i;
	int status = 0, found = 0;

	if (argc < 2 || !strcmp(argv[1], "-l")) {
		strbuf_addstr(&out, "Currently running services:\n");
		for (i = 0; i < sizeof(services) / sizeof(services[0]); i++)
			if (ctx->dev->sdk >= services[i].min_sdk)
				strbuf_addf(&out, "  %s\n", services[i].name);
		simio_write(ctx->io, 1, out.buf, out.len);
		strbuf_release(&out);
		return 0;
	}
	faults_init(&f);
	simdev_faults(ctx->dev, &f);
	if (f.slow_dumpsys_ms > 0 && (!f.slow_dumpsys_on.nr ||
	    slow_service(&f.slow_dumpsys_on, argv[1])) &&
	    simdev_spend(ctx->dev, ctx->io, (double)f.slow_dumpsys_ms)) {
		faults_release(&f);
		return 130;
	}
	faults_release(&f);
	for (i = 0; i < sizeof(services) / sizeof(services[0]); i++) {
		if (strcmp(argv[1], services[i].name) ||
		    ctx->dev->sdk < services[i].min_sdk)
			continue;
		status = services[i].dump(ctx, &out, argc - 1, argv + 1);
		found = 1;
	}
	if (!found)
		simio_printf(ctx->io, 2, "Can't find service: %s\n", argv[1]);
	simio_write(ctx->io, 1, out.buf, out.len);
	strbuf_release(&out);
	return status;
}
