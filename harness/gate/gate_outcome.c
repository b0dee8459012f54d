/*
 * gate_outcome.c: the options' defaults, and the outcome of a gate as it
 * is built (gate.h): its device keys, what it tells people as each step
 * ends, and its failures, each merged into the exit status.  Every stage
 * writes here.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "exitstatus.h"
#include "gate.h"
#include "gate_int.h"
#include "run.h"
#include "strbuf.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Here, not in gate.c: a bisect's steps (bisect.c) need them, and
 * gate.c calls the bisect (gate_bisect.c). */
void
gate_opts_init(struct gate_opts *o, const struct config *cfg)
{
	memset(o, 0, sizeof(*o));
	o->cfg = cfg;
	strlist_init(&o->serials);
	strlist_init(&o->connect);
	o->mail_when = cfg ? cfg->mail.when : MAIL_ALWAYS;
	o->update = cfg ? cfg->baseline.update : UPDATE_ON_PASS;
	o->progress = RUN_PROGRESS_AUTO;
}

void
gate_opts_release(struct gate_opts *o)
{
	strlist_release(&o->serials);
	strlist_release(&o->connect);
}

void
gate_note(struct gate_ctx *g, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!g->o->note)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	g->o->note(g->o->note_data, sb.buf);
	strbuf_release(&sb);
}

void
gate_fail(struct gate_ctx *g, int status, const char *stage,
    const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "%s: ", stage);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	g->out->status = exit_status_merge(g->out->status, status);
	/* A device failing batch after batch is one problem, said once. */
	if (strlist_find(&g->out->errors, sb.buf) < 0) {
		strlist_add(&g->out->errors, sb.buf);
		gate_note(g, "%s: error: %s", stage,
		    sb.buf + strlen(stage) + 2);
	}
	strbuf_release(&sb);
}

void
gate_outcome_init(struct gate_outcome *out)
{
	memset(out, 0, sizeof(*out));
	run_report_init(&out->run);
	strlist_init(&out->errors);
	strlist_init(&out->warnings);
	strlist_init(&out->ci);
}

static void
key_release(struct gate_key *k)
{
	free(k->key);
	strlist_release(&k->serials);
	strlist_release(&k->results);
	free(k->current);
	free(k->comparison);
	strlist_release(&k->regressions);
	strlist_release(&k->suspects);
	strlist_release(&k->blocks);
	free(k->commit_verdict);
	strlist_release(&k->notes);
}

void
gate_outcome_release(struct gate_outcome *out)
{
	for (size_t i = 0; i < out->nr_keys; i++)
		key_release(&out->keys[i]);
	free(out->keys);
	run_report_release(&out->run);
	free(out->report_dir);
	free(out->mail_subject);
	free(out->mail_note);
	free(out->ab_how);
	free(out->ab_seq);
	free(out->bisect);
	free(out->bisect_report);
	strlist_release(&out->errors);
	strlist_release(&out->warnings);
	strlist_release(&out->ci);
	memset(out, 0, sizeof(*out));
}

struct gate_key *
gate_key_find_or_add(struct gate_ctx *g, const char *key)
{
	struct gate_outcome *out = g->out;
	struct gate_key *k;

	for (size_t i = 0; i < out->nr_keys; i++)
		if (!strcmp(out->keys[i].key, key))
			return &out->keys[i];
	XALLOC_GROW(out->keys, out->nr_keys + 1, out->alloc_keys);
	k = &out->keys[out->nr_keys++];
	memset(k, 0, sizeof(*k));
	k->key = xstrdup(key);
	strlist_init(&k->serials);
	strlist_init(&k->results);
	strlist_init(&k->regressions);
	strlist_init(&k->suspects);
	strlist_init(&k->blocks);
	strlist_init(&k->notes);
	return k;
}
