/*
 * compare_entry.c: one entry of a comparison (compare_int.h): the values
 * of a metric on each side, one per valid iteration with the session it
 * came from, their summaries and spread, and the gates before any
 * statistics (docs/method.md, steps 1 and 2): new, missing, too few iterations,
 * all one number.  An entry that passes them waits in x->pend for the
 * run's passes (compare_pass.c).  Also the run-by-run series the session
 * model and the trend line read from the baseline.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "config.h"
#include "error.h"
#include "metrics.h"
#include "quantile.h"
#include "results.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* Both NULL, or both the same string. */
bool
cmp_same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool
iteration_valid(const struct rs_iteration *it)
{
	return !it->warmup && it->ok;
}

size_t
cmp_valid_iterations(const struct rs_scenario *sc)
{
	size_t n = 0;

	for (size_t i = 0; sc && i < sc->nr_iterations; i++)
		n += iteration_valid(&sc->iterations[i]);
	return n;
}

/*
 * How fast a scene's frames came in one iteration, for the jank kind's
 * speed_prior() (compare_test.c): the log of the mean of its middle 80 %
 * of frames (the plain mean follows the few 20-40 ms spikes more than
 * the phone's speed, and a jank share does not), and that log's sampling
 * variance from those frames' own spread, which the slope on it must be
 * corrected for.
 */
static int
scene_speed(double *out, double *var, const struct rs_scene *sn)
{
	double n = (double)rs_frames_histogram_total(&sn->frames), lo, hi;
	double at = 0, sum = 0, sum2 = 0, kept = 0, mean;

	if (!(n >= 10))
		return -1;
	lo = 0.1 * n;
	hi = 0.9 * n;
	for (size_t i = 0; i < sn->frames.nr_histogram; i++) {
		double c = (double)sn->frames.histogram[i].count;
		double from = fmax(at, lo), to = fmin(at + c, hi);
		double ms = (double)sn->frames.histogram[i].ms;

		if (to > from) {
			sum += (to - from) * ms;
			sum2 += (to - from) * ms * ms;
			kept += to - from;
		}
		at += c;
	}
	if (!(kept > 1 && sum > 0))
		return -1;
	mean = sum / kept;
	*out = log(mean);
	*var = fmax(sum2 / kept - mean * mean, 0) / kept / (mean * mean);
	return 0;
}

/* The number a record's corruption is judged by (CMP_CORRUPT_FACTOR). */
static double
record_level(const struct rs_iteration *it, const char *scene)
{
	const struct rs_scene *sn;

	if (!scene)
		return it->startup.present ? it->startup.total_ms : NAN;
	sn = rs_iteration_find_scene(it, scene);
	return sn && sn->frames.present ? sn->frames.p50_ms : NAN;
}

/* The median level of `scene`'s baseline records; NAN for too few. */
static double
baseline_level(const struct cmp_scope *sc, const char *scene)
{
	double *v = NULL, med = NAN;
	size_t n = 0, alloc = 0;

	for (size_t r = 0; r < sc->nr_base; r++)
		for (size_t i = 0; sc->base[r] &&
		    i < sc->base[r]->nr_iterations; i++) {
			const struct rs_iteration *it =
			    &sc->base[r]->iterations[i];
			double x = iteration_valid(it) ?
			    record_level(it, scene) : NAN;

			if (isfinite(x) && x > 0) {
				XALLOC_GROW(v, n + 1, alloc);
				v[n++] = x;
			}
		}
	if (n < CMP_CORRUPT_MIN || stats_quantile(&med, v, n, 0.5))
		med = NAN;
	free(v);
	return med;
}

static bool
corrupt(const struct rs_iteration *it, const char *scene, double level)
{
	double x = record_level(it, scene);

	return isfinite(level) && isfinite(x) && x > 0 &&
	    (x > CMP_CORRUPT_FACTOR * level || x * CMP_CORRUPT_FACTOR < level);
}

size_t
cmp_corrupt_records(const struct cmp_scope *sc, const char *scene,
    struct strlist *warnings)
{
	double level = baseline_level(sc, scene);
	size_t n = 0;

	for (size_t r = 0; isfinite(level) && r < sc->nr_base; r++)
		for (size_t i = 0; sc->base[r] &&
		    i < sc->base[r]->nr_iterations; i++)
			n += iteration_valid(&sc->base[r]->iterations[i]) &&
			    corrupt(&sc->base[r]->iterations[i], scene, level);
	if (n && warnings)
		strlist_addf(warnings, "%s%s%s: %zu baseline iteration%s "
		    "whose %s was over %g times from the others' left out as "
		    "corrupt", sc->scenario, scene ? "/" : "",
		    scene ? scene : "", n, n == 1 ? "" : "s",
		    scene ? "median frame" : "launch", CMP_CORRUPT_FACTOR);
	return n;
}

/*
 * Append the values of `m` in scene `scene` (NULL: the launch) of `sc`,
 * each with its run (the baseline input's index, -1 for the current run)
 * and session, and for the jank kind the iteration's speed.  A baseline
 * record whose level is corrupt against `level` (the baseline's median
 * level, NAN: none) gives no value.
 */
static void
gather(struct cmp_sample *s, const struct rs_scenario *sc, const char *scene,
    const struct metric_def *m, int run, double level)
{
	for (size_t i = 0; sc && i < sc->nr_iterations; i++) {
		const struct rs_iteration *it = &sc->iterations[i];
		const struct rs_scene *sn = NULL;
		double x;
		int rc;

		if (!iteration_valid(it))
			continue;
		if (run >= 0 && corrupt(it, scene, level))
			continue;
		if (scene) {
			sn = rs_iteration_find_scene(it, scene);
			if (!sn)
				continue;
			rc = metric_scene_value(m, sn, &x);
		} else {
			rc = metric_iteration_value(m, it, &x);
		}
		if (rc) {
			/* Not measured in this iteration: no value. */
			jg_error_clear();
			continue;
		}
		if (!isfinite(x)) {
			s->dropped++;
			continue;
		}
		cmp_sample_add(s, x, run, it->session);
		/* What moves a scene's jank shares most: its frames' speed
		 * (compare_test.c, speed_prior()). */
		if (sn && m->kind == METRIC_KIND_JANK) {
			(void)scene_speed(&s->speed[s->n - 1],
			    &s->speed_var[s->n - 1], sn);
			s->scene[s->n - 1] = sn;
		}
	}
}

/*
 * The per-iteration spread behind the noise term of T, the smaller of two
 * estimates that are both the IQR for normal data and each over-read in
 * one case:
 *   - the IQR of the pooled baseline, which also counts what moves whole
 *     runs (a fix or a regression inside the baseline window);
 *   - how much two iterations of the same session differ: sqrt 2 times
 *     the median of |x - y| over every pair of one session's values
 *     (within 3 % of the IQR for lognormal frame times), which jumps by
 *     whole steps on values that sit on a few integers (p90 in whole ms,
 *     block counts: its median is 0 or 1).
 * NAN when there is neither.
 */
static double
spread_of(const struct cmp_sample *b, const struct stats_summary *base)
{
	double *d = NULL, med, iqr = base->n > 1 ? base->iqr : NAN;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < b->n; i++)
		for (size_t j = i + 1; j < b->n; j++) {
			if (b->run[j] != b->run[i] || b->sess[j] != b->sess[i])
				continue;
			XALLOC_GROW(d, n + 1, alloc);
			d[n++] = fabs(b->v[i] - b->v[j]);
		}
	if (n && !stats_quantile(&med, d, n, 0.5))
		iqr = fmin(iqr, M_SQRT2 * med);
	free(d);
	return iqr;
}

void
cmp_set_reasonf(struct cmp_entry *e, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(e->reason);
	e->reason = strbuf_detach(&sb, NULL);
}

bool
cmp_all_equal(const struct cmp_sample *a, const struct cmp_sample *b)
{
	const struct cmp_sample *side[2] = { a, b };
	const struct cmp_sample *first = a->n ? a : b;

	if (!first->n)
		return true;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < side[k]->n; i++)
			if (side[k]->v[i] != first->v[0])
				return false;
	return true;
}

/*
 * Build the entry for metric `m` in `scene` (NULL: scenario metric) and
 * apply the gates of docs/method.md, step 2; an entry that passes them is queued
 * with its samples for the statistics.  No entry when neither side has a
 * value.
 */
/* A scene's whole-ms frame percentile (CMP_VSYNC_ROUNDING_MS). */
static bool
vsync_stepped(const struct metric_def *m)
{
	return m->kind == METRIC_KIND_FRAME_TIME && m->scope == METRIC_SCENE &&
	    m->resolution >= 1 && !m->explain;
}

/*
 * Whether the frames of `scene` pile up at the k-th multiple of the
 * period, over every valid iteration of both sides: the two whole-ms
 * buckets up to the multiple (where a frame that waited for the vsync
 * ends) hold CMP_VSYNC_PILE times as many frames as the two just above
 * it, no fewer than the two below, and more than a smooth distribution
 * puts there by chance (CMP_VSYNC_PILE_P).  A frame that waits ends before
 * the vsync, never just after it, so a pile is sharp; a smooth
 * distribution, even one whose mode sits at the multiple, changes by
 * less than that from one pair of buckets to the next, and its
 * percentiles move as its frames do.
 */
static bool
piles_up(const struct cmp_scope *sc, const char *scene, double period, int k)
{
	double at = k * period, in = 0, out = 0, below = 0;

	for (size_t r = 0; r <= sc->nr_base; r++) {
		const struct rs_scenario *s = r < sc->nr_base ? sc->base[r] :
		    sc->cur;

		for (size_t i = 0; s && i < s->nr_iterations; i++) {
			const struct rs_scene *sn;

			if (!iteration_valid(&s->iterations[i]) ||
			    !(sn = rs_iteration_find_scene(&s->iterations[i],
			    scene)))
				continue;
			for (size_t b = 0; b < sn->frames.nr_histogram; b++) {
				double ms = sn->frames.histogram[b].ms;
				double c = (double)sn->frames.histogram[b].count;

				if (ms >= floor(at) - 1 && ms <= floor(at))
					in += c;
				else if (ms > floor(at) && ms <= floor(at) + 2)
					out += c;
				else if (ms >= floor(at) - 3 && ms < floor(at) - 1)
					below += c;
			}
		}
	}
	return in > 0 && in >= CMP_VSYNC_PILE * out && in >= below &&
	    cmp_binom_upper((long)in, (long)(in + out),
	    CMP_VSYNC_SMOOTH_SHARE) <= CMP_VSYNC_PILE_P;
}

/*
 * Whether the frames of `scene` pile up at any of the first
 * CMP_VSYNC_PLATEAUS multiples of the period: then its whole-ms
 * percentiles move by steps (CMP_VSYNC_ROUNDING_MS).
 */
static bool
paced_by_vsync(const struct cmp_scope *sc, const char *scene, double period)
{
	for (int k = 1; k <= CMP_VSYNC_PLATEAUS; k++)
		if (piles_up(sc, scene, period, k))
			return true;
	return false;
}

/*
 * Whether frame percentile `m` of `scene` has fewer than CMP_TAIL_FRAMES
 * frames beyond it in the median valid iteration of both sides.
 */
static bool
thin_tail(const struct cmp_scope *sc, const char *scene,
    const struct metric_def *m)
{
	double *v = NULL, med;
	size_t n = 0, alloc = 0;
	bool thin;

	if (!scene || m->kind != METRIC_KIND_FRAME_TIME)
		return false;
	for (size_t r = 0; r <= sc->nr_base; r++) {
		const struct rs_scenario *s = r < sc->nr_base ? sc->base[r] :
		    sc->cur;

		for (size_t i = 0; s && i < s->nr_iterations; i++) {
			const struct rs_scene *sn;
			double k;

			if (!iteration_valid(&s->iterations[i]) ||
			    !(sn = rs_iteration_find_scene(&s->iterations[i],
			    scene)) || isnan(k = metric_frames_beyond(m, sn)))
				continue;
			XALLOC_GROW(v, n + 1, alloc);
			v[n++] = k;
		}
	}
	thin = n && !quantile(&med, v, n, 0.5) && med < CMP_TAIL_FRAMES;
	free(v);
	return thin;
}

void
cmp_compare_metric(struct cmp_ctx *x, const struct cmp_scope *sc,
    const char *scene, const struct metric_def *m)
{
	struct comparison *c = x->c;
	struct cmp_sample b = { 0 }, cu = { 0 };
	size_t min = (size_t)x->o->min_iterations;
	struct cmp_pending *p;
	struct cmp_entry *e;
	double level = baseline_level(sc, scene);

	for (size_t i = 0; i < sc->nr_base; i++)
		gather(&b, sc->base[i], scene, m, (int)i, level);
	gather(&cu, sc->cur, scene, m, -1, NAN);
	if (b.dropped + cu.dropped)
		strlist_addf(&c->warnings, "%s%s%s: %s: %zu values that are "
		    "not finite numbers were left out", sc->scenario,
		    scene ? "/" : "", scene ? scene : "", m->name,
		    b.dropped + cu.dropped);
	if (!b.n && !cu.n)
		goto out;

	/* Explanations go to their own list (comparison.c). */
	e = m->explain ? comparison_add_explain(c) : comparison_add_entry(c);
	e->device = c->device ? xstrdup(c->device) : NULL;
	e->scenario = xstrdup(sc->scenario);
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(m->name);
	e->unit = xstrdup(m->unit);
	e->higher_is_better = m->dir == METRIC_HIGHER_IS_BETTER;
	stats_summarize(&e->base, b.v, b.n);
	stats_summarize(&e->cur, cu.v, cu.n);
	if (x->o->cfg)
		config_threshold_for(x->o->cfg, scene, m, &e->rel_threshold,
		    &e->abs_threshold);
	else {
		e->rel_threshold = m->rel_threshold;
		e->abs_threshold = m->abs_threshold;
	}
	e->noise_threshold = x->o->noise;
	e->spread = spread_of(&b, &e->base);
	if (b.n)
		e->threshold = fmax(fmax(e->abs_threshold,
		    e->rel_threshold * fabs(e->base.median)),
		    isnan(e->spread) ? 0 : e->noise_threshold * e->spread);
	/* A whole-ms frame percentile of frames paced by vsync moves by
	 * steps where it can reach a pile; below, with its work, by whole
	 * ms (docs/method.md, step 6). */
	if (b.n && cu.n && isfinite(x->vsync_ms) && vsync_stepped(m) &&
	    paced_by_vsync(sc, scene, x->vsync_ms)) {
		if (fmax(e->base.median, e->cur.median) >=
		    floor(x->vsync_ms) - CMP_VSYNC_REACH_MS)
			e->threshold = fmax(e->threshold, x->vsync_ms *
			    (strcmp(m->name, "frame_p99_ms") ? 1 :
			    CMP_VSYNC_TAIL_PERIODS) + CMP_VSYNC_ROUNDING_MS);
		else
			e->threshold = fmax(e->threshold, e->abs_threshold +
			    CMP_VSYNC_ROUNDING_MS);
	}

	if (!b.n) {
		e->verdict = CMP_NEW;
		cmp_set_reasonf(e, "no baseline values yet");
	} else if (!sc->cur) {
		e->verdict = CMP_MISSING;
		cmp_set_reasonf(e, "scenario '%s' is not in the current run",
		    sc->scenario);
	} else if (sc->cur_valid < min) {
		e->verdict = CMP_INCONCLUSIVE;
		cmp_set_reasonf(e, "%zu valid current iterations of '%s', "
		    "fewer than min_iterations (%zu)", sc->cur_valid,
		    sc->scenario, min);
	} else if (!cu.n) {
		e->verdict = CMP_MISSING;
		cmp_set_reasonf(e, "no value in the current run");
	} else if (cu.n < min || b.n < min) {
		e->verdict = CMP_INCONCLUSIVE;
		cmp_set_reasonf(e, "%zu current and %zu baseline values, fewer "
		    "than min_iterations (%zu) on one side", cu.n, b.n, min);
	} else {
		XALLOC_GROW(x->pend, x->nr_pend + 1, x->alloc_pend);
		p = &x->pend[x->nr_pend++];
		memset(p, 0, sizeof(*p));
		p->explain = m->explain;
		p->entry = (m->explain ? c->nr_explains : c->nr_entries) - 1;
		p->metric = m;
		p->b = b;
		p->cu = cu;
		p->degenerate = cmp_all_equal(&b, &cu);
		p->thin_tail = thin_tail(sc, scene, m);
		return;
	}
out:
	cmp_sample_release(&b);
	cmp_sample_release(&cu);
}

/*
 * Add the run-by-run deviations of `b` (one metric's baseline) to `ks`:
 * on the log scale for times, else divided by the within-run standard
 * deviation (*sd gets it; 0 when there is none), signed so that worse is
 * positive.
 */
void
cmp_series_add(struct cmp_ctx *x, struct cmp_kind_series *ks,
    const struct cmp_sample *b, bool log_scale, bool higher_is_better,
    double *sd)
{
	size_t nb = x->nr_base;
	double *sum = xcalloc(nb + 1, sizeof(*sum));
	double *n = xcalloc(nb + 1, sizeof(*n));
	double grand = 0, runs = 0, ss = 0, df = 0, div = 1;
	double sign = higher_is_better ? -1 : 1;

	*sd = 0;
	for (size_t i = 0; i < b->n; i++) {
		double y = log_scale ? log(b->v[i]) : b->v[i];

		if (b->run[i] < 0 || (log_scale && !(b->v[i] > 0)))
			goto out;
		sum[b->run[i]] += y;
		n[b->run[i]]++;
	}
	for (size_t r = 0; r < nb; r++)
		if (n[r]) {
			grand += sum[r] / n[r];
			runs++;
		}
	if (runs < 2)
		goto out;
	grand /= runs;
	for (size_t i = 0; i < b->n; i++) {
		double y = log_scale ? log(b->v[i]) : b->v[i];
		double d = y - sum[b->run[i]] / n[b->run[i]];

		ss += d * d;
	}
	for (size_t r = 0; r < nb; r++)
		df += n[r] ? n[r] - 1 : 0;
	*sd = df > 0 ? sqrt(ss / df) : 0;
	if (!log_scale) {
		if (!(*sd > 0))
			goto out;
		div = *sd;
	}
	for (size_t r = 0; r < nb; r++)
		if (n[r]) {
			ks->sum[x->pos[r]] += sign * (sum[r] / n[r] - grand) /
			    div;
			ks->n[x->pos[r]]++;
		}
out:
	free(sum);
	free(n);
}

/*
 * A scene's speed: the mean of its fastest CMP_FRAME_KEEP of frames, from
 * its histogram (ascending).  Every one of them counts, so unlike the
 * whole-ms percentiles it follows a phone running 2 % slower instead of
 * sticking at a bucket; the slowest tenth, where a short scene's few
 * long frames come and go, stays out.  Not a compared metric; the
 * session model reads the drift of frame times from it.
 */
static int
mean_frame_ms(double *out, const struct rs_scene *sn)
{
	double sum = 0, n = 0, keep, kept = 0;

	for (size_t i = 0; i < sn->frames.nr_histogram; i++)
		n += (double)sn->frames.histogram[i].count;
	keep = CMP_FRAME_KEEP * n;
	for (size_t i = 0; i < sn->frames.nr_histogram && kept < keep; i++) {
		double c = fmin((double)sn->frames.histogram[i].count,
		    keep - kept);

		sum += (double)sn->frames.histogram[i].ms * c;
		kept += c;
	}
	if (!(kept > 0 && sum > 0))
		return -1;
	*out = sum / kept;
	return 0;
}

/*
 * Whether most of `sn`'s fastest CMP_FRAME_KEEP of frames sit in gfxinfo's
 * lowest bucket, where its speed reads CMP_LOWEST_BUCKET_MS whatever the
 * phone's.  A histogram with frames below that label is not gfxinfo's
 * (its buckets resolve the fast frames) and is never so.
 */
static bool
mostly_lowest(const struct rs_scene *sn)
{
	double n = 0, low = 0;

	for (size_t i = 0; i < sn->frames.nr_histogram; i++) {
		const struct rs_bucket *b = &sn->frames.histogram[i];

		if (b->count && b->ms < CMP_LOWEST_BUCKET_MS)
			return false;
		n += (double)b->count;
		if (b->ms == CMP_LOWEST_BUCKET_MS)
			low += (double)b->count;
	}
	return low > CMP_FRAME_KEEP * n / 2;
}

/*
 * The mean frame time of `scene` (of its fastest frames: mean_frame_ms())
 * in every valid iteration of `sc`, but a corrupt baseline record's
 * (`level`, as gather()); `*low`, unless NULL, counts those whose kept
 * frames sit mostly in the lowest bucket (mostly_lowest()).
 */
static void
gather_frames(struct cmp_sample *s, const struct rs_scenario *sc,
    const char *scene, int run, double level, size_t *low)
{
	for (size_t i = 0; sc && i < sc->nr_iterations; i++) {
		const struct rs_iteration *it = &sc->iterations[i];
		const struct rs_scene *sn;
		double v;

		if (!iteration_valid(it) ||
		    (run >= 0 && corrupt(it, scene, level)))
			continue;
		sn = rs_iteration_find_scene(it, scene);
		if (sn && !mean_frame_ms(&v, sn)) {
			cmp_sample_add(s, v, run, it->session);
			if (low)
				*low += mostly_lowest(sn);
		}
	}
}

/* Keep both sides' sessions of `scene`'s mean frame time for the model. */
void
cmp_frame_drift_add(struct cmp_ctx *x, const struct cmp_scope *sc,
    const char *scene)
{
	static const struct metric_def mean_frame = { "mean_frame_ms", "ms",
		METRIC_LOWER_IS_BETTER, METRIC_SCENE, 0, 0, "",
		METRIC_KIND_FRAME_TIME, 0, 0, 0, 0 };
	struct cmp_scene_frames *f;
	double level;
	size_t low = 0;

	XALLOC_GROW(x->frames, x->nr_frames + 1, x->alloc_frames);
	f = &x->frames[x->nr_frames++];
	memset(f, 0, sizeof(*f));
	f->scenario = sc->scenario;
	f->scene = xstrdup(scene);
	f->p.metric = &mean_frame;
	level = baseline_level(sc, scene);
	for (size_t r = 0; r < sc->nr_base; r++)
		gather_frames(&f->p.b, sc->base[r], scene, (int)r, level,
		    &low);
	gather_frames(&f->p.cu, sc->cur, scene, -1, NAN, NULL);
	f->censored = 2 * low > f->p.b.n;
}

/*
 * Keep both sides' launches of the scenario for the offsets too: a phone
 * that draws slower launches slower, and a launch does not wait for the
 * display.  Where a scene's frames sit in gfxinfo's lowest bucket or on
 * a vsync plateau its speed does not move with the phone, and the
 * launches are what measures the session (docs/method.md, step 3).  Not
 * part of the frame-time kind's spread (cmp_frame_drift_account()).
 */
void
cmp_launch_drift_add(struct cmp_ctx *x, const struct cmp_scope *sc)
{
	const struct metric_def *m = metric_find("startup_ms");
	struct cmp_scene_frames *f;
	double level;

	if (!m)
		return;
	XALLOC_GROW(x->frames, x->nr_frames + 1, x->alloc_frames);
	f = &x->frames[x->nr_frames++];
	memset(f, 0, sizeof(*f));
	f->scenario = sc->scenario;
	f->p.metric = m;
	level = baseline_level(sc, NULL);
	for (size_t r = 0; r < sc->nr_base; r++)
		gather(&f->p.b, sc->base[r], NULL, m, (int)r, level);
	gather(&f->p.cu, sc->cur, NULL, m, -1, NAN);
}

void
cmp_frame_drift_account(struct cmp_ctx *x)
{
	for (size_t i = 0; i < x->nr_frames; i++) {
		struct cmp_pending *p = &x->frames[i].p;
		struct cmp_pending in = *p;
		double sd;

		if (!p->b.n || !x->frames[i].scene)
			continue;
		/* Interleaved, B's blocks are blocks of the same session
		 * too; otherwise only the baseline's sessions count. */
		if (!x->o->interleaved)
			memset(&in.cu, 0, sizeof(in.cu));
		x->frame_drift.both = x->o->interleaved;
		cmp_kind_add(&x->frame_drift, &in);
		cmp_series_add(x, &x->series[METRIC_KIND_FRAME_TIME], &p->b,
		    true, false, &sd);
	}
}
