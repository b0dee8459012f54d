/*
 * fuzz_instrument.c: libFuzzer target for the `am instrument -r` status
 * protocol parser (instrument.h): whole output, then the same bytes cut
 * into lines at every CR as a stream would deliver them, and the summary.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "instrument.h"
#include "strbuf.h"

/* Every end follows its start: the invariant the scene step relies on. */
static int
check(void *arg, const struct instr_test *t)
{
	int *open = arg;

	if (t->end != *open)
		abort();
	if (t->end && !t->cls)
		abort();
	*open = !t->end;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int open = 0;
	struct instr_parser *p = instr_parser_new(check, &open);
	struct strbuf why = STRBUF_INIT;

	instr_parser_text(p, (const char *)data, size);
	instr_parser_end(p);
	if (open)
		abort();
	instr_run_problem(instr_parser_run(p), &why);
	instr_parser_free(p);

	p = instr_parser_new(check, &open);
	for (const char *s = (const char *)data, *e = s + size; s < e; ) {
		const char *cr = memchr(s, '\r', (size_t)(e - s));
		size_t n = cr ? (size_t)(cr - s) : (size_t)(e - s);

		instr_parser_line(p, s, n);
		s += n + (cr != NULL);
	}
	instr_parser_end(p);
	if (open)
		abort();
	instr_parser_free(p);
	strbuf_release(&why);
	return 0;
}
