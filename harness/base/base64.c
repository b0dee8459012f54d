/*
 * base64.c: base64 through libcrypto's EVP_EncodeBlock (base64.h).
 *
 * EVP_EncodeBlock takes an int length and writes 4 bytes per 3 plus a
 * NUL, with no line breaks: the input goes in slices that keep both in
 * bounds, each a multiple of 3 bytes so the slices join seamlessly.
 */
#include <openssl/evp.h>

#include "base64.h"
#include "strbuf.h"
#include "banned.h"

/* Bytes encoded per call: a multiple of 3. */
#define SLICE (3 * 4096)

void
base64_add(struct strbuf *out, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len) {
		size_t n = len < SLICE ? len : SLICE;
		size_t room = 4 * ((n + 2) / 3) + 1;
		int wrote;

		strbuf_grow(out, room);
		wrote = EVP_EncodeBlock((unsigned char *)out->buf + out->len, p,
		    (int)n);
		strbuf_setlen(out, out->len + (size_t)wrote);
		p += n;
		len -= n;
	}
}
