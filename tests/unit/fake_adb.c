/*
 * fake_adb.c: the scripted adb server of fake_adb.h.
 *
 * The script is a list of steps run by one thread, in order, over the
 * connections the client opens one after another.  Sockets are
 * non-blocking and every wait is bounded by WAIT_MS, so a client bug shows
 * up as a recorded problem ("step 3: client closed the connection") and
 * not as a hung test run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fake_adb.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"

#define WAIT_MS 5000

enum op {
	OP_EXPECT, OP_SEND, OP_CAPTURE, OP_CAPTURE_EOF, OP_CAPTURE_SYNC,
	OP_SEND_BODY, OP_PAUSE, OP_RUN_SHELL, OP_HANGUP, OP_RESET,
};

struct step {
	enum op op;
	char *data;
	size_t len;
};

struct fake_adb {
	int lfd, port, fd;
	pthread_t thread;
	int started;
	struct step *steps;
	size_t nr, alloc;
	struct strbuf captured, problems;
	char *last_request;
	size_t send_records, send_max;
	unsigned int send_done;
};

static struct fake_adb *
create(int do_listen)
{
	struct fake_adb *fa = xcalloc(1, sizeof(*fa));
	struct sockaddr_in sa = { 0 };
	socklen_t len = sizeof(sa);
	int one = 1;

	strbuf_init(&fa->captured, 0);
	strbuf_init(&fa->problems, 0);
	fa->fd = -1;
	fa->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	setsockopt(fa->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fa->lfd < 0 || bind(fa->lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fa->lfd, (struct sockaddr *)&sa, &len)) {
		perror("fake_adb");
		abort();
	}
	fa->port = ntohs(sa.sin_port);
	if (do_listen)
		fake_adb_listen(fa);
	return fa;
}

struct fake_adb *
fake_adb_new(void)
{
	return create(1);
}

struct fake_adb *
fake_adb_new_deferred(void)
{
	return create(0);
}

void
fake_adb_listen(struct fake_adb *fa)
{
	if (listen(fa->lfd, 8)) {
		perror("fake_adb: listen");
		abort();
	}
}

int
fake_adb_port(const struct fake_adb *fa)
{
	return fa->port;
}

/* ---- building the script ----------------------------------------------- */

static void
add(struct fake_adb *fa, enum op op, const void *data, size_t len)
{
	struct step *s;

	XALLOC_GROW(fa->steps, fa->nr + 1, fa->alloc);
	s = &fa->steps[fa->nr++];
	s->op = op;
	s->data = xmalloc(len + 1);
	if (len)
		memcpy(s->data, data, len);
	s->data[len] = '\0';
	s->len = len;
}

void
fake_adb_expect(struct fake_adb *fa, const char *service)
{
	add(fa, OP_EXPECT, service, strlen(service));
}

void
fake_adb_send(struct fake_adb *fa, const void *data, size_t len)
{
	add(fa, OP_SEND, data, len);
}

void
fake_adb_sendstr(struct fake_adb *fa, const char *s)
{
	add(fa, OP_SEND, s, strlen(s));
}

void
fake_adb_okay(struct fake_adb *fa)
{
	fake_adb_sendstr(fa, "OKAY");
}

static void
send_framed(struct fake_adb *fa, const char *status, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%04zx%s", status, strlen(text), text);
	fake_adb_send(fa, sb.buf, sb.len);
	strbuf_release(&sb);
}

void
fake_adb_fail(struct fake_adb *fa, const char *msg)
{
	send_framed(fa, "FAIL", msg);
}

void
fake_adb_okay_string(struct fake_adb *fa, const char *payload)
{
	send_framed(fa, "OKAY", payload);
}

static void
put_le32(struct strbuf *sb, unsigned int v)
{
	unsigned char b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
	    (v >> 24) & 0xff };

	strbuf_add(sb, b, 4);
}

void
fake_adb_v2(struct fake_adb *fa, int id, const void *data, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addch(&sb, id);
	put_le32(&sb, (unsigned int)len);
	strbuf_add(&sb, data, len);
	fake_adb_send(fa, sb.buf, sb.len);
	strbuf_release(&sb);
}

void
fake_adb_sync(struct fake_adb *fa, const char *id, unsigned int value,
    const void *data, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, id, 4);
	put_le32(&sb, value);
	strbuf_add(&sb, data, len);
	fake_adb_send(fa, sb.buf, sb.len);
	strbuf_release(&sb);
}

void
fake_adb_capture(struct fake_adb *fa, size_t n)
{
	add(fa, OP_CAPTURE, NULL, 0);
	fa->steps[fa->nr - 1].len = n;
}

void
fake_adb_capture_eof(struct fake_adb *fa)
{
	add(fa, OP_CAPTURE_EOF, NULL, 0);
}

void
fake_adb_capture_sync(struct fake_adb *fa, const char *id)
{
	add(fa, OP_CAPTURE_SYNC, id, 4);
}

void
fake_adb_capture_send_body(struct fake_adb *fa)
{
	add(fa, OP_SEND_BODY, NULL, 0);
}

void
fake_adb_pause(struct fake_adb *fa, int ms)
{
	add(fa, OP_PAUSE, NULL, 0);
	fa->steps[fa->nr - 1].len = (size_t)ms;
}

void
fake_adb_run_shell(struct fake_adb *fa)
{
	add(fa, OP_RUN_SHELL, NULL, 0);
}

void
fake_adb_hangup(struct fake_adb *fa)
{
	add(fa, OP_HANGUP, NULL, 0);
}

void
fake_adb_reset(struct fake_adb *fa)
{
	add(fa, OP_RESET, NULL, 0);
}

/* ---- playing it ------------------------------------------------------ */

static int
wait_for(int fd, short events)
{
	struct pollfd pf = { fd, events, 0 };
	int n;

	while ((n = poll(&pf, 1, WAIT_MS)) < 0 && errno == EINTR)
		;
	return n > 0 ? 0 : -1;
}

/* Read exactly n bytes: 0, or -1 on EOF, error or WAIT_MS of silence. */
static int
rd(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t k;

		if (wait_for(fd, POLLIN))
			return -1;
		k = recv(fd, p, n, 0);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int
wr(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t k;

		if (wait_for(fd, POLLOUT))
			return -1;
		k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static unsigned int
get_le32(const unsigned char *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (unsigned int)b[3] << 24;
}

static int
do_expect(struct fake_adb *fa, const struct step *s, size_t i)
{
	char hex[5] = { 0 }, *name;
	unsigned long len;
	size_t cmp = s->len;

	if (rd(fa->fd, hex, 4)) {
		strbuf_addf(&fa->problems, "step %zu: no request (wanted "
		    "'%s'); ", i, s->data);
		return -1;
	}
	len = strtoul(hex, NULL, 16);
	name = xmalloc(len + 1);
	if (rd(fa->fd, name, len)) {
		free(name);
		strbuf_addf(&fa->problems, "step %zu: short request; ", i);
		return -1;
	}
	name[len] = '\0';
	free(fa->last_request);
	fa->last_request = name;
	if (cmp && s->data[cmp - 1] == '*' ? strncmp(name, s->data, cmp - 1) :
	    strcmp(name, s->data)) {
		strbuf_addf(&fa->problems, "step %zu: expected '%s', got "
		    "'%s'; ", i, s->data, name);
		return -1;
	}
	return 0;
}

static int
do_send_body(struct fake_adb *fa)
{
	unsigned char hdr[8];

	for (;;) {
		unsigned int len;

		if (rd(fa->fd, hdr, 8))
			return -1;
		len = get_le32(hdr + 4);
		if (!memcmp(hdr, "DONE", 4)) {
			fa->send_done = len;
			return 0;
		}
		if (memcmp(hdr, "DATA", 4))
			return -1;
		strbuf_grow(&fa->captured, len);
		if (rd(fa->fd, fa->captured.buf + fa->captured.len, len))
			return -1;
		strbuf_setlen(&fa->captured, fa->captured.len + len);
		fa->send_records++;
		if (len > fa->send_max)
			fa->send_max = len;
	}
}

static int
do_run_shell(struct fake_adb *fa)
{
	struct proc_result res;
	const char *cmd = fa->last_request ? fa->last_request : "";
	char *script;
	const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
	int rc;

	if (strncmp(cmd, "shell:", 6))
		return -1;
	/* One stream, in order, like a PTY: stderr goes where stdout goes. */
	script = xasprintf("exec 2>&1\n%s", cmd + 6);
	argv[2] = script;
	proc_result_init(&res);
	rc = proc_run(&res, argv, NULL);
	free(script);
	if (!rc)
		rc = wr(fa->fd, res.out.buf, res.out.len) ||
		    wr(fa->fd, res.err.buf, res.err.len);
	proc_result_release(&res);
	return rc ? -1 : 0;
}

static int
run_step(struct fake_adb *fa, const struct step *s, size_t i)
{
	struct linger lg = { 1, 0 };
	unsigned char hdr[8];
	char buf[65536];
	ssize_t k;

	switch (s->op) {
	case OP_EXPECT:
		return do_expect(fa, s, i);
	case OP_SEND:
		return wr(fa->fd, s->data, s->len);
	case OP_CAPTURE:
		strbuf_grow(&fa->captured, s->len);
		if (rd(fa->fd, fa->captured.buf + fa->captured.len, s->len))
			return -1;
		strbuf_setlen(&fa->captured, fa->captured.len + s->len);
		return 0;
	case OP_CAPTURE_EOF:
		for (;;) {
			if (wait_for(fa->fd, POLLIN))
				return -1;
			k = recv(fa->fd, buf, sizeof(buf), 0);
			if (k < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (k <= 0)
				return 0;
			strbuf_add(&fa->captured, buf, (size_t)k);
		}
	case OP_CAPTURE_SYNC:
		if (rd(fa->fd, hdr, 8) || memcmp(hdr, s->data, 4))
			return -1;
		k = (ssize_t)get_le32(hdr + 4);
		if (k >= (ssize_t)sizeof(buf) || rd(fa->fd, buf, (size_t)k))
			return -1;
		strbuf_addf(&fa->captured, "%.4s %.*s\n", s->data, (int)k, buf);
		return 0;
	case OP_SEND_BODY:
		return do_send_body(fa);
	case OP_PAUSE:
		nanosleep(&(struct timespec){ (time_t)(s->len / 1000),
		    (long)(s->len % 1000) * 1000000 }, NULL);
		return 0;
	case OP_RUN_SHELL:
		return do_run_shell(fa);
	case OP_RESET:
		setsockopt(fa->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		/* fall through */
	case OP_HANGUP:
		close(fa->fd);
		fa->fd = -1;
		return 0;
	}
	return -1;
}

static void *
serve(void *arg)
{
	struct fake_adb *fa = arg;

	for (size_t i = 0; i < fa->nr; i++) {
		if (fa->fd < 0) {
			if (wait_for(fa->lfd, POLLIN)) {
				strbuf_addf(&fa->problems, "step %zu: no "
				    "connection; ", i);
				break;
			}
			fa->fd = accept4(fa->lfd, NULL, NULL,
			    SOCK_CLOEXEC | SOCK_NONBLOCK);
			if (fa->fd < 0)
				break;
		}
		if (run_step(fa, &fa->steps[i], i)) {
			if (!fa->problems.len)
				strbuf_addf(&fa->problems, "step %zu (op %d) "
				    "failed; ", i, (int)fa->steps[i].op);
			break;
		}
	}
	if (fa->fd >= 0)
		close(fa->fd);
	fa->fd = -1;
	return NULL;
}

void
fake_adb_start(struct fake_adb *fa)
{
	if (pthread_create(&fa->thread, NULL, serve, fa))
		abort();
	fa->started = 1;
}

const char *
fake_adb_finish(struct fake_adb *fa)
{
	if (fa->started)
		pthread_join(fa->thread, NULL);
	fa->started = 0;
	return fa->problems.buf;
}

const struct strbuf *
fake_adb_captured(const struct fake_adb *fa)
{
	return &fa->captured;
}

void
fake_adb_send_info(const struct fake_adb *fa, size_t *records,
    size_t *max_record, unsigned int *done_value)
{
	*records = fa->send_records;
	*max_record = fa->send_max;
	*done_value = fa->send_done;
}

void
fake_adb_free(struct fake_adb *fa)
{
	if (!fa)
		return;
	fake_adb_finish(fa);
	close(fa->lfd);
	for (size_t i = 0; i < fa->nr; i++)
		free(fa->steps[i].data);
	free(fa->steps);
	free(fa->last_request);
	strbuf_release(&fa->captured);
	strbuf_release(&fa->problems);
	free(fa);
}
