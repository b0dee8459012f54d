/*
 * scenario.c: the scenario parser's spine: lines into blocks, includes,
 * error collection, and the parsed object (the language is described in
 * scenario.h; single lines are read by scenario_cmd.c).
 *
 * Steps go into one flat array.  An include is read recursively at its
 * line, so its steps land in place and keep their own file and line.  Open
 * scenes and repeats live on one stack of frames shared by all files; each
 * file remembers how many frames were open when it began, because a block
 * must be closed in the file that opens it.
 *
 * After an error the parser goes on with the next line, so `jankgate check`
 * can list many problems at once; the scenario itself is then thrown away.
 * A block whose opening line is wrong is still pushed, so that its `end`
 * does not cause a second, confusing error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "fileio.h"
#include "scenario_int.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

#define MAX_FILE_SIZE (4 << 20)
#define MAX_INCLUDE_DEPTH 16
#define MAX_INCLUDES 1000
#define MAX_SCENES 1000
#define MAX_EXPANDED 1000000
#define NO_STEP SIZE_MAX

struct scenario {
	char *name;
	char *path;
	struct scenario_step *steps;
	size_t nr, alloc;
	size_t *scenes;			/* indices of SCN_SCENE steps */
	size_t scenes_nr, scenes_alloc;
	char **files;			/* the names steps point at */
	size_t files_nr, files_alloc;
	size_t length;			/* steps of one expanded iteration */
};

/* An open scene or repeat. */
struct frame {
	enum scn_kind kind;		/* SCN_SCENE or SCN_REPEAT */
	size_t begin;			/* its step; NO_STEP: bad line */
	char *name;			/* a scene's name, NULL if unknown */
	const char *file;
	int line, col;
	int count;			/* repeat count (1 when bad) */
	size_t children;		/* command lines inside, good or bad */
	uint64_t expanded;		/* cursor steps of one pass */
};

/* A file being read. */
struct source {
	const char *name;		/* as shown in messages */
	const char *dir;		/* where its includes are looked up */
	int has_id;			/* dev/ino are known (a real file) */
	dev_t dev;
	ino_t ino;
	size_t base;			/* frames open when the file began */
};

struct parser {
	struct scenario *scn;
	struct strlist *problems;
	size_t first_problem;		/* problems were there before us */
	struct frame *frames;
	size_t frames_nr, frames_alloc;
	struct source src[MAX_INCLUDE_DEPTH + 1];
	int depth;			/* index of the current source */
	int line;
	struct scn_lexer lx;
	uint64_t expanded;		/* top-level cursor steps */
	size_t includes;
	int stop;			/* too many errors, or too large */
};

/* ---- errors ---- */

__attribute__((format(printf, 5, 0)))
static void
verror_at(struct parser *p, const char *file, int line, int col,
    const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	if (p->stop)
		return;
	strbuf_addf(&sb, "%s:%d:%d: ", file, line, col);
	if (p->problems->nr - p->first_problem >= SCN_MAX_ERRORS) {
		strbuf_addstr(&sb, "too many errors, stopping");
		p->stop = 1;
	} else {
		strbuf_vaddf(&sb, fmt, ap);
	}
	strlist_add(p->problems, sb.buf);
	strbuf_release(&sb);
}

/* Report a problem at `col` of the current line of the current file. */
__attribute__((format(printf, 3, 4)))
static void
error_at(struct parser *p, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(p, p->src[p->depth].name, p->line, col, fmt, ap);
	va_end(ap);
}

/* Report a problem at file:line:col, e.g. the opening line of a block. */
__attribute__((format(printf, 5, 6)))
static void
error_pos(struct parser *p, const char *file, int line, int col,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(p, file, line, col, fmt, ap);
	va_end(ap);
}

/* ---- steps and blocks ---- */

static struct frame *
top_frame(struct parser *p)
{
	return p->frames_nr ? &p->frames[p->frames_nr - 1] : NULL;
}

/* The innermost open block of `kind`, or NULL. */
static const struct frame *
find_open(struct parser *p, enum scn_kind kind)
{
	for (size_t i = p->frames_nr; i-- > 0;)
		if (p->frames[i].kind == kind)
			return &p->frames[i];
	return NULL;
}

/* "scene 'feed'", or "a scene" when its name could not be read. */
static const char *
scene_label(char *buf, size_t size, const struct frame *f)
{
	char b[80];

	if (!f->name)
		return "a scene";
	snprintf(buf, size, "scene '%s'", scn_show(b, sizeof(b), f->name));
	return buf;
}

/*
 * Add `n` cursor steps to the innermost open block, or to the scenario at
 * top level; a scenario that grows too large stops the parse.
 */
static void
count_expanded(struct parser *p, uint64_t n, const char *file, int line,
    int col)
{
	struct frame *f = top_frame(p);
	uint64_t *total = f ? &f->expanded : &p->expanded;

	*total += n;
	if (*total <= MAX_EXPANDED)
		return;
	*total = MAX_EXPANDED + 1;
	error_pos(p, file, line, col, "scenario expands to more than %d "
	    "steps (check the repeat counts)", MAX_EXPANDED);
	p->stop = 1;
}

/*
 * Note a command line in the innermost block.  Any line makes its block
 * non-empty, even a bad one (its own error says enough); an include counts
 * through its lines, an `end` not at all.
 */
static void
count_line(struct parser *p)
{
	if (p->frames_nr)
		top_frame(p)->children++;
}

static size_t
add_step(struct parser *p, const struct scenario_step *st)
{
	struct scenario *scn = p->scn;

	XALLOC_GROW(scn->steps, scn->nr + 1, scn->alloc);
	scn->steps[scn->nr] = *st;
	return scn->nr++;
}

static void
push_frame(struct parser *p, const struct scenario_step *st, size_t begin)
{
	struct frame *f;

	if (p->frames_nr == SCN_MAX_DEPTH)
		error_at(p, st->col, "blocks nested too deeply (at most %d)",
		    SCN_MAX_DEPTH);
	XALLOC_GROW(p->frames, p->frames_nr + 1, p->frames_alloc);
	f = &p->frames[p->frames_nr++];
	memset(f, 0, sizeof(*f));
	f->kind = st->kind;
	f->begin = begin;
	f->file = st->file;
	f->line = st->line;
	f->col = st->col;
	f->count = st->kind == SCN_REPEAT && st->count ? st->count : 1;
	f->name = st->kind == SCN_SCENE && st->text ? xstrdup(st->text) : NULL;
}

/*
 * Close the innermost block at line:col of the current file: add its end
 * marker and fold its size into the enclosing block.  An empty block is an
 * error, unless its opening line was bad or it is closed by the end of the
 * file: both were reported already.
 */
static void
pop_frame(struct parser *p, int line, int col, int at_eof)
{
	struct frame f = p->frames[--p->frames_nr];
	struct scenario *scn = p->scn;
	struct scenario_step end;
	char b[128];

	if (!f.children && !at_eof && f.begin != NO_STEP)
		error_pos(p, f.file, f.line, f.col, "%s has no steps",
		    f.kind == SCN_SCENE ? scene_label(b, sizeof(b), &f) :
		    "'repeat'");
	free(f.name);
	if (f.begin != NO_STEP) {
		memset(&end, 0, sizeof(end));
		end.kind = f.kind == SCN_SCENE ? SCN_SCENE_END : SCN_REPEAT_END;
		end.file = p->src[p->depth].name;
		end.line = line;
		end.col = col;
		end.match = f.begin;
		XALLOC_GROW(scn->steps, scn->nr + 1, scn->alloc);
		scn->steps[f.begin].match = scn->nr;
		scn->steps[scn->nr++] = end;
	}
	count_expanded(p, f.kind == SCN_SCENE ? f.expanded + 2 :
	    f.expanded * (uint64_t)f.count, f.file, f.line, f.col);
}

/* ---- commands that shape the scenario ---- */

/* Why the command `fm` may not run inside a scene, or NULL if it may. */
static const char *
scene_conflict(const struct scn_form *fm)
{
	if (fm->flags & SCN_F_UI)
		return "it dumps the UI hierarchy, which would disturb the "
		    "measurement";
	if (fm->flags & SCN_F_AM)
		return "it queries the activity manager, which would disturb "
		    "the measurement";
	if (fm->flags & SCN_F_PROC)
		return "it ends the app process whose frames the scene "
		    "measures";
	return NULL;
}

static void
do_scene(struct parser *p, struct scenario_step *st, int ok)
{
	const struct frame *outer = find_open(p, SCN_SCENE);
	const struct frame *rep = find_open(p, SCN_REPEAT);
	struct scenario *scn = p->scn;
	char b[128];

	if (outer) {
		error_at(p, st->col, "'scene' inside %s (opened at %s:%d:%d): "
		    "scenes may not nest", scene_label(b, sizeof(b), outer),
		    outer->file, outer->line, outer->col);
		ok = 0;
	} else if (rep) {
		error_at(p, st->col, "'scene' inside 'repeat' (opened at "
		    "%s:%d:%d): a scene is measured once per iteration; put "
		    "the repeat inside the scene", rep->file, rep->line,
		    rep->col);
		ok = 0;
	}
	for (size_t i = 0; ok && i < scn->scenes_nr; i++) {
		const struct scenario_step *o = &scn->steps[scn->scenes[i]];

		if (!strcmp(o->text, st->text)) {
			error_at(p, p->lx.tok[1].col, "duplicate scene name "
			    "'%s' (first at %s:%d:%d)", st->text, o->file,
			    o->line, o->col);
			ok = 0;
		}
	}
	if (ok && scn->scenes_nr == MAX_SCENES) {
		error_at(p, st->col, "too many scenes (at most %d)",
		    MAX_SCENES);
		ok = 0;
	}
	if (!ok) {
		push_frame(p, st, NO_STEP);
		free(st->text);
		return;
	}
	XALLOC_GROW(scn->scenes, scn->scenes_nr + 1, scn->scenes_alloc);
	scn->scenes[scn->scenes_nr++] = scn->nr;
	push_frame(p, st, add_step(p, st));
}

static void
do_end(struct parser *p, const struct scn_form *fm)
{
	struct scenario_step dummy;
	int col;

	if (p->frames_nr <= p->src[p->depth].base) {
		error_at(p, p->lx.tok[0].col, "'end' without an open 'scene' "
		    "or 'repeat'%s", p->frames_nr ? " in this file (a block "
		    "must be closed in the file that opens it)" : "");
		return;
	}
	memset(&dummy, 0, sizeof(dummy));
	if (scn_read_args(&p->lx, fm, &dummy, &col))
		error_at(p, col, "%s", jg_error_msg());
	pop_frame(p, p->line, p->lx.tok[0].col, 0);
}

static char *
join_path(const char *dir, const char *file)
{
	if (file[0] == '/' || !dir || !dir[0])
		return xstrdup(file);
	return xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
	    file);
}

static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup("");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * stat() `path` before reading it as a scenario: it must be a regular file
 * (not a FIFO or /dev/zero) of a sane size.  Returns 0, or an error whose
 * message names the path, `what` ("" or "include file ") in front.
 */
static int
stat_source(const char *path, const char *what, struct stat *st)
{
	if (stat(path, st))
		return jg_error_errno(errno == ENOENT ? JG_ENOTFOUND : JG_EIO,
		    errno, "cannot open %s'%s'", what, path);
	if (!S_ISREG(st->st_mode))
		return jg_error_set(JG_EINVAL, "%s'%s' is not a regular file",
		    what, path);
	if (st->st_size > MAX_FILE_SIZE)
		return jg_error_set(JG_EINVAL, "%s'%s' is too large (more "
		    "than 4 MiB)", what, path);
	return 0;
}

static void parse_buffer(struct parser *p, const char *name, const char *dir,
    const char *buf, size_t len, const struct stat *id);

/* A file is recognised by device and inode, so "./a.scn" is "a.scn". */
static int
find_cycle(struct parser *p, const struct stat *st, const char *path)
{
	struct strbuf chain = STRBUF_INIT;
	int i;

	for (i = 0; i <= p->depth; i++)
		if (p->src[i].has_id && p->src[i].dev == st->st_dev &&
		    p->src[i].ino == st->st_ino)
			break;
	if (i > p->depth)
		return 0;
	for (; i <= p->depth; i++)
		strbuf_addf(&chain, "%s -> ", p->src[i].name);
	jg_error_set(JG_EINVAL, "include cycle: %s%s", chain.buf, path);
	strbuf_release(&chain);
	return 1;
}

static void
do_include(struct parser *p, const struct scn_token *arg)
{
	char *path = join_path(p->src[p->depth].dir, arg->s), *dir;
	struct strbuf buf = STRBUF_INIT;
	struct stat st;

	if (p->depth == MAX_INCLUDE_DEPTH)
		jg_error_set(JG_EINVAL, "includes nested too deeply (at most "
		    "%d)", MAX_INCLUDE_DEPTH);
	else if (++p->includes > MAX_INCLUDES)
		jg_error_set(JG_EINVAL, "too many includes (more than %d)",
		    MAX_INCLUDES);
	else if (!stat_source(path, "include file ", &st) &&
	    !find_cycle(p, &st, path) && !file_read(&buf, path)) {
		const char *name;

		/* Steps point at the name, so the scenario keeps it. */
		XALLOC_GROW(p->scn->files, p->scn->files_nr + 1,
		    p->scn->files_alloc);
		name = p->scn->files[p->scn->files_nr++] = xstrdup(path);
		dir = dir_of(path);
		parse_buffer(p, name, dir, buf.buf, buf.len, &st);
		free(dir);
		goto out;
	}
	error_at(p, arg->col, "%s", jg_error_msg());
out:
	free(path);
	strbuf_release(&buf);
}

static void
parse_line(struct parser *p)
{
	const struct scn_token *tok = p->lx.tok;
	const struct scn_form *fm;
	const struct frame *scene;
	struct scenario_step st;
	const char *why;
	char b[128];
	int col, ok;

	if (!p->lx.nr)
		return;
	fm = scn_find_form(&p->lx, &col);
	if (!fm || fm->kind >= 0)
		count_line(p);
	if (!fm) {
		error_at(p, col, "%s", jg_error_msg());
		return;
	}
	if (fm->kind == SCN_CMD_END) {
		do_end(p, fm);
		return;
	}
	scene = find_open(p, SCN_SCENE);
	why = scene_conflict(fm);
	if (scene && why) {
		error_at(p, tok[0].col, "'%s%s%s' is not allowed inside %s: %s",
		    fm->cmd, fm->sub ? " " : "", fm->sub ? fm->sub : "",
		    scene_label(b, sizeof(b), scene), why);
		return;
	}
	memset(&st, 0, sizeof(st));
	st.file = p->src[p->depth].name;
	st.line = p->line;
	st.col = tok[0].col;
	ok = !scn_read_args(&p->lx, fm, &st, &col);
	if (!ok)
		error_at(p, col, "%s", jg_error_msg());
	if (fm->kind == SCN_CMD_INCLUDE) {
		if (ok)
			do_include(p, &tok[1]);
		free(st.text);
	} else if (fm->kind == SCN_SCENE) {
		do_scene(p, &st, ok);
	} else if (fm->kind == SCN_REPEAT) {
		push_frame(p, &st, ok ? add_step(p, &st) : NO_STEP);
	} else if (ok && fm->kind == SCN_INSTRUMENT &&
	    find_open(p, SCN_REPEAT)) {
		const struct frame *rep = find_open(p, SCN_REPEAT);

		error_at(p, tok[0].col, "'instrument' inside 'repeat' (opened "
		    "at %s:%d:%d): its tests are scenes, measured once per "
		    "iteration", rep->file, rep->line, rep->col);
		free(st.text);
		scn_step_release_words(&st);
	} else if (ok) {
		add_step(p, &st);
		count_expanded(p, 1, st.file, st.line, st.col);
	}
}

/*
 * Parse one file's text as the next source; `id` identifies the file for
 * cycle detection (NULL when the text is not a file).  Blocks the file
 * leaves open are reported, then closed so the including file goes on
 * with a consistent stack.
 */
static void
parse_buffer(struct parser *p, const char *name, const char *dir,
    const char *buf, size_t len, const struct stat *id)
{
	struct source *src = &p->src[++p->depth];
	int saved_line = p->line;
	size_t pos = 0;

	memset(src, 0, sizeof(*src));
	src->name = name;
	src->dir = dir;
	src->base = p->frames_nr;
	if (id) {
		src->has_id = 1;
		src->dev = id->st_dev;
		src->ino = id->st_ino;
	}
	p->line = 0;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len && !p->stop) {
		const char *line = buf + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		const char *nul = memchr(line, '\0', n);

		pos += n + (nl != NULL);
		p->line++;
		if (n && line[n - 1] == '\r')
			n--;
		if (nul) {
			error_at(p, scn_column(line, (size_t)(nul - line)),
			    "NUL byte in file");
			count_line(p);
		} else if (scn_lex_line(&p->lx, line, n)) {
			error_at(p, p->lx.err_col, "%s", jg_error_msg());
			count_line(p);
		} else {
			parse_line(p);
		}
	}
	for (size_t i = src->base; i < p->frames_nr; i++) {
		const struct frame *f = &p->frames[i];

		error_pos(p, f->file, f->line, f->col, "'%s' is not closed by "
		    "'end'", f->kind == SCN_SCENE ? "scene" : "repeat");
	}
	while (p->frames_nr > src->base)
		pop_frame(p, p->line, 1, 1);
	p->depth--;
	p->line = saved_line;
}

/* ---- the object ---- */

static char *
stem_of(const char *name)
{
	const char *base = strrchr(name, '/'), *dot;

	base = base ? base + 1 : name;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		return xstrdup(base);
	return xstrndup(base, (size_t)(dot - base));
}

static int
parse_top(struct scenario **out, const char *buf, size_t len,
    const char *name, const char *base_dir, const struct stat *id,
    struct strlist *problems)
{
	struct strlist local = STRLIST_INIT;
	struct scenario *scn = xcalloc(1, sizeof(*scn));
	struct parser p;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	p.scn = scn;
	p.problems = problems ? problems : &local;
	p.first_problem = p.problems->nr;
	p.depth = -1;
	scn_lexer_init(&p.lx);
	scn->name = stem_of(name);
	scn->path = xstrdup(name);
	XALLOC_GROW(scn->files, 1, scn->files_alloc);
	scn->files[scn->files_nr++] = xstrdup(name);
	parse_buffer(&p, scn->files[0], base_dir, buf, len, id);
	if (p.problems->nr > p.first_problem) {
		rc = jg_error_set(JG_EINVAL, "%s",
		    p.problems->items[p.first_problem]);
		scenario_free(scn);
		scn = NULL;
	} else {
		scn->length = (size_t)p.expanded;
	}
	*out = scn;
	scn_lexer_release(&p.lx);
	free(p.frames);
	strlist_release(&local);
	return rc;
}

int
scenario_parse(struct scenario **out, const char *buf, size_t len,
    const char *name, const char *base_dir, struct strlist *problems)
{
	return parse_top(out, buf, len, name, base_dir, NULL, problems);
}

int
scenario_load(struct scenario **out, const char *path,
    struct strlist *problems)
{
	struct strbuf buf = STRBUF_INIT;
	struct stat st;
	char *dir;
	int rc;

	*out = NULL;
	rc = stat_source(path, "", &st);
	if (!rc)
		rc = file_read(&buf, path);
	if (!rc) {
		dir = dir_of(path);
		rc = parse_top(out, buf.buf, buf.len, path, dir, &st,
		    problems);
		free(dir);
	}
	strbuf_release(&buf);
	return rc;
}

void
scenario_free(struct scenario *scn)
{
	if (!scn)
		return;
	for (size_t i = 0; i < scn->nr; i++) {
		free(scn->steps[i].text);
		for (char **a = scn->steps[i].argv; a && *a; a++)
			free(*a);
		free(scn->steps[i].argv);
		scn_step_release_words(&scn->steps[i]);
	}
	for (size_t i = 0; i < scn->files_nr; i++)
		free(scn->files[i]);
	free(scn->steps);
	free(scn->scenes);
	free(scn->files);
	free(scn->name);
	free(scn->path);
	free(scn);
}

const char *
scenario_name(const struct scenario *scn)
{
	return scn->name;
}

const char *
scenario_path(const struct scenario *scn)
{
	return scn->path;
}

size_t
scenario_step_count(const struct scenario *scn)
{
	return scn->nr;
}

const struct scenario_step *
scenario_step(const struct scenario *scn, size_t i)
{
	return i < scn->nr ? &scn->steps[i] : NULL;
}

size_t
scenario_scene_count(const struct scenario *scn)
{
	return scn->scenes_nr;
}

const struct scenario_step *
scenario_scene(const struct scenario *scn, size_t i)
{
	return i < scn->scenes_nr ? &scn->steps[scn->scenes[i]] : NULL;
}

size_t
scenario_length(const struct scenario *scn)
{
	return scn->length;
}
