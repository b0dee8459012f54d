/*
 * openmetrics.c: metrics.txt, the report's numbers in the OpenMetrics text
 * format, for GitLab's merge-request metrics report (artifacts:reports:
 * metrics) and any scraper that reads the format.
 *
 * GitLab compares each line of the merge request's file with the same
 * line name of the target branch's, so names and labels must stay stable
 * from run to run: the device is its key (never a serial, which changes
 * with every emulator), and every sample is the current run's median.
 *
 *   # TYPE jankgate_exit_status gauge
 *   # HELP jankgate_exit_status The report's exit status: 0 pass, ...
 *   jankgate_exit_status 1
 *   # TYPE jankgate_metrics gauge
 *   # HELP jankgate_metrics Compared metrics per verdict, all devices.
 *   jankgate_metrics{verdict="regression"} 2
 *   # TYPE jankgate_median gauge
 *   # HELP jankgate_median The current run's median of a metric, in ...
 *   jankgate_median{device="google-pixel-7-api34-90hz",scenario="shop",
 *       scene="feed",metric="frame_p90_ms"} 13   (one line; no scene
 *       label for a scenario's launch metrics)
 *   # TYPE jankgate_blocks gauge
 *   # HELP jankgate_blocks Main-thread block signatures by status, ...
 *   jankgate_blocks{status="new"} 1
 *   # EOF
 *
 * Label values are escaped as the format says (backslash, double quote,
 * line feed); a (device, scenario, scene, metric) seen twice (two phones of
 * one key in one report) keeps its first value, since a family may not
 * hold the same labels twice.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "comparison.h"
#include "report.h"
#include "report_int.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"

static void
label(struct strbuf *out, const char *name, const char *value, int first)
{
	struct strbuf clean = STRBUF_INIT;

	report_clean_text(&clean, value, strlen(value));
	strbuf_addf(out, "%s%s=\"", first ? "" : ",", name);
	for (size_t i = 0; i < clean.len; i++) {
		char c = clean.buf[i];

		if (c == '\\' || c == '"')
			strbuf_addch(out, '\\');
		if (c == '\n')
			strbuf_addstr(out, "\\n");
		else if (c != '\r')
			strbuf_addch(out, c);
	}
	strbuf_addch(out, '"');
	strbuf_release(&clean);
}

static void
family(struct strbuf *out, const char *name, const char *help)
{
	strbuf_addf(out, "# TYPE %s gauge\n# HELP %s %s\n", name, name, help);
}

void
openmetrics_write(const struct comparison *const *cmps, size_t nr,
    int exit_code, struct strbuf *out)
{
	size_t counts[CMP_NR_VERDICTS] = { 0 }, blocks[4] = { 0 };
	struct strlist seen = STRLIST_INIT;
	struct strbuf line = STRBUF_INIT;

	family(out, "jankgate_exit_status", "The report's exit status: 0 "
	    "pass, 1 regression, 3 infrastructure failure, 4 inconclusive.");
	strbuf_addf(out, "jankgate_exit_status %d\n", exit_code);
	for (size_t i = 0; i < nr; i++) {
		for (size_t j = 0; j < cmps[i]->nr_entries; j++)
			counts[cmps[i]->entries[j].verdict]++;
		for (size_t j = 0; j < cmps[i]->nr_blocks; j++)
			if ((size_t)cmps[i]->blocks[j].status < 4)
				blocks[cmps[i]->blocks[j].status]++;
	}
	family(out, "jankgate_metrics", "Compared metrics per verdict, all "
	    "devices.");
	for (int v = 0; v < CMP_NR_VERDICTS; v++)
		strbuf_addf(out, "jankgate_metrics{verdict=\"%s\"} %zu\n",
		    cmp_verdict_name(v), counts[v]);
	family(out, "jankgate_median", "The current run's median of a "
	    "metric, in the metric's unit (METRICS in jankgate(1)).");
	for (size_t i = 0; i < nr; i++) {
		const struct comparison *c = cmps[i];

		for (size_t j = 0; j < c->nr_entries; j++) {
			const struct cmp_entry *e = &c->entries[j];

			if (!e->cur.n || !isfinite(e->cur.median))
				continue;
			strbuf_setlen(&line, 0);
			strbuf_addstr(&line, "jankgate_median{");
			label(&line, "device", c->device ? c->device : "", 1);
			label(&line, "scenario", e->scenario ? e->scenario :
			    "", 0);
			if (e->scene)
				label(&line, "scene", e->scene, 0);
			label(&line, "metric", e->metric ? e->metric : "", 0);
			strbuf_addch(&line, '}');
			if (strlist_find(&seen, line.buf) >= 0)
				continue;
			strlist_add(&seen, line.buf);
			strbuf_addf(out, "%s %.10g\n", line.buf, e->cur.median);
		}
	}
	family(out, "jankgate_blocks", "Main-thread block signatures by "
	    "status, all devices.");
	for (int s = CMP_BLOCK_NEW; s <= CMP_BLOCK_RESOLVED; s++)
		strbuf_addf(out, "jankgate_blocks{status=\"%s\"} %zu\n",
		    cmp_block_status_name(s), blocks[s]);
	strbuf_addstr(out, "# EOF\n");
	strlist_release(&seen);
	strbuf_release(&line);
}
