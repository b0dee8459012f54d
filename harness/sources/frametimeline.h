/*
 * frametimeline.h: SurfaceFlinger's FrameTimeline jank dump (issue 20).
 *
 * On API 31+ SurfaceFlinger judges every frame it presents and says why
 * one was late: the app missed its deadline, buffer stuffing,
 * SurfaceFlinger's own CPU or GPU, the display HAL, a prediction error...
 * `dumpsys SurfaceFlinger --frametimeline -jank` prints the janky ones of
 * the last 64 display frames it keeps.  The gfxinfo source reads it right
 * after each scene's framestats and counts the app's frames per type
 * into the scene's `jank_types`; frametimeline.c draws the layout.
 */
#ifndef JG_FRAMETIMELINE_H
#define JG_FRAMETIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results.h"

struct source_ctx;

/* One surface frame (a layer's frame) of a dumped display frame. */
struct ftl_frame {
	char *layer;		/* "pkg/pkg.FeedActivity#0" */
	int64_t token;		/* the vsync id; -1 when not printed */
	int pid;		/* Owner Pid; -1 when not printed */
	bool dropped;		/* Present State : Dropped */
	unsigned types;		/* bit (1 << enum rs_jank_type) per type */
};

struct ftl_dump {
	struct ftl_frame *frames;
	size_t nr, alloc;
	size_t display_frames;	/* "Display Frame N" headers */
	/* Jank type names no version of the dump jankgate knows prints,
	 * counted as unknown; the first one for the warning. */
	size_t unknown_names;
	char *unknown_name;
	/* The first display frame's "Vsync Period: 16.666666" (ms, later
	 * releases), the display's period then; NAN when none. */
	double vsync_period_ms;
};

void ftl_dump_init(struct ftl_dump *d);
void ftl_dump_release(struct ftl_dump *d);

/*
 * Read `len` bytes of `dumpsys SurfaceFlinger --frametimeline -jank`
 * into `d` (initialised).  Never fails; text that is not a dump leaves
 * it empty.
 */
void ftl_parse(struct ftl_dump *d, const char *buf, size_t len);

/* The jank types of one "Jank Type : A, B" value (bits as above). */
unsigned ftl_types(const char *s, size_t n, size_t *unknown);

/*
 * Count into *out (initialised here, present) the frames of the app's
 * layers: a layer whose name holds `package` (every layer when NULL),
 * or owned by one of pids[0..nr_pids), with a token of at least
 * `first_token` (< 0: any).  Dropped frames are not judged and not
 * counted.
 */
void ftl_count(const struct ftl_dump *d, const char *package,
    const int *pids, size_t nr_pids, int64_t first_token,
    struct rs_jank_types *out);

/*
 * The gfxinfo source's hook at a scene's end: on API 31+ run the dump on
 * the device and count the scene's frames (those from the first vsync
 * id of `gfxinfo`'s PROFILEDATA on); below API 31 say once that it is
 * not available.  Returns 0, or the error of a device that failed.
 */
int frametimeline_scene_end(struct source_ctx *ctx, struct rs_scene *sc,
    const char *gfxinfo, size_t len);

#endif
