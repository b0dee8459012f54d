/*
 * cmd_runas.c: `run-as PKG COMMAND ARGS...`, a command in a debuggable
 * app's data directory.
 *
 * The shell has no working directory, so run-as gives its command the
 * app's one the only way that matters here: relative path operands of
 * the file commands (ls, cat, rm, mkdir, touch) are taken from
 * /data/data/PKG, the directory run-as changes to.  Errors are run-as's:
 *
 *   run-as: unknown package: com.nope                     (status 1)
 *   run-as: package not debuggable: com.example.shop      (status 1)
 */
#include <stdlib.h>
#include <string.h>

#include "appmodel.h"
#include "apprun.h"
#include "commands.h"
#include "error.h"
#include "packages.h"
#include "simapps.h"
#include "simdev.h"
#include "simio.h"
#include "xalloc.h"
#include "banned.h"

static const char *const file_cmds[] = {
	"ls", "cat", "rm", "mkdir", "touch", NULL,
};

static int
is_file_cmd(const char *name)
{
	for (size_t i = 0; file_cmds[i]; i++)
		if (!strcmp(name, file_cmds[i]))
			return 1;
	return 0;
}

/* 0: may run; 1: unknown package; 2: not debuggable. */
static int
check_package(struct simdev *dev, const char *pkg)
{
	struct apprun *r;
	int why = 0;

	simdev_lock(dev);
	if (!packages_find(dev, pkg))
		why = 1;
	else if (simapps_get(dev->apps, pkg, &r) ||
	    !apprun_model(r)->debuggable)
		why = 2;
	simdev_unlock(dev);
	jg_error_clear();
	return why;
}

int
cmd_runas(struct simcmd_ctx *ctx, int argc, char **argv)
{
	const struct simcmd *cmd;
	char **args;
	int i, k, n = 0, operands = 0, status, why;

	if (argc < 3) {
		simio_puts(ctx->io, 2, "usage: run-as <package-name> "
		    "[--user <uid>] <command> [<args>]\n");
		return 1;
	}
	why = check_package(ctx->dev, argv[1]);
	if (why)
		return simcmd_error(ctx, 1, "run-as", "%s: %s", why == 1 ?
		    "unknown package" : "package not debuggable", argv[1]);
	i = 2;
	if (i + 1 < argc && !strcmp(argv[i], "--user"))
		i += 2;
	if (i >= argc)
		return simcmd_error(ctx, 1, "run-as", "no command given");
	cmd = simcmd_find(argv[i]);
	if (!cmd) {
		simio_printf(ctx->io, 2, "run-as: exec failed for %s: No such "
		    "file or directory\n", argv[i]);
		return 1;
	}
	/* One more slot: a bare `ls` lists the app's directory. */
	args = xcalloc((size_t)(argc - i + 2), sizeof(*args));
	for (k = i; k < argc; k++) {
		const char *a = argv[k];

		if (k > i && a[0] != '-')
			operands++;
		if (k > i && is_file_cmd(argv[i]) && a[0] != '/' &&
		    a[0] != '-')
			args[n++] = xasprintf("/data/data/%s/%s", argv[1], a);
		else
			args[n++] = xstrdup(a);
	}
	if (!operands && !strcmp(argv[i], "ls"))
		args[n++] = xasprintf("/data/data/%s", argv[1]);
	status = cmd->run(ctx, n, args);
	for (k = 0; k < n; k++)
		free(args[k]);
	free(args);
	return status;
}
