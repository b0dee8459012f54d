/*
 * report.h: `jankgate report`, every report format written into one
 * directory.
 *
 * report_write() reads one or more comparison.json files, the current
 * results each names (frame histograms, hygiene, warnings) and the
 * baseline results files they name when those are still on disk, takes
 * the baseline history the caller hands in (trend lines), builds the view
 * model (view.h) and renders each template into DIR:
 *
 *	report.html   standalone: inline CSS and SVG, works offline
 *	email.html    tables and inline styles only, no SVG, no script
 *	email.txt     plain text
 *	summary.md    for a pull-request comment
 *	junit.xml     one testcase per device/scenario/scene/metric, valid
 *	              against the junit-10 schema (code, not a template)
 *	metrics.txt   the current medians in the OpenMetrics text format
 *	view.json     the model itself (what templates see)
 *	comparison.json, or comparison-1.json ... when several: the inputs
 *	              (one given twice is read and copied once)
 *
 * Templates are found per file (report_template_path()), so a user's
 * directory may override one template and inherit the rest.  Files in,
 * files out: nothing here touches a device, the baseline repository or
 * the network.
 */
#ifndef JG_REPORT_H
#define JG_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"
#include "view.h"

struct results;
struct strbuf;

/*
 * Where trend lines come from.  The report reads files only: the caller
 * reads the baseline history (cli and gate hook in the baseline store,
 * baseline_trends_load()).  load() puts the newest `max` runs of
 * `package`/`key` on `ref`, newest first, into *out and *nr (the report
 * frees the runs and the array), adds a line to `notes` for what it could
 * not read, and returns 0 or -1.
 */
struct report_history {
	int (*load)(void *data, struct results ***out, size_t *nr,
	    const char *ref, const char *package, const char *key, size_t max,
	    struct strlist *notes);
	void *data;
	size_t max;		/* report.history; 0: no trend lines */
	const char *ref;	/* for comparisons that name none: baseline.ref
				   (NULL: "main") */
};

struct report_opts {
	const char *const *comparisons;	/* comparison.json paths, >= 1 */
	size_t nr_comparisons;
	const char *out_dir;		/* created when missing */
	const char *title;		/* report.title; NULL: the default */
	/* Directory of overriding templates (report.templates), or NULL. */
	const char *templates;
	/* The baseline history for trend lines; load NULL: none. */
	struct report_history history;
	/*
	 * Refuse a results file with a value out of its limits (results.h)
	 * rather than draw it as absent with a warning: `jankgate report`,
	 * where the user named the inputs.  The gate leaves it false: its
	 * own files refused would cost the night's mail.
	 */
	bool strict;
	/*
	 * `gate --bisect`: its verdict line ("culprit: ..." or "not run:
	 * why") and its report's path relative to out_dir (NULL: none);
	 * NULL: no bisect to tell of.
	 */
	const char *bisect;
	const char *bisect_href;
};

struct report_result {
	enum exit_outcome verdict;
	int exit_code;			/* 0, 1, 3 or 4, by the verdict */
	char *html;			/* the path of report.html */
	/* What was left out and why (no trend lines, a missing results
	 * file), one line each, for the command to print as warnings. */
	struct strlist notes;
	/* GitHub workflow commands (::error, ::warning), one per line:
	 * report_ci() hands them out when running in GitHub Actions. */
	struct strlist github;
};

/*
 * Write every format for o->comparisons into o->out_dir and fill *out
 * (release it with report_result_release(), also after an error).
 * Returns 0; JG_ENOTFOUND or JG_EINVAL for a missing or invalid input or
 * template (the message names the file, and for JSON the key path);
 * JG_EIO when the directory or a file cannot be written.
 */
int report_write(struct report_result *out, const struct report_opts *o);

void report_result_release(struct report_result *r);

/*
 * For CI, after report_write() wrote `dir`: when $GITHUB_STEP_SUMMARY
 * names a file, append dir/summary.md to it; when $GITHUB_ACTIONS is
 * "true", append r->github to `print`, for the command to print on
 * stdout (where the runner reads workflow commands).  Returns 0, or
 * JG_EIO (with `print` filled anyway) when the summary was not added.
 */
int report_ci(const struct report_result *r, const char *dir,
    struct strlist *print);

/*
 * Append to `out` the path of template `name` ("report.html", or a
 * partial's file name), the first that exists of:
 *   1. `override_dir`/name                 (report.templates)
 *   2. <dir of this executable>/../templates/name   (in a source tree)
 *   3. JG_DATADIR/templates/name           (make install)
 * Returns 0, JG_EINVAL for a name that is not one plain file name, or
 * JG_ENOTFOUND naming the places looked in.
 */
int report_template_path(struct strbuf *out, const char *name,
    const char *override_dir);

/*
 * Append template `name`'s text to `src`: the file report_template_path()
 * finds, else the copy built into jankgate from templates/ (so a binary
 * copied out of its tree still reports).  `where` gets what messages call
 * it: the file's path, or "built-in NAME".  Returns 0, JG_EINVAL for a bad
 * name, JG_EIO for an unreadable file, or JG_ENOTFOUND when `name` is
 * neither a file nor built in (a partial only an override names).
 */
int report_template_read(struct strbuf *src, struct strbuf *where,
    const char *name, const char *override_dir);

/*
 * The escapes of {{var}} per output.  All of them replace invalid UTF-8,
 * control characters and bidirectional overrides with U+FFFD.
 *   html      & < > " ' as entities (also right for XML, junit.xml)
 *   text      nothing else, but line breaks and tabs become spaces, so a
 *             value cannot start a line of its own
 *   markdown  text, plus a backslash before Markdown's punctuation
 *             (emphasis, code, links, images, HTML, headings, tables) and
 *             before a list marker that starts a value ("- ", "1. ")
 */
void report_escape_html(struct strbuf *out, const char *s, size_t len);
void report_escape_text(struct strbuf *out, const char *s, size_t len);
void report_escape_markdown(struct strbuf *out, const char *s, size_t len);

/*
 * What all three share, and nothing more: for writers that escape markup
 * themselves (libxml2's, for junit.xml), invalid UTF-8, control
 * characters other than line breaks and tabs, and bidirectional overrides
 * become U+FFFD.
 */
void report_clean_text(struct strbuf *out, const char *s, size_t len);

#endif
