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

/* hwui's last HISTOGRAM bucket: a whole line always ends with it. */
#define GFX_HIST_LAST_MS 4950

/*
 * How a HISTOGRAM line was written, beyond its buckets: hwui prints every
 * bucket from 5ms to 4950ms, zeros included, so a line that stops before
 * 4950ms was cut, and a "..." (or "…") in it stands for buckets left out
 * by whoever pasted it.  The last bucket of a cut line may have lost
 * digits ("12ms=23" cut to "12ms=2"): it is the tail, kept in the buckets
 * and named here so that a reader can leave it out.
 */
struct gfx_hist_shape {
	bool elided;		/* a "..." in the line */
	uint32_t elided_lo;	/* the bucket before the first "...", 0 */
	uint32_t elided_hi;	/* the one after the last, UINT32_MAX */
	bool whole_end;		/* it ends in a whole 4950ms bucket */
	bool broken_end;	/* it ends in a "..." or an unreadable token */
	uint32_t cut_after;	/* the last bucket surely whole, 0: none */
	bool tail_suspect;	/* it ends in another bucket: maybe cut */
	uint32_t tail_ms;
	uint64_t tail_count;
};

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
	struct gfx_hist_shape hist;	/* when has_histogram */
	struct strlist causes;		/* "missed_vsync"..., in order */
	uint64_t *cause_counts;		/* parallel to causes */
	size_t alloc_cause_counts;
};

/* A ViewRootImpl section: its title and, from API 26 or so, its summary. */
struct gfx_window {
	char *title;		/* "pkg/pkg.MainActivity", as printed */
	bool named;		/* by a "Window:" line */
	int visibility;		/* VISIBLE 0, INVISIBLE 4, GONE 8; -1 */
	struct gfx_summary sum;
	size_t nr_rows;		/* PROFILEDATA rows printed, any Flags */
};

struct gfx_dump {
	double uptime_ms;	/* the `Uptime:` line, NAN when absent */
	char *no_process;	/* "No process found for: X", or NULL */
	char *failure;		/* "Failure while dumping the app: ..." */
	bool header;		/* "Applications Graphics Acceleration Info" */
	size_t nr_processes;	/* "** Graphics info for pid" sections */
	bool app_missing;	/* several sections, none the package's */
	char *process;		/* the process name read, or NULL */
	int pid;
	struct gfx_summary sum;	/* the process-wide summary */
	struct gfx_window *windows;
	size_t nr_windows, alloc_windows;
	/* PROFILEDATA rows with a sane duration, dump order, any Flags. */
	struct rs_frame_row *rows;
	size_t nr_rows, alloc_rows;
	size_t flagged_rows;	/* ... of which with non-zero Flags */
	size_t insane_rows;	/* no FrameCompleted, 10 s or more... */
	size_t bad_rows;	/* cut or unreadable */
	size_t bad_headers;	/* blocks lacking a column read */
	size_t bad_values;	/* summary numbers, histogram entries */
	double interval_ns;	/* PROFILEDATA's vsync period, or NAN */
	/* The text of the section read, in the parsed buffer (framestats.h). */
	const char *section;
	size_t section_len;
};

void gfx_dump_init(struct gfx_dump *d);
void gfx_dump_release(struct gfx_dump *d);

/*
 * Read `len` bytes of dump into `d` (initialised).  The section read is
 * the process named `package` (else the first "package:..." one) when
 * one is given; else, or when the dump has only one section, the first.
 * A dump of several processes none of which is the package's reads none
 * (d->app_missing).  Text without any section header (a pasted `Window:`
 * section, summary or PROFILEDATA) is read as one unnamed section.
 * Never fails: what cannot be read is counted in the bad_* fields.
 */
void gfx_dump_parse(struct gfx_dump *d, const char *buf, size_t len,
    const char *package);

/* The same for the section at index `nth` (0-based) of the dump. */
void gfx_dump_parse_nth(struct gfx_dump *d, const char *buf, size_t len,
    size_t nth);

/* Whether the section read has frame statistics or rows. */
bool gfx_dump_has_frames(const struct gfx_dump *d);

/* The count of cause `name` in `s`; 0 when absent. */
uint64_t gfx_summary_cause(const struct gfx_summary *s, const char *name);

/*
 * The `Uptime: <ms> Realtime: <ms>` line of a `dumpsys gfxinfo` dump of
 * `len` bytes: *mono_ms gets the uptime (CLOCK_MONOTONIC milliseconds).
 * Returns 0, or JG_ENOTFOUND when the dump has no such line (a "No process
 * found for: PKG" answer, for example).
 */
int gfxinfo_uptime(const char *buf, size_t len, double *mono_ms);

/*
 * The same line's Realtime (elapsedRealtime: CLOCK_BOOTTIME ms, ahead of
 * the uptime by the time the phone slept) into *boot_ms.  Returns 0, or
 * JG_ENOTFOUND when there is no such line or it has no Realtime.
 */
int gfxinfo_realtime(const char *buf, size_t len, double *boot_ms);

/*
 * The pids of the dump's sections of process `package` or "package:...",
 * appended to pids[*nr] (at most `max` in all, each once): the runner
 * learns the app's processes from the dumps it takes at scene edges.
 */
void gfxinfo_app_pids(const char *buf, size_t len, const char *package,
    int *pids, size_t *nr, size_t max);

#endif
