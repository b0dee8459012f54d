/*
 * transport.h: the device end of the adb transport over TCP.
 *
 * The simulated device listens like `adbd` does with `adb tcpip`: the adb
 * server connects (after `adb connect HOST:PORT`), sends CNXN, and the
 * device answers with its banner, optionally after an AUTH exchange.  Each
 * accepted TCP connection is served by its own thread, so a reconnecting
 * server (docs/adb.md §2.7) simply gets a new connection; each stream the
 * server opens runs in a thread of its own (stream.h).
 */
#ifndef SIM_TRANSPORT_H
#define SIM_TRANSPORT_H

struct simdev;
struct transport;

/*
 * Listen on `addr`:`port` (port 0: the kernel picks).  Returns 0 and *out,
 * or JG_EIO with a message.
 */
int transport_listen(struct transport **out, struct simdev *dev,
    const char *addr, int port);

/* The port actually bound. */
int transport_port(const struct transport *t);

/*
 * Accept and serve connections until `stop_fd` becomes readable, then drop
 * every connection and wait for all their threads.  Returns 0 or JG_EIO.
 */
int transport_serve(struct transport *t, int stop_fd);

/* Close the listening socket and free; NULL is a no-op. */
void transport_free(struct transport *t);

#endif
