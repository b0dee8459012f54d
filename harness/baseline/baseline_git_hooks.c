/*
 * baseline_git_hooks.c: a local repository that guards its branches with
 * hooks (baseline_git_int.h).
 *
 * A path or file:// repository is written in place, and libgit2 runs no
 * hook when it moves a branch.  A team that protects its baseline
 * repository with a pre-receive or update hook expects what `git push`
 * would refuse to be refused, so when the repository has a hook that
 * `git receive-pack` runs, the branch is moved by the git program instead:
 *
 *	git --git-dir=REPO push --porcelain --no-verify
 *	    --force-with-lease=REF:TIP REPO COMMIT:REF
 *
 * The commit's objects are already in REPO (written in place); the push to
 * itself only runs receive-pack, with its hooks and its receive.* settings.
 * The lease keeps the compare-and-swap of the in-place update: the branch
 * moves only from the tip the commit was built on.  A refused update
 * leaves the commit's objects unreachable in REPO, where `git gc` prunes
 * them, as it does those of any refused push.  Without the git program a
 * repository with such hooks is not written at all.
 */
#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline_git_int.h"
#include "error.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* How long the push, hooks included, may take before it is abandoned. */
#define HOOK_PUSH_TIMEOUT_MS 300000
/* Lines and bytes of the hooks' output quoted in a refusal. */
#define HOOK_LINES_MAX 10
#define HOOK_TEXT_MAX 1000

/* The hooks `git receive-pack` runs (githooks(5)), the first that stops. */
static const char *const receive_hooks[] = {
	"pre-receive", "update", "proc-receive", "reference-transaction",
	"push-to-checkout", "post-receive", "post-update",
};

/*
 * The directory receive-pack looks in: core.hooksPath (relative to the
 * git directory, where push hooks run) or <git dir>/hooks.
 */
static char *
hooks_dir(struct baseline_store *bs)
{
	const char *gitdir = git_repository_path(bs->repo);
	git_config *cfg = NULL;
	git_buf buf = GIT_BUF_INIT;
	char *dir;

	if (git_repository_config_snapshot(&cfg, bs->repo) == 0 &&
	    git_config_get_path(&buf, cfg, "core.hooksPath") == 0 &&
	    buf.ptr && *buf.ptr)
		dir = buf.ptr[0] == '/' ? xstrdup(buf.ptr) :
		    xasprintf("%s%s", gitdir, buf.ptr);
	else
		dir = xasprintf("%shooks", gitdir);
	git_error_clear();
	git_buf_dispose(&buf);
	git_config_free(cfg);
	return dir;
}

int
bgit_find_hook(struct baseline_store *bs)
{
	char *dir = hooks_dir(bs);
	size_t i;

	free(bs->hook);
	bs->hook = NULL;
	for (i = 0; i < sizeof(receive_hooks) / sizeof(*receive_hooks); i++) {
		char *path = xasprintf("%s/%s", dir, receive_hooks[i]);
		struct stat st;
		int found = stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(path, X_OK) == 0;

		free(path);
		if (found) {
			bs->hook = xstrdup(receive_hooks[i]);
			break;
		}
	}
	free(dir);
	if (bs->hook && !proc_in_path("git"))
		return fail(bs, JG_EIO, "'%s' has a receive hook (%s) that "
		    "only the git program runs, and git is not installed: "
		    "refusing to write past it (install git)", bs->name,
		    bs->hook);
	return 0;
}

/*
 * The reason of the porcelain line "!\tSRC:DST\t[remote rejected] (why)":
 * "why", or the whole summary when it has no parenthesis.  NULL when no
 * line was refused.
 */
static char *
refused_reason(const char *out)
{
	const char *line = out;

	while (line && *line) {
		const char *end = line + strcspn(line, "\n");

		if (*line == '!') {
			size_t n = (size_t)(end - line);
			const char *open = memchr(line, '(', n), *close = end;

			while (close > line && close[-1] != ')')
				close--;
			if (open && close > open + 1)
				return xstrndup(open + 1,
				    (size_t)(close - 1 - open - 1));
			return xstrndup(line + 1, (size_t)(end - line - 1));
		}
		line = *end ? end + 1 : NULL;
	}
	return NULL;
}

/* Append what the hooks printed ("remote: " lines of git's stderr). */
static void
hook_output(struct strbuf *sb, const char *err)
{
	const char *line = err;
	int lines = 0;

	while (line && *line && lines < HOOK_LINES_MAX &&
	    sb->len < HOOK_TEXT_MAX) {
		const char *end = line + strcspn(line, "\n");
		const char *p = line + 7, *q = end;

		if (!strncmp(line, "remote:", 7)) {
			while (p < q && (*p == ' ' || *p == '\t'))
				p++;
			while (q > p && (q[-1] == ' ' || q[-1] == '\r'))
				q--;
			if (q > p) {
				strbuf_addstr(sb, lines++ ? "; " : ": ");
				strbuf_add(sb, p, (size_t)(q - p));
			}
		}
		line = *end ? end + 1 : NULL;
	}
}

/* The last line git printed on stderr that is not empty, for a message. */
static char *
last_line(const char *err)
{
	const char *end = err + strlen(err), *start;

	while (end > err && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	for (start = end; start > err && start[-1] != '\n'; start--)
		;
	return end > start ? xstrndup(start, (size_t)(end - start)) :
	    xstrdup("no reason given");
}

int
bgit_push_local(struct baseline_store *bs, const char *refname,
    const git_oid *id, const git_oid *tip)
{
	const char *gitdir = git_repository_path(bs->repo);
	char *opt = xasprintf("--git-dir=%s", gitdir);
	char *lease = xasprintf("--force-with-lease=%s:%s", refname,
	    git_oid_is_zero(tip) ? "" : git_oid_tostr_s(tip));
	char *spec = xasprintf("%s:%s", git_oid_tostr_s(id), refname);
	const char *argv[] = { "git", opt, "push", "--porcelain",
	    "--no-verify", lease, gitdir, spec, NULL };
	char *objects = xasprintf("GIT_OBJECT_DIRECTORY=%sobjects", gitdir);
	/*
	 * What a hook running jankgate inherits (a quarantine's object
	 * directory, a namespace) must not send the push elsewhere; libgit2
	 * wrote the objects to the repository's own directory.
	 */
	const char *env[] = { objects, "GIT_ALTERNATE_OBJECT_DIRECTORIES=",
	    "GIT_NAMESPACE=", NULL };
	struct proc_opts po = { .env = env,
	    .timeout_ms = HOOK_PUSH_TIMEOUT_MS };
	struct proc_result r;
	struct strbuf why = STRBUF_INIT;
	char *reason = NULL, *line = NULL;
	git_oid now;
	int err, moved;

	/*
	 * --no-verify: pre-push is the pushing side's hook, and the pushing
	 * side is jankgate, not the repository that receives.
	 */
	proc_result_init(&r);
	err = proc_run(&r, argv, &po);
	if (err == JG_ETIMEOUT) {
		err = fail(bs, JG_ETIMEOUT, "git push to '%s' ran for more "
		    "than %d s (does its %s hook hang?)", bs->name,
		    HOOK_PUSH_TIMEOUT_MS / 1000, bs->hook);
		goto out;
	}
	if (err == JG_EINTR) {
		/* Stopped by a cancel: did receive-pack move the branch? */
		moved = git_reference_name_to_id(&now, bs->repo,
		    refname) == 0 && git_oid_equal(&now, id);
		git_error_clear();
		err = moved ? STEP_DONE : fail(bs, JG_EINTR, "interrupted: "
		    "the push to '%s' was stopped, nothing recorded",
		    bs->name);
		goto out;
	}
	if (err < 0) {
		jg_error_prefix("cannot push to '%s' with git", bs->name);
		goto out;
	}
	if (r.exit_code == 0) {
		err = STEP_DONE;
		goto out;
	}
	reason = refused_reason(r.out.buf);
	if (!reason) {
		line = last_line(r.err.buf);
		err = fail(bs, JG_EIO, "cannot push to '%s' with git: %s",
		    bs->name, line);
		goto out;
	}
	/* A refusal because another writer moved the branch: build again. */
	moved = git_reference_name_to_id(&now, bs->repo, refname) == 0 ?
	    !git_oid_equal(&now, tip) : !git_oid_is_zero(tip);
	git_error_clear();
	if (moved && !strstr(reason, "hook declined")) {
		err = STEP_RACED;
		goto out;
	}
	strbuf_addstr(&why, reason);
	hook_output(&why, r.err.buf);
	err = fail(bs, JG_EIO, "push to '%s' refused: %s", bs->name, why.buf);
out:
	proc_result_release(&r);
	strbuf_release(&why);
	free(reason);
	free(line);
	free(spec);
	free(lease);
	free(opt);
	free(objects);
	return err;
}
