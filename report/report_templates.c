/*
 * report_templates.c: where templates are found.
 *
 * Each file is looked up on its own, in this order, so a team can
 * override report.html alone and keep the other built-in templates:
 *
 *   1. report.templates (config) or the caller's override directory
 *   2. <directory of the running executable>/../templates when that is a
 *      source tree: build/jankgate, build-san/jankgate, the unit tests
 *   3. JG_DATADIR/templates, where `make install` puts them
 *   4. the copy built into the binary (templates.inc, made from
 *      templates/ by tools/embed-templates.sh), so a jankgate copied
 *      anywhere still writes its report: it must never measure a whole
 *      night and then fail for want of a template file
 *
 * Partials ({{> name}}) are template files too, found the same way; their
 * names must be plain file names, so a template cannot read a file outside
 * the template directories.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "fileio.h"
#include "report.h"
#include "strbuf.h"
#include "banned.h"

#ifndef JG_DATADIR
#define JG_DATADIR "/usr/local/share/jankgate"
#endif

struct builtin {
	const char *name;
	const unsigned char *data;
	size_t len;
};

/* tpl_N[] and builtins[], one entry per file of templates/. */
#include "templates.inc"

static const struct builtin *
find_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (builtins[i].name && !strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/*
 * The parent of the running executable's directory when it is a jankgate
 * source tree (it holds report/report.h), else nothing: an installed
 * /usr/local/bin/jankgate must not pick up a stray /usr/local/templates.
 */
static void
source_tree(struct strbuf *out)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')))
		*slash = '\0';
	if ((slash = strrchr(buf, '/')))
		*slash = '\0';
	else
		return;
	strbuf_addstr(out, buf[0] ? buf : "/");
	strbuf_addstr(out, "/report/report.h");
	if (!file_exists(out->buf)) {
		strbuf_setlen(out, 0);
		return;
	}
	strbuf_setlen(out, out->len - strlen("/report/report.h"));
}

static int
valid_name(const char *name)
{
	return name && *name && name[0] != '.' && !strchr(name, '/') &&
	    !strchr(name, '\\');
}

int
report_template_path(struct strbuf *out, const char *name,
    const char *override_dir)
{
	struct strbuf tried = STRBUF_INIT, path = STRBUF_INIT,
	    parent = STRBUF_INIT;
	const char *dirs[3];
	size_t nr = 0;
	int rc = JG_ENOTFOUND;

	if (!valid_name(name))
		return jg_error_set(JG_EINVAL, "template name '%s' is not a "
		    "plain file name", name ? name : "");
	if (override_dir && *override_dir)
		dirs[nr++] = override_dir;
	source_tree(&parent);
	if (parent.len)
		strbuf_addstr(&parent, "/templates");
	if (parent.len)
		dirs[nr++] = parent.buf;
	dirs[nr++] = JG_DATADIR "/templates";
	for (size_t i = 0; i < nr; i++) {
		strbuf_setlen(&path, 0);
		strbuf_addf(&path, "%s/%s", dirs[i], name);
		if (file_exists(path.buf)) {
			strbuf_add(out, path.buf, path.len);
			rc = 0;
			break;
		}
		strbuf_addf(&tried, "%s'%s'", i ? ", " : "", dirs[i]);
	}
	if (rc)
		jg_error_set(JG_ENOTFOUND, "no template '%s' in %s%s", name,
		    tried.buf, find_builtin(name) ? "" : " nor built in");
	strbuf_release(&tried);
	strbuf_release(&path);
	strbuf_release(&parent);
	return rc;
}

int
report_template_read(struct strbuf *src, struct strbuf *where,
    const char *name, const char *override_dir)
{
	const struct builtin *b;
	size_t len = where->len;
	int rc = report_template_path(where, name, override_dir);

	if (!rc)
		return file_read(src, where->buf + len);
	if (rc != JG_ENOTFOUND || !(b = find_builtin(name)))
		return rc;
	jg_error_clear();
	strbuf_addf(where, "built-in %s", name);
	strbuf_add(src, b->data, b->len);
	return 0;
}
