/*
 * mime.c: the bytes of the report mail (mail_build, see mail.h).
 *
 * The message is written by hand rather than with libcurl's MIME API so
 * that the dry run and the send share one buffer: what `--dry-run` writes is
 * what SMTP carries, byte for byte.  Every line ends in CRLF and stays under
 * 78 characters except for an address or a long encoded file name, which
 * stay under SMTP's 998.
 *
 * Header safety is by construction.  Free text (subject, display names) is
 * decoded as UTF-8 (invalid bytes become U+FFFD), control characters become
 * spaces, runs of white space collapse to one, and the words are written
 * through one folding writer that only ever breaks a line as CRLF SP.  Text
 * that is not plain printable ASCII is sent as RFC 2047 encoded words, and a
 * file name that is not plain is sent RFC 2231 percent-encoded.  Addresses
 * and the message id are validated instead, since silently rewriting a
 * recipient would be worse than refusing it.
 *
 * Bodies are quoted-printable (the text and HTML parts) or base64 (the
 * attachments).  Boundaries start with "=_", which neither encoding can
 * produce at the start of a line, so no content can end a part early.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "error.h"
#include "fileio.h"
#include "mail.h"
#include "strbuf.h"
#include "xalloc.h"
#include "utf8.h"
#include "banned.h"

#define LINE_MAX_SOFT 78	/* RFC 5322's "should" for header lines */
#define QP_LINE_MAX 76		/* RFC 2045, soft-break '=' included */
#define B64_LINE_MAX 76
#define EW_CHUNK 36		/* UTF-8 bytes per encoded word: 60 chars */
#define PLAIN_WORD_MAX 70	/* longer words go encoded, so they fold */
#define ADDR_MAX 254
#define NAME_MAX_BYTES 200	/* display and file names */

/* `s` made fit for quoting in an error message: printable, at most 80. */
static const char *
shown(struct strbuf *tmp, const char *s)
{
	strbuf_reset(tmp);
	for (size_t i = 0; s[i] && i < 80; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c == 0x7f)
			strbuf_addf(tmp, "\\x%02x", c);
		else
			strbuf_addch(tmp, c);
	}
	return tmp->buf;
}

static void
utf8_put(struct strbuf *out, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(out, cp);
	} else if (cp < 0x800) {
		strbuf_addch(out, 0xc0 | cp >> 6);
		strbuf_addch(out, 0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		strbuf_addch(out, 0xe0 | cp >> 12);
		strbuf_addch(out, 0x80 | (cp >> 6 & 0x3f));
		strbuf_addch(out, 0x80 | (cp & 0x3f));
	} else {
		strbuf_addch(out, 0xf0 | cp >> 18);
		strbuf_addch(out, 0x80 | (cp >> 12 & 0x3f));
		strbuf_addch(out, 0x80 | (cp >> 6 & 0x3f));
		strbuf_addch(out, 0x80 | (cp & 0x3f));
	}
}

/*
 * Characters that could break a line, or look like they do, in some mail
 * reader: C0 and C1 controls, DEL, and the Unicode line and paragraph
 * separators.
 */
static int
is_breaking(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
	    cp == 0x2029;
}

/*
 * Append `s` as one clean line of valid UTF-8: breaking characters become
 * spaces, white space runs collapse, both ends are trimmed.
 */
static void
clean_text(struct strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), start = out->len;
	int space = 0;

	while (len) {
		unsigned cp;
		size_t n = utf8_decode(p, len, &cp);

		p += n;
		len -= n;
		if (is_breaking(cp) || cp == ' ') {
			space = 1;
			continue;
		}
		if (space && out->len > start)
			strbuf_addch(out, ' ');
		space = 0;
		utf8_put(out, cp);
	}
}

/*
 * A header being written: one writer folds every header, so the only line
 * break a header can contain is the CRLF SP it puts between two tokens.
 */
struct hdr {
	struct strbuf *out;
	size_t col;
};

static void
hdr_start(struct hdr *h, struct strbuf *out, const char *name)
{
	h->out = out;
	strbuf_addf(out, "%s:", name);
	h->col = strlen(name) + 1;
}

/* Append a token after white space, folding first when it would not fit. */
static void
hdr_token(struct hdr *h, const char *tok, size_t len)
{
	if (h->col + 1 + len > LINE_MAX_SOFT && h->col > 1) {
		strbuf_addstr(h->out, "\r\n");
		h->col = 0;
	}
	strbuf_addch(h->out, ' ');
	strbuf_add(h->out, tok, len);
	h->col += 1 + len;
}

static void
hdr_end(struct hdr *h)
{
	strbuf_addstr(h->out, "\r\n");
}

/* Clean text as encoded words of at most EW_CHUNK bytes, whole characters. */
static void
hdr_encoded(struct hdr *h, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	struct strbuf w = STRBUF_INIT;

	while (len) {
		size_t take = 0;

		while (take < len) {
			unsigned cp;
			size_t n = utf8_decode(p + take, len - take, &cp);

			if (take + n > EW_CHUNK)
				break;
			take += n;
		}
		strbuf_reset(&w);
		strbuf_addstr(&w, "=?UTF-8?B?");
		base64_add(&w, p, take);
		strbuf_addstr(&w, "?=");
		hdr_token(h, w.buf, w.len);
		p += take;
		len -= take;
	}
	strbuf_release(&w);
}

/*
 * 1 when clean text can go as it is: printable ASCII, nothing a reader
 * could take for an encoded word, and no word too long to fold.
 */
static int
is_plain(const char *s)
{
	size_t word = 0;

	for (; *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c > 0x7e || (c == '=' && s[1] == '?'))
			return 0;
		word = *s == ' ' ? 0 : word + 1;
		if (word > PLAIN_WORD_MAX)
			return 0;
	}
	return 1;
}

/* Clean text as folded words, or encoded words when it is not plain. */
static void
hdr_text(struct hdr *h, const char *clean)
{
	const char *p = clean;

	if (!is_plain(clean)) {
		hdr_encoded(h, clean);
		return;
	}
	while (*p) {
		size_t n = strcspn(p, " ");

		hdr_token(h, p, n);
		p += n;
		if (*p == ' ')
			p++;
	}
}

static int
is_atext(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/* dot-atom: atext runs separated by single dots, none at either end. */
static int
is_dot_atom(const char *s, size_t len, int (*ok)(int))
{
	if (!len || s[0] == '.' || s[len - 1] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.' ? s[i + 1] == '.' : !ok((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

static int
is_domain_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-';
}

/* "[192.0.2.1]" or "[IPv6:...]": an address literal as a domain. */
static int
is_domain_literal(const char *s, size_t len)
{
	if (len < 3 || s[0] != '[' || s[len - 1] != ']')
		return 0;
	for (size_t i = 1; i < len - 1; i++)
		if (!strchr("0123456789abcdefABCDEF:.IPv", s[i]))
			return 0;
	return 1;
}

static int
is_addr_spec(const char *s, size_t len)
{
	const char *at = memrchr(s, '@', len);
	size_t local;

	if (!at || len > ADDR_MAX)
		return 0;
	local = at - s;
	return is_dot_atom(s, local, is_atext) &&
	    (is_dot_atom(at + 1, len - local - 1, is_domain_char) ||
	    is_domain_literal(at + 1, len - local - 1));
}

int
mail_address_split(const char *s, struct strbuf *name, struct strbuf *addr)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *lt, *a = s, *n = s;
	size_t len = strlen(s), alen = len, nlen = 0;
	int rc = 0;

	while (alen && s[alen - 1] == ' ')
		alen--;
	if (alen && s[alen - 1] == '>' && (lt = memrchr(s, '<', alen))) {
		a = lt + 1;
		nlen = lt - s;
		alen = alen - 1 - (a - s);
	}
	while (alen && *a == ' ')
		a++, alen--;
	if (!is_addr_spec(a, alen)) {
		rc = jg_error_set(JG_EINVAL, "invalid mail address '%s'",
		    shown(&tmp, s));
		goto out;
	}
	while (nlen && *n == ' ')
		n++, nlen--;
	while (nlen && n[nlen - 1] == ' ')
		nlen--;
	if (nlen >= 2 && n[0] == '"' && n[nlen - 1] == '"')
		n++, nlen -= 2;
	if (nlen > NAME_MAX_BYTES) {
		rc = jg_error_set(JG_EINVAL, "display name too long in '%s'",
		    shown(&tmp, s));
		goto out;
	}
	strbuf_add(addr, a, alen);
	if (name) {
		char *raw = xstrndup(n, nlen);

		clean_text(name, raw);
		free(raw);
	}
out:
	strbuf_release(&tmp);
	return rc;
}

/* One mailbox as tokens: a quoted or encoded display name, then the address. */
static void
hdr_mailbox(struct hdr *h, const char *name, const char *addr, int last)
{
	struct strbuf tok = STRBUF_INIT;

	if (*name && is_plain(name)) {
		strbuf_addch(&tok, '"');
		for (const char *p = name; *p; p++) {
			if (*p == '"' || *p == '\\')
				strbuf_addch(&tok, '\\');
			strbuf_addch(&tok, *p);
		}
		strbuf_addch(&tok, '"');
		hdr_token(h, tok.buf, tok.len);
	} else if (*name) {
		hdr_encoded(h, name);
	}
	strbuf_reset(&tok);
	strbuf_addf(&tok, *name ? "<%s>%s" : "%s%s", addr, last ? "" : ",");
	hdr_token(h, tok.buf, tok.len);
	strbuf_release(&tok);
}

static int
add_address_header(struct strbuf *out, const char *field,
    const char *const *list, size_t nr)
{
	struct strbuf name = STRBUF_INIT, addr = STRBUF_INIT;
	struct hdr h;
	int rc = 0;

	hdr_start(&h, out, field);
	for (size_t i = 0; i < nr; i++) {
		strbuf_reset(&name);
		strbuf_reset(&addr);
		rc = mail_address_split(list[i], &name, &addr);
		if (rc < 0)
			break;
		hdr_mailbox(&h, name.buf, addr.buf, i + 1 == nr);
	}
	hdr_end(&h);
	strbuf_release(&name);
	strbuf_release(&addr);
	return rc;
}

/* RFC 5322 date in UTC; day and month names are not left to the locale. */
static void
add_date(struct strbuf *out, time_t t)
{
	static const char *const days[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr",
		"May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	gmtime_r(&t, &tm);
	strbuf_addf(out, "Date: %s, %02d %s %04d %02d:%02d:%02d +0000\r\n",
	    days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* "<left@right>" with printable ASCII and no white space. */
static int
is_message_id(const char *s)
{
	size_t len = strlen(s);

	if (len < 5 || len > 250 || s[0] != '<' || s[len - 1] != '>' ||
	    !memchr(s, '@', len))
		return 0;
	for (size_t i = 1; i < len - 1; i++)
		if (s[i] <= 0x20 || s[i] >= 0x7f || s[i] == '<' || s[i] == '>')
			return 0;
	return 1;
}

static void
new_message_id(struct strbuf *out, const char *from_addr, time_t t)
{
	uint64_t r;

	if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		r = (uint64_t)getpid() << 32 ^ (uint64_t)clock();
	strbuf_addf(out, "<%lld.%016llx.jankgate@%s>", (long long)t,
	    (unsigned long long)r, strrchr(from_addr, '@') + 1);
}

/*
 * Quoted-printable, with "\n" and "\r\n" as hard line breaks (sent as
 * CRLF).  Tabs, '=', controls, bytes above 0x7e, a space ending a line and
 * the 'F' of a line starting "From " are encoded.
 */
static void
qp_add(struct strbuf *out, const char *s, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		int eol = i + 1 == len || s[i + 1] == '\n' ||
		    (s[i + 1] == '\r' && i + 2 < len && s[i + 2] == '\n');
		int enc;

		if (c == '\n' || (c == '\r' && i + 1 < len && s[i + 1] == '\n')) {
			if (c == '\r')
				i++;
			strbuf_addstr(out, "\r\n");
			col = 0;
			continue;
		}
		enc = c == '=' || c < 0x20 || c > 0x7e || (c == ' ' && eol) ||
		    (col == 0 && c == 'F' && len - i >= 5 &&
		    !memcmp(s + i, "From ", 5));
		if (col + (enc ? 3 : 1) > QP_LINE_MAX - 1) {
			strbuf_addstr(out, "=\r\n");
			col = 0;
		}
		if (enc)
			strbuf_addf(out, "=%02X", c);
		else
			strbuf_addch(out, c);
		col += enc ? 3 : 1;
	}
}

/* Base64 in lines of 76, without a line break after the last. */
static void
b64_lines_add(struct strbuf *out, const char *s, size_t len)
{
	const size_t per_line = B64_LINE_MAX / 4 * 3;

	for (size_t i = 0; i < len; i += per_line) {
		if (i)
			strbuf_addstr(out, "\r\n");
		base64_add(out, s + i,
		    len - i < per_line ? len - i : per_line);
	}
}

static void
add_text_part(struct strbuf *out, const char *type, const char *s, size_t len)
{
	strbuf_addf(out, "Content-Type: %s; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: quoted-printable\r\n\r\n", type);
	qp_add(out, s, len);
}

static int
is_type_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c && strchr("!#$&^_.+-", c));
}

/* "type/subtype", each a non-empty MIME token. */
static int
is_content_type(const char *s)
{
	const char *slash = strchr(s, '/');

	if (!slash || slash == s || !slash[1])
		return 0;
	for (const char *p = s; *p; p++)
		if (p != slash && !is_type_char((unsigned char)*p))
			return 0;
	return 1;
}

static int
is_plain_filename(const char *s)
{
	if (!*s || strlen(s) > 60)
		return 0;
	for (; *s; s++)
		if (!is_type_char((unsigned char)*s) && *s != ' ')
			return 0;
	return 1;
}

static int
add_attachment(struct strbuf *out, const struct mail_attachment *a)
{
	struct strbuf name = STRBUF_INIT, tmp = STRBUF_INIT;
	int rc = 0;

	if (!a->content_type || !is_content_type(a->content_type)) {
		rc = jg_error_set(JG_EINVAL, "invalid content type '%s'",
		    shown(&tmp, a->content_type ? a->content_type : ""));
		goto out;
	}
	clean_text(&name, a->filename ? a->filename : "");
	if (!name.len || name.len > NAME_MAX_BYTES) {
		rc = jg_error_set(JG_EINVAL, "invalid attachment name '%s'",
		    shown(&tmp, a->filename ? a->filename : ""));
		goto out;
	}
	strbuf_addf(out, "Content-Type: %s", a->content_type);
	if (!strncmp(a->content_type, "text/", 5))
		strbuf_addstr(out, "; charset=utf-8");
	if (is_plain_filename(name.buf)) {
		strbuf_addf(out, "; name=\"%s\"\r\n"
		    "Content-Disposition: attachment; filename=\"%s\"\r\n",
		    name.buf, name.buf);
	} else {
		strbuf_addstr(out, "\r\nContent-Disposition: attachment;\r\n"
		    " filename*=utf-8''");
		for (const unsigned char *p = (unsigned char *)name.buf; *p; p++)
			if (is_type_char(*p) && *p != '\'')
				strbuf_addch(out, *p);
			else
				strbuf_addf(out, "%%%02X", *p);
		strbuf_addstr(out, "\r\n");
	}
	strbuf_addstr(out, "Content-Transfer-Encoding: base64\r\n\r\n");
	b64_lines_add(out, a->data, a->len);
out:
	strbuf_release(&name);
	strbuf_release(&tmp);
	return rc;
}

/* FNV-1a: boundaries that follow from the message id, for repeatable bytes. */
static unsigned long long
hash_str(const char *s)
{
	unsigned long long h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* The body: the alternative (or the text alone), as one entity. */
static void
add_body_entity(struct strbuf *out, const struct mail_message *m,
    const char *alt_boundary)
{
	if (!m->html) {
		add_text_part(out, "text/plain", m->text, m->text_len);
		return;
	}
	strbuf_addf(out, "Content-Type: multipart/alternative;\r\n"
	    " boundary=\"%s\"\r\n\r\n--%s\r\n", alt_boundary, alt_boundary);
	add_text_part(out, "text/plain", m->text, m->text_len);
	strbuf_addf(out, "\r\n--%s\r\n", alt_boundary);
	add_text_part(out, "text/html", m->html, m->html_len);
	strbuf_addf(out, "\r\n--%s--\r\n", alt_boundary);
}

static int
add_headers(struct strbuf *out, const struct mail_message *m,
    const char *from_addr, const char *msgid)
{
	struct strbuf clean = STRBUF_INIT;
	struct hdr h;
	int rc;

	add_date(out, m->date ? m->date : time(NULL));
	rc = add_address_header(out, "From", &m->from, 1);
	if (!rc)
		rc = add_address_header(out, "To", m->to, m->nr_to);
	if (rc < 0)
		goto out;
	clean_text(&clean, m->subject ? m->subject : "");
	hdr_start(&h, out, "Subject");
	hdr_text(&h, clean.buf);
	hdr_end(&h);
	strbuf_addf(out, "Message-ID: %s\r\n", msgid);
	strbuf_addstr(out, "MIME-Version: 1.0\r\n"
	    "Auto-Submitted: auto-generated\r\n"
	    "X-Mailer: jankgate " JG_VERSION "\r\n");
out:
	strbuf_release(&clean);
	return rc;
}

int
mail_build(const struct mail_message *m, struct strbuf *out)
{
	struct strbuf from_addr = STRBUF_INIT, msgid = STRBUF_INIT;
	struct strbuf tmp = STRBUF_INIT;
	char mixed[64], alt[64];
	size_t orig_len = out->len;
	unsigned long long h;
	int rc;

	if (!m->from || !m->nr_to || !m->text) {
		rc = jg_error_set(JG_EINVAL, "mail needs a sender, a recipient "
		    "and a text body");
		goto out;
	}
	rc = mail_address_split(m->from, NULL, &from_addr);
	if (rc < 0)
		goto out;
	if (m->message_id && !is_message_id(m->message_id)) {
		rc = jg_error_set(JG_EINVAL, "invalid message id '%s'",
		    shown(&tmp, m->message_id));
		goto out;
	}
	if (m->message_id)
		strbuf_addstr(&msgid, m->message_id);
	else
		new_message_id(&msgid, from_addr.buf,
		    m->date ? m->date : time(NULL));
	h = hash_str(msgid.buf);
	snprintf(mixed, sizeof(mixed), "=_jg_mixed_%016llx", h);
	snprintf(alt, sizeof(alt), "=_jg_alt_%016llx", h);

	rc = add_headers(out, m, from_addr.buf, msgid.buf);
	if (rc < 0)
		goto out;
	if (!m->nr_attachments) {
		add_body_entity(out, m, alt);
		/* SMTP's end of data needs the message to end a line. */
		if (out->len < 2 || memcmp(out->buf + out->len - 2, "\r\n", 2))
			strbuf_addstr(out, "\r\n");
		goto out;
	}
	strbuf_addf(out, "Content-Type: multipart/mixed;\r\n"
	    " boundary=\"%s\"\r\n\r\n"
	    "This is a MIME message: the report is in the parts below.\r\n"
	    "\r\n--%s\r\n", mixed, mixed);
	add_body_entity(out, m, alt);
	for (size_t i = 0; i < m->nr_attachments; i++) {
		strbuf_addf(out, "\r\n--%s\r\n", mixed);
		rc = add_attachment(out, &m->attachments[i]);
		if (rc < 0)
			goto out;
	}
	strbuf_addf(out, "\r\n--%s--\r\n", mixed);
out:
	if (rc < 0)
		strbuf_setlen(out, orig_len);
	strbuf_release(&from_addr);
	strbuf_release(&msgid);
	strbuf_release(&tmp);
	return rc;
}

int
mail_write_eml(const struct mail_message *m, const char *path)
{
	struct strbuf msg = STRBUF_INIT;
	int rc = mail_build(m, &msg);

	if (!rc)
		rc = file_write_atomic(path, msg.buf, msg.len, 0644);
	strbuf_release(&msg);
	return rc;
}
