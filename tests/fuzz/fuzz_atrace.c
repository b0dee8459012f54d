/*
 * fuzz_atrace.c: libFuzzer target for the Trace sections of an atrace
 * capture (atrace.c).  Invariants: every kept section has a name and a
 * begin time, times are not negative, and pids are not negative; a
 * second parse into the same capture (a prefix of "") keeps it sound.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "atrace.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct atrace_capture c;

	atrace_capture_init(&c);
	(void)atrace_parse(&c, (const char *)data, size, "jankgate:");
	for (size_t i = 0; i < c.nr; i++) {
		const struct atrace_section *s = &c.sections[i];

		if (!s->name || isnan(s->begin_ms) || s->begin_ms < 0 ||
		    (!isnan(s->end_ms) && s->end_ms < 0) || s->pid < 0)
			abort();
	}
	(void)atrace_parse(&c, (const char *)data, size, "");
	atrace_capture_release(&c);
	return 0;
}
