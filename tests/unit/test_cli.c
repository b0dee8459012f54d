/*
 * test_cli.c: the command table agrees with the man page.
 *
 * Like git's t0450: each usage line printed by `jankgate help CMD` must be a
 * SYNOPSIS line of harness/cli/jankgate.1 (roff font escapes removed), and every
 * SYNOPSIS line must belong to a command, so neither can drift alone.
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

/* Every usage line is in the man page SYNOPSIS, and nothing else is. */
static void
usage_equals_man_synopsis(void **state)
{
	struct strlist syn = STRLIST_INIT, usage = STRLIST_INIT;

	read_synopsis(&syn);
	assert_true(syn.nr > 0);
	for (const char *const *u = jankgate_usage; *u; u++)
		if (strlist_find(&usage, *u) < 0)
			strlist_add(&usage, *u);
	for (const struct command *c = commands; c->name; c++)
		for (const char *const *u = c->usage; *u; u++)
			if (strlist_find(&usage, *u) < 0)
				strlist_add(&usage, *u);
	for (size_t i = 0; i < usage.nr; i++)
		if (strlist_find(&syn, usage.items[i]) < 0)
			fail_msg("usage line missing from jankgate.1: %s",
			    usage.items[i]);
	for (size_t i = 0; i < syn.nr; i++)
		if (strlist_find(&usage, syn.items[i]) < 0)
			fail_msg("jankgate.1 SYNOPSIS line with no command: %s",
			    syn.items[i]);
	strlist_release(&syn);
	strlist_release(&usage);
}

/* Every command is described in README and in the man page COMMANDS. */
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
	for (const struct command *c = commands; c->name; c++) {
		char needle[64];

		snprintf(needle, sizeof(needle), "jankgate %s", c->name);
		if (!strstr(readme.buf, needle)) {
			strbuf_release(&readme);	/* fail_msg does not return */
			fail_msg("README.md never shows '%s'", needle);
		}
		assert_non_null(command_find(c->name));
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
 * The man page's METRICS names every metric of the table and SOURCES
 * every source, each as a tagged paragraph (".TP" then ".B NAME"), so the
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

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(metrics_and_sources_are_in_the_man_page),
	cmocka_unit_test(usage_equals_man_synopsis),
	cmocka_unit_test(every_command_is_documented),
};
JG_UNIT_GROUP(cli, tests, NULL, NULL)
