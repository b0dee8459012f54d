/*
 * bisect_mail.c: a bisect's mail, through the report mail of `gate`
 * (mail_send_report(), report/mail/mail.h).
 *
 * That mail is made of a report directory; this file makes one,
 * OUT/mail/:
 *
 *	email.txt          "jankgate bisect" and the summary (bisect_report.h)
 *	report.html        the bisect's report, attached
 *	comparison-N.json  the comparisons of the step that decided: the one
 *	                   that found the culprit bad, else the last
 *
 * so the subject is the mail's usual one over those comparisons: a
 * culprit's step reads "REGRESSION: <package> <the culprit's version>",
 * a bisect without a culprit its first step's "PASS".  mail.when is
 * read as for gate, a culprit being the regression: `regression` mails
 * only a bisect that named one.
 */
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "bisect_report.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "gate.h"
#include "mail.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* The step whose comparisons the mail carries, or NULL. */
static const struct bisect_step *
deciding_step(const struct bisect_state *st, enum bisect_next result,
    size_t cand)
{
	for (size_t i = st->nr_steps; result == BISECT_NEXT_CULPRIT && i-- > 0;)
		if (st->steps[i].candidate == cand &&
		    st->steps[i].outcome == BISECT_BAD)
			return &st->steps[i];
	return st->nr_steps ? &st->steps[st->nr_steps - 1] : NULL;
}

/* Copy `from` to `to`.  0 or the error of reading or writing. */
static int
copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = file_read(&sb, from);

	if (!rc)
		rc = file_write_atomic(to, sb.buf, sb.len, 0644);
	strbuf_release(&sb);
	return rc;
}

/* Fill OUT/mail/ (see the header). */
static int
mail_dir(const struct bisect_state *st, enum bisect_next result,
    size_t good, size_t cand, const char *out_dir, const char *dir)
{
	const struct bisect_step *s = deciding_step(st, result, cand);
	struct strbuf sb = STRBUF_INIT;
	char *path = NULL, *from = NULL;
	int rc;

	file_remove_tree(dir);
	if ((rc = file_mkdirs(dir, 0755)))
		return rc;
	strbuf_addstr(&sb, "jankgate bisect\n\n");
	report_bisect_summary(&sb, st, result, good, cand);
	strbuf_addf(&sb, "\nThe report: %s/report.html (attached)\n",
	    out_dir);
	path = xasprintf("%s/email.txt", dir);
	rc = file_write_atomic(path, sb.buf, sb.len, 0644);
	free(path);
	strbuf_release(&sb);
	if (rc)
		return rc;
	from = xasprintf("%s/report.html", out_dir);
	path = xasprintf("%s/report.html", dir);
	rc = copy_file(from, path);
	free(from);
	free(path);
	for (size_t i = 0; !rc && s && i < s->comparisons.nr; i++) {
		path = xasprintf("%s/comparison-%zu.json", dir, i + 1);
		rc = copy_file(s->comparisons.items[i], path);
		free(path);
	}
	return rc;
}

int
bisect_mail(struct strbuf *note, const struct bisect_state *st,
    const struct config *cfg, enum config_mail_when when,
    enum bisect_next result, size_t good, size_t cand, const char *out_dir)
{
	struct mail_report_opts o = { 0 };
	struct strbuf subject = STRBUF_INIT;
	char *dir;
	int rc;

	if (!gate_wants_mail(when, result == BISECT_NEXT_CULPRIT)) {
		strbuf_addf(note, "not sent: %s", when == MAIL_NEVER ?
		    "mail policy never" : "no culprit (mail policy "
		    "regression)");
		return 0;
	}
	if (!cfg->mail.server || !cfg->mail.to.nr) {
		strbuf_addf(note, "not sent: no %s configured",
		    !cfg->mail.server ? "mail.server" : "mail.to");
		return 0;
	}
	if (!st->nr_steps) {
		strbuf_addstr(note, "not sent: no step ran");
		return 0;
	}
	dir = xasprintf("%s/mail", out_dir);
	rc = mail_dir(st, result, good, cand, out_dir, dir);
	if (!rc) {
		o.subject = &subject;
		rc = mail_send_report(&cfg->mail, dir, &o);
	}
	if (rc)
		strbuf_addf(note, "not sent: %s", jg_error_msg());
	else
		strbuf_addf(note, "sent to %s%s: %s", cfg->mail.to.items[0],
		    cfg->mail.to.nr > 1 ? " and others" : "", subject.buf);
	strbuf_release(&subject);
	free(dir);
	return rc;
}
