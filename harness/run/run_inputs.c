/*
 * run_inputs.c: the input steps of a scene, with the device time each was
 * sent at (issue 20).
 *
 * A report's frame timeline marks where the scenario touched the screen,
 * so a reader sees a janky burst start with a fling or a tap.  The time is
 * the host's when the `input` command leaves, moved to the device clock
 * by the offset learnt from gfxinfo's Uptime at the scene's start (run.c);
 * the shell then spends ~60 ms starting `input` before the gesture
 * begins, so a tick marks the step's start, not its first touch event.
 */
#include <math.h>

#include "results.h"
#include "run_int.h"
#include "scenario.h"
#include "strbuf.h"
#include "banned.h"

void
run_note_input(struct run_dev *d, struct rs_scene *sc,
    const struct scenario_step *st)
{
	struct strbuf text = STRBUF_INIT;

	scenario_format_step(st, &text);
	rs_scene_add_input(sc, d->have_offset ? run_now_ms() +
	    d->clock_offset : NAN, text.buf);
	strbuf_release(&text);
}
