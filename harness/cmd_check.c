/*
 * cmd_check.c: `jankgate check`, validate without touching anything.
 *
 * Like `httpd -n`: reads the configuration (and, once the scenario language
 * lands, every scenario it names), prints one line per problem, or
 * "configuration OK".  It opens no device, repository or network connection,
 * so it is safe as a pre-commit hook.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "config.h"
#include "banned.h"

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
		return cmd_usage_error(self, "unexpected argument '%s'",
		    argv[optind]);
	rc = cmd_load_config(&cfg);
	if (rc)
		return rc;
	printf("configuration OK\n");
	config_free(cfg);
	return EXIT_PASS;
}
