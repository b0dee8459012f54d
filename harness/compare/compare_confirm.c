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

void
compare_suspects(struct strlist *out, const struct comparison *c)
{
	for (size_t i = 0; i < c->nr_entries; i++)
		if (c->entries[i].verdict == CMP_REGRESSION &&
		    strlist_find(out, c->entries[i].scenario) < 0)
			strlist_add(out, c->entries[i].scenario);
	for (size_t i = 0; i < c->nr_blocks; i++)
		if (c->blocks[i].verdict == CMP_REGRESSION &&
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
		if (e->verdict == CMP_REGRESSION &&
		    strlist_find(out, e->scenario) < 0 &&
		    scene_state(ab, e->scenario, e->scene, e->metric, NULL,
		    vsync_ms, &why) == SCENE_UNDECIDED)
			strlist_add(out, e->scenario);
	}
	for (size_t i = 0; i < hist->nr_blocks; i++) {
		const struct cmp_block *b = &hist->blocks[i];

		strbuf_reset(&why);
		if (b->verdict == CMP_REGRESSION &&
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

size_t
compare_confirm(struct comparison *hist, const struct comparison *ab,
    double vsync_ms, const char *what)
{
	struct strbuf why = STRBUF_INIT, at = STRBUF_INIT;
	size_t confirmed = 0, undecided = 0, cleared = 0;

	for (size_t i = 0; i < hist->nr_entries; i++) {
		struct cmp_entry *e = &hist->entries[i];
		enum scene_state st;
		char *was;

		if (e->verdict != CMP_REGRESSION)
			continue;
		strbuf_reset(&why);
		st = scene_state(ab, e->scenario, e->scene, e->metric, NULL,
		    vsync_ms, &why);
		was = xstrdup(e->reason ? e->reason : "regression");
		where_of(&at, e->scenario, e->scene);
		if (st == SCENE_CONFIRMED) {
			cmp_set_reasonf(e, "%s; confirmed by %s: %s", was,
			    what, why.buf);
			confirmed++;
		} else if (st == SCENE_UNDECIDED) {
			e->verdict = CMP_INCONCLUSIVE;
			cmp_set_reasonf(e, "the history found a regression "
			    "(%s); %s neither confirmed nor cleared %s", was,
			    what, at.buf);
			undecided++;
		} else {
			e->verdict = CMP_PASS;
			cmp_set_reasonf(e, "the history found a regression "
			    "(%s); not confirmed: %s found %s no worse%s%s",
			    was, what, at.buf, why.len ? " than " : "",
			    why.buf);
			strlist_addf(&hist->confirmation, "%s %s: the history's "
			    "regression (%s) was not confirmed by %s: passed",
			    at.buf, e->metric, was, what);
			cleared++;
		}
		free(was);
	}
	for (size_t i = 0; i < hist->nr_blocks; i++) {
		struct cmp_block *b = &hist->blocks[i];
		enum scene_state st;

		if (b->verdict != CMP_REGRESSION)
			continue;
		strbuf_reset(&why);
		st = scene_state(ab, b->scenario, b->scene, NULL,
		    b->signature, vsync_ms, &why);
		where_of(&at, b->scenario, b->scene);
		if (st == SCENE_CONFIRMED) {
			confirmed++;
			continue;
		}
		b->verdict = st == SCENE_UNDECIDED ? CMP_INCONCLUSIVE :
		    CMP_PASS;
		strlist_addf(&hist->confirmation, "%s: the history's new block "
		    "%s (in %g of %g iterations, p %.2g) was %s by %s%s",
		    at.buf, b->signature, b->cur.carriers, b->cur.iterations,
		    b->p_value, st == SCENE_UNDECIDED ? "neither confirmed "
		    "nor cleared" : "not confirmed", what,
		    st == SCENE_UNDECIDED ? ": inconclusive" : ": passed");
		if (st == SCENE_UNDECIDED)
			undecided++;
		else
			cleared++;
	}
	strlist_addf(&hist->confirmation, "%s: %zu of the history's "
	    "%zu regression%s confirmed, %zu undecided, %zu cleared", what,
	    confirmed, confirmed + undecided + cleared,
	    confirmed + undecided + cleared == 1 ? "" : "s", undecided,
	    cleared);
	strbuf_release(&why);
	strbuf_release(&at);
	return confirmed;
}
