/*
 * test_mustache.c: the template engine, against the official Mustache spec
 * files and against what the reports need beyond them (escaping of hostile
 * strings, error positions, recursion limits, big lists, number format).
 *
 * The spec lives outside the tree: $JG_MUSTACHE_SPEC, else
 * <srcdir>/../shared/conformance/mustache.  Without it the spec tests skip,
 * and the group ends by saying how many it skipped; with
 * JG_MUSTACHE_SPEC_REQUIRED set (CI, which always has the spec: .ci/run)
 * a missing spec fails them instead.
 */
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "unit.h"
#include "error.h"
#include "fileio.h"
#include "mustache.h"
#include "strbuf.h"

/* Partials from a cJSON object of name -> source; counts loads. */
struct partials {
	const cJSON *map;
	int loads;
	int fail;		/* nonzero: every load fails with JG_EIO */
};

static int
load_partial(void *ctx, const char *name, struct strbuf *out)
{
	struct partials *p = ctx;
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(p->map, name);

	p->loads++;
	if (p->fail)
		return jg_error_set(JG_EIO, "cannot read '%s.mustache'", name);
	if (!cJSON_IsString(s))
		return JG_ENOTFOUND;
	strbuf_addstr(out, s->valuestring);
	return 0;
}

/*
 * Compile and render `tmpl` over the JSON text `json`, with partials from
 * the JSON object text `partials` (may be NULL); returns the render's code
 * and leaves the output in `out`.
 */
static int
render_json(struct strbuf *out, const char *tmpl, const char *json,
    const char *partials, struct partials *pctx)
{
	struct partials local = { 0 };
	struct mustache_opts opts = { 0 };
	struct mustache *t;
	cJSON *data = cJSON_Parse(json), *pmap = NULL;
	int err;

	assert_non_null(data);
	if (!pctx)
		pctx = &local;
	if (partials) {
		pmap = cJSON_Parse(partials);
		assert_non_null(pmap);
		pctx->map = pmap;
	}
	opts.load_partial = load_partial;
	opts.partial_ctx = pctx;
	err = mustache_compile(&t, tmpl, strlen(tmpl), "t");
	if (!err)
		err = mustache_render(t, data, &opts, out);
	mustache_free(t);
	cJSON_Delete(data);
	cJSON_Delete(pmap);
	return err;
}

static void
assert_renders(const char *tmpl, const char *json, const char *expected)
{
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(render_json(&out, tmpl, json, NULL, NULL), 0);
	assert_string_equal(out.buf, expected);
	strbuf_release(&out);
}

/* Run one case of a spec file; 1 when it passes, else the reason in `why`. */
static int
run_spec_case(const cJSON *c, struct strbuf *why)
{
	const cJSON *tmpl = cJSON_GetObjectItemCaseSensitive(c, "template");
	const cJSON *expected = cJSON_GetObjectItemCaseSensitive(c, "expected");
	struct partials p = { 0 };
	struct mustache_opts opts = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct mustache *t = NULL;
	int err, ok = 0;

	p.map = cJSON_GetObjectItemCaseSensitive(c, "partials");
	opts.load_partial = load_partial;
	opts.partial_ctx = &p;
	err = mustache_compile(&t, tmpl->valuestring, strlen(tmpl->valuestring),
	    "spec");
	if (!err)
		err = mustache_render(t,
		    cJSON_GetObjectItemCaseSensitive(c, "data"), &opts, &out);
	if (err)
		strbuf_addf(why, "error: %s", jg_error_msg());
	else if (strcmp(out.buf, expected->valuestring))
		strbuf_addf(why, "expected \"%s\", got \"%s\"",
		    expected->valuestring, out.buf);
	else
		ok = 1;
	mustache_free(t);
	strbuf_release(&out);
	return ok;
}

/* Spec files not found, and where they were looked for. */
static int spec_skipped;
static char spec_dir[1024];

/* Every case of one spec file passes; failures are listed by name. */
static void
run_spec_file(const char *file)
{
	const char *env = getenv("JG_MUSTACHE_SPEC");
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf failed = STRBUF_INIT, why = STRBUF_INIT;
	const cJSON *c;
	cJSON *root;
	int run = 0, passed = 0;

	if (env)
		strbuf_addstr(&dir, env);
	else
		strbuf_addf(&dir, "%s/../shared/conformance/mustache",
		    unit_srcdir());
	if (!file_exists(dir.buf)) {
		const char *req = getenv("JG_MUSTACHE_SPEC_REQUIRED");

		snprintf(spec_dir, sizeof(spec_dir), "%s", dir.buf);
		strbuf_release(&dir);
		if (req && *req)
			fail_msg("mustache spec not found at '%s' (required by "
			    "JG_MUSTACHE_SPEC_REQUIRED)", spec_dir);
		spec_skipped++;
		skip();
	}
	strbuf_addf(&path, "%s/%s", dir.buf, file);
	if (file_read(&text, path.buf))
		fail_msg("%s", jg_error_msg());
	root = cJSON_ParseWithLength(text.buf, text.len);
	assert_non_null(root);
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "tests")) {
		run++;
		strbuf_reset(&why);
		if (run_spec_case(c, &why))
			passed++;
		else
			strbuf_addf(&failed, "  %s: %s\n", cJSON_GetStringValue(
			    cJSON_GetObjectItemCaseSensitive(c, "name")),
			    why.buf);
	}
	print_message("mustache spec %s: %d/%d cases passed\n", file, passed,
	    run);
	if (failed.len)
		fail_msg("failed cases in %s:\n%s", file, failed.buf);
	assert_true(run > 0);
	cJSON_Delete(root);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&failed);
}

/* The spec's comments cases all pass. */
static void
spec_comments(void **state)
{
	run_spec_file("comments.json");
}

/* The spec's set-delimiter cases all pass. */
static void
spec_delimiters(void **state)
{
	run_spec_file("delimiters.json");
}

/* The spec's interpolation cases all pass. */
static void
spec_interpolation(void **state)
{
	run_spec_file("interpolation.json");
}

/* The spec's inverted-section cases all pass. */
static void
spec_inverted(void **state)
{
	run_spec_file("inverted.json");
}

/* The spec's partials cases all pass. */
static void
spec_partials(void **state)
{
	run_spec_file("partials.json");
}

/* The spec's section cases all pass. */
static void
spec_sections(void **state)
{
	run_spec_file("sections.json");
}

/* {{var}} escapes markup, both quotes, and escapes '&' even in entities. */
static void
variables_escape_hostile_strings(void **state)
{
	assert_renders("{{s}}|{{q}}|{{a}}",
	    "{\"s\": \"<script>alert(\\\"x\\\")</script>\", \"q\": \"it's\","
	    " \"a\": \"&amp;\"}",
	    "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;|it&#39;s|"
	    "&amp;amp;");
}

/* {{{var}}} and {{& var}} output the value byte for byte. */
static void
raw_tags_do_not_escape(void **state)
{
	assert_renders("{{{s}}}|{{& s}}", "{\"s\": \"<b a='1'>&amp;</b>\"}",
	    "<b a='1'>&amp;</b>|<b a='1'>&amp;</b>");
}

static void
escape_upper(struct strbuf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		strbuf_addch(out, s[i] >= 'a' && s[i] <= 'z' ?
		    s[i] - 'a' + 'A' : s[i]);
}

/* A caller's escape function replaces HTML escaping for {{var}} only. */
static void
custom_escape_applies_to_variables_only(void **state)
{
	struct mustache_opts opts = { .escape = escape_upper };
	struct strbuf out = STRBUF_INIT;
	struct mustache *t;
	cJSON *data = cJSON_Parse("{\"s\": \"a<b\"}");
	const char *src = "{{s}} {{{s}}}";

	assert_int_equal(mustache_compile(&t, src, strlen(src), NULL), 0);
	assert_int_equal(mustache_render(t, data, &opts, &out), 0);
	assert_string_equal(out.buf, "A<B a<b");
	strbuf_reset(&out);
	opts.escape = mustache_escape_none;
	assert_int_equal(mustache_render(t, data, &opts, &out), 0);
	assert_string_equal(out.buf, "a<b a<b");
	strbuf_release(&out);
	mustache_free(t);
	cJSON_Delete(data);
}

/* Compile errors carry the template name, line and column of the tag. */
static void
compile_errors_give_positions(void **state)
{
	static const struct {
		const char *src, *msg;
	} cases[] = {
		{ "a\n  {{#scenes}}x",
		  "report.html:2:3: unclosed section 'scenes'" },
		{ "{{#a}}{{#b}}{{/b}}",
		  "report.html:1:1: unclosed section 'a'" },
		{ "{{#a}}\n{{/b}}",
		  "report.html:2:1: close tag 'b' does not match section 'a' "
		  "opened at 1:1" },
		{ "x {{/a}}",
		  "report.html:1:3: close tag 'a' without an open section" },
		{ "\n\n{{=<%%>=}}",
		  "report.html:3:1: bad set-delimiter tag: expected two "
		  "delimiters, as in '=<% %>='" },
		{ "{{=<% %> x=}}",
		  "report.html:1:1: bad set-delimiter tag: expected two "
		  "delimiters, as in '=<% %>='" },
		{ "ab {{name", "report.html:1:4: unclosed tag" },
		{ "{{{name}}", "report.html:1:1: unclosed tag" },
		{ "x\n{{ }}", "report.html:2:1: empty tag" },
		{ "{{a b}}", "report.html:1:1: bad name 'a b'" },
		{ "{{#a..b}}{{/a..b}}", "report.html:1:1: bad name 'a..b'" },
		{ "{{.a}}", "report.html:1:1: bad name '.a'" },
		{ "{{>}}", "report.html:1:1: empty tag" },
		{ "{{=<% %>=}}\n<%#a%>\n  <%/b%>",
		  "report.html:3:3: close tag 'b' does not match section 'a' "
		  "opened at 2:1" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* Start non-NULL to see compile clear it. */
		struct mustache *t = (struct mustache *)&t;

		assert_int_equal(mustache_compile(&t, cases[i].src,
		    strlen(cases[i].src), "report.html"), JG_EINVAL);
		assert_null(t);
		assert_string_equal(jg_error_msg(), cases[i].msg);
	}
}

/* Sections nested past the limit in one template fail to compile. */
static void
deep_sections_fail_to_compile(void **state)
{
	struct strbuf src = STRBUF_INIT;
	struct mustache *t;

	for (int i = 0; i <= MUSTACHE_MAX_DEPTH; i++)
		strbuf_addstr(&src, "{{#a}}");
	assert_int_equal(mustache_compile(&t, src.buf, src.len, "deep"),
	    JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "nested deeper than"));
	strbuf_release(&src);
}

/* A partial that includes itself forever fails and leaves `out` alone. */
static void
runaway_partial_recursion_fails(void **state)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_addstr(&out, "keep");
	assert_int_equal(render_json(&out, "{{>loop}}", "{}",
	    "{\"loop\": \"x{{>loop}}\"}", NULL), JG_EINVAL);
	assert_string_equal(out.buf, "keep");
	assert_non_null(strstr(jg_error_msg(),
	    "sections and partials nested deeper than 200 levels at 'loop'"));
	strbuf_release(&out);
}

/* A partial recursing over nested data renders every level. */
static void
partial_recursion_over_data_renders(void **state)
{
	struct strbuf json = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;

	for (int i = 0; i < 50; i++)
		strbuf_addstr(&json, "{\"n\": ");
	/* The innermost n must be falsy: a missing n finds an outer one. */
	strbuf_addstr(&json, "{\"n\": null}");
	for (int i = 0; i < 50; i++) {
		strbuf_addch(&json, '}');
		strbuf_addch(&want, '<');
	}
	for (int i = 0; i < 50; i++)
		strbuf_addch(&want, '>');
	assert_int_equal(render_json(&out, "{{>p}}", json.buf,
	    "{\"p\": \"{{#n}}<{{>p}}>{{/n}}\"}", NULL), 0);
	assert_string_equal(out.buf, want.buf);
	strbuf_release(&json);
	strbuf_release(&want);
	strbuf_release(&out);
}

/* 100000 rows through a partial all render, and the partial loads once. */
static void
big_list_renders_fully(void **state)
{
	struct partials p = { 0 };
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	struct mustache_opts opts = { .load_partial = load_partial,
	    .partial_ctx = &p };
	const char *src = "<table>\n{{#rows}}\n  {{>row}}\n{{/rows}}\n</table>";
	cJSON *data = cJSON_CreateObject(), *rows, *row;
	struct mustache *t;

	rows = cJSON_AddArrayToObject(data, "rows");
	strbuf_addstr(&want, "<table>\n");
	for (int i = 0; i < 100000; i++) {
		row = cJSON_CreateObject();
		cJSON_AddNumberToObject(row, "i", i);
		cJSON_AddStringToObject(row, "name", i % 2 ? "a&b" : "c");
		cJSON_AddItemToArray(rows, row);
		strbuf_addf(&want, "  <tr><td>%d</td><td>%s</td></tr>\n", i,
		    i % 2 ? "a&amp;b" : "c");
	}
	strbuf_addstr(&want, "</table>");
	p.map = cJSON_Parse("{\"row\": "
	    "\"<tr><td>{{i}}</td><td>{{name}}</td></tr>\\n\"}");
	assert_int_equal(mustache_compile(&t, src, strlen(src), "big"), 0);
	assert_int_equal(mustache_render(t, data, &opts, &out), 0);
	assert_int_equal(out.len, want.len);
	assert_string_equal(out.buf, want.buf);
	assert_int_equal(p.loads, 1);
	mustache_free(t);
	cJSON_Delete((cJSON *)p.map);
	cJSON_Delete(data);
	strbuf_release(&out);
	strbuf_release(&want);
}

/* A loader error fails the render with the tag's position as context. */
static void
loader_error_fails_render(void **state)
{
	struct partials p = { .fail = 1 };
	struct strbuf out = STRBUF_INIT;

	strbuf_addstr(&out, "keep");
	assert_int_equal(render_json(&out, "a\nb {{> row}}", "{}", NULL, &p),
	    JG_EIO);
	assert_string_equal(jg_error_msg(),
	    "t:2:3: partial 'row': cannot read 'row.mustache'");
	assert_string_equal(out.buf, "keep");
	strbuf_release(&out);
}

/* A partial with a syntax error fails the render, naming the partial. */
static void
bad_partial_fails_render(void **state)
{
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(render_json(&out, "{{>p}}", "{}",
	    "{\"p\": \"ok\\n{{#a}}\"}", NULL), JG_EINVAL);
	assert_string_equal(jg_error_msg(), "p:2:1: unclosed section 'a'");
	strbuf_release(&out);
}

/* Numbers print in the shortest form that reads back to the same value. */
static void
numbers_print_shortest(void **state)
{
	static const struct {
		const char *json, *text;
	} cases[] = {
		{ "0", "0" }, { "-0.0", "0" }, { "-3", "-3" }, { "1.5", "1.5" },
		{ "0.1", "0.1" },
		{ "16.666666666666668", "16.666666666666668" },
		{ "0.30000000000000004", "0.30000000000000004" },
		{ "123456789012", "123456789012" }, { "1e21", "1e+21" },
		{ "1e-7", "1e-07" }, { "true", "true" }, { "false", "false" },
		{ "null", "" }, { "{}", "" }, { "[1]", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf json = STRBUF_INIT;

		strbuf_addf(&json, "{\"v\": %s}", cases[i].json);
		assert_renders("{{v}}", json.buf, cases[i].text);
		strbuf_release(&json);
	}
}

/* Only missing, null, false and [] are falsy; 0, "" and {} are truthy. */
static void
truthiness_follows_spec(void **state)
{
	static const struct {
		const char *json, *text;
	} cases[] = {
		{ "{}", "F" }, { "{\"v\": null}", "F" },
		{ "{\"v\": false}", "F" }, { "{\"v\": []}", "F" },
		{ "{\"v\": 0}", "T" }, { "{\"v\": \"\"}", "T" },
		{ "{\"v\": {}}", "T" }, { "{\"v\": true}", "T" },
		{ "{\"v\": [0, 0]}", "TT" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_renders("{{#v}}T{{/v}}{{^v}}F{{/v}}", cases[i].json,
		    cases[i].text);
}

/* Rendering appends to `out`, and NULL data is an empty context. */
static void
render_appends_and_accepts_null_data(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct mustache *t;

	const char *src = "a{{x}}{{#x}}!{{/x}}b";

	assert_int_equal(mustache_compile(&t, src, strlen(src), NULL), 0);
	strbuf_addstr(&out, ">");
	assert_int_equal(mustache_render(t, NULL, NULL, &out), 0);
	assert_string_equal(out.buf, ">ab");
	mustache_free(t);
	mustache_free(NULL);
	strbuf_release(&out);
}

/* Without a loader every partial is missing and renders as empty. */
static void
no_loader_means_empty_partials(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct mustache *t;

	const char *src = "[{{>p}}]\n  {{>p}}\n.";

	assert_int_equal(mustache_compile(&t, src, strlen(src), NULL), 0);
	assert_int_equal(mustache_render(t, NULL, NULL, &out), 0);
	assert_string_equal(out.buf, "[]\n.");
	mustache_free(t);
	strbuf_release(&out);
}

/* Standalone partials inside standalone partials add up their indentation. */
static void
nested_partials_accumulate_indentation(void **state)
{
	struct strbuf out = STRBUF_INIT;

	assert_int_equal(render_json(&out, "<ul>\n  {{>list}}\n</ul>\n",
	    "{\"xs\": [1, 2]}",
	    "{\"list\": \"{{#xs}}\\n  {{>item}}\\n{{/xs}}\\n\","
	    " \"item\": \"<li>\\n{{.}}\\n</li>\\n\"}", NULL), 0);
	assert_string_equal(out.buf, "<ul>\n    <li>\n    1\n    </li>\n"
	    "    <li>\n    2\n    </li>\n</ul>\n");
	strbuf_release(&out);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(spec_comments),
	cmocka_unit_test(spec_delimiters),
	cmocka_unit_test(spec_interpolation),
	cmocka_unit_test(spec_inverted),
	cmocka_unit_test(spec_partials),
	cmocka_unit_test(spec_sections),
	cmocka_unit_test(variables_escape_hostile_strings),
	cmocka_unit_test(raw_tags_do_not_escape),
	cmocka_unit_test(custom_escape_applies_to_variables_only),
	cmocka_unit_test(compile_errors_give_positions),
	cmocka_unit_test(deep_sections_fail_to_compile),
	cmocka_unit_test(runaway_partial_recursion_fails),
	cmocka_unit_test(partial_recursion_over_data_renders),
	cmocka_unit_test(big_list_renders_fully),
	cmocka_unit_test(loader_error_fails_render),
	cmocka_unit_test(bad_partial_fails_render),
	cmocka_unit_test(numbers_print_shortest),
	cmocka_unit_test(truthiness_follows_spec),
	cmocka_unit_test(render_appends_and_accepts_null_data),
	cmocka_unit_test(no_loader_means_empty_partials),
	cmocka_unit_test(nested_partials_accumulate_indentation),
};
/* After the group: how many spec tests a missing spec skipped. */
static int
say_skipped(void **state)
{
	(void)state;
	if (spec_skipped)
		fprintf(stderr, "mustache: %d spec test%s skipped: no spec at "
		    "'%s' (set JG_MUSTACHE_SPEC)\n", spec_skipped,
		    spec_skipped == 1 ? "" : "s", spec_dir);
	return 0;
}

JG_UNIT_GROUP(mustache, tests, NULL, say_skipped)
