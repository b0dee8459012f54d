/*
 * scenario_int.h: what the scenario_*.c files share, private to them.
 *
 * The scenario module is four files, one step of the pipeline each:
 * scenario_lex.c splits a line into words and reads values out of them,
 * scenario_cmd.c knows the commands and turns one line's words into a step,
 * scenario.c strings lines together (blocks, includes, error collection)
 * and owns the parsed object, and scenario_walk.c serves the executor
 * (cursor, screen checks, pixels, canonical text).
 *
 * Functions here report through jg_error_set() with a message that names the
 * bad word but no position, and give the column separately: only scenario.c,
 * which knows the file and line, writes "FILE:LINE:COL: ".
 */
#ifndef JG_SCENARIO_INT_H
#define JG_SCENARIO_INT_H

#include <stddef.h>

#include "scenario.h"
#include "strbuf.h"

/* ---- words (scenario_lex.c) ---- */

struct scn_token {
	const char *s;		/* the value, NUL-terminated, quotes resolved */
	size_t len;
	size_t off;		/* offset of the value in the lexer's buffer */
	int col;		/* column of the first character */
	int end_col;		/* column just after the last character */
	int quoted;
};

struct scn_lexer {
	struct strbuf text;	/* every value of the line, NUL-separated */
	struct scn_token *tok;
	size_t nr, alloc;
	int err_col;		/* column of the last error */
};

void scn_lexer_init(struct scn_lexer *lx);
void scn_lexer_release(struct scn_lexer *lx);

/*
 * Split `len` bytes of `line` (no newline) into lx->tok[0 .. lx->nr).
 * Returns 0, or JG_EINVAL with the message set and lx->err_col pointing at
 * the problem; tokens stay valid until the next call.
 */
int scn_lex_line(struct scn_lexer *lx, const char *line, size_t len);

/* The column (1-based, in code points) of byte `pos` of `line`. */
int scn_column(const char *line, size_t pos);

/* ---- values (scenario_lex.c) ---- */

/*
 * Value readers: 0 on success, JG_EINVAL with a message otherwise.  `what`
 * names the value in messages ("duration", "timeout").
 */
int scn_read_coord(const struct scn_token *t, struct scenario_coord *out);
int scn_read_duration(const struct scn_token *t, const char *what, int min_ms,
    int max_ms, int *out);
int scn_read_count(const struct scn_token *t, int min, int max, int *out);
int scn_read_key(const struct scn_token *t, int *out);

/*
 * The candidate of `names` (NULL-terminated) closest to `word`, ignoring
 * case, when it is close enough to be a plausible typo; else NULL.
 */
const char *scn_suggest(const char *word, const char *const *names);

/*
 * `s` made fit to quote in a message: newlines and tabs escaped, cut to
 * about forty characters with "..." at a character boundary.  Returns `buf`.
 */
char *scn_show(char *buf, size_t size, const char *s);

/* Append a coordinate as written: "540" or "12.5%". */
void scn_put_coord(struct strbuf *sb, const struct scenario_coord *c);

/* ---- commands (scenario_cmd.c) ---- */

/* Commands that make no step of their own (scn_form.kind). */
enum { SCN_CMD_END = -1, SCN_CMD_INCLUDE = -2 };

/* Why a command may not run inside a scene (scn_form.flags). */
enum {
	SCN_F_UI = 1,		/* it dumps the UI hierarchy */
	SCN_F_AM = 2,		/* it queries the activity manager */
	SCN_F_PROC = 4,		/* it stops or restarts the app process */
};

struct scn_form {
	const char *cmd, *sub;	/* "tap", "text" */
	int kind;		/* enum scn_kind or SCN_CMD_* */
	const char *args;	/* argument letters, see scenario_cmd.c */
	int flags;
	const char *usage;	/* "tap text LABEL" */
};

/*
 * The form of the command on the line `lx` holds (at least one word).
 * NULL when there is none, with the message set and *col at the word.
 */
const struct scn_form *scn_find_form(const struct scn_lexer *lx, int *col);

/*
 * Read the arguments of `fm` from the line into `st`, defaults included;
 * st->text is allocated for the caller.  Returns 0, or JG_EINVAL with the
 * message set, *col at the problem and st->text left NULL.
 */
int scn_read_args(const struct scn_lexer *lx, const struct scn_form *fm,
    struct scenario_step *st, int *col);

/* ---- instrument (scenario_instr.c) ---- */

/*
 * The arguments of `instrument` into st->text, st->tests and st->extras,
 * as scn_read_args(); on failure nothing stays allocated.
 */
int scn_read_instrument(const struct scn_lexer *lx, const struct scn_form *fm,
    struct scenario_step *st, int *col);

/* Free what scn_read_instrument() allocated in `st` (not st->text). */
void scn_step_release_words(struct scenario_step *st);

#endif
