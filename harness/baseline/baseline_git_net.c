/*
 * baseline_git_net.c: a network repository's remote (baseline_git_int.h):
 * credentials from ssh-agent, a key file or a token in the environment,
 * ssh host keys checked against known_hosts, fetch and push.
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

#include "base64.h"
#include "baseline_git_int.h"
#include "cancel.h"
#include "error.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

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
	    cs->host_unknown || cs->cleartext || strstr(m, "401") ||
	    strstr(m, "403") ||
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

/* libgit2 calls these while objects and server messages arrive. */
static int
fetch_transfer_cb(const git_indexer_progress *stats, void *payload)
{
	return cancel_pending() ? GIT_EUSER : 0;
}

static int
sideband_cb(const char *str, int len, void *payload)
{
	return cancel_pending() ? GIT_EUSER : 0;
}

/* Wait for the cache's lock; other jankgate processes may be pushing. */
int
bgit_cache_lock(struct baseline_store *bs)
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
		bgit_sleep_ms(50);
		waited += 50;
	}
	return 0;
}

void
bgit_cache_unlock(struct baseline_store *bs)
{
	if (bs->lock_fd >= 0)
		close(bs->lock_fd);	/* closing drops the flock */
	bs->lock_fd = -1;
}

/*
 * Fetch `refspecs` from the remote, pruning what it no longer has.  A
 * cancel seen while it downloads stops it (JG_EINTR).
 */
static int
fetch_specs(struct baseline_store *bs, git_strarray *refspecs)
{
	git_fetch_options fo;
	struct cred_state cs = { .bs = bs };
	git_remote *remote = NULL;
	int err;

	/* The _init() calls, not the macros, which -Wextra finds incomplete. */
	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.callbacks.credentials = cred_cb;
	fo.callbacks.certificate_check = cert_cb;
	fo.callbacks.transfer_progress = fetch_transfer_cb;
	fo.callbacks.sideband_progress = sideband_cb;
	fo.callbacks.payload = &cs;
	fo.prune = GIT_FETCH_PRUNE;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	if ((err = remote_new(&remote, bs)) < 0)
		return err;
	err = git_remote_fetch(remote, refspecs, &fo, "jankgate: fetch");
	if (err == GIT_EUSER && cancel_pending()) {
		git_error_clear();
		err = fail(bs, JG_EINTR, "interrupted: the fetch from '%s' was "
		    "stopped", bs->name);
	} else if (err < 0) {
		err = net_fail(bs, err, &cs, "fetch from");
	}
	git_remote_free(remote);
	return err;
}

/* Make the cache's branches, tags and key refs those of the remote. */
int
bgit_fetch(struct baseline_store *bs)
{
	char *specs[] = { "+refs/heads/*:refs/heads/*",
	    "+refs/tags/*:refs/tags/*", "+" KEY_REFS "*:" KEY_REFS "*" };
	git_strarray refspecs = { specs, 3 };

	return fetch_specs(bs, &refspecs);
}

int
bgit_probe(struct baseline_store *bs)
{
	git_remote_callbacks cb;
	struct cred_state cs = { .bs = bs };
	git_remote *remote = NULL;
	int err;

	if (cancel_pending())
		return fail(bs, JG_EINTR, "interrupted: nothing fetched from "
		    "'%s'", bs->name);
	git_remote_init_callbacks(&cb, GIT_REMOTE_CALLBACKS_VERSION);
	cb.credentials = cred_cb;
	cb.certificate_check = cert_cb;
	cb.payload = &cs;
	if ((err = remote_new(&remote, bs)) < 0)
		return err;
	err = git_remote_connect(remote, GIT_DIRECTION_FETCH, &cb, NULL, NULL);
	if (err < 0)
		err = net_fail(bs, err, &cs, "fetch from");
	git_remote_free(remote);
	return err;
}

int
bgit_is_partial(struct baseline_store *bs)
{
	git_config *cfg = NULL;
	int on = 0;

	if (git_repository_config_snapshot(&cfg, bs->repo) == 0 &&
	    git_config_get_bool(&on, cfg, "jankgate.partial") < 0)
		on = 0;
	git_config_free(cfg);
	git_error_clear();
	return on;
}

int
bgit_set_partial(struct baseline_store *bs, int on)
{
	git_config *cfg = NULL;
	int err = 0;

	if (git_repository_config(&cfg, bs->repo) < 0 ||
	    (on ? git_config_set_bool(cfg, "jankgate.partial", 1) :
	    git_config_delete_entry(cfg, "jankgate.partial")) < 0)
		err = fail_git(bs, JG_EIO, "cannot write the configuration "
		    "of the cache of '%s'", bs->name);
	git_config_free(cfg);
	return err;
}

int
bgit_fetch_key(struct baseline_store *bs, const char *refname)
{
	char *spec = xasprintf("+%s:%s", refname, refname);
	git_strarray refspecs = { &spec, 1 };
	int held = bs->lock_fd >= 0, err = 0;

	if (!bs->offline && (held || !(err = bgit_cache_lock(bs)))) {
		err = fetch_specs(bs, &refspecs);
		if (!held)
			bgit_cache_unlock(bs);
	}
	free(spec);
	return err;
}

int
bgit_fetch_whole(struct baseline_store *bs)
{
	int held = bs->lock_fd >= 0, err;

	if (!bs->partial || bs->offline)
		return 0;
	if (!held && (err = bgit_cache_lock(bs)) < 0)
		return err;
	if (!(err = bgit_fetch(bs)) && !(err = bgit_set_partial(bs, 0)))
		bs->partial = 0;
	if (!held)
		bgit_cache_unlock(bs);
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

/* libgit2 calls these while it packs and sends: a cancel stops the push. */
static int
push_transfer_cb(unsigned int current, unsigned int total, size_t bytes,
    void *payload)
{
	return cancel_pending() ? GIT_EUSER : 0;
}

static int
pack_progress_cb(int stage, uint32_t current, uint32_t total, void *payload)
{
	return cancel_pending() ? GIT_EUSER : 0;
}

/*
 * Push `refname` to the same name on the remote, forced only with
 * `force`.  Returns 0 when it landed, 1 when the remote refused it (the
 * reason in *refused, which the caller frees), or an error.
 */
int
bgit_push(struct baseline_store *bs, const char *refname, int force,
    char **refused)
{
	char *spec = xasprintf("%s%s:%s", force ? "+" : "", refname, refname);
	git_strarray refspecs = { &spec, 1 };
	git_push_options po;
	struct push_state ps = { .cred = { .bs = bs } };
	git_remote *remote = NULL;
	int err;

	git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
	po.callbacks.credentials = cred_cb;
	po.callbacks.certificate_check = cert_cb;
	po.callbacks.push_update_reference = push_ref_cb;
	po.callbacks.push_transfer_progress = push_transfer_cb;
	po.callbacks.pack_progress = pack_progress_cb;
	po.callbacks.sideband_progress = sideband_cb;
	po.callbacks.payload = &ps;
	if ((err = remote_new(&remote, bs)) < 0)
		goto out;
	err = git_remote_push(remote, &refspecs, &po);
	if (err == GIT_ENONFASTFORWARD) {
		/* libgit2 saw from the advertisement that the branch moved. */
		*refused = xstrdup("the remote branch moved");
		git_error_clear();
		err = 1;
	} else if (err == GIT_EUSER && cancel_pending()) {
		git_error_clear();
		err = fail(bs, JG_EINTR, "interrupted: the push to '%s' was "
		    "stopped", bs->name);
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
