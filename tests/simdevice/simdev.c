/*
 * simdev.c: building the simulated device's state from its options, and
 * the small services every other part uses (clock, faults, log, warnings).
 *
 * The properties are modelled on a userdebug Pixel-like build of the chosen
 * API level; identity options override single values and `--prop` any.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "fileio.h"
#include "packages.h"
#include "sessions.h"
#include "simapps.h"
#include "simdev.h"
#include "simtrace.h"
#include "simfs.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define NSEC		1000000000LL
#define VIRTUAL_EPOCH	1730815200LL	/* 2024-11-05 14:00:00 UTC */

/* The Android version and a build id that match each API level. */
static const struct {
	int sdk;
	const char *release, *build_id;
} releases[] = {
	{ 24, "7.0", "NRD90M" },
	{ 25, "7.1.1", "NMF26X" },
	{ 26, "8.0.0", "OPR6.170623.013" },
	{ 27, "8.1.0", "OPM8.190605.003" },
	{ 28, "9", "PQ3A.190801.002" },
	{ 29, "10", "QQ3A.200805.001" },
	{ 30, "11", "RQ3A.211001.001" },
	{ 31, "12", "SQ1D.220205.004" },
	{ 32, "12", "SQ3A.220705.004" },
	{ 33, "13", "TQ3A.230901.001" },
	{ 34, "14", "UQ1A.240205.004" },
};

/* Directories every device has: path, mode, owner, group. */
static const struct {
	const char *path;
	unsigned int perm, uid, gid;
} std_dirs[] = {
	{ "/data", 0771, 1000, 1000 },
	{ "/data/app", 0771, 1000, 1000 },
	{ "/data/data", 0771, 1000, 1000 },
	{ "/data/local", 0751, 0, 0 },
	{ "/data/local/tmp", 0771, 2000, 2000 },
	{ "/data/misc", 01771, 1000, 9998 },
	{ "/data/misc/perfetto-traces", 03773, 9999, 9999 },
	{ "/dev", 0755, 0, 0 },
	{ "/proc", 0555, 0, 0 },
	{ "/sdcard", 0771, 0, 1015 },
	{ "/sdcard/Android", 0771, 0, 1015 },
	{ "/sdcard/DCIM", 0771, 0, 1015 },
	{ "/sdcard/Download", 0771, 0, 1015 },
	{ "/system", 0755, 0, 0 },
	{ "/system/bin", 0751, 0, 2000 },
	{ "/vendor", 0755, 0, 0 },
};

void
simdev_opts_init(struct simdev_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sdk = 34;
	o->model = "SimPixel 7";
	o->product = "simjank";
	o->device = "simjank";
	o->manufacturer = "Simulated";
	o->brand = "sim";
	o->serialno = "SIM0001";
	o->abi = "x86_64";
	o->features = "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,"
	    "abb_exec,fixed_push_symlink_timestamp";
	o->auth = SIMDEV_AUTH_NONE;
	o->proto_version = 0x01000001;
	o->maxdata = 1024 * 1024;
	o->uptime_s = 3600;
	faults_init(&o->faults);
	o->seed = 1;
	o->refresh_hz = 60;
	o->width = 1080;
	o->height = 2400;
	o->density = 420;
	o->battery = 85;
	o->thermal_rise_at_ms = -1;
	o->thermal_rise_to = 3;
	o->epoch_s = -1;
	o->drop_at_ms = -1;
	o->clock_scale = 1.0;
}

void
simdev_opts_release(struct simdev_opts *o)
{
	free(o->tcp);
	free(o->props);
	free(o->files);
	free(o->installs);
	faults_release(&o->faults);
}

static void
set_identity(struct simdev *dev, const struct simdev_opts *o)
{
	const char *release = NULL, *build_id = "UQ1A.240205.004";
	const char *abilist;
	char *s;
	size_t i;

	for (i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
		if (releases[i].sdk == o->sdk) {
			release = releases[i].release;
			build_id = releases[i].build_id;
		}
	}
	if (o->release)
		release = o->release;
	if (!release)
		release = "14";

	s = xasprintf("%d", o->sdk);
	simkv_set(&dev->props, "ro.build.version.sdk", s);
	free(s);
	simkv_set(&dev->props, "ro.build.version.release", release);
	if (o->sdk >= 30)
		simkv_set(&dev->props, "ro.build.version.release_or_codename",
		    release);
	simkv_set(&dev->props, "ro.build.version.codename", "REL");
	simkv_set(&dev->props, "ro.build.version.incremental", "1234567");
	simkv_set(&dev->props, "ro.build.id", build_id);
	simkv_set(&dev->props, "ro.build.display.id", build_id);
	simkv_set(&dev->props, "ro.build.type", "userdebug");
	simkv_set(&dev->props, "ro.build.tags", "test-keys");
	simkv_set(&dev->props, "ro.build.characteristics", "default");
	if (o->fingerprint) {
		simkv_set(&dev->props, "ro.build.fingerprint", o->fingerprint);
	} else {
		s = xasprintf("%s/%s/%s:%s/%s/1234567:userdebug/test-keys",
		    o->brand, o->product, o->device, release, build_id);
		simkv_set(&dev->props, "ro.build.fingerprint", s);
		free(s);
	}
	simkv_set(&dev->props, "ro.product.model", o->model);
	simkv_set(&dev->props, "ro.product.manufacturer", o->manufacturer);
	simkv_set(&dev->props, "ro.product.brand", o->brand);
	simkv_set(&dev->props, "ro.product.name", o->product);
	simkv_set(&dev->props, "ro.product.device", o->device);
	simkv_set(&dev->props, "ro.product.board", o->device);
	simkv_set(&dev->props, "ro.hardware", o->device);
	simkv_set(&dev->props, "ro.product.cpu.abi", o->abi);
	if (!strcmp(o->abi, "x86_64"))
		abilist = "x86_64,x86";
	else if (!strcmp(o->abi, "arm64-v8a"))
		abilist = "arm64-v8a,armeabi-v7a,armeabi";
	else
		abilist = o->abi;
	simkv_set(&dev->props, "ro.product.cpu.abilist", abilist);
	simkv_set(&dev->props, "ro.serialno", o->serialno);
	simkv_set(&dev->props, "ro.boot.serialno", o->serialno);
	simkv_set(&dev->props, "ro.debuggable", "1");
	simkv_set(&dev->props, "ro.secure", "1");
	simkv_set(&dev->props, "ro.adb.secure",
	    o->auth == SIMDEV_AUTH_NONE ? "0" : "1");
	simkv_set(&dev->props, "ro.product.locale", "en-US");
	s = xasprintf("%d", o->density);
	simkv_set(&dev->props, "ro.sf.lcd_density", s);
	free(s);
	simkv_set(&dev->props, "ro.opengles.version", "196610");
	simkv_set(&dev->props, "persist.sys.timezone", "UTC");
	simkv_set(&dev->props, "sys.boot_completed", "1");
	simkv_set(&dev->props, "dev.bootcomplete", "1");
	simkv_set(&dev->props, "init.svc.bootanim", "stopped");
	simkv_set(&dev->props, "init.svc.adbd", "running");
	simkv_set(&dev->props, "sys.usb.state", "adb");
	simkv_set(&dev->props, "persist.sys.usb.config", "adb");
}

static void
set_settings(struct simdev *dev, const struct simdev_opts *o)
{
	const char *scale = o->animation_scale ? o->animation_scale : "1.0";

	simkv_set(&dev->settings, "global/animator_duration_scale", scale);
	simkv_set(&dev->settings, "global/transition_animation_scale", scale);
	simkv_set(&dev->settings, "global/window_animation_scale", scale);
	simkv_set(&dev->settings, "global/adb_enabled", "1");
	simkv_set(&dev->settings, "global/development_settings_enabled", "1");
	simkv_set(&dev->settings, "global/stay_on_while_plugged_in", "0");
	simkv_set(&dev->settings, "system/screen_brightness", "102");
	simkv_set(&dev->settings, "system/screen_off_timeout", "60000");
}

static int
preload_file(struct simdev *dev, const char *spec)
{
	struct strbuf sb = STRBUF_INIT, dir = STRBUF_INIT;
	const char *eq = strchr(spec, '=');
	char *devpath, *slash;
	int ret;

	if (!eq || eq == spec || !eq[1])
		return jg_error_set(JG_EINVAL,
		    "bad --file '%s' (want DEVPATH=LOCALPATH)", spec);
	ret = file_read(&sb, eq + 1);
	if (ret)
		goto out;
	devpath = xstrndup(spec, (size_t)(eq - spec));
	simfs_normalize(&dir, devpath);
	slash = strrchr(dir.buf, '/');
	if (slash != dir.buf) {
		strbuf_setlen(&dir, (size_t)(slash - dir.buf));
		simfs_mkdir(dev->fs, dir.buf, 0, 1);
	}
	ret = simfs_write(dev->fs, devpath, sb.buf, sb.len, 0, 0);
	if (ret)
		ret = jg_error_errno(JG_EINVAL, -ret, "cannot preload '%s'",
		    devpath);
	free(devpath);
out:
	strbuf_release(&sb);
	strbuf_release(&dir);
	return ret;
}

static int
preload_apk(struct simdev *dev, const char *path)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int ret;

	ret = file_read(&sb, path);
	if (!ret && packages_install(dev, sb.buf, sb.len,
	    PACKAGES_DOWNGRADE | PACKAGES_NO_FAULTS, &why))
		ret = jg_error_set(JG_EINVAL, "cannot install '%s': %s",
		    path, why.buf);
	strbuf_release(&sb);
	strbuf_release(&why);
	return ret;
}

/*
 * The wall clock runs with the device clock at a fixed offset: the host's
 * real time, or --epoch (a virtual clock defaults to 2024-11-05 14:00 UTC
 * so that its outputs are the same bytes on every run).
 */
static void
set_wall_clock(struct simdev *dev, const struct simdev_opts *o)
{
	struct timespec rt;
	long long epoch_s = o->epoch_s;

	if (epoch_s < 0 && dev->virtual_clock)
		epoch_s = VIRTUAL_EPOCH;
	if (epoch_s >= 0) {
		dev->wall_offset_ns = epoch_s * NSEC - dev->start_ns;
		return;
	}
	clock_gettime(CLOCK_REALTIME, &rt);
	dev->wall_offset_ns = (long long)rt.tv_sec * NSEC +
	    (long long)rt.tv_nsec - dev->start_ns;
}

int
simdev_new(struct simdev **out, const struct simdev_opts *o)
{
	struct simdev *dev = xcalloc(1, sizeof(*dev));
	size_t i;
	int ret = 0;

	dev->sdk = o->sdk;
	dev->features = xstrdup(o->features);
	dev->auth = o->auth;
	dev->proto_version = o->proto_version;
	dev->maxdata = o->maxdata;
	if (o->nr_tcp) {
		dev->tcp = xcalloc(o->nr_tcp, sizeof(*dev->tcp));
		memcpy(dev->tcp, o->tcp, o->nr_tcp * sizeof(*dev->tcp));
		dev->nr_tcp = o->nr_tcp;
	}
	dev->control_path = o->control_path ? xstrdup(o->control_path) : NULL;
	faults_init(&dev->faults);
	faults_copy(&dev->faults, &o->faults);
	clock_gettime(CLOCK_MONOTONIC, &dev->started);
	dev->clock_scale = o->clock_scale > 0 ? o->clock_scale : 1.0;
	dev->virtual_clock = o->virtual_clock;
	dev->vclock_ns = (long long)(o->uptime_s * 1e9);
	dev->start_ns = dev->vclock_ns;
	set_wall_clock(dev, o);
	dev->seed = o->seed;
	dev->refresh_hz = o->refresh_hz;
	dev->width = o->width;
	dev->height = o->height;
	dev->density = o->density;
	dev->battery = o->battery;
	dev->thermal = o->thermal;
	dev->thermal_rise_at_ms = o->thermal_rise_at_ms;
	dev->thermal_rise_to = o->thermal_rise_to;
	dev->drop_at_ms = o->drop_at_ms;
	dev->boot_ahead_ns = o->slept_ms * 1000000LL;
	dev->trace = simtrace_new();
	dev->libs = o->libs ? xstrdup(o->libs) : NULL;
	simkv_init(&dev->props);
	simkv_init(&dev->settings);
	dev->fs = simfs_new();
	pthread_mutex_init(&dev->lock, NULL);
	pthread_mutex_init(&dev->log_lock, NULL);
	pthread_mutex_init(&dev->clock_lock, NULL);
	dev->next_app_uid = 10100;
	*out = NULL;

	set_identity(dev, o);
	set_settings(dev, o);
	ret = simapps_new(&dev->apps, dev, o);
	if (ret)
		goto out;
	for (i = 0; i < o->nr_props; i++) {
		const char *eq = strchr(o->props[i], '=');
		char *key;

		if (!eq || eq == o->props[i]) {
			ret = jg_error_set(JG_EINVAL,
			    "bad --prop '%s' (want KEY=VALUE)", o->props[i]);
			goto out;
		}
		key = xstrndup(o->props[i], (size_t)(eq - o->props[i]));
		simkv_set(&dev->props, key, eq + 1);
		free(key);
	}
	for (i = 0; i < sizeof(std_dirs) / sizeof(std_dirs[0]); i++) {
		simfs_mkdir(dev->fs, std_dirs[i].path, std_dirs[i].perm, 1);
		simfs_chown(dev->fs, std_dirs[i].path, std_dirs[i].uid,
		    std_dirs[i].gid, 0);
	}
	packages_add_system(dev);
	for (i = 0; !ret && i < o->nr_files; i++)
		ret = preload_file(dev, o->files[i]);
	for (i = 0; !ret && i < o->nr_installs; i++)
		ret = preload_apk(dev, o->installs[i]);
	if (!ret && o->log_path) {
		dev->log = fopen(o->log_path, "a");
		if (!dev->log)
			ret = jg_error_errno(JG_EIO, errno, "cannot open '%s'",
			    o->log_path);
	}
out:
	if (ret)
		simdev_free(dev);
	else
		*out = dev;
	return ret;
}

void
simdev_free(struct simdev *dev)
{
	if (!dev)
		return;
	simapps_free(dev->apps);
	packages_release(dev);
	sessions_release(dev);
	simfs_free(dev->fs);
	simkv_release(&dev->props);
	simkv_release(&dev->settings);
	faults_release(&dev->faults);
	if (dev->log)
		fclose(dev->log);
	pthread_mutex_destroy(&dev->lock);
	pthread_mutex_destroy(&dev->log_lock);
	pthread_mutex_destroy(&dev->clock_lock);
	free(dev->perfetto_out);
	simtrace_free(dev->trace);
	free(dev->libs);
	free(dev->features);
	free(dev->tcp);
	free(dev->control_path);
	free(dev);
}

void
simdev_lock(struct simdev *dev)
{
	pthread_mutex_lock(&dev->lock);
}

void
simdev_unlock(struct simdev *dev)
{
	pthread_mutex_unlock(&dev->lock);
}

long long
simdev_now_ns(struct simdev *dev)
{
	struct timespec now;
	long long ns;

	if (dev->virtual_clock) {
		pthread_mutex_lock(&dev->clock_lock);
		ns = dev->vclock_ns;
		pthread_mutex_unlock(&dev->clock_lock);
		return ns;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (long long)(now.tv_sec - dev->started.tv_sec) * NSEC +
	    (long long)(now.tv_nsec - dev->started.tv_nsec);
	if (dev->clock_scale != 1.0)
		ns = (long long)((double)ns * dev->clock_scale);
	return dev->start_ns + ns;
}

double
simdev_uptime_ms(struct simdev *dev)
{
	return (double)simdev_now_ns(dev) / 1e6;
}

long long
simdev_wall_ns(struct simdev *dev, long long mono_ns)
{
	return mono_ns + dev->wall_offset_ns;
}

int
simdev_spend(struct simdev *dev, struct simio *io, double ms)
{
	if (!dev->virtual_clock)
		return simio_sleep(io, ms / dev->clock_scale);
	if (ms > 0) {
		pthread_mutex_lock(&dev->clock_lock);
		dev->vclock_ns += (long long)(ms * 1e6);
		pthread_mutex_unlock(&dev->clock_lock);
	}
	return simio_closed(io) ? -1 : 0;
}

int
simdev_thermal(struct simdev *dev)
{
	long long since = simdev_now_ns(dev) - dev->start_ns;

	if (dev->thermal_rise_at_ms >= 0 && dev->thermal_rise_to >
	    dev->thermal && since >= dev->thermal_rise_at_ms * 1000000LL)
		return dev->thermal_rise_to;
	return dev->thermal;
}

void
simdev_faults(struct simdev *dev, struct faults *out)
{
	faults_copy(out, &dev->faults);
	if (dev->control_path && faults_load(out, dev->control_path))
		simdev_warn("%s", jg_error_msg());
}

void
simdev_log(struct simdev *dev, const char *kind, const char *text)
{
	const char *p;

	if (!dev->log)
		return;
	pthread_mutex_lock(&dev->log_lock);
	fprintf(dev->log, "%.3f %s ", simdev_uptime_ms(dev), kind);
	for (p = text; *p; p++) {
		if (*p == '\n')
			fputs("\\n", dev->log);
		else if (*p == '\\')
			fputs("\\\\", dev->log);
		else
			fputc(*p, dev->log);
	}
	fputc('\n', dev->log);
	fflush(dev->log);
	pthread_mutex_unlock(&dev->log_lock);
}

void
simdev_warn(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addstr(&sb, "simdevice: ");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

void
simdev_uid_name(struct strbuf *out, unsigned int uid)
{
	switch (uid) {
	case 0:
		strbuf_addstr(out, "root");
		break;
	case 1000:
		strbuf_addstr(out, "system");
		break;
	case 1015:
		strbuf_addstr(out, "sdcard_rw");
		break;
	case 2000:
		strbuf_addstr(out, "shell");
		break;
	case 9997:
		strbuf_addstr(out, "everybody");
		break;
	default:
		if (uid >= 10000 && uid < 20000)
			strbuf_addf(out, "u0_a%u", uid - 10000);
		else
			strbuf_addf(out, "%u", uid);
	}
}
