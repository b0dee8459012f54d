/*
 * keydoc.c: the configuration keys as `jankgate help config` prints them
 * and as the man page's CONFIGURATION lists them (keydoc.h).
 *
 * Both come from config_key_docs(), the table of config_keys.c with the
 * sources' options, so a key is documented in both or in neither.  The
 * build makes BUILD/jankgate.1 by putting keydoc_roff()'s list between
 * the two marker lines of harness/cli/jankgate.1 (tools/gen-man.c), and
 * tests/docs/check-docs.py fails when the checked-in page differs.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "keydoc.h"
#include "source.h"
#include "strbuf.h"
#include "banned.h"

/*
 * 1 when `s` starts with a plain word, one a sentence may capitalise:
 * "known_hosts file ..." or "smtp://HOST" stay as they are written.
 */
static int
plain_word(const char *s)
{
	size_t n = strcspn(s, " ");

	return s[0] >= 'a' && s[0] <= 'z' && !memchr(s, '_', n) &&
	    !memchr(s, ':', n) && !memchr(s, '/', n) && !memchr(s, '.', n);
}

/*
 * `s` as roff text: a backslash as \e, a minus as \-, `word` in bold, a
 * leading dot or quote made plain text; `capital` upper-cases the first
 * letter of a plain first word.
 */
static void
roff_text(FILE *fp, const char *s, int capital)
{
	int bold = 0;

	capital = capital && plain_word(s);
	if (*s == '.' || *s == '\'')
		fputs("\\&", fp);
	for (const char *p = s; *p; p++) {
		if (*p == '`') {
			fputs(bold ? "\\fR" : "\\fB", fp);
			bold = !bold;
		} else if (*p == '\\') {
			fputs("\\e", fp);
		} else if (*p == '-') {
			fputs("\\-", fp);
		} else if (p == s && capital) {
			fputc(*p - 'a' + 'A', fp);
		} else {
			fputc(*p, fp);
		}
	}
	if (bold)
		fputs("\\fR", fp);
}

/* The facts after a key's sentence: "Integer, 1 to 1000; default 5." */
static void
facts(struct strbuf *sb, const struct config_key_doc *d)
{
	if (!strcmp(d->type, "(retired)")) {
		strbuf_addstr(sb, "Retired: a configuration that sets it still "
		    "loads, with a warning.");
		return;
	}
	strbuf_addf(sb, "%c%s", d->type[0] >= 'a' && d->type[0] <= 'z' ?
	    d->type[0] - 'a' + 'A' : d->type[0], d->type + 1);
	if (*d->values && strstr(d->values, " to ") && !strchr(d->values, ','))
		strbuf_addf(sb, ", %s", d->values);
	else if (*d->values)
		strbuf_addf(sb, ", %s %s", !strcmp(d->type, "list") ?
		    "each one of" : "one of", d->values);
	if (d->required)
		strbuf_addstr(sb, "; required");
	if (*d->def)
		strbuf_addf(sb, "; default %s", d->def);
	if (*d->env)
		strbuf_addf(sb, "; environment `%s`", d->env);
	strbuf_addch(sb, '.');
}

void
keydoc_roff(FILE *fp)
{
	struct config_key_doc *docs;
	size_t n = config_key_docs(&docs, &source_plugins);

	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		fputs(".TP\n.B ", fp);
		roff_text(fp, docs[i].path, 0);
		fputc('\n', fp);
		roff_text(fp, docs[i].doc, 1);
		fputs(".\n", fp);
		facts(&sb, &docs[i]);
		roff_text(fp, sb.buf, 0);
		fputc('\n', fp);
		strbuf_release(&sb);
	}
	config_key_docs_free(docs, n);
}

/*
 * `s` filled into lines of at most 72 columns indented by 6, backquotes
 * left out.
 */
static void
text_para(FILE *fp, const char *s)
{
	size_t col = 0;

	while (*s) {
		size_t n = strcspn(s, " "), w = n;

		for (size_t i = 0; i < n; i++)
			w -= s[i] == '`';
		if (col && col + 1 + w > 72) {
			fputc('\n', fp);
			col = 0;
		}
		fputs(col ? " " : "      ", fp);
		col += col ? 1 : 6;
		for (size_t i = 0; i < n; i++)
			if (s[i] != '`')
				fputc(s[i], fp);
		col += w;
		s += n;
		s += strspn(s, " ");
	}
	fputc('\n', fp);
}

void
keydoc_text(FILE *fp)
{
	struct config_key_doc *docs;
	size_t n = config_key_docs(&docs, &source_plugins);

	fputs("Keys of the configuration file (a JSON object; KEY.SUB is "
	    "SUB in the\nobject KEY).  See jankgate(1), CONFIGURATION.\n", fp);
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%c%s. ", plain_word(docs[i].doc) ?
		    docs[i].doc[0] - 'a' + 'A' : docs[i].doc[0],
		    docs[i].doc + 1);
		facts(&sb, &docs[i]);
		fprintf(fp, "\n  %s\n", docs[i].path);
		text_para(fp, sb.buf);
		strbuf_release(&sb);
	}
	config_key_docs_free(docs, n);
}
