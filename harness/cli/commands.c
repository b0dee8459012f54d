/*
 * commands.c: the command table and the helpers every command shares.
 *
 * Only commands that work are listed here; each later stage of the pipeline
 * (run, compare, report, mail, baseline, gate) adds its line when it lands.
 * The usage lines are the man page SYNOPSIS (harness/jankgate.1), word for
 * word; test_cli.c compares the two.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "fileio.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"

struct jg_opts jg_opts;

const char *const jankgate_usage[] = {
	"jankgate [-c FILE] [-v | -q] COMMAND [ARGS]",
	"jankgate --version",
	"jankgate --help",
	"jankgate help [COMMAND]",
	NULL
};

static const char *const baseline_usage[] = {
	"jankgate baseline record RESULTS.json [--verdict VERDICT] "
	"[--ref BRANCH] [--force] [--repo URL]",
	"jankgate baseline accept RESULTS.json --reason TEXT [--ref BRANCH] "
	"[--force] [--repo URL]",
	"jankgate baseline log [--device KEY] [--package PKG] [--ref REF] "
	"[-n N] [--json] [--repo URL]",
	"jankgate baseline show REF [--device KEY] [--package PKG] "
	"[--repo URL]",
	NULL
};

static const char *const check_usage[] = {
	"jankgate check [-c FILE]",
	"jankgate check RESULTS.json...",
	NULL
};

static const char *const compare_usage[] = {
	"jankgate compare CURRENT.json [--baseline BASELINE.json]... "
	"[-o FILE] [--allow-mismatch] [--night-pairs N]",
	"jankgate compare CURRENT.json --against REF [--repo URL] "
	"[-o FILE] [--allow-mismatch] [--night-pairs N]",
	NULL
};

static const char *const devices_usage[] = {
	"jankgate devices [--json] [--connect HOST:PORT]...",
	NULL
};

static const char *const mail_usage[] = {
	"jankgate mail DIR [--to ADDR]... [--dry-run FILE.eml]",
	NULL
};

static const char *const parse_usage[] = {
	"jankgate parse SOURCE FILE... [--app PKG] [--pid N]... "
	"[--refresh-hz HZ]",
	"jankgate parse --list",
	NULL
};

static const char *const report_usage[] = {
	"jankgate report COMPARISON.json... [-o DIR] [--repo URL]",
	NULL
};

static const char *const run_usage[] = {
	"jankgate run [-s SERIAL]... [--connect HOST:PORT]... "
	"[--scenario NAME]... [-n N] [--warmups N] [-o DIR] [--append] "
	"[--shard I/N]",
	NULL
};

static const char *const gate_usage[] = {
	"jankgate gate [-s SERIAL]... [--connect HOST:PORT]... "
	"[--against REF] [--repo URL] [--shard I/N] [-o DIR] "
	"[--mail always|regression|never] [--update never|on-pass|always] "
	"[--no-mail]",
	NULL
};

static const char *const init_usage[] = {
	"jankgate init [--apk FILE | --package PKG] [-s SERIAL]",
	NULL
};

static const char *const help_usage[] = {
	"jankgate help [COMMAND]",
	NULL
};

const struct command commands[] = {
	{ "baseline", cmd_baseline, baseline_usage,
	  "record, accept, list and show baselines in the git repository",
	  "  record               commit RESULTS.json as its device's baseline\n"
	  "                       (always: the update policy is gate's)\n"
	  "  accept               the same, blessed by hand after an intended\n"
	  "                       change\n"
	  "  log                  the stored runs on a ref, newest first\n"
	  "  show                 the results file stored at REF (a branch,\n"
	  "                       tag or commit), or the paths when several\n"
	  "  --verdict VERDICT    pass, regression, improvement,\n"
	  "                       inconclusive, new or unchecked (default)\n"
	  "  --reason TEXT        why the change is intended (required)\n"
	  "  --ref BRANCH|REF     default: baseline.ref (main)\n"
	  "  --force              record a run that did not complete\n"
	  "  --device KEY         one device key only\n"
	  "  --package PKG        one app only\n"
	  "  -n N                 at most N entries\n"
	  "  --json               print a JSON array\n"
	  "  --repo URL           the repository: a path, file://, ssh:// or\n"
	  "                       https:// URL (default: baseline.repo)\n"
	  "  -c FILE              baseline.* from this configuration\n"
	  "                       (default: $JANKGATE_CONFIG, then\n"
	  "                       ./jankgate.json if present, else built-in)\n"
	  "Exit status: 0 done (also \"no baseline yet\"), 2 bad input, an\n"
	  "unknown repository or ref, or foreign files, 3 repository\n"
	  "unreachable, authentication failed or push retries exhausted.\n" },
	{ "check", cmd_check, check_usage,
	  "validate the configuration without touching any device",
	  "  -c FILE   configuration file (default: $JANKGATE_CONFIG, then\n"
	  "            ./jankgate.json)\n"
	  "Prints one line per problem, or \"configuration OK\".\n"
	  "With RESULTS.json files, checks those instead: schema version\n"
	  "and types; prints \"FILE: OK\" for each good one.\n" },
	{ "compare", cmd_compare, compare_usage,
	  "compare one device's results with its baseline runs",
	  "  --baseline FILE     a baseline results file (repeatable; the\n"
	  "                      iterations of all of them are pooled; none:\n"
	  "                      a first run, every metric is new)\n"
	  "  --against REF       the baseline is the last baseline.history\n"
	  "                      runs of this package and device key on REF\n"
	  "                      (a branch or a tag) of the baseline\n"
	  "                      repository, from the newest acceptance on\n"
	  "  --repo URL          the baseline repository (default:\n"
	  "                      baseline.repo)\n"
	  "  -o, --output FILE   where to write the comparison (default:\n"
	  "                      comparison.json)\n"
	  "  --allow-mismatch    compare runs of another device key, refresh\n"
	  "                      rate, package or source set anyway\n"
	  "  --night-pairs N     this comparison is one of a night that\n"
	  "                      compares N (device key, scenario) pairs in\n"
	  "                      all: it takes alpha in proportion to its\n"
	  "                      own scenarios (gate does this itself)\n"
	  "  -c FILE             thresholds, alpha, correction, min_iterations\n"
	  "                      and the session priors from this\n"
	  "                      configuration (default: $JANKGATE_CONFIG,\n"
	  "                      then ./jankgate.json if present, else\n"
	  "                      built-in)\n"
	  "Exit status: 0 pass (a first run too), 1 regression, 2 bad input\n"
	  "or not comparable, 3 comparison.json not written or no valid\n"
	  "iteration in CURRENT.json, 4 inconclusive.\n" },
	{ "devices", cmd_devices, devices_usage,
	  "list the devices the adb server can reach, with their device key",
	  "  --json              print a JSON array instead of a table\n"
	  "  --connect HOST:PORT `adb connect` a network device first\n"
	  "                      (repeatable; emulators, device farms)\n"
	  "The adb server is found at $ADB_SERVER_SOCKET (tcp:HOST:PORT),\n"
	  "else 127.0.0.1:$ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037; a\n"
	  "local server is started with `adb start-server` when adb is on\n"
	  "PATH.\n" },
	{ "gate", cmd_gate, gate_usage,
	  "the nightly one-shot: run, compare, report, mail, record",
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
	  "Inconclusive comparisons get more iterations, up to\n"
	  "max_iterations.  Exit status: 0 pass, 1 regression, 2 bad input or\n"
	  "a baseline not comparable, 3 infrastructure failure (a device\n"
	  "lost, git or SMTP), 4 inconclusive after max_iterations.\n" },
	{ "help", cmd_help, help_usage,
	  "show the usage of jankgate or of one command", "" },
	{ "init", cmd_init, init_usage,
	  "write a first jankgate.json and scenario for an app",
	  "  --apk FILE          the app: package and launcher activity from\n"
	  "                      this APK, which the configuration installs\n"
	  "  --package PKG       the app, by package name (already installed)\n"
	  "  -s SERIAL           with neither: the app open on this device\n"
	  "                      (default: the one attached device)\n"
	  "  -c FILE             where the configuration goes (default:\n"
	  "                      $JANKGATE_CONFIG, then ./jankgate.json); the\n"
	  "                      scenario goes to scenarios/ beside it\n"
	  "Writes a cold launch and one scene of flings; never overwrites a\n"
	  "file.  Prints the files written.\n"
	  "Exit status: 0 written, 2 bad usage, not an APK, a file exists or\n"
	  "a system app in front, 3 no device or adb server.\n" },
	{ "mail", cmd_mail, mail_usage,
	  "mail the report in DIR (written by `jankgate report`)",
	  "  --to ADDR           a recipient, replacing mail.to (repeatable)\n"
	  "  --dry-run FILE.eml  write the message to FILE.eml, send nothing\n"
	  "  -c FILE             mail.* from this configuration (default:\n"
	  "                      $JANKGATE_CONFIG, then ./jankgate.json if\n"
	  "                      present, else built-in and JANKGATE_MAIL_*)\n"
	  "The text and HTML of the report as alternatives, report.html and\n"
	  "comparison*.json attached.  User and password come from the\n"
	  "variables named by mail.user_env and mail.password_env, or\n"
	  "mail.password_file; $SSL_CERT_FILE adds trusted certificates.\n"
	  "Exit status: 0 sent, 2 bad input (no report in DIR, no recipient\n"
	  "or server), 3 SMTP failure (the report stays in DIR).\n" },
	{ "parse", cmd_parse, parse_usage,
	  "run one source's parser over saved device output, print JSON",
	  "  --list              the sources and what each one reads\n"
	  "  --app PKG           the app's package: picks its process in a\n"
	  "                      gfxinfo dump of every process, its lines\n"
	  "                      and launches in a log (default: app of the\n"
	  "                      configuration, or $JANKGATE_APP)\n"
	  "  --pid N             a process id of the app (repeatable), for a\n"
	  "                      log that does not say which is the app's\n"
	  "                      (no 'Start proc' line, no Studio package\n"
	  "                      column); another app's lines never count\n"
	  "  --refresh-hz HZ     the display's refresh rate (default 60):\n"
	  "                      janky and dropped frames depend on it\n"
	  "  -c FILE             app (the package) from this configuration\n"
	  "                      (default: $JANKGATE_CONFIG, then\n"
	  "                      ./jankgate.json if present)\n"
	  "FILE may be UTF-8, with or without a BOM, or UTF-16; logs in any\n"
	  "logcat -v layout or as Android Studio copies them.\n"
	  "Prints a JSON array, one object per FILE: file, source, the\n"
	  "iteration as results.json holds it, every launch (startup), and\n"
	  "warnings.\n"
	  "Exit status: 0 parsed (a failed launch shows as \"ok\": false,\n"
	  "input in no known layout as a warning), 2 unknown source or\n"
	  "unreadable file.\n" },
	{ "report", cmd_report, report_usage,
	  "write the HTML, mail, Markdown and JUnit reports of comparisons",
	  "  -o, --output DIR    where to write (default: report)\n"
	  "  --repo URL          the baseline repository, for trend lines\n"
	  "                      (default: baseline.repo; none: no trends)\n"
	  "  -c FILE             report.title, report.templates,\n"
	  "                      report.history and baseline.* from this\n"
	  "                      configuration (default: $JANKGATE_CONFIG,\n"
	  "                      then ./jankgate.json if present)\n"
	  "Several comparisons (shards, devices) make one report.  Writes\n"
	  "report.html, email.html, email.txt, summary.md, junit.xml,\n"
	  "metrics.txt, view.json and the comparisons into DIR; prints\n"
	  "report.html's path.  With $GITHUB_STEP_SUMMARY set, summary.md is\n"
	  "appended to it; with GITHUB_ACTIONS=true, ::error and ::warning\n"
	  "workflow commands follow the path.\n"
	  "Exit status: 0 written, 2 bad input (a missing or invalid\n"
	  "comparison, results file or template), 3 DIR not writable.\n" },
	{ "run", cmd_run, run_usage,
	  "drive the app through the scenarios on every device, measure it",
	  "  -s SERIAL           use this device (repeatable; default:\n"
	  "                      devices.serials, else every attached device)\n"
	  "  --connect HOST:PORT `adb connect` a network device first\n"
	  "                      (repeatable, after devices.connect)\n"
	  "  --scenario NAME     run only this scenario (repeatable; the file\n"
	  "                      name without .scn)\n"
	  "  -n N                measured iterations per scenario (default:\n"
	  "                      iterations)\n"
	  "  --warmups N         warm-up iterations before them (default:\n"
	  "                      warmups)\n"
	  "  -o, --output DIR    where results go (default: out_dir); each\n"
	  "                      device writes DIR/<device-key>/results.json\n"
	  "  --append            add the iterations to the results already in\n"
	  "                      DIR instead of starting new files\n"
	  "  --shard I/N         run the I-th of N shares of the (device,\n"
	  "                      scenario) pairs: pair k = device * scenarios\n"
	  "                      + scenario, in serial and config order, goes\n"
	  "                      to shard k mod N + 1\n"
	  "Prints the results files written, one per line.  Progress goes to\n"
	  "stderr (a live line per device on a terminal); SIGINT or SIGTERM\n"
	  "stops input, writes what was measured with complete: false and\n"
	  "force-stops the app.\n"
	  "Exit status: 0 done (failed iterations are in the results), 2 bad\n"
	  "usage, configuration or scenario (also coordinates off a device's\n"
	  "screen), 3 no device, a device refused by its hygiene limits,\n"
	  "install or versionCode check failed, device lost, every measured\n"
	  "iteration of a scenario failed, or interrupted.\n" },
	{ NULL, NULL, NULL, NULL, NULL }
};

const struct command *
command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int
cmd_common_option(int opt, const char *arg)
{
	switch (opt) {
	case 'c':
		jg_opts.config_path = arg;
		return 1;
	case 'v':
		diag_set_level(DIAG_VERBOSE);
		return 1;
	case 'q':
		diag_set_level(DIAG_QUIET);
		return 1;
	default:
		return 0;
	}
}

void
cmd_warn_environment(const struct config *cfg)
{
	extern char **environ;
	static int done;
	struct strlist warnings = STRLIST_INIT;

	/* gate and report may load twice; one warning is enough. */
	if (done++)
		return;
	config_env_unknown(cfg, environ, &warnings);
	for (size_t i = 0; i < warnings.nr; i++)
		diag_warn("%s", warnings.items[i]);
	strlist_release(&warnings);
}

int
cmd_load_config(struct config **out)
{
	struct strlist problems = STRLIST_INIT;
	const char *path = config_default_path(jg_opts.config_path);
	const char *env = getenv("JANKGATE_CONFIG");
	int rc = config_load(out, path, &source_plugins, &problems);

	if (rc == JG_ENOTFOUND && !jg_opts.config_path && !(env && *env)) {
		/* No file was named: say how to get one, nothing else. */
		diag_error("no configuration: pass -c FILE, set "
		    "JANKGATE_CONFIG, or create ./jankgate.json (`jankgate "
		    "init` writes one)");
	} else if (rc == JG_ENOTFOUND || rc == JG_EIO) {
		diag_error("%s", jg_error_msg());
	} else {
		/* Compiler-style lines, "FILE: KEY: what was expected". */
		for (size_t i = 0; i < problems.nr; i++)
			diag_plain("%s", problems.items[i]);
	}
	strlist_release(&problems);
	if (!rc)
		cmd_warn_environment(*out);
	return rc ? EXIT_BAD_INPUT : 0;
}

int
cmd_load_config_optional(struct config **out)
{
	struct strlist problems = STRLIST_INIT;
	const char *env = getenv("JANKGATE_CONFIG");
	int rc;

	if (jg_opts.config_path || (env && *env) ||
	    file_exists("jankgate.json"))
		return cmd_load_config(out);
	rc = config_defaults(out, &source_plugins, &problems);
	for (size_t i = 0; i < problems.nr; i++)
		diag_plain("%s", problems.items[i]);
	strlist_release(&problems);
	if (!rc) {
		diag_verbose("no configuration file; using the defaults");
		cmd_warn_environment(*out);
	}
	return rc ? EXIT_BAD_INPUT : 0;
}

int
cmd_usage_error(const struct command *cmd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		strbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		diag_error("%s", sb.buf);
	}
	for (const char *const *u = cmd->usage; *u; u++)
		fprintf(stderr, "%s %s\n", u == cmd->usage ? "usage:" : "   or:",
		    *u);
	strbuf_release(&sb);
	return EXIT_BAD_INPUT;
}
