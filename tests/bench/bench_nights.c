/*
 * bench_nights.c: the benchmarks' synthetic nights (bench_nights.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_nights.h"

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

/* xorshift64*, uniform in [0, 1): the same nights every time. */
static double
uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

void
nights_widen(cJSON *doc, int iterations)
{
	cJSON *sc;

	cJSON_ArrayForEach(sc, cJSON_GetObjectItem(doc, "scenarios")) {
		cJSON *its = cJSON_GetObjectItem(sc, "iterations"), *it;
		cJSON *last = NULL;
		int measured = 0, n = 0;

		cJSON_ArrayForEach(it, its) {
			n++;
			if (!cJSON_IsTrue(cJSON_GetObjectItem(it, "warmup"))) {
				measured++;
				last = it;
			}
		}
		for (; last && measured < iterations; measured++, n++) {
			cJSON *copy = cJSON_Duplicate(last, 1);

			cJSON_ReplaceItemInObject(copy, "index",
			    cJSON_CreateNumber(n));
			cJSON_AddItemToArray(its, copy);
		}
	}
}

/* Move each duration ("..._ms", not a clock reading) of `work` by up to
 * 5 % of its value in `base`. */
static void
jitter(cJSON *work, const cJSON *base)
{
	cJSON *w = work->child;
	const cJSON *b = base->child;

	for (; w && b; w = w->next, b = b->next) {
		size_t n = w->string ? strlen(w->string) : 0;

		if (cJSON_IsNumber(b) && n > 3 &&
		    !strcmp(w->string + n - 3, "_ms") &&
		    !strstr(w->string, "mono") && b->valuedouble > 0) {
			double v = b->valuedouble * (0.95 + 0.1 * uniform());

			cJSON_SetNumberValue(w, b->valueint == b->valuedouble ?
			    round(v) : round(v * 100) / 100);
		} else if (cJSON_IsObject(b) || cJSON_IsArray(b)) {
			jitter(w, b);
		}
	}
}

void
nights_key(char *buf, size_t size, int k)
{
	snprintf(buf, size, "vendor-model%02d-api34-60hz", k);
}

void
nights_make_run(struct strbuf *out, cJSON *work, const cJSON *base,
    int night, int k)
{
	cJSON *run = cJSON_GetObjectItem(work, "run");
	cJSON *dev = cJSON_GetObjectItem(work, "device");
	char id[64], key[64];
	char *text;

	snprintf(id, sizeof(id), "n%03d-k%02d", night, k);
	nights_key(key, sizeof(key), k);
	jitter(work, base);
	cJSON_ReplaceItemInObject(run, "id", cJSON_CreateString(id));
	cJSON_ReplaceItemInObject(dev, "key", cJSON_CreateString(key));
	text = cJSON_Print(work);
	strbuf_reset(out);
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
}
