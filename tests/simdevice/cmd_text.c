/*
 * cmd_text.c: the text filters scripts put after a dumpsys: toybox's
 * `grep`, `head` and `tail`, on files or stdin.
 *
 *   grep [-E|-F] [-i] [-v] [-c] [-q] [-e PATTERN] PATTERN [FILE...]
 *   head [-n N | -N] [FILE]
 *   tail [-n N | -N] [FILE]
 *
 * grep patterns are POSIX basic regexes (extended with -E, fixed strings
 * with -F); the status is 0 when a line matched, 1 when none did, 2 on an
 * error.  Lines are split on '\n'; a last line without one still counts.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "simdev.h"
#include "simfs.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

/* All of stdin, or of `path`; -1 (after complaining) when unreadable. */
static int
slurp(struct simcmd_ctx *ctx, const char *argv0, const char *path,
    struct strbuf *out)
{
	char buf[65536];
	size_t n;
	int err;

	if (!path || !strcmp(path, "-")) {
		while ((n = simio_read(ctx->io, buf, sizeof(buf))))
			strbuf_add(out, buf, n);
		return 0;
	}
	err = simfs_read(ctx->dev->fs, path, out);
	if (!err)
		return 0;
	simio_printf(ctx->io, 2, "%s: %s: %s\n", argv0, path,
	    err == -EISDIR ? "Is a directory" : "No such file or directory");
	return -1;
}

struct grep {
	int extended, fixed, icase, invert, count, quiet;
	const char *pattern;
	regex_t re;
};

static int
line_matches(const struct grep *g, const char *line)
{
	int hit;

	if (g->fixed)
		hit = (g->icase ? strcasestr(line, g->pattern) :
		    strstr(line, g->pattern)) != NULL;
	else
		hit = !regexec(&g->re, line, 0, NULL, 0);
	return hit != g->invert;
}

/* Filter `text` into `out`; returns the number of selected lines. */
static long
grep_text(const struct grep *g, char *text, size_t len, struct strbuf *out)
{
	char *p = text, *end = text + len;
	long hits = 0;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (nl)
			*nl = '\0';
		if (line_matches(g, p)) {
			hits++;
			if (!g->count && !g->quiet)
				strbuf_addf(out, "%s\n", p);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return hits;
}

int
cmd_grep(struct simcmd_ctx *ctx, int argc, char **argv)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	struct grep g;
	long hits = 0;
	int i, status = 1, err = 0;

	memset(&g, 0, sizeof(g));
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *o = argv[i] + 1;

		if (!strcmp(o, "e") && i + 1 < argc) {
			g.pattern = argv[++i];
			continue;
		}
		for (; *o; o++) {
			switch (*o) {
			case 'E': g.extended = 1; break;
			case 'F': g.fixed = 1; break;
			case 'i': g.icase = 1; break;
			case 'v': g.invert = 1; break;
			case 'c': g.count = 1; break;
			case 'q': g.quiet = 1; break;
			default:
				return simcmd_error(ctx, 2, "grep", "Unknown "
				    "option '%c'", *o);
			}
		}
	}
	if (!g.pattern && i < argc)
		g.pattern = argv[i++];
	if (!g.pattern)
		return simcmd_error(ctx, 2, "grep", "Need 1 argument");
	if (!g.fixed && regcomp(&g.re, g.pattern, REG_NOSUB |
	    (g.extended ? REG_EXTENDED : 0) | (g.icase ? REG_ICASE : 0)))
		return simcmd_error(ctx, 2, "grep", "bad regex '%s'",
		    g.pattern);
	do {
		strbuf_reset(&in);
		if (slurp(ctx, "grep", i < argc ? argv[i] : NULL, &in))
			err = 1;
		else
			hits += grep_text(&g, in.buf, in.len, &out);
	} while (++i < argc);
	if (g.count)
		strbuf_addf(&out, "%ld\n", hits);
	simio_write(ctx->io, 1, out.buf, out.len);
	if (!g.fixed)
		regfree(&g.re);
	if (hits)
		status = 0;
	strbuf_release(&in);
	strbuf_release(&out);
	return err ? 2 : status;
}

/* -n N or -N; returns the index of the first operand, or -1. */
static int
line_count(int argc, char **argv, long *n)
{
	int i = 1;
	char *end;

	*n = 10;
	if (i < argc && !strcmp(argv[i], "-n") && i + 1 < argc) {
		errno = 0;
		*n = strtol(argv[i + 1], &end, 10);
		i += 2;
	} else if (i < argc && argv[i][0] == '-' && argv[i][1]) {
		errno = 0;
		*n = strtol(argv[i] + 1, &end, 10);
		i++;
	} else
		return i;
	return errno || *end || *n < 0 ? -1 : i;
}

/* head (from_end 0) or tail (1) of the input. */
static int
head_tail(struct simcmd_ctx *ctx, int argc, char **argv, int from_end)
{
	struct strbuf in = STRBUF_INIT;
	long n, lines = 0;
	size_t start = 0, stop, k;
	int i = line_count(argc, argv, &n);

	if (i < 0)
		return simcmd_error(ctx, 1, argv[0], "bad line count");
	if (slurp(ctx, argv[0], i < argc ? argv[i] : NULL, &in)) {
		strbuf_release(&in);
		return 1;
	}
	stop = in.len;
	if (!from_end) {
		for (k = 0; k < in.len && lines < n; k++)
			if (in.buf[k] == '\n' && ++lines == n)
				stop = k + 1;
	} else {
		k = in.len && in.buf[in.len - 1] == '\n' ? in.len - 1 : in.len;
		while (k > 0 && lines < n)
			if (in.buf[--k] == '\n' && ++lines == n)
				start = k + 1;
		if (lines < n)
			start = 0;
	}
	if (!n)
		start = stop = 0;
	simio_write(ctx->io, 1, in.buf + start, stop - start);
	strbuf_release(&in);
	return 0;
}

int
cmd_head(struct simcmd_ctx *ctx, int argc, char **argv)
{
	return head_tail(ctx, argc, argv, 0);
}

int
cmd_tail(struct simcmd_ctx *ctx, int argc, char **argv)
{
	return head_tail(ctx, argc, argv, 1);
}
