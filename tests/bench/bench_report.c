/*
 * bench_report.c: the size of the mail and the report of a large night,
 * with every explanation issue 20 added.
 *
 * Issue 20 asks that email.html stay under 100 KB for 20 scenarios x 5
 * scenes x 3 devices, or Gmail clips it.  The night built here is as
 * large as a mail gets: every metric of every scene a regression, every
 * explain metric moved (so each frame-time row names its phase), a new
 * block per scene that overlapped janky frames, a method per scene that
 * got slower.  The comparisons are written, `jankgate report`'s
 * report_write() renders every format REPEAT times, and the sizes and
 * the median time are printed with the 100 KB target beside them.
 *
 * Usage: bench-report DIR    (DIR: an empty scratch directory)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "compare.h"
#include "error.h"
#include "fileio.h"
#include "metrics.h"
#include "report.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"

#define DEVICES 3
#define SCENARIOS 20
#define SCENES 5
#define REPEAT 5
#define TARGET (100 * 1024)

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
fill_entry(struct cmp_entry *e, const char *device, const char *scenario,
    const char *scene, const struct metric_def *m)
{
	e->device = xstrdup(device);
	e->scenario = xstrdup(scenario);
	e->scene = scene ? xstrdup(scene) : NULL;
	e->metric = xstrdup(m->name);
	e->unit = xstrdup(m->unit);
	e->verdict = CMP_REGRESSION;
	e->reason = xstrdup("worse by 3.1 ms (threshold 1 ms), p = 0.002 "
	    "after holm");
	e->tested = true;
	e->base.n = 16;
	e->base.median = e->base.max = 10;
	e->cur.n = 5;
	e->cur.median = e->cur.max = 13.1;
	e->shift = 3.1;
	e->shift_lo = 2.9;
	e->shift_hi = 3.3;
	e->shift_level = 0.98;
	e->p_value = 0.001;
	e->p_adjusted = 0.002;
	e->threshold = 1;
}

static struct comparison *
night(const char *key)
{
	struct comparison *c = comparison_new();

	c->device = xstrdup(key);
	c->package = xstrdup("com.example.feed");
	c->current.run_id = xstrdup("c1");
	c->current.app_version = xstrdup("2.0");
	c->alpha = 0.01;
	c->min_iterations = 3;
	comparison_add_baseline(c)->run_id = xstrdup("b1");
	for (int s = 0; s < SCENARIOS; s++) {
		struct cmp_scenario *sc = comparison_add_scenario(c);
		char scn[32];

		snprintf(scn, sizeof(scn), "scenario-%02d", s);
		sc->name = xstrdup(scn);
		sc->cur_iterations = sc->cur_valid = 5;
		sc->base_runs = 2;
		sc->base_valid = 16;
		fill_entry(comparison_add_entry(c), key, scn, NULL,
		    metric_find("startup_ms"));
		for (int k = 0; k < SCENES; k++) {
			char scene[32];
			struct cmp_block *b;
			struct cmp_method *m;

			snprintf(scene, sizeof(scene), "scene-%d", k);
			for (size_t i = 0; i < metric_count(); i++) {
				const struct metric_def *d = metric_at(i);

				if (d->scope != METRIC_SCENE)
					continue;
				fill_entry(d->explain ? comparison_add_explain(c)
				    : comparison_add_entry(c), key, scn, scene,
				    d);
			}
			b = comparison_add_block(c);
			b->device = xstrdup(key);
			b->scenario = xstrdup(scn);
			b->scene = xstrdup(scene);
			b->signature = xstrdup("0123456789abcdef");
			b->status = CMP_BLOCK_NEW;
			b->cur.count = b->cur.frames_seen = 5;
			b->cur.iterations = 5;
			b->cur.per_iteration = 1;
			b->cur.wall_ms = 450;
			b->cur.janky_frames = 14;
			strlist_add(&b->stack, "java.math.BigDecimal.divide("
			    "BigDecimal.java:1760)");
			strlist_add(&b->stack, "com.example.feed.checkout."
			    "PriceCalculator.applyCoupons(PriceCalculator.java:"
			    "88)");
			m = comparison_add_method(c);
			m->device = xstrdup(key);
			m->scenario = xstrdup(scn);
			m->scene = xstrdup(scene);
			m->name = xstrdup("com.example.feed.ui.FeedAdapter."
			    "bindPrice");
			m->source = xstrdup("traceman");
			m->status = CMP_BLOCK_WORSE;
			m->base.count = m->cur.count = 5;
			m->base.iterations = m->cur.iterations = 5;
			m->base.wall_ms = 2;
			m->cur.wall_ms = 8;
		}
	}
	return c;
}

static long
size_of(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	long n = stat(p, &st) ? -1 : (long)st.st_size;

	free(p);
	return n;
}

int
main(int argc, char **argv)
{
	const char *files[DEVICES];
	char *paths[DEVICES], *out;
	double t[REPEAT];
	long email;

	if (argc != 2) {
		fprintf(stderr, "usage: bench-report DIR\n");
		return 2;
	}
	for (int d = 0; d < DEVICES; d++) {
		char key[64];
		struct comparison *c;

		snprintf(key, sizeof(key), "google-pixel-%d-api34-90hz", d + 6);
		c = night(key);
		paths[d] = xasprintf("%s/comparison-%d.json", argv[1], d);
		files[d] = paths[d];
		if (comparison_write(c, paths[d])) {
			fprintf(stderr, "bench-report: %s\n", jg_error_msg());
			return 1;
		}
		comparison_free(c);
	}
	out = xasprintf("%s/report", argv[1]);
	for (int i = 0; i < REPEAT; i++) {
		struct report_opts o = { .comparisons = files,
		    .nr_comparisons = DEVICES, .out_dir = out, .title = "" };
		struct report_result res;
		double t0 = now_ms();
		int rc = report_write(&res, &o);

		t[i] = now_ms() - t0;
		report_result_release(&res);
		if (rc) {
			fprintf(stderr, "bench-report: %s\n", jg_error_msg());
			return 1;
		}
	}
	qsort(t, REPEAT, sizeof(*t), cmp_double);
	email = size_of(out, "email.html");
	printf("report: a night of %d scenarios x %d scenes x %d devices, every "
	    "metric a regression,\n  every explanation moved, a new block and "
	    "a slower method per scene\n", SCENARIOS, SCENES, DEVICES);
	printf("  email.html  %7.1f KB   [target < 100 KB: %s]\n",
	    email / 1024.0, email < TARGET ? "met" : "NOT met");
	printf("  email.txt   %7.1f KB\n", size_of(out, "email.txt") / 1024.0);
	printf("  summary.md  %7.1f KB\n", size_of(out, "summary.md") / 1024.0);
	printf("  report.html %7.1f KB\n", size_of(out, "report.html") /
	    1024.0);
	printf("  report_write median %.0f ms over %d runs\n", t[REPEAT / 2],
	    REPEAT);
	for (int d = 0; d < DEVICES; d++)
		free(paths[d]);
	free(out);
	return 0;
}
