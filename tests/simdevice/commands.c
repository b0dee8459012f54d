/*
 * commands.c: the command table.
 *
 * Sorted by name for the reader; lookup is linear, the table is short.
 */
#include <stdarg.h>
#include <string.h>

#include "commands.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

static const struct simcmd commands[] = {
	{ "am", cmd_am },
	{ "atrace", cmd_atrace },
	{ "cat", cmd_cat },
	{ "cmd", cmd_cmd },
	{ "date", cmd_date },
	{ "dumpsys", cmd_dumpsys },
	{ "echo", cmd_echo },
	{ "exit", cmd_exit },
	{ "export", cmd_export },
	{ "false", cmd_false },
	{ "getprop", cmd_getprop },
	{ "grep", cmd_grep },
	{ "head", cmd_head },
	{ "input", cmd_input },
	{ "kill", cmd_kill },
	{ "log", cmd_log },
	{ "logcat", cmd_logcat },
	{ "ls", cmd_ls },
	{ "mkdir", cmd_mkdir },
	{ "monkey", cmd_monkey },
	{ "perfetto", cmd_perfetto },
	{ "pidof", cmd_pidof },
	{ "pm", cmd_pm },
	{ "rm", cmd_rm },
	{ "run-as", cmd_runas },
	{ "setprop", cmd_setprop },
	{ "settings", cmd_settings },
	{ "sleep", cmd_sleep },
	{ "tail", cmd_tail },
	{ "touch", cmd_touch },
	{ "true", cmd_true },
	{ "uiautomator", cmd_uiautomator },
	{ "uptime", cmd_uptime },
	{ "wm", cmd_wm },
};

const struct simcmd *
simcmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int
simcmd_error(struct simcmd_ctx *ctx, int status, const char *argv0,
    const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", argv0);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_addch(&sb, '\n');
	simio_write(ctx->io, 2, sb.buf, sb.len);
	strbuf_release(&sb);
	return status;
}
