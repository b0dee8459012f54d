/*
 * gate_policy.c: what `jankgate gate` decides, apart from doing it.
 *
 * How many looks, how big a batch, which scenarios need more iterations,
 * when to mail and when to record a baseline: small pure functions, so
 * that gate.c reads as the order of the stages and every rule here is
 * tested without a device (tests/unit/test_gate.c).
 */
#include <string.h>

#include "config.h"
#include "gate.h"
#include "strlist.h"
#include "banned.h"

int
gate_looks(int iterations, int max_iterations)
{
	if (iterations < 1 || max_iterations <= iterations)
		return 1;
	return 1 + (max_iterations - iterations + iterations - 1) / iterations;
}

int
gate_batch(int iterations, int max_iterations, int done)
{
	int room = max_iterations - done;

	if (iterations < 1 || room <= 0)
		return 0;
	return room < iterations ? room : iterations;
}

void
gate_undecided(struct strlist *out, const struct comparison *c)
{
	for (size_t i = 0; i < c->nr_scenarios; i++)
		if (c->scenarios[i].verdict == CMP_INCONCLUSIVE &&
		    strlist_find(out, c->scenarios[i].name) < 0)
			strlist_add(out, c->scenarios[i].name);
	for (size_t i = 0; i < c->nr_entries; i++)
		if (c->entries[i].verdict == CMP_INCONCLUSIVE &&
		    strlist_find(out, c->entries[i].scenario) < 0)
			strlist_add(out, c->entries[i].scenario);
	for (size_t i = 0; i < c->nr_blocks; i++)
		if (c->blocks[i].verdict == CMP_INCONCLUSIVE &&
		    strlist_find(out, c->blocks[i].scenario) < 0)
			strlist_add(out, c->blocks[i].scenario);
}

const char *
gate_commit_verdict(const struct comparison *c)
{
	size_t counts[CMP_NR_VERDICTS];
	enum cmp_verdict v = comparison_verdict(c);

	if (v != CMP_PASS)
		return cmp_verdict_name(v);
	comparison_count(c, counts);
	if (c->nr_entries && counts[CMP_NEW] == c->nr_entries)
		return cmp_verdict_name(CMP_NEW);
	if (counts[CMP_IMPROVEMENT])
		return cmp_verdict_name(CMP_IMPROVEMENT);
	return cmp_verdict_name(CMP_PASS);
}

int
gate_wants_mail(enum config_mail_when when, bool any_regression)
{
	return when == MAIL_ALWAYS || (when == MAIL_REGRESSION &&
	    any_regression);
}

const char *
gate_record_refusal(enum config_update update, const struct gate_key *k,
    bool any_regression)
{
	if (!k->compared)
		return "not compared";
	if (k->run_status)
		return "the run failed on a device";
	if (!k->complete)
		return "the run did not complete";
	if (update == UPDATE_NEVER)
		return "update policy never";
	if (update == UPDATE_ALWAYS)
		return NULL;
	if (k->verdict != CMP_PASS)
		return "verdict is not a pass (update policy on-pass)";
	if (any_regression)
		return "another device key regressed (update policy on-pass)";
	return NULL;
}

double
gate_share(size_t key_scenarios, size_t keys, size_t scenarios)
{
	double night = (double)keys * (double)scenarios;

	if (!key_scenarios || night <= 0)
		return 1;
	return night > (double)key_scenarios ? (double)key_scenarios / night :
	    1;
}

long
gate_bisect_good(const struct baseline_entry *e, size_t nr)
{
	static const char *const good[] = {
		"pass", "improvement", "new", "accepted"
	};

	for (size_t i = 0; i < nr; i++)
		for (size_t v = 0; e[i].verdict && v < 4; v++)
			if (!strcmp(e[i].verdict, good[v]))
				return (long)i;
	return -1;
}
