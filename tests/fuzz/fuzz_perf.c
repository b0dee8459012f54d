/*
 * fuzz_perf.c: libFuzzer target for the perf source: the bytes as a
 * logcat capture through the logcat hook (two scene windows, so events
 * are placed by time) and through the parse hook (logsource.h).
 */
#include "logsource.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_log_source("perf", data, size, NULL, 0, true);
}
