/*
 * websock.h: the server side of a WebSocket (RFC 6455) on an adb stream,
 * as much of it as MethodTraceMan's control channel needs.
 *
 * The opening handshake is one HTTP/1.1 request and answer:
 *
 *	GET /refresh HTTP/1.1\r\n
 *	Upgrade: websocket\r\n
 *	Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n ... \r\n\r\n
 *
 *	HTTP/1.1 101 Switching Protocols\r\n
 *	Upgrade: websocket\r\nConnection: Upgrade\r\n
 *	Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n
 *
 * (the accept value is base64(SHA-1(key + the RFC's GUID))).  Then frames
 * both ways:
 *
 *	 0               1               2               3
 *	|F|   |opcode |M| len (7)     | ext len (16 or 64), if 126/127 |
 *	| masking key (4, client frames only)  | payload ...           |
 *
 * Client frames are masked, server frames are not.  Text (1), close (8),
 * ping (9) and pong (10) are handled; fragments are joined.
 */
#ifndef SIM_WEBSOCK_H
#define SIM_WEBSOCK_H

#include <stddef.h>
#include <stdint.h>

struct simstream;
struct strbuf;

enum {
	WS_TEXT = 1,
	WS_BINARY = 2,
	WS_CLOSE = 8,
	WS_PING = 9,
	WS_PONG = 10,
};

/* SHA-1 of `len` bytes into `out` (20 bytes). */
void websock_sha1(const void *data, size_t len, uint8_t out[20]);

/* Append the Sec-WebSocket-Accept value for client key `key`. */
void websock_accept_key(struct strbuf *out, const char *key);

/*
 * Read the HTTP request and answer it: 101 for a WebSocket upgrade of
 * `path`, else 404 (the caller closes).  Returns 0 once upgraded, -1 on a
 * refusal or when the stream ends.
 */
int websock_handshake(struct simstream *st, const char *path);

/*
 * Read the next whole message (fragments joined, payload unmasked) into
 * `msg`; *opcode is its type.  Returns 0, or -1 when the stream ended or
 * sent a malformed frame.
 */
int websock_read(struct simstream *st, int *opcode, struct strbuf *msg);

/* Send one unmasked, final frame.  Returns 0 or -1. */
int websock_write(struct simstream *st, int opcode, const void *data,
    size_t len);

#endif
