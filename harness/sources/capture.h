/*
 * capture.h: `jankgate parse` of a saved logcat capture, shared by the
 * sources that read logcat.
 *
 * FPS slices live in scenes, and a saved capture has none: the device
 * never ran a scenario.  The FPS sources (perf, fpsanalyzer) parse a
 * capture into one scene named after the file that spans everything up
 * to its last line, so what they read has a place in the output.  A
 * capture in a layout without monotonic times (threadtime, Android
 * Studio...) still has that scene: its events, undated on the device
 * clock, belong to it (capture_scene_at()).
 *
 * When a source finds nothing in a capture, capture_warn_nothing() says
 * why in one warning: the file is empty, it is in no layout jankgate
 * knows (naming its first line), or it holds no line of the source.
 */
#ifndef JG_CAPTURE_H
#define JG_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

struct logcat_buf;
struct logcat_line;
struct logpid;
struct rs_scene;
struct source_ctx;

/*
 * When ctx->it has no scene and `nr` > 0: add one named `name` whose
 * window runs from 0 (boot) to the latest line's monotonic time (unknown
 * when no line has one), and return it.  Otherwise NULL, and ctx->it is
 * unchanged.
 */
struct rs_scene *capture_scene(struct source_ctx *ctx,
    const struct logcat_line *lines, size_t nr, const char *name);

/*
 * The scene an event at `mono_ms` belongs to: rs_iteration_scene_at(),
 * except that an event with no monotonic time (NAN) belongs to the
 * iteration's scene when it has exactly one (a parsed capture's).
 */
struct rs_scene *capture_scene_at(const struct source_ctx *ctx,
    double mono_ms, double grace_ms);

/*
 * The app's processes as ctx (its package and pids) and `lines` tell
 * (logpid.h); free with logpid_free().  A source whose library any app
 * may carry skips the lines logpid_owner() says are LOGPID_OTHER.
 */
struct logpid *capture_app_pids(const struct source_ctx *ctx,
    const struct logcat_line *lines, size_t nr);

/*
 * Read `len` bytes of saved capture into a new buffer (free it with
 * logcat_buf_free()).  *unread gets, owned, the message saying that no
 * line is in a known layout (logcat_buf_parse_text()), or NULL.
 */
struct logcat_buf *capture_read(const char *buf, size_t len, char **unread);

/*
 * The one warning for a capture `name` of `len` bytes in which source
 * `src` found nothing: "'NAME' is empty", the `unread` message (from
 * capture_read()), or "'NAME' holds no WHAT" (with " of PKG" when
 * ctx->package is set).
 */
void capture_warn_nothing(const struct source_ctx *ctx, const char *src,
    const char *name, size_t len, const char *unread, const char *what);

/*
 * Say how capture `name` was read into `log`, for `jankgate parse`: a
 * note in ctx->notes (when set) naming the layouts of its lines, and a
 * warning of source `src` when a capture whose lines have a prefix also
 * holds lines in no known layout (read as bare messages), counting them
 * and quoting the first.  `am start -W` output, often saved with a log,
 * counts as neither.  `placed` (NULL: none) tells which bare lines the
 * source read as part of something of its own (a Matrix issue's later
 * lines), which are not unplaced; `arg` is passed to it.
 */
void capture_report(const struct source_ctx *ctx, const char *src,
    const char *name, const struct logcat_buf *log,
    bool (*placed)(void *arg, const struct logcat_line *l), void *arg);

/*
 * The run state of a source that reads only logcat lines: how many lines
 * of its library it saw, so finish can say when there were none.  A
 * source using these keeps a `struct capture_count` as its ctx->state.
 */
struct capture_count {
	size_t lines;
};

/* prepare hook: a zeroed struct capture_count in ctx->state. */
int capture_count_prepare(struct source_ctx *ctx);

/*
 * finish hook body: when the run saw no line of the source, add the
 * run-wide warning "no WHAT in the whole run: HINT"; then free the state.
 */
void capture_count_finish(struct source_ctx *ctx, const char *src,
    const char *what, const char *hint);

/*
 * parse hook body: read `len` bytes of a logcat capture named `name`,
 * give it one scene (capture_scene()), run the source's `logcat` hook
 * over it with a fresh count, and when it counted nothing warn with
 * capture_warn_nothing().
 */
int capture_parse(struct source_ctx *ctx, const char *buf, size_t len,
    const char *name, const char *src, const char *what,
    int (*logcat)(struct source_ctx *ctx, const struct logcat_line *lines,
    size_t nr));

#endif
