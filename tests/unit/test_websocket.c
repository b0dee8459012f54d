/*
 * test_websocket.c: the RFC 6455 client against a scripted server.
 *
 * Each test starts a thread that accepts one connection on a loopback
 * port and runs a small script: read the handshake, answer it (rightly
 * or wrongly), read and write frames.  The server side writes frames by
 * hand, so the client is checked against the wire format itself, not
 * against a second copy of its own code.  Every socket wait in the
 * server is bounded (SO_RCVTIMEO), so a broken client fails, never hangs.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "unit.h"
#include "error.h"
#include "strbuf.h"
#include "websocket.h"

struct srv;
typedef void (*script_fn)(struct srv *s, int fd);

struct srv {
	int lfd, port;
	pthread_t thread;
	script_fn script;
	char problem[256];	/* "" when the script saw what it expected */
	struct strbuf got;	/* payloads the script read, for the test */
	int got_opcode;		/* opcode of the last frame read */
	int got_masked;		/* every frame read so far was masked */
};

/* Record the first problem the script saw; returns -1 for `return`. */
static int
srv_fail(struct srv *s, const char *what)
{
	if (!s->problem[0])
		snprintf(s->problem, sizeof(s->problem), "%s", what);
	return -1;
}

static int
read_n(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = recv(fd, p, n, 0);

		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void
write_n(int fd, const void *buf, size_t n)
{
	(void)send(fd, buf, n, MSG_NOSIGNAL);
}

/* Read the request up to the blank line; its Sec-WebSocket-Key in key. */
static int
read_request(struct srv *s, int fd, char key[64], char *path, size_t plen)
{
	char req[4096];
	size_t n = 0;
	const char *k;

	while (n < sizeof(req) - 1) {
		if (read_n(fd, req + n, 1))
			return srv_fail(s, "request cut");
		req[++n] = '\0';
		if (n >= 4 && !memcmp(req + n - 4, "\r\n\r\n", 4))
			break;
	}
	if (plen < 256 || sscanf(req, "GET %255s HTTP/1.1", path) != 1)
		return srv_fail(s, "bad request line");
	if (!strstr(req, "\r\nUpgrade: websocket\r\n") ||
	    !strstr(req, "\r\nConnection: Upgrade\r\n") ||
	    !strstr(req, "\r\nSec-WebSocket-Version: 13\r\n"))
		return srv_fail(s, "missing upgrade headers");
	k = strstr(req, "\r\nSec-WebSocket-Key: ");
	if (!k || sscanf(k + 21, "%63[^\r]", key) != 1 || strlen(key) != 24)
		return srv_fail(s, "bad key");
	return 0;
}

static void
answer(int fd, const char *key, const char *extra)
{
	char accept[29], buf[512];

	websocket_accept_key(accept, key);
	snprintf(buf, sizeof(buf), "HTTP/1.1 101 Switching Protocols\r\n"
	    "upgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n%s", accept, extra ? extra : "");
	write_n(fd, buf, strlen(buf));
}

/* A handshake the client accepts, or the script stops. */
static int
accept_ws(struct srv *s, int fd)
{
	char key[64], path[256];

	if (read_request(s, fd, key, path, sizeof(path)))
		return -1;
	if (strcmp(path, "/refresh"))
		return srv_fail(s, "wrong path");
	answer(fd, key, NULL);
	return 0;
}

/* An unmasked server frame with a 7-, 16- or 64-bit length. */
static void
send_frame(int fd, int fin, int op, const void *data, size_t len)
{
	struct strbuf f = STRBUF_INIT;
	unsigned char h[10];
	size_t n = 0;

	h[n++] = (unsigned char)((fin ? 0x80 : 0) | op);
	if (len < 126) {
		h[n++] = (unsigned char)len;
	} else if (len < 65536) {
		h[n++] = 126;
		h[n++] = (unsigned char)(len >> 8);
		h[n++] = (unsigned char)len;
	} else {
		h[n++] = 127;
		for (int i = 0; i < 8; i++)
			h[n++] = (unsigned char)((unsigned long long)len >>
			    (56 - 8 * i));
	}
	strbuf_add(&f, h, n);
	strbuf_add(&f, data, len);
	write_n(fd, f.buf, f.len);
	strbuf_release(&f);
}

/* Read one client frame, unmask it into s->got (replaced). */
static int
read_frame(struct srv *s, int fd)
{
	unsigned char h[2], ext[8], mask[4] = { 0 };
	unsigned long long len;

	if (read_n(fd, h, 2))
		return srv_fail(s, "no frame");
	s->got_opcode = h[0] & 0x0f;
	if (!(h[0] & 0x80))
		srv_fail(s, "client frame without FIN");
	if (!(h[1] & 0x80))
		s->got_masked = 0;
	len = h[1] & 0x7f;
	if (len == 126) {
		if (read_n(fd, ext, 2))
			return -1;
		len = (unsigned)ext[0] << 8 | ext[1];
	} else if (len == 127) {
		if (read_n(fd, ext, 8))
			return -1;
		len = 0;
		for (int i = 0; i < 8; i++)
			len = len << 8 | ext[i];
	}
	if ((h[1] & 0x80) && read_n(fd, mask, 4))
		return -1;
	strbuf_reset(&s->got);
	strbuf_grow(&s->got, len);
	if (read_n(fd, s->got.buf, len))
		return srv_fail(s, "frame cut");
	for (unsigned long long i = 0; i < len; i++)
		s->got.buf[i] ^= mask[i % 4];
	strbuf_setlen(&s->got, len);
	return 0;
}

static void *
serve(void *arg)
{
	struct srv *s = arg;
	struct timeval tv = { 5, 0 };
	int fd = accept(s->lfd, NULL, NULL);

	if (fd < 0) {
		srv_fail(s, "accept failed");
		return NULL;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	s->script(s, fd);
	close(fd);
	return NULL;
}

static struct srv *
srv_start(script_fn script)
{
	struct srv *s = calloc(1, sizeof(*s));
	struct sockaddr_in a = { 0 };
	socklen_t al = sizeof(a);

	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->lfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->lfd >= 0);
	assert_int_equal(bind(s->lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(s->lfd, 4), 0);
	getsockname(s->lfd, (struct sockaddr *)&a, &al);
	s->port = ntohs(a.sin_port);
	s->script = script;
	s->got_masked = 1;
	strbuf_init(&s->got, 0);
	assert_int_equal(pthread_create(&s->thread, NULL, serve, s), 0);
	return s;
}

/* Join the server; the problem it saw ("" for none) stays in s. */
static void
srv_join(struct srv *s)
{
	pthread_join(s->thread, NULL);
	close(s->lfd);
}

static void
srv_free(struct srv *s)
{
	strbuf_release(&s->got);
	free(s);
}

static struct websocket *
connect_ok(struct srv *s)
{
	struct websocket *ws = NULL;

	assert_int_equal(websocket_connect(&ws, "127.0.0.1", s->port,
	    "/refresh", 3000), 0);
	assert_non_null(ws);
	return ws;
}

/* ---- the tests ------------------------------------------------------ */

/* The accept value is RFC 6455's own worked example (§1.3). */
static void
accept_key_matches_rfc_example(void **state)
{
	char out[29];

	websocket_accept_key(out, "dGhlIHNhbXBsZSBub25jZQ==");
	assert_string_equal(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

static void
script_echo(struct srv *s, int fd)
{
	if (accept_ws(s, fd) || read_frame(s, fd))
		return;
	if (s->got_opcode != 0x1)
		srv_fail(s, "not a text frame");
	send_frame(fd, 1, 0x1, "world", 5);
	read_frame(s, fd);	/* the close frame of websocket_free */
}

/*
 * After the handshake a text message goes out as one masked text frame
 * whose unmasked payload is the text, and a server text frame comes back
 * as a message; freeing sends a close frame with status 1000.
 */
static void
text_round_trip_is_masked(void **state)
{
	struct srv *s = srv_start(script_echo);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_send_text(ws, "hello", 5), 0);
	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_string_equal(msg.buf, "world");
	websocket_free(ws);
	srv_join(s);
	assert_string_equal(s->problem, "");
	assert_true(s->got_masked);
	assert_int_equal(s->got_opcode, 0x8);
	assert_int_equal(s->got.len, 2);
	assert_memory_equal(s->got.buf, "\x03\xe8", 2);
	strbuf_release(&msg);
	srv_free(s);
}

static void
script_fragments(struct srv *s, int fd)
{
	if (accept_ws(s, fd))
		return;
	send_frame(fd, 0, 0x1, "hel", 3);
	send_frame(fd, 1, 0x9, "p!", 2);	/* a ping between fragments */
	send_frame(fd, 1, 0x0, "lo", 2);
	if (read_frame(s, fd))
		return;
	if (s->got_opcode != 0xa || s->got.len != 2 ||
	    memcmp(s->got.buf, "p!", 2))
		srv_fail(s, "no pong with the ping's payload");
	read_frame(s, fd);
}

/*
 * A message split over a text frame and a continuation, with a ping in
 * between, is delivered whole, and the ping is answered by a pong that
 * carries its payload.
 */
static void
fragments_reassemble_and_pings_are_answered(void **state)
{
	struct srv *s = srv_start(script_fragments);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_string_equal(msg.buf, "hello");
	websocket_free(ws);
	srv_join(s);
	assert_string_equal(s->problem, "");
	strbuf_release(&msg);
	srv_free(s);
}

static void
script_big(struct srv *s, int fd)
{
	static char big[70000];

	memset(big, 'b', sizeof(big));
	if (accept_ws(s, fd))
		return;
	send_frame(fd, 1, 0x1, big, 300);
	send_frame(fd, 1, 0x2, big, sizeof(big));
	if (read_frame(s, fd))
		return;
	if (s->got.len != 70000 || s->got.buf[69999] != 'c')
		srv_fail(s, "long client frame garbled");
	read_frame(s, fd);
}

/*
 * Lengths that need the 16-bit and the 64-bit forms work both ways: the
 * client reads 300- and 70000-byte frames and writes a 70000-byte one.
 */
static void
long_frames_use_extended_lengths(void **state)
{
	struct srv *s = srv_start(script_big);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;
	static char out[70000];

	memset(out, 'c', sizeof(out));
	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_int_equal(msg.len, 300);
	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_int_equal(msg.len, 70000);
	assert_int_equal(msg.buf[69999], 'b');
	assert_int_equal(websocket_send_text(ws, out, sizeof(out)), 0);
	websocket_free(ws);
	srv_join(s);
	assert_string_equal(s->problem, "");
	strbuf_release(&msg);
	srv_free(s);
}

static void
script_extra(struct srv *s, int fd)
{
	char key[64], path[256];

	if (read_request(s, fd, key, path, sizeof(path)))
		return;
	/* The answer and a first frame in one write. */
	answer(fd, key, "\x81\x03hi!");
	read_frame(s, fd);
}

/* A frame that arrives in the same packet as the handshake answer is kept. */
static void
frame_after_answer_is_not_lost(void **state)
{
	struct srv *s = srv_start(script_extra);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_string_equal(msg.buf, "hi!");
	websocket_free(ws);
	srv_join(s);
	strbuf_release(&msg);
	srv_free(s);
}

static void
script_close(struct srv *s, int fd)
{
	if (accept_ws(s, fd))
		return;
	send_frame(fd, 1, 0x8, "\x03\xe9" "bye", 5);
	if (read_frame(s, fd))
		return;
	if (s->got_opcode != 0x8 || s->got.len != 2 ||
	    memcmp(s->got.buf, "\x03\xe9", 2))
		srv_fail(s, "close not echoed with its status");
}

/*
 * A close frame from the server ends websocket_recv with 0, is echoed
 * with the same status code, and later calls report a closed connection.
 */
static void
server_close_is_echoed(void **state)
{
	struct srv *s = srv_start(script_close);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 3000), 0);
	assert_int_equal(websocket_send_text(ws, "x", 1), JG_ECLOSED);
	assert_int_equal(websocket_recv(ws, &msg, 100), JG_ECLOSED);
	websocket_free(ws);
	srv_join(s);
	assert_string_equal(s->problem, "");
	strbuf_release(&msg);
	srv_free(s);
}

static void
script_404(struct srv *s, int fd)
{
	char key[64], path[256];
	static const char nf[] = "HTTP/1.1 404 Not Found\r\n\r\n";

	if (!read_request(s, fd, key, path, sizeof(path)))
		write_n(fd, nf, sizeof(nf) - 1);
}

static void
script_bad_accept(struct srv *s, int fd)
{
	char key[64], path[256];

	if (!read_request(s, fd, key, path, sizeof(path)))
		answer(fd, "not-the-client-key", NULL);
}

static void
script_no_upgrade(struct srv *s, int fd)
{
	char key[64], path[256], accept[29], buf[256];

	if (read_request(s, fd, key, path, sizeof(path)))
		return;
	websocket_accept_key(accept, key);
	snprintf(buf, sizeof(buf), "HTTP/1.1 101 OK\r\nConnection: close\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n", accept);
	write_n(fd, buf, strlen(buf));
}

static void
script_hangup(struct srv *s, int fd)
{
	char key[64], path[256];

	read_request(s, fd, key, path, sizeof(path));
}

/*
 * Refused handshakes are errors with the reason: a non-101 status
 * (quoted), a wrong Sec-WebSocket-Accept, an answer without Upgrade, and
 * a peer that hangs up (what an adb forward to an idle port does).
 */
static void
refused_handshakes_are_errors(void **state)
{
	static const struct {
		script_fn script;
		int code;
		const char *msg;
	} cases[] = {
		{ script_404, JG_EPROTO, "'HTTP/1.1 404 Not Found'" },
		{ script_bad_accept, JG_EPROTO, "Sec-WebSocket-Accept" },
		{ script_no_upgrade, JG_EPROTO, "does not upgrade" },
		{ script_hangup, JG_ECLOSED, "during the handshake" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct srv *s = srv_start(cases[i].script);
		struct websocket *ws = (struct websocket *)&ws;

		assert_int_equal(websocket_connect(&ws, "127.0.0.1", s->port,
		    "/refresh", 3000), cases[i].code);
		assert_null(ws);
		assert_non_null(strstr(jg_error_msg(), cases[i].msg));
		assert_non_null(strstr(jg_error_msg(), "websocket '127.0.0.1:"));
		srv_join(s);
		srv_free(s);
	}
}

static void
script_masked(struct srv *s, int fd)
{
	if (!accept_ws(s, fd))
		write_n(fd, "\x81\x81\x01\x02\x03\x04x", 7);
}

static void
script_big_ping(struct srv *s, int fd)
{
	char ping[126] = { 0 };

	if (!accept_ws(s, fd))
		send_frame(fd, 1, 0x9, ping, sizeof(ping));
}

static void
script_reserved(struct srv *s, int fd)
{
	if (!accept_ws(s, fd))
		write_n(fd, "\xc1\x01x", 3);
}

static void
script_stray_cont(struct srv *s, int fd)
{
	if (!accept_ws(s, fd))
		send_frame(fd, 1, 0x0, "x", 1);
}

static void
script_cut(struct srv *s, int fd)
{
	if (!accept_ws(s, fd))
		write_n(fd, "\x81\x05hel", 5);
}

/*
 * Frames a server must not send are protocol errors, and a frame cut by
 * the peer hanging up is a closed connection: never a crash or a hang.
 */
static void
broken_frames_are_errors(void **state)
{
	static const struct {
		script_fn script;
		int code;
		const char *msg;
	} cases[] = {
		{ script_masked, JG_EPROTO, "masked frame" },
		{ script_big_ping, JG_EPROTO, "control frame" },
		{ script_reserved, JG_EPROTO, "reserved bits" },
		{ script_stray_cont, JG_EPROTO, "continuation" },
		{ script_cut, JG_ECLOSED, "closed by the peer" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct srv *s = srv_start(cases[i].script);
		struct websocket *ws = connect_ok(s);
		struct strbuf msg = STRBUF_INIT;

		assert_int_equal(websocket_recv(ws, &msg, 3000),
		    cases[i].code);
		assert_non_null(strstr(jg_error_msg(), cases[i].msg));
		srv_join(s);
		websocket_free(ws);
		strbuf_release(&msg);
		srv_free(s);
	}
}

static void
script_silent(struct srv *s, int fd)
{
	char c;

	if (!accept_ws(s, fd))
		(void)read_n(fd, &c, 1);	/* until the client goes */
}

/* A server that says nothing makes recv time out, and the socket stays usable. */
static void
silence_times_out(void **state)
{
	struct srv *s = srv_start(script_silent);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 50), JG_ETIMEOUT);
	assert_int_equal(websocket_send_text(ws, "still here", 10), 0);
	websocket_free(ws);
	srv_join(s);
	strbuf_release(&msg);
	srv_free(s);
}

/* Nothing listening is JG_EIO; websocket_free(NULL) is a no-op. */
static void
no_listener_is_eio(void **state)
{
	struct websocket *ws = NULL;
	struct sockaddr_in a = { 0 };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	/* A port that was free a moment ago, then closed again. */
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	getsockname(fd, (struct sockaddr *)&a, &al);
	port = ntohs(a.sin_port);
	close(fd);
	assert_int_equal(websocket_connect(&ws, "127.0.0.1", port, "/refresh",
	    1000), JG_EIO);
	assert_null(ws);
	assert_non_null(strstr(jg_error_msg(), "cannot connect"));
	websocket_free(NULL);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(accept_key_matches_rfc_example),
	cmocka_unit_test(text_round_trip_is_masked),
	cmocka_unit_test(fragments_reassemble_and_pings_are_answered),
	cmocka_unit_test(long_frames_use_extended_lengths),
	cmocka_unit_test(frame_after_answer_is_not_lost),
	cmocka_unit_test(server_close_is_echoed),
	cmocka_unit_test(refused_handshakes_are_errors),
	cmocka_unit_test(broken_frames_are_errors),
	cmocka_unit_test(silence_times_out),
	cmocka_unit_test(no_listener_is_eio),
};
JG_UNIT_GROUP(websocket, tests, NULL, NULL)
