/*
 * run_progress.c: what a person watching `jankgate run` sees.
 *
 * On a terminal, one line per device, redrawn in place whenever a worker
 * moves on:
 *
 *	127.0.0.1:7001  shop  iteration 3/6  ETA 1m20s
 *	127.0.0.1:7002  shop  iteration 2/6 (warm-up)  ETA 2m05s
 *
 * Elsewhere (a CI log), plain timestamped lines, one per event, that
 * read well interleaved:
 *
 *	2024-05-01T02:00:03Z 127.0.0.1:7001: shop: iteration 3/6 ok
 *
 * The module writes only to the stream the caller hands it (stderr for
 * `jankgate run`), under one lock, since every device's worker reports
 * here; it is the one part of the executor that writes anything, and it
 * never writes data, only progress.  ETA is the device's mean time per
 * iteration so far times the iterations it has left, shown only while an
 * iteration runs (a device stopped by Ctrl-C keeps no stale ETA).  The
 * iteration count of an appended batch (gate's extra looks) carries on
 * from the iterations the results already hold: "iteration 7/11".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include "run_int.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* A device's last state, its strings copied (cut) into the slot. */
struct slot {
	struct run_progress_state st;
	char serial[96], phase[48], scenario[128];
};

struct run_progress {
	enum run_progress_mode mode;
	FILE *fp;
	pthread_mutex_t lock;
	struct slot *slots;
	size_t nr;
	size_t drawn;			/* live lines on screen now */
};

void
run_format_duration(struct strbuf *out, double ms)
{
	long s;

	if (!(ms >= 0)) {
		strbuf_addch(out, '?');
		return;
	}
	s = (long)(ms / 1000 + 0.5);
	if (s >= 3600)
		strbuf_addf(out, "%ldh%02ldm", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		strbuf_addf(out, "%ldm%02lds", s / 60, s % 60);
	else
		strbuf_addf(out, "%lds", s);
}

void
run_progress_line(struct strbuf *out, const struct run_progress_state *st,
    double now_ms)
{
	strbuf_addstr(out, st->serial ? st->serial : "?");
	if (st->scenario)
		strbuf_addf(out, "  %s", st->scenario);
	if (st->iteration > 0)
		strbuf_addf(out, "  iteration %d/%d%s", st->iteration, st->of,
		    st->warmup ? " (warm-up)" : "");
	else if (st->phase)
		strbuf_addf(out, "  %s", st->phase);
	/* Only while iterations run: a stopped device has no time left. */
	if (st->iteration > 0 && st->done > 0 && st->total > st->done) {
		double per = (now_ms - st->started_ms) / (double)st->done;

		strbuf_addstr(out, "  ETA ");
		run_format_duration(out, per * (double)(st->total - st->done));
	}
}

struct run_progress *
run_progress_new(enum run_progress_mode mode, FILE *fp, size_t nr_devices)
{
	struct run_progress *p = xcalloc(1, sizeof(*p));

	p->mode = fp ? mode : RUN_PROGRESS_NONE;
	p->fp = fp;
	pthread_mutex_init(&p->lock, NULL);
	p->slots = xcalloc(nr_devices ? nr_devices : 1, sizeof(*p->slots));
	p->nr = nr_devices;
	return p;
}

/* Move to the top of the live block and clear it. */
static void
live_clear(struct run_progress *p)
{
	for (size_t i = 0; i < p->drawn; i++)
		fputs("\033[1A\r\033[2K", p->fp);
	p->drawn = 0;
}

static void
live_draw(struct run_progress *p)
{
	struct strbuf sb = STRBUF_INIT;
	double now = run_now_ms();

	for (size_t i = 0; i < p->nr; i++) {
		if (!p->slots[i].st.serial)
			continue;
		strbuf_setlen(&sb, 0);
		run_progress_line(&sb, &p->slots[i].st, now);
		fprintf(p->fp, "%s\n", sb.buf);
		p->drawn++;
	}
	fflush(p->fp);
	strbuf_release(&sb);
}

void
run_progress_free(struct run_progress *p)
{
	if (!p)
		return;
	if (p->mode == RUN_PROGRESS_LIVE) {
		live_clear(p);
		live_draw(p);
	}
	pthread_mutex_destroy(&p->lock);
	free(p->slots);
	free(p);
}

/* Copy `s` into `buf`; NULL stays NULL. */
static const char *
keep(char *buf, size_t size, const char *s)
{
	if (!s)
		return NULL;
	snprintf(buf, size, "%s", s);
	return buf;
}

/* "2024-05-01T02:00:03Z " */
static void
stamp(FILE *fp)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ ", &tm);
	fputs(buf, fp);
}

void
run_progress_update(struct run_progress *p, size_t i,
    const struct run_progress_state *st)
{
	struct slot *sl;
	struct run_progress_state *cur;

	if (p->mode == RUN_PROGRESS_NONE || i >= p->nr)
		return;
	pthread_mutex_lock(&p->lock);
	sl = &p->slots[i];
	cur = &sl->st;
	/* Plain lines only when something a reader cares about changed. */
	if (p->mode == RUN_PROGRESS_PLAIN && (st->iteration != cur->iteration ||
	    !cur->phase || !st->phase || strcmp(st->phase, cur->phase) ||
	    (st->scenario && (!cur->scenario ||
	    strcmp(st->scenario, cur->scenario))))) {
		struct strbuf sb = STRBUF_INIT;

		stamp(p->fp);
		strbuf_addf(&sb, "%s:", st->serial);
		if (st->scenario)
			strbuf_addf(&sb, " %s:", st->scenario);
		if (st->iteration > 0)
			strbuf_addf(&sb, " iteration %d/%d%s", st->iteration,
			    st->of, st->warmup ? " (warm-up)" : "");
		else
			strbuf_addf(&sb, " %s", st->phase ? st->phase : "");
		fprintf(p->fp, "%s\n", sb.buf);
		fflush(p->fp);
		strbuf_release(&sb);
	}
	*cur = *st;
	cur->serial = keep(sl->serial, sizeof(sl->serial), st->serial);
	cur->phase = keep(sl->phase, sizeof(sl->phase), st->phase);
	cur->scenario = keep(sl->scenario, sizeof(sl->scenario),
	    st->scenario);
	if (p->mode == RUN_PROGRESS_LIVE) {
		live_clear(p);
		live_draw(p);
	}
	pthread_mutex_unlock(&p->lock);
}

void
run_progress_note(struct run_progress *p, size_t i, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (p->mode == RUN_PROGRESS_NONE)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&p->lock);
	if (p->mode == RUN_PROGRESS_LIVE)
		live_clear(p);
	else
		stamp(p->fp);
	fprintf(p->fp, "%s: %s\n", i < p->nr && p->slots[i].st.serial ?
	    p->slots[i].st.serial : "jankgate", sb.buf);
	if (p->mode == RUN_PROGRESS_LIVE)
		live_draw(p);
	fflush(p->fp);
	pthread_mutex_unlock(&p->lock);
	strbuf_release(&sb);
}
