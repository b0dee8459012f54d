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
		jg_error_set(JG_ENOTFOUND, "no template '%s' in %s", name,
		    tried.buf);
	strbuf_release(&tried);
	strbuf_release(&path);
	strbuf_release(&parent);
	return rc;
}
