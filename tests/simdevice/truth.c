/*
 * truth.c: JSON Lines of generated facts.
 *
 * cJSON builds each line (it escapes strings and prints integers below
 * 2^53 exactly, which covers ns timestamps of any plausible uptime); a
 * mutex keeps lines from interleaving, and every line is flushed so a
 * test that reads the file after a command sees everything.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <cJSON.h>

#include "error.h"
#include "truth.h"
#include "xalloc.h"
#include "banned.h"

struct truth {
	pthread_mutex_t lock;
	FILE *f;
};

static const char *const state_names[] = { "cold", "warm", "hot" };

int
truth_open(struct truth **out, const char *path)
{
	struct truth *t;
	FILE *f = fopen(path, "a");

	*out = NULL;
	if (!f)
		return jg_error_errno(JG_EIO, errno, "cannot open '%s'", path);
	t = xcalloc(1, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->f = f;
	*out = t;
	return 0;
}

void
truth_close(struct truth *t)
{
	if (!t)
		return;
	fclose(t->f);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/* A line's object with its kind, package and activity. */
static cJSON *
line_new(const char *kind, const char *package, const char *activity)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "kind", kind);
	cJSON_AddStringToObject(j, "package", package);
	cJSON_AddStringToObject(j, "activity", activity);
	return j;
}

/* Write and free `j`. */
static void
emit(struct truth *t, cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);

	pthread_mutex_lock(&t->lock);
	fputs(s, t->f);
	fputc('\n', t->f);
	fflush(t->f);
	pthread_mutex_unlock(&t->lock);
	cJSON_free(s);
	cJSON_Delete(j);
}

void
truth_frame(struct truth *t, const char *package,
    const struct framegen_frame *f)
{
	cJSON *j = line_new("frame", package, f->activity);

	cJSON_AddNumberToObject(j, "start_ns", (double)f->intended_vsync);
	cJSON_AddNumberToObject(j, "end_ns", (double)f->frame_completed);
	cJSON_AddNumberToObject(j, "duration_ns",
	    (double)framegen_duration(f));
	cJSON_AddNumberToObject(j, "flags", f->flags);
	cJSON_AddNumberToObject(j, "skipped", f->skipped);
	cJSON_AddNumberToObject(j, "block", (double)f->block);
	/* SurfaceFlinger's side (sfjank.c): what its jank dump says. */
	cJSON_AddNumberToObject(j, "vsync_id", (double)f->vsync_id);
	cJSON_AddNumberToObject(j, "present_ns",
	    (double)f->display_present_time);
	{
		char names[96];

		framegen_sf_names(f->sf_jank, names, sizeof(names));
		cJSON_AddStringToObject(j, "sf_jank", names);
	}
	emit(t, j);
}

void
truth_block(struct truth *t, const char *package,
    const struct framegen_block *b)
{
	cJSON *j = line_new("block", package, b->activity);
	cJSON *stack = cJSON_AddArrayToObject(j, "stack");
	cJSON *ids = cJSON_AddArrayToObject(j, "methods");
	size_t i;

	cJSON_AddNumberToObject(j, "start_ns", (double)b->start_ns);
	cJSON_AddNumberToObject(j, "end_ns", (double)b->end_ns);
	cJSON_AddNumberToObject(j, "duration_ms",
	    (double)(b->end_ns - b->start_ns) / 1e6);
	cJSON_AddNumberToObject(j, "thread_ms", b->thread_ms);
	for (i = 0; i < b->model->nr_stack; i++)
		cJSON_AddItemToArray(stack,
		    cJSON_CreateString(b->model->stack[i]));
	for (i = 0; i < b->model->nr_method_ids; i++)
		cJSON_AddItemToArray(ids,
		    cJSON_CreateNumber(b->model->method_ids[i]));
	emit(t, j);
}

void
truth_launch(struct truth *t, const char *package,
    const struct framegen_launch *l)
{
	cJSON *j = line_new("launch", package, l->activity);

	cJSON_AddStringToObject(j, "state", state_names[l->state]);
	cJSON_AddNumberToObject(j, "start_ns", (double)l->start_ns);
	cJSON_AddNumberToObject(j, "displayed_ns", (double)l->displayed_ns);
	cJSON_AddNumberToObject(j, "total_ms", (double)l->total_ms);
	cJSON_AddNumberToObject(j, "wait_ms", (double)l->wait_ms);
	cJSON_AddNumberToObject(j, "app_create_ms", (double)l->app_create_ms);
	cJSON_AddNumberToObject(j, "first_activity_ms",
	    (double)l->first_activity_ms);
	cJSON_AddNumberToObject(j, "fully_drawn_ms",
	    (double)l->fully_drawn_ms);
	emit(t, j);
}

void
truth_method(struct truth *t, const char *package,
    const struct framegen_method *m)
{
	cJSON *j = line_new("method", package, m->activity);

	cJSON_AddStringToObject(j, "name", m->model->name);
	cJSON_AddNumberToObject(j, "at_ns", (double)m->at_ns);
	cJSON_AddNumberToObject(j, "ms", m->ms);
	cJSON_AddBoolToObject(j, "main", m->model->main_thread);
	emit(t, j);
}

void
truth_record(struct truth *t, const char *package,
    const struct framegen_out *out, struct truth_mark *from)
{
	size_t i;

	if (out->has_launch)
		truth_launch(t, package, &out->launch);
	for (i = from->blocks; i < out->nr_blocks; i++)
		truth_block(t, package, &out->blocks[i]);
	for (i = from->frames; i < out->nr_frames; i++)
		truth_frame(t, package, &out->frames[i]);
	for (i = from->methods; i < out->nr_methods; i++)
		truth_method(t, package, &out->methods[i]);
	from->frames = out->nr_frames;
	from->blocks = out->nr_blocks;
	from->methods = out->nr_methods;
}
