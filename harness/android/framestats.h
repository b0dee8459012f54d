/*
 * framestats.h: every timestamp of a dump's PROFILEDATA rows (issue 20).
 *
 * gfxinfo_dump.c reads the few columns the frame counts need; the phases
 * of a frame, its jank by deadline and the SurfaceFlinger vsync id need
 * all of them.  framestats.c reads the PROFILEDATA blocks of one process
 * section by column name, whatever the API level's layout (FORMATS §3.1),
 * and keeps each row whole.  Pure functions over bytes, like every parser
 * of a source.
 */
#ifndef JG_FRAMESTATS_H
#define JG_FRAMESTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The columns kept, by the name hwui gives them. */
enum fst_col {
	FST_FLAGS,
	FST_VSYNC_ID,		/* FrameTimelineVsyncId, 31+ */
	FST_INTENDED,		/* IntendedVsync */
	FST_VSYNC,
	FST_HANDLE_INPUT,	/* HandleInputStart */
	FST_ANIMATION,		/* AnimationStart */
	FST_TRAVERSALS,		/* PerformTraversalsStart */
	FST_DRAW,		/* DrawStart */
	FST_DEADLINE,		/* FrameDeadline, 31+ */
	FST_INTERVAL,		/* the vsync period, 31+ (label swap below) */
	FST_START,		/* FrameStartTime, 31+ (label swap below) */
	FST_SYNC_QUEUED,
	FST_SYNC_START,
	FST_ISSUE,		/* IssueDrawCommandsStart */
	FST_SWAP,		/* SwapBuffers */
	FST_COMPLETED,		/* FrameCompleted */
	FST_GPU_COMPLETED,	/* GpuCompleted, 30+ */
	FST_NR_COLS
};

/* The value of a column the row's block did not have. */
#define FST_ABSENT INT64_MIN

/*
 * One row.  FrameInterval and FrameStartTime hold what the names say,
 * whichever way the header labelled them: API 31 to 35 print the labels
 * swapped, and a period is told from a timestamp by magnitude (below a
 * second).
 */
struct fst_frame {
	int64_t v[FST_NR_COLS];
};

struct fst_dump {
	struct fst_frame *frames;	/* dump order, every window */
	size_t nr, alloc;
	size_t blocks;		/* PROFILEDATA blocks read */
	size_t bad_rows;	/* cut short or unreadable */
	/*
	 * Blocks whose header lacks a column the phases need: their rows
	 * are not kept.  `missing` names the first column lacked.
	 */
	size_t unknown_layouts;
	const char *missing;	/* static text, or NULL */
};

void fst_dump_init(struct fst_dump *d);
void fst_dump_release(struct fst_dump *d);

/*
 * Read every PROFILEDATA block of `len` bytes (one process's section of
 * a `dumpsys gfxinfo PKG framestats`, or a part of one) into `d`
 * (initialised).  Never fails: what cannot be read is counted.
 */
void fst_parse(struct fst_dump *d, const char *buf, size_t len);

/* The name of column `c` as hwui prints it ("HandleInputStart"). */
const char *fst_col_name(enum fst_col c);

#endif
