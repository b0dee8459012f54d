/*
 * cmd_uiautomator.c: `uiautomator dump [--compressed] [FILE]`, the UI
 * hierarchy of the screen in front.
 *
 * The file (default /sdcard/window_dump.xml; /dev/tty and /dev/stdout go
 * to stdout) gets UiAutomator's XML, on one line, no newline at the end:
 *
 *   <?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy
 *   rotation="0"><node index="0" text="" resource-id="" class="android.
 *   widget.FrameLayout" package="com.example.shop" content-desc=""
 *   checkable="false" checked="false" clickable="false" enabled="true"
 *   focusable="false" focused="false" scrollable="false"
 *   long-clickable="false" password="false" selected="false"
 *   bounds="[0,0][1080,2400]"> ... </node></hierarchy>
 *
 * then stdout says "UI hierchary dumped to: FILE" (sic, as UiAutomator
 * spells it).  The app's elements sit under the decor view's content
 * frame; those inside a scrollable area under a RecyclerView.  The dump
 * waits for the screen to go idle, as UiAutomator does, and takes
 * device time.
 */
#include <string.h>

#include "appmodel.h"
#include "apprun.h"
#include "commands.h"
#include "simapps.h"
#include "simdev.h"
#include "simfs.h"
#include "simio.h"
#include "strbuf.h"
#include "banned.h"

#define DUMP_MS		600	/* UiAutomation connect + traversal */
#define IDLE_MAX_MS	10000
#define DEFAULT_FILE	"/sdcard/window_dump.xml"

static void
add_escaped(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&apos;"); break;
		default: strbuf_addch(out, *s);
		}
	}
}

struct node {
	int index;
	const char *text, *id, *cls, *desc;
	int clickable, scrollable;
	const int *b;		/* left, top, right, bottom */
};

/* Open a <node ...> (the caller closes it with "</node>"). */
static void
open_node(struct strbuf *out, const char *pkg, const struct node *n)
{
	strbuf_addf(out, "<node index=\"%d\" text=\"", n->index);
	add_escaped(out, n->text);
	strbuf_addstr(out, "\" resource-id=\"");
	add_escaped(out, n->id);
	strbuf_addf(out, "\" class=\"%s\" package=\"%s\" content-desc=\"",
	    n->cls, pkg);
	add_escaped(out, n->desc);
	strbuf_addf(out, "\" checkable=\"false\" checked=\"false\" "
	    "clickable=\"%s\" enabled=\"true\" focusable=\"%s\" "
	    "focused=\"false\" scrollable=\"%s\" long-clickable=\"false\" "
	    "password=\"false\" selected=\"false\" "
	    "bounds=\"[%d,%d][%d,%d]\">", n->clickable ? "true" : "false",
	    n->clickable || n->scrollable ? "true" : "false",
	    n->scrollable ? "true" : "false", n->b[0], n->b[1], n->b[2],
	    n->b[3]);
}

static const char *
element_class(const struct appmodel_element *e)
{
	if (*e->text)
		return e->tap == APPMODEL_TAP_NONE ? "android.widget.TextView" :
		    "android.widget.Button";
	return e->tap == APPMODEL_TAP_NONE ? "android.widget.ImageView" :
	    "android.widget.ImageButton";
}

static int
inside(const int *outer, const int *b)
{
	return b[0] >= outer[0] && b[1] >= outer[1] && b[2] <= outer[2] &&
	    b[3] <= outer[3];
}

/* The elements of `a` with `scrolled` inside (1) or outside (0) the list. */
static void
add_elements(struct strbuf *out, const char *pkg,
    const struct appmodel_activity *a, int scrolled, int first_index)
{
	int index = first_index;

	for (size_t i = 0; i < a->nr_elements; i++) {
		const struct appmodel_element *e = &a->elements[i];
		struct node n = { 0, e->text, e->id, element_class(e), e->desc,
		    e->tap != APPMODEL_TAP_NONE, 0, e->bounds };

		if (scrolled != (a->scrollable && inside(a->scroll_bounds,
		    e->bounds)))
			continue;
		n.index = index++;
		open_node(out, pkg, &n);
		strbuf_addstr(out, "</node>");
	}
}

/* The hierarchy of activity `a` of `pkg` (NULL: the launcher's). */
static void
hierarchy(struct strbuf *out, const char *pkg,
    const struct appmodel_activity *a, int w, int h)
{
	const int screen[4] = { 0, 0, w, h };
	struct node n = { 0, "", "", "android.widget.FrameLayout", "", 0, 0,
	    screen };

	strbuf_addstr(out, "<?xml version='1.0' encoding='UTF-8' "
	    "standalone='yes' ?><hierarchy rotation=\"0\">");
	open_node(out, pkg, &n);
	n.cls = "android.widget.LinearLayout";
	open_node(out, pkg, &n);
	n.cls = "android.widget.FrameLayout";
	n.id = "android:id/content";
	open_node(out, pkg, &n);
	if (a) {
		int outside = 0;

		if (a->scrollable) {
			struct node list = { 0, "", "",
			    "androidx.recyclerview.widget.RecyclerView", "", 0,
			    1, a->scroll_bounds };

			open_node(out, pkg, &list);
			add_elements(out, pkg, a, 1, 0);
			strbuf_addstr(out, "</node>");
			outside = 1;
		}
		add_elements(out, pkg, a, 0, outside);
	}
	strbuf_addstr(out, "</node></node></node></hierarchy>");
}

static int
ui_dump(struct simcmd_ctx *ctx, const char *file)
{
	struct simdev *dev = ctx->dev;
	struct strbuf xml = STRBUF_INIT;
	const struct appmodel_activity *a = NULL;
	const char *pkg = "com.android.launcher3";
	long long now = simdev_now_ns(dev), idle = now;
	struct apprun *r;
	int ret = 0;

	simdev_lock(dev);
	r = simapps_front(dev->apps);
	if (r)
		idle = apprun_idle_at(r);
	simdev_unlock(dev);
	/* UiAutomator waits for the UI to go idle before it traverses. */
	if (idle > now && simdev_spend(dev, ctx->io, (double)(idle - now) /
	    1e6 < IDLE_MAX_MS ? (double)(idle - now) / 1e6 : IDLE_MAX_MS))
		return 130;
	if (simdev_spend(dev, ctx->io, DUMP_MS))
		return 130;
	simdev_lock(dev);
	r = simapps_front(dev->apps);
	if (r) {
		pkg = apprun_model(r)->package;
		a = appmodel_activity(apprun_model(r), apprun_top(r));
	}
	hierarchy(&xml, pkg, a, dev->width, dev->height);
	simdev_unlock(dev);

	if (!strcmp(file, "/dev/tty") || !strcmp(file, "/dev/stdout"))
		simio_write(ctx->io, 1, xml.buf, xml.len);
	else if (simfs_write(dev->fs, file, xml.buf, xml.len, 0, 0660)) {
		simio_printf(ctx->io, 2, "ERROR: could not write %s\n", file);
		ret = 1;
	}
	if (!ret)
		simio_printf(ctx->io, 1, "UI hierchary dumped to: %s\n", file);
	strbuf_release(&xml);
	return ret;
}

int
cmd_uiautomator(struct simcmd_ctx *ctx, int argc, char **argv)
{
	const char *file = DEFAULT_FILE;
	int i;

	if (argc < 2 || strcmp(argv[1], "dump")) {
		simio_puts(ctx->io, 2, "Usage: uiautomator <subcommand> "
		    "[options]\n\nAvailable subcommands:\n\n"
		    "dump: creates an XML dump of current UI hierarchy\n");
		return 1;
	}
	for (i = 2; i < argc; i++)
		if (argv[i][0] != '-')
			file = argv[i];
	return ui_dump(ctx, file);
}
