/*
 * commit_range.h: the commits of an application's repository between a
 * good and a bad one, as `jankgate bisect --repo PATH --range GOOD..BAD`
 * walks them (libgit2, read only; the baseline store is another
 * repository).
 */
#ifndef JG_COMMIT_RANGE_H
#define JG_COMMIT_RANGE_H

#include <stddef.h>

struct range_commit {
	char id[41];		/* full hex id */
	char *subject;		/* the message's first line */
	char *author;		/* "Name <email>" */
};

/*
 * The first-parent history of BAD back to GOOD, oldest first, GOOD
 * included as the first and BAD as the last, from the repository at
 * `repo` (a work tree or a bare repository); `range` is "GOOD..BAD",
 * each side anything git rev-parse takes.  *out is the caller's
 * (range_commits_free()).  Returns 0; JG_EINVAL for a range that is not
 * GOOD..BAD or whose GOOD is not on BAD's first-parent history;
 * JG_ENOTFOUND for a repository or revision that does not exist.
 */
int range_commits_read(struct range_commit **out, size_t *nr,
    const char *repo, const char *range);

void range_commits_free(struct range_commit *c, size_t nr);

#endif
