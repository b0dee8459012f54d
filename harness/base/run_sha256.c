/*
 * run_sha256.c: SHA-256 (FIPS 180-4) for the fingerprints results carry.
 *
 * results.json names what was measured by hash: the APK file
 * (app.apk_sha256) and each scenario's steps (scenarios[].sha256), so a
 * report can tell two runs of different builds or scripts apart.  None of
 * jankgate's libraries exposes a SHA-256 (libgit2 hashes objects with
 * SHA-1, libcurl keeps its digests private), and this is short, so it is
 * written out here from the standard.  Not used for anything secret.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "run_sha256.h"
#include "strbuf.h"
#include "banned.h"

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
block(struct run_sha256 *c, const unsigned char *p)
{
	uint32_t w[64], s[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
		    (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^
		    (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(s, c->h, sizeof(s));
	for (int i = 0; i < 64; i++) {
		uint32_t e = s[4], a = s[0];
		uint32_t t1 = s[7] + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		    ((e & s[5]) ^ (~e & s[6])) + k[i] + w[i];
		uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		    ((a & s[1]) ^ (a & s[2]) ^ (s[1] & s[2]));

		memmove(s + 1, s, 7 * sizeof(*s));
		s[4] += t1;
		s[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		c->h[i] += s[i];
}

void
run_sha256_init(struct run_sha256 *c)
{
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->fill = 0;
}

void
run_sha256_add(struct run_sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->len += len;
	while (len) {
		size_t n = 64 - c->fill;

		if (n > len)
			n = len;
		memcpy(c->buf + c->fill, p, n);
		c->fill += n;
		p += n;
		len -= n;
		if (c->fill == 64) {
			block(c, c->buf);
			c->fill = 0;
		}
	}
}

void
run_sha256_hex(struct run_sha256 *c, char out[65])
{
	uint64_t bits = c->len * 8;
	unsigned char pad = 0x80, len[8];

	run_sha256_add(c, &pad, 1);
	pad = 0;
	while (c->fill != 56)
		run_sha256_add(c, &pad, 1);
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	run_sha256_add(c, len, 8);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", c->h[i]);
}

int
run_sha256_file(const char *path, char out[65])
{
	struct run_sha256 c;
	unsigned char buf[65536];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		return jg_error_errno(JG_EIO, errno, "cannot open '%s'", path);
	run_sha256_init(&c);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		run_sha256_add(&c, buf, n);
	if (ferror(fp)) {
		fclose(fp);
		return jg_error_set(JG_EIO, "cannot read '%s'", path);
	}
	fclose(fp);
	run_sha256_hex(&c, out);
	return 0;
}
