/*
 * stream.h: what a service sees of its adb stream.
 *
 * A stream is one OPEN from the adb server (a shell command, a sync
 * session, a forwarded TCP connection).  Its service runs in a thread of
 * its own and uses these calls, which block that thread only.  Writes are
 * split to the negotiated maxdata and each waits for the host's OKAY of the
 * previous one; reads return what the host sent, in order, with the
 * device's OKAYs handled underneath.  Once the host closes the stream (or
 * the link dies) reads return 0, writes fail and sleeps end early, so a
 * command that streams forever stops at its next call.
 */
#ifndef SIM_STREAM_H
#define SIM_STREAM_H

#include <stddef.h>

struct simdev;
struct simstream;

/* The device this stream belongs to. */
struct simdev *simstream_dev(struct simstream *st);

/*
 * The service string of the OPEN, trailing NULs removed; it may contain
 * NULs (abb_exec separates arguments with them), so *len gives its length.
 */
const char *simstream_service(struct simstream *st, size_t *len);

/*
 * Read up to `len` bytes from the host, blocking until some arrive.
 * Returns the count, or 0 once the host closed the stream and everything
 * it sent was read.
 */
size_t simstream_read(struct simstream *st, void *buf, size_t len);

/* Read exactly `len` bytes.  Returns 0, or -1 at end of stream. */
int simstream_read_full(struct simstream *st, void *buf, size_t len);

/* Send `len` bytes to the host.  Returns 0, or -1 when the stream closed. */
int simstream_write(struct simstream *st, const void *buf, size_t len);

/* Sleep `ms` milliseconds.  Returns 0, or -1 if the stream closed first. */
int simstream_sleep(struct simstream *st, double ms);

/* 1 once the host closed the stream or the link went down. */
int simstream_closed(struct simstream *st);

/*
 * End the stream from the device side now: wait briefly for the host's
 * OKAY of the last WRTE, send CLSE, and wake every thread blocked on the
 * stream.  Later calls, and the stream layer's own close, do nothing.
 */
void simstream_close(struct simstream *st);

/* Drop the whole TCP link (the drop-on-command fault). */
void simstream_drop_link(struct simstream *st);

#endif
