/*
 * simdev.h: the state of one simulated Android device.
 *
 * Everything a shell command or a service may look at or change lives in
 * struct simdev: system properties, settings, the file system, installed
 * packages, the monotonic clock, the fault set and the command log.  It is
 * deliberately not opaque: this is a test instrument's private header, and
 * the next layers (the app model, dumpsys, logcat...) add their own fields
 * here.  Locking: props, settings and fs lock themselves; packages and any
 * field added later without its own lock are guarded by `lock`
 * (simdev_lock/simdev_unlock).  Fixed fields are set before the first
 * connection and only read afterwards.
 */
#ifndef SIM_SIMDEV_H
#define SIM_SIMDEV_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "faults.h"
#include "simkv.h"

struct strbuf;
struct simfs;
struct simapps;
struct simio;
struct simsessions;

enum simdev_auth {
	SIMDEV_AUTH_NONE,	/* answer CNXN with CNXN */
	SIMDEV_AUTH_ACCEPT,	/* AUTH token, accept the first signature */
	SIMDEV_AUTH_REJECT,	/* refuse signatures and public keys */
	SIMDEV_AUTH_PUBKEY,	/* refuse signatures, accept the key */
};

/* A forwarded device port: connections to it reach a host port or echo. */
struct simdev_tcpmap {
	int devport;
	int hostport;		/* 0: an internal echo service */
};

/* Options as parsed by main.c; strings point into argv. */
struct simdev_opts {
	int sdk;
	const char *release, *model, *product, *device, *manufacturer;
	const char *brand, *fingerprint, *serialno, *abi;
	const char *features;
	enum simdev_auth auth;
	unsigned int proto_version, maxdata;
	double uptime_s;
	struct simdev_tcpmap *tcp;
	size_t nr_tcp, alloc_tcp;
	const char **props;	/* "KEY=VALUE" */
	size_t nr_props, alloc_props;
	const char **files;	/* "DEVPATH=LOCALPATH" */
	size_t nr_files, alloc_files;
	const char **installs;	/* local APK paths */
	size_t nr_installs, alloc_installs;
	const char *log_path, *control_path;
	struct faults faults;

	/* the phone (see README.md, "Options") */
	uint64_t seed;
	int refresh_hz;			/* 60, 90 or 120 */
	int width, height, density;
	int battery;			/* level, 0..100 */
	int thermal;			/* THERMAL_STATUS_*, 0..6 */
	long thermal_rise_at_ms;	/* after the start; < 0: never */
	int thermal_rise_to;
	const char *animation_scale;	/* the three global scales */
	const char *libs;		/* appmodel_set_libraries() spec */
	const char *truth_path;
	int virtual_clock;		/* the clock moves only with commands */
	double clock_scale;		/* device ms per host ms (real clock) */
	long long epoch_s;		/* wall clock at start (s); < 0: host */
	long drop_at_ms;		/* after the start; < 0: never */
	int logcat_loss;		/* percent of app lines lost */
	long long slept_ms;		/* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
};

struct simpkg {
	char *name;
	char *version_name;
	long long version_code;
	char *model_json;	/* the app model, as found in the APK */
	char *apk_path;		/* /data/app/<name>-1/base.apk */
	unsigned int uid;	/* 10000 + n for apps */
	double installed_ms;	/* device uptime at install */
	int system;		/* preinstalled, cannot be uninstalled */
	int debuggable;		/* the model's "debuggable": install -d may
				   replace it with an older build */
};

struct simdev {
	/* fixed after simdev_new() */
	int sdk;
	char *features;
	enum simdev_auth auth;
	unsigned int proto_version, maxdata;
	struct simdev_tcpmap *tcp;
	size_t nr_tcp;
	char *control_path;
	struct faults faults;		/* from the options */
	struct timespec started;	/* host CLOCK_MONOTONIC at the start */
	long long start_ns;		/* device clock at simdevice's start */
	double clock_scale;		/* device time per host time */
	long long wall_offset_ns;	/* wall clock - device clock */
	int virtual_clock;
	uint64_t seed;
	int refresh_hz;
	int width, height, density;	/* physical */
	int battery;
	int thermal, thermal_rise_to;
	long thermal_rise_at_ms;
	long drop_at_ms;
	long long boot_ahead_ns;	/* --slept-ms: boot clock - monotonic */
	char *libs;

	/* self-locking state */
	struct simkv props;
	struct simkv settings;		/* "system/x", "secure/x", ... */
	struct simfs *fs;

	/* guarded by `lock` */
	pthread_mutex_t lock;
	struct simpkg *pkgs;
	size_t nr_pkgs, alloc_pkgs;
	struct simsessions *sessions;	/* pm install sessions */
	unsigned int next_app_uid;
	struct simapps *apps;		/* app processes, logs, ground truth */
	int ov_width, ov_height;	/* `wm size WxH`; 0: none */
	int ov_density;			/* `wm density N`; 0: none */
	int perfetto_pid;		/* a `perfetto --background`; 0: none */
	char *perfetto_out;		/* where it writes its trace */
	struct simtrace *trace;		/* atrace's buffer (simtrace.h) */
	long long perfetto_ns;		/* when it started */
	int touch_down;			/* `input motionevent DOWN` seen */
	int touch_x, touch_y;
	long long touch_ns;

	pthread_mutex_t clock_lock;
	long long vclock_ns;		/* the virtual clock */

	pthread_mutex_t log_lock;
	FILE *log;
};

/* Fill `o` with the defaults (API 34, no faults). */
void simdev_opts_init(struct simdev_opts *o);
/* Free the option lists (not the argv strings they point to). */
void simdev_opts_release(struct simdev_opts *o);

/*
 * Build a device from `o`: properties, the standard directories, preloaded
 * files and packages.  Returns 0 and *out (freed with simdev_free), or a
 * JG_E* code with a message (unreadable file, bad APK, log not writable)
 * and *out = NULL.
 */
int simdev_new(struct simdev **out, const struct simdev_opts *o);
/* Free the device and all its state; NULL is a no-op. */
void simdev_free(struct simdev *dev);

/* Guard packages and lock-less fields; never held across a stream call. */
void simdev_lock(struct simdev *dev);
void simdev_unlock(struct simdev *dev);

/*
 * Milliseconds since the device "booted": --uptime plus the host's
 * CLOCK_MONOTONIC since the start times --clock-scale, or the virtual
 * clock (--clock virtual).
 */
double simdev_uptime_ms(struct simdev *dev);

/* The same clock in ns: the device's CLOCK_MONOTONIC (frames, logcat). */
long long simdev_now_ns(struct simdev *dev);

/* The device's wall clock (ns since the epoch, UTC) at monotonic `mono_ns`. */
long long simdev_wall_ns(struct simdev *dev, long long mono_ns);

/*
 * Let `ms` of device time pass for a command: sleep ms / --clock-scale on
 * the host clock, or move the virtual clock at once.  Returns 0, or -1 when the client went
 * away (as simio_sleep).
 */
int simdev_spend(struct simdev *dev, struct simio *io, double ms);

/* The thermal status now (--thermal, risen after --thermal-rise-at). */
int simdev_thermal(struct simdev *dev);

/*
 * The faults in force now: the options plus the control file, re-read on
 * every call.  `out` must be initialised; release it with faults_release.
 */
void simdev_faults(struct simdev *dev, struct faults *out);

/*
 * Append "<uptime ms> <kind> <text>" to the command log (no-op without
 * --log), newlines in `text` escaped, flushed at once.
 */
void simdev_log(struct simdev *dev, const char *kind, const char *text);

/* Print "simdevice: <message>" on stderr: the instrument's diagnostics. */
void simdev_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The owner name `ls -l` shows for a uid ("root", "shell", "u0_a12"). */
void simdev_uid_name(struct strbuf *out, unsigned int uid);

#endif
