/*
 * run_sha256.h: SHA-256 of bytes and files, as lower-case hex.
 *
 * The fingerprints in results.json (app.apk_sha256, scenarios[].sha256);
 * run_sha256.c says why jankgate carries its own.
 */
#ifndef JG_RUN_SHA256_H
#define JG_RUN_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct run_sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
};

/* Start, feed any number of times, then finish into 64 hex digits + NUL. */
void run_sha256_init(struct run_sha256 *c);
void run_sha256_add(struct run_sha256 *c, const void *data, size_t len);
void run_sha256_hex(struct run_sha256 *c, char out[65]);

/* The hash of the file at `path`.  Returns 0 or JG_EIO naming the path. */
int run_sha256_file(const char *path, char out[65]);

#endif
