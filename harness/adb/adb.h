/*
 * adb.h: reaching Android devices through the adb server.
 *
 * jankgate speaks the adb server's own protocol over TCP (docs/adb.md §1)
 * instead of running `adb` per command: it is faster, gives exit codes and
 * stderr separately, and lets every read carry a timeout.  Nothing here is
 * global.  A `struct adb_server` holds the address and the default timeout;
 * a `struct adb_device` names one device on it.  Each call opens its own
 * connection, so several devices are driven at once from separate threads.
 * One adb_device is used by one thread at a time (it caches the feature
 * list); the only calls meant for another thread are adb_stream_stop() and
 * adb_tracker_stop().
 *
 * Errors follow error.h.  Messages name the device and the command:
 *	device '127.0.0.1:7431': 'dumpsys gfxinfo com.x': connection closed
 *	before the exit status
 * Codes: JG_EIO server not running or not startable (callers exit 3),
 * JG_EDEVICE device missing/offline/unauthorized or refusing a service,
 * JG_ECLOSED connection lost mid-stream, JG_EPROTO broken framing or no
 * exit status, JG_ETIMEOUT no answer in time, JG_EGENERIC other server
 * FAILs, a package manager refusal, or a non-zero adb_shell_check().
 *
 * Sync (push, pull, stat, list) is in adb_sync.h; shell quoting in
 * shquote.h.
 */
#ifndef JG_ADB_H
#define JG_ADB_H

#include <stddef.h>

#include "strbuf.h"

struct adb_server;
struct adb_device;

#define ADB_DEFAULT_PORT 5037
#define ADB_DEFAULT_TIMEOUT_MS 30000

/* ---- the server ---------------------------------------------------- */

/*
 * Parse the server address the way adb does: `socket_env` (the value of
 * ADB_SERVER_SOCKET, "tcp:HOST:PORT" or "tcp:PORT"), else `port_env`
 * (ANDROID_ADB_SERVER_PORT), else 5037 on 127.0.0.1.  NULL or "" means
 * unset.  On success *host is the caller's to free.  JG_EINVAL otherwise.
 */
int adb_address_parse(char **host, int *port, const char *socket_env,
    const char *port_env);

/*
 * A server handle from the environment (see adb_address_parse).
 * `timeout_ms` <= 0 means ADB_DEFAULT_TIMEOUT_MS.  No I/O happens here.
 * Returns 0 or JG_EINVAL for a malformed variable; *out is freed with
 * adb_server_free().
 */
int adb_server_new(struct adb_server **out, int timeout_ms);

/* A server handle for an explicit address (tests, --adb options). */
struct adb_server *adb_server_new_at(const char *host, int port,
    int timeout_ms);

/* Free the handle; NULL is a no-op.  Devices made from it must be gone. */
void adb_server_free(struct adb_server *srv);

/* "tcp:HOST:PORT", for messages; borrowed. */
const char *adb_server_address(const struct adb_server *srv);

/*
 * 1 when this handle started the server (`adb -P PORT start-server`, no
 * server listening on a loopback address), so a command can say that a
 * server now runs that did not before.
 */
int adb_server_started(const struct adb_server *srv);

/* The per-read timeout given to adb_server_new*(), in ms. */
int adb_server_timeout(const struct adb_server *srv);

/*
 * The program run as `PROGRAM -P PORT start-server` when nothing listens on
 * a loopback address ("adb" by default, looked up in PATH); NULL never
 * starts a server.  The start is tried once per handle.
 */
void adb_server_set_adb(struct adb_server *srv, const char *program);

/* The server's protocol version (41 for adb 29) in *out. */
int adb_server_version(struct adb_server *srv, int *out);

/* ---- device lists -------------------------------------------------- */

/* One line of `adb devices -l`.  Missing fields are "" (never NULL). */
struct adb_device_info {
	char *serial;
	char *state;		/* device, offline, unauthorized, recovery... */
	char *product;
	char *model;		/* sanitized by the server: [A-Za-z0-9_] */
	char *device;
	long transport_id;	/* 0 when not given */
};

struct adb_device_list {
	struct adb_device_info *items;
	size_t nr, alloc;
};

#define ADB_DEVICE_LIST_INIT { NULL, 0, 0 }

/* Free the entries and leave the list empty and reusable. */
void adb_device_list_release(struct adb_device_list *list);

/*
 * Parse a `host:devices` ("SERIAL\tSTATE") or `host:devices-l` payload and
 * append to `list`.  Lines without a state are JG_EPROTO.  States with
 * spaces ("no permissions (...)") are kept whole.
 */
int adb_device_list_parse(struct adb_device_list *list, const char *text,
    size_t len);

/*
 * The attached devices, with product/model/device/transport_id when
 * `long_format` (host:devices-l).  Appends to `list`.
 */
int adb_server_devices(struct adb_server *srv, struct adb_device_list *list,
    int long_format);

/*
 * `adb connect HOSTPORT`.  The server always answers OKAY, so the text
 * decides: "connected to" / "already connected to" are 0, anything else
 * ("failed to connect to", "failed to authenticate to") is JG_EDEVICE
 * quoting it.  The server itself may wait up to 10 s.
 */
int adb_server_connect(struct adb_server *srv, const char *hostport);

/* `adb disconnect HOSTPORT`: 0 on "disconnected", else as connect. */
int adb_server_disconnect(struct adb_server *srv, const char *hostport);

/* ---- watching the device list ---------------------------------------- */

struct adb_tracker;

/* Start `host:track-devices`; *out is freed with adb_tracker_free(). */
int adb_tracker_open(struct adb_tracker **out, struct adb_server *srv);

/*
 * Wait up to `timeout_ms` for the next device list (the server sends one
 * at once, then one per change) and append it to `list` (plain format:
 * serial and state only).  Returns 0, JG_ETIMEOUT (still usable),
 * JG_EINTR after adb_tracker_stop(), JG_ECLOSED when the server went away.
 */
int adb_tracker_next(struct adb_tracker *t, struct adb_device_list *list,
    int timeout_ms);

/* Wake a blocked adb_tracker_next(); safe from any thread before free. */
void adb_tracker_stop(struct adb_tracker *t);

/* Close and free; NULL is a no-op. */
void adb_tracker_free(struct adb_tracker *t);

/* ---- one device ------------------------------------------------------ */

/*
 * A handle for device `serial` on `srv` (NULL: the only device, as `adb`
 * without -s).  No I/O happens here.  `srv` is borrowed and must outlive
 * the device.  Free with adb_device_free().
 */
struct adb_device *adb_device_new(struct adb_server *srv, const char *serial);
void adb_device_free(struct adb_device *dev);

/* The serial given to adb_device_new(), or "(any)"; borrowed. */
const char *adb_device_serial(const struct adb_device *dev);
/* The server the device was made on; borrowed. */
struct adb_server *adb_device_server(const struct adb_device *dev);

/*
 * Per-read timeout of this device's calls, in ms (default, and <= 0: the
 * server's).  Raise it around a command known to stay silent for long.
 */
void adb_device_set_timeout(struct adb_device *dev, int timeout_ms);
int adb_device_timeout(const struct adb_device *dev);

/*
 * The device's comma-separated feature list ("shell_v2,cmd,stat_v2,...")
 * in *out, fetched once and cached; borrowed, valid until the device is
 * freed or adb_device_set_features() is called.
 */
int adb_device_features(struct adb_device *dev, const char **out);

/*
 * Replace the cached feature list, e.g. to force the legacy code paths
 * ("" = an old device).  NULL forgets it, so the next call asks again.
 */
void adb_device_set_features(struct adb_device *dev, const char *features);

/* 1 when the device has `feature`, 0 when not, or a negative error. */
int adb_device_has_feature(struct adb_device *dev, const char *feature);

/* The device state ("device", "offline", "unauthorized"...) into `out`. */
int adb_device_get_state(struct adb_device *dev, struct strbuf *out);

/*
 * Forward host port `local_port` (0: let the server pick) to `remote` on
 * the device ("tcp:5392", "localabstract:name").  *bound gets the host
 * port in use; `bound` may be NULL.
 */
int adb_device_forward(struct adb_device *dev, int local_port,
    const char *remote, int *bound);

/* Remove the forward of host port `local_port`. */
int adb_device_forward_remove(struct adb_device *dev, int local_port);

/* ---- shell commands (adb_shell.c) ------------------------------------ */

struct adb_shell_result {
	struct strbuf out;	/* stdout (legacy shell: stdout + stderr) */
	struct strbuf err;	/* stderr (legacy shell: always empty) */
	int exit_code;		/* 0..255 */
};

/* Empty buffers and exit_code -1; release frees the buffers. */
void adb_shell_result_init(struct adb_shell_result *res);
void adb_shell_result_release(struct adb_shell_result *res);

/*
 * Run `cmd` through the device's /bin/sh and collect its output and exit
 * code (appended to res).  Uses shell protocol v2 when the device has
 * `shell_v2`, else legacy `shell:` with an exit-code marker.  Returns 0
 * when the command ran, whatever its exit code; JG_EPROTO when the device
 * never sent an exit status; other errors as in the header comment.
 */
int adb_shell(struct adb_device *dev, const char *cmd,
    struct adb_shell_result *res);

/* adb_shell() of `argv` with every word quoted for the device shell. */
int adb_shell_argv(struct adb_device *dev, const char *const argv[],
    struct adb_shell_result *res);

/*
 * Run `cmd` and require exit status 0: stdout is appended to `out`.  A
 * non-zero status is JG_EGENERIC with the status and the first line of
 * stderr in the message.  Meant for queries such as `getprop ro.x`.
 */
int adb_shell_check(struct adb_device *dev, const char *cmd,
    struct strbuf *out);

/*
 * `exec:cmd`: send `in_len` bytes of `in` (may be NULL/0) as stdin, then
 * append the raw, binary-safe output to `out` until the device closes.
 * No exit status exists on this route.
 */
int adb_exec(struct adb_device *dev, const char *cmd, const void *in,
    size_t in_len, struct strbuf *out);

/* ---- streaming commands (logcat) ------------------------------------- */

struct adb_stream;

/*
 * Start `cmd` (v2 when available, else legacy shell) and return a stream
 * of its stdout lines; stderr is kept aside (adb_stream_stderr).  *out is
 * freed with adb_stream_free().
 */
int adb_stream_open(struct adb_stream **out, struct adb_device *dev,
    const char *cmd);

/*
 * Wait up to `timeout_ms` for the next complete line and put it in `line`
 * (replaced, without "\n" or "\r\n").  Returns 1 for a line, 0 at the end
 * of the command, JG_ETIMEOUT (the stream stays usable), JG_EINTR after
 * adb_stream_stop(), JG_EPROTO/JG_ECLOSED when the device went away.  A
 * last line without "\n" is delivered before the end.
 */
int adb_stream_read_line(struct adb_stream *s, struct strbuf *line,
    int timeout_ms);

/*
 * Stop the stream: wakes a blocked read in any thread; the server then
 * closes the device side of the command.  Call any time before free.
 */
void adb_stream_stop(struct adb_stream *s);

/* The exit status after read_line returned 0, else -1 (legacy: -1). */
int adb_stream_exit_code(const struct adb_stream *s);

/* Stderr received so far (v2 only); borrowed. */
const struct strbuf *adb_stream_stderr(const struct adb_stream *s);

/* Close the connection and free; NULL is a no-op. */
void adb_stream_free(struct adb_stream *s);

/* ---- install (adb_install.c) ----------------------------------------- */

enum adb_install_route {
	ADB_INSTALL_AUTO,	/* STREAM when the device has `cmd`, else PUSH */
	ADB_INSTALL_PUSH,	/* push to /data/local/tmp, `pm install`, rm */
	ADB_INSTALL_STREAM,	/* exec:cmd package install -S SIZE */
};

struct adb_install_opts {
	enum adb_install_route route;
	const char *const *args;	/* extra pm options ("-d", "-g"), NULL-terminated; may be NULL */
};

/*
 * Install (replace) the APK at host path `apk`.  `opts` may be NULL (auto,
 * no options).  A refusal by the package manager is JG_EGENERIC with the
 * device's text ("Failure [INSTALL_FAILED_...]") in the message; forcing
 * STREAM on a device without `cmd` is JG_EDEVICE.
 */
int adb_install(struct adb_device *dev, const char *apk,
    const struct adb_install_opts *opts);

/*
 * Install the base APK apks[0] and its splits apks[1..nr) as one package,
 * through a package-manager session (install-create, one install-write
 * per file, install-commit; install-abandon after a failure).  `opts` as
 * for adb_install().  A refusal is JG_EGENERIC with the package manager's
 * words in the message.
 */
int adb_install_multiple(struct adb_device *dev, const char *const *apks,
    size_t nr, const struct adb_install_opts *opts);

/*
 * Uninstall `package` (`pm uninstall`, data and all).  Returns 0;
 * JG_ENOTFOUND when it was not installed; JG_EGENERIC with the package
 * manager's words when it refused.
 */
int adb_uninstall(struct adb_device *dev, const char *package);

#endif
