/*
 * mail.c: sending the report mail over SMTP with libcurl (see mail.h).
 *
 * The message is built once (mime.c) and handed to libcurl from memory, so
 * each retry sends the same bytes the dry run writes.  Before connecting,
 * the URL is parsed with libcurl's own parser (the host it will dial is the
 * host we judge), the TLS policy is decided from it, and anything that
 * would put a password in clear text on the network is refused.
 *
 * Every attempt uses a fresh handle and connection.  A debug callback keeps
 * the last reply the server sent before QUIT: its code tells a transient
 * failure (4xx) from a final one (5xx) better than libcurl's error code,
 * which maps most SMTP refusals to one of two values; its text goes into the
 * error message.  Failures without a reply (refused connection, reset,
 * timeout) are transient; TLS problems never are, since retrying cannot
 * make a certificate valid.
 *
 * A cancel (cancel.h) ends the attempt in flight through libcurl's
 * progress callback, before the message's end is sent when it comes in
 * time, and the waits between attempts: a cancelled mail is not sent.
 *
 * Credentials reach libcurl and nothing else: every message is scrubbed of
 * the user and password, in case a server or libcurl echoes them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include <curl/curl.h>

#include "cancel.h"
#include "error.h"
#include "mail.h"
#include "strbuf.h"
#include "banned.h"

#define DEFAULT_TIMEOUT_S 60
#define DEFAULT_BACKOFF_MS 1000
#define BACKOFF_MAX_MS 60000
#define REPLY_MAX 300		/* characters of a server reply we keep */

/* The server a URL names, as libcurl will dial it. */
struct server {
	int implicit_tls;	/* smtps:// */
	int loopback;
	char shown[320];	/* "smtp://host:port", for messages */
};

/* One attempt: what it hands libcurl, and what it saw. */
struct attempt {
	const char *data;	/* the message, fed to libcurl */
	size_t len, pos;
	struct curl_slist *rcpt;
	struct curl_slist *resolve;
	int quitting;		/* replies after QUIT say nothing useful */
	int reply_code;		/* the last complete reply, or 0 */
	struct strbuf reply;
	struct strbuf partial;	/* lines of a multi-line reply so far */
	char errbuf[CURL_ERROR_SIZE];
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void
curl_init(void)
{
	curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int
mail_tls_parse(const char *s, int *out)
{
	static const char *const names[] = { "auto", "required", "none" };

	for (int i = 0; i < 3; i++) {
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	return jg_error_set(JG_EINVAL, "invalid mail tls setting '%s' "
	    "(expected auto, required or none)", s);
}

/*
 * `url` fit for an error message when it did not parse: any user
 * information is masked (it may hold a password) and controls shown as '?'.
 */
static const char *
url_shown(struct strbuf *tmp, const char *url)
{
	const char *auth = strstr(url, "://");
	const char *end, *at;

	strbuf_reset(tmp);
	if (auth) {
		auth += 3;
		end = auth + strcspn(auth, "/?#");
		at = memrchr(auth, '@', end - auth);
		if (at) {
			strbuf_add(tmp, url, auth - url);
			strbuf_addstr(tmp, "***");
			url = at;
		}
	}
	for (; *url && tmp->len < 200; url++)
		strbuf_addch(tmp, (unsigned char)*url < 0x20 ? '?' : *url);
	return tmp->buf;
}

static int
host_is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;
	char inner[INET6_ADDRSTRLEN + 16];
	size_t len = strlen(host);

	if (!strcasecmp(host, "localhost") || !strcasecmp(host, "localhost."))
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return ntohl(a4.s_addr) >> 24 == 127;
	if (len < 3 || host[0] != '[' || host[len - 1] != ']' ||
	    len - 2 >= sizeof(inner))
		return 0;
	memcpy(inner, host + 1, len - 2);
	inner[len - 2] = '\0';
	inner[strcspn(inner, "%")] = '\0';	/* a zone id */
	if (inet_pton(AF_INET6, inner, &a6) != 1)
		return 0;
	return IN6_IS_ADDR_LOOPBACK(&a6) ||
	    (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
}

static int
server_parse(struct server *srv, const char *url)
{
	struct strbuf tmp = STRBUF_INIT;
	char *scheme = NULL, *host = NULL, *port = NULL, *part = NULL;
	CURLU *u;
	int rc = 0;

	pthread_once(&curl_once, curl_init);
	memset(srv, 0, sizeof(*srv));
	u = curl_url();
	if (!u)
		abort();	/* out of memory, as in xmalloc */
	if (!url || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) !=
	    CURLUE_OK) {
		rc = jg_error_set(JG_EINVAL, "invalid mail url '%s'",
		    url_shown(&tmp, url ? url : ""));
		goto out;
	}
	if (strcmp(scheme, "smtp") && strcmp(scheme, "smtps")) {
		rc = jg_error_set(JG_EINVAL, "mail url '%s' is not smtp:// "
		    "or smtps://", url_shown(&tmp, url));
		goto out;
	}
	if (curl_url_get(u, CURLUPART_USER, &part, 0) == CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PASSWORD, &part, 0) == CURLUE_OK) {
		rc = jg_error_set(JG_EINVAL, "mail url '%s' holds credentials; "
		    "pass the user and password separately",
		    url_shown(&tmp, url));
		goto out;
	}
	srv->implicit_tls = !strcmp(scheme, "smtps");
	srv->loopback = host_is_loopback(host);
	snprintf(srv->shown, sizeof(srv->shown), "%s://%s:%s", scheme, host,
	    port);
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(part);
	curl_url_cleanup(u);
	strbuf_release(&tmp);
	return rc;
}

int
mail_url_is_loopback(const char *url)
{
	struct server srv;
	int rc = server_parse(&srv, url);

	return rc < 0 ? rc : srv.loopback;
}

/* Decide whether STARTTLS is required, refusing unsafe combinations. */
static int
policy(const struct server *srv, const struct mail_transport *t,
    int *starttls)
{
	int has_password = t->password && *t->password;

	if (t->tls < MAIL_TLS_AUTO || t->tls > MAIL_TLS_NONE)
		return jg_error_set(JG_EINVAL, "invalid mail tls setting %d",
		    t->tls);
	*starttls = !srv->implicit_tls && (t->tls == MAIL_TLS_REQUIRED ||
	    (t->tls == MAIL_TLS_AUTO && !srv->loopback));
	if (!srv->implicit_tls && !*starttls && !srv->loopback && has_password)
		return jg_error_set(JG_EINVAL, "refusing to send a password "
		    "in clear text to '%s'; use STARTTLS or smtps://",
		    srv->shown);
	return 0;
}

int
mail_transport_check(const struct mail_transport *t)
{
	struct server srv;
	int starttls;
	int rc = server_parse(&srv, t->url);

	return rc < 0 ? rc : policy(&srv, t, &starttls);
}

static size_t
on_read(char *buf, size_t size, size_t nitems, void *ctx)
{
	struct attempt *at = ctx;
	size_t n = size * nitems;

	if (cancel_pending())
		return CURL_READFUNC_ABORT;	/* the end is never sent */
	if (n > at->len - at->pos)
		n = at->len - at->pos;
	memcpy(buf, at->data + at->pos, n);
	at->pos += n;
	return n;
}

/* Called by libcurl while it waits: non-zero abandons the attempt. */
static int
on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	return cancel_pending();
}

/* One reply line from the server: "250-more" continues, "250 end" ends. */
static void
reply_line(struct attempt *at, const char *line, size_t len)
{
	int code;

	if (len < 3 || line[0] < '1' || line[0] > '5' ||
	    line[1] < '0' || line[1] > '9' || line[2] < '0' || line[2] > '9')
		return;
	code = (line[0] - '0') * 100 + (line[1] - '0') * 10 + line[2] - '0';
	/* Continuation lines lose their "250-" and join with a space. */
	if (at->partial.len)
		strbuf_addch(&at->partial, ' ');
	for (size_t i = at->partial.len ? 4 : 0; i < len; i++) {
		if (at->partial.len >= REPLY_MAX)
			break;
		strbuf_addch(&at->partial, (unsigned char)line[i] < 0x20 ||
		    line[i] == 0x7f ? '?' : line[i]);
	}
	if (len > 3 && line[3] == '-')
		return;
	strbuf_reset(&at->reply);
	strbuf_add(&at->reply, at->partial.buf, at->partial.len);
	strbuf_reset(&at->partial);
	at->reply_code = code;
}

static int
on_debug(CURL *h, curl_infotype type, char *data, size_t size, void *ctx)
{
	struct attempt *at = ctx;

	if (type == CURLINFO_HEADER_OUT && size >= 4 &&
	    !strncasecmp(data, "QUIT", 4))
		at->quitting = 1;
	if (type != CURLINFO_HEADER_IN || at->quitting)
		return 0;
	while (size) {
		char *nl = memchr(data, '\n', size);
		size_t n = nl ? (size_t)(nl - data) + 1 : size, len = n;

		while (len && (data[len - 1] == '\n' || data[len - 1] == '\r'))
			len--;
		reply_line(at, data, len);
		data += n;
		size -= n;
	}
	return 0;
}

/* Append `s` to `out` with every occurrence of the secrets masked. */
static void
add_scrubbed(struct strbuf *out, const char *s, const char *user,
    const char *password)
{
	const char *secrets[] = { password, user };

	while (*s) {
		size_t skip = 0;

		for (int i = 0; i < 2 && !skip; i++) {
			size_t n = secrets[i] ? strlen(secrets[i]) : 0;

			if (n && !strncmp(s, secrets[i], n))
				skip = n;
		}
		if (skip) {
			strbuf_addstr(out, "***");
			s += skip;
		} else {
			strbuf_addch(out, *s++);
		}
	}
}

/*
 * Sort a failed attempt: returns the JG_E* code and sets *transient.  The
 * server's reply decides when it refused something; libcurl's code decides
 * when the failure was below SMTP.
 */
static int
classify(CURLcode cc, const struct attempt *at, int *transient)
{
	int reply = at->reply_code;
	int auth = cc == CURLE_LOGIN_DENIED || reply == 454 || reply == 530 ||
	    reply == 534 || reply == 535 || reply == 538;

	if (reply >= 400) {
		*transient = reply < 500;
		return auth ? JG_EAUTH : JG_EIO;
	}
	switch (cc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
		*transient = 1;
		return JG_EIO;
	case CURLE_OPERATION_TIMEDOUT:
		*transient = 1;
		return JG_ETIMEOUT;
	default:
		*transient = 0;
		return auth ? JG_EAUTH : JG_EIO;
	}
}

/* Set the options of one attempt; at->rcpt and at->resolve are filled. */
static void
setup(CURL *h, const struct mail_transport *t, int starttls,
    const char *from, const struct strbuf *rcpts, struct attempt *at)
{
	long timeout = t->timeout_s > 0 ? t->timeout_s : DEFAULT_TIMEOUT_S;

	for (size_t i = 0; i < rcpts->len; i += strlen(rcpts->buf + i) + 1)
		at->rcpt = curl_slist_append(at->rcpt, rcpts->buf + i);
	if (t->resolve)
		at->resolve = curl_slist_append(NULL, t->resolve);
	curl_easy_setopt(h, CURLOPT_URL, t->url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_USE_SSL,
	    (long)(starttls ? CURLUSESSL_ALL : CURLUSESSL_NONE));
	curl_easy_setopt(h, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
	if (t->ca_file)
		curl_easy_setopt(h, CURLOPT_CAINFO, t->ca_file);
	if (t->user && *t->user) {
		curl_easy_setopt(h, CURLOPT_USERNAME, t->user);
		curl_easy_setopt(h, CURLOPT_PASSWORD,
		    t->password ? t->password : "");
	}
	curl_easy_setopt(h, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT, at->rcpt);
	curl_easy_setopt(h, CURLOPT_RESOLVE, at->resolve);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
	curl_easy_setopt(h, CURLOPT_READDATA, at);
	curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)at->len);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, timeout);
	curl_easy_setopt(h, CURLOPT_SERVER_RESPONSE_TIMEOUT, timeout);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, at->errbuf);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	/* The debug callback sees the replies; nothing is printed. */
	curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
	curl_easy_setopt(h, CURLOPT_DEBUGDATA, at);
}

/*
 * One connection, one try.  Returns 0 or a JG_E* code with *transient set
 * and `why` holding what went wrong (not yet scrubbed).
 */
static int
attempt(const struct mail_transport *t, int starttls, const char *from,
    const struct strbuf *rcpts, const struct strbuf *msg, int *transient,
    struct strbuf *why)
{
	struct attempt at = { .data = msg->buf, .len = msg->len };
	CURLcode cc;
	CURL *h;
	int rc;

	if (cancel_pending()) {
		strbuf_addstr(why, "interrupted");
		return JG_EINTR;
	}
	h = curl_easy_init();
	if (!h)
		abort();	/* out of memory, as in xmalloc */
	strbuf_init(&at.reply, 0);
	strbuf_init(&at.partial, 0);
	setup(h, t, starttls, from, rcpts, &at);
	cc = curl_easy_perform(h);
	/* Cleanup sends QUIT; its reply must not replace the real one. */
	at.quitting = 1;
	curl_easy_cleanup(h);
	curl_slist_free_all(at.rcpt);
	curl_slist_free_all(at.resolve);
	if (cc == CURLE_ABORTED_BY_CALLBACK || (cc != CURLE_OK &&
	    cancel_pending())) {
		*transient = 0;
		rc = JG_EINTR;
	} else {
		rc = cc == CURLE_OK ? 0 : classify(cc, &at, transient);
	}
	if (rc == JG_EINTR)
		strbuf_addstr(why, "interrupted");
	else if (rc < 0) {
		strbuf_addstr(why, at.errbuf[0] ? at.errbuf :
		    curl_easy_strerror(cc));
		if (at.reply_code >= 400)
			strbuf_addf(why, " (server said '%s')", at.reply.buf);
	}
	strbuf_release(&at.reply);
	strbuf_release(&at.partial);
	return rc;
}

/* Sleep `ms`; 0, or JG_EINTR as soon as a cancel is seen. */
static int
sleep_ms(long ms)
{
	while (ms > 0) {
		long slice = ms < CANCEL_POLL_MS ? ms : CANCEL_POLL_MS;
		struct timespec ts = { 0, slice * 1000000L };

		if (cancel_pending())
			return JG_EINTR;
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		ms -= slice;
	}
	return cancel_pending() ? JG_EINTR : 0;
}

/*
 * The wait before retry `n` (1-based): the base doubled each time, capped,
 * plus up to a quarter more at random so that many gates failing together
 * do not come back together.
 */
static long
backoff_ms(const struct mail_transport *t, int n)
{
	long ms = t->backoff_ms > 0 ? t->backoff_ms : DEFAULT_BACKOFF_MS;
	uint32_t r = 0;

	for (int i = 1; i < n && ms < BACKOFF_MAX_MS; i++)
		ms *= 2;
	if (ms > BACKOFF_MAX_MS)
		ms = BACKOFF_MAX_MS;
	if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		r = 0;
	return ms + (long)(r % 1000) * (ms / 4) / 1000;
}

/* The envelope: the sender's address and NUL-separated recipients. */
static int
envelope(const struct mail_message *m, struct strbuf *from,
    struct strbuf *rcpts)
{
	int rc = mail_address_split(m->from, NULL, from);

	for (size_t i = 0; !rc && i < m->nr_to; i++) {
		rc = mail_address_split(m->to[i], NULL, rcpts);
		strbuf_addch(rcpts, '\0');
	}
	return rc;
}

int
mail_send(const struct mail_message *m, const struct mail_transport *t)
{
	struct strbuf msg = STRBUF_INIT, from = STRBUF_INIT;
	struct strbuf rcpts = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	struct server srv;
	int starttls, transient = 0, n, rc;

	rc = server_parse(&srv, t->url);
	if (!rc)
		rc = policy(&srv, t, &starttls);
	if (!rc)
		rc = mail_build(m, &msg);
	if (!rc)
		rc = envelope(m, &from, &rcpts);
	if (rc < 0)
		goto out;
	if (curl_init_rc != CURLE_OK) {
		rc = jg_error_set(JG_EIO, "cannot initialize libcurl: %s",
		    curl_easy_strerror(curl_init_rc));
		goto out;
	}
	for (n = 1;; n++) {
		strbuf_reset(&why);
		rc = attempt(t, starttls, from.buf, &rcpts, &msg, &transient,
		    &why);
		if (!rc || !transient || n > t->retries)
			break;
		if ((rc = sleep_ms(backoff_ms(t, n)))) {
			strbuf_reset(&why);
			strbuf_addstr(&why, "interrupted");
			break;
		}
	}
	if (rc < 0) {
		strbuf_addf(&text, "cannot send mail via '%s'", srv.shown);
		if (n > 1)
			strbuf_addf(&text, " (%d attempts)", n);
		strbuf_addstr(&text, ": ");
		add_scrubbed(&text, why.buf, t->user, t->password);
		rc = jg_error_set(rc, "%s", text.buf);
	}
out:
	strbuf_release(&msg);
	strbuf_release(&from);
	strbuf_release(&rcpts);
	strbuf_release(&why);
	strbuf_release(&text);
	return rc;
}
