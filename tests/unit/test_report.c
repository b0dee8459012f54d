/*
 * test_report.c: report_write(), the template lookup and the escapes.
 *
 * The outputs are parsed back (libxml2's HTML and XML parsers) rather than
 * grepped, so "no markup got in" means what a browser or a CI system would
 * see.  The mail-size test builds a large suite: 20 scenarios
 * x 5 scenes x 3 devices, every metric a regression (the worst case for
 * the attention list), and checks email.html stays under 100 KB.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "unit.h"
#include "compare.h"
#include "error.h"
#include "fileio.h"
#include "metrics.h"
#include "report.h"
#include "report_int.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"

#define HOSTILE "<script>alert('x')</script> & \"q\" \x01\x1b[31m"

/* An entry with plausible numbers and verdict `v`. */
static struct cmp_entry *
add_entry(struct comparison *c, const char *scenario, const char *scene,
    const char *metric, enum cmp_verdict v)
{
	struct cmp_entry *e = comparison_add_entry(c);

	e->device = xstrdup(c->device);
	e->scenario = xstrdup(scenario);
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(metric);
	e->unit = xstrdup(metric_find(metric) ? metric_find(metric)->unit :
	    "ms");
	e->verdict = v;
	e->tested = true;
	e->reason = xstrdup(v == CMP_REGRESSION ? "worse by 3.1 ms "
	    "(threshold 1 ms), p = 0.002 after holm" : "not worse by 1 ms");
	e->base.n = 16;
	e->base.q1 = 9.8;
	e->base.median = 10;
	e->base.q3 = 10.2;
	e->cur.n = 5;
	e->cur.q1 = 12.9;
	e->cur.median = 13.1;
	e->cur.q3 = 13.3;
	e->shift = 3.1;
	e->shift_lo = 2.9;
	e->shift_hi = 3.3;
	e->shift_level = 0.9;
	e->p_value = 0.001;
	e->p_adjusted = 0.002;
	e->tested = true;
	e->threshold = 1;
	e->detectable = 0.8;
	return e;
}

/* An explain entry (issue 20) that regressed, as compare files it. */
static void
add_explain(struct comparison *c, const char *scenario, const char *scene,
    const char *metric)
{
	struct cmp_entry *e = comparison_add_explain(c);

	e->device = xstrdup(c->device);
	e->scenario = xstrdup(scenario);
	e->scene = xstrdup(scene);
	e->metric = xstrdup(metric);
	e->unit = xstrdup(metric_find(metric)->unit);
	e->verdict = CMP_REGRESSION;
	e->base.n = e->cur.n = 5;
	e->base.median = e->base.max = 1.9;
	e->cur.median = e->cur.max = 4.4;
	e->shift = 2.5;
	e->shift_lo = 2.1;
	e->shift_hi = 2.9;
	e->threshold = 0.5;
}

/* A method that got slower (issue 20). */
static void
add_method(struct comparison *c, const char *scenario, const char *scene)
{
	struct cmp_method *m = comparison_add_method(c);

	m->device = xstrdup(c->device);
	m->scenario = xstrdup(scenario);
	m->scene = xstrdup(scene);
	m->name = xstrdup("com.example.feed.ui.FeedAdapter.bindPrice");
	m->source = xstrdup("traceman");
	m->status = CMP_BLOCK_WORSE;
	m->base.count = m->cur.count = 5;
	m->base.iterations = m->cur.iterations = 5;
	m->base.wall_ms = 2;
	m->cur.wall_ms = 8;
}

static struct cmp_scenario *
add_scenario(struct comparison *c, const char *name)
{
	struct cmp_scenario *s = comparison_add_scenario(c);

	s->name = xstrdup(name);
	s->verdict = CMP_PASS;
	s->cur_iterations = 5;
	s->cur_valid = 5;
	s->base_runs = 2;
	s->base_valid = 16;
	return s;
}

static struct comparison *
new_comparison(const char *device)
{
	struct comparison *c = comparison_new();

	c->device = xstrdup(device);
	c->package = xstrdup("com.example.feed");
	c->current.run_id = xstrdup("c1");
	c->current.app_version = xstrdup("2.0");
	c->alpha = 0.05;
	c->min_iterations = 3;
	comparison_add_baseline(c)->run_id = xstrdup("b1");
	return c;
}

/* A fresh directory under the test's temp dir. */
static char *
tmp_path(const char *name)
{
	static int seq;
	char *p = xasprintf("%s/report-%d-%s", unit_tmpdir(), ++seq, name);

	assert_int_equal(file_mkdirs(p, 0755), 0);
	return p;
}

static void
read_text(struct strbuf *sb, const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);

	strbuf_setlen(sb, 0);
	assert_int_equal(file_read(sb, p), 0);
	free(p);
}

/* Write `c` as DIR/name and run report_write into DIR/out. */
static int
write_report(struct report_result *res, const char *dir,
    struct comparison *c, const char *templates)
{
	char *cmp = xasprintf("%s/comparison-in.json", dir);
	char *out = xasprintf("%s/out", dir);
	const char *files[] = { cmp };
	struct report_opts o = { files, 1, out, NULL, templates, { 0 },
	    false,
	    NULL, NULL };
	int rc;

	assert_int_equal(comparison_write(c, cmp), 0);
	rc = report_write(res, &o);
	free(cmp);
	free(out);
	return rc;
}

/* Every byte class each escape must neutralise, per output. */
static void
escapes_neutralise_markup_and_controls(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *in = "a<b>&\"'\x01\xff\xe2\x80\xae|*_[x](y)\nz";

	report_escape_html(&sb, in, strlen(in));
	assert_string_equal(sb.buf, "a&lt;b&gt;&amp;&quot;&#39;\xef\xbf\xbd"
	    "\xef\xbf\xbd\xef\xbf\xbd|*_[x](y)\nz");
	strbuf_setlen(&sb, 0);
	report_escape_text(&sb, in, strlen(in));
	assert_string_equal(sb.buf, "a<b>&\"'\xef\xbf\xbd\xef\xbf\xbd"
	    "\xef\xbf\xbd|*_[x](y) z");
	strbuf_setlen(&sb, 0);
	report_escape_markdown(&sb, in, strlen(in));
	assert_string_equal(sb.buf, "a\\<b\\>\\&\"'\xef\xbf\xbd\xef\xbf\xbd"
	    "\xef\xbf\xbd\\|\\*\\_\\[x\\]\\(y\\) z");
	strbuf_release(&sb);
}

/* Valid UTF-8 text passes through every escape untouched. */
static void
escapes_keep_utf8_text(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *in = "Einkaufswagen \xc3\xbc \xe6\xbb\x91\xe5\x8a\xa8 "
	    "\xf0\x9f\x9b\x92";

	report_escape_html(&sb, in, strlen(in));
	assert_string_equal(sb.buf, in);
	strbuf_setlen(&sb, 0);
	report_escape_markdown(&sb, in, strlen(in));
	assert_string_equal(sb.buf, in);
	strbuf_release(&sb);
}

/*
 * A value that starts like a list item or heading cannot open a block,
 * and numbers that only look a little like one stay as they are.
 */
static void
markdown_escapes_leading_markers(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "- item", "\\- item" },
		{ "+ item", "\\+ item" },
		{ "-", "\\-" },
		{ "12. x", "12\\. x" },
		{ "3) x", "3\\) x" },
		{ "# head", "\\# head" },
		{ "+3.1 ms", "+3.1 ms" },
		{ "1.5 ms", "1.5 ms" },
		{ "a-b.c", "a-b.c" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_setlen(&sb, 0);
		report_escape_markdown(&sb, cases[i].in, strlen(cases[i].in));
		assert_string_equal(sb.buf, cases[i].out);
	}
	strbuf_release(&sb);
}

/*
 * An override directory replaces only the templates it holds; the others
 * come from the source tree; names with a path are refused.
 */
static void
template_lookup_is_per_file(void **state)
{
	char *dir = tmp_path("tpl");
	char *mine = xasprintf("%s/email.txt", dir);
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(file_write_atomic(mine, "x", 1, 0644), 0);
	assert_int_equal(report_template_path(&sb, "email.txt", dir), 0);
	assert_string_equal(sb.buf, mine);
	strbuf_setlen(&sb, 0);
	assert_int_equal(report_template_path(&sb, "report.html", dir), 0);
	assert_non_null(strstr(sb.buf, "/templates/report.html"));
	assert_null(strstr(sb.buf, dir));
	assert_int_equal(report_template_path(&sb, "../etc/passwd", dir),
	    JG_EINVAL);
	assert_int_equal(report_template_path(&sb, ".hidden", dir),
	    JG_EINVAL);
	assert_int_equal(report_template_path(&sb, "nope.html", dir),
	    JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "nope.html"));
	assert_non_null(strstr(jg_error_msg(), "nor built in"));
	strbuf_release(&sb);
	free(mine);
	free(dir);
}

/*
 * Reading a template: the file found first, with its path; a name neither
 * on disk nor built in is not found, a path is no name.  (The built-in
 * copy is what a binary outside its tree reads: report-templates.case.)
 */
static void
template_read_names_its_file(void **state)
{
	char *dir = tmp_path("tplread");
	char *mine = xasprintf("%s/email.txt", dir);
	struct strbuf src = STRBUF_INIT, where = STRBUF_INIT;

	assert_int_equal(file_write_atomic(mine, "mine", 4, 0644), 0);
	assert_int_equal(report_template_read(&src, &where, "email.txt",
	    dir), 0);
	assert_string_equal(src.buf, "mine");
	assert_string_equal(where.buf, mine);
	strbuf_setlen(&where, 0);
	assert_int_equal(report_template_read(&src, &where, "nope.html",
	    dir), JG_ENOTFOUND);
	assert_int_equal(report_template_read(&src, &where, "../x", dir),
	    JG_EINVAL);
	strbuf_release(&src);
	strbuf_release(&where);
	free(mine);
	free(dir);
}

static int
has_element(xmlNode *n, const char *name)
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE &&
		    !xmlStrcasecmp(n->name, BAD_CAST name))
			return 1;
		if (has_element(n->children, name))
			return 1;
	}
	return 0;
}

static int
count_elements(xmlNode *n, const char *name)
{
	int nr = 0;

	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE &&
		    !xmlStrcmp(n->name, BAD_CAST name))
			nr++;
		nr += count_elements(n->children, name);
	}
	return nr;
}

/* An attribute whose name starts with "on" would run script. */
static int
has_event_attribute(xmlNode *n)
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE)
			for (xmlAttr *a = n->properties; a; a = a->next)
				if (!xmlStrncasecmp(a->name, BAD_CAST "on", 2))
					return 1;
		if (has_event_attribute(n->children))
			return 1;
	}
	return 0;
}

/* A comparison whose names, frames and reasons are all hostile. */
static struct comparison *
hostile_comparison(void)
{
	struct comparison *c = new_comparison("dev" HOSTILE);
	struct cmp_block *b;
	struct cmp_entry *e;

	add_scenario(c, "scn" HOSTILE);
	e = add_entry(c, "scn" HOSTILE, "scene" HOSTILE, "frame_p90_ms",
	    CMP_REGRESSION);
	free(e->reason);
	e->reason = xstrdup("why" HOSTILE);
	add_entry(c, "scn" HOSTILE, "scene" HOSTILE, "fps",
	    CMP_INCONCLUSIVE);
	b = comparison_add_block(c);
	b->device = xstrdup(c->device);
	b->scenario = xstrdup("scn" HOSTILE);
	b->scene = xstrdup("scene" HOSTILE);
	b->signature = xstrdup("sig" HOSTILE);
	b->status = CMP_BLOCK_NEW;
	b->cur.count = 3;
	b->cur.iterations = 5;
	b->cur.wall_ms = 240;
	strlist_add(&b->stack, "frame" HOSTILE);
	strlist_add(&c->warnings, "warn" HOSTILE);
	return c;
}

/*
 * Hostile strings in every field reach report.html and email.html as
 * text: the parsed document has no script element and no event handler,
 * and the payload reads back as the characters it was.
 */
static void
hostile_strings_stay_text_in_html(void **state)
{
	static const char *const files[] = { "report.html", "email.html" };
	struct comparison *c = hostile_comparison();
	char *dir = tmp_path("hostile");
	char *out = xasprintf("%s/out", dir);
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	for (size_t i = 0; i < 2; i++) {
		htmlDocPtr doc;
		xmlChar *text;

		read_text(&sb, out, files[i]);
		assert_null(strstr(sb.buf, "<script"));
		assert_null(strstr(sb.buf, "\x1b"));
		doc = htmlReadMemory(sb.buf, (int)sb.len, files[i], "UTF-8",
		    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
		    HTML_PARSE_NONET);
		assert_non_null(doc);
		assert_false(has_element(xmlDocGetRootElement(doc),
		    "script"));
		assert_false(has_event_attribute(xmlDocGetRootElement(doc)));
		text = xmlNodeGetContent(xmlDocGetRootElement(doc));
		assert_non_null(strstr((char *)text,
		    "scn<script>alert('x')</script> & \"q\""));
		assert_non_null(strstr((char *)text, "frame<script>"));
		xmlFree(text);
		xmlFreeDoc(doc);
	}
	report_result_release(&res);
	comparison_free(c);
	strbuf_release(&sb);
	free(out);
	free(dir);
}

/*
 * junit.xml is well-formed XML even with control characters in the data,
 * has one testcase per entry and one per new block (its frames in
 * system-out), the regression as a failure and the inconclusive entry as
 * skipped, warnings in system-err, and counts that add up: testsuites has
 * no skipped attribute (junit-10 allows it on testsuite only).
 */
static void
junit_is_well_formed_with_failures_and_skips(void **state)
{
	struct comparison *c = hostile_comparison();
	char *dir = tmp_path("junit");
	char *out = xasprintf("%s/out", dir);
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;
	xmlDocPtr doc;
	xmlNode *root;

	add_entry(c, "scn" HOSTILE, NULL, "startup_ms", CMP_PASS);
	/* A p below what the view prints is a bound, not "= < 0.0001". */
	for (size_t i = 0; i < c->nr_entries; i++)
		if (c->entries[i].verdict == CMP_REGRESSION)
			c->entries[i].p_adjusted = 1e-6;
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	read_text(&sb, out, "junit.xml");
	assert_non_null(strstr(sb.buf, "p &lt; 0.0001"));
	/* the interval and p are the shift's, named as such (issue 48) */
	assert_non_null(strstr(sb.buf, "change +3.1 ms, shift +3.1 ms (+2.9 "
	    "to +3.3 ms), p &lt; 0.0001"));
	assert_null(strstr(sb.buf, "= &lt;"));
	doc = xmlReadMemory(sb.buf, (int)sb.len, "junit.xml", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	assert_non_null(doc);
	root = xmlDocGetRootElement(doc);
	assert_string_equal((const char *)root->name, "testsuites");
	assert_int_equal(count_elements(root, "testcase"), 4);
	assert_int_equal(count_elements(root, "failure"), 1);
	assert_int_equal(count_elements(root, "skipped"), 1);
	assert_int_equal(count_elements(root, "system-out"), 1);
	assert_int_equal(count_elements(root, "system-err"), 1);
	assert_true(xmlHasProp(root, BAD_CAST "tests") != NULL);
	assert_null(xmlHasProp(root, BAD_CAST "skipped"));
	{
		xmlChar *t = xmlGetProp(root, BAD_CAST "tests");
		xmlNode *suite = root->children;

		assert_string_equal((char *)t, "4");
		xmlFree(t);
		while (suite && suite->type != XML_ELEMENT_NODE)
			suite = suite->next;
		t = xmlGetProp(suite, BAD_CAST "skipped");
		assert_string_equal((char *)t, "1");
		xmlFree(t);
	}
	assert_non_null(strstr(sb.buf, "block frame"));
	assert_null(strchr(sb.buf, '\033'));
	xmlFreeDoc(doc);
	report_result_release(&res);
	comparison_free(c);
	strbuf_release(&sb);
	free(out);
	free(dir);
}

/*
 * The GitHub workflow commands: one ::error per regression, one ::warning
 * per inconclusive metric and per warning, each one line: a line break,
 * a '%' or a control character in a device string cannot end the command
 * or start another one.  With GITHUB_ACTIONS=true report_ci() hands them
 * out and appends summary.md to $GITHUB_STEP_SUMMARY, twice for two calls.
 */
static void
github_commands_are_one_line_each(void **state)
{
	struct comparison *c = new_comparison("pixel-7");
	char *dir = tmp_path("github");
	char *out = xasprintf("%s/out", dir);
	char *sum = xasprintf("%s/step-summary.md", dir);
	struct report_result res;
	struct strlist print = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	add_scenario(c, "feed");
	add_entry(c, "feed", "list\n::error::forged 100%\x1b", "frame_p90_ms",
	    CMP_REGRESSION);
	add_entry(c, "feed", "list", "fps", CMP_INCONCLUSIVE);
	add_entry(c, "feed", "list", "jank_pct", CMP_PASS);
	strlist_add(&c->warnings, "two\nlines");
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	assert_int_equal(res.github.nr, 3);
	assert_string_equal(res.github.items[0], "::error title=jankgate "
	    "regression::pixel-7 feed / list%0A::error::forged 100%25\xef\xbf"
	    "\xbd frame_p90_ms: 10 ms -> 13.1 ms (+3.1 ms): worse by 3.1 ms "
	    "(threshold 1 ms), p = 0.002 after holm");
	assert_true(!strncmp(res.github.items[1], "::warning title=jankgate "
	    "inconclusive::pixel-7 feed / list fps: ", 40));
	assert_string_equal(res.github.items[2], "::warning title=jankgate "
	    "warning::pixel-7: compare: two%0Alines");
	unsetenv("GITHUB_ACTIONS");
	unsetenv("GITHUB_STEP_SUMMARY");
	assert_int_equal(report_ci(&res, out, &print), 0);
	assert_int_equal(print.nr, 0);
	setenv("GITHUB_ACTIONS", "true", 1);
	setenv("GITHUB_STEP_SUMMARY", sum, 1);
	assert_int_equal(report_ci(&res, out, &print), 0);
	assert_int_equal(report_ci(&res, out, &print), 0);
	unsetenv("GITHUB_ACTIONS");
	unsetenv("GITHUB_STEP_SUMMARY");
	assert_int_equal(print.nr, 6);
	assert_int_equal(file_read(&sb, sum), 0);
	assert_non_null(strstr(strstr(sb.buf, "### Regression detected") + 1,
	    "### Regression detected"));
	strlist_release(&print);
	strbuf_release(&sb);
	report_result_release(&res);
	comparison_free(c);
	free(sum);
	free(out);
	free(dir);
}

/*
 * Every format is written, report.html's path is returned, and the
 * verdict and exit code follow the comparison: a regression is 1.
 */
static void
writes_every_format(void **state)
{
	static const char *const names[] = { "report.html", "email.html",
	    "email.txt", "summary.md", "junit.xml", "view.json",
	    "comparison.json" };
	struct comparison *c = new_comparison("pixel-7");
	char *dir = tmp_path("all");
	char *out = xasprintf("%s/out", dir);
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;

	add_scenario(c, "feed");
	add_entry(c, "feed", "list", "frame_p90_ms", CMP_REGRESSION);
	add_entry(c, "feed", "list", "fps", CMP_PASS);
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	assert_int_equal(res.verdict, OUTCOME_REGRESSION);
	assert_int_equal(res.exit_code, 1);
	assert_non_null(strstr(res.html, "/out/report.html"));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		read_text(&sb, out, names[i]);
		assert_true(sb.len > 0);
	}
	read_text(&sb, out, "email.txt");
	assert_non_null(strstr(sb.buf, "Regression detected"));
	assert_non_null(strstr(sb.buf, "frame_p90_ms: 10 ms -> 13.1 ms "
	    "(+3.1 ms, +31%)"));
	read_text(&sb, out, "summary.md");
	assert_non_null(strstr(sb.buf, "| Regression | pixel-7 | feed / list "
	    "| frame\\_p90\\_ms |"));
	read_text(&sb, out, "report.html");
	assert_non_null(strstr(sb.buf, "cannot rule out a change of practical "
	    "size (+1 fps)"));
	report_result_release(&res);
	comparison_free(c);
	strbuf_release(&sb);
	free(out);
	free(dir);
}

/*
 * A suspect (docs/method.md, step 8) is listed under its own heading in the
 * report, the mails and the summary, with its q-value and the level; it
 * is no regression: a pass stays exit 0, and its row in the scene's
 * table keeps the pass badge.  With suspect_fdr 0 no list appears.
 */
static void
suspects_are_listed_in_every_format(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct comparison *c = new_comparison("pixel-7");
		char *dir = tmp_path(on ? "suspect" : "nosuspect");
		char *out = xasprintf("%s/out", dir);
		struct report_result res;
		struct strbuf sb = STRBUF_INIT;
		struct cmp_entry *e;

		(void)state;
		add_scenario(c, "feed");
		add_entry(c, "feed", "list", "fps", CMP_PASS);
		e = add_entry(c, "feed", "list", "frame_p90_ms", CMP_PASS);
		e->p_value = 0.0004;
		e->p_adjusted = 0.031;
		e->q_value = on ? 0.031 : NAN;
		e->suspect = on;
		c->suspect_fdr = on ? 0.1 : 0;
		assert_int_equal(write_report(&res, dir, c, NULL), 0);
		assert_int_equal(res.verdict, OUTCOME_PASS);
		assert_int_equal(res.exit_code, 0);
		read_text(&sb, out, "report.html");
		assert_true(!strstr(sb.buf, "<h2>Suspects</h2>") == !on);
		assert_true(!strstr(sb.buf, "false discovery rate of 10%") ==
		    !on);
		assert_true(!strstr(sb.buf, "<td class=\"num\">0.031</td>") ==
		    !on);
		assert_true(!strstr(sb.buf, "suspect: q = 0.031") == !on);
		read_text(&sb, out, "email.txt");
		assert_true(!strstr(sb.buf, "SUSPECTS") == !on);
		assert_true(!strstr(sb.buf, "pixel-7 feed / list frame_p90_ms: "
		    "10 ms -> 13.1 ms (+3.1 ms), q = 0.031") == !on);
		read_text(&sb, out, "email.html");
		assert_true(!strstr(sb.buf, "q = 0.031") == !on);
		read_text(&sb, out, "summary.md");
		assert_true(!strstr(sb.buf, "#### Suspects (not regressions)") ==
		    !on);
		read_text(&sb, out, "comparison.json");
		assert_true(!strstr(sb.buf, "\"suspect\": true") == !on);
		/* JUnit: a passing testcase that says why it is named. */
		read_text(&sb, out, "junit.xml");
		assert_non_null(strstr(sb.buf, "failures=\"0\""));
		assert_null(strstr(sb.buf, "<failure"));
		assert_true(!strstr(sb.buf, "<system-out>suspect (q = 0.031; "
		    "listed, not a verdict): feed / list frame_p90_ms") == !on);
		/* GitHub: a notice, never an error or a warning. */
		assert_int_equal(res.github.nr, on ? 1 : 0);
		if (on)
			assert_true(!strncmp(res.github.items[0], "::notice "
			    "title=jankgate suspect::pixel-7 feed / list "
			    "frame_p90_ms: 10 ms -> 13.1 ms", 75));
		report_result_release(&res);
		comparison_free(c);
		strbuf_release(&sb);
		free(out);
		free(dir);
	}
}

/* Whether `needle` occurs in buf[0..end). */
static bool
occurs_before(const char *buf, const char *needle, const char *end)
{
	const char *at = strstr(buf, needle);

	return at && at < end;
}

/*
 * The mail of a night of 50 device keys (20 scenarios x 5 scenes each,
 * two metrics a scene): 60 regressions on the first 30 keys, two
 * inconclusive and one missing entry on the next three.  email.html made
 * one line per scenario per device, 205 KB at 50 keys, and Gmail clips a
 * message past 102 KB, hiding what comes after.  Now it stays under
 * 100 KB, the summary counts every entry, the attention list starts with
 * the first regression and says how many it leaves out, and the devices
 * are capped at 20 with a line for the rest; email.txt has the same caps.
 * The other lists are full as well: 100 suspects, 50 new blocks, 50
 * slower methods.
 */
static void
email_of_fifty_device_keys_stays_small(void **state)
{
	enum { KEYS = 50 };
	char *dir = tmp_path("fifty");
	char *out = xasprintf("%s/out", dir);
	const char *files[KEYS];
	char *paths[KEYS];
	struct report_opts o = { files, KEYS, out, NULL, NULL, { 0 }, false,
	    NULL, NULL };
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;
	const char *devices;

	for (int d = 0; d < KEYS; d++) {
		char key[64];
		struct comparison *c;

		snprintf(key, sizeof(key), "google-pixel-%d-api34-90hz", d + 1);
		c = new_comparison(key);
		for (int s = 0; s < 20; s++) {
			char scn[32];

			snprintf(scn, sizeof(scn), "scenario-%02d", s);
			add_scenario(c, scn);
			for (int k = 0; k < 5; k++) {
				char scene[32];
				bool here = s == d % 20 && k == d % 5;
				enum cmp_verdict v = CMP_PASS;
				struct cmp_entry *e;

				snprintf(scene, sizeof(scene), "scene-%d", k);
				if (here && d < 30)
					v = CMP_REGRESSION;
				else if (here && d < 32)
					v = CMP_INCONCLUSIVE;
				else if (here && d == 32)
					v = CMP_MISSING;
				add_entry(c, scn, scene, "frame_p90_ms", v);
				e = add_entry(c, scn, scene, "jank_pct",
				    v == CMP_REGRESSION ? v : CMP_PASS);
				/* every other list full too: 100 suspects, */
				if (s == 19 && k < 2) {
					e->q_value = 0.031;
					e->suspect = true;
				}
				/* 50 new blocks and 50 slower methods */
				if (here) {
					struct cmp_block *b =
					    comparison_add_block(c);

					b->device = xstrdup(key);
					b->scenario = xstrdup(scn);
					b->scene = xstrdup(scene);
					b->signature = xstrdup("0123456789abcdef");
					b->status = CMP_BLOCK_NEW;
					b->cur.count = 5;
					strlist_add(&b->stack, "java.math."
					    "BigDecimal.divide(BigDecimal.java"
					    ":1760)");
					add_method(c, scn, scene);
				}
			}
		}
		c->suspect_fdr = 0.1;
		paths[d] = xasprintf("%s/cmp-%d.json", dir, d);
		files[d] = paths[d];
		assert_int_equal(comparison_write(c, paths[d]), 0);
		comparison_free(c);
	}
	assert_int_equal(report_write(&res, &o), 0);
	read_text(&sb, out, "email.html");
	assert_true(sb.len <= 100 * 1024);
	assert_non_null(strstr(sb.buf, "50 devices, 10000 metrics: 60 "
	    "regression, 2 inconclusive, 1 missing, 9937 pass"));
	devices = strstr(sb.buf, ">Devices</td>");
	assert_non_null(devices);
	/* the first regression first, and what the cap leaves out counted */
	assert_true(occurs_before(sb.buf, "google-pixel-1-api34-90hz · "
	    "scenario-00 / scene-0</span><br>frame_p90_ms", devices));
	assert_true(occurs_before(sb.buf, "… and 13 more in the attached "
	    "report.", devices));
	assert_true(occurs_before(sb.buf, "… and 50 more in the attached "
	    "report.", devices));	/* suspects */
	assert_true(occurs_before(sb.buf, "… and 30 more in the attached "
	    "report.", devices));	/* blocks, methods */
	assert_non_null(strstr(devices, "… and 30 more devices in the "
	    "attached report."));
	assert_null(strstr(sb.buf, "scenario-19</td>"));
	read_text(&sb, out, "email.txt");
	assert_true(sb.len <= 100 * 1024);
	assert_non_null(strstr(sb.buf, "60 regression, 2 inconclusive"));
	assert_non_null(strstr(sb.buf, "\n- Regression: "
	    "google-pixel-1-api34-90hz scenario-00 / scene-0 frame_p90_ms"));
	assert_non_null(strstr(sb.buf, "... and 13 more in the attached "
	    "report."));
	assert_non_null(strstr(sb.buf, "... and 30 more devices"));
	assert_null(strstr(sb.buf, "\n  scenario-"));
	report_result_release(&res);
	for (int d = 0; d < KEYS; d++)
		free(paths[d]);
	strbuf_release(&sb);
	free(out);
	free(dir);
}

/*
 * The mail of a large suite (20 scenarios x 5 scenes x 3 devices, every
 * metric of the table a regression, a new block and a slower method per
 * scene, every explanation moved, so each frame-time row names a phase)
 * stays under
 * Gmail's 102 KB clipping limit, and holds no SVG, script, style element
 * or external reference.
 */
static void
email_html_stays_small_for_a_large_suite(void **state)
{
	char *dir = tmp_path("large");
	char *out = xasprintf("%s/out", dir);
	const char *files[3];
	char *paths[3];
	struct report_opts o = { files, 3, out, NULL, NULL, { 0 }, false,
	    NULL, NULL };
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;

	for (int d = 0; d < 3; d++) {
		char key[64];
		struct comparison *c;

		snprintf(key, sizeof(key), "google-pixel-%d-api34-90hz", d + 6);
		c = new_comparison(key);
		for (int s = 0; s < 20; s++) {
			char scn[32];

			snprintf(scn, sizeof(scn), "scenario-%02d", s);
			add_scenario(c, scn);
			add_entry(c, scn, NULL, "startup_ms", CMP_REGRESSION);
			for (int k = 0; k < 5; k++) {
				char scene[32];
				struct cmp_block *b;

				snprintf(scene, sizeof(scene), "scene-%d", k);
				for (size_t m = 0; m < metric_count(); m++)
					if (metric_at(m)->scope == METRIC_SCENE &&
					    !metric_at(m)->explain)
						add_entry(c, scn, scene,
						    metric_at(m)->name,
						    CMP_REGRESSION);
					else if (metric_at(m)->explain)
						add_explain(c, scn, scene,
						    metric_at(m)->name);
				b = comparison_add_block(c);
				b->device = xstrdup(key);
				b->scenario = xstrdup(scn);
				b->scene = xstrdup(scene);
				b->signature = xstrdup("0123456789abcdef");
				b->status = CMP_BLOCK_NEW;
				b->cur.count = 5;
				b->cur.frames_seen = 5;
				b->cur.janky_frames = 14;
				strlist_add(&b->stack, "java.math.BigDecimal."
				    "divide(BigDecimal.java:1760)");
				strlist_add(&b->stack, "com.example.feed.ui."
				    "FeedAdapter.onBindViewHolder(FeedAdapter"
				    ".java:120)");
				add_method(c, scn, scene);
			}
		}
		paths[d] = xasprintf("%s/cmp-%d.json", dir, d);
		files[d] = paths[d];
		assert_int_equal(comparison_write(c, paths[d]), 0);
		comparison_free(c);
	}
	assert_int_equal(report_write(&res, &o), 0);
	read_text(&sb, out, "email.html");
	assert_true(sb.len > 1000);
	assert_true(sb.len <= 100 * 1024);
	assert_null(strstr(sb.buf, "<svg"));
	assert_null(strstr(sb.buf, "<script"));
	assert_null(strstr(sb.buf, "<style"));
	assert_null(strstr(sb.buf, "<link"));
	assert_null(strstr(sb.buf, "http:"));
	assert_null(strstr(sb.buf, "https:"));
	assert_non_null(strstr(sb.buf, "more in the attached report"));
	assert_non_null(strstr(sb.buf, ": wait before the frame +2.5 ms"));
	assert_non_null(strstr(sb.buf, "overlapped 14 janky frames"));
	assert_non_null(strstr(sb.buf, "Methods new or slower"));
	read_text(&sb, out, "comparison-3.json");
	report_result_release(&res);
	for (int d = 0; d < 3; d++)
		free(paths[d]);
	strbuf_release(&sb);
	free(out);
	free(dir);
}

/*
 * The current results are found next to the comparison when the path
 * compare wrote does not exist from here, and feed the frame chart.
 */
static void
current_results_resolve_next_to_the_comparison(void **state)
{
	struct comparison *c = new_comparison("pixel-7");
	struct results *r = results_new();
	struct rs_iteration *it;
	struct rs_scene *sc;
	char *dir = tmp_path("resolve");
	char *out = xasprintf("%s/out", dir);
	char *rpath = xasprintf("%s/cur.json", dir);
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;

	rs_str_set(&r->device.key, "pixel-7");
	it = rs_scenario_add_iteration(results_add_scenario(r, "feed"),
	    false);
	it->ok = true;
	sc = rs_iteration_add_scene(it, "list");
	rs_frames_add_bucket(&sc->frames, 8, 90);
	rs_frames_add_bucket(&sc->frames, 20, 10);
	assert_int_equal(results_write(r, rpath), 0);
	c->current.file = xstrdup("no/such/dir/cur.json");
	add_scenario(c, "feed");
	add_entry(c, "feed", "list", "frame_p90_ms", CMP_PASS);
	/* as written, the file does not exist: not found, a note */
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	assert_int_equal(res.notes.nr, 1);
	assert_non_null(strstr(res.notes.items[0], "not found"));
	report_result_release(&res);
	/* relative to the comparison's directory, it does */
	free(c->current.file);
	c->current.file = xstrdup("cur.json");
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	assert_int_equal(res.notes.nr, 0);
	/* a passing scene: in full on the device's page only */
	read_text(&sb, out, "devices/pixel-7.html");
	assert_non_null(strstr(sb.buf, "<svg"));
	assert_non_null(strstr(sb.buf, "frames: 100 current (no baseline"));
	report_result_release(&res);
	results_free(r);
	comparison_free(c);
	strbuf_release(&sb);
	free(rpath);
	free(out);
	free(dir);
}

/*
 * A current results file with a value out of its limits (a startup of
 * 1.7e308 ms) is refused by its key path when the report is strict
 * (`jankgate report`), and read with the value absent and a warning in
 * the report when it is not (the gate's, whose night it would cost).
 */
static void
values_out_of_limits_refused_or_absent(void **state)
{
	struct comparison *c = new_comparison("pixel-7");
	struct results *r = results_new();
	struct rs_iteration *it;
	char *dir = tmp_path("limits");
	char *out = xasprintf("%s/out", dir);
	char *rpath = xasprintf("%s/cur.json", dir);
	char *cmp = xasprintf("%s/comparison-in.json", dir);
	const char *files[] = { cmp };
	struct report_opts o = { files, 1, out, NULL, NULL, { 0 }, true,
	    NULL, NULL };
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;
	char *json;

	rs_str_set(&r->device.key, "pixel-7");
	it = rs_scenario_add_iteration(results_add_scenario(r, "feed"),
	    false);
	it->ok = true;
	it->startup.present = true;
	it->startup.total_ms = 1.7e308;
	/* As an older jankgate wrote it: results_write() holds limits. */
	json = results_to_json(r);
	assert_int_equal(file_write_atomic(rpath, json, strlen(json), 0644),
	    0);
	free(json);
	c->current.file = xstrdup(rpath);
	add_scenario(c, "feed");
	add_entry(c, "feed", NULL, "startup_ms", CMP_PASS);
	assert_int_equal(comparison_write(c, cmp), 0);
	assert_int_equal(report_write(&res, &o), JG_EINVAL);
	read_text(&sb, dir, "cur.json");	/* the file is still there */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s: scenarios[0].iterations[0].startup.total_ms: "
	    "1.7e+308 is not a duration (0 to 3600000 ms)", rpath);
	assert_string_equal(jg_error_msg(), sb.buf);
	report_result_release(&res);
	o.strict = false;
	assert_int_equal(report_write(&res, &o), 0);
	read_text(&sb, out, "report.html");
	assert_non_null(strstr(sb.buf, "startup.total_ms: 1.7e+308 is not a "
	    "duration (0 to 3600000 ms); read as absent"));
	report_result_release(&res);
	results_free(r);
	comparison_free(c);
	strbuf_release(&sb);
	free(cmp);
	free(rpath);
	free(out);
	free(dir);
}

/*
 * A comparison given twice (a glob that matches a gate's
 * OUT/KEY/comparison.json and its report's copy of it) counts once, with
 * a note naming both files, and is copied once; shards of one run (other
 * scenarios) are no repeat; two different comparisons of one scenario of
 * one run are refused (JG_EINVAL, nothing written).
 */
static void
repeated_comparisons_count_once(void **state)
{
	struct comparison *a = new_comparison("pixel-7");
	struct comparison *b = new_comparison("pixel-7");
	char *dir = tmp_path("repeat");
	char *pa = xasprintf("%s/a.json", dir), *pb = xasprintf("%s/b.json", dir);
	char *copy = xasprintf("%s/copy.json", dir);
	char *out = xasprintf("%s/out", dir);
	const char *files[] = { pa, copy, pb };
	struct report_opts o = { files, 3, out, NULL, NULL, { 0 }, false,
	    NULL, NULL };
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	add_scenario(a, "feed");
	add_entry(a, "feed", "list", "frame_p90_ms", CMP_REGRESSION);
	add_entry(a, "feed", "list", "jank_pct", CMP_PASS);
	add_scenario(b, "checkout");
	add_entry(b, "checkout", "pay", "frame_p90_ms", CMP_PASS);
	assert_int_equal(comparison_write(a, pa), 0);
	assert_int_equal(comparison_write(a, copy), 0);
	assert_int_equal(comparison_write(b, pb), 0);
	assert_int_equal(report_write(&res, &o), 0);
	assert_int_equal(res.notes.nr, 1);
	assert_non_null(strstr(res.notes.items[0], copy));
	assert_non_null(strstr(res.notes.items[0], pa));
	report_result_release(&res);
	read_text(&sb, out, "view.json");
	assert_non_null(strstr(sb.buf, "\"1 device, 3 metrics: "));
	read_text(&sb, out, "junit.xml");
	assert_non_null(strstr(sb.buf, " tests=\"3\" failures=\"1\""));
	read_text(&sb, out, "comparison-2.json");
	assert_non_null(strstr(sb.buf, "checkout"));
	free(out);
	out = xasprintf("%s/out/comparison-3.json", dir);
	assert_int_equal(stat(out, &st), -1);

	/* another verdict on the feed of run c1: which stands is not ours */
	a->entries[1].verdict = CMP_REGRESSION;
	assert_int_equal(comparison_write(a, copy), 0);
	free(out);
	out = xasprintf("%s/refused", dir);
	o.out_dir = out;
	assert_int_equal(report_write(&res, &o), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "run c1 of pixel-7"));
	assert_int_equal(stat(out, &st), -1);
	report_result_release(&res);
	comparison_free(a);
	comparison_free(b);
	strbuf_release(&sb);
	free(pa);
	free(pb);
	free(copy);
	free(out);
	free(dir);
}

/*
 * Errors name what failed: a missing comparison (JG_ENOTFOUND), an
 * invalid one with its key path (JG_EINVAL), a broken template (JG_EINVAL,
 * and nothing is written), an output directory that cannot be made
 * (JG_EIO).
 */
static void
errors_name_the_file_and_key(void **state)
{
	char *dir = tmp_path("errors");
	char *bad = xasprintf("%s/bad.json", dir);
	char *missing = xasprintf("%s/missing.json", dir);
	char *tpl = xasprintf("%s/tpl", dir);
	char *tplfile = xasprintf("%s/tpl/summary.md", dir);
	char *blocker = xasprintf("%s/blocker", dir);
	char *under = xasprintf("%s/blocker/out", dir);
	char *out = xasprintf("%s/out", dir);
	const char *one[1];
	struct report_opts o = { one, 1, out, NULL, NULL, { 0 }, false,
	    NULL, NULL };
	struct report_result res;
	struct comparison *c = new_comparison("pixel-7");
	static const char badjson[] = "{\"schema\": \"jankgate.comparison/1\","
	    " \"entries\": [{\"scenario\": \"s\", \"metric\": 5}]}";

	one[0] = missing;
	assert_int_equal(report_write(&res, &o), JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "missing.json"));
	report_result_release(&res);

	assert_int_equal(file_write_atomic(bad, badjson, strlen(badjson),
	    0644), 0);
	one[0] = bad;
	assert_int_equal(report_write(&res, &o), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "bad.json"));
	assert_non_null(strstr(jg_error_msg(), "entries[0].metric"));
	report_result_release(&res);

	assert_int_equal(file_mkdirs(tpl, 0755), 0);
	assert_int_equal(file_write_atomic(tplfile, "{{#open}}", 9, 0644), 0);
	add_scenario(c, "feed");
	assert_int_equal(write_report(&res, dir, c, tpl), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "summary.md"));
	assert_false(file_exists(out));
	report_result_release(&res);

	assert_int_equal(file_write_atomic(blocker, "x", 1, 0644), 0);
	one[0] = bad;
	assert_int_equal(comparison_write(c, bad), 0);
	o.out_dir = under;
	assert_int_equal(report_write(&res, &o), JG_EIO);
	report_result_release(&res);

	comparison_free(c);
	free(bad);
	free(missing);
	free(tpl);
	free(tplfile);
	free(blocker);
	free(under);
	free(out);
	free(dir);
}

/* What the fake history hook was asked, and what it answers. */
struct fake_history {
	struct strlist asked;	/* "REF PACKAGE KEY MAX" */
	int fail;		/* answer -1 with a note */
};

static int
fake_history_load(void *data, struct results ***out, size_t *nr,
    const char *ref, const char *package, const char *key, size_t max,
    struct strlist *notes)
{
	struct fake_history *f = data;

	strlist_addf(&f->asked, "%s %s %s %zu", ref, package, key, max);
	*out = NULL;
	*nr = 0;
	if (f->fail) {
		strlist_addf(notes, "no trend lines for %s: offline", key);
		return -1;
	}
	/* Two runs, newest first; the current run is left out by id. */
	*out = xcalloc(3, sizeof(**out));
	for (int i = 0; i < 2; i++) {
		struct results *r = results_new();

		rs_str_set(&r->run.id, i ? "b1" : "c1");
		(*out)[(*nr)++] = r;
	}
	return 0;
}

/*
 * The report reads no store: it asks the caller's hook for each device
 * key's history once, however many shards name the key, on the ref a
 * comparison against a ref names, else the hook's default, for
 * report.history runs; what the hook could not read is a note, not an
 * error, and without a hook (or with max 0) nothing is asked.
 */
static void
history_comes_through_the_callers_hook(void **state)
{
	char *dir = tmp_path("history");
	char *out = xasprintf("%s/out", dir);
	char *paths[3];
	const char *files[3];
	struct fake_history f = { STRLIST_INIT, 0 };
	struct report_opts o = { files, 3, out, NULL, NULL,
	    { fake_history_load, &f, 7, "release" }, false,
	    NULL, NULL };
	struct report_result res;

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct comparison *c = new_comparison(i < 2 ?
		    "google-pixel-7-api34-90hz" : "samsung-s21-api33-120hz");

		/* 0 and 1: two shards of one run, with a scenario each */
		add_scenario(c, i == 1 ? "checkout" : "feed");
		add_entry(c, i == 1 ? "checkout" : "feed", "list",
		    "frame_p90_ms", CMP_PASS);
		if (i == 2) {
			free(c->baselines[0].file);
			c->baselines[0].file = xstrdup("v2.3.0@0123456789ab");
		}
		paths[i] = xasprintf("%s/comparison-%d.json", dir, i);
		files[i] = paths[i];
		assert_int_equal(comparison_write(c, paths[i]), 0);
		comparison_free(c);
	}
	assert_int_equal(report_write(&res, &o), 0);
	assert_int_equal(f.asked.nr, 2);
	assert_string_equal(f.asked.items[0], "release com.example.feed "
	    "google-pixel-7-api34-90hz 7");
	assert_string_equal(f.asked.items[1], "v2.3.0 com.example.feed "
	    "samsung-s21-api33-120hz 7");
	report_result_release(&res);

	strlist_release(&f.asked);
	f.fail = 1;
	assert_int_equal(report_write(&res, &o), 0);
	assert_int_equal(f.asked.nr, 2);
	assert_int_equal(res.notes.nr, 2);
	assert_string_equal(res.notes.items[0], "no trend lines for "
	    "google-pixel-7-api34-90hz: offline");
	report_result_release(&res);

	strlist_release(&f.asked);
	o.history.max = 0;
	assert_int_equal(report_write(&res, &o), 0);
	report_result_release(&res);
	o.history = (struct report_history){ NULL, NULL, 7, NULL };
	assert_int_equal(report_write(&res, &o), 0);
	assert_int_equal(f.asked.nr, 0);
	report_result_release(&res);
	for (int i = 0; i < 3; i++)
		free(paths[i]);
	free(out);
	free(dir);
}

/*
 * Issue 51: the history is read one device key at a time, while its
 * device is built, and freed after: loading the comparisons reads none;
 * attaching a key's history reads it (and lends a baseline run found
 * there by id); detaching it frees it, so the next key's is the only one
 * held.  Two inputs of one key share one read.
 */
static void
history_is_held_one_key_at_a_time(void **state)
{
	char *dir = tmp_path("history-one");
	char *paths[3];
	const char *files[3];
	struct fake_history f = { STRLIST_INIT, 0 };
	struct report_opts o = { files, 3, dir, NULL, NULL,
	    { fake_history_load, &f, 7, "main" }, false, NULL, NULL };
	struct report_inputs ri;
	struct strlist notes = STRLIST_INIT;

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct comparison *c = new_comparison(i < 2 ?
		    "google-pixel-7-api34-90hz" : "samsung-s21-api33-120hz");

		add_scenario(c, i == 1 ? "checkout" : "feed");
		paths[i] = xasprintf("%s/comparison-%d.json", dir, i);
		files[i] = paths[i];
		assert_int_equal(comparison_write(c, paths[i]), 0);
		comparison_free(c);
	}
	assert_int_equal(report_load(&ri, &o, &notes), 0);
	assert_int_equal(ri.nr, 3);
	assert_int_equal(f.asked.nr, 0);
	assert_int_equal(ri.nr_hist, 0);

	report_history_attach(&ri, &o, 0, &notes);
	report_history_attach(&ri, &o, 1, &notes);
	assert_int_equal(f.asked.nr, 1);
	assert_int_equal(ri.nr_hist, 1);
	assert_int_equal(ri.hist[0].nr, 2);
	/* the current run "c1" is left out of the trend; "b1" is lent */
	assert_int_equal(ri.in[0].nr_history, 1);
	assert_int_equal(ri.in[0].nr_baselines, 1);
	assert_ptr_equal(ri.in[0].baselines[0], ri.hist[0].runs[1]);
	report_history_detach(&ri, 0);
	assert_int_equal(ri.hist[0].nr, 2);	/* input 1 still holds it */
	assert_null(ri.in[0].history);
	assert_int_equal(ri.in[0].nr_baselines, 0);
	report_history_detach(&ri, 1);
	assert_int_equal(ri.hist[0].nr, 0);
	assert_null(ri.hist[0].runs);

	report_history_attach(&ri, &o, 2, &notes);
	assert_int_equal(f.asked.nr, 2);
	assert_int_equal(ri.hist[1].nr, 2);
	assert_int_equal(ri.hist[0].nr, 0);
	report_history_detach(&ri, 2);
	assert_int_equal(ri.hist[1].nr, 0);
	assert_int_equal(notes.nr, 0);
	report_inputs_release(&ri);
	strlist_release(&notes);
	strlist_release(&f.asked);
	for (int i = 0; i < 3; i++)
		free(paths[i]);
	free(dir);
}

/* How often `needle` occurs in `hay`. */
static int
count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * Issue 48: report.html shows in full only what changed (the regressed
 * scene) and links every other scene and scenario to its device's page,
 * devices/KEY.html, which holds them all, the quiet ones folded.  A
 * report written over an earlier one leaves none of its device pages.
 */
static void
report_html_shows_what_changed_and_pages_the_rest(void **state)
{
	struct comparison *c = new_comparison("pixel-7");
	char *dir = tmp_path("pages");
	char *out = xasprintf("%s/out", dir);
	char *page = xasprintf("%s/out/devices/pixel-7.html", dir);
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;

	add_scenario(c, "feed")->verdict = CMP_REGRESSION;
	add_entry(c, "feed", "list", "frame_p90_ms", CMP_REGRESSION);
	add_entry(c, "feed", "header", "frame_p90_ms", CMP_PASS);
	add_scenario(c, "settings");
	add_entry(c, "settings", "about", "frame_p90_ms", CMP_PASS);
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	report_result_release(&res);
	read_text(&sb, out, "report.html");
	assert_int_equal(count_of(sb.buf, "<section class=\"scene\""), 1);
	assert_int_equal(count_of(sb.buf, "<section class=\"scenario\""), 1);
	assert_non_null(strstr(sb.buf, "href=\"devices/pixel-7.html#"));
	assert_non_null(strstr(sb.buf, ">settings</a>"));
	assert_non_null(strstr(sb.buf, ">header</a>"));
	read_text(&sb, out, "devices/pixel-7.html");
	assert_int_equal(count_of(sb.buf, "<section class=\"scene\""), 3);
	assert_int_equal(count_of(sb.buf, "<section class=\"scenario\""), 2);
	/* header and settings folded, and about inside settings */
	assert_int_equal(count_of(sb.buf, "<details class=\"fold\">"), 3);
	assert_non_null(strstr(sb.buf, "href=\"../report.html\""));

	free(c->device);
	c->device = xstrdup("pixel-8");
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	report_result_release(&res);
	assert_false(file_exists(page));
	free(page);
	page = xasprintf("%s/out/devices/pixel-8.html", dir);
	assert_true(file_exists(page));
	comparison_free(c);
	strbuf_release(&sb);
	free(page);
	free(out);
	free(dir);
}

/*
 * Issue 48: a report of one comparison written where a report of three
 * was leaves no comparison-2.json or comparison-3.json behind (`jankgate
 * mail` attaches every comparison*.json of the directory), but never
 * removes a file the report read.
 */
static void
stale_comparisons_are_removed(void **state)
{
	struct comparison *c = new_comparison("pixel-7");
	char *dir = tmp_path("stale");
	char *out = xasprintf("%s/out", dir);
	char *in[3], *kept = xasprintf("%s/out/comparison-mine.json", dir);
	const char *files[3];
	struct report_opts o = { files, 3, out, NULL, NULL, { 0 }, false,
	    NULL, NULL };
	struct report_result res;

	add_scenario(c, "feed");
	add_entry(c, "feed", "list", "frame_p90_ms", CMP_PASS);
	for (int i = 0; i < 3; i++) {
		free(c->device);
		c->device = xasprintf("pixel-%d", i + 6);
		in[i] = xasprintf("%s/in-%d.json", dir, i);
		files[i] = in[i];
		assert_int_equal(comparison_write(c, in[i]), 0);
	}
	assert_int_equal(report_write(&res, &o), 0);
	report_result_release(&res);
	for (int i = 1; i <= 3; i++) {
		char *p = xasprintf("%s/comparison-%d.json", out, i);

		assert_true(file_exists(p));
		free(p);
	}
	assert_int_equal(comparison_write(c, kept), 0);
	files[0] = kept;
	o.nr_comparisons = 1;
	assert_int_equal(report_write(&res, &o), 0);
	report_result_release(&res);
	for (int i = 1; i <= 3; i++) {
		char *p = xasprintf("%s/comparison-%d.json", out, i);

		assert_false(file_exists(p));
		free(p);
	}
	assert_true(file_exists(kept));
	free(kept);
	kept = xasprintf("%s/comparison.json", out);
	assert_true(file_exists(kept));
	for (int i = 0; i < 3; i++)
		free(in[i]);
	comparison_free(c);
	free(kept);
	free(out);
	free(dir);
}


/* A results file of `key`, version `ver`, with `sessions` sessions. */
static char *
ab_side(const char *dir, const char *name, const char *ver, int sessions)
{
	struct results *r = results_new();
	struct rs_scenario *s;
	char *path = xasprintf("%s/%s", dir, name);

	rs_str_set(&r->device.key, "pixel-7");
	rs_str_set(&r->app.version_name, ver);
	s = results_add_scenario(r, "feed");
	for (int i = 0; i < 2 * sessions; i++) {
		struct rs_iteration *it = rs_scenario_add_iteration(s, false);

		it->ok = true;
		it->session = i / 2;
		rs_frames_add_bucket(&rs_iteration_add_scene(it,
		    "list")->frames, 8, 90);
	}
	assert_int_equal(results_write(r, path), 0);
	results_free(r);
	return path;
}

/*
 * Issue 48: the report of `jankgate ab` says it is one.  Its banner names
 * both builds, ABBA and the block count (from the sessions of both
 * files); what the A/B says of how it ran is shown as its facts, never a
 * warning (so never a ::warning annotation); no "baseline run(s)", no
 * Trend column; the suspects are not told to run `jankgate ab`.
 */
static void
ab_report_says_it_is_one(void **state)
{
	struct comparison *c = new_comparison("pixel-7");
	char *dir = tmp_path("ab");
	char *out = xasprintf("%s/out", dir);
	char *a = ab_side(dir, "a.json", "1.0.0", 2);
	char *b = ab_side(dir, "b.json", "1.1.0", 2);
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;
	struct cmp_entry *e;

	c->interleaved = true;
	c->suspect_fdr = 0.1;
	c->current.file = xstrdup(b);
	free(c->current.app_version);
	c->current.app_version = xstrdup("1.1.0");
	c->baselines[0].file = xstrdup(a);
	c->baselines[0].app_version = xstrdup("1.0.0");
	strlist_add(&c->warnings, "interleaved A/B on the same phones: 4 "
	    "blocks in ABBA order, up to 3 iterations each; A (baseline) "
	    "v1.apk, B (current) v2.apk; installs took 20 % of device time");
	strlist_add(&c->warnings, "the blocks, in the order they ran: A 3, "
	    "B 3, B 3, A 3 iterations of every scenario");
	strlist_add(&c->warnings, "no BlockCanary log in the whole run");
	add_scenario(c, "feed")->verdict = CMP_REGRESSION;
	add_entry(c, "feed", "list", "frame_p90_ms", CMP_REGRESSION);
	e = add_entry(c, "feed", "list", "frame_p99_ms", CMP_PASS);
	e->suspect = true;
	e->q_value = 0.03;
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	read_text(&sb, out, "view.json");
	assert_non_null(strstr(sb.buf, "\"interleaved A/B on the "
	    "same phones: build A 1.0.0 (baseline) against build B 1.1.0 "
	    "(current), 4 blocks in ABBA order (2 of A, 2 of B)\""));
	read_text(&sb, out, "report.html");
	assert_non_null(strstr(sb.buf, "<strong>A/B</strong>: interleaved "
	    "A/B on the same phones: build A 1.0.0 (baseline) against build "
	    "B 1.1.0 (current), 4 blocks in ABBA order"));
	assert_non_null(strstr(sb.buf, "<h2>How the A/B ran</h2>"));
	assert_non_null(strstr(sb.buf, "<li>the blocks, in the order they "
	    "ran: A 3, B 3, B 3, A 3"));
	/* the one real warning stays one */
	assert_int_equal(count_of(sb.buf, "<li>pixel-7: "), 1);
	assert_non_null(strstr(sb.buf, "no BlockCanary log"));
	assert_null(strstr(sb.buf, "baseline run(s)"));
	assert_null(strstr(sb.buf, "baseline run of"));
	assert_null(strstr(sb.buf, "<th>Trend</th>"));
	assert_null(strstr(sb.buf, "jankgate ab</code>"));
	assert_non_null(strstr(sb.buf, "<h2>Suspects</h2>"));
	for (size_t i = 0; i < res.github.nr; i++)
		assert_null(strstr(res.github.items[i], "A/B"));
	assert_int_equal(count_of(sb.buf, "A/B: build A 1.0.0 against "
	    "build B 1.1.0, 4 blocks in ABBA order"), 1);
	read_text(&sb, out, "devices/pixel-7.html");
	assert_null(strstr(sb.buf, "baseline run of"));
	assert_null(strstr(sb.buf, "<th>Trend</th>"));
	read_text(&sb, out, "email.txt");
	assert_non_null(strstr(sb.buf, "build A 1.0.0 (baseline) against "
	    "build B 1.1.0 (current), 4 blocks in ABBA order"));
	read_text(&sb, out, "summary.md");
	assert_non_null(strstr(sb.buf, "4 blocks in ABBA order"));
	report_result_release(&res);

	/* a nightly report keeps its baseline runs, trend and advice */
	c->interleaved = false;
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	read_text(&sb, out, "report.html");
	assert_non_null(strstr(sb.buf, "1 baseline run of 1.0.0"));
	assert_non_null(strstr(sb.buf, "<th>Trend</th>"));
	assert_non_null(strstr(sb.buf, "jankgate ab</code>"));
	assert_null(strstr(sb.buf, "<strong>A/B</strong>"));
	report_result_release(&res);
	comparison_free(c);
	strbuf_release(&sb);
	free(a);
	free(b);
	free(out);
	free(dir);
}


/*
 * Issue 48: the mail and the pull-request comment give each regression's
 * confidence (the test's shift, its interval and p), and a regression a
 * gate confirmation confirmed shows the A/B's p beside the history's.
 */
static void
mail_and_summary_give_the_confidence(void **state)
{
	struct comparison *c = new_comparison("pixel-7");
	char *dir = tmp_path("confidence");
	char *out = xasprintf("%s/out", dir);
	struct report_result res;
	struct strbuf sb = STRBUF_INIT;
	struct cmp_entry *e;

	add_scenario(c, "feed")->verdict = CMP_REGRESSION;
	add_entry(c, "feed", "list", "frame_p90_ms", CMP_REGRESSION);
	e = add_entry(c, "feed", "list", "jank_pct", CMP_REGRESSION);
	free(e->reason);
	e->reason = xstrdup("worse by 3.1 % (threshold 1 %), p = 0.002 after "
	    "holm; confirmed by an interleaved A/B of 1.0 and tonight's "
	    "build: frame_p90_ms +3 ms, p 0.0002; jank_pct +2.9 %, p 0.0011");
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	report_result_release(&res);
	read_text(&sb, out, "email.html");
	assert_non_null(strstr(sb.buf, "shift +3.1 ms, 90% interval +2.9 to "
	    "+3.3 ms, p = 0.002<"));
	assert_non_null(strstr(sb.buf, "A/B p 0.0011<"));
	read_text(&sb, out, "summary.md");
	assert_non_null(strstr(sb.buf, "| +3.1 ms (+2.9 to +3.3 ms), p = "
	    "0.002 |"));
	assert_non_null(strstr(sb.buf, ", A/B p 0.0011 |"));
	read_text(&sb, out, "report.html");
	assert_non_null(strstr(sb.buf, "<span class=\"pct\">A/B 0.0011</span>"
	    "<span class=\"pct muted\">history 0.002</span>"));
	assert_int_equal(count_of(sb.buf, "A/B 0.0"), 1);
	/* the A/B's p of another metric says which */
	free(e->reason);
	e->reason = xstrdup("a suspect of the history (...); found by the "
	    "A/B: frame_p50_ms +1.9 ms, p 0.0001; new block 0255b36f in 11 "
	    "of 12 iterations, p 1.6e-06");
	assert_int_equal(write_report(&res, dir, c, NULL), 0);
	report_result_release(&res);
	read_text(&sb, out, "report.html");
	assert_non_null(strstr(sb.buf, "A/B 0.0001</span><span class=\"ival\">"
	    "of frame_p50_ms</span>"));
	comparison_free(c);
	strbuf_release(&sb);
	free(out);
	free(dir);
}


static const struct CMUnitTest tests[] = {
	cmocka_unit_test(escapes_neutralise_markup_and_controls),
	cmocka_unit_test(escapes_keep_utf8_text),
	cmocka_unit_test(markdown_escapes_leading_markers),
	cmocka_unit_test(template_lookup_is_per_file),
	cmocka_unit_test(template_read_names_its_file),
	cmocka_unit_test(hostile_strings_stay_text_in_html),
	cmocka_unit_test(junit_is_well_formed_with_failures_and_skips),
	cmocka_unit_test(github_commands_are_one_line_each),
	cmocka_unit_test(writes_every_format),
	cmocka_unit_test(suspects_are_listed_in_every_format),
	cmocka_unit_test(email_html_stays_small_for_a_large_suite),
	cmocka_unit_test(email_of_fifty_device_keys_stays_small),
	cmocka_unit_test(current_results_resolve_next_to_the_comparison),
	cmocka_unit_test(values_out_of_limits_refused_or_absent),
	cmocka_unit_test(repeated_comparisons_count_once),
	cmocka_unit_test(errors_name_the_file_and_key),
	cmocka_unit_test(history_comes_through_the_callers_hook),
	cmocka_unit_test(history_is_held_one_key_at_a_time),
	cmocka_unit_test(report_html_shows_what_changed_and_pages_the_rest),
	cmocka_unit_test(stale_comparisons_are_removed),
	cmocka_unit_test(ab_report_says_it_is_one),
	cmocka_unit_test(mail_and_summary_give_the_confidence),
};

JG_UNIT_GROUP(report, tests, NULL, NULL)
