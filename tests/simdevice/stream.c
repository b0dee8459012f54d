/*
 * stream.c: streams on a connection, their threads and flow control.
 *
 * Life of a stream: the reader registers it on OPEN and starts its thread;
 * the thread applies the faults, finds the service, answers OKAY or CLSE,
 * runs the service, waits (at most 2 s, like adbd) for the host to OKAY
 * the last WRTE, sends CLSE unless the host closed first, and unregisters.
 *
 * Flow control towards the host: one WRTE in flight; `can_write` is set by
 * the OPEN (which implies READY) and by each OKAY.  From the host: the
 * reader OKAYs each WRTE at once while less than IN_LIMIT bytes wait
 * unread, otherwise the reading thread OKAYs once it has caught up, so a
 * slow consumer slows the host instead of growing the buffer.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "adbwire.h"
#include "conn.h"
#include "faults.h"
#include "service.h"
#include "simdev.h"
#include "stream.h"
#include "xalloc.h"
#include "banned.h"

#define IN_LIMIT (4u * 1024 * 1024)
#define LAST_OKAY_WAIT_MS 2000.0

struct simstream {
	struct conn *conn;
	uint32_t local_id, remote_id;
	char *service;
	size_t service_len;
	char *service_text;		/* NULs shown as spaces */
	pthread_cond_t cond;
	int can_write;
	int closed;
	int stall;
	int okay_owed;
	struct strbuf in;
	size_t in_pos;
};

struct simdev *
simstream_dev(struct simstream *st)
{
	return st->conn->dev;
}

const char *
simstream_service(struct simstream *st, size_t *len)
{
	*len = st->service_len;
	return st->service;
}

struct simstream *
stream_find(struct conn *c, uint32_t local_id)
{
	size_t i;

	for (i = 0; i < c->nr_streams; i++)
		if (c->streams[i]->local_id == local_id)
			return c->streams[i];
	return NULL;
}

void
stream_ids(const struct simstream *st, uint32_t *local_id,
    uint32_t *remote_id)
{
	*local_id = st->local_id;
	*remote_id = st->remote_id;
}

void
stream_on_okay(struct simstream *st)
{
	st->can_write = 1;
	pthread_cond_broadcast(&st->cond);
}

int
stream_on_write(struct simstream *st, const void *data, size_t len)
{
	if (st->closed)
		return 0;
	strbuf_add(&st->in, data, len);
	pthread_cond_broadcast(&st->cond);
	if (st->stall)
		return 0;
	if (st->in.len - st->in_pos >= IN_LIMIT) {
		st->okay_owed = 1;
		return 0;
	}
	return 1;
}

void
stream_on_close(struct simstream *st)
{
	st->closed = 1;
	pthread_cond_broadcast(&st->cond);
}

size_t
simstream_read(struct simstream *st, void *buf, size_t len)
{
	struct conn *c = st->conn;
	size_t n;
	int owed = 0;

	pthread_mutex_lock(&c->lock);
	while (st->in_pos == st->in.len && !st->closed)
		pthread_cond_wait(&st->cond, &c->lock);
	n = st->in.len - st->in_pos;
	if (n > len)
		n = len;
	memcpy(buf, st->in.buf + st->in_pos, n);
	st->in_pos += n;
	if (st->in_pos == st->in.len) {
		strbuf_reset(&st->in);
		st->in_pos = 0;
	} else if (st->in_pos >= IN_LIMIT) {
		strbuf_remove(&st->in, 0, st->in_pos);
		st->in_pos = 0;
	}
	if (st->okay_owed && !st->closed &&
	    st->in.len - st->in_pos < IN_LIMIT) {
		st->okay_owed = 0;
		owed = 1;
	}
	pthread_mutex_unlock(&c->lock);
	if (owed)
		conn_send(c, A_OKAY, st->local_id, st->remote_id, NULL, 0);
	return n;
}

int
simstream_read_full(struct simstream *st, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		size_t n = simstream_read(st, p, len);

		if (!n)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int
simstream_write(struct simstream *st, const void *buf, size_t len)
{
	struct conn *c = st->conn;
	const char *p = buf;

	while (len) {
		size_t n;

		pthread_mutex_lock(&c->lock);
		while (!st->can_write && !st->closed)
			pthread_cond_wait(&st->cond, &c->lock);
		if (st->closed) {
			pthread_mutex_unlock(&c->lock);
			return -1;
		}
		st->can_write = 0;
		n = len < c->maxdata ? len : c->maxdata;
		pthread_mutex_unlock(&c->lock);
		if (conn_send(c, A_WRTE, st->local_id, st->remote_id, p, n))
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int
simstream_sleep(struct simstream *st, double ms)
{
	struct conn *c = st->conn;
	struct timespec start, now;
	double left = ms;
	int closed;

	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&c->lock);
	while (left > 0 && !st->closed) {
		conn_timedwait(c, &st->cond, left);
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - ((double)(now.tv_sec - start.tv_sec) * 1e3 +
		    (double)(now.tv_nsec - start.tv_nsec) / 1e6);
	}
	closed = st->closed;
	pthread_mutex_unlock(&c->lock);
	return closed ? -1 : 0;
}

int
simstream_closed(struct simstream *st)
{
	int closed;

	pthread_mutex_lock(&st->conn->lock);
	closed = st->closed;
	pthread_mutex_unlock(&st->conn->lock);
	return closed;
}

void
simstream_drop_link(struct simstream *st)
{
	conn_drop(st->conn);
}

/* Wait for the OKAY of our last WRTE, then CLSE unless the host did. */
void
simstream_close(struct simstream *st)
{
	struct conn *c = st->conn;
	struct timespec start, now;
	double left = LAST_OKAY_WAIT_MS;
	int send_clse;

	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_lock(&c->lock);
	while (!st->can_write && !st->closed && left > 0) {
		conn_timedwait(c, &st->cond, left);
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = LAST_OKAY_WAIT_MS -
		    ((double)(now.tv_sec - start.tv_sec) * 1e3 +
		    (double)(now.tv_nsec - start.tv_nsec) / 1e6);
	}
	send_clse = !st->closed;
	st->closed = 1;
	pthread_cond_broadcast(&st->cond);
	pthread_mutex_unlock(&c->lock);
	if (send_clse)
		conn_send(c, A_CLSE, st->local_id, st->remote_id, NULL, 0);
}

static void
stream_unregister(struct simstream *st)
{
	struct conn *c = st->conn;
	size_t i;

	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->nr_streams; i++) {
		if (c->streams[i] == st) {
			memmove(c->streams + i, c->streams + i + 1,
			    (c->nr_streams - i - 1) * sizeof(*c->streams));
			c->nr_streams--;
			break;
		}
	}
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	pthread_cond_destroy(&st->cond);
	strbuf_release(&st->in);
	free(st->service);
	free(st->service_text);
	free(st);
}

/* Apply the faults; returns the service to run, or NULL to refuse. */
static const struct simsvc *
stream_admit(struct simstream *st, const char **arg, int *dropped)
{
	struct conn *c = st->conn;
	const struct simsvc *svc = NULL;
	struct faults f;

	faults_init(&f);
	simdev_faults(c->dev, &f);
	pthread_mutex_lock(&c->lock);
	c->drop_after = f.drop_after_packets;
	st->stall = faults_prefixed(&f.stall_wrte, st->service_text);
	pthread_mutex_unlock(&c->lock);
	*dropped = faults_drop_on(&f, st->service_text);
	if (!*dropped && !faults_prefixed(&f.refuse, st->service_text))
		svc = service_find(st->service, st->service_len, arg);
	faults_release(&f);
	return svc;
}

static void *
stream_main(void *arg)
{
	struct simstream *st = arg;
	struct conn *c = st->conn;
	const struct simsvc *svc;
	const char *svc_arg = NULL;
	void *state = NULL;
	int dropped;

	svc = stream_admit(st, &svc_arg, &dropped);
	if (dropped) {
		/*
		 * Accept, then vanish: the client sees its command start and
		 * the device disappear without an exit status, the case a
		 * harness must not mistake for success (docs/adb.md §5.11).
		 */
		simdev_log(c->dev, "drop", st->service_text);
		conn_send(c, A_OKAY, st->local_id, st->remote_id, NULL, 0);
		conn_drop(c);
	} else if (!svc || (svc->open && svc->open(st, svc_arg, &state))) {
		conn_send(c, A_CLSE, 0, st->remote_id, NULL, 0);
	} else {
		/*
		 * Run even if the OKAY could not be sent: the link is then
		 * dying, the stream reads as closed, and the service frees
		 * what its open() set up.
		 */
		conn_send(c, A_OKAY, st->local_id, st->remote_id, NULL, 0);
		svc->run(st, svc_arg, state);
		simstream_close(st);
	}
	stream_unregister(st);
	return NULL;
}

/* A local id that is non-zero and not in use.  Lock held. */
static uint32_t
next_local_id(struct conn *c)
{
	for (;;) {
		uint32_t id = c->next_id++;

		if (id && !stream_find(c, id))
			return id;
	}
}

void
stream_open(struct conn *c, uint32_t remote_id, const char *service,
    size_t len)
{
	struct simstream *st = xcalloc(1, sizeof(*st));
	pthread_attr_t attr;
	pthread_t tid;
	size_t i;

	st->conn = c;
	st->remote_id = remote_id;
	st->service = xmalloc(len + 1);	/* NULs inside: no strndup */
	memcpy(st->service, service, len);
	st->service[len] = '\0';
	st->service_len = len;
	st->service_text = xmalloc(len + 1);
	for (i = 0; i < len; i++)
		st->service_text[i] = service[i] ? service[i] : ' ';
	st->service_text[len] = '\0';
	st->can_write = 1;
	strbuf_init(&st->in, 0);
	conn_cond_init(&st->cond);

	pthread_mutex_lock(&c->lock);
	st->closed = c->dead;
	st->local_id = next_local_id(c);
	XALLOC_GROW(c->streams, c->nr_streams + 1, c->alloc_streams);
	c->streams[c->nr_streams++] = st;
	pthread_mutex_unlock(&c->lock);

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&tid, &attr, stream_main, st)) {
		simdev_warn("cannot start a stream thread");
		conn_send(c, A_CLSE, 0, remote_id, NULL, 0);
		stream_unregister(st);
	}
	pthread_attr_destroy(&attr);
}
