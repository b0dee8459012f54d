/*
 * baseline_git_err.c: the store's messages (baseline_git_int.h).  Every
 * message goes through baseline_scrub(): libgit2 may quote the URL it was
 * given, and that URL may carry a user and password.
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

#include "baseline_git_int.h"
#include "baseline_store.h"
#include "error.h"
#include "strbuf.h"
#include "banned.h"

int
bgit_vfail(const struct baseline_store *bs, int code, int with,
    const char *fmt, va_list ap)
{
	const git_error *ge = git_error_last();
	struct strbuf raw = STRBUF_INIT, clean = STRBUF_INIT;

	strbuf_vaddf(&raw, fmt, ap);
	if ((with & FAIL_GIT) && ge && ge->message && *ge->message) {
		strbuf_addf(&raw, ": %s", ge->message);
		strbuf_rtrim(&raw);
	}
	/* A network repository is read from its cache: fsck that. */
	if (with & FAIL_FSCK)
		strbuf_addf(&raw, " (the repository is damaged: run 'git "
		    "fsck' in '%s')", !bs ? "it" : bs->url && bs->repo ?
		    git_repository_path(bs->repo) : bs->name);
	baseline_scrub(&clean, raw.buf, bs ? bs->token : NULL);
	jg_error_set(code, "%s", clean.buf);
	strbuf_release(&raw);
	strbuf_release(&clean);
	git_error_clear();
	return code;
}

void
bgit_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
