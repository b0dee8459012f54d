/*
 * shparse.c: a lexer into words and operators, then a parser into
 * commands joined by ;, &&, || and |, each with its redirections.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "shparse.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

enum tok_type { TOK_WORD, TOK_OP };

struct tok {
	enum tok_type type;
	char *text;		/* the word, or the operator: ";" "&&" ">>" */
	int fd;			/* redirections: the explicit fd, or -1 */
};

struct lexer {
	const char *p;
	struct tok *toks;
	size_t nr, alloc;
	struct strbuf word;
	int in_word;
};

static void
push(struct lexer *lx, enum tok_type type, const char *text, int fd)
{
	XALLOC_GROW(lx->toks, lx->nr + 1, lx->alloc);
	lx->toks[lx->nr].type = type;
	lx->toks[lx->nr].text = xstrdup(text);
	lx->toks[lx->nr].fd = fd;
	lx->nr++;
}

static void
flush_word(struct lexer *lx)
{
	if (!lx->in_word)
		return;
	push(lx, TOK_WORD, lx->word.buf, -1);
	strbuf_reset(&lx->word);
	lx->in_word = 0;
}

/* Lex a quoted part starting at the opening quote.  -1 if unterminated. */
static int
lex_quoted(struct lexer *lx)
{
	char q = *lx->p++;

	lx->in_word = 1;
	while (*lx->p && *lx->p != q) {
		if (q == '"' && *lx->p == '\\' && lx->p[1] &&
		    strchr("$`\"\\\n", lx->p[1])) {
			if (lx->p[1] != '\n')
				strbuf_addch(&lx->word, lx->p[1]);
			lx->p += 2;
			continue;
		}
		strbuf_addch(&lx->word, *lx->p++);
	}
	if (!*lx->p)
		return -1;
	lx->p++;
	return 0;
}

/*
 * An fd number right before a redirection: the word so far is one digit,
 * unquoted.  The lexer cannot tell quoted digits apart after the fact, so
 * it tracks `bare` (no quote or escape seen in the current word).
 */
static int
take_fd(struct lexer *lx, int bare)
{
	int fd;

	if (!lx->in_word || !bare || lx->word.len != 1 ||
	    !isdigit((unsigned char)lx->word.buf[0]))
		return -1;
	fd = lx->word.buf[0] - '0';
	strbuf_reset(&lx->word);
	lx->in_word = 0;
	return fd;
}

static int
lex_operator(struct lexer *lx, int bare, struct strbuf *err)
{
	const char *p = lx->p;
	int fd = -1;

	if (*p == '<' || *p == '>')
		fd = take_fd(lx, bare);
	flush_word(lx);
	if (!strncmp(p, "&&", 2) || !strncmp(p, "||", 2) ||
	    !strncmp(p, ">>", 2) || !strncmp(p, ">&", 2) ||
	    !strncmp(p, "<&", 2)) {
		char op[3] = { p[0], p[1], '\0' };

		push(lx, TOK_OP, op, fd);
		lx->p += 2;
		return 0;
	}
	if (strchr(";|<>", *p)) {
		char op[2] = { *p, '\0' };

		push(lx, TOK_OP, op, fd);
		lx->p++;
		return 0;
	}
	strbuf_addf(err, "syntax error: '%c' unexpected", *p);
	return -1;
}

static int
lex(struct lexer *lx, struct strbuf *err)
{
	int bare = 1;

	while (*lx->p) {
		char c = *lx->p;

		if (c == ' ' || c == '\t' || c == '\r') {
			flush_word(lx);
			bare = 1;
			lx->p++;
		} else if (c == '\n') {
			flush_word(lx);
			bare = 1;
			push(lx, TOK_OP, "\n", -1);
			lx->p++;
		} else if (c == '#' && !lx->in_word) {
			lx->p = strchrnul(lx->p, '\n');
		} else if (c == '\\') {
			bare = 0;
			if (lx->p[1] == '\n') {
				lx->p += 2;
				continue;
			}
			lx->in_word = 1;
			strbuf_addch(&lx->word, lx->p[1] ? lx->p[1] : '\\');
			lx->p += lx->p[1] ? 2 : 1;
		} else if (c == '\'' || c == '"') {
			bare = 0;
			if (lex_quoted(lx)) {
				strbuf_addstr(err, "syntax error: "
				    "unterminated quoted string");
				return -1;
			}
		} else if (strchr(";&|<>()", c)) {
			if (lex_operator(lx, bare, err))
				return -1;
			bare = 1;
		} else {
			lx->in_word = 1;
			strbuf_addch(&lx->word, c);
			lx->p++;
		}
	}
	flush_word(lx);
	return 0;
}

static struct sh_cmd *
new_cmd(struct sh_script *s, enum sh_join join)
{
	struct sh_cmd *cmd;

	XALLOC_GROW(s->cmds, s->nr + 1, s->alloc);
	cmd = &s->cmds[s->nr++];
	memset(cmd, 0, sizeof(*cmd));
	cmd->join = join;
	XALLOC_GROW(cmd->argv, 1, cmd->alloc_argv);
	cmd->argv[0] = NULL;
	return cmd;
}

static void
add_arg(struct sh_cmd *cmd, const char *w)
{
	XALLOC_GROW(cmd->argv, (size_t)cmd->argc + 2, cmd->alloc_argv);
	cmd->argv[cmd->argc++] = xstrdup(w);
	cmd->argv[cmd->argc] = NULL;
}

static int
add_redir(struct sh_cmd *cmd, const struct tok *op, const struct tok *arg,
    struct strbuf *err)
{
	struct sh_redir *r;

	if (!arg || arg->type != TOK_WORD) {
		strbuf_addf(err, "syntax error: '%s' unexpected", op->text);
		return -1;
	}
	XALLOC_GROW(cmd->redirs, cmd->nr_redirs + 1, cmd->alloc_redirs);
	r = &cmd->redirs[cmd->nr_redirs++];
	r->target = xstrdup(arg->text);
	if (!strcmp(op->text, "<") || !strcmp(op->text, "<&")) {
		r->kind = !strcmp(op->text, "<") ? SH_R_IN : SH_R_DUP;
		r->fd = op->fd >= 0 ? op->fd : 0;
	} else {
		r->kind = !strcmp(op->text, ">") ? SH_R_OUT :
		    !strcmp(op->text, ">>") ? SH_R_APPEND : SH_R_DUP;
		r->fd = op->fd >= 0 ? op->fd : 1;
	}
	return 0;
}

static int
is_empty(const struct sh_cmd *cmd)
{
	return !cmd->argc && !cmd->nr_redirs;
}

static int
parse(struct sh_script *s, const struct tok *t, size_t nr,
    struct strbuf *err)
{
	struct sh_cmd *cmd = new_cmd(s, SH_SEQ);
	size_t i;

	for (i = 0; i < nr; i++) {
		const char *op = t[i].text;
		enum sh_join join;

		if (t[i].type == TOK_WORD) {
			add_arg(cmd, op);
			continue;
		}
		if (strchr("<>", op[0])) {
			if (add_redir(cmd, &t[i], i + 1 < nr ? &t[i + 1] : NULL,
			    err))
				return -1;
			i++;
			continue;
		}
		if (!strcmp(op, "\n") && is_empty(cmd))
			continue;	/* blank line, or after && || | */
		join = !strcmp(op, "&&") ? SH_AND : !strcmp(op, "||") ?
		    SH_OR : !strcmp(op, "|") ? SH_PIPE : SH_SEQ;
		if (is_empty(cmd) && (join != SH_SEQ || cmd->join != SH_SEQ)) {
			strbuf_addf(err, "syntax error: '%s' unexpected", op);
			return -1;
		}
		if (is_empty(cmd))
			continue;	/* stray ";" */
		cmd = new_cmd(s, join);
	}
	if (is_empty(cmd) && cmd->join != SH_SEQ) {
		strbuf_addstr(err, "syntax error: unexpected end of input");
		return -1;
	}
	if (is_empty(cmd)) {
		free(cmd->argv);
		s->nr--;
	}
	return 0;
}

int
shparse(struct sh_script *out, const char *line, struct strbuf *err)
{
	struct lexer lx;
	size_t i;
	int ret;

	memset(&lx, 0, sizeof(lx));
	lx.p = line;
	strbuf_init(&lx.word, 0);
	ret = lex(&lx, err);
	if (!ret)
		ret = parse(out, lx.toks, lx.nr, err);
	for (i = 0; i < lx.nr; i++)
		free(lx.toks[i].text);
	free(lx.toks);
	strbuf_release(&lx.word);
	return ret;
}

void
shparse_release(struct sh_script *s)
{
	size_t i, j;

	for (i = 0; i < s->nr; i++) {
		struct sh_cmd *cmd = &s->cmds[i];

		for (j = 0; j < (size_t)cmd->argc; j++)
			free(cmd->argv[j]);
		free(cmd->argv);
		for (j = 0; j < cmd->nr_redirs; j++)
			free(cmd->redirs[j].target);
		free(cmd->redirs);
	}
	free(s->cmds);
	memset(s, 0, sizeof(*s));
}
