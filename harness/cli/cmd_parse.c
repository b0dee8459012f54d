/*
 * cmd_parse.c: `jankgate parse`, one source's parser over saved device
 * output.
 *
 * For "why is my data not picked up": the user saves what the device
 * printed (a gfxinfo dump, `am start -W` output, a logcat capture...) and
 * sees exactly what the source makes of it, the same code path as a run
 * minus the device.  Each FILE is read as UTF-8 (textenc.h: a BOM or
 * UTF-16 from a Windows redirect are undone first) into a fresh iteration
 * (ctx->dev is NULL; the package is --app, else `app` of the
 * configuration or $JANKGATE_APP; the app's pids are the --pid options;
 * the refresh rate is --refresh-hz, else the one the file names, which
 * a source finds and the command notes on stderr, else 60) and printed
 * as a JSON array, one object per file:
 *
 *	[ { "file": "dump.txt", "source": "gfxinfo",
 *	    "iteration": { ...as in results.json... },
 *	    "launches": [ { "activity": "pkg/.Act", "startup": {...} } ],
 *	    "warnings": [ "message", ... ],
 *	    "notes": [ "'dump.txt': logcat layouts: threadtime (40 lines)" ] } ]
 *
 * "launches" (the startup source only) lists every launch in the file in
 * order; the iteration, as in a run, keeps the last.  "notes" say how the
 * input was read (the logcat layouts of its lines) and may be empty.  A
 * parser error (am's "Error: Activity not started") is what fails an
 * iteration in a run, so it shows as "ok": false with the "error" in the
 * iteration, not as an exit status; so is input in no known layout a
 * warning.  Exit 2 for an unknown source or a file that cannot be read
 * (the others are still printed).
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "fileio.h"
#include "jsonw.h"
#include "results.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"
#include "textenc.h"
#include "xalloc.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate parse SOURCE FILE... [--app PKG] [--pid N]... "
	"[--refresh-hz HZ]",
	"jankgate parse --list",
	NULL
};

static const char options[] =
	"  --list              the sources and what each one reads\n"
	"  --app PKG           the app's package: picks its process in a\n"
	"                      gfxinfo dump of every process, its lines\n"
	"                      and launches in a log (default: app of the\n"
	"                      configuration, or $JANKGATE_APP)\n"
	"  --pid N             a process id of the app (repeatable), for a\n"
	"                      log that does not say which is the app's\n"
	"                      (no 'Start proc' line, no Studio package\n"
	"                      column); another app's lines never count\n"
	"  --refresh-hz HZ     the display's refresh rate: janky and\n"
	"                      dropped frames depend on it (default: the\n"
	"                      rate a gfxinfo file names, else 60)\n"
	"  -c FILE             app (the package) from this configuration\n"
	"                      (default: $JANKGATE_CONFIG, then\n"
	"                      ./jankgate.json if present)\n"
	"FILE may be UTF-8, with or without a BOM, or UTF-16; logs in any\n"
	"logcat -v layout or as Android Studio copies them.\n"
	"Prints a JSON array, one object per FILE: file, source, the\n"
	"iteration as results.json holds it, every launch (startup),\n"
	"warnings, and notes (the log layouts seen).\n"
	"Exit status: 0 parsed (a failed launch shows as \"ok\": false,\n"
	"input in no known layout as a warning), 2 unknown source or\n"
	"unreadable file.\n";

#define DEFAULT_REFRESH_HZ 60
#define MAX_PID 999999999

struct parse_opts {
	char **files;		/* the FILE operands */
	int nr_files;
	int list;		/* --list */
	const struct source *src;
	const struct config *cfg;
	const char *app;	/* --app, else NULL */
	int *pids;		/* --pid */
	size_t nr_pids, alloc_pids;
	double refresh_hz;
	bool refresh_given;	/* --refresh-hz */
};

static void
list_sources(void)
{
	for (const struct source *const *s = sources; *s; s++)
		printf("%-14s %s\n", (*s)->name, (*s)->summary);
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* Append `text` (JSON at depth 0) as the value of a member at `depth`. */
static void
add_indented(struct strbuf *sb, const char *text, int depth)
{
	for (const char *p = text; *p; p++) {
		strbuf_addch(sb, *p);
		if (*p == '\n')
			for (int i = 0; i < depth; i++)
				strbuf_addstr(sb, "  ");
	}
}

static void
add_launches(struct jsonw *w, const struct source_launches *l)
{
	jsonw_open(w, "launches", '[');
	for (size_t i = 0; i < l->nr; i++) {
		char *json = results_startup_to_json(l->v[i].startup);

		jsonw_open(w, NULL, '{');
		if (l->v[i].activity)
			jsonw_str(w, "activity", l->v[i].activity);
		else
			jsonw_lit(w, "activity", "null");
		jsonw_item(w, "startup");
		add_indented(w->sb, json, w->depth);
		free(json);
		jsonw_close(w, '}');
	}
	jsonw_close(w, ']');
}

/* Run the source over one file's bytes and append its JSON object. */
static void
parse_one(struct jsonw *w, const struct parse_opts *o, const char *file,
    const struct strbuf *data)
{
	struct results *r = results_new();
	struct rs_scenario *scn = results_add_scenario(r, "parse");
	struct rs_iteration *it = rs_scenario_add_iteration(scn, false);
	struct source_launches launches = { NULL, 0, 0 };
	struct strlist notes = STRLIST_INIT;
	struct source_ctx ctx = {
		.cfg = o->cfg,
		.package = o->app ? o->app : o->cfg ? o->cfg->app : NULL,
		.dev = NULL,
		.results = r,
		.it = it,
		.refresh_hz = o->refresh_hz,
		.refresh_assumed = !o->refresh_given,
		.app_pids = o->pids,
		.nr_app_pids = o->nr_pids,
		.launches = &launches,
		.notes = &notes,
	};
	struct strbuf conv = STRBUF_INIT;
	const char *text;
	size_t len;
	char *json;

	textenc_utf8(&conv, data->buf, data->len, &text, &len);
	it->ok = true;
	if (o->src->parse(&ctx, text, len, base_name(file))) {
		it->ok = false;
		rs_str_set(&it->error, jg_error_msg());
	}
	strbuf_release(&conv);
	if (ctx.refresh_from)
		diag_info("%s: refresh rate %.4g Hz, %s; --refresh-hz sets "
		    "another", file, ctx.refresh_hz, ctx.refresh_from);
	jsonw_open(w, NULL, '{');
	jsonw_str(w, "file", file);
	jsonw_str(w, "source", o->src->name);
	jsonw_item(w, "iteration");
	json = results_iteration_to_json(it);
	add_indented(w->sb, json, w->depth);
	free(json);
	if (launches.nr || (o->src->fills & SOURCE_LAUNCHES))
		add_launches(w, &launches);
	source_launches_release(&launches);
	jsonw_open(w, "warnings", '[');
	for (size_t i = 0; i < r->nr_warnings; i++)
		jsonw_str(w, NULL, r->warnings[i].message);
	jsonw_close(w, ']');
	jsonw_open(w, "notes", '[');
	for (size_t i = 0; i < notes.nr; i++)
		jsonw_str(w, NULL, notes.items[i]);
	jsonw_close(w, ']');
	strlist_release(&notes);
	jsonw_close(w, '}');
	results_free(r);
}

static int
parse_files(const struct parse_opts *o, int nr, char **files)
{
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	int status = EXIT_PASS;

	jsonw_init(&w, &out);
	jsonw_open(&w, NULL, '[');
	for (int i = 0; i < nr; i++) {
		struct strbuf data = STRBUF_INIT;

		if (file_read(&data, files[i])) {
			diag_error_current();
			status = EXIT_BAD_INPUT;
		} else {
			parse_one(&w, o, files[i], &data);
		}
		strbuf_release(&data);
	}
	jsonw_close(&w, ']');
	jsonw_end(&w);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	return status;
}

static int
read_number(const char *arg, double min, double max, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= min && v <= max))
		return -1;
	*out = v;
	return 0;
}

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "app", required_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, 'p' },
		{ "refresh-hz", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const struct command *self = &cmd_parse;
	struct parse_opts *o = args;
	int opt;
	double pid;

	o->refresh_hz = DEFAULT_REFRESH_HZ;
	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS, longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 'l':
			o->list = 1;
			break;
		case 'r':
			if (read_number(optarg, 1, 1000, &o->refresh_hz))
				return cmd_usage_error(self, "bad refresh rate "
				    "'%s'", optarg);
			o->refresh_given = true;
			break;
		case 'a':
			if (!*optarg || strchr(optarg, '/') ||
			    strchr(optarg, ' '))
				return cmd_usage_error(self, "bad package "
				    "name '%s'", optarg);
			o->app = optarg;
			break;
		case 'p':
			if (read_number(optarg, 1, MAX_PID, &pid) ||
			    pid != floor(pid))
				return cmd_usage_error(self, "bad process id "
				    "'%s'", optarg);
			XALLOC_GROW(o->pids, o->nr_pids + 1, o->alloc_pids);
			o->pids[o->nr_pids++] = (int)pid;
			break;
		default:
			if (!cmd_common_option(opt, optarg))
				return cmd_usage_error(self, NULL);
		}
	}
	if (o->list) {
		if (optind < argc)
			return cmd_usage_error(self, "--list takes no operand");
		*needs = 0;
		return 0;
	}
	if (argc - optind < 2)
		return cmd_usage_error(self, "need a SOURCE and a FILE");
	o->src = source_find(argv[optind]);
	if (!o->src) {
		diag_error("unknown source '%s' (jankgate parse --list shows "
		    "them)", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	o->files = argv + optind + 1;
	o->nr_files = argc - optind - 1;
	return 0;
}

static int
run(void *args, const struct config *cfg)
{
	struct parse_opts *o = args;

	if (o->list) {
		list_sources();
		return EXIT_PASS;
	}
	o->cfg = cfg;
	return parse_files(o, o->nr_files, o->files);
}

static void
release(void *args)
{
	struct parse_opts *o = args;

	free(o->pids);
}

const struct command cmd_parse = {
	.name = "parse",
	.summary = "run one source's parser over saved device output, print "
	    "JSON",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG_OPTIONAL,
	.args_size = sizeof(struct parse_opts),
	.parse = parse,
	.run = run,
	.release = release,
};
