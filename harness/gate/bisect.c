/*
 * bisect.c: `jankgate bisect`'s steps (bisect.h has the whole story).
 *
 * Each step is gate_ab() in a context of its own, as a confirmation is
 * (gate_confirm.c): A the last build known good, B the candidate, on
 * every selected phone, only the scenarios the targets name, writing
 * under OUT/step-N/ (its results, comparisons and report).  Only the
 * targets' scenes are compared (gate_ctx.ab_keep), each device key at
 * its part of alpha, and alpha is spent early (Pocock), so a plain
 * regression is settled by the first round; another round is run while the targets are undecided
 * (bisect_undecided()), up to --rounds, and a step undecided after them
 * makes its candidate untestable: the search goes round it as round a
 * build that would not build.  The first step is the bad build against
 * the good one, so a regression these phones do not show ends the
 * bisect with "no culprit" after one step rather than naming a
 * commit at random.
 *
 * What stops a bisect: an interrupt (the step cut short is dropped and
 * done again on --resume), phones that measured nothing (exit 3, the
 * candidate not blamed), the good or the bad build not building (exit 3)
 * or not being an APK of the app (exit 2).  The state is written before
 * the first step and after each one.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "comparison.h"
#include "config.h"
#include "error.h"
#include "exitstatus.h"
#include "fetch.h"
#include "fileio.h"
#include "gate.h"
#include "gate_int.h"
#include "bisect_report.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* What the undecided_of hook needs: the step's targets. */
struct step_data {
	const struct strlist *targets;
};

void
bisect_opts_init(struct bisect_opts *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->cfg = cfg;
	strlist_init(&o->serials);
	strlist_init(&o->connect);
	o->progress = RUN_PROGRESS_AUTO;
	o->mail_when = cfg ? cfg->mail.when : MAIL_ALWAYS;
}

void
bisect_opts_release(struct bisect_opts *o)
{
	strlist_release(&o->serials);
	strlist_release(&o->connect);
}

void
bisect_outcome_init(struct bisect_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->result = BISECT_NEXT_STEP;
	strlist_init(&out->errors);
}

void
bisect_outcome_release(struct bisect_outcome *out)
{
	strlist_release(&out->errors);
	free(out->report);
	free(out->mail_note);
}

char *
bisect_state_path(const char *out_dir)
{
	return xasprintf("%s/bisect.json", out_dir);
}

static void __attribute__((format(printf, 2, 3)))
note(const struct bisect_opts *o, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!o->note)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	o->note(o->note_data, sb.buf);
	strbuf_release(&sb);
}

static void __attribute__((format(printf, 4, 5)))
fail(struct bisect_outcome *out, const struct bisect_opts *o, int status,
    const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	out->status = exit_status_merge(out->status, status);
	note(o, "bisect: %s", sb.buf);
	strlist_add(&out->errors, sb.buf);
	strbuf_release(&sb);
}

/* The step's lines, told as the bisect's. */
static void
step_note(void *data, const char *line)
{
	const struct bisect_opts *o = data;

	note(o, "  %s", line);
}

/* Every key's comparison so far, in key order; NULLs for none. */
static const struct comparison **
comparisons_of(const struct gate_ctx *g)
{
	const struct comparison **c = xcalloc(g->out->nr_keys + 1,
	    sizeof(*c));

	for (size_t i = 0; g->work && i < g->out->nr_keys; i++)
		c[i] = g->work[i].cmp;
	return c;
}

/*
 * Another round for key i's undecided targets, none once any key found
 * a targeted regression: the candidate is bad, whatever else waits.
 */
static void
undecided_of(const struct gate_ctx *g, size_t i, struct strlist *out)
{
	const struct step_data *d = g->share_data;
	const struct comparison **c = comparisons_of(g);

	if (bisect_judge(c, g->out->nr_keys, d->targets, NULL) !=
	    BISECT_BAD)
		bisect_undecided(out, g->work[i].cmp, d->targets);
	free(c);
}

/* Each key of a step at its part of alpha: the keys are the family. */
static double
share_of(const struct gate_ctx *g, const char *key)
{
	(void)key;
	return g->out->nr_keys ? 1.0 / (double)g->out->nr_keys : 1;
}

/* The scenarios the targets name ("scn/scene metric"), each once. */
static void
target_scenarios(struct strlist *out, const struct strlist *targets)
{
	for (size_t i = 0; i < targets->nr; i++) {
		const char *t = targets->items[i];
		char *s = xstrndup(t, strcspn(t, "/"));

		if (strlist_find(out, s) < 0)
			strlist_add(out, s);
		free(s);
	}
}

/* A commit for people: "id" or "id (subject)". */
static char *
label(const struct bisect_commit *c)
{
	size_t n = strspn(c->id, "0123456789abcdef");

	return xasprintf("%.*s%s%s%s", n == 40 ? 12 : (int)strlen(c->id), c->id,
	    c->subject ? " (" : "", c->subject ? c->subject : "",
	    c->subject ? ")" : "");
}

/*
 * Run step `s` (its good and candidate built) and set its outcome.
 * Returns 0, or the exit status that stops the bisect (the step then
 * undone by the caller).
 */
static int
run_step(struct bisect_state *st, struct bisect_step *s,
    const struct bisect_opts *o, struct bisect_outcome *bout)
{
	struct gate_opts go;
	struct gate_outcome gout;
	struct gate_ctx g = { 0 };
	struct strlist scenarios = STRLIST_INIT;
	struct step_data d = { &st->targets };
	const struct comparison **cmps;
	char *what = NULL;
	int status = 0;

	gate_opts_init(&go, o->cfg);
	strlist_copy(&go.serials, &o->serials);
	strlist_copy(&go.connect, &o->connect);
	go.ab_old_apk = st->commits[s->good].apk;
	go.ab_new_apk = st->commits[s->candidate].apk;
	go.ab_block = o->ab_block;
	go.ab_rounds = o->ab_rounds;
	go.mail_when = MAIL_NEVER;
	go.update = UPDATE_NEVER;
	go.progress = o->progress;
	go.progress_fp = o->progress_fp;
	go.note = step_note;
	go.note_data = (void *)o;
	go.out_dir = s->dir;
	target_scenarios(&scenarios, &st->targets);
	gate_outcome_init(&gout);
	g.o = &go;
	g.cfg = o->cfg;
	g.out = &gout;
	g.out_dir = s->dir;
	g.looks = o->ab_rounds > 0 ? o->ab_rounds : GATE_AB_ROUNDS;
	g.ab_scenarios = &scenarios;
	g.ab_early = true;
	what = xasprintf("the last good build %s", st->commits[s->good].id);
	g.ab_old_what = what;
	g.undecided_of = undecided_of;
	g.share_data = &d;
	/*
	 * The step's family is its targets: their scenes alone are
	 * compared, each key at its part of alpha (docs/method.md, step
	 * 10, says what this buys).
	 */
	g.ab_keep = bisect_targeted;
	g.ab_keep_data = &st->targets;
	g.share_of = share_of;
	file_remove_tree(s->dir);
	jg_error_clear();
	gate_ab(&g);
	gout.interrupted = run_interrupted();
	s->rounds = (gout.ab_blocks + 3) / 4;
	if (gout.interrupted) {
		status = EXIT_INFRA;
		goto out;
	}
	gate_settle(&g);
	run_unlock_devices();
	gate_report(&g);
	cmps = comparisons_of(&g);
	for (size_t i = 0; i < gout.nr_keys; i++)
		if (gout.keys[i].comparison && g.work && g.work[i].cmp)
			strlist_add(&s->comparisons, gout.keys[i].comparison);
	if (!s->comparisons.nr) {
		/*
		 * A candidate that is no APK of the app (gate_ab.c names it
		 * "the new build") cannot be tested; the bad build or the
		 * good one not being one is the input's fault.
		 */
		if (gout.status == EXIT_BAD_INPUT && s->candidate + 1 <
		    st->nr && gout.errors.nr && strstr(gout.errors.items[0],
		    "the new build")) {
			s->outcome = BISECT_SKIP;
			strlist_add(&s->evidence, gout.errors.items[0]);
		} else {
			status = gout.status ? gout.status : EXIT_INFRA;
			for (size_t e = 0; e < gout.errors.nr; e++)
				strlist_add(&s->evidence, gout.errors.items[e]);
		}
		free(cmps);
		goto out;
	}
	s->outcome = bisect_judge(cmps, gout.nr_keys, &st->targets,
	    &s->evidence);
	free(cmps);
	if (s->outcome == BISECT_UNTESTED)
		s->outcome = BISECT_SKIP;
	/*
	 * A phone lost on the way leaves the others' verdict standing: the
	 * problem is told, and does not hide the culprit's exit 0.
	 */
	for (size_t e = 0; e < gout.errors.nr; e++) {
		strlist_addf(&s->evidence, "problem: %s", gout.errors.items[e]);
		strlist_addf(&bout->errors, "step %zu: %s", st->nr_steps,
		    gout.errors.items[e]);
	}
out:
	for (size_t i = 0; g.work && i < gout.nr_keys; i++)
		gate_work_release(&g.work[i]);
	free(g.work);
	gate_outcome_release(&gout);
	gate_opts_release(&go);
	strlist_release(&scenarios);
	free(what);
	return status;
}

/* Drop the last step (cut short): --resume runs it again. */
static void
drop_step(struct bisect_state *st)
{
	struct bisect_step *s = &st->steps[--st->nr_steps];

	free(s->dir);
	strlist_release(&s->evidence);
	strlist_release(&s->comparisons);
}

static int
save(const struct bisect_state *st, const char *path,
    const struct bisect_opts *o, struct bisect_outcome *out)
{
	if (!bisect_state_write(st, path))
		return 0;
	fail(out, o, EXIT_INFRA, "%s", jg_error_msg());
	jg_error_clear();
	return -1;
}

/* Make sure an endpoint is built: a bisect cannot go round one. */
static int
endpoint(struct bisect_state *st, size_t i, const char *which,
    const char *out_dir, const struct bisect_opts *o,
    struct bisect_outcome *out)
{
	int rc = bisect_build(st, i, out_dir);

	if (!rc)
		return 0;
	if (rc == JG_EINTR)
		fail(out, o, EXIT_INFRA, "interrupted while building the %s "
		    "build; --resume continues", which);
	else
		fail(out, o, st->build_cmd || fetch_is_url(st->commits[i].apk) ?
		    EXIT_INFRA : EXIT_BAD_INPUT,
		    "the %s build %s: %s", which, st->commits[i].id,
		    st->commits[i].why);
	return -1;
}

/* The search, step after step, until it ends or stops. */
static void
search(struct bisect_state *st, const struct bisect_opts *o,
    const char *out_dir, const char *path, struct bisect_outcome *out)
{
	size_t good, cand;
	enum bisect_next next;

	if (save(st, path, o, out) || endpoint(st, 0, "good", out_dir, o,
	    out))
		return;
	while ((next = bisect_next(st, &good, &cand)) == BISECT_NEXT_STEP) {
		struct bisect_commit *c = &st->commits[cand];
		struct bisect_step *s;
		char *a, *b;
		int rc;

		if (run_interrupted()) {
			out->interrupted = true;
			fail(out, o, EXIT_INFRA, "interrupted before step %zu; "
			    "--resume continues", st->nr_steps + 1);
			return;
		}
		if (cand == st->nr - 1 ? endpoint(st, cand, "bad", out_dir,
		    o, out) :
		    0)
			return;
		if ((rc = bisect_build(st, cand, out_dir)) == JG_EINTR) {
			out->interrupted = true;
			fail(out, o, EXIT_INFRA, "interrupted while building "
			    "%s; --resume continues", c->id);
			return;
		}
		if (rc) {
			c->mark = BISECT_SKIP;
			b = label(c);
			note(o, "bisect: %s is untestable: %s", b, c->why);
			free(b);
			if (save(st, path, o, out))
				return;
			continue;
		}
		s = bisect_state_add_step(st, good, cand);
		s->dir = xasprintf("%s/step-%zu", out_dir, st->nr_steps);
		a = label(&st->commits[good]);
		b = label(c);
		note(o, "bisect: step %zu: good %s against %s", st->nr_steps,
		    a, b);
		free(a);
		free(b);
		rc = run_step(st, s, o, out);
		if (rc) {
			out->interrupted = run_interrupted();
			fail(out, o, rc, "step %zu %s%s%s; --resume runs it "
			    "again", st->nr_steps, out->interrupted ?
			    "was interrupted" : "measured nothing",
			    s->evidence.nr ? ": " : "", s->evidence.nr ?
			    s->evidence.items[0] : "");
			drop_step(st);
			save(st, path, o, out);
			return;
		}
		c->mark = s->outcome;
		if (s->outcome == BISECT_SKIP && !c->why)
			c->why = !s->rounds && s->evidence.nr ?
			    xstrdup(s->evidence.items[0]) : xasprintf("step "
			    "%zu could not decide after %d round%s",
			    st->nr_steps, s->rounds, s->rounds == 1 ? "" :
			    "s");
		b = label(c);
		note(o, "bisect: step %zu: %s is %s (%d round%s)",
		    st->nr_steps, b, bisect_mark_name(s->outcome),
		    s->rounds, s->rounds == 1 ? "" : "s");
		free(b);
		if (save(st, path, o, out))
			return;
	}
	out->result = next;
	out->good = good;
	out->candidate = cand;
	out->status = exit_status_merge(out->status, next ==
	    BISECT_NEXT_UNDECIDED ? EXIT_INCONCLUSIVE : EXIT_PASS);
}

int
bisect_execute(struct bisect_state *st, const struct bisect_opts *o,
    struct bisect_outcome *out)
{
	const char *out_dir = o->out_dir ? o->out_dir : o->cfg->out_dir;
	char *path = bisect_state_path(out_dir);
	size_t good, cand;

	if (file_mkdirs(out_dir, 0755)) {
		fail(out, o, EXIT_INFRA, "%s", jg_error_msg());
		goto out;
	}
	search(st, o, out_dir, path, out);
	run_unlock_devices();
	if (out->result == BISECT_NEXT_STEP) {
		/* Stopped: the report says where it stands. */
		bisect_next(st, &good, &cand);
		out->good = good;
		out->candidate = cand;
	}
	if (report_bisect(st, out->result, out->good, out->candidate,
	    out_dir)) {
		fail(out, o, EXIT_INFRA, "report: %s", jg_error_msg());
		jg_error_clear();
	} else {
		out->report = xasprintf("%s/report.html", out_dir);
	}
	/* Stopped, the bisect has nothing to tell yet: no mail. */
	if (out->result != BISECT_NEXT_STEP && !run_interrupted()) {
		struct strbuf sb = STRBUF_INIT;

		if (bisect_mail(&sb, st, o->cfg, o->mail_when, out->result,
		    out->good, out->candidate, out_dir)) {
			fail(out, o, EXIT_INFRA, "mail: %s", jg_error_msg());
			jg_error_clear();
		}
		note(o, "bisect: mail: %s", sb.buf);
		out->mail_note = strbuf_detach(&sb, NULL);
	}
	if (run_interrupted()) {
		out->interrupted = true;
		out->status = exit_status_merge(out->status, EXIT_INFRA);
	}
out:
	free(path);
	return out->status;
}
