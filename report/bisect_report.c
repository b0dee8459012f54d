/*
 * bisect_report.c: what a bisect found, for people (bisect_report.h).
 *
 * The report is small and of one shape, so it is written here rather
 * than through a template over a view model: the verdict, the culprit
 * with its message and author (when the list came from a repository)
 * and the A/B that showed it bad (its targeted entries and blocks, and
 * its own full report under step-N/), the chain of steps, and the
 * builds that could not be tested.  Every value is HTML-escaped.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bisect_report.h"
#include "error.h"
#include "fileio.h"
#include "report.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/*
 * How much of an id to show: a full git commit id as git shows it
 * abbreviated (12 digits), any other name whole.
 */
static int
idw(const char *id)
{
	size_t n = strspn(id, "0123456789abcdef");

	return n == 40 && !id[40] ? 12 : (int)strlen(id);
}

/* The step that found `culprit` bad, or NULL. */
static const struct bisect_step *
culprit_step(const struct bisect_state *st, size_t culprit)
{
	for (size_t i = st->nr_steps; i-- > 0;)
		if (st->steps[i].candidate == culprit &&
		    st->steps[i].outcome == BISECT_BAD)
			return &st->steps[i];
	return NULL;
}

/* The verdict in one line (no newline). */
static void
verdict_line(struct strbuf *out, const struct bisect_state *st,
    enum bisect_next result, size_t good, size_t cand)
{
	const struct bisect_commit *g = &st->commits[good];
	const struct bisect_commit *c = &st->commits[cand];
	const struct bisect_commit *last = &st->commits[st->nr - 1];

	switch (result) {
	case BISECT_NEXT_CULPRIT:
		strbuf_addf(out, "culprit: %.*s is the first bad build, "
		    "after %.*s", idw(c->id), c->id, idw(g->id), g->id);
		break;
	case BISECT_NEXT_NONE:
		strbuf_addf(out, "no culprit: the bad build %.*s is not "
		    "worse than the good build %.*s on these phones",
		    idw(last->id), last->id, idw(st->commits[0].id),
		    st->commits[0].id);
		break;
	case BISECT_NEXT_UNDECIDED:
		if (last->mark == BISECT_SKIP)
			strbuf_addf(out, "undecided: the A/B of the bad build "
			    "%.*s against the good build %.*s could not "
			    "decide", idw(last->id), last->id,
			    idw(st->commits[0].id), st->commits[0].id);
		else
			strbuf_addf(out, "undecided: the first bad build is "
			    "one of the %zu from %.*s to %.*s, the others "
			    "untestable", cand - good,
			    idw(st->commits[good + 1].id),
			    st->commits[good + 1].id, idw(c->id), c->id);
		break;
	default:
		strbuf_addf(out, "stopped after %zu step%s: jankgate bisect "
		    "--resume continues", st->nr_steps, st->nr_steps == 1 ?
		    "" : "s");
		break;
	}
}

void
report_bisect_summary(struct strbuf *out, const struct bisect_state *st,
    enum bisect_next result, size_t good, size_t cand)
{
	const struct bisect_step *s = result == BISECT_NEXT_CULPRIT ?
	    culprit_step(st, cand) : NULL;

	strbuf_addstr(out, "bisect    ");
	verdict_line(out, st, result, good, cand);
	strbuf_addch(out, '\n');
	if (result == BISECT_NEXT_CULPRIT) {
		const struct bisect_commit *c = &st->commits[cand];

		strbuf_addf(out, "culprit   %s\n", c->id);
		if (c->subject)
			strbuf_addf(out, "message   %s\n", c->subject);
		if (c->author)
			strbuf_addf(out, "author    %s\n", c->author);
		if (s)
			strbuf_addf(out, "evidence  step %zu, %.*s against "
			    "%.*s:\n", (size_t)(s - st->steps) + 1,
			    idw(st->commits[s->good].id),
			    st->commits[s->good].id, idw(c->id), c->id);
		for (size_t i = 0; s && i < s->evidence.nr; i++)
			strbuf_addf(out, "    %s\n", s->evidence.items[i]);
	}
	strbuf_addf(out, "source    %s\n", st->source ? st->source : "");
	for (size_t i = 0; i < st->targets.nr; i++)
		strbuf_addf(out, "target    %s\n", st->targets.items[i]);
	if (!st->targets.nr)
		strbuf_addstr(out, "target    every metric and block\n");
	for (size_t i = 0; i < st->nr_steps; i++) {
		const struct bisect_step *t = &st->steps[i];

		const char *a = st->commits[t->good].id;
		const char *b = st->commits[t->candidate].id;

		strbuf_addf(out, "step %-4zu %.*s (good) against %.*s: %s, %d "
		    "round%s\n", i + 1, idw(a), a, idw(b), b,
		    bisect_mark_name(t->outcome), t->rounds, t->rounds == 1 ?
		    "" : "s");
	}
	for (size_t i = 0; i < st->nr; i++)
		if (st->commits[i].mark == BISECT_SKIP)
			strbuf_addf(out, "untestable %.*s: %s\n",
			    idw(st->commits[i].id), st->commits[i].id,
			    st->commits[i].why ? st->commits[i].why : "");
}

static void
esc(struct strbuf *out, const char *s)
{
	report_escape_html(out, s ? s : "", s ? strlen(s) : 0);
}

static void
html(struct strbuf *h, const struct bisect_state *st,
    enum bisect_next result, size_t good, size_t cand)
{
	struct strbuf v = STRBUF_INIT;
	const struct bisect_step *s = result == BISECT_NEXT_CULPRIT ?
	    culprit_step(st, cand) : NULL;

	verdict_line(&v, st, result, good, cand);
	strbuf_addstr(h, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\"><title>jankgate bisect: ");
	esc(h, v.buf);
	strbuf_addstr(h, "</title>\n<style>body{font-family:sans-serif;"
	    "max-width:70em;margin:1em auto;padding:0 1em}table{border-"
	    "collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;"
	    "text-align:left;vertical-align:top}.bad{color:#b00}.good{color:"
	    "#070}.untestable{color:#850}code{font-size:90%}</style></head>"
	    "<body>\n<h1>jankgate bisect</h1>\n<p><strong>");
	esc(h, v.buf);
	strbuf_addstr(h, "</strong></p>\n");
	if (result == BISECT_NEXT_CULPRIT) {
		const struct bisect_commit *c = &st->commits[cand];

		strbuf_addstr(h, "<h2>Culprit</h2>\n<table><tr><th>build</th>"
		    "<td><code>");
		esc(h, c->id);
		strbuf_addstr(h, "</code></td></tr>\n");
		if (c->subject) {
			strbuf_addstr(h, "<tr><th>message</th><td>");
			esc(h, c->subject);
			strbuf_addstr(h, "</td></tr>\n");
		}
		if (c->author) {
			strbuf_addstr(h, "<tr><th>author</th><td>");
			esc(h, c->author);
			strbuf_addstr(h, "</td></tr>\n");
		}
		strbuf_addstr(h, "<tr><th>APK</th><td><code>");
		esc(h, c->apk);
		strbuf_addstr(h, "</code></td></tr></table>\n");
	}
	if (s) {
		strbuf_addf(h, "<h2>The A/B at the culprit</h2>\n<p>Step %zu: "
		    "<code>", (size_t)(s - st->steps) + 1);
		esc(h, st->commits[s->good].id);
		strbuf_addstr(h, "</code> (A, good) against <code>");
		esc(h, st->commits[cand].id);
		strbuf_addf(h, "</code> (B), interleaved in ABBA blocks on the "
		    "same phones, %d round%s. Before and after, the shift "
		    "and its interval:</p>\n<ul>\n", s->rounds, s->rounds == 1 ?
		    "" : "s");
		for (size_t i = 0; i < s->evidence.nr; i++) {
			strbuf_addstr(h, "<li>");
			esc(h, s->evidence.items[i]);
			strbuf_addstr(h, "</li>\n");
		}
		strbuf_addf(h, "</ul>\n<p>The step's full report: <a href=\""
		    "step-%zu/report/report.html\">step-%zu/report/report.html"
		    "</a></p>\n", (size_t)(s - st->steps) + 1,
		    (size_t)(s - st->steps) + 1);
	}
	strbuf_addstr(h, "<h2>Targets</h2>\n<ul>\n");
	for (size_t i = 0; i < st->targets.nr; i++) {
		strbuf_addstr(h, "<li><code>");
		esc(h, st->targets.items[i]);
		strbuf_addstr(h, "</code></li>\n");
	}
	if (!st->targets.nr)
		strbuf_addstr(h, "<li>every metric and block</li>\n");
	strbuf_addstr(h, "</ul>\n<h2>Steps</h2>\n<table><tr><th>step</th>"
	    "<th>A (good)</th><th>B (candidate)</th><th>outcome</th>"
	    "<th>rounds</th><th>evidence</th></tr>\n");
	for (size_t i = 0; i < st->nr_steps; i++) {
		const struct bisect_step *t = &st->steps[i];

		strbuf_addf(h, "<tr><td><a href=\"step-%zu/report/report.html"
		    "\">%zu</a></td><td><code>", i + 1, i + 1);
		esc(h, st->commits[t->good].id);
		strbuf_addstr(h, "</code></td><td><code>");
		esc(h, st->commits[t->candidate].id);
		strbuf_addf(h, "</code></td><td class=\"%s\">%s</td><td>%d"
		    "</td><td>", bisect_mark_name(t->outcome),
		    bisect_mark_name(t->outcome), t->rounds);
		for (size_t e = 0; e < t->evidence.nr; e++) {
			if (e)
				strbuf_addstr(h, "<br>");
			esc(h, t->evidence.items[e]);
		}
		strbuf_addstr(h, "</td></tr>\n");
	}
	strbuf_addstr(h, "</table>\n<h2>Builds</h2>\n<table><tr><th>#</th>"
	    "<th>build</th><th>message</th><th>mark</th></tr>\n");
	for (size_t i = 0; i < st->nr; i++) {
		const struct bisect_commit *c = &st->commits[i];

		strbuf_addf(h, "<tr><td>%zu</td><td><code>", i);
		esc(h, c->id);
		strbuf_addstr(h, "</code></td><td>");
		esc(h, c->subject);
		strbuf_addf(h, "</td><td class=\"%s\">%s", bisect_mark_name(
		    c->mark), bisect_mark_name(c->mark));
		if (c->why) {
			strbuf_addstr(h, ": ");
			esc(h, c->why);
		}
		strbuf_addstr(h, "</td></tr>\n");
	}
	strbuf_addstr(h, "</table>\n<p>Source: ");
	esc(h, st->source);
	strbuf_addstr(h, "</p>\n</body></html>\n");
	strbuf_release(&v);
}

static void
junit(struct strbuf *x, const struct bisect_state *st,
    enum bisect_next result, size_t cand)
{
	size_t failures = 0;

	for (size_t i = 0; i < st->nr_steps; i++)
		failures += result == BISECT_NEXT_CULPRIT &&
		    st->steps[i].candidate == cand &&
		    st->steps[i].outcome == BISECT_BAD;
	strbuf_addf(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites><testsuite name=\"jankgate bisect\" tests=\"%zu\" "
	    "failures=\"%zu\" errors=\"0\">\n", st->nr_steps, failures);
	for (size_t i = 0; i < st->nr_steps; i++) {
		const struct bisect_step *t = &st->steps[i];
		bool culprit = result == BISECT_NEXT_CULPRIT &&
		    t->candidate == cand && t->outcome == BISECT_BAD;

		strbuf_addf(x, "<testcase classname=\"bisect\" name=\"step %zu "
		    "", i + 1);
		esc(x, st->commits[t->candidate].id);
		strbuf_addch(x, '"');
		if (!culprit) {
			strbuf_addstr(x, "/>\n");
			continue;
		}
		strbuf_addstr(x, "><failure message=\"culprit: ");
		esc(x, st->commits[t->candidate].id);
		strbuf_addstr(x, "\">");
		for (size_t e = 0; e < t->evidence.nr; e++) {
			esc(x, t->evidence.items[e]);
			strbuf_addch(x, '\n');
		}
		strbuf_addstr(x, "</failure></testcase>\n");
	}
	strbuf_addstr(x, "</testsuite></testsuites>\n");
}

int
report_bisect(const struct bisect_state *st, enum bisect_next result,
    size_t good, size_t cand, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = NULL;
	int rc;

	html(&sb, st, result, good, cand);
	path = xasprintf("%s/report.html", dir);
	if ((rc = file_write_atomic(path, sb.buf, sb.len, 0644)))
		goto out;
	strbuf_setlen(&sb, 0);
	report_bisect_summary(&sb, st, result, good, cand);
	free(path);
	path = xasprintf("%s/summary.txt", dir);
	if ((rc = file_write_atomic(path, sb.buf, sb.len, 0644)))
		goto out;
	strbuf_setlen(&sb, 0);
	junit(&sb, st, result, cand);
	free(path);
	path = xasprintf("%s/junit.xml", dir);
	rc = file_write_atomic(path, sb.buf, sb.len, 0644);
out:
	free(path);
	strbuf_release(&sb);
	return rc;
}
