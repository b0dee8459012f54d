/*
 * uidump.h: the UI hierarchy of `uiautomator dump`, parsed.
 *
 * `tap text|id|desc` and `wait text` find views in the dump UiAutomator
 * writes, outside measured scenes only.  This module is jankgate's one
 * adapter for libxml2: it turns the XML into a flat list of
 * views so nothing else sees an xmlNode.
 *
 *	<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
 *	<hierarchy rotation="0">
 *	  <node index="0" text="" resource-id="" class="android.widget.
 *	      FrameLayout" package="com.example.shop" content-desc=""
 *	      clickable="false" ... bounds="[0,0][1080,2400]">
 *	    <node ... text="Browse the feed" resource-id="com.example.shop:
 *	        id/browse" clickable="true" bounds="[90,1100][990,1260]"/>
 *	  </node>
 *	</hierarchy>
 *	UI hierchary dumped to: /dev/tty
 *
 * Everything outside <hierarchy>...</hierarchy> (the "dumped to" line
 * that `uiautomator dump /dev/tty` appends, warnings before it) is
 * ignored.  Views come in document order; a node without a usable bounds
 * attribute is kept with all bounds 0.  The parser never loads external
 * entities or DTDs, and libxml2's own limits cap depth and expansion.
 */
#ifndef JG_UIDUMP_H
#define JG_UIDUMP_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

struct uidump_node {
	char *text;		/* "" when absent, never NULL */
	char *id;		/* resource-id */
	char *desc;		/* content-desc */
	char *cls;
	char *package;
	int left, top, right, bottom;
	bool clickable;
};

enum uidump_by { UIDUMP_TEXT, UIDUMP_ID, UIDUMP_DESC };

struct uidump;

/*
 * Parse `len` bytes of dump output.  Returns 0 with *out set (free with
 * uidump_free), or JG_EINVAL ("no UI hierarchy in the dump", or the XML
 * error with its line) and *out NULL.
 */
int uidump_parse(struct uidump **out, const char *text, size_t len);

/* Free; NULL is a no-op. */
void uidump_free(struct uidump *d);

/* Initialise libxml2 once; call before starting threads (also lazy). */
void uidump_global_init(void);

size_t uidump_count(const struct uidump *d);
/* Node `i` (< uidump_count); borrowed, lives as long as `d`. */
const struct uidump_node *uidump_node(const struct uidump *d, size_t i);

/*
 * The first view whose text, resource-id or content-desc equals `value`.
 * For UIDUMP_ID a bare name ("buy") also matches "ANY.PACKAGE:id/buy".
 * Views with empty bounds are skipped.  NULL when none, or `value` is "".
 */
const struct uidump_node *uidump_find(const struct uidump *d,
    enum uidump_by by, const char *value);

/* The centre of a view, rounded down: where a tap lands. */
void uidump_center(const struct uidump_node *n, int *x, int *y);

/*
 * What is on screen, for a "not found" message, appended to `out`:
 * "texts 'A', 'B'; ids 'x:id/y'; descriptions 'Search'" with every string
 * escaped and cut to 60 bytes, at most 40 of each kind, or "nothing with
 * text, id or description" for an empty screen.
 */
void uidump_describe(const struct uidump *d, struct strbuf *out);

#endif
