/*
 * base64.h: base64 (RFC 4648, with padding), the one encoder jankgate has:
 * mail bodies and encoded words (mime.c), the WebSocket handshake, and the
 * ssh host keys compared with known_hosts (baseline_git_net.c).
 */
#ifndef JG_BASE64_H
#define JG_BASE64_H

#include <stddef.h>

struct strbuf;

/* Append the base64 of `len` bytes at `data` to `out`, on one line. */
void base64_add(struct strbuf *out, const void *data, size_t len);

#endif
