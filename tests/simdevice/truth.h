/*
 * truth.h: the ground truth of what the simulated phone generated.
 *
 * End-to-end tests compare jankgate's numbers with what really happened,
 * so every generated fact is written as one JSON object per line (JSON
 * Lines), in generation order, with device monotonic times in ns:
 *
 *	{"kind":"frame","package":"com.example.shop",
 *	 "activity":"com.example.shop.FeedActivity","start_ns":12000000240,
 *	 "end_ns":12009025985,"duration_ns":9025745,"flags":0,"skipped":0,
 *	 "block":-1,"vsync_id":721,"present_ns":12033333320,
 *	 "sf_jank":"None"}    (sf_jank: SurfaceFlinger's types, sfjank.h)
 *	{"kind":"block","package":...,"activity":...,"start_ns":...,
 *	 "end_ns":...,"duration_ms":312.5,"thread_ms":296.9,
 *	 "stack":["..."],"methods":[243,244]}
 *	{"kind":"launch","package":...,"activity":...,"state":"cold",
 *	 "start_ns":...,"displayed_ns":...,"total_ms":802,"wait_ms":820,
 *	 "app_create_ms":254,"first_activity_ms":665,"fully_drawn_ms":1318}
 *	{"kind":"method","package":...,"activity":...,"name":"...",
 *	 "at_ns":...,"ms":2.3,"main":true}
 *
 * Frames carry no scene: scenes are jankgate's idea, and the tests map
 * frames to scenes by time.  A frame's "block" is the index of the block
 * it contains in the framegen_out that made it (so, with one framegen_out
 * kept per app and truth_record, among that app's block lines), or -1.
 * Writers may be called from several threads; each line is written whole.
 */
#ifndef SIM_TRUTH_H
#define SIM_TRUTH_H

#include "framegen.h"

struct truth;

/*
 * Open `path` for appending.  Returns 0 and *out (closed with
 * truth_close; NULL is a no-op), or JG_EIO with a message.
 */
int truth_open(struct truth **out, const char *path);
void truth_close(struct truth *t);

/* Write one line for a frame, block, launch or method of `package`. */
void truth_frame(struct truth *t, const char *package,
    const struct framegen_frame *f);
void truth_block(struct truth *t, const char *package,
    const struct framegen_block *b);
void truth_launch(struct truth *t, const char *package,
    const struct framegen_launch *l);
void truth_method(struct truth *t, const char *package,
    const struct framegen_method *m);

/* How much of a framegen_out was already written. */
struct truth_mark {
	size_t frames, blocks, methods;
};

/*
 * Write everything `out` gained since `from`, and its launch when
 * out->has_launch (set by the last framegen_run); then move `from`.
 */
void truth_record(struct truth *t, const char *package,
    const struct framegen_out *out, struct truth_mark *from);

#endif
