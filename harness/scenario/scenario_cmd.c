/*
 * scenario_cmd.c: the commands of the scenario language, and how one line's
 * words become one step.
 *
 * The command table below is the grammar of a single line; everything that
 * spans lines (blocks, includes, which commands a scene allows) is
 * scenario.c's business.  A form is a command plus an optional sub word
 * ("tap text"); its `args` string has one letter per argument:
 *
 *	x y	coordinate (pixels or percent)	c	repeat count
 *	G	optional gesture duration	k	key name or code
 *	T	optional timeout		d	fling direction
 *	w	wait duration			a	activity name
 *	s	text (label, description)	i	resource id
 *	n	scene name			f	file name
 *	r	the rest of the line, one word or more (exec's argv)
 *
 * Optional arguments come last, so a line is read left to right without
 * backtracking.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "scenario_int.h"
#include "xalloc.h"
#include "banned.h"

#define MAX_REPEAT 10000
#define MAX_SCENE_NAME 100
#define MAX_GESTURE_MS 60000
#define MAX_WAIT_MS 3600000

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
	"0123456789_."
#define ID_CHARS NAME_CHARS ":/"
#define CLASS_CHARS NAME_CHARS "$/"

/*
 * Forms of one command are neighbours, those with a sub word before the
 * one without.  The order of commands is the order of the "expected one
 * of" list in messages.
 */
static const struct scn_form forms[] = {
	{ "launch", NULL, SCN_LAUNCH, NULL, SCN_F_PROC,
	  "launch [cold|warm|hot] [ACTIVITY]" },
	{ "stop", NULL, SCN_STOP, "", SCN_F_PROC, "stop" },
	{ "clear", NULL, SCN_CLEAR, "", SCN_F_PROC, "clear" },
	{ "scene", NULL, SCN_SCENE, "n", 0, "scene NAME" },
	{ "end", NULL, SCN_CMD_END, "", 0, "end" },
	{ "tap", "text", SCN_TAP_TEXT, "s", SCN_F_UI, "tap text LABEL" },
	{ "tap", "id", SCN_TAP_ID, "i", SCN_F_UI, "tap id RESOURCE_ID" },
	{ "tap", "desc", SCN_TAP_DESC, "s", SCN_F_UI,
	  "tap desc DESCRIPTION" },
	{ "tap", NULL, SCN_TAP, "xy", 0, "tap X Y" },
	{ "longpress", NULL, SCN_LONGPRESS, "xyG", 0, "longpress X Y [MS]" },
	{ "swipe", NULL, SCN_SWIPE, "xyxyG", 0, "swipe X1 Y1 X2 Y2 [MS]" },
	{ "fling", NULL, SCN_FLING, "dG", 0, "fling up|down|left|right [MS]" },
	{ "type", NULL, SCN_TYPE, "s", 0, "type TEXT" },
	{ "key", NULL, SCN_KEY, "k", 0, "key NAME|CODE" },
	{ "wait", "idle", SCN_WAIT_IDLE, "T", 0, "wait idle [TIMEOUT]" },
	{ "wait", "activity", SCN_WAIT_ACTIVITY, "aT", SCN_F_AM,
	  "wait activity ACTIVITY [TIMEOUT]" },
	{ "wait", "text", SCN_WAIT_TEXT, "sT", SCN_F_UI,
	  "wait text TEXT [TIMEOUT]" },
	{ "wait", NULL, SCN_WAIT, "w", 0, "wait MS" },
	{ "repeat", NULL, SCN_REPEAT, "c", 0, "repeat N" },
	{ "include", NULL, SCN_CMD_INCLUDE, "f", 0, "include FILE" },
	{ "expect", "activity", SCN_EXPECT_ACTIVITY, "a", SCN_F_AM,
	  "expect activity ACTIVITY" },
	{ "exec", NULL, SCN_EXEC, "r", 0, "exec COMMAND [ARG...]" },
	{ "instrument", NULL, SCN_INSTRUMENT, NULL, SCN_F_PROC,
	  "instrument RUNNER [TEST]... [arg KEY VALUE]..." },
};

#define NFORMS (sizeof(forms) / sizeof(forms[0]))

static const char *const modes[] = { "cold", "warm", "hot", NULL };
static const char *const dirs[] = { "up", "down", "left", "right", NULL };

/* The usage word of argument `i` of `fm` ("Y2" in "swipe X1 Y1 X2 Y2"). */
static void
usage_word(const struct scn_form *fm, size_t i, char *buf, size_t size)
{
	const char *s = fm->usage;
	size_t skip = i + 1 + (fm->sub != NULL);

	while (skip-- && s)
		if ((s = strchr(s, ' ')))
			s++;
	if (!s)
		s = "argument";
	snprintf(buf, size, "%.*s", (int)strcspn(s, " "), s);
}

static int
is_class_name(const char *s)
{
	return strchr(s, '.') && strlen(s) == strspn(s, CLASS_CHARS);
}

static int
has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* Scene names end up in reports and baseline paths: keep them plain. */
static int
check_scene_name(const char *s, size_t len)
{
	char b[80];

	if (!len)
		return jg_error_set(JG_EINVAL, "empty scene name");
	if (len > MAX_SCENE_NAME)
		return jg_error_set(JG_EINVAL, "scene name '%s' too long (%zu "
		    "bytes, at most %d)", scn_show(b, sizeof(b), s), len,
		    MAX_SCENE_NAME);
	if (has_control(s))
		return jg_error_set(JG_EINVAL, "control character in scene "
		    "name '%s'", scn_show(b, sizeof(b), s));
	if (s[0] == ' ' || s[len - 1] == ' ')
		return jg_error_set(JG_EINVAL, "scene name '%s' starts or ends "
		    "with a space", scn_show(b, sizeof(b), s));
	return 0;
}

static int
read_direction(const struct scn_token *t, enum scn_dir *out)
{
	const char *near;
	char b[80];

	for (int d = 0; dirs[d]; d++)
		if (!t->quoted && !strcmp(t->s, dirs[d])) {
			*out = (enum scn_dir)d;
			return 0;
		}
	near = scn_suggest(t->s, dirs);
	if (near)
		return jg_error_set(JG_EINVAL, "bad direction '%s' (did you "
		    "mean '%s'?)", scn_show(b, sizeof(b), t->s), near);
	return jg_error_set(JG_EINVAL, "bad direction '%s' (expected up, "
	    "down, left or right)", scn_show(b, sizeof(b), t->s));
}

/* Check a word that becomes st->text (letters a, i, n, s, f). */
static int
check_text(char letter, const struct scn_token *t)
{
	char b[80];

	switch (letter) {
	case 'a':
		if (!is_class_name(t->s))
			return jg_error_set(JG_EINVAL, "bad activity name '%s' "
			    "(expected a class name such as .MainActivity or "
			    "com.shop/.MainActivity)", scn_show(b, sizeof(b),
			    t->s));
		return 0;
	case 'i':
		if (!t->len || t->len != strspn(t->s, ID_CHARS))
			return jg_error_set(JG_EINVAL, "bad resource id '%s' "
			    "(expected a name such as buy or com.shop:id/buy)",
			    scn_show(b, sizeof(b), t->s));
		return 0;
	case 'n':
		return check_scene_name(t->s, t->len);
	case 'f':
		if (has_control(t->s))
			return jg_error_set(JG_EINVAL, "control character in "
			    "file name '%s'", scn_show(b, sizeof(b), t->s));
		/* fall through */
	default:
		if (!t->len)
			return jg_error_set(JG_EINVAL, "empty %s",
			    letter == 'f' ? "file name" : "text");
		return 0;
	}
}

/* Read argument `t` of kind `letter` into `st`; `nth` counts coordinates. */
static int
read_arg(char letter, int nth, const struct scn_token *t,
    struct scenario_step *st)
{
	struct scenario_coord *coord[] = { &st->x1, &st->y1, &st->x2, &st->y2 };

	switch (letter) {
	case 'x':
	case 'y':
		return scn_read_coord(t, coord[nth]);
	case 'G':
		return scn_read_duration(t, "duration", 1, MAX_GESTURE_MS,
		    &st->ms);
	case 'T':
		return scn_read_duration(t, "timeout", 1, MAX_WAIT_MS, &st->ms);
	case 'w':
		return scn_read_duration(t, "duration", 1, MAX_WAIT_MS,
		    &st->ms);
	case 'c':
		return scn_read_count(t, 1, MAX_REPEAT, &st->count);
	case 'k':
		return scn_read_key(t, &st->key);
	case 'd':
		return read_direction(t, &st->dir);
	}
	if (check_text(letter, t))
		return JG_EINVAL;
	st->text = xstrndup(t->s, t->len);
	return 0;
}

static int
unexpected(const struct scn_token *t, const struct scn_form *fm, int *col)
{
	char b[80];

	*col = t->col;
	return jg_error_set(JG_EINVAL, "unexpected argument '%s' (usage: %s)",
	    scn_show(b, sizeof(b), t->s), fm->usage);
}

/*
 * "launch [cold|warm|hot] [ACTIVITY]": the first word is a mode when it is
 * one, else an activity, which must contain a dot; so "launch clod" is a
 * typo, not an activity called "clod".
 */
static int
read_launch(const struct scn_lexer *lx, const struct scn_form *fm,
    struct scenario_step *st, int *col)
{
	const struct scn_token *tok = lx->tok;
	size_t i = 1;
	const char *near;
	char b[80];

	st->mode = SCN_COLD;
	for (int m = 0; i < lx->nr && modes[m]; m++)
		if (!tok[i].quoted && !strcmp(tok[i].s, modes[m])) {
			st->mode = (enum scn_launch)m;
			i++;
			break;
		}
	if (i < lx->nr && !is_class_name(tok[i].s)) {
		*col = tok[i].col;
		near = i == 1 ? scn_suggest(tok[i].s, modes) : NULL;
		if (near)
			return jg_error_set(JG_EINVAL, "bad launch mode '%s' "
			    "(did you mean '%s'?)", scn_show(b, sizeof(b),
			    tok[i].s), near);
		return jg_error_set(JG_EINVAL, "bad argument '%s' to 'launch' "
		    "(expected %sa class name such as .MainActivity)",
		    scn_show(b, sizeof(b), tok[i].s),
		    i == 1 ? "cold, warm, hot or " : "");
	}
	if (i + 1 < lx->nr)
		return unexpected(&tok[i + 1], fm, col);
	if (i < lx->nr)
		st->text = xstrndup(tok[i].s, tok[i].len);
	return 0;
}

/*
 * "exec COMMAND [ARG...]": every word after the command is one argument,
 * quotes resolved; none may be empty or hold a control character (a tab
 * inside quotes aside), since each reaches execvp() as it is.
 */
static int
read_rest(const struct scn_lexer *lx, const struct scn_form *fm,
    struct scenario_step *st, int *col)
{
	const struct scn_token *tok = lx->tok;
	char b[80];

	if (lx->nr < 2) {
		*col = tok[0].end_col;
		return jg_error_set(JG_EINVAL, "missing COMMAND (usage: %s)",
		    fm->usage);
	}
	for (size_t i = 1; i < lx->nr; i++) {
		const char *s = tok[i].s;

		for (; *s && (*s == '\t' || !((unsigned char)*s < 0x20 ||
		    *s == 0x7f)); s++)
			;
		if (!tok[i].len || *s) {
			*col = tok[i].col;
			return jg_error_set(JG_EINVAL, "%s argument '%s' to "
			    "'exec'", tok[i].len ? "control character in" :
			    "empty", scn_show(b, sizeof(b), tok[i].s));
		}
	}
	st->argv = xcalloc(lx->nr, sizeof(*st->argv));
	for (size_t i = 1; i < lx->nr; i++)
		st->argv[i - 1] = xstrndup(tok[i].s, tok[i].len);
	return 0;
}

int
scn_read_args(const struct scn_lexer *lx, const struct scn_form *fm,
    struct scenario_step *st, int *col)
{
	const struct scn_token *tok = lx->tok;
	size_t i = fm->sub ? 2 : 1, a = 0;
	int coords = 0;
	char word[32];

	if (fm->kind >= 0)
		st->kind = (enum scn_kind)fm->kind;
	st->ms = fm->kind == SCN_LONGPRESS ? SCN_LONGPRESS_MS :
	    fm->kind == SCN_SWIPE ? SCN_SWIPE_MS :
	    fm->kind == SCN_FLING ? SCN_FLING_MS : SCN_TIMEOUT_MS;
	if (fm->kind == SCN_LAUNCH)
		return read_launch(lx, fm, st, col);
	if (fm->kind == SCN_EXEC)
		return read_rest(lx, fm, st, col);
	if (fm->kind == SCN_INSTRUMENT)
		return scn_read_instrument(lx, fm, st, col);
	for (const char *l = fm->args; *l; l++, a++) {
		if (i >= lx->nr) {
			if (*l == 'G' || *l == 'T')
				break;
			usage_word(fm, a, word, sizeof(word));
			*col = tok[lx->nr - 1].end_col;
			jg_error_set(JG_EINVAL, "missing %s (usage: %s)", word,
			    fm->usage);
			goto fail;
		}
		if (read_arg(*l, coords, &tok[i], st)) {
			*col = tok[i].col;
			goto fail;
		}
		coords += *l == 'x' || *l == 'y';
		i++;
	}
	if (i < lx->nr) {
		unexpected(&tok[i], fm, col);
		goto fail;
	}
	return 0;
fail:
	free(st->text);
	st->text = NULL;
	return JG_EINVAL;
}

/*
 * The error for a word after `cmd` that is none of its sub words: a typo
 * of one, or (for tap and wait) neither a sub word nor a number.
 */
static void
bad_sub(const struct scn_token *t, const char *cmd, const char *const *subs,
    const struct scn_form *plain)
{
	const char *near = t->quoted ? NULL : scn_suggest(t->s, subs);
	struct strbuf sb = STRBUF_INIT;
	char b[80];

	strbuf_addf(&sb, "bad argument '%s' to '%s' ",
	    scn_show(b, sizeof(b), t->s), cmd);
	if (near) {
		strbuf_addf(&sb, "(did you mean '%s'?)", near);
	} else {
		strbuf_addf(&sb, "(expected %s", !plain ? "one of: " :
		    plain->args[0] == 'x' ? "coordinates or one of: " :
		    "a duration or one of: ");
		for (size_t i = 0; subs[i]; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", subs[i]);
		strbuf_addch(&sb, ')');
	}
	jg_error_set(JG_EINVAL, "%s", sb.buf);
	strbuf_release(&sb);
}

static void
unknown_command(const char *cmd)
{
	const char *names[NFORMS + 1], *near;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	char b[80];

	for (size_t i = 0; i < NFORMS; i++)
		if (!n || strcmp(names[n - 1], forms[i].cmd))
			names[n++] = forms[i].cmd;
	names[n] = NULL;
	strbuf_addf(&sb, "unknown command '%s' ", scn_show(b, sizeof(b), cmd));
	near = scn_suggest(cmd, names);
	if (near) {
		strbuf_addf(&sb, "(did you mean '%s'?)", near);
	} else {
		strbuf_addstr(&sb, "(expected one of: ");
		for (size_t i = 0; i < n; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
		strbuf_addch(&sb, ')');
	}
	jg_error_set(JG_EINVAL, "%s", sb.buf);
	strbuf_release(&sb);
}

const struct scn_form *
scn_find_form(const struct scn_lexer *lx, int *col)
{
	const struct scn_token *tok = lx->tok;
	const struct scn_form *plain = NULL;
	const char *subs[NFORMS + 1], *cmd = tok[0].s;
	struct strbuf usage = STRBUF_INIT;
	size_t nsubs = 0;

	*col = tok[0].col;
	if (tok[0].quoted) {
		jg_error_set(JG_EINVAL, "expected a command, not a quoted "
		    "word");
		return NULL;
	}
	for (size_t i = 0; i < NFORMS && !plain; i++) {
		if (strcmp(forms[i].cmd, cmd))
			continue;
		if (!forms[i].sub)
			plain = &forms[i];
		else if (lx->nr > 1 && !tok[1].quoted &&
		    !strcmp(tok[1].s, forms[i].sub))
			return &forms[i];
		else
			subs[nsubs++] = forms[i].sub;
	}
	subs[nsubs] = NULL;
	if (!plain && !nsubs) {
		unknown_command(cmd);
		return NULL;
	}
	if (!nsubs)
		return plain;
	if (lx->nr == 1) {
		for (size_t i = 0; i < NFORMS; i++)
			if (!strcmp(forms[i].cmd, cmd))
				strbuf_addf(&usage, "%s%s",
				    usage.len ? " | " : "", forms[i].usage);
		*col = tok[0].end_col;
		jg_error_set(JG_EINVAL, "missing argument (usage: %s)",
		    usage.buf);
		strbuf_release(&usage);
		return NULL;
	}
	/* Sub words are bare letters; the rest is for "tap 5", "wait 1s". */
	if (plain && (tok[1].quoted || !isalpha((unsigned char)tok[1].s[0])))
		return plain;
	*col = tok[1].col;
	bad_sub(&tok[1], cmd, subs, plain);
	return NULL;
}
