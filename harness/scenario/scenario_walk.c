/*
 * scenario_walk.c: what the executor needs from a parsed scenario: a cursor
 * that expands repeats, the check of pixel coordinates against a real
 * screen, percentages turned into pixels, and each step written back in
 * canonical form for logs and reports.
 *
 * It sees the scenario only through the public accessors of scenario.h, so
 * the parser's internals can change without touching the executor's side.
 */
#include <string.h>

#include "error.h"
#include "scenario_int.h"
#include "strlist.h"
#include "banned.h"

void
scenario_cursor_init(struct scenario_cursor *cur, const struct scenario *scn)
{
	memset(cur, 0, sizeof(*cur));
	cur->scn = scn;
}

const struct scenario_step *
scenario_cursor_next(struct scenario_cursor *cur)
{
	const struct scenario_step *st;

	while ((st = scenario_step(cur->scn, cur->pc))) {
		if (st->kind == SCN_REPEAT) {
			/* The parser keeps nesting within the stack's size. */
			cur->stack[cur->depth].begin = cur->pc;
			cur->stack[cur->depth++].left = st->count;
			cur->pc++;
		} else if (st->kind == SCN_REPEAT_END) {
			if (--cur->stack[cur->depth - 1].left > 0) {
				cur->pc = cur->stack[cur->depth - 1].begin + 1;
			} else {
				cur->depth--;
				cur->pc++;
			}
		} else {
			cur->pc++;
			return st;
		}
	}
	return NULL;
}

static int
off_screen(const struct scenario_coord *x, const struct scenario_coord *y,
    int width, int height)
{
	return (!x->percent && x->value >= width) ||
	    (!y->percent && y->value >= height);
}

static void
report_off_screen(const struct scenario_step *st,
    const struct scenario_coord *x, const struct scenario_coord *y,
    int width, int height, struct strlist *problems, int *found)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s:%d:%d: coordinates off screen (", st->file,
	    st->line, x->col);
	scn_put_coord(&sb, x);
	strbuf_addstr(&sb, " x ");
	scn_put_coord(&sb, y);
	strbuf_addf(&sb, " on a %dx%d screen)", width, height);
	if (!(*found)++)
		jg_error_set(JG_EINVAL, "%s", sb.buf);
	if (problems)
		strlist_add(problems, sb.buf);
	strbuf_release(&sb);
}

int
scenario_check_screen(const struct scenario *scn, int width, int height,
    struct strlist *problems)
{
	const struct scenario_step *st;
	int found = 0;

	if (width <= 0 || height <= 0)
		return jg_error_set(JG_EINVAL, "bad screen size %dx%d", width,
		    height);
	for (size_t i = 0; (st = scenario_step(scn, i)); i++) {
		if (st->kind != SCN_TAP && st->kind != SCN_LONGPRESS &&
		    st->kind != SCN_SWIPE)
			continue;
		if (off_screen(&st->x1, &st->y1, width, height))
			report_off_screen(st, &st->x1, &st->y1, width, height,
			    problems, &found);
		if (st->kind == SCN_SWIPE &&
		    off_screen(&st->x2, &st->y2, width, height))
			report_off_screen(st, &st->x2, &st->y2, width, height,
			    problems, &found);
	}
	return found ? JG_EINVAL : 0;
}

int
scenario_resolve(const struct scenario_coord *c, int size)
{
	long long px;

	if (!c->percent)
		return c->value;
	if (size <= 0)
		return 0;
	/* value is in thousandths of a percent: 100000 is the whole axis. */
	px = ((long long)c->value * size + 50000) / 100000;
	return px > size - 1 ? size - 1 : (int)px;
}

void
scenario_fling_path(const struct scenario_step *step, int width, int height,
    int xy[4])
{
	static const struct scenario_coord q1 = { 25000, 1, 0 },
	    mid = { 50000, 1, 0 }, q3 = { 75000, 1, 0 };
	int vertical = step->dir == SCN_UP || step->dir == SCN_DOWN;
	int forward = step->dir == SCN_DOWN || step->dir == SCN_RIGHT;
	int size = vertical ? height : width;
	int from = scenario_resolve(forward ? &q1 : &q3, size);
	int to = scenario_resolve(forward ? &q3 : &q1, size);
	int across = scenario_resolve(&mid, vertical ? width : height);

	xy[0] = vertical ? across : from;
	xy[1] = vertical ? from : across;
	xy[2] = vertical ? across : to;
	xy[3] = vertical ? to : across;
}

/* A word that reads back as itself: bare when it can be, else quoted. */
static void
put_word(struct strbuf *sb, const char *s)
{
	int bare = *s && *s != '#';

	for (const char *q = s; *q && bare; q++)
		bare = *q != ' ' && *q != '"' && (unsigned char)*q >= 0x20 &&
		    *q != 0x7f;
	if (bare) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addch(sb, '\\');
		if (*s == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*s == '\t')
			strbuf_addstr(sb, "\\t");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

static void
put_xy(struct strbuf *sb, const struct scenario_coord *x,
    const struct scenario_coord *y)
{
	strbuf_addch(sb, ' ');
	scn_put_coord(sb, x);
	strbuf_addch(sb, ' ');
	scn_put_coord(sb, y);
}

void
scenario_format_step(const struct scenario_step *st, struct strbuf *out)
{
	static const char *const mode[] = { "cold", "warm", "hot" };
	static const char *const dir[] = { "up", "down", "left", "right" };
	static const char *const word[] = {
		[SCN_LAUNCH] = "launch", [SCN_STOP] = "stop",
		[SCN_CLEAR] = "clear", [SCN_SCENE] = "scene",
		[SCN_SCENE_END] = "end", [SCN_REPEAT] = "repeat",
		[SCN_REPEAT_END] = "end", [SCN_TAP] = "tap",
		[SCN_TAP_TEXT] = "tap text", [SCN_TAP_ID] = "tap id",
		[SCN_TAP_DESC] = "tap desc", [SCN_LONGPRESS] = "longpress",
		[SCN_SWIPE] = "swipe", [SCN_FLING] = "fling",
		[SCN_TYPE] = "type", [SCN_KEY] = "key", [SCN_WAIT] = "wait",
		[SCN_WAIT_IDLE] = "wait idle",
		[SCN_WAIT_ACTIVITY] = "wait activity",
		[SCN_WAIT_TEXT] = "wait text",
		[SCN_EXPECT_ACTIVITY] = "expect activity",
		[SCN_EXEC] = "exec",
		[SCN_INSTRUMENT] = "instrument",
	};
	const char *name;

	strbuf_addstr(out, word[st->kind]);
	switch (st->kind) {
	case SCN_LAUNCH:
		strbuf_addf(out, " %s", mode[st->mode]);
		break;
	case SCN_REPEAT:
		strbuf_addf(out, " %d", st->count);
		break;
	case SCN_TAP:
	case SCN_LONGPRESS:
	case SCN_SWIPE:
		put_xy(out, &st->x1, &st->y1);
		if (st->kind == SCN_SWIPE)
			put_xy(out, &st->x2, &st->y2);
		break;
	case SCN_FLING:
		strbuf_addf(out, " %s", dir[st->dir]);
		break;
	case SCN_KEY:
		name = scenario_key_name(st->key);
		if (name)
			strbuf_addf(out, " %s", name);
		else
			strbuf_addf(out, " %d", st->key);
		break;
	default:
		break;
	}
	if (st->text) {
		strbuf_addch(out, ' ');
		put_word(out, st->text);
	}
	for (char **a = st->argv; a && *a; a++) {
		strbuf_addch(out, ' ');
		put_word(out, *a);
	}
	for (size_t i = 0; i < st->nr_tests; i++) {
		strbuf_addch(out, ' ');
		put_word(out, st->tests[i]);
	}
	for (size_t i = 0; i + 1 < st->nr_extras; i += 2) {
		strbuf_addf(out, " arg %s ", st->extras[i]);
		put_word(out, st->extras[i + 1]);
	}
	switch (st->kind) {
	case SCN_LONGPRESS:
	case SCN_SWIPE:
	case SCN_FLING:
	case SCN_WAIT:
	case SCN_WAIT_IDLE:
	case SCN_WAIT_ACTIVITY:
	case SCN_WAIT_TEXT:
		strbuf_addf(out, " %dms", st->ms);
		break;
	default:
		break;
	}
}
