/*
 * shell.h: the simulated /system/bin/sh.
 *
 * Runs command lines parsed by shparse.h against the command table of
 * commands.h, with the session's channel as stdin/stdout/stderr.  An
 * unknown command answers like Android's mksh does,
 * "/system/bin/sh: foo: inaccessible or not found" on stderr, status 127.
 * Every line run is written to the device's command log (--log).
 */
#ifndef SIM_SHELL_H
#define SIM_SHELL_H

struct simchan;
struct simdev;
struct simstream;

struct simsh {
	struct simdev *dev;
	struct simchan *chan;
	struct simstream *st;	/* NULL in --exec mode */
	const char *kind;	/* for the log: "shell", "shell,v2", "exec" */
	int exiting;		/* `exit` ran */
};

/*
 * Run one command line (which may hold several commands); returns the
 * status of the last command run, 1 for a syntax error.
 */
int simsh_run(struct simsh *sh, const char *line);

/*
 * Run an argv directly, without parsing (abb_exec, abb).  The line logged
 * is the arguments joined by spaces.  Returns the exit status.
 */
int simsh_run_argv(struct simsh *sh, int argc, char **argv);

/*
 * An interactive session: read lines from stdin and run each until end of
 * input or `exit`, printing a prompt first when `prompt`.  Returns the last
 * status.
 */
int simsh_interactive(struct simsh *sh, int prompt);

#endif
