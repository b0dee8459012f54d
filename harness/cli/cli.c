/*
 * cli.c: what the cmd_*.c files share (cmd.h): the options every command
 * takes, the usage error, a command's help, and opening the baseline
 * store with advice.  It knows no command by name; the table and the
 * dispatcher are commands.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "strbuf.h"
#include "banned.h"

struct jg_opts jg_opts;

int
cmd_common_option(int opt, const char *arg)
{
	switch (opt) {
	case 'c':
		jg_opts.config_path = arg;
		return 1;
	case 'v':
		diag_set_level(DIAG_VERBOSE);
		return 1;
	case 'q':
		diag_set_level(DIAG_QUIET);
		return 1;
	default:
		return 0;
	}
}

int
cmd_usage_error(const struct command *cmd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		diag_error("%s", sb.buf);
	}
	for (const char *const *u = cmd->usage; *u; u++)
		fprintf(stderr, "%s %s\n",
		    u == cmd->usage ? "usage:" : "   or:", *u);
	strbuf_release(&sb);
	return EXIT_BAD_INPUT;
}

void
cmd_print_command_help(const struct command *c)
{
	for (const char *const *u = c->usage; *u; u++)
		printf("%s %s\n", u == c->usage ? "usage:" : "   or:", *u);
	printf("\n%s\n", c->summary);
	if (c->options && *c->options)
		printf("\n%s", c->options);
}

int
cmd_baseline_open(struct baseline_store **out, const struct config *cfg,
    const char *repo)
{
	int rc = baseline_open(out, &cfg->baseline, repo);

	/* The messages say how to make a missing repository (gate's too). */
	if (!rc)
		return 0;
	diag_error_current();
	return exit_status_for_lookup(rc);
}
