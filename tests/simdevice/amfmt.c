/*
 * amfmt.c: laying out `am start -W` results per API level.
 *
 * Up to API 28 the command is Am.java / ActivityManagerShellCommand with
 * ThisTime; from 29 WaitResult carries a launch state and ThisTime is
 * gone.  Both print "Activity:" only when the result names a component.
 */
#include "amfmt.h"
#include "appmodel.h"
#include "strbuf.h"
#include "banned.h"

void
amfmt_launch_state(struct strbuf *out, int sdk, int state)
{
	switch (state) {
	case AMFMT_COLD:
		strbuf_addstr(out, "COLD");
		return;
	case AMFMT_WARM:
		strbuf_addstr(out, "WARM");
		return;
	case AMFMT_HOT:
		strbuf_addstr(out, "HOT");
		return;
	case AMFMT_RELAUNCH:
		if (sdk >= 31) {
			strbuf_addstr(out, "RELAUNCH");
			return;
		}
		break;
	}
	strbuf_addf(out, "UNKNOWN (%d)", state);
}

static void
starting_line(struct strbuf *out, const char *package, const char *activity)
{
	strbuf_addstr(out, "Starting: Intent { cmp=");
	appmodel_short_component(out, package, activity);
	strbuf_addstr(out, " }\n");
}

void
amfmt_start(struct strbuf *out, int sdk, const struct amfmt_start *s)
{
	if (s->stop_first)
		strbuf_addf(out, "Stopping: %s\n", s->package);
	starting_line(out, s->package, s->activity);
	if (s->warning == AMFMT_DELIVERED_TO_TOP)
		strbuf_addstr(out, "Warning: Activity not started, intent has "
		    "been delivered to currently running top-most instance.\n");
	else if (s->warning == AMFMT_BROUGHT_TO_FRONT)
		strbuf_addstr(out, "Warning: Activity not started, its current "
		    "task has been brought to the front\n");
	strbuf_addf(out, "Status: %s\n", s->timeout ? "timeout" : "ok");
	if (sdk >= 29) {
		strbuf_addstr(out, "LaunchState: ");
		amfmt_launch_state(out, sdk, s->state);
		strbuf_addch(out, '\n');
	}
	if (s->has_activity) {
		strbuf_addstr(out, "Activity: ");
		appmodel_short_component(out, s->package, s->activity);
		strbuf_addch(out, '\n');
	}
	if (sdk <= 28 && s->this_ms >= 0)
		strbuf_addf(out, "ThisTime: %lld\n", s->this_ms);
	if (s->total_ms >= 0)
		strbuf_addf(out, "TotalTime: %lld\n", s->total_ms);
	strbuf_addf(out, "WaitTime: %lld\nComplete\n", s->wait_ms);
}

void
amfmt_no_activity(struct strbuf *out, const char *package,
    const char *activity)
{
	starting_line(out, package, activity);
	strbuf_addf(out, "Error type 3\nError: Activity class {%s/%s} does "
	    "not exist.\n", package, activity);
}
