/*
 * cmd_parse.c: `jankgate parse`, one source's parser over saved device
 * output.
 *
 * For "why is my data not picked up": the user saves what the device
 * printed (a gfxinfo dump, `am start -W` output, a logcat capture...) and
 * sees exactly what the source makes of it, the same code path as a run
 * minus the device.  Each FILE is read into a fresh iteration (ctx->dev is
 * NULL, the package is `app` of the configuration or $JANKGATE_APP when
 * set, the refresh rate is --refresh-hz, 60 by default) and printed as a
 * JSON array, one object per file:
 *
 *	[ { "file": "dump.txt", "source": "gfxinfo",
 *	    "iteration": { ...as in results.json... },
 *	    "warnings": [ "message", ... ] } ]
 *
 * A parser error (am's "Error: Activity not started") is what fails an
 * iteration in a run, so it shows as "ok": false with the "error" in the
 * iteration, not as an exit status.  Exit 2 for an unknown source or a
 * file that cannot be read (the others are still printed).
 */
#include <getopt.h>
#include <math.h>
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
#include "sources/source.h"
#include "strbuf.h"
#include "banned.h"

#define DEFAULT_REFRESH_HZ 60

struct parse_opts {
	const struct source *src;
	const struct config *cfg;
	double refresh_hz;
	int sdk;
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

/* Run the source over one file's bytes and append its JSON object. */
static void
parse_one(struct jsonw *w, const struct parse_opts *o, const char *file,
    const struct strbuf *data)
{
	struct results *r = results_new();
	struct rs_scenario *scn = results_add_scenario(r, "parse");
	struct rs_iteration *it = rs_scenario_add_iteration(scn, false);
	struct source_ctx ctx = {
		.cfg = o->cfg,
		.package = o->cfg ? o->cfg->app : NULL,
		.dev = NULL,
		.results = r,
		.it = it,
		.refresh_hz = o->refresh_hz,
		.sdk = o->sdk,
	};
	char *json;

	it->ok = true;
	if (o->src->parse(&ctx, data->buf, data->len, base_name(file))) {
		it->ok = false;
		rs_str_set(&it->error, jg_error_msg());
	}
	jsonw_open(w, NULL, '{');
	jsonw_str(w, "file", file);
	jsonw_str(w, "source", o->src->name);
	jsonw_item(w, "iteration");
	json = results_iteration_to_json(it);
	add_indented(w->sb, json, w->depth);
	free(json);
	jsonw_open(w, "warnings", '[');
	for (size_t i = 0; i < r->nr_warnings; i++)
		jsonw_str(w, NULL, r->warnings[i].message);
	jsonw_close(w, ']');
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

int
cmd_parse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "refresh-hz", required_argument, NULL, 'r' },
		{ "sdk", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const struct command *self = command_find("parse");
	struct parse_opts o = { NULL, NULL, DEFAULT_REFRESH_HZ, 0 };
	struct config *cfg = NULL;
	int opt, list = 0, status;
	double sdk;

	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS, longopts,
	    NULL)) != -1) {
		switch (opt) {
		case 'l':
			list = 1;
			break;
		case 'r':
			if (read_number(optarg, 1, 1000, &o.refresh_hz))
				return cmd_usage_error(self, "bad refresh rate "
				    "'%s'", optarg);
			break;
		case 's':
			if (read_number(optarg, 1, 1000, &sdk) ||
			    sdk != floor(sdk))
				return cmd_usage_error(self, "bad API level "
				    "'%s'", optarg);
			o.sdk = (int)sdk;
			break;
		default:
			if (!cmd_common_option(opt, optarg))
				return cmd_usage_error(self, NULL);
		}
	}
	if (list) {
		if (optind < argc)
			return cmd_usage_error(self, "--list takes no operand");
		list_sources();
		return EXIT_PASS;
	}
	if (argc - optind < 2)
		return cmd_usage_error(self, "need a SOURCE and a FILE");
	o.src = source_find(argv[optind]);
	if (!o.src) {
		diag_error("unknown source '%s' (jankgate parse --list shows "
		    "them)", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	status = cmd_load_config_optional(&cfg);
	if (status)
		return status;
	o.cfg = cfg;
	status = parse_files(&o, argc - optind - 1, argv + optind + 1);
	config_free(cfg);
	return status;
}
