/*
 * compare_offset.c: the phone's offset in each session, taken off the
 * frame times (docs/method.md, step 3).
 *
 * A session moves every scene it measures alike: a phone 2 % slower
 * tonight (its temperature, its clocks, what runs beside the app) makes
 * every scene's frames 2 % slower, on the log scale one number for the
 * session.  The session model of compare_session.c counts that number as
 * noise, which at 2 % drift is most of what separates one night from the
 * next; but the scenes measured in the same session measure it too.  So,
 * for every session of either side,
 *
 *	d(f, s) = the session's mean of log(mean frame) of scene f
 *	          (the mean of its fastest CMP_FRAME_KEEP of frames)
 *	          - scene f's level over the baseline's sessions,
 *
 * and the session's offset for scene f is the median of d(g, s) over the
 * *other* scenes g measured in s (a scene never measures its own offset,
 * so its own change stays in it; a median, so a few changed scenes do
 * not move the rest).  Each scenario's cold launch is a row of the table
 * too (cmp_launch_drift_add(): the log of startup_ms for the speed),
 * counted in every median but its own and never as a scene of
 * full_sessions(): where the frames sit in gfxinfo's lowest bucket or on
 * a vsync plateau, the scenes' speeds hardly move with the phone and the
 * launches measure it.  A row with one value on both sides
 * (cmp_all_equal(): a scene whose frames all sit in the lowest bucket)
 * measures nothing and counts in no median, nor does a scene whose kept
 * frames sit mostly there (cmp_scene_frames.censored), which measures a
 * fraction of the phone.  That median is an
 * estimate, so it is taken as one: shrunk toward 0 by the spread
 * offsets have between sessions (their variance V over the baseline's
 * sessions), with what is left of its sampling variance (pi/2 times the
 * robust variance of the scenes around their sessions' offsets, pooled
 * over every session, over the number of scenes it had) kept with the
 * values (cmp_sample.off_var), which the test adds to its session's
 * variance.  A session too small to measure its own (full_sessions())
 * and with no full session of its run to be placed against
 * (anchor_sessions()) is left as it was, its offset
 * unknown: it counts what the offsets took away
 * from the kind's session spread (the spread before them less the
 * spread after), so that such a session has the whole spread it had
 * before the offsets, the prior counted once (not once in V and again
 * in the spread left); tonight, where the known sessions stand at the
 * baseline's level, it also counts that level's own draw
 * (unknown_tonight()).  The session spread the tests use is then
 * estimated from the baseline's sessions with their offsets taken off:
 * what a session does to one scene beyond what it does to all of them,
 * which each scenario draws for itself, so that the estimate has the
 * sessions' degrees of freedom once per scenario (scenarios_of()) and
 * the prior, which describes the spread before the offsets, weighs
 * session.prior_runs against (sessions - 1) x scenarios of it.
 *
 * What a session does to every scene, a change of the app does too: a
 * build slower everywhere looks like a slow session.  Tonight's offsets
 * are tested against the baseline's, on the spread V sessions show
 * (offset_test()), and taken for the build's only when every one of
 * tonight's sessions (two or more) stands CMP_PHONE_SHIFT or more from
 * the baseline's level and significantly so; then nothing is taken off,
 * and the session model tests every frame time with the slowdown in it.
 * Below CMP_PHONE_SHIFT an offset is always the phone's (a phone that
 * ages stands a few percent from its window, which the window's sessions
 * rarely show among themselves).  One of tonight's sessions that far off
 * while another is not is left out (drop_outliers()); tonight's only
 * session that far off has its offset taken off and makes the
 * comparison inconclusive (compare.c, phone_unsure()).
 *
 * Frame times take off their scene's offset; launches their launch row's
 * (row o->nf, over every row, when the scenario has none); jank shares,
 * frame rates and dropped frames their slope on the scene's speed times
 * the offset (speed_offsets()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "metrics.h"
#include "stats.h"
#include "xalloc.h"
#include "banned.h"

/* The other scenes a session's offset is measured on, at least. */
#define OFF_MIN_SCENES 3
/*
 * The baseline sessions the offsets' spread needs, at least: with one, the
 * spread is the prior's alone (session.frame_time, as the session model
 * has it on the first nights, compare_session.c), when there is one.
 */
#define OFF_MIN_SESSIONS 1
/* take_off()'s row for values that take no offset off. */
#define NO_OFFSET ((size_t)-1)

struct off_key {
	int run, sess;
};

struct offsets {
	struct off_key *keys;	/* every session of either side */
	size_t nr, alloc;
	bool *full;		/* full[s]: s measured more than
				   OFF_MIN_SCENES scenes: its own offset */
	size_t *anchor;		/* anchor[s]: the full session of the same
				   run s is placed against (anchor_sessions());
				   s itself when full; nr: none */
	double *delta;		/* s less its anchor, the median over the
				   scenes they share */
	size_t nf;		/* scenes, then the scenarios' launches */
	bool *launch;		/* launch[f]: row f is a launch's */
	bool *blind;		/* blind[f]: row f has one value on both
				   sides, or its scene is censored, and
				   measures no session */
	double *d;		/* d[f * nr + s]; NAN: not measured */
	double *off, *var;	/* what is taken off, and its variance */
};

/* The index of session (run, sess); o->nr when it is not one of them. */
static size_t
key_find(const struct offsets *o, int run, int sess)
{
	for (size_t k = 0; k < o->nr; k++)
		if (o->keys[k].run == run && o->keys[k].sess == sess)
			return k;
	return o->nr;
}

/* ... added when new (before the tables are made, deviations()). */
static size_t
key_of(struct offsets *o, int run, int sess)
{
	size_t k = key_find(o, run, sess);

	if (k < o->nr)
		return k;
	XALLOC_GROW(o->keys, o->nr + 1, o->alloc);
	o->keys[o->nr].run = run;
	o->keys[o->nr].sess = sess;
	return o->nr++;
}

/* d(f, s) when row f measures session s; NAN when it does not (the row
 * is blind, or the session has no value in it). */
static double
measured(const struct offsets *o, size_t f, size_t s)
{
	return o->blind[f] ? NAN : o->d[f * o->nr + s];
}

/*
 * Which sessions have their offset measured: those with more than
 * OFF_MIN_SCENES scenes, so that each scene's offset comes from at least
 * that many others.  A gate's later batch runs only the scenarios that
 * looked worse; its scenes still measure the phone in that batch, and
 * leaving its offset unknown set the batch, with the whole of the phone's
 * aging and tonight's drift in it, against a baseline without either,
 * and failed deadline-bound metrics of unchanged nights on the real-phone
 * bench (docs/validation.md).  The price: a scenario slower in every
 * scene, measured again alone, takes its own change for the phone's in
 * that batch; the first look, which ran every scenario, still shows it
 * (docs/method.md, step 3).  Its rows must measure, too: more than
 * OFF_MIN_SCENES of them not blind (launches counted).  A batch of one
 * scenario whose scenes are all censored has its launch alone; counted
 * full, it had no offset (median_of() finds too few rows) and no anchor,
 * and its launch carried the whole of tonight's offset.
 */
static void
full_sessions(struct offsets *o)
{
	o->full = xcalloc(o->nr + 1, sizeof(*o->full));
	for (size_t s = 0; s < o->nr; s++) {
		size_t scenes = 0, rows = 0;

		for (size_t f = 0; f < o->nf; f++) {
			if (!isfinite(o->d[f * o->nr + s]))
				continue;
			scenes += !o->launch[f];
			rows += isfinite(measured(o, f, s));
		}
		o->full[s] = scenes > OFF_MIN_SCENES && rows > OFF_MIN_SCENES;
	}
}

/*
 * The median over the rows sessions s and r share, but `skip` (none:
 * o->nf), of d(g, s) - d(g, r), into *med; the number of rows it was
 * taken over is returned (0: none).
 */
static size_t
anchor_delta(double *med, const struct offsets *o, size_t s, size_t r,
    size_t skip, double *buf)
{
	size_t n = 0;

	for (size_t f = 0; f < o->nf; f++) {
		double a = measured(o, f, s), b = measured(o, f, r);

		if (f != skip && isfinite(a) && isfinite(b))
			buf[n++] = a - b;
	}
	if (!n || stats_quantile(med, buf, n, 0.5))
		return 0;
	return n;
}

/*
 * A session too small to place by itself (a gate's later batch: the few
 * scenarios that looked worse) is placed against a full session of the
 * same run: both measured the same build, so whatever the build changed
 * in a scene is in both and cancels in d(g, s) - d(g, r), which leaves
 * what the two sessions did to the phone.  The batch's offset is then its
 * anchor's plus the median of those differences over the scenes they
 * share, and its variance the anchor's plus the difference's (twice the
 * scenes' residual variance over their number, step 3.1).  Each row's
 * median leaves the row out, as a full session's does (offset_table()):
 * a batch of one scenario shares a handful of rows with its anchor, and
 * its launch, measured again because it looked slow in the anchor,
 * counted in its own difference and carried that chance into every
 * later batch, on unchanged nights of the bench's phone with frames half
 * as long (docs/validation.md).  Left unplaced, a batch carried the whole
 * of its session's drift against the baseline: on the real-phone bench
 * (heavy tails) most of the unchanged nights that failed at 90 and 120
 * Hz failed in such a batch.  The anchor is the full session sharing the
 * most scenes with it, the later of two that share as many; `delta` is
 * the difference over every row, which the night's offset test reads
 * (NAN when they share no row that measures: the test leaves the batch
 * out, offset_table() places it where its anchor stands).
 */
static void
anchor_sessions(struct offsets *o, double *buf)
{
	o->anchor = xcalloc(o->nr + 1, sizeof(*o->anchor));
	o->delta = xcalloc(o->nr + 1, sizeof(*o->delta));
	for (size_t s = 0; s < o->nr; s++) {
		size_t best = 0;

		o->anchor[s] = o->full[s] ? s : o->nr;
		if (o->full[s])
			continue;
		for (size_t r = 0; r < o->nr; r++) {
			size_t n = 0;

			if (!o->full[r] || o->keys[r].run != o->keys[s].run)
				continue;
			for (size_t f = 0; f < o->nf; f++)
				n += isfinite(o->d[f * o->nr + s]) &&
				    isfinite(o->d[f * o->nr + r]);
			if (n && n >= best) {
				best = n;
				o->anchor[s] = r;
			}
		}
		if (o->anchor[s] == o->nr)
			continue;
		if (!anchor_delta(&o->delta[s], o, s, o->anchor[s], o->nf,
		    buf))
			o->delta[s] = NAN;
	}
}

/* d(f, s) for every scene and session. */
static void
deviations(struct offsets *o, const struct cmp_ctx *x)
{
	struct cmp_sessions gb = { 0 }, gc = { 0 };

	o->nf = x->nr_frames;
	for (size_t f = 0; f < x->nr_frames; f++) {
		const struct cmp_pending *p = &x->frames[f].p;

		for (size_t i = 0; i < p->b.n; i++)
			(void)key_of(o, p->b.run[i], p->b.sess[i]);
		for (size_t i = 0; i < p->cu.n; i++)
			(void)key_of(o, p->cu.run[i], p->cu.sess[i]);
	}
	o->d = xcalloc(o->nf * o->nr + 1, sizeof(*o->d));
	o->launch = xcalloc(o->nf + 1, sizeof(*o->launch));
	o->blind = xcalloc(o->nf + 1, sizeof(*o->blind));
	for (size_t f = 0; f < o->nf; f++) {
		o->launch[f] = !x->frames[f].scene;
		o->blind[f] = x->frames[f].censored ||
		    cmp_all_equal(&x->frames[f].p.b, &x->frames[f].p.cu);
	}
	/* Row nf: the session's offset over every row (the launches of a
	 * scenario without a launch row of its own). */
	o->off = xcalloc((o->nf + 1) * o->nr + 1, sizeof(*o->off));
	o->var = xcalloc((o->nf + 1) * o->nr + 1, sizeof(*o->var));
	for (size_t k = 0; k < o->nf * o->nr; k++)
		o->d[k] = NAN;
	for (size_t f = 0; f < x->nr_frames; f++) {
		const struct cmp_pending *p = &x->frames[f].p;
		double level = 0;

		if (!p->b.n || !cmp_use_log(p))
			continue;
		cmp_group(&gb, &p->b, true, NULL);
		cmp_group(&gc, &p->cu, true, NULL);
		for (size_t k = 0; k < gb.nr; k++)
			level += gb.s[k].mean;
		level /= (double)gb.nr;
		for (size_t k = 0; k < gb.nr; k++)
			o->d[f * o->nr + key_find(o, gb.s[k].run,
			    gb.s[k].sess)] = gb.s[k].mean - level;
		for (size_t k = 0; k < gc.nr; k++)
			o->d[f * o->nr + key_find(o, gc.s[k].run,
			    gc.s[k].sess)] = gc.s[k].mean - level;
	}
	free(gb.s);
	free(gc.s);
	full_sessions(o);
}

/*
 * The median of session s's deviations over its scenes but `skip` (none:
 * o->nf); the number of scenes it was measured on is returned.
 */
static size_t
median_of(double *med, const struct offsets *o, size_t s, size_t skip,
    double *buf)
{
	size_t n = 0;

	for (size_t f = 0; f < o->nf; f++)
		if (f != skip && isfinite(measured(o, f, s)))
			buf[n++] = measured(o, f, s);
	*med = NAN;
	if (!n || stats_quantile(med, buf, n, 0.5))
		return 0;
	return n;
}

/*
 * How far a scene's deviation strays from its session's offset, as a
 * robust variance (1.4826 times the median absolute residual, squared)
 * pooled over every session that has an offset (`off`, NAN: none): the
 * sampling variance of a median of n deviations is pi/2 times it over n.
 * One pool, not each session's own: a session measured on four scenes
 * would otherwise take its spread from four values.
 */
static double
residual_variance(const struct offsets *o, const double *off)
{
	double *r = xcalloc(o->nf * o->nr + 1, sizeof(*r)), mad = NAN;
	size_t n = 0;

	for (size_t s = 0; s < o->nr; s++)
		for (size_t f = 0; o->full[s] && isfinite(off[s]) &&
		    f < o->nf; f++)
			if (isfinite(measured(o, f, s)))
				r[n++] = fabs(measured(o, f, s) - off[s]);
	if (n)
		(void)stats_quantile(&mad, r, n, 0.5);
	free(r);
	return isfinite(mad) ? (1.4826 * mad) * (1.4826 * mad) : 0;
}

/*
 * The frame-time kind's session variance as the scenes' mean frames show
 * it now, as cmp_estimate_kinds() will.  Before any offset is taken off,
 * the jank kind's speed prior reads it, since jank shares keep what a
 * session does to them (above); before and after, it tells what the
 * offsets took away.  `units`: the cmp_kind_acc.units it is estimated
 * with (0 before the offsets, x->off_units after).
 */
static double
raw_spread(const struct cmp_ctx *x, size_t units)
{
	struct cmp_kind_acc acc;
	struct cmp_session_kind sk;

	memset(&acc, 0, sizeof(acc));
	acc.units = (double)units;
	for (size_t f = 0; f < x->nr_frames; f++) {
		struct cmp_pending in = x->frames[f].p;

		if (!in.b.n || !x->frames[f].scene)
			continue;
		memset(&in.cu, 0, sizeof(in.cu));
		cmp_kind_add(&acc, &in);
	}
	cmp_kind_finish(&sk, &acc, METRIC_KIND_FRAME_TIME,
	    x->o->session_prior[METRIC_KIND_FRAME_TIME], x->o->prior_runs);
	return sk.used * sk.used;
}

/*
 * The scenarios whose scenes the spread left is estimated on: what a
 * session does to one scene beyond what it does to all of them is drawn
 * for each scenario apart (scenes of one scenario may share it: the
 * scenario's own state in that session), so with two baseline sessions
 * of ten scenarios the spread left has ten degrees of freedom, not one,
 * and the prior, which says how far a phone's sessions move every scene,
 * weighs one run against those ten where it weighed one against one.
 */
static size_t
scenarios_of(const struct cmp_ctx *x)
{
	size_t n = 0;

	for (size_t f = 0; f < x->nr_frames; f++) {
		size_t g = 0;

		if (!x->frames[f].p.b.n)
			continue;
		while (g < f && (!x->frames[g].p.b.n ||
		    strcmp(x->frames[g].scenario, x->frames[f].scenario)))
			g++;
		n += g == f;
	}
	return n;
}

/*
 * Take scene f's offsets off the values of `sm`, each by its session's;
 * a session whose offset was not measured (the table's NAN), or any
 * session when f is o->nf (values the log scale cannot take), keeps its
 * values, its offset the variance `unknown`.  Returns the sum of what
 * was taken off.
 */
static double
take_off(struct cmp_sample *sm, const struct offsets *o, size_t f,
    double unknown)
{
	double sum = 0;

	for (size_t k = 0; k < sm->n; k++) {
		size_t s = f <= o->nf ? key_find(o, sm->run[k], sm->sess[k]) :
		    o->nr;

		if (s == o->nr || isnan(o->var[f * o->nr + s])) {
			sm->off_var[k] = unknown;
			continue;
		}
		sm->v[k] *= exp(-o->off[f * o->nr + s]);
		sm->off_var[k] = o->var[f * o->nr + s];
		sum += o->off[f * o->nr + s];
	}
	return sum;
}

/* The sessions of `g` whose offset scene f cannot take off (take_off()'s
 * unknown ones). */
static size_t
unknown_sessions(const struct cmp_sessions *g, const struct offsets *o,
    size_t f)
{
	size_t unknown = 0;

	for (size_t k = 0; k < g->nr; k++) {
		size_t s = key_find(o, g->s[k].run, g->s[k].sess);

		unknown += s == o->nr || isnan(o->var[f * o->nr + s]);
	}
	return unknown;
}

/*
 * The variance an unknown offset counts in tonight's sample of scene f.
 * A known offset sets its session where the baseline's sessions stand on
 * average (their level), so that what the baseline's few sessions drew in
 * common cancels between the sides; a session left as it was keeps its
 * own draw and is set against that common one, whose variance is the
 * offsets' share of the spread over the nb sessions of the level.  Spread
 * over the U unknown sessions of the side (equal among themselves, they
 * weigh alike), each carries U times that on top of its own: with 3
 * baseline sessions a later batch alone would otherwise count a third of
 * the offsets' share too little, and with 40 a fortieth.
 */
static double
unknown_tonight(const struct cmp_pending *p, const struct offsets *o,
    size_t f, double unknown)
{
	struct cmp_sessions gb = { 0 }, gc = { 0 };
	double v = unknown;

	if (f > o->nf)
		return unknown;	/* nothing taken off either side */
	cmp_group(&gb, &p->b, true, NULL);
	cmp_group(&gc, &p->cu, true, NULL);
	if (gb.nr)
		v *= 1 + (double)unknown_sessions(&gc, o, f) / (double)gb.nr;
	free(gb.s);
	free(gc.s);
	return v;
}

/*
 * How far worse tonight's sessions may stand from the baseline's before
 * nothing is taken off: what the session model calls worth measuring
 * again at a look before the last (cmp_promise()), so that a build slower
 * everywhere keeps the looks it had before the offsets; at the last look,
 * or a single one, the comparison's alpha.
 */
static double
worse_level(const struct compare_opts *o)
{
	if (o->looks > 1 && !o->last)
		return cmp_promise(o->look, o->looks, o->interleaved);
	return o->alpha * o->share;
}

/*
 * Tonight's sessions against the baseline's, by their offsets over all
 * their scenes (all[s]; NAN: too few scenes): into sk, the difference of
 * their means, the spread a session's offset has (its variance, with the
 * prior weighted as the kind's spread is: compare_session.c) and the
 * one-sided p of the side it points to.  Returns that variance, or NAN
 * when there are too few sessions to tell (nothing is taken off then).
 */
static double
offset_test(struct cmp_session_kind *sk, const struct offsets *o,
    const double *all, const struct compare_opts *opt, bool *unsure,
    bool *base_unsure)
{
	double v0 = opt->session_prior[METRIC_KIND_FRAME_TIME];
	double w = opt->prior_runs, sb = 0, sb2 = 0, sc = 0, nb = 0, nc = 0;
	double vv, df, t, level, least = INFINITY;
	bool far, beyond;

	for (size_t s = 0; s < o->nr; s++) {
		if (!isfinite(all[s]))
			continue;
		if (o->keys[s].run >= 0) {
			sb += all[s];
			sb2 += all[s] * all[s];
			nb++;
		} else {
			sc += all[s];
			nc++;
		}
	}
	if (nb < OFF_MIN_SESSIONS || !nc || (nb < 2 && !(w > 0 && v0 > 0)))
		return NAN;
	vv = nb > 1 ? fmax((sb2 - sb * sb / nb) / (nb - 1), 0) : 0;
	df = nb < 2 ? INFINITY : w > 0 ? (w + nb - 1) * (w + nb - 1) /
	    (nb - 1) : nb - 1;
	vv = w > 0 ? (w * v0 * v0 + (nb - 1) * vv) / (w + nb - 1) : vv;
	sk->offset = sc / nc - sb / nb;
	sk->offset_sd = sqrt(vv);
	t = vv > 0 ? sk->offset / sqrt(vv * (1 / nc + 1 / nb)) :
	    sk->offset > 0 ? INFINITY : sk->offset < 0 ? -INFINITY : 0;
	sk->offset_p = stats_t_sf(fabs(t), df);
	/* How far the least moved of tonight's sessions stands. */
	for (size_t s = 0; s < o->nr; s++)
		if (isfinite(all[s]) && o->keys[s].run < 0)
			least = fmin(least, fabs(all[s] - sb / nb));
	level = t > 0 ? worse_level(opt) : opt->alpha * opt->share;
	far = least >= CMP_PHONE_SHIFT && sk->offset_p <= level;
	/* One session tonight is one draw of the heavy tails. */
	if (nc < 2)
		far &= stats_t_sf(fabs(t), fmin(df, CMP_TAIL_DF)) <= level;
	/*
	 * A build slower everywhere is slower in every session; a phone's
	 * bad session (heavy tails: now and then one far off) is one.
	 * So every one of two or more sessions tonight that far off is the
	 * build's (nothing is taken off), but with one baseline session
	 * that session may be the odd one, and the spread is the prior's
	 * alone (on the real-phone bench's first nights, tonight's sessions
	 * far from the baseline's one were taken for the build's and failed
	 * unchanged nights: docs/method.md, step 3).  One session tonight
	 * cannot tell them apart: the offset is taken off, and the comparison
	 * asks for another session of every scenario (*unsure).  Nor can one
	 * in the baseline, which more sessions tonight do not help: the
	 * offset is taken off, and what it moves without measuring it (a
	 * regression of a deadline-bound share, a rate, a time at this look)
	 * is left undecided (*base_unsure).
	 */
	beyond = far && nb >= 2;
	*unsure = beyond && nc < 2 && t > 0;
	*base_unsure = far && nb < 2 && t > 0;
	sk->offset_on = !beyond || nc < 2;
	return vv;
}

/*
 * An offset `*m` measured with variance `var`, shrunk toward none by
 * what sessions do (their spread's variance `vv`), and the variance left
 * in `*v`.  Sessions have heavy tails: most close to the phone's level,
 * now and then one far off.  A normal prior of the usual spread would
 * take off only a part of such a one (at 120 Hz, where the scenes' mean
 * frames stray widely from their session's, a launch took off less than
 * half of one) and fail every metric with the rest; so the prior's
 * variance is at least what this offset shows beyond its own noise:
 * an offset far beyond its noise is taken off whole, a small one is
 * shrunk as before (docs/method.md, step 3.1).
 */
static void
shrink(double *m, double *v, double vv, double var)
{
	vv = fmax(vv, *m * *m - var);
	*m *= vv + var > 0 ? vv / (vv + var) : 0;
	*v = vv + var > 0 ? vv * var / (vv + var) : 0;
}

/*
 * What each scene's values take off in each session, and its variance
 * (NAN: not measured, take_off()): a full session's from its own scenes,
 * shrunk toward none by what sessions do (vv); then a session placed
 * against a full one (anchor_sessions()), its anchor's plus their
 * difference, shrunk by what two sessions do.  With no row but f's to
 * measure that difference by (a batch of one scenario whose scenes sit
 * in the lowest bucket: its launch alone), the difference is the
 * shrinkage's with nothing measured, none, with two sessions' spread
 * as its variance: the batch stands where its anchor stands.  Left
 * unmeasured, its launch kept the whole of tonight's offset, against a
 * spread the scenes, which hardly move, had measured small (the bench's
 * phone with frames half as long, docs/validation.md).
 */
static void
offset_table(struct offsets *o, const double *all, double vv)
{
	double *buf = xcalloc(o->nf + 1, sizeof(*buf));
	double vr = residual_variance(o, all);

	for (size_t f = 0; f <= o->nf; f++)
		for (size_t s = 0; s < o->nr; s++) {
			size_t at = f * o->nr + s;
			size_t n = median_of(&o->off[at], o, s, f, buf);
			double var;

			if (n < OFF_MIN_SCENES || !o->full[s]) {
				o->off[at] = 0;
				o->var[at] = NAN;	/* not measured */
				continue;
			}
			var = M_PI / 2 * vr / (double)n;
			shrink(&o->off[at], &o->var[at], vv, var);
		}
	for (size_t s = 0; s < o->nr; s++) {
		size_t r = o->anchor[s];

		if (r == s || r == o->nr)
			continue;
		for (size_t f = 0; f <= o->nf; f++) {
			size_t at = f * o->nr + s, ar = f * o->nr + r;
			size_t n = anchor_delta(&o->off[at], o, s, r, f, buf);
			double var = 2 * vv;

			if (isnan(o->var[ar])) {
				o->off[at] = 0;
				o->var[at] = NAN;	/* not measured */
				continue;
			}
			if (!n)
				o->off[at] = 0;
			else
				shrink(&o->off[at], &var, 2 * vv,
				    2 * vr / (double)n);
			o->off[at] += o->off[ar];
			o->var[at] = o->var[ar] + var;
		}
	}
	free(buf);
}

/*
 * The row of the scene entry `e` is measured in, or of its scenario's
 * launch for a scenario entry; o->nf when it has none.
 */
static size_t
scene_of(const struct cmp_ctx *x, const struct cmp_entry *e)
{
	for (size_t f = 0; f < x->nr_frames; f++)
		if (!(e->scene && x->frames[f].scene ?
		    strcmp(x->frames[f].scene, e->scene) :
		    e->scene || x->frames[f].scene) &&
		    !strcmp(x->frames[f].scenario, e->scenario))
			return f;
	return x->nr_frames;
}

/*
 * What value k of `sm` (a jank-kind entry's) reads at `off` less speed,
 * through its scene's histogram: *delta what the session's offset `off`
 * added to it (the histogram's proxy at the session's speed less at the
 * baseline's, metric_jank_scaled()), *dvar that correction's variance:
 * the offset's own (`var`, through the proxy's slope over one standard
 * error of it either side) and the proxy's, as large as what it takes
 * back (CMP_SLOPE_ERROR: gfxinfo counts janky frames by its own
 * deadlines, and frames that wait for a vsync do not all move with the
 * work).  False without a histogram or a display period, or for a
 * metric metric_jank_scaled() does not read.
 */
static bool
through_histogram(const struct cmp_ctx *x, const struct cmp_pending *p,
    const struct cmp_sample *sm, size_t k, double off, double var,
    double *delta, double *dvar)
{
	const struct rs_scene *sn = sm->scene[k];
	double now, then, up, down, h = fmax(sqrt(var), CMP_SPEED_STEP);

	if (!sn || !isfinite(x->vsync_ms) ||
	    metric_jank_scaled(p->metric, sn, x->vsync_ms, 1, &now) ||
	    metric_jank_scaled(p->metric, sn, x->vsync_ms, exp(-off), &then) ||
	    metric_jank_scaled(p->metric, sn, x->vsync_ms, exp(-off - h),
	    &down) ||
	    metric_jank_scaled(p->metric, sn, x->vsync_ms, exp(-off + h), &up))
		return false;
	*delta = now - then;
	*dvar = (up - down) * (up - down) / (4 * h * h) * var +
	    CMP_SLOPE_ERROR * CMP_SLOPE_ERROR * *delta * *delta;
	return true;
}

/*
 * A jank share, a frame rate or a count of dropped frames moves with its
 * scene's speed, so a session's offset moves it too (docs/method.md,
 * step 3): each value is taken back by the entry's slope on its scene's
 * speed (cmp_speed_slope()) times its session's offset, counting the
 * slope squared times the offset's variance and as much again as it takes
 * back.  The slope is a line fitted over the few percent of speed the
 * iterations of a session differ by, and a share past a deadline is
 * convex in the speed: an offset beyond CMP_SLOPE_SPAN of those speeds'
 * standard deviations is taken back by what the value's own histogram
 * reads at the baseline's speed (through_histogram()) where it can be
 * read.  A session not measured counts what an unknown offset would move
 * the value by (unknown_tonight() on tonight's side).  Only when every
 * session of tonight has its offset measured (the first look, or a single
 * run): a gate's later batch, a few scenarios of a session, has none, and
 * a slope fitted over the whole spread of iterations set such a batch
 * against a baseline taken back by it and raised false alarms under a
 * trend, several times their target (make bench; NEWS: the method's
 * history, step 3).
 */
static void
speed_offsets(struct cmp_ctx *x, const struct offsets *o, double unknown)
{
	for (size_t s = 0; s < o->nr; s++)
		if (o->keys[s].run < 0 && o->anchor[s] == o->nr)
			return;
	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *p = &x->pend[i];
		size_t f;
		double beta, span, ut;
		bool moved = false;

		if (p->metric->kind != METRIC_KIND_JANK || p->degenerate ||
		    p->explain)
			continue;
		f = scene_of(x, &x->c->entries[p->entry]);
		if (f >= o->nf || o->launch[f])
			continue;
		beta = cmp_speed_slope(p, NULL, &span);
		ut = unknown_tonight(p, o, f, unknown);
		for (int side = 0; side < 2; side++) {
			struct cmp_sample *sm = side ? &p->cu : &p->b;
			double sum = 0, d, dv;

			for (size_t k = 0; k < sm->n; k++) {
				size_t at = key_find(o, sm->run[k],
				    sm->sess[k]);
				double off, var;

				if (at == o->nr ||
				    isnan(o->var[f * o->nr + at])) {
					var = side ? ut : unknown;
					sm->off_var[k] = beta * beta * var;
					continue;
				}
				off = o->off[f * o->nr + at];
				var = o->var[f * o->nr + at];
				if (fabs(off) > CMP_SLOPE_SPAN * span &&
				    through_histogram(x, p, sm, k, off, var,
				    &d, &dv)) {
					moved = true;
				} else {
					/* The offset's own error, and the
					 * slope's: a line through a few
					 * percent of speed, taken out to
					 * tonight's offset. */
					d = beta * off;
					dv = beta * beta * (var +
					    CMP_SLOPE_ERROR *
					    CMP_SLOPE_ERROR * off * off);
					moved |= beta != 0;
				}
				sm->v[k] -= d;
				sum += d;
				sm->off_var[k] = dv;
			}
			/* What tonight's values were taken back by, in unit
			 * (the report's "taken back by"). */
			if (side && sm->n)
				x->c->entries[p->entry].offset =
				    sum / (double)sm->n;
		}
		p->speed_off = moved;
	}
}

/* Take tonight's session `sess` out of `sm`. */
static void
drop_session(struct cmp_sample *sm, int sess)
{
	size_t n = 0;

	for (size_t k = 0; k < sm->n; k++) {
		if (sm->run[k] < 0 && sm->sess[k] == sess)
			continue;
		sm->v[n] = sm->v[k];
		sm->run[n] = sm->run[k];
		sm->sess[n] = sm->sess[k];
		sm->speed[n] = sm->speed[k];
		sm->speed_var[n] = sm->speed_var[k];
		sm->off_var[n] = sm->off_var[k];
		sm->scene[n] = sm->scene[k];
		n++;
	}
	sm->n = n;
}

/*
 * One of tonight's sessions that stands CMP_PHONE_SHIFT or more from the
 * baseline's level in every scene while another of tonight's does not is
 * the phone's (a thermal state, an update in the background: heavy tails
 * draw one now and then), not the build's, which every session shows: its
 * values are left out of every metric, with a warning, and the sessions
 * left decide (docs/method.md, step 3).  Taking such an offset off by
 * the slopes fitted on a few percent of speed overshot the jank shares by
 * tens of points.
 */
static void
drop_outliers(struct cmp_ctx *x, const struct offsets *o, double *all)
{
	double level = 0, nb = 0;
	bool usual = false;

	for (size_t s = 0; s < o->nr; s++)
		if (isfinite(all[s]) && o->keys[s].run >= 0) {
			level += all[s];
			nb++;
		}
	if (!nb)
		return;
	level /= nb;
	for (size_t s = 0; s < o->nr; s++)
		usual |= isfinite(all[s]) && o->keys[s].run < 0 &&
		    fabs(all[s] - level) < CMP_PHONE_SHIFT;
	if (!usual)
		return;
	for (size_t s = 0; s < o->nr; s++) {
		if (!isfinite(all[s]) || o->keys[s].run >= 0 ||
		    fabs(all[s] - level) < CMP_PHONE_SHIFT)
			continue;
		strlist_addf(&x->c->warnings, "session %d of the current run "
		    "drew every scene %.0f %% %s than the baseline's and than "
		    "another session tonight: the phone's, left out",
		    o->keys[s].sess + 1, 100 * fabs(expm1(all[s] - level)),
		    all[s] > level ? "slower" : "faster");
		for (size_t i = 0; i < x->nr_pend; i++)
			drop_session(&x->pend[i].cu, o->keys[s].sess);
		for (size_t f = 0; f < x->nr_frames; f++)
			drop_session(&x->frames[f].p.cu, o->keys[s].sess);
		all[s] = NAN;
	}
}

void
cmp_session_offsets(struct cmp_ctx *x)
{
	struct offsets o = { 0 };
	double *buf, *all, vv, raw, unknown;

	if (!x->o->offsets || x->o->interleaved || !x->nr_frames)
		return;
	deviations(&o, x);
	buf = xcalloc(o.nf + 1, sizeof(*buf));
	all = xcalloc(o.nr + 1, sizeof(*all));
	/* Each session's offset over all its scenes, for the test. */
	for (size_t s = 0; s < o.nr; s++)
		if (!o.full[s] ||
		    median_of(&all[s], &o, s, o.nf, buf) < OFF_MIN_SCENES)
			all[s] = NAN;
	/* ... and a session placed against a full one, its anchor's plus
	 * their difference: one that far from the rest is dropped too. */
	anchor_sessions(&o, buf);
	for (size_t s = 0; s < o.nr; s++)
		if (o.anchor[s] != s && o.anchor[s] != o.nr)
			all[s] = all[o.anchor[s]] + o.delta[s];	/* NAN: none */
	drop_outliers(x, &o, all);
	vv = offset_test(&x->c->kinds[METRIC_KIND_FRAME_TIME], &o, all, x->o,
	    &x->phone_unsure, &x->base_unsure);
	if (isnan(vv) || !x->c->kinds[METRIC_KIND_FRAME_TIME].offset_on)
		goto out;
	offset_table(&o, all, vv);
	raw = x->speed_vb = raw_spread(x, 0);
	x->off_units = scenarios_of(x);
	/* The scenes' mean frames first: the spread left is theirs (their
	 * off_var is never read, only their values). */
	for (size_t f = 0; f < o.nf; f++) {
		(void)take_off(&x->frames[f].p.b, &o, f, 0);
		(void)take_off(&x->frames[f].p.cu, &o, f, 0);
	}
	/* What the offsets took away from the kind's session spread: a
	 * value whose offset is not measured counts that much as unknown,
	 * the whole spread it had before with what is left (the prior
	 * counted once, not as a spread of offsets and a spread left). */
	unknown = fmax(raw - raw_spread(x, x->off_units), 0);
	for (size_t i = 0; i < x->nr_pend; i++) {
		struct cmp_pending *p = &x->pend[i];
		struct cmp_entry *e = p->explain ? &x->c->explains[p->entry] :
		    &x->c->entries[p->entry];
		size_t f = scene_of(x, e);

		if (p->degenerate)
			continue;
		/* A launch takes off its session's offset over all its
		 * scenes and the other scenarios' launches (its own row's):
		 * the phone that draws slower launches it slower. */
		if (p->metric->kind == METRIC_KIND_LAUNCH)
			f = f < o.nf && o.launch[f] ? f : o.nf;
		else if (p->metric->kind != METRIC_KIND_FRAME_TIME)
			continue;
		else if (f == o.nf || o.launch[f])
			f = NO_OFFSET;
		/* Values the log scale cannot take keep all their offset as
		 * variance: tested, like the rest, on what is left of it. */
		if (!cmp_use_log(p))
			f = NO_OFFSET;
		(void)take_off(&p->b, &o, f, unknown);
		e->offset = take_off(&p->cu, &o, f,
		    unknown_tonight(p, &o, f, unknown));
		e->offset = p->cu.n ? e->base.median *
		    expm1(e->offset / (double)p->cu.n) : 0;
	}
	speed_offsets(x, &o, unknown);
out:
	free(buf);
	free(all);
	free(o.keys);
	free(o.full);
	free(o.anchor);
	free(o.delta);
	free(o.d);
	free(o.launch);
	free(o.blind);
	free(o.off);
	free(o.var);
}
