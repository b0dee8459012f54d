/*
 * fake_ws.c: a scripted WebSocket server for unit tests (fake_ws.h).
 *
 * The frames are written and read here byte by byte from RFC 6455 §5.2,
 * not with websocket.c, so the client is tested against the format.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "unit.h"
#include "fake_ws.h"
#include "strbuf.h"
#include "websocket.h"

/* Record the first problem the script saw; returns -1 for `return`. */
int
fake_ws_fail(struct fake_ws *s, const char *what)
{
	if (!s->problem[0])
		snprintf(s->problem, sizeof(s->problem), "%s", what);
	return -1;
}

int
fake_ws_read_n(int fd, void *buf, size_t n)
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

void
fake_ws_write_n(int fd, const void *buf, size_t n)
{
	(void)send(fd, buf, n, MSG_NOSIGNAL);
}

/* Read the request up to the blank line; its Sec-WebSocket-Key in key. */
int
fake_ws_read_request(struct fake_ws *s, int fd, char key[64],
    char path[256])
{
	char req[4096];
	size_t n = 0;
	const char *k;

	while (n < sizeof(req) - 1) {
		if (fake_ws_read_n(fd, req + n, 1))
			return fake_ws_fail(s, "request cut");
		req[++n] = '\0';
		if (n >= 4 && !memcmp(req + n - 4, "\r\n\r\n", 4))
			break;
	}
	if (sscanf(req, "GET %255s HTTP/1.1", path) != 1)
		return fake_ws_fail(s, "bad request line");
	if (!strstr(req, "\r\nUpgrade: websocket\r\n") ||
	    !strstr(req, "\r\nConnection: Upgrade\r\n") ||
	    !strstr(req, "\r\nSec-WebSocket-Version: 13\r\n"))
		return fake_ws_fail(s, "missing upgrade headers");
	k = strstr(req, "\r\nSec-WebSocket-Key: ");
	if (!k || sscanf(k + 21, "%63[^\r]", key) != 1 || strlen(key) != 24)
		return fake_ws_fail(s, "bad key");
	return 0;
}

void
fake_ws_answer(int fd, const char *key, const char *extra)
{
	char accept[29], buf[512];

	websocket_accept_key(accept, key);
	snprintf(buf, sizeof(buf), "HTTP/1.1 101 Switching Protocols\r\n"
	    "upgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n%s", accept, extra ? extra : "");
	fake_ws_write_n(fd, buf, strlen(buf));
}

/* A handshake the client accepts, or the script stops. */
int
fake_ws_accept(struct fake_ws *s, int fd, const char *want)
{
	char key[64], path[256];

	if (fake_ws_read_request(s, fd, key, path))
		return -1;
	if (strcmp(path, want))
		return fake_ws_fail(s, "wrong path");
	fake_ws_answer(fd, key, NULL);
	return 0;
}

/* An unmasked server frame with a 7-, 16- or 64-bit length. */
void
fake_ws_send_frame(int fd, int fin, int op, const void *data, size_t len)
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
	fake_ws_write_n(fd, f.buf, f.len);
	strbuf_release(&f);
}

/* Read one client frame, unmask it into s->got (replaced). */
int
fake_ws_read_frame(struct fake_ws *s, int fd)
{
	unsigned char h[2], ext[8], mask[4] = { 0 };
	unsigned long long len;

	if (fake_ws_read_n(fd, h, 2))
		return fake_ws_fail(s, "no frame");
	s->got_opcode = h[0] & 0x0f;
	if (!(h[0] & 0x80))
		fake_ws_fail(s, "client frame without FIN");
	if (!(h[1] & 0x80))
		s->got_masked = 0;
	len = h[1] & 0x7f;
	if (len == 126) {
		if (fake_ws_read_n(fd, ext, 2))
			return -1;
		len = (unsigned)ext[0] << 8 | ext[1];
	} else if (len == 127) {
		if (fake_ws_read_n(fd, ext, 8))
			return -1;
		len = 0;
		for (int i = 0; i < 8; i++)
			len = len << 8 | ext[i];
	}
	if ((h[1] & 0x80) && fake_ws_read_n(fd, mask, 4))
		return -1;
	strbuf_reset(&s->got);
	strbuf_grow(&s->got, len);
	if (fake_ws_read_n(fd, s->got.buf, len))
		return fake_ws_fail(s, "frame cut");
	for (unsigned long long i = 0; i < len; i++)
		s->got.buf[i] ^= mask[i % 4];
	strbuf_setlen(&s->got, len);
	return 0;
}

static void *
serve(void *arg)
{
	struct fake_ws *s = arg;
	struct timeval tv = { 5, 0 };
	int fd = accept(s->lfd, NULL, NULL);

	if (fd < 0) {
		fake_ws_fail(s, "accept failed");
		return NULL;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	s->script(s, fd);
	close(fd);
	return NULL;
}

struct fake_ws *
fake_ws_start(fake_ws_script script, void *arg)
{
	struct fake_ws *s = calloc(1, sizeof(*s));
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
	s->arg = arg;
	s->got_masked = 1;
	strbuf_init(&s->got, 0);
	assert_int_equal(pthread_create(&s->thread, NULL, serve, s), 0);
	return s;
}

/* Join the server; the problem it saw ("" for none) stays in s. */
void
fake_ws_join(struct fake_ws *s)
{
	pthread_join(s->thread, NULL);
	close(s->lfd);
}

void
fake_ws_free(struct fake_ws *s)
{
	strbuf_release(&s->got);
	free(s);
}

