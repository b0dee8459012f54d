/*
 * cmd_compare.c: `jankgate compare`, one device's run against its baseline.
 *
 * Reads the current results file and the baseline: the results files named
 * with --baseline, or with --against REF the last baseline.history accepted
 * runs of the same package and device key on that branch or tag of the
 * baseline repository (read from git objects, no checkout).  No baseline
 * at all is a first run, where everything is new.  It refuses runs
 * that are not comparable unless --allow-mismatch, runs compare_run(),
 * writes comparison.json atomically and prints a short table: the entries
 * that are not a plain pass or new (all of them with -v), the scenarios
 * with too few valid iterations, and a summary line.
 *
 * The configuration is optional here (cmd_load_config_optional): without
 * a file the defaults and the JANKGATE_* environment apply (alpha 0.01,
 * Holm, min_iterations 3, the session priors, the metric table's
 * thresholds), so two results files can be compared anywhere.
 *
 * --night-pairs N says the comparison is one of a night's: N (device key,
 * scenario) pairs are compared in all, and this one takes alpha in
 * proportion to its scenarios (what `gate` does for its keys and shards).
 *
 * By default the comparison is a last look: it decides, as a CI job that
 * runs, compares and reports once must (docs/method.md, step 7).  --look K/N
 * makes it look K of gate's N, a look before the last unless K = N or
 * --final; --prior FILE is the comparison of the look before, whose
 * regressions stand.  With them a night's verdict is recomputed from its
 * files: gate keeps each look's comparison as comparison-look-K.json.
 *
 * Exit status (exitstatus.h): 2 for bad usage, an unreadable or invalid
 * file, or runs that are not comparable; else 1 when any entry is a
 * regression, 3 when comparison.json could not be written, the current
 * run holds not one valid iteration or it did not finish for a failure it
 * recorded in run.errors (a device lost), 4 when something is inconclusive (at
 * a look before the last: more iterations could decide), 0
 * otherwise (improvements, new and missing metrics included, and a first
 * run whatever its size).
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "baseline_store.h"
#include "cmd.h"
#include "compare.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate compare CURRENT.json [--baseline BASELINE.json]... "
	"[-o FILE] [--allow-mismatch] [--night-pairs N] [--look K/N] "
	"[--final] [--prior FILE] [--confirm AB.json]",
	"jankgate compare CURRENT.json --against REF [--repo URL] "
	"[-o FILE] [--allow-mismatch] [--night-pairs N] [--look K/N] "
	"[--final] [--prior FILE] [--confirm AB.json]",
	NULL
};

static const char options[] =
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
	"  --look K/N          this comparison is look K of N that a gate\n"
	"                      takes (default 1/1): before the last it\n"
	"                      asks for more iterations (exit 4) where\n"
	"                      they could decide\n"
	"  --final             this look is the last, whatever K: decide\n"
	"                      (the default without --look)\n"
	"  --prior FILE        the comparison of the look before: its\n"
	"                      regressions stand\n"
	"  --confirm AB.json   rewrite the regressions by what this A/B\n"
	"                      comparison found of their scenes, as gate's\n"
	"                      confirmation does (OUT/confirm/KEY/)\n"
	"  -c FILE             thresholds, alpha, correction, min_iterations\n"
	"                      and the session priors from this\n"
	"                      configuration (default: $JANKGATE_CONFIG,\n"
	"                      then ./jankgate.json if present, else\n"
	"                      built-in)\n"
	"Exit status: 0 pass (a first run too), 1 regression, 2 bad input\n"
	"or not comparable, 3 comparison.json not written, no valid\n"
	"iteration in CURRENT.json or its run stopped by a failure (a\n"
	"device lost), 4 inconclusive.\n";

struct compare_args {
	const char *current;
	struct strlist baselines;
	const char *output;
	const char *against;	/* a ref of the baseline repository */
	const char *repo;	/* --repo: overrides baseline.repo */
	int allow_mismatch;
	long night_pairs;	/* --night-pairs; 0: this comparison alone */
	int look, looks;	/* --look K/N; default 1/1 */
	int final;		/* --final */
	const char *prior;	/* --prior FILE */
	const char *confirm;	/* --confirm AB.json */
};

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct compare_args *a = args;
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-mismatch", no_argument, NULL, 'M' },
		{ "against", required_argument, NULL, 'A' },
		{ "repo", required_argument, NULL, 'R' },
		{ "night-pairs", required_argument, NULL, 'N' },
		{ "look", required_argument, NULL, 'L' },
		{ "final", no_argument, NULL, 'F' },
		{ "prior", required_argument, NULL, 'P' },
		{ "confirm", required_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = &cmd_compare;
	int opt;

	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS "b:o:",
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		if (opt == 'b')
			strlist_add(&a->baselines, optarg);
		else if (opt == 'o')
			a->output = optarg;
		else if (opt == 'M')
			a->allow_mismatch = 1;
		else if (opt == 'A')
			a->against = optarg;
		else if (opt == 'R')
			a->repo = optarg;
		else if (opt == 'N') {
			char *end;

			a->night_pairs = strtol(optarg, &end, 10);
			if (*end || end == optarg || a->night_pairs < 1 ||
			    a->night_pairs > 1000000)
				return cmd_usage_error(self, "--night-pairs "
				    "takes a count from 1, not '%s'", optarg);
		} else if (opt == 'L') {
			char slash = 0, tail = 0;

			if (sscanf(optarg, "%d%c%d%c", &a->look, &slash,
			    &a->looks, &tail) != 3 || slash != '/' ||
			    a->looks < 1 || a->looks > 100 || a->look < 1 ||
			    a->look > a->looks)
				return cmd_usage_error(self, "--look takes K/N "
				    "with 1 <= K <= N <= 100, not '%s'",
				    optarg);
		} else if (opt == 'F')
			a->final = 1;
		else if (opt == 'P')
			a->prior = optarg;
		else if (opt == 'X')
			a->confirm = optarg;
		else
			return cmd_usage_error(self, NULL);
	}
	if (!a->looks)
		a->look = a->looks = 1;
	if (optind >= argc)
		return cmd_usage_error(self, "no current results file given");
	if (argc - optind > 1)
		return cmd_usage_error(self, "unexpected argument '%s' (name "
		    "baseline files with --baseline)", argv[optind + 1]);
	if (a->against && a->baselines.nr)
		return cmd_usage_error(self, "--against and --baseline are "
		    "alternatives; give one");
	if (a->repo && !a->against)
		return cmd_usage_error(self, "--repo goes with --against");
	a->current = argv[optind];
	if (!a->output)
		a->output = "comparison.json";
	return 0;
}

static int
read_inputs(struct results **cur, struct results **base,
    const struct compare_args *a)
{
	int status = 0;

	/*
	 * Files named on the command line are read strictly: a duration
	 * out of its limits (results.h) is refused with its key path, not
	 * compared.  The history of --against is read leniently
	 * (baseline.c): one bad value in a committed run would otherwise
	 * fail every night until the history was rewritten.
	 */
	if (results_read_strict(cur, a->current)) {
		diag_plain("%s", jg_error_msg());
		status = EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < a->baselines.nr; i++)
		if (results_read_strict(&base[i], a->baselines.items[i])) {
			diag_plain("%s", jg_error_msg());
			status = EXIT_BAD_INPUT;
		}
	return status;
}

static void
print_row(const char *verdict, const char *scenario, const char *scene,
    const char *metric, const struct cmp_entry *e, const char *reason)
{
	struct strbuf where = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	/* Scenario and scene names come from files: keep them inert. */
	utf8_add_printable(&where, scenario, strlen(scenario), 0);
	if (scene) {
		strbuf_addch(&where, '/');
		utf8_add_printable(&where, scene, strlen(scene), 0);
	}
	if (e && e->base.n)
		strbuf_addf(&b, "%.4g", e->base.median);
	else
		strbuf_addstr(&b, "-");
	if (e && e->cur.n)
		strbuf_addf(&c, "%.4g", e->cur.median);
	else
		strbuf_addstr(&c, "-");
	printf("%-12s %-32s %-17s %9s %9s  %s\n", verdict, where.buf, metric,
	    b.buf, c.buf, reason ? reason : "");
	strbuf_release(&where);
	strbuf_release(&b);
	strbuf_release(&c);
}

static void
print_header(void)
{
	printf("%-12s %-32s %-17s %9s %9s  %s\n", "VERDICT", "SCENARIO/SCENE",
	    "METRIC", "BASELINE", "CURRENT", "WHY");
}

static void
print_table(const struct comparison *cmp)
{
	size_t counts[CMP_NR_VERDICTS], blocks[CMP_BLOCK_RESOLVED + 1] = { 0 };
	int all = diag_level() >= DIAG_VERBOSE, header = 0;
	size_t suspects = 0;

	for (size_t i = 0; i < cmp->nr_scenarios; i++) {
		const struct cmp_scenario *s = &cmp->scenarios[i];
		char why[160];

		if (s->verdict != CMP_INCONCLUSIVE)
			continue;
		if (!header++)
			print_header();
		snprintf(why, sizeof(why), "%.0f of %.0f iterations valid, "
		    "fewer than min_iterations (%d)", s->cur_valid,
		    s->cur_iterations, cmp->min_iterations);
		print_row("inconclusive", s->name, NULL, "(iterations)", NULL,
		    why);
	}
	for (size_t i = 0; i < cmp->nr_entries; i++) {
		const struct cmp_entry *e = &cmp->entries[i];
		char why[1024];

		suspects += e->suspect;
		if (!all && ((e->verdict == CMP_PASS && !e->suspect) ||
		    e->verdict == CMP_NEW))
			continue;
		if (!header++)
			print_header();
		/* A suspect passes; the row says why it is listed. */
		if (e->suspect)
			snprintf(why, sizeof(why), "q = %.2g: %s", e->q_value,
			    e->reason ? e->reason : "");
		print_row(e->suspect ? "suspect" : cmp_verdict_name(e->verdict),
		    e->scenario, e->scene, e->metric, e, e->suspect ? why :
		    e->reason);
	}
	comparison_count(cmp, counts);
	for (size_t i = 0; i < cmp->nr_blocks; i++)
		blocks[cmp->blocks[i].status]++;
	if (header)
		putchar('\n');
	printf("%zu metrics of %s against %zu baseline run%s (%zu tested, "
	    "%s): %zu regression, %zu inconclusive, %zu improvement, "
	    "%zu pass, %zu new, %zu missing\n", cmp->nr_entries,
	    cmp->device ? cmp->device : "an unknown device",
	    cmp->nr_baselines, cmp->nr_baselines == 1 ? "" : "s", cmp->tests,
	    stats_adjust_name(cmp->correction), counts[CMP_REGRESSION],
	    counts[CMP_INCONCLUSIVE], counts[CMP_IMPROVEMENT],
	    counts[CMP_PASS], counts[CMP_NEW], counts[CMP_MISSING]);
	if (cmp->nr_blocks)
		printf("blocks by signature: %zu new, %zu worse, %zu resolved, "
		    "%zu unchanged\n", blocks[CMP_BLOCK_NEW],
		    blocks[CMP_BLOCK_WORSE], blocks[CMP_BLOCK_RESOLVED],
		    blocks[CMP_BLOCK_UNCHANGED]);
	if (suspects)
		printf("suspects: %zu (passes worse by their threshold, listed "
		    "at a false discovery rate of %g; never a verdict)\n",
		    suspects, cmp->suspect_fdr);
	printf("verdict: %s\n", cmp_verdict_name(comparison_verdict(cmp)));
}

/* Refuse, or with --allow-mismatch warn, for each way the runs differ. */
static int
check_comparable(const struct compare_input *cur,
    const struct compare_input *base, size_t nr, int allow)
{
	struct strlist reasons = STRLIST_INIT;

	if (!compare_check(&reasons, cur, base, nr)) {
		strlist_release(&reasons);
		return 0;
	}
	for (size_t i = 0; i < reasons.nr; i++)
		if (allow)
			diag_warn("comparing anyway: %s", reasons.items[i]);
		else
			diag_error("not comparable: %s", reasons.items[i]);
	if (!allow)
		diag_plain("hint: compare against a baseline of the same "
		    "device class, or pass --allow-mismatch");
	strlist_release(&reasons);
	return allow ? 0 : EXIT_BAD_INPUT;
}

/*
 * The baseline sample from the store: the window of this device's results
 * on `a->against` (baseline_sample.h), newest first, each named
 * "REF@COMMIT" in a->baselines.  None is a first run (everything new).
 */
static int
read_against(struct results ***base, struct compare_input **in_base,
    struct compare_args *a, const struct results *cur,
    const struct config *cfg)
{
	struct baseline_store *bs = NULL;
	struct baseline_sample s;
	int status, rc;

	if (!cur->app.package || !cur->device.key) {
		diag_error("'%s' has no %s; baselines are filed under the "
		    "app's package and the device key", a->current,
		    !cur->app.package ? "app.package" : "device.key");
		return EXIT_BAD_INPUT;
	}
	status = cmd_baseline_open(&bs, cfg, a->repo);
	if (status)
		return status;
	rc = baseline_sample_load(&s, bs, a->against, cur->app.package,
	    cur->device.key, cfg->baseline.history);
	baseline_store_free(bs);
	if (rc) {
		diag_error_current();
		return exit_status_for_lookup(rc);
	}
	if (!s.nr)
		diag_info("no baseline yet for %s on %s at '%s': every metric "
		    "is new", cur->device.key, cur->app.package, a->against);
	*base = xreallocarray(*base, s.nr + 1, sizeof(**base));
	*in_base = xreallocarray(*in_base, s.nr + 1, sizeof(**in_base));
	/* The runs move to the caller; the sample keeps nothing. */
	for (size_t i = 0; i < s.nr; i++) {
		(*base)[i] = s.runs[i];
		s.runs[i] = NULL;
		strlist_add(&a->baselines, s.names[i]);
	}
	diag_verbose("baseline: %zu run%s of %s from '%s'%s", s.nr,
	    s.nr == 1 ? "" : "s", cur->device.key, a->against,
	    s.from_accept ? ", starting at an acceptance" : "");
	baseline_sample_release(&s);
	return 0;
}

static int
run(void *args, const struct config *cfg)
{
	struct compare_args *a = args;
	struct results *cur = NULL, **base = NULL;
	struct compare_input in_cur, *in_base = NULL;
	struct comparison *cmp = NULL, *prior = NULL, *ab = NULL;
	struct compare_opts opts;
	bool stopped;
	int status;

	base = xcalloc(a->baselines.nr + 1, sizeof(*base));
	in_base = xcalloc(a->baselines.nr + 1, sizeof(*in_base));
	status = read_inputs(&cur, base, a);
	if (status)
		goto out;
	if (a->against) {
		status = read_against(&base, &in_base, a, cur, cfg);
		if (status)
			goto out;
	}
	in_cur.results = cur;
	in_cur.name = a->current;
	for (size_t i = 0; i < a->baselines.nr; i++) {
		in_base[i].results = base[i];
		in_base[i].name = a->baselines.items[i];
	}
	status = check_comparable(&in_cur, in_base, a->baselines.nr,
	    a->allow_mismatch);
	if (status)
		goto out;

	compare_opts_init(&opts, &cfg->compare);
	opts.allow_mismatch = a->allow_mismatch;
	opts.look = a->look;
	opts.looks = a->looks;
	opts.last = a->final || a->look == a->looks;
	if (a->prior) {
		if (comparison_read(&prior, a->prior)) {
			diag_plain("%s", jg_error_msg());
			status = EXIT_BAD_INPUT;
			goto out;
		}
		opts.prior = prior;
	}
	if (a->night_pairs) {
		if ((size_t)a->night_pairs < cur->nr_scenarios) {
			diag_error("--night-pairs %ld is fewer than the %zu "
			    "scenarios of '%s'", a->night_pairs,
			    cur->nr_scenarios, a->current);
			status = EXIT_BAD_INPUT;
			goto out;
		}
		opts.share = (double)cur->nr_scenarios /
		    (double)a->night_pairs;
	}
	if (compare_run(&cmp, &in_cur, in_base, a->baselines.nr, &opts)) {
		diag_error_current();
		status = exit_status_for_error(jg_error_code());
		goto out;
	}
	/* gate's confirmation, recomputed from its A/B's comparison. */
	if (a->confirm) {
		char *what = xasprintf("the A/B in %s", a->confirm);

		if (comparison_read(&ab, a->confirm)) {
			diag_plain("%s", jg_error_msg());
			free(what);
			status = EXIT_BAD_INPUT;
			goto out;
		}
		compare_confirm(cmp, ab, cur->device.refresh_hz > 0 ?
		    1000 / cur->device.refresh_hz : NAN, what);
		free(what);
	}
	for (size_t i = 0; i < cmp->warnings.nr; i++)
		diag_warn("%s", cmp->warnings.items[i]);
	for (size_t i = 0; i < cmp->confirmation.nr; i++)
		diag_plain("confirmation: %s", cmp->confirmation.items[i]);
	for (size_t i = 0; i < cmp->missing.nr; i++)
		diag_error("%s was measured in the baseline and not in '%s'",
		    cmp->missing.items[i], a->current);
	status = exit_status_of(cmp_verdict_outcome(
	    comparison_verdict(cmp)));
	/*
	 * A run stopped by a failure (a device lost, an interrupt: each
	 * is a line of run.errors) is what run and gate said of it, an
	 * infrastructure failure; the iterations it did not reach are not
	 * an inconclusive comparison.  A regression still wins.
	 */
	stopped = !cur->run.complete && cur->run.errors.nr;
	if (cmp->nr_scenarios && comparison_measured(cmp) == 0) {
		/* Nothing measured is never a pass (exitstatus.h). */
		diag_error("'%s' holds no valid iteration%s%s", a->current,
		    cur->run.errors.nr ? ": " : "", cur->run.errors.nr ?
		    cur->run.errors.items[0] : "");
		status = exit_status_merge(status, EXIT_INFRA);
	} else if (stopped) {
		for (size_t i = 0; i < cur->run.errors.nr; i++)
			diag_error("'%s': the run did not finish: %s",
			    a->current, cur->run.errors.items[i]);
		status = exit_status_merge(status, EXIT_INFRA);
	}
	if (comparison_write(cmp, a->output)) {
		diag_error_current();
		status = exit_status_merge(status, EXIT_INFRA);
	} else {
		diag_verbose("wrote %s", a->output);
	}
	print_table(cmp);
out:
	comparison_free(cmp);
	comparison_free(prior);
	comparison_free(ab);
	results_free(cur);
	for (size_t i = 0; base && i < a->baselines.nr; i++)
		results_free(base[i]);
	free(base);
	free(in_base);
	return status;
}

static void
release(void *args)
{
	struct compare_args *a = args;

	strlist_release(&a->baselines);
}

const struct command cmd_compare = {
	.name = "compare",
	.summary = "compare one device's results with its baseline runs",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG_OPTIONAL,
	.args_size = sizeof(struct compare_args),
	.parse = parse,
	.run = run,
	.release = release,
};
