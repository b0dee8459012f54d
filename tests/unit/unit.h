/*
 * unit.h: what every cmocka test file includes.
 *
 * A test file holds the tests of one module and ends with
 *
 *	static const struct CMUnitTest tests[] = { cmocka_unit_test(...), ... };
 *	JG_UNIT_GROUP(strbuf, tests, NULL, NULL)
 *
 * at the start of a line.  The Makefile collects those lines, and main.c
 * runs every group whose name matches the filter given on its command line.
 */
#ifndef JG_UNIT_H
#define JG_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

struct unit_group {
	const char *name;
	const struct CMUnitTest *tests;
	size_t count;
	CMFixtureFunction setup;
	CMFixtureFunction teardown;
};

#define JG_UNIT_GROUP(gname, tbl, su, td) \
	const struct unit_group unit_group_##gname = { \
		#gname, tbl, sizeof(tbl) / sizeof((tbl)[0]), su, td };

/* Directory of the source tree (tests read fixtures from it). */
const char *unit_srcdir(void);
/* A fresh temporary directory for this process, removed at exit. */
const char *unit_tmpdir(void);

/*
 * For tests of a cancel (cancel.h): a thread body that requests it after
 * *(const int *)ms milliseconds (NULL: 200); the teardown that forgets
 * it, so that a failed test leaves no cancel set; the real monotonic
 * clock in seconds.
 */
void *unit_cancel_soon(void *ms);
int unit_cancel_forget(void **state);
double unit_seconds(void);

#endif
