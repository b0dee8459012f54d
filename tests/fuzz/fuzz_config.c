/*
 * fuzz_config.c: libFuzzer target for config_parse().
 *
 * Any bytes must give 0 with a config or JG_EINVAL with problems, never a
 * crash, a leak or undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "source.h"
#include "strlist.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist problems = STRLIST_INIT;
	struct config *cfg = NULL;

	config_parse(&cfg, (const char *)data, size, "fuzz.json",
	    &source_plugins, &problems);
	config_free(cfg);
	strlist_release(&problems);
	return 0;
}
