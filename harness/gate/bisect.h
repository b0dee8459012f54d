/*
 * bisect.h: `jankgate bisect`, from a failed night to the build that
 * caused it, on the same phones.
 *
 * The builds are an ordered list (bisect_state.h): a manifest, a
 * directory of APKs, or the first-parent commits of a repository with a
 * command that builds each one.  Each step is an interleaved A/B
 * (gate_ab.c: ABBA blocks, its statistics, its rounds) of the last build
 * known good (A) against a candidate (B), of the scenarios the targets
 * name, judged on the targets alone (bisect_judge()): a targeted
 * regression makes the candidate bad, every targeted entry passing makes
 * it good, and a step still undecided after its rounds makes it
 * untestable rather than guessing.  The state is written to
 * OUT/bisect.json after every step, each step's A/B under OUT/step-N/
 * (with its own report), and the bisect's report under OUT/.
 */
#ifndef JG_BISECT_H
#define JG_BISECT_H

#include <stdbool.h>
#include <stdio.h>

#include "bisect_state.h"
#include "config.h"
#include "run.h"
#include "strlist.h"

struct comparison;
struct strbuf;

struct bisect_opts {
	const struct config *cfg;	/* borrowed; required */
	struct strlist serials;	/* -s; empty: the config's, else all */
	struct strlist connect;	/* --connect */
	const char *out_dir;	/* NULL: cfg->out_dir */
	int ab_block;		/* iterations a block; 0: ab's choice */
	int ab_rounds;		/* most rounds a step; 0: GATE_AB_ROUNDS */
	enum config_mail_when mail_when;	/* default: mail.when */
	enum run_progress_mode progress;
	FILE *progress_fp;
	void (*note)(void *data, const char *line);
	void *note_data;
};

void bisect_opts_init(struct bisect_opts *o, const struct config *cfg);
void bisect_opts_release(struct bisect_opts *o);

struct bisect_outcome {
	enum bisect_next result;	/* CULPRIT, NONE or UNDECIDED when
					   the search ended; STEP: it did not */
	size_t good, candidate;	/* bisect_next()'s, at the end */
	int status;		/* the exit status */
	struct strlist errors;	/* what failed, one line each */
	char *report;		/* OUT/report.html written, or NULL */
	char *mail_note;	/* "sent to ...", or why not; NULL: none */
	bool interrupted;
};

void bisect_outcome_init(struct bisect_outcome *out);
void bisect_outcome_release(struct bisect_outcome *out);

/*
 * The path of the state file in `out_dir` (OUT/bisect.json), the
 * caller's to free.
 */
char *bisect_state_path(const char *out_dir);

/*
 * Run the bisect over `st` (a new state, or one read back to resume)
 * until it ends or is stopped (run_interrupt()), writing the state after
 * every step and the report at the end.  Returns the exit status, also
 * in out->status: 0 a culprit or no culprit, 4 undecided, 3 the phones,
 * the build command of the good or bad build, or an interrupt, 2 an
 * endpoint that is no APK of the app.
 */
int bisect_execute(struct bisect_state *st, const struct bisect_opts *o,
    struct bisect_outcome *out);

/*
 * bisect_mail.c: mail the bisect's outcome as mail.when (`when`) says, a
 * culprit counting as a regression, through the report mail of gate
 * (OUT/mail/ holds what is sent).  What became of it goes to `note`.
 * Returns 0 (also when nothing was to be sent), or the error of writing
 * the mail's files or of SMTP (mail_send_report()).
 */
int bisect_mail(struct strbuf *note, const struct bisect_state *st,
    const struct config *cfg, enum config_mail_when when,
    enum bisect_next result, size_t good, size_t candidate,
    const char *out_dir);

/*
 * bisect_judge.c: what a step's comparisons (one per device key) say of
 * the candidate on `targets` (bisect_state.h): BISECT_BAD when a
 * targeted entry or block is a regression, BISECT_GOOD when every
 * targeted one is settled and none regressed, else BISECT_UNTESTED (not
 * decided yet).  One line per targeted regression (and then per new or
 * worse block of a targeted scene that did not regress), or per
 * undecided entry, goes to `evidence` when not NULL.
 */
enum bisect_mark bisect_judge(const struct comparison *const *cmps,
    size_t nr, const struct strlist *targets, struct strlist *evidence);

/*
 * Whether a target (`targets`, a struct strlist) names any metric of
 * scenario/scene (scene NULL: the launch, "-"); every scene when there
 * are no targets.  The step's results are cut to these scenes before
 * they are compared (results_keep_scenes()), so the correction's family
 * is the targets' scenes, not every scene of their scenarios.
 */
bool bisect_targeted(const char *scenario, const char *scene,
    void *targets);

/*
 * The scenarios of `c` whose targeted entries or blocks are still
 * undecided, each once, appended to `out`.
 */
void bisect_undecided(struct strlist *out, const struct comparison *c,
    const struct strlist *targets);

/*
 * The targets a failed night's comparison.json at `path` names: its
 * regressions as "SCENARIO/SCENE METRIC" ("-" for a scenario's launch
 * metrics' scene), its regressed blocks as "SCENARIO/SCENE block",
 * appended to `out` each once.  Returns 0, JG_EINVAL when the file holds
 * no regression, or comparison_read()'s error.
 */
int bisect_targets_from(struct strlist *out, const char *path);

/*
 * bisect_builds.c: the list of builds.  Each appends to st (empty) and
 * sets st->source; `good` and `bad` (NULL: the first and the last) cut
 * the list to the builds from good to bad.  0, or JG_EINVAL / JG_EIO /
 * JG_ENOTFOUND with a message naming the file and line.
 */
/* A manifest: "ID APK" a line, oldest first; `#` comments. */
int bisect_list_manifest(struct bisect_state *st, const char *path,
    const char *good, const char *bad);
/* A directory's *.apk files in version order, ids their names. */
int bisect_list_dir(struct bisect_state *st, const char *dir,
    const char *good, const char *bad);
/* A repository's first-parent GOOD..BAD, with subjects and authors. */
int bisect_list_repo(struct bisect_state *st, const char *repo,
    const char *range);

/*
 * Where a bisect's builds come from, as `bisect`'s options or the
 * bisect.* keys name them: exactly one of manifest, builds (a directory)
 * and repo (with build, the command, and range "GOOD..BAD" or good and
 * bad); good and bad cut a manifest or directory (NULL: its ends).
 */
struct bisect_source {
	const char *manifest, *builds, *repo;
	const char *range, *good, *bad, *build;
};

/*
 * The list of builds `src` names, as a new state whose first build is
 * marked good, in *out (the caller's; NULL on error).  Returns 0, or
 * bisect_list_*()'s error.
 */
int bisect_state_from(struct bisect_state **out,
    const struct bisect_source *src);

/* How long one download of a build listed by URL may take (seconds). */
#define BISECT_FETCH_TIMEOUT 600L

/*
 * Make sure build `i` has an APK: a listed file must be readable; a URL
 * is downloaded to dir/builds/ID.apk (kept there for --resume), retried
 * once, and the build's APK becomes that file; with
 * st->build_cmd, the command is run in st->repo (or the current
 * directory) with {commit} replaced by the id, its stdout's last line the
 * APK (relative to the directory it ran in), retried once when it fails.
 * Returns 0; 1 with the reason in the build's `why` (not marked); or
 * JG_EINTR when a cancel (cancel.h) stopped the command, which says
 * nothing of the build.  `dir` NULL: the current directory.
 */
int bisect_build(struct bisect_state *st, size_t i, const char *dir);

#endif
