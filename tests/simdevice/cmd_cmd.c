/*
 * cmd_cmd.c: `cmd SERVICE ARGS...`, Android's generic binder shell, and
 * the same dispatch for abb_exec (whose argv starts at SERVICE).
 *
 * Each service name maps to the command that implements its shell; later
 * services (activity, window, settings...) add a line to `services`.
 * Unknown services answer "cmd: Can't find service: X" with status 20, as
 * Android's cmd does.
 */
#include <string.h>

#include "commands.h"
#include "simio.h"
#include "banned.h"

static const struct {
	const char *service;
	int (*run)(struct simcmd_ctx *ctx, int argc, char **argv);
} services[] = {
	{ "activity", cmd_am },
	{ "input", cmd_input },
	{ "package", cmd_pm },
	{ "settings", cmd_settings },
	{ "window", cmd_wm },
};

int
cmd_cmd(struct simcmd_ctx *ctx, int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		simio_puts(ctx->io, 2, "cmd: No service specified; "
		    "use -l to list all running services\n");
		return 20;
	}
	if (!strcmp(argv[1], "-l")) {
		simio_puts(ctx->io, 1, "Currently running services:\n");
		for (i = 0; i < sizeof(services) / sizeof(services[0]); i++)
			simio_printf(ctx->io, 1, "  %s\n", services[i].service);
		return 0;
	}
	for (i = 0; i < sizeof(services) / sizeof(services[0]); i++)
		if (!strcmp(argv[1], services[i].service))
			return services[i].run(ctx, argc - 1, argv + 1);
	simio_printf(ctx->io, 2, "cmd: Can't find service: %s\n", argv[1]);
	return 20;
}
