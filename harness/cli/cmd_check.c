/*
 * cmd_check.c: `jankgate check`, validate without touching anything.
 *
 * Like `httpd -n`: reads the configuration, every scenario it names and
 * every APK `apk` stands for (apkset.c: each must open as an APK of `app`,
 * a split set needs one base, an app bundle needs bundletool on PATH) and
 * the `test_apk` of `instrument` steps, as run checks it,
 * prints one line per problem ("FILE:LINE:COL: message" for scenarios),
 * or "configuration OK".  With results files named on the command line it
 * checks those instead (schema version, types, the limits of results.h),
 * which is what a user runs before feeding a file from another machine to
 * compare or baseline.  It opens no device, repository or network
 * connection, so it is safe as a pre-commit hook.  A valid configuration
 * that `gate` would still refuse for want of a baseline repository gets
 * a warning saying how to make one; it stays valid (exit 0): run and
 * check need none.  (markers.matrix without the matrix source, which
 * makes no scene, is the configuration's own warning, config.c: every
 * command that loads the file says it.)
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apkset.h"
#include "error.h"
#include "fileio.h"

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "results.h"
#include "run.h"
#include "scenario.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate check [-c FILE]",
	"jankgate check RESULTS.json...",
	NULL
};

static const char options[] =
	"  -c FILE   configuration file (default: $JANKGATE_CONFIG, then\n"
	"            ./jankgate.json)\n"
	"Prints one line per problem, or \"configuration OK\" (with a\n"
	"warning for what would be missing: gate's baseline repository,\n"
	"or the matrix source that markers.matrix reads).\n"
	"With RESULTS.json files, checks those instead: schema version,\n"
	"types and the limits of durations and counts; prints\n"
	"\"FILE: OK\" for each good one.\n";

static int
check_results(int nr, char *const *files)
{
	int status = EXIT_PASS;

	for (int i = 0; i < nr; i++) {
		struct results *r = NULL;
		/*
		 * Strict: check is what a user runs before handing a file
		 * on, so it refuses the values the lenient readers of the
		 * gate would drop (results.h, "Limits").
		 */
		int rc = results_read_strict(&r, files[i]);

		/* A missing or unreadable file the user named is bad input. */
		if (rc) {
			diag_plain("%s", jg_error_msg());
			status = EXIT_BAD_INPUT;
			continue;
		}
		printf("%s: OK (%s, %zu scenarios)\n", files[i], RS_SCHEMA,
		    r->nr_scenarios);
		results_free(r);
	}
	return status;
}

/*
 * Parse every scenario the config names; print each problem, in the
 * order of the files.  A file that cannot be read at all is an error
 * naming the key that names it, as run says it.
 */
static int
check_scenarios(const struct config *cfg)
{
	struct scenario **scns = xcalloc(cfg->scenarios.nr + 1, sizeof(*scns));
	size_t n = 0;
	int status = EXIT_PASS;

	for (size_t i = 0; i < cfg->scenarios.nr; i++) {
		struct strlist problems = STRLIST_INIT;
		struct scenario *scn = NULL;

		if (scenario_load(&scn, cfg->scenarios.items[i], &problems)) {
			status = EXIT_BAD_INPUT;
			if (!problems.nr)
				diag_error("%s: scenarios[%zu]: %s",
				    cfg->path, i, jg_error_msg());
		} else if (run_exec_check(scn, &problems)) {
			status = EXIT_BAD_INPUT;
		}
		for (size_t j = 0; j < problems.nr; j++)
			diag_plain("%s", problems.items[j]);
		strlist_release(&problems);
		if (scn)
			scns[n++] = scn;
	}
	/* The instrument steps' test APK, as run checks it. */
	if (run_check_test_apk(cfg, scns, n)) {
		diag_plain("%s", jg_error_msg());
		status = EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < n; i++)
		scenario_free(scns[i]);
	free(scns);
	return status;
}

/*
 * What a valid configuration still lacks for `gate`, as warnings: a
 * baseline repository, or a local one that does not exist.  Only its
 * existence is looked at (check opens no repository); remote ones are
 * gate's to reach.  Relative paths are already resolved (config.h).
 */
static void
warn_for_gate(const struct config *cfg)
{
	const char *repo = cfg->baseline.repo;

	if (!repo || !*repo) {
		diag_warn("%s: baseline.repo: not set, and gate needs a "
		    "baseline repository (to start one: 'git init --bare "
		    "baselines.git' beside the configuration and "
		    "\"baseline\": {\"repo\": \"baselines.git\"})", cfg->path);
		return;
	}
	if (!strncmp(repo, "file://", 7))
		repo += 7;
	else if (repo[0] != '/')
		return;		/* a URL or host:path */
	if (!file_exists(repo))
		diag_warn("%s: baseline.repo: '%s' does not exist, and gate "
		    "refuses it (to start one there, run 'git init --bare "
		    "%s')", cfg->path, repo, repo);
}

struct check_args {
	char **files;		/* RESULTS.json operands, or none */
	int nr_files;
};

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct check_args *a = args;
	int opt;

	while ((opt = getopt(argc, argv, "+" CMD_COMMON_SHORTOPTS)) != -1)
		if (!cmd_common_option(opt, optarg))
			return cmd_usage_error(&cmd_check, NULL);
	a->files = argv + optind;
	a->nr_files = argc - optind;
	/* Results files are checked alone: no configuration is read. */
	if (a->nr_files)
		*needs &= ~(unsigned)CMD_CONFIG;
	return 0;
}

static int
run(void *args, const struct config *cfg)
{
	const struct check_args *a = args;
	int rc;

	if (a->nr_files)
		return check_results(a->nr_files, a->files);
	rc = check_scenarios(cfg);
	if (cfg->apk.nr) {
		struct apkset set;

		/* Opened as run opens it, but an app bundle is not built. */
		if (apkset_open(&set, &cfg->apk, cfg->app, NULL)) {
			diag_plain("%s: apk: %s", cfg->path, jg_error_msg());
			rc = EXIT_BAD_INPUT;
		}
		apkset_release(&set);
	}
	if (!rc) {
		warn_for_gate(cfg);
		printf("configuration OK\n");
	}
	return rc;
}

const struct command cmd_check = {
	.name = "check",
	.summary = "validate the configuration without touching any device",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG,
	.args_size = sizeof(struct check_args),
	.parse = parse,
	.run = run,
};
