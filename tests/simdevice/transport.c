/*
 * transport.c: accepting the adb server's connections, the CNXN/AUTH
 * handshake, and dispatching packets to streams.
 *
 * Design (see conn.h for the locks): one thread per TCP connection reads
 * packets and never blocks on a stream's behalf, one thread per stream runs
 * the service, and writers take a per-connection write lock for whole
 * packets.  A `sleep 5` or a streaming `logcat` therefore never holds up
 * other streams; flow control is per stream (one WRTE in flight each way,
 * docs/adb.md §2.6).  The price is a thread per open stream, which is nothing
 * for a test rig.
 *
 * The handshake follows docs/adb.md §2.5: CNXN is answered with our CNXN (after
 * the cnxn-delay-ms fault, if any), or with an AUTH token when --auth asks
 * for it.  A second CNXN on a live link restarts the transport, closing its
 * streams, as adbd does.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "adbwire.h"
#include "conn.h"
#include "error.h"
#include "simdev.h"
#include "strbuf.h"
#include "transport.h"
#include "xalloc.h"
#include "banned.h"

struct transport {
	struct simdev *dev;
	int lfd;
	int port;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct conn *conns;
};

void
conn_cond_init(pthread_cond_t *cond)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
}

void
conn_timedwait(struct conn *c, pthread_cond_t *cond, double ms)
{
	struct timespec ts;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ns = (long long)ts.tv_nsec + (long long)(ms * 1e6);
	ts.tv_sec += (time_t)(ns / 1000000000LL);
	ts.tv_nsec = (long)(ns % 1000000000LL);
	pthread_cond_timedwait(cond, &c->lock, &ts);
}

int
conn_send(struct conn *c, uint32_t cmd, uint32_t arg0, uint32_t arg1,
    const void *data, size_t len)
{
	int ret, checksum;

	pthread_mutex_lock(&c->lock);
	checksum = c->version < A_VERSION_SKIP_CHECKSUM;
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_lock(&c->wlock);
	ret = adbwire_write(c->fd, cmd, arg0, arg1, data, len, checksum);
	pthread_mutex_unlock(&c->wlock);
	return ret;
}

/* Lock held. */
static void
close_all_streams(struct conn *c)
{
	size_t i;

	for (i = 0; i < c->nr_streams; i++)
		stream_on_close(c->streams[i]);
}

void
conn_drop(struct conn *c)
{
	pthread_mutex_lock(&c->lock);
	c->dead = 1;
	close_all_streams(c);
	pthread_cond_broadcast(&c->cond);
	/* Under the lock: teardown closes the fd (and sets -1) under it. */
	if (c->fd >= 0)
		shutdown(c->fd, SHUT_RDWR);
	pthread_mutex_unlock(&c->lock);
}

/* Replace the banner's forbidden characters (docs/adb.md §2.4). */
static void
add_banner_value(struct strbuf *sb, const char *v)
{
	for (; *v; v++)
		strbuf_addch(sb, strchr(":;=,", *v) ? '_' : *v);
}

static void
add_banner_prop(struct strbuf *sb, struct simdev *dev, const char *key)
{
	struct strbuf v = STRBUF_INIT;

	simkv_get(&dev->props, key, &v);
	strbuf_addf(sb, "%s=", key);
	add_banner_value(sb, v.buf);
	strbuf_addch(sb, ';');
	strbuf_release(&v);
}

static int
send_cnxn(struct conn *c)
{
	struct strbuf banner = STRBUF_INIT;
	const char *f;
	int ret;

	strbuf_addstr(&banner, "device::");
	add_banner_prop(&banner, c->dev, "ro.product.name");
	add_banner_prop(&banner, c->dev, "ro.product.model");
	add_banner_prop(&banner, c->dev, "ro.product.device");
	strbuf_addstr(&banner, "features=");
	/* Features keep their commas; anything else odd is replaced. */
	for (f = c->dev->features; *f; f++)
		strbuf_addch(&banner, strchr(":;=", *f) ? '_' : *f);
	if (banner.len > ADB_MAX_PAYLOAD_V1)
		strbuf_setlen(&banner, ADB_MAX_PAYLOAD_V1);
	pthread_mutex_lock(&c->lock);
	c->online = 1;
	pthread_mutex_unlock(&c->lock);
	ret = conn_send(c, A_CNXN, c->dev->proto_version, c->dev->maxdata,
	    banner.buf, banner.len);
	strbuf_release(&banner);
	return ret;
}

static int
send_token(struct conn *c)
{
	unsigned char token[20];
	size_t got = 0;

	while (got < sizeof(token)) {
		ssize_t n = getrandom(token + got, sizeof(token) - got, 0);

		if (n > 0)
			got += (size_t)n;
		else if (errno != EINTR)
			return jg_error_errno(JG_EIO, errno, "getrandom");
	}
	return conn_send(c, A_AUTH, ADB_AUTH_TOKEN, 0, token, sizeof(token));
}

/* Answer CNXN late, waking early if the link is dropped meanwhile. */
static int
send_cnxn_delayed(struct conn *c, long delay_ms)
{
	struct timespec start, now;
	double left = (double)delay_ms;

	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&c->lock);
	while (left > 0 && !c->dead) {
		conn_timedwait(c, &c->cond, left);
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (double)delay_ms -
		    ((double)(now.tv_sec - start.tv_sec) * 1e3 +
		    (double)(now.tv_nsec - start.tv_nsec) / 1e6);
	}
	left = c->dead;
	pthread_mutex_unlock(&c->lock);
	return left ? JG_ECLOSED : send_cnxn(c);
}

static int
on_cnxn(struct conn *c, const struct adbmsg *msg)
{
	struct simdev *dev = c->dev;
	struct faults f;
	long delay;

	faults_init(&f);
	simdev_faults(dev, &f);
	delay = f.cnxn_delay_ms;
	pthread_mutex_lock(&c->lock);
	c->drop_after = f.drop_after_packets;
	c->version = msg->arg0 < dev->proto_version ?
	    msg->arg0 : dev->proto_version;
	c->maxdata = msg->arg1 < dev->maxdata ? msg->arg1 : dev->maxdata;
	if (c->maxdata < ADB_MAX_PAYLOAD_V1)
		c->maxdata = ADB_MAX_PAYLOAD_V1;
	c->online = 0;
	close_all_streams(c);
	pthread_mutex_unlock(&c->lock);
	faults_release(&f);
	if (dev->auth != SIMDEV_AUTH_NONE)
		return send_token(c);
	return send_cnxn_delayed(c, delay);
}

static int
on_auth(struct conn *c, const struct adbmsg *msg)
{
	enum simdev_auth mode = c->dev->auth;
	struct faults f;
	long delay;
	int online;

	pthread_mutex_lock(&c->lock);
	online = c->online;
	pthread_mutex_unlock(&c->lock);
	if (mode == SIMDEV_AUTH_NONE || online)
		return 0;
	if (msg->arg0 == ADB_AUTH_SIGNATURE && mode != SIMDEV_AUTH_ACCEPT)
		return send_token(c);
	if (msg->arg0 == ADB_AUTH_RSAPUBLICKEY && mode == SIMDEV_AUTH_REJECT)
		return 0;
	if (msg->arg0 != ADB_AUTH_SIGNATURE &&
	    msg->arg0 != ADB_AUTH_RSAPUBLICKEY)
		return 0;
	faults_init(&f);
	simdev_faults(c->dev, &f);
	delay = f.cnxn_delay_ms;
	faults_release(&f);
	return send_cnxn_delayed(c, delay);
}

static void
on_stream_packet(struct conn *c, const struct adbmsg *msg,
    const struct strbuf *data)
{
	struct simstream *st;
	uint32_t local = 0, remote = 0;
	int ack = 0;

	pthread_mutex_lock(&c->lock);
	st = stream_find(c, msg->arg1);
	if (st && msg->command == A_OKAY)
		stream_on_okay(st);
	else if (st && msg->command == A_CLSE)
		stream_on_close(st);
	else if (st && msg->command == A_WRTE) {
		ack = stream_on_write(st, data->buf, data->len);
		stream_ids(st, &local, &remote);
	}
	pthread_mutex_unlock(&c->lock);
	if (ack)
		conn_send(c, A_OKAY, local, remote, NULL, 0);
}

static int
dispatch(struct conn *c, const struct adbmsg *msg, struct strbuf *data)
{
	int online;

	switch (msg->command) {
	case A_CNXN:
		return on_cnxn(c, msg);
	case A_AUTH:
		return on_auth(c, msg);
	case A_OPEN:
		pthread_mutex_lock(&c->lock);
		online = c->online;
		pthread_mutex_unlock(&c->lock);
		if (!msg->arg0)
			return 0;
		if (!online)
			return conn_send(c, A_CLSE, 0, msg->arg0, NULL, 0);
		while (data->len && data->buf[data->len - 1] == '\0')
			strbuf_setlen(data, data->len - 1);
		stream_open(c, msg->arg0, data->buf, data->len);
		return 0;
	case A_OKAY:
	case A_WRTE:
	case A_CLSE:
		on_stream_packet(c, msg, data);
		return 0;
	default:
		return 0;	/* A_SYNC and newer commands: ignored */
	}
}

static void
conn_teardown(struct conn *c)
{
	struct transport *t = c->t;
	struct conn **pp;

	conn_drop(c);
	pthread_mutex_lock(&c->lock);
	while (c->nr_streams)
		pthread_cond_wait(&c->cond, &c->lock);
	close(c->fd);
	c->fd = -1;
	pthread_mutex_unlock(&c->lock);

	/*
	 * Unlink and free under the transport's lock: transport_serve()
	 * drops connections while holding it, and stops waiting as soon as
	 * the list is empty.
	 */
	pthread_mutex_lock(&t->lock);
	for (pp = &t->conns; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	free(c->streams);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->wlock);
	pthread_cond_destroy(&c->cond);
	free(c);
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

static void *
conn_main(void *arg)
{
	struct conn *c = arg;
	struct strbuf data = STRBUF_INIT;
	struct adbmsg msg;
	int ret;

	while (!(ret = adbwire_read(c->fd, &msg, &data, ADB_MAX_PAYLOAD))) {
		int drop;

		if (dispatch(c, &msg, &data))
			break;
		pthread_mutex_lock(&c->lock);
		c->packets_in++;
		drop = c->drop_after > 0 &&
		    c->packets_in >= (unsigned long)c->drop_after;
		pthread_mutex_unlock(&c->lock);
		if (drop)
			break;
	}
	if (ret == JG_EPROTO)
		simdev_warn("dropping the link: %s", jg_error_msg());
	strbuf_release(&data);
	conn_teardown(c);
	return NULL;
}

int
transport_listen(struct transport **out, struct simdev *dev,
    const char *addr, int port)
{
	struct sockaddr_in sin;
	socklen_t slen = sizeof(sin);
	struct transport *t;
	int fd, one = 1;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return jg_error_set(JG_EINVAL, "bad address '%s'", addr);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return jg_error_errno(JG_EIO, errno, "socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)&sin, &slen)) {
		int e = errno;

		close(fd);
		return jg_error_errno(JG_EIO, e, "cannot listen on %s:%d",
		    addr, port);
	}
	t = xcalloc(1, sizeof(*t));
	t->dev = dev;
	t->lfd = fd;
	t->port = ntohs(sin.sin_port);
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	*out = t;
	return 0;
}

int
transport_port(const struct transport *t)
{
	return t->port;
}

static void
start_conn(struct transport *t, int fd)
{
	struct conn *c = xcalloc(1, sizeof(*c));
	pthread_attr_t attr;
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->t = t;
	c->dev = t->dev;
	c->fd = fd;
	c->version = A_VERSION_MIN;
	c->maxdata = ADB_MAX_PAYLOAD_V1;
	c->next_id = 1;
	pthread_mutex_init(&c->wlock, NULL);
	pthread_mutex_init(&c->lock, NULL);
	conn_cond_init(&c->cond);

	pthread_mutex_lock(&t->lock);
	c->next = t->conns;
	t->conns = c;
	pthread_mutex_unlock(&t->lock);

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&c->thread, &attr, conn_main, c)) {
		simdev_warn("cannot start a connection thread");
		conn_teardown(c);
	}
	pthread_attr_destroy(&attr);
}

/* Drop every connection (the stop signal, or the drop-at-ms fault). */
static void
drop_all(struct transport *t)
{
	struct conn *c;

	pthread_mutex_lock(&t->lock);
	for (c = t->conns; c; c = c->next)
		conn_drop(c);
	pthread_mutex_unlock(&t->lock);
}

/*
 * Has the drop-at-ms moment come?  Checked on the device clock (which
 * may be virtual), so the serve loop polls while one is pending.
 */
static int
drop_due(struct transport *t)
{
	struct simdev *dev = t->dev;

	return dev->drop_at_ms >= 0 && simdev_now_ns(dev) - dev->start_ns >=
	    dev->drop_at_ms * 1000000LL;
}

int
transport_serve(struct transport *t, int stop_fd)
{
	struct pollfd pfd[2];
	int ret = 0, gone = 0;

	pfd[0].fd = t->lfd;
	pfd[0].events = POLLIN;
	pfd[1].fd = stop_fd;
	pfd[1].events = POLLIN;
	for (;;) {
		int fd, wait_ms = t->dev->drop_at_ms >= 0 && !gone ? 20 : -1;

		if (!gone && drop_due(t)) {
			/* The phone is gone: links close, new ones too. */
			simdev_log(t->dev, "drop", "drop-at-ms");
			drop_all(t);
			gone = 1;
		}
		if (poll(pfd, 2, wait_ms) < 0) {
			if (errno == EINTR)
				continue;
			ret = jg_error_errno(JG_EIO, errno, "poll");
			break;
		}
		if (pfd[1].revents)
			break;
		if (!(pfd[0].revents & POLLIN))
			continue;
		fd = accept4(t->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			ret = jg_error_errno(JG_EIO, errno, "accept");
			break;
		}
		if (gone)
			close(fd);
		else
			start_conn(t, fd);
	}

	drop_all(t);
	pthread_mutex_lock(&t->lock);
	while (t->conns)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
	return ret;
}

void
transport_free(struct transport *t)
{
	if (!t)
		return;
	close(t->lfd);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	free(t);
}
