/*
 * trace.c: where a traced iteration's Perfetto trace is kept (trace.h),
 * known to the runner that pulls it and to the report that links it.
 */
#include <stdbool.h>

#include "strbuf.h"
#include "trace.h"
#include "banned.h"

void
trace_file_name(struct strbuf *out, const char *scenario)
{
	for (const char *p = scenario; p && *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		    (c == '.' && p != scenario);

		strbuf_addch(out, ok ? c : '_');
	}
	strbuf_addstr(out, ".perfetto-trace");
}
