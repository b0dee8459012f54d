/*
 * commands.c: the command table and the dispatcher.
 *
 * The table lists every command in the order `jankgate --help` shows it;
 * each row is the command's own struct (cmd.h), defined in its file next
 * to its parser, with its usage lines (the man page SYNOPSIS, word for
 * word; test_cli.c compares them).  The dispatcher runs
 * a command in two steps and does in between, once, what the command's
 * needs ask: it loads the configuration, and around run() it turns the
 * first SIGINT or SIGTERM into a request to stop (a command with a stop
 * hook) or an exit 3, and a second one into an exit 3 at once.  `help`
 * lives here because it lists the table; `help config` lists the
 * configuration keys (keydoc.c).
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cancel.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "fileio.h"
#include "keydoc.h"
#include "proc.h"
#include "source.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

const char *const jankgate_usage[] = {
	"jankgate [-c FILE] [-v | -q] COMMAND [ARGS]",
	"jankgate --version",
	"jankgate --help",
	"jankgate help [COMMAND | config]",
	NULL
};

const struct command *const commands[] = {
	&cmd_ab,
	&cmd_baseline,
	&cmd_bisect,
	&cmd_check,
	&cmd_compare,
	&cmd_devices,
	&cmd_gate,
	&cmd_help,
	&cmd_init,
	&cmd_mail,
	&cmd_parse,
	&cmd_report,
	&cmd_run,
	NULL
};

const struct command *
command_find(const char *name)
{
	for (const struct command *const *c = commands; *c; c++)
		if (!strcmp((*c)->name, name))
			return *c;
	return NULL;
}

/* Levenshtein's distance of two short words (at most 31 letters each). */
static size_t
edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[32], prev, tmp;

	if (la > 31 || lb > 31)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			tmp = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/*
 * The command a mistyped `name` most likely meant: the one a prefix of at
 * least three letters names alone, else the nearest within two edits (a
 * swapped pair is two), the first in the table on a tie; NULL when none
 * is that close.
 */
const struct command *
command_suggest(const char *name)
{
	const struct command *best = NULL, *prefix = NULL;
	size_t n = strlen(name), d, best_d = 3, prefixes = 0;

	for (const struct command *const *c = commands; *c; c++) {
		if (n >= 3 && !strncmp((*c)->name, name, n)) {
			prefix = *c;
			prefixes++;
		}
		d = edits(name, (*c)->name);
		if (d < best_d) {
			best_d = d;
			best = *c;
		}
	}
	return prefixes == 1 ? prefix : best;
}

/* The error for a command name that is none. */
void
command_unknown(const char *name)
{
	const struct command *c = command_suggest(name);

	if (c)
		diag_error("'%s' is not a jankgate command; did you mean "
		    "'%s'? (see 'jankgate --help')", name, c->name);
	else
		diag_error("'%s' is not a jankgate command; see 'jankgate "
		    "--help'", name);
}

/* ---- the configuration, loaded once --------------------------------- */

void
cmd_warn_environment(const struct config *cfg)
{
	extern char **environ;
	static int done;
	struct strlist warnings = STRLIST_INIT;

	/* One warning is enough, however often it is asked. */
	if (done++)
		return;
	for (size_t i = 0; cfg && i < cfg->warnings.nr; i++)
		diag_warn("%s", cfg->warnings.items[i]);
	config_env_unknown(cfg, environ, &warnings);
	for (size_t i = 0; i < warnings.nr; i++)
		diag_warn("%s", warnings.items[i]);
	strlist_release(&warnings);
}

static int
load_config(struct config **out)
{
	struct strlist problems = STRLIST_INIT;
	const char *path = config_default_path(jg_opts.config_path);
	const char *env = getenv("JANKGATE_CONFIG");
	int rc = config_load(out, path, &source_plugins, &problems);

	if (rc == JG_ENOTFOUND && !jg_opts.config_path && !(env && *env)) {
		/* No file was named: say how to get one, nothing else. */
		diag_error("no configuration: pass -c FILE, set "
		    "JANKGATE_CONFIG, or create ./jankgate.json (`jankgate "
		    "init` writes one)");
	} else if (rc == JG_ENOTFOUND || rc == JG_EIO) {
		diag_error("%s", jg_error_msg());
	} else {
		/* Compiler-style lines, "FILE: KEY: what was expected". */
		for (size_t i = 0; i < problems.nr; i++)
			diag_plain("%s", problems.items[i]);
	}
	strlist_release(&problems);
	if (!rc)
		cmd_warn_environment(*out);
	return rc ? EXIT_BAD_INPUT : 0;
}

static int
load_config_optional(struct config **out)
{
	struct strlist problems = STRLIST_INIT;
	const char *env = getenv("JANKGATE_CONFIG");
	int rc;

	if (jg_opts.config_path || (env && *env) ||
	    file_exists("jankgate.json"))
		return load_config(out);
	rc = config_defaults(out, &source_plugins, &problems);
	for (size_t i = 0; i < problems.nr; i++)
		diag_plain("%s", problems.items[i]);
	strlist_release(&problems);
	if (!rc) {
		diag_verbose("no configuration file; using the defaults");
		cmd_warn_environment(*out);
	}
	return rc ? EXIT_BAD_INPUT : 0;
}

/* ---- signals: a command is asked to stop, then made to --------------- */

static void (*volatile stop_hook)(void);
static volatile sig_atomic_t signals_seen;

static void
say(const char *msg)
{
	(void)!write(STDERR_FILENO, msg, strlen(msg));
}

/*
 * The first SIGINT or SIGTERM asks a command that has a stop hook to stop
 * (it writes what it has, shares nothing more, and exits 3); the second,
 * or the first for a command without one, ends the process at once with
 * the same status.  Only async-signal-safe calls here.
 */
static void
on_signal(int sig)
{
	(void)sig;
	if (!stop_hook || signals_seen++) {
		/* Its children too: a push must not land after we are gone. */
		proc_kill_all();
		say("jankgate: interrupted: stopped at once\n");
		_exit(EXIT_INFRA);
	}
	say("jankgate: interrupted: stopping (a second signal stops at "
	    "once)\n");
	stop_hook();
}

/*
 * `jankgate COMMAND --help` (anywhere before a `--`) or `jankgate COMMAND
 * -h` (alone) is `jankgate help COMMAND`: what people type first, and no
 * command takes --help as an option's value or -h as an option.
 */
static bool
asks_for_help(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "-h"))
		return true;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help"))
			return true;
	return false;
}

int
command_dispatch(const struct command *c, int argc, char **argv)
{
	struct sigaction sa, old_int, old_term;
	struct config *cfg = NULL;
	unsigned needs = c->needs;
	void *args;
	int status;

	if (asks_for_help(argc, argv)) {
		cmd_print_command_help(c);
		return EXIT_PASS;
	}
	args = xcalloc(1, c->args_size ? c->args_size : 1);
	status = c->parse(args, argc, argv, &needs);
	if (!status && (needs & CMD_CONFIG))
		status = load_config(&cfg);
	else if (!status && (needs & CMD_CONFIG_OPTIONAL))
		status = load_config_optional(&cfg);
	if (status)
		goto out;
	stop_hook = c->stop;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	status = c->run(args, cfg);
	/* Whatever it finished after the request: a cancel is no pass. */
	if (c->stop && cancel_requested())
		status = exit_status_merge(status, EXIT_INFRA);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	stop_hook = NULL;
out:
	if (c->release)
		c->release(args);
	free(args);
	config_free(cfg);
	return status;
}

/* ---- help ----------------------------------------------------------- */

void
cmd_print_help(FILE *fp)
{
	for (const char *const *u = jankgate_usage; *u; u++)
		fprintf(fp, "%s %s\n",
		    u == jankgate_usage ? "usage:" : "   or:", *u);
	fputs("\nGlobal options:\n"
	    "  -c FILE     configuration file (default: $JANKGATE_CONFIG,\n"
	    "              then ./jankgate.json)\n"
	    "  -v          more diagnostics\n"
	    "  -q          no progress or informational messages\n"
	    "  --version   print the version and exit\n"
	    "  --help      print this help and exit\n"
	    "\nCommands:\n", fp);
	for (const struct command *const *c = commands; *c; c++)
		fprintf(fp, "  %-10s  %s\n", (*c)->name, (*c)->summary);
	fputs("\nSee 'jankgate help COMMAND' and jankgate(1).\n", fp);
}

static const char *const help_usage[] = {
	"jankgate help [COMMAND | config]",
	NULL
};

struct help_args {
	const char *command;	/* NULL: jankgate's own; "config": the keys */
};

static int
help_parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct help_args *a = args;

	if (argc > 2)
		return cmd_usage_error(&cmd_help, "too many arguments");
	a->command = argc == 2 ? argv[1] : NULL;
	return 0;
}

static int
help_run(void *args, const struct config *cfg)
{
	const struct help_args *a = args;
	const struct command *c;

	if (!a->command) {
		cmd_print_help(stdout);
		return EXIT_PASS;
	}
	if (!strcmp(a->command, "config")) {
		keydoc_text(stdout);
		return EXIT_PASS;
	}
	c = command_find(a->command);
	if (!c) {
		command_unknown(a->command);
		return EXIT_BAD_INPUT;
	}
	cmd_print_command_help(c);
	return EXIT_PASS;
}

const struct command cmd_help = {
	.name = "help",
	.summary = "show the usage of jankgate or of one command, or the "
	    "configuration keys",
	.usage = help_usage,
	.options = "",
	.args_size = sizeof(struct help_args),
	.parse = help_parse,
	.run = help_run,
};
