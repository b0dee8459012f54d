/*
 * baseline_git_open.c: opening the store over libgit2 (baseline_store.h).
 *
 * A local path or file:// URL is used in place (created bare when asked).
 * The cache of a network repository is a bare repository whose branches,
 * tags and key refs mirror the remote's (forced, pruned fetch), one per
 * URL, named after the URL's last component and a hash of the URL without
 * userinfo.  A new cache is partial until something needs the branch: it
 * holds only the key refs compare read (baseline_git_net.c).  A lock file
 * next to it serialises the jankgate processes of one machine while they
 * fetch, commit and push.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline_git_int.h"
#include "baseline_store.h"
#include "error.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

static int
is_empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

static int
init_bare(struct baseline_store *bs, const char *path)
{
	if (file_mkdirs(path, 0777) < 0)
		return jg_error_code();
	if (git_repository_init(&bs->repo, path, 1) < 0)
		return fail_git(bs, JG_EIO, "cannot create a repository in "
		    "'%s'", path);
	return bgit_guard_objects(bs);
}

static int
open_local(struct baseline_store *bs, const char *path, int create)
{
	struct stat st;
	int err;

	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return jg_error_errno(JG_EIO, errno, "cannot open "
			    "baseline repository '%s'", path);
		if (!create)
			return fail(bs, JG_ENOTFOUND, "baseline repository "
			    "'%s' does not exist (check baseline.repo; to "
			    "start one there, run 'git init --bare %s')", path,
			    path);
		return init_bare(bs, path);
	}
	err = git_repository_open_ext(&bs->repo, path,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (err == GIT_ENOTFOUND && create && S_ISDIR(st.st_mode) &&
	    is_empty_dir(path)) {
		git_error_clear();
		return init_bare(bs, path);
	}
	if (err == GIT_ENOTFOUND)
		return fail(bs, JG_ENOTFOUND, "'%s' is not a git repository "
		    "(check baseline.repo)", path);
	if (err < 0)
		return fail_git(bs, JG_EIO, "cannot open baseline repository "
		    "'%s'", path);
	if ((err = bgit_guard_files(bs)) < 0)
		return err;
	return bgit_guard_objects(bs);
}

/* The cache directory's default: $XDG_CACHE_HOME/jankgate. */
static char *
default_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (xdg && *xdg == '/')
		return xasprintf("%s/jankgate", xdg);
	if (home && *home)
		return xasprintf("%s/.cache/jankgate", home);
	return NULL;
}

/*
 * "<cache>/<last component>-<hash>" for `url` (already scrubbed, so two
 * users of one repository share a cache and no secret reaches a path).
 */
static char *
cache_stem(const char *cache_dir, const char *url)
{
	struct strbuf name = STRBUF_INIT;
	const char *end = url + strlen(url), *start;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;
	char *stem;

	while (end > url && end[-1] == '/')
		end--;
	if (end - url > 4 && !strncmp(end - 4, ".git", 4))
		end -= 4;
	for (start = end; start > url && !strchr("/:", start[-1]); start--)
		;
	for (const char *p = start; p < end && name.len < 40; p++)
		strbuf_addch(&name, isalnum((unsigned char)*p) ||
		    strchr("._-", *p) ? *p : '_');
	if (!name.len || name.buf[0] == '.')
		strbuf_addstr(&name, "repo");
	git_odb_hash(&oid, url, strlen(url), GIT_OBJECT_BLOB);
	git_oid_tostr(hex, sizeof(hex), &oid);
	stem = xasprintf("%s/%s-%.12s", cache_dir, name.buf, hex);
	strbuf_release(&name);
	return stem;
}

static int
open_remote(struct baseline_store *bs, const char *cache_dir)
{
	char *dflt = cache_dir ? NULL : default_cache_dir();
	char *stem = NULL, *path = NULL;
	int err;

	if (!cache_dir && !dflt)
		return fail(bs, JG_EINVAL, "no cache directory for '%s': set "
		    "baseline.cache_dir", bs->name);
	stem = cache_stem(cache_dir ? cache_dir : dflt, bs->name);
	path = xasprintf("%s.git", stem);
	bs->lock_path = xasprintf("%s.lock", stem);
	if (bs->offline && !file_exists(path)) {
		err = fail(bs, JG_ENOTFOUND, "no cached copy of '%s' in '%s'",
		    bs->name, path);
		goto out;
	}
	if ((err = file_mkdirs(cache_dir ? cache_dir : dflt, 0777)) < 0 ||
	    (err = bgit_cache_lock(bs)) < 0)
		goto out;
	if (git_repository_open_ext(&bs->repo, path,
	    GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_BARE,
	    NULL) < 0) {
		/* Missing or broken: a cache can always be made again. */
		git_error_clear();
		if ((err = file_remove_tree(path)) < 0 ||
		    (err = init_bare(bs, path)) < 0 ||
		    (err = bgit_set_partial(bs, 1)) < 0)
			goto out;
	} else if ((err = bgit_guard_files(bs)) < 0 ||
	    (err = bgit_guard_objects(bs)) < 0) {
		goto out;
	}
	/*
	 * A new cache starts partial: it fetches the key refs compare reads,
	 * and the whole store only when something needs the branch
	 * (bgit_fetch_whole()).  Until then, opening it only connects, so
	 * that a wrong URL, token or host key fails here as a fetch would.
	 */
	bs->partial = bgit_is_partial(bs);
	if (!bs->offline)
		err = bs->partial ? bgit_probe(bs) : bgit_fetch(bs);
out:
	bgit_cache_unlock(bs);
	free(path);
	free(stem);
	free(dflt);
	return err;
}

static char *
xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int
baseline_store_open(struct baseline_store **out,
    const struct baseline_store_opts *o)
{
	struct baseline_store *bs;
	struct strbuf name = STRBUF_INIT;
	const char *token;
	int err;

	*out = NULL;
	if (!o->repo || !*o->repo)
		return jg_error_set(JG_EINVAL, "no baseline repository: set "
		    "baseline.repo");
	git_libgit2_init();
	bs = xcalloc(1, sizeof(*bs));
	bs->lock_fd = -1;
	token = o->token_env ? getenv(o->token_env) : NULL;
	bs->token = token && *token ? xstrdup(token) : NULL;
	baseline_scrub(&name, o->repo, bs->token);
	bs->name = strbuf_detach(&name, NULL);
	bs->ssh_key = xstrdup_or_null(o->ssh_key);
	bs->known_hosts = xstrdup_or_null(o->known_hosts);
	bs->token_env = xstrdup_or_null(o->token_env);
	bs->token_user = xstrdup_or_null(o->token_user);
	bs->author_name = xstrdup(o->author_name ? o->author_name :
	    "jankgate");
	bs->author_email = xstrdup(o->author_email ? o->author_email :
	    "jankgate@localhost");
	bs->push_retries = o->push_retries > 0 ? o->push_retries : 0;
	bs->offline = o->offline;

	if (baseline_is_network_url(o->repo)) {
		bs->url = xstrdup(o->repo);
		err = open_remote(bs, o->cache_dir);
	} else if (!strncmp(o->repo, "file://", 7) && o->repo[7] != '/') {
		err = fail(bs, JG_EINVAL, "file URL '%s' names a host; use "
		    "file:///path", bs->name);
	} else {
		err = open_local(bs, !strncmp(o->repo, "file://", 7) ?
		    o->repo + 7 : o->repo, o->create);
	}
	if (err < 0) {
		baseline_store_free(bs);
		return err;
	}
	*out = bs;
	return 0;
}

void
baseline_store_free(struct baseline_store *bs)
{
	if (!bs)
		return;
	bgit_cache_unlock(bs);
	git_repository_free(bs->repo);
	if (bs->token) {
		explicit_bzero(bs->token, strlen(bs->token));
		free(bs->token);
	}
	free(bs->name);
	free(bs->url);
	free(bs->lock_path);
	free(bs->ssh_key);
	free(bs->known_hosts);
	free(bs->token_env);
	free(bs->token_user);
	free(bs->author_name);
	free(bs->author_email);
	free(bs->hook);
	free(bs->pack_error);
	free(bs->key_error);
	free(bs);
	git_libgit2_shutdown();
}

const char *
baseline_store_name(const struct baseline_store *bs)
{
	return bs->name;
}

int
baseline_store_attempts(const struct baseline_store *bs)
{
	return bs->attempts;
}

const char *
baseline_store_key_error(const struct baseline_store *bs)
{
	return bs->key_error;
}


