/*
 * websock.c: a minimal WebSocket server over an adb stream (websock.h
 * draws the wire format), with the SHA-1 and base64 its handshake needs.
 *
 * SHA-1 follows FIPS 180-4 section 6.1 directly: 512-bit blocks, 80
 * rounds, big-endian length padding.  It is only used for the handshake's
 * accept key, where speed does not matter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stream.h"
#include "strbuf.h"
#include "websock.h"
#include "xalloc.h"
#include "banned.h"

#define WS_GUID		"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#define MAX_REQUEST	16384
#define MAX_MESSAGE	(1 << 20)

static uint32_t
rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void
sha1_block(uint32_t h[5], const uint8_t *p)
{
	uint32_t w[80], a, b, c, d, e, f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = h[0];
	b = h[1];
	c = h[2];
	d = h[3];
	e = h[4];
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void
websock_sha1(const void *data, size_t len, uint8_t out[20])
{
	uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
	    0xc3d2e1f0 };
	const uint8_t *p = data;
	uint8_t tail[128];
	uint64_t bits = (uint64_t)len * 8;
	size_t i, rest, n;

	for (i = 0; i + 64 <= len; i += 64)
		sha1_block(h, p + i);
	/* The rest, a 1 bit, zeros, then the length: one or two blocks. */
	rest = len - i;
	memset(tail, 0, sizeof(tail));
	memcpy(tail, p + i, rest);
	tail[rest] = 0x80;
	n = rest + 9 <= 64 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[n - 1 - i] = (uint8_t)(bits >> (8 * i));
	sha1_block(h, tail);
	if (n == 128)
		sha1_block(h, tail + 64);
	for (i = 0; i < 20; i++)
		out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static void
base64(struct strbuf *out, const uint8_t *p, size_t len)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		strbuf_addch(out, abc[v >> 18 & 63]);
		strbuf_addch(out, abc[v >> 12 & 63]);
		strbuf_addch(out, i + 1 < len ? abc[v >> 6 & 63] : '=');
		strbuf_addch(out, i + 2 < len ? abc[v & 63] : '=');
	}
}

void
websock_accept_key(struct strbuf *out, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	uint8_t digest[20];

	strbuf_addstr(&sb, key);
	strbuf_addstr(&sb, WS_GUID);
	websock_sha1(sb.buf, sb.len, digest);
	base64(out, digest, sizeof(digest));
	strbuf_release(&sb);
}

/* The value of header `name` in the request `req`, trimmed; or NULL. */
static char *
header(const char *req, const char *name)
{
	size_t n = strlen(name);
	const char *p = req;

	while ((p = strstr(p, "\r\n"))) {
		p += 2;
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			const char *v = p + n + 1, *end = strstr(v, "\r\n");

			v += strspn(v, " \t");
			if (!end)
				return NULL;
			while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
			return xstrndup(v, (size_t)(end - v));
		}
	}
	return NULL;
}

int
websock_handshake(struct simstream *st, const char *path)
{
	struct strbuf req = STRBUF_INIT, ans = STRBUF_INIT;
	char *key = NULL, *upgrade = NULL, want[256];
	char c;
	int ret = -1;

	/* Byte by byte: nothing after the request may be consumed. */
	while (req.len < MAX_REQUEST && (req.len < 4 ||
	    strcmp(req.buf + req.len - 4, "\r\n\r\n"))) {
		if (!simstream_read(st, &c, 1))
			goto out;
		strbuf_addch(&req, c);
	}
	snprintf(want, sizeof(want), "GET %s ", path);
	key = header(req.buf, "Sec-WebSocket-Key");
	upgrade = header(req.buf, "Upgrade");
	if (strncmp(req.buf, want, strlen(want)) || !key || !upgrade ||
	    strcasecmp(upgrade, "websocket")) {
		strbuf_addstr(&ans, "HTTP/1.1 404 Not Found\r\n"
		    "Content-Length: 0\r\nConnection: close\r\n\r\n");
		simstream_write(st, ans.buf, ans.len);
		goto out;
	}
	strbuf_addstr(&ans, "HTTP/1.1 101 Switching Protocols\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Accept: ");
	websock_accept_key(&ans, key);
	strbuf_addstr(&ans, "\r\n\r\n");
	ret = simstream_write(st, ans.buf, ans.len);
out:
	free(key);
	free(upgrade);
	strbuf_release(&req);
	strbuf_release(&ans);
	return ret;
}

int
websock_read(struct simstream *st, int *opcode, struct strbuf *msg)
{
	uint8_t h[2], ext[8], mask[4];
	uint64_t len;
	size_t i, start;
	int fin = 0;

	strbuf_reset(msg);
	*opcode = 0;
	while (!fin) {
		if (simstream_read_full(st, h, 2))
			return -1;
		fin = h[0] & 0x80;
		if (h[0] & 0x0f)
			*opcode = h[0] & 0x0f;
		len = h[1] & 0x7f;
		if (len == 126) {
			if (simstream_read_full(st, ext, 2))
				return -1;
			len = (uint64_t)ext[0] << 8 | ext[1];
		} else if (len == 127) {
			if (simstream_read_full(st, ext, 8))
				return -1;
			for (len = 0, i = 0; i < 8; i++)
				len = len << 8 | ext[i];
		}
		/* Clients must mask; a huge message is not ours to hold. */
		if (!(h[1] & 0x80) || len > MAX_MESSAGE ||
		    msg->len + len > MAX_MESSAGE ||
		    simstream_read_full(st, mask, 4))
			return -1;
		start = msg->len;
		strbuf_grow(msg, (size_t)len);
		if (len && simstream_read_full(st, msg->buf + start,
		    (size_t)len))
			return -1;
		strbuf_setlen(msg, start + (size_t)len);
		for (i = 0; i < len; i++)
			msg->buf[start + i] ^= (char)mask[i % 4];
	}
	return 0;
}

int
websock_write(struct simstream *st, int opcode, const void *data, size_t len)
{
	uint8_t h[10];
	size_t n = 2;

	h[0] = (uint8_t)(0x80 | (opcode & 0x0f));
	if (len < 126)
		h[1] = (uint8_t)len;
	else if (len < 65536) {
		h[1] = 126;
		h[2] = (uint8_t)(len >> 8);
		h[3] = (uint8_t)len;
		n = 4;
	} else {
		h[1] = 127;
		for (int i = 0; i < 8; i++)
			h[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
		n = 10;
	}
	if (simstream_write(st, h, n))
		return -1;
	return len ? simstream_write(st, data, len) : 0;
}
