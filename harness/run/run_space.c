/*
 * run_space.c: is there room for the results before anything is measured?
 *
 * A night's measuring is lost when its results cannot be written, so the
 * run refuses to start (exit 3) when the file system of the output
 * directory has less free space than the results will take, naming the
 * directory, the free bytes and the estimate.
 *
 * The estimate counts scene-iterations (an iteration of a scenario with
 * no scene counts as one): a device's planned warm-ups and iterations
 * times its scenarios' scenes.  What one takes is learnt from the
 * results file already at the device's path, the last run's (its size
 * over the scene-iterations it holds), else RUN_SPACE_UNIT_BYTES: some
 * three times what a scene with all 120 frame rows of PROFILEDATA takes
 * in the file, room for block stacks and a failed iteration's logcat
 * excerpt.  Each results file is rewritten whole, atomically,
 * after every iteration, so the last rewrite holds the file before it and
 * the new one at once: the need of a file growing to F bytes is 2F, less
 * what the file there now takes (replaced by the first rewrite, or grown
 * by an appended batch), never less than F.  Perfetto traces, the
 * bundletool output and what gate writes after the run (comparison,
 * report) are not counted.
 *
 * A file system that cannot say its free space is not checked: the
 * writes after each iteration still stop the device at the first failure
 * (run_device.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "error.h"
#include "results.h"
#include "run_int.h"
#include "scenario.h"
#include "xalloc.h"
#include "banned.h"

uint64_t
run_space_need(const struct run_space_plan *p)
{
	uint64_t per = p->last_units ?
	    (p->last_size + p->last_units - 1) / p->last_units :
	    RUN_SPACE_UNIT_BYTES;
	uint64_t f = (p->append ? p->last_size : 0) + per * p->units;
	uint64_t held = p->last_size < f ? p->last_size : f;

	return 2 * f - held;
}

/* Scene-iterations in the file at `path`; its size to *size (0: none). */
static uint64_t
units_in(const char *path, uint64_t *size)
{
	struct results *r;
	struct stat st;
	uint64_t units = 0;

	*size = 0;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	*size = (uint64_t)st.st_size;
	if (results_read(&r, path)) {
		jg_error_clear();
		return 0;
	}
	for (size_t s = 0; s < r->nr_scenarios; s++)
		for (size_t i = 0; i < r->scenarios[s].nr_iterations; i++) {
			size_t n = r->scenarios[s].iterations[i].nr_scenes;

			units += n ? n : 1;
		}
	results_free(r);
	return units;
}

/* The device's plan: what it measures, and what its path holds now. */
static void
plan_of(struct run_space_plan *p, const struct run_dev *d)
{
	const struct run_ctx *c = d->ctx;

	memset(p, 0, sizeof(*p));
	p->append = c->opts->append;
	p->last_units = units_in(d->results_path, &p->last_size);
	for (size_t s = 0; s < c->nr_scns; s++) {
		size_t scenes = scenario_scene_count(c->scns[s]);

		if (d->selected[s])
			p->units += (uint64_t)(c->warmups + c->iterations) *
			    (scenes ? scenes : 1);
	}
}

/*
 * Free bytes for an unprivileged writer on the file system of `dir`, or
 * of its nearest existing ancestor (the directory is made later); -1
 * when it cannot be told.
 */
static int
free_bytes(const char *dir, uint64_t *out)
{
	char *p = xstrdup(*dir ? dir : ".");
	struct statvfs sv;
	int rc;

	while ((rc = statvfs(p, &sv)) && errno == ENOENT &&
	    strcmp(p, ".") && strcmp(p, "/")) {
		char *slash = strrchr(p, '/');

		if (!slash) {
			free(p);
			p = xstrdup(".");
		} else {
			slash[slash == p] = '\0';
		}
	}
	free(p);
	if (rc)
		return -1;
	*out = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

int
run_space_check(const struct run_ctx *c, const struct run_dev *devs,
    size_t n)
{
	uint64_t need = 0, avail, units = 0;
	size_t learnt = 0;

	if (!n || free_bytes(c->out_dir, &avail))
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct run_space_plan p;

		plan_of(&p, &devs[i]);
		need += run_space_need(&p);
		units += p.units;
		learnt += p.last_units > 0;
	}
	if (need <= avail)
		return 0;
	return jg_error_set(JG_EIO, "not enough free space for the results "
	    "in '%s': %llu bytes free, about %llu needed for %llu "
	    "scene-iterations on %zu device%s (%s; each results file is "
	    "rewritten whole after every iteration)", c->out_dir,
	    (unsigned long long)avail, (unsigned long long)need,
	    (unsigned long long)units, n, n == 1 ? "" : "s",
	    learnt == n ? "at the size of the last run's" :
	    learnt ? "at the size of the last run's where there is one, "
	    "else 64 KiB each" : "64 KiB each, with no earlier results "
	    "there to go by");
}
