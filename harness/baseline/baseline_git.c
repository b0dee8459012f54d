/*
 * baseline_git.c: the baseline store over libgit2 (see baseline_store.h).
 *
 * Reading walks the first-parent chain of a ref and looks the device's file
 * up in each commit's tree; a commit whose blob differs from its first
 * parent's is one version.  That is what `git log --first-parent -- PATH`
 * shows, computed from objects without an index or a checkout.
 *
 * Writing never touches an index or a working tree either: it writes the
 * blob, the three trees on the path and the commit, then moves the branch
 * with git_reference_create_matching() against the tip the commit was built
 * on.  If another writer moved the branch in between, the commit is built
 * again on the new tip; the change touches one file, so it always applies.
 * A network repository adds one step: the commit is made in the cache and
 * pushed, and a push refused because the remote branch moved is followed by
 * a fetch and the same rebuild.
 *
 * The cache of a network repository is a bare repository whose branches and
 * tags mirror the remote's (forced, pruned fetch), one per URL, named after
 * the URL's last component and a hash of the URL without userinfo.  A lock
 * file next to it serialises the jankgate processes of one machine while
 * they fetch, commit and push; reading needs no lock because git objects
 * never change and refs are replaced atomically.
 *
 * Every message goes through baseline_scrub(): libgit2 may quote the URL it
 * was given, and that URL may carry a user and password.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base64.h"
#include "baseline_store.h"
#include "error.h"
#include "fileio.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Branch updates lost to other local writers before giving up. */
#define LOCAL_RACES_MAX 100
/* How long a locked ref or cache is waited for. */
#define REF_LOCK_WAIT_MS 10000
#define CACHE_LOCK_WAIT_MS 300000
/* Refs named in a "ref not found" message. */
#define REFS_LISTED 10

struct baseline_store {
	git_repository *repo;
	char *name;		/* the repository in messages: no userinfo */
	char *url;		/* network URL; NULL for a local repository */
	char *lock_path;	/* the cache's lock file (network only) */
	int lock_fd;
	char *ssh_key;
	char *known_hosts;	/* NULL: ~/.ssh and /etc/ssh known_hosts */
	char *token;		/* the token itself, or NULL */
	char *token_env;
	char *token_user;
	char *author_name;
	char *author_email;
	int push_retries;
	int offline;
	int attempts;
};

/* How one attempt to write the commit ended. */
enum step {
	STEP_DONE,		/* the branch points at the new commit */
	STEP_SAME,		/* the tip already stores these bytes */
	STEP_RACED,		/* another writer moved the branch first */
	STEP_LOCKED,		/* another writer holds the branch's lock */
};

/* What the credential callback saw, for the message when auth fails. */
struct cred_state {
	const struct baseline_store *bs;
	int tries;		/* keys or tokens handed to libgit2 */
	int no_token;		/* the server asked for a token we lack */
	int host_unknown;	/* the ssh host key is not a known one */
	int no_keygen;		/* ssh-keygen, which looks keys up, is missing */
	int cleartext;		/* a token was asked for over plain http */
	char host[256];		/* the host as known_hosts names it */
};

/* cred comes first: the callbacks of a push share this one payload. */
struct push_state {
	struct cred_state cred;
	char *refused;		/* the server's reason, when it refused */
};

static int
vfail(const struct baseline_store *bs, int code, int with_git,
    const char *fmt, va_list ap)
{
	const git_error *ge = git_error_last();
	struct strbuf raw = STRBUF_INIT, clean = STRBUF_INIT;

	strbuf_vaddf(&raw, fmt, ap);
	if (with_git && ge && ge->message && *ge->message) {
		strbuf_addf(&raw, ": %s", ge->message);
		strbuf_rtrim(&raw);
	}
	baseline_scrub(&clean, raw.buf, bs ? bs->token : NULL);
	jg_error_set(code, "%s", clean.buf);
	strbuf_release(&raw);
	strbuf_release(&clean);
	git_error_clear();
	return code;
}

/* Set the message (scrubbed) and return `code`. */
static int __attribute__((format(printf, 3, 4)))
fail(const struct baseline_store *bs, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(bs, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

/* Like fail(), with ": <libgit2's message>" appended. */
static int __attribute__((format(printf, 3, 4)))
fail_git(const struct baseline_store *bs, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(bs, code, 1, fmt, ap);
	va_end(ap);
	return code;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- network: ssh host keys ---- */

/* The port of an ssh:// URL, 22 for the scp-like form or when absent. */
static int
ssh_port(const char *url)
{
	const char *p = strstr(url, "://"), *end, *colon, *q;

	if (!p)
		return 22;
	p += 3;
	end = p + strcspn(p, "/");
	for (q = p; q < end; q++)
		if (*q == '@')
			p = q + 1;
	/* An IPv6 address is bracketed: its port follows the ']'. */
	if (*p == '[' && (q = memchr(p, ']', (size_t)(end - p))))
		p = q;
	colon = memchr(p, ':', (size_t)(end - p));
	return colon ? (int)strtol(colon + 1, NULL, 10) : 22;
}

/*
 * Whether `file` lists `key` (base64) for `host`: 1 yes, 0 no, -1 revoked.
 * ssh-keygen does the lookup because it knows hashed host names.
 */
static int
known_host(struct cred_state *cs, const char *file, const char *key)
{
	const char *argv[] = { "ssh-keygen", "-F", cs->host, "-f", file,
	    NULL };
	struct proc_result r;
	int found = 0, err;
	char *save = NULL;

	proc_result_init(&r);
	err = proc_run(&r, argv, NULL);
	if (err == JG_ENOTFOUND)
		cs->no_keygen = 1;
	if (err == 0 && r.exit_code == 0) {
		for (char *line = strtok_r(r.out.buf, "\n", &save); line;
		    line = strtok_r(NULL, "\n", &save)) {
			char *f[4] = { NULL }, *fs = NULL;
			int n = 0, revoked = line[0] == '@' &&
			    !strncmp(line, "@revoked", 8);

			if (line[0] == '#')
				continue;
			for (char *w = strtok_r(line, " \t", &fs); w && n < 4;
			    w = strtok_r(NULL, " \t", &fs))
				f[n++] = w;
			/* [@marker] hosts keytype key */
			if (f[0] && f[0][0] == '@')
				memmove(f, f + 1, 3 * sizeof(*f));
			if (!f[2] || strcmp(f[2], key))
				continue;
			if (revoked)
				found = -1;
			else if (found == 0 && line[0] != '@')
				found = 1;
		}
	}
	proc_result_release(&r);
	jg_error_clear();
	return found;
}

/*
 * libgit2 1.5 accepts any ssh host key unless this callback objects: the
 * key must be in known_hosts, as the ssh client would insist.  Other
 * certificates (https) keep libgit2's own verdict.
 */
static int
cert_cb(git_cert *cert, int valid, const char *host, void *payload)
{
	struct cred_state *cs = payload;
	const struct baseline_store *bs = cs->bs;
	const git_cert_hostkey *hk = (const git_cert_hostkey *)cert;
	struct strbuf key = STRBUF_INIT, mine = STRBUF_INIT;
	const char *home = getenv("HOME");
	int port = ssh_port(bs->url), ok = 0;

	if (cert->cert_type != GIT_CERT_HOSTKEY_LIBSSH2)
		return GIT_PASSTHROUGH;
	if (port == 22)
		snprintf(cs->host, sizeof(cs->host), "%s", host);
	else
		snprintf(cs->host, sizeof(cs->host), "[%s]:%d", host, port);
	if (hk->type & GIT_CERT_SSH_RAW)
		base64_add(&key, hk->hostkey,
		    hk->hostkey_len);
	if (key.len && bs->known_hosts) {
		ok = known_host(cs, bs->known_hosts, key.buf);
	} else if (key.len) {
		if (home && *home) {
			strbuf_addf(&mine, "%s/.ssh/known_hosts", home);
			ok = known_host(cs, mine.buf, key.buf);
		}
		if (ok == 0)
			ok = known_host(cs, "/etc/ssh/ssh_known_hosts",
			    key.buf);
	}
	strbuf_release(&key);
	strbuf_release(&mine);
	if (ok > 0)
		return 0;
	cs->host_unknown = 1;
	git_error_set_str(GIT_ERROR_SSH, "unknown host key");
	return GIT_ECERTIFICATE;
}

/* ---- network: credentials, fetch, push ---- */

/* 1 for an http:// URL to another machine, where a token would be sent in
 * clear; loopback is allowed for local test servers. */
static int
is_cleartext_http(const char *url)
{
	const char *host = url + 7, *end;
	size_t len;

	if (strncmp(url, "http://", 7))
		return 0;
	end = host + strcspn(host, "/");
	for (const char *q = host; q < end; q++)
		if (*q == '@')
			host = q + 1;
	len = *host == '[' ? strcspn(host, "]") + 1 : strcspn(host, ":/");
	return !((len == 9 && !strncmp(host, "localhost", 9)) ||
	    !strncmp(host, "127.", 4) || (len == 5 &&
	    !strncmp(host, "[::1]", 5)));
}

static int
cred_cb(git_credential **out, const char *url, const char *url_user,
    unsigned int allowed, void *payload)
{
	struct cred_state *cs = payload;
	const struct baseline_store *bs = cs->bs;

	if (allowed & GIT_CREDENTIAL_USERNAME)
		return git_credential_username_new(out,
		    url_user ? url_user : "git");
	/* The server refused what we sent: asking again would loop. */
	if (cs->tries++ > 0) {
		git_error_set_str(GIT_ERROR_NET, "credentials refused");
		return GIT_EAUTH;
	}
	if (allowed & GIT_CREDENTIAL_SSH_KEY) {
		const char *user = url_user ? url_user : "git";

		if (bs->ssh_key)
			return git_credential_ssh_key_new(out, user, NULL,
			    bs->ssh_key, NULL);
		return git_credential_ssh_key_from_agent(out, user);
	}
	if (allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT) {
		const char *user = bs->token_user ? bs->token_user :
		    url_user ? url_user : "x-access-token";

		if (!bs->token) {
			cs->no_token = 1;
			git_error_set_str(GIT_ERROR_NET,
			    "the server asks for credentials");
			return GIT_EAUTH;
		}
		if (is_cleartext_http(url)) {
			cs->cleartext = 1;
			git_error_set_str(GIT_ERROR_NET, "plain http");
			return GIT_EAUTH;
		}
		return git_credential_userpass_plaintext_new(out, user,
		    bs->token);
	}
	return GIT_PASSTHROUGH;
}

/* What to do about refused credentials, in words for the message. */
static void
auth_advice(struct strbuf *sb, const struct baseline_store *bs,
    const struct cred_state *cs)
{
	if (cs->no_keygen)
		strbuf_addstr(sb, "ssh host keys are checked with ssh-keygen, "
		    "which is not installed (openssh-client)");
	else if (cs->cleartext)
		strbuf_addstr(sb, "the token is not sent over plain http; use "
		    "an https URL");
	else if (cs->host_unknown)
		strbuf_addf(sb, "the host key of '%s' is not in %s; check it "
		    "and add it (ssh-keyscan)", cs->host, bs->known_hosts ?
		    bs->known_hosts : "~/.ssh/known_hosts");
	else if (cs->no_token && bs->token_env)
		strbuf_addf(sb, "the server wants a token: export it in $%s",
		    bs->token_env);
	else if (cs->no_token)
		strbuf_addstr(sb, "the server wants a token: name its "
		    "variable in baseline.token_env");
	else if (!strncmp(bs->url, "http", 4))
		strbuf_addf(sb, "the token in $%s was refused",
		    bs->token_env ? bs->token_env : "(none)");
	else if (bs->ssh_key)
		strbuf_addf(sb, "the key '%s' was refused", bs->ssh_key);
	else
		strbuf_addstr(sb, "no key in ssh-agent was accepted; load one "
		    "or set baseline.ssh_key");
}

/*
 * Turn a failed network call into jankgate's codes: refused credentials are
 * JG_EAUTH (exit 3 with advice), a missing repository JG_ENOTFOUND, the rest
 * JG_EIO.  libgit2 reports these through message text more than codes.
 */
static int
net_fail(const struct baseline_store *bs, int gerr,
    const struct cred_state *cs, const char *doing)
{
	const git_error *ge = git_error_last();
	const char *m = ge && ge->message ? ge->message : "";
	struct strbuf advice = STRBUF_INIT;
	int code = JG_EIO;

	if (gerr == GIT_EAUTH || cs->tries > 1 || cs->no_token ||
	    cs->host_unknown || cs->cleartext || strstr(m, "401") || strstr(m, "403") ||
	    strcasestr(m, "authenticat")) {
		auth_advice(&advice, bs, cs);
		code = fail(bs, JG_EAUTH, "authentication to '%s' failed: %s",
		    bs->name, advice.buf);
	} else if (gerr == GIT_ENOTFOUND || strstr(m, "404") ||
	    strcasestr(m, "not found") || strstr(m, "not exported") ||
	    strstr(m, "no such repository") ||
	    strstr(m, "does not appear to be a git repository") ||
	    strstr(m, "could not find repository")) {
		code = fail_git(bs, JG_ENOTFOUND, "baseline repository '%s' "
		    "not found (check baseline.repo)", bs->name);
	} else {
		code = fail_git(bs, JG_EIO, "cannot %s '%s'", doing,
		    bs->name);
	}
	strbuf_release(&advice);
	return code;
}

/*
 * An anonymous remote for the URL.  url.<base>.insteadOf is not applied:
 * libgit2 1.5 leaks memory on every config entry its regex scan for it
 * does not match, and a baseline URL is given in full anyway.
 */
static int
remote_new(git_remote **out, struct baseline_store *bs)
{
	git_remote_create_options ro;

	git_remote_create_options_init(&ro, GIT_REMOTE_CREATE_OPTIONS_VERSION);
	ro.repository = bs->repo;
	ro.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF |
	    GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC;
	if (git_remote_create_with_opts(out, bs->url, &ro) < 0)
		return fail_git(bs, JG_EINVAL, "bad repository URL '%s'",
		    bs->name);
	return 0;
}

/* Make the cache's branches and tags those of the remote. */
static int
remote_fetch(struct baseline_store *bs)
{
	char *specs[] = { "+refs/heads/*:refs/heads/*",
	    "+refs/tags/*:refs/tags/*" };
	git_strarray refspecs = { specs, 2 };
	git_fetch_options fo;
	struct cred_state cs = { .bs = bs };
	git_remote *remote = NULL;
	int err;

	/* The _init() calls, not the macros, which -Wextra finds incomplete. */
	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.callbacks.credentials = cred_cb;
	fo.callbacks.certificate_check = cert_cb;
	fo.callbacks.payload = &cs;
	fo.prune = GIT_FETCH_PRUNE;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	if ((err = remote_new(&remote, bs)) < 0)
		return err;
	err = git_remote_fetch(remote, &refspecs, &fo, "jankgate: fetch");
	if (err < 0)
		err = net_fail(bs, err, &cs, "fetch from");
	git_remote_free(remote);
	return err;
}

static int
push_ref_cb(const char *refname, const char *status, void *payload)
{
	struct push_state *ps = payload;

	if (status && !ps->refused)
		ps->refused = xstrdup(status);
	return 0;
}

/*
 * Push `refname` to the same name on the remote, never forced.  Returns 0
 * when it landed, 1 when the remote refused it (the reason in *refused,
 * which the caller frees), or an error.
 */
static int
remote_push(struct baseline_store *bs, const char *refname, char **refused)
{
	char *spec = xasprintf("%s:%s", refname, refname);
	git_strarray refspecs = { &spec, 1 };
	git_push_options po;
	struct push_state ps = { .cred = { .bs = bs } };
	git_remote *remote = NULL;
	int err;

	git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
	po.callbacks.credentials = cred_cb;
	po.callbacks.certificate_check = cert_cb;
	po.callbacks.push_update_reference = push_ref_cb;
	po.callbacks.payload = &ps;
	if ((err = remote_new(&remote, bs)) < 0)
		goto out;
	err = git_remote_push(remote, &refspecs, &po);
	if (err == GIT_ENONFASTFORWARD) {
		/* libgit2 saw from the advertisement that the branch moved. */
		*refused = xstrdup("the remote branch moved");
		git_error_clear();
		err = 1;
	} else if (err < 0) {
		err = net_fail(bs, err, &ps.cred, "push to");
	} else if (ps.refused) {
		*refused = ps.refused;
		ps.refused = NULL;
		err = 1;
	}
out:
	free(ps.refused);
	git_remote_free(remote);
	free(spec);
	return err;
}

/* ---- opening ---- */

/* A URL that needs the network: anything with a scheme but file://. */
static int
is_network_url(const char *s)
{
	const char *colon = strchr(s, ':');
	const char *slash = strchr(s, '/');

	if (strstr(s, "://"))
		return strncmp(s, "file://", 7) != 0;
	/* git's scp-like "[user@]host:path": a colon before any slash. */
	return colon && colon > s && (!slash || colon < slash);
}

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
	return 0;
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
			    "'%s' does not exist (check baseline.repo)", path);
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
	return 0;
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

/* Wait for the cache's lock; other jankgate processes may be pushing. */
static int
cache_lock(struct baseline_store *bs)
{
	int waited = 0;

	bs->lock_fd = open(bs->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (bs->lock_fd < 0)
		return jg_error_errno(JG_EIO, errno, "cannot open '%s'",
		    bs->lock_path);
	while (flock(bs->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;

			close(bs->lock_fd);
			bs->lock_fd = -1;
			return jg_error_errno(JG_EIO, e, "cannot lock '%s'",
			    bs->lock_path);
		}
		if (waited >= CACHE_LOCK_WAIT_MS) {
			close(bs->lock_fd);
			bs->lock_fd = -1;
			return jg_error_set(JG_ETIMEOUT, "cache '%s' stayed "
			    "locked by another jankgate for %d s",
			    bs->lock_path, CACHE_LOCK_WAIT_MS / 1000);
		}
		sleep_ms(50);
		waited += 50;
	}
	return 0;
}

static void
cache_unlock(struct baseline_store *bs)
{
	if (bs->lock_fd >= 0)
		close(bs->lock_fd);	/* closing drops the flock */
	bs->lock_fd = -1;
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
	    (err = cache_lock(bs)) < 0)
		goto out;
	if (git_repository_open_ext(&bs->repo, path,
	    GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_BARE,
	    NULL) < 0) {
		/* Missing or broken: a cache can always be made again. */
		git_error_clear();
		if ((err = file_remove_tree(path)) < 0 ||
		    (err = init_bare(bs, path)) < 0)
			goto out;
	}
	if (!bs->offline)
		err = remote_fetch(bs);
out:
	cache_unlock(bs);
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

	if (is_network_url(o->repo)) {
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
	cache_unlock(bs);
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

/* ---- reading ---- */

/* 1 when the repository has no refs at all: nothing was ever stored. */
static int
has_no_refs(struct baseline_store *bs)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	int none = 0;

	if (git_reference_iterator_new(&it, bs->repo) == 0) {
		none = git_reference_next(&ref, it) == GIT_ITEROVER;
		git_reference_free(ref);
		git_reference_iterator_free(it);
	}
	git_error_clear();
	return none;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* JG_ENOTFOUND for `ref`, naming the branches and tags there are. */
static int
ref_not_found(struct baseline_store *bs, const char *ref)
{
	git_strarray names = { NULL, 0 };
	struct strbuf list = STRBUF_INIT;
	size_t shown = 0, more = 0;
	int err;

	if (git_reference_list(&names, bs->repo) == 0 && names.count)
		qsort(names.strings, names.count, sizeof(char *), cmp_str);
	git_error_clear();
	for (size_t i = 0; i < names.count; i++) {
		const char *n = names.strings[i];

		if (!strncmp(n, "refs/heads/", 11))
			n += 11;
		else if (!strncmp(n, "refs/tags/", 10))
			n += 10;
		else
			continue;
		if (shown == REFS_LISTED) {
			more++;
			continue;
		}
		strbuf_addf(&list, "%s%s", shown++ ? ", " : "", n);
	}
	if (!shown)
		err = fail(bs, JG_ENOTFOUND, "ref '%s' not found in '%s', "
		    "which has no branches or tags yet", ref, bs->name);
	else if (bs->url)
		err = fail(bs, JG_ENOTFOUND, "ref '%s' not found in '%s'; it "
		    "has %s%s%s", ref, bs->name, list.buf,
		    more ? " and more" : "",
		    bs->offline ? " (as last fetched)" : "");
	else
		err = fail(bs, JG_ENOTFOUND, "ref '%s' not found in '%s'; it "
		    "has %s%s (if the ref comes from another repository, "
		    "'git fetch' it there first)", ref, bs->name, list.buf,
		    more ? " and more" : "");
	strbuf_release(&list);
	git_strarray_dispose(&names);
	return err;
}

/* The commit `ref` (a branch, tag or commit id) names. */
static int
resolve_commit(git_commit **out, struct baseline_store *bs, const char *ref)
{
	git_object *obj = NULL;
	int err;

	*out = NULL;
	if (!ref || !*ref)
		return fail(bs, JG_EINVAL, "no baseline ref given (set "
		    "baseline.ref)");
	err = git_revparse_single(&obj, bs->repo, ref);
	if (err == GIT_EAMBIGUOUS)
		return fail(bs, JG_EINVAL, "ref '%s' is ambiguous in '%s'",
		    ref, bs->name);
	if (err == GIT_ENOTFOUND || err == GIT_EINVALIDSPEC) {
		git_error_clear();
		return ref_not_found(bs, ref);
	}
	if (err < 0)
		return fail_git(bs, JG_EIO, "cannot resolve '%s' in '%s'",
		    ref, bs->name);
	err = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err < 0)
		return fail(bs, JG_EINVAL, "ref '%s' in '%s' does not name a "
		    "commit", ref, bs->name);
	return 0;
}

/*
 * The blob at <package>/<device_key>/results.json in `root`: 1 with *out
 * set when there is one, 0 when the path is absent, JG_EINVAL when
 * something else is in the way (`at` names the commit for the message).
 */
static int
file_at(git_oid *out, struct baseline_store *bs, const git_tree *root,
    const char *package, const char *device_key, const git_oid *at)
{
	const char *names[3] = { package, device_key, BASELINE_FILE };
	const git_tree *tree = root;
	git_tree *sub = NULL;
	char hex[8];
	int ret = 0;

	for (int i = 0; i < 3; i++) {
		const git_tree_entry *e = git_tree_entry_byname(tree, names[i]);
		git_object_t want = i < 2 ? GIT_OBJECT_TREE : GIT_OBJECT_BLOB;
		git_tree *next;

		if (!e)
			break;
		if (git_tree_entry_type(e) != want ||
		    git_tree_entry_filemode(e) == GIT_FILEMODE_LINK) {
			git_oid_tostr(hex, sizeof(hex), at);
			ret = fail(bs, JG_EINVAL, "'%s%s%s%s%s' at %s in '%s' "
			    "is %s, not %s: it is not a jankgate baseline",
			    package, i ? "/" : "", i ? device_key : "",
			    i > 1 ? "/" : "", i > 1 ? BASELINE_FILE : "",
			    hex, bs->name, i < 2 ? "a file" : "a directory",
			    i < 2 ? "a directory" : "a file");
			break;
		}
		if (i == 2) {
			git_oid_cpy(out, git_tree_entry_id(e));
			ret = 1;
			break;
		}
		if (git_tree_lookup(&next, bs->repo,
		    git_tree_entry_id(e)) < 0) {
			ret = fail_git(bs, JG_EIO, "cannot read a tree of '%s'",
			    bs->name);
			break;
		}
		git_tree_free(sub);
		tree = sub = next;
	}
	git_tree_free(sub);
	return ret;
}

static int
file_in_commit(git_oid *out, struct baseline_store *bs, const git_commit *c,
    const char *package, const char *device_key)
{
	git_tree *tree;
	int ret;

	if (git_commit_tree(&tree, c) < 0)
		return fail_git(bs, JG_EIO, "cannot read a tree of '%s'",
		    bs->name);
	ret = file_at(out, bs, tree, package, device_key, git_commit_id(c));
	git_tree_free(tree);
	return ret;
}

struct entries {
	struct baseline_entry *v;
	size_t nr, alloc;
};

/* A new entry for commit `c` and the file of package/device_key. */
static struct baseline_entry *
entry_add(struct entries *es, const git_commit *c, const char *package,
    const char *device_key)
{
	const char *msg = git_commit_message(c);
	struct baseline_entry *e;

	XALLOC_GROW(es->v, es->nr + 1, es->alloc);
	e = &es->v[es->nr++];
	memset(e, 0, sizeof(*e));
	git_oid_tostr(e->commit, sizeof(e->commit), git_commit_id(c));
	e->time = (long long)git_commit_time(c);
	e->tz_minutes = git_commit_time_offset(c);
	baseline_message_parse(e, msg ? msg : "");
	e->package = xstrdup(package);
	e->device_key = xstrdup(device_key);
	return e;
}

/* Copy the blob into e->data and check that it is a results file. */
static int
entry_load(struct baseline_entry *e, struct baseline_store *bs,
    const git_oid *id)
{
	git_blob *blob;
	char *what;
	int err;

	if (git_blob_lookup(&blob, bs->repo, id) < 0)
		return fail_git(bs, JG_EIO, "cannot read '%s/%s/" BASELINE_FILE
		    "' at %.7s in '%s'", e->package, e->device_key, e->commit,
		    bs->name);
	e->len = (size_t)git_blob_rawsize(blob);
	e->data = xmalloc(e->len + 1);
	memcpy(e->data, git_blob_rawcontent(blob), e->len);
	e->data[e->len] = '\0';
	git_blob_free(blob);
	what = xasprintf("'%s/%s/" BASELINE_FILE "' at %.7s in '%s'",
	    e->package, e->device_key, e->commit, bs->name);
	err = baseline_content_check(e->data, e->len, what);
	free(what);
	return err;
}

/* Hand the entries over on success, free them on failure. */
static int
entries_finish(struct baseline_entry **out, size_t *nr, struct entries *es,
    int err)
{
	if (err < 0) {
		baseline_entries_free(es->v, es->nr);
		return err;
	}
	*out = es->v;
	*nr = es->nr;
	return 0;
}

/* Check filter names as baseline_path() does; NULL filters pass. */
static int
filters_check(const char *package, const char *device_key)
{
	struct strbuf sb = STRBUF_INIT;
	int err;

	err = baseline_path(&sb, package ? package : "p",
	    device_key ? device_key : "d");
	strbuf_release(&sb);
	return err;
}

int
baseline_store_history(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *ref, const char *package,
    const char *device_key, size_t max)
{
	struct entries es = { NULL, 0, 0 };
	git_commit *c = NULL, *parent = NULL;
	git_oid cur, prev;
	int has, prev_has, err;

	*out = NULL;
	*nr = 0;
	if (!package || !device_key)
		return jg_error_set(JG_EINVAL, "a baseline history needs a "
		    "package and a device key");
	if ((err = filters_check(package, device_key)) < 0)
		return err;
	if (has_no_refs(bs))
		return 0;
	if ((err = resolve_commit(&c, bs, ref)) < 0)
		return err;
	has = file_in_commit(&cur, bs, c, package, device_key);
	while (has > 0 && (!max || es.nr < max)) {
		prev_has = 0;
		if (git_commit_parentcount(c) > 0) {
			if (git_commit_parent(&parent, c, 0) < 0) {
				has = fail_git(bs, JG_EIO, "cannot read the "
				    "history of '%s'", bs->name);
				break;
			}
			prev_has = file_in_commit(&prev, bs, parent, package,
			    device_key);
			if (prev_has < 0) {
				has = prev_has;
				break;
			}
		}
		/* A version: a commit whose blob is not its parent's. */
		if (!prev_has || !git_oid_equal(&prev, &cur)) {
			struct baseline_entry *e = entry_add(&es, c, package,
			    device_key);

			if ((err = entry_load(e, bs, &cur)) < 0) {
				has = err;
				break;
			}
		}
		git_commit_free(c);
		c = parent;
		parent = NULL;
		cur = prev;
		has = prev_has;
	}
	git_commit_free(parent);
	git_commit_free(c);
	return entries_finish(out, nr, &es, has < 0 ? has : 0);
}

/*
 * The subtrees named `name` in `tree` and `ptree` (either may be NULL) when
 * the one in `tree` is a directory that differs from the other: returns 1
 * with *sub (and *psub when ptree has a directory there) loaded, 0 when
 * unchanged or not a directory, or an error.
 */
static int
changed_subtree(git_tree **sub, git_tree **psub, struct baseline_store *bs,
    const git_tree *tree, const git_tree *ptree, const char *name)
{
	const git_tree_entry *e, *pe;

	*sub = *psub = NULL;
	e = tree ? git_tree_entry_byname(tree, name) : NULL;
	if (!e || git_tree_entry_type(e) != GIT_OBJECT_TREE)
		return 0;
	pe = ptree ? git_tree_entry_byname(ptree, name) : NULL;
	if (pe && git_oid_equal(git_tree_entry_id(e), git_tree_entry_id(pe)))
		return 0;
	if (git_tree_lookup(sub, bs->repo, git_tree_entry_id(e)) < 0 ||
	    (pe && git_tree_entry_type(pe) == GIT_OBJECT_TREE &&
	    git_tree_lookup(psub, bs->repo, git_tree_entry_id(pe)) < 0))
		return fail_git(bs, JG_EIO, "cannot read a tree of '%s'",
		    bs->name);
	return 1;
}

/* The i-th name to visit: the filter itself, or the i-th entry. */
static const char *
nth_name(const git_tree *tree, const char *filter, size_t i)
{
	return filter ? filter :
	    git_tree_entry_name(git_tree_entry_byindex(tree, i));
}

static size_t
names_count(const git_tree *tree, const char *filter)
{
	return filter ? 1 : git_tree_entrycount(tree);
}

/* Add an entry for every results file that `c` changed against `pc`. */
static int
log_commit(struct entries *es, struct baseline_store *bs, git_commit *c,
    git_commit *pc, const char *package, const char *device_key, size_t max)
{
	git_tree *root = NULL, *proot = NULL;
	int err = 0;

	if (git_commit_tree(&root, c) < 0 ||
	    (pc && git_commit_tree(&proot, pc) < 0)) {
		err = fail_git(bs, JG_EIO, "cannot read a tree of '%s'",
		    bs->name);
		goto out;
	}
	for (size_t i = 0; i < names_count(root, package) && !err; i++) {
		const char *pname = nth_name(root, package, i);
		git_tree *pkg, *ppkg;

		if ((err = changed_subtree(&pkg, &ppkg, bs, root, proot,
		    pname)) <= 0)
			continue;
		err = 0;
		for (size_t j = 0; j < names_count(pkg, device_key) && !err;
		    j++) {
			const char *dname = nth_name(pkg, device_key, j);
			const git_tree_entry *f, *pf;
			git_tree *dev, *pdev;

			if ((err = changed_subtree(&dev, &pdev, bs, pkg, ppkg,
			    dname)) <= 0)
				continue;
			err = 0;
			f = git_tree_entry_byname(dev, BASELINE_FILE);
			pf = pdev ? git_tree_entry_byname(pdev, BASELINE_FILE) :
			    NULL;
			if (f && git_tree_entry_type(f) == GIT_OBJECT_BLOB &&
			    (!pf || !git_oid_equal(git_tree_entry_id(f),
			    git_tree_entry_id(pf))) && (!max || es->nr < max))
				entry_add(es, c, pname, dname);
			git_tree_free(dev);
			git_tree_free(pdev);
		}
		git_tree_free(pkg);
		git_tree_free(ppkg);
	}
out:
	git_tree_free(root);
	git_tree_free(proot);
	return err;
}

int
baseline_store_log(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *ref, const char *package,
    const char *device_key, size_t max)
{
	struct entries es = { NULL, 0, 0 };
	git_commit *c = NULL, *parent = NULL;
	int err;

	*out = NULL;
	*nr = 0;
	if ((err = filters_check(package, device_key)) < 0)
		return err;
	if (has_no_refs(bs))
		return 0;
	if ((err = resolve_commit(&c, bs, ref)) < 0)
		return err;
	while (c && (!max || es.nr < max)) {
		if (git_commit_parentcount(c) > 0 &&
		    git_commit_parent(&parent, c, 0) < 0) {
			err = fail_git(bs, JG_EIO, "cannot read the history "
			    "of '%s'", bs->name);
			break;
		}
		err = log_commit(&es, bs, c, parent, package, device_key, max);
		if (err < 0)
			break;
		git_commit_free(c);
		c = parent;
		parent = NULL;
	}
	git_commit_free(parent);
	git_commit_free(c);
	return entries_finish(out, nr, &es, err);
}

int
baseline_store_show(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *rev, const char *package,
    const char *device_key)
{
	struct entries es = { NULL, 0, 0 };
	git_commit *c = NULL;
	git_tree *root = NULL;
	int err;

	*out = NULL;
	*nr = 0;
	if ((err = filters_check(package, device_key)) < 0 ||
	    (err = resolve_commit(&c, bs, rev)) < 0)
		return err;
	if (git_commit_tree(&root, c) < 0) {
		err = fail_git(bs, JG_EIO, "cannot read a tree of '%s'",
		    bs->name);
		goto out;
	}
	for (size_t i = 0; i < names_count(root, package) && !err; i++) {
		const char *pname = nth_name(root, package, i);
		const git_tree_entry *pe = git_tree_entry_byname(root, pname);
		git_tree *pkg;

		/* Other files may sit beside the packages (a README). */
		if (!pe || (!package &&
		    git_tree_entry_type(pe) != GIT_OBJECT_TREE))
			continue;
		if (git_tree_entry_type(pe) != GIT_OBJECT_TREE) {
			git_oid tmp;

			err = file_at(&tmp, bs, root, pname, "x",
			    git_commit_id(c));
			break;
		}
		if (git_tree_lookup(&pkg, bs->repo,
		    git_tree_entry_id(pe)) < 0) {
			err = fail_git(bs, JG_EIO, "cannot read a tree of "
			    "'%s'", bs->name);
			break;
		}
		for (size_t j = 0; j < names_count(pkg, device_key) && !err;
		    j++) {
			const char *dname = nth_name(pkg, device_key, j);
			const git_tree_entry *de = git_tree_entry_byname(pkg,
			    dname);
			git_oid blob;
			int has;

			if (!de || (!device_key &&
			    git_tree_entry_type(de) != GIT_OBJECT_TREE))
				continue;
			has = file_at(&blob, bs, root, pname, dname,
			    git_commit_id(c));
			if (has < 0)
				err = has;
			else if (has)
				err = entry_load(entry_add(&es, c, pname,
				    dname), bs, &blob);
		}
		git_tree_free(pkg);
	}
out:
	git_tree_free(root);
	git_commit_free(c);
	return entries_finish(out, nr, &es, err);
}

/* ---- writing ---- */

/* "refs/heads/<branch>" for `branch`, which must not be a tag's name. */
static int
branch_refname(struct strbuf *out, struct baseline_store *bs,
    const char *branch)
{
	git_oid tag;
	char *tagref;
	int valid = 0, is_tag;

	if (!branch || !*branch)
		return fail(bs, JG_EINVAL, "no branch to record on (set "
		    "baseline.ref)");
	if (!strncmp(branch, "refs/", 5) && strncmp(branch, "refs/heads/", 11))
		return fail(bs, JG_EINVAL, "can only record on a branch, not "
		    "on '%s'", branch);
	if (strncmp(branch, "refs/heads/", 11))
		strbuf_addstr(out, "refs/heads/");
	strbuf_addstr(out, branch);
	if (git_reference_name_is_valid(&valid, out->buf) < 0 || !valid)
		return fail(bs, JG_EINVAL, "'%s' is not a valid branch name",
		    branch);
	tagref = xasprintf("refs/tags/%s", out->buf + 11);
	is_tag = git_reference_name_to_id(&tag, bs->repo, tagref) == 0;
	git_error_clear();
	free(tagref);
	if (is_tag)
		return fail(bs, JG_EINVAL, "'%s' is a tag in '%s'; record on "
		    "a branch", branch, bs->name);
	return 0;
}

/*
 * Write the tree that is `base` (NULL: empty) with `blob` stored at
 * names[level]/.../names[2], into *out.  file_at() has already checked
 * that nothing foreign is in the way.
 */
static int
tree_with_file(git_oid *out, struct baseline_store *bs, const git_tree *base,
    const char *const names[3], int level, const git_oid *blob)
{
	const git_tree_entry *e = base ?
	    git_tree_entry_byname(base, names[level]) : NULL;
	git_treebuilder *tb = NULL;
	git_tree *sub = NULL;
	git_oid child;
	int err = 0;

	if (level < 2) {
		if (e && git_tree_lookup(&sub, bs->repo,
		    git_tree_entry_id(e)) < 0) {
			err = fail_git(bs, JG_EIO, "cannot read a tree of "
			    "'%s'", bs->name);
			goto out;
		}
		err = tree_with_file(&child, bs, sub, names, level + 1, blob);
		if (err < 0)
			goto out;
	} else {
		git_oid_cpy(&child, blob);
	}
	if (git_treebuilder_new(&tb, bs->repo, base) < 0 ||
	    git_treebuilder_insert(NULL, tb, names[level], &child,
	    level < 2 ? GIT_FILEMODE_TREE : GIT_FILEMODE_BLOB) < 0 ||
	    git_treebuilder_write(out, tb) < 0)
		err = fail_git(bs, JG_EIO, "cannot write a tree in '%s'",
		    bs->name);
out:
	git_treebuilder_free(tb);
	git_tree_free(sub);
	return err;
}

/* The file the branch holds must be ours before it is replaced. */
static int
check_replaced(struct baseline_store *bs, const git_oid *id,
    const char *path, const git_oid *tip)
{
	git_blob *blob;
	char *what;
	int err;

	if (git_blob_lookup(&blob, bs->repo, id) < 0)
		return fail_git(bs, JG_EIO, "cannot read '%s' in '%s'", path,
		    bs->name);
	what = xasprintf("'%s' at %.7s in '%s'", path, git_oid_tostr_s(tip),
	    bs->name);
	err = baseline_content_check(git_blob_rawcontent(blob),
	    (size_t)git_blob_rawsize(blob), what);
	if (err < 0)
		jg_error_prefix("refusing to replace it");
	free(what);
	git_blob_free(blob);
	return err;
}

/*
 * One attempt: build a commit that stores `blob` at names[] on top of the
 * current tip of `refname` (*tip; zero when the branch is new) and move the
 * branch to it if it still points at that tip.  Returns a `step`, or an
 * error.
 */
static int
commit_step(git_oid *new_id, git_oid *tip, struct baseline_store *bs,
    const char *refname, const char *const names[3], const char *path,
    const git_oid *blob, const char *msg, const git_signature *sig)
{
	git_commit *parent = NULL;
	git_tree *base = NULL, *tree = NULL;
	git_reference *ref = NULL;
	git_oid tree_id, cur;
	int err, has;

	memset(tip, 0, sizeof(*tip));
	err = git_reference_name_to_id(tip, bs->repo, refname);
	if (err < 0 && err != GIT_ENOTFOUND)
		return fail_git(bs, JG_EIO, "cannot read '%s' in '%s'",
		    refname, bs->name);
	git_error_clear();
	if (err == 0) {
		if (git_commit_lookup(&parent, bs->repo, tip) < 0 ||
		    git_commit_tree(&base, parent) < 0) {
			err = fail_git(bs, JG_EIO, "cannot read '%s' in '%s'",
			    refname, bs->name);
			goto out;
		}
		has = file_at(&cur, bs, base, names[0], names[1], tip);
		if (has > 0 && git_oid_equal(&cur, blob)) {
			git_oid_cpy(new_id, tip);
			err = STEP_SAME;
			goto out;
		}
		if (has < 0 || (has > 0 &&
		    (has = check_replaced(bs, &cur, path, tip)) < 0)) {
			err = has;
			goto out;
		}
	}
	if ((err = tree_with_file(&tree_id, bs, base, names, 0, blob)) < 0)
		goto out;
	if (git_tree_lookup(&tree, bs->repo, &tree_id) < 0 ||
	    git_commit_create(new_id, bs->repo, NULL, sig, sig, NULL, msg,
	    tree, parent ? 1 : 0, (const git_commit **)&parent) < 0) {
		err = fail_git(bs, JG_EIO, "cannot write a commit in '%s'",
		    bs->name);
		goto out;
	}
	/*
	 * The compare-and-swap: only from the tip the commit was built on, a
	 * zero tip meaning "only if the branch still does not exist".  Both
	 * are checked under the ref's lock; git_reference_create() without
	 * force is not, and lets two first commits overwrite each other.
	 */
	err = git_reference_create_matching(&ref, bs->repo, refname, new_id,
	    1, tip, "jankgate: baseline");
	if (err == GIT_EMODIFIED || err == GIT_EEXISTS ||
	    err == GIT_ENOTFOUND)
		err = STEP_RACED;
	else if (err == GIT_ELOCKED)
		err = STEP_LOCKED;
	else if (err < 0)
		err = fail_git(bs, JG_EIO, "cannot update '%s' in '%s'",
		    refname, bs->name);
	else
		err = STEP_DONE;
	if (err > 0)
		git_error_clear();
out:
	git_reference_free(ref);
	git_tree_free(tree);
	git_tree_free(base);
	git_commit_free(parent);
	return err;
}

/* 1 when the fetched branch differs from the tip the push was built on. */
static int
branch_moved(struct baseline_store *bs, const char *refname,
    const git_oid *tip)
{
	git_oid now;
	int exists = git_reference_name_to_id(&now, bs->repo, refname) == 0;

	git_error_clear();
	if (!exists)
		return !git_oid_is_zero(tip);
	return !git_oid_equal(&now, tip);
}

/*
 * Push the commit just made; on refusal fetch, and say whether to build it
 * again (1) because the branch moved, or fail because it did not.
 */
static int
push_or_retry(struct baseline_store *bs, const char *refname,
    const git_oid *tip, int pushes)
{
	char *refused = NULL;
	int err = remote_push(bs, refname, &refused);

	if (err <= 0)
		goto out;
	if (pushes > bs->push_retries) {
		err = fail(bs, JG_EIO, "push to '%s' refused %d times, last "
		    "with '%s': other jobs keep updating '%s' (raise "
		    "baseline.push_retries)", bs->name, pushes, refused,
		    refname);
		goto out;
	}
	if ((err = remote_fetch(bs)) < 0)
		goto out;
	if (!branch_moved(bs, refname, tip))
		err = fail(bs, JG_EIO, "push to '%s' refused: %s", bs->name,
		    refused);
	else
		err = 1;
out:
	free(refused);
	return err;
}

/*
 * A commit that did not land must not stay in the cache, where an offline
 * read would take it for the remote's: put the branch back where it was.
 */
static void
cache_rollback(struct baseline_store *bs, const char *refname,
    const git_oid *ours, const git_oid *tip)
{
	git_reference *ref = NULL;

	if (!git_oid_is_zero(tip)) {
		git_reference_create_matching(&ref, bs->repo, refname, tip, 1,
		    ours, "jankgate: push failed");
	} else if (git_reference_lookup(&ref, bs->repo, refname) == 0 &&
	    git_oid_equal(git_reference_target(ref), ours)) {
		git_reference_delete(ref);
	}
	git_reference_free(ref);
	git_error_clear();
}

/* A bare repository created by jankgate shows the branch it holds. */
static void
point_unborn_head(struct baseline_store *bs, const char *refname)
{
	if (git_repository_is_bare(bs->repo) &&
	    git_repository_head_unborn(bs->repo) == 1)
		git_repository_set_head(bs->repo, refname);
	git_error_clear();
}

int
baseline_store_record(char out[BASELINE_OID_HEXSZ + 1],
    struct baseline_store *bs, const char *branch, const char *package,
    const char *device_key, const char *data, size_t len,
    const struct baseline_commit_info *info)
{
	const char *names[3] = { package, device_key, BASELINE_FILE };
	struct strbuf refname = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf msg = STRBUF_INIT, who = STRBUF_INIT;
	struct baseline_commit_info ci;
	git_signature *sig = NULL;
	git_oid blob, id, tip;
	int races = 0, lock_waited = 0, pushes = 0, err;

	out[0] = '\0';
	bs->attempts = 0;
	if (bs->url && bs->offline)
		return fail(bs, JG_EINVAL, "cannot record in '%s': it was "
		    "opened offline", bs->name);
	if (!info)
		return jg_error_set(JG_EINVAL, "no run to record");
	ci = *info;
	if (ci.reason && !ci.accepted_by) {
		strbuf_addf(&who, "%s <%s>", bs->author_name, bs->author_email);
		ci.accepted_by = who.buf;
	}
	if ((err = baseline_path(&path, package, device_key)) < 0 ||
	    (err = branch_refname(&refname, bs, branch)) < 0 ||
	    (err = baseline_content_check(data, len,
	    "the run to record")) < 0 ||
	    (err = baseline_message_format(&msg, package, device_key, &ci)) < 0)
		goto out;
	if (git_signature_now(&sig, bs->author_name, bs->author_email) < 0) {
		err = fail_git(bs, JG_EINVAL, "bad author '%s <%s>'",
		    bs->author_name, bs->author_email);
		goto out;
	}
	if (bs->url && (err = cache_lock(bs)) < 0)
		goto out;
	if (git_blob_create_from_buffer(&blob, bs->repo, data, len) < 0) {
		err = fail_git(bs, JG_EIO, "cannot write to '%s'", bs->name);
		goto out;
	}
	for (;;) {
		err = commit_step(&id, &tip, bs, refname.buf, names, path.buf,
		    &blob, msg.buf, sig);
		if (err < 0 || err == STEP_SAME)
			break;
		bs->attempts++;
		if (err == STEP_RACED && ++races > LOCAL_RACES_MAX) {
			err = fail(bs, JG_EIO, "'%s' in '%s' kept moving under "
			    "%d tries", refname.buf, bs->name, races);
			break;
		}
		if (err == STEP_LOCKED) {
			if (lock_waited >= REF_LOCK_WAIT_MS) {
				err = fail(bs, JG_EIO, "'%s' in '%s' stayed "
				    "locked for %d s (a stale '%s.lock'?)",
				    refname.buf, bs->name,
				    REF_LOCK_WAIT_MS / 1000, refname.buf);
				break;
			}
			sleep_ms(20);
			lock_waited += 20;
		}
		if (err != STEP_DONE)
			continue;
		if (!bs->url)
			break;
		err = push_or_retry(bs, refname.buf, &tip, ++pushes);
		if (err < 0)
			cache_rollback(bs, refname.buf, &id, &tip);
		if (err <= 0)
			break;
	}
	if (err >= 0) {
		git_oid_tostr(out, BASELINE_OID_HEXSZ + 1, &id);
		if (!bs->url)
			point_unborn_head(bs, refname.buf);
		err = 0;
	}
out:
	cache_unlock(bs);
	git_signature_free(sig);
	strbuf_release(&refname);
	strbuf_release(&path);
	strbuf_release(&msg);
	strbuf_release(&who);
	return err;
}
