/*
 * fuzz_results.c: libFuzzer target for results_parse() and the writer.
 *
 * A file that parses must also write, and what it writes must parse again
 * (the canonical form is a fixed point).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct results *r = NULL, *again = NULL;
	char *json, *json2;

	if (results_parse(&r, (const char *)data, size, "fuzz.json"))
		return 0;
	json = results_to_json(r);
	if (results_parse(&again, json, strlen(json), "rewritten.json"))
		abort();	/* the writer produced something unreadable */
	json2 = results_to_json(again);
	if (strcmp(json, json2))
		abort();	/* not a fixed point */
	free(json);
	free(json2);
	results_free(r);
	results_free(again);
	return 0;
}
