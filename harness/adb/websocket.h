/*
 * websocket.h: a minimal WebSocket client (RFC 6455) over plain TCP.
 *
 * MethodTraceMan is driven through a WebSocket the app serves on a device
 * port; jankgate reaches it through an adb forward, so the peer is always
 * a loopback TCP port and this client needs no TLS, no proxies, no
 * extensions and no subprotocols.  It does the opening handshake (and
 * checks Sec-WebSocket-Accept), sends masked text frames, reassembles
 * fragmented messages, answers pings, and closes with a close frame.
 * This is jankgate's only WebSocket code.
 *
 *	struct websocket *ws;
 *	websocket_connect(&ws, "127.0.0.1", port, "/refresh", 5000);
 *	websocket_send_text(ws, "{\"moduleName\":\"StartMethodCost\"}", n);
 *	websocket_recv(ws, &msg, 5000);		// 1: a message in msg
 *	websocket_free(ws);			// close frame, then close
 *
 * Errors follow error.h; messages start with "websocket 'HOST:PORT/PATH'".
 * JG_EIO: cannot connect; JG_ECLOSED: the peer closed the TCP connection
 * (an adb forward to a device port nobody listens on closes at once);
 * JG_EPROTO: a refused handshake or a broken frame; JG_ETIMEOUT.
 */
#ifndef JG_WEBSOCKET_H
#define JG_WEBSOCKET_H

#include <stddef.h>

struct strbuf;
struct websocket;

/* Messages larger than this are a protocol error (MethodTraceMan's are KB). */
#define WEBSOCKET_MAX_MESSAGE (16u << 20)

/*
 * Connect to `host`:`port` (numeric or a name) and upgrade GET `path` to
 * a WebSocket, every wait bounded by `timeout_ms`.  Returns 0 with *out
 * set (free it with websocket_free), or an error with *out NULL.
 */
int websocket_connect(struct websocket **out, const char *host, int port,
    const char *path, int timeout_ms);

/* Send `len` bytes of `text` as one masked text frame.  0 or an error. */
int websocket_send_text(struct websocket *ws, const char *text, size_t len);

/*
 * Wait up to `timeout_ms` for the next whole text or binary message and
 * put it in `msg` (replaced).  Pings are answered and pongs skipped on
 * the way.  Returns 1 for a message, 0 when the peer sent a close frame
 * (answered; the connection is then done), or an error.
 */
int websocket_recv(struct websocket *ws, struct strbuf *msg, int timeout_ms);

/*
 * Send a close frame if the connection is still open, wait briefly for
 * the peer's, close the socket and free.  NULL is a no-op.
 */
void websocket_free(struct websocket *ws);

/*
 * The Sec-WebSocket-Accept value for the client key `key`: base64 of the
 * SHA-1 of key + the RFC's GUID, 28 characters and a NUL in `out`.
 */
void websocket_accept_key(char out[29], const char *key);

#endif
