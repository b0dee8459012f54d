/*
 * adb_shell.c: running commands on a device (shell v2, legacy shell, exec,
 * and line streams for logcat).
 *
 * Shell protocol v2 (`shell,v2,raw:CMD`, docs/adb.md §3.3) frames every chunk:
 *
 *	id:u8  length:u32le  data[length]
 *	id 1 stdout, 2 stderr, 3 exit (data = 1 byte, the status),
 *	   4 close-stdin (client -> device, length 0)
 *
 * Packets do not follow TCP reads: one read may hold several, or part of
 * one.  The device ends with an exit packet; a stream that ends without
 * one means the device (or its transport) went away, which is an error and
 * never exit status 0 (docs/adb.md §5.11).
 *
 * Legacy `shell:CMD` (devices without shell_v2) is a raw stream of stdout
 * and stderr mixed, with no exit status.  To get one anyway the command
 * runs as
 *
 *	( CMD
 *	); echo jg-exit.PID.N.NS:$?
 *
 * and the marker line is cut from the end of the output.  The subshell
 * keeps `exit 3` or a trailing `# comment` in CMD from skipping the echo,
 * the newline before `)` ends any comment or here-document, the space
 * after `(` keeps "((" from reading as arithmetic, and the marker is
 * unique per call so output that happens to contain an old one cannot be
 * mistaken for it.  A real device runs legacy shells in a PTY, so lines end
 * in "\r\n"; output is returned as the device sent it.
 */
#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "adb.h"
#include "adb_conn.h"
#include "error.h"
#include "monoclock.h"
#include "shquote.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

enum { ID_STDOUT = 1, ID_STDERR = 2, ID_EXIT = 3, ID_CLOSE_STDIN = 4 };

/* No adbd sends packets near this; more means we lost the framing. */
#define MAX_PACKET (16u << 20)
#define READ_CHUNK 65536

static const unsigned char close_stdin[5] = { ID_CLOSE_STDIN, 0, 0, 0, 0 };

void
adb_shell_result_init(struct adb_shell_result *res)
{
	strbuf_init(&res->out, 0);
	strbuf_init(&res->err, 0);
	res->exit_code = -1;
}

void
adb_shell_result_release(struct adb_shell_result *res)
{
	strbuf_release(&res->out);
	strbuf_release(&res->err);
}

/* Append `len` bytes from the connection to `sb`. */
static int
read_into(struct adb_conn *c, struct strbuf *sb, size_t len)
{
	int rc;

	strbuf_grow(sb, len);
	rc = adb_conn_read_full(c, sb->buf + sb->len, len);
	if (rc == 0 && len)
		return jg_error_set(JG_ECLOSED, "connection closed in the "
		    "middle of a packet");
	if (rc < 0)
		return rc;
	strbuf_setlen(sb, sb->len + len);
	return 0;
}

static int
shell_v2(struct adb_device *dev, const char *cmd, struct adb_shell_result *res)
{
	struct strbuf junk = STRBUF_INIT;
	struct adb_conn c;
	char *svc = xasprintf("shell,v2,raw:%s", cmd);
	int rc;

	rc = adb_conn_open_device(&c, dev, svc);
	free(svc);
	if (rc)
		return rc;
	/*
	 * The command gets no input: say so now, as the adb CLI does when
	 * stdin is not a terminal, or one that reads stdin waits forever.  A
	 * command that already finished may have closed the stream; its
	 * output is still there to read.
	 */
	rc = adb_conn_write(&c, close_stdin, sizeof(close_stdin));
	if (rc == JG_ECLOSED)
		rc = 0;
	while (!rc) {
		unsigned char hdr[5];
		unsigned int len;
		struct strbuf *dst = &junk;

		rc = adb_conn_read_full(&c, hdr, sizeof(hdr));
		if (rc == 0)
			rc = jg_error_set(JG_EPROTO, "connection closed before "
			    "the exit status");
		if (rc < 0)
			break;
		len = adb_get_le32(hdr + 1);
		if (len > MAX_PACKET || (hdr[0] == ID_EXIT && len < 1)) {
			rc = jg_error_set(JG_EPROTO, "bad shell packet (id %d, "
			    "%u bytes)", hdr[0], len);
			break;
		}
		if (hdr[0] == ID_STDOUT)
			dst = &res->out;
		else if (hdr[0] == ID_STDERR)
			dst = &res->err;
		strbuf_reset(&junk);
		rc = read_into(&c, dst, len);
		if (!rc && hdr[0] == ID_EXIT) {
			res->exit_code = (unsigned char)junk.buf[0];
			break;
		}
	}
	adb_conn_close(&c);
	strbuf_release(&junk);
	return rc;
}

/* A marker no earlier call and no other thread uses. */
static char *
make_marker(void)
{
	static atomic_uint counter;

	return xasprintf("jg-exit.%ld.%u.%lld:", (long)getpid(),
	    atomic_fetch_add(&counter, 1), monoclock_real_ms());
}

/*
 * Cut "MARKER<digits>[\r]\n" from the end of out (from `start` on) and put
 * the digits in *code.
 */
static int
cut_marker(struct strbuf *out, size_t start, const char *marker, int *code)
{
	size_t mlen = strlen(marker), end = out->len, d;
	long v = 0;

	while (end > start && (out->buf[end - 1] == '\n' ||
	    out->buf[end - 1] == '\r'))
		end--;
	for (d = end; d > start && end - d < 4 &&
	    isdigit((unsigned char)out->buf[d - 1]); d--)
		;
	if (d == end || d - start < mlen ||
	    memcmp(out->buf + d - mlen, marker, mlen)) {
		/* The last line often says why (a shell syntax error...). */
		size_t ls = end;

		while (ls > start && out->buf[ls - 1] != '\n' && end - ls < 120)
			ls--;
		return jg_error_set(JG_EPROTO, "connection closed before the "
		    "exit status (legacy shell: no exit marker%s%.*s%s)",
		    end > ls ? "; output ends with '" : "", (int)(end - ls),
		    out->buf + ls, end > ls ? "'" : "");
	}
	for (size_t i = d; i < end; i++)
		v = v * 10 + (out->buf[i] - '0');
	*code = (int)(v & 0xff);
	strbuf_setlen(out, d - mlen);
	return 0;
}

static int
shell_legacy(struct adb_device *dev, const char *cmd,
    struct adb_shell_result *res)
{
	struct adb_conn c;
	char *marker = make_marker();
	char *svc = xasprintf("shell:( %s\n); echo %s$?", cmd, marker);
	size_t start = res->out.len;
	int rc;

	rc = adb_conn_open_device(&c, dev, svc);
	if (!rc)
		rc = adb_conn_read_to_eof(&c, &res->out, 0);
	if (!rc)
		rc = cut_marker(&res->out, start, marker, &res->exit_code);
	adb_conn_close(&c);
	free(svc);
	free(marker);
	return rc;
}

int
adb_shell(struct adb_device *dev, const char *cmd,
    struct adb_shell_result *res)
{
	int v2 = adb_device_has_feature(dev, "shell_v2"), rc;

	if (v2 < 0)
		return v2;
	rc = v2 ? shell_v2(dev, cmd, res) : shell_legacy(dev, cmd, res);
	return rc ? adb_device_error(dev, cmd) : 0;
}

int
adb_shell_argv(struct adb_device *dev, const char *const argv[],
    struct adb_shell_result *res)
{
	struct strbuf cmd = STRBUF_INIT;
	int rc;

	sh_quote_argv(&cmd, argv);
	rc = adb_shell(dev, cmd.buf, res);
	strbuf_release(&cmd);
	return rc;
}

int
adb_shell_check(struct adb_device *dev, const char *cmd, struct strbuf *out)
{
	struct adb_shell_result res;
	int rc;

	adb_shell_result_init(&res);
	rc = adb_shell(dev, cmd, &res);
	if (!rc && res.exit_code) {
		const struct strbuf *why = res.err.len ? &res.err : &res.out;
		int first = (int)strcspn(why->buf, "\r\n");

		rc = jg_error_set(JG_EGENERIC, "exited with %d%s%.*s",
		    res.exit_code, first ? ": " : "", first, why->buf);
		adb_device_error(dev, cmd);
	}
	if (!rc)
		strbuf_add(out, res.out.buf, res.out.len);
	adb_shell_result_release(&res);
	return rc;
}

int
adb_exec(struct adb_device *dev, const char *cmd, const void *in,
    size_t in_len, struct strbuf *out)
{
	struct adb_conn c;
	char *svc = xasprintf("exec:%s", cmd);
	int rc;

	rc = adb_conn_open_device(&c, dev, svc);
	if (!rc && in_len)
		rc = adb_conn_write_collect(&c, in, in_len, out);
	if (!rc)
		rc = adb_conn_read_to_eof(&c, out, 0);
	adb_conn_close(&c);
	free(svc);
	return rc ? adb_device_error(dev, cmd) : 0;
}

/* ---- line streams -------------------------------------------------- */

struct adb_stream {
	struct adb_conn conn;
	char *label;		/* "device 'S': 'CMD'", for messages */
	int v2;
	struct strbuf raw;	/* v2: bytes of packets not yet complete */
	struct strbuf text;	/* stdout not yet handed out as lines */
	size_t pos;		/* where the next line starts in text */
	size_t scanned;		/* text[pos, scanned) holds no '\n' */
	struct strbuf err;
	int exit_code;		/* -1 until the exit packet */
	int ended;		/* no more bytes will come */
	atomic_int stopped;
};

int
adb_stream_open(struct adb_stream **out, struct adb_device *dev,
    const char *cmd)
{
	struct adb_stream *s;
	int v2 = adb_device_has_feature(dev, "shell_v2"), rc;
	char *svc;

	*out = NULL;
	if (v2 < 0)
		return v2;
	s = xcalloc(1, sizeof(*s));
	s->v2 = v2;
	s->exit_code = -1;
	strbuf_init(&s->raw, 0);
	strbuf_init(&s->text, 0);
	strbuf_init(&s->err, 0);
	atomic_init(&s->stopped, 0);
	s->label = xasprintf("device '%s': '%s'", adb_device_serial(dev), cmd);
	svc = xasprintf(v2 ? "shell,v2,raw:%s" : "shell:%s", cmd);
	rc = adb_conn_open_device(&s->conn, dev, svc);
	free(svc);
	if (!rc && v2) {
		rc = adb_conn_write(&s->conn, close_stdin, sizeof(close_stdin));
		if (rc == JG_ECLOSED)
			rc = 0;
	}
	if (rc) {
		adb_device_error(dev, cmd);
		adb_stream_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* Move the complete v2 packets of s->raw into text, err and exit_code. */
static int
decode_packets(struct adb_stream *s)
{
	size_t off = 0;
	int rc = 0;

	while (!s->ended && s->raw.len - off >= 5) {
		const unsigned char *h = (unsigned char *)s->raw.buf + off;
		unsigned int len = adb_get_le32(h + 1);

		if (len > MAX_PACKET || (h[0] == ID_EXIT && len < 1)) {
			rc = jg_error_set(JG_EPROTO, "bad shell packet (id %d, "
			    "%u bytes)", h[0], len);
			break;
		}
		if (s->raw.len - off - 5 < len)
			break;
		if (h[0] == ID_STDOUT)
			strbuf_add(&s->text, h + 5, len);
		else if (h[0] == ID_STDERR)
			strbuf_add(&s->err, h + 5, len);
		else if (h[0] == ID_EXIT) {
			s->exit_code = h[5];
			s->ended = 1;
		}
		off += 5 + len;
	}
	strbuf_remove(&s->raw, 0, off);
	return rc;
}

/*
 * Hand out text[pos, end) as a line without its "\r", and drop consumed
 * text once it is the larger part, so reading stays linear.
 */
static void
take_line(struct adb_stream *s, struct strbuf *line, size_t end, size_t next)
{
	size_t len = end - s->pos;

	if (len && s->text.buf[end - 1] == '\r')
		len--;
	strbuf_reset(line);
	strbuf_add(line, s->text.buf + s->pos, len);
	s->pos = s->scanned = next;
	if (s->pos > READ_CHUNK && s->pos * 2 > s->text.len) {
		strbuf_remove(&s->text, 0, s->pos);
		s->pos = s->scanned = 0;
	}
}

int
adb_stream_read_line(struct adb_stream *s, struct strbuf *line,
    int timeout_ms)
{
	long long deadline = monoclock_real_ms() + timeout_ms;
	int rc;

	for (;;) {
		char *nl;
		long long left;

		if (atomic_load(&s->stopped))
			return jg_error_set(JG_EINTR, "%s: stopped", s->label);
		nl = memchr(s->text.buf + s->scanned, '\n',
		    s->text.len - s->scanned);
		if (nl) {
			size_t end = (size_t)(nl - s->text.buf);

			take_line(s, line, end, end + 1);
			return 1;
		}
		s->scanned = s->text.len;
		if (s->ended) {
			if (s->pos < s->text.len) {
				take_line(s, line, s->text.len, s->text.len);
				return 1;
			}
			if (s->v2 && s->exit_code < 0)
				return jg_error_set(JG_EPROTO, "%s: connection "
				    "closed before the exit status", s->label);
			return 0;
		}
		left = deadline - monoclock_real_ms();
		rc = adb_conn_read_some(&s->conn, s->v2 ? &s->raw : &s->text,
		    READ_CHUNK, left > 0 ? (int)left : 0);
		if (atomic_load(&s->stopped))
			continue;
		if (rc == JG_ETIMEOUT)
			return jg_error_set(JG_ETIMEOUT, "%s: no complete line "
			    "within %d ms", s->label, timeout_ms);
		if (rc == 0)
			s->ended = 1;
		else if (rc > 0 && s->v2)
			rc = decode_packets(s);
		if (rc < 0) {
			s->ended = 1;
			return jg_error_prefix("%s", s->label);
		}
	}
}

void
adb_stream_stop(struct adb_stream *s)
{
	atomic_store(&s->stopped, 1);
	/* Wakes a poll() in any thread; the server then sends CLSE. */
	shutdown(s->conn.fd, SHUT_RDWR);
}

int
adb_stream_exit_code(const struct adb_stream *s)
{
	return s->exit_code;
}

const struct strbuf *
adb_stream_stderr(const struct adb_stream *s)
{
	return &s->err;
}

void
adb_stream_free(struct adb_stream *s)
{
	if (!s)
		return;
	adb_conn_close(&s->conn);
	strbuf_release(&s->raw);
	strbuf_release(&s->text);
	strbuf_release(&s->err);
	free(s->label);
	free(s);
}
