/*
 * hash.h: SHA-256 and SHA-1, from libcrypto (OpenSSL).
 *
 * SHA-256 makes the fingerprints results.json carries (app.apk_sha256,
 * scenarios[].sha256), so a report can tell two runs of different builds
 * or scripts apart; SHA-1 is what RFC 6455 asks of a WebSocket handshake
 * (Sec-WebSocket-Accept).  Neither is used for anything secret.  hash.c
 * is the one file that includes OpenSSL's digest header: its types do
 * not leak into other headers.
 */
#ifndef JG_HASH_H
#define JG_HASH_H

#include <stddef.h>

#define HASH_SHA1_SIZE 20

/* A SHA-256 being computed; its state is libcrypto's, held opaque. */
struct hash_sha256 {
	void *ctx;
};

/*
 * Start, feed any number of times, then finish into 64 lower-case hex
 * digits and a NUL, which also frees the state.  Out of memory, or a
 * libcrypto that refuses SHA-256, aborts with a message.
 */
void hash_sha256_init(struct hash_sha256 *h);
void hash_sha256_add(struct hash_sha256 *h, const void *data, size_t len);
void hash_sha256_hex(struct hash_sha256 *h, char out[65]);

/* The SHA-256 of the file at `path`.  Returns 0 or JG_EIO naming it. */
int hash_sha256_file(const char *path, char out[65]);

/* The SHA-1 of `len` bytes at `data`. */
void hash_sha1(unsigned char out[HASH_SHA1_SIZE], const void *data,
    size_t len);

#endif
