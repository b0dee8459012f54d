/*
 * blockcanary_fmt.c: writing BlockCanary's block files.
 *
 * The samplers' numbers (CPU rates) are not in the app model: they are
 * derived from the block's own times so the output stays deterministic
 * and plausible (a busy CPU while the main thread burns, an idle one
 * while it waits).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "blockcanary_fmt.h"
#include "strbuf.h"
#include "banned.h"

#define EOL	"\r\n"

/* The 1.3+ key names, then the 1.0-1.2 ones, in flushString() order. */
enum key {
	K_QUA, K_VNAME, K_VCODE, K_IMEI, K_UID, K_NETWORK, K_MODEL, K_API,
	K_CORES, K_PROCESS, K_FREE, K_TOTAL, K_TIME, K_THREAD_TIME, K_START,
	K_END, K_BUSY, K_CPU_RATE, K_STACK, NR_KEYS
};

static const char *const keys_new[NR_KEYS] = {
	"qua", "versionName", "versionCode", "imei", "uid", "network",
	"model", "api-level", "cpu-core", "process", "freeMemory",
	"totalMemory", "time", "thread-time", "time-start", "time-end",
	"cpu-busy", "cpu-rate", "stack"
};

static const char *const keys_old[NR_KEYS] = {
	"qualifier", "versionName", "versionCode", "imei", "uid", "network",
	"model", "apilevel", "cpuCore", "processName", "freeMemory",
	"totalMemory", "timecost", "threadtimecost", "timestart", "timeend",
	"cpubusy", "cpurate", "stack"
};

enum stamp {
	STAMP_SAMPLE,	/* 11-02 14:05:32.811 */
	STAMP_WRITE,	/* 2016-11-02 14:05:33 */
	STAMP_NAME,	/* 2016-11-02_14-05-33.214 */
};

/* Format local wall time `ms` (already shifted to the device's zone). */
static void
stamp(struct strbuf *out, enum stamp kind, long long ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char buf[64];

	gmtime_r(&t, &tm);
	switch (kind) {
	case STAMP_SAMPLE:
		strftime(buf, sizeof(buf), "%m-%d %H:%M:%S", &tm);
		break;
	case STAMP_WRITE:
		strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
		break;
	case STAMP_NAME:
		strftime(buf, sizeof(buf), "%Y-%m-%d_%H-%M-%S", &tm);
		break;
	}
	strbuf_addstr(out, buf);
	if (kind != STAMP_WRITE)
		strbuf_addf(out, ".%03lld", ms % 1000);
}

static long long
interval(const struct bcfmt_block *b)
{
	return b->interval_ms > 0 ? b->interval_ms : b->threshold_ms;
}

/* The time of the first CPU sample; the stack sampler runs 3 ms later. */
static long long
first_sample(const struct bcfmt_block *b)
{
	return b->start_ms + b->threshold_ms * 8 / 10;
}

int
bcfmt_writes(const struct bcfmt_block *b)
{
	return b->end_ms - b->start_ms > b->threshold_ms &&
	    first_sample(b) + 3 < b->end_ms;
}

/* One "key = value\r\n" line. */
static void __attribute__((format(printf, 4, 5)))
kv(struct strbuf *out, const char *const *keys, enum key k,
    const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(out, "%s = ", keys[k]);
	va_start(ap, fmt);
	strbuf_vaddf(out, fmt, ap);
	va_end(ap);
	strbuf_addstr(out, EOL);
}

static void
cpu_rates(struct strbuf *out, const struct bcfmt_block *b)
{
	long long t;
	int i = 0;

	for (t = first_sample(b); t < b->end_ms && i < 10; t += interval(b)) {
		int cpu = b->cpu_busy ? 85 + i % 10 : 30 + (i * 7) % 15;
		int app = cpu / 3 + i % 3;

		if (i++)
			strbuf_addstr(out, EOL);
		stamp(out, STAMP_SAMPLE, t);
		strbuf_addf(out, " cpu:%d%% app:%d%% [user:%d%% system:%d%% "
		    "ioWait:%d%% ]", cpu, app, cpu * 6 / 10, cpu * 3 / 10,
		    i % 2);
	}
	strbuf_addstr(out, EOL EOL);
}

static void
stacks(struct strbuf *out, const struct bcfmt_block *b)
{
	long long t;
	size_t k;

	for (t = first_sample(b) + 3; t < b->end_ms; t += interval(b)) {
		stamp(out, STAMP_SAMPLE, t);
		strbuf_addstr(out, EOL EOL);
		for (k = 0; k < b->nr_stack; k++)
			strbuf_addf(out, "%s" EOL, b->stack[k]);
		strbuf_addstr(out, EOL);
	}
	strbuf_addstr(out, EOL EOL);
}

void
bcfmt_file(struct strbuf *out, int version, const struct bcfmt_device *d,
    const struct bcfmt_block *b, long long write_ms)
{
	const char *const *k = version >= 13 ? keys_new : keys_old;

	strbuf_addstr(out, EOL "**********************" EOL);
	stamp(out, STAMP_WRITE, write_ms);
	strbuf_addstr(out, "(write log time)" EOL EOL);
	kv(out, k, K_QUA, "%s", d->qualifier);
	kv(out, k, K_VNAME, "%s", d->version_name);
	kv(out, k, K_VCODE, "%lld", d->version_code);
	kv(out, k, K_IMEI, "%s", d->imei);
	kv(out, k, K_UID, "%s", d->uid);
	kv(out, k, K_NETWORK, "%s", d->network);
	kv(out, k, K_MODEL, "%s", d->model);
	kv(out, k, K_API, "%d %s", d->sdk, d->release);
	kv(out, k, K_CORES, "%d", d->cores);
	kv(out, k, K_PROCESS, "%s", d->process);
	kv(out, k, K_FREE, "%lld", d->free_kb);
	kv(out, k, K_TOTAL, "%lld", d->total_kb);
	kv(out, k, K_TIME, "%lld", b->end_ms - b->start_ms);
	kv(out, k, K_THREAD_TIME, "%lld", b->thread_ms);
	strbuf_addf(out, "%s = ", k[K_START]);
	stamp(out, STAMP_SAMPLE, b->start_ms);
	strbuf_addf(out, EOL "%s = ", k[K_END]);
	stamp(out, STAMP_SAMPLE, b->end_ms);
	strbuf_addstr(out, EOL);
	kv(out, k, K_BUSY, "%s", b->cpu_busy ? "true" : "false");
	strbuf_addf(out, "%s = ", k[K_CPU_RATE]);
	cpu_rates(out, b);
	strbuf_addf(out, "%s = ", k[K_STACK]);
	stacks(out, b);
}
void
bcfmt_file_name(struct strbuf *out, int version, long long write_ms)
{
	strbuf_addstr(out, "looper-");
	stamp(out, STAMP_NAME, write_ms);
	strbuf_addstr(out, version >= 13 ? ".log" : ".txt");
}

void
bcfmt_dir(struct strbuf *out, enum appmodel_bcdir dir, const char *package)
{
	if (dir == APPMODEL_BC_EXTERNAL)
		strbuf_addstr(out, "/storage/emulated/0/blockcanary/");
	else
		strbuf_addf(out, "/data/user/0/%s/files/blockcanary/", package);
}
