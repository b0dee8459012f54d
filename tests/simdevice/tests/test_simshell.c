/*
 * test_simshell.c: the simulated device's shell parser, in-memory file
 * system, property map and WebSocket server.
 *
 * Part of the simulated phone's own test binary (make check-sim), which
 * links the simulator's modules.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "unit.h"
#include "shparse.h"
#include "simfs.h"
#include "simkv.h"
#include "websock.h"
#include "strbuf.h"
#include "xalloc.h"


/*
 * A stand-in adb stream for websock.c: reads come from `in`, writes go to
 * `out`.  Only the calls websock.c makes are provided, as the linker's
 * seam: the binary is linked with --wrap for each (Makefile), so
 * websock.c's calls come here instead of to stream.c.
 */
struct simstream {
	const char *in;
	size_t in_len, in_pos;
	struct strbuf out;
};

size_t
__wrap_simstream_read(struct simstream *st, void *buf, size_t len)
{
	size_t n = st->in_len - st->in_pos;

	if (n > len)
		n = len;
	memcpy(buf, st->in + st->in_pos, n);
	st->in_pos += n;
	return n;
}

int
__wrap_simstream_read_full(struct simstream *st, void *buf, size_t len)
{
	return __wrap_simstream_read(st, buf, len) == len ? 0 : -1;
}

int
__wrap_simstream_write(struct simstream *st, const void *buf, size_t len)
{
	strbuf_add(&st->out, buf, len);
	return 0;
}

/*
 * Render a parsed script compactly: commands joined by " ; ", " && ",
 * " || ", " | "; each word in brackets; each redirection as " FD>TARGET",
 * " FD>>TARGET", " FD<TARGET" or " FD>&TARGET".
 */
static void
render(struct strbuf *out, const struct sh_script *s)
{
	static const char *const joins[] = { " ; ", " && ", " || ", " | " };
	size_t i, j;

	for (i = 0; i < s->nr; i++) {
		const struct sh_cmd *c = &s->cmds[i];

		if (i)
			strbuf_addstr(out, joins[c->join]);
		for (j = 0; j < (size_t)c->argc; j++)
			strbuf_addf(out, "[%s]", c->argv[j]);
		assert_null(c->argv[c->argc]);
		for (j = 0; j < c->nr_redirs; j++) {
			const struct sh_redir *r = &c->redirs[j];
			static const char *const ops[] = {
				"<", ">", ">>", ">&",
			};

			strbuf_addf(out, " %d%s%s", r->fd, ops[r->kind],
			    r->target);
		}
	}
}

/* Lines parse into the commands, words and redirections mksh would see. */
static void
shparse_accepts(void **state)
{
	static const struct {
		const char *line, *want;
	} cases[] = {
		{ "echo a   b", "[echo][a][b]" },
		{ "  echo\ta  ", "[echo][a]" },
		{ "echo 'a  \"b\" \\n'", "[echo][a  \"b\" \\n]" },
		{ "echo \"a \\\"q\\\" \\$x \\z\"", "[echo][a \"q\" $x \\z]" },
		{ "echo a\\ b\\'c", "[echo][a b'c]" },
		{ "echo ''x\"\"y", "[echo][xy]" },
		{ "echo '' \"\"", "[echo][][]" },
		{ "echo a#b #c d", "[echo][a#b]" },
		{ "echo $x ~ *", "[echo][$x][~][*]" },
		{ "a && b || c | d; e", "[a] && [b] || [c] | [d] ; [e]" },
		{ "a\nb", "[a] ; [b]" },
		{ "a &&\n b", "[a] && [b]" },
		{ "; a ;; b ;", "[a] ; [b]" },
		{ "cat <in >out 2>>err 2>&1", "[cat] 0<in 1>out 2>>err 2>&1" },
		{ "echo x>f", "[echo][x] 1>f" },
		{ "echo 2>f", "[echo] 2>f" },
		{ "echo '2'>f", "[echo][2] 1>f" },
		{ "echo a2>f", "[echo][a2] 1>f" },
		{ "echo hi >&2", "[echo][hi] 1>&2" },
		{ "rm '/data/local/tmp/x.apk' </dev/null",
		  "[rm][/data/local/tmp/x.apk] 0</dev/null" },
		{ "> f", " 1>f" },
		{ "echo a\\\nb", "[echo][ab]" },
		{ "", "" },
		{ "# only a comment", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sh_script s = { 0 };
		struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;

		if (shparse(&s, cases[i].line, &err))
			fail_msg("'%s': %s", cases[i].line, err.buf);
		render(&got, &s);
		if (strcmp(got.buf, cases[i].want))
			fail_msg("'%s': got '%s', want '%s'", cases[i].line,
			    got.buf, cases[i].want);
		shparse_release(&s);
		strbuf_release(&err);
		strbuf_release(&got);
	}
}

/* Broken lines are refused whole, with mksh-style complaints. */
static void
shparse_rejects(void **state)
{
	static const struct {
		const char *line, *err;
	} cases[] = {
		{ "echo 'open", "syntax error: unterminated quoted string" },
		{ "echo \"open", "syntax error: unterminated quoted string" },
		{ "&& a", "syntax error: '&&' unexpected" },
		{ "a && && b", "syntax error: '&&' unexpected" },
		{ "a ||", "syntax error: unexpected end of input" },
		{ "a |", "syntax error: unexpected end of input" },
		{ "a &", "syntax error: '&' unexpected" },
		{ "(a)", "syntax error: '(' unexpected" },
		{ "echo >", "syntax error: '>' unexpected" },
		{ "echo > ; x", "syntax error: '>' unexpected" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sh_script s = { 0 };
		struct strbuf err = STRBUF_INIT;

		if (!shparse(&s, cases[i].line, &err))
			fail_msg("'%s' parsed", cases[i].line);
		if (strcmp(err.buf, cases[i].err))
			fail_msg("'%s': got '%s', want '%s'", cases[i].line,
			    err.buf, cases[i].err);
		shparse_release(&s);
		strbuf_release(&err);
	}
}

/*
 * Paths normalise as the kernel resolves them from "/", with Android's
 * data and storage links followed.
 */
static void
simfs_normalizes_paths(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "", "/" },
		{ "/", "/" },
		{ "a/b", "/a/b" },
		{ "//a//b/", "/a/b" },
		{ "/a/./b/.", "/a/b" },
		{ "/a/../b", "/b" },
		{ "/..", "/" },
		{ "/a/b/../../..", "/" },
		{ "/data/local/../local/tmp", "/data/local/tmp" },
		/* Android's links to where apps write, resolved by name. */
		{ "/data/user/0/com.x/files", "/data/data/com.x/files" },
		{ "/data/user/0", "/data/data" },
		{ "/data/user/01", "/data/user/01" },
		{ "/storage/emulated/0/blockcanary", "/sdcard/blockcanary" },
		{ "/storage/self/primary", "/sdcard" },
		{ "/storage/emulated/1", "/storage/emulated/1" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "x");	/* appends, keeps what was there */
		simfs_normalize(&sb, cases[i].in);
		if (strcmp(sb.buf + 1, cases[i].want) || sb.buf[0] != 'x')
			fail_msg("'%s': got '%s', want '%s'", cases[i].in,
			    sb.buf + 1, cases[i].want);
		strbuf_release(&sb);
	}
}

/* Files keep their bytes, size, permission and the parent's owner. */
static void
simfs_files_round_trip(void **state)
{
	struct simfs *fs = simfs_new();
	struct strbuf sb = STRBUF_INIT;
	struct simfs_stat st;

	assert_int_equal(simfs_mkdir(fs, "/d", 0771, 0), 0);
	assert_int_equal(simfs_chown(fs, "/d", 2000, 2000, 0), 0);
	assert_int_equal(simfs_write(fs, "/d/f", "a\0b", 3, 0, 0600), 0);
	assert_int_equal(simfs_write(fs, "/d/f", "c", 1, 1, 0), 0);
	assert_int_equal(simfs_read(fs, "d/./f", &sb), 0);
	assert_int_equal(sb.len, 4);
	assert_memory_equal(sb.buf, "a\0bc", 4);
	assert_int_equal(simfs_stat(fs, "/d/f", &st), 0);
	assert_int_equal(st.mode, S_IFREG | 0600);
	assert_int_equal(st.size, 4);
	assert_int_equal(st.uid, 2000);
	assert_int_equal(st.gid, 2000);
	assert_int_equal(st.nlink, 1);
	assert_int_equal(simfs_utime(fs, "/d/f", 1234), 0);
	assert_int_equal(simfs_stat(fs, "/d/f", &st), 0);
	assert_int_equal(st.mtime, 1234);

	/* Replacing truncates. */
	strbuf_reset(&sb);
	assert_int_equal(simfs_write(fs, "/d/f", "z", 1, 0, 0), 0);
	assert_int_equal(simfs_read(fs, "/d/f", &sb), 0);
	assert_string_equal(sb.buf, "z");
	strbuf_release(&sb);
	simfs_free(fs);
}

/* Each failure comes back as the errno a real file system gives. */
static void
simfs_errors_are_errnos(void **state)
{
	struct simfs *fs = simfs_new();
	struct strbuf sb = STRBUF_INIT;
	struct simfs_stat st;

	assert_int_equal(simfs_mkdir(fs, "/d", 0, 0), 0);
	assert_int_equal(simfs_write(fs, "/d/f", "x", 1, 0, 0), 0);
	assert_int_equal(simfs_stat(fs, "/nope", &st), -ENOENT);
	assert_int_equal(simfs_stat(fs, "/d/f/x", &st), -ENOTDIR);
	assert_int_equal(simfs_write(fs, "/nodir/f", "x", 1, 0, 0), -ENOENT);
	assert_int_equal(simfs_write(fs, "/d", "x", 1, 0, 0), -EISDIR);
	assert_int_equal(simfs_read(fs, "/d", &sb), -EISDIR);
	assert_int_equal(simfs_mkdir(fs, "/d", 0, 0), -EEXIST);
	assert_int_equal(simfs_mkdir(fs, "/a/b", 0, 0), -ENOENT);
	assert_int_equal(simfs_mkdir(fs, "/d/f/g", 0, 1), -ENOTDIR);
	assert_int_equal(simfs_remove(fs, "/d", 0), -EISDIR);
	assert_int_equal(simfs_remove(fs, "/", 1), -EBUSY);
	assert_int_equal(simfs_remove(fs, "/nope", 1), -ENOENT);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	simfs_free(fs);
}

/* mkdir -p builds the chain, accepts what exists, and rm -r takes it all. */
static void
simfs_trees(void **state)
{
	struct simfs *fs = simfs_new();
	struct simfs_dirent *d;
	struct simfs_stat st;
	size_t nr;

	assert_int_equal(simfs_mkdir(fs, "/a/b/c", 0750, 1), 0);
	assert_int_equal(simfs_mkdir(fs, "/a/b", 0, 1), 0);
	assert_int_equal(simfs_stat(fs, "/a/b/c", &st), 0);
	assert_int_equal(st.mode, S_IFDIR | 0750);
	assert_int_equal(simfs_write(fs, "/a/z", "", 0, 0, 0), 0);
	assert_int_equal(simfs_write(fs, "/a/m", "", 0, 0, 0), 0);

	/* Listings are sorted and exclude "." and "..". */
	assert_int_equal(simfs_list(fs, "/a", &d, &nr), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(d[0].name, "b");
	assert_string_equal(d[1].name, "m");
	assert_string_equal(d[2].name, "z");
	assert_true(S_ISDIR(d[0].st.mode));
	simfs_dirents_free(d, nr);
	assert_int_equal(simfs_list(fs, "/a/m", &d, &nr), -ENOTDIR);

	/* A directory's link count is 2 plus its subdirectories. */
	assert_int_equal(simfs_stat(fs, "/a", &st), 0);
	assert_int_equal(st.nlink, 3);

	assert_int_equal(simfs_chown(fs, "/a", 10100, 10100, 1), 0);
	assert_int_equal(simfs_stat(fs, "/a/b/c", &st), 0);
	assert_int_equal(st.uid, 10100);

	assert_int_equal(simfs_remove(fs, "/a", 1), 0);
	assert_int_equal(simfs_stat(fs, "/a/b", &st), -ENOENT);
	assert_int_equal(simfs_list(fs, "/", &d, &nr), 0);
	assert_int_equal(nr, 0);
	assert_null(d);
	simfs_free(fs);
}

static int
collect(const char *key, const char *value, void *data)
{
	strbuf_addf(data, "%s=%s;", key, value);
	return 0;
}

/* The map keeps one value per key, in key order, and forgets on unset. */
static void
simkv_sorted_map(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct simkv kv;

	simkv_init(&kv);
	simkv_set(&kv, "ro.b", "2");
	simkv_set(&kv, "ro.a", "1");
	simkv_set(&kv, "ro.c", "3");
	simkv_set(&kv, "ro.b", "two");
	simkv_foreach(&kv, collect, &sb);
	assert_string_equal(sb.buf, "ro.a=1;ro.b=two;ro.c=3;");

	strbuf_reset(&sb);
	assert_int_equal(simkv_get(&kv, "ro.b", &sb), 1);
	assert_string_equal(sb.buf, "two");
	assert_int_equal(simkv_get(&kv, "ro.x", &sb), 0);
	assert_string_equal(sb.buf, "two");

	assert_int_equal(simkv_unset(&kv, "ro.a"), 1);
	assert_int_equal(simkv_unset(&kv, "ro.a"), 0);
	strbuf_reset(&sb);
	simkv_foreach(&kv, collect, &sb);
	assert_string_equal(sb.buf, "ro.b=two;ro.c=3;");
	strbuf_release(&sb);
	simkv_release(&kv);
}


/* SHA-1 matches FIPS 180's examples, around the padding boundaries too. */
static void
websock_sha1_vectors(void **state)
{
	static const struct {
		const char *in, *hex;
	} cases[] = {
		{ "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
		{ "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
		{ "The quick brown fox jumps over the lazy dog",
		  "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12" },
	};
	uint8_t d[20];
	char hex[41];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		websock_sha1(cases[i].in, strlen(cases[i].in), d);
		for (int k = 0; k < 20; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		assert_string_equal(hex, cases[i].hex);
	}
}

/* The handshake answers RFC 6455's sample key with its sample accept. */
static void
websock_handshake_rfc_sample(void **state)
{
	static const char req[] = "GET /refresh HTTP/1.1\r\nHost: x\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\nrest";
	struct simstream st = { req, sizeof(req) - 1, 0, STRBUF_INIT };

	assert_int_equal(websock_handshake(&st, "/refresh"), 0);
	assert_string_equal(st.out.buf, "HTTP/1.1 101 Switching Protocols\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n");
	/* Nothing after the request was consumed. */
	assert_int_equal(st.in_len - st.in_pos, 4);
	strbuf_release(&st.out);

	/* Another path, or no upgrade: 404 and a refusal. */
	st = (struct simstream){ req, sizeof(req) - 1, 0, STRBUF_INIT };
	assert_int_equal(websock_handshake(&st, "/other"), -1);
	assert_true(!strncmp(st.out.buf, "HTTP/1.1 404 ", 13));
	strbuf_release(&st.out);
}

/*
 * Masked client frames are unmasked and fragments joined; unmasked ones
 * are refused; server frames carry 7-, 16- and 64-bit lengths.
 */
static void
websock_frames(void **state)
{
	/* "Hel" (text, not final) + "lo" (continuation, final), RFC 6455 5.7. */
	static const unsigned char in[] = {
		0x01, 0x83, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d,
		0x80, 0x82, 0x37, 0xfa, 0x21, 0x3d, 0x5b, 0x95,
		0x81, 0x02, 'n', 'o',
	};
	struct simstream st = { (const char *)in, sizeof(in), 0, STRBUF_INIT };
	struct strbuf msg = STRBUF_INIT;
	char big[70000];
	int op;

	assert_int_equal(websock_read(&st, &op, &msg), 0);
	assert_int_equal(op, WS_TEXT);
	assert_int_equal(msg.len, 5);
	assert_memory_equal(msg.buf, "Hello", 5);
	assert_int_equal(websock_read(&st, &op, &msg), -1);

	assert_int_equal(websock_write(&st, WS_TEXT, "hi", 2), 0);
	assert_memory_equal(st.out.buf, "\x81\x02hi", 4);
	strbuf_reset(&st.out);
	memset(big, 'x', sizeof(big));
	websock_write(&st, WS_TEXT, big, 300);
	assert_memory_equal(st.out.buf, "\x81\x7e\x01\x2c", 4);
	assert_int_equal(st.out.len, 304);
	strbuf_reset(&st.out);
	websock_write(&st, WS_BINARY, big, sizeof(big));
	assert_memory_equal(st.out.buf, "\x82\x7f\0\0\0\0\0\x01\x11\x70",
	    10);
	strbuf_release(&st.out);
	strbuf_release(&msg);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(shparse_accepts),
	cmocka_unit_test(shparse_rejects),
	cmocka_unit_test(simfs_normalizes_paths),
	cmocka_unit_test(simfs_files_round_trip),
	cmocka_unit_test(simfs_errors_are_errnos),
	cmocka_unit_test(simfs_trees),
	cmocka_unit_test(simkv_sorted_map),
	cmocka_unit_test(websock_sha1_vectors),
	cmocka_unit_test(websock_handshake_rfc_sample),
	cmocka_unit_test(websock_frames),
};

JG_UNIT_GROUP(simshell, tests, NULL, NULL)
