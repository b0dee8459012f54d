/*
 * websocket.c: the RFC 6455 client of websocket.h.
 *
 * Opening handshake (RFC 6455 §4): one HTTP/1.1 request, one answer.
 *
 *	GET /refresh HTTP/1.1                 HTTP/1.1 101 Switching Protocols
 *	Host: 127.0.0.1:40123                 Upgrade: websocket
 *	Upgrade: websocket                    Connection: Upgrade
 *	Connection: Upgrade                   Sec-WebSocket-Accept: <base64
 *	Sec-WebSocket-Key: <16 random bytes,      SHA-1(key + GUID)>
 *	    base64>
 *	Sec-WebSocket-Version: 13
 *
 * Then frames (§5.2), in both directions:
 *
 *	 0               1               2               3
 *	|F|R R R|opcode |M| len (7)     | len 16 (len 126) or 64 (127)  |
 *	| masking key (4 bytes, client frames only) | payload (masked)  |
 *
 * Opcodes: 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong.
 * Every client frame is masked with a fresh random key; a server frame
 * must not be.  Control frames are whole (FIN) and carry at most 125
 * bytes.  No extension is negotiated, so any RSV bit is an error.
 *
 * The socket is non-blocking and every wait is a poll() against one
 * deadline per call, so a silent peer costs at most the caller's timeout.
 * SHA-1 and base64 are here because the handshake is their only use.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "cancel.h"
#include "error.h"
#include "hash.h"
#include "monoclock.h"
#include "strbuf.h"
#include "websocket.h"
#include "xalloc.h"
#include "banned.h"

#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#define MAX_HANDSHAKE 16384
#define CLOSE_WAIT_MS 1000

enum {
	OP_CONT = 0x0,
	OP_TEXT = 0x1,
	OP_BINARY = 0x2,
	OP_CLOSE = 0x8,
	OP_PING = 0x9,
	OP_PONG = 0xa,
};

struct websocket {
	int fd;
	int timeout_ms;
	char *name;		/* "HOST:PORT/PATH", for messages */
	struct strbuf in;	/* received bytes not yet taken as frames */
	struct strbuf frame;	/* the payload of the frame being read */
	int close_sent;
	int close_seen;
};

void
websocket_accept_key(char out[29], const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char digest[HASH_SHA1_SIZE];

	strbuf_addf(&sb, "%s%s", key, WS_GUID);
	hash_sha1(digest, sb.buf, sb.len);
	strbuf_reset(&sb);
	base64_add(&sb, digest, sizeof(digest));
	snprintf(out, 29, "%s", sb.buf);
	strbuf_release(&sb);
}

/*
 * Masking keys and the handshake nonce only need to be unpredictable to
 * a peer that is our own adb forward; getrandom() is used when it works,
 * a clock-seeded xorshift when it does not (no entropy at early boot).
 */
static void
random_bytes(unsigned char *buf, size_t len)
{
	static _Thread_local uint64_t x;
	struct timespec ts;

	if (getrandom(buf, len, GRND_NONBLOCK) == (ssize_t)len)
		return;
	if (!x) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
		    (uint64_t)getpid() ^ (uint64_t)(uintptr_t)buf;
		x |= 1;
	}
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = (unsigned char)x;
	}
}

/* ---- bytes on the socket ------------------------------------------- */

static int
ws_err(const struct websocket *ws, int code, const char *what)
{
	return jg_error_set(code, "websocket '%s': %s", ws->name, what);
}

/* Wait for `events` on the socket until `deadline` (monoclock_real_ms()). */
static int
wait_fd(struct websocket *ws, short events, long long deadline)
{
	struct pollfd pf = { ws->fd, events, 0 };

	for (;;) {
		long long left = deadline - monoclock_real_ms();
		int n, slice;

		if (cancel_pending())
			return jg_error_set(JG_EINTR, "websocket '%s': "
			    "interrupted", ws->name);
		/* In slices, so a cancel is seen while the peer is silent. */
		slice = left < 0 ? 0 : left > CANCEL_POLL_MS ? CANCEL_POLL_MS :
		    (int)left;
		n = poll(&pf, 1, slice);
		if (n > 0)
			return 0;
		if (n == 0 && slice < CANCEL_POLL_MS)
			return jg_error_set(JG_ETIMEOUT, "websocket '%s': no "
			    "answer within %d ms", ws->name, ws->timeout_ms);
		if (n < 0 && errno != EINTR)
			return jg_error_errno(JG_EIO, errno, "websocket '%s': "
			    "poll", ws->name);
	}
}

static int
write_all(struct websocket *ws, const void *buf, size_t len,
    long long deadline)
{
	const char *p = buf;
	int rc;

	while (len) {
		ssize_t n = send(ws->fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if ((rc = wait_fd(ws, POLLOUT, deadline)))
					return rc;
				continue;
			}
			if (errno == EPIPE || errno == ECONNRESET)
				return ws_err(ws, JG_ECLOSED, "connection "
				    "closed while sending");
			return jg_error_errno(JG_EIO, errno, "websocket '%s': "
			    "send", ws->name);
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read until ws->in holds at least `need` bytes. */
static int
fill(struct websocket *ws, size_t need, long long deadline)
{
	char buf[65536];
	int rc;

	while (ws->in.len < need) {
		ssize_t n = recv(ws->fd, buf, sizeof(buf), 0);

		if (n > 0) {
			strbuf_add(&ws->in, buf, (size_t)n);
			continue;
		}
		if (n == 0)
			return ws_err(ws, JG_ECLOSED, "connection closed by "
			    "the peer");
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if ((rc = wait_fd(ws, POLLIN, deadline)))
				return rc;
			continue;
		}
		if (errno == ECONNRESET)
			return ws_err(ws, JG_ECLOSED, "connection reset by "
			    "the peer");
		return jg_error_errno(JG_EIO, errno, "websocket '%s': recv",
		    ws->name);
	}
	return 0;
}

static int
tcp_connect(struct websocket *ws, const char *host, int port,
    long long deadline)
{
	struct addrinfo hints, *res = NULL, *ai;
	char service[16];
	int rc, err = ECONNREFUSED;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof(service), "%d", port);
	if ((rc = getaddrinfo(host, service, &hints, &res)))
		return jg_error_set(JG_EIO, "websocket '%s': cannot resolve "
		    "'%s': %s", ws->name, host, gai_strerror(rc));
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		socklen_t sl = sizeof(err);

		if (fd < 0) {
			err = errno;
			continue;
		}
		ws->fd = fd;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) &&
		    errno != EINPROGRESS) {
			err = errno;
		} else if (wait_fd(ws, POLLOUT, deadline)) {
			err = ETIMEDOUT;
		} else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &sl)) {
			err = errno;
		}
		if (!err)
			break;
		close(fd);
		ws->fd = -1;
	}
	freeaddrinfo(res);
	if (ws->fd < 0)
		return jg_error_errno(err == ETIMEDOUT ? JG_ETIMEOUT : JG_EIO,
		    err, "websocket '%s': cannot connect", ws->name);
	return 0;
}

/* ---- the handshake ------------------------------------------------- */

/* 1 when the comma-separated header value `v` holds `token`. */
static int
has_token(const char *v, size_t len, const char *token)
{
	size_t tl = strlen(token);

	while (len) {
		size_t n = 0;

		while (len && (*v == ' ' || *v == '\t' || *v == ','))
			v++, len--;
		while (n < len && v[n] != ',')
			n++;
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		if (n == tl && !strncasecmp(v, token, tl))
			return 1;
		while (len && *v != ',')
			v++, len--;
	}
	return 0;
}

/* The printable head of the status line, for the refusal message. */
static void
status_line(struct strbuf *out, const char *p, size_t len)
{
	for (size_t i = 0; i < len && i < 80 && p[i] != '\r' && p[i] != '\n';
	    i++)
		strbuf_addch(out, p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '?');
}

static int
check_answer(struct websocket *ws, const char *head, size_t len,
    const char *accept)
{
	int upgrade = 0, connection = 0, accepted = 0;
	const char *p = head, *end = head + len;
	struct strbuf st = STRBUF_INIT;
	int rc;

	if (len < 12 || memcmp(head, "HTTP/1.", 7) ||
	    memcmp(head + 8, " 101", 4)) {
		status_line(&st, head, len);
		rc = jg_error_set(JG_EPROTO, "websocket '%s': handshake "
		    "refused: '%s'", ws->name, st.buf);
		strbuf_release(&st);
		return rc;
	}
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *colon, *v, *ve;

		if (!eol)
			eol = end;
		ve = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
		colon = memchr(p, ':', (size_t)(ve - p));
		if (colon) {
			size_t nl = (size_t)(colon - p);

			for (v = colon + 1; v < ve && (*v == ' ' || *v == '\t');
			    v++)
				;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			if (nl == 7 && !strncasecmp(p, "upgrade", 7))
				upgrade = has_token(v, (size_t)(ve - v),
				    "websocket");
			else if (nl == 10 && !strncasecmp(p, "connection", 10))
				connection = has_token(v, (size_t)(ve - v),
				    "upgrade");
			else if (nl == 20 &&
			    !strncasecmp(p, "sec-websocket-accept", 20))
				accepted = (size_t)(ve - v) == strlen(accept) &&
				    !memcmp(v, accept, strlen(accept));
		}
		p = eol + 1;
	}
	if (!upgrade || !connection)
		return ws_err(ws, JG_EPROTO, "the answer does not upgrade "
		    "to a websocket");
	if (!accepted)
		return ws_err(ws, JG_EPROTO, "wrong or missing "
		    "Sec-WebSocket-Accept");
	return 0;
}

static int
handshake(struct websocket *ws, const char *host, int port,
    const char *path, long long deadline)
{
	unsigned char nonce[16];
	char key[25], accept[29];
	struct strbuf req = STRBUF_INIT;
	char *end = NULL;
	size_t head;
	int rc;

	random_bytes(nonce, sizeof(nonce));
	base64_add(&req, nonce, sizeof(nonce));
	snprintf(key, sizeof(key), "%s", req.buf);
	strbuf_reset(&req);
	websocket_accept_key(accept, key);
	strbuf_addf(&req, "GET %s HTTP/1.1\r\nHost: %s:%d\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
	    path, host, port, key);
	rc = write_all(ws, req.buf, req.len, deadline);
	strbuf_release(&req);
	if (rc)
		return rc;
	while (!(end = memmem(ws->in.buf, ws->in.len, "\r\n\r\n", 4))) {
		if (ws->in.len > MAX_HANDSHAKE)
			return ws_err(ws, JG_EPROTO, "handshake answer too "
			    "long");
		rc = fill(ws, ws->in.len + 1, deadline);
		if (rc == JG_ECLOSED)
			return ws_err(ws, rc, "connection closed during the "
			    "handshake (is the server running?)");
		if (rc)
			return rc;
	}
	head = (size_t)(end - ws->in.buf) + 4;
	if ((rc = check_answer(ws, ws->in.buf, head, accept)))
		return rc;
	/* Frames the server sent right after its answer stay queued. */
	strbuf_remove(&ws->in, 0, head);
	return 0;
}

int
websocket_connect(struct websocket **out, const char *host, int port,
    const char *path, int timeout_ms)
{
	struct websocket *ws = xcalloc(1, sizeof(*ws));
	long long deadline;
	int rc;

	*out = NULL;
	ws->fd = -1;
	ws->timeout_ms = timeout_ms > 0 ? timeout_ms : 5000;
	ws->name = xasprintf("%s:%d%s", host, port, path);
	strbuf_init(&ws->in, 0);
	strbuf_init(&ws->frame, 0);
	deadline = monoclock_real_ms() + ws->timeout_ms;
	if ((rc = tcp_connect(ws, host, port, deadline)) ||
	    (rc = handshake(ws, host, port, path, deadline))) {
		ws->close_seen = 1;	/* nothing to close politely */
		websocket_free(ws);
		return rc;
	}
	*out = ws;
	return 0;
}

/* ---- frames -------------------------------------------------------- */

static int
send_frame(struct websocket *ws, int opcode, const void *data, size_t len,
    long long deadline)
{
	struct strbuf f = STRBUF_INIT;
	unsigned char hdr[14], *mask;
	const unsigned char *p = data;
	size_t n = 0, i;
	int rc;

	hdr[n++] = (unsigned char)(0x80 | opcode);
	if (len < 126) {
		hdr[n++] = (unsigned char)(0x80 | len);
	} else if (len <= 0xffff) {
		hdr[n++] = 0x80 | 126;
		hdr[n++] = (unsigned char)(len >> 8);
		hdr[n++] = (unsigned char)len;
	} else {
		hdr[n++] = 0x80 | 127;
		for (i = 0; i < 8; i++)
			hdr[n++] = (unsigned char)((uint64_t)len >>
			    (56 - 8 * i));
	}
	mask = hdr + n;
	random_bytes(mask, 4);
	n += 4;
	strbuf_grow(&f, n + len);
	strbuf_add(&f, hdr, n);
	for (i = 0; i < len; i++)
		strbuf_addch(&f, p[i] ^ mask[i % 4]);
	rc = write_all(ws, f.buf, f.len, deadline);
	strbuf_release(&f);
	return rc;
}

int
websocket_send_text(struct websocket *ws, const char *text, size_t len)
{
	if (ws->close_sent || ws->close_seen)
		return ws_err(ws, JG_ECLOSED, "the connection is closing");
	return send_frame(ws, OP_TEXT, text, len,
	    monoclock_real_ms() + ws->timeout_ms);
}

/*
 * Take one frame off the connection: its payload in ws->frame, its FIN
 * bit and opcode in *fin and *opcode.
 */
static int
read_frame(struct websocket *ws, int *fin, int *opcode, long long deadline)
{
	const unsigned char *h;
	uint64_t len;
	size_t hl = 2;
	int rc;

	if ((rc = fill(ws, 2, deadline)))
		return rc;
	h = (const unsigned char *)ws->in.buf;
	if (h[0] & 0x70)
		return ws_err(ws, JG_EPROTO, "frame with reserved bits set");
	if (h[1] & 0x80)
		return ws_err(ws, JG_EPROTO, "masked frame from the server");
	*fin = !!(h[0] & 0x80);
	*opcode = h[0] & 0x0f;
	len = h[1] & 0x7f;
	if (len == 126)
		hl = 4;
	else if (len == 127)
		hl = 10;
	if ((rc = fill(ws, hl, deadline)))
		return rc;
	h = (const unsigned char *)ws->in.buf;
	if (hl == 4) {
		len = (uint64_t)h[2] << 8 | h[3];
	} else if (hl == 10) {
		len = 0;
		for (int i = 0; i < 8; i++)
			len = len << 8 | h[2 + i];
	}
	if (*opcode >= OP_CLOSE && (!*fin || len > 125))
		return ws_err(ws, JG_EPROTO, "fragmented or oversized "
		    "control frame");
	if (len > WEBSOCKET_MAX_MESSAGE)
		return ws_err(ws, JG_EPROTO, "frame larger than the message "
		    "limit");
	if ((rc = fill(ws, hl + (size_t)len, deadline)))
		return rc;
	strbuf_reset(&ws->frame);
	strbuf_add(&ws->frame, ws->in.buf + hl, (size_t)len);
	strbuf_remove(&ws->in, 0, hl + (size_t)len);
	return 0;
}

/* Answer a close frame with the same status, as §5.5.1 asks. */
static void
answer_close(struct websocket *ws, long long deadline)
{
	ws->close_seen = 1;
	if (!ws->close_sent) {
		ws->close_sent = 1;
		/* The peer is leaving: a failed echo changes nothing. */
		(void)send_frame(ws, OP_CLOSE, ws->frame.buf,
		    ws->frame.len >= 2 ? 2 : 0, deadline);
	}
}

int
websocket_recv(struct websocket *ws, struct strbuf *msg, int timeout_ms)
{
	long long deadline = monoclock_real_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	int in_message = 0, fin = 0, opcode = 0, rc;

	strbuf_reset(msg);
	if (ws->close_seen)
		return ws_err(ws, JG_ECLOSED, "the connection is closed");
	for (;;) {
		if ((rc = read_frame(ws, &fin, &opcode, deadline)))
			return rc;
		switch (opcode) {
		case OP_PING:
			if ((rc = send_frame(ws, OP_PONG, ws->frame.buf,
			    ws->frame.len, deadline)))
				return rc;
			continue;
		case OP_PONG:
			continue;
		case OP_CLOSE:
			answer_close(ws, deadline);
			return 0;
		case OP_CONT:
			if (!in_message)
				return ws_err(ws, JG_EPROTO, "continuation "
				    "frame outside a message");
			break;
		case OP_TEXT:
		case OP_BINARY:
			if (in_message)
				return ws_err(ws, JG_EPROTO, "new message "
				    "inside a fragmented one");
			in_message = 1;
			break;
		default:
			return ws_err(ws, JG_EPROTO, "unknown opcode");
		}
		if (msg->len + ws->frame.len > WEBSOCKET_MAX_MESSAGE)
			return ws_err(ws, JG_EPROTO, "message larger than "
			    "the limit");
		strbuf_add(msg, ws->frame.buf, ws->frame.len);
		if (fin)
			return 1;
	}
}

/*
 * The closing handshake of websocket_free(): send a close frame (1000,
 * normal) and read until the peer closes the TCP connection or a short
 * wait ends.  It uses the socket directly so that freeing never touches
 * the error message a caller may be about to print.
 */
static void
close_quietly(struct websocket *ws)
{
	unsigned char frame[8] = { 0x80 | OP_CLOSE, 0x80 | 2 };
	long long deadline = monoclock_real_ms() + CLOSE_WAIT_MS;
	char buf[4096];

	random_bytes(frame + 2, 4);
	frame[6] = 0x03 ^ frame[2];
	frame[7] = 0xe8 ^ frame[3];
	if (!ws->close_sent &&
	    send(ws->fd, frame, sizeof(frame), MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(frame))
		return;
	for (;;) {
		struct pollfd pf = { ws->fd, POLLIN, 0 };
		long long left = deadline - monoclock_real_ms();

		if (left <= 0 || poll(&pf, 1, (int)left) <= 0 ||
		    recv(ws->fd, buf, sizeof(buf), 0) <= 0)
			return;
	}
}

void
websocket_free(struct websocket *ws)
{
	if (!ws)
		return;
	if (ws->fd >= 0 && !ws->close_seen)
		close_quietly(ws);
	if (ws->fd >= 0)
		close(ws->fd);
	strbuf_release(&ws->in);
	strbuf_release(&ws->frame);
	free(ws->name);
	free(ws);
}
