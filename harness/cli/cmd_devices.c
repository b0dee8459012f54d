/*
 * cmd_devices.c: `jankgate devices`, what the adb server can reach.
 *
 * Lists every device the server knows, in the server's order, with what
 * jankgate will record about it: model, Android release and API level,
 * screen size, refresh rate and the device key baselines are filed under.
 * Devices that are offline or unauthorized are listed with their state and
 * nothing else, since they cannot be asked.  `--connect HOST:PORT` attaches a
 * network device (an emulator, a device-farm endpoint) first.
 *
 * Exit status: 0 when the list was produced (even if empty) and every
 * device in it is usable; 3 when the server cannot be reached, a connect
 * fails, a listed device stops answering, or one is offline or
 * unauthorized, so that a CI job can use `jankgate devices` as its
 * preflight check; 2 for bad usage.  The list is printed in every case.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "cmd.h"
#include "devprops.h"
#include "diag.h"
#include "jsonw.h"
#include "strbuf.h"
#include "strlist.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate devices [--json] [--connect HOST:PORT]...",
	NULL
};

static const char options[] =
	"  --json              print a JSON array instead of a table\n"
	"  --connect HOST:PORT `adb connect` a network device first\n"
	"                      (repeatable; emulators, device farms)\n"
	"The adb server is found at $ADB_SERVER_SOCKET (tcp:HOST:PORT),\n"
	"else 127.0.0.1:$ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037; a\n"
	"local server is started with `adb start-server` when adb is on\n"
	"PATH.\n";

/* The server sends "" for fields an unauthorized device never told it. */
static const char *
or_null(const char *s)
{
	return s && *s ? s : NULL;
}

struct row {
	const struct adb_device_info *info;
	struct device_props props;
	char *key;	/* NULL when the device could not be asked */
};

static void
print_table(const struct row *rows, size_t nr)
{
	printf("%-22s %-12s %-16s %-8s %-4s %-10s %-8s %s\n", "SERIAL",
	    "STATE", "MODEL", "ANDROID", "API", "SCREEN", "REFRESH", "KEY");
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		const struct device_props *p = &r->props;
		char api[16] = "-", screen[32] = "-", hz[16] = "-";

		if (p->sdk > 0)
			snprintf(api, sizeof(api), "%d", p->sdk);
		if (p->width > 0)
			snprintf(screen, sizeof(screen), "%dx%d", p->width,
			    p->height);
		if (p->refresh_hz > 0)
			snprintf(hz, sizeof(hz), "%.0f Hz", p->refresh_hz);
		const char *model = p->model ? p->model :
		    or_null(r->info->model) ? r->info->model : "-";
		const char *rel = p->release ? p->release : "-";
		struct strbuf m = STRBUF_INIT, v = STRBUF_INIT;

		/* Properties are the device's to choose: keep them inert. */
		utf8_add_printable(&m, model, strlen(model), 0);
		utf8_add_printable(&v, rel, strlen(rel), 0);
		printf("%-22s %-12s %-16s %-8s %-4s %-10s %-8s %s\n",
		    r->info->serial, r->info->state, m.buf, v.buf, api,
		    screen, hz, r->key ? r->key : "-");
		strbuf_release(&m);
		strbuf_release(&v);
	}
}

static void
print_json(const struct row *rows, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	struct jsonw w;

	jsonw_init(&w, &sb);
	jsonw_open(&w, NULL, '[');
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		const struct device_props *p = &r->props;

		jsonw_open(&w, NULL, '{');
		jsonw_str(&w, "serial", r->info->serial);
		jsonw_str(&w, "state", r->info->state);
		jsonw_str(&w, "model", p->model ? p->model :
		    or_null(r->info->model));
		jsonw_str(&w, "manufacturer", p->manufacturer);
		jsonw_str(&w, "product", or_null(r->info->product));
		jsonw_str(&w, "release", p->release);
		jsonw_num(&w, "sdk", p->sdk > 0 ? p->sdk : (double)NAN);
		jsonw_num(&w, "width", p->width > 0 ? p->width : (double)NAN);
		jsonw_num(&w, "height", p->height > 0 ? p->height :
		    (double)NAN);
		jsonw_num(&w, "refresh_hz", p->refresh_hz > 0 ? p->refresh_hz :
		    (double)NAN);
		jsonw_num(&w, "transport_id", r->info->transport_id > 0 ?
		    (double)r->info->transport_id : (double)NAN);
		jsonw_str(&w, "key", r->key);
		jsonw_close(&w, '}');
	}
	jsonw_close(&w, ']');
	jsonw_end(&w);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

struct devices_args {
	struct strlist connect;	/* --connect */
	int json;
};

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "connect", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 }
	};
	struct devices_args *a = args;
	int opt;

	while ((opt = getopt_long(argc, argv, "+" CMD_COMMON_SHORTOPTS,
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		if (opt == 'j')
			a->json = 1;
		else if (opt == 'C')
			strlist_add(&a->connect, optarg);
		else
			return cmd_usage_error(&cmd_devices, NULL);
	}
	if (optind < argc)
		return cmd_usage_error(&cmd_devices, "unexpected argument '%s'",
		    argv[optind]);
	return 0;
}

static int
run(void *args, const struct config *cfg)
{
	const struct devices_args *a = args;
	const struct strlist *connect = &a->connect;
	struct adb_device_list list = ADB_DEVICE_LIST_INIT;
	struct adb_server *srv = NULL;
	struct row *rows = NULL;
	int json = a->json, rc, status = EXIT_PASS;

	rc = adb_server_new(&srv, 0);
	if (rc) {
		diag_error_current();
		status = EXIT_BAD_INPUT;
		goto out;
	}
	for (size_t i = 0; i < connect->nr; i++) {
		if (adb_server_connect(srv, connect->items[i])) {
			diag_error_current();
			status = EXIT_INFRA;
			goto out;
		}
		diag_verbose("connected to %s", connect->items[i]);
	}
	if (adb_server_devices(srv, &list, 1)) {
		diag_error_current();
		status = EXIT_INFRA;
		goto out;
	}

	rows = xcalloc(list.nr ? list.nr : 1, sizeof(*rows));
	for (size_t i = 0; i < list.nr; i++) {
		struct row *r = &rows[i];
		struct adb_device *dev;
		struct strbuf key = STRBUF_INIT;

		r->info = &list.items[i];
		device_props_init(&r->props);
		if (!strcmp(r->info->state, "unauthorized")) {
			diag_error("device '%s' is unauthorized: accept the USB "
			    "debugging prompt on the device, or check the adb "
			    "keys in ~/.android", r->info->serial);
			status = EXIT_INFRA;
			continue;
		}
		if (strcmp(r->info->state, "device")) {
			diag_error("device '%s' is %s and cannot be used",
			    r->info->serial, r->info->state);
			status = EXIT_INFRA;
			continue;
		}
		dev = adb_device_new(srv, r->info->serial);
		if (device_props_query(&r->props, dev)) {
			diag_error_current();
			status = EXIT_INFRA;
		} else {
			device_props_key(&key, &r->props);
			r->key = strbuf_detach(&key, NULL);
		}
		adb_device_free(dev);
	}
	if (json)
		print_json(rows, list.nr);
	else
		print_table(rows, list.nr);
	/*
	 * A preflight on a runner whose phones are gone must not pass: no
	 * device is nothing to measure on (exit 3, as in run and gate).
	 */
	if (!list.nr) {
		diag_error("no device attached to the adb server at %s: "
		    "connect a phone, or attach one with --connect",
		    adb_server_address(srv));
		status = EXIT_INFRA;
	}
	if (adb_server_started(srv))
		diag_info("started an adb server at %s; it keeps running "
		    "(adb -P PORT kill-server stops it)",
		    adb_server_address(srv));
out:
	for (size_t i = 0; rows && i < list.nr; i++) {
		device_props_release(&rows[i].props);
		free(rows[i].key);
	}
	free(rows);
	adb_device_list_release(&list);
	adb_server_free(srv);
	return status;
}

static void
release(void *args)
{
	struct devices_args *a = args;

	strlist_release(&a->connect);
}

const struct command cmd_devices = {
	.name = "devices",
	.summary = "list the devices the adb server can reach, with their "
	    "device key",
	.usage = usage,
	.options = options,
	.needs = CMD_DEVICES,
	.args_size = sizeof(struct devices_args),
	.parse = parse,
	.run = run,
	.release = release,
};
