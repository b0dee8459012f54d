/*
 * cmd_pm.c: the package manager shell, `pm` (also reached as
 * `cmd package` and over abb_exec).
 *
 *   pm install [-r] [-t] [-g] [-d] [-S SIZE] [OPTIONS] [PATH]
 *   pm install-create [-r] [-d] [-S TOTAL] [OPTIONS]   (sessions.h)
 *   pm install-write [-S SIZE] SESSION NAME [PATH|-]
 *   pm install-commit SESSION
 *   pm install-abandon SESSION
 *   pm uninstall [-k] [--user N] PACKAGE
 *   pm list packages [-f] [-3] [-s] [FILTER]
 *   pm path PACKAGE
 *   pm clear PACKAGE                 (stops the app, empties its data)
 *   pm dump PACKAGE                  (dumpsys package PACKAGE)
 *
 * Outputs follow PackageManagerShellCommand: "Success" on stdout, or
 * "Failure [CODE: message]" on stdout with status 1.  `install -S SIZE`
 * reads exactly SIZE bytes of APK from stdin, which is how adb 29 streams
 * an install through `exec:cmd package install -S N` or abb_exec.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "apprun.h"
#include "commands.h"
#include "dumpsys.h"
#include "error.h"
#include "packages.h"
#include "sessions.h"
#include "simapps.h"
#include "simdev.h"
#include "simfs.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Install options that take a value, all of which are accepted and ignored. */
static const char *const valued_opts[] = {
	"-i", "-p", "--user", "--abi", "--install-location",
	"--install-reason", "--originating-uri", "--referrer", "--pkg",
	NULL,
};

static int
takes_value(const char *opt)
{
	size_t i;

	for (i = 0; valued_opts[i]; i++)
		if (!strcmp(opt, valued_opts[i]))
			return 1;
	return 0;
}

static int
read_stdin_apk(struct simcmd_ctx *ctx, const char *size, struct strbuf *apk)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(size, &end, 10);
	if (errno || end == size || *end || n < 0) {
		simio_printf(ctx->io, 2, "Error: invalid size '%s'\n", size);
		return -1;
	}
	strbuf_grow(apk, (size_t)n);
	if (simio_read_full(ctx->io, apk->buf, (size_t)n)) {
		simio_puts(ctx->io, 1, "Failure [INSTALL_FAILED_INVALID_APK: "
		    "short read of the streamed APK]\n");
		return -1;
	}
	strbuf_setlen(apk, (size_t)n);
	return 0;
}

static int
pm_install(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf apk = STRBUF_INIT, why = STRBUF_INIT;
	const char *size = NULL, *path = NULL;
	int i, flags = 0, status = 1, err;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-S") && i + 1 < argc)
			size = argv[++i];
		else if (!strcmp(argv[i], "-d"))
			flags |= PACKAGES_DOWNGRADE;
		else if (takes_value(argv[i]) && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-')
			path = argv[i];
	}
	if (size) {
		if (read_stdin_apk(ctx, size, &apk))
			goto out;
	} else if (path) {
		err = simfs_read(ctx->dev->fs, path, &apk);
		if (err) {
			simio_printf(ctx->io, 2, "Error: Can't open file: %s\n",
			    path);
			simio_puts(ctx->io, 2, "Consider using a file under "
			    "/data/local/tmp/\n");
			goto out;
		}
	} else {
		simio_puts(ctx->io, 2, "Error: must either specify a package "
		    "size or an APK file\n");
		goto out;
	}
	if (packages_install(ctx->dev, apk.buf, apk.len, flags, &why)) {
		simio_printf(ctx->io, 1, "Failure [%s]\n", why.buf);
		goto out;
	}
	simio_puts(ctx->io, 1, "Success\n");
	status = 0;
out:
	strbuf_release(&apk);
	strbuf_release(&why);
	return status;
}

/* What Android prints for a session id it does not know. */
static int
no_session(struct simcmd_ctx *ctx, const char *verb, const char *id)
{
	simio_printf(ctx->io, 2, "Exception occurred while executing "
	    "'%s':\njava.lang.SecurityException: Caller has no access to "
	    "session %s\n", verb, id);
	return 255;
}

/* A session id argument; -1 when it is not a number. */
static int
session_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || *end || v < 0 || v > 1000000000 ? -1 : (int)v;
}

static int
pm_install_create(struct simcmd_ctx *ctx, int argc, char **argv)
{
	int i, flags = 0;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-d"))
			flags |= PACKAGES_DOWNGRADE;
		else if ((!strcmp(argv[i], "-S") || takes_value(argv[i])) &&
		    i + 1 < argc)
			i++;
	}
	simio_printf(ctx->io, 1, "Success: created install session [%d]\n",
	    sessions_create(ctx->dev, flags));
	return 0;
}

static int
pm_install_write(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf apk = STRBUF_INIT;
	const char *size = NULL, *pos[3] = { NULL, NULL, NULL };
	int i, n = 0, status = 1, id;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-S") && i + 1 < argc)
			size = argv[++i];
		else if (n < 3)
			pos[n++] = argv[i];
	}
	if (n < 2) {
		simio_puts(ctx->io, 2, "Error: must specify a session id and "
		    "a split name\n");
		return 1;
	}
	if ((id = session_arg(pos[0])) < 0)
		return no_session(ctx, "install-write", pos[0]);
	if (!pos[2] || !strcmp(pos[2], "-")) {
		if (!size) {
			simio_puts(ctx->io, 2, "Error: must specify a size "
			    "when reading from stdin\n");
			goto out;
		}
		if (read_stdin_apk(ctx, size, &apk))
			goto out;
	} else if (simfs_read(ctx->dev->fs, pos[2], &apk)) {
		simio_printf(ctx->io, 2, "Error: Can't open file: %s\n",
		    pos[2]);
		goto out;
	}
	if (sessions_write(ctx->dev, id, pos[1], apk.buf, apk.len)) {
		status = no_session(ctx, "install-write", pos[0]);
		goto out;
	}
	simio_printf(ctx->io, 1, "Success: streamed %zu bytes\n", apk.len);
	status = 0;
out:
	strbuf_release(&apk);
	return status;
}

static int
pm_install_commit(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf why = STRBUF_INIT;
	int id = argc > 2 ? session_arg(argv[2]) : -1, status = 0;

	if (id < 0)
		return no_session(ctx, "install-commit", argc > 2 ? argv[2] :
		    "");
	if (!sessions_commit(ctx->dev, id, &why)) {
		simio_puts(ctx->io, 1, "Success\n");
	} else if (!strncmp(why.buf, "no session", 10)) {
		status = no_session(ctx, "install-commit", argv[2]);
	} else {
		simio_printf(ctx->io, 1, "Failure [%s]\n", why.buf);
		status = 1;
	}
	strbuf_release(&why);
	return status;
}

static int
pm_install_abandon(struct simcmd_ctx *ctx, int argc, char **argv)
{
	int id = argc > 2 ? session_arg(argv[2]) : -1;

	if (id < 0 || sessions_abandon(ctx->dev, id))
		return no_session(ctx, "install-abandon", argc > 2 ? argv[2] :
		    "");
	simio_puts(ctx->io, 1, "Success\n");
	return 0;
}

static int
pm_uninstall(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf why = STRBUF_INIT;
	const char *pkg = NULL;
	int i, status = 0;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--user") && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-')
			pkg = argv[i];
	}
	if (!pkg)
		return simcmd_error(ctx, 1, "Error", "package name not "
		    "specified");
	if (packages_uninstall(ctx->dev, pkg, &why)) {
		simio_printf(ctx->io, 1, "Failure [%s]\n", why.buf);
		status = 1;
	} else {
		simio_puts(ctx->io, 1, "Success\n");
	}
	strbuf_release(&why);
	return status;
}

struct listed {
	char *name, *path;
};

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct listed *)a)->name,
	    ((const struct listed *)b)->name);
}

static int
pm_list_packages(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	int i, paths = 0, only3 = 0, only_sys = 0, ret;
	const char *filter = NULL;
	struct listed *v;
	size_t n, k = 0;

	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-f"))
			paths = 1;
		else if (!strcmp(argv[i], "-3"))
			only3 = 1;
		else if (!strcmp(argv[i], "-s"))
			only_sys = 1;
		else if (!strcmp(argv[i], "--user") && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-')
			filter = argv[i];
	}
	simdev_lock(ctx->dev);
	v = xcalloc(ctx->dev->nr_pkgs + 1, sizeof(*v));
	for (n = 0; n < ctx->dev->nr_pkgs; n++) {
		const struct simpkg *p = &ctx->dev->pkgs[n];

		if ((only3 && p->system) || (only_sys && !p->system) ||
		    (filter && !strstr(p->name, filter)))
			continue;
		v[k].name = xstrdup(p->name);
		v[k++].path = xstrdup(p->apk_path);
	}
	simdev_unlock(ctx->dev);
	qsort(v, k, sizeof(*v), by_name);
	for (n = 0; n < k; n++) {
		if (paths)
			strbuf_addf(&out, "package:%s=%s\n", v[n].path,
			    v[n].name);
		else
			strbuf_addf(&out, "package:%s\n", v[n].name);
		free(v[n].name);
		free(v[n].path);
	}
	free(v);
	ret = simio_write(ctx->io, 1, out.buf, out.len) ? 1 : 0;
	strbuf_release(&out);
	return ret;
}

/* pm path PKG: "package:<apk>", or nothing and status 1. */
static int
pm_path(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct simpkg *p;
	char *path = NULL;

	if (argc < 3)
		return simcmd_error(ctx, 1, "Error", "no package specified");
	simdev_lock(ctx->dev);
	p = packages_find(ctx->dev, argv[argc - 1]);
	if (p)
		path = xstrdup(p->apk_path);
	simdev_unlock(ctx->dev);
	if (!path)
		return 1;
	simio_printf(ctx->io, 1, "package:%s\n", path);
	free(path);
	return 0;
}

/* pm clear PKG: empty the app's data directory. */
static int
pm_clear(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf dir = STRBUF_INIT;
	struct simpkg *p;
	unsigned int uid = 0;
	int found;

	if (argc < 3)
		return simcmd_error(ctx, 1, "Error", "no package specified");
	simdev_lock(ctx->dev);
	p = packages_find(ctx->dev, argv[argc - 1]);
	found = p && !p->system;
	if (found) {
		struct apprun *r;

		uid = p->uid;
		/* Clearing data force-stops the app first. */
		if (!simapps_get(ctx->dev->apps, p->name, &r))
			simapps_stop(ctx->dev->apps, r,
			    simdev_now_ns(ctx->dev));
		jg_error_clear();
	}
	simdev_unlock(ctx->dev);
	if (!found) {
		simio_puts(ctx->io, 1, "Failed\n");
		return 1;
	}
	strbuf_addf(&dir, "/data/data/%s", argv[argc - 1]);
	simfs_remove(ctx->dev->fs, dir.buf, 1);
	simfs_mkdir(ctx->dev->fs, dir.buf, 0700, 0);
	simfs_chown(ctx->dev->fs, dir.buf, uid, uid, 0);
	strbuf_release(&dir);
	simio_puts(ctx->io, 1, "Success\n");
	return 0;
}

int
cmd_pm(struct simcmd_ctx *ctx, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "";

	if (!strcmp(sub, "install"))
		return pm_install(ctx, argc, argv);
	if (!strcmp(sub, "install-create"))
		return pm_install_create(ctx, argc, argv);
	if (!strcmp(sub, "install-write"))
		return pm_install_write(ctx, argc, argv);
	if (!strcmp(sub, "install-commit"))
		return pm_install_commit(ctx, argc, argv);
	if (!strcmp(sub, "install-abandon"))
		return pm_install_abandon(ctx, argc, argv);
	if (!strcmp(sub, "uninstall"))
		return pm_uninstall(ctx, argc, argv);
	if (!strcmp(sub, "list") && argc > 2 && !strcmp(argv[2], "packages"))
		return pm_list_packages(ctx, argc, argv);
	if (!strcmp(sub, "path"))
		return pm_path(ctx, argc, argv);
	if (!strcmp(sub, "clear"))
		return pm_clear(ctx, argc, argv);
	if (!strcmp(sub, "dump") && argc > 2) {
		struct strbuf out = STRBUF_INIT;
		int status = dumpsys_package(ctx, &out, argc - 1, argv + 1);

		simio_write(ctx->io, 1, out.buf, out.len);
		strbuf_release(&out);
		return status;
	}
	if (!*sub) {
		simio_puts(ctx->io, 2, "usage: pm install|install-create|"
		    "install-write|install-commit|install-abandon|uninstall|"
		    "list packages|path|clear|dump ...\n");
		return 1;
	}
	simio_printf(ctx->io, 2, "Unknown command: %s\n", sub);
	return 1;
}
