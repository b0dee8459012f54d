/*
 * fake_adb.h: an in-process stand-in for the adb server, for unit tests.
 *
 * A thread listens on 127.0.0.1 (a kernel-chosen port) and plays a script
 * written before it starts: expect a request, send bytes, capture what the
 * client sends, pause, hang up or reset.  Connections are served one after
 * another; fake_adb_hangup() ends one and the steps after it belong to the
 * next.  Every wait in the fake gives up after a few seconds, so a client
 * that misbehaves makes a test fail, never hang.
 *
 *	struct fake_adb *fa = fake_adb_new();
 *	fake_adb_expect(fa, "host:transport:emu-1");
 *	fake_adb_okay(fa);
 *	fake_adb_expect(fa, "shell,v2,raw:echo hi");
 *	fake_adb_okay(fa);
 *	fake_adb_capture(fa, 5);		// the close-stdin packet
 *	fake_adb_v2(fa, 1, "hi\n", 3);
 *	fake_adb_v2(fa, 3, "\0", 1);
 *	fake_adb_start(fa);
 *	... run the client against fake_adb_port(fa) ...
 *	assert_string_equal(fake_adb_finish(fa), "");
 *	fake_adb_free(fa);
 */
#ifndef JG_FAKE_ADB_H
#define JG_FAKE_ADB_H

#include <stddef.h>

struct fake_adb;
struct strbuf;

/* Bind and listen; the script is empty. */
struct fake_adb *fake_adb_new(void);
/* Bind only: connects are refused until fake_adb_listen(). */
struct fake_adb *fake_adb_new_deferred(void);
void fake_adb_listen(struct fake_adb *fa);
int fake_adb_port(const struct fake_adb *fa);

/*
 * Expect one smart-socket request (hex4 + name).  A trailing '*' in
 * `service` matches any rest.  A mismatch is recorded and ends the script.
 */
void fake_adb_expect(struct fake_adb *fa, const char *service);
/* Send raw bytes / a string. */
void fake_adb_send(struct fake_adb *fa, const void *data, size_t len);
void fake_adb_sendstr(struct fake_adb *fa, const char *s);
/* "OKAY"; "FAIL" + hex4 + msg; "OKAY" + hex4 + payload. */
void fake_adb_okay(struct fake_adb *fa);
void fake_adb_fail(struct fake_adb *fa, const char *msg);
void fake_adb_okay_string(struct fake_adb *fa, const char *payload);
/* A shell v2 packet: id, u32le length, data. */
void fake_adb_v2(struct fake_adb *fa, int id, const void *data, size_t len);
/* A sync record: 4-byte id, u32le `value`, then `len` bytes of data. */
void fake_adb_sync(struct fake_adb *fa, const char *id, unsigned int value,
    const void *data, size_t len);
/* Read exactly `n` bytes from the client into the capture buffer. */
void fake_adb_capture(struct fake_adb *fa, size_t n);
/* Read into the capture buffer until the client closes. */
void fake_adb_capture_eof(struct fake_adb *fa);
/*
 * Read one sync request (id, u32le len, data) into the capture buffer and
 * check its id.
 */
void fake_adb_capture_sync(struct fake_adb *fa, const char *id);
/*
 * Read a whole sync SEND body (DATA records until DONE) and append only the
 * file bytes to the capture buffer; the DATA count and DONE value go to
 * fake_adb_send_info().
 */
void fake_adb_capture_send_body(struct fake_adb *fa);
void fake_adb_pause(struct fake_adb *fa, int ms);
/* Run the last expected "shell:CMD" with /bin/sh and send its output. */
void fake_adb_run_shell(struct fake_adb *fa);
/* Close this connection (FIN) / reset it (RST); later steps: next one. */
void fake_adb_hangup(struct fake_adb *fa);
void fake_adb_reset(struct fake_adb *fa);

/* Start serving the script. */
void fake_adb_start(struct fake_adb *fa);
/*
 * Wait for the script to end and return "" or the problems seen (wrong
 * requests, steps not reached); borrowed.
 */
const char *fake_adb_finish(struct fake_adb *fa);
/* What the capture steps read; valid after fake_adb_finish(). */
const struct strbuf *fake_adb_captured(const struct fake_adb *fa);
/* After capture_send_body: the number of DATA records and DONE's value. */
void fake_adb_send_info(const struct fake_adb *fa, size_t *records,
    size_t *max_record, unsigned int *done_value);
void fake_adb_free(struct fake_adb *fa);

#endif
