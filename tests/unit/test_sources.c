/*
 * test_sources.c: the sources as plug-ins (source.h).
 *
 * The table declares what the rest of the program may know of a source:
 * its name, its options, whether it is collected by default, and the
 * parts of the results it fills.  These tests hold the declarations to
 * the code: the configuration validates names and options from the table
 * (from any table: config.c knows no source by name), and each source's
 * parser, run over its saved samples (tests/unit/data/sources/NAME/),
 * fills the parts it declares and nothing else.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "config.h"
#include "error.h"
#include "fileio.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "strlist.h"
#include "textenc.h"
#include "xalloc.h"

/* Names, summaries, parsers and options: each once, each complete. */
static void
the_table_is_well_formed(void **state)
{
	struct strlist names = STRLIST_INIT, opts = STRLIST_INIT;

	(void)state;
	for (size_t i = 0; sources[i]; i++) {
		const struct source *s = sources[i];

		assert_non_null(s->name);
		assert_true(strlist_find(&names, s->name) < 0);
		strlist_add(&names, s->name);
		assert_ptr_equal(source_find(s->name), s);
		assert_non_null(s->summary);
		assert_non_null(s->parse);
		assert_true(s->fills != 0);
		for (const struct config_opt *o = s->options; o && o->name;
		    o++) {
			/* Options share one namespace, source_options. */
			assert_true(strlist_find(&opts, o->name) < 0);
			strlist_add(&opts, o->name);
			assert_non_null(o->doc);
		}
	}
	assert_true(names.nr >= 8);
	assert_null(source_find("no-such-source"));
	strlist_release(&names);
	strlist_release(&opts);
}

static struct config *
parse_ok(const char *json, const struct config_plugins *p)
{
	struct strlist problems = STRLIST_INIT;
	struct config *cfg = NULL;

	if (config_parse(&cfg, json, strlen(json), "t.json", p, &problems)) {
		for (size_t i = 0; i < problems.nr; i++)
			print_message("%s\n", problems.items[i]);
		fail_msg("'%s' does not parse", json);
	}
	strlist_release(&problems);
	return cfg;
}

/* The first problem `json` has, into `out`. */
static void
parse_problem(struct strbuf *out, const char *json,
    const struct config_plugins *p)
{
	struct strlist problems = STRLIST_INIT;
	struct config *cfg = NULL;

	assert_int_equal(config_parse(&cfg, json, strlen(json), "t.json", p,
	    &problems), JG_EINVAL);
	assert_true(problems.nr > 0);
	strbuf_addstr(out, problems.items[0]);
	strlist_release(&problems);
}

#define APP "\"app\":\"com.example.shop\",\"scenarios\":[\"a.scn\"]"

/*
 * `sources` takes the table's names and defaults to its by_default
 * ones, in table order; another name is refused with the list; each
 * declared option is a key of source_options with its type and range.
 */
static void
config_takes_names_and_options_from_the_table(void **state)
{
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	struct config *cfg = parse_ok("{" APP "}", &source_plugins);
	size_t k = 0;

	(void)state;
	for (size_t i = 0; sources[i]; i++)
		if (sources[i]->by_default) {
			assert_true(k < cfg->sources.nr);
			assert_string_equal(cfg->sources.items[k++],
			    sources[i]->name);
		}
	assert_int_equal(cfg->sources.nr, k);
	config_free(cfg);

	parse_problem(&sb, "{" APP ",\"sources\":[\"gfxinfo\",\"nope\"]}",
	    &source_plugins);
	strbuf_addstr(&want, "t.json: sources[1]: expected one of ");
	for (size_t i = 0, n = 0; sources[i]; i++)
		if (!sources[i]->parse_only)
			strbuf_addf(&want, "%s\"%s\"", n++ ? ", " : "",
			    sources[i]->name);
	strbuf_addstr(&want, ", got \"nope\"");
	assert_string_equal(sb.buf, want.buf);

	for (size_t i = 0; sources[i]; i++)
		for (const struct config_opt *o = sources[i]->options;
		    o && o->name; o++) {
			char *json;

			if (o->type == CONFIG_OPT_INT) {
				json = xasprintf("{" APP ",\"source_options\":"
				    "{\"%s\":%.0f}}", o->name, o->max);
				cfg = parse_ok(json, &source_plugins);
				assert_int_equal(config_opt_int(cfg, o->name),
				    (int)o->max);
				free(json);
				config_free(cfg);
				json = xasprintf("{" APP ",\"source_options\":"
				    "{\"%s\":%.0f}}", o->name, o->max + 1);
				strbuf_reset(&sb);
				parse_problem(&sb, json, &source_plugins);
				assert_non_null(strstr(sb.buf, o->name));
			} else {
				json = xasprintf("{" APP ",\"source_options\":"
				    "{\"%s\":\"/x/y.txt\"}}", o->name);
				cfg = parse_ok(json, &source_plugins);
				assert_string_equal(config_opt_path(cfg,
				    o->name), "/x/y.txt");
				config_free(cfg);
			}
			free(json);
		}
	strbuf_reset(&sb);
	parse_problem(&sb, "{" APP ",\"source_options\":{\"traceman_prot\":1}}",
	    &source_plugins);
	assert_string_equal(sb.buf, "t.json: source_options.traceman_prot: "
	    "unknown key (did you mean 'traceman_port'?)");
	strbuf_release(&sb);
	strbuf_release(&want);
}

/* A table of one source that jankgate does not have. */
static const struct config_opt fake_opts[] = {
	{ "fm_interval_ms", CONFIG_OPT_INT, 1, 1000, "16", "sampling" },
	{ NULL, 0, 0, 0, NULL, NULL }
};

static int
fake_get(size_t n, struct config_plugin *out)
{
	if (n)
		return 0;
	*out = (struct config_plugin){ "framemetrics", fake_opts, true };
	return 1;
}

static const struct config_plugins fake_plugins = { fake_get };

/*
 * The configuration knows the sources only through the table it is
 * handed: with another table, another name is valid, its option and its
 * variable work, and the product's names are unknown.
 */
static void
config_knows_no_source_by_name(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct strlist warnings = STRLIST_INIT;
	struct config *cfg = parse_ok("{" APP "}", &fake_plugins);
	char *env[] = { "JANKGATE_SOURCE_OPTIONS_FM_INTERVAL_MS=20", NULL };

	(void)state;
	assert_int_equal(cfg->sources.nr, 1);
	assert_string_equal(cfg->sources.items[0], "framemetrics");
	assert_int_equal(config_opt_int(cfg, "fm_interval_ms"), 16);
	assert_int_equal(config_opt_int(cfg, "traceman_port"), 0);
	/* Its variable is a known one. */
	assert_int_equal(config_env_unknown(cfg, env, &warnings), 0);
	config_free(cfg);
	setenv("JANKGATE_SOURCE_OPTIONS_FM_INTERVAL_MS", "20", 1);
	cfg = parse_ok("{" APP "}", &fake_plugins);
	unsetenv("JANKGATE_SOURCE_OPTIONS_FM_INTERVAL_MS");
	assert_int_equal(config_opt_int(cfg, "fm_interval_ms"), 20);
	config_free(cfg);
	parse_problem(&sb, "{" APP ",\"sources\":[\"gfxinfo\"]}",
	    &fake_plugins);
	assert_string_equal(sb.buf, "t.json: sources[0]: expected one of "
	    "\"framemetrics\", got \"gfxinfo\"");
	strbuf_release(&sb);
	strlist_release(&warnings);
}

/* The parts of the results `it` and `l` show filled. */
static unsigned
parts_filled(const struct rs_iteration *it, const struct source_launches *l)
{
	const struct rs_startup *st = &it->startup;
	const struct rs_matrix_startup *m = &st->matrix;
	unsigned p = 0;

	if (it->nr_blocks)
		p |= SOURCE_BLOCKS;
	if (it->nr_methods)
		p |= SOURCE_METHODS;
	if (!isnan(st->total_ms) || !isnan(st->wait_ms) ||
	    !isnan(st->displayed_ms) || !isnan(st->fully_drawn_ms))
		p |= SOURCE_STARTUP;
	if (m->present)
		p |= SOURCE_STARTUP_MATRIX;
	if (l->nr)
		p |= SOURCE_LAUNCHES;
	for (size_t i = 0; i < it->nr_scenes; i++) {
		const struct rs_scene *sc = &it->scenes[i];

		if (sc->frames.present)
			p |= SOURCE_FRAMES;
		if (sc->fps.nr_slices)
			p |= SOURCE_FPS;
		if (sc->nr_blocks)
			p |= SOURCE_BLOCKS;
		if (sc->nr_methods)
			p |= SOURCE_METHODS;
		if (sc->app_scenes.nr)
			p |= SOURCE_APP_SCENES;
		if (sc->phases.present)
			p |= SOURCE_PHASES;
		if (sc->jank_types.present)
			p |= SOURCE_JANK_TYPES;
	}
	return p;
}

/* Parse one sample with `s` for `package`; the parts it filled. */
static unsigned
parse_sample(const struct source *s, const struct config *cfg,
    const char *path, const char *package)
{
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "parse"), false);
	struct source_launches launches = { NULL, 0, 0 };
	struct source_ctx ctx = { .cfg = cfg, .package = package,
	    .results = r, .it = it, .refresh_hz = 60, .launches = &launches };
	struct strbuf data = STRBUF_INIT, conv = STRBUF_INIT;
	const char *text;
	size_t len;
	unsigned parts;

	assert_int_equal(file_read(&data, path), 0);
	textenc_utf8(&conv, data.buf, data.len, &text, &len);
	s->parse(&ctx, text, len, path);
	if (s->finish && ctx.state)
		s->finish(&ctx);
	parts = parts_filled(it, &launches);
	/* A scene's frames name the source that filled them. */
	for (size_t i = 0; i < it->nr_scenes; i++)
		if (it->scenes[i].frames.present)
			assert_string_equal(it->scenes[i].frames.source,
			    s->name);
	source_launches_release(&launches);
	strbuf_release(&data);
	strbuf_release(&conv);
	results_free(r);
	return parts;
}

static int
is_sample(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && strcmp(name, "README") &&
	    strcmp(name, "methodMapping.txt") &&
	    !(n > 5 && !strcmp(name + n - 5, ".json")) &&
	    !(n > 6 && !strcmp(name + n - 6, ".truth"));
}

/*
 * Over its samples, each source fills exactly the parts it declares:
 * none it does not (a second frame source would be caught here), and
 * each it does in at least one sample (for the app of the samples, the
 * simulated shop, or whatever app the input shows).
 */
static void
sources_fill_what_they_declare(void **state)
{
	struct config *cfg = NULL;

	(void)state;
	assert_int_equal(config_defaults(&cfg, &source_plugins, NULL), 0);
	for (size_t i = 0; sources[i]; i++) {
		const struct source *s = sources[i];
		char *dir = xasprintf("%s/tests/unit/data/sources/%s",
		    unit_srcdir(), s->name);
		DIR *d = opendir(dir);
		struct dirent *e;
		unsigned seen = 0;

		assert_non_null(d);
		while ((e = readdir(d))) {
			char *path;

			if (!is_sample(e->d_name))
				continue;
			path = xasprintf("%s/%s", dir, e->d_name);
			seen |= parse_sample(s, cfg, path, "com.example.shop");
			seen |= parse_sample(s, cfg, path, NULL);
			free(path);
		}
		closedir(d);
		if (seen & ~s->fills)
			fail_msg("%s fills 0x%x but declares 0x%x", s->name,
			    seen, s->fills);
		if (s->fills & ~seen)
			fail_msg("%s declares 0x%x but its samples fill 0x%x",
			    s->name, s->fills, seen);
		free(dir);
	}
	config_free(cfg);
}

/* The warnings of `r` from source `src`. */
static size_t
warnings_of(const struct results *r, const char *src)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_warnings; i++)
		n += r->warnings[i].source &&
		    !strcmp(r->warnings[i].source, src);
	return n;
}

/* Run `s`'s prepare and finish over `r` with no input: a silent batch. */
static void
silent_batch(const struct source *s, struct results *r)
{
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "batch"), false);
	struct source_ctx ctx = { .package = "com.example.shop", .results = r,
	    .it = it, .refresh_hz = 60 };

	if (s->prepare)
		assert_int_equal(s->prepare(&ctx), 0);
	s->finish(&ctx);
}

/* A results file whose one scene holds what source `name` gives. */
static struct results *
earlier_batch(const struct source *s, const char *name)
{
	struct results *r = results_new();
	struct rs_scene *sc = rs_iteration_add_scene(rs_scenario_add_iteration(
	    results_add_scenario(r, "first"), false), "feed");

	if (s->fills & SOURCE_FPS)
		rs_fps_add_slice(&sc->fps, name);
	else if (s->fills & SOURCE_BLOCKS)
		rs_scene_add_block(sc, name);
	else
		rs_scene_add_method(sc, name, "com.example.A.b");
	return r;
}

/*
 * gate's extra batches append to the results of the first: a library
 * that printed nothing in a batch of one scenario, but something in an
 * earlier batch, has not printed "nothing in the whole run".  Each
 * library source warns on a silent run, and not once an earlier batch of
 * the same results holds what it gave (a block, a method, an FPS slice).
 * BlockCanary and MethodTraceMan need a phone to prepare (they list its
 * files, forward its port); they ask source_in_results() the same way.
 */
static void
no_whole_run_warning_after_an_earlier_batch(void **state)
{
	static const char *const offline[] = { "perf", "fpsanalyzer",
		"matrix" };
	static const char *const all[] = { "perf", "fpsanalyzer", "matrix",
		"traceman", "blockcanary" };

	(void)state;
	for (size_t i = 0; i < sizeof(all) / sizeof(*all); i++) {
		const struct source *s = source_find(all[i]);
		struct results *r;

		assert_non_null(s);
		r = earlier_batch(s, all[i]);
		assert_true(source_in_results(r, all[i]));
		assert_false(source_in_results(r, "gfxinfo"));
		results_free(r);
	}
	for (size_t i = 0; i < sizeof(offline) / sizeof(*offline); i++) {
		const struct source *s = source_find(offline[i]);
		struct results *r = results_new();

		silent_batch(s, r);
		assert_int_equal(warnings_of(r, offline[i]), 1);
		results_free(r);

		r = earlier_batch(s, offline[i]);
		silent_batch(s, r);
		assert_int_equal(warnings_of(r, offline[i]), 0);
		results_free(r);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(the_table_is_well_formed),
	cmocka_unit_test(config_takes_names_and_options_from_the_table),
	cmocka_unit_test(config_knows_no_source_by_name),
	cmocka_unit_test(sources_fill_what_they_declare),
	cmocka_unit_test(no_whole_run_warning_after_an_earlier_batch),
};
JG_UNIT_GROUP(sources, tests, NULL, NULL)
