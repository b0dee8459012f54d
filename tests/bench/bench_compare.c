/*
 * bench_compare.c: how often `jankgate compare` cries wolf, how often it
 * catches a real regression, and how often it cannot decide, on synthetic
 * nightly runs.
 *
 * Each simulated night is one device running the same app: 10 scenarios,
 * each a cold launch followed by 5 scenes, so 10 x (5 launch metrics + 5 x
 * 11 scene metrics) = 600 metrics.  The baseline is 5 earlier runs of 5
 * iterations (plus a warm-up each, which compare must ignore), 25 values
 * per metric, a window that slides by one run a night.  Every run is built
 * as a real `struct results` and goes through compare_run(), so the sample
 * assembly, the metric derivation, the test, the correction and the
 * verdict rules are the ones `jankgate compare` and `gate` use.
 *
 * Each night is judged three ways on the same data:
 *
 *   compare  one look at 5 current iterations at the whole alpha, as
 *            `jankgate compare` does;
 *   gate     as `jankgate gate` does (harness/gate.h): look 1 at 5
 *            iterations; while the night is inconclusive without a
 *            regression, the undecided scenarios (an inconclusive entry)
 *            get 5 more iterations and the run is compared again, up to
 *            max_iterations 15, i.e. at most 3 looks, look k at alpha_k of
 *            compare_look_alpha() (--spending; gate.h uses alpha / 3);
 *   naive    a metric alarms when its median over 5 current iterations
 *            moved by more than 5 % the worse way from the baseline's.
 *
 * The noise model is the simulated phone's (tests/simdevice, framegen.c):
 *
 *   - The app is fixed (seeded): per scene a frame-time distribution,
 *     lognormal with a median of 5-14 ms and sigma 0.15-0.35, plus spikes
 *     (GC, inflation) of 15-40 ms with probability 0-3 %, and 100-700
 *     frames per iteration at 90 Hz (shop-v1's feed scene: 650 frames,
 *     median 9 ms, sigma 0.28, 2 % spikes of 22 ms); 40 % of scenes have
 *     main-thread blocks (Poisson, 0.1-1 per iteration, lognormal walls
 *     around 150-600 ms).  Frames are drawn independently, as framegen
 *     draws them, so a scene's per-iteration spread is sampling noise
 *     seen through gfxinfo's buckets.
 *   - A cold launch scales every launch number by one lognormal factor
 *     with sigma 0.08 (the phone's startup.sigma), around 600-1200 ms.
 *
 * and `harsh` adds what a real phone adds on top: a per-iteration device
 * speed factor exp(N(0, 0.03)) on every frame and launch (DVFS, thermal
 * state), 5 % outlier iterations slowed by 15-40 % with twice the spikes,
 * and a per-run drift exp(N(0, 0.01)) that makes the iterations of one run
 * alike, which the test's exchangeability assumption does not know about
 * (A/A is also run without the drift, to show what it costs).
 *
 * Frame metrics are derived the way gfxinfo derives them: 1/2/4 ms
 * histogram buckets and its percentile rule (so p90 is a whole number of
 * ms and ties are common), janky = missed the 11.1 ms deadline, slow =
 * over 16 ms, dropped = vsyncs missed, fps = frames rendered in the
 * scene's window.  Launch times are whole ms as `am start -W` prints them.
 *
 * A/A: nights where nothing changed: the share with ANY regression verdict
 * among the 600 metrics (target <= 1 %), the share the gate had to look at
 * again and the share still inconclusive at its last look (exit 4), per
 * metric too, and the per-iteration spread next to the thresholds.
 * A/B: one metric (the first scene's frame_p90_ms, then the first
 * scenario's startup_ms) shifted by k x its per-iteration IQR in the
 * current run only; the share of nights where that metric is called a
 * regression (target >= 90 % at 1.5 IQR with 5 iterations).
 *
 * Nights run on two threads, each with its own seeded stream, so the
 * figures are the same on every machine for a given seed and --nights.
 *
 * Usage: bench-compare [--nights N] [--seed S] [--alpha A]
 *                      [--spending pocock|equal]; prints its figures.
 */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "error.h"
#include "metrics.h"
#include "results.h"
#include "stats.h"
#include "strbuf.h"
#include "xalloc.h"

#define NR_SCENARIOS 10
#define NR_SCENES 5
#define BASE_RUNS 5
#define ITERATIONS 5
#define MAX_ITERATIONS 15
#define LOOKS (MAX_ITERATIONS / ITERATIONS)
#define NR_METRICS 16
#define THREADS 2
#define PERIOD_MS (1000.0 / 90)
#define NAIVE_LIMIT 0.05

struct scene_model {
	double median, sigma, spike_p, spike_ms;
	int frames;
	double block_rate, block_ms;
};

struct scenario_model {
	double cold_ms, app_ms, activity_ms, drawn_ms;
	struct scene_model scenes[NR_SCENES];
};

struct app_model {
	struct scenario_model sc[NR_SCENARIOS];
};

/* What the current run changes: `amount` added to one metric's values. */
struct shift {
	const char *metric;
	int scenario, scene;	/* scene -1: a launch metric */
	double amount;
};

struct noise {
	const char *name;
	double launch_sd;	/* per launch, every launch number */
	double iter_sd;		/* per iteration, everything */
	double outlier_p;
	double run_sd;		/* per run, everything */
};

static const struct noise phone_noise = { "phone", 0.08, 0, 0, 0 };
static const struct noise harsh_noise = { "harsh", 0.08, 0.03, 0.05, 0.01 };

/* How the nights are judged (the command line). */
struct setup {
	double alpha;
	enum cmp_spending spending;
	double noise;
};

static double
uniform(struct stats_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * stats_rng_uniform(r);
}

static double
lognormal(struct stats_rng *r, double median, double sigma)
{
	return median * exp(stats_rng_normal(r, 0, sigma));
}

static int
poisson(struct stats_rng *r, double lambda)
{
	double l = exp(-lambda), p = 1;
	int k = 0;

	do {
		k++;
		p *= stats_rng_uniform(r);
	} while (p > l);
	return k - 1;
}

static void
app_init(struct app_model *app, uint64_t seed)
{
	struct stats_rng r;

	stats_rng_init(&r, seed);
	for (int i = 0; i < NR_SCENARIOS; i++) {
		struct scenario_model *s = &app->sc[i];

		s->cold_ms = uniform(&r, 600, 1200);
		s->app_ms = uniform(&r, 150, 350);
		s->activity_ms = uniform(&r, 250, 500);
		s->drawn_ms = uniform(&r, 300, 800);
		for (int j = 0; j < NR_SCENES; j++) {
			struct scene_model *m = &s->scenes[j];

			m->median = uniform(&r, 5, 14);
			m->sigma = uniform(&r, 0.15, 0.35);
			m->spike_p = uniform(&r, 0, 0.03);
			m->spike_ms = uniform(&r, 15, 40);
			m->frames = (int)uniform(&r, 100, 700);
			m->block_rate = stats_rng_uniform(&r) < 0.4 ?
			    uniform(&r, 0.1, 1) : 0;
			m->block_ms = uniform(&r, 150, 600);
		}
	}
}

/* gfxinfo's bucket label for a frame of `ms` whole milliseconds. */
static uint32_t
bucket_of(double ms)
{
	long x = (long)ms;

	if (x <= 5)
		return 5;
	if (x <= 32)
		return (uint32_t)x;
	if (x <= 48)
		return (uint32_t)(x - x % 2);
	if (x <= 52)
		return 48;
	if (x <= 135)
		return (uint32_t)(53 + (x - 53) / 4 * 4);
	return (uint32_t)(x < 150 ? 150 : 150 + (x - 150) / 50 * 50);
}

static void
gen_scene(struct rs_scene *sc, const struct scene_model *m, double f,
    int outlier, struct stats_rng *r)
{
	static const int pct[] = { 50, 90, 95, 99 };
	double *out[] = { &sc->frames.p50_ms, &sc->frames.p90_ms,
		&sc->frames.p95_ms, &sc->frames.p99_ms };
	double window = m->frames * PERIOD_MS, t = 0;
	double spike_p = m->spike_p * (outlier ? 2 : 1);
	struct rs_frames *fr = &sc->frames;
	int nb;

	fr->present = true;
	fr->count = fr->janky = fr->slow = fr->frozen = fr->dropped = 0;
	sc->start_mono_ms = 0;
	sc->end_mono_ms = window;
	/* Frames until the scene's window is used up; a late frame eats
	 * the vsyncs it missed, so fps falls as frames get slower. */
	while (t < window) {
		double d = lognormal(r, m->median, m->sigma) * f;
		double missed;

		if (stats_rng_uniform(r) < spike_p)
			d += m->spike_ms * f;
		missed = floor(d / PERIOD_MS);
		rs_frames_add_bucket(fr, bucket_of(d), 1);
		fr->count++;
		fr->janky += d > PERIOD_MS;
		fr->slow += d >= 16;
		fr->frozen += d >= 700;
		fr->dropped += missed;
		t += (missed + 1) * PERIOD_MS;
	}
	for (int i = 0; i < 4; i++)
		frames_percentile_from_histogram(fr->histogram,
		    fr->nr_histogram, pct[i], out[i]);
	nb = poisson(r, m->block_rate * (outlier ? 1.5 : 1));
	for (int i = 0; i < nb; i++) {
		struct rs_block *b = rs_scene_add_block(sc, "blockcanary");

		b->wall_ms = round(lognormal(r, m->block_ms, 0.4) * f);
		b->start_mono_ms = uniform(r, 0, window);
		rs_str_set(&b->signature, stats_rng_uniform(r) < 0.7 ?
		    "sig-a" : "sig-b");
	}
}

/* Add `sh->amount` to the value the metric will read, if it is ours. */
static void
apply_shift(struct rs_iteration *it, const struct shift *sh, int scenario)
{
	struct rs_scene *sc;

	if (!sh || sh->scenario != scenario)
		return;
	if (sh->scene < 0) {
		if (!strcmp(sh->metric, "startup_ms"))
			it->startup.total_ms += sh->amount;
		return;
	}
	sc = &it->scenes[sh->scene];
	if (!strcmp(sh->metric, "frame_p90_ms"))
		sc->frames.p90_ms += sh->amount;
}

/*
 * One iteration: a cold launch whose numbers share one factor, as the
 * simulated phone's (`am start -W` TotalTime is Displayed there), then
 * the scenes.
 */
static void
gen_iteration(struct rs_iteration *it, const struct scenario_model *m,
    double run_f, const struct noise *nz, struct stats_rng *r)
{
	int outlier = stats_rng_uniform(r) < nz->outlier_p;
	double f = run_f * exp(stats_rng_normal(r, 0, nz->iter_sd));
	double lf;
	struct rs_startup *st = &it->startup;

	if (outlier)
		f *= uniform(r, 1.15, 1.4);
	lf = f * exp(stats_rng_normal(r, 0, nz->launch_sd));
	it->ok = true;
	st->present = true;
	st->kind = RS_LAUNCH_COLD;
	st->total_ms = round(m->cold_ms * lf);
	st->displayed_ms = st->total_ms;
	st->fully_drawn_ms = round((m->cold_ms + m->drawn_ms) * lf);
	st->matrix.present = true;
	st->matrix.warm = 0;
	st->matrix.application_create_ms = round(m->app_ms * lf);
	st->matrix.first_activity_create_ms = round(m->activity_ms * lf);
	for (int j = 0; j < NR_SCENES; j++) {
		char name[16];

		snprintf(name, sizeof(name), "scene%d", j);
		gen_scene(rs_iteration_add_scene(it, name), &m->scenes[j], f,
		    outlier, r);
	}
}

static struct results *
gen_run(const struct app_model *app, int iterations, const struct shift *sh,
    const struct noise *nz, struct stats_rng *r)
{
	struct results *res = results_new();
	double run_f = exp(stats_rng_normal(r, 0, nz->run_sd));

	rs_str_set(&res->app.package, "com.example.bench");
	strlist_add(&res->app.sources, "gfxinfo");
	strlist_add(&res->app.sources, "startup");
	strlist_add(&res->app.sources, "matrix");
	strlist_add(&res->app.sources, "blockcanary");
	rs_str_set(&res->device.key, "bench-phone-api34-90hz");
	res->device.refresh_hz = 90;
	for (int i = 0; i < NR_SCENARIOS; i++) {
		char name[16];
		struct rs_scenario *s;

		snprintf(name, sizeof(name), "s%d", i);
		s = results_add_scenario(res, name);
		/* A warm-up that compare must not see: wildly slow. */
		gen_iteration(rs_scenario_add_iteration(s, true), &app->sc[i],
		    run_f * 3, nz, r);
		for (int k = 0; k < iterations; k++) {
			struct rs_iteration *it = rs_scenario_add_iteration(s,
			    false);

			gen_iteration(it, &app->sc[i], run_f, nz, r);
			apply_shift(it, sh, i);
		}
	}
	return res;
}

/* The per-iteration IQR of one metric under the noise model. */
static double
population_iqr(const struct app_model *app, const struct shift *where,
    const struct noise *nz, uint64_t seed)
{
	const struct metric_def *m = metric_find(where->metric);
	size_t n = 0, alloc = 0;
	double *v = NULL, q1, q3;
	struct stats_rng r;

	stats_rng_init(&r, seed);
	for (int run = 0; run < 400; run++) {
		struct results *res = gen_run(app, ITERATIONS, NULL, nz, &r);
		const struct rs_scenario *s = &res->scenarios[where->scenario];

		for (size_t i = 1; i < s->nr_iterations; i++) {
			const struct rs_iteration *it = &s->iterations[i];
			double x;
			int rc = where->scene < 0 ?
			    metric_iteration_value(m, it, &x) :
			    metric_scene_value(m, &it->scenes[where->scene],
			    &x);

			if (rc)
				continue;
			XALLOC_GROW(v, n + 1, alloc);
			v[n++] = x;
		}
		results_free(res);
	}
	stats_quantile(&q1, v, n, 0.25);
	stats_quantile(&q3, v, n, 0.75);
	free(v);
	return q3 - q1;
}

/*
 * The baseline: the last BASE_RUNS accepted runs, a window that slides by
 * one run a night as on a CI machine, so consecutive nights share four
 * fifths of their baseline just as they would in production.
 */
struct pool {
	struct results *runs[BASE_RUNS];
	int next;
};

static void
pool_slide(struct pool *p, const struct app_model *app,
    const struct noise *nz, struct stats_rng *r)
{
	results_free(p->runs[p->next]);
	p->runs[p->next] = gen_run(app, ITERATIONS, NULL, nz, r);
	p->next = (p->next + 1) % BASE_RUNS;
}

static void
pool_release(struct pool *p)
{
	for (int i = 0; i < BASE_RUNS; i++)
		results_free(p->runs[i]);
}

/*
 * Show compare only the first n[i] measured iterations of scenario i: the
 * later ones are flagged as warm-ups, which compare skips.  A later look
 * at the same run (more iterations) flips some of them back.
 */
static void
limit_iterations(struct results *res, const int *n)
{
	for (size_t i = 0; i < res->nr_scenarios; i++) {
		struct rs_scenario *s = &res->scenarios[i];

		for (size_t k = 1; k < s->nr_iterations; k++)
			s->iterations[k].warmup = (int)k > n[i];
	}
}

/* What one look at a night's run found. */
struct look {
	enum cmp_verdict run;		/* the run's verdict */
	enum cmp_verdict target;	/* the shifted metric's */
	int target_naive, any_naive;
	double target_threshold;
	size_t entries, tests, regressions, inconclusives, naive_alarms;
	size_t m_entries[NR_METRICS], m_inc[NR_METRICS], m_reg[NR_METRICS];
	double m_spread[NR_METRICS], m_tiqr[NR_METRICS];	/* sums */
	size_t m_spread_n[NR_METRICS], m_tiqr_n[NR_METRICS];
	int undecided[NR_SCENARIOS];	/* scenarios with an inconclusive */
};

static int
naive_alarm(const struct cmp_entry *e)
{
	double d;

	if (!e->base.n || !e->cur.n)
		return 0;
	d = e->cur.median - e->base.median;
	if (e->higher_is_better)
		d = -d;
	return d > NAIVE_LIMIT * fabs(e->base.median);
}

static int
is_target(const struct cmp_entry *e, const struct shift *sh)
{
	char scenario[16], scene[16];

	if (!sh)
		return 0;
	snprintf(scenario, sizeof(scenario), "s%d", sh->scenario);
	snprintf(scene, sizeof(scene), "scene%d", sh->scene);
	return !strcmp(e->scenario, scenario) &&
	    !strcmp(e->metric, sh->metric) &&
	    (sh->scene < 0 ? !e->scene : e->scene && !strcmp(e->scene, scene));
}

/* Look `k` of `looks` at `cur` against the pool, and count what it says. */
static struct comparison *
look(struct look *out, const struct pool *p, const struct results *cur,
    const struct shift *sh, const struct setup *su, int k, int looks,
    const struct comparison *prior)
{
	struct compare_input in_base[BASE_RUNS], in_cur = { cur, NULL };
	struct compare_opts opts;
	struct comparison *c;

	for (int i = 0; i < BASE_RUNS; i++) {
		in_base[i].results = p->runs[i];
		in_base[i].name = NULL;
	}
	compare_opts_init(&opts, NULL);
	opts.alpha = su->alpha;
	opts.spending = su->spending;
	opts.noise = su->noise;
	opts.look = k;
	opts.looks = looks;
	opts.last = looks > 1 && k == looks;
	opts.prior = prior;
	if (compare_run(&c, &in_cur, in_base, BASE_RUNS, &opts)) {
		fprintf(stderr, "bench-compare: %s\n", jg_error_msg());
		exit(1);
	}
	memset(out, 0, sizeof(*out));
	out->target = CMP_NEW;
	out->entries = c->nr_entries;
	out->tests = c->tests;
	for (size_t i = 0; i < c->nr_entries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		size_t m = (size_t)(metric_find(e->metric) - metric_at(0));
		int naive = naive_alarm(e);

		out->regressions += e->verdict == CMP_REGRESSION;
		out->inconclusives += e->verdict == CMP_INCONCLUSIVE;
		out->naive_alarms += naive;
		out->m_entries[m]++;
		out->m_reg[m] += e->verdict == CMP_REGRESSION;
		out->m_inc[m] += e->verdict == CMP_INCONCLUSIVE;
		if (e->verdict == CMP_INCONCLUSIVE)
			out->undecided[atoi(e->scenario + 1)] = 1;
		if (e->base.n && e->base.median > 0) {
			out->m_spread[m] += e->base.iqr / e->base.median;
			out->m_spread_n[m]++;
		}
		if (e->base.n && e->base.iqr > 0) {
			out->m_tiqr[m] += e->threshold / e->base.iqr;
			out->m_tiqr_n[m]++;
		}
		if (is_target(e, sh)) {
			out->target = e->verdict;
			out->target_naive = naive;
			out->target_threshold = e->threshold;
		}
	}
	for (size_t i = 0; i < c->nr_scenarios; i++)
		if (c->scenarios[i].verdict == CMP_INCONCLUSIVE)
			out->undecided[atoi(c->scenarios[i].name + 1)] = 1;
	out->any_naive = out->naive_alarms > 0;
	out->run = comparison_verdict(c);
	return c;
}

/* One night, judged by compare alone and by the gate. */
struct verdicts {
	struct look single;	/* compare: one look, 5 iterations */
	struct look first;	/* the gate's first look */
	struct look final;	/* and its last */
	int looks;		/* looks the gate took */
	int reruns;		/* scenario batches it added */
	int gate_regressed;	/* any look found a regression */
	int gate_target;	/* any look called the target a regression */
};

/*
 * One night: compare alone at 5 iterations; the gate's looks at 5, then
 * 5 more iterations of each undecided scenario per look, as gate.h says.
 */
static void
night(struct verdicts *v, struct pool *p, const struct app_model *app,
    const struct shift *sh, const struct noise *nz, const struct setup *su,
    struct stats_rng *r)
{
	struct results *cur = gen_run(app, MAX_ITERATIONS, sh, nz, r);
	struct comparison *prior;
	int n[NR_SCENARIOS];
	struct look *l = &v->first;

	pool_slide(p, app, nz, r);
	for (int i = 0; i < NR_SCENARIOS; i++)
		n[i] = ITERATIONS;
	limit_iterations(cur, n);
	comparison_free(look(&v->single, p, cur, sh, su, 1, 1, NULL));
	prior = look(&v->first, p, cur, sh, su, 1, LOOKS, NULL);
	v->looks = 1;
	v->reruns = 0;
	v->gate_regressed = v->first.regressions > 0;
	v->gate_target = v->first.target == CMP_REGRESSION;
	v->final = v->first;
	/* gate_look.c: looks again while anything is undecided. */
	for (;;) {
		struct comparison *c;
		int more = 0;

		for (int i = 0; i < NR_SCENARIOS && v->looks < LOOKS; i++)
			if (l->undecided[i] && n[i] < MAX_ITERATIONS) {
				n[i] += ITERATIONS;
				v->reruns++;
				more = 1;
			}
		if (!more)
			break;
		limit_iterations(cur, n);
		c = look(&v->final, p, cur, sh, su, ++v->looks, LOOKS, prior);
		comparison_free(prior);
		prior = c;
		l = &v->final;
		v->gate_regressed |= l->regressions > 0;
		v->gate_target |= l->target == CMP_REGRESSION;
	}
	comparison_free(prior);
	results_free(cur);
}

/* Everything counted over a series of nights. */
struct tally {
	size_t nights;
	size_t any_single, any_gate, any_naive;	/* nights with a regression */
	size_t inc_single, inc_first, inc_final;	/* inconclusive */
	size_t looks, reruns;
	size_t regs, incs, alarms, entries, tests;	/* the single look */
	size_t m_entries[NR_METRICS], m_reg[NR_METRICS];
	size_t m_inc_single[NR_METRICS], m_inc_final[NR_METRICS];
	size_t m_entries_final[NR_METRICS];
	size_t m_spread_n[NR_METRICS], m_tiqr_n[NR_METRICS];
	size_t t_single, t_inc, t_first, t_gate, t_gate_inc;	/* target */
	size_t t_naive;
	/* doubles from here on (tally_add relies on it) */
	double t_threshold;
	double m_spread[NR_METRICS], m_tiqr[NR_METRICS];
};

static void
tally_night(struct tally *t, const struct verdicts *v)
{
	const struct look *a = &v->single, *g = &v->final;

	t->nights++;
	t->any_single += a->regressions > 0;
	t->any_gate += v->gate_regressed;
	t->any_naive += a->any_naive;
	t->inc_single += a->run == CMP_INCONCLUSIVE;
	t->inc_first += v->first.run == CMP_INCONCLUSIVE;
	t->inc_final += g->run == CMP_INCONCLUSIVE && !v->gate_regressed;
	t->looks += (size_t)v->looks;
	t->reruns += (size_t)v->reruns;
	t->regs += a->regressions;
	t->incs += a->inconclusives;
	t->alarms += a->naive_alarms;
	t->entries += a->entries;
	t->tests += a->tests;
	for (int m = 0; m < NR_METRICS; m++) {
		t->m_entries[m] += a->m_entries[m];
		t->m_reg[m] += a->m_reg[m];
		t->m_inc_single[m] += a->m_inc[m];
		t->m_inc_final[m] += g->m_inc[m];
		t->m_entries_final[m] += g->m_entries[m];
		t->m_spread[m] += a->m_spread[m];
		t->m_spread_n[m] += a->m_spread_n[m];
		t->m_tiqr[m] += a->m_tiqr[m];
		t->m_tiqr_n[m] += a->m_tiqr_n[m];
	}
	t->t_single += a->target == CMP_REGRESSION;
	t->t_inc += a->target == CMP_INCONCLUSIVE;
	t->t_first += v->first.target == CMP_REGRESSION;
	t->t_gate += v->gate_target;
	t->t_gate_inc += !v->gate_target &&
	    v->final.target == CMP_INCONCLUSIVE;
	t->t_naive += a->target_naive;
	t->t_threshold += a->target_threshold;
}

static void
tally_add(struct tally *to, const struct tally *from)
{
	size_t nz = offsetof(struct tally, t_threshold) / sizeof(size_t);
	size_t nd = (sizeof(struct tally) - offsetof(struct tally,
	    t_threshold)) / sizeof(double);
	size_t *d = (size_t *)to;
	const size_t *s = (const size_t *)from;
	double *dd = &to->t_threshold;
	const double *sd = &from->t_threshold;

	for (size_t i = 0; i < nz; i++)
		d[i] += s[i];
	for (size_t i = 0; i < nd; i++)
		dd[i] += sd[i];
}

/* A series of nights on one thread, with its own baseline and stream. */
struct series {
	const struct app_model *app;
	const struct shift *shift;	/* NULL: A/A */
	const struct noise *noise;
	const struct setup *setup;
	int nights;
	uint64_t seed;
	struct tally tally;
};

static void *
series_run(void *arg)
{
	struct series *s = arg;
	struct pool p = { { NULL }, 0 };
	struct stats_rng r;

	stats_rng_init(&r, s->seed);
	memset(&s->tally, 0, sizeof(s->tally));
	for (int i = 0; i < BASE_RUNS; i++)
		pool_slide(&p, s->app, s->noise, &r);
	for (int i = 0; i < s->nights; i++) {
		struct verdicts v;

		night(&v, &p, s->app, s->shift, s->noise, s->setup, &r);
		tally_night(&s->tally, &v);
	}
	pool_release(&p);
	return NULL;
}

/* Run `nights` nights on THREADS threads and sum what they counted. */
static void
run_series(struct tally *out, const struct app_model *app,
    const struct shift *sh, const struct noise *nz, const struct setup *su,
    int nights, uint64_t seed)
{
	struct series s[THREADS];
	pthread_t tid[THREADS];

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < THREADS; i++) {
		s[i].app = app;
		s[i].shift = sh;
		s[i].noise = nz;
		s[i].setup = su;
		s[i].nights = nights / THREADS + (i < nights % THREADS);
		s[i].seed = seed * THREADS + (uint64_t)i;
		if (pthread_create(&tid[i], NULL, series_run, &s[i])) {
			fprintf(stderr, "bench-compare: no thread\n");
			exit(1);
		}
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(tid[i], NULL);
		tally_add(out, &s[i].tally);
	}
}

static double
pct(size_t k, size_t n)
{
	return n ? 100.0 * (double)k / (double)n : NAN;
}

/* The half-width of a 95 % interval for a share, in percent points. */
static double
margin(size_t k, size_t n)
{
	double q = (double)k / (double)n;

	return 100 * 1.96 * sqrt(fmax(q * (1 - q), 1.0 / n) / n);
}

static void
print_aa(const struct tally *t, int per_metric)
{
	printf("  %-34s %6.2f %% +-%-5.2f %6.2f %% +-%-5.2f %6.1f %%\n",
	    "nights with a false regression", pct(t->any_single, t->nights),
	    margin(t->any_single, t->nights), pct(t->any_gate, t->nights),
	    margin(t->any_gate, t->nights), pct(t->any_naive, t->nights));
	printf("  %-34s %8.4f %%                          %6.2f %%\n",
	    "metrics falsely flagged", pct(t->regs, t->entries),
	    pct(t->alarms, t->entries));
	printf("  %-34s %6.2f %%          %6.2f %% at look 1\n",
	    "nights inconclusive", pct(t->inc_single, t->nights),
	    pct(t->inc_first, t->nights));
	printf("  %-34s %6s            %6.2f %% +-%.2f\n",
	    "  ... after the gate's last look", "",
	    pct(t->inc_final, t->nights), margin(t->inc_final, t->nights));
	printf("  %-34s %6.2f %%          %.2f looks, %.2f batches "
	    "of 5 added\n", "metrics inconclusive",
	    pct(t->incs, t->entries), (double)t->looks / (double)t->nights,
	    (double)t->reruns / (double)t->nights);
	printf("  (%.0f metrics a night, %.0f of them in the correction's "
	    "family)\n", (double)t->entries / (double)t->nights,
	    (double)t->tests / (double)t->nights);
	if (!per_metric)
		return;
	printf("  per metric: per-iteration IQR / median and threshold / IQR "
	    "(means over scenes),\n  false regressions at 5 iterations, "
	    "inconclusive at 5 and at the gate's last look:\n");
	for (int m = 0; m < NR_METRICS; m++)
		printf("    %-18s IQR %5.1f %%  T/IQR %5.2f  %4zu false   "
		    "inconclusive %6.2f %% -> %6.2f %%\n",
		    metric_at((size_t)m)->name,
		    t->m_spread_n[m] ? 100 * t->m_spread[m] /
		    (double)t->m_spread_n[m] : NAN,
		    t->m_tiqr_n[m] ? t->m_tiqr[m] / (double)t->m_tiqr_n[m] :
		    NAN, t->m_reg[m],
		    pct(t->m_inc_single[m], t->m_entries[m]),
		    pct(t->m_inc_final[m], t->m_entries_final[m]));
}

static void
bench_ab(const struct app_model *app, struct shift where,
    const struct noise *nz, const struct setup *su, int nights,
    uint64_t seed, int all_shifts)
{
	static const double ks[] = { 0.5, 1, 1.5, 2 };
	struct tally t;
	double iqr = population_iqr(app, &where, nz, seed);

	printf("\n  %s of s%d%s%s, %s noise (per-iteration IQR %.3g %s)\n",
	    where.metric, where.scenario, where.scene < 0 ? "" : "/scene",
	    where.scene < 0 ? "" : "0", nz->name, iqr,
	    metric_find(where.metric)->unit);
	printf("  %-18s %9s %9s %9s %9s %9s %9s %9s\n", "shift",
	    "threshold", "compare", "(inconc.)", "gate L1", "gate",
	    "(inconc.)", "naive");
	for (size_t k = 0; k < sizeof(ks) / sizeof(*ks); k++) {
		if (!all_shifts && ks[k] != 1.5)
			continue;
		where.amount = ks[k] * iqr;
		run_series(&t, app, &where, nz, su, nights, seed + 17 * k);
		printf("  %.1f IQR %7.3g %-2s %7.3g %7.1f %% %7.1f %% %7.1f %% "
		    "%7.1f %% %7.1f %% %7.1f %%\n", ks[k], where.amount,
		    metric_find(where.metric)->unit,
		    t.t_threshold / (double)t.nights, pct(t.t_single, t.nights),
		    pct(t.t_inc, t.nights), pct(t.t_first, t.nights),
		    pct(t.t_gate, t.nights), pct(t.t_gate_inc, t.nights),
		    pct(t.t_naive, t.nights));
	}
}

/*
 * The most any test could detect at 5 iterations: a z-test that knows
 * sigma, on normal data, for a shift of 1.5 IQR (2.02 sigma), 5 current
 * against 25 baseline values, one-sided at alpha / tests (what Holm's
 * first step asks of a lone change); and the level a single test would
 * need for 90 %, i.e. how few tests a run could hold at that alpha.
 */
static void
print_bound(double alpha, double tests)
{
	double se = sqrt(1.0 / ITERATIONS + 1.0 / (BASE_RUNS * ITERATIONS));
	double z = 1.5 * STATS_IQR_PER_SIGMA / se;
	double need = stats_norm_sf(z - stats_norm_quantile(0.9));

	printf("at most %.0f %% for any test at alpha %g\n  over %.0f "
	    "tests (z-test, known sigma, normal data); 90 %% needs %.2g per "
	    "test,\n  i.e. at most %.0f tests at alpha %g\n", 100 *
	    stats_norm_cdf(z - stats_norm_quantile(1 - alpha / tests)),
	    alpha, tests, need, floor(alpha / need), alpha);
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench-compare [--nights N] [--seed S] "
	    "[--alpha A] [--noise K] [--spending pocock|equal]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct setup su = { 0.02, CMP_SPEND_POCOCK, 1 };
	struct app_model app;
	struct tally t;
	uint64_t seed = 20240501;
	int nights = 1000;
	struct shift p90 = { "frame_p90_ms", 0, 0, 0 };
	struct shift launch = { "startup_ms", 0, -1, 0 };
	struct noise still = harsh_noise;
	double tests;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--nights"))
			nights = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--alpha"))
			su.alpha = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--noise"))
			su.noise = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--spending")) {
			if (cmp_spending_parse(&su.spending, argv[i + 1]))
				usage();
		} else
			usage();
	}
	if (nights < 20)
		nights = 20;
	if (!(su.alpha > 0 && su.alpha < 1))
		usage();
	app_init(&app, seed);

	printf("compare: synthetic nights of 10 scenarios x 5 scenes (600 "
	    "metrics); baseline %d runs x %d\n  iterations; alpha %g, Holm, "
	    "default thresholds, noise %g; the gate looks at %d, then %d more\n"
	    "  iterations of undecided scenarios up to %d (looks at alpha x "
	    "%.2f", BASE_RUNS, ITERATIONS, su.alpha, su.noise, ITERATIONS,
	    ITERATIONS,
	    MAX_ITERATIONS, compare_look_alpha(1, 1, LOOKS, su.spending));
	for (int k = 2; k <= LOOKS; k++)
		printf(", %.2f", compare_look_alpha(1, k, LOOKS, su.spending));
	printf(", %s);\n  seed %llu\n", cmp_spending_name(su.spending),
	    (unsigned long long)seed);
	printf("\nA/A, %d nights without any change (target: <= 1 %% of "
	    "nights with a false regression)\n", nights);
	printf("  %-34s %-17s %-17s %s\n", "", "compare, 5 it.",
	    "gate 5..15", "naive, 5 it.");
	run_series(&t, &app, NULL, &phone_noise, &su, nights, seed + 4);
	print_aa(&t, 1);
	tests = (double)t.tests / (double)t.nights;
	printf("  the same with harsh noise (device speed, outliers, run "
	    "drift), %d nights:\n", nights / 2);
	run_series(&t, &app, NULL, &harsh_noise, &su, nights / 2, seed + 5);
	print_aa(&t, 0);
	printf("  harsh noise without the run drift, %d nights:\n",
	    nights / 2);
	still.run_sd = 0;
	run_series(&t, &app, NULL, &still, &su, nights / 2, seed + 10);
	print_aa(&t, 0);

	printf("\nA/B, %d nights per shift, one metric shifted in the current "
	    "run: share of nights it is\n  called a regression (target: "
	    ">= 90 %% at 1.5 x IQR with 5 iterations): by compare at 5\n"
	    "  iterations (and the share it calls inconclusive), by the "
	    "gate's first look, by the\n  gate at any look (and the share "
	    "still inconclusive at its last); the naive gate's\n  alarms; "
	    "the rest passed\n", nights / 5);
	printf("  The ceiling at 5 iterations, 1.5 IQR: ");
	print_bound(su.alpha, tests);
	bench_ab(&app, p90, &phone_noise, &su, nights / 5, seed + 6, 1);
	bench_ab(&app, launch, &phone_noise, &su, nights / 5, seed + 7, 1);
	bench_ab(&app, p90, &harsh_noise, &su, nights / 5, seed + 8, 0);
	bench_ab(&app, launch, &harsh_noise, &su, nights / 5, seed + 9, 0);
	return 0;
}
