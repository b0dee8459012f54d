/*
 * matrix_int.h: the pieces of the `matrix` source (Tencent Matrix
 * TraceCanary, docs/formats.md §1), private to harness/sources/matrix*.c.
 *
 *   matrix_json.c   a JSON reader that keeps what it read of a cut object
 *   matrix_join.c   the lines an issue spans, joined into one message
 *   matrix_issue.c  finding issues in log messages, one struct mx_issue
 *   matrix_apply.c  issues into the results model: fps, blocks, startup
 *   matrix_stack.c  threadStack strings in each of their styles
 *   matrix.c        the source's hooks and its per-run state
 *
 * Matrix prints its issues as single lines that logcat cuts at about
 * 4 KB, so everything here reads as far as the bytes go and says what was
 * lost instead of failing.
 */
#ifndef JG_MATRIX_INT_H
#define JG_MATRIX_INT_H

#include <stdbool.h>
#include <stddef.h>

struct logcat_line;
struct methodmap;
struct rs_iteration;
struct source_ctx;
struct source_span;
struct strlist;

/* ---- matrix_json.c ---- */

enum mx_type {
	MX_NULL,
	MX_BOOL,
	MX_NUMBER,
	MX_STRING,
};

/*
 * One scalar member of the object.  Members of nested objects are
 * flattened with dotted keys ("dropLevel.DROPPED_BEST"); arrays are
 * skipped, since no trace issue has one.
 */
struct mx_member {
	char *key;
	enum mx_type type;
	double number;		/* MX_NUMBER; 1 or 0 for MX_BOOL */
	char *string;		/* MX_STRING: unescaped, NUL-terminated */
	bool cut;		/* the string ends where the input did */
};

struct mx_json {
	struct mx_member *members;	/* in input order */
	size_t nr, alloc;
	bool complete;		/* the closing brace was reached */
	bool cut;		/* the input ended inside the object */
	size_t end;		/* bytes through the closing brace */
};

/*
 * Read the object at the start of s[0..len) into `j` (initialised here),
 * member by member, until it closes, the input ends (j->cut) or a syntax
 * error; the members read before either are kept.  A number or literal
 * that the input's end might have shortened is not kept.
 */
void mx_json_parse(struct mx_json *j, const char *s, size_t len);

/* Free the members; `j` is empty afterwards. */
void mx_json_release(struct mx_json *j);

/* The first member named `key`, or NULL.  Borrowed. */
const struct mx_member *mx_json_get(const struct mx_json *j,
    const char *key);

/* The member as a number / string / bool, or NAN / NULL / -1 (RS_UNKNOWN). */
double mx_json_number(const struct mx_json *j, const char *key);
const char *mx_json_string(const struct mx_json *j, const char *key);
int mx_json_bool(const struct mx_json *j, const char *key);

/* ---- matrix_join.c ---- */

/* One message to look for issues in: a line's, or lines joined. */
struct mx_msg {
	const struct logcat_line *line;	/* its first line */
	const char *s;			/* the text, not NUL-terminated */
	size_t n;
	char *text;			/* owned, when joined */
	size_t nr_lines;		/* lines it spans */
	bool util;			/* a ParseIssueUtil print */
	/*
	 * An object opened on the line and the lines after it went on with
	 * it, but it never closed: a paste cut short, not a logcat cut.
	 */
	bool unclosed;
};

struct mx_msgs {
	struct mx_msg *v;
	size_t nr, alloc;
	const struct logcat_line *lines;	/* what it was made of */
	bool *used;		/* per line: joined, or (matrix.c) an issue */
	size_t nr_json, nr_util;	/* messages joined, of each kind */
};

/*
 * The messages of `lines`: each line's own, but where an issue spans
 * several (pretty-printed or annotated JSON, the sample's ParseIssueUtil
 * print) one message of them all.  Free with mx_msgs_release().
 */
void mx_join(struct mx_msgs *out, const struct logcat_line *lines, size_t nr);
void mx_msgs_release(struct mx_msgs *m);

/* ---- matrix_issue.c ---- */

/* The trace issue tags (docs/formats.md §1.1), and everything else. */
enum mx_tag {
	MX_TAG_OTHER,		/* another plugin's issue: not ours */
	MX_TAG_FPS,
	MX_TAG_EVIL,
	MX_TAG_STARTUP,
};

struct mx_issue {
	double mono_ms;		/* the logcat line's time, NAN if none */
	enum mx_tag tag;
	char *tag_name;		/* as printed */
	char *key;		/* a Looper ANR's token, or NULL */
	char *content;		/* the JSON as found, to tell copies */
	size_t content_len;
	struct mx_json json;
	bool cut;		/* the line ended before the issue did */
	bool unclosed;		/* ... and it was a paste, not logcat (mx_msg) */
	/* The bytes of its line's tag and message: logcat cuts at 4 KB. */
	size_t line_len;
	bool duplicate;		/* a second listener's copy of another */
	/* Bytes of the message through the issue, when it is whole. */
	size_t end;
};

/*
 * Look for a Matrix issue in one log message of `len` bytes: the
 * Issue.toString() form "tag[T]type[N];key[K];content[{...}]" anywhere in
 * the message, or a bare JSON object carrying a Matrix "tag" (or, cut
 * before its tag, opening with Matrix's device keys).  Returns 1 and fills
 * `out` (release it with mx_issue_release), or 0 when the message is not
 * a Matrix issue.
 */
int mx_issue_find(struct mx_issue *out, const char *msg, size_t len,
    double mono_ms);

void mx_issue_release(struct mx_issue *is);

/*
 * Mark the copies: the sample's TestPluginListener logs every issue that
 * DefaultPluginListener logged, each line cut at its own length.  An
 * issue whose content starts the content of one of the few issues just
 * before it (or is started by it), with the same tag, is a copy; the
 * longer one is kept.
 */
void mx_issue_mark_duplicates(struct mx_issue *v, size_t nr);

/*
 * A line of fewer bytes (tag and message) than this was not cut by
 * logcat, whose entries hold 4068 bytes of priority, tag and message
 * (4076 before API 24), tags longer than 250 bytes aside.
 */
#define MX_LOGCAT_CUT_MIN 3800

/* ---- matrix_apply.c ---- */

/* Where issues go, and what became of them. */
struct mx_apply {
	const struct source_ctx *ctx;	/* for warnings (source_warn.h) */
	struct rs_iteration *it;
	const struct methodmap *map;	/* may be NULL */
	double grace_ms;
	/*
	 * Scenes by the app scene Matrix names rather than by time (saved
	 * output without scene windows): `jankgate parse`.
	 */
	bool by_app_scene;
	/*
	 * markers.matrix: an FPS slice reported during one of these spans
	 * (the test steps', source.h) goes to the scene named after its
	 * activity (mx_scene_name) rather than by time.
	 */
	bool own_scenes;
	const struct source_span *steps;
	size_t nr_steps;

	/*
	 * How many app_scenes each scene had before Matrix added its own:
	 * those the frame sources saw drawing (mx_apply_begin).
	 */
	size_t *known;
	size_t nr_known;

	/* What mx_apply_issue() did (it writes the warnings itself). */
	size_t nr_cut;		/* issues cut short, kept as read */
	size_t nr_lost;		/* ... of which nothing could be used */
	size_t nr_outside;	/* FPS slices outside every scene */
};

/*
 * Set up `a` (zeroed, with ctx, it, map, grace_ms and by_app_scene set)
 * for a batch of issues of one iteration; mx_apply_end() frees what this
 * took.
 */
void mx_apply_begin(struct mx_apply *a);
void mx_apply_end(struct mx_apply *a);

/*
 * Put one issue into a->it: Trace_FPS as an fps slice, Trace_EvilMethod
 * as a block, Trace_StartUp as it->startup.matrix.  A cut issue keeps
 * what was read and adds a warning to the scene (or scenario) it went
 * to.  Returns 1 when the issue was used, 0 when it was not a trace
 * issue, a duplicate, or an FPS slice outside every scene.
 */
int mx_apply_issue(struct mx_apply *a, const struct mx_issue *is);

/*
 * The scene name markers.matrix gives Matrix's app scene `app_scene`:
 * the simple name of its class (sample.tencent.matrix.FeedActivity ->
 * FeedActivity), control characters as '?', no space at either end, at
 * most 100 bytes (cut at a character's edge), appended to `out`.
 * Returns 0, or -1 when nothing is left of it.
 */
struct strbuf;
int mx_scene_name(struct strbuf *out, const char *app_scene);

/* ---- matrix_stack.c ---- */

/*
 * The frames of a threadStack in any of its styles (docs/formats.md §1.4),
 * appended to `out` in Java's "class.method(File.java:N)" shape as far as
 * the style keeps it.  Returns 1 when frames were lost to `cut` or to
 * METHODMAP_MAX_FRAMES, else 0.
 */
int mx_thread_stack(struct strlist *out, const char *s, int cut);

#endif
