/*
 * cmd_run.c: `jankgate run`, the argv layer over run_execute() (run.h).
 *
 * Parses the options into a struct run_opts and runs; its stop hook is
 * run_interrupt(), so SIGINT and SIGTERM ask the run to stop (what was
 * measured is written with complete: false and the status is 3).  It
 * prints what went wrong
 * and, on stdout, the results files written, one per line, so a script
 * can pick them up.  Progress goes to stderr: live lines on a terminal,
 * timestamped lines elsewhere, none with -q.
 *
 * Exit status: run.h (0 done, 2 bad usage, configuration or scenario,
 * 3 no device, a device refused or lost, no room for the results, or
 * interrupted).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "results.h"
#include "run.h"
#include "strlist.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate run [-s SERIAL]... [--connect HOST:PORT]... "
	"[--scenario NAME]... [--test-command CMD] [-n N] [--warmups N] "
	"[-o DIR] [--append] [--shard I/N] [--build-id ID]",
	NULL
};

static const char options[] =
	"  -s SERIAL           use this device (repeatable; default:\n"
	"                      devices.serials, else every attached device)\n"
	"  --connect HOST:PORT `adb connect` a network device first\n"
	"                      (repeatable, after devices.connect)\n"
	"  --scenario NAME     run only this scenario (repeatable; the file\n"
	"                      name without .scn)\n"
	"  --test-command CMD  run, instead of the configured scenarios, one\n"
	"                      named test-command: `exec CMD` (a host command\n"
	"                      such as 'maestro test flow.yaml'; words split\n"
	"                      as on a scenario line)\n"
	"  -n N                measured iterations per scenario (default:\n"
	"                      iterations)\n"
	"  --warmups N         warm-up iterations before them (default:\n"
	"                      warmups)\n"
	"  -o, --output DIR    where results go (default: out_dir); each\n"
	"                      device writes DIR/<device-key>/results.json\n"
	"  --append            add the iterations to the results already in\n"
	"                      DIR instead of starting new files\n"
	"  --shard I/N         run the I-th of N shares of the (device,\n"
	"                      scenario) pairs: pair k = device * scenarios\n"
	"                      + scenario, in serial and config order, goes\n"
	"                      to shard k mod N + 1\n"
	"  --build-id ID       the build measured, as CI names it, written\n"
	"                      to the results (default: build_id)\n"
	"Prints the results files written, one per line.  Progress goes to\n"
	"stderr (a live line per device on a terminal); SIGINT or SIGTERM\n"
	"stops input, writes what was measured with complete: false and\n"
	"force-stops the app.\n"
	"Exit status: 0 done (failed iterations are in the results), 2 bad\n"
	"usage, configuration or scenario (also coordinates off a device's\n"
	"screen), 3 no device, a device refused by its hygiene limits,\n"
	"install or versionCode check failed, device lost, every measured\n"
	"iteration of a scenario failed, no room for the results in DIR\n"
	"or a results file not written, or interrupted.\n";

/* A count option: 1..1000 (iterations) or 0..1000 (warm-ups). */
static int
parse_count(const char *s, int min, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < min || v > 1000)
		return -1;
	*out = (int)v;
	return 0;
}

struct run_args {
	struct run_opts o;
	const char *out_dir;
	const char *build_id;	/* --build-id */
};

static int
parse_args(struct run_opts *o, int argc, char **argv, const char **out_dir,
    const char **build_id)
{
	static const struct option longopts[] = {
		{ "connect", required_argument, NULL, 'C' },
		{ "scenario", required_argument, NULL, 'S' },
		{ "warmups", required_argument, NULL, 'W' },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, 'A' },
		{ "shard", required_argument, NULL, 'H' },
		{ "test-command", required_argument, NULL, 'T' },
		{ "build-id", required_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = &cmd_run;
	int opt;

	while ((opt = getopt_long(argc, argv, "+" CMD_COMMON_SHORTOPTS
	    "s:n:o:", longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		switch (opt) {
		case 's':
			strlist_add(&o->serials, optarg);
			break;
		case 'C':
			strlist_add(&o->connect, optarg);
			break;
		case 'S':
			strlist_add(&o->scenarios, optarg);
			break;
		case 'T':
			o->test_command = optarg;
			break;
		case 'I':
			*build_id = optarg;
			break;
		case 'n':
			if (parse_count(optarg, 1, &o->iterations))
				return cmd_usage_error(self, "bad -n '%s': "
				    "expected 1 to 1000 iterations", optarg);
			break;
		case 'W':
			if (parse_count(optarg, 0, &o->warmups))
				return cmd_usage_error(self, "bad --warmups "
				    "'%s': expected 0 to 1000", optarg);
			break;
		case 'o':
			*out_dir = optarg;
			break;
		case 'A':
			o->append = true;
			break;
		case 'H':
			if (run_parse_shard(optarg, &o->shard_index,
			    &o->shard_count))
				return cmd_usage_error(self, "%s",
				    jg_error_msg());
			break;
		default:
			return cmd_usage_error(self, NULL);
		}
	}
	if (optind < argc)
		return cmd_usage_error(self, "unexpected argument '%s'",
		    argv[optind]);
	if (o->test_command && o->scenarios.nr)
		return cmd_usage_error(self, "--scenario and --test-command "
		    "cannot be combined: the test command is the only "
		    "scenario run");
	return 0;
}

static void
print_report(const struct run_report *rep)
{
	for (size_t i = 0; i < rep->errors.nr; i++)
		diag_error("%s", rep->errors.items[i]);
	for (size_t i = 0; i < rep->nr_devices; i++) {
		const struct run_device_report *d = &rep->devices[i];

		/* Worker errors were shown as progress; repeat them for -q. */
		for (size_t j = 0; j < d->errors.nr; j++)
			diag_error("%s: %s", d->serial, d->errors.items[j]);
		if (d->results_path)
			printf("%s\n", d->results_path);
		if (d->results_path && !d->complete)
			diag_warn("%s: results are incomplete (complete: "
			    "false)", d->serial);
	}
	/* Last, so they are not lost above the progress lines. */
	for (size_t i = 0; i < rep->nr_devices; i++) {
		const struct run_device_report *d = &rep->devices[i];

		for (size_t j = 0; j < d->warnings.nr; j++)
			diag_warn("%s: %s", d->serial, d->warnings.items[j]);
	}
	fflush(stdout);
}

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct run_args *a = args;

	run_opts_init(&a->o);
	return parse_args(&a->o, argc, argv, &a->out_dir, &a->build_id);
}

static int
run(void *args, const struct config *cfg)
{
	struct run_args *a = args;
	struct run_report rep;
	int status;

	a->o.build_id = a->build_id ? a->build_id : cfg->build_id;
	if (a->o.build_id && results_build_id_check(a->o.build_id))
		return cmd_usage_error(&cmd_run, "%s", jg_error_msg());
	run_report_init(&rep);
	a->o.cfg = cfg;
	a->o.out_dir = a->out_dir;
	a->o.progress = diag_level() == DIAG_QUIET ? RUN_PROGRESS_NONE :
	    RUN_PROGRESS_AUTO;
	a->o.progress_fp = stderr;
	status = run_execute(&a->o, &rep);
	run_unlock_devices();
	if (run_interrupted())
		diag_error("interrupted: results so far are written with "
		    "complete: false");
	print_report(&rep);
	run_report_release(&rep);
	return status;
}

static void
release(void *args)
{
	struct run_args *a = args;

	run_opts_release(&a->o);
}

const struct command cmd_run = {
	.name = "run",
	.summary = "drive the app through the scenarios on every device, "
	    "measure it",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG | CMD_DEVICES,
	.args_size = sizeof(struct run_args),
	.parse = parse,
	.run = run,
	.release = release,
	.stop = run_interrupt,
};
