/*
 * gate_pool.c: the runs of several devices of one key, as one run.
 *
 * Devices that share a device key are one class for baselines (baseline.h),
 * so `gate` compares them once: their iterations, side by side, are the
 * current sample of that key, which also gives a farm of identical phones
 * more iterations per night at the cost of one.  The pooled run is written
 * out as an ordinary results file (OUT/<key>/pooled-results.json), so
 * `jankgate compare` and `baseline record` take it like any other.
 *
 * Each device's sessions stay apart: the second device's are numbered
 * after the first's, and so on, so the session model of compare sees one
 * session per device and batch.
 *
 * Pooling moves iterations by value from one model to another: every
 * pointer an iteration owns goes with it, and the donor is left with no
 * iterations, so each allocation keeps exactly one owner.
 */
#include <string.h>

#include "gate.h"
#include "results.h"
#include "strbuf.h"
#include "banned.h"

/* Move `from`'s iterations into `dst`, their sessions moved up by `base`. */
static void
pool_scenario(struct results *dst, struct rs_scenario *from, int base)
{
	struct rs_scenario *to = results_find_scenario(dst, from->name);

	if (!to) {
		to = results_add_scenario(dst, from->name);
		rs_str_set(&to->file, from->file);
		rs_str_set(&to->sha256, from->sha256);
	}
	for (size_t i = 0; i < from->nr_iterations; i++) {
		struct rs_iteration *it = rs_scenario_add_iteration(to,
		    from->iterations[i].warmup);
		int index = it->index;

		*it = from->iterations[i];
		it->index = index;
		it->session += base;
	}
	from->nr_iterations = 0;
}

void
gate_pool(struct results *const *in, size_t nr)
{
	struct results *dst = in[0];
	struct strbuf serials = STRBUF_INIT, msg = STRBUF_INIT;

	if (nr < 2)
		return;
	strbuf_addstr(&serials, dst->device.serial ? dst->device.serial : "?");
	for (size_t i = 1; i < nr; i++) {
		struct results *src = in[i];
		/*
		 * Each device's sessions are sessions of their own, from an
		 * even number: jankgate ab's blocks pair up by round (2r,
		 * 2r + 1), which a device with an odd count must not shift.
		 */
		int base = results_next_session(dst);

		base += base & 1;

		for (size_t s = 0; s < src->nr_scenarios; s++)
			pool_scenario(dst, &src->scenarios[s], base);
		for (size_t e = 0; e < src->run.errors.nr; e++)
			strlist_add(&dst->run.errors, src->run.errors.items[e]);
		for (size_t e = 0; e < src->run.planned.nr; e++)
			if (strlist_find(&dst->run.planned,
			    src->run.planned.items[e]) < 0)
				strlist_add(&dst->run.planned,
				    src->run.planned.items[e]);
		dst->run.complete = dst->run.complete && src->run.complete;
		strbuf_addf(&serials, ", %s", src->device.serial ?
		    src->device.serial : "?");
	}
	strbuf_addf(&msg, "iterations of %zu devices pooled: %s", nr,
	    serials.buf);
	results_add_warning(dst, "gate", NULL, msg.buf);
	strbuf_release(&serials);
	strbuf_release(&msg);
}

/*
 * results.h has no call to drop one scenario, so the unwanted one is
 * handed to a throwaway model whose results_free() releases it.
 */
static void
drop_scenario(struct results *r, size_t i)
{
	struct results *bin = results_new();
	struct rs_scenario *slot = results_add_scenario(bin, NULL);

	*slot = r->scenarios[i];
	memmove(&r->scenarios[i], &r->scenarios[i + 1],
	    (r->nr_scenarios - i - 1) * sizeof(r->scenarios[0]));
	r->nr_scenarios--;
	results_free(bin);
}

void
gate_trim_scenarios(struct results *base, const struct results *cur)
{
	for (size_t i = base->nr_scenarios; i-- > 0;)
		if (!results_find_scenario(cur, base->scenarios[i].name))
			drop_scenario(base, i);
}
