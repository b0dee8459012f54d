/*
 * trace.h: a Perfetto trace of a regressed scenario (issue 20).
 *
 * With diagnose.trace set, `gate` runs one more, unmeasured iteration of
 * each regressed scenario (of every scenario with "always") while
 * `perfetto` records frame timeline, gfx/view/am atrace and scheduling on
 * the device, and pulls the trace to OUT/<key>/traces/<file>; the report
 * links it.  The iteration's results go to OUT/<key>/traces/results.json
 * and are never compared.  run_trace.c holds the device side, trace.c
 * the file name both it and the report use.
 */
#ifndef JG_TRACE_H
#define JG_TRACE_H

struct strbuf;

/* The directory under OUT/<key>/ traces go to. */
#define TRACE_DIR "traces"

/*
 * The file name of `scenario`'s trace: the name with every byte outside
 * [A-Za-z0-9._-] turned into '_' (a leading '.' too), then
 * ".perfetto-trace"; appended to `out`.
 */
void trace_file_name(struct strbuf *out, const char *scenario);

#endif
