/*
 * hash.c: SHA-256 and SHA-1 through libcrypto's EVP digests (hash.h).
 *
 * libcrypto is on every machine that builds jankgate (libcurl's OpenSSL
 * flavour needs it), so the digests are not written out here.  A failure
 * inside libcrypto (no memory, a provider without the digest) leaves no
 * sane way on: it aborts like the x* allocators do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "error.h"
#include "hash.h"
#include "banned.h"

static void
die(const char *what)
{
	fprintf(stderr, "jankgate: fatal: libcrypto: %s failed\n", what);
	abort();
}

void
hash_sha256_init(struct hash_sha256 *h)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx)
		die("EVP_MD_CTX_new");
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		die("SHA-256 init");
	h->ctx = ctx;
}

void
hash_sha256_add(struct hash_sha256 *h, const void *data, size_t len)
{
	if (len && EVP_DigestUpdate(h->ctx, data, len) != 1)
		die("SHA-256 update");
}

void
hash_sha256_hex(struct hash_sha256 *h, char out[65])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_DigestFinal_ex(h->ctx, md, &n) != 1 || n != 32)
		die("SHA-256 final");
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	for (unsigned int i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
}

int
hash_sha256_file(const char *path, char out[65])
{
	struct hash_sha256 h;
	unsigned char buf[65536];
	size_t n;
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return jg_error_errno(JG_EIO, errno, "cannot open '%s'", path);
	hash_sha256_init(&h);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		hash_sha256_add(&h, buf, n);
	if (ferror(fp)) {
		fclose(fp);
		EVP_MD_CTX_free(h.ctx);
		return jg_error_set(JG_EIO, "cannot read '%s'", path);
	}
	fclose(fp);
	hash_sha256_hex(&h, out);
	return 0;
}

void
hash_sha1(unsigned char out[HASH_SHA1_SIZE], const void *data, size_t len)
{
	unsigned int n = 0;

	if (EVP_Digest(data, len, out, &n, EVP_sha1(), NULL) != 1 ||
	    n != HASH_SHA1_SIZE)
		die("SHA-1");
}
