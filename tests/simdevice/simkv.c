/*
 * simkv.c: the sorted string map behind getprop and settings.
 *
 * A sorted array searched with bsearch-style bisection: the maps hold a few
 * hundred entries at most and are read far more often than written.
 */
#include <stdlib.h>
#include <string.h>

#include "simkv.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

void
simkv_init(struct simkv *kv)
{
	pthread_mutex_init(&kv->lock, NULL);
	kv->v = NULL;
	kv->nr = kv->alloc = 0;
}

void
simkv_release(struct simkv *kv)
{
	size_t i;

	for (i = 0; i < kv->nr; i++) {
		free(kv->v[i].key);
		free(kv->v[i].value);
	}
	free(kv->v);
	kv->v = NULL;
	kv->nr = kv->alloc = 0;
	pthread_mutex_destroy(&kv->lock);
}

/* Index of `key`, or of where it would go (with *found = 0).  Lock held. */
static size_t
simkv_pos(struct simkv *kv, const char *key, int *found)
{
	size_t lo = 0, hi = kv->nr;

	*found = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(kv->v[mid].key, key);

		if (!c) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
simkv_set(struct simkv *kv, const char *key, const char *value)
{
	int found;
	size_t pos;

	pthread_mutex_lock(&kv->lock);
	pos = simkv_pos(kv, key, &found);
	if (found) {
		free(kv->v[pos].value);
		kv->v[pos].value = xstrdup(value);
	} else {
		XALLOC_GROW(kv->v, kv->nr + 1, kv->alloc);
		memmove(kv->v + pos + 1, kv->v + pos,
		    (kv->nr - pos) * sizeof(*kv->v));
		kv->v[pos].key = xstrdup(key);
		kv->v[pos].value = xstrdup(value);
		kv->nr++;
	}
	pthread_mutex_unlock(&kv->lock);
}

int
simkv_get(struct simkv *kv, const char *key, struct strbuf *out)
{
	int found;
	size_t pos;

	pthread_mutex_lock(&kv->lock);
	pos = simkv_pos(kv, key, &found);
	if (found)
		strbuf_addstr(out, kv->v[pos].value);
	pthread_mutex_unlock(&kv->lock);
	return found;
}

int
simkv_unset(struct simkv *kv, const char *key)
{
	int found;
	size_t pos;

	pthread_mutex_lock(&kv->lock);
	pos = simkv_pos(kv, key, &found);
	if (found) {
		free(kv->v[pos].key);
		free(kv->v[pos].value);
		memmove(kv->v + pos, kv->v + pos + 1,
		    (kv->nr - pos - 1) * sizeof(*kv->v));
		kv->nr--;
	}
	pthread_mutex_unlock(&kv->lock);
	return found;
}

void
simkv_foreach(struct simkv *kv,
    int (*fn)(const char *key, const char *value, void *data), void *data)
{
	size_t i;

	pthread_mutex_lock(&kv->lock);
	for (i = 0; i < kv->nr; i++)
		if (fn(kv->v[i].key, kv->v[i].value, data))
			break;
	pthread_mutex_unlock(&kv->lock);
}
