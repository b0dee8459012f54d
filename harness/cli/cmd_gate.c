/*
 * cmd_gate.c: `jankgate gate`, the nightly one-shot.
 *
 * Options over the configuration (flags > environment > file), then
 * gate_execute() (gate.h), then the verdict table on stdout: one block per
 * device key with its devices, iterations, looks and verdict, the counts
 * of each verdict, the regressions by scenario, scene and metric, the
 * suspects (passes that lean worse, never a verdict: compare.h), the new
 * and worse main-thread blocks, and what became of the baseline; then
 * every problem, where the report is, what became of the mail, and the
 * verdict with its exit status.  The warnings of the runs (a source that
 * yielded nothing, a version that could not be verified) are printed once
 * each on stderr before the table, however many batches said them.  The
 * --mail and --update words are the configuration's (mail.when,
 * baseline.update).  Each stage's progress and failures go to stderr as
 * they happen.  SIGINT and SIGTERM stop the measuring (its stop hook is
 * run_interrupt()); what was measured is still compared and reported,
 * and nothing is mailed or recorded.  With --bisect, a "bisect" line
 * gives the bisect's verdict (or why none ran) and another its report.
 *
 * `jankgate ab` (cmd_ab) is the same command with --ab: two builds
 * interleaved on the same phones instead of stored baselines (gate_ab.c).
 *
 * Exit status: exitstatus.h's rules, as gate.h says.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "gate.h"
#include "results.h"
#include "run.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate gate [-s SERIAL]... [--connect HOST:PORT]... "
	"[--against REF] [--repo URL] [--shard I/N] [-o DIR] "
	"[--mail always|regression|never] [--update never|on-pass|always] "
	"[--confirm-apk OLD.apk] [--build-id ID] [--bisect] [--no-mail]",
	"jankgate gate --ab OLD.apk [-s SERIAL]... [--connect HOST:PORT]... "
	"[--block N] [--rounds N] [-o DIR] [--mail always|regression|never] "
	"[--no-mail]",
	NULL
};

static const char *const ab_usage[] = {
	"jankgate ab --baseline-apk OLD.apk [--apk NEW.apk] [-s SERIAL]... "
	"[--connect HOST:PORT]... [--block N] [--rounds N] [-o DIR] "
	"[--mail always|regression|never] [--no-mail]",
	NULL
};

static const char ab_options[] =
	"  --baseline-apk OLD.apk  the old build (A), the baseline\n"
	"  --apk NEW.apk       the new build (B) (default: the configured\n"
	"                      apk)\n"
	"  -s SERIAL           a device to use (repeatable; default:\n"
	"                      devices.serials, else every attached one)\n"
	"  --connect HOST:PORT `adb connect` a network device first\n"
	"  --block N           iterations a block (default: as many as keep\n"
	"                      installs within 15 % of device time, from\n"
	"                      iterations up to max_iterations)\n"
	"  --rounds N          most rounds of four blocks, ABBA (default 5)\n"
	"  -o DIR              results (DIR/KEY/a, DIR/KEY/b), comparisons\n"
	"                      and report (default: out_dir)\n"
	"  --mail WHEN         always, regression or never (default:\n"
	"                      mail.when); --no-mail is --mail never\n"
	"Each block installs its build (-d over a debuggable build, else\n"
	"after uninstalling the other), clears the app's data and runs the\n"
	"scenarios; after each round B is compared with A, block by block\n"
	"as sessions.  Nothing is recorded as a baseline.  Exit status: 0\n"
	"pass, 1 regression, 2 bad input, 3 infrastructure failure (an\n"
	"install refused, a device lost), 4 inconclusive after the rounds.\n";

static const char options[] =
	"  -s SERIAL           a device to use (repeatable; default:\n"
	"                      devices.serials, else every attached one)\n"
	"  --connect HOST:PORT `adb connect` a network device first\n"
	"  --against REF       compare with this branch or tag of the\n"
	"                      baseline repository (default: baseline.ref)\n"
	"  --repo URL          the baseline repository (default:\n"
	"                      baseline.repo)\n"
	"  --shard I/N         measure only shard I of N of the (device,\n"
	"                      scenario) pairs; merge with jankgate report\n"
	"  -o DIR              results, comparisons and report (default:\n"
	"                      out_dir)\n"
	"  --mail WHEN         always, regression or never (default:\n"
	"                      mail.when); --no-mail is --mail never\n"
	"  --update WHEN       record the run as the new baseline: never,\n"
	"                      on-pass or always (default: baseline.update)\n"
	"  --confirm-apk OLD.apk  confirm a regression with an interleaved\n"
	"                      A/B against OLD.apk, the build the baseline\n"
	"                      measured (default: baseline.previous_apk)\n"
	"  --build-id ID       tonight's build as CI names it, recorded\n"
	"                      with the run (default: build_id)\n"
	"  --bisect            after a regression, bisect the builds from\n"
	"                      the last passing baseline run's build id to\n"
	"                      tonight's (bisect.manifest, or bisect.repo\n"
	"                      and bisect.build) on the phones that\n"
	"                      regressed, into DIR/bisect/; the exit status\n"
	"                      stays the night's (default: bisect.gate)\n"
	"  --ab OLD.apk        compare with OLD.apk interleaved on the\n"
	"                      same phones instead of stored baselines (as\n"
	"                      jankgate ab); --block N, --rounds N as there\n"
	"Inconclusive comparisons get more iterations, up to\n"
	"max_iterations; a regression is confirmed on the suspect scenarios\n"
	"by an A/B against the previous build when there is one.  Exit status: 0 pass, 1 regression, 2 bad input or\n"
	"a baseline not comparable, 3 infrastructure failure (a device\n"
	"lost, an install refused, git or SMTP), 4 inconclusive after\n"
	"max_iterations.\n";

struct gate_args {
	struct gate_opts o;
	const char *mail;
	const char *update;
	const char *shard;
	bool ab;		/* `jankgate ab`, not `gate` */
	const char *block, *rounds;
	const char *build_id;	/* --build-id */
	bool bisect;		/* --bisect */
};

/* A count from 1 to 1000 for --block and --rounds, else -1. */
static int
count_arg(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	return *end || end == s || n < 1 || n > 1000 ? -1 : (int)n;
}

static int
parse_args(struct gate_opts *o, struct gate_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "connect", required_argument, NULL, 'C' },
		{ "against", required_argument, NULL, 'A' },
		{ "repo", required_argument, NULL, 'R' },
		{ "shard", required_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' },
		{ "mail", required_argument, NULL, 'M' },
		{ "no-mail", no_argument, NULL, 'N' },
		{ "update", required_argument, NULL, 'U' },
		{ "ab", required_argument, NULL, 'B' },
		{ "baseline-apk", required_argument, NULL, 'b' },
		{ "apk", required_argument, NULL, 'P' },
		{ "block", required_argument, NULL, 'K' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "confirm-apk", required_argument, NULL, 'F' },
		{ "build-id", required_argument, NULL, 'I' },
		{ "bisect", no_argument, NULL, 'Y' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = a->ab ? &cmd_ab : &cmd_gate;
	int opt;

	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS "s:o:",
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		switch (opt) {
		case 's':
			strlist_add(&o->serials, optarg);
			break;
		case 'C':
			strlist_add(&o->connect, optarg);
			break;
		case 'A':
			o->against = optarg;
			break;
		case 'R':
			o->repo = optarg;
			break;
		case 'S':
			a->shard = optarg;
			break;
		case 'o':
			o->out_dir = optarg;
			break;
		case 'M':
			a->mail = optarg;
			break;
		case 'N':
			a->mail = "never";
			break;
		case 'U':
			a->update = optarg;
			break;
		case 'B':
			if (a->ab)
				return cmd_usage_error(self, "--ab is gate's; "
				    "here the old build is --baseline-apk");
			o->ab_old_apk = optarg;
			break;
		case 'b':
		case 'P':
			if (!a->ab)
				return cmd_usage_error(self, "--%s is "
				    "jankgate ab's", opt == 'b' ?
				    "baseline-apk" : "apk");
			if (opt == 'b')
				o->ab_old_apk = optarg;
			else
				o->ab_new_apk = optarg;
			break;
		case 'K':
			a->block = optarg;
			break;
		case 'F':
			if (a->ab)
				return cmd_usage_error(self, "--confirm-apk is "
				    "gate's: jankgate ab is an A/B already");
			o->confirm_apk = optarg;
			break;
		case 'r':
			a->rounds = optarg;
			break;
		case 'I':
		case 'Y':
			if (a->ab)
				return cmd_usage_error(self, "--%s is gate's: "
				    "an A/B records no baseline", opt == 'I' ?
				    "build-id" : "bisect");
			if (opt == 'I')
				a->build_id = optarg;
			else
				a->bisect = true;
			break;
		default:
			return cmd_usage_error(self, NULL);
		}
	}
	if (optind < argc)
		return cmd_usage_error(self, "unexpected argument '%s'",
		    argv[optind]);
	if (a->ab && !o->ab_old_apk)
		return cmd_usage_error(self, "no old build: --baseline-apk "
		    "OLD.apk is required");
	if (o->ab_old_apk && (o->against || o->repo || a->shard ||
	    a->update))
		return cmd_usage_error(self, "an interleaved A/B compares two "
		    "builds, not stored baselines: --against, --repo, --shard "
		    "and --update do not go with it");
	if (o->ab_old_apk && (a->build_id || a->bisect))
		return cmd_usage_error(self, "--build-id and --bisect go with "
		    "the stored baselines, not with --ab");
	if (o->ab_old_apk && o->confirm_apk)
		return cmd_usage_error(self, "--confirm-apk confirms what the "
		    "stored baselines found; --ab compares two builds without "
		    "them");
	if (!o->ab_old_apk && (a->block || a->rounds))
		return cmd_usage_error(self, "--block and --rounds go with "
		    "--ab OLD.apk");
	if (a->block && (o->ab_block = count_arg(a->block)) < 0)
		return cmd_usage_error(self, "--block takes a count from 1, "
		    "not '%s'", a->block);
	if (a->rounds && (o->ab_rounds = count_arg(a->rounds)) < 0)
		return cmd_usage_error(self, "--rounds takes a count from 1, "
		    "not '%s'", a->rounds);
	return 0;
}

/* The flags that need the configuration's defaults underneath. */
static int
apply_args(struct gate_opts *o, const struct gate_args *a)
{
	const struct command *self = a->ab ? &cmd_ab : &cmd_gate;

	if (a->mail && config_mail_when_parse(&o->mail_when, a->mail))
		return cmd_usage_error(self, "--mail takes always, regression "
		    "or never, not '%s'", a->mail);
	if (a->update && config_update_parse(&o->update, a->update))
		return cmd_usage_error(self, "--update takes never, on-pass or "
		    "always, not '%s'", a->update);
	if (a->shard && run_parse_shard(a->shard, &o->shard_index,
	    &o->shard_count))
		return cmd_usage_error(self, "%s", jg_error_msg());
	if (o->ab_old_apk)
		return 0;
	o->build_id = a->build_id ? a->build_id : o->cfg->build_id;
	if (o->build_id && results_build_id_check(o->build_id))
		return cmd_usage_error(self, "%s", jg_error_msg());
	o->bisect = a->bisect || o->cfg->bisect.gate;
	if (o->bisect && !!o->cfg->bisect.manifest + !!o->cfg->bisect.repo
	    != 1)
		return cmd_usage_error(self, "--bisect needs the builds once: "
		    "bisect.manifest, or bisect.repo and bisect.build");
	if (o->bisect && o->cfg->bisect.repo && !o->cfg->bisect.build)
		return cmd_usage_error(self, "bisect.repo needs bisect.build "
		    "to make each commit's APK");
	return 0;
}

static void
print_key(const struct gate_key *k)
{
	const char *verdict = !k->compared ? "not compared" :
	    k->no_data ? "no valid iteration" : cmp_verdict_name(k->verdict);

	printf("%-36s %7zu %10d %5d  %s\n", k->key, k->serials.nr,
	    k->iterations, k->looks, verdict);
	for (size_t i = 0; i < k->serials.nr; i++)
		printf("    device    %s\n", k->serials.items[i]);
	if (k->compared)
		printf("    metrics   %zu regression, %zu inconclusive, %zu "
		    "improvement, %zu pass, %zu new, %zu missing\n",
		    k->counts[CMP_REGRESSION], k->counts[CMP_INCONCLUSIVE],
		    k->counts[CMP_IMPROVEMENT], k->counts[CMP_PASS],
		    k->counts[CMP_NEW], k->counts[CMP_MISSING]);
	for (size_t i = 0; i < k->regressions.nr; i++)
		printf("    worse     %s\n", k->regressions.items[i]);
	for (size_t i = 0; i < k->suspects.nr; i++)
		printf("    suspect   %s\n", k->suspects.items[i]);
	for (size_t i = 0; i < k->blocks.nr; i++)
		printf("    block     %s\n", k->blocks.items[i]);
	for (size_t i = 0; i < k->notes.nr; i++)
		printf("    note      %s\n", k->notes.items[i]);
}

static void
print_outcome(const struct gate_outcome *out)
{
	if (out->nr_keys) {
		printf("%-36s %7s %10s %5s  %s\n", "DEVICE KEY", "DEVICES",
		    "ITERATIONS", "LOOKS", "VERDICT");
		for (size_t i = 0; i < out->nr_keys; i++)
			print_key(&out->keys[i]);
		putchar('\n');
	}
	for (size_t i = 0; i < out->errors.nr; i++)
		printf("problem   %s\n", out->errors.items[i]);
	if (out->ab_blocks)
		printf("ab        %d blocks in ABBA order, %d iterations a "
		    "block; installs, preflight and warm-ups took %.0f %% of "
		    "device time%s%s\n", out->ab_blocks, out->ab_block,
		    100 * out->ab_install_share, out->ab_how ? "; " : "",
		    out->ab_how ? out->ab_how : "");
	if (out->bisect)
		printf("bisect    %s\n", out->bisect);
	if (out->bisect_report)
		printf("bisect    report %s\n", out->bisect_report);
	if (out->report_dir)
		printf("report    %s/report.html\n", out->report_dir);
	if (out->mail_note)
		printf("mail      %s\n", out->mail_note);
	printf("verdict   %s (exit %d)\n", exit_status_name(out->status),
	    out->status);
}

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct gate_args *a = args;

	(void)needs;
	gate_opts_init(&a->o, NULL);
	return parse_args(&a->o, a, argc, argv);
}

/*
 * `jankgate ab` is gate's composition with --ab: the same stages, the
 * same table and exit status, the two builds named by their own flags.
 */
static int
parse_ab(void *args, int argc, char **argv, unsigned *needs)
{
	struct gate_args *a = args;

	(void)needs;
	gate_opts_init(&a->o, NULL);
	a->ab = true;
	return parse_args(&a->o, a, argc, argv);
}

static int
run(void *args, const struct config *cfg)
{
	struct gate_args *a = args;
	struct gate_opts *o = &a->o;
	struct gate_outcome out;
	int status;

	o->cfg = cfg;
	o->mail_when = cfg->mail.when;
	o->update = cfg->baseline.update;
	if ((status = apply_args(o, a)))
		return status;
	o->progress_fp = stderr;
	o->progress = diag_level() == DIAG_QUIET ? RUN_PROGRESS_NONE :
	    RUN_PROGRESS_AUTO;
	o->note = diag_info_line;
	gate_outcome_init(&out);
	status = gate_execute(o, &out);
	/* Each warning once, after the progress, where it is not missed. */
	for (size_t i = 0; i < out.warnings.nr; i++)
		diag_warn("%s", out.warnings.items[i]);
	fflush(stderr);
	print_outcome(&out);
	for (size_t i = 0; i < out.ci.nr; i++)
		printf("%s\n", out.ci.items[i]);
	gate_outcome_release(&out);
	return status;
}

static void
release(void *args)
{
	struct gate_args *a = args;

	gate_opts_release(&a->o);
}

const struct command cmd_gate = {
	.name = "gate",
	.summary = "the nightly one-shot: run, compare, report, mail, record",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG | CMD_DEVICES,
	.args_size = sizeof(struct gate_args),
	.parse = parse,
	.run = run,
	.release = release,
	.stop = run_interrupt,
};

const struct command cmd_ab = {
	.name = "ab",
	.summary = "two builds interleaved on the same phones: is NEW worse "
	    "than OLD?",
	.usage = ab_usage,
	.options = ab_options,
	.needs = CMD_CONFIG | CMD_DEVICES,
	.args_size = sizeof(struct gate_args),
	.parse = parse_ab,
	.run = run,
	.release = release,
	.stop = run_interrupt,
};
