/*
 * compare_confirm.c: the history's regressions confirmed, or not, by an
 * interleaved A/B of the previous accepted build and tonight's on the same
 * phones (docs/method.md, step 9; `gate` with baseline.previous_apk or
 * --confirm-apk, gate_confirm.c runs it; `compare --confirm` again from
 * the files).
 *
 * A comparison with stored baselines cannot tell a build that is slower
 * from a phone that is slower tonight in a way the session offsets do not
 * take off (aging faster than the window, a heavy-tailed session on one
 * scenario).  An A/B on the same phones in the same session can: the
 * phone's state is shared by both builds.  The history stays the screen
 * (it is cheap and looks at everything); the A/B, run only on the
 * scenarios the history accused, is the judge, scene by scene:
 *
 *   confirmed   the A/B found a regression of the same scene (any of its
 *               metrics or a new block signature; for a launch metric,
 *               any launch metric of the scenario), unless every such
 *               regression is a whole-ms frame percentile that moved by
 *               one vsync period (give or take CMP_VSYNC_ROUNDING_MS):
 *               a frame that waits one more vsync is not, alone, a build
 *               worth failing a night for.  The history's regression
 *               stands, its reason says what the A/B found;
 *   undecided   the A/B left the scene inconclusive, or could not measure
 *               its scenario: the history's regression becomes
 *               inconclusive (exit 4: measure again), never a pass;
 *   cleared     anything else: the history's regression becomes a pass,
 *               and a line of c->confirmation keeps what the history
 *               had said.  Before
 *               the A/B's last look, a pass of the accused metric whose
 *               interval still reaches its practical size T clears
 *               nothing yet (undecided: another round), so that an
 *               estimate just under T at 25 iterations does not stop
 *               the A/B; nor does the accused block signature, carried
 *               by some of the new build's iterations but not yet
 *               significant.
 *
 * Both tests must reject for a night to fail, so a false regression needs
 * two: the A/B spends alpha over the suspects alone (gate_confirm.c).
 *
 * What the history left undecided (an inconclusive entry or block after
 * its last look: a session it could not place) and its suspects (passes
 * worse by T whose evidence reached the suspects' level, step 8: a real
 * change a short window could not show at the night's level) are put to
 * the same A/B, which then decides alone, by the same rules: a regression
 * of the scene makes either a regression (found), a clearing a pass
 * (settled), anything else leaves it as it was.  The A/B's alpha is shared over every
 * scenario it measures, accused or undecided, so that the night's false
 * regressions stay within its alpha whichever of the two paths they take
 * (the A/B's data are new, so which scenarios the history selected does
 * not bias them).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_int.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* What the A/B says of one scene (scene NULL: the scenario's launch). */
enum scene_state {
	SCENE_CLEARED,
	SCENE_UNDECIDED,
	SCENE_CONFIRMED,
};

/*
 * A whole-ms frame percentile that moved by one vsync step: by the period
 * give or take gfxinfo's rounding, as a percentile does when the frames
 * at it go from waiting for one vsync to waiting for the next.  A shift
 * well inside a period is the frames themselves moving.
 */
static bool
one_vsync_step(const struct cmp_entry *e, double vsync_ms)
{
	const struct metric_def *m = metric_find(e->metric);
	double worse = e->higher_is_better ? -e->shift : e->shift;

	return m && m->kind == METRIC_KIND_FRAME_TIME &&
	    m->scope == METRIC_SCENE && m->resolution >= 1 &&
	    isfinite(vsync_ms) && vsync_ms > 0 &&
	    fabs(worse - vsync_ms) <= CMP_VSYNC_ROUNDING_MS;
}

static bool
scenario_measured(const struct comparison *ab, const char *scenario)
{
	for (size_t i = 0; i < ab->nr_scenarios; i++)
		if (!strcmp(ab->scenarios[i].name, scenario))
			return ab->scenarios[i].verdict != CMP_MISSING &&
			    ab->scenarios[i].verdict != CMP_NEW &&
			    ab->scenarios[i].cur_valid > 0;
	return false;
}

/*
 * Whether the A/B's entry of the accused metric passed without ruling
 * out its practical size before the A/B's last look: an estimate below T
 * whose interval still reaches T clears nothing yet.
 */
static bool
not_ruled_out(const struct comparison *ab, const struct cmp_entry *e)
{
	double hi = e->higher_is_better ? -e->shift_lo : e->shift_hi;

	return !ab->last && e->verdict == CMP_PASS && isfinite(hi) &&
	    isfinite(e->threshold) && hi >= e->threshold;
}

/*
 * The A/B's word on (scenario, scene), the history having found `metric`
 * worse there (NULL: a block); `why` gets its regressed metrics
 * ("frame_p90_ms +3 ms, p 0.0002") when it confirms.
 */
static enum scene_state
scene_state(const struct comparison *ab, const char *scenario,
    const char *scene, const char *metric, const char *signature,
    double vsync_ms, struct strbuf *why)
{
	bool undecided = false, stepped = false, confirmed = false;

	if (!scenario_measured(ab, scenario))
		return SCENE_UNDECIDED;
	for (size_t i = 0; i < ab->nr_scenarios; i++)
		if (!strcmp(ab->scenarios[i].name, scenario) &&
		    ab->scenarios[i].verdict == CMP_INCONCLUSIVE)
			undecided = true;
	for (size_t i = 0; i < ab->nr_entries; i++) {
		const struct cmp_entry *e = &ab->entries[i];

		if (strcmp(e->scenario, scenario) ||
		    !cmp_same_str(e->scene, scene))
			continue;
		if (e->verdict == CMP_INCONCLUSIVE || (metric &&
		    !strcmp(e->metric, metric) && not_ruled_out(ab, e)))
			undecided = true;
		if (e->verdict != CMP_REGRESSION)
			continue;
		if (one_vsync_step(e, vsync_ms)) {
			stepped = true;
			continue;
		}
		confirmed = true;
		strbuf_addf(why, "%s%s %+.4g %s, p %.2g", why->len ? "; " : "",
		    e->metric, e->shift, e->unit ? e->unit : "",
		    e->p_adjusted);
	}
	for (size_t i = 0; i < ab->nr_blocks; i++) {
		const struct cmp_block *b = &ab->blocks[i];

		if (strcmp(b->scenario, scenario) ||
		    !cmp_same_str(b->scene, scene))
			continue;
		/*
		 * The accused signature, seen in the new build's blocks
		 * but not yet significant: another round may make it so.
		 */
		if (b->verdict == CMP_INCONCLUSIVE || (signature &&
		    !strcmp(b->signature, signature) && !ab->last &&
		    b->verdict == CMP_PASS && b->cur.carriers > 0))
			undecided = true;
		if (b->verdict != CMP_REGRESSION)
			continue;
		confirmed = true;
		strbuf_addf(why, "%snew block %s in %g of %g iterations, p %.2g",
		    why->len ? "; " : "", b->signature, b->cur.carriers,
		    b->cur.iterations, b->p_value);
	}
	if (confirmed)
		return SCENE_CONFIRMED;
	if (stepped)
		strbuf_addf(why, "a whole-ms frame percentile one vsync "
		    "step (%.3g ms) worse, and nothing else", vsync_ms);
	return undecided ? SCENE_UNDECIDED : SCENE_CLEARED;
}

/*
 * What the A/B is asked about: the history's regressions, what it left
 * undecided, and its suspects (passes that lean worse, step 8).
 */
static bool
asked_entry(const struct cmp_entry *e)
{
	return e->verdict == CMP_REGRESSION || e->verdict ==
	    CMP_INCONCLUSIVE || (e->verdict == CMP_PASS && e->suspect);
}

static bool
asked_block(const struct cmp_block *b)
{
	return b->verdict == CMP_REGRESSION || b->verdict ==
	    CMP_INCONCLUSIVE || (b->verdict == CMP_PASS && b->suspect);
}

void
compare_suspects(struct strlist *out, const struct comparison *c)
{
	for (size_t i = 0; i < c->nr_entries; i++)
		if (asked_entry(&c->entries[i]) &&
		    strlist_find(out, c->entries[i].scenario) < 0)
			strlist_add(out, c->entries[i].scenario);
	for (size_t i = 0; i < c->nr_blocks; i++)
		if (asked_block(&c->blocks[i]) &&
		    strlist_find(out, c->blocks[i].scenario) < 0)
			strlist_add(out, c->blocks[i].scenario);
}

void
compare_confirm_undecided(struct strlist *out, const struct comparison *hist,
    const struct comparison *ab, double vsync_ms)
{
	struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; i < hist->nr_entries; i++) {
		const struct cmp_entry *e = &hist->entries[i];

		strbuf_reset(&why);
		if (asked_entry(e) &&
		    strlist_find(out, e->scenario) < 0 &&
		    scene_state(ab, e->scenario, e->scene, e->metric, NULL,
		    vsync_ms, &why) == SCENE_UNDECIDED)
			strlist_add(out, e->scenario);
	}
	for (size_t i = 0; i < hist->nr_blocks; i++) {
		const struct cmp_block *b = &hist->blocks[i];

		strbuf_reset(&why);
		if (asked_block(b) &&
		    strlist_find(out, b->scenario) < 0 &&
		    scene_state(ab, b->scenario, b->scene, NULL,
		    b->signature, vsync_ms, &why) == SCENE_UNDECIDED)
			strlist_add(out, b->scenario);
	}
	strbuf_release(&why);
}

/* "scn/scene" or "scn (launch)" */
static void
where_of(struct strbuf *sb, const char *scenario, const char *scene)
{
	strbuf_reset(sb);
	if (scene)
		strbuf_addf(sb, "%s/%s", scenario, scene);
	else
		strbuf_addf(sb, "%s", scenario);
}

/* What compare_confirm() made of the history's verdicts. */
struct tally {
	size_t confirmed, undecided, cleared;	/* of its regressions */
	size_t found, settled, open;		/* of what it left undecided */
};

/* An entry of the history, by the A/B's word on its scene. */
static void
confirm_entry(struct comparison *hist, struct cmp_entry *e,
    const struct comparison *ab, double vsync_ms, const char *what,
    struct tally *t)
{
	struct strbuf why = STRBUF_INIT, at = STRBUF_INIT;
	enum scene_state st = scene_state(ab, e->scenario, e->scene, e->metric,
	    NULL, vsync_ms, &why);
	char *was = xstrdup(e->reason ? e->reason : cmp_verdict_name(
	    e->verdict));

	where_of(&at, e->scenario, e->scene);
	if (e->verdict != CMP_REGRESSION) {
		const char *had = e->verdict == CMP_INCONCLUSIVE ?
		    "the history could not decide" : "a suspect of the history";

		if (st == SCENE_CONFIRMED) {
			e->verdict = CMP_REGRESSION;
			e->suspect = false;
			cmp_set_reasonf(e, "%s (%s); found by %s: %s", had, was,
			    what, why.buf);
			strlist_addf(&hist->confirmation, "%s %s: %s (%s), "
			    "found a regression by %s: %s", at.buf, e->metric,
			    had, was, what, why.buf);
			t->found++;
		} else if (st == SCENE_CLEARED) {
			e->verdict = CMP_PASS;
			e->suspect = false;
			cmp_set_reasonf(e, "%s (%s); %s found %s no worse%s%s",
			    had, was, what, at.buf, why.len ? " than " : "",
			    why.buf);
			t->settled++;
		} else {
			t->open++;
		}
	} else if (st == SCENE_CONFIRMED) {
		cmp_set_reasonf(e, "%s; confirmed by %s: %s", was, what,
		    why.buf);
		t->confirmed++;
	} else if (st == SCENE_UNDECIDED) {
		e->verdict = CMP_INCONCLUSIVE;
		cmp_set_reasonf(e, "the history found a regression (%s); %s "
		    "neither confirmed nor cleared %s", was, what, at.buf);
		t->undecided++;
	} else {
		e->verdict = CMP_PASS;
		cmp_set_reasonf(e, "the history found a regression (%s); not "
		    "confirmed: %s found %s no worse%s%s", was, what, at.buf,
		    why.len ? " than " : "", why.buf);
		strlist_addf(&hist->confirmation, "%s %s: the history's "
		    "regression (%s) was not confirmed by %s: passed", at.buf,
		    e->metric, was, what);
		t->cleared++;
	}
	free(was);
	strbuf_release(&why);
	strbuf_release(&at);
}

/* A new block signature of the history, likewise. */
static void
confirm_block(struct comparison *hist, struct cmp_block *b,
    const struct comparison *ab, double vsync_ms, const char *what,
    struct tally *t)
{
	struct strbuf why = STRBUF_INIT, at = STRBUF_INIT;
	enum scene_state st = scene_state(ab, b->scenario, b->scene, NULL,
	    b->signature, vsync_ms, &why);

	where_of(&at, b->scenario, b->scene);
	if (b->verdict != CMP_REGRESSION) {
		if (st == SCENE_UNDECIDED) {
			t->open++;
		} else {
			strlist_addf(&hist->confirmation, "%s: the new block "
			    "%s (in %g of %g iterations, p %.2g), %s by the "
			    "history, was %s by %s%s%s", at.buf,
			    b->signature, b->cur.carriers, b->cur.iterations,
			    b->p_value, b->verdict == CMP_INCONCLUSIVE ?
			    "undecided" : "suspected", st == SCENE_CONFIRMED ?
			    "found a regression" : "cleared", what, why.len ?
			    ": " : "", why.buf);
			b->verdict = st == SCENE_CONFIRMED ? CMP_REGRESSION :
			    CMP_PASS;
			b->suspect = false;
			*(st == SCENE_CONFIRMED ? &t->found : &t->settled) +=
			    1;
		}
	} else if (st == SCENE_CONFIRMED) {
		t->confirmed++;
	} else {
		b->verdict = st == SCENE_UNDECIDED ? CMP_INCONCLUSIVE :
		    CMP_PASS;
		strlist_addf(&hist->confirmation, "%s: the history's new block "
		    "%s (in %g of %g iterations, p %.2g) was %s by %s%s",
		    at.buf, b->signature, b->cur.carriers, b->cur.iterations,
		    b->p_value, st == SCENE_UNDECIDED ? "neither confirmed "
		    "nor cleared" : "not confirmed", what,
		    st == SCENE_UNDECIDED ? ": inconclusive" : ": passed");
		*(st == SCENE_UNDECIDED ? &t->undecided : &t->cleared) += 1;
	}
	strbuf_release(&why);
	strbuf_release(&at);
}

size_t
compare_confirm(struct comparison *hist, const struct comparison *ab,
    double vsync_ms, const char *what)
{
	struct tally t = { 0, 0, 0, 0, 0, 0 };
	size_t accused;

	for (size_t i = 0; i < hist->nr_entries; i++)
		if (asked_entry(&hist->entries[i]))
			confirm_entry(hist, &hist->entries[i], ab, vsync_ms,
			    what, &t);
	for (size_t i = 0; i < hist->nr_blocks; i++)
		if (asked_block(&hist->blocks[i]))
			confirm_block(hist, &hist->blocks[i], ab, vsync_ms,
			    what, &t);
	accused = t.confirmed + t.undecided + t.cleared;
	if (!accused)
		strlist_addf(&hist->confirmation, "%s: the history found no "
		    "regression; of the %zu it left undecided or suspected, "
		    "%zu found regressions, %zu passed, %zu still open", what,
		    t.found + t.settled + t.open, t.found, t.settled, t.open);
	else if (t.found + t.settled + t.open)
		strlist_addf(&hist->confirmation, "%s: %zu of the history's "
		    "%zu regression%s confirmed, %zu undecided, %zu cleared; "
		    "of the %zu it left undecided or suspected, %zu found "
		    "regressions, %zu passed, %zu still open", what, t.confirmed, accused,
		    accused == 1 ? "" : "s", t.undecided, t.cleared, t.found +
		    t.settled + t.open, t.found, t.settled, t.open);
	else
		strlist_addf(&hist->confirmation, "%s: %zu of the history's "
		    "%zu regression%s confirmed, %zu undecided, %zu cleared",
		    what, t.confirmed, accused, accused == 1 ? "" : "s",
		    t.undecided, t.cleared);
	return t.confirmed + t.found;
}
