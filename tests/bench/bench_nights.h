/*
 * bench_nights.h: the synthetic nights the store and gate benchmarks
 * record (bench_store.c, bench_gate.c): a template results file widened
 * to a number of measured iterations, each night's copy with its own run
 * id, device key and durations moved by a little noise, so nights differ
 * as real ones do and the same seed gives the same nights.
 */
#ifndef JG_BENCH_NIGHTS_H
#define JG_BENCH_NIGHTS_H

#include <cJSON.h>

#include "strbuf.h"

/* Give every scenario of `doc` `iterations` measured iterations. */
void nights_widen(cJSON *doc, int iterations);

/*
 * One night's run of key `k` in `out` (replaced): `work` (a copy of
 * `base`, moved further each call) with run id "nNNN-kKK", device key
 * "vendor-modelKK-api34-60hz" and every duration within 5 % of `base`'s.
 */
void nights_make_run(struct strbuf *out, cJSON *work, const cJSON *base,
    int night, int k);

/* The device key of key `k`, as nights_make_run() writes it. */
void nights_key(char *buf, size_t size, int k);

#endif
