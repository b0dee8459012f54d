/*
 * adb_install.c: installing an APK, by the two routes adb 29 uses; a base
 * and its splits as one package-manager session; uninstalling.
 *
 * PUSH (every device): sync the APK to /data/local/tmp/NAME, run
 *	pm install -r [ARGS] '/data/local/tmp/NAME'
 * through the shell, then `rm -f` it whatever happened.
 *
 * STREAM (devices with the `cmd` feature, Android 7+): open
 *	exec:cmd package install -r [ARGS] -S SIZE
 * write exactly SIZE bytes of APK on the stream, then read the verdict
 * until the device closes.
 *
 * Either way the package manager answers with text, not a status:
 * "Success", or "Failure [INSTALL_FAILED_...]" (older releases print it on
 * stdout, newer on stderr), and that text is the error message.  The final
 * answer can take long (dexopt of a big APK), so the wait for it is at
 * least INSTALL_WAIT_MS whatever the device's read timeout.
 *
 * SESSION (several APKs, as `adb install-multiple`): the package manager
 * stages every file and commits them as one package:
 *
 *	pm install-create -r [ARGS] -S TOTAL
 *		Success: created install session [1234]
 *	pm install-write -S SIZE 1234 N_NAME.apk -|PATH     per APK
 *		Success: streamed SIZE bytes
 *	pm install-commit 1234
 *		Success | Failure [INSTALL_FAILED_...: ...]
 *	pm install-abandon 1234                            after a failure
 *
 * With `cmd` each step is exec:cmd package ..., install-write streaming
 * the file from stdin ("-"); without it the files are pushed to
 * /data/local/tmp first and written from there through the shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adb.h"
#include "adb_conn.h"
#include "adb_sync.h"
#include "error.h"
#include "shquote.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

#define INSTALL_WAIT_MS 180000
#define CHUNK 65536
#define VERDICT_MAX 65536

/*
 * 0 when `text` has a line starting with "Success", else JG_EGENERIC with
 * the "Failure [...]" part, or the first line, as the message.
 */
static int
verdict(const char *text)
{
	const char *p;
	int len;

	for (p = text; *p; p += strcspn(p, "\n"), p += *p == '\n')
		if (!strncmp(p, "Success", 7))
			return 0;
	p = strstr(text, "Failure");
	if (!p)
		for (p = text; *p == '\n' || *p == '\r'; p++)
			;
	len = (int)strcspn(p, "\r\n");
	return jg_error_set(JG_EGENERIC, "%.*s", len, len ? p :
	    "the package manager gave no answer");
}

/* "-r" plus the caller's options, each quoted. */
static void
add_args(struct strbuf *cmd, const char *const *args)
{
	strbuf_addstr(cmd, " -r");
	for (; args && *args; args++) {
		strbuf_addch(cmd, ' ');
		sh_quote(cmd, *args);
	}
}

static int
install_push(struct adb_device *dev, const char *apk, const char *const *args,
    struct strbuf *text)
{
	struct adb_shell_result res;
	struct strbuf cmd = STRBUF_INIT, rm = STRBUF_INIT;
	const char *base = strrchr(apk, '/');
	char *remote = xasprintf("/data/local/tmp/%s", base ? base + 1 : apk);
	char *saved = NULL;
	int timeout = adb_device_timeout(dev), rc;

	adb_shell_result_init(&res);
	rc = adb_push(dev, apk, remote, 0644);
	if (rc)
		goto out;
	strbuf_addstr(&cmd, "pm install");
	add_args(&cmd, args);
	strbuf_addch(&cmd, ' ');
	sh_quote(&cmd, remote);
	if (timeout < INSTALL_WAIT_MS)
		adb_device_set_timeout(dev, INSTALL_WAIT_MS);
	rc = adb_shell(dev, cmd.buf, &res);
	adb_device_set_timeout(dev, timeout);
	if (rc)
		saved = xstrdup(jg_error_msg());
	strbuf_add(text, res.out.buf, res.out.len);
	strbuf_add(text, res.err.buf, res.err.len);

	/* Clean up even after a failure; its own error matters less. */
	strbuf_addstr(&rm, "rm -f ");
	sh_quote(&rm, remote);
	strbuf_reset(&res.out);
	strbuf_reset(&res.err);
	adb_shell(dev, rm.buf, &res);
	if (saved)
		jg_error_set(rc, "%s", saved);
out:
	adb_shell_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&rm);
	free(remote);
	free(saved);
	return rc;
}

/*
 * Open `svc` on the device, write the file `path` to it, and collect what
 * comes back until the device closes: the package manager's verdict.
 */
static int
stream_file(struct adb_device *dev, const char *svc, const char *path,
    struct strbuf *text)
{
	struct adb_conn c = { -1, 0 };
	char *buf = NULL;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return jg_error_errno(errno == ENOENT ? JG_ENOTFOUND : JG_EIO,
		    errno, "cannot open '%s'", path);
	rc = adb_conn_open_device(&c, dev, svc);
	if (rc) {
		adb_device_error(dev, svc + 5);
		goto out;
	}
	buf = xmalloc(CHUNK);
	while (!rc) {
		ssize_t n = read(fd, buf, CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = jg_error_errno(JG_EIO, errno, "cannot read '%s'",
			    path);
		if (n <= 0)
			break;
		/* The device may refuse early; collect what it says. */
		rc = adb_conn_write_collect(&c, buf, (size_t)n, text);
	}
	if (c.timeout_ms < INSTALL_WAIT_MS)
		c.timeout_ms = INSTALL_WAIT_MS;
	if (!rc)
		rc = adb_conn_read_to_eof(&c, text, VERDICT_MAX);
	else if (rc == JG_ECLOSED && strstr(text->buf, "Failure"))
		rc = 0;		/* the verdict explains the close */
	if (rc)
		adb_device_error(dev, svc + 5);
out:
	close(fd);
	adb_conn_close(&c);
	free(buf);
	return rc;
}

/* The size of the file at `path`, or a negative code. */
static int
file_size(const char *path, long long *size)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return jg_error_errno(errno == ENOENT ? JG_ENOTFOUND : JG_EIO,
		    errno, "cannot open '%s'", path);
	*size = (long long)st.st_size;
	return 0;
}

static int
install_stream(struct adb_device *dev, const char *apk,
    const char *const *args, struct strbuf *text)
{
	struct strbuf cmd = STRBUF_INIT;
	long long size;
	int rc;

	if ((rc = file_size(apk, &size)))
		return rc;
	strbuf_addstr(&cmd, "exec:cmd package install");
	add_args(&cmd, args);
	strbuf_addf(&cmd, " -S %lld", size);
	rc = stream_file(dev, cmd.buf, apk, text);
	strbuf_release(&cmd);
	return rc;
}

int
adb_install(struct adb_device *dev, const char *apk,
    const struct adb_install_opts *opts)
{
	enum adb_install_route route = opts ? opts->route : ADB_INSTALL_AUTO;
	const char *const *args = opts ? opts->args : NULL;
	struct strbuf text = STRBUF_INIT;
	char *what = xasprintf("install %s", apk);
	int has_cmd, rc;

	has_cmd = adb_device_has_feature(dev, "cmd");
	if (has_cmd < 0) {
		rc = has_cmd;
		goto out;
	}
	if (route == ADB_INSTALL_AUTO)
		route = has_cmd ? ADB_INSTALL_STREAM : ADB_INSTALL_PUSH;
	if (route == ADB_INSTALL_STREAM && !has_cmd) {
		rc = jg_error_set(JG_EDEVICE, "streamed install needs the "
		    "device feature 'cmd' (Android 7 or later)");
		adb_device_error(dev, what);
		goto out;
	}
	/* Errors of the steps name their own device and command. */
	rc = route == ADB_INSTALL_STREAM ?
	    install_stream(dev, apk, args, &text) :
	    install_push(dev, apk, args, &text);
	if (!rc && (rc = verdict(text.buf)))
		adb_device_error(dev, what);
out:
	strbuf_release(&text);
	free(what);
	return rc;
}

/* ---- sessions: a base and its splits as one package ------------------ */

/* One package-manager command: exec:cmd package (STREAM) or pm (PUSH). */
static int
pm_command(struct adb_device *dev, enum adb_install_route route,
    const char *cmd, struct strbuf *text)
{
	struct adb_shell_result res;
	char *full;
	int timeout = adb_device_timeout(dev), rc;

	if (timeout < INSTALL_WAIT_MS)
		adb_device_set_timeout(dev, INSTALL_WAIT_MS);
	if (route == ADB_INSTALL_STREAM) {
		full = xasprintf("cmd package %s", cmd);
		rc = adb_exec(dev, full, NULL, 0, text);
	} else {
		full = xasprintf("pm %s", cmd);
		adb_shell_result_init(&res);
		rc = adb_shell(dev, full, &res);
		strbuf_add(text, res.out.buf, res.out.len);
		strbuf_add(text, res.err.buf, res.err.len);
		adb_shell_result_release(&res);
	}
	adb_device_set_timeout(dev, timeout);
	free(full);
	return rc;
}

/* "Success: created install session [1234]" -> 1234. */
static int
session_id(const char *text, long *id)
{
	const char *p = strstr(text, "install session [");
	char *end;
	int rc;

	if ((rc = verdict(text)))
		return rc;
	if (!p)
		return jg_error_set(JG_EPROTO, "no session id in the package "
		    "manager's answer '%.*s'", (int)strcspn(text, "\r\n"),
		    text);
	p += strlen("install session [");
	*id = strtol(p, &end, 10);
	if (end == p || *end != ']' || *id < 0)
		return jg_error_set(JG_EPROTO, "no session id in the package "
		    "manager's answer '%.*s'", (int)strcspn(text, "\r\n"),
		    text);
	return 0;
}

/* The name a file is staged under: "N_base.apk", unique in the session. */
static char *
staged_name(size_t i, const char *path)
{
	const char *base = strrchr(path, '/');

	return xasprintf("%zu_%s", i, base ? base + 1 : path);
}

/* Stage APK `i` (`path`) into session `id`. */
static int
session_write(struct adb_device *dev, enum adb_install_route route, long id,
    size_t i, const char *path, struct strlist *pushed, struct strbuf *text)
{
	struct strbuf cmd = STRBUF_INIT;
	char *name = staged_name(i, path), *remote = NULL;
	long long size;
	int rc;

	if ((rc = file_size(path, &size)))
		goto out;
	if (route == ADB_INSTALL_STREAM) {
		strbuf_addf(&cmd, "exec:cmd package install-write -S %lld %ld ",
		    size, id);
		sh_quote(&cmd, name);
		strbuf_addstr(&cmd, " -");
		rc = stream_file(dev, cmd.buf, path, text);
	} else {
		remote = xasprintf("/data/local/tmp/%s", name);
		if ((rc = adb_push(dev, path, remote, 0644)))
			goto out;
		strlist_add(pushed, remote);
		strbuf_addf(&cmd, "install-write -S %lld %ld ", size, id);
		sh_quote(&cmd, name);
		strbuf_addch(&cmd, ' ');
		sh_quote(&cmd, remote);
		rc = pm_command(dev, route, cmd.buf, text);
	}
	if (!rc)
		rc = verdict(text->buf);
out:
	strbuf_release(&cmd);
	free(name);
	free(remote);
	return rc;
}

int
adb_install_multiple(struct adb_device *dev, const char *const *apks,
    size_t nr, const struct adb_install_opts *opts)
{
	enum adb_install_route route = opts ? opts->route : ADB_INSTALL_AUTO;
	const char *const *args = opts ? opts->args : NULL;
	struct strbuf cmd = STRBUF_INIT, text = STRBUF_INIT;
	struct strlist pushed = STRLIST_INIT;
	char *what = xasprintf("install-multiple %s", nr ? apks[0] : "");
	long long total = 0, size;
	long id = -1;
	int has_cmd, rc;

	has_cmd = adb_device_has_feature(dev, "cmd");
	if ((rc = has_cmd < 0 ? has_cmd : 0))
		goto out;
	if (route == ADB_INSTALL_AUTO)
		route = has_cmd ? ADB_INSTALL_STREAM : ADB_INSTALL_PUSH;
	if (route == ADB_INSTALL_STREAM && !has_cmd) {
		rc = jg_error_set(JG_EDEVICE, "streamed install needs the "
		    "device feature 'cmd' (Android 7 or later)");
		adb_device_error(dev, what);
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		if ((rc = file_size(apks[i], &size)))
			goto out;
		total += size;
	}
	strbuf_addstr(&cmd, "install-create");
	add_args(&cmd, args);
	strbuf_addf(&cmd, " -S %lld", total);
	if ((rc = pm_command(dev, route, cmd.buf, &text)) ||
	    (rc = session_id(text.buf, &id))) {
		if (rc == JG_EGENERIC)
			adb_device_error(dev, what);
		goto out;
	}
	for (size_t i = 0; i < nr && !rc; i++) {
		strbuf_reset(&text);
		rc = session_write(dev, route, id, i, apks[i], &pushed, &text);
	}
	if (!rc) {
		strbuf_reset(&cmd);
		strbuf_reset(&text);
		strbuf_addf(&cmd, "install-commit %ld", id);
		if (!(rc = pm_command(dev, route, cmd.buf, &text)) &&
		    (rc = verdict(text.buf)))
			adb_device_error(dev, what);
		id = -1;	/* committed or failed: nothing to abandon */
	} else if (rc == JG_EGENERIC) {
		adb_device_error(dev, what);
	}
out:
	if (id >= 0) {
		/* Its own failure matters less than the one being reported. */
		char *saved = xstrdup(jg_error_msg());

		strbuf_reset(&cmd);
		strbuf_reset(&text);
		strbuf_addf(&cmd, "install-abandon %ld", id);
		pm_command(dev, route, cmd.buf, &text);
		jg_error_set(rc, "%s", saved);
		free(saved);
	}
	for (size_t i = 0; i < pushed.nr; i++) {
		struct adb_shell_result res;
		struct strbuf rm = STRBUF_INIT;

		strbuf_addstr(&rm, "rm -f ");
		sh_quote(&rm, pushed.items[i]);
		adb_shell_result_init(&res);
		adb_shell(dev, rm.buf, &res);	/* best effort */
		adb_shell_result_release(&res);
		strbuf_release(&rm);
	}
	strlist_release(&pushed);
	strbuf_release(&cmd);
	strbuf_release(&text);
	free(what);
	return rc;
}

int
adb_uninstall(struct adb_device *dev, const char *package)
{
	struct adb_shell_result res;
	struct strbuf cmd = STRBUF_INIT, text = STRBUF_INIT;
	char *what = xasprintf("uninstall %s", package);
	int rc;

	strbuf_addstr(&cmd, "pm uninstall ");
	sh_quote(&cmd, package);
	adb_shell_result_init(&res);
	rc = adb_shell(dev, cmd.buf, &res);
	strbuf_add(&text, res.out.buf, res.out.len);
	strbuf_add(&text, res.err.buf, res.err.len);
	if (!rc && (rc = verdict(text.buf))) {
		/* "not installed" reads differently by release: ask pm. */
		strbuf_reset(&cmd);
		strbuf_addstr(&cmd, "pm path ");
		sh_quote(&cmd, package);
		adb_shell_result_release(&res);
		adb_shell_result_init(&res);
		if (!adb_shell(dev, cmd.buf, &res) &&
		    !strstr(res.out.buf, "package:")) {
			jg_error_clear();
			rc = JG_ENOTFOUND;
		} else {
			jg_error_set(JG_EGENERIC, "%.*s",
			    (int)strcspn(text.buf, "\r\n"), text.buf);
			adb_device_error(dev, what);
		}
	}
	adb_shell_result_release(&res);
	strbuf_release(&cmd);
	strbuf_release(&text);
	free(what);
	return rc;
}
