/*
 * test_logpid.c: which processes of a log are the app's, from each kind
 * of evidence a log holds (logpid.h).
 */
#include <string.h>

#include "unit.h"
#include "logcat.h"
#include "logpid.h"

struct owner_case {
	const char *what;
	const char *log;	/* the evidence, then the line judged last */
	const char *package;
	enum logpid_owner want;
	const char *how;	/* how the app's pid was learned, or NULL */
};

/* Whose is the last line of `log`, for `package`. */
static enum logpid_owner
owner_of_last(const char *log, const char *package, const int *given,
    size_t nr_given, const char **how)
{
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	struct logpid *p = logpid_new(package, given, nr_given);
	enum logpid_owner o;
	size_t nr;

	logcat_buf_parse_text(b, log, strlen(log));
	lines = logcat_buf_lines(b, &nr);
	assert_true(nr > 0);
	logpid_scan(p, lines, nr);
	o = logpid_owner(p, &lines[nr - 1]);
	logpid_app(p, NULL, how);
	logpid_free(p);
	logcat_buf_free(b);
	return o;
}

#define TT(pid, tag, msg) "10-19 16:40:50.663 " pid " " pid " I " tag ": " \
	msg "\n"
#define SKIP(pid) TT(pid, "Choreographer", "Skipped 31 frames!")

/* One body, every kind of evidence, and what it says of a line. */
static void
each_evidence(void **state)
{
	static const struct owner_case cases[] = {
		{ "Start proc", TT("901", "ActivityManager", "Start proc "
		  "3920:com.x/u0a100 for activity {com.x/.A}") SKIP("3920"),
		  "com.x", LOGPID_APP, "a 'Start proc' line" },
		{ "Start proc of a :remote process", TT("901",
		  "ActivityManager", "Start proc 3921:com.x:remote/u0a100 for "
		  "service {com.x/.S}") SKIP("3921"), "com.x", LOGPID_APP,
		  "a 'Start proc' line" },
		{ "Start proc of another package", TT("901",
		  "ActivityManager", "Start proc 3922:com.xy/u0a101 for "
		  "activity {com.xy/.A}") SKIP("3922"), "com.x", LOGPID_OTHER,
		  NULL },
		{ "the activity manager's own pid", TT("901",
		  "ActivityTaskManager", "START u0 {cmp=com.x/.A} from uid "
		  "2000") SKIP("901"), "com.x", LOGPID_OTHER, NULL },
		{ "a Killing line", TT("901", "ActivityManager", "Killing "
		  "3920:com.x/u0a100 (adj 900): remove task") SKIP("3920"),
		  "com.x", LOGPID_APP, "a 'Killing' line" },
		{ "a died line", TT("901", "ActivityManager", "Process com.x "
		  "(pid 3920) has died: fg  TOP") SKIP("3920"), "com.x",
		  LOGPID_APP, "a 'Process ... has died' line" },
		{ "a died line of another app", TT("901", "ActivityManager",
		  "Process com.y (pid 3920) has died") SKIP("3920"), "com.x",
		  LOGPID_OTHER, NULL },
		{ "a crash report", TT("3920", "AndroidRuntime", "Process: "
		  "com.x, PID: 3920") SKIP("3920"), "com.x", LOGPID_APP,
		  "a crash report's 'Process:' line" },
		{ "am_proc_start", TT("901", "am_proc_start", "[0,3920,10100,"
		  "com.x,activity,{com.x/.A}]") SKIP("3920"), "com.x",
		  LOGPID_APP, "an am_proc_start event" },
		{ "ART's process-name tag", TT("3920", "com.x",
		  "Background GC freed 1MB") SKIP("3920"), "com.x",
		  LOGPID_APP, "lines tagged with its process name" },
		{ "ART's tag: the last 15 bytes of a long name",
		  TT("20641", ".a1taxicustomer", "GC") SKIP("20641"),
		  "com.a1taxi.a1taxicustomer", LOGPID_APP,
		  "lines tagged with its process name" },
		{ "Studio's package column", "2023-06-13 14:07:07.443 "
		  "3920-3920  Choreographer  com.x  I  Skipped 31 frames!\n",
		  "com.x", LOGPID_APP, "Studio's package column" },
		{ "Studio's column, another app", "2023-06-13 14:07:07.443 "
		  "3920-3920  Choreographer  com.y  I  Skipped 31 frames!\n",
		  "com.x", LOGPID_OTHER, NULL },
		{ "Studio's PROCESS STARTED line", "------ PROCESS STARTED "
		  "(3920) for package com.x ------\n" SKIP("3920"), "com.x",
		  LOGPID_APP, "a Studio 'PROCESS STARTED' line" },
		{ "nothing known", SKIP("3920"), "com.x", LOGPID_UNKNOWN,
		  NULL },
		{ "a line tagged with the whole package name", TT("3920",
		  "com.example.shopping.app", "loaded") SKIP("3920"),
		  "com.example.shopping.app", LOGPID_APP,
		  "lines tagged with its package name" },
		{ "the Displayed activity's ViewRootImpl lines", TT("901",
		  "ActivityTaskManager", "Displayed com.x/.ui.Main: +710ms")
		  TT("1500", "ViewRootImpl[Launcher]", "stopped") TT("3920",
		  "ViewRootImpl@5c1d2e[Main]", "VRI relayout") SKIP("1500")
		  SKIP("3920"), "com.x", LOGPID_APP, "the ViewRootImpl lines "
		  "of the activity a Displayed line names" },
		{ "... and not another activity's", TT("901",
		  "ActivityTaskManager", "Displayed com.x/.ui.Main: +710ms")
		  TT("1500", "ViewRootImpl[Launcher]", "stopped")
		  SKIP("1500"), "com.x", LOGPID_UNKNOWN, NULL },
		{ "no app given", TT("901", "ActivityManager", "Start proc "
		  "3920:com.x/u0a100 for activity {com.x/.A}") SKIP("3920"),
		  NULL, LOGPID_UNKNOWN, NULL },
		{ "a line without a pid", TT("901", "ActivityManager",
		  "Start proc 3920:com.x/u0a100 for x") "Skipped 31 frames!\n",
		  "com.x", LOGPID_UNKNOWN, "a 'Start proc' line" },
		{ "another pid once the app's is known", TT("901",
		  "ActivityManager", "Start proc 3920:com.x/u0a100 for x")
		  SKIP("2100"), "com.x", LOGPID_NOT_APP,
		  "a 'Start proc' line" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct owner_case *c = &cases[i];
		const char *how = NULL;
		enum logpid_owner o = owner_of_last(c->log, c->package, NULL,
		    0, &how);

		if (o != c->want)
			fail_msg("%s: owner %d, expected %d", c->what, o,
			    c->want);
		if (!c->how != !how || (how && strcmp(how, c->how)))
			fail_msg("%s: learned from '%s'", c->what,
			    how ? how : "(nothing)");
	}
}

/* Pids given from outside (pidof, --pid) are the app's; names are kept. */
static void
given_pids_and_names(void **state)
{
	static const int given[] = { 20641 };
	static const char log[] = SKIP("20641") SKIP("16032")
	    TT("901", "ActivityManager", "Start proc 16032:com.other/u0a9 "
	    "for x");
	struct logcat_buf *b = logcat_buf_new();
	const struct logcat_line *lines;
	struct logpid *p = logpid_new(NULL, given, 1);
	const char *how;
	const int *pids;
	size_t nr;

	(void)state;
	logcat_buf_parse_text(b, log, strlen(log));
	lines = logcat_buf_lines(b, &nr);
	logpid_scan(p, lines, nr);
	assert_int_equal(logpid_owner(p, &lines[0]), LOGPID_APP);
	assert_int_equal(logpid_owner(p, &lines[1]), LOGPID_NOT_APP);
	assert_int_equal(logpid_app(p, &pids, &how), 1);
	assert_int_equal(pids[0], 20641);
	assert_string_equal(how, "given");
	assert_string_equal(logpid_name(p, 16032), "com.other");
	assert_null(logpid_name(p, 20641));
	logpid_free(p);
	logpid_free(NULL);
	logcat_buf_free(b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(each_evidence),
	cmocka_unit_test(given_pids_and_names),
};

JG_UNIT_GROUP(logpid, tests, NULL, NULL)
