/*
 * main.c: the single runner for every unit test group.
 *
 * usage: unit-tests [GROUP-PATTERN [TEST-PATTERN]]
 *
 * Patterns are shell globs (fnmatch); the test pattern goes to cmocka's own
 * filter.  Exit status is the number of failed tests, capped at 255.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "cancel.h"
#include "fileio.h"
#include "monoclock.h"

#define X(n) extern const struct unit_group unit_group_##n;
#include "unit_groups.inc"
#undef X

static const struct unit_group *groups[] = {
#define X(n) &unit_group_##n,
#include "unit_groups.inc"
#undef X
	NULL
};

static char tmpdir[256];

const char *
unit_srcdir(void)
{
	const char *s = getenv("JG_SRCDIR");

	return s ? s : ".";
}

static void
remove_tmpdir(void)
{
	if (tmpdir[0])
		file_remove_tree(tmpdir);
}

const char *
unit_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");

		snprintf(tmpdir, sizeof(tmpdir), "%s/jg-unit-XXXXXX",
		    base ? base : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(1);
		}
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

int
main(int argc, char **argv)
{
	const char *gpat = argc > 1 ? argv[1] : "*";
	int failed = 0, ran = 0;

	if (argc > 2)
		cmocka_set_test_filter(argv[2]);
	for (const struct unit_group *const *g = groups; *g; g++) {
		if (fnmatch(gpat, (*g)->name, 0))
			continue;
		ran++;
		failed += _cmocka_run_group_tests((*g)->name, (*g)->tests,
		    (*g)->count, (*g)->setup, (*g)->teardown);
	}
	if (!ran) {
		fprintf(stderr, "unit-tests: no group matches '%s'\n", gpat);
		return 1;
	}
	return failed > 255 ? 255 : failed;
}

void *
unit_cancel_soon(void *ms)
{
	usleep(1000 * (useconds_t)(ms ? *(const int *)ms : 200));
	cancel_request();
	return NULL;
}

int
unit_cancel_forget(void **state)
{
	(void)state;
	cancel_reset();
	return 0;
}

double
unit_seconds(void)
{
	return (double)monoclock_real_ms() / 1e3;
}
