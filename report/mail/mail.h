/*
 * mail.h: the report mail, as bytes (mime.c) and over SMTP (mail.c).
 *
 * The morning mail is one RFC 5322 message: the text and HTML renderings as
 * a multipart/alternative, followed by the attachments (report.html and
 * comparison.json), all UTF-8.  The message is built in full before any
 * connection is made, so `--dry-run FILE.eml` writes exactly the bytes that
 * SMTP would carry.  Everything that reaches a header from data (subject,
 * display names, file names) is sanitized and encoded: no CR, LF or other
 * control character from a caller can start a header of its own.
 *
 *	multipart/mixed
 *	+-- multipart/alternative
 *	|   +-- text/plain; charset=utf-8      (quoted-printable)
 *	|   +-- text/html; charset=utf-8       (quoted-printable)
 *	+-- attachment report.html, text/html  (base64)
 *	+-- attachment comparison.json, application/json (base64)
 *
 * Without attachments the alternative is the whole message; without HTML the
 * text part stands in for the alternative.
 *
 * mail_report.c puts the two together for `jankgate mail` and `jankgate
 * gate`: it reads the files `jankgate report` wrote, composes the subject
 * from the comparisons, and takes the transport from the configuration.
 *
 * Transport is libcurl (smtp:// with STARTTLS, or smtps://).  TLS is
 * required unless the server is on loopback; a password never travels in
 * clear text off loopback; credentials never appear in an error message.
 * Replies 4xx, refused or broken connections and timeouts are transient and
 * retried with exponential backoff; 5xx replies, refused logins and TLS
 * failures are final.
 */
#ifndef JG_MAIL_H
#define JG_MAIL_H

#include <stddef.h>
#include <time.h>

struct config_mail;
struct strbuf;

enum mail_tls {
	MAIL_TLS_AUTO = 0,	/* required, except to a loopback server */
	MAIL_TLS_REQUIRED,	/* smtps:// or STARTTLS, verified, or fail */
	MAIL_TLS_NONE,		/* clear text allowed (see mail_send) */
};

struct mail_attachment {
	const char *filename;		/* UTF-8, shown to the reader */
	const char *content_type;	/* "type/subtype"; text/ gets utf-8 */
	const char *data;
	size_t len;
};

struct mail_message {
	const char *from;		/* "a@b.example" or "Name <a@b.example>" */
	const char *const *to;		/* nr_to >= 1 addresses, same forms */
	size_t nr_to;
	const char *subject;		/* UTF-8; sanitized and encoded */
	const char *text;		/* text/plain body, UTF-8 */
	size_t text_len;
	const char *html;		/* text/html alternative, or NULL */
	size_t html_len;
	const struct mail_attachment *attachments;
	size_t nr_attachments;
	/*
	 * Normally 0 and NULL: the current time and a fresh random id.  Set
	 * them to build the same bytes twice.  message_id is "<left@right>".
	 */
	time_t date;
	const char *message_id;
};

struct mail_transport {
	const char *url;	/* smtp[s]://host[:port][/ehlo-name] */
	int tls;		/* enum mail_tls */
	const char *user;	/* NULL or "": no AUTH */
	const char *password;
	int retries;		/* extra attempts after transient failures */
	int backoff_ms;		/* first retry delay, doubling; 0: 1000 */
	int timeout_s;		/* per attempt; 0: 60 */
	const char *ca_file;	/* PEM certificates to trust, or NULL */
	const char *resolve;	/* "HOST:PORT:ADDRESS" as curl --resolve */
};

/*
 * Parse a mail.tls setting ("auto", "required" or "none") into *out.
 * Returns 0 or JG_EINVAL.
 */
int mail_tls_parse(const char *s, int *out);

/*
 * Split "a@b.example" or "Display Name <a@b.example>" into the display name
 * (may be empty) and the address, appended to `name` and `addr` (`name` may
 * be NULL).  The address must be plain ASCII dot-atom@domain.  Returns 0 or
 * JG_EINVAL with a message quoting the (made printable) input.
 */
int mail_address_split(const char *s, struct strbuf *name,
    struct strbuf *addr);

/*
 * Append the complete message (headers and body, CRLF line ends) to `out`.
 * Returns 0, or JG_EINVAL for an invalid address, content type or
 * message id; `out` is then unchanged.
 */
int mail_build(const struct mail_message *m, struct strbuf *out);

/*
 * Build the message and write it to `path` atomically (the dry run).  With
 * m->date and m->message_id set, the file holds the bytes mail_send would
 * send.  Returns 0, JG_EINVAL as mail_build, or JG_EIO.
 */
int mail_write_eml(const struct mail_message *m, const char *path);

/*
 * 1 when the host of `url` is loopback (127.0.0.0/8, ::1, localhost), 0 when
 * not, JG_EINVAL when the URL does not parse.  No name is resolved.
 */
int mail_url_is_loopback(const char *url);

/*
 * Check `t` without connecting: an smtp:// or smtps:// URL without
 * credentials in it, a known tls value, and no password in clear text to a
 * host off loopback.  Returns 0 or JG_EINVAL.
 */
int mail_transport_check(const struct mail_transport *t);

/*
 * Build `m` and send it through `t`, retrying transient failures up to
 * t->retries times.  Returns 0; JG_EINVAL (bad message or transport, nothing
 * sent); JG_EAUTH (login refused); JG_ETIMEOUT; JG_EINTR (a cancel,
 * cancel.h: the attempt in flight abandoned, no retry); JG_EIO
 * (everything else, TLS refusals included).  Messages name the server as
 * scheme://host:port and quote the last SMTP reply, with the user and
 * password scrubbed.
 */
int mail_send(const struct mail_message *m, const struct mail_transport *t);

/* The files of a report directory that the mail is made of. */
#define MAIL_REPORT_TEXT "email.txt"		/* required: the text part */
#define MAIL_REPORT_HTML "email.html"		/* the HTML alternative */
#define MAIL_REPORT_FULL "report.html"		/* attached */
#define MAIL_REPORT_CMP "comparison"		/* comparison*.json, attached */

/*
 * What the report mail carries at most (the man page's MAIL says the
 * same).  Servers commonly refuse messages over 10 MB, and a mail of tens
 * of megabytes (a 50 MB error string once made one of 72) is read by
 * nobody.  The text part is cut at MAIL_TEXT_MAX bytes with a marker; an
 * HTML part longer than that is left out, since cut markup would not
 * render, and the text stands alone; attachments go in while their total
 * stays within MAIL_ATTACH_MAX bytes, the comparisons first.  Whatever is
 * cut or left out is named in a note at the end of the text (and of the
 * HTML), with the report directory that holds it.  Encoded, the message
 * stays under 9 MB.
 */
#define MAIL_TEXT_MAX (512 * 1024)
#define MAIL_ATTACH_MAX (4 * 1024 * 1024)

struct mail_report_opts {
	const char *const *to;	/* recipients replacing mail.to, or NULL */
	size_t nr_to;
	const char *dry_run;	/* write the message to this .eml instead */
	struct strbuf *subject;	/* when not NULL, receives the subject */
	int status;		/* the caller's exit status so far (gate):
				 * its outcome (exitstatus.h) counts with the
				 * comparisons'; 0: from the comparisons */
};

/*
 * Mail the report in `dir` as `jankgate report` wrote it: email.txt (and
 * email.html as its alternative), with report.html and every
 * comparison*.json attached; the subject is mail.subject_prefix, the worst
 * verdict, the package and app version and the number of devices, read
 * from the comparisons.  Sender, recipients (o->to overrides), server,
 * TLS, retries and timeout come from `cfg` (mail.*); the user and password from
 * the variables named by mail.user_env and mail.password_env, or from
 * mail.password_file; trusted CAs from $SSL_CERT_FILE when set.
 * The parts are held to MAIL_TEXT_MAX and MAIL_ATTACH_MAX (above).
 * With o->dry_run, writes the .eml and connects to nothing.
 * Returns 0; JG_EINVAL for bad input (no report in `dir`, an invalid
 * comparison, no recipient, no server, unusable credentials), nothing sent;
 * JG_EAUTH, JG_ETIMEOUT, JG_EINTR or JG_EIO when SMTP failed or was
 * cancelled (as mail_send).
 */
int mail_send_report(const struct config_mail *cfg, const char *dir,
    const struct mail_report_opts *o);

#endif
