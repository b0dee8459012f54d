/*
 * cmd_run.c: `jankgate run`, the argv layer over run_execute() (run.h).
 *
 * Parses the options into a struct run_opts, installs the SIGINT/SIGTERM
 * handlers that ask the run to stop (what was measured is written with
 * complete: false and the status is 3), runs, and prints what went wrong
 * and, on stdout, the results files written, one per line, so a script
 * can pick them up.  Progress goes to stderr: live lines on a terminal,
 * timestamped lines elsewhere, none with -q.
 *
 * Exit status: run.h (0 done, 2 bad usage, configuration or scenario,
 * 3 no device, a device refused or lost, or interrupted).
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "run.h"
#include "strlist.h"
#include "banned.h"

static void
on_signal(int sig)
{
	(void)sig;
	run_interrupt();
}

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

static int
parse_args(struct run_opts *o, int argc, char **argv, const char **out_dir)
{
	static const struct option longopts[] = {
		{ "connect", required_argument, NULL, 'C' },
		{ "scenario", required_argument, NULL, 'S' },
		{ "warmups", required_argument, NULL, 'W' },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, 'A' },
		{ "shard", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = command_find("run");
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

int
cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct run_report rep;
	struct config *cfg = NULL;
	struct sigaction sa, old_int, old_term;
	const char *out_dir = NULL;
	int status;

	run_opts_init(&o);
	run_report_init(&rep);
	status = parse_args(&o, argc, argv, &out_dir);
	if (status || (status = cmd_load_config(&cfg)))
		goto out;
	o.cfg = cfg;
	o.out_dir = out_dir;
	o.progress = diag_level() == DIAG_QUIET ? RUN_PROGRESS_NONE :
	    RUN_PROGRESS_AUTO;
	o.progress_fp = stderr;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	status = run_execute(&o, &rep);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (run_interrupted())
		diag_error("interrupted: results so far are written with "
		    "complete: false");
	print_report(&rep);
out:
	run_report_release(&rep);
	run_opts_release(&o);
	config_free(cfg);
	return status;
}
