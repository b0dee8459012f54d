/*
 * junit.c: junit.xml, written with libxml2's text writer from the model.
 *
 * CI systems (Jenkins, GitLab, GitHub test reporters) read the Ant/JUnit
 * format and many validate it against the "junit-10" schema, so this
 * file is code rather than a template: the counts are computed from the
 * testcases actually written, and only what that schema allows appears
 * (tests/e2e/data/junit/junit-10.xsd, written from the format's
 * description, checks it).  The layout:
 *
 *   <testsuites name=TITLE tests= failures= errors= time=>
 *     <testsuite name=DEVICE-KEY id=N tests= failures= errors= skipped=
 *                time=>                       one per device
 *       <properties> model, serial, app version, run id </properties>
 *       <testcase classname="jankgate.KEY" name="run">     when the run
 *         <error type="infrastructure" message=LINE/>...   recorded errors
 *       </testcase>
 *       <testcase classname="jankgate.KEY" name="missing: scene 'S/X'">
 *         <failure type="missing" .../>       what the baseline measured
 *       </testcase>                           and the run did not
 *       <testcase classname="jankgate.KEY.SCENARIO" name="[SCENE: ]METRIC"
 *                 time=>                      one per compared metric
 *         <failure type="regression" .../>    a regression
 *         <skipped message="inconclusive: ..."/>   inconclusive, missing
 *         <system-out>suspect (q = ...): ...</system-out>   a suspect
 *       </testcase>
 *       <testcase ... name="[SCENE: ]block APP-FRAME (SIGNATURE)">
 *         <failure type="regression" .../>    a new signature that fails
 *         <system-out>new or worse, counts, stack</system-out>
 *       </testcase>                           one per new or worse block
 *       <system-err>the device's warnings, one per line</system-err>
 *     </testsuite>
 *   </testsuites>
 *
 * tests counts every testcase, failures those with a failure, errors those
 * with an error, skipped those skipped; testsuites sums its suites (the
 * schema has no skipped there).  A suspect (a pass that leans worse,
 * docs/method.md, step 8) passes too, with the why in its system-out.  A block
 * is a passing testcase, but for a new signature that is a regression
 * (compare_blocks.c): blocks explain the blocks/block_ms metrics, and a
 * CI's test history should track them by name.  Times are seconds of
 * the current run: a scene's measured windows shared by its metrics, a
 * scenario's measured time outside its scenes by its launch metrics, and
 * a suite's time is every iteration of the device, warm-ups included.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "error.h"
#include "report.h"
#include "report_int.h"
#include "strbuf.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

enum jstatus { J_PASS, J_FAILURE, J_SKIPPED, J_ERROR };

struct jcase {
	char *classname, *name;
	double seconds;
	enum jstatus status;
	char *message;		/* failure or skipped message */
	const char *ftype;	/* the failure's type; NULL: "regression" */
	char *text;		/* failure text, or system-out */
	const cJSON *errors;	/* error messages (J_ERROR), borrowed */
};

struct jsuite {
	const cJSON *dev;
	struct jcase *cases;
	size_t nr, alloc;
	size_t counts[J_ERROR + 1];
	double seconds;
};

static const char *
str(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(o, key));

	return s ? s : "";
}

static double
num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ?
	    v->valuedouble : 0;
}

/*
 * "= 0.002", or "< 0.0001" where the view gives a bound: "p = < 0.0001"
 * reads as a typo in a CI's test page.
 */
static const char *
relation(const char *figure)
{
	return *figure == '<' || *figure == '>' ? "" : "= ";
}

static const char *
verdict_of(const cJSON *o)
{
	return str(cJSON_GetObjectItemCaseSensitive(o, "verdict"), "name");
}

static struct jcase *
add_case(struct jsuite *s, const char *classname, const char *name)
{
	struct jcase *c;

	XALLOC_GROW(s->cases, s->nr + 1, s->alloc);
	c = &s->cases[s->nr++];
	memset(c, 0, sizeof(*c));
	c->classname = xstrdup(classname);
	c->name = xstrdup(name);
	return c;
}

/* One metric ROW: a failure, a skip or a pass. */
static void
add_row(struct jsuite *s, const char *classname, const cJSON *row,
    double seconds)
{
	const char *scene = str(row, "scene"), *v = verdict_of(row);
	char *name = *scene ? xasprintf("%s: %s", scene, str(row, "metric")) :
	    xstrdup(str(row, "metric"));
	struct jcase *c = add_case(s, classname, name);

	c->seconds = seconds;
	if (!strcmp(v, "regression")) {
		c->status = J_FAILURE;
		c->message = xstrdup(str(row, "reason"));
		/* change: of the medians; the interval and p are the
		 * shift's (view_rows.c) */
		c->text = xasprintf("%s %s: baseline %s, current %s, change "
		    "%s, shift %s (%s), p %s%s", str(row, "where"),
		    str(row, "metric"), str(row, "baseline"),
		    str(row, "current"), str(row, "change"),
		    str(row, "shift"), str(row, "interval"),
		    relation(str(row, "p")), str(row, "p"));
	} else if (!strcmp(v, "inconclusive") || !strcmp(v, "missing")) {
		c->status = J_SKIPPED;
		c->message = xasprintf("%s: %s", v, str(row, "reason"));
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row,
	    "suspect"))) {
		/* Still a pass; the test history shows why it is named. */
		c->text = xasprintf("suspect (q %s%s; listed, not a verdict): "
		    "%s %s: baseline %s, current %s, change %s, shift %s "
		    "(%s); %s", relation(str(row, "q")), str(row, "q"),
		    str(row, "where"), str(row, "metric"),
		    str(row, "baseline"), str(row, "current"),
		    str(row, "change"), str(row, "shift"),
		    str(row, "interval"), str(row, "reason"));
	}
	free(name);
}

/* New and worse BLOCKs of a scene or scenario, as passing testcases. */
static void
add_blocks(struct jsuite *s, const char *classname, const cJSON *blocks)
{
	const cJSON *b, *f;

	cJSON_ArrayForEach(b, blocks) {
		const char *status = str(b, "status"), *scene = str(b, "scene");
		struct strbuf out = STRBUF_INIT;
		struct jcase *c;
		char *name;

		if (strcmp(status, "new") && strcmp(status, "worse"))
			continue;
		/* Named by the app frame its signature starts with. */
		name = xasprintf("%s%sblock %s (%s)", scene, *scene ? ": " : "",
		    str(b, "headline"), str(b, "short_signature"));
		c = add_case(s, classname, name);
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b,
		    "regression"))) {
			/* A new signature enough iterations carry fails. */
			c->status = J_FAILURE;
			c->ftype = "regression";
			c->message = xasprintf("new main-thread block at %s: %s",
			    str(b, "where"), str(b, "verdict_text"));
		}
		strbuf_addf(&out, "%s main-thread block at %s\nsignature %s\n"
		    "current: %s\nbaseline: %s\n", status, str(b, "where"),
		    str(b, "signature"),
		    str(cJSON_GetObjectItemCaseSensitive(b, "current"), "text"),
		    str(cJSON_GetObjectItemCaseSensitive(b, "baseline"),
		    "text"));
		if (*str(b, "janky"))
			strbuf_addf(&out, "%s\n", str(b, "janky"));
		cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(b,
		    "stack")) {
			const char *frame = cJSON_GetStringValue(f);

			strbuf_addf(&out, "    at %s\n", frame ? frame : "");
		}
		c->text = strbuf_detach(&out, NULL);
		free(name);
	}
}

/* Share `seconds` between the rows of `rows`. */
static void
add_rows(struct jsuite *s, const char *classname, const cJSON *rows,
    double seconds)
{
	int n = cJSON_GetArraySize(rows);
	const cJSON *row;

	cJSON_ArrayForEach(row, rows)
		add_row(s, classname, row, n ? seconds / n : 0);
}

static void
build_suite(struct jsuite *s, const cJSON *dev)
{
	const char *key = str(dev, "key");
	const cJSON *scn, *scene;
	struct jcase *c;
	char *cls;

	s->dev = dev;
	s->seconds = num(dev, "seconds");
	if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(dev,
	    "errors"))) {
		cls = xasprintf("jankgate.%s", key);
		c = add_case(s, cls, "run");
		c->status = J_ERROR;
		c->errors = cJSON_GetObjectItemCaseSensitive(dev, "errors");
		free(cls);
	}
	cJSON_ArrayForEach(scn, cJSON_GetObjectItemCaseSensitive(dev,
	    "missing")) {
		const char *what = cJSON_GetStringValue(scn);
		char *name;

		if (!what)
			continue;
		cls = xasprintf("jankgate.%s", key);
		name = xasprintf("missing: %s", what);
		c = add_case(s, cls, name);
		c->status = J_FAILURE;
		c->ftype = "missing";
		c->message = xasprintf("%s was measured in the baseline and "
		    "not in this run", what);
		free(name);
		free(cls);
	}
	cJSON_ArrayForEach(scn, cJSON_GetObjectItemCaseSensitive(dev,
	    "scenarios")) {
		const cJSON *scenes = cJSON_GetObjectItemCaseSensitive(scn,
		    "scenes");
		double outside = num(scn, "seconds");

		cJSON_ArrayForEach(scene, scenes)
			outside -= num(scene, "seconds");
		cls = xasprintf("jankgate.%s.%s", key, str(scn, "name"));
		add_rows(s, cls, cJSON_GetObjectItemCaseSensitive(scn,
		    "metrics"), outside > 0 ? outside : 0);
		cJSON_ArrayForEach(scene, scenes)
			add_rows(s, cls, cJSON_GetObjectItemCaseSensitive(scene,
			    "metrics"), num(scene, "seconds"));
		cJSON_ArrayForEach(scene, scenes)
			add_blocks(s, cls, cJSON_GetObjectItemCaseSensitive(
			    scene, "blocks"));
		add_blocks(s, cls, cJSON_GetObjectItemCaseSensitive(scn,
		    "blocks"));
		free(cls);
	}
	for (size_t i = 0; i < s->nr; i++)
		s->counts[s->cases[i].status]++;
}

static void
release_suite(struct jsuite *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->cases[i].classname);
		free(s->cases[i].name);
		free(s->cases[i].message);
		free(s->cases[i].text);
	}
	free(s->cases);
}

/* The writer, and the first error it met. */
struct jw {
	xmlTextWriterPtr w;
	int failed;
	struct strbuf tmp;
};

static const xmlChar *
clean(struct jw *j, const char *s)
{
	strbuf_setlen(&j->tmp, 0);
	report_clean_text(&j->tmp, s, strlen(s));
	return (const xmlChar *)j->tmp.buf;
}

static void
start(struct jw *j, const char *name)
{
	if (xmlTextWriterStartElement(j->w, (const xmlChar *)name) < 0)
		j->failed = 1;
}

static void
end(struct jw *j)
{
	if (xmlTextWriterEndElement(j->w) < 0)
		j->failed = 1;
}

static void
attr(struct jw *j, const char *name, const char *value)
{
	if (xmlTextWriterWriteAttribute(j->w, (const xmlChar *)name,
	    clean(j, value)) < 0)
		j->failed = 1;
}

static void
attr_count(struct jw *j, const char *name, size_t n)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%zu", n);
	attr(j, name, buf);
}

static void
attr_time(struct jw *j, double seconds)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.3f", seconds > 0 ? seconds : 0.0);
	attr(j, "time", buf);
}

static void
text(struct jw *j, const char *s)
{
	if (xmlTextWriterWriteString(j->w, clean(j, s)) < 0)
		j->failed = 1;
}

static void
property(struct jw *j, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	start(j, "property");
	attr(j, "name", name);
	attr(j, "value", value);
	end(j);
}

static void
write_case(struct jw *j, const struct jcase *c)
{
	const cJSON *e;

	start(j, "testcase");
	attr(j, "name", c->name);
	attr(j, "classname", c->classname);
	attr_time(j, c->seconds);
	switch (c->status) {
	case J_FAILURE:
		start(j, "failure");
		attr(j, "type", c->ftype ? c->ftype : "regression");
		attr(j, "message", c->message);
		if (c->text)
			text(j, c->text);
		end(j);
		break;
	case J_SKIPPED:
		start(j, "skipped");
		attr(j, "message", c->message);
		end(j);
		break;
	case J_ERROR:
		cJSON_ArrayForEach(e, c->errors) {
			start(j, "error");
			attr(j, "type", "infrastructure");
			attr(j, "message", cJSON_GetStringValue(e) ?
			    cJSON_GetStringValue(e) : "");
			end(j);
		}
		break;
	case J_PASS:
		if (c->text) {
			start(j, "system-out");
			text(j, c->text);
			end(j);
		}
		break;
	}
	end(j);
}

static void
write_suite(struct jw *j, const struct jsuite *s, size_t id)
{
	const cJSON *w;
	struct strbuf err = STRBUF_INIT;

	start(j, "testsuite");
	attr(j, "name", str(s->dev, "key"));
	attr_count(j, "id", id);
	attr_count(j, "tests", s->nr);
	attr_count(j, "failures", s->counts[J_FAILURE]);
	attr_count(j, "errors", s->counts[J_ERROR]);
	attr_count(j, "skipped", s->counts[J_SKIPPED]);
	attr_time(j, s->seconds);
	start(j, "properties");
	property(j, "device", str(s->dev, "label"));
	property(j, "serial", str(s->dev, "serial"));
	property(j, "app_version", str(s->dev, "app_version"));
	property(j, "run_id", str(s->dev, "run_id"));
	property(j, "verdict", verdict_of(s->dev));
	end(j);
	for (size_t i = 0; i < s->nr; i++)
		write_case(j, &s->cases[i]);
	cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(s->dev,
	    "warnings"))
		strbuf_addf(&err, "warning: %s\n", str(w, "line"));
	if (err.len) {
		start(j, "system-err");
		text(j, err.buf);
		end(j);
	}
	end(j);
	strbuf_release(&err);
}

int
junit_write(const struct view *v, struct strbuf *out)
{
	const cJSON *devices = cJSON_GetObjectItemCaseSensitive(v->root,
	    "devices"), *dev;
	size_t nr = (size_t)cJSON_GetArraySize(devices), i = 0;
	struct jsuite *suites = xcalloc(nr + 1, sizeof(*suites));
	size_t tests = 0, failures = 0, errors = 0;
	double seconds = 0;
	xmlBufferPtr buf = xmlBufferCreate();
	struct jw j = { NULL, 0, STRBUF_INIT };
	int rc = 0;

	cJSON_ArrayForEach(dev, devices) {
		build_suite(&suites[i], dev);
		tests += suites[i].nr;
		failures += suites[i].counts[J_FAILURE];
		errors += suites[i].counts[J_ERROR];
		seconds += suites[i].seconds;
		i++;
	}
	j.w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!j.w) {
		rc = jg_error_set(JG_EGENERIC, "libxml2: cannot start a "
		    "writer for junit.xml");
		goto out;
	}
	xmlTextWriterSetIndent(j.w, 1);
	xmlTextWriterSetIndentString(j.w, (const xmlChar *)"  ");
	if (xmlTextWriterStartDocument(j.w, NULL, "UTF-8", NULL) < 0)
		j.failed = 1;
	start(&j, "testsuites");
	attr(&j, "name", str(v->root, "title"));
	attr_count(&j, "tests", tests);
	attr_count(&j, "failures", failures);
	attr_count(&j, "errors", errors);
	attr_time(&j, seconds);
	for (i = 0; i < nr; i++)
		write_suite(&j, &suites[i], i);
	end(&j);
	if (xmlTextWriterEndDocument(j.w) < 0)
		j.failed = 1;
	xmlFreeTextWriter(j.w);
	if (j.failed)
		rc = jg_error_set(JG_EGENERIC, "libxml2 could not write "
		    "junit.xml");
	else
		strbuf_add(out, xmlBufferContent(buf),
		    (size_t)xmlBufferLength(buf));
out:
	if (buf)
		xmlBufferFree(buf);
	strbuf_release(&j.tmp);
	for (i = 0; i < nr; i++)
		release_suite(&suites[i]);
	free(suites);
	return rc;
}
