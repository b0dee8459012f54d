/*
 * adb_conn.c: bytes and framing on one connection to the adb server.
 *
 * Sockets are non-blocking and every wait is a poll() with the
 * connection's timeout; sends use MSG_NOSIGNAL so a dead peer is an error,
 * not a SIGPIPE (the library installs no signal handlers).  A wait
 * looks at cancel.h's request between slices of its poll, so a command
 * whose device hangs is abandoned (JG_EINTR) soon after a cancel.  The
 * framing is drawn in adb_conn.h.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "adb_conn.h"
#include "cancel.h"
#include "error.h"
#include "monoclock.h"
#include "strbuf.h"
#include "banned.h"

int
adb_wait_fd(int fd, short events, int timeout_ms, short *revents)
{
	long long deadline = monoclock_real_ms() + timeout_ms;
	struct pollfd pf = { fd, events, 0 };

	for (;;) {
		long long left = timeout_ms < 0 ? -1 : deadline - monoclock_real_ms();
		long long slice;
		int n;

		if (cancel_pending())
			return jg_error_set(JG_EINTR, "interrupted");
		if (timeout_ms >= 0 && left < 0)
			left = 0;
		/* In slices, so a cancel abandons a command that hangs. */
		slice = left < 0 || left > CANCEL_POLL_MS ? CANCEL_POLL_MS :
		    left;
		n = poll(&pf, 1, (int)slice);
		if (n > 0) {
			if (revents)
				*revents = pf.revents;
			return 0;
		}
		if (n == 0 && slice == left)
			return jg_error_set(JG_ETIMEOUT, "no answer within %d ms",
			    timeout_ms);
		if (n < 0 && errno != EINTR)
			return jg_error_errno(JG_EIO, errno, "poll");
	}
}

/* ---- bytes --------------------------------------------------------- */

void
adb_conn_close(struct adb_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int
adb_conn_write(struct adb_conn *c, const void *buf, size_t len)
{
	return adb_conn_write_collect(c, buf, len, NULL);
}

int
adb_conn_write_collect(struct adb_conn *c, const void *buf, size_t len,
    struct strbuf *out)
{
	const char *p = buf;
	short events = out ? POLLOUT | POLLIN : POLLOUT, rev = 0;
	int rc;

	while (len) {
		ssize_t n;

		if ((rc = adb_wait_fd(c->fd, events, c->timeout_ms, &rev)))
			return rc;
		if (out && (rev & POLLIN)) {
			rc = adb_conn_read_some(c, out, 65536, 0);
			if (rc == 0)
				return jg_error_set(JG_ECLOSED, "connection "
				    "closed while sending");
			if (rc < 0)
				return rc;
			if (!(rev & POLLOUT))
				continue;
		}
		n = send(c->fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno == EPIPE || errno == ECONNRESET)
				return jg_error_errno(JG_ECLOSED, errno,
				    "connection lost while sending");
			return jg_error_errno(JG_EIO, errno, "send");
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
adb_conn_wait(struct adb_conn *c, int timeout_ms)
{
	return adb_wait_fd(c->fd, POLLIN, timeout_ms, NULL);
}

int
adb_conn_read_some(struct adb_conn *c, struct strbuf *out, size_t max,
    int timeout_ms)
{
	for (;;) {
		ssize_t n;
		int rc = adb_wait_fd(c->fd, POLLIN, timeout_ms, NULL);

		if (rc)
			return rc;
		strbuf_grow(out, max);
		n = recv(c->fd, out->buf + out->len, max, 0);
		if (n > 0) {
			strbuf_setlen(out, out->len + (size_t)n);
			return n > INT_MAX ? INT_MAX : (int)n;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR || errno == EAGAIN)
			continue;
		if (errno == ECONNRESET || errno == EPIPE)
			return jg_error_errno(JG_ECLOSED, errno, "connection lost");
		return jg_error_errno(JG_EIO, errno, "recv");
	}
}

int
adb_conn_read_full(struct adb_conn *c, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t k;
		int rc = adb_wait_fd(c->fd, POLLIN, c->timeout_ms, NULL);

		if (rc)
			return rc;
		k = recv(c->fd, p + got, n - got, 0);
		if (k > 0) {
			got += (size_t)k;
			continue;
		}
		if (k == 0)
			return got ? jg_error_set(JG_ECLOSED, "connection closed "
			    "after %zu of %zu bytes", got, n) : 0;
		if (errno == EINTR || errno == EAGAIN)
			continue;
		if (errno == ECONNRESET || errno == EPIPE)
			return jg_error_errno(JG_ECLOSED, errno, "connection lost");
		return jg_error_errno(JG_EIO, errno, "recv");
	}
	return 1;
}

int
adb_conn_read_exact(struct adb_conn *c, void *buf, size_t n)
{
	int rc = adb_conn_read_full(c, buf, n);

	if (rc == 0)
		return jg_error_set(JG_ECLOSED, "connection closed by the adb "
		    "server");
	return rc < 0 ? rc : 0;
}

int
adb_conn_read_to_eof(struct adb_conn *c, struct strbuf *out, size_t limit)
{
	size_t start = out->len;
	int rc;

	while ((rc = adb_conn_read_some(c, out, 65536, c->timeout_ms)) > 0)
		if (limit && out->len - start > limit)
			return jg_error_set(JG_EPROTO, "more than %zu bytes of "
			    "reply", limit);
	return rc;
}

/* ---- framing ------------------------------------------------------- */

static int
parse_hex4(const char *p, size_t *out)
{
	size_t v = 0;

	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)p[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + (size_t)d;
	}
	*out = v;
	return 0;
}

int
adb_conn_read_string(struct adb_conn *c, struct strbuf *out)
{
	char hex[4];
	size_t len;
	int rc;

	if ((rc = adb_conn_read_exact(c, hex, 4)))
		return rc;
	if (parse_hex4(hex, &len))
		return jg_error_set(JG_EPROTO, "bad length '%.4s' from the adb "
		    "server", hex);
	strbuf_grow(out, len);
	if ((rc = adb_conn_read_exact(c, out->buf + out->len, len)))
		return rc;
	strbuf_setlen(out, out->len + len);
	return 0;
}

/*
 * Turn the server's FAIL text into an error.  Device selection failures
 * get JG_EDEVICE and, for the two states a person must fix, advice.
 */
static int
fail_error(const struct strbuf *text)
{
	const char *t = text->buf;
	int first = (int)strcspn(t, "\n");

	if (strstr(t, "unauthorized"))
		return jg_error_set(JG_EDEVICE, "device is unauthorized: accept "
		    "the 'Allow USB debugging' prompt on the device, or check "
		    "$ADB_VENDOR_KEYS (adb server: '%.*s')", first, t);
	if (strstr(t, "offline"))
		return jg_error_set(JG_EDEVICE, "device is offline: replug it, "
		    "or run 'adb disconnect' and 'adb connect' for a network "
		    "device (adb server: '%.*s')", first, t);
	if (!strcmp(t, "closed"))
		return jg_error_set(JG_EDEVICE, "the device refused the service "
		    "(adb server: 'closed')");
	if (strstr(t, "not found") || strstr(t, "no devices") ||
	    strstr(t, "no such device") || strstr(t, "more than one"))
		return jg_error_set(JG_EDEVICE, "adb server: '%s'", t);
	return jg_error_set(JG_EGENERIC, "adb server: '%s'", t);
}

int
adb_conn_read_status(struct adb_conn *c)
{
	struct strbuf text = STRBUF_INIT;
	char st[4];
	int rc;

	if ((rc = adb_conn_read_exact(c, st, 4)))
		return rc;
	if (!memcmp(st, "OKAY", 4))
		return 0;
	if (memcmp(st, "FAIL", 4))
		return jg_error_set(JG_EPROTO, "expected OKAY or FAIL from the "
		    "adb server, got '%.4s'", st);
	rc = adb_conn_read_string(c, &text);
	if (!rc)
		rc = fail_error(&text);
	strbuf_release(&text);
	return rc;
}

int
adb_conn_request(struct adb_conn *c, const char *service)
{
	struct strbuf req = STRBUF_INIT;
	size_t len = strlen(service);
	int rc;

	/* Four hex digits cannot say more; the server refuses 0. */
	if (!len || len > 0xffff)
		return jg_error_set(JG_EINVAL, "request of %zu bytes: must be "
		    "1 to 65535", len);
	strbuf_addf(&req, "%04zx", len);
	strbuf_add(&req, service, len);
	rc = adb_conn_write(c, req.buf, req.len);
	strbuf_release(&req);
	return rc ? rc : adb_conn_read_status(c);
}

/* ---- little-endian helpers ------------------------------------------- */

void
adb_put_le32(unsigned char *p, unsigned int v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

unsigned int
adb_get_le32(const unsigned char *p)
{
	return (unsigned int)p[0] | (unsigned int)p[1] << 8 |
	    (unsigned int)p[2] << 16 | (unsigned int)p[3] << 24;
}

unsigned long long
adb_get_le64(const unsigned char *p)
{
	return (unsigned long long)adb_get_le32(p) |
	    (unsigned long long)adb_get_le32(p + 4) << 32;
}
