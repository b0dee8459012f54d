/*
 * shell.c: running parsed command lines: and-or lists, buffered pipes,
 * redirections to and from the in-memory file system, command lookup.
 *
 * Pipes are run one command after the other, each left side's output
 * collected in memory and fed to the right side as its stdin.  That is
 * enough for the short filters a test might use; a streaming command on
 * the left of a pipe would never end, and the shell says nothing about it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "faults.h"
#include "shell.h"
#include "shparse.h"
#include "simdev.h"
#include "simfs.h"
#include "simio.h"
#include "stream.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* What redirections of one command leave behind to finish afterwards. */
struct redir_state {
	struct strbuf in;
	struct strbuf out, err;
	const char *out_path, *err_path;
};

/* The shell's own complaints: "/system/bin/sh: ..." on stderr. */
static void __attribute__((format(printf, 2, 3)))
say(struct simio *io, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addstr(&sb, "/system/bin/sh: ");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_addch(&sb, '\n');
	simio_write(io, 2, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* Open `r` for output: create or truncate now, as the real shell does. */
static int
redir_out(struct simsh *sh, struct simio *io, const struct sh_redir *r,
    struct redir_state *rs)
{
	struct simio_sink *sink = r->fd == 2 ? &io->err : &io->out;
	int err;

	if (!strcmp(r->target, "/dev/null")) {
		sink->to = SIMIO_TO_NULL;
		return 0;
	}
	err = simfs_write(sh->dev->fs, r->target, "", 0,
	    r->kind == SH_R_APPEND, 0);
	if (err) {
		say(io, "can't create %s: %s", r->target, jg_strerror(-err));
		return -1;
	}
	sink->to = SIMIO_TO_BUF;
	if (r->fd == 2) {
		sink->buf = &rs->err;
		rs->err_path = r->target;
	} else {
		sink->buf = &rs->out;
		rs->out_path = r->target;
	}
	return 0;
}

static int
apply_redirs(struct simsh *sh, struct simio *io, const struct sh_cmd *cmd,
    struct redir_state *rs)
{
	size_t i;

	for (i = 0; i < cmd->nr_redirs; i++) {
		const struct sh_redir *r = &cmd->redirs[i];
		int err;

		switch (r->kind) {
		case SH_R_IN:
			strbuf_reset(&rs->in);
			if (strcmp(r->target, "/dev/null") &&
			    (err = simfs_read(sh->dev->fs, r->target,
			    &rs->in))) {
				say(io, "can't open %s: %s", r->target,
				    jg_strerror(-err));
				return -1;
			}
			io->in = rs->in.buf;
			io->in_len = rs->in.len;
			io->in_pos = 0;
			io->in_set = 1;
			break;
		case SH_R_OUT:
		case SH_R_APPEND:
			if ((r->fd == 1 || r->fd == 2) &&
			    redir_out(sh, io, r, rs))
				return -1;
			break;
		case SH_R_DUP:
			if (r->fd == 2 && !strcmp(r->target, "1"))
				io->err = io->out;
			else if (r->fd == 1 && !strcmp(r->target, "2"))
				io->out = io->err;
			break;
		}
	}
	return 0;
}

/* Append what the command wrote into its redirection files. */
static void
finish_redirs(struct simsh *sh, struct redir_state *rs)
{
	if (rs->out_path)
		simfs_write(sh->dev->fs, rs->out_path, rs->out.buf,
		    rs->out.len, 1, 0);
	if (rs->err_path)
		simfs_write(sh->dev->fs, rs->err_path, rs->err.buf,
		    rs->err.len, 1, 0);
}

/* Android finds commands in /system/bin; a path there means the same. */
static const struct simcmd *
lookup(const char *name)
{
	static const char *const dirs[] = {
		"/system/bin/", "/system/xbin/", "/bin/", "/vendor/bin/",
	};
	size_t i;

	if (!strchr(name, '/'))
		return simcmd_find(name);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(name, dirs[i], strlen(dirs[i])) &&
		    !strchr(name + strlen(dirs[i]), '/'))
			return simcmd_find(name + strlen(dirs[i]));
	return NULL;
}

/*
 * "$?" in a word becomes the previous command's status.  The parser keeps no
 * quoting, so '$?' in single quotes expands too; adb clients only send it bare
 * (docs/adb.md §3.1: the legacy-shell exit marker), so that is accepted.
 */
static char **
expand_status(int argc, char **argv, int last)
{
	char **out = NULL;
	char num[8];

	for (int i = 0; i < argc; i++)
		if (strstr(argv[i], "$?"))
			break;
		else if (i == argc - 1)
			return NULL;
	if (!argc)
		return NULL;
	snprintf(num, sizeof(num), "%d", last);
	out = xcalloc((size_t)argc + 1, sizeof(*out));
	for (int i = 0; i < argc; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *p = argv[i], *q;

		while ((q = strstr(p, "$?"))) {
			strbuf_add(&sb, p, (size_t)(q - p));
			strbuf_addstr(&sb, num);
			p = q + 2;
		}
		strbuf_addstr(&sb, p);
		out[i] = strbuf_detach(&sb, NULL);
	}
	return out;
}

static void
free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

static int
run_simple(struct simsh *sh, struct simio *io, int argc, char **argv)
{
	const struct simcmd *cmd;
	struct simcmd_ctx ctx;
	int status;

	if (!argc)
		return 0;
	/* exec CMD: the shell becomes CMD, so nothing runs after it. */
	if (!strcmp(argv[0], "exec")) {
		if (argc == 1)
			return 0;
		sh->exiting = 1;
		return run_simple(sh, io, argc - 1, argv + 1);
	}
	cmd = lookup(argv[0]);
	if (!cmd) {
		say(io, "%s: inaccessible or not found", argv[0]);
		return 127;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = sh->dev;
	ctx.io = io;
	ctx.kind = sh->kind;
	status = cmd->run(&ctx, argc, argv);
	if (ctx.exit)
		sh->exiting = 1;
	return status & 0xff;
}

/*
 * Run one command with its redirections; stdin comes from `in` and stdout
 * goes into `out` when they are not NULL (the two ends of a pipe).
 */
static int
run_command(struct simsh *sh, const struct sh_cmd *cmd,
    const struct strbuf *in, struct strbuf *out, int last)
{
	char **expanded = expand_status(cmd->argc, cmd->argv, last);
	struct redir_state rs;
	struct simio io;
	int status;

	memset(&rs, 0, sizeof(rs));
	strbuf_init(&rs.in, 0);
	strbuf_init(&rs.out, 0);
	strbuf_init(&rs.err, 0);
	simio_init(&io, sh->chan);
	if (in) {
		io.in = in->buf;
		io.in_len = in->len;
		io.in_set = 1;
	}
	if (out) {
		io.out.to = SIMIO_TO_BUF;
		io.out.buf = out;
	}
	if (apply_redirs(sh, &io, cmd, &rs)) {
		status = 1;
	} else {
		status = run_simple(sh, &io, cmd->argc,
		    expanded ? expanded : cmd->argv);
		finish_redirs(sh, &rs);
	}
	free_argv(expanded);
	strbuf_release(&rs.in);
	strbuf_release(&rs.out);
	strbuf_release(&rs.err);
	return status;
}

/*
 * Run cmds[i..] to the end of the pipeline, each command's output being
 * the next one's input; returns the index after the pipeline.
 */
static size_t
run_pipeline(struct simsh *sh, struct sh_script *s, size_t i, int *status)
{
	struct strbuf bufs[2] = { STRBUF_INIT, STRBUF_INIT };
	const struct strbuf *in = NULL;
	int k = 0;

	for (;;) {
		int to_pipe = i + 1 < s->nr && s->cmds[i + 1].join == SH_PIPE;

		strbuf_reset(&bufs[k]);
		*status = run_command(sh, &s->cmds[i++], in,
		    to_pipe ? &bufs[k] : NULL, *status);
		if (!to_pipe || sh->exiting)
			break;
		in = &bufs[k];
		k = !k;
	}
	while (i < s->nr && s->cmds[i].join == SH_PIPE)
		i++;
	strbuf_release(&bufs[0]);
	strbuf_release(&bufs[1]);
	return i;
}

static int
run_script(struct simsh *sh, struct sh_script *s, int status)
{
	size_t i = 0;

	while (i < s->nr && !sh->exiting) {
		enum sh_join join = s->cmds[i].join;

		if ((join == SH_AND && status) || (join == SH_OR && !status)) {
			/* Skip this pipeline; the status stays. */
			i++;
			while (i < s->nr && s->cmds[i].join == SH_PIPE)
				i++;
			continue;
		}
		i = run_pipeline(sh, s, i, &status);
		if (sh->st && simstream_closed(sh->st))
			break;
	}
	return status;
}

/*
 * The end of a "( ... )" group that starts at `p` (which points at the
 * "("), respecting quotes and nesting; NULL when unbalanced.
 */
static const char *
group_end(const char *p)
{
	int depth = 0;
	char q = 0;

	for (; *p; p++) {
		if (q) {
			if (*p == q)
				q = 0;
			else if (q == '"' && *p == '\\' && p[1])
				p++;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')' && --depth == 0) {
			return p;
		}
	}
	return NULL;
}

static int
syntax_error(struct simsh *sh, const char *msg)
{
	struct simio io;

	simio_init(&io, sh->chan);
	say(&io, "%s", msg);
	return 1;
}

/*
 * Run `line` with `status` as the previous command's status.  A line that
 * begins with a "( list )" group runs the list as a subshell first (an
 * `exit` in it leaves only the group), then the rest of the line joined by
 * ";", a newline, "&&" or "||".  That is the shape adb clients use to read
 * the exit code from a legacy shell: "( CMD\n); echo MARKER$?".
 */
static int
run_text(struct simsh *sh, const char *line, int status)
{
	struct sh_script script;
	struct strbuf err = STRBUF_INIT;
	enum sh_join join = SH_SEQ;
	const char *p = line + strspn(line, " \t\r\n");

	if (*p == '(') {
		const char *end = group_end(p);
		char *inner;
		int was_exiting = sh->exiting;

		if (!end)
			return syntax_error(sh, "syntax error: '(' unmatched");
		inner = xstrndup(p + 1, (size_t)(end - p - 1));
		status = run_text(sh, inner, status);
		free(inner);
		sh->exiting = was_exiting;
		p = end + 1;
		p += strspn(p, " \t\r");
		if (!strncmp(p, "&&", 2) || !strncmp(p, "||", 2)) {
			join = p[0] == '&' ? SH_AND : SH_OR;
			p += 2;
		} else if (*p == ';' || *p == '\n') {
			p++;
		} else if (*p) {
			return syntax_error(sh, "syntax error: ')' unexpected");
		}
		if (!*p || (sh->st && simstream_closed(sh->st)))
			return status;
	}
	memset(&script, 0, sizeof(script));
	if (shparse(&script, p, &err)) {
		status = syntax_error(sh, err.buf);
	} else {
		if (script.nr && script.cmds[0].join == SH_SEQ)
			script.cmds[0].join = join;
		status = run_script(sh, &script, status);
	}
	shparse_release(&script);
	strbuf_release(&err);
	return status;
}

int
simsh_run(struct simsh *sh, const char *line)
{
	simdev_log(sh->dev, sh->kind, line);
	return run_text(sh, line, 0);
}

int
simsh_run_argv(struct simsh *sh, int argc, char **argv)
{
	struct strbuf line = STRBUF_INIT;
	struct simio io;
	int i, status;

	for (i = 0; i < argc; i++) {
		if (i)
			strbuf_addch(&line, ' ');
		strbuf_addstr(&line, argv[i]);
	}
	simdev_log(sh->dev, sh->kind, line.buf);
	strbuf_release(&line);
	simio_init(&io, sh->chan);
	status = run_simple(sh, &io, argc, argv);
	return status;
}

/* Drop the link when a line matches drop-on-command.  1 when dropped. */
static int
maybe_drop(struct simsh *sh, const char *line)
{
	struct faults f;
	int drop;

	if (!sh->st)
		return 0;
	faults_init(&f);
	simdev_faults(sh->dev, &f);
	drop = faults_drop_on(&f, line);
	faults_release(&f);
	if (drop) {
		simdev_log(sh->dev, "drop", line);
		simstream_drop_link(sh->st);
	}
	return drop;
}

/* The first '\n' or '\r' (a terminal's Enter) in `sb`, or NULL. */
static char *
line_end(struct strbuf *sb)
{
	size_t n = strcspn(sb->buf, "\r\n");

	return n < sb->len ? sb->buf + n : NULL;
}

int
simsh_interactive(struct simsh *sh, int prompt)
{
	struct strbuf pending = STRBUF_INIT, p = STRBUF_INIT;
	struct simio io;
	char buf[4096];
	int status = 0;

	simio_init(&io, sh->chan);
	simkv_get(&sh->dev->props, "ro.product.device", &p);
	strbuf_addstr(&p, ":/ $ ");
	while (!sh->exiting) {
		char *nl;
		size_t n;

		if (prompt && simio_puts(&io, 1, p.buf))
			break;
		while (!(nl = line_end(&pending))) {
			n = simio_read(&io, buf, sizeof(buf));
			if (!n)
				break;
			strbuf_add(&pending, buf, n);
		}
		if (!nl && !pending.len)
			break;
		if (nl)
			*nl = '\0';
		if (maybe_drop(sh, pending.buf))
			break;
		if (pending.buf[strspn(pending.buf, " \t")])
			status = simsh_run(sh, pending.buf);
		strbuf_remove(&pending, 0, nl ? (size_t)(nl - pending.buf) + 1 :
		    pending.len);
	}
	strbuf_release(&pending);
	strbuf_release(&p);
	return status;
}
