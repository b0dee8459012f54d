/*
 * cmd_check.c: `jankgate check`, validate without touching anything.
 *
 * Like `httpd -n`: reads the configuration (and, once the scenario language
 * lands, every scenario it names), prints one line per problem, or
 * "configuration OK".  With results files named on the command line it
 * checks those instead (schema version, types), which is what a user runs
 * before feeding a file from another machine to compare or baseline.  It
 * opens no device, repository or network connection, so it is safe as a
 * pre-commit hook.
 */
#include <getopt.h>
#include <stdio.h>

#include "error.h"

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "results.h"
#include "banned.h"

static int
check_results(int nr, char **files)
{
	int status = EXIT_PASS;

	for (int i = 0; i < nr; i++) {
		struct results *r = NULL;
		int rc = results_read(&r, files[i]);

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

int
cmd_check(int argc, char **argv)
{
	const struct command *self = command_find("check");
	struct config *cfg = NULL;
	int opt, rc;

	while ((opt = getopt(argc, argv, "+" CMD_COMMON_SHORTOPTS)) != -1)
		if (!cmd_common_option(opt, optarg))
			return cmd_usage_error(self, NULL);
	if (optind < argc)
		return check_results(argc - optind, argv + optind);
	rc = cmd_load_config(&cfg);
	if (rc)
		return rc;
	printf("configuration OK\n");
	config_free(cfg);
	return EXIT_PASS;
}
