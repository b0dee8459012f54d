/*
 * ci.c: what a CI system shows besides junit.xml and metrics.txt.
 *
 * GitHub Actions reads two things from a step.  The file named by
 * $GITHUB_STEP_SUMMARY collects Markdown shown on the run's page:
 * report_ci() appends summary.md to it (appends, since other steps write
 * there too).  Workflow commands printed on stdout become annotations on
 * the run and the pull request:
 *
 *   ::error title=jankgate regression::DEVICE WHERE METRIC: BASE -> CUR ...
 *   ::error title=jankgate infrastructure failure::DEVICE: what broke
 *   ::warning title=jankgate inconclusive::DEVICE WHERE METRIC: reason
 *   ::warning title=jankgate warning::DEVICE: a source yielded nothing ...
 *
 * one per regression, per infrastructure error, per inconclusive metric
 * and per warning.  In the message '%', CR and LF are escaped as %25, %0D
 * and %0A, so a device string cannot end the command or start another.
 * They are built for every report (report_result.github) and handed out
 * only when $GITHUB_ACTIONS is "true", as the runner sets it.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "fileio.h"
#include "report.h"
#include "report_int.h"
#include "strbuf.h"
#include "strlist.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

static const char *
str(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(o, key));

	return s ? s : "";
}

/* "::KIND title=TITLE::MESSAGE", the message cleaned and escaped. */
static void
command(struct strlist *out, const char *kind, const char *title,
    const char *msg)
{
	struct strbuf clean = STRBUF_INIT, line = STRBUF_INIT;

	report_clean_text(&clean, msg, strlen(msg));
	strbuf_addf(&line, "::%s title=%s::", kind, title);
	for (size_t i = 0; i < clean.len; i++) {
		char c = clean.buf[i];

		if (c == '%')
			strbuf_addstr(&line, "%25");
		else if (c == '\r')
			strbuf_addstr(&line, "%0D");
		else if (c == '\n')
			strbuf_addstr(&line, "%0A");
		else
			strbuf_addch(&line, c);
	}
	strlist_add(out, line.buf);
	strbuf_release(&clean);
	strbuf_release(&line);
}

static void
row_command(struct strlist *out, const char *kind, const char *title,
    const cJSON *row)
{
	char *msg = xasprintf("%s %s %s: %s -> %s (%s): %s", str(row,
	    "device"), str(row, "where"), str(row, "metric"),
	    str(row, "baseline"), str(row, "current"), str(row, "change"),
	    str(row, "reason"));

	command(out, kind, title, msg);
	free(msg);
}

void
ci_github_commands(const struct view *v, struct strlist *out)
{
	const cJSON *it, *dev;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(v->root,
	    "regressions"))
		row_command(out, "error", "jankgate regression", it);
	cJSON_ArrayForEach(dev, cJSON_GetObjectItemCaseSensitive(v->root,
	    "devices"))
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(dev,
		    "errors")) {
			char *msg = xasprintf("%s: %s", str(dev, "label"),
			    cJSON_GetStringValue(it) ?
			    cJSON_GetStringValue(it) : "");

			command(out, "error", "jankgate infrastructure "
			    "failure", msg);
			free(msg);
		}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(v->root,
	    "others"))
		if (!strcmp(str(cJSON_GetObjectItemCaseSensitive(it,
		    "verdict"), "name"), "inconclusive"))
			row_command(out, "warning", "jankgate inconclusive",
			    it);
	/* A suspect fails nothing: a notice, not a warning. */
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(v->root,
	    "suspects"))
		row_command(out, "notice", "jankgate suspect", it);
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(v->root,
	    "warnings")) {
		char *msg = xasprintf("%s: %s", str(it, "device"),
		    str(it, "line"));

		command(out, "warning", "jankgate warning", msg);
		free(msg);
	}
}

int
report_ci(const struct report_result *r, const char *dir,
    struct strlist *print)
{
	const char *summary = getenv("GITHUB_STEP_SUMMARY");
	const char *actions = getenv("GITHUB_ACTIONS");
	struct strbuf md = STRBUF_INIT;
	char *src;
	int rc = 0;

	if (actions && !strcmp(actions, "true"))
		for (size_t i = 0; i < r->github.nr; i++)
			strlist_add(print, r->github.items[i]);
	if (!summary || !*summary)
		return 0;
	src = xasprintf("%s/summary.md", dir);
	rc = file_read(&md, src);
	if (!rc) {
		/* Steps share the file: keep ours apart from theirs. */
		strbuf_addch(&md, '\n');
		rc = file_append(summary, md.buf, md.len);
	}
	if (rc)
		jg_error_prefix("cannot add the report to "
		    "$GITHUB_STEP_SUMMARY");
	free(src);
	strbuf_release(&md);
	return rc;
}
