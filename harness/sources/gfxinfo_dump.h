/*
 * gfxinfo_dump.h: a `dumpsys gfxinfo PKG framestats` dump, read but not yet
 * judged (private to the gfxinfo source).
 *
 * gfxinfo_dump.c turns the text into this record, line by line, keeping
 * whatever it could read; gfxinfo.c decides what the scene's numbers are.
 * Keeping the two apart lets the tests check the reading of every API
 * level's layout separately from the rules that derive metrics.
 */
#ifndef JG_GFXINFO_DUMP_H
#define JG_GFXINFO_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "strlist.h"

/* Percentile lines of a summary, in this order. */
enum { GFX_P50, GFX_P90, GFX_P95, GFX_P99, GFX_NR_PCT };

/*
 * One summary block (the process's, or one window's).  Numbers are NAN
 * when their line is absent; a line that repeats replaces the earlier one.
 */
struct gfx_summary {
	bool seen;			/* at least one summary line */
	double stats_since_ns;
	double total;			/* Total frames rendered */
	double janky;			/* Janky frames */
	double janky_legacy;		/* Janky frames (legacy), 31+ */
	double pct_ms[GFX_NR_PCT];
	bool has_histogram;		/* a HISTOGRAM line, maybe all 0 */
	struct rs_bucket *buckets;	/* ascending, unique, no zeros */
	size_t nr_buckets, alloc_buckets;
	struct strlist causes;		/* "missed_vsync"..., in order */
	uint64_t *cause_counts;		/* parallel to causes */
	size_t alloc_cause_counts;
};

/* A ViewRootImpl section: its title and, from API 26 or so, its summary. */
struct gfx_window {
	char *title;		/* "pkg/pkg.MainActivity", as printed */
	bool named;		/* by a "Window:" line */
	struct gfx_summary sum;
	size_t nr_rows;		/* PROFILEDATA rows printed, any Flags */
};

struct gfx_dump {
	double uptime_ms;	/* the `Uptime:` line, NAN when absent */
	char *no_process;	/* "No process found for: X", or NULL */
	size_t nr_processes;	/* "** Graphics info for pid" sections */
	char *process;		/* the process name read, or NULL */
	int pid;
	struct gfx_summary sum;	/* the process-wide summary */
	struct gfx_window *windows;
	size_t nr_windows, alloc_windows;
	/* PROFILEDATA rows with Flags 0 and a sane duration, dump order. */
	struct rs_frame_row *rows;
	size_t nr_rows, alloc_rows;
	size_t flagged_rows;	/* skipped for non-zero Flags */
	size_t insane_rows;	/* no FrameCompleted, 10 s or more... */
	size_t bad_rows;	/* cut or unreadable */
	size_t bad_headers;	/* blocks lacking a column read */
	size_t bad_values;	/* summary numbers, histogram entries */
	double interval_ns;	/* PROFILEDATA's vsync period, or NAN */
};

void gfx_dump_init(struct gfx_dump *d);
void gfx_dump_release(struct gfx_dump *d);

/*
 * Read `len` bytes of dump into `d` (initialised).  The section read is
 * the process named `package` when one is, else the first one.  Never
 * fails: what cannot be read is counted in the bad_* fields.
 */
void gfx_dump_parse(struct gfx_dump *d, const char *buf, size_t len,
    const char *package);

/* The count of cause `name` in `s`; 0 when absent. */
uint64_t gfx_summary_cause(const struct gfx_summary *s, const char *name);

#endif
