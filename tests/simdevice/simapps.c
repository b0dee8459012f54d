/*
 * simapps.c: the phone's app processes, their shared log and ground truth;
 * who is in front, pids and tasks.  The faults that end or hang a process
 * are in simapps_faults.c.
 *
 * A process record is made the first time a command names its package
 * and lives until the package is uninstalled or replaced; apprun keeps
 * whether the process is running.  Records are kept in creation order,
 * which is also the order periodic outputs are produced in, so the same
 * commands give the same log.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "amfmt.h"
#include "appmodel.h"
#include "apprun.h"
#include "blockcanary_fmt.h"
#include "error.h"
#include "logfmt.h"
#include "packages.h"
#include "simapps_priv.h"
#include "simdev.h"
#include "simfs.h"
#include "simtrace.h"
#include "strbuf.h"
#include "truth.h"
#include "xalloc.h"
#include "banned.h"

#define MS		1000000LL
#define LOG_CAPACITY	(1024 * 1024)	/* logd's default per buffer: 256K */
#define TID_AM		27		/* system_server's ActivityManager */

/* A model that only checks that the --libs spec is well formed. */
static const char probe_model[] =
	"{\"package\":\"com.example.probe\",\"versionName\":\"1\","
	"\"versionCode\":1}";

static int
check_libs(const char *spec)
{
	struct appmodel *m;
	int ret;

	ret = appmodel_parse(&m, probe_model, sizeof(probe_model) - 1);
	if (ret)
		return ret;
	ret = appmodel_set_libraries(m, spec);
	appmodel_free(m);
	if (ret)
		return jg_error_prefix("bad --libs '%s'", spec);
	return 0;
}

static char *
prop(struct simdev *dev, const char *key)
{
	struct strbuf sb = STRBUF_INIT;

	simkv_get(&dev->props, key, &sb);
	return strbuf_detach(&sb, NULL);
}

int
simapps_new(struct simapps **out, struct simdev *dev,
    const struct simdev_opts *o)
{
	struct simapps *a;
	int ret;

	*out = NULL;
	if (o->libs && (ret = check_libs(o->libs)))
		return ret;
	a = xcalloc(1, sizeof(*a));
	a->dev = dev;
	if (o->truth_path && (ret = truth_open(&a->truth, o->truth_path))) {
		free(a);
		return ret;
	}
	a->log = logfmt_buf_new(LOG_CAPACITY);
	if (o->logcat_loss)
		logfmt_buf_set_loss(a->log, o->logcat_loss, o->seed,
		    o->sdk <= 30);
	a->release = prop(dev, "ro.build.version.release");
	a->model_name = prop(dev, "ro.product.model");
	a->libs = o->libs ? xstrdup(o->libs) : NULL;
	/* Plausible pids that differ between seeds but not between runs. */
	a->system_pid = 900 + (int)(o->seed % 997);
	a->next_pid = a->system_pid + 3000 + (int)(o->seed % 1013);
	a->pid_rng = o->seed * 2654435761ULL + 1;
	a->next_task = 11;
	*out = a;
	return 0;
}

static void
app_free(struct simapp *app)
{
	apprun_free(app->run);
	appmodel_free(app->model);
	free(app->package);
	free(app);
}

void
simapps_free(struct simapps *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr; i++)
		app_free(a->v[i]);
	free(a->v);
	logfmt_buf_free(a->log);
	truth_close(a->truth);
	free(a->release);
	free(a->model_name);
	free(a->libs);
	free(a);
}

struct logfmt_buf *
simapps_log(struct simapps *a)
{
	return a->log;
}

/* Where the app writes a file (BlockCanary): mkdir -p, then the bytes. */
static void
app_write_file(void *ctx, const char *path, const void *data, size_t len)
{
	struct simapp *app = ctx;
	struct simfs *fs = app->owner->dev->fs;
	struct strbuf dir = STRBUF_INIT;
	char *slash;

	/* New directories and files take their parent's owner. */
	simfs_normalize(&dir, path);
	slash = strrchr(dir.buf, '/');
	if (slash && slash != dir.buf) {
		strbuf_setlen(&dir, (size_t)(slash - dir.buf));
		simfs_mkdir(fs, dir.buf, 0771, 1);
	}
	simfs_write(fs, path, data, len, 0, 0660);
	strbuf_release(&dir);
}

/*
 * A new process of an app with BlockCanary: the library's directory
 * exists from now on, block or no block.  BlockCanary.install() starts
 * BlockCanaryInternals, whose LogWriter.cleanObsolete() lists the log
 * directory through detectedBlockDirectory(), which mkdirs it; so a
 * healthy app (no block past the threshold) has the directory and no
 * file, which is what tells a reader BlockCanary is there.
 */
static void
blockcanary_mkdir(struct simapp *app)
{
	const struct appmodel_libs *libs = &app->model->libs;
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;

	if (!libs->blockcanary)
		return;
	bcfmt_dir(&dir, libs->bc_dir, app->package);
	simfs_normalize(&path, dir.buf);
	simfs_mkdir(app->owner->dev->fs, path.buf, 0771, 1);
	strbuf_release(&dir);
	strbuf_release(&path);
}

/* What the app's Trace writes, into atrace's buffer (simtrace.c). */
static void
app_trace(void *ctx, const char *comm, int pid, int tid, long long mono_ns,
    const char *text)
{
	struct simapp *app = ctx;

	simtrace_write(app->owner->dev->trace, app->package, comm, pid, tid,
	    mono_ns, text);
}

static void
fill_env(struct simapps *a, struct simapp *app, struct apprun_env *env)
{
	struct simdev *dev = a->dev;

	memset(env, 0, sizeof(*env));
	env->sdk = dev->sdk;
	env->release = a->release;
	env->model = a->model_name;
	env->cores = 8;
	env->mem_total_kb = 7849092;
	env->mem_free_kb = 2893440;
	env->refresh_hz = dev->refresh_hz;
	env->seed = dev->seed;
	env->system_pid = a->system_pid;
	env->wall_offset_ns = dev->wall_offset_ns;
	env->tz_offset_min = 0;
	env->log = a->log;
	env->truth = a->truth;
	env->write_file = app_write_file;
	env->file_ctx = app;
	env->trace = app_trace;
	env->trace_ctx = app;
}

static struct simapp *
find(struct simapps *a, const char *package)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strcmp(a->v[i]->package, package))
			return a->v[i];
	return NULL;
}

struct simapp *
simapps_find_run(struct simapps *a, const struct apprun *r)
{
	for (size_t i = 0; i < a->nr; i++)
		if (a->v[i]->run == r)
			return a->v[i];
	return NULL;
}

int
simapps_get(struct simapps *a, const char *package, struct apprun **out)
{
	struct simapp *app = find(a, package);
	struct simpkg *p;
	struct apprun_env env;
	int ret;

	*out = NULL;
	if (app) {
		*out = app->run;
		return 0;
	}
	p = packages_find(a->dev, package);
	if (!p || p->system || !p->model_json)
		return jg_error_set(JG_ENOTFOUND, "no app '%s'", package);
	app = xcalloc(1, sizeof(*app));
	app->owner = a;
	app->package = xstrdup(package);
	app->uid = p->uid;
	ret = appmodel_parse(&app->model, p->model_json,
	    strlen(p->model_json));
	if (!ret && a->libs)
		ret = appmodel_set_libraries(app->model, a->libs);
	if (!ret)
		appmodel_fit(app->model, a->dev->width, a->dev->height);
	if (ret) {
		/* The APK installed, but the model cannot run: say why. */
		simdev_warn("app model of '%s': %s", package, jg_error_msg());
		app_free(app);
		return ret;
	}
	fill_env(a, app, &env);
	app->run = apprun_new(app->model, &env, app->uid);
	XALLOC_GROW(a->v, a->nr + 1, a->alloc);
	a->v[a->nr++] = app;
	*out = app->run;
	return 0;
}

struct apprun *
simapps_front(struct simapps *a)
{
	for (size_t i = 0; i < a->nr; i++)
		if (apprun_top(a->v[i]->run))
			return a->v[i]->run;
	return NULL;
}

size_t
simapps_count(const struct simapps *a)
{
	return a->nr;
}

struct apprun *
simapps_at(struct simapps *a, size_t i)
{
	return i < a->nr ? a->v[i]->run : NULL;
}

int
simapps_new_pid(struct simapps *a)
{
	/* Other processes start in between: skip a few pids each time. */
	a->pid_rng ^= a->pid_rng << 13;
	a->pid_rng ^= a->pid_rng >> 7;
	a->pid_rng ^= a->pid_rng << 17;
	a->next_pid += 1 + (int)(a->pid_rng % 40);
	return a->next_pid;
}

int
simapps_system_pid(const struct simapps *a)
{
	return a->system_pid;
}

void
simapps_log_entry(struct simapps *a, enum logfmt_buffer buf, long long mono_ns,
    int pid, unsigned int uid, char prio, const char *tag, const char *msg)
{
	struct logfmt_entry e;

	e.buffer = buf;
	e.mono_ns = mono_ns;
	e.wall_ns = simdev_wall_ns(a->dev, mono_ns);
	e.pid = pid ? pid : a->system_pid;
	e.tid = pid ? pid : a->system_pid + TID_AM;
	e.uid = pid ? uid : 1000;
	e.prio = prio;
	e.tag = tag;
	e.msg = msg;
	logfmt_buf_add(a->log, &e);
}

void
simapps_shell_log(struct simapps *a, long long mono_ns, char prio,
    const char *tag, const char *msg)
{
	simapps_log_entry(a, LOGFMT_MAIN, mono_ns, 0, 0, prio, tag, msg);
}

const char *
simapps_atm_tag(const struct simapps *a)
{
	return a->dev->sdk >= 29 ? "ActivityTaskManager" : "ActivityManager";
}

/* ActivityTaskManager's START line and, for a new process, "Start proc". */
static void
log_start(struct simapps *a, struct simapp *app, const char *activity,
    int launcher_intent, int new_pid, long long now_ns)
{
	const struct appmodel *m = app->model;
	struct strbuf msg = STRBUF_INIT;

	strbuf_addstr(&msg, "START u0 {");
	if (launcher_intent)
		strbuf_addstr(&msg, "act=android.intent.action.MAIN "
		    "cat=[android.intent.category.LAUNCHER] flg=0x10200000 ");
	else
		strbuf_addstr(&msg, "flg=0x10000000 ");
	strbuf_addstr(&msg, "cmp=");
	appmodel_short_component(&msg, m->package, activity);
	strbuf_addstr(&msg, "} from uid 2000");
	simapps_log_entry(a, LOGFMT_SYSTEM, now_ns + 2 * MS, 0, 0, 'I',
	    simapps_atm_tag(a), msg.buf);
	if (new_pid) {
		strbuf_reset(&msg);
		strbuf_addf(&msg, "Start proc %d:%s/u0a%u for ", new_pid,
		    m->process, app->uid - 10000);
		if (a->dev->sdk >= 29)
			strbuf_addf(&msg, "pre-top-activity {%s/%s}",
			    m->package, activity);
		else {
			strbuf_addstr(&msg, "activity ");
			appmodel_short_component(&msg, m->package, activity);
		}
		simapps_log_entry(a, LOGFMT_SYSTEM, now_ns + 9 * MS, 0, 0, 'I',
		    "ActivityManager", msg.buf);
	}
	strbuf_release(&msg);
}

int
simapps_start(struct simapps *a, struct apprun *r, const char *activity,
    int launcher_intent, long long now_ns, struct amfmt_start *as)
{
	struct simapp *app = simapps_find_run(a, r);
	const struct appmodel_activity *act;
	int pid = 0;

	if (!app)
		return jg_error_set(JG_ENOTFOUND, "not an app process");
	if (!activity && !app->model->launcher)
		return jg_error_set(JG_ENOTFOUND, "'%s' has no launcher "
		    "activity", app->package);
	act = appmodel_activity(app->model, activity ? activity :
	    app->model->launcher);
	if (!act)
		return jg_error_set(JG_ENOTFOUND, "no activity '%s' in '%s'",
		    activity, app->package);
	if (!apprun_pid(r)) {
		pid = simapps_new_pid(a);
		app->hung = 0;
		app->task = ++a->next_task;
		blockcanary_mkdir(app);
	}
	for (size_t i = 0; i < a->nr; i++)
		if (a->v[i]->run != r)
			apprun_home(a->v[i]->run, now_ns);
	log_start(a, app, act->name, launcher_intent, pid, now_ns);
	return apprun_start(r, act->name, pid, now_ns, as);
}

void
simapps_stop(struct simapps *a, struct apprun *r, long long now_ns)
{
	struct simapp *app = simapps_find_run(a, r);
	struct strbuf needle = STRBUF_INIT;

	/* What the dead process (and AM about it) would have logged later. */
	if (apprun_pid(r)) {
		strbuf_addf(&needle, " %s/", apprun_model(r)->package);
		logfmt_buf_drop_after(a->log, now_ns, apprun_pid(r),
		    needle.buf);
	}
	apprun_force_stop(r, now_ns);
	if (app)
		app->hung = 0;
	strbuf_release(&needle);
}

void
simapps_forget(struct simapps *a, const char *package)
{
	for (size_t i = 0; i < a->nr; i++) {
		if (strcmp(a->v[i]->package, package))
			continue;
		app_free(a->v[i]);
		memmove(a->v + i, a->v + i + 1,
		    (a->nr - i - 1) * sizeof(*a->v));
		a->nr--;
		return;
	}
}

void
simapps_advance(struct simapps *a, long long now_ns)
{
	for (size_t i = 0; i < a->nr; i++)
		apprun_advance(a->v[i]->run, now_ns);
}

unsigned int
simapps_uid(struct simapps *a, const struct apprun *r)
{
	struct simapp *app = simapps_find_run(a, r);

	return app ? app->uid : 0;
}

int
simapps_task(struct simapps *a, const struct apprun *r)
{
	struct simapp *app = simapps_find_run(a, r);

	return app ? app->task : 0;
}
