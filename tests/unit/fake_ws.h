/*
 * fake_ws.h: a scripted WebSocket server for unit tests.
 *
 * fake_ws_start() listens on a loopback port and runs `script` in a
 * thread on the first connection it accepts; the script uses the
 * helpers below to read the handshake, answer it (rightly or wrongly)
 * and move frames.  Socket reads in the server give up after 5 s, so a
 * client that misbehaves makes a test fail, never hang.
 *
 *	static void script(struct fake_ws *s, int fd)
 *	{
 *		if (fake_ws_accept(s, fd, "/refresh") || fake_ws_read_frame(s, fd))
 *			return;
 *		fake_ws_send_frame(fd, 1, 0x1, "hi", 2);
 *	}
 *	struct fake_ws *s = fake_ws_start(script, NULL);
 *	... connect to s->port ...
 *	fake_ws_join(s);  assert_string_equal(s->problem, "");
 *	fake_ws_free(s);
 */
#ifndef JG_FAKE_WS_H
#define JG_FAKE_WS_H

#include <pthread.h>
#include <stddef.h>

#include "strbuf.h"

struct fake_ws;
typedef void (*fake_ws_script)(struct fake_ws *s, int fd);

struct fake_ws {
	int lfd, port;
	pthread_t thread;
	fake_ws_script script;
	void *arg;		/* the script's own */
	char problem[256];	/* "" when the script saw what it expected */
	struct strbuf got;	/* the payload of the last frame read */
	int got_opcode;		/* opcode of the last frame read */
	int got_masked;		/* every frame read so far was masked */
};

/* Listen on 127.0.0.1 (a free port in s->port) and serve one connection. */
struct fake_ws *fake_ws_start(fake_ws_script script, void *arg);
/* Wait for the script to end and close the listener. */
void fake_ws_join(struct fake_ws *s);
void fake_ws_free(struct fake_ws *s);

/* Record the first problem the script saw; returns -1 for `return`. */
int fake_ws_fail(struct fake_ws *s, const char *what);
/* Read exactly `n` bytes (0) or fail (-1); write all, ignoring errors. */
int fake_ws_read_n(int fd, void *buf, size_t n);
void fake_ws_write_n(int fd, const void *buf, size_t n);
/* Read the upgrade request; its key and path.  0 or -1 (recorded). */
int fake_ws_read_request(struct fake_ws *s, int fd, char key[64],
    char path[256]);
/* Send a 101 answer for `key`, then `extra` bytes (a string, or NULL). */
void fake_ws_answer(int fd, const char *key, const char *extra);
/* Read the request, require GET `path`, answer it.  0 or -1. */
int fake_ws_accept(struct fake_ws *s, int fd, const char *path);
/* An unmasked server frame (FIN bit, opcode) with the shortest length. */
void fake_ws_send_frame(int fd, int fin, int op, const void *data,
    size_t len);
/* Read one client frame, unmasked into s->got.  0 or -1 (recorded). */
int fake_ws_read_frame(struct fake_ws *s, int fd);

#endif
