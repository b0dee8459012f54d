/*
 * cmd_baseline.c: `jankgate baseline`, the baseline repository by hand.
 *
 * Five verbs over the store of baseline_store.h:
 *
 *   record RESULTS.json   commit the run as its device's new baseline
 *   accept RESULTS.json   the same, blessed by a person with --reason
 *   log                   the runs stored on a ref, newest first: the
 *                         newest 20 unless -n N or --all, so that a
 *                         plain log costs the same after a year of nights
 *   show REF              the results file(s) stored at a ref or commit
 *   gc                    pack what the refs reach and prune the rest
 *                         (a local repository only: a network one is
 *                         refused before it is fetched), after thinning
 *                         branches by baseline.retain when it is set
 *
 * `record` always records: the update policy (baseline.update) is `gate`'s
 * to apply, since only gate knows the verdict it just reached; a person
 * who runs `record` has already decided.  The verdict written into the
 * commit is --verdict, "unchecked" when not given; an acceptance is
 * "accepted".  A run that did not finish (run.complete false) would make a
 * baseline of fewer iterations than planned, so both refuse it unless
 * --force.
 *
 * The repository is --repo, else baseline.repo from the configuration.
 * The configuration is optional (cmd_load_config_optional): -c FILE or
 * $JANKGATE_CONFIG must name a valid file, ./jankgate.json is read when it
 * exists, and otherwise the defaults and the JANKGATE_* environment apply
 * (so JANKGATE_BASELINE_REPO works without a file).
 *
 * Exit status (exitstatus.h): 0 done, including "no baseline yet" for log
 * and show; 2 for bad usage, a missing, invalid or incomplete results file
 * (a number out of its limits included, as `check` refuses it), no
 * repository configured, a repository or ref that does not exist,
 * foreign files where a baseline belongs, or gc of a network repository;
 * 3 when the repository cannot be reached, authentication fails, every
 * push retry was beaten, or SIGINT/SIGTERM stopped a record or accept
 * (nothing is recorded once the signal is seen: a push in flight is
 * stopped).  Messages name the repository as baseline_store_name() does,
 * without userinfo; the store scrubs tokens from its own.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "baseline_store.h"
#include "cancel.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "fileio.h"
#include "jsonw.h"
#include "results.h"
#include "retain.h"
#include "strbuf.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate baseline record RESULTS.json [--verdict VERDICT] "
	"[--ref BRANCH] [--force] [--repo URL]",
	"jankgate baseline accept RESULTS.json --reason TEXT [--ref BRANCH] "
	"[--force] [--repo URL]",
	"jankgate baseline log [--device KEY] [--package PKG] [--ref REF] "
	"[-n N | --all] [--json] [--repo URL]",
	"jankgate baseline show REF [--device KEY] [--package PKG] "
	"[--repo URL]",
	"jankgate baseline gc [--repo URL]",
	NULL
};

static const char options[] =
	"  record               commit RESULTS.json as its device's baseline\n"
	"                       (always: the update policy is gate's)\n"
	"  accept               the same, blessed by hand after an intended\n"
	"                       change\n"
	"  log                  the stored runs on a ref, newest first (the\n"
	"                       newest 20 unless -n or --all)\n"
	"  show                 the results file stored at REF (a branch,\n"
	"                       tag or commit), or the paths when several\n"
	"  gc                   pack what branches and tags reach; remove\n"
	"                       the loose copies and unreachable objects\n"
	"                       older than 2 weeks (local repositories);\n"
	"                       first drop the runs baseline.retain does not\n"
	"                       keep from branches, one line each\n"
	"  --verdict VERDICT    pass, regression, improvement,\n"
	"                       inconclusive, new or unchecked (default)\n"
	"  --reason TEXT        why the change is intended (required)\n"
	"  --ref BRANCH|REF     default: baseline.ref (main)\n"
	"  --force              record a run that did not complete\n"
	"  --device KEY         one device key only\n"
	"  --package PKG        one app only\n"
	"  -n N                 at most N entries\n"
	"  --all                every entry\n"
	"  --json               print a JSON array\n"
	"  --repo URL           the repository: a path, file://, ssh:// or\n"
	"                       https:// URL (default: baseline.repo)\n"
	"  -c FILE              baseline.* from this configuration\n"
	"                       (default: $JANKGATE_CONFIG, then\n"
	"                       ./jankgate.json if present, else built-in)\n"
	"Exit status: 0 done (also \"no baseline yet\"), 2 bad input, an\n"
	"unknown repository or ref, foreign files, or gc of a network\n"
	"repository, 3 repository unreachable, authentication failed or\n"
	"push retries exhausted.\n";

/* Options, as bits, so that each verb can say which it takes. */
enum {
	OPT_REPO = 1 << 0,
	OPT_REF = 1 << 1,
	OPT_DEVICE = 1 << 2,
	OPT_PACKAGE = 1 << 3,
	OPT_VERDICT = 1 << 4,
	OPT_REASON = 1 << 5,
	OPT_FORCE = 1 << 6,
	OPT_JSON = 1 << 7,
	OPT_MAX = 1 << 8,
	OPT_ALL = 1 << 9,
};

/* What a plain `baseline log` shows: the newest runs, a page. */
#define LOG_PAGE 20

struct baseline_args {
	const struct verb *v;	/* the verb's row */
	const char *verb;
	const char *operand;	/* RESULTS.json or REF */
	const char *repo;
	const char *ref;
	const char *device;
	const char *package;
	const char *verdict;
	const char *reason;
	size_t max;		/* -n; 0: all */
	int force;
	int json;
	int all;	/* --all */
	unsigned seen;		/* OPT_* given */
};

/* Verdicts a recorded run may carry: a gate's, or none reached. */
static const char *const verdicts[] = {
	"pass", "regression", "improvement", "inconclusive", "new",
	"unchecked", NULL
};

static const struct verb {
	const char *name;
	int operand;		/* takes one operand */
	int writes;		/* the operand is a run to commit */
	unsigned allowed;
} verbs[] = {
	{ "record", 1, 1, OPT_REPO | OPT_REF | OPT_VERDICT | OPT_FORCE },
	{ "accept", 1, 1, OPT_REPO | OPT_REF | OPT_REASON | OPT_FORCE },
	{ "log", 0, 0, OPT_REPO | OPT_REF | OPT_DEVICE | OPT_PACKAGE |
	  OPT_JSON | OPT_MAX | OPT_ALL },
	{ "show", 1, 0, OPT_REPO | OPT_DEVICE | OPT_PACKAGE },
	{ "gc", 0, 0, OPT_REPO },
	{ NULL, 0, 0, 0 }
};

static const struct option longopts[] = {
	{ "repo", required_argument, NULL, 'R' },
	{ "ref", required_argument, NULL, 'r' },
	{ "device", required_argument, NULL, 'd' },
	{ "package", required_argument, NULL, 'p' },
	{ "verdict", required_argument, NULL, 'V' },
	{ "reason", required_argument, NULL, 'm' },
	{ "force", no_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "all", no_argument, NULL, 'a' },
	{ NULL, 0, NULL, 0 }
};

/* Each option's getopt value, bit and name as the user types it. */
static const struct {
	int opt;
	unsigned bit;
	const char *name;
} opt_bits[] = {
	{ 'R', OPT_REPO, "--repo" },
	{ 'r', OPT_REF, "--ref" },
	{ 'd', OPT_DEVICE, "--device" },
	{ 'p', OPT_PACKAGE, "--package" },
	{ 'V', OPT_VERDICT, "--verdict" },
	{ 'm', OPT_REASON, "--reason" },
	{ 'f', OPT_FORCE, "--force" },
	{ 'j', OPT_JSON, "--json" },
	{ 'n', OPT_MAX, "-n" },
	{ 'a', OPT_ALL, "--all" },
};
#define NR_OPT_BITS (sizeof(opt_bits) / sizeof(opt_bits[0]))

static unsigned
opt_bit(int opt)
{
	for (size_t i = 0; i < NR_OPT_BITS; i++)
		if (opt_bits[i].opt == opt)
			return opt_bits[i].bit;
	return 0;
}

static int
parse_max(size_t *out, const char *s)
{
	char *end;
	long n;

	n = strtol(s, &end, 10);
	if (end == s || *end || n < 1 || n > 1000000)
		return -1;
	*out = (size_t)n;
	return 0;
}

/*
 * Options may come before or after the verb and its operand; the verb is
 * the first word that is not an option.  Returns 0 or the exit status.
 */
static int
parse_args(struct baseline_args *a, const struct verb **vp, int argc,
    char **argv)
{
	const struct command *self = &cmd_baseline;
	const struct verb *v;
	int opt;

	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS "n:",
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		switch (opt) {
		case 'R':
			a->repo = optarg;
			break;
		case 'r':
			a->ref = optarg;
			break;
		case 'd':
			a->device = optarg;
			break;
		case 'p':
			a->package = optarg;
			break;
		case 'V':
			a->verdict = optarg;
			break;
		case 'm':
			a->reason = optarg;
			break;
		case 'f':
			a->force = 1;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'a':
			a->all = 1;
			break;
		case 'n':
			if (parse_max(&a->max, optarg))
				return cmd_usage_error(self, "-n needs a "
				    "positive number, got '%s'", optarg);
			break;
		default:
			return cmd_usage_error(self, NULL);
		}
		a->seen |= opt_bit(opt);
	}
	if (optind >= argc)
		return cmd_usage_error(self, "no verb given (record, accept, "
		    "log, show or gc)");
	a->verb = argv[optind++];
	for (v = verbs; v->name && strcmp(v->name, a->verb); v++)
		;
	if (!v->name)
		return cmd_usage_error(self, "unknown verb '%s'", a->verb);
	if (v->operand && optind >= argc)
		return cmd_usage_error(self, "baseline %s needs %s", v->name,
		    !strcmp(v->name, "show") ? "a ref or commit" :
		    "a results file");
	if (v->operand)
		a->operand = argv[optind++];
	if (optind < argc)
		return cmd_usage_error(self, "unexpected argument '%s'",
		    argv[optind]);
	for (size_t i = 0; i < NR_OPT_BITS; i++)
		if ((a->seen & opt_bits[i].bit) &&
		    !(v->allowed & opt_bits[i].bit))
			return cmd_usage_error(self, "baseline %s does not "
			    "take %s", v->name, opt_bits[i].name);
	if ((a->seen & OPT_MAX) && a->all)
		return cmd_usage_error(self, "-n N and --all exclude each "
		    "other");
	if (!strcmp(v->name, "accept") && !a->reason)
		return cmd_usage_error(self, "baseline accept needs --reason "
		    "TEXT saying why the change is intended");
	*vp = v;
	return 0;
}

/*
 * Read and check the run to record; keeps its bytes in `data`.  The bytes
 * are what gets committed, so the read is strict (as `check` reads): a
 * lenient one would read a value out of its limits as absent and let the
 * value itself into the baseline, for `baseline show` and every later
 * reader to meet.
 */
static int
read_run(struct results **out, struct strbuf *data,
    const struct baseline_args *a)
{
	const struct results *r;

	if (file_read(data, a->operand) ||
	    results_parse_strict(out, data->buf, data->len, a->operand)) {
		diag_error_current();
		return EXIT_BAD_INPUT;
	}
	r = *out;
	if (!r->app.package || !r->device.key || !r->run.id) {
		diag_error("'%s' has no %s; a baseline is filed under the "
		    "app's package and the device key, named by the run id",
		    a->operand, !r->app.package ? "app.package" :
		    !r->device.key ? "device.key" : "run.id");
		return EXIT_BAD_INPUT;
	}
	if (!r->run.complete && !a->force) {
		diag_error("run '%s' in '%s' is incomplete%s%s; record it "
		    "anyway with --force", r->run.id, a->operand,
		    r->run.errors.nr ? ": " : "",
		    r->run.errors.nr ? r->run.errors.items[0] : "");
		return EXIT_BAD_INPUT;
	}
	return 0;
}

static int
verdict_check(const char *v)
{
	struct strbuf list = STRBUF_INIT;

	for (const char *const *p = verdicts; *p; p++)
		if (!strcmp(*p, v))
			return 0;
	for (const char *const *p = verdicts; *p; p++)
		strbuf_addf(&list, "%s%s", p == verdicts ? "" : ", ", *p);
	diag_error("unknown verdict '%s'; use one of %s", v, list.buf);
	strbuf_release(&list);
	return EXIT_BAD_INPUT;
}

static int
do_record(struct baseline_store *bs, const struct results *r,
    const struct strbuf *data, const char *branch,
    const struct baseline_args *a)
{
	char id[BASELINE_OID_HEXSZ + 1];
	struct strbuf path = STRBUF_INIT;
	int accept = !strcmp(a->verb, "accept"), rc, attempts;

	rc = baseline_record_run(id, bs, branch, r, data->buf, data->len,
	    accept ? "accepted" : a->verdict ? a->verdict : "unchecked",
	    accept ? a->reason : NULL);
	if (rc) {
		diag_error_current();
		return exit_status_for_lookup(rc);
	}
	printf("%s\n", id);
	baseline_path(&path, r->app.package, r->device.key);
	attempts = baseline_store_attempts(bs);
	if (!attempts)
		diag_info("'%s' on '%s' in '%s' already holds this run; "
		    "nothing to commit", path.buf, branch,
		    baseline_store_name(bs));
	else
		diag_info("%s '%s' on '%s' in '%s' as %.10s%s",
		    accept ? "accepted" : "recorded", path.buf, branch,
		    baseline_store_name(bs), id, attempts > 1 ?
		    " (after a concurrent push)" : "");
	if (baseline_store_pack_error(bs))
		diag_warn("%s; the run is recorded, and the next record or "
		    "'jankgate baseline gc' packs again",
		    baseline_store_pack_error(bs));
	if (baseline_store_key_error(bs))
		diag_warn("%s; the run is recorded, and the key's next record "
		    "or 'jankgate baseline gc' updates its key ref",
		    baseline_store_key_error(bs));
	strbuf_release(&path);
	return EXIT_PASS;
}

/* "2024-05-01 02:00:00 +0000", or ISO 8601 with `iso`. */
static void
format_date(struct strbuf *out, long long t, int tz_minutes, int iso)
{
	time_t local = (time_t)(t + tz_minutes * 60LL);
	int off = tz_minutes < 0 ? -tz_minutes : tz_minutes;
	char buf[32];
	struct tm tm;

	if (!gmtime_r(&local, &tm) || !strftime(buf, sizeof(buf),
	    iso ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm)) {
		strbuf_addstr(out, "?");
		return;
	}
	strbuf_addf(out, iso ? "%s%c%02d:%02d" : "%s %c%02d%02d", buf,
	    tz_minutes < 0 ? '-' : '+', off / 60, off % 60);
}

static const char *
or_dash(const char *s)
{
	return s ? s : "-";
}

/*
 * The BUILD column (Jankgate-Build) only when some run of the page has
 * one: a store from before build ids reads as it always did.
 */
static void
print_log_table(const struct baseline_entry *e, size_t nr)
{
	bool builds = false;

	for (size_t i = 0; i < nr; i++)
		builds = builds || e[i].build_id;
	printf("%-25s  %-10s  %-12s  %-12s  %-24s  %s%s\n", "DATE", "COMMIT",
	    "VERDICT", "APP VERSION", "RUN", "BASELINE", builds ?
	    "  BUILD" : "");
	for (size_t i = 0; i < nr; i++) {
		struct strbuf date = STRBUF_INIT;

		format_date(&date, e[i].time, e[i].tz_minutes, 0);
		printf("%-25s  %-10.10s  %-12s  %-12s  %-24s  %s/%s%s%s\n",
		    date.buf, e[i].commit, or_dash(e[i].verdict),
		    or_dash(e[i].app_version), or_dash(e[i].run_id),
		    e[i].package, e[i].device_key, builds ? "  " : "",
		    builds ? or_dash(e[i].build_id) : "");
		strbuf_release(&date);
	}
}

static void
print_log_json(const struct baseline_entry *e, size_t nr)
{
	struct strbuf sb = STRBUF_INIT, date = STRBUF_INIT;
	struct jsonw w;

	jsonw_init(&w, &sb);
	jsonw_open(&w, NULL, '[');
	for (size_t i = 0; i < nr; i++) {
		strbuf_setlen(&date, 0);
		format_date(&date, e[i].time, e[i].tz_minutes, 1);
		jsonw_open(&w, NULL, '{');
		jsonw_str(&w, "commit", e[i].commit);
		jsonw_str(&w, "date", date.buf);
		jsonw_str(&w, "package", e[i].package);
		jsonw_str(&w, "device_key", e[i].device_key);
		jsonw_str(&w, "app_version", e[i].app_version);
		jsonw_str(&w, "run_id", e[i].run_id);
		jsonw_str(&w, "build_id", e[i].build_id);
		jsonw_str(&w, "verdict", e[i].verdict);
		jsonw_lit(&w, "accepted", e[i].accepted_by ? "true" : "false");
		jsonw_str(&w, "accepted_by", e[i].accepted_by);
		jsonw_str(&w, "reason", e[i].reason);
		jsonw_str(&w, "subject", e[i].subject);
		jsonw_close(&w, '}');
	}
	jsonw_close(&w, ']');
	jsonw_end(&w);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	strbuf_release(&date);
}

/* "for device 'k' of 'p'", for the messages of an empty answer. */
static void
describe_filter(struct strbuf *out, const struct baseline_args *a)
{
	if (a->device)
		strbuf_addf(out, " for device '%s'", a->device);
	if (a->package)
		strbuf_addf(out, " %s '%s'", a->device ? "of" : "for",
		    a->package);
}

static int
do_log(struct baseline_store *bs, const char *ref,
    const struct baseline_args *a)
{
	struct baseline_entry *e = NULL;
	struct strbuf filter = STRBUF_INIT;
	size_t nr = 0, shown;
	int paged = !a->max && !a->all, rc;

	/* A page asks for one entry more, to know that there are more
	 * without walking the whole history. */
	rc = baseline_store_log(&e, &nr, bs, ref, a->package, a->device,
	    paged ? LOG_PAGE + 1 : a->max);
	if (rc) {
		diag_error_current();
		return exit_status_for_lookup(rc);
	}
	shown = paged && nr > LOG_PAGE ? LOG_PAGE : nr;
	if (a->json)
		print_log_json(e, shown);
	else if (shown)
		print_log_table(e, shown);
	if (shown < nr)
		diag_info("the newest %d runs; older ones are not shown: "
		    "--all shows every run, -n N the newest N", LOG_PAGE);
	if (!nr) {
		describe_filter(&filter, a);
		diag_info("no baseline yet%s on '%s' in '%s'", filter.buf, ref,
		    baseline_store_name(bs));
	}
	strbuf_release(&filter);
	baseline_entries_free(e, nr);
	return EXIT_PASS;
}

static int
do_show(struct baseline_store *bs, const struct baseline_args *a)
{
	struct baseline_entry *e = NULL;
	struct strbuf filter = STRBUF_INIT;
	size_t nr = 0;
	int rc;

	rc = baseline_store_show(&e, &nr, bs, a->operand, a->package,
	    a->device);
	if (rc) {
		diag_error_current();
		return exit_status_for_lookup(rc);
	}
	if (nr == 1) {
		fwrite(e[0].data, 1, e[0].len, stdout);
	} else if (nr > 1) {
		for (size_t i = 0; i < nr; i++)
			printf("%s/%s/%s\n", e[i].package, e[i].device_key,
			    BASELINE_FILE);
		diag_info("%zu baselines at '%s'; pick one with --device KEY "
		    "(and --package PKG)", nr, a->operand);
	} else {
		describe_filter(&filter, a);
		diag_info("no baseline%s at '%s' in '%s'", filter.buf,
		    a->operand, baseline_store_name(bs));
	}
	strbuf_release(&filter);
	baseline_entries_free(e, nr);
	return EXIT_PASS;
}

/* Apply baseline.retain; print each run dropped on standard output. */
static int
do_retain(struct baseline_store *bs, const char *rule_text)
{
	struct retain_rule rule;
	struct baseline_drop *d = NULL;
	size_t nr = 0;
	int rc;

	if (retain_parse(&rule, rule_text) < 0) {
		diag_error("baseline.retain: %s", jg_error_msg());
		return EXIT_BAD_INPUT;
	}
	rc = baseline_store_retain(&d, &nr, bs, &rule, (long long)time(NULL));
	for (size_t i = 0; i < nr; i++) {
		struct strbuf date = STRBUF_INIT;

		format_date(&date, d[i].time, 0, 0);
		printf("dropped %.10s  %s  %-12s  %-24s  %s/%s\n", d[i].commit,
		    date.buf, d[i].branch, d[i].run_id, d[i].package,
		    d[i].device_key);
		strbuf_release(&date);
	}
	if (!rc)
		diag_info("baseline.retain '%s' dropped %zu runs; tagged runs "
		    "and acceptances stay", rule_text, nr);
	baseline_drops_free(d, nr);
	if (rc) {
		diag_error_current();
		return exit_status_for_lookup(rc);
	}
	return EXIT_PASS;
}

static int
do_gc(struct baseline_store *bs, const char *retain)
{
	struct baseline_gc_stats st;
	size_t moved;
	int rc;

	if (retain && (rc = do_retain(bs, retain)))
		return rc;
	/* Key refs follow what retention wrote, before the pack. */
	if ((rc = baseline_store_sync_keys(&moved, bs))) {
		diag_error_current();
		return exit_status_for_lookup(rc);
	}
	if (moved)
		diag_info("brought %zu key refs of '%s' in line with their "
		    "branches", moved, baseline_store_name(bs));
	rc = baseline_store_gc(&st, bs, BASELINE_GC_GRACE);
	if (rc) {
		diag_error_current();
		return exit_status_for_lookup(rc);
	}
	if (st.pack[0])
		diag_info("packed %zu objects of '%s' into pack-%s",
		    st.packed, baseline_store_name(bs), st.pack);
	else
		diag_info("'%s' has nothing a branch or tag reaches; "
		    "nothing to pack", baseline_store_name(bs));
	diag_info("removed %zu loose objects now packed, %zu unreachable "
	    "ones and %zu older packs; kept %zu unreachable ones younger "
	    "than 2 weeks", st.loose_packed, st.pruned, st.packs_removed,
	    st.kept);
	return EXIT_PASS;
}

/* gc packs a repository in place; a network one is its server's. */
static int
gc_check_local(const struct config *cfg, const struct baseline_args *a)
{
	struct baseline_store_opts o;
	struct strbuf name = STRBUF_INIT;

	baseline_opts_from_config(&o, &cfg->baseline, a->repo);
	if (!o.repo || !baseline_is_network_url(o.repo))
		return 0;
	baseline_scrub(&name, o.repo, NULL);
	diag_error("baseline gc packs a repository on this machine, and "
	    "'%s' is a network one; run 'jankgate baseline gc --repo PATH' "
	    "on the machine that holds it, or 'git gc' there", name.buf);
	strbuf_release(&name);
	return EXIT_BAD_INPUT;
}

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct baseline_args *a = args;
	int status = parse_args(a, &a->v, argc, argv);

	if (!status && a->verdict)
		status = verdict_check(a->verdict);
	return status;
}

static int
run(void *args, const struct config *cfg)
{
	const struct baseline_args *a = args;
	const struct verb *v = a->v;
	struct baseline_store *bs = NULL;
	struct results *r = NULL;
	struct strbuf data = STRBUF_INIT;
	const char *ref = a->ref ? a->ref : cfg->baseline.ref;
	int status;

	/* Bad input comes out before anything touches the repository. */
	if (v->writes && (status = read_run(&r, &data, a)))
		goto out;
	if (!strcmp(v->name, "gc") && (status = gc_check_local(cfg, a)))
		goto out;
	if ((status = cmd_baseline_open(&bs, cfg, a->repo)))
		goto out;
	if (v->writes)
		status = do_record(bs, r, &data, ref, a);
	else if (!strcmp(v->name, "log"))
		status = do_log(bs, ref, a);
	else if (!strcmp(v->name, "gc"))
		status = do_gc(bs, cfg->baseline.retain);
	else
		status = do_show(bs, a);
out:
	baseline_store_free(bs);
	results_free(r);
	strbuf_release(&data);
	return status;
}

const struct command cmd_baseline = {
	.name = "baseline",
	.summary = "record, accept, list and show baselines in the git "
	    "repository, and pack it",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG_OPTIONAL,
	.args_size = sizeof(struct baseline_args),
	.parse = parse,
	.run = run,
	.stop = cancel_request,
};
