/*
 * shparse.h: parsing a command line the way Android's /system/bin/sh
 * (mksh) would, for the subset that adb clients send.
 *
 *   line     := item { sep item }
 *   sep      := ";" | newline | "&&" | "||" | "|"
 *   item     := { word | redir }
 *   redir    := [fd] "<" word | [fd] ">" word | [fd] ">>" word
 *             | [fd] ">&" word          fd: one digit right before it
 *   word     := { plain | '\'' text '\'' | '"' text '"' | '\\' char }
 *
 * Single quotes keep everything; double quotes let backslash escape only
 * $ ` " \ and newline; an unquoted backslash escapes any character.  `#`
 * at the start of a word comments out the rest of the line.  There is no
 * expansion of $variables, globs or `~` here and no background jobs: "(",
 * ")" and a lone "&" are syntax errors to this parser.  shell.c adds the
 * two things adb clients rely on: "$?" and a leading "( list )" group.
 * Pipes are parsed here; the shell runs them buffered.
 */
#ifndef SIM_SHPARSE_H
#define SIM_SHPARSE_H

#include <stddef.h>

struct strbuf;

enum sh_join {
	SH_SEQ,			/* first, or after ";" or a newline */
	SH_AND,			/* after "&&" */
	SH_OR,			/* after "||" */
	SH_PIPE,		/* after "|" */
};

enum sh_redir_kind {
	SH_R_IN,		/* fd < target */
	SH_R_OUT,		/* fd > target */
	SH_R_APPEND,		/* fd >> target */
	SH_R_DUP,		/* fd >& target (a descriptor number) */
};

struct sh_redir {
	int fd;
	enum sh_redir_kind kind;
	char *target;
};

struct sh_cmd {
	enum sh_join join;
	char **argv;		/* NULL-terminated */
	int argc;
	size_t alloc_argv;
	struct sh_redir *redirs;
	size_t nr_redirs, alloc_redirs;
};

struct sh_script {
	struct sh_cmd *cmds;
	size_t nr, alloc;
};

/*
 * Parse `line` into `out` (zeroed by the caller).  Returns 0, or -1 with
 * the shell's complaint ("syntax error: '&&' unexpected") in `err`; `out`
 * must be released either way.
 */
int shparse(struct sh_script *out, const char *line, struct strbuf *err);
/* Free every command of `s` and zero it. */
void shparse_release(struct sh_script *s);

#endif
