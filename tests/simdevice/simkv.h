/*
 * simkv.h: a small sorted string map with its own lock.
 *
 * The simulated device keeps its system properties (getprop) and, later,
 * its settings tables in these.  Keys stay sorted so `getprop` without
 * arguments lists them in the same order as a real device.  Every function
 * takes the map's mutex, so stream threads may share one map.
 */
#ifndef SIM_SIMKV_H
#define SIM_SIMKV_H

#include <pthread.h>
#include <stddef.h>

struct strbuf;

struct simkv_entry {
	char *key;
	char *value;
};

struct simkv {
	pthread_mutex_t lock;
	struct simkv_entry *v;
	size_t nr, alloc;
};

/* An empty map; simkv_release() frees every entry and the lock. */
void simkv_init(struct simkv *kv);
void simkv_release(struct simkv *kv);

/* Set `key` to `value` (both copied), replacing an older value. */
void simkv_set(struct simkv *kv, const char *key, const char *value);

/*
 * Append the value of `key` to `out` and return 1, or return 0 (and leave
 * `out` alone) when the key is not set.
 */
int simkv_get(struct simkv *kv, const char *key, struct strbuf *out);

/* Remove `key`; returns 1 when it was set. */
int simkv_unset(struct simkv *kv, const char *key);

/*
 * Call `fn` for each entry in key order, with the lock held: `fn` must not
 * call back into this map.  Stops early when `fn` returns non-zero.
 */
void simkv_foreach(struct simkv *kv,
    int (*fn)(const char *key, const char *value, void *data), void *data);

#endif
