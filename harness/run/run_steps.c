/*
 * run_steps.c: scenario input steps as `input` command lines.
 *
 *	tap X Y               input tap X Y
 *	longpress X Y MS      input swipe X Y X Y MS   (a swipe that does not
 *	                                                move is a long press)
 *	swipe X1 Y1 X2 Y2 MS  input swipe X1 Y1 X2 Y2 MS
 *	fling DIR MS          input swipe ... MS       (scenario_fling_path)
 *	key CODE              input keyevent CODE      (the number: every
 *	                                                release knows it)
 *	type TEXT             input text 'TE%sXT'
 *
 * Percentages are resolved on the screen size `wm size` reports (the
 * override when one is set, as apps draw at it).  `input text` reads its
 * argument through the device shell and then replaces every "%s" with a
 * space (InputShellCommand), so spaces are sent as %s, the word is
 * single-quoted with sh_quote(), and a literal "%s" in the text, which
 * `input` cannot be told to keep, is typed as two commands split between
 * the '%' and the 's'.  `input text` types ASCII; what a device does with
 * other characters is its own business (most drop them).
 */
#include <string.h>

#include "error.h"
#include "run_int.h"
#include "scenario.h"
#include "shquote.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"

int
run_step_is_input(const struct scenario_step *st)
{
	switch (st->kind) {
	case SCN_TAP:
	case SCN_LONGPRESS:
	case SCN_SWIPE:
	case SCN_FLING:
	case SCN_KEY:
	case SCN_TYPE:
		return 1;
	default:
		return 0;
	}
}

void
run_tap_command(struct strbuf *out, int x, int y)
{
	strbuf_addf(out, "input tap %d %d", x, y);
}

static void
swipe(struct strlist *cmds, int x1, int y1, int x2, int y2, int ms)
{
	strlist_addf(cmds, "input swipe %d %d %d %d %d", x1, y1, x2, y2, ms);
}

/* One `input text` per piece of `text`, spaces as %s (see the header). */
static void
type_text(struct strlist *cmds, const char *text)
{
	struct strbuf piece = STRBUF_INIT, cmd = STRBUF_INIT;

	for (const char *p = text; ; p++) {
		if (*p == ' ') {
			strbuf_addstr(&piece, "%s");
			continue;
		}
		if (*p && !(*p == 's' && piece.len && p[-1] == '%')) {
			strbuf_addch(&piece, *p);
			continue;
		}
		/* The end, or an 's' after a typed '%': send what we have. */
		if (piece.len) {
			strbuf_setlen(&cmd, 0);
			strbuf_addstr(&cmd, "input text ");
			sh_quote(&cmd, piece.buf);
			strlist_add(cmds, cmd.buf);
			strbuf_setlen(&piece, 0);
		}
		if (!*p)
			break;
		strbuf_addch(&piece, *p);
	}
	strbuf_release(&piece);
	strbuf_release(&cmd);
}

int
run_input_commands(const struct scenario_step *st, int width, int height,
    struct strlist *cmds)
{
	int x1, y1, xy[4];

	switch (st->kind) {
	case SCN_TAP:
		strlist_addf(cmds, "input tap %d %d",
		    scenario_resolve(&st->x1, width),
		    scenario_resolve(&st->y1, height));
		return 0;
	case SCN_LONGPRESS:
		x1 = scenario_resolve(&st->x1, width);
		y1 = scenario_resolve(&st->y1, height);
		swipe(cmds, x1, y1, x1, y1, st->ms);
		return 0;
	case SCN_SWIPE:
		swipe(cmds, scenario_resolve(&st->x1, width),
		    scenario_resolve(&st->y1, height),
		    scenario_resolve(&st->x2, width),
		    scenario_resolve(&st->y2, height), st->ms);
		return 0;
	case SCN_FLING:
		scenario_fling_path(st, width, height, xy);
		swipe(cmds, xy[0], xy[1], xy[2], xy[3], st->ms);
		return 0;
	case SCN_KEY:
		strlist_addf(cmds, "input keyevent %d", st->key);
		return 0;
	case SCN_TYPE:
		type_text(cmds, st->text);
		return 0;
	default:
		return jg_error_set(JG_EINVAL, "step on line %d is not input",
		    st->line);
	}
}

void
run_component(struct strbuf *out, const char *package, const char *activity)
{
	if (strchr(activity, '/'))
		strbuf_addstr(out, activity);
	else
		strbuf_addf(out, "%s/%s", package, activity);
}
