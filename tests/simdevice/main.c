/*
 * main.c: the simdevice program: options, then either serve the adb
 * transport until SIGTERM/SIGINT, or (--exec) run one shell command line
 * against the device model on stdin/stdout/stderr and exit with its status.
 *
 * Options are parsed into struct simdev_opts first; simdev_new() then
 * builds the device from them (curl's config-then-act split).  This is the
 * only file that prints usage or picks an exit code: 0 after a clean
 * shutdown, 1 on a runtime error, 2 on a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "error.h"
#include "faults.h"
#include "fileio.h"
#include "shell.h"
#include "simdev.h"
#include "simio.h"
#include "strbuf.h"
#include "transport.h"
#include "xalloc.h"
#include "banned.h"

static const char usage_text[] =
"usage: simdevice [--port N | --port-file FILE] [--bind ADDR] [options]\n"
"       simdevice --exec 'COMMAND LINE' [options]\n"
"\n"
"A simulated Android device that the real adb server attaches with\n"
"`adb connect 127.0.0.1:PORT`.  See tests/simdevice/README.md.\n"
"\n"
"Transport:\n"
"  --port N                 listen on port N (default: one the kernel picks)\n"
"  --port-file FILE         write the port to FILE once listening\n"
"  --bind ADDR              listen address (default 127.0.0.1)\n"
"  --features LIST          banner features (default shell_v2,cmd,stat_v2,\n"
"                           ls_v2,fixed_push_mkdir,apex,abb,abb_exec,\n"
"                           fixed_push_symlink_timestamp)\n"
"  --no-shell-v2            drop shell_v2 from the features\n"
"  --auth MODE              none|accept|reject|pubkey (default none)\n"
"  --protocol-version V     0x01000000 (checksums) or 0x01000001 (default)\n"
"  --maxdata N              max payload advertised (default 1048576)\n"
"  --tcp-map DEV=HOST       device port DEV is host port HOST, or 'echo'\n"
"Identity:\n"
"  --sdk N                  API level 24..34 (default 34)\n"
"  --release R              ro.build.version.release (default from --sdk)\n"
"  --model M  --product P  --device D  --manufacturer M  --brand B\n"
"  --fingerprint F  --serialno S  --abi A\n"
"  --prop KEY=VALUE         set any property (repeatable)\n"
"Phone:\n"
"  --seed N                 random seed of every app (default 1)\n"
"  --refresh-rate HZ        display refresh rate, 60|90|120 (default 60)\n"
"  --size WxH  --width W  --height H   screen size (default 1080x2400)\n"
"  --density DPI            screen density (default 420)\n"
"  --battery LEVEL          battery level 0..100 (default 85)\n"
"  --thermal N              thermal status 0..6 (default 0)\n"
"  --thermal-rise-at MS     the status rises MS after the start\n"
"  --thermal-rise-to N      ... to N (default 3)\n"
"  --animation-scale X      the three animation scales (default 1.0)\n"
"  --libs SPEC              device libraries of every app, e.g.\n"
"                           matrix=2.0,blockcanary=1.5:external,perf\n"
"  --truth FILE             append the ground truth (JSON lines)\n"
"  --clock real|virtual     virtual: time moves only with commands\n"
"  --clock-scale X          real clock: X device seconds per host second\n"
"                           (default $JANKGATE_TEST_CLOCK_SCALE, else 1)\n"
"  --epoch SECONDS          wall clock at the start\n"
"State:\n"
"  --file DEVPATH=LOCAL     preload a file into the device (repeatable)\n"
"  --install APK            preinstall a package (repeatable)\n"
"  --uptime SECONDS         device uptime at start (default 3600)\n"
"  --slept-ms MS            time asleep before the start: the boot clock\n"
"                           (Realtime, atrace) runs MS ahead (default 0)\n"
"  --log FILE               append one line per command run\n"
"Faults (also as lines of the control file):\n"
"  --control FILE           fault file, re-read on every connection/stream\n"
"  --drop-after-packets N   --drop-on-command TEXT   --cnxn-delay-ms N\n"
"  --stall-wrte PREFIX      --refuse PREFIX          --pm-fail TEXT\n"
"  --crash-on TEXT          --anr-on TEXT            --slow-dumpsys-ms N\n"
"  --slow-dumpsys-on SERVICE   --atrace-fail TEXT\n"
"Faults (options only):\n"
"  --drop-at-ms MS          the device drops off MS after the start\n"
"  --logcat-loss[=PERCENT]  lose app log lines (default 10 percent)\n"
"Other:\n"
"  --exec LINE              run LINE on the device shell and exit\n"
"  --help                   this text\n";

enum {
	OPT_PORT = 256, OPT_PORT_FILE, OPT_BIND, OPT_FEATURES, OPT_NO_V2,
	OPT_AUTH, OPT_PROTO, OPT_MAXDATA, OPT_TCP_MAP, OPT_SDK, OPT_RELEASE,
	OPT_MODEL, OPT_PRODUCT, OPT_DEVICE, OPT_MANUFACTURER, OPT_BRAND,
	OPT_FINGERPRINT, OPT_SERIALNO, OPT_ABI, OPT_PROP, OPT_FILE,
	OPT_INSTALL, OPT_UPTIME, OPT_LOG, OPT_CONTROL, OPT_FAULT, OPT_EXEC,
	OPT_HELP, OPT_SEED, OPT_REFRESH, OPT_SIZE, OPT_WIDTH, OPT_HEIGHT,
	OPT_DENSITY, OPT_BATTERY, OPT_THERMAL, OPT_THERMAL_AT, OPT_THERMAL_TO,
	OPT_ANIM, OPT_LIBS, OPT_TRUTH, OPT_CLOCK, OPT_EPOCH, OPT_DROP_AT,
	OPT_LOSS, OPT_CLOCK_SCALE, OPT_SLEPT,
};

static const struct option long_opts[] = {
	{ "port", required_argument, NULL, OPT_PORT },
	{ "port-file", required_argument, NULL, OPT_PORT_FILE },
	{ "bind", required_argument, NULL, OPT_BIND },
	{ "features", required_argument, NULL, OPT_FEATURES },
	{ "no-shell-v2", no_argument, NULL, OPT_NO_V2 },
	{ "auth", required_argument, NULL, OPT_AUTH },
	{ "protocol-version", required_argument, NULL, OPT_PROTO },
	{ "maxdata", required_argument, NULL, OPT_MAXDATA },
	{ "tcp-map", required_argument, NULL, OPT_TCP_MAP },
	{ "sdk", required_argument, NULL, OPT_SDK },
	{ "release", required_argument, NULL, OPT_RELEASE },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "product", required_argument, NULL, OPT_PRODUCT },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "manufacturer", required_argument, NULL, OPT_MANUFACTURER },
	{ "brand", required_argument, NULL, OPT_BRAND },
	{ "fingerprint", required_argument, NULL, OPT_FINGERPRINT },
	{ "serialno", required_argument, NULL, OPT_SERIALNO },
	{ "abi", required_argument, NULL, OPT_ABI },
	{ "prop", required_argument, NULL, OPT_PROP },
	{ "file", required_argument, NULL, OPT_FILE },
	{ "install", required_argument, NULL, OPT_INSTALL },
	{ "uptime", required_argument, NULL, OPT_UPTIME },
	{ "slept-ms", required_argument, NULL, OPT_SLEPT },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "drop-after-packets", required_argument, NULL, OPT_FAULT },
	{ "drop-on-command", required_argument, NULL, OPT_FAULT },
	{ "cnxn-delay-ms", required_argument, NULL, OPT_FAULT },
	{ "stall-wrte", required_argument, NULL, OPT_FAULT },
	{ "refuse", required_argument, NULL, OPT_FAULT },
	{ "pm-fail", required_argument, NULL, OPT_FAULT },
	{ "atrace-fail", required_argument, NULL, OPT_FAULT },
	{ "crash-on", required_argument, NULL, OPT_FAULT },
	{ "anr-on", required_argument, NULL, OPT_FAULT },
	{ "slow-dumpsys-ms", required_argument, NULL, OPT_FAULT },
	{ "slow-dumpsys-on", required_argument, NULL, OPT_FAULT },
	{ "drop-at-ms", required_argument, NULL, OPT_DROP_AT },
	{ "logcat-loss", optional_argument, NULL, OPT_LOSS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "refresh-rate", required_argument, NULL, OPT_REFRESH },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "density", required_argument, NULL, OPT_DENSITY },
	{ "battery", required_argument, NULL, OPT_BATTERY },
	{ "thermal", required_argument, NULL, OPT_THERMAL },
	{ "thermal-rise-at", required_argument, NULL, OPT_THERMAL_AT },
	{ "thermal-rise-to", required_argument, NULL, OPT_THERMAL_TO },
	{ "animation-scale", required_argument, NULL, OPT_ANIM },
	{ "libs", required_argument, NULL, OPT_LIBS },
	{ "truth", required_argument, NULL, OPT_TRUTH },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "clock-scale", required_argument, NULL, OPT_CLOCK_SCALE },
	{ "epoch", required_argument, NULL, OPT_EPOCH },
	{ "exec", required_argument, NULL, OPT_EXEC },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct simdev_opts dev;
	int port;
	const char *port_file;
	const char *bind;
	const char *exec;
	int no_shell_v2;
	struct strbuf features;
};

static int
parse_long(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		return jg_error_set(JG_EINVAL, "bad value '%s' for --%s", s,
		    opt);
	*out = v;
	return 0;
}

static int
parse_tcp_map(struct simdev_opts *o, const char *s)
{
	const char *eq = strchr(s, '=');
	struct simdev_tcpmap m;
	long v;
	char *devport;
	int ret;

	if (!eq)
		return jg_error_set(JG_EINVAL, "bad --tcp-map '%s' "
		    "(want DEVPORT=HOSTPORT or DEVPORT=echo)", s);
	devport = xstrndup(s, (size_t)(eq - s));
	ret = parse_long("tcp-map", devport, 1, 65535, &v);
	free(devport);
	if (ret)
		return ret;
	m.devport = (int)v;
	if (!strcmp(eq + 1, "echo"))
		m.hostport = 0;
	else if ((ret = parse_long("tcp-map", eq + 1, 1, 65535, &v)))
		return ret;
	else
		m.hostport = (int)v;
	XALLOC_GROW(o->tcp, o->nr_tcp + 1, o->alloc_tcp);
	o->tcp[o->nr_tcp++] = m;
	return 0;
}

static int
parse_auth(const char *s, enum simdev_auth *out)
{
	static const char *const names[] = {
		"none", "accept", "reject", "pubkey",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum simdev_auth)i;
			return 0;
		}
	}
	return jg_error_set(JG_EINVAL, "bad --auth '%s' "
	    "(want none, accept, reject or pubkey)", s);
}

/* Drop "shell_v2" from the comma list in `sb`. */
static void
remove_feature(struct strbuf *sb, const char *name)
{
	struct strbuf out = STRBUF_INIT;
	char *save = NULL, *f;

	for (f = strtok_r(sb->buf, ",", &save); f;
	    f = strtok_r(NULL, ",", &save)) {
		if (!strcmp(f, name))
			continue;
		if (out.len)
			strbuf_addch(&out, ',');
		strbuf_addstr(&out, f);
	}
	strbuf_release(sb);
	*sb = out;
}

/* "1080x2400" */
static int
parse_size(struct simdev_opts *o, const char *s)
{
	char *x = strchr(s, 'x'), *w;
	long v;
	int ret;

	if (!x)
		return jg_error_set(JG_EINVAL, "bad --size '%s' (want WxH)", s);
	w = xstrndup(s, (size_t)(x - s));
	ret = parse_long("size", w, 1, 16384, &v);
	free(w);
	if (ret)
		return ret;
	o->width = (int)v;
	ret = parse_long("size", x + 1, 1, 16384, &v);
	o->height = (int)v;
	return ret;
}

/* An animation scale as Settings stores it: a plain decimal >= 0. */
static int
parse_scale(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v <= 10))
		return jg_error_set(JG_EINVAL, "bad --animation-scale '%s'", s);
	return 0;
}

/*
 * A clock scale: device time per host time, 0.01..1000.  The tests run
 * the phone faster than real time where what they check does not depend
 * on it (tests/e2e/runner.py); jankgate reads the same variable.
 */
static int
parse_clock_scale(const char *what, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0.01 && v <= 1000))
		return jg_error_set(JG_EINVAL, "bad %s '%s' (want a number "
		    "from 0.01 to 1000)", what, s);
	*out = v;
	return 0;
}

/* The options that describe the phone rather than the transport. */
static int
parse_phone_option(struct simdev_opts *o, int c, const char *name,
    const char *arg)
{
	long v = 0;
	int ret = 0;

	switch (c) {
	case OPT_SEED:
		ret = parse_long(name, arg, 0, LONG_MAX, &v);
		o->seed = (uint64_t)v;
		break;
	case OPT_REFRESH:
		ret = parse_long(name, arg, 1, 240, &v);
		o->refresh_hz = (int)v;
		break;
	case OPT_SIZE: ret = parse_size(o, arg); break;
	case OPT_WIDTH:
		ret = parse_long(name, arg, 1, 16384, &v);
		o->width = (int)v;
		break;
	case OPT_HEIGHT:
		ret = parse_long(name, arg, 1, 16384, &v);
		o->height = (int)v;
		break;
	case OPT_DENSITY:
		ret = parse_long(name, arg, 72, 960, &v);
		o->density = (int)v;
		break;
	case OPT_BATTERY:
		ret = parse_long(name, arg, 0, 100, &v);
		o->battery = (int)v;
		break;
	case OPT_THERMAL:
		ret = parse_long(name, arg, 0, 6, &v);
		o->thermal = (int)v;
		break;
	case OPT_THERMAL_AT:
		ret = parse_long(name, arg, 0, LONG_MAX, &v);
		o->thermal_rise_at_ms = v;
		break;
	case OPT_THERMAL_TO:
		ret = parse_long(name, arg, 0, 6, &v);
		o->thermal_rise_to = (int)v;
		break;
	case OPT_ANIM:
		ret = parse_scale(arg);
		o->animation_scale = arg;
		break;
	case OPT_LIBS: o->libs = arg; break;
	case OPT_TRUTH: o->truth_path = arg; break;
	case OPT_CLOCK:
		if (!strcmp(arg, "virtual"))
			o->virtual_clock = 1;
		else if (!strcmp(arg, "real"))
			o->virtual_clock = 0;
		else
			ret = jg_error_set(JG_EINVAL, "bad --clock '%s' "
			    "(want real or virtual)", arg);
		break;
	case OPT_CLOCK_SCALE:
		ret = parse_clock_scale("--clock-scale", arg, &o->clock_scale);
		break;
	case OPT_EPOCH:
		ret = parse_long(name, arg, 0, 4102444800L, &v);
		o->epoch_s = v;
		break;
	case OPT_SLEPT:
		ret = parse_long(name, arg, 0, LONG_MAX / 2000000, &v);
		o->slept_ms = v;
		break;
	case OPT_DROP_AT:
		ret = parse_long(name, arg, 0, LONG_MAX, &v);
		o->drop_at_ms = v;
		break;
	case OPT_LOSS:
		v = 10;
		if (arg)
			ret = parse_long(name, arg, 0, 100, &v);
		o->logcat_loss = (int)v;
		break;
	default:
		ret = JG_EINVAL;
	}
	return ret;
}

static int
parse_option(struct cli *cli, int c, const char *name, const char *arg)
{
	struct simdev_opts *o = &cli->dev;
	long v;
	int ret = 0;

	if (c >= OPT_SEED)
		return parse_phone_option(o, c, name, arg);
	switch (c) {
	case OPT_PORT:
		ret = parse_long(name, arg, 0, 65535, &v);
		cli->port = (int)v;
		break;
	case OPT_PORT_FILE: cli->port_file = arg; break;
	case OPT_BIND: cli->bind = arg; break;
	case OPT_FEATURES:
		strbuf_reset(&cli->features);
		strbuf_addstr(&cli->features, arg);
		break;
	case OPT_NO_V2: cli->no_shell_v2 = 1; break;
	case OPT_AUTH: ret = parse_auth(arg, &o->auth); break;
	case OPT_PROTO:
		ret = parse_long(name, arg, 0x01000000, 0x01000001, &v);
		o->proto_version = (unsigned int)v;
		break;
	case OPT_MAXDATA:
		ret = parse_long(name, arg, 4096, 1024 * 1024, &v);
		o->maxdata = (unsigned int)v;
		break;
	case OPT_TCP_MAP: ret = parse_tcp_map(o, arg); break;
	case OPT_SDK:
		ret = parse_long(name, arg, 24, 34, &v);
		o->sdk = (int)v;
		break;
	case OPT_RELEASE: o->release = arg; break;
	case OPT_MODEL: o->model = arg; break;
	case OPT_PRODUCT: o->product = arg; break;
	case OPT_DEVICE: o->device = arg; break;
	case OPT_MANUFACTURER: o->manufacturer = arg; break;
	case OPT_BRAND: o->brand = arg; break;
	case OPT_FINGERPRINT: o->fingerprint = arg; break;
	case OPT_SERIALNO: o->serialno = arg; break;
	case OPT_ABI: o->abi = arg; break;
	case OPT_PROP:
		XALLOC_GROW(o->props, o->nr_props + 1, o->alloc_props);
		o->props[o->nr_props++] = arg;
		break;
	case OPT_FILE:
		XALLOC_GROW(o->files, o->nr_files + 1, o->alloc_files);
		o->files[o->nr_files++] = arg;
		break;
	case OPT_INSTALL:
		XALLOC_GROW(o->installs, o->nr_installs + 1,
		    o->alloc_installs);
		o->installs[o->nr_installs++] = arg;
		break;
	case OPT_UPTIME:
		ret = parse_long(name, arg, 0, 10L * 365 * 86400, &v);
		o->uptime_s = (double)v;
		break;
	case OPT_LOG: o->log_path = arg; break;
	case OPT_CONTROL: o->control_path = arg; break;
	case OPT_FAULT: ret = faults_set(&o->faults, name, arg); break;
	case OPT_EXEC: cli->exec = arg; break;
	default:
		ret = JG_EINVAL;
	}
	return ret;
}

/* Block the stop signals and return an fd that becomes readable on one. */
static int
stop_signal_fd(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC);
}

static int
serve(struct cli *cli, struct simdev *dev)
{
	struct transport *t = NULL;
	int sfd, ret;

	sfd = stop_signal_fd();
	if (sfd < 0)
		return jg_error_errno(JG_EIO, errno, "signalfd");
	ret = transport_listen(&t, dev, cli->bind, cli->port);
	if (!ret && cli->port_file) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%d\n", transport_port(t));
		ret = file_write_atomic(cli->port_file, sb.buf, sb.len, 0644);
		strbuf_release(&sb);
	}
	if (!ret)
		ret = transport_serve(t, sfd);
	transport_free(t);
	close(sfd);
	return ret;
}

static int
run_exec(struct simdev *dev, const char *line)
{
	struct simsh sh;
	int status;

	memset(&sh, 0, sizeof(sh));
	sh.dev = dev;
	sh.chan = simchan_new_stdio();
	sh.kind = "local";
	status = simsh_run(&sh, line);
	simchan_free(sh.chan);
	return status;
}

int
main(int argc, char **argv)
{
	struct cli cli;
	struct simdev *dev = NULL;
	int c, idx, ret, status = 0;

	memset(&cli, 0, sizeof(cli));
	simdev_opts_init(&cli.dev);
	strbuf_init(&cli.features, 0);
	strbuf_addstr(&cli.features, cli.dev.features);
	cli.bind = "127.0.0.1";
	if (getenv("JANKGATE_TEST_CLOCK_SCALE") &&
	    *getenv("JANKGATE_TEST_CLOCK_SCALE") &&
	    parse_clock_scale("JANKGATE_TEST_CLOCK_SCALE",
	    getenv("JANKGATE_TEST_CLOCK_SCALE"), &cli.dev.clock_scale)) {
		fprintf(stderr, "simdevice: %s\n", jg_error_msg());
		status = 2;
		goto out;
	}
	while ((c = getopt_long(argc, argv, "", long_opts, &idx)) != -1) {
		if (c == OPT_HELP) {
			fputs(usage_text, stdout);
			goto out;
		}
		if (c == '?' || parse_option(&cli, c, long_opts[idx].name,
		    optarg)) {
			if (c != '?')
				fprintf(stderr, "simdevice: %s\n",
				    jg_error_msg());
			fputs(usage_text, stderr);
			status = 2;
			goto out;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "simdevice: unexpected argument '%s'\n",
		    argv[optind]);
		status = 2;
		goto out;
	}
	if (cli.no_shell_v2)
		remove_feature(&cli.features, "shell_v2");
	cli.dev.features = cli.features.buf;

	ret = simdev_new(&dev, &cli.dev);
	if (!ret && cli.exec)
		status = run_exec(dev, cli.exec);
	else if (!ret)
		ret = serve(&cli, dev);
	if (ret) {
		fprintf(stderr, "simdevice: %s\n", jg_error_msg());
		status = 1;
	}
out:
	simdev_free(dev);
	simdev_opts_release(&cli.dev);
	strbuf_release(&cli.features);
	return status;
}
