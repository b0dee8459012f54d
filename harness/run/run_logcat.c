/*
 * run_logcat.c: one iteration's `logcat -v monotonic` stream.
 *
 * Per iteration, clear the log, then stream it on a
 * connection of its own for as long as the steps run.  A thread reads
 * the lines into a logcat_buf (logcat.h) so the sources get every line
 * the device logged, dated on its monotonic clock, and so the executor
 * learns of a crash or an ANR while the steps are still running, without
 * asking the device anything (which a scene forbids).  The lines it
 * watches for, as AndroidRuntime and ActivityManager print them:
 *
 *	E AndroidRuntime: FATAL EXCEPTION: main
 *	E AndroidRuntime: Process: com.example.shop, PID: 3920
 *	E AndroidRuntime: java.lang.IllegalStateException: ...
 *	E ActivityManager: ANR in com.example.shop (com.example.shop/.Main)
 *	E ActivityManager: Reason: Input dispatching timed out (...)
 *
 * A FATAL EXCEPTION counts only when the "Process:" line after it names
 * the app (its package, or a process "PKG:name"), so another app's crash
 * does not fail the iteration.
 *
 * It also notes the app's launch lines, so that the drain at the end
 * can wait for a "Fully drawn" that comes long after "Displayed":
 *
 *	I ActivityTaskManager: Displayed com.example.shop/.Home: +843ms
 *	I ActivityTaskManager: Fully drawn com.example.shop/.Home: +1s350ms
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "error.h"
#include "logcat.h"
#include "run_int.h"
#include "run_marks.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define READ_SLICE_MS	100	/* a read waits this long, then looks again */
#define QUIET_MS	300	/* drain ends after this long without a line */
#define REPORT_LINES	40	/* lines of a crash report kept for the excerpt */

struct run_logcat {
	struct adb_stream *stream;
	pthread_t thread;
	bool running;
	const char *package;

	pthread_mutex_t lock;		/* everything below */
	struct logcat_buf *buf;
	struct strlist raw;		/* the lines as received, for excerpts */
	double last_ms;
	int error;			/* the stream's end, 0 while fine */
	char *error_msg;
	bool stop;
	bool fatal_pending;		/* a FATAL EXCEPTION awaits its Process */
	size_t report_from;		/* raw index where the report starts */
	size_t report_to;		/* and where it ends (exclusive) */
	size_t detail_at;		/* the exception line after "Process:" */
	char report_tag[32];
	bool failed;
	struct strbuf why;
	int launch_lines;		/* run_logcat_launch_lines() */
	size_t mark_ends;		/* run_logcat_marks() */
	int mark_open;
};

/* `s` of `len` starts with `prefix`. */
static int
starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

/* `name` of `len` is the app's process: PKG, or PKG:something. */
static int
is_app_process(const char *name, size_t len, const char *package)
{
	size_t n = strlen(package);

	return len >= n && !memcmp(name, package, n) &&
	    (len == n || name[n] == ':' || name[n] == ',' || name[n] == ' ' ||
	    name[n] == '(');
}

int
run_logcat_classify(const struct logcat_line *l, const char *package)
{
	if (l->tag_len == 14 && !memcmp(l->tag, "AndroidRuntime", 14)) {
		if (starts(l->msg, l->msg_len, "FATAL EXCEPTION"))
			return 1;
		if (starts(l->msg, l->msg_len, "Process: ") &&
		    is_app_process(l->msg + 9, l->msg_len - 9, package))
			return 2;
		return 0;
	}
	if (starts(l->msg, l->msg_len, "ANR in ") &&
	    is_app_process(l->msg + 7, l->msg_len - 7, package))
		return 3;
	return 0;
}

int
run_logcat_launch_kind(const struct logcat_line *l, const char *package)
{
	size_t n = strlen(package);
	int kind = 0;
	size_t skip = 0;

	if (starts(l->msg, l->msg_len, "Displayed "))
		kind = 1, skip = 10;
	else if (starts(l->msg, l->msg_len, "Fully drawn "))
		kind = 2, skip = 12;
	if (!kind || l->msg_len < skip + n + 1 ||
	    memcmp(l->msg + skip, package, n) || l->msg[skip + n] != '/')
		return 0;
	return kind;
}

/* Note what one line means for the iteration; called with the lock held. */
static void
watch(struct run_logcat *lc, const struct logcat_line *l)
{
	size_t at = lc->raw.nr - 1;
	int kind = run_logcat_classify(l, lc->package);

	lc->launch_lines |= run_logcat_launch_kind(l, lc->package);
	{
		const char *name;
		size_t len;

		switch (run_mark_parse(l, &name, &len)) {
		case RUN_MARK_BEGIN:
			lc->mark_open++;
			break;
		case RUN_MARK_END:
			lc->mark_ends++;
			lc->mark_open -= lc->mark_open > 0;
			break;
		default:
			break;
		}
	}

	if (lc->failed) {
		/* The report goes on while its tag's lines keep coming. */
		if (at != lc->report_to ||
		    at - lc->report_from >= REPORT_LINES ||
		    l->tag_len != strlen(lc->report_tag) ||
		    memcmp(l->tag, lc->report_tag, l->tag_len))
			return;
		lc->report_to = at + 1;
		if (at == lc->detail_at) {
			strbuf_addstr(&lc->why, ": ");
			strbuf_add(&lc->why, l->msg, l->msg_len);
		}
		return;
	}
	switch (kind) {
	case 1:
		lc->fatal_pending = true;
		lc->report_from = at;
		return;
	case 2:
		if (!lc->fatal_pending)
			return;
		strbuf_addstr(&lc->why, "the app crashed");
		lc->detail_at = at + 1;
		break;
	case 3:
		lc->report_from = at;
		lc->detail_at = (size_t)-1;
		strbuf_addstr(&lc->why, "the app is not responding: ");
		strbuf_add(&lc->why, l->msg, l->msg_len);
		break;
	default:
		/* Another process's report, or no report at all. */
		if (l->tag_len == 14 && !memcmp(l->tag, "AndroidRuntime", 14))
			lc->fatal_pending = false;
		return;
	}
	lc->failed = true;
	lc->report_to = at + 1;
	snprintf(lc->report_tag, sizeof(lc->report_tag), "%.*s",
	    (int)l->tag_len, l->tag);
}

static void *
reader(void *arg)
{
	struct run_logcat *lc = arg;
	struct strbuf line = STRBUF_INIT;

	for (;;) {
		int rc = adb_stream_read_line(lc->stream, &line, READ_SLICE_MS);
		struct logcat_line l;

		if (rc == JG_ETIMEOUT)
			continue;
		pthread_mutex_lock(&lc->lock);
		if (rc <= 0) {
			if (!lc->stop && rc < 0) {
				lc->error = rc;
				lc->error_msg = xstrdup(jg_error_msg());
			}
			pthread_mutex_unlock(&lc->lock);
			break;
		}
		lc->last_ms = run_now_ms();
		strlist_add(&lc->raw, line.buf);
		logcat_buf_add(lc->buf, line.buf, line.len);
		if (!logcat_parse_line(&l, line.buf, line.len))
			watch(lc, &l);
		else
			jg_error_clear();
		pthread_mutex_unlock(&lc->lock);
	}
	strbuf_release(&line);
	return NULL;
}

int
run_logcat_start(struct run_logcat **out, struct run_dev *d,
    const char *buffers, const char *package)
{
	struct run_logcat *lc;
	struct adb_shell_result r;
	struct strbuf cmd = STRBUF_INIT;
	int rc;

	*out = NULL;
	strbuf_addf(&cmd, "logcat -b %s -c", buffers);
	adb_shell_result_init(&r);
	rc = adb_shell(d->dev, cmd.buf, &r);
	adb_shell_result_release(&r);
	if (rc) {
		strbuf_release(&cmd);
		return rc;
	}
	lc = xcalloc(1, sizeof(*lc));
	lc->package = package;
	lc->buf = logcat_buf_new();
	strlist_init(&lc->raw);
	strbuf_init(&lc->why, 0);
	pthread_mutex_init(&lc->lock, NULL);
	lc->last_ms = run_now_ms();
	strbuf_setlen(&cmd, 0);
	strbuf_addf(&cmd, "logcat -v monotonic -b %s", buffers);
	rc = adb_stream_open(&lc->stream, d->dev, cmd.buf);
	strbuf_release(&cmd);
	if (rc || pthread_create(&lc->thread, NULL, reader, lc)) {
		if (!rc)
			rc = jg_error_set(JG_EIO, "cannot start the logcat "
			    "reader thread");
		run_logcat_free(lc);
		return rc;
	}
	lc->running = true;
	*out = lc;
	return 0;
}

int
run_logcat_stop(struct run_logcat *lc, int drain_ms, bool want_fully_drawn)
{
	double from = run_now_ms(), until = from + drain_ms;
	int rc;

	if (!lc->running)
		return lc->error;
	/* Quiet counts from now at the earliest: lines may be in flight. */
	while (run_now_ms() < until && !run_interrupted()) {
		double last, now = run_now_ms();
		bool pending;

		pthread_mutex_lock(&lc->lock);
		last = lc->last_ms > from ? lc->last_ms : from;
		rc = lc->error;
		pending = want_fully_drawn && lc->launch_lines == 1;
		pthread_mutex_unlock(&lc->lock);
		if (rc || (now - last >= QUIET_MS && !pending))
			break;
		run_sleep_ms(50);
	}
	pthread_mutex_lock(&lc->lock);
	lc->stop = true;
	pthread_mutex_unlock(&lc->lock);
	adb_stream_stop(lc->stream);
	pthread_join(lc->thread, NULL);
	lc->running = false;
	if (lc->error)
		return jg_error_set(lc->error, "%s", lc->error_msg);
	return 0;
}

const struct logcat_line *
run_logcat_lines(struct run_logcat *lc, size_t *nr)
{
	return logcat_buf_lines(lc->buf, nr);
}

int
run_logcat_failed(struct run_logcat *lc, struct strbuf *why)
{
	int failed;

	pthread_mutex_lock(&lc->lock);
	failed = lc->failed;
	if (failed && why)
		strbuf_addstr(why, lc->why.buf);
	pthread_mutex_unlock(&lc->lock);
	return failed;
}

double
run_logcat_last_ms(struct run_logcat *lc)
{
	double t;

	pthread_mutex_lock(&lc->lock);
	t = lc->last_ms;
	pthread_mutex_unlock(&lc->lock);
	return t;
}

void
run_logcat_excerpt(struct run_logcat *lc, struct strbuf *out, size_t max)
{
	size_t from, to;

	pthread_mutex_lock(&lc->lock);
	if (lc->failed) {
		from = lc->report_from;
		to = lc->report_to;
	} else {
		to = lc->raw.nr;
		from = to > max ? to - max : 0;
	}
	for (size_t i = from; i < to && i < lc->raw.nr; i++) {
		strbuf_addstr(out, lc->raw.items[i]);
		strbuf_addch(out, '\n');
	}
	pthread_mutex_unlock(&lc->lock);
}

void
run_logcat_free(struct run_logcat *lc)
{
	if (!lc)
		return;
	if (lc->running) {
		adb_stream_stop(lc->stream);
		pthread_join(lc->thread, NULL);
	}
	adb_stream_free(lc->stream);
	logcat_buf_free(lc->buf);
	strlist_release(&lc->raw);
	strbuf_release(&lc->why);
	free(lc->error_msg);
	pthread_mutex_destroy(&lc->lock);
	free(lc);
}

int
run_logcat_launch_lines(struct run_logcat *lc)
{
	int v;

	pthread_mutex_lock(&lc->lock);
	v = lc->launch_lines;
	pthread_mutex_unlock(&lc->lock);
	return v;
}

void
run_logcat_marks(struct run_logcat *lc, size_t *ends, int *open)
{
	pthread_mutex_lock(&lc->lock);
	*ends = lc->mark_ends;
	*open = lc->mark_open;
	pthread_mutex_unlock(&lc->lock);
}
