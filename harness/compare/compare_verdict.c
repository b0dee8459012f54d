/*
 * compare_verdict.c: the verdict of one entry from its statistics, and the
 * share of alpha each look tests at (docs/method.md, steps 7 and 5).
 *
 * compare.c gathers the samples, runs the tests and adjusts the p-values
 * of the whole run; what is left is a rule per entry that needs only the
 * entry, its two one-sided p-values and what the caller said about the
 * look (cmp_rules).  The rule is kept apart so it reads as the table in
 * compare.h, and the reason it writes says which row applied, in words
 * and numbers a reader of the report can check.
 */
#include <math.h>
#include <stdlib.h>

#include "compare.h"
#include "compare_int.h"
#include "strbuf.h"
#include "banned.h"

/* ---- looks -------------------------------------------------------------- */

/* Lan and DeMets' Pocock-type spending function at information t. */
static double
pocock_spent(double alpha, double t)
{
	return alpha * log(1 + (M_E - 1) * t);
}

double
compare_look_alpha(double alpha, int look, int looks, enum cmp_spending how)
{
	double k = look, n = looks;

	if (look < 1 || look > looks)
		return NAN;
	if (looks == 1)
		return alpha;
	switch (how) {
	case CMP_SPEND_POCOCK:
		return pocock_spent(alpha, k / n) -
		    pocock_spent(alpha, (k - 1) / n);
	case CMP_SPEND_EQUAL:
		return alpha / n;
	case CMP_SPEND_LATE:
		return alpha * (pow(k / n, 3) - pow((k - 1) / n, 3));
	}
	return NAN;
}

/* ---- verdicts ----------------------------------------------------------- */

/*
 * Before a sequential caller's last look, a worse estimate at T or more
 * whose raw p is at most cmp_promise() is measured again rather than
 * passed: at 5 iterations a real shift of 1.5 IQR often shows only p =
 * 0.01-0.05, and a pass ends the looking at it.  It is most of what an
 * unchanged night measures again, and a stricter bar would save device
 * time by missing shifts: a missed regression ships jank, the worse
 * failure (make bench; NEWS: "Measured error rates").  CMP_PROMISE is
 * the first look's.
 */
#define CMP_PROMISE 0.05

/*
 * The z a lone change of practical size is tested at by the last look
 * (one test of some 500 at alpha 0.01, weighted Holm: 3.9 to 4.3), the
 * reference for how much promise a raw p holds (cmp_promise()).
 */
#define CMP_PROMISE_Z 4.0

/*
 * A later look asks for as much promise as the first look does, measured
 * by conditional power: with the information at look k a share t = k /
 * looks of the last look's (the current side's sessions; the baseline's do
 * not grow, so this is an upper bound), an estimate at z would end near
 * z / sqrt t if the shift is what it shows, give or take sqrt(1 - t) (Lan
 * and Wittes' B-value).  At the first of K looks CMP_PROMISE leaves that
 * short of CMP_PROMISE_Z by
 *   c_K = (z_0.05 sqrt K - CMP_PROMISE_Z) / sqrt(1 - 1/K)
 * spreads (of three looks -1.41, a conditional power of 8 %; of four
 * -0.82, 21 %), and look k keeps measuring what falls short by no more:
 *   z_k = sqrt t_k (CMP_PROMISE_Z + c_K sqrt(1 - t_k)),
 * never above CMP_PROMISE nor an earlier look's.  Of three looks that is
 * raw p 0.0046 at the second: an estimate at p = 0.03 after two sessions
 * would need a third far luckier than both, and measuring it again cost
 * an unchanged night device time under drift for no A/B detection.  Of
 * four looks (max_iterations 20): 0.0078 and 0.00094 at the second and
 * third; keeping the three looks' 8 % there instead (0.017 and 0.0022)
 * cost device time under drift and false alarms under a trend; what it
 * buys was measured for the block count, which keeps them
 * (cmp_promise_count(); NEWS: the method's history, step 6).
 * The first look keeps CMP_PROMISE whatever the number of looks: that is
 * what make bench measured.
 *
 * `jankgate ab` (interleaved) keeps CMP_PROMISE at every round: its rounds
 * are a budget its user set aside before a release, not a nightly's
 * device time, and asking more of its later rounds found fewer of the
 * bench's higher block counts and jank shares for few iterations saved
 * (make bench --only inter; NEWS: "Measured error rates").
 */
static double
promise_at(int look, int looks, int calibrated)
{
	double z1 = stats_norm_quantile(1 - CMP_PROMISE);
	double c = (z1 * sqrt((double)calibrated) - CMP_PROMISE_Z) /
	    sqrt(1 - 1.0 / calibrated);
	double tk = (double)look / looks;
	double zk = sqrt(tk) * (CMP_PROMISE_Z + c * sqrt(1 - tk));

	return fmin(stats_norm_sf(zk), CMP_PROMISE);
}

double
cmp_promise(int look, int looks, bool interleaved)
{
	double pr = CMP_PROMISE;

	if (interleaved || looks <= look)
		return CMP_PROMISE;
	/* With many looks c_K is positive and z_k can overshoot
	 * CMP_PROMISE_Z before the last look: a look never asks less than
	 * an earlier one did. */
	for (int k = 2; k <= look; k++)
		pr = fmin(pr, promise_at(k, looks, looks));
	return pr;
}

/*
 * A count of events (metrics.h by_means: blocks) keeps the promise of
 * three looks (a conditional power of 8 %) however many there are: whole
 * events arrive late, and a rate 1.5 blocks an iteration higher often
 * shows p 0.01-0.02 after two sessions of five iterations.  With four
 * looks this promise finds such a rate on a little more nights than the
 * stricter one, for next to no device time (NEWS: the method's history,
 * step 6).
 */
double
cmp_promise_count(int look, int looks, bool interleaved)
{
	if (interleaved || look <= 1 || looks <= look)
		return CMP_PROMISE;
	return fmax(cmp_promise(look, looks, false),
	    promise_at(look, looks, looks < 3 ? looks : 3));
}

/* The promise this entry is held to (see above). */
static double
promise_of(const struct cmp_pending *p, const struct cmp_rules *r)
{
	return p->metric->by_means && !p->explain ? r->promise_count :
	    r->promise;
}

/*
 * ... and, for a count of events (metrics.h by_means: blocks), one whose
 * estimate reaches half of T: rare events move in whole steps, so at 5
 * iterations a rate 1.5 blocks an iteration higher shows as 0.6-1.0 more
 * on one night in five, and a pass there ended the looking at it:
 * measuring these again, with the count test of compare_test.c, found
 * such a shift on more nights (NEWS: "The count rule", and the figures
 * moved out of harness/ comments).
 */
static bool
promising(const struct cmp_entry *e, const struct cmp_pending *p,
    const struct cmp_rules *r, double worse)
{
	if (!r->sequential || r->last || e->p_value > promise_of(p, r))
		return false;
	return worse >= e->threshold || (p->metric->by_means &&
	    !p->explain && worse >= e->threshold / 2);
}

/* A number for people: up to 4 significant digits, no exponent below 1e6. */
static void
add_num(struct strbuf *sb, double x, bool sign)
{
	if (isinf(x))
		strbuf_addstr(sb, x > 0 ? "+inf" : "-inf");
	else if (fabs(x) >= 100 || x == floor(x))
		strbuf_addf(sb, sign ? "%+.0f" : "%.0f", x);
	else
		strbuf_addf(sb, sign ? "%+.3g" : "%.3g", x);
}

static void
add_qty(struct strbuf *sb, double x, const char *unit, bool sign)
{
	add_num(sb, x, sign);
	strbuf_addf(sb, " %s", unit);
}

/* "holm", or for a primary metric weighted in it "holm, weighted 4". */
static void
add_how(struct strbuf *sb, const struct cmp_pending *p,
    const struct cmp_rules *r)
{
	strbuf_addstr(sb, stats_adjust_name(r->how));
	if (p->primary && !p->explain && r->primary_weight != 1)
		strbuf_addf(sb, ", weighted %g", r->primary_weight);
}

static void
add_p(struct strbuf *sb, const struct cmp_entry *e,
    const struct cmp_pending *p, const struct cmp_rules *r)
{
	strbuf_addf(sb, "p = %.2g", e->p_adjusted);
	if (r->how != STATS_ADJUST_NONE) {
		strbuf_addstr(sb, " after ");
		add_how(sb, p, r);
	}
}

static void
add_interval(struct strbuf *sb, const struct cmp_entry *e)
{
	strbuf_addf(sb, "%.0f %% interval ", e->shift_level * 100);
	add_num(sb, e->shift_lo, true);
	strbuf_addstr(sb, "..");
	add_num(sb, e->shift_hi, true);
	strbuf_addf(sb, " %s", e->unit);
}

/* "worse by 3 ms (threshold 1 ms)" */
static void
add_worse(struct strbuf *sb, const struct cmp_entry *e, const char *what)
{
	strbuf_addf(sb, "%s by ", what);
	add_qty(sb, fabs(e->shift), e->unit, false);
	strbuf_addstr(sb, " (threshold ");
	add_qty(sb, e->threshold, e->unit, false);
	strbuf_addstr(sb, ")");
}

void
cmp_decide(struct cmp_entry *e, const struct cmp_pending *p,
    const struct cmp_rules *r)
{
	struct strbuf sb = STRBUF_INIT;
	double s = e->higher_is_better ? -1 : 1;
	double worse = s * e->shift;
	double worse_hi = s > 0 ? e->shift_hi : -e->shift_lo;
	double t = e->threshold;
	bool sig;

	/* Quote the test of the direction the estimate points to. */
	e->p_value = worse > 0 ? p->p_worse_raw : p->p_better_raw;
	e->p_adjusted = worse > 0 ? p->p_worse : p->p_better;
	sig = e->p_adjusted <= r->alpha;
	if (p->degenerate) {
		e->verdict = CMP_PASS;
		strbuf_addstr(&sb, "every value is ");
		add_qty(&sb, e->base.median, e->unit, false);
		strbuf_addstr(&sb, " on both sides");
	} else if (sig && worse > 0 && worse >= t) {
		e->verdict = CMP_REGRESSION;
		add_worse(&sb, e, "worse");
		strbuf_addstr(&sb, ", ");
		add_p(&sb, e, p, r);
	} else if (sig && worse < 0 && -worse >= t) {
		e->verdict = CMP_IMPROVEMENT;
		add_worse(&sb, e, "better");
		strbuf_addstr(&sb, ", ");
		add_p(&sb, e, p, r);
	} else if (worse_hi < t) {
		/* What a pass can claim: the interval's worse end. */
		e->verdict = CMP_PASS;
		strbuf_addstr(&sb, "rules out worse than ");
		add_qty(&sb, fmax(worse_hi, 0), e->unit, true);
		strbuf_addstr(&sb, " (");
		add_interval(&sb, e);
		strbuf_addstr(&sb, "; threshold ");
		add_qty(&sb, t, e->unit, false);
		strbuf_addch(&sb, ')');
	} else if (worse < t && (!r->sequential || r->last || worse <= 0 ||
	    e->p_value > r->alpha) && !promising(e, p, r, worse)) {
		/*
		 * Below T, or better: no sign of a practical regression, but
		 * nothing ruled out either.  Not before a sequential caller's
		 * last look when the shift is significant alone (the interval
		 * reaches T, and the next look's iterations can tell), nor
		 * when a count promises to reach T (promising()).
		 */
		e->verdict = CMP_PASS;
		strbuf_addstr(&sb, "shift ");
		add_qty(&sb, e->shift, e->unit, true);
		strbuf_addstr(&sb, " is below the threshold of ");
		add_qty(&sb, t, e->unit, false);
		strbuf_addstr(&sb, ", but this sample cannot rule out a change "
		    "of practical size (");
		add_interval(&sb, e);
		strbuf_addch(&sb, ')');
	} else if (r->last ? e->p_adjusted > r->alpha_run :
	    e->p_value > (r->sequential ? promise_of(p, r) : r->alpha)) {
		e->verdict = CMP_PASS;
		add_worse(&sb, e, "worse");
		strbuf_addstr(&sb, " but not significant, ");
		if (r->last)
			add_p(&sb, e, p, r);
		else
			strbuf_addf(&sb, "p = %.2g even alone", e->p_value);
		strbuf_addstr(&sb, ": this sample cannot tell a change of "
		    "practical size from noise");
	} else if (worse < t) {
		e->verdict = CMP_INCONCLUSIVE;
		strbuf_addstr(&sb, "shift ");
		add_qty(&sb, e->shift, e->unit, true);
		strbuf_addstr(&sb, " is below the threshold of ");
		add_qty(&sb, t, e->unit, false);
		strbuf_addstr(&sb, " but its ");
		add_interval(&sb, e);
		strbuf_addf(&sb, " reaches it, p = %.2g alone; run more "
		    "iterations", e->p_value);
	} else {
		e->verdict = CMP_INCONCLUSIVE;
		add_worse(&sb, e, "worse");
		if (r->last) {
			strbuf_addf(&sb, ", p = %.2g after ", e->p_adjusted);
			add_how(&sb, p, r);
			strbuf_addf(&sb, ": below alpha %.2g but not this "
			    "last look's %.2g", r->alpha_run, r->alpha);
		} else {
			strbuf_addf(&sb, ", p = %.2g alone but %.2g after ",
			    e->p_value, e->p_adjusted);
			add_how(&sb, p, r);
			strbuf_addstr(&sb, "; run more iterations");
		}
	}
	free(e->reason);
	e->reason = strbuf_detach(&sb, NULL);
}
