/*
 * cmd_perfetto.c: `perfetto` (API 28+) and `kill`, as far as a trace of
 * one iteration needs them.
 *
 *   perfetto [--background|-d] [--txt] -c FILE|- -o OUT
 *       reads the config (stdin for "-"), which must name a data
 *       source; in the background prints the session's pid and returns
 *       at once, the trace written when it is stopped; in the foreground
 *       writes the trace and exits
 *   kill [-SIG] PID...
 *       -0: 0 when PID runs (perfetto's session or an app), 1 "No such
 *       process" otherwise; any other signal stops perfetto's session,
 *       which writes its trace, and is refused for apps (a shell user
 *       may not signal them)
 *
 * The trace is small and valid: a Perfetto Trace protobuf (repeated
 * TracePacket packet = 1) of two packets, the first with the process tree
 * (TracePacket.process_tree = 2: ProcessTree.processes = 1 of Process
 * { pid = 1, ppid = 2, cmdline = 3 }) of every running app at the start,
 * timestamp = 8 and trusted_packet_sequence_id = 10, the second the
 * stop's timestamp.  ui.perfetto.dev opens it and lists the processes.
 * Below API 28 the command does not exist.
 */
#include <stdlib.h>
#include <string.h>

#include "apprun.h"
#include "appmodel.h"
#include "commands.h"
#include "simapps.h"
#include "simdev.h"
#include "simfs.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define MIN_SDK 28

static void
varint(struct strbuf *sb, unsigned long long v)
{
	do {
		unsigned char b = v & 0x7f;

		v >>= 7;
		strbuf_addch(sb, v ? b | 0x80 : b);
	} while (v);
}

static void
field_varint(struct strbuf *sb, int field, unsigned long long v)
{
	varint(sb, (unsigned long long)field << 3);
	varint(sb, v);
}

static void
field_bytes(struct strbuf *sb, int field, const void *data, size_t len)
{
	varint(sb, ((unsigned long long)field << 3) | 2);
	varint(sb, len);
	strbuf_add(sb, data, len);
}

/* The trace of a session from `start_ns` to `stop_ns` (locked). */
static void
make_trace(struct simdev *dev, struct strbuf *out, long long start_ns,
    long long stop_ns)
{
	struct strbuf pkt = STRBUF_INIT, tree = STRBUF_INIT;

	for (size_t i = 0; i < simapps_count(dev->apps); i++) {
		struct apprun *r = simapps_at(dev->apps, i);
		struct strbuf proc = STRBUF_INIT;
		const char *name = apprun_model(r)->process;

		if (!apprun_pid(r))
			continue;
		field_varint(&proc, 1, (unsigned long long)apprun_pid(r));
		field_varint(&proc, 2, (unsigned long long)
		    simapps_system_pid(dev->apps));
		field_bytes(&proc, 3, name, strlen(name));
		field_bytes(&tree, 1, proc.buf, proc.len);
		strbuf_release(&proc);
	}
	field_bytes(&pkt, 2, tree.buf, tree.len);
	field_varint(&pkt, 8, (unsigned long long)start_ns);
	field_varint(&pkt, 10, 1);
	field_bytes(out, 1, pkt.buf, pkt.len);
	strbuf_reset(&pkt);
	field_varint(&pkt, 8, (unsigned long long)stop_ns);
	field_varint(&pkt, 10, 1);
	field_bytes(out, 1, pkt.buf, pkt.len);
	strbuf_release(&pkt);
	strbuf_release(&tree);
}

static int
write_trace(struct simdev *dev, const char *path, long long start_ns)
{
	struct strbuf t = STRBUF_INIT;
	int err;

	make_trace(dev, &t, start_ns, simdev_now_ns(dev));
	err = simfs_write(dev->fs, path, t.buf, t.len, 0, 0644);
	strbuf_release(&t);
	return err;
}

int
cmd_perfetto(struct simcmd_ctx *ctx, int argc, char **argv)
{
	const char *cfg_path = NULL, *out = NULL;
	struct strbuf cfg = STRBUF_INIT;
	int background = 0, status = 0, pid;
	char buf[4096];
	size_t n;

	if (ctx->dev->sdk < MIN_SDK) {
		simio_printf(ctx->io, 2, "/system/bin/sh: perfetto: "
		    "inaccessible or not found\n");
		return 127;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--background") || !strcmp(argv[i], "-d"))
			background = 1;
		else if (!strcmp(argv[i], "--txt"))
			;
		else if ((!strcmp(argv[i], "-c") ||
		    !strcmp(argv[i], "--config")) && i + 1 < argc)
			cfg_path = argv[++i];
		else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out"))
		    && i + 1 < argc)
			out = argv[++i];
		else
			return simcmd_error(ctx, 1, "perfetto", "unknown "
			    "option '%s'", argv[i]);
	}
	if (!cfg_path || !out)
		return simcmd_error(ctx, 1, "perfetto", "a config (-c) and an "
		    "output file (-o) are needed");
	if (!strcmp(cfg_path, "-")) {
		while ((n = simio_read(ctx->io, buf, sizeof(buf))) > 0)
			strbuf_add(&cfg, buf, n);
	} else if (simfs_read(ctx->dev->fs, cfg_path, &cfg)) {
		strbuf_release(&cfg);
		return simcmd_error(ctx, 1, "perfetto", "cannot read the "
		    "config '%s'", cfg_path);
	}
	if (!strstr(cfg.buf ? cfg.buf : "", "data_sources")) {
		strbuf_release(&cfg);
		return simcmd_error(ctx, 1, "perfetto", "the config has no "
		    "data source");
	}
	strbuf_release(&cfg);
	simdev_lock(ctx->dev);
	if (!background) {
		status = write_trace(ctx->dev, out, simdev_now_ns(ctx->dev)) ?
		    1 : 0;
	} else if (ctx->dev->perfetto_pid) {
		status = -1;
	} else {
		pid = simapps_new_pid(ctx->dev->apps);
		ctx->dev->perfetto_pid = pid;
		free(ctx->dev->perfetto_out);
		ctx->dev->perfetto_out = xstrdup(out);
		ctx->dev->perfetto_ns = simdev_now_ns(ctx->dev);
		simio_printf(ctx->io, 1, "%d\n", pid);
	}
	simdev_unlock(ctx->dev);
	if (status < 0)
		return simcmd_error(ctx, 1, "perfetto", "a tracing session is "
		    "already running");
	if (status)
		return simcmd_error(ctx, 1, "perfetto", "cannot write '%s'",
		    out);
	return 0;
}

/* Is `pid` an app's process? (locked) */
static int
app_pid(struct simdev *dev, long pid)
{
	for (size_t i = 0; i < simapps_count(dev->apps); i++)
		if (apprun_pid(simapps_at(dev->apps, i)) == pid)
			return 1;
	return 0;
}

int
cmd_kill(struct simcmd_ctx *ctx, int argc, char **argv)
{
	int probe = 0, status = 0, i = 1;

	if (i < argc && argv[i][0] == '-') {
		probe = !strcmp(argv[i], "-0");
		i++;
	}
	if (i >= argc)
		return simcmd_error(ctx, 1, "kill", "Needs 1 argument");
	for (; i < argc; i++) {
		char *end;
		long pid = strtol(argv[i], &end, 10);
		int err = 0;

		simdev_lock(ctx->dev);
		if (*end || pid <= 0) {
			err = 1;
		} else if (pid == ctx->dev->perfetto_pid) {
			if (!probe) {
				write_trace(ctx->dev, ctx->dev->perfetto_out,
				    ctx->dev->perfetto_ns);
				ctx->dev->perfetto_pid = 0;
			}
		} else if (app_pid(ctx->dev, pid)) {
			err = probe ? 0 : 2;
		} else {
			err = 1;
		}
		simdev_unlock(ctx->dev);
		if (err == 1)
			status = simcmd_error(ctx, 1, "kill", "pid %s: No such "
			    "process", argv[i]);
		else if (err == 2)
			status = simcmd_error(ctx, 1, "kill", "pid %s: "
			    "Operation not permitted", argv[i]);
	}
	return status;
}
