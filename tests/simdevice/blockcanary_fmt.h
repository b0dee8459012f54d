/*
 * blockcanary_fmt.h: the looper-*.log files of BlockCanary 1.0 to 1.5
 * (markzhai/AndroidPerformanceMonitor), docs/formats.md §2.
 *
 * BlockCanary logs nothing; each block is one file in its directory, with
 * "\r\n" line ends and "key = value" lines (1.3+ names shown; 1.0-1.2
 * use qualifier, apilevel, cpuCore, processName, timecost, ... and .txt):
 *
 *	(empty line)
 *	**********************
 *	2016-11-02 14:05:33(write log time)
 *	(empty line)
 *	qua = unknown
 *	versionName = 1.0 ... time = 1203, thread-time = 1198,
 *	time-start = 11-02 14:05:32.011, time-end = ..., cpu-busy = false
 *	cpu-rate = 11-02 14:05:32.811 cpu:35% app:12% [user:20% system:12%
 *	    ioWait:0% ]                              (one line)
 *	(more samples, then an empty line)
 *	stack = 11-02 14:05:32.814
 *	(empty line, the frames, an empty line; then the next sample's time)
 *
 * A file exists only when the block outlasts the threshold and one stack
 * sample (at 0.8 x threshold, then every interval) falls inside it.
 */
#ifndef SIM_BLOCKCANARY_FMT_H
#define SIM_BLOCKCANARY_FMT_H

#include <stddef.h>

#include "appmodel.h"

struct strbuf;

struct bcfmt_device {
	const char *qualifier;	/* provideQualifier(), "unknown" */
	const char *version_name;
	long long version_code;
	const char *imei;	/* "empty_imei" on API 29+ */
	const char *uid;	/* provideUid(), "uid" */
	const char *network;	/* provideNetworkType(), "unknown" */
	const char *model;	/* Build.MODEL */
	int sdk;
	const char *release;	/* Build.VERSION.RELEASE */
	int cores;
	const char *process;
	long long free_kb, total_kb;
};

struct bcfmt_block {
	long long start_ms, end_ms;	/* local wall time, ms since epoch */
	long long thread_ms;
	int cpu_busy;
	const char *const *stack;	/* StackTraceElement strings */
	size_t nr_stack;
	int threshold_ms;		/* provideBlockThreshold() */
	int interval_ms;	/* provideDumpInterval(); 0: threshold */
};

/* Would BlockCanary write a file for `b`? */
int bcfmt_writes(const struct bcfmt_block *b);

/*
 * Append the file's contents for library version `version` (10..15 as
 * appmodel_libs.blockcanary), written at local wall time `write_ms`.
 */
void bcfmt_file(struct strbuf *out, int version, const struct bcfmt_device *d,
    const struct bcfmt_block *b, long long write_ms);

/* Append "looper-2016-11-02_14-05-33.214.log" (".txt" before 1.3). */
void bcfmt_file_name(struct strbuf *out, int version, long long write_ms);

/*
 * Append the directory, with its trailing slash: "/storage/emulated/0/
 * blockcanary/" or "/data/user/0/<pkg>/files/blockcanary/".
 */
void bcfmt_dir(struct strbuf *out, enum appmodel_bcdir dir,
    const char *package);

#endif
