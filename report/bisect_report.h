/*
 * bisect_report.h: the report of a `jankgate bisect` (bisect_report.c).
 */
#ifndef JG_BISECT_REPORT_H
#define JG_BISECT_REPORT_H

#include <stddef.h>

#include "bisect_state.h"

struct strbuf;

/*
 * The summary for people, as `jankgate bisect` prints it and summary.txt
 * holds it: the verdict line first, the culprit with its A/B evidence,
 * then the chain of steps and the untestable builds.  `result`, `good`
 * and `candidate` are bisect_next()'s at the end (STEP: stopped early).
 */
void report_bisect_summary(struct strbuf *out, const struct bisect_state *st,
    enum bisect_next result, size_t good, size_t candidate);

/*
 * Write DIR/report.html (standalone, no external resources), the summary
 * as DIR/summary.txt and DIR/junit.xml (one testcase per step, the step
 * that named the culprit a failure).  Returns 0 or JG_EIO.
 */
int report_bisect(const struct bisect_state *st, enum bisect_next result,
    size_t good, size_t candidate, const char *dir);

#endif
