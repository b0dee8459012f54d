/*
 * cmd_report.c: `jankgate report`, the report files from comparisons.
 *
 * A thin layer over report_write() (report.h): parse the arguments, load
 * the configuration if there is one (report.title, report.templates,
 * report.history, baseline.*), write every format into DIR and print the
 * path of report.html.  Several comparison files (the shards of a suite,
 * the devices of a run) make one report.  What the report had to leave
 * out (no trend lines, a results file not found) is a warning, not a
 * failure.  In CI (report_ci()): summary.md is appended to
 * $GITHUB_STEP_SUMMARY when it is set, and with GITHUB_ACTIONS=true the
 * workflow commands (::error per regression and infrastructure failure,
 * ::warning per inconclusive metric and warning) follow the path on
 * stdout.
 *
 * The exit status says whether the report was written, not what it says
 * (that is `compare`'s and `gate`'s job): 0 written, 2 bad usage or a
 * missing or invalid comparison, results file or template, 3 the report
 * directory or a file in it could not be written.
 */
#include <getopt.h>
#include <stdio.h>

#include "baseline.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "report.h"
#include "strlist.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate report COMPARISON.json... [-o DIR] [--repo URL]",
	NULL
};

static const char options[] =
	"  -o, --output DIR    where to write (default: report)\n"
	"  --repo URL          the baseline repository, for trend lines\n"
	"                      (default: baseline.repo; none: no trends)\n"
	"  -c FILE             report.title, report.templates,\n"
	"                      report.history and baseline.* from this\n"
	"                      configuration (default: $JANKGATE_CONFIG,\n"
	"                      then ./jankgate.json if present)\n"
	"Several comparisons (shards, devices) make one report.  Writes\n"
	"report.html, email.html, email.txt, summary.md, junit.xml,\n"
	"metrics.txt, view.json and the comparisons into DIR; prints\n"
	"report.html's path.  With $GITHUB_STEP_SUMMARY set, summary.md is\n"
	"appended to it; with GITHUB_ACTIONS=true, ::error and ::warning\n"
	"workflow commands follow the path.\n"
	"Exit status: 0 written, 2 bad input (a missing or invalid\n"
	"comparison, results file or template), 3 DIR not writable.\n";

struct report_args {
	const char *out_dir;	/* -o; default "report" */
	const char *repo;
	const char *const *comparisons;
	size_t nr_comparisons;
};

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct report_args *a = args;
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repo", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS "o:",
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		if (opt == 'o')
			a->out_dir = optarg;
		else if (opt == 'R')
			a->repo = optarg;
		else
			return cmd_usage_error(&cmd_report, NULL);
	}
	if (optind >= argc)
		return cmd_usage_error(&cmd_report, "no comparison file given");
	if (!a->out_dir)
		a->out_dir = "report";
	a->comparisons = (const char *const *)argv + optind;
	a->nr_comparisons = (size_t)(argc - optind);
	return 0;
}

static int
run(void *args, const struct config *cfg)
{
	const struct report_args *a = args;
	struct report_result res;
	struct report_opts o;
	struct baseline_trends trends;
	int status = EXIT_PASS, rc;

	o = (struct report_opts){
		.comparisons = a->comparisons,
		.nr_comparisons = a->nr_comparisons,
		.out_dir = a->out_dir,
		.title = cfg->report.title,
		.templates = cfg->report.templates,
		/* The files were named by the user: refuse a value out of
		 * its limits by its key path (exit 2). */
		.strict = true,
	};
	/* Trend lines from the baseline repository, when there is one. */
	baseline_trends_init(&trends, &cfg->baseline, a->repo, NULL);
	if (trends.opts.repo && *trends.opts.repo)
		o.history = (struct report_history){ baseline_trends_load,
		    &trends, (size_t)cfg->report.history, cfg->baseline.ref };
	rc = report_write(&res, &o);
	baseline_trends_release(&trends);
	for (size_t i = 0; i < res.notes.nr; i++)
		diag_warn("%s", res.notes.items[i]);
	if (rc) {
		diag_error_current();
		status = rc == JG_EIO ? EXIT_INFRA : EXIT_BAD_INPUT;
	} else {
		struct strlist ci = STRLIST_INIT;

		diag_verbose("verdict: %s", exit_outcome_name(res.verdict));
		if (report_ci(&res, a->out_dir, &ci))
			diag_warn("%s", jg_error_msg());
		printf("%s\n", res.html);
		for (size_t i = 0; i < ci.nr; i++)
			printf("%s\n", ci.items[i]);
		strlist_release(&ci);
	}
	report_result_release(&res);
	return status;
}

const struct command cmd_report = {
	.name = "report",
	.summary = "write the HTML, mail, Markdown and JUnit reports of "
	    "comparisons",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG_OPTIONAL,
	.args_size = sizeof(struct report_args),
	.parse = parse,
	.run = run,
};
