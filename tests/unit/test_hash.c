/*
 * test_hash.c: the digests and the base64 encoder over libcrypto
 * (hash.h, base64.h), against the standards' own examples.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "base64.h"
#include "error.h"
#include "hash.h"
#include "strbuf.h"

/* SHA-256 against FIPS 180-4's examples, fed whole and in pieces. */
static void
sha256_known_answers(void **state)
{
	static const char two_blocks[] =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	struct hash_sha256 c;
	char hex[65];

	hash_sha256_init(&c);
	hash_sha256_hex(&c, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855");
	hash_sha256_init(&c);
	hash_sha256_add(&c, "abc", 3);
	hash_sha256_hex(&c, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	hash_sha256_init(&c);
	for (size_t i = 0; i < strlen(two_blocks); i++)
		hash_sha256_add(&c, two_blocks + i, 1);
	hash_sha256_hex(&c, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039"
	    "a33ce45964ff2167f6ecedd419db06c1");
}

/* A file hashes like its bytes; a missing one is an error naming it. */
static void
sha256_of_files(void **state)
{
	char path[512], hex[65];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/abc.apk", unit_tmpdir());
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("abc", fp);
	fclose(fp);
	assert_int_equal(hash_sha256_file(path, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	snprintf(path, sizeof(path), "%s/missing.apk", unit_tmpdir());
	assert_int_equal(hash_sha256_file(path, hex), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), "missing.apk"));
}

/* SHA-1 against FIPS 180-4's examples. */
static void
sha1_known_answers(void **state)
{
	static const char two_blocks[] =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	unsigned char md[HASH_SHA1_SIZE];
	char hex[2 * HASH_SHA1_SIZE + 1];

	(void)state;
	hash_sha1(md, "abc", 3);
	for (size_t i = 0; i < sizeof(md); i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
	hash_sha1(md, two_blocks, strlen(two_blocks));
	for (size_t i = 0; i < sizeof(md); i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	assert_string_equal(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
}

/* RFC 4648's test vectors, padding included; appended, never replacing. */
static void
base64_test_vectors(void **state)
{
	static const char *const in[] = {
		"", "f", "fo", "foo", "foob", "fooba", "foobar",
	};
	static const char *const want[] = {
		"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy",
	};
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "x:");
		base64_add(&sb, in[i], strlen(in[i]));
		assert_int_equal(sb.len, 2 + strlen(want[i]));
		assert_memory_equal(sb.buf, "x:", 2);
		assert_string_equal(sb.buf + 2, want[i]);
	}
	strbuf_release(&sb);
}

/* Input longer than one slice encodes as if in one go: no line breaks. */
static void
base64_long_input_is_one_line(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	static unsigned char buf[3 * 4096 + 5];

	(void)state;
	memset(buf, 0xff, sizeof(buf));
	base64_add(&sb, buf, sizeof(buf));
	assert_int_equal(sb.len, 4 * ((sizeof(buf) + 2) / 3));
	assert_null(strchr(sb.buf, '\n'));
	for (size_t i = 0; i + 4 < sb.len; i++)
		assert_int_equal(sb.buf[i], '/');
	assert_string_equal(sb.buf + sb.len - 4, "//8=");
	strbuf_release(&sb);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(sha256_known_answers),
	cmocka_unit_test(sha256_of_files),
	cmocka_unit_test(sha1_known_answers),
	cmocka_unit_test(base64_test_vectors),
	cmocka_unit_test(base64_long_input_is_one_line),
};
JG_UNIT_GROUP(hash, tests, NULL, NULL)
