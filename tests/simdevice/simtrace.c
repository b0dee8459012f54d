/*
 * simtrace.c: the trace buffer behind the simulated `atrace` (issue 52).
 *
 * What the kernel keeps for atrace, as far as an app's Trace sections
 * need: one event per write to trace_marker, stamped on the trace clock
 * atrace picks ("boot" here: CLOCK_BOOTTIME, ahead of CLOCK_MONOTONIC
 * by --slept-ms), on the CPU the thread ran on (here tid % NR_CPUS), in
 * a per-CPU buffer of -b KB that, with atrace's default of no
 * overwrite, drops new events once full.  An event costs what the
 * kernel's print entry does: a 12-byte header and the text with its NUL,
 * rounded up to 4 bytes.  The dump prints, as /sys/kernel/tracing/trace:
 *
 *	# tracer: nop
 *	#
 *	# entries-in-buffer/entries-written: N/N   #P:8
 *	#
 *	#                                _-----=> irqs-off
 *	...
 *	#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
 *	#              | |        |      |   ||||       |         |
 *	 example.shop-3127  ( 3127) [007] ...1  3605.337040: tracing_mark_write: B|3127|jankgate:feed 1
 *
 * TASK is the thread's name, its last 15 bytes as the kernel keeps them.
 */
#include <stdlib.h>
#include <string.h>

#include "simtrace.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define NR_CPUS		8

struct event {
	long long ns;		/* monotonic */
	char comm[16];
	int pid, tid;
	char *text;
};

struct simtrace {
	int on;
	char *apps;		/* ",a,b," for a cheap match */
	long kb;
	long long start_ns, boot_ahead_ns;
	struct event *ev;
	size_t nr, alloc;
};

struct simtrace *
simtrace_new(void)
{
	return xcalloc(1, sizeof(struct simtrace));
}

static void
clear(struct simtrace *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->ev[i].text);
	t->nr = 0;
}

void
simtrace_free(struct simtrace *t)
{
	if (!t)
		return;
	clear(t);
	free(t->ev);
	free(t->apps);
	free(t);
}

static void
add(struct simtrace *t, const char *comm, int pid, int tid, long long ns,
    const char *text)
{
	size_t n = strlen(comm);
	struct event *e;

	XALLOC_GROW(t->ev, t->nr + 1, t->alloc);
	e = &t->ev[t->nr++];
	e->ns = ns;
	/* The kernel keeps a thread name's last 15 bytes. */
	memcpy(e->comm, comm + (n > 15 ? n - 15 : 0), n > 15 ? 15 : n);
	e->comm[n > 15 ? 15 : n] = '\0';
	e->pid = pid;
	e->tid = tid;
	e->text = xstrdup(text);
}

void
simtrace_start(struct simtrace *t, const char *apps, long kb,
    long long now_ns, long long boot_ahead_ns)
{
	struct strbuf sb = STRBUF_INIT;
	/* atrace prints CLOCK_MONOTONIC from a float. */
	float parent = (float)((double)now_ns / 1e9);
	char *text;

	clear(t);
	free(t->apps);
	strbuf_addf(&sb, ",%s,", apps ? apps : "");
	t->apps = strbuf_detach(&sb, NULL);
	t->kb = kb;
	t->on = 1;
	t->start_ns = now_ns;
	t->boot_ahead_ns = boot_ahead_ns;
	text = xasprintf("trace_event_clock_sync: parent_ts=%f",
	    (double)parent);
	add(t, "atrace", 4211, 4211, now_ns, text);
	free(text);
}

void
simtrace_write(struct simtrace *t, const char *package, const char *comm,
    int pid, int tid, long long mono_ns, const char *payload)
{
	char *key;

	if (!t || !t->on || mono_ns < t->start_ns)
		return;
	key = xasprintf(",%s,", package);
	if (strstr(t->apps, key))
		add(t, comm, pid, tid, mono_ns, payload);
	free(key);
}

static int
by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

void
simtrace_dump(struct simtrace *t, long long now_ns, int stop,
    struct strbuf *out)
{
	long long used[NR_CPUS] = { 0 };
	struct strbuf body = STRBUF_INIT;
	size_t kept = 0;

	/* Stable enough: events of one time keep their write order. */
	for (size_t i = 1; i < t->nr; i++)
		for (size_t j = i; j && by_time(&t->ev[j - 1], &t->ev[j]) > 0;
		    j--) {
			struct event tmp = t->ev[j];

			t->ev[j] = t->ev[j - 1];
			t->ev[j - 1] = tmp;
		}
	for (size_t i = 0; i < t->nr; i++) {
		const struct event *e = &t->ev[i];
		int cpu = e->tid % NR_CPUS;
		long long cost = 12 + (((long long)strlen(e->text) + 1 + 3) &
		    ~3LL);
		long long boot = e->ns + t->boot_ahead_ns;

		if (e->ns > now_ns)
			continue;
		if (used[cpu] + cost > t->kb * 1024)
			continue;	/* full: no overwrite */
		used[cpu] += cost;
		kept++;
		strbuf_addf(&body, "%16s-%-5d (%5d) [%03d] ...1 %5lld.%06lld: "
		    "tracing_mark_write: %s\n", e->comm, e->tid, e->pid, cpu,
		    boot / 1000000000LL, boot % 1000000000LL / 1000, e->text);
	}
	strbuf_addf(out, "# tracer: nop\n#\n"
	    "# entries-in-buffer/entries-written: %zu/%zu   #P:%d\n#\n"
	    "#                                _-----=> irqs-off\n"
	    "#                               / _----=> need-resched\n"
	    "#                              | / _---=> hardirq/softirq\n"
	    "#                              || / _--=> preempt-depth\n"
	    "#                              ||| /     delay\n"
	    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	    "#              | |        |      |   ||||       |         |\n",
	    kept, kept, NR_CPUS);
	strbuf_add(out, body.buf, body.len);
	strbuf_release(&body);
	if (stop) {
		t->on = 0;
		clear(t);
	}
}
