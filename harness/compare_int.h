/*
 * compare_int.h: what compare.c hands compare_verdict.c, private to them.
 *
 * compare.c decides entries in a second pass, once the correction has seen
 * every p-value of the run; each entry that reached the statistics is
 * queued as a cmp_pending, and cmp_decide() turns it into the verdict of
 * compare.h step 5 under the look's cmp_rules.
 */
#ifndef JG_COMPARE_INT_H
#define JG_COMPARE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

/* An entry that reached the statistics, decided after adjustment. */
struct cmp_pending {
	size_t entry;		/* index in comparison.entries */
	bool level_short;	/* the interval misses its level */
	bool degenerate;	/* every value equal: not in the family */
	double p_worse_raw, p_better_raw;	/* one-sided Mann-Whitney */
	double p_worse, p_better;		/* the same, adjusted */
};

/* What the verdict needs to know about the look. */
struct cmp_rules {
	double alpha;		/* this look's share */
	double alpha_run;	/* all looks' */
	enum stats_adjust how;	/* named in reasons */
	bool last;		/* no more iterations will follow */
	bool sequential;	/* the caller takes more than one look */
};

/*
 * Set e->verdict, e->reason, e->p_value and e->p_adjusted (the direction
 * the shift points to) from `p` under `r`, by the table of compare.h step
 * 5.  The entry's shift, interval and threshold must be set.
 */
void cmp_decide(struct cmp_entry *e, const struct cmp_pending *p,
    const struct cmp_rules *r);

#endif
