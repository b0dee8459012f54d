/*
 * svc_tcp.c: `tcp:PORT` (and `tcp:HOST:PORT`), the service behind
 * `adb forward tcp:X tcp:PORT`.
 *
 * The device has no network of its own; --tcp-map DEVPORT=HOSTPORT says
 * which localhost port of the machine plays the device's port DEVPORT, and
 * DEVPORT=echo makes an internal echo server.  An unmapped port, or a host
 * port nobody listens on, refuses the OPEN, as adbd does when its connect()
 * fails.  Bytes flow both ways; when either side closes, both close (adb
 * streams have no half-close): the socket reader ends the stream, and the
 * stream reader shuts the socket down.  An unmapped port 5392 is
 * MethodTraceMan's server inside a running app (svc_traceman.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "service.h"
#include "simdev.h"
#include "stream.h"
#include "xalloc.h"
#include "banned.h"

struct tcp_state {
	int fd;			/* -1: echo, -2: MethodTraceMan */
	struct simstream *st;
};

static int
connect_local(int port)
{
	struct sockaddr_in sin;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		return -1;
	}
	return fd;
}

int
svc_tcp_open(struct simstream *st, const char *arg, void **state)
{
	struct simdev *dev = simstream_dev(st);
	const char *colon = strrchr(arg, ':');
	struct tcp_state *ts;
	char *end;
	long port;
	size_t i;

	port = strtol(colon ? colon + 1 : arg, &end, 10);
	if (*end || port <= 0 || port > 65535)
		return -1;
	for (i = 0; i < dev->nr_tcp; i++)
		if (dev->tcp[i].devport == port)
			break;
	if (i == dev->nr_tcp) {
		/* An app's own server, when the app runs. */
		if (port != TRACEMAN_PORT || !svc_traceman_ready(dev))
			return -1;
		ts = xcalloc(1, sizeof(*ts));
		ts->fd = -2;
		*state = ts;
		return 0;
	}
	ts = xcalloc(1, sizeof(*ts));
	ts->st = st;
	ts->fd = -1;
	if (dev->tcp[i].hostport) {
		ts->fd = connect_local(dev->tcp[i].hostport);
		if (ts->fd < 0) {
			free(ts);
			return -1;
		}
	}
	*state = ts;
	return 0;
}

/* Stream -> socket, until either side ends. */
static void *
pump_to_socket(void *arg)
{
	struct tcp_state *ts = arg;
	char buf[65536];
	size_t n;

	while ((n = simstream_read(ts->st, buf, sizeof(buf)))) {
		const char *p = buf;

		while (n) {
			ssize_t k = send(ts->fd, p, n, MSG_NOSIGNAL);

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				goto out;
			p += k;
			n -= (size_t)k;
		}
	}
out:
	shutdown(ts->fd, SHUT_RDWR);
	return NULL;
}

void
svc_tcp_run(struct simstream *st, const char *arg, void *state)
{
	struct tcp_state *ts = state;
	char buf[65536];
	pthread_t tid;
	ssize_t n;

	simdev_log(simstream_dev(st), "tcp", arg);
	if (ts->fd == -2) {
		svc_traceman_run(st);
		free(ts);
		return;
	}
	if (ts->fd < 0) {
		size_t k;

		while ((k = simstream_read(st, buf, sizeof(buf))))
			if (simstream_write(st, buf, k))
				break;
		free(ts);
		return;
	}
	if (pthread_create(&tid, NULL, pump_to_socket, ts)) {
		close(ts->fd);
		free(ts);
		return;
	}
	for (;;) {
		n = recv(ts->fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || simstream_write(st, buf, (size_t)n))
			break;
	}
	simstream_close(st);
	pthread_join(tid, NULL);
	close(ts->fd);
	free(ts);
}
