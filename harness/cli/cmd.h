/*
 * cmd.h: what main.c and the cmd_*.c files share.
 *
 * One command table (commands.c) names every subcommand, its entry point,
 * its usage lines (which must equal the man page SYNOPSIS; a unit test
 * checks) and its options.  Commands are `int cmd_foo(int argc, char **argv)`
 * returning the exit status; they alone print (through diag.h) and choose
 * exit codes.
 */
#ifndef JG_CMD_H
#define JG_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "exitstatus.h"

struct config;


struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *const *usage;	/* NULL-terminated synopsis lines */
	const char *summary;		/* one line for `jankgate --help` */
	const char *options;		/* option help for `jankgate help CMD` */
};

/* The table, in the order `--help` lists it; ends with a NULL name. */
extern const struct command commands[];
/* The synopsis of jankgate itself (global options), NULL-terminated. */
extern const char *const jankgate_usage[];

/* The command named `name`, or NULL. */
const struct command *command_find(const char *name);

/* Global options, set by main.c and by commands' own -c/-v/-q. */
struct jg_opts {
	const char *config_path;	/* -c FILE; NULL: the default */
};
extern struct jg_opts jg_opts;

/*
 * Handle an option every command accepts (-c FILE, -v, -q); returns 1 when
 * `opt` was one of them.
 */
int cmd_common_option(int opt, const char *arg);
/* The getopt short-option letters of cmd_common_option(). */
#define CMD_COMMON_SHORTOPTS "c:vq"

/*
 * Load the configuration named by -c / $JANKGATE_CONFIG / ./jankgate.json,
 * printing every problem.  Returns 0 with *out set, or the exit status to
 * return (2 for an invalid or missing file).
 */
int cmd_load_config(struct config **out);

/*
 * For commands that also work without a file: the configuration when one
 * is named (-c, $JANKGATE_CONFIG) or ./jankgate.json exists, else the
 * defaults with the JANKGATE_* environment.  Returns 0 with *out set, or
 * the exit status to return (2).
 */
int cmd_load_config_optional(struct config **out);

/*
 * Warn, once per variable, about JANKGATE_* variables that jankgate does
 * not read (a misspelt key), naming the nearest known one.  `cfg` may be
 * NULL.  cmd_load_config*() call it.
 */
void cmd_warn_environment(const struct config *cfg);

/*
 * Open the baseline store named by `repo` (--repo), else baseline.repo of
 * `cfg`, printing what went wrong.  Returns 0, or the exit status: 2 when
 * no repository is named or it does not exist, 3 when it cannot be reached.
 */
struct baseline_store;
int cmd_baseline_open(struct baseline_store **out, const struct config *cfg,
    const char *repo);

/* Print "usage: ..." for `cmd` to stderr and return EXIT_BAD_INPUT. */
int cmd_usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));


/* Print the usage, global options and command list of jankgate. */
void cmd_print_help(FILE *fp);

int cmd_baseline(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_mail(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);

#endif
