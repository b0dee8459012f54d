/*
 * test_baseline_store.c: the git baseline store, against real repositories.
 *
 * Repositories are made with the git command line in unit_tmpdir() and the
 * results are checked with it too, so "plain git can read it" is tested by
 * plain git.  Network remotes are served by `git daemon` on a loopback port
 * (started once per group, stopped by its process group id in teardown); a
 * tiny HTTP server thread that always answers 401 stands in for an https
 * host that refuses a token.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "cancel.h"
#include "baseline_store.h"
#include "error.h"
#include "fileio.h"
#include "proc.h"
#include "strbuf.h"
#include "xalloc.h"

/*
 * libgit2 1.5's ssh transport leaks a few bytes on every connection (in
 * its stripped known-hosts and auth-list code, so no suppression can name
 * it).  Under LeakSanitizer the ssh calls run with leak tracking paused;
 * ASan still checks them for memory errors.
 */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define SSH_LEAKS_IGNORED_BEGIN() __lsan_disable()
#define SSH_LEAKS_IGNORED_END() __lsan_enable()
#else
#define SSH_LEAKS_IGNORED_BEGIN() ((void)0)
#define SSH_LEAKS_IGNORED_END() ((void)0)
#endif

#define PKG "com.example.app"
#define DEV_A "google-pixel-7-api34-90hz"
#define DEV_B "samsung-s21-api33-120hz"
#define TOKEN "jg-T0ken-s3cret"

static pid_t daemon_pid;
static int daemon_port;
static char *daemon_base;
static pid_t sshd_pid;
static int sshd_port;
static char *sshd_dir;

/* A path under this process's temp dir; a fresh name per call. */
static char *
tmp(const char *name)
{
	static int seq;

	return xasprintf("%s/%s-%d", unit_tmpdir(), name, ++seq);
}

/* Run git in `dir`, assert it succeeded, return its stdout (to free). */
static char *
git(const char *dir, ...)
{
	const char *argv[32] = { "git", "-C", dir };
	struct proc_result r;
	va_list ap;
	char *out;
	int n = 3;

	va_start(ap, dir);
	while ((argv[n] = va_arg(ap, const char *)) && n < 30)
		n++;
	va_end(ap);
	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, NULL), 0);
	if (r.exit_code != 0)
		fail_msg("git %s: %s", argv[3], r.err.buf);
	out = strbuf_detach(&r.out, NULL);
	proc_result_release(&r);
	return out;
}

static char *
new_bare_repo(const char *name)
{
	char *path = tmp(name);

	free(git(unit_tmpdir(), "-c", "init.defaultBranch=main", "init",
	    "-q", "--bare", path, NULL));
	return path;
}

/* A small results file that names its run, so versions can be told apart. */
static char *
results(const char *run)
{
	return xasprintf("{\n  \"schema\": \"jankgate.results/1\",\n"
	    "  \"run\": { \"id\": \"%s\" }\n}\n", run);
}

static struct baseline_store *
open_store(const char *repo, int create)
{
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;

	o.repo = repo;
	o.create = create;
	if (baseline_store_open(&bs, &o) < 0)
		fail_msg("open '%s': %s", repo, jg_error_msg());
	return bs;
}

static void
record(struct baseline_store *bs, const char *dev, const char *run,
    char id[BASELINE_OID_HEXSZ + 1])
{
	struct baseline_commit_info info = { "1.4.2", run, "pass", NULL,
	    NULL, NULL };
	char *data = results(run);
	char tmpid[BASELINE_OID_HEXSZ + 1];

	if (baseline_store_record(id ? id : tmpid, bs, "main", PKG, dev, data,
	    strlen(data), &info) < 0)
		fail_msg("record %s %s: %s", dev, run, jg_error_msg());
	free(data);
}

/* The run ids of a history, newest first, as "r3 r2 r1". */
static char *
runs_of(const struct baseline_entry *e, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", e[i].run_id);
	return strbuf_detach(&sb, NULL);
}

static void
assert_history(struct baseline_store *bs, const char *ref, const char *dev,
    size_t max, const char *want)
{
	struct baseline_entry *e;
	size_t nr;
	char *got;

	if (baseline_store_history(&e, &nr, bs, ref, PKG, dev, max) < 0)
		fail_msg("history: %s", jg_error_msg());
	got = runs_of(e, nr);
	assert_string_equal(got, want);
	for (size_t i = 0; i < nr; i++) {
		char *data = results(e[i].run_id);

		assert_int_equal(e[i].len, strlen(data));
		assert_memory_equal(e[i].data, data, e[i].len);
		free(data);
	}
	free(got);
	baseline_entries_free(e, nr);
}

#define KEY_A "refs/jankgate/keys/main/" PKG "/" DEV_A

/*
 * `git log` of `ref` (a branch with `path`, or a key ref) as "<branch
 * commit> <subject>" lines: for a key ref, its Jankgate-Commit trailer.
 */
static char *
key_log(const char *repo, const char *ref, const char *path)
{
	if (path)
		return git(repo, "log", "--first-parent", "--format=%H %s",
		    ref, "--", path, NULL);
	return git(repo, "log", "--format=%(trailers:key=Jankgate-Commit,"
	    "valueonly,separator=) %s", ref, NULL);
}

/* ---- rules without a repository ---- */

/* Only one safe path component is accepted as a package or device key. */
static void
path_accepts_only_safe_components(void **state)
{
	static const char *bad[] = { "", ".git", "..", "-rf", "a/b", "a b",
	    "a\\b", "a\nb", "caf\xc3\xa9", "x:y" };
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(baseline_path(&sb, PKG, DEV_A), 0);
	assert_string_equal(sb.buf, PKG "/" DEV_A "/results.json");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&sb);
		assert_int_equal(baseline_path(&sb, PKG, bad[i]), JG_EINVAL);
		assert_int_equal(baseline_path(&sb, bad[i], DEV_A), JG_EINVAL);
	}
	strbuf_release(&sb);
}


/* A recorded run's message parses back to the fields it was made from. */
static void
message_round_trips(void **state)
{
	struct baseline_commit_info info = { "1.4.2", "r42", "pass", NULL,
	    NULL, NULL };
	struct baseline_entry *e = xcalloc(1, sizeof(*e));
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(baseline_message_format(&sb, PKG, DEV_A, &info), 0);
	assert_string_equal(sb.buf, "baseline " PKG " 1.4.2 on " DEV_A
	    ": pass (run r42)\n\nJankgate-Run: r42\nJankgate-Verdict: pass\n"
	    "Jankgate-App-Version: 1.4.2\n");
	baseline_message_parse(e, sb.buf);
	assert_string_equal(e->subject, "baseline " PKG " 1.4.2 on " DEV_A
	    ": pass (run r42)");
	assert_string_equal(e->run_id, "r42");
	assert_string_equal(e->verdict, "pass");
	assert_string_equal(e->app_version, "1.4.2");
	assert_null(e->reason);
	assert_null(e->accepted_by);
	assert_null(e->build_id);
	baseline_entries_free(e, 1);
	strbuf_release(&sb);
}

/*
 * A run's build id is a trailer of its own, which parses back; a run
 * without one has none (message_round_trips) and a build id that is no
 * one line is refused like any other field.
 */
static void
message_keeps_build_id(void **state)
{
	struct baseline_commit_info info = { "1.4.2", "r42", "pass", NULL,
	    NULL, "9f2c1e7" };
	struct baseline_entry *e = xcalloc(1, sizeof(*e));
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(baseline_message_format(&sb, PKG, DEV_A, &info), 0);
	assert_string_equal(sb.buf, "baseline " PKG " 1.4.2 on " DEV_A
	    ": pass (run r42)\n\nJankgate-Run: r42\nJankgate-Verdict: pass\n"
	    "Jankgate-App-Version: 1.4.2\nJankgate-Build: 9f2c1e7\n");
	baseline_message_parse(e, sb.buf);
	assert_string_equal(e->build_id, "9f2c1e7");
	assert_string_equal(e->app_version, "1.4.2");
	baseline_entries_free(e, 1);
	strbuf_reset(&sb);
	info.build_id = "9f2c1e7\nJankgate-Verdict: pass";
	assert_int_equal(baseline_message_format(&sb, PKG, DEV_A, &info),
	    JG_EINVAL);
	strbuf_release(&sb);
}

/* An acceptance carries its reason paragraphs and who accepted it. */
static void
accept_message_keeps_reason(void **state)
{
	struct baseline_commit_info info = { "2.0", "r7", "regression",
	    "\nNew feed layout costs 2 ms per frame.\n\n"
	    "Agreed with design.\n\n",
	    "Ann <ann@example.com>", NULL };
	struct baseline_entry *e = xcalloc(1, sizeof(*e));
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(baseline_message_format(&sb, PKG, DEV_A, &info), 0);
	baseline_message_parse(e, sb.buf);
	assert_string_equal(e->subject, "accept " PKG " 2.0 on " DEV_A
	    ": regression (run r7)");
	assert_string_equal(e->reason, "New feed layout costs 2 ms per "
	    "frame.\n\nAgreed with design.");
	assert_string_equal(e->accepted_by, "Ann <ann@example.com>");
	assert_string_equal(e->verdict, "regression");
	baseline_entries_free(e, 1);
	strbuf_release(&sb);
}

/* Missing fields, line breaks in one-line fields and empty reasons fail. */
static void
message_rejects_bad_fields(void **state)
{
	static const struct baseline_commit_info bad[] = {
		{ NULL, "r1", "pass", NULL, NULL, NULL },
		{ "1.0", "", "pass", NULL, NULL, NULL },
		{ "1.0", "r1\nJankgate-Verdict: pass", "pass", NULL, NULL, NULL },
		{ "1.0", "r1", "pass\r", NULL, NULL, NULL },
		{ "1.0", "r1", " pass", NULL, NULL, NULL },
		{ "1.0", "r1", "pass", " \n\t\n", "me", NULL },
		{ "1.0", "r1", "pass", "ok", NULL, NULL },
		{ "1.0", "r1", "pass", "bell \a", "me", NULL },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&sb);
		assert_int_equal(baseline_message_format(&sb, PKG, DEV_A,
		    &bad[i]), JG_EINVAL);
		assert_int_equal(sb.len, 0);
	}
	strbuf_release(&sb);
}

/* A message made by hand parses to its subject and body, no trailers. */
static void
foreign_message_parses(void **state)
{
	struct baseline_entry *e = xcalloc(2, sizeof(*e));

	baseline_message_parse(&e[0], "Import old baselines\n");
	assert_string_equal(e[0].subject, "Import old baselines");
	assert_null(e[0].reason);
	assert_null(e[0].run_id);
	baseline_message_parse(&e[1], "Fix\n\nSee: the wiki\nand more\n");
	assert_string_equal(e[1].reason, "See: the wiki\nand more");
	assert_null(e[1].run_id);
	baseline_entries_free(e, 2);
}

/* The light content check knows a results file from anything else. */
static void
content_check_tells_results_files(void **state)
{
	static const struct {
		const char *data;
		int ok;
		const char *says;
	} cases[] = {
		{ "{\"schema\":\"jankgate.results/1\"}", 1, NULL },
		{ "\xef\xbb\xbf \n{ \"run\": {}, \"schema\" : "
		  "\"jankgate.results/2\" }", 1, NULL },
		{ "", 0, "not a JSON object" },
		{ "[1, 2]", 0, "not a JSON object" },
		{ "<html>", 0, "not a JSON object" },
		{ "{\"run\": {}}", 0, "no \"schema\"" },
		{ "{\"schema\": 3}", 0, "not a string" },
		{ "{\"schema\": \"jankgate.comparison/1\"}", 0,
		  "schema 'jankgate.comparison/1'" },
		{ "{\"schema\": \"jankgate.results/", 0, "schema" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err = baseline_content_check(cases[i].data,
		    strlen(cases[i].data), "'x.json'");

		assert_int_equal(err, cases[i].ok ? 0 : JG_EINVAL);
		if (!cases[i].ok) {
			assert_non_null(strstr(jg_error_msg(), "'x.json'"));
			assert_non_null(strstr(jg_error_msg(), cases[i].says));
		}
	}
}

/* Userinfo and the secret vanish from messages; the rest stays. */
static void
scrub_removes_userinfo_and_secret(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "https://u:" TOKEN "@host/x.git", "https://host/x.git" },
		{ "cannot fetch 'ssh://git@h:22/r': refused",
		  "cannot fetch 'ssh://h:22/r': refused" },
		{ "http://a@b@host:8080/p?q", "http://host:8080/p?q" },
		{ "https://host/a@b", "https://host/a@b" },
		{ "token " TOKEN " leaked twice: " TOKEN,
		  "token *** leaked twice: ***" },
		{ "git@example.com:org/r.git", "git@example.com:org/r.git" },
		{ "nothing to see", "nothing to see" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		baseline_scrub(&sb, cases[i].in, TOKEN);
		assert_string_equal(sb.buf, cases[i].out);
		strbuf_release(&sb);
	}
}

/* ---- local repositories ---- */

/*
 * Records for two devices are plain git: one commit per run touching one
 * file, the subject and trailers git itself parses, a clean fsck, and the
 * history of each device newest first.
 */
static void
records_are_plain_git_history(void **state)
{
	char *repo = new_bare_repo("plain.git");
	struct baseline_store *bs = open_store(repo, 0);
	char *out, *want;

	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_B, "b1", NULL);
	record(bs, DEV_A, "a2", NULL);
	record(bs, DEV_A, "a3", NULL);
	record(bs, DEV_B, "b2", NULL);

	out = git(repo, "log", "--format=%s|%(trailers:key=Jankgate-Run,"
	    "valueonly,separator=)|%(trailers:key=Jankgate-Verdict,valueonly,"
	    "separator=)", "main", "--", PKG "/" DEV_A "/results.json", NULL);
	assert_string_equal(out,
	    "baseline " PKG " 1.4.2 on " DEV_A ": pass (run a3)|a3|pass\n"
	    "baseline " PKG " 1.4.2 on " DEV_A ": pass (run a2)|a2|pass\n"
	    "baseline " PKG " 1.4.2 on " DEV_A ": pass (run a1)|a1|pass\n");
	free(out);
	out = git(repo, "show", "main:" PKG "/" DEV_B "/results.json", NULL);
	want = results("b2");
	assert_string_equal(out, want);
	free(want);
	free(out);
	out = git(repo, "rev-list", "--count", "main", NULL);
	assert_string_equal(out, "5\n");
	free(out);
	free(git(repo, "fsck", "--strict", "--no-progress", NULL));

	assert_history(bs, "main", DEV_A, 0, "a3 a2 a1");
	assert_history(bs, "main", DEV_A, 2, "a3 a2");
	assert_history(bs, "refs/heads/main", DEV_B, 5, "b2 b1");
	baseline_store_free(bs);
	free(repo);
}

/* A tag at an older commit gives exactly the runs under it. */
static void
history_at_tag_stops_there(void **state)
{
	char *repo = new_bare_repo("tags.git");
	struct baseline_store *bs = open_store(repo, 0);
	char id[BASELINE_OID_HEXSZ + 1];

	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_A, "a2", id);
	free(git(repo, "tag", "v1.0", id, NULL));
	free(git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com",
	    "tag", "-a", "-m", "release", "v1.0-annotated", id, NULL));
	record(bs, DEV_A, "a3", NULL);
	record(bs, DEV_B, "b1", NULL);

	assert_history(bs, "main", DEV_A, 0, "a3 a2 a1");
	assert_history(bs, "v1.0", DEV_A, 0, "a2 a1");
	assert_history(bs, "v1.0-annotated", DEV_A, 1, "a2");
	assert_history(bs, id, DEV_A, 0, "a2 a1");
	assert_history(bs, "v1.0", DEV_B, 0, "");
	baseline_store_free(bs);
	free(repo);
}

/* No version of a device key is "no baseline yet", not an error. */
static void
no_baseline_yet_is_empty(void **state)
{
	char *repo = new_bare_repo("empty.git");
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_entry *e;
	size_t nr = 99;

	/* An empty repository has no ref at all, not even the asked one. */
	assert_int_equal(baseline_store_history(&e, &nr, bs, "main", PKG,
	    DEV_A, 5), 0);
	assert_int_equal(nr, 0);
	assert_null(e);
	assert_int_equal(baseline_store_log(&e, &nr, bs, "main", NULL, NULL,
	    0), 0);
	assert_int_equal(nr, 0);
	record(bs, DEV_A, "a1", NULL);
	assert_int_equal(baseline_store_history(&e, &nr, bs, "main", PKG,
	    DEV_B, 5), 0);
	assert_int_equal(nr, 0);
	assert_int_equal(baseline_store_history(&e, &nr, bs, "main",
	    "org.other", DEV_A, 5), 0);
	assert_int_equal(nr, 0);
	baseline_store_free(bs);
	free(repo);
}

/* An unknown ref is JG_ENOTFOUND, and the message says what exists. */
static void
unknown_ref_lists_refs(void **state)
{
	char *repo = new_bare_repo("refs.git");
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_entry *e;
	size_t nr;

	record(bs, DEV_A, "a1", NULL);
	free(git(repo, "tag", "v1.0", "main", NULL));
	assert_int_equal(baseline_store_history(&e, &nr, bs, "release-9",
	    PKG, DEV_A, 5), JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "ref 'release-9' not found"));
	assert_non_null(strstr(jg_error_msg(), "main, v1.0"));
	assert_non_null(strstr(jg_error_msg(), "git fetch"));
	assert_int_equal(baseline_store_show(&e, &nr, bs, "nope~1", NULL,
	    NULL), JG_ENOTFOUND);
	baseline_store_free(bs);
	free(repo);
}

/*
 * A missing repository is JG_ENOTFOUND, as a path or a file:// URL, unless
 * it may be created; a created one is bare and shows the recorded branch.
 */
static void
missing_repository(void **state)
{
	char *path = tmp("missing.git"), *url = xasprintf("file://%s", path);
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs = NULL;
	char *out;

	o.repo = path;
	assert_int_equal(baseline_store_open(&bs, &o), JG_ENOTFOUND);
	assert_null(bs);
	assert_non_null(strstr(jg_error_msg(), path));
	assert_non_null(strstr(jg_error_msg(), "does not exist"));
	o.repo = url;
	assert_int_equal(baseline_store_open(&bs, &o), JG_ENOTFOUND);
	o.repo = unit_tmpdir();
	assert_int_equal(baseline_store_open(&bs, &o), JG_ENOTFOUND);
	assert_non_null(strstr(jg_error_msg(), "not a git repository"));

	bs = open_store(url, 1);
	record(bs, DEV_A, "a1", NULL);
	baseline_store_free(bs);
	out = git(path, "rev-parse", "--is-bare-repository", NULL);
	assert_string_equal(out, "true\n");
	free(out);
	out = git(path, "log", "--format=%(trailers:key=Jankgate-Run,"
	    "valueonly,separator=)", NULL);
	assert_string_equal(out, "a1\n");
	free(out);
	free(url);
	free(path);
}

/* A non-bare repository: a commit by git, then ours; files stay as they are. */
static char *
worktree_repo(void)
{
	char *dir = tmp("work");
	char *file;

	free(git(unit_tmpdir(), "-c", "init.defaultBranch=main", "init", "-q",
	    dir, NULL));
	file = xasprintf("%s/README", dir);
	assert_int_equal(file_write_atomic(file, "hi\n", 3, 0644), 0);
	free(git(dir, "add", "README", NULL));
	free(git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com",
	    "commit", "-q", "-m", "start", NULL));
	free(file);
	return dir;
}

/* Commit by hand with git: `path` holds `data` (or is a directory). */
static void
git_commit_file(const char *dir, const char *path, const char *data,
    int as_dir)
{
	char *full = xasprintf("%s/%s%s", dir, path, as_dir ? "/x" : "");
	char *parent = xstrdup(full);

	*strrchr(parent, '/') = '\0';
	assert_int_equal(file_mkdirs(parent, 0777), 0);
	assert_int_equal(file_write_atomic(full, data, strlen(data), 0644), 0);
	free(git(dir, "add", "-A", NULL));
	free(git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com",
	    "commit", "-q", "-m", "by hand", NULL));
	free(parent);
	free(full);
}

/*
 * Foreign things at the path are JG_EINVAL naming the path: a directory
 * called results.json, a file that is not JSON, another schema; record
 * refuses to replace them and refuses to store such data itself.
 */
static void
foreign_files_are_invalid(void **state)
{
	char *dir = worktree_repo();
	struct baseline_store *bs = open_store(dir, 0);
	struct baseline_commit_info info = { "1", "r1", "pass", NULL, NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1];
	struct baseline_entry *e;
	size_t nr;

	git_commit_file(dir, PKG "/" DEV_A "/results.json", "x", 1);
	git_commit_file(dir, PKG "/" DEV_B "/results.json", "<html>", 0);
	git_commit_file(dir, "org.other/" DEV_A "/results.json",
	    "{\"schema\": \"jankgate.comparison/1\"}", 0);

	assert_int_equal(baseline_store_history(&e, &nr, bs, "main", PKG,
	    DEV_A, 5), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), PKG "/" DEV_A
	    "/results.json'"));
	assert_non_null(strstr(jg_error_msg(), "is a directory"));
	assert_int_equal(baseline_store_history(&e, &nr, bs, "main", PKG,
	    DEV_B, 5), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "not a JSON object"));
	assert_int_equal(baseline_store_history(&e, &nr, bs, "main",
	    "org.other", DEV_A, 5), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "jankgate.comparison/1"));
	assert_int_equal(baseline_store_show(&e, &nr, bs, "main", NULL, NULL),
	    JG_EINVAL);

	assert_int_equal(baseline_store_record(id, bs, "main", PKG, DEV_B,
	    "{\"schema\":\"jankgate.results/1\"}", 31, &info), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "refusing to replace"));
	assert_int_equal(baseline_store_record(id, bs, "main", "org.new",
	    DEV_A, "{}", 2, &info), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "the run to record"));
	assert_int_equal(baseline_store_record(id, bs, "v1", PKG, DEV_A,
	    "{}", 2, &info), JG_EINVAL);
	baseline_store_free(bs);
	free(dir);
}

/*
 * In a repository with a working tree the branch moves but the files on
 * disk stay as they were, and git's own commit comes first in history.
 */
static void
worktree_is_not_touched(void **state)
{
	char *dir = worktree_repo();
	struct baseline_store *bs = open_store(dir, 0);
	char *out, *pkgdir = xasprintf("%s/%s", dir, PKG);

	record(bs, DEV_A, "a1", NULL);
	assert_int_equal(file_exists(pkgdir), 0);
	out = git(dir, "log", "--format=%s", "main", NULL);
	assert_string_equal(out, "baseline " PKG " 1.4.2 on " DEV_A
	    ": pass (run a1)\nstart\n");
	free(out);
	assert_history(bs, "main", DEV_A, 0, "a1");
	baseline_store_free(bs);
	free(pkgdir);
	free(dir);
}

/*
 * The same device twice is two commits in order; the same bytes again are
 * no new commit at all (a retried job must not duplicate its run).
 */
static void
same_device_twice_in_order(void **state)
{
	char *repo = new_bare_repo("twice.git");
	struct baseline_store *bs = open_store(repo, 0);
	char first[BASELINE_OID_HEXSZ + 1], second[BASELINE_OID_HEXSZ + 1];
	char again[BASELINE_OID_HEXSZ + 1];
	char *out, *want;

	record(bs, DEV_A, "a1", first);
	assert_int_equal(baseline_store_attempts(bs), 1);
	record(bs, DEV_A, "a2", second);
	want = xasprintf("%s\n", first);
	out = git(repo, "rev-parse", "main^", NULL);
	assert_string_equal(out, want);
	free(out);
	free(want);
	record(bs, DEV_A, "a2", again);
	assert_string_equal(again, second);
	assert_int_equal(baseline_store_attempts(bs), 0);
	assert_history(bs, "main", DEV_A, 0, "a2 a1");
	baseline_store_free(bs);
	free(repo);
}

/* An acceptance is a commit whose log entry carries reason and acceptor. */
static void
accept_is_logged_with_reason(void **state)
{
	char *repo = new_bare_repo("accept.git");
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_commit_info info = { "2.0", "r9", "regression",
	    "Intended: new animation.", NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1];
	char *data = results("r9"), *out;
	struct baseline_entry *e;
	size_t nr;

	record(bs, DEV_A, "a1", NULL);
	assert_int_equal(baseline_store_record(id, bs, "main", PKG, DEV_A,
	    data, strlen(data), &info), 0);
	out = git(repo, "log", "-1", "--format=%s%n%(trailers:key="
	    "Jankgate-Accepted-By,valueonly,separator=)", NULL);
	assert_string_equal(out, "accept " PKG " 2.0 on " DEV_A
	    ": regression (run r9)\njankgate <jankgate@localhost>\n");
	free(out);
	assert_int_equal(baseline_store_log(&e, &nr, bs, "main", PKG, DEV_A,
	    0), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(e[0].commit, id);
	assert_string_equal(e[0].reason, "Intended: new animation.");
	assert_string_equal(e[0].accepted_by, "jankgate <jankgate@localhost>");
	assert_string_equal(e[0].app_version, "2.0");
	assert_null(e[0].data);
	assert_null(e[1].accepted_by);
	baseline_entries_free(e, nr);
	baseline_store_free(bs);
	free(data);
	free(repo);
}

/* log lists every stored version newest first, filtered and limited. */
static void
log_lists_versions(void **state)
{
	char *repo = new_bare_repo("log.git");
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_entry *e;
	size_t nr;
	char *runs;

	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_B, "b1", NULL);
	record(bs, DEV_A, "a2", NULL);
	assert_int_equal(baseline_store_log(&e, &nr, bs, "main", NULL, NULL,
	    0), 0);
	runs = runs_of(e, nr);
	assert_string_equal(runs, "a2 b1 a1");
	assert_string_equal(e[1].device_key, DEV_B);
	assert_string_equal(e[1].package, PKG);
	assert_true(e[0].time >= e[2].time);
	assert_int_equal(strlen(e[0].commit), BASELINE_OID_HEXSZ);
	free(runs);
	baseline_entries_free(e, nr);
	assert_int_equal(baseline_store_log(&e, &nr, bs, "main", NULL, DEV_B,
	    0), 0);
	assert_int_equal(nr, 1);
	baseline_entries_free(e, nr);
	assert_int_equal(baseline_store_log(&e, &nr, bs, "main", PKG, NULL,
	    2), 0);
	runs = runs_of(e, nr);
	assert_string_equal(runs, "a2 b1");
	free(runs);
	baseline_entries_free(e, nr);
	baseline_store_free(bs);
	free(repo);
}

/* show gives the files in the tree of a revision, with their contents. */
static void
show_gives_files_at_rev(void **state)
{
	char *repo = new_bare_repo("show.git");
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_entry *e;
	size_t nr;
	char *runs;

	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_B, "b1", NULL);
	record(bs, DEV_A, "a2", NULL);
	assert_int_equal(baseline_store_show(&e, &nr, bs, "main", NULL, NULL),
	    0);
	assert_int_equal(nr, 2);
	assert_string_equal(e[0].device_key, DEV_A);
	assert_non_null(strstr(e[0].data, "\"a2\""));
	assert_non_null(strstr(e[1].data, "\"b1\""));
	runs = runs_of(e, nr);	/* the metadata of the shown commit */
	assert_string_equal(runs, "a2 a2");
	free(runs);
	baseline_entries_free(e, nr);
	assert_int_equal(baseline_store_show(&e, &nr, bs, "main~1", PKG,
	    DEV_A), 0);
	assert_int_equal(nr, 1);
	assert_non_null(strstr(e[0].data, "\"a1\""));
	baseline_entries_free(e, nr);
	baseline_store_free(bs);
	free(repo);
}

struct writer {
	const char *repo;
	const char *cache;
	const char *dev;
	int runs;
	pthread_barrier_t *start;
	int err;
	char msg[256];
	int attempts;		/* summed over the runs */
};

static void *
writer_main(void *arg)
{
	struct writer *w = arg;
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;

	o.repo = w->repo;
	o.cache_dir = w->cache;
	o.push_retries = 50;
	pthread_barrier_wait(w->start);
	if ((w->err = baseline_store_open(&bs, &o)) < 0)
		goto out;
	for (int i = 1; i <= w->runs && !w->err; i++) {
		struct baseline_commit_info info = { "1.0", NULL, "pass", NULL,
		    NULL, NULL };
		char run[32], id[BASELINE_OID_HEXSZ + 1];
		char *data;

		snprintf(run, sizeof(run), "%s-%d", w->dev, i);
		info.run_id = run;
		data = results(run);
		w->err = baseline_store_record(id, bs, "main", PKG, w->dev,
		    data, strlen(data), &info);
		w->attempts += baseline_store_attempts(bs);
		free(data);
	}
	baseline_store_free(bs);
out:
	if (w->err)
		snprintf(w->msg, sizeof(w->msg), "%s", jg_error_msg());
	return NULL;
}

/* Run two writers on two devices at once; each lands every run, in order. */
static void
run_writers(const char *repo_a, const char *repo_b, const char *cache_a,
    const char *cache_b, const char *check_repo, int runs)
{
	struct writer w[2] = {
		{ repo_a, cache_a, DEV_A, runs, NULL, 0, "", 0 },
		{ repo_b, cache_b, DEV_B, runs, NULL, 0, "", 0 },
	};
	pthread_barrier_t start;
	pthread_t t[2];
	struct baseline_store *bs;
	struct strbuf want = STRBUF_INIT;
	char *out;

	pthread_barrier_init(&start, NULL, 2);
	for (int i = 0; i < 2; i++) {
		w[i].start = &start;
		assert_int_equal(pthread_create(&t[i], NULL, writer_main,
		    &w[i]), 0);
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		if (w[i].err)
			fail_msg("writer %d: %s", i, w[i].msg);
	}
	pthread_barrier_destroy(&start);

	out = git(check_repo, "rev-list", "--count", "main", NULL);
	strbuf_addf(&want, "%d\n", 2 * runs);
	assert_string_equal(out, want.buf);
	free(out);
	free(git(check_repo, "fsck", "--strict", "--no-progress", NULL));
	bs = open_store(check_repo, 0);
	for (int i = 0; i < 2; i++) {
		strbuf_reset(&want);
		for (int r = runs; r >= 1; r--)
			strbuf_addf(&want, "%s%s-%d", r < runs ? " " : "",
			    w[i].dev, r);
		assert_history(bs, "main", w[i].dev, 0, want.buf);
	}
	baseline_store_free(bs);
	strbuf_release(&want);
}

/*
 * Two writers on one local repository, one by path and one by file:// URL,
 * race on the branch; the compare-and-swap makes both land every run.
 */
static void
concurrent_local_writers_both_land(void **state)
{
	char *repo = new_bare_repo("race.git");
	char *url = xasprintf("file://%s", repo);

	run_writers(repo, url, NULL, NULL, repo, 20);
	free(url);
	free(repo);
}

/*
 * Two first commits racing to create the branch both land: creating a ref
 * must be as atomic as moving one.  Many fresh repositories, because the
 * window is narrow.
 */
static void
racing_first_commits_both_land(void **state)
{
	for (int i = 0; i < 30; i++) {
		char *repo = new_bare_repo("first.git");

		run_writers(repo, repo, NULL, NULL, repo, 1);
		free(repo);
	}
}

/* ---- local repositories with receive hooks ---- */

/* Install `body` as the executable hook `name` of the bare `repo`. */
static void
install_hook(const char *repo, const char *name, const char *body)
{
	char *path = xasprintf("%s/hooks/%s", repo, name);
	char *text = xasprintf("#!/bin/sh\n%s\n", body);

	assert_int_equal(file_write_atomic(path, text, strlen(text), 0755), 0);
	free(text);
	free(path);
}

/* The id `rev` names in `repo`, as git prints it. */
static char *
rev_parse(const char *repo, const char *rev)
{
	return git(repo, "rev-parse", "--verify", "-q", rev, NULL);
}

/*
 * A pre-receive hook that refuses stops the record as it would stop a
 * `git push`: an error quoting the hook, and the branch where it was.
 */
static void
refusing_hook_keeps_branch(void **state)
{
	char *repo = new_bare_repo("refuse.git");
	char *url = xasprintf("file://%s", repo);
	struct baseline_commit_info info = { "1.4.2", "a2", "pass", NULL,
	    NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1], *before, *after, *data;
	struct baseline_store *bs = open_store(repo, 0);

	record(bs, DEV_A, "a1", NULL);
	baseline_store_free(bs);
	before = rev_parse(repo, "main");
	install_hook(repo, "pre-receive",
	    "echo 'baselines are frozen for the release' >&2; exit 1");
	data = results("a2");
	for (int i = 0; i < 2; i++) {
		bs = open_store(i ? url : repo, 0);
		assert_int_equal(baseline_store_record(id, bs, "main", PKG,
		    DEV_A, data, strlen(data), &info), JG_EIO);
		assert_non_null(strstr(jg_error_msg(), "refused"));
		assert_non_null(strstr(jg_error_msg(),
		    "baselines are frozen for the release"));
		assert_string_equal(id, "");
		baseline_store_free(bs);
		after = rev_parse(repo, "main");
		assert_string_equal(after, before);
		free(after);
	}
	free(data);
	free(before);
	free(url);
	free(repo);
}

/*
 * An update hook sees the ref: it may refuse one branch, including its
 * creation, and let another through.
 */
static void
update_hook_refuses_one_branch(void **state)
{
	char *repo = new_bare_repo("update.git");
	struct baseline_commit_info info = { "1.4.2", "a1", "pass", NULL,
	    NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1], *data = results("a1"), *out;
	struct baseline_store *bs;

	install_hook(repo, "update", "[ \"$1\" = refs/heads/frozen ] && "
	    "{ echo \"no writes to $1\"; exit 1; }; exit 0");
	bs = open_store(repo, 0);
	assert_int_equal(baseline_store_record(id, bs, "frozen", PKG, DEV_A,
	    data, strlen(data), &info), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), "no writes to "
	    "refs/heads/frozen"));
	assert_int_equal(baseline_store_record(id, bs, "main", PKG, DEV_A,
	    data, strlen(data), &info), 0);
	baseline_store_free(bs);
	out = git(repo, "for-each-ref", "--format=%(refname) %(objectname)",
	    "refs/heads", NULL);
	assert_true(strncmp(out, "refs/heads/main ", 16) == 0);
	assert_int_equal(strlen(out), 16 + BASELINE_OID_HEXSZ + 1);
	assert_string_equal(out + 16 + BASELINE_OID_HEXSZ, "\n");
	assert_memory_equal(out + 16, id, BASELINE_OID_HEXSZ);
	free(out);
	free(data);
	free(repo);
}

/*
 * Without the git program a hook cannot run, so a repository that has one
 * is not written at all; nothing else is needed to read it.
 */
static void
hook_without_git_is_not_written(void **state)
{
	char *repo = new_bare_repo("nogit.git");
	char *empty = tmp("empty-path");
	char *path = xstrdup(getenv("PATH"));
	struct baseline_commit_info info = { "1.4.2", "a1", "pass", NULL,
	    NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1], *data = results("a1"), *out;
	struct baseline_store *bs;

	install_hook(repo, "pre-receive", "exit 0");
	assert_int_equal(file_mkdirs(empty, 0777), 0);
	setenv("PATH", empty, 1);
	bs = open_store(repo, 0);
	assert_int_equal(baseline_store_record(id, bs, "main", PKG, DEV_A,
	    data, strlen(data), &info), JG_EIO);
	setenv("PATH", path, 1);
	assert_non_null(strstr(jg_error_msg(), "receive hook (pre-receive)"));
	assert_non_null(strstr(jg_error_msg(), "git is not installed"));
	baseline_store_free(bs);
	out = git(repo, "count-objects", NULL);
	assert_string_equal(out, "0 objects, 0 kilobytes\n");
	free(out);
	free(data);
	free(path);
	free(empty);
	free(repo);
}

/*
 * jankgate run from another repository's hook inherits its quarantine's
 * GIT_OBJECT_DIRECTORY; the push still finds the objects it wrote.
 */
static void
hook_push_ignores_inherited_object_dir(void **state)
{
	char *repo = new_bare_repo("inherit.git");
	struct baseline_commit_info info = { "1.4.2", "a1", "pass", NULL,
	    NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1], *data = results("a1"), *out;
	struct baseline_store *bs;
	int err;

	install_hook(repo, "pre-receive", "exit 0");
	bs = open_store(repo, 0);
	setenv("GIT_OBJECT_DIRECTORY", "/nonexistent/objects", 1);
	setenv("GIT_NAMESPACE", "elsewhere", 1);
	err = baseline_store_record(id, bs, "main", PKG, DEV_A, data,
	    strlen(data), &info);
	/* Before asserting: the other tests run git too. */
	unsetenv("GIT_OBJECT_DIRECTORY");
	unsetenv("GIT_NAMESPACE");
	if (err < 0)
		fail_msg("record: %s", jg_error_msg());
	baseline_store_free(bs);
	free(data);
	out = rev_parse(repo, "main");
	assert_memory_equal(out, id, BASELINE_OID_HEXSZ);
	free(out);
	free(repo);
}

/*
 * Behind an accepting hook, which every update now passes through, two
 * writers racing on the branch still both land every run.
 */
static void
hooked_local_writers_both_land(void **state)
{
	char *repo = new_bare_repo("hooked.git");
	char *url = xasprintf("file://%s", repo);
	char *log = xasprintf("%s/hook.log", repo), *out;
	char *body = xasprintf("cat >> '%s'", log);
	struct strbuf lines = STRBUF_INIT;

	install_hook(repo, "pre-receive", body);
	run_writers(repo, url, NULL, NULL, repo, 5);
	/* The hook saw each of the ten updates that landed. */
	assert_int_equal(file_read(&lines, log), 0);
	out = git(repo, "rev-list", "main", NULL);
	for (char *p = out; *p; p = strchr(p, '\n') + 1) {
		char *nl = strchr(p, '\n');

		*nl = '\0';
		assert_non_null(strstr(lines.buf, p));
		*nl = '\n';
	}
	free(out);
	strbuf_release(&lines);
	free(body);
	free(log);
	free(url);
	free(repo);
}

/* ---- network repositories: git daemon ---- */

static int
free_port(void)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int
port_answers(int port)
{
	struct sockaddr_in a = { 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

/* Serve daemon_base over git:// with push enabled, once per group. */
static void
daemon_start(void)
{
	char port_arg[32], base_arg[512];

	if (daemon_pid)
		return;
	daemon_base = tmp("served");
	assert_int_equal(file_mkdirs(daemon_base, 0777), 0);
	daemon_port = free_port();
	snprintf(port_arg, sizeof(port_arg), "--port=%d", daemon_port);
	snprintf(base_arg, sizeof(base_arg), "--base-path=%s", daemon_base);
	daemon_pid = fork();
	assert_true(daemon_pid >= 0);
	if (daemon_pid == 0) {
		setpgid(0, 0);
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		execlp("git", "git", "daemon", "--export-all",
		    "--enable=receive-pack", "--informative-errors",
		    "--reuseaddr", "--listen=127.0.0.1", port_arg, base_arg,
		    daemon_base, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 500 && !port_answers(daemon_port); i++)
		usleep(10000);
	assert_true(port_answers(daemon_port));
}

/* A new bare repository served by the daemon; *url gets its git:// URL. */
static char *
served_repo(const char *name, char **url)
{
	char *path;

	daemon_start();
	path = xasprintf("%s/%s", daemon_base, name);
	free(git(unit_tmpdir(), "-c", "init.defaultBranch=main", "init",
	    "-q", "--bare", path, NULL));
	*url = xasprintf("git://127.0.0.1:%d/%s", daemon_port, name);
	return path;
}

static struct baseline_store *
open_remote(const char *url, const char *cache, int retries, int offline)
{
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;

	o.repo = url;
	o.cache_dir = cache;
	o.push_retries = retries;
	o.offline = offline;
	if (baseline_store_open(&bs, &o) < 0)
		fail_msg("open '%s': %s", url, jg_error_msg());
	return bs;
}

/*
 * A network repository is cloned into the cache, recorded to and pushed;
 * the served repository then holds plain git history, and a second store
 * with another cache reads it back.
 */
static void
remote_record_is_pushed(void **state)
{
	char *url, *repo = served_repo("push.git", &url);
	char *cache = tmp("cache"), *cache2 = tmp("cache");
	struct baseline_store *bs = open_remote(url, cache, 0, 0);
	char *out;

	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_A, "a2", NULL);
	baseline_store_free(bs);
	out = git(repo, "log", "--format=%(trailers:key=Jankgate-Run,"
	    "valueonly,separator=)", "main", "--",
	    PKG "/" DEV_A "/results.json", NULL);
	assert_string_equal(out, "a2\na1\n");
	free(out);
	free(git(repo, "fsck", "--strict", "--no-progress", NULL));

	bs = open_remote(url, cache2, 0, 0);
	assert_history(bs, "main", DEV_A, 0, "a2 a1");
	baseline_store_free(bs);
	/* The cache works without the network, and refuses to record. */
	bs = open_remote(url, cache, 0, 1);
	assert_history(bs, "main", DEV_A, 0, "a2 a1");
	{
		struct baseline_commit_info info = { "1", "r", "pass", NULL,
		    NULL, NULL };
		char id[BASELINE_OID_HEXSZ + 1];

		assert_int_equal(baseline_store_record(id, bs, "main", PKG,
		    DEV_B, "{\"schema\":\"jankgate.results/1\"}", 31, &info),
		    JG_EINVAL);
	}
	baseline_store_free(bs);
	free(cache2);
	free(cache);
	free(url);
	free(repo);
}

/*
 * A cancel (cancel.h) records nothing: in a local repository the branch
 * is not moved (JG_EINTR, the history as it was).
 */
static void
cancel_records_nothing(void **state)
{
	char *repo = tmp("cancel-local.git");
	struct baseline_store *bs = open_store(repo, 1);
	struct baseline_commit_info info = { "1.4.2", "a2", "pass", NULL,
	    NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1], *data = results("a2");

	record(bs, DEV_A, "a1", NULL);
	cancel_request();
	assert_int_equal(baseline_store_record(id, bs, "main", PKG, DEV_A,
	    data, strlen(data), &info), JG_EINTR);
	cancel_reset();
	assert_non_null(strstr(jg_error_msg(), "interrupted: nothing "
	    "recorded"));
	assert_history(bs, "main", DEV_A, 0, "a1");
	baseline_store_free(bs);
	free(data);
	free(repo);
}

/*
 * The same in a network repository: nothing is pushed, the served branch
 * does not move and the cache forgets the commit; a fetch that has
 * something to download is stopped the same way.
 */
static void
cancel_pushes_and_fetches_nothing(void **state)
{
	char *url, *repo = served_repo("cancel.git", &url);
	char *cache = tmp("cache"), *cache2 = tmp("cache");
	struct baseline_store *bs = open_remote(url, cache, 0, 0);
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs2 = NULL;
	struct baseline_commit_info info = { "1.4.2", "a2", "pass", NULL,
	    NULL, NULL };
	char id[BASELINE_OID_HEXSZ + 1], *data = results("a2"), *out;

	record(bs, DEV_A, "a1", NULL);
	cancel_request();
	assert_int_equal(baseline_store_record(id, bs, "main", PKG, DEV_A,
	    data, strlen(data), &info), JG_EINTR);
	assert_non_null(strstr(jg_error_msg(), "interrupted"));
	assert_history(bs, "main", DEV_A, 0, "a1");
	o.repo = url;
	o.cache_dir = cache2;
	assert_int_equal(baseline_store_open(&bs2, &o), JG_EINTR);
	cancel_reset();
	out = git(repo, "log", "--format=%(trailers:key=Jankgate-Run,"
	    "valueonly,separator=)", "main", NULL);
	assert_string_equal(out, "a1\n");
	free(out);
	baseline_store_free(bs2);
	baseline_store_free(bs);
	free(data);
	free(cache2);
	free(cache);
	free(url);
	free(repo);
}

/*
 * A store whose cache went stale while another job pushed has its push
 * refused, fetches, rebuilds on the new tip and lands on the second try;
 * with no retries allowed, the same situation is an error that says so,
 * and the cache forgets the commit that did not land.
 */
static void
stale_push_is_retried(void **state)
{
	char *url, *repo = served_repo("stale.git", &url);
	char *cache_a = tmp("cache"), *cache_b = tmp("cache");
	struct baseline_store *a, *b;
	struct baseline_commit_info info = { "1", "late", "pass", NULL, NULL, NULL };
	char ida[BASELINE_OID_HEXSZ + 1], idb[BASELINE_OID_HEXSZ + 1];
	char *data = results("late"), *out, *want;

	a = open_remote(url, cache_a, 0, 0);
	record(a, DEV_A, "a1", NULL);
	baseline_store_free(a);

	a = open_remote(url, cache_a, 0, 0);
	b = open_remote(url, cache_b, 3, 0);
	/* b's new cache fetches the branch before a pushes. */
	assert_history(b, "main", DEV_B, 0, "");
	record(a, DEV_A, "a2", ida);
	assert_int_equal(baseline_store_attempts(a), 1);
	/* b fetched before a pushed: its first push must be refused. */
	record(b, DEV_B, "b1", idb);
	assert_int_equal(baseline_store_attempts(b), 2);
	want = xasprintf("%s\n", ida);
	out = git(repo, "rev-parse", "main^", NULL);
	assert_string_equal(out, want);
	free(out);
	free(want);

	/* Now a is stale, and may not retry. */
	assert_int_equal(baseline_store_record(ida, a, "main", PKG, DEV_A,
	    data, strlen(data), &info), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), "refused"));
	assert_non_null(strstr(jg_error_msg(), "push_retries"));
	baseline_store_free(a);
	baseline_store_free(b);
	/* The refused commit did not stay in a's cache either. */
	a = open_remote(url, cache_a, 0, 1);
	assert_history(a, "main", DEV_A, 0, "a2 a1");
	baseline_store_free(a);
	out = git(repo, "rev-list", "--count", "main", NULL);
	assert_string_equal(out, "3\n");
	free(out);
	free(data);
	free(cache_a);
	free(cache_b);
	free(url);
	free(repo);
}

/* Two jobs with their own caches push at the same moment: all runs land. */
static void
concurrent_remote_writers_both_land(void **state)
{
	char *url, *repo = served_repo("race.git", &url);
	char *cache_a = tmp("cache"), *cache_b = tmp("cache");

	run_writers(url, url, cache_a, cache_b, repo, 5);
	free(cache_a);
	free(cache_b);
	free(url);
	free(repo);
}

/* A repository the server does not have is JG_ENOTFOUND. */
static void
remote_not_found(void **state)
{
	char *url, *repo = served_repo("exists.git", &url);
	char *missing = xasprintf("git://127.0.0.1:%d/nope.git", daemon_port);
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs = NULL;

	o.repo = missing;
	o.cache_dir = unit_tmpdir();
	assert_int_equal(baseline_store_open(&bs, &o), JG_ENOTFOUND);
	assert_null(bs);
	assert_non_null(strstr(jg_error_msg(), missing));
	free(missing);
	free(url);
	free(repo);
}

/* The one repository of a cache directory. */
static char *
cache_repo(const char *cache)
{
	DIR *d = opendir(cache);
	struct dirent *de;
	char *path = NULL;

	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 4 && !strcmp(de->d_name + n - 4, ".git")) {
			assert_null(path);
			path = xasprintf("%s/%s", cache, de->d_name);
		}
	}
	closedir(d);
	assert_non_null(path);
	return path;
}

/*
 * A new cache of a network repository fetches only the key refs compare
 * reads, and reads the same history as a whole cache; what needs the
 * branch (a log, a record) fetches the whole store first, and a record's
 * key ref reaches the server.
 */
static void
partial_cache_reads_key_refs(void **state)
{
	char *url, *repo = served_repo("partial.git", &url);
	char *cache_w = tmp("cache"), *cache = tmp("cache"), *out, *want;
	char *cached;
	struct baseline_store *bs;
	struct baseline_entry *e;
	size_t nr;

	bs = open_remote(url, cache_w, 0, 0);
	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_B, "b1", NULL);
	record(bs, DEV_A, "a2", NULL);
	baseline_store_free(bs);

	bs = open_remote(url, cache, 0, 0);
	assert_history(bs, "main", DEV_A, 0, "a2 a1");
	assert_history(bs, "refs/heads/main", DEV_A, 1, "a2");
	baseline_store_free(bs);
	cached = cache_repo(cache);
	out = git(cached, "for-each-ref", "--format=%(refname)", NULL);
	assert_string_equal(out, KEY_A "\n");
	free(out);

	/* the commit ids are the branch's, as a whole cache reads them */
	bs = open_remote(url, cache_w, 0, 0);
	assert_int_equal(baseline_store_history(&e, &nr, bs, "main", PKG,
	    DEV_A, 0), 0);
	baseline_store_free(bs);
	bs = open_remote(url, cache, 0, 0);
	{
		struct baseline_entry *k;
		size_t knr;

		assert_int_equal(baseline_store_history(&k, &knr, bs, "main",
		    PKG, DEV_A, 0), 0);
		assert_int_equal(knr, nr);
		for (size_t i = 0; i < nr; i++)
			assert_string_equal(k[i].commit, e[i].commit);
		baseline_entries_free(k, knr);
	}
	baseline_entries_free(e, nr);
	/* a log needs the branch: the cache is made whole */
	assert_int_equal(baseline_store_log(&e, &nr, bs, "main", NULL, NULL,
	    0), 0);
	assert_int_equal(nr, 3);
	baseline_entries_free(e, nr);
	record(bs, DEV_A, "a3", NULL);
	baseline_store_free(bs);
	out = git(cached, "for-each-ref", "--format=%(refname)",
	    "refs/heads", NULL);
	assert_string_equal(out, "refs/heads/main\n");
	free(out);
	out = key_log(repo, KEY_A, NULL);
	want = key_log(repo, "main", PKG "/" DEV_A "/results.json");
	assert_string_equal(out, want);
	free(want);
	free(out);
	free(cached);
	free(cache);
	free(cache_w);
	free(url);
	free(repo);
}

/* ---- network repositories: ssh ---- */

/* Start a process in its own group, quiet, for teardown to stop. */
static pid_t
spawn(const char *const argv[])
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static void
keygen(const char *path)
{
	const char *argv[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "",
	    "-f", path, NULL };
	struct proc_result r;

	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, NULL), 0);
	assert_int_equal(r.exit_code, 0);
	proc_result_release(&r);
}

/*
 * An sshd of our own on a loopback port: host key, client key and
 * authorized_keys in sshd_dir.  Skips the test where no sshd can run
 * (Debian's sshd wants its privilege separation directory).
 */
static void
sshd_start(void)
{
	const char *argv[] = { "/usr/sbin/sshd", "-D", "-e", "-f", NULL,
	    NULL };
	struct strbuf sb = STRBUF_INIT, pub = STRBUF_INIT;
	char *path;

	if (sshd_pid)
		return;
	if (!file_exists("/usr/sbin/sshd") || !file_exists("/run/sshd") ||
	    !proc_in_path("ssh-keygen"))
		skip();
	sshd_dir = tmp("ssh");
	assert_int_equal(file_mkdirs(sshd_dir, 0700), 0);
	path = xasprintf("%s/host", sshd_dir);
	keygen(path);
	free(path);
	path = xasprintf("%s/client", sshd_dir);
	keygen(path);
	free(path);
	path = xasprintf("%s/client.pub", sshd_dir);
	assert_int_equal(file_read(&pub, path), 0);
	free(path);
	path = xasprintf("%s/authorized_keys", sshd_dir);
	assert_int_equal(file_write_atomic(path, pub.buf, pub.len, 0600), 0);
	free(path);

	sshd_port = free_port();
	strbuf_addf(&sb, "Port %d\nListenAddress 127.0.0.1\n"
	    "HostKey %s/host\nAuthorizedKeysFile %s/authorized_keys\n"
	    "StrictModes no\nUsePAM no\nPasswordAuthentication no\n"
	    "PermitRootLogin prohibit-password\n", sshd_port, sshd_dir,
	    sshd_dir);
	path = xasprintf("%s/sshd_config", sshd_dir);
	assert_int_equal(file_write_atomic(path, sb.buf, sb.len, 0600), 0);
	argv[4] = path;
	sshd_pid = spawn(argv);
	for (int i = 0; i < 500 && !port_answers(sshd_port); i++)
		usleep(10000);
	assert_true(port_answers(sshd_port));
	free(path);
	strbuf_release(&sb);
	strbuf_release(&pub);
}

/* A known_hosts file that lists the test sshd's host key, or nothing. */
static char *
known_hosts(int listed)
{
	struct strbuf sb = STRBUF_INIT, key = STRBUF_INIT;
	char *path = tmp("known_hosts"), *pub;

	if (listed) {
		pub = xasprintf("%s/host.pub", sshd_dir);
		assert_int_equal(file_read(&key, pub), 0);
		strbuf_addf(&sb, "[127.0.0.1]:%d %s", sshd_port, key.buf);
		free(pub);
	}
	assert_int_equal(file_write_atomic(path, sb.buf, sb.len, 0600), 0);
	strbuf_release(&sb);
	strbuf_release(&key);
	return path;
}

static int
open_ssh(struct baseline_store **bs, const char *url, const char *key,
    const char *hosts)
{
	struct baseline_store_opts o = { 0 };
	int err;

	o.repo = url;
	o.cache_dir = unit_tmpdir();
	o.ssh_key = key;
	o.known_hosts = hosts;
	SSH_LEAKS_IGNORED_BEGIN();
	err = baseline_store_open(bs, &o);
	SSH_LEAKS_IGNORED_END();
	return err;
}

static pid_t agent_pid;

/* An ssh-agent of our own holding `key`, named by SSH_AUTH_SOCK. */
static void
with_agent(const char *key)
{
	char *sock = tmp("agent.sock");
	const char *argv[] = { "ssh-agent", "-D", "-a", sock, NULL };
	const char *add[] = { "ssh-add", "-q", key, NULL };
	char *env_sock = xasprintf("SSH_AUTH_SOCK=%s", sock);
	const char *env[] = { env_sock, NULL };
	struct proc_opts po = { 0 };
	struct proc_result r;

	agent_pid = spawn(argv);
	for (int i = 0; i < 500 && !file_exists(sock); i++)
		usleep(10000);
	po.env = env;
	proc_result_init(&r);
	assert_int_equal(proc_run(&r, add, &po), 0);
	assert_int_equal(r.exit_code, 0);
	proc_result_release(&r);
	setenv("SSH_AUTH_SOCK", sock, 1);
	free(env_sock);
	free(sock);
}

static void
agent_stop(void)
{
	unsetenv("SSH_AUTH_SOCK");
	kill(-agent_pid, SIGTERM);
	waitpid(agent_pid, NULL, 0);
	agent_pid = 0;
}

/*
 * Over ssh with a key file and a known host key, a run is recorded and
 * pushed; an unknown host key, a key the server does not accept and an
 * empty ssh-agent are JG_EAUTH with what to do about each; an agent that
 * holds the key is enough.
 */
static void
ssh_key_file_and_host_key(void **state)
{
	struct baseline_store *bs = NULL;
	char *repo, *url, *key, *hosts, *nohosts, *stranger, *out;

	sshd_start();
	repo = new_bare_repo("ssh.git");
	url = xasprintf("ssh://%s@127.0.0.1:%d%s",
	    getpwuid(getuid())->pw_name, sshd_port, repo);
	key = xasprintf("%s/client", sshd_dir);
	hosts = known_hosts(1);
	nohosts = known_hosts(0);

	if (open_ssh(&bs, url, key, hosts) < 0)
		fail_msg("open: %s", jg_error_msg());
	SSH_LEAKS_IGNORED_BEGIN();
	record(bs, DEV_A, "a1", NULL);
	SSH_LEAKS_IGNORED_END();
	baseline_store_free(bs);
	out = git(repo, "log", "--format=%(trailers:key=Jankgate-Run,"
	    "valueonly,separator=)", NULL);
	assert_string_equal(out, "a1\n");
	free(out);

	assert_int_equal(open_ssh(&bs, url, key, nohosts), JG_EAUTH);
	assert_non_null(strstr(jg_error_msg(), "host key"));
	assert_non_null(strstr(jg_error_msg(), nohosts));

	stranger = tmp("stranger");
	keygen(stranger);
	assert_int_equal(open_ssh(&bs, url, stranger, hosts), JG_EAUTH);
	assert_non_null(strstr(jg_error_msg(), stranger));
	assert_non_null(strstr(jg_error_msg(), "refused"));
	free(stranger);

	unsetenv("SSH_AUTH_SOCK");
	assert_int_equal(open_ssh(&bs, url, NULL, hosts), JG_EAUTH);
	assert_non_null(strstr(jg_error_msg(), "ssh-agent"));
	with_agent(key);
	if (open_ssh(&bs, url, NULL, hosts) < 0)
		fail_msg("open with ssh-agent: %s", jg_error_msg());
	baseline_store_free(bs);
	agent_stop();
	free(nohosts);
	free(hosts);
	free(key);
	free(url);
	free(repo);
}

/* ---- credentials ---- */

/* An https host that is not there: an I/O error without the secrets. */
static void
token_not_in_connect_error(void **state)
{
	char *url = xasprintf("https://robot:pw-in-url@127.0.0.1:%d/x.git",
	    free_port());
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;

	setenv("JG_TEST_TOKEN", TOKEN, 1);
	o.repo = url;
	o.cache_dir = unit_tmpdir();
	o.token_env = "JG_TEST_TOKEN";
	assert_int_equal(baseline_store_open(&bs, &o), JG_EIO);
	assert_null(strstr(jg_error_msg(), TOKEN));
	assert_null(strstr(jg_error_msg(), "pw-in-url"));
	assert_null(strstr(jg_error_msg(), "robot"));
	assert_non_null(strstr(jg_error_msg(), "127.0.0.1"));
	unsetenv("JG_TEST_TOKEN");
	free(url);
}

/* An HTTP server that refuses every request with 401 and keeps the last
 * Authorization header it saw. */
struct http401 {
	int fd, port, stop, requests;
	char auth[256];
	pthread_t thread;
};

static void *
http401_main(void *arg)
{
	static const char reply[] = "HTTP/1.1 401 Unauthorized\r\n"
	    "WWW-Authenticate: Basic realm=\"jg\"\r\n"
	    "Content-Length: 0\r\nConnection: close\r\n\r\n";
	struct http401 *h = arg;

	while (!h->stop) {
		struct pollfd p = { h->fd, POLLIN, 0 };
		char req[8192];
		size_t len = 0;
		ssize_t n;
		char *a;
		int c;

		if (poll(&p, 1, 50) <= 0)
			continue;
		if ((c = accept(h->fd, NULL, NULL)) < 0)
			continue;
		while (len < sizeof(req) - 1 &&
		    (n = read(c, req + len, sizeof(req) - 1 - len)) > 0) {
			len += (size_t)n;
			req[len] = '\0';
			if (strstr(req, "\r\n\r\n"))
				break;
		}
		req[len] = '\0';
		h->requests++;
		if ((a = strstr(req, "Authorization: ")))
			snprintf(h->auth, sizeof(h->auth), "%.*s",
			    (int)strcspn(a, "\r\n"), a);
		if (write(c, reply, sizeof(reply) - 1) < 0)
			h->stop = 1;
		close(c);
	}
	return NULL;
}

/* Listen on `addr` (an IPv4 address) and answer from a thread. */
static void
http401_start(struct http401 *h, const char *addr)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);

	memset(h, 0, sizeof(*h));
	h->fd = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, addr, &a.sin_addr), 1);
	assert_int_equal(bind(h->fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(h->fd, 8), 0);
	assert_int_equal(getsockname(h->fd, (struct sockaddr *)&a, &len), 0);
	h->port = ntohs(a.sin_port);
	assert_int_equal(pthread_create(&h->thread, NULL, http401_main, h), 0);
}

static void
http401_stop(struct http401 *h)
{
	h->stop = 1;
	pthread_join(h->thread, NULL);
	close(h->fd);
}

/*
 * A refused token is JG_EAUTH naming the variable, never the token; the
 * token went out as the password of "x-access-token" (or the configured
 * user), and a missing token says how to provide one.
 */
static void
refused_token_is_auth_error(void **state)
{
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;
	struct http401 h;
	char *url;

	http401_start(&h, "127.0.0.1");
	url = xasprintf("http://127.0.0.1:%d/x.git", h.port);
	setenv("JG_TEST_TOKEN", TOKEN, 1);
	o.repo = url;
	o.cache_dir = unit_tmpdir();
	o.token_env = "JG_TEST_TOKEN";
	assert_int_equal(baseline_store_open(&bs, &o), JG_EAUTH);
	assert_null(strstr(jg_error_msg(), TOKEN));
	assert_non_null(strstr(jg_error_msg(), "$JG_TEST_TOKEN"));
	assert_string_equal(h.auth, "Authorization: Basic "
	    "eC1hY2Nlc3MtdG9rZW46amctVDBrZW4tczNjcmV0");

	o.token_user = "robot";
	assert_int_equal(baseline_store_open(&bs, &o), JG_EAUTH);
	assert_string_equal(h.auth, "Authorization: Basic "
	    "cm9ib3Q6amctVDBrZW4tczNjcmV0");

	unsetenv("JG_TEST_TOKEN");
	assert_int_equal(baseline_store_open(&bs, &o), JG_EAUTH);
	assert_non_null(strstr(jg_error_msg(), "export it in $JG_TEST_TOKEN"));
	http401_stop(&h);
	free(url);
}

/* This machine's first IPv4 address that is not loopback, or NULL. */
static char *
outside_address(void)
{
	struct ifaddrs *ifs, *i;
	char buf[INET_ADDRSTRLEN];
	char *found = NULL;

	if (getifaddrs(&ifs) < 0)
		return NULL;
	for (i = ifs; i && !found; i = i->ifa_next) {
		struct sockaddr_in *a = (struct sockaddr_in *)i->ifa_addr;

		if (a && a->sin_family == AF_INET &&
		    ntohl(a->sin_addr.s_addr) >> 24 != 127 &&
		    inet_ntop(AF_INET, &a->sin_addr, buf, sizeof(buf)))
			found = xstrdup(buf);
	}
	freeifaddrs(ifs);
	return found;
}

/* Over plain http to another machine the token is not sent at all. */
static void
token_not_sent_in_clear(void **state)
{
	struct baseline_store_opts o = { 0 };
	struct baseline_store *bs;
	struct http401 h;
	char *addr = outside_address(), *url;

	if (!addr)
		skip();
	http401_start(&h, addr);
	url = xasprintf("http://%s:%d/x.git", addr, h.port);
	setenv("JG_TEST_TOKEN", TOKEN, 1);
	o.repo = url;
	o.cache_dir = unit_tmpdir();
	o.token_env = "JG_TEST_TOKEN";
	assert_int_equal(baseline_store_open(&bs, &o), JG_EAUTH);
	assert_non_null(strstr(jg_error_msg(), "https"));
	assert_true(h.requests > 0);
	assert_string_equal(h.auth, "");
	unsetenv("JG_TEST_TOKEN");
	http401_stop(&h);
	free(url);
	free(addr);
}

/* ---- gc ---- */

/* The number after "<key>: " in `git count-objects -v`. */
static long
count_objects(const char *repo, const char *key)
{
	char *out = git(repo, "count-objects", "-v", NULL);
	char *want = xasprintf("%s: ", key);
	const char *p = strstr(out, want);
	long n;

	if (!p)
		fail_msg("count-objects says no '%s': %s", key, out);
	n = strtol(p + strlen(want), NULL, 10);
	free(want);
	free(out);
	return n;
}

/* Write a blob no ref reaches, as `git hash-object -w` does; its path. */
static char *
unreachable_blob(const char *repo, const char *text)
{
	char *file = tmp("loose"), *hex, *path;

	assert_int_equal(file_write_atomic(file, text, strlen(text), 0644), 0);
	hex = git(repo, "hash-object", "-w", file, NULL);
	hex[40] = '\0';
	path = xasprintf("%s/objects/%.2s/%s", repo, hex, hex + 2);
	assert_true(file_exists(path));
	free(hex);
	free(file);
	return path;
}

static void
record_on(struct baseline_store *bs, const char *branch, const char *dev,
    const char *run)
{
	struct baseline_commit_info info = { "1.4.2", run, "pass", NULL,
	    NULL, NULL };
	char *data = results(run);
	char id[BASELINE_OID_HEXSZ + 1];

	if (baseline_store_record(id, bs, branch, PKG, dev, data,
	    strlen(data), &info) < 0)
		fail_msg("record %s %s: %s", dev, run, jg_error_msg());
	free(data);
}

static size_t
packs_in(const char *repo)
{
	return (size_t)count_objects(repo, "packs");
}

/*
 * gc packs every object of two branches and an annotated tag, leaves no
 * loose object, prunes an old unreachable one, and every run still reads
 * (through the same store, and a fresh one); git fsck --full is clean.
 */
static void
gc_packs_branches_and_tags(void **state)
{
	char *repo = new_bare_repo("gc.git"), *loose, *fsck;
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;
	long before;

	record(bs, DEV_A, "r1", NULL);
	record(bs, DEV_A, "r2", NULL);
	record(bs, DEV_B, "b1", NULL);
	record(bs, DEV_A, "r3", NULL);
	record_on(bs, "other", DEV_A, "o1");
	free(git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com",
	    "tag", "-a", "-m", "night two", "v1", "main~2", NULL));
	loose = unreachable_blob(repo, "nobody points here\n");
	before = count_objects(repo, "count");
	assert_int_equal(count_objects(repo, "in-pack"), 0);

	assert_int_equal(baseline_store_gc(&st, bs, 0), 0);
	assert_int_equal(strlen(st.pack), 40);
	/* All but the unreachable blob went into the pack. */
	assert_int_equal(st.packed, (size_t)before - 1);
	assert_int_equal(st.loose_packed, (size_t)before - 1);
	assert_int_equal(st.pruned, 1);
	assert_int_equal(st.kept, 0);
	assert_false(file_exists(loose));
	assert_int_equal(count_objects(repo, "count"), 0);
	assert_int_equal(count_objects(repo, "in-pack"), before - 1);
	fsck = git(repo, "fsck", "--full", "--strict", "--no-dangling", NULL);
	free(fsck);

	assert_history(bs, "main", DEV_A, 0, "r3 r2 r1");
	assert_history(bs, "other", DEV_A, 0, "o1");
	assert_history(bs, "v1", DEV_A, 0, "r2 r1");
	baseline_store_free(bs);
	bs = open_store(repo, 0);
	assert_history(bs, "main", DEV_B, 0, "b1");
	assert_history(bs, "v1", DEV_A, 0, "r2 r1");
	/* The tag object itself was packed, not only its commit. */
	free(git(repo, "cat-file", "-e", "v1^{tag}", NULL));
	/* And the store still writes on top of its pack. */
	record(bs, DEV_A, "r4", NULL);
	assert_history(bs, "main", DEV_A, 2, "r4 r3");
	baseline_store_free(bs);
	free(loose);
	free(repo);
}

/*
 * What is unreachable but younger than the grace stays: a concurrent
 * record writes its objects before it moves its branch.
 */
static void
gc_keeps_young_unreachable(void **state)
{
	char *repo = new_bare_repo("gc-young.git"), *loose;
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;

	record(bs, DEV_A, "r1", NULL);
	loose = unreachable_blob(repo, "a record in flight\n");
	assert_int_equal(baseline_store_gc(&st, bs, BASELINE_GC_GRACE), 0);
	assert_int_equal(st.pruned, 0);
	assert_int_equal(st.kept, 1);
	assert_true(file_exists(loose));
	assert_int_equal(count_objects(repo, "count"), 1);
	baseline_store_free(bs);
	free(loose);
	free(repo);
}

/*
 * What a pack write stopped midway left in objects/pack goes once older
 * than the grace; a younger one may be a write in progress, and stays.
 */
static void
gc_removes_old_temporary_pack_files(void **state)
{
	char *repo = new_bare_repo("gc-tmp.git");
	char *old = xasprintf("%s/objects/pack/pack_git2_0123456789abcdef",
	    repo);
	char *young = xasprintf("%s/objects/pack/tmp_pack_XyZ", repo);
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;
	struct timespec times[2] = { { 0, 0 }, { 0, 0 } };

	record(bs, DEV_A, "r1", NULL);
	assert_int_equal(file_write_atomic(old, "PACK", 4, 0644), 0);
	assert_int_equal(file_write_atomic(young, "PACK", 4, 0644), 0);
	times[0].tv_sec = times[1].tv_sec = time(NULL) - 30 * 24 * 3600;
	assert_int_equal(utimensat(AT_FDCWD, old, times, 0), 0);
	assert_int_equal(baseline_store_gc(&st, bs, BASELINE_GC_GRACE), 0);
	assert_false(file_exists(old));
	assert_true(file_exists(young));
	assert_history(bs, "main", DEV_A, 0, "r1");
	baseline_store_free(bs);
	free(old);
	free(young);
	free(repo);
}

/*
 * A second gc replaces the first one's pack (the new one holds all of
 * it), and keeps a pack marked with .keep; the file count stays bounded.
 */
static void
gc_replaces_older_packs(void **state)
{
	char *repo = new_bare_repo("gc-again.git"), *keep, *pack;
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;
	char first[BASELINE_OID_HEXSZ + 1];

	record(bs, DEV_A, "r1", NULL);
	assert_int_equal(baseline_store_gc(&st, bs, BASELINE_GC_GRACE), 0);
	memcpy(first, st.pack, sizeof(first));
	record(bs, DEV_A, "r2", NULL);
	assert_int_equal(baseline_store_gc(&st, bs, BASELINE_GC_GRACE), 0);
	assert_string_not_equal(st.pack, first);
	assert_int_equal(st.packs_removed, 1);
	assert_int_equal(packs_in(repo), 1);
	pack = xasprintf("%s/objects/pack/pack-%s.pack", repo, first);
	assert_false(file_exists(pack));
	free(pack);
	assert_history(bs, "main", DEV_A, 0, "r2 r1");

	/* A kept pack is never removed. */
	keep = xasprintf("%s/objects/pack/pack-%s.keep", repo, st.pack);
	assert_int_equal(file_write_atomic(keep, "", 0, 0644), 0);
	record(bs, DEV_A, "r3", NULL);
	assert_int_equal(baseline_store_gc(&st, bs, BASELINE_GC_GRACE), 0);
	assert_int_equal(st.packs_removed, 0);
	assert_int_equal(packs_in(repo), 2);
	free(git(repo, "fsck", "--full", "--strict", "--no-dangling", NULL));
	assert_history(bs, "main", DEV_A, 0, "r3 r2 r1");
	baseline_store_free(bs);
	free(keep);
	free(repo);
}

/* An empty repository has nothing to pack, and that is no error. */
static void
gc_of_empty_repository(void **state)
{
	char *repo = new_bare_repo("gc-empty.git");
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;

	assert_int_equal(baseline_store_gc(&st, bs, 0), 0);
	assert_string_equal(st.pack, "");
	assert_int_equal(st.packed, 0);
	assert_int_equal(packs_in(repo), 0);
	baseline_store_free(bs);
	free(repo);
}

/*
 * In a repository with a working tree, what the index stages and what
 * the reflogs name (a commit undone by a reset) are kept even when no
 * ref reaches them, as git gc keeps them.
 */
static void
gc_keeps_what_the_index_and_reflogs_name(void **state)
{
	char *dir = worktree_repo(), *file, *hex, *path, *undone, *blob;
	struct baseline_store *bs;
	struct baseline_gc_stats st;

	git_commit_file(dir, "extra/notes.txt", "undone soon\n", 0);
	undone = git(dir, "rev-parse", "HEAD", NULL);
	undone[40] = '\0';
	free(git(dir, "reset", "-q", "--hard", "HEAD~1", NULL));
	bs = open_store(dir, 0);
	record(bs, DEV_A, "r1", NULL);
	file = xasprintf("%s/NOTES", dir);
	assert_int_equal(file_write_atomic(file, "staged\n", 7, 0644), 0);
	free(git(dir, "add", "NOTES", NULL));
	hex = git(dir, "rev-parse", ":NOTES", NULL);
	hex[40] = '\0';
	assert_int_equal(baseline_store_gc(&st, bs, 0), 0);
	assert_int_equal(st.pruned, 0);
	path = xasprintf("%s/.git/objects/%.2s/%s", dir, hex, hex + 2);
	assert_false(file_exists(path));	/* packed, not loose */
	free(git(dir, "cat-file", "-e", hex, NULL));
	free(git(dir, "cat-file", "-e", undone, NULL));
	blob = xasprintf("%s:extra/notes.txt", undone);
	free(git(dir, "cat-file", "-e", blob, NULL));
	free(blob);
	free(git(dir, "fsck", "--full", "--no-dangling", NULL));
	baseline_store_free(bs);
	free(undone);
	free(path);
	free(hex);
	free(file);
	free(dir);
}

/* Which repository names are network ones (gc refuses those). */
static void
network_urls_are_told_apart(void **state)
{
	static const char *net[] = { "https://h/x.git", "ssh://h/x",
	    "git@h:x.git", "git://h/x", "http://u:t@h/x" };
	static const char *local[] = { "/srv/x.git", "x.git", "./a:b",
	    "file:///srv/x.git", "dir/with:colon" };

	for (size_t i = 0; i < sizeof(net) / sizeof(net[0]); i++)
		assert_true(baseline_is_network_url(net[i]));
	for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++)
		assert_false(baseline_is_network_url(local[i]));
}

/* ---- key refs ---- */

/*
 * Each device key's ref holds its branch's versions of that key's file and
 * nothing else: the same runs, messages and commit ids (a reader of the
 * key ref reports the branch's), a tree of the one file, its commits
 * authored as the branch's.
 */
static void
key_refs_mirror_the_branch(void **state)
{
	char *repo = new_bare_repo("keys.git"), *want, *got, *out;
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_entry *e, *k;
	size_t nr, knr;

	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_B, "b1", NULL);
	record(bs, DEV_A, "a2", NULL);
	record(bs, DEV_B, "b2", NULL);
	record(bs, DEV_A, "a3", NULL);
	want = key_log(repo, "main", PKG "/" DEV_A "/results.json");
	got = key_log(repo, KEY_A, NULL);
	assert_string_equal(got, want);
	free(want);
	free(got);
	out = git(repo, "ls-tree", "-r", "--name-only", KEY_A, NULL);
	assert_string_equal(out, PKG "/" DEV_A "/results.json\n");
	free(out);
	assert_history(bs, KEY_A, DEV_A, 0, "a3 a2 a1");
	assert_int_equal(baseline_store_history(&e, &nr, bs, "main", PKG,
	    DEV_A, 0), 0);
	assert_int_equal(baseline_store_history(&k, &knr, bs, KEY_A, PKG,
	    DEV_A, 0), 0);
	assert_int_equal(knr, nr);
	for (size_t i = 0; i < nr; i++) {
		assert_string_equal(k[i].commit, e[i].commit);
		assert_true(k[i].time == e[i].time);
		assert_string_equal(k[i].subject, e[i].subject);
	}
	baseline_entries_free(e, nr);
	baseline_entries_free(k, knr);
	out = git(repo, "for-each-ref", "--format=%(refname)", NULL);
	assert_string_equal(out, "refs/heads/main\n" KEY_A "\n"
	    "refs/jankgate/keys/main/" PKG "/" DEV_B "\n");
	free(out);
	baseline_store_free(bs);
	free(repo);
}

/*
 * A key ref that fell behind (a crash between the branch and it), or was
 * lost, is brought in line by the key's next record; gc writes every key
 * ref again to the same objects, and deletes the key ref of a branch that
 * is gone.
 */
static void
key_refs_catch_up(void **state)
{
	char *repo = new_bare_repo("keys-catch.git"), *want, *got, *out;
	char *before;
	struct baseline_store *bs = open_store(repo, 0);
	size_t moved;

	record(bs, DEV_A, "a1", NULL);
	record(bs, DEV_A, "a2", NULL);
	record(bs, DEV_B, "b1", NULL);
	/* a2 and a3 missing from the key ref: it stays at a1 */
	free(git(repo, "update-ref", KEY_A, KEY_A "~1", NULL));
	record(bs, DEV_A, "a3", NULL);
	want = key_log(repo, "main", PKG "/" DEV_A "/results.json");
	got = key_log(repo, KEY_A, NULL);
	assert_string_equal(got, want);
	free(got);
	/* lost altogether */
	free(git(repo, "update-ref", "-d", KEY_A, NULL));
	record(bs, DEV_B, "b2", NULL);
	record(bs, DEV_A, "a4", NULL);
	free(want);
	want = key_log(repo, "main", PKG "/" DEV_A "/results.json");
	got = key_log(repo, KEY_A, NULL);
	assert_string_equal(got, want);
	free(got);
	free(want);
	assert_history(bs, KEY_A, DEV_A, 0, "a4 a3 a2 a1");
	/* gc's pass: the same objects, nothing moves */
	before = git(repo, "for-each-ref", NULL);
	assert_int_equal(baseline_store_sync_keys(&moved, bs), 0);
	assert_int_equal(moved, 0);
	out = git(repo, "for-each-ref", NULL);
	assert_string_equal(out, before);
	free(out);
	free(before);
	/* one left behind by hand, and a branch gone */
	free(git(repo, "update-ref", KEY_A, KEY_A "~2", NULL));
	free(git(repo, "branch", "old", "main", NULL));
	assert_int_equal(baseline_store_sync_keys(&moved, bs), 0);
	assert_int_equal(moved, 3);	/* A moved, old's two written */
	free(git(repo, "update-ref", "-d", "refs/heads/old", NULL));
	assert_int_equal(baseline_store_sync_keys(&moved, bs), 0);
	assert_int_equal(moved, 2);
	out = git(repo, "for-each-ref", "--format=%(refname)", NULL);
	assert_string_equal(out, "refs/heads/main\n" KEY_A "\n"
	    "refs/jankgate/keys/main/" PKG "/" DEV_B "\n");
	free(out);
	assert_history(bs, KEY_A, DEV_A, 0, "a4 a3 a2 a1");
	baseline_store_free(bs);
	free(repo);
}

/*
 * gc's pass over a branch whose tip holds a directory that is no
 * baseline's (other/odd/results.json a directory, put there by hand)
 * leaves it alone: no key ref, no error, the others as they were.
 */
static void
key_refs_skip_what_is_no_baseline(void **state)
{
	char *repo = new_bare_repo("keys-foreign.git"), *script, *out;
	const char *argv[] = { "sh", "-c", NULL, NULL };
	struct baseline_store *bs = open_store(repo, 0);
	struct proc_result r;
	size_t moved;

	record(bs, DEV_A, "a1", NULL);
	script = xasprintf("cd '%s' && b=$(echo x | git hash-object -w "
	    "--stdin) && t1=$(printf '100644 blob %%s\\tx\\n' $b | git "
	    "mktree) && t2=$(printf '040000 tree %%s\\tresults.json\\n' $t1 "
	    "| git mktree) && t3=$(printf '040000 tree %%s\\todd\\n' $t2 | "
	    "git mktree) && root=$( (git ls-tree main; printf '040000 tree "
	    "%%s\\tother\\n' $t3) | git mktree) && c=$(git -c user.name=t -c "
	    "user.email=t@example.com commit-tree $root -p main -m foreign) "
	    "&& git update-ref refs/heads/main $c", repo);
	argv[2] = script;
	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, NULL), 0);
	if (r.exit_code != 0)
		fail_msg("sh: %s", r.err.buf);
	proc_result_release(&r);
	assert_int_equal(baseline_store_sync_keys(&moved, bs), 0);
	assert_int_equal(moved, 0);
	out = git(repo, "for-each-ref", "--format=%(refname)", NULL);
	assert_string_equal(out, "refs/heads/main\n" KEY_A "\n");
	free(out);
	assert_history(bs, KEY_A, DEV_A, 0, "a1");
	baseline_store_free(bs);
	free(script);
	free(repo);
}

static void (*old_sigpipe)(int);

static int
group_setup(void **state)
{
	/* A push into a closed socket must be an error, not a death. */
	old_sigpipe = signal(SIGPIPE, SIG_IGN);
	return 0;
}

static int
group_teardown(void **state)
{
	signal(SIGPIPE, old_sigpipe);
	if (daemon_pid > 0) {
		kill(-daemon_pid, SIGTERM);
		waitpid(daemon_pid, NULL, 0);
		daemon_pid = 0;
	}
	if (sshd_pid > 0) {
		kill(-sshd_pid, SIGTERM);
		waitpid(sshd_pid, NULL, 0);
		sshd_pid = 0;
	}
	free(daemon_base);
	daemon_base = NULL;
	free(sshd_dir);
	sshd_dir = NULL;
	return 0;
}

/*
 * The record path's pack: under the threshold nothing moves; at it every
 * loose object goes into one pack and no loose copy stays; the runs read
 * as before and git fsck is clean.
 */
static void
pack_loose_packs_at_the_threshold(void **state)
{
	char *repo = new_bare_repo("pack.git"), *fsck;
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;

	/*
	 * Five objects on the branch a record; its key ref adds a commit,
	 * and the trees it does not share with the branch: none for the
	 * only key, two for the second (its package's and the root).
	 */
	record(bs, DEV_A, "r1", NULL);
	record(bs, DEV_A, "r2", NULL);
	record(bs, DEV_B, "r3", NULL);
	assert_int_equal(count_objects(repo, "count"), 20);
	assert_int_equal(baseline_store_pack_loose(&st, bs, 21), 0);
	assert_int_equal(st.packed, 0);
	assert_int_equal(count_objects(repo, "count"), 20);
	assert_int_equal(baseline_store_pack_loose(&st, bs, 20), 0);
	assert_int_equal(st.packed, 20);
	assert_int_equal(st.loose_packed, 20);
	assert_null(baseline_store_pack_error(bs));
	assert_int_equal(count_objects(repo, "count"), 0);
	assert_int_equal(count_objects(repo, "in-pack"), 20);
	assert_history(bs, "main", DEV_A, 0, "r2 r1");
	record(bs, DEV_A, "r4", NULL);
	assert_history(bs, "main", DEV_A, 0, "r4 r2 r1");
	fsck = git(repo, "fsck", "--full", "--strict", "--no-dangling", NULL);
	free(fsck);
	baseline_store_free(bs);
	free(repo);
}

/*
 * Packs stay few: the tenth small pack merges the ten into one, which
 * holds every object, and every run reads; git fsck is clean.
 */
static void
pack_loose_merges_ten_small_packs(void **state)
{
	char *repo = new_bare_repo("pack-merge.git"), *fsck;
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;

	for (int i = 1; i <= BASELINE_PACK_MERGE; i++) {
		char run[16];

		snprintf(run, sizeof(run), "r%d", i);
		/* Five objects on the branch, the key ref's commit. */
		record(bs, DEV_A, run, NULL);
		assert_int_equal(baseline_store_pack_loose(&st, bs, 1), 0);
		assert_int_equal(st.packed, 6);
		if (i < BASELINE_PACK_MERGE) {
			assert_int_equal(packs_in(repo), i);
			assert_int_equal(st.packs_removed, 0);
		}
	}
	assert_int_equal(st.packs_removed, BASELINE_PACK_MERGE);
	assert_int_equal(packs_in(repo), 1);
	assert_int_equal(count_objects(repo, "in-pack"),
	    6 * BASELINE_PACK_MERGE);
	assert_int_equal(count_objects(repo, "count"), 0);
	assert_history(bs, "main", DEV_A, 3, "r10 r9 r8");
	record(bs, DEV_A, "r11", NULL);
	assert_history(bs, "main", DEV_A, 0,
	    "r11 r10 r9 r8 r7 r6 r5 r4 r3 r2 r1");
	fsck = git(repo, "fsck", "--full", "--strict", "--no-dangling", NULL);
	free(fsck);
	baseline_store_free(bs);
	free(repo);
}

/* Write `packs` packs of `n` blobs each, which no ref reaches, with one
 * git fast-import (a checkpoint ends each pack). */
static void
blob_packs(const char *repo, int packs, int n)
{
	const char *argv[] = { "git", "-C", repo, "fast-import", "--quiet",
	    NULL };
	/* glibc grows the heap in larger steps: fast-import's many small
	 * allocations make fewer brk calls, which some sandboxes make
	 * slow. */
	const char *env[] = { "MALLOC_TOP_PAD_=268435456", NULL };
	struct proc_opts o = { .env = env };
	struct proc_result r;
	struct strbuf in = STRBUF_INIT;

	for (int p = 0; p < packs; p++) {
		for (int i = 0; i < n; i++) {
			char text[48];
			int len = snprintf(text, sizeof(text),
			    "filler %d %d\n", p, i);

			strbuf_addf(&in, "blob\ndata %d\n%s\n", len, text);
		}
		strbuf_addstr(&in, "checkpoint\n\n");
	}
	o.in = in.buf;
	o.in_len = in.len;
	proc_result_init(&r);
	assert_int_equal(proc_run(&r, argv, &o), 0);
	if (r.exit_code != 0)
		fail_msg("git fast-import: %s", r.err.buf);
	proc_result_release(&r);
	strbuf_release(&in);
}

/*
 * The record path merges only the smallest size class: ten packs of the
 * next (BASELINE_PACK_LOOSE x BASELINE_PACK_MERGE objects each) stay as
 * they are, so a record's work does not grow with the store, and gc puts
 * them all in one.
 */
static void
pack_loose_leaves_larger_classes_to_gc(void **state)
{
	char *repo = new_bare_repo("pack-classes.git");
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;
	int big = BASELINE_PACK_LOOSE * BASELINE_PACK_MERGE;

	blob_packs(repo, BASELINE_PACK_MERGE, big);
	assert_int_equal(packs_in(repo), BASELINE_PACK_MERGE);
	record(bs, DEV_A, "r1", NULL);
	assert_int_equal(baseline_store_pack_loose(&st, bs, 1), 0);
	assert_int_equal(st.packed, 6);
	assert_int_equal(st.packs_removed, 0);
	assert_int_equal(packs_in(repo), BASELINE_PACK_MERGE + 1);
	assert_int_equal(count_objects(repo, "in-pack"),
	    BASELINE_PACK_MERGE * big + 6);
	assert_history(bs, "main", DEV_A, 0, "r1");
	/* No grace: the blobs no ref reaches go with their packs. */
	assert_int_equal(baseline_store_gc(&st, bs, 0), 0);
	assert_int_equal(packs_in(repo), 1);
	assert_int_equal(count_objects(repo, "in-pack"), 6);
	assert_history(bs, "main", DEV_A, 0, "r1");
	baseline_store_free(bs);
	free(repo);
}

/*
 * A pack that cannot be written is JG_EIO, kept for
 * baseline_store_pack_error(), and every loose object stays: the runs
 * read as before, and the next pack goes through.
 */
static void
pack_loose_failure_keeps_every_object(void **state)
{
	char *repo = new_bare_repo("pack-fail.git"), *dir;
	struct baseline_store *bs = open_store(repo, 0);
	struct baseline_gc_stats st;

	record(bs, DEV_A, "r1", NULL);
	record(bs, DEV_A, "r2", NULL);
	/* objects/pack a file: no pack can be written there */
	dir = xasprintf("%s/objects/pack", repo);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(file_write_atomic(dir, "x", 1, 0644), 0);
	assert_int_equal(baseline_store_pack_loose(&st, bs, 1), JG_EIO);
	assert_non_null(baseline_store_pack_error(bs));
	assert_non_null(strstr(baseline_store_pack_error(bs), "pack"));
	assert_int_equal(count_objects(repo, "count"), 12);
	assert_history(bs, "main", DEV_A, 0, "r2 r1");
	assert_int_equal(unlink(dir), 0);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(baseline_store_pack_loose(&st, bs, 1), 0);
	assert_null(baseline_store_pack_error(bs));
	assert_int_equal(count_objects(repo, "count"), 0);
	assert_history(bs, "main", DEV_A, 0, "r2 r1");
	baseline_store_free(bs);
	free(dir);
	free(repo);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(path_accepts_only_safe_components),
	cmocka_unit_test(message_round_trips),
	cmocka_unit_test(accept_message_keeps_reason),
	cmocka_unit_test(message_rejects_bad_fields),
	cmocka_unit_test(foreign_message_parses),
	cmocka_unit_test(message_keeps_build_id),
	cmocka_unit_test(content_check_tells_results_files),
	cmocka_unit_test(scrub_removes_userinfo_and_secret),
	cmocka_unit_test(records_are_plain_git_history),
	cmocka_unit_test(key_refs_mirror_the_branch),
	cmocka_unit_test(key_refs_catch_up),
	cmocka_unit_test(key_refs_skip_what_is_no_baseline),
	cmocka_unit_test(history_at_tag_stops_there),
	cmocka_unit_test(no_baseline_yet_is_empty),
	cmocka_unit_test(unknown_ref_lists_refs),
	cmocka_unit_test(missing_repository),
	cmocka_unit_test(foreign_files_are_invalid),
	cmocka_unit_test(worktree_is_not_touched),
	cmocka_unit_test(same_device_twice_in_order),
	cmocka_unit_test(accept_is_logged_with_reason),
	cmocka_unit_test(log_lists_versions),
	cmocka_unit_test(show_gives_files_at_rev),
	cmocka_unit_test(concurrent_local_writers_both_land),
	cmocka_unit_test(racing_first_commits_both_land),
	cmocka_unit_test(refusing_hook_keeps_branch),
	cmocka_unit_test(update_hook_refuses_one_branch),
	cmocka_unit_test(hook_without_git_is_not_written),
	cmocka_unit_test(hook_push_ignores_inherited_object_dir),
	cmocka_unit_test(hooked_local_writers_both_land),
	cmocka_unit_test(remote_record_is_pushed),
	cmocka_unit_test_teardown(cancel_records_nothing, unit_cancel_forget),
	cmocka_unit_test_teardown(cancel_pushes_and_fetches_nothing, unit_cancel_forget),
	cmocka_unit_test(stale_push_is_retried),
	cmocka_unit_test(concurrent_remote_writers_both_land),
	cmocka_unit_test(partial_cache_reads_key_refs),
	cmocka_unit_test(remote_not_found),
	cmocka_unit_test(ssh_key_file_and_host_key),
	cmocka_unit_test(token_not_in_connect_error),
	cmocka_unit_test(refused_token_is_auth_error),
	cmocka_unit_test(token_not_sent_in_clear),
	cmocka_unit_test(gc_packs_branches_and_tags),
	cmocka_unit_test(gc_keeps_young_unreachable),
	cmocka_unit_test(gc_replaces_older_packs),
	cmocka_unit_test(gc_removes_old_temporary_pack_files),
	cmocka_unit_test(gc_of_empty_repository),
	cmocka_unit_test(gc_keeps_what_the_index_and_reflogs_name),
	cmocka_unit_test(pack_loose_packs_at_the_threshold),
	cmocka_unit_test(pack_loose_merges_ten_small_packs),
	cmocka_unit_test(pack_loose_leaves_larger_classes_to_gc),
	cmocka_unit_test(pack_loose_failure_keeps_every_object),
	cmocka_unit_test(network_urls_are_told_apart),
};

JG_UNIT_GROUP(baseline_store, tests, group_setup, group_teardown)
