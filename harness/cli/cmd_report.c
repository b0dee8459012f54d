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

struct report_args {
	const char *out_dir;
	const char *repo;
};

static int
parse_args(struct report_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repo", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = command_find("report");
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
			return cmd_usage_error(self, NULL);
	}
	if (optind >= argc)
		return cmd_usage_error(self, "no comparison file given");
	return 0;
}

int
cmd_report(int argc, char **argv)
{
	struct report_args a = { "report", NULL };
	struct report_result res;
	struct report_opts o;
	struct baseline_trends trends;
	struct config *cfg = NULL;
	int status, rc;

	status = parse_args(&a, argc, argv);
	if (!status)
		status = cmd_load_config_optional(&cfg);
	if (status)
		goto out;
	o = (struct report_opts){
		.comparisons = (const char *const *)argv + optind,
		.nr_comparisons = (size_t)(argc - optind),
		.out_dir = a.out_dir,
		.title = cfg->report.title,
		.templates = cfg->report.templates,
	};
	/* Trend lines from the baseline repository, when there is one. */
	baseline_trends_init(&trends, &cfg->baseline, a.repo, NULL);
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
		if (report_ci(&res, a.out_dir, &ci))
			diag_warn("%s", jg_error_msg());
		printf("%s\n", res.html);
		for (size_t i = 0; i < ci.nr; i++)
			printf("%s\n", ci.items[i]);
		strlist_release(&ci);
	}
	report_result_release(&res);
out:
	config_free(cfg);
	return status;
}
