/*
 * retain.h: baseline.retain, which runs the baseline store keeps.
 *
 * A rule is an age under which every run stays, then tiers that keep one
 * run per period of each device key, each up to an age of its own:
 *
 *	RULE   = AGE *( "," TIER )
 *	TIER   = ( "daily" / "weekly" / "monthly" ) [ ":" AGE ]
 *	AGE    = 1*DIGIT ( "d" / "w" / "y" )	; days, weeks, 365 days
 *
 *	"90d"                      every run of the last 90 days; none older
 *	"90d,weekly"               then one a week, for ever
 *	"30d,daily:90d,weekly:2y"  every run 30 days, one a day to 90 days,
 *	                           one a week to two years, none older
 *
 * A tier covers the runs older than the age before it and younger than
 * its own (without one: all older runs; only the last tier may omit it).
 * Of a key's runs in a tier, the newest of each period stays: days are
 * UTC days, weeks start on Monday 00:00 UTC, months are UTC calendar
 * months.  Pinned runs (tagged, accepted: the caller decides) always stay
 * and take no period's place.
 */
#ifndef JG_RETAIN_H
#define JG_RETAIN_H

#include <stddef.h>

struct strbuf;

#define RETAIN_TIERS_MAX 8

enum retain_period { RETAIN_DAY, RETAIN_WEEK, RETAIN_MONTH };

struct retain_rule {
	long long all_s;		/* every run younger than this stays */
	size_t nr;			/* tiers */
	struct retain_tier {
		enum retain_period period;
		long long until_s;	/* 0: no limit (the last tier only) */
	} tier[RETAIN_TIERS_MAX];
};

/*
 * Parse `s` (the syntax above) into *out.  Returns 0, or JG_EINVAL with a
 * message saying what was expected where.
 */
int retain_parse(struct retain_rule *out, const char *s);

/* The same, with what is wrong appended to `why`: 0 or -1. */
int retain_check(struct retain_rule *out, const char *s, struct strbuf *why);

/*
 * Decide which of one key's `n` runs stay, at time `now`: times[i] is
 * run i's time (seconds since 1970), newest first; pinned[i] (NULL: none
 * pinned) keeps run i whatever its age.  keep[i] is set to 1 or 0.
 */
void retain_select(int *keep, const struct retain_rule *r, long long now,
    const long long *times, const int *pinned, size_t n);

#endif
