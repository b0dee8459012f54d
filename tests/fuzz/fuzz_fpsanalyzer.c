/*
 * fuzz_fpsanalyzer.c: libFuzzer target for the fpsanalyzer source: the
 * bytes as a logcat capture through the logcat hook (two scene windows,
 * a known or unknown refresh rate, with or without a package filter) and
 * through the parse hook (logsource.h).
 */
#include "logsource.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_log_source("fpsanalyzer", data, size,
	    size % 3 ? "com.example.shop" : NULL, size % 2 ? 90 : 0, true);
}
