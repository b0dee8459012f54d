/*
 * adb_conn.h: one TCP connection to the adb server ("smart socket").
 *
 * The layer under adb.h and adb_sync.h, used by the adb_*.c files only;
 * other modules use those headers.  adb_server.c opens connections,
 * adb_conn.c moves bytes and frames on them, adb.c adds the transport
 * switch (adb_conn_open_device).  A connection is opened per request, as
 * the adb CLI does, so threads never share one.  Every read and write waits
 * with poll() and a timeout, and writes use MSG_NOSIGNAL, so a vanished
 * server gives an error instead of a hang or a SIGPIPE.
 *
 * Framing (docs/adb.md §1.1):
 *
 *	client -> server   "000c" "host:version"      hex4 length + service name
 *	server -> client   "OKAY"                     accepted, or
 *	                   "FAIL" "0017" "device ..."  refused: hex4 + reason
 *	after OKAY         "0004" "0029"              a "protocol string", for
 *	                                              the host queries that answer
 *
 * After OKAY to "host:transport:SERIAL" the same connection is switched to
 * the device: the next request opens a device service ("shell,v2,raw:...",
 * "sync:") and once it is OKAYed the socket is a raw byte pipe to it.
 */
#ifndef JG_ADB_CONN_H
#define JG_ADB_CONN_H

#include <stddef.h>

struct adb_server;
struct adb_device;
struct strbuf;

struct adb_conn {
	int fd;			/* -1 when closed */
	int timeout_ms;		/* for every wait on this connection */
};

/*
 * Connect to the server, starting it once with `adb start-server` when
 * nothing listens and adb is on PATH.  Returns 0, JG_EIO (not running,
 * cannot start), JG_ETIMEOUT.  On failure `c->fd` is -1.
 */
int adb_conn_open(struct adb_conn *c, struct adb_server *srv);

/*
 * Open a connection switched to `dev` with `service` accepted by the
 * device.  Errors are those of adb_conn_request(); the message is not
 * prefixed (callers add "device 'S': 'CMD': ").  Closes `c` on failure.
 */
int adb_conn_open_device(struct adb_conn *c, struct adb_device *dev,
    const char *service);

/* Close the socket; safe on a closed connection. */
void adb_conn_close(struct adb_conn *c);

/*
 * Send one request and read OKAY or FAIL.  A FAIL returns JG_EDEVICE for
 * device-selection failures (not found, offline, unauthorized: the message
 * says what to do) and JG_EGENERIC otherwise, always quoting the server.
 */
int adb_conn_request(struct adb_conn *c, const char *service);

/*
 * Wait up to `timeout_ms` until something (or the end of stream) can be
 * read.  0 or JG_ETIMEOUT.
 */
int adb_conn_wait(struct adb_conn *c, int timeout_ms);

/* Read OKAY or FAIL (a second status, as forward sends). */
int adb_conn_read_status(struct adb_conn *c);

/* Read a hex4-length "protocol string" into `out` (appended). */
int adb_conn_read_string(struct adb_conn *c, struct strbuf *out);

/*
 * Fill `buf` with `n` bytes.  Returns 1 when filled, 0 at end of stream
 * before the first byte, JG_ECLOSED when the stream ends part-way,
 * JG_ETIMEOUT, JG_ECLOSED on a reset.
 */
int adb_conn_read_full(struct adb_conn *c, void *buf, size_t n);

/* adb_conn_read_full() where an end of stream is JG_ECLOSED too. */
int adb_conn_read_exact(struct adb_conn *c, void *buf, size_t n);

/*
 * Append what arrives within `timeout_ms` (at most `max` bytes, one read)
 * to `out`.  Returns the byte count, 0 at end of stream, or an error.
 */
int adb_conn_read_some(struct adb_conn *c, struct strbuf *out, size_t max,
    int timeout_ms);

/*
 * Append everything until the peer closes to `out`.  More than `limit`
 * bytes (0: no limit) is JG_EPROTO.
 */
int adb_conn_read_to_eof(struct adb_conn *c, struct strbuf *out,
    size_t limit);

/* Write all of `buf`.  JG_ECLOSED when the peer is gone, JG_ETIMEOUT. */
int adb_conn_write(struct adb_conn *c, const void *buf, size_t len);

/*
 * Write all of `buf` while appending whatever the peer sends meanwhile to
 * `out`, so a peer that answers before reading everything cannot deadlock
 * us.  Errors as adb_conn_write(); `out` keeps what arrived.
 */
int adb_conn_write_collect(struct adb_conn *c, const void *buf, size_t len,
    struct strbuf *out);

/*
 * Prefix the current error with "device 'SERIAL': 'WHAT'" (WHAT cut after
 * 200 bytes) and return its code: the context every device error carries.
 */
int adb_device_error(const struct adb_device *dev, const char *what);

/*
 * poll() `fd` for `events` for at most `timeout_ms` (< 0: forever),
 * restarting after signals with the time left.  0 with *revents set
 * (`revents` may be NULL), JG_ETIMEOUT or JG_EIO.
 */
int adb_wait_fd(int fd, short events, int timeout_ms, short *revents);

/* Little-endian helpers for the binary protocols (shell v2, sync). */
void adb_put_le32(unsigned char *p, unsigned int v);
unsigned int adb_get_le32(const unsigned char *p);
unsigned long long adb_get_le64(const unsigned char *p);

#endif
