/*
 * baseline_git_read.c: reading the store (baseline_store.h).
 *
 * Reading walks the first-parent chain of a ref and looks the device's file
 * up in each commit's tree; a commit whose blob differs from its first
 * parent's is one version.  That is what `git log --first-parent -- PATH`
 * shows, computed from objects without an index or a checkout.  Reading
 * needs no lock: git objects never change and refs are replaced
 * atomically.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline_git_int.h"
#include "baseline_store.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/* 1 when `dir` holds a file anywhere below it (`depth` levels at most). */
static int
has_files(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		char *path;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			found = 1;
		else if (depth > 0)
			found = has_files(path, depth - 1);
		free(path);
	}
	if (d)
		closedir(d);
	return found;
}

/* 1 when `s` starts with 40 hex digits. */
static int
is_hex_id(const char *s)
{
	for (int i = 0; i < GIT_OID_HEXSZ; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * Check the repository's packed-refs file line by line (libgit2 1.5 takes
 * one it cannot parse for "no such ref"): 0 when it is absent or every
 * line is a comment, "<id> <ref>" or "^<id>"; the number of the first bad
 * line; -1 when it cannot be read.  *refs counts the refs it names.
 */
static int
packed_refs_check(struct baseline_store *bs, int *refs)
{
	char *path = xasprintf("%s/packed-refs",
	    git_repository_commondir(bs->repo));
	FILE *f = fopen(path, "re");
	char line[4096];
	int nr = 0, bad = 0;

	free(path);
	*refs = 0;
	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (!bad && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		nr++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (*line == '#' && nr == 1)
			continue;
		if (*line == '^' && is_hex_id(line + 1) &&
		    len == GIT_OID_HEXSZ + 1)
			continue;
		if (len > GIT_OID_HEXSZ + 1 && is_hex_id(line) &&
		    line[GIT_OID_HEXSZ] == ' ' &&
		    !strncmp(line + GIT_OID_HEXSZ + 1, "refs/", 5)) {
			(*refs)++;
			continue;
		}
		bad = nr;
	}
	fclose(f);
	return bad;
}

/*
 * 1 when the repository has no refs at all: nothing was ever stored.
 * libgit2's iterator skips refs it cannot parse, so the files are looked
 * at too: a repository whose only ref is damaged is not an empty one.
 */
static int
has_no_refs(struct baseline_store *bs)
{
	const char *common = git_repository_commondir(bs->repo);
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	char *path;
	int none = 0, packed;

	if (git_reference_iterator_new(&it, bs->repo) == 0) {
		none = git_reference_next(&ref, it) == GIT_ITEROVER;
		git_reference_free(ref);
		git_reference_iterator_free(it);
	}
	git_error_clear();
	if (!none)
		return 0;
	path = xasprintf("%s/refs", common);
	none = !has_files(path, 16);
	free(path);
	return none && packed_refs_check(bs, &packed) == 0 && !packed;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* JG_ENOTFOUND for `ref`, naming the branches and tags there are. */
static int
ref_not_found(struct baseline_store *bs, const char *ref)
{
	git_strarray names = { NULL, 0 };
	struct strbuf list = STRBUF_INIT;
	size_t shown = 0, more = 0;
	int err;

	if (git_reference_list(&names, bs->repo) == 0 && names.count)
		qsort(names.strings, names.count, sizeof(char *), cmp_str);
	git_error_clear();
	for (size_t i = 0; i < names.count; i++) {
		const char *n = names.strings[i];

		if (!strncmp(n, "refs/heads/", 11))
			n += 11;
		else if (!strncmp(n, "refs/tags/", 10))
			n += 10;
		else
			continue;
		if (shown == REFS_LISTED) {
			more++;
			continue;
		}
		strbuf_addf(&list, "%s%s", shown++ ? ", " : "", n);
	}
	if (!shown)
		err = fail(bs, JG_ENOTFOUND, "ref '%s' not found in '%s', "
		    "which has no branches or tags yet", ref, bs->name);
	else if (bs->url)
		err = fail(bs, JG_ENOTFOUND, "ref '%s' not found in '%s'; it "
		    "has %s%s%s", ref, bs->name, list.buf,
		    more ? " and more" : "",
		    bs->offline ? " (as last fetched)" : "");
	else
		err = fail(bs, JG_ENOTFOUND, "ref '%s' not found in '%s'; it "
		    "has %s%s (if the ref comes from another repository, "
		    "'git fetch' it there first)", ref, bs->name, list.buf,
		    more ? " and more" : "");
	strbuf_release(&list);
	git_strarray_dispose(&names);
	return err;
}

/*
 * The object `name` (a ref's name as given) points to, peeled to a
 * commit.  The ref exists, so anything missing or unreadable from here on
 * is damage (JG_EIO), never "not found".
 */
static int
ref_commit(git_commit **out, struct baseline_store *bs, const char *name,
    const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_object *obj = NULL;
	int err;

	git_oid_tostr(hex, sizeof(hex), id);
	err = git_object_lookup(&obj, bs->repo, id, GIT_OBJECT_ANY);
	if (err == GIT_ENOTFOUND) {
		git_error_clear();
		return fail_damaged(bs, "ref '%s' in '%s' points to object "
		    "%s, which is missing", name, bs->name, hex);
	}
	if (err < 0)
		return fail_damaged(bs, "cannot read what ref '%s' points to "
		    "in '%s'", name, bs->name);
	err = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err == GIT_EPEEL || err == GIT_EINVALIDSPEC ||
	    err == GIT_EAMBIGUOUS)
		return fail(bs, JG_EINVAL, "ref '%s' in '%s' does not name a "
		    "commit", name, bs->name);
	if (err < 0)
		return fail_damaged(bs, "cannot peel ref '%s' (object %s) "
		    "to a commit in '%s'", name, hex, bs->name);
	return 0;
}

/*
 * The commit `ref` (a branch, tag or commit id) names.  A name is looked
 * up as a ref first, the way git does: a ref that exists but does not
 * parse, or whose object is missing or damaged, is JG_EIO with the advice
 * to run git fsck.  Only a name that is no ref, no object and no revision
 * is JG_ENOTFOUND.
 */
static int
resolve_commit(git_commit **out, struct baseline_store *bs, const char *ref)
{
	git_reference *r = NULL;
	git_object *obj = NULL;
	git_oid id;
	int err, line, packed;

	*out = NULL;
	if (!ref || !*ref)
		return fail(bs, JG_EINVAL, "no baseline ref given (set "
		    "baseline.ref)");
	err = git_reference_dwim(&r, bs->repo, ref);
	if (err == 0) {
		/* dwim resolves symbolic refs; a direct one has a target. */
		if (git_reference_type(r) != GIT_REFERENCE_DIRECT ||
		    !git_reference_target(r)) {
			git_reference_free(r);
			git_error_clear();
			return fail_damaged(bs, "ref '%s' in '%s' does not "
			    "resolve to an object", ref, bs->name);
		}
		git_oid_cpy(&id, git_reference_target(r));
		git_reference_free(r);
		return ref_commit(out, bs, ref, &id);
	}
	if (err != GIT_ENOTFOUND && err != GIT_EINVALIDSPEC)
		return fail_damaged(bs, "cannot read ref '%s' in '%s'", ref,
		    bs->name);
	git_error_clear();
	if ((line = packed_refs_check(bs, &packed)) != 0) {
		if (line > 0)
			return fail_damaged(bs, "cannot read ref '%s' in '%s': "
			    "line %d of packed-refs does not parse", ref,
			    bs->name, line);
		return fail_damaged(bs, "cannot read ref '%s' in '%s': "
		    "packed-refs cannot be read", ref, bs->name);
	}
	err = git_revparse_single(&obj, bs->repo, ref);
	if (err == GIT_EAMBIGUOUS)
		return fail(bs, JG_EINVAL, "ref '%s' is ambiguous in '%s'",
		    ref, bs->name);
	if (err == GIT_ENOTFOUND || err == GIT_EINVALIDSPEC) {
		git_error_clear();
		return ref_not_found(bs, ref);
	}
	if (err < 0)
		return fail_damaged(bs, "cannot resolve '%s' in '%s'", ref,
		    bs->name);
	err = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err == GIT_EPEEL || err == GIT_EINVALIDSPEC ||
	    err == GIT_EAMBIGUOUS)
		return fail(bs, JG_EINVAL, "ref '%s' in '%s' does not name a "
		    "commit", ref, bs->name);
	if (err < 0)
		return fail_damaged(bs, "cannot read what '%s' names in '%s'",
		    ref, bs->name);
	return 0;
}

/*
 * The commit `ref` names for a walk: 1 with *out set, 0 when the ref does
 * not exist and the repository has no refs at all (no baseline yet), or
 * an error.
 */
static int
start_commit(git_commit **out, struct baseline_store *bs, const char *ref)
{
	int err = resolve_commit(out, bs, ref);

	if (err == JG_ENOTFOUND && has_no_refs(bs)) {
		jg_error_clear();
		return 0;
	}
	return err < 0 ? err : 1;
}

struct entries {
	struct baseline_entry *v;
	size_t nr, alloc;
};

/* A new entry for commit `c` and the file of package/device_key. */
static struct baseline_entry *
entry_add(struct entries *es, const git_commit *c, const char *package,
    const char *device_key)
{
	const char *msg = git_commit_message(c);
	struct baseline_entry *e;

	XALLOC_GROW(es->v, es->nr + 1, es->alloc);
	e = &es->v[es->nr++];
	memset(e, 0, sizeof(*e));
	git_oid_tostr(e->commit, sizeof(e->commit), git_commit_id(c));
	e->time = (long long)git_commit_time(c);
	e->tz_minutes = git_commit_time_offset(c);
	baseline_message_parse(e, msg ? msg : "");
	e->package = xstrdup(package);
	e->device_key = xstrdup(device_key);
	return e;
}

/* Copy the blob into e->data and check that it is a results file. */
static int
entry_load(struct baseline_entry *e, struct baseline_store *bs,
    const git_oid *id)
{
	git_blob *blob;
	char *what;
	int err;

	if (git_blob_lookup(&blob, bs->repo, id) < 0)
		return fail_damaged(bs, "cannot read '%s/%s/" BASELINE_FILE
		    "' at %.7s in '%s'", e->package, e->device_key, e->commit,
		    bs->name);
	e->len = (size_t)git_blob_rawsize(blob);
	e->data = xmalloc(e->len + 1);
	memcpy(e->data, git_blob_rawcontent(blob), e->len);
	e->data[e->len] = '\0';
	git_blob_free(blob);
	what = xasprintf("'%s/%s/" BASELINE_FILE "' at %.7s in '%s'",
	    e->package, e->device_key, e->commit, bs->name);
	err = baseline_content_check(e->data, e->len, what);
	free(what);
	return err;
}

/* Hand the entries over on success, free them on failure. */
static int
entries_finish(struct baseline_entry **out, size_t *nr, struct entries *es,
    int err)
{
	if (err < 0) {
		baseline_entries_free(es->v, es->nr);
		return err;
	}
	*out = es->v;
	*nr = es->nr;
	return 0;
}

/* Check filter names as baseline_path() does; NULL filters pass. */
static int
filters_check(const char *package, const char *device_key)
{
	struct strbuf sb = STRBUF_INIT;
	int err;

	err = baseline_path(&sb, package ? package : "p",
	    device_key ? device_key : "d");
	strbuf_release(&sb);
	return err;
}

/*
 * Where a partial cache reads a key's history from: its key ref on the
 * branch `ref` names, fetched now, into `out`; or, when `ref` is no branch
 * or the remote has no key ref for it, nothing (out empty) once the whole
 * store is fetched.  The key ref holds the branch's versions of the file,
 * with the branch's commit ids (baseline_git_keys.c).
 */
static int
partial_ref(struct strbuf *out, struct baseline_store *bs, const char *ref,
    const char *package, const char *device_key)
{
	struct strbuf branch = STRBUF_INIT;
	git_oid id;
	int err = 0;

	if (ref && !strncmp(ref, "refs/heads/", 11))
		strbuf_addstr(&branch, ref);
	else if (ref && *ref && strncmp(ref, "refs/", 5))
		strbuf_addf(&branch, "refs/heads/%s", ref);
	if (branch.len && !bgit_key_refname(out, branch.buf, package,
	    device_key) && !(err = bgit_fetch_key(bs, out->buf)) &&
	    git_reference_name_to_id(&id, bs->repo, out->buf) == 0)
		goto out;
	git_error_clear();
	strbuf_reset(out);
	if (!err)
		err = bgit_fetch_whole(bs);
out:
	strbuf_release(&branch);
	return err;
}

int
baseline_store_history(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *ref, const char *package,
    const char *device_key, size_t max)
{
	struct strbuf kref = STRBUF_INIT;
	struct entries es = { NULL, 0, 0 };
	struct bgit_versions vs = { NULL, 0, 0 };
	git_commit *c = NULL;
	int err, anchored;

	*out = NULL;
	*nr = 0;
	if (!package || !device_key)
		return jg_error_set(JG_EINVAL, "a baseline history needs a "
		    "package and a device key");
	if ((err = filters_check(package, device_key)) < 0)
		return err;
	if (bs->partial && (err = partial_ref(&kref, bs, ref, package,
	    device_key)) < 0)
		return err;
	err = start_commit(&c, bs, kref.len ? kref.buf : ref);
	strbuf_release(&kref);
	if (err <= 0)
		return err;
	err = bgit_versions(&vs, &anchored, bs, git_commit_id(c), package,
	    device_key, NULL, max);
	git_commit_free(c);
	for (size_t i = 0; !err && i < vs.nr; i++) {
		struct baseline_entry *e;

		if (git_commit_lookup(&c, bs->repo, &vs.v[i].commit) < 0) {
			err = fail_damaged(bs, "cannot read the history of "
			    "'%s'", bs->name);
			break;
		}
		e = entry_add(&es, c, package, device_key);
		git_commit_free(c);
		err = entry_load(e, bs, &vs.v[i].blob);
	}
	free(vs.v);
	return entries_finish(out, nr, &es, err);
}

/*
 * The subtrees named `name` in `tree` and `ptree` (either may be NULL) when
 * the one in `tree` is a directory that differs from the other: returns 1
 * with *sub (and *psub when ptree has a directory there) loaded, 0 when
 * unchanged or not a directory, or an error with neither loaded.
 */
static int
changed_subtree(git_tree **sub, git_tree **psub, struct baseline_store *bs,
    const git_tree *tree, const git_tree *ptree, const char *name)
{
	const git_tree_entry *e, *pe;

	*sub = *psub = NULL;
	e = tree ? git_tree_entry_byname(tree, name) : NULL;
	if (!e || git_tree_entry_type(e) != GIT_OBJECT_TREE)
		return 0;
	pe = ptree ? git_tree_entry_byname(ptree, name) : NULL;
	if (pe && git_oid_equal(git_tree_entry_id(e), git_tree_entry_id(pe)))
		return 0;
	if (git_tree_lookup(sub, bs->repo, git_tree_entry_id(e)) < 0 ||
	    (pe && git_tree_entry_type(pe) == GIT_OBJECT_TREE &&
	    git_tree_lookup(psub, bs->repo, git_tree_entry_id(pe)) < 0)) {
		/* The caller frees nothing on an error: the first may be. */
		git_tree_free(*sub);
		*sub = NULL;
		return fail_damaged(bs, "cannot read a tree of '%s'",
		    bs->name);
	}
	return 1;
}

/* The i-th name to visit: the filter itself, or the i-th entry. */
static const char *
nth_name(const git_tree *tree, const char *filter, size_t i)
{
	return filter ? filter :
	    git_tree_entry_name(git_tree_entry_byindex(tree, i));
}

static size_t
names_count(const git_tree *tree, const char *filter)
{
	return filter ? 1 : git_tree_entrycount(tree);
}

/* Add an entry for every results file that `c` changed against `pc`. */
static int
log_commit(struct entries *es, struct baseline_store *bs, git_commit *c,
    git_commit *pc, const char *package, const char *device_key, size_t max)
{
	git_tree *root = NULL, *proot = NULL;
	int err = 0;

	if (git_commit_tree(&root, c) < 0 ||
	    (pc && git_commit_tree(&proot, pc) < 0)) {
		err = fail_damaged(bs, "cannot read a tree of '%s'",
		    bs->name);
		goto out;
	}
	for (size_t i = 0; i < names_count(root, package) && !err; i++) {
		const char *pname = nth_name(root, package, i);
		git_tree *pkg, *ppkg;

		if ((err = changed_subtree(&pkg, &ppkg, bs, root, proot,
		    pname)) <= 0)
			continue;
		err = 0;
		for (size_t j = 0; j < names_count(pkg, device_key) && !err;
		    j++) {
			const char *dname = nth_name(pkg, device_key, j);
			const git_tree_entry *f, *pf;
			git_tree *dev, *pdev;

			if ((err = changed_subtree(&dev, &pdev, bs, pkg, ppkg,
			    dname)) <= 0)
				continue;
			err = 0;
			f = git_tree_entry_byname(dev, BASELINE_FILE);
			pf = pdev ? git_tree_entry_byname(pdev, BASELINE_FILE) :
			    NULL;
			if (f && git_tree_entry_type(f) == GIT_OBJECT_BLOB &&
			    (!pf || !git_oid_equal(git_tree_entry_id(f),
			    git_tree_entry_id(pf))) && (!max || es->nr < max))
				entry_add(es, c, pname, dname);
			git_tree_free(dev);
			git_tree_free(pdev);
		}
		git_tree_free(pkg);
		git_tree_free(ppkg);
	}
out:
	git_tree_free(root);
	git_tree_free(proot);
	return err;
}

int
baseline_store_log(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *ref, const char *package,
    const char *device_key, size_t max)
{
	struct entries es = { NULL, 0, 0 };
	git_commit *c = NULL, *parent = NULL;
	int err;

	*out = NULL;
	*nr = 0;
	if ((err = filters_check(package, device_key)) < 0 ||
	    (err = bgit_fetch_whole(bs)) < 0)
		return err;
	if ((err = start_commit(&c, bs, ref)) <= 0)
		return err;
	while (c && (!max || es.nr < max)) {
		if (git_commit_parentcount(c) > 0 &&
		    git_commit_parent(&parent, c, 0) < 0) {
			err = fail_damaged(bs, "cannot read the history "
			    "of '%s'", bs->name);
			break;
		}
		err = log_commit(&es, bs, c, parent, package, device_key, max);
		if (err < 0)
			break;
		git_commit_free(c);
		c = parent;
		parent = NULL;
	}
	git_commit_free(parent);
	git_commit_free(c);
	return entries_finish(out, nr, &es, err);
}

int
baseline_store_show(struct baseline_entry **out, size_t *nr,
    struct baseline_store *bs, const char *rev, const char *package,
    const char *device_key)
{
	struct entries es = { NULL, 0, 0 };
	git_commit *c = NULL;
	git_tree *root = NULL;
	int err;

	*out = NULL;
	*nr = 0;
	if ((err = filters_check(package, device_key)) < 0 ||
	    (err = bgit_fetch_whole(bs)) < 0 ||
	    (err = resolve_commit(&c, bs, rev)) < 0)
		return err;
	if (git_commit_tree(&root, c) < 0) {
		err = fail_damaged(bs, "cannot read a tree of '%s'",
		    bs->name);
		goto out;
	}
	for (size_t i = 0; i < names_count(root, package) && !err; i++) {
		const char *pname = nth_name(root, package, i);
		const git_tree_entry *pe = git_tree_entry_byname(root, pname);
		git_tree *pkg;

		/* Other files may sit beside the packages (a README). */
		if (!pe || (!package &&
		    git_tree_entry_type(pe) != GIT_OBJECT_TREE))
			continue;
		if (git_tree_entry_type(pe) != GIT_OBJECT_TREE) {
			git_oid tmp;

			err = bgit_file_at(&tmp, bs, root, pname, "x",
			    git_commit_id(c));
			break;
		}
		if (git_tree_lookup(&pkg, bs->repo,
		    git_tree_entry_id(pe)) < 0) {
			err = fail_damaged(bs, "cannot read a tree of "
			    "'%s'", bs->name);
			break;
		}
		for (size_t j = 0; j < names_count(pkg, device_key) && !err;
		    j++) {
			const char *dname = nth_name(pkg, device_key, j);
			const git_tree_entry *de = git_tree_entry_byname(pkg,
			    dname);
			git_oid blob;
			int has;

			if (!de || (!device_key &&
			    git_tree_entry_type(de) != GIT_OBJECT_TREE))
				continue;
			has = bgit_file_at(&blob, bs, root, pname, dname,
			    git_commit_id(c));
			if (has < 0)
				err = has;
			else if (has)
				err = entry_load(entry_add(&es, c, pname,
				    dname), bs, &blob);
		}
		git_tree_free(pkg);
	}
out:
	git_tree_free(root);
	git_commit_free(c);
	return entries_finish(out, nr, &es, err);
}
