/*
 * test_websocket.c: the RFC 6455 client against a scripted server.
 *
 * Each test starts a fake_ws server that runs a small script on one
 * connection: read the handshake, answer it (rightly or wrongly), read
 * and write frames by hand, so the client is checked against the wire
 * format itself, not against a second copy of its own code.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "unit.h"
#include "error.h"
#include "fake_ws.h"
#include "strbuf.h"
#include "websocket.h"

static struct websocket *
connect_ok(struct fake_ws *s)
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
script_echo(struct fake_ws *s, int fd)
{
	if (fake_ws_accept(s, fd, "/refresh") || fake_ws_read_frame(s, fd))
		return;
	if (s->got_opcode != 0x1)
		fake_ws_fail(s, "not a text frame");
	fake_ws_send_frame(fd, 1, 0x1, "world", 5);
	fake_ws_read_frame(s, fd);	/* the close frame of websocket_free */
}

/*
 * After the handshake a text message goes out as one masked text frame
 * whose unmasked payload is the text, and a server text frame comes back
 * as a message; freeing sends a close frame with status 1000.
 */
static void
text_round_trip_is_masked(void **state)
{
	struct fake_ws *s = fake_ws_start(script_echo, NULL);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_send_text(ws, "hello", 5), 0);
	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_string_equal(msg.buf, "world");
	websocket_free(ws);
	fake_ws_join(s);
	assert_string_equal(s->problem, "");
	assert_true(s->got_masked);
	assert_int_equal(s->got_opcode, 0x8);
	assert_int_equal(s->got.len, 2);
	assert_memory_equal(s->got.buf, "\x03\xe8", 2);
	strbuf_release(&msg);
	fake_ws_free(s);
}

static void
script_fragments(struct fake_ws *s, int fd)
{
	if (fake_ws_accept(s, fd, "/refresh"))
		return;
	fake_ws_send_frame(fd, 0, 0x1, "hel", 3);
	fake_ws_send_frame(fd, 1, 0x9, "p!", 2);	/* a ping between fragments */
	fake_ws_send_frame(fd, 1, 0x0, "lo", 2);
	if (fake_ws_read_frame(s, fd))
		return;
	if (s->got_opcode != 0xa || s->got.len != 2 ||
	    memcmp(s->got.buf, "p!", 2))
		fake_ws_fail(s, "no pong with the ping's payload");
	fake_ws_read_frame(s, fd);
}

/*
 * A message split over a text frame and a continuation, with a ping in
 * between, is delivered whole, and the ping is answered by a pong that
 * carries its payload.
 */
static void
fragments_reassemble_and_pings_are_answered(void **state)
{
	struct fake_ws *s = fake_ws_start(script_fragments, NULL);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_string_equal(msg.buf, "hello");
	websocket_free(ws);
	fake_ws_join(s);
	assert_string_equal(s->problem, "");
	strbuf_release(&msg);
	fake_ws_free(s);
}

static void
script_big(struct fake_ws *s, int fd)
{
	static char big[70000];

	memset(big, 'b', sizeof(big));
	if (fake_ws_accept(s, fd, "/refresh"))
		return;
	fake_ws_send_frame(fd, 1, 0x1, big, 300);
	fake_ws_send_frame(fd, 1, 0x2, big, sizeof(big));
	if (fake_ws_read_frame(s, fd))
		return;
	if (s->got.len != 70000 || s->got.buf[69999] != 'c')
		fake_ws_fail(s, "long client frame garbled");
	fake_ws_read_frame(s, fd);
}

/*
 * Lengths that need the 16-bit and the 64-bit forms work both ways: the
 * client reads 300- and 70000-byte frames and writes a 70000-byte one.
 */
static void
long_frames_use_extended_lengths(void **state)
{
	struct fake_ws *s = fake_ws_start(script_big, NULL);
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
	fake_ws_join(s);
	assert_string_equal(s->problem, "");
	strbuf_release(&msg);
	fake_ws_free(s);
}

static void
script_extra(struct fake_ws *s, int fd)
{
	char key[64], path[256];

	if (fake_ws_read_request(s, fd, key, path))
		return;
	/* The answer and a first frame in one write. */
	fake_ws_answer(fd, key, "\x81\x03hi!");
	fake_ws_read_frame(s, fd);
}

/* A frame that arrives in the same packet as the handshake answer is kept. */
static void
frame_after_answer_is_not_lost(void **state)
{
	struct fake_ws *s = fake_ws_start(script_extra, NULL);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 3000), 1);
	assert_string_equal(msg.buf, "hi!");
	websocket_free(ws);
	fake_ws_join(s);
	strbuf_release(&msg);
	fake_ws_free(s);
}

static void
script_close(struct fake_ws *s, int fd)
{
	if (fake_ws_accept(s, fd, "/refresh"))
		return;
	fake_ws_send_frame(fd, 1, 0x8, "\x03\xe9" "bye", 5);
	if (fake_ws_read_frame(s, fd))
		return;
	if (s->got_opcode != 0x8 || s->got.len != 2 ||
	    memcmp(s->got.buf, "\x03\xe9", 2))
		fake_ws_fail(s, "close not echoed with its status");
}

/*
 * A close frame from the server ends websocket_recv with 0, is echoed
 * with the same status code, and later calls report a closed connection.
 */
static void
server_close_is_echoed(void **state)
{
	struct fake_ws *s = fake_ws_start(script_close, NULL);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 3000), 0);
	assert_int_equal(websocket_send_text(ws, "x", 1), JG_ECLOSED);
	assert_int_equal(websocket_recv(ws, &msg, 100), JG_ECLOSED);
	websocket_free(ws);
	fake_ws_join(s);
	assert_string_equal(s->problem, "");
	strbuf_release(&msg);
	fake_ws_free(s);
}

static void
script_404(struct fake_ws *s, int fd)
{
	char key[64], path[256];
	static const char nf[] = "HTTP/1.1 404 Not Found\r\n\r\n";

	if (!fake_ws_read_request(s, fd, key, path))
		fake_ws_write_n(fd, nf, sizeof(nf) - 1);
}

static void
script_bad_accept(struct fake_ws *s, int fd)
{
	char key[64], path[256];

	if (!fake_ws_read_request(s, fd, key, path))
		fake_ws_answer(fd, "not-the-client-key", NULL);
}

static void
script_no_upgrade(struct fake_ws *s, int fd)
{
	char key[64], path[256], accept[29], buf[256];

	if (fake_ws_read_request(s, fd, key, path))
		return;
	websocket_accept_key(accept, key);
	snprintf(buf, sizeof(buf), "HTTP/1.1 101 OK\r\nConnection: close\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n", accept);
	fake_ws_write_n(fd, buf, strlen(buf));
}

static void
script_hangup(struct fake_ws *s, int fd)
{
	char key[64], path[256];

	fake_ws_read_request(s, fd, key, path);
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
		fake_ws_script script;
		int code;
		const char *msg;
	} cases[] = {
		{ script_404, JG_EPROTO, "'HTTP/1.1 404 Not Found'" },
		{ script_bad_accept, JG_EPROTO, "Sec-WebSocket-Accept" },
		{ script_no_upgrade, JG_EPROTO, "does not upgrade" },
		{ script_hangup, JG_ECLOSED, "during the handshake" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_ws *s = fake_ws_start(cases[i].script, NULL);
		struct websocket *ws = (struct websocket *)&ws;

		assert_int_equal(websocket_connect(&ws, "127.0.0.1", s->port,
		    "/refresh", 3000), cases[i].code);
		assert_null(ws);
		assert_non_null(strstr(jg_error_msg(), cases[i].msg));
		assert_non_null(strstr(jg_error_msg(), "websocket '127.0.0.1:"));
		fake_ws_join(s);
		fake_ws_free(s);
	}
}

static void
script_masked(struct fake_ws *s, int fd)
{
	if (!fake_ws_accept(s, fd, "/refresh"))
		fake_ws_write_n(fd, "\x81\x81\x01\x02\x03\x04x", 7);
}

static void
script_big_ping(struct fake_ws *s, int fd)
{
	char ping[126] = { 0 };

	if (!fake_ws_accept(s, fd, "/refresh"))
		fake_ws_send_frame(fd, 1, 0x9, ping, sizeof(ping));
}

static void
script_reserved(struct fake_ws *s, int fd)
{
	if (!fake_ws_accept(s, fd, "/refresh"))
		fake_ws_write_n(fd, "\xc1\x01x", 3);
}

static void
script_stray_cont(struct fake_ws *s, int fd)
{
	if (!fake_ws_accept(s, fd, "/refresh"))
		fake_ws_send_frame(fd, 1, 0x0, "x", 1);
}

static void
script_cut(struct fake_ws *s, int fd)
{
	if (!fake_ws_accept(s, fd, "/refresh"))
		fake_ws_write_n(fd, "\x81\x05hel", 5);
}

/*
 * Frames a server must not send are protocol errors, and a frame cut by
 * the peer hanging up is a closed connection: never a crash or a hang.
 */
static void
broken_frames_are_errors(void **state)
{
	static const struct {
		fake_ws_script script;
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
		struct fake_ws *s = fake_ws_start(cases[i].script, NULL);
		struct websocket *ws = connect_ok(s);
		struct strbuf msg = STRBUF_INIT;

		assert_int_equal(websocket_recv(ws, &msg, 3000),
		    cases[i].code);
		assert_non_null(strstr(jg_error_msg(), cases[i].msg));
		fake_ws_join(s);
		websocket_free(ws);
		strbuf_release(&msg);
		fake_ws_free(s);
	}
}

static void
script_silent(struct fake_ws *s, int fd)
{
	char c;

	if (!fake_ws_accept(s, fd, "/refresh"))
		(void)fake_ws_read_n(fd, &c, 1);	/* until the client goes */
}

/* A server that says nothing makes recv time out, and the socket stays usable. */
static void
silence_times_out(void **state)
{
	struct fake_ws *s = fake_ws_start(script_silent, NULL);
	struct websocket *ws = connect_ok(s);
	struct strbuf msg = STRBUF_INIT;

	assert_int_equal(websocket_recv(ws, &msg, 50), JG_ETIMEOUT);
	assert_int_equal(websocket_send_text(ws, "still here", 10), 0);
	websocket_free(ws);
	fake_ws_join(s);
	strbuf_release(&msg);
	fake_ws_free(s);
}

/* Nothing listening is JG_EIO; websocket_free(NULL) is a no-op. */
static void
no_listener_is_eio(void **state)
{
	struct websocket *ws = NULL;
	struct sockaddr_in a = { 0 };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	/* A port bound and never listening: refused, and nobody else's
	 * while it stays bound (a port closed at once can be another
	 * test's listener by the time we connect). */
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	getsockname(fd, (struct sockaddr *)&a, &al);
	port = ntohs(a.sin_port);
	assert_int_equal(websocket_connect(&ws, "127.0.0.1", port, "/refresh",
	    1000), JG_EIO);
	close(fd);
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
