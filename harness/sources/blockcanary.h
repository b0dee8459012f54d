/*
 * blockcanary.h: the pure half of the `blockcanary` source.
 *
 * BlockCanary (AndroidPerformanceMonitor) writes one file per block and nothing
 * to logcat (docs/formats.md §2).  blockcanary_log.c parses one such file and
 * turns device wall times into the device clock; blockcanary.c finds, pulls and
 * deletes the files on the device.  This header is what the two files, the unit
 * tests and the fuzz target share; nothing else in jankgate needs it.
 */
#ifndef JG_BLOCKCANARY_H
#define JG_BLOCKCANARY_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"

struct rs_block;
struct source_ctx;

/* Caps that keep a hostile or corrupt file from eating the host. */
#define BC_MAX_SAMPLES 1000
#define BC_MAX_FRAMES 1024	/* per sample */
#define BC_MAX_FRAME_LEN 4096	/* bytes of one frame line */

/* A `MM-dd HH:mm:ss.SSS` device local time; `month` 0 means absent. */
struct bc_stamp {
	int month, day, hour, min, sec, ms;
};

/* One stack sample: its time and StackTraceElement lines, top first. */
struct bc_sample {
	struct bc_stamp at;
	struct strlist frames;
};

/* What one looper log says about its block. */
struct bc_log {
	bool old_keys;		/* the 1.0-1.2 names (timecost, timestart...) */
	double write_ms;	/* "YYYY-MM-DD HH:mm:ss(write log time)" as
				   local wall ms; NAN when absent */
	double wall_ms;		/* `time`; NAN when absent */
	double thread_ms;	/* `thread-time`; NAN when absent */
	int cpu_busy;		/* 1, 0 or RS_UNKNOWN */
	struct bc_stamp start, end;
	struct bc_sample *samples;
	size_t nr_samples, alloc_samples;
	/*
	 * The file was cut (it has no stack section, or it ends inside it:
	 * on a sample time without frames, or inside a frame's line), or a
	 * cap was reached.
	 */
	bool truncated;
	bool capped;		/* a cap was reached */
	struct strlist problems;	/* missing or malformed keys, one each */
};

void bc_log_init(struct bc_log *log);
void bc_log_release(struct bc_log *log);

/*
 * Parse `len` bytes of one looper log (\r\n or \n line ends) into `log`
 * (initialised).  Missing or malformed keys are noted in log->problems
 * and the rest is kept.  Returns 0, or JG_EINVAL when the text holds no
 * BlockCanary key at all (not such a file).
 */
int bc_log_parse(struct bc_log *log, const char *buf, size_t len);

/* Parse exactly `MM-dd HH:mm:ss.SSS` (`len` bytes).  0 or JG_EINVAL. */
int bc_stamp_parse(struct bc_stamp *out, const char *s, size_t len);

/*
 * The stamp as local wall milliseconds since 1970 (local time read as if
 * it were UTC), in the year that puts it nearest to `ref_local_ms` (the
 * files carry no year).  NAN for an absent or impossible stamp.
 */
double bc_stamp_local_ms(const struct bc_stamp *st, double ref_local_ms);

/*
 * Local wall milliseconds of a civil date and time, NAN when the fields
 * are out of range (month 13, 30 February...).
 */
double bc_civil_ms(int year, int month, int day, int hour, int min, int sec,
    int ms);

/*
 * Fill `blk` (source "blockcanary", kind "BLOCK") from `log`: wall and
 * thread time, cpu_busy, the most frequent stack sample (the earliest on
 * a tie), truncated and the signature.  start_mono_ms is the `time-start`
 * stamp minus `local_minus_mono_ms`, resolved near `ref_local_ms` (the
 * file's write time when NAN); NAN when the offset is NAN or the stamp
 * is absent.
 */
void bc_log_to_block(const struct bc_log *log, struct rs_block *blk,
    double local_minus_mono_ms, double ref_local_ms);

/*
 * Parse the `len` bytes of file `name` and add its block to ctx->it: to
 * the scene holding its start (with the configured grace), else to the
 * iteration; not at all when it ended before ctx->it->started_mono_ms
 * (by more than `precision_ms`).  `offset` is local wall - monotonic ms
 * (NAN: unknown, no start time), `ref_local_ms` a local wall time near
 * the block for its year.  Problems become warnings in ctx->results.
 */
void bc_add_file(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name, double offset, double ref_local_ms,
    double precision_ms);

/*
 * 1 when a device file name is one BlockCanary writes and is safe to put
 * in a path: "looper-" + [0-9_.-] + ".log" (1.3+) or ".txt" (1.0-1.2),
 * at most 48 bytes (BlockCanary's are 34), no "..".  Anything else is
 * never touched.
 */
int bc_name_ok(const char *name);

/*
 * The device clocks as one shell command prints them, outside scenes:
 *
 *	2024 11 05 14 00 03 123456789          date '+%Y %m %d %H %M %S %N'
 *	Uptime: 3603120 Realtime: 3603120      dumpsys gfxinfo PKG | grep
 *	2024 11 05 14 00 03 131002417          date again
 *
 * *local_minus_mono_ms gets local wall time minus CLOCK_MONOTONIC at the
 * midpoint of the two dates, *precision_ms half their distance (plus a
 * second when `date` has no %N).  *ref_local_ms gets the midpoint itself.
 * Returns 0, JG_ENOTFOUND without an Uptime line (the app is not
 * running), or JG_EINVAL when the dates are missing.
 */
int bc_clock_parse(const char *out, size_t len, double *local_minus_mono_ms,
    double *precision_ms, double *ref_local_ms);

/*
 * Which of two readings of the clocks to convert with: the previous
 * (*off, *prec; NAN when none) or the new one (new_off, new_prec).  The
 * offset does not move unless the wall clock is set, so the tighter
 * reading wins; a new reading that disagrees with the kept one by more
 * than both precisions together means the clock was set (NTP) and
 * replaces it whatever its precision.  A busy phone (or host) stretches
 * the dumpsys between the two dates; the run keeps its best bracket.
 */
void bc_clock_keep(double *off, double *prec, double new_off,
    double new_prec);

/* The shell command whose output bc_clock_parse() reads, for `package`. */
char *bc_clock_command(const char *package);

#endif
