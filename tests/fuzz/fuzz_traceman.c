/*
 * fuzz_traceman.c: libFuzzer target for the traceman source's costTime
 * lines: the bytes as a logcat capture through the logcat hook (two
 * scene windows, so methods are placed by time) and through the parse
 * hook (logsource.h).  Its prepare and finish hooks need a device and a
 * WebSocket; websocket.c is exercised by its unit tests against a
 * scripted server.
 */
#include "logsource.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_log_source("traceman", data, size, NULL, 0, false);
}
