/*
 * fuzz_apk.c: libFuzzer target for the APK manifest reader: the input as
 * a whole zip, and as binary XML alone.  Seed it with the fixtures in
 * tests/unit/data/apk/.
 */
#include <stddef.h>
#include <stdint.h>

#include "apk.h"
#include "error.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct apk_manifest m;

	if (!apk_manifest_from_zip(data, size, &m))
		apk_manifest_release(&m);
	if (!apk_parse_axml(data, size, &m))
		apk_manifest_release(&m);
	jg_error_clear();
	return 0;
}
