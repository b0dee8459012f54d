/*
 * sessions.c: install sessions of the simulated package manager
 * (sessions.h).  Ids count up from 1000 like a booted phone's; every
 * session lives in the device, under the device lock, until it is
 * committed or abandoned.
 */
#include <stdlib.h>
#include <string.h>

#include "packages.h"
#include "sessions.h"
#include "simdev.h"
#include "simfs.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

struct staged {
	char *name;
	struct strbuf data;
};

struct session {
	int id, flags;
	struct staged *files;
	size_t nr, alloc;
};

struct simsessions {
	struct session *v;
	size_t nr, alloc;
	int next_id;
};

static void
session_clear(struct session *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->files[i].name);
		strbuf_release(&s->files[i].data);
	}
	free(s->files);
}

/* Under the lock: the session `id`, or NULL. */
static struct session *
find(struct simdev *dev, int id)
{
	struct simsessions *ss = dev->sessions;

	for (size_t i = 0; ss && i < ss->nr; i++)
		if (ss->v[i].id == id)
			return &ss->v[i];
	return NULL;
}

/* Under the lock: take session `id` out of the list into *out. */
static int
take(struct simdev *dev, int id, struct session *out)
{
	struct simsessions *ss = dev->sessions;
	struct session *s = find(dev, id);
	size_t i;

	if (!s)
		return -1;
	*out = *s;
	i = (size_t)(s - ss->v);
	memmove(ss->v + i, ss->v + i + 1, (ss->nr - i - 1) * sizeof(*ss->v));
	ss->nr--;
	return 0;
}

int
sessions_create(struct simdev *dev, int flags)
{
	struct session *s;
	int id;

	simdev_lock(dev);
	if (!dev->sessions) {
		dev->sessions = xcalloc(1, sizeof(*dev->sessions));
		dev->sessions->next_id = 1000;
	}
	XALLOC_GROW(dev->sessions->v, dev->sessions->nr + 1,
	    dev->sessions->alloc);
	s = &dev->sessions->v[dev->sessions->nr++];
	memset(s, 0, sizeof(*s));
	s->id = id = dev->sessions->next_id++;
	s->flags = flags;
	simdev_unlock(dev);
	return id;
}

int
sessions_write(struct simdev *dev, int id, const char *name,
    const void *data, size_t len)
{
	struct session *s;
	struct staged *f;

	simdev_lock(dev);
	s = find(dev, id);
	if (s) {
		XALLOC_GROW(s->files, s->nr + 1, s->alloc);
		f = &s->files[s->nr++];
		f->name = xstrdup(name);
		strbuf_init(&f->data, len);
		strbuf_add(&f->data, data, len);
	}
	simdev_unlock(dev);
	return s ? 0 : -1;
}

int
sessions_commit(struct simdev *dev, int id, struct strbuf *why)
{
	struct strbuf pkg = STRBUF_INIT, path = STRBUF_INIT;
	struct session s;
	size_t base = 0, bases = 0;
	int ret = -1, found;

	simdev_lock(dev);
	found = !take(dev, id, &s);
	simdev_unlock(dev);
	if (!found) {
		strbuf_addf(why, "no session %d", id);
		return -1;
	}
	for (size_t i = 0; i < s.nr; i++)
		if (packages_has_model(s.files[i].data.buf, s.files[i].data.len,
		    bases ? NULL : &pkg)) {
			if (!bases)
				base = i;
			bases++;
		}
	if (!bases) {
		strbuf_addf(why, "INSTALL_FAILED_INVALID_APK: Session: %d. "
		    "Full install must include a base package", id);
		goto out;
	}
	if (bases > 1) {
		strbuf_addstr(why, "INSTALL_FAILED_INVALID_APK: Split null was "
		    "defined multiple times");
		goto out;
	}
	if (packages_install(dev, s.files[base].data.buf,
	    s.files[base].data.len, s.flags, why))
		goto out;
	/* The splits lie beside base.apk, as on a phone. */
	for (size_t i = 0; i < s.nr; i++) {
		if (i == base)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "/data/app/%s-1/split_%s", pkg.buf,
		    s.files[i].name);
		simfs_write(dev->fs, path.buf, s.files[i].data.buf,
		    s.files[i].data.len, 0, 0644);
	}
	ret = 0;
out:
	session_clear(&s);
	strbuf_release(&pkg);
	strbuf_release(&path);
	return ret;
}

int
sessions_abandon(struct simdev *dev, int id)
{
	struct session s;
	int found;

	simdev_lock(dev);
	found = !take(dev, id, &s);
	simdev_unlock(dev);
	if (found)
		session_clear(&s);
	return found ? 0 : -1;
}

void
sessions_release(struct simdev *dev)
{
	if (!dev->sessions)
		return;
	for (size_t i = 0; i < dev->sessions->nr; i++)
		session_clear(&dev->sessions->v[i]);
	free(dev->sessions->v);
	free(dev->sessions);
	dev->sessions = NULL;
}
