/*
 * scenario.h: the scenario language (*.scn), parsed into a flat list of
 * steps.
 *
 * A scenario says what to do to the app in one iteration: launch it, drive
 * it with input, and mark the named windows ("scenes") whose frames are
 * measured.  This module reads and checks a scenario completely before any
 * device is touched, so `jankgate check` finds every mistake up front and
 * the executor never meets a bad step halfway through a run.
 *
 * THE LANGUAGE
 *
 *	# shop.scn: the nightly shop journey
 *	include common/login.scn
 *	launch cold .MainActivity
 *	wait activity .MainActivity 10s
 *	scene "feed scroll"
 *	    repeat 5
 *	        fling up 120ms      # the finger moves up, the list down
 *	        wait 400
 *	    end
 *	end
 *	tap text "Checkout"
 *
 * Lines.  One command per line, at most 64 words; blank lines are ignored
 * and indentation is free.  Files are UTF-8 (a leading byte order mark is
 * skipped) with LF or CRLF line ends; a NUL byte is an error.
 *
 * Words.  Spaces and tabs separate words.  A word is bare (printable
 * characters without spaces or double quotes: 50%, .Main, com.shop:id/buy)
 * or quoted ("Buy now").  Inside quotes the escapes \ " 
 	 work and any
 * other backslash is an error; a closing quote must be followed by a space
 * or the end of the line.  Control characters (except a tab inside quotes)
 * and invalid UTF-8 are errors.  Numbers, durations and keywords must be
 * bare; names and texts may be either.
 *
 * Comments.  A word that starts with '#' starts a comment running to the
 * end of the line, as in the shell: "tap 50% 80%  # buy" is a tap and a
 * comment, while a '#' inside a word (id#3) or inside quotes is ordinary.
 * Comments may hold any bytes but NUL.
 *
 * Coordinates.  X and Y are pixels (0 to 65535) or percentages of the
 * screen width or height, 0% to 100% with up to three decimals (50%,
 * 12.5%), so one script serves many screens.  On an axis of S pixels, P%
 * is the pixel round(P / 100 * S), halves rounded up, and 100% is the last
 * pixel, S - 1.  Pixels are checked against a real screen by
 * scenario_check_screen().
 *
 * Durations.  A plain integer is milliseconds (300); 300ms says the same,
 * and seconds take up to three decimals (2s, 1.5s).  Gestures last 1ms to
 * 60s; waits and timeouts 1ms to 3600s.
 *
 * Commands.  UPPER CASE is an argument, [..] is optional, "= x" the default.
 *
 *	launch [cold|warm|hot] [ACTIVITY]
 *		Start the app (= cold) and record its startup timing; ACTIVITY
 *		= the app's launcher activity.
 *	stop	Force-stop the app.
 *	clear	Clear the app's data.
 *	scene NAME ... end
 *		A measured window.
 *	repeat N ... end
 *		The lines up to the matching end, N times (1 to 10000).
 *	tap X Y
 *	tap text LABEL | tap id RESOURCE_ID | tap desc DESCRIPTION
 *		Tap the view that shows LABEL, has this resource id
 *		(buy, com.shop:id/buy) or this content description.
 *	longpress X Y [MS = 1000ms]
 *	swipe X1 Y1 X2 Y2 [MS = 300ms]
 *	fling up|down|left|right [MS = 100ms]
 *		A fast swipe across the middle of the screen from 75% to 25%
 *		of the axis (for up); the direction is the finger's.
 *	type TEXT
 *		Type TEXT into the focused field.
 *	key NAME|CODE
 *		Press a key: an Android key name (BACK, HOME, ENTER, MENU,
 *		DPAD_UP, TAB, DEL, SPACE, SEARCH, APP_SWITCH, VOLUME_UP,
 *		POWER, ESCAPE, A..Z, KEYCODE_0..KEYCODE_9, F1..F12, ...; any
 *		case, KEYCODE_ prefix optional) or a keycode from 1 to 999.
 *	wait MS
 *	wait idle [TIMEOUT = 10s]
 *		Until the app's UI thread is idle.
 *	wait activity ACTIVITY [TIMEOUT = 10s]
 *		Until ACTIVITY is in front.
 *	wait text TEXT [TIMEOUT = 10s]
 *		Until a view shows TEXT.
 *	expect activity ACTIVITY
 *		Fail the iteration unless ACTIVITY is in front.
 *	instrument RUNNER [TEST]... [arg KEY VALUE]...
 *		Run the configured test APK's instrumentation RUNNER (a class
 *		name: androidx.test.runner.AndroidJUnitRunner, or .Runner in
 *		the test package) with `am instrument -w -r`; each test it
 *		runs is a scene of its own.  TEST is a class, or
 *		CLASS#METHOD, as `-e class` takes them; without one every
 *		test runs.  Each `arg KEY VALUE` is passed as `-e KEY VALUE`
 *		(KEY: letters, digits, '_', '.', '-'; not "class").
 *	include FILE
 *		The lines of FILE, found relative to the including file's
 *		directory (or absolute).
 *	exec COMMAND [ARG...]
 *		Run COMMAND on the host (not the phone), found in PATH, with
 *		the words as its arguments and no shell in between; it
 *		drives the phone itself (run_exec.c says with what in its
 *		environment) and may mark its own scenes (run_markers.c).
 *		A non-zero exit fails the iteration.
 *
 * ACTIVITY is a class name with a dot in it: .MainActivity,
 * com.shop.MainActivity or com.shop/.MainActivity.  A scene NAME has 1 to
 * 100 bytes, no control characters, no space at either end, and is unique
 * within the scenario; it appears in reports and baseline paths.  LABEL,
 * DESCRIPTION, TEXT and FILE are not empty.
 *
 * Blocks.  Scenes may not nest, not even through a repeat or an include,
 * and may not sit inside a repeat: a scene is measured once per iteration,
 * so put the repeat inside it; `instrument`, whose tests are scenes, may
 * sit inside neither.  Inside a scene only input and plain waits
 * may run; refused are tap text/id/desc and wait text (they dump the UI
 * hierarchy), wait activity and expect activity (they query the activity
 * manager), and launch, stop, clear and instrument (they end the process
 * whose frames the scene counts).  A scene or repeat without a step is
 * an error.  A block must be closed in the file that opens it.
 *
 * Limits.  Blocks nest 16 deep, includes 16 deep, with 1000 includes in
 * all and no cycle; 1000 scenes; 1000000 steps with repeats multiplied
 * out; 4 MiB per file.
 *
 * Errors.  Each is "FILE:LINE:COL: message", FILE as the including chain
 * resolved it; lines and columns count from 1, a column in characters
 * (UTF-8 code points, a tab is one).  Parsing goes on after an error; after
 * 20 errors one "too many errors, stopping" ends the list.
 */
#ifndef JG_SCENARIO_H
#define JG_SCENARIO_H

#include <stddef.h>

struct scenario;
struct strbuf;
struct strlist;

enum scn_kind {
	SCN_LAUNCH,		/* mode, text = activity or NULL */
	SCN_STOP,
	SCN_CLEAR,
	SCN_SCENE,		/* text = name, match = its SCN_SCENE_END */
	SCN_SCENE_END,		/* match = its SCN_SCENE */
	SCN_REPEAT,		/* count, match = its SCN_REPEAT_END */
	SCN_REPEAT_END,		/* match = its SCN_REPEAT */
	SCN_TAP,		/* x1, y1 */
	SCN_TAP_TEXT,		/* text */
	SCN_TAP_ID,		/* text */
	SCN_TAP_DESC,		/* text */
	SCN_LONGPRESS,		/* x1, y1, ms */
	SCN_SWIPE,		/* x1, y1, x2, y2, ms */
	SCN_FLING,		/* dir, ms */
	SCN_TYPE,		/* text */
	SCN_KEY,		/* key */
	SCN_WAIT,		/* ms */
	SCN_WAIT_IDLE,		/* ms = timeout */
	SCN_WAIT_ACTIVITY,	/* text = activity, ms = timeout */
	SCN_WAIT_TEXT,		/* text, ms = timeout */
	SCN_EXPECT_ACTIVITY,	/* text = activity */
	SCN_EXEC,		/* argv = the host command */
	SCN_INSTRUMENT,		/* text = runner, tests, extras */
};

enum scn_launch { SCN_COLD, SCN_WARM, SCN_HOT };
enum scn_dir { SCN_UP, SCN_DOWN, SCN_LEFT, SCN_RIGHT };

/* Defaults for optional durations, in milliseconds. */
#define SCN_LONGPRESS_MS 1000
#define SCN_SWIPE_MS 300
#define SCN_FLING_MS 100
#define SCN_TIMEOUT_MS 10000

/* Limits (see THE LANGUAGE above). */
#define SCN_MAX_ERRORS 20
#define SCN_MAX_DEPTH 16

/* A coordinate as written: pixels, or thousandths of a percent. */
struct scenario_coord {
	int value;	/* pixels, or 0..100000 (= 0%..100%) when percent */
	int percent;	/* 1 when value is a percentage */
	int col;	/* column of the word, for messages */
};

/*
 * One step.  Which fields mean something depends on `kind` (see the enum);
 * the others are zero.  Durations and timeouts are always filled in, with
 * the defaults above when the script gave none.  Strings are owned by the
 * scenario and live as long as it does.
 */
struct scenario_step {
	enum scn_kind kind;
	const char *file;	/* file name as shown in messages */
	int line, col;		/* of the command word */
	struct scenario_coord x1, y1, x2, y2;
	int ms;			/* duration or timeout */
	int count;		/* repeat count */
	int key;		/* Android keycode */
	enum scn_launch mode;
	enum scn_dir dir;
	char *text;		/* name, label, id, text or activity */
	char **argv;		/* SCN_EXEC: the words, NULL-terminated */
	size_t match;		/* index of the other end of a block */
	char **tests;		/* instrument: CLASS or CLASS#METHOD each */
	size_t nr_tests;
	char **extras;		/* instrument: KEY, VALUE, KEY, VALUE... */
	size_t nr_extras;	/* words in extras (two per `arg`) */
};

/*
 * Read and parse the scenario at `path`, with its includes.  On success
 * returns 0 and stores a scenario the caller frees with scenario_free().  On
 * failure returns JG_EINVAL (a language error), JG_ENOTFOUND or JG_EIO (the
 * file itself cannot be read) and sets *out to NULL; every problem found
 * inside the file is appended to `problems` (one "FILE:LINE:COL: message"
 * each) and the error message holds the first.  When the file itself
 * cannot be read (missing, not a regular file, too large) nothing is
 * appended and only the error message says why: the caller knows which
 * configuration key named the file and says so.  `problems` may be NULL.
 */
int scenario_load(struct scenario **out, const char *path,
    struct strlist *problems);

/*
 * Like scenario_load() on `len` bytes of `buf`, shown in messages as `name`
 * (whose stem becomes the scenario name).  Includes are resolved relative to
 * `base_dir` (the current directory when NULL or "").
 */
int scenario_parse(struct scenario **out, const char *buf, size_t len,
    const char *name, const char *base_dir, struct strlist *problems);

/* Free a scenario; NULL is a no-op. */
void scenario_free(struct scenario *scn);

/* The scenario's name: the file name without directory and extension. */
const char *scenario_name(const struct scenario *scn);

/* The top file's name as shown in messages. */
const char *scenario_path(const struct scenario *scn);

/*
 * The steps, includes spliced in, with explicit begin/end markers for scenes
 * and repeats.  Step pointers are borrowed and live as long as `scn`.
 */
size_t scenario_step_count(const struct scenario *scn);
const struct scenario_step *scenario_step(const struct scenario *scn, size_t i);

/* The scenes in order; scenario_scene() returns the SCN_SCENE step. */
size_t scenario_scene_count(const struct scenario *scn);
const struct scenario_step *scenario_scene(const struct scenario *scn,
    size_t i);

/* How many steps scenario_cursor_next() yields for one iteration. */
size_t scenario_length(const struct scenario *scn);

/*
 * Report every pixel coordinate outside a width x height screen, as
 * "FILE:LINE:COL: coordinates off screen (1200 x 300 on a 1080x2400 screen)".
 * Returns 0, or JG_EINVAL with the first problem as the error message and
 * all of them appended to `problems` (unless NULL).
 */
int scenario_check_screen(const struct scenario *scn, int width, int height,
    struct strlist *problems);

/*
 * A coordinate in pixels on an axis of `size` pixels (the screen width for
 * X, the height for Y).  Percentages follow the rounding rule above; pixels
 * are returned as written.
 */
int scenario_resolve(const struct scenario_coord *c, int size);

/*
 * The start and end points of a SCN_FLING step on a width x height screen,
 * as xy[] = { x1, y1, x2, y2 } in pixels.
 */
void scenario_fling_path(const struct scenario_step *step, int width,
    int height, int xy[4]);

/*
 * Walks one iteration of a scenario with repeats expanded: every step except
 * SCN_REPEAT and SCN_REPEAT_END, in execution order, scene markers included.
 * Embed it and start it with scenario_cursor_init(); it owns nothing.
 */
struct scenario_cursor {
	const struct scenario *scn;
	size_t pc;
	int depth;
	struct {
		size_t begin;
		int left;
	} stack[SCN_MAX_DEPTH];
};

void scenario_cursor_init(struct scenario_cursor *cur,
    const struct scenario *scn);

/* The next step to run, or NULL after the last one. */
const struct scenario_step *scenario_cursor_next(struct scenario_cursor *cur);

/*
 * Append `step` to `out` in the language's canonical form, without a newline
 * ("tap 50% 80%", "wait idle 10000ms", "scene \"feed scroll\""), for logs.
 */
void scenario_format_step(const struct scenario_step *step, struct strbuf *out);

/* The Android key name of `code` ("BACK"), or NULL when it has none here. */
const char *scenario_key_name(int code);

#endif
