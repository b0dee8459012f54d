/*
 * simfs.c: the in-memory file tree.
 *
 * Each node owns its children in a name-sorted array and, for a regular
 * file, its bytes in a strbuf.  Lookups walk from the root one component
 * at a time; the paths involved are short, the trees small.  One mutex for
 * the whole tree keeps the code obvious; no call holds it for long except
 * copying a file, which is memcpy speed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "simfs.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

struct simfs_node {
	char *name;
	struct simfs_node *parent;
	unsigned long long ino;
	unsigned int mode;
	unsigned int uid, gid;
	long long mtime;
	struct strbuf data;
	struct simfs_node **kids;
	size_t nr_kids, alloc_kids;
};

struct simfs {
	pthread_mutex_t lock;
	struct simfs_node *root;
	unsigned long long next_ino;
};

static struct simfs_node *
node_new(struct simfs *fs, const char *name, unsigned int mode)
{
	struct simfs_node *n = xcalloc(1, sizeof(*n));

	n->name = xstrdup(name);
	n->ino = fs->next_ino++;
	n->mode = mode;
	n->mtime = (long long)time(NULL);
	strbuf_init(&n->data, 0);
	return n;
}

static void
node_free(struct simfs_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nr_kids; i++)
		node_free(n->kids[i]);
	free(n->kids);
	strbuf_release(&n->data);
	free(n->name);
	free(n);
}

struct simfs *
simfs_new(void)
{
	struct simfs *fs = xcalloc(1, sizeof(*fs));

	pthread_mutex_init(&fs->lock, NULL);
	fs->next_ino = 2;
	fs->root = node_new(fs, "", S_IFDIR | 0755);
	return fs;
}

void
simfs_free(struct simfs *fs)
{
	if (!fs)
		return;
	node_free(fs->root);
	pthread_mutex_destroy(&fs->lock);
	free(fs);
}

/*
 * Android's symlinks into the places apps write, resolved by name since
 * the tree has no links: /data/user/0 is /data/data, and the external
 * storage paths are /sdcard.
 */
static const struct {
	const char *from, *to;
} aliases[] = {
	{ "/data/user/0", "/data/data" },
	{ "/storage/emulated/0", "/sdcard" },
	{ "/storage/self/primary", "/sdcard" },
	{ "/mnt/sdcard", "/sdcard" },
};

static void
unalias(struct strbuf *out, size_t base)
{
	size_t i, n;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		const char *p = out->buf + base;
		char *rest;

		n = strlen(aliases[i].from);
		if (strncmp(p, aliases[i].from, n) || (p[n] && p[n] != '/'))
			continue;
		rest = xstrdup(p + n);
		strbuf_setlen(out, base);
		strbuf_addstr(out, aliases[i].to);
		strbuf_addstr(out, rest);
		free(rest);
		return;
	}
}

void
simfs_normalize(struct strbuf *out, const char *path)
{
	size_t base = out->len;
	const char *p = path;

	while (*p) {
		const char *end;
		size_t n;

		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			size_t l = out->len;

			while (l > base && out->buf[l - 1] != '/')
				l--;
			strbuf_setlen(out, l > base ? l - 1 : l);
		} else if (n) {
			strbuf_addch(out, '/');
			strbuf_add(out, p, n);
		}
		p = end;
	}
	if (out->len == base)
		strbuf_addch(out, '/');
	unalias(out, base);
}

/* The child of `dir` called `name` (n bytes), or NULL; *pos = its slot. */
static struct simfs_node *
node_child(struct simfs_node *dir, const char *name, size_t n, size_t *pos)
{
	size_t lo = 0, hi = dir->nr_kids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *k = dir->kids[mid]->name;
		int c = strncmp(k, name, n);

		if (!c && k[n] != '\0')
			c = 1;
		if (!c) {
			if (pos)
				*pos = mid;
			return dir->kids[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pos)
		*pos = lo;
	return NULL;
}

static void
node_attach(struct simfs_node *dir, struct simfs_node *kid)
{
	size_t pos;

	node_child(dir, kid->name, strlen(kid->name), &pos);
	XALLOC_GROW(dir->kids, dir->nr_kids + 1, dir->alloc_kids);
	memmove(dir->kids + pos + 1, dir->kids + pos,
	    (dir->nr_kids - pos) * sizeof(*dir->kids));
	dir->kids[pos] = kid;
	dir->nr_kids++;
	kid->parent = dir;
	kid->uid = dir->uid;
	kid->gid = dir->gid;
	dir->mtime = kid->mtime;
}

static void
node_detach(struct simfs_node *kid)
{
	struct simfs_node *dir = kid->parent;
	size_t pos;

	if (node_child(dir, kid->name, strlen(kid->name), &pos)) {
		memmove(dir->kids + pos, dir->kids + pos + 1,
		    (dir->nr_kids - pos - 1) * sizeof(*dir->kids));
		dir->nr_kids--;
	}
	dir->mtime = (long long)time(NULL);
	kid->parent = NULL;
}

/*
 * Walk to `path`.  Returns the node, or NULL with *err set.  When `leaf`
 * is not NULL, also accept a missing last component: return its parent
 * directory and point *leaf at the last component's name (in `norm`).
 */
static struct simfs_node *
node_walk(struct simfs *fs, const char *path, struct strbuf *norm,
    const char **leaf, int *err)
{
	struct simfs_node *n = fs->root;
	const char *p;

	simfs_normalize(norm, path);
	p = norm->buf + 1;
	if (leaf)
		*leaf = NULL;
	while (*p) {
		const char *end = strchrnul(p, '/');
		struct simfs_node *kid;

		if (!S_ISDIR(n->mode)) {
			*err = -ENOTDIR;
			return NULL;
		}
		kid = node_child(n, p, (size_t)(end - p), NULL);
		if (!kid) {
			if (leaf && !*end) {
				*leaf = p;
				return n;
			}
			*err = -ENOENT;
			return NULL;
		}
		n = kid;
		p = *end ? end + 1 : end;
	}
	return n;
}

static struct simfs_node *
lookup(struct simfs *fs, const char *path, int *err)
{
	struct strbuf norm = STRBUF_INIT;
	struct simfs_node *n = node_walk(fs, path, &norm, NULL, err);

	strbuf_release(&norm);
	return n;
}

static void
node_stat(const struct simfs_node *n, struct simfs_stat *st)
{
	size_t i;

	st->ino = n->ino;
	st->mode = n->mode;
	st->uid = n->uid;
	st->gid = n->gid;
	st->mtime = n->mtime;
	if (S_ISDIR(n->mode)) {
		st->size = 4096;
		st->nlink = 2;
		for (i = 0; i < n->nr_kids; i++)
			if (S_ISDIR(n->kids[i]->mode))
				st->nlink++;
	} else {
		st->size = n->data.len;
		st->nlink = 1;
	}
}

int
simfs_stat(struct simfs *fs, const char *path, struct simfs_stat *st)
{
	struct simfs_node *n;
	int err = 0;

	pthread_mutex_lock(&fs->lock);
	n = lookup(fs, path, &err);
	if (n)
		node_stat(n, st);
	pthread_mutex_unlock(&fs->lock);
	return err;
}

int
simfs_read(struct simfs *fs, const char *path, struct strbuf *out)
{
	struct simfs_node *n;
	int err = 0;

	pthread_mutex_lock(&fs->lock);
	n = lookup(fs, path, &err);
	if (n && S_ISDIR(n->mode))
		err = -EISDIR;
	else if (n)
		strbuf_add(out, n->data.buf, n->data.len);
	pthread_mutex_unlock(&fs->lock);
	return err;
}

int
simfs_write(struct simfs *fs, const char *path, const void *data,
    size_t len, int append, unsigned int perm)
{
	struct strbuf norm = STRBUF_INIT;
	struct simfs_node *n;
	const char *leaf;
	int err = 0;

	pthread_mutex_lock(&fs->lock);
	n = node_walk(fs, path, &norm, &leaf, &err);
	if (!n)
		goto out;
	if (leaf) {
		struct simfs_node *f;

		f = node_new(fs, leaf, S_IFREG | (perm ? perm & 07777 : 0644));
		node_attach(n, f);
		n = f;
	} else if (S_ISDIR(n->mode)) {
		err = -EISDIR;
		goto out;
	}
	if (!append)
		strbuf_reset(&n->data);
	strbuf_add(&n->data, data, len);
	n->mtime = (long long)time(NULL);
out:
	pthread_mutex_unlock(&fs->lock);
	strbuf_release(&norm);
	return err;
}

static int
mkdir_one(struct simfs *fs, const char *path, unsigned int perm, int exist_ok)
{
	struct strbuf norm = STRBUF_INIT;
	struct simfs_node *n;
	const char *leaf;
	int err = 0;

	n = node_walk(fs, path, &norm, &leaf, &err);
	if (n && leaf)
		node_attach(n, node_new(fs, leaf,
		    S_IFDIR | (perm ? perm & 07777 : 0755)));
	else if (n && (!exist_ok || !S_ISDIR(n->mode)))
		err = S_ISDIR(n->mode) ? -EEXIST : -ENOTDIR;
	strbuf_release(&norm);
	return err;
}

int
simfs_mkdir(struct simfs *fs, const char *path, unsigned int perm,
    int parents)
{
	struct strbuf norm = STRBUF_INIT;
	int err = 0;

	simfs_normalize(&norm, path);
	pthread_mutex_lock(&fs->lock);
	if (parents) {
		char *p = norm.buf + 1;

		/* Each prefix in turn: "/a", "/a/b", ... */
		while (!err && (p = strchr(p, '/'))) {
			*p = '\0';
			err = mkdir_one(fs, norm.buf, perm, 1);
			*p++ = '/';
		}
		if (!err)
			err = mkdir_one(fs, norm.buf, perm, 1);
	} else {
		err = mkdir_one(fs, norm.buf, perm, 0);
	}
	pthread_mutex_unlock(&fs->lock);
	strbuf_release(&norm);
	return err;
}

int
simfs_remove(struct simfs *fs, const char *path, int recursive)
{
	struct simfs_node *n;
	int err = 0;

	pthread_mutex_lock(&fs->lock);
	n = lookup(fs, path, &err);
	if (n == fs->root)
		err = -EBUSY;
	else if (n && S_ISDIR(n->mode) && !recursive)
		err = -EISDIR;
	if (n && !err) {
		node_detach(n);
		node_free(n);
	}
	pthread_mutex_unlock(&fs->lock);
	return err;
}

static void
node_chown(struct simfs_node *n, unsigned int uid, unsigned int gid,
    int recursive)
{
	size_t i;

	n->uid = uid;
	n->gid = gid;
	if (recursive)
		for (i = 0; i < n->nr_kids; i++)
			node_chown(n->kids[i], uid, gid, 1);
}

int
simfs_chown(struct simfs *fs, const char *path, unsigned int uid,
    unsigned int gid, int recursive)
{
	struct simfs_node *n;
	int err = 0;

	pthread_mutex_lock(&fs->lock);
	n = lookup(fs, path, &err);
	if (n)
		node_chown(n, uid, gid, recursive);
	pthread_mutex_unlock(&fs->lock);
	return err;
}

int
simfs_chmod(struct simfs *fs, const char *path, unsigned int perm)
{
	struct simfs_node *n;
	int err = 0;

	pthread_mutex_lock(&fs->lock);
	n = lookup(fs, path, &err);
	if (n)
		n->mode = (n->mode & S_IFMT) | (perm & 07777);
	pthread_mutex_unlock(&fs->lock);
	return err;
}

int
simfs_utime(struct simfs *fs, const char *path, long long mtime)
{
	struct simfs_node *n;
	int err = 0;

	pthread_mutex_lock(&fs->lock);
	n = lookup(fs, path, &err);
	if (n)
		n->mtime = mtime;
	pthread_mutex_unlock(&fs->lock);
	return err;
}

int
simfs_list(struct simfs *fs, const char *path, struct simfs_dirent **out,
    size_t *nr)
{
	struct simfs_node *n;
	int err = 0;
	size_t i;

	*out = NULL;
	*nr = 0;
	pthread_mutex_lock(&fs->lock);
	n = lookup(fs, path, &err);
	if (n && !S_ISDIR(n->mode))
		err = -ENOTDIR;
	if (n && !err && n->nr_kids) {
		*out = xcalloc(n->nr_kids, sizeof(**out));
		for (i = 0; i < n->nr_kids; i++) {
			(*out)[i].name = xstrdup(n->kids[i]->name);
			node_stat(n->kids[i], &(*out)[i].st);
		}
		*nr = n->nr_kids;
	}
	pthread_mutex_unlock(&fs->lock);
	return err;
}

void
simfs_dirents_free(struct simfs_dirent *d, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(d[i].name);
	free(d);
}
