/*
 * blockcanary.c: the `blockcanary` source, BlockCanary's block files
 * (docs/formats.md §2) pulled from the device after each iteration.
 *
 * BlockCanary logs nothing; each block past its threshold becomes one
 * file, `looper-<yyyy-MM-dd_HH-mm-ss.SSS>.log` (`.txt` before 1.3), in
 *
 *	/storage/emulated/0/blockcanary/     when external storage is
 *	                                     writable: read through sync
 *	/data/user/0/PKG/files/blockcanary/  otherwise (the usual case from
 *	                                     API 29): `run-as PKG ls/cat/rm`,
 *	                                     which needs a debuggable build
 *
 * prepare checks which of the two can be read and remembers the files
 * already there, which belong to no iteration of this run and are left
 * alone.  collect, after every iteration, lists both directories, reads
 * each new file (sync pull; `run-as cat` when the shell may not read it),
 * turns it into a block attributed to the scene holding its start, and
 * deletes it, so the next iteration sees only its own files; finish
 * says "no BlockCanary log" only when neither directory ever existed
 * (blockcanary_finish()), not for a run without a block.  A block
 * that ended before the iteration began (written after the previous
 * collect) is dropped with a warning rather than counted twice or late.
 *
 * Device file names are only used when bc_name_ok() accepts them, and
 * only on the device (sh-quoted): nothing pulled is written to the host.
 *
 * The device clock.  BlockCanary dates blocks with the device's local
 * wall time, `MM-dd HH:mm:ss.SSS`; scenes are on CLOCK_MONOTONIC.  When a
 * collect finds files it reads both clocks in one shell command, outside
 * every scene (bc_clock_command: `date`, the app's gfxinfo `Uptime:` -
 * the very clock of the scene windows - and `date` again), and converts
 * with local - monotonic taken at the midpoint of the two dates.  The
 * error is at most half the distance between the dates (0 on the
 * simulated phone's virtual clock, typically 10-50 ms on a phone: the
 * time dumpsys takes; more on a busy one, so the run keeps its tightest
 * reading) plus BlockCanary's truncation to the millisecond,
 * small beside its blocks (hundreds of ms at the least) and the scene
 * grace period.  When the app no longer runs at collect time there is no
 * Uptime: the last reading of the run is used, and without any the
 * blocks are kept without a start time, at iteration level, with a
 * warning.  A time-zone or daylight-saving change inside a run is not
 * followed; the wall clock being set (NTP) is, at the next reading.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "adb_sync.h"
#include "blockcanary.h"
#include "config.h"
#include "error.h"
#include "results.h"
#include "source.h"
#include "source_warn.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define SRC "blockcanary"
#define EXT_DIR "/storage/emulated/0/blockcanary"
#define FILES_DIR "files/blockcanary"	/* relative to run-as's home */

enum bc_where { BC_EXT, BC_FILES };

struct bc_state {
	bool runas;		/* `run-as PKG` works: a debuggable app */
	char *runas_why;	/* run-as's refusal, for the final warning */
	struct strlist old;	/* path_of() every file there before the run */
	double offset;		/* local wall - monotonic ms; NAN: unknown */
	double precision;
	double ref_local;	/* local wall ms of the last clock reading */
	size_t files;		/* block files read in the whole run */
	bool dir_seen;		/* either directory existed at some point */
};

/* The device path of a file, relative to run-as's home for BC_FILES. */
static char *
path_of(enum bc_where where, const char *name)
{
	return xasprintf("%s/%s", where == BC_EXT ? EXT_DIR : FILES_DIR,
	    name);
}

/* Run `argv` on the device; 0 when it ran, whatever its exit status. */
static int
shell(struct source_ctx *ctx, const char *const argv[],
    struct adb_shell_result *res)
{
	adb_shell_result_init(res);
	return adb_shell_argv(ctx->dev, argv, res);
}

/*
 * Split `ls -1` output (one name a line) into acceptable names, appended
 * to `names`.
 */
static void
add_names(struct strlist *names, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\r\n");
		char *name = xstrndup(p, n);

		if (bc_name_ok(name))
			strlist_add(names, name);
		free(name);
		p += n;
		p += strspn(p, "\r\n");
	}
}

/*
 * The names in the app's files dir.  A refusal by run-as itself (not a
 * missing directory) turns run-as off for the rest of the run.
 */
static int
list_files(struct source_ctx *ctx, struct bc_state *st,
    struct strlist *names)
{
	const char *argv[] = { "run-as", ctx->package, "ls", "-1", FILES_DIR,
		NULL };
	struct adb_shell_result res;
	int rc;

	if (!st->runas)
		return 0;
	if ((rc = shell(ctx, argv, &res)))
		goto out;
	if (!res.exit_code) {
		st->dir_seen = true;
		add_names(names, res.out.buf);
	} else if (!strncmp(res.out.buf, "run-as:", 7) ||
	    !strncmp(res.err.buf, "run-as:", 7)) {
		const char *why = res.err.len ? res.err.buf : res.out.buf;

		st->runas = false;
		free(st->runas_why);
		st->runas_why = xstrndup(why, strcspn(why, "\r\n"));
	}
out:
	adb_shell_result_release(&res);
	return rc;
}

static int
list_ext(struct source_ctx *ctx, struct strlist *names)
{
	struct adb_dirent_list list = ADB_DIRENT_LIST_INIT;
	struct adb_sync *sync;
	int rc;

	if ((rc = adb_sync_open(&sync, ctx->dev)))
		return rc;
	rc = adb_sync_list(sync, EXT_DIR, &list);
	for (size_t i = 0; !rc && i < list.nr; i++)
		if (bc_name_ok(list.items[i].name))
			strlist_add(names, list.items[i].name);
	adb_dirent_list_release(&list);
	adb_sync_free(sync);
	return rc;
}


/* The files of one directory that were not there before the run. */
static int
list_new(struct source_ctx *ctx, struct bc_state *st, enum bc_where where,
    struct strlist *out)
{
	struct strlist all = STRLIST_INIT;
	int rc;

	rc = where == BC_EXT ? list_ext(ctx, &all) : list_files(ctx, st, &all);
	for (size_t i = 0; !rc && i < all.nr; i++) {
		char *p = path_of(where, all.items[i]);

		if (strlist_find(&st->old, p) < 0)
			strlist_add(out, all.items[i]);
		free(p);
	}
	strlist_release(&all);
	return rc;
}

static int
blockcanary_prepare(struct source_ctx *ctx)
{
	struct bc_state *st = xcalloc(1, sizeof(*st));
	struct strlist names = STRLIST_INIT;
	int rc;

	st->runas = true;
	st->offset = st->precision = st->ref_local = NAN;
	strlist_init(&st->old);
	ctx->state = st;
	for (enum bc_where w = BC_EXT; w <= BC_FILES; w++) {
		strlist_release(&names);
		if ((rc = list_new(ctx, st, w, &names)))
			break;
		for (size_t i = 0; i < names.nr; i++) {
			char *p = path_of(w, names.items[i]);

			strlist_add(&st->old, p);
			free(p);
		}
	}
	strlist_release(&names);
	return rc;
}

/*
 * Read both clocks outside the scenes; keeps the tightest reading of the
 * run until the wall clock is seen to be set (bc_clock_keep), and the
 * latest one's wall time for the year of BlockCanary's stamps.
 */
static int
read_clock(struct source_ctx *ctx, struct bc_state *st)
{
	char *cmd = bc_clock_command(ctx->package);
	struct adb_shell_result res;
	double off, prec, ref;
	int rc;

	adb_shell_result_init(&res);
	rc = adb_shell(ctx->dev, cmd, &res);
	free(cmd);
	if (rc)
		goto out;
	if (!bc_clock_parse(res.out.buf, res.out.len, &off, &prec, &ref)) {
		bc_clock_keep(&st->offset, &st->precision, off, prec);
		st->ref_local = ref;
	} else if (isnan(st->offset)) {
		source_warn(ctx, NULL, SRC, "cannot relate BlockCanary's "
		    "wall times to the device clock (%s): its blocks have no "
		    "start time and stay outside the scenes", jg_error_msg());
	}
out:
	adb_shell_result_release(&res);
	return rc;
}

/*
 * The contents of one file: a sync pull for external storage, `run-as
 * cat` for the files dir and for an external file the shell may not
 * read.  JG_ENOTFOUND / JG_EIO: this file is lost (the caller warns);
 * other codes: the device failed.
 */
static int
read_file(struct source_ctx *ctx, struct bc_state *st, enum bc_where where,
    const char *name, struct strbuf *out)
{
	char *path = path_of(where, name);
	const char *argv[] = { "run-as", ctx->package, "cat", path, NULL };
	struct adb_shell_result res;
	int rc = 0;

	if (where == BC_EXT) {
		rc = adb_pull_mem(ctx->dev, path, out);
		if (rc != JG_EIO || !st->runas)
			goto out;
		strbuf_reset(out);
	}
	if (!(rc = shell(ctx, argv, &res))) {
		if (!res.exit_code)
			strbuf_add(out, res.out.buf, res.out.len);
		else
			rc = jg_error_set(JG_EIO, "'run-as %s cat %s': %.200s",
			    ctx->package, path, res.err.len ? res.err.buf :
			    res.out.buf);
	}
	adb_shell_result_release(&res);
out:
	free(path);
	return rc;
}

/* Delete the consumed files of one directory, in one command. */
static int
remove_files(struct source_ctx *ctx, enum bc_where where,
    const struct strlist *names)
{
	struct adb_shell_result res;
	const char **argv;
	size_t n = 0;
	int rc;

	if (!names->nr)
		return 0;
	argv = xcalloc(names->nr + 5, sizeof(*argv));
	if (where == BC_FILES) {
		argv[n++] = "run-as";
		argv[n++] = ctx->package;
	}
	argv[n++] = "rm";
	argv[n++] = "-f";
	for (size_t i = 0; i < names->nr; i++)
		argv[n++] = path_of(where, names->items[i]);
	rc = shell(ctx, argv, &res);
	if (!rc && res.exit_code)
		source_warn(ctx, NULL, SRC, "cannot delete BlockCanary's "
		    "files in '%s': %.200s", where == BC_EXT ? EXT_DIR :
		    FILES_DIR, res.err.len ? res.err.buf : res.out.buf);
	adb_shell_result_release(&res);
	for (size_t i = n - names->nr; i < n; i++)
		free((char *)argv[i]);
	free(argv);
	return rc;
}

/*
 * One parsed file into ctx->it: the scene that holds its start, else the
 * iteration; nothing when it ended before the iteration began.
 */
static void
add_block(struct source_ctx *ctx, const struct bc_log *log,
    const char *name, double offset, double ref_local, double precision)
{
	double grace = ctx->cfg ? ctx->cfg->source_opts.grace_ms : 0;
	double began = ctx->it->started_mono_ms;
	struct rs_block blk, *b;
	struct rs_scene *sc;

	memset(&blk, 0, sizeof(blk));
	strlist_init(&blk.stack);
	bc_log_to_block(log, &blk, offset, ref_local);
	if (!isnan(began) && !isnan(blk.start_mono_ms) &&
	    blk.start_mono_ms + (isnan(blk.wall_ms) ? 0 : blk.wall_ms) +
	    precision < began) {
		source_warn(ctx, NULL, SRC, "'%s' holds a block from before "
		    "the iteration: not counted", name);
		goto out;
	}
	sc = rs_iteration_scene_at(ctx->it, blk.start_mono_ms, grace);
	b = sc ? rs_scene_add_block(sc, SRC) : rs_iteration_add_block(ctx->it,
	    SRC);
	rs_str_set(&b->kind, blk.kind);
	b->start_mono_ms = blk.start_mono_ms;
	b->wall_ms = blk.wall_ms;
	b->thread_ms = blk.thread_ms;
	b->cpu_busy = blk.cpu_busy;
	b->truncated = blk.truncated;
	strlist_copy(&b->stack, &blk.stack);
	rs_str_set(&b->signature, blk.signature);
	for (size_t i = 0; i < log->problems.nr; i++)
		source_warn(ctx, sc, SRC, "'%s': %s", name,
		    log->problems.items[i]);
out:
	free(blk.kind);
	free(blk.signature);
	strlist_release(&blk.stack);
}

void
bc_add_file(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name, double offset, double ref_local, double precision)
{
	struct bc_log log;

	bc_log_init(&log);
	if (bc_log_parse(&log, buf, len))
		source_warn_unread(ctx, SRC, name, buf, len,
		    "a BlockCanary log");
	else
		add_block(ctx, &log, name, offset, ref_local, precision);
	bc_log_release(&log);
}

static int
collect_dir(struct source_ctx *ctx, struct bc_state *st, enum bc_where where,
    const struct strlist *names)
{
	struct strbuf buf = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < names->nr; i++) {
		strbuf_reset(&buf);
		rc = read_file(ctx, st, where, names->items[i], &buf);
		if (rc == JG_ENOTFOUND || rc == JG_EIO) {
			source_warn(ctx, NULL, SRC, "cannot read '%s': %s",
			    names->items[i], jg_error_msg());
			rc = 0;
			continue;
		}
		if (rc)
			break;
		bc_add_file(ctx, buf.buf, buf.len, names->items[i], st->offset,
		    st->ref_local, st->precision);
		st->files++;
	}
	strbuf_release(&buf);
	return rc ? rc : remove_files(ctx, where, names);
}

static int
blockcanary_collect(struct source_ctx *ctx)
{
	struct bc_state *st = ctx->state;
	struct strlist ext = STRLIST_INIT, files = STRLIST_INIT;
	int rc;

	if (!st || !ctx->dev)
		return 0;
	if ((rc = list_new(ctx, st, BC_EXT, &ext)) ||
	    (rc = list_new(ctx, st, BC_FILES, &files)))
		goto out;
	if (!ext.nr && !files.nr)
		goto out;
	if (!(rc = read_clock(ctx, st)) &&
	    !(rc = collect_dir(ctx, st, BC_EXT, &ext)))
		rc = collect_dir(ctx, st, BC_FILES, &files);
out:
	strlist_release(&ext);
	strlist_release(&files);
	return rc;
}

/*
 * BlockCanary makes its directory when it starts (cleanObsolete() lists
 * it) and a file only for a block past its threshold, so a run with the
 * directory and no file had no such block: the healthy case, which says
 * nothing.  A run in which neither directory ever existed is one where
 * BlockCanary did not start (not in this build), or wrote where run-as
 * cannot read: that is the warning.  `ls` of the files dir answers on
 * the way (list_files()); a sync LIST cannot tell an empty directory
 * from none, so the external one is asked once here, when nothing else
 * has answered.  A directory left by an earlier install counts as seen.
 */
static void
blockcanary_finish(struct source_ctx *ctx)
{
	struct bc_state *st = ctx->state;
	struct adb_stat ext;
	char *msg;

	if (!st)
		return;
	if (!st->files && !st->dir_seen && ctx->dev &&
	    !adb_stat(ctx->dev, EXT_DIR, &ext))
		st->dir_seen = true;
	/* An earlier batch's "none in the whole run" is wrong now. */
	if ((st->files || st->dir_seen) && ctx->results)
		results_remove_warnings(ctx->results, SRC, "no BlockCanary log "
		    "in the whole run");
	if (!st->files && !st->dir_seen && ctx->results &&
	    !source_in_results(ctx->results, SRC)) {
		if (st->runas)
			msg = xasprintf("no BlockCanary log in the whole run: "
			    "neither '%s' nor the app's '%s' exists, which "
			    "BlockCanary makes when it starts (is it in this "
			    "build?)", EXT_DIR, FILES_DIR);
		else
			msg = xasprintf("no BlockCanary log in the whole run: "
			    "no '%s', and the app's files dir is unreadable "
			    "(%s)", EXT_DIR, st->runas_why ? st->runas_why :
			    "run-as refused");
		results_add_warning(ctx->results, SRC, NULL, msg);
		free(msg);
	}
	strlist_release(&st->old);
	free(st->runas_why);
	free(st);
	ctx->state = NULL;
}

/*
 * `jankgate parse blockcanary FILE`: one saved looper log.  Without the
 * device there is no clock reading, so the block has no start time and
 * belongs to the iteration.
 */
static int
blockcanary_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name)
{
	bc_add_file(ctx, buf, len, name, NAN, NAN, 0);
	return 0;
}

const struct source source_blockcanary = {
	.name = "blockcanary",
	.summary = "main-thread blocks from BlockCanary's looper log files",
	.fills = SOURCE_BLOCKS,
	.prepare = blockcanary_prepare,
	.collect = blockcanary_collect,
	.finish = blockcanary_finish,
	.parse = blockcanary_parse,
};
