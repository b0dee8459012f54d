/*
 * test_mail.c: the report mail, built and sent to a real SMTP server.
 *
 * Messages are judged by Python's email package (data/mail/parse.py), a
 * parser written by other people, and by a few line-level checks in C that
 * no parser would bother with (CRLF everywhere, line lengths, which header
 * names exist).  Sending goes to Debian's aiosmtpd on a loopback port
 * (data/mail/smtpd.py), started per test with the behaviour the test needs
 * (STARTTLS, smtps, AUTH, greylisting, refusal) and stopped by its process
 * group in teardown.  The TLS certificate is made once per group with
 * openssl, for localhost, 127.0.0.1 and mail.example.test.
 *
 * The last tests take a report directory (the fixtures of the mail
 * end-to-end cases, tests/e2e/data/mail/) through mail_send_report(), the
 * function `jankgate mail` and `jankgate gate` share.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "cancel.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "mail.h"
#include "proc.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"

#define PYTHON "/usr/bin/python3"
#define USER "jg-mailer"
#define PASSWORD "hunter2-Secret!"
#define MAX_SERVERS 32

struct smtpd {
	pid_t pid;
	int port;
	char *dir;
};

static struct smtpd servers[MAX_SERVERS];
static int nr_servers;
static char *cert, *key;

static const char *const recipients[] = {
	"team@example.com",
	"\xc3\x9cn\xc3\xaf Lead <lead@example.com>",
};

static const char report_html[] =
	"<!doctype html><title>report</title><p>frame time p95 +12%</p>\n";
static const char comparison_json[] =
	"{\n  \"verdict\": \"regression\",\n  \"devices\": 3\n}\n";
static const struct mail_attachment attachments[] = {
	{ "report.html", "text/html", report_html, sizeof(report_html) - 1 },
	{ "comparison.json", "application/json", comparison_json,
	    sizeof(comparison_json) - 1 },
};

#define TEXT "Verdict: REGRESSION\n\nscroll_feed p95 16.1 ms -> 18.0 ms " \
	"(+12%) \xe2\x80\x94 caf\xc3\xa9\n.\nFrom the gate, with = signs\n"
#define HTML "<table><tr><td style=\"color:#c00\">REGRESSION</td></tr>" \
	"</table>\n"

/* The message most tests send: the real layout, with UTF-8 throughout. */
static struct mail_message
sample(void)
{
	struct mail_message m = { 0 };

	m.from = "Jank Gate <jankgate@ci.example>";
	m.to = recipients;
	m.nr_to = 2;
	m.subject = "jankgate: REGRESSION \xe2\x80\x94 com.example.app 1.2.3 "
	    "on 3 devices";
	m.text = TEXT;
	m.text_len = strlen(TEXT);
	m.html = HTML;
	m.html_len = strlen(HTML);
	m.attachments = attachments;
	m.nr_attachments = 2;
	return m;
}

/* A path under this process's temp dir; a fresh name per call. */
static char *
tmp(const char *name)
{
	static int seq;

	return xasprintf("%s/%s-%d", unit_tmpdir(), name, ++seq);
}

static char *
script(const char *name)
{
	return xasprintf("%s/tests/unit/data/mail/%s", unit_srcdir(), name);
}

static char *
read_all(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (file_read(&sb, path) < 0)
		fail_msg("%s", jg_error_msg());
	return strbuf_detach(&sb, NULL);
}

static int
count_lines(const char *text, const char *prefix)
{
	int n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

/* Run parse.py on `eml`; returns its report (to free), parts in *outdir. */
static char *
parse(const char *eml, char **outdir)
{
	char *py = script("parse.py"), *out;
	const char *argv[] = { PYTHON, py, eml, NULL, NULL };
	struct proc_result r;

	*outdir = tmp("parts");
	argv[3] = *outdir;
	assert_int_equal(file_mkdirs(*outdir, 0777), 0);
	proc_result_init(&r);
	if (proc_run(&r, argv, &(struct proc_opts){ .timeout_ms = 20000 }) < 0)
		fail_msg("%s", jg_error_msg());
	if (r.exit_code != 0)
		fail_msg("parse.py %s: %s", eml, r.err.buf);
	out = strbuf_detach(&r.out, NULL);
	proc_result_release(&r);
	free(py);
	return out;
}

static void
assert_has_line(const char *report, const char *line)
{
	char *want = xasprintf("\n%s\n", line);
	char *text = xasprintf("\n%s", report);

	if (!strstr(text, want))
		fail_msg("no line '%s' in:\n%s", line, report);
	free(want);
	free(text);
}

/* Assert that part-N of `dir` holds exactly `len` bytes of `data`. */
static void
assert_part(const char *dir, int n, const char *data, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/part-%d", dir, n);

	assert_int_equal(file_read(&sb, path), 0);
	assert_int_equal(sb.len, len);
	assert_memory_equal(sb.buf, data, len);
	strbuf_release(&sb);
	free(path);
}

/*
 * Everything a reader must see in the sample message: no defects, the
 * structure of mail.h, each body decoded back to its input, the subject
 * and the recipients with their display names.
 */
static void
assert_sample_parses(const char *eml)
{
	char *dir, *report = parse(eml, &dir);

	assert_has_line(report, "defects 0");
	assert_has_line(report, "header Subject: jankgate: REGRESSION "
	    "\xe2\x80\x94 com.example.app 1.2.3 on 3 devices");
	assert_has_line(report, "header From: Jank Gate "
	    "<jankgate@ci.example>");
	assert_has_line(report, "header MIME-Version: 1.0");
	assert_has_line(report, "to |team@example.com");
	assert_has_line(report, "to \xc3\x9cn\xc3\xaf Lead|lead@example.com");
	assert_has_line(report, "part 0 multipart/mixed - - -");
	assert_has_line(report, "part 1 multipart/alternative - - -");
	assert_has_line(report, "part 2 text/plain utf-8 - -");
	assert_has_line(report, "part 2 text/html utf-8 - -");
	assert_has_line(report, "part 1 text/html utf-8 attachment "
	    "report.html");
	assert_has_line(report, "part 1 application/json - attachment "
	    "comparison.json");
	assert_part(dir, 1, TEXT, strlen(TEXT));
	assert_part(dir, 2, HTML, strlen(HTML));
	assert_part(dir, 3, report_html, sizeof(report_html) - 1);
	assert_part(dir, 4, comparison_json, sizeof(comparison_json) - 1);
	free(report);
	free(dir);
}

/*
 * Line-level rules a parser forgives: every line ends in CRLF (no bare CR
 * or LF anywhere), no line exceeds `max` characters, and the header block
 * holds exactly the header names in `names` (space-separated, in order),
 * every other header line being a continuation.
 */
static void
assert_lines(const struct strbuf *msg, size_t max, const char *names)
{
	struct strbuf seen = STRBUF_INIT;
	size_t start = 0;
	int in_headers = 1;

	for (size_t i = 0; i < msg->len; i++) {
		if (msg->buf[i] == '\r' && i + 1 < msg->len &&
		    msg->buf[i + 1] == '\n') {
			const char *line = msg->buf + start;
			size_t len = i - start;

			if (len > max)
				fail_msg("line of %zu chars: '%.*s'", len,
				    (int)len, line);
			if (in_headers && !len)
				in_headers = 0;
			else if (in_headers && line[0] != ' ') {
				const char *colon = memchr(line, ':', len);

				assert_non_null(colon);
				strbuf_addf(&seen, "%s%.*s", seen.len ? " " : "",
				    (int)(colon - line), line);
			}
			start = i + 2;
			i++;
		} else if (msg->buf[i] == '\r' || msg->buf[i] == '\n') {
			fail_msg("bare CR or LF at byte %zu", i);
		}
	}
	assert_int_equal(start, msg->len);
	assert_string_equal(seen.buf, names);
	strbuf_release(&seen);
}

#define SAMPLE_HEADERS "Date From To Subject Message-ID MIME-Version " \
	"Auto-Submitted X-Mailer Content-Type"

/*
 * The sample message has the layout mail.h draws, parses without a single
 * defect, and decodes back to every input byte.
 */
static void
built_message_parses_as_mime(void **state)
{
	struct mail_message m = sample();
	struct strbuf msg = STRBUF_INIT;
	char *path = tmp("sample.eml");

	assert_int_equal(mail_build(&m, &msg), 0);
	assert_lines(&msg, 78, SAMPLE_HEADERS);
	assert_int_equal(file_write_atomic(path, msg.buf, msg.len, 0644), 0);
	assert_sample_parses(path);
	strbuf_release(&msg);
	free(path);
}

/*
 * Bodies survive their transfer encodings: long lines, trailing spaces,
 * tabs, '=' and "From " at line starts, a lone CR, CRLF and LF, and an
 * attachment holding every byte value; and every line stays within 78.
 */
static void
bodies_round_trip(void **state)
{
	struct mail_message m = sample();
	struct mail_attachment bin = { "all-bytes.bin",
	    "application/octet-stream", NULL, 256 };
	struct strbuf msg = STRBUF_INIT, text = STRBUF_INIT, html = STRBUF_INIT;
	char bytes[256], *path = tmp("bodies.eml"), *dir, *report;

	for (int i = 0; i < 256; i++)
		bytes[i] = (char)i;
	bin.data = bytes;
	strbuf_addstr(&text, "trailing spaces   \n\ttabbed\n=3D is not "
	    "decoded twice\nFrom here\n.\n..\nlone\rcr\n");
	for (int i = 0; i < 300; i++)
		strbuf_addstr(&text, i % 7 ? "x" : "\xc3\xa9");
	strbuf_addstr(&text, " \n");
	for (int i = 0; i < 2000; i++)
		strbuf_addf(&html, "<td>%d</td>", i);
	m.text = text.buf;
	m.text_len = text.len;
	m.html = html.buf;
	m.html_len = html.len;
	m.attachments = &bin;
	m.nr_attachments = 1;

	assert_int_equal(mail_build(&m, &msg), 0);
	assert_lines(&msg, 78, SAMPLE_HEADERS);
	assert_int_equal(file_write_atomic(path, msg.buf, msg.len, 0644), 0);
	report = parse(path, &dir);
	assert_has_line(report, "defects 0");
	assert_has_line(report, "part 1 application/octet-stream - attachment "
	    "all-bytes.bin");
	assert_part(dir, 1, text.buf, text.len);
	assert_part(dir, 2, html.buf, html.len);
	assert_part(dir, 3, bytes, sizeof(bytes));
	free(report);
	free(dir);
	free(path);
	strbuf_release(&msg);
	strbuf_release(&text);
	strbuf_release(&html);
}

/* Without HTML or attachments the message is one text/plain part. */
static void
text_only_message_is_one_part(void **state)
{
	struct mail_message m = sample();
	struct strbuf msg = STRBUF_INIT;
	char *path = tmp("text.eml"), *dir, *report;

	m.html = NULL;
	m.nr_attachments = 0;
	m.text = "no newline at the end";
	m.text_len = strlen(m.text);
	assert_int_equal(mail_build(&m, &msg), 0);
	assert_lines(&msg, 78, "Date From To Subject Message-ID MIME-Version "
	    "Auto-Submitted X-Mailer Content-Type Content-Transfer-Encoding");
	assert_int_equal(file_write_atomic(path, msg.buf, msg.len, 0644), 0);
	report = parse(path, &dir);
	assert_has_line(report, "defects 0");
	assert_has_line(report, "part 0 text/plain utf-8 - -");
	assert_null(strstr(report, "part 1"));
	free(report);
	free(dir);
	free(path);
	strbuf_release(&msg);
}

/*
 * With the date and message id fixed the bytes are the same every time;
 * left to the module, each message gets its own id.
 */
static void
build_is_repeatable_with_fixed_id(void **state)
{
	struct mail_message m = sample();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	m.date = 1700000000;
	m.message_id = "<fixed.1@ci.example>";
	assert_int_equal(mail_build(&m, &a), 0);
	assert_int_equal(mail_build(&m, &b), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	assert_memory_equal(a.buf, "Date: Tue, 14 Nov 2023 22:13:20 +0000\r\n",
	    39);
	assert_non_null(strstr(a.buf, "\r\nMessage-ID: <fixed.1@ci.example>"
	    "\r\n"));

	m.message_id = NULL;
	strbuf_reset(&a);
	strbuf_reset(&b);
	assert_int_equal(mail_build(&m, &a), 0);
	assert_int_equal(mail_build(&m, &b), 0);
	assert_string_not_equal(strstr(a.buf, "Message-ID:"),
	    strstr(b.buf, "Message-ID:"));
	assert_non_null(strstr(a.buf, ".jankgate@ci.example>\r\n"));
	strbuf_release(&a);
	strbuf_release(&b);
}

/*
 * No subject, however hostile, adds a header or breaks a line: control
 * characters (C0, C1, DEL, U+2028), invalid UTF-8, text that looks like an
 * encoded word, very long words and non-ASCII all end up as one Subject
 * header of lines within 78 characters, which a reader decodes to the
 * cleaned text.
 */
static void
hostile_subjects_stay_in_the_subject(void **state)
{
	static const struct {
		const char *in, *seen;
	} cases[] = {
		{ "x\r\nBcc: evil@example.com", "x Bcc: evil@example.com" },
		{ "x\nBcc: evil@example.com", "x Bcc: evil@example.com" },
		{ "x\rBcc: evil@example.com", "x Bcc: evil@example.com" },
		{ "\r\n\r\nbody?\r\n", "body?" },
		{ "a\tb\x7f" "c\x1b[31md", "a b c [31md" },
		{ "x\xc2\x85" "Bcc: e@x", "x Bcc: e@x" },
		{ "x\xe2\x80\xa8" "Bcc: e@x", "x Bcc: e@x" },
		{ "bad \xff\xfe utf-8 \xc3", "bad \xef\xbf\xbd\xef\xbf\xbd "
		    "utf-8 \xef\xbf\xbd" },
		{ "=?UTF-8?B?DQpCY2M6IGV2aWw=?=", "=?UTF-8?B?DQpCY2M6IGV2aWw=?=" },
		{ "R\xc3\xa9gression \xe5\x9b\x9e\xe5\xbd\x92 \xf0\x9f\x93\x89",
		    "R\xc3\xa9gression \xe5\x9b\x9e\xe5\xbd\x92 "
		    "\xf0\x9f\x93\x89" },
		{ "", "" },
	};
	struct mail_message m = sample();
	struct strbuf msg = STRBUF_INIT, longword = STRBUF_INIT;
	struct strbuf longtext = STRBUF_INIT;

	for (int i = 0; i < 300; i++)
		strbuf_addch(&longword, 'a' + i % 26);
	for (int i = 0; i < 60; i++)
		strbuf_addstr(&longtext, "regression\r\n\xc3\xa9 ");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]) + 2; i++) {
		size_t n = sizeof(cases) / sizeof(cases[0]);
		const char *in = i < n ? cases[i].in :
		    i == n ? longword.buf : longtext.buf;
		char *path = tmp("subject.eml"), *dir, *report, *want;
		struct strbuf seen = STRBUF_INIT;

		if (i < n) {
			strbuf_addstr(&seen, cases[i].seen);
		} else if (i == n) {
			strbuf_add(&seen, longword.buf, longword.len);
		} else {
			for (int k = 0; k < 60; k++)
				strbuf_addstr(&seen, k ? " regression \xc3\xa9" :
				    "regression \xc3\xa9");
		}
		m.subject = in;
		strbuf_reset(&msg);
		assert_int_equal(mail_build(&m, &msg), 0);
		assert_lines(&msg, 78, SAMPLE_HEADERS);
		assert_int_equal(file_write_atomic(path, msg.buf, msg.len,
		    0644), 0);
		report = parse(path, &dir);
		assert_has_line(report, "defects 0");
		want = xasprintf("header Subject: %s", seen.buf);
		assert_has_line(report, want);
		assert_int_equal(count_lines(report, "header "), 9);
		free(want);
		free(report);
		free(dir);
		free(path);
		strbuf_release(&seen);
	}
	strbuf_release(&msg);
	strbuf_release(&longword);
	strbuf_release(&longtext);
}

/*
 * Data in display names and file names is cleaned and quoted or encoded,
 * never a header of its own; what cannot be cleaned without changing its
 * meaning (an address, a content type, a message id) is refused with a
 * message that shows the control characters instead of printing them.
 */
static void
hostile_names_and_addresses(void **state)
{
	static const char *const evil_to[] = {
		"Evil\r\nBcc: e@x.example <ok@example.com>",
		"Jank \"Gate\" \\ CI <jg@ci.example>",
	};
	struct mail_attachment att[] = {
		{ "a\r\nX-Evil: 1.html", "text/html", "<p>", 3 },
		{ "r\xc3\xa4port \"final\".html", "text/html", "<p>", 3 },
	};
	static const char *const bad_to[] = { "x\r\nBcc: evil@example.com" };
	struct mail_message m = sample();
	struct strbuf msg = STRBUF_INIT;
	char *path = tmp("names.eml"), *dir, *report;

	m.to = evil_to;
	m.attachments = att;
	assert_int_equal(mail_build(&m, &msg), 0);
	assert_lines(&msg, 78, SAMPLE_HEADERS);
	assert_int_equal(file_write_atomic(path, msg.buf, msg.len, 0644), 0);
	report = parse(path, &dir);
	assert_has_line(report, "defects 0");
	assert_int_equal(count_lines(report, "header "), 9);
	assert_has_line(report, "to Evil Bcc: e@x.example|ok@example.com");
	assert_has_line(report, "to Jank \"Gate\" \\ CI|jg@ci.example");
	assert_has_line(report, "part 1 text/html utf-8 attachment "
	    "a X-Evil: 1.html");
	assert_has_line(report, "part 1 text/html utf-8 attachment "
	    "r\xc3\xa4port \"final\".html");
	free(report);
	free(dir);

	m = sample();
	m.to = bad_to;
	m.nr_to = 1;
	assert_int_equal(mail_build(&m, &msg), JG_EINVAL);
	assert_string_equal(jg_error_msg(), "invalid mail address "
	    "'x\\x0d\\x0aBcc: evil@example.com'");

	m = sample();
	att[0].content_type = "text/html\r\nX-Evil: 1";
	m.attachments = att;
	assert_int_equal(mail_build(&m, &msg), JG_EINVAL);
	assert_null(strpbrk(jg_error_msg(), "\r\n"));

	m = sample();
	m.message_id = "<a\r\nX: y@z>";
	assert_int_equal(mail_build(&m, &msg), JG_EINVAL);
	assert_null(strpbrk(jg_error_msg(), "\r\n"));
	free(path);
	strbuf_release(&msg);
}

/* Addresses: the forms config uses are split; anything else is refused. */
static void
address_split_table(void **state)
{
	static const struct {
		const char *in, *name, *addr;	/* addr NULL: refused */
	} cases[] = {
		{ "a@b.example", "", "a@b.example" },
		{ "  a@b.example  ", "", "a@b.example" },
		{ "Jank Gate <jg@ci.example>", "Jank Gate", "jg@ci.example" },
		{ "\"Doe, John\" <j@x.example>", "Doe, John", "j@x.example" },
		{ "<a@b.example>", "", "a@b.example" },
		{ "a <b> <c@d.example>", "a <b>", "c@d.example" },
		{ "o'hara+ci@x-y.example", "", "o'hara+ci@x-y.example" },
		{ "root@[192.0.2.1]", "", "root@[192.0.2.1]" },
		{ "", NULL, NULL },
		{ "a", NULL, NULL },
		{ "a@", NULL, NULL },
		{ "@b.example", NULL, NULL },
		{ "a b@c.example", NULL, NULL },
		{ "a@b c.example", NULL, NULL },
		{ "a..b@c.example", NULL, NULL },
		{ ".a@c.example", NULL, NULL },
		{ "a@c..example", NULL, NULL },
		{ "a@b.example>", NULL, NULL },
		{ "<a@b.example> x", NULL, NULL },
		{ "a@b.example\r\nRCPT TO:c@d.example", NULL, NULL },
		{ "a@b.example\r\nRCPT TO:<c@d.example>",
		    "a@b.example RCPT TO:", "c@d.example" },
		{ "\xc3\xbc@b.example", NULL, NULL },
		{ "\"q\"@b.example", NULL, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf name = STRBUF_INIT, addr = STRBUF_INIT;
		int rc = mail_address_split(cases[i].in, &name, &addr);

		if (!cases[i].addr) {
			if (rc != JG_EINVAL)
				fail_msg("'%s' accepted", cases[i].in);
			assert_int_equal(addr.len, 0);
		} else {
			if (rc)
				fail_msg("'%s': %s", cases[i].in, jg_error_msg());
			assert_string_equal(name.buf, cases[i].name);
			assert_string_equal(addr.buf, cases[i].addr);
		}
		strbuf_release(&name);
		strbuf_release(&addr);
	}
}

/* mail.tls takes exactly auto, required and none. */
static void
tls_setting_parses(void **state)
{
	int v = -1;

	assert_int_equal(mail_tls_parse("auto", &v), 0);
	assert_int_equal(v, MAIL_TLS_AUTO);
	assert_int_equal(mail_tls_parse("required", &v), 0);
	assert_int_equal(v, MAIL_TLS_REQUIRED);
	assert_int_equal(mail_tls_parse("none", &v), 0);
	assert_int_equal(v, MAIL_TLS_NONE);
	assert_int_equal(mail_tls_parse("yes", &v), JG_EINVAL);
	assert_int_equal(mail_tls_parse("", &v), JG_EINVAL);
	assert_int_equal(v, MAIL_TLS_NONE);
}

/*
 * Loopback is judged on the host libcurl would dial, by its literal form:
 * all of 127/8, ::1 and v4-mapped 127/8, and the name localhost; nothing
 * that merely contains those strings.
 */
static void
loopback_is_judged_on_the_host(void **state)
{
	static const struct {
		const char *url;
		int want;
	} cases[] = {
		{ "smtp://127.0.0.1", 1 },
		{ "smtp://127.1.2.3:2525", 1 },
		{ "smtp://127.1", 1 },
		{ "smtps://localhost", 1 },
		{ "smtp://LOCALHOST:25/ci.example", 1 },
		{ "smtp://[::1]:25", 1 },
		{ "smtp://[::ffff:127.0.0.1]", 1 },
		{ "smtp://mail.example.com", 0 },
		{ "smtp://128.0.0.1", 0 },
		{ "smtp://126.255.255.255", 0 },
		{ "smtp://127.0.0.1.example.com", 0 },
		{ "smtp://localhost.example.com", 0 },
		{ "smtp://[::2]", 0 },
		{ "smtp://0.0.0.0", 0 },
		{ "smtp://192.0.2.2", 0 },
		{ "http://127.0.0.1", JG_EINVAL },
		{ "127.0.0.1:25", JG_EINVAL },
		{ "", JG_EINVAL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = mail_url_is_loopback(cases[i].url);

		if (got != cases[i].want)
			fail_msg("'%s': %d, want %d", cases[i].url, got,
			    cases[i].want);
	}
}

/*
 * A URL with credentials is refused, and the message does not repeat
 * them; a password never goes in clear text off loopback; everything else
 * passes the check.
 */
static void
transport_check_refuses_unsafe_settings(void **state)
{
	struct mail_transport t = { 0 };

	t.url = "smtp://jg:" PASSWORD "@mail.example.com";
	assert_int_equal(mail_transport_check(&t), JG_EINVAL);
	assert_null(strstr(jg_error_msg(), PASSWORD));
	assert_non_null(strstr(jg_error_msg(), "mail.example.com"));
	t.url = "smtp://jg:" PASSWORD "@mail.example.com:x";
	assert_int_equal(mail_transport_check(&t), JG_EINVAL);
	assert_null(strstr(jg_error_msg(), PASSWORD));

	t.url = "smtp://mail.example.com";
	t.user = USER;
	t.password = PASSWORD;
	t.tls = MAIL_TLS_NONE;
	assert_int_equal(mail_transport_check(&t), JG_EINVAL);
	assert_string_equal(jg_error_msg(), "refusing to send a password in "
	    "clear text to 'smtp://mail.example.com:25'; use STARTTLS or "
	    "smtps://");
	t.tls = 7;
	assert_int_equal(mail_transport_check(&t), JG_EINVAL);
	t.tls = MAIL_TLS_AUTO;
	assert_int_equal(mail_transport_check(&t), 0);
	t.tls = MAIL_TLS_NONE;
	t.url = "smtps://mail.example.com";
	assert_int_equal(mail_transport_check(&t), 0);
	t.url = "smtp://127.0.0.1:2525";
	assert_int_equal(mail_transport_check(&t), 0);
	t.url = "smtp://mail.example.com";
	t.password = NULL;
	assert_int_equal(mail_transport_check(&t), 0);
}

/* The dry run writes the message; a file that cannot be written is JG_EIO. */
static void
dry_run_writes_the_message(void **state)
{
	struct mail_message m = sample();
	char *path = tmp("dry.eml"), *bad = tmp("missing-dir/x.eml");

	assert_int_equal(mail_write_eml(&m, path), 0);
	assert_sample_parses(path);
	assert_int_equal(mail_write_eml(&m, bad), JG_EIO);
	m.from = "nobody";
	assert_int_equal(mail_write_eml(&m, path), JG_EINVAL);
	free(path);
	free(bad);
}

/* --- against a real SMTP server ---------------------------------------- */

static int
free_port(void)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/*
 * Start smtpd.py with the options given (NULL-terminated) and wait until
 * it prints the port it listens on.
 */
static struct smtpd *
smtpd_start(const char *opt, ...)
{
	const char *argv[16] = { PYTHON };
	char *py = script("smtpd.py"), *errpath, line[32] = "";
	struct smtpd *s;
	size_t got = 0;
	int n = 1, p[2];
	va_list ap;

	assert_true(nr_servers < MAX_SERVERS);
	s = &servers[nr_servers++];
	s->dir = tmp("smtpd");
	assert_int_equal(file_mkdirs(s->dir, 0777), 0);
	argv[n++] = py;
	argv[n++] = "--dir";
	argv[n++] = s->dir;
	va_start(ap, opt);
	for (const char *o = opt; o && n < 15; o = va_arg(ap, const char *))
		argv[n++] = o;
	va_end(ap);
	errpath = xasprintf("%s/stderr", s->dir);
	assert_int_equal(pipe(p), 0);
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (s->pid == 0) {
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		dup2(p[1], 1);
		dup2(fd, 2);
		execv(PYTHON, (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	while (!strchr(line, '\n') && got < sizeof(line) - 1) {
		struct pollfd pf = { p[0], POLLIN, 0 };
		ssize_t r;

		if (poll(&pf, 1, 20000) <= 0)
			break;
		r = read(p[0], line + got, sizeof(line) - 1 - got);
		if (r <= 0)
			break;
		got += r;
		line[got] = '\0';
	}
	close(p[0]);
	s->port = (int)strtol(line, NULL, 10);
	if (s->port <= 0)
		fail_msg("smtpd.py did not start: %s", read_all(errpath));
	free(py);
	free(errpath);
	return s;
}

static void
smtpd_stop(struct smtpd *s)
{
	if (s->pid > 0) {
		kill(-s->pid, SIGTERM);
		waitpid(s->pid, NULL, 0);
	}
	s->pid = 0;
}

/* The server's log so far ("" before the first connection), to free. */
static char *
smtpd_log(const struct smtpd *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/log", s->dir);
	int rc = file_read(&sb, path);

	if (rc < 0 && rc != JG_ENOTFOUND)
		fail_msg("%s", jg_error_msg());
	free(path);
	return strbuf_detach(&sb, NULL);
}

static struct mail_transport
transport(const char *url)
{
	struct mail_transport t = { 0 };

	t.url = url;
	t.backoff_ms = 10;
	t.timeout_s = 20;
	return t;
}

static void
send_ok(const struct mail_message *m, const struct mail_transport *t)
{
	if (mail_send(m, t) != 0)
		fail_msg("mail_send: %s", jg_error_msg());
}

/*
 * The sample reaches a plain loopback server (TLS is not required there):
 * one transaction with both recipients in the envelope, and a message that
 * parses to the same parts as the one built.
 */
static void
message_arrives_as_valid_mime(void **state)
{
	struct smtpd *s = smtpd_start(NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port);
	char *eml = xasprintf("%s/msg-1.eml", s->dir), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	send_ok(&m, &t);
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "connect"), 1);
	assert_has_line(log, "mail jankgate@ci.example tls=0 auth=-");
	assert_has_line(log, "data msg-1.eml team@example.com "
	    "lead@example.com");
	assert_sample_parses(eml);
	smtpd_stop(s);
	free(log);
	free(eml);
	free(url);
}

/* What the dry run writes is byte for byte what the server received. */
static void
dry_run_is_what_is_sent(void **state)
{
	struct smtpd *s = smtpd_start(NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port);
	char *eml = xasprintf("%s/msg-1.eml", s->dir), *dry = tmp("dry.eml");
	struct mail_transport t = transport(url);
	struct mail_message m = sample();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	m.date = 1700000000;
	m.message_id = "<dry.run@ci.example>";
	assert_int_equal(mail_write_eml(&m, dry), 0);
	send_ok(&m, &t);
	assert_int_equal(file_read(&a, dry), 0);
	assert_int_equal(file_read(&b, eml), 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	smtpd_stop(s);
	strbuf_release(&a);
	strbuf_release(&b);
	free(dry);
	free(eml);
	free(url);
}

/*
 * tls=required upgrades with STARTTLS and verifies the server against the
 * given CA: the message travels encrypted.
 */
static void
starttls_with_test_ca(void **state)
{
	struct smtpd *s = smtpd_start("--starttls", cert, key, NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.tls = MAIL_TLS_REQUIRED;
	t.ca_file = cert;
	send_ok(&m, &t);
	log = smtpd_log(s);
	assert_has_line(log, "mail jankgate@ci.example tls=1 auth=-");
	assert_has_line(log, "data msg-1.eml team@example.com "
	    "lead@example.com");
	smtpd_stop(s);
	free(log);
	free(url);
}

/*
 * A certificate nobody vouches for ends the attempt before MAIL FROM, and
 * is not retried: waiting does not make it valid.
 */
static void
starttls_refuses_unknown_certificate(void **state)
{
	struct smtpd *s = smtpd_start("--starttls", cert, key, NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.tls = MAIL_TLS_REQUIRED;
	t.retries = 2;
	assert_int_equal(mail_send(&m, &t), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), url));
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "connect"), 1);
	assert_int_equal(count_lines(log, "mail "), 0);
	smtpd_stop(s);
	free(log);
	free(url);
}

/*
 * Off loopback, tls=auto means STARTTLS is required: against a server
 * named mail.example.test (pinned to 127.0.0.1) that does not offer it,
 * the send fails after the greeting, without AUTH or MAIL FROM, so the
 * password never leaves; one that offers it gets the message encrypted.
 */
static void
tls_required_off_loopback(void **state)
{
	struct smtpd *s = smtpd_start(NULL);
	struct smtpd *tls = smtpd_start("--starttls", cert, key, NULL);
	char *url = xasprintf("smtp://mail.example.test:%d", s->port);
	char *pin = xasprintf("mail.example.test:%d:127.0.0.1", s->port);
	char *url2 = xasprintf("smtp://mail.example.test:%d", tls->port);
	char *pin2 = xasprintf("mail.example.test:%d:127.0.0.1", tls->port);
	struct mail_transport t = transport(url);
	struct mail_message m = sample();
	char *log;

	t.resolve = pin;
	t.user = USER;
	t.password = PASSWORD;
	t.retries = 2;
	assert_int_equal(mail_send(&m, &t), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), url));
	assert_non_null(strstr(jg_error_msg(), "STARTTLS"));
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "connect"), 1);
	assert_int_equal(count_lines(log, "auth "), 0);
	assert_int_equal(count_lines(log, "mail "), 0);
	free(log);

	t = transport(url2);
	t.resolve = pin2;
	t.ca_file = cert;
	send_ok(&m, &t);
	log = smtpd_log(tls);
	assert_has_line(log, "mail jankgate@ci.example tls=1 auth=-");
	smtpd_stop(s);
	smtpd_stop(tls);
	free(log);
	free(url);
	free(pin);
	free(url2);
	free(pin2);
}

/*
 * tls=none with a password off loopback is refused before any connection
 * is made.
 */
static void
clear_password_off_loopback_never_connects(void **state)
{
	struct smtpd *s = smtpd_start(NULL);
	char *url = xasprintf("smtp://mail.example.test:%d", s->port);
	char *pin = xasprintf("mail.example.test:%d:127.0.0.1", s->port);
	struct mail_transport t = transport(url);
	struct mail_message m = sample();
	char *log;

	t.resolve = pin;
	t.tls = MAIL_TLS_NONE;
	t.user = USER;
	t.password = PASSWORD;
	assert_int_equal(mail_send(&m, &t), JG_EINVAL);
	log = smtpd_log(s);
	assert_string_equal(log, "");
	smtpd_stop(s);
	free(log);
	free(url);
	free(pin);
}

/*
 * smtps:// speaks TLS from the first byte, and AUTH PLAIN logs in with the
 * user and password given ("localhost" counts as loopback and resolves).
 */
static void
smtps_with_auth_plain(void **state)
{
	struct smtpd *s = smtpd_start("--implicit-tls", cert, key,
	    "--auth", USER ":" PASSWORD, NULL);
	char *url = xasprintf("smtps://localhost:%d", s->port), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.ca_file = cert;
	t.user = USER;
	t.password = PASSWORD;
	send_ok(&m, &t);
	log = smtpd_log(s);
	assert_has_line(log, "auth PLAIN " USER " ok");
	assert_has_line(log, "mail jankgate@ci.example tls=1 auth=" USER);
	assert_has_line(log, "data msg-1.eml team@example.com "
	    "lead@example.com");
	smtpd_stop(s);
	free(log);
	free(url);
}

/*
 * A refused login is JG_EAUTH, final (one AUTH however many retries), and
 * its message names the server and the reply but neither the user nor the
 * password, even from a server that quotes them back.
 */
static void
refused_login_is_auth_error_without_secrets(void **state)
{
	struct smtpd *s = smtpd_start("--auth", USER ":" PASSWORD, "--leaky",
	    NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.user = USER;
	t.password = "Wr0ng-pa55word";
	t.retries = 3;
	assert_int_equal(mail_send(&m, &t), JG_EAUTH);
	assert_non_null(strstr(jg_error_msg(), url));
	assert_non_null(strstr(jg_error_msg(), "535 5.7.8 refused ***:***"));
	assert_null(strstr(jg_error_msg(), "Wr0ng-pa55word"));
	assert_null(strstr(jg_error_msg(), USER));
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "auth PLAIN " USER " bad"), 1);
	assert_int_equal(count_lines(log, "mail "), 0);

	/* No credentials for a server that wants them: also JG_EAUTH. */
	t.user = t.password = NULL;
	t.retries = 0;
	assert_int_equal(mail_send(&m, &t), JG_EAUTH);
	assert_non_null(strstr(jg_error_msg(), "530"));
	smtpd_stop(s);
	free(log);
	free(url);
}

/*
 * A greylisting server (451 twice, then accept) gets the message on the
 * third connection; the first two end at RCPT.
 */
static void
temporary_failure_is_retried(void **state)
{
	struct smtpd *s = smtpd_start("--tempfail", "2", NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.retries = 3;
	send_ok(&m, &t);
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "connect"), 3);
	assert_int_equal(count_lines(log, "rcpt team@example.com 451"), 2);
	assert_int_equal(count_lines(log, "data "), 1);
	assert_non_null(strstr(log, "rcpt team@example.com 250\n"
	    "rcpt lead@example.com 250\ndata msg-1.eml"));
	smtpd_stop(s);
	free(log);
	free(url);
}

/*
 * A cancel while the send waits to retry ends it there: JG_EINTR, no
 * further connection, nothing delivered; and a send asked for after a
 * cancel connects to nothing.
 */
static void
cancel_ends_the_retries(void **state)
{
	struct smtpd *s = smtpd_start("--tempfail", "1", NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();
	const int after_ms = 300;
	double t0;
	pthread_t th;

	t.retries = 3;
	t.backoff_ms = 5000;
	t0 = unit_seconds();
	pthread_create(&th, NULL, unit_cancel_soon, (void *)&after_ms);
	assert_int_equal(mail_send(&m, &t), JG_EINTR);
	pthread_join(th, NULL);
	assert_true(unit_seconds() - t0 < 3);
	assert_non_null(strstr(jg_error_msg(), "interrupted"));
	assert_int_equal(mail_send(&m, &t), JG_EINTR);
	cancel_reset();
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "connect"), 1);
	assert_int_equal(count_lines(log, "data "), 0);
	smtpd_stop(s);
	free(log);
	free(url);
}

/* Retries stop at the bound, and the error quotes the last reply. */
static void
retries_are_bounded(void **state)
{
	struct smtpd *s = smtpd_start("--tempfail", "100", NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port), *log, *want;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.retries = 2;
	assert_int_equal(mail_send(&m, &t), JG_EIO);
	want = xasprintf("cannot send mail via '%s' (3 attempts): ", url);
	assert_non_null(strstr(jg_error_msg(), want));
	assert_non_null(strstr(jg_error_msg(), "server said "
	    "'451 4.7.1 greylisted, try again later'"));
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "connect"), 3);
	assert_int_equal(count_lines(log, "data "), 0);
	smtpd_stop(s);
	free(want);
	free(log);
	free(url);
}

/* A 5xx refusal is final: one connection, the reply in the message. */
static void
permanent_refusal_is_not_retried(void **state)
{
	struct smtpd *s = smtpd_start("--reject", NULL);
	char *url = xasprintf("smtp://127.0.0.1:%d", s->port), *log;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.retries = 3;
	assert_int_equal(mail_send(&m, &t), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), "550 5.1.1 no such mailbox"));
	assert_null(strstr(jg_error_msg(), "attempts"));
	log = smtpd_log(s);
	assert_int_equal(count_lines(log, "connect"), 1);
	smtpd_stop(s);
	free(log);
	free(url);
}

/*
 * Nothing listening: JG_EIO after the bounded retries, naming host:port.
 */
static void
server_down_is_io_error(void **state)
{
	int port = free_port();
	char *url = xasprintf("smtp://127.0.0.1:%d", port), *want;
	struct mail_transport t = transport(url);
	struct mail_message m = sample();

	t.retries = 1;
	assert_int_equal(mail_send(&m, &t), JG_EIO);
	want = xasprintf("cannot send mail via 'smtp://127.0.0.1:%d' "
	    "(2 attempts): ", port);
	assert_non_null(strstr(jg_error_msg(), want));
	free(want);
	free(url);
}

/*
 * A server that accepts the connection but never greets is a timeout,
 * JG_ETIMEOUT, once timeout_s has passed.
 */
static void
silent_server_times_out(void **state)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct mail_message m = sample();
	struct mail_transport t;
	char *url;

	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 4), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	url = xasprintf("smtp://127.0.0.1:%d", ntohs(a.sin_port));
	t = transport(url);
	t.timeout_s = 1;
	assert_int_equal(mail_send(&m, &t), JG_ETIMEOUT);
	assert_non_null(strstr(jg_error_msg(), url));
	close(fd);
	free(url);
}

/* --- a report directory as the message (mail_send_report) ------------- */

/*
 * A report directory under the temp dir, made of the fixture files of
 * tests/e2e/data/mail/FIXTURE named in `files` (space-separated).
 */
static char *
report_dir(const char *fixture, const char *files)
{
	char *dir = tmp("report"), *list = xstrdup(files), *save = NULL;

	assert_int_equal(file_mkdirs(dir, 0777), 0);
	for (char *f = strtok_r(list, " ", &save); f;
	    f = strtok_r(NULL, " ", &save)) {
		char *from = xasprintf("%s/tests/e2e/data/mail/%s/%s",
		    unit_srcdir(), fixture, f);
		char *to = xasprintf("%s/%s", dir, f), *data = read_all(from);

		assert_int_equal(file_write_atomic(to, data, strlen(data),
		    0644), 0);
		free(from);
		free(to);
		free(data);
	}
	free(list);
	return dir;
}

/* The defaults, as `jankgate mail` sees them without a file. */
static struct config *
report_config(void)
{
	struct config *cfg;

	unsetenv("JANKGATE_SMTP_USER");
	unsetenv("JANKGATE_SMTP_PASSWORD");
	assert_int_equal(config_defaults(&cfg, &source_plugins, NULL), 0);
	return cfg;
}

#define REPORT_FILES "email.txt email.html report.html comparison.json " \
	"comparison-2.json"

/*
 * The report directory becomes the message of mail.h: the two renderings
 * as alternatives, report.html and the comparisons (in name order)
 * attached byte for byte, and a subject with the worst verdict, package,
 * version and distinct device count.
 */
static void
report_dir_becomes_the_message(void **state)
{
	static const char *const to[] = { "team@example.com" };
	struct config *cfg = report_config();
	struct strbuf subject = STRBUF_INIT;
	char *dir = report_dir("report", REPORT_FILES), *eml = tmp("r.eml");
	struct mail_report_opts o = { to, 1, eml, &subject, 0 };
	char *parts, *report, *want;

	assert_int_equal(mail_send_report(&cfg->mail, dir, &o), 0);
	assert_string_equal(subject.buf, "[jankgate] REGRESSION: "
	    "com.example.feed 4.2.0 on 2 devices");
	report = parse(eml, &parts);
	assert_has_line(report, "defects 0");
	assert_has_line(report, "header Subject: [jankgate] REGRESSION: "
	    "com.example.feed 4.2.0 on 2 devices");
	assert_has_line(report, "header To: team@example.com");
	want = xasprintf("part 0 multipart/mixed - - -\n"
	    "part 1 multipart/alternative - - -\n"
	    "part 2 text/plain utf-8 - -\npart 2 text/html utf-8 - -\n"
	    "part 1 text/html utf-8 attachment report.html\n"
	    "part 1 application/json - attachment comparison-2.json\n"
	    "part 1 application/json - attachment comparison.json\n");
	assert_non_null(strstr(report, want));
	for (int i = 1; i <= 5; i++) {
		static const char *const names[] = { "email.txt",
			"email.html", "report.html", "comparison-2.json",
			"comparison.json" };
		char *path = xasprintf("%s/%s", dir, names[i - 1]);
		char *data = read_all(path);

		assert_part(parts, i, data, strlen(data));
		free(path);
		free(data);
	}
	free(want);
	free(report);
	free(parts);
	free(eml);
	free(dir);
	strbuf_release(&subject);
	config_free(cfg);
}

/*
 * The subject follows the comparisons: one passing device reads "PASS ...
 * on 1 device", an empty prefix adds no leading space, and line breaks in
 * package, version and device key become spaces, so the subject a caller
 * prints is the one sent.  A caller's exit status of 3 or 4 names the
 * night when no comparison regressed.
 */
static void
report_subject_follows_the_comparisons(void **state)
{
	static const char *const to[] = { "team@example.com" };
	struct config *cfg = report_config();
	struct strbuf subject = STRBUF_INIT;
	char *pass = report_dir("report", "email.txt comparison-2.json");
	char *hostile = report_dir("hostile", "email.txt comparison.json");
	char *eml = tmp("s.eml");
	struct mail_report_opts o = { to, 1, eml, &subject, 0 };

	free(cfg->mail.subject_prefix);
	cfg->mail.subject_prefix = xstrdup("");
	assert_int_equal(mail_send_report(&cfg->mail, pass, &o), 0);
	assert_string_equal(subject.buf, "PASS: com.example.feed 4.2.0 on "
	    "1 device");
	strbuf_reset(&subject);
	assert_int_equal(mail_send_report(&cfg->mail, hostile, &o), 0);
	assert_string_equal(subject.buf, "REGRESSION: com.example.feed Bcc: "
	    "evil@example.com 4.2.0 X-Injected: yes <b>body</b> on 1 device");
	/* The gate's status names a lost device, but never hides a
	 * regression. */
	o.status = 3;
	strbuf_reset(&subject);
	assert_int_equal(mail_send_report(&cfg->mail, pass, &o), 0);
	assert_string_equal(subject.buf, "INFRASTRUCTURE FAILURE: "
	    "com.example.feed 4.2.0 on 1 device");
	strbuf_reset(&subject);
	assert_int_equal(mail_send_report(&cfg->mail, hostile, &o), 0);
	assert_true(!strncmp(subject.buf, "REGRESSION: ", 12));
	o.status = 4;
	strbuf_reset(&subject);
	assert_int_equal(mail_send_report(&cfg->mail, pass, &o), 0);
	assert_string_equal(subject.buf, "INCONCLUSIVE: com.example.feed "
	    "4.2.0 on 1 device");
	free(pass);
	free(hostile);
	free(eml);
	strbuf_release(&subject);
	config_free(cfg);
}

/* `len` bytes of lines of text with an error string in, written to `path`. */
static void
write_big(const char *dir, const char *name, size_t len, const char *head,
    const char *tail)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xasprintf("%s/%s", dir, name);

	strbuf_addstr(&sb, head);
	while (sb.len < len)
		strbuf_addstr(&sb, "E/AndroidRuntime: java.lang.RuntimeException:"
		    " at com.example.feed.Adapter.bind(Adapter.java:42) \xe2\x80"
		    "\x94 again\n");
	strbuf_addstr(&sb, tail);
	assert_int_equal(file_write_atomic(path, sb.buf, sb.len, 0644), 0);
	strbuf_release(&sb);
	free(path);
}

/*
 * A report grown huge (a 50 MB error string in the results once made a
 * 72 MB mail) is held to mail.h's limits: the text cut at MAIL_TEXT_MAX
 * with a note naming what was left out and where, an HTML part over the
 * limit left out, report.html over MAIL_ATTACH_MAX left out while the
 * comparisons still go; the message stays well under 10 MB.
 */
static void
report_mail_is_held_to_its_limits(void **state)
{
	static const char *const to[] = { "team@example.com" };
	struct config *cfg = report_config();
	char *dir = report_dir("report", REPORT_FILES), *eml = tmp("big.eml");
	struct mail_report_opts o = { to, 1, eml, NULL, 0 };
	struct strbuf sb = STRBUF_INIT;
	char *parts, *report, *text, *path, *want;

	write_big(dir, "email.txt", 3 * MAIL_TEXT_MAX, "Night of 4.2.0\n", "");
	write_big(dir, "email.html", 2 * MAIL_TEXT_MAX, "<html><body><pre>",
	    "</pre></body></html>");
	write_big(dir, "report.html", MAIL_ATTACH_MAX + 1, "<html><body>",
	    "</body></html>");
	assert_int_equal(mail_send_report(&cfg->mail, dir, &o), 0);
	assert_int_equal(file_read(&sb, eml), 0);
	assert_true(sb.len < 2 * MAIL_TEXT_MAX + 2 * MAIL_ATTACH_MAX / 3);
	report = parse(eml, &parts);
	assert_has_line(report, "defects 0");
	want = xasprintf("part 0 multipart/mixed - - -\n"
	    "part 1 text/plain utf-8 - -\n"
	    "part 1 application/json - attachment comparison-2.json\n"
	    "part 1 application/json - attachment comparison.json\n");
	if (!strstr(report, want))
		fail_msg("want:\n%s\nin:\n%s", want, report);
	path = xasprintf("%s/part-1", parts);
	text = read_all(path);
	assert_true(strlen(text) <= MAIL_TEXT_MAX + 1024);
	assert_true(!strncmp(text, "Night of 4.2.0\n", 15));
	assert_non_null(strstr(text, "[Left out of this mail, to keep it "
	    "within its limits of 512 KiB of text and 4096 KiB of "
	    "attachments; the files are in "));
	assert_non_null(strstr(text, dir));
	assert_non_null(strstr(text, "\n  report.html (4096 KiB)\n"));
	assert_non_null(strstr(text, "\n  email.html, the HTML rendering of "
	    "this mail (1024 KiB)\n"));
	assert_non_null(strstr(text, "\n  the rest of email.txt, cut here "
	    "(1536 KiB in all)\n"));
	/* Cut at a line end: the line before the note is whole. */
	assert_non_null(strstr(text, "again\n\n[Left out"));
	free(want);
	free(path);
	free(text);
	free(report);
	free(parts);
	free(eml);
	free(dir);
	strbuf_release(&sb);
	config_free(cfg);
}

/*
 * Bad input is JG_EINVAL and found before any connection: no email.txt,
 * no comparison, an invalid comparison, no recipient, no server, a user
 * without a password and a password file that is not there.  The server
 * named meanwhile is a port nobody listens on, so a connection attempt
 * would show as JG_EIO instead.
 */
static void
report_bad_input_sends_nothing(void **state)
{
	static const char *const to[] = { "team@example.com" };
	struct config *cfg = report_config();
	char *good = report_dir("report", REPORT_FILES);
	char *notext = report_dir("report", "comparison.json");
	char *nocmp = report_dir("report", "email.txt email.html");
	char *badcmp = report_dir("report", "email.txt"), *path;
	struct mail_report_opts o = { to, 1, NULL, NULL, 0 };

	path = xasprintf("%s/comparison.json", badcmp);
	assert_int_equal(file_write_atomic(path, "{\"entries\": 1}", 14,
	    0644), 0);
	cfg->mail.server = xasprintf("smtp://127.0.0.1:%d", free_port());
	assert_int_equal(mail_send_report(&cfg->mail, notext, &o), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "email.txt is missing"));
	assert_int_equal(mail_send_report(&cfg->mail, nocmp, &o), JG_EINVAL);
	assert_int_equal(mail_send_report(&cfg->mail, badcmp, &o), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), path));

	o.nr_to = 0;
	assert_int_equal(mail_send_report(&cfg->mail, good, &o), JG_EINVAL);
	assert_string_equal(jg_error_msg(), "no recipients: set mail.to or "
	    "pass --to");
	strlist_add(&cfg->mail.to, "team@example.com");

	setenv("JANKGATE_SMTP_USER", USER, 1);
	assert_int_equal(mail_send_report(&cfg->mail, good, &o), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "no password"));
	cfg->mail.password_file = tmp("no-such-password");
	assert_int_equal(mail_send_report(&cfg->mail, good, &o), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "mail.password_file"));
	unsetenv("JANKGATE_SMTP_USER");

	free(cfg->mail.server);
	cfg->mail.server = NULL;
	assert_int_equal(mail_send_report(&cfg->mail, good, &o), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "no mail server"));
	free(path);
	free(good);
	free(notext);
	free(nocmp);
	free(badcmp);
	config_free(cfg);
}

/*
 * Sent for real: STARTTLS to a server whose certificate $SSL_CERT_FILE
 * trusts, AUTH with the user and password from the variables the config
 * names, and mail.to as the envelope.
 */
static void
report_sent_with_tls_and_auth(void **state)
{
	struct smtpd *s = smtpd_start("--starttls", cert, key, "--auth",
	    USER ":" PASSWORD, NULL);
	struct config *cfg = report_config();
	char *dir = report_dir("report", REPORT_FILES), *log;

	cfg->mail.server = xasprintf("smtp://127.0.0.1:%d", s->port);
	cfg->mail.tls = TLS_REQUIRED;
	strlist_add(&cfg->mail.to, "team@example.com");
	free(cfg->mail.user_env);
	free(cfg->mail.password_env);
	cfg->mail.user_env = xstrdup("JG_TEST_MAIL_USER");
	cfg->mail.password_env = xstrdup("JG_TEST_MAIL_PASSWORD");
	setenv("JG_TEST_MAIL_USER", USER, 1);
	setenv("JG_TEST_MAIL_PASSWORD", PASSWORD, 1);
	setenv("SSL_CERT_FILE", cert, 1);
	if (mail_send_report(&cfg->mail, dir, NULL) != 0)
		fail_msg("mail_send_report: %s", jg_error_msg());
	unsetenv("SSL_CERT_FILE");
	unsetenv("JG_TEST_MAIL_USER");
	unsetenv("JG_TEST_MAIL_PASSWORD");
	log = smtpd_log(s);
	assert_has_line(log, "auth PLAIN " USER " ok");
	assert_has_line(log, "mail jankgate@localhost tls=1 auth=" USER);
	assert_has_line(log, "data msg-1.eml team@example.com");
	smtpd_stop(s);
	free(log);
	free(dir);
	config_free(cfg);
}

static int
group_setup(void **state)
{
	struct proc_result r;
	const char *argv[] = { "openssl", "req", "-x509", "-newkey", "ec",
		"-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
		"-days", "2", "-subj", "/CN=localhost", "-addext",
		"subjectAltName=DNS:localhost,IP:127.0.0.1,"
		"DNS:mail.example.test", "-keyout", NULL, "-out", NULL, NULL };

	/* A send into a closed socket must be an error, not a death. */
	signal(SIGPIPE, SIG_IGN);
	key = tmp("key.pem");
	cert = tmp("cert.pem");
	argv[15] = key;
	argv[17] = cert;
	proc_result_init(&r);
	if (proc_run(&r, argv, NULL) < 0 || r.exit_code != 0) {
		fprintf(stderr, "openssl req: %s%s\n", jg_error_msg(), r.err.buf);
		proc_result_release(&r);
		return -1;
	}
	proc_result_release(&r);
	return 0;
}

static int
group_teardown(void **state)
{
	for (int i = 0; i < nr_servers; i++) {
		smtpd_stop(&servers[i]);
		free(servers[i].dir);
	}
	nr_servers = 0;
	free(cert);
	free(key);
	return 0;
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(built_message_parses_as_mime),
	cmocka_unit_test(bodies_round_trip),
	cmocka_unit_test(text_only_message_is_one_part),
	cmocka_unit_test(build_is_repeatable_with_fixed_id),
	cmocka_unit_test(hostile_subjects_stay_in_the_subject),
	cmocka_unit_test(hostile_names_and_addresses),
	cmocka_unit_test(address_split_table),
	cmocka_unit_test(tls_setting_parses),
	cmocka_unit_test(loopback_is_judged_on_the_host),
	cmocka_unit_test(transport_check_refuses_unsafe_settings),
	cmocka_unit_test(dry_run_writes_the_message),
	cmocka_unit_test(message_arrives_as_valid_mime),
	cmocka_unit_test(dry_run_is_what_is_sent),
	cmocka_unit_test(starttls_with_test_ca),
	cmocka_unit_test(starttls_refuses_unknown_certificate),
	cmocka_unit_test(tls_required_off_loopback),
	cmocka_unit_test(clear_password_off_loopback_never_connects),
	cmocka_unit_test(smtps_with_auth_plain),
	cmocka_unit_test(refused_login_is_auth_error_without_secrets),
	cmocka_unit_test(temporary_failure_is_retried),
	cmocka_unit_test(retries_are_bounded),
	cmocka_unit_test_teardown(cancel_ends_the_retries, unit_cancel_forget),
	cmocka_unit_test(permanent_refusal_is_not_retried),
	cmocka_unit_test(server_down_is_io_error),
	cmocka_unit_test(silent_server_times_out),
	cmocka_unit_test(report_dir_becomes_the_message),
	cmocka_unit_test(report_subject_follows_the_comparisons),
	cmocka_unit_test(report_mail_is_held_to_its_limits),
	cmocka_unit_test(report_bad_input_sends_nothing),
	cmocka_unit_test(report_sent_with_tls_and_auth),
};

JG_UNIT_GROUP(mail, tests, group_setup, group_teardown)
