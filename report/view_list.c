/*
 * view_list.c: the report-wide lists of the view: the rows and blocks that
 * need attention, noted as devices and scenarios are built, then put into
 * the model worst first.
 */
#include <stdio.h>
#include <stdlib.h>

#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

int
view_block_rank(enum cmp_block_status s)
{
	switch (s) {
	case CMP_BLOCK_WORSE:
		return 3;
	case CMP_BLOCK_NEW:
		return 2;
	case CMP_BLOCK_RESOLVED:
		return 1;
	default:
		return 0;
	}
}

void
view_note_row(struct view_builder *b, const cJSON *row, enum cmp_verdict v)
{
	if (v == CMP_PASS || v == CMP_NEW)
		return;
	XALLOC_GROW(b->rows, b->nr_rows + 1, b->alloc_rows);
	b->rows[b->nr_rows] = (struct view_item){ row, (int)v, b->nr_rows };
	b->nr_rows++;
}

void
view_note_suspect(struct view_builder *b, const cJSON *row)
{
	XALLOC_GROW(b->suspects, b->nr_suspects + 1, b->alloc_suspects);
	b->suspects[b->nr_suspects] = (struct view_item){ row, 0,
	    b->nr_suspects };
	b->nr_suspects++;
}

void
view_note_block(struct view_builder *b, const cJSON *blk,
    enum cmp_block_status s)
{
	if (s != CMP_BLOCK_NEW && s != CMP_BLOCK_WORSE)
		return;
	XALLOC_GROW(b->blocks, b->nr_blocks + 1, b->alloc_blocks);
	b->blocks[b->nr_blocks] = (struct view_item){ blk, view_block_rank(s),
	    b->nr_blocks };
	b->nr_blocks++;
}

static int
by_severity(const void *pa, const void *pb)
{
	const struct view_item *a = pa, *b = pb;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * Add `key` with references to those of items[0..nr) whose severity is in
 * [min_severity, max_severity], worst first, at most `max`, and
 * "<key>_more": the number left out, when any.
 */
void
view_list_add(cJSON *root, const char *key, struct view_item *items, size_t nr,
    size_t max, int min_severity, int max_severity)
{
	cJSON *arr = cJSON_CreateArray();
	size_t shown = 0, left = 0;
	char more[64];

	if (nr)
		qsort(items, nr, sizeof(*items), by_severity);
	for (size_t i = 0; i < nr; i++) {
		if (items[i].severity < min_severity ||
		    items[i].severity > max_severity)
			continue;
		if (shown < max) {
			view_json_add_ref(arr, items[i].obj);
			shown++;
		} else {
			left++;
		}
	}
	view_json_list(root, key, arr);
	snprintf(more, sizeof(more), "%s_more", key);
	if (left)
		cJSON_AddNumberToObject(root, more, (double)left);
}
