/*
 * conn.h: one TCP connection from the adb server, shared by transport.c
 * (handshake and packet dispatch) and stream.c (the streams on it).
 *
 * Threads and locks.  The connection's reader thread is the only reader of
 * `fd`; it dispatches packets and never blocks on a stream.  Every stream
 * has a thread running its service.  Any thread may send: whole packets go
 * out under `wlock`.  `lock` guards the stream table and every field of
 * every stream on this connection except the constant ones; stream threads
 * wait on their own condition variable (bound to `lock`), the reader waits
 * on `cond` for the table to empty when the link goes down.
 */
#ifndef SIM_CONN_H
#define SIM_CONN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

struct simdev;
struct simstream;
struct transport;

struct conn {
	struct transport *t;
	struct simdev *dev;
	int fd;
	pthread_t thread;
	struct conn *next;		/* transport's list */

	pthread_mutex_t wlock;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int online;			/* CNXN sent */
	int dead;			/* link down: no more packets */
	uint32_t version;		/* min(ours, host's) */
	uint32_t maxdata;		/* min(ours, host's) */
	uint32_t next_id;
	long drop_after;		/* fault: drop after N packets in */
	unsigned long packets_in;
	struct simstream **streams;
	size_t nr_streams, alloc_streams;
};

/*
 * Send one packet, checksummed when the negotiated version asks for it.
 * Returns 0, or JG_EIO once the link is dead (then it sends nothing).
 */
int conn_send(struct conn *c, uint32_t cmd, uint32_t arg0, uint32_t arg1,
    const void *data, size_t len);

/* Make the link go away: shut the socket down so the reader sees EOF. */
void conn_drop(struct conn *c);

/* Initialise `cond` on CLOCK_MONOTONIC, for conn_timedwait(). */
void conn_cond_init(pthread_cond_t *cond);

/* Wait on `cond` (c->lock held) up to `ms`; returns early on a signal. */
void conn_timedwait(struct conn *c, pthread_cond_t *cond, double ms);

/*
 * Start a stream for an OPEN of `service` (`len` bytes, trailing NULs
 * removed) from host id `remote_id`.  Called by the reader, lock not held.
 * The stream answers the OPEN itself (OKAY or CLSE) from its own thread.
 */
void stream_open(struct conn *c, uint32_t remote_id, const char *service,
    size_t len);

/* The stream with our id `local_id`, or NULL.  Lock held. */
struct simstream *stream_find(struct conn *c, uint32_t local_id);

/* Host OKAYed our last WRTE.  Lock held. */
void stream_on_okay(struct simstream *st);

/*
 * Host data arrived.  Lock held.  Returns 1 when the reader should OKAY
 * it now, 0 when the OKAY is withheld (stall fault, or buffer full: the
 * stream thread sends it once it has read enough).
 */
int stream_on_write(struct simstream *st, const void *data, size_t len);

/* Host closed the stream, or the link went down.  Lock held. */
void stream_on_close(struct simstream *st);

/* Ids for an OKAY the reader sends: ours and the host's. */
void stream_ids(const struct simstream *st, uint32_t *local_id,
    uint32_t *remote_id);

#endif
