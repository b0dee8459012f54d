/*
 * gfxinfo_int.h: what gfxinfo_dump.c (the dump's sections and windows)
 * shares with gfxinfo_lines.c (the lines inside them: summary numbers,
 * causes, the histogram, PROFILEDATA).  Private to the two.
 */
#ifndef JG_GFXINFO_INT_H
#define JG_GFXINFO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gfx_dump;
struct gfx_summary;
struct gfx_window;
struct text_line;

#define GFX_PROFILE_MARK "---PROFILEDATA---"

/* The PROFILEDATA columns read; the rest are skipped by name. */
enum gfx_col {
	GFX_COL_FLAGS, GFX_COL_INTENDED, GFX_COL_COMPLETED, GFX_COL_INTERVAL,
	GFX_COL_START, GFX_NR_COLS
};

/* Where a PROFILEDATA block stands, and its columns. */
struct gfx_profile {
	bool open;		/* between the two marks */
	bool have_header;
	long col[GFX_NR_COLS];	/* index of each column, -1 when absent */
	size_t nr_cols;
};

/* 1 when line `l` starts with `prefix`. */
bool gfx_line_starts(const struct text_line *l, const char *prefix);

/*
 * The decimal number at s[*i] (n bytes in all), at most `max`: true with
 * *out set and *i past it, else false.
 */
bool gfx_read_uint(const char *s, size_t n, size_t *i, uint64_t max,
    uint64_t *out);

/*
 * Read `l` into summary `s` when it is a summary line (Stats since, Total
 * frames, Janky frames, a percentile, a cause, HISTOGRAM): true when it
 * was one.  Bad numbers are counted in d->bad_values.
 */
bool gfx_read_summary_line(struct gfx_dump *d, struct gfx_summary *s,
    const struct text_line *l);

/* The PROFILEDATA header line: which column is which. */
void gfx_read_profile_header(struct gfx_profile *p,
    const struct text_line *l);

/* The header names the columns a row needs. */
bool gfx_profile_usable(const struct gfx_profile *p);

/*
 * One PROFILEDATA row into d->rows (and counted in window `w`, NULL
 * outside windows); a cut or insane row is counted, not kept.
 */
void gfx_read_profile_row(struct gfx_dump *d, const struct gfx_profile *p,
    const struct text_line *l, struct gfx_window *w);

#endif
