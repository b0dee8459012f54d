/*
 * cmd_help.c: `jankgate help [COMMAND]` and the text of `--help`.
 *
 * Both are built from the command table, so a command appears in the help
 * exactly when it is in the table.
 */
#include <stdio.h>

#include "cmd.h"
#include "diag.h"
#include "banned.h"

void
cmd_print_help(FILE *fp)
{
	for (const char *const *u = jankgate_usage; *u; u++)
		fprintf(fp, "%s %s\n", u == jankgate_usage ? "usage:" : "   or:",
		    *u);
	fputs("\nGlobal options:\n"
	    "  -c FILE     configuration file (default: $JANKGATE_CONFIG,\n"
	    "              then ./jankgate.json)\n"
	    "  -v          more diagnostics\n"
	    "  -q          no progress or informational messages\n"
	    "  --version   print the version and exit\n"
	    "  --help      print this help and exit\n"
	    "\nCommands:\n", fp);
	for (const struct command *c = commands; c->name; c++)
		fprintf(fp, "  %-10s  %s\n", c->name, c->summary);
	fputs("\nSee 'jankgate help COMMAND' and jankgate(1).\n", fp);
}

int
cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		cmd_print_help(stdout);
		return EXIT_PASS;
	}
	if (argc > 2)
		return cmd_usage_error(command_find("help"), "too many arguments");
	c = command_find(argv[1]);
	if (!c) {
		diag_error("'%s' is not a jankgate command; see 'jankgate "
		    "--help'", argv[1]);
		return EXIT_BAD_INPUT;
	}
	for (const char *const *u = c->usage; *u; u++)
		printf("%s %s\n", u == c->usage ? "usage:" : "   or:", *u);
	printf("\n%s\n", c->summary);
	if (c->options && *c->options)
		printf("\n%s", c->options);
	return EXIT_PASS;
}

