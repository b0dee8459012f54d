/*
 * mail_report.c: the morning mail, made from a report directory (mail.h).
 *
 * `jankgate report -o DIR` leaves the renderings in DIR; this file turns
 * them into one message and hands it to mail_send(), for `jankgate mail`
 * and for `jankgate gate` alike.  The layout it reads:
 *
 *	DIR/email.txt            the text part (required: no report without it)
 *	DIR/email.html           the HTML alternative (optional)
 *	DIR/report.html          attached as it is (optional)
 *	DIR/comparison*.json     attached, in name order; at least one, and
 *	                         each must parse: the subject is made of them
 *
 * The subject reads "PREFIX VERDICT: PACKAGE VERSION on N devices", where
 * VERDICT is the worst over the comparisons (regression, then
 * inconclusive, then pass) and N counts distinct device keys, since shards
 * of one device arrive as several comparisons.  Package and version come
 * from a device over the network and may hold anything; mime.c cleans
 * every header, so a line break in them becomes a space.
 *
 * The message is held to the limits of mail.h (fit_limits()): a runaway
 * string in the results cannot make a mail no server takes.
 *
 * Credentials never come from the configuration file: the user and the
 * password are read from the environment variables it names, or the
 * password from a file it names.  Everything is checked before the first
 * connection, so a bad setting costs no SMTP round trip.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "comparison.h"
#include "config.h"
#include "error.h"
#include "exitstatus.h"
#include "fileio.h"
#include "mail.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Versions or packages named in a subject before "and N more". */
#define SUBJECT_LIST_MAX 3

/* The report directory, read. */
struct report_dir {
	struct strbuf text, html, full;
	int has_html, has_full;
	struct strlist cmp_names;	/* file names, sorted */
	struct strbuf *cmp_data;	/* their bytes, the attachments */
	struct comparison **cmps;	/* the same, parsed */
	bool *cmp_left_out;	/* over MAIL_ATTACH_MAX (fit_limits) */
};

static void
report_dir_release(struct report_dir *r)
{
	strbuf_release(&r->text);
	strbuf_release(&r->html);
	strbuf_release(&r->full);
	/* The arrays come after the listing, which may have failed. */
	for (size_t i = 0; r->cmps && i < r->cmp_names.nr; i++) {
		strbuf_release(&r->cmp_data[i]);
		comparison_free(r->cmps[i]);
	}
	free(r->cmp_data);
	free(r->cmps);
	free(r->cmp_left_out);
	strlist_release(&r->cmp_names);
}

/* DIR/NAME into `out`; *present is 0 when the file does not exist. */
static int
read_member(struct strbuf *out, int *present, const char *dir,
    const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = file_read(out, path);

	free(path);
	*present = rc == 0;
	return rc == JG_ENOTFOUND ? 0 : rc;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
is_comparison_name(const char *name)
{
	size_t len = strlen(name), pre = strlen(MAIL_REPORT_CMP);

	return len >= pre + 5 && !strncmp(name, MAIL_REPORT_CMP, pre) &&
	    !strcmp(name + len - 5, ".json");
}

static int
list_comparisons(struct strlist *names, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return jg_error_errno(errno == ENOENT ? JG_EINVAL : JG_EIO,
		    errno, "cannot open report directory '%s'", dir);
	while ((e = readdir(d)))
		if (is_comparison_name(e->d_name))
			strlist_add(names, e->d_name);
	closedir(d);
	if (names->nr)
		qsort(names->items, names->nr, sizeof(*names->items),
		    cmp_names);
	return 0;
}

static int
report_dir_read(struct report_dir *r, const char *dir)
{
	int present = 0, rc = list_comparisons(&r->cmp_names, dir);

	if (!rc)
		rc = read_member(&r->text, &present, dir, MAIL_REPORT_TEXT);
	if (rc < 0)
		return rc;
	if (!present)
		return jg_error_set(JG_EINVAL, "no report in '%s': %s is "
		    "missing (run `jankgate report -o %s` first)", dir,
		    MAIL_REPORT_TEXT, dir);
	if (!r->cmp_names.nr)
		return jg_error_set(JG_EINVAL, "no %s*.json in '%s': the "
		    "subject is made from the comparisons", MAIL_REPORT_CMP,
		    dir);
	rc = read_member(&r->html, &r->has_html, dir, MAIL_REPORT_HTML);
	if (!rc)
		rc = read_member(&r->full, &r->has_full, dir, MAIL_REPORT_FULL);
	if (rc < 0)
		return rc;
	r->cmp_data = xcalloc(r->cmp_names.nr, sizeof(*r->cmp_data));
	r->cmps = xcalloc(r->cmp_names.nr, sizeof(*r->cmps));
	r->cmp_left_out = xcalloc(r->cmp_names.nr, sizeof(*r->cmp_left_out));
	for (size_t i = 0; i < r->cmp_names.nr; i++) {
		char *path = xasprintf("%s/%s", dir, r->cmp_names.items[i]);

		rc = file_read(&r->cmp_data[i], path);
		if (!rc)
			rc = comparison_parse(&r->cmps[i], r->cmp_data[i].buf,
			    r->cmp_data[i].len, path);
		free(path);
		if (rc < 0)
			return rc == JG_ENOTFOUND ? JG_EINVAL : rc;
	}
	return 0;
}

/* `s` as HTML text: the five markup characters escaped. */
static void
add_html(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&#39;"); break;
		default: strbuf_addch(out, *s); break;
		}
}

/*
 * Cut `sb` to at most `max` bytes: after its last line end in the second
 * half of that, else between two UTF-8 sequences.
 */
static void
cut_text(struct strbuf *sb, size_t max)
{
	size_t keep = max;

	if (sb->len <= max)
		return;
	while (keep && ((unsigned char)sb->buf[keep] & 0xc0) == 0x80)
		keep--;
	for (size_t i = keep; i > max / 2; i--)
		if (sb->buf[i - 1] == '\n') {
			keep = i;
			break;
		}
	strbuf_setlen(sb, keep);
}

/* The note naming what `out` lists, as text and as HTML. */
static void
left_out_note(struct strbuf *note, struct strbuf *html,
    const struct strlist *out, const char *dir)
{
	strbuf_reset(note);
	strbuf_reset(html);
	strbuf_addf(note, "\n[Left out of this mail, to keep it within its "
	    "limits of %d KiB of text and %d KiB of attachments; the files "
	    "are in %s:]\n", MAIL_TEXT_MAX / 1024, MAIL_ATTACH_MAX / 1024,
	    dir);
	strbuf_addstr(html, "<p style=\"font-family:monospace\">Left out of "
	    "this mail, to keep it within its limits; the files are in ");
	add_html(html, dir);
	strbuf_addstr(html, ":</p><ul>");
	for (size_t i = 0; i < out->nr; i++) {
		strbuf_addf(note, "  %s\n", out->items[i]);
		strbuf_addstr(html, "<li>");
		add_html(html, out->items[i]);
		strbuf_addstr(html, "</li>");
	}
	strbuf_addstr(html, "</ul>");
}

/*
 * Hold the message to mail.h's limits: attachments while their total
 * fits MAIL_ATTACH_MAX (the comparisons first, the data the report is
 * made of, then report.html), the HTML part only within MAIL_TEXT_MAX,
 * the text and its note cut to it; the note, at the end of the text and
 * of the HTML, names what was cut or left out and where it is.  Nothing
 * changes when all fits.
 */
static void
fit_limits(struct report_dir *r, const char *dir)
{
	struct strlist out = STRLIST_INIT;
	struct strbuf note = STRBUF_INIT, html = STRBUF_INIT;
	size_t budget = MAIL_ATTACH_MAX;

	for (size_t i = 0; i < r->cmp_names.nr; i++) {
		if (r->cmp_data[i].len <= budget) {
			budget -= r->cmp_data[i].len;
			continue;
		}
		r->cmp_left_out[i] = true;
		strlist_addf(&out, "%s (%zu KiB)", r->cmp_names.items[i],
		    r->cmp_data[i].len / 1024);
	}
	if (r->has_full && r->full.len > budget) {
		r->has_full = 0;
		strlist_addf(&out, "%s (%zu KiB)", MAIL_REPORT_FULL,
		    r->full.len / 1024);
	}
	if (r->has_html && r->html.len > MAIL_TEXT_MAX) {
		r->has_html = 0;
		strlist_addf(&out, "%s, the HTML rendering of this mail "
		    "(%zu KiB)", MAIL_REPORT_HTML, r->html.len / 1024);
	}
	left_out_note(&note, &html, &out, dir);
	if (r->text.len + (out.nr ? note.len : 0) > MAIL_TEXT_MAX) {
		strlist_addf(&out, "the rest of %s, cut here (%zu KiB in all)",
		    MAIL_REPORT_TEXT, r->text.len / 1024);
		left_out_note(&note, &html, &out, dir);
		/* A directory name is short: the note fits in any case. */
		cut_text(&r->text, note.len < MAIL_TEXT_MAX / 2 ?
		    MAIL_TEXT_MAX - note.len : MAIL_TEXT_MAX / 2);
	}
	if (out.nr) {
		strbuf_add(&r->text, note.buf, note.len);
		if (r->has_html) {
			/* Before the closing body tag: read last. */
			struct strbuf whole = STRBUF_INIT;
			char *body_end = strstr(r->html.buf, "</body>");
			size_t at = body_end ? (size_t)(body_end -
			    r->html.buf) : r->html.len;

			strbuf_add(&whole, r->html.buf, at);
			strbuf_add(&whole, html.buf, html.len);
			strbuf_add(&whole, r->html.buf + at,
			    r->html.len - at);
			strbuf_release(&r->html);
			r->html = whole;
		}
	}
	strlist_release(&out);
	strbuf_release(&note);
	strbuf_release(&html);
}

/*
 * Add `s` to `l` with runs of white space and ASCII controls made one
 * space, unless it is then empty or there already.  (mime.c would clean
 * the header anyway; cleaning here keeps the subject a caller prints the
 * same as the one sent.)
 */
static void
add_distinct(struct strlist *l, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c > 0x20 && c != 0x7f)
			strbuf_addch(&sb, c);
		else if (sb.len && sb.buf[sb.len - 1] != ' ')
			strbuf_addch(&sb, ' ');
	}
	strbuf_rtrim(&sb);
	if (sb.len && strlist_find(l, sb.buf) < 0)
		strlist_add(l, sb.buf);
	strbuf_release(&sb);
}

/* "a", "a, b", or "a, b, c and 2 more". */
static void
add_list(struct strbuf *sb, const struct strlist *l)
{
	for (size_t i = 0; i < l->nr && i < SUBJECT_LIST_MAX; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", l->items[i]);
	if (l->nr > SUBJECT_LIST_MAX)
		strbuf_addf(sb, " and %zu more", l->nr - SUBJECT_LIST_MAX);
}

static void
compose_subject(struct strbuf *out, const char *prefix,
    struct comparison *const *cmps, size_t nr, int status)
{
	struct strlist packages = STRLIST_INIT, versions = STRLIST_INIT;
	struct strlist devices = STRLIST_INIT;
	enum cmp_verdict worst = CMP_PASS;
	const char *word;

	for (size_t i = 0; i < nr; i++) {
		const struct comparison *c = cmps[i];
		enum cmp_verdict v = comparison_verdict(c);

		worst = v > worst ? v : worst;
		add_distinct(&packages, c->package);
		add_distinct(&versions, c->current.app_version);
		add_distinct(&devices, c->device);
		for (size_t k = 0; k < c->nr_entries; k++)
			add_distinct(&devices, c->entries[k].device);
	}
	/*
	 * exitstatus.h's order: a regression first, then a
	 * device that failed (which the comparisons of the others cannot
	 * show), then inconclusive; the word is the status's name.
	 */
	word = exit_status_name(exit_status_of(exit_outcome_worst(
	    cmp_verdict_outcome(worst), exit_outcome_of(status))));
	if (prefix && *prefix)
		strbuf_addf(out, "%s ", prefix);
	for (const char *w = word; *w; w++)
		strbuf_addch(out, (char)toupper((unsigned char)*w));
	strbuf_addch(out, ':');
	if (packages.nr) {
		strbuf_addch(out, ' ');
		add_list(out, &packages);
	}
	if (versions.nr) {
		strbuf_addch(out, ' ');
		add_list(out, &versions);
	}
	strbuf_addf(out, " on %zu device%s", devices.nr,
	    devices.nr == 1 ? "" : "s");
	strlist_release(&packages);
	strlist_release(&versions);
	strlist_release(&devices);
}

static const char *
env_value(const char *name)
{
	const char *v = name && *name ? getenv(name) : NULL;

	return v && *v ? v : NULL;
}

/*
 * The user from $mail.user_env, the password from $mail.password_env or
 * else the first line of mail.password_file.  A user without a password,
 * or a password without a user, is a setting error, not a silent
 * unauthenticated send.
 */
static int
credentials(const struct config_mail *cfg, const char **user,
    struct strbuf *password)
{
	const char *pw = env_value(cfg->password_env);
	int rc;

	*user = env_value(cfg->user_env);
	if (pw) {
		strbuf_addstr(password, pw);
	} else if (cfg->password_file) {
		rc = file_read(password, cfg->password_file);
		if (rc < 0) {
			/* A setting that points nowhere: bad input. */
			jg_error_prefix("mail.password_file");
			return JG_EINVAL;
		}
		strbuf_setlen(password, strcspn(password->buf, "\r\n"));
	}
	if (*user && !password->len)
		return jg_error_set(JG_EINVAL, "a mail user is set in $%s but "
		    "no password: set $%s or mail.password_file",
		    cfg->user_env, cfg->password_env ?
		    cfg->password_env : "JANKGATE_SMTP_PASSWORD");
	if (!*user && password->len)
		return jg_error_set(JG_EINVAL, "a mail password is set but no "
		    "user: set $%s", cfg->user_env ? cfg->user_env :
		    "JANKGATE_SMTP_USER");
	return 0;
}

static int
tls_of(enum config_tls t)
{
	return t == TLS_REQUIRED ? MAIL_TLS_REQUIRED :
	    t == TLS_NONE ? MAIL_TLS_NONE : MAIL_TLS_AUTO;
}

/* The message over the report; attachments point into `r`. */
static void
message_of(struct mail_message *m, struct mail_attachment *att,
    const struct report_dir *r, const char *from, const char *subject)
{
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	m->from = from;
	m->subject = subject;
	m->text = r->text.buf;
	m->text_len = r->text.len;
	if (r->has_html) {
		m->html = r->html.buf;
		m->html_len = r->html.len;
	}
	if (r->has_full)
		att[n++] = (struct mail_attachment){ MAIL_REPORT_FULL,
		    "text/html", r->full.buf, r->full.len };
	for (size_t i = 0; i < r->cmp_names.nr; i++)
		if (!r->cmp_left_out[i])
			att[n++] = (struct mail_attachment){
			    r->cmp_names.items[i], "application/json",
			    r->cmp_data[i].buf, r->cmp_data[i].len };
	m->attachments = att;
	m->nr_attachments = n;
}

int
mail_send_report(const struct config_mail *cfg, const char *dir,
    const struct mail_report_opts *o)
{
	static const struct mail_report_opts none;
	struct report_dir r = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0, 0,
		STRLIST_INIT, NULL, NULL, NULL };
	struct strbuf subject = STRBUF_INIT, password = STRBUF_INIT;
	struct mail_transport t = { 0 };
	struct mail_attachment *att = NULL;
	struct mail_message m;
	int rc;

	o = o ? o : &none;
	rc = report_dir_read(&r, dir);
	if (rc < 0)
		goto out;
	compose_subject(&subject, cfg->subject_prefix, r.cmps,
	    r.cmp_names.nr, o->status);
	fit_limits(&r, dir);
	if (o->subject)
		strbuf_addstr(o->subject, subject.buf);
	att = xcalloc(r.cmp_names.nr + 1, sizeof(*att));
	message_of(&m, att, &r, cfg->from, subject.buf);
	m.to = o->nr_to ? o->to : (const char *const *)cfg->to.items;
	m.nr_to = o->nr_to ? o->nr_to : cfg->to.nr;
	if (!m.nr_to) {
		rc = jg_error_set(JG_EINVAL, "no recipients: set mail.to or "
		    "pass --to");
		goto out;
	}
	if (o->dry_run) {
		rc = mail_write_eml(&m, o->dry_run);
		goto out;
	}
	if (!cfg->server || !*cfg->server) {
		rc = jg_error_set(JG_EINVAL, "no mail server: set mail.server "
		    "(smtp://HOST:PORT or smtps://HOST:PORT)");
		goto out;
	}
	t.url = cfg->server;
	t.tls = tls_of(cfg->tls);
	t.retries = cfg->retries;
	t.timeout_s = cfg->timeout_s;
	t.ca_file = env_value("SSL_CERT_FILE");
	rc = credentials(cfg, &t.user, &password);
	if (rc < 0)
		goto out;
	t.password = password.buf;
	rc = mail_send(&m, &t);
out:
	report_dir_release(&r);
	free(att);
	strbuf_release(&subject);
	strbuf_release(&password);
	return rc;
}
