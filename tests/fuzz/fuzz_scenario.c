/*
 * fuzz_scenario.c: libFuzzer target for the scenario language.
 *
 * Parse, walk one iteration with repeats expanded, format every step and
 * check the screen, as `jankgate check` and `run` would.
 */
#include <stddef.h>
#include <stdint.h>

#include "scenario.h"
#include "strbuf.h"
#include "strlist.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist problems = STRLIST_INIT;
	struct scenario *scn = NULL;
	struct scenario_cursor cur;
	struct strbuf sb = STRBUF_INIT;
	const struct scenario_step *st;
	size_t n = 0;

	if (!scenario_parse(&scn, (const char *)data, size, "fuzz.scn",
	    "/nonexistent", &problems)) {
		scenario_cursor_init(&cur, scn);
		while ((st = scenario_cursor_next(&cur)) && n++ < 100000) {
			strbuf_reset(&sb);
			scenario_format_step(st, &sb);
		}
		scenario_check_screen(scn, 1080, 2400, &problems);
	}
	scenario_free(scn);
	strlist_release(&problems);
	strbuf_release(&sb);
	return 0;
}
