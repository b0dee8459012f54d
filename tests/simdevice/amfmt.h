/*
 * amfmt.h: what `am start -W [-S] -n <pkg>/<activity>` prints.
 *
 * docs/formats.md §3.2.  One println per line, by API level:
 *
 *	Stopping: com.example                          <- with -S
 *	Starting: Intent { cmp=com.example/.MainActivity }
 *	Warning: Activity not started, ...              <- when it applies
 *	Status: ok                                      (or "timeout")
 *	LaunchState: COLD                               <- API 29+
 *	Activity: com.example/.MainActivity
 *	ThisTime: 412                                   <- API <= 28
 *	TotalTime: 412
 *	WaitTime: 431
 *	Complete
 *
 * The caller decides what happened (a framegen_launch, or nothing for a
 * task brought to front); this module only lays it out.
 */
#ifndef SIM_AMFMT_H
#define SIM_AMFMT_H

struct strbuf;

enum amfmt_state {
	AMFMT_COLD = 1,		/* WaitResult.LAUNCH_STATE_* values */
	AMFMT_WARM = 2,
	AMFMT_HOT = 3,
	AMFMT_RELAUNCH = 4,	/* named on API 31+ only */
};

enum amfmt_warning {
	AMFMT_NO_WARNING,
	AMFMT_DELIVERED_TO_TOP,	/* intent delivered to the running top */
	AMFMT_BROUGHT_TO_FRONT,	/* its task brought to the front */
};

struct amfmt_start {
	const char *package;
	const char *activity;	/* full class name */
	int stop_first;		/* -S */
	int timeout;		/* "Status: timeout" */
	enum amfmt_warning warning;
	int state;		/* enum amfmt_state, or another number */
	int has_activity;	/* print "Activity:" (result.who != null) */
	long long this_ms;	/* < 0: not printed */
	long long total_ms;	/* < 0: not printed */
	long long wait_ms;
};

/* Append the whole output of one `am start -W` for API `sdk`. */
void amfmt_start(struct strbuf *out, int sdk, const struct amfmt_start *s);

/*
 * Append what `am start` prints for a component that does not exist:
 * the Starting line, then "Error type 3" and the Error line.
 */
void amfmt_no_activity(struct strbuf *out, const char *package,
    const char *activity);

/* Append WaitResult.launchStateToString(state) for API `sdk`. */
void amfmt_launch_state(struct strbuf *out, int sdk, int state);

#endif
