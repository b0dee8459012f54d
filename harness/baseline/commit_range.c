/*
 * commit_range.c: GOOD..BAD on the first-parent line (commit_range.h).
 *
 * A bisect over the first-parent line tests the commits that were the
 * branch's tip one after the other: each merge counts once, as the build
 * a nightly job would have made of it.  The walk goes from BAD along the
 * first parents until it meets GOOD; reaching a root first means GOOD is
 * not on that line, which is refused rather than bisected over a range
 * that never held it.
 */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "commit_range.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Refuse with libgit2's own message appended. */
static int
fail_git(int code, const char *fmt, const char *arg)
{
	const git_error *ge = git_error_last();

	if (ge && ge->message && *ge->message)
		jg_error_set(code, "%s: %s", fmt, ge->message);
	else
		jg_error_set(code, "%s", fmt);
	jg_error_prefix("'%s': ", arg);
	git_error_clear();
	return code;
}

/* The commit `spec` names in `repo`, peeled. */
static int
resolve(git_oid *out, git_repository *repo, const char *spec)
{
	git_object *obj = NULL, *peeled = NULL;
	int rc;

	if (git_revparse_single(&obj, repo, spec))
		return fail_git(JG_ENOTFOUND, "no such revision", spec);
	rc = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (rc)
		return fail_git(JG_EINVAL, "not a commit", spec);
	git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	return 0;
}

static void
fill(struct range_commit *rc, const git_commit *c)
{
	const git_signature *a = git_commit_author(c);
	const char *msg = git_commit_message(c);
	size_t n = msg ? strcspn(msg, "\n") : 0;

	git_oid_tostr(rc->id, sizeof(rc->id), git_commit_id(c));
	rc->subject = xstrndup(msg ? msg : "", n);
	rc->author = a ? xasprintf("%s <%s>", a->name, a->email) :
	    xstrdup("");
}

void
range_commits_free(struct range_commit *c, size_t nr)
{
	for (size_t i = 0; c && i < nr; i++) {
		free(c[i].subject);
		free(c[i].author);
	}
	free(c);
}

int
range_commits_read(struct range_commit **out, size_t *nr, const char *repo,
    const char *range)
{
	const char *dots = strstr(range, "..");
	git_repository *r = NULL;
	git_commit *c = NULL;
	git_oid good, bad;
	struct range_commit *list = NULL;
	size_t n = 0;
	char *good_spec;
	int rc = 0;

	*out = NULL;
	*nr = 0;
	if (!dots || dots == range || !dots[2] || dots[2] == '.')
		return jg_error_set(JG_EINVAL, "range '%s': expected "
		    "GOOD..BAD", range);
	good_spec = xstrndup(range, (size_t)(dots - range));
	git_libgit2_init();
	if (git_repository_open_ext(&r, repo, GIT_REPOSITORY_OPEN_NO_SEARCH,
	    NULL)) {
		rc = fail_git(JG_ENOTFOUND, "not a git repository", repo);
		goto out;
	}
	if ((rc = resolve(&good, r, good_spec)) ||
	    (rc = resolve(&bad, r, dots + 2)))
		goto out;
	if (git_commit_lookup(&c, r, &bad)) {
		rc = fail_git(JG_ENOTFOUND, "cannot read the commit",
		    dots + 2);
		goto out;
	}
	for (;;) {
		git_commit *parent = NULL;

		list = xreallocarray(list, n + 1, sizeof(*list));
		fill(&list[n++], c);
		if (git_oid_equal(git_commit_id(c), &good))
			break;
		if (!git_commit_parentcount(c)) {
			rc = jg_error_set(JG_EINVAL, "range '%s': %s is not on "
			    "the first-parent history of %s", range,
			    good_spec, dots + 2);
			goto out;
		}
		if (git_commit_parent(&parent, c, 0)) {
			rc = fail_git(JG_ENOTFOUND, "cannot read a parent",
			    list[n - 1].id);
			goto out;
		}
		git_commit_free(c);
		c = parent;
	}
	if (n < 2) {
		rc = jg_error_set(JG_EINVAL, "range '%s': GOOD and BAD are the "
		    "same commit", range);
		goto out;
	}
	/* Oldest first. */
	for (size_t i = 0; i < n / 2; i++) {
		struct range_commit t = list[i];

		list[i] = list[n - 1 - i];
		list[n - 1 - i] = t;
	}
	*out = list;
	*nr = n;
	list = NULL;
	n = 0;
out:
	range_commits_free(list, n);
	git_commit_free(c);
	git_repository_free(r);
	git_libgit2_shutdown();
	free(good_spec);
	return rc;
}
