/*
 * bisect_builds.c: the builds a bisect walks, and making one (bisect.h).
 *
 * A manifest lists one build a line, oldest first:
 *
 *	# commit        APK
 *	1a2b3c4d        builds/app-1a2b3c4d.apk
 *	5e6f7a8b        builds/app-5e6f7a8b.apk
 *
 * its paths relative to the manifest's directory.  An APK that starts with
 * http://, https:// or file:// is a URL instead, downloaded (fetch.h) only
 * when a step needs the build, to DIR/builds/ID.apk in the bisect's
 * output directory, where a later --resume finds it; a failed download is
 * tried once more, then the build is untestable like a failed build.
 * A directory is read as
 * the same list, its *.apk files in version order (app-9.apk before
 * app-10.apk), each named by its file name less ".apk".  A repository's
 * list is its first-parent GOOD..BAD (commit_range.h), built on demand
 * by the --build command: run by /bin/sh in the repository, {commit}
 * replaced by the commit id (hex digits: nothing the shell would read as
 * code) and the id also its first argument, $1; its stdout's last line
 * the APK.  A build that fails is tried once more,
 * then left to the caller to mark untestable, as `git bisect skip` does.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "commit_range.h"
#include "error.h"
#include "fetch.h"
#include "fileio.h"
#include "proc.h"
#include "strbuf.h"
#include "textline.h"
#include "xalloc.h"
#include "banned.h"

/* Keep builds good..bad of st's list; both NULL: all of it. */
static int
cut(struct bisect_state *st, const char *good, const char *bad,
    const char *where)
{
	long g = good ? bisect_state_find(st, good) : 0;
	long b = bad ? bisect_state_find(st, bad) : (long)st->nr - 1;
	size_t n;

	if (g < 0 || b < 0)
		return jg_error_set(JG_EINVAL, "%s lists no build '%s' (or "
		    "more than one starting so)", where, g < 0 ? good : bad);
	if (b <= g)
		return jg_error_set(JG_EINVAL, "%s lists the bad build '%s' "
		    "before the good one '%s': oldest first", where,
		    st->commits[b].id, st->commits[g].id);
	/* Free what lies outside, then slide good..bad down. */
	for (size_t i = 0; i < st->nr; i++)
		if (i < (size_t)g || i > (size_t)b) {
			free(st->commits[i].id);
			free(st->commits[i].apk);
			free(st->commits[i].subject);
			free(st->commits[i].author);
			free(st->commits[i].why);
		}
	n = (size_t)(b - g + 1);
	memmove(st->commits, st->commits + g, n * sizeof(*st->commits));
	st->nr = n;
	return 0;
}

/* Is `id` listed already, exactly? */
static bool
listed(const struct bisect_state *st, const char *id)
{
	for (size_t i = 0; i < st->nr; i++)
		if (!strcmp(st->commits[i].id, id))
			return true;
	return false;
}

int
bisect_list_manifest(struct bisect_state *st, const char *path,
    const char *good, const char *bad)
{
	struct strbuf sb = STRBUF_INIT;
	char *copy = xstrdup(path), *dir = dirname(copy);
	const char *pos, *end;
	struct text_line l;
	int rc, line = 0;

	if ((rc = file_read(&sb, path)))
		goto out;
	pos = sb.buf;
	end = sb.buf + sb.len;
	while (text_next_line(&pos, end, &l)) {
		char *text = xstrndup(l.s, l.n), *id, *apk, *more, *save;
		char *full;

		line++;
		id = strtok_r(text, " \t", &save);
		apk = id ? strtok_r(NULL, " \t", &save) : NULL;
		more = apk ? strtok_r(NULL, " \t", &save) : NULL;
		if (!id || *id == '#') {
			free(text);
			continue;
		}
		if (!apk || more) {
			rc = jg_error_set(JG_EINVAL, "%s:%d: expected 'ID APK' "
			    "(two words)", path, line);
			free(text);
			goto out;
		}
		if (listed(st, id)) {
			rc = jg_error_set(JG_EINVAL, "%s:%d: '%s' is listed "
			    "twice", path, line, id);
			free(text);
			goto out;
		}
		full = *apk == '/' || fetch_is_url(apk) ? xstrdup(apk) :
		    xasprintf("%s/%s", dir, apk);
		bisect_state_add(st, id, full);
		free(full);
		free(text);
	}
	if (st->nr < 2) {
		rc = jg_error_set(JG_EINVAL, "%s: a bisect needs at least two "
		    "builds", path);
		goto out;
	}
	rc = cut(st, good, bad, path);
	st->source = xasprintf("manifest %s", path);
out:
	strbuf_release(&sb);
	free(copy);
	return rc;
}

static int
by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int
bisect_list_dir(struct bisect_state *st, const char *dir, const char *good,
    const char *bad)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strlist names = STRLIST_INIT;
	int rc;

	if (!d)
		return jg_error_errno(JG_ENOTFOUND, errno, "cannot open '%s'",
		    dir);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 4 && !strcmp(de->d_name + n - 4, ".apk"))
			strlist_add(&names, de->d_name);
	}
	closedir(d);
	qsort(names.items, names.nr, sizeof(*names.items), by_version);
	for (size_t i = 0; i < names.nr; i++) {
		char *id = xstrndup(names.items[i], strlen(names.items[i]) -
		    4);
		char *apk = xasprintf("%s/%s", dir, names.items[i]);

		bisect_state_add(st, id, apk);
		free(id);
		free(apk);
	}
	strlist_release(&names);
	if (st->nr < 2)
		return jg_error_set(JG_EINVAL, "'%s' holds %zu APK%s: a bisect "
		    "needs at least two", dir, st->nr, st->nr == 1 ? "" : "s");
	rc = cut(st, good, bad, dir);
	st->source = xasprintf("directory %s", dir);
	return rc;
}

int
bisect_list_repo(struct bisect_state *st, const char *repo,
    const char *range)
{
	struct range_commit *c = NULL;
	size_t nr = 0;
	int rc = range_commits_read(&c, &nr, repo, range);

	if (rc)
		return rc;
	for (size_t i = 0; i < nr; i++) {
		struct bisect_commit *b = bisect_state_add(st, c[i].id, NULL);

		b->subject = xstrdup(c[i].subject);
		b->author = xstrdup(c[i].author);
	}
	range_commits_free(c, nr);
	st->repo = xstrdup(repo);
	st->source = xasprintf("repository %s, first-parent %s", repo,
	    range);
	return 0;
}

/*
 * The command's text with each {commit} made the id, which works inside
 * the user's quotes too; an id with anything but letters, digits, '.',
 * '_' and '-' (never a git commit id) is made "$1" instead, so no id
 * is ever read by the shell as code.
 */
static char *
script_of(const char *tmpl, const char *id)
{
	struct strbuf sb = STRBUF_INIT;
	bool plain = *id && strspn(id, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(id) &&
	    *id != '-';

	for (const char *p = tmpl; *p;)
		if (!strncmp(p, "{commit}", 8)) {
			strbuf_addstr(&sb, plain ? id : "\"$1\"");
			p += 8;
		} else
			strbuf_addch(&sb, *p++);
	return strbuf_detach(&sb, NULL);
}

/* One run of the build command; the APK's path in *apk, else why. */
static int
build_once(const struct bisect_state *st, const char *id, char **apk,
    struct strbuf *why)
{
	char *script = script_of(st->build_cmd, id), cwd[PATH_MAX];
	const char *argv[] = { "/bin/sh", "-c", script, "jankgate-build", id,
		NULL };
	const char *dir = st->repo ? st->repo : ".";
	struct proc_opts po = { 0 };
	struct proc_result res;
	const char *pos, *end;
	struct text_line l, last = { NULL, 0 };
	int rc = -1;

	po.dir = st->repo;
	proc_result_init(&res);
	strbuf_release(why);
	if ((rc = proc_run(&res, argv, &po))) {
		strbuf_addstr(why, jg_error_msg());
		jg_error_clear();
		/* Stopped by a cancel: the build is not at fault. */
		rc = rc == JG_EINTR ? JG_EINTR : -1;
		goto out;
	}
	rc = -1;
	if (res.exit_code) {
		strbuf_addf(why, "the build command %s %d", res.signal ?
		    "was killed by signal" : "exited with", res.signal ?
		    res.signal : res.exit_code);
		strbuf_rtrim(&res.err);
		if (res.err.len) {
			const char *tail = strrchr(res.err.buf, '\n');

			strbuf_addf(why, ": %s", tail ? tail + 1 :
			    res.err.buf);
		}
		goto out;
	}
	pos = res.out.buf;
	end = res.out.buf + res.out.len;
	while (text_next_line(&pos, end, &l))
		if (l.n)
			last = l;
	if (!last.n) {
		strbuf_addstr(why, "the build command printed no APK path");
		goto out;
	}
	*apk = xstrndup(last.s, last.n);
	if (**apk != '/') {
		char *rel = *apk;

		if (*dir != '/' && getcwd(cwd, sizeof(cwd)))
			*apk = xasprintf("%s/%s/%s", cwd, dir, rel);
		else
			*apk = xasprintf("%s/%s", dir, rel);
		free(rel);
	}
	if (access(*apk, R_OK)) {
		strbuf_addf(why, "the build command printed '%s', which is "
		    "not a readable file", *apk);
		free(*apk);
		*apk = NULL;
		goto out;
	}
	rc = 0;
out:
	proc_result_release(&res);
	free(script);
	return rc;
}

/*
 * Build i's URL downloaded to dir/builds/ID.apk, or found there from an
 * earlier run (a download lands complete or not at all); the id made safe
 * as a file name.  0 with c->apk the file, 1 with the reason in c->why,
 * or JG_EINTR.
 */
static int
download(struct bisect_commit *c, const char *dir)
{
	struct strbuf name = STRBUF_INIT;
	char *bdir, *path;
	int rc = 0;

	for (const char *p = c->id; *p; p++)
		strbuf_addch(&name, strchr("/\\", *p) || (p == c->id &&
		    *p == '.') ? '_' : *p);
	bdir = xasprintf("%s/builds", dir ? dir : ".");
	path = xasprintf("%s/%s.apk", bdir, name.buf);
	if (access(path, R_OK)) {
		/* Tried twice: a download fails for flakes too. */
		if (file_mkdirs(bdir, 0755))
			rc = -1;
		else
			for (int attempt = 0; attempt < 2; attempt++)
				if (!(rc = fetch_file(c->apk, path,
				    BISECT_FETCH_TIMEOUT)) || rc == JG_EINTR)
					break;
		if (rc && rc != JG_EINTR) {
			free(c->why);
			c->why = xasprintf("%s (twice)", jg_error_msg());
			rc = 1;
		}
		jg_error_clear();
	}
	if (!rc) {
		free(c->apk);
		c->apk = path;
		path = NULL;
	}
	free(path);
	free(bdir);
	strbuf_release(&name);
	return rc;
}

int
bisect_build(struct bisect_state *st, size_t i, const char *dir)
{
	struct bisect_commit *c = &st->commits[i];
	struct strbuf why = STRBUF_INIT;
	char *apk = NULL;

	if (fetch_is_url(c->apk))
		return download(c, dir);
	if (c->apk && !access(c->apk, R_OK))
		return 0;
	if (!st->build_cmd) {
		free(c->why);
		c->why = c->apk ? xasprintf("no readable APK at %s", c->apk) :
		    xstrdup("no APK listed");
		return 1;
	}
	/* A failed build is tried once more: builds fail for flakes too. */
	for (int attempt = 0; attempt < 2 && !apk; attempt++)
		if (build_once(st, c->id, &apk, &why) == JG_EINTR) {
			strbuf_release(&why);
			return JG_EINTR;
		}
	if (!apk) {
		free(c->why);
		c->why = xasprintf("%s (twice)", why.buf);
		strbuf_release(&why);
		return 1;
	}
	free(c->apk);
	c->apk = apk;
	strbuf_release(&why);
	return 0;
}

int
bisect_state_from(struct bisect_state **out, const struct bisect_source *src)
{
	struct bisect_state *st = bisect_state_new();
	char *range = NULL;
	int rc;

	*out = NULL;
	if (src->manifest)
		rc = bisect_list_manifest(st, src->manifest, src->good,
		    src->bad);
	else if (src->builds)
		rc = bisect_list_dir(st, src->builds, src->good, src->bad);
	else {
		range = src->range ? xstrdup(src->range) : xasprintf("%s..%s",
		    src->good, src->bad);
		rc = bisect_list_repo(st, src->repo, range);
		st->build_cmd = xstrdup(src->build);
	}
	free(range);
	if (rc) {
		bisect_state_free(st);
		return rc;
	}
	st->commits[0].mark = BISECT_GOOD;
	*out = st;
	return 0;
}
