/*
 * methodmap.h: Matrix method ids back to method names (docs/formats.md §1.7).
 *
 * Matrix's gradle plugin numbers every instrumented method and writes the
 * numbers to methodMapping.txt; on the device TraceCanary only knows the
 * numbers, so an evil-method `stack` is a list of ids:
 *
 *	methodMapping.txt                  stack (one issue)
 *	id,accessFlag,class method desc    depth,methodId,count,cost\n
 *	243,1,a.b.Feed onCreate (L..;)V    0,1048574,1,1006\n
 *	1048574,1,android.os.Handler ...   1,243,1,1000\n
 *
 * The stack is a call tree in pre-order (a parent before its children,
 * depth 0 at the root).  A block wants a Java-like stack, innermost frame
 * first, so methodmap_decode() keeps one path through the tree: from the
 * costliest root, down into the costliest child for as long as that child
 * still takes at least 30 % of the root's cost (Matrix's own bar for
 * the method to blame, TraceDataUtils.getTreeKey), innermost first.
 * Cheaper siblings are not in the block's stack.
 *
 * A frame is "class.method(desc)" from the mapping, for example
 * "a.b.Feed.onCreate(Landroid.os.Bundle;)V", which signature.h reduces to
 * "a.b.Feed.onCreate" like a Java frame of the same method.  An id that
 * the mapping lacks, or every id when no mapping is loaded, stays
 * "method#243"; the dispatch root 1048574 is always
 * "android.os.Handler.dispatchMessage".
 */
#ifndef JG_METHODMAP_H
#define JG_METHODMAP_H

#include <stddef.h>

struct strlist;

/* Handler.dispatchMessage, the root Matrix's Looper tracers add. */
#define METHODMAP_DISPATCH_ID 1048574

/* The longest path methodmap_decode() keeps; deeper ones are cut. */
#define METHODMAP_MAX_FRAMES 256

struct methodmap;

/*
 * Read methodMapping.txt at `path` into *out.  Returns 0, JG_ENOTFOUND or
 * JG_EIO when it cannot be read, or JG_EINVAL naming the first line that
 * is not "id,flags,class method [desc]".  On error *out is NULL.
 */
int methodmap_load(struct methodmap **out, const char *path);

/* The same over `len` bytes of text; `name` is used in messages. */
int methodmap_parse(struct methodmap **out, const char *buf, size_t len,
    const char *name);

/* Free the map; NULL is a no-op. */
void methodmap_free(struct methodmap *m);

/* How many methods the map holds. */
size_t methodmap_size(const struct methodmap *m);

/*
 * The frame for `id`: the mapping's "class.method(desc)", the dispatch
 * root, or "method#ID".  `m` may be NULL.  The caller frees the string.
 */
char *methodmap_frame(const struct methodmap *m, long id);

/* One line of a Matrix stack. */
struct methodmap_item {
	int depth;
	long id;
	long count;		/* consecutive calls merged */
	long cost_ms;
};

/*
 * Parse the `len` bytes of a stack string into *out (the caller frees it)
 * and return the number of items.  With `cut` (the string was truncated),
 * the text after the last '\n' is not trusted and not parsed.  *bad gets
 * the number of lines skipped as malformed or cut.
 */
size_t methodmap_stack_items(const char *s, size_t len, int cut,
    struct methodmap_item **out, size_t *bad);

/*
 * Append the frames of the stack string `s` (see the top of this file) to
 * `out`, innermost first; `m` may be NULL.  Returns 1 when part of the
 * stack was lost (a cut or malformed line, a path longer than
 * METHODMAP_MAX_FRAMES), else 0.
 */
int methodmap_decode(const struct methodmap *m, const char *s, size_t len,
    int cut, struct strlist *out);

#endif
