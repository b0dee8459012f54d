/*
 * cmd.h: the command table, and what main.c and the cmd_*.c files share.
 *
 * Every subcommand is one file, cmd_foo.c, that defines one `const struct
 * command cmd_foo`: its name, its usage lines (which must equal the man
 * page SYNOPSIS; test_cli.c checks it), its summary
 * and option help, its needs as flags, and two steps: parse() turns argv
 * into the command's own argument struct, run() acts on it.  Between the
 * two the dispatcher (commands.c) does what the flags ask, once for every
 * command: it loads the configuration (CMD_CONFIG, CMD_CONFIG_OPTIONAL),
 * and around run() it turns the first SIGINT or SIGTERM into a request to
 * stop (a command with a `stop` hook: one that measures or writes what
 * others share) or into exit 3 at once, and a second one into exit 3 at
 * once.  Commands alone print
 * (through diag.h) and choose exit codes (exitstatus.h).
 *
 * Adding a command: cmd_foo.c, its row in commands.c's table, the man page's
 * SYNOPSIS and COMMANDS (docs/internals.md), unit tests for new logic, and an end-to-end case for
 * success and one for failure.
 */
#ifndef JG_CMD_H
#define JG_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "exitstatus.h"

struct baseline_store;
struct config;

/* What a command needs before it runs (struct command.needs). */
enum cmd_needs {
	/* The configuration: -c FILE, $JANKGATE_CONFIG or ./jankgate.json;
	 * none is exit 2 with how to get one. */
	CMD_CONFIG = 1 << 0,
	/* The configuration when one is named or ./jankgate.json exists,
	 * else the defaults and the JANKGATE_* environment. */
	CMD_CONFIG_OPTIONAL = 1 << 1,
	/* It talks to devices through the adb server; the others never
	 * open a connection to it (`check` is safe as a pre-commit hook). */
	CMD_DEVICES = 1 << 2,
};

struct command {
	const char *name;
	const char *summary;		/* one line for `jankgate --help` */
	const char *const *usage;	/* NULL-terminated synopsis lines */
	const char *options;		/* option help: `jankgate help CMD` */
	unsigned needs;			/* enum cmd_needs */
	size_t args_size;		/* its argument struct, zeroed first */
	/*
	 * Parse argv (argv[0] is the command's name) into `args`.  Returns
	 * 0, or the exit status after printing why.  May change *needs for
	 * what these arguments ask (`check FILE...` needs no configuration).
	 */
	int (*parse)(void *args, int argc, char **argv, unsigned *needs);
	/* Act: `cfg` is NULL when the command needs none.  Exit status. */
	int (*run)(void *args, const struct config *cfg);
	/* Free what parse() and run() left in `args`; may be NULL. */
	void (*release)(void *args);
	/*
	 * Called from a SIGINT or SIGTERM handler while run() runs: ask it
	 * to stop, write what it measured, write nothing shared (baseline,
	 * mail) any more, and return 3.  NULL: a signal ends the command at
	 * once with exit 3, as a second signal ends every command.  Must be
	 * async-signal-safe.
	 */
	void (*stop)(void);
};

extern const struct command cmd_ab;
extern const struct command cmd_baseline;
extern const struct command cmd_bisect;
extern const struct command cmd_check;
extern const struct command cmd_compare;
extern const struct command cmd_devices;
extern const struct command cmd_gate;
extern const struct command cmd_help;
extern const struct command cmd_init;
extern const struct command cmd_mail;
extern const struct command cmd_parse;
extern const struct command cmd_report;
extern const struct command cmd_run;

/* ---- commands.c: the table and the dispatcher ----------------------- */

/* The table, in the order `--help` lists it; ends with NULL. */
extern const struct command *const commands[];
/* The synopsis of jankgate itself (global options), NULL-terminated. */
extern const char *const jankgate_usage[];

/* The command named `name`, or NULL. */
const struct command *command_find(const char *name);
/*
 * The command a mistyped `name` most likely meant, or NULL (a unique
 * prefix of three letters or more, else the nearest within two edits);
 * command_unknown() says `name` is none, with that suggestion.
 */
const struct command *command_suggest(const char *name);
void command_unknown(const char *name);

/*
 * Run command `c` over argv[0..argc) (argv[0] its name): parse, load the
 * configuration as c->needs says, run, release.  Returns the exit status.
 */
int command_dispatch(const struct command *c, int argc, char **argv);

/* Print the usage, global options and command list of jankgate. */
void cmd_print_help(FILE *fp);

/*
 * Warn, once per variable, about JANKGATE_* variables that jankgate does
 * not read (a misspelt key), naming the nearest known one.  `cfg` may be
 * NULL.  The dispatcher calls it when it loads a configuration.
 */
void cmd_warn_environment(const struct config *cfg);

/* ---- cli.c: what the commands share ---------------------------------- */

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

/* Print "usage: ..." for `cmd` to stderr and return EXIT_BAD_INPUT. */
int cmd_usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* `jankgate help CMD`: usage, summary and options of `cmd` on stdout. */
void cmd_print_command_help(const struct command *cmd);

/*
 * Open the baseline store named by `repo` (--repo), else baseline.repo of
 * `cfg`, printing what went wrong.  Returns 0, or the exit status: 2 when
 * no repository is named or it does not exist, 3 when it cannot be reached.
 */
int cmd_baseline_open(struct baseline_store **out, const struct config *cfg,
    const char *repo);

#endif
