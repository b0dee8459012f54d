/*
 * commands.h: the simulated device's shell commands.
 *
 * Every command is a function with git's builtin signature plus a context:
 *
 *   int cmd_foo(struct simcmd_ctx *ctx, int argc, char **argv);
 *
 * argv[0] is the command name; the return value is the exit status.
 * Output goes through ctx->io (simio.h) and nowhere else; a command that
 * runs for long (sleep, logcat) uses simio_sleep() or checks
 * simio_closed() so it stops when the client goes away.  Device state is
 * ctx->dev (simdev.h).
 *
 * Adding a command: write cmd_<name>.c, declare its function below, add
 * one line to the table in commands.c, describe it in README.md.
 */
#ifndef SIM_COMMANDS_H
#define SIM_COMMANDS_H

struct simdev;
struct simio;

struct simcmd_ctx {
	struct simdev *dev;
	struct simio *io;
	const char *kind;	/* service: "shell", "shell,v2", "exec"... */
	int exit;		/* set by a command to end the script (exit) */
};

struct simcmd {
	const char *name;
	int (*run)(struct simcmd_ctx *ctx, int argc, char **argv);
};

/* The command called `name`, or NULL. */
const struct simcmd *simcmd_find(const char *name);

/*
 * Print "<argv0>: <msg>" on stderr and return `status`, the usual way a
 * toybox command complains: `return simcmd_error(ctx, 1, "cat", ...)`.
 */
int simcmd_error(struct simcmd_ctx *ctx, int status, const char *argv0,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* cmd_basic.c */
int cmd_echo(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_true(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_false(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_exit(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_export(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_sleep(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_props.c */
int cmd_getprop(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_setprop(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_files.c */
int cmd_ls(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_cat(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_rm(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_mkdir(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_touch(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_pm.c */
int cmd_pm(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_cmd.c */
int cmd_cmd(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_am.c */
int cmd_am(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_monkey(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_pidof(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_instrument.c: `am instrument`, called by cmd_am */
int am_instrument(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_input.c */
int cmd_input(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_perfetto.c */
int cmd_perfetto(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_kill(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_dumpsys.c */
int cmd_dumpsys(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_atrace.c */
int cmd_atrace(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_log.c */
int cmd_log(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_logcat.c */
int cmd_logcat(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_wm.c, cmd_settings.c */
int cmd_wm(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_settings(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_uiautomator.c */
int cmd_uiautomator(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_runas.c */
int cmd_runas(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_text.c */
int cmd_grep(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_head(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_tail(struct simcmd_ctx *ctx, int argc, char **argv);

/* cmd_clock.c */
int cmd_date(struct simcmd_ctx *ctx, int argc, char **argv);
int cmd_uptime(struct simcmd_ctx *ctx, int argc, char **argv);

#endif
