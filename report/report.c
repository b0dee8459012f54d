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
 *
 * Each device also gets a page of its own, devices/KEY.html, from
 * device.html (issue 48): report.html shows in full only what changed and
 * links there for the rest, so its size follows the night's news, not
 * the number of scenes measured.  A report written into a directory
 * that held an earlier one leaves none of the earlier report's device
 * pages or comparison copies behind (remove_stale()): `jankgate mail`
 * attaches every comparison*.json it finds there.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The template `name`, compiled into *out. */
static int
template_of(struct mustache **out, const char *name, const char *dir)
{
	struct strbuf path = STRBUF_INIT, src = STRBUF_INIT;
	int rc;

	*out = NULL;
	rc = report_template_read(&src, &path, name, dir);
	if (!rc)
		rc = mustache_compile(out, src.buf, src.len, path.buf);
	if (rc == JG_EIO)
		rc = JG_EINVAL;	/* an unreadable template is a setup error */
	strbuf_release(&path);
	strbuf_release(&src);
	return rc;
}

/* Render template `name` over `v` into `out`. */
static int
render(const struct view *v, const struct output *op, const char *dir,
    struct strbuf *out)
{
	struct mustache_opts mo = { op->escape, load_partial, (void *)dir };
	struct mustache *t = NULL;
	int rc = template_of(&t, op->name, dir);

	if (!rc)
		rc = view_render(v, t, &mo, out);
	if (rc == JG_EIO)
		rc = JG_EINVAL;
	mustache_free(t);
	return rc;
}

/* Every device's page from device.html, into pages[0..count). */
static int
render_pages(const struct view *v, const char *dir, struct strbuf *pages)
{
	struct mustache_opts mo = { report_escape_html, load_partial,
	    (void *)dir };
	struct mustache *t = NULL;
	int rc = template_of(&t, "device.html", dir);

	for (size_t i = 0; !rc && i < view_device_count(v); i++)
		rc = view_render_device(v, i, t, &mo, &pages[i]);
	if (rc == JG_EIO)
		rc = JG_EINVAL;
	mustache_free(t);
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
 * copied beside it so the directory stands alone; their names go to
 * `written`.
 */
static int
copy_comparisons(const struct report_inputs *ri, const char *dir,
    struct strlist *written)
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
		if (!rc)
			strlist_add(written, name);
		strbuf_release(&sb);
	}
	return rc;
}

/*
 * Whether `path` is one of the comparisons named to the report (the same
 * file), counted or left out as a repeat.
 */
static bool
is_input(const struct report_opts *o, const char *path)
{
	char a[PATH_MAX], b[PATH_MAX];

	if (!realpath(path, a))
		return false;
	for (size_t i = 0; i < o->nr_comparisons; i++)
		if (realpath(o->comparisons[i], b) && !strcmp(a, b))
			return true;
	return false;
}

/*
 * Remove from `dir` the files an earlier report left that this one did
 * not write: those named "comparison*.json" (what `jankgate mail`
 * attaches) when `pages` is false, "*.html" when true (dir is then the
 * devices/ folder).  A comparison named to the report is never removed.
 * A directory that does not exist holds nothing stale.
 */
static int
remove_stale(const char *dir, bool pages, const struct strlist *written,
    const struct report_opts *o)
{
	struct strlist stale = STRLIST_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : jg_error_errno(JG_EIO, errno,
		    "cannot open '%s'", dir);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		bool ours = pages ? len > 5 &&
		    !strcmp(e->d_name + len - 5, ".html") :
		    len >= 15 && !strncmp(e->d_name, "comparison", 10) &&
		    !strcmp(e->d_name + len - 5, ".json");

		if (ours && strlist_find(written, e->d_name) < 0)
			strlist_add(&stale, e->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < stale.nr && !rc; i++) {
		char *path = xasprintf("%s/%s", dir, stale.items[i]);

		if (!is_input(o, path) && unlink(path) && errno != ENOENT)
			rc = jg_error_errno(JG_EIO, errno,
			    "cannot remove stale '%s'", path);
		free(path);
	}
	strlist_release(&stale);
	return rc;
}

/* Write the device pages into DIR/devices and drop the stale ones. */
static int
write_pages(const struct view *v, const struct strbuf *pages,
    const char *dir, const struct report_opts *o)
{
	struct strlist written = STRLIST_INIT;
	char *sub = xasprintf("%s/devices", dir);
	int rc = view_device_count(v) ? file_mkdirs(sub, 0755) : 0;

	for (size_t i = 0; i < view_device_count(v) && !rc; i++) {
		const char *page = view_device_page(v, i);

		rc = write_file(dir, page, pages[i].buf, pages[i].len);
		if (!rc)
			strlist_add(&written, strrchr(page, '/') + 1);
	}
	if (!rc)
		rc = remove_stale(sub, true, &written, o);
	strlist_release(&written);
	free(sub);
	return rc;
}

/* What the view's runs hook (build_runs()) reads and fills. */
struct build_ctx {
	struct report_inputs *ri;
	const struct report_opts *o;
	struct strlist *notes;
	struct view_input *vi;
};

/* A device's history just before the view builds it, freed after. */
static void
build_runs(void *data, size_t i, bool attach)
{
	struct build_ctx *b = data;
	const struct report_input *in = &b->ri->in[i];

	if (attach)
		report_history_attach(b->ri, b->o, i, b->notes);
	else
		report_history_detach(b->ri, i);
	b->vi[i].baselines = in->baselines;
	b->vi[i].nr_baselines = in->nr_baselines;
	b->vi[i].history = in->history;
	b->vi[i].nr_history = in->nr_history;
}

static struct view *
build(struct report_inputs *ri, const struct report_opts *o,
    struct strlist *notes)
{
	struct view_input *vi = xcalloc(ri->nr + 1, sizeof(*vi));
	struct view_opts vo = { .charts = 1 };
	struct build_ctx b = { ri, o, notes, vi };
	struct view *v;

	for (size_t i = 0; i < ri->nr; i++) {
		const struct report_input *in = &ri->in[i];

		vi[i] = (struct view_input){
			.cmp = in->cmp, .name = in->path,
			.current = in->current,
			.baselines = in->baselines,
			.nr_baselines = in->nr_baselines,
			.notes = &in->notes,
		};
	}
	vo.title = o->title;
	vo.report_dir = o->out_dir;
	vo.bisect = o->bisect;
	vo.bisect_href = o->bisect_href;
	vo.runs = build_runs;
	vo.runs_data = &b;
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
	struct strbuf *pages = NULL;
	struct strlist copied = STRLIST_INIT;
	const char *dir = o->templates;
	struct view *v = NULL;
	char *json = NULL;
	size_t nr_pages = 0;
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
	/* The history's notes first (while building), then each input's. */
	v = build(&ri, o, &out->notes);
	for (size_t i = 0; i < ri.nr; i++)
		for (size_t j = 0; j < ri.in[i].notes.nr; j++)
			strlist_addf(&out->notes, "%s: %s", ri.in[i].path,
			    ri.in[i].notes.items[j]);
	out->verdict = view_verdict(v);
	out->exit_code = exit_status_of(out->verdict);
	for (size_t i = 0; i < NR_OUTPUTS && !rc; i++)
		rc = render(v, &outputs[i], dir, &text[i]);
	nr_pages = view_device_count(v);
	pages = xcalloc(nr_pages + 1, sizeof(*pages));
	for (size_t i = 0; i < nr_pages; i++)
		strbuf_init(&pages[i], 0);
	if (!rc)
		rc = render_pages(v, dir, pages);
	if (!rc)
		rc = junit_write(v, &junit);
	if (rc)
		goto out;
	metrics_of(&ri, out->exit_code, &metrics);
	ci_github_commands(v, &out->github);
	/*
	 * Each output is let go once written, and view.json made last: a
	 * night of fifty device keys has a view of megabytes, and its JSON
	 * text need not sit beside every page (issue 51).
	 */
	rc = file_mkdirs(o->out_dir, 0755);
	for (size_t i = 0; i < NR_OUTPUTS && !rc; i++) {
		rc = write_file(o->out_dir, outputs[i].name, text[i].buf,
		    text[i].len);
		strbuf_release(&text[i]);
	}
	if (!rc)
		rc = write_file(o->out_dir, "junit.xml", junit.buf, junit.len);
	strbuf_release(&junit);
	if (!rc)
		rc = write_file(o->out_dir, "metrics.txt", metrics.buf,
		    metrics.len);
	strbuf_release(&metrics);
	if (!rc)
		rc = write_pages(v, pages, o->out_dir, o);
	for (size_t i = 0; i < nr_pages; i++)
		strbuf_release(&pages[i]);
	if (!rc) {
		json = view_to_json(v);
		rc = write_file(o->out_dir, "view.json", json, strlen(json));
	}
	if (!rc)
		rc = copy_comparisons(&ri, o->out_dir, &copied);
	if (!rc)
		rc = remove_stale(o->out_dir, false, &copied, o);
	if (!rc)
		out->html = xasprintf("%s/report.html", o->out_dir);
out:
	free(json);
	view_free(v);
	report_inputs_release(&ri);
	for (size_t i = 0; i < NR_OUTPUTS; i++)
		strbuf_release(&text[i]);
	for (size_t i = 0; i < nr_pages; i++)
		strbuf_release(&pages[i]);
	free(pages);
	strlist_release(&copied);
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
