/*
 * gate_deliver.c: the report, the mail and the baseline update of
 * `jankgate gate`.
 *
 * The same calls as `jankgate report`, `jankgate mail` and `jankgate
 * baseline record`: report_write() over every comparison file the gate
 * wrote, into one directory; mail_send_report() of that directory, by the
 * mail policy; baseline_store_record() of each key's results, by the
 * update policy.  The report is complete on disk before the mail is
 * tried, and a failed mail does not hold back the baseline: each stage
 * fails alone.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "baseline.h"
#include "exitstatus.h"
#include "config.h"
#include "error.h"
#include "gate.h"
#include "gate_int.h"
#include "mail.h"
#include "report.h"
#include "run.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

static int
report_write_all(struct strlist *notes, const struct config *cfg,
    struct baseline_store *bs, struct gate_outcome *out, const char *dir)
{
	const char **files = xcalloc(out->nr_keys + 1, sizeof(*files));
	struct report_result res = { 0 };
	struct report_opts o = { 0 };
	struct baseline_trends trends;
	int rc;

	for (size_t i = 0; i < out->nr_keys; i++)
		if (out->keys[i].comparison)
			files[o.nr_comparisons++] = out->keys[i].comparison;
	o.comparisons = files;
	o.out_dir = dir;
	o.title = cfg->report.title;
	o.templates = cfg->report.templates;
	o.bisect = out->bisect;
	/* OUT/report/ beside OUT/bisect/ */
	o.bisect_href = out->bisect_report ? "../bisect/report.html" : NULL;
	/* Trend lines from the store the gate holds open. */
	baseline_trends_init(&trends, &cfg->baseline, NULL, bs);
	o.history = (struct report_history){ baseline_trends_load, &trends,
	    (size_t)cfg->report.history, cfg->baseline.ref };
	strlist_init(&res.notes);
	rc = report_write(&res, &o);
	baseline_trends_release(&trends);
	for (size_t i = 0; i < res.notes.nr; i++)
		strlist_add(notes, res.notes.items[i]);
	/* As `jankgate report` does: GitHub's step summary and commands. */
	if (!rc && report_ci(&res, dir, &out->ci))
		strlist_add(notes, jg_error_msg());
	report_result_release(&res);
	free(files);
	return rc;
}

static int
mail_report_dir(struct strbuf *subject, const struct config *cfg,
    const char *dir, int status)
{
	struct mail_report_opts o = { 0 };

	o.subject = subject;
	o.status = status;
	return mail_send_report(&cfg->mail, dir, &o);
}

void
gate_report(struct gate_ctx *g)
{
	char *dir = xasprintf("%s/report", g->out_dir);
	struct strlist notes = STRLIST_INIT;
	size_t nr = 0;

	for (size_t i = 0; i < g->out->nr_keys; i++)
		nr += g->out->keys[i].comparison != NULL;
	if (!nr) {
		gate_note(g, "report: no comparison to report on");
		free(dir);
		return;
	}
	if (report_write_all(&notes, g->cfg, g->bs, g->out, dir)) {
		gate_fail(g, EXIT_INFRA, "report", "%s", jg_error_msg());
		free(dir);
		strlist_release(&notes);
		return;
	}
	for (size_t i = 0; i < notes.nr; i++)
		gate_note(g, "report: %s", notes.items[i]);
	strlist_release(&notes);
	g->out->report_dir = dir;
	gate_note(g, "report: %s/report.html", dir);
}

/* What became of the mail, kept for the summary and told now. */
static void __attribute__((format(printf, 2, 3)))
mail_note(struct gate_ctx *g, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	gate_note(g, "mail: %s", sb.buf);
	free(g->out->mail_note);
	g->out->mail_note = strbuf_detach(&sb, NULL);
}

void
gate_mail(struct gate_ctx *g)
{
	const struct config *cfg = g->cfg;
	struct strbuf subject = STRBUF_INIT;
	bool regression = false;

	/* A cancel during the report counts too: nothing shared after it. */
	g->out->interrupted |= run_interrupted();
	if (g->out->interrupted) {
		mail_note(g, "not sent: interrupted");
		return;
	}
	for (size_t i = 0; i < g->out->nr_keys; i++)
		regression = regression || (g->out->keys[i].compared &&
		    g->out->keys[i].verdict == CMP_REGRESSION);
	if (!gate_wants_mail(g->o->mail_when, regression)) {
		mail_note(g, "not sent: %s", g->o->mail_when == MAIL_NEVER ?
		    "mail policy never" : "no regression (mail policy "
		    "regression)");
		return;
	}
	if (!cfg->mail.server || !cfg->mail.to.nr) {
		mail_note(g, "not sent: no %s configured", !cfg->mail.server ?
		    "mail.server" : "mail.to");
		return;
	}
	if (!g->out->report_dir) {
		mail_note(g, "not sent: no report");
		gate_fail(g, EXIT_INFRA, "mail", "no report to send");
		return;
	}
	/* A lost device is news too: the subject says so. */
	if (mail_report_dir(&subject, cfg, g->out->report_dir,
	    g->out->status)) {
		if (jg_error_code() == JG_EINTR) {
			g->out->interrupted = true;
			mail_note(g, "not sent: interrupted");
			strbuf_release(&subject);
			return;
		}
		mail_note(g, "not sent: SMTP failed");
		gate_fail(g, EXIT_INFRA, "mail", "%s (the report is in %s)",
		    jg_error_msg(), g->out->report_dir);
		strbuf_release(&subject);
		return;
	}
	g->out->mailed = true;
	g->out->mail_subject = strbuf_detach(&subject, NULL);
	mail_note(g, "sent to %s%s: %s", cfg->mail.to.items[0],
	    cfg->mail.to.nr > 1 ? " and others" : "", g->out->mail_subject);
}

/* Keys `from` on were not recorded for an interrupt: each says so. */
static void
not_recorded(struct gate_ctx *g, size_t from)
{
	for (size_t i = from; i < g->out->nr_keys; i++)
		strlist_add(&g->out->keys[i].notes,
		    "baseline not updated: interrupted");
	gate_note(g, "baseline: not updated: interrupted");
}

void
gate_record(struct gate_ctx *g)
{
	const char *branch = g->cfg->baseline.ref;
	bool regression = false;

	g->out->interrupted |= run_interrupted();
	if (g->out->interrupted) {
		not_recorded(g, 0);
		return;
	}
	for (size_t i = 0; i < g->out->nr_keys; i++)
		regression = regression || (g->out->keys[i].compared &&
		    g->out->keys[i].verdict == CMP_REGRESSION);
	for (size_t i = 0; i < g->out->nr_keys; i++) {
		struct gate_key *k = &g->out->keys[i];
		const char *why = gate_record_refusal(g->o->update, k,
		    regression);
		int attempts, rc;

		if (why) {
			strlist_addf(&k->notes, "baseline not updated: %s",
			    why);
			continue;
		}
		k->commit_verdict = xstrdup(g->work[i].commit_word ?
		    g->work[i].commit_word : gate_commit_verdict(
		    g->work[i].cmp));
		rc = run_interrupted() ? JG_EINTR : baseline_record_file(
		    k->commit, &attempts, g->bs, branch, k->current,
		    k->commit_verdict);
		if (rc == JG_EINTR) {
			/* Cancelled: neither this key nor the next. */
			k->commit[0] = '\0';
			g->out->interrupted = true;
			not_recorded(g, i);
			return;
		}
		if (rc) {
			k->commit[0] = '\0';
			k->status = exit_status_merge(k->status, EXIT_INFRA);
			gate_fail(g, EXIT_INFRA, "baseline", "%s: %s", k->key,
			    jg_error_msg());
			continue;
		}
		strlist_addf(&k->notes, "baseline recorded on '%s' as %.10s "
		    "(update policy %s)%s", branch, k->commit,
		    config_update_name(g->o->update), attempts > 1 ?
		    ", after a refused push" : attempts ? "" :
		    "; it already held this run");
		gate_note(g, "baseline: %s recorded on '%s' as %.10s%s", k->key,
		    branch, k->commit, attempts > 1 ? " (retried after a "
		    "refused push)" : "");
		if (baseline_store_pack_error(g->bs))
			gate_note(g, "baseline: %s; the run is recorded",
			    baseline_store_pack_error(g->bs));
		if (baseline_store_key_error(g->bs))
			gate_note(g, "baseline: %s; the run is recorded",
			    baseline_store_key_error(g->bs));
	}
}

