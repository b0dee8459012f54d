/*
 * scenario_instr.c: the words of `instrument`, the step that runs a test
 * APK's instrumentation tests as scenes (issue 52).
 *
 *	instrument RUNNER [TEST]... [arg KEY VALUE]...
 *
 *	instrument androidx.test.runner.AndroidJUnitRunner
 *	instrument .ShopRunner com.example.shop.test.FeedTest
 *	instrument androidx.test.runner.AndroidJUnitRunner \
 *	    com.example.shop.test.CheckoutTest#placeOrder arg size large
 *
 * RUNNER is a class name (a dot in it); a TEST is a Java class name,
 * optionally "#" and a method; after the first `arg` only more `arg KEY
 * VALUE` triples may follow.  The words become `am instrument -e class
 * T1,T2 -e KEY VALUE`, so a comma (it would split a test) and "class" as
 * a KEY (it would replace the tests) are refused here, before any phone.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "scenario_int.h"
#include "xalloc.h"
#include "banned.h"

#define JAVA_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
	"0123456789_$"
#define KEY_CHARS JAVA_CHARS ".-"

void
scn_step_release_words(struct scenario_step *st)
{
	for (size_t i = 0; i < st->nr_tests; i++)
		free(st->tests[i]);
	for (size_t i = 0; i < st->nr_extras; i++)
		free(st->extras[i]);
	free(st->tests);
	free(st->extras);
	st->tests = st->extras = NULL;
	st->nr_tests = st->nr_extras = 0;
}

/* A dotted Java name: parts of JAVA_CHARS, none empty ("a.b.C"). */
static int
is_java_name(const char *s, size_t len, int need_dot)
{
	size_t i = 0;
	int parts = 0;

	for (;;) {
		size_t n = 0;

		while (i + n < len && s[i + n] && strchr(JAVA_CHARS, s[i + n]))
			n++;
		if (!n)
			return 0;
		parts++;
		i += n;
		if (i == len)
			return !need_dot || parts > 1;
		if (s[i++] != '.')
			return 0;
	}
}

/* The runner: a class with a dot, or ".Runner" in the test package. */
static int
check_runner(const struct scn_token *t)
{
	char b[80];
	const char *s = t->s;
	size_t len = t->len;

	if (len && s[0] == '.') {
		s++;
		len--;
	}
	if (!len || !is_java_name(s, len, t->s[0] != '.'))
		return jg_error_set(JG_EINVAL, "bad runner '%s' (expected an "
		    "instrumentation class such as androidx.test.runner."
		    "AndroidJUnitRunner or .MyRunner)", scn_show(b, sizeof(b),
		    t->s));
	return 0;
}

/* CLASS or CLASS#METHOD. */
static int
check_test(const struct scn_token *t)
{
	const char *hash = strchr(t->s, '#');
	size_t clen = hash ? (size_t)(hash - t->s) : t->len;
	char b[80];

	if (!clen || !is_java_name(t->s, clen, 0) || (hash &&
	    (!hash[1] || strspn(hash + 1, JAVA_CHARS) != strlen(hash + 1))))
		return jg_error_set(JG_EINVAL, "bad test '%s' (expected a "
		    "class such as com.shop.test.FeedTest, or "
		    "CLASS#METHOD)", scn_show(b, sizeof(b), t->s));
	return 0;
}

static int
check_key(const struct scn_token *t)
{
	char b[80];

	if (!t->len || t->len != strspn(t->s, KEY_CHARS))
		return jg_error_set(JG_EINVAL, "bad argument name '%s' "
		    "(letters, digits, '_', '.' and '-')", scn_show(b,
		    sizeof(b), t->s));
	if (!strcmp(t->s, "class"))
		return jg_error_set(JG_EINVAL, "'arg class' would replace the "
		    "tests: name them after the runner");
	return 0;
}

static void
add_word(char ***list, size_t *nr, const struct scn_token *t)
{
	*list = xrealloc(*list, (*nr + 1) * sizeof(**list));
	(*list)[(*nr)++] = xstrndup(t->s, t->len);
}

int
scn_read_instrument(const struct scn_lexer *lx, const struct scn_form *fm,
    struct scenario_step *st, int *col)
{
	const struct scn_token *tok = lx->tok;
	size_t i = 2;

	if (lx->nr < 2) {
		*col = tok[0].end_col;
		return jg_error_set(JG_EINVAL, "missing RUNNER (usage: %s)",
		    fm->usage);
	}
	if (check_runner(&tok[1])) {
		*col = tok[1].col;
		return JG_EINVAL;
	}
	for (; i < lx->nr && (tok[i].quoted || strcmp(tok[i].s, "arg")); i++) {
		if (check_test(&tok[i])) {
			*col = tok[i].col;
			goto fail;
		}
		add_word(&st->tests, &st->nr_tests, &tok[i]);
	}
	while (i < lx->nr) {
		if (tok[i].quoted || strcmp(tok[i].s, "arg")) {
			char b[80];

			*col = tok[i].col;
			jg_error_set(JG_EINVAL, "expected 'arg KEY VALUE', not "
			    "'%s' (tests come before the first arg)",
			    scn_show(b, sizeof(b), tok[i].s));
			goto fail;
		}
		if (i + 2 >= lx->nr) {
			*col = tok[lx->nr - 1].end_col;
			jg_error_set(JG_EINVAL, "missing %s (usage: %s)",
			    i + 1 >= lx->nr ? "KEY" : "VALUE", fm->usage);
			goto fail;
		}
		if (check_key(&tok[i + 1])) {
			*col = tok[i + 1].col;
			goto fail;
		}
		if (!tok[i + 2].len) {
			*col = tok[i + 2].col;
			jg_error_set(JG_EINVAL, "empty value of '%s'",
			    tok[i + 1].s);
			goto fail;
		}
		add_word(&st->extras, &st->nr_extras, &tok[i + 1]);
		add_word(&st->extras, &st->nr_extras, &tok[i + 2]);
		i += 3;
	}
	st->text = xstrndup(tok[1].s, tok[1].len);
	return 0;
fail:
	scn_step_release_words(st);
	return JG_EINVAL;
}
