/*
 * test_cli.c: the command table agrees with the man page.
 *
 * Like git's t0450: each usage line printed by `jankgate help CMD` must be a
 * SYNOPSIS line of harness/cli/jankgate.1 (roff font escapes removed), and
 * every line there must belong to a command, so neither can drift alone.
 * The man page is the one reference; README only names the commands.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "cmd.h"
#include "metrics.h"
#include "source.h"
#include "strbuf.h"
#include "strlist.h"

static void
strip_roff(struct strbuf *out, const char *line)
{
	for (const char *p = line; *p; p++) {
		if (p[0] == '\\' && p[1] == 'f' && p[2]) {
			p += 2;
			continue;
		}
		if (p[0] == '\\' && p[1] == '-') {
			strbuf_addch(out, '-');
			p++;
			continue;
		}
		strbuf_addch(out, *p);
	}
}

static void
read_synopsis(struct strlist *lines)
{
	char path[4096], buf[1024];
	int in_syn = 0, in_nf = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/harness/cli/jankgate.1", unit_srcdir());
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(buf, sizeof(buf), fp)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (!strncmp(buf, ".SH ", 4)) {
			in_syn = !strcmp(buf, ".SH SYNOPSIS");
			continue;
		}
		if (!in_syn)
			continue;
		if (!strcmp(buf, ".nf")) {
			in_nf = 1;
		} else if (!strcmp(buf, ".fi")) {
			in_nf = 0;
		} else if (in_nf) {
			struct strbuf sb = STRBUF_INIT;

			strip_roff(&sb, buf);
			strlist_add(lines, sb.buf);
			strbuf_release(&sb);
		}
	}
	fclose(fp);
}

/* Every usage line of the command table, each once. */
static void
all_usage_lines(struct strlist *usage)
{
	for (const char *const *u = jankgate_usage; *u; u++)
		if (strlist_find(usage, *u) < 0)
			strlist_add(usage, *u);
	for (const struct command *const *c = commands; *c; c++)
		for (const char *const *u = (*c)->usage; *u; u++)
			if (strlist_find(usage, *u) < 0)
				strlist_add(usage, *u);
}

/* `doc` (named `where`) holds every usage line and nothing else. */
static void
assert_usage_is(const struct strlist *doc, const char *where)
{
	struct strlist usage = STRLIST_INIT;

	assert_true(doc->nr > 0);
	all_usage_lines(&usage);
	for (size_t i = 0; i < usage.nr; i++)
		if (strlist_find(doc, usage.items[i]) < 0)
			fail_msg("usage line missing from %s: %s", where,
			    usage.items[i]);
	for (size_t i = 0; i < doc->nr; i++)
		if (strlist_find(&usage, doc->items[i]) < 0)
			fail_msg("%s line with no command: %s", where,
			    doc->items[i]);
	strlist_release(&usage);
}

/* Every usage line is in the man page SYNOPSIS, and nothing else is. */
static void
usage_equals_man_synopsis(void **state)
{
	struct strlist syn = STRLIST_INIT;

	(void)state;
	read_synopsis(&syn);
	assert_usage_is(&syn, "jankgate.1 SYNOPSIS");
	strlist_release(&syn);
}

/*
 * The table is well formed: every command has a summary, usage lines
 * that start with its own name, a parser and an action; the needs are
 * one configuration rule at most; only a command that touches devices
 * has a stop hook, and `check` (safe as a pre-commit hook) touches none.
 */
static void
the_table_says_what_each_command_needs(void **state)
{
	(void)state;
	for (const struct command *const *c = commands; *c; c++) {
		char prefix[64];

		snprintf(prefix, sizeof(prefix), "jankgate %s", (*c)->name);
		assert_non_null((*c)->summary);
		assert_non_null((*c)->parse);
		assert_non_null((*c)->run);
		for (const char *const *u = (*c)->usage; *u; u++)
			assert_memory_equal(*u, prefix, strlen(prefix));
		assert_false(((*c)->needs & CMD_CONFIG) &&
		    ((*c)->needs & CMD_CONFIG_OPTIONAL));
	}
	/*
	 * A signal asks the commands that measure or write what others share
	 * (a baseline, a mail) to stop; it ends the others at once.
	 */
	assert_non_null(cmd_run.stop);
	assert_non_null(cmd_gate.stop);
	assert_non_null(cmd_ab.stop);
	assert_non_null(cmd_mail.stop);
	assert_non_null(cmd_baseline.stop);
	assert_null(cmd_check.stop);
	assert_null(cmd_compare.stop);
	assert_null(cmd_report.stop);
	assert_null(cmd_devices.stop);
	assert_int_equal(cmd_check.needs, CMD_CONFIG);
	assert_int_equal(cmd_run.needs, CMD_CONFIG | CMD_DEVICES);
	assert_int_equal(cmd_gate.needs, CMD_CONFIG | CMD_DEVICES);
	assert_int_equal(cmd_compare.needs, CMD_CONFIG_OPTIONAL);
	assert_int_equal(cmd_devices.needs, CMD_DEVICES);
	assert_int_equal(cmd_help.needs, 0);
}

/* Every command is named in README and described in the man page COMMANDS. */
static void
every_command_is_documented(void **state)
{
	struct strbuf readme = STRBUF_INIT;
	char path[4096], buf[4096];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/README.md", unit_srcdir());
	fp = fopen(path, "r");
	assert_non_null(fp);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&readme, buf, n);
	fclose(fp);
	for (const struct command *const *c = commands; *c; c++) {
		char needle[64];

		snprintf(needle, sizeof(needle), "jankgate %s", (*c)->name);
		if (!strstr(readme.buf, needle)) {
			strbuf_release(&readme);	/* fail_msg does not return */
			fail_msg("README.md never shows '%s'", needle);
		}
		assert_ptr_equal(command_find((*c)->name), *c);
	}
	assert_null(command_find("no-such-command"));
	strbuf_release(&readme);
}

/* The text of section `name` of the man page, into `out`. */
static void
man_section(struct strbuf *out, const char *name)
{
	char path[4096], buf[1024], head[128];
	int in = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/harness/cli/jankgate.1", unit_srcdir());
	snprintf(head, sizeof(head), ".SH %s", name);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(buf, sizeof(buf), fp)) {
		if (!strncmp(buf, ".SH ", 4))
			in = !strncmp(buf, head, strlen(head)) &&
			    buf[strlen(head)] == '\n';
		else if (in)
			strbuf_addstr(out, buf);
	}
	fclose(fp);
	assert_true(out->len > 0);
}

/*
 * The man page's METRICS names every metric of the table, COMMANDS every
 * command and SOURCES every source, each as a tagged paragraph (".TP" then ".B NAME"), so the
 * names `thresholds` and `sources` take can be looked up there.
 */
static void
metrics_and_sources_are_in_the_man_page(void **state)
{
	struct strbuf sec = STRBUF_INIT;
	char needle[128];

	(void)state;
	man_section(&sec, "METRICS");
	for (size_t i = 0; i < metric_count(); i++) {
		snprintf(needle, sizeof(needle), ".TP\n.B %s\n",
		    metric_at(i)->name);
		if (!strstr(sec.buf, needle))
			fail_msg("jankgate.1 METRICS lacks %s",
			    metric_at(i)->name);
	}
	strbuf_setlen(&sec, 0);
	man_section(&sec, "COMMANDS");
	for (const struct command *const *c = commands; *c; c++) {
		snprintf(needle, sizeof(needle), ".TP\n.B %s\n", (*c)->name);
		if (!strstr(sec.buf, needle))
			fail_msg("jankgate.1 COMMANDS lacks %s", (*c)->name);
	}
	strbuf_setlen(&sec, 0);
	man_section(&sec, "SOURCES");
	for (size_t i = 0; sources[i]; i++) {
		snprintf(needle, sizeof(needle), ".TP\n.B %s\n",
		    sources[i]->name);
		if (!strstr(sec.buf, needle))
			fail_msg("jankgate.1 SOURCES lacks %s",
			    sources[i]->name);
	}
	strbuf_release(&sec);
}

/*
 * A mistyped command gets a suggestion: a unique prefix of three letters
 * or more, else the nearest name within two edits; nothing when none is
 * that close.
 */
static void
mistyped_commands_get_a_suggestion(void **state)
{
	(void)state;
	assert_string_equal(command_suggest("gaet")->name, "gate");
	assert_string_equal(command_suggest("comapre")->name, "compare");
	assert_string_equal(command_suggest("rep")->name, "report");
	assert_string_equal(command_suggest("devcies")->name, "devices");
	assert_string_equal(command_suggest("rnu")->name, "run");
	assert_null(command_suggest("frobnicate"));
	assert_null(command_suggest("xyzzy"));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(metrics_and_sources_are_in_the_man_page),
	cmocka_unit_test(usage_equals_man_synopsis),
	cmocka_unit_test(mistyped_commands_get_a_suggestion),
	cmocka_unit_test(the_table_says_what_each_command_needs),
	cmocka_unit_test(every_command_is_documented),
};
JG_UNIT_GROUP(cli, tests, NULL, NULL)
