/*
 * svc_shell.c: the services that run shell commands.
 *
 *   shell:CMD                 legacy: raw bytes, no exit status (a PTY on
 *                             a real device; no \r\n translation here)
 *   shell,v2,ARGS:CMD         shell protocol v2; ARGS may hold TERM=...,
 *                             raw or pty
 *   exec:CMD                  raw bytes, no PTY, no framing
 *   abb_exec:A\0B\0...        raw, argv = cmd A B ...
 *   abb:A\0B\0...             v2 framing, argv = cmd A B ...
 *
 * An empty CMD starts an interactive shell reading lines from stdin; it
 * prints a prompt for legacy and pty sessions, as mksh does on a terminal.
 */
#include <stdlib.h>
#include <string.h>

#include "service.h"
#include "shell.h"
#include "simio.h"
#include "stream.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Does the comma list `args` (of `len` bytes) hold the word `w`? */
static int
has_arg(const char *args, size_t len, const char *w)
{
	size_t n = strlen(w);
	const char *p = args, *end = args + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t k = comma ? (size_t)(comma - p) : (size_t)(end - p);

		if (k == n && !memcmp(p, w, n))
			return 1;
		p += k + 1;
	}
	return 0;
}

static int
run_line(struct simstream *st, int v2, const char *kind, const char *cmd,
    int prompt)
{
	struct simsh sh;
	int status;

	memset(&sh, 0, sizeof(sh));
	sh.dev = simstream_dev(st);
	sh.chan = simchan_new_stream(st, v2);
	sh.st = st;
	sh.kind = kind;
	if (*cmd)
		status = simsh_run(&sh, cmd);
	else
		status = simsh_interactive(&sh, prompt);
	simchan_exit(sh.chan, status);
	simchan_free(sh.chan);
	return status;
}

void
svc_shell_run(struct simstream *st, const char *arg, void *state)
{
	size_t len;
	const char *svc = simstream_service(st, &len);
	const char *colon = memchr(svc, ':', len);
	const char *args = svc + strlen("shell");
	size_t nargs;
	int v2, pty;

	if (!colon)
		return;
	nargs = (size_t)(colon - args);
	if (nargs && *args == ',') {
		args++;
		nargs--;
	}
	v2 = has_arg(args, nargs, "v2");
	pty = !v2 || has_arg(args, nargs, "pty");
	run_line(st, v2, v2 ? "shell,v2" : "shell", colon + 1, pty);
}

void
svc_exec_run(struct simstream *st, const char *arg, void *state)
{
	run_line(st, 0, "exec", arg, 0);
}

/* Run "cmd" + the NUL-separated words after the prefix. */
static void
run_abb(struct simstream *st, const char *arg, int v2, const char *kind)
{
	size_t len;
	const char *svc = simstream_service(st, &len);
	const char *p = arg, *end = svc + len;
	char **argv = NULL;
	size_t argc = 0, alloc = 0;
	struct simsh sh;
	int status;

	XALLOC_GROW(argv, 1, alloc);
	argv[argc++] = xstrdup("cmd");
	while (p < end) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		size_t k = nul ? (size_t)(nul - p) : (size_t)(end - p);

		XALLOC_GROW(argv, argc + 2, alloc);
		argv[argc++] = xstrndup(p, k);
		p += k + 1;
	}
	argv[argc] = NULL;

	memset(&sh, 0, sizeof(sh));
	sh.dev = simstream_dev(st);
	sh.chan = simchan_new_stream(st, v2);
	sh.st = st;
	sh.kind = kind;
	status = simsh_run_argv(&sh, (int)argc, argv);
	simchan_exit(sh.chan, status);
	simchan_free(sh.chan);
	while (argc)
		free(argv[--argc]);
	free(argv);
}

void
svc_abb_exec_run(struct simstream *st, const char *arg, void *state)
{
	run_abb(st, arg, 0, "abb_exec");
}

void
svc_abb_run(struct simstream *st, const char *arg, void *state)
{
	run_abb(st, arg, 1, "abb");
}
