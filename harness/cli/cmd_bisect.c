/*
 * cmd_bisect.c: `jankgate bisect`, the build that made a night fail.
 *
 * The options make the list of builds (a manifest, a directory, or a
 * repository's first-parent range and a build command) and the targets
 * (a failed night's comparison.json, or scenes and metrics named), then
 * bisect_execute() (bisect.h) runs the steps and writes the report; the
 * summary goes to stdout.  --resume reads everything back from
 * OUT/bisect.json instead.  SIGINT and SIGTERM stop the step under way
 * (its stop hook is run_interrupt()); the state keeps the steps done.
 *
 * Exit status: 0 a culprit, or no culprit (said plainly); 4 undecided;
 * 3 the phones, a build command, an interrupt; 2 bad input.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "bisect_report.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "fileio.h"
#include "run.h"
#include "strbuf.h"
#include "banned.h"

static const char *const usage[] = {
	"jankgate bisect (--manifest FILE | --builds DIR) [--good ID] "
	"[--bad ID] [--from COMPARISON] [--scene SCENARIO/SCENE]... "
	"[--metric NAME]... [-s SERIAL]... [--connect HOST:PORT]... "
	"[--block N] [--rounds N] [-o DIR] "
	"[--mail always|regression|never] [--no-mail]",
	"jankgate bisect --repo PATH (--range GOOD..BAD | --good REF --bad "
	"REF) --build CMD [--from COMPARISON] [--scene SCENARIO/SCENE]... "
	"[--metric NAME]... [-s SERIAL]... [--connect HOST:PORT]... "
	"[--block N] [--rounds N] [-o DIR] "
	"[--mail always|regression|never] [--no-mail]",
	"jankgate bisect --resume [-s SERIAL]... [--connect HOST:PORT]... "
	"[--block N] [--rounds N] [-o DIR] "
	"[--mail always|regression|never] [--no-mail]",
	NULL
};

static const char options[] =
	"  --manifest FILE     the builds, oldest first: 'ID APK' a line\n"
	"  --builds DIR        the builds: DIR's *.apk in version order\n"
	"  --repo PATH         the app's git repository: its first-parent\n"
	"                      commits from GOOD to BAD, built by --build\n"
	"  --range GOOD..BAD   the commits (with --repo)\n"
	"  --good ID, --bad ID the last good and the first known bad build\n"
	"                      (default: the list's first and last)\n"
	"  --build CMD         run by /bin/sh in --repo, {commit} replaced\n"
	"                      by the commit id; it checks the commit out,\n"
	"                      builds, and prints the APK's path last; a\n"
	"                      failure is retried once, then the commit is\n"
	"                      untestable\n"
	"  --from FILE         bisect what FILE (a failed night's\n"
	"                      comparison.json) found: its regressed scenes,\n"
	"                      metrics and blocks\n"
	"  --scene SCN/SCENE   bisect this scene too (repeatable) ...\n"
	"  --metric NAME       ... on this metric (repeatable; default: any\n"
	"                      metric or block of the scene)\n"
	"  -s SERIAL           a device to use (repeatable)\n"
	"  --connect HOST:PORT `adb connect` a network device first\n"
	"  --block N           iterations a block of each step's A/B\n"
	"  --rounds N          most rounds of ABBA blocks a step (default 5)\n"
	"                      before its candidate is untestable\n"
	"  -o DIR              the state (DIR/bisect.json), each step's A/B\n"
	"                      (DIR/step-N/) and the report (default: out_dir)\n"
	"  --resume            continue the bisect whose state is in DIR\n"
	"  --mail WHEN         always, regression (a culprit) or never\n"
	"                      (default: mail.when); --no-mail is --mail\n"
	"                      never\n"
	"Each step is an interleaved A/B (as jankgate ab) of the last good\n"
	"build against a candidate, on the targets alone.  Exit status: 0\n"
	"culprit found, or no culprit; 4 undecided; 3 infrastructure failure\n"
	"(the phones, a build command of the good or bad build, an\n"
	"interrupt); 2 bad input.\n";

struct bisect_args {
	struct bisect_opts o;
	const char *manifest, *builds, *repo, *range, *good, *bad, *build;
	const char *from;
	struct strlist scenes, metrics;
	bool resume;
	const char *block, *rounds;
	const char *mail;
};

static int
count_arg(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	return *end || end == s || n < 1 || n > 1000 ? -1 : (int)n;
}

static int
parse_args(struct bisect_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "manifest", required_argument, NULL, 'm' },
		{ "builds", required_argument, NULL, 'D' },
		{ "repo", required_argument, NULL, 'R' },
		{ "range", required_argument, NULL, 'r' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "build", required_argument, NULL, 'B' },
		{ "from", required_argument, NULL, 'f' },
		{ "scene", required_argument, NULL, 'S' },
		{ "metric", required_argument, NULL, 'M' },
		{ "connect", required_argument, NULL, 'C' },
		{ "block", required_argument, NULL, 'K' },
		{ "rounds", required_argument, NULL, 'N' },
		{ "output", required_argument, NULL, 'o' },
		{ "resume", no_argument, NULL, 'Z' },
		{ "mail", required_argument, NULL, 'L' },
		{ "no-mail", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = &cmd_bisect;
	int opt, lists;

	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS "s:o:",
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		switch (opt) {
		case 'm': a->manifest = optarg; break;
		case 'D': a->builds = optarg; break;
		case 'R': a->repo = optarg; break;
		case 'r': a->range = optarg; break;
		case 'g': a->good = optarg; break;
		case 'b': a->bad = optarg; break;
		case 'B': a->build = optarg; break;
		case 'f': a->from = optarg; break;
		case 'S':
			if (!strchr(optarg, '/') || strchr(optarg, ' '))
				return cmd_usage_error(self, "--scene takes "
				    "SCENARIO/SCENE, not '%s'", optarg);
			strlist_add(&a->scenes, optarg);
			break;
		case 'M': strlist_add(&a->metrics, optarg); break;
		case 's': strlist_add(&a->o.serials, optarg); break;
		case 'C': strlist_add(&a->o.connect, optarg); break;
		case 'K': a->block = optarg; break;
		case 'N': a->rounds = optarg; break;
		case 'o': a->o.out_dir = optarg; break;
		case 'Z': a->resume = true; break;
		case 'L': a->mail = optarg; break;
		case 'n': a->mail = "never"; break;
		default:
			return cmd_usage_error(self, NULL);
		}
	}
	if (optind < argc)
		return cmd_usage_error(self, "unexpected argument '%s'",
		    argv[optind]);
	if (a->block && (a->o.ab_block = count_arg(a->block)) < 0)
		return cmd_usage_error(self, "--block takes a count from 1, "
		    "not '%s'", a->block);
	if (a->rounds && (a->o.ab_rounds = count_arg(a->rounds)) < 0)
		return cmd_usage_error(self, "--rounds takes a count from 1, "
		    "not '%s'", a->rounds);
	lists = !!a->manifest + !!a->builds + !!a->repo;
	if (a->resume) {
		if (lists || a->range || a->good || a->bad || a->build ||
		    a->from || a->scenes.nr || a->metrics.nr)
			return cmd_usage_error(self, "--resume continues the "
			    "bisect in the output directory: its builds and "
			    "targets come from its bisect.json");
		return 0;
	}
	if (lists != 1)
		return cmd_usage_error(self, "name the builds once: "
		    "--manifest FILE, --builds DIR or --repo PATH");
	if (a->repo && !a->build)
		return cmd_usage_error(self, "--repo needs --build CMD to "
		    "make each commit's APK");
	if (!a->repo && (a->build || a->range))
		return cmd_usage_error(self, "--build and --range go with "
		    "--repo PATH");
	if (a->repo && !a->range && !(a->good && a->bad))
		return cmd_usage_error(self, "--repo needs --range GOOD..BAD "
		    "(or --good and --bad)");
	if (a->range && (a->good || a->bad))
		return cmd_usage_error(self, "--range GOOD..BAD or --good and "
		    "--bad, not both");
	if (a->metrics.nr && !a->scenes.nr)
		return cmd_usage_error(self, "--metric needs --scene "
		    "SCENARIO/SCENE");
	return 0;
}

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct bisect_args *a = args;

	(void)needs;
	bisect_opts_init(&a->o, NULL);
	strlist_init(&a->scenes);
	strlist_init(&a->metrics);
	return parse_args(a, argc, argv);
}

/* A new state from the options; *out the caller's.  Exit status. */
static int
new_state(struct bisect_state **out, const struct bisect_args *a)
{
	struct bisect_source src = { a->manifest, a->builds, a->repo,
	    a->range, a->good, a->bad, a->build };
	struct bisect_state *st = NULL;
	int rc;

	*out = NULL;
	rc = bisect_state_from(&st, &src);
	if (!rc && a->from)
		rc = bisect_targets_from(&st->targets, a->from);
	for (size_t i = 0; !rc && i < a->scenes.nr; i++) {
		if (!a->metrics.nr)
			strlist_addf(&st->targets, "%s *", a->scenes.items[i]);
		for (size_t m = 0; m < a->metrics.nr; m++)
			strlist_addf(&st->targets, "%s %s", a->scenes.items[i],
			    a->metrics.items[m]);
	}
	if (rc) {
		diag_error_current();
		bisect_state_free(st);
		return exit_status_for_lookup(rc) == EXIT_INFRA ? EXIT_INFRA :
		    EXIT_BAD_INPUT;
	}
	*out = st;
	return 0;
}

static int
run(void *args, const struct config *cfg)
{
	struct bisect_args *a = args;
	struct bisect_opts *o = &a->o;
	struct bisect_outcome out;
	struct bisect_state *st = NULL;
	struct strbuf sb = STRBUF_INIT;
	const char *dir;
	char *path;
	int status, rc;

	o->cfg = cfg;
	o->mail_when = cfg->mail.when;
	if (a->mail && config_mail_when_parse(&o->mail_when, a->mail))
		return cmd_usage_error(&cmd_bisect, "--mail takes always, "
		    "regression or never, not '%s'", a->mail);
	dir = o->out_dir ? o->out_dir : cfg->out_dir;
	path = bisect_state_path(dir);
	if (a->resume) {
		if ((rc = bisect_state_read(&st, path))) {
			diag_error_current();
			if (rc == JG_ENOTFOUND)
				diag_plain("hint: --resume continues the "
				    "bisect of the same -o DIR\n");
			free(path);
			return EXIT_BAD_INPUT;
		}
		diag_info("bisect: resuming %s after %zu step%s", path,
		    st->nr_steps, st->nr_steps == 1 ? "" : "s");
	} else {
		if (file_exists(path)) {
			diag_error("'%s' holds a bisect already: --resume "
			    "continues it, or choose another -o DIR", path);
			free(path);
			return EXIT_BAD_INPUT;
		}
		if ((status = new_state(&st, a))) {
			free(path);
			return status;
		}
		diag_info("bisect: %zu builds from %s to %s", st->nr,
		    st->commits[0].id, st->commits[st->nr - 1].id);
	}
	free(path);
	o->progress_fp = stderr;
	o->progress = diag_level() == DIAG_QUIET ? RUN_PROGRESS_NONE :
	    RUN_PROGRESS_AUTO;
	o->note = diag_info_line;
	bisect_outcome_init(&out);
	status = bisect_execute(st, o, &out);
	fflush(stderr);
	report_bisect_summary(&sb, st, out.result, out.good, out.candidate);
	fputs(sb.buf, stdout);
	for (size_t i = 0; i < out.errors.nr; i++)
		printf("problem   %s\n", out.errors.items[i]);
	if (out.report)
		printf("report    %s\n", out.report);
	if (out.mail_note)
		printf("mail      %s\n", out.mail_note);
	printf("verdict   %s (exit %d)\n", out.result == BISECT_NEXT_CULPRIT ?
	    "culprit found" : out.result == BISECT_NEXT_NONE ? "no culprit" :
	    out.result == BISECT_NEXT_UNDECIDED ? "undecided" : "stopped",
	    status);
	strbuf_release(&sb);
	bisect_outcome_release(&out);
	bisect_state_free(st);
	return status;
}

static void
release(void *args)
{
	struct bisect_args *a = args;

	bisect_opts_release(&a->o);
	strlist_release(&a->scenes);
	strlist_release(&a->metrics);
}

const struct command cmd_bisect = {
	.name = "bisect",
	.summary = "find the build that caused a regression, by A/B on the "
	    "same phones",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG | CMD_DEVICES,
	.args_size = sizeof(struct bisect_args),
	.parse = parse,
	.run = run,
	.release = release,
	.stop = run_interrupt,
};
