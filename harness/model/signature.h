/*
 * signature.h: one stable name for the cause of a block.
 *
 * Every source that reports main-thread blocks (Matrix, BlockCanary,
 * performance, ...) prints a stack.  The same cause shows up with other
 * line numbers after an unrelated edit, under other framework frames on
 * another API level, or with a different library on top, so comparing
 * stacks verbatim would never group anything.  A signature is a hash of
 * the top application frames only, with line numbers dropped, so the same
 * cause groups across iterations, devices, runs and sources.
 *
 * The rule (the man page's SOURCES repeats it):
 *
 *   1. Each frame is normalised: a leading "at " and surrounding blanks
 *      go, and so does everything from the first '(' ("(Foo.java:12)",
 *      "(Unknown Source)", "(Native Method)"): "com.x.Foo.bar".
 *   2. Frames of the platform, of common libraries and of the jank
 *      libraries themselves are skipped (signature_frame_is_app()).
 *   3. The first SIGNATURE_FRAMES application frames, innermost first,
 *      each followed by '\n', are hashed with 64-bit FNV-1a.
 *   4. The signature is the hash as 16 lower-case hex digits.
 *
 * FNV-1a over bytes has no platform or version dependence: the same stack
 * gives the same signature on every host, forever.
 */
#ifndef JG_SIGNATURE_H
#define JG_SIGNATURE_H

#include <stddef.h>

struct rs_block;
struct strlist;

/* How many application frames a signature covers. */
#define SIGNATURE_FRAMES 5

/*
 * The signature of `stack` (innermost frame first): a malloc'd string of
 * 16 hex digits the caller frees, or NULL when the stack holds no
 * application frame (or `stack` is NULL).
 */
char *signature_of(const struct strlist *stack);

/* blk->signature = signature_of(&blk->stack), replacing any old one. */
void signature_set(struct rs_block *blk);

/*
 * The normalised form of one frame (rule 1) as a pointer into `frame` and
 * a length in `*len`; *len is 0 for a blank frame.
 */
const char *signature_frame_name(const char *frame, size_t *len);

/* 1 when the normalised frame `name` of `len` bytes is application code. */
int signature_frame_is_app(const char *name, size_t len);

/*
 * The index in `stack` of the frame the signature starts with, the
 * innermost application frame: what a report shows as a block's
 * headline (issue 20).  -1 when there is none (or `stack` is NULL).
 */
long signature_app_frame(const struct strlist *stack);

#endif
