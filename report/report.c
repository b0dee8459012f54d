/*
 * report.c: report_write(), from comparison files to a report directory.
 *
 * The order is load (report_load.c), build the model (view.h), then render
 * every template (and junit.xml, which libxml2's writer makes: junit.c)
 * before writing anything, so a template error leaves an old report
 * directory as it was instead of half replaced.  Each output
 * has its escaping (report_escape.c): HTML and XML for report.html,
 * email.html and junit.xml; plain text for email.txt; Markdown for
 * summary.md.  A template that wants a value unescaped says so with
 * {{{name}}}; the built-in ones do that only for the SVG charts, which
 * svg.c escapes itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "fileio.h"
#include "mustache.h"
#include "report.h"
#include "report_int.h"
#include "strbuf.h"
#include "view.h"
#include "xalloc.h"
#include "banned.h"

static const struct output {
	const char *name;	/* the template, and the file written */
	void (*escape)(struct strbuf *out, const char *s, size_t len);
} outputs[] = {
	{ "report.html", report_escape_html },
	{ "email.html", report_escape_html },
	{ "email.txt", report_escape_text },
	{ "summary.md", report_escape_markdown },
};
#define NR_OUTPUTS (sizeof(outputs) / sizeof(outputs[0]))

static int
load_partial(void *ctx, const char *name, struct strbuf *out)
{
	struct strbuf where = STRBUF_INIT;
	int rc = report_template_read(out, &where, name, ctx);

	strbuf_release(&where);
	return rc;
}

/* Render template `name` over `v` into `out`. */
static int
render(const struct view *v, const struct output *op, const char *dir,
    struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, src = STRBUF_INIT;
	struct mustache_opts mo = { op->escape, load_partial, (void *)dir };
	struct mustache *t = NULL;
	int rc;

	rc = report_template_read(&src, &path, op->name, dir);
	if (!rc)
		rc = mustache_compile(&t, src.buf, src.len, path.buf);
	if (!rc)
		rc = view_render(v, t, &mo, out);
	if (rc == JG_EIO)
		rc = JG_EINVAL;	/* an unreadable template is a setup error */
	mustache_free(t);
	strbuf_release(&path);
	strbuf_release(&src);
	return rc;
}

static int
write_file(const char *dir, const char *name, const char *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = file_write_atomic(path, data, len, 0644);

	free(path);
	return rc;
}

/*
 * The inputs the report is made of (not those left out as repeats),
 * copied beside it so the directory stands alone.
 */
static int
copy_comparisons(const struct report_inputs *ri, const char *dir)
{
	int rc = 0;

	for (size_t i = 0; i < ri->nr && !rc; i++) {
		struct strbuf sb = STRBUF_INIT;
		char name[64];

		if (ri->nr == 1)
			snprintf(name, sizeof(name), "comparison.json");
		else
			snprintf(name, sizeof(name), "comparison-%zu.json",
			    i + 1);
		rc = file_read(&sb, ri->in[i].path);
		if (!rc)
			rc = write_file(dir, name, sb.buf, sb.len);
		strbuf_release(&sb);
	}
	return rc;
}

static struct view *
build(const struct report_inputs *ri, const struct report_opts *o)
{
	struct view_input *vi = xcalloc(ri->nr + 1, sizeof(*vi));
	struct view_opts vo = { .charts = 1 };
	struct view *v;

	for (size_t i = 0; i < ri->nr; i++) {
		const struct report_input *in = &ri->in[i];

		vi[i] = (struct view_input){
			.cmp = in->cmp, .name = in->path,
			.current = in->current,
			.baselines = in->baselines,
			.nr_baselines = in->nr_baselines,
			.history = in->history, .nr_history = in->nr_history,
			.notes = &in->notes,
		};
	}
	vo.title = o->title;
	vo.report_dir = o->out_dir;
	v = view_build(vi, ri->nr, &vo);
	free(vi);
	return v;
}

static void
metrics_of(const struct report_inputs *ri, int exit_code, struct strbuf *out)
{
	const struct comparison **cmps = xcalloc(ri->nr + 1, sizeof(*cmps));

	for (size_t i = 0; i < ri->nr; i++)
		cmps[i] = ri->in[i].cmp;
	openmetrics_write(cmps, ri->nr, exit_code, out);
	free(cmps);
}

int
report_write(struct report_result *out, const struct report_opts *o)
{
	struct report_inputs ri;
	struct strbuf text[NR_OUTPUTS];
	struct strbuf junit = STRBUF_INIT, metrics = STRBUF_INIT;
	const char *dir = o->templates;
	struct view *v = NULL;
	char *json = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	strlist_init(&out->notes);
	strlist_init(&out->github);
	for (size_t i = 0; i < NR_OUTPUTS; i++)
		strbuf_init(&text[i], 0);
	if (!o->nr_comparisons)
		return jg_error_set(JG_EINVAL, "no comparison file given");
	rc = report_load(&ri, o, &out->notes);
	if (rc)
		goto out;
	for (size_t i = 0; i < ri.nr; i++)
		for (size_t j = 0; j < ri.in[i].notes.nr; j++)
			strlist_addf(&out->notes, "%s: %s", ri.in[i].path,
			    ri.in[i].notes.items[j]);
	v = build(&ri, o);
	out->verdict = view_verdict(v);
	out->exit_code = exit_status_of(out->verdict);
	for (size_t i = 0; i < NR_OUTPUTS && !rc; i++)
		rc = render(v, &outputs[i], dir, &text[i]);
	if (!rc)
		rc = junit_write(v, &junit);
	if (rc)
		goto out;
	metrics_of(&ri, out->exit_code, &metrics);
	ci_github_commands(v, &out->github);
	rc = file_mkdirs(o->out_dir, 0755);
	for (size_t i = 0; i < NR_OUTPUTS && !rc; i++)
		rc = write_file(o->out_dir, outputs[i].name, text[i].buf,
		    text[i].len);
	if (!rc)
		rc = write_file(o->out_dir, "junit.xml", junit.buf, junit.len);
	if (!rc)
		rc = write_file(o->out_dir, "metrics.txt", metrics.buf,
		    metrics.len);
	json = view_to_json(v);
	if (!rc)
		rc = write_file(o->out_dir, "view.json", json, strlen(json));
	if (!rc)
		rc = copy_comparisons(&ri, o->out_dir);
	if (!rc)
		out->html = xasprintf("%s/report.html", o->out_dir);
out:
	free(json);
	view_free(v);
	report_inputs_release(&ri);
	for (size_t i = 0; i < NR_OUTPUTS; i++)
		strbuf_release(&text[i]);
	strbuf_release(&junit);
	strbuf_release(&metrics);
	return rc;
}

void
report_result_release(struct report_result *r)
{
	free(r->html);
	r->html = NULL;
	strlist_release(&r->notes);
	strlist_release(&r->github);
}
