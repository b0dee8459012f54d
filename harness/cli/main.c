/*
 * main.c: global options, dispatch, and the check that stdout got written.
 *
 * Global options come before the command name (`jankgate -c x.json check`);
 * every command also accepts -c/-v/-q after its name.  A failed write to
 * stdout (a full disk behind a redirect) is an error: CI would otherwise
 * read a truncated table and think it complete.  A reader that stopped
 * reading (`jankgate baseline show main | head -1`) is not: like
 * `git log | head`, the command ends quietly with the status it had.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "diag.h"
#include "error.h"
#include "banned.h"

/*
 * 1 when stdout is a pipe or socket whose reader has gone.  stdio may
 * have met EPIPE in an earlier write, with errno long overwritten since,
 * so the pipe itself is asked: poll() reports POLLERR on a pipe's write
 * end once no reader is left.
 */
static int
reader_gone(int err)
{
	struct pollfd p = { STDOUT_FILENO, POLLOUT, 0 };

	return err == EPIPE || (poll(&p, 1, 0) == 1 && (p.revents & POLLERR));
}

static int
finish(int status)
{
	/* Data went to stdout; make sure all of it arrived. */
	if (fflush(stdout) || ferror(stdout)) {
		int err = errno;

		if (reader_gone(err))
			return status;
		diag_error("cannot write to standard output: %s",
		    jg_strerror(err));
		return status ? status : EXIT_INFRA;
	}
	return status;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *c;
	int opt;

	/* Sockets and pipes report EPIPE instead of killing us. */
	signal(SIGPIPE, SIG_IGN);

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+" CMD_COMMON_SHORTOPTS "h",
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		switch (opt) {
		case 'h':
			cmd_print_help(stdout);
			return finish(EXIT_PASS);
		case 'V':
			printf("jankgate %s\n", JG_VERSION);
			return finish(EXIT_PASS);
		default:
			if (optopt == 'c')
				diag_error("option '-c' needs a file name");
			else
				diag_error("unknown option '%s'",
				    argv[optind - 1]);
			cmd_print_help(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind >= argc) {
		cmd_print_help(stderr);
		return EXIT_BAD_INPUT;
	}
	c = command_find(argv[optind]);
	if (!c) {
		command_unknown(argv[optind]);
		return EXIT_BAD_INPUT;
	}
	/* Each command starts its own getopt pass from its name. */
	argc -= optind;
	argv += optind;
	optind = 0;
	opterr = 1;
	return finish(command_dispatch(c, argc, argv));
}
