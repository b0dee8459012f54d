/*
 * adb_install.c: installing an APK, by the two routes adb 29 uses.
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

static int
install_stream(struct adb_device *dev, const char *apk,
    const char *const *args, struct strbuf *text)
{
	struct strbuf cmd = STRBUF_INIT;
	struct adb_conn c = { -1, 0 };
	struct stat st;
	char *buf = NULL;
	int fd, rc;

	fd = open(apk, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = jg_error_errno(errno == ENOENT ? JG_ENOTFOUND : JG_EIO,
		    errno, "cannot open '%s'", apk);
		goto out;
	}
	strbuf_addstr(&cmd, "exec:cmd package install");
	add_args(&cmd, args);
	strbuf_addf(&cmd, " -S %lld", (long long)st.st_size);
	rc = adb_conn_open_device(&c, dev, cmd.buf);
	if (rc) {
		adb_device_error(dev, cmd.buf + 5);
		goto out;
	}
	buf = xmalloc(CHUNK);
	while (!rc) {
		ssize_t n = read(fd, buf, CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = jg_error_errno(JG_EIO, errno, "cannot read '%s'",
			    apk);
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
		adb_device_error(dev, cmd.buf + 5);
out:
	if (fd >= 0)
		close(fd);
	adb_conn_close(&c);
	strbuf_release(&cmd);
	free(buf);
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
