/*
 * cmd_files.c: ls, cat, rm, mkdir and touch on the in-memory file system,
 * with toybox's options, output layout and error texts for the common
 * cases ("ls: /x: No such file or directory", status 1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "error.h"
#include "simdev.h"
#include "simfs.h"
#include "simio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Parse leading single-letter options from `allowed` into `flags` (one
 * bit per letter, 'a' = bit 0).  Returns the index of the first operand,
 * or -1 after complaining about an unknown option.
 */
static int
parse_flags(struct simcmd_ctx *ctx, int argc, char **argv,
    const char *allowed, unsigned long *flags)
{
	int i;

	*flags = 0;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *o;

		if (!strcmp(argv[i], "--"))
			return i + 1;
		for (o = argv[i] + 1; *o; o++) {
			/* ls -1: one name per line is all this ls prints. */
			if (*o == '1' && strchr(allowed, '1'))
				continue;
			if (!strchr(allowed, *o) || *o < 'A' || *o > 'z') {
				simcmd_error(ctx, 1, argv[0],
				    "Unknown option '%c'", *o);
				return -1;
			}
			*flags |= 1UL << (*o - 'A');
		}
	}
	return i;
}

#define FLAG(c) (1UL << ((c) - 'A'))

static void
add_mode(struct strbuf *sb, unsigned int mode)
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	strbuf_addch(sb, S_ISDIR(mode) ? 'd' : '-');
	for (i = 0; i < 9; i++)
		strbuf_addch(sb, mode & (1u << (8 - i)) ? rwx[i] : '-');
}

struct ls_widths {
	int links, user, group, size;
};

static void
ls_measure(const struct simfs_dirent *d, size_t nr, struct ls_widths *w)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < nr; i++) {
		int n;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%u", d[i].st.nlink);
		if ((n = (int)sb.len) > w->links)
			w->links = n;
		strbuf_reset(&sb);
		simdev_uid_name(&sb, d[i].st.uid);
		if ((n = (int)sb.len) > w->user)
			w->user = n;
		strbuf_reset(&sb);
		simdev_uid_name(&sb, d[i].st.gid);
		if ((n = (int)sb.len) > w->group)
			w->group = n;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%llu", d[i].st.size);
		if ((n = (int)sb.len) > w->size)
			w->size = n;
	}
	strbuf_release(&sb);
}

static void
ls_long_line(struct strbuf *out, const struct simfs_dirent *d,
    const struct ls_widths *w)
{
	struct strbuf user = STRBUF_INIT, group = STRBUF_INIT;
	time_t t = (time_t)d->st.mtime;
	struct tm tm;
	char when[32];

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	simdev_uid_name(&user, d->st.uid);
	simdev_uid_name(&group, d->st.gid);
	add_mode(out, d->st.mode);
	strbuf_addf(out, " %*u %-*s %-*s %*llu %s %s\n", w->links,
	    d->st.nlink, w->user, user.buf, w->group, group.buf, w->size,
	    d->st.size, when, d->name);
	strbuf_release(&user);
	strbuf_release(&group);
}

static void
ls_entries(struct strbuf *out, struct simfs_dirent *d, size_t nr,
    int lng, int total)
{
	struct ls_widths w;
	size_t i;

	if (lng) {
		unsigned long long blocks = 0;

		for (i = 0; i < nr; i++)
			blocks += (d[i].st.size + 4095) / 4096 * 4;
		if (total)
			strbuf_addf(out, "total %llu\n", blocks);
		ls_measure(d, nr, &w);
	}
	for (i = 0; i < nr; i++) {
		if (lng)
			ls_long_line(out, &d[i], &w);
		else
			strbuf_addf(out, "%s\n", d[i].name);
	}
}

/* Put "." and ".." in front of a listing, as `ls -a` shows them. */
static void
add_dots(struct simcmd_ctx *ctx, const char *dir, const struct simfs_stat *self,
    struct simfs_dirent **d, size_t *nr, struct strbuf *scratch)
{
	struct simfs_dirent *v = xcalloc(*nr + 2, sizeof(*v));

	memcpy(v + 2, *d, *nr * sizeof(*v));
	free(*d);
	v[0].name = xstrdup(".");
	v[0].st = *self;
	v[1].name = xstrdup("..");
	strbuf_reset(scratch);
	strbuf_addf(scratch, "%s/..", dir);
	simfs_stat(ctx->dev->fs, scratch->buf, &v[1].st);
	*d = v;
	*nr += 2;
}

/* ls [-1adl] [PATH...] */
int
cmd_ls(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT, up = STRBUF_INIT;
	unsigned long fl;
	int i, first, status = 0;
	char *dot[] = { ".", NULL };

	first = parse_flags(ctx, argc, argv, "1adl", &fl);
	if (first < 0)
		return 1;
	if (first == argc) {
		argv = dot;
		argc = 1;
		first = 0;
	}
	for (i = first; i < argc; i++) {
		struct simfs_dirent self, *d = NULL;
		size_t nr = 0;
		int err;

		err = simfs_stat(ctx->dev->fs, argv[i], &self.st);
		if (err) {
			simcmd_error(ctx, 1, "ls", "%s: %s", argv[i],
			    jg_strerror(-err));
			status = 1;
			continue;
		}
		self.name = argv[i];
		if (!S_ISDIR(self.st.mode) || (fl & FLAG('d'))) {
			ls_entries(&out, &self, 1, !!(fl & FLAG('l')), 0);
			continue;
		}
		simfs_list(ctx->dev->fs, argv[i], &d, &nr);
		if (fl & FLAG('a'))
			add_dots(ctx, argv[i], &self.st, &d, &nr, &up);
		if (argc - first > 1)
			strbuf_addf(&out, "%s%s:\n", i > first ? "\n" : "",
			    argv[i]);
		ls_entries(&out, d, nr, !!(fl & FLAG('l')), 1);
		simfs_dirents_free(d, nr);
	}
	if (simio_write(ctx->io, 1, out.buf, out.len))
		status = 1;
	strbuf_release(&out);
	strbuf_release(&up);
	return status;
}

static int
cat_stdin(struct simcmd_ctx *ctx)
{
	char buf[8192];
	size_t n;

	while ((n = simio_read(ctx->io, buf, sizeof(buf))))
		if (simio_write(ctx->io, 1, buf, n))
			return 1;
	return 0;
}

/* cat [FILE...]: no operand, or "-", copies stdin. */
int
cmd_cat(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int i, err, status = 0;

	if (argc == 1)
		return cat_stdin(ctx);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-")) {
			if (cat_stdin(ctx))
				break;
			continue;
		}
		strbuf_reset(&sb);
		err = simfs_read(ctx->dev->fs, argv[i], &sb);
		if (err) {
			status = simcmd_error(ctx, 1, "cat", "%s: %s",
			    argv[i], jg_strerror(-err));
		} else if (simio_write(ctx->io, 1, sb.buf, sb.len)) {
			status = 1;
			break;	/* the client is gone */
		}
	}
	strbuf_release(&sb);
	return status;
}

/* rm [-fRr] PATH... */
int
cmd_rm(struct simcmd_ctx *ctx, int argc, char **argv)
{
	unsigned long fl;
	int i, status = 0;

	i = parse_flags(ctx, argc, argv, "fRrdi", &fl);
	if (i < 0)
		return 1;
	if (i == argc && !(fl & FLAG('f')))
		return simcmd_error(ctx, 1, "rm", "Needs 1 argument");
	for (; i < argc; i++) {
		int err = simfs_remove(ctx->dev->fs, argv[i],
		    !!(fl & (FLAG('r') | FLAG('R'))));

		if (err == -ENOENT && (fl & FLAG('f')))
			continue;
		if (err) {
			simcmd_error(ctx, 1, "rm", "%s: %s", argv[i],
			    jg_strerror(-err));
			status = 1;
		}
	}
	return status;
}

/* mkdir [-p] [-m MODE] DIR... */
int
cmd_mkdir(struct simcmd_ctx *ctx, int argc, char **argv)
{
	unsigned int perm = 0;
	int i, parents = 0, status = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-p")) {
			parents = 1;
		} else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
			char *end;

			perm = (unsigned int)strtoul(argv[++i], &end, 8);
			if (*end || perm > 07777)
				return simcmd_error(ctx, 1, "mkdir",
				    "bad mode '%s'", argv[i]);
		} else {
			return simcmd_error(ctx, 1, "mkdir",
			    "Unknown option '%s'", argv[i]);
		}
	}
	if (i == argc)
		return simcmd_error(ctx, 1, "mkdir", "Needs 1 argument");
	for (; i < argc; i++) {
		int err = simfs_mkdir(ctx->dev->fs, argv[i], perm, parents);

		if (err) {
			simcmd_error(ctx, 1, "mkdir", "'%s': %s", argv[i],
			    jg_strerror(-err));
			status = 1;
		}
	}
	return status;
}

/* touch FILE...: create empty files, or bump the mtime. */
int
cmd_touch(struct simcmd_ctx *ctx, int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2)
		return simcmd_error(ctx, 1, "touch", "Needs 1 argument");
	for (i = 1; i < argc; i++) {
		struct simfs_stat st;
		int err = simfs_stat(ctx->dev->fs, argv[i], &st);

		if (!err)
			err = simfs_utime(ctx->dev->fs, argv[i],
			    (long long)time(NULL));
		else if (err == -ENOENT)
			err = simfs_write(ctx->dev->fs, argv[i], "", 0, 1, 0);
		if (err) {
			simcmd_error(ctx, 1, "touch", "'%s': %s", argv[i],
			    jg_strerror(-err));
			status = 1;
		}
	}
	return status;
}
