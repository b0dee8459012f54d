/*
 * sfjank.c: SurfaceFlinger's jank dump of the simulated phone (sfjank.h).
 *
 * Times in the tables are ms from the oldest display frame kept, as
 * FrameTimeline prints them; only the token ties a frame to PROFILEDATA
 * (its FrameTimelineVsyncId).  A display frame is janky itself only when
 * the display HAL made it late; an app's late frame makes its layer
 * frame janky, and the display frame is dumped because of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sfjank.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

void
sf_ring_add(struct sf_ring *r, const struct framegen_frame *f, int pid)
{
	struct sf_frame *s = &r->v[r->next];

	s->activity = f->activity;
	s->pid = pid;
	s->token = f->vsync_id;
	s->intended = f->intended_vsync;
	s->deadline = f->frame_deadline;
	s->start = f->frame_start;
	s->done = f->gpu_completed > f->frame_completed ? f->gpu_completed :
	    f->frame_completed;
	s->present = f->display_present_time;
	s->jank = f->sf_jank;
	r->next = (r->next + 1) % SF_RING;
	if (r->n < SF_RING)
		r->n++;
}

struct item {
	const char *package;
	const struct sf_frame *f;
};

static int
by_present(const void *a, const void *b)
{
	const struct sf_frame *x = ((const struct item *)a)->f;
	const struct sf_frame *y = ((const struct item *)b)->f;

	if (x->present != y->present)
		return x->present < y->present ? -1 : 1;
	return (x->token > y->token) - (x->token < y->token);
}

/* "%10.2f" of ns as ms, from integers (no locale). */
static void
ms(struct strbuf *sb, long long ns)
{
	long long c = (ns >= 0 ? ns + 5000 : ns - 5000) / 10000;
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%s%lld.%02lld", c < 0 ? "-" : "",
	    llabs(c) / 100, llabs(c) % 100);

	strbuf_addf(sb, "%*s%s", n < 10 ? 10 - n : 0, "", buf);
}

static void
table(struct strbuf *sb, const char *indent, long long base,
    long long es, long long ee, long long ep, long long as, long long ae,
    long long ap)
{
	strbuf_addf(sb, "%s\t\t    Start time\t\t|    End time\t\t|    "
	    "Present time\n", indent);
	strbuf_addf(sb, "%sExpected\t|\t", indent);
	ms(sb, es - base);
	strbuf_addstr(sb, "\t|\t");
	ms(sb, ee - base);
	strbuf_addstr(sb, "\t|\t");
	ms(sb, ep - base);
	strbuf_addf(sb, "\n%sActual  \t|\t", indent);
	ms(sb, as - base);
	strbuf_addstr(sb, "\t|\t");
	ms(sb, ae - base);
	strbuf_addstr(sb, "\t|\t");
	ms(sb, ap - base);
	strbuf_addf(sb, "\n%s----------------------------------------------"
	    "------------------------------------------\n", indent);
}

static void
layer(struct strbuf *sb, const struct item *it, long long base,
    long long period)
{
	const struct sf_frame *f = it->f;
	char names[96];

	framegen_sf_names(f->jank, names, sizeof(names));
	strbuf_addf(sb, "    Layer - %s/%s#0%s\n", it->package, f->activity,
	    f->jank ? " [*] " : "");
	strbuf_addf(sb, "    Token: %lld\n", f->token);
	strbuf_addstr(sb, "    Is Buffer?: 1\n");
	strbuf_addf(sb, "    Owner Pid : %d\n", f->pid);
	strbuf_addf(sb, "    Scheduled rendering rate: %lld fps\n",
	    period > 0 ? (1000000000LL + period / 2) / period : 0);
	strbuf_addstr(sb, "    Present State : Presented\n");
	strbuf_addstr(sb, "    Prediction State : Valid\n");
	strbuf_addf(sb, "    Jank Type : %s\n", names);
	strbuf_addf(sb, "    Present Metadata : %s\n",
	    f->present > f->intended + 2 * period ? "Late Present" :
	    "On Time Present");
	strbuf_addf(sb, "    Finish Metadata: %s\n", f->done > f->deadline ?
	    "Late Finish" : "On Time Finish");
	strbuf_addstr(sb, "    Last latch time:   0.000000\n");
	table(sb, "    ", base, f->intended, f->deadline,
	    f->intended + 2 * period, f->start, f->done, f->present);
}

void
sf_dump_jank(struct strbuf *out, const struct sf_source *src, size_t nr,
    long long now_ns, long long period)
{
	struct item *v;
	size_t n = 0, ticks = 0, first = 0, frame_no = 0;
	long long base;

	for (size_t s = 0; s < nr; s++)
		n += src[s].ring->n;
	v = xcalloc(n + 1, sizeof(*v));
	n = 0;
	for (size_t s = 0; s < nr; s++)
		for (size_t i = 0; i < src[s].ring->n; i++)
			if (src[s].ring->v[i].present <= now_ns) {
				v[n].package = src[s].package;
				v[n++].f = &src[s].ring->v[i];
			}
	qsort(v, n, sizeof(*v), by_present);
	/* The last SF_DISPLAY_FRAMES display frames (present times). */
	for (size_t i = n; i-- > 0;) {
		if (i + 1 == n || v[i].f->present != v[i + 1].f->present)
			ticks++;
		if (ticks > SF_DISPLAY_FRAMES)
			break;
		first = i;
	}
	base = n ? v[first].f->intended : 0;
	for (size_t i = first; i < n;) {
		size_t j = i;
		unsigned any = 0, hal = 0;

		while (j < n && v[j].f->present == v[i].f->present) {
			any |= v[j].f->jank;
			hal |= v[j].f->jank & FRAMEGEN_SF_DISPLAY_HAL;
			j++;
		}
		if (any) {
			strbuf_addf(out, "Display Frame %zu%s\n", frame_no,
			    hal ? " [*] " : "");
			strbuf_addstr(out, "Prediction State : Valid\n");
			strbuf_addf(out, "Jank Type : %s\n", hal ?
			    "Display HAL" : "None");
			strbuf_addf(out, "Present Metadata : %s\n", hal ?
			    "Late Present" : "On Time Present");
			strbuf_addstr(out, "Finish Metadata: On Time Finish\n");
			strbuf_addstr(out, "Start Metadata: On Time Start\n");
			{
				char p[32];

				snprintf(p, sizeof(p), "%lld.%06lld",
				    period / 1000000, period % 1000000);
				strbuf_addf(out, "Vsync Period: %10s\n", p);
			}
			table(out, "", base, v[i].f->present - 2 * period,
			    v[i].f->present - period, v[i].f->present,
			    v[i].f->present - 2 * period,
			    v[i].f->present - period, v[i].f->present);
			strbuf_addch(out, '\n');
			for (size_t k = i; k < j; k++)
				layer(out, &v[k], base, period);
			strbuf_addch(out, '\n');
		}
		frame_no++;
		i = j;
	}
	free(v);
}
