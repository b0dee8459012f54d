/*
 * bench_compare.c: how often `jankgate compare` cries wolf, and how often it
 * catches a real regression, on synthetic nightly runs.
 *
 * Each simulated night is one device running the same app: 10 scenarios,
 * each a cold launch followed by 5 scenes, so 10 x (5 launch metrics + 5 x
 * 11 scene metrics) = 600 metrics.  The baseline is 5 earlier runs of 5
 * iterations (plus a warm-up each, which compare must ignore), 25 values
 * per metric; the current run has 5 iterations plus a warm-up.  Every run
 * is built as a real `struct results` and goes through compare_run(), so
 * the sample assembly, the metric derivation, the test, the correction and
 * the verdict rules are the ones `jankgate compare` uses.
 *
 * The noise model follows the simulated phone (tests/simdevice/apps):
 *
 *   - The app is fixed (seeded): per scene a frame-time distribution,
 *     lognormal with a median of 5-14 ms and sigma 0.15-0.35, plus spikes
 *     (GC, inflation) of 15-40 ms with probability 0-3 %, and 120-400
 *     frames per iteration at 90 Hz; 40 % of scenes have main-thread blocks
 *     (Poisson, 0.1-1 per iteration, lognormal walls around 150-600 ms);
 *     launches are lognormal with sigma 0.08 around 600-1200 ms (the
 *     simulated phone's startup spread), Application.onCreate and the first
 *     activity likewise.
 *   - Per iteration, the device's speed varies: every frame and launch time
 *     of the iteration is scaled by exp(N(0, 0.03)) (DVFS and thermal
 *     state, a 3 % CV), and 5 % of iterations are outliers, slowed by
 *     15-40 % with twice the spikes (background work on the phone).
 *   - Per run, a drift exp(N(0, 0.01)) scales the whole run (a new boot, a
 *     different room temperature); it makes iterations of one run alike,
 *     which the test's exchangeability assumption does not know about.
 *
 * Frame metrics are then derived the way gfxinfo derives them: 1/2/4 ms
 * histogram buckets and its percentile rule (so p90 is a whole number of
 * ms and ties are common), janky = missed the 11.1 ms deadline, slow =
 * over 16 ms, dropped = vsyncs missed, fps = frames rendered in the
 * scene's window.  Launch times are whole ms as `am start -W` prints them.
 *
 * Each night is looked at twice, as the gate does (DESIGN §7): with 5
 * current iterations, and, when that is inconclusive, again with 15 (the
 * default max_iterations); the baseline is a window of the last 5 runs
 * that slides by one run a night.
 *
 * A/A: nights where nothing changed; the share with ANY regression verdict
 * among the 600 metrics (target <= 1 %), at the first look and at the
 * gate's last, next to a naive gate that alarms when a metric's median
 * moved by more than 5 % the worse way; then the share of nights and of
 * metrics that are inconclusive, per metric too.  Repeated without the
 * run-to-run drift and at alpha 0.01.
 * A/B: one metric (the first scene's frame_p90_ms, then the first
 * scenario's startup_ms) shifted by k x its per-iteration IQR in the
 * current run only; the share of nights where that metric is called a
 * regression (target >= 90 % at 1.5 IQR with 5 iterations), inconclusive
 * or pass, after the gate's second look, and the naive gate's alarms.
 *
 * Nights run on two threads, each with its own seeded stream, so the
 * figures are the same on every machine for a given seed and --nights.
 *
 * Usage: bench-compare [--nights N] [--seed S]; prints its figures.
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
	double iter_sd, run_sd, outlier_p;
};

static const struct noise phone_noise = { 0.03, 0.01, 0.05 };

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
			m->frames = (int)uniform(&r, 120, 400);
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

static void
gen_iteration(struct rs_iteration *it, const struct scenario_model *m,
    double run_f, const struct noise *nz, struct stats_rng *r)
{
	int outlier = stats_rng_uniform(r) < nz->outlier_p;
	double f = run_f * exp(stats_rng_normal(r, 0, nz->iter_sd));
	struct rs_startup *st = &it->startup;

	if (outlier)
		f *= uniform(r, 1.15, 1.4);
	it->ok = true;
	st->present = true;
	st->kind = RS_LAUNCH_COLD;
	st->total_ms = round(lognormal(r, m->cold_ms, 0.08) * f);
	st->displayed_ms = st->total_ms - round(uniform(r, 5, 15));
	st->fully_drawn_ms = st->total_ms +
	    round(lognormal(r, m->drawn_ms, 0.15) * f);
	st->matrix.present = true;
	st->matrix.warm = 0;
	st->matrix.application_create_ms = round(lognormal(r, m->app_ms,
	    0.08) * f);
	st->matrix.first_activity_create_ms = round(lognormal(r,
	    m->activity_ms, 0.08) * f);
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
 * Show compare only the first `n` measured iterations of each scenario:
 * the later ones are flagged as warm-ups, which compare skips.  The gate's
 * second look at the same run (more iterations) flips them back.
 */
static void
limit_iterations(struct results *res, int n)
{
	for (size_t i = 0; i < res->nr_scenarios; i++) {
		struct rs_scenario *s = &res->scenarios[i];

		for (size_t k = 1; k < s->nr_iterations; k++)
			s->iterations[k].warmup = (int)k > n;
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

static void
look(struct look *out, const struct pool *p, const struct results *cur,
    const struct shift *sh, double alpha)
{
	struct compare_input in_base[BASE_RUNS], in_cur = { cur, NULL };
	struct compare_opts opts;
	struct comparison *c;

	for (int i = 0; i < BASE_RUNS; i++) {
		in_base[i].results = p->runs[i];
		in_base[i].name = NULL;
	}
	compare_opts_init(&opts, NULL);
	opts.alpha = alpha;
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
		if (is_target(e, sh)) {
			out->target = e->verdict;
			out->target_naive = naive;
			out->target_threshold = e->threshold;
		}
	}
	out->any_naive = out->naive_alarms > 0;
	out->run = comparison_verdict(c);
	comparison_free(c);
}

/*
 * One night as the gate runs it (DESIGN §7): look at 5 iterations; when
 * that is inconclusive, measure up to max_iterations (15) and look again.
 * `first` is the first look, `final` the gate's last one.
 */
static void
night(struct look *first, struct look *final, struct pool *p,
    const struct app_model *app, const struct shift *sh,
    const struct noise *nz, double alpha, struct stats_rng *r)
{
	struct results *cur = gen_run(app, MAX_ITERATIONS, sh, nz, r);

	pool_slide(p, app, nz, r);
	limit_iterations(cur, ITERATIONS);
	look(first, p, cur, sh, alpha);
	*final = *first;
	if (first->run == CMP_INCONCLUSIVE) {
		limit_iterations(cur, MAX_ITERATIONS);
		look(final, p, cur, sh, alpha);
	}
	results_free(cur);
}

/* Everything counted over a series of nights. */
struct tally {
	size_t nights;
	size_t any_first, any_gate, any_naive;	/* nights with a regression */
	size_t inc_first, inc_gate;		/* inconclusive nights */
	size_t regs, incs, alarms, entries, tests;	/* first look */
	size_t m_entries[NR_METRICS], m_reg[NR_METRICS];
	size_t m_inc_first[NR_METRICS], m_inc_gate[NR_METRICS];
	size_t m_entries_gate[NR_METRICS];
	size_t t_reg, t_inc, t_pass, t_naive, t_gate;	/* the target */
	double t_threshold;
};

static void
tally_night(struct tally *t, const struct look *a, const struct look *g)
{
	t->nights++;
	t->any_first += a->regressions > 0;
	t->any_gate += g->regressions > 0;
	t->any_naive += a->any_naive;
	t->inc_first += a->run == CMP_INCONCLUSIVE;
	t->inc_gate += g->run == CMP_INCONCLUSIVE;
	t->regs += a->regressions;
	t->incs += a->inconclusives;
	t->alarms += a->naive_alarms;
	t->entries += a->entries;
	t->tests += a->tests;
	for (int m = 0; m < NR_METRICS; m++) {
		t->m_entries[m] += a->m_entries[m];
		t->m_reg[m] += a->m_reg[m];
		t->m_inc_first[m] += a->m_inc[m];
		t->m_inc_gate[m] += g->m_inc[m];
		t->m_entries_gate[m] += g->m_entries[m];
	}
	t->t_reg += a->target == CMP_REGRESSION;
	t->t_inc += a->target == CMP_INCONCLUSIVE;
	t->t_pass += a->target == CMP_PASS;
	t->t_naive += a->target_naive;
	t->t_gate += g->target == CMP_REGRESSION;
	t->t_threshold += a->target_threshold;
}

static void
tally_add(struct tally *to, const struct tally *from)
{
	size_t *d = (size_t *)to;
	const size_t *s = (const size_t *)from;

	/* Every member but the last is a size_t. */
	for (size_t i = 0; i < offsetof(struct tally, t_threshold) /
	    sizeof(size_t); i++)
		d[i] += s[i];
	to->t_threshold += from->t_threshold;
}

/* A series of nights on one thread, with its own baseline and stream. */
struct series {
	const struct app_model *app;
	const struct shift *shift;	/* NULL: A/A */
	struct noise noise;
	double alpha;
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
		pool_slide(&p, s->app, &s->noise, &r);
	for (int i = 0; i < s->nights; i++) {
		struct look a, g;

		night(&a, &g, &p, s->app, s->shift, &s->noise, s->alpha, &r);
		tally_night(&s->tally, &a, &g);
	}
	pool_release(&p);
	return NULL;
}

/* Run `nights` nights on THREADS threads and sum what they counted. */
static void
run_series(struct tally *out, const struct app_model *app,
    const struct shift *sh, const struct noise *nz, double alpha,
    int nights, uint64_t seed)
{
	struct series s[THREADS];
	pthread_t tid[THREADS];

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < THREADS; i++) {
		s[i].app = app;
		s[i].shift = sh;
		s[i].noise = *nz;
		s[i].alpha = alpha;
		s[i].nights = nights / THREADS + (i < nights % THREADS);
		s[i].seed = seed * THREADS + (uint64_t)i;
		if (pthread_create(&tid[i], NULL, series_run, &s[i])) {
			fprintf(stderr, "bench-compare: cannot start a thread\n");
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
	printf("  %-30s %6.2f %% +-%-5.2f  %6.2f %% +-%-5.2f  %6.2f %% +-%.2f\n",
	    "nights with a false regression", pct(t->any_first, t->nights),
	    margin(t->any_first, t->nights), pct(t->any_gate, t->nights),
	    margin(t->any_gate, t->nights), pct(t->any_naive, t->nights),
	    margin(t->any_naive, t->nights));
	printf("  %-30s %8.4f %%          %-17s %7.3f %%\n",
	    "metrics falsely flagged", pct(t->regs, t->entries), "",
	    pct(t->alarms, t->entries));
	printf("  %-30s %6.2f %%           %6.2f %%\n",
	    "nights inconclusive (exit 4)", pct(t->inc_first, t->nights),
	    pct(t->inc_gate, t->nights));
	printf("  %-30s %6.2f %%\n", "metrics inconclusive",
	    pct(t->incs, t->entries));
	printf("  (%.0f metrics a night, %.0f of them in the correction's "
	    "family)\n", (double)t->entries / (double)t->nights,
	    (double)t->tests / (double)t->nights);
	if (!per_metric)
		return;
	printf("  per metric: false regressions at 5 iterations, and the "
	    "share inconclusive\n  at 5 iterations and at the gate's last "
	    "look:\n");
	for (int m = 0; m < NR_METRICS; m++)
		printf("    %-18s %5zu false   inconclusive %5.1f %% -> "
		    "%5.1f %%\n", metric_at((size_t)m)->name, t->m_reg[m],
		    pct(t->m_inc_first[m], t->m_entries[m]),
		    pct(t->m_inc_gate[m], t->m_entries_gate[m]));
}

static void
bench_ab(const struct app_model *app, struct shift where, double iqr,
    int nights, uint64_t seed)
{
	static const double ks[] = { 0.5, 1, 1.5, 2 };
	struct tally t;

	printf("\n  %s of s%d%s%s (per-iteration IQR %.3g ms)\n", where.metric,
	    where.scenario, where.scene < 0 ? "" : "/scene",
	    where.scene < 0 ? "" : "0", iqr);
	printf("  %-17s %9s   %-27s %11s %10s\n", "shift", "threshold",
	    "5 iterations: regr/inc/pass", "gate 5->15", "naive");
	for (size_t k = 0; k < sizeof(ks) / sizeof(*ks); k++) {
		where.amount = ks[k] * iqr;
		run_series(&t, app, &where, &phone_noise, 0.05, nights,
		    seed + 17 * k);
		printf("  %.1f IQR %6.3g ms %6.3g ms   %5.1f / %5.1f / %5.1f %%"
		    "  %8.1f %% %8.1f %%\n", ks[k], where.amount,
		    t.t_threshold / (double)t.nights, pct(t.t_reg, t.nights),
		    pct(t.t_inc, t.nights), pct(t.t_pass, t.nights),
		    pct(t.t_gate, t.nights), pct(t.t_naive, t.nights));
	}
	where.amount = 1.5 * iqr;
	run_series(&t, app, &where, &phone_noise, 0.01, nights, seed + 99);
	printf("  1.5 IQR at alpha 0.01:       %5.1f / %5.1f / %5.1f %%  "
	    "%8.1f %%\n", pct(t.t_reg, t.nights), pct(t.t_inc, t.nights),
	    pct(t.t_pass, t.nights), pct(t.t_gate, t.nights));
}

int
main(int argc, char **argv)
{
	struct noise still = phone_noise;
	struct app_model app;
	struct tally t;
	uint64_t seed = 20240501;
	int nights = 1000;
	struct shift p90 = { "frame_p90_ms", 0, 0, 0 };
	struct shift launch = { "startup_ms", 0, -1, 0 };
	double iqr_p90, iqr_launch;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--nights"))
			nights = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 10);
	}
	if (nights < 20)
		nights = 20;
	app_init(&app, seed);
	iqr_p90 = population_iqr(&app, &p90, &phone_noise, seed + 2);
	iqr_launch = population_iqr(&app, &launch, &phone_noise, seed + 3);

	printf("compare: synthetic nights of 10 scenarios x 5 scenes (600 "
	    "metrics); baseline %d runs x %d\n  iterations; current %d "
	    "iterations, the gate's second look %d; alpha 0.05, Holm,\n"
	    "  default thresholds; seed %llu\n", BASE_RUNS, ITERATIONS,
	    ITERATIONS, MAX_ITERATIONS, (unsigned long long)seed);
	printf("\nA/A, %d nights without any change (target: <= 1 %% of "
	    "nights with a false regression)\n", nights);
	printf("  %-30s %-17s %-17s %s\n", "", "5 iterations",
	    "gate 5->15", "naive (median +5 %)");
	run_series(&t, &app, NULL, &phone_noise, 0.05, nights, seed + 4);
	print_aa(&t, 1);
	printf("  the same without run-to-run drift, %d nights:\n",
	    nights / 2);
	still.run_sd = 0;
	run_series(&t, &app, NULL, &still, 0.05, nights / 2, seed + 5);
	print_aa(&t, 0);
	printf("  the same at alpha 0.01, %d nights:\n", nights / 2);
	run_series(&t, &app, NULL, &phone_noise, 0.01, nights / 2, seed + 8);
	print_aa(&t, 0);

	printf("\nA/B, %d nights per shift, one metric shifted in the current "
	    "run: share of nights it is\n  called a regression (target: "
	    ">= 90 %% at 1.5 x IQR with 5 iterations)\n", nights / 5);
	bench_ab(&app, p90, iqr_p90, nights / 5, seed + 6);
	bench_ab(&app, launch, iqr_launch, nights / 5, seed + 7);
	return 0;
}
