/*
 * adb.c: the adb server's host services and the device handle.
 *
 * Host services are one request and one "protocol string" answer on a
 * fresh connection (docs/adb.md §1.3).  The device lists they return look like
 * this (`host:devices-l` pads the serial to 22 columns; the state may hold
 * spaces, "no permissions (...)"; `host:devices` and track-devices use a
 * tab and stop after the state):
 *
 *	emulator-5554          device product:sdk_x86 model:Pixel_7 device:x transport_id:1
 *	127.0.0.1:7431         unauthorized transport_id:2
 *	127.0.0.1:7433\toffline
 *
 * A device handle is a serial, a timeout and the feature list, fetched
 * once from `host-serial:S:features`; device services open a connection,
 * switch it with `host:transport:S` (no payload, unlike host:tport, so it
 * works with every server version) and request the service.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "adb.h"
#include "adb_conn.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

struct adb_device {
	struct adb_server *srv;
	char *serial;		/* NULL: the only device */
	int timeout_ms;
	char *features;		/* NULL until known */
};

struct adb_tracker {
	struct adb_conn conn;
	atomic_int stopped;
};

/* Run host service `service` and append its protocol string to `out`. */
static int
host_query(struct adb_server *srv, const char *service, struct strbuf *out)
{
	struct adb_conn c;
	int rc;

	rc = adb_conn_open(&c, srv);
	if (!rc)
		rc = adb_conn_request(&c, service);
	if (!rc)
		rc = adb_conn_read_string(&c, out);
	adb_conn_close(&c);
	return rc;
}

int
adb_server_version(struct adb_server *srv, int *out)
{
	struct strbuf sb = STRBUF_INIT;
	char *end;
	int rc;

	rc = host_query(srv, "host:version", &sb);
	if (!rc) {
		long v = strtol(sb.buf, &end, 16);

		if (!sb.len || *end || v < 0 || v > 0xffff)
			rc = jg_error_set(JG_EPROTO, "bad version '%s'", sb.buf);
		else
			*out = (int)v;
	}
	strbuf_release(&sb);
	if (rc)
		jg_error_prefix("adb server at %s: 'host:version'",
		    adb_server_address(srv));
	return rc;
}

/* ---- device lists -------------------------------------------------- */

void
adb_device_list_release(struct adb_device_list *list)
{
	for (size_t i = 0; i < list->nr; i++) {
		struct adb_device_info *d = &list->items[i];

		free(d->serial);
		free(d->state);
		free(d->product);
		free(d->model);
		free(d->device);
	}
	free(list->items);
	list->items = NULL;
	list->nr = list->alloc = 0;
}

/* The value of " key:VALUE" when `tok` (of `len` bytes) is that key. */
static int
take_field(char **field, const char *key, const char *tok, size_t len)
{
	size_t klen = strlen(key);

	if (len <= klen || memcmp(tok, key, klen) || tok[klen] != ':')
		return 0;
	free(*field);
	*field = xstrndup(tok + klen + 1, len - klen - 1);
	return 1;
}

/*
 * Fill `d` from the words after the serial of a -l line: the state is
 * every word before the first known "key:value" word.
 */
static void
parse_long_fields(struct adb_device_info *d, const char *p, const char *end)
{
	struct strbuf state = STRBUF_INIT;
	int in_state = 1;

	while (p < end) {
		const char *tok;
		size_t len;
		char *tid = NULL;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		tok = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		len = (size_t)(p - tok);
		if (!len)
			break;
		if (take_field(&d->product, "product", tok, len) ||
		    take_field(&d->model, "model", tok, len) ||
		    take_field(&d->device, "device", tok, len) ||
		    take_field(&tid, "transport_id", tok, len) ||
		    (len > 4 && !memcmp(tok, "usb:", 4))) {
			in_state = 0;
			if (tid)
				d->transport_id = strtol(tid, NULL, 10);
			free(tid);
			continue;
		}
		if (!in_state)
			continue;	/* a field this parser does not know */
		if (state.len)
			strbuf_addch(&state, ' ');
		strbuf_add(&state, tok, len);
	}
	d->state = strbuf_detach(&state, NULL);
}

int
adb_device_list_parse(struct adb_device_list *list, const char *text,
    size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end, *sep, *tab;
		struct adb_device_info *d;

		if (le > p && le[-1] == '\r')
			le--;
		if (le == p) {
			p = eol ? eol + 1 : end;
			continue;
		}
		tab = memchr(p, '\t', (size_t)(le - p));
		sep = tab ? tab : memchr(p, ' ', (size_t)(le - p));
		if (!sep || sep == p)
			return jg_error_set(JG_EPROTO, "bad device line '%.*s'",
			    (int)(le - p), p);
		XALLOC_GROW(list->items, list->nr + 1, list->alloc);
		d = &list->items[list->nr++];
		memset(d, 0, sizeof(*d));
		d->serial = xstrndup(p, (size_t)(sep - p));
		parse_long_fields(d, sep + 1, le);
		d->product = d->product ? d->product : xstrdup("");
		d->model = d->model ? d->model : xstrdup("");
		d->device = d->device ? d->device : xstrdup("");
		if (!*d->state)
			return jg_error_set(JG_EPROTO, "no state for device "
			    "'%s'", d->serial);
		p = eol ? eol + 1 : end;
	}
	return 0;
}

int
adb_server_devices(struct adb_server *srv, struct adb_device_list *list,
    int long_format)
{
	const char *svc = long_format ? "host:devices-l" : "host:devices";
	struct strbuf sb = STRBUF_INIT;
	int rc;

	rc = host_query(srv, svc, &sb);
	if (!rc)
		rc = adb_device_list_parse(list, sb.buf, sb.len);
	strbuf_release(&sb);
	if (rc)
		jg_error_prefix("adb server at %s: '%s'",
		    adb_server_address(srv), svc);
	return rc;
}

/*
 * connect and disconnect answer OKAY even when they failed; only the text
 * tells.  `ok` lists the prefixes of success.
 */
static int
connect_like(struct adb_server *srv, const char *verb, const char *hostport,
    const char *const ok[])
{
	struct strbuf sb = STRBUF_INIT;
	char *svc = xasprintf("host:%s:%s", verb, hostport);
	int rc;

	rc = host_query(srv, svc, &sb);
	strbuf_rtrim(&sb);
	if (!rc) {
		rc = jg_error_set(JG_EDEVICE, "%s", sb.len ? sb.buf :
		    "empty reply");
		for (const char *const *o = ok; *o; o++)
			if (!strncmp(sb.buf, *o, strlen(*o)))
				rc = 0;
	}
	if (rc)
		jg_error_prefix("adb %s '%s'", verb, hostport);
	strbuf_release(&sb);
	free(svc);
	return rc;
}

int
adb_server_connect(struct adb_server *srv, const char *hostport)
{
	static const char *const ok[] = { "connected to", "already connected",
	    NULL };

	return connect_like(srv, "connect", hostport, ok);
}

int
adb_server_disconnect(struct adb_server *srv, const char *hostport)
{
	static const char *const ok[] = { "disconnected", NULL };

	return connect_like(srv, "disconnect", hostport, ok);
}

/* ---- track-devices ------------------------------------------------- */

int
adb_tracker_open(struct adb_tracker **out, struct adb_server *srv)
{
	struct adb_tracker *t = xcalloc(1, sizeof(*t));
	int rc;

	*out = NULL;
	atomic_init(&t->stopped, 0);
	rc = adb_conn_open(&t->conn, srv);
	if (!rc)
		rc = adb_conn_request(&t->conn, "host:track-devices");
	if (rc) {
		jg_error_prefix("adb server at %s: 'host:track-devices'",
		    adb_server_address(srv));
		adb_tracker_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int
adb_tracker_next(struct adb_tracker *t, struct adb_device_list *list,
    int timeout_ms)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (atomic_load(&t->stopped))
		return jg_error_set(JG_EINTR, "device tracking stopped");
	/*
	 * Only the wait for the first byte uses the caller's timeout: the
	 * rest of a list comes at once, and giving up inside it would
	 * desynchronize the stream.
	 */
	rc = adb_conn_wait(&t->conn, timeout_ms);
	if (rc == JG_ETIMEOUT)
		rc = jg_error_set(JG_ETIMEOUT, "the device list did not change "
		    "within %d ms", timeout_ms);
	if (!rc)
		rc = adb_conn_read_string(&t->conn, &sb);
	if (!rc)
		rc = adb_device_list_parse(list, sb.buf, sb.len);
	if (atomic_load(&t->stopped))
		rc = jg_error_set(JG_EINTR, "device tracking stopped");
	strbuf_release(&sb);
	return rc;
}

void
adb_tracker_stop(struct adb_tracker *t)
{
	atomic_store(&t->stopped, 1);
	shutdown(t->conn.fd, SHUT_RDWR);
}

void
adb_tracker_free(struct adb_tracker *t)
{
	if (!t)
		return;
	adb_conn_close(&t->conn);
	free(t);
}

/* ---- the device handle ----------------------------------------------- */

struct adb_device *
adb_device_new(struct adb_server *srv, const char *serial)
{
	struct adb_device *dev = xcalloc(1, sizeof(*dev));

	dev->srv = srv;
	dev->serial = serial ? xstrdup(serial) : NULL;
	dev->timeout_ms = adb_server_timeout(srv);
	return dev;
}

void
adb_device_free(struct adb_device *dev)
{
	if (!dev)
		return;
	free(dev->serial);
	free(dev->features);
	free(dev);
}

const char *
adb_device_serial(const struct adb_device *dev)
{
	return dev->serial ? dev->serial : "(any)";
}

struct adb_server *
adb_device_server(const struct adb_device *dev)
{
	return dev->srv;
}

void
adb_device_set_timeout(struct adb_device *dev, int timeout_ms)
{
	dev->timeout_ms = timeout_ms > 0 ? timeout_ms :
	    adb_server_timeout(dev->srv);
}

int
adb_device_timeout(const struct adb_device *dev)
{
	return dev->timeout_ms;
}

int
adb_device_error(const struct adb_device *dev, const char *what)
{
	size_t len = strlen(what);

	return jg_error_prefix("device '%s': '%.*s%s'", adb_device_serial(dev),
	    len > 200 ? 200 : (int)len, what, len > 200 ? "..." : "");
}

/* "host-serial:S:WHAT", or "host:WHAT" for the only device. */
static char *
host_serial(const struct adb_device *dev, const char *what)
{
	return dev->serial ? xasprintf("host-serial:%s:%s", dev->serial, what) :
	    xasprintf("host:%s", what);
}

/* A host query about this device, with the device's timeout. */
static int
device_query(struct adb_device *dev, const char *what, struct strbuf *out)
{
	struct adb_conn c;
	char *svc = host_serial(dev, what);
	int rc;

	rc = adb_conn_open(&c, dev->srv);
	c.timeout_ms = dev->timeout_ms;
	if (!rc)
		rc = adb_conn_request(&c, svc);
	if (!rc)
		rc = adb_conn_read_string(&c, out);
	adb_conn_close(&c);
	free(svc);
	if (rc)
		adb_device_error(dev, what);
	return rc;
}

int
adb_device_features(struct adb_device *dev, const char **out)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (!dev->features) {
		rc = device_query(dev, "features", &sb);
		if (rc) {
			strbuf_release(&sb);
			return rc;
		}
		dev->features = strbuf_detach(&sb, NULL);
	}
	*out = dev->features;
	return 0;
}

void
adb_device_set_features(struct adb_device *dev, const char *features)
{
	free(dev->features);
	dev->features = features ? xstrdup(features) : NULL;
}

int
adb_device_has_feature(struct adb_device *dev, const char *feature)
{
	const char *list, *p;
	size_t len = strlen(feature);
	int rc = adb_device_features(dev, &list);

	if (rc)
		return rc;
	for (p = list; *p; p += strcspn(p, ","), p += *p == ',') {
		if (strcspn(p, ",") == len && !memcmp(p, feature, len))
			return 1;
	}
	return 0;
}

int
adb_device_get_state(struct adb_device *dev, struct strbuf *out)
{
	return device_query(dev, "get-state", out);
}

int
adb_conn_open_device(struct adb_conn *c, struct adb_device *dev,
    const char *service)
{
	char *tr = dev->serial ? xasprintf("host:transport:%s", dev->serial) :
	    xstrdup("host:transport-any");
	int rc;

	rc = adb_conn_open(c, dev->srv);
	c->timeout_ms = dev->timeout_ms;
	if (!rc)
		rc = adb_conn_request(c, tr);
	if (!rc)
		rc = adb_conn_request(c, service);
	if (rc)
		adb_conn_close(c);
	free(tr);
	return rc;
}

/* ---- port forwarding ----------------------------------------------- */

int
adb_device_forward(struct adb_device *dev, int local_port,
    const char *remote, int *bound)
{
	struct strbuf sb = STRBUF_INIT;
	struct adb_conn c;
	char *what = xasprintf("forward:tcp:%d;%s", local_port, remote);
	char *svc = host_serial(dev, what);
	int rc;

	/* The server answers OKAY (accepted), then OKAY or FAIL (result). */
	rc = adb_conn_open(&c, dev->srv);
	c.timeout_ms = dev->timeout_ms;
	if (!rc)
		rc = adb_conn_request(&c, svc);
	if (!rc)
		rc = adb_conn_read_status(&c);
	if (!rc && !local_port) {
		char *end;
		long port;

		rc = adb_conn_read_string(&c, &sb);
		port = strtol(sb.buf, &end, 10);
		if (!rc && (!sb.len || *end || port < 1 || port > 65535))
			rc = jg_error_set(JG_EPROTO, "bad port '%s'", sb.buf);
		local_port = (int)port;
	}
	if (!rc && bound)
		*bound = local_port;
	adb_conn_close(&c);
	if (rc)
		adb_device_error(dev, what);
	strbuf_release(&sb);
	free(svc);
	free(what);
	return rc;
}

int
adb_device_forward_remove(struct adb_device *dev, int local_port)
{
	struct adb_conn c;
	char *what = xasprintf("killforward:tcp:%d", local_port);
	char *svc = host_serial(dev, what);
	int rc;

	rc = adb_conn_open(&c, dev->srv);
	c.timeout_ms = dev->timeout_ms;
	if (!rc)
		rc = adb_conn_request(&c, svc);
	if (!rc)
		rc = adb_conn_read_status(&c);
	adb_conn_close(&c);
	if (rc)
		adb_device_error(dev, what);
	free(svc);
	free(what);
	return rc;
}
