/*
 * adb_server.c: where the adb server is, and getting a connection to it.
 *
 * The address comes from the environment exactly as the adb CLI reads it
 * (ADB_SERVER_SOCKET, then ANDROID_ADB_SERVER_PORT, then 5037), so
 * jankgate and `adb` started from the same shell meet the same server.
 * When nothing listens on a loopback address, `adb -P PORT start-server`
 * is run once per server handle (under a lock, so racing device threads
 * start it once) and the connect retried.  -P makes adb ignore
 * ADB_SERVER_SOCKET, so the child starts exactly the server we look for.
 * The handle is otherwise read-only, so threads share it freely.
 */
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "adb.h"
#include "adb_conn.h"
#include "error.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define START_SERVER_TIMEOUT_MS 20000

struct adb_server {
	char *host;
	int port;
	char *spec;		/* "tcp:HOST:PORT" */
	int timeout_ms;
	char *adb_program;	/* NULL: never start a server */
	pthread_mutex_t start_lock;
	int start_tried;
	int started;		/* start-server ran and succeeded */
};

/* ---- address ------------------------------------------------------- */

static int
parse_port(const char *s, int *port)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !isdigit((unsigned char)*s) || *end || v < 1 || v > 65535)
		return -1;
	*port = (int)v;
	return 0;
}

int
adb_address_parse(char **host, int *port, const char *socket_env,
    const char *port_env)
{
	const char *rest, *colon;

	*host = NULL;
	if (socket_env && *socket_env) {
		if (strncmp(socket_env, "tcp:", 4))
			goto bad_socket;
		rest = socket_env + 4;
		if (*rest == '[') {		/* tcp:[::1]:5037 */
			const char *close = strchr(rest, ']');

			if (!close || close[1] != ':' ||
			    parse_port(close + 2, port))
				goto bad_socket;
			*host = xstrndup(rest + 1, (size_t)(close - rest - 1));
		} else if ((colon = strrchr(rest, ':'))) {
			if (colon == rest || parse_port(colon + 1, port))
				goto bad_socket;
			*host = xstrndup(rest, (size_t)(colon - rest));
		} else {			/* tcp:5037 */
			if (parse_port(rest, port))
				goto bad_socket;
			*host = xstrdup("127.0.0.1");
		}
		return 0;
	}
	if (port_env && *port_env) {
		if (parse_port(port_env, port))
			return jg_error_set(JG_EINVAL,
			    "bad ANDROID_ADB_SERVER_PORT '%s': expected a port "
			    "number (1-65535)", port_env);
	} else {
		*port = ADB_DEFAULT_PORT;
	}
	*host = xstrdup("127.0.0.1");
	return 0;

bad_socket:
	return jg_error_set(JG_EINVAL, "bad ADB_SERVER_SOCKET '%s': expected "
	    "tcp:HOST:PORT or tcp:PORT", socket_env);
}

struct adb_server *
adb_server_new_at(const char *host, int port, int timeout_ms)
{
	struct adb_server *srv = xcalloc(1, sizeof(*srv));
	int v6 = strchr(host, ':') != NULL;

	srv->host = xstrdup(host);
	srv->port = port;
	srv->spec = xasprintf(v6 ? "tcp:[%s]:%d" : "tcp:%s:%d", host, port);
	srv->timeout_ms = timeout_ms > 0 ? timeout_ms : ADB_DEFAULT_TIMEOUT_MS;
	srv->adb_program = xstrdup("adb");
	pthread_mutex_init(&srv->start_lock, NULL);
	return srv;
}

int
adb_server_new(struct adb_server **out, int timeout_ms)
{
	char *host;
	int port, rc;

	*out = NULL;
	rc = adb_address_parse(&host, &port, getenv("ADB_SERVER_SOCKET"),
	    getenv("ANDROID_ADB_SERVER_PORT"));
	if (rc)
		return rc;
	*out = adb_server_new_at(host, port, timeout_ms);
	free(host);
	return 0;
}

void
adb_server_free(struct adb_server *srv)
{
	if (!srv)
		return;
	pthread_mutex_destroy(&srv->start_lock);
	free(srv->host);
	free(srv->spec);
	free(srv->adb_program);
	free(srv);
}

const char *
adb_server_address(const struct adb_server *srv)
{
	return srv->spec;
}

int
adb_server_started(const struct adb_server *srv)
{
	int started;

	pthread_mutex_lock((pthread_mutex_t *)&srv->start_lock);
	started = srv->started;
	pthread_mutex_unlock((pthread_mutex_t *)&srv->start_lock);
	return started;
}

int
adb_server_timeout(const struct adb_server *srv)
{
	return srv->timeout_ms;
}

void
adb_server_set_adb(struct adb_server *srv, const char *program)
{
	free(srv->adb_program);
	srv->adb_program = program ? xstrdup(program) : NULL;
}

/* ---- connecting ---------------------------------------------------- */

/* One connect attempt to one address; 0, or the errno that stopped it. */
static int
dial_one(const struct addrinfo *ai, int timeout_ms, int *fdp)
{
	int fd, err = 0, one = 1;
	socklen_t len = sizeof(err);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0)
		return errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		if (errno != EINPROGRESS) {
			err = errno;
		} else if (adb_wait_fd(fd, POLLOUT, timeout_ms, NULL)) {
			err = ETIMEDOUT;
		} else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)) {
			err = errno;
		}
	}
	if (err) {
		close(fd);
		return err;
	}
	/* Requests are tiny and answered one by one: do not let Nagle hold them. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*fdp = fd;
	return 0;
}

/* Connect to the server; JG_ENOTFOUND when nothing listens there. */
static int
dial(struct adb_server *srv, int *fdp)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	char port[16];
	int gai, err = ECONNREFUSED;

	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%d", srv->port);
	gai = getaddrinfo(srv->host, port, &hints, &res);
	if (gai)
		return jg_error_set(JG_EIO, "cannot resolve the adb server "
		    "address %s: %s", srv->spec, gai_strerror(gai));
	for (ai = res; ai; ai = ai->ai_next) {
		int e = dial_one(ai, srv->timeout_ms, fdp);

		if (!e) {
			freeaddrinfo(res);
			return 0;
		}
		if (err == ECONNREFUSED)
			err = e;
	}
	freeaddrinfo(res);
	if (err == ECONNREFUSED)
		return JG_ENOTFOUND;
	if (err == ETIMEDOUT)
		return jg_error_set(JG_ETIMEOUT, "cannot connect to the adb "
		    "server at %s: no answer within %d ms", srv->spec,
		    srv->timeout_ms);
	return jg_error_errno(JG_EIO, err, "cannot connect to the adb server "
	    "at %s", srv->spec);
}

static int
is_loopback(const char *host)
{
	return !strcmp(host, "localhost") || !strcmp(host, "::1") ||
	    !strncmp(host, "127.", 4);
}

/*
 * Run `adb -P PORT start-server` unless another thread already did.  It
 * returns once the server listens, so the caller can dial right after.
 */
static int
start_server(struct adb_server *srv)
{
	struct proc_result res;
	struct proc_opts opts = { .timeout_ms = START_SERVER_TIMEOUT_MS };
	char port[16];
	const char *argv[] = { srv->adb_program, "-P", port, "start-server",
	    NULL };
	int rc = 0;

	pthread_mutex_lock(&srv->start_lock);
	if (srv->start_tried)
		goto out;
	srv->start_tried = 1;
	snprintf(port, sizeof(port), "%d", srv->port);
	proc_result_init(&res);
	rc = proc_run(&res, argv, &opts);
	if (!rc && res.exit_code) {
		strbuf_rtrim(&res.err);
		rc = jg_error_set(JG_EIO, "'%s start-server' exited with %d: %s",
		    srv->adb_program, res.exit_code, res.err.buf);
	}
	srv->started = !rc;
	proc_result_release(&res);
out:
	pthread_mutex_unlock(&srv->start_lock);
	return rc;
}

int
adb_conn_open(struct adb_conn *c, struct adb_server *srv)
{
	int rc;

	c->fd = -1;
	c->timeout_ms = srv->timeout_ms;
	rc = dial(srv, &c->fd);
	if (rc != JG_ENOTFOUND)
		return rc;
	if (!is_loopback(srv->host))
		return jg_error_set(JG_EIO, "adb server is not running at %s",
		    srv->spec);
	if (!srv->adb_program || !proc_in_path(srv->adb_program))
		return jg_error_set(JG_EIO, "adb server is not running at %s "
		    "and adb is not on PATH", srv->spec);
	rc = start_server(srv);
	if (rc)
		return jg_error_prefix("adb server is not running at %s and "
		    "cannot be started", srv->spec);
	rc = dial(srv, &c->fd);
	if (rc == JG_ENOTFOUND)
		return jg_error_set(JG_EIO, "adb server is not running at %s "
		    "('%s start-server' did not start it)", srv->spec,
		    srv->adb_program);
	return rc;
}

