/*
 * fuzz_devprops.c: libFuzzer target for the device identity parsers
 * (getprop listing, wm size, dumpsys display).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "devprops.h"
#include "strbuf.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct device_props p;
	struct strbuf key = STRBUF_INIT;
	double hz;
	int w, h;

	memcpy(text, data, size);
	text[size] = '\0';
	device_props_init(&p);
	device_props_parse_getprop(&p, text);
	device_props_parse_wm_size(text, &w, &h);
	device_props_parse_refresh(text, &hz);
	device_props_key(&key, &p);
	device_props_release(&p);
	strbuf_release(&key);
	free(text);
	return 0;
}
