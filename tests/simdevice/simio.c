/*
 * simio.c: command I/O over raw streams, shell-v2 packets or stdio.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "adbwire.h"
#include "simio.h"
#include "stream.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Shell-v2 packet ids (docs/adb.md §3.3). */
enum {
	V2_STDIN = 0,
	V2_STDOUT = 1,
	V2_STDERR = 2,
	V2_EXIT = 3,
	V2_CLOSE_STDIN = 4,
	V2_WINDOW_SIZE = 5,
};

/* Output packets carry at most this much, like adbd's read buffer. */
#define V2_CHUNK (64 * 1024 - 5)

struct simchan {
	struct simstream *st;	/* NULL: stdio */
	int v2;
	int stdin_eof;
	size_t packet_left;	/* v2: stdin bytes left in this packet */
};

struct simchan *
simchan_new_stream(struct simstream *st, int v2)
{
	struct simchan *ch = xcalloc(1, sizeof(*ch));

	ch->st = st;
	ch->v2 = v2;
	return ch;
}

struct simchan *
simchan_new_stdio(void)
{
	return xcalloc(1, sizeof(struct simchan));
}

void
simchan_free(struct simchan *ch)
{
	free(ch);
}

int
simchan_is_v2(const struct simchan *ch)
{
	return ch->v2;
}

static int
write_fd(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
chan_write(struct simchan *ch, int id, const void *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = buf;
	int ret;

	if (!len)
		return 0;
	if (!ch->st)
		return write_fd(id == V2_STDERR ? 2 : 1, buf, len);
	if (!ch->v2)
		return simstream_write(ch->st, buf, len);
	/* Frame into packets, sent with as few WRTEs as the stream allows. */
	do {
		size_t n = len < V2_CHUNK ? len : V2_CHUNK;
		unsigned char h[5];

		h[0] = (unsigned char)id;
		put_le32(h + 1, (uint32_t)n);
		strbuf_add(&sb, h, sizeof(h));
		strbuf_add(&sb, p, n);
		p += n;
		len -= n;
	} while (len);
	ret = simstream_write(ch->st, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

void
simchan_exit(struct simchan *ch, int status)
{
	unsigned char code = (unsigned char)status;

	if (ch->st && ch->v2)
		chan_write(ch, V2_EXIT, &code, 1);
}

/* Skip `n` bytes of an unwanted v2 packet; -1 at end of stream. */
static int
chan_skip(struct simchan *ch, size_t n)
{
	char tmp[256];

	while (n) {
		size_t k = n < sizeof(tmp) ? n : sizeof(tmp);

		if (simstream_read_full(ch->st, tmp, k))
			return -1;
		n -= k;
	}
	return 0;
}

static size_t
chan_read(struct simchan *ch, void *buf, size_t len)
{
	unsigned char h[5];

	if (!ch->st) {
		ssize_t n;

		do
			n = read(0, buf, len);
		while (n < 0 && errno == EINTR);
		return n > 0 ? (size_t)n : 0;
	}
	if (!ch->v2)
		return simstream_read(ch->st, buf, len);
	while (!ch->stdin_eof) {
		if (ch->packet_left) {
			size_t n = len;

			if (n > ch->packet_left)
				n = ch->packet_left;
			n = simstream_read(ch->st, buf, n);
			if (!n)
				break;
			ch->packet_left -= n;
			return n;
		}
		if (simstream_read_full(ch->st, h, sizeof(h)))
			break;
		if (h[0] == V2_STDIN)
			ch->packet_left = get_le32(h + 1);
		else if (h[0] == V2_CLOSE_STDIN)
			ch->stdin_eof = 1;
		else if (chan_skip(ch, get_le32(h + 1)))
			break;
	}
	ch->stdin_eof = 1;
	return 0;
}

void
simio_init(struct simio *io, struct simchan *ch)
{
	memset(io, 0, sizeof(*io));
	io->chan = ch;
	io->out.to = SIMIO_TO_STDOUT;
	io->err.to = SIMIO_TO_STDERR;
}

int
simio_write(struct simio *io, int fd, const void *buf, size_t len)
{
	const struct simio_sink *sink = fd == 2 ? &io->err : &io->out;

	switch (sink->to) {
	case SIMIO_TO_STDOUT:
		return chan_write(io->chan, V2_STDOUT, buf, len);
	case SIMIO_TO_STDERR:
		return chan_write(io->chan, V2_STDERR, buf, len);
	case SIMIO_TO_NULL:
		break;
	case SIMIO_TO_BUF:
		strbuf_add(sink->buf, buf, len);
		break;
	}
	/* Memory never fails; still tell a streaming command to stop. */
	return simio_closed(io) ? -1 : 0;
}

int
simio_puts(struct simio *io, int fd, const char *s)
{
	return simio_write(io, fd, s, strlen(s));
}

int
simio_printf(struct simio *io, int fd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ret = simio_write(io, fd, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

size_t
simio_read(struct simio *io, void *buf, size_t len)
{
	if (io->in_set) {
		size_t n = io->in_len - io->in_pos;

		if (n > len)
			n = len;
		memcpy(buf, io->in + io->in_pos, n);
		io->in_pos += n;
		return n;
	}
	return chan_read(io->chan, buf, len);
}

int
simio_read_full(struct simio *io, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		size_t n = simio_read(io, p, len);

		if (!n)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int
simio_sleep(struct simio *io, double ms)
{
	struct timespec ts;

	if (io->chan->st)
		return simstream_sleep(io->chan->st, ms);
	if (ms <= 0)
		return 0;
	ts.tv_sec = (time_t)(ms / 1e3);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	return 0;
}

int
simio_closed(struct simio *io)
{
	return io->chan->st ? simstream_closed(io->chan->st) : 0;
}
